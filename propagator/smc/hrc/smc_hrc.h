/* The HRC constraint's core (Hospitals/Residents with Couples), independent of any solver:
 * the shared, read-only instance data and one propagation over rank-valued variables.
 *
 * Variables (ranks from 0 here; the shim shifts by the model's base):
 *   single i (the i-th single resident, by resident id): k < len = his k-th hospital,
 *                                                         len = unassigned;
 *   couple c: k < len = the k-th pair of its joint list, len = both unassigned;
 *   bp: the number of blocking pairs, by Manlove, McBride & Trimble, Constraints 22 (2017),
 *   Definition 1 (docs/hrc_constraint.md): a pair is (a single, an entry of his list) or
 *   (a couple, an entry of its joint list), each counted once.
 * Entries that are not acceptable (a hospital that does not list the resident) are removed
 * from the domains at the root (bb_smc_hrc_acceptable) and never block.
 *
 * A propagation recomputes, from the domains, for every hospital and position in its list
 * whether that resident is surely / possibly there, and prefix counts over them (O(total list
 * length; with a memo, bb_smc_hrc_propagate_memo, only what changed since the last one)); then
 * for each entry whether it blocks certainly or possibly (upper bound); the
 * lower bound sums, per variable, the fewest of its own pairs certain under any one of its
 * values. Couples cost O(domain x list) each. Each variable has a slack: bp's (bp's maximum
 * less the lower bound) or, with budgets (bb_smc_hrc_budgets), the smaller of that and its own
 * budget's. When a variable's slack is 0, none of its pairs that is not already counted may
 * block: values that would make one block for sure are removed, and a hospital that a single
 * (or a fixed couple) surely prefers is made full of residents it ranks higher. Sound with any side constraint: every
 * rule holds for every completion of the current domains. Exact when everything is fixed. */
#ifndef BB_SMC_HRC_H
#define BB_SMC_HRC_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"
#include "smc_domains.h"
#include "smc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instance, in the engine's layout (propagator/engine/hrc/hrc.h): residents 0..nR-1,
 * couple c's members couple_member[2c], [2c+1] (their own lists empty), CSR lists favourite
 * first, ids 0-based. Read at construction only. */
typedef struct bb_smc_hrc_lists {
  int n_residents, n_hospitals, n_couples;
  const int32_t *couple_member;
  const uint32_t *single_start; /* n_residents + 1 */
  const int32_t *single_list;
  const uint32_t *couple_start; /* n_couples + 1, in pairs */
  const int32_t *couple_list;   /* 2 per pair */
  const uint32_t *hosp_start;   /* n_hospitals + 1 */
  const int32_t *hosp_list;
  const int32_t *capacity;
  /* NULL: strict hospitals' lists. Else per hosp_list entry its rank in the hospital's list
   * (0 first, then steps of 0 or 1; equal ranks are a tie): "h prefers r" is then strict,
   * every rule below reads "ranked above" as "ranked strictly above", and bp counts the
   * blocking pairs of weak stability. */
  const uint32_t *hosp_rank;
} bb_smc_hrc_lists;

typedef struct bb_smc_hrc bb_smc_hrc; /* shared, reference counted */

/* Validates (ids in range, members distinct and in one couple, no one listed twice,
 * capacities >= 0, ranks 0 then steps of 0 or 1; the message names the list) and builds the data into *out (NULL on an
 * error: BB_ERR_INPUT, BB_ERR_NOMEM or BB_ERR_ARG). */
bb_status bb_smc_hrc_new(const bb_smc_hrc_lists *lists, bb_smc_hrc **out, bb_error *err);
void bb_smc_hrc_retain(bb_smc_hrc *d);
void bb_smc_hrc_release(bb_smc_hrc *d); /* accepts NULL */

int bb_smc_hrc_singles(const bb_smc_hrc *d);
int bb_smc_hrc_couples(const bb_smc_hrc *d);
/* Variable v (singles first, then couples): its list length (= the unassigned rank), the
 * resident behind a single's variable, and whether entry k is acceptable. */
int bb_smc_hrc_len(const bb_smc_hrc *d, int v);
int bb_smc_hrc_single_resident(const bb_smc_hrc *d, int i);
bool bb_smc_hrc_acceptable(const bb_smc_hrc *d, int v, int k);
/* The rank of a variable for an assignment (assigned[r] = hospital or -1): the entry that
 * matches, len when unassigned, -1 when no acceptable entry matches. */
int bb_smc_hrc_rank_of(const bb_smc_hrc *d, int v, const int32_t *assigned);

/* The domains: the one host contract (smc_domains.h), on variable index v and 0-based rank k.
 * The core uses min, max, size, contains, remove and lower_max. */

/* bb_smc_hrc_propagate answers (smc_status.h) BB_SMC_FAILED, BB_SMC_FIX (nothing changed),
 * BB_SMC_CHANGED (domains shrank: run again) or BB_SMC_NOMEM (scratch could not be allocated;
 * nothing changed). */

/* One propagation. bp_max is bp's current maximum; *lb and *ub receive bounds on the number
 * of blocking pairs under the domains at entry (lb <= every completion's count <= ub; equal
 * when all are fixed). Fails when a hospital is surely over capacity or lb > bp_max. */
bb_smc_status bb_smc_hrc_propagate(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max, int64_t *lb,
                                   int64_t *ub);

/* Per-variable blocking budgets: own[v] is the number of variable v's own blocking pairs
 * (each pair belongs to exactly one variable's list, so the budgets sum to bp; the caller
 * posts that sum). In: own_min[v] <= own[v] <= own_max[v] (both NULL: no budgets). Out (when
 * not NULL): own_lb[v] <= own[v] <= own_ub[v] in every completion (v's share and v's possible
 * count; equal to v's exact count when everything is fixed). A variable's slack is the
 * smaller of bp's slack (counting the other variables at max(share, own_min)) and its own
 * budget's (own_max[v] - share): with that at 0, v's no-slack rules apply even when bp has
 * slack elsewhere. */
typedef struct bb_smc_hrc_budgets {
  const int32_t *own_min, *own_max; /* n_vars each, or both NULL */
  int32_t *own_lb, *own_ub;         /* n_vars each, or NULL */
} bb_smc_hrc_budgets;

/* bb_smc_hrc_propagate with budgets (b may be NULL: the same as bb_smc_hrc_propagate). Fails also
 * when some v's share exceeds own_max[v], own_min[v] exceeds v's possible count, or the
 * shares at max(share, own_min) exceed bp_max. */
bb_smc_status bb_smc_hrc_propagate_budgets(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, int64_t *lb, int64_t *ub);

/* Scratch for propagations: the instance-sized arrays one propagation works in, kept by the
 * caller and reused, grown to the largest constraint it has served (allocating them on every
 * propagation costs fresh pages at every search node). One per thread: a propagation writes
 * it. bb_smc_hrc_scratch_new returns NULL when out of memory; _free accepts NULL. */
typedef struct bb_smc_hrc_scratch bb_smc_hrc_scratch;
bb_smc_hrc_scratch *bb_smc_hrc_scratch_new(void);
void bb_smc_hrc_scratch_free(bb_smc_hrc_scratch *x);

/* bb_smc_hrc_propagate_budgets in the caller's scratch x (NULL: allocated for this call, as
 * bb_smc_hrc_propagate_budgets does). The same answers whatever x served before. */
bb_smc_status bb_smc_hrc_propagate_scratch(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, int64_t *lb,
                                           int64_t *ub);

/* The counting pass, the bounds and the pruning of one constraint's last propagation, kept for
 * its next one: that one counts again only the variables whose domain size changed (and the
 * hospitals they may be at), makes again only the bounds' parts of those variables and of the
 * variables those hospitals list, and prunes again only where those parts or a slack moved,
 * with the same results (the same domain changes, in the same order) as making everything. Valid only while the
 * domains only shrink between the propagations that use it, as within one Gecode space: where
 * they may have grown (a backtrack, a copy of the space) the caller forgets it (or uses another
 * memo). One memo serves one constraint at a time (given another, it makes everything again).
 * bb_smc_hrc_memo_new returns NULL when out of memory; _free and _forget accept NULL. */
typedef struct bb_smc_hrc_memo bb_smc_hrc_memo;
bb_smc_hrc_memo *bb_smc_hrc_memo_new(void);
void bb_smc_hrc_memo_free(bb_smc_hrc_memo *m);
void bb_smc_hrc_memo_forget(bb_smc_hrc_memo *m);
/* A memo holding what m holds, for a copy of the domains m's constraint was last propagated on
 * (a clone of the space, whose propagations then build on it as the original's do): NULL when
 * out of memory. */
bb_smc_hrc_memo *bb_smc_hrc_memo_copy(const bb_smc_hrc_memo *m);

/* bb_smc_hrc_propagate_scratch with memo m (NULL: the same as bb_smc_hrc_propagate_scratch). */
bb_smc_status bb_smc_hrc_propagate_memo(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                        const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, bb_smc_hrc_memo *m,
                                        int64_t *lb, int64_t *ub);

/* What changed since memo m's last propagation, as a caller that watches its variables saw it
 * (Gecode's advisors): the variables whose domains may have shrunk and those whose budgets
 * (own_min, own_max) may have moved, in any order, repeats allowed; every change must be listed,
 * the propagation's own removals included. A propagation given them reads only those domains'
 * sizes and those budgets and keeps bp's bounds and the slacks as running sums, so that its
 * cost follows what changed rather than the number of variables. */
typedef struct bb_smc_hrc_changes {
  const int32_t *vars;
  int n_vars;
  const int32_t *budgets;
  int n_budgets;
} bb_smc_hrc_changes;

/* Whether m holds a whole propagation of d to build on: then bb_smc_hrc_propagate_changes reads
 * b->own_min and b->own_max only at the listed budgets; otherwise at every variable. */
bool bb_smc_hrc_memo_ready(const bb_smc_hrc_memo *m, const bb_smc_hrc *d);

/* bb_smc_hrc_propagate_memo told what changed (ch; NULL: the same as bb_smc_hrc_propagate_memo,
 * which compares every variable). The same answers, domain changes and bounds. b->own_lb and
 * b->own_ub are written only at the variables whose bounds may have moved:
 * bb_smc_hrc_memo_moved then gives them, ascending (returns how many), or returns -1 when every
 * variable's were written. m must not be NULL. */
bb_smc_status bb_smc_hrc_propagate_changes(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, bb_smc_hrc_memo *m,
                                           const bb_smc_hrc_changes *ch, int64_t *lb, int64_t *ub);
int bb_smc_hrc_memo_moved(const bb_smc_hrc_memo *m, const int32_t **vars);

/* Each variable's number of own blocking pairs in a full assignment (ranks[v], 0-based, len =
 * unassigned): own[v] (n_vars). BB_SMC_FAILED when the assignment is not a matching (over
 * capacity or an unacceptable entry), BB_SMC_NOMEM when scratch could not be allocated. */
bb_smc_status bb_smc_hrc_own_counts(const bb_smc_hrc *d, const int *ranks, int32_t *own);

/* Variable v's share of bp's lower bound under the domains (the fewest of v's own pairs that
 * block in every completion, whatever value of D(v) it takes, the others counted at their
 * most): -1 when a hospital is surely over capacity or scratch could not be allocated. For
 * tests: with every other variable fixed it is exact, the minimum over D(v) of v's pairs. */
int64_t bb_smc_hrc_share(const bb_smc_hrc *d, const bb_smc_domains *dom, int v);

#ifdef __cplusplus
}
#endif
#endif
