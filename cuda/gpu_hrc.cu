// The HRC constraint's GPU engine (hrc_accel.h): the two steps of hrc_accel_steps.h as two
// kernels, one thread per list entry (the counts, atomicAdd), then one per hospital (the
// counts down its list).
//
// Per constraint, on device 0: the entry and slot tables, uploaded once. Per run:
//   alive bits + domain sizes up -> counts to 0 -> count -> prefix -> four arrays down
// with one host synchronisation. Search threads take turns (smc_hrc_accel.c's lock).
#include <stdlib.h>

#include "bb_gpu_device.h"
#include "gpu_internal.cuh"
#include "hrc_accel.h"
#include "hrc_accel_steps.h"

namespace {

const int kThreads = 256;

struct hrc_engine {
  int n_vars, nh;
  uint32_t entries, slots, alive_words;
  int32_t *d_e_s1, *d_e_s2, *d_slot_var, *d_asize;
  uint32_t *d_hosp_start, *d_alive;
  int32_t *d_poss, *d_poss_before, *d_sure_before, *d_sure_total;
};

__global__ void count_kernel(bb_smc_hrc_accel_view v) {
  uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < v.entries) bb_smc_hrc_accel_count_entry(&v, e);
}

__global__ void prefix_kernel(bb_smc_hrc_accel_view v) {
  int h = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (h < v.n_hospitals) bb_smc_hrc_accel_prefix(&v, h);
}

template <typename T>
bb_status upload(T **dev, const T *host, size_t count, const char *what, bb_error *err) {
  cudaError_t e = cudaMalloc((void **)dev, (count + 1) * sizeof(T));
  if (e != cudaSuccess) return bb_gpu_fail(err, e, what, __FILE__, __LINE__);
  if (host && count) BB_CUDA(cudaMemcpy(*dev, host, count * sizeof(T), cudaMemcpyHostToDevice));
  return BB_OK;
}

void hrc_close(void *engine) {
  hrc_engine *e = (hrc_engine *)engine;
  if (!e) return;
  void *arrays[] = {e->d_e_s1,  e->d_e_s2, e->d_slot_var,    e->d_asize,       e->d_hosp_start,
                    e->d_alive, e->d_poss, e->d_poss_before, e->d_sure_before, e->d_sure_total};
  for (void *p : arrays)
    if (p) cudaFree(p);
  free(e);
}

bb_status hrc_open_on(hrc_engine *e, const bb_smc_hrc_accel_lists *l, bb_error *err) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) return bb_fail(err, BB_ERR_NO_GPU, "%s", why);
  BB_CUDA(cudaSetDevice(0));
  e->n_vars = l->n_vars;
  e->nh = l->n_hospitals;
  e->entries = l->entries;
  e->slots = l->slots;
  e->alive_words = l->entries / 32 + 1;
  bb_status st = upload(&e->d_e_s1, l->e_s1, l->entries, "cudaMalloc(e_s1)", err);
  if (st == BB_OK) st = upload(&e->d_e_s2, l->e_s2, l->entries, "cudaMalloc(e_s2)", err);
  if (st == BB_OK)
    st = upload(&e->d_hosp_start, l->hosp_start, (size_t)l->n_hospitals + 1, "cudaMalloc(hosp_start)", err);
  if (st == BB_OK) st = upload(&e->d_slot_var, l->slot_var, l->slots, "cudaMalloc(slot_var)", err);
  if (st == BB_OK) st = upload(&e->d_asize, (const int32_t *)NULL, (size_t)l->n_vars, "cudaMalloc(asize)", err);
  if (st == BB_OK) st = upload(&e->d_alive, (const uint32_t *)NULL, e->alive_words, "cudaMalloc(alive)", err);
  if (st == BB_OK) st = upload(&e->d_poss, (const int32_t *)NULL, l->slots, "cudaMalloc(poss)", err);
  if (st == BB_OK) st = upload(&e->d_poss_before, (const int32_t *)NULL, l->slots, "cudaMalloc(poss_before)", err);
  if (st == BB_OK) st = upload(&e->d_sure_before, (const int32_t *)NULL, l->slots, "cudaMalloc(sure_before)", err);
  if (st == BB_OK)
    st = upload(&e->d_sure_total, (const int32_t *)NULL, (size_t)l->n_hospitals, "cudaMalloc(sure_total)", err);
  return st;
}

void *hrc_open(const bb_smc_hrc_accel_lists *l, bb_error *err) {
  hrc_engine *e = (hrc_engine *)calloc(1, sizeof *e);
  if (!e) {
    bb_fail(err, BB_ERR_NOMEM, "out of memory for the GPU engine");
    return NULL;
  }
  if (hrc_open_on(e, l, err) != BB_OK) {
    hrc_close(e);
    return NULL;
  }
  return e;
}

bb_status hrc_count(void *engine, const uint32_t *alive, const int32_t *asize, const bb_smc_hrc_accel_out *out,
                    bb_error *err) {
  hrc_engine *e = (hrc_engine *)engine;
  BB_CUDA(cudaSetDevice(0));
  BB_CUDA(cudaMemcpy(e->d_alive, alive, (size_t)e->alive_words * sizeof(uint32_t), cudaMemcpyHostToDevice));
  if (e->n_vars) BB_CUDA(cudaMemcpy(e->d_asize, asize, (size_t)e->n_vars * sizeof(int32_t), cudaMemcpyHostToDevice));
  if (e->slots) BB_CUDA(cudaMemset(e->d_poss, 0, (size_t)e->slots * sizeof(int32_t)));
  bb_smc_hrc_accel_view v = {e->entries,    e->nh,      e->d_e_s1, e->d_e_s2,        e->d_alive,       e->d_hosp_start,
                             e->d_slot_var, e->d_asize, e->d_poss, e->d_poss_before, e->d_sure_before, e->d_sure_total};
  if (e->entries) {
    count_kernel<<<(e->entries + kThreads - 1) / kThreads, kThreads>>>(v);
    BB_CUDA_LAUNCHED("count_kernel (HRC)");
  }
  if (e->nh) {
    prefix_kernel<<<(e->nh + kThreads - 1) / kThreads, kThreads>>>(v);
    BB_CUDA_LAUNCHED("prefix_kernel (HRC)");
  }
  BB_CUDA(cudaDeviceSynchronize());
  size_t slot_bytes = (size_t)e->slots * sizeof(int32_t);
  if (e->slots) {
    BB_CUDA(cudaMemcpy(out->poss, e->d_poss, slot_bytes, cudaMemcpyDeviceToHost));
    BB_CUDA(cudaMemcpy(out->poss_before, e->d_poss_before, slot_bytes, cudaMemcpyDeviceToHost));
    BB_CUDA(cudaMemcpy(out->sure_before, e->d_sure_before, slot_bytes, cudaMemcpyDeviceToHost));
  }
  if (e->nh)
    BB_CUDA(cudaMemcpy(out->sure_total, e->d_sure_total, (size_t)e->nh * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return BB_OK;
}

const bb_smc_hrc_accel_engine_ops gpu_ops = {"GPU", hrc_open, hrc_close, hrc_count};

} // namespace

extern "C" const bb_smc_hrc_accel_engine_ops *bb_smc_hrc_accel_gpu_ops(void) { return &gpu_ops; }
