// gpu-mw-cas: McVitie-Wilson on the GPU, one thread per man, the woman's partner (a man id)
// replaced with atomicCAS (the seed 000 baseline MW-Par-GPU-CAS). Under contention a CAS
// fails and is retried, which is the cost atomicMin removes.
#include <stdlib.h>

#include "gpu_internal.cuh"

#define FREE_WOMAN 0xffffffffu

__global__ void mw_cas_kernel(const bb_id *__restrict__ men, const uint32_t *__restrict__ rank, int n,
                              uint32_t *partner, uint32_t *next, int *ctl) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  volatile int *stop = ctl + BB_CTL_STOP_FLAG;
  uint32_t m = (uint32_t)t, k = 0;
  for (uint32_t iter = 0;; iter++) {
    if ((iter & 15) == 0 && *stop) return; // only the time limit stops this baseline
    bb_id w = men[(size_t)m * n + k];
    uint32_t my_rank = rank[(size_t)w * n + m];
    uint32_t cur = __ldcg(partner + w);
    for (;;) {
      if (cur != FREE_WOMAN && rank[(size_t)w * n + cur] < my_rank) break; // rejected
      // Publish where m resumes before he can be displaced: the displacing thread reads it
      // after its own CAS, and the fences order the two.
      __stcg(next + m, k + 1);
      __threadfence();
      uint32_t seen = atomicCAS(partner + w, cur, m);
      if (seen == cur) break;
      cur = seen; // somebody else got there first: judge against the new partner
    }
    if (cur != FREE_WOMAN && rank[(size_t)w * n + cur] < my_rank) {
      k++;
      continue;
    }
    if (cur == FREE_WOMAN) {
      atomicSub(ctl + BB_CTL_FREE_MEN, 1);
      return;
    }
    __threadfence();
    m = cur; // carry the displaced man
    k = __ldcg(next + m);
  }
}

bb_status bb_gpu_mw_cas(bb_gpu *g, const bb_solve_opts *opts, bb_id *wife_of,
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
  if ((st = bb_gpu_build_rank(g, err)) != BB_OK) goto done;
  TRY(cudaStreamSynchronize(g->stream));
  stats->t_init += bb_now() - t;

  t = bb_now();
  TRY(cudaMalloc(&d_partner, (size_t)n * sizeof(uint32_t)));
  TRY(cudaMalloc(&d_next, (size_t)n * sizeof(uint32_t)));
  if ((st = bb_gpu_fill_u32(g, d_partner, (size_t)n, FREE_WOMAN, err)) != BB_OK) goto done;
  if ((st = bb_gpu_ctl_reset(g, n, err)) != BB_OK) goto done;
  mw_cas_kernel<<<(n + 255) / 256, 256, 0, g->stream>>>(g->d_men, g->d_rank, n, d_partner, d_next,
                                                         g->d_ctl);
  TRY(cudaPeekAtLastError());
  if ((st = bb_gpu_monitor(g, 0, opts, "gpu-mw-cas", err)) != BB_OK) goto done;
  stats->t_solve += bb_now() - t;

  t = bb_now();
  h_partner = (uint32_t *)malloc((size_t)n * sizeof(uint32_t));
  if (!h_partner) {
    st = bb_fail(err, BB_ERR_NOMEM, "gpu-mw-cas: out of host memory");
    goto done;
  }
  TRY(cudaMemcpy(h_partner, d_partner, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
  for (int w = 0; w < n; w++) {
    if (h_partner[w] >= (uint32_t)n) {
      st = bb_fail(err, BB_ERR_GPU, "gpu-mw-cas: woman %d left unmatched (kernel bug)", w);
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
  bb_gpu_free_rank(g);
  return st;
}
