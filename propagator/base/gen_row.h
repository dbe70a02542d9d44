/* One preference row of the [Bamboo-SMP] workloads as a pure function of (kind, n, group, seed,
 * side, row) and the O(n) permutations of perfect and solo: the code that the engine's
 * generator (engine/sm/gen_rows.h) runs on the host and cuda/gpu_gen.cu runs on the GPU, so both
 * give the same rows bit for bit (docs/generators.md, "On the GPU"). Here, beside rng.h, because
 * both sides compile it and cuda/ includes no engine header.
 *
 * Every row draws from its own stream (seed, side << 32 | row) (rng.h), so any set of rows
 * can be generated alone, in any order, by any number of threads. */
#ifndef BB_GEN_ROW_H
#define BB_GEN_ROW_H

#include "bb_common.h"
#include "rng.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_gen_kind {
  BB_GEN_PERFECT,       /* distinct first choices: the first round is the answer */
  BB_GEN_SOLO,          /* one collision, then one long sequential rejection chain */
  BB_GEN_CONGESTED,     /* every list is 0,1,..,n-1 (random with group size 1) */
  BB_GEN_RANDOM,        /* shared group order, shuffled within groups of size g */
  BB_GEN_UNIFORM,       /* independent uniformly random lists (random with g = n) */
  BB_GEN_LATIN,         /* group-table lists, radix g: many stable matchings */
  BB_GEN_IRVING_LEATHER /* n = 2^k: Irving and Leather's family (latin with g = 2) */
} bb_gen_kind;

/* Stream ids: rows use (side << 32) | row with side 0 (men) or 1 (women). */
#define BB_GEN_STREAM_SIGMA (2ull << 32)
#define BB_GEN_STREAM_MEN_LABELS (3ull << 32)
#define BB_GEN_STREAM_WOMEN_LABELS (4ull << 32)

/* What a row needs. The permutation pointers are host pointers for bb_gen_row on the host and
 * device pointers inside cuda/gpu_gen.cu; unused ones are NULL. */
typedef struct bb_gen_spec {
  bb_gen_kind kind;
  int n;
  int group; /* random only */
  uint64_t seed;
  const bb_id *sigma;                         /* perfect: man m's first choice */
  const bb_id *man_label, *woman_label;       /* solo: old id -> new id */
  const bb_id *man_of_label, *woman_of_label; /* solo: new id -> old id */
} bb_gen_spec;

#ifdef __CUDACC__
#define BB_GEN_FN static inline __host__ __device__
#else
#define BB_GEN_FN static inline
#endif

/* Ids per spec's permutations: 4n for perfect and solo, 0 otherwise (inline: cuda/gpu_gen.cu
 * asks too, and links nothing of the engine). */
BB_GEN_FN size_t bb_gen_perm_ids(bb_gen_kind kind, int n) {
  return kind == BB_GEN_PERFECT || kind == BB_GEN_SOLO ? 4 * (size_t)n : 0;
}

BB_GEN_FN void bb_gen_identity(bb_id *row, int n) {
  for (int k = 0; k < n; k++) row[k] = (bb_id)k;
}

BB_GEN_FN void bb_gen_grouped_row(bb_id *row, int n, int group, bb_rng *rng) {
  bb_gen_identity(row, n);
  if (group <= 1) return;
  for (int start = 0; start < n; start += group) {
    int len = n - start < group ? n - start : group;
    bb_rng_shuffle(rng, row + start, (size_t)len);
  }
}

/* Solo, before relabelling (c = n - 1; sm_generate.c and docs/generators.md). */
BB_GEN_FN void bb_gen_solo_man_row(bb_id *row, int c, int i) {
  if (i == c) {
    bb_gen_identity(row, c + 1);
    return;
  }
  for (int k = 0; k < c; k++) row[k] = (bb_id)((i + k) % c);
  row[c] = (bb_id)c;
}

BB_GEN_FN void bb_gen_solo_woman_row(bb_id *row, int c, int j) {
  int len = 0, first = -1, second = -1;
  if (j == c) {
    bb_gen_identity(row, c + 1);
    return;
  }
  if (j == 0) {
    row[len++] = (bb_id)c;
    if (c >= 2) row[len++] = 1;
    row[len++] = 0;
    for (int m = 2; m < c; m++) row[len++] = (bb_id)m;
    return;
  }
  first = (j + 1) % c;
  second = j;
  row[len++] = (bb_id)first;
  row[len++] = (bb_id)second;
  for (int m = 0; m <= c; m++)
    if (m != first && m != second) row[len++] = (bb_id)m;
}

/* Row `who` of side `women` into row[0..n). */
BB_GEN_FN void bb_gen_row(const bb_gen_spec *spec, int women, int who, bb_id *row) {
  int n = spec->n;
  bb_rng rng;
  bb_rng_seed_stream(&rng, spec->seed, ((uint64_t)women << 32) | (uint64_t)who);
  switch (spec->kind) {
    case BB_GEN_CONGESTED: bb_gen_identity(row, n); break;
    case BB_GEN_UNIFORM: bb_gen_grouped_row(row, n, n, &rng); break;
    case BB_GEN_RANDOM: bb_gen_grouped_row(row, n, spec->group, &rng); break;
    case BB_GEN_PERFECT:
      if (women) {
        bb_gen_grouped_row(row, n, n, &rng);
      } else {
        bb_id top = spec->sigma[who];
        bb_gen_identity(row, n);
        row[top] = 0;
        row[0] = top;
        bb_rng_shuffle(&rng, row + 1, (size_t)n - 1);
      }
      break;
    case BB_GEN_SOLO: {
      const bb_id *old_of = women ? spec->woman_of_label : spec->man_of_label;
      const bb_id *label = women ? spec->man_label : spec->woman_label;
      if (women)
        bb_gen_solo_woman_row(row, n - 1, (int)old_of[who]);
      else
        bb_gen_solo_man_row(row, n - 1, (int)old_of[who]);
      for (int k = 0; k < n; k++) row[k] = label[row[k]];
      break;
    }
    case BB_GEN_LATIN:
    case BB_GEN_IRVING_LEATHER:
      break; /* never here: bb_gen_spec_init refuses them (the host
                                        builds them whole: sm_generate_families.c) */
  }
}

#ifdef __cplusplus
}
#endif
#endif
