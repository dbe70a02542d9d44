// The [Bamboo-SMP] workloads generated on the GPU (bb_gpu_gen.h). One thread per row runs
// bb_gen_row (engine/sm/gen_rows.h), the very code of the host generator: every row has its
// own random stream (seed, side << 32 | row), so rows are independent and a device row equals
// the host row bit for bit. Only the O(n) permutations of perfect and solo are drawn on the
// host (bb_gen_spec_init) and copied here.
//
// Cost: each thread shuffles its row in place in global memory. random(g) with small g and
// congested touch their rows in order; uniform and perfect shuffle the whole row, one random
// read and write per id, so they run at the speed of scattered memory accesses (measured by
// bench/gen_device.sh).
#include <stdlib.h>

#include "bb_gpu_gen.h"
#include "gpu_internal.cuh"

struct bb_gpu_gen {
  int device;
  bb_gen_spec spec; // permutation pointers are device pointers
  bb_id *d_perms;   // 4n ids for perfect and solo, else NULL
};

__global__ void gen_rows_kernel(bb_gen_spec spec, int women, int first, int count, bb_id *__restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x)
    bb_gen_row(&spec, women, first + i, out + (size_t)i * (size_t)spec.n);
}

bb_status bb_gpu_gen_open(int device, const bb_gen_spec *spec, bb_gpu_gen **out, bb_error *err) {
  if (!spec || !out) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_open: NULL argument");
  *out = NULL;
  size_t perm_ids = bb_gen_perm_ids(spec->kind, spec->n);
  if (perm_ids && (spec->kind == BB_GEN_PERFECT
                       ? !spec->sigma
                       : !(spec->man_label && spec->woman_label && spec->man_of_label && spec->woman_of_label)))
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_open: the spec has no permutations (bb_gen_spec_init)");
  BB_CUDA(cudaSetDevice(device));
  bb_gpu_gen *gen = (bb_gpu_gen *)calloc(1, sizeof *gen);
  if (!gen) return bb_fail(err, BB_ERR_NOMEM, "bb_gpu_gen_open: out of host memory");
  gen->device = device;
  gen->spec = *spec;
  if (perm_ids) {
    size_t n = (size_t)spec->n;
    // Each permutation copied on its own: the spec may point anywhere.
    const bb_id *src[4] = {spec->sigma, NULL, NULL, NULL};
    if (spec->kind == BB_GEN_SOLO) {
      src[0] = spec->man_label;
      src[1] = spec->woman_label;
      src[2] = spec->man_of_label;
      src[3] = spec->woman_of_label;
    }
    cudaError_t e = cudaMalloc(&gen->d_perms, perm_ids * sizeof(bb_id));
    for (int k = 0; k < 4 && e == cudaSuccess; k++)
      if (src[k]) e = cudaMemcpy(gen->d_perms + k * n, src[k], n * sizeof(bb_id), cudaMemcpyHostToDevice);
    if (e != cudaSuccess) {
      bb_gpu_gen_close(gen);
      return bb_gpu_fail(err, e, "bb_gpu_gen_open: permutations", __FILE__, __LINE__);
    }
    if (spec->kind == BB_GEN_PERFECT) {
      gen->spec.sigma = gen->d_perms;
    } else {
      gen->spec.man_label = gen->d_perms;
      gen->spec.woman_label = gen->d_perms + n;
      gen->spec.man_of_label = gen->d_perms + 2 * n;
      gen->spec.woman_of_label = gen->d_perms + 3 * n;
    }
  }
  *out = gen;
  return BB_OK;
}

void bb_gpu_gen_close(bb_gpu_gen *gen) {
  if (!gen) return;
  if (gen->d_perms) {
    cudaSetDevice(gen->device);
    cudaFree(gen->d_perms);
  }
  free(gen);
}

bb_status bb_gpu_gen_launch(const bb_gpu_gen *gen, int women, int first, int count, bb_id *dev, cudaStream_t stream,
                            bb_error *err) {
  if (count <= 0) return BB_OK;
  if (first < 0 || first + count > gen->spec.n)
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen: rows %d..%d outside 0..%d", first, first + count - 1, gen->spec.n - 1);
  // One warp per block: a staged block holds few rows (671 at n = 100,000), each a long
  // sequential loop, so they are spread over as many SMs as possible.
  int threads = 32, blocks = (count + threads - 1) / threads;
  gen_rows_kernel<<<blocks, threads, 0, stream>>>(gen->spec, women ? 1 : 0, first, count, dev);
  BB_CUDA_LAUNCHED("gen_rows_kernel");
  return BB_OK;
}

bb_status bb_gpu_gen_to_host(bb_gpu_gen *gen, int women, int first, int count, bb_id *host_out, bb_error *err) {
  if (!gen || (!host_out && count > 0)) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_to_host: NULL argument");
  if (count <= 0) return BB_OK;
  BB_CUDA(cudaSetDevice(gen->device));
  size_t ids = (size_t)count * (size_t)gen->spec.n;
  bb_id *dev = NULL;
  BB_CUDA(cudaMalloc(&dev, ids * sizeof(bb_id)));
  bb_status st = bb_gpu_gen_launch(gen, women, first, count, dev, 0, err);
  cudaError_t e = cudaSuccess;
  if (st == BB_OK) e = cudaMemcpy(host_out, dev, ids * sizeof(bb_id), cudaMemcpyDeviceToHost);
  cudaFree(dev);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "bb_gpu_gen_to_host: copy", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_gen_time(bb_gpu_gen *gen, int women, int rows, double *seconds, bb_error *err) {
  if (!gen || !seconds || rows < 1) return bb_fail(err, BB_ERR_ARG, "bb_gpu_gen_time: bad argument");
  int n = gen->spec.n;
  if (rows > n) rows = n;
  BB_CUDA(cudaSetDevice(gen->device));
  bb_id *dev = NULL;
  BB_CUDA(cudaMalloc(&dev, (size_t)rows * (size_t)n * sizeof(bb_id)));
  BB_CUDA(cudaDeviceSynchronize());
  double t = bb_now();
  bb_status st = BB_OK;
  for (int first = 0; first < n && st == BB_OK; first += rows)
    st = bb_gpu_gen_launch(gen, women, first, n - first < rows ? n - first : rows, dev, 0, err);
  cudaError_t e = cudaDeviceSynchronize();
  *seconds = bb_now() - t;
  cudaFree(dev);
  if (st == BB_OK && e != cudaSuccess) st = bb_gpu_fail(err, e, "gen_rows_kernel", __FILE__, __LINE__);
  return st;
}

bb_status bb_gpu_set_generator(bb_gpu *g, bb_gpu_gen *gen, bb_error *err) {
  if (!g) return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: NULL context");
  if (gen && !g->staged) return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: not a staged context");
  if (gen && (gen->device != g->device || gen->spec.n != g->n))
    return bb_fail(err, BB_ERR_ARG, "bb_gpu_set_generator: generator for n = %d on device %d, context n = %d on %d",
                   gen->spec.n, gen->device, g->n, g->device);
  g->gen = gen;
  return BB_OK;
}
