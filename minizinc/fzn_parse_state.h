/* What the lexer, the grammar actions and the checks share while one FlatZinc text is
 * parsed: the model under construction, the error sink, and the builders the grammar
 * actions call. Internal to minizinc/; the public contract is fzn_model.h. */
#ifndef FZN_PARSE_STATE_H
#define FZN_PARSE_STATE_H

#include "fzn_arena.h"
#include "fzn_model.h"
#include "fzn_symbols.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct fzn_parser {
  fzn_model *model;
  fzn_arena *arena;
  fzn_symbols *symbols;
  const char *file;
  FILE *errors; /* NULL: count errors silently */
  long error_count;
  size_t decl_capacity, constraint_capacity, predicate_capacity;
  /* Lexer: the int literals (each followed by a comma) not yet handed to the parser, and
   * whether the last token was `..` (see lexer.l). */
  struct fzn_list *int_run;
  bool after_dotdot;
  /* The length of the array being declared (`array [1..N] of ...`), for the int run of its
   * value: its list is allocated once, at its final size. Forgotten at the item's ';'. */
  size_t length_hint;
  size_t text_bytes; /* the text's size when known (0: unknown, e.g. a pipe): bounds the hint */
  /* Set after FZN_MAX_ERRORS errors or binary data: the lexer then reports the end of the
   * text, so that an endless or binary input (/dev/zero) is not read on. */
  bool stopped;
  int read_errno; /* a failed read of the file (EISDIR, EIO...); the text ends there */
} fzn_parser;

/* Errors reported before the parse stops ("too many errors"), as compilers do. */
enum { FZN_MAX_ERRORS = 20 };

/* Reports "file:line: message" and counts the error; the FZN_MAX_ERRORS-th stops the parse. */
void fzn_error(fzn_parser *p, int line, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- Types as written (fzn_items.c) ----------------------------------------------------- */

/* A type while it is parsed: fzn_type plus what only predicate parameters may use. */
typedef struct fzn_parse_type {
  fzn_type type;
  int64_t index_lo, index_hi; /* arrays: the index set as written */
  bool index_is_int;          /* array [int] of ... */
  bool is_annotation;         /* ann */
  bool is_string;             /* string */
  int line;
} fzn_parse_type;

fzn_parse_type *fzn_scalar_type(fzn_parser *p, fzn_base_type base, fzn_expr *domain, int line);
fzn_parse_type *fzn_float_range_type(fzn_parser *p, double lo, double hi, int line);
fzn_parse_type *fzn_var_type(fzn_parse_type *type);
fzn_parse_type *fzn_array_type(fzn_parse_type *element, int64_t lo, int64_t hi, int line);
fzn_parse_type *fzn_array_any_type(fzn_parse_type *element, int line); /* array [int] */

/* ---- Lists: array literals, set literals, arguments, annotations (fzn_list.c) ---------- */

/* One element as the grammar sees it: int and bool literals travel inline, so an array of
 * literals never allocates a node per element. */
typedef enum fzn_elem_tag { FZN_ELEM_INT, FZN_ELEM_BOOL, FZN_ELEM_EXPR } fzn_elem_tag;
typedef struct fzn_elem {
  fzn_elem_tag tag;
  union {
    int64_t i;
    bool b;
    fzn_expr *e;
  } u;
} fzn_elem;

typedef enum fzn_list_kind { FZN_LIST_INTS, FZN_LIST_BOOLS, FZN_LIST_EXPRS } fzn_list_kind;

/* A growing list. It stays a flat int32_t array while every element is an int literal
 * that fits (int64_t, `wide`, from the first that does not), a flat bool array while every
 * element is a bool literal, and turns into expression nodes at the first other element. */
typedef struct fzn_list {
  fzn_list_kind kind;
  size_t count, capacity;
  void *items;
  bool big;         /* items is an arena big block (grows in place) rather than chunk memory */
  bool wide;        /* FZN_LIST_INTS: items are int64_t */
  int64_t min, max; /* FZN_LIST_INTS: of the items so far */
  int line;
} fzn_list;

fzn_list *fzn_list_new(fzn_parser *p, int line);
void fzn_list_push(fzn_parser *p, fzn_list *list, fzn_elem elem);
void fzn_list_push_int(fzn_parser *p, fzn_list *list, int64_t value);
/* Room for `count` int32 items in a new, empty int list (a length hint; no effect otherwise). */
void fzn_list_reserve_ints(fzn_parser *p, fzn_list *list, size_t count);
/* Records the declared length lo..hi of an array type (fzn_parser.length_hint). */
void fzn_hint_length(fzn_parser *p, int64_t lo, int64_t hi);
/* Appends count int literals at once (the lexer's int runs): one capacity check, no
 * per-element call. */
void fzn_list_push_ints(fzn_parser *p, fzn_list *list, const int64_t *values, size_t count);
/* Element k of an int list (FZN_LIST_INTS). */
int64_t fzn_list_int_at(const fzn_list *list, size_t k);
void fzn_list_push_expr(fzn_parser *p, fzn_list *list, fzn_expr *expr);
/* The list as an array literal: FZN_E_INTS, FZN_E_BOOLS or FZN_E_ARRAY (NULL: []). */
/* Appends a run of ints from the lexer; a NULL list adopts the run as it is. */
fzn_list *fzn_list_append_run(fzn_parser *p, fzn_list *list, fzn_list *run);
fzn_expr *fzn_list_to_array(fzn_parser *p, fzn_list *list, int line);
/* The list as expression nodes (arguments); NULL gives 0 nodes. */
fzn_expr **fzn_list_to_exprs(fzn_parser *p, fzn_list *list, int *count);
fzn_annotations fzn_list_to_annotations(fzn_parser *p, fzn_list *list);

/* ---- Expressions (fzn_expr.c) --------------------------------------------------------- */

fzn_expr *fzn_expr_new(fzn_parser *p, fzn_expr_kind kind, int line);
fzn_expr *fzn_int_expr(fzn_parser *p, int64_t value, int line);
fzn_expr *fzn_bool_expr(fzn_parser *p, bool value, int line);
fzn_expr *fzn_float_expr(fzn_parser *p, double value, int line);
fzn_expr *fzn_id_expr(fzn_parser *p, const char *name, int line);
fzn_expr *fzn_access_expr(fzn_parser *p, const char *name, int64_t index, int line);
fzn_expr *fzn_string_expr(fzn_parser *p, const char *text, int line);
fzn_expr *fzn_call_expr(fzn_parser *p, const char *name, fzn_list *args, int line);
/* lo..hi (empty when lo > hi). */
fzn_expr *fzn_range_set(fzn_parser *p, int64_t lo, int64_t hi, int line);
/* {v1, ..., vk}: sorted, duplicates dropped, consecutive values merged into ranges. */
fzn_expr *fzn_set_of_list(fzn_parser *p, fzn_list *ints, int line);

/* A float as FlatZinc would write it: shortest round-trip form, with a '.' ("1.0"). */
void fzn_float_format(double value, char *buffer, size_t size);

bool fzn_set_contains(const fzn_expr *set, int64_t value);
bool fzn_set_is_subset(const fzn_expr *sub, const fzn_expr *super);
/* Writes the set in MiniZinc notation ("1..3", "{1,3,5}", "1..3 union {7}") into
 * buffer[0..size), shortened with "..." when long. */
void fzn_set_format(const fzn_expr *set, char *buffer, size_t size);

/* ---- Items (fzn_items.c) ---------------------------------------------------------------- */

void fzn_add_predicate(fzn_parser *p, const char *name, int line);
void fzn_add_decl(fzn_parser *p, fzn_parse_type *type, const char *name, fzn_list *annotations, fzn_expr *value,
                  int line);
void fzn_add_constraint(fzn_parser *p, const char *name, fzn_list *args, fzn_list *annotations, int line);
void fzn_set_solve(fzn_parser *p, fzn_solve_kind kind, fzn_expr *objective, fzn_list *annotations, int line);
/* At the end of the text: reports a missing solve item. */
void fzn_finish_model(fzn_parser *p, int last_line);

/* ---- Semantic checks (fzn_check.c) ------------------------------------------------------ */

/* Identifiers declared, accessed arrays are arrays and indexes in bounds; recurses into
 * array literals. For constraint arguments, right-hand sides and the objective, never for
 * annotations (whose identifiers are mostly search-strategy names). */
void fzn_check_names(fzn_parser *p, const fzn_expr *expr);
/* In annotations, only accesses into declared arrays (bounds, arrayness). */
void fzn_check_annotations(fzn_parser *p, const fzn_annotations *annotations);
/* The right-hand side of a declaration against its declared type, domain and length. */
void fzn_check_value(fzn_parser *p, const fzn_decl *decl);
/* The objective of minimize/maximize is a scalar int or float. */
void fzn_check_objective(fzn_parser *p, const fzn_expr *objective);
/* Writes the type as FlatZinc spells it into buffer[0..size). */
void fzn_type_format(const fzn_type *type, char *buffer, size_t size);

#endif
