/* Float variables: Gecode's float module (interval domains of doubles) behind the C API.
 *
 * A float variable's domain is a closed interval [min, max]. Propagation narrows it with
 * outward rounding, so a constraint is never lost to rounding; a variable counts as
 * assigned once no double lies strictly between its bounds (Gecode's "tight" interval),
 * and a float_search with a precision may stop splitting earlier (bb_branch_float).
 *
 * Conventions are those of bb_post.h (statuses, bb_reif, variables as indexes); float
 * variables have their own index space (bb_float_var). Unbounded sides are given as
 * -HUGE_VAL / HUGE_VAL and become Gecode's float limits. */
#ifndef BB_FLOAT_H
#define BB_FLOAT_H

#include "bb_post.h"
#include "bb_search.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Variables (float.cpp) --------------------------------------------------------- */

/* A float variable with domain [lo, hi]; -1 with err for an empty or NaN domain. */
int bb_float_var(bb_space *space, double lo, double hi, bb_error *err);
int bb_float_var_count(const bb_space *space);
double bb_float_min(const bb_space *space, int var);
double bb_float_max(const bb_space *space, int var);
bool bb_float_assigned(const bb_space *space, int var);
/* The value FlatZinc output shows for a solution's float variable: for an assigned
 * (tight) interval the bound nearest zero, as fzn-gecode prints it; for an interval that a
 * float_search's precision left wider, its midpoint. */
double bb_float_value(const bb_space *space, int var);

/* The objective for branch and bound over a float variable: every later solution is
 * strictly better than the last one's interval, by more than step (>= 0; Gecode's
 * FlatZinc -step option, 0 by default). */
bb_status bb_space_set_float_objective(bb_space *space, bb_objective_sense sense, int float_var, double step,
                                       bb_error *err);

/* A brancher that splits the float objective first (lower half first when minimising,
 * upper half when maximising), for the search to find good objective values before it
 * fixes the other variables: with Gecode's order (objective last), branch and bound on a
 * float objective often improves it by tiny amounts for minutes. Call it after
 * bb_space_set_float_objective and before the other branchings. */
bb_status bb_branch_float_objective_first(bb_space *space, bb_error *err);

/* ---- Posting (post_float.cpp) -------------------------------------------------------- */

/* float_eq/ne/le/lt (+_reif/_imp; ge/gt too): x rel y, and x rel c. */
bb_status bb_post_float_rel(bb_space *s, int x, bb_rel rel, int y, bb_reif reif, bb_error *err);
bb_status bb_post_float_rel_const(bb_space *s, int x, bb_rel rel, double c, bb_reif reif, bb_error *err);
/* float_lin_eq/ne/le/lt (+_reif/_imp): sum coeffs[i]*vars[i] rel c. */
bb_status bb_post_float_lin(bb_space *s, const double *coeffs, const int *vars, int count, bb_rel rel, double c,
                            bb_reif reif, bb_error *err);
/* float_in (+_reif/_imp): lo <= x <= hi. float_dom: x in the union of the intervals
 * [bounds[2k], bounds[2k+1]], k < interval_count. */
bb_status bb_post_float_in(bb_space *s, int x, double lo, double hi, bb_reif reif, bb_error *err);
bb_status bb_post_float_dom(bb_space *s, int x, const double *bounds, int interval_count, bb_error *err);

/* Binary operations, z the result: float_plus x+y=z, float_times x*y=z, float_div x/y=z
 * (y != 0), float_min, float_max, float_pow x^y=z (see bb_post_float_pow). */
typedef enum bb_float_op { BB_FLOAT_PLUS = 0, BB_FLOAT_TIMES, BB_FLOAT_DIV, BB_FLOAT_MIN, BB_FLOAT_MAX } bb_float_op;
bb_status bb_post_float_op(bb_space *s, bb_float_op op, int x, int y, int z, bb_error *err);
/* x^y = z. A constant integer exponent (y_is_int: y_int) is Gecode's exact power (a
 * negative one is 1/x^|y|); otherwise x^y = exp(y ln x), defined for x > 0 only, so x > 0
 * is posted too (MiniZinc leaves a negative base with a fractional exponent undefined). */
bb_status bb_post_float_pow(bb_space *s, int x, int y, bool y_is_int, int y_int, int z, bb_error *err);

/* Functions y = f(x): float_abs, float_sqrt, float_exp, float_ln, float_log10,
 * float_log2, the trigonometric functions and their inverses, and the hyperbolic ones
 * (which Gecode lacks: posted through exp, or as the inverse of sinh/cosh/tanh). */
typedef enum bb_float_fn {
  BB_FLOAT_ABS = 0,
  BB_FLOAT_SQRT,
  BB_FLOAT_EXP,
  BB_FLOAT_LN,
  BB_FLOAT_LOG10,
  BB_FLOAT_LOG2,
  BB_FLOAT_SIN,
  BB_FLOAT_COS,
  BB_FLOAT_TAN,
  BB_FLOAT_ASIN,
  BB_FLOAT_ACOS,
  BB_FLOAT_ATAN,
  BB_FLOAT_SINH,
  BB_FLOAT_COSH,
  BB_FLOAT_TANH,
  BB_FLOAT_ASINH,
  BB_FLOAT_ACOSH,
  BB_FLOAT_ATANH
} bb_float_fn;
bb_status bb_post_float_fn(bb_space *s, bb_float_fn fn, int x, int y, bb_error *err);

/* int2float: the float y equals the int x. */
bb_status bb_post_int2float(bb_space *s, int int_x, int float_y, bb_error *err);
/* array_float_element / array_var_float_element: array[idx] = z, the array indexed from
 * `offset` (constants vals, or float variables vars). */
bb_status bb_post_float_element_const(bb_space *s, int idx, const double *vals, int count, int offset, int z,
                                      bb_error *err);
bb_status bb_post_float_element_var(bb_space *s, int idx, const int *vars, int count, int offset, int z, bb_error *err);
/* array_float_maximum / array_float_minimum: m = max (min) of vars. */
bb_status bb_post_float_max_array(bb_space *s, int m, const int *vars, int count, bool is_max, bb_error *err);

/* ---- Branching (float.cpp) ----------------------------------------------------------- */

/* float_search(vars, precision, var, val): var is one of bb_var_sel (input_order,
 * first_fail, anti_first_fail, smallest, largest, occurrence, most_constrained, the afc /
 * action families, random), val BB_VAL_SPLIT (indomain_split: the lower half first) or
 * BB_VAL_REVERSE_SPLIT (the upper half first). A variable whose interval is no wider than
 * precision (> 0) is not split further; precision <= 0 splits down to tight intervals.
 * These variables are then left out of bb_branch_default's float branching. */
bb_status bb_branch_float(bb_space *s, const int *vars, int count, double precision, bb_var_sel var, bb_val_sel val,
                          const bb_branch_options *options, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
