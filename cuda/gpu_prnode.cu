// Reading PRMatrix nodes back to the host in any format (gpu_prnode.cuh): the CPU tail's row
// source, single-GPU (gpu_common.cu) and partitioned (gpu_multi.cu).
#include <string.h>

#include "gpu_internal.cuh" // bb_prnode through bb_gpu.h

template <typename Node>
static void decode(const typename Node::raw *src, bb_prnode *out, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    out[i].woman = Node::woman(src[i]);
    out[i].man_rank = Node::rank(src[i]);
  }
}

cudaError_t bb_gpu_fetch_nodes(const void *d_pr, size_t cells, int bytes, size_t index, uint32_t count, void *h_raw,
                               bb_prnode *out, cudaStream_t stream) {
  const char *base = (const char *)d_pr;
  cudaError_t e;
  if (bytes == 5) { // the low words, then the high bytes behind them in h_raw
    uint32_t *lo = (uint32_t *)h_raw;
    uint8_t *hi = (uint8_t *)h_raw + 4 * (size_t)count;
    e = cudaMemcpyAsync(lo, base + 4 * index, 4 * (size_t)count, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaMemcpyAsync(hi, base + 4 * cells + index, count, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) return e;
    for (uint32_t i = 0; i < count; i++) {
      out[i].woman = bb_prnode40_woman(lo[i], hi[i]);
      out[i].man_rank = bb_prnode40_rank(lo[i], hi[i]);
    }
    return cudaSuccess;
  }
  e = cudaMemcpyAsync(h_raw, base + (size_t)bytes * index, (size_t)bytes * count, cudaMemcpyDeviceToHost, stream);
  if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
  if (e != cudaSuccess) return e;
  if (bytes == 4)
    decode<PrNode32>((const uint32_t *)h_raw, out, count);
  else
    decode<PrNode64>((const unsigned long long *)h_raw, out, count);
  return cudaSuccess;
}
