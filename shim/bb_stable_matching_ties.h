/* Stable Marriage with Ties and Incomplete lists (SMTI) and Hospitals/Residents with Ties (HRT)
 * under weak, strong or super-stability, propagated natively (propagator/smc/ties/smc_ties.h and smc_hrt.h for the
 * meaning and the propagation), posted into a bb_space.
 *
 *   stable_matching_smti(men, women, lists with ranks, size)
 *
 * men: n_men int variable indexes, women: n_women, size: one. Values count from base (0 or 1):
 * men[i] = base + the position of i's partner in i's list, base + pm_len[i] when unmatched;
 * women likewise; size = the number of matched men (no base). Lists are row-major padded
 * matrices of ids from base (pm: n_men x pm_cols, the first pm_len[i] entries of row i), ranks
 * likewise (pm_rank: n_men x pm_rank_cols; equal ranks are ties, ranks never decrease). Posting
 * restricts every variable to its range. A variable may appear more than once (it is then tied
 * to a copy). Errors: BB_ERR_INPUT with the message naming the list, BB_ERR_ARG for a variable
 * that does not exist, a bad base or stability, BB_ERR_NOMEM. There is one path (the CPU): no
 * options. stability says which matchings count as stable (docs/ties_constraint.md): the
 * values are those of the core's bb_smc_stability and of the MiniZinc decomposition's kind. */
#ifndef BB_STABLE_MATCHING_TIES_H
#define BB_STABLE_MATCHING_TIES_H

#include "bb_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_stability { BB_STABILITY_WEAK = 0, BB_STABILITY_STRONG = 1, BB_STABILITY_SUPER = 2 } bb_stability;

bb_status bb_post_stable_matching_smti(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                       int size, int base, const int *pm, const int *pm_len, int pm_cols,
                                       const int *pm_rank, int pm_rank_cols, const int *pw, const int *pw_len,
                                       int pw_cols, const int *pw_rank, int pw_rank_cols, bb_stability stability,
                                       bb_error *err);

/*   stable_matching_hrt(residents, load, lists with ranks, capacity, size)
 *
 * residents: n_residents int variables (values from base as men's above), load: n_hospitals
 * (the number of residents at each hospital, 0 .. capacity[h], no base), size: the number of
 * assigned residents. rp, rp_rank, hp, hp_rank as pm, pm_rank, pw, pw_rank above; capacity has
 * n_hospitals entries >= 0. Errors as above. */
bb_status bb_post_stable_matching_hrt(bb_space *space, const int *residents, int n_residents, const int *load,
                                      int n_hospitals, int size, int base, const int *rp, const int *rp_len,
                                      int rp_cols, const int *rp_rank, int rp_rank_cols, const int *hp,
                                      const int *hp_len, int hp_cols, const int *hp_rank, int hp_rank_cols,
                                      const int *capacity, bb_stability stability, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
