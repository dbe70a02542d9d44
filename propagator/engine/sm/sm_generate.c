/* Instance generators: the workloads of [Bamboo-SMP] section III-A (solo, congested,
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
#include "gen_rows.h"
#include "generate_families.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"

#define BB_GEN_KINDS(X)            \
  X(BB_GEN_PERFECT, "perfect")     \
  X(BB_GEN_SOLO, "solo")           \
  X(BB_GEN_CONGESTED, "congested") \
  X(BB_GEN_RANDOM, "random")       \
  X(BB_GEN_UNIFORM, "uniform")     \
  X(BB_GEN_LATIN, "latin")         \
  X(BB_GEN_IRVING_LEATHER, "irving-leather")

const char *bb_gen_kind_name(bb_gen_kind kind) {
  switch (kind) {
#define BB_KIND_CASE(id, name) \
  case id: return name;
    BB_GEN_KINDS(BB_KIND_CASE)
#undef BB_KIND_CASE
  }
  return "unknown";
}

bb_status bb_gen_parse_kind(const char *name, bb_gen_kind *kind, bb_error *err) {
  if (!name || !kind) return bb_fail(err, BB_ERR_ARG, "bb_gen_parse_kind: NULL argument");
#define BB_KIND_MATCH(id, text)  \
  if (strcmp(name, text) == 0) { \
    *kind = id;                  \
    return BB_OK;                \
  }
  BB_GEN_KINDS(BB_KIND_MATCH)
#undef BB_KIND_MATCH
  return bb_fail(err, BB_ERR_ARG,
                 "unknown generator '%s' (expected perfect, solo, congested, random, uniform, latin or "
                 "irving-leather)",
                 name);
}

typedef struct gen_ctx {
  const bb_gen_spec *spec;
  bb_instance *inst;
  int side;   /* generate_side: which side */
  bb_id *out; /* generate_side: its rows */
} gen_ctx;

static void random_permutation(bb_id *perm, int n, uint64_t seed, uint64_t stream) {
  bb_rng rng;
  bb_rng_seed_stream(&rng, seed, stream);
  bb_gen_identity(perm, n);
  bb_rng_shuffle(&rng, perm, (size_t)n);
}

static void invert(const bb_id *perm, bb_id *inverse, int n) {
  for (int i = 0; i < n; i++) inverse[perm[i]] = (bb_id)i;
}

bb_status bb_gen_spec_init(bb_gen_spec *spec, bb_gen_kind kind, int n, int group, uint64_t seed, bb_id *perms,
                           bb_error *err) {
  if (!spec) return bb_fail(err, BB_ERR_ARG, "bb_gen_spec_init: NULL spec");
  if (kind == BB_GEN_LATIN || kind == BB_GEN_IRVING_LEATHER)
    return bb_fail(err, BB_ERR_ARG, "the %s family is generated on the host only (not row by row, not on the GPU)",
                   bb_gen_kind_name(kind));
  if (kind < BB_GEN_PERFECT || kind > BB_GEN_UNIFORM)
    return bb_fail(err, BB_ERR_ARG, "bb_generate: unknown generator kind %d", (int)kind);
  if (n < 1 || n > BB_MAX_N) return bb_fail(err, BB_ERR_ARG, "n = %d is out of range (1..%d)", n, BB_MAX_N);
  if (kind == BB_GEN_RANDOM && (group < 1 || group > n))
    return bb_fail(err, BB_ERR_ARG, "group size %d is out of range (1..n = %d)", group, n);
  memset(spec, 0, sizeof *spec);
  spec->kind = kind;
  spec->n = n;
  spec->group = group;
  spec->seed = seed;
  if (bb_gen_perm_ids(kind, n) == 0) return BB_OK;
  if (!perms)
    return bb_fail(err, BB_ERR_ARG, "bb_gen_spec_init: %s needs 4n ids of permutations", bb_gen_kind_name(kind));
  if (kind == BB_GEN_PERFECT) {
    random_permutation(perms, n, seed, BB_GEN_STREAM_SIGMA);
    spec->sigma = perms;
  } else {
    bb_id *man_label = perms, *woman_label = perms + n;
    bb_id *man_of_label = perms + 2 * (size_t)n, *woman_of_label = perms + 3 * (size_t)n;
    random_permutation(man_label, n, seed, BB_GEN_STREAM_MEN_LABELS);
    random_permutation(woman_label, n, seed, BB_GEN_STREAM_WOMEN_LABELS);
    invert(man_label, man_of_label, n);
    invert(woman_label, woman_of_label, n);
    spec->man_label = man_label;
    spec->woman_label = woman_label;
    spec->man_of_label = man_of_label;
    spec->woman_of_label = woman_of_label;
  }
  return BB_OK;
}

void bb_gen_rows(const bb_gen_spec *spec, int women, int first, int count, bb_id *out) {
  for (int i = 0; i < count; i++) bb_gen_row(spec, women, first + i, out + (size_t)i * (size_t)spec->n);
}

static void generate_rows(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const gen_ctx *ctx = arg;
  int n = ctx->spec->n;
  for (int64_t r = begin; r < end; r++) {
    int women = r >= n;
    int who = (int)(women ? r - n : r);
    bb_id *row = (women ? ctx->inst->women_prefs : ctx->inst->men_prefs) + (size_t)who * (size_t)n;
    bb_gen_row(ctx->spec, women, who, row);
  }
}

static void generate_side_rows(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const gen_ctx *ctx = arg;
  bb_gen_rows(ctx->spec, ctx->side, (int)begin, (int)(end - begin), ctx->out + (size_t)begin * (size_t)ctx->spec->n);
}

/* Below a few thousand ids per thread, starting threads costs more than it saves. */
static int useful_threads(int threads, int64_t rows, int n) {
  if (threads == 0) threads = bb_cpu_count();
  int64_t useful = (rows * (int64_t)n) / 65536 + 1;
  if (threads > useful) threads = (int)useful;
  if (threads > rows) threads = (int)rows;
  return threads < 1 ? 1 : threads;
}

void bb_generate_side(const bb_gen_spec *spec, int women, int threads, bb_id *out) {
  gen_ctx ctx = {.spec = spec, .side = women ? 1 : 0, .out = out};
  bb_parallel_for(useful_threads(threads < 0 ? 0 : threads, spec->n, spec->n), spec->n, generate_side_rows, &ctx);
}

bb_status bb_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads, bb_instance **out,
                      bb_error *err) {
  if (!out) return bb_fail(err, BB_ERR_ARG, "bb_generate: NULL output");
  *out = NULL;
  if (kind < BB_GEN_PERFECT || kind > BB_GEN_IRVING_LEATHER)
    return bb_fail(err, BB_ERR_ARG, "bb_generate: unknown generator kind %d", (int)kind);
  if (n < 1 || n > BB_MAX_N) return bb_fail(err, BB_ERR_ARG, "n = %d is out of range (1..%d)", n, BB_MAX_N);
  if ((kind == BB_GEN_RANDOM || kind == BB_GEN_LATIN) && (group < 1 || group > n))
    return bb_fail(err, BB_ERR_ARG, "group size %d is out of range (1..n = %d)", group, n);
  if (threads < 0) return bb_fail(err, BB_ERR_ARG, "bb_generate: threads = %d < 0", threads);

  if (kind == BB_GEN_LATIN || kind == BB_GEN_IRVING_LEATHER) { /* sm_generate_families.c */
    bb_instance *inst = bb_instance_new(n, err);
    if (!inst) return BB_ERR_NOMEM; /* n is in range, so memory is what failed */
    bb_status st = bb_generate_family(kind, n, group, inst, err);
    if (st == BB_OK)
      *out = inst;
    else
      bb_instance_free(inst);
    return st;
  }
  bb_id *perms = NULL;
  if (bb_gen_perm_ids(kind, n) && !(perms = malloc(bb_gen_perm_ids(kind, n) * sizeof *perms)))
    return bb_fail(err, BB_ERR_NOMEM, "bb_generate: out of memory");
  bb_gen_spec spec;
  bb_status st = bb_gen_spec_init(&spec, kind, n, group, seed, perms, err);
  if (st != BB_OK) {
    free(perms);
    return st;
  }
  bb_instance *inst = bb_instance_new(n, err);
  if (!inst) {
    free(perms);
    return BB_ERR_NOMEM; /* n is in range, so memory is what failed */
  }
  gen_ctx ctx = {.spec = &spec, .inst = inst};

  int64_t rows = 2 * (int64_t)n;
  bb_parallel_for(useful_threads(threads, rows, n), rows, generate_rows, &ctx);

  free(perms);
  *out = inst;
  return BB_OK;
}
