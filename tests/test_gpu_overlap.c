/* GPU tests of bamboo's faster GPU steps (ctest label `gpu`, exit 77 without a GPU): its
 * overlapped upload (cuda/gpu_overlap.cu) must return exactly gs-seq's matching from each source of the 16-bit
 * chunks (the instance's lists narrowed on the host, or bb_gpu_lists made beforehand), with one
 * chunk or many (BAMBOO_GPU_STAGE_ROWS), 32- or 64-bit nodes, every tail placement (the GPU tail
 * is the rewritten one-block scan, each variant of BAMBOO_GPU_TAIL), every proposal step of the
 * kernel (BAMBOO_GPU_SCAN), and the earlier pipeline (BAMBOO_GPU_OVERLAP=0) too. Lists
 * made from another instance must be ignored, not uploaded. Argument "quick" runs fewer cases. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "generate.h"
#include "gpu_lists.h"
#include "solve.h"

static int passed, failed;

static void check(int ok, const char *what, const char *kind, int n, const char *detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s on %s n=%d: %s\n", what, kind, n, detail);
  }
}

typedef struct variant {
  const char *overlap, *rows, *wide;
  int tail_mode;
  const bb_gpu_lists *lists;
  const char *source;
} variant;

static void same_as_gs(const bb_instance *inst, const bb_id *expect, const char *kind, const variant *v) {
  int n = inst->n;
  setenv("BAMBOO_GPU_OVERLAP", v->overlap, 1);
  setenv("BAMBOO_GPU_STAGE_ROWS", v->rows, 1);
  setenv("BAMBOO_GPU_WIDE_NODES", v->wide, 1);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.tail_mode = v->tail_mode;
  opts.gpu_lists = v->lists;
  bb_id *got = malloc((size_t)n * sizeof *got);
  bb_error err = {{0}};
  bb_solve_stats stats = {0};
  bb_status st = BB_ERR_NOMEM;
  if (got) {
    memset(got, 0xff, (size_t)n * sizeof *got);
    st = bb_solve(inst, "bamboo", &opts, got, &stats, &err);
  }
  char what[128];
  snprintf(what, sizeof what, "bamboo overlap=%s source=%s rows=%s wide=%s tail=%d", v->overlap, v->source, v->rows,
           v->wide, v->tail_mode);
  /* The perfect case ends in the precheck; every other must have run on the GPU. */
  int gpu_ran = st == BB_OK && strncmp(stats.path, "cpu", 3) != 0;
  check(st == BB_OK && gpu_ran && got && !memcmp(got, expect, (size_t)n * sizeof *got), what, kind, n,
        st != BB_OK ? err.msg
        : !gpu_ran  ? stats.path
                    : "matching differs from gs-seq");
  free(got);
}

static void run_instance(bb_gen_kind kind, int n, int group, uint64_t seed, int quick) {
  bb_error err = {{0}};
  bb_instance *inst = NULL, *other = NULL;
  bb_gpu_lists *lists = NULL, *foreign = NULL;
  const char *name = bb_gen_kind_name(kind);
  bb_id *expect = malloc((size_t)n * sizeof *expect);
  if (!expect || bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK ||
      bb_generate(BB_GEN_UNIFORM, n, 1, seed + 1, 0, &other, &err) != BB_OK ||
      bb_solve(inst, "gs-seq", NULL, expect, NULL, &err) != BB_OK ||
      bb_gpu_lists_prepare(inst, 0, &lists, &err) != BB_OK || bb_gpu_lists_prepare(other, 0, &foreign, &err) != BB_OK) {
    check(0, "set-up", name, n, err.msg);
  } else {
    static const char *rows_full[] = {"0", "1", "7", "64"}, *rows_quick[] = {"0", "3"};
    const char **rows = quick ? rows_quick : rows_full;
    for (int r = 0; r < (quick ? 2 : 4); r++)
      for (int wide = 0; wide < 2; wide++)
        for (int tail = BB_TAIL_AUTO; tail <= BB_TAIL_GPU; tail++) {
          const char *w = wide ? "1" : "0";
          variant from_inst = {"1", rows[r], w, tail, NULL, "instance"};
          variant from_pinned = {"1", rows[r], w, tail, lists, "pinned16"};
          same_as_gs(inst, expect, name, &from_inst);
          same_as_gs(inst, expect, name, &from_pinned);
        }
    /* Every variant of the one-block GPU tail (BAMBOO_GPU_TAIL), both node sizes. */
    static const char *tails[] = {"held16", "keys16", "keys32", "global16", "global8"};
    for (int t = 0; t < 5; t++)
      for (int wide = 0; wide < 2; wide++) {
        setenv("BAMBOO_GPU_TAIL", tails[t], 1);
        variant gpu_tail = {"1", "0", wide ? "1" : "0", BB_TAIL_GPU, lists, tails[t]};
        same_as_gs(inst, expect, name, &gpu_tail);
      }
    unsetenv("BAMBOO_GPU_TAIL");
    /* Every proposal step (BAMBOO_GPU_SCAN: look-ahead, storm aggregation, both; 1 is
     * [Bamboo-SMP]'s kernel), with and without a stop request handing men to a tail, both node sizes. */
    static const char *scans[] = {"1", "a2", "a4", "a8", "u", "ua2", "ua4"};
    for (int sc = 0; sc < 7; sc++)
      for (int wide = 0; wide < 2; wide++)
        for (int tail = BB_TAIL_AUTO; tail <= BB_TAIL_GPU; tail++) {
          setenv("BAMBOO_GPU_SCAN", scans[sc], 1);
          char source[32];
          snprintf(source, sizeof source, "scan %s", scans[sc]);
          variant scan = {"1", "0", wide ? "1" : "0", tail, lists, source};
          same_as_gs(inst, expect, name, &scan);
        }
    unsetenv("BAMBOO_GPU_SCAN");
    variant foreign_lists = {"1", "0", "0", BB_TAIL_AUTO, foreign, "other instance's lists"};
    same_as_gs(inst, expect, name, &foreign_lists);
    variant earlier = {"0", "0", "0", BB_TAIL_AUTO, lists, "earlier pipeline"};
    same_as_gs(inst, expect, name, &earlier);
  }
  bb_gpu_lists_free(lists);
  bb_gpu_lists_free(foreign);
  free(expect);
  bb_instance_free(inst);
  bb_instance_free(other);
}

int main(int argc, char **argv) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("SKIP: %s\n", why);
    return 77;
  }
  int quick = argc > 1 && !strcmp(argv[1], "quick");
  /* 16 bits per id: prepare refuses n > 65,536 before touching the lists. */
  bb_instance wide_n = {70000, NULL, NULL};
  bb_id dummy = 0;
  wide_n.men_prefs = wide_n.women_prefs = &dummy;
  bb_gpu_lists *none = NULL;
  bb_error err = {{0}};
  check(bb_gpu_lists_prepare(&wide_n, 0, &none, &err) == BB_ERR_ARG && !none, "prepare refuses n > 65536", "-", 70000,
        err.msg);

  static const int sizes_full[] = {1, 2, 3, 17, 100, 1001, 3001}, sizes_quick[] = {2, 100, 1001};
  const int *sizes = quick ? sizes_quick : sizes_full;
  int count = quick ? 3 : 7;
  static const bb_gen_kind kinds[] = {BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  for (int i = 0; i < count; i++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      int group = kinds[k] == BB_GEN_RANDOM ? (sizes[i] < 5 ? sizes[i] : 5) : 1;
      run_instance(kinds[k], sizes[i], group, 1000 + (uint64_t)i, quick);
    }
  unsetenv("BAMBOO_GPU_OVERLAP");
  unsetenv("BAMBOO_GPU_STAGE_ROWS");
  unsetenv("BAMBOO_GPU_WIDE_NODES");
  printf("test_gpu_overlap: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
