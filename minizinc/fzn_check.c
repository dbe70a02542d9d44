/* Semantic checks the parser owes its caller: names declared before use, array accesses
 * in bounds, and declaration values that fit their declared type, domain and length.
 * Each error names the identifier or literal; checks report the first problem of an array
 * value only, so a bad 5 M-element literal gives one line, not millions. */
#include "fzn_parse_state.h"

#include <inttypes.h>
#include <string.h>

enum { TEXT = 160 };

static const char *base_name(fzn_base_type base) {
  switch (base) {
    case FZN_T_BOOL: return "bool";
    case FZN_T_INT: return "int";
    case FZN_T_FLOAT: return "float";
    case FZN_T_SET_OF_INT: break;
  }
  return "set of int";
}

void fzn_type_format(const fzn_type *type, char *buffer, size_t size) {
  char domain[TEXT] = "";
  if (type->domain)
    fzn_set_format(type->domain, domain, sizeof domain);
  else if (type->has_float_domain) {
    char lo[48], hi[48];
    fzn_float_format(type->float_lo, lo, sizeof lo);
    fzn_float_format(type->float_hi, hi, sizeof hi);
    snprintf(domain, sizeof domain, "%s..%s", lo, hi);
  }
  const char *scalar = base_name(type->base);
  if (domain[0]) scalar = type->base == FZN_T_SET_OF_INT ? "set of " : "";
  char array[48] = "";
  if (type->is_array) snprintf(array, sizeof array, "array [1..%" PRId64 "] of ", type->array_len);
  snprintf(buffer, size, "%s%s%s%s", array, type->is_var ? "var " : "", scalar, domain);
}

static const fzn_decl *find(const fzn_parser *p, const char *name) { return fzn_symbols_find(p->symbols, name); }

void fzn_check_names(fzn_parser *p, const fzn_expr *e) {
  switch (e->kind) {
    case FZN_E_ID:
      if (!find(p, e->u.id.name)) fzn_error(p, e->line, "unknown identifier '%s'", e->u.id.name);
      break;
    case FZN_E_ACCESS: {
      const fzn_decl *d = find(p, e->u.id.name);
      if (!d)
        fzn_error(p, e->line, "unknown identifier '%s'", e->u.id.name);
      else if (!d->type.is_array)
        fzn_error(p, e->line, "'%s' is not an array and cannot be indexed", e->u.id.name);
      else if (e->u.id.index < 1 || e->u.id.index > d->type.array_len)
        fzn_error(p, e->line, "index %" PRId64 " is out of bounds for '%s' (index set 1..%" PRId64 ")", e->u.id.index,
                  e->u.id.name, d->type.array_len);
      break;
    }
    case FZN_E_ARRAY:
      for (int k = 0; k < e->u.array.count; k++) {
        const fzn_expr *elem = e->u.array.elems[k];
        fzn_check_names(p, elem);
        const fzn_decl *d = elem->kind == FZN_E_ID ? find(p, elem->u.id.name) : NULL;
        if (d && d->type.is_array)
          fzn_error(p, elem->line, "array '%s' cannot be an element of an array literal", elem->u.id.name);
      }
      break;
    default: break;
  }
}

/* Inside annotations a name may be anything (a search strategy, an output hint), so only
 * an access into a declared array is checked: that one the builder would follow. */
static void check_annotation_expr(fzn_parser *p, const fzn_expr *e) {
  if (e->kind == FZN_E_ACCESS) {
    if (find(p, e->u.id.name)) fzn_check_names(p, e);
  } else if (e->kind == FZN_E_ARRAY) {
    for (int k = 0; k < e->u.array.count; k++) check_annotation_expr(p, e->u.array.elems[k]);
  } else if (e->kind == FZN_E_CALL) {
    for (int k = 0; k < e->u.call.count; k++) check_annotation_expr(p, e->u.call.args[k]);
  }
}

void fzn_check_annotations(fzn_parser *p, const fzn_annotations *annotations) {
  for (int k = 0; k < annotations->count; k++) check_annotation_expr(p, annotations->items[k]);
}

/* What a scalar expression is, as far as type checking needs to know. */
typedef struct value_type {
  bool known;   /* false: a name already reported unknown, or nothing to compare */
  bool literal; /* a literal (not a name) */
  fzn_base_type base;
  bool is_var, is_array;
  int64_t array_len;
} value_type;

static value_type type_of(const fzn_parser *p, const fzn_expr *e) {
  value_type t = {.known = true, .literal = true};
  switch (e->kind) {
    case FZN_E_BOOL: t.base = FZN_T_BOOL; break;
    case FZN_E_INT: t.base = FZN_T_INT; break;
    case FZN_E_FLOAT: t.base = FZN_T_FLOAT; break;
    case FZN_E_SET: t.base = FZN_T_SET_OF_INT; break;
    case FZN_E_ID:
    case FZN_E_ACCESS: {
      const fzn_decl *d = find(p, e->u.id.name);
      t.literal = false;
      if (!d || (e->kind == FZN_E_ACCESS && !d->type.is_array)) {
        t.known = false; /* reported by fzn_check_names */
        break;
      }
      t.base = d->type.base;
      t.is_var = d->type.is_var;
      t.is_array = e->kind == FZN_E_ID && d->type.is_array;
      t.array_len = d->type.array_len;
      break;
    }
    default: t.known = false; break; /* strings, calls and arrays: described by the caller */
  }
  return t;
}

/* "a bool literal", "'y' (var int)", "'y[3]' (var int)", "an array literal", ... */
static void describe(const fzn_parser *p, const fzn_expr *e, char *buffer, size_t size) {
  switch (e->kind) {
    case FZN_E_BOOL: snprintf(buffer, size, "a bool literal (%s)", e->u.b ? "true" : "false"); return;
    case FZN_E_INT: snprintf(buffer, size, "an int literal (%" PRId64 ")", e->u.i); return;
    case FZN_E_FLOAT: {
      char value[48];
      fzn_float_format(e->u.f, value, sizeof value);
      snprintf(buffer, size, "a float literal (%s)", value);
      return;
    }
    case FZN_E_SET: snprintf(buffer, size, "a set literal"); return;
    case FZN_E_STRING: snprintf(buffer, size, "a string literal"); return;
    case FZN_E_CALL: snprintf(buffer, size, "a call of '%s'", e->u.call.name); return;
    case FZN_E_ARRAY:
    case FZN_E_INTS:
    case FZN_E_BOOLS: snprintf(buffer, size, "an array literal"); return;
    case FZN_E_ID:
    case FZN_E_ACCESS: break;
  }
  const fzn_decl *d = find(p, e->u.id.name);
  char type[TEXT] = "?";
  if (d) {
    fzn_type scalar = d->type;
    if (e->kind == FZN_E_ACCESS) scalar.is_array = false;
    fzn_type_format(&scalar, type, sizeof type);
  }
  if (e->kind == FZN_E_ACCESS)
    snprintf(buffer, size, "'%s[%" PRId64 "]' (%s)", e->u.id.name, e->u.id.index, type);
  else
    snprintf(buffer, size, "'%s' (%s)", e->u.id.name, type);
}

/* Whether a value of type `v` may stand where `declared` (scalar) is expected. */
static bool base_fits(fzn_base_type declared, const value_type *v) {
  return v->base == declared || (declared == FZN_T_FLOAT && v->base == FZN_T_INT && v->literal);
}

/* Checks one scalar (a whole scalar value, or an element of an array value) against the
 * declared element type. `element` is 1-based for array elements, 0 for a scalar. */
static bool check_scalar(fzn_parser *p, const fzn_decl *d, const fzn_expr *e, int64_t element) {
  const fzn_type *t = &d->type;
  char type[TEXT], what[2 * TEXT], subject[48] = "its value", position[48] = "";
  if (element) {
    snprintf(subject, sizeof subject, "element %" PRId64, element);
    snprintf(position, sizeof position, " (element %" PRId64 ")", element);
  }
  value_type v = type_of(p, e);
  if (!v.known && (e->kind == FZN_E_ID || e->kind == FZN_E_ACCESS)) return false;
  if (element && v.is_array) return false; /* reported by fzn_check_names */
  if (!v.known || v.is_array || !base_fits(t->base, &v)) {
    fzn_type_format(t, type, sizeof type);
    describe(p, e, what, sizeof what);
    fzn_error(p, e->line, "type mismatch: '%s' is declared %s but %s is %s", d->name, type, subject, what);
    return false;
  }
  if (!t->is_var && v.is_var) {
    describe(p, e, what, sizeof what);
    fzn_error(p, e->line, "type mismatch: '%s' is a parameter but %s is variable %s", d->name, subject, what);
    return false;
  }
  /* Domains bind parameters; a variable assigned a value outside its domain is merely
   * unsatisfiable, which is the solver's business. */
  if (t->is_var || !v.literal) return true;
  char domain[TEXT];
  if (t->domain && e->kind == FZN_E_INT && !fzn_set_contains(t->domain, e->u.i)) {
    fzn_set_format(t->domain, domain, sizeof domain);
    fzn_error(p, e->line, "value %" PRId64 "%s of '%s' is outside its domain %s", e->u.i, position, d->name, domain);
    return false;
  }
  if (t->domain && e->kind == FZN_E_SET && !fzn_set_is_subset(e, t->domain)) {
    char value[TEXT];
    fzn_set_format(e, value, sizeof value);
    fzn_set_format(t->domain, domain, sizeof domain);
    fzn_error(p, e->line, "value %s%s of '%s' is not a subset of its domain %s", value, position, d->name, domain);
    return false;
  }
  if (t->has_float_domain && (e->kind == FZN_E_FLOAT || e->kind == FZN_E_INT)) {
    double f = e->kind == FZN_E_FLOAT ? e->u.f : (double)e->u.i;
    if (!(f >= t->float_lo && f <= t->float_hi)) {
      char value[48], lo[48], hi[48];
      fzn_float_format(f, value, sizeof value);
      fzn_float_format(t->float_lo, lo, sizeof lo);
      fzn_float_format(t->float_hi, hi, sizeof hi);
      fzn_error(p, e->line, "value %s%s of '%s' is outside its domain %s..%s", value, position, d->name, lo, hi);
      return false;
    }
  }
  return true;
}

static void check_array_value(fzn_parser *p, const fzn_decl *d) {
  const fzn_type *t = &d->type;
  const fzn_expr *e = d->value;
  char type[TEXT], what[2 * TEXT];
  int64_t length;
  switch (e->kind) {
    case FZN_E_INTS: length = e->u.ints.count; break;
    case FZN_E_BOOLS: length = e->u.bools.count; break;
    case FZN_E_ARRAY: length = e->u.array.count; break;
    default: {
      value_type v = type_of(p, e);
      if (!v.known && (e->kind == FZN_E_ID || e->kind == FZN_E_ACCESS)) return;
      if (!v.is_array || v.base != t->base || (!t->is_var && v.is_var)) {
        fzn_type_format(t, type, sizeof type);
        describe(p, e, what, sizeof what);
        fzn_error(p, e->line, "type mismatch: '%s' is declared %s but its value is %s", d->name, type, what);
        return;
      }
      length = v.array_len;
    }
  }
  if (length != t->array_len) {
    fzn_error(p, e->line, "'%s' is declared array [1..%" PRId64 "] but its value has %" PRId64 " element%s", d->name,
              t->array_len, length, length == 1 ? "" : "s");
    return;
  }
  if (e->kind == FZN_E_ARRAY) {
    for (int k = 0; k < e->u.array.count; k++)
      if (!check_scalar(p, d, e->u.array.elems[k], k + 1)) return;
  } else if (e->kind == FZN_E_INTS || e->kind == FZN_E_BOOLS) {
    if (length == 0) return;
    fzn_base_type literal = e->kind == FZN_E_INTS ? FZN_T_INT : FZN_T_BOOL;
    value_type v = {.known = true, .literal = true, .base = literal};
    if (!base_fits(t->base, &v)) {
      fzn_type_format(t, type, sizeof type);
      fzn_error(p, e->line, "type mismatch: '%s' is declared %s but its value is an array of %s literals", d->name,
                type, base_name(literal));
      return;
    }
    if (t->is_var || e->kind != FZN_E_INTS || !(t->domain || t->has_float_domain)) return;
    /* A parameter array with a domain: every literal must lie in it. */
    for (int k = 0; k < e->u.ints.count; k++) {
      fzn_expr literal_expr = {.kind = FZN_E_INT, .line = e->line, .u.i = fzn_ints_at(e, k)};
      if (!check_scalar(p, d, &literal_expr, k + 1)) return;
    }
  }
}

void fzn_check_value(fzn_parser *p, const fzn_decl *d) {
  if (d->type.is_array)
    check_array_value(p, d);
  else
    check_scalar(p, d, d->value, 0);
}

void fzn_check_objective(fzn_parser *p, const fzn_expr *e) {
  value_type v = type_of(p, e);
  if (!v.known && (e->kind == FZN_E_ID || e->kind == FZN_E_ACCESS)) return;
  if (v.known && !v.is_array && (v.base == FZN_T_INT || v.base == FZN_T_FLOAT)) return;
  char what[2 * TEXT];
  describe(p, e, what, sizeof what);
  fzn_error(p, e->line, "the objective must be an int or float expression, not %s", what);
}
