/* The Stable Marriage constraint on incomplete lists (SMI) inside Gecode, through the shim's
 * C API, against brute force written here from the definition:
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
#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "smc_path_arg.h"
#include "test_util.h"
#include "hr.h"

#include <stdio.h>

enum { MAX_SIDE = 5, NONE = -1 };

static bb_smc_path path_under_test = BB_SMC_PATH_CPU;

/* An instance in 0-based ids: man i's list pm[i][0 .. lm[i]), woman j's pw[j][0 .. lw[j]). */
typedef struct smi {
  int nm, nw;
  int pm[MAX_SIDE][MAX_SIDE], lm[MAX_SIDE];
  int pw[MAX_SIDE][MAX_SIDE], lw[MAX_SIDE];
} smi;

static int pos(const int *list, int len, int id) {
  for (int k = 0; k < len; k++)
    if (list[k] == id) return k;
  return -1;
}

static bool acceptable(const smi *I, int m, int w) {
  return pos(I->pm[m], I->lm[m], w) >= 0 && pos(I->pw[w], I->lw[w], m) >= 0;
}

/* Ranks as the constraint's variables hold them (0-based): the partner's position, or the
 * list's length when unmatched. */
static int man_value(const smi *I, int m, int w) { return w == NONE ? I->lm[m] : pos(I->pm[m], I->lm[m], w); }
static int woman_value(const smi *I, int w, int m) { return m == NONE ? I->lw[w] : pos(I->pw[w], I->lw[w], m); }

/* The definition: only acceptable pairs, and no acceptable pair (m, w) in which m is
 * unmatched or prefers w, and w is unmatched or prefers m. */
static bool stable(const smi *I, const int *wife) {
  int husband[MAX_SIDE];
  for (int w = 0; w < I->nw; w++) husband[w] = NONE;
  for (int m = 0; m < I->nm; m++) {
    if (wife[m] == NONE) continue;
    if (!acceptable(I, m, wife[m]) || husband[wife[m]] != NONE) return false;
    husband[wife[m]] = m;
  }
  for (int m = 0; m < I->nm; m++)
    for (int w = 0; w < I->nw; w++) {
      if (!acceptable(I, m, w) || wife[m] == w) continue;
      bool m_wants = wife[m] == NONE || pos(I->pm[m], I->lm[m], w) < pos(I->pm[m], I->lm[m], wife[m]);
      bool w_wants = husband[w] == NONE || pos(I->pw[w], I->lw[w], m) < pos(I->pw[w], I->lw[w], husband[w]);
      if (m_wants && w_wants) return false;
    }
  return true;
}

/* Every stable matching, as wife[] rows (NONE = unmatched): all assignments of men to
 * women-or-nobody, filtered. */
typedef struct matchings {
  int count;
  int wife[4096][MAX_SIDE];
} matchings;

static void brute(const smi *I, int m, int *wife, matchings *out) {
  if (m == I->nm) {
    if (stable(I, wife) && out->count < 4096) memcpy(out->wife[out->count++], wife, sizeof(int) * MAX_SIDE);
    return;
  }
  for (int w = NONE; w < I->nw; w++) {
    wife[m] = w;
    brute(I, m + 1, wife, out);
  }
}

static void random_smi(smi *I, uint64_t *rng) {
  if (tu_rand(rng) % 3 == 0) { /* Latin-square lists (many stable matchings), some cut short */
    int n = 2 + (int)(tu_rand(rng) % (MAX_SIDE - 1));
    I->nm = I->nw = n;
    for (int p = 0; p < n; p++) {
      I->lm[p] = n - (tu_rand(rng) % 4 == 0);
      I->lw[p] = n - (tu_rand(rng) % 4 == 0);
      for (int k = 0; k < n; k++) I->pm[p][k] = (p + k) % n, I->pw[p][k] = (p + 1 + k) % n;
    }
    return;
  }
  I->nm = 1 + (int)(tu_rand(rng) % MAX_SIDE);
  I->nw = 1 + (int)(tu_rand(rng) % MAX_SIDE);
  for (int side = 0; side < 2; side++) {
    int count = side ? I->nw : I->nm, others = side ? I->nm : I->nw;
    for (int p = 0; p < count; p++) {
      int ids[MAX_SIDE], *len = side ? &I->lw[p] : &I->lm[p], *list = side ? I->pw[p] : I->pm[p];
      for (int q = 0; q < others; q++) ids[q] = q;
      for (int q = others - 1; q > 0; q--) {
        int r = (int)(tu_rand(rng) % (uint64_t)(q + 1)), t = ids[q];
        ids[q] = ids[r];
        ids[r] = t;
      }
      /* Mostly long lists (rich matchings), sometimes short or empty ones. */
      *len = tu_rand(rng) % 3 ? others - (int)(tu_rand(rng) % 2) : (int)(tu_rand(rng) % (uint64_t)(others + 1));
      for (int k = 0; k < *len; k++) list[k] = ids[k];
    }
  }
}

typedef struct model {
  bb_space *space;
  int men[MAX_SIDE], women[MAX_SIDE];
} model;

/* Posts the constraint with the lists in `base`, padded with junk past each length. */
static model model_new(const smi *I, int base, bb_smc_strength strength, bb_status *st, bb_error *err) {
  model m;
  m.space = bb_space_new(err);
  for (int i = 0; i < I->nm; i++) m.men[i] = bb_int_var(m.space, -3, MAX_SIDE + 4, err);
  for (int j = 0; j < I->nw; j++) m.women[j] = bb_int_var(m.space, -3, MAX_SIDE + 4, err);
  int pm[MAX_SIDE * MAX_SIDE], pw[MAX_SIDE * MAX_SIDE];
  for (int i = 0; i < I->nm; i++)
    for (int k = 0; k < I->nw; k++) pm[i * I->nw + k] = k < I->lm[i] ? I->pm[i][k] + base : 99;
  for (int j = 0; j < I->nw; j++)
    for (int k = 0; k < I->nm; k++) pw[j * I->nm + k] = k < I->lw[j] ? I->pw[j][k] + base : -99;
  bb_stable_matching_options opts = {strength, path_under_test};
  *st = bb_post_stable_matching_smi(m.space, m.men, I->nm, m.women, I->nw, base, pm, I->lm, I->nw, pw, I->lw, I->nm,
                                    &opts, err);
  return m;
}

/* Every solution's wife[] row, read off the men's ranks (and checked against the women's). */
static int enumerate(const smi *I, model *m, int base, int threads, int (*found)[MAX_SIDE], int room,
                     uint64_t *fails) {
  bb_error err = {{0}};
  bb_search_options o;
  bb_search_options_init(&o);
  o.threads = threads;
  bb_search *s = bb_search_new(m->space, &o, &err);
  CHECKF(s != NULL, "search: %s", err.msg);
  int count = 0;
  for (bb_space *sol; s && (sol = bb_search_next(s, &err)) != NULL; bb_space_free(sol)) {
    int wife[MAX_SIDE];
    for (int i = 0; i < I->nm; i++) {
      int r = bb_int_min(sol, m->men[i]) - base;
      wife[i] = r == I->lm[i] ? NONE : I->pm[i][r];
    }
    for (int j = 0; j < I->nw; j++) {
      int r = bb_int_min(sol, m->women[j]) - base, husband = r == I->lw[j] ? NONE : I->pw[j][r];
      CHECKF(husband == NONE ? pos(wife, I->nm, j) < 0 : wife[husband] == j,
             "woman %d's variable disagrees with the men's", j);
    }
    if (count < room) memcpy(found[count], wife, sizeof wife);
    count++;
  }
  bb_search_statistics stats = {0};
  if (s) bb_search_stats(s, &stats);
  if (fails) *fails = stats.fails;
  bb_search_free(s);
  return count;
}

static bool same_set(const smi *I, int (*a)[MAX_SIDE], int na, int (*b)[MAX_SIDE], int nb) {
  if (na != nb) return false;
  for (int x = 0; x < na; x++) {
    bool seen = false;
    for (int y = 0; y < nb && !seen; y++) seen = !memcmp(a[x], b[y], sizeof(int) * (size_t)I->nm);
    if (!seen) return false;
  }
  return true;
}

static matchings expected, kept;
static int found[4096][MAX_SIDE];

/* Side constraints, drawn per instance: each is a value some variable may not take (a pair
 * forbidden from either side, or somebody who must be matched), maybe a forced pair, maybe a
 * bound on the men's rank sum. The reference keeps the stable matchings they allow. */
typedef struct side {
  int count, var[8], value[8]; /* var < nm: man var; else woman var - nm */
  int forced_man, forced_value;
  int budget;                  /* sum of the men's 0-based ranks <= budget; < 0: none */
} side;

static void draw_side(const smi *I, side *S, uint64_t *rng, int round) {
  S->count = round % 3 == 0 ? 0 : (int)(tu_rand(rng) % 5);
  for (int c = 0; c < S->count; c++) {
    int v = (int)(tu_rand(rng) % (uint64_t)(I->nm + I->nw));
    int len = v < I->nm ? I->lm[v] : I->lw[v - I->nm];
    S->var[c] = v;
    S->value[c] = (int)(tu_rand(rng) % (uint64_t)(len + 1)); /* len: must be matched */
  }
  S->forced_man = round % 4 == 1 ? (int)(tu_rand(rng) % (uint64_t)I->nm) : -1;
  S->forced_value = S->forced_man >= 0 ? (int)(tu_rand(rng) % (uint64_t)(I->lm[S->forced_man] + 1)) : 0;
  S->budget = round % 5 == 2 ? (int)(tu_rand(rng) % (uint64_t)(I->nm * MAX_SIDE / 2 + 1)) : -1;
}

static bool side_allows(const smi *I, const side *S, const int *wife) {
  int husband[MAX_SIDE];
  for (int w = 0; w < I->nw; w++) husband[w] = pos(wife, I->nm, w) >= 0 ? pos(wife, I->nm, w) : NONE;
  for (int c = 0; c < S->count; c++) {
    int v = S->var[c];
    int value = v < I->nm ? man_value(I, v, wife[v]) : woman_value(I, v - I->nm, husband[v - I->nm]);
    if (value == S->value[c]) return false;
  }
  if (S->forced_man >= 0 && man_value(I, S->forced_man, wife[S->forced_man]) != S->forced_value) return false;
  if (S->budget >= 0) {
    int sum = 0;
    for (int m = 0; m < I->nm; m++) sum += man_value(I, m, wife[m]);
    if (sum > S->budget) return false;
  }
  return true;
}

static void post_side(const smi *I, const side *S, model *m, int base) {
  bb_error err = {{0}};
  for (int c = 0; c < S->count; c++) {
    int v = S->var[c], x = v < I->nm ? m->men[v] : m->women[v - I->nm];
    CHECK(bb_post_int_rel_const(m->space, x, BB_NE, S->value[c] + base, bb_reif_none(), BB_IPL_DEF, &err) == BB_OK);
  }
  if (S->forced_man >= 0)
    bb_post_int_rel_const(m->space, m->men[S->forced_man], BB_EQ, S->forced_value + base, bb_reif_none(), BB_IPL_DEF,
                          &err);
  if (S->budget >= 0) {
    int ones[MAX_SIDE] = {1, 1, 1, 1, 1};
    bb_post_int_lin(m->space, ones, m->men, I->nm, BB_LE, S->budget + I->nm * base, bb_reif_none(), BB_IPL_DEF, &err);
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
    smi I;
    random_smi(&I, &rng);
    side S;
    draw_side(&I, &S, &rng, round);
    int wife[MAX_SIDE];
    expected.count = 0;
    brute(&I, 0, wife, &expected);
    kept.count = 0;
    for (int s = 0; s < expected.count; s++)
      if (side_allows(&I, &S, expected.wife[s])) memcpy(kept.wife[kept.count++], expected.wife[s], sizeof wife);
    int base = (int)(tu_rand(&rng) & 1);
    for (int si = 0; si < 2; si++) {
      bb_smc_strength strength = si ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS;
      bb_error err = {{0}};
      bb_status st;
      model m = model_new(&I, base, strength, &st, &err);
      CHECKF(st == BB_OK, "post: %s", err.msg);
      post_side(&I, &S, &m, base);
      size_t b = (size_t)(round + si) % (sizeof branchings / sizeof *branchings);
      bb_branch_options bo = {(unsigned)round, 0};
      CHECK(bb_branch_int(m.space, m.men, I.nm, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      CHECK(bb_branch_int(m.space, m.women, I.nw, branchings[b].var, branchings[b].val, &bo, &err) == BB_OK);
      int threads = round % 7 == 3 ? 4 : 1;
      int count = enumerate(&I, &m, base, threads, found, 4096, NULL);
      CHECKF(same_set(&I, found, count, kept.wife, kept.count),
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
static void engine_optimum(const smi *I, bool women_side, int *value) {
  bb_error err = {{0}};
  bb_hr *h = bb_hr_new(true, I->nm, I->nw, (uint64_t)I->nm * I->nw, (uint64_t)I->nm * I->nw, &err);
  uint32_t at = 0;
  for (int m = 0; m < I->nm; m++) {
    h->res_start[m] = at;
    for (int k = 0; k < I->lm[m]; k++) h->res_list[at++] = (bb_id)I->pm[m][k];
  }
  h->res_start[I->nm] = at;
  at = 0;
  for (int w = 0; w < I->nw; w++) {
    h->hosp_start[w] = at;
    for (int k = 0; k < I->lw[w]; k++) h->hosp_list[at++] = (bb_id)I->pw[w][k];
    h->capacity[w] = 1;
  }
  h->hosp_start[I->nw] = at;
  int32_t assigned[MAX_SIDE];
  CHECKF(bb_hr_solve(h, "gs-seq", women_side ? BB_HR_HOSPITAL_OPTIMAL : BB_HR_RESIDENT_OPTIMAL, NULL, assigned, NULL,
                     &err) == BB_OK,
         "engine: %s", err.msg);
  for (int w = 0; w < I->nw && women_side; w++) {
    int husband = NONE;
    for (int m = 0; m < I->nm; m++)
      if (assigned[m] == w) husband = m;
    value[w] = woman_value(I, w, husband);
  }
  for (int m = 0; m < I->nm && !women_side; m++) value[m] = man_value(I, m, assigned[m] == BB_HR_NONE ? NONE : assigned[m]);
  bb_hr_free(h);
}

/* gs-lists at the root leaves exactly the values some stable matching uses; enumerating
 * with any value order then never fails. */
static void root_is_arc_consistent(void) {
  uint64_t rng = 77;
  int checked = 0;
  for (int round = 0; round < 300; round++) {
    smi I;
    random_smi(&I, &rng);
    int wife[MAX_SIDE];
    expected.count = 0;
    brute(&I, 0, wife, &expected);
    int base = (int)(round & 1);
    bb_error err = {{0}};
    bb_status st;
    model m = model_new(&I, base, BB_SMC_GS_LISTS, &st, &err);
    bb_space_state state;
    bb_space_status(m.space, &state, &err);
    /* SMI always has a stable matching: the root never fails. */
    CHECKF(state != BB_SPACE_FAILED, "round %d: root failed", round);
    for (int v = 0; v < I.nm + I.nw && state != BB_SPACE_FAILED; v++) {
      int x = v < I.nm ? m.men[v] : m.women[v - I.nm], len = v < I.nm ? I.lm[v] : I.lw[v - I.nm];
      for (int value = 0; value <= len; value++) {
        bool used = false;
        for (int s = 0; s < expected.count && !used; s++) {
          if (v < I.nm) {
            used = man_value(&I, v, expected.wife[s][v]) == value;
          } else {
            int h = pos(expected.wife[s], I.nm, v - I.nm);
            used = woman_value(&I, v - I.nm, h >= 0 ? h : NONE) == value;
          }
        }
        bool in = bb_int_min(m.space, x) <= value + base && value + base <= bb_int_max(m.space, x) &&
                  bb_int_in(m.space, x, value + base);
        CHECKF(in == used, "round %d: variable %d value %d is %s the root domain but %s by a stable matching",
               round, v, value, in ? "in" : "not in", used ? "used" : "not used");
      }
      checked++;
    }
    int men_best[MAX_SIDE], women_best[MAX_SIDE];
    engine_optimum(&I, false, men_best);
    engine_optimum(&I, true, women_best);
    for (int v = 0; v < I.nm + I.nw && state != BB_SPACE_FAILED; v++) {
      int x = v < I.nm ? m.men[v] : m.women[v - I.nm], best = v < I.nm ? men_best[v] : women_best[v - I.nm];
      CHECKF(bb_int_min(m.space, x) - base == best, "round %d: variable %d starts at %d, the engine's optimum is %d",
             round, v, bb_int_min(m.space, x) - base, best);
    }
    bb_branch_int(m.space, m.men, I.nm, BB_VAR_INPUT_ORDER, BB_VAL_MAX, NULL, &err);
    bb_branch_int(m.space, m.women, I.nw, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    uint64_t fails = 0;
    int count = enumerate(&I, &m, base, 1, found, 4096, &fails);
    CHECKF(count == expected.count && fails == 0, "round %d: %d solutions (brute force %d), %llu failures", round,
           count, expected.count, (unsigned long long)fails);
    bb_space_free(m.space);
  }
  printf("root (SMI): %d domains equal the values of the stable matchings\n", checked);
}

/* men[0] and men[1] the same variable: the solutions where the two men hold the same rank. */
static void aliased_variable(void) {
  uint64_t rng = 9;
  int rounds = 0;
  for (int round = 0; round < 200; round++) {
    smi I;
    random_smi(&I, &rng);
    if (I.nm < 2) continue;
    int wife[MAX_SIDE];
    expected.count = 0;
    brute(&I, 0, wife, &expected);
    kept.count = 0;
    for (int s = 0; s < expected.count; s++)
      if (man_value(&I, 0, expected.wife[s][0]) == man_value(&I, 1, expected.wife[s][1]))
        memcpy(kept.wife[kept.count++], expected.wife[s], sizeof wife);
    bb_error err = {{0}};
    bb_space *space = bb_space_new(&err);
    model m = {space, {0}, {0}};
    for (int i = 0; i < I.nm; i++) m.men[i] = bb_int_var(space, -3, MAX_SIDE + 4, &err);
    m.men[1] = m.men[0];
    for (int j = 0; j < I.nw; j++) m.women[j] = bb_int_var(space, -3, MAX_SIDE + 4, &err);
    int pm[MAX_SIDE * MAX_SIDE], pw[MAX_SIDE * MAX_SIDE];
    for (int i = 0; i < I.nm; i++)
      for (int k = 0; k < I.lm[i]; k++) pm[i * I.nw + k] = I.pm[i][k];
    for (int j = 0; j < I.nw; j++)
      for (int k = 0; k < I.lw[j]; k++) pw[j * I.nm + k] = I.pw[j][k];
    bb_stable_matching_options opts = {BB_SMC_GS_LISTS, path_under_test};
    CHECK(bb_post_stable_matching_smi(space, m.men, I.nm, m.women, I.nw, 0, pm, I.lm, I.nw, pw, I.lw, I.nm, &opts,
                                      &err) == BB_OK);
    bb_branch_int(space, m.men, I.nm, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    bb_branch_int(space, m.women, I.nw, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err);
    int count = enumerate(&I, &m, 0, 1, found, 4096, NULL);
    CHECKF(same_set(&I, found, count, kept.wife, kept.count), "aliased round %d: %d solutions, brute force %d", round,
           count, kept.count);
    bb_space_free(space);
    rounds++;
  }
  printf("aliased variables (SMI): %d instances\n", rounds);
}

static void expect_error(const char *what, const char *needle, int nm, int nw, int base, const int *pm,
                         const int *lm, int pm_cols, const int *pw, const int *lw, int pw_cols) {
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
  expect_error("unknown id", "pm row 2 (man 2's list) names woman 3 at column 1; the women are 1..2", 2, 2, 1,
               unknown, two, 2, pw, two, 2);
  expect_error("duplicate", "pw row 1 (woman 1's list) names man 2 twice (columns 1 and 2)", 2, 2, 1, pm, two, 2,
               dup, two, 2);
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
  return tu_finish();
}
