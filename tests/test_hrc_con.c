/* The HRC constraint's core (propagator/smc/hrc) against an independent brute force
 * (hrc_brute.h) on tiny random instances:
 *   exact  every assignment of the variables: a matching propagates with lb = ub = its number
 *          of blocking pairs (also = the engine's bb_hrc_count_blocking), a non-matching fails;
 *   sound  random sub-domains and bounds on bp, propagated to a fixpoint: every matching inside
 *          them with at most bp_max blocking pairs keeps its values and its count within bp's
 *          bounds;
 *   strength everybody but one couple fixed, the couple on a few values that each give a
 *          matching: bp's lower bound is at least the fewest of the couple's own blocking pairs
 *          over those values (each pair belongs to one list, so that minimum is a lower
 *          bound; the per-entry count, "entries blocking under every value", can be lower);
 *   search depth-first search with the propagation finds exactly the matchings with at most
 *          K blocking pairs (K = 0: the stable ones; K = the minimum), each once. */
#include "hrc.h"
#include "hrc_brute.h"
#include "hrc_con.h"
#include "hrc_con_testlib.h"
#include "test_util.h"

static bb_hrc *engine_instance(const hb_inst *I, const lists *l) {
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
  return h;
}

/* Propagates to a fixpoint with bp in [*lo, *hi]; false on failure. */
static bool fixpoint(const bb_smc_hrc *d, doms *D, int64_t *lo, int64_t *hi) {
  bb_smc_hrc_domains dom = {D, d_min, d_max, d_size, d_has, d_remove, d_at_most};
  for (int round = 0; round < 1000; round++) {
    int64_t lb, ub, old_hi = *hi;
    bb_smc_status r = bb_smc_hrc_propagate(d, &dom, *hi, &lb, &ub);
    if (r == BB_SMC_FAILED) return false;
    if (lb > *lo) *lo = lb;
    if (ub < *hi) *hi = ub;
    if (*lo > *hi) return false;
    if (r == BB_SMC_FIX && *hi == old_hi) return true;
  }
  CHECKF(0, "no fixpoint after 1000 rounds");
  return false;
}

typedef struct exact_ctx {
  const hb_inst *I;
  const bb_smc_hrc *d;
  const bb_hrc *eng;
  int matchings, min_bp;
} exact_ctx;

static void check_exact(void *c, const int *val) {
  exact_ctx *x = c;
  int M[HB_MAX_R];
  matching_of(x->I, x->d, val, M);
  doms D;
  D.n = bb_smc_hrc_singles(x->d) + bb_smc_hrc_couples(x->d);
  for (int v = 0; v < D.n; v++) D.mask[v] = 1u << val[v];
  int64_t lo = 0, hi = 1000;
  bool ok = fixpoint(x->d, &D, &lo, &hi);
  if (!hb_is_matching(x->I, M)) {
    CHECKF(!ok, "an assignment over capacity propagated");
    return;
  }
  int want = hb_blocking(x->I, M);
  x->matchings++;
  if (want < x->min_bp) x->min_bp = want;
  CHECKF(ok && lo == want && hi == want, "fixed matching: bounds [%lld, %lld], brute force %d (ok %d)", (long long)lo,
         (long long)hi, want, ok);
  if (x->eng) {
    uint64_t blocking = 0;
    bb_error err;
    int32_t assigned[HB_MAX_R];
    for (int r = 0; r < x->I->nR; r++) assigned[r] = M[r];
    CHECK(bb_hrc_count_blocking(x->eng, assigned, &blocking, &err) == BB_OK);
    CHECKF((int)blocking == want, "engine's checker %llu, brute force %d", (unsigned long long)blocking, want);
  }
}

typedef struct sound_ctx {
  const hb_inst *I;
  const bb_smc_hrc *d;
  const doms *after;
  bool alive;
  int64_t lo, hi, bp_max;
} sound_ctx;

static void check_sound(void *c, const int *val) {
  sound_ctx *x = c;
  int M[HB_MAX_R];
  matching_of(x->I, x->d, val, M);
  if (!hb_is_matching(x->I, M)) return;
  int bp = hb_blocking(x->I, M);
  if (bp > x->bp_max) return;
  CHECKF(x->alive, "a matching with %d <= %lld blocking pairs was lost (failure)", bp, (long long)x->bp_max);
  if (!x->alive) return;
  for (int v = 0; v < x->after->n; v++) CHECKF(x->after->mask[v] >> val[v] & 1u, "variable %d lost value %d of a solution", v, val[v]);
  CHECKF(bp >= x->lo && bp <= x->hi, "solution's %d blocking pairs outside bp's [%lld, %lld]", bp, (long long)x->lo,
         (long long)x->hi);
}

/* DFS with propagation; counts solutions (all fixed) and checks each against brute force. */
static void search(const hb_inst *I, const bb_smc_hrc *d, doms D, int64_t lo, int64_t hi, int *found) {
  if (!fixpoint(d, &D, &lo, &hi)) return;
  for (int v = 0; v < D.n; v++)
    if (popcount(D.mask[v]) > 1) {
      for (int k = 0; k < 32; k++)
        if (D.mask[v] >> k & 1u) {
          doms E = D;
          E.mask[v] = 1u << k;
          search(I, d, E, lo, hi, found);
        }
      return;
    }
  int val[2 * HB_MAX_R], M[HB_MAX_R];
  for (int v = 0; v < D.n; v++) val[v] = __builtin_ctz(D.mask[v]);
  matching_of(I, d, val, M);
  int bp = hb_blocking(I, M);
  CHECKF(hb_is_matching(I, M) && bp <= hi && lo == bp && hi == bp, "search: a leaf that is not a solution");
  (*found)++;
}

/* Couple c's own blocking pairs in matching M: the brute force on a copy whose other lists
 * are emptied (hospitals' lists, and so who wants whom, unchanged). */
static int own_blocking(const hb_inst *I, int c, const int *M) {
  hb_inst J = *I;
  for (int r = 0; r < J.nR; r++) J.slen[r] = 0;
  for (int k = 0; k < J.nC; k++)
    if (k != c) J.clen[k] = 0;
  return hb_blocking(&J, M);
}

/* strength (above): returns whether the couple's minimum was positive (the bound was tested
 * where the per-entry count can fall short). */
static bool check_strength(const hb_inst *I, const bb_smc_hrc *d, const doms *root, int c) {
  int ns = bb_smc_hrc_singles(d), v = ns + c, val[2 * HB_MAX_R], M[HB_MAX_R];
  doms D = *root;
  for (int u = 0; u < D.n; u++) {
    if (u == v) continue;
    int n = popcount(D.mask[u]), pick = (int)hb_rand((unsigned)n);
    for (int k = 0; k < 32; k++)
      if (D.mask[u] >> k & 1u && pick-- == 0) {
        D.mask[u] = 1u << k;
        val[u] = k;
        break;
      }
  }
  uint32_t keep = 0;
  int fewest = 1 << 30;
  for (int k = 0; k < 32; k++) {
    if (!(D.mask[v] >> k & 1u)) continue;
    val[v] = k;
    matching_of(I, d, val, M);
    if (!hb_is_matching(I, M) || hb_rand(4) == 0) continue;
    keep |= 1u << k;
    int own = own_blocking(I, c, M);
    if (own < fewest) fewest = own;
  }
  if (!keep) return false;
  D.mask[v] = keep;
  bb_smc_hrc_domains dom = {&D, d_min, d_max, d_size, d_has, d_remove, d_at_most};
  int64_t lb, ub;
  bb_smc_status r = bb_smc_hrc_propagate(d, &dom, 1 << 20, &lb, &ub);
  CHECKF(r != BB_SMC_FAILED, "strength: matchings inside the domains, yet failure");
  CHECKF(lb >= fewest, "strength: lower bound %lld, but couple %d has at least %d blocking pairs on each value",
         (long long)lb, c, fewest);
  D = *root; /* the domains before propagation: the others fixed, the couple on `keep` */
  for (int u = 0; u < D.n; u++) D.mask[u] = u == v ? keep : 1u << val[u];
  int64_t share = bb_smc_hrc_share(d, &dom, v);
  CHECKF(share == fewest, "strength: couple %d's share of the bound %lld, brute force minimum %d", c, (long long)share,
         fewest);
  return fewest > 0;
}

int main(void) {
  int instances = 0, with_stable = 0, without = 0, pruned = 0, strength = 0;
  for (int t = 0; t < 700; t++) {
    hb_inst I;
    int nH = 1 + (int)hb_rand(3), nC = (int)hb_rand(3), nS = (int)hb_rand(4);
    if (2 * nC + nS == 0) nS = 1;
    hb_random(&I, 2 * nC + nS, nH, nC, 1 + (int)hb_rand(4));
    lists l;
    to_lists(&I, &l);
    bb_smc_hrc *d = NULL;
    bb_error err;
    if (bb_smc_hrc_new(&l.L, &d, &err) != BB_OK) {
      CHECKF(0, "bb_smc_hrc_new: %s", err.msg);
      continue;
    }
    bb_hrc *eng = engine_instance(&I, &l);
    CHECK(eng != NULL);
    instances++;
    doms root = root_domains(d);
    int val[2 * HB_MAX_R];
    /* exact: every assignment of the root domains */
    exact_ctx ex = {&I, d, eng, 0, 1 << 30};
    each_assignment(&root, 0, val, check_exact, &ex);
    /* sound: random sub-domains and bp_max */
    for (int trial = 0; trial < 6; trial++) {
      doms D = root;
      for (int v = 0; v < D.n; v++) {
        uint32_t m = D.mask[v] & (uint32_t)hb_rand(1u << 16);
        if (m) D.mask[v] = m;
      }
      doms before = D;
      int64_t lo = 0, hi = (int64_t)hb_rand(4);
      sound_ctx sc = {&I, d, &D, false, 0, 0, hi};
      sc.alive = fixpoint(d, &D, &lo, &hi);
      sc.lo = lo;
      sc.hi = hi;
      for (int v = 0; v < D.n; v++) pruned += sc.alive && D.mask[v] != before.mask[v];
      each_assignment(&before, 0, val, check_sound, &sc);
    }
    for (int c = 0; c < I.nC; c++)
      for (int trial = 0; trial < 4; trial++) strength += check_strength(&I, d, &root, c);
    /* search: the stable matchings, and those at the minimum */
    if (ex.matchings > 0) {
      for (int pass = 0; pass < 2; pass++) {
        int k = pass ? ex.min_bp : 0, found = 0;
        count_ctx cc = {&I, d, k, 0};
        each_assignment(&root, 0, val, count_within, &cc);
        search(&I, d, root, 0, k, &found);
        CHECKF(found == cc.count, "search found %d matchings with <= %d blocking pairs, brute force %d", found, k,
               cc.count);
      }
      if (ex.min_bp == 0) with_stable++;
      else without++;
    }
    bb_hrc_free(eng);
    bb_smc_hrc_release(d);
  }
  /* strength where the couple is alone, so that the bound is its share only: there the
   * per-entry count falls short of the minimum over values */
  for (int t = 0; t < 400; t++) {
    hb_inst I;
    hb_random(&I, 2, 1 + (int)hb_rand(3), 1, 1 + (int)hb_rand(5));
    lists l;
    to_lists(&I, &l);
    bb_smc_hrc *d = NULL;
    bb_error err;
    if (bb_smc_hrc_new(&l.L, &d, &err) != BB_OK) {
      CHECKF(0, "bb_smc_hrc_new: %s", err.msg);
      continue;
    }
    doms root = root_domains(d);
    for (int trial = 0; trial < 4; trial++) strength += check_strength(&I, d, &root, 0);
    bb_smc_hrc_release(d);
  }
  printf("%d instances (%d with a stable matching, %d without), %d domains pruned in the soundness trials, "
         "%d strength trials with a couple that surely blocks\n",
         instances, with_stable, without, pruned, strength);
  CHECK(without > 0 && with_stable > 0 && pruned > 0 && strength > 0);
  return tu_finish();
}
