/* The HRC constraint's core (propagator/smc/hrc) against an independent brute force
 * (the harness's reference, harness/bth_hrc.h) on tiny random instances:
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
#include "bth_hrc.h"
#include "hrc.h"
#include "smc_hrc.h"
#include "smc_hrc_testlib.h"
#include "test_util.h"

/* Propagates to a fixpoint with bp in [*lo, *hi]; false on failure. */
static bool fixpoint(const bb_smc_hrc *d, doms *D, int64_t *lo, int64_t *hi) {
  bb_smc_domains dom = doms_table(D);
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
  const bb_hrc *H; /* the instance, for the reference and the engine's checker */
  const bb_smc_hrc *d;
  int matchings, min_bp;
} exact_ctx;

static void check_exact(void *c, const int *val) {
  exact_ctx *x = c;
  int32_t M[HB_MAX_R];
  int want = solution(x->H, x->d, val, M);
  doms D;
  D.n = bb_smc_hrc_singles(x->d) + bb_smc_hrc_couples(x->d);
  for (int v = 0; v < D.n; v++) D.mask[v] = 1u << val[v];
  int64_t lo = 0, hi = 1000;
  bool ok = fixpoint(x->d, &D, &lo, &hi);
  if (want < 0) {
    CHECKF(!ok, "an assignment over capacity propagated");
    return;
  }
  x->matchings++;
  if (want < x->min_bp) x->min_bp = want;
  CHECKF(ok && lo == want && hi == want, "fixed matching: bounds [%lld, %lld], brute force %d (ok %d)", (long long)lo,
         (long long)hi, want, ok);
  uint64_t blocking = 0;
  bb_error err;
  CHECK(bb_hrc_count_blocking(x->H, M, &blocking, &err) == BB_OK);
  CHECKF((int)blocking == want, "engine's checker %llu, brute force %d", (unsigned long long)blocking, want);
}

typedef struct sound_ctx {
  const bb_hrc *H;
  const bb_smc_hrc *d;
  const doms *after;
  bool alive;
  int64_t lo, hi, bp_max;
} sound_ctx;

static void check_sound(void *c, const int *val) {
  sound_ctx *x = c;
  int32_t M[HB_MAX_R];
  int bp = solution(x->H, x->d, val, M);
  if (bp < 0 || bp > x->bp_max) return;
  CHECKF(x->alive, "a matching with %d <= %lld blocking pairs was lost (failure)", bp, (long long)x->bp_max);
  if (!x->alive) return;
  for (int v = 0; v < x->after->n; v++)
    CHECKF(x->after->mask[v] >> val[v] & 1u, "variable %d lost value %d of a solution", v, val[v]);
  CHECKF(bp >= x->lo && bp <= x->hi, "solution's %d blocking pairs outside bp's [%lld, %lld]", bp, (long long)x->lo,
         (long long)x->hi);
}

/* DFS with propagation; counts solutions (all fixed) and checks each against brute force. */
static void search(const bb_hrc *H, const bb_smc_hrc *d, doms D, int64_t lo, int64_t hi, int *found) {
  if (!fixpoint(d, &D, &lo, &hi)) return;
  for (int v = 0; v < D.n; v++)
    if (popcount(D.mask[v]) > 1) {
      for (int k = 0; k < 32; k++)
        if (D.mask[v] >> k & 1u) {
          doms E = D;
          E.mask[v] = 1u << k;
          search(H, d, E, lo, hi, found);
        }
      return;
    }
  int val[2 * HB_MAX_R];
  int32_t M[HB_MAX_R];
  for (int v = 0; v < D.n; v++) val[v] = __builtin_ctz(D.mask[v]);
  int bp = solution(H, d, val, M);
  CHECKF(bp >= 0 && bp <= hi && lo == bp && hi == bp, "search: a leaf that is not a solution");
  (*found)++;
}

/* strength (above): returns whether the couple's minimum was positive (the bound was tested
 * where the per-entry count can fall short). */
static bool check_strength(const bb_hrc *H, const bb_smc_hrc *d, const doms *root, int c) {
  int ns = bb_smc_hrc_singles(d), v = ns + c, val[2 * HB_MAX_R];
  int32_t M[HB_MAX_R];
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
    if (solution(H, d, val, M) < 0 || hb_rand(4) == 0) continue;
    keep |= 1u << k;
    int own = bth_hrc_blocking_of(H, M, H->n_residents + c); /* couple c's own blocking pairs */
    if (own < fewest) fewest = own;
  }
  if (!keep) return false;
  D.mask[v] = keep;
  bb_smc_domains dom = doms_table(&D);
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
  int instances = 0, with_stable = 0, without = 0, pruned = 0, strength = 0, tied = 0;
  /* the strict instances first, then as many with ties on the hospitals' side (weak stability) */
  for (int t = 0; t < 1400; t++) {
    hb_inst I;
    int nH = 1 + (int)hb_rand(3), nC = (int)hb_rand(3), nS = (int)hb_rand(4);
    hb_random_mix(&I, nH, nC, nS);
    if (t >= 700) hb_add_ties(&I);
    lists l;
    bb_smc_hrc *d;
    bb_hrc *H;
    bb_error err;
    bool built = hb_build(&I, &l, &d, &H, &err);
    CHECKF(built, "%s", err.msg);
    if (!built) continue;
    instances++;
    for (int h = 0; h < I.nH && I.tied; h++) /* instances where ties matter */
      for (int k = 1; k < I.hlen[h]; k++)
        if (I.hrank[h][k] == I.hrank[h][k - 1]) {
          tied++;
          h = I.nH;
          break;
        }
    doms root = root_domains(d);
    int val[2 * HB_MAX_R];
    /* exact: every assignment of the root domains */
    exact_ctx ex = {H, d, 0, 1 << 30};
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
      sound_ctx sc = {H, d, &D, false, 0, 0, hi};
      sc.alive = fixpoint(d, &D, &lo, &hi);
      sc.lo = lo;
      sc.hi = hi;
      for (int v = 0; v < D.n; v++) pruned += sc.alive && D.mask[v] != before.mask[v];
      each_assignment(&before, 0, val, check_sound, &sc);
    }
    for (int c = 0; c < I.nC; c++)
      for (int trial = 0; trial < 4; trial++) strength += check_strength(H, d, &root, c);
    /* search: the stable matchings, and those at the minimum */
    if (ex.matchings > 0) {
      for (int pass = 0; pass < 2; pass++) {
        int k = pass ? ex.min_bp : 0, found = 0;
        count_ctx cc = {H, d, k, 0};
        each_assignment(&root, 0, val, count_within, &cc);
        search(H, d, root, 0, k, &found);
        CHECKF(found == cc.count, "search found %d matchings with <= %d blocking pairs, brute force %d", found, k,
               cc.count);
      }
      if (ex.min_bp == 0)
        with_stable++;
      else
        without++;
    }
    bb_hrc_free(H);
    bb_smc_hrc_release(d);
  }
  /* strength where the couple is alone, so that the bound is its share only: there the
   * per-entry count falls short of the minimum over values */
  for (int t = 0; t < 400; t++) {
    hb_inst I;
    hb_random(&I, 2, 1 + (int)hb_rand(3), 1, 1 + (int)hb_rand(5));
    lists l;
    bb_smc_hrc *d;
    bb_hrc *H;
    if (!hb_build_checked(&I, &l, &d, &H)) continue;
    doms root = root_domains(d);
    for (int trial = 0; trial < 4; trial++) strength += check_strength(H, d, &root, 0);
    bb_hrc_free(H);
    bb_smc_hrc_release(d);
  }
  printf(
      "%d instances (%d with a tie, %d with a stable matching, %d without), %d domains pruned in the soundness "
      "trials, %d strength trials with a couple that surely blocks\n",
      instances, tied, with_stable, without, pruned, strength);
  CHECK(without > 0 && with_stable > 0 && pruned > 0 && strength > 0 && tied > 300);
  return tu_finish();
}
