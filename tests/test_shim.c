/* The Gecode shim's C API against brute force: every posting family is checked on tiny
 * models by counting all solutions with DFS and comparing with a count over all
 * assignments computed here, in C, from the builtin's MiniZinc definition. Plus branch
 * and bound optima, restarts, limits, threads, branchings, and argument errors. */
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
  int idx[MAXV];      /* index in the space */
  int lo[MAXV], hi[MAXV]; /* brute-force range; a set's value is a bit mask */
  int base[MAXV];     /* sets: the element of bit 0 */
} model;

static model m_new(void) {
  model m;
  memset(&m, 0, sizeof m);
  m.s = bb_space_new(NULL);
  return m;
}
static int m_add(model *m, var_kind k, int index, int lo, int hi, int base) {
  int v = m->n++;
  m->kind[v] = k, m->idx[v] = index, m->lo[v] = lo, m->hi[v] = hi, m->base[v] = base;
  return v;
}
static int m_int(model *m, int lo, int hi) { return m_add(m, K_INT, bb_int_var(m->s, lo, hi, NULL), lo, hi, 0); }
static int m_bool(model *m) { return m_add(m, K_BOOL, bb_bool_var(m->s, 0, 1, NULL), 0, 1, 0); }
/* A set variable with upper bound base..base+width-1. */
static int m_set(model *m, int base, int width) {
  int lub[8];
  for (int i = 0; i < width; i++) lub[i] = base + i;
  return m_add(m, K_SET, bb_set_var(m->s, NULL, 0, lub, width, 0, width, NULL), 0, (1 << width) - 1, base);
}
static int has(int mask, int base, int value) { return value >= base && value < base + 20 && (mask >> (value - base)) & 1; }

/* Predicates read the model's values (sets as masks) and the test's parameters in G. */
typedef int (*pred_fn)(const int *v);
static struct {
  int mode, r;          /* reification under test, and its variable */
  bb_rel rel;
  int k, c, offset, n;  /* assorted parameters */
  int a[16], b[16];     /* model variable numbers / constants */
  int op;
  bool flag;
} G;

static int rel_holds(bb_rel r, long long a, long long b) {
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
static int reified(const int *v, int c) {
  switch (G.mode) {
  case BB_REIF_EQV: return v[G.r] == c;
  case BB_REIF_IMP: return !v[G.r] || c;
  case BB_REIF_PMI: return !c || v[G.r];
  default: return c;
  }
}
static bb_reif reif_for(const model *m, int mode, int r) {
  bb_reif f = {m->idx[r], (bb_reif_mode)mode};
  G.mode = mode, G.r = r;
  return f;
}

static long brute_count(const model *m, pred_fn p) {
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

static void read_solution(const model *m, const bb_space *s, int *v, int *unassigned) {
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
static long solve_count(model *m, const bb_search_options *o, pred_fn p, long *bad) {
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
static void expect_model(model *m, pred_fn p, const char *what, int line) {
  long bad = 0, brute = brute_count(m, p), got = solve_count(m, NULL, p, &bad);
  CHECKF(got == brute && bad == 0, "line %d %s (mode %d rel %d k %d): %ld solutions, brute force %ld, %ld wrong",
         line, what, G.mode, (int)G.rel, G.k, got, brute, bad);
  bb_space_free(m->s);
  m->s = NULL;
}
#define EXPECT(m, p, what) expect_model(&(m), (p), (what), __LINE__)
#define OK(call) CHECKF((call) == BB_OK, "%s", #call)

static const bb_rel all_rels[] = {BB_EQ, BB_NE, BB_LE, BB_LT, BB_GE, BB_GT};

/* ---- Integers ------------------------------------------------------------------------- */

static int p_int_rel(const int *v) { return reified(v, rel_holds(G.rel, v[0], v[1])); }
static int p_int_rel_const(const int *v) { return reified(v, rel_holds(G.rel, v[0], G.c)); }
static int p_int_lin(const int *v) {
  long long sum = 0;
  for (int i = 0; i < G.n; i++) sum += (long long)G.b[i] * v[G.a[i]];
  return reified(v, rel_holds(G.rel, sum, G.flag ? v[G.k] : G.c));
}

static void test_int_rel_lin(void) {
  for (int ri = 0; ri < 6; ri++)
    for (int mode = 0; mode < 4; mode++) {
      G.rel = all_rels[ri];
      model m = m_new();
      int x = m_int(&m, -1, 2), y = m_int(&m, 0, 3), r = m_bool(&m);
      OK(bb_post_int_rel(m.s, m.idx[x], G.rel, m.idx[y], reif_for(&m, mode, r), BB_IPL_DEF, NULL));
      EXPECT(m, p_int_rel, "int_rel");

      m = m_new();
      x = m_int(&m, -2, 3), r = m_bool(&m);
      G.c = 1;
      OK(bb_post_int_rel_const(m.s, m.idx[x], G.rel, G.c, reif_for(&m, mode, r), BB_IPL_DOM, NULL));
      EXPECT(m, p_int_rel_const, "int_rel_const");

      for (int var_rhs = 0; var_rhs < 2; var_rhs++) {
        m = m_new();
        G.n = 3, G.c = 2, G.flag = var_rhs;
        int coeffs[3] = {2, -1, 3}, vars[3];
        for (int i = 0; i < 3; i++) G.a[i] = m_int(&m, 0, 2), G.b[i] = coeffs[i], vars[i] = m.idx[G.a[i]];
        r = m_bool(&m);
        G.k = m_int(&m, -1, 4);
        if (var_rhs)
          OK(bb_post_int_lin_var(m.s, coeffs, vars, 3, G.rel, m.idx[G.k], reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        else
          OK(bb_post_int_lin(m.s, coeffs, vars, 3, G.rel, G.c, reif_for(&m, mode, r), BB_IPL_BND, NULL));
        EXPECT(m, p_int_lin, var_rhs ? "int_lin_var" : "int_lin");
      }
    }
  G.k = 0;
}

static int p_in_set(const int *v) { return reified(v, v[0] == -1 || v[0] == 1 || v[0] == 3); }
static int p_in_ranges(const int *v) { return reified(v, (v[0] >= -2 && v[0] <= -1) || (v[0] >= 2 && v[0] <= 3)); }

static void test_int_in(void) {
  for (int mode = 0; mode < 4; mode++) {
    model m = m_new();
    int x = m_int(&m, -2, 4), r = m_bool(&m);
    int values[] = {3, -1, 1, 3};
    OK(bb_post_int_in_set(m.s, m.idx[x], values, 4, reif_for(&m, mode, r), NULL));
    EXPECT(m, p_in_set, "int_in_set");
    m = m_new();
    x = m_int(&m, -3, 4), r = m_bool(&m);
    int bounds[] = {-2, -1, 2, 3};
    OK(bb_post_int_in_ranges(m.s, m.idx[x], bounds, 2, reif_for(&m, mode, r), NULL));
    EXPECT(m, p_in_ranges, "int_in_ranges");
  }
}

static long long ipow(long long x, int k) {
  long long p = 1;
  for (int i = 0; i < k; i++) p *= x;
  return p;
}
/* MiniZinc: x^y; for y < 0, 1 div x^|y| (x = 0 undefined). -1: undefined. */
static int mzn_pow(int x, int y, long long *z) {
  if (y >= 0) {
    *z = ipow(x, y);
    return 1;
  }
  if (x == 0) return 0;
  *z = 1 / ipow(x, -y);
  return 1;
}
static int p_arith(const int *v) {
  int x = v[0], y = v[1], z = v[2];
  long long w;
  switch (G.op) {
  case 0: return x + y == z;
  case 1: return x - y == z;
  case 2: return x * y == z;
  case 3: return y != 0 && x / y == z; /* C truncates towards zero, as MiniZinc */
  case 4: return y != 0 && x % y == z;
  case 5: return (x < 0 ? -x : x) == z;
  case 6: return -x == z;
  case 7: return (x < y ? x : y) == z;
  case 8: return (x > y ? x : y) == z;
  case 9: return mzn_pow(x, y, &w) && w == z;
  case 10: return mzn_pow(x, G.k, &w) && w == z;
  }
  return 0;
}

static void test_int_arith(void) {
  const char *names[] = {"plus", "minus", "times", "div", "mod", "abs", "negate", "min", "max", "pow", "pow_const"};
  for (G.op = 0; G.op <= 10; G.op++)
    for (int k = -3; k <= (G.op == 10 ? 4 : -3); k++) {
      for (int ipl = 0; ipl < 4; ipl += 3) {
        model m = m_new();
        int x = m_int(&m, -3, 3), y = m_int(&m, G.op == 9 ? -2 : -3, 3), z = m_int(&m, -10, 10);
        int X = m.idx[x], Y = m.idx[y], Z = m.idx[z];
        bb_ipl l = (bb_ipl)ipl;
        G.k = k;
        bb_status st = BB_OK;
        switch (G.op) {
        case 0: st = bb_post_int_plus(m.s, X, Y, Z, l, NULL); break;
        case 1: st = bb_post_int_minus(m.s, X, Y, Z, l, NULL); break;
        case 2: st = bb_post_int_times(m.s, X, Y, Z, l, NULL); break;
        case 3: st = bb_post_int_div(m.s, X, Y, Z, l, NULL); break;
        case 4: st = bb_post_int_mod(m.s, X, Y, Z, l, NULL); break;
        case 5: st = bb_post_int_abs(m.s, X, Z, l, NULL); break;
        case 6: st = bb_post_int_negate(m.s, X, Z, l, NULL); break;
        case 7: st = bb_post_int_min(m.s, X, Y, Z, l, NULL); break;
        case 8: st = bb_post_int_max(m.s, X, Y, Z, l, NULL); break;
        case 9: st = bb_post_int_pow(m.s, X, Y, Z, l, NULL); break;
        case 10: st = bb_post_int_pow_const(m.s, X, k, Z, l, NULL); break;
        }
        CHECKF(st == BB_OK, "int_%s", names[G.op]);
        EXPECT(m, p_arith, names[G.op]);
      }
    }
  G.k = 0;
}

static const int elem_vals[] = {3, 1, 4, 1, 5, 9};
static int p_elem_const(const int *v) {
  int i = v[0] - G.offset;
  return i >= 0 && i < 5 && (G.flag ? elem_vals[i] % 2 : elem_vals[i]) == v[1];
}
static int p_elem_var(const int *v) { /* v[0] idx, v[1] z, v[2..4] the array */
  int i = v[0] - G.offset;
  return i >= 0 && i < 3 && v[2 + i] == v[1];
}
/* 2x3 arrays: v[0] row, v[1] col, v[2] z, cells from v[3] (var) or elem_vals (const). */
static int p_elem2d(const int *v) {
  int r = v[0] - G.offset, c = v[1] - G.k;
  if (r < 0 || r >= 2 || c < 0 || c >= 3) return 0;
  return (G.flag ? v[3 + r * 3 + c] : elem_vals[r * 3 + c]) == v[2];
}

static void test_element(void) {
  const int offsets[] = {1, 0, -2, 20};
  for (int oi = 0; oi < 4; oi++) {
    G.offset = offsets[oi];
    G.flag = false;
    model m = m_new();
    int idx = m_int(&m, G.offset - 2, G.offset + 5), z = m_int(&m, 0, 5);
    OK(bb_post_array_int_element(m.s, m.idx[idx], elem_vals, 5, G.offset, m.idx[z], BB_IPL_DOM, NULL));
    EXPECT(m, p_elem_const, "array_int_element");

    G.flag = true; /* Booleans: elem_vals mod 2 */
    m = m_new();
    idx = m_int(&m, G.offset - 1, G.offset + 5), z = m_bool(&m);
    int bits[5];
    for (int i = 0; i < 5; i++) bits[i] = elem_vals[i] % 2;
    OK(bb_post_array_bool_element(m.s, m.idx[idx], bits, 5, G.offset, m.idx[z], NULL));
    EXPECT(m, p_elem_const, "array_bool_element");

    for (int booleans = 0; booleans < 2; booleans++) {
      m = m_new();
      idx = m_int(&m, G.offset - 1, G.offset + 3);
      z = booleans ? m_bool(&m) : m_int(&m, 0, 2);
      int xs[3];
      for (int i = 0; i < 3; i++) xs[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
      if (booleans)
        OK(bb_post_array_var_bool_element(m.s, m.idx[idx], xs, 3, G.offset, m.idx[z], NULL));
      else
        OK(bb_post_array_var_int_element(m.s, m.idx[idx], xs, 3, G.offset, m.idx[z], BB_IPL_DEF, NULL));
      EXPECT(m, p_elem_var, booleans ? "array_var_bool_element" : "array_var_int_element");
    }

    for (int kind = 0; kind < 3; kind++) { /* const int, var int, var bool 2d */
      G.k = offsets[(oi + 1) % 4]; /* column offset */
      G.flag = kind > 0;
      m = m_new();
      int row = m_int(&m, G.offset - 1, G.offset + 2), col = m_int(&m, G.k - 1, G.k + 3);
      z = kind == 2 ? m_bool(&m) : m_int(&m, 0, kind ? 1 : 9);
      int cells[6];
      for (int i = 0; kind > 0 && i < 6; i++) cells[i] = m.idx[kind == 2 ? m_bool(&m) : m_int(&m, 0, 1)];
      bb_status st = kind == 0 ? bb_post_array_int_element2d(m.s, m.idx[row], m.idx[col], elem_vals, 2, 3, G.offset,
                                                            G.k, m.idx[z], BB_IPL_DEF, NULL)
                     : kind == 1 ? bb_post_array_var_int_element2d(m.s, m.idx[row], m.idx[col], cells, 2, 3,
                                                                   G.offset, G.k, m.idx[z], BB_IPL_DEF, NULL)
                                 : bb_post_array_var_bool_element2d(m.s, m.idx[row], m.idx[col], cells, 2, 3,
                                                                    G.offset, G.k, m.idx[z], NULL);
      CHECK(st == BB_OK);
      EXPECT(m, p_elem2d, "element2d");
    }
  }
  /* An empty array has no element. */
  model m = m_new();
  int idx = m_int(&m, 0, 3), z = m_int(&m, 0, 3);
  OK(bb_post_array_int_element(m.s, m.idx[idx], NULL, 0, 1, m.idx[z], BB_IPL_DEF, NULL));
  CHECK(bb_space_failed(m.s));
  bb_space_free(m.s);
  G.k = 0, G.flag = false;
}

static int p_minmax(const int *v) { /* v[0] m, v[1..3] x */
  int best = v[1];
  for (int i = 2; i <= 3; i++) best = G.flag ? (v[i] > best ? v[i] : best) : (v[i] < best ? v[i] : best);
  return best == v[0];
}
static int p_arg(const int *v) { /* v[0] idx, v[1..3] x: first position of the max / min */
  int best = 1;
  for (int i = 2; i <= 3; i++)
    if (G.flag ? v[i] > v[best] : v[i] < v[best]) best = i;
  return v[0] == best - 1 + G.offset;
}

static int p_arg_shared(const int *v) { /* x = v[0..2], idx = v[0] */
  int best = 0;
  for (int i = 1; i < 3; i++)
    if (v[i] > v[best]) best = i;
  return v[0] == best;
}

static void test_minmax_arg(void) {
  for (int maximum = 0; maximum < 2; maximum++) {
    G.flag = maximum;
    model m = m_new();
    int mv = m_int(&m, -1, 3), xs[3];
    for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
    OK((maximum ? bb_post_array_int_maximum : bb_post_array_int_minimum)(m.s, m.idx[mv], xs, 3, BB_IPL_DEF, NULL));
    EXPECT(m, p_minmax, "array_int_maximum/minimum");
    for (int booleans = 0; booleans < 2; booleans++) {
      G.offset = booleans ? -1 : 1;
      m = m_new();
      int idx = m_int(&m, -2, 4);
      for (int i = 0; i < 3; i++) xs[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
      bb_status st = booleans ? (maximum ? bb_post_bool_argmax : bb_post_bool_argmin)(m.s, xs, 3, G.offset,
                                                                                      m.idx[idx], BB_IPL_DEF, NULL)
                              : (maximum ? bb_post_int_argmax : bb_post_int_argmin)(m.s, xs, 3, G.offset,
                                                                                    m.idx[idx], BB_IPL_DEF, NULL);
      CHECK(st == BB_OK);
      EXPECT(m, p_arg, "argmax/argmin");
    }
  }
  /* The index variable may occur in the array itself. */
  G.flag = true, G.offset = 0;
  model m = m_new();
  int idx = m_int(&m, 0, 2);
  int xs[3] = {m.idx[idx], m.idx[m_int(&m, 0, 2)], m.idx[m_int(&m, 0, 2)]};
  OK(bb_post_int_argmax(m.s, xs, 3, 0, m.idx[idx], BB_IPL_DEF, NULL));
  EXPECT(m, p_arg_shared, "argmax with the index in the array");
  G.flag = false;
}

/* ---- Booleans ------------------------------------------------------------------------- */

static int p_bool_rel(const int *v) { return reified(v, rel_holds(G.rel, v[0], G.flag ? G.c : v[1])); }
static int bool_formula(int op, int a, int b) {
  switch (op) {
  case BB_BOOL_AND: return a && b;
  case BB_BOOL_OR: return a || b;
  case BB_BOOL_XOR: return a != b;
  case BB_BOOL_IMP: return !a || b;
  default: return a == b;
  }
}
static int p_bool_op(const int *v) { return reified(v, bool_formula(G.op, v[0], v[1])); }
static int p_bool_not(const int *v) { return v[0] != v[1]; }
static int p_array_bool(const int *v) { /* v[0..G.n-1] */
  int acc = G.op == BB_BOOL_AND;
  for (int i = 0; i < G.n; i++)
    acc = G.op == BB_BOOL_AND ? acc && v[i] : G.op == BB_BOOL_OR ? acc || v[i] : acc != v[i];
  return reified(v, acc);
}
static int p_clause(const int *v) { return reified(v, v[0] || v[1] || !v[2] || !v[3]); }
static int p_bool_lin(const int *v) {
  long long sum = 0;
  for (int i = 0; i < 3; i++) sum += (long long)G.b[i] * v[i];
  return reified(v, rel_holds(G.rel, sum, G.flag ? G.c : v[G.k]));
}
static int p_bool2int(const int *v) { return v[0] == v[1]; }

static void test_bool(void) {
  for (int mode = 0; mode < 4; mode++) {
    for (int ri = 0; ri < 6; ri++) {
      G.rel = all_rels[ri];
      for (int constant = 0; constant < 2; constant++) {
        G.flag = constant, G.c = ri % 2;
        model m = m_new();
        int a = m_bool(&m), b = m_bool(&m), r = m_bool(&m);
        if (constant)
          OK(bb_post_bool_rel_const(m.s, m.idx[a], G.rel, G.c, reif_for(&m, mode, r), NULL));
        else
          OK(bb_post_bool_rel(m.s, m.idx[a], G.rel, m.idx[b], reif_for(&m, mode, r), NULL));
        EXPECT(m, p_bool_rel, "bool_rel");
      }
      for (int constant = 0; constant < 2; constant++) {
        G.flag = constant, G.c = 2, G.b[0] = 1, G.b[1] = 2, G.b[2] = -1;
        model m = m_new();
        int bs[3];
        for (int i = 0; i < 3; i++) bs[i] = m.idx[m_bool(&m)];
        int r = m_bool(&m);
        G.k = m_int(&m, -2, 4);
        if (constant)
          OK(bb_post_bool_lin_const(m.s, G.b, bs, 3, G.rel, G.c, reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        else
          OK(bb_post_bool_lin(m.s, G.b, bs, 3, G.rel, m.idx[G.k], reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        EXPECT(m, p_bool_lin, "bool_lin");
      }
    }
    for (G.op = BB_BOOL_AND; G.op <= BB_BOOL_EQV; G.op++) {
      model m = m_new();
      int a = m_bool(&m), b = m_bool(&m), r = m_bool(&m);
      OK(bb_post_bool_op(m.s, (bb_bool_op)G.op, m.idx[a], m.idx[b], reif_for(&m, mode, r), NULL));
      EXPECT(m, p_bool_op, "bool_op");
    }
    for (G.op = BB_BOOL_AND; G.op <= BB_BOOL_XOR; G.op++)
      for (G.n = 0; G.n <= 3; G.n += 3) {
        model m = m_new();
        int bs[3];
        for (int i = 0; i < G.n; i++) bs[i] = m.idx[m_bool(&m)];
        int r = m_bool(&m);
        OK(bb_post_array_bool_op(m.s, (bb_bool_op)G.op, bs, G.n, reif_for(&m, mode, r), NULL));
        EXPECT(m, p_array_bool, "array_bool_op");
      }
    model m = m_new();
    int p[2] = {m.idx[m_bool(&m)], m.idx[m_bool(&m)]}, n[2] = {m.idx[m_bool(&m)], m.idx[m_bool(&m)]};
    int r = m_bool(&m);
    OK(bb_post_bool_clause(m.s, p, 2, n, 2, reif_for(&m, mode, r), NULL));
    EXPECT(m, p_clause, "bool_clause");
  }
  G.mode = 0;
  model m = m_new();
  int a = m_bool(&m), b = m_bool(&m);
  OK(bb_post_bool_not(m.s, m.idx[a], m.idx[b], NULL));
  EXPECT(m, p_bool_not, "bool_not");
  m = m_new();
  a = m_bool(&m);
  int x = m_int(&m, -1, 3);
  OK(bb_post_bool2int(m.s, m.idx[a], m.idx[x], NULL));
  EXPECT(m, p_bool2int, "bool2int");
  G.flag = false, G.k = 0;
}

/* ---- Sets (universe 0..2, or 1..3 for the second operand) ----------------------------- */

static int p_set_in(const int *v) { return reified(v, has(v[1], 0, v[0])); }
static int popcount(int mask) {
  int c = 0;
  for (; mask; mask >>= 1) c += mask & 1;
  return c;
}
static int p_set_card(const int *v) { return popcount(v[0]) == v[1]; }
/* Masks of the same universe 0..2. */
static int p_set_op(const int *v) {
  int x = v[0], y = v[1], z = v[2];
  switch (G.op) {
  case BB_SET_UNION: return z == (x | y);
  case BB_SET_INTERSECT: return z == (x & y);
  case BB_SET_DIFF: return z == (x & ~y);
  default: return z == (x ^ y);
  }
}
/* MiniZinc's order: ascending element lists compared lexicographically, prefix first. */
static int set_cmp(int xmask, int xbase, int ymask, int ybase) {
  int xs[8], ys[8], nx = 0, ny = 0;
  for (int e = -4; e < 12; e++) {
    if (has(xmask, xbase, e)) xs[nx++] = e;
    if (has(ymask, ybase, e)) ys[ny++] = e;
  }
  for (int i = 0; i < nx && i < ny; i++)
    if (xs[i] != ys[i]) return xs[i] < ys[i] ? -1 : 1;
  return nx < ny ? -1 : nx > ny;
}
static int p_set_rel(const int *v) {
  int x = v[0], y = v[1], c = 0; /* x over 0..2, y over 1..3 */
  int xs = x, ys = y << 1;       /* both as masks over 0..3 */
  switch (G.op) {
  case BB_SET_EQ: c = xs == ys; break;
  case BB_SET_NE: c = xs != ys; break;
  case BB_SET_SUBSET: c = (xs & ~ys) == 0; break;
  case BB_SET_SUPERSET: c = (ys & ~xs) == 0; break;
  case BB_SET_LE: c = set_cmp(x, 0, y, 1) <= 0; break;
  case BB_SET_LT: c = set_cmp(x, 0, y, 1) < 0; break;
  case BB_SET_DISJOINT: c = (xs & ys) == 0; break;
  }
  return reified(v, c);
}
static const int set_lits[] = {0, 2, 1, 1, 2}; /* {0,2}, {}, {1}, {1,2} */
static const int set_sizes[] = {2, 0, 1, 2};
static const int set_masks[] = {5, 0, 2, 6};
static int p_set_element(const int *v) { /* v[0] idx, v[1] z, v[2..] var sets */
  int i = v[0] - G.offset;
  if (G.flag) return i >= 0 && i < 3 && v[1] == v[2 + i];
  return i >= 0 && i < 4 && v[1] == set_masks[i];
}

static void test_set(void) {
  for (int mode = 0; mode < 4; mode++) {
    model m = m_new();
    int x = m_int(&m, -1, 3), S = m_set(&m, 0, 3), r = m_bool(&m);
    OK(bb_post_set_in(m.s, m.idx[x], m.idx[S], reif_for(&m, mode, r), NULL));
    EXPECT(m, p_set_in, "set_in");
    for (G.op = BB_SET_EQ; G.op <= BB_SET_DISJOINT; G.op++) {
      m = m_new();
      int a = m_set(&m, 0, 3), b = m_set(&m, 1, 3);
      r = m_bool(&m);
      OK(bb_post_set_rel(m.s, m.idx[a], (bb_set_rel)G.op, m.idx[b], reif_for(&m, mode, r), NULL));
      EXPECT(m, p_set_rel, "set_rel");
    }
  }
  G.mode = 0;
  model m = m_new();
  int S = m_set(&m, 0, 3), c = m_int(&m, -1, 4);
  OK(bb_post_set_card(m.s, m.idx[S], m.idx[c], NULL));
  EXPECT(m, p_set_card, "set_card");
  for (G.op = BB_SET_UNION; G.op <= BB_SET_SYMDIFF; G.op++) {
    m = m_new();
    int a = m_set(&m, 0, 3), b = m_set(&m, 0, 3), z = m_set(&m, 0, 3);
    OK(bb_post_set_op(m.s, m.idx[a], (bb_set_op)G.op, m.idx[b], m.idx[z], NULL));
    EXPECT(m, p_set_op, "set_op");
  }
  const int offsets[] = {1, -3, 30};
  for (int oi = 0; oi < 3; oi++) {
    G.offset = offsets[oi];
    G.flag = false;
    m = m_new();
    int idx = m_int(&m, G.offset - 1, G.offset + 4), z = m_set(&m, 0, 3);
    OK(bb_post_array_set_element(m.s, m.idx[idx], set_lits, set_sizes, 4, G.offset, m.idx[z], NULL));
    EXPECT(m, p_set_element, "array_set_element");
    G.flag = true;
    m = m_new();
    idx = m_int(&m, G.offset - 1, G.offset + 3), z = m_set(&m, 0, 2);
    int sets[3];
    for (int i = 0; i < 3; i++) sets[i] = m.idx[m_set(&m, 0, 2)];
    OK(bb_post_array_var_set_element(m.s, m.idx[idx], sets, 3, G.offset, m.idx[z], NULL));
    EXPECT(m, p_set_element, "array_var_set_element");
  }
  G.flag = false;
}

/* ---- Global constraints --------------------------------------------------------------- */

static int p_never(const int *v) { return v == NULL; }
static int p_any(const int *v) { return v != NULL; }
static int p_all_different(const int *v) {
  for (int i = 0; i < G.n; i++)
    for (int j = i + 1; j < G.n; j++)
      if (v[i] == v[j]) return 0;
  return 1;
}
static int p_all_equal(const int *v) {
  for (int i = 1; i < G.n; i++)
    if (v[i] != v[0]) return 0;
  return 1;
}
/* v[0..n-1] successors (offset G.offset): one cycle through every node; MiniZinc also
 * forbids x[i] = i, which rules out n = 1. */
static int p_circuit(const int *v) {
  int n = G.n, cur = 0;
  if (n == 1) return 0;
  for (int i = 0; i < n; i++)
    if (v[i] - G.offset < 0 || v[i] - G.offset >= n) return 0;
  for (int step = 1; step <= n; step++) {
    cur = v[cur] - G.offset;
    if (cur == 0) return step == n;
  }
  return 0;
}
static int p_subcircuit(const int *v) {
  int n = G.n, in = 0, first = -1, seen = 0;
  for (int i = 0; i < n; i++) {
    int j = v[i] - G.offset;
    if (j < 0 || j >= n || (seen >> j & 1)) return 0; /* a permutation */
    seen |= 1 << j;
    if (j != i) {
      in++;
      if (first < 0) first = i;
    }
  }
  if (in == 0) return 1;
  int cur = first, steps = 0;
  do cur = v[cur] - G.offset, steps++;
  while (cur != first);
  return steps == in;
}
/* Tasks (s, d, r) at v[3i..3i+2], capacity v[3n]. */
static int p_cumulative(const int *v) {
  int n = G.n, b = v[3 * n];
  if (n > 0 && b < 0) return 0;
  for (int t = -2; t < 12; t++) {
    int load = 0;
    for (int i = 0; i < n; i++)
      if (v[3 * i] <= t && t < v[3 * i] + v[3 * i + 1]) load += v[3 * i + 2];
    if (load > b) return 0;
  }
  return 1;
}
/* Rectangles (x, y, dx, dy) at v[4i..4i+3]. */
static int p_diffn(const int *v) {
  for (int i = 0; i < G.n; i++)
    for (int j = i + 1; j < G.n; j++) {
      const int *a = v + 4 * i, *b = v + 4 * j;
      if (!G.flag && (a[2] == 0 || a[3] == 0 || b[2] == 0 || b[3] == 0)) continue; /* non-strict */
      if (!(a[0] + a[2] <= b[0] || a[1] + a[3] <= b[1] || b[0] + b[2] <= a[0] || b[1] + b[3] <= a[1])) return 0;
    }
  return 1;
}

/* Tasks (s, d) at v[2i..2i+1]; G.flag: strict (a zero-length task must not lie strictly
 * inside another) rather than disjunctive (it may lie anywhere). */
static int p_disjunctive(const int *v) {
  for (int i = 0; i < G.n; i++) {
    if (v[2 * i + 1] < 0) return 0;
    for (int j = i + 1; j < G.n; j++) {
      const int *a = v + 2 * i, *b = v + 2 * j;
      if (!G.flag && (a[1] == 0 || b[1] == 0)) continue;
      if (!(a[0] + a[1] <= b[0] || b[0] + b[1] <= a[0])) return 0;
    }
  }
  return 1;
}

/* Tasks (x, v[1]) and (x, v[2]) with x = v[0], strict: apart only if one has length 0. */
static int p_shared_start(const int *v) { return v[1] == 0 || v[2] == 0; }

static void test_alldiff_circuit(void) {
  for (int ipl = 0; ipl < 4; ipl++) {
    G.n = 4;
    model m = m_new();
    int xs[4];
    for (int i = 0; i < 4; i++) xs[i] = m.idx[m_int(&m, 0, i < 2 ? 2 : 3)];
    OK(bb_post_all_different(m.s, xs, 4, (bb_ipl)ipl, NULL));
    EXPECT(m, p_all_different, "all_different");
  }
  { /* A variable listed twice (Gecode rejects that; the shim unshares it): no solution. */
    model m = m_new();
    int a = m_int(&m, 0, 2), b = m_int(&m, 0, 2);
    int xs[3] = {m.idx[a], m.idx[b], m.idx[a]};
    OK(bb_post_all_different(m.s, xs, 3, BB_IPL_DOM, NULL));
    EXPECT(m, p_never, "all_different with a repeated variable");
  }
  G.n = 3;
  model m = m_new();
  int xs[3];
  for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 2 + i)];
  OK(bb_post_all_equal(m.s, xs, 3, NULL));
  EXPECT(m, p_all_equal, "all_equal");

  const int offsets[] = {1, 0, 20};
  for (int oi = 0; oi < 3; oi++)
    for (G.n = 1; G.n <= 5; G.n += (G.n == 1 ? 3 : 1)) {
      G.offset = offsets[oi];
      for (int sub = 0; sub < 2; sub++) {
        m = m_new();
        int ys[5];
        for (int i = 0; i < G.n; i++) ys[i] = m.idx[m_int(&m, G.offset - 1, G.offset + G.n)];
        if (sub) OK(bb_post_subcircuit(m.s, ys, G.n, G.offset, BB_IPL_DEF, NULL));
        else OK(bb_post_circuit(m.s, ys, G.n, G.offset, oi == 2 ? BB_IPL_DOM : BB_IPL_DEF, NULL));
        EXPECT(m, sub ? p_subcircuit : p_circuit, sub ? "subcircuit" : "circuit");
      }
    }
}

static void test_cumulative_diffn(void) {
  /* kind 0: all variable; 1: fixed uses, variable durations; 2: both fixed (as fixed
   * variables); 3: the _const form; 4: variable positive durations and uses no two of
   * which fit the capacity (Gecode's unary); 5: the same with fixed durations. */
  for (int kind = 0; kind < 6; kind++) {
    G.n = 3;
    model m = m_new();
    int s[3], d[3], r[3], dc[3] = {2, 1, 0}, rc[3] = {1, 2, 1};
    for (int i = 0; i < 3; i++) {
      int vs = m_int(&m, 0, 2);
      int vd = kind == 0 || kind == 1 ? m_int(&m, 0, 2)
               : kind == 4           ? m_int(&m, 1, 2)
               : kind == 5           ? m_int(&m, i % 2 + 1, i % 2 + 1)
                                     : m_int(&m, dc[i], dc[i]);
      int vr = kind == 0 ? m_int(&m, 0, 2) : kind >= 4 ? m_int(&m, 1, 2) : m_int(&m, rc[i], rc[i]);
      s[i] = m.idx[vs], d[i] = m.idx[vd], r[i] = m.idx[vr];
    }
    int cap = kind == 3 ? m_int(&m, 2, 2) : kind >= 4 ? m_int(&m, -1, 1) : m_int(&m, -1, 2);
    if (kind == 3) OK(bb_post_cumulative_const(m.s, s, dc, rc, 3, 2, BB_IPL_DEF, NULL));
    else OK(bb_post_cumulative(m.s, s, d, r, 3, m.idx[cap], BB_IPL_DEF, NULL));
    EXPECT(m, p_cumulative, "cumulative");
  }
  for (int strict = 0; strict < 2; strict++) {
    G.flag = strict, G.n = 2;
    model m = m_new();
    int x[3], y[3], dx[3], dy[3];
    for (int i = 0; i < 2; i++) {
      x[i] = m.idx[m_int(&m, 0, 2)], y[i] = m.idx[m_int(&m, 0, 1)];
      dx[i] = m.idx[m_int(&m, 0, 2)], dy[i] = m.idx[m_int(&m, i, 2)];
    }
    OK(bb_post_diffn(m.s, x, y, dx, dy, 2, strict, NULL));
    EXPECT(m, p_diffn, "diffn");
    G.n = 3;
    m = m_new();
    const int w[3] = {2, 0, 1}, h[3] = {1, 1, 2};
    for (int i = 0; i < 3; i++) {
      x[i] = m.idx[m_int(&m, 0, 2)], y[i] = m.idx[m_int(&m, 0, 1)];
      dx[i] = m.idx[m_int(&m, w[i], w[i])], dy[i] = m.idx[m_int(&m, h[i], h[i])];
    }
    OK(bb_post_diffn(m.s, x, y, dx, dy, 3, strict, NULL));
    EXPECT(m, p_diffn, "diffn fixed sizes");
  }
  G.flag = false;
}

/* Gecode's unary resource: fixed positive durations, fixed with a zero, variable from 1
 * (no optional task), variable from 0 (optional tasks), variable from -1 (constrained to
 * be >= 0, with a task that never takes time); and a shared start variable. */
static void test_disjunctive(void) {
  static const int lo[5][3] = {{2, 1, 1}, {2, 0, 1}, {1, 1, 1}, {0, 0, 1}, {-1, 0, 0}};
  static const int hi[5][3] = {{2, 1, 1}, {2, 0, 1}, {2, 2, 1}, {2, 1, 2}, {1, 2, 0}};
  for (int strict = 0; strict < 2; strict++)
    for (int kind = 0; kind < 5; kind++) {
      G.flag = strict, G.n = 3;
      model m = m_new();
      int s[3], d[3];
      for (int i = 0; i < 3; i++) {
        s[i] = m.idx[m_int(&m, 0, 3)];
        d[i] = m.idx[m_int(&m, lo[kind][i], hi[kind][i])];
      }
      OK(bb_post_disjunctive(m.s, s, d, 3, strict, BB_IPL_DEF, NULL));
      EXPECT(m, p_disjunctive, strict ? "disjunctive_strict" : "disjunctive");
    }
  /* Two tasks of positive length on one start variable (unary needs distinct ones): no
   * solution. */
  model m = m_new();
  int x = m.idx[m_int(&m, 0, 3)], st[2] = {x, x};
  int du[2] = {m.idx[m_int(&m, 1, 1)], m.idx[m_int(&m, 0, 2)]};
  OK(bb_post_disjunctive(m.s, st, du, 2, true, BB_IPL_DEF, NULL));
  EXPECT(m, p_shared_start, "disjunctive on a shared start");
  G.flag = false;
}

static const int tuples[] = {0, 1, 2, 2, 2, 0, 1, 1, 1, 0, 0, 3, 2, 1, 0};
static int p_table(const int *v) {
  int in = 0;
  for (int t = 0; t < 5; t++) {
    int match = 1;
    for (int i = 0; i < G.n; i++) match &= G.flag ? v[i] == (tuples[3 * t + i] & 1) : v[i] == tuples[3 * t + i];
    in |= match;
  }
  return reified(v, G.k ? in : !in);
}
/* A DFA over symbols 1..2: no "2 2", must end in 2 (state 2); state 3 is unreachable. */
static const int dfa[] = {1, 2, /* state 1 */ 1, 0, /* state 2 */ 3, 3 /* state 3 */};
static int p_regular(const int *v) {
  int q = 1;
  for (int i = 0; i < G.n; i++) {
    if (v[i] < 1 || v[i] > 2) return 0;
    q = dfa[(q - 1) * 2 + v[i] - 1];
    if (q == 0) return 0;
  }
  return q == 2;
}
/* f at v[0..2] (values offset G.offset), invf at v[3..5] (values offset G.k). */
static int p_inverse(const int *v) {
  for (int i = 0; i < 3; i++) {
    int j = v[i] - G.offset;
    if (j < 0 || j > 2 || v[3 + j] - G.k != i) return 0;
    if (v[3 + i] - G.k < 0 || v[3 + i] - G.k > 2) return 0;
  }
  return 1;
}

static void test_table_regular_inverse(void) {
  for (int booleans = 0; booleans < 2; booleans++)
    for (G.k = 0; G.k < 2; G.k++) /* positive? */
      for (int mode = 0; mode < 4; mode++) {
        G.n = 3, G.flag = booleans;
        model m = m_new();
        int xs[3], t[15];
        for (int i = 0; i < 3; i++) xs[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
        for (int i = 0; i < 15; i++) t[i] = booleans ? tuples[i] & 1 : tuples[i];
        int r = m_bool(&m);
        if (booleans) OK(bb_post_table_bool(m.s, xs, 3, t, 5, G.k, reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        else OK(bb_post_table_int(m.s, xs, 3, t, 5, G.k, reif_for(&m, mode, r), BB_IPL_DOM, NULL));
        EXPECT(m, p_table, "table");
      }
  G.mode = 0, G.flag = false;
  for (G.n = 0; G.n <= 4; G.n++) {
    model m = m_new();
    int xs[4];
    for (int i = 0; i < G.n; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
    int finals[] = {2};
    OK(bb_post_regular(m.s, xs, G.n, 3, 2, dfa, 1, finals, 1, NULL));
    EXPECT(m, p_regular, "regular");
  }
  const int offsets[][2] = {{1, 1}, {0, 5}, {-2, 30}};
  for (int oi = 0; oi < 3; oi++) {
    G.offset = offsets[oi][0], G.k = offsets[oi][1];
    model m = m_new();
    int f[3], g[3];
    for (int i = 0; i < 3; i++) f[i] = m.idx[m_int(&m, G.offset - 1, G.offset + 2)];
    for (int i = 0; i < 3; i++) g[i] = m.idx[m_int(&m, G.k, G.k + 3)];
    OK(bb_post_inverse(m.s, f, 3, G.offset, g, 3, G.k, oi ? BB_IPL_DOM : BB_IPL_DEF, NULL));
    EXPECT(m, p_inverse, "inverse");
  }
  G.k = 0;
}

/* x at v[0..2] over 0..3, counts / nothing after. */
static const int cover[] = {1, 2};
static int occurrences(const int *x, int n, int value) {
  int c = 0;
  for (int i = 0; i < n; i++) c += x[i] == value;
  return c;
}
static int p_gcc(const int *v) {
  for (int i = 0; G.flag && i < 3; i++)
    if (v[i] != 1 && v[i] != 2) return 0;
  for (int k = 0; k < 2; k++) {
    int c = occurrences(v, 3, cover[k]);
    if (G.k ? (c < G.a[k] || c > G.b[k]) : c != v[3 + k]) return 0;
  }
  return 1;
}
static int p_gcc_repeated(const int *v) { /* cover {1, 2, 1}, counts v[3..5] */
  return p_gcc(v) && v[5] == v[3];
}
/* x at v[0..2], y v[3], c v[4]. */
static int p_count(const int *v) {
  int y = G.flag ? G.c : v[3], c = G.flag ? G.k : v[4];
  return reified(v, rel_holds(G.rel, c, occurrences(v, 3, y)));
}
static int p_at(const int *v) {
  int c = occurrences(v, 3, 1);
  return G.op == 0 ? c <= 1 : G.op == 1 ? c >= 1 : c == 1;
}
static int p_among(const int *v) { /* n v[0], x v[1..3], S = {1, 3} */
  return v[0] == occurrences(v + 1, 3, 1) + occurrences(v + 1, 3, 3);
}
static int p_nvalue(const int *v) { /* n v[0], x v[1..G.n] */
  int seen = 0;
  for (int i = 1; i <= G.n; i++) seen |= 1 << v[i];
  return v[0] == popcount(seen);
}

/* Identical tables share one tuple set (by content, whatever buffer holds the rows), as in
 * Gecode's FlatZinc front end: groupsplitter's 25 big tables each built their own. */
static void test_table_shared(void) {
  bb_space *sp = bb_space_new(NULL);
  int x[3], b[2], rows[30];
  for (int i = 0; i < 3; i++) x[i] = bb_int_var(sp, 0, 3, NULL);
  for (int i = 0; i < 2; i++) b[i] = bb_bool_var(sp, 0, 1, NULL);
  for (int k = 0; k < 20; k++) {
    int copy[15];
    memcpy(copy, tuples, sizeof copy);
    OK(bb_post_table_int(sp, x, 3, copy, 5, true, bb_reif_none(), BB_IPL_DEF, NULL));
  }
  CHECKF(bb_space_tuple_sets(sp) == 1, "20 identical tables: %ld tuple sets", bb_space_tuple_sets(sp));
  memcpy(rows, tuples, sizeof tuples);
  rows[14] = 3; /* one value differs */
  OK(bb_post_table_int(sp, x, 3, rows, 5, true, bb_reif_none(), BB_IPL_DEF, NULL));
  CHECKF(bb_space_tuple_sets(sp) == 2, "a different table: %ld tuple sets", bb_space_tuple_sets(sp));
  const int pairs[6] = {0, 1, 1, 0, 1, 1}; /* the same six values as 3 rows of 2 ... */
  OK(bb_post_table_bool(sp, b, 2, pairs, 3, true, bb_reif_none(), BB_IPL_DEF, NULL));
  OK(bb_post_table_int(sp, x, 3, pairs, 2, false, bb_reif_none(), BB_IPL_DEF, NULL)); /* ... and 2 of 3 */
  CHECKF(bb_space_tuple_sets(sp) == 4, "other arities: %ld tuple sets", bb_space_tuple_sets(sp));
  bb_space_state state;
  OK(bb_space_status(sp, &state, NULL));
  CHECKF(state != BB_SPACE_FAILED, "shared tables: failed");
  bb_space_free(sp);
}

static void test_counting(void) {
  for (int closed = 0; closed < 2; closed++)
    for (G.k = 0; G.k < 2; G.k++) { /* low/up form? */
      G.flag = closed;
      G.a[0] = 1, G.b[0] = 2, G.a[1] = 0, G.b[1] = 1;
      model m = m_new();
      int xs[3], counts[2];
      for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
      for (int k = 0; k < 2 && !G.k; k++) counts[k] = m.idx[m_int(&m, 0, 3)];
      if (G.k)
        OK(bb_post_global_cardinality_low_up(m.s, xs, 3, cover, G.a, G.b, 2, closed, BB_IPL_DEF, NULL));
      else
        OK(bb_post_global_cardinality(m.s, xs, 3, cover, counts, 2, closed, BB_IPL_DOM, NULL));
      EXPECT(m, p_gcc, "global_cardinality");
    }
  for (int closed = 0; closed < 2; closed++) { /* a value listed twice: both counts agree */
    G.flag = closed, G.k = 0;
    model m = m_new();
    int xs[3], counts[3];
    for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
    for (int k = 0; k < 3; k++) counts[k] = m.idx[m_int(&m, 0, 3)];
    const int cover3[3] = {1, 2, 1};
    OK(bb_post_global_cardinality(m.s, xs, 3, cover3, counts, 3, closed, BB_IPL_DEF, NULL));
    EXPECT(m, p_gcc_repeated, "global_cardinality, repeated cover value");
  }
  for (int ri = 0; ri < 6; ri++)
    for (int mode = 0; mode < 4; mode++)
      for (int constant = 0; constant < 2; constant++) {
        G.rel = all_rels[ri], G.flag = constant, G.c = 1, G.k = 2;
        model m = m_new();
        int xs[3];
        for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 2)];
        int y = m_int(&m, 0, 2), c = m_int(&m, 0, 3), r = m_bool(&m);
        if (constant)
          OK(bb_post_count_const(m.s, xs, 3, G.c, G.rel, G.k, reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        else
          OK(bb_post_count(m.s, xs, 3, m.idx[y], G.rel, m.idx[c], reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        EXPECT(m, p_count, "count");
      }
  G.mode = 0;
  for (G.op = 0; G.op < 3; G.op++) {
    model m = m_new();
    int xs[3];
    for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 2)];
    OK((G.op == 0 ? bb_post_at_most : G.op == 1 ? bb_post_at_least : bb_post_exactly)(m.s, 1, xs, 3, 1, NULL));
    EXPECT(m, p_at, "at_most/at_least/exactly");
  }
  model m = m_new();
  int n = m_int(&m, -1, 4), xs[3];
  for (int i = 0; i < 3; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
  int S[] = {3, 1};
  OK(bb_post_among(m.s, m.idx[n], xs, 3, S, 2, NULL));
  EXPECT(m, p_among, "among");
  for (G.n = 0; G.n <= 3; G.n += 3) {
    m = m_new();
    n = m_int(&m, -1, 4);
    for (int i = 0; i < G.n; i++) xs[i] = m.idx[m_int(&m, 0, 2)];
    OK(bb_post_nvalue(m.s, m.idx[n], xs, G.n, NULL));
    EXPECT(m, p_nvalue, "nvalue");
  }
  G.flag = false, G.k = 0;
}

/* x at v[0..G.a[0]-1], y after it (length G.a[1]). */
static int p_lex(const int *v) {
  int nx = G.a[0], ny = G.a[1];
  const int *x = v, *y = v + nx;
  for (int i = 0; i < nx && i < ny; i++)
    if (x[i] != y[i]) return x[i] < y[i];
  return G.flag ? nx < ny : nx <= ny;
}
static int p_increasing(const int *v) {
  for (int i = 1; i < G.n; i++)
    if (G.flag ? v[i] > v[i - 1] : v[i] < v[i - 1]) return 0;
  return 1;
}
static int p_sort(const int *v) { /* x v[0..2], y v[3..5] */
  int used = 0;
  for (int i = 0; i < 3; i++) {
    if (i > 0 && v[3 + i] < v[3 + i - 1]) return 0;
    int j = 0;
    while (j < 3 && ((used >> j & 1) || v[3 + j] != v[i])) j++;
    if (j == 3) return 0;
    used |= 1 << j;
  }
  return 1;
}
static int p_member(const int *v) { /* x v[0..G.n-1], y v[G.n] */
  int in = 0;
  for (int i = 0; i < G.n; i++) in |= v[i] == v[G.n];
  return reified(v, in);
}
/* load v[0..1] (bins offset G.offset), bin v[2..4], weights 1, 2, 2. */
static int p_bin_packing(const int *v) {
  const int w[3] = {1, 2, 2};
  int load[2] = {0, 0};
  for (int i = 0; i < 3; i++) {
    int b = v[2 + i] - G.offset;
    if (b < 0 || b > 1) return 0;
    load[b] += w[i];
  }
  return load[0] == v[0] && load[1] == v[1];
}
/* value_precede(s = G.a[0], t = G.a[1]) over v[0..3]; chain when G.flag. */
static int precedes(const int *v, int s, int t) {
  int seen_s = 0;
  for (int i = 0; i < 4; i++) {
    if (v[i] == t && !seen_s) return 0;
    if (v[i] == s) seen_s = 1;
  }
  return 1;
}
static int p_precede(const int *v) {
  if (!G.flag) return precedes(v, G.a[0], G.a[1]);
  return precedes(v, 0, 1) && precedes(v, 1, 2);
}

static void test_order(void) {
  const int lengths[][2] = {{2, 2}, {2, 3}, {3, 2}, {0, 2}, {2, 0}, {0, 0}};
  for (int li = 0; li < 6; li++)
    for (int strict = 0; strict < 2; strict++)
      for (int booleans = 0; booleans < 2; booleans++) {
        G.a[0] = lengths[li][0], G.a[1] = lengths[li][1], G.flag = strict;
        model m = m_new();
        int x[3], y[3];
        for (int i = 0; i < G.a[0]; i++) x[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
        for (int i = 0; i < G.a[1]; i++) y[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
        if (booleans) OK(bb_post_lex_bool(m.s, x, G.a[0], y, G.a[1], strict, NULL));
        else OK(bb_post_lex_int(m.s, x, G.a[0], y, G.a[1], strict, NULL));
        EXPECT(m, p_lex, "lex");
      }
  for (int decreasing = 0; decreasing < 2; decreasing++)
    for (int booleans = 0; booleans < 2; booleans++) {
      G.n = 4, G.flag = decreasing;
      model m = m_new();
      int xs[4];
      for (int i = 0; i < 4; i++) xs[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
      if (booleans) OK(bb_post_increasing_bool(m.s, xs, 4, decreasing, NULL));
      else OK(bb_post_increasing_int(m.s, xs, 4, decreasing, NULL));
      EXPECT(m, p_increasing, "increasing/decreasing");
    }
  model m = m_new();
  int x[3], y[3];
  for (int i = 0; i < 3; i++) x[i] = m.idx[m_int(&m, 0, 2)];
  for (int i = 0; i < 3; i++) y[i] = m.idx[m_int(&m, 0, 2)];
  OK(bb_post_sort(m.s, x, y, 3, BB_IPL_DEF, NULL));
  EXPECT(m, p_sort, "sort");
  for (int mode = 0; mode < 4; mode++)
    for (int booleans = 0; booleans < 2; booleans++)
      for (G.n = 0; G.n <= 3; G.n += 3) {
        m = m_new();
        for (int i = 0; i < G.n; i++) x[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
        int e = booleans ? m_bool(&m) : m_int(&m, 0, 3), r = m_bool(&m);
        if (booleans) OK(bb_post_member_bool(m.s, x, G.n, m.idx[e], reif_for(&m, mode, r), NULL));
        else OK(bb_post_member_int(m.s, x, G.n, m.idx[e], reif_for(&m, mode, r), NULL));
        EXPECT(m, p_member, "member");
      }
  G.mode = 0;
  const int offsets[] = {1, 0, -1, 20};
  for (int oi = 0; oi < 4; oi++) {
    G.offset = offsets[oi];
    m = m_new();
    int load[2] = {m.idx[m_int(&m, 0, 4)], m.idx[m_int(&m, 0, 4)]}, bin[3], w[3] = {1, 2, 2};
    for (int i = 0; i < 3; i++) bin[i] = m.idx[m_int(&m, G.offset - 1, G.offset + 2)];
    OK(bb_post_bin_packing_load(m.s, load, 2, G.offset, bin, w, 3, BB_IPL_DEF, NULL));
    EXPECT(m, p_bin_packing, "bin_packing_load");
  }
  const int pairs[][2] = {{1, 2}, {2, 1}, {1, 1}};
  for (int pi = 0; pi < 4; pi++) {
    G.flag = pi == 3;
    if (!G.flag) G.a[0] = pairs[pi][0], G.a[1] = pairs[pi][1];
    m = m_new();
    int xs[4], chain[3] = {0, 1, 2};
    for (int i = 0; i < 4; i++) xs[i] = m.idx[m_int(&m, 0, 3)];
    if (G.flag) OK(bb_post_value_precede_chain(m.s, chain, 3, xs, 4, NULL));
    else OK(bb_post_value_precede(m.s, G.a[0], G.a[1], xs, 4, NULL));
    EXPECT(m, p_precede, "value_precede");
  }
  G.flag = false;
}

/* ---- Search: optimisation, threads, restarts, limits ---------------------------------- */

/* x, y, z in 0..4: x + y + z <= 7, x != y, o = 3x + 2y - z. */
static int p_opt_model(const int *v) { return v[0] + v[1] + v[2] <= 7 && v[0] != v[1] && v[3] == 3 * v[0] + 2 * v[1] - v[2]; }
static model opt_model(void) {
  model m = m_new();
  int x = m_int(&m, 0, 4), y = m_int(&m, 0, 4), z = m_int(&m, 0, 4), o = m_int(&m, -20, 30);
  int c3[3] = {1, 1, 1}, v3[3] = {m.idx[x], m.idx[y], m.idx[z]};
  int c4[4] = {3, 2, -1, -1}, v4[4] = {m.idx[x], m.idx[y], m.idx[z], m.idx[o]};
  OK(bb_post_int_lin(m.s, c3, v3, 3, BB_LE, 7, bb_reif_none(), BB_IPL_DEF, NULL));
  OK(bb_post_int_rel(m.s, m.idx[x], BB_NE, m.idx[y], bb_reif_none(), BB_IPL_DEF, NULL));
  OK(bb_post_int_lin(m.s, c4, v4, 4, BB_EQ, 0, bb_reif_none(), BB_IPL_DEF, NULL));
  return m;
}

static void test_optimisation(void) {
  int best_max = INT_MIN, best_min = INT_MAX;
  for (int x = 0; x <= 4; x++)
    for (int y = 0; y <= 4; y++)
      for (int z = 0; z <= 4; z++) {
        int v[4] = {x, y, z, 3 * x + 2 * y - z};
        if (!p_opt_model(v)) continue;
        if (v[3] > best_max) best_max = v[3];
        if (v[3] < best_min) best_min = v[3];
      }
  for (int config = 0; config < 5; config++)
    for (int maximize = 0; maximize < 2; maximize++) {
      bb_search_options o;
      bb_search_options_init(&o);
      o.threads = config == 1 || config == 4 ? 2 : 1;
      o.restart = config == 2 ? BB_RESTART_LUBY : config == 3 ? BB_RESTART_GEOMETRIC
                  : config == 4 ? BB_RESTART_CONSTANT : BB_RESTART_NONE;
      o.restart_scale = 1;
      model m = opt_model();
      OK(bb_space_set_objective(m.s, maximize ? BB_MAXIMIZE : BB_MINIMIZE, m.idx[3], NULL));
      OK(bb_branch_int(m.s, m.idx, 3, BB_VAR_INPUT_ORDER, maximize ? BB_VAL_MIN : BB_VAL_MAX, NULL, NULL));
      bb_error err = {{0}};
      bb_search *search = bb_search_new(m.s, &o, &err);
      CHECKF(search != NULL, "bb_search_new: %s", err.msg);
      bb_space_free(m.s); /* the search works on its own clone */
      int last = 0, count = 0, monotone = 1, valid = 1;
      bb_space *sol;
      while (search && (sol = bb_search_next(search, &err))) {
        int v[4] = {bb_int_min(sol, 0), bb_int_min(sol, 1), bb_int_min(sol, 2), bb_int_min(sol, 3)};
        valid &= p_opt_model(v) && bb_int_assigned(sol, 3);
        if (count++ > 0) monotone &= maximize ? v[3] > last : v[3] < last;
        last = v[3];
        bb_space_free(sol);
      }
      CHECKF(count > 0 && valid && monotone && last == (maximize ? best_max : best_min),
             "BAB config %d maximize %d: %d solutions, last %d, optimum %d, valid %d monotone %d", config, maximize,
             count, last, maximize ? best_max : best_min, valid, monotone);
      CHECK(!bb_search_stopped(search));
      bb_search_statistics st;
      bb_search_stats(search, &st);
      CHECK(st.solutions == (uint64_t)count && st.nodes > 0);
      if (config >= 2) CHECKF(st.restarts > 0, "config %d: %llu restarts", config, (unsigned long long)st.restarts);
      bb_search_free(search);
    }
}

static int p_perm(const int *v) { return p_all_different(v) && v[0] < v[1]; }
static model perm_model(int n) {
  model m = m_new();
  int xs[8];
  for (int i = 0; i < n; i++) xs[i] = m.idx[m_int(&m, 0, n - 1)];
  OK(bb_post_all_different(m.s, xs, n, BB_IPL_DEF, NULL));
  OK(bb_post_int_rel(m.s, xs[0], BB_LT, xs[1], bb_reif_none(), BB_IPL_DEF, NULL));
  return m;
}

static void test_threads_restarts(void) {
  G.n = 5;
  for (int threads = 0; threads <= 4; threads += 2) {
    bb_search_options o;
    bb_search_options_init(&o);
    o.threads = threads;
    model m = perm_model(5);
    long bad, brute = brute_count(&m, p_perm), got = solve_count(&m, &o, p_perm, &bad);
    CHECKF(got == brute && bad == 0, "threads %d: %ld solutions, brute force %ld, %ld wrong", threads, got, brute, bad);
    bb_space_free(m.s);
  }
  /* Restarts without an objective: the first solution is a solution. */
  bb_search_options o;
  bb_search_options_init(&o);
  o.restart = BB_RESTART_LINEAR;
  o.restart_scale = 2;
  model m = perm_model(5);
  OK(bb_branch_int(m.s, m.idx, 5, BB_VAR_RANDOM, BB_VAL_RANDOM, &(bb_branch_options){7, 0}, NULL));
  bb_search *search = bb_search_new(m.s, &o, NULL);
  bb_space *sol = search ? bb_search_next(search, NULL) : NULL;
  int v[5], unassigned = 0;
  if (sol) read_solution(&m, sol, v, &unassigned);
  CHECK(sol != NULL && unassigned == 0 && p_perm(v));
  bb_space_free(sol);
  bb_search_free(search);
  bb_space_free(m.s);
}

static void test_limits(void) {
  for (int which = 0; which < 3; which++) {
    bb_search_options o;
    bb_search_options_init(&o);
    model m = m_new();
    int xs[12];
    if (which == 1) { /* pigeonhole: 7 pigeons, 6 holes, value consistency fails late */
      for (int i = 0; i < 7; i++) xs[i] = m.idx[m_int(&m, 0, 5)];
      OK(bb_post_all_different(m.s, xs, 7, BB_IPL_VAL, NULL));
      o.fail_limit = 20;
    } else { /* 10^12 solutions */
      for (int i = 0; i < 12; i++) xs[i] = m.idx[m_int(&m, 0, 9)];
      if (which == 0) o.node_limit = 50;
      else o.time_limit_ms = 100;
    }
    o.threads = which == 2 ? 2 : 1;
    OK(bb_branch_default(m.s, NULL));
    double t0 = bb_now();
    bb_search *search = bb_search_new(m.s, &o, NULL);
    long solutions = 0;
    bb_space *sol;
    while ((sol = bb_search_next(search, NULL))) {
      bb_space_free(sol);
      if (++solutions > 100000000) break;
    }
    double elapsed = bb_now() - t0;
    bb_search_statistics st;
    bb_search_stats(search, &st);
    CHECKF(bb_search_stopped(search), "limit %d: not stopped after %ld solutions", which, solutions);
    if (which == 0) CHECKF(st.nodes <= 60 && solutions > 0, "node limit: %llu nodes", (unsigned long long)st.nodes);
    if (which == 1) CHECKF(st.fails <= 22 && solutions == 0, "fail limit: %llu fails", (unsigned long long)st.fails);
    if (which == 2) CHECKF(elapsed < 5.0, "time limit: ran %.2f s", elapsed);
    CHECK(bb_search_next(search, NULL) == NULL); /* stays stopped */
    bb_search_free(search);
    bb_space_free(m.s);
  }
  /* A root that fails at once: no solution, not "stopped". */
  model m = m_new();
  int x = m_int(&m, 0, 3);
  OK(bb_post_int_rel_const(m.s, m.idx[x], BB_GT, 5, bb_reif_none(), BB_IPL_DEF, NULL));
  bb_search *search = bb_search_new(m.s, NULL, NULL);
  CHECK(search && bb_search_next(search, NULL) == NULL && !bb_search_stopped(search));
  bb_search_free(search);
  bb_space_free(m.s);
}

/* ---- Branchings: every selection finds every solution --------------------------------- */

static int p_branch_int(const int *v) { /* domains {0, 2, 3, 5} */
  for (int i = 0; i < 3; i++)
    if (v[i] == 1 || v[i] == 4) return 0;
  return p_all_different(v) && v[0] + v[1] >= v[2];
}
static int p_branch_bool(const int *v) { return (v[0] || v[1]) && (v[1] + v[2] + v[3]) % 2 == 1; }
static int p_branch_set(const int *v) { return v[0] != v[1] && (v[0] & v[1]) == 0; }

static void test_branchings(void) {
  const int domain[] = {5, 0, 3, 2};
  for (int var = BB_VAR_INPUT_ORDER; var <= BB_VAR_RANDOM; var++)
    for (int val = BB_VAL_MIN; val <= BB_VAL_OUT_MAX; val++) {
      bb_branch_options bo = {(unsigned)(var * 31 + val), var % 2 ? 0.9 : 0.0};
      G.n = 3;
      model m = m_new();
      for (int i = 0; i < 3; i++) m_add(&m, K_INT, bb_int_var_values(m.s, domain, 4, NULL), 0, 5, 0);
      OK(bb_post_all_different(m.s, m.idx, 3, BB_IPL_DEF, NULL));
      int c[3] = {1, 1, -1};
      OK(bb_post_int_lin(m.s, c, m.idx, 3, BB_GE, 0, bb_reif_none(), BB_IPL_DEF, NULL));
      OK(bb_branch_int(m.s, m.idx, 3, (bb_var_sel)var, (bb_val_sel)val, &bo, NULL));
      expect_model(&m, p_branch_int, "bb_branch_int", var * 100 + val);

      m = m_new();
      for (int i = 0; i < 4; i++) m_bool(&m);
      int pos[2] = {m.idx[0], m.idx[1]};
      OK(bb_post_bool_clause(m.s, pos, 2, NULL, 0, bb_reif_none(), NULL));
      OK(bb_post_array_bool_op(m.s, BB_BOOL_XOR, m.idx + 1, 3, bb_reif_none(), NULL));
      OK(bb_branch_bool(m.s, m.idx, 4, (bb_var_sel)var, (bb_val_sel)val, var % 3 ? &bo : NULL, NULL));
      expect_model(&m, p_branch_bool, "bb_branch_bool", var * 100 + val);

      m = m_new();
      m_set(&m, 0, 3), m_set(&m, 0, 3);
      OK(bb_post_set_rel(m.s, m.idx[0], BB_SET_DISJOINT, m.idx[1], bb_reif_none(), NULL));
      OK(bb_post_set_rel(m.s, m.idx[0], BB_SET_NE, m.idx[1], bb_reif_none(), NULL));
      bb_error err = {{0}};
      bb_status st = bb_branch_set(m.s, m.idx, 2, (bb_var_sel)var, (bb_val_sel)val, &bo, &err);
      int applies = var != BB_VAR_MAX_REGRET && val != BB_VAL_MIDDLE && val != BB_VAL_SPLIT &&
                    val != BB_VAL_REVERSE_SPLIT && val != BB_VAL_INTERVAL;
      CHECKF(applies ? st == BB_OK : st == BB_ERR_ARG && strstr(err.msg, "bb_branch_set"), "set %d/%d: %s", var,
             val, err.msg);
      expect_model(&m, p_branch_set, "bb_branch_set", var * 100 + val);
    }

  const char *var_names[] = {"input_order", "first_fail", "anti_first_fail", "smallest", "largest",
                             "occurrence", "most_constrained", "max_regret", "dom_w_deg", "afc_min", "afc_max",
                             "afc_size_min", "afc_size_max", "action_min", "action_max", "action_size_min",
                             "action_size_max", "chb_min", "chb_max", "chb_size_min", "chb_size_max", "random"};
  for (int i = 0; i <= BB_VAR_RANDOM; i++) {
    bb_var_sel sel = BB_VAR_INPUT_ORDER;
    CHECKF(bb_var_sel_parse(var_names[i], &sel) && sel == (bb_var_sel)i, "%s", var_names[i]);
  }
  const char *val_names[] = {"indomain_min",   "indomain_max",      "indomain_median",       "indomain_middle",
                             "indomain_random", "indomain_split",   "indomain_reverse_split", "indomain_interval",
                             "outdomain_min",   "outdomain_max"};
  for (int i = 0; i <= BB_VAL_OUT_MAX; i++) {
    bb_val_sel sel = BB_VAL_MAX;
    CHECKF(bb_val_sel_parse(val_names[i], &sel) && sel == (bb_val_sel)i, "%s", val_names[i]);
  }
  bb_var_sel vs;
  bb_val_sel ws;
  CHECK(bb_var_sel_parse("activity_size_max", &vs) && vs == BB_VAR_ACTION_SIZE_MAX);
  CHECK(bb_val_sel_parse("indomain", &ws) && ws == BB_VAL_MIN);
  CHECK(!bb_var_sel_parse("fist_fail", &vs) && !bb_val_sel_parse("indomain_best", &ws));
  CHECK(!bb_var_sel_parse(NULL, &vs) && !bb_val_sel_parse("indomain_min", NULL));
}

/* ---- Spaces, variables, and errors ---------------------------------------------------- */

static void test_space(void) {
  bb_error err = {{0}};
  bb_space *s = bb_space_new(&err);
  int values[] = {7, -2, 4, 4, 9};
  int x = bb_int_var_values(s, values, 5, &err), b = bb_bool_var(s, 1, 1, &err);
  int glb[] = {2}, lub[] = {1, 2, 5};
  int set = bb_set_var(s, glb, 1, lub, 3, 1, 2, &err);
  CHECK(x == 0 && b == 0 && set == 0);
  CHECK(bb_int_var_count(s) == 1 && bb_bool_var_count(s) == 1 && bb_set_var_count(s) == 1);
  bb_space_state state = BB_SPACE_FAILED;
  OK(bb_space_status(s, &state, &err));
  CHECK(state == BB_SPACE_SOLVED); /* Gecode: no brancher left to run */
  int out[8];
  CHECK(bb_int_min(s, x) == -2 && bb_int_max(s, x) == 9 && bb_int_size(s, x) == 4);
  CHECK(bb_int_values(s, x, out) == 4 && out[0] == -2 && out[1] == 4 && out[2] == 7 && out[3] == 9);
  CHECK(bb_int_in(s, x, 7) && !bb_int_in(s, x, 5) && !bb_int_assigned(s, x));
  CHECK(bb_bool_assigned(s, b) && bb_bool_min(s, b) == 1 && bb_bool_max(s, b) == 1);
  CHECK(bb_set_glb(s, set, out, 8) == 1 && out[0] == 2 && bb_set_lub(s, set, out, 8) == 3 && out[2] == 5);
  CHECK(bb_set_lub(s, set, out, 1) == 3 && !bb_set_assigned(s, set));
  bb_space *copy = bb_space_clone(s, &err);
  CHECK(copy && bb_int_size(copy, x) == 4);
  OK(bb_post_int_rel_const(copy, x, BB_GE, 8, bb_reif_none(), BB_IPL_DEF, &err));
  OK(bb_space_status(copy, &state, &err));
  CHECK(state == BB_SPACE_SOLVED && bb_int_assigned(copy, x) && bb_int_min(copy, x) == 9 && bb_int_size(s, x) == 4);
  OK(bb_branch_default(s, &err));
  OK(bb_space_status(s, &state, &err));
  CHECK(state == BB_SPACE_BRANCH);
  OK(bb_post_int_rel_const(copy, x, BB_LT, 0, bb_reif_none(), BB_IPL_DEF, &err));
  CHECK(bb_space_failed(copy) && !bb_space_failed(s));
  CHECK(bb_space_clone(copy, &err) == NULL && strstr(err.msg, "bb_space_clone"));
  bb_space_free(copy);
  bb_space_free(s);
  bb_space_free(NULL);
  bb_search_free(NULL);
}

/* An error must be BB_ERR_ARG, name the function and say something about the cause. */
#define EXPECT_ARG(call, fn, fragment)                                                                   \
  do {                                                                                                   \
    bb_status st_ = (call);                                                                              \
    CHECKF(st_ == BB_ERR_ARG && strstr(err.msg, fn) && strstr(err.msg, fragment), "%s -> %d \"%s\"", #call, \
           (int)st_, err.msg);                                                                           \
    memset(&err, 0, sizeof err);                                                                         \
  } while (0)

static void test_errors(void) {
  bb_error err = {{0}};
  model m = m_new();
  int x = m_int(&m, 0, 3), y = m_int(&m, 0, 3), b = m_bool(&m), S = m_set(&m, 0, 2);
  int X = m.idx[x], Y = m.idx[y], B = m.idx[b], SV = m.idx[S];
  int xs[2] = {X, Y}, bad[2] = {X, 99}, c2[2] = {1, 1};

  CHECK(bb_int_var(m.s, 3, 1, &err) == -1 && strstr(err.msg, "bb_int_var"));
  CHECK(bb_int_var(m.s, INT_MIN, INT_MAX, &err) == -1 && strstr(err.msg, "Gecode")); /* Gecode's exception */
  CHECK(bb_bool_var(m.s, 0, 2, &err) == -1 && strstr(err.msg, "bb_bool_var"));
  CHECK(bb_int_var_values(m.s, NULL, 0, &err) == -1 && strstr(err.msg, "bb_int_var_values"));
  int glb[] = {7}, lub[] = {1, 2};
  CHECK(bb_set_var(m.s, glb, 1, lub, 2, 0, 2, &err) == -1 && strstr(err.msg, "bb_set_var"));
  CHECK(bb_int_var(NULL, 0, 1, &err) == -1 && strstr(err.msg, "NULL"));
  CHECK(bb_int_var_count(m.s) == 2 && bb_bool_var_count(m.s) == 1 && bb_set_var_count(m.s) == 1);

  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, 99, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "99");
  EXPECT_ARG(bb_post_int_rel(m.s, X, (bb_rel)17, Y, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "relation");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, bb_reif_eqv(42), BB_IPL_DEF, &err), "bb_post_int_rel", "42");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, (bb_reif){B, (bb_reif_mode)9}, BB_IPL_DEF, &err), "bb_post_int_rel",
             "reification");
  EXPECT_ARG(bb_post_int_rel(m.s, X, BB_EQ, Y, bb_reif_none(), (bb_ipl)9, &err), "bb_post_int_rel", "consistency");
  EXPECT_ARG(bb_post_int_rel(NULL, X, BB_EQ, Y, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_rel", "NULL");
  EXPECT_ARG(bb_post_int_lin(m.s, c2, bad, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin", "vars[1]");
  EXPECT_ARG(bb_post_int_lin(m.s, NULL, xs, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin", "NULL");
  EXPECT_ARG(bb_post_int_lin(m.s, c2, xs, -1, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin",
             "negative");
  int huge[2] = {INT_MAX, INT_MAX};
  EXPECT_ARG(bb_post_int_lin(m.s, huge, xs, 2, BB_EQ, 1, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_int_lin",
             "Gecode");
  EXPECT_ARG(bb_post_bool_op(m.s, BB_BOOL_AND, X, 5, bb_reif_none(), &err), "bb_post_bool_op", "bool variable 5");
  EXPECT_ARG(bb_post_bool_rel_const(m.s, B, BB_EQ, 2, bb_reif_none(), &err), "bb_post_bool_rel_const", "Boolean");
  EXPECT_ARG(bb_post_array_bool_op(m.s, BB_BOOL_IMP, &B, 1, bb_reif_none(), &err), "bb_post_array_bool_op", "AND");
  EXPECT_ARG(bb_post_set_rel(m.s, SV, (bb_set_rel)40, SV, bb_reif_none(), &err), "bb_post_set_rel", "relation");
  EXPECT_ARG(bb_post_set_card(m.s, 3, X, &err), "bb_post_set_card", "set variable 3");
  EXPECT_ARG(bb_post_inverse(m.s, xs, 2, 0, xs, 1, 0, BB_IPL_DEF, &err), "bb_post_inverse", "differ");
  int tup[4] = {0, 1, 2, 0}, bools[2] = {B, B};
  EXPECT_ARG(bb_post_table_bool(m.s, bools, 2, tup, 2, true, bb_reif_none(), BB_IPL_DEF, &err), "bb_post_table_bool",
             "Boolean");
  int trans[2] = {1, 1}, fin[1] = {1};
  EXPECT_ARG(bb_post_regular(m.s, xs, 2, 1, 2, trans, 3, fin, 1, &err), "bb_post_regular", "start state");
  trans[1] = 4;
  EXPECT_ARG(bb_post_regular(m.s, xs, 2, 1, 2, trans, 1, fin, 1, &err), "bb_post_regular", "transition");
  EXPECT_ARG(bb_post_array_int_maximum(m.s, X, xs, 0, BB_IPL_DEF, &err), "bb_post_array_int_maximum", "empty");
  int wide = bb_int_var(m.s, -600, 600, NULL);
  EXPECT_ARG(bb_post_int_pow(m.s, X, wide, Y, BB_IPL_DEF, &err), "bb_post_int_pow", "exponent");
  int w[2] = {1, -1};
  EXPECT_ARG(bb_post_bin_packing_load(m.s, xs, 1, 0, xs, w, 2, BB_IPL_DEF, &err), "bb_post_bin_packing_load",
             "negative");
  int dup[3] = {1, 2, 1};
  EXPECT_ARG(bb_post_value_precede_chain(m.s, dup, 3, xs, 2, &err), "bb_post_value_precede_chain", "twice");
  EXPECT_ARG(bb_space_set_objective(m.s, BB_MINIMIZE, 77, &err), "bb_space_set_objective", "77");
  EXPECT_ARG(bb_space_set_objective(m.s, (bb_objective_sense)5, X, &err), "bb_space_set_objective", "sense");
  EXPECT_ARG(bb_branch_int(m.s, xs, 2, (bb_var_sel)99, BB_VAL_MIN, NULL, &err), "bb_branch_int", "selection");
  EXPECT_ARG(bb_branch_bool(m.s, bad, 2, BB_VAR_INPUT_ORDER, BB_VAL_MIN, NULL, &err), "bb_branch_bool", "vars[1]");
  bb_search_options o;
  bb_search_options_init(&o);
  o.restart = (bb_restart_kind)12;
  CHECK(bb_search_new(m.s, &o, &err) == NULL && strstr(err.msg, "restart"));
  o.restart = BB_RESTART_NONE, o.threads = -3;
  CHECK(bb_search_new(m.s, &o, &err) == NULL && strstr(err.msg, "thread"));
  CHECK(bb_search_new(NULL, NULL, &err) == NULL && strstr(err.msg, "bb_search_new"));
  CHECK(bb_search_next(NULL, &err) == NULL && strstr(err.msg, "bb_search_next"));
  CHECK(bb_post_int_rel(m.s, X, BB_EQ, 99, bb_reif_none(), BB_IPL_DEF, NULL) == BB_ERR_ARG); /* err may be NULL */

  /* None of the rejected calls changed the model: x, y free, b free, S free, wide free. */
  long count = 0, bad_solutions = 0;
  G.n = 0;
  count = solve_count(&m, NULL, p_any, &bad_solutions);
  CHECKF(count == 4 * 4 * 2 * 4 * 1201L && bad_solutions == 0, "model after rejected calls: %ld solutions", count);
  bb_space_free(m.s);
}

int main(void) {
  test_space();
  test_int_rel_lin();
  test_int_in();
  test_int_arith();
  test_element();
  test_minmax_arg();
  test_bool();
  test_set();
  test_alldiff_circuit();
  test_cumulative_diffn();
  test_disjunctive();
  test_table_regular_inverse();
  test_table_shared();
  test_counting();
  test_order();
  test_optimisation();
  test_threads_restarts();
  test_limits();
  test_branchings();
  test_errors();
  return tu_finish();
}
