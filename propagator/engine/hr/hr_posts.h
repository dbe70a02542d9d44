/* The words the SMI/HR solvers share with the GPU (cuda/gpu_hr.cu): a resident's list entry
 * as a node (hospital, and the rank that hospital gives the resident; BB_HR_UNRANKED when the
 * hospital does not list him), and a post as one 64-bit word (rank << 32 | resident,
 * BB_HR_EMPTY_POST when empty), so that the better of two proposals is the smaller word.
 * hr_internal.h explains why. */
#ifndef BB_HR_POSTS_H
#define BB_HR_POSTS_H

#include <stdint.h>

typedef uint64_t bb_hr_node;
#define BB_HR_UNRANKED UINT32_MAX
#define BB_HR_EMPTY_POST UINT64_MAX

static inline bb_hr_node bb_hr_make_node(uint32_t hospital, uint32_t rank) { return (uint64_t)rank << 32 | hospital; }
static inline uint32_t bb_hr_node_hospital(bb_hr_node x) { return (uint32_t)x; }
static inline uint32_t bb_hr_node_rank(bb_hr_node x) { return (uint32_t)(x >> 32); }

#endif
