/* bb_post_stable_matching_smi inside Gecode, through the shim's C API, against brute force
 * from the definition (bth_smi.h). It complements test_smc_smi_search.c:
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
#include "bth_gecode.h"
#include "bth_smi.h"
#include "smc_path_arg.h"
#include "test_util.h"

#include <stdio.h>

static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

enum { MAX_SIDE = 5, LO = -3, HI = MAX_SIDE + 4 }; /* the declared range of every variable */

/* Posts the constraint with the lists in `base`, rows one column wider than the other side,
 * padded past each length with junk. */
static bb_status post(const bth_smi *I, bth_model *m, int base, bb_smc_strength strength, bb_smc_path path,
                      bb_error *err) {
  bb_stable_matching_options opts = {strength, path};
  return bth_smi_post(m->space, bth_men(m), bth_women(m), I, base, 1, 500, &opts, err);
}

static bth_model model_new(const bth_smi *I, int base, bb_smc_strength strength, bb_smc_path path) {
  bb_error err = {{0}};
  bth_model m = bth_model_new(I->nm, I->nw, LO, HI, &err);
  bb_status st = post(I, &m, base, strength, path, &err);
  CHECKF(st == BB_OK, "post: %s", err.msg);
  return m;
}

/* A solution as the values of the persons' variables (0-based ranks), each CHECKed assigned. */
typedef struct reading {
  const int *vars;
  int count, base;
  bth_solutions *out;
} reading;

static void read_ranks(const bb_space *sol, void *ctx) {
  reading *r = ctx;
  int value[BTH_SMI_VARS];
  for (int v = 0; v < r->count; v++) CHECK(bb_int_assigned(sol, r->vars[v]));
  bth_read_values(sol, r->vars, r->count, r->base, value);
  bth_solutions_add(r->out, value);
}

static int enumerate(const bth_smi *I, const bth_model *m, int base, int threads, bth_solutions *out, uint64_t *fails) {
  bb_error err = {{0}};
  reading r = {m->var, bth_smi_vars(I), base, out};
  bth_solutions_reset(out, bth_smi_vars(I));
  CHECKF(bth_search_all(m->space, threads, read_ranks, &r, NULL, fails, &err), "search: %s", err.msg);
  return out->count;
}

static void branch(const bth_smi *I, bth_model *m, bb_var_sel vs, bb_val_sel val, unsigned seed) {
  bb_error err = {{0}};
  bb_branch_options bo = {seed, 0};
  if (I->nm) CHECK(bb_branch_int(m->space, bth_men(m), I->nm, vs, val, &bo, &err) == BB_OK);
  if (I->nw) CHECK(bb_branch_int(m->space, bth_women(m), I->nw, vs, val, &bo, &err) == BB_OK);
}

/* --- The root. --- */

static void root(void) {
  static const struct {
    bb_var_sel var;
    bb_val_sel val;
  } failure_free[] = {{BB_VAR_INPUT_ORDER, BB_VAL_MIN},
                      {BB_VAR_INPUT_ORDER, BB_VAL_MAX},
                      {BB_VAR_FIRST_FAIL, BB_VAL_MIN},
                      {BB_VAR_ANTI_FIRST_FAIL, BB_VAL_MAX}};
  uint64_t rng = 31337;
  int checked = 0, first_bad = -1;
  static bth_solutions all, found;
  for (int round = 0; round < 400; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &bth_smi_small);
    bth_smi_brute(&I, &all);
    int base = round & 1, vars = bth_smi_vars(&I);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      bth_model m = model_new(&I, base, strength, path_under_test);
      bth_model cpu = model_new(&I, base, strength, BB_SMC_PATH_CPU);
      bb_space_state state, cpu_state;
      bb_error err = {{0}};
      bb_space_status(m.space, &state, &err);
      bb_space_status(cpu.space, &cpu_state, &err);
      CHECKF(state != BB_SPACE_FAILED, "round %d %s: the root failed (SMI always has a stable matching)", round,
             bb_smc_strength_name(strength));
      bool ok = state != BB_SPACE_FAILED && cpu_state == state;
      bth_domains dom = {0}, cpu_dom = {0};
      if (ok)
        ok = bth_domains_read(&dom, m.space, m.var, vars, LO, HI) &&
             bth_domains_read(&cpu_dom, cpu.space, cpu.var, vars, LO, HI);
      for (int v = 0; v < vars && ok; v++) {
        int len = bth_smi_len(&I, v), best = len + 1, worst = -1;
        for (int value = LO - base; value <= HI - base; value++) {
          bool used = false;
          for (int k = 0; k < all.count && !used; k++) used = bth_solution(&all, k)[v] == value;
          if (used && value < best) best = value;
          if (used) worst = value;
          bool in = bth_domains_has(&dom, v, value + base);
          bool good = strength == BB_SMC_GS_LISTS ? in == used : (!used || in) && (!in || (value >= 0 && value <= len));
          CHECKF(good,
                 "round %d (%d men, %d women) %s base %d: var %d rank %d is %s the root domain and %s by a stable "
                 "matching",
                 round, I.nm, I.nw, bb_smc_strength_name(strength), base, v, value, in ? "in" : "not in",
                 used ? "used" : "not used");
          CHECKF(in == bth_domains_has(&cpu_dom, v, value + base),
                 "round %d %s: var %d rank %d: %s path and CPU path differ", round, bb_smc_strength_name(strength), v,
                 value, bb_smc_path_name(path_under_test));
          ok = ok && good;
        }
        if (strength == BB_SMC_MEN_PROPOSING && v < I.nm)
          CHECKF(bb_int_min(m.space, m.var[v]) - base == best,
                 "round %d men-proposing: man %d's minimum %d, man-optimal rank %d", round, v,
                 bb_int_min(m.space, m.var[v]) - base, best);
        if (strength == BB_SMC_MEN_PROPOSING && v >= I.nm)
          CHECKF(bb_int_max(m.space, m.var[v]) - base == worst,
                 "round %d men-proposing: woman %d's maximum %d, woman-pessimal rank %d", round, v - I.nm,
                 bb_int_max(m.space, m.var[v]) - base, worst);
      }
      bth_domains_free(&dom);
      bth_domains_free(&cpu_dom);
      if (!ok && first_bad < 0) first_bad = round;
      checked++;
      if (strength == BB_SMC_GS_LISTS) {
        size_t b = (size_t)round % (sizeof failure_free / sizeof *failure_free);
        branch(&I, &m, failure_free[b].var, failure_free[b].val, 0);
        uint64_t fails = 0;
        enumerate(&I, &m, base, 1, &found, &fails);
        CHECKF(bth_same_solutions(&found, &all) && fails == 0,
               "round %d (%d men, %d women) gs-lists branching %zu: %d solutions (brute force %d), %llu failures",
               round, I.nm, I.nw, b, found.count, all.count, (unsigned long long)fails);
      }
      bb_space_free(m.space);
      bb_space_free(cpu.space);
    }
  }
  bth_solutions_free(&all);
  bth_solutions_free(&found);
  printf("root (SMI, Gecode, %s path): %d roots checked%s\n", bb_smc_path_name(path_under_test), checked,
         first_bad >= 0 ? " (with failures)" : "");
}

/* --- Side constraints that are not single removals; threads; clones. --- */

typedef struct side {
  int count;
  bth_side item[3];          /* a set of allowed values, man's rank <= woman's rank, a forced woman */
  int narrow_var, narrow_hi; /* declared base..base + narrow_hi; -1: none */
} side;

static void draw_side(const bth_smi *I, side *S, uint64_t *rng) {
  int vars = bth_smi_vars(I);
  memset(S, 0, sizeof *S);
  S->narrow_var = -1;
  if (tu_rand(rng) % 2) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars);
    uint32_t mask = (uint32_t)(tu_rand(rng) % (1u << (bth_smi_len(I, v) + 1)));
    S->item[S->count++] = (bth_side){BTH_SIDE_IN, v, 0, 0, 0, mask};
  }
  if (I->nm && I->nw && tu_rand(rng) % 3 == 0) {
    int man = (int)(tu_rand(rng) % (uint64_t)I->nm);
    int woman = (int)(tu_rand(rng) % (uint64_t)I->nw);
    S->item[S->count++] = (bth_side){BTH_SIDE_LE, man, I->nm + woman, 0, 0, 0};
  }
  if (I->nw && tu_rand(rng) % 4 == 0) {
    int woman = (int)(tu_rand(rng) % (uint64_t)I->nw);
    int rank = (int)(tu_rand(rng) % (uint64_t)(I->lw[woman] + 1));
    S->item[S->count++] = (bth_side){BTH_SIDE_EQ, I->nm + woman, 0, 0, rank, 0};
  }
  if (tu_rand(rng) % 3 == 0) {
    S->narrow_var = (int)(tu_rand(rng) % (uint64_t)vars);
    S->narrow_hi = (int)(tu_rand(rng) % (uint64_t)(bth_smi_len(I, S->narrow_var) + 1));
  }
}

static bool side_allows(const int *value, void *ctx) {
  const side *S = ctx;
  for (int c = 0; c < S->count; c++)
    if (!bth_side_allows(&S->item[c], value)) return false;
  return !(S->narrow_var >= 0 && value[S->narrow_var] > S->narrow_hi);
}

static bth_model model_with_side(const bth_smi *I, const side *S, int base, bb_smc_strength strength) {
  bb_error err = {{0}};
  bth_model m = {bb_space_new(&err), I->nm, I->nw, {0}};
  for (int v = 0; v < bth_smi_vars(I); v++)
    m.var[v] =
        v == S->narrow_var ? bb_int_var(m.space, base, base + S->narrow_hi, &err) : bb_int_var(m.space, LO, HI, &err);
  for (int c = 0; c < S->count; c++) CHECK(bth_side_post(&S->item[c], m.space, m.var, base, &err) == BB_OK);
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
  static bth_solutions want, found;
  for (int round = 0; round < 400; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &bth_smi_small);
    side S;
    draw_side(&I, &S, &rng);
    bth_smi_brute(&I, &want);
    bth_solutions_keep(&want, side_allows, &S);
    int base = (int)(tu_rand(&rng) & 1);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
      bth_model m = model_with_side(&I, &S, base, strength);
      branch(&I, &m, branchings[b].var, branchings[b].val, (unsigned)round);
      /* 4 threads on every other instance: Gecode's parallel engine costs milliseconds a search. */
      for (int threads = 1; threads <= (round % 2 ? 4 : 1); threads += 3) {
        enumerate(&I, &m, base, threads, &found, NULL);
        CHECKF(bth_same_solutions(&found, &want),
               "round %d (%d men, %d women) %s base %d branching %zu threads %d: %d solutions, brute force %d", round,
               I.nm, I.nw, bb_smc_strength_name(strength), base, b, threads, found.count, want.count);
        searches++;
      }
      if (round % 5 == 0) { /* a clone of the propagated space searches alike */
        bb_error err = {{0}};
        bb_space_state state;
        bb_space_status(m.space, &state, &err);
        if (state != BB_SPACE_FAILED) {
          bth_model c = m;
          c.space = bb_space_clone(m.space, &err);
          CHECKF(c.space != NULL, "clone: %s", err.msg);
          if (c.space) {
            enumerate(&I, &c, base, 1, &found, NULL);
            CHECKF(bth_same_solutions(&found, &want), "round %d clone: %d solutions, brute force %d", round,
                   found.count, want.count);
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
  bth_solutions_free(&want);
  bth_solutions_free(&found);
  printf("differential (SMI, Gecode, %s path): %d searches, %d instances with solutions, up to %d each\n",
         bb_smc_path_name(path_under_test), searches, with_solutions, max_solutions);
  CHECK(with_solutions > 150 && max_solutions >= 3); /* the instances are not trivial */
}

/* --- Aliasing. --- */

/* The solutions in which the aliased variables agree. */
typedef struct alias {
  int a, b;
  bool cross;
} alias;

static bool aliases_agree(const int *value, void *ctx) {
  const alias *A = ctx;
  return value[A->a] == value[A->b] && (A->cross || value[0] == value[2]);
}

static void aliased(void) {
  uint64_t rng = 2024;
  int instances = 0, kept_total = 0;
  static bth_solutions want, found;
  for (int round = 0; round < 300; round++) {
    bth_smi I;
    bth_smi_random(&I, &rng, &bth_smi_small);
    int base = 1;
    /* Either a man and a woman share a variable, or man 0 appears three times. */
    bool cross = round % 2 == 0;
    if (cross ? (I.nm < 1 || I.nw < 1) : I.nm < 3) continue;
    int a = cross ? (int)(tu_rand(&rng) % (uint64_t)I.nm) : 0;
    int b = cross ? I.nm + (int)(tu_rand(&rng) % (uint64_t)I.nw) : 1;
    bth_smi_brute(&I, &want);
    bth_solutions_keep(&want, aliases_agree, &(alias){a, b, cross});
    bb_error err = {{0}};
    bth_model m = bth_model_new(I.nm, I.nw, LO, HI, &err);
    m.var[b] = m.var[a];
    if (!cross) m.var[2] = m.var[0];
    bb_status st = post(&I, &m, base, round % 4 < 2 ? BB_SMC_GS_LISTS : BB_SMC_MEN_PROPOSING, path_under_test, &err);
    CHECKF(st == BB_OK, "aliased post: %s", err.msg);
    branch(&I, &m, BB_VAR_INPUT_ORDER, BB_VAL_MIN, 0);
    enumerate(&I, &m, base, 1, &found, NULL);
    CHECKF(bth_same_solutions(&found, &want), "aliased round %d (%s, vars %d and %d): %d solutions, brute force %d",
           round, cross ? "a man and a woman" : "man 0 three times", a, b, found.count, want.count);
    bb_space_free(m.space);
    instances++;
    kept_total += want.count;
  }
  bth_solutions_free(&want);
  bth_solutions_free(&found);
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
  expect_post("id out of range", BB_ERR_INPUT, "pm row 1 (man 1's list) names woman 5 at column 0; the women are 0..1",
              2, 2, men, women, 0, far0, l2, 2, p0, l2, 2, NULL);
  expect_post("duplicate", BB_ERR_INPUT, "pw row 1 (woman 1's list) names man 2 twice (columns 1 and 2)", 2, 2, men,
              women, 1, p1, l2, 2, dup1, l2, 2, NULL);
  expect_post("base", BB_ERR_INPUT, "base 3", 2, 2, men, women, 3, p1, l2, 2, p1, l2, 2, NULL);
  expect_post("unknown variable", BB_ERR_ARG, "women[1] is int variable 8, which does not exist", 2, 2, men, bad_var, 0,
              p0, l2, 2, p0, l2, 2, NULL);
  expect_post("negative variable", BB_ERR_ARG, "men[0] is int variable -1", 2, 2, neg_var, women, 0, p0, l2, 2, p0, l2,
              2, NULL);
  expect_post("negative count", BB_ERR_ARG, "bad variable arrays", -1, 2, men, women, 0, p0, l2, 2, p0, l2, 2, NULL);
  bb_stable_matching_options strength = {(bb_smc_strength)7, BB_SMC_PATH_CPU}, path = {BB_SMC_GS_LISTS, (bb_smc_path)9};
  expect_post("unknown strength", BB_ERR_ARG, "unknown strength 7", 2, 2, men, women, 0, p0, l2, 2, p0, l2, 2,
              &strength);
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
