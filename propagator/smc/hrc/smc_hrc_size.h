/* The size of a Hospitals/Residents with Couples matching: size = the number of residents
 * assigned (a couple's members count two), bounded over the matchings the domains still allow.
 *
 * Variables (0-based ranks; the solver's views add the model's base): var i < n_singles is
 * single i, position k in his list or len(i) when unassigned; var n_singles + c is couple c,
 * the k-th pair of its joint list or len(c) when both members are unassigned.
 *
 * A couple's pair is no edge of a bipartite graph, so the upper bound is that of a relaxation:
 * each member is a resident of his own, who may take the hospitals his side of the couple's
 * remaining pairs names. Every matching is a capacitated matching of that graph (a couple's
 * pair (h, h) takes two posts at h, as the two members do), so the size of a maximum
 * capacitated matching nu is an upper bound; it may exceed the largest matching the couples
 * allow (the members matched from different pairs). Then
 *   forced <= size <= nu, forced = the residents whose domain has lost "unassigned";
 *   size's maximum equal to forced leaves every other single and couple unassigned;
 *   size's minimum equal to nu assigns every single and couple with a member that every
 *   maximum matching of the relaxation covers, and removes every value that gives a resident a
 *   hospital no maximum matching of the relaxation gives him;
 *   no matching of the relaxation covering the forced residents: failure.
 * Sound on any domains, so side constraints may remove what they like. */
#ifndef BB_SMC_HRC_SIZE_H
#define BB_SMC_HRC_SIZE_H

#include "bb_common.h"
#include "smc_domains.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The lists, 0-based hospital ids below n_hospitals: single i's k-th hospital is
 * single_hosp[single_start[i] + k]; couple c's k-th pair is couple_pair[2 (couple_start[c] + k)]
 * (first member) and [... + 1] (second). */
typedef struct bb_smc_hrc_size_lists {
  int n_singles, n_couples, n_hospitals;
  const uint32_t *single_start; /* n_singles + 1 */
  const int32_t *single_hosp;
  const uint32_t *couple_start; /* n_couples + 1 */
  const int32_t *couple_pair;
  const int32_t *capacity; /* n_hospitals, each >= 0 */
} bb_smc_hrc_size_lists;

typedef struct bb_smc_hrc_size bb_smc_hrc_size;

/* Copies the lists into *out; BB_ERR_ARG or BB_ERR_INPUT when they are malformed, BB_ERR_NOMEM. */
bb_status bb_smc_hrc_size_new(const bb_smc_hrc_size_lists *lists, bb_smc_hrc_size **out, bb_error *err);
void bb_smc_hrc_size_free(bb_smc_hrc_size *t); /* accepts NULL */

int bb_smc_hrc_size_vars(const bb_smc_hrc_size *t); /* n_singles + n_couples */
int bb_smc_hrc_size_len(const bb_smc_hrc_size *t, int var);
int bb_smc_hrc_size_residents(const bb_smc_hrc_size *t); /* n_singles + 2 n_couples */

/* One propagation's working memory, whose matching is also the next one's starting point (any
 * matching will do: the pairs no longer allowed are dropped first). */
typedef struct bb_smc_hrc_size_scratch bb_smc_hrc_size_scratch;
bb_smc_hrc_size_scratch *bb_smc_hrc_size_scratch_new(const bb_smc_hrc_size *t, bb_error *err);
void bb_smc_hrc_size_scratch_free(bb_smc_hrc_size_scratch *s); /* accepts NULL */

/* *lb = forced, *ub = nu (above), for size's bounds. size_min and size_max are size's current
 * bounds, which the rules above read (outside forced..nu the constraint fails). The core uses
 * max, contains, assign, lower_max and remove. BB_SMC_FAILED, BB_SMC_CHANGED (a domain shrank)
 * or BB_SMC_FIX. */
bb_smc_status bb_smc_hrc_size_propagate(const bb_smc_hrc_size *t, bb_smc_hrc_size_scratch *s, const bb_smc_domains *dom,
                                        int size_min, int size_max, int *lb, int *ub);

#ifdef __cplusplus
}
#endif
#endif
