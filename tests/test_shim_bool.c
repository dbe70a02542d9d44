/* The shim's Boolean constraints (shim/post_bool.cpp) against brute force: relations,
 * operators, clauses, Boolean sums and bool2int. */
#include "shim_model.h"

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

int main(void) {
  test_bool();
  return tu_finish();
}
