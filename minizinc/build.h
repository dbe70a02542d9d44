/* The builder: turns a parsed FlatZinc model into a Gecode space through the shim.
 *
 * It creates one shim variable per FlatZinc variable (aliases share one), resolves
 * constraint arguments to shim variables or constants, and reports every problem as
 * "file:line: message" on `errors`. Posters (registry.c, post_*.c) use the fzn_arg_* helpers;
 * each returns false after reporting. */
#ifndef FZN_BUILD_H
#define FZN_BUILD_H

#include "bb_shim.h"
#include "fzn_model.h"

#include <stdbool.h>

typedef enum fzn_entity {
  FZN_ENT_NONE = 0, /* a parameter */
  FZN_ENT_INT,      /* var int, or array of var int */
  FZN_ENT_BOOL,
  FZN_ENT_SET,
  FZN_ENT_FLOAT
} fzn_entity;

/* What a declaration became: a variable index, or for arrays, one per element. */
typedef struct fzn_binding {
  fzn_entity entity;
  int var;    /* scalar variables */
  int *elems; /* arrays of variables */
  int count;
} fzn_binding;

typedef struct fzn_builder {
  const fzn_model *model;
  bb_space *space;
  FILE *errors;
  int error_count;
  fzn_binding *bindings; /* one per model->decls[i] */
  /* Constant variables, made once per value. */
  struct fzn_const_map *int_consts;
  int bool_const[2];
  /* Scratch allocations freed with the builder (argument arrays). */
  void **scratch;
  int scratch_len, scratch_cap;
  /* Options the posters need. */
  bool warned_gpu;      /* ::gpu warned about once */
  bool warned_cpu_only; /* ::gpu on a constraint without a GPU path, warned about once */
  /* int variable -> the Boolean b of a bool2int(b, x) constraint, or -1 (int_lin over
   * such images is posted as a linear over the Booleans, as Gecode's front end does). */
  int *bool_image;
  int bool_image_len;
  /* How often each declaration is named by the model (constraints, solve item, other
   * declarations' values), counted on first need; NULL until then. */
  int *use_count;
  /* What is being built, to locate messages in the user's files (build_report.c, user_location):
   * the constraint being posted (fzn_post_constraints) and its position among the
   * model's constraints, or the variable being declared. */
  const struct fzn_constraint *posting;
  int posting_index;
  const struct fzn_decl *declaring;
  /* MiniZinc's paths file (model->paths_file), read at the first message that needs it. */
  struct fzn_paths *paths;
  bool paths_tried;
} fzn_builder;

/* Records bool2int(b, x) pairs (after the variables exist). */
void fzn_find_bool_images(fzn_builder *b);

/* Creates the space and every variable; false after reporting errors. */
bool fzn_build_variables(fzn_builder *b, const fzn_model *model, FILE *errors);
void fzn_builder_free(fzn_builder *b);

/* Reports "file:line: message" and counts it; returns false for `return fzn_report(...)`.
 * The location is the user's .mzn/.dzn line when MiniZinc said where the item being built
 * comes from (its paths file, or --keep-paths), else the FlatZinc file's line. Only the
 * first FZN_BUILD_MAX_ERRORS are printed, as the parser's; the rest are counted for
 * fzn_report_unshown. */
bool fzn_report(fzn_builder *b, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "file:line: warning: message", located as fzn_report's, not counted as an error. */
void fzn_warn(fzn_builder *b, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Errors printed by fzn_report; the build goes on past them (each constraint is still
 * checked), so that fzn_report_unshown can say how many more there were. */
enum { FZN_BUILD_MAX_ERRORS = 20 };
/* After a failed build: one line saying how many errors fzn_report did not print, if any. */
void fzn_report_unshown(fzn_builder *b);

/* Scratch memory that lives as long as the builder (NULL after reporting). */
void *fzn_scratch(fzn_builder *b, size_t bytes, int line);

/* The largest magnitude of an int Gecode takes (Int::Limits::max). */
#define FZN_INT_LIMIT 2147483646LL

/* --- Argument resolution. `what` names the argument in messages. --- */
bool fzn_arg_int(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *out);
bool fzn_arg_bool(fzn_builder *b, const fzn_expr *e, int line, const char *what, bool *out);
/* A float constant: a float or int literal, or a parameter naming one. */
bool fzn_arg_float(fzn_builder *b, const fzn_expr *e, int line, const char *what, double *out);
/* An array of float constants (float or int literals). */
bool fzn_arg_float_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, double **values, int *count);
/* Sorted distinct values of a constant set. */
bool fzn_arg_int_set(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count);
bool fzn_arg_int_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count);
/* The same for big data (build_take.c): no copy. A literal array that nothing else in the
 * model names is handed over (*owned: the caller frees *values with free(); the model no
 * longer has it); otherwise the model's int32 literals are lent (read-only, valid while the
 * model lives), or, for literals stored wide, copied to scratch. */
bool fzn_arg_int_array_take(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count,
                            bool *owned);
bool fzn_arg_bool_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int *count);
/* Arrays of constant sets: all values concatenated, and each set's size. */
bool fzn_arg_set_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **values, int **sizes,
                       int *count);
/* Variables (constants become constant variables). */
bool fzn_arg_int_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var);
bool fzn_arg_bool_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var);
bool fzn_arg_set_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var);
bool fzn_arg_float_var(fzn_builder *b, const fzn_expr *e, int line, const char *what, int *var);
bool fzn_arg_int_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count);
bool fzn_arg_bool_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count);
bool fzn_arg_set_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count);
bool fzn_arg_float_var_array(fzn_builder *b, const fzn_expr *e, int line, const char *what, int **vars, int *count);
/* True if e is (or names) a constant, so posters can pick the constant form. */
bool fzn_arg_is_par(fzn_builder *b, const fzn_expr *e);

/* --- Checks of arguments against each other (build_checks.c): true, or false after reporting
 * "NAME: ..." at the constraint's line. --- */
/* Two arrays of one length; `what` names them ("x and y"). */
bool fzn_check_same_length(fzn_builder *b, const fzn_constraint *c, int n1, int n2, const char *what);
/* A linear constraint: one coefficient per variable. */
bool fzn_check_coefficients(fzn_builder *b, const fzn_constraint *c, int coefficients, int variables);
/* An array of at least one element (n >= 0 is its length). */
bool fzn_check_nonempty(fzn_builder *b, const fzn_constraint *c, int n);

/* The declaration an identifier expression names (NULL otherwise). */
const fzn_decl *fzn_decl_of(const fzn_builder *b, const fzn_expr *e);

#endif
