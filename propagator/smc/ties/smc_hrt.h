/* Hospitals/Residents with Ties (HRT) under weak, strong or super-stability, propagated natively: the
 * capacitated sibling of smc_ties.h (SMTI), sharing its list layout.
 *
 *   stable_matching_hrt(residents, load, lists with ranks, capacity, size)
 *
 * Variables (0-based; the solver's views add the model's base to the residents only):
 *   residents[r]  the position, in r's list, of r's hospital; len(r) when r is unassigned;
 *   load[h]       the number of residents assigned to h (0 .. capacity[h]; no view offset);
 *   size          the number of assigned residents (0 .. n_residents; no view offset).
 * Variable r < n_residents is residents[r], n_residents + h is load[h], n_residents +
 * n_hospitals is size.
 *
 * (r, h) acceptable and r not at h blocks when r strictly prefers h (h lies past the tie of r's
 * hospital, or r is unassigned) and h strictly prefers r (h is under-subscribed, or r lies past
 * the tie of h's worst assignee) [Irving, Manlove & Scott 2000]; weakly stable: no pair blocks.
 * Strongly stable: no pair where one strictly prefers and the other weakly prefers (r: h's rank
 * at most his hospital's; h: under-subscribed or r's rank at most its worst assignee's);
 * super-stable: none where both weakly prefer. Only the proposal rules change with the kind.
 *
 * The rules (smc_hrt_propagate.c and smc_hrt_size.c prove each from this definition) read only
 * the current domains and the lists, so they stay sound whatever side constraints remove:
 *   - acceptable values; load between the residents fixed at h and those possible there;
 *   - weak Gale-Shapley: a resident r with nothing left at least as good as h but h itself has
 *     "proposed" to h; once capacity[h] residents have, nobody h ranks past the tie of the
 *     capacity-th of them can be at h; a resident who can only do strictly worse than h makes
 *     h full with residents at least as good as him; a hospital that cannot be full with
 *     residents at least as good as r gives r h or better;
 *   - size: between the residents forced assigned (and the loads' minima) and a maximum
 *     capacitated matching over the pairs the domains allow, with the consequences of either
 *     bound being reached, as for SMTI.
 * Complete on fixed domains; not arc consistency (MAX-HRT and the pair question are NP-hard). */
#ifndef BB_SMC_HRT_H
#define BB_SMC_HRT_H

#include "bb_common.h"
#include "smc_domains.h"
#include "smc_ties.h" /* bb_smc_stability */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_smc_ties_hrt bb_smc_ties_hrt;

/* From row-major padded matrices of ids counting from base (stable_matching_hrt's arguments), as
 * bb_smc_ties_new (stability included); capacity has n_hospitals entries, each >= 0. */
bb_smc_ties_hrt *bb_smc_ties_hrt_new(int n_residents, int n_hospitals, int base, const int *rp, const int *rp_len,
                                     int rp_cols, const int *rp_rank, int rp_rank_cols, const int *hp,
                                     const int *hp_len, int hp_cols, const int *hp_rank, int hp_rank_cols,
                                     const int *capacity, bb_smc_stability stability, bb_error *err);
bb_smc_ties_hrt *bb_smc_ties_hrt_retain(bb_smc_ties_hrt *t);
void bb_smc_ties_hrt_release(bb_smc_ties_hrt *t); /* accepts NULL */

int bb_smc_ties_hrt_residents(const bb_smc_ties_hrt *t);
int bb_smc_ties_hrt_hospitals(const bb_smc_ties_hrt *t);
int bb_smc_ties_hrt_vars(const bb_smc_ties_hrt *t); /* n_residents + n_hospitals + 1 */
/* The smallest and largest value of variable var, before the base: 0 .. len(r) for a resident,
 * 0 .. capacity[h] for a load, 0 .. n_residents for size. */
int bb_smc_ties_hrt_top(const bb_smc_ties_hrt *t, int var);
/* Whether var's views carry the base (the residents). */
bool bb_smc_ties_hrt_based(const bb_smc_ties_hrt *t, int var);

/* The core uses min, max, contains, remove, lower_max, raise_min and assign, and next when the
 * host gives it. Node, scratch and note as in smc_ties.h. */
typedef struct bb_smc_ties_hrt_node bb_smc_ties_hrt_node;
size_t bb_smc_ties_hrt_node_bytes(const bb_smc_ties_hrt *t);
void bb_smc_ties_hrt_node_init(bb_smc_ties_hrt_node *node, const bb_smc_ties_hrt *t);
typedef struct bb_smc_ties_hrt_scratch bb_smc_ties_hrt_scratch;
bb_smc_ties_hrt_scratch *bb_smc_ties_hrt_scratch_new(const bb_smc_ties_hrt *t, bb_error *err);
void bb_smc_ties_hrt_scratch_free(bb_smc_ties_hrt_scratch *s); /* accepts NULL */
void bb_smc_ties_hrt_note(bb_smc_ties_hrt_scratch *s, const bb_smc_ties_hrt *t, int var);

/* BB_SMC_FIX (at the fixpoint) or BB_SMC_FAILED. */
bb_smc_status bb_smc_ties_hrt_propagate(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_node *node,
                                        bb_smc_ties_hrt_scratch *s, const bb_smc_domains *dom);

#ifdef __cplusplus
}
#endif
#endif
