/* bamboo and gpu-la-min over a device list (opts->gpus with two entries or more; [Bamboo-SMP]
 * section V-C): the participants are partitioned by id over the listed devices
 * (cuda/bb_gpu_multi.h), the GPU phase runs on every partition at once, and bamboo's CPU
 * tail is unchanged, reading the rows it needs from the partition that holds them. bamboo
 * builds the partitions staged (each device holds only its men's PRMatrix rows, the rank
 * matrix taken in the blocks the memory plan chooses); BAMBOO_GPU_STAGED=0 keeps the
 * unstaged layout, for comparison. With
 * opts->gen_spec (solve --gen-on gpu --gpus) each partition generates its rows on its device
 * and the host holds no lists: the husbands come from regenerated women's rows (row_source.h),
 * as on one GPU (sm_bamboo.c). A failure
 * of the partitioned path (a missing peer access above all) is an error, not a silent
 * fallback: the user asked for these devices. */
#include "algos.h"
#include "bb_gpu_multi.h"
#include "bb_gpu_prnode.h"
#include "gpu_args.h"
#include "row_source.h"

#include "memory_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The memory plan's blocks of women for the staged partitions (what fits beside each
 * device's PRMatrix rows); -v prints them. */
static int part_rank_rows(int n, const bb_solve_opts *opts) {
  bb_plan_request req = {.n = n,
                         .algo = "bamboo",
                         .devices = opts->gpus,
                         .device_count = opts->gpu_count,
                         .threads = opts->threads,
                         .gen_on_gpu = opts->gen_spec != NULL};
  bb_memory_plan plan;
  int rows = bb_memory_plan_for_run(&req, &plan, NULL) == BB_OK ? plan.rank_rows : 0;
  if (rows < 1) rows = n;
  if (opts->verbose) fprintf(stderr, "bamboo: each partition takes the rank matrix in blocks of %d women\n", rows);
  return rows;
}

static void report_peaks(const bb_gpu_multi *mg, const bb_solve_opts *opts) {
  for (int i = 0; i < opts->gpu_count; i++) {
    int seen = 0;
    for (int j = 0; j < i; j++) seen |= opts->gpus[j] == opts->gpus[i];
    if (seen) continue;
    char text[BB_BYTES_TEXT];
    uint64_t peak = bb_gpu_multi_measured_peak(mg, opts->gpus[i]);
    fprintf(stderr, "bamboo: GPU %d memory measured at the peak: %s (%llu bytes, cudaMemGetInfo)\n", opts->gpus[i],
            bb_bytes_text(text, peak), (unsigned long long)peak);
  }
}

bb_status bb_bamboo_multi(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                          bb_error *err) {
  int n = inst->n;
  int node_bytes = bb_prnode_bytes_bamboo(n);
  bb_la_state la;
  bb_status la_ok = bb_la_state_init(&la, n, err);
  bb_id *free_men = malloc((size_t)n * sizeof *free_men);
  int free_count = 0;
  bb_gpu_multi *mg = NULL;
  bb_row_source src;
  bb_status st = bb_row_source_init(&src, inst, opts->gen_spec, err);
  if (st == BB_OK && (la_ok != BB_OK || !free_men))
    st = bb_fail(err, BB_ERR_NOMEM, "bamboo: cannot allocate the matching state for n = %d", n);
  bb_gpu_instance lists = bb_gpu_instance_of(inst);
  bb_gpu_opts gopts = bb_gpu_opts_of(opts);
  bb_gpu_stats gstats = bb_gpu_stats_of(stats);
  const char *staged = getenv("BAMBOO_GPU_STAGED");
  if (st == BB_OK && staged && *staged == '0')
    st = bb_gpu_multi_open_gen(opts->gpus, opts->gpu_count, &lists, opts->gen_spec, node_bytes, &mg, &gstats, err);
  else if (st == BB_OK)
    st = bb_gpu_multi_open_staged(opts->gpus, opts->gpu_count, &lists, opts->gen_spec, node_bytes,
                                  part_rank_rows(n, opts), &mg, &gstats, err);
  if (st == BB_OK && opts->verbose) report_peaks(mg, opts);
  if (st == BB_OK) {
    bb_gpu_la gla = bb_gpu_la_of(&la);
    st = bb_gpu_multi_bamboo(mg, &gopts, &gla, free_men, &free_count, &gstats, err);
  }
  bb_gpu_stats_back(&gstats, stats);
  if (st == BB_OK) st = bb_row_source_husbands(&src, la.partner_rank, NULL, la.husband, opts->threads, err);
  if (st == BB_OK) {
    double t = bb_now();
    stats->tail_men = free_count;
    for (int i = 0; i < free_count && st == BB_OK; i++)
      st = bb_la_propose(&la, bb_gpu_multi_prrow, mg, free_men[i], err);
    stats->proposals = la.proposals;
    stats->t_solve += bb_now() - t;
  }
  if (st == BB_OK) {
    double t = bb_now();
    bb_la_extract(&la, wife_of);
    stats->t_post += bb_now() - t;
    const char *mode = bb_gpu_multi_solve_mode();
    if (!strcmp(mode, "rounds"))
      snprintf(stats->path, sizeof stats->path, "gpu x%d partitions (rounds: %d)+cpu-tail (%d men)", opts->gpu_count,
               bb_gpu_multi_rounds_run(mg), free_count);
    else
      snprintf(stats->path, sizeof stats->path, "gpu x%d partitions (%s)+cpu-tail (%d men)", opts->gpu_count, mode,
               free_count);
    if (opts->verbose) fprintf(stderr, "bamboo: %s\n", stats->path);
  }
  bb_gpu_multi_close(mg);
  bb_la_state_free(&la);
  free(free_men);
  return st;
}

bb_status bb_gpu_la_min_multi(const bb_instance *inst, const bb_solve_opts *opts, bb_id *wife_of, bb_solve_stats *stats,
                              bb_error *err) {
  bb_gpu_multi *mg = NULL;
  bb_gpu_instance lists = bb_gpu_instance_of(inst);
  bb_gpu_opts gopts = bb_gpu_opts_of(opts);
  bb_gpu_stats gstats = bb_gpu_stats_of(stats);
  bb_status st =
      bb_gpu_multi_open(opts->gpus, opts->gpu_count, &lists, bb_prnode_bytes_la_min(inst->n), &mg, &gstats, err);
  if (st == BB_OK) st = bb_gpu_multi_la_min(mg, &gopts, wife_of, &gstats, err);
  bb_gpu_stats_back(&gstats, stats);
  bb_gpu_multi_close(mg);
  snprintf(stats->path, sizeof stats->path, "gpu x%d partitions", opts->gpu_count);
  return st;
}
