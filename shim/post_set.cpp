// Set builtins: membership, cardinality, operations, relations (including MiniZinc's set
// order, which is not Gecode's), element.
#include "post_args.hh"

#include <vector>

using namespace Gecode;
using namespace bb_shim;

namespace {

// The values that x or y may contain, ascending.
std::vector<int> universe(SetVar x, SetVar y) {
  std::vector<int> u;
  SetVarLubValues a(x), b(y);
  while (a() || b()) {
    if (!b() || (a() && a.val() < b.val())) {
      u.push_back(a.val());
      ++a;
    } else if (!a() || b.val() < a.val()) {
      u.push_back(b.val());
      ++b;
    } else {
      u.push_back(a.val());
      ++a;
      ++b;
    }
  }
  return u;
}

// MiniZinc orders sets by their ascending element lists, lexicographically (a proper
// prefix is smaller): {1} < {1,2} < {1,3} < {2}. Gecode's SRT_LQ/SRT_LE is another
// total order ({3} < {2,3} there), so this builds a Boolean that holds iff x < y
// (strict) or x <= y, scanning the joint universe u_1 < ... < u_m from the top:
//   below[k] = (x < y decided at u_k or later, x and y agreeing below u_k);
//   where u_k is in x only, x < y iff y has an element above u_k (x's list continues
//   with u_k, y's with something larger); where it is in y only, iff x has none.
BoolVar set_order(bb_space &s, SetVar x, SetVar y, bool strict) {
  std::vector<int> u = universe(x, y);
  BoolVar decided(s, strict ? 0 : 1, strict ? 0 : 1); // equal sets
  BoolVar x_above(s, 0, 0), y_above(s, 0, 0);         // an element above the current one
  for (size_t k = u.size(); k-- > 0;) {
    BoolVar in_x(s, 0, 1), in_y(s, 0, 1);
    dom(s, x, SRT_SUP, u[k], in_x);
    dom(s, y, SRT_SUP, u[k], in_y);
    BoolVar no_x_above(s, 0, 1);
    rel(s, no_x_above, IRT_NQ, x_above);
    BoolVar only_x(s, 0, 1), only_y(s, 0, 1), here(s, 0, 1);
    ite(s, in_y, decided, y_above, only_x);    // u_k in x
    ite(s, in_y, no_x_above, decided, only_y); // u_k not in x
    ite(s, in_x, only_x, only_y, here);
    BoolVar xa(s, 0, 1), ya(s, 0, 1);
    rel(s, in_x, BOT_OR, x_above, xa);
    rel(s, in_y, BOT_OR, y_above, ya);
    decided = here;
    x_above = xa;
    y_above = ya;
  }
  return decided;
}

SetVarArgs padded(bb_space &s, const SetVarArgs &x, int offset) {
  int pad = pad_count(offset);
  SetVarArgs a(pad + x.size());
  for (int i = 0; i < pad; i++) a[i] = SetVar(s, IntSet::empty, IntSet::empty); // never selected
  for (int i = 0; i < x.size(); i++) a[pad + i] = x[i];
  return a;
}

} // namespace

extern "C" {

bb_status bb_post_set_in(bb_space *sp, int x, int set, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar e = int_var(s, x, "x");
    SetVar S = set_var(s, set, "set");
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      rel(s, S, SRT_SUP, e);
    else
      rel(s, S, SRT_SUP, e, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_set_card(bb_space *sp, int set, int x, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    SetVar S = set_var(s, set, "set");
    IntVar c = int_var(s, x, "x");
    cardinality(s, S, c);
    return BB_OK;
  });
}

bb_status bb_post_set_op(bb_space *sp, int x, bb_set_op op, int y, int z, bb_error *err) {
  return posting(sp, err, __func__, enums(op), [&](bb_space &s, auto op) -> bb_status {
    SetVar a = set_var(s, x, "x"), b = set_var(s, y, "y"), c = set_var(s, z, "z");
    switch (op.raw) {
      case BB_SET_UNION: rel(s, a, SOT_UNION, b, SRT_EQ, c); break;
      case BB_SET_INTERSECT: rel(s, a, SOT_INTER, b, SRT_EQ, c); break;
      case BB_SET_DIFF: rel(s, a, SOT_MINUS, b, SRT_EQ, c); break;
      case BB_SET_SYMDIFF: { // Gecode has no symmetric difference: (a \ b) u (b \ a)
        std::vector<int> u = universe(a, b);
        IntSet lub = u.empty() ? IntSet::empty : IntSet(u.data(), (int)u.size());
        SetVar a_b(s, IntSet::empty, lub), b_a(s, IntSet::empty, lub);
        rel(s, a, SOT_MINUS, b, SRT_EQ, a_b);
        rel(s, b, SOT_MINUS, a, SRT_EQ, b_a);
        rel(s, a_b, SOT_UNION, b_a, SRT_EQ, c);
        break;
      }
      default: arg_fail("unknown set operation %d", op.raw);
    }
    return BB_OK;
  });
}

bb_status bb_post_set_rel(bb_space *sp, int x, bb_set_rel srel, int y, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(srel), [&](bb_space &s, auto srel) -> bb_status {
    SetVar a = set_var(s, x, "x"), b = set_var(s, y, "y");
    reif_arg ra = reif_of(s, reif);
    SetRelType srt;
    int raw_rel = srel.raw;
    switch (raw_rel) {
      case BB_SET_EQ: srt = SRT_EQ; break;
      case BB_SET_NE: srt = SRT_NQ; break;
      case BB_SET_SUBSET: srt = SRT_SUB; break;
      case BB_SET_SUPERSET: srt = SRT_SUP; break;
      case BB_SET_DISJOINT: srt = SRT_DISJ; break;
      case BB_SET_LE:
      case BB_SET_LT: link_reif(s, ra, set_order(s, a, b, raw_rel == BB_SET_LT)); return BB_OK;
      default: arg_fail("unknown set relation %d", raw_rel);
    }
    if (ra.none)
      rel(s, a, srt, b);
    else
      rel(s, a, srt, b, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_array_set_element(bb_space *sp, int idx, const int *values, const int *sizes, int count, int offset,
                                    int z, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar index = int_var(s, idx, "idx");
    SetVar value = set_var(s, z, "z");
    check_count(sizes, count, "sizes");
    long long total = 0;
    for (int k = 0; k < count; k++) {
      if (sizes[k] < 0) arg_fail("sizes[%d]: negative size %d", k, sizes[k]);
      total += sizes[k];
    }
    if (total > 0x7fffffffLL) arg_fail("%lld values do not fit an int", total);
    check_count(values, (int)total, "values");
    int pad = pad_count(offset);
    IntSetArgs sets(pad + count);
    for (int i = 0; i < pad; i++) sets[i] = IntSet::empty;
    const int *next = values;
    for (int k = 0; k < count; k++) {
      sets[pad + k] = int_set(next, sizes[k], "values");
      next += sizes[k];
    }
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, sets, i0, value);
    return BB_OK;
  });
}

bb_status bb_post_array_var_set_element(bb_space *sp, int idx, const int *sets, int count, int offset, int z,
                                        bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar index = int_var(s, idx, "idx");
    SetVar value = set_var(s, z, "z");
    SetVarArgs x = set_vars(s, sets, count, "sets");
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, padded(s, x, offset), i0, value);
    return BB_OK;
  });
}

} // extern "C"
