/* Open addressing with linear probing over pointers to arena entries; the table doubles
 * at half load, so probes stay short and entries (and their names) never move. */
#include "fzn_symbols.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct symbol {
  uint64_t hash;
  size_t length;
  fzn_decl *decl;
  char name[]; /* NUL-terminated */
} symbol;

struct fzn_symbols {
  fzn_arena *arena;
  symbol **slots;
  size_t capacity; /* a power of two */
  size_t count;
};

/* FNV-1a: identifiers are short, so a simple byte hash is as fast as anything. */
static uint64_t hash_name(const char *text, size_t length) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < length; i++) h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
  return h;
}

fzn_symbols *fzn_symbols_new(fzn_arena *arena) {
  fzn_symbols *symbols = calloc(1, sizeof *symbols);
  if (!symbols) fzn_arena_out_of_memory(arena, "symbol table");
  symbols->arena = arena;
  symbols->capacity = 1024;
  symbols->slots = calloc(symbols->capacity, sizeof(symbol *));
  if (!symbols->slots) {
    free(symbols);
    fzn_arena_out_of_memory(arena, "symbol table");
  }
  return symbols;
}

void fzn_symbols_free(fzn_symbols *symbols) {
  if (!symbols) return;
  free(symbols->slots);
  free(symbols);
}

static void grow(fzn_symbols *symbols) {
  size_t capacity = symbols->capacity * 2;
  symbol **slots = calloc(capacity, sizeof(symbol *));
  if (!slots) fzn_arena_out_of_memory(symbols->arena, "symbol table");
  for (size_t i = 0; i < symbols->capacity; i++) {
    symbol *s = symbols->slots[i];
    if (!s) continue;
    size_t j = s->hash & (capacity - 1);
    while (slots[j]) j = (j + 1) & (capacity - 1);
    slots[j] = s;
  }
  free(symbols->slots);
  symbols->slots = slots;
  symbols->capacity = capacity;
}

/* The slot holding the name, or the empty slot where it would go. */
static size_t probe(const fzn_symbols *symbols, const char *text, size_t length, uint64_t hash) {
  size_t mask = symbols->capacity - 1, j = hash & mask;
  for (symbol *s; (s = symbols->slots[j]); j = (j + 1) & mask)
    if (s->hash == hash && s->length == length && memcmp(s->name, text, length) == 0) break;
  return j;
}

const char *fzn_symbols_intern(fzn_symbols *symbols, const char *text, size_t length) {
  uint64_t hash = hash_name(text, length);
  size_t j = probe(symbols, text, length, hash);
  if (symbols->slots[j]) return symbols->slots[j]->name;
  symbol *s = fzn_arena_alloc(symbols->arena, sizeof(symbol) + length + 1);
  s->hash = hash;
  s->length = length;
  memcpy(s->name, text, length);
  s->name[length] = '\0';
  symbols->slots[j] = s;
  if (++symbols->count * 2 > symbols->capacity) grow(symbols);
  return s->name;
}

fzn_decl *fzn_symbols_find(const fzn_symbols *symbols, const char *name) {
  size_t length = strlen(name);
  symbol *s = symbols->slots[probe(symbols, name, length, hash_name(name, length))];
  return s ? s->decl : NULL;
}

fzn_decl *fzn_symbols_bind(fzn_symbols *symbols, const char *name, fzn_decl *decl) {
  size_t length = strlen(name);
  uint64_t hash = hash_name(name, length);
  symbol *s = symbols->slots[probe(symbols, name, length, hash)];
  if (!s) {
    fzn_symbols_intern(symbols, name, length);
    s = symbols->slots[probe(symbols, name, length, hash)];
  }
  if (s->decl) return s->decl;
  s->decl = decl;
  return NULL;
}
