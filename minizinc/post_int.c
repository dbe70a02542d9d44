/* Posters for the integer builtins of FlatZinc (std/flatzinc_builtins.mzn). */
#include "registry.h"

/* int_eq, int_ne, int_le, int_lt (p1 = relation, p2 = reification mode). */
static bool post_int_rel(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, c->count - 1, self->p2, &r) || !fzn_arg_int_var(b, ARG(0), c->line, "x", &x)) return false;
  if (fzn_arg_is_par(b, ARG(1))) {
    int k;
    if (!fzn_arg_int(b, ARG(1), c->line, "y", &k)) return false;
    return fzn_posted(b, c, bb_post_int_rel_const(b->space, x, (bb_rel)self->p1, k, r, fzn_ipl_of(c), &err), &err);
  }
  if (!fzn_arg_int_var(b, ARG(1), c->line, "y", &y)) return false;
  return fzn_posted(b, c, bb_post_int_rel(b->space, x, (bb_rel)self->p1, y, r, fzn_ipl_of(c), &err), &err);
}

/* int_lin over bool2int images: sum a[i] * bools[i] rel c, or (one integer variable y with
 * coefficient -1 and c = 0, the usual `defines_var` shape) sum a[i] * bools[i] rel y. Gecode's
 * own front end does the same: a Boolean linear propagator instead of n channels. Returns
 * false (nothing posted) when the shape does not fit. */
static bool post_as_bool_lin(fzn_builder *b, const fzn_constraint *c, const int *a, const int *x, int n, int k,
                             bb_rel rel, bb_reif r, bool *ok) {
  if (!b->bool_image || n == 0) return false;
  int other = -1;
  for (int i = 0; i < n; i++) {
    if (x[i] < b->bool_image_len && b->bool_image[x[i]] >= 0) continue;
    if (other >= 0) return false;
    other = i;
  }
  if (other >= 0 && (a[other] != -1 || k != 0)) return false;
  int *coeffs = fzn_scratch(b, (size_t)n * sizeof *coeffs, c->line);
  int *bools = fzn_scratch(b, (size_t)n * sizeof *bools, c->line);
  if (!coeffs || !bools) return (*ok = false), true;
  int m = 0;
  for (int i = 0; i < n; i++)
    if (i != other) coeffs[m] = a[i], bools[m++] = b->bool_image[x[i]];
  bb_error err;
  bb_status st = other >= 0 ? bb_post_bool_lin(b->space, coeffs, bools, m, rel, x[other], r, fzn_ipl_of(c), &err)
                            : bb_post_bool_lin_const(b->space, coeffs, bools, m, rel, k, r, fzn_ipl_of(c), &err);
  *ok = fzn_posted(b, c, st, &err);
  return true;
}

/* int_lin_eq/ne/le(a, x, c). */
static bool post_int_lin(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *a, *x, na, nx, k;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, c->count - 1, self->p2, &r) ||
      !fzn_arg_int_array(b, ARG(0), c->line, "coefficients", &a, &na) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "variables", &x, &nx) ||
      !fzn_arg_int(b, ARG(2), c->line, "constant", &k))
    return false;
  if (!fzn_check_coefficients(b, c, na, nx)) return false;
  bool ok;
  if (post_as_bool_lin(b, c, a, x, nx, k, (bb_rel)self->p1, r, &ok)) return ok;
  return fzn_posted(b, c, bb_post_int_lin(b->space, a, x, nx, (bb_rel)self->p1, k, r, fzn_ipl_of(c), &err), &err);
}

typedef bb_status (*ternary_fn)(bb_space *, int, int, int, bb_ipl, bb_error *);
typedef bb_status (*binary_fn)(bb_space *, int, int, bb_ipl, bb_error *);

static const ternary_fn ternaries[] = {bb_post_int_plus, bb_post_int_minus, bb_post_int_times, bb_post_int_div,
                                       bb_post_int_mod,  bb_post_int_min,   bb_post_int_max,   bb_post_int_pow};
enum { T_PLUS, T_MINUS, T_TIMES, T_DIV, T_MOD, T_MIN, T_MAX, T_POW };

static bool post_ternary(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y, z;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_int_var(b, ARG(1), c->line, "y", &y) ||
      !fzn_arg_int_var(b, ARG(2), c->line, "z", &z))
    return false;
  return fzn_posted(b, c, ternaries[self->p1](b->space, x, y, z, fzn_ipl_of(c), &err), &err);
}

static bool post_binary(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, z;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_int_var(b, ARG(1), c->line, "z", &z)) return false;
  binary_fn fn = self->p1 ? bb_post_int_negate : bb_post_int_abs;
  return fzn_posted(b, c, fn(b->space, x, z, fzn_ipl_of(c), &err), &err);
}

static bool post_int_pow_fixed(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, e, z;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_int(b, ARG(1), c->line, "exponent", &e) ||
      !fzn_arg_int_var(b, ARG(2), c->line, "z", &z))
    return false;
  return fzn_posted(b, c, bb_post_int_pow_const(b->space, x, e, z, fzn_ipl_of(c), &err), &err);
}

/* array_int_element(idx, values, z) and array_var_int_element(idx, vars, z), 1-based. */
static bool post_element(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int idx, z, *a, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_int_var(b, ARG(2), c->line, "result", &z))
    return false;
  if (self->p1) {
    if (!fzn_arg_int_var_array(b, ARG(1), c->line, "array", &a, &n)) return false;
    return fzn_posted(b, c, bb_post_array_var_int_element(b->space, idx, a, n, 1, z, fzn_ipl_of(c), &err), &err);
  }
  if (!fzn_arg_int_array(b, ARG(1), c->line, "array", &a, &n)) return false;
  return fzn_posted(b, c, bb_post_array_int_element(b->space, idx, a, n, 1, z, fzn_ipl_of(c), &err), &err);
}

/* Whether an array argument holds constants only (a literal of constants, or a name
 * declared without `var`), so an element poster can take Gecode's constant form. */
bool fzn_array_is_par(fzn_builder *b, const fzn_expr *e);
bool fzn_array_is_par(fzn_builder *b, const fzn_expr *e) {
  const fzn_decl *d = fzn_decl_of(b, e);
  if (d) return !d->type.is_var;
  if (e->kind == FZN_E_INTS || e->kind == FZN_E_BOOLS) return true;
  if (e->kind != FZN_E_ARRAY) return false;
  for (int k = 0; k < e->u.array.count; k++)
    if (!fzn_arg_is_par(b, e->u.array.elems[k])) return false;
  return true;
}

/* bamboo_array_int_element_nonshifted(idx, x, offset, z): x[idx] = z, x's index set
 * starting at offset (redefinitions-2.0.2.mzn); x may be constants. */
static bool post_element_nonshifted(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int idx, offset, z, *a, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_int(b, ARG(2), c->line, "offset", &offset) ||
      !fzn_arg_int_var(b, ARG(3), c->line, "result", &z))
    return false;
  if (fzn_array_is_par(b, ARG(1))) {
    if (!fzn_arg_int_array(b, ARG(1), c->line, "array", &a, &n)) return false;
    return fzn_posted(b, c, bb_post_array_int_element(b->space, idx, a, n, offset, z, fzn_ipl_of(c), &err), &err);
  }
  if (!fzn_arg_int_var_array(b, ARG(1), c->line, "array", &a, &n)) return false;
  return fzn_posted(b, c, bb_post_array_var_int_element(b->space, idx, a, n, offset, z, fzn_ipl_of(c), &err), &err);
}

/* The shape of bamboo_array_*_element2d_nonshifted(row, col, x, row_offset, col_offset,
 * cols, z) once x's length n is known: rows = n / cols. */
bool fzn_element2d_shape(fzn_builder *b, const fzn_constraint *c, int n, int *row_offset, int *col_offset, int *cols,
                         int *rows);
bool fzn_element2d_shape(fzn_builder *b, const fzn_constraint *c, int n, int *row_offset, int *col_offset, int *cols,
                         int *rows) {
  if (!fzn_arg_int(b, ARG(3), c->line, "row offset", row_offset) ||
      !fzn_arg_int(b, ARG(4), c->line, "column offset", col_offset) ||
      !fzn_arg_int(b, ARG(5), c->line, "columns", cols))
    return false;
  if (*cols <= 0 || n % *cols != 0)
    return fzn_report(b, c->line, "%s: %d values do not make rows of %d columns", c->name, n, *cols);
  *rows = n / *cols;
  return true;
}

/* bamboo_array_int_element2d_nonshifted(row, col, x, row_offset, col_offset, cols, z):
 * x row-major (redefinitions-2.5.2.mzn); x may be constants. */
static bool post_element2d(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int row, col, z, *a, n, ro, co, cols, rows;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "row", &row) || !fzn_arg_int_var(b, ARG(1), c->line, "column", &col) ||
      !fzn_arg_int_var(b, ARG(6), c->line, "result", &z))
    return false;
  bool par = fzn_array_is_par(b, ARG(2));
  if (par ? !fzn_arg_int_array(b, ARG(2), c->line, "array", &a, &n)
          : !fzn_arg_int_var_array(b, ARG(2), c->line, "array", &a, &n))
    return false;
  if (!fzn_element2d_shape(b, c, n, &ro, &co, &cols, &rows)) return false;
  bb_status st =
      par ? bb_post_array_int_element2d(b->space, row, col, a, rows, cols, ro, co, z, fzn_ipl_of(c), &err)
          : bb_post_array_var_int_element2d(b->space, row, col, a, rows, cols, ro, co, z, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

/* array_int_maximum(m, x) / array_int_minimum(m, x). */
static bool post_extremum(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int m, *x, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "m", &m) || !fzn_arg_int_var_array(b, ARG(1), c->line, "x", &x, &n))
    return false;
  if (!fzn_check_nonempty(b, c, n)) return false;
  bb_status st = self->p1 ? bb_post_array_int_maximum(b->space, m, x, n, fzn_ipl_of(c), &err)
                          : bb_post_array_int_minimum(b->space, m, x, n, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

/* set_in(x, S) with a constant S (p2 = reification); a set variable goes to post_set.c. */
bool fzn_post_int_in_const_set(fzn_builder *b, const fzn_constraint *c, int mode);
bool fzn_post_int_in_const_set(fzn_builder *b, const fzn_constraint *c, int mode) {
  int x, *vals, n;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, c->count - 1, mode, &r) || !fzn_arg_int_var(b, ARG(0), c->line, "x", &x) ||
      !fzn_arg_int_set(b, ARG(1), c->line, "set", &vals, &n))
    return false;
  return fzn_posted(b, c, bb_post_int_in_set(b->space, x, vals, n, r, &err), &err);
}

#define REL4(pfx, fn)                                                                        \
  {pfx "eq", 2, fn, BB_EQ, BB_REIF_NONE}, {pfx "eq_reif", 3, fn, BB_EQ, BB_REIF_EQV},        \
      {pfx "eq_imp", 3, fn, BB_EQ, BB_REIF_IMP}, {pfx "ne", 2, fn, BB_NE, BB_REIF_NONE},     \
      {pfx "ne_reif", 3, fn, BB_NE, BB_REIF_EQV}, {pfx "ne_imp", 3, fn, BB_NE, BB_REIF_IMP}, \
      {pfx "le", 2, fn, BB_LE, BB_REIF_NONE}, {pfx "le_reif", 3, fn, BB_LE, BB_REIF_EQV},    \
      {pfx "le_imp", 3, fn, BB_LE, BB_REIF_IMP}, {pfx "lt", 2, fn, BB_LT, BB_REIF_NONE},     \
      {pfx "lt_reif", 3, fn, BB_LT, BB_REIF_EQV}, {                                          \
    pfx "lt_imp", 3, fn, BB_LT, BB_REIF_IMP                                                  \
  }

const fzn_builtin fzn_int_builtins[] = {REL4("int_", post_int_rel),
                                        {"int_lin_eq", 3, post_int_lin, BB_EQ, BB_REIF_NONE},
                                        {"int_lin_eq_reif", 4, post_int_lin, BB_EQ, BB_REIF_EQV},
                                        {"int_lin_eq_imp", 4, post_int_lin, BB_EQ, BB_REIF_IMP},
                                        {"int_lin_ne", 3, post_int_lin, BB_NE, BB_REIF_NONE},
                                        {"int_lin_ne_reif", 4, post_int_lin, BB_NE, BB_REIF_EQV},
                                        {"int_lin_ne_imp", 4, post_int_lin, BB_NE, BB_REIF_IMP},
                                        {"int_lin_le", 3, post_int_lin, BB_LE, BB_REIF_NONE},
                                        {"int_lin_le_reif", 4, post_int_lin, BB_LE, BB_REIF_EQV},
                                        {"int_lin_le_imp", 4, post_int_lin, BB_LE, BB_REIF_IMP},
                                        {"int_lin_lt", 3, post_int_lin, BB_LT, BB_REIF_NONE},
                                        {"int_lin_lt_reif", 4, post_int_lin, BB_LT, BB_REIF_EQV},
                                        {"int_lin_lt_imp", 4, post_int_lin, BB_LT, BB_REIF_IMP},
                                        {"int_plus", 3, post_ternary, T_PLUS, 0},
                                        {"int_minus", 3, post_ternary, T_MINUS, 0},
                                        {"int_times", 3, post_ternary, T_TIMES, 0},
                                        {"int_div", 3, post_ternary, T_DIV, 0},
                                        {"int_mod", 3, post_ternary, T_MOD, 0},
                                        {"int_min", 3, post_ternary, T_MIN, 0},
                                        {"int_max", 3, post_ternary, T_MAX, 0},
                                        {"int_pow", 3, post_ternary, T_POW, 0},
                                        {"int_pow_fixed", 3, post_int_pow_fixed, 0, 0},
                                        {"int_abs", 2, post_binary, 0, 0},
                                        {"int_negate", 2, post_binary, 1, 0},
                                        {"array_int_element", 3, post_element, 0, 0},
                                        {"array_var_int_element", 3, post_element, 1, 0},
                                        {"bamboo_array_int_element_nonshifted", 4, post_element_nonshifted, 0, 0},
                                        {"bamboo_array_int_element2d_nonshifted", 7, post_element2d, 0, 0},
                                        {"array_int_maximum", 2, post_extremum, 1, 0},
                                        {"array_int_minimum", 2, post_extremum, 0, 0},
                                        {NULL, 0, NULL, 0, 0}};
