/* Rank matrix and PRMatrix ([Bamboo-SMP] section IV-A; docs/references.md).
 *
 * The women's rank matrix inverts their lists: women_rank[w * n + m] is the position
 * of man m in woman w's list. The PRMatrix co-locates, for each entry of a man's list,
 * the woman and the man's rank in her list, so a proposal costs one memory access:
 * pr[m * n + k] = { men_prefs[m * n + k], women_rank[men_prefs[m * n + k] * n + m] }. */
#ifndef BB_PRMATRIX_H
#define BB_PRMATRIX_H

#include "bb_gpu_prnode.h" /* bb_prnode, the node the GPU rows decode to */
#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both build with `threads` threads (0 = all CPUs); results are malloc'ed, caller frees. */
bb_status bb_rank_matrix_build(const bb_instance *inst, int threads, uint32_t **women_rank, bb_error *err);
bb_status bb_prmatrix_build(const bb_instance *inst, const uint32_t *women_rank, int threads, bb_prnode **prmatrix,
                            bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
