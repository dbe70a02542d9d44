/* The arena that owns a parsed FlatZinc model: small objects are carved from chunks, big
 * arrays (int literal arrays, growing lists) are separate blocks linked into the arena so
 * that they can grow with realloc and still be freed with it. Freeing the arena frees
 * everything; nothing is ever freed one by one, which is what makes error recovery in the
 * parser leak-free without bison destructors.
 *
 * Out of memory ends the parse, not the process: a parser has no sensible way on, so the
 * arena jumps back to the parse driver (fzn_parse.c), which set the target with
 * fzn_arena_on_out_of_memory. The driver frees the model, writes the message and returns
 * FZN_PARSE_OUT_OF_MEMORY; fzn-bamboo's main makes that exit status 4. */
#ifndef FZN_ARENA_H
#define FZN_ARENA_H

#include <setjmp.h>
#include <stddef.h>

typedef struct fzn_arena fzn_arena;

fzn_arena *fzn_arena_new(void);        /* NULL when out of memory */
void fzn_arena_free(fzn_arena *arena); /* accepts NULL */

/* `bytes` of zeroed memory, aligned for any type. */
void *fzn_arena_alloc(fzn_arena *arena, size_t bytes);
/* A NUL-terminated copy of text[0..length). */
char *fzn_arena_strndup(fzn_arena *arena, const char *text, size_t length);

/* A separately allocated block (not zeroed) that can be resized; still owned by the arena. */
void *fzn_arena_big_alloc(fzn_arena *arena, size_t bytes);
void *fzn_arena_big_realloc(fzn_arena *arena, void *block, size_t bytes);

/* Hands a big block over: it leaves the arena, and the caller frees the returned pointer
 * (the same bytes, moved to the start of their allocation) with free(). */
void *fzn_arena_big_detach(fzn_arena *arena, void *block);

/* Frees a big block before the arena goes (a list that outgrew or changed its storage). */
void fzn_arena_big_free(fzn_arena *arena, void *block);

/* Bytes held (chunks and big blocks), for tests. */
size_t fzn_arena_bytes(const fzn_arena *arena);

/* Where an allocation that fails jumps (longjmp(*target, 1)); NULL when the parse is over.
 * Every allocation from the arena happens inside a parse. */
void fzn_arena_on_out_of_memory(fzn_arena *arena, jmp_buf *target);
/* Out of memory in the arena's parse (also the symbol table's, a list's, the scanner's):
 * records `what` (a static string) and jumps to the target. */
_Noreturn void fzn_arena_out_of_memory(fzn_arena *arena, const char *what);
/* What ran out, after the jump. */
const char *fzn_arena_failed_what(const fzn_arena *arena);

#endif
