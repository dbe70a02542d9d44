// A block of rank rows of the staged build (gpu_staged.cu, ranks_in_blocks): rank[i * n + m],
// the position of man m in the list of the block's i-th woman. A rank is stored in two
// planes so that every access stays aligned and a row of either plane stays coalesced: a
// 16-bit plane of the low bits and, after it, a plane of the high bits, one byte while ranks
// fit 24 bits (n <= 2^24, bb_rank_block_bytes: 3 bytes a rank) and two above (4 bytes). Three
// bytes instead of four give a block 4/3 as many women in the same memory, so the build makes
// fewer passes over the PRMatrix.
#ifndef BB_GPU_RANK_BLOCK_CUH
#define BB_GPU_RANK_BLOCK_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bb_gpu.h"

struct bb_rank_block {
  uint16_t *lo; // rows * n low halves: the block's one allocation
  void *hi;     // rows * n high parts of hi_bytes each, right after the low plane
  int hi_bytes; // 1 or 2
};

// One block's planes as the kernels see them. put writes rank r of cell i; load reads it
// through the read-only cache (the rank passes only read the block).
template <typename Hi>
struct rank_planes {
  static constexpr bool ranks = true; // the generator writes rows in id order (gpu_gen.cu)
  uint16_t *lo;
  Hi *hi;
  __device__ __forceinline__ void put(size_t i, uint32_t r) const {
    lo[i] = (uint16_t)r;
    hi[i] = (Hi)(r >> 16);
  }
  __device__ __forceinline__ uint32_t load(size_t i) const {
    return (uint32_t)__ldg(lo + i) | ((uint32_t)__ldg(hi + i) << 16);
  }
  __host__ __device__ rank_planes shift(size_t cells) const { return {lo + cells, hi + cells}; }
};

template <typename F>
static void bb_with_rank_planes(const bb_rank_block &b, F &&f) {
  if (b.hi_bytes == 1)
    f(rank_planes<uint8_t>{b.lo, (uint8_t *)b.hi});
  else
    f(rank_planes<uint16_t>{b.lo, (uint16_t *)b.hi});
}

// A block of `rows` rank rows for n (bb_rank_block_bytes(n) * rows * n bytes, one cudaMalloc),
// and its release (accepts an empty block).
bb_status bb_rank_block_alloc(int n, int rows, bb_rank_block *b, bb_error *err);
void bb_rank_block_free(bb_rank_block *b);

// Rows row0 .. row0 + rows - 1 of block b from those women's lists (rows * n ids), on `stream`.
bb_status bb_rank_block_scatter(const bb_id *lists, int n, int rows, const bb_rank_block &b, int row0,
                                cudaStream_t stream, bb_error *err);

#endif
