/* Solve annotations -> branchings and restarts (as Gecode's FlatZinc front end reads them). */
#include "search_ann.h"
#include "bb_hrc.h"

#include "bb_float.h"

#include <stdlib.h>
#include <string.h>

static void warn(fzn_builder *b, int line, const char *what, const char *name) {
  fzn_warn(b, line, "%s '%s' is not supported; using the default", what, name);
}

static const char *id_name(const fzn_expr *e) {
  if (e->kind == FZN_E_ID) return e->u.id.name;
  if (e->kind == FZN_E_CALL && e->u.call.count == 0) return e->u.call.name;
  return NULL;
}

static bool post_one(fzn_builder *b, const fzn_expr *ann, unsigned seed, bb_search_options *opts);

/* int_search(x, varsel, valsel, strategy) and its bool/set forms. */
static bool post_var_search(fzn_builder *b, const fzn_expr *ann, unsigned seed) {
  const char *name = ann->u.call.name;
  int line = ann->line;
  if (ann->u.call.count < 3)
    return fzn_report(b, line, "%s: expected (variables, variable choice, value choice, ...)", name);
  const char *vs = id_name(ann->u.call.args[1]), *ls = id_name(ann->u.call.args[2]);
  bb_var_sel var = BB_VAR_INPUT_ORDER;
  bb_val_sel val = BB_VAL_MIN;
  if (!vs || !bb_var_sel_parse(vs, &var)) warn(b, line, "variable choice", vs ? vs : "?");
  if (!ls || !bb_val_sel_parse(ls, &val)) warn(b, line, "value choice", ls ? ls : "?");
  bb_branch_options bo = {seed, 0};
  bb_error err;
  int *vars, n;
  bb_status st;
  if (!strcmp(name, "int_search")) {
    if (!fzn_arg_int_var_array(b, ann->u.call.args[0], line, name, &vars, &n)) return false;
    st = bb_branch_int(b->space, vars, n, var, val, &bo, &err);
  } else if (!strcmp(name, "bool_search")) {
    if (!fzn_arg_bool_var_array(b, ann->u.call.args[0], line, name, &vars, &n)) return false;
    st = bb_branch_bool(b->space, vars, n, var, val, &bo, &err);
  } else {
    if (!fzn_arg_set_var_array(b, ann->u.call.args[0], line, name, &vars, &n)) return false;
    st = bb_branch_set(b->space, vars, n, var, val, &bo, &err);
  }
  if (st != BB_OK) {
    /* e.g. a value choice that does not apply to the variable kind: warn, use the default */
    fprintf(b->errors, "%s:%d: warning: %s: %s; using the default\n", b->model->file, line, name, err.msg);
  }
  return true;
}

/* float_search(x, precision, varsel, valsel, explore): variables no wider than the
 * precision are not split further (bb_branch_float). */
static bool post_float_search(fzn_builder *b, const fzn_expr *ann, unsigned seed) {
  int line = ann->line;
  if (ann->u.call.count < 4)
    return fzn_report(b, line, "float_search: expected (variables, precision, variable choice, value choice, ...)");
  double precision;
  if (!fzn_arg_float(b, ann->u.call.args[1], line, "float_search precision", &precision)) return false;
  const char *vs = id_name(ann->u.call.args[2]), *ls = id_name(ann->u.call.args[3]);
  bb_var_sel var = BB_VAR_INPUT_ORDER;
  bb_val_sel val = BB_VAL_SPLIT;
  if (!vs || !bb_var_sel_parse(vs, &var)) warn(b, line, "variable choice", vs ? vs : "?");
  if (!ls || !bb_val_sel_parse(ls, &val)) warn(b, line, "value choice", ls ? ls : "?");
  int *vars, n;
  if (!fzn_arg_float_var_array(b, ann->u.call.args[0], line, "float_search", &vars, &n)) return false;
  bb_branch_options bo = {seed, 0};
  bb_error err;
  if (bb_branch_float(b->space, vars, n, precision, var, val, &bo, &err) != BB_OK) {
    /* a choice that does not apply to floats: warn, and split the lower half first */
    fprintf(b->errors, "%s:%d: warning: float_search: %s; using the default\n", b->model->file, line, err.msg);
    if (bb_branch_float(b->space, vars, n, precision, BB_VAR_INPUT_ORDER, BB_VAL_SPLIT, &bo, &err) != BB_OK)
      return fzn_report(b, line, "float_search: %s", err.msg);
  }
  return true;
}

static bool restart(fzn_builder *b, const fzn_expr *ann, bb_search_options *opts) {
  const char *name = ann->kind == FZN_E_CALL ? ann->u.call.name : ann->u.id.name;
  int scale = 0;
  if (!strcmp(name, "restart_none")) {
    opts->restart = BB_RESTART_NONE;
    return true;
  }
  if (ann->kind != FZN_E_CALL || ann->u.call.count < 1) return fzn_report(b, ann->line, "%s: missing argument", name);
  if (!strcmp(name, "restart_geometric")) {
    const fzn_expr *base = ann->u.call.args[0];
    if (ann->u.call.count != 2 || !fzn_arg_int(b, ann->u.call.args[1], ann->line, name, &scale)) return false;
    opts->restart = BB_RESTART_GEOMETRIC;
    opts->restart_base = base->kind == FZN_E_FLOAT ? base->u.f : base->kind == FZN_E_INT ? (double)base->u.i : 1.5;
  } else {
    if (!fzn_arg_int(b, ann->u.call.args[0], ann->line, name, &scale)) return false;
    opts->restart = !strcmp(name, "restart_constant") ? BB_RESTART_CONSTANT
                    : !strcmp(name, "restart_linear") ? BB_RESTART_LINEAR
                                                      : BB_RESTART_LUBY;
  }
  opts->restart_scale = scale > 0 ? (unsigned long)scale : 1;
  return true;
}

/* relax_and_reconstruct(x, percentage[, initial]): large neighbourhood search around the
 * last solution (bb_search_relax_and_reconstruct), for an optimisation only. */
static bool relax_and_reconstruct(fzn_builder *b, const fzn_expr *ann, unsigned seed) {
  const char *name = "relax_and_reconstruct";
  int line = ann->line;
  if (ann->kind != FZN_E_CALL || ann->u.call.count < 2 || ann->u.call.count > 3)
    return fzn_report(b, line, "%s: expected (variables, percentage) or (variables, percentage, initial values)", name);
  const fzn_model *m = b->model;
  if (!m->has_solve || m->solve.kind == FZN_SATISFY) {
    fzn_warn(b, line, "%s needs an objective to improve; ignored in a satisfaction problem", name);
    return true;
  }
  int *vars, n, percentage, *initial = NULL, n_initial = 0;
  if (!fzn_arg_int_var_array(b, ann->u.call.args[0], line, name, &vars, &n)) return false;
  if (!fzn_arg_int(b, ann->u.call.args[1], line, name, &percentage)) return false;
  if (percentage < 0 || percentage > 100)
    return fzn_report(b, line, "%s: percentage %d is outside 0..100", name, percentage);
  if (ann->u.call.count == 3) {
    if (!fzn_arg_int_array(b, ann->u.call.args[2], line, name, &initial, &n_initial)) return false;
    if (n_initial != n) return fzn_report(b, line, "%s: %d initial values for %d variables", name, n_initial, n);
  }
  bb_error err;
  if (bb_search_relax_and_reconstruct(b->space, vars, n, percentage, initial, seed, &err) != BB_OK)
    return fzn_report(b, line, "%s: %s", name, err.msg);
  return true;
}

/* The annotations that shape the search engine rather than the branching: kept under -f. */
static bool is_engine_annotation(const char *name) {
  return !strncmp(name, "restart_", 8) || !strcmp(name, "relax_and_reconstruct");
}

static bool post_one(fzn_builder *b, const fzn_expr *ann, unsigned seed, bb_search_options *opts) {
  const char *name = ann->kind == FZN_E_CALL ? ann->u.call.name : ann->kind == FZN_E_ID ? ann->u.id.name : NULL;
  if (!name) return true;
  if (!strcmp(name, "int_search") || !strcmp(name, "bool_search") || !strcmp(name, "set_search"))
    return ann->kind == FZN_E_CALL ? post_var_search(b, ann, seed)
                                   : fzn_report(b, ann->line, "%s: missing arguments", name);
  if (!strcmp(name, "float_search"))
    return ann->kind == FZN_E_CALL ? post_float_search(b, ann, seed)
                                   : fzn_report(b, ann->line, "%s: missing arguments", name);
  if (!strcmp(name, "seq_search")) {
    if (ann->kind != FZN_E_CALL || ann->u.call.count != 1 || ann->u.call.args[0]->kind != FZN_E_ARRAY)
      return fzn_report(b, ann->line, "seq_search: expected an array of search annotations");
    const fzn_expr *list = ann->u.call.args[0];
    for (int k = 0; k < list->u.array.count; k++)
      if (!post_one(b, list->u.array.elems[k], seed, opts)) return false;
    return true;
  }
  if (!strncmp(name, "restart_", 8)) return restart(b, ann, opts);
  if (!strcmp(name, "relax_and_reconstruct")) return relax_and_reconstruct(b, ann, seed);
  if (!strcmp(name, "int_default_search") || !strcmp(name, "bool_default_search") ||
      !strcmp(name, "set_default_search") || !strcmp(name, "float_default_search"))
    return true; /* the default branching follows anyway */
  warn(b, ann->line, "search annotation", name);
  return true;
}

/* -f: every int variable, chosen by FREE_VAR_SEL, smallest value first; Booleans and sets
 * then follow the default. FREE_VAR_SEL was chosen by measurement: first fail was the only
 * choice that finished every model measured, where the activity-based ones timed out when the
 * int variables are bool2int images (docs/minizinc.md); FZN_BAMBOO_FREE_VAR overrides it for
 * such measurements. */
#define FREE_VAR_SEL BB_VAR_FIRST_FAIL
static bool free_search_branching(fzn_builder *b, unsigned seed) {
  bb_var_sel var = FREE_VAR_SEL;
  const char *override = getenv("FZN_BAMBOO_FREE_VAR");
  if (override && !bb_var_sel_parse(override, &var)) warn(b, 0, "FZN_BAMBOO_FREE_VAR", override);
  int n = bb_int_var_count(b->space);
  int *vars = fzn_scratch(b, (size_t)(n ? n : 1) * sizeof *vars, 0);
  if (!vars) return false;
  for (int k = 0; k < n; k++) vars[k] = k;
  bb_branch_options bo = {seed, 0};
  bb_error err;
  if (bb_branch_int(b->space, vars, n, var, BB_VAL_MIN, &bo, &err) != BB_OK)
    return fzn_report(b, 0, "free search: %s", err.msg);
  return true;
}

/* The variables of scalar declarations, in reverse order (the order fzn-gecode's default
 * takes them in), by kind: those the output shows (`mine`: output_var, or an element of an
 * output_array) or the others that no constraint defines (`aux`); defined ones are left
 * to propagation, as fzn-gecode does (its parser calls every variable the output does not
 * show "introduced"), and so is the objective, which the search branches on last. */
typedef struct var_lists {
  int *v[4]; /* int, bool, float, set */
  int n[4];
} var_lists;

static bool gecode_default_branching(fzn_builder *b) {
  const fzn_model *m = b->model;
  const fzn_decl *objective =
      m->has_solve && m->solve.kind != FZN_SATISFY && m->solve.objective ? fzn_decl_of(b, m->solve.objective) : NULL;
  var_lists lists[2]; /* [0] the model's own, [1] aux */
  memset(lists, 0, sizeof lists);
  for (int l = 0; l < 2; l++)
    for (int k = 0; k < 4; k++)
      if (!(lists[l].v[k] = fzn_scratch(b, (size_t)(m->decl_count + 1) * sizeof(int), m->solve.line))) return false;
  bool *shown = fzn_scratch(b, (size_t)(m->decl_count + 1) * sizeof *shown, m->solve.line);
  if (!shown) return false;
  for (int k = 0; k < m->decl_count; k++) {
    const fzn_decl *d = m->decls[k];
    shown[k] = d->type.is_var && !d->type.is_array && fzn_has_atom(&d->annotations, "output_var");
  }
  for (int k = 0; k < m->decl_count; k++) { /* the elements of output arrays */
    const fzn_decl *d = m->decls[k];
    const fzn_expr *v = d->value;
    if (!fzn_find_call(&d->annotations, "output_array") || !d->type.is_var || !v || v->kind != FZN_E_ARRAY) continue;
    for (int e = 0; e < v->u.array.count; e++) {
      const fzn_decl *elem = fzn_decl_of(b, v->u.array.elems[e]);
      if (elem && v->u.array.elems[e]->kind == FZN_E_ID) shown[elem->index] = true;
    }
  }
  for (int k = m->decl_count - 1; k >= 0; k--) {
    const fzn_decl *d = m->decls[k];
    const fzn_binding *bind = &b->bindings[d->index];
    if (!d->type.is_var || d->type.is_array || bind->var < 0 || d == objective) continue;
    int kind = bind->entity == FZN_ENT_INT     ? 0
               : bind->entity == FZN_ENT_BOOL  ? 1
               : bind->entity == FZN_ENT_FLOAT ? 2
                                               : 3;
    int l = 0;
    if (!shown[k]) {
      if (fzn_has_atom(&d->annotations, "is_defined_var")) continue;
      l = 1;
    }
    lists[l].v[kind][lists[l].n[kind]++] = bind->var;
  }
  bb_error err;
  const var_lists *mine = &lists[0], *aux = &lists[1];
  bb_status st = bb_branch_gecode_default(b->space, true, mine->v[0], mine->n[0], mine->v[1], mine->n[1], mine->v[2],
                                          mine->n[2], mine->v[3], mine->n[3], &err);
  /* Auxiliaries: one alternative in a satisfaction search (solutions differing in them
   * alone are one solution); an optimisation branches on them, as fzn-gecode does. */
  if (st == BB_OK && objective == NULL && (!m->has_solve || m->solve.kind == FZN_SATISFY))
    st = bb_branch_aux_first(b->space, aux->v[0], aux->n[0], aux->v[1], aux->n[1], aux->v[2], aux->n[2], aux->v[3],
                             aux->n[3], &err);
  else if (st == BB_OK)
    st = bb_branch_gecode_default(b->space, false, aux->v[0], aux->n[0], aux->v[1], aux->n[1], aux->v[2], aux->n[2],
                                  aux->v[3], aux->n[3], &err);
  return st == BB_OK || fzn_report(b, m->solve.line, "default search: %s", err.msg);
}

bool fzn_post_search(fzn_builder *b, bool free_search, unsigned seed, bb_search_options *opts) {
  const fzn_model *m = b->model;
  if (m->has_solve)
    for (int k = 0; k < m->solve.annotations.count; k++) {
      const fzn_expr *ann = m->solve.annotations.items[k];
      const char *name = ann->kind == FZN_E_CALL ? ann->u.call.name : ann->kind == FZN_E_ID ? ann->u.id.name : "";
      if (free_search && !is_engine_annotation(name)) continue;
      if (!post_one(b, ann, seed, opts)) return false;
    }
  bb_error err;
  if (free_search && !free_search_branching(b, seed)) return false;
  /* Branchers that constraints ask for by default (stable_matching_hrc: the deferred
   * acceptance's matching first), after the model's own; they read the objective, which
   * main sets before this call. */
  if (bb_branch_deferred(b->space, &err) != BB_OK) return fzn_report(b, m->solve.line, "default search: %s", err.msg);
  /* fzn-gecode's default for what the annotations leave, so that an unannotated model
   * gets fzn-gecode's first solution; then every variable, so that none stays unfixed
   * (constants, array elements, defined variables that propagation did not fix). */
  if (!gecode_default_branching(b)) return false;
  if (bb_branch_default(b->space, &err) != BB_OK) return fzn_report(b, m->solve.line, "default search: %s", err.msg);
  return true;
}
