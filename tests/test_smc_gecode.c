/* The Stable Marriage constraint inside Gecode, through the shim's C API only:
 *   - exhaustive differential tests (n <= 7): the solutions Gecode's DFS enumerates equal
 *     brute force, with side constraints posted as real Gecode constraints (forced and
 *     forbidden pairs, domain holes on both sides, a linear bound on the men's ranks),
 *     several branchings (some remove inner values), both strengths, 0- and 1-based;
 *   - the root fixpoint equals the reference lists;
 *   - gs-lists enumerates all stable matchings of random instances up to n = 200 with zero
 *     failures, and finds as many as men-proposing;
 *   - [Travasci 2025]'s Table 1 instance; parallel search; a variable used twice; bad posts.
 * With the argument "emulated" or "gpu" every check runs with the constraint on the parallel
 * path (the CPU emulation of the kernels, or the GPU; the latter exits 77 without one). */
#include "bth_gecode.h"
#include "bth_sm.h"
#include "smc_path_arg.h"
#include "test_util.h"

#include <stdio.h>

/* Where the constraint propagates: the CPU path, or (arguments "emulated" / "gpu") the
 * parallel path on the CPU emulation or the GPU. */
static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

static bth_model model_new(int n, int base, const int *pm, const int *pw, bb_smc_strength strength) {
  bb_error err = {{0}};
  bth_model m = bth_model_new(n, n, -5, n + 5, &err);
  bb_stable_matching_options opts = {strength, path_under_test};
  bb_status st = bth_sm_post(&m, base, pm, pw, &opts, &err);
  CHECKF(st == BB_OK, "post: %s", err.msg);
  return m;
}

/* A solution as wife[] (0-based ids), read off the men's ranks. */
typedef struct wives {
  bth_model *m;
  int n, base;
  const int *pm;
  bth_solutions *found;
} wives;

static void read_wives(const bb_space *sol, void *ctx) {
  wives *w = ctx;
  int wife[BTH_MODEL_MAX];
  for (int i = 0; i < w->n; i++) {
    CHECK(bb_int_assigned(sol, bth_men(w->m)[i]) && bb_int_assigned(sol, bth_women(w->m)[i]));
    wife[i] = w->pm[i * w->n + bb_int_min(sol, bth_men(w->m)[i]) - w->base];
  }
  bth_solutions_add(w->found, wife);
}

/* Enumerates every solution; wife[] rows go to *found. */
static long enumerate(bth_model *m, int n, int base, const int *pm, int threads, bth_solutions *found,
                      uint64_t *fails) {
  bb_error err = {{0}};
  wives w = {m, n, base, pm, found};
  long count = 0;
  bth_solutions_reset(found, n);
  CHECKF(bth_search_all(m->space, threads, read_wives, &w, &count, fails, &err), "search: %s", err.msg);
  return count;
}

/* The reference's matchings whose men's ranks sum to at most the budget. */
typedef struct budget {
  const int *pm;
  int n, most;
} budget;

static bool within_budget(const int *wife, void *ctx) {
  const budget *b = ctx;
  int sum = 0;
  for (int i = 0; i < b->n; i++) sum += bth_sm_rank(b->pm, b->n, i, wife[i]);
  return sum <= b->most;
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
  bth_solutions ref = {0}, found = {0};
  for (int n = 1; n <= 7; n++) {
    int rounds = n <= 3 ? 40 : n <= 5 ? 120 : 60;
    for (int round = 0; round < rounds; round++) {
      int pm[49], pw[49];
      bool allowed[49];
      bth_sm_random(n, &seed, pm, pw);
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
      /* ... as Gecode constraints on the ranks: a forbidden pair from the man's side or the
       * woman's, a forced pair, the men's rank sum; and as the pairs brute force allows. */
      bth_side sides[20];
      int side_count = 0;
      for (int f = 0; f < forbid_count; f++) {
        int i = forbid_i[f], j = forbid_j[f];
        sides[side_count++] = forbid_side[f] ? (bth_side){BTH_SIDE_NE, i, 0, 0, bth_sm_rank(pm, n, i, j), 0}
                                             : (bth_side){BTH_SIDE_NE, n + j, 0, 0, bth_sm_rank(pw, n, j, i), 0};
      }
      if (forced_i >= 0)
        sides[side_count++] = (bth_side){BTH_SIDE_EQ, forced_i, 0, 0, bth_sm_rank(pm, n, forced_i, forced_j), 0};
      if (rank_budget >= 0) sides[side_count++] = (bth_side){BTH_SIDE_SUM_LE, 0, 0, n, rank_budget, 0};
      for (int q = 0; q < n * n; q++) allowed[q] = true;
      for (int f = 0; f < forbid_count; f++) allowed[forbid_i[f] * n + forbid_j[f]] = false;
      if (forced_i >= 0)
        for (int q = 0; q < n; q++) {
          if (q != forced_j) allowed[forced_i * n + q] = false;
          if (q != forced_i) allowed[q * n + forced_j] = false;
        }
      bth_sm_brute(pm, pw, n, allowed, &ref);
      if (rank_budget >= 0) bth_solutions_keep(&ref, within_budget, &(budget){pm, n, rank_budget});
      for (int si = 0; si < 2; si++) {
        size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
        bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
        bth_model m = model_new(n, base, pm, pw, strength);
        bb_error err = {{0}};
        for (int c = 0; c < side_count; c++) bth_side_post(&sides[c], m.space, m.var, base, &err);
        bb_branch_options bo = {(unsigned)round, 0};
        CHECK(bb_branch_int(m.space, bth_men(&m), n, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
        CHECK(bb_branch_int(m.space, bth_women(&m), n, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
        long count = enumerate(&m, n, base, pm, 1, &found, NULL);
        CHECKF(bth_same_solutions(&found, &ref),
               "n=%d round %d %s base %d branching %zu: %ld solutions, brute force %d", n, round,
               bb_smc_strength_name(strength), base, b, count, ref.count);
        bb_space_free(m.space);
        searches++;
        with_solutions += ref.count > 0;
      }
    }
  }
  bth_solutions_free(&ref);
  bth_solutions_free(&found);
  printf("differential (Gecode): %d searches, %d with solutions\n", searches, with_solutions);
}

static void root_lists(void) {
  uint64_t seed = 5;
  int checked = 0;
  for (int n = 2; n <= 40; n += 3) {
    int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
    bool *allowed = malloc((size_t)n * n);
    bth_sm_random(n, &seed, pm, pw);
    for (int si = 0; si < 2; si++) {
      bool gs = si == 0;
      bth_model m = model_new(n, 0, pm, pw, gs ? BB_SMC_GS_LISTS : BB_SMC_MEN_PROPOSING);
      bb_space_state state;
      bb_error err;
      CHECK(bb_space_status(m.space, &state, &err) == BB_OK && state != BB_SPACE_FAILED);
      for (int q = 0; q < n * n; q++) allowed[q] = true;
      CHECK(bth_sm_rule_fixpoint(pm, pw, n, gs, allowed));
      if (gs) { /* the rule fixpoint is the GS-lists (checked against Gale-Shapley) */
        bool *lists = malloc((size_t)n * n);
        bth_sm_gs_lists(pm, pw, n, true, lists);
        CHECK(!memcmp(lists, allowed, (size_t)n * n));
        free(lists);
      }
      bth_domains d;
      bool same = bth_domains_read(&d, m.space, m.var, 2 * n, 0, n - 1);
      for (int i = 0; i < n && same; i++)
        for (int j = 0; j < n; j++) {
          same = same && bth_domains_has(&d, i, bth_sm_rank(pm, n, i, j)) == allowed[i * n + j];
          same = same && bth_domains_has(&d, n + j, bth_sm_rank(pw, n, j, i)) == allowed[i * n + j];
        }
      bth_domains_free(&d);
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
  bth_solutions found = {0};
  for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
    int n = sizes[z];
    int *pm = malloc(sizeof(int) * n * n), *pw = malloc(sizeof(int) * n * n);
    for (int round = 0; round < 2; round++) {
      bth_sm_random(n, &seed, pm, pw);
      long counts[2];
      for (int si = 0; si < 2; si++) {
        bth_model m = model_new(n, 1, pm, pw, si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS);
        bb_error err;
        CHECK(bb_branch_int(m.space, bth_men(&m), n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err) == BB_OK);
        uint64_t fails = 0;
        counts[si] = enumerate(&m, n, 1, pm, 1, &found, &fails);
        if (si == 0) {
          CHECKF(fails == 0, "n=%d: gs-lists enumeration failed %llu times", n, (unsigned long long)fails);
          if (round == 0)
            printf("failure-free (Gecode): n=%d %ld stable matchings, %llu failures\n", n, counts[si],
                   (unsigned long long)fails);
        }
        bb_space_free(m.space);
      }
      CHECKF(counts[0] == counts[1] && counts[0] >= 1, "n=%d: %ld vs %ld", n, counts[0], counts[1]);
    }
    free(pm);
    free(pw);
  }
  bth_solutions_free(&found);
}

static void seed_table1_and_threads(void) {
  const int pm[25] = {3, 4, 1, 2, 0, 0, 1, 3, 2, 4, 0, 4, 3, 2, 1, 2, 1, 4, 3, 0, 0, 1, 4, 2, 3};
  const int pw[25] = {1, 3, 4, 0, 2, 2, 3, 0, 4, 1, 0, 2, 1, 4, 3, 0, 3, 2, 1, 4, 1, 4, 0, 3, 2};
  const int expect_rows[10] = {3, 0, 2, 1, 4, 3, 0, 4, 2, 1};
  bth_solutions expect = {0}, found = {0};
  bth_solutions_reset(&expect, 5);
  bth_solutions_add(&expect, expect_rows);
  bth_solutions_add(&expect, expect_rows + 5);
  for (int base = 0; base <= 1; base++)
    for (int si = 0; si < 2; si++) {
      bth_model m = model_new(5, base, pm, pw, si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS);
      bb_error err;
      bb_branch_int(m.space, bth_men(&m), 5, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
      long count = enumerate(&m, 5, base, pm, 1, &found, NULL);
      CHECKF(bth_same_solutions(&found, &expect), "Table 1 (base %d): %ld matchings", base, count);
      bb_space_free(m.space);
    }
  /* Parallel search (Gecode threads) finds the same set as sequential search. */
  uint64_t seed = 77;
  int n = 60, *qm = malloc(sizeof(int) * n * n), *qw = malloc(sizeof(int) * n * n);
  bth_sm_random(n, &seed, qm, qw);
  bth_solutions a = {0}, b = {0};
  bth_model m1 = model_new(n, 0, qm, qw, BB_SMC_GS_LISTS), m4 = model_new(n, 0, qm, qw, BB_SMC_GS_LISTS);
  bb_error err;
  bb_branch_int(m1.space, bth_men(&m1), n, BB_VAR_FIRST_FAIL, BB_VAL_SPLIT, NULL, &err);
  bb_branch_int(m4.space, bth_men(&m4), n, BB_VAR_FIRST_FAIL, BB_VAL_SPLIT, NULL, &err);
  long c1 = enumerate(&m1, n, 0, qm, 1, &a, NULL), c4 = enumerate(&m4, n, 0, qm, 4, &b, NULL);
  CHECKF(c1 >= 1 && bth_same_solutions(&a, &b), "threads: %ld vs %ld", c1, c4);
  bth_solutions_free(&a);
  bth_solutions_free(&b);
  bth_solutions_free(&expect);
  bth_solutions_free(&found);
  free(qm);
  free(qw);
  bb_space_free(m1.space);
  bb_space_free(m4.space);
}

/* The matchings where men 0 and 1 hold equal ranks. */
static bool equal_ranks_01(const int *wife, void *ctx) {
  const int *pm = ctx;
  return bth_sm_rank(pm, 5, 0, wife[0]) == bth_sm_rank(pm, 5, 1, wife[1]);
}

/* men[1] is the same variable as men[0]: only matchings where both men get the same rank. */
static void aliased_variables(void) {
  uint64_t seed = 3;
  int n = 5, pm[25], pw[25], checked = 0;
  bth_solutions ref = {0}, found = {0};
  for (int round = 0; round < 30; round++) {
    bth_sm_random(n, &seed, pm, pw);
    bb_error err = {{0}};
    bth_model m = bth_model_new(n, n, 0, n - 1, &err);
    bth_men(&m)[1] = bth_men(&m)[0];
    CHECK(bb_post_stable_matching(m.space, bth_men(&m), n, bth_women(&m), n, pm, n, n, pw, n, n, NULL, &err) == BB_OK);
    bb_branch_int(m.space, bth_men(&m), n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    bb_branch_int(m.space, bth_women(&m), n, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    long count = enumerate(&m, n, 0, pm, 1, &found, NULL);
    bool all[25];
    for (int q = 0; q < 25; q++) all[q] = true;
    bth_sm_brute(pm, pw, n, all, &ref);
    bth_solutions_keep(&ref, equal_ranks_01, pm);
    CHECKF(bth_same_solutions(&found, &ref), "aliased round %d: %ld vs %d", round, count, ref.count);
    checked += ref.count;
    bb_space_free(m.space);
  }
  bth_solutions_free(&ref);
  bth_solutions_free(&found);
  printf("aliased: %d matchings with men 0 and 1 at equal ranks\n", checked);
}

static void expect_post_error(const char *what, bb_status want, const char *needle, const int *men, int nm,
                              const int *women, int nw, const int *pm, int pr, int pc, const int *pw, int wr, int wc) {
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
  expect_post_error("not a permutation", BB_ERR_INPUT, "pm row 1 (man 1's list) is not a permutation", men, 3, women, 3,
                    dup, 3, 3, ok, 3, 3);
  expect_post_error("out of range", BB_ERR_INPUT, "pw row 2 (woman 2's list): value 7 at column 2", men, 3, women, 3,
                    ok, 3, 3, big, 3, 3);
  expect_post_error("mixed bases", BB_ERR_INPUT, "mixed bases", men, 3, women, 3, ok, 3, 3, one, 3, 3);
  expect_post_error("unknown variable", BB_ERR_ARG, "women[2] is int variable 99", men, 3, bad_var, 3, ok, 3, 3, ok, 3,
                    3);
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
