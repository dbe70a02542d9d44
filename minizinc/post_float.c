/* Posters for the float builtins of FlatZinc (MiniZinc 2.6.4's std/flatzinc_builtins.mzn,
 * "Float FlatZinc builtins"), through Gecode's float variables (shim/bb_float.h). */
#include "registry.h"

#include "bb_float.h"

#include <math.h>

/* float_eq/ne/le/lt (p1 relation, p2 reification); a constant side becomes a relation
 * with a constant, so no constant variable is made for it. */
static bool post_float_rel(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  bb_reif r;
  bb_error err;
  bb_rel rel = (bb_rel)self->p1;
  if (!fzn_reif_arg(b, c, 2, self->p2, &r)) return false;
  int x, y;
  double k;
  if (fzn_arg_is_par(b, ARG(0)) && !fzn_arg_is_par(b, ARG(1))) { /* c rel y is y swapped(rel) c */
    static const bb_rel swapped[] = {BB_EQ, BB_NE, BB_GE, BB_GT, BB_LE, BB_LT};
    if (!fzn_arg_float(b, ARG(0), c->line, "a", &k) || !fzn_arg_float_var(b, ARG(1), c->line, "b", &y)) return false;
    return fzn_posted(b, c, bb_post_float_rel_const(b->space, y, swapped[rel], k, r, &err), &err);
  }
  if (fzn_arg_is_par(b, ARG(1))) {
    if (!fzn_arg_float_var(b, ARG(0), c->line, "a", &x) || !fzn_arg_float(b, ARG(1), c->line, "b", &k)) return false;
    return fzn_posted(b, c, bb_post_float_rel_const(b->space, x, rel, k, r, &err), &err);
  }
  if (!fzn_arg_float_var(b, ARG(0), c->line, "a", &x) || !fzn_arg_float_var(b, ARG(1), c->line, "b", &y)) return false;
  return fzn_posted(b, c, bb_post_float_rel(b->space, x, rel, y, r, &err), &err);
}

/* float_lin_eq/ne/le/lt(as, bs, c) (+_reif/_imp). */
static bool post_float_lin(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  double *a, k;
  int *x, na, nx;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 3, self->p2, &r) || !fzn_arg_float_array(b, ARG(0), c->line, "coefficients", &a, &na) ||
      !fzn_arg_float_var_array(b, ARG(1), c->line, "variables", &x, &nx) ||
      !fzn_arg_float(b, ARG(2), c->line, "constant", &k))
    return false;
  if (!fzn_check_coefficients(b, c, na, nx)) return false;
  return fzn_posted(b, c, bb_post_float_lin(b->space, a, x, nx, (bb_rel)self->p1, k, r, &err), &err);
}

/* float_in(x, lo, hi) (+_reif). */
static bool post_float_in(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x;
  double lo, hi;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 3, self->p2, &r) || !fzn_arg_float_var(b, ARG(0), c->line, "x", &x) ||
      !fzn_arg_float(b, ARG(1), c->line, "lower bound", &lo) || !fzn_arg_float(b, ARG(2), c->line, "upper bound", &hi))
    return false;
  return fzn_posted(b, c, bb_post_float_in(b->space, x, lo, hi, r, &err), &err);
}

/* float_dom(x, [l1, u1, l2, u2, ...]): x in one of the intervals. */
static bool post_float_dom(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, n;
  double *bounds;
  bb_error err;
  if (!fzn_arg_float_var(b, ARG(0), c->line, "x", &x) ||
      !fzn_arg_float_array(b, ARG(1), c->line, "intervals", &bounds, &n))
    return false;
  if (n % 2) return fzn_report(b, c->line, "%s: %d bounds do not make intervals (an odd count)", c->name, n);
  return fzn_posted(b, c, bb_post_float_dom(b->space, x, bounds, n / 2, &err), &err);
}

/* float_plus/times/div/min/max(x, y, z) (p1 the operation). */
static bool post_float_op(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y, z;
  bb_error err;
  if (!fzn_arg_float_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_float_var(b, ARG(1), c->line, "y", &y) ||
      !fzn_arg_float_var(b, ARG(2), c->line, "z", &z))
    return false;
  return fzn_posted(b, c, bb_post_float_op(b->space, (bb_float_op)self->p1, x, y, z, &err), &err);
}

/* float_pow(x, y, z): an exponent that is a constant integer uses Gecode's exact power. */
static bool post_float_pow(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, y, z, y_int = 0;
  bool y_is_int = false;
  double k;
  bb_error err;
  if (fzn_arg_is_par(b, ARG(1))) {
    if (!fzn_arg_float(b, ARG(1), c->line, "exponent", &k)) return false;
    y_is_int = k == floor(k) && fabs(k) <= 1e9;
    if (y_is_int) y_int = (int)k;
  }
  if (!fzn_arg_float_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_float_var(b, ARG(1), c->line, "y", &y) ||
      !fzn_arg_float_var(b, ARG(2), c->line, "z", &z))
    return false;
  return fzn_posted(b, c, bb_post_float_pow(b->space, x, y, y_is_int, y_int, z, &err), &err);
}

/* float_abs, float_sqrt, float_exp, ... (x, y): y = f(x), p1 the function. */
static bool post_float_fn(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y;
  bb_error err;
  if (!fzn_arg_float_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_float_var(b, ARG(1), c->line, "y", &y)) return false;
  return fzn_posted(b, c, bb_post_float_fn(b->space, (bb_float_fn)self->p1, x, y, &err), &err);
}

static bool post_int2float(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, y;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_float_var(b, ARG(1), c->line, "y", &y)) return false;
  return fzn_posted(b, c, bb_post_int2float(b->space, x, y, &err), &err);
}

/* array_float_element(idx, as, z) (p1 = 0) and array_var_float_element (p1 = 1). */
static bool post_float_element(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int idx, z, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_float_var(b, ARG(2), c->line, "result", &z))
    return false;
  if (self->p1) {
    int *xs;
    if (!fzn_arg_float_var_array(b, ARG(1), c->line, "array", &xs, &n)) return false;
    return fzn_posted(b, c, bb_post_float_element_var(b->space, idx, xs, n, 1, z, &err), &err);
  }
  double *vals;
  if (!fzn_arg_float_array(b, ARG(1), c->line, "array", &vals, &n)) return false;
  return fzn_posted(b, c, bb_post_float_element_const(b->space, idx, vals, n, 1, z, &err), &err);
}

/* array_float_maximum / array_float_minimum(m, x) (p1 = 1 for the maximum). */
static bool post_float_max_array(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int m, *xs, n;
  bb_error err;
  if (!fzn_arg_float_var(b, ARG(0), c->line, "m", &m) || !fzn_arg_float_var_array(b, ARG(1), c->line, "array", &xs, &n))
    return false;
  return fzn_posted(b, c, bb_post_float_max_array(b->space, m, xs, n, self->p1 != 0, &err), &err);
}

#define FREL(name, rel)                                                                                                \
  {"float_" name, 2, post_float_rel, rel, BB_REIF_NONE}, {"float_" name "_reif", 3, post_float_rel, rel, BB_REIF_EQV}, \
  {                                                                                                                    \
    "float_" name "_imp", 3, post_float_rel, rel, BB_REIF_IMP                                                          \
  }
#define FLIN(name, rel)                                                   \
  {"float_lin_" name, 3, post_float_lin, rel, BB_REIF_NONE},              \
      {"float_lin_" name "_reif", 4, post_float_lin, rel, BB_REIF_EQV}, { \
    "float_lin_" name "_imp", 4, post_float_lin, rel, BB_REIF_IMP         \
  }
#define FFN(name, fn) \
  { "float_" name, 2, post_float_fn, fn, 0 }
#define FOP(name, op) \
  { "float_" name, 3, post_float_op, op, 0 }

const fzn_builtin fzn_float_builtins[] = {FREL("eq", BB_EQ),
                                          FREL("ne", BB_NE),
                                          FREL("le", BB_LE),
                                          FREL("lt", BB_LT),
                                          FLIN("eq", BB_EQ),
                                          FLIN("ne", BB_NE),
                                          FLIN("le", BB_LE),
                                          FLIN("lt", BB_LT),
                                          {"float_in", 3, post_float_in, 0, BB_REIF_NONE},
                                          {"float_in_reif", 4, post_float_in, 0, BB_REIF_EQV},
                                          {"float_in_imp", 4, post_float_in, 0, BB_REIF_IMP},
                                          {"float_dom", 2, post_float_dom, 0, 0},
                                          FOP("plus", BB_FLOAT_PLUS),
                                          FOP("times", BB_FLOAT_TIMES),
                                          FOP("div", BB_FLOAT_DIV),
                                          FOP("min", BB_FLOAT_MIN),
                                          FOP("max", BB_FLOAT_MAX),
                                          {"float_pow", 3, post_float_pow, 0, 0},
                                          FFN("abs", BB_FLOAT_ABS),
                                          FFN("sqrt", BB_FLOAT_SQRT),
                                          FFN("exp", BB_FLOAT_EXP),
                                          FFN("ln", BB_FLOAT_LN),
                                          FFN("log10", BB_FLOAT_LOG10),
                                          FFN("log2", BB_FLOAT_LOG2),
                                          FFN("sin", BB_FLOAT_SIN),
                                          FFN("cos", BB_FLOAT_COS),
                                          FFN("tan", BB_FLOAT_TAN),
                                          FFN("asin", BB_FLOAT_ASIN),
                                          FFN("acos", BB_FLOAT_ACOS),
                                          FFN("atan", BB_FLOAT_ATAN),
                                          FFN("sinh", BB_FLOAT_SINH),
                                          FFN("cosh", BB_FLOAT_COSH),
                                          FFN("tanh", BB_FLOAT_TANH),
                                          FFN("asinh", BB_FLOAT_ASINH),
                                          FFN("acosh", BB_FLOAT_ACOSH),
                                          FFN("atanh", BB_FLOAT_ATANH),
                                          {"int2float", 2, post_int2float, 0, 0},
                                          {"array_float_element", 3, post_float_element, 0, 0},
                                          {"array_var_float_element", 3, post_float_element, 1, 0},
                                          {"array_float_maximum", 2, post_float_max_array, 1, 0},
                                          {"array_float_minimum", 2, post_float_max_array, 0, 0},
                                          {NULL, 0, NULL, 0, 0}};
