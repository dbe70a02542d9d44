// Integer builtins: relations, linear sums, domains, arithmetic, element, min/max, argmin/max.
#include "post_args.hh"

#include <algorithm>
#include <memory>
#include <type_traits>

using namespace Gecode;
using namespace bb_shim;

namespace {

// Posts x^k = z for a fixed k, with MiniZinc's meaning for k < 0: 1 div x^|k|, which is
// 1 for x = 1, (-1)^|k| for x = -1, 0 for |x| >= 2, and undefined (false) for x = 0.
void post_pow_const(bb_space &s, IntVar x, int k, IntVar z, IntPropLevel ipl) {
  if (k >= 0) {
    pow(s, x, k, z, ipl);
    return;
  }
  rel(s, x, IRT_NQ, 0);
  BoolVar one(s, 0, 1), minus_one(s, 0, 1);
  rel(s, x, IRT_EQ, 1, one);
  rel(s, x, IRT_EQ, -1, minus_one);
  int sign = (k % 2 == 0) ? 1 : -1;
  linear(s, IntArgs({1, sign}), BoolVarArgs({one, minus_one}), IRT_EQ, z);
}

// Element over a constant array: vals[idx - offset] = z, padding small offsets.
IntArgs padded(const IntArgs &vals, int offset) {
  int pad = pad_count(offset);
  IntArgs a(pad + vals.size());
  for (int i = 0; i < pad; i++) a[i] = vals.size() > 0 ? vals[0] : 0;
  for (int i = 0; i < vals.size(); i++) a[pad + i] = vals[i];
  return a;
}
IntVarArgs padded(bb_space &s, const IntVarArgs &vars, int offset) {
  int pad = pad_count(offset);
  IntVarArgs a(pad + vars.size());
  for (int i = 0; i < pad; i++) a[i] = IntVar(s, 0, 0); // never selected: idx excludes them
  for (int i = 0; i < vars.size(); i++) a[pad + i] = vars[i];
  return a;
}

} // namespace

extern "C" {

bb_status bb_post_int_rel(bb_space *sp, int x, bb_rel cmp, int y, bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      rel(s, a, r, b, l);
    else
      rel(s, a, r, b, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_int_rel_const(bb_space *sp, int x, bb_rel cmp, int c, bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      rel(s, a, r, c, l);
    else
      rel(s, a, r, c, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_int_lin(bb_space *sp, const int *coeffs, const int *vars, int count, bb_rel cmp, int c, bb_reif reif,
                          bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntArgs a = int_args(coeffs, count, "coeffs");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      linear(s, a, x, r, c, l);
    else
      linear(s, a, x, r, c, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_int_lin_var(bb_space *sp, const int *coeffs, const int *vars, int count, bb_rel cmp, int y,
                              bb_reif reif, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp, ipl), [&](bb_space &s, auto cmp, auto ipl) -> bb_status {
    IntArgs a = int_args(coeffs, count, "coeffs");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntVar rhs = int_var(s, y, "y");
    IntRelType r = int_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    IntPropLevel l = ipl_of(ipl);
    if (ra.none)
      linear(s, a, x, r, rhs, l);
    else
      linear(s, a, x, r, rhs, ra.reify(), l);
    return BB_OK;
  });
}

bb_status bb_post_int_in_set(bb_space *sp, int x, const int *values, int count, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar a = int_var(s, x, "x");
    IntSet set = int_set(values, count, "values");
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      dom(s, a, set);
    else
      dom(s, a, set, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_int_in_ranges(bb_space *sp, int x, const int *bounds, int range_count, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar a = int_var(s, x, "x");
    check_count(bounds, range_count, "bounds");
    std::unique_ptr<int[][2]> ranges(new int[range_count > 0 ? range_count : 1][2]);
    for (int k = 0; k < range_count; k++) {
      if (bounds[2 * k] > bounds[2 * k + 1]) arg_fail("range %d: %d..%d is empty", k, bounds[2 * k], bounds[2 * k + 1]);
      ranges[k][0] = bounds[2 * k];
      ranges[k][1] = bounds[2 * k + 1];
    }
    IntSet set = range_count > 0 ? IntSet(ranges.get(), range_count) : IntSet::empty;
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      dom(s, a, set);
    else
      dom(s, a, set, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_int_plus(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs v({int_var(s, x, "x"), int_var(s, y, "y"), int_var(s, z, "z")});
    linear(s, IntArgs({1, 1, -1}), v, IRT_EQ, 0, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_minus(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs v({int_var(s, x, "x"), int_var(s, y, "y"), int_var(s, z, "z")});
    linear(s, IntArgs({1, -1, -1}), v, IRT_EQ, 0, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_times(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y"), c = int_var(s, z, "z");
    mult(s, a, b, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_div(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y"), c = int_var(s, z, "z");
    div(s, a, b, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_mod(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y"), c = int_var(s, z, "z");
    mod(s, a, b, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_abs(bb_space *sp, int x, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), c = int_var(s, z, "z");
    abs(s, a, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_negate(bb_space *sp, int x, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs v({int_var(s, x, "x"), int_var(s, z, "z")});
    linear(s, IntArgs({1, 1}), v, IRT_EQ, 0, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_min(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y"), c = int_var(s, z, "z");
    min(s, a, b, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_max(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), b = int_var(s, y, "y"), c = int_var(s, z, "z");
    max(s, a, b, c, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_pow_const(bb_space *sp, int x, int exponent, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar a = int_var(s, x, "x"), c = int_var(s, z, "z");
    post_pow_const(s, a, exponent, c, ipl_of(ipl));
    return BB_OK;
  });
}

// A variable exponent: one fixed-exponent power per value k of y, over a copy of x that
// is pinned to 1 unless y = k (so an unselected power stays defined), and z picks the
// power of y's value. The exponent's range must therefore be small.
bb_status bb_post_int_pow(bb_space *sp, int x, int y, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    enum { MAX_EXPONENTS = 1024 };
    IntVar base = int_var(s, x, "x"), exp = int_var(s, y, "y"), result = int_var(s, z, "z");
    IntPropLevel l = ipl_of(ipl);
    long long width = (long long)exp.max() - exp.min() + 1;
    if (exp.assigned()) {
      post_pow_const(s, base, exp.val(), result, l);
      return BB_OK;
    }
    if (width > MAX_EXPONENTS)
      arg_fail("exponent range %d..%d is wider than %d values", exp.min(), exp.max(), (int)MAX_EXPONENTS);
    int lo = exp.min();
    IntVar one(s, 1, 1);
    IntVarArgs powers((int)width);
    for (int i = 0; i < (int)width; i++) {
      int k = lo + i;
      if (!exp.in(k)) {
        powers[i] = IntVar(s, 0, 0); // never selected
        continue;
      }
      BoolVar selected(s, 0, 1);
      rel(s, exp, IRT_EQ, k, selected);
      IntVar gated(s, std::min(base.min(), 1), std::max(base.max(), 1));
      ite(s, selected, base, one, gated);
      powers[i] = IntVar(s, Int::Limits::min, Int::Limits::max);
      post_pow_const(s, gated, k, powers[i], l);
    }
    IntVar idx = zero_based(s, exp, lo, (int)width);
    element(s, padded(s, powers, lo), idx, result, l);
    return BB_OK;
  });
}

bb_status bb_post_array_int_element(bb_space *sp, int idx, const int *vals, int count, int offset, int z, bb_ipl ipl,
                                    bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar index = int_var(s, idx, "idx"), value = int_var(s, z, "z");
    IntArgs a = padded(int_args(vals, count, "vals"), offset);
    IntPropLevel l = ipl_of(ipl);
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, a, i0, value, l);
    return BB_OK;
  });
}

bb_status bb_post_array_var_int_element(bb_space *sp, int idx, const int *vars, int count, int offset, int z,
                                        bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar index = int_var(s, idx, "idx"), value = int_var(s, z, "z");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntPropLevel l = ipl_of(ipl);
    IntVar i0 = zero_based(s, index, offset, count);
    element(s, padded(s, x, offset), i0, value, l);
    return BB_OK;
  });
}

bb_status bb_post_array_int_element2d(bb_space *sp, int row, int col, const int *vals, int rows, int cols,
                                      int row_offset, int col_offset, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar r = int_var(s, row, "row"), c = int_var(s, col, "col"), value = int_var(s, z, "z");
    int cells = checked_cells(rows, cols);
    IntArgs a = int_args(vals, cells, "vals");
    IntPropLevel l = ipl_of(ipl);
    IntVar r0 = zero_based_unpadded(s, r, row_offset, rows);
    IntVar c0 = zero_based_unpadded(s, c, col_offset, cols);
    // Gecode reads a[x + w*y] with x in 0..w-1: x is the column, y the row.
    if (cells > 0) element(s, a, c0, cols, r0, rows, value, l);
    return BB_OK;
  });
}

bb_status bb_post_array_var_int_element2d(bb_space *sp, int row, int col, const int *vars, int rows, int cols,
                                          int row_offset, int col_offset, int z, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar r = int_var(s, row, "row"), c = int_var(s, col, "col"), value = int_var(s, z, "z");
    int cells = checked_cells(rows, cols);
    IntVarArgs a = int_vars(s, vars, cells, "vars");
    IntPropLevel l = ipl_of(ipl);
    IntVar r0 = zero_based_unpadded(s, r, row_offset, rows);
    IntVar c0 = zero_based_unpadded(s, c, col_offset, cols);
    if (cells > 0) element(s, a, c0, cols, r0, rows, value, l);
    return BB_OK;
  });
}

bb_status bb_post_array_int_maximum(bb_space *sp, int m, const int *vars, int count, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar y = int_var(s, m, "m");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    if (count == 0) arg_fail("the maximum of an empty array is undefined");
    max(s, x, y, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_array_int_minimum(bb_space *sp, int m, const int *vars, int count, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVar y = int_var(s, m, "m");
    IntVarArgs x = int_vars(s, vars, count, "vars");
    if (count == 0) arg_fail("the minimum of an empty array is undefined");
    min(s, x, y, ipl_of(ipl));
    return BB_OK;
  });
}

} // extern "C"

namespace {

// Gecode's argmin/argmax reject an index variable that also occurs in the array; a copy
// constrained equal stands in for it then.
template <class VarArgs>
IntVar separate_index(bb_space &s, const VarArgs &x, IntVar idx) {
  if constexpr (std::is_same_v<VarArgs, IntVarArgs>)
    for (int i = 0; i < x.size(); i++)
      if (x[i].varimp() == idx.varimp() && !idx.assigned()) {
        IntVar copy(s, idx.min(), idx.max());
        rel(s, copy, IRT_EQ, idx);
        return copy;
      }
  return idx;
}

template <class VarArgs>
void post_arg(bb_space &s, const VarArgs &x, int offset, IntVar idx, bool maximum, IntPropLevel l) {
  if (x.size() == 0) arg_fail("arg_min/arg_max of an empty array is undefined");
  IntVar y = separate_index(s, x, idx);
  if (offset < 0) { // Gecode takes only non-negative offsets: use a 0-based copy of y
    y = zero_based_unpadded(s, y, offset, x.size());
    offset = 0;
  }
  if (maximum)
    argmax(s, x, offset, y, true, l);
  else
    argmin(s, x, offset, y, true, l);
}

} // namespace

extern "C" {

bb_status bb_post_int_argmax(bb_space *sp, const int *vars, int count, int offset, int idx, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntVar y = int_var(s, idx, "idx");
    post_arg(s, x, offset, y, true, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_int_argmin(bb_space *sp, const int *vars, int count, int offset, int idx, bb_ipl ipl, bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    IntVarArgs x = int_vars(s, vars, count, "vars");
    IntVar y = int_var(s, idx, "idx");
    post_arg(s, x, offset, y, false, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_bool_argmax(bb_space *sp, const int *bools, int count, int offset, int idx, bb_ipl ipl,
                              bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    IntVar y = int_var(s, idx, "idx");
    post_arg(s, x, offset, y, true, ipl_of(ipl));
    return BB_OK;
  });
}

bb_status bb_post_bool_argmin(bb_space *sp, const int *bools, int count, int offset, int idx, bb_ipl ipl,
                              bb_error *err) {
  return posting(sp, err, __func__, enums(ipl), [&](bb_space &s, auto ipl) -> bb_status {
    BoolVarArgs x = bool_vars(s, bools, count, "bools");
    IntVar y = int_var(s, idx, "idx");
    post_arg(s, x, offset, y, false, ipl_of(ipl));
    return BB_OK;
  });
}

} // extern "C"
