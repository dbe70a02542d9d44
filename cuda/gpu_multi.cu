// The engine over partitions of the participants (bb_gpu_multi.h; [Bamboo-SMP] section V-C).
// Each partition is a bb_gpu on its device holding rows first[p] .. first[p + 1] - 1 of both
// lists, of the women's rank matrix (while the PRMatrix is built) and of the PRMatrix. Kernels
// get every partition's base pointers (PartView) and find a participant's row through the
// owner arithmetic (gpu_multi.cuh), the same as engine/sm/memory_plan.h's; the O(n) matching
// state is on the first partition's device (bamboo's rounds replicate the words:
// gpu_multi_rounds.cu). The kernels are the single-GPU ones (bamboo_propose.cuh,
// gpu_la_min.cu) with that row lookup; gpu-la-min's fences are system-wide because the next[]
// it publishes may be read from another device.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mutex>
#include <thread>

#include "bb_gpu_gen.h"
#include "bamboo_propose.cuh"
#include "gpu_multi.cuh"

// --- Kernels -----------------------------------------------------------------------------
__global__ void part_rank_kernel(const bb_id *__restrict__ women, int n, int rows, uint32_t *__restrict__ rank) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    const bb_id *row = women + (size_t)i * n;
    uint32_t *out = rank + (size_t)i * n;
    for (int k = threadIdx.x; k < n; k += blockDim.x) out[row[k]] = (uint32_t)k;
  }
}

template <typename Node>
__global__ void part_prmatrix_kernel(PartView v, const bb_id *__restrict__ men, int first, int rows,
                                     typename Node::plane pr) {
  int n = v.n;
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    int m = first + i;
    for (int k = threadIdx.x; k < n; k += blockDim.x) {
      bb_id w = men[(size_t)i * n + k];
      int q = part_owner(n, v.parts, (int)w);
      pr.put((size_t)i * n + k, Node::make(w, v.rank[q][part_row(n, v.parts, q, (int)w) + m]));
    }
  }
}

template <typename Node>
__global__ void part_la_min_kernel(PartView v, int first, int rows, uint32_t *partner_rank, uint32_t *next, int *ctl) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= rows) return;
  int n = v.n;
  volatile int *stop = ctl + BB_CTL_STOP_FLAG;
  uint32_t m = (uint32_t)(first + t), k = 0;
  typename Node::plane row = pr_row<Node>(v, m);
  for (uint32_t iter = 0;; iter++) {
    if ((iter & 15) == 0 && *stop) return;
    typename Node::raw node = row.ld(k);
    uint32_t w = Node::woman(node), my_rank = Node::rank(node);
    __stcg(next + m, k + 1);
    __threadfence_system();
    uint32_t p_rank = atomicMin(partner_rank + w, my_rank);
    k++;
    if (p_rank > my_rank) {
      if (p_rank == (uint32_t)n) {
        atomicSub(ctl + BB_CTL_FREE_MEN, 1);
        return;
      }
      __threadfence_system();
      int q = part_owner(n, v.parts, (int)w);
      m = v.women[q][part_row(n, v.parts, q, (int)w) + p_rank];
      k = __ldcg(next + m);
      row = pr_row<Node>(v, m);
    }
  }
}

__global__ void part_partner_ids_kernel(PartView v, uint32_t *partner) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  if (w >= v.n || partner[w] >= (uint32_t)v.n) return;
  int q = part_owner(v.n, v.parts, w);
  partner[w] = v.women[q][part_row(v.n, v.parts, q, w) + partner[w]];
}

// --- Set-up ------------------------------------------------------------------------------
static std::mutex peers_lock;
static unsigned char peers_on[64][64]; // device ids are 0..63 (cli_parse_gpus)

static bb_status enable_peers(const int *devices, int count, bb_error *err) {
  for (int a = 0; a < count; a++) {
    char why[256];
    if (!bb_gpu_probe(devices[a], why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "--gpus: %s", why);
  }
  for (int a = 0; a < count; a++)
    for (int b = 0; b < count; b++) {
      if (devices[a] == devices[b]) continue;
      int can = 0;
      BB_CUDA(cudaDeviceCanAccessPeer(&can, devices[a], devices[b]));
      if (!can)
        return bb_fail(err, BB_ERR_GPU,
                       "--gpus: GPU %d cannot access GPU %d's memory (no peer access over NVLink or "
                       "PCIe); list GPUs that can, or one GPU",
                       devices[a], devices[b]);
      // Enabled once per pair and process: enabling it again is an error that the sanitizer
      // reports on every later open, even when it is cleared.
      std::lock_guard<std::mutex> hold(peers_lock);
      int tracked = devices[a] >= 0 && devices[a] < 64 && devices[b] >= 0 && devices[b] < 64;
      if (tracked && peers_on[devices[a]][devices[b]]) continue;
      BB_CUDA(cudaSetDevice(devices[a]));
      cudaError_t e = cudaDeviceEnablePeerAccess(devices[b], 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();
      else if (e != cudaSuccess)
        return bb_gpu_fail(err, e, "cudaDeviceEnablePeerAccess", __FILE__, __LINE__);
      if (tracked) peers_on[devices[a]][devices[b]] = 1;
    }
  return BB_OK;
}

static bb_status check_open(int count, const bb_gpu_instance *inst, const bb_gen_spec *spec, int node_bytes,
                            bb_error *err) {
  if (spec && spec->n != inst->n)
    return bb_fail(err, BB_ERR_ARG, "--gpus: the generator's n (%d) is not the instance's (%d)", spec->n, inst->n);
  if (!spec && (!inst->men_prefs || !inst->women_prefs))
    return bb_fail(err, BB_ERR_ARG, "--gpus: the instance has no lists to upload and no generator");
  if (count < 2 || count > BB_GPU_MAX_PARTS || count > inst->n)
    return bb_fail(err, BB_ERR_ARG, "--gpus: %d partitions for n = %d (2..%d, at most n)", count, inst->n,
                   BB_GPU_MAX_PARTS);
  if ((node_bytes != 4 && node_bytes != 5 && node_bytes != 8) || !bb_prnode_bytes_fits(node_bytes, inst->n))
    return bb_fail(err, BB_ERR_ARG, "%d-byte PRMatrix nodes do not fit n = %d", node_bytes, inst->n);
  return BB_OK;
}

static bb_gpu_multi *new_multi(int n, int count, int node_bytes) {
  bb_gpu_multi *mg = (bb_gpu_multi *)calloc(1, sizeof *mg);
  if (!mg) return NULL;
  mg->n = mg->view.n = n;
  mg->parts = mg->view.parts = count;
  mg->node_bytes = node_bytes;
  for (int p = 0; p <= count; p++) mg->first[p] = part_first(n, count, p);
  return mg;
}

// Partition p's rows of both sides generated on its device (no lists on the host), by the
// generator's row code (bb_gpu_gen.h), the host generator's rows bit for bit. The generator's
// permutations (16n bytes) live on the device only while the partition's rows are made.
static bb_status generate_part(bb_gpu *g, const bb_gen_spec *spec, size_t first, int rows, bb_error *err) {
  bb_gpu_gen *gen = NULL;
  bb_status st = bb_gpu_gen_open(g->device, spec, &gen, err);
  if (st == BB_OK) st = bb_gpu_gen_launch(gen, 0, (int)first, rows, g->d_men, g->stream, err);
  if (st == BB_OK) st = bb_gpu_gen_launch(gen, 1, (int)first, rows, g->d_women, g->stream, err);
  cudaError_t e = cudaStreamSynchronize(g->stream); // before the permutations go
  bb_gpu_gen_close(gen);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "partition rows generated", __FILE__, __LINE__);
  return st;
}

// Partition p's context on its device with its rows of both lists uploaded (or generated,
// with a spec).
static bb_status open_part(bb_gpu_multi *mg, int p, int device, const bb_gpu_instance *inst, const bb_gen_spec *spec,
                           bb_error *err) {
  BB_CUDA(cudaSetDevice(device));
  bb_gpu *g = (bb_gpu *)calloc(1, sizeof *g);
  if (!g) return bb_fail(err, BB_ERR_NOMEM, "partition %d: out of host memory", p);
  mg->part[p] = g;
  size_t rows = (size_t)part_rows_of(mg, p), n = (size_t)mg->n;
  g->device = device;
  g->n = mg->n;
  g->cells = rows * n;
  g->lists_of = *inst;
  g->inst = &g->lists_of;
  BB_CUDA(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
  BB_CUDA(cudaStreamCreateWithFlags(&g->monitor, cudaStreamNonBlocking));
  if (p == 0) {
    BB_CUDA(cudaMalloc(&g->d_ctl, 4 * sizeof(int)));
    BB_CUDA(cudaHostAlloc(&g->h_ctl, 4 * sizeof(int), cudaHostAllocPortable));
  }
  BB_CUDA(cudaMalloc(&g->d_men, g->cells * sizeof(bb_id)));
  BB_CUDA(cudaMalloc(&g->d_women, g->cells * sizeof(bb_id)));
  mg->view.women[p] = g->d_women;
  if (spec) return generate_part(g, spec, (size_t)mg->first[p], (int)rows, err);
  bb_gpu_pipe *pipe = NULL;
  bb_status st = bb_gpu_pipe_open(g, &pipe, err);
  size_t from = (size_t)mg->first[p] * n;
  if (st == BB_OK) st = bb_gpu_pipe_upload(g, pipe, inst->men_prefs + from, g->d_men, g->cells, err);
  if (st == BB_OK) st = bb_gpu_pipe_upload(g, pipe, inst->women_prefs + from, g->d_women, g->cells, err);
  bb_gpu_pipe_close(g, pipe);
  return st;
}

bb_status bb_gpu_multi_sync(bb_gpu_multi *mg, const char *what, bb_error *err) {
  for (int p = 0; p < mg->parts; p++) {
    BB_CUDA(cudaSetDevice(mg->part[p]->device));
    cudaError_t e = cudaStreamSynchronize(mg->part[p]->stream);
    if (e != cudaSuccess) return bb_gpu_fail(err, e, what, __FILE__, __LINE__);
  }
  return BB_OK;
}

// Rank rows everywhere first: a PRMatrix row reads every partition's rank rows.
static bb_status build(bb_gpu_multi *mg, bb_error *err) {
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    BB_CUDA(cudaSetDevice(g->device));
    BB_CUDA(cudaMalloc(&g->d_rank, g->cells * sizeof(uint32_t)));
    part_rank_kernel<<<bb_gpu_row_blocks(part_rows_of(mg, p)), 256, 0, g->stream>>>(g->d_women, mg->n,
                                                                                    part_rows_of(mg, p), g->d_rank);
    BB_CUDA_LAUNCHED("part_rank_kernel");
    mg->view.rank[p] = g->d_rank;
  }
  bb_status st = bb_gpu_multi_sync(mg, "rank matrix rows", err);
  if (st != BB_OK) return st;
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    BB_CUDA(cudaSetDevice(g->device));
    BB_CUDA(cudaMalloc(&g->d_pr, g->cells * (size_t)mg->node_bytes));
    g->pr_node_bytes = mg->node_bytes;
    mg->view.pr[p] = g->d_pr;
    mg->view.pr_cells[p] = g->cells;
  }
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    BB_CUDA(cudaSetDevice(g->device));
    int blocks = bb_gpu_row_blocks(part_rows_of(mg, p));
    bb_gpu_with_node(mg->node_bytes, [&](auto node) {
      using Node = decltype(node);
      part_prmatrix_kernel<Node><<<blocks, 256, 0, g->stream>>>(mg->view, g->d_men, mg->first[p], part_rows_of(mg, p),
                                                                Node::at(g->d_pr, g->cells));
    });
    BB_CUDA_LAUNCHED("part_prmatrix_kernel");
  }
  if ((st = bb_gpu_multi_sync(mg, "PRMatrix rows", err)) != BB_OK) return st;
  for (int p = 0; p < mg->parts; p++) {
    BB_CUDA(cudaSetDevice(mg->part[p]->device));
    bb_gpu_free_rank(mg->part[p]);
    mg->view.rank[p] = NULL;
  }
  return BB_OK;
}

// Partition p as a staged context (gpu_staged.cu) holding the PRMatrix rows of its men alone:
// built from blocks of the lists uploaded from the host, or generated on its device, so that
// nothing but those rows stays on the device and no device reads another's while building.
static bb_status open_part_staged(bb_gpu_multi *mg, int p, int device, const bb_gpu_instance *inst,
                                  const bb_gen_spec *spec, int rank_rows, bb_error *err) {
  BB_CUDA(cudaSetDevice(device));
  bb_gpu *g = (bb_gpu *)calloc(1, sizeof *g);
  if (!g) return bb_fail(err, BB_ERR_NOMEM, "partition %d: out of host memory", p);
  mg->part[p] = g;
  size_t free_b = 0, total_b = 0;
  BB_CUDA(cudaMemGetInfo(&free_b, &total_b));
  g->free_at_open = g->min_free = free_b;
  g->device = device;
  g->n = mg->n;
  g->men_first = mg->first[p];
  g->men_rows = part_rows_of(mg, p);
  g->cells = (size_t)g->men_rows * (size_t)mg->n;
  g->lists_of = *inst;
  g->inst = &g->lists_of;
  g->staged = 1;
  g->rank_rows = rank_rows;
  BB_CUDA(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
  BB_CUDA(cudaStreamCreateWithFlags(&g->monitor, cudaStreamNonBlocking));
  if (p == 0) {
    BB_CUDA(cudaMalloc(&g->d_ctl, 4 * sizeof(int)));
    BB_CUDA(cudaHostAlloc(&g->h_ctl, 4 * sizeof(int), cudaHostAllocPortable));
  }
  if (!spec) return BB_OK;
  bb_gpu_gen *gen = NULL;
  bb_status st = bb_gpu_gen_open(device, spec, &gen, err);
  if (st == BB_OK && (st = bb_gpu_set_generator(g, gen, err)) != BB_OK) bb_gpu_gen_close(gen);
  return st;
}

static void close_generator(bb_gpu *g) {
  if (!g || !g->gen) return;
  cudaSetDevice(g->device);
  bb_gpu_gen_close(g->gen);
  g->gen = NULL;
}

struct part_build {
  bb_gpu *g;
  int node_bytes;
  bb_gpu_stats stats;
  bb_error err;
  bb_status st;
};

static void build_part(part_build *b) {
  cudaError_t e = cudaSetDevice(b->g->device);
  b->st = e == cudaSuccess ? bb_gpu_build_staged(b->g, b->node_bytes, &b->stats, &b->err)
                           : bb_gpu_fail(&b->err, e, "cudaSetDevice", __FILE__, __LINE__);
  close_generator(b->g); // the generator's permutations are not needed past the build
}

// Every partition builds at once, one host thread each (the staged build waits on its stream
// between phases, and the devices must not wait for each other). The slowest partition's
// upload time is the transfer; the rest of the wall time is the initialisation.
static bb_status build_staged(bb_gpu_multi *mg, bb_gpu_stats *stats, bb_error *err) {
  part_build builds[BB_GPU_MAX_PARTS];
  std::thread workers[BB_GPU_MAX_PARTS];
  double t = bb_now();
  for (int p = 0; p < mg->parts; p++) {
    builds[p] = part_build{mg->part[p], mg->node_bytes, {}, {{0}}, BB_OK};
    workers[p] = std::thread(build_part, &builds[p]);
  }
  for (int p = 0; p < mg->parts; p++) workers[p].join();
  double transfer = 0;
  for (int p = 0; p < mg->parts; p++) {
    if (builds[p].st != BB_OK) {
      *err = builds[p].err;
      return builds[p].st;
    }
    if (builds[p].stats.t_transfer > transfer) transfer = builds[p].stats.t_transfer;
    mg->view.pr[p] = mg->part[p]->d_pr;
    mg->view.pr_cells[p] = mg->part[p]->cells;
  }
  stats->t_transfer += transfer;
  stats->t_init += bb_now() - t - transfer;
  return BB_OK;
}

bb_status bb_gpu_multi_open_staged(const int *devices, int count, const bb_gpu_instance *inst, const bb_gen_spec *spec,
                                   int node_bytes, int rank_rows, bb_gpu_multi **out, bb_gpu_stats *stats,
                                   bb_error *err) {
  *out = NULL;
  bb_status st = check_open(count, inst, spec, node_bytes, err);
  if (st == BB_OK && rank_rows < 1)
    st = bb_fail(err, BB_ERR_ARG, "--gpus: the rank matrix in blocks of %d women (at least 1)", rank_rows);
  if (st == BB_OK) st = enable_peers(devices, count, err);
  if (st != BB_OK) return st;
  bb_gpu_multi *mg = new_multi(inst->n, count, node_bytes);
  if (!mg) return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_multi_open: out of host memory");
  for (int p = 0; p < count && st == BB_OK; p++) st = open_part_staged(mg, p, devices[p], inst, spec, rank_rows, err);
  if (st == BB_OK) st = build_staged(mg, stats, err);
  if (st != BB_OK) {
    bb_gpu_multi_close(mg);
    return st;
  }
  *out = mg;
  return BB_OK;
}

uint64_t bb_gpu_multi_measured_peak(const bb_gpu_multi *mg, int device) {
  size_t before = 0, least = SIZE_MAX;
  for (int p = 0; p < mg->parts; p++) {
    const bb_gpu *g = mg->part[p];
    if (g->device != device) continue;
    if (g->free_at_open > before) before = g->free_at_open;
    if (g->min_free < least) least = g->min_free;
  }
  return least != SIZE_MAX && before > least ? (uint64_t)(before - least) : 0;
}

bb_status bb_gpu_multi_open(const int *devices, int count, const bb_gpu_instance *inst, int node_bytes,
                            bb_gpu_multi **out, bb_gpu_stats *stats, bb_error *err) {
  return bb_gpu_multi_open_gen(devices, count, inst, NULL, node_bytes, out, stats, err);
}

bb_status bb_gpu_multi_open_gen(const int *devices, int count, const bb_gpu_instance *inst, const bb_gen_spec *spec,
                                int node_bytes, bb_gpu_multi **out, bb_gpu_stats *stats, bb_error *err) {
  *out = NULL;
  bb_status st = check_open(count, inst, spec, node_bytes, err);
  if (st == BB_OK) st = enable_peers(devices, count, err);
  if (st != BB_OK) return st;
  bb_gpu_multi *mg = new_multi(inst->n, count, node_bytes);
  if (!mg) return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_multi_open: out of host memory");
  double t = bb_now();
  for (int p = 0; p < count && st == BB_OK; p++) st = open_part(mg, p, devices[p], inst, spec, err);
  stats->t_transfer += bb_now() - t;
  t = bb_now();
  if (st == BB_OK) st = build(mg, err);
  stats->t_init += bb_now() - t;
  if (st != BB_OK) {
    bb_gpu_multi_close(mg);
    return st;
  }
  *out = mg;
  return BB_OK;
}

void bb_gpu_multi_close(bb_gpu_multi *mg) {
  if (!mg) return;
  bb_gpu_multi_rounds_free(mg);
  for (int p = mg->parts - 1; p >= 0; p--) {
    if (!mg->part[p]) continue;
    close_generator(mg->part[p]);
    cudaSetDevice(mg->part[p]->device);
    if (p == 0) {
      cudaFree(mg->d_words);
      cudaFree(mg->d_parked);
    }
    bb_gpu_close(mg->part[p]);
  }
  free(mg->h_row_raw);
  free(mg->h_row);
  cudaGetLastError();
  free(mg);
}

// --- Running the partitions' kernels -------------------------------------------------------
static bb_status send_stop(bb_gpu *g0, int how, bb_error *err) {
  g0->h_ctl[3] = how;
  BB_CUDA(
      cudaMemcpyAsync(g0->d_ctl + BB_CTL_STOP_FLAG, g0->h_ctl + 3, sizeof(int), cudaMemcpyHostToDevice, g0->monitor));
  BB_CUDA(cudaStreamSynchronize(g0->monitor));
  return BB_OK;
}

// bb_gpu_monitor over every partition's stream; the control words are on part[0].
bb_status bb_gpu_multi_monitor(bb_gpu_multi *mg, int stop_at, const bb_gpu_opts *opts, const char *what,
                               bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  double start = bb_now(), last_report = start;
  int stop_sent = 0, abort_sent = 0;
  for (;;) {
    int running = 0;
    for (int p = 0; p < mg->parts; p++) {
      cudaError_t q = cudaStreamQuery(mg->part[p]->stream);
      if (q == cudaErrorNotReady)
        running = 1;
      else if (q != cudaSuccess)
        return bb_gpu_fail(err, q, what, __FILE__, __LINE__);
    }
    if (!running) break;
    BB_CUDA(cudaSetDevice(g0->device));
    BB_CUDA(cudaMemcpyAsync(g0->h_ctl + BB_CTL_FREE_MEN, g0->d_ctl + BB_CTL_FREE_MEN, sizeof(int),
                            cudaMemcpyDeviceToHost, g0->monitor));
    BB_CUDA(cudaStreamSynchronize(g0->monitor));
    int free_men = g0->h_ctl[BB_CTL_FREE_MEN];
    double now = bb_now();
    bb_status st = BB_OK;
    if (stop_at > 0 && !stop_sent && free_men <= stop_at) st = send_stop(g0, BB_CTL_STOP, err), stop_sent = 1;
    if (st == BB_OK && opts->time_limit_s > 0 && !abort_sent && now - start > opts->time_limit_s)
      st = send_stop(g0, BB_CTL_ABORT, err), abort_sent = 1;
    if (st != BB_OK) return st;
    if (opts->progress && now - last_report > 0.25) {
      opts->progress(opts->progress_ctx, what, (uint64_t)(mg->n - free_men), (uint64_t)mg->n);
      last_report = now;
    }
  }
  bb_status st = bb_gpu_multi_sync(mg, what, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaSetDevice(g0->device));
  if (abort_sent)
    return bb_fail(err, BB_ERR_TIMEOUT, "%s stopped by the time limit of %.3g s", what, opts->time_limit_s);
  return BB_OK;
}

bb_status bb_gpu_multi_launch_shared(bb_gpu_multi *mg, uint2 *const *starts, const int *counts, bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  propose_variant variant = propose_variant_of(getenv("BAMBOO_GPU_SCAN"));
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    int count = counts ? counts[p] : part_rows_of(mg, p);
    const uint2 *start = starts ? starts[p] : NULL;
    BB_CUDA(cudaSetDevice(g->device));
    bb_gpu_with_node(mg->node_bytes, [&](auto node) {
      using Node = decltype(node);
      bb_gpu_launch_propose<Node>(PartRows<Node>{mg->view}, mg->first[p], count, start, mg->n, mg->d_words, g0->d_ctl,
                                  mg->d_parked, g->stream, variant);
    });
    BB_CUDA_LAUNCHED("bamboo_propose_kernel");
  }
  return BB_OK;
}

bb_status bb_gpu_multi_handover(bb_gpu_multi *mg, bb_gpu_la *st, bb_id *free_men, int *free_count, bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  int n = mg->n;
  BB_CUDA(cudaMemcpy(g0->h_ctl, g0->d_ctl, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  int parked = g0->h_ctl[BB_CTL_PARKED];
  if (parked < 0 || parked > n) return bb_fail(err, BB_ERR_GPU, "bamboo: kernels parked %d men (n = %d)", parked, n);
  unsigned long long *h_words = (unsigned long long *)malloc((size_t)n * sizeof *h_words);
  uint2 *h_parked = (uint2 *)malloc((size_t)(parked ? parked : 1) * sizeof *h_parked);
  bb_status status = BB_OK;
  cudaError_t e = cudaSuccess;
  if (!h_words || !h_parked) {
    status = bb_fail(err, BB_ERR_NOMEM, "bamboo: out of host memory for the hand-over");
  } else {
    e = cudaMemcpy(h_words, mg->d_words, (size_t)n * sizeof *h_words, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess && parked)
      e = cudaMemcpy(h_parked, mg->d_parked, (size_t)parked * sizeof *h_parked, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess) {
      bb_gpu_handover(n, h_words, h_parked, parked, st, free_men);
      *free_count = parked;
    } else {
      status = bb_gpu_fail(err, e, "download of the matching state", __FILE__, __LINE__);
    }
  }
  free(h_words);
  free(h_parked);
  return status;
}

const char *bb_gpu_multi_solve_mode(void) {
  const char *mode = getenv("BAMBOO_GPU_MULTI_SOLVE");
  return mode && !strcmp(mode, "shared") ? "shared" : "rounds";
}

int bb_gpu_multi_rounds_run(const bb_gpu_multi *mg) { return mg ? mg->rounds : 0; }

// BAMBOO_GPU_ROUNDS_SWITCH: the rounds hand over to the shared words once at most this many
// men are free (a round costs a few launches and a host wait whatever it does, while few
// free men make few remote atomics).
static int rounds_switch(void) {
  const char *v = getenv("BAMBOO_GPU_ROUNDS_SWITCH");
  return v && *v ? atoi(v) : 256;
}

bb_status bb_gpu_multi_bamboo(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_gpu_la *st, bb_id *free_men,
                              int *free_count, bb_gpu_stats *stats, bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  int n = mg->n, rounds = !strcmp(bb_gpu_multi_solve_mode(), "rounds");
  *free_count = 0;
  mg->rounds = 0;
  double t = bb_now();
  BB_CUDA(cudaSetDevice(g0->device));
  if (!mg->d_words) BB_CUDA(cudaMalloc(&mg->d_words, (size_t)n * sizeof *mg->d_words));
  if (!mg->d_parked) BB_CUDA(cudaMalloc(&mg->d_parked, (size_t)n * sizeof *mg->d_parked));
  uint2 *starts[BB_GPU_MAX_PARTS] = {NULL};
  int counts[BB_GPU_MAX_PARTS] = {0}, total = n;
  bb_status status = BB_OK;
  double t_rounds = 0;
  if (rounds) { // the rounds leave the merged words and who is still free
    stats->t_init += bb_now() - t;
    t = bb_now();
    status = bb_gpu_multi_rounds(mg, opts, rounds_switch(), starts, counts, err);
    stats->t_solve += bb_now() - t;
    t_rounds = bb_now() - t;
    if (status != BB_OK) return status;
    BB_CUDA(cudaSetDevice(g0->device));
    total = 0;
    for (int p = 0; p < mg->parts; p++) total += counts[p];
    t = bb_now();
  } else {
    status = bb_gpu_fill_u64(g0, mg->d_words, (size_t)n, BB_WORD_FREE, err);
  }
  if (status == BB_OK) status = bb_gpu_ctl_reset(g0, total, err);
  if (status != BB_OK) return status;
  BB_CUDA(cudaStreamSynchronize(g0->stream)); // the other partitions' streams start after this
  if (!rounds) stats->t_init += bb_now() - t;
  t = bb_now();
  if ((status = bb_gpu_multi_launch_shared(mg, rounds ? starts : NULL, rounds ? counts : NULL, err)) != BB_OK)
    return status;
  status = bb_gpu_multi_monitor(mg, opts->tail_threshold, opts, "bamboo GPU proposals", err);
  if (status == BB_OK) status = bb_gpu_multi_handover(mg, st, free_men, free_count, err);
  stats->t_solve += bb_now() - t;
  if (rounds && bb_gpu_profiling())
    fprintf(stderr, "bamboo x%d rounds n=%d: %d rounds %.2f ms, then %d free men on the shared words %.2f ms\n",
            mg->parts, n, mg->rounds, 1e3 * t_rounds, total, 1e3 * (bb_now() - t));
  return status;
}

static bb_status run_la_min(bb_gpu_multi *mg, const bb_gpu_opts *opts, uint32_t *d_partner, uint32_t *d_next,
                            uint32_t *h_partner, bb_id *wife_of, bb_gpu_stats *stats, bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  int n = mg->n;
  double t = bb_now();
  bb_status st = bb_gpu_fill_u32(g0, d_partner, (size_t)n, (uint32_t)n, err);
  if (st == BB_OK) st = bb_gpu_ctl_reset(g0, n, err);
  if (st != BB_OK) return st;
  BB_CUDA(cudaStreamSynchronize(g0->stream));
  for (int p = 0; p < mg->parts; p++) {
    bb_gpu *g = mg->part[p];
    int rows = part_rows_of(mg, p);
    BB_CUDA(cudaSetDevice(g->device));
    bb_gpu_with_node(mg->node_bytes, [&](auto node) {
      using Node = decltype(node);
      part_la_min_kernel<Node>
          <<<(rows + 255) / 256, 256, 0, g->stream>>>(mg->view, mg->first[p], rows, d_partner, d_next, g0->d_ctl);
    });
    BB_CUDA_LAUNCHED("part_la_min_kernel");
  }
  if ((st = bb_gpu_multi_monitor(mg, 0, opts, "gpu-la-min", err)) != BB_OK) return st;
  stats->t_solve += bb_now() - t;
  t = bb_now();
  part_partner_ids_kernel<<<(n + 255) / 256, 256, 0, g0->stream>>>(mg->view, d_partner);
  BB_CUDA_LAUNCHED("part_partner_ids_kernel");
  BB_CUDA(cudaMemcpyAsync(h_partner, d_partner, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost, g0->stream));
  BB_CUDA(cudaStreamSynchronize(g0->stream));
  for (int w = 0; w < n; w++) {
    if (h_partner[w] >= (uint32_t)n)
      return bb_fail(err, BB_ERR_GPU, "gpu-la-min: woman %d left unmatched (kernel bug)", w);
    wife_of[h_partner[w]] = (bb_id)w;
  }
  stats->t_post += bb_now() - t;
  return BB_OK;
}

bb_status bb_gpu_multi_la_min(bb_gpu_multi *mg, const bb_gpu_opts *opts, bb_id *wife_of, bb_gpu_stats *stats,
                              bb_error *err) {
  bb_gpu *g0 = mg->part[0];
  size_t bytes = (size_t)mg->n * sizeof(uint32_t);
  BB_CUDA(cudaSetDevice(g0->device));
  uint32_t *d_partner = NULL, *d_next = NULL, *h_partner = (uint32_t *)malloc(bytes);
  bb_status st = BB_OK;
  cudaError_t e = cudaSuccess;
  if (!h_partner)
    st = bb_fail(err, BB_ERR_NOMEM, "gpu-la-min: out of host memory");
  else if ((e = cudaMalloc(&d_partner, bytes)) != cudaSuccess || (e = cudaMalloc(&d_next, bytes)) != cudaSuccess)
    st = bb_gpu_fail(err, e, "cudaMalloc(partner, next)", __FILE__, __LINE__);
  if (st == BB_OK) st = run_la_min(mg, opts, d_partner, d_next, h_partner, wife_of, stats, err);
  cudaSetDevice(g0->device);
  cudaFree(d_partner);
  cudaFree(d_next);
  free(h_partner);
  return st;
}

const bb_prnode *bb_gpu_multi_prrow(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  bb_gpu_multi *mg = (bb_gpu_multi *)ctx;
  if (!mg || m >= (bb_id)mg->n || from >= (uint32_t)mg->n) {
    bb_fail(err, BB_ERR_ARG, "bb_gpu_multi_prrow: no PRMatrix row %u from %u", m, from);
    return NULL;
  }
  size_t n = (size_t)mg->n, node = (size_t)mg->node_bytes;
  if (!mg->h_row) {
    mg->h_row_raw = malloc(n * node);
    mg->h_row = (bb_prnode *)malloc(n * sizeof(bb_prnode));
    if (!mg->h_row_raw || !mg->h_row) {
      bb_fail(err, BB_ERR_NOMEM, "PRMatrix row buffer: out of host memory");
      return NULL;
    }
  }
  int q = part_owner(mg->n, mg->parts, (int)m);
  bb_gpu *g = mg->part[q];
  uint32_t count = (uint32_t)n - from;
  cudaError_t e = cudaSetDevice(g->device);
  if (e == cudaSuccess)
    e = bb_gpu_fetch_nodes(g->d_pr, g->cells, mg->node_bytes, part_row(mg->n, mg->parts, q, (int)m) + from, count,
                           mg->h_row_raw, mg->h_row + from, g->stream);
  if (e != cudaSuccess) {
    bb_gpu_fail(err, e, "PRMatrix row", __FILE__, __LINE__);
    return NULL;
  }
  return mg->h_row + from;
}
