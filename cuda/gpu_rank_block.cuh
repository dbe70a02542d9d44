// A block of rank rows of the staged build (gpu_staged.cu, ranks_in_blocks): the position of
// man m in the list of the block's i-th woman, stored man-major at bb_rank_cell(i, m, rows) =
// m * rows + i, where rows is the block's row count as allocated (a short last block keeps that
// stride). The pass over the PRMatrix handles one man's row at a time, so it reads the man's
// `rows` ranks as one contiguous segment that stays in cache, instead of one rank a row apart
// (n entries) for each of his nodes. A rank is stored in two planes so that every access stays
// aligned: a 16-bit plane of the low bits and, after it, a plane of the high bits, one byte
// while ranks fit 24 bits (n <= 2^24, bb_rank_block_bytes: 3 bytes a rank) and two above (4
// bytes). Three bytes instead of four give a block 4/3 as many women in the same memory, so the
// build makes fewer passes over the PRMatrix.
#ifndef BB_GPU_RANK_BLOCK_CUH
#define BB_GPU_RANK_BLOCK_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bb_gpu.h"

struct bb_rank_block {
  uint16_t *lo; // rows * n low halves: the block's one allocation
  void *hi;     // rows * n high parts of hi_bytes each, right after the low plane
  int hi_bytes; // 1 or 2
  int rows;     // as allocated: the stride between two men's segments
};

// Where the rank of man m in the block's row i is, in a block of `rows` rows (both planes):
// the one place that says the layout, for the kernels and for the host (gpu_gen.cu).
__host__ __device__ __forceinline__ size_t bb_rank_cell(size_t i, size_t m, size_t rows) { return m * rows + i; }

// One block's planes as the kernels see them. put writes the rank r of man m in row i; load
// reads it through the read-only cache (the rank passes only read the block).
template <typename Hi>
struct rank_planes {
  static constexpr bool ranks = true; // the generator writes rows in id order (gpu_gen.cu)
  uint16_t *lo;
  Hi *hi;
  size_t rows; // the block's stride (bb_rank_cell)
  __device__ __forceinline__ void put(size_t i, size_t m, uint32_t r) const {
    size_t c = bb_rank_cell(i, m, rows);
    lo[c] = (uint16_t)r;
    hi[c] = (Hi)(r >> 16);
  }
  __device__ __forceinline__ uint32_t load(size_t i, size_t m) const {
    size_t c = bb_rank_cell(i, m, rows);
    return (uint32_t)__ldg(lo + c) | ((uint32_t)__ldg(hi + c) << 16);
  }
  // The same block seen from its row `row0` on: its row i is the block's row row0 + i.
  __host__ __device__ rank_planes from_row(size_t row0) const { return {lo + row0, hi + row0, rows}; }
};

template <typename F>
static void bb_with_rank_planes(const bb_rank_block &b, F &&f) {
  if (b.hi_bytes == 1)
    f(rank_planes<uint8_t>{b.lo, (uint8_t *)b.hi, (size_t)b.rows});
  else
    f(rank_planes<uint16_t>{b.lo, (uint16_t *)b.hi, (size_t)b.rows});
}

// A block of `rows` rank rows for n (bb_rank_block_bytes(n) * rows * n bytes, one cudaMalloc),
// and its release (accepts an empty block).
bb_status bb_rank_block_alloc(int n, int rows, bb_rank_block *b, bb_error *err);
void bb_rank_block_free(bb_rank_block *b);

// Rows row0 .. row0 + rows - 1 of block b from those women's lists (rows * n ids), on `stream`.
bb_status bb_rank_block_scatter(const bb_id *lists, int n, int rows, const bb_rank_block &b, int row0,
                                cudaStream_t stream, bb_error *err);

#endif
