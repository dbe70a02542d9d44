/* The HRC core's per-variable blocking budgets (bb_smc_hrc_propagate_budgets, bb_smc_hrc_own_counts)
 * against the harness's reference (harness/bth_hrc.h) on tiny random instances with couples:
 *   own     every assignment of the root domains: a matching's per-variable counts are each
 *           variable's own blocking pairs (the reference's share of its single or couple)
 *           and sum to its blocking pairs; a non-matching fails;
 *   sound   random sub-domains, bp_max and budgets [own_min, own_max], propagated to a fixpoint
 *           together with sum(own) = bp (as the shim posts it): every matching inside them that
 *           meets bp_max and the budgets keeps its values, its count within bp's bounds and each
 *           variable's count within its budget's bounds;
 *   stronger one propagation with bp unbounded, with and without budgets of 0 or 1: some trial
 *           must keep fewer values with them (not only fail), or the budgets could be ignored unseen;
 *   regression an instance where the propagation as merged lost matchings (regression_lost);
 *   search  depth-first search that branches on the budgets first (own = min / own > min), then
 *           on the variables: the matchings with at most K blocking pairs, each once, and the
 *           smallest K with a solution is the brute force's minimum.
 * Every propagation of sound and search runs in one scratch (bb_smc_hrc_propagate_scratch) kept
 * across all instances, larger and smaller ones in turn, as the shim keeps one per thread, and
 * reads the domains with `values` as the shim does; reuse checks one propagation so against
 * one in a fresh scratch reading by `contains`: the same answer, bounds and domains. */
#include "bth_hrc.h"
#include "smc_hrc.h"
#include "smc_hrc_testlib.h"
#include "test_util.h"

#include <string.h>

typedef struct budgets {
  int32_t lo[2 * HB_MAX_R], hi[2 * HB_MAX_R];
} budgets;

static bool tighten(int32_t *lo, int32_t *hi, int64_t new_lo, int64_t new_hi, bool *changed) {
  if (new_lo > *lo) *lo = (int32_t)new_lo, *changed = true;
  if (new_hi < *hi) *hi = (int32_t)new_hi, *changed = true;
  return *lo <= *hi;
}

static bb_smc_hrc_scratch *reused; /* every instance's, in turn */

/* The domains with `values` too (the Gecode shim's table has it): the core then reads a
 * couple's values with it rather than by `contains`. */
static int d_values(void *c, int v, int *out) {
  int n = 0;
  for (uint32_t m = ((doms *)c)->mask[v]; m; m &= m - 1) out[n++] = __builtin_ctz(m);
  return n;
}
static bb_smc_domains doms_table_values(doms *D) {
  bb_smc_domains t = doms_table(D);
  t.values = d_values;
  return t;
}

/* Propagates the core with budgets and sum(own) = bp (bounds reasoning, as Gecode's linear)
 * to a fixpoint; false on failure. */
static bool fixpoint_budgets(const bb_smc_hrc *d, doms *D, budgets *B, int32_t *lo, int32_t *hi) {
  bb_smc_domains dom = doms_table_values(D);
  for (int round = 0; round < 1000; round++) {
    int32_t own_lb[2 * HB_MAX_R], own_ub[2 * HB_MAX_R];
    bb_smc_hrc_budgets b = {B->lo, B->hi, own_lb, own_ub};
    int64_t lb, ub;
    bb_smc_status r = bb_smc_hrc_propagate_scratch(d, &dom, *hi, &b, reused, &lb, &ub);
    if (r == BB_SMC_FAILED) return false;
    bool changed = r == BB_SMC_CHANGED;
    if (!tighten(lo, hi, lb, ub, &changed)) return false;
    int64_t sum_lo = 0, sum_hi = 0;
    for (int v = 0; v < D->n; v++) {
      if (!tighten(&B->lo[v], &B->hi[v], own_lb[v], own_ub[v], &changed)) return false;
      sum_lo += B->lo[v];
      sum_hi += B->hi[v];
    }
    if (!tighten(lo, hi, sum_lo, sum_hi, &changed)) return false;
    for (int v = 0; v < D->n; v++)
      if (!tighten(&B->lo[v], &B->hi[v], *lo - (sum_hi - B->hi[v]), *hi - (sum_lo - B->lo[v]), &changed)) return false;
    if (!changed) return true;
  }
  CHECKF(0, "no fixpoint after 1000 rounds");
  return false;
}

typedef struct own_ctx {
  const bb_hrc *H;
  const bb_smc_hrc *d;
  int matchings, min_bp;
} own_ctx;

static void check_own(void *c, const int *val) {
  own_ctx *x = c;
  int32_t M[HB_MAX_R];
  int32_t own[2 * HB_MAX_R];
  int bp = solution(x->H, x->d, val, M);
  bb_smc_status r = bb_smc_hrc_own_counts(x->d, val, own);
  if (bp < 0) {
    CHECKF(r == BB_SMC_FAILED, "own counts of an assignment over capacity: result %d", (int)r);
    return;
  }
  CHECKF(r == BB_SMC_FIX, "own counts of a matching: result %d", (int)r);
  int n = bb_smc_hrc_singles(x->d) + bb_smc_hrc_couples(x->d), sum = 0;
  for (int v = 0; v < n; v++) {
    int want = own_reference(x->H, x->d, v, M);
    CHECKF(own[v] == want, "variable %d: own count %d, brute force %d", v, own[v], want);
    sum += want;
  }
  CHECKF(sum == bp, "the own counts sum to %d, the matching has %d blocking pairs", sum, bp);
  x->matchings++;
  if (bp < x->min_bp) x->min_bp = bp;
}

typedef struct sound_ctx {
  const bb_hrc *H;
  const bb_smc_hrc *d;
  const doms *after;
  const budgets *given, *final;
  bool alive;
  int32_t lo, hi, bp_max;
} sound_ctx;

static void check_sound(void *c, const int *val) {
  sound_ctx *x = c;
  int32_t M[HB_MAX_R];
  int bp = solution(x->H, x->d, val, M), own[2 * HB_MAX_R];
  if (bp < 0 || bp > x->bp_max) return;
  for (int v = 0; v < x->after->n; v++) {
    own[v] = own_reference(x->H, x->d, v, M);
    if (own[v] < x->given->lo[v] || own[v] > x->given->hi[v]) return;
  }
  CHECKF(x->alive, "a matching with %d <= %d blocking pairs within the budgets was lost (failure)", bp, x->bp_max);
  if (!x->alive) return;
  for (int v = 0; v < x->after->n; v++) {
    CHECKF(x->after->mask[v] >> val[v] & 1u, "variable %d lost value %d of a solution", v, val[v]);
    CHECKF(own[v] >= x->final->lo[v] && own[v] <= x->final->hi[v], "variable %d's %d own pairs outside [%d, %d]", v,
           own[v], x->final->lo[v], x->final->hi[v]);
  }
  CHECKF(bp >= x->lo && bp <= x->hi, "solution's %d blocking pairs outside bp's [%d, %d]", bp, x->lo, x->hi);
}

static int total_values(const doms *D) {
  int n = 0;
  for (int v = 0; v < D->n; v++) n += popcount(D->mask[v]);
  return n;
}

/* DFS: budgets first (own[v] = lo / own[v] > lo), then the variables; counts the leaves and
 * checks each against the brute force. */
static void search(const bb_hrc *H, const bb_smc_hrc *d, doms D, budgets B, int32_t lo, int32_t hi, int *found) {
  if (!fixpoint_budgets(d, &D, &B, &lo, &hi)) return;
  for (int v = 0; v < D.n; v++)
    if (B.lo[v] < B.hi[v]) {
      budgets E = B;
      E.hi[v] = B.lo[v];
      search(H, d, D, E, lo, hi, found);
      E = B;
      E.lo[v] = B.lo[v] + 1;
      search(H, d, D, E, lo, hi, found);
      return;
    }
  for (int v = 0; v < D.n; v++)
    if (popcount(D.mask[v]) > 1) {
      for (int k = 0; k < 32; k++)
        if (D.mask[v] >> k & 1u) {
          doms E = D;
          E.mask[v] = 1u << k;
          search(H, d, E, B, lo, hi, found);
        }
      return;
    }
  int val[2 * HB_MAX_R];
  int32_t M[HB_MAX_R];
  for (int v = 0; v < D.n; v++) val[v] = __builtin_ctz(D.mask[v]);
  int bp = solution(H, d, val, M);
  CHECKF(bp >= 0 && lo == bp && hi == bp, "search: a leaf that is not a solution");
  for (int v = 0; v < D.n; v++) {
    int own = own_reference(H, d, v, M);
    CHECKF(B.lo[v] == own && B.hi[v] == own, "search: variable %d's budget [%d, %d], its own pairs %d", v, B.lo[v],
           B.hi[v], own);
  }
  (*found)++;
}

/* Random sub-domains: each variable keeps a random subset half the time, and a third of them are
 * fixed (couples fixed by a pass's own pruning). */
static void narrow(doms *D) {
  for (int v = 0; v < D->n; v++) {
    uint32_t m = D->mask[v] & (uint32_t)hb_rand(1u << 16);
    if (m && hb_rand(2)) D->mask[v] = m;
    if (hb_rand(3) == 0) D->mask[v] &= -D->mask[v];
  }
}

static budgets open_budgets(const bb_smc_hrc *d) {
  budgets B;
  for (int v = 0; v < bb_smc_hrc_singles(d) + bb_smc_hrc_couples(d); v++) B.lo[v] = 0, B.hi[v] = bb_smc_hrc_len(d, v);
  return B;
}

/* An instance of `bamboo-smp gen hrc --n 10 --couples 2 --hospitals 3 --posts 8 --lists 1 3
 * --seed 5` (capacities 5, 1, 2; couples' lists of 6 pairs), where the propagation as merged
 * lost matchings: a couple fixed by a pass's own pruning had its share of the bound from an
 * entry that is certain under its last value but not under all, and the fixed-couple rule
 * demanded that entry not block (smc_hrc_propagate.c, prune). Random sub-domains (a third of the
 * variables fixed) and bp_max 0..2, propagated with open budgets: every matching inside them
 * within bp_max keeps its values and its count within bp's bounds. */
static int regression_lost(void) {
  static const int cpairs[2][6][2] = {{{2, 2}, {1, 2}, {2, 0}, {1, 0}, {0, 2}, {0, 0}},
                                      {{1, 0}, {0, 0}, {1, 1}, {0, 1}, {2, 0}, {2, 1}}};
  static const int slists[6][3] = {{2, 1}, {1}, {0, 1}, {1, 2}, {0, 2, 1}, {1, 2}}, slens[6] = {2, 1, 2, 2, 3, 2};
  static const int hlists[3][9] = {{0, 6, 8, 2, 3, 1}, {0, 4, 7, 5, 8, 2, 9, 3, 6}, {0, 8, 7, 4, 2, 9, 1}};
  static const int hlens[3] = {6, 9, 7}, caps[3] = {5, 1, 2};
  hb_inst I;
  memset(&I, 0, sizeof I);
  I.nR = 10, I.nH = 3, I.nC = 2;
  for (int r = 0; r < 10; r++) I.couple_of[r] = r < 4 ? r / 2 : -1;
  for (int k = 0; k < 4; k++) I.member[k] = k;
  for (int c = 0; c < 2; c++) {
    I.clen[c] = 6;
    memcpy(I.clist[c], cpairs[c], sizeof cpairs[c]);
  }
  for (int i = 0; i < 6; i++) {
    I.slen[4 + i] = slens[i];
    memcpy(I.slist[4 + i], slists[i], sizeof slists[i]);
  }
  for (int h = 0; h < 3; h++) {
    I.cap[h] = caps[h], I.hlen[h] = hlens[h];
    memcpy(I.hlist[h], hlists[h], sizeof hlists[h]);
  }
  lists l;
  bb_smc_hrc *d;
  bb_hrc *H;
  if (!hb_build_checked(&I, &l, &d, &H)) return 0;
  static int sol[40000][8], sol_bp[40000];
  int n_sol = 0, lost = 0, val[2 * HB_MAX_R];
  int32_t M[HB_MAX_R];
  doms root = root_domains(d);
  CHECK(root.n == 8);
  /* every matching of the root domains (odometer over the domains) */
  for (int v = 0; v < root.n; v++) val[v] = __builtin_ctz(root.mask[v]);
  for (bool more = true; more;) {
    int bp = solution(H, d, val, M);
    if (bp >= 0 && n_sol < 40000) {
      memcpy(sol[n_sol], val, sizeof sol[n_sol]);
      sol_bp[n_sol++] = bp;
    }
    more = false;
    for (int v = 0; v < root.n && !more; v++) {
      uint32_t above = root.mask[v] & ~((2u << val[v]) - 1);
      if (above)
        val[v] = __builtin_ctz(above), more = true;
      else
        val[v] = __builtin_ctz(root.mask[v]);
    }
  }
  for (int trial = 0; trial < 3000; trial++) {
    doms D = root;
    narrow(&D);
    const doms before = D;
    budgets B = open_budgets(d);
    int32_t lo = 0, hi = (int32_t)hb_rand(3), bp_max = hi;
    bool alive = fixpoint_budgets(d, &D, &B, &lo, &hi);
    for (int k = 0; k < n_sol; k++) {
      bool inside = sol_bp[k] <= bp_max, kept = alive && sol_bp[k] >= lo && sol_bp[k] <= hi;
      for (int v = 0; v < D.n; v++) {
        inside = inside && (before.mask[v] >> sol[k][v] & 1u);
        kept = kept && (D.mask[v] >> sol[k][v] & 1u);
      }
      lost += inside && !kept;
    }
  }
  CHECKF(lost == 0, "regression instance: %d matchings lost by propagation", lost);
  bb_hrc_free(H);
  bb_smc_hrc_release(d);
  return n_sol;
}

int main(void) {
  reused = bb_smc_hrc_scratch_new();
  CHECK(reused != NULL);
  int regression_matchings = regression_lost();
  int instances = 0, without = 0, trials = 0, stronger = 0, searched = 0;
  for (int t = 0; t < 1500; t++) {
    hb_inst I;
    /* the second half with 2-3 couples: more instances without a stable matching */
    int nH = 1 + (int)hb_rand(3), nC = t < 750 ? (int)hb_rand(3) : 2 + (int)hb_rand(2), nS = (int)hb_rand(4);
    hb_random_mix(&I, nH, nC, nS);
    if (t % 3 == 2) /* larger capacities: hospitals that hold both members and others */
      for (int h = 0; h < nH; h++) I.cap[h] = 1 + (int)hb_rand(4);
    lists l;
    bb_smc_hrc *d;
    bb_hrc *H;
    if (!hb_build_checked(&I, &l, &d, &H)) continue;
    instances++;
    doms root = root_domains(d);
    int val[2 * HB_MAX_R];
    own_ctx oc = {H, d, 0, 1 << 30};
    each_assignment(&root, 0, val, check_own, &oc);
    for (int trial = 0; trial < 8; trial++) {
      doms D = root;
      narrow(&D);
      budgets B = open_budgets(d);
      for (int v = 0; v < D.n; v++) {
        if (hb_rand(3) == 0) B.lo[v] = (int32_t)hb_rand(2);
        if (hb_rand(2) == 0) B.hi[v] = B.lo[v] + (int32_t)hb_rand(2);
      }
      const doms before = D;
      const budgets given = B;
      int32_t lo = 0, hi = (int32_t)hb_rand(4), bp_max = hi;
      sound_ctx sc = {H, d, &D, &given, &B, false, 0, 0, bp_max};
      sc.alive = fixpoint_budgets(d, &D, &B, &lo, &hi);
      sc.lo = lo;
      sc.hi = hi;
      each_assignment(&before, 0, val, check_sound, &sc);
      /* one propagation with bp unbounded: the budgets alone must prune (bp's bound, which
       * sum(own) = bp also tightens, is not what is tested here) */
      doms P = before, Q = before;
      bb_smc_domains pd = doms_table(&P);
      bb_smc_domains qd = doms_table(&Q);
      budgets tight = open_budgets(d);
      for (int v = 0; v < D.n; v++) tight.hi[v] = (int32_t)hb_rand(2);
      bb_smc_hrc_budgets tb = {tight.lo, tight.hi, NULL, NULL};
      int64_t lb, ub;
      bb_smc_status pr = bb_smc_hrc_propagate(d, &pd, 1 << 20, &lb, &ub);
      bb_smc_status qr = bb_smc_hrc_propagate_budgets(d, &qd, 1 << 20, &tb, &lb, &ub);
      stronger += pr != BB_SMC_FAILED && qr != BB_SMC_FAILED && total_values(&Q) < total_values(&P);
      trials++;
      /* reuse: the same propagation in the scratch that served every instance so far */
      doms R = before;
      bb_smc_domains rd = doms_table_values(&R);
      int32_t fresh_lb[2 * HB_MAX_R], fresh_ub[2 * HB_MAX_R], kept_lb[2 * HB_MAX_R], kept_ub[2 * HB_MAX_R];
      bb_smc_hrc_budgets fb = {tight.lo, tight.hi, fresh_lb, fresh_ub}, kb = {tight.lo, tight.hi, kept_lb, kept_ub};
      Q = before;
      int64_t lb2, ub2;
      qr = bb_smc_hrc_propagate_budgets(d, &qd, 1 << 20, &fb, &lb, &ub);
      bb_smc_status rr = bb_smc_hrc_propagate_scratch(d, &rd, 1 << 20, &kb, reused, &lb2, &ub2);
      bool same = qr == rr && memcmp(Q.mask, R.mask, sizeof Q.mask) == 0;
      if (same && qr != BB_SMC_FAILED) {
        same = lb == lb2 && ub == ub2;
        for (int v = 0; v < D.n; v++) same = same && fresh_lb[v] == kept_lb[v] && fresh_ub[v] == kept_ub[v];
      }
      CHECKF(same, "propagation in a reused scratch differs (result %d, fresh %d)", (int)rr, (int)qr);
    }
    if (oc.matchings > 0) {
      for (int k = oc.min_bp; k <= oc.min_bp + 1; k++) {
        int found = 0;
        count_ctx cc = {H, d, k, 0};
        each_assignment(&root, 0, val, count_within, &cc);
        search(H, d, root, open_budgets(d), 0, k, &found);
        CHECKF(found == cc.count, "budget search found %d matchings with <= %d blocking pairs, brute force %d", found,
               k, cc.count);
      }
      int k = 0, found = 0;
      while (!found && k <= oc.min_bp) search(H, d, root, open_budgets(d), 0, k++, &found);
      CHECKF(found && k - 1 == oc.min_bp, "budget search's minimum %d, brute force %d", k - 1, oc.min_bp);
      searched++;
      without += oc.min_bp > 0;
    }
    bb_hrc_free(H);
    bb_smc_hrc_release(d);
  }
  printf(
      "%d instances (%d searched, %d without a stable matching), %d budget trials, %d pruned more with budgets; "
      "regression instance: %d matchings\n",
      instances, searched, without, trials, stronger, regression_matchings);
  CHECK(without > 0 && searched > 0 && stronger > 0);
  bb_smc_hrc_scratch_free(reused);
  return tu_finish();
}
