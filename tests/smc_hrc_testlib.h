/* Shared by the HRC constraint core's tests (test_hrc_con.c, test_hrc_budgets.c,
 * test_hrc_memo.c): their tiny random instances (hb_inst, drawn from one fixed xorshift stream),
 * the same instance as the core's lists and as the engine's bb_hrc, on which the harness's
 * reference (bth_hrc.h) counts blocking pairs; the domains as bit masks behind the core's
 * callbacks, the matching an assignment means and its blocking pairs (solution), and
 * enumeration of every assignment inside domains. */
#ifndef BB_SMC_HRC_TESTLIB_H
#define BB_SMC_HRC_TESTLIB_H

#include "bth_hrc.h"
#include "hrc.h"
#include "smc_hrc.h"
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The instances as drawn: a fixed xorshift stream (the one these tests always drew from, so
 * the same instances and counts), capacities 1-2 unless a test sets them, couples' lists of
 * distinct pairs, hospitals listing most residents. Only a description: every count of
 * blocking pairs is the reference's, on hrc_of's bb_hrc. */
#define HB_MAX_R 10
#define HB_MAX_H 4
#define HB_MAX_L 6

typedef struct hb_inst {
  int nR, nH, nC;
  int member[2 * HB_MAX_R];                         /* couple c = residents member[2c], member[2c+1] */
  int couple_of[HB_MAX_R];                          /* -1 single */
  int slen[HB_MAX_R], slist[HB_MAX_R][HB_MAX_L];    /* singles' lists */
  int clen[HB_MAX_R], clist[HB_MAX_R][HB_MAX_L][2]; /* couples' joint lists */
  int hlen[HB_MAX_H], hlist[HB_MAX_H][HB_MAX_R];    /* hospitals' lists */
  int cap[HB_MAX_H];
  bool tied;                     /* hospitals' lists have ranks with ties (hrank) */
  int hrank[HB_MAX_H][HB_MAX_R]; /* with ties: the rank of hlist[h][k], 0 then steps of 0 or 1 */
} hb_inst;

static uint64_t hb_rng = 88172645463325252ull;
static inline unsigned hb_rand(unsigned n) {
  hb_rng ^= hb_rng << 13;
  hb_rng ^= hb_rng >> 7;
  hb_rng ^= hb_rng << 17;
  return (unsigned)(hb_rng % n);
}

static inline void hb_random(hb_inst *I, int nR, int nH, int nC, int maxlen) {
  memset(I, 0, sizeof *I);
  I->nR = nR;
  I->nH = nH;
  I->nC = nC;
  int perm[HB_MAX_R];
  for (int r = 0; r < nR; r++) perm[r] = r;
  for (int r = nR - 1; r > 0; r--) {
    int j = (int)hb_rand((unsigned)r + 1), t = perm[r];
    perm[r] = perm[j];
    perm[j] = t;
  }
  for (int r = 0; r < nR; r++) I->couple_of[r] = -1;
  for (int k = 0; k < 2 * nC; k++) {
    I->member[k] = perm[k];
    I->couple_of[perm[k]] = k / 2;
  }
  for (int h = 0; h < nH; h++) I->cap[h] = 1 + (int)hb_rand(2);
  for (int r = 0; r < nR; r++) {
    if (I->couple_of[r] >= 0) continue;
    int len = (int)hb_rand((unsigned)(nH < maxlen ? nH : maxlen) + 1), hs[HB_MAX_H];
    for (int h = 0; h < nH; h++) hs[h] = h;
    for (int k = 0; k < len; k++) {
      int j = k + (int)hb_rand((unsigned)(nH - k)), t = hs[k];
      hs[k] = hs[j];
      hs[j] = t;
      I->slist[r][k] = hs[k];
    }
    I->slen[r] = len;
  }
  for (int c = 0; c < nC; c++) {
    int len = (int)hb_rand((unsigned)maxlen + 1);
    for (int k = 0; k < len; k++) {
      int h1, h2, tries = 0;
      bool dup;
      do {
        h1 = (int)hb_rand((unsigned)nH);
        h2 = (int)hb_rand((unsigned)nH);
        dup = false;
        for (int f = 0; f < I->clen[c]; f++) dup |= I->clist[c][f][0] == h1 && I->clist[c][f][1] == h2;
      } while (dup && ++tries < 50);
      if (dup) break;
      I->clist[c][I->clen[c]][0] = h1;
      I->clist[c][I->clen[c]][1] = h2;
      I->clen[c]++;
    }
  }
  /* hospitals list most residents (some not: unacceptable entries), in random order */
  for (int h = 0; h < nH; h++) {
    int rs[HB_MAX_R];
    for (int r = 0; r < nR; r++) rs[r] = r;
    for (int r = nR - 1; r > 0; r--) {
      int j = (int)hb_rand((unsigned)r + 1), t = rs[r];
      rs[r] = rs[j];
      rs[j] = t;
    }
    I->hlen[h] = 0;
    for (int r = 0; r < nR; r++)
      if (hb_rand(6) != 0) I->hlist[h][I->hlen[h]++] = rs[r];
  }
}

/* An instance of nC couples and nS singles (one single when both are 0) at nH hospitals, lists of
 * 1..4 entries: the mix the core's tests draw their sizes for. */
static inline void hb_random_mix(hb_inst *I, int nH, int nC, int nS) {
  if (2 * nC + nS == 0) nS = 1;
  hb_random(I, 2 * nC + nS, nH, nC, 1 + (int)hb_rand(4));
}

/* Ties on the hospitals' side: each entry after the first is tied with the one before it
 * with probability 1/2. */
static inline void hb_add_ties(hb_inst *I) {
  I->tied = true;
  for (int h = 0; h < I->nH; h++)
    for (int k = 0; k < I->hlen[h]; k++) I->hrank[h][k] = k == 0 ? 0 : I->hrank[h][k - 1] + (int)hb_rand(2);
}

typedef struct doms {
  int n;
  uint32_t mask[2 * HB_MAX_R];
} doms;

static inline int popcount(uint32_t m) { return __builtin_popcount(m); }
static inline int d_min(void *c, int v) { return __builtin_ctz(((doms *)c)->mask[v]); }
static inline int d_max(void *c, int v) { return 31 - __builtin_clz(((doms *)c)->mask[v]); }
static inline int d_size(void *c, int v) { return popcount(((doms *)c)->mask[v]); }
static inline bool d_contains(void *c, int v, int k) { return k >= 0 && k < 32 && (((doms *)c)->mask[v] >> k & 1u); }
static inline bb_smc_status d_set(doms *D, int v, uint32_t m) {
  if (m == D->mask[v]) return BB_SMC_FIX;
  D->mask[v] = m;
  return m ? BB_SMC_CHANGED : BB_SMC_FAILED;
}
static inline bb_smc_status d_remove(void *c, int v, int k) { return d_set(c, v, ((doms *)c)->mask[v] & ~(1u << k)); }
static inline bb_smc_status d_lower_max(void *c, int v, int k) {
  return d_set(c, v, ((doms *)c)->mask[v] & (k >= 31 ? 0xffffffffu : (2u << k) - 1));
}

/* D behind the host contract, with the callbacks the HRC core uses. */
static inline bb_smc_domains doms_table(doms *D) {
  bb_smc_domains t = {.ctx = D,
                      .min = d_min,
                      .max = d_max,
                      .size = d_size,
                      .contains = d_contains,
                      .remove = d_remove,
                      .lower_max = d_lower_max};
  return t;
}

/* The instance as the core's lists (and the engine's bb_hrc, for its checker). */
typedef struct lists {
  int32_t member[2 * HB_MAX_R], slist[HB_MAX_R * HB_MAX_L], clist[2 * HB_MAX_R * HB_MAX_L], hlist[HB_MAX_H * HB_MAX_R];
  uint32_t sstart[HB_MAX_R + 1], cstart[HB_MAX_R + 1], hstart[HB_MAX_H + 1], hrank[HB_MAX_H * HB_MAX_R];
  bb_smc_hrc_lists L;
} lists;

static inline void to_lists(const hb_inst *I, lists *l) {
  uint32_t at = 0;
  for (int r = 0; r < I->nR; r++) {
    l->sstart[r] = at;
    if (I->couple_of[r] < 0)
      for (int k = 0; k < I->slen[r]; k++) l->slist[at++] = I->slist[r][k];
  }
  l->sstart[I->nR] = at;
  at = 0;
  for (int c = 0; c < I->nC; c++) {
    l->cstart[c] = at;
    for (int k = 0; k < I->clen[c]; k++, at++) {
      l->clist[2 * at] = I->clist[c][k][0];
      l->clist[2 * at + 1] = I->clist[c][k][1];
    }
  }
  l->cstart[I->nC] = at;
  at = 0;
  for (int h = 0; h < I->nH; h++) {
    l->hstart[h] = at;
    for (int k = 0; k < I->hlen[h]; k++, at++) {
      l->hlist[at] = I->hlist[h][k];
      l->hrank[at] = (uint32_t)I->hrank[h][k];
    }
  }
  l->hstart[I->nH] = at;
  for (int k = 0; k < 2 * I->nC; k++) l->member[k] = I->member[k];
  bb_smc_hrc_lists L = {I->nR,     I->nH,    I->nC,     l->member, l->sstart, l->slist,
                        l->cstart, l->clist, l->hstart, l->hlist,  I->cap,    I->tied ? l->hrank : NULL};
  l->L = L;
}

/* The instance as the engine's bb_hrc (for the reference and the engine's checker); NULL if
 * memory ran out. */
static inline bb_hrc *hrc_of(const hb_inst *I, const lists *l) {
  bb_error err;
  bb_hrc *h = bb_hrc_new(I->nR, I->nH, I->nC, l->sstart[I->nR], l->cstart[I->nC], l->hstart[I->nH], &err);
  if (!h) return NULL;
  for (int r = 0; r < I->nR; r++) h->couple_of[r] = I->couple_of[r];
  for (int k = 0; k < 2 * I->nC; k++) h->couple_member[k] = I->member[k];
  memcpy(h->single_start, l->sstart, ((size_t)I->nR + 1) * sizeof(uint32_t));
  for (uint32_t e = 0; e < l->sstart[I->nR]; e++) h->single_list[e] = (bb_id)l->slist[e];
  memcpy(h->couple_start, l->cstart, ((size_t)I->nC + 1) * sizeof(uint32_t));
  for (uint32_t e = 0; e < 2 * l->cstart[I->nC]; e++) h->couple_list[e] = (bb_id)l->clist[e];
  memcpy(h->hosp_start, l->hstart, ((size_t)I->nH + 1) * sizeof(uint32_t));
  for (uint32_t e = 0; e < l->hstart[I->nH]; e++) h->hosp_list[e] = (bb_id)l->hlist[e];
  memcpy(h->capacity, I->cap, (size_t)I->nH * sizeof(int32_t));
  if (I->tied) {
    if (bb_hrc_add_ranks(h, &err) != BB_OK) {
      bb_hrc_free(h);
      return NULL;
    }
    memcpy(h->hosp_rank, l->hrank, (size_t)l->hstart[I->nH] * sizeof(uint32_t));
  }
  return h;
}

/* The instance as the core's data (*d) and as the engine's bb_hrc (*H), l holding the lists;
 * false, with err saying which could not be made, and then nothing is left to free. */
static inline bool hb_build(const hb_inst *I, lists *l, bb_smc_hrc **d, bb_hrc **H, bb_error *err) {
  to_lists(I, l);
  *d = NULL;
  *H = NULL;
  bb_error why;
  if (bb_smc_hrc_new(&l->L, d, &why) != BB_OK) {
    snprintf(err->msg, sizeof err->msg, "bb_smc_hrc_new: %.400s", why.msg);
    return false;
  }
  *H = hrc_of(I, l);
  if (!*H) {
    bb_smc_hrc_release(*d);
    *d = NULL;
    snprintf(err->msg, sizeof err->msg, "out of memory for the instance");
    return false;
  }
  return true;
}

/* hb_build, a failure reported as a failed check. */
static inline bool hb_build_checked(const hb_inst *I, lists *l, bb_smc_hrc **d, bb_hrc **H) {
  bb_error err;
  if (hb_build(I, l, d, H, &err)) return true;
  CHECKF(0, "%s", err.msg);
  return false;
}

/* The matching a full assignment of the variables means: a single's value k below his
 * list's length is his k-th entry, a couple's its k-th pair; the length, unassigned. */
static inline void matching_of(const bb_hrc *H, const bb_smc_hrc *d, const int *val, int32_t *M) {
  for (int r = 0; r < H->n_residents; r++) M[r] = BB_HRC_NONE;
  int ns = bb_smc_hrc_singles(d);
  for (int i = 0; i < ns; i++) {
    int r = bb_smc_hrc_single_resident(d, i);
    uint32_t e = H->single_start[r] + (uint32_t)val[i];
    if (e < H->single_start[r + 1]) M[r] = (int32_t)H->single_list[e];
  }
  for (int c = 0; c < H->n_couples; c++) {
    uint32_t e = H->couple_start[c] + (uint32_t)val[ns + c];
    if (e < H->couple_start[c + 1]) {
      M[H->couple_member[2 * c]] = (int32_t)H->couple_list[2 * e];
      M[H->couple_member[2 * c + 1]] = (int32_t)H->couple_list[2 * e + 1];
    }
  }
}

/* The definition's side of the constraint: the matching M that full assignment val means,
 * and its blocking pairs by the reference, which a solution's bp equals; -1 if M is not a
 * matching (no solution then). */
static inline int solution(const bb_hrc *H, const bb_smc_hrc *d, const int *val, int32_t *M) {
  matching_of(H, d, val, M);
  return bth_hrc_is_matching(H, M) ? bth_hrc_blocking(H, M) : -1;
}

/* Variable v's own blocking pairs in matching M, by the reference: the share of single v or
 * of couple v - singles (each blocking pair belongs to one list). */
static inline int own_reference(const bb_hrc *H, const bb_smc_hrc *d, int v, const int32_t *M) {
  int ns = bb_smc_hrc_singles(d);
  return bth_hrc_blocking_of(H, M, v < ns ? bb_smc_hrc_single_resident(d, v) : H->n_residents + v - ns);
}

static inline doms root_domains(const bb_smc_hrc *d) {
  doms D;
  D.n = bb_smc_hrc_singles(d) + bb_smc_hrc_couples(d);
  for (int v = 0; v < D.n; v++) {
    int len = bb_smc_hrc_len(d, v);
    D.mask[v] = 1u << len;
    for (int k = 0; k < len; k++)
      if (bb_smc_hrc_acceptable(d, v, k)) D.mask[v] |= 1u << k;
  }
  return D;
}

/* Every full assignment inside D (callback per assignment). */
typedef void (*visit_fn)(void *ctx, const int *val);
static inline void each_assignment(const doms *D, int v, int *val, visit_fn f, void *ctx) {
  if (v == D->n) {
    f(ctx, val);
    return;
  }
  for (int k = 0; k < 32; k++)
    if (D->mask[v] >> k & 1u) {
      val[v] = k;
      each_assignment(D, v + 1, val, f, ctx);
    }
}

/* each_assignment's visitor that counts the matchings with at most k blocking pairs. */
typedef struct count_ctx {
  const bb_hrc *H;
  const bb_smc_hrc *d;
  int k, count;
} count_ctx;
static inline void count_within(void *c, const int *val) {
  count_ctx *x = c;
  int32_t M[HB_MAX_R];
  int bp = solution(x->H, x->d, val, M);
  if (bp >= 0 && bp <= x->k) x->count++;
}

#endif
