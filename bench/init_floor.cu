// The floor of bamboo's initialisation: the time to write one GPU's share of the PRMatrix once
// at memory bandwidth, in the engine's layout past n = 65,536 (a 32-bit and an 8-bit plane per
// node: 20-bit woman | 20-bit rank). The lists' generation is the other part of the floor;
// gen-bench times it. Together they are what the initialisation is measured against.
//   init-floor N [K]   one GPU's n^2 / K nodes (K partitions; default 1)
// Prints the seconds of cudaMemset over both planes and of a kernel that computes a node per
// index (a hash, so the compiler cannot fold it) and writes it, the better of three runs each.
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static __device__ __forceinline__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

__global__ void write_nodes(uint32_t *lo, uint8_t *hi, size_t nodes, uint32_t n) {
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < nodes; i += stride) {
    uint64_t h = mix(i);
    uint32_t woman = (uint32_t)(h % n), rank = (uint32_t)((h >> 32) % n);
    uint64_t node = (uint64_t)woman | (uint64_t)rank << 20;
    lo[i] = (uint32_t)node;
    hi[i] = (uint8_t)(node >> 32);
  }
}

#define CHECK(call)                                                                \
  do {                                                                             \
    cudaError_t e_ = (call);                                                       \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "init-floor: %s: %s\n", #call, cudaGetErrorString(e_));      \
      exit(e_ == cudaErrorNoDevice || e_ == cudaErrorInsufficientDriver ? 77 : 1); \
    }                                                                              \
  } while (0)

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: init-floor N [K]\n");
    return 2;
  }
  long n = atol(argv[1]), k = argc > 2 ? atol(argv[2]) : 1;
  if (n < 1 || n > (1 << 20) || k < 1) {
    fprintf(stderr, "init-floor: N in 1..1048576 and K >= 1\n");
    return 2;
  }
  size_t nodes = (size_t)n * (size_t)n / (size_t)k;
  uint32_t *lo;
  uint8_t *hi;
  CHECK(cudaMalloc(&lo, nodes * sizeof *lo));
  CHECK(cudaMalloc(&hi, nodes));
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float best_set = 1e30f, best_write = 1e30f, ms;
  int sms;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  for (int run = 0; run < 3; run++) {
    CHECK(cudaEventRecord(a));
    CHECK(cudaMemset(lo, 0, nodes * sizeof *lo));
    CHECK(cudaMemset(hi, 0, nodes));
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms < best_set) best_set = ms;
    CHECK(cudaEventRecord(a));
    write_nodes<<<sms * 8, 512>>>(lo, hi, nodes, (uint32_t)n);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (ms < best_write) best_write = ms;
  }
  double bytes = (double)nodes * 5;
  printf("n=%ld k=%ld nodes=%zu bytes=%.0f memset=%.3f s (%.0f GB/s) write-kernel=%.3f s (%.0f GB/s)\n", n, k, nodes,
         bytes, best_set / 1e3, bytes / (best_set / 1e3) / 1e9, best_write / 1e3, bytes / (best_write / 1e3) / 1e9);
  cudaFree(lo);
  cudaFree(hi);
  return 0;
}
