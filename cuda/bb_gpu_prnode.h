/* The PRMatrix node formats of the GPU engines: which one an n gets, and the
 * arithmetic of the 40-bit one. Pure C (static inline, no CUDA), so the memory plan
 * (engine/sm/memory_plan.h), the kernels (gpu_prnode.cuh) and a CPU unit test share it.
 *
 * A node is (woman, rank of the man in her list). Formats, by bytes per node:
 *   4  16-bit woman | 16-bit rank, one 32-bit word: n <= 65,536;
 *   5  20-bit woman | 20-bit rank: n <= 1,048,576, stored in two planes so every access
 *      stays aligned and a row stays coalesced: a 32-bit plane of the low halves
 *      (woman bits 0-15 << 16 | rank bits 0-15, as the 4-byte node) and, after it, an 8-bit
 *      plane of the high nibbles (woman bits 16-19 << 4 | rank bits 16-19);
 *   8  32-bit woman | 32-bit rank, one 64-bit word ([Bamboo-SMP]'s two-word node): any n.
 * The partner words that atomicMin works on are separate (gpu_internal.cuh); a node is only
 * read by the proposal kernels, so the two planes need no atomic access. */
#ifndef BB_GPU_PRNODE_H
#define BB_GPU_PRNODE_H

#include <stdint.h>
#include <stdlib.h>

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A PRMatrix node as the host reads it (the host PRMatrix, and a device row decoded for the
 * CPU tail): the woman and the rank of the proposing man in her list. */
typedef struct bb_prnode {
  bb_id woman;
  uint32_t man_rank;
} bb_prnode;

#ifdef __cplusplus
}
#endif

#ifdef __CUDACC__
#define BB_PRNODE_HD static __host__ __device__ __forceinline__
#else
#define BB_PRNODE_HD static inline
#endif

#define BB_PRNODE32_MAX_N 65536
#define BB_PRNODE40_MAX_N (1 << 20)

/* The narrowest format whose fields hold 0 .. n - 1. */
static inline int bb_prnode_bytes_narrowest(int n) {
  return n <= BB_PRNODE32_MAX_N ? 4 : n <= BB_PRNODE40_MAX_N ? 5 : 8;
}

/* 1 if `bytes` names a format that holds n. */
static inline int bb_prnode_bytes_fits(int bytes, int n) {
  return bytes == 8 || (bytes == 5 && n <= BB_PRNODE40_MAX_N) || (bytes == 4 && n <= BB_PRNODE32_MAX_N);
}

/* The format a run uses: `forced` (4, 5 or 8) when it holds n, otherwise `fallback` (a format
 * that holds n). Tests force each format at small n through the environment:
 * BAMBOO_GPU_NODE_BYTES=4|5|8, or the older BAMBOO_GPU_WIDE_NODES=1 (= 8). A forced format
 * that cannot hold n gives way to the narrowest that can. */
static inline int bb_prnode_bytes_forced(void) {
  const char *bytes = getenv("BAMBOO_GPU_NODE_BYTES"), *wide = getenv("BAMBOO_GPU_WIDE_NODES");
  int b = bytes ? atoi(bytes) : 0;
  if (b == 4 || b == 5 || b == 8) return b;
  return wide && *wide == '1' ? 8 : 0;
}
static inline int bb_prnode_bytes_choose(int n, int forced, int fallback) {
  if (!forced) return fallback;
  return bb_prnode_bytes_fits(forced, n) ? forced : bb_prnode_bytes_narrowest(n);
}
/* The defaults: bamboo the narrowest; gpu-la-min [Bamboo-SMP]'s 8-byte node while n <= 65,536
 * (its timings stay comparable with the paper's), the narrowest above. The memory plan
 * (engine/sm/sm_memory_plan.c) uses these with its request's forced size; the engines with
 * the environment's. */
static inline int bb_prnode_bytes_default(int n, int la_min) {
  return la_min && n <= BB_PRNODE32_MAX_N ? 8 : bb_prnode_bytes_narrowest(n);
}
static inline int bb_prnode_bytes_bamboo(int n) {
  return bb_prnode_bytes_choose(n, bb_prnode_bytes_forced(), bb_prnode_bytes_default(n, 0));
}
static inline int bb_prnode_bytes_la_min(int n) {
  return bb_prnode_bytes_choose(n, bb_prnode_bytes_forced(), bb_prnode_bytes_default(n, 1));
}

/* The staged build's rank blocks (cuda/gpu_rank_block.cuh) beside the PRMatrix: bytes per
 * rank, a 16-bit plane and a high plane of 8 bits while ranks 0 .. n - 1 fit 24 bits, else 16.
 * The memory plan sizes the blocks with it. */
#define BB_RANK24_MAX_N (1 << 24)
static inline int bb_rank_block_bytes(int n) { return n <= BB_RANK24_MAX_N ? 3 : 4; }

/* --- The 40-bit node's two planes --------------------------------------------------------
 * For a matrix of `cells` nodes at `base`: the low plane is cells 32-bit words at base, the
 * high plane cells bytes at base + 4 * cells (5 * cells bytes in all). */
BB_PRNODE_HD uint32_t bb_prnode40_lo(uint32_t woman, uint32_t rank) { return (woman << 16) | (rank & 0xffffu); }
BB_PRNODE_HD uint8_t bb_prnode40_hi(uint32_t woman, uint32_t rank) {
  return (uint8_t)(((woman >> 16) << 4) | ((rank >> 16) & 0xfu));
}
BB_PRNODE_HD uint32_t bb_prnode40_woman(uint32_t lo, uint8_t hi) { return (lo >> 16) | ((uint32_t)(hi >> 4) << 16); }
BB_PRNODE_HD uint32_t bb_prnode40_rank(uint32_t lo, uint8_t hi) {
  return (lo & 0xffffu) | ((uint32_t)(hi & 0xfu) << 16);
}

#endif
