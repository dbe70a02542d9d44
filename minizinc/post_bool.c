/* Posters for the Boolean builtins of FlatZinc. */
#include "registry.h"

/* bool_eq/ne/le/lt (p1 relation, p2 reification). */
static bool post_bool_rel(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 2, self->p2, &r) || !fzn_arg_bool_var(b, ARG(0), c->line, "a", &x) ||
      !fzn_arg_bool_var(b, ARG(1), c->line, "b", &y))
    return false;
  return fzn_posted(b, c, bb_post_bool_rel(b->space, x, (bb_rel)self->p1, y, r, &err), &err);
}

/* bool_and/or/xor(a, b, r): r <-> (a op b) (p2 = EQV, or IMP for _imp); bool_xor(a, b). */
static bool post_bool_op(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 2, c->count == 3 ? self->p2 : BB_REIF_NONE, &r) ||
      !fzn_arg_bool_var(b, ARG(0), c->line, "a", &x) || !fzn_arg_bool_var(b, ARG(1), c->line, "b", &y))
    return false;
  return fzn_posted(b, c, bb_post_bool_op(b->space, (bb_bool_op)self->p1, x, y, r, &err), &err);
}

static bool post_bool_not(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, y;
  bb_error err;
  if (!fzn_arg_bool_var(b, ARG(0), c->line, "a", &x) || !fzn_arg_bool_var(b, ARG(1), c->line, "b", &y)) return false;
  return fzn_posted(b, c, bb_post_bool_not(b->space, x, y, &err), &err);
}

/* array_bool_and/or(as, r) (p2 EQV or IMP), array_bool_xor(as). */
static bool post_array_bool_op(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *xs, n;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 1, c->count == 2 ? self->p2 : BB_REIF_NONE, &r) ||
      !fzn_arg_bool_var_array(b, ARG(0), c->line, "array", &xs, &n))
    return false;
  return fzn_posted(b, c, bb_post_array_bool_op(b->space, (bb_bool_op)self->p1, xs, n, r, &err), &err);
}

/* bool_clause(pos, neg) (+_reif/_imp). */
static bool post_clause(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *pos, *neg, np, nn;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 2, self->p2, &r) || !fzn_arg_bool_var_array(b, ARG(0), c->line, "positive", &pos, &np) ||
      !fzn_arg_bool_var_array(b, ARG(1), c->line, "negative", &neg, &nn))
    return false;
  return fzn_posted(b, c, bb_post_bool_clause(b->space, pos, np, neg, nn, r, &err), &err);
}

/* bool_lin_eq(a, x, var int c) / bool_lin_le(a, x, int c). */
static bool post_bool_lin(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *a, *x, na, nx, y;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 3, self->p2, &r) || !fzn_arg_int_array(b, ARG(0), c->line, "coefficients", &a, &na) ||
      !fzn_arg_bool_var_array(b, ARG(1), c->line, "variables", &x, &nx))
    return false;
  if (!fzn_check_coefficients(b, c, na, nx)) return false;
  if (fzn_arg_is_par(b, ARG(2))) {
    int k;
    if (!fzn_arg_int(b, ARG(2), c->line, "constant", &k)) return false;
    return fzn_posted(b, c, bb_post_bool_lin_const(b->space, a, x, nx, (bb_rel)self->p1, k, r, fzn_ipl_of(c), &err),
                      &err);
  }
  if (!fzn_arg_int_var(b, ARG(2), c->line, "c", &y)) return false;
  return fzn_posted(b, c, bb_post_bool_lin(b->space, a, x, nx, (bb_rel)self->p1, y, r, fzn_ipl_of(c), &err), &err);
}

static bool post_bool2int(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int x, y;
  bb_error err;
  if (!fzn_arg_bool_var(b, ARG(0), c->line, "a", &x) || !fzn_arg_int_var(b, ARG(1), c->line, "b", &y)) return false;
  return fzn_posted(b, c, bb_post_bool2int(b->space, x, y, &err), &err);
}

static bool post_bool_element(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int idx, z, *a, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_bool_var(b, ARG(2), c->line, "result", &z))
    return false;
  if (self->p1) {
    if (!fzn_arg_bool_var_array(b, ARG(1), c->line, "array", &a, &n)) return false;
    return fzn_posted(b, c, bb_post_array_var_bool_element(b->space, idx, a, n, 1, z, &err), &err);
  }
  if (!fzn_arg_bool_array(b, ARG(1), c->line, "array", &a, &n)) return false;
  return fzn_posted(b, c, bb_post_array_bool_element(b->space, idx, a, n, 1, z, &err), &err);
}

bool fzn_array_is_par(fzn_builder *b, const fzn_expr *e); /* post_int.c */
bool fzn_element2d_shape(fzn_builder *b, const fzn_constraint *c, int n, int *row_offset, int *col_offset, int *cols,
                         int *rows);

/* bamboo_array_bool_element_nonshifted(idx, x, offset, z) (redefinitions-2.0.2.mzn). */
static bool post_bool_element_nonshifted(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int idx, offset, z, *a, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_int(b, ARG(2), c->line, "offset", &offset) ||
      !fzn_arg_bool_var(b, ARG(3), c->line, "result", &z))
    return false;
  if (fzn_array_is_par(b, ARG(1))) {
    if (!fzn_arg_bool_array(b, ARG(1), c->line, "array", &a, &n)) return false;
    return fzn_posted(b, c, bb_post_array_bool_element(b->space, idx, a, n, offset, z, &err), &err);
  }
  if (!fzn_arg_bool_var_array(b, ARG(1), c->line, "array", &a, &n)) return false;
  return fzn_posted(b, c, bb_post_array_var_bool_element(b->space, idx, a, n, offset, z, &err), &err);
}

/* bamboo_array_bool_element2d_nonshifted(row, col, x, row_offset, col_offset, cols, z)
 * (redefinitions-2.5.2.mzn); constants become constant variables. */
static bool post_bool_element2d(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int row, col, z, *a, n, ro, co, cols, rows;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "row", &row) || !fzn_arg_int_var(b, ARG(1), c->line, "column", &col) ||
      !fzn_arg_bool_var(b, ARG(6), c->line, "result", &z) ||
      !fzn_arg_bool_var_array(b, ARG(2), c->line, "array", &a, &n) ||
      !fzn_element2d_shape(b, c, n, &ro, &co, &cols, &rows))
    return false;
  return fzn_posted(b, c, bb_post_array_var_bool_element2d(b->space, row, col, a, rows, cols, ro, co, z, &err), &err);
}

#define BREL(name, rel)                                                                                              \
  {"bool_" name, 2, post_bool_rel, rel, BB_REIF_NONE}, {"bool_" name "_reif", 3, post_bool_rel, rel, BB_REIF_EQV}, { \
    "bool_" name "_imp", 3, post_bool_rel, rel, BB_REIF_IMP                                                          \
  }
#define BOP(name, op) \
  {"bool_" name, 3, post_bool_op, op, BB_REIF_EQV}, { "bool_" name "_imp", 3, post_bool_op, op, BB_REIF_IMP }

const fzn_builtin fzn_bool_builtins[] = {
    BREL("eq", BB_EQ),
    BREL("ne", BB_NE),
    BREL("le", BB_LE),
    BREL("lt", BB_LT),
    BOP("and", BB_BOOL_AND),
    BOP("or", BB_BOOL_OR),
    {"bool_xor", -1, post_bool_op, BB_BOOL_XOR, BB_REIF_EQV}, /* 2 or 3 arguments */
    {"bool_xor_reif", 3, post_bool_op, BB_BOOL_XOR, BB_REIF_EQV},
    {"bool_xor_imp", 3, post_bool_op, BB_BOOL_XOR, BB_REIF_IMP},
    {"bool_not", 2, post_bool_not, 0, 0},
    {"array_bool_and", 2, post_array_bool_op, BB_BOOL_AND, BB_REIF_EQV},
    {"array_bool_and_imp", 2, post_array_bool_op, BB_BOOL_AND, BB_REIF_IMP},
    {"array_bool_or", 2, post_array_bool_op, BB_BOOL_OR, BB_REIF_EQV},
    {"array_bool_or_imp", 2, post_array_bool_op, BB_BOOL_OR, BB_REIF_IMP},
    {"array_bool_xor", 1, post_array_bool_op, BB_BOOL_XOR, BB_REIF_NONE},
    {"bool_clause", 2, post_clause, 0, BB_REIF_NONE},
    {"bool_clause_reif", 3, post_clause, 0, BB_REIF_EQV},
    {"bool_clause_imp", 3, post_clause, 0, BB_REIF_IMP},
    {"bool_lin_eq", 3, post_bool_lin, BB_EQ, BB_REIF_NONE},
    {"bool_lin_le", 3, post_bool_lin, BB_LE, BB_REIF_NONE},
    {"bool2int", 2, post_bool2int, 0, 0},
    {"array_bool_element", 3, post_bool_element, 0, 0},
    {"array_var_bool_element", 3, post_bool_element, 1, 0},
    {"bamboo_array_bool_element_nonshifted", 4, post_bool_element_nonshifted, 0, 0},
    {"bamboo_array_bool_element2d_nonshifted", 7, post_bool_element2d, 0, 0},
    {NULL, 0, NULL, 0, 0}};
