/* The shim's set constraints (shim/post_set.cpp) against brute force: membership,
 * cardinality, operations, MiniZinc's set order and element. */
#include "shim_model.h"

/* ---- Sets (universe 0..2, or 1..3 for the second operand) ----------------------------- */

static int p_set_in(const int *v) { return reified(v, has(v[1], 0, v[0])); }
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

int main(void) {
  test_set();
  return tu_finish();
}
