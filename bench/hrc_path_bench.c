/* The HRC constraint on each path (the path option: CPU, the emulated parallel
 * path, the GPU when there is one), inside Gecode through the shim: read an HRC instance file
 * (bamboo-smp gen nrmp-couples), post the constraint as fzn-bamboo does (ranks from 1), and time
 *   root      Gecode status() with bp free: the root propagation to its fixpoint;
 *   bp = 0    then bp = 0 posted (the default search's first branch: no slack, the
 *             hospital-side rules on) and status() again;
 *   decisions then DECISIONS propagations down one branch (a variable with a choice loses its
 *             largest value, the same variables on every path; bp free again: a fresh space).
 * Each path runs twice and the second run is shown. Every path must leave the same domains:
 * the last column is a checksum of every variable's bounds and size and bp's bounds after
 * each phase ("DIFFERS" where it is not the first path's).
 *
 *   hrc-path-bench FILE.hrc [DECISIONS] */
#include "bb_gpu_device.h"
#include "bb_hrc.h"
#include "bb_post.h"
#include "bb_shim.h"
#include "hrc.h"
#include "hrc_io.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct model {
  bb_space *s;
  int *vars, n, bp;
} model;

static bool post(const bb_hrc *I, bb_smc_path path, model *m, bb_error *err) {
  int nc = I->n_couples, ns = I->n_residents - 2 * nc;
  m->n = ns + nc;
  m->s = bb_space_new(err);
  if (!m->s) return false;
  m->vars = malloc(((size_t)m->n + 1) * sizeof *m->vars);
  for (int v = 0; v < m->n; v++) m->vars[v] = bb_int_var(m->s, 1, 1 << 20, err);
  m->bp = bb_int_var(m->s, 0, 1 << 30, err);
  bb_smc_hrc_lists L = bb_smc_hrc_lists_of(I);
  bb_stable_matching_hrc_options opts = {path, NULL};
  bb_status st = bb_post_stable_matching_hrc(m->s, m->vars, ns, m->vars + ns, nc, m->bp, 1, &L, NULL, &opts, err);
  return st == BB_OK;
}

static void drop(model *m) {
  bb_space_free(m->s);
  free(m->vars);
}

static long long checksum(const model *m, bb_space_state state) {
  if (state == BB_SPACE_FAILED) return -1;
  long long sum = bb_int_min(m->s, m->bp) + 3LL * bb_int_max(m->s, m->bp);
  for (int v = 0; v < m->n; v++)
    sum = sum * 31 + bb_int_min(m->s, m->vars[v]) + 7LL * bb_int_max(m->s, m->vars[v]) +
          13LL * (long long)bb_int_size(m->s, m->vars[v]);
  return sum;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE.hrc [DECISIONS]\n", argv[0]);
    return 2;
  }
  int decisions = argc > 2 ? atoi(argv[2]) : 20;
  bb_error err = {{0}};
  bb_hrc *I = NULL;
  if (bb_hrc_read(argv[1], &I, &err) != BB_OK) return fprintf(stderr, "%s\n", err.msg), 1;
  char why[256];
  int paths = bb_gpu_probe(0, why, sizeof why) ? 3 : 2;
  static const bb_smc_path path_of[] = {BB_SMC_PATH_CPU, BB_SMC_PATH_EMULATED, BB_SMC_PATH_GPU};
  long long first[3] = {0, 0, 0};
  printf("%s: %d residents (%d couples), %d hospitals\n\n", argv[1], I->n_residents, I->n_couples, I->n_hospitals);
  printf(
      "| path | root (ms) | bp = 0 (ms) | %d decisions (ms per propagation) | checksums root / bp = 0 / decisions |\n",
      decisions);
  printf("|---|---|---|---|---|\n");
  for (int run = 0; run < 2 * paths; run++) { /* each path twice: the first warms up */
    bb_smc_path path = path_of[run / 2];
    model m;
    bb_space_state state;
    if (!post(I, path, &m, &err)) return fprintf(stderr, "post: %s\n", err.msg), 1;
    double t0 = bb_now();
    bb_space_status(m.s, &state, &err);
    double root = bb_now() - t0;
    long long sums[3];
    sums[0] = checksum(&m, state);
    bb_post_int_rel_const(m.s, m.bp, BB_EQ, 0, bb_reif_none(), BB_IPL_DEF, &err);
    t0 = bb_now();
    bb_space_status(m.s, &state, &err);
    double zero = bb_now() - t0;
    sums[1] = checksum(&m, state);
    drop(&m);
    if (!post(I, path, &m, &err)) return fprintf(stderr, "post: %s\n", err.msg), 1;
    bb_space_status(m.s, &state, &err);
    double down = 0;
    int done = 0;
    uint64_t pick = 12345;
    for (int d = 0; d < decisions && state != BB_SPACE_FAILED; d++) {
      int v = -1;
      for (int tries = 0; tries < m.n && v < 0; tries++) {
        pick = pick * 6364136223846793005ULL + 1442695040888963407ULL;
        int c = (int)((pick >> 33) % (uint64_t)m.n);
        if (bb_int_min(m.s, m.vars[c]) != bb_int_max(m.s, m.vars[c])) v = c;
      }
      if (v < 0) break;
      bb_post_int_rel_const(m.s, m.vars[v], BB_NE, bb_int_max(m.s, m.vars[v]), bb_reif_none(), BB_IPL_DEF, &err);
      t0 = bb_now();
      bb_space_status(m.s, &state, &err);
      down += bb_now() - t0, done++;
    }
    sums[2] = checksum(&m, state);
    drop(&m);
    bool same = true;
    for (int k = 0; k < 3; k++) {
      if (run == 0) first[k] = sums[k];
      same = same && sums[k] == first[k];
    }
    if (run % 2 == 1)
      printf("| %s | %.1f | %.1f | %.3f (%d) | %llx / %llx / %llx%s |\n", bb_smc_path_name(path), 1e3 * root,
             1e3 * zero, done ? 1e3 * down / done : 0.0, done, (unsigned long long)sums[0], (unsigned long long)sums[1],
             (unsigned long long)sums[2], same ? "" : " DIFFERS");
  }
  bb_hrc_free(I);
  return 0;
}
