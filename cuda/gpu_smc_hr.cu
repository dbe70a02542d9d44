// The native HR propagation's GPU engine (smc_hr_accel.h): the step of smc_hr_accel_steps.h as
// one kernel, one thread per resident, each running its chain of proposals with atomicMin on
// the hospitals' 64-bit slot words (the packed (rank, resident) words of cuda/gpu_hr.cu).
//
// Per constraint, on device 0: the lists and the slots' offsets, uploaded once. Per run:
//   alive bits + smallest values up -> slots to EMPTY -> propose -> slots down
// with one host synchronisation. Search threads take turns (smc_hr_accel.c's lock).
#include <stdlib.h>

#include "bb_gpu_device.h"
#include "gpu_internal.cuh"
#include "smc_hr_accel.h"
#include "smc_hr_accel_steps.h"

namespace {

const int kThreads = 256;

struct hr_engine {
  int nr;
  uint32_t alive_words, slots;
  uint32_t *d_res_start, *d_res_hosp, *d_res_pos, *d_hosp_start, *d_hosp_rank, *d_slot_start;
  uint32_t *d_alive, *d_start;
  unsigned long long *d_slot;
};

__global__ void propose_kernel(bb_smc_hr_accel_view v) {
  int r = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (r < v.nr) bb_smc_hr_accel_propose(&v, r);
}

bb_status upload(uint32_t **dev, const uint32_t *host, size_t count, const char *what, bb_error *err) {
  cudaError_t e = cudaMalloc((void **)dev, (count + 1) * sizeof(uint32_t));
  if (e != cudaSuccess) return bb_gpu_fail(err, e, what, __FILE__, __LINE__);
  if (host && count) BB_CUDA(cudaMemcpy(*dev, host, count * sizeof(uint32_t), cudaMemcpyHostToDevice));
  return BB_OK;
}

void hr_close(void *engine) {
  hr_engine *e = (hr_engine *)engine;
  if (!e) return;
  uint32_t *arrays[] = {e->d_res_start, e->d_res_hosp,   e->d_res_pos, e->d_hosp_start,
                        e->d_hosp_rank, e->d_slot_start, e->d_alive,   e->d_start};
  for (uint32_t *p : arrays)
    if (p) cudaFree(p);
  if (e->d_slot) cudaFree(e->d_slot);
  free(e);
}

bb_status hr_open_on(hr_engine *e, const bb_smc_hr_accel_lists *l, bb_error *err) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  BB_CUDA(cudaSetDevice(0));
  e->nr = l->nr;
  e->alive_words = l->res_entries / 32 + 1;
  e->slots = l->slots;
  bb_status st = BB_OK;
  if (st == BB_OK) st = upload(&e->d_res_start, l->res_start, (size_t)l->nr + 1, "cudaMalloc(res_start)", err);
  if (st == BB_OK) st = upload(&e->d_res_hosp, l->res_hosp, l->res_entries, "cudaMalloc(res_hosp)", err);
  if (st == BB_OK) st = upload(&e->d_res_pos, l->res_pos, l->res_entries, "cudaMalloc(res_pos)", err);
  if (st == BB_OK) st = upload(&e->d_hosp_start, l->hosp_start, (size_t)l->nh + 1, "cudaMalloc(hosp_start)", err);
  if (st == BB_OK) st = upload(&e->d_hosp_rank, l->hosp_rank, l->hosp_entries, "cudaMalloc(hosp_rank)", err);
  if (st == BB_OK) st = upload(&e->d_slot_start, l->slot_start, (size_t)l->nh + 1, "cudaMalloc(slot_start)", err);
  if (st == BB_OK) st = upload(&e->d_alive, NULL, e->alive_words, "cudaMalloc(alive)", err);
  if (st == BB_OK) st = upload(&e->d_start, NULL, (size_t)l->nr, "cudaMalloc(start)", err);
  if (st == BB_OK) {
    cudaError_t c = cudaMalloc((void **)&e->d_slot, ((size_t)l->slots + 1) * sizeof(unsigned long long));
    if (c != cudaSuccess) st = bb_gpu_fail(err, c, "cudaMalloc(slots)", __FILE__, __LINE__);
  }
  return st;
}

void *hr_open(const bb_smc_hr_accel_lists *l, bb_error *err) {
  hr_engine *e = (hr_engine *)calloc(1, sizeof *e);
  if (!e) {
    bb_fail(err, BB_ERR_NOMEM, "out of memory for the GPU engine");
    return NULL;
  }
  if (hr_open_on(e, l, err) != BB_OK) {
    hr_close(e);
    return NULL;
  }
  return e;
}

bb_status hr_propose(void *engine, const uint32_t *alive, const uint32_t *start, uint64_t *slots, bb_error *err) {
  hr_engine *e = (hr_engine *)engine;
  BB_CUDA(cudaSetDevice(0));
  BB_CUDA(cudaMemcpy(e->d_alive, alive, (size_t)e->alive_words * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (e->nr) BB_CUDA(cudaMemcpy(e->d_start, start, (size_t)e->nr * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (e->slots) BB_CUDA(cudaMemset(e->d_slot, 0xff, (size_t)e->slots * sizeof(unsigned long long)));
  if (e->nr) {
    bb_smc_hr_accel_view v = {e->nr,          e->d_res_start,  e->d_res_hosp, e->d_res_pos, e->d_hosp_start,
                              e->d_hosp_rank, e->d_slot_start, e->d_alive,    e->d_start,   e->d_slot};
    propose_kernel<<<(e->nr + kThreads - 1) / kThreads, kThreads>>>(v);
    BB_CUDA_LAUNCHED("propose_kernel (native HR)");
  }
  BB_CUDA(cudaDeviceSynchronize());
  if (e->slots)
    BB_CUDA(cudaMemcpy(slots, e->d_slot, (size_t)e->slots * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  return BB_OK;
}

const bb_smc_hr_accel_engine_ops gpu_ops = {"GPU", hr_open, hr_close, hr_propose};

} // namespace

extern "C" const bb_smc_hr_accel_engine_ops *bb_smc_hr_accel_gpu_ops(void) { return &gpu_ops; }
