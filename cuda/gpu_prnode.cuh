// Internal to cuda/: the PRMatrix node formats as kernel template arguments (the formats and
// the 40-bit arithmetic: bb_gpu_prnode.h). A Node has
//   raw               the node in a register;
//   make/woman/rank   packing and unpacking;
//   plane             where a matrix (or one row of it) lives, passed to kernels by value:
//                     ld(i) reads node i through the read-only cache (kernels that only read
//                     the PRMatrix), get/put read and write it (kernels that build it),
//                     shift(off) is the plane from node off on (a row);
//   at(base, cells)   the plane of a matrix of `cells` nodes allocated at base
//                     (cells * bytes bytes).
// Every kernel that touches the PRMatrix goes through plane, so a format is one struct here
// and one case of bb_gpu_with_node below.
#ifndef BB_GPU_PRNODE_CUH
#define BB_GPU_PRNODE_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "bb_gpu_prnode.h"

struct PrNode32 { // n <= 65536: woman in the high half, rank in the low half
  typedef uint32_t raw;
  static __host__ __device__ __forceinline__ raw make(uint32_t w, uint32_t r) { return (w << 16) | r; }
  static __host__ __device__ __forceinline__ uint32_t woman(raw x) { return x >> 16; }
  static __host__ __device__ __forceinline__ uint32_t rank(raw x) { return x & 0xffffu; }
  struct plane {
    uint32_t *p;
    __device__ __forceinline__ raw ld(size_t i) const { return __ldg(p + i); }
    __device__ __forceinline__ raw get(size_t i) const { return p[i]; }
    __device__ __forceinline__ void put(size_t i, raw x) const { p[i] = x; }
    __host__ __device__ __forceinline__ plane shift(size_t off) const { return plane{p + off}; }
  };
  static __host__ __device__ __forceinline__ plane at(void *base, size_t cells) {
    (void)cells;
    return plane{(uint32_t *)base};
  }
};

struct PrNode64 { // any n: [Bamboo-SMP]'s two 32-bit words
  typedef unsigned long long raw;
  static __host__ __device__ __forceinline__ raw make(uint32_t w, uint32_t r) {
    return ((unsigned long long)w << 32) | r;
  }
  static __host__ __device__ __forceinline__ uint32_t woman(raw x) { return (uint32_t)(x >> 32); }
  static __host__ __device__ __forceinline__ uint32_t rank(raw x) { return (uint32_t)x; }
  struct plane {
    unsigned long long *p;
    __device__ __forceinline__ raw ld(size_t i) const { return __ldg(p + i); }
    __device__ __forceinline__ raw get(size_t i) const { return p[i]; }
    __device__ __forceinline__ void put(size_t i, raw x) const { p[i] = x; }
    __host__ __device__ __forceinline__ plane shift(size_t off) const { return plane{p + off}; }
  };
  static __host__ __device__ __forceinline__ plane at(void *base, size_t cells) {
    (void)cells;
    return plane{(unsigned long long *)base};
  }
};

// n <= 1,048,576: 40 bits in two planes (bb_gpu_prnode.h). In a register the node is the low
// word in bits 0-31 and the high byte in bits 32-39. A read is two loads (a 4-byte and a
// 1-byte one, both aligned; along a row both coalesce); writes of neighbouring bytes by
// different threads do not interfere (byte stores are independent on the device).
struct PrNode40 {
  typedef unsigned long long raw;
  static __host__ __device__ __forceinline__ raw make(uint32_t w, uint32_t r) {
    return (unsigned long long)bb_prnode40_lo(w, r) | ((unsigned long long)bb_prnode40_hi(w, r) << 32);
  }
  static __host__ __device__ __forceinline__ uint32_t woman(raw x) {
    return bb_prnode40_woman((uint32_t)x, (uint8_t)(x >> 32));
  }
  static __host__ __device__ __forceinline__ uint32_t rank(raw x) {
    return bb_prnode40_rank((uint32_t)x, (uint8_t)(x >> 32));
  }
  struct plane {
    uint32_t *lo;
    uint8_t *hi;
    __device__ __forceinline__ raw ld(size_t i) const {
      return (unsigned long long)__ldg(lo + i) | ((unsigned long long)__ldg(hi + i) << 32);
    }
    __device__ __forceinline__ raw get(size_t i) const {
      return (unsigned long long)lo[i] | ((unsigned long long)hi[i] << 32);
    }
    __device__ __forceinline__ void put(size_t i, raw x) const {
      lo[i] = (uint32_t)x;
      hi[i] = (uint8_t)(x >> 32);
    }
    __host__ __device__ __forceinline__ plane shift(size_t off) const { return plane{lo + off, hi + off}; }
  };
  static __host__ __device__ __forceinline__ plane at(void *base, size_t cells) {
    return plane{(uint32_t *)base, (uint8_t *)base + 4 * cells};
  }
};

// Calls f(Node()) for the format of `bytes` (4, 5 or 8): the one place a byte count becomes a
// kernel's template argument. Call sites pass a generic lambda, [&](auto node) { using Node =
// decltype(node); kernel<Node><<<...>>>(...); }.
template <typename F>
static void bb_gpu_with_node(int bytes, F &&f) {
  if (bytes == 4)
    f(PrNode32());
  else if (bytes == 5)
    f(PrNode40());
  else
    f(PrNode64());
}

// Copies nodes index .. index + count - 1 of a matrix of `cells` nodes in format `bytes` at
// d_pr (device) into h_raw (host, at least count * bytes; pinned for speed) and decodes them
// into out[0 .. count - 1], stream-ordered on `stream` and waited for (gpu_common.cu).
struct bb_prnode;
cudaError_t bb_gpu_fetch_nodes(const void *d_pr, size_t cells, int bytes, size_t index, uint32_t count, void *h_raw,
                               struct bb_prnode *out, cudaStream_t stream);

#endif
