// gpu-la-min: the LA-Par-GPU-MIN kernel of seed 000 Listing 1: PRMatrix nodes of two 32-bit
// words, atomicMin on the woman's partner rank, the displaced man looked up in her list.
// One correction to the listing: it writes Next[m] after the atomicMin that accepts m, so
// the thread that later displaces m may read a stale Next[m]. Here Next[m] is written
// before the atomicMin and fenced, and read after a fence by the displacing thread.
#include <stdlib.h>

#include "gpu_internal.cuh"

__global__ void la_min_kernel(const PrNode64::raw *__restrict__ pr, const bb_id *__restrict__ women,
                              int n, uint32_t *partner_rank, uint32_t *next, int *ctl) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  volatile int *stop = ctl + BB_CTL_STOP_FLAG;
  uint32_t m = (uint32_t)t, k = 0;
  for (uint32_t iter = 0;; iter++) {
    if ((iter & 15) == 0 && *stop) return; // only the time limit stops this baseline
    PrNode64::raw node = pr[(size_t)m * n + k];
    uint32_t w = PrNode64::woman(node), my_rank = PrNode64::rank(node);
    __stcg(next + m, k + 1);
    __threadfence();
    uint32_t p_rank = atomicMin(partner_rank + w, my_rank);
    k++;
    if (p_rank > my_rank) {
      if (p_rank == (uint32_t)n) {
        atomicSub(ctl + BB_CTL_FREE_MEN, 1);
        return;
      }
      __threadfence();
      m = women[(size_t)w * n + p_rank];
      k = __ldcg(next + m);
    }
  }
}

// Replaces each woman's partner rank by the partner's id (n marks a free woman, kept as is).
__global__ void partner_ids_kernel(const bb_id *__restrict__ women, int n, uint32_t *partner) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w < n && partner[w] < (uint32_t)n) partner[w] = women[(size_t)w * n + partner[w]];
}

bb_status bb_gpu_la_min(bb_gpu *g, const bb_solve_opts *opts, bb_id *wife_of,
                        bb_solve_stats *stats, bb_error *err) {
  int n = g->n;
  uint32_t *d_partner = NULL, *d_next = NULL, *h_partner = NULL;
  bb_status st = BB_OK;
  double t = bb_now();
#define TRY(call)                                                                                 \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      st = bb_gpu_fail(err, e_, #call, __FILE__, __LINE__);                                       \
      goto done;                                                                                  \
    }                                                                                             \
  } while (0)
  if ((st = bb_gpu_build_prmatrix(g, 8, err)) != BB_OK) goto done;
  TRY(cudaStreamSynchronize(g->stream));
  bb_gpu_free_rank(g);
  stats->t_init += bb_now() - t;

  t = bb_now();
  TRY(cudaMalloc(&d_partner, (size_t)n * sizeof(uint32_t)));
  TRY(cudaMalloc(&d_next, (size_t)n * sizeof(uint32_t)));
  if ((st = bb_gpu_fill_u32(g, d_partner, (size_t)n, (uint32_t)n, err)) != BB_OK) goto done;
  if ((st = bb_gpu_ctl_reset(g, n, err)) != BB_OK) goto done;
  la_min_kernel<<<(n + 255) / 256, 256, 0, g->stream>>>((const PrNode64::raw *)g->d_pr, g->d_women,
                                                         n, d_partner, d_next, g->d_ctl);
  TRY(cudaPeekAtLastError());
  if ((st = bb_gpu_monitor(g, 0, opts, "gpu-la-min", err)) != BB_OK) goto done;
  stats->t_solve += bb_now() - t;

  t = bb_now();
  h_partner = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
  if (!h_partner) {
    st = bb_fail(err, BB_ERR_NOMEM, "gpu-la-min: out of host memory");
    goto done;
  }
  // Postprocessing as in the paper: each woman's partner is her list's entry at the partner
  // rank, resolved on the device so only n ids cross the bus.
  partner_ids_kernel<<<(n + 255) / 256, 256, 0, g->stream>>>(g->d_women, n, d_partner);
  TRY(cudaPeekAtLastError());
  TRY(cudaMemcpyAsync(h_partner, d_partner, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost,
                      g->stream));
  TRY(cudaStreamSynchronize(g->stream));
  for (int w = 0; w < n; w++) {
    if (h_partner[w] >= (uint32_t)n) {
      st = bb_fail(err, BB_ERR_GPU, "gpu-la-min: woman %d left unmatched (kernel bug)", w);
      goto done;
    }
    wife_of[h_partner[w]] = (bb_id)w;
  }
  stats->t_post += bb_now() - t;
#undef TRY
done:
  cudaFree(d_partner);
  cudaFree(d_next);
  free(h_partner);
  return st;
}
