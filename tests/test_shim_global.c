/* The shim's global constraints (shim/post_global.cpp, post_scheduling.cpp, post_table.cpp)
 * against brute force: all_different, circuit, scheduling, tables, regular, inverse,
 * counting and ordering. */
#include "shim_model.h"

/* ---- Global constraints --------------------------------------------------------------- */

static int p_never(const int *v) { return v == NULL; }
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
        if (sub)
          OK(bb_post_subcircuit(m.s, ys, G.n, G.offset, BB_IPL_DEF, NULL));
        else
          OK(bb_post_circuit(m.s, ys, G.n, G.offset, oi == 2 ? BB_IPL_DOM : BB_IPL_DEF, NULL));
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
               : kind == 4            ? m_int(&m, 1, 2)
               : kind == 5            ? m_int(&m, i % 2 + 1, i % 2 + 1)
                                      : m_int(&m, dc[i], dc[i]);
      int vr = kind == 0 ? m_int(&m, 0, 2) : kind >= 4 ? m_int(&m, 1, 2) : m_int(&m, rc[i], rc[i]);
      s[i] = m.idx[vs], d[i] = m.idx[vd], r[i] = m.idx[vr];
    }
    int cap = kind == 3 ? m_int(&m, 2, 2) : kind >= 4 ? m_int(&m, -1, 1) : m_int(&m, -1, 2);
    if (kind == 3)
      OK(bb_post_cumulative_const(m.s, s, dc, rc, 3, 2, BB_IPL_DEF, NULL));
    else
      OK(bb_post_cumulative(m.s, s, d, r, 3, m.idx[cap], BB_IPL_DEF, NULL));
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
        if (booleans)
          OK(bb_post_table_bool(m.s, xs, 3, t, 5, G.k, reif_for(&m, mode, r), BB_IPL_DEF, NULL));
        else
          OK(bb_post_table_int(m.s, xs, 3, t, 5, G.k, reif_for(&m, mode, r), BB_IPL_DOM, NULL));
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
        if (booleans)
          OK(bb_post_lex_bool(m.s, x, G.a[0], y, G.a[1], strict, NULL));
        else
          OK(bb_post_lex_int(m.s, x, G.a[0], y, G.a[1], strict, NULL));
        EXPECT(m, p_lex, "lex");
      }
  for (int decreasing = 0; decreasing < 2; decreasing++)
    for (int booleans = 0; booleans < 2; booleans++) {
      G.n = 4, G.flag = decreasing;
      model m = m_new();
      int xs[4];
      for (int i = 0; i < 4; i++) xs[i] = m.idx[booleans ? m_bool(&m) : m_int(&m, 0, 2)];
      if (booleans)
        OK(bb_post_increasing_bool(m.s, xs, 4, decreasing, NULL));
      else
        OK(bb_post_increasing_int(m.s, xs, 4, decreasing, NULL));
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
        if (booleans)
          OK(bb_post_member_bool(m.s, x, G.n, m.idx[e], reif_for(&m, mode, r), NULL));
        else
          OK(bb_post_member_int(m.s, x, G.n, m.idx[e], reif_for(&m, mode, r), NULL));
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
    if (G.flag)
      OK(bb_post_value_precede_chain(m.s, chain, 3, xs, 4, NULL));
    else
      OK(bb_post_value_precede(m.s, G.a[0], G.a[1], xs, 4, NULL));
    EXPECT(m, p_precede, "value_precede");
  }
  G.flag = false;
}

int main(void) {
  test_alldiff_circuit();
  test_cumulative_diffn();
  test_disjunctive();
  test_table_regular_inverse();
  test_table_shared();
  test_counting();
  test_order();
  return tu_finish();
}
