// Float builtins (bb_float.h): relations, linear sums, domains, arithmetic, functions,
// int2float, element and array min/max. Where Gecode's FlatZinc front end posts a builtin,
// it is posted the same way, so both find the same intervals; the builtins it lacks
// (float_pow with a variable exponent, the hyperbolic functions and their inverses,
// float_dom, float_in_reif, element) are built from Gecode's float propagators.
#include "bb_float.h"
#include "post_args.hh"

#include <climits>
#include <initializer_list>
#include <cmath>

using namespace Gecode;
using namespace bb_shim;

namespace {

FloatRelType float_rel(c_enum<bb_rel> r, const char *what) {
  switch (r.raw) {
    case BB_EQ: return FRT_EQ;
    case BB_NE: return FRT_NQ;
    case BB_LE: return FRT_LQ;
    case BB_LT: return FRT_LE;
    case BB_GE: return FRT_GQ;
    case BB_GT: return FRT_GR;
  }
  arg_fail("%s: unknown relation %d", what, r.raw);
}

void check_float(double v, const char *what) {
  if (std::isnan(v)) arg_fail("%s is NaN", what);
}

// Coefficients. (Gecode 6.2 declares FloatValArgs' initializer-list constructor but its
// library does not define it.)
FloatValArgs float_coeffs(std::initializer_list<double> values) {
  FloatValArgs a((int)values.size());
  int i = 0;
  for (double v : values) a[i++] = v;
  return a;
}

// Gecode's float linear refuses ("Number out of limits") a sum whose bounds could leave
// the doubles, which any unbounded `var float` does. Rather than stop there (as
// fzn-gecode does), each variable of the sum is first limited to
// |x| <= DBL_MAX / (4 (1 + sum |a|)), about 4e307 for unit coefficients: a restriction
// on values no model can print anyway, after which the sum always fits.
void limit_for_linear(bb_space &s, const FloatValArgs &a, const FloatVarArgs &x) {
  double weight = 1.0;
  for (int i = 0; i < a.size(); i++) weight += std::fabs(a[i].max());
  double bound = Float::Limits::max / (4.0 * weight);
  for (int i = 0; i < x.size(); i++) {
    if (x[i].max() > bound) rel(s, x[i], FRT_LQ, bound);
    if (x[i].min() < -bound) rel(s, x[i], FRT_GQ, -bound);
  }
}
void safe_linear(bb_space &s, const FloatValArgs &a, const FloatVarArgs &x, FloatRelType frt, FloatVal c) {
  limit_for_linear(s, a, x);
  if (!s.failed()) linear(s, a, x, frt, c);
}
void safe_linear(bb_space &s, const FloatValArgs &a, const FloatVarArgs &x, FloatRelType frt, FloatVal c, Reify r) {
  limit_for_linear(s, a, x);
  if (!s.failed()) linear(s, a, x, frt, c, r);
}

// A fresh unbounded float variable (auxiliary, functionally defined by its constraint).
FloatVar any_float(bb_space &s) { return FloatVar(s, Float::Limits::min, Float::Limits::max); }

// The Boolean that is true exactly when !t, linked to the reification as asked.
void link_negated(bb_space &s, const reif_arg &r, BoolVar t) {
  BoolVar not_t(s, 0, 1);
  rel(s, not_t, IRT_NQ, t);
  link_reif(s, r, not_t);
}

// x frt y, or its reification (y a variable or a constant).
template <class Y>
void rel_reified(bb_space &s, FloatVar x, FloatRelType frt, Y y, const reif_arg &r) {
  if (r.none)
    rel(s, x, frt, y);
  else
    rel(s, x, frt, y, r.reify());
}

// x rel y (y a variable) or x rel c, as Gecode's FlatZinc front end posts float_lt and
// float_ne: x < y is x <= y and not x = y; x != y is not x = y.
// (GE and GT come here swapped into LE and LT.)
template <class Y>
void post_rel(bb_space &s, FloatVar x, c_enum<bb_rel> cmp, Y y, const reif_arg &r) {
  int c = cmp.raw;
  if (c == BB_NE) {
    BoolVar eq = r.none ? BoolVar(s, 0, 0) : BoolVar(s, 0, 1);
    rel(s, x, FRT_EQ, y, eq);
    if (!r.none) link_negated(s, r, eq);
    return;
  }
  if (c == BB_LT) {
    if (r.none) {
      rel(s, x, FRT_LQ, y);
      rel(s, x, FRT_EQ, y, BoolVar(s, 0, 0));
      return;
    }
    BoolVar le(s, 0, 1), eq(s, 0, 1), ne(s, 0, 1), lt(s, 0, 1);
    rel(s, x, FRT_LQ, y, le);
    rel(s, x, FRT_EQ, y, eq);
    rel(s, ne, IRT_NQ, eq);
    rel(s, le, BOT_AND, ne, lt);
    link_reif(s, r, lt);
    return;
  }
  rel_reified(s, x, float_rel(cmp, "rel"), y, r);
}

// 2y = a - b (sinh) or 2y = a + b (cosh), with a = exp(x), b = exp(-x).
void post_sinh_cosh(bb_space &s, FloatVar x, FloatVar y, bool is_cosh) {
  FloatVar a = any_float(s), b = any_float(s), neg = any_float(s);
  exp(s, x, a);
  safe_linear(s, float_coeffs({1.0, 1.0}), FloatVarArgs({neg, x}), FRT_EQ, 0.0);
  exp(s, neg, b);
  safe_linear(s, float_coeffs({2.0, -1.0, is_cosh ? -1.0 : 1.0}), FloatVarArgs({y, a, b}), FRT_EQ, 0.0);
}

// y = (e - 1) / (e + 1), e = exp(2x): tanh as Gecode's mznlib writes it.
void post_tanh(bb_space &s, FloatVar x, FloatVar y) {
  FloatVar two_x = any_float(s), e = any_float(s), num = any_float(s), den = any_float(s);
  safe_linear(s, float_coeffs({2.0, -1.0}), FloatVarArgs({x, two_x}), FRT_EQ, 0.0);
  exp(s, two_x, e);
  safe_linear(s, float_coeffs({1.0, -1.0}), FloatVarArgs({e, num}), FRT_EQ, 1.0);
  safe_linear(s, float_coeffs({1.0, -1.0}), FloatVarArgs({e, den}), FRT_EQ, -1.0);
  div(s, num, den, y);
}

// array[idx] = z over an array indexed from offset: idx within the index range, and each
// position i reified (idx = offset + i) -> (array[i] = z), as Gecode's mznlib decomposes
// float element. The IMP reification also removes a position whose entry z cannot equal.
template <class Entries>
void post_element(bb_space &s, IntVar idx, const Entries &entries, int count, int offset, FloatVar z) {
  long long hi = (long long)offset + count - 1;
  if (count == 0 || hi > Int::Limits::max) {
    s.fail();
    return;
  }
  dom(s, idx, offset, (int)hi);
  for (int i = 0; i < count; i++) {
    BoolVar at(s, 0, 1);
    rel(s, idx, IRT_EQ, offset + i, at);
    rel(s, z, FRT_EQ, entries[i], Reify(at, RM_IMP));
  }
}

} // namespace

extern "C" {

bb_status bb_post_float_rel(bb_space *sp, int x, bb_rel cmp, int y, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp), [&](bb_space &s, auto cmp) -> bb_status {
    FloatVar a = float_var(s, x, "x"), b = float_var(s, y, "y");
    float_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    if (cmp.raw == BB_GE || cmp.raw == BB_GT)
      post_rel(s, b, swapped(cmp), a, ra);
    else
      post_rel(s, a, cmp, b, ra);
    return BB_OK;
  });
}

bb_status bb_post_float_rel_const(bb_space *sp, int x, bb_rel cmp, double c, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp), [&](bb_space &s, auto cmp) -> bb_status {
    FloatVar a = float_var(s, x, "x");
    check_float(c, "constant");
    float_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    if (cmp.raw == BB_NE) {
      post_rel(s, a, cmp, FloatVal(c), ra);
    } else { // against a constant, Gecode's strict relations are exact
      rel_reified(s, a, float_rel(cmp, "rel"), FloatVal(c), ra);
    }
    return BB_OK;
  });
}

bb_status bb_post_float_lin(bb_space *sp, const double *coeffs, const int *vars, int count, bb_rel cmp, double c,
                            bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, enums(cmp), [&](bb_space &s, auto cmp) -> bb_status {
    check_count(coeffs, count, "coeffs");
    FloatVarArgs x = float_vars(s, vars, count, "vars");
    FloatValArgs a(count);
    for (int i = 0; i < count; i++) {
      check_float(coeffs[i], "coefficient");
      a[i] = coeffs[i];
    }
    check_float(c, "constant");
    FloatRelType frt = float_rel(cmp, "rel");
    reif_arg ra = reif_of(s, reif);
    if (ra.none)
      safe_linear(s, a, x, frt, FloatVal(c));
    else
      safe_linear(s, a, x, frt, FloatVal(c), ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_float_in(bb_space *sp, int x, double lo, double hi, bb_reif reif, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    FloatVar a = float_var(s, x, "x");
    check_float(lo, "lower bound");
    check_float(hi, "upper bound");
    reif_arg ra = reif_of(s, reif);
    if (lo > hi) {
      post_truth(s, ra, false); // an empty interval
      return BB_OK;
    }
    if (ra.none)
      dom(s, a, lo, hi);
    else
      dom(s, a, lo, hi, ra.reify());
    return BB_OK;
  });
}

bb_status bb_post_float_dom(bb_space *sp, int x, const double *bounds, int interval_count, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    FloatVar a = float_var(s, x, "x");
    check_count(bounds, interval_count, "bounds");
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    int nonempty = 0;
    for (int k = 0; k < interval_count; k++) {
      check_float(bounds[2 * k], "bound");
      check_float(bounds[2 * k + 1], "bound");
      if (bounds[2 * k] > bounds[2 * k + 1]) continue;
      nonempty++;
      lo = std::fmin(lo, bounds[2 * k]);
      hi = std::fmax(hi, bounds[2 * k + 1]);
    }
    if (nonempty == 0) {
      s.fail();
      return BB_OK;
    }
    dom(s, a, lo, hi);
    if (nonempty == 1) return BB_OK;
    // In one of the intervals: a clause over their reified memberships.
    BoolVarArgs in;
    for (int k = 0; k < interval_count; k++) {
      if (bounds[2 * k] > bounds[2 * k + 1]) continue;
      BoolVar b(s, 0, 1);
      dom(s, a, bounds[2 * k], bounds[2 * k + 1], b);
      in << b;
    }
    rel(s, BOT_OR, in, 1);
    return BB_OK;
  });
}

bb_status bb_post_float_op(bb_space *sp, bb_float_op op, int x, int y, int z, bb_error *err) {
  return posting(sp, err, __func__, enums(op), [&](bb_space &s, auto op) -> bb_status {
    FloatVar a = float_var(s, x, "x"), b = float_var(s, y, "y"), c = float_var(s, z, "z");
    switch (op.raw) {
      case BB_FLOAT_PLUS: safe_linear(s, float_coeffs({1.0, 1.0, -1.0}), FloatVarArgs({a, b, c}), FRT_EQ, 0.0); break;
      case BB_FLOAT_TIMES: // x*x is a square: [-3,3]*[-3,3] would give [-9,9], sqr gives [0,9]
        if (x == y)
          sqr(s, a, c);
        else
          mult(s, a, b, c);
        break;
      case BB_FLOAT_DIV: div(s, a, b, c); break;
      case BB_FLOAT_MIN: min(s, a, b, c); break;
      case BB_FLOAT_MAX: max(s, a, b, c); break;
      default: arg_fail("unknown float operation %d", op.raw);
    }
    return BB_OK;
  });
}

bb_status bb_post_float_pow(bb_space *sp, int x, int y, bool y_is_int, int y_int, int z, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    FloatVar base = float_var(s, x, "x"), e = float_var(s, y, "y"), r = float_var(s, z, "z");
    if (y_is_int) {
      if (y_int >= 0) {
        pow(s, base, y_int, r);
      } else { // x^-n = 1 / x^n (x = 0 has none)
        if (y_int == INT_MIN) arg_fail("exponent %d is too large", y_int);
        FloatVar power = any_float(s), one(s, 1.0, 1.0);
        pow(s, base, -y_int, power);
        div(s, one, power, r);
      }
      return BB_OK;
    }
    // x^y = exp(y ln x), for x > 0.
    FloatVar ln_x = any_float(s), product = any_float(s);
    rel(s, base, FRT_GR, 0.0);
    log(s, base, ln_x);
    mult(s, e, ln_x, product);
    exp(s, product, r);
    return BB_OK;
  });
}

bb_status bb_post_float_fn(bb_space *sp, bb_float_fn fn, int x, int y, bb_error *err) {
  return posting(sp, err, __func__, enums(fn), [&](bb_space &s, auto fn) -> bb_status {
    FloatVar a = float_var(s, x, "x"), b = float_var(s, y, "y");
    switch (fn.raw) {
      case BB_FLOAT_ABS: abs(s, a, b); break;
      case BB_FLOAT_SQRT: sqrt(s, a, b); break;
      case BB_FLOAT_EXP: exp(s, a, b); break;
      case BB_FLOAT_LN: log(s, a, b); break;
      case BB_FLOAT_LOG10: log(s, 10.0, a, b); break;
      case BB_FLOAT_LOG2: log(s, 2.0, a, b); break;
      case BB_FLOAT_SIN: sin(s, a, b); break;
      case BB_FLOAT_COS: cos(s, a, b); break;
      case BB_FLOAT_TAN: tan(s, a, b); break;
      case BB_FLOAT_ASIN: asin(s, a, b); break;
      case BB_FLOAT_ACOS: acos(s, a, b); break;
      case BB_FLOAT_ATAN: atan(s, a, b); break;
      case BB_FLOAT_SINH: post_sinh_cosh(s, a, b, false); break;
      case BB_FLOAT_COSH: post_sinh_cosh(s, a, b, true); break;
      case BB_FLOAT_TANH: post_tanh(s, a, b); break;
      // The inverses are the forward functions read backwards: b = asinh(a) iff a = sinh(b);
      // b = acosh(a) iff b >= 0 and a = cosh(b); b = atanh(a) iff a = tanh(b).
      case BB_FLOAT_ASINH: post_sinh_cosh(s, b, a, false); break;
      case BB_FLOAT_ACOSH:
        rel(s, b, FRT_GQ, 0.0);
        post_sinh_cosh(s, b, a, true);
        break;
      case BB_FLOAT_ATANH: post_tanh(s, b, a); break;
      default: arg_fail("unknown float function %d", fn.raw);
    }
    return BB_OK;
  });
}

bb_status bb_post_int2float(bb_space *sp, int int_x, int float_y, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar a = int_var(s, int_x, "x");
    FloatVar b = float_var(s, float_y, "y");
    channel(s, a, b);
    return BB_OK;
  });
}

bb_status bb_post_float_element_const(bb_space *sp, int idx, const double *vals, int count, int offset, int z,
                                      bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar i = int_var(s, idx, "idx");
    check_count(vals, count, "vals");
    for (int k = 0; k < count; k++) check_float(vals[k], "array entry");
    FloatVar r = float_var(s, z, "z");
    post_element(s, i, vals, count, offset, r);
    return BB_OK;
  });
}

bb_status bb_post_float_element_var(bb_space *sp, int idx, const int *vars, int count, int offset, int z,
                                    bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    IntVar i = int_var(s, idx, "idx");
    FloatVarArgs x = float_vars(s, vars, count, "vars");
    FloatVar r = float_var(s, z, "z");
    post_element(s, i, x, count, offset, r);
    return BB_OK;
  });
}

bb_status bb_post_float_max_array(bb_space *sp, int m, const int *vars, int count, bool is_max, bb_error *err) {
  return posting(sp, err, __func__, [&](bb_space &s) -> bb_status {
    FloatVar r = float_var(s, m, "m");
    FloatVarArgs x = float_vars(s, vars, count, "vars");
    if (count == 0) {
      s.fail(); // the maximum of nothing is undefined
      return BB_OK;
    }
    if (is_max)
      max(s, x, r);
    else
      min(s, x, r);
    return BB_OK;
  });
}

} // extern "C"
