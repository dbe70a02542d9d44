/* The Stable Marriage constraint on incomplete lists (SMI) inside Gecode, through the shim's
 * C API, against brute force from the definition (the harness, tests/harness/bth_smi.h):
 *   - random instances (unequal sides, one-sided entries, empty lists; n <= 5 a side) with
 *     side constraints posted as Gecode constraints (forbidden pairs on either side, a
 *     forced pair, somebody forbidden to stay unmatched, a bound on the men's rank sum),
 *     both bases, both strengths, several branchings, 1 and 4 threads: the solutions equal
 *     the stable matchings that the side constraints allow;
 *   - gs-lists at the root is arc consistency: every value left is used by some stable
 *     matching and every value used is left; enumeration then never fails; the smallest
 *     ranks left are the man-optimal and woman-optimal matchings of bamboo-smp's engine
 *     (bb_hr_solve);
 *   - a variable passed twice; bad posts and their messages.
 * With the argument "emulated" or "gpu" the constraint propagates on the parallel path (the
 * CPU emulation of the kernels, or the GPU: exit 77 without one). */
#include "bth_gecode.h"
#include "bth_smi.h"
#include "smc_path_arg.h"
#include "test_util.h"
#include "hr.h"

#include <stdio.h>

enum { MAX_SIDE = 5 };

static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

/* This test's instances: Latin-square lists a third of the time (many stable matchings),
 * each list cut short by one a quarter of the time; otherwise 1..5 a side. */
static const bth_smi_shape shape = {MAX_SIDE, 3, 4, 0, 0};

/* Posts the constraint with the lists in `base`, padded with junk past each length. */
static bth_model model_new(const bth_smi *I, int base, bb_smc_strength strength, bb_status *st, bb_error *err) {
  bth_model m = bth_model_new(I->nm, I->nw, -3, MAX_SIDE + 4, err);
  bb_stable_matching_options opts = {strength, path_under_test};
  *st = bth_smi_post(m.space, bth_men(&m), bth_women(&m), I, base, 0, 99, &opts, err);
  return m;
}

/* A solution as the ranks of men and women (bth_smi_values_of), read off the men's
 * variables; each woman's variable must agree with the men's. */
typedef struct reading {
  const bth_smi *I;
  bth_model *m;
  int base;
  bth_solutions *found;
} reading;

static void read_matching(const bb_space *sol, void *ctx) {
  reading *r = ctx;
  const bth_smi *I = r->I;
  int wife[BTH_SMI_MAX], value[BTH_SMI_VARS];
  for (int i = 0; i < I->nm; i++) {
    int rank = bb_int_min(sol, bth_men(r->m)[i]) - r->base;
    wife[i] = rank == I->lm[i] ? BTH_NONE : I->pm[i][rank];
  }
  for (int j = 0; j < I->nw; j++) {
    int rank = bb_int_min(sol, bth_women(r->m)[j]) - r->base, husband = rank == I->lw[j] ? BTH_NONE : I->pw[j][rank];
    CHECKF(husband == BTH_NONE ? bth_smi_pos(wife, I->nm, j) < 0 : wife[husband] == j,
           "woman %d's variable disagrees with the men's", j);
  }
  bth_smi_values_of(I, wife, value);
  bth_solutions_add(r->found, value);
}

static int enumerate(const bth_smi *I, bth_model *m, int base, int threads, bth_solutions *found, uint64_t *fails) {
  bb_error err = {{0}};
  reading r = {I, m, base, found};
  long count = 0;
  bth_solutions_reset(found, bth_smi_vars(I));
  CHECKF(bth_search_all(m->space, threads, read_matching, &r, &count, fails, &err), "search: %s", err.msg);
  return (int)count;
}

static bth_solutions expected, kept, found;

/* Side constraints, drawn per instance: each is a value some variable may not take (a pair
 * forbidden from either side, or somebody who must be matched), maybe a forced pair, maybe a
 * bound on the men's rank sum. The reference keeps the stable matchings they allow. */
typedef struct side {
  int count; /* the first count are the values forbidden */
  bth_side item[8];
} side;

static void draw_side(const bth_smi *I, side *S, uint64_t *rng, int round) {
  int forbidden = round % 3 == 0 ? 0 : (int)(tu_rand(rng) % 5);
  S->count = 0;
  for (int c = 0; c < forbidden; c++) {
    int v = (int)(tu_rand(rng) % (uint64_t)(I->nm + I->nw));
    int value = (int)(tu_rand(rng) % (uint64_t)(bth_smi_len(I, v) + 1)); /* len: must be matched */
    S->item[S->count++] = (bth_side){BTH_SIDE_NE, v, 0, 0, value, 0};
  }
  int forced_man = round % 4 == 1 ? (int)(tu_rand(rng) % (uint64_t)I->nm) : -1;
  int forced_value = forced_man >= 0 ? (int)(tu_rand(rng) % (uint64_t)(I->lm[forced_man] + 1)) : 0;
  int budget = round % 5 == 2 ? (int)(tu_rand(rng) % (uint64_t)(I->nm * MAX_SIDE / 2 + 1)) : -1;
  if (forced_man >= 0) S->item[S->count++] = (bth_side){BTH_SIDE_EQ, forced_man, 0, 0, forced_value, 0};
  if (budget >= 0) S->item[S->count++] = (bth_side){BTH_SIDE_SUM_LE, 0, 0, I->nm, budget, 0};
}

static bool side_allows(const int *value, void *ctx) {
  const side *S = ctx;
  for (int c = 0; c < S->count; c++)
    if (!bth_side_allows(&S->item[c], value)) return false;
  return true;
}

/* The forbidden values are CHECKed as posted, the forced pair and the bound not. */
static void post_side(const side *S, bth_model *m, int base) {
  bb_error err = {{0}};
  for (int c = 0; c < S->count; c++) {
    if (S->item[c].kind == BTH_SIDE_NE)
      CHECK(bth_side_post(&S->item[c], m->space, m->var, base, &err) == BB_OK);
    else
      bth_side_post(&S->item[c], m->space, m->var, base, &err);
  }
}

static void differential(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } branchings[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN},
                    {BB_VAR_FIRST_FAIL, BB_VAL_SPLIT},
                    {BB_VAR_INPUT_ORDER, BB_VAL_MEDIAN}, /* x = median | x != median: inner holes */
                    {BB_VAR_RANDOM, BB_VAL_RANDOM}};
  uint64_t rng = 20261124;
  int searches = 0, with_solutions = 0, max_solutions = 0;
  for (int round = 0; round < 600; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &shape);
    side S;
    draw_side(&I, &S, &rng, round);
    bth_smi_brute(&I, &kept);
    bth_solutions_keep(&kept, side_allows, &S);
    int base = (int)(tu_rand(&rng) & 1);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      bb_error err = {{0}};
      bb_status st;
      bth_model m = model_new(&I, base, strength, &st, &err);
      CHECKF(st == BB_OK, "post: %s", err.msg);
      post_side(&S, &m, base);
      size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
      bb_branch_options bo = {(unsigned)round, 0};
      CHECK(bb_branch_int(m.space, bth_men(&m), I.nm, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      CHECK(bb_branch_int(m.space, bth_women(&m), I.nw, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      int threads = round % 7 == 3 ? 4 : 1;
      int count = enumerate(&I, &m, base, threads, &found, NULL);
      CHECKF(bth_same_solutions(&found, &kept),
             "round %d (%d men, %d women) %s base %d branching %zu threads %d: %d solutions, brute force %d", round,
             I.nm, I.nw, bb_smc_strength_name(strength), base, b, threads, count, kept.count);
      bb_space_free(m.space);
      searches++;
      with_solutions += kept.count > 0;
      if (kept.count > max_solutions) max_solutions = kept.count;
    }
  }
  printf("differential (SMI, Gecode, %s path): %d searches, %d with solutions, up to %d each\n",
         bb_smc_path_name(path_under_test), searches, with_solutions, max_solutions);
  CHECK(with_solutions > searches / 2 && max_solutions >= 3); /* the instances are not trivial */
}

/* The engine's optimal stable matching of one side (bamboo-smp's gs-seq), as values of that
 * side's variables. */
static void engine_optimum(const bth_smi *I, bool women_side, int *value) {
  bb_error err = {{0}};
  bb_hr *h = bth_smi_to_hr(I, &err);
  int32_t assigned[BTH_SMI_MAX];
  CHECKF(bb_hr_solve(h, "gs-seq", women_side ? BB_HR_HOSPITAL_OPTIMAL : BB_HR_RESIDENT_OPTIMAL, NULL, assigned, NULL,
                     &err) == BB_OK,
         "engine: %s", err.msg);
  int wife[BTH_SMI_MAX], all[BTH_SMI_VARS];
  for (int m = 0; m < I->nm; m++) wife[m] = assigned[m] == BB_HR_NONE ? BTH_NONE : assigned[m];
  bth_smi_values_of(I, wife, all);
  for (int v = 0; v < (women_side ? I->nw : I->nm); v++) value[v] = all[(women_side ? I->nm : 0) + v];
  bb_hr_free(h);
}

/* gs-lists at the root leaves exactly the values some stable matching uses; enumerating
 * with any value order then never fails. */
static void root_is_arc_consistent(void) {
  uint64_t rng = 77;
  int checked = 0;
  for (int round = 0; round < 300; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &shape);
    bth_smi_brute(&I, &expected);
    int base = (int)(round & 1);
    bb_error err = {{0}};
    bb_status st;
    bth_model m = model_new(&I, base, BB_SMC_GS_LISTS, &st, &err);
    bb_space_state state;
    bb_space_status(m.space, &state, &err);
    /* SMI always has a stable matching: the root never fails. */
    CHECKF(state != BB_SPACE_FAILED, "round %d: root failed", round);
    for (int v = 0; v < I.nm + I.nw && state != BB_SPACE_FAILED; v++) {
      int x = m.var[v], len = bth_smi_len(&I, v);
      for (int value = 0; value <= len; value++) {
        bool used = false;
        for (int s = 0; s < expected.count && !used; s++) used = bth_solution(&expected, s)[v] == value;
        bool in = bb_int_min(m.space, x) <= value + base && value + base <= bb_int_max(m.space, x) &&
                  bb_int_in(m.space, x, value + base);
        CHECKF(in == used, "round %d: variable %d value %d is %s the root domain but %s by a stable matching", round, v,
               value, in ? "in" : "not in", used ? "used" : "not used");
      }
      checked++;
    }
    int men_best[BTH_SMI_MAX], women_best[BTH_SMI_MAX];
    engine_optimum(&I, false, men_best);
    engine_optimum(&I, true, women_best);
    for (int v = 0; v < I.nm + I.nw && state != BB_SPACE_FAILED; v++) {
      int x = m.var[v], best = v < I.nm ? men_best[v] : women_best[v - I.nm];
      CHECKF(bb_int_min(m.space, x) - base == best, "round %d: variable %d starts at %d, the engine's optimum is %d",
             round, v, bb_int_min(m.space, x) - base, best);
    }
    bb_branch_int(m.space, bth_men(&m), I.nm, BB_VAR_INPUT_ORDER, BB_VAL_MAX, NULL, &err);
    bb_branch_int(m.space, bth_women(&m), I.nw, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    uint64_t fails = 0;
    int count = enumerate(&I, &m, base, 1, &found, &fails);
    CHECKF(count == expected.count && fails == 0, "round %d: %d solutions (brute force %d), %llu failures", round,
           count, expected.count, (unsigned long long)fails);
    bb_space_free(m.space);
  }
  printf("root (SMI): %d domains equal the values of the stable matchings\n", checked);
}

static bool men_0_1_equal(const int *value, void *ctx) {
  (void)ctx;
  return value[0] == value[1];
}

/* men[0] and men[1] the same variable: the solutions where the two men hold the same rank. */
static void aliased_variable(void) {
  uint64_t rng = 9;
  int rounds = 0;
  for (int round = 0; round < 200; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &shape);
    if (I.nm < 2) continue;
    bth_smi_brute(&I, &kept);
    bth_solutions_keep(&kept, men_0_1_equal, NULL);
    bb_error err = {{0}};
    bth_model m = bth_model_new(I.nm, I.nw, -3, MAX_SIDE + 4, &err);
    bth_men(&m)[1] = bth_men(&m)[0];
    bb_stable_matching_options opts = {BB_SMC_GS_LISTS, path_under_test};
    CHECK(bth_smi_post(m.space, bth_men(&m), bth_women(&m), &I, 0, 0, 99, &opts, &err) == BB_OK);
    bb_branch_int(m.space, bth_men(&m), I.nm, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    bb_branch_int(m.space, bth_women(&m), I.nw, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    int count = enumerate(&I, &m, 0, 1, &found, NULL);
    CHECKF(bth_same_solutions(&found, &kept), "aliased round %d: %d solutions, brute force %d", round, count,
           kept.count);
    bb_space_free(m.space);
    rounds++;
  }
  printf("aliased variables (SMI): %d instances\n", rounds);
}

static void expect_error(const char *what, const char *needle, int nm, int nw, int base, const int *pm, const int *lm,
                         int pm_cols, const int *pw, const int *lw, int pw_cols) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int men[4], women[4];
  for (int k = 0; k < 4; k++) men[k] = bb_int_var(s, 0, 5, &err), women[k] = bb_int_var(s, 0, 5, &err);
  bb_status st = bb_post_stable_matching_smi(s, men, nm, women, nw, base, pm, lm, pm_cols, pw, lw, pw_cols, NULL, &err);
  CHECKF(st == BB_ERR_INPUT, "%s: status %d (%s)", what, (int)st, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
  bb_space_free(s);
}

static void bad_posts(void) {
  const int pm[4] = {1, 2, 2, 1}, pw[4] = {1, 2, 2, 1}, two[2] = {2, 2}, three[2] = {2, 3}, minus[2] = {-1, 2};
  const int unknown[4] = {1, 2, 3, 1}, dup[4] = {2, 2, 2, 1}, zero[4] = {0, 1, 1, 0};
  expect_error("base", "base 2", 2, 2, 2, pm, two, 2, pw, two, 2);
  expect_error("length", "pm_len[2] (man 2's list length) is 3; a row has 2 columns", 2, 2, 1, pm, three, 2, pw, two,
               2);
  expect_error("negative length", "pw_len[1] (woman 1's list length) is -1", 2, 2, 1, pm, two, 2, pw, minus, 2);
  expect_error("unknown id", "pm row 2 (man 2's list) names woman 3 at column 1; the women are 1..2", 2, 2, 1, unknown,
               two, 2, pw, two, 2);
  expect_error("duplicate", "pw row 1 (woman 1's list) names man 2 twice (columns 1 and 2)", 2, 2, 1, pm, two, 2, dup,
               two, 2);
  expect_error("base 0 ids in a 1-based post", "names woman 0", 2, 2, 1, zero, two, 2, pw, two, 2);
  expect_error("nobody", "0 men and 0 women", 0, 0, 0, pm, two, 2, pw, two, 2);
  /* Zero women: every man is unmatched, which is the one solution. */
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int men[2] = {bb_int_var(s, 0, 5, &err), bb_int_var(s, 0, 5, &err)}, none[2] = {0, 0};
  CHECKF(bb_post_stable_matching_smi(s, men, 2, NULL, 0, 0, NULL, none, 0, NULL, NULL, 2, NULL, &err) == BB_OK, "%s",
         err.msg);
  bb_space_state state;
  bb_space_status(s, &state, &err);
  CHECK(state != BB_SPACE_FAILED && bb_int_assigned(s, men[0]) && bb_int_min(s, men[0]) == 0);
  bb_space_free(s);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (smc_path_from_args(argc, argv, &path_under_test) != 0) return 77;
  bad_posts();
  root_is_arc_consistent();
  aliased_variable();
  differential();
  bth_solutions_free(&expected);
  bth_solutions_free(&kept);
  bth_solutions_free(&found);
  return tu_finish();
}
