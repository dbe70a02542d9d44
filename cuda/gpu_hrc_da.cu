// The portfolio of couples-aware deferred acceptances on the GPU (bb_gpu_hrc_da.h).
//
// One thread per run. A run is sequential, proposals chained through the hospitals' held
// arrays, so the parallelism is across runs: every thread runs hrc_da_core.h's
// bb_hrcda_full_run, the function the host runs, on its own slice of one buffer. Nothing is
// allocated on the device and there is no clock there: a run is bounded by its proposals and
// rounds, and the host honours a time limit between launches.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#include "bb_gpu_hrc_da.h"
#include "gpu_internal.cuh" // BB_CUDA_OR_DONE

namespace {

// Where each array of a run starts in its slice (bb_gpu_hrc_da_run_bytes's order).
struct slice_layout {
  size_t slots, nheld, next, cur, assigned, best, queue, order, queued, view, restart, bytes;
};

size_t up8(size_t x) { return (x + 7) / 8 * 8; }

slice_layout layout_of(const bb_hrcda_lists *L) {
  size_t na = (size_t)L->nagents + 1, nh = (size_t)L->nh + 1, nr = (size_t)L->nr + 1;
  size_t slots = (size_t)L->slot0[L->nh] + 1, at = 0;
  slice_layout s;
  s.slots = at, at += up8(slots * sizeof(bb_hrcda_held));
  s.nheld = at, at += up8(nh * sizeof(int32_t));
  s.next = at, at += up8(na * sizeof(uint32_t));
  s.cur = at, at += na * sizeof(int64_t);
  s.assigned = at, at += up8(nr * sizeof(int32_t));
  s.best = at, at += up8(nr * sizeof(int32_t));
  s.queue = at, at += up8(na * sizeof(int32_t));
  s.order = at, at += up8(na * sizeof(int32_t));
  s.queued = at, at += up8(na);
  s.view = at, at += nh * sizeof(bb_hrcda_hosp);
  s.restart = at, at += na * sizeof(int64_t);
  s.bytes = at;
  return s;
}

// Runs first .. first + count - 1, thread j the run first + j on slice j.
__global__ void hrc_da_runs_kernel(bb_hrcda_lists L, char *buf, slice_layout s, int first, int count, uint64_t seed,
                                   int max_rounds, uint64_t max_proposals, bb_gpu_hrc_da_run *out) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= count) return;
  int run = first + j;
  char *p = buf + (size_t)j * s.bytes;
  bb_hrcda d;
  memset(&d, 0, sizeof d);
  d.L = L;
  d.nr = L.nr;
  d.nagents = L.nagents;
  d.slots = (bb_hrcda_held *)(p + s.slots);
  d.nheld = (int32_t *)(p + s.nheld);
  d.next = (uint32_t *)(p + s.next);
  d.cur = (int64_t *)(p + s.cur);
  d.assigned = (int32_t *)(p + s.assigned);
  d.queue = (int32_t *)(p + s.queue);
  d.order = (int32_t *)(p + s.order);
  d.queued = (uint8_t *)(p + s.queued);
  d.max_proposals = max_proposals;
  int32_t *best_assigned = (int32_t *)(p + s.best);
  uint64_t best = UINT64_MAX;
  bb_hrcda_totals t;
  bb_hrcda_full_run(&d, run > 0, run > 0 ? bb_hrcda_run_seed(seed, run) : 0, max_rounds, (bb_hrcda_hosp *)(p + s.view),
                    (int64_t *)(p + s.restart), best_assigned, &best, &t);
  int32_t matched = 0;
  for (int r = 0; r < L.nr; r++) matched += best_assigned[r] != BB_HRCDA_NONE;
  bb_gpu_hrc_da_run o;
  o.blocking = best;
  o.proposals = t.proposals;
  o.matched = matched;
  o.rounds = t.rounds;
  o.bounded = t.bounded;
  o.done = 1;
  o.seconds = 0;
  out[j] = o;
}

bool beats(const bb_gpu_hrc_da_run *a, int ra, const bb_gpu_hrc_da_run *b, int rb) {
  if (a->blocking != b->blocking) return a->blocking < b->blocking;
  if (a->matched != b->matched) return a->matched > b->matched;
  return ra < rb;
}

// The device copies of the lists; every pointer freed by release.
struct device_lists {
  bb_hrcda_lists L;
  void *ptrs[16];
  int n;
};

void release(device_lists *dl) {
  for (int i = 0; i < dl->n; i++) cudaFree(dl->ptrs[i]);
  dl->n = 0;
}

// Copies count elements of `host` to a new device array (an empty one gets a byte).
template <typename T>
cudaError_t upload(device_lists *dl, const T *host, size_t count, T **out) {
  void *p = NULL;
  cudaError_t e = cudaMalloc(&p, count ? count * sizeof(T) : 1);
  if (e != cudaSuccess) return e;
  dl->ptrs[dl->n++] = p;
  *out = (T *)p;
  return count ? cudaMemcpy(p, host, count * sizeof(T), cudaMemcpyHostToDevice) : cudaSuccess;
}

bb_status upload_lists(const bb_hrcda_lists *h, device_lists *dl, bb_error *err) {
  bb_status st = BB_OK;
  size_t nr = (size_t)h->nr, nh = (size_t)h->nh, nc = (size_t)h->nc;
  size_t es = h->single_start[nr], ec = h->couple_start[nc];
  bb_hrcda_lists *L = &dl->L;
  *L = *h;
  BB_CUDA_OR_DONE(upload(dl, h->couple_of, nr, (int32_t **)&L->couple_of));
  BB_CUDA_OR_DONE(upload(dl, h->couple_member, 2 * nc, (int32_t **)&L->couple_member));
  BB_CUDA_OR_DONE(upload(dl, h->capacity, nh, (int32_t **)&L->capacity));
  BB_CUDA_OR_DONE(upload(dl, h->single_start, nr + 1, (uint32_t **)&L->single_start));
  BB_CUDA_OR_DONE(upload(dl, h->couple_start, nc + 1, (uint32_t **)&L->couple_start));
  BB_CUDA_OR_DONE(upload(dl, h->single_list, es, (bb_id **)&L->single_list));
  BB_CUDA_OR_DONE(upload(dl, h->couple_list, 2 * ec, (bb_id **)&L->couple_list));
  BB_CUDA_OR_DONE(upload(dl, (const int32_t *)h->srank, es, &L->srank));
  BB_CUDA_OR_DONE(upload(dl, (const int32_t *)h->crank, 2 * ec, &L->crank));
  BB_CUDA_OR_DONE(upload(dl, (const uint32_t *)h->slot0, nh + 1, &L->slot0));
  BB_CUDA_OR_DONE(upload(dl, (const int32_t *)h->room, nh, &L->room));
  L->count_srank = L->srank, L->count_crank = L->crank;
  if (h->count_srank != h->srank) BB_CUDA_OR_DONE(upload(dl, h->count_srank, es, (int32_t **)&L->count_srank));
  if (h->count_crank != h->crank) BB_CUDA_OR_DONE(upload(dl, h->count_crank, 2 * ec, (int32_t **)&L->count_crank));
done:
  return st;
}

} // namespace

extern "C" bb_status bb_gpu_hrc_da_runs(const bb_hrcda_lists *L, const bb_gpu_hrc_da_opts *o, bb_gpu_hrc_da_run *runs,
                                        int32_t *best, int *best_run, int32_t *all, bb_error *err) {
  if (!L || !o || !runs || !best || !best_run || o->runs < 1 || o->max_rounds < 1 || o->max_proposals < 1 ||
      o->batch < 0)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_hrc_da_runs: bad arguments");
  bb_status st = BB_OK;
  device_lists dl;
  dl.n = 0;
  char *buf = NULL;
  bb_gpu_hrc_da_run *d_out = NULL;
  slice_layout s = layout_of(L);
  size_t free_bytes = 0, total_bytes = 0, per_run = s.bytes + sizeof(bb_gpu_hrc_da_run), batch;
  int sms = 1;
  memset(runs, 0, (size_t)o->runs * sizeof *runs);
  *best_run = -1;
  BB_CUDA_OR_DONE(cudaSetDevice(o->device));
  BB_CUDA_OR_DONE(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, o->device));
  st = upload_lists(L, &dl, err);
  if (st != BB_OK) goto done;
  // The plan: what the lists left, less a margin for the runtime, holds this many runs.
  BB_CUDA_OR_DONE(cudaMemGetInfo(&free_bytes, &total_bytes));
  {
    size_t margin = 64u << 20, usable = free_bytes > margin ? (free_bytes - margin) / 10 * 9 : 0;
    batch = usable / per_run;
    if (batch < 1) {
      st = bb_fail(err, BB_ERR_GPU,
                   "hrc-da-portfolio: one run needs %zu bytes of GPU memory, GPU %d has %zu free after the lists",
                   per_run, o->device, free_bytes);
      goto done;
    }
    if (batch > (size_t)o->runs) batch = (size_t)o->runs;
    if (o->batch > 0 && batch > (size_t)o->batch) batch = (size_t)o->batch;
  }
  BB_CUDA_OR_DONE(cudaMalloc(&buf, batch * s.bytes));
  BB_CUDA_OR_DONE(cudaMalloc(&d_out, batch * sizeof *d_out));
  for (int first = 0; first < o->runs; first += (int)batch) {
    if (o->deadline > 0 && bb_now() > o->deadline) break;
    int count = o->runs - first < (int)batch ? o->runs - first : (int)batch, threads = 4;
    // Threads of one warp run different runs and diverge, so warps hold few of them and
    // many warps hide the memory's latency; blocks shrink further until they cover every
    // multiprocessor.
    while (threads > 1 && (count + threads - 1) / threads < sms) threads /= 2;
    double t0 = bb_now();
    hrc_da_runs_kernel<<<(count + threads - 1) / threads, threads>>>(dl.L, buf, s, first, count, o->seed, o->max_rounds,
                                                                     o->max_proposals, d_out);
    BB_CUDA_OR_DONE(cudaGetLastError());
    BB_CUDA_OR_DONE(cudaMemcpy(runs + first, d_out, (size_t)count * sizeof *d_out, cudaMemcpyDeviceToHost));
    double seconds = bb_now() - t0;
    int winner = -1;
    for (int j = 0; j < count; j++) {
      runs[first + j].seconds = seconds;
      if (winner < 0 || beats(&runs[first + j], first + j, &runs[first + winner], first + winner)) winner = j;
    }
    if (*best_run < 0 || beats(&runs[first + winner], first + winner, &runs[*best_run], *best_run)) {
      *best_run = first + winner;
      BB_CUDA_OR_DONE(cudaMemcpy(best, buf + (size_t)winner * s.bytes + s.best, (size_t)L->nr * sizeof *best,
                                 cudaMemcpyDeviceToHost));
    }
    if (all && L->nr > 0)
      BB_CUDA_OR_DONE(cudaMemcpy2D(all + (size_t)first * (size_t)L->nr, (size_t)L->nr * sizeof *all, buf + s.best,
                                   s.bytes, (size_t)L->nr * sizeof *all, (size_t)count, cudaMemcpyDeviceToHost));
  }
done:
  cudaFree(buf);
  cudaFree(d_out);
  release(&dl);
  return st;
}
