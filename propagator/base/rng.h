/* Internal: a small, fast, reproducible random number generator.
 *
 * xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number generators",
 * 2018) seeded through splitmix64. Streams are derived from (seed, stream id) by hashing,
 * so a generator can give every preference row its own stream and produce the same
 * instance whatever the number of threads. Not for cryptography. */
#ifndef BB_RNG_H
#define BB_RNG_H

#include <stdint.h>

#include "bb_common.h"

/* The same functions compile for the GPU (cuda/gpu_gen.cu draws the generators' rows on the
 * device, bit for bit as the host does: docs/generators.md, "On the GPU"). */
#ifdef __CUDACC__
#define BB_RNG_FN static inline __host__ __device__
#else
#define BB_RNG_FN static inline
#endif

typedef struct bb_rng {
  uint64_t s[4];
} bb_rng;

/* splitmix64 step: advances *state and returns a well-mixed 64-bit value. */
BB_RNG_FN uint64_t bb_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Seeds from a single 64-bit value. Every seed, 0 included, gives a non-zero state. */
BB_RNG_FN void bb_rng_seed(bb_rng *rng, uint64_t seed) {
  uint64_t sm = seed;
  for (int i = 0; i < 4; i++) rng->s[i] = bb_splitmix64(&sm);
  if (!(rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3])) rng->s[0] = 1;
}

/* Seeds stream `stream` of `seed`: distinct (seed, stream) pairs give unrelated states. */
BB_RNG_FN void bb_rng_seed_stream(bb_rng *rng, uint64_t seed, uint64_t stream) {
  uint64_t a = seed, b = stream ^ 0xD1B54A32D192ED03u;
  uint64_t h = bb_splitmix64(&a) ^ (bb_splitmix64(&b) * 0x9E3779B97F4A7C15u);
  bb_rng_seed(rng, h);
}

BB_RNG_FN uint64_t bb_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

BB_RNG_FN uint64_t bb_rng_next(bb_rng *rng) {
  uint64_t *s = rng->s;
  uint64_t result = bb_rng_rotl(s[1] * 5, 7) * 9;
  uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = bb_rng_rotl(s[3], 45);
  return result;
}

/* Uniform in [0, bound), 1 <= bound <= 2^32, without modulo bias (Lemire, "Fast random
 * integer generation in an interval", 2019: multiply, reject the short low fringe). */
BB_RNG_FN uint32_t bb_rng_below(bb_rng *rng, uint64_t bound) {
  uint64_t m = (bb_rng_next(rng) >> 32) * bound;
  uint32_t low = (uint32_t)m;
  if (low < bound) {
    uint32_t threshold = (uint32_t)((0x100000000u - bound) % bound); /* 2^32 mod bound */
    while (low < threshold) {
      m = (bb_rng_next(rng) >> 32) * bound;
      low = (uint32_t)m;
    }
  }
  return (uint32_t)(m >> 32);
}

/* Fisher-Yates: a uniformly random permutation of ids[0..len). */
BB_RNG_FN void bb_rng_shuffle(bb_rng *rng, bb_id *ids, size_t len) {
  for (size_t i = len; i > 1; i--) {
    size_t j = bb_rng_below(rng, i);
    bb_id tmp = ids[i - 1];
    ids[i - 1] = ids[j];
    ids[j] = tmp;
  }
}

#endif
