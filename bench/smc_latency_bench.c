/* smc-latency-bench: one decision's propagation, alone and repeated.
 *
 * smc-gpu-bench times the propagations a search meets, once each, among everything else a
 * search does. This takes the same model ([Travasci 2025]'s: random complete lists, the standard
 * and the swapped constraint) to its root fixpoint, then for each of --decisions random
 * decisions (a node of smc-gpu-bench's search at a random depth up to --depth, and its next
 * split to the left or to the right) clones that node, posts the decision and times the
 * propagation that follows (both constraints, write-back included), --repeat times on fresh
 * clones; it prints one row per decision and path with the median time
 * and a fingerprint of the resulting domains, so that the paths can be checked identical and
 * timed propagation by propagation. "cpu-rules" is the CPU path with later propagations
 * through the event rules instead of as batches (smc_delta.c).
 *
 * --only K times decision K alone (for a profiler).
 *
 * usage: smc-latency-bench --n N [--seed S] [--decisions D] [--depth MAX] [--repeat R] [--only K]
 *                          [--paths cpu,cpu-rules,gpu,auto] [--strength gs-lists|men-proposing] */
#define _POSIX_C_SOURCE 200809L
#include "bb_post.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_instance.h"
#include "smc_tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* FNV-1a over the domains of all 2n variables. */
static uint64_t fingerprint(bb_space *s, const int *vars, int count) {
  uint64_t h = 14695981039346656037ull;
  for (int v = 0; v < count; v++) {
    long parts[3] = {bb_int_min(s, vars[v]), bb_int_max(s, vars[v]), bb_int_size(s, vars[v])};
    for (int p = 0; p < 3; p++)
      for (int b = 0; b < 8; b++) h = (h ^ (uint64_t)((parts[p] >> (8 * b)) & 0xff)) * 1099511628211ull;
  }
  return h;
}

/* A node at `depth` of the search smc-gpu-bench runs (men in input order, split on the rank:
 * the left branch, man <= the middle of his domain, taken `depth` times), then one more split
 * there, to the left or to the right. */
typedef struct decision {
  int depth;
  bool right;
} decision;

/* The middle of man's domain, or -1 when he is assigned. */
static int middle(bb_space *s, int man) {
  int lo = bb_int_min(s, man), hi = bb_int_max(s, man);
  return lo == hi ? -1 : lo + (hi - lo) / 2;
}

static int run_path(const char *name, int n, uint64_t seed, bb_smc_strength strength, const decision *ds, int count,
                    int only, int repeat) {
  bb_smc_path path = BB_SMC_PATH_CPU;
  if (!strcmp(name, "gpu"))
    path = BB_SMC_PATH_GPU;
  else if (!strcmp(name, "auto"))
    path = BB_SMC_PATH_AUTO;
  else if (strcmp(name, "cpu") && strcmp(name, "cpu-rules"))
    return 2;
  bb_smc_set_delta_batch(strcmp(name, "cpu-rules") != 0);
  smc_model m;
  if (!smc_model_new(&m, n, seed, "smc-latency-bench")) return 1;
  bb_error err = {{0}};
  bb_stable_matching_options opts = {strength, path};
  if (bb_post_stable_matching(m.space, m.men, n, m.women, n, m.pm, n, n, m.pw, n, n, &opts, &err) != BB_OK ||
      bb_post_stable_matching(m.space, m.women, n, m.men, n, m.pw, n, n, m.pm, n, n, &opts, &err) != BB_OK) {
    fprintf(stderr, "smc-latency-bench: %s\n", err.msg);
    return 1;
  }
  smc_model_drop_matrices(&m);
  bb_space_state state;
  double t0 = bb_now();
  bb_space_status(m.space, &state, &err);
  double root = bb_now() - t0;
  int *all = malloc(2 * (size_t)n * sizeof *all);
  for (int v = 0; v < n; v++) all[v] = m.men[v], all[n + v] = m.women[v];
  printf("root,%s,%d,%.4f,%016llx\n", name, n, root * 1e3, (unsigned long long)fingerprint(m.space, all, 2 * n));
  double *times = malloc((size_t)repeat * sizeof *times);
  for (int k = 0; k < count; k++) {
    const decision *dc = &ds[k];
    if (only >= 0 && only != k) continue;
    bb_space *node = bb_space_clone(m.space, &err);
    int man = 0;
    for (int step = 0; step < dc->depth && man < n && !bb_space_failed(node); step++) {
      while (man < n && middle(node, m.men[man]) < 0) man++;
      if (man == n) break;
      bb_post_int_rel_const(node, m.men[man], BB_LE, middle(node, m.men[man]), bb_reif_none(), BB_IPL_DEF, &err);
      bb_space_status(node, &state, &err);
    }
    while (man < n && !bb_space_failed(node) && middle(node, m.men[man]) < 0) man++;
    if (man == n || bb_space_failed(node)) {
      bb_space_free(node);
      continue;
    }
    int value = middle(node, m.men[man]);
    uint64_t h = 0;
    const char *outcome = "fix";
    for (int r = 0; r < repeat; r++) {
      bb_space *c = bb_space_clone(node, &err);
      bb_post_int_rel_const(c, m.men[man], dc->right ? BB_GT : BB_LE, value, bb_reif_none(), BB_IPL_DEF, &err);
      t0 = bb_now();
      bb_space_status(c, &state, &err);
      times[r] = bb_now() - t0;
      if (r == 0) {
        outcome = state == BB_SPACE_FAILED ? "failed" : "fix";
        if (state != BB_SPACE_FAILED) h = fingerprint(c, all, 2 * n);
      }
      bb_space_free(c);
    }
    bb_space_free(node);
    qsort(times, (size_t)repeat, sizeof *times, compare_double);
    printf("decision,%s,%d,%d,%s,%d,%.4f,%.4f,%s,%016llx\n", name, k, man, dc->right ? "gt" : "le", value,
           times[repeat / 2] * 1e3, times[0] * 1e3, outcome, (unsigned long long)h);
  }
  free(times);
  free(all);
  smc_model_free(&m);
  return 0;
}

int main(int argc, char **argv) {
  int n = 2400, count = 40, repeat = 9, max_depth = 60, only = -1;
  uint64_t seed = 1;
  const char *paths = "cpu,cpu-rules";
  bb_smc_strength strength = BB_SMC_GS_LISTS;
  for (int a = 1; a < argc; a++) {
    const char *o = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
    if (!v) goto usage;
    if (!strcmp(o, "--n"))
      n = atoi(v);
    else if (!strcmp(o, "--seed"))
      seed = strtoull(v, NULL, 10);
    else if (!strcmp(o, "--decisions"))
      count = atoi(v);
    else if (!strcmp(o, "--repeat"))
      repeat = atoi(v);
    else if (!strcmp(o, "--depth"))
      max_depth = atoi(v);
    else if (!strcmp(o, "--only"))
      only = atoi(v);
    else if (!strcmp(o, "--paths"))
      paths = v;
    else if (!strcmp(o, "--strength")) {
      if (!bb_smc_strength_parse(v, &strength)) goto usage;
    } else
      goto usage;
    a++;
  }
  if (n < 2 || count < 1 || repeat < 1 || max_depth < 0) goto usage;
  decision *ds = malloc((size_t)count * sizeof *ds);
  uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int k = 0; k < count; k++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    ds[k] = (decision){(int)(x % (uint64_t)(max_depth + 1)), ((x >> 30) & 1) != 0};
  }
  printf("kind,path,decision,man,rel,value,median_ms,min_ms,outcome,fingerprint\n");
  char *list = strdup(paths), *save = NULL;
  for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
    int rc = run_path(p, n, seed, strength, ds, count, only, repeat);
    if (rc == 2) goto usage;
    if (rc) return rc;
    fflush(stdout);
  }
  free(list);
  free(ds);
  return 0;
usage:
  fprintf(stderr,
          "usage: smc-latency-bench --n N [--seed S] [--decisions D] [--depth MAX] [--repeat R] [--only K]\n"
          "                         [--paths cpu,cpu-rules,gpu,auto] [--strength gs-lists|men-proposing]\n");
  return 2;
}
