/* The Hospitals/Residents constraint propagated natively: no cloning of hospitals into posts.
 *
 *   stable_matching_hr(residents, posts, lists, capacity)
 *
 * Variables (0-based ranks; the solver's views add the model's base):
 *   residents[r]  the rank, in r's list, of r's hospital; len(r) when r is unassigned;
 *   posts[h, q]   the rank, in h's list, of the resident on h's q-th post (q < cols), posts
 *                 filled best first; len(h) marks an empty post, and posts q >= capacity[h]
 *                 are always empty.
 * Variable k < n_residents is residents[k]; n_residents + h * cols + q is posts[h, q].
 *
 * A pair (r, h) is acceptable when each lists the other; a matching uses acceptable pairs,
 * at most capacity[h] residents at h; it is stable when no acceptable pair (r, h) has r
 * unassigned or preferring h and h under-subscribed or preferring r to its worst assignee.
 *
 * The propagation (Manlove, O'Malley, Prosser & Unsworth, "A constraint programming approach
 * to the Hospitals/Residents problem", CPAIOR 2007: the resident- and hospital-oriented
 * Gale-Shapley lists) reasons only from the current domains and the original lists, so it
 * stays sound whatever side constraints remove:
 *   - residents: a resident r whose every remaining value is worse than h (or equal) has
 *     "proposed" to h; once capacity[h] residents have, no resident worse than the
 *     capacity[h]-th best of them can be at h (resident-oriented GS); a resident who can only
 *     do strictly worse than h makes h full with residents better than him;
 *   - hospitals: the capacity[h] best residents still possible at h, and everyone h ranks
 *     above the last of them, get h or better (hospital-oriented GS);
 *   - posts: ordered (best first, empty last), bounds from the residents still possible at h
 *     (the q-th of them from below) and those fixed at h (the q-th of them from above); a
 *     hospital that must take m residents (full, or m posts that cannot be empty) leaves room
 *     behind each of its first m posts and takes all its possible residents when there are m;
 *     a post fixed to a resident fixes him; a resident no post of h can hold loses h.
 * Without side constraints the residents' domains after the first propagation are the
 * GS-lists: their smallest values the resident-optimal matching, their largest the
 * hospital-optimal one. The posts get bounds reasoning only (their domains are not punched
 * with the residents that left h): copying a space then copies one or two ranges per post.
 * When every resident is fixed every post is fixed, and a matching that is not stable fails.
 *
 * Per propagation the work is the changed residents' lists and, for each hospital touched, a
 * walk of its list up to its cut: O(total list length) at worst, much less during search. */
#ifndef BB_SMC_HR_H
#define BB_SMC_HR_H

#include "bb_common.h"
#include "smc.h" /* bb_smc_path; smc_domains.h */

#ifdef __cplusplus
extern "C" {
#endif

/* The preference data: read-only, reference counted, shared by every search node. */
typedef struct bb_smc_hr bb_smc_hr;

/* From CSR lists with 0-based ids (bamboo-smp's bb_hr form): resident r's list is
 * res_list[res_start[r] .. res_start[r + 1]), favourite first; likewise hospitals. cols >= the
 * largest capacity. base only decorates messages (ids are printed as base + id). Checks ids,
 * repeats and capacities (BB_ERR_INPUT naming the list), or BB_ERR_NOMEM. */
bb_smc_hr *bb_smc_hr_new_csr(int n_residents, int n_hospitals, int cols, int base, const uint32_t *res_start,
                             const uint32_t *res_list, const uint32_t *hosp_start, const uint32_t *hosp_list,
                             const int32_t *capacity, bb_error *err);
/* From row-major padded matrices of ids counting from base (stable_matching_hr's arguments):
 * resident r's list is rp[r * rp_cols .. + rp_len[r]), hospital h's hp[h * hp_cols .. + hp_len[h]). */
bb_smc_hr *bb_smc_hr_new(int n_residents, int n_hospitals, int cols, int base, const int *rp, const int *rp_len,
                         int rp_cols, const int *hp, const int *hp_len, int hp_cols, const int32_t *capacity,
                         bb_error *err);
bb_smc_hr *bb_smc_hr_retain(bb_smc_hr *hr);
void bb_smc_hr_release(bb_smc_hr *hr); /* accepts NULL */

int bb_smc_hr_residents(const bb_smc_hr *hr);
int bb_smc_hr_hospitals(const bb_smc_hr *hr);
int bb_smc_hr_cols(const bb_smc_hr *hr);
int bb_smc_hr_vars(const bb_smc_hr *hr); /* n_residents + n_hospitals * cols */
/* The largest value of variable var: len(r) for a resident, len(h) (empty) for a post. */
int bb_smc_hr_top(const bb_smc_hr *hr, int var);

/* The solver's domains: the one host contract (smc_domains.h), on the variable numbers above.
 * The core uses min, max, contains, remove, remove_range, lower_max, raise_min and assign. */

/* One search node's memory (copied with the node): a few ints per resident and hospital and
 * one bit per list entry. bytes_for gives its size; init prepares the root's. */
typedef struct bb_smc_hr_node bb_smc_hr_node;
size_t bb_smc_hr_node_bytes(const bb_smc_hr *hr);
void bb_smc_hr_node_init(bb_smc_hr_node *node, const bb_smc_hr *hr);

/* One propagator copy's work space (queues), not copied. */
typedef struct bb_smc_hr_scratch bb_smc_hr_scratch;
bb_smc_hr_scratch *bb_smc_hr_scratch_new(const bb_smc_hr *hr, bb_error *err);
void bb_smc_hr_scratch_free(bb_smc_hr_scratch *s); /* accepts NULL */

/* What changed since the last propagation, from the solver's advisors. */
void bb_smc_hr_note(bb_smc_hr_scratch *s, const bb_smc_hr *hr, int var);

/* bb_smc_hr_propagate answers (smc_status.h) BB_SMC_FIX (at the fixpoint of the rules above)
 * or BB_SMC_FAILED (no stable matching within the domains). */

/* Runs the rules to their fixpoint over the noted changes (everything at the first call). The
 * rules follow their own domain changes; the solver need not report them back. */
bb_smc_status bb_smc_hr_propagate(const bb_smc_hr *hr, bb_smc_hr_node *node, bb_smc_hr_scratch *s,
                                  const bb_smc_domains *dom);

/* bb_smc_hr_propagate on a chosen path, with the same domains after every propagation:
 * BB_SMC_PATH_CPU (and AUTO: no measurement favours the GPU yet) is bb_smc_hr_propagate. BB_SMC_PATH_GPU runs the
 * resident-oriented proposals over the current domains in parallel on the GPU
 * (cuda/smc_hr_accel_steps.h, cuda/gpu_smc_hr.cu), raises each resident's smallest value to
 * where they end, and lets bb_smc_hr_propagate finish the fixpoint; without a usable GPU, or
 * when a CUDA call fails, it warns once per constraint on stderr and runs on the CPU.
 * BB_SMC_PATH_EMULATED is the same on host threads (smc_hr_accel_emul.c): how CI tests it.
 * Search threads share the engine: their parallel runs take turns. */
bb_smc_status bb_smc_hr_propagate_on(const bb_smc_hr *hr, bb_smc_path path, bb_smc_hr_node *node, bb_smc_hr_scratch *s,
                                     const bb_smc_domains *dom);

#ifdef __cplusplus
}
#endif
#endif
