/* SMTI propagated natively (propagator/smc/ties, shim/ties_propagator.cpp) inside Gecode, through
 * the shim's C API, against brute force written from the definition (tests/harness/bth_ties.h)
 * and against Gent & Prosser's decomposition posted through the same API (the clauses of
 * minizinc/decomposition/stable_matching_ties.mzn), for each stability (weak, strong, super;
 * "stable" below means stable in that sense):
 *   - random small instances (ties dense and sparse, incomplete and one-sided lists, both bases)
 *     with random starting domains (values removed, bounds on men, women and size): after the
 *     first propagation every native domain lies within the decomposition's (and the native
 *     constraint fails whenever the decomposition does), and every stable matching that the
 *     starting domains allow keeps each of its values;
 *   - with size at least the largest stable matching: when size's minimum is the maximum
 *     matching over the pairs left, no pair is left that no maximum matching uses (brute force
 *     over every matching of those pairs);
 *   - every matching of small instances fixed in full: the native constraint fails exactly the
 *     ones that are not stable or whose size is wrong;
 *   - a search to the end finds exactly the stable matchings of brute force;
 *   - a side with nobody, and bad posts with their messages. */
#include "bb_post.h"
#include "bb_shim.h"
#include "bb_stable_matching_ties.h"
#include "bth_ties.h"
#include "smc_ties_testlib.h"
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_N = 6, MAX_VARS = 2 * MAX_N + 1 };

/* An instance as the constraint's arguments: padded matrices (one padding column) of ids and
 * ranks from base; ranks are the engine's tie indexes times 2 minus 1 (gaps, a negative one). */
typedef struct lists {
  int n1, n2, base, cols;
  int pm[MAX_N * (MAX_N + 1)], pm_len[MAX_N], pm_rank[MAX_N * (MAX_N + 1)];
  int pw[MAX_N * (MAX_N + 1)], pw_len[MAX_N], pw_rank[MAX_N * (MAX_N + 1)];
} lists;

static void lists_of(const bb_ties *in, int base, lists *L) {
  L->n1 = in->n_residents, L->n2 = in->n_hospitals, L->base = base, L->cols = MAX_N + 1;
  for (int side = 0; side < 2; side++) {
    int n = side ? L->n2 : L->n1;
    const uint32_t *start = side ? in->hosp_start : in->res_start, *rank = side ? in->hosp_rank : in->res_rank;
    const bb_id *ids = side ? in->hosp_list : in->res_list;
    int *m = side ? L->pw : L->pm, *len = side ? L->pw_len : L->pm_len, *r = side ? L->pw_rank : L->pm_rank;
    for (int p = 0; p < n; p++) {
      len[p] = (int)(start[p + 1] - start[p]);
      for (int k = 0; k < L->cols; k++) {
        m[p * L->cols + k] = k < len[p] ? base + (int)ids[start[p] + (uint32_t)k] : 99;
        r[p * L->cols + k] = k < len[p] ? 2 * (int)rank[start[p] + (uint32_t)k] - 1 : -50;
      }
    }
  }
}

/* Position (0-based) of id q in person p's list of side `side`, -1 if absent. */
static int position(const lists *L, int side, int p, int q) {
  const int *m = side ? L->pw : L->pm, *len = side ? L->pw_len : L->pm_len;
  for (int k = 0; k < len[p]; k++)
    if (m[p * L->cols + k] - L->base == q) return k;
  return -1;
}

/* The variables' values of matching M: men, women (from base), size. */
static void values_of(const lists *L, const int32_t *M, int *out) {
  int size = 0;
  for (int i = 0; i < L->n1; i++) {
    out[i] = L->base + (M[i] == BB_TIES_NONE ? L->pm_len[i] : position(L, 0, i, M[i]));
    size += M[i] != BB_TIES_NONE;
  }
  for (int j = 0; j < L->n2; j++) {
    int k = L->pw_len[j];
    for (int i = 0; i < L->n1; i++)
      if (M[i] == j) k = position(L, 1, j, i);
    out[L->n1 + j] = L->base + k;
  }
  out[L->n1 + L->n2] = size;
}

/* The model's variables (men, women, size) with the starting restrictions; x receives their indexes. */
static bb_space *model_space(const lists *L, const tt_limits *R, int *x) {
  bb_space *s = bb_space_new(NULL);
  for (int v = 0; v < L->n1 + L->n2; v++) {
    int len = v < L->n1 ? L->pm_len[v] : L->pw_len[v - L->n1];
    x[v] = bb_int_var(s, L->base, L->base + len, NULL);
  }
  x[L->n1 + L->n2] = bb_int_var(s, 0, L->n1, NULL);
  tt_post_limits(s, x, R);
  return s;
}

/* The stability under test and what the cases count for it: tt_run_stabilities runs every
 * case for each kind. */
static bb_stability kind = BB_STABILITY_WEAK;
static tt_tally tally;

static bb_status post_native(bb_space *s, const lists *L, const int *x, bb_error *err) {
  return bb_post_stable_matching_smti(s, x, L->n1, x + L->n1, L->n2, x[L->n1 + L->n2], L->base, L->pm, L->pm_len,
                                      L->cols, L->pm_rank, L->cols, L->pw, L->pw_len, L->cols, L->pw_rank, L->cols,
                                      kind, err);
}

/* The last position tied with position k of person p's list. */
static int tie_end(const lists *L, int side, int p, int k) {
  const int *r = side ? L->pw_rank : L->pm_rank, *len = side ? L->pw_len : L->pm_len;
  while (k + 1 < len[p] && r[p * L->cols + k + 1] == r[p * L->cols + k]) k++;
  return k;
}

/* The first position tied with position k of person p's list. */
static int tie_first(const lists *L, int side, int p, int k) {
  const int *r = side ? L->pw_rank : L->pm_rank;
  while (k > 0 && r[p * L->cols + k - 1] == r[p * L->cols + k]) k--;
  return k;
}

/* A fresh Boolean equivalent to x rel c. */
static int reified(bb_space *s, int x, bb_rel rel, int c) {
  int bv = bb_bool_var(s, 0, 1, NULL);
  bb_post_int_rel_const(s, x, rel, c, bb_reif_eqv(bv), BB_IPL_DEF, NULL);
  return bv;
}

/* The brute force's name for the stability under test. */
static bb_ties_stability brute_kind(void) {
  return kind == BB_STABILITY_WEAK ? BB_TIES_WEAK : kind == BB_STABILITY_STRONG ? BB_TIES_STRONG : BB_TIES_SUPER;
}

/* Gent & Prosser's model as the decomposition states it: domains, size, then per acceptable
 * pair a channel and the clauses of the stability under test, each as reified relations: weak
 * men[i] > e_i -> women[j] <= e_j; strong (men[i] > e_i -> women[j] < f_j) /\ (women[j] > e_j
 * -> men[i] < f_i); super (men[i] >= f_i /\ men[i] != k) -> women[j] < f_j. */
static void post_decomposition(bb_space *s, const lists *L, const int *x) {
  int b = L->base, ones[MAX_N], matched[MAX_N];
  for (int side = 0; side < 2; side++)
    for (int p = 0; p < (side ? L->n2 : L->n1); p++) {
      int vals[MAX_N + 1], n = 0, len = side ? L->pw_len[p] : L->pm_len[p];
      const int *m = side ? L->pw : L->pm;
      for (int k = 0; k < len; k++)
        if (position(L, 1 - side, m[p * L->cols + k] - b, p) >= 0) vals[n++] = b + k;
      vals[n++] = b + len;
      bb_post_int_in_set(s, x[side * L->n1 + p], vals, n, bb_reif_none(), NULL);
    }
  for (int i = 0; i < L->n1; i++) {
    ones[i] = 1, matched[i] = bb_bool_var(s, 0, 1, NULL);
    bb_post_int_rel_const(s, x[i], BB_LT, b + L->pm_len[i], bb_reif_eqv(matched[i]), BB_IPL_DEF, NULL);
  }
  bb_post_bool_lin(s, ones, matched, L->n1, BB_EQ, x[L->n1 + L->n2], bb_reif_none(), BB_IPL_DEF, NULL);
  for (int i = 0; i < L->n1; i++)
    for (int k = 0; k < L->pm_len[i]; k++) {
      int j = L->pm[i * L->cols + k] - b, l = position(L, 1, j, i);
      if (l < 0) continue;
      int together = bb_bool_var(s, 0, 1, NULL), m = x[i], w = x[L->n1 + j];
      bb_post_int_rel_const(s, m, BB_EQ, b + k, bb_reif_eqv(together), BB_IPL_DEF, NULL);
      bb_post_int_rel_const(s, w, BB_EQ, b + l, bb_reif_eqv(together), BB_IPL_DEF, NULL);
      int em = b + tie_end(L, 0, i, k), ew = b + tie_end(L, 1, j, l);
      int fm = b + tie_first(L, 0, i, k), fw = b + tie_first(L, 1, j, l);
      if (kind == BB_STABILITY_WEAK) {
        int he = reified(s, m, BB_GT, em), she = reified(s, w, BB_LE, ew);
        bb_post_bool_clause(s, &she, 1, &he, 1, bb_reif_none(), NULL);
      } else if (kind == BB_STABILITY_STRONG) {
        int he = reified(s, m, BB_GT, em), she_lt = reified(s, w, BB_LT, fw);
        int she = reified(s, w, BB_GT, ew), he_lt = reified(s, m, BB_LT, fm);
        bb_post_bool_clause(s, &she_lt, 1, &he, 1, bb_reif_none(), NULL);
        bb_post_bool_clause(s, &he_lt, 1, &she, 1, bb_reif_none(), NULL);
      } else {
        int he_ge = reified(s, m, BB_GE, fm), pos[2] = {together, reified(s, w, BB_LT, fw)};
        bb_post_bool_clause(s, pos, 2, &he_ge, 1, bb_reif_none(), NULL);
      }
    }
}

typedef struct sound {
  const lists *L;
  const bb_ties *in;
  const tt_limits *R;
  const uint64_t *dom; /* NULL: the native constraint failed */
  int lost;
} sound;

static void sound_visit(const int32_t *M, void *ctx) {
  sound *c = ctx;
  int values[MAX_VARS], vars = c->L->n1 + c->L->n2 + 1;
  if (bth_ties_blocking(c->in, M, brute_kind()) != 0) return;
  values_of(c->L, M, values);
  if (!tt_allowed(c->R, values)) return;
  for (int v = 0; v < vars; v++) c->lost += !c->dom || !(c->dom[v] >> values[v] & 1);
}

/* Native against decomposition and brute force at the root of random starting domains. */
static void root_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.n1 + L.n2 + 1, xn[MAX_VARS], xd[MAX_VARS];
  tt_limits R = {0};
  R.count = (int)(tu_rand(rng) % (TT_MAX_LIMITS + 1));
  /* Half the time size is bounded and a person is told "matched" (!= unmatched): the size
   * rules then have forced persons to count. */
  for (int k = 0; k < R.count; k++) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars), pick = (int)(tu_rand(rng) % 4);
    if (pick == 0) v = vars - 1;
    int top = v == vars - 1 ? L.n1 : v < L.n1 ? L.pm_len[v] : L.pw_len[v - L.n1];
    R.var[k] = v, R.op[k] = (int)(tu_rand(rng) % 3),
    R.value[k] = (v == vars - 1 ? 0 : base) + (int)(tu_rand(rng) % (uint64_t)(top + 1));
    if (pick == 1 && v < vars - 1) R.op[k] = 0, R.value[k] = base + top;
  }
  bb_space *native = model_space(&L, &R, xn), *decomp = model_space(&L, &R, xd);
  bb_error err = {{0}};
  CHECKF(post_native(native, &L, xn, &err) == BB_OK, "%s", err.msg);
  post_decomposition(decomp, &L, xd);
  uint64_t dn[MAX_VARS], dd[MAX_VARS];
  bool ok_n = tt_root_domains(native, xn, vars, dn), ok_d = tt_root_domains(decomp, xd, vars, dd);
  CHECKF(ok_n <= ok_d, "the decomposition failed where the native constraint did not (%d men, %d women)", L.n1, L.n2);
  tally.strictly_smaller += tt_native_within(vars, ok_n ? dn : NULL, ok_d ? dd : NULL);
  sound c = {&L, in, &R, ok_n ? dn : NULL, 0};
  bth_ties_enumerate(in, sound_visit, &c);
  CHECKF(c.lost == 0, "%d values of stable matchings (kind %d) removed", c.lost, (int)kind);
  bb_space_free(native);
  bb_space_free(decomp);
}

/* The largest stable matching that the restrictions allow (-1: none). */
typedef struct largest {
  const lists *L;
  const bb_ties *in;
  const tt_limits *R;
  int best;
} largest;

static void largest_visit(const int32_t *M, void *ctx) {
  largest *c = ctx;
  int values[MAX_VARS];
  if (bth_ties_blocking(c->in, M, brute_kind()) != 0) return;
  values_of(c->L, M, values);
  if (tt_allowed(c->R, values) && values[c->L->n1 + c->L->n2] > c->best) c->best = values[c->L->n1 + c->L->n2];
}

/* Every matching of the allowed pairs (allowed[i][j]), man by man: the largest size (nu) and,
 * per pair, the largest matching that uses it. */
static void matchings(const lists *L, bool allowed[MAX_N][MAX_N], int i, int used, int size, int *nu,
                      int in_pair[MAX_N][MAX_N], int *chosen) {
  if (i == L->n1) {
    if (size > *nu) *nu = size;
    for (int m = 0; m < L->n1; m++)
      if (chosen[m] >= 0 && in_pair[m][chosen[m]] < size) in_pair[m][chosen[m]] = size;
    return;
  }
  chosen[i] = -1;
  matchings(L, allowed, i + 1, used, size, nu, in_pair, chosen);
  for (int j = 0; j < L->n2; j++)
    if (allowed[i][j] && !(used >> j & 1)) {
      chosen[i] = j;
      matchings(L, allowed, i + 1, used | 1 << j, size + 1, nu, in_pair, chosen);
    }
  chosen[i] = -1;
}

/* Rule S5: with size at least the largest stable matching's (after random removals),
 * whenever size's minimum equals the maximum matching over the pairs the root leaves, every
 * pair left is in some maximum matching of them. */
static void maximum_pairs_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.n1 + L.n2 + 1, x[MAX_VARS];
  tt_limits R = {0};
  int removals = (int)(tu_rand(rng) % 4);
  for (int k = 0; k < removals; k++) {
    int v = (int)(tu_rand(rng) % (uint64_t)(vars - 1)), top = v < L.n1 ? L.pm_len[v] : L.pw_len[v - L.n1];
    R.var[R.count] = v, R.op[R.count] = 0, R.value[R.count++] = base + (int)(tu_rand(rng) % (uint64_t)(top + 1));
  }
  largest big = {&L, in, &R, -1};
  bth_ties_enumerate(in, largest_visit, &big);
  if (big.best < 0) return;
  R.var[R.count] = vars - 1, R.op[R.count] = 2, R.value[R.count++] = big.best;
  bb_space *s = model_space(&L, &R, x);
  CHECK(post_native(s, &L, x, NULL) == BB_OK);
  uint64_t dom[MAX_VARS];
  CHECKF(tt_root_domains(s, x, vars, dom), "%s", "the largest stable matching was lost");
  bool pairs[MAX_N][MAX_N] = {{false}};
  int in_pair[MAX_N][MAX_N], chosen[MAX_N], nu = 0;
  for (int i = 0; i < L.n1; i++)
    for (int j = 0; j < L.n2; j++) {
      int k = position(&L, 0, i, j), l = position(&L, 1, j, i);
      pairs[i][j] = k >= 0 && l >= 0 && (dom[i] >> (base + k) & 1) && (dom[L.n1 + j] >> (base + l) & 1);
      in_pair[i][j] = -1;
    }
  matchings(&L, pairs, 0, 0, 0, &nu, in_pair, chosen);
  int lo = 0;
  while (!(dom[vars - 1] >> lo & 1)) lo++;
  if (lo != nu) {
    bb_space_free(s);
    return;
  }
  tally.maximum_checked++;
  for (int i = 0; i < L.n1; i++)
    for (int j = 0; j < L.n2; j++)
      CHECKF(!pairs[i][j] || in_pair[i][j] == nu, "man %d and woman %d are left but in no maximum matching (%d)", i, j,
             nu);
  bb_space_free(s);
}

typedef struct fixed {
  const lists *L;
  const bb_ties *in;
  long count;
} fixed;

/* A matching fixed in full, with its size right or one off: solved exactly when stable. */
static void fixed_visit(const int32_t *M, void *ctx) {
  fixed *c = ctx;
  if (c->count++ > 300) return;
  int values[MAX_VARS], x[MAX_VARS], vars = c->L->n1 + c->L->n2 + 1;
  values_of(c->L, M, values);
  for (int off = 0; off < 2; off++) {
    tt_limits none = {0};
    bb_space *s = model_space(c->L, &none, x);
    for (int v = 0; v < vars; v++)
      bb_post_int_rel_const(s, x[v], BB_EQ, values[v] + (v == vars - 1 ? off : 0), bb_reif_none(), BB_IPL_DEF, NULL);
    CHECK(post_native(s, c->L, x, NULL) == BB_OK);
    bb_space_state state;
    CHECK(bb_space_status(s, &state, NULL) == BB_OK);
    bool stable = bth_ties_blocking(c->in, M, brute_kind()) == 0 && off == 0;
    CHECKF((state != BB_SPACE_FAILED) == stable, "a matching %s stable (kind %d), size off by %d: state %d",
           stable ? "" : "not", (int)kind, off, (int)state);
    bb_space_free(s);
  }
}

/* Every matching of the instance fixed in full (the first 300 or so). */
static void fixed_case(const bb_ties *in, int base, uint64_t *rng) {
  (void)rng;
  lists L;
  lists_of(in, base, &L);
  fixed c = {&L, in, 0};
  bth_ties_enumerate(in, fixed_visit, &c);
}

typedef struct wanted {
  const lists *L;
  const bb_ties *in;
  bth_solutions *rows;
} wanted;

static void wanted_visit(const int32_t *M, void *ctx) {
  wanted *c = ctx;
  int values[MAX_VARS];
  if (bth_ties_blocking(c->in, M, brute_kind()) != 0) return;
  values_of(c->L, M, values);
  bth_solutions_add(c->rows, values);
}

/* A search to the end finds exactly the stable matchings of brute force, with and without the
 * constraint's own brancher. */
static void search_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.n1 + L.n2 + 1, x[MAX_VARS];
  bth_solutions want = {0};
  bth_solutions_reset(&want, vars);
  wanted c = {&L, in, &want};
  bth_ties_enumerate(in, wanted_visit, &c);
  tt_limits none = {0};
  bb_space *s = model_space(&L, &none, x);
  CHECK(post_native(s, &L, x, NULL) == BB_OK);
  tally.search_solutions += tt_search_exactly(s, x, vars, tu_rand(rng) % 2, &want, "smti");
  tally.searched++;
  bth_solutions_free(&want);
  bb_space_free(s);
}

/* Nobody on one side: everyone unmatched, size 0. */
static void empty_side(void) {
  lists L = {.n1 = 2, .n2 = 0, .base = 1, .cols = 1};
  int x[3];
  tt_limits none = {0};
  bb_space *s = model_space(&L, &none, x);
  CHECK(post_native(s, &L, x, NULL) == BB_OK);
  uint64_t dom[3];
  CHECK(tt_root_domains(s, x, 3, dom) && dom[0] == 2 && dom[1] == 2 && dom[2] == 1);
  bb_space_free(s);
}

/* Three men who must be matched, all to two women, while two more men may match two other
 * women: size's bounds (3 forced, a maximum matching of 4) leave room, no value is fixed and
 * every list is one tie, so only the cover rule (a matching must cover everyone forced matched)
 * sees the failure; then the same with the sides swapped. */
static void hall_violation(void) {
  for (int swap = 0; swap < 2; swap++) {
    lists L = {.n1 = swap ? 4 : 5, .n2 = swap ? 5 : 4, .base = 0, .cols = 3};
    int *m = swap ? L.pw : L.pm, *w = swap ? L.pm : L.pw, *ml = swap ? L.pw_len : L.pm_len;
    int *wl = swap ? L.pm_len : L.pw_len;
    for (int p = 0; p < 5; p++) m[p * 3] = p < 3 ? 0 : 2, m[p * 3 + 1] = p < 3 ? 1 : 3, ml[p] = 2;
    for (int q = 0; q < 2; q++) w[q * 3] = 0, w[q * 3 + 1] = 1, w[q * 3 + 2] = 2, wl[q] = 3;
    for (int q = 2; q < 4; q++) w[q * 3] = 3, w[q * 3 + 1] = 4, wl[q] = 2;
    tt_limits R = {.count = 3};
    for (int p = 0; p < 3; p++) R.var[p] = swap ? L.n1 + p : p, R.op[p] = 0, R.value[p] = 2;
    int x[MAX_VARS];
    bb_space *s = model_space(&L, &R, x);
    CHECK(post_native(s, &L, x, NULL) == BB_OK);
    uint64_t dom[MAX_VARS];
    CHECKF(!tt_root_domains(s, x, L.n1 + L.n2 + 1, dom), "swap %d: three forced persons on two partners", swap);
    bb_space_free(s);
  }
}

static void bad_post(const char *what, lists L, const char *fragment, bb_status want) {
  int x[MAX_VARS];
  tt_limits none = {0};
  bb_space *s = model_space(&L, &none, x);
  bb_error err = {{0}};
  bb_status st = post_native(s, &L, x, &err);
  CHECKF(st == want && strstr(err.msg, fragment), "%s: status %d, message '%s'", what, (int)st, err.msg);
  bb_space_free(s);
}

static void bad_posts(void) {
  lists L = {.n1 = 2, .n2 = 2, .base = 0, .cols = 2};
  int pm[] = {0, 1, 1, 0}, len[] = {2, 2}, rank[] = {0, 1, 0, 0};
  memcpy(L.pm, pm, sizeof pm), memcpy(L.pw, pm, sizeof pm);
  memcpy(L.pm_len, len, sizeof len), memcpy(L.pw_len, len, sizeof len);
  memcpy(L.pm_rank, rank, sizeof rank), memcpy(L.pw_rank, rank, sizeof rank);
  lists D = L;
  D.pm_rank[1] = -1;
  bad_post("decreasing ranks", D, "the ranks of man 0 (pm_rank) decrease from 0 to -1 at position 1", BB_ERR_INPUT);
  D = L, D.pw[3] = 1;
  bad_post("a repeat", D, "woman 1's list names 1 twice", BB_ERR_INPUT);
  D = L, D.pm[2] = 2;
  bad_post("an id out of range", D, "man 1's list names 2, which is no id (0..1)", BB_ERR_INPUT);
  D = L, D.pm_len[0] = 3;
  bad_post("a length past the columns", D, "man 0's list length is 3", BB_ERR_INPUT);
  D = L, D.base = 2;
  bad_post("base 2", D, "base 2", BB_ERR_ARG);
}

int main(void) {
  tt_suite suite = {.seed = 0x5eed7135u,
                    .rounds = 600,
                    .max_side0 = MAX_N,
                    .max_side1 = MAX_N,
                    .max_capacity = 1,
                    .smti = true,
                    .search_every = 3,
                    .search_at = 0,
                    .kind = &kind,
                    .tally = &tally,
                    .root_case = root_case,
                    .maximum_pairs_case = maximum_pairs_case,
                    .fixed_case = fixed_case,
                    .search_case = search_case};
  int st = tt_run_stabilities(&suite);
  if (st) return st;
  empty_side();
  hall_violation();
  bad_posts();
  return tu_finish();
}
