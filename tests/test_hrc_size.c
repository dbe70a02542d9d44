/* The HRC size bound (propagator/smc/hrc/smc_hrc_size.h) against brute force: tiny random
 * instances (singles, couples with joint lists that may name one hospital twice, capacities
 * 0..2), random domains and random bounds on size. Every assignment inside the domains that
 * respects the capacities and has a size within the bounds must survive the propagation (not
 * failed, still inside the domains) with lb <= its size <= ub; on fixed domains lb = ub = the
 * size. The work space is kept across draws of one instance, so the kept matching is tested as
 * a starting point too. The counts at the end show that the bound and its rules did fire. */
#include "smc_hrc_size.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_S 4
#define MAX_C 3
#define MAX_H 3
#define MAX_L 4
#define MAX_V (MAX_S + MAX_C)

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static unsigned draw(unsigned n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (unsigned)(rng % n);
}

typedef struct inst {
  int ns, nc, nh;
  uint32_t sstart[MAX_S + 1], cstart[MAX_C + 1];
  int32_t shosp[MAX_S * MAX_L], cpair[2 * MAX_C * MAX_L], cap[MAX_H];
} inst;

static void random_inst(inst *I) {
  memset(I, 0, sizeof *I);
  I->ns = (int)draw(MAX_S + 1), I->nc = (int)draw(MAX_C + 1), I->nh = 1 + (int)draw(MAX_H);
  for (int h = 0; h < I->nh; h++) I->cap[h] = (int)draw(3);
  for (int i = 0; i < I->ns; i++) {
    int len = (int)draw(MAX_L + 1) % (I->nh + 1);
    I->sstart[i + 1] = I->sstart[i] + (uint32_t)len;
    for (int k = 0; k < len; k++) I->shosp[I->sstart[i] + (uint32_t)k] = (int32_t)draw((unsigned)I->nh);
  }
  for (int c = 0; c < I->nc; c++) {
    int len = (int)draw(MAX_L + 1);
    I->cstart[c + 1] = I->cstart[c] + (uint32_t)len;
    for (int k = 0; k < 2 * len; k++) I->cpair[2 * I->cstart[c] + (uint32_t)k] = (int32_t)draw((unsigned)I->nh);
  }
}

static int len_of(const inst *I, int v) {
  return v < I->ns ? (int)(I->sstart[v + 1] - I->sstart[v]) : (int)(I->cstart[v - I->ns + 1] - I->cstart[v - I->ns]);
}

typedef struct doms {
  uint32_t mask[MAX_V];
} doms;
static int d_max(void *c, int v) { return 31 - __builtin_clz(((doms *)c)->mask[v]); }
static int d_min(void *c, int v) { return __builtin_ctz(((doms *)c)->mask[v]); }
static bool d_contains(void *c, int v, int k) { return k >= 0 && k < 32 && (((doms *)c)->mask[v] >> k & 1u); }
static bb_smc_status d_set(doms *D, int v, uint32_t m) {
  if (m == D->mask[v]) return BB_SMC_FIX;
  D->mask[v] = m;
  return m ? BB_SMC_CHANGED : BB_SMC_FAILED;
}
static bb_smc_status d_assign(void *c, int v, int k) { return d_set(c, v, ((doms *)c)->mask[v] & (1u << k)); }
static bb_smc_status d_remove(void *c, int v, int k) { return d_set(c, v, ((doms *)c)->mask[v] & ~(1u << k)); }
static bb_smc_status d_lower_max(void *c, int v, int k) { return d_set(c, v, ((doms *)c)->mask[v] & ((2u << k) - 1)); }

/* The size of assignment val, or -1 when it puts more residents at a hospital than it has posts. */
static int size_of(const inst *I, const int *val) {
  int held[MAX_H] = {0}, size = 0;
  for (int v = 0; v < I->ns + I->nc; v++) {
    if (val[v] == len_of(I, v)) continue;
    if (v < I->ns) {
      held[I->shosp[I->sstart[v] + (uint32_t)val[v]]]++, size++;
    } else {
      uint32_t e = I->cstart[v - I->ns] + (uint32_t)val[v];
      held[I->cpair[2 * e]]++, held[I->cpair[2 * e + 1]]++, size += 2;
    }
  }
  for (int h = 0; h < I->nh; h++)
    if (held[h] > I->cap[h]) return -1;
  return size;
}

static long failures, draws, checked, bites, pruned, fails_ok;

/* Every assignment inside `before` with a size in lo..hi, checked against the propagation's
 * outcome (after, st, lb, ub). */
static void each(const inst *I, const doms *before, const doms *after, bb_smc_status st, int lo, int hi, int lb, int ub,
                 int v, int *val) {
  int n = I->ns + I->nc;
  if (v == n) {
    int size = size_of(I, val);
    if (size < 0 || size < lo || size > hi) return;
    checked++;
    bool inside = true;
    for (int w = 0; w < n; w++) inside = inside && (after->mask[w] >> val[w] & 1u);
    if (st == BB_SMC_FAILED || !inside || size < lb || size > ub) {
      if (failures++ < 5) {
        fprintf(stderr,
                "draw %ld: a matching of size %d (bounds %d..%d) lost: status %d, lb %d, ub %d, inside %d; "
                "values",
                draws, size, lo, hi, (int)st, lb, ub, inside);
        for (int w = 0; w < n; w++) fprintf(stderr, " %d", val[w]);
        fprintf(stderr, "\n");
      }
    }
    return;
  }
  for (int k = 0; k <= len_of(I, v); k++)
    if (before->mask[v] >> k & 1u) val[v] = k, each(I, before, after, st, lo, hi, lb, ub, v + 1, val);
}

int main(void) {
  for (int round = 0; round < 5000; round++) {
    inst I;
    random_inst(&I);
    bb_smc_hrc_size_lists L = {I.ns, I.nc, I.nh, I.sstart, I.shosp, I.cstart, I.cpair, I.cap};
    bb_smc_hrc_size *t = NULL;
    bb_error err = {{0}};
    if (bb_smc_hrc_size_new(&L, &t, &err) != BB_OK) {
      fprintf(stderr, "new: %s\n", err.msg);
      return 1;
    }
    bb_smc_hrc_size_scratch *s = bb_smc_hrc_size_scratch_new(t, &err);
    if (!s) return fprintf(stderr, "scratch: %s\n", err.msg), 1;
    int n = I.ns + I.nc, nr = I.ns + 2 * I.nc;
    for (int rep = 0; rep < 8; rep++) {
      doms before, after;
      for (int v = 0; v < n; v++) {
        uint32_t all = (2u << len_of(&I, v)) - 1, m;
        int kind = (int)draw(4); /* whole, a random subset, fixed */
        do m = kind == 0 ? all : kind == 3 ? 1u << draw((unsigned)len_of(&I, v) + 1) : all & (uint32_t)draw(1u << 5);
        while (!m);
        before.mask[v] = m;
      }
      int lo = (int)draw((unsigned)nr + 1), hi = lo + (int)draw((unsigned)(nr - lo) + 1);
      if (draw(3) == 0) lo = 0;
      if (draw(3) == 0) hi = nr;
      after = before;
      bb_smc_domains d = {.ctx = &after,
                          .min = d_min,
                          .max = d_max,
                          .contains = d_contains,
                          .assign = d_assign,
                          .lower_max = d_lower_max,
                          .remove = d_remove};
      int lb = -1, ub = -1;
      bb_smc_status st = bb_smc_hrc_size_propagate(t, s, &d, lo, hi, &lb, &ub);
      draws++;
      bites += st != BB_SMC_FAILED && ub < nr;
      pruned += st == BB_SMC_CHANGED;
      fails_ok += st == BB_SMC_FAILED;
      int val[MAX_V];
      each(&I, &before, &after, st, lo, hi, lb, ub, 0, val);
      bool fixed = true;
      for (int v = 0; v < n; v++) fixed = fixed && __builtin_popcount(before.mask[v]) == 1;
      if (fixed && st != BB_SMC_FAILED) {
        for (int v = 0; v < n; v++) val[v] = __builtin_ctz(before.mask[v]);
        int size = size_of(&I, val);
        if (size >= 0 && (lb != size || ub != size) && failures++ < 5)
          fprintf(stderr, "draw %ld: fixed domains of size %d, bounds %d..%d\n", draws, size, lb, ub);
      }
    }
    bb_smc_hrc_size_scratch_free(s);
    bb_smc_hrc_size_free(t);
  }
  printf(
      "%ld draws, %ld matchings checked; the upper bound below the residents %ld times, %ld prunings, %ld "
      "failures; %ld wrong\n",
      draws, checked, bites, pruned, fails_ok, failures);
  return failures || !bites || !pruned || !fails_ok ? 1 : 0;
}
