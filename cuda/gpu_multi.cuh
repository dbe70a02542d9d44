// Internal to cuda/: the partitions' context (gpu_multi.cu) shared with the rounds over
// replicated partner words (gpu_multi_rounds.cu).
#ifndef BB_GPU_MULTI_CUH
#define BB_GPU_MULTI_CUH
#include "bb_gpu_multi.h"
#include "gpu_internal.cuh"

struct PartView { // passed by value to every kernel
  int n, parts;
  void *pr[BB_GPU_MAX_PARTS]; // each partition's PRMatrix (rows x n nodes; gpu_prnode.cuh)
  size_t pr_cells[BB_GPU_MAX_PARTS];
  const uint32_t *rank[BB_GPU_MAX_PARTS];
  const bb_id *women[BB_GPU_MAX_PARTS];
};

__host__ __device__ __forceinline__ int part_first(int n, int parts, int p) {
  int base = n / parts, extra = n % parts;
  return p * base + (p < extra ? p : extra);
}
__host__ __device__ __forceinline__ int part_owner(int n, int parts, int id) {
  int base = n / parts, extra = n % parts, big = extra * (base + 1);
  return id < big ? id / (base + 1) : extra + (id - big) / base;
}
// Offset of participant `id`'s row inside the matrices of its partition q.
__host__ __device__ __forceinline__ size_t part_row(int n, int parts, int q, int id) {
  return (size_t)(id - part_first(n, parts, q)) * (size_t)n;
}

struct bb_gpu_multi {
  int n, parts, node_bytes;
  bb_gpu *part[BB_GPU_MAX_PARTS];
  int first[BB_GPU_MAX_PARTS + 1];
  PartView view;
  unsigned long long *d_words; // bamboo, on part[0]: each woman's packed partner word
  uint2 *d_parked;             // bamboo, on part[0]: men parked by a stop
  void *h_row_raw;             // CPU tail: one PRMatrix row as stored, then decoded
  bb_prnode *h_row;
  int rounds;                    // bamboo's last solve: rounds over replicas run (0: shared words)
  struct multi_rounds *replicas; // the rounds' state on every partition's device, or NULL
};

template <typename Node>
__device__ __forceinline__ typename Node::plane pr_row(const PartView &v, uint32_t m) {
  int q = part_owner(v.n, v.parts, (int)m);
  return Node::at(v.pr[q], v.pr_cells[q]).shift(part_row(v.n, v.parts, q, (int)m));
}

// bamboo's proposal kernel (bamboo_propose.cuh) finds a man's row in his partition.
template <typename Node>
struct PartRows {
  typedef typename Node::plane cursor;
  PartView v;
  __device__ __forceinline__ cursor at(uint32_t m) const { return pr_row<Node>(v, m); }
  __device__ __forceinline__ typename Node::raw ld(cursor row, uint32_t k) const { return row.ld(k); }
  __device__ __forceinline__ bool keep(uint32_t) const { return true; }
};

static inline int part_rows_of(const bb_gpu_multi *mg, int p) { return mg->first[p + 1] - mg->first[p]; }

// Shared by both bamboo modes (gpu_multi.cu): waits on every partition's stream;
// bb_gpu_monitor over every partition's stream with the control words on part[0]; the
// hand-over of mg->d_words and the men parked in mg->d_parked; the launch of bamboo's
// proposals for `counts[p]` men of partition p from `starts[p]` (NULL: all his men at 0)
// against mg->d_words.
bb_status bb_gpu_multi_sync(bb_gpu_multi *mg, const char *what, bb_error *err);
bb_status bb_gpu_multi_monitor(bb_gpu_multi *mg, int stop_at, const bb_gpu_opts *opts, const char *what, bb_error *err);
bb_status bb_gpu_multi_handover(bb_gpu_multi *mg, bb_gpu_la *st, bb_id *free_men, int *free_count, bb_error *err);
bb_status bb_gpu_multi_launch_shared(bb_gpu_multi *mg, uint2 *const *starts, const int *counts, bb_error *err);

// The rounds (gpu_multi_rounds.cu): runs them from everybody free until at most `switch_at`
// men (or opts->tail_threshold) are free, then leaves the merged words in mg->d_words and
// each partition's free men in starts[p] (on its device, counts[p] of them) for the shared
// proposals to finish. mg->d_words and d_parked exist.
bb_status bb_gpu_multi_rounds(bb_gpu_multi *mg, const bb_gpu_opts *opts, int switch_at, uint2 **starts, int *counts,
                              bb_error *err);
void bb_gpu_multi_rounds_free(bb_gpu_multi *mg);

#endif
