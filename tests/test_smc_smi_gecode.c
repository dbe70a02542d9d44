/* bb_post_stable_matching_smi inside Gecode, through the shim's C API, against brute force
 * from the definition (smi_reference.h). It complements test_smc_smi_search.c:
 *   - the root: with gs-lists every variable's whole domain (over a declared range wider than
 *     the ranks) is exactly base + the ranks some stable matching uses; with men-proposing it
 *     holds every such rank and nothing outside base..base + len, each man's minimum is his
 *     man-optimal rank and each woman's maximum her rank there; the path under test gives the
 *     same domains as the CPU path; gs-lists then enumerates without a failure under several
 *     branchings on men and women;
 *   - search with 1 thread (every other instance with 4 too, some on a clone of the propagated
 *     space) under side constraints that are not single removals: a set of allowed values, an
 *     inequality between a man's and a woman's variable, a forced woman, a variable declared
 *     narrower than its ranks;
 *   - aliasing: a man and a woman the same variable, a man three times, in base 1;
 *   - bad posts: BB_ERR_INPUT for every malformed list (both bases), BB_ERR_ARG for bad
 *     variables, strength and path; a variable with no rank in range makes the space fail.
 * With the argument "emulated" or "gpu" the constraint propagates on the parallel path (the
 * CPU emulation of the kernels, or the GPU: exit 77 without one); results must not change. */
#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_path_arg.h"
#include "smi_reference.h"
#include "test_util.h"

#include <stdio.h>

static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

enum { LO = -3, HI = MAX_SIDE + 4 }; /* the declared range of every variable */

typedef struct model {
  bb_space *space;
  int var[MAX_VARS]; /* the space's variable of each person: men, then women */
} model;

/* Posts the constraint with the lists in `base`, rows padded past each length with junk. */
static bb_status post(const smi *I, const model *m, int base, bb_smc_strength strength, bb_smc_path path,
                      bb_error *err) {
  int cols_m = I->nw + 1, cols_w = I->nm + 1;
  int pm[MAX_SIDE * (MAX_SIDE + 1)], pw[MAX_SIDE * (MAX_SIDE + 1)];
  for (int i = 0; i < I->nm; i++)
    for (int k = 0; k < cols_m; k++) pm[i * cols_m + k] = k < I->lm[i] ? I->pm[i][k] + base : 500;
  for (int j = 0; j < I->nw; j++)
    for (int k = 0; k < cols_w; k++) pw[j * cols_w + k] = k < I->lw[j] ? I->pw[j][k] + base : -500;
  bb_stable_matching_options opts = {strength, path};
  return bb_post_stable_matching_smi(m->space, m->var, I->nm, m->var + I->nm, I->nw, base, pm, I->lm, cols_m, pw,
                                     I->lw, cols_w, &opts, err);
}

static model model_new(const smi *I, int base, bb_smc_strength strength, bb_smc_path path) {
  model m;
  bb_error err = {{0}};
  m.space = bb_space_new(&err);
  for (int v = 0; v < smi_vars(I); v++) m.var[v] = bb_int_var(m.space, LO, HI, &err);
  bb_status st = post(I, &m, base, strength, path, &err);
  CHECKF(st == BB_OK, "post: %s", err.msg);
  return m;
}

/* Every solution as the values of the persons' variables (0-based ranks). */
static int enumerate(const smi *I, const model *m, int base, int threads, smi_solutions *out, uint64_t *fails) {
  bb_error err = {{0}};
  bb_search_options o;
  bb_search_options_init(&o);
  o.threads = threads;
  bb_search *s = bb_search_new(m->space, &o, &err);
  CHECKF(s != NULL, "search: %s", err.msg);
  out->count = 0;
  for (bb_space *sol; s && (sol = bb_search_next(s, &err)) != NULL; bb_space_free(sol)) {
    for (int v = 0; v < smi_vars(I); v++) {
      CHECK(bb_int_assigned(sol, m->var[v]));
      if (out->count < CAP) out->value[out->count][v] = bb_int_min(sol, m->var[v]) - base;
    }
    out->count++;
  }
  bb_search_statistics stats = {0};
  if (s) bb_search_stats(s, &stats);
  if (fails) *fails = stats.fails;
  bb_search_free(s);
  return out->count;
}

static void branch(const smi *I, const model *m, bb_var_sel vs, bb_val_sel val, unsigned seed) {
  bb_error err = {{0}};
  bb_branch_options bo = {seed, 0};
  if (I->nm) CHECK(bb_branch_int(m->space, m->var, I->nm, vs, val, &bo, &err) == BB_OK);
  if (I->nw) CHECK(bb_branch_int(m->space, m->var + I->nm, I->nw, vs, val, &bo, &err) == BB_OK);
}

/* --- The root. --- */

static void root(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } failure_free[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN}, {BB_VAR_INPUT_ORDER, BB_VAL_MAX},
                      {BB_VAR_FIRST_FAIL, BB_VAL_MIN}, {BB_VAR_ANTI_FIRST_FAIL, BB_VAL_MAX}};
  uint64_t rng = 31337;
  int checked = 0, first_bad = -1;
  static smi_solutions all, found;
  for (int round = 0; round < 400; round++) {
    smi I;
    smi_random(&I, &rng);
    smi_brute(&I, &all);
    int base = round & 1, vars = smi_vars(&I);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      model m = model_new(&I, base, strength, path_under_test);
      model cpu = model_new(&I, base, strength, BB_SMC_PATH_CPU);
      bb_space_state state, cpu_state;
      bb_error err = {{0}};
      bb_space_status(m.space, &state, &err);
      bb_space_status(cpu.space, &cpu_state, &err);
      CHECKF(state != BB_SPACE_FAILED, "round %d %s: the root failed (SMI always has a stable matching)", round,
             bb_smc_strength_name(strength));
      bool ok = state != BB_SPACE_FAILED && cpu_state == state;
      for (int v = 0; v < vars && ok; v++) {
        int len = smi_len(&I, v), best = len + 1, worst = -1;
        for (int value = LO - base; value <= HI - base; value++) {
          bool used = false;
          for (int k = 0; k < all.count && !used; k++) used = all.value[k][v] == value;
          if (used && value < best) best = value;
          if (used) worst = value;
          bool in = bb_int_in(m.space, m.var[v], value + base);
          bool good = strength == BB_SMC_GS_LISTS ? in == used : (!used || in) && (!in || (value >= 0 && value <= len));
          CHECKF(good, "round %d (%d men, %d women) %s base %d: var %d rank %d is %s the root domain and %s by a stable matching",
                 round, I.nm, I.nw, bb_smc_strength_name(strength), base, v, value, in ? "in" : "not in",
                 used ? "used" : "not used");
          CHECKF(in == bb_int_in(cpu.space, cpu.var[v], value + base), "round %d %s: var %d rank %d: %s path and CPU path differ",
                 round, bb_smc_strength_name(strength), v, value, bb_smc_path_name(path_under_test));
          ok = ok && good;
        }
        if (strength == BB_SMC_MEN_PROPOSING && v < I.nm)
          CHECKF(bb_int_min(m.space, m.var[v]) - base == best, "round %d men-proposing: man %d's minimum %d, man-optimal rank %d",
                 round, v, bb_int_min(m.space, m.var[v]) - base, best);
        if (strength == BB_SMC_MEN_PROPOSING && v >= I.nm)
          CHECKF(bb_int_max(m.space, m.var[v]) - base == worst,
                 "round %d men-proposing: woman %d's maximum %d, woman-pessimal rank %d", round, v - I.nm,
                 bb_int_max(m.space, m.var[v]) - base, worst);
      }
      if (!ok && first_bad < 0) first_bad = round;
      checked++;
      if (strength == BB_SMC_GS_LISTS) {
        size_t b = (size_t)round % (sizeof failure_free / sizeof *failure_free);
        branch(&I, &m, failure_free[b].var, failure_free[b].val, 0);
        uint64_t fails = 0;
        enumerate(&I, &m, base, 1, &found, &fails);
        CHECKF(smi_same(&I, &found, &all) && fails == 0,
               "round %d (%d men, %d women) gs-lists branching %zu: %d solutions (brute force %d), %llu failures", round,
               I.nm, I.nw, b, found.count, all.count, (unsigned long long)fails);
      }
      bb_space_free(m.space);
      bb_space_free(cpu.space);
    }
  }
  printf("root (SMI, Gecode, %s path): %d roots checked%s\n", bb_smc_path_name(path_under_test), checked,
         first_bad >= 0 ? " (with failures)" : "");
}

/* --- Side constraints that are not single removals; threads; clones. --- */

typedef struct side {
  int set_var, set_mask;         /* set_var takes a value whose bit is in set_mask; -1: none */
  int le_man, le_woman;          /* man's rank <= woman's rank; -1: none */
  int forced_woman, forced_rank; /* -1: none */
  int narrow_var, narrow_hi;     /* declared base..base + narrow_hi; -1: none */
} side;

static void draw_side(const smi *I, side *S, uint64_t *rng) {
  int vars = smi_vars(I);
  memset(S, 0, sizeof *S);
  S->set_var = S->le_man = S->forced_woman = S->narrow_var = -1;
  if (tu_rand(rng) % 2) {
    S->set_var = (int)(tu_rand(rng) % (uint64_t)vars);
    S->set_mask = (int)(tu_rand(rng) % (1u << (smi_len(I, S->set_var) + 1)));
  }
  if (I->nm && I->nw && tu_rand(rng) % 3 == 0) {
    S->le_man = (int)(tu_rand(rng) % (uint64_t)I->nm);
    S->le_woman = (int)(tu_rand(rng) % (uint64_t)I->nw);
  }
  if (I->nw && tu_rand(rng) % 4 == 0) {
    S->forced_woman = (int)(tu_rand(rng) % (uint64_t)I->nw);
    S->forced_rank = (int)(tu_rand(rng) % (uint64_t)(I->lw[S->forced_woman] + 1));
  }
  if (tu_rand(rng) % 3 == 0) {
    S->narrow_var = (int)(tu_rand(rng) % (uint64_t)vars);
    S->narrow_hi = (int)(tu_rand(rng) % (uint64_t)(smi_len(I, S->narrow_var) + 1));
  }
}

static bool side_allows(const smi *I, const side *S, const int *value) {
  if (S->set_var >= 0 && !(S->set_mask >> value[S->set_var] & 1)) return false;
  if (S->le_man >= 0 && value[S->le_man] > value[I->nm + S->le_woman]) return false;
  if (S->forced_woman >= 0 && value[I->nm + S->forced_woman] != S->forced_rank) return false;
  if (S->narrow_var >= 0 && value[S->narrow_var] > S->narrow_hi) return false;
  return true;
}

static model model_with_side(const smi *I, const side *S, int base, bb_smc_strength strength) {
  model m;
  bb_error err = {{0}};
  m.space = bb_space_new(&err);
  for (int v = 0; v < smi_vars(I); v++)
    m.var[v] = v == S->narrow_var ? bb_int_var(m.space, base, base + S->narrow_hi, &err) : bb_int_var(m.space, LO, HI, &err);
  if (S->set_var >= 0) {
    int values[MAX_SIDE + 1], count = 0;
    for (int r = 0; r <= smi_len(I, S->set_var); r++)
      if (S->set_mask >> r & 1) values[count++] = r + base;
    CHECK(bb_post_int_in_set(m.space, m.var[S->set_var], values, count, bb_reif_none(), &err) == BB_OK);
  }
  if (S->le_man >= 0)
    CHECK(bb_post_int_rel(m.space, m.var[S->le_man], BB_LE, m.var[I->nm + S->le_woman], bb_reif_none(), BB_IPL_DEF,
                          &err) == BB_OK);
  if (S->forced_woman >= 0)
    CHECK(bb_post_int_rel_const(m.space, m.var[I->nm + S->forced_woman], BB_EQ, S->forced_rank + base, bb_reif_none(),
                                BB_IPL_DEF, &err) == BB_OK);
  /* The constraint posted after the others: it must start from domains already cut. */
  bb_status st = post(I, &m, base, strength, path_under_test, &err);
  CHECKF(st == BB_OK, "post: %s", err.msg);
  return m;
}

static void differential(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } branchings[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN},
                    {BB_VAR_FIRST_FAIL, BB_VAL_SPLIT},
                    {BB_VAR_INPUT_ORDER, BB_VAL_MEDIAN},
                    {BB_VAR_ANTI_FIRST_FAIL, BB_VAL_REVERSE_SPLIT},
                    {BB_VAR_RANDOM, BB_VAL_RANDOM}};
  uint64_t rng = 4711;
  int searches = 0, with_solutions = 0, max_solutions = 0;
  static smi_solutions all, want, found;
  for (int round = 0; round < 400; round++) {
    smi I;
    smi_random(&I, &rng);
    side S;
    draw_side(&I, &S, &rng);
    smi_brute(&I, &all);
    want.count = 0;
    for (int k = 0; k < all.count; k++)
      if (side_allows(&I, &S, all.value[k])) memcpy(want.value[want.count++], all.value[k], sizeof all.value[k]);
    int base = (int)(tu_rand(&rng) & 1);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
      model m = model_with_side(&I, &S, base, strength);
      branch(&I, &m, branchings[b].var, branchings[b].val, (unsigned)round);
      /* 4 threads on every other instance: Gecode's parallel engine costs milliseconds a search. */
      for (int threads = 1; threads <= (round % 2 ? 4 : 1); threads += 3) {
        enumerate(&I, &m, base, threads, &found, NULL);
        CHECKF(smi_same(&I, &found, &want),
               "round %d (%d men, %d women) %s base %d branching %zu threads %d: %d solutions, brute force %d", round,
               I.nm, I.nw, bb_smc_strength_name(strength), base, b, threads, found.count, want.count);
        searches++;
      }
      if (round % 5 == 0) { /* a clone of the propagated space searches alike */
        bb_error err = {{0}};
        bb_space_state state;
        bb_space_status(m.space, &state, &err);
        if (state != BB_SPACE_FAILED) {
          model c = m;
          c.space = bb_space_clone(m.space, &err);
          CHECKF(c.space != NULL, "clone: %s", err.msg);
          if (c.space) {
            enumerate(&I, &c, base, 1, &found, NULL);
            CHECKF(smi_same(&I, &found, &want), "round %d clone: %d solutions, brute force %d", round, found.count,
                   want.count);
            bb_space_free(c.space);
          }
        } else {
          CHECKF(want.count == 0, "round %d: the root failed but brute force has %d solutions", round, want.count);
        }
      }
      bb_space_free(m.space);
    }
    with_solutions += want.count > 0;
    if (want.count > max_solutions) max_solutions = want.count;
  }
  printf("differential (SMI, Gecode, %s path): %d searches, %d instances with solutions, up to %d each\n",
         bb_smc_path_name(path_under_test), searches, with_solutions, max_solutions);
  CHECK(with_solutions > 150 && max_solutions >= 3); /* the instances are not trivial */
}

/* --- Aliasing. --- */

static void aliased(void) {
  uint64_t rng = 2024;
  int instances = 0, kept_total = 0;
  static smi_solutions all, want, found;
  for (int round = 0; round < 300; round++) {
    smi I;
    smi_random(&I, &rng);
    int vars = smi_vars(&I), base = 1;
    /* Either a man and a woman share a variable, or man 0 appears three times. */
    bool cross = round % 2 == 0;
    if (cross ? (I.nm < 1 || I.nw < 1) : I.nm < 3) continue;
    int a = cross ? (int)(tu_rand(&rng) % (uint64_t)I.nm) : 0;
    int b = cross ? I.nm + (int)(tu_rand(&rng) % (uint64_t)I.nw) : 1;
    smi_brute(&I, &all);
    want.count = 0;
    for (int k = 0; k < all.count; k++) {
      bool ok = all.value[k][a] == all.value[k][b] && (cross || all.value[k][0] == all.value[k][2]);
      if (ok) memcpy(want.value[want.count++], all.value[k], sizeof all.value[k]);
    }
    bb_error err = {{0}};
    model m;
    m.space = bb_space_new(&err);
    for (int v = 0; v < vars; v++) m.var[v] = bb_int_var(m.space, LO, HI, &err);
    m.var[b] = m.var[a];
    if (!cross) m.var[2] = m.var[0];
    bb_status st = post(&I, &m, base, round % 4 < 2 ? BB_SMC_GS_LISTS : BB_SMC_MEN_PROPOSING, path_under_test, &err);
    CHECKF(st == BB_OK, "aliased post: %s", err.msg);
    branch(&I, &m, BB_VAR_INPUT_ORDER, BB_VAL_MIN, 0);
    enumerate(&I, &m, base, 1, &found, NULL);
    CHECKF(smi_same(&I, &found, &want), "aliased round %d (%s, vars %d and %d): %d solutions, brute force %d", round,
           cross ? "a man and a woman" : "man 0 three times", a, b, found.count, want.count);
    bb_space_free(m.space);
    instances++;
    kept_total += want.count;
  }
  printf("aliased (SMI): %d instances, %d matchings kept\n", instances, kept_total);
  CHECK(kept_total > 20);
}

/* --- Bad posts. --- */

static void expect_post(const char *what, bb_status want, const char *needle, int nm, int nw, const int *men,
                        const int *women, int base, const int *pm, const int *lm, int pm_cols, const int *pw,
                        const int *lw, int pw_cols, const bb_stable_matching_options *opts) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  for (int k = 0; k < 8; k++) bb_int_var(s, 0, 5, &err);
  bb_status st = bb_post_stable_matching_smi(s, men, nm, women, nw, base, pm, lm, pm_cols, pw, lw, pw_cols, opts, &err);
  CHECKF(st == want, "%s: status %d, want %d (%s)", what, (int)st, (int)want, err.msg);
  CHECKF(strstr(err.msg, needle) != NULL, "%s: message '%s' lacks '%s'", what, err.msg, needle);
  bb_space_free(s);
}

static void bad_posts(void) {
  const int men[2] = {0, 1}, women[2] = {2, 3}, bad_var[2] = {2, 8}, neg_var[2] = {-1, 1};
  const int p0[4] = {0, 1, 1, 0}, p1[4] = {1, 2, 2, 1}, l2[2] = {2, 2}, l3[2] = {2, 3}, lneg[2] = {-2, 1};
  const int far0[4] = {0, 1, 5, 0}, dup1[4] = {2, 2, 1, 2};
  const char input[] = "stable_matching_smi: ";
  for (int base = 0; base <= 1; base++) {
    const int *p = base ? p1 : p0;
    char needle[160];
    snprintf(needle, sizeof needle, "pw_len[%d] (woman %d's list length) is 3; a row has 2 columns", 1 + base,
             1 + base);
    expect_post("length past the columns", BB_ERR_INPUT, needle, 2, 2, men, women, base, p, l2, 2, p, l3, 2, NULL);
    snprintf(needle, sizeof needle, "pm_len[%d] (man %d's list length) is -2", base, base);
    expect_post("negative length", BB_ERR_INPUT, needle, 2, 2, men, women, base, p, lneg, 2, p, l2, 2, NULL);
    expect_post("prefix", BB_ERR_INPUT, input, 2, 2, men, women, base, p, lneg, 2, p, l2, 2, NULL);
  }
  expect_post("id out of range", BB_ERR_INPUT, "pm row 1 (man 1's list) names woman 5 at column 0; the women are 0..1", 2,
              2, men, women, 0, far0, l2, 2, p0, l2, 2, NULL);
  expect_post("duplicate", BB_ERR_INPUT, "pw row 1 (woman 1's list) names man 2 twice (columns 1 and 2)", 2, 2, men,
              women, 1, p1, l2, 2, dup1, l2, 2, NULL);
  expect_post("base", BB_ERR_INPUT, "base 3", 2, 2, men, women, 3, p1, l2, 2, p1, l2, 2, NULL);
  expect_post("unknown variable", BB_ERR_ARG, "women[1] is int variable 8, which does not exist", 2, 2, men, bad_var,
              0, p0, l2, 2, p0, l2, 2, NULL);
  expect_post("negative variable", BB_ERR_ARG, "men[0] is int variable -1", 2, 2, neg_var, women, 0, p0, l2, 2, p0,
              l2, 2, NULL);
  expect_post("negative count", BB_ERR_ARG, "bad variable arrays", -1, 2, men, women, 0, p0, l2, 2, p0, l2, 2, NULL);
  bb_stable_matching_options strength = {(bb_smc_strength)7, BB_SMC_PATH_CPU}, path = {BB_SMC_GS_LISTS, (bb_smc_path)9};
  expect_post("unknown strength", BB_ERR_ARG, "unknown strength 7", 2, 2, men, women, 0, p0, l2, 2, p0, l2, 2, &strength);
  expect_post("unknown path", BB_ERR_ARG, "unknown path 9", 2, 2, men, women, 0, p0, l2, 2, p0, l2, 2, &path);
  /* A variable that cannot take any of its ranks: the post succeeds and the space fails. */
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int x[4];
  for (int k = 0; k < 4; k++) x[k] = bb_int_var(s, k == 3 ? 7 : 0, k == 3 ? 9 : 5, &err);
  CHECKF(bb_post_stable_matching_smi(s, x, 2, x + 2, 2, 0, p0, l2, 2, p0, l2, 2, NULL, &err) == BB_OK, "%s", err.msg);
  CHECK(bb_space_failed(s));
  bb_space_free(s);
  /* No men at all: every woman stays unmatched, with her list's length as value. */
  s = bb_space_new(&err);
  int w[2] = {bb_int_var(s, LO, HI, &err), bb_int_var(s, LO, HI, &err)}, zero[2] = {0, 0};
  CHECKF(bb_post_stable_matching_smi(s, NULL, 0, w, 2, 1, NULL, NULL, 0, p1, zero, 2, NULL, &err) == BB_OK, "%s",
         err.msg);
  bb_space_state state;
  bb_space_status(s, &state, &err);
  CHECK(state == BB_SPACE_SOLVED && bb_int_assigned(s, w[0]) && bb_int_min(s, w[0]) == 1 && bb_int_min(s, w[1]) == 1);
  bb_space_free(s);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (smc_path_from_args(argc, argv, &path_under_test) != 0) return 77;
  bad_posts();
  root();
  differential();
  aliased();
  return tu_finish();
}
