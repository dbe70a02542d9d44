/* HRT propagated natively (propagator/smc/ties/smc_hrt.h, shim/ties_propagator.cpp) inside
 * Gecode, through the shim's C API, against brute force written from the definition
 * (tests/harness/bth_ties.h) and against the decomposition posted through the same API (the
 * prefix sums and clauses of minizinc/decomposition/stable_matching_ties.mzn), for each
 * stability (weak, strong, super; "stable" below means stable in that sense):
 *   - random small instances (capacities 0..3, ties dense and sparse, incomplete and one-sided
 *     lists, both bases) with random starting domains on residents, loads and size: after the
 *     first propagation every native domain lies within the decomposition's (and the native
 *     constraint fails whenever the decomposition does), and every stable matching the starting
 *     domains allow keeps each of its values; and bound propagation of the clauses' linear rows
 *     (Delorme et al.'s model) from the native root domains finds nothing left to remove;
 *   - with size at least the largest stable matching: when size's minimum is the maximum
 *     capacitated matching over the pairs left (rooms from the loads' maxima), no pair is left that
 *     no maximum one uses (Rule S5; brute force over every matching of those pairs);
 *   - every matching of small instances fixed in full: the native constraint fails exactly the
 *     ones that are not stable or whose size is wrong;
 *   - a search to the end finds exactly the stable matchings of brute force;
 *   - bad posts and their messages. */
#include "bb_post.h"
#include "bb_shim.h"
#include "bb_stable_matching_ties.h"
#include "bth_ties.h"
#include "smc_ties_testlib.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Enough rounds that a starting domain with size at its bound and residents told "assigned"
 * comes up often (the size rules' consequences need both). */
enum { MAX_R = 6, MAX_H = 3, COLS = MAX_R + 1, MAX_VARS = MAX_R + MAX_H + 1, ROUNDS = 3000 };

/* The constraint's arguments: padded matrices (COLS columns) of ids and ranks from base; ranks
 * are the engine's tie indexes times 2 minus 1. */
typedef struct lists {
  int nr, nh, base;
  int rp[MAX_R * COLS], rp_len[MAX_R], rp_rank[MAX_R * COLS];
  int hp[MAX_H * COLS], hp_len[MAX_H], hp_rank[MAX_H * COLS], cap[MAX_H];
} lists;

static void lists_of(const bb_ties *in, int base, lists *L) {
  L->nr = in->n_residents, L->nh = in->n_hospitals, L->base = base;
  for (int side = 0; side < 2; side++) {
    int n = side ? L->nh : L->nr;
    const uint32_t *start = side ? in->hosp_start : in->res_start, *rank = side ? in->hosp_rank : in->res_rank;
    const bb_id *ids = side ? in->hosp_list : in->res_list;
    int *m = side ? L->hp : L->rp, *len = side ? L->hp_len : L->rp_len, *r = side ? L->hp_rank : L->rp_rank;
    for (int p = 0; p < n; p++) {
      len[p] = (int)(start[p + 1] - start[p]);
      for (int k = 0; k < COLS; k++) {
        m[p * COLS + k] = k < len[p] ? base + (int)ids[start[p] + (uint32_t)k] : 99;
        r[p * COLS + k] = k < len[p] ? 2 * (int)rank[start[p] + (uint32_t)k] - 1 : -50;
      }
    }
  }
  for (int h = 0; h < L->nh; h++) L->cap[h] = in->capacity[h];
}

static int position(const lists *L, int side, int p, int q) {
  const int *m = side ? L->hp : L->rp, *len = side ? L->hp_len : L->rp_len;
  for (int k = 0; k < len[p]; k++)
    if (m[p * COLS + k] - L->base == q) return k;
  return -1;
}

static int tie_end(const lists *L, int side, int p, int k) {
  const int *r = side ? L->hp_rank : L->rp_rank, *len = side ? L->hp_len : L->rp_len;
  while (k + 1 < len[p] && r[p * COLS + k + 1] == r[p * COLS + k]) k++;
  return k;
}

/* Residents (from base), loads, size of matching M. */
static void values_of(const lists *L, const int32_t *M, int *out) {
  int size = 0;
  for (int h = 0; h < L->nh; h++) out[L->nr + h] = 0;
  for (int r = 0; r < L->nr; r++) {
    out[r] = L->base + (M[r] == BB_TIES_NONE ? L->rp_len[r] : position(L, 0, r, M[r]));
    if (M[r] != BB_TIES_NONE) size++, out[L->nr + M[r]]++;
  }
  out[L->nr + L->nh] = size;
}

static bb_space *model_space(const lists *L, const tt_limits *R, int *x) {
  bb_space *s = bb_space_new(NULL);
  for (int r = 0; r < L->nr; r++) x[r] = bb_int_var(s, L->base, L->base + L->rp_len[r], NULL);
  for (int h = 0; h < L->nh; h++) x[L->nr + h] = bb_int_var(s, 0, L->cap[h], NULL);
  x[L->nr + L->nh] = bb_int_var(s, 0, L->nr, NULL);
  tt_post_limits(s, x, R);
  return s;
}

/* The stability under test and what the cases count for it: tt_run_stabilities runs every
 * case for each kind. */
static bb_stability kind = BB_STABILITY_WEAK;
static tt_tally tally;

static bb_status post_native(bb_space *s, const lists *L, const int *x, bb_error *err) {
  return bb_post_stable_matching_hrt(s, x, L->nr, x + L->nr, L->nh, x[L->nr + L->nh], L->base, L->rp, L->rp_len, COLS,
                                     L->rp_rank, COLS, L->hp, L->hp_len, COLS, L->hp_rank, COLS, L->cap, kind, err);
}

static int tie_first(const lists *L, int side, int p, int k) {
  const int *r = side ? L->hp_rank : L->rp_rank;
  while (k > 0 && r[p * COLS + k - 1] == r[p * COLS + k]) k--;
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

/* The decomposition: acceptable values, size, and per hospital the prefix sums P[t] of its
 * assignees among its first t entries, load = P[len], and per acceptable pair the clauses of
 * the stability under test, with full_le = P[e_h + 1] >= capacity and full_lt = P[f_h] >=
 * capacity: weak residents[r] > e_r -> full_le; strong (residents[r] > e_r -> full_lt) /\
 * (residents[r] >= f_r /\ residents[r] != k -> full_le); super (residents[r] >= f_r /\
 * residents[r] != k -> full_lt); as reified relations and linear sums. */
static void post_decomposition(bb_space *s, const lists *L, const int *x) {
  int b = L->base, ones[MAX_R], matched[MAX_R];
  for (int r = 0; r < L->nr; r++) {
    int vals[COLS + 1], n = 0;
    for (int k = 0; k < L->rp_len[r]; k++)
      if (position(L, 1, L->rp[r * COLS + k] - b, r) >= 0) vals[n++] = b + k;
    vals[n++] = b + L->rp_len[r];
    bb_post_int_in_set(s, x[r], vals, n, bb_reif_none(), NULL);
    ones[r] = 1, matched[r] = bb_bool_var(s, 0, 1, NULL);
    bb_post_int_rel_const(s, x[r], BB_LT, b + L->rp_len[r], bb_reif_eqv(matched[r]), BB_IPL_DEF, NULL);
  }
  bb_post_bool_lin(s, ones, matched, L->nr, BB_EQ, x[L->nr + L->nh], bb_reif_none(), BB_IPL_DEF, NULL);
  for (int h = 0; h < L->nh; h++) {
    int len = L->hp_len[h], P[COLS + 1];
    P[0] = bb_int_var(s, 0, 0, NULL);
    for (int t = 0; t < len; t++) {
      int r = L->hp[h * COLS + t] - b, k = position(L, 0, r, h);
      int on = bb_bool_var(s, 0, k >= 0 ? 1 : 0, NULL), one = bb_int_var(s, 0, 1, NULL);
      if (k >= 0) bb_post_int_rel_const(s, x[r], BB_EQ, b + k, bb_reif_eqv(on), BB_IPL_DEF, NULL);
      bb_post_bool2int(s, on, one, NULL);
      P[t + 1] = bb_int_var(s, 0, len, NULL);
      int coeffs[3] = {1, -1, -1}, vars[3] = {P[t + 1], P[t], one};
      bb_post_int_lin(s, coeffs, vars, 3, BB_EQ, 0, bb_reif_none(), BB_IPL_DEF, NULL);
    }
    bb_post_int_rel(s, x[L->nr + h], BB_EQ, P[len], bb_reif_none(), BB_IPL_DEF, NULL);
    for (int t = 0; t < len; t++) {
      int r = L->hp[h * COLS + t] - b, k = position(L, 0, r, h);
      if (k < 0) continue;
      int full_le = reified(s, P[tie_end(L, 1, h, t) + 1], BB_GE, L->cap[h]);
      int full_lt = reified(s, P[tie_first(L, 1, h, t)], BB_GE, L->cap[h]);
      int strictly = reified(s, x[r], BB_GT, b + tie_end(L, 0, r, k));
      int weakly = reified(s, x[r], BB_GE, b + tie_first(L, 0, r, k)), at[2] = {reified(s, x[r], BB_EQ, b + k), 0};
      if (kind == BB_STABILITY_WEAK) {
        bb_post_bool_clause(s, &full_le, 1, &strictly, 1, bb_reif_none(), NULL);
      } else if (kind == BB_STABILITY_STRONG) {
        bb_post_bool_clause(s, &full_lt, 1, &strictly, 1, bb_reif_none(), NULL);
        at[1] = full_le;
        bb_post_bool_clause(s, at, 2, &weakly, 1, bb_reif_none(), NULL);
      } else {
        at[1] = full_lt;
        bb_post_bool_clause(s, at, 2, &weakly, 1, bb_reif_none(), NULL);
      }
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
  int values[MAX_VARS], vars = c->L->nr + c->L->nh + 1;
  if (bth_ties_blocking(c->in, M, brute_kind()) != 0) return;
  values_of(c->L, M, values);
  if (!tt_allowed(c->R, values)) return;
  for (int v = 0; v < vars; v++) c->lost += !c->dom || !(c->dom[v] >> values[v] & 1);
}

/* The residents other than r whose domains (dn) still allow h, at positions 0 .. T of h's list. */
static int others_upto(const lists *L, const uint64_t *dn, int h, int T, int r) {
  int n = 0;
  for (int t = 0; t <= T && t < L->hp_len[h]; t++) {
    int q = L->hp[h * COLS + t] - L->base, k = position(L, 0, q, h);
    n += q != r && k >= 0 && (dn[q] >> (L->base + k) & 1);
  }
  return n;
}

/* The linear rows of the clauses of post_decomposition, cap * (1 - sum of x[r, g] over A) <= the
 * assignees of h at positions <= T (A: the values that make the clause's premise false; weak
 * A = 0 .. e_r(k), T = e_h(l); strong the same with T = f_h(l) - 1, and A = 0 .. f_r(k) - 1 and
 * k with T = e_h(l); super the latter with T = f_h(l) - 1), as Delorme et al.'s model writes
 * them. Their bound propagation from the native root domains dn must find nothing left to do:
 * with none of A in D_r, h is full of the others possible up to T (all at h when there are
 * exactly cap of them); with one value g of A left, and fewer than cap others possible up to T,
 * r is at g (x[r, h] counts on both sides when g = k, which the clauses' propagation misses).
 * Returns how many rows had a consequence. */
static int rows_closed(const lists *L, const uint64_t *dn) {
  int fired = 0, b = L->base;
  for (int r = 0; r < L->nr; r++)
    for (int k = 0; k < L->rp_len[r]; k++) {
      int h = L->rp[r * COLS + k] - b, l = position(L, 1, h, r);
      if (l < 0) continue;
      for (int row = 0; row < (kind == BB_STABILITY_STRONG ? 2 : 1); row++) {
        bool upto_end = kind == BB_STABILITY_WEAK || (kind == BB_STABILITY_STRONG && row == 0);
        int T = kind == BB_STABILITY_WEAK || row == 1 ? tie_end(L, 1, h, l) : tie_first(L, 1, h, l) - 1;
        uint64_t A = 0;
        for (int v = 0; v <= (upto_end ? tie_end(L, 0, r, k) : tie_first(L, 0, r, k) - 1); v++) A |= 1ull << (b + v);
        if (!upto_end) A |= 1ull << (b + k);
        uint64_t left = dn[r] & A;
        int others = others_upto(L, dn, h, T, r);
        if (left == 0) {
          CHECKF(others >= L->cap[h], "resident %d, hospital %d: h cannot be full, the native root lives", r, h);
          for (int t = 0; t <= T && others == L->cap[h]; t++) {
            int q = L->hp[h * COLS + t] - b, kq = position(L, 0, q, h);
            if (q != r && kq >= 0 && (dn[q] >> (b + kq) & 1))
              CHECKF(dn[q] == 1ull << (b + kq), "resident %d must be at hospital %d (row of %d)", q, h, r);
          }
          fired += others <= L->cap[h];
        } else if ((left & (left - 1)) == 0 && others < L->cap[h]) {
          CHECKF(dn[r] == left, "resident %d: domain %llx, the row of hospital %d leaves only %llx", r,
                 (unsigned long long)dn[r], h, (unsigned long long)left);
          fired++;
        }
      }
    }
  return fired;
}

static void root_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.nr + L.nh + 1, xn[MAX_VARS], xd[MAX_VARS];
  tt_limits R = {0};
  R.count = (int)(tu_rand(rng) % (TT_MAX_LIMITS + 1));
  /* Size, loads and "assigned" (!= unassigned) come up often: the counting rules need them. */
  for (int k = 0; k < R.count; k++) {
    int v = (int)(tu_rand(rng) % (uint64_t)vars), pick = (int)(tu_rand(rng) % 4);
    if (pick == 0) v = vars - 1;
    if (pick == 1) v = L.nr + (int)(tu_rand(rng) % (uint64_t)L.nh);
    int top = v == vars - 1 ? L.nr : v < L.nr ? L.rp_len[v] : L.cap[v - L.nr];
    R.var[k] = v, R.op[k] = (int)(tu_rand(rng) % 3);
    R.value[k] = (v < L.nr ? base : 0) + (int)(tu_rand(rng) % (uint64_t)(top + 1));
    if (pick == 2 && v < L.nr) R.op[k] = 0, R.value[k] = base + top;
  }
  bb_space *native = model_space(&L, &R, xn), *decomp = model_space(&L, &R, xd);
  bb_error err = {{0}};
  CHECKF(post_native(native, &L, xn, &err) == BB_OK, "%s", err.msg);
  post_decomposition(decomp, &L, xd);
  uint64_t dn[MAX_VARS], dd[MAX_VARS];
  bool ok_n = tt_root_domains(native, xn, vars, dn), ok_d = tt_root_domains(decomp, xd, vars, dd);
  CHECKF(ok_n <= ok_d, "the decomposition failed where the native constraint did not (%d residents)", L.nr);
  tally.strictly_smaller += tt_native_within(vars, ok_n ? dn : NULL, ok_d ? dd : NULL);
  if (ok_n) tally.rows_fired += rows_closed(&L, dn);
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
  if (tt_allowed(c->R, values) && values[c->L->nr + c->L->nh] > c->best) c->best = values[c->L->nr + c->L->nh];
}

/* Every capacitated matching of the allowed pairs (allowed[r][h], at most room[h] residents at
 * h), resident by resident: the largest size (nu) and, per pair, the largest matching using it. */
static void matchings(const lists *L, bool allowed[MAX_R][MAX_H], const int *room, int r, int *held, int size, int *nu,
                      int in_pair[MAX_R][MAX_H], int *chosen) {
  if (r == L->nr) {
    if (size > *nu) *nu = size;
    for (int q = 0; q < L->nr; q++)
      if (chosen[q] >= 0 && in_pair[q][chosen[q]] < size) in_pair[q][chosen[q]] = size;
    return;
  }
  chosen[r] = -1;
  matchings(L, allowed, room, r + 1, held, size, nu, in_pair, chosen);
  for (int h = 0; h < L->nh; h++)
    if (allowed[r][h] && held[h] < room[h]) {
      chosen[r] = h, held[h]++;
      matchings(L, allowed, room, r + 1, held, size + 1, nu, in_pair, chosen);
      held[h]--;
    }
  chosen[r] = -1;
}

/* Rule S5: with size at least the largest stable matching's (after random removals on
 * residents), whenever size's minimum equals the maximum capacitated matching over the pairs
 * and rooms the root leaves, every pair left is in some maximum one of them. */
static void maximum_pairs_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.nr + L.nh + 1, x[MAX_VARS];
  tt_limits R = {0};
  int removals = (int)(tu_rand(rng) % 4);
  for (int k = 0; k < removals; k++) {
    int r = (int)(tu_rand(rng) % (uint64_t)L.nr);
    R.var[R.count] = r, R.op[R.count] = 0,
    R.value[R.count++] = base + (int)(tu_rand(rng) % (uint64_t)(L.rp_len[r] + 1));
  }
  largest big = {&L, in, &R, -1};
  bth_ties_enumerate(in, largest_visit, &big);
  if (big.best < 0) return;
  R.var[R.count] = vars - 1, R.op[R.count] = 2, R.value[R.count++] = big.best;
  bb_space *s = model_space(&L, &R, x);
  bb_error err = {{0}};
  CHECKF(post_native(s, &L, x, &err) == BB_OK, "%s", err.msg);
  uint64_t dom[MAX_VARS];
  if (!tt_root_domains(s, x, vars, dom)) {
    CHECKF(0, "%s", "the largest stable matching was lost");
    bb_space_free(s);
    return;
  }
  sound kept = {&L, in, &R, dom, 0}; /* and the largest stable matchings keep their values */
  bth_ties_enumerate(in, sound_visit, &kept);
  CHECKF(kept.lost == 0, "%d values of the largest stable matchings removed", kept.lost);
  bool pairs[MAX_R][MAX_H] = {{false}};
  int in_pair[MAX_R][MAX_H], chosen[MAX_R], held[MAX_H] = {0}, room[MAX_H], nu = 0;
  for (int h = 0; h < L.nh; h++) {
    room[h] = 63 - __builtin_clzll(dom[L.nr + h]); /* the load's maximum (never above capacity) */
  }
  for (int r = 0; r < L.nr; r++)
    for (int h = 0; h < L.nh; h++) {
      int k = position(&L, 0, r, h), l = position(&L, 1, h, r);
      pairs[r][h] = k >= 0 && l >= 0 && (dom[r] >> (base + k) & 1);
      in_pair[r][h] = -1;
    }
  matchings(&L, pairs, room, 0, held, 0, &nu, in_pair, chosen);
  int lo = 0;
  while (!(dom[vars - 1] >> lo & 1)) lo++;
  if (lo == nu) {
    tally.maximum_checked++;
    for (int r = 0; r < L.nr; r++)
      for (int h = 0; h < L.nh; h++)
        CHECKF(!pairs[r][h] || in_pair[r][h] == nu,
               "resident %d and hospital %d are left but in no maximum matching (%d)", r, h, nu);
  }
  bb_space_free(s);
}

typedef struct fixed {
  const lists *L;
  const bb_ties *in;
  long count;
} fixed;

static void fixed_visit(const int32_t *M, void *ctx) {
  fixed *c = ctx;
  if (c->count++ > 300) return;
  int values[MAX_VARS], x[MAX_VARS], vars = c->L->nr + c->L->nh + 1;
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
    CHECKF((state != BB_SPACE_FAILED) == stable, "a matching %s stable (kind %d), size off by %d", stable ? "" : "not",
           (int)kind, off);
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

/* A search to the end finds exactly the stable matchings of brute force (residents, loads and
 * size), with and without the constraint's own brancher. */
static void search_case(const bb_ties *in, int base, uint64_t *rng) {
  lists L;
  lists_of(in, base, &L);
  int vars = L.nr + L.nh + 1, x[MAX_VARS];
  bth_solutions want = {0};
  bth_solutions_reset(&want, vars);
  wanted c = {&L, in, &want};
  bth_ties_enumerate(in, wanted_visit, &c);
  tt_limits none = {0};
  bb_space *s = model_space(&L, &none, x);
  CHECK(post_native(s, &L, x, NULL) == BB_OK);
  tally.search_solutions += tt_search_exactly(s, x, vars, tu_rand(rng) % 2, &want, "hrt");
  tally.searched++;
  bth_solutions_free(&want);
  bb_space_free(s);
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
  lists L = {.nr = 2, .nh = 1, .base = 1, .rp_len = {1, 1}, .hp_len = {2}, .cap = {1}};
  L.rp[0] = L.rp[COLS] = 1, L.hp[0] = 1, L.hp[1] = 2;
  lists D = L;
  D.hp_rank[1] = -1;
  bad_post("decreasing ranks", D, "the ranks of hospital 1 (hp_rank) decrease from 0 to -1 at position 2",
           BB_ERR_INPUT);
  D = L, D.hp[1] = 3;
  bad_post("an id out of range", D, "hospital 1's list names 3, which is no id (1..2)", BB_ERR_INPUT);
  D = L, D.rp[COLS] = 2;
  bad_post("a hospital out of range", D, "resident 2's list names 2, which is no id (1..1)", BB_ERR_INPUT);
  int x[MAX_VARS];
  tt_limits none = {0};
  bb_space *s = model_space(&L, &none, x);
  bb_error err = {{0}};
  L.cap[0] = -1;
  CHECKF(post_native(s, &L, x, &err) == BB_ERR_INPUT && strstr(err.msg, "hospital 1 has capacity -1"), "'%s'", err.msg);
  bb_space_free(s);
}

int main(void) {
  tt_suite suite = {.seed = 0x4a7e5eedu,
                    .rounds = ROUNDS,
                    .max_side0 = MAX_R,
                    .max_side1 = MAX_H,
                    .max_capacity = 3,
                    .smti = false,
                    .rows = true,
                    .search_every = 10,
                    .search_at = 5,
                    .kind = &kind,
                    .tally = &tally,
                    .root_case = root_case,
                    .maximum_pairs_case = maximum_pairs_case,
                    .fixed_case = fixed_case,
                    .search_case = search_case};
  int st = tt_run_stabilities(&suite);
  if (st) return st;
  bad_posts();
  return tu_finish();
}
