/* Instance generators: the workloads of seed 000 section III-A (solo, congested,
 * random) plus the perfect case and uniformly random lists. docs/generators.md has the
 * same definitions with examples.
 *
 *   random(g)  The ids of the other side are cut into consecutive groups of g ids
 *              {0..g-1}, {g..2g-1}, ... (the last one may be smaller). Every list takes
 *              the groups in that order, each group's ids shuffled independently per
 *              list. Both sides are built this way.
 *   congested  random(1): every list is 0, 1, ..., n-1 (n(n+1)/2 proposals).
 *   uniform    random(n): independent uniformly random permutations.
 *   perfect    sigma is a random permutation; man m's list is sigma(m) followed by the
 *              other women in uniformly random order; women's lists are uniform. The
 *              man-optimal matching is m -> sigma(m), found in the first round.
 *   solo       c = n-1 "cycle" men and women 0..c-1, the intruder man c and the last
 *              woman c. Man i < c: i, i+1, ..., c-1, 0, ..., i-1 (cyclic), then c.
 *              Intruder: 0, 1, ..., c. Woman 1 <= j < c: man (j+1) mod c, man j, then
 *              every other man in increasing order. Woman 0: the intruder, man 1, man 0,
 *              then 2, ..., c-1. Woman c: 0, 1, ..., c. In round one only man 0 is
 *              rejected (woman 0 keeps the intruder). Man 0 is rejected by women
 *              1..c-2 (each holds her second choice, man j, and ranks man 0 lower) and
 *              accepted by woman c-1, whose first choice he is; she drops man c-1, who
 *              walks 0, 1, ..., c-3 in vain and displaces man c-2 from woman c-2, and so
 *              on down to man 1, who ends with woman c. One man is free at a time and
 *              the run makes exactly 2n - 1 + (n-2)^2 proposals for n >= 3 (n = 10: 83,
 *              the paper's Figure 2 example has n^2 - (n-1)). Finally men and women are
 *              relabelled by two random permutations so that ids carry no structure.
 *
 * Reproducibility: preference row r of side s draws from its own stream (seed, s, r),
 * and the global permutations from streams of their own, so the instance does not
 * depend on the thread count. */
#include "generate.h"
#include "generate_families.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "rng.h"

#define BB_GEN_KINDS(X)                                                                            \
  X(BB_GEN_PERFECT, "perfect")                                                                     \
  X(BB_GEN_SOLO, "solo")                                                                           \
  X(BB_GEN_CONGESTED, "congested")                                                                 \
  X(BB_GEN_RANDOM, "random")                                                                       \
  X(BB_GEN_UNIFORM, "uniform")                                                                     \
  X(BB_GEN_LATIN, "latin")                                                                         \
  X(BB_GEN_IRVING_LEATHER, "irving-leather")

const char *bb_gen_kind_name(bb_gen_kind kind) {
  switch (kind) {
#define BB_KIND_CASE(id, name)                                                                     \
  case id: return name;
    BB_GEN_KINDS(BB_KIND_CASE)
#undef BB_KIND_CASE
  }
  return "unknown";
}

bb_status bb_gen_parse_kind(const char *name, bb_gen_kind *kind, bb_error *err) {
  if (!name || !kind) return bb_fail(err, BB_ERR_ARG, "bb_gen_parse_kind: NULL argument");
#define BB_KIND_MATCH(id, text)                                                                    \
  if (strcmp(name, text) == 0) {                                                                   \
    *kind = id;                                                                                    \
    return BB_OK;                                                                                  \
  }
  BB_GEN_KINDS(BB_KIND_MATCH)
#undef BB_KIND_MATCH
  return bb_fail(err, BB_ERR_ARG,
                 "unknown generator '%s' (expected perfect, solo, congested, random, uniform, latin or "
                 "irving-leather)",
                 name);
}

/* Stream ids: rows use (side << 32) | row with side 0 (men) or 1 (women). */
#define STREAM_SIGMA (2ull << 32)
#define STREAM_MEN_LABELS (3ull << 32)
#define STREAM_WOMEN_LABELS (4ull << 32)

typedef struct gen_ctx {
  bb_gen_kind kind;
  int n;
  int group;
  uint64_t seed;
  bb_instance *inst;
  const bb_id *sigma;                         /* perfect: man m's first choice */
  const bb_id *man_label, *woman_label;       /* solo: old id -> new id */
  const bb_id *man_of_label, *woman_of_label; /* solo: new id -> old id */
} gen_ctx;

static void fill_identity(bb_id *row, int n) {
  for (int k = 0; k < n; k++) row[k] = (bb_id)k;
}

static void random_permutation(bb_id *perm, int n, uint64_t seed, uint64_t stream) {
  bb_rng rng;
  bb_rng_seed_stream(&rng, seed, stream);
  fill_identity(perm, n);
  bb_rng_shuffle(&rng, perm, (size_t)n);
}

static void grouped_row(bb_id *row, int n, int group, bb_rng *rng) {
  fill_identity(row, n);
  if (group <= 1) return;
  for (int start = 0; start < n; start += group) {
    int len = n - start < group ? n - start : group;
    bb_rng_shuffle(rng, row + start, (size_t)len);
  }
}

/* Solo, before relabelling (c = n - 1; see the comment at the top). */
static void solo_man_row(bb_id *row, int c, int i) {
  if (i == c) {
    fill_identity(row, c + 1);
    return;
  }
  for (int k = 0; k < c; k++) row[k] = (bb_id)((i + k) % c);
  row[c] = (bb_id)c;
}

static void solo_woman_row(bb_id *row, int c, int j) {
  int len = 0, first = -1, second = -1;
  if (j == c) {
    fill_identity(row, c + 1);
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

static void generate_rows(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const gen_ctx *ctx = arg;
  int n = ctx->n;
  for (int64_t r = begin; r < end; r++) {
    int women = r >= n;
    int who = (int)(women ? r - n : r);
    bb_id *row = (women ? ctx->inst->women_prefs : ctx->inst->men_prefs) + (size_t)who * (size_t)n;
    bb_rng rng;
    bb_rng_seed_stream(&rng, ctx->seed, ((uint64_t)women << 32) | (uint64_t)who);
    switch (ctx->kind) {
    case BB_GEN_CONGESTED: fill_identity(row, n); break;
    case BB_GEN_UNIFORM: grouped_row(row, n, n, &rng); break;
    case BB_GEN_RANDOM: grouped_row(row, n, ctx->group, &rng); break;
    case BB_GEN_PERFECT:
      if (women) {
        grouped_row(row, n, n, &rng);
      } else {
        bb_id top = ctx->sigma[who];
        fill_identity(row, n);
        row[top] = 0;
        row[0] = top;
        bb_rng_shuffle(&rng, row + 1, (size_t)n - 1);
      }
      break;
    case BB_GEN_SOLO: {
      const bb_id *old_of = women ? ctx->woman_of_label : ctx->man_of_label;
      const bb_id *label = women ? ctx->man_label : ctx->woman_label;
      if (women)
        solo_woman_row(row, n - 1, (int)old_of[who]);
      else
        solo_man_row(row, n - 1, (int)old_of[who]);
      for (int k = 0; k < n; k++) row[k] = label[row[k]];
      break;
    }
    case BB_GEN_LATIN:
    case BB_GEN_IRVING_LEATHER: break; /* never here: sm_generate_families.c */
    }
  }
}

static void invert(const bb_id *perm, bb_id *inverse, int n) {
  for (int i = 0; i < n; i++) inverse[perm[i]] = (bb_id)i;
}

bb_status bb_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads,
                      bb_instance **out, bb_error *err) {
  if (!out) return bb_fail(err, BB_ERR_ARG, "bb_generate: NULL output");
  *out = NULL;
  if (kind < BB_GEN_PERFECT || kind > BB_GEN_IRVING_LEATHER)
    return bb_fail(err, BB_ERR_ARG, "bb_generate: unknown generator kind %d", (int)kind);
  if (n < 1 || n > BB_MAX_N)
    return bb_fail(err, BB_ERR_ARG, "n = %d is out of range (1..%d)", n, BB_MAX_N);
  if ((kind == BB_GEN_RANDOM || kind == BB_GEN_LATIN) && (group < 1 || group > n))
    return bb_fail(err, BB_ERR_ARG, "group size %d is out of range (1..n = %d)", group, n);
  if (threads < 0) return bb_fail(err, BB_ERR_ARG, "bb_generate: threads = %d < 0", threads);

  bb_instance *inst = bb_instance_new(n, err);
  if (!inst) return BB_ERR_NOMEM; /* n is in range, so memory is what failed */

  if (kind == BB_GEN_LATIN || kind == BB_GEN_IRVING_LEATHER) { /* sm_generate_families.c */
    bb_status st = bb_generate_family(kind, n, group, inst, err);
    if (st == BB_OK) *out = inst; else bb_instance_free(inst);
    return st;
  }
  gen_ctx ctx = {.kind = kind, .n = n, .group = group, .seed = seed, .inst = inst};
  bb_id *perms = NULL;
  if (kind == BB_GEN_PERFECT || kind == BB_GEN_SOLO) {
    perms = malloc(4 * (size_t)n * sizeof *perms);
    if (!perms) {
      bb_instance_free(inst);
      return bb_fail(err, BB_ERR_NOMEM, "bb_generate: out of memory");
    }
    if (kind == BB_GEN_PERFECT) {
      random_permutation(perms, n, seed, STREAM_SIGMA);
      ctx.sigma = perms;
    } else {
      bb_id *man_label = perms, *woman_label = perms + n;
      bb_id *man_of_label = perms + 2 * (size_t)n, *woman_of_label = perms + 3 * (size_t)n;
      random_permutation(man_label, n, seed, STREAM_MEN_LABELS);
      random_permutation(woman_label, n, seed, STREAM_WOMEN_LABELS);
      invert(man_label, man_of_label, n);
      invert(woman_label, woman_of_label, n);
      ctx.man_label = man_label;
      ctx.woman_label = woman_label;
      ctx.man_of_label = man_of_label;
      ctx.woman_of_label = woman_of_label;
    }
  }

  int64_t rows = 2 * (int64_t)n;
  if (threads == 0) threads = bb_cpu_count();
  /* Below a few thousand ids per thread, starting threads costs more than it saves. */
  int64_t useful = (rows * (int64_t)n) / 65536 + 1;
  if (threads > useful) threads = (int)useful;
  if (threads > rows) threads = (int)rows;
  bb_parallel_for(threads, rows, generate_rows, &ctx);

  free(perms);
  *out = inst;
  return BB_OK;
}
