// bamboo over the partitions in bulk-synchronous rounds (BAMBOO_GPU_MULTI_SOLVE=rounds), so
// that no proposal is a remote atomic: every partition's device holds a replica of all n
// partner words and the free men of its own partition.
//  * A round: each partition runs the proposal kernel (bamboo_propose.cuh) for its free men
//    against its own replica and its own PRMatrix rows only (LocalRows). A thread carries on a
//    man of its partition whom it displaces; a man of another partition it just drops, since
//    his owner learns it at the merge.
//  * The merge: every partition takes, woman by woman, the least word of all the replicas
//    (reading the others over peer access) into its next replica, and lists as free again
//    each of its men whose word its replica held and the merge did not keep, resuming after
//    that woman: he was displaced on another device, or lost her to a better proposal there.
//  * Until at most `switch_at` (or the tail threshold) men are free; then the merged words
//    and those men go to the shared words (gpu_multi.cu) and end as the shared path ends:
//    stop, parked men, CPU tail and hand-over.
// Why this ends in the man-optimal stable matching, the single-GPU result: a woman's word
// only decreases (local atomicMin, then a minimum over replicas that all start from the same
// merged words); a man only moves past a woman who holds, or held in some replica, a man she
// prefers, so she never accepts him later. A man appears in at most one merged word: a
// replica names him only where his own partition put him (the others hold at most his
// older, merged position, which his partition's replica has since lowered past), and the
// merge keeps him only where his partition's word is the minimum. So every state after a
// merge is one McVitie-Wilson's sequential order can reach (the rounds' proposals in some
// order, the dropped men's later rejections among them), and every such order ends in the
// man-optimal stable matching ([Gale-Shapley], [McVitie-Wilson]).
#include <stdint.h>
#include <stdlib.h>

#include "bamboo_propose.cuh"
#include "gpu_multi.cuh"

enum { ROUNDS_NEXT = 3 }; // control word beside the kernel's: free men listed by the merge

struct multi_rounds {
  unsigned long long *words[BB_GPU_MAX_PARTS][2]; // each partition's replica: this round's, the merge's
  uint2 *free[BB_GPU_MAX_PARTS][2];               // its free men (man, position): this round's, the next
  uint2 *parked[BB_GPU_MAX_PARTS];                // men parked by a stop (the time limit)
  int *d_ctl[BB_GPU_MAX_PARTS], *h_ctl[BB_GPU_MAX_PARTS];
  cudaEvent_t proposed[BB_GPU_MAX_PARTS]; // the partition's proposals of this round are done
};

// A partition's own PRMatrix rows: never another device's.
template <typename Node>
struct LocalRows {
  typedef typename Node::plane cursor;
  typename Node::plane pr;
  uint32_t first, count;
  int n;
  __device__ __forceinline__ cursor at(uint32_t m) const { return pr.shift((size_t)(m - first) * (size_t)n); }
  __device__ __forceinline__ typename Node::raw ld(cursor row, uint32_t k) const { return row.ld(k); }
  __device__ __forceinline__ bool keep(uint32_t m) const { return m - first < count; }
};

struct Replicas { // passed by value: this round's replica of every partition
  const unsigned long long *words[BB_GPU_MAX_PARTS];
  int parts;
};

__global__ void rounds_start_kernel(uint2 *list, uint32_t first, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) list[i] = make_uint2(first + (uint32_t)i, 0);
}

__global__ void rounds_merge_kernel(Replicas r, int self, int n, uint32_t first, uint32_t count,
                                    unsigned long long *merged, uint2 *freed, int *ctl) {
  for (int w = blockIdx.x * blockDim.x + threadIdx.x; w < n; w += gridDim.x * blockDim.x) {
    unsigned long long mine = r.words[self][w], least = mine;
    for (int q = 0; q < r.parts; q++) {
      unsigned long long other = r.words[q][w];
      if (other < least) least = other;
    }
    merged[w] = least;
    if (mine != least && mine != BB_WORD_FREE && bb_word_man(mine) - first < count)
      freed[atomicAdd(ctl + ROUNDS_NEXT, 1)] = make_uint2(bb_word_man(mine), bb_word_pos(mine) + 1);
  }
}

static bb_status rounds_alloc(bb_gpu_multi *mg, multi_rounds *r, bb_error *err) {
  size_t n = (size_t)mg->n;
  for (int p = 0; p < mg->parts; p++) {
    size_t rows = (size_t)part_rows_of(mg, p);
    BB_CUDA(cudaSetDevice(mg->part[p]->device));
    for (int i = 0; i < 2; i++) {
      BB_CUDA(cudaMalloc(&r->words[p][i], n * sizeof(unsigned long long)));
      BB_CUDA(cudaMalloc(&r->free[p][i], rows * sizeof(uint2)));
    }
    BB_CUDA(cudaMalloc(&r->parked[p], rows * sizeof(uint2)));
    BB_CUDA(cudaMalloc(&r->d_ctl[p], 4 * sizeof(int)));
    BB_CUDA(cudaHostAlloc(&r->h_ctl[p], 4 * sizeof(int), cudaHostAllocPortable));
    BB_CUDA(cudaEventCreateWithFlags(&r->proposed[p], cudaEventDisableTiming));
  }
  return BB_OK;
}

void bb_gpu_multi_rounds_free(bb_gpu_multi *mg) {
  multi_rounds *r = mg->replicas;
  if (!r) return;
  for (int p = 0; p < mg->parts; p++) {
    if (!mg->part[p]) continue;
    cudaSetDevice(mg->part[p]->device);
    for (int i = 0; i < 2; i++) {
      cudaFree(r->words[p][i]);
      cudaFree(r->free[p][i]);
    }
    cudaFree(r->parked[p]);
    cudaFree(r->d_ctl[p]);
    cudaFreeHost(r->h_ctl[p]);
    if (r->proposed[p]) cudaEventDestroy(r->proposed[p]);
  }
  cudaGetLastError();
  free(r);
  mg->replicas = NULL;
}

// Round `cur`'s proposals on every partition, then its merges, each after all proposals.
static bb_status launch_round(bb_gpu_multi *mg, multi_rounds *r, int cur, const int *counts, bb_error *err) {
  propose_variant variant = propose_variant_of(getenv("BAMBOO_GPU_SCAN"));
  Replicas reps;
  reps.parts = mg->parts;
  for (int p = 0; p < mg->parts; p++) reps.words[p] = r->words[p][cur];
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    BB_CUDA(cudaSetDevice(g->device));
    BB_CUDA(cudaMemsetAsync(r->d_ctl[p], 0, 4 * sizeof(int), g->stream));
    uint32_t first = (uint32_t)mg->first[p], rows = (uint32_t)part_rows_of(mg, p);
    bb_gpu_with_node(mg->node_bytes, [&](auto node) {
      using Node = decltype(node);
      bb_gpu_launch_propose<Node>(LocalRows<Node>{Node::at(g->d_pr, g->cells), first, rows, mg->n}, (int)first,
                                  counts[p], r->free[p][cur], mg->n, r->words[p][cur], r->d_ctl[p], r->parked[p],
                                  g->stream, variant);
    });
    BB_CUDA_LAUNCHED("bamboo_propose_kernel (a round)");
    BB_CUDA(cudaEventRecord(r->proposed[p], g->stream));
  }
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    BB_CUDA(cudaSetDevice(g->device));
    for (int q = 0; q < mg->parts; q++)
      if (q != p) BB_CUDA(cudaStreamWaitEvent(g->stream, r->proposed[q], 0));
    rounds_merge_kernel<<<bb_gpu_row_blocks((mg->n + 255) / 256), 256, 0, g->stream>>>(
        reps, p, mg->n, (uint32_t)mg->first[p], (uint32_t)part_rows_of(mg, p), r->words[p][cur ^ 1],
        r->free[p][cur ^ 1], r->d_ctl[p]);
    BB_CUDA_LAUNCHED("rounds_merge_kernel");
    BB_CUDA(cudaMemcpyAsync(r->h_ctl[p], r->d_ctl[p], 4 * sizeof(int), cudaMemcpyDeviceToHost, g->stream));
  }
  return BB_OK;
}

// Waits for the round on every partition; past the time limit asks its kernels to stop.
static bb_status wait_round(bb_gpu_multi *mg, multi_rounds *r, const bb_gpu_opts *opts, double start, int *aborted,
                            bb_error *err) {
  static const int stop = BB_CTL_ABORT;
  for (;;) {
    int running = 0;
    for (int p = 0; p < mg->parts; p++) {
      BB_CUDA(cudaSetDevice(mg->part[p]->device));
      cudaError_t q = cudaStreamQuery(mg->part[p]->stream);
      if (q == cudaErrorNotReady)
        running = 1;
      else if (q != cudaSuccess)
        return bb_gpu_fail(err, q, "bamboo rounds", __FILE__, __LINE__);
    }
    if (!running) return BB_OK;
    if (opts->time_limit_s > 0 && !*aborted && bb_now() - start > opts->time_limit_s) {
      *aborted = 1;
      for (int p = 0; p < mg->parts; p++) {
        bb_gpu *g = mg->part[p];
        BB_CUDA(cudaSetDevice(g->device));
        BB_CUDA(
            cudaMemcpyAsync(r->d_ctl[p] + BB_CTL_STOP_FLAG, &stop, sizeof stop, cudaMemcpyHostToDevice, g->monitor));
        BB_CUDA(cudaStreamSynchronize(g->monitor));
      }
    }
  }
}

bb_status bb_gpu_multi_rounds(bb_gpu_multi *mg, const bb_gpu_opts *opts, int switch_at, uint2 **starts, int *counts,
                              bb_error *err) {
  multi_rounds *r = mg->replicas;
  if (!r) {
    r = mg->replicas = (multi_rounds *)calloc(1, sizeof *r);
    if (!r) return bb_fail(err, BB_ERR_NOMEM, "bamboo rounds: out of host memory");
    bb_status st = rounds_alloc(mg, r, err);
    if (st != BB_OK) return st;
  }
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    counts[p] = part_rows_of(mg, p);
    BB_CUDA(cudaSetDevice(g->device));
    bb_status st = bb_gpu_fill_u64(g, r->words[p][0], (size_t)mg->n, BB_WORD_FREE, err);
    if (st != BB_OK) return st;
    rounds_start_kernel<<<(counts[p] + 255) / 256, 256, 0, g->stream>>>(r->free[p][0], (uint32_t)mg->first[p],
                                                                        counts[p]);
    BB_CUDA_LAUNCHED("rounds_start_kernel");
  }
  bb_status st = bb_gpu_multi_sync(mg, "bamboo rounds set-up", err);
  if (st != BB_OK) return st;
  double start = bb_now();
  int cur = 0, aborted = 0;
  for (;;) {
    int total = 0;
    for (int p = 0; p < mg->parts; p++) total += counts[p];
    if (total <= switch_at || total <= opts->tail_threshold) break;
    if ((st = launch_round(mg, r, cur, counts, err)) != BB_OK) return st;
    if ((st = wait_round(mg, r, opts, start, &aborted, err)) != BB_OK) return st;
    if (aborted)
      return bb_fail(err, BB_ERR_TIMEOUT, "bamboo rounds stopped by the time limit of %.3g s", opts->time_limit_s);
    for (int p = 0; p < mg->parts; p++) {
      counts[p] = r->h_ctl[p][ROUNDS_NEXT];
      if (counts[p] < 0 || counts[p] > part_rows_of(mg, p) || r->h_ctl[p][BB_CTL_PARKED])
        return bb_fail(err, BB_ERR_GPU, "bamboo rounds: partition %d lists %d free men of %d, parked %d", p, counts[p],
                       part_rows_of(mg, p), r->h_ctl[p][BB_CTL_PARKED]);
    }
    cur ^= 1;
    mg->rounds++;
  }
  for (int p = 0; p < mg->parts; p++) starts[p] = r->free[p][cur];
  bb_gpu *g0 = mg->part[0];
  BB_CUDA(cudaSetDevice(g0->device));
  BB_CUDA(cudaMemcpyAsync(mg->d_words, r->words[0][cur], (size_t)mg->n * sizeof *mg->d_words, cudaMemcpyDeviceToDevice,
                          g0->stream));
  BB_CUDA(cudaStreamSynchronize(g0->stream));
  return BB_OK;
}
