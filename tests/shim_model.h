/* The tiny models of the shim's tests (test_shim_*.c, one per shim/post_*.cpp family):
 * every posting family is checked by counting all solutions with DFS and comparing with a
 * count over all assignments computed here, in C, from the builtin's MiniZinc definition.
 * Header-only: each test program includes it once. */
#ifndef BB_TEST_SHIM_MODEL_H
#define BB_TEST_SHIM_MODEL_H

#include "bb_post.h"
#include "bb_search.h"
#include "test_util.h"

#include <limits.h>
#include <stdbool.h>

/* ---- A tiny model: variables with the ranges brute force enumerates ----------------- */

enum { MAXV = 14 };
typedef enum { K_INT, K_BOOL, K_SET } var_kind;

typedef struct model {
  bb_space *s;
  int n;
  var_kind kind[MAXV];
  int idx[MAXV];          /* index in the space */
  int lo[MAXV], hi[MAXV]; /* brute-force range; a set's value is a bit mask */
  int base[MAXV];         /* sets: the element of bit 0 */
} model;

static inline model m_new(void) {
  model m;
  memset(&m, 0, sizeof m);
  m.s = bb_space_new(NULL);
  return m;
}
static inline int m_add(model *m, var_kind k, int index, int lo, int hi, int base) {
  int v = m->n++;
  m->kind[v] = k, m->idx[v] = index, m->lo[v] = lo, m->hi[v] = hi, m->base[v] = base;
  return v;
}
static inline int m_int(model *m, int lo, int hi) { return m_add(m, K_INT, bb_int_var(m->s, lo, hi, NULL), lo, hi, 0); }
static inline int m_bool(model *m) { return m_add(m, K_BOOL, bb_bool_var(m->s, 0, 1, NULL), 0, 1, 0); }
/* A set variable with upper bound base..base+width-1. */
static inline int m_set(model *m, int base, int width) {
  int lub[8];
  for (int i = 0; i < width; i++) lub[i] = base + i;
  return m_add(m, K_SET, bb_set_var(m->s, NULL, 0, lub, width, 0, width, NULL), 0, (1 << width) - 1, base);
}
static inline int has(int mask, int base, int value) {
  return value >= base && value < base + 20 && (mask >> (value - base)) & 1;
}

/* Predicates read the model's values (sets as masks) and the test's parameters in G. */
typedef int (*pred_fn)(const int *v);
static struct {
  int mode, r; /* reification under test, and its variable */
  bb_rel rel;
  int k, c, offset, n; /* assorted parameters */
  int a[16], b[16];    /* model variable numbers / constants */
  int op;
  bool flag;
} G;

static inline int rel_holds(bb_rel r, long long a, long long b) {
  switch (r) {
    case BB_EQ: return a == b;
    case BB_NE: return a != b;
    case BB_LE: return a <= b;
    case BB_LT: return a < b;
    case BB_GE: return a >= b;
    case BB_GT: return a > b;
  }
  return 0;
}
/* c under G's reification mode, r being v[G.r]. */
static inline int reified(const int *v, int c) {
  switch (G.mode) {
    case BB_REIF_EQV: return v[G.r] == c;
    case BB_REIF_IMP: return !v[G.r] || c;
    case BB_REIF_PMI: return !c || v[G.r];
    default: return c;
  }
}
static inline bb_reif reif_for(const model *m, int mode, int r) {
  bb_reif f = {m->idx[r], (bb_reif_mode)mode};
  G.mode = mode, G.r = r;
  return f;
}

static inline long brute_count(const model *m, pred_fn p) {
  int v[MAXV];
  long count = 0;
  for (int i = 0; i < m->n; i++) v[i] = m->lo[i];
  for (;;) {
    count += p(v) != 0;
    int i = 0;
    while (i < m->n && v[i] == m->hi[i]) v[i] = m->lo[i], i++;
    if (i == m->n) return count;
    v[i]++;
  }
}

static inline void read_solution(const model *m, const bb_space *s, int *v, int *unassigned) {
  for (int i = 0; i < m->n; i++) {
    if (m->kind[i] == K_INT) {
      *unassigned += !bb_int_assigned(s, m->idx[i]);
      v[i] = bb_int_min(s, m->idx[i]);
    } else if (m->kind[i] == K_BOOL) {
      *unassigned += !bb_bool_assigned(s, m->idx[i]);
      v[i] = bb_bool_min(s, m->idx[i]);
    } else {
      int glb[32], k = bb_set_glb(s, m->idx[i], glb, 32);
      *unassigned += !bb_set_assigned(s, m->idx[i]);
      v[i] = 0;
      for (int j = 0; j < k && j < 32; j++) v[i] |= 1 << (glb[j] - m->base[i]);
    }
  }
}

/* Counts the solutions of m (after its own branchings, the default one), checking each
 * against p; `bad` gets the wrong or incompletely assigned ones. */
static inline long solve_count(model *m, const bb_search_options *o, pred_fn p, long *bad) {
  bb_error err = {{0}};
  long count = 0;
  *bad = 0;
  if (bb_branch_default(m->s, &err) != BB_OK) return -1;
  bb_search *search = bb_search_new(m->s, o, &err);
  if (!search) {
    fprintf(stderr, "bb_search_new: %s\n", err.msg);
    return -1;
  }
  bb_space *sol;
  while ((sol = bb_search_next(search, &err))) {
    int v[MAXV], unassigned = 0;
    read_solution(m, sol, v, &unassigned);
    if (unassigned || !p(v)) ++*bad;
    count++;
    bb_space_free(sol);
  }
  if (bb_search_stopped(search)) count = -2;
  bb_search_free(search);
  return count;
}

/* The central check: posted constraints have exactly the brute-force solutions. */
static inline void expect_model(model *m, pred_fn p, const char *what, int line) {
  long bad = 0, brute = brute_count(m, p), got = solve_count(m, NULL, p, &bad);
  CHECKF(got == brute && bad == 0, "line %d %s (mode %d rel %d k %d): %ld solutions, brute force %ld, %ld wrong", line,
         what, G.mode, (int)G.rel, G.k, got, brute, bad);
  bb_space_free(m->s);
  m->s = NULL;
}
#define EXPECT(m, p, what) expect_model(&(m), (p), (what), __LINE__)
#define OK(call) CHECKF((call) == BB_OK, "%s", #call)

static const bb_rel all_rels[] = {BB_EQ, BB_NE, BB_LE, BB_LT, BB_GE, BB_GT};

/* Predicates more than one family's tests use. */
static inline int popcount(int mask) {
  int c = 0;
  for (; mask; mask >>= 1) c += mask & 1;
  return c;
}
static inline int p_any(const int *v) { return v != NULL; }
static inline int p_all_different(const int *v) {
  for (int i = 0; i < G.n; i++)
    for (int j = i + 1; j < G.n; j++)
      if (v[i] == v[j]) return 0;
  return 1;
}

#endif
