// gpu-la-min: the LA-Par-GPU-MIN kernel of [Bamboo-SMP] Listing 1: PRMatrix nodes of two 32-bit
// words (the 40-bit ones past n = 65,536, or any format forced: bb_gpu_prnode.h), atomicMin on the
// woman's partner rank, the displaced man looked up in her list.
// One correction to the listing: it writes Next[m] after the atomicMin that accepts m, so
// the thread that later displaces m may read a stale Next[m]. Here Next[m] is written
// before the atomicMin and fenced, and read after a fence by the displacing thread.
#include "gpu_internal.cuh"

template <typename Node>
__global__ void la_min_kernel(typename Node::plane pr, const bb_id *__restrict__ women, int n, uint32_t *partner_rank,
                              uint32_t *next, int *ctl) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  volatile int *stop = ctl + BB_CTL_STOP_FLAG;
  uint32_t m = (uint32_t)t, k = 0;
  for (uint32_t iter = 0;; iter++) {
    if ((iter & 15) == 0 && *stop) return; // only the time limit stops this baseline
    typename Node::raw node = pr.ld((size_t)m * n + k);
    uint32_t w = Node::woman(node), my_rank = Node::rank(node);
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

static void propose(bb_gpu *g, uint32_t *partner_rank, uint32_t *next) {
  bb_gpu_with_node(g->pr_node_bytes, [&](auto node) {
    using Node = decltype(node);
    la_min_kernel<Node><<<(g->n + 255) / 256, 256, 0, g->stream>>>(Node::at(g->d_pr, g->cells), g->d_women, g->n,
                                                                   partner_rank, next, g->d_ctl);
  });
}

// Postprocessing as in the paper: each woman's partner is her list's entry at the partner
// rank, resolved on the device so only n ids cross the bus.
static void partner_ids(bb_gpu *g, uint32_t *partner_rank, uint32_t *unused) {
  (void)unused;
  partner_ids_kernel<<<(g->n + 255) / 256, 256, 0, g->stream>>>(g->d_women, g->n, partner_rank);
}

bb_status bb_gpu_la_min(bb_gpu *g, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err) {
  double t = bb_now();
  bb_status st = bb_gpu_build_prmatrix(g, bb_prnode_bytes_la_min(g->n), err);
  if (st == BB_OK) {
    cudaError_t e = cudaStreamSynchronize(g->stream);
    if (e != cudaSuccess) st = bb_gpu_fail(err, e, "PRMatrix", __FILE__, __LINE__);
  }
  bb_gpu_free_rank(g);
  stats->t_init += bb_now() - t;
  if (st != BB_OK) return st;
  return bb_gpu_run_baseline(g, opts, "gpu-la-min", (uint32_t)g->n, propose, partner_ids, wife_of, stats, err);
}
