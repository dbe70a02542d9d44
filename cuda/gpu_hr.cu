// SMI/HR on the GPU (bb_gpu_hr.h): resident chains over hospital posts with atomicMin.
//
// A post holds rank << 32 | resident of its holder, EMPTY (all ones) when free, so atomicMin
// keeps the resident the hospital prefers and returns the word it replaced. The thread that
// displaces a holder carries him on from his cursor, written (and fenced) before the
// atomicMin that published him, as gpu_la_min.cu does with next[].
//
// The host watches the number of running chains through a small copy on a second stream;
// once at most `tail` run it raises the stop flag and each thread parks the resident it
// carries (seed 000 Algorithm 2: the sequential end of the run belongs to the CPU).
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

#include "bb_gpu_hr.h"

enum { CTL_STOP = 0, CTL_RUNNING = 1, CTL_PARKED = 2 };
enum { RUN = 0, STOP = 1, ABORT = 2 };

static bb_status fail(bb_error *err, cudaError_t e, const char *call, int line) {
  bb_fail(err, BB_ERR_GPU, "CUDA error in %s (gpu_hr.cu:%d): %s", call, line, cudaGetErrorString(e));
  cudaGetLastError();
  return BB_ERR_GPU;
}
#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      st = fail(err, e_, #call, __LINE__);                                                         \
      goto done;                                                                                   \
    }                                                                                              \
  } while (0)

__global__ void hr_chain_kernel(const uint32_t *__restrict__ res_start, const unsigned long long *__restrict__ nodes,
                                const uint32_t *__restrict__ post_start, unsigned long long *posts,
                                unsigned long long *cursor, int n, int *ctl, uint32_t *parked) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  volatile int *stop = ctl + CTL_STOP;
  uint32_t r = (uint32_t)t, e = res_start[r], end = res_start[r + 1], p = 0;
  for (uint32_t iter = 0;; iter++) {
    if (e >= end) break; // r stays unassigned
    unsigned long long node = nodes[e];
    uint32_t rank = (uint32_t)(node >> 32), h = (uint32_t)node;
    uint32_t open = rank == BB_HR_UNRANKED ? 0 : post_start[h + 1] - post_start[h];
    if (p >= open) {
      e++, p = 0;
      continue;
    }
    if ((iter & 7) == 0 && *stop != RUN) {
      if (*stop == STOP) {
        __stcg(cursor + r, (unsigned long long)e << 32 | p);
        parked[atomicAdd(ctl + CTL_PARKED, 1)] = r;
      }
      return;
    }
    unsigned long long mine = (unsigned long long)rank << 32 | r;
    __stcg(cursor + r, (unsigned long long)e << 32 | p);
    __threadfence();
    unsigned long long old = atomicMin(posts + post_start[h] + p, mine);
    if (old < mine) { // the holder is better: h's next post
      p++;
      continue;
    }
    if (old == BB_HR_EMPTY_POST) break;
    __threadfence();
    r = (uint32_t)old;
    unsigned long long at = __ldcg(cursor + r);
    e = (uint32_t)(at >> 32), p = (uint32_t)at + 1, end = res_start[r + 1];
  }
  atomicSub(ctl + CTL_RUNNING, 1);
}

static void pause_briefly(void) {
  struct timespec ts = {0, 20000}; // 20 us
  nanosleep(&ts, NULL);
}

bb_status bb_gpu_hr_propose(const bb_gpu_hr_input *in, const bb_solve_opts *opts, int tail, uint64_t *posts,
                            uint64_t *cursor, uint32_t *parked, int *parked_count, bb_solve_stats *stats,
                            bb_error *err) {
  bb_status st = BB_OK;
  int n = in->n_residents;
  uint32_t entries = in->res_start[n];
  uint32_t *d_res_start = NULL, *d_post_start = NULL, *d_parked = NULL;
  unsigned long long *d_nodes = NULL, *d_posts = NULL, *d_cursor = NULL;
  int *d_ctl = NULL, *h_ctl = NULL;
  cudaStream_t stream = NULL, monitor = NULL;
  size_t free_b = 0, total_b = 0;
  double t0 = bb_now(), deadline = opts && opts->time_limit_s > 0 ? t0 + opts->time_limit_s : 0;
  int stopped = RUN;
  *parked_count = 0;
  size_t need = ((size_t)n + 1) * 4 + (size_t)entries * 8 + ((size_t)in->n_hospitals + 1) * 4 +
                (size_t)in->posts * 8 + (size_t)n * 12;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b) {
    st = bb_fail(err, BB_ERR_GPU, "the instance needs %.2f GiB on the GPU, %.2f GiB free", need / 1073741824.0,
                 free_b / 1073741824.0);
    goto done;
  }
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&monitor, cudaStreamNonBlocking));
  CHECK(cudaMalloc(&d_res_start, ((size_t)n + 1) * 4));
  CHECK(cudaMalloc(&d_nodes, ((size_t)entries + 1) * 8));
  CHECK(cudaMalloc(&d_post_start, ((size_t)in->n_hospitals + 1) * 4));
  CHECK(cudaMalloc(&d_posts, ((size_t)in->posts + 1) * 8));
  CHECK(cudaMalloc(&d_cursor, ((size_t)n + 1) * 8));
  CHECK(cudaMalloc(&d_parked, ((size_t)n + 1) * 4));
  CHECK(cudaMalloc(&d_ctl, 4 * sizeof(int)));
  CHECK(cudaHostAlloc(&h_ctl, 4 * sizeof(int), cudaHostAllocDefault));
  CHECK(cudaMemcpyAsync(d_res_start, in->res_start, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_nodes, in->nodes, (size_t)entries * 8, cudaMemcpyHostToDevice, stream));
  CHECK(cudaMemcpyAsync(d_post_start, in->post_start, ((size_t)in->n_hospitals + 1) * 4, cudaMemcpyHostToDevice,
                        stream));
  CHECK(cudaMemsetAsync(d_posts, 0xff, (size_t)in->posts * 8, stream));
  h_ctl[CTL_STOP] = RUN, h_ctl[CTL_RUNNING] = n, h_ctl[CTL_PARKED] = 0;
  CHECK(cudaMemcpyAsync(d_ctl, h_ctl, 3 * sizeof(int), cudaMemcpyHostToDevice, stream));
  CHECK(cudaStreamSynchronize(stream));
  if (stats) stats->t_transfer += bb_now() - t0;

  t0 = bb_now();
  if (n > 0) {
    hr_chain_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_res_start, d_nodes, d_post_start, d_posts, d_cursor, n,
                                                         d_ctl, d_parked);
    CHECK(cudaPeekAtLastError());
  }
  for (;;) {
    cudaError_t q = cudaStreamQuery(stream);
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady) CHECK(q);
    if (stopped == RUN && deadline > 0 && bb_now() > deadline) stopped = ABORT;
    if (stopped == RUN && tail > 0) {
      CHECK(cudaMemcpyAsync(h_ctl + CTL_RUNNING, d_ctl + CTL_RUNNING, sizeof(int), cudaMemcpyDeviceToHost, monitor));
      CHECK(cudaStreamSynchronize(monitor));
      if (h_ctl[CTL_RUNNING] <= tail) stopped = STOP;
    }
    if (stopped != RUN && h_ctl[CTL_STOP] == RUN) {
      h_ctl[CTL_STOP] = stopped;
      CHECK(cudaMemcpyAsync(d_ctl + CTL_STOP, h_ctl + CTL_STOP, sizeof(int), cudaMemcpyHostToDevice, monitor));
    }
    pause_briefly();
  }
  CHECK(cudaStreamSynchronize(monitor));
  if (stats) stats->t_solve += bb_now() - t0;
  if (stopped == ABORT) {
    st = bb_fail(err, BB_ERR_TIMEOUT, "gpu: time limit reached");
    goto done;
  }

  t0 = bb_now();
  CHECK(cudaMemcpyAsync(h_ctl, d_ctl, 3 * sizeof(int), cudaMemcpyDeviceToHost, stream));
  CHECK(cudaMemcpyAsync(posts, d_posts, (size_t)in->posts * 8, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  *parked_count = h_ctl[CTL_PARKED];
  if (*parked_count > 0) {
    CHECK(cudaMemcpyAsync(parked, d_parked, (size_t)*parked_count * 4, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaMemcpyAsync(cursor, d_cursor, (size_t)n * 8, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
  }
  if (stats) stats->t_post += bb_now() - t0;
done:
  cudaFree(d_res_start);
  cudaFree(d_nodes);
  cudaFree(d_post_start);
  cudaFree(d_posts);
  cudaFree(d_cursor);
  cudaFree(d_parked);
  cudaFree(d_ctl);
  if (h_ctl) cudaFreeHost(h_ctl);
  if (stream) cudaStreamDestroy(stream);
  if (monitor) cudaStreamDestroy(monitor);
  cudaGetLastError();
  return st;
}
