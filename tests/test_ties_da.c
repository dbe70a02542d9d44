/* The deferred acceptance of da-stb, da-mtb and sic on each HR algorithm (--da): once the ties
 * are broken the instance is an HR instance, whose resident-optimal stable matching is unique,
 * so every algorithm must give gs-seq's matching exactly.
 *
 *   test_ties_da        mw-par and bamboo (on the CPU below its break-even or without a GPU)
 *   test_ties_da gpu    gpu-la-min and bamboo on the GPU, on instances past bamboo's break-even
 *                       of 2M list entries; exit 77 without a GPU */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "hr.h"
#include "test_util.h"
#include "ties.h"
#include "ties_gen.h"

static int32_t *run(const bb_ties *in, const char *algo, const char *da, uint64_t seed, char path[96]) {
  int32_t *assigned = malloc(((size_t)in->n_residents + 1) * sizeof *assigned);
  bb_solve_opts hr;
  bb_solve_opts_default(&hr);
  bb_ties_solve_opts opts = {.seed = seed, .da = da, .hr = &hr};
  bb_error err = {{0}};
  bb_status st = bb_ties_solve_with(in, algo, &opts, assigned, path, &err);
  CHECKF(st == BB_OK, "%s --da %s: %s", algo, da ? da : "(default)", err.msg);
  return assigned;
}

/* Every algorithm of `das` against gs-seq on `in`, for the three algorithms that break ties. */
static void same_matchings(const bb_ties *in, const char *const *das, const char *want_path, const char *what) {
  static const char *const algos[] = {"da-stb", "da-mtb", "sic"};
  for (size_t a = 0; a < sizeof algos / sizeof *algos; a++)
    for (uint64_t seed = 1; seed <= 2; seed++) {
      char path[96];
      int32_t *ref = run(in, algos[a], "gs-seq", seed, path);
      for (const char *const *da = das; *da; da++) {
        int32_t *got = run(in, algos[a], *da, seed, path);
        CHECKF(!memcmp(ref, got, (size_t)in->n_residents * sizeof *ref), "%s %s --da %s seed %llu: not gs-seq's", what,
               algos[a], *da, (unsigned long long)seed);
        if (want_path) CHECKF(strstr(path, want_path), "%s --da %s ran on '%s', not %s", what, *da, path, want_path);
        free(got);
      }
      free(ref);
    }
}

static bb_ties *generated(bb_ties_gen_kind kind, int residents, int hospitals, int lists, uint64_t seed) {
  bb_ties_gen_params p;
  bb_ties_gen_defaults(kind, &p);
  if (residents) p.n_residents = residents;
  if (hospitals) p.n_hospitals = hospitals;
  if (lists) p.list_length = lists;
  p.seed = seed;
  bb_ties *in = NULL;
  bb_error err = {{0}};
  CHECKF(bb_ties_generate(&p, &in, &err) == BB_OK, "generate: %s", err.msg);
  return in;
}

static void refused(void) {
  bb_ties *in = generated(BB_TIES_GEN_SMTI, 20, 20, 0, 3);
  int32_t *assigned = malloc(21 * sizeof *assigned);
  bb_ties_solve_opts opts = {.seed = 1, .da = "gs-par"};
  bb_error err = {{0}};
  CHECK(bb_ties_solve_with(in, "da-stb", &opts, assigned, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "gs-par"));
  opts.da = "gs-seq";
  CHECK(bb_ties_solve_with(in, "kiraly", &opts, assigned, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "kiraly"));
  free(assigned);
  bb_ties_free(in);
}

int main(int argc, char **argv) {
  int gpu = argc > 1 && !strcmp(argv[1], "gpu");
  if (gpu) {
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) {
      printf("skipped: %s\n", why);
      return 77;
    }
    static const char *const on_gpu[] = {"gpu-la-min", NULL}, *const bamboo[] = {"bamboo", NULL};
    for (uint64_t seed = 1; seed <= 3; seed++) {
      bb_ties *small = generated(seed == 1 ? BB_TIES_GEN_SMTI : BB_TIES_GEN_HRT, 0, 0, 0, seed);
      same_matchings(small, on_gpu, "gpu", "small");
      bb_ties_free(small);
    }
    /* past bamboo's break-even: 400,000 students with lists of up to 12 */
    bb_ties *large = generated(BB_TIES_GEN_SCHOOL, 400000, 3000, 0, 5);
    same_matchings(large, on_gpu, "gpu", "school 400k");
    same_matchings(large, bamboo, "gpu", "school 400k");
    bb_ties_free(large);
    return tu_finish();
  }
  static const char *const mw_par[] = {"mw-par", NULL}, *const bamboo[] = {"bamboo", NULL};
  for (uint64_t seed = 1; seed <= 4; seed++) {
    bb_ties *smti = generated(BB_TIES_GEN_SMTI, 0, 0, 0, seed), *hrt = generated(BB_TIES_GEN_HRT, 0, 0, 0, seed);
    same_matchings(smti, mw_par, "mw-par", "smti");
    same_matchings(hrt, mw_par, "mw-par", "hrt");
    same_matchings(hrt, bamboo, NULL, "hrt"); /* below the break-even: the CPU */
    bb_ties_free(smti);
    bb_ties_free(hrt);
  }
  bb_ties *school = generated(BB_TIES_GEN_SCHOOL, 20000, 200, 0, 7);
  same_matchings(school, mw_par, "mw-par", "school 20k");
  bb_ties_free(school);
  refused();
  return tu_finish();
}
