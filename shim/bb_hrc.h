/* Hospitals/Residents with Couples (HRC) as a Gecode constraint: the C API of shim/stable_matching_hrc.cpp.
 *
 * bb_post_stable_matching_hrc posts, over rank-valued int variables (ranks from `base`, 0
 * or 1), the constraint of propagator/smc/hrc/smc_hrc.h:
 *   singles[i]  = base + k: the i-th single resident (by resident id) holds the k-th hospital
 *                 of his list; base + len: unassigned;
 *   couples[c]  = base + k: couple c holds the k-th pair of its joint list; base + len: both
 *                 unassigned;
 *   bp          = the number of blocking pairs (Manlove, McBride & Trimble 2017, Def. 1).
 * Values outside base..base+len and entries that are not acceptable are removed at post.
 *
 * first_choice (NULL for none): the hospital of every resident in a matching to try first
 * (the couples-aware deferred acceptance's, -1 = unassigned). With it, the constraint asks for
 * a default brancher over its variables (docs/hrc_constraint.md, Search): bp = 0 first, that
 * matching as one decision (first of all when the space's objective is bp's minimum), then one
 * variable at a time by conflict history over domain size, whose value is the rank that
 * matching gives when still in the domain (else the smallest): x = v, then x != v, so search
 * stays complete and never repeats a solution. bb_branch_deferred posts such branchers after
 * the model's own search annotations and the objective (which it reads; when the annotations
 * cover these variables, nothing is left for it to do). */
#ifndef BB_HRC_SHIM_H
#define BB_HRC_SHIM_H

#include "bb_shim.h"
#include "hrc.h" /* the engine's instance, bb_hrc */
#include "smc_hrc.h"
#include "smc_hrc_path.h" /* bb_smc_path */

#ifdef __cplusplus
extern "C" {
#endif

/* The engine's HRC instance (propagator/engine/hrc/hrc.h) as the constraint's lists: the same
 * CSR arrays, not copied; valid while `I` lives. */
static inline bb_smc_hrc_lists bb_smc_hrc_lists_of(const bb_hrc *I) {
  bb_smc_hrc_lists L = {I->n_residents,  I->n_hospitals,
                        I->n_couples,    I->couple_member,
                        I->single_start, (const int32_t *)I->single_list,
                        I->couple_start, (const int32_t *)I->couple_list,
                        I->hosp_start,   (const int32_t *)I->hosp_list,
                        I->capacity,     I->hosp_rank};
  return L;
}

/* The constraint's options, as bb_stable_matching_options (bb_stable_matching.h); opts may be NULL. */
typedef struct bb_stable_matching_hrc_options {
  bb_smc_path path; /* where its counting pass runs (smc_hrc_path.h): BB_SMC_PATH_CPU (the default
                       with NULL options) or AUTO (the same), _GPU, _EMULATED */
  /* NULL: first_choice. Else a matching in first_choice's form whose ranks the default brancher
   * tries first when it branches one variable at a time, and whose blocking variables' budgets
   * it branches on first; first_choice stays the one decision tried before them. A better first
   * matching (the portfolio's) then only tightens the bound: the tree below it is the one this
   * matching's order explores. */
  const int32_t *value_order;
} bb_stable_matching_hrc_options;

bb_status bb_post_stable_matching_hrc(bb_space *space, const int *singles, int n_singles, const int *couples,
                                      int n_couples, int bp, int base, const bb_smc_hrc_lists *lists,
                                      const int32_t *first_choice, const bb_stable_matching_hrc_options *opts,
                                      bb_error *err);

/* Posts the default branchers that constraints asked for (in posting order), once. */
bb_status bb_branch_deferred(bb_space *space, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
