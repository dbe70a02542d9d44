/* Identifiers of a FlatZinc model: every identifier the lexer sees is interned once (so a
 * name referenced a million times is stored once), and a name is bound to its declaration
 * when the declaration is parsed (FlatZinc requires declaration before use). */
#ifndef FZN_SYMBOLS_H
#define FZN_SYMBOLS_H

#include "fzn_arena.h"
#include "fzn_model.h"

#include <stddef.h>

typedef struct fzn_symbols fzn_symbols;

fzn_symbols *fzn_symbols_new(fzn_arena *arena);
void fzn_symbols_free(fzn_symbols *symbols); /* accepts NULL; the names live in the arena */

/* The interned copy of text[0..length): equal names give the same pointer. */
const char *fzn_symbols_intern(fzn_symbols *symbols, const char *text, size_t length);

/* The declaration bound to `name` (any string, interned or not), or NULL. */
fzn_decl *fzn_symbols_find(const fzn_symbols *symbols, const char *name);

/* Binds `name` to `decl` unless it is bound already; returns the earlier declaration in
 * that case, NULL on success. */
fzn_decl *fzn_symbols_bind(fzn_symbols *symbols, const char *name, fzn_decl *decl);

#endif
