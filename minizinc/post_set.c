/* Posters for the set builtins of FlatZinc. */
#include "registry.h"

bool fzn_post_int_in_const_set(fzn_builder *b, const fzn_constraint *c, int mode);

/* set_in(x, S): S a constant set (the int builtin) or a set variable. */
static bool post_set_in(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  if (fzn_arg_is_par(b, ARG(1))) return fzn_post_int_in_const_set(b, c, self->p2);
  int x, s;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 2, self->p2, &r) || !fzn_arg_int_var(b, ARG(0), c->line, "x", &x) ||
      !fzn_arg_set_var(b, ARG(1), c->line, "set", &s))
    return false;
  return fzn_posted(b, c, bb_post_set_in(b->space, x, s, r, &err), &err);
}

static bool post_set_card(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int s, x;
  bb_error err;
  if (!fzn_arg_set_var(b, ARG(0), c->line, "set", &s) || !fzn_arg_int_var(b, ARG(1), c->line, "cardinality", &x))
    return false;
  return fzn_posted(b, c, bb_post_set_card(b->space, s, x, &err), &err);
}

static bool post_set_op(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y, z;
  bb_error err;
  if (!fzn_arg_set_var(b, ARG(0), c->line, "x", &x) || !fzn_arg_set_var(b, ARG(1), c->line, "y", &y) ||
      !fzn_arg_set_var(b, ARG(2), c->line, "z", &z))
    return false;
  return fzn_posted(b, c, bb_post_set_op(b->space, x, (bb_set_op)self->p1, y, z, &err), &err);
}

static bool post_set_rel(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int x, y;
  bb_reif r;
  bb_error err;
  if (!fzn_reif_arg(b, c, 2, self->p2, &r) || !fzn_arg_set_var(b, ARG(0), c->line, "x", &x) ||
      !fzn_arg_set_var(b, ARG(1), c->line, "y", &y))
    return false;
  return fzn_posted(b, c, bb_post_set_rel(b->space, x, (bb_set_rel)self->p1, y, r, &err), &err);
}

static bool post_set_element(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int idx, z;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_set_var(b, ARG(2), c->line, "result", &z))
    return false;
  if (self->p1) {
    int *sets, n;
    if (!fzn_arg_set_var_array(b, ARG(1), c->line, "array", &sets, &n)) return false;
    return fzn_posted(b, c, bb_post_array_var_set_element(b->space, idx, sets, n, 1, z, &err), &err);
  }
  int *values, *sizes, n;
  if (!fzn_arg_set_array(b, ARG(1), c->line, "array", &values, &sizes, &n)) return false;
  return fzn_posted(b, c, bb_post_array_set_element(b->space, idx, values, sizes, n, 1, z, &err), &err);
}

bool fzn_array_is_par(fzn_builder *b, const fzn_expr *e); /* post_int.c */

/* bamboo_array_set_element_nonshifted(idx, x, offset, z) (redefinitions-2.0.2.mzn). */
static bool post_set_element_nonshifted(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int idx, offset, z;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "index", &idx) || !fzn_arg_int(b, ARG(2), c->line, "offset", &offset) ||
      !fzn_arg_set_var(b, ARG(3), c->line, "result", &z))
    return false;
  if (fzn_array_is_par(b, ARG(1))) {
    int *values, *sizes, n;
    if (!fzn_arg_set_array(b, ARG(1), c->line, "array", &values, &sizes, &n)) return false;
    return fzn_posted(b, c, bb_post_array_set_element(b->space, idx, values, sizes, n, offset, z, &err), &err);
  }
  int *sets, n;
  if (!fzn_arg_set_var_array(b, ARG(1), c->line, "array", &sets, &n)) return false;
  return fzn_posted(b, c, bb_post_array_var_set_element(b->space, idx, sets, n, offset, z, &err), &err);
}

#define SREL(name, rel)                                                                                          \
  {"set_" name, 2, post_set_rel, rel, BB_REIF_NONE}, {"set_" name "_reif", 3, post_set_rel, rel, BB_REIF_EQV}, { \
    "set_" name "_imp", 3, post_set_rel, rel, BB_REIF_IMP                                                        \
  }

const fzn_builtin fzn_set_builtins[] = {{"set_in", 2, post_set_in, 0, BB_REIF_NONE},
                                        {"set_in_reif", 3, post_set_in, 0, BB_REIF_EQV},
                                        {"set_in_imp", 3, post_set_in, 0, BB_REIF_IMP},
                                        {"set_card", 2, post_set_card, 0, 0},
                                        {"set_union", 3, post_set_op, BB_SET_UNION, 0},
                                        {"set_intersect", 3, post_set_op, BB_SET_INTERSECT, 0},
                                        {"set_diff", 3, post_set_op, BB_SET_DIFF, 0},
                                        {"set_symdiff", 3, post_set_op, BB_SET_SYMDIFF, 0},
                                        SREL("eq", BB_SET_EQ),
                                        SREL("ne", BB_SET_NE),
                                        SREL("subset", BB_SET_SUBSET),
                                        SREL("superset", BB_SET_SUPERSET),
                                        SREL("le", BB_SET_LE),
                                        SREL("lt", BB_SET_LT),
                                        {"set_disjoint", 2, post_set_rel, BB_SET_DISJOINT, BB_REIF_NONE},
                                        {"array_set_element", 3, post_set_element, 0, 0},
                                        {"array_var_set_element", 3, post_set_element, 1, 0},
                                        {"bamboo_array_set_element_nonshifted", 4, post_set_element_nonshifted, 0, 0},
                                        {"fzn_disjoint", 2, post_set_rel, BB_SET_DISJOINT, BB_REIF_NONE},
                                        {NULL, 0, NULL, 0, 0}};
