/* A parsed FlatZinc model: what the parser (lexer.l, parser.y, fzn_parse.c) produces and
 * the builder (build_*.c) consumes. Plain C data in one arena; freeing the model frees
 * everything.
 *
 * Arrays of integer literals (a stable-marriage model at n = 2400 carries two of 5.76 M)
 * are kept as one flat int32_t array (FZN_E_INTS; int64_t if a literal needs it), never one
 * node per element; arrays of
 * Boolean literals likewise (FZN_E_BOOLS). */
#ifndef FZN_MODEL_H
#define FZN_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fzn_expr_kind {
  FZN_E_BOOL,   /* true / false */
  FZN_E_INT,    /* integer literal */
  FZN_E_FLOAT,  /* float literal */
  FZN_E_SET,    /* set-of-int literal, normalised: sorted disjoint ranges; {} has 0 ranges */
  FZN_E_STRING, /* string literal (annotations only) */
  FZN_E_ID,     /* identifier */
  FZN_E_ACCESS, /* identifier[index] */
  FZN_E_ARRAY,  /* [e1, ..., ek] whose elements are not all int (or all bool) literals */
  FZN_E_INTS,   /* [i1, ..., ik] of int literals (also the empty array [])         */
  FZN_E_BOOLS,  /* [b1, ..., bk] of bool literals */
  FZN_E_CALL    /* name(args): annotations, and nested annotation arguments */
} fzn_expr_kind;

typedef struct fzn_expr fzn_expr;
struct fzn_expr {
  fzn_expr_kind kind;
  int line;
  union {
    bool b;
    int64_t i;
    double f;
    struct {
      int64_t *bounds; /* lo0, hi0, lo1, hi1, ... */
      int ranges;
    } set;
    const char *str;
    struct {
      const char *name;
      int64_t index; /* FZN_E_ACCESS only (as written: 1-based in FlatZinc) */
    } id;
    struct {
      fzn_expr **elems;
      int count;
    } array;
    struct {
      /* int32 while every literal fits (the common case: half the memory of the big
       * preference arrays), int64 otherwise; read them with fzn_ints_at. */
      union {
        int32_t *narrow;
        int64_t *wide;
      } values;
      int count;
      bool is_wide;
      bool is_big;      /* values is an arena big block, which fzn_arena_big_detach can hand over */
      int64_t min, max; /* of the literals (0, 0 when there are none) */
    } ints;
    struct {
      bool *values;
      int count;
    } bools;
    struct {
      const char *name;
      fzn_expr **args;
      int count;
    } call;
  } u;
};

/* Element k of an FZN_E_INTS array. */
static inline int64_t fzn_ints_at(const fzn_expr *e, int k) {
  return e->u.ints.is_wide ? e->u.ints.values.wide[k] : (int64_t)e->u.ints.values.narrow[k];
}

/* A list of annotations (each an FZN_E_ID or FZN_E_CALL). */
typedef struct fzn_annotations {
  fzn_expr **items;
  int count;
} fzn_annotations;

typedef enum fzn_base_type { FZN_T_BOOL, FZN_T_INT, FZN_T_FLOAT, FZN_T_SET_OF_INT } fzn_base_type;

/* A type as declared: base type, whether `var`, an optional domain, and for arrays the
 * length (`array [1..len] of ...`). */
typedef struct fzn_type {
  fzn_base_type base;
  bool is_var;
  bool is_array;
  int64_t array_len;
  /* Domain: for int (and set of int) an FZN_E_SET (a range is one range); for float
   * float_lo/float_hi with has_float_domain; NULL when unconstrained. */
  fzn_expr *domain;
  bool has_float_domain;
  double float_lo, float_hi;
} fzn_type;

/* A parameter or variable declaration. `value` is the right-hand side or NULL. */
typedef struct fzn_decl {
  const char *name;
  fzn_type type;
  fzn_expr *value;
  fzn_annotations annotations;
  int line;
  int index; /* position in model->decls */
} fzn_decl;

typedef struct fzn_constraint {
  const char *name;
  fzn_expr **args;
  int count;
  fzn_annotations annotations;
  int line;
} fzn_constraint;

typedef enum fzn_solve_kind { FZN_SATISFY, FZN_MINIMIZE, FZN_MAXIMIZE } fzn_solve_kind;

typedef struct fzn_solve {
  fzn_solve_kind kind;
  fzn_expr *objective; /* NULL for satisfy */
  fzn_annotations annotations;
  int line;
} fzn_solve;

typedef struct fzn_model {
  const char *file; /* as given, for messages */
  fzn_decl **decls; /* parameters and variables in file order */
  int decl_count;
  fzn_constraint **constraints;
  int constraint_count;
  const char **predicates; /* names of `predicate` items (declarations only) */
  int predicate_count;
  fzn_solve solve;
  bool has_solve;
  struct fzn_arena *arena; /* owns everything above */
  struct fzn_symbols *symbols;
  /* MiniZinc's paths file for this FlatZinc (fzn-bamboo --paths; fzn_paths.h), or NULL.
   * Set by the caller, not owned: the builder reads it to name the user's lines. */
  const char *paths_file;
} fzn_model;

/* Parses a FlatZinc file ("-" = standard input). Every error is written to `errors` as
 * "file:line: message" (syntax errors with bison's verbose expectation list; unknown
 * identifiers, type mismatches and out-of-range literals are the parser's errors too);
 * parsing goes on after a syntax error to report further ones. Returns NULL if there was
 * any error (and then nothing else has been output). */
fzn_model *fzn_parse_file(const char *path, FILE *errors);
/* How fzn_parse_path ended. */
typedef struct fzn_parse_status {
  enum {
    FZN_PARSE_OK,
    FZN_PARSE_REJECTED,     /* errors in the text, reported on `errors` */
    FZN_PARSE_UNREADABLE,   /* the file cannot be opened or read (a directory, an I/O error) */
    FZN_PARSE_OUT_OF_MEMORY /* not reported: the caller says it (fzn-bamboo: exit status 4) */
  } outcome;
  const char *what; /* FZN_PARSE_OUT_OF_MEMORY: what ran out (a static string) */
} fzn_parse_status;
/* The same, telling in *status (may be NULL) why no model came: the text, the file, or
 * memory. The parse stops after 20 errors, or at the first NUL byte (binary data). The
 * library never exits: out of memory frees the parse and returns NULL (fzn_parse_file and
 * fzn_parse_string write "NAME: out of memory while parsing (WHAT)" on `errors`). */
fzn_model *fzn_parse_path(const char *path, FILE *errors, fzn_parse_status *status);
/* The same from memory (for tests and the fuzzer); `name` is used in messages. */
fzn_model *fzn_parse_string(const char *text, size_t length, const char *name, FILE *errors);
void fzn_model_free(fzn_model *model); /* accepts NULL */

/* The declaration of a name, or NULL. */
const fzn_decl *fzn_lookup(const fzn_model *model, const char *name);

/* Whether the annotations hold the atom `name` (output_var, is_defined_var, ...). */
bool fzn_has_atom(const fzn_annotations *annotations, const char *name);
/* The first annotation that is a call of `name` (output_array(...), mzn_path(...)), or NULL. */
const fzn_expr *fzn_find_call(const fzn_annotations *annotations, const char *name);

#ifdef __cplusplus
}
#endif
#endif
