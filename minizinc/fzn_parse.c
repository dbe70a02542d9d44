/* The parse driver, fzn_model.h's entry points: set up a parse (arena, symbols, scanner),
 * run the grammar over a file or a string, and hand back the model only if not a single
 * error was reported. Memory running out anywhere in the parse (the arena, the symbol table,
 * a list, flex's buffers) jumps back here (fzn_arena_on_out_of_memory): everything of the
 * parse is freed and the caller is told, so that the library never exits. The helpers the
 * grammar's files share are in fzn_model.c. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include "fzn_parse_state.h"
#include "parser.h"
#define YYSTYPE FZN_YYSTYPE
#define YYLTYPE FZN_YYLTYPE
#include "lexer.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Flex reads files through this buffer; bigger than flex's 16 KiB default so that the
 * tens of megabytes of a large model take fewer refills. */
enum { READ_BUFFER = 256 * 1024 };

/* One parse, and what must be freed if memory runs out midway. The caller of parse() owns
 * it, so nothing the jump must see is a local variable of the function that calls setjmp. */
typedef struct parse_job {
  fzn_parser p;
  const char *name; /* for messages */
  FILE *in;         /* the file to read, or NULL: then text[0..length) */
  const char *text;
  size_t length;
  yyscan_t scanner;          /* NULL until made */
  YY_BUFFER_STATE buffer;    /* NULL until made */
  const char *out_of_memory; /* after parse() gave NULL for lack of memory: what ran out */
  jmp_buf on_out_of_memory;
} parse_job;

/* The model's arena, symbols and file name; the scanner over the job's input. */
static void set_up(parse_job *job) {
  fzn_parser *p = &job->p;
  p->symbols = fzn_symbols_new(p->arena);
  p->model = fzn_arena_alloc(p->arena, sizeof *p->model);
  p->model->arena = p->arena;
  p->model->symbols = p->symbols;
  p->model->file = fzn_arena_strndup(p->arena, job->name, strlen(job->name));
  p->file = p->model->file;
  yyscan_t scanner;
  if (fzn_yylex_init_extra(p, &scanner) != 0) fzn_arena_out_of_memory(p->arena, "scanner");
  job->scanner = scanner;
  if (job->in) {
    job->buffer = fzn_yy_create_buffer(job->in, READ_BUFFER, job->scanner);
    fzn_yy_switch_to_buffer(job->buffer, job->scanner);
  } else {
    /* yy_scan_bytes copies the text (flex needs two NULs after it to scan in place). */
    job->buffer = fzn_yy_scan_bytes(job->text ? job->text : "", (int)job->length, job->scanner);
  }
  fzn_yyset_lineno(1, job->scanner); /* a reentrant scanner's line count starts undefined */
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

/* The model, or NULL: after errors in the text (reported on p.errors), or with
 * job->out_of_memory set when memory ran out (nothing reported: the caller says it). */
static fzn_model *parse(parse_job *job) {
  job->p.arena = fzn_arena_new();
  if (!job->p.arena) {
    job->out_of_memory = "arena";
    return NULL;
  }
  if (setjmp(job->on_out_of_memory)) {
    job->out_of_memory = fzn_arena_failed_what(job->p.arena);
    if (job->buffer) fzn_yy_delete_buffer(job->buffer, job->scanner);
    if (job->scanner) fzn_yylex_destroy(job->scanner);
    fzn_symbols_free(job->p.symbols);
    fzn_arena_free(job->p.arena);
    return NULL;
  }
  fzn_arena_on_out_of_memory(job->p.arena, &job->on_out_of_memory);
  set_up(job);
  fzn_model *model = run(&job->p, job->scanner);
  if (model) fzn_arena_on_out_of_memory(model->arena, NULL); /* the jump's frame ends here */
  fzn_yy_delete_buffer(job->buffer, job->scanner);
  fzn_yylex_destroy(job->scanner);
  return model;
}

static void start(parse_job *job, const char *name, FILE *errors) {
  memset(job, 0, sizeof *job);
  job->name = name;
  job->p.errors = errors;
}

/* fzn_parse_file's and fzn_parse_string's word for memory running out (fzn_parse_path's
 * caller says it itself). */
static void report_out_of_memory(const parse_job *job, FILE *errors) {
  if (errors) fprintf(errors, "%s: out of memory while parsing (%s)\n", job->name, job->out_of_memory);
}

fzn_model *fzn_parse_string(const char *text, size_t length, const char *name, FILE *errors) {
  if (!name) name = "<string>";
  if (length > (size_t)INT32_MAX - 2) { /* flex counts in int */
    if (errors) fprintf(errors, "%s: text too long (%zu bytes)\n", name, length);
    return NULL;
  }
  parse_job job;
  start(&job, name, errors);
  job.p.text_bytes = length;
  job.text = text;
  job.length = length;
  fzn_model *model = parse(&job);
  if (!model && job.out_of_memory) report_out_of_memory(&job, errors);
  return model;
}

fzn_model *fzn_parse_file(const char *path, FILE *errors) {
  fzn_parse_status status;
  fzn_model *model = fzn_parse_path(path, errors, &status);
  if (status.outcome == FZN_PARSE_OUT_OF_MEMORY && errors)
    fprintf(errors, "%s: out of memory while parsing (%s)\n", path, status.what);
  return model;
}

fzn_model *fzn_parse_path(const char *path, FILE *errors, fzn_parse_status *status) {
  fzn_parse_status ignored;
  if (!status) status = &ignored;
  *status = (fzn_parse_status){FZN_PARSE_OK, NULL};
  bool is_stdin = strcmp(path, "-") == 0;
  FILE *in = is_stdin ? stdin : fopen(path, "rb");
  if (!in) {
    if (errors) fprintf(errors, "%s: cannot open: %s\n", path, strerror(errno));
    status->outcome = FZN_PARSE_UNREADABLE;
    return NULL;
  }
  parse_job job;
  start(&job, is_stdin ? "<stdin>" : path, errors);
  job.in = in;
  struct stat st;
  if (fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) job.p.text_bytes = (size_t)st.st_size;
  fzn_model *model = parse(&job);
  if (job.out_of_memory) {
    status->outcome = FZN_PARSE_OUT_OF_MEMORY;
    status->what = job.out_of_memory;
  } else if (job.p.read_errno || ferror(in)) {
    if (errors) fprintf(errors, "%s: cannot read: %s\n", path, strerror(job.p.read_errno ? job.p.read_errno : EIO));
    status->outcome = FZN_PARSE_UNREADABLE;
    fzn_model_free(model);
    model = NULL;
  } else if (!model) {
    status->outcome = FZN_PARSE_REJECTED;
  }
  if (!is_stdin) fclose(in);
  return model;
}
