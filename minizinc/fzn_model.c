/* What the parser's files (fzn_items.c, fzn_check.c, fzn_list.c, ..., parser.y) and the
 * model's users share: the error sink of a parse and the model's accessors. The parse
 * driver (fzn_parse_file, fzn_parse_string) is fzn_parse.c. */
#include "fzn_parse_state.h"

#include <stdarg.h>
#include <string.h>

void fzn_error(fzn_parser *p, int line, const char *format, ...) {
  if (p->stopped) return; /* what follows the stop (bison's "unexpected end of file") */
  p->error_count++;
  if (p->error_count >= FZN_MAX_ERRORS) p->stopped = true;
  if (!p->errors) return;
  fprintf(p->errors, "%s:%d: ", p->file, line);
  va_list args;
  va_start(args, format);
  vfprintf(p->errors, format, args);
  va_end(args);
  fputc('\n', p->errors);
  if (p->stopped) fprintf(p->errors, "%s:%d: too many errors (%d), stopping\n", p->file, line, FZN_MAX_ERRORS);
}

void fzn_model_free(fzn_model *model) {
  if (!model) return;
  fzn_symbols_free(model->symbols);
  fzn_arena_free(model->arena); /* the model itself lives in the arena: last */
}

const fzn_decl *fzn_lookup(const fzn_model *model, const char *name) { return fzn_symbols_find(model->symbols, name); }

bool fzn_has_atom(const fzn_annotations *annotations, const char *name) {
  for (int a = 0; a < annotations->count; a++) {
    const fzn_expr *ann = annotations->items[a];
    if (ann->kind == FZN_E_ID && !strcmp(ann->u.id.name, name)) return true;
  }
  return false;
}

const fzn_expr *fzn_find_call(const fzn_annotations *annotations, const char *name) {
  for (int a = 0; a < annotations->count; a++) {
    const fzn_expr *ann = annotations->items[a];
    if (ann->kind == FZN_E_CALL && !strcmp(ann->u.call.name, name)) return ann;
  }
  return NULL;
}
