/* Hospitals/Residents propagated natively (propagator/smc/hr/smc_hr.h for the meaning and the
 * propagation), posted into a bb_space.
 *
 *   stable_matching_hr(residents, posts, lists, capacity)
 *
 * residents: n_residents int variable indexes; posts: n_hospitals x cols row-major (cols >= the
 * largest capacity). Values count from base (0 or 1): residents[r] = base + the rank of r's
 * hospital in r's list, base + len(r) when unassigned; posts[h][q] = base + the rank in h's list
 * of the resident on h's q-th post, base + len(h) when empty. Posting restricts every variable
 * to its range. A variable may appear more than once (it is then tied to a copy). Errors:
 * BB_ERR_INPUT with the message naming the list, BB_ERR_ARG for a variable that does not exist
 * or a bad base, BB_ERR_NOMEM. */
#ifndef BB_STABLE_MATCHING_HR_H
#define BB_STABLE_MATCHING_HR_H

#include "bb_shim.h"
#include "smc_hr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The constraint's options, as bb_stable_matching_options (bb_stable_matching.h); opts may be NULL. */
typedef struct bb_stable_matching_hr_options {
  bb_smc_path path; /* where it propagates (smc_hr.h's bb_smc_hr_propagate_on): BB_SMC_PATH_AUTO
                       (the default; the CPU), _CPU, _GPU, _EMULATED */
} bb_stable_matching_hr_options;

/* Lists as padded row-major matrices of ids counting from base (the MiniZinc predicate's). */
bb_status bb_post_stable_matching_hr(bb_space *space, const int *residents, int n_residents, const int *posts,
                                     int n_hospitals, int cols, int base, const int *rp, const int *rp_len, int rp_cols,
                                     const int *hp, const int *hp_len, int hp_cols, const int *capacity,
                                     const bb_stable_matching_hr_options *opts, bb_error *err);

/* Lists as CSR with 0-based ids (bamboo-smp's bb_hr). */
bb_status bb_post_stable_matching_hr_csr(bb_space *space, const int *residents, int n_residents, const int *posts,
                                         int n_hospitals, int cols, int base, const uint32_t *res_start,
                                         const uint32_t *res_list, const uint32_t *hosp_start,
                                         const uint32_t *hosp_list, const int32_t *capacity,
                                         const bb_stable_matching_hr_options *opts, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
