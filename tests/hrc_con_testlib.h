/* Shared by the HRC constraint core's tests (test_hrc_con.c, test_hrc_budgets.c): the
 * domains as bit masks behind the core's callbacks, an hb_inst as the core's lists, the
 * matching an assignment means, and enumeration of every assignment inside domains. */
#ifndef BB_HRC_CON_TESTLIB_H
#define BB_HRC_CON_TESTLIB_H

#include "hrc_brute.h"
#include "hrc_con.h"

typedef struct doms {
  int n;
  uint32_t mask[2 * HB_MAX_R];
} doms;

static inline int popcount(uint32_t m) { return __builtin_popcount(m); }
static inline int d_min(void *c, int v) { return __builtin_ctz(((doms *)c)->mask[v]); }
static inline int d_max(void *c, int v) { return 31 - __builtin_clz(((doms *)c)->mask[v]); }
static inline int d_size(void *c, int v) { return popcount(((doms *)c)->mask[v]); }
static inline bool d_has(void *c, int v, int k) { return k >= 0 && k < 32 && (((doms *)c)->mask[v] >> k & 1u); }
static inline bb_smc_status d_set(doms *D, int v, uint32_t m) {
  if (m == D->mask[v]) return BB_SMC_FIX;
  D->mask[v] = m;
  return m ? BB_SMC_CHANGED : BB_SMC_FAILED;
}
static inline bb_smc_status d_remove(void *c, int v, int k) { return d_set(c, v, ((doms *)c)->mask[v] & ~(1u << k)); }
static inline bb_smc_status d_at_most(void *c, int v, int k) {
  return d_set(c, v, ((doms *)c)->mask[v] & (k >= 31 ? 0xffffffffu : (2u << k) - 1));
}

/* The instance as the core's lists (and the engine's bb_hrc, for its checker). */
typedef struct lists {
  int32_t member[2 * HB_MAX_R], slist[HB_MAX_R * HB_MAX_L], clist[2 * HB_MAX_R * HB_MAX_L], hlist[HB_MAX_H * HB_MAX_R];
  uint32_t sstart[HB_MAX_R + 1], cstart[HB_MAX_R + 1], hstart[HB_MAX_H + 1];
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
    for (int k = 0; k < I->hlen[h]; k++) l->hlist[at++] = I->hlist[h][k];
  }
  l->hstart[I->nH] = at;
  for (int k = 0; k < 2 * I->nC; k++) l->member[k] = I->member[k];
  bb_smc_hrc_lists L = {I->nR, I->nH, I->nC, l->member, l->sstart, l->slist, l->cstart, l->clist, l->hstart, l->hlist, I->cap};
  l->L = L;
}

/* The matching a full assignment of the variables means. */
static inline void matching_of(const hb_inst *I, const bb_smc_hrc *d, const int *val, int *M) {
  for (int r = 0; r < I->nR; r++) M[r] = -1;
  int ns = bb_smc_hrc_singles(d);
  for (int i = 0; i < ns; i++) {
    int r = bb_smc_hrc_single_resident(d, i);
    if (val[i] < I->slen[r]) M[r] = I->slist[r][val[i]];
  }
  for (int c = 0; c < I->nC; c++)
    if (val[ns + c] < I->clen[c]) {
      M[I->member[2 * c]] = I->clist[c][val[ns + c]][0];
      M[I->member[2 * c + 1]] = I->clist[c][val[ns + c]][1];
    }
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
  const hb_inst *I;
  const bb_smc_hrc *d;
  int k, count;
} count_ctx;
static inline void count_within(void *c, const int *val) {
  count_ctx *x = c;
  int M[HB_MAX_R];
  matching_of(x->I, x->d, val, M);
  if (hb_is_matching(x->I, M) && hb_blocking(x->I, M) <= x->k) x->count++;
}

#endif
