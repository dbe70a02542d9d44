// bamboo's staged initialisation (issue 21): the device peak is the PRMatrix plus what
// building it needs, not the lists, rank matrix and PRMatrix all at once.
//   1. the women's lists are uploaded, turned into the rank matrix, and freed;
//   2. the PRMatrix is allocated and the men's lists are streamed through one block of rows
//      (STAGE_BLOCK_IDS ids), each block turned into its PRMatrix rows before the next
//      overwrites it (both on gpu->stream, so stream order is the only synchronisation);
//   3. the caller frees the rank matrix once the partner words exist (gpu_bamboo.cu).
// Peak: rank matrix + PRMatrix + one block + the upload staging, against lists + rank +
// PRMatrix before (engine/sm/memory_plan.h has both figures).
#include <stdlib.h>

#include "gpu_internal.cuh"

#define STAGE_BLOCK_IDS ((size_t)64 << 20) // 256 MiB of 32-bit ids

static bb_status rank_from_women(bb_gpu *g, bb_gpu_pipe *pipe, bb_solve_stats *stats,
                                 bb_error *err) {
  double t = bb_now();
  BB_CUDA(cudaMalloc(&g->d_women, g->cells * sizeof(bb_id)));
  bb_gpu_sample_memory(g);
  bb_status st = bb_gpu_pipe_upload(g, pipe, g->inst->women_prefs, g->d_women, g->cells, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaStreamSynchronize(g->stream));
  stats->t_transfer += bb_now() - t;
  if ((st = bb_gpu_build_rank(g, err)) != BB_OK) return st;
  BB_CUDA(cudaStreamSynchronize(g->stream));
  BB_CUDA(cudaFree(g->d_women));
  g->d_women = NULL;
  return BB_OK;
}

static bb_status prmatrix_from_men(bb_gpu *g, bb_gpu_pipe *pipe, bb_error *err) {
  size_t n = (size_t)g->n;
  int block_rows = (int)(STAGE_BLOCK_IDS / n < n ? STAGE_BLOCK_IDS / n : n);
  // BAMBOO_GPU_STAGE_ROWS=R forces blocks of R rows, so tests cover many blocks (and a short
  // last one) at small n; the memory plan assumes the default.
  const char *forced = getenv("BAMBOO_GPU_STAGE_ROWS");
  if (forced && atoi(forced) > 0) block_rows = atoi(forced) < g->n ? atoi(forced) : g->n;
  if (block_rows < 1) block_rows = 1;
  bb_id *block = NULL;
  BB_CUDA(cudaMalloc(&block, (size_t)block_rows * n * sizeof(bb_id)));
  bb_gpu_sample_memory(g);
  bb_status st = BB_OK;
  for (int first = 0; first < g->n && st == BB_OK; first += block_rows) {
    int rows = g->n - first < block_rows ? g->n - first : block_rows;
    st = bb_gpu_pipe_upload(g, pipe, g->inst->men_prefs + (size_t)first * n, block,
                            (size_t)rows * n, err);
    if (st == BB_OK) st = bb_gpu_build_prmatrix_rows(g, block, first, rows, err);
  }
  cudaError_t e = cudaStreamSynchronize(g->stream);
  cudaFree(block);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "PRMatrix blocks", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_build_staged(bb_gpu *g, int node_bytes, bb_solve_stats *stats, bb_error *err) {
  if (node_bytes == 4 && g->n > 65536)
    return bb_fail(err, BB_ERR_ARG, "32-bit PRMatrix nodes need n <= 65536 (n = %d)", g->n);
  if (!g->staged || !g->inst) return bb_fail(err, BB_ERR_ARG, "bb_gpu_build_staged: not a staged context");
  bb_gpu_pipe *pipe = NULL;
  bb_status st = bb_gpu_pipe_open(g, &pipe, err);
  if (st == BB_OK && !g->d_rank) st = rank_from_women(g, pipe, stats, err);
  if (st == BB_OK && g->d_pr) {
    cudaFree(g->d_pr);
    g->d_pr = NULL;
  }
  cudaError_t e = cudaSuccess;
  if (st == BB_OK && (e = cudaMalloc(&g->d_pr, g->cells * (size_t)node_bytes)) != cudaSuccess)
    st = bb_gpu_fail(err, e, "cudaMalloc(PRMatrix)", __FILE__, __LINE__);
  if (st == BB_OK) {
    g->pr_node_bytes = node_bytes;
    bb_gpu_sample_memory(g);
    st = prmatrix_from_men(g, pipe, err);
  }
  bb_gpu_pipe_close(g, pipe);
  return st;
}
