// gpu-mw-cas: McVitie-Wilson on the GPU, one thread per man, the woman's partner (a man id)
// replaced with atomicCAS (the [Bamboo-SMP] baseline MW-Par-GPU-CAS). Under contention a CAS
// fails and is retried, which is the cost atomicMin removes.
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

static void propose(bb_gpu *g, uint32_t *partner, uint32_t *next) {
  mw_cas_kernel<<<(g->n + 255) / 256, 256, 0, g->stream>>>(g->d_men, g->d_rank, g->n, partner, next, g->d_ctl);
}

bb_status bb_gpu_mw_cas(bb_gpu *g, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err) {
  double t = bb_now();
  bb_status st = bb_gpu_build_rank(g, err);
  if (st == BB_OK) {
    cudaError_t e = cudaStreamSynchronize(g->stream);
    if (e != cudaSuccess) st = bb_gpu_fail(err, e, "rank matrix", __FILE__, __LINE__);
  }
  stats->t_init += bb_now() - t;
  if (st == BB_OK) st = bb_gpu_run_baseline(g, opts, "gpu-mw-cas", FREE_WOMAN, propose, NULL, wife_of, stats, err);
  bb_gpu_free_rank(g);
  return st;
}
