/* Shared by the native ties constraints' tests (test_smc_ties_native.c, test_smc_hrt_native.c):
 * the random starting restrictions on the model's variables (a few "!= v", "<= v", ">= v"), which
 * matchings they allow, their posting, the domains after the first propagation, the native
 * root domains against the decomposition's, a search to the end against brute force, and the
 * rounds of random instances run for each stability. */
#ifndef BB_SMC_TIES_TESTLIB_H
#define BB_SMC_TIES_TESTLIB_H

#include "bb_hrc.h" /* bb_branch_deferred */
#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching_ties.h" /* bb_stability */
#include "bth_gecode.h"
#include "bth_solutions.h"
#include "bth_ties.h"
#include "test_util.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TT_MAX_LIMITS 6

typedef struct tt_limits {
  int count, var[TT_MAX_LIMITS], op[TT_MAX_LIMITS], value[TT_MAX_LIMITS]; /* op: 0 !=, 1 <=, 2 >= */
} tt_limits;

/* Whether the variables' values (indexed as the model's variables) meet every restriction. */
static inline bool tt_allowed(const tt_limits *R, const int *values) {
  for (int k = 0; k < R->count; k++) {
    int v = values[R->var[k]], c = R->value[k];
    if (R->op[k] == 0 ? v == c : R->op[k] == 1 ? v > c : v < c) return false;
  }
  return true;
}

/* Posts the restrictions on the variables x. */
static inline void tt_post_limits(bb_space *s, const int *x, const tt_limits *R) {
  static const bb_rel rel[] = {BB_NE, BB_LE, BB_GE};
  for (int k = 0; k < R->count; k++)
    bb_post_int_rel_const(s, x[R->var[k]], rel[R->op[k]], R->value[k], bb_reif_none(), BB_IPL_DEF, NULL);
}

/* Domains after the first propagation as bit sets (bit v: value v), or false when it failed. */
static inline bool tt_root_domains(bb_space *s, const int *x, int vars, uint64_t *dom) {
  bb_space_state state;
  if (bb_space_status(s, &state, NULL) != BB_OK || state == BB_SPACE_FAILED) return false;
  for (int v = 0; v < vars; v++) {
    int vals[64], n = bb_int_values(s, x[v], vals);
    dom[v] = 0;
    for (int k = 0; k < n; k++) dom[v] |= (uint64_t)1 << vals[k];
  }
  return true;
}

/* The native root domains dn against the decomposition's dd (NULL where that root failed): when
 * both live, each native domain within the decomposition's (a check per variable). Returns whether
 * the native side is strictly stronger: a smaller domain, or a failure where the decomposition
 * lives. */
static inline bool tt_native_within(int vars, const uint64_t *dn, const uint64_t *dd) {
  if (!dn || !dd) return dd != NULL;
  bool smaller = false;
  for (int v = 0; v < vars; v++) {
    CHECKF((dn[v] & ~dd[v]) == 0, "variable %d: native %llx, decomposition %llx", v, (unsigned long long)dn[v],
           (unsigned long long)dd[v]);
    smaller |= dn[v] != dd[v];
  }
  return smaller;
}

typedef struct tt_reading {
  const int *x;
  int vars;
  bth_solutions *found;
} tt_reading;

static inline void tt_read_solution(const bb_space *solution, void *ctx) {
  tt_reading *r = ctx;
  int value[64];
  CHECK(bth_read_values(solution, r->x, r->vars, 0, value) == 0);
  bth_solutions_add(r->found, value);
}

/* Searches s (the model's variables x[0..vars) posted, the constraint among them) to the end,
 * after the constraints' own branchers when deferred, then input order with the smallest value
 * first, and checks that the solutions are exactly want's rows (the variables' values). Returns
 * how many it found. */
static inline int tt_search_exactly(bb_space *s, const int *x, int vars, bool deferred, const bth_solutions *want,
                                    const char *what) {
  bb_error err = {{0}};
  if (deferred) CHECKF(bb_branch_deferred(s, &err) == BB_OK, "%s", err.msg);
  CHECKF(bb_branch_int(s, x, vars, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err) == BB_OK, "%s", err.msg);
  bth_solutions found = {0};
  bth_solutions_reset(&found, vars);
  tt_reading r = {x, vars, &found};
  long count = 0;
  CHECKF(bth_search_all(s, 1, tt_read_solution, &r, &count, NULL, &err), "search: %s", err.msg);
  CHECKF(bth_same_solutions(&found, want), "%s: search found %d solutions, brute force %d (or other ones)", what,
         found.count, want->count);
  bth_solutions_free(&found);
  return (int)count;
}

/* What a test's cases count, per stability: each must be above 0 at the end. */
typedef struct tt_tally {
  int strictly_smaller;            /* roots where the native domains are strictly smaller than the decomposition's */
  int maximum_checked;             /* roots at size = the maximum matching, checked for pairs in no maximum one */
  long searched, search_solutions; /* searches to the end, and the stable matchings they found */
  int rows_fired; /* rows of the linear model with a consequence the native root holds (when suite.rows) */
} tt_tally;

/* A case on a random instance, with a random base (0 or 1) and the rounds' generator. */
typedef void tt_case(const bb_ties *in, int base, uint64_t *rng);

/* A test's rounds: bth_ties_random(1..max_side0, 1..max_side1, max_capacity, smti, ...) with
 * the tie percentages in turn; every round the root and maximum-pairs cases, every tenth the
 * fixed matchings, the search when round % search_every == search_at. The cases set *tally's
 * counts for the stability in *kind. */
typedef struct tt_suite {
  uint64_t seed;
  int rounds, max_side0, max_side1, max_capacity;
  bool smti;
  bool rows; /* the root case checks the linear model's rows too: rows_fired must be above 0 */
  int search_every, search_at;
  bb_stability *kind;
  tt_tally *tally;
  tt_case *root_case, *maximum_pairs_case, *fixed_case, *search_case;
} tt_suite;

/* Runs the suite's rounds for weak, strong and super-stability in turn (each from the same
 * seed), prints each one's counts and checks that none is 0; leaves *kind weak. Returns 0, or
 * 2 when an instance could not be made. */
static inline int tt_run_stabilities(const tt_suite *t) {
  static const int ties[] = {0, 30, 70, 95};
  static const bb_stability kinds[] = {BB_STABILITY_WEAK, BB_STABILITY_STRONG, BB_STABILITY_SUPER};
  static const char *const names[] = {"weak", "strong", "super"};
  for (int kk = 0; kk < 3; kk++) {
    uint64_t rng = t->seed;
    tt_tally *n = t->tally;
    *t->kind = kinds[kk];
    *n = (tt_tally){0};
    for (int round = 0; round < t->rounds; round++) {
      int n0 = 1 + (int)(tu_rand(&rng) % (uint64_t)t->max_side0),
          n1 = 1 + (int)(tu_rand(&rng) % (uint64_t)t->max_side1);
      bb_ties *in = bth_ties_random(n0, n1, t->max_capacity, t->smti, ties[round % 4], &rng);
      if (!in) return 2;
      t->root_case(in, (int)(tu_rand(&rng) % 2), &rng);
      t->maximum_pairs_case(in, (int)(tu_rand(&rng) % 2), &rng);
      if (round % 10 == 0) t->fixed_case(in, (int)(tu_rand(&rng) % 2), &rng);
      if (round % t->search_every == t->search_at) t->search_case(in, (int)(tu_rand(&rng) % 2), &rng);
      bb_ties_free(in);
    }
    printf(
        "%s: %d instances, %d roots where the native domains are strictly smaller, %d roots at size = the maximum "
        "matching checked for pairs in no maximum matching, %ld searches to the end finding %ld stable matchings, "
        "as brute force\n",
        names[kk], t->rounds, n->strictly_smaller, n->maximum_checked, n->searched, n->search_solutions);
    CHECKF(n->strictly_smaller > 0, "%s: %s", names[kk], "the native rules never did more than the decomposition's");
    CHECKF(n->maximum_checked > 0, "%s: %s", names[kk], "no root had size's minimum at the maximum matching");
    CHECKF(n->search_solutions > 0, "%s: %s", names[kk], "no search found a stable matching");
    if (t->rows) {
      printf("%s: %d rows of the linear model with a consequence the native root holds\n", names[kk], n->rows_fired);
      CHECKF(n->rows_fired > 0, "%s: %s", names[kk], "no row of the linear model had a consequence");
    }
  }
  *t->kind = BB_STABILITY_WEAK;
  return 0;
}

#endif
