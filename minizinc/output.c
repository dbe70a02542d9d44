/* Solution output in FlatZinc's format. */
#include "output.h"

#include "bb_float.h"
#include "bb_shim.h"
#include "fzn_parse_state.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const fzn_expr *output_array_ann(const fzn_decl *d) { return fzn_find_call(&d->annotations, "output_array"); }

bool fzn_output_check(fzn_builder *b) {
  for (int k = 0; k < b->model->decl_count; k++) {
    const fzn_expr *ann = output_array_ann(b->model->decls[k]);
    if (!ann) continue;
    const fzn_expr *dims = ann->u.call.count == 1 ? ann->u.call.args[0] : NULL;
    bool ok = dims && dims->kind == FZN_E_ARRAY;
    for (int i = 0; ok && i < dims->u.array.count; i++) {
      const fzn_expr *r = dims->u.array.elems[i];
      ok = r->kind == FZN_E_SET && r->u.set.ranges <= 1;
    }
    if (!ok) fzn_report(b, ann->line, "'%s': output_array expects a list of index ranges", b->model->decls[k]->name);
  }
  return b->error_count == 0;
}

static void print_set_values(const int *v, int n, FILE *out) {
  if (n > 0 && v[n - 1] - v[0] == n - 1 && n > 1) {
    fprintf(out, "%d..%d", v[0], v[n - 1]);
    return;
  }
  fputc('{', out);
  for (int k = 0; k < n; k++) fprintf(out, k ? ",%d" : "%d", v[k]);
  fputc('}', out);
}

static void print_literal(const fzn_expr *e, FILE *out) {
  switch (e->kind) {
    case FZN_E_BOOL: fputs(e->u.b ? "true" : "false", out); break;
    case FZN_E_INT: fprintf(out, "%lld", (long long)e->u.i); break;
    case FZN_E_FLOAT: {
      char text[64];
      fzn_float_format(e->u.f, text, sizeof text);
      fputs(text, out);
      break;
    }
    case FZN_E_SET:
      if (e->u.set.ranges == 0)
        fputs("{}", out);
      else if (e->u.set.ranges == 1)
        fprintf(out, "%lld..%lld", (long long)e->u.set.bounds[0], (long long)e->u.set.bounds[1]);
      else {
        fputc('{', out);
        bool first = true;
        for (int r = 0; r < e->u.set.ranges; r++)
          for (int64_t v = e->u.set.bounds[2 * r]; v <= e->u.set.bounds[2 * r + 1]; v++, first = false)
            fprintf(out, first ? "%lld" : ",%lld", (long long)v);
        fputc('}', out);
      }
      break;
    default: fputs("?", out); break;
  }
}

/* A float variable's value as fzn-gecode prints it: 15 significant digits (the value is
 * only known to an interval, and this keeps the decimal noise of the interval's bounds out
 * of the answer), always with a '.' or an exponent so that it reads back as a float. */
static void print_float_value(double v, FILE *out) {
  char text[64];
  if (isinf(v)) {
    fputs(v < 0 ? "-infinity" : "infinity", out);
    return;
  }
  snprintf(text, sizeof text, "%.15g", v);
  char *e = strchr(text, 'e');
  if (!strchr(text, '.')) {
    if (e) { /* 1e-05 -> 1.0e-05 */
      char exponent[32];
      snprintf(exponent, sizeof exponent, "%s", e);
      snprintf(e, sizeof text - (size_t)(e - text), ".0%s", exponent);
    } else {
      strcat(text, ".0");
    }
  }
  fputs(text, out);
}

/* One value: a variable of the given entity, or (var < 0) a literal. false when memory
 * for a set's elements ran out (nothing is printed: a wrong value would be worse). */
static bool print_var(const bb_space *s, fzn_entity ent, int var, FILE *out) {
  if (ent == FZN_ENT_INT)
    fprintf(out, "%d", bb_int_min(s, var));
  else if (ent == FZN_ENT_FLOAT)
    print_float_value(bb_float_value(s, var), out);
  else if (ent == FZN_ENT_BOOL)
    fputs(bb_bool_min(s, var) ? "true" : "false", out);
  else {
    int n = bb_set_glb(s, var, NULL, 0);
    int *v = malloc((size_t)(n ? n : 1) * sizeof *v);
    if (!v) return false;
    bb_set_glb(s, var, v, n);
    if (n == 0)
      fputs("{}", out);
    else
      print_set_values(v, n, out);
    free(v);
  }
  return true;
}

/* Element k of a declaration's array value. */
static bool print_elem(const fzn_builder *b, const fzn_decl *d, int k, const bb_space *s, FILE *out) {
  const fzn_binding *bind = &b->bindings[d->index];
  if (d->type.is_var && bind->elems) return print_var(s, bind->entity, bind->elems[k], out);
  const fzn_expr *v = d->value;
  if (v->kind == FZN_E_INTS)
    fprintf(out, "%lld", (long long)fzn_ints_at(v, k));
  else if (v->kind == FZN_E_BOOLS)
    fputs(v->u.bools.values[k] ? "true" : "false", out);
  else
    print_literal(v->u.array.elems[k], out);
  return true;
}

static int64_t array_length(const fzn_builder *b, const fzn_decl *d) {
  const fzn_binding *bind = &b->bindings[d->index];
  if (d->type.is_var && bind->elems) return bind->count;
  const fzn_expr *v = d->value;
  if (!v) return 0;
  return v->kind == FZN_E_INTS ? v->u.ints.count : v->kind == FZN_E_BOOLS ? v->u.bools.count : v->u.array.count;
}

int fzn_output_flush(FILE *out) {
  if (fflush(out) != 0) return errno ? errno : EIO;
  return ferror(out) ? EIO : 0;
}

int fzn_output_solution(const fzn_builder *b, const bb_space *s, FILE *out) {
  const fzn_model *m = b->model;
  bool ok = true;
  for (int k = 0; ok && k < m->decl_count; k++) {
    const fzn_decl *d = m->decls[k];
    const fzn_expr *arr = output_array_ann(d);
    if (arr && d->type.is_array) {
      const fzn_expr *dims = arr->u.call.args[0];
      fprintf(out, "%s = array%dd(", d->name, dims->u.array.count);
      for (int i = 0; i < dims->u.array.count; i++) {
        const fzn_expr *r = dims->u.array.elems[i];
        if (r->u.set.ranges == 0)
          fputs("{}, ", out);
        else
          fprintf(out, "%lld..%lld, ", (long long)r->u.set.bounds[0], (long long)r->u.set.bounds[1]);
      }
      fputc('[', out);
      int64_t n = array_length(b, d);
      for (int64_t e = 0; ok && e < n; e++) {
        if (e) fputs(", ", out);
        ok = print_elem(b, d, (int)e, s, out);
      }
      fputs("]);\n", out);
    } else if (fzn_has_atom(&d->annotations, "output_var")) {
      fprintf(out, "%s = ", d->name);
      if (d->type.is_var)
        ok = print_var(s, b->bindings[d->index].entity, b->bindings[d->index].var, out);
      else if (d->value)
        print_literal(d->value, out);
      fputs(";\n", out);
    }
  }
  if (!ok) return ENOMEM; /* the separator is not written: the partial solution is no solution */
  fputs("----------\n", out);
  return fzn_output_flush(out);
}
