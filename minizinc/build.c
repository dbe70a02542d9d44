/* The builder's variables and argument resolution (see build.h). */
#include "build.h"

#include "bb_float.h"
#include "bb_post.h"
#include "fzn_paths.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Gecode's integer limits: |value| <= 2^31 - 2. */

/* Where a message about FlatZinc line `line` belongs in the user's files, from one lookup
 * whatever MiniZinc gave, for the constraint being posted or the variable being declared:
 * its mzn_path annotation (`minizinc --keep-paths`, or needsPathsFile, which implies it),
 * else its entry in the paths file (a constraint by its position among the constraints, a
 * variable by name). The paths file
 * (--paths, which minizinc passes because bamboo.msc asks for it) is read at the first
 * message that needs it, so a run without messages never reads it. False: the FlatZinc
 * line is all there is (FlatZinc written by hand, or an item MiniZinc has no path for). */
static bool user_location(fzn_builder *b, int line, char *file, size_t size, int *user_line) {
  const fzn_constraint *c = b->posting && b->posting->line == line ? b->posting : NULL;
  const fzn_decl *d = !c && b->declaring && b->declaring->line == line ? b->declaring : NULL;
  if (!c && !d) return false;
  const fzn_expr *ann = fzn_find_call(c ? &c->annotations : &d->annotations, "mzn_path");
  if (ann && ann->u.call.count == 1 && ann->u.call.args[0]->kind == FZN_E_STRING &&
      fzn_path_location(ann->u.call.args[0]->u.str, file, size, user_line))
    return true;
  if (!b->paths && !b->paths_tried && b->model->paths_file) {
    char why[256];
    b->paths_tried = true;
    b->paths = fzn_paths_read(b->model->paths_file, why, sizeof why);
    if (!b->paths)
      fprintf(b->errors, "fzn-bamboo: warning: cannot read the paths file '%s' (%s); messages name FlatZinc lines\n",
              b->model->paths_file, why);
  }
  fzn_location at;
  if (!(c ? fzn_paths_constraint(b->paths, b->posting_index, &at) : fzn_paths_variable(b->paths, d->name, &at)))
    return false;
  if (strlen(at.file) >= size) return false;
  strcpy(file, at.file);
  *user_line = at.line;
  return true;
}

/* "FILE:LINE: " for a message about FlatZinc line `line`: the user's file and line when
 * known, else the FlatZinc file's. */
static void print_location(fzn_builder *b, int line) {
  char file[4096];
  int user_line;
  if (user_location(b, line, file, sizeof file, &user_line)) fprintf(b->errors, "%s:%d: ", file, user_line);
  else fprintf(b->errors, "%s:%d: ", b->model->file, line);
}

bool fzn_report(fzn_builder *b, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print_location(b, line);
  vfprintf(b->errors, fmt, ap);
  fputc('\n', b->errors);
  va_end(ap);
  b->error_count++;
  return false;
}

void fzn_warn(fzn_builder *b, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print_location(b, line);
  fputs("warning: ", b->errors);
  vfprintf(b->errors, fmt, ap);
  fputc('\n', b->errors);
  va_end(ap);
}

void *fzn_scratch(fzn_builder *b, size_t bytes, int line) {
  if (b->scratch_len == b->scratch_cap) {
    int cap = b->scratch_cap ? 2 * b->scratch_cap : 64;
    void **grown = realloc(b->scratch, (size_t)cap * sizeof *grown);
    if (!grown) {
      bb_note_out_of_memory();
      fzn_report(b, line, "out of memory");
      return NULL;
    }
    b->scratch = grown;
    b->scratch_cap = cap;
  }
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    bb_note_out_of_memory();
    fzn_report(b, line, "out of memory (%zu bytes)", bytes);
    return NULL;
  }
  b->scratch[b->scratch_len++] = p;
  return p;
}

/* --- Constant variables: value -> variable index, open addressing. --- */
struct fzn_const_map {
  int64_t *keys;
  int *vars;
  size_t cap, len;
};

static int const_int_var(fzn_builder *b, int value, int line) {
  struct fzn_const_map *m = b->int_consts;
  if (m->len * 2 >= m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 256;
    int64_t *keys = malloc(cap * sizeof *keys);
    int *vars = malloc(cap * sizeof *vars);
    if (!keys || !vars) {
      free(keys);
      free(vars);
      bb_note_out_of_memory();
      fzn_report(b, line, "out of memory");
      return -1;
    }
    for (size_t k = 0; k < cap; k++) keys[k] = INT64_MIN;
    for (size_t k = 0; k < m->cap; k++)
      if (m->keys[k] != INT64_MIN) {
        size_t h = ((uint64_t)m->keys[k] * 0x9e3779b97f4a7c15ull) & (cap - 1);
        while (keys[h] != INT64_MIN) h = (h + 1) & (cap - 1);
        keys[h] = m->keys[k];
        vars[h] = m->vars[k];
      }
    free(m->keys);
    free(m->vars);
    m->keys = keys;
    m->vars = vars;
    m->cap = cap;
  }
  size_t h = ((uint64_t)(int64_t)value * 0x9e3779b97f4a7c15ull) & (m->cap - 1);
  while (m->keys[h] != INT64_MIN) {
    if (m->keys[h] == value) return m->vars[h];
    h = (h + 1) & (m->cap - 1);
  }
  bb_error err;
  int var = bb_int_var(b->space, value, value, &err);
  if (var < 0) {
    fzn_report(b, line, "%s", err.msg);
    return -1;
  }
  m->keys[h] = value;
  m->vars[h] = var;
  m->len++;
  return var;
}

static int const_bool_var(fzn_builder *b, bool value, int line) {
  if (b->bool_const[value] < 0) {
    bb_error err;
    b->bool_const[value] = bb_bool_var(b->space, value, value, &err);
    if (b->bool_const[value] < 0) fzn_report(b, line, "%s", err.msg);
  }
  return b->bool_const[value];
}

/* --- Parameters. --- */

const fzn_decl *fzn_decl_of(const fzn_builder *b, const fzn_expr *e) {
  if (e->kind != FZN_E_ID && e->kind != FZN_E_ACCESS) return NULL;
  return fzn_lookup(b->model, e->u.id.name);
}

/* Follows identifiers naming parameters to their values; array accesses into parameter
 * arrays to the element (ints and bools only; others are returned as the access). */
static const fzn_expr *par_value(const fzn_builder *b, const fzn_expr *e, int64_t *access_value, bool *is_access_value) {
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

static bool check_int_range(fzn_builder *b, int64_t v, int line, const char *what) {
  if (v < -FZN_INT_LIMIT || v > FZN_INT_LIMIT)
    return fzn_report(b, line, "%s: %lld is outside the integers Gecode supports (|v| <= %lld)", what,
                     (long long)v, FZN_INT_LIMIT);
  return true;
}

bool fzn_arg_int(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *out) {
  int64_t v = 0;
  bool acc;
  e = par_value(b, e, &v, &acc);
  if (!acc) {
    if (e->kind == FZN_E_INT) v = e->u.i;
    else if (e->kind == FZN_E_BOOL) v = e->u.b;
    else return fzn_report(b, line, "%s: expected an integer constant", what);
  }
  if (!check_int_range(b, v, line, what)) return false;
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

static bool set_values(fzn_builder *b, const fzn_expr *set, int line, const char *what, int **values, int *count) {
  int64_t total = 0;
  for (int r = 0; r < set->u.set.ranges; r++) {
    int64_t lo = set->u.set.bounds[2 * r], hi = set->u.set.bounds[2 * r + 1];
    if (!check_int_range(b, lo, line, what) || !check_int_range(b, hi, line, what)) return false;
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
  return set_values(b, e, line, what, values, count);
}

/* The elements of an array argument: a literal, or the value of a parameter array. */
typedef struct elems {
  const fzn_expr *array; /* FZN_E_ARRAY, FZN_E_INTS or FZN_E_BOOLS */
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
      if (v < -FZN_INT_LIMIT || v > FZN_INT_LIMIT) return check_int_range(b, v, line, what);
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
static int named_var(fzn_builder *b, const fzn_expr *e, fzn_entity want, int line, const char *what, bool *found) {
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
  int v = named_var(b, e, FZN_ENT_INT, line, what, &found);
  if (found) return (*var = v) >= 0;
  int c = 0;
  if (!fzn_arg_int(b, e, line, what, &c)) return false;
  return (*var = const_int_var(b, c, line)) >= 0;
}

bool fzn_arg_bool_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = named_var(b, e, FZN_ENT_BOOL, line, what, &found);
  if (found) return (*var = v) >= 0;
  bool c = false;
  if (!fzn_arg_bool(b, e, line, what, &c)) return false;
  return (*var = const_bool_var(b, c, line)) >= 0;
}

bool fzn_arg_set_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var) {
  bool found;
  int v = named_var(b, e, FZN_ENT_SET, line, what, &found);
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
  int v = named_var(b, e, FZN_ENT_FLOAT, line, what, &found);
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

/* --- Variables. --- */

static fzn_entity entity_of(fzn_base_type t) {
  switch (t) {
  case FZN_T_INT: return FZN_ENT_INT;
  case FZN_T_BOOL: return FZN_ENT_BOOL;
  case FZN_T_SET_OF_INT: return FZN_ENT_SET;
  case FZN_T_FLOAT: return FZN_ENT_FLOAT;
  }
  return FZN_ENT_NONE;
}

/* A fresh variable of the declared type and domain. An empty domain (`var 5..2: x`,
 * `var {}: x`, `var 1.0..0.0: f`) is no error: the model has no solution, as fzn-gecode
 * answers, so the variable gets the domain {0} and the space is failed. */
static int new_var(fzn_builder *b, const fzn_decl *d) {
  bb_error err;
  int var = -1, *vals, count;
  const fzn_expr *dom = d->type.domain;
  bool empty = (d->type.base == FZN_T_INT || d->type.base == FZN_T_FLOAT) && !d->type.has_float_domain && dom &&
               dom->u.set.ranges == 0;
  if (d->type.base == FZN_T_FLOAT && d->type.has_float_domain) empty = !(d->type.float_lo <= d->type.float_hi);
  if (empty) {
    var = d->type.base == FZN_T_INT ? bb_int_var(b->space, 0, 0, &err) : bb_float_var(b->space, 0.0, 0.0, &err);
    if (var < 0) fzn_report(b, d->line, "variable '%s': %s", d->name, err.msg);
    else bb_space_fail(b->space);
    return var;
  }
  switch (d->type.base) {
  case FZN_T_BOOL: var = bb_bool_var(b->space, 0, 1, &err); break;
  case FZN_T_INT:
    if (!dom) var = bb_int_var(b->space, (int)-FZN_INT_LIMIT, (int)FZN_INT_LIMIT, &err);
    else if (dom->u.set.ranges == 1) {
      int64_t lo = dom->u.set.bounds[0], hi = dom->u.set.bounds[1];
      if (!check_int_range(b, lo, d->line, d->name) || !check_int_range(b, hi, d->line, d->name)) return -1;
      var = bb_int_var(b->space, (int)lo, (int)hi, &err);
    } else {
      if (!set_values(b, dom, d->line, d->name, &vals, &count)) return -1;
      var = bb_int_var_values(b->space, vals, count, &err);
    }
    break;
  case FZN_T_SET_OF_INT:
    if (!dom) { /* unbounded: Gecode's whole set universe, as its own front end does */
      var = bb_set_var_universe(b->space, &err);
      break;
    }
    if (!set_values(b, dom, d->line, d->name, &vals, &count)) return -1;
    var = bb_set_var(b->space, NULL, 0, vals, count, 0, count, &err);
    break;
  case FZN_T_FLOAT:
    if (d->type.has_float_domain) var = bb_float_var(b->space, d->type.float_lo, d->type.float_hi, &err);
    else if (dom && dom->u.set.ranges >= 1) /* an int range written for a float */
      var = bb_float_var(b->space, (double)dom->u.set.bounds[0], (double)dom->u.set.bounds[2 * dom->u.set.ranges - 1], &err);
    else var = bb_float_var(b->space, -HUGE_VAL, HUGE_VAL, &err);
    break;
  }
  if (var < 0) fzn_report(b, d->line, "variable '%s': %s", d->name, err.msg);
  return var;
}

/* `var int: x :: ... = e;`: an alias of another variable, or a fixed value. */
static int bind_scalar(fzn_builder *b, const fzn_decl *d) {
  fzn_entity ent = entity_of(d->type.base);
  if (!d->value) return new_var(b, d);
  bool found;
  int v = named_var(b, d->value, ent, d->line, d->name, &found);
  if (found) return v;
  v = new_var(b, d);
  if (v < 0) return -1;
  bb_error err;
  bb_status st = BB_OK;
  if (ent == FZN_ENT_INT) {
    int c = 0;
    if (!fzn_arg_int(b, d->value, d->line, d->name, &c)) return -1;
    st = bb_post_int_rel_const(b->space, v, BB_EQ, c, bb_reif_none(), BB_IPL_DEF, &err);
  } else if (ent == FZN_ENT_BOOL) {
    bool c = false;
    if (!fzn_arg_bool(b, d->value, d->line, d->name, &c)) return -1;
    st = bb_post_bool_rel_const(b->space, v, BB_EQ, c, bb_reif_none(), &err);
  } else if (ent == FZN_ENT_FLOAT) {
    double c = 0;
    if (!fzn_arg_float(b, d->value, d->line, d->name, &c)) return -1;
    st = bb_post_float_rel_const(b->space, v, BB_EQ, c, bb_reif_none(), &err);
  } else {
    int src;
    if (!fzn_arg_set_var(b, d->value, d->line, d->name, &src)) return -1;
    return src;
  }
  if (st != BB_OK) fzn_report(b, d->line, "'%s': %s", d->name, err.msg);
  return st == BB_OK ? v : -1;
}

/* `array [1..n] of var 4..5: a = [x, y]`: the elements take the array's domain, as in
 * fzn-gecode (an empty one makes the model unsatisfiable). Set elements keep their own
 * bounds (MiniZinc declares them with the array's). */
static void restrict_elements(fzn_builder *b, const fzn_decl *d, const int *vars, int count) {
  const fzn_expr *dom = d->type.domain;
  bb_error err;
  if (d->type.base == FZN_T_FLOAT && d->type.has_float_domain) {
    if (!(d->type.float_lo <= d->type.float_hi)) {
      bb_space_fail(b->space);
      return;
    }
    for (int k = 0; k < count; k++)
      if (bb_post_float_in(b->space, vars[k], d->type.float_lo, d->type.float_hi, bb_reif_none(), &err) != BB_OK) {
        fzn_report(b, d->line, "'%s': %s", d->name, err.msg);
        return;
      }
    return;
  }
  if (d->type.base != FZN_T_INT || !dom) return;
  if (dom->u.set.ranges == 0) {
    bb_space_fail(b->space);
    return;
  }
  int *bounds = fzn_scratch(b, 2 * (size_t)dom->u.set.ranges * sizeof *bounds, d->line);
  if (!bounds) return;
  for (int r = 0; r < 2 * dom->u.set.ranges; r++) {
    int64_t v = dom->u.set.bounds[r];
    /* Beyond Gecode's limits the domain is no restriction on that side. */
    bounds[r] = v < -FZN_INT_LIMIT ? (int)-FZN_INT_LIMIT : v > FZN_INT_LIMIT ? (int)FZN_INT_LIMIT : (int)v;
  }
  for (int k = 0; k < count; k++)
    if (bb_post_int_in_ranges(b->space, vars[k], bounds, dom->u.set.ranges, bb_reif_none(), &err) != BB_OK) {
      fzn_report(b, d->line, "'%s': %s", d->name, err.msg);
      return;
    }
}

bool fzn_build_variables(fzn_builder *b, const fzn_model *model, FILE *errors) {
  memset(b, 0, sizeof *b);
  b->model = model;
  b->errors = errors;
  b->bool_const[0] = b->bool_const[1] = -1;
  bb_error err;
  b->space = bb_space_new(&err);
  b->int_consts = calloc(1, sizeof *b->int_consts);
  b->bindings = calloc((size_t)model->decl_count + 1, sizeof *b->bindings);
  if (!b->space || !b->int_consts || !b->bindings) {
    bb_note_out_of_memory();
    fprintf(errors, "%s: out of memory\n", model->file);
    b->error_count++;
    return false;
  }
  for (int k = 0; k < model->decl_count; k++) {
    const fzn_decl *d = model->decls[k];
    fzn_binding *bind = &b->bindings[k];
    if (!d->type.is_var) continue;
    b->declaring = d;
    bind->entity = entity_of(d->type.base);
    if (!d->type.is_array) {
      bind->var = bind_scalar(b, d);
      continue;
    }
    if (!d->value) {
      fzn_report(b, d->line, "array of variables '%s' has no elements", d->name);
      continue;
    }
    int *vars = NULL, count = 0;
    bool ok = d->type.base == FZN_T_INT     ? fzn_arg_int_var_array(b, d->value, d->line, d->name, &vars, &count)
              : d->type.base == FZN_T_BOOL  ? fzn_arg_bool_var_array(b, d->value, d->line, d->name, &vars, &count)
              : d->type.base == FZN_T_FLOAT ? fzn_arg_float_var_array(b, d->value, d->line, d->name, &vars, &count)
                                            : fzn_arg_set_var_array(b, d->value, d->line, d->name, &vars, &count);
    if (!ok) continue;
    bind->elems = vars;
    bind->count = count;
    restrict_elements(b, d, vars, count);
  }
  b->declaring = NULL;
  return b->error_count == 0;
}

void fzn_find_bool_images(fzn_builder *b) {
  int n = bb_int_var_count(b->space);
  b->bool_image = malloc((size_t)(n ? n : 1) * sizeof *b->bool_image);
  if (!b->bool_image) return; /* an optimisation only */
  b->bool_image_len = n;
  for (int k = 0; k < n; k++) b->bool_image[k] = -1;
  for (int k = 0; k < b->model->constraint_count; k++) {
    const fzn_constraint *c = b->model->constraints[k];
    if (strcmp(c->name, "bool2int") != 0 || c->count != 2) continue;
    bool found_b, found_x;
    int bv = named_var(b, c->args[0], FZN_ENT_BOOL, c->line, "bool2int", &found_b);
    int xv = named_var(b, c->args[1], FZN_ENT_INT, c->line, "bool2int", &found_x);
    if (found_b && found_x && bv >= 0 && xv >= 0 && xv < n) b->bool_image[xv] = bv;
  }
}

void fzn_builder_free(fzn_builder *b) {
  free(b->bool_image);
  free(b->use_count);
  for (int k = 0; k < b->scratch_len; k++) free(b->scratch[k]);
  free(b->scratch);
  if (b->int_consts) {
    free(b->int_consts->keys);
    free(b->int_consts->vars);
    free(b->int_consts);
  }
  free(b->bindings);
  fzn_paths_free(b->paths);
  bb_space_free(b->space);
  memset(b, 0, sizeof *b);
}
