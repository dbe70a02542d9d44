/* The builder's variables (see build.h): one shim variable per FlatZinc variable (aliases
 * share one), the cached constant variables, and the builder's lifetime. Argument
 * resolution is in build_args.c, messages in build_report.c. */
#include "build.h"
#include "build_internal.h"

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

/* --- Constant variables: value -> variable index, open addressing. --- */
struct fzn_const_map {
  int64_t *keys;
  int *vars;
  size_t cap, len;
};

int fzn_const_int_var(fzn_builder *b, int value, int line) {
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

int fzn_const_bool_var(fzn_builder *b, bool value, int line) {
  if (b->bool_const[value] < 0) {
    bb_error err;
    b->bool_const[value] = bb_bool_var(b->space, value, value, &err);
    if (b->bool_const[value] < 0) fzn_report(b, line, "%s", err.msg);
  }
  return b->bool_const[value];
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
    if (var < 0)
      fzn_report(b, d->line, "variable '%s': %s", d->name, err.msg);
    else
      bb_space_fail(b->space);
    return var;
  }
  switch (d->type.base) {
    case FZN_T_BOOL: var = bb_bool_var(b->space, 0, 1, &err); break;
    case FZN_T_INT:
      if (!dom)
        var = bb_int_var(b->space, (int)-FZN_INT_LIMIT, (int)FZN_INT_LIMIT, &err);
      else if (dom->u.set.ranges == 1) {
        int64_t lo = dom->u.set.bounds[0], hi = dom->u.set.bounds[1];
        if (!fzn_check_int_range(b, lo, d->line, d->name) || !fzn_check_int_range(b, hi, d->line, d->name)) return -1;
        var = bb_int_var(b->space, (int)lo, (int)hi, &err);
      } else {
        if (!fzn_set_values(b, dom, d->line, d->name, &vals, &count)) return -1;
        var = bb_int_var_values(b->space, vals, count, &err);
      }
      break;
    case FZN_T_SET_OF_INT:
      if (!dom) { /* unbounded: Gecode's whole set universe, as its own front end does */
        var = bb_set_var_universe(b->space, &err);
        break;
      }
      if (!fzn_set_values(b, dom, d->line, d->name, &vals, &count)) return -1;
      var = bb_set_var(b->space, NULL, 0, vals, count, 0, count, &err);
      break;
    case FZN_T_FLOAT:
      if (d->type.has_float_domain)
        var = bb_float_var(b->space, d->type.float_lo, d->type.float_hi, &err);
      else if (dom && dom->u.set.ranges >= 1) /* an int range written for a float */
        var = bb_float_var(b->space, (double)dom->u.set.bounds[0], (double)dom->u.set.bounds[2 * dom->u.set.ranges - 1],
                           &err);
      else
        var = bb_float_var(b->space, -HUGE_VAL, HUGE_VAL, &err);
      break;
  }
  if (var < 0) fzn_report(b, d->line, "variable '%s': %s", d->name, err.msg);
  return var;
}

static void restrict_elements(fzn_builder *b, const fzn_decl *d, const int *vars, int count);

/* `var int: x :: ... = e;`: an alias of another variable, or a fixed value. An alias takes
 * the declared domain too (`var 1..5: x = y;` with y in 1..10 restricts y to 1..5), as an
 * array of variables does. */
static int bind_scalar(fzn_builder *b, const fzn_decl *d) {
  fzn_entity ent = entity_of(d->type.base);
  if (!d->value) return new_var(b, d);
  bool found;
  int v = fzn_named_var(b, d->value, ent, d->line, d->name, &found);
  if (found) {
    if (v >= 0) restrict_elements(b, d, &v, 1);
    return v;
  }
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
    restrict_elements(b, d, &src, 1);
    return src;
  }
  if (st != BB_OK) fzn_report(b, d->line, "'%s': %s", d->name, err.msg);
  return st == BB_OK ? v : -1;
}

/* `array [1..n] of var 4..5: a = [x, y]`: the elements take the array's domain, as in
 * fzn-gecode (an empty one makes the model unsatisfiable). Set elements become subsets of
 * the array's set (`array [1..n] of var set of 1..3`): MiniZinc usually declares them with
 * the same bound, but FlatZinc does not promise it. */
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
  if (d->type.base == FZN_T_SET_OF_INT && dom) {
    int *vals, n;
    if (!fzn_set_values(b, dom, d->line, d->name, &vals, &n)) return;
    /* A fixed set (lower bound = upper bound): the search never branches on it. */
    int bound = bb_set_var(b->space, vals, n, vals, n, n, n, &err);
    if (bound < 0) {
      fzn_report(b, d->line, "'%s': %s", d->name, err.msg);
      return;
    }
    for (int k = 0; k < count; k++)
      if (bb_post_set_rel(b->space, vars[k], BB_SET_SUBSET, bound, bb_reif_none(), &err) != BB_OK) {
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
    int bv = fzn_named_var(b, c->args[0], FZN_ENT_BOOL, c->line, "bool2int", &found_b);
    int xv = fzn_named_var(b, c->args[1], FZN_ENT_INT, c->line, "bool2int", &found_x);
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
