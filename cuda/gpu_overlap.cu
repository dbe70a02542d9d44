// bamboo's initialisation with the upload overlapped, for n <= 65,536: 16-bit ids
// travel in chunks of rows on a copy stream, and the compute stream turns each chunk that has
// landed into rank-matrix rows (women) or PRMatrix rows (men) while the next chunks cross the
// bus. The kernels read the 16-bit ids where they landed: no widening pass, no 32-bit copy of
// the lists on the device, and no host wait between the women's upload and the rank matrix.
//
//   source of a chunk                          host work per run
//   bb_gpu_lists (16-bit, pinned; bb_gpu_lists.h) none: cudaMemcpyAsync straight from it
//   the instance's 32-bit lists                 host threads narrow each chunk into one of two
//                                               pinned buffers while the other is on the bus
//
// Order: every women's chunk, then every men's chunk. Both kernels run on gpu->stream, so the
// first PRMatrix rows wait for the last rank rows by stream order alone, while the copy stream
// is already moving the men's chunks. A device slot is reused once the kernel that read it is
// done (an event the copy stream waits on; the host never blocks on it).
//
// Device memory: the rank matrix and the PRMatrix (both allocated before the first chunk) plus
// one staging region of exactly the bytes the memory plan gives the earlier staged path for its
// block of men's rows and its upload staging (sm_memory_plan.c), cut into chunk slots: the plan
// stays exact (test_gpu_scale holds the measured peak against it).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.cuh"
#include "bb_gpu_lists.h"
#include "parallel.h"

#define CHUNK_IDS ((size_t)32 << 20)      // 16-bit ids per chunk: 64 MiB (the plan's staging chunk)
#define PLAN_BLOCK_IDS ((size_t)64 << 20) // the earlier path's block of men's rows (gpu_staged.cu)
#define MAX_SLOTS 16
#define HOST_BUFFERS 2

// Each row holds n ids of `bits` bits each (the fewest that hold n - 1), packed from bit 0 of
// its first 16-bit unit on, id k at bits k * bits ..; a row is `stride` units, so rows start on
// unit boundaries and a chunk of rows is one contiguous copy. At n = 30,000 ids take 15 bits:
// the bus carries 6 % fewer bytes than 16-bit ids (12.5 % at n = 10,000, 14 bits), and the
// copies are what the upload's time is (docs/engine.md, "Upload").
struct bb_gpu_lists {
  int n, bits;
  size_t stride;                    // 16-bit units per row
  const bb_id *src_men, *src_women; // the lists this form was made from
  uint16_t *men, *women;            // pinned, n * stride units each
};

static int id_bits(int n) {
  int bits = 1;
  while (bits < 16 && ((uint32_t)(n - 1) >> bits)) bits++;
  return bits;
}

static size_t row_units(int n, int bits) { return ((size_t)n * (size_t)bits + 15) / 16; }

// --- Narrowing on the host ----------------------------------------------------------------
typedef struct narrow_job {
  const bb_id *src;
  uint16_t *dst;
} narrow_job;

static void narrow_range(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const narrow_job *job = (const narrow_job *)ctx;
  for (int64_t i = begin; i < end; i++) job->dst[i] = (uint16_t)job->src[i];
}

static void narrow(bb_pool *pool, const bb_id *src, uint16_t *dst, size_t count) {
  narrow_job job = {src, dst};
  bb_pool_for(pool, (int64_t)count, (int64_t)1 << 18, narrow_range, &job);
}

// --- Packing on the host (bb_gpu_lists_pack only) ------------------------------------------
typedef struct pack_job {
  const bb_id *src;
  uint16_t *dst;
  int n, bits;
  size_t stride;
} pack_job;

static void pack_rows(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const pack_job *job = (const pack_job *)ctx;
  for (int64_t r = begin; r < end; r++) {
    const bb_id *in = job->src + (size_t)r * job->n;
    uint16_t *out = job->dst + (size_t)r * job->stride;
    memset(out, 0, job->stride * sizeof *out);
    for (int k = 0; k < job->n; k++) {
      size_t bit = (size_t)k * job->bits;
      uint32_t v = (uint32_t)in[k] << (bit & 15);
      out[bit >> 4] |= (uint16_t)v;
      if ((bit & 15) + job->bits > 16) out[(bit >> 4) + 1] |= (uint16_t)(v >> 16);
    }
  }
}

static void pack(bb_pool *pool, const bb_id *src, uint16_t *dst, int n, int bits, size_t stride) {
  if (bits == 16) {
    narrow(pool, src, dst, (size_t)n * (size_t)n);
    return;
  }
  pack_job job = {src, dst, n, bits, stride};
  bb_pool_for(pool, n, 16, pack_rows, &job);
}

extern "C" bb_status bb_gpu_lists_pack(const bb_gpu_instance *inst, int threads, bb_gpu_lists **out, bb_error *err) {
  *out = NULL;
  if (!inst || !inst->men_prefs || !inst->women_prefs)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_lists_prepare: the instance has no lists");
  if (inst->n > 65536)
    return bb_fail(err, BB_ERR_ARG, "pinned lists of ids of at most 16 bits need n <= 65536 (n = %d)", inst->n);
  char why[160];
  if (!bb_gpu_probe(0, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  bb_gpu_lists *l = (bb_gpu_lists *)calloc(1, sizeof *l);
  bb_pool *pool = bb_pool_new(threads > 0 ? threads : bb_cpu_count());
  if (!l || !pool) {
    free(l);
    bb_pool_free(pool);
    return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_lists_prepare: out of host memory");
  }
  int bits = id_bits(inst->n);
  size_t stride = row_units(inst->n, bits), cells = (size_t)inst->n * stride;
  cudaError_t e = cudaHostAlloc(&l->men, cells * sizeof(uint16_t), cudaHostAllocDefault);
  if (e == cudaSuccess) e = cudaHostAlloc(&l->women, cells * sizeof(uint16_t), cudaHostAllocDefault);
  if (e != cudaSuccess) {
    bb_pool_free(pool);
    bb_gpu_lists_release(l);
    cudaGetLastError();
    return bb_fail(err, BB_ERR_NOMEM, "cannot pin %.2f GiB of host memory for the packed lists: %s",
                   2.0 * cells * sizeof(uint16_t) / 1073741824.0, cudaGetErrorString(e));
  }
  pack(pool, inst->men_prefs, l->men, inst->n, bits, stride);
  pack(pool, inst->women_prefs, l->women, inst->n, bits, stride);
  bb_pool_free(pool);
  l->n = inst->n;
  l->bits = bits;
  l->stride = stride;
  l->src_men = inst->men_prefs;
  l->src_women = inst->women_prefs;
  *out = l;
  return BB_OK;
}

extern "C" void bb_gpu_lists_release(bb_gpu_lists *l) {
  if (!l) return;
  if (l->men) cudaFreeHost(l->men);
  if (l->women) cudaFreeHost(l->women);
  cudaGetLastError();
  free(l);
}

int bb_gpu_lists_match(const bb_gpu_lists *l, const bb_gpu_instance *inst) {
  return l && inst && l->n == inst->n && l->src_men == inst->men_prefs && l->src_women == inst->women_prefs;
}

// --- Pinned buffers kept for the process -------------------------------------------------
// Pinning costs more than the narrowing saves (docs/engine.md), so the buffers of the 32-bit
// path outlive a build: the first build of a process pays for them, later ones reuse them,
// as they reuse the CUDA context. One set is kept (the largest asked for); a concurrent build
// allocates its own.
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static uint16_t *kept[HOST_BUFFERS];
static size_t kept_bytes;
static pthread_once_t kept_release_once = PTHREAD_ONCE_INIT;

// At exit the kept buffers go back, so that a leak check (compute-sanitizer --leak-check) sees
// none. Registered after the CUDA runtime's own exit handler (the runtime is started by then),
// so it runs first: atexit handlers run in reverse order.
static void kept_release(void) {
  pthread_mutex_lock(&kept_lock);
  for (int b = 0; b < HOST_BUFFERS; b++) {
    if (kept[b]) cudaFreeHost(kept[b]);
    kept[b] = NULL;
  }
  kept_bytes = 0;
  pthread_mutex_unlock(&kept_lock);
  cudaGetLastError();
}
static void kept_release_register(void) { atexit(kept_release); }

// *bytes: asked for; on return, the size of each buffer handed out.
static cudaError_t host_buffers_take(uint16_t **buf, size_t *bytes) {
  pthread_mutex_lock(&kept_lock);
  int reuse = kept[0] && kept_bytes >= *bytes;
  if (reuse) {
    for (int b = 0; b < HOST_BUFFERS; b++) buf[b] = kept[b], kept[b] = NULL;
    *bytes = kept_bytes;
  }
  pthread_mutex_unlock(&kept_lock);
  if (reuse) return cudaSuccess;
  for (int b = 0; b < HOST_BUFFERS; b++) {
    cudaError_t e = cudaHostAlloc(&buf[b], *bytes, cudaHostAllocPortable);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}

// Keeps `buf` (of `bytes` each) for the next build, or frees it.
static void host_buffers_give(uint16_t **buf, size_t bytes) {
  pthread_mutex_lock(&kept_lock);
  int keep = buf[0] && buf[HOST_BUFFERS - 1] && (!kept[0] || bytes > kept_bytes);
  uint16_t *drop[HOST_BUFFERS];
  for (int b = 0; b < HOST_BUFFERS; b++) {
    drop[b] = keep ? kept[b] : buf[b];
    if (keep) kept[b] = buf[b];
    buf[b] = NULL;
  }
  if (keep) kept_bytes = bytes;
  pthread_mutex_unlock(&kept_lock);
  if (keep) pthread_once(&kept_release_once, kept_release_register);
  for (int b = 0; b < HOST_BUFFERS; b++)
    if (drop[b]) cudaFreeHost(drop[b]);
}

// --- Kernels on 16-bit units ---------------------------------------------------------------
// Id k of a row of `bits`-bit ids (16: one unit per id; fewer: packed, struct bb_gpu_lists).
__device__ __forceinline__ uint32_t row_id(const uint16_t *__restrict__ row, int bits, int k) {
  if (bits == 16) return row[k];
  uint32_t bit = (uint32_t)k * (uint32_t)bits, unit = bit >> 4, shift = bit & 15;
  uint32_t v = row[unit];
  if (shift + bits > 16) v |= (uint32_t)row[unit + 1] << 16; // only then: never past the row
  return (v >> shift) & ((1u << bits) - 1);
}

// Rank rows first .. first + rows - 1 from those women's lists (`stride` units a row).
__global__ void rank16_kernel(const uint16_t *__restrict__ women, int n, int bits, size_t stride, int first, int rows,
                              uint32_t *__restrict__ rank) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    const uint16_t *list = women + (size_t)i * stride;
    uint32_t *out = rank + (size_t)(first + i) * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[row_id(list, bits, k)] = (uint32_t)k;
  }
}

// PRMatrix rows first .. first + rows - 1 (gpu_init.cu's prmatrix_kernel on 16-bit units).
template <typename Node>
__global__ void prmatrix16_kernel(const uint16_t *__restrict__ men, const uint32_t *__restrict__ rank, int n, int bits,
                                  size_t stride, int first, int rows, typename Node::plane pr) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    int m = first + i;
    const uint16_t *list = men + (size_t)i * stride;
    typename Node::plane out = pr.shift((size_t)m * n);
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      uint32_t w = row_id(list, bits, k);
      out.put(k, Node::make(w, rank[(size_t)w * n + m]));
    }
  }
}

// --- The pipeline -------------------------------------------------------------------------
typedef struct overlap {
  bb_gpu *g;
  const bb_gpu_lists *lists; // or NULL: narrow the instance's lists on the host
  int chunk_rows, slots;
  size_t chunk_ids;                // units a slot holds: chunk_rows * n
  int bits;                        // of an id in the source: 16 unless lists are packed
  size_t stride;                   // units per row in the source
  uint16_t *region;                // device: `slots` chunks
  cudaEvent_t landed[MAX_SLOTS];   // the copy into slot s is done
  cudaEvent_t consumed[MAX_SLOTS]; // the kernel that read slot s is done
  uint16_t *host[HOST_BUFFERS];    // pinned, 32-bit source only (kept for the process)
  size_t host_bytes;
  bb_pool *pool;
  cudaStream_t copy;
  cudaEvent_t copy_start, copy_end; // timing of the copies (transfer)
  long chunks;                      // chunks issued so far
  double narrow_s;                  // host time spent narrowing
} overlap;

static void overlap_release(overlap *o) {
  if (o->copy) cudaStreamSynchronize(o->copy);
  for (int s = 0; s < MAX_SLOTS; s++) {
    if (o->landed[s]) cudaEventDestroy(o->landed[s]);
    if (o->consumed[s]) cudaEventDestroy(o->consumed[s]);
  }
  host_buffers_give(o->host, o->host_bytes);
  if (o->copy_start) cudaEventDestroy(o->copy_start);
  if (o->copy_end) cudaEventDestroy(o->copy_end);
  if (o->copy) cudaStreamDestroy(o->copy);
  cudaFree(o->region);
  bb_pool_free(o->pool);
  cudaGetLastError();
}

static bb_status overlap_acquire(overlap *o, bb_gpu *g, const bb_gpu_lists *lists, bb_error *err) {
  size_t n = (size_t)g->n;
  memset(o, 0, sizeof *o);
  o->g = g;
  o->lists = lists;
  size_t plan_rows = PLAN_BLOCK_IDS / n < n ? PLAN_BLOCK_IDS / n : n;
  size_t region_bytes = plan_rows * n * sizeof(bb_id) + 2 * CHUNK_IDS * sizeof(uint16_t);
  size_t rows = CHUNK_IDS / n < n ? CHUNK_IDS / n : n;
  // BAMBOO_GPU_STAGE_ROWS=R: chunks of R rows, so tests cover many chunks at small n.
  const char *forced = getenv("BAMBOO_GPU_STAGE_ROWS");
  if (forced && atoi(forced) > 0) rows = (size_t)atoi(forced) < n ? (size_t)atoi(forced) : n;
  o->chunk_rows = (int)rows;
  o->chunk_ids = rows * n;
  o->bits = lists ? lists->bits : 16;
  o->stride = lists ? lists->stride : n;
  size_t slots = region_bytes / (o->chunk_ids * sizeof(uint16_t));
  o->slots = (int)(slots < 2 ? 2 : slots > MAX_SLOTS ? MAX_SLOTS : slots);
  if ((size_t)o->slots * o->chunk_ids * sizeof(uint16_t) > region_bytes)
    region_bytes = o->slots * o->chunk_ids * sizeof(uint16_t);
  BB_CUDA(cudaMalloc(&o->region, region_bytes));
  BB_CUDA(cudaStreamCreateWithFlags(&o->copy, cudaStreamNonBlocking));
  for (int s = 0; s < o->slots; s++) {
    BB_CUDA(cudaEventCreateWithFlags(&o->landed[s], cudaEventDisableTiming));
    BB_CUDA(cudaEventCreateWithFlags(&o->consumed[s], cudaEventDisableTiming));
  }
  BB_CUDA(cudaEventCreate(&o->copy_start));
  BB_CUDA(cudaEventCreate(&o->copy_end));
  if (!lists) {
    o->host_bytes = o->chunk_ids * sizeof(uint16_t);
    BB_CUDA(host_buffers_take(o->host, &o->host_bytes));
    o->pool = bb_pool_new(bb_cpu_count());
    if (!o->pool) return bb_fail(err, BB_ERR_NOMEM, "upload: out of host memory for the narrowing threads");
  }
  BB_CUDA(cudaEventRecord(o->copy_start, o->copy));
  return BB_OK;
}

static bb_status launch_chunk(overlap *o, int women, int first, int rows, const uint16_t *dev, bb_error *err) {
  bb_gpu *g = o->g;
  int blocks = bb_gpu_row_blocks(rows);
  if (women)
    rank16_kernel<<<blocks, 256, 0, g->stream>>>(dev, g->n, o->bits, o->stride, first, rows, g->d_rank);
  else // every node format (a 40-bit node is forced at small n by BAMBOO_GPU_NODE_BYTES=5)
    bb_gpu_with_node(g->pr_node_bytes, [&](auto node) {
      using Node = decltype(node);
      prmatrix16_kernel<Node><<<blocks, 256, 0, g->stream>>>(dev, g->d_rank, g->n, o->bits, o->stride, first, rows,
                                                             Node::at(g->d_pr, g->cells));
    });
  BB_CUDA_LAUNCHED(women ? "rank16_kernel" : "prmatrix16_kernel");
  return BB_OK;
}

// One chunk of rows: its copy on the copy stream once its slot is free, its kernel on
// gpu->stream once the copy has landed.
static bb_status chunk(overlap *o, int women, int first, int rows, bb_error *err) {
  bb_gpu *g = o->g;
  size_t n = (size_t)g->n, count = (size_t)rows * o->stride; // units on the bus
  long i = o->chunks++;
  int s = (int)(i % o->slots);
  uint16_t *dev = o->region + (size_t)s * o->chunk_ids;
  const uint16_t *src;
  if (o->lists) {
    src = (women ? o->lists->women : o->lists->men) + (size_t)first * o->stride;
  } else {
    int b = (int)(i % HOST_BUFFERS);
    // The copy that last read host buffer b (chunk i - HOST_BUFFERS, slot landed[...]) must be done.
    if (i >= HOST_BUFFERS) BB_CUDA(cudaEventSynchronize(o->landed[(i - HOST_BUFFERS) % o->slots]));
    double t = bb_now();
    const bb_id *lists = women ? g->inst->women_prefs : g->inst->men_prefs;
    narrow(o->pool, lists + (size_t)first * n, o->host[b], count);
    o->narrow_s += bb_now() - t;
    src = o->host[b];
  }
  if (i >= o->slots) BB_CUDA(cudaStreamWaitEvent(o->copy, o->consumed[s], 0));
  BB_CUDA(cudaMemcpyAsync(dev, src, count * sizeof(uint16_t), cudaMemcpyHostToDevice, o->copy));
  BB_CUDA(cudaEventRecord(o->landed[s], o->copy));
  BB_CUDA(cudaStreamWaitEvent(g->stream, o->landed[s], 0));
  bb_status st = launch_chunk(o, women, first, rows, dev, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaEventRecord(o->consumed[s], g->stream));
  return BB_OK;
}

static bb_status run_side(overlap *o, int women, bb_error *err) {
  bb_status st = BB_OK;
  for (int first = 0; first < o->g->n && st == BB_OK; first += o->chunk_rows) {
    int rows = o->g->n - first < o->chunk_rows ? o->g->n - first : o->chunk_rows;
    st = chunk(o, women, first, rows, err);
  }
  return st;
}

int bb_gpu_profiling(void) {
  const char *p = getenv("BAMBOO_GPU_PROFILE");
  return p && *p == '1';
}

bb_status bb_gpu_build_overlapped(bb_gpu *g, int node_bytes, const bb_gpu_lists *lists, bb_gpu_stats *stats,
                                  bb_error *err) {
  double t0 = bb_now();
  if (g->d_pr) {
    BB_CUDA(cudaFree(g->d_pr));
    g->d_pr = NULL;
  }
  if (!g->d_rank) BB_CUDA(cudaMalloc(&g->d_rank, g->cells * sizeof(uint32_t)));
  BB_CUDA(cudaMalloc(&g->d_pr, g->cells * (size_t)node_bytes));
  g->pr_node_bytes = node_bytes;
  overlap o;
  bb_status st = overlap_acquire(&o, g, lists, err);
  bb_gpu_sample_memory(g); // the peak: rank matrix, PRMatrix, staging region
  double t_setup = bb_now() - t0;
  if (st == BB_OK) st = run_side(&o, 1, err);
  if (st == BB_OK) st = run_side(&o, 0, err);
  cudaError_t e = cudaSuccess;
  if (st == BB_OK) e = cudaEventRecord(o.copy_end, o.copy);
  if (st == BB_OK && e == cudaSuccess) e = cudaStreamSynchronize(o.copy);
  if (st == BB_OK && e == cudaSuccess) e = cudaStreamSynchronize(g->stream);
  float copy_ms = 0;
  if (st == BB_OK && e == cudaSuccess) e = cudaEventElapsedTime(&copy_ms, o.copy_start, o.copy_end);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "overlapped upload", __FILE__, __LINE__);
  double wall = bb_now() - t0;
  if (st == BB_OK) {
    // The copies are the transfer; what the kernels add after the last copy, and the set-up,
    // is initialisation (bb_gpu_bamboo books wall - transfer as t_init).
    stats->t_transfer += copy_ms / 1e3;
    if (bb_gpu_profiling()) {
      double gb = 2.0 * (double)g->n * (double)o.stride * sizeof(uint16_t) / 1e9;
      fprintf(stderr,
              "overlap n=%d source=%s (%d-bit ids) chunks=%ld slots=%d rows/chunk=%d: setup %.2f ms, host narrowing "
              "%.2f ms, copies %.2f ms (%.1f GB/s), wall %.2f ms\n",
              g->n, lists ? "pinned" : "narrowed", o.bits, o.chunks, o.slots, o.chunk_rows, 1e3 * t_setup,
              1e3 * o.narrow_s, copy_ms, gb / (copy_ms / 1e3), 1e3 * wall);
    }
  }
  overlap_release(&o);
  return st;
}
