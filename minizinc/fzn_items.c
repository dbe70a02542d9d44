/* Items: types as written, declarations, constraints, predicates and the solve item, added
 * to the model in file order. Type errors in a declaration are reported here and the
 * declaration is still bound, so later uses of its name do not cascade into "unknown
 * identifier" errors. */
#include "fzn_parse_state.h"

#include <inttypes.h>
#include <string.h>

fzn_parse_type *fzn_scalar_type(fzn_parser *p, fzn_base_type base, fzn_expr *domain, int line) {
  fzn_parse_type *t = fzn_arena_alloc(p->arena, sizeof *t);
  t->type.base = base;
  t->type.domain = domain;
  t->line = line;
  return t;
}

fzn_parse_type *fzn_float_range_type(fzn_parser *p, double lo, double hi, int line) {
  fzn_parse_type *t = fzn_scalar_type(p, FZN_T_FLOAT, NULL, line);
  t->type.has_float_domain = true;
  t->type.float_lo = lo;
  t->type.float_hi = hi;
  return t;
}

fzn_parse_type *fzn_var_type(fzn_parse_type *type) {
  type->type.is_var = true;
  return type;
}

fzn_parse_type *fzn_array_type(fzn_parse_type *element, int64_t lo, int64_t hi, int line) {
  element->type.is_array = true;
  element->index_lo = lo;
  element->index_hi = hi;
  /* Only 1..n is accepted for a declaration (fzn_add_decl says so); the length is the
   * one of 1..hi, so a bad lower bound cannot overflow it. */
  element->type.array_len = hi > 0 ? hi : 0;
  element->line = line;
  return element;
}

fzn_parse_type *fzn_array_any_type(fzn_parse_type *element, int line) {
  element->type.is_array = true;
  element->index_is_int = true;
  element->line = line;
  return element;
}

/* Appends to a model list (decls, constraints, predicates) held in an arena big block. */
static void *append(fzn_parser *p, void *items, int *count, size_t *capacity, size_t size) {
  if ((size_t)*count == *capacity) {
    *capacity = *capacity ? 2 * *capacity : 64;
    items = fzn_arena_big_realloc(p->arena, items, *capacity * size);
  }
  (*count)++;
  return items;
}

void fzn_add_predicate(fzn_parser *p, const char *name, int line) {
  (void)line;
  fzn_model *m = p->model;
  m->predicates = append(p, (void *)m->predicates, &m->predicate_count, &p->predicate_capacity, sizeof(const char *));
  m->predicates[m->predicate_count - 1] = name;
}

/* Reports what a declaration may not use; returns false if the type is unusable. */
static bool check_decl_type(fzn_parser *p, fzn_parse_type *t, const char *name, int line) {
  if (t->is_annotation || t->is_string) {
    fzn_error(p, line, "'%s' is declared %s, which only predicate parameters may be", name,
              t->is_annotation ? "ann" : "string");
    return false;
  }
  if (t->type.is_array && t->index_is_int) {
    fzn_error(p, line, "array '%s' needs an index set 1..n, not int", name);
    return false;
  }
  if (t->type.is_array && (t->index_lo != 1 || t->index_hi < 0)) {
    fzn_error(p, line, "array '%s' has index set %" PRId64 "..%" PRId64 " (FlatZinc arrays are 1..n)", name,
              t->index_lo, t->index_hi);
    return false;
  }
  return true;
}

void fzn_add_decl(fzn_parser *p, fzn_parse_type *t, const char *name, fzn_list *annotations, fzn_expr *value,
                  int line) {
  bool type_ok = check_decl_type(p, t, name, line);
  /* Names in the value first: the declared name itself is not yet in scope. */
  if (value) fzn_check_names(p, value);
  fzn_decl *d = fzn_arena_alloc(p->arena, sizeof *d);
  d->name = name;
  d->type = t->type;
  d->value = value;
  d->annotations = fzn_list_to_annotations(p, annotations);
  fzn_check_annotations(p, &d->annotations);
  d->line = line;
  if (type_ok) {
    if (!t->type.is_var && !value)
      fzn_error(p, line, "parameter '%s' has no value", name);
    else if (value)
      fzn_check_value(p, d);
  }
  fzn_decl *earlier = fzn_symbols_bind(p->symbols, name, d);
  if (earlier) {
    fzn_error(p, line, "'%s' is already declared (on line %d)", name, earlier->line);
    return;
  }
  fzn_model *m = p->model;
  m->decls = append(p, m->decls, &m->decl_count, &p->decl_capacity, sizeof(fzn_decl *));
  d->index = m->decl_count - 1;
  m->decls[d->index] = d;
}

void fzn_add_constraint(fzn_parser *p, const char *name, fzn_list *args, fzn_list *annotations, int line) {
  fzn_constraint *c = fzn_arena_alloc(p->arena, sizeof *c);
  c->name = name;
  c->args = fzn_list_to_exprs(p, args, &c->count);
  for (int k = 0; k < c->count; k++) fzn_check_names(p, c->args[k]);
  c->annotations = fzn_list_to_annotations(p, annotations);
  fzn_check_annotations(p, &c->annotations);
  c->line = line;
  fzn_model *m = p->model;
  m->constraints = append(p, m->constraints, &m->constraint_count, &p->constraint_capacity, sizeof(fzn_constraint *));
  m->constraints[m->constraint_count - 1] = c;
}

void fzn_set_solve(fzn_parser *p, fzn_solve_kind kind, fzn_expr *objective, fzn_list *annotations, int line) {
  fzn_model *m = p->model;
  if (m->has_solve) {
    fzn_error(p, line, "more than one solve item (the first is on line %d)", m->solve.line);
    return;
  }
  if (objective) {
    fzn_check_names(p, objective);
    fzn_check_objective(p, objective);
  }
  m->has_solve = true;
  m->solve.kind = kind;
  m->solve.objective = objective;
  m->solve.annotations = fzn_list_to_annotations(p, annotations);
  fzn_check_annotations(p, &m->solve.annotations);
  m->solve.line = line;
}

void fzn_finish_model(fzn_parser *p, int last_line) {
  if (!p->model->has_solve) fzn_error(p, last_line, "missing solve item");
}
