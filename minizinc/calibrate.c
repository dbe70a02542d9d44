/* fzn-bamboo --calibrate: measures where the GPU path of stable_matching beats the CPU path on
 * this machine and writes the hybrid's thresholds (smc_hybrid.c) to the calibration file of
 * this GPU model, which every later run reads.
 *
 *   min_n     the smallest n whose first propagation (every proposer free) is faster on the
 *             GPU, over random complete instances of n = 250 ... 5000;
 *   min_free  at the largest n measured ([Travasci 2025]'s setting: the standard and the swapped
 *             constraint, a DFS of 400 nodes), the fewest free proposers from which the
 *             GPU's median propagation time beats the CPU's; both paths run the same search,
 *             so each propagation is timed on both;
 *   min_modified  likewise, by the number of modified variables;
 *   handover, batch_handover, handover_per_value, handover_spread  kept at their current
 *             values (the defaults unless a file set them).
 * Root times are medians of three runs, each on its own space posted with the path forced
 * (the engine is readied at post, so setup is not counted). */
#define _POSIX_C_SOURCE 200809L
#include "calibrate.h"

#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "generate.h"
#include "smc_tuning.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct model {
  bb_space *space;
  int n, *men, *women;
} model;

static void model_free(model *m) {
  bb_space_free(m->space);
  free(m->men);
  free(m->women);
}

static bool model_new(model *m, const bb_instance *inst, bb_smc_path path, bb_error *err) {
  int n = inst->n;
  size_t cells = (size_t)n * n;
  int *pm = malloc(cells * sizeof *pm), *pw = malloc(cells * sizeof *pw);
  m->n = n;
  m->men = malloc((size_t)n * sizeof *m->men);
  m->women = malloc((size_t)n * sizeof *m->women);
  m->space = bb_space_new(err);
  bool ok = pm && pw && m->men && m->women && m->space;
  for (size_t c = 0; ok && c < cells; c++) pm[c] = (int)inst->men_prefs[c], pw[c] = (int)inst->women_prefs[c];
  for (int i = 0; ok && i < n; i++) m->men[i] = bb_int_var(m->space, 0, n - 1, err);
  for (int j = 0; ok && j < n; j++) m->women[j] = bb_int_var(m->space, 0, n - 1, err);
  bb_stable_matching_options opts = {BB_SMC_GS_LISTS, path};
  ok = ok && bb_post_stable_matching(m->space, m->men, n, m->women, n, pm, n, n, pw, n, n, &opts, err) == BB_OK;
  free(pm);
  free(pw);
  return ok;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median3(double t[3]) {
  qsort(t, 3, sizeof *t, compare_double);
  return t[1];
}

/* The root propagation's time, in seconds. */
static double time_root(const bb_instance *inst, bb_smc_path path, bb_error *err) {
  model m;
  if (!model_new(&m, inst, path, err)) return -1;
  bb_space_state state;
  double t0 = bb_now();
  bb_space_status(m.space, &state, err);
  double t = bb_now() - t0;
  model_free(&m);
  return t;
}

/* Every propagation of a short search, in order (the observer's records). */
typedef struct trace {
  int count, cap;
  int *free_proposers, *modified;
  double *ms;
  bool fresh_seen;
} trace;

static void record(void *ctx, const bb_smc_run_info *info) {
  trace *t = ctx;
  if (t->count == t->cap) {
    int cap = t->cap ? 2 * t->cap : 256;
    int *f = realloc(t->free_proposers, (size_t)cap * sizeof *f);
    if (f) t->free_proposers = f;
    int *m = realloc(t->modified, (size_t)cap * sizeof *m);
    if (m) t->modified = m;
    double *ms = realloc(t->ms, (size_t)cap * sizeof *ms);
    if (ms) t->ms = ms;
    if (!f || !m || !ms) return; /* out of memory: the trace stops growing */
    t->cap = cap;
  }
  t->free_proposers[t->count] = info->free_proposers;
  t->modified[t->count] = info->modified;
  t->ms[t->count++] = info->t_total * 1e3;
}

/* [Travasci 2025]'s setting: the standard and the swapped constraint over the same variables, a DFS
 * (men in input order, split on the rank) for `nodes` nodes. Both paths make the same
 * decisions and propagations (their domains are identical), so the traces line up. */
static bool search_trace(const bb_instance *inst, bb_smc_path path, int nodes, trace *t, bb_error *err) {
  model m;
  if (!model_new(&m, inst, path, err)) return false;
  int n = m.n;
  size_t cells = (size_t)n * n;
  int *pm = malloc(cells * sizeof *pm), *pw = malloc(cells * sizeof *pw);
  for (size_t c = 0; c < cells; c++) pm[c] = (int)inst->men_prefs[c], pw[c] = (int)inst->women_prefs[c];
  bb_stable_matching_options opts = {BB_SMC_GS_LISTS, path};
  bool ok = bb_post_stable_matching(m.space, m.women, n, m.men, n, pw, n, n, pm, n, n, &opts, err) == BB_OK;
  free(pm);
  free(pw);
  ok = ok && bb_branch_int(m.space, m.men, n, BB_VAR_INPUT_ORDER, BB_VAL_SPLIT, NULL, err) == BB_OK;
  bb_search_options so;
  bb_search_options_init(&so);
  so.node_limit = (uint64_t)nodes;
  bb_stable_matching_observe(record, t);
  bb_search *s = ok ? bb_search_new(m.space, &so, err) : NULL;
  for (bb_space *sol; s && (sol = bb_search_next(s, err)) != NULL;) bb_space_free(sol); /* to the node limit */
  bb_stable_matching_observe(NULL, NULL);
  bb_search_free(s);
  model_free(&m);
  return ok && s;
}

static int compare_ms(const void *a, const void *b) { return compare_double(a, b); }

static double median_of(double *v, int count) {
  qsort(v, (size_t)count, sizeof *v, compare_ms);
  return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

/* The smallest count (of free proposers, or of modified variables) from which the GPU's
 * median time beats the CPU's in every bucket (powers of two) with data. Medians, not totals: a
 * propagation that sets off a
 * cascade is handed over mid-way anyway (calibration's handover), and the typical one,
 * with a few free proposers, must stay cheap. The first two propagations are the root's. */
static int best_threshold(const trace *cpu, const trace *gpu, const int *measure, const char *what, FILE *out) {
  int count = cpu->count < gpu->count ? cpu->count : gpu->count, best = INT_MAX;
  double *c = malloc((size_t)(count + 1) * sizeof *c), *g = malloc((size_t)(count + 1) * sizeof *g);
  fprintf(out, "\n| %s | propagations | CPU median ms | GPU median ms |\n|---|---:|---:|---:|\n", what);
  bool gpu_wins_above = true;
  for (int hi = 1 << 17; hi >= 1; hi /= 2) { /* buckets [hi, 2 hi), from the top */
    int m = 0;
    for (int k = 2; k < count; k++)
      if (measure[k] >= hi && measure[k] < 2 * hi) c[m] = cpu->ms[k], g[m++] = gpu->ms[k];
    if (m == 0) continue;
    double mc = median_of(c, m), mg = median_of(g, m);
    fprintf(out, "| %d..%d | %d | %.3f | %.3f |\n", hi, 2 * hi - 1, m, mc, mg);
    gpu_wins_above = gpu_wins_above && mg < mc;
    if (gpu_wins_above) best = hi;
  }
  free(c);
  free(g);
  return best;
}

int fzn_calibrate(FILE *out, FILE *errors) {
  bb_error err = {{0}};
  if (!bb_smc_gpu_available()) {
    fprintf(errors, "fzn-bamboo: --calibrate needs a GPU: %s\n", bb_smc_gpu_why());
    return 1;
  }
  char path[1024];
  if (!bb_smc_calibration_path(path, sizeof path)) {
    fprintf(errors, "fzn-bamboo: --calibrate: no place for the calibration file (set BAMBOO_CALIBRATION or HOME)\n");
    return 1;
  }
  /* A path that can never take the file (/dev/full, a folder, a FIFO) fails now, not after the
   * minute of measurements. */
  if (bb_smc_calibration_check_target(path, &err) != BB_OK) {
    fprintf(errors, "fzn-bamboo: --calibrate: %s\n", err.msg);
    return 3;
  }
  static const int sizes[] = {250, 500, 1000, 2400};
  int min_n = INT_MAX, largest = 0;
  bb_instance *big = NULL;
  fprintf(out, "| n | first propagation, CPU ms | GPU ms |\n|---:|---:|---:|\n");
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    bb_instance *inst = NULL;
    if (bb_generate(BB_GEN_UNIFORM, n, n, 7, 0, &inst, &err) != BB_OK) break;
    double cpu[3], gpu[3];
    (void)time_root(inst, BB_SMC_PATH_GPU, &err); /* warm-up: module load, first allocations */
    for (int r = 0; r < 3; r++) {
      cpu[r] = time_root(inst, BB_SMC_PATH_CPU, &err);
      gpu[r] = time_root(inst, BB_SMC_PATH_GPU, &err);
    }
    double c = median3(cpu), g = median3(gpu);
    if (c < 0 || g < 0) { /* a model could not be built: no measurement at this size */
      fprintf(errors, "fzn-bamboo: --calibrate: n = %d: %s\n", n, err.msg);
      bb_instance_free(inst);
      break;
    }
    fprintf(out, "| %d | %.3f | %.3f |\n", n, c * 1e3, g * 1e3);
    if (g < c && n < min_n) min_n = n;
    bb_instance_free(big);
    big = inst;
    largest = n;
  }
  int min_free = INT_MAX, min_modified = INT_MAX;
  if (big) {
    trace cpu = {0}, gpu = {0};
    if (!search_trace(big, BB_SMC_PATH_CPU, 400, &cpu, &err) || !search_trace(big, BB_SMC_PATH_GPU, 400, &gpu, &err)) {
      fprintf(errors, "fzn-bamboo: --calibrate: %s\n", err.msg);
      return 4;
    }
    fprintf(out, "\nAt n = %d, a search of 400 nodes with two constraints (%d propagations):\n", largest, cpu.count);
    min_free = best_threshold(&cpu, &gpu, cpu.free_proposers, "free proposers", out);
    min_modified = best_threshold(&cpu, &gpu, cpu.modified, "modified variables", out);
    free(cpu.free_proposers);
    free(cpu.modified);
    free(cpu.ms);
    free(gpu.free_proposers);
    free(gpu.modified);
    free(gpu.ms);
    bb_instance_free(big);
  }
  /* mkdir -p of the file's folder */
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(dir, 0755) != 0 && errno != EEXIST) break;
      *p = '/';
    }
  char model_name[128] = "";
  bb_smc_gpu_model(model_name, sizeof model_name);
  bb_smc_calibration measured = bb_smc_get_calibration(); /* the kept keys, as they are */
  measured.min_n = min_n;
  measured.min_free = min_free;
  measured.min_modified = min_modified;
  if (bb_smc_calibration_write(path, &measured, model_name, &err) != BB_OK) {
    fprintf(errors, "fzn-bamboo: --calibrate: %s\n", err.msg);
    return 3;
  }
  fprintf(out, "\nmin_n %d, min_free %d, min_modified %d written to %s\n", min_n, min_free, min_modified, path);
  return 0;
}
