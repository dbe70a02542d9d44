/* The parse driver, fzn_model.h's entry points: set up a parse (arena, symbols, scanner),
 * run the grammar over a file or a string, and hand back the model only if not a single
 * error was reported. The helpers the grammar's files share are in fzn_model.c. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "fzn_parse_state.h"
#include "parser.h"
#define YYSTYPE FZN_YYSTYPE
#define YYLTYPE FZN_YYLTYPE
#include "lexer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Flex reads files through this buffer; bigger than flex's 16 KiB default so that the
 * tens of megabytes of a large model take fewer refills. */
enum { READ_BUFFER = 256 * 1024 };

static void start(fzn_parser *p, const char *name, FILE *errors) {
  memset(p, 0, sizeof *p);
  p->arena = fzn_arena_new();
  p->symbols = fzn_symbols_new(p->arena);
  p->model = fzn_arena_alloc(p->arena, sizeof *p->model);
  p->model->arena = p->arena;
  p->model->symbols = p->symbols;
  p->model->file = fzn_arena_strndup(p->arena, name, strlen(name));
  p->file = p->model->file;
  p->errors = errors;
}

/* Runs the grammar over the scanner's input; the model, or NULL after any error. */
static fzn_model *run(fzn_parser *p, yyscan_t scanner) {
  int status = fzn_yyparse(scanner, p);
  /* A missing solve item is only worth saying when nothing else went wrong: after a
   * syntax error the solve item may just have been skipped. */
  if (status == 0 && p->error_count == 0) fzn_finish_model(p, fzn_yyget_lineno(scanner));
  /* Bison aborts only after reporting (syntax error at end of input, stack exhausted);
   * this is a guard, not a path the grammar takes. */
  if (status != 0 && p->error_count == 0) fzn_error(p, fzn_yyget_lineno(scanner), "parse failed");
  if (p->errors) fflush(p->errors);
  if (p->error_count == 0) return p->model;
  fzn_model_free(p->model);
  return NULL;
}

static yyscan_t new_scanner(fzn_parser *p) {
  yyscan_t scanner;
  if (fzn_yylex_init_extra(p, &scanner) != 0) fzn_out_of_memory("scanner");
  return scanner;
}

fzn_model *fzn_parse_string(const char *text, size_t length, const char *name, FILE *errors) {
  if (!name) name = "<string>";
  if (length > (size_t)INT32_MAX - 2) { /* flex counts in int */
    if (errors) fprintf(errors, "%s: text too long (%zu bytes)\n", name, length);
    return NULL;
  }
  fzn_parser p;
  start(&p, name, errors);
  p.text_bytes = length;
  yyscan_t scanner = new_scanner(&p);
  /* yy_scan_bytes copies the text (flex needs two NULs after it to scan in place). */
  YY_BUFFER_STATE buffer = fzn_yy_scan_bytes(text ? text : "", (int)length, scanner);
  fzn_yyset_lineno(1, scanner); /* a reentrant scanner's line count starts undefined */
  fzn_model *model = run(&p, scanner);
  fzn_yy_delete_buffer(buffer, scanner);
  fzn_yylex_destroy(scanner);
  return model;
}

fzn_model *fzn_parse_file(const char *path, FILE *errors) { return fzn_parse_path(path, errors, NULL); }

fzn_model *fzn_parse_path(const char *path, FILE *errors, bool *io_error) {
  bool is_stdin = strcmp(path, "-") == 0;
  if (io_error) *io_error = false;
  FILE *in = is_stdin ? stdin : fopen(path, "rb");
  if (!in) {
    if (errors) fprintf(errors, "%s: cannot open: %s\n", path, strerror(errno));
    if (io_error) *io_error = true;
    return NULL;
  }
  fzn_parser p;
  start(&p, is_stdin ? "<stdin>" : path, errors);
  struct stat st;
  if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) p.text_bytes = (size_t)st.st_size;
  yyscan_t scanner = new_scanner(&p);
  YY_BUFFER_STATE buffer = fzn_yy_create_buffer(in, READ_BUFFER, scanner);
  fzn_yy_switch_to_buffer(buffer, scanner);
  fzn_yyset_lineno(1, scanner);
  fzn_model *model = run(&p, scanner);
  if (p.read_errno || ferror(in)) {
    if (errors) fprintf(errors, "%s: cannot read: %s\n", path, strerror(p.read_errno ? p.read_errno : EIO));
    if (io_error) *io_error = true;
    fzn_model_free(model);
    model = NULL;
  }
  fzn_yy_delete_buffer(buffer, scanner);
  fzn_yylex_destroy(scanner);
  if (!is_stdin) fclose(in);
  return model;
}
