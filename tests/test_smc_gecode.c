/* The Stable Marriage constraint inside Gecode, through the shim's C API only:
 *   - exhaustive differential tests (n <= 7): the solutions Gecode's DFS enumerates equal
 *     brute force, with side constraints posted as real Gecode constraints (forced and
 *     forbidden pairs, domain holes on both sides, a linear bound on the men's ranks),
 *     several branchings (some remove inner values), both strengths, 0- and 1-based;
 *   - the root fixpoint equals the reference lists;
 *   - gs-lists enumerates all stable matchings of random instances up to n = 200 with zero
 *     failures, and finds as many as men-proposing;
 *   - the seed's Table 1 instance; parallel search; a variable used twice; bad posts.
 * With the argument "emulated" or "gpu" every check runs with the constraint on the parallel
 * path (the CPU emulation of the kernels, or the GPU; the latter exits 77 without one). */
#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_path_arg.h"
#include "smc_reference.h"
#include "test_util.h"

#include <stdio.h>

/* Where the constraint propagates: the CPU path, or (arguments "emulated" / "gpu") the
 * parallel path on the CPU emulation or the GPU. */
static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

typedef struct model {
  bb_space *space;
  int men[256], women[256];
} model;

static model model_new(int n, int base, const int *pm, const int *pw, bb_smc_strength strength) {
  model m;
  bb_error err = {{0}};
  m.space = bb_space_new(&err);
  for (int i = 0; i < n; i++) m.men[i] = bb_int_var(m.space, -5, n + 5, &err);
  for (int j = 0; j < n; j++) m.women[j] = bb_int_var(m.space, -5, n + 5, &err);
  int *qm = malloc(sizeof(int) * n * n), *qw = malloc(sizeof(int) * n * n);
  for (int c = 0; c < n * n; c++) qm[c] = pm[c] + base, qw[c] = pw[c] + base;
  bb_stable_matching_options opts = {strength, path_under_test};
  bb_status st = bb_post_stable_matching(m.space, m.men, n, m.women, n, qm, n, n, qw, n, n, &opts, &err);
  CHECKF(st == BB_OK, "post: %s", err.msg);
  free(qm);
  free(qw);
  return m;
}

/* Enumerates every solution; wife[] rows go to *found (0-based ids). */
static long enumerate(model *m, int n, int base, const int *pm, int threads, int **found, uint64_t *fails) {
  bb_error err = {{0}};
  bb_search_options o;
  bb_search_options_init(&o);
  o.threads = threads;
  bb_search *s = bb_search_new(m->space, &o, &err);
  CHECKF(s != NULL, "search: %s", err.msg);
  long count = 0;
  *found = NULL;
  for (bb_space *sol; s && (sol = bb_search_next(s, &err)) != NULL; bb_space_free(sol)) {
    *found = realloc(*found, (size_t)(count + 1) * n * sizeof(int));
    for (int i = 0; i < n; i++) {
      CHECK(bb_int_assigned(sol, m->men[i]) && bb_int_assigned(sol, m->women[i]));
      (*found)[count * n + i] = pm[i * n + bb_int_min(sol, m->men[i]) - base];
    }
    count++;
  }
  bb_search_statistics stats = {0};
  if (s) bb_search_stats(s, &stats);
  if (fails) *fails = stats.fails;
  bb_search_free(s);
  return count;
}

/* Solution sets compared as sets of wife[] rows. */
static bool same_set(const int *a, long na, const int *b, long nb, int n) {
  if (na != nb) return false;
  for (long x = 0; x < na; x++) {
    bool seen = false;
    for (long y = 0; y < nb && !seen; y++) seen = !memcmp(a + x * n, b + y * n, (size_t)n * sizeof(int));
    if (!seen) return false;
  }
  return true;
}

static void differential(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } branchings[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN},
                    {BB_VAR_FIRST_FAIL, BB_VAL_SPLIT},
                    {BB_VAR_INPUT_ORDER, BB_VAL_MEDIAN}, /* x = median | x != median: inner holes */
                    {BB_VAR_RANDOM, BB_VAL_RANDOM}};
  uint64_t seed = 424242;
  int searches = 0, with_solutions = 0;
  for (int n = 1; n <= 7; n++) {
    int rounds = n <= 3 ? 40 : n <= 5 ? 120 : 60;
    for (int round = 0; round < rounds; round++) {
      int pm[49], pw[49];
      bool allowed[49];
      ref_random_prefs(n, &seed, pm, pw);
      int base = (int)(tu_rand(&seed) & 1);
      /* Side constraints, drawn once per instance. */
      int forbid_count = round % 3 == 0 ? 0 : (int)(tu_rand(&seed) % (uint64_t)(n + 2));
      int forbid_i[16], forbid_j[16], forbid_side[16];
      for (int f = 0; f < forbid_count; f++) {
        forbid_i[f] = (int)(tu_rand(&seed) % (uint64_t)n);
        forbid_j[f] = (int)(tu_rand(&seed) % (uint64_t)n);
        forbid_side[f] = (int)(tu_rand(&seed) & 1);
      }
      int forced_i = round % 4 == 1 ? (int)(tu_rand(&seed) % (uint64_t)n) : -1;
      int forced_j = (int)(tu_rand(&seed) % (uint64_t)n);
      int rank_budget = round % 5 == 2 ? (int)(tu_rand(&seed) % (uint64_t)(n * n / 2 + 1)) : -1;
      for (int q = 0; q < n * n; q++) allowed[q] = true;
      for (int f = 0; f < forbid_count; f++) allowed[forbid_i[f] * n + forbid_j[f]] = false;
      if (forced_i >= 0)
        for (int q = 0; q < n; q++) {
          if (q != forced_j) allowed[forced_i * n + q] = false;
          if (q != forced_i) allowed[q * n + forced_j] = false;
        }
      ref_matchings ref = ref_enumerate(pm, pw, n, allowed);
      if (rank_budget >= 0) { /* keep matchings whose men's ranks sum to at most the budget */
        int kept = 0;
        for (int s = 0; s < ref.count; s++) {
          int sum = 0;
          for (int i = 0; i < n; i++) sum += ref_rank(pm, n, i, ref.wife[s * n + i]);
          if (sum <= rank_budget) memmove(ref.wife + kept++ * n, ref.wife + s * n, (size_t)n * sizeof(int));
        }
        ref.count = kept;
      }
      for (int si = 0; si < 2; si++) {
        size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
        bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
        model m = model_new(n, base, pm, pw, strength);
        bb_error err = {{0}};
        for (int f = 0; f < forbid_count; f++) {
          int i = forbid_i[f], j = forbid_j[f];
          if (forbid_side[f]) bb_post_int_rel_const(m.space, m.men[i], BB_NE, ref_rank(pm, n, i, j) + base, bb_reif_none(), BB_IPL_DEF, &err);
          else bb_post_int_rel_const(m.space, m.women[j], BB_NE, ref_rank(pw, n, j, i) + base, bb_reif_none(), BB_IPL_DEF, &err);
        }
        if (forced_i >= 0)
          bb_post_int_rel_const(m.space, m.men[forced_i], BB_EQ, ref_rank(pm, n, forced_i, forced_j) + base,
                                bb_reif_none(), BB_IPL_DEF, &err);
        if (rank_budget >= 0) {
          int ones[16];
          for (int i = 0; i < n; i++) ones[i] = 1;
          bb_post_int_lin(m.space, ones, m.men, n, BB_LE, rank_budget + n * base, bb_reif_none(), BB_IPL_DEF, &err);
        }
        bb_branch_options bo = {(unsigned)round, 0};
        CHECK(bb_branch_int(m.space, m.men, n, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
        CHECK(bb_branch_int(m.space, m.women, n, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
        int *found;
        long count = enumerate(&m, n, base, pm, 1, &found, NULL);
        CHECKF(same_set(found, count, ref.wife, ref.count, n),
               "n=%d round %d %s base %d branching %zu: %ld solutions, brute force %d", n, round,
               bb_smc_strength_name(strength), base, b, count, ref.count);
        free(found);
        bb_space_free(m.space);
        searches++;
        with_solutions += ref.count > 0;
      }
      free(ref.wife);
    }
  }
  printf("differential (Gecode): %d searches, %d with solutions\n", searches, with_solutions);
}

static void root_lists(void) {
  uint64_t seed = 5;
  int checked = 0;
  for (int n = 2; n <= 40; n += 3) {
    int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
    bool *allowed = malloc((size_t)n * n);
    ref_random_prefs(n, &seed, pm, pw);
    for (int si = 0; si < 2; si++) {
      bool gs = si == 0;
      model m = model_new(n, 0, pm, pw, gs ? BB_SMC_GS_LISTS : BB_SMC_MEN_PROPOSING);
      bb_space_state state;
      bb_error err;
      CHECK(bb_space_status(m.space, &state, &err) == BB_OK && state != BB_SPACE_FAILED);
      for (int q = 0; q < n * n; q++) allowed[q] = true;
      CHECK(ref_rule_fixpoint(pm, pw, n, gs, allowed));
      if (gs) { /* the rule fixpoint is the GS-lists (checked against Gale-Shapley) */
        bool *lists = malloc((size_t)n * n);
        ref_gs_lists(pm, pw, n, true, lists);
        CHECK(!memcmp(lists, allowed, (size_t)n * n));
        free(lists);
      }
      bool same = true;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          same = same && bb_int_in(m.space, m.men[i], ref_rank(pm, n, i, j)) == allowed[i * n + j];
          same = same && bb_int_in(m.space, m.women[j], ref_rank(pw, n, j, i)) == allowed[i * n + j];
        }
      CHECKF(same, "n=%d %s: root domains differ from the reference", n, gs ? "gs-lists" : "men-proposing");
      bb_space_free(m.space);
      checked++;
    }
    free(pm);
    free(pw);
    free(allowed);
  }
  printf("root lists: %d checked\n", checked);
}

static void failure_free(void) {
  uint64_t seed = 11;
  const int sizes[] = {20, 50, 100, 200};
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
    int n = sizes[z];
    int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
    for (int round = 0; round < 2; round++) {
      ref_random_prefs(n, &seed, pm, pw);
      long counts[2];
      for (int si = 0; si < 2; si++) {
        model m = model_new(n, 1, pm, pw, si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS);
        bb_error err;
        CHECK(bb_branch_int(m.space, m.men, n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err) == BB_OK);
        int *found;
        uint64_t fails = 0;
        counts[si] = enumerate(&m, n, 1, pm, 1, &found, &fails);
        if (si == 0) {
          CHECKF(fails == 0, "n=%d: gs-lists enumeration failed %llu times", n, (unsigned long long)fails);
          if (round == 0) printf("failure-free (Gecode): n=%d %ld stable matchings, %llu failures\n", n, counts[si], (unsigned long long)fails);
        }
        free(found);
        bb_space_free(m.space);
      }
      CHECKF(counts[0] == counts[1] && counts[0] >= 1, "n=%d: %ld vs %ld", n, counts[0], counts[1]);
    }
    free(pm);
    free(pw);
  }
}

static void seed_table1_and_threads(void) {
  const int pm[25] = {3, 4, 1, 2, 0, 0, 1, 3, 2, 4, 0, 4, 3, 2, 1, 2, 1, 4, 3, 0, 0, 1, 4, 2, 3};
  const int pw[25] = {1, 3, 4, 0, 2, 2, 3, 0, 4, 1, 0, 2, 1, 4, 3, 0, 3, 2, 1, 4, 1, 4, 0, 3, 2};
  const int expect[10] = {3, 0, 2, 1, 4, 3, 0, 4, 2, 1};
  for (int base = 0; base <= 1; base++)
    for (int si = 0; si < 2; si++) {
      model m = model_new(5, base, pm, pw, si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS);
      bb_error err;
      bb_branch_int(m.space, m.men, 5, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
      int *found;
      long count = enumerate(&m, 5, base, pm, 1, &found, NULL);
      CHECKF(same_set(found, count, expect, 2, 5), "Table 1 (base %d): %ld matchings", base, count);
      free(found);
      bb_space_free(m.space);
    }
  /* Parallel search (Gecode threads) finds the same set as sequential search. */
  uint64_t seed = 77;
  int n = 60, *qm = malloc(sizeof(int) * n * n), *qw = malloc(sizeof(int) * n * n);
  ref_random_prefs(n, &seed, qm, qw);
  int *a, *b;
  model m1 = model_new(n, 0, qm, qw, BB_SMC_GS_LISTS), m4 = model_new(n, 0, qm, qw, BB_SMC_GS_LISTS);
  bb_error err;
  bb_branch_int(m1.space, m1.men, n, BB_VAR_FIRST_FAIL, BB_VAL_SPLIT, NULL, &err);
  bb_branch_int(m4.space, m4.men, n, BB_VAR_FIRST_FAIL, BB_VAL_SPLIT, NULL, &err);
  long c1 = enumerate(&m1, n, 0, qm, 1, &a, NULL), c4 = enumerate(&m4, n, 0, qm, 4, &b, NULL);
  CHECKF(c1 >= 1 && same_set(a, c1, b, c4, n), "threads: %ld vs %ld", c1, c4);
  free(a);
  free(b);
  free(qm);
  free(qw);
  bb_space_free(m1.space);
  bb_space_free(m4.space);
}

/* men[1] is the same variable as men[0]: only matchings where both men get the same rank. */
static void aliased_variables(void) {
  uint64_t seed = 3;
  int n = 5, pm[25], pw[25], checked = 0;
  for (int round = 0; round < 30; round++) {
    ref_random_prefs(n, &seed, pm, pw);
    bb_error err = {{0}};
    bb_space *s = bb_space_new(&err);
    int men[5], women[5];
    for (int i = 0; i < n; i++) men[i] = bb_int_var(s, 0, n - 1, &err), women[i] = bb_int_var(s, 0, n - 1, &err);
    men[1] = men[0];
    CHECK(bb_post_stable_matching(s, men, n, women, n, pm, n, n, pw, n, n, NULL, &err) == BB_OK);
    bb_branch_int(s, men, n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    bb_branch_int(s, women, n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    model m = {s, {0}, {0}};
    memcpy(m.men, men, sizeof men);
    memcpy(m.women, women, sizeof women);
    int *found;
    long count = enumerate(&m, n, 0, pm, 1, &found, NULL);
    bool all[25];
    for (int q = 0; q < 25; q++) all[q] = true;
    ref_matchings ref = ref_enumerate(pm, pw, n, all);
    int kept = 0;
    for (int k = 0; k < ref.count; k++)
      if (ref_rank(pm, n, 0, ref.wife[k * n]) == ref_rank(pm, n, 1, ref.wife[k * n + 1]))
        memmove(ref.wife + kept++ * n, ref.wife + k * n, sizeof(int) * n);
    CHECKF(same_set(found, count, ref.wife, kept, n), "aliased round %d: %ld vs %d", round, count, kept);
    checked += kept;
    free(found);
    free(ref.wife);
    bb_space_free(s);
  }
  printf("aliased: %d matchings with men 0 and 1 at equal ranks\n", checked);
}

static void expect_post_error(const char *what, bb_status want, const char *needle, const int *men, int nm,
                              const int *women, int nw, const int *pm, int pr, int pc, const int *pw, int wr,
                              int wc) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  for (int k = 0; k < 8; k++) bb_int_var(s, 0, 3, &err);
  bb_status st = bb_post_stable_matching(s, men, nm, women, nw, pm, pr, pc, pw, wr, wc, NULL, &err);
  CHECKF(st == want, "%s: status %d, want %d (%s)", what, (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
  bb_space_free(s);
}

static void bad_posts(void) {
  const int men[3] = {0, 1, 2}, women[3] = {3, 4, 5}, bad_var[3] = {3, 4, 99};
  const int ok[9] = {0, 1, 2, 2, 1, 0, 1, 0, 2}, dup[9] = {0, 1, 2, 2, 2, 0, 1, 0, 2};
  const int one[9] = {1, 2, 3, 3, 2, 1, 2, 1, 3}, big[9] = {0, 1, 2, 2, 1, 0, 1, 0, 7};
  expect_post_error("lengths", BB_ERR_INPUT, "3 men but 2 women", men, 3, women, 2, ok, 3, 3, ok, 3, 3);
  expect_post_error("pm shape", BB_ERR_INPUT, "pm is 3 x 2", men, 3, women, 3, ok, 3, 2, ok, 3, 3);
  expect_post_error("pw shape", BB_ERR_INPUT, "pw is 2 x 3", men, 3, women, 3, ok, 3, 3, ok, 2, 3);
  expect_post_error("not a permutation", BB_ERR_INPUT, "pm row 1 (man 1's list) is not a permutation", men, 3,
                    women, 3, dup, 3, 3, ok, 3, 3);
  expect_post_error("out of range", BB_ERR_INPUT, "pw row 2 (woman 2's list): value 7 at column 2", men, 3,
                    women, 3, ok, 3, 3, big, 3, 3);
  expect_post_error("mixed bases", BB_ERR_INPUT, "mixed bases", men, 3, women, 3, ok, 3, 3, one, 3, 3);
  expect_post_error("unknown variable", BB_ERR_ARG, "women[2] is int variable 99", men, 3, bad_var, 3, ok, 3, 3,
                    ok, 3, 3);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (smc_path_from_args(argc, argv, &path_under_test) != 0) return 77;
  bad_posts();
  seed_table1_and_threads();
  root_lists();
  aliased_variables();
  differential();
  failure_free();
  return tu_finish();
}
