// The Stable Marriage propagation's GPU engine (smc_accel.h): the steps of smc_accel_steps.h as
// kernels, one thread per proposer or variable, plus the transfers around them.
//
// Per constraint and GPU list entry (bb_smc_set_gpus; shared by that entry's search threads, on
// its device): the pair matrix, one row of bb_smc_accel_width 32-bit entries per variable
// (partner << 16 | partner's rank, or BB_SMC_ACCEL_NOBODY), i.e. [Bamboo-SMP]'s PRMatrix for both
// sexes, uploaded once.
// Per lane (one per search thread): a stream, the copy of every domain (bounds, sizes,
// bitmap rows for domains with holes), the proposal state (ptr, word), and pinned host
// buffers for the request, the results and the tail. A propagation is
//   upload records -> apply, init -> propose all -> check -> (propose unsettled -> check)*
//   -> [CPU tail] -> settle count + emit -> results back -> commit
// with one host synchronisation per check round and two for the results.
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.cuh"
#include "smc_accel.h"

namespace {

const int kThreads = 256;

inline int blocks_for(long long count) { return (int)((count + kThreads - 1) / kThreads); }

// Device counters of one lane.
enum { CTL_ACTIVE, CTL_FAILED, CTL_NEXT, CTL_CHANGED, CTL_TOTAL, CTL_INNER, CTL_INTS };

struct smc_shared {
  int vars, width;
  int device; // the GPU holding this copy: every call on it and its lanes runs there
  uint32_t *d_pair;
};

// The calling thread's current device becomes `device` (a search thread may use a copy on
// another device than the thread that made it, and CUDA's current device is per thread).
cudaError_t use_device(int device) {
  int now = -1;
  if (cudaGetDevice(&now) == cudaSuccess && now == device) return cudaSuccess;
  return cudaSetDevice(device);
}

struct smc_lane {
  int n, width, words, vars, epoch; // n: the men
  int want_inner;                   // the request's (settle reports inner holes)
  const smc_shared *sh;
  cudaStream_t stream;
  void *d_block, *h_block; // every fixed-size array below lives in one of these
  // The copy of the domains.
  int32_t *d_lo0, *d_hi0, *d_size0;
  uint8_t *d_holes;
  uint32_t *d_bits, *d_new_bits;
  // One propagation's state.
  int *d_ptr, *d_listed, *d_ctl, *d_unsettled;
  unsigned *d_word;
  bb_smc_accel_settled_var *d_res;
  int32_t *d_out_rec, *d_out_values;
  size_t values_cap;
  // Requests come in through h_up (records, row index per record, rows).
  void *d_up, *h_up;
  size_t up_cap;
  int *h_ctl;
  int32_t *h_out_rec, *h_out_values;
  // The tail's host copies.
  int *h_ptr, *h_unsettled;
  unsigned *h_word;
  int32_t *h_lo0, *h_hi0;
  bb_smc_accel_view view; // device pointers
};

// --- Kernels ------------------------------------------------------------------------------

__global__ void apply_kernel(bb_smc_accel_view s, const int32_t *rec, const int32_t *row_of, const uint32_t *rows,
                             int count, int *listed, int epoch) {
  for (int i = blockIdx.x; i < count; i += gridDim.x) {
    const int32_t *r = rec + (size_t)i * BB_SMC_ACCEL_REC_INTS;
    int v = r[BB_SMC_ACCEL_REC_VAR];
    if (threadIdx.x == 0) {
      int32_t *lo0 = (int32_t *)s.lo0, *hi0 = (int32_t *)s.hi0, *size0 = (int32_t *)s.size0;
      lo0[v] = r[BB_SMC_ACCEL_REC_LO];
      hi0[v] = r[BB_SMC_ACCEL_REC_HI];
      size0[v] = r[BB_SMC_ACCEL_REC_SIZE];
      ((uint8_t *)s.holes)[v] = row_of[i] >= 0;
      s.ptr[v] = r[BB_SMC_ACCEL_REC_START];
      listed[v] = epoch;
    }
    if (row_of[i] >= 0) { // the row's words within the bounds, packed at row_of[i]
      int lo = r[BB_SMC_ACCEL_REC_LO], span = bb_smc_accel_row_span(lo, r[BB_SMC_ACCEL_REC_HI]);
      const uint32_t *src = rows + row_of[i];
      uint32_t *dst = (uint32_t *)s.bits + (size_t)v * s.words + (lo >> 5);
      for (int w = threadIdx.x; w < span; w += blockDim.x) dst[w] = src[w];
    }
  }
}

__global__ void init_kernel(bb_smc_accel_view s, const int *listed, int epoch, int vars) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= vars) return;
  if (listed[v] != epoch) s.ptr[v] = s.lo0[v];
  s.word[v] = 2u * (unsigned)s.hi0[v] + BB_SMC_ACCEL_NO_HOLDER;
}

__global__ void propose_all_kernel(bb_smc_accel_view s, int proposers) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < proposers) bb_smc_accel_chain(&s, v, s.ptr[v]);
}

__global__ void propose_list_kernel(bb_smc_accel_view s, const int *list, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) bb_smc_accel_chain(&s, list[i], s.ptr[list[i]]);
}

__global__ void check_kernel(bb_smc_accel_view s, int proposers, int *next, int *unsettled) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < proposers && !bb_smc_accel_settled(&s, v)) unsettled[atomicAdd(next, 1)] = v;
}

// Settle, one warp per variable: the lanes test 32 ranks at once (aligned to bitmap words),
// so a long domain costs its length / 32 dependent steps instead of its length. The
// predicate is bb_smc_accel_final_allowed, as in the scalar bb_smc_accel_settle_count/emit the CPU
// emulation runs; the results are the same values in the same order.
const unsigned kFull = 0xffffffffu;

__device__ __forceinline__ unsigned chunk_mask(int base, int lo, int hi) {
  unsigned m = kFull;
  if (base < lo) m &= kFull << (lo - base);
  if (hi - base < 31) m &= kFull >> (31 - (hi - base));
  return m;
}

// want_inner: also raise ctl[CTL_INNER] when a rank within v's bounds is an inner hole
// (bb_smc_accel_inner_hole; asked on every run of a lineage without one yet, for the host's batches).
__global__ void settle_count_kernel(bb_smc_accel_view s, int vars, bb_smc_accel_settled_var *res, int *ctl,
                                    int32_t *out_rec, int want_inner) {
  int v = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
  if (v >= vars) return;
  int lo = bb_smc_accel_lo(&s, v), hi = bb_smc_accel_ub(&s, v);
  bb_smc_accel_settled_var r = {0, -1, 0, -1, 0};
  for (int base = lo & ~31; base <= hi; base += 32) {
    int k = base + lane;
    unsigned range = chunk_mask(base, lo, hi);
    unsigned keep = __ballot_sync(kFull, ((range >> lane) & 1u) && bb_smc_accel_final_allowed(&s, v, k));
    if (want_inner && __ballot_sync(kFull, ((range >> lane) & 1u) && bb_smc_accel_inner_hole(&s, v, k)) && lane == 0)
      ctl[CTL_INNER] = 1;
    if (keep) {
      if (r.size == 0) r.lo = base + __ffs(keep) - 1;
      r.hi = base + 31 - __clz(keep);
      r.size += __popc(keep);
    }
  }
  if (r.size == 0) {
    if (lane == 0) {
      res[v] = r;
      ctl[CTL_FAILED] = 1;
    }
    return;
  }
  if (r.size != s.size0[v] && r.size != r.hi - r.lo + 1) {
    int inside = 0; // old values within the new bounds
    for (int base = r.lo & ~31; base <= r.hi; base += 32) {
      int k = base + lane;
      unsigned range = chunk_mask(base, r.lo, r.hi);
      inside += __popc(__ballot_sync(kFull, ((range >> lane) & 1u) && BB_SMC_ACCEL_MEMBER(&s, v, k)));
    }
    int removed = inside - r.size;
    r.kind = r.size <= removed ? BB_SMC_ACCEL_KEEP : BB_SMC_ACCEL_REMOVE;
    r.count = r.size <= removed ? r.size : removed;
  } else if (r.size != s.size0[v]) {
    r.kind = BB_SMC_ACCEL_INTERVAL;
  }
  if (lane != 0) return;
  res[v] = r;
  if (r.kind < 0) return;
  int at = atomicAdd(ctl + CTL_CHANGED, 1), offset = atomicAdd(ctl + CTL_TOTAL, r.count);
  int32_t *o = out_rec + (size_t)at * BB_SMC_ACCEL_OUT_INTS;
  o[BB_SMC_ACCEL_OUT_VAR] = v;
  o[BB_SMC_ACCEL_OUT_LO] = r.lo;
  o[BB_SMC_ACCEL_OUT_HI] = r.hi;
  o[BB_SMC_ACCEL_OUT_KIND] = r.kind;
  o[BB_SMC_ACCEL_OUT_COUNT] = r.count;
  o[BB_SMC_ACCEL_OUT_OFFSET] = offset;
}

// Emits only when everything fits (the host grows the buffer and runs settle again if not).
__global__ void settle_emit_kernel(bb_smc_accel_view s, const bb_smc_accel_settled_var *res, const int *ctl,
                                   const int32_t *out_rec, int32_t *values, long long values_cap, uint32_t *new_bits) {
  int i = (int)((blockIdx.x * (size_t)blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
  if (i >= ctl[CTL_CHANGED] || (long long)ctl[CTL_TOTAL] > values_cap) return;
  const int32_t *o = out_rec + (size_t)i * BB_SMC_ACCEL_OUT_INTS;
  int v = o[BB_SMC_ACCEL_OUT_VAR];
  bb_smc_accel_settled_var r = res[v];
  if (r.kind == BB_SMC_ACCEL_INTERVAL) return;
  int32_t *out = values + o[BB_SMC_ACCEL_OUT_OFFSET];
  uint32_t *row = new_bits + (size_t)v * s.words;
  unsigned below = (1u << lane) - 1u;
  int at = 0;
  for (int base = r.lo & ~31; base <= r.hi; base += 32) {
    int k = base + lane;
    bool in_range = (chunk_mask(base, r.lo, r.hi) >> lane) & 1u;
    bool keep = in_range && bb_smc_accel_final_allowed(&s, v, k);
    bool listed = r.kind == BB_SMC_ACCEL_KEEP ? keep : in_range && !keep && BB_SMC_ACCEL_MEMBER(&s, v, k);
    unsigned kept = __ballot_sync(kFull, keep), out_mask = __ballot_sync(kFull, listed);
    if (listed) out[at + __popc(out_mask & below)] = k;
    at += __popc(out_mask);
    if (lane == 0) row[base >> 5] = kept;
  }
}

__global__ void commit_kernel(bb_smc_accel_view s, const bb_smc_accel_settled_var *res, const int *ctl,
                              const int32_t *out_rec, const uint32_t *new_bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= ctl[CTL_CHANGED]) return;
  int v = out_rec[(size_t)i * BB_SMC_ACCEL_OUT_INTS + BB_SMC_ACCEL_OUT_VAR];
  bb_smc_accel_settled_var r = res[v];
  ((int32_t *)s.lo0)[v] = r.lo;
  ((int32_t *)s.hi0)[v] = r.hi;
  ((int32_t *)s.size0)[v] = r.size;
  ((uint8_t *)s.holes)[v] = r.kind != BB_SMC_ACCEL_INTERVAL;
  if (r.kind != BB_SMC_ACCEL_INTERVAL) {
    size_t row = (size_t)v * s.words;
    for (int w = r.lo >> 5; w <= r.hi >> 5; w++) ((uint32_t *)s.bits)[row + w] = new_bits[row + w];
  }
}

// --- Host side ----------------------------------------------------------------------------

void shared_free(void *p) {
  smc_shared *sh = (smc_shared *)p;
  if (!sh) return;
  use_device(sh->device);
  cudaFree(sh->d_pair);
  free(sh);
}

bb_status upload_pairs(smc_shared *sh, const bb_smc_accel_pairs *p, bb_error *err) {
  size_t row_bytes = (size_t)sh->width * sizeof(uint32_t);
  int chunk = (int)((64u << 20) / row_bytes);
  if (chunk < 1) chunk = 1;
  uint32_t *h = NULL;
  BB_CUDA(cudaMallocHost((void **)&h, (size_t)chunk * row_bytes));
  bb_status st = BB_OK;
  for (int row = 0; row < sh->vars && st == BB_OK; row += chunk) {
    int rows = sh->vars - row < chunk ? sh->vars - row : chunk;
    p->fill(p->ctx, row, row + rows, h);
    cudaError_t e =
        cudaMemcpy(sh->d_pair + (size_t)row * sh->width, h, (size_t)rows * row_bytes, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) st = bb_gpu_fail(err, e, "cudaMemcpy(pair matrix)", __FILE__, __LINE__);
  }
  cudaFreeHost(h);
  return st;
}

void *shared_new(const bb_smc_accel_pairs *p, int device, bb_error *err) {
  char why[256];
  if (!bb_gpu_probe(device, why, sizeof why)) {
    bb_fail(err, BB_ERR_NO_GPU, "%s", why);
    return NULL;
  }
  cudaError_t set = cudaSetDevice(device);
  if (set != cudaSuccess) {
    bb_gpu_fail(err, set, "cudaSetDevice", __FILE__, __LINE__);
    return NULL;
  }
  smc_shared *sh = (smc_shared *)calloc(1, sizeof *sh);
  if (!sh) {
    bb_fail(err, BB_ERR_NOMEM, "out of memory");
    return NULL;
  }
  sh->device = device;
  sh->vars = p->vars;
  sh->width = p->width;
  size_t bytes = (size_t)sh->vars * (size_t)sh->width * sizeof(uint32_t);
  cudaError_t e = cudaMalloc((void **)&sh->d_pair, bytes);
  if (e != cudaSuccess) {
    bb_gpu_fail(err, e, "cudaMalloc(pair matrix)", __FILE__, __LINE__);
    free(sh);
    return NULL;
  }
  if (upload_pairs(sh, p, err) != BB_OK) {
    shared_free(sh);
    return NULL;
  }
  return sh;
}

void lane_free(void *p) {
  smc_lane *l = (smc_lane *)p;
  if (!l) return;
  use_device(l->sh->device);
  if (l->stream) cudaStreamSynchronize(l->stream);
  cudaFree(l->d_block);
  cudaFree(l->d_out_values);
  cudaFree(l->d_up);
  cudaFreeHost(l->h_block);
  cudaFreeHost(l->h_out_values);
  cudaFreeHost(l->h_up);
  if (l->stream) cudaStreamDestroy(l->stream);
  cudaGetLastError();
  free(l);
}

// Hands out 256-byte aligned pieces of one allocation (first with base == NULL to size it).
struct carver {
  char *base;
  size_t used;
  template <typename T>
  void take(T **out, size_t count) {
    *out = base ? (T *)(base + used) : NULL;
    used += (count * sizeof(T) + 255) & ~(size_t)255;
  }
};

// Every array of a lane: one device allocation and one pinned host allocation (each cudaMalloc
// or cudaMallocHost costs up to milliseconds, and a lane is made while a search waits).
void carve(smc_lane *l, carver *d, carver *h) {
  size_t vars = (size_t)l->vars, row_words = vars * (size_t)l->words;
  d->take(&l->d_lo0, vars);
  d->take(&l->d_hi0, vars);
  d->take(&l->d_size0, vars);
  d->take(&l->d_holes, vars);
  d->take(&l->d_bits, row_words);
  d->take(&l->d_new_bits, row_words);
  d->take(&l->d_ptr, vars);
  d->take(&l->d_listed, vars);
  d->take(&l->d_ctl, (size_t)CTL_INTS);
  d->take(&l->d_unsettled, vars);
  d->take(&l->d_word, vars);
  d->take(&l->d_res, vars);
  d->take(&l->d_out_rec, vars * BB_SMC_ACCEL_OUT_INTS);
  h->take(&l->h_ctl, (size_t)CTL_INTS);
  h->take(&l->h_out_rec, vars * BB_SMC_ACCEL_OUT_INTS);
  h->take(&l->h_ptr, vars);
  h->take(&l->h_unsettled, vars);
  h->take(&l->h_word, vars);
  h->take(&l->h_lo0, vars);
  h->take(&l->h_hi0, vars);
}

// Grows a device buffer and its pinned twin to hold `bytes` (contents are not kept).
bb_status grow(void **d, void **h, size_t *cap, size_t bytes, bb_error *err) {
  if (bytes <= *cap) return BB_OK;
  size_t want = bytes + bytes / 2;
  cudaFree(*d);
  cudaFreeHost(*h);
  *d = *h = NULL;
  *cap = 0;
  BB_CUDA(cudaMalloc(d, want));
  BB_CUDA(cudaMallocHost(h, want));
  *cap = want;
  return BB_OK;
}

bb_status lane_alloc(smc_lane *l, bb_error *err) {
  BB_CUDA(cudaStreamCreateWithFlags(&l->stream, cudaStreamNonBlocking));
  carver d = {NULL, 0}, h = {NULL, 0};
  carve(l, &d, &h);
  BB_CUDA(cudaMalloc((void **)&l->d_block, d.used));
  BB_CUDA(cudaMallocHost((void **)&l->h_block, h.used));
  d = carver{(char *)l->d_block, 0};
  h = carver{(char *)l->h_block, 0};
  carve(l, &d, &h);
  BB_CUDA(cudaMemsetAsync(l->d_listed, 0, (size_t)l->vars * sizeof(int), l->stream));
  l->values_cap = (size_t)l->vars * 8;
  BB_CUDA(cudaMalloc((void **)&l->d_out_values, l->values_cap * sizeof(int32_t)));
  BB_CUDA(cudaMallocHost((void **)&l->h_out_values, l->values_cap * sizeof(int32_t)));
  // Room for a request of every variable (records and row indexes) plus some rows.
  size_t up = (size_t)l->vars * (BB_SMC_ACCEL_REC_INTS + 1) * sizeof(int32_t) + (1u << 20);
  return grow(&l->d_up, &l->h_up, &l->up_cap, up, err);
}

void *lane_new(void *shared, const bb_smc_accel_pairs *p, bb_error *err) {
  smc_lane *l = (smc_lane *)calloc(1, sizeof *l);
  if (!l) {
    bb_fail(err, BB_ERR_NOMEM, "out of memory");
    return NULL;
  }
  l->sh = (const smc_shared *)shared;
  cudaError_t set = use_device(l->sh->device);
  if (set != cudaSuccess) {
    bb_gpu_fail(err, set, "cudaSetDevice", __FILE__, __LINE__);
    free(l);
    return NULL;
  }
  l->n = p->men;
  l->width = p->width;
  l->words = (l->width + 31) / 32;
  l->vars = p->vars;
  if (lane_alloc(l, err) != BB_OK) {
    lane_free(l);
    return NULL;
  }
  return l;
}

bb_status sync(smc_lane *l, bb_error *err) {
  BB_CUDA(cudaStreamSynchronize(l->stream));
  return BB_OK;
}

bb_status gpu_propose(void *lane, const bb_smc_accel_request *req, bb_smc_accel_tail *tail, bb_error *err) {
  smc_lane *l = (smc_lane *)lane;
  l->want_inner = req->want_inner;
  BB_CUDA(use_device(l->sh->device));
  int n = l->n, vars = l->vars, proposers = req->gs_lists ? vars : n, words = l->words;
  *tail = bb_smc_accel_tail();
  // 1. The request, packed into pinned memory: records, row offset per record, rows.
  size_t rec_bytes = (size_t)req->count * BB_SMC_ACCEL_REC_INTS * sizeof(int32_t);
  size_t row_of_bytes = (size_t)req->count * sizeof(int32_t);
  size_t bytes = rec_bytes + row_of_bytes + req->row_words * sizeof(uint32_t);
  if (grow(&l->d_up, &l->h_up, &l->up_cap, bytes ? bytes : 16, err) != BB_OK) return BB_ERR_GPU;
  char *h = (char *)l->h_up;
  memcpy(h, req->rec, rec_bytes);
  int32_t *row_of = (int32_t *)(h + rec_bytes);
  int32_t at = 0;
  for (int i = 0; i < req->count; i++) {
    const int32_t *r = req->rec + (size_t)i * BB_SMC_ACCEL_REC_INTS;
    bool holes = r[BB_SMC_ACCEL_REC_SIZE] != r[BB_SMC_ACCEL_REC_HI] - r[BB_SMC_ACCEL_REC_LO] + 1;
    row_of[i] = holes ? at : -1;
    if (holes) at += bb_smc_accel_row_span(r[BB_SMC_ACCEL_REC_LO], r[BB_SMC_ACCEL_REC_HI]);
  }
  memcpy(h + rec_bytes + row_of_bytes, req->rows, req->row_words * sizeof(uint32_t));
  const char *d = (const char *)l->d_up;
  l->view = bb_smc_accel_view{n,
                              l->width,
                              req->gs_lists,
                              words,
                              req->threshold,
                              l->sh->d_pair,
                              l->d_lo0,
                              l->d_hi0,
                              l->d_size0,
                              l->d_holes,
                              l->d_bits,
                              l->d_ptr,
                              l->d_word,
                              l->d_ctl + CTL_ACTIVE,
                              l->d_ctl + CTL_FAILED,
                              NULL};
  l->epoch++;
  BB_CUDA(cudaMemcpyAsync(l->d_up, h, bytes, cudaMemcpyHostToDevice, l->stream));
  BB_CUDA(cudaMemsetAsync(l->d_ctl, 0, CTL_INTS * sizeof(int), l->stream));
  if (req->count > 0) {
    int grid = req->count < 65535 ? req->count : 65535;
    apply_kernel<<<grid, 128, 0, l->stream>>>(l->view, (const int32_t *)d, (const int32_t *)(d + rec_bytes),
                                              (const uint32_t *)(d + rec_bytes + row_of_bytes), req->count, l->d_listed,
                                              l->epoch);
    BB_CUDA_LAUNCHED("apply_kernel");
  }
  init_kernel<<<blocks_for(vars), kThreads, 0, l->stream>>>(l->view, l->d_listed, l->epoch, vars);
  BB_CUDA_LAUNCHED("init_kernel");
  // 2. Every proposer walks from its start rank, then rounds over the unsettled ones.
  int launched = proposers;
  BB_CUDA(cudaMemcpyAsync(l->d_ctl + CTL_ACTIVE, &launched, sizeof launched, cudaMemcpyHostToDevice, l->stream));
  propose_all_kernel<<<blocks_for(proposers), kThreads, 0, l->stream>>>(l->view, proposers);
  BB_CUDA_LAUNCHED("propose_all_kernel");
  tail->rounds = 1;
  for (;;) {
    BB_CUDA(cudaMemsetAsync(l->d_ctl + CTL_NEXT, 0, sizeof(int), l->stream));
    check_kernel<<<blocks_for(proposers), kThreads, 0, l->stream>>>(l->view, proposers, l->d_ctl + CTL_NEXT,
                                                                    l->d_unsettled);
    BB_CUDA_LAUNCHED("check_kernel");
    BB_CUDA(cudaMemcpyAsync(l->h_ctl, l->d_ctl, CTL_INTS * sizeof(int), cudaMemcpyDeviceToHost, l->stream));
    if (sync(l, err) != BB_OK) return BB_ERR_GPU;
    int count = l->h_ctl[CTL_NEXT];
    if (l->h_ctl[CTL_FAILED]) {
      tail->failed = 1;
      return BB_OK;
    }
    if (count == 0) return BB_OK;
    if (req->threshold > 0) { // the CPU finishes: bring the state over
      BB_CUDA(cudaMemcpyAsync(l->h_unsettled, l->d_unsettled, (size_t)count * sizeof(int), cudaMemcpyDeviceToHost,
                              l->stream));
      BB_CUDA(cudaMemcpyAsync(l->h_ptr, l->d_ptr, (size_t)vars * sizeof(int), cudaMemcpyDeviceToHost, l->stream));
      BB_CUDA(
          cudaMemcpyAsync(l->h_word, l->d_word, (size_t)vars * sizeof(unsigned), cudaMemcpyDeviceToHost, l->stream));
      BB_CUDA(cudaMemcpyAsync(l->h_lo0, l->d_lo0, (size_t)vars * sizeof(int32_t), cudaMemcpyDeviceToHost, l->stream));
      BB_CUDA(cudaMemcpyAsync(l->h_hi0, l->d_hi0, (size_t)vars * sizeof(int32_t), cudaMemcpyDeviceToHost, l->stream));
      if (sync(l, err) != BB_OK) return BB_ERR_GPU;
      tail->count = count;
      tail->unsettled = l->h_unsettled;
      tail->ptr = (bb_smc_accel_i32a *)l->h_ptr;
      tail->word = (bb_smc_accel_u32a *)l->h_word;
      tail->lo0 = l->h_lo0;
      tail->hi0 = l->h_hi0;
      return BB_OK;
    }
    BB_CUDA(
        cudaMemcpyAsync(l->d_ctl + CTL_ACTIVE, &l->h_ctl[CTL_NEXT], sizeof(int), cudaMemcpyHostToDevice, l->stream));
    propose_list_kernel<<<blocks_for(count), kThreads, 0, l->stream>>>(l->view, l->d_unsettled, count);
    BB_CUDA_LAUNCHED("propose_list_kernel");
    tail->rounds++;
  }
}

bb_status gpu_settle(void *lane, const bb_smc_accel_tail *tail, int tail_ran, bb_smc_accel_outcome *out,
                     bb_error *err) {
  smc_lane *l = (smc_lane *)lane;
  BB_CUDA(use_device(l->sh->device));
  int vars = l->vars;
  *out = bb_smc_accel_outcome();
  if (tail_ran) { // the CPU moved pointers and caps: the device takes them back
    BB_CUDA(cudaMemcpyAsync(l->d_ptr, tail->ptr, (size_t)vars * sizeof(int), cudaMemcpyHostToDevice, l->stream));
    BB_CUDA(cudaMemcpyAsync(l->d_word, tail->word, (size_t)vars * sizeof(unsigned), cudaMemcpyHostToDevice, l->stream));
  }
  for (int attempt = 0;; attempt++) {
    BB_CUDA(cudaMemsetAsync(l->d_ctl, 0, CTL_INTS * sizeof(int), l->stream));
    settle_count_kernel<<<blocks_for(32LL * vars), kThreads, 0, l->stream>>>(l->view, vars, l->d_res, l->d_ctl,
                                                                             l->d_out_rec, l->want_inner);
    BB_CUDA_LAUNCHED("settle_count_kernel");
    settle_emit_kernel<<<blocks_for(32LL * vars), kThreads, 0, l->stream>>>(
        l->view, l->d_res, l->d_ctl, l->d_out_rec, l->d_out_values, (long long)l->values_cap, l->d_new_bits);
    BB_CUDA_LAUNCHED("settle_emit_kernel");
    BB_CUDA(cudaMemcpyAsync(l->h_ctl, l->d_ctl, CTL_INTS * sizeof(int), cudaMemcpyDeviceToHost, l->stream));
    if (sync(l, err) != BB_OK) return BB_ERR_GPU;
    if (l->h_ctl[CTL_FAILED]) {
      out->failed = 1;
      return BB_OK;
    }
    out->inner_holes = l->h_ctl[CTL_INNER];
    size_t total = (size_t)(unsigned)l->h_ctl[CTL_TOTAL];
    if (total <= l->values_cap) break;
    if (attempt > 0) return bb_fail(err, BB_ERR_GPU, "stable_matching: results do not fit after growing");
    size_t cap = l->values_cap * sizeof(int32_t);
    if (grow((void **)&l->d_out_values, (void **)&l->h_out_values, &cap, total * sizeof(int32_t), err) != BB_OK)
      return BB_ERR_GPU;
    l->values_cap = cap / sizeof(int32_t);
  }
  int changed = l->h_ctl[CTL_CHANGED], total = l->h_ctl[CTL_TOTAL];
  BB_CUDA(cudaMemcpyAsync(l->h_out_rec, l->d_out_rec, (size_t)changed * BB_SMC_ACCEL_OUT_INTS * sizeof(int32_t),
                          cudaMemcpyDeviceToHost, l->stream));
  BB_CUDA(cudaMemcpyAsync(l->h_out_values, l->d_out_values, (size_t)total * sizeof(int32_t), cudaMemcpyDeviceToHost,
                          l->stream));
  commit_kernel<<<blocks_for(vars), kThreads, 0, l->stream>>>(l->view, l->d_res, l->d_ctl, l->d_out_rec, l->d_new_bits);
  BB_CUDA_LAUNCHED("commit_kernel");
  if (sync(l, err) != BB_OK) return BB_ERR_GPU;
  out->changed = changed;
  out->rec = l->h_out_rec;
  out->values = l->h_out_values;
  return BB_OK;
}

const bb_smc_accel_engine_ops gpu_ops = {"GPU", shared_new, shared_free, lane_new, lane_free, gpu_propose, gpu_settle};

} // namespace

extern "C" const bb_smc_accel_engine_ops *bb_smc_accel_gpu_ops(void) { return &gpu_ops; }
