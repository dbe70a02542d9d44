/* The native HR constraint on each path (the path option: CPU, the emulated
 * parallel path, the GPU when there is one), inside Gecode through the shim: generate an
 * instance (bamboo's HR generator), post the constraint, time the root propagation (Gecode
 * status()), then DECISIONS propagations down one branch (a resident with a choice loses his
 * largest value, the same residents on every path; each path runs twice, the second timed), and
 * check that every path leaves the same
 * residents' bounds. One markdown row per path.
 *
 *   smc-hr-path-bench RESIDENTS HOSPITALS LIST_LENGTH [DECISIONS [SEED]] */
#include "bb_gpu_device.h"
#include "bb_post.h"
#include "bb_shim.h"
#include "bb_stable_matching_hr.h"
#include "hr.h"
#include "hr_gen.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s RESIDENTS HOSPITALS LIST_LENGTH [DECISIONS [SEED]]\n", argv[0]);
    return 2;
  }
  bb_hr_gen_params gp;
  bb_hr_gen_defaults(&gp);
  gp.smi = false, gp.n_residents = atoi(argv[1]), gp.n_hospitals = atoi(argv[2]), gp.list_length = atoi(argv[3]);
  int decisions = argc > 4 ? atoi(argv[4]) : 50;
  gp.seed = argc > 5 ? (uint64_t)atoll(argv[5]) : 1;
  bb_error err = {{0}};
  bb_hr *I = NULL;
  if (bb_hr_generate(&gp, &I, &err) != BB_OK) return fprintf(stderr, "generate: %s\n", err.msg), 1;
  int nr = I->n_residents, nh = I->n_hospitals, cols = 0;
  for (int h = 0; h < nh; h++)
    if (I->capacity[h] > cols) cols = I->capacity[h];
  char why[256];
  int paths = bb_gpu_probe(0, why, sizeof why) ? 3 : 2;
  static const bb_smc_path path_of[] = {BB_SMC_PATH_CPU, BB_SMC_PATH_EMULATED, BB_SMC_PATH_GPU};
  long long first_sum = -1;
  printf(
      "| path | residents | hospitals | list length | root (ms) | %d decisions (ms per propagation) | residents' "
      "bounds sum |\n",
      decisions);
  printf("|---|---|---|---|---|---|---|\n");
  for (int run = 0; run < 2 * paths; run++) { /* each path twice: the first warms up */
    int k = run / 2;
    bb_space *s = bb_space_new(&err);
    int *vars = malloc(((size_t)nr + (size_t)nh * (size_t)cols) * sizeof *vars);
    for (int v = 0; v < nr + nh * cols; v++) vars[v] = bb_int_var(s, 0, 1 << 20, &err);
    bb_stable_matching_hr_options opts = {path_of[k]};
    if (bb_post_stable_matching_hr_csr(s, vars, nr, vars + nr, nh, cols, 0, I->res_start, I->res_list, I->hosp_start,
                                       I->hosp_list, I->capacity, &opts, &err) != BB_OK)
      return fprintf(stderr, "post: %s\n", err.msg), 1;
    bb_space_state state;
    double t0 = bb_now();
    bb_space_status(s, &state, &err);
    double root = bb_now() - t0, down = 0;
    int done = 0;
    uint64_t pick = 12345;
    for (int d = 0; d < decisions && state != BB_SPACE_FAILED; d++) {
      int r = -1;
      for (int tries = 0; tries < nr && r < 0; tries++) {
        pick = pick * 6364136223846793005ULL + 1442695040888963407ULL;
        int c = (int)((pick >> 33) % (uint64_t)nr);
        if (bb_int_min(s, vars[c]) != bb_int_max(s, vars[c])) r = c;
      }
      if (r < 0) break;
      bb_post_int_rel_const(s, vars[r], BB_NE, bb_int_max(s, vars[r]), bb_reif_none(), BB_IPL_DEF, &err);
      t0 = bb_now();
      bb_space_status(s, &state, &err);
      down += bb_now() - t0, done++;
    }
    long long sum = 0;
    for (int r = 0; r < nr && state != BB_SPACE_FAILED; r++)
      sum += bb_int_min(s, vars[r]) + 7LL * bb_int_max(s, vars[r]);
    if (first_sum < 0) first_sum = sum;
    if (run % 2 == 1)
      printf("| %s | %d | %d | %d | %.1f | %.3f (%d) | %lld%s |\n", bb_smc_path_name(path_of[k]), nr, nh,
             gp.list_length, 1e3 * root, done ? 1e3 * down / done : 0.0, done, sum, sum == first_sum ? "" : " DIFFERS");
    bb_space_free(s);
    free(vars);
  }
  bb_hr_free(I);
  return 0;
}
