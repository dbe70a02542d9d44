/* Argument resolution for the posters (see build.h): parameters followed to their values,
 * constants range-checked, arrays of constants and of variables, constants made constant
 * variables (build.c). */
#include "build.h"
#include "build_internal.h"

#include "bb_float.h"
#include "bb_post.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- Parameters. --- */

const fzn_decl *fzn_decl_of(const fzn_builder *b, const fzn_expr *e) {
  if (e->kind != FZN_E_ID && e->kind != FZN_E_ACCESS) return NULL;
  return fzn_lookup(b->model, e->u.id.name);
}

/* Follows identifiers naming parameters to their values; array accesses into parameter
 * arrays to the element (ints and bools only; others are returned as the access). */
static const fzn_expr *par_value(const fzn_builder *b, const fzn_expr *e, int64_t *access_value,
                                 bool *is_access_value) {
  *is_access_value = false;
  for (int depth = 0; depth < 64; depth++) {
    const fzn_decl *d = fzn_decl_of(b, e);
    if (!d || d->type.is_var || !d->value) return e;
    if (e->kind == FZN_E_ID) {
      e = d->value;
      continue;
    }
    const fzn_expr *arr = d->value;
    int64_t idx = e->u.id.index;
    if (arr->kind == FZN_E_INTS && idx >= 1 && idx <= arr->u.ints.count) {
      *access_value = fzn_ints_at(arr, (int)(idx - 1));
      *is_access_value = true;
      return e;
    }
    if (arr->kind == FZN_E_BOOLS && idx >= 1 && idx <= arr->u.bools.count) {
      *access_value = arr->u.bools.values[idx - 1];
      *is_access_value = true;
      return e;
    }
    if (arr->kind == FZN_E_ARRAY && idx >= 1 && idx <= arr->u.array.count) {
      e = arr->u.array.elems[idx - 1];
      continue;
    }
    return e;
  }
  return e;
}

bool fzn_arg_is_par(fzn_builder *b, const fzn_expr *e) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (acc) return true;
  const fzn_decl *d = fzn_decl_of(b, e);
  return !d || !d->type.is_var;
}

bool fzn_check_int_range(fzn_builder *b, int64_t v, int line, const char *what) {
  if (v < -FZN_INT_LIMIT || v > FZN_INT_LIMIT)
    return fzn_report(b, line, "%s: %lld is outside the integers Gecode supports (|v| <= %lld)", what, (long long)v,
                      FZN_INT_LIMIT);
  return true;
}

bool fzn_arg_int(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *out) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (!acc) {
    if (e->kind == FZN_E_INT)
      v = e->u.i;
    else if (e->kind == FZN_E_BOOL)
      v = e->u.b;
    else
      return fzn_report(b, line, "%s: expected an integer constant", what);
  }
  if (!fzn_check_int_range(b, v, line, what)) return false;
  *out = (int)v;
  return true;
}

bool fzn_arg_bool(fzn_builder *b, const fzn_expr *e, int line, const char *what, bool *out) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (acc) {
    *out = v != 0;
    return true;
  }
  if (e->kind != FZN_E_BOOL) return fzn_report(b, line, "%s: expected a Boolean constant", what);
  *out = e->u.b;
  return true;
}

bool fzn_arg_float(fzn_builder *b, const fzn_expr *e, int line, const char *what, double *out) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (!acc) { /* acc: an element of an int parameter array, in v */
    if (e->kind == FZN_E_FLOAT) {
      *out = e->u.f;
      return true;
    }
    if (e->kind != FZN_E_INT) return fzn_report(b, line, "%s: expected a float constant", what);
    v = e->u.i;
  }
  *out = (double)v;
  return true;
}

bool fzn_set_values(fzn_builder *b, const fzn_expr *set, int line, const char *what, int **values, int *count) {
  int64_t total = 0;
  for (int r = 0; r < set->u.set.ranges; r++) {
    int64_t lo = set->u.set.bounds[2 * r], hi = set->u.set.bounds[2 * r + 1];
    if (!fzn_check_int_range(b, lo, line, what) || !fzn_check_int_range(b, hi, line, what)) return false;
    total += hi - lo + 1;
  }
  if (total > 100000000) return fzn_report(b, line, "%s: a set of %lld values is too large", what, (long long)total);
  int *out = fzn_scratch(b, (size_t)total * sizeof *out, line);
  if (!out) return false;
  int k = 0;
  for (int r = 0; r < set->u.set.ranges; r++)
    for (int64_t v = set->u.set.bounds[2 * r]; v <= set->u.set.bounds[2 * r + 1]; v++) out[k++] = (int)v;
  *values = out;
  *count = k;
  return true;
}

bool fzn_arg_int_set(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (acc || e->kind != FZN_E_SET) return fzn_report(b, line, "%s: expected a constant set of int", what);
  return fzn_set_values(b, e, line, what, values, count);
}

/* The elements of an array argument: a literal, or the value of a parameter array. */
typedef struct elems {
  const fzn_expr *array;      /* FZN_E_ARRAY, FZN_E_INTS or FZN_E_BOOLS */
  const fzn_binding *binding; /* a variable array */
  int count;
} elems;

static bool array_of(fzn_builder *b, const fzn_expr *e, int line, const char *what, elems *out) {
  memset(out, 0, sizeof *out);
  const fzn_decl *d = fzn_decl_of(b, e);
  if (d && e->kind == FZN_E_ID) {
    if (!d->type.is_array) return fzn_report(b, line, "%s: '%s' is not an array", what, d->name);
    const fzn_binding *bind = &b->bindings[d->index];
    if (d->type.is_var && bind->elems) {
      out->binding = bind;
      out->count = bind->count;
      return true;
    }
    if (!d->value) return fzn_report(b, line, "%s: array '%s' has no value", what, d->name);
    e = d->value;
  }
  switch (e->kind) {
    case FZN_E_ARRAY: out->count = e->u.array.count; break;
    case FZN_E_INTS: out->count = e->u.ints.count; break;
    case FZN_E_BOOLS: out->count = e->u.bools.count; break;
    default: return fzn_report(b, line, "%s: expected an array", what);
  }
  out->array = e;
  return true;
}

/* Element k (0-based) as an expression; ints/bools literal arrays yield a temporary. */
static const fzn_expr *elem_expr(const elems *a, int k, fzn_expr *tmp) {
  const fzn_expr *e = a->array;
  if (e->kind == FZN_E_ARRAY) return e->u.array.elems[k];
  tmp->line = e->line;
  if (e->kind == FZN_E_INTS) {
    tmp->kind = FZN_E_INT;
    tmp->u.i = fzn_ints_at(e, k);
  } else {
    tmp->kind = FZN_E_BOOL;
    tmp->u.b = e->u.bools.values[k];
  }
  return tmp;
}

bool fzn_arg_int_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count) {
  elems a;
  if (!array_of(b, e, line, what, &a)) return false;
  if (a.binding) return fzn_report(b, line, "%s: expected an array of integer constants, not variables", what);
  int *out = fzn_scratch(b, (size_t)a.count * sizeof *out, line);
  if (!out) return false;
  if (a.array->kind == FZN_E_INTS) { /* the fast path for big data arrays */
    for (int k = 0; k < a.count; k++) {
      int64_t v = fzn_ints_at(a.array, k);
      if (v < -FZN_INT_LIMIT || v > FZN_INT_LIMIT) return fzn_check_int_range(b, v, line, what);
      out[k] = (int)v;
    }
  } else {
    fzn_expr tmp;
    for (int k = 0; k < a.count; k++)
      if (!fzn_arg_int(b, elem_expr(&a, k, &tmp), line, what, &out[k])) return false;
  }
  *values = out;
  *count = a.count;
  return true;
}

bool fzn_arg_bool_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count) {
  elems a;
  if (!array_of(b, e, line, what, &a)) return false;
  if (a.binding) return fzn_report(b, line, "%s: expected an array of Boolean constants, not variables", what);
  int *out = fzn_scratch(b, (size_t)a.count * sizeof *out, line);
  if (!out) return false;
  fzn_expr tmp;
  for (int k = 0; k < a.count; k++) {
    bool v = false;
    if (!fzn_arg_bool(b, elem_expr(&a, k, &tmp), line, what, &v)) return false;
    out[k] = v;
  }
  *values = out;
  *count = a.count;
  return true;
}

bool fzn_arg_float_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, double **values, int *count) {
  elems a;
  if (!array_of(b, e, line, what, &a)) return false;
  if (a.binding) return fzn_report(b, line, "%s: expected an array of float constants, not variables", what);
  if (a.array->kind == FZN_E_BOOLS) return fzn_report(b, line, "%s: expected an array of float constants", what);
  double *out = fzn_scratch(b, (size_t)a.count * sizeof *out, line);
  if (!out) return false;
  fzn_expr tmp;
  for (int k = 0; k < a.count; k++)
    if (!fzn_arg_float(b, elem_expr(&a, k, &tmp), line, what, &out[k])) return false;
  *values = out;
  *count = a.count;
  return true;
}

bool fzn_arg_set_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int **sizes,
                       int *count) {
  elems a;
  if (!array_of(b, e, line, what, &a)) return false;
  if (a.binding || a.array->kind != FZN_E_ARRAY)
    return fzn_report(b, line, "%s: expected an array of constant sets", what);
  int *sz = fzn_scratch(b, (size_t)a.count * sizeof *sz, line);
  int **parts = fzn_scratch(b, (size_t)a.count * sizeof *parts, line);
  if (!sz || !parts) return false;
  size_t total = 0;
  for (int k = 0; k < a.count; k++) {
    if (!fzn_arg_int_set(b, a.array->u.array.elems[k], line, what, &parts[k], &sz[k])) return false;
    total += (size_t)sz[k];
  }
  int *all = fzn_scratch(b, total * sizeof *all, line);
  if (!all) return false;
  size_t at = 0;
  for (int k = 0; k < a.count; k++) {
    memcpy(all + at, parts[k], (size_t)sz[k] * sizeof *all);
    at += (size_t)sz[k];
  }
  *values = all;
  *sizes = sz;
  *count = a.count;
  return true;
}

/* A variable of the given entity named by e (an identifier or an access), or -1. */
int fzn_named_var(fzn_builder *b, const fzn_expr *e, fzn_entity want, int line, const char *what, bool *found) {
  *found = false;
  const fzn_decl *d = fzn_decl_of(b, e);
  if (!d || !d->type.is_var) return -1;
  *found = true;
  const fzn_binding *bind = &b->bindings[d->index];
  const char *kinds[] = {"parameter", "int", "bool", "set", "float"};
  if (bind->entity != want) {
    fzn_report(b, line, "%s: '%s' is a %s variable, expected %s", what, d->name, kinds[bind->entity], kinds[want]);
    return -1;
  }
  if (e->kind == FZN_E_ACCESS) {
    if (!bind->elems) {
      fzn_report(b, line, "%s: '%s' is not an array", what, d->name);
      return -1;
    }
    if (e->u.id.index < 1 || e->u.id.index > bind->count) {
      fzn_report(b, line, "%s: index %lld out of bounds for '%s' (1..%d)", what, (long long)e->u.id.index, d->name,
                 bind->count);
      return -1;
    }
    return bind->elems[e->u.id.index - 1];
  }
  if (bind->elems) {
    fzn_report(b, line, "%s: '%s' is an array, expected a single variable", what, d->name);
    return -1;
  }
  return bind->var;
}

bool fzn_arg_int_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = fzn_named_var(b, e, FZN_ENT_INT, line, what, &found);
  if (found) return (*var = v) >= 0;
  int c = 0;
  if (!fzn_arg_int(b, e, line, what, &c)) return false;
  return (*var = fzn_const_int_var(b, c, line)) >= 0;
}

bool fzn_arg_bool_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = fzn_named_var(b, e, FZN_ENT_BOOL, line, what, &found);
  if (found) return (*var = v) >= 0;
  bool c = false;
  if (!fzn_arg_bool(b, e, line, what, &c)) return false;
  return (*var = fzn_const_bool_var(b, c, line)) >= 0;
}

bool fzn_arg_set_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = fzn_named_var(b, e, FZN_ENT_SET, line, what, &found);
  if (found) return (*var = v) >= 0;
  int *vals, count;
  if (!fzn_arg_int_set(b, e, line, what, &vals, &count)) return false;
  bb_error err;
  v = bb_set_var(b->space, vals, count, vals, count, count, count, &err);
  if (v < 0) return fzn_report(b, line, "%s: %s", what, err.msg);
  *var = v;
  return true;
}

bool fzn_arg_float_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = fzn_named_var(b, e, FZN_ENT_FLOAT, line, what, &found);
  if (found) return (*var = v) >= 0;
  double c = 0;
  if (!fzn_arg_float(b, e, line, what, &c)) return false;
  bb_error err;
  v = bb_float_var(b->space, c, c, &err);
  if (v < 0) return fzn_report(b, line, "%s: %s", what, err.msg);
  *var = v;
  return true;
}

typedef bool (*var_fn)(fzn_builder *, const fzn_expr *, int, const char *, int *);

static bool var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, fzn_entity want, var_fn one,
                      int **vars, int *count) {
  elems a;
  if (!array_of(b, e, line, what, &a)) return false;
  if (a.binding) {
    if (a.binding->entity != want) return fzn_report(b, line, "%s: array of the wrong variable type", what);
    *vars = a.binding->elems;
    *count = a.count;
    return true;
  }
  int *out = fzn_scratch(b, (size_t)a.count * sizeof *out, line);
  if (!out) return false;
  fzn_expr tmp;
  for (int k = 0; k < a.count; k++)
    if (!one(b, elem_expr(&a, k, &tmp), line, what, &out[k])) return false;
  *vars = out;
  *count = a.count;
  return true;
}

bool fzn_arg_int_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count) {
  return var_array(b, e, line, what, FZN_ENT_INT, fzn_arg_int_var, vars, count);
}
bool fzn_arg_bool_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count) {
  return var_array(b, e, line, what, FZN_ENT_BOOL, fzn_arg_bool_var, vars, count);
}
bool fzn_arg_set_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count) {
  return var_array(b, e, line, what, FZN_ENT_SET, fzn_arg_set_var, vars, count);
}
bool fzn_arg_float_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count) {
  return var_array(b, e, line, what, FZN_ENT_FLOAT, fzn_arg_float_var, vars, count);
}
