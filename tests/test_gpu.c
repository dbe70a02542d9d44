/* GPU tests (ctest label `gpu`): every GPU path must return exactly gs-seq's matching.
 * Exits 77 (skipped) when no GPU is usable. Argument "quick" runs a smaller set (for
 * compute-sanitizer memcheck), "race" a smaller one still (racecheck is slower again). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "generate.h"
#include "solve.h"

static int passed, failed;

typedef struct gpu_case {
  const char *algo;
  int tail_threshold;
  int tail_mode;
  int wide_nodes;
  int row_budget; /* BB_TAIL_AUTO: rows before the CPU tail hands back (0 = default 16) */
} gpu_case;

static const gpu_case cases[] = {
    {"gpu-mw-cas", 1, BB_TAIL_AUTO, 0, 16},
    {"gpu-la-min", 1, BB_TAIL_AUTO, 0, 16},
    {"bamboo", 1, BB_TAIL_AUTO, 0, 16},      /* the default */
    {"bamboo", 1, BB_TAIL_AUTO, 0, 1},       /* hands back almost at once */
    {"bamboo", 64, BB_TAIL_AUTO, 0, 3},      /* hands back mid-tail with men waiting */
    {"bamboo", 1 << 30, BB_TAIL_AUTO, 0, 2}, /* stops at once, hands back early */
    {"bamboo", 1, BB_TAIL_CPU, 0, 0},
    {"bamboo", 64, BB_TAIL_CPU, 0, 0},
    {"bamboo", 1 << 30, BB_TAIL_CPU, 0, 0}, /* everything from the CPU tail */
    {"bamboo", 1, BB_TAIL_GPU, 0, 0},
    {"bamboo", 64, BB_TAIL_GPU, 0, 0},
    {"bamboo", 1 << 30, BB_TAIL_GPU, 0, 0},
    {"bamboo", 64, BB_TAIL_CPU, 1, 0}, /* 64-bit PRMatrix nodes (n > 65536 path) */
    {"bamboo", 1, BB_TAIL_GPU, 1, 0},
    {"bamboo", 64, BB_TAIL_AUTO, 1, 3},
};

static void run_instance(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  if (bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK) {
    printf("FAIL generate %s n=%d: %s\n", bb_gen_kind_name(kind), n, err.msg);
    failed++;
    return;
  }
  bb_id *expect = malloc((size_t)n * sizeof *expect), *got = malloc((size_t)n * sizeof *got);
  if (!expect || !got || bb_solve(inst, "gs-seq", NULL, expect, NULL, &err) != BB_OK) {
    printf("FAIL gs-seq %s n=%d: %s\n", bb_gen_kind_name(kind), n, err.msg);
    failed++;
    goto out;
  }
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const gpu_case *gc = &cases[c];
    bb_solve_opts opts;
    bb_solve_opts_default(&opts);
    opts.tail_threshold = gc->tail_threshold;
    opts.tail_mode = gc->tail_mode;
    opts.tail_row_budget = gc->row_budget;
    setenv("BAMBOO_GPU_WIDE_NODES", gc->wide_nodes ? "1" : "0", 1);
    bb_solve_stats stats;
    memset(got, 0xff, (size_t)n * sizeof *got); /* poison: every entry must be written */
    bb_status st = bb_solve(inst, gc->algo, &opts, got, &stats, &err);
    int same = st == BB_OK && !memcmp(got, expect, (size_t)n * sizeof *got);
    if (same) {
      passed++;
    } else {
      failed++;
      printf("FAIL %s (tail %d, mode %d, budget %d, wide %d) on %s n=%d g=%d seed=%llu: %s\n", gc->algo,
             gc->tail_threshold, gc->tail_mode, gc->row_budget, gc->wide_nodes, bb_gen_kind_name(kind), n, group,
             (unsigned long long)seed, st == BB_OK ? "matching differs from gs-seq" : err.msg);
    }
  }
out:
  free(expect);
  free(got);
  bb_instance_free(inst);
}

int main(int argc, char **argv) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  int race = argc > 1 && !strcmp(argv[1], "race");
  int quick = race || (argc > 1 && !strcmp(argv[1], "quick"));
  static const int sizes_full[] = {1, 2, 3, 5, 8, 17, 64, 100, 255, 256, 257, 1000, 2000};
  static const int sizes_quick[] = {1, 2, 5, 64, 300};
  static const int sizes_race[] = {2, 64};
  const int *sizes = race ? sizes_race : quick ? sizes_quick : sizes_full;
  int count = race ? 2 : quick ? 5 : (int)(sizeof sizes_full / sizeof sizes_full[0]);
  const bb_gen_kind kinds[] = {BB_GEN_PERFECT, BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  for (int s = 0; s < count; s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      for (uint64_t seed = 1; seed <= (quick ? 1u : 3u); seed++) {
        int n = sizes[s];
        int group = kinds[k] == BB_GEN_RANDOM ? (int)(1 + seed * 2 % (n + 1)) : 1;
        if (group > n) group = n;
        run_instance(kinds[k], n, group, seed);
      }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
