/* The HRC core's memo (bb_smc_hrc_propagate_memo): a propagation that counts again only the
 * variables whose domains changed since the memo's last one (and remakes the bounds only where
 * they touch) answers exactly as one that makes everything.
 * Random walks on tiny random instances (strict and tied hospitals' lists), the way
 * a search uses the memo: propagate, shrink some domains at random, propagate again, and now
 * and then go back to domains saved earlier (a backtrack: larger domains), forgetting the memo.
 * Every propagation with the memo (reading the domains by ranges, as the Gecode shim does) is
 * compared with one without it on a copy of the same domains (reading them by `contains`):
 * the same answer, domains, bounds and budgets' bounds. The walks also lower bp's maximum and
 * narrow the budgets (a search's bp and own[v] decisions), which move the variables' slacks, so
 * that the pruning kept in the memo is made again where a slack moved. One memo serves every instance in turn;
 * every tenth instance counts on the emulated engine (where the memo counts everything).
 * A second memo that is never forgotten must differ from the fresh propagation at some
 * backtrack, or the walks could not catch a memo kept past one.
 * A third memo is told what changed (bb_smc_hrc_propagate_changes), as the Gecode shim's
 * advisors tell it: the variables whose domains and budgets differ from those at its last
 * propagation's entry, shuffled, with repeats and with variables that did not change. It keeps
 * bp's bounds and the slacks as running sums, reads the budgets only where listed and writes
 * the budgets' bounds only where it says they moved; the arrays it is given hold garbage
 * elsewhere, and what it says moved, copied into arrays kept across the walk, must equal a
 * fresh propagation's bounds at every variable. Where the walk saves domains it saves a copy of
 * that memo too (bb_smc_hrc_memo_copy, as the shim's copy of a space), and a backtrack goes on
 * from a copy of the saved one instead of forgetting. */
#include "smc_hrc.h"
#include "smc_hrc_path.h"
#include "smc_hrc_testlib.h"
#include "test_util.h"

#include <string.h>

/* The domains by ranges too (the Gecode shim's table has them). */
static int d_ranges(void *c, int v, int *out) {
  int n = 0;
  uint32_t m = ((doms *)c)->mask[v];
  while (m) {
    int lo = __builtin_ctz(m), hi = lo;
    while (hi < 31 && (m >> (hi + 1) & 1u)) hi++;
    out[2 * n] = lo, out[2 * n + 1] = hi, n++;
    m &= hi >= 31 ? 0 : ~((2u << hi) - 1);
  }
  return n;
}

typedef struct answer {
  bb_smc_status r;
  doms D;
  int64_t lb, ub;
  int32_t own_lb[2 * HB_MAX_R], own_ub[2 * HB_MAX_R];
} answer;

static answer propagate(const bb_smc_hrc *d, const doms *D, const int32_t *omin, const int32_t *omax, int64_t bp_max,
                        bb_smc_hrc_memo *m) {
  answer a;
  memset(&a, 0, sizeof a);
  a.D = *D;
  bb_smc_domains dom = doms_table(&a.D);
  if (m) dom.ranges = d_ranges;
  bb_smc_hrc_budgets b = {omin, omax, a.own_lb, a.own_ub};
  a.r = bb_smc_hrc_propagate_memo(d, &dom, bp_max, &b, NULL, m, &a.lb, &a.ub);
  if (a.r == BB_SMC_FAILED) { /* bounds and domains are unspecified then */
    memset(&a.D, 0, sizeof a.D);
    a.lb = a.ub = 0;
    memset(a.own_lb, 0, sizeof a.own_lb), memset(a.own_ub, 0, sizeof a.own_ub);
  }
  return a;
}

/* What the told memo saw last: the domains and budgets at its last propagation's entry, and
 * the budgets' bounds it has said so far. */
typedef struct told {
  doms in;
  int32_t omin[2 * HB_MAX_R], omax[2 * HB_MAX_R], own_lb[2 * HB_MAX_R], own_ub[2 * HB_MAX_R];
} told;

static answer propagate_told(const bb_smc_hrc *d, const doms *D, const int32_t *omin, const int32_t *omax,
                             int64_t bp_max, bb_smc_hrc_memo *m, told *t) {
  answer a;
  memset(&a, 0, sizeof a);
  a.D = *D;
  int n = D->n, n_vars = 0, n_budgets = 0;
  int32_t vars[8 * HB_MAX_R], budgets[8 * HB_MAX_R], bmin[2 * HB_MAX_R], bmax[2 * HB_MAX_R];
  int32_t lb_out[2 * HB_MAX_R], ub_out[2 * HB_MAX_R];
  bool ready = bb_smc_hrc_memo_ready(m, d);
  for (int v = 0; v < n; v++) {
    bmin[v] = bmax[v] = ready ? -7 : 0; /* read only where listed */
    lb_out[v] = ub_out[v] = -9;         /* written only where moved */
    if (!ready) bmin[v] = omin[v], bmax[v] = omax[v];
    if (D->mask[v] != t->in.mask[v] || hb_rand(5) == 0) vars[n_vars++] = v;
    if (omin[v] != t->omin[v] || omax[v] != t->omax[v] || hb_rand(5) == 0) budgets[n_budgets++] = v;
    if (hb_rand(7) == 0) vars[n_vars++] = v, budgets[n_budgets++] = v; /* repeats */
  }
  for (int i = n_vars - 1; i > 0; i--) { /* in any order */
    int j = (int)hb_rand((unsigned)i + 1);
    int32_t x = vars[i];
    vars[i] = vars[j], vars[j] = x;
  }
  for (int i = 0; ready && i < n_budgets; i++) bmin[budgets[i]] = omin[budgets[i]], bmax[budgets[i]] = omax[budgets[i]];
  t->in = *D;
  memcpy(t->omin, omin, sizeof t->omin), memcpy(t->omax, omax, sizeof t->omax);
  bb_smc_domains dom = doms_table(&a.D);
  dom.ranges = d_ranges;
  bb_smc_hrc_budgets b = {bmin, bmax, lb_out, ub_out};
  bb_smc_hrc_changes ch = {vars, n_vars, budgets, n_budgets};
  a.r = bb_smc_hrc_propagate_changes(d, &dom, bp_max, &b, NULL, m, ready ? &ch : NULL, &a.lb, &a.ub);
  if (a.r == BB_SMC_FAILED) {
    memset(&a.D, 0, sizeof a.D);
    a.lb = a.ub = 0;
    return a;
  }
  const int32_t *moved;
  int k = bb_smc_hrc_memo_moved(m, &moved);
  for (int i = 0; i < (k < 0 ? n : k); i++) {
    int v = k < 0 ? i : moved[i];
    CHECKF(i == 0 || k < 0 || moved[i - 1] < v, "moved not ascending");
    t->own_lb[v] = lb_out[v], t->own_ub[v] = ub_out[v];
  }
  memcpy(a.own_lb, t->own_lb, sizeof a.own_lb), memcpy(a.own_ub, t->own_ub, sizeof a.own_ub);
  return a;
}

static bool same(const answer *a, const answer *b, int n) {
  if (a->r != b->r || a->lb != b->lb || a->ub != b->ub) return false;
  for (int v = 0; v < n; v++)
    if (a->D.mask[v] != b->D.mask[v] || a->own_lb[v] != b->own_lb[v] || a->own_ub[v] != b->own_ub[v]) return false;
  return true;
}

int main(void) {
  bb_smc_hrc_memo *memo = bb_smc_hrc_memo_new(), *stale = bb_smc_hrc_memo_new(), *listed = bb_smc_hrc_memo_new();
  CHECK(memo && stale && listed);
  int instances = 0, steps = 0, backtracks = 0, caught = 0, told_steps = 0;
  told t, saved_t[8];
  memset(&t, 0, sizeof t);
  bb_smc_hrc_memo *saved_memo[8] = {0};
  int copies = 0;
  for (int i = 0; i < 1500; i++) {
    hb_inst I;
    int nH = 1 + (int)hb_rand(4), nC = (int)hb_rand(3), nS = (int)hb_rand(5);
    hb_random_mix(&I, nH, nC, nS);
    if (i % 2) hb_add_ties(&I);
    if (i % 3 == 2)
      for (int h = 0; h < nH; h++) I.cap[h] = 1 + (int)hb_rand(4);
    lists l;
    bb_smc_hrc *d;
    bb_hrc *H;
    if (!hb_build_checked(&I, &l, &d, &H)) continue;
    bb_hrc_free(H);
    if (i % 10 == 0) bb_smc_hrc_set_path(d, BB_SMC_PATH_EMULATED);
    instances++;
    doms D = root_domains(d), saved[8];
    int depth = 0, n = D.n;
    int32_t omin[2 * HB_MAX_R], omax[2 * HB_MAX_R], saved_min[8][2 * HB_MAX_R], saved_max[8][2 * HB_MAX_R];
    for (int v = 0; v < n; v++) omin[v] = 0, omax[v] = bb_smc_hrc_len(d, v);
    int64_t bp_max = 1 + (int)hb_rand(4), saved_bp[8];
    for (int step = 0; step < 24; step++) {
      answer fresh = propagate(d, &D, omin, omax, bp_max, NULL);
      answer kept = propagate(d, &D, omin, omax, bp_max, memo);
      answer old = propagate(d, &D, omin, omax, bp_max, stale);
      told_steps += bb_smc_hrc_memo_ready(listed, d);
      answer told_a = propagate_told(d, &D, omin, omax, bp_max, listed, &t);
      CHECKF(same(&kept, &fresh, n), "instance %d step %d: with the memo %d, fresh %d", i, step, (int)kept.r,
             (int)fresh.r);
      CHECKF(same(&told_a, &fresh, n), "instance %d step %d: told %d, fresh %d", i, step, (int)told_a.r, (int)fresh.r);
      caught += !same(&old, &fresh, n);
      steps++;
      bool back = fresh.r == BB_SMC_FAILED || (depth > 0 && hb_rand(4) == 0);
      if (back) { /* to domains saved earlier: they may be larger */
        if (depth == 0) break;
        int back_to = (int)hb_rand((unsigned)depth);
        D = saved[back_to];
        bp_max = saved_bp[back_to];
        memcpy(omin, saved_min[back_to], sizeof omin), memcpy(omax, saved_max[back_to], sizeof omax);
        bb_smc_hrc_memo_forget(memo);
        bb_smc_hrc_memo_free(listed);
        listed = bb_smc_hrc_memo_copy(saved_memo[back_to]);
        CHECK(listed != NULL);
        t = saved_t[back_to];
        backtracks++;
        continue;
      }
      D = fresh.D; /* the space goes on from the propagation's domains, shrunk further */
      if (depth < 8) {
        saved[depth] = D, saved_bp[depth] = bp_max;
        memcpy(saved_min[depth], omin, sizeof omin), memcpy(saved_max[depth], omax, sizeof omax);
        bb_smc_hrc_memo_free(saved_memo[depth]);
        saved_memo[depth] = bb_smc_hrc_memo_copy(listed);
        CHECK(saved_memo[depth] != NULL);
        saved_t[depth] = t;
        copies += bb_smc_hrc_memo_ready(listed, d);
        depth++;
      }
      for (int v = 0; v < n; v++)
        if (hb_rand(3) == 0) {
          uint32_t m = D.mask[v] & (uint32_t)hb_rand(1u << 16);
          if (m) D.mask[v] = m;
        }
      if (hb_rand(4) == 0 && bp_max > 0) bp_max--;
      for (int v = 0; v < n; v++) { /* own[v] = its minimum, or above it */
        if (hb_rand(6) == 0) omax[v] = omin[v];
        if (hb_rand(12) == 0 && omin[v] < omax[v]) omin[v]++;
      }
    }
    for (int k = 0; k < 8; k++) bb_smc_hrc_memo_free(saved_memo[k]), saved_memo[k] = NULL;
    bb_smc_hrc_release(d); /* the memos still hold it */
  }
  printf(
      "%d instances, %d propagations compared, %d backtracks, %d told what changed, %d memos copied whole; a memo "
      "never forgotten differed %d times\n",
      instances, steps, backtracks, told_steps, copies, caught);
  CHECK(steps > 1000 && backtracks > 100 && caught > 0 && told_steps > 1000 && copies > 1000);
  bb_smc_hrc_memo_free(memo);
  bb_smc_hrc_memo_free(stale);
  bb_smc_hrc_memo_free(listed);
  return tu_finish();
}
