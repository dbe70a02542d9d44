// Rank blocks (gpu_rank_block.cuh): their allocation and their rows from women's lists.
#include "bb_gpu_prnode.h" // bb_rank_block_bytes
#include "gpu_internal.cuh"
#include "gpu_rank_block.cuh"

bb_status bb_rank_block_alloc(int n, int rows, bb_rank_block *b, bb_error *err) {
  size_t cells = (size_t)rows * (size_t)n;
  b->hi_bytes = bb_rank_block_bytes(n) - 2;
  b->rows = rows;
  b->lo = NULL;
  b->hi = NULL;
  void *base = NULL;
  cudaError_t e = cudaMalloc(&base, cells * (size_t)bb_rank_block_bytes(n));
  if (e != cudaSuccess) return bb_gpu_fail(err, e, "cudaMalloc(rank block)", __FILE__, __LINE__);
  b->lo = (uint16_t *)base;
  b->hi = (void *)(b->lo + cells);
  return BB_OK;
}

void bb_rank_block_free(bb_rank_block *b) {
  cudaFree(b->lo);
  b->lo = NULL;
  b->hi = NULL;
}

// A block per list: the list is read coalesced, and its ranks go one to each man's segment
// (bb_rank_cell), so the writes scatter over the whole block; the blocks running at once write
// neighbouring rows, so neighbouring entries of a segment are written about together.
template <typename Ranks>
__global__ void rank_scatter_kernel(const bb_id *__restrict__ women, int n, int rows, Ranks rank) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    const bb_id *list = women + (size_t)i * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) rank.put((size_t)i, list[k], (uint32_t)k);
  }
}

bb_status bb_rank_block_scatter(const bb_id *lists, int n, int rows, const bb_rank_block &b, int row0,
                                cudaStream_t stream, bb_error *err) {
  if (rows <= 0) return BB_OK;
  bb_with_rank_planes(b, [&](auto planes) {
    rank_scatter_kernel<<<bb_gpu_row_blocks(rows), 256, 0, stream>>>(lists, n, rows, planes.from_row((size_t)row0));
  });
  BB_CUDA_LAUNCHED("rank_scatter_kernel");
  return BB_OK;
}
