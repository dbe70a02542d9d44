/* smc-bench: the Stable Marriage constraint on the CPU, through Gecode (the shim).
 *
 * For each size n and strength: post stable_matching over random complete instances
 * (bamboo's uniform generator), time the root propagation (Gecode status(), which includes
 * writing every pruned domain back into Gecode), then enumerate every stable matching
 * (DFS, men in input order, smallest rank first) and count solutions and failures. Prints
 * one markdown table row per run; peak RSS is the process's, so run one size per process
 * when memory matters (bench/smc.sh does).
 *
 * usage: smc-bench [--n 100,1000] [--strength gs-lists|men-proposing|both] [--seed S]
 *                  [--instances K] [--no-enumerate] [--header] */
#define _POSIX_C_SOURCE 200809L
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static double peak_rss_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

static int run(int n, uint64_t seed, bb_smc_strength strength, bool enumerate) {
  bb_error err = {{0}};
  smc_model m;
  if (!smc_model_new(&m, n, seed, "smc-bench")) return 1;
  bb_space *space = m.space;
  int *men = m.men, *women = m.women;
  bb_stable_matching_options opts = {strength, BB_SMC_PATH_CPU};
  double t0 = bb_now();
  if (bb_post_stable_matching(space, men, n, women, n, m.pm, n, n, m.pw, n, n, &opts, &err) != BB_OK) {
    fprintf(stderr, "smc-bench: %s\n", err.msg);
    return 1;
  }
  double t_post = bb_now() - t0;
  smc_model_drop_matrices(&m);
  bb_space_state state;
  t0 = bb_now();
  bb_space_status(space, &state, &err);
  double t_root = bb_now() - t0;
  if (getenv("SMC_BENCH_COUNTERS")) {
    bb_smc_counters c;
    bb_stable_matching_counters(&c);
    fprintf(stderr, "counters: propagations %llu rounds %llu channel %llu bounds %llu scans %llu\n",
            (unsigned long long)c.propagations, (unsigned long long)c.rounds, (unsigned long long)c.channel_removals,
            (unsigned long long)c.bound_updates, (unsigned long long)c.scans);
  }
  long domain_total = 0;
  for (int i = 0; i < n; i++) domain_total += (long)bb_int_size(space, men[i]) + (long)bb_int_size(space, women[i]);
  long solutions = -1;
  bb_search_statistics stats = {0};
  double t_enum = 0;
  if (enumerate) {
    bb_branch_int(space, men, n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    t0 = bb_now();
    bb_search *s = bb_search_new(space, NULL, &err);
    solutions = 0;
    for (bb_space *sol; (sol = bb_search_next(s, &err)) != NULL; bb_space_free(sol)) solutions++;
    bb_search_stats(s, &stats);
    bb_search_free(s);
    t_enum = bb_now() - t0;
  }
  printf("| %d | %s | %llu | %.2f | %.2f | %ld | ", n, bb_smc_strength_name(strength), (unsigned long long)seed,
         1e3 * t_post, 1e3 * t_root, domain_total);
  if (enumerate)
    printf("%ld | %llu | %llu | %.1f | ", solutions, (unsigned long long)stats.fails, (unsigned long long)stats.nodes,
           1e3 * t_enum);
  else
    printf("- | - | - | - | ");
  printf("%.0f |\n", peak_rss_mib());
  fflush(stdout);
  smc_model_free(&m);
  return 0;
}

int main(int argc, char **argv) {
  char sizes[256] = "100,1000";
  const char *strength_name = "both";
  uint64_t seed = 1;
  int instances = 1;
  bool enumerate = true, header = false;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--n") && a + 1 < argc)
      snprintf(sizes, sizeof sizes, "%s", argv[++a]);
    else if (!strcmp(argv[a], "--strength") && a + 1 < argc)
      strength_name = argv[++a];
    else if (!strcmp(argv[a], "--seed") && a + 1 < argc)
      seed = strtoull(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--instances") && a + 1 < argc)
      instances = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--no-enumerate"))
      enumerate = false;
    else if (!strcmp(argv[a], "--header"))
      header = true;
    else {
      fprintf(stderr,
              "usage: smc-bench [--n 100,1000] [--strength gs-lists|men-proposing|both] [--seed S] "
              "[--instances K] [--no-enumerate] [--header]\n");
      return 2;
    }
  }
  bb_smc_strength strengths[2];
  int n_strengths = 0;
  if (!strcmp(strength_name, "both")) {
    strengths[n_strengths++] = BB_SMC_GS_LISTS;
    strengths[n_strengths++] = BB_SMC_MEN_PROPOSING;
  } else if (!bb_smc_strength_parse(strength_name, &strengths[n_strengths++])) {
    fprintf(stderr, "smc-bench: unknown strength '%s'\n", strength_name);
    return 2;
  }
  if (header) {
    printf(
        "| n | strength | seed | post ms | root propagation ms | domain total | solutions | failures | nodes | "
        "enumeration ms | peak RSS MiB |\n");
    printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  }
  for (char *tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
    int n = atoi(tok);
    if (n < 1 || n > 65536) {
      fprintf(stderr, "smc-bench: bad size '%s'\n", tok);
      return 2;
    }
    for (int k = 0; k < instances; k++)
      for (int s = 0; s < n_strengths; s++)
        if (run(n, seed + (uint64_t)k, strengths[s], enumerate)) return 1;
  }
  return 0;
}
