/* Posters for the native global constraints (NATIVES.md) other than stable matching, whose
 * forms are all in post_stable_matching.c. */

#include <stdlib.h>
#include "registry.h"

#include <string.h>

static bool post_all_different(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n)) return false;
  bb_status st =
      self->p1 ? bb_post_all_equal(b->space, x, n, &err) : bb_post_all_different(b->space, x, n, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

/* bamboo_circuit / bamboo_subcircuit(offset, x). */
static bool post_circuit(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int offset, *x, n;
  bb_error err;
  if (!fzn_arg_int(b, ARG(0), c->line, "offset", &offset) || !fzn_arg_int_var_array(b, ARG(1), c->line, "x", &x, &n))
    return false;
  bb_status st = self->p1 ? bb_post_subcircuit(b->space, x, n, offset, fzn_ipl_of(c), &err)
                          : bb_post_circuit(b->space, x, n, offset, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

/* bamboo_inverse(f, f_offset, invf, invf_offset). */
static bool post_inverse(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *f, *g, nf, ng, fo, go;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "f", &f, &nf) || !fzn_arg_int(b, ARG(1), c->line, "f offset", &fo) ||
      !fzn_arg_int_var_array(b, ARG(2), c->line, "invf", &g, &ng) ||
      !fzn_arg_int(b, ARG(3), c->line, "invf offset", &go))
    return false;
  return fzn_posted(b, c, bb_post_inverse(b->space, f, nf, fo, g, ng, go, fzn_ipl_of(c), &err), &err);
}

/* fzn_cumulative(s, d, r, b). */
static bool post_cumulative(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *s, *d, *r, ns, nd, nr, cap;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "starts", &s, &ns) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "durations", &d, &nd) ||
      !fzn_arg_int_var_array(b, ARG(2), c->line, "resources", &r, &nr) ||
      !fzn_arg_int_var(b, ARG(3), c->line, "capacity", &cap))
    return false;
  if (!fzn_check_same_length(b, c, ns, nd, "starts and durations") ||
      !fzn_check_same_length(b, c, ns, nr, "starts and resources"))
    return false;
  return fzn_posted(b, c, bb_post_cumulative(b->space, s, d, r, ns, cap, fzn_ipl_of(c), &err), &err);
}

/* fzn_disjunctive(s, d) / fzn_disjunctive_strict(s, d) (p1 = strict). */
static bool post_disjunctive(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *s, *d, ns, nd;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "starts", &s, &ns) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "durations", &d, &nd))
    return false;
  if (!fzn_check_same_length(b, c, ns, nd, "starts and durations")) return false;
  return fzn_posted(b, c, bb_post_disjunctive(b->space, s, d, ns, self->p1, fzn_ipl_of(c), &err), &err);
}

/* bamboo_table_int(x, t) / bamboo_table_bool(x, t) (p1 = bool), and their _reif forms
 * with b (p2 = the reification). */
static bool post_table(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, *t, n, nt;
  bb_reif r = {-1, (bb_reif_mode)self->p2};
  bb_error err;
  if (self->p2 != BB_REIF_NONE && !fzn_arg_bool_var(b, ARG(2), c->line, "reification", &r.bool_var)) return false;
  bool ok = self->p1 ? fzn_arg_bool_var_array(b, ARG(0), c->line, "x", &x, &n) &&
                           fzn_arg_bool_array(b, ARG(1), c->line, "table", &t, &nt)
                     : fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n) &&
                           fzn_arg_int_array(b, ARG(1), c->line, "table", &t, &nt);
  if (!ok) return false;
  if (n == 0 || nt % n != 0)
    return fzn_report(b, c->line, "%s: the table has %d values, which do not make rows of %d (one value per variable)",
                      c->name, nt, n);
  bb_status st = self->p1 ? bb_post_table_bool(b->space, x, n, t, nt / n, true, r, fzn_ipl_of(c), &err)
                          : bb_post_table_int(b->space, x, n, t, nt / n, true, r, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

/* bamboo_regular(x, Q, S, d, q0, F). */
static bool post_regular(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *x, n, Q, S, *d, nd, q0, *F, nF;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n) || !fzn_arg_int(b, ARG(1), c->line, "Q", &Q) ||
      !fzn_arg_int(b, ARG(2), c->line, "S", &S) || !fzn_arg_int_array(b, ARG(3), c->line, "transitions", &d, &nd) ||
      !fzn_arg_int(b, ARG(4), c->line, "q0", &q0) || !fzn_arg_int_set(b, ARG(5), c->line, "final states", &F, &nF))
    return false;
  if ((long long)Q * S != nd)
    return fzn_report(b, c->line, "%s: the transition table has %d entries, expected Q x S = %d x %d = %lld", c->name,
                      nd, Q, S, (long long)Q * S);
  return fzn_posted(b, c, bb_post_regular(b->space, x, n, Q, S, d, q0, F, nF, &err), &err);
}

/* bamboo_global_cardinality(x, cover, counts, closed) and _low_up(x, cover, lb, ub, closed). */
static bool post_gcc(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n, *cover, ncover;
  bool closed;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n) ||
      !fzn_arg_int_array(b, ARG(1), c->line, "cover", &cover, &ncover))
    return false;
  if (self->p1) {
    int *lo, *up, nlo, nup;
    if (!fzn_arg_int_array(b, ARG(2), c->line, "lbound", &lo, &nlo) ||
        !fzn_arg_int_array(b, ARG(3), c->line, "ubound", &up, &nup) ||
        !fzn_arg_bool(b, ARG(4), c->line, "closed", &closed) ||
        !fzn_check_same_length(b, c, ncover, nlo, "cover and lbound") ||
        !fzn_check_same_length(b, c, ncover, nup, "cover and ubound"))
      return false;
    return fzn_posted(
        b, c, bb_post_global_cardinality_low_up(b->space, x, n, cover, lo, up, ncover, closed, fzn_ipl_of(c), &err),
        &err);
  }
  int *counts, ncounts;
  if (!fzn_arg_int_var_array(b, ARG(2), c->line, "counts", &counts, &ncounts) ||
      !fzn_arg_bool(b, ARG(3), c->line, "closed", &closed) ||
      !fzn_check_same_length(b, c, ncover, ncounts, "cover and counts"))
    return false;
  return fzn_posted(
      b, c, bb_post_global_cardinality(b->space, x, n, cover, counts, ncover, closed, fzn_ipl_of(c), &err), &err);
}

/* fzn_count_<rel>(x, y, c): c rel #{x[i] = y}. */
static bool post_count(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n, y, k;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n) || !fzn_arg_int_var(b, ARG(1), c->line, "y", &y) ||
      !fzn_arg_int_var(b, ARG(2), c->line, "c", &k))
    return false;
  return fzn_posted(b, c, bb_post_count(b->space, x, n, y, (bb_rel)self->p1, k, bb_reif_none(), fzn_ipl_of(c), &err),
                    &err);
}

/* fzn_among(n, x, v). */
static bool post_among(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int m, *x, n, *v, nv;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "n", &m) || !fzn_arg_int_var_array(b, ARG(1), c->line, "x", &x, &n) ||
      !fzn_arg_int_set(b, ARG(2), c->line, "v", &v, &nv))
    return false;
  return fzn_posted(b, c, bb_post_among(b->space, m, x, n, v, nv, &err), &err);
}

static bool post_nvalue(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int m, *x, n;
  bb_error err;
  if (!fzn_arg_int_var(b, ARG(0), c->line, "n", &m) || !fzn_arg_int_var_array(b, ARG(1), c->line, "x", &x, &n))
    return false;
  return fzn_posted(b, c, bb_post_nvalue(b->space, m, x, n, &err), &err);
}

/* fzn_lex_less(eq)_int/bool(x, y): p1 = strict, p2 = bool. */
static bool post_lex(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, *y, nx, ny;
  bb_error err;
  if (self->p2) {
    if (!fzn_arg_bool_var_array(b, ARG(0), c->line, "x", &x, &nx) ||
        !fzn_arg_bool_var_array(b, ARG(1), c->line, "y", &y, &ny))
      return false;
    return fzn_posted(b, c, bb_post_lex_bool(b->space, x, nx, y, ny, self->p1, &err), &err);
  }
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &nx) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "y", &y, &ny))
    return false;
  return fzn_posted(b, c, bb_post_lex_int(b->space, x, nx, y, ny, self->p1, &err), &err);
}

/* fzn_increasing/decreasing_int/bool(x): p1 = decreasing, p2 = bool. */
static bool post_increasing(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n;
  bb_error err;
  if (self->p2) {
    if (!fzn_arg_bool_var_array(b, ARG(0), c->line, "x", &x, &n)) return false;
    return fzn_posted(b, c, bb_post_increasing_bool(b->space, x, n, self->p1, &err), &err);
  }
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n)) return false;
  return fzn_posted(b, c, bb_post_increasing_int(b->space, x, n, self->p1, &err), &err);
}

static bool post_sort(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *x, *y, nx, ny;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &nx) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "y", &y, &ny) || !fzn_check_same_length(b, c, nx, ny, "x and y"))
    return false;
  return fzn_posted(b, c, bb_post_sort(b->space, x, y, nx, fzn_ipl_of(c), &err), &err);
}

/* bamboo_member_int(x, y) (+_reif with b). */
static bool post_member(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n, y;
  bb_reif r = {-1, (bb_reif_mode)self->p2};
  bb_error err;
  if (self->p2 != BB_REIF_NONE && !fzn_arg_bool_var(b, ARG(2), c->line, "reification", &r.bool_var)) return false;
  if (self->p1) { /* bamboo_member_bool */
    if (!fzn_arg_bool_var_array(b, ARG(0), c->line, "x", &x, &n) || !fzn_arg_bool_var(b, ARG(1), c->line, "y", &y))
      return false;
    return fzn_posted(b, c, bb_post_member_bool(b->space, x, n, y, r, &err), &err);
  }
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n) || !fzn_arg_int_var(b, ARG(1), c->line, "y", &y))
    return false;
  return fzn_posted(b, c, bb_post_member_int(b->space, x, n, y, r, &err), &err);
}

/* bamboo_bin_packing_load(load, bin, w, offset). */
static bool post_bin_packing(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *load, nl, *bin, nb, *w, nw, offset;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "load", &load, &nl) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "bin", &bin, &nb) ||
      !fzn_arg_int_array(b, ARG(2), c->line, "w", &w, &nw) || !fzn_arg_int(b, ARG(3), c->line, "offset", &offset) ||
      !fzn_check_same_length(b, c, nb, nw, "bin and w"))
    return false;
  return fzn_posted(b, c, bb_post_bin_packing_load(b->space, load, nl, offset, bin, w, nb, fzn_ipl_of(c), &err), &err);
}

/* bamboo_arg_max/min_int/bool(x, offset, i): p1 = max, p2 = bool. */
static bool post_arg(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *x, n, offset, i;
  bb_error err;
  bool ok = self->p2 ? fzn_arg_bool_var_array(b, ARG(0), c->line, "x", &x, &n)
                     : fzn_arg_int_var_array(b, ARG(0), c->line, "x", &x, &n);
  if (!ok || !fzn_arg_int(b, ARG(1), c->line, "offset", &offset) || !fzn_arg_int_var(b, ARG(2), c->line, "i", &i))
    return false;
  if (!fzn_check_nonempty(b, c, n)) return false;
  bb_status st =
      self->p2 ? (self->p1 ? bb_post_bool_argmax : bb_post_bool_argmin)(b->space, x, n, offset, i, fzn_ipl_of(c), &err)
               : (self->p1 ? bb_post_int_argmax : bb_post_int_argmin)(b->space, x, n, offset, i, fzn_ipl_of(c), &err);
  return fzn_posted(b, c, st, &err);
}

static bool post_value_precede(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int s, t, *x, n;
  bb_error err;
  if (!fzn_arg_int(b, ARG(0), c->line, "s", &s) || !fzn_arg_int(b, ARG(1), c->line, "t", &t) ||
      !fzn_arg_int_var_array(b, ARG(2), c->line, "x", &x, &n))
    return false;
  return fzn_posted(b, c, bb_post_value_precede(b->space, s, t, x, n, &err), &err);
}

/* fzn_diffn(x, y, dx, dy) / _nonstrict. */
static bool post_diffn(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  int *v[4], n[4];
  const char *names[4] = {"x", "y", "dx", "dy"};
  bb_error err;
  for (int k = 0; k < 4; k++)
    if (!fzn_arg_int_var_array(b, ARG(k), c->line, names[k], &v[k], &n[k])) return false;
  if (!fzn_check_same_length(b, c, n[0], n[1], "x and y") || !fzn_check_same_length(b, c, n[0], n[2], "x and dx") ||
      !fzn_check_same_length(b, c, n[0], n[3], "x and dy"))
    return false;
  return fzn_posted(b, c, bb_post_diffn(b->space, v[0], v[1], v[2], v[3], n[0], self->p1, &err), &err);
}

const fzn_builtin fzn_global_builtins[] = {{"fzn_all_different_int", 1, post_all_different, 0, 0},
                                           {"fzn_all_equal_int", 1, post_all_different, 1, 0},
                                           {"bamboo_circuit", 2, post_circuit, 0, 0},
                                           {"bamboo_subcircuit", 2, post_circuit, 1, 0},
                                           {"bamboo_inverse", 4, post_inverse, 0, 0},
                                           {"fzn_cumulative", 4, post_cumulative, 0, 0},
                                           {"fzn_disjunctive", 2, post_disjunctive, 0, 0},
                                           {"fzn_disjunctive_strict", 2, post_disjunctive, 1, 0},
                                           {"bamboo_table_int", 2, post_table, 0, 0},
                                           {"bamboo_table_bool", 2, post_table, 1, 0},
                                           {"bamboo_table_int_reif", 3, post_table, 0, BB_REIF_EQV},
                                           {"bamboo_table_bool_reif", 3, post_table, 1, BB_REIF_EQV},
                                           {"bamboo_regular", 6, post_regular, 0, 0},
                                           {"bamboo_global_cardinality", 4, post_gcc, 0, 0},
                                           {"bamboo_global_cardinality_low_up", 5, post_gcc, 1, 0},
                                           {"fzn_count_eq", 3, post_count, BB_EQ, 0},
                                           {"fzn_count_neq", 3, post_count, BB_NE, 0},
                                           {"fzn_count_lt", 3, post_count, BB_LT, 0},
                                           {"fzn_count_leq", 3, post_count, BB_LE, 0},
                                           {"fzn_count_gt", 3, post_count, BB_GT, 0},
                                           {"fzn_count_geq", 3, post_count, BB_GE, 0},
                                           {"fzn_among", 3, post_among, 0, 0},
                                           {"fzn_nvalue", 2, post_nvalue, 0, 0},
                                           {"fzn_lex_less_int", 2, post_lex, 1, 0},
                                           {"fzn_lex_lesseq_int", 2, post_lex, 0, 0},
                                           {"fzn_lex_less_bool", 2, post_lex, 1, 1},
                                           {"fzn_lex_lesseq_bool", 2, post_lex, 0, 1},
                                           {"fzn_increasing_int", 1, post_increasing, 0, 0},
                                           {"fzn_decreasing_int", 1, post_increasing, 1, 0},
                                           {"fzn_increasing_bool", 1, post_increasing, 0, 1},
                                           {"fzn_decreasing_bool", 1, post_increasing, 1, 1},
                                           {"fzn_sort", 2, post_sort, 0, 0},
                                           {"bamboo_member_int", 2, post_member, 0, BB_REIF_NONE},
                                           {"bamboo_member_int_reif", 3, post_member, 0, BB_REIF_EQV},
                                           {"bamboo_member_bool", 2, post_member, 1, BB_REIF_NONE},
                                           {"bamboo_member_bool_reif", 3, post_member, 1, BB_REIF_EQV},
                                           {"bamboo_bin_packing_load", 4, post_bin_packing, 0, 0},
                                           {"bamboo_arg_max_int", 3, post_arg, 1, 0},
                                           {"bamboo_arg_min_int", 3, post_arg, 0, 0},
                                           {"bamboo_arg_max_bool", 3, post_arg, 1, 1},
                                           {"bamboo_arg_min_bool", 3, post_arg, 0, 1},
                                           {"fzn_value_precede_int", 3, post_value_precede, 0, 0},
                                           {"fzn_diffn", 4, post_diffn, 1, 0},
                                           {"fzn_diffn_nonstrict", 4, post_diffn, 0, 0},
                                           {NULL, 0, NULL, 0, 0}};
