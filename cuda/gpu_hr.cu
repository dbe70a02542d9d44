// SMI/HR on the GPU (bb_gpu_hr.h): resident chains over hospital posts with atomicMin.
//
// Initialisation ([Bamboo-SMP]'s GPU initialisation, for CSR lists): each hospital's list is
// sorted by resident id, carrying each resident's rank; then every resident entry looks its
// rank up by binary search in its hospital's sorted list. One warp per list, so the lanes
// read and write consecutive entries.
//
// A post holds rank << 32 | resident of its holder, EMPTY (all ones) when free, so atomicMin
// keeps the resident the hospital prefers and returns the word it replaced. The thread that
// displaces a holder carries him on from his cursor, written (and fenced) before the
// atomicMin that published him, as gpu_la_min.cu does with next[].
//
// The host watches the number of running chains through a small copy on a second stream;
// once at most `tail` run it raises the stop flag and each thread parks the resident it
// carries ([Bamboo-SMP] Algorithm 2: the sequential end of the run belongs to the CPU).
#include <cub/device/device_segmented_sort.cuh>
#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

#include "bb_gpu_hr.h"
#include "gpu_internal.cuh" // BB_CUDA_OR_DONE

#define BB_HR_UNRANKED UINT32_MAX // a resident entry its hospital does not rank
#define BB_HR_EMPTY_POST BB_GPU_HR_EMPTY_POST

enum { CTL_STOP = 0, CTL_RUNNING = 1, CTL_PARKED = 2 };
enum { RUN = 0, STOP = 1, ABORT = 2 };

// values[f] = f's position in its hospital's list: one warp per hospital.
__global__ void list_positions_kernel(const uint32_t *__restrict__ hosp_start, int n_hospitals, uint32_t *values) {
  int lane = threadIdx.x & 31;
  for (int h = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; h < n_hospitals; h += (gridDim.x * blockDim.x) >> 5) {
    uint32_t first = hosp_start[h], last = hosp_start[h + 1];
    for (uint32_t f = first + lane; f < last; f += 32) values[f] = f - first;
  }
}

// nodes[e] = (hospital, its rank of the resident): one warp per resident, binary search in
// the hospital's list sorted by resident.
__global__ void rank_nodes_kernel(const uint32_t *__restrict__ res_start, const uint32_t *__restrict__ res_list,
                                  int n_residents, const uint32_t *__restrict__ hosp_start,
                                  const uint32_t *__restrict__ sorted_res, const uint32_t *__restrict__ sorted_rank,
                                  unsigned long long *nodes) {
  int lane = threadIdx.x & 31;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < n_residents; r += (gridDim.x * blockDim.x) >> 5) {
    for (uint32_t e = res_start[r] + lane; e < res_start[r + 1]; e += 32) {
      uint32_t h = res_list[e], lo = hosp_start[h], hi = hosp_start[h + 1];
      while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sorted_res[mid] < (uint32_t)r)
          lo = mid + 1;
        else
          hi = mid;
      }
      uint32_t rank = lo < hosp_start[h + 1] && sorted_res[lo] == (uint32_t)r ? sorted_rank[lo] : BB_HR_UNRANKED;
      nodes[e] = (unsigned long long)rank << 32 | h;
    }
  }
}

static int warp_blocks(int lists) {
  int blocks = (lists + 7) / 8; // 8 warps of 256 threads
  return blocks < 65535 * 16 ? (blocks > 0 ? blocks : 1) : 65535 * 16;
}

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

bb_status bb_gpu_hr_propose(const bb_gpu_hr_input *in, int tail, uint64_t *posts, uint64_t *cursor, uint32_t *parked,
                            int *parked_count, bb_gpu_hr_times *stats, bb_error *err) {
  bb_status st = BB_OK;
  const bb_gpu_hr_input *inst = in;
  int n = inst->n_residents, nh = inst->n_hospitals;
  uint32_t entries = inst->res_start[n], hosp_entries = inst->hosp_start[nh];
  uint32_t *d_res_start = NULL, *d_res_list = NULL, *d_hosp_start = NULL, *d_hosp_list = NULL;
  uint32_t *d_values = NULL, *d_sorted_res = NULL, *d_sorted_rank = NULL, *d_post_start = NULL, *d_parked = NULL;
  unsigned long long *d_nodes = NULL, *d_posts = NULL, *d_cursor = NULL;
  void *d_temp = NULL;
  size_t temp_bytes = 0;
  int *d_ctl = NULL, *h_ctl = NULL;
  cudaStream_t stream = NULL, monitor = NULL;
  size_t free_b = 0, total_b = 0;
  double t0 = bb_now(), deadline = in->time_limit_s > 0 ? t0 + in->time_limit_s : 0;
  int stopped = RUN;
  *parked_count = 0;
  // Peak: the lists, the sort's three extra copies of the hospitals' entries, the nodes.
  size_t need = ((size_t)n + nh + 2) * 4 + (size_t)entries * 12 + (size_t)hosp_entries * 16 + (size_t)in->posts * 8 +
                (size_t)n * 12 + ((size_t)64 << 20);
  if (hosp_entries > (uint32_t)INT32_MAX) {
    st = bb_fail(err, BB_ERR_GPU, "%u hospital-side entries: the GPU's sort takes at most %d", hosp_entries, INT32_MAX);
    goto done;
  }
  BB_CUDA_OR_DONE(cudaMemGetInfo(&free_b, &total_b));
  if (need > free_b) {
    st = bb_fail(err, BB_ERR_GPU, "the instance needs %.2f GiB on the GPU, %.2f GiB free", need / 1073741824.0,
                 free_b / 1073741824.0);
    goto done;
  }
  BB_CUDA_OR_DONE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  BB_CUDA_OR_DONE(cudaStreamCreateWithFlags(&monitor, cudaStreamNonBlocking));
  BB_CUDA_OR_DONE(cudaMalloc(&d_res_start, ((size_t)n + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_res_list, ((size_t)entries + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_hosp_start, ((size_t)nh + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_hosp_list, ((size_t)hosp_entries + 1) * 4));
  BB_CUDA_OR_DONE(cudaMemcpyAsync(d_res_start, inst->res_start, ((size_t)n + 1) * 4, cudaMemcpyHostToDevice, stream));
  BB_CUDA_OR_DONE(cudaMemcpyAsync(d_res_list, inst->res_list, (size_t)entries * 4, cudaMemcpyHostToDevice, stream));
  BB_CUDA_OR_DONE(
      cudaMemcpyAsync(d_hosp_start, inst->hosp_start, ((size_t)nh + 1) * 4, cudaMemcpyHostToDevice, stream));
  BB_CUDA_OR_DONE(
      cudaMemcpyAsync(d_hosp_list, inst->hosp_list, (size_t)hosp_entries * 4, cudaMemcpyHostToDevice, stream));
  BB_CUDA_OR_DONE(cudaStreamSynchronize(stream));
  if (stats) stats->transfer += bb_now() - t0;

  t0 = bb_now();
  BB_CUDA_OR_DONE(cudaMalloc(&d_values, ((size_t)hosp_entries + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_sorted_res, ((size_t)hosp_entries + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_sorted_rank, ((size_t)hosp_entries + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_nodes, ((size_t)entries + 1) * 8));
  if (nh > 0) {
    list_positions_kernel<<<warp_blocks(nh), 256, 0, stream>>>(d_hosp_start, nh, d_values);
    BB_CUDA_OR_DONE(cudaPeekAtLastError());
    BB_CUDA_OR_DONE(cub::DeviceSegmentedSort::SortPairs(NULL, temp_bytes, d_hosp_list, d_sorted_res, d_values,
                                                        d_sorted_rank, (int)hosp_entries, nh, d_hosp_start,
                                                        d_hosp_start + 1, stream));
    BB_CUDA_OR_DONE(cudaMalloc(&d_temp, temp_bytes + 1));
    BB_CUDA_OR_DONE(cub::DeviceSegmentedSort::SortPairs(d_temp, temp_bytes, d_hosp_list, d_sorted_res, d_values,
                                                        d_sorted_rank, (int)hosp_entries, nh, d_hosp_start,
                                                        d_hosp_start + 1, stream));
  }
  if (n > 0) {
    rank_nodes_kernel<<<warp_blocks(n), 256, 0, stream>>>(d_res_start, d_res_list, n, d_hosp_start, d_sorted_res,
                                                          d_sorted_rank, d_nodes);
    BB_CUDA_OR_DONE(cudaPeekAtLastError());
  }
  BB_CUDA_OR_DONE(cudaStreamSynchronize(stream));
  cudaFree(d_temp), d_temp = NULL;
  cudaFree(d_values), d_values = NULL;
  cudaFree(d_sorted_res), d_sorted_res = NULL;
  cudaFree(d_sorted_rank), d_sorted_rank = NULL;
  cudaFree(d_hosp_list), d_hosp_list = NULL;
  cudaFree(d_res_list), d_res_list = NULL;
  if (stats) stats->init += bb_now() - t0;

  t0 = bb_now();
  BB_CUDA_OR_DONE(cudaMalloc(&d_post_start, ((size_t)nh + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_posts, ((size_t)in->posts + 1) * 8));
  BB_CUDA_OR_DONE(cudaMalloc(&d_cursor, ((size_t)n + 1) * 8));
  BB_CUDA_OR_DONE(cudaMalloc(&d_parked, ((size_t)n + 1) * 4));
  BB_CUDA_OR_DONE(cudaMalloc(&d_ctl, 4 * sizeof(int)));
  BB_CUDA_OR_DONE(cudaHostAlloc(&h_ctl, 4 * sizeof(int), cudaHostAllocDefault));
  BB_CUDA_OR_DONE(cudaMemcpyAsync(d_post_start, in->post_start, ((size_t)nh + 1) * 4, cudaMemcpyHostToDevice, stream));
  BB_CUDA_OR_DONE(cudaMemsetAsync(d_posts, 0xff, (size_t)in->posts * 8, stream));
  h_ctl[CTL_STOP] = RUN, h_ctl[CTL_RUNNING] = n, h_ctl[CTL_PARKED] = 0;
  BB_CUDA_OR_DONE(cudaMemcpyAsync(d_ctl, h_ctl, 3 * sizeof(int), cudaMemcpyHostToDevice, stream));
  if (n > 0) {
    hr_chain_kernel<<<(n + 255) / 256, 256, 0, stream>>>(d_res_start, d_nodes, d_post_start, d_posts, d_cursor, n,
                                                         d_ctl, d_parked);
    BB_CUDA_OR_DONE(cudaPeekAtLastError());
  }
  for (;;) {
    cudaError_t q = cudaStreamQuery(stream);
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady) BB_CUDA_OR_DONE(q);
    if (stopped == RUN && deadline > 0 && bb_now() > deadline) stopped = ABORT;
    if (stopped == RUN && tail > 0) {
      BB_CUDA_OR_DONE(
          cudaMemcpyAsync(h_ctl + CTL_RUNNING, d_ctl + CTL_RUNNING, sizeof(int), cudaMemcpyDeviceToHost, monitor));
      BB_CUDA_OR_DONE(cudaStreamSynchronize(monitor));
      if (h_ctl[CTL_RUNNING] <= tail) stopped = STOP;
    }
    if (stopped != RUN && h_ctl[CTL_STOP] == RUN) {
      h_ctl[CTL_STOP] = stopped;
      BB_CUDA_OR_DONE(
          cudaMemcpyAsync(d_ctl + CTL_STOP, h_ctl + CTL_STOP, sizeof(int), cudaMemcpyHostToDevice, monitor));
    }
    pause_briefly();
  }
  BB_CUDA_OR_DONE(cudaStreamSynchronize(monitor));
  if (stats) stats->solve += bb_now() - t0;
  if (stopped == ABORT) {
    st = bb_fail(err, BB_ERR_TIMEOUT, "gpu: time limit reached");
    goto done;
  }

  t0 = bb_now();
  BB_CUDA_OR_DONE(cudaMemcpyAsync(h_ctl, d_ctl, 3 * sizeof(int), cudaMemcpyDeviceToHost, stream));
  BB_CUDA_OR_DONE(cudaMemcpyAsync(posts, d_posts, (size_t)in->posts * 8, cudaMemcpyDeviceToHost, stream));
  BB_CUDA_OR_DONE(cudaStreamSynchronize(stream));
  *parked_count = h_ctl[CTL_PARKED];
  if (*parked_count > 0) {
    BB_CUDA_OR_DONE(cudaMemcpyAsync(parked, d_parked, (size_t)*parked_count * 4, cudaMemcpyDeviceToHost, stream));
    BB_CUDA_OR_DONE(cudaMemcpyAsync(cursor, d_cursor, (size_t)n * 8, cudaMemcpyDeviceToHost, stream));
    BB_CUDA_OR_DONE(cudaStreamSynchronize(stream));
  }
  if (stats) stats->post += bb_now() - t0;
done:
  cudaFree(d_res_start);
  cudaFree(d_res_list);
  cudaFree(d_hosp_start);
  cudaFree(d_hosp_list);
  cudaFree(d_values);
  cudaFree(d_sorted_res);
  cudaFree(d_sorted_rank);
  cudaFree(d_temp);
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
