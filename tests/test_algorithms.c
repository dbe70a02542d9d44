/* Differential test: every CPU-capable algorithm returns gs-seq's matching on instances
 * of every generator kind, n = 1..300; for n <= 8 that matching is the brute-force
 * man-optimal one; every result passes an independent stability check; the proposal
 * counts are exact; and the time limit stops every CPU algorithm. */
#include "generate.h"
#include "solve.h"
#include "test_util.h"

enum { MAX_ALGOS = 32 };
static const char *algos[MAX_ALGOS];
static int algo_count;

/* Proposals every complete run makes: each man goes down his list to his wife. */
static uint64_t expected_proposals(const bb_instance *inst, const bb_id *wife_of) {
  uint64_t total = 0;
  size_t n = (size_t)inst->n;
  for (size_t m = 0; m < n; m++) {
    size_t k = 0;
    while (inst->men_prefs[m * n + k] != wife_of[m]) k++;
    total += k + 1;
  }
  return total;
}

static int counts_proposals(const char *name) {
  static const char *const counted[] = {"gs-seq", "mw-seq", "la-seq", "gs-par", "mw-par"};
  for (size_t i = 0; i < sizeof counted / sizeof *counted; i++)
    if (!strcmp(name, counted[i])) return 1;
  return 0;
}

/* Runs every algorithm on `inst`; `label` names the case in failures. */
static void check_instance(const bb_instance *inst, const char *label) {
  int n = inst->n;
  bb_error err = {{0}};
  bb_id *ref = malloc((size_t)n * sizeof *ref), *got = malloc((size_t)n * sizeof *got);
  bb_id *brute = malloc((size_t)n * sizeof *brute);
  char why[160];
  CHECK(ref && got && brute);
  if (!ref || !got || !brute) goto out;
  CHECKF(bb_instance_validate(inst, &err) == BB_OK, "%s: invalid instance: %s", label, err.msg);

  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  bb_solve_stats stats;
  bb_status st = bb_solve(inst, "gs-seq", &opts, ref, &stats, &err);
  CHECKF(st == BB_OK, "%s: gs-seq: %s", label, err.msg);
  if (st != BB_OK) goto out;
  CHECKF(tu_stable(inst, ref, why, sizeof why), "%s: gs-seq: %s", label, why);
  if (n <= 8) {
    int stable_count = tu_brute_man_optimal(inst, brute);
    CHECKF(stable_count > 0, "%s: brute force: man-optimal assignment is not stable", label);
    if (stable_count > 0)
      CHECKF(!memcmp(ref, brute, (size_t)n * sizeof *ref), "%s: gs-seq differs from brute force", label);
  }
  uint64_t proposals = expected_proposals(inst, ref);

  for (int a = 0; a < algo_count; a++) {
    for (int threads = 0; threads <= 3; threads += 3) { /* all CPUs, and 3 (oversubscribed) */
      opts.threads = threads;
      memset(got, 0xff, (size_t)n * sizeof *got);
      st = bb_solve(inst, algos[a], &opts, got, &stats, &err);
      CHECKF(st == BB_OK, "%s: %s: %s", label, algos[a], err.msg);
      if (st != BB_OK) continue;
      CHECKF(!memcmp(ref, got, (size_t)n * sizeof *ref), "%s: %s (threads %d) differs from gs-seq", label, algos[a],
             threads);
      CHECKF(tu_stable(inst, got, why, sizeof why), "%s: %s: %s", label, algos[a], why);
      if (counts_proposals(algos[a]))
        CHECKF(stats.proposals == proposals, "%s: %s counted %llu proposals, expected %llu", label, algos[a],
               (unsigned long long)stats.proposals, (unsigned long long)proposals);
      CHECKF(stats.path[0] != '\0', "%s: %s: empty stats.path", label, algos[a]);
    }
  }
out:
  free(ref);
  free(got);
  free(brute);
}

static void check_generated(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_generate(kind, n, group, seed, 1, &inst, &err);
  CHECKF(st == BB_OK, "generate %s n=%d g=%d: %s", bb_gen_kind_name(kind), n, group, err.msg);
  if (st != BB_OK) return;
  char label[96];
  snprintf(label, sizeof label, "%s n=%d g=%d seed=%llu", bb_gen_kind_name(kind), n, group, (unsigned long long)seed);
  check_instance(inst, label);
  bb_instance_free(inst);
}

static void check_generators(void) {
  static const int sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 33, 64, 100, 177, 256, 300};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    int n = sizes[i], seeds = n <= 8 ? 4 : 2;
    for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
      check_generated(BB_GEN_PERFECT, n, 1, seed);
      check_generated(BB_GEN_SOLO, n, 1, seed);
      check_generated(BB_GEN_CONGESTED, n, 1, seed);
      check_generated(BB_GEN_UNIFORM, n, 1, seed);
      int groups[] = {1, 2, 3, n / 4, n / 2, n};
      for (size_t g = 0; g < sizeof groups / sizeof *groups; g++)
        if (groups[g] >= 1 && groups[g] <= n && (g == 0 || groups[g] != groups[g - 1]))
          check_generated(BB_GEN_RANDOM, n, groups[g], seed);
    }
  }
}

/* Instances from the test's own RNG, so the reference does not rest on the generators. */
static void check_own_random(void) {
  for (int n = 1; n <= 8; n++)
    for (uint64_t seed = 0; seed < 12; seed++) {
      bb_instance *inst = tu_random_instance(n, seed * 1000 + (uint64_t)n);
      CHECK(inst != NULL);
      if (!inst) continue;
      char label[64];
      snprintf(label, sizeof label, "own-random n=%d seed=%llu", n, (unsigned long long)seed);
      check_instance(inst, label);
      bb_instance_free(inst);
    }
}

/* A limit far below the run time must stop each CPU algorithm with BB_ERR_TIMEOUT
 * (congested n = 3000 makes 4.5 million proposals: with 2 threads each one passes its
 * first clock check). */
enum { N_LIMIT = 3000 };

static void check_time_limit(void) {
  static const char *const cpu[] = {"gs-seq", "mw-seq", "la-seq", "gs-par", "mw-par"};
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(BB_GEN_CONGESTED, N_LIMIT, 1, 1, 0, &inst, &err) == BB_OK);
  bb_id *got = malloc(N_LIMIT * sizeof *got);
  CHECK(got != NULL);
  for (size_t a = 0; inst && got && a < sizeof cpu / sizeof *cpu; a++) {
    bb_solve_opts opts;
    bb_solve_opts_default(&opts);
    opts.threads = 2;
    opts.time_limit_s = 1e-9;
    err.msg[0] = '\0';
    bb_status st = bb_solve(inst, cpu[a], &opts, got, NULL, &err);
    CHECKF(st == BB_ERR_TIMEOUT, "%s: time limit gave status %d (%s)", cpu[a], (int)st, err.msg);
    CHECKF(strstr(err.msg, "time limit") != NULL, "%s: timeout message '%s'", cpu[a], err.msg);
    opts.time_limit_s = 60;
    st = bb_solve(inst, cpu[a], &opts, got, NULL, &err);
    CHECKF(st == BB_OK, "%s: generous time limit: %s", cpu[a], err.msg);
    for (int m = 0; st == BB_OK && m < N_LIMIT; m++)
      CHECKF(got[m] == (bb_id)m, "%s: congested man %d got woman %u", cpu[a], m, got[m]);
  }
  free(got);
  bb_instance_free(inst);
}

int main(void) {
  for (const char *const *name = bb_algorithm_names(); *name; name++)
    if (!bb_algorithm_needs_gpu(*name) && algo_count < MAX_ALGOS) algos[algo_count++] = *name;
  CHECKF(algo_count >= 6, "only %d CPU-capable algorithms registered", algo_count);
  check_generators();
  check_own_random();
  check_time_limit();
  return tu_finish();
}
