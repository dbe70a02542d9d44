// bamboo's proposal kernel, shared by one GPU (gpu_bamboo.cu) and the partitions
// (gpu_multi.cu), which differ only in where a man's PRMatrix row lives.
#ifndef BB_BAMBOO_PROPOSE_CUH
#define BB_BAMBOO_PROPOSE_CUH
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.cuh"

// The proposal step. The default is "ua4": a storm step (the whole warp proposing to one
// woman) is aggregated into one atomicMin, any other step proposes with a look-ahead of 4.
// It is faster than [Bamboo-SMP]'s kernel ("1") on congested, random and uniform lists
// (docs/engine.md has the times). BAMBOO_GPU_SCAN picks another variant:
//
//  * Look-ahead, "a2", "a4", "a8" (Scan > 1): the atomicMin at entry k goes out with plain loads
//    of the next Scan - 1 entries' partner words beside it; after a rejection the thread skips
//    the women of the window who hold better men. A plain load may be stale (the L2 atomics do
//    not update this SM's view at once), but a woman's word only ever decreases, so a stale
//    word is never better than her current one: skipping on it is always right, and a stale
//    "worse" only costs an atomicMin that fails. A step still waits on one round trip.
//  * Storms, "u" (Storm): when every active lane of the warp proposes to one woman (a shuffle
//    and a vote tell), only the lane she ranks best (__reduce_min_sync on her ranks, distinct
//    lanes carry distinct men) sends the atomicMin; the others are rejected on the spot, since
//    after his atomicMin her partner is at least as good as he is. A storm step loads nothing
//    ahead: the extra loads slow congested's lockstep.
//  * "1": [Bamboo-SMP]'s kernel, one atomicMin per entry.
// Alone, each was slower somewhere (the look-ahead on congested lists, the storm step on
// random ones); together they are faster on all three workloads. Two more variants were
// slower and are not kept: a look-ahead that waits for its loads before proposing, and
// aggregation of any group of lanes on one woman with __match_any_sync (docs/engine.md).
//
// Men first .. first + count - 1 start at position 0, one thread each, or with `start` the
// count (man, position) pairs it lists. `rows.at(m)` finds man m's PRMatrix row once per man
// a thread carries, `rows.ld(row, k)` reads its entry k, and `rows.keep(m)` says whether the
// thread carries on a man it displaced (OneRows on one GPU; the partitions' lookups in
// gpu_multi.cuh: the rounds drop the men of other partitions, whose owners pick them up).
template <typename Node, typename Rows, int Scan, bool Storm>
__global__ void bamboo_propose_kernel(Rows rows, int first, int count, const uint2 *start, int n,
                                      unsigned long long *partner, int *ctl, uint2 *parked) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  volatile int *stop = ctl + BB_CTL_STOP_FLAG;
  uint32_t m = start ? start[t].x : (uint32_t)(first + t), k = start ? start[t].y : 0;
  typename Rows::cursor row = rows.at(m);
  for (uint32_t iter = 0;; iter++) {
    if ((iter & 7) == 0 && *stop) {
      parked[atomicAdd(ctl + BB_CTL_PARKED, 1)] = make_uint2(m, k);
      return;
    }
    typename Node::raw nodes[Scan]; // entries k .. k + Scan - 1 of his row
    unsigned long long held[Scan];  // their women's partner words (1 .. Scan - 1)
#pragma unroll
    for (int u = 0; u < Scan; u++) nodes[u] = u == 0 || k + u < (uint32_t)n ? rows.ld(row, k + u) : 0;
    uint32_t w = Node::woman(nodes[0]), r = Node::rank(nodes[0]);
    bool storm = false;
    unsigned active = 0;
    if (Storm) {
      active = __activemask();
      uint32_t w0 = __shfl_sync(active, w, __ffs(active) - 1);
      storm = __all_sync(active, w == w0) && (active & (active - 1));
    }
    if (Scan > 1 && !storm) {
#pragma unroll
      for (int u = 1; u < Scan; u++) held[u] = k + u < (uint32_t)n ? __ldcg(partner + Node::woman(nodes[u])) : 0;
    }
    unsigned long long mine = bb_word(r, m, k);
    bool propose = !storm || __reduce_min_sync(active, r) == r; // false: rejected on the spot
    unsigned long long old = propose ? atomicMin(partner + w, mine) : 0;
    if (old > mine) {
      if (old == BB_WORD_FREE) {
        atomicSub(ctl + BB_CTL_FREE_MEN, 1);
        return;
      }
      m = bb_word_man(old); // she dropped him: this thread carries him on
      if (!rows.keep(m)) {
        atomicSub(ctl + BB_CTL_FREE_MEN, 1);
        return;
      }
      k = bb_word_pos(old) + 1;
      row = rows.at(m);
    } else if (Scan > 1 && !storm) { // rejected at k: skip the window's women who hold better men
      uint32_t next = Scan;
#pragma unroll
      for (int u = Scan - 1; u >= 1; u--)
        if (k + u < (uint32_t)n && held[u] > bb_word(Node::rank(nodes[u]), m, k + u)) next = u;
      k += next;
    } else {
      k++;
    }
  }
}

// BAMBOO_GPU_SCAN: "1", "a2", "a4", "a8", "u", "ua2", "ua4" (the default, also for anything
// else).
typedef struct propose_variant {
  int scan;
  bool storm;
} propose_variant;

static inline propose_variant propose_variant_of(const char *v) {
  propose_variant d = {4, true}; // ua4 (table 6)
  if (!v || !*v) return d;
  propose_variant r = {1, *v == 'u'};
  if (*v == 'u') v++;
  if (*v == 'a')
    r.scan = atoi(v + 1);
  else if (*v && strcmp(v, "1"))
    return d;
  return r.scan == 1 || r.scan == 2 || r.scan == 4 || r.scan == 8 ? r : d;
}

// One GPU's rows: man m's row starts at node m * n of one plane.
template <typename Node>
struct OneRows {
  typedef size_t cursor;
  typename Node::plane pr;
  int n;
  __device__ __forceinline__ cursor at(uint32_t m) const { return (size_t)m * n; }
  __device__ __forceinline__ typename Node::raw ld(cursor row, uint32_t k) const { return pr.ld(row + k); }
  __device__ __forceinline__ bool keep(uint32_t) const { return true; }
};

// Launches the kernel for men first .. first + count - 1 (or those `start` lists) on
// `stream`, in variant v.
template <typename Node, typename Rows>
static void bb_gpu_launch_propose(Rows rows, int first, int count, const uint2 *start, int n, unsigned long long *words,
                                  int *ctl, uint2 *parked, cudaStream_t stream, propose_variant v) {
  if (count <= 0) return;
  int blocks = (count + 255) / 256;
#define BB_PROPOSE(SCAN, STORM)                  \
  bamboo_propose_kernel<Node, Rows, SCAN, STORM> \
      <<<blocks, 256, 0, stream>>>(rows, first, count, start, n, words, ctl, parked)
  if (v.storm) {
    if (v.scan == 2)
      BB_PROPOSE(2, true);
    else if (v.scan == 4)
      BB_PROPOSE(4, true);
    else if (v.scan == 8)
      BB_PROPOSE(8, true);
    else
      BB_PROPOSE(1, true);
  } else {
    if (v.scan == 2)
      BB_PROPOSE(2, false);
    else if (v.scan == 4)
      BB_PROPOSE(4, false);
    else if (v.scan == 8)
      BB_PROPOSE(8, false);
    else
      BB_PROPOSE(1, false);
  }
#undef BB_PROPOSE
}

#endif
