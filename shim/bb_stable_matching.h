/* The Stable Marriage constraint, posted into a bb_space (see propagator/smc.h for its
 * meaning and docs/constraint.md for the rank convention).
 *
 *   stable_matching(men, women, pm, pw)
 *
 * men and women are int variable indexes (n each); pm and pw are n x n row-major matrices
 * whose rows are permutations of 0..n-1 (ranks 0..n-1) or of 1..n (ranks 1..n). Posting
 * restricts every variable to the rank range. The same variable may appear more than once
 * (the shim then posts the constraint over copies tied by equalities). */
#ifndef BB_STABLE_MATCHING_H
#define BB_STABLE_MATCHING_H

#include "bb_shim.h"
#include "smc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_stable_matching_options {
  bb_smc_strength strength; /* BB_SMC_GS_LISTS (default) or BB_SMC_MEN_PROPOSING */
  bb_smc_path path;         /* BB_SMC_PATH_AUTO (default: the hybrid), _CPU, _GPU, _EMULATED */
} bb_stable_matching_options;

/* Errors: BB_ERR_INPUT with the message of bb_smc_prefs_new (naming the row or column),
 * BB_ERR_ARG for a variable index that does not exist, BB_ERR_NOMEM. The preference data
 * is copied once and shared by every search node and thread. opts may be NULL. */
bb_status bb_post_stable_matching(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                  const int *pm, int pm_rows, int pm_cols, const int *pw, int pw_rows, int pw_cols,
                                  const bb_stable_matching_options *opts, bb_error *err);

/* Incomplete lists (SMI), with bb_smc_prefs_new_smi's meaning of base, pm, pm_len, pm_cols
 * (smc.h): men[i] ranges over base..base + pm_len[i], the last value meaning unmatched. */
bb_status bb_post_stable_matching_smi(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                      int base, const int *pm, const int *pm_len, int pm_cols, const int *pw,
                                      const int *pw_len, int pw_cols, const bb_stable_matching_options *opts,
                                      bb_error *err);

/* The same from CSR lists (bb_smc_prefs_new_smi_csr): 0-based ids, as bamboo-smp reads them. */
bb_status bb_post_stable_matching_smi_csr(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                          int base, const uint32_t *m_start, const uint32_t *m_list,
                                          const uint32_t *w_start, const uint32_t *w_list,
                                          const bb_stable_matching_options *opts, bb_error *err);

/* Either form from preference data made beforehand (bb_smc_prefs_adopt, _new_smi_csr, ...):
 * the post takes over the caller's reference, whatever it returns. */
bb_status bb_post_stable_matching_prefs(bb_space *space, const int *men, int n_men, const int *women, int n_women,
                                        bb_smc_prefs *prefs, const bb_stable_matching_options *opts, bb_error *err);

/* Totals over every SMC propagation run in this process so far (all threads). */
void bb_stable_matching_counters(bb_smc_counters *out);

/* Measurements: when set (not NULL), every SMC propagation in this process calls it with
 * what it saw and did (from whichever search thread ran it). */
typedef void (*bb_stable_matching_observer)(void *ctx, const bb_smc_run_info *info);
void bb_stable_matching_observe(bb_stable_matching_observer fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
