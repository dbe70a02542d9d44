// GPU initialisation ([Bamboo-SMP] section IV-A, "LAInit"): the women's rank matrix and the
// PRMatrix, each entry independent of the others. Blocks stride over rows so every row is
// read with coalesced accesses and no 64-bit division is needed per entry.
#include "gpu_internal.cuh"

__global__ void rank_matrix_kernel(const bb_id *__restrict__ women, int n, uint32_t *__restrict__ rank) {
  for (int w = blockIdx.x; w < n; w += gridDim.x) {
    const bb_id *row = women + (size_t)w * n;
    uint32_t *out = rank + (size_t)w * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[row[k]] = (uint32_t)k;
  }
}

// pr[m][k] = (woman = men[m][k], rank of m in her list). The rank read is a column access
// of the rank matrix; it is the one scattered read of the whole algorithm, paid once here.
// Rows first .. first + rows - 1; `men` holds just those rows.
template <typename Node>
__global__ void prmatrix_kernel(const bb_id *__restrict__ men, const uint32_t *__restrict__ rank, int n, int first,
                                int rows, typename Node::plane pr) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    int m = first + i;
    const bb_id *list = men + (size_t)i * n;
    typename Node::plane out = pr.shift((size_t)m * n);
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      bb_id w = list[k];
      out.put(k, Node::make(w, rank[(size_t)w * n + m]));
    }
  }
}

bb_status bb_gpu_build_rank(bb_gpu *g, bb_error *err) {
  if (g->d_rank) return BB_OK;
  BB_CUDA(cudaMalloc(&g->d_rank, g->cells * sizeof(uint32_t)));
  bb_gpu_sample_memory(g);
  rank_matrix_kernel<<<bb_gpu_row_blocks(g->n), 256, 0, g->stream>>>(g->d_women, g->n, g->d_rank);
  BB_CUDA_LAUNCHED("rank_matrix_kernel");
  return BB_OK;
}

bb_status bb_gpu_build_prmatrix(bb_gpu *g, int node_bytes, bb_error *err) {
  if (!bb_prnode_bytes_fits(node_bytes, g->n))
    return bb_fail(err, BB_ERR_ARG, "%d-byte PRMatrix nodes do not hold n = %d", node_bytes, g->n);
  bb_status st = bb_gpu_build_rank(g, err);
  if (st != BB_OK) return st;
  if (g->d_pr) {
    BB_CUDA(cudaFree(g->d_pr));
    g->d_pr = NULL;
  }
  BB_CUDA(cudaMalloc(&g->d_pr, g->cells * (size_t)node_bytes));
  bb_gpu_sample_memory(g);
  g->pr_node_bytes = node_bytes;
  return bb_gpu_build_prmatrix_rows(g, g->d_men, 0, g->n, err);
}

bb_status bb_gpu_build_prmatrix_rows(bb_gpu *g, const bb_id *men_rows, int first, int rows, bb_error *err) {
  int blocks = bb_gpu_row_blocks(rows);
  bb_gpu_with_node(g->pr_node_bytes, [&](auto node) {
    using Node = decltype(node);
    prmatrix_kernel<Node>
        <<<blocks, 256, 0, g->stream>>>(men_rows, g->d_rank, g->n, first, rows, Node::at(g->d_pr, g->cells));
  });
  BB_CUDA_LAUNCHED("prmatrix_kernel");
  return BB_OK;
}
