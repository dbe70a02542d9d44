/* The FlatZinc parser (minizinc/fzn_model.h): ASTs of real MiniZinc 2.6.4 output and of
 * hand-written texts covering the grammar, and every error class with its exact message
 * and line. Expressions are compared through show(), a compact printer, so an expectation
 * reads like the FlatZinc it came from. Argument: the directory of tests/data/fzn. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "fzn_arena.h"
#include "fzn_model.h"
#include "fzn_paths.h"
#include "test_util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- show(): an expression as text -------------------------------------------------------- */

typedef struct text {
  char buffer[4096];
  size_t used;
} text;

static void put(text *t, const char *format, ...) {
  if (t->used >= sizeof t->buffer) return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(t->buffer + t->used, sizeof t->buffer - t->used, format, args);
  va_end(args);
  if (n > 0) t->used += (size_t)n;
}

static void show_into(text *t, const fzn_expr *e) {
  switch (e->kind) {
    case FZN_E_BOOL: put(t, e->u.b ? "true" : "false"); break;
    case FZN_E_INT: put(t, "%" PRId64, e->u.i); break;
    case FZN_E_FLOAT: put(t, "%g", e->u.f); break;
    case FZN_E_SET:
      /* Ranges as stored: "{}" or "{1..3,5..5}", so normalisation is visible. */
      put(t, "{");
      for (int r = 0; r < e->u.set.ranges; r++)
        put(t, "%s%" PRId64 "..%" PRId64, r ? "," : "", e->u.set.bounds[2 * r], e->u.set.bounds[2 * r + 1]);
      put(t, "}");
      break;
    case FZN_E_STRING: put(t, "\"%s\"", e->u.str); break;
    case FZN_E_ID: put(t, "%s", e->u.id.name); break;
    case FZN_E_ACCESS: put(t, "%s[%" PRId64 "]", e->u.id.name, e->u.id.index); break;
    case FZN_E_ARRAY:
      put(t, "[");
      for (int k = 0; k < e->u.array.count; k++) {
        if (k) put(t, ",");
        show_into(t, e->u.array.elems[k]);
      }
      put(t, "]");
      break;
    case FZN_E_INTS: /* "ints[...]": visibly the flat representation */
      put(t, "ints[");
      for (int k = 0; k < e->u.ints.count; k++) put(t, "%s%" PRId64, k ? "," : "", fzn_ints_at(e, k));
      put(t, "]");
      break;
    case FZN_E_BOOLS:
      put(t, "bools[");
      for (int k = 0; k < e->u.bools.count; k++) put(t, "%s%s", k ? "," : "", e->u.bools.values[k] ? "true" : "false");
      put(t, "]");
      break;
    case FZN_E_CALL:
      put(t, "%s(", e->u.call.name);
      for (int k = 0; k < e->u.call.count; k++) {
        if (k) put(t, ",");
        show_into(t, e->u.call.args[k]);
      }
      put(t, ")");
      break;
  }
}

/* Rotating buffers, so that two show() results can sit in one CHECK. */
static const char *show(const fzn_expr *e) {
  static text texts[4];
  static int next;
  text *t = &texts[next++ % 4];
  t->used = 0;
  t->buffer[0] = '\0';
  if (e)
    show_into(t, e);
  else
    put(t, "(null)");
  return t->buffer;
}

static const char *show_annotations(const fzn_annotations *a) {
  static text t;
  t.used = 0;
  t.buffer[0] = '\0';
  for (int k = 0; k < a->count; k++) {
    put(&t, " :: ");
    show_into(&t, a->items[k]);
  }
  return t.buffer;
}

static const char *show_args(const fzn_constraint *c) {
  static text t;
  t.used = 0;
  t.buffer[0] = '\0';
  put(&t, "%s(", c->name);
  for (int k = 0; k < c->count; k++) {
    if (k) put(&t, ",");
    show_into(&t, c->args[k]);
  }
  put(&t, ")");
  return t.buffer;
}

#define CHECK_SHOW(actual, expected)                                \
  do {                                                              \
    const char *a_ = (actual), *e_ = (expected);                    \
    CHECKF(strcmp(a_, e_) == 0, "got '%s', expected '%s'", a_, e_); \
  } while (0)

/* ---- parsing helpers ----------------------------------------------------------------------- */

static char captured[8192];

/* Parses `source` as "t.fzn"; the error output lands in `captured`. */
static fzn_model *parse(const char *source) {
  FILE *errors = tmpfile();
  if (!errors) {
    perror("tmpfile");
    exit(2);
  }
  fzn_model *m = fzn_parse_string(source, strlen(source), "t.fzn", errors);
  rewind(errors);
  size_t n = fread(captured, 1, sizeof captured - 1, errors);
  captured[n] = '\0';
  fclose(errors);
  return m;
}

/* Parses a text that must be accepted without a word on the error stream. */
static fzn_model *parse_ok(const char *source) {
  fzn_model *m = parse(source);
  CHECKF(m != NULL && captured[0] == '\0', "unexpected errors:\n%s", captured);
  return m;
}

/* Parses a text that must be rejected with exactly `expected` (all lines) as errors. */
#define CHECK_ERRORS(source, expected)                                                            \
  do {                                                                                            \
    fzn_model *m_ = parse(source);                                                                \
    CHECKF(m_ == NULL, "accepted: %s", source);                                                   \
    CHECKF(strcmp(captured, expected) == 0, "errors\n%s--- expected\n%s---", captured, expected); \
    fzn_model_free(m_);                                                                           \
  } while (0)

static const fzn_decl *decl(const fzn_model *m, const char *name) {
  const fzn_decl *d = fzn_lookup(m, name);
  CHECKF(d != NULL, "no declaration '%s'", name);
  return d;
}

static const char *show_domain(const fzn_decl *d) { return d ? show(d->type.domain) : "?"; }

/* ---- real MiniZinc output ------------------------------------------------------------------ */

static fzn_model *parse_data(const char *dir, const char *file) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  fzn_model *m = fzn_parse_file(path, stderr);
  CHECKF(m != NULL, "%s rejected", path);
  return m;
}

static void test_queens(const char *dir) {
  fzn_model *m = parse_data(dir, "queens.fzn");
  if (!m) return;
  CHECK(m->decl_count == 10 && m->constraint_count == 84 && m->predicate_count == 0);
  const fzn_decl *coef = decl(m, "X_INTRODUCED_8_");
  CHECK(coef->type.is_array && !coef->type.is_var && coef->type.base == FZN_T_INT && coef->type.array_len == 2);
  CHECK_SHOW(show(coef->value), "ints[1,-1]");
  const fzn_decl *q = decl(m, "q");
  CHECK(q->type.is_array && q->type.is_var && q->type.array_len == 8 && q->index == 9);
  CHECK_SHOW(show_annotations(&q->annotations), " :: output_array([{1..8}])");
  CHECK(q->value->kind == FZN_E_ARRAY && q->value->u.array.count == 8);
  CHECK_SHOW(show(q->value->u.array.elems[7]), "X_INTRODUCED_7_");
  CHECK_SHOW(show_domain(decl(m, "X_INTRODUCED_0_")), "{1..8}");
  CHECK_SHOW(show_args(m->constraints[0]), "int_lin_ne(X_INTRODUCED_8_,[X_INTRODUCED_0_,X_INTRODUCED_1_],0)");
  CHECK(m->constraints[0]->line == 11);
  CHECK(m->has_solve && m->solve.kind == FZN_SATISFY && !m->solve.objective);
  CHECK_SHOW(show_annotations(&m->solve.annotations), " :: int_search(q,first_fail,indomain_min,complete)");
  fzn_model_free(m);
}

static void test_knapsack(const char *dir) {
  fzn_model *m = parse_data(dir, "knapsack.fzn");
  if (!m) return;
  const fzn_decl *chosen = decl(m, "chosen");
  CHECK(chosen->type.base == FZN_T_SET_OF_INT && chosen->type.is_var && !chosen->type.is_array);
  CHECK_SHOW(show_domain(chosen), "{1..4}");
  const fzn_decl *take = decl(m, "take");
  CHECK(take->type.base == FZN_T_BOOL && take->type.is_var && take->type.array_len == 4);
  CHECK_SHOW(show_annotations(&decl(m, "grid")->annotations), " :: output_array([{1..2},{1..3}])");
  CHECK_SHOW(show_annotations(&decl(m, "X_INTRODUCED_4_")->annotations), " :: var_is_introduced :: is_defined_var");
  CHECK(m->solve.kind == FZN_MAXIMIZE);
  CHECK_SHOW(show(m->solve.objective), "value");
  CHECK_SHOW(show_annotations(&m->solve.annotations),
             " :: seq_search([bool_search(take,input_order,indomain_max,complete),"
             "int_search([X_INTRODUCED_16_,X_INTRODUCED_17_,X_INTRODUCED_18_,X_INTRODUCED_19_,"
             "X_INTRODUCED_20_,X_INTRODUCED_21_],first_fail,indomain_min,complete)])");
  const fzn_constraint *c = m->constraints[m->constraint_count - 1];
  CHECK_SHOW(show_args(c), "bool2int(X_INTRODUCED_3_,X_INTRODUCED_13_)");
  CHECK_SHOW(show_annotations(&c->annotations), " :: defines_var(X_INTRODUCED_13_)");
  fzn_model_free(m);
}

static void test_globals(const char *dir) {
  fzn_model *m = parse_data(dir, "globals.fzn");
  if (!m) return;
  CHECK(m->predicate_count == 3);
  CHECK(m->predicate_count == 3 && strcmp(m->predicates[0], "gecode_circuit") == 0 &&
        strcmp(m->predicates[2], "int_eq_imp") == 0);
  const fzn_decl *sets = decl(m, "X_INTRODUCED_28_");
  CHECK(sets->type.is_array && sets->type.base == FZN_T_SET_OF_INT && !sets->type.domain);
  CHECK_SHOW(show(sets->value), "[s]");
  CHECK_SHOW(show(decl(m, "X_INTRODUCED_22_")->value), "ints[3,1,4,1,5]");
  bool found = false;
  for (int k = 0; k < m->constraint_count; k++)
    if (strcmp(m->constraints[k]->name, "array_bool_or") == 0) {
      CHECK_SHOW(show_args(m->constraints[k]),
                 "array_bool_or([X_INTRODUCED_24_,X_INTRODUCED_25_,X_INTRODUCED_27_],true)");
      found = true;
    }
  CHECK(found);
  CHECK_SHOW(show_annotations(&m->solve.annotations),
             " :: set_search(X_INTRODUCED_28_,input_order,indomain_min,complete)"
             " :: int_search(x,input_order,indomain_min,complete)");
  fzn_model_free(m);
}

static void test_scheduling(const char *dir) {
  fzn_model *m = parse_data(dir, "scheduling.fzn");
  if (!m) return;
  /* MiniZinc writes the domain 0..20 minus {3} element by element: one sorted range pair. */
  CHECK_SHOW(show_domain(decl(m, "X_INTRODUCED_0_")), "{0..2,4..20}");
  CHECK_SHOW(show_domain(decl(m, "X_INTRODUCED_1_")), "{0..6,8..20}");
  CHECK(m->solve.kind == FZN_MINIMIZE);
  CHECK_SHOW(show(m->solve.objective), "makespan");
  CHECK_SHOW(show_annotations(&m->solve.annotations),
             " :: int_search(s,smallest,indomain_split,complete) :: restart_luby(100)");
  fzn_model_free(m);
}

static void test_floats(const char *dir) {
  fzn_model *m = parse_data(dir, "floats.fzn");
  if (!m) return;
  const fzn_decl *x = decl(m, "x"), *y = decl(m, "y");
  CHECK(x->type.base == FZN_T_FLOAT && x->type.is_var && x->type.has_float_domain && x->type.float_lo == 0.0 &&
        x->type.float_hi == 10.0);
  CHECK(y->type.base == FZN_T_FLOAT && !y->type.has_float_domain);
  CHECK(decl(m, "X_INTRODUCED_3_")->value->kind == FZN_E_ARRAY);
  CHECK_SHOW(show(decl(m, "X_INTRODUCED_3_")->value), "[-1,-1]");
  CHECK_SHOW(show_args(m->constraints[0]), "float_lin_le(X_INTRODUCED_3_,[x,y],-2.5)");
  CHECK(m->solve.kind == FZN_MINIMIZE);
  fzn_model_free(m);
}

static void test_stable_marriage(const char *dir) {
  fzn_model *m = parse_data(dir, "stable_marriage_3.fzn");
  if (!m) return;
  CHECK(m->predicate_count == 1 && strcmp(m->predicates[0], "bamboo_stable_matching") == 0);
  CHECK_SHOW(show(decl(m, "pm")->value), "ints[1,2,3,2,1,3,3,1,2]");
  CHECK(m->constraint_count == 1);
  CHECK_SHOW(show_args(m->constraints[0]), "bamboo_stable_matching(wife,husband,pm,pw,3,3,3,3)");
  CHECK_SHOW(show_annotations(&m->constraints[0]->annotations), " :: gpu");
  fzn_model_free(m);
}

/* ---- hand-written texts: the grammar ------------------------------------------------------- */

static void test_declarations(void) {
  fzn_model *m = parse_ok(
      "bool: b = true;\n"
      "int: i = -5;\n"
      "float: f = 2.5;\n"
      "set of int: s = {5, 1, 3, 2, 3};\n"
      "set of int: none = {};\n"
      "set of int: backwards = 5..1;\n"
      "1..10: bounded = 10;\n"
      "set of 1..9: sub = 2..4;\n"
      "array [1..3] of int: a = [1, 0x1F, -0o17];\n"
      "array [1..2] of bool: bs = [true, false];\n"
      "array [1..2] of set of int: ss = [{1,2}, 3..5];\n"
      "array [1..0] of int: empty = [];\n"
      "array [1..2] of float: fs = [1.5, -2.0e3];\n"
      "var 1..10: x :: output_var;\n"
      "var {1, 3, 5}: y;\n"
      "var bool: z;\n"
      "var int: unbounded;\n"
      "var set of 1..5: vs;\n"
      "var set of {2, 4}: vs2;\n"
      "var 0.0..1.0: fl;\n"
      "var int: alias = x;\n"
      "array [1..3] of var int: xs :: output_array([1..3]) = [x, y, 3];\n"
      "var int: picked = xs[2];\n"
      "array [1..2] of var bool: fixed = [true, z];\n"
      "solve satisfy;\n");
  if (!m) return;
  CHECK(m->decl_count == 24 && m->constraint_count == 0);
  CHECK_SHOW(show(decl(m, "b")->value), "true");
  CHECK_SHOW(show(decl(m, "i")->value), "-5");
  CHECK(decl(m, "f")->type.base == FZN_T_FLOAT && decl(m, "f")->value->u.f == 2.5);
  CHECK_SHOW(show(decl(m, "s")->value), "{1..3,5..5}");
  CHECK_SHOW(show(decl(m, "none")->value), "{}");
  CHECK_SHOW(show(decl(m, "backwards")->value), "{}");
  CHECK_SHOW(show_domain(decl(m, "bounded")), "{1..10}");
  CHECK(!decl(m, "bounded")->type.is_var && decl(m, "bounded")->type.base == FZN_T_INT);
  CHECK(decl(m, "sub")->type.base == FZN_T_SET_OF_INT);
  CHECK_SHOW(show_domain(decl(m, "sub")), "{1..9}");
  CHECK_SHOW(show(decl(m, "a")->value), "ints[1,31,-15]");
  CHECK_SHOW(show(decl(m, "bs")->value), "bools[true,false]");
  CHECK_SHOW(show(decl(m, "ss")->value), "[{1..2},{3..5}]");
  CHECK_SHOW(show(decl(m, "empty")->value), "ints[]");
  CHECK(decl(m, "empty")->type.array_len == 0);
  CHECK_SHOW(show(decl(m, "fs")->value), "[1.5,-2000]");
  const fzn_decl *x = decl(m, "x");
  CHECK(x->type.is_var && x->type.base == FZN_T_INT && !x->value && x->line == 14);
  CHECK_SHOW(show_domain(x), "{1..10}");
  CHECK_SHOW(show_annotations(&x->annotations), " :: output_var");
  CHECK_SHOW(show_domain(decl(m, "y")), "{1..1,3..3,5..5}");
  CHECK(decl(m, "z")->type.base == FZN_T_BOOL && !decl(m, "z")->type.domain);
  CHECK(!decl(m, "unbounded")->type.domain);
  CHECK_SHOW(show_domain(decl(m, "vs")), "{1..5}");
  CHECK_SHOW(show_domain(decl(m, "vs2")), "{2..2,4..4}");
  const fzn_decl *fl = decl(m, "fl");
  CHECK(fl->type.has_float_domain && fl->type.float_lo == 0.0 && fl->type.float_hi == 1.0);
  CHECK_SHOW(show(decl(m, "alias")->value), "x");
  CHECK_SHOW(show(decl(m, "xs")->value), "[x,y,3]");
  CHECK(decl(m, "xs")->index == 21 && m->decls[21] == decl(m, "xs"));
  CHECK_SHOW(show(decl(m, "picked")->value), "xs[2]");
  CHECK_SHOW(show(decl(m, "fixed")->value), "[true,z]");
  CHECK(fzn_lookup(m, "nowhere") == NULL);
  CHECK(strcmp(m->file, "t.fzn") == 0);
  fzn_model_free(m);
}

static void test_integer_literals(void) {
  fzn_model *m = parse_ok(
      "int: max = 9223372036854775807;\n"
      "int: min = -9223372036854775808;\n"
      "int: hex = 0x7fffffffffffffff;\n"
      "int: neg_hex = -0x8000000000000000;\n"
      "int: oct = 0o777;\n"
      "int: zeros = 007;\n"
      "array [1..4] of int: mixed_bases = [0x10,0o10,10,-0x1];\n"
      "solve satisfy;\n");
  if (!m) return;
  CHECK(decl(m, "max")->value->u.i == INT64_MAX);
  CHECK(decl(m, "min")->value->u.i == INT64_MIN);
  CHECK(decl(m, "hex")->value->u.i == INT64_MAX);
  CHECK(decl(m, "neg_hex")->value->u.i == INT64_MIN);
  CHECK(decl(m, "oct")->value->u.i == 511);
  CHECK(decl(m, "zeros")->value->u.i == 7);
  CHECK_SHOW(show(decl(m, "mixed_bases")->value), "ints[16,8,10,-1]");
  fzn_model_free(m);
}

/* Int literals followed by commas reach the parser in runs (lexer.l); every list context
 * must accept them, and a range's upper bound must not be swallowed by one. */
static void test_int_lists(void) {
  fzn_model *m = parse_ok(
      "array [1..5] of int: spaced = [ 1 , 2,\n  3 ,4,\t5 ];\n"
      "array [1..4] of int: commented = [1, % one\n 2, % two\n 3, 4];\n"
      "var 1..9: x;\n"
      "array [1..4] of var int: head = [1, 2, x, 3];\n"
      "array [1..4] of var int: tail = [x, 1, 2, 3];\n"
      "set of int: s = {3, 1, 2};\n"
      "array [1..3] of var int: with_bool = [1, 2, x];\n"
      "constraint foo(1, 2, 3);\n"
      "constraint bar(1..3, 4, [5, 6], x);\n"
      "constraint baz([1..3, 5, 7..8], 3..4, -2..-1);\n"
      "solve :: output_array([1..2,1..3])\n"
      "      :: warm_start(head, [1, 2, 3, 4]) satisfy;\n");
  if (!m) return;
  CHECK_SHOW(show(decl(m, "spaced")->value), "ints[1,2,3,4,5]");
  CHECK_SHOW(show(decl(m, "commented")->value), "ints[1,2,3,4]");
  CHECK_SHOW(show(decl(m, "head")->value), "[1,2,x,3]");
  CHECK_SHOW(show(decl(m, "tail")->value), "[x,1,2,3]");
  CHECK_SHOW(show(decl(m, "s")->value), "{1..3}");
  CHECK(m->constraint_count == 3);
  CHECK_SHOW(show_args(m->constraints[0]), "foo(1,2,3)");
  CHECK(m->constraints[0]->args[0]->kind == FZN_E_INT);
  CHECK_SHOW(show_args(m->constraints[1]), "bar({1..3},4,ints[5,6],x)");
  /* An int among ranges is an int node; range bounds stay ranges. */
  CHECK_SHOW(show_args(m->constraints[2]), "baz([{1..3},5,{7..8}],{3..4},{-2..-1})");
  CHECK_SHOW(show_annotations(&m->solve.annotations),
             " :: output_array([{1..2},{1..3}]) :: warm_start(head,ints[1,2,3,4])");
  fzn_model_free(m);

  /* An int array that turns mixed late keeps every element, in order. */
  char source[8192] = "var int: v;\narray [1..600] of var int: late = [";
  for (int k = 1; k < 600; k++) snprintf(source + strlen(source), 16, "%d,", k);
  strcat(source, "v];\nsolve satisfy;\n");
  m = parse_ok(source);
  if (!m) return;
  const fzn_expr *late = decl(m, "late")->value;
  CHECK(late->kind == FZN_E_ARRAY && late->u.array.count == 600);
  CHECK(late->u.array.count == 600 && late->u.array.elems[0]->u.i == 1 && late->u.array.elems[598]->u.i == 599 &&
        late->u.array.elems[599]->kind == FZN_E_ID);
  fzn_model_free(m);
}

/* The lexer's fast path for long runs (lexer.l, scan_run) against the values written: every
 * format an int run may take (no blanks, blanks and tabs after commas, newlines, negatives,
 * 1 to 19 digits, leading zeros), from memory and from a file (whose reads end mid-literal
 * many times), and the int32 storage with its widening at the first literal that needs
 * int64. */
static void append(char **buf, size_t *len, size_t *cap, const char *piece) {
  size_t n = strlen(piece);
  if (*len + n + 1 > *cap) {
    *cap = (*len + n + 1) * 2;
    *buf = realloc(*buf, *cap);
  }
  memcpy(*buf + *len, piece, n + 1);
  *len += n;
}

static void check_run_values(const fzn_model *m, const char *name, const int64_t *want, int count, bool wide) {
  const fzn_decl *d = decl(m, name);
  if (!d) return;
  const fzn_expr *e = d->value;
  CHECKF(e->kind == FZN_E_INTS && e->u.ints.count == count, "%s: kind %d, %d values", name, (int)e->kind,
         e->kind == FZN_E_INTS ? e->u.ints.count : -1);
  if (e->kind != FZN_E_INTS || e->u.ints.count != count) return;
  CHECKF(e->u.ints.is_wide == wide, "%s: wide %d", name, (int)e->u.ints.is_wide);
  int64_t lo = want[0], hi = want[0];
  int first_wrong = -1;
  for (int k = 0; k < count; k++) {
    lo = want[k] < lo ? want[k] : lo;
    hi = want[k] > hi ? want[k] : hi;
    if (first_wrong < 0 && fzn_ints_at(e, k) != want[k]) first_wrong = k;
  }
  CHECKF(first_wrong < 0, "%s[%d] = %" PRId64 ", wrote %" PRId64, name, first_wrong,
         first_wrong < 0 ? 0 : fzn_ints_at(e, first_wrong), first_wrong < 0 ? 0 : want[first_wrong]);
  CHECK(e->u.ints.min == lo && e->u.ints.max == hi);
}

static void test_int_runs(void) {
  enum { COUNT = 300000 };
  int64_t *narrow = malloc(COUNT * sizeof *narrow), *wide = malloc(COUNT * sizeof *wide);
  char *src = NULL, piece[64];
  size_t len = 0, cap = 0;
  uint64_t seed = 2026;
  for (int which = 0; which < 2; which++) {
    int64_t *want = which ? wide : narrow;
    snprintf(piece, sizeof piece, "array [1..%d] of int: %s = [", COUNT, which ? "wide" : "narrow");
    append(&src, &len, &cap, piece);
    for (int k = 0; k < COUNT; k++) {
      uint64_t r = tu_rand(&seed);
      int64_t v;
      switch (r % 16) {
        case 0: v = -(int64_t)(r >> 40); break;                          /* negative */
        case 1: v = (int64_t)((r >> 8) % 1000000000000000000ull); break; /* up to 18 digits */
        case 2: v = (int64_t)(r >> 33) % 100000000; break;               /* 8 digits */
        default: v = (int64_t)((r >> 20) % 10000); break;                /* MiniZinc's ids */
      }
      if (!which && (v > INT32_MAX || v < INT32_MIN)) v %= 1000000000;
      if (which && k == COUNT / 2) v = (int64_t)INT32_MAX + 1; /* widens half way */
      want[k] = v;
      const char *zeros = r % 97 == 0 ? "00" : "";
      const char *after = k == COUNT - 1 ? "" : r % 53 == 0 ? ",\n" : r % 41 == 0 ? ", " : r % 43 == 0 ? ",\t " : ",";
      if (v < 0)
        snprintf(piece, sizeof piece, "-%s%" PRId64 "%s", zeros, -v, after);
      else
        snprintf(piece, sizeof piece, "%s%" PRId64 "%s", zeros, v, after);
      append(&src, &len, &cap, piece);
    }
    append(&src, &len, &cap, "];\n");
  }
  append(&src, &len, &cap, "solve satisfy;\n");
  fzn_model *m = fzn_parse_string(src, len, "runs.fzn", stderr);
  CHECK(m != NULL);
  if (m) {
    check_run_values(m, "narrow", narrow, COUNT, false);
    check_run_values(m, "wide", wide, COUNT, true);
    fzn_model_free(m);
  }
  /* From a file, read in pieces that end mid-literal, whatever the file's size against the
   * page size (an earlier version mapped files when two NULs fitted after the text). */
  long page = sysconf(_SC_PAGESIZE);
  for (int ending = 0; ending < 3; ending++) {
    char path[] = "/tmp/bamboo-runs-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL);
    if (!f) break;
    fwrite(src, 1, len, f);
    /* pad with a comment so that the size is len (as is), a page multiple, or one short */
    size_t size = len;
    if (ending > 0) {
      size_t target = (len / (size_t)page + 2) * (size_t)page - (ending == 2);
      fputs("\n%", f);
      for (size = len + 2; size < target - 1; size++) fputc('x', f);
      fputc('\n', f);
      size++;
    }
    fclose(f);
    CHECKF(ending == 0 || size % (size_t)page == (ending == 1 ? 0 : (size_t)page - 1), "padding: %zu", size);
    m = fzn_parse_file(path, stderr);
    CHECK(m != NULL);
    if (m) {
      check_run_values(m, "narrow", narrow, COUNT, false);
      check_run_values(m, "wide", wide, COUNT, true);
      fzn_model_free(m);
    }
    remove(path);
  }
  /* The declared length sizes only the array's own literals: not a set's or an annotation's
   * that come first, and not a length the text cannot hold. */
  fzn_model *hinted = parse_ok(
      "array [1..3] of set of int: s = [{1,2,3},{4},{5}];\n"
      "array [1..3] of int: a :: foo(7,8,9) = [1,2,3];\n"
      "var 1..2: y;\n"
      "array [1..4] of var int: m = [1, 2, y, 3];\n"
      "solve satisfy;\n");
  if (hinted) {
    CHECK_SHOW(show(decl(hinted, "s")->value), "[{1..3},{4..4},{5..5}]");
    CHECK_SHOW(show(decl(hinted, "a")->value), "ints[1,2,3]");
    CHECK_SHOW(show(decl(hinted, "m")->value), "[1,2,y,3]");
    CHECK(fzn_arena_bytes(hinted->arena) < 1u << 20);
    fzn_model_free(hinted);
  }
  CHECK_ERRORS("array [1..1073741824] of int: a = [1,2,3];\nsolve satisfy;\n",
               "t.fzn:1: 'a' is declared array [1..1073741824] but its value has 3 elements\n");

  /* A literal out of range deep inside a long run: the same message as anywhere else. */
  len = 0;
  append(&src, &len, &cap, "array [1..3001] of int: a = [\n");
  for (int k = 0; k < 3000; k++) append(&src, &len, &cap, k == 2000 ? "99999999999999999999," : "12,");
  append(&src, &len, &cap, "7];\nsolve satisfy;\n");
  fzn_model *bad = parse(src);
  CHECK(bad == NULL);
  CHECK_SHOW(captured, "t.fzn:2: integer literal 99999999999999999999 out of range\n");
  fzn_model_free(bad);
  free(src);
  free(narrow);
  free(wide);
}

/* Thousands of names: the symbol table grows and every name still resolves. */
static void test_many_names(void) {
  enum { NAMES = 3000 };
  static char source[NAMES * 40 + 64];
  size_t used = 0;
  for (int k = 0; k < NAMES; k++)
    used += (size_t)snprintf(source + used, sizeof source - used, "var 0..%d: v%d;\n", k, k);
  snprintf(source + used, sizeof source - used, "constraint int_le(v0, v%d);\nsolve satisfy;\n", NAMES - 1);
  fzn_model *m = parse_ok(source);
  if (!m) return;
  CHECK(m->decl_count == NAMES);
  int resolved = 0;
  for (int k = 0; k < NAMES; k++) {
    char name[16];
    snprintf(name, sizeof name, "v%d", k);
    const fzn_decl *d = fzn_lookup(m, name);
    resolved += d && d->index == k && d->type.domain->u.set.bounds[1] == k;
  }
  CHECK(resolved == NAMES);
  fzn_model_free(m);
}

static void test_items(void) {
  fzn_model *m = parse_ok(
      "% a comment line\n"
      "predicate my_pred(array [int] of var int: x, var int: y, ann: a, set of int: s,\n"
      "                  array [int] of var set of int: ss, var 1..3: z, array [1..2] of int: c,\n"
      "                  var {1,2}: w, string: str, array [int] of ann: anns);\n"
      "predicate no_params();\n"
      "var 1..5: x;\n"
      "var 1..5: y;\n"
      "array [1..2] of var int: xy = [x, y];\n"
      "constraint int_lin_eq([1,-1],[x,y],0) :: defines_var(x) :: domain;\n"
      "constraint my_pred(xy, y, 1..2, {}, [true, false]);\n"
      "constraint no_params();\n"
      "solve :: seq_search([int_search(xy, first_fail, indomain_min, complete),\n"
      "                     bool_search([], input_order, indomain_max, complete)])\n"
      "      :: restart_geometric(1.5, 100) :: mzn_path(\"dir/m \\\"x\\\".mzn\")\n"
      "      :: int_search([x, xy[2]], input_order, indomain_min) minimize x;\r\n");
  if (!m) return;
  CHECK(m->predicate_count == 2 && strcmp(m->predicates[0], "my_pred") == 0 &&
        strcmp(m->predicates[1], "no_params") == 0);
  CHECK(m->constraint_count == 3);
  const fzn_constraint *c = m->constraints[0];
  CHECK(c->line == 9 && strcmp(c->name, "int_lin_eq") == 0 && c->count == 3);
  CHECK_SHOW(show_args(c), "int_lin_eq(ints[1,-1],[x,y],0)");
  CHECK_SHOW(show_annotations(&c->annotations), " :: defines_var(x) :: domain");
  CHECK_SHOW(show_args(m->constraints[1]), "my_pred(xy,y,{1..2},{},bools[true,false])");
  CHECK(m->constraints[2]->count == 0 && m->constraints[2]->args == NULL);
  CHECK(m->solve.kind == FZN_MINIMIZE && m->solve.line == 12);
  CHECK_SHOW(show(m->solve.objective), "x");
  CHECK_SHOW(show_annotations(&m->solve.annotations),
             " :: seq_search([int_search(xy,first_fail,indomain_min,complete),"
             "bool_search(ints[],input_order,indomain_max,complete)])"
             " :: restart_geometric(1.5,100) :: mzn_path(\"dir/m \"x\".mzn\")"
             " :: int_search([x,xy[2]],input_order,indomain_min)");
  fzn_model_free(m);

  /* Annotation arguments are not resolved: strategy names are not declarations. */
  m = parse_ok(
      "var int: x;\nsolve :: int_search([x], dom_w_deg, indomain_random, complete) "
      ":: my_ann(undeclared, [also, 1], f(g(h))) :: empty() maximize x;\n");
  if (m) CHECK(m->solve.kind == FZN_MAXIMIZE);
  if (m)
    CHECK_SHOW(show_annotations(&m->solve.annotations),
               " :: int_search([x],dom_w_deg,indomain_random,complete)"
               " :: my_ann(undeclared,[also,1],f(g(h))) :: empty()");
  fzn_model_free(m);

  m = parse_ok("solve satisfy;"); /* no final newline, nothing else */
  if (m) CHECK(m->decl_count == 0 && m->has_solve && m->solve.line == 1);
  fzn_model_free(m);
}

/* ---- errors -------------------------------------------------------------------------------- */

static void test_name_errors(void) {
  CHECK_ERRORS(
      "var int: x;\n"
      "constraint int_eq(x, y);\n"
      "var int: z = w;\n"
      "array [1..2] of var int: a = [x, v];\n"
      "constraint int_eq(x, x);\n"
      "solve minimize u;\n",
      "t.fzn:2: unknown identifier 'y'\n"
      "t.fzn:3: unknown identifier 'w'\n"
      "t.fzn:4: unknown identifier 'v'\n"
      "t.fzn:6: unknown identifier 'u'\n");
  /* Declaration before use: a name used above its declaration is unknown there. */
  CHECK_ERRORS("constraint int_eq(later, 1);\nvar int: later;\nsolve satisfy;\n",
               "t.fzn:1: unknown identifier 'later'\n");
  CHECK_ERRORS("var int: self = self;\nsolve satisfy;\n", "t.fzn:1: unknown identifier 'self'\n");
  CHECK_ERRORS("var int: x;\nvar bool: x;\nint: x = 3;\nsolve satisfy;\n",
               "t.fzn:2: 'x' is already declared (on line 1)\n"
               "t.fzn:3: 'x' is already declared (on line 1)\n");
  CHECK_ERRORS(
      "array [1..3] of var int: a;\n"
      "var int: x;\n"
      "constraint int_eq(a[4], a[0]);\n"
      "constraint int_eq(x[1], nope[1]);\n"
      "var int: y = a[-1];\n"
      "solve minimize a[9];\n",
      "t.fzn:3: index 4 is out of bounds for 'a' (index set 1..3)\n"
      "t.fzn:3: index 0 is out of bounds for 'a' (index set 1..3)\n"
      "t.fzn:4: 'x' is not an array and cannot be indexed\n"
      "t.fzn:4: unknown identifier 'nope'\n"
      "t.fzn:5: index -1 is out of bounds for 'a' (index set 1..3)\n"
      "t.fzn:6: index 9 is out of bounds for 'a' (index set 1..3)\n");
  /* In annotations only accesses into declared arrays are checked. */
  CHECK_ERRORS(
      "array [1..2] of var int: a;\nvar int: x;\n"
      "solve :: int_search([a[1], a[3], x[1], undeclared[7]], first_fail, indomain_min)\n"
      "      :: seq_search([f(a[0])]) satisfy;\n",
      "t.fzn:3: index 3 is out of bounds for 'a' (index set 1..2)\n"
      "t.fzn:3: 'x' is not an array and cannot be indexed\n"
      "t.fzn:4: index 0 is out of bounds for 'a' (index set 1..2)\n");
  CHECK_ERRORS(
      "array [1..2] of var int: a;\narray [1..2] of var int: b = [a, a[1]];\n"
      "solve satisfy;\n",
      "t.fzn:2: array 'a' cannot be an element of an array literal\n");
}

static void test_type_errors(void) {
  CHECK_ERRORS(
      "int: i = true;\n"
      "bool: b = 3;\n"
      "set of int: s = 4;\n"
      "float: f = {1};\n"
      "int: arr = [1, 2];\n"
      "array [1..2] of int: a = [1, true];\n"
      "array [1..2] of int: bools = [false, true];\n"
      "array [1..2] of bool: ints = [1, 2];\n"
      "array [1..2] of int: scalar = 7;\n"
      "solve satisfy;\n",
      "t.fzn:1: type mismatch: 'i' is declared int but its value is a bool literal (true)\n"
      "t.fzn:2: type mismatch: 'b' is declared bool but its value is an int literal (3)\n"
      "t.fzn:3: type mismatch: 's' is declared set of int but its value is an int literal (4)\n"
      "t.fzn:4: type mismatch: 'f' is declared float but its value is a set literal\n"
      "t.fzn:5: type mismatch: 'arr' is declared int but its value is an array literal\n"
      "t.fzn:6: type mismatch: 'a' is declared array [1..2] of int but element 2 is a bool literal (true)\n"
      "t.fzn:7: type mismatch: 'bools' is declared array [1..2] of int but its value is an array of bool literals\n"
      "t.fzn:8: type mismatch: 'ints' is declared array [1..2] of bool but its value is an array of int literals\n"
      "t.fzn:9: type mismatch: 'scalar' is declared array [1..2] of int but its value is an int literal (7)\n");
  CHECK_ERRORS(
      "1..3: d = 5;\n"
      "array [1..3] of 1..3: da = [1, 2, 7];\n"
      "{1, 3}: odd = 2;\n"
      "set of 1..3: sd = {1, 4};\n"
      "0.0..1.0: fd = 1.5;\n"
      "solve satisfy;\n",
      "t.fzn:1: value 5 of 'd' is outside its domain 1..3\n"
      "t.fzn:2: value 7 (element 3) of 'da' is outside its domain 1..3\n"
      "t.fzn:3: value 2 of 'odd' is outside its domain {1,3}\n"
      "t.fzn:4: value {1,4} of 'sd' is not a subset of its domain 1..3\n"
      "t.fzn:5: value 1.5 of 'fd' is outside its domain 0.0..1.0\n");
  CHECK_ERRORS(
      "array [1..3] of int: short = [1, 2];\n"
      "array [1..1] of int: long = [1, 2];\n"
      "array [1..2] of var int: v = [];\n"
      "array [1..2] of var bool: bv;\n"
      "array [1..3] of var bool: w = bv;\n"
      "solve satisfy;\n",
      "t.fzn:1: 'short' is declared array [1..3] but its value has 2 elements\n"
      "t.fzn:2: 'long' is declared array [1..1] but its value has 2 elements\n"
      "t.fzn:3: 'v' is declared array [1..2] but its value has 0 elements\n"
      "t.fzn:5: 'w' is declared array [1..3] but its value has 2 elements\n");
  CHECK_ERRORS(
      "int: p;\n"
      "var int: v;\n"
      "int: q = v;\n"
      "array [1..2] of int: pa = [1, v];\n"
      "var bool: vb = 3;\n"
      "var bool: vb2 = v;\n"
      "array [1..2] of var int: va = [true, v];\n"
      "solve satisfy;\n",
      "t.fzn:1: parameter 'p' has no value\n"
      "t.fzn:3: type mismatch: 'q' is a parameter but its value is variable 'v' (var int)\n"
      "t.fzn:4: type mismatch: 'pa' is a parameter but element 2 is variable 'v' (var int)\n"
      "t.fzn:5: type mismatch: 'vb' is declared var bool but its value is an int literal (3)\n"
      "t.fzn:6: type mismatch: 'vb2' is declared var bool but its value is 'v' (var int)\n"
      "t.fzn:7: type mismatch: 'va' is declared array [1..2] of var int but element 1 is a bool literal (true)\n");
  /* Types and domains as the messages spell them. */
  CHECK_ERRORS(
      "{1, 2, 3, 7}: u = 5;\n"
      "{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}: odd = 4;\n"
      "var 1..3: v;\n"
      "var bool: b = v;\n"
      "array [1..2] of var 0.0..1.0: fa;\n"
      "var bool: c = fa[1];\n"
      "bool: fb = 1.5;\n"
      "array [1..1] of var set of 1..3: sa;\n"
      "var int: d = sa[1];\n"
      "solve satisfy;\n",
      "t.fzn:1: value 5 of 'u' is outside its domain 1..3 union {7}\n"
      "t.fzn:2: value 4 of 'odd' is outside its domain {1,3,5,7,9,11,13,15,...}\n"
      "t.fzn:4: type mismatch: 'b' is declared var bool but its value is 'v' (var 1..3)\n"
      "t.fzn:6: type mismatch: 'c' is declared var bool but its value is 'fa[1]' (var 0.0..1.0)\n"
      "t.fzn:7: type mismatch: 'fb' is declared bool but its value is a float literal (1.5)\n"
      "t.fzn:9: type mismatch: 'd' is declared var int but its value is 'sa[1]' (var set of 1..3)\n");
  CHECK_ERRORS("var bool: b;\narray [1..2] of var int: a;\nsolve maximize b;\n",
               "t.fzn:3: the objective must be an int or float expression, not 'b' (var bool)\n");
  CHECK_ERRORS("array [1..2] of var int: a;\nsolve minimize a;\n",
               "t.fzn:2: the objective must be an int or float expression, not 'a' (array [1..2] of var int)\n");
  CHECK_ERRORS(
      "array [0..2] of int: a = [1, 2, 3];\n"
      "array [int] of var int: b;\n"
      "ann: an;\n"
      "string: st;\n"
      "solve satisfy;\n",
      "t.fzn:1: array 'a' has index set 0..2 (FlatZinc arrays are 1..n)\n"
      "t.fzn:2: array 'b' needs an index set 1..n, not int\n"
      "t.fzn:3: 'an' is declared ann, which only predicate parameters may be\n"
      "t.fzn:4: 'st' is declared string, which only predicate parameters may be\n");
  CHECK_ERRORS("var {1.5, 2.5}: x;\narray [1..1] of set of int: s = [1.0..2.5];\nsolve satisfy;\n",
               "t.fzn:1: float set literal (element 1.5) is not supported\n"
               "t.fzn:1: float set literal (element 2.5) is not supported\n"
               "t.fzn:2: float range 1.0..2.5 is only supported as a variable's domain\n");
}

static void test_literal_errors(void) {
  CHECK_ERRORS(
      "int: a = 9223372036854775808;\n"
      "int: b = -9223372036854775809;\n"
      "int: c = 0x8000000000000000;\n"
      "int: d = 0o1000000000000000000000;\n"
      "array [1..3] of int: e = [1, 99999999999999999999, 3];\n"
      "float: f = 1e999;\n"
      "float: g = -1e-999;\n"
      "0.1..0.3: h = 1e300;\n"
      "solve satisfy;\n",
      "t.fzn:1: integer literal 9223372036854775808 out of range\n"
      "t.fzn:2: integer literal -9223372036854775809 out of range\n"
      "t.fzn:3: integer literal 0x8000000000000000 out of range\n"
      "t.fzn:4: integer literal 0o1000000000000000000000 out of range\n"
      "t.fzn:5: integer literal 99999999999999999999 out of range\n"
      "t.fzn:6: float literal 1e999 out of range\n"
      "t.fzn:8: value 1e+300 of 'h' is outside its domain 0.1..0.3\n");
  CHECK_ERRORS("int: a = 1.;\nint: b = 2e;\nint: c = 0x;\nint: d = #4;\nsolve satisfy;\n",
               "t.fzn:1: malformed number '1.'\n"
               "t.fzn:2: malformed number '2e'\n"
               "t.fzn:3: malformed number '0x'\n"
               "t.fzn:4: unexpected character '#'\n");
  CHECK_ERRORS("var int: x :: f(\"open\n);\nsolve satisfy;\n", "t.fzn:1: unterminated string literal\n");
  static const char nul[] = "var int: x;\0\nsolve satisfy;\n";
  fzn_model *m = fzn_parse_string(nul, sizeof nul - 1, "nul.fzn", NULL);
  CHECK(m == NULL);
}

static void test_syntax_errors(void) {
  /* Each broken item is skipped to its ';' and parsing goes on. */
  CHECK_ERRORS(
      "var int x;\n"
      "var int: ok1;\n"
      "constraint int_eq(ok1 3);\n"
      "array [1..2] of var int: ok2 = [ok1, ok1];\n"
      "var int: y = ;\n"
      "constraint int_le(ok1, ok2[1]);\n"
      "solve satisfy\n",
      "t.fzn:1: syntax error, unexpected identifier, expecting ':'\n"
      "t.fzn:3: syntax error, unexpected integer literal, expecting ')'\n"
      "t.fzn:5: syntax error, unexpected ';'\n"
      "t.fzn:8: syntax error, unexpected end of file, expecting ';'\n");
  CHECK_ERRORS("var int: a\nvar int: b;\nsolve satisfy;\n",
               "t.fzn:2: syntax error, unexpected var, expecting :: or ';' or '='\n");
  CHECK_ERRORS("solve satisfy;\nsolve satisfy;\n", "t.fzn:2: more than one solve item (the first is on line 1)\n");
  CHECK_ERRORS("var int: x;\n", "t.fzn:2: missing solve item\n");
  CHECK_ERRORS("", "t.fzn:1: missing solve item\n");
  CHECK_ERRORS("array [1..3] of int: a = [1, 2, 3,];\nsolve satisfy;\n", "t.fzn:1: syntax error, unexpected ']'\n");
  CHECK_ERRORS("constraint int_eq(1, 2, 3 4);\nsolve satisfy;\n",
               "t.fzn:1: syntax error, unexpected integer literal, expecting ')'\n");
  CHECK_ERRORS("int: a = 1, 2;\nsolve satisfy;\n", "t.fzn:1: syntax error, unexpected integer literals\n");
}

static void test_files(const char *dir) {
  FILE *errors = tmpfile();
  fzn_model *m = fzn_parse_file("/nonexistent/model.fzn", errors);
  CHECK(m == NULL);
  rewind(errors);
  size_t n = fread(captured, 1, sizeof captured - 1, errors);
  captured[n] = '\0';
  fclose(errors);
  CHECK_SHOW(captured, "/nonexistent/model.fzn: cannot open: No such file or directory\n");
  fzn_model_free(NULL);

  char path[1024];
  snprintf(path, sizeof path, "%s/queens.fzn", dir);
  m = fzn_parse_file(path, stderr);
  CHECK(m && strcmp(m->file, path) == 0);
  fzn_model_free(m);
}

/* ---- MiniZinc's paths file (fzn_paths.h) ----------------------------------------------- */

/* The table read from `content` (bytes, may hold NULs). */
static fzn_paths *paths_of(const char *content, size_t length) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return NULL;
  fwrite(content, 1, length, f);
  rewind(f);
  char why[128] = "";
  fzn_paths *p = fzn_paths_read_stream(f, why, sizeof why);
  CHECKF(p != NULL, "%s", why);
  fclose(f);
  return p;
}

static void check_location(const char *path, bool want, const char *want_file, int want_line) {
  char file[16] = "";
  int line = 0;
  bool got = fzn_path_location(path, file, sizeof file, &line);
  CHECKF(got == want && (!want || (!strcmp(file, want_file) && line == want_line)), "'%s': %d %s:%d", path, got, file,
         line);
}

static void test_paths(void) {
  /* The first segment with a file and a line >= 1 is the user's. */
  check_location("m.mzn|17|12|17|55|ca|f;lib.mzn|36|5|36|75|ca|g;", true, "m.mzn", 17);
  check_location("|0|0|0|0|il|0;m.mzn|3|1|3|2|id|x;", true, "m.mzn", 3);
  check_location("m.mzn|0|1|1|1|ca|x;d.dzn|2|1|2|9|ca|y", true, "d.dzn", 2);
  check_location("a;b|5", true, "b", 5);
  check_location("m.mzn|x|1;n.mzn|-3|1;o.mzn|12345678901|1", false, "", 0); /* no usable line */
  check_location("", false, "", 0);
  check_location(";;;|||", false, "", 0);
  check_location("a_name_too_long_for_the_buffer.mzn|4|1", false, "", 0);

  static const char good[] =
      "X_INTRODUCED_0_\tx[1]\t/u/m.mzn|3|26|3|26|id|x;|0|0|0|0|il|0;\n"
      "1\t1\t/u/m.mzn|9|12|9|31|ca|f;\n"
      "0\t0\t/u/d.dzn|5|12|5|26|bin|'<';\n";
  fzn_paths *p = paths_of(good, sizeof good - 1);
  fzn_location at;
  CHECK(fzn_paths_constraint(p, 0, &at) && !strcmp(at.file, "/u/d.dzn") && at.line == 5);
  CHECK(fzn_paths_constraint(p, 1, &at) && !strcmp(at.file, "/u/m.mzn") && at.line == 9);
  CHECK(!fzn_paths_constraint(p, 2, &at) && !fzn_paths_constraint(p, -1, &at));
  CHECK(fzn_paths_variable(p, "X_INTRODUCED_0_", &at) && at.line == 3);
  CHECK(!fzn_paths_variable(p, "x", &at) && !fzn_paths_variable(p, NULL, &at));
  fzn_paths_free(p);

  /* Malformed lines are skipped; the one good line still counts. */
  static const char bad[] =
      "\n\t\t\nno tabs\n1\tone tab m.mzn|9|1\n1\t1\t\n1\t1\t|9|1\n1\t1\tm.mzn|0|1\n"
      "99999999999\t1\tm.mzn|9|1\n\x00\xff\t\x00\tm|1|\n"
      "2\t2\tm.mzn|4|1|4|2|ca|f;\r\nX\tx";
  p = paths_of(bad, sizeof bad - 1);
  CHECK(!fzn_paths_constraint(p, 1, &at));
  CHECK(fzn_paths_constraint(p, 2, &at) && !strcmp(at.file, "m.mzn") && at.line == 4);
  CHECK(!fzn_paths_variable(p, "X", &at));
  fzn_paths_free(p);

  p = paths_of("", 0); /* empty: a table with nothing in it */
  CHECK(p && !fzn_paths_constraint(p, 0, &at) && !fzn_paths_variable(p, "x", &at));
  fzn_paths_free(p);
  CHECK(!fzn_paths_constraint(NULL, 0, &at) && !fzn_paths_variable(NULL, "x", &at));
  fzn_paths_free(NULL);

  char why[128] = "";
  CHECK(fzn_paths_read("/nonexistent/dir/x.paths", why, sizeof why) == NULL && strstr(why, "No such file"));
}

/* A line of `length` bytes ('a's) between two good lines: read whole up to FZN_PATHS_LINE_MAX,
 * refused past it (getline() once grew without end: --paths /dev/zero filled memory). */
static fzn_paths *paths_with_line(size_t length, char *why, size_t why_size) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return NULL;
  fputs("0\t0\tm.mzn|4|1|4|2|ca|f;\n", f);
  for (size_t k = 0; k < length; k++) putc('a', f);
  fputs("\n1\t1\tm.mzn|7|1|7|2|ca|g;\n", f);
  rewind(f);
  fzn_paths *p = fzn_paths_read_stream(f, why, why_size);
  fclose(f);
  return p;
}

static void test_paths_bounded(void) {
  char why[128] = "";
  fzn_location at;
  fzn_paths *p = paths_with_line(FZN_PATHS_LINE_MAX, why, sizeof why);
  CHECKF(p != NULL, "%s", why);
  CHECK(fzn_paths_constraint(p, 1, &at) && at.line == 7);
  fzn_paths_free(p);
  why[0] = '\0';
  p = paths_with_line(FZN_PATHS_LINE_MAX + 1, why, sizeof why);
  CHECKF(p == NULL && strstr(why, "line 2 is longer than 1048576 bytes"), "%s", why);
  fzn_paths_free(p);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "tests/data/fzn";
  test_queens(dir);
  test_knapsack(dir);
  test_globals(dir);
  test_scheduling(dir);
  test_floats(dir);
  test_stable_marriage(dir);
  test_declarations();
  test_integer_literals();
  test_int_lists();
  test_int_runs();
  test_items();
  test_many_names();
  test_name_errors();
  test_type_errors();
  test_literal_errors();
  test_syntax_errors();
  test_files(dir);
  test_paths();
  test_paths_bounded();
  return tu_finish();
}
