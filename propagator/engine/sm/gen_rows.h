/* One preference row of the [Bamboo-SMP] workloads (generate.h), as a pure function of
 * (kind, n, group, seed, side, row) and the O(n) permutations of perfect and solo: the code
 * that bb_generate runs on the host and cuda/gpu_gen.cu runs on the GPU, so both give the
 * same rows bit for bit (docs/generators.md, "On the GPU").
 *
 * Every row draws from its own stream (seed, side << 32 | row) (rng.h), so any set of rows
 * can be generated alone, in any order, by any number of threads. Only the permutations
 * (sigma for perfect, the relabellings for solo) are drawn sequentially, once, on the host:
 * bb_gen_spec_init. */
#ifndef BB_GEN_ROWS_H
#define BB_GEN_ROWS_H

#include "generate.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/* Checks the arguments as bb_generate does and draws the permutations into `perms`
 * (4n ids, owned by the caller; NULL allowed for congested, random and uniform). */
bb_status bb_gen_spec_init(bb_gen_spec *spec, bb_gen_kind kind, int n, int group, uint64_t seed,
                           bb_id *perms, bb_error *err);

/* Rows first .. first + count - 1 of side `women` (0 men, 1 women) into out[count * n]. */
void bb_gen_rows(const bb_gen_spec *spec, int women, int first, int count, bb_id *out);

/* Every row of side `women` into out[n * n], on `threads` threads (0: all CPUs). solve
 * --gen-on gpu no longer holds a side on the host (it reads rows one at a time through
 * row_source.h); this stays for callers that want a whole side. */
void bb_generate_side(const bb_gen_spec *spec, int women, int threads, bb_id *out);

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
  case BB_GEN_IRVING_LEATHER: break; /* never here: bb_gen_spec_init refuses them (the host
                                        builds them whole: sm_generate_families.c) */
  }
}

#ifdef __cplusplus
}
#endif
#endif
