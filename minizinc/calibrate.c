/* fzn-bamboo --calibrate: measures where the GPU path of stable_matching beats the CPU path on
 * this machine and writes the hybrid's thresholds (smc_hybrid.c) to the calibration file of
 * this GPU model, which every later run reads.
 *
 *   min_n     the smallest n whose first propagation (every proposer free) is faster on the
 *             GPU, over random complete instances of n = 250 ... 5000;
 *   min_free  at the largest n measured, the fewest free proposers for which a later
 *             propagation is faster on the GPU: from the root fixpoint, k men lose their
 *             current partner (k = 1 ... n) and the propagation that follows is timed.
 * Each time is the median of three runs, and each run is on its own space, posted with the
 * path forced, so the engines' shared data is warm and the lane incremental as in a search. */
#define _POSIX_C_SOURCE 200809L
#include "calibrate.h"

#include "bb_post.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "bb_gpu.h"
#include "generate.h"

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

/* From the root fixpoint, men 0..k-1 lose their current (smallest) rank: the propagation that
 * follows has k free proposers or so. A warm-up decision on man n-1 first makes the engine's
 * copy follow this space, as in a search. */
static double time_free(model *root, int k, bb_error *err) {
  bb_space_state state;
  bb_space *s = bb_space_clone(root->space, err);
  if (!s) return -1;
  int last = root->n - 1;
  bb_post_int_rel_const(s, root->men[last], BB_LE, bb_int_max(s, root->men[last]), bb_reif_none(), BB_IPL_DEF, err);
  bb_space_status(s, &state, err);
  for (int i = 0; i < k; i++)
    if (!bb_int_assigned(s, root->men[i]))
      bb_post_int_rel_const(s, root->men[i], BB_GT, bb_int_min(s, root->men[i]), bb_reif_none(), BB_IPL_DEF, err);
  double t0 = bb_now();
  bb_space_status(s, &state, err);
  double t = bb_now() - t0;
  bb_space_free(s);
  return t;
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
  static const int sizes[] = {250, 500, 1000, 2400, 5000};
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
    fprintf(out, "| %d | %.3f | %.3f |\n", n, c * 1e3, g * 1e3);
    if (g < c && n < min_n) min_n = n;
    bb_instance_free(big);
    big = inst;
    largest = n;
  }
  int min_free = INT_MAX;
  if (big) {
    model cpu_root, gpu_root;
    bb_space_state state;
    if (!model_new(&cpu_root, big, BB_SMC_PATH_CPU, &err) || !model_new(&gpu_root, big, BB_SMC_PATH_GPU, &err)) {
      fprintf(errors, "fzn-bamboo: --calibrate: %s\n", err.msg);
      return 4;
    }
    bb_space_status(cpu_root.space, &state, &err);
    bb_space_status(gpu_root.space, &state, &err);
    fprintf(out, "\nAt n = %d:\n\n| men freed | CPU ms | GPU ms |\n|---:|---:|---:|\n", largest);
    for (int k = 1; k <= largest; k *= 4) {
      double cpu[3], gpu[3];
      for (int r = 0; r < 3; r++) {
        cpu[r] = time_free(&cpu_root, k, &err);
        gpu[r] = time_free(&gpu_root, k, &err);
      }
      double c = median3(cpu), g = median3(gpu);
      fprintf(out, "| %d | %.3f | %.3f |\n", k, c * 1e3, g * 1e3);
      if (g < c && k < min_free) min_free = k;
    }
    model_free(&cpu_root);
    model_free(&gpu_root);
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
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(errors, "fzn-bamboo: --calibrate: cannot write %s: %s\n", path, strerror(errno));
    return 3;
  }
  char model_name[128] = "";
  bb_gpu_name(model_name, sizeof model_name);
  fprintf(f, "# bamboo calibration for %s, written by fzn-bamboo --calibrate\n", model_name);
  fprintf(f, "min_n %d\nmin_free %d\n", min_n, min_free);
  fclose(f);
  fprintf(out, "\nmin_n %d, min_free %d written to %s\n", min_n, min_free, path);
  return 0;
}
