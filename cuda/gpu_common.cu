// The bb_gpu context: device probe, upload of the lists, control words, the monitor that
// watches running proposal kernels, and PRMatrix rows for the CPU tail.
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_internal.cuh"
#include "parallel.h"

bb_status bb_gpu_fail(bb_error *err, cudaError_t e, const char *call, const char *file, int line) {
  const char *base = strrchr(file, '/');
  bb_fail(err, BB_ERR_GPU, "CUDA error in %s (%s:%d): %s", call, base ? base + 1 : file, line, cudaGetErrorString(e));
  cudaGetLastError(); // clear a non-sticky error so later calls (and the CPU fallback) are clean
  return BB_ERR_GPU;
}

// The reason a user can act on. Without an NVIDIA driver the runtime answers
// cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA runtime
// version"), which reads as if a driver were there but old: cudaDriverGetVersion
// tells the two apart (0 when no driver is installed).
static void probe_reason(cudaError_t e, char *why, size_t why_len) {
  int driver = 0, runtime = 0;
  if (e == cudaErrorInsufficientDriver && cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0 &&
      cudaRuntimeGetVersion(&runtime) == cudaSuccess)
    snprintf(why, why_len,
             "the NVIDIA driver supports CUDA %d.%d, older than this build's CUDA %d.%d; update the driver",
             driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
  else if (e == cudaSuccess || e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver)
    snprintf(why, why_len, "no NVIDIA GPU or driver found");
  else
    snprintf(why, why_len, "no usable NVIDIA GPU (CUDA: %s)", cudaGetErrorString(e));
}

int bb_gpu_probe(int device, char *why, size_t why_len) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (why && why_len) probe_reason(e, why, why_len);
    cudaGetLastError();
    return 0;
  }
  if (device < 0 || device >= count) {
    if (why && why_len) snprintf(why, why_len, "no GPU number %d (this machine has %d)", device, count);
    return 0;
  }
  return 1;
}

int bb_gpu_name(int device, char *out, size_t len) {
  cudaDeviceProp prop;
  if (!bb_gpu_probe(device, NULL, 0) || cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    if (out && len) out[0] = 0;
    return 0;
  }
  snprintf(out, len, "%s", prop.name);
  return 1;
}

int bb_gpu_mem_info(int device, size_t *free_bytes, size_t *total_bytes) {
  *free_bytes = *total_bytes = 0;
  int previous = 0;
  if (!bb_gpu_probe(device, NULL, 0) || cudaGetDevice(&previous) != cudaSuccess) return 0;
  int ok = cudaSetDevice(device) == cudaSuccess && cudaMemGetInfo(free_bytes, total_bytes) == cudaSuccess;
  cudaSetDevice(previous);
  cudaGetLastError();
  if (!ok) *free_bytes = *total_bytes = 0;
  return ok;
}

int bb_gpu_row_blocks(int rows) {
  static int sms = 0;
  if (!sms) {
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
      sms = 108;
  }
  int blocks = sms * 8;
  return rows < blocks ? rows : blocks;
}

__global__ void fill_u32_kernel(uint32_t *p, size_t count, uint32_t value) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
    p[i] = value;
}
__global__ void fill_u64_kernel(unsigned long long *p, size_t count, unsigned long long value) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
    p[i] = value;
}

static int fill_blocks(size_t count) {
  size_t b = (count + 255) / 256;
  return b > 4096 ? 4096 : (b ? (int)b : 1);
}

bb_status bb_gpu_fill_u32(bb_gpu *g, uint32_t *p, size_t count, uint32_t value, bb_error *err) {
  fill_u32_kernel<<<fill_blocks(count), 256, 0, g->stream>>>(p, count, value);
  BB_CUDA_LAUNCHED("fill_u32_kernel");
  return BB_OK;
}

bb_status bb_gpu_fill_u64(bb_gpu *g, unsigned long long *p, size_t count, unsigned long long value, bb_error *err) {
  fill_u64_kernel<<<fill_blocks(count), 256, 0, g->stream>>>(p, count, value);
  BB_CUDA_LAUNCHED("fill_u64_kernel");
  return BB_OK;
}

// --- Upload of the lists -----------------------------------------------------------------
// A bb_gpu_instance lives in pageable host memory, from which cudaMemcpy runs well below the
// bus's speed. Instead, host threads copy each chunk into one of two pinned buffers,
// narrowing ids to 16 bits when n <= 65536, while the copy engine moves the other buffer;
// on the device a kernel widens the chunk into place. Half the bytes cross the bus, and
// host copying overlaps the transfer.
#define UPLOAD_CHUNK_IDS ((size_t)32 << 20)

typedef struct upload_pipe {
  int narrow;             // 1: 16-bit ids on the bus
  void *pinned[2];        // host staging, UPLOAD_CHUNK_IDS ids each
  uint16_t *staging[2];   // device staging for narrowed chunks
  cudaEvent_t drained[2]; // the transfer (and widening) that last used buffer b is done
  bb_pool *pool;
} upload_pipe;

typedef struct narrow_job {
  const bb_id *src;
  void *dst;
  int narrow;
} narrow_job;

static void narrow_range(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const narrow_job *job = (const narrow_job *)ctx;
  if (job->narrow) {
    uint16_t *dst = (uint16_t *)job->dst;
    for (int64_t i = begin; i < end; i++) dst[i] = (uint16_t)job->src[i];
  } else {
    memcpy((bb_id *)job->dst + begin, job->src + begin, (size_t)(end - begin) * sizeof(bb_id));
  }
}

__global__ void widen_kernel(const uint16_t *__restrict__ in, size_t count, bb_id *__restrict__ out) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x)
    out[i] = in[i];
}

static void pipe_release(upload_pipe *u) {
  for (int b = 0; b < 2; b++) {
    if (u->pinned[b]) cudaFreeHost(u->pinned[b]);
    cudaFree(u->staging[b]);
    if (u->drained[b]) cudaEventDestroy(u->drained[b]);
  }
  bb_pool_free(u->pool);
  cudaGetLastError();
}

// 0 when the pipeline is ready; otherwise the caller uses plain copies.
static int pipe_acquire(upload_pipe *u, int n) {
  memset(u, 0, sizeof *u);
  u->narrow = n <= 65536;
  size_t bytes = UPLOAD_CHUNK_IDS * (u->narrow ? sizeof(uint16_t) : sizeof(bb_id));
  for (int b = 0; b < 2; b++) {
    if (cudaHostAlloc(&u->pinned[b], bytes, cudaHostAllocDefault) != cudaSuccess ||
        (u->narrow && cudaMalloc(&u->staging[b], bytes) != cudaSuccess) ||
        cudaEventCreateWithFlags(&u->drained[b], cudaEventDisableTiming) != cudaSuccess) {
      pipe_release(u);
      return -1;
    }
  }
  u->pool = bb_pool_new(bb_cpu_count());
  return u->pool ? 0 : (pipe_release(u), -1);
}

static bb_status upload_list(bb_gpu *g, upload_pipe *u, const bb_id *host, bb_id *dev, size_t cells, bb_error *err) {
  for (size_t off = 0, i = 0; off < cells; off += UPLOAD_CHUNK_IDS, i++) {
    int b = (int)(i & 1);
    size_t count = cells - off < UPLOAD_CHUNK_IDS ? cells - off : UPLOAD_CHUNK_IDS;
    BB_CUDA(cudaEventSynchronize(u->drained[b]));
    narrow_job job = {host + off, u->pinned[b], u->narrow};
    bb_pool_for(u->pool, (int64_t)count, (int64_t)1 << 18, narrow_range, &job);
    if (u->narrow) {
      BB_CUDA(
          cudaMemcpyAsync(u->staging[b], u->pinned[b], count * sizeof(uint16_t), cudaMemcpyHostToDevice, g->stream));
      widen_kernel<<<1024, 256, 0, g->stream>>>(u->staging[b], count, dev + off);
      BB_CUDA_LAUNCHED("widen_kernel");
    } else {
      BB_CUDA(cudaMemcpyAsync(dev + off, u->pinned[b], count * sizeof(bb_id), cudaMemcpyHostToDevice, g->stream));
    }
    BB_CUDA(cudaEventRecord(u->drained[b], g->stream));
  }
  return BB_OK;
}

static bb_status upload_lists(bb_gpu *g, const bb_gpu_instance *inst, bb_error *err) {
  upload_pipe u;
  if (pipe_acquire(&u, g->n) != 0) { // no pinned memory: plain (slower) copies
    size_t bytes = g->cells * sizeof(bb_id);
    BB_CUDA(cudaMemcpyAsync(g->d_men, inst->men_prefs, bytes, cudaMemcpyHostToDevice, g->stream));
    BB_CUDA(cudaMemcpyAsync(g->d_women, inst->women_prefs, bytes, cudaMemcpyHostToDevice, g->stream));
    BB_CUDA(cudaStreamSynchronize(g->stream));
    return BB_OK;
  }
  bb_gpu_sample_memory(g);
  bb_status st = upload_list(g, &u, inst->men_prefs, g->d_men, g->cells, err);
  if (st == BB_OK) st = upload_list(g, &u, inst->women_prefs, g->d_women, g->cells, err);
  cudaError_t e = cudaStreamSynchronize(g->stream);
  pipe_release(&u);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "upload", __FILE__, __LINE__);
  return st;
}

// The staged path's uploads (gpu_staged.cu): one pipeline kept over several ranges, so the
// men's lists can be streamed block by block into the PRMatrix build.
struct bb_gpu_pipe {
  upload_pipe u;
  int pipelined; // 0: no pinned memory, plain copies
};

bb_status bb_gpu_pipe_open(bb_gpu *g, bb_gpu_pipe **out, bb_error *err) {
  *out = (bb_gpu_pipe *)calloc(1, sizeof **out);
  if (!*out) return bb_fail(err, BB_ERR_NOMEM, "upload pipeline: out of host memory");
  (*out)->pipelined = pipe_acquire(&(*out)->u, g->n) == 0;
  bb_gpu_sample_memory(g);
  return BB_OK;
}

bb_status bb_gpu_pipe_upload(bb_gpu *g, bb_gpu_pipe *p, const bb_id *host, bb_id *dev, size_t count, bb_error *err) {
  if (p->pipelined) return upload_list(g, &p->u, host, dev, count, err);
  // The host range may be reused at once by the caller: a synchronous copy.
  BB_CUDA(cudaMemcpyAsync(dev, host, count * sizeof(bb_id), cudaMemcpyHostToDevice, g->stream));
  BB_CUDA(cudaStreamSynchronize(g->stream));
  return BB_OK;
}

void bb_gpu_pipe_close(bb_gpu *g, bb_gpu_pipe *p) {
  if (!p) return;
  cudaStreamSynchronize(g->stream); // the last chunks still read the pinned buffers
  if (p->pipelined) pipe_release(&p->u);
  cudaGetLastError();
  free(p);
}

static bb_status open_device(bb_gpu *g, const bb_gpu_instance *inst, bb_gpu_stats *stats, bb_error *err) {
  size_t bytes = g->cells * sizeof(bb_id);
  size_t free_b = 0, total_b = 0;
  BB_CUDA(cudaMemGetInfo(&free_b, &total_b));
  g->free_at_open = g->min_free = free_b;
  // The earlier order holds both lists at once. The staged one never does (gpu_staged.cu: the
  // women's lists, or blocks of them, then blocks of the men's); the memory plan checked its
  // phases before anything was allocated. Checking 8n² here would refuse instances that the
  // plan (40-bit nodes, rank matrix in blocks) fits.
  if (!g->staged && 2 * bytes > free_b)
    return bb_fail(err, BB_ERR_GPU, "n = %d needs %.2f GiB on the GPU for the lists alone, %.2f GiB free", g->n,
                   2.0 * bytes / 1073741824.0, free_b / 1073741824.0);
  BB_CUDA(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
  BB_CUDA(cudaStreamCreateWithFlags(&g->monitor, cudaStreamNonBlocking));
  BB_CUDA(cudaMalloc(&g->d_ctl, 4 * sizeof(int)));
  BB_CUDA(cudaHostAlloc(&g->h_ctl, 4 * sizeof(int), cudaHostAllocDefault));
  if (g->staged) return BB_OK; // gpu_staged.cu uploads the lists while it builds
  BB_CUDA(cudaMalloc(&g->d_men, bytes));
  BB_CUDA(cudaMalloc(&g->d_women, bytes));
  double t = bb_now();
  bb_status st = upload_lists(g, inst, err);
  stats->t_transfer += bb_now() - t;
  return st;
}

static bb_status open_any(int device, const bb_gpu_instance *inst, int staged, bb_gpu **out, bb_gpu_stats *stats,
                          bb_error *err) {
  assert(inst && out && stats && inst->n >= 0);
  *out = NULL;
  cudaError_t e = cudaSetDevice(device);
  if (e != cudaSuccess) return bb_gpu_fail(err, e, "cudaSetDevice", __FILE__, __LINE__);
  bb_gpu *g = (bb_gpu *)calloc(1, sizeof *g);
  if (!g) return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_open: out of host memory");
  g->device = device;
  g->n = inst->n;
  g->cells = (size_t)inst->n * (size_t)inst->n;
  g->men_rows = inst->n;
  g->lists_of = *inst;
  g->inst = &g->lists_of;
  g->staged = staged;
  bb_status st = open_device(g, inst, stats, err);
  if (st != BB_OK) {
    bb_gpu_close(g);
    return st;
  }
  *out = g;
  return BB_OK;
}

bb_status bb_gpu_open(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats, bb_error *err) {
  return open_any(device, inst, 0, out, stats, err);
}

bb_status bb_gpu_open_staged(int device, const bb_gpu_instance *inst, bb_gpu **out, bb_gpu_stats *stats,
                             bb_error *err) {
  return open_any(device, inst, 1, out, stats, err);
}

void bb_gpu_sample_memory(bb_gpu *g) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
    if (free_b < g->min_free) g->min_free = free_b;
  } else {
    cudaGetLastError();
  }
}

void bb_gpu_set_rank_rows(bb_gpu *g, int rows) {
  if (g) g->rank_rows = rows > 0 ? rows : 0;
}

uint64_t bb_gpu_measured_peak(const bb_gpu *g) {
  return g && g->free_at_open > g->min_free ? (uint64_t)(g->free_at_open - g->min_free) : 0;
}

void bb_gpu_free_rank(bb_gpu *g) {
  if (g->d_rank) cudaFree(g->d_rank);
  g->d_rank = NULL;
}

void bb_gpu_close(bb_gpu *g) {
  if (!g) return;
  if (g->stream) cudaStreamSynchronize(g->stream);
  cudaFree(g->d_men);
  cudaFree(g->d_women);
  cudaFree(g->d_rank);
  cudaFree(g->d_pr);
  cudaFree(g->d_words);
  cudaFree(g->d_parked);
  cudaFree(g->d_ctl);
  if (g->h_ctl) cudaFreeHost(g->h_ctl);
  if (g->h_row_raw) cudaFreeHost(g->h_row_raw);
  free(g->h_row);
  if (g->stream) cudaStreamDestroy(g->stream);
  if (g->monitor) cudaStreamDestroy(g->monitor);
  cudaGetLastError();
  free(g);
}

bb_status bb_gpu_ctl_reset(bb_gpu *g, int free_men, bb_error *err) {
  g->h_ctl[BB_CTL_STOP_FLAG] = BB_CTL_RUN;
  g->h_ctl[BB_CTL_FREE_MEN] = free_men;
  g->h_ctl[BB_CTL_PARKED] = 0;
  g->h_ctl[3] = 0;
  BB_CUDA(cudaMemcpyAsync(g->d_ctl, g->h_ctl, 4 * sizeof(int), cudaMemcpyHostToDevice, g->stream));
  return BB_OK;
}

static bb_status request_stop(bb_gpu *g, int how, bb_error *err) {
  // h_ctl[3] is a pinned cell that only carries this value to the device.
  g->h_ctl[3] = how;
  BB_CUDA(cudaMemcpyAsync(g->d_ctl + BB_CTL_STOP_FLAG, g->h_ctl + 3, sizeof(int), cudaMemcpyHostToDevice, g->monitor));
  BB_CUDA(cudaStreamSynchronize(g->monitor));
  return BB_OK;
}

bb_status bb_gpu_monitor(bb_gpu *g, int stop_at, const bb_gpu_opts *opts, const char *what, bb_error *err) {
  double start = bb_now(), last_report = start;
  int stop_sent = 0, abort_sent = 0;
  for (;;) {
    cudaError_t q = cudaStreamQuery(g->stream);
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady) return bb_gpu_fail(err, q, what, __FILE__, __LINE__);
    BB_CUDA(cudaMemcpyAsync(g->h_ctl + BB_CTL_FREE_MEN, g->d_ctl + BB_CTL_FREE_MEN, sizeof(int), cudaMemcpyDeviceToHost,
                            g->monitor));
    BB_CUDA(cudaStreamSynchronize(g->monitor));
    int free_men = g->h_ctl[BB_CTL_FREE_MEN];
    double now = bb_now();
    if (stop_at > 0 && !stop_sent && free_men <= stop_at) {
      bb_status st = request_stop(g, BB_CTL_STOP, err);
      if (st != BB_OK) return st;
      stop_sent = 1;
    }
    if (opts->time_limit_s > 0 && !abort_sent && now - start > opts->time_limit_s) {
      bb_status st = request_stop(g, BB_CTL_ABORT, err);
      if (st != BB_OK) return st;
      abort_sent = 1;
    }
    if (opts->progress && now - last_report > 0.25) {
      opts->progress(opts->progress_ctx, what, (uint64_t)(g->n - free_men), (uint64_t)g->n);
      last_report = now;
    }
  }
  BB_CUDA(cudaStreamSynchronize(g->stream));
  if (abort_sent)
    return bb_fail(err, BB_ERR_TIMEOUT, "%s stopped by the time limit of %.3g s", what, opts->time_limit_s);
  return BB_OK;
}

static bb_status run_baseline(bb_gpu *g, const bb_gpu_opts *opts, const char *name, uint32_t free_value,
                              bb_gpu_baseline_step propose, bb_gpu_baseline_step to_ids, uint32_t *d_partner,
                              uint32_t *d_next, uint32_t *h_partner, bb_id *wife_of, bb_gpu_stats *stats,
                              bb_error *err) {
  int n = g->n;
  double t = bb_now();
  bb_status st = bb_gpu_fill_u32(g, d_partner, (size_t)n, free_value, err);
  if (st == BB_OK) st = bb_gpu_ctl_reset(g, n, err);
  if (st != BB_OK) return st;
  propose(g, d_partner, d_next);
  BB_CUDA_LAUNCHED(name);
  if ((st = bb_gpu_monitor(g, 0, opts, name, err)) != BB_OK) return st;
  stats->t_solve += bb_now() - t;

  t = bb_now();
  if (to_ids) {
    to_ids(g, d_partner, d_next);
    BB_CUDA_LAUNCHED(name);
  }
  BB_CUDA(cudaMemcpyAsync(h_partner, d_partner, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost, g->stream));
  BB_CUDA(cudaStreamSynchronize(g->stream));
  for (int w = 0; w < n; w++) {
    if (h_partner[w] >= (uint32_t)n)
      return bb_fail(err, BB_ERR_GPU, "%s: woman %d left unmatched (kernel bug)", name, w);
    wife_of[h_partner[w]] = (bb_id)w;
  }
  stats->t_post += bb_now() - t;
  return BB_OK;
}

bb_status bb_gpu_run_baseline(bb_gpu *g, const bb_gpu_opts *opts, const char *name, uint32_t free_value,
                              bb_gpu_baseline_step propose, bb_gpu_baseline_step to_ids, bb_id *wife_of,
                              bb_gpu_stats *stats, bb_error *err) {
  size_t bytes = (size_t)g->n * sizeof(uint32_t);
  uint32_t *d_partner = NULL, *d_next = NULL;
  uint32_t *h_partner = (uint32_t *)malloc(bytes);
  bb_status st = BB_OK;
  cudaError_t e = cudaSuccess;
  if (!h_partner)
    st = bb_fail(err, BB_ERR_NOMEM, "%s: out of host memory", name);
  else if ((e = cudaMalloc(&d_partner, bytes)) != cudaSuccess || (e = cudaMalloc(&d_next, bytes)) != cudaSuccess)
    st = bb_gpu_fail(err, e, "cudaMalloc(partner, next)", __FILE__, __LINE__);
  if (st == BB_OK && e == cudaSuccess) {
    bb_gpu_sample_memory(g);
    st = run_baseline(g, opts, name, free_value, propose, to_ids, d_partner, d_next, h_partner, wife_of, stats, err);
  }
  cudaFree(d_partner);
  cudaFree(d_next);
  free(h_partner);
  return st;
}

static bb_status fetch_row(bb_gpu *g, bb_id m, uint32_t from, bb_error *err) {
  size_t node = (size_t)g->pr_node_bytes;
  if (!g->h_row_raw) {
    BB_CUDA(cudaHostAlloc(&g->h_row_raw, (size_t)g->n * node, cudaHostAllocDefault));
    g->h_row = (bb_prnode *)malloc((size_t)g->n * sizeof(bb_prnode));
    if (!g->h_row) return bb_fail(err, BB_ERR_NOMEM, "PRMatrix row buffer: out of host memory");
  }
  uint32_t count = (uint32_t)g->n - from;
  BB_CUDA(bb_gpu_fetch_nodes(g->d_pr, g->cells, g->pr_node_bytes, (size_t)m * g->n + from, count, g->h_row_raw,
                             g->h_row + from, g->stream));
  return BB_OK;
}

const bb_prnode *bb_gpu_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  bb_gpu *g = (bb_gpu *)ctx;
  if (!g || !g->d_pr || m >= (bb_id)g->n || from >= (uint32_t)g->n) {
    bb_fail(err, BB_ERR_ARG, "bb_gpu_prrow: no PRMatrix row %u from %u", m, from);
    return NULL;
  }
  if (fetch_row(g, m, from, err) != BB_OK) return NULL;
  return g->h_row + from;
}
