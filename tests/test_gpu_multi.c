/* GPU tests of the partitioned engine (cuda/bb_gpu_multi.h, [Bamboo-SMP] V-C; ctest label `gpu`,
 * exit 77 without a GPU): bamboo and gpu-la-min with the participants split into 2, 3 and 4
 * partitions on GPU 0 (the same device listed several times) must return exactly gs-seq's
 * matching, as the single-GPU path does, on every workload; every node format (4, 5, 8 bytes,
 * forced through BAMBOO_GPU_NODE_BYTES; 0 is the default for n), tail thresholds that leave
 * the CPU tail many men, and bamboo's two partition layouts: staged (its default; also with
 * blocks of a few rows, BAMBOO_GPU_RANK_ROWS and BAMBOO_GPU_STAGE_ROWS, so that many blocks
 * and short last ones are built) and unstaged (BAMBOO_GPU_STAGED=0). Every partitioned bamboo
 * case runs in both modes of bb_gpu_multi_bamboo: the partner words shared, and rounds over
 * replicas (BAMBOO_GPU_MULTI_SOLVE=rounds, handing over to the shared words at 8 free men, so
 * that small instances run rounds and the hand-over both; the path must name the rounds run).
 * BAMBOO_TEST_GPUS=0,1
 * puts the partitions on those devices in turn instead of all on GPU 0. Argument "quick" runs
 * a smaller set (for compute-sanitizer memcheck), "narrow" only the 40-bit node's cases. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu_device.h"
#include "generate.h"
#include "solve.h"

static int passed, failed;
static int narrow_only; /* argument "narrow" */

enum { STAGED, SMALL_BLOCKS, UNSTAGED }; /* bamboo's partition layouts */

typedef struct multi_case {
  const char *algo;
  int parts; /* 1: the single-GPU path, for reference */
  int tail_threshold;
  int node; /* BAMBOO_GPU_NODE_BYTES: 0 (the default), 4, 5 or 8 */
  int layout;
} multi_case;

static int devices[16]; /* the device of each partition: BAMBOO_TEST_GPUS in turn, or 0 */

static void set_layout(int layout) {
  unsetenv("BAMBOO_GPU_STAGED");
  unsetenv("BAMBOO_GPU_RANK_ROWS");
  unsetenv("BAMBOO_GPU_STAGE_ROWS");
  if (layout == UNSTAGED) setenv("BAMBOO_GPU_STAGED", "0", 1);
  if (layout == SMALL_BLOCKS) {
    setenv("BAMBOO_GPU_RANK_ROWS", "7", 1);
    setenv("BAMBOO_GPU_STAGE_ROWS", "3", 1);
  }
}

typedef struct solve_mode {
  const char *name;      /* BAMBOO_GPU_MULTI_SOLVE */
  const char *switch_at; /* BAMBOO_GPU_ROUNDS_SWITCH, or NULL */
} solve_mode;
static const solve_mode modes[] = {{"shared", NULL}, {"rounds", "8"}};
enum { ROUNDS_SWITCH = 8 };

static void set_mode(const solve_mode *m) {
  setenv("BAMBOO_GPU_MULTI_SOLVE", m->name, 1);
  if (m->switch_at)
    setenv("BAMBOO_GPU_ROUNDS_SWITCH", m->switch_at, 1);
  else
    unsetenv("BAMBOO_GPU_ROUNDS_SWITCH");
}

/* The path names the mode that ran; the rounds ran some rounds when more men were free at the
 * start than the hand-over to the shared words takes. */
static int mode_ran(const solve_mode *m, const char *path, int n, int tail_threshold) {
  if (strstr(path, "precheck")) return 1; /* answered before any GPU work */
  if (!strcmp(m->name, "shared")) return strstr(path, "(shared)") != NULL;
  const char *r = strstr(path, "(rounds: ");
  if (!r) return 0;
  int rounds = atoi(r + strlen("(rounds: "));
  return rounds > 0 || n <= ROUNDS_SWITCH || n <= tail_threshold;
}

static const multi_case cases[] = {
    {"bamboo", 1, 1, 0, STAGED},
    {"bamboo", 2, 1, 0, STAGED},
    {"bamboo", 3, 1, 0, STAGED},
    {"bamboo", 4, 1, 0, STAGED},
    {"bamboo", 2, 64, 0, STAGED},
    {"bamboo", 4, 1 << 30, 0, STAGED},
    {"bamboo", 2, 1, 8, STAGED},
    {"bamboo", 4, 64, 8, STAGED},
    {"gpu-la-min", 1, 1, 0, STAGED},
    {"gpu-la-min", 2, 1, 0, STAGED},
    {"gpu-la-min", 3, 1, 0, STAGED},
    {"gpu-la-min", 4, 1, 0, STAGED},
    /* the 40-bit node of n > 65,536, forced at small n: one GPU and partitions */
    {"bamboo", 1, 1, 5, STAGED},
    {"bamboo", 1, 64, 5, STAGED},
    {"bamboo", 2, 1, 5, STAGED},
    {"bamboo", 3, 64, 5, STAGED},
    {"bamboo", 4, 1 << 30, 5, STAGED},
    {"gpu-la-min", 1, 1, 5, STAGED},
    {"gpu-la-min", 2, 1, 5, STAGED},
    {"gpu-la-min", 3, 1, 4, STAGED},
    /* bamboo's partitions in blocks of a few rows, and unstaged */
    {"bamboo", 2, 1, 0, SMALL_BLOCKS},
    {"bamboo", 3, 64, 5, SMALL_BLOCKS},
    {"bamboo", 4, 1, 8, SMALL_BLOCKS},
    {"bamboo", 1, 1, 5, SMALL_BLOCKS},
    {"bamboo", 2, 1, 0, UNSTAGED},
    {"bamboo", 3, 64, 5, UNSTAGED},
};

static void run_instance(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  bb_id *expect = malloc((size_t)n * sizeof *expect), *got = malloc((size_t)n * sizeof *got);
  if (!expect || !got || bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK ||
      bb_solve(inst, "gs-seq", NULL, expect, NULL, &err) != BB_OK) {
    printf("FAIL set-up %s n=%d: %s\n", bb_gen_kind_name(kind), n, err.msg);
    failed++;
    goto out;
  }
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const multi_case *mc = &cases[c];
    if (mc->parts > n || (narrow_only && mc->node != 5)) continue;
    int moded = mc->parts > 1 && !strcmp(mc->algo, "bamboo"); /* the modes are bamboo's over partitions */
    for (size_t md = 0; md < (moded ? sizeof modes / sizeof modes[0] : 1); md++) {
      const solve_mode *mode = &modes[md];
      set_mode(mode);
      bb_solve_opts opts;
      bb_solve_opts_default(&opts);
      opts.gpus = devices;
      opts.gpu_count = mc->parts;
      set_layout(mc->layout);
      opts.tail_threshold = mc->tail_threshold;
      char node[16];
      snprintf(node, sizeof node, "%d", mc->node);
      setenv("BAMBOO_GPU_NODE_BYTES", node, 1);
      bb_solve_stats stats;
      memset(got, 0xff, (size_t)n * sizeof *got);
      if (getenv("BAMBOO_TEST_VERBOSE")) /* which case runs, for a run that does not end */
        fprintf(stderr, "%s x%d (tail %d, node %d, layout %d, %s) on %s n=%d\n", mc->algo, mc->parts,
                mc->tail_threshold, mc->node, mc->layout, mode->name, bb_gen_kind_name(kind), n);
      bb_status st = bb_solve(inst, mc->algo, &opts, got, &stats, &err);
      /* bamboo's precheck answers the perfect workload before any GPU work. */
      int partitioned = mc->parts == 1 || strstr(stats.path, "partitions") || strstr(stats.path, "precheck");
      int ran = !moded || mode_ran(mode, stats.path, n, mc->tail_threshold);
      if (st == BB_OK && partitioned && ran && !memcmp(got, expect, (size_t)n * sizeof *got)) {
        passed++;
      } else {
        failed++;
        printf("FAIL %s x%d (tail %d, node %d, layout %d, %s) on %s n=%d seed=%llu: %s\n", mc->algo, mc->parts,
               mc->tail_threshold, mc->node, mc->layout, mode->name, bb_gen_kind_name(kind), n,
               (unsigned long long)seed,
               st != BB_OK            ? err.msg
               : !partitioned || !ran ? stats.path
                                      : "matching differs from gs-seq");
      }
    }
  }
  unsetenv("BAMBOO_GPU_MULTI_SOLVE");
  unsetenv("BAMBOO_GPU_ROUNDS_SWITCH");
out:
  free(expect);
  free(got);
  bb_instance_free(inst);
}

/* More partitions than participants is refused with a message, not run. */
static void too_many_parts(void) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  static const int gpu0[4] = {0, 0, 0, 0};
  if (bb_generate(BB_GEN_RANDOM, 3, 2, 1, 0, &inst, &err) != BB_OK) {
    failed++;
    return;
  }
  bb_id got[3];
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.gpus = gpu0;
  opts.gpu_count = 4;
  bb_status st = bb_solve(inst, "gpu-la-min", &opts, got, NULL, &err);
  if (st == BB_ERR_ARG && strstr(err.msg, "4 partitions")) {
    passed++;
  } else {
    failed++;
    printf("FAIL 4 partitions for n = 3: status %d, '%s'\n", (int)st, err.msg);
  }
  bb_instance_free(inst);
}

int main(int argc, char **argv) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  const char *list = getenv("BAMBOO_TEST_GPUS");
  if (list && *list) {
    int given[16], count = 0;
    for (const char *c = list; *c && count < 16;) {
      given[count++] = atoi(c);
      c = strchr(c, ',');
      if (!c) break;
      c++;
    }
    for (int p = 0; p < 16; p++) devices[p] = given[p % count];
  }
  int quick = argc > 1 && !strcmp(argv[1], "quick");
  narrow_only = argc > 1 && !strcmp(argv[1], "narrow");
  static const int sizes_full[] = {4, 5, 17, 64, 100, 257, 1000, 3001}, sizes_quick[] = {40};
  const int *sizes = quick ? sizes_quick : sizes_full;
  int count = quick ? 1 : 8;
  const bb_gen_kind kinds[] = {BB_GEN_PERFECT, BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  for (int s = 0; s < count; s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
      run_instance(kinds[k], sizes[s], sizes[s] < 5 ? sizes[s] : 5, 1 + (uint64_t)s);
  too_many_parts();
  unsetenv("BAMBOO_GPU_NODE_BYTES");
  set_layout(STAGED);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
