/* The shim's integer constraints (shim/post_int.cpp) against brute force: relations,
 * linear, domains, arithmetic, element, minimum/maximum and arg_min/arg_max. */
#include "shim_model.h"

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
      G.k = offsets[(oi + 1) % 4];         /* column offset */
      G.flag = kind > 0;
      m = m_new();
      int row = m_int(&m, G.offset - 1, G.offset + 2), col = m_int(&m, G.k - 1, G.k + 3);
      z = kind == 2 ? m_bool(&m) : m_int(&m, 0, kind ? 1 : 9);
      int cells[6];
      for (int i = 0; kind > 0 && i < 6; i++) cells[i] = m.idx[kind == 2 ? m_bool(&m) : m_int(&m, 0, 1)];
      bb_status st = kind == 0   ? bb_post_array_int_element2d(m.s, m.idx[row], m.idx[col], elem_vals, 2, 3, G.offset,
                                                               G.k, m.idx[z], BB_IPL_DEF, NULL)
                     : kind == 1 ? bb_post_array_var_int_element2d(m.s, m.idx[row], m.idx[col], cells, 2, 3, G.offset,
                                                                   G.k, m.idx[z], BB_IPL_DEF, NULL)
                                 : bb_post_array_var_bool_element2d(m.s, m.idx[row], m.idx[col], cells, 2, 3, G.offset,
                                                                    G.k, m.idx[z], NULL);
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
      bb_status st = booleans ? (maximum ? bb_post_bool_argmax : bb_post_bool_argmin)(m.s, xs, 3, G.offset, m.idx[idx],
                                                                                      BB_IPL_DEF, NULL)
                              : (maximum ? bb_post_int_argmax : bb_post_int_argmin)(m.s, xs, 3, G.offset, m.idx[idx],
                                                                                    BB_IPL_DEF, NULL);
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

int main(void) {
  test_int_rel_lin();
  test_int_in();
  test_int_arith();
  test_element();
  test_minmax_arg();
  return tu_finish();
}
