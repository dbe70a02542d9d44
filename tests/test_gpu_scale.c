/* GPU tests of large instances (ctest label `gpu`, exit 77 without a GPU): bamboo's staged
 * initialisation (cuda/gpu_staged.cu) and the earlier one must both return exactly gs-seq's
 * matching, with one block of men's rows or many (BAMBOO_GPU_STAGE_ROWS), the rank matrix
 * whole or in blocks of women (BAMBOO_GPU_RANK_ROWS), 32-, 40- or 64-bit nodes
 * (BAMBOO_GPU_NODE_BYTES=4|5|8, cuda/bb_gpu_prnode.h); and the device memory measured at the
 * peak (cudaMemGetInfo) must match the memory plan (engine/sm/memory_plan.h) within 5 % + 64 MiB
 * (allocation granularity, the runtime's
 * own lazy allocations), with the rank matrix whole or in blocks (one block or several), the
 * lists uploaded or generated on the GPU (the women then drawn as rank rows, no list held). Argument "quick" runs a smaller set (compute-sanitizer memcheck),
 * "narrow" the full set with the 40-bit node alone. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "bb_gpu_gen.h"
#include "gen_rows.h"
#include "generate.h"
#include "gpu_args.h"
#include "memory_plan.h"
#include "solve.h"

static int passed, failed;
static int node_first, node_count = 3; /* the formats of nodes[] run: all, or "narrow": 5 alone */

static void check(int ok, const char *what, const char *kind, int n, const char *detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s on %s n=%d: %s\n", what, kind, n, detail);
  }
}

static void same_as_gs(const bb_instance *inst, const bb_id *expect, const char *kind, const char *staged,
                       const char *rows, const char *node, const char *rank_rows) {
  int n = inst->n;
  setenv("BAMBOO_GPU_STAGED", staged, 1);
  setenv("BAMBOO_GPU_STAGE_ROWS", rows, 1);
  if (rank_rows)
    setenv("BAMBOO_GPU_RANK_ROWS", rank_rows, 1);
  else
    unsetenv("BAMBOO_GPU_RANK_ROWS");
  setenv("BAMBOO_GPU_NODE_BYTES", node, 1);
  bb_id *got = malloc((size_t)n * sizeof *got);
  bb_error err = {{0}};
  bb_solve_stats stats;
  memset(got, 0xff, (size_t)n * sizeof *got);
  bb_status st = got ? bb_solve(inst, "bamboo", NULL, got, &stats, &err) : BB_ERR_NOMEM;
  char what[96];
  snprintf(what, sizeof what, "bamboo staged=%s rows=%s node=%s rank_rows=%s", staged, rows, node,
           rank_rows ? rank_rows : "whole");
  int gpu_ran = st == BB_OK && strncmp(stats.path, "cpu", 3) != 0;
  check(st == BB_OK && gpu_ran && !memcmp(got, expect, (size_t)n * sizeof *got), what, kind, n,
        st != BB_OK ? err.msg
        : !gpu_ran  ? stats.path
                    : "matching differs from gs-seq");
  free(got);
}

static void run_instance(bb_gen_kind kind, int n, int group, uint64_t seed, int quick) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  bb_id *expect = malloc((size_t)n * sizeof *expect);
  if (!expect || bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK ||
      bb_solve(inst, "gs-seq", NULL, expect, NULL, &err) != BB_OK) {
    check(0, "set-up", bb_gen_kind_name(kind), n, err.msg);
  } else {
    static const char *rows_full[] = {"0", "1", "7", "64"}, *rows_quick[] = {"0", "3"};
    const char **rows = quick ? rows_quick : rows_full;
    int count = quick ? 2 : 4;
    const char *name = bb_gen_kind_name(kind);
    static const char *nodes[] = {"4", "5", "8"};
    int f0 = node_first, f1 = node_first + node_count;
    for (int r = 0; r < count; r++)
      for (int f = f0; f < f1; f++) same_as_gs(inst, expect, name, "1", rows[r], nodes[f], NULL);
    static const char *rank_full[] = {"1", "7", "64"}, *rank_quick[] = {"3"};
    for (int r = 0; r < (quick ? 1 : 3); r++)
      for (int f = f0; f < f1; f++)
        same_as_gs(inst, expect, name, "1", quick ? "2" : rows[r], nodes[f], quick ? rank_quick[r] : rank_full[r]);
    for (int f = f0; f < f1; f++) same_as_gs(inst, expect, name, "0", "0", nodes[f], NULL);
  }
  free(expect);
  bb_instance_free(inst);
}

/* Opens the context as sm_bamboo.c does, runs the GPU phase, and holds the measured peak
 * against the plan's highest device figure. `gen`: the lists generated on the GPU. */
static void peak_matches_plan(int n, int unstaged, int rank_rows, int node, int gen) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  if (bb_generate(BB_GEN_RANDOM, n, 5, 1, 0, &inst, &err) != BB_OK) {
    check(0, "generate", "random", n, err.msg);
    return;
  }
  unsetenv("BAMBOO_GPU_STAGE_ROWS");
  unsetenv("BAMBOO_GPU_RANK_ROWS");
  char node_text[16]; /* any int: GCC checks the width under the sanitizers' flags */
  snprintf(node_text, sizeof node_text, "%d", node);
  setenv("BAMBOO_GPU_NODE_BYTES", node_text, 1);
  bb_plan_request req = {
      .n = n, .algo = "bamboo", .unstaged = unstaged, .rank_rows = rank_rows, .node_bytes = node, .gen_on_gpu = gen};
  bb_memory_plan plan;
  bb_status st = bb_memory_plan_make(&req, &plan, &err);
  bb_gen_spec spec;
  bb_gpu_gen *generator = NULL;
  if (st == BB_OK && gen) st = bb_gen_spec_init(&spec, BB_GEN_RANDOM, n, 5, 1, NULL, &err);
  if (st == BB_OK && gen) st = bb_gpu_gen_open(0, &spec, &generator, &err);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  bb_gpu_opts gopts = bb_gpu_opts_of(&opts);
  bb_gpu_instance lists = bb_gpu_instance_of(inst);
  bb_gpu_stats stats = {0};
  bb_gpu *gpu = NULL;
  bb_gpu_la la = {.n = n, .partner_rank = malloc((size_t)n * 4), .next = malloc((size_t)n * 4)};
  bb_id *free_men = malloc((size_t)n * sizeof *free_men);
  int free_count = 0;
  if (st == BB_OK)
    st = unstaged ? bb_gpu_open(0, &lists, &gpu, &stats, &err) : bb_gpu_open_staged(0, &lists, &gpu, &stats, &err);
  if (st == BB_OK && gen) st = bb_gpu_set_generator(gpu, generator, &err);
  if (st == BB_OK) bb_gpu_set_rank_rows(gpu, rank_rows);
  if (st == BB_OK) st = bb_gpu_bamboo(gpu, &gopts, &la, free_men, &free_count, &stats, &err);
  if (st == BB_OK) {
    double planned = (double)bb_memory_plan_peak_device(&plan, 0);
    double measured = (double)bb_gpu_measured_peak(gpu);
    double slack = 0.05 * planned + (64 << 20);
    printf("n=%d %s%s, rank rows %d, %d-byte nodes: plan %.1f MiB, measured %.1f MiB (%+.2f %%)\n", n,
           unstaged ? "unstaged" : "staged", gen ? " generated" : "", rank_rows, plan.node_bytes, planned / 1048576,
           measured / 1048576, 100.0 * (measured - planned) / planned);
    char detail[128];
    snprintf(detail, sizeof detail, "plan %.0f bytes, measured %.0f", planned, measured);
    check(measured > planned - slack && measured < planned + slack, "peak vs plan", "random", n, detail);
  } else {
    check(0, "GPU phase", "random", n, err.msg);
  }
  bb_gpu_close(gpu);
  bb_gpu_gen_close(generator);
  free(la.partner_rank);
  free(la.next);
  free(free_men);
  bb_instance_free(inst);
}

int main(int argc, char **argv) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  int quick = argc > 1 && !strcmp(argv[1], "quick");
  if (argc > 1 && !strcmp(argv[1], "narrow")) node_first = 1, node_count = 1;
  static const int sizes_full[] = {1, 2, 3, 17, 100, 257, 1000, 3001}, sizes_quick[] = {17, 100};
  const int *sizes = quick ? sizes_quick : sizes_full;
  int count = quick ? 2 : 8;
  const bb_gen_kind kinds[] = {BB_GEN_PERFECT, BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  for (int s = 0; s < count; s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      run_instance(kinds[k], sizes[s], sizes[s] < 5 ? sizes[s] : 5, 1 + (uint64_t)s, quick);
  if (!quick) {
    static const int peak_sizes[] = {4000, 12000};
    for (int i = 0; i < 2; i++) {
      for (int node = node_count == 1 ? 5 : 4; node <= 5; node++) {
        peak_matches_plan(peak_sizes[i], 0, 0, node, 0);
        peak_matches_plan(peak_sizes[i], 1, 0, node, 0);
        peak_matches_plan(peak_sizes[i], 0, peak_sizes[i] / 8, node, 0);
        peak_matches_plan(peak_sizes[i], 0, peak_sizes[i], node, 0); /* the rank phase is the peak */
        peak_matches_plan(peak_sizes[i], 0, peak_sizes[i] / 8, node, 1);
        peak_matches_plan(peak_sizes[i], 0, peak_sizes[i], node, 1);
      }
    }
  }
  unsetenv("BAMBOO_GPU_STAGED");
  unsetenv("BAMBOO_GPU_STAGE_ROWS");
  unsetenv("BAMBOO_GPU_RANK_ROWS");
  unsetenv("BAMBOO_GPU_NODE_BYTES");
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
