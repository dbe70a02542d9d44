/* Internal to the HRC constraint's core: the counting pass every propagation starts with
 * (O(total list length)), apart from the rules that read it (smc_hrc_propagate.c), so that it can run
 * on a parallel engine (smc_hrc_accel.c) while the rules stay on the host. */
#ifndef BB_SMC_HRC_COUNT_H
#define BB_SMC_HRC_COUNT_H

#include "smc_hrc_data.h"
#include "smc.h" /* bb_smc_path */

/* What the rules read off the domains. Arrays of the propagation's scratch, sized for the
 * constraint: slots, hospitals, variables. */
typedef struct bb_smc_hrc_counts {
  int32_t *poss;                /* per slot: domain values that place the slot's resident there */
  int32_t *poss_before;         /* per slot: residents possibly at the hospital, ranked above */
  int32_t *sure_before;         /* per slot: residents surely there, ranked above */
  int32_t *sure_total;          /* per hospital */
  int32_t *amin, *amax, *asize; /* per variable, at entry */
  int *runs;                    /* one variable's domain as runs (room for its list length + 2) */
} bb_smc_hrc_counts;

/* Whether the resident counted at `slot` is surely there: every value of his variable places
 * him at the slot (poss and asize from the counts). */
static inline bool bb_smc_hrc_sure(const bb_smc_hrc *d, const int32_t *poss, const int32_t *asize, int32_t slot) {
  int v = d->slot_var[slot];
  return v >= 0 && poss[slot] > 0 && poss[slot] == asize[v];
}

/* Reads variable v's bounds and size into c (amin, amax, asize) and its domain as runs of ranks
 * into c->runs (lo, hi pairs, ascending; returns how many): one run when the domain has no
 * holes, else the host's `ranges` (Gecode: one pass over its ranges, where asking `contains`
 * for each rank walks them once per rank), or `contains` per rank without it. The one read of
 * the domains both the host's pass and the engines' gather (smc_hrc_accel.c) make. */
static inline int bb_smc_hrc_read_var(const bb_smc_domains *dom, bb_smc_hrc_counts *c, int v) {
  int lo = c->amin[v] = dom->min(dom->ctx, v);
  int hi = c->amax[v] = dom->max(dom->ctx, v);
  c->asize[v] = dom->size(dom->ctx, v);
  if (c->asize[v] == hi - lo + 1) {
    c->runs[0] = lo;
    c->runs[1] = hi;
    return 1;
  }
  if (dom->ranges) return dom->ranges(dom->ctx, v, c->runs);
  int n = 0;
  for (int k = lo; k <= hi; k++) {
    if (!dom->contains(dom->ctx, v, k)) continue;
    if (n > 0 && c->runs[2 * n - 1] == k - 1) {
      c->runs[2 * n - 1] = k;
    } else {
      c->runs[2 * n] = c->runs[2 * n + 1] = k;
      n++;
    }
  }
  return n;
}

/* Fills *c from the domains: on the host for BB_SMC_PATH_CPU (and AUTO), on the engine of the
 * GPU or EMULATED path otherwise (the host's counts when that engine cannot run: one warning
 * per constraint). The same numbers on every path. Returns false when a hospital is surely
 * over capacity. */
bool bb_smc_hrc_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c);

/* The counts kept between propagations (smc_hrc.h), sized for constraint d (a reference held;
 * NULL: nothing kept);
 * valid: c holds the counting pass of the domains at the last propagation that used it. */
struct bb_smc_hrc_memo {
  const bb_smc_hrc *d;
  bool valid;
  bb_smc_hrc_counts c;
  uint8_t *dirty;      /* per hospital: its prefix counts are to be made again */
  int32_t *dirty_list; /* those hospitals */
  /* The bounds pass's arrays (smc_hrc_propagate.c's scratch has the same), kept with the counts
   * they were made from: bounds_valid when they are those of the counts in c but for the
   * variables marked in redo (recount marks the changed variables and those whose slot's
   * prefix counts it changed). */
  bool bounds_valid;
  uint8_t *redo;
  int32_t *vlb, *vub, *vcert;
  uint8_t *counted;
  int32_t *was; /* one hospital's prefix counts before recount makes them again */
  int n_dirty;  /* the hospitals (dirty_list) recount made again last; -1: a whole pass */
  /* The pruning's part (smc_hrc_propagate.c), kept with the bounds: prune_valid when the last
   * propagation pruned with the memo's counts. A variable's pruning reads its own domain, the
   * counts at its own slots, its part of the bounds and its slack, so it is made again only
   * where one of those moved; what it asked of the hospitals is kept per slot. */
  bool prune_valid;
  int64_t *pslack;   /* per variable: the slack its last pruning ran with */
  uint8_t *request;  /* per slot: its variable asked that the hospital be full above it */
  int32_t *requests; /* per hospital: how many of its slots ask */
  int32_t *asks;     /* per variable: how many of its slots ask */
  int32_t *filled;   /* per hospital: the slot its last fill ran for (INT32_MAX: none) */
  int32_t *touched;  /* the variables whose bounds were made again (n_touched) */
  int n_touched;
  uint8_t *vmark; /* per variable: 1 touched, 2 its capacities to check */
  uint8_t *hmark; /* per hospital: 1 its requests changed, 2 recounted */
  int32_t *hlist; /* the marked hospitals (n_hlist) */
  int n_hlist;
  int32_t *redo_list; /* the variables marked in redo (n_redo) */
  int n_redo;
  int32_t *couples; /* the couples marked 2 in vmark (n_couples): their capacities to check */
  int n_couples;
  /* Running sums (bb_smc_hrc_propagate_changes): sums_valid when, after the last propagation,
   * sum_lb and sum_ub are the sums of vlb and vub, omin and omax the budgets it read, at_least
   * per variable max(vlb, omin) with sum sum_at_least, vslack the slacks it made and gap bp's
   * slack (bp_max - sum_at_least) they were made with. A variable's slack moves only with its own
   * share or budget or with gap, so with gap unmoved only those variables' slacks are made again. */
  bool sums_valid;
  int32_t *omin, *omax, *at_least;
  int64_t *vslack;
  int64_t sum_lb, sum_ub, sum_at_least, gap;
  int32_t *cand; /* the variables whose share or budget moved (vmark 4), n_cand; ascending once
                  * the propagation has made its bounds: the variables whose own_lb, own_ub moved */
  int n_cand;
  bool moved_all;    /* the last propagation wrote every variable's own_lb, own_ub (else: cand) */
  int32_t *sort_tmp; /* room for bb_smc_hrc_sort_ids of variables or hospitals */
  int32_t *old_poss; /* one variable's slots' poss before recount counts it again (2 per entry) */
};

/* bb_smc_hrc_count into m's arrays: a whole pass when m holds no valid counts of d (or on a
 * parallel path), else only the variables whose domains changed since (smc_hrc_count.c's
 * recount; with ch, only the variables it lists). *nomem: m's arrays could not be allocated (nothing counted). */
bool bb_smc_hrc_count_memo(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_memo *m,
                           const bb_smc_hrc_changes *ch, bool *nomem);
/* Marks v's bounds to be made again (redo, redo_list). */
static inline void bb_smc_hrc_mark_redo(bb_smc_hrc_memo *m, int v) {
  if (!m->redo[v]) m->redo[v] = 1, m->redo_list[m->n_redo++] = v;
}

/* smc_hrc_sums.c, the running sums. sync_budgets: m's copies of the budgets from b (NULL: none)
 * at every variable, or, when ready (m's sums are those of its last propagation), at the
 * budgets ch lists (every variable without ch), adding those that moved to m's candidates.
 * memo_slacks: the shares' floors, their sum and the slacks (m->vslack) from m->vlb, m->vub and
 * the copies, at every variable or, listed, at the candidates and the touched variables
 * (added to the candidates); *all: every variable's slack may have moved. False when a budget
 * cannot be met or the floors exceed bp_max. clear_cand: forgets the candidates. */
typedef struct bb_smc_hrc_slack_arrays {
  const int32_t *vlb, *vub, *omin, *omax; /* omin, omax NULL: no budgets */
  int32_t *at_least;                      /* NULL, or out: max(vlb, omin) */
  int64_t *vslack;                        /* out */
} bb_smc_hrc_slack_arrays;
/* slacks_whole: every variable's slack (smc_hrc_propagate.c's slacks) and the floors' sum *low;
 * false when a budget cannot be met or *low exceeds bp_max (the slacks then unwritten). */
bool bb_smc_hrc_slacks_whole(int n, const bb_smc_hrc_slack_arrays *a, int64_t bp_max, int64_t *low);
void bb_smc_hrc_sync_budgets(bb_smc_hrc_memo *m, const bb_smc_hrc *d, const bb_smc_hrc_budgets *b,
                             const bb_smc_hrc_changes *ch, bool ready);
bool bb_smc_hrc_memo_slacks(bb_smc_hrc_memo *m, const bb_smc_hrc *d, int64_t bp_max, bool listed, bool *all);
void bb_smc_hrc_memo_clear_cand(bb_smc_hrc_memo *m);
void bb_smc_hrc_add_cand(bb_smc_hrc_memo *m, int v);
/* Sorts n distinct ids (>= 0) ascending, in O(n) passes of a radix sort (tmp: room for n): the
 * lists of what changed are sorted at every propagation, where qsort's calls per comparison
 * cost as much as the work they order. */
void bb_smc_hrc_sort_ids(int32_t *a, int n, int32_t *tmp);

/* smc_hrc_accel.c: the counts on the path's engine; false (nothing to undo) when it cannot run. */
bool bb_smc_hrc_accel_count(const bb_smc_hrc *d, const bb_smc_domains *dom, bb_smc_path path, bb_smc_hrc_counts *c);

#endif
