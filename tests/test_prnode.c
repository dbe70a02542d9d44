/* The PRMatrix node formats (cuda/bb_gpu_prnode.h), on the CPU: the 40-bit node's
 * two planes give back every woman and rank below 2^20, its low plane is the 4-byte node
 * when both fit 16 bits (so the two formats agree where both hold n), distinct nodes never
 * share both planes; which format an n gets, and the environment that forces one. The
 * kernels use these very functions (gpu_prnode.cuh); test_gpu_scale runs them on a GPU. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdlib.h>

#include "bb_gpu_prnode.h"
#include "test_util.h"

static int round_trips(uint32_t w, uint32_t r) {
  uint32_t lo = bb_prnode40_lo(w, r);
  uint8_t hi = bb_prnode40_hi(w, r);
  return bb_prnode40_woman(lo, hi) == w && bb_prnode40_rank(lo, hi) == r;
}

static void packing(void) {
  /* Every value at a boundary of a field's halves, paired with every other. */
  static const uint32_t edge[] = {0,       1,       2,       0x7fff,  0x8000,  0xfffe,  0xffff, 0x10000,
                                  0x10001, 0x1ffff, 0x20000, 0x7ffff, 0x80000, 0xffffe, 0xfffff};
  size_t count = sizeof edge / sizeof *edge;
  for (size_t i = 0; i < count; i++)
    for (size_t j = 0; j < count; j++) CHECKF(round_trips(edge[i], edge[j]), "woman %#x rank %#x", edge[i], edge[j]);
  /* A million random pairs below 2^20. */
  uint64_t state = 21;
  for (int i = 0; i < 1000000; i++) {
    uint64_t x = tu_rand(&state);
    uint32_t w = (uint32_t)x & 0xfffff, r = (uint32_t)(x >> 32) & 0xfffff;
    if (!round_trips(w, r)) {
      CHECKF(0, "woman %#x rank %#x", w, r);
      break;
    }
  }
  /* Below 2^16 the high byte is 0 and the low word is the 4-byte node (woman << 16 | rank). */
  for (uint32_t w = 0; w < 65536; w += 257)
    for (uint32_t r = 0; r < 65536; r += 251) {
      if (bb_prnode40_hi(w, r) != 0 || bb_prnode40_lo(w, r) != ((w << 16) | r)) {
        CHECKF(0, "woman %u rank %u", w, r);
        return;
      }
    }
  /* Each nibble of the high byte is its field's bits 16-19, each half of the low word its bits
   * 0-15: changing one bit of one field changes exactly one bit of the pair of planes. */
  for (int bit = 0; bit < 20; bit++) {
    uint32_t w = 0x5a5a5 & 0xfffff, r = 0xa5a5a & 0xfffff;
    uint64_t a = bb_prnode40_lo(w, r) | (uint64_t)bb_prnode40_hi(w, r) << 32;
    uint64_t b = bb_prnode40_lo(w ^ (1u << bit), r) | (uint64_t)bb_prnode40_hi(w ^ (1u << bit), r) << 32;
    uint64_t c = bb_prnode40_lo(w, r ^ (1u << bit)) | (uint64_t)bb_prnode40_hi(w, r ^ (1u << bit)) << 32;
    CHECKF(__builtin_popcountll(a ^ b) == 1 && __builtin_popcountll(a ^ c) == 1 && (a ^ b) != (a ^ c), "bit %d", bit);
  }
}

static void formats(void) {
  CHECK(bb_prnode_bytes_narrowest(1) == 4 && bb_prnode_bytes_narrowest(65536) == 4);
  CHECK(bb_prnode_bytes_narrowest(65537) == 5 && bb_prnode_bytes_narrowest(1 << 20) == 5);
  CHECK(bb_prnode_bytes_narrowest((1 << 20) + 1) == 8 && bb_prnode_bytes_narrowest(BB_MAX_N) == 8);
  /* A format holds n when n - 1 fits each of its fields: 16, 20, 32 bits. */
  for (int bytes = 4; bytes <= 8; bytes += (bytes == 5 ? 3 : 1)) {
    int field = bytes == 4 ? 16 : bytes == 5 ? 20 : 31;
    int largest = bytes == 8 ? BB_MAX_N : 1 << field;
    CHECKF(bb_prnode_bytes_fits(bytes, largest) && (bytes == 8 || !bb_prnode_bytes_fits(bytes, largest + 1)),
           "%d bytes", bytes);
  }
  unsetenv("BAMBOO_GPU_WIDE_NODES");
  unsetenv("BAMBOO_GPU_NODE_BYTES");
  CHECK(bb_prnode_bytes_bamboo(1000) == 4 && bb_prnode_bytes_la_min(1000) == 8);
  CHECK(bb_prnode_bytes_bamboo(90000) == 5 && bb_prnode_bytes_la_min(90000) == 5);
  setenv("BAMBOO_GPU_NODE_BYTES", "5", 1);
  CHECK(bb_prnode_bytes_bamboo(1000) == 5 && bb_prnode_bytes_la_min(1000) == 5);
  CHECK(bb_prnode_bytes_bamboo(2000000) == 8); /* a forced format that cannot hold n gives way */
  setenv("BAMBOO_GPU_NODE_BYTES", "4", 1);
  CHECK(bb_prnode_bytes_la_min(1000) == 4 && bb_prnode_bytes_bamboo(70000) == 5);
  setenv("BAMBOO_GPU_NODE_BYTES", "8", 1);
  CHECK(bb_prnode_bytes_bamboo(10) == 8);
  setenv("BAMBOO_GPU_NODE_BYTES", "6", 1); /* no such format: the default */
  CHECK(bb_prnode_bytes_bamboo(10) == 4);
  unsetenv("BAMBOO_GPU_NODE_BYTES");
  setenv("BAMBOO_GPU_WIDE_NODES", "1", 1);
  CHECK(bb_prnode_bytes_bamboo(10) == 8 && bb_prnode_bytes_bamboo(90000) == 8);
  setenv("BAMBOO_GPU_NODE_BYTES", "5", 1); /* the newer variable wins */
  CHECK(bb_prnode_bytes_bamboo(10) == 5);
  unsetenv("BAMBOO_GPU_WIDE_NODES");
  unsetenv("BAMBOO_GPU_NODE_BYTES");
}

int main(void) {
  packing();
  formats();
  return tu_finish();
}
