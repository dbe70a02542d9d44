/* FlatZinc 2.6 grammar (MiniZinc handbook, "FlatZinc specification"), pure and reentrant.
 * Items may come in any order but names must be declared before use. Every action hands
 * its work to fzn_items.c / fzn_list.c / fzn_expr.c; the grammar itself only shapes.
 *
 * Lists: every comma-separated list is written as a head (elements each with its comma)
 * and a last element, because the head may contain INT_RUN tokens: runs of int literals
 * with their commas that the lexer gathers without a token per literal (lexer.l).
 *
 * Memory: int and bool literals inside array literals travel inline (never as nodes) and
 * are appended to a flat list, so an array of 5.76 M ints is one int64_t buffer.
 * Recovery: a syntax error skips to the end of the item (`error ';'`) and parsing goes on;
 * everything lives in the arena, so discarded semantic values need no destructors. */
%define api.pure full
%define api.prefix {fzn_yy}
%define parse.error verbose
%define api.location.type {int}
%locations
%lex-param {yyscan_t scanner}
%parse-param {yyscan_t scanner} {fzn_parser *p}

%code requires {
#include "fzn_parse_state.h"
#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif
}

%code {
#define YYSTYPE FZN_YYSTYPE
#define YYLTYPE FZN_YYLTYPE
#include "lexer.h"

#include <string.h>

/* Locations are line numbers: a rule is located at its first symbol (an empty rule at the
 * symbol before it). */
#define YYLLOC_DEFAULT(Current, Rhs, N) ((Current) = (N) ? YYRHSLOC(Rhs, 1) : YYRHSLOC(Rhs, 0))

static void fzn_yyerror(int *line, yyscan_t scanner, fzn_parser *p, const char *message) {
  (void)scanner;
  /* Bison's stack only runs out on absurd nesting (annotations within annotations). */
  if (strcmp(message, "memory exhausted") == 0)
    message = "annotations nested too deeply (parser stack exhausted)";
  fzn_error(p, *line, "%s", message);
}

static fzn_elem elem_expr(fzn_expr *e) { return (fzn_elem){.tag = FZN_ELEM_EXPR, .u.e = e}; }

/* Append to a list that a head rule may not have started yet (NULL). */
static fzn_list *push_elem(fzn_parser *p, fzn_list *list, fzn_elem elem, int line) {
  if (!list) list = fzn_list_new(p, line);
  fzn_list_push(p, list, elem);
  return list;
}
static fzn_list *push_int(fzn_parser *p, fzn_list *list, int64_t value, int line) {
  return push_elem(p, list, (fzn_elem){.tag = FZN_ELEM_INT, .u.i = value}, line);
}
static fzn_list *push_node(fzn_parser *p, fzn_list *list, fzn_expr *e, int line) {
  return push_elem(p, list, elem_expr(e), line);
}

static fzn_list *float_in_set(fzn_parser *p, fzn_list *list, double value, int line) {
  char text[48];
  fzn_float_format(value, text, sizeof text);
  fzn_error(p, line, "float set literal (element %s) is not supported", text);
  return list ? list : fzn_list_new(p, line);
}
}

%union {
  int64_t ival;
  double fval;
  bool bval;
  const char *name; /* interned identifier */
  char *str;
  fzn_expr *expr;
  fzn_list *list;
  fzn_parse_type *type;
  fzn_elem elem;
}

%token ANN "ann" ARRAY "array" BOOL "bool" CONSTRAINT "constraint" FALSE "false"
%token FLOAT "float" INT "int" MAXIMIZE "maximize" MINIMIZE "minimize" OF "of"
%token PREDICATE "predicate" SATISFY "satisfy" SET "set" SOLVE "solve" STRING "string"
%token TRUE "true" VAR "var" DOTDOT ".." COLONCOLON "::"
%token <ival> INT_LIT "integer literal"
%token <fval> FLOAT_LIT "float literal"
%token <str> STRING_LIT "string literal"
%token <name> ID "identifier"
/* Int literals each followed by its comma, gathered by the lexer (see lexer.l). */
%token <list> INT_RUN "integer literals"

%type <bval> bool_lit
%type <type> type scalar_type base_type
%type <expr> expr basic_expr other_basic int_set array_lit annotation ann_expr ann_other
%type <list> set_elems set_head elems elems_head args arg_head annotations ann_args ann_head
%type <list> ann_elems ann_elems_head
%type <elem> elem ann_elem

%%

model: %empty
     | model item
     ;

item: predicate_item
    | decl_item
    | constraint_item
    | solve_item
    | error ';' { yyerrok; }
    ;

/* ---- predicate items: only the name is kept ---- */

predicate_item: PREDICATE ID '(' pred_params ')' ';' { fzn_add_predicate(p, $2, @2); }
              | PREDICATE ID '(' ')' ';'             { fzn_add_predicate(p, $2, @2); }
              ;
pred_params: pred_param
           | pred_params ',' pred_param
           ;
pred_param: type ':' ID
          ;

/* ---- types ---- */

type: scalar_type
    | ARRAY '[' INT_LIT DOTDOT INT_LIT ']' OF scalar_type { $$ = fzn_array_type($8, $3, $5, @1);
                                                            fzn_hint_length(p, $3, $5); }
    | ARRAY '[' INT ']' OF scalar_type                    { $$ = fzn_array_any_type($6, @1); }
    ;
scalar_type: base_type
           | VAR base_type { $$ = fzn_var_type($2); }
           | ANN    { $$ = fzn_scalar_type(p, FZN_T_BOOL, NULL, @1); $$->is_annotation = true; }
           | STRING { $$ = fzn_scalar_type(p, FZN_T_BOOL, NULL, @1); $$->is_string = true; }
           ;
base_type: BOOL                          { $$ = fzn_scalar_type(p, FZN_T_BOOL, NULL, @1); }
         | INT                           { $$ = fzn_scalar_type(p, FZN_T_INT, NULL, @1); }
         | FLOAT                         { $$ = fzn_scalar_type(p, FZN_T_FLOAT, NULL, @1); }
         | SET OF INT                    { $$ = fzn_scalar_type(p, FZN_T_SET_OF_INT, NULL, @1); }
         | int_set                       { $$ = fzn_scalar_type(p, FZN_T_INT, $1, @1); }
         | SET OF int_set                { $$ = fzn_scalar_type(p, FZN_T_SET_OF_INT, $3, @1); }
         | FLOAT_LIT DOTDOT FLOAT_LIT    { $$ = fzn_float_range_type(p, $1, $3, @1); }
         ;

/* ---- declarations, constraints, solve ---- */

decl_item: type ':' ID annotations ';'          { fzn_add_decl(p, $1, $3, $4, NULL, @3); }
         | type ':' ID annotations '=' expr ';' { fzn_add_decl(p, $1, $3, $4, $6, @3); }
         ;

constraint_item: CONSTRAINT ID '(' args ')' annotations ';' {
                   fzn_add_constraint(p, $2, $4, $6, @1);
                 }
               ;
args: %empty        { $$ = NULL; }
    | arg_head expr { $$ = push_node(p, $1, $2, @2); }
    ;
arg_head: %empty            { $$ = NULL; }
        | arg_head INT_RUN  { $$ = fzn_list_append_run(p, $1, $2); }
        | arg_head expr ',' { $$ = push_node(p, $1, $2, @2); }
        ;

solve_item: SOLVE annotations SATISFY ';'       { fzn_set_solve(p, FZN_SATISFY, NULL, $2, @1); }
          | SOLVE annotations MINIMIZE basic_expr ';'
              { fzn_set_solve(p, FZN_MINIMIZE, $4, $2, @1); }
          | SOLVE annotations MAXIMIZE basic_expr ';'
              { fzn_set_solve(p, FZN_MAXIMIZE, $4, $2, @1); }
          ;

/* ---- expressions ---- */

bool_lit: TRUE  { $$ = true; }
        | FALSE { $$ = false; }
        ;

expr: basic_expr
    | array_lit
    ;
basic_expr: INT_LIT   { $$ = fzn_int_expr(p, $1, @1); }
          | bool_lit  { $$ = fzn_bool_expr(p, $1, @1); }
          | other_basic
          ;
/* A basic expression that is neither an int nor a bool literal. */
other_basic: FLOAT_LIT               { $$ = fzn_float_expr(p, $1, @1); }
           | int_set
           | FLOAT_LIT DOTDOT FLOAT_LIT {
               char lo[48], hi[48];
               fzn_float_format($1, lo, sizeof lo);
               fzn_float_format($3, hi, sizeof hi);
               fzn_error(p, @1, "float range %s..%s is only supported as a variable's domain", lo,
                         hi);
               $$ = fzn_range_set(p, 1, 0, @1);
             }
           | ID                      { $$ = fzn_id_expr(p, $1, @1); }
           | ID '[' INT_LIT ']'      { $$ = fzn_access_expr(p, $1, $3, @1); }
           ;
int_set: INT_LIT DOTDOT INT_LIT { $$ = fzn_range_set(p, $1, $3, @1); }
       | '{' '}'                { $$ = fzn_set_of_list(p, NULL, @1); }
       | '{' set_elems '}'      { $$ = fzn_set_of_list(p, $2, @1); }
       ;
set_elems: set_head INT_LIT   { $$ = push_int(p, $1, $2, @2); }
         | set_head FLOAT_LIT { $$ = float_in_set(p, $1, $2, @2); }
         ;
set_head: %empty                { $$ = NULL; }
        | set_head INT_RUN      { $$ = fzn_list_append_run(p, $1, $2); }
        | set_head INT_LIT ','  { $$ = push_int(p, $1, $2, @2); }
        | set_head FLOAT_LIT ',' { $$ = float_in_set(p, $1, $2, @2); }
        ;

array_lit: '[' ']'       { $$ = fzn_list_to_array(p, NULL, @1); }
         | '[' elems ']' { $$ = fzn_list_to_array(p, $2, @1); }
         ;
elems: elems_head elem { $$ = push_elem(p, $1, $2, @2); }
     ;
elems_head: %empty               { $$ = NULL; }
          | elems_head INT_RUN   { $$ = fzn_list_append_run(p, $1, $2); }
          | elems_head elem ','  { $$ = push_elem(p, $1, $2, @2); }
          ;
elem: INT_LIT     { $$ = (fzn_elem){.tag = FZN_ELEM_INT, .u.i = $1}; }
    | bool_lit    { $$ = (fzn_elem){.tag = FZN_ELEM_BOOL, .u.b = $1}; }
    | other_basic { $$ = elem_expr($1); }
    ;

/* ---- annotations: names are not resolved (search strategies are not declared) ---- */

annotations: %empty                             { $$ = NULL; }
           | annotations COLONCOLON annotation {
               $$ = $1 ? $1 : fzn_list_new(p, @3);
               fzn_list_push_expr(p, $$, $3);
             }
           ;
annotation: ID                  { $$ = fzn_id_expr(p, $1, @1); }
          | ID '(' ')'          { $$ = fzn_call_expr(p, $1, NULL, @1); }
          | ID '(' ann_args ')' { $$ = fzn_call_expr(p, $1, $3, @1); }
          ;
ann_args: ann_head ann_expr { $$ = push_node(p, $1, $2, @2); }
        ;
ann_head: %empty                { $$ = NULL; }
        | ann_head INT_RUN      { $$ = fzn_list_append_run(p, $1, $2); }
        | ann_head ann_expr ',' { $$ = push_node(p, $1, $2, @2); }
        ;
ann_expr: INT_LIT  { $$ = fzn_int_expr(p, $1, @1); }
        | bool_lit { $$ = fzn_bool_expr(p, $1, @1); }
        | ann_other
        ;
ann_other: FLOAT_LIT               { $$ = fzn_float_expr(p, $1, @1); }
         | int_set
         | STRING_LIT              { $$ = fzn_string_expr(p, $1, @1); }
         | annotation
         | ID '[' INT_LIT ']'      { $$ = fzn_access_expr(p, $1, $3, @1); }
         | '[' ']'                 { $$ = fzn_list_to_array(p, NULL, @1); }
         | '[' ann_elems ']'       { $$ = fzn_list_to_array(p, $2, @1); }
         ;
ann_elems: ann_elems_head ann_elem { $$ = push_elem(p, $1, $2, @2); }
         ;
ann_elems_head: %empty                       { $$ = NULL; }
              | ann_elems_head INT_RUN       { $$ = fzn_list_append_run(p, $1, $2); }
              | ann_elems_head ann_elem ','  { $$ = push_elem(p, $1, $2, @2); }
              ;
ann_elem: INT_LIT   { $$ = (fzn_elem){.tag = FZN_ELEM_INT, .u.i = $1}; }
        | bool_lit  { $$ = (fzn_elem){.tag = FZN_ELEM_BOOL, .u.b = $1}; }
        | ann_other { $$ = elem_expr($1); }
        ;
