/* The builder's messages (see build.h): "file:line: message" at the user's .mzn line when
 * MiniZinc said where the item being built comes from, and scratch memory that lives as long
 * as the builder. */
#include "build.h"

#include "fzn_paths.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where a message about FlatZinc line `line` belongs in the user's files, from one lookup
 * whatever MiniZinc gave, for the constraint being posted or the variable being declared:
 * its mzn_path annotation (`minizinc --keep-paths`, or needsPathsFile, which implies it),
 * else its entry in the paths file (a constraint by its position among the constraints, a
 * variable by name). The paths file
 * (--paths, which minizinc passes because bamboo.msc asks for it) is read at the first
 * message that needs it, so a run without messages never reads it. False: the FlatZinc
 * line is all there is (FlatZinc written by hand, or an item MiniZinc has no path for). */
static bool user_location(fzn_builder *b, int line, char *file, size_t size, int *user_line) {
  const fzn_constraint *c = b->posting && b->posting->line == line ? b->posting : NULL;
  const fzn_decl *d = !c && b->declaring && b->declaring->line == line ? b->declaring : NULL;
  if (!c && !d) return false;
  const fzn_expr *ann = fzn_find_call(c ? &c->annotations : &d->annotations, "mzn_path");
  if (ann && ann->u.call.count == 1 && ann->u.call.args[0]->kind == FZN_E_STRING &&
      fzn_path_location(ann->u.call.args[0]->u.str, file, size, user_line))
    return true;
  if (!b->paths && !b->paths_tried && b->model->paths_file) {
    char why[256];
    b->paths_tried = true;
    b->paths = fzn_paths_read(b->model->paths_file, why, sizeof why);
    if (!b->paths)
      fprintf(b->errors, "fzn-bamboo: warning: cannot read the paths file '%s' (%s); messages name FlatZinc lines\n",
              b->model->paths_file, why);
  }
  fzn_location at;
  if (!(c ? fzn_paths_constraint(b->paths, b->posting_index, &at) : fzn_paths_variable(b->paths, d->name, &at)))
    return false;
  if (strlen(at.file) >= size) return false;
  strcpy(file, at.file);
  *user_line = at.line;
  return true;
}

/* "FILE:LINE: " for a message about FlatZinc line `line`: the user's file and line when
 * known, else the FlatZinc file's. */
static void print_location(fzn_builder *b, int line) {
  char file[4096];
  int user_line;
  if (user_location(b, line, file, sizeof file, &user_line))
    fprintf(b->errors, "%s:%d: ", file, user_line);
  else
    fprintf(b->errors, "%s:%d: ", b->model->file, line);
}

bool fzn_report(fzn_builder *b, int line, const char *fmt, ...) {
  if (++b->error_count > FZN_BUILD_MAX_ERRORS) return false;
  va_list ap;
  va_start(ap, fmt);
  print_location(b, line);
  vfprintf(b->errors, fmt, ap);
  fputc('\n', b->errors);
  va_end(ap);
  return false;
}

void fzn_report_unshown(fzn_builder *b) {
  if (b->error_count > FZN_BUILD_MAX_ERRORS)
    fprintf(b->errors, "%s: %d more errors not shown (only the first %d are)\n", b->model->file,
            b->error_count - FZN_BUILD_MAX_ERRORS, FZN_BUILD_MAX_ERRORS);
}

void fzn_warn(fzn_builder *b, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  print_location(b, line);
  fputs("warning: ", b->errors);
  vfprintf(b->errors, fmt, ap);
  fputc('\n', b->errors);
  va_end(ap);
}

void *fzn_scratch(fzn_builder *b, size_t bytes, int line) {
  if (b->scratch_len == b->scratch_cap) {
    int cap = b->scratch_cap ? 2 * b->scratch_cap : 64;
    void **grown = realloc(b->scratch, (size_t)cap * sizeof *grown);
    if (!grown) {
      bb_note_out_of_memory();
      fzn_report(b, line, "out of memory");
      return NULL;
    }
    b->scratch = grown;
    b->scratch_cap = cap;
  }
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    bb_note_out_of_memory();
    fzn_report(b, line, "out of memory (%zu bytes)", bytes);
    return NULL;
  }
  b->scratch[b->scratch_len++] = p;
  return p;
}
