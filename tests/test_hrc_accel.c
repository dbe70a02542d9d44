/* The HRC propagation's parallel path (propagator/smc/hrc/smc_hrc_accel.c, the steps of
 * cuda/hrc_accel_steps.h) against its CPU path (smc_hrc_count.c's host counting pass):
 *   - random HRC instances with couples: tiny ones from harness/bth_hrc.h (couples at one
 *     hospital, capacity 0, entries a hospital does not list) and generated ones of a few
 *     hundred to a few thousand residents (bb_hrc_generate, the Constraints 2017 and a
 *     shrunken NRMP shape);
 *   - random domain reductions (values removed, bounds cut, variables fixed) and a random
 *     maximum for bp, then a chain of decisions down to a fixpoint or a failure: after every
 *     propagation, the same outcome, the same bounds on bp and the same domain of every
 *     variable on both paths, and the counting pass's arrays equal to the host's;
 *   - the same with ties on the hospitals' side (the counts taken through each tie);
 *   - an engine failure mid-run: one warning, the CPU from then on, the same domains.
 * `test_hrc_accel` runs the emulation (host threads), `test_hrc_accel gpu` the GPU and exits
 * 77 without one. The test fails if the parallel path never ran. */
#include "bb_gpu_device.h"
#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_accel.h"
#include "smc_hrc_count.h"
#include "hrc_gen.h"
#include "smc_hrc_path.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bb_smc_path path = BB_SMC_PATH_EMULATED;
static long long domain_checks, count_checks, propagations, failures_seen;

/* ---- Domains: one byte per value ------------------------------------------------------------ */

typedef struct doms {
  int vars, cells;
  int *off, *top; /* variable v's values 0..top[v] are cell[off[v] + k] */
  uint8_t *cell;
} doms;

static doms *doms_new(const bb_smc_hrc *d) {
  doms *D = calloc(1, sizeof *D);
  D->vars = bb_smc_hrc_singles(d) + bb_smc_hrc_couples(d);
  D->off = malloc(((size_t)D->vars + 1) * sizeof(int));
  D->top = malloc(((size_t)D->vars + 1) * sizeof(int));
  for (int v = 0; v < D->vars; v++) D->off[v] = D->cells, D->top[v] = bb_smc_hrc_len(d, v), D->cells += D->top[v] + 1;
  D->cell = calloc((size_t)D->cells + 1, 1);
  for (int v = 0; v < D->vars; v++) { /* the root: acceptable entries and unassigned, as the shim posts */
    for (int k = 0; k < D->top[v]; k++) D->cell[D->off[v] + k] = bb_smc_hrc_acceptable(d, v, k);
    D->cell[D->off[v] + D->top[v]] = 1;
  }
  return D;
}
static doms *doms_clone(const doms *from) {
  doms *D = malloc(sizeof *D);
  *D = *from;
  D->off = malloc(((size_t)D->vars + 1) * sizeof(int));
  D->top = malloc(((size_t)D->vars + 1) * sizeof(int));
  D->cell = malloc((size_t)D->cells + 1);
  memcpy(D->off, from->off, (size_t)D->vars * sizeof(int));
  memcpy(D->top, from->top, (size_t)D->vars * sizeof(int));
  memcpy(D->cell, from->cell, (size_t)D->cells + 1);
  return D;
}
static void doms_free(doms *D) {
  if (!D) return;
  free(D->off), free(D->top), free(D->cell), free(D);
}
static bool has(const doms *D, int v, int k) { return k >= 0 && k <= D->top[v] && D->cell[D->off[v] + k]; }
static int d_min(void *c, int v) {
  const doms *D = c;
  for (int k = 0; k <= D->top[v]; k++)
    if (has(D, v, k)) return k;
  return D->top[v] + 1;
}
static int d_max(void *c, int v) {
  const doms *D = c;
  for (int k = D->top[v]; k >= 0; k--)
    if (has(D, v, k)) return k;
  return -1;
}
static int d_size(void *c, int v) {
  const doms *D = c;
  int n = 0;
  for (int k = 0; k <= D->top[v]; k++) n += has(D, v, k);
  return n;
}
static bool d_contains(void *c, int v, int k) { return has(c, v, k); }
static bb_smc_status d_remove(void *c, int v, int k) {
  doms *D = c;
  if (!has(D, v, k)) return BB_SMC_FIX;
  D->cell[D->off[v] + k] = 0;
  return d_size(D, v) ? BB_SMC_CHANGED : BB_SMC_FAILED;
}
static bb_smc_status d_lower_max(void *c, int v, int k) {
  doms *D = c;
  int changed = 0;
  for (int j = k + 1; j <= D->top[v]; j++)
    if (has(D, v, j)) D->cell[D->off[v] + j] = 0, changed = 1;
  return !changed ? BB_SMC_FIX : d_size(D, v) ? BB_SMC_CHANGED : BB_SMC_FAILED;
}
static bb_smc_domains view(doms *D) {
  return (bb_smc_domains){.ctx = D,
                          .min = d_min,
                          .max = d_max,
                          .size = d_size,
                          .contains = d_contains,
                          .remove = d_remove,
                          .lower_max = d_lower_max};
}

/* ---- The counting pass alone: the path's arrays against the host's -------------------------- */

typedef struct counts {
  bb_smc_hrc_counts c;
  size_t slots, hosp, vars;
} counts;

static counts counts_new(const bb_smc_hrc *d) {
  counts x;
  x.slots = (size_t)d->hosp_start[d->n_hospitals] + 1, x.hosp = (size_t)d->n_hospitals + 1,
  x.vars = (size_t)d->n_vars + 1;
  x.c.poss = calloc(x.slots, 4), x.c.poss_before = calloc(x.slots, 4), x.c.sure_before = calloc(x.slots, 4);
  x.c.sure_total = calloc(x.hosp, 4), x.c.amin = calloc(x.vars, 4), x.c.amax = calloc(x.vars, 4);
  x.c.asize = calloc(x.vars, 4);
  int longest = 0;
  for (int v = 0; v < d->n_vars; v++)
    if (bb_smc_hrc_len(d, v) > longest) longest = bb_smc_hrc_len(d, v);
  x.c.runs = calloc((size_t)longest + 2, sizeof(int));
  return x;
}
static void counts_free(counts *x) {
  free(x->c.poss), free(x->c.poss_before), free(x->c.sure_before), free(x->c.sure_total);
  free(x->c.amin), free(x->c.amax), free(x->c.asize), free(x->c.runs);
}

static void check_counts(const bb_smc_hrc *d, doms *D) {
  counts host = counts_new(d), par = counts_new(d);
  bb_smc_domains dom = view(D);
  bool ok_host = bb_smc_hrc_count(d, &dom, BB_SMC_PATH_CPU, &host.c), ok_par = bb_smc_hrc_count(d, &dom, path, &par.c);
  size_t slots = host.slots - 1, nh = host.hosp - 1, nv = host.vars - 1;
  CHECKF(ok_host == ok_par, "counting pass: over capacity on the host %d, on the path %d", ok_host, ok_par);
  CHECK(!memcmp(host.c.poss, par.c.poss, slots * 4) && !memcmp(host.c.poss_before, par.c.poss_before, slots * 4) &&
        !memcmp(host.c.sure_before, par.c.sure_before, slots * 4) &&
        !memcmp(host.c.sure_total, par.c.sure_total, nh * 4) && !memcmp(host.c.amin, par.c.amin, nv * 4) &&
        !memcmp(host.c.amax, par.c.amax, nv * 4) && !memcmp(host.c.asize, par.c.asize, nv * 4));
  count_checks++;
  counts_free(&host), counts_free(&par);
}

/* ---- One propagation on both paths ---------------------------------------------------------- */

/* Propagates A with the constraint on the CPU (dA) and B with the same constraint on the path
 * (dB), the same domains before, to a fixpoint with bp in [*lo, *hi]; checks after every step
 * that both agree. Returns whether they are alive. */
static bool both_fixpoint(const bb_smc_hrc *dA, const bb_smc_hrc *dB, doms *A, doms *B, int64_t *lo, int64_t *hi) {
  bb_smc_domains da = view(A), db = view(B);
  for (int round = 0; round < 1000; round++) {
    check_counts(dB, A);
    int64_t la, ua, lb, ub;
    bb_smc_status ra = bb_smc_hrc_propagate(dA, &da, *hi, &la, &ua);
    bb_smc_status rb = bb_smc_hrc_propagate(dB, &db, *hi, &lb, &ub);
    propagations++;
    CHECKF(ra == rb, "outcome: CPU %d, %s %d", ra, bb_smc_path_name(path), rb);
    if (ra == BB_SMC_FAILED || rb == BB_SMC_FAILED || ra != rb) {
      failures_seen += ra == BB_SMC_FAILED;
      return false;
    }
    CHECKF(la == lb && ua == ub, "bp's bounds: CPU [%lld, %lld], %s [%lld, %lld]", (long long)la, (long long)ua,
           bb_smc_path_name(path), (long long)lb, (long long)ub);
    bool same = !memcmp(A->cell, B->cell, (size_t)A->cells);
    CHECKF(same, "the domains differ after a propagation");
    domain_checks++;
    if (!same) return false;
    int64_t old_hi = *hi;
    if (la > *lo) *lo = la;
    if (ua < *hi) *hi = ua;
    if (*lo > *hi) return false;
    if (ra == BB_SMC_FIX && *hi == old_hi) return true;
  }
  CHECKF(0, "no fixpoint after 1000 rounds");
  return false;
}

/* Random reductions, then decisions (fix a variable, or take one of its values away) until
 * everything is fixed or a side fails. */
static void trial(const bb_smc_hrc *dA, const bb_smc_hrc *dB, const doms *root, uint64_t *rng) {
  doms *A = doms_clone(root);
  int mode = (int)(tu_rand(rng) % 4);
  for (int v = 0; v < A->vars; v++) {
    int size = d_size(A, v);
    if (mode == 0 || size < 2) continue;
    uint64_t r = tu_rand(rng) % 8;
    if (r == 0) { /* fix to a random value */
      int pick = (int)(tu_rand(rng) % (uint64_t)size);
      for (int k = 0; k <= A->top[v]; k++)
        if (has(A, v, k) && pick-- != 0) A->cell[A->off[v] + k] = 0;
    } else if (r == 1) {
      d_lower_max(A, v, d_min(A, v) + (int)(tu_rand(rng) % (uint64_t)size));
    } else if (r <= 3 || mode == 3) { /* holes */
      for (int k = 0; k <= A->top[v]; k++)
        if (has(A, v, k) && tu_rand(rng) % 3 == 0 && d_size(A, v) > 1) A->cell[A->off[v] + k] = 0;
    }
  }
  doms *B = doms_clone(A);
  int64_t lo = 0, hi = tu_rand(rng) % 3 == 0 ? (int64_t)(tu_rand(rng) % 4) : (int64_t)1 << 40;
  for (int step = 0; step < 4 * A->vars + 4 && step < 40; step++) { /* the tiny ones to the end */
    if (!both_fixpoint(dA, dB, A, B, &lo, &hi)) break;
    int open[64], n = 0;
    for (int v = 0; v < A->vars && n < 64; v++)
      if (d_size(A, v) > 1) open[n++] = v;
    if (!n) break;
    int v = open[tu_rand(rng) % (uint64_t)n], k = d_min(A, v);
    if (tu_rand(rng) % 2) k = d_max(A, v);
    if (tu_rand(rng) % 2) { /* v = k */
      d_lower_max(A, v, k), d_lower_max(B, v, k);
      for (int j = 0; j < k; j++) d_remove(A, v, j), d_remove(B, v, j);
    } else {
      d_remove(A, v, k), d_remove(B, v, k);
    }
  }
  doms_free(A), doms_free(B);
}

/* ---- Instances ------------------------------------------------------------------------------- */

static bb_smc_hrc *constraint_of(const bb_hrc *I, bb_smc_path on) {
  bb_smc_hrc_lists L = {I->n_residents,  I->n_hospitals,
                        I->n_couples,    I->couple_member,
                        I->single_start, (const int32_t *)I->single_list,
                        I->couple_start, (const int32_t *)I->couple_list,
                        I->hosp_start,   (const int32_t *)I->hosp_list,
                        I->capacity,     I->hosp_rank};
  bb_smc_hrc *d = NULL;
  bb_error err;
  if (bb_smc_hrc_new(&L, &d, &err) != BB_OK) CHECKF(0, "bb_smc_hrc_new: %s", err.msg);
  if (d) bb_smc_hrc_set_path(d, on);
  return d;
}

static void run_instance(const bb_hrc *I, int trials, uint64_t *rng, long long *runs_total) {
  bb_smc_hrc *dA = constraint_of(I, BB_SMC_PATH_CPU), *dB = constraint_of(I, path);
  if (dA && dB) {
    doms *root = doms_new(dA);
    for (int t = 0; t < trials; t++) trial(dA, dB, root, rng);
    long long runs, fallbacks;
    bb_smc_hrc_accel_counts(dB, &runs, &fallbacks);
    CHECKF(fallbacks == 0, "%lld counting passes fell back to the host", fallbacks);
    *runs_total += runs;
    doms_free(root);
  }
  bb_smc_hrc_release(dA);
  bb_smc_hrc_release(dB);
}

static bb_hrc *generated(int nr, int nc, int nh, int lo, int hi, int pairs, uint64_t seed) {
  bb_hrc_gen_params p;
  bb_hrc_gen_mmt2017(&p, nr, nc, nh);
  p.min_list = lo, p.max_list = hi, p.seed = seed;
  if (pairs) p.couple_min = pairs / 2, p.couple_max = pairs;
  bb_hrc *I = NULL;
  bb_error err;
  if (bb_hrc_generate(&p, &I, &err) != BB_OK) CHECKF(0, "generate: %s", err.msg);
  return I;
}

/* An engine failure on the third run: one warning, the host's pass from then on, the same
 * domains all along. */
static void check_fallback(uint64_t *rng) {
  bb_hrc *I = generated(300, 30, 30, 3, 6, 0, 99);
  bb_smc_hrc *dA = I ? constraint_of(I, BB_SMC_PATH_CPU) : NULL,
             *dB = I ? constraint_of(I, BB_SMC_PATH_EMULATED) : NULL;
  if (dA && dB) {
    doms *root = doms_new(dA);
    bb_smc_path was = path;
    path = BB_SMC_PATH_EMULATED;
    bb_smc_hrc_accel_emulated_fail_after(3);
    for (int t = 0; t < 6; t++) trial(dA, dB, root, rng);
    bb_smc_hrc_accel_emulated_fail_after(0);
    long long runs, fallbacks;
    bb_smc_hrc_accel_counts(dB, &runs, &fallbacks);
    CHECKF(runs == 2 && fallbacks > 0, "after a failure on the third run: %lld runs, %lld fallbacks", runs, fallbacks);
    path = was;
    doms_free(root);
  }
  bb_smc_hrc_release(dA);
  bb_smc_hrc_release(dB);
  bb_hrc_free(I);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "gpu")) {
    char why[256];
    if (!bb_smc_hrc_accel_gpu_ops() || !bb_gpu_probe(0, why, sizeof why)) {
      printf("no GPU: %s\n", bb_smc_hrc_accel_gpu_ops() ? why : "this build has no CUDA");
      return 77;
    }
    path = BB_SMC_PATH_GPU;
  }
  uint64_t rng = 20261125;
  long long runs = 0;
  int tiny = 0, large = 0;
  for (int t = 0; t < 300; t++) { /* tiny: every odd case of the definition */
    int nh = 1 + (int)(tu_rand(&rng) % 5), nc = (int)(tu_rand(&rng) % 4), ns = (int)(tu_rand(&rng) % 6);
    if (2 * nc + ns == 0) ns = 1;
    bb_hrc *I = bth_hrc_random(2 * nc + ns, nh, nc, 3, &rng);
    run_instance(I, 6, &rng, &runs);
    bb_hrc_free(I);
    tiny++;
  }
  static const int shapes[][6] = {
      /* residents, couples, hospitals, list min, list max, joint list length (0: all pairs) */
      {200, 20, 20, 3, 5, 0},
      {500, 100, 50, 3, 5, 0},
      {1000, 50, 40, 5, 9, 12},
      {2000, 200, 150, 4, 8, 10},
      {3000, 60, 420, 10, 15, 15}};
  for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
    for (int seed = 1; seed <= 2; seed++) {
      const int *x = shapes[s];
      bb_hrc *I = generated(x[0], x[1], x[2], x[3], x[4], x[5], (uint64_t)(100 * s + seed));
      if (!I) continue;
      run_instance(I, 3, &rng, &runs);
      bb_hrc_free(I);
      large++;
    }
  for (int t = 0; t < 150; t++) { /* ties on the hospitals' side: the counts through each tie */
    int nh = 1 + (int)(tu_rand(&rng) % 5), nc = (int)(tu_rand(&rng) % 4), ns = 1 + (int)(tu_rand(&rng) % 6);
    bb_hrc *I = bth_hrc_random(2 * nc + ns, nh, nc, 3, &rng);
    if (I && bth_hrc_add_random_ties(I, &rng)) run_instance(I, 6, &rng, &runs), tiny++;
    bb_hrc_free(I);
  }
  for (int seed = 1; seed <= 2; seed++) {
    bb_hrc *I = generated(1000, 50, 40, 5, 9, 12, (uint64_t)(900 + seed));
    if (I && bth_hrc_add_random_ties(I, &rng)) run_instance(I, 3, &rng, &runs), large++;
    bb_hrc_free(I);
  }
  if (path == BB_SMC_PATH_EMULATED) check_fallback(&rng);
  printf(
      "%s path: %d tiny and %d generated instances, %lld propagations (%lld failed on both paths), "
      "%lld identical-domain checks, %lld identical-count checks, %lld counting passes on the engine\n",
      bb_smc_path_name(path), tiny, large, propagations, failures_seen, domain_checks, count_checks, runs);
  CHECKF(runs > 0 && domain_checks > 0 && failures_seen > 0, "the parallel path never ran, or nothing was checked");
  return tu_finish();
}
