/* bamboo: the hybrid CPU/GPU engine of [Bamboo-SMP] Algorithm 2 (docs/references.md).
 *
 *  1. precheck (host): if every man's first choice is distinct, that is the man-optimal
 *     matching and nothing else runs (no transfer, no initialisation);
 *  2. initialisation (GPU): rank matrix and packed PRMatrix built on the device, staged
 *     (cuda/gpu_staged.cu) so that the lists never sit on the device beside both matrices;
 *  3. execution: the packed-word atomicMin kernel runs while this thread monitors the
 *     number of free men; once at most opts->tail_threshold are free the kernel parks
 *     them and the CPU continues the locality-aware loop from the GPU's partner ranks
 *     and next-proposal positions (no man restarts from rank 0). The PRMatrix stays on
 *     the GPU, so each man the CPU tail switches to costs one row copy over PCIe; in
 *     BB_TAIL_AUTO mode a chain that needs more than opts->tail_row_budget rows (the solo
 *     workload's one long chain) goes back to the GPU, where one block scans each row
 *     cooperatively, since a lone CPU thread walks such a chain slower (docs/engine.md);
 *  4. postprocessing: wife_of[] from husband[] (read once from the women's rows after the GPU
 *     phase: row_source.h).
 * Without a usable GPU, or when a CUDA call fails, the CPU's la-seq runs instead, with
 * a warning for failures (and a note under -v when there is simply no GPU).
 * With opts->gen_spec the staged build generates the lists on the GPU (cuda/gpu_gen.cu) and
 * the host may have no men's lists: no precheck then (the GPU's first round finds a perfect
 * case's matching anyway), and no la-seq fallback (it would need them). Nor need the host hold
 * the women's lists: the husbands the tail starts from, and those the GPU's tail changes, are
 * read from a row source (row_source.h) that regenerates each woman's row it needs. */
#include "algos.h"
#include "bb_gpu.h"
#include "bb_gpu_gen.h"
#include "gpu_args.h"
#include "memory_plan.h"
#include "row_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Step 1: if all first choices are distinct, fills wife_of and returns 1. */
static int precheck_perfect(const bb_instance *inst, bb_id *wife_of) {
  int n = inst->n;
  unsigned char *taken = calloc((size_t)n, 1);
  if (!taken) return 0; /* not fatal: the full algorithm will run */
  int perfect = 1;
  for (int m = 0; m < n && perfect; m++) {
    bb_id w = inst->men_prefs[(size_t)m * n];
    if (taken[w]) perfect = 0;
    taken[w] = 1;
    wife_of[m] = w;
  }
  free(taken);
  return perfect;
}

/* -v: the device memory measured at the peak, to hold against the memory plan. */
static void report_peak(const bb_gpu *gpu) {
  char text[BB_BYTES_TEXT];
  uint64_t peak = bb_gpu_measured_peak(gpu);
  fprintf(stderr, "bamboo: GPU memory measured at the peak: %s (%llu bytes, cudaMemGetInfo)\n",
          bb_bytes_text(text, peak), (unsigned long long)peak);
}

/* The memory plan decides whether the rank matrix fits beside the PRMatrix or comes in
 * blocks of women (memory_plan.h, rank_rows). */
static void choose_rank_rows(bb_gpu *gpu, int n, int device, const bb_solve_opts *opts) {
  /* Generated lists need no block of uploaded lists beside the rank rows. */
  bb_plan_request req = {.n = n,
                         .algo = "bamboo",
                         .devices = &device,
                         .device_count = 1,
                         .threads = opts->threads,
                         .gen_on_gpu = opts->gen_spec != NULL};
  bb_memory_plan plan;
  if (bb_memory_plan_for_run(&req, &plan, NULL) != BB_OK || !plan.rank_rows) return;
  bb_gpu_set_rank_rows(gpu, plan.rank_rows);
  if (opts->verbose)
    fprintf(stderr, "bamboo: the rank matrix is built in blocks of %d women beside the PRMatrix\n", plan.rank_rows);
}

/* Row source for the CPU tail: rows from the GPU, at most `budget` of them in auto mode. */
typedef struct tail_rows {
  bb_gpu *gpu;
  int budget; /* 0 = unlimited */
  int fetched;
  int handed_back; /* the budget ran out: `carried` is free and must go back to the GPU */
  bb_id carried;
} tail_rows;

static const bb_prnode *tail_row(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  tail_rows *rows = ctx;
  if (rows->budget && rows->fetched >= rows->budget) {
    rows->handed_back = 1;
    rows->carried = m;
    return NULL;
  }
  rows->fetched++;
  return bb_gpu_prrow(rows->gpu, m, from, err);
}

/* husband[] from the partner ranks (all women, or with `before` those whose rank moved): one
 * read each from the host lists, or each woman's row regenerated (--gen-on gpu). */
static bb_status read_husbands(const bb_row_source *src, bb_la_state *la, const uint32_t *before,
                               const bb_solve_opts *opts, bb_solve_stats *stats, bb_error *err) {
  double t = bb_now();
  bb_status st = bb_row_source_husbands(src, la->partner_rank, before, la->husband, opts->threads, err);
  t = bb_now() - t;
  stats->t_post += t;
  if (st == BB_OK && opts->verbose)
    fprintf(stderr, "bamboo: husbands read from the women's %s in %.1f ms\n",
            bb_row_source_generated(src, 1) ? "rows, regenerated" : "lists", t * 1e3);
  return st;
}

/* The GPU's tail after a hand-back: it moves women's partners, so their husbands are read
 * again (only the women whose partner rank changed). */
static bb_status gpu_tail(bb_gpu *gpu, const bb_row_source *src, const bb_solve_opts *opts, bb_la_state *la,
                          const bb_id *free_men, int count, bb_solve_stats *stats, bb_error *err) {
  size_t n = (size_t)la->n;
  uint32_t *before = malloc(n * sizeof *before);
  if (!before) return bb_fail(err, BB_ERR_NOMEM, "bamboo: out of memory for the tail's hand-back");
  memcpy(before, la->partner_rank, n * sizeof *before);
  bb_gpu_la gla = bb_gpu_la_of(la);
  bb_status st = bb_gpu_tail(gpu, &gla, free_men, count, err);
  if (st == BB_OK) st = read_husbands(src, la, before, opts, stats, err);
  free(before);
  return st;
}

/* The tail: the parked men continue on the CPU; a chain over budget finishes on the GPU
 * together with the men not yet started. */
static bb_status finish_tail(bb_gpu *gpu, const bb_row_source *src, const bb_solve_opts *opts, bb_la_state *la,
                             bb_id *free_men, int free_count, bb_solve_stats *stats, bb_error *err) {
  tail_rows rows = {.gpu = gpu, .budget = opts->tail_mode == BB_TAIL_AUTO ? opts->tail_row_budget : 0};
  bb_status st = BB_OK;
  int i = 0;
  for (; i < free_count && st == BB_OK; i++) st = bb_la_propose(la, tail_row, &rows, free_men[i], err);
  stats->proposals = la->proposals; /* the CPU tail's; the GPU does not count its own */
  if (st != BB_OK && rows.handed_back) {
    /* free_men[i - 1] started the chain now carried by rows.carried; men after it wait. */
    free_men[i - 1] = rows.carried;
    int rest = free_count - (i - 1);
    if (opts->verbose)
      fprintf(stderr, "bamboo: CPU tail used %d PRMatrix rows; %d free men go back to the GPU\n", rows.fetched, rest);
    st = gpu_tail(gpu, src, opts, la, free_men + i - 1, rest, stats, err);
    snprintf(stats->path, sizeof stats->path, "gpu+cpu-tail+gpu-scan (%d men, %d rows)", free_count, rows.fetched);
  } else if (st == BB_OK) {
    snprintf(stats->path, sizeof stats->path, "gpu+%s-tail (%d men)", opts->tail_mode == BB_TAIL_GPU ? "gpu" : "cpu",
             stats->tail_men);
  }
  return st;
}

static bb_status cpu_fallback(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                              bb_error *err, const char *reason, int warn) {
  if (warn)
    fprintf(stderr, "bamboo: warning: GPU path failed (%s); falling back to la-seq on the CPU\n", reason);
  else if (opts->verbose)
    fprintf(stderr, "bamboo: no usable GPU (%s); running la-seq on the CPU\n", reason);
  double precheck = stats->t_precheck;
  memset(stats, 0, sizeof *stats);
  stats->t_precheck = precheck;
  bb_status st = bb_la_seq(inst, opts, wife_of, stats, err);
  snprintf(stats->path, sizeof stats->path, "cpu la-seq (%s)", warn ? "GPU failed" : "no GPU");
  return st;
}

bb_status bb_bamboo(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                    bb_error *err) {
  int n = inst->n;
  const bb_gen_spec *gen_spec = opts->gen_spec;
  if (gen_spec && gen_spec->n != n)
    return bb_fail(err, BB_ERR_ARG, "bamboo: lists generated on the GPU need the spec's n (%d) = %d", gen_spec->n, n);
  if (!inst->men_prefs && !gen_spec) return bb_fail(err, BB_ERR_ARG, "bamboo: the instance has no men's lists");
  bb_row_source src;
  bb_status src_st = bb_row_source_init(&src, inst, gen_spec, err);
  if (src_st != BB_OK) return src_st;
  const char *staged = getenv("BAMBOO_GPU_STAGED");
  if (gen_spec && staged && *staged == '0' && opts->gpu_count <= 1)
    return bb_fail(err, BB_ERR_ARG,
                   "bamboo: lists generated on the GPU need the staged initialisation "
                   "(BAMBOO_GPU_STAGED=0 is set)");
  double t = bb_now();
  int perfect = inst->men_prefs && precheck_perfect(inst, wife_of);
  stats->t_precheck = bb_now() - t;
  if (perfect) {
    snprintf(stats->path, sizeof stats->path, "precheck (perfect case)");
    if (opts->verbose) fprintf(stderr, "bamboo: perfect case, first choices are the matching\n");
    return BB_OK;
  }

  char why[256];
  int device = opts->gpu_count > 0 && opts->gpus ? opts->gpus[0] : 0;
  if (!bb_gpu_probe(device, why, sizeof why)) {
    if (!inst->men_prefs) return bb_fail(err, BB_ERR_NO_GPU, "lists generated on the GPU need a usable GPU: %s", why);
    return cpu_fallback(inst, opts, wife_of, stats, err, why, 0);
  }
  if (opts->gpu_count > 1) return bb_bamboo_multi(inst, opts, wife_of, stats, err);

  bb_gpu *gpu = NULL;
  bb_gpu_gen *gen = NULL;
  bb_la_state la;
  bb_status la_ok = bb_la_state_init(&la, n, err);
  bb_id *free_men = malloc((size_t)n * sizeof *free_men);
  int free_count = 0;
  bb_status st = BB_OK;
  if (la_ok != BB_OK || !free_men) {
    st = bb_fail(err, BB_ERR_NOMEM, "bamboo: cannot allocate the matching state for n = %d", n);
    goto done;
  }
  /* BAMBOO_GPU_STAGED=0 keeps the earlier initialisation (all lists on the device first),
   * so the staged build can be compared with it (docs/engine.md). */
  bb_gpu_instance lists = bb_gpu_instance_of(inst); /* copied by the context */
  bb_gpu_opts gopts = bb_gpu_opts_of(opts);
  bb_gpu_stats gstats = bb_gpu_stats_of(stats);
  st = staged && *staged == '0' ? bb_gpu_open(device, &lists, &gpu, &gstats, err)
                                : bb_gpu_open_staged(device, &lists, &gpu, &gstats, err);
  if (st == BB_OK && !(staged && *staged == '0')) choose_rank_rows(gpu, n, device, opts);
  if (st == BB_OK && gen_spec) st = bb_gpu_gen_open(device, gen_spec, &gen, err);
  if (st == BB_OK && gen_spec) st = bb_gpu_set_generator(gpu, gen, err);
  if (st == BB_OK) {
    bb_gpu_la gla = bb_gpu_la_of(&la);
    st = bb_gpu_bamboo(gpu, &gopts, &gla, free_men, &free_count, &gstats, err);
  }
  bb_gpu_stats_back(&gstats, stats);
  if (st == BB_OK && opts->verbose) report_peak(gpu);
  if (st == BB_OK) st = read_husbands(&src, &la, NULL, opts, stats, err);
  if (st == BB_OK) {
    t = bb_now();
    if (opts->tail_mode != BB_TAIL_GPU) stats->tail_men = free_count;
    double post = stats->t_post; /* a hand-back's husbands are counted there, not twice */
    st = finish_tail(gpu, &src, opts, &la, free_men, free_count, stats, err);
    stats->t_solve += bb_now() - t - (stats->t_post - post);
  }
  if (st == BB_OK) {
    t = bb_now();
    bb_la_extract(&la, wife_of);
    stats->t_post += bb_now() - t;
    if (opts->verbose) fprintf(stderr, "bamboo: %s\n", stats->path);
  } else if ((st == BB_ERR_GPU || st == BB_ERR_NO_GPU) && inst->men_prefs) {
    char reason[sizeof err->msg];
    snprintf(reason, sizeof reason, "%s", err ? err->msg : "CUDA error");
    bb_gpu_close(gpu);
    gpu = NULL;
    st = cpu_fallback(inst, opts, wife_of, stats, err, reason, 1);
  }
done:
  bb_gpu_close(gpu); /* before the generator it points to */
  bb_gpu_gen_close(gen);
  bb_la_state_free(&la);
  free(free_men);
  return st;
}
