/* smc-gpu-bench: [Travasci 2025] section 5's experiment, on any path of the Stable Marriage
 * constraint (docs/references.md).
 *
 * Per instance (random complete lists, bamboo's uniform generator): one space with 2n rank
 * variables and two constraints over them, the standard one and the one with men and women
 * swapped, posted on the requested path (cpu, gpu, auto = the hybrid, emulated). The root
 * propagation is the "all free" case; then a DFS (men in input order, split on the rank)
 * runs for --nodes nodes, whose propagations free one or two proposers, or none. Every
 * propagation is recorded through the shim's observer, with what it knew (free proposers,
 * modified variables, their old domain size) and its phases, as one CSV row; per instance a
 * "result" row fingerprints the root domains and the first solution so that the paths can
 * be checked identical (bench/smc_gpu_report.py does, and makes the tables and plots).
 *
 * With --k K the instances have incomplete lists (SMI): n men and n women, each man
 * ranks K women drawn uniformly (bamboo-smp's smi generator), each woman exactly the men who
 * ranked her; the constraints are posted with bb_post_stable_matching_smi.
 *
 * usage: smc-gpu-bench --n N [--k K] [--instances K] [--seed S] [--paths cpu,gpu,auto,cpu-rules]
 *                      [--strength gs-lists|men-proposing] [--nodes M] [--tail T] [--csv FILE] */
#define _POSIX_C_SOURCE 200809L
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_instance.h"
#include "smc_tuning.h"
#include "hr_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct recorder {
  FILE *out;
  int n, instance;
  const char *path, *strength;
  const char *phase; /* "root" or "search" */
} recorder;

static void record(void *ctx, const bb_smc_run_info *i) {
  recorder *r = ctx;
  fprintf(r->out, "prop,%d,%d,%s,%s,%s,%s,%d,%d,%lld,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", r->n, r->instance,
          r->path, r->strength, r->phase, bb_smc_path_name(i->path), i->free_proposers, i->modified, i->old_domain,
          i->uploaded, i->tail, i->rounds, i->written, i->t_gather * 1e3, i->t_propose * 1e3, i->t_tail * 1e3,
          i->t_settle * 1e3, i->t_apply * 1e3, i->t_total * 1e3);
}

/* "cpu-rules": the CPU path with every later propagation through the event rules, not as
 * batches (smc_delta.c): the two side by side in one process. "auto-emulated": the hybrid
 * with the emulated engine in the GPU's place and a measured GPU's calibration, for the hybrid's
 * own costs on a machine without a GPU (it sets the calibration for the rest of the run). */
static bool parse_path(const char *s, bb_smc_path *p) {
  if (!strcmp(s, "cpu") || !strcmp(s, "cpu-rules"))
    *p = BB_SMC_PATH_CPU;
  else if (!strcmp(s, "gpu"))
    *p = BB_SMC_PATH_GPU;
  else if (!strcmp(s, "auto") || !strcmp(s, "auto-emulated"))
    *p = BB_SMC_PATH_AUTO;
  else if (!strcmp(s, "emulated"))
    *p = BB_SMC_PATH_EMULATED;
  else
    return false;
  return true;
}

/* FNV-1a over ints: a fingerprint to compare paths by. */
static uint64_t mix(uint64_t h, long v) {
  for (int b = 0; b < 8; b++) h = (h ^ (uint64_t)((v >> (8 * b)) & 0xff)) * 1099511628211ull;
  return h;
}

/* An SMI instance as padded rows: pm is n x k, pw is n x the longest woman's list. */
typedef struct smi_rows {
  int *pm, *pm_len, pm_cols, *pw, *pw_len, pw_cols;
} smi_rows;

static bool smi_model_new(smc_model *m, smi_rows *rows, int n, int k, uint64_t seed) {
  bb_error err = {{0}};
  bb_hr_gen_params gp;
  bb_hr_gen_defaults(&gp);
  gp.n_residents = gp.n_hospitals = n;
  gp.list_length = k;
  gp.seed = seed;
  bb_hr *inst = NULL;
  if (bb_hr_generate(&gp, &inst, &err) != BB_OK) {
    fprintf(stderr, "smc-gpu-bench: %s\n", err.msg);
    return false;
  }
  rows->pm_cols = k;
  rows->pw_cols = 0;
  for (int w = 0; w < n; w++) {
    int len = (int)(inst->hosp_start[w + 1] - inst->hosp_start[w]);
    if (len > rows->pw_cols) rows->pw_cols = len;
  }
  rows->pm = calloc((size_t)n * (size_t)k + 1, sizeof *rows->pm);
  rows->pw = calloc((size_t)n * (size_t)rows->pw_cols + 1, sizeof *rows->pw);
  rows->pm_len = malloc((size_t)n * sizeof *rows->pm_len);
  rows->pw_len = malloc((size_t)n * sizeof *rows->pw_len);
  m->n = n;
  m->pm = m->pw = NULL;
  m->men = malloc((size_t)n * sizeof *m->men);
  m->women = malloc((size_t)n * sizeof *m->women);
  m->space = bb_space_new(&err);
  for (int side = 0; side < 2; side++) {
    const uint32_t *start = side ? inst->hosp_start : inst->res_start;
    const bb_id *list = side ? inst->hosp_list : inst->res_list;
    int cols = side ? rows->pw_cols : rows->pm_cols, *dst = side ? rows->pw : rows->pm;
    int *len = side ? rows->pw_len : rows->pm_len, *vars = side ? m->women : m->men;
    for (int p = 0; p < n; p++) {
      len[p] = (int)(start[p + 1] - start[p]);
      for (int e = 0; e < len[p]; e++) dst[(size_t)p * cols + e] = (int)list[start[p] + e];
      vars[p] = bb_int_var(m->space, 0, len[p], &err);
    }
  }
  bb_hr_free(inst);
  return true;
}

static void smi_rows_free(smi_rows *rows) {
  free(rows->pm);
  free(rows->pw);
  free(rows->pm_len);
  free(rows->pw_len);
}

static int run_instance(recorder *r, int n, int k, uint64_t seed, bb_smc_path path, bb_smc_strength strength,
                        int nodes) {
  bb_error err = {{0}};
  smc_model m;
  smi_rows rows = {0};
  if (k > 0 ? !smi_model_new(&m, &rows, n, k, seed) : !smc_model_new(&m, n, seed, "smc-gpu-bench")) return 1;
  bb_space *space = m.space;
  int *men = m.men, *women = m.women;
  bb_stable_matching_options opts = {strength, path};
  double t0 = bb_now();
  bool posted =
      k > 0 ? bb_post_stable_matching_smi(space, men, n, women, n, 0, rows.pm, rows.pm_len, rows.pm_cols, rows.pw,
                                          rows.pw_len, rows.pw_cols, &opts, &err) == BB_OK &&
                  bb_post_stable_matching_smi(space, women, n, men, n, 0, rows.pw, rows.pw_len, rows.pw_cols, rows.pm,
                                              rows.pm_len, rows.pm_cols, &opts, &err) == BB_OK
            : bb_post_stable_matching(space, men, n, women, n, m.pm, n, n, m.pw, n, n, &opts, &err) == BB_OK &&
                  bb_post_stable_matching(space, women, n, men, n, m.pw, n, n, m.pm, n, n, &opts, &err) == BB_OK;
  smi_rows_free(&rows);
  if (!posted) {
    fprintf(stderr, "smc-gpu-bench: %s\n", err.msg);
    return 1;
  }
  double t_post = bb_now() - t0;
  smc_model_drop_matrices(&m);
  r->phase = "root";
  bb_space_state state;
  t0 = bb_now();
  bb_space_status(space, &state, &err);
  double t_root = bb_now() - t0;
  uint64_t h_root = 14695981039346656037ull;
  for (int v = 0; v < n; v++) {
    h_root = mix(h_root, bb_int_min(space, men[v]));
    h_root = mix(h_root, bb_int_max(space, men[v]));
    h_root = mix(h_root, bb_int_size(space, men[v]));
    h_root = mix(h_root, bb_int_size(space, women[v]));
  }
  r->phase = "search";
  bb_branch_int(space, men, n, BB_VAR_INPUT_ORDER, BB_VAL_SPLIT, NULL, &err);
  bb_search_options so;
  bb_search_options_init(&so);
  so.node_limit = (uint64_t)nodes;
  bb_search *s = bb_search_new(space, &so, &err);
  bb_space *sol = s ? bb_search_next(s, &err) : NULL;
  uint64_t h_sol = 14695981039346656037ull;
  for (int v = 0; sol && v < n; v++) h_sol = mix(mix(h_sol, bb_int_min(sol, men[v])), bb_int_max(sol, men[v]));
  bb_search_statistics st = {0};
  if (s) bb_search_stats(s, &st);
  fprintf(r->out, "result,%d,%d,%s,%s,%.3f,%.3f,%016llx,%s,%016llx,%llu\n", n, r->instance, r->path, r->strength,
          t_post * 1e3, t_root * 1e3, (unsigned long long)h_root, sol ? "solution" : "stopped",
          (unsigned long long)h_sol, (unsigned long long)st.nodes);
  bb_space_free(sol);
  bb_search_free(s);
  smc_model_free(&m);
  return 0;
}

int main(int argc, char **argv) {
  int n = 100, k = 0, instances = 3, nodes = 100;
  uint64_t seed = 1;
  const char *paths = "cpu,gpu,auto", *csv = NULL;
  bb_smc_strength strength = BB_SMC_GS_LISTS;
  for (int a = 1; a < argc; a++) {
    const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!v) goto usage;
    if (!strcmp(o, "--n"))
      n = atoi(v);
    else if (!strcmp(o, "--k"))
      k = atoi(v);
    else if (!strcmp(o, "--instances"))
      instances = atoi(v);
    else if (!strcmp(o, "--seed"))
      seed = strtoull(v, NULL, 10);
    else if (!strcmp(o, "--nodes"))
      nodes = atoi(v);
    else if (!strcmp(o, "--paths"))
      paths = v;
    else if (!strcmp(o, "--csv"))
      csv = v;
    else if (!strcmp(o, "--tail"))
      bb_smc_set_tail_threshold(atoi(v));
    else if (!strcmp(o, "--strength")) {
      if (!bb_smc_strength_parse(v, &strength)) goto usage;
    } else
      goto usage;
    a++;
  }
  if (n < 1 || instances < 1 || k < 0 || k > n) goto usage;
  recorder r = {csv ? fopen(csv, "w") : stdout, n, 0, NULL, bb_smc_strength_name(strength), NULL};
  if (!r.out) {
    perror(csv);
    return 3;
  }
  bb_stable_matching_observe(record, &r);
  char *list = strdup(paths);
  for (int i = 0; i < instances; i++) {
    char *save = NULL;
    for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
      bb_smc_path path;
      if (!parse_path(p, &path)) goto usage;
      r.instance = (int)(seed - 1) + i; /* distinct across runs with other seeds */
      r.path = p;
      bb_smc_set_delta_batch(strcmp(p, "cpu-rules") != 0);
      if (!strcmp(p, "auto-emulated")) {
        int spread = bb_smc_get_calibration().handover_spread; /* the built-in default's */
        bb_smc_set_calibration(500, 512, 512, 8000, BB_SMC_PATH_EMULATED);
        bb_smc_set_handover_per_value(1);
        bb_smc_set_handover_spread(spread);
      }
      if (run_instance(&r, n, k, seed + (uint64_t)i, path, strength, nodes)) return 1;
      fflush(r.out);
    }
    free(list);
    list = strdup(paths);
  }
  free(list);
  if (csv) fclose(r.out);
  return 0;
usage:
  fprintf(stderr,
          "usage: smc-gpu-bench --n N [--k K] [--instances K] [--seed S] [--paths "
          "cpu,gpu,auto,emulated,cpu-rules,auto-emulated]\n"
          "                     [--strength gs-lists|men-proposing] [--nodes M] [--tail T] [--csv FILE]\n");
  return 2;
}
