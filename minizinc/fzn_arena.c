/* Arena: bump allocation in chunks, plus a doubly linked list of resizable big blocks. */
#define _DEFAULT_SOURCE /* madvise */
#include "fzn_arena.h"

#include <sys/mman.h>

#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  FIRST_CHUNK = 64 * 1024,
  MAX_CHUNK = 1024 * 1024,
  /* Requests above this get their own block, so a chunk never wastes more than a quarter. */
  BIG_THRESHOLD = FIRST_CHUNK / 4
};

#define ALIGNMENT alignof(max_align_t)

typedef struct chunk {
  struct chunk *next;
  size_t size; /* usable bytes after the header */
} chunk;

/* A big block's header; the union keeps the payload aligned for any type. */
typedef union big_header {
  struct {
    union big_header *prev, *next;
    size_t size;
  } link;
  max_align_t align;
} big_header;

struct fzn_arena {
  chunk *chunks;
  char *cursor, *limit; /* free space in chunks (the head) */
  size_t next_chunk_size;
  big_header *bigs;
  size_t bytes;
  jmp_buf *on_out_of_memory; /* the parse driver's, while a parse runs */
  const char *failed_what;
};

void fzn_arena_on_out_of_memory(fzn_arena *arena, jmp_buf *target) { arena->on_out_of_memory = target; }

/* fzn-bamboo turns this into its exit status 4 with a message, never a crash. */
_Noreturn void fzn_arena_out_of_memory(fzn_arena *arena, const char *what) {
  arena->failed_what = what;
  if (arena->on_out_of_memory) longjmp(*arena->on_out_of_memory, 1);
  abort(); /* an allocation outside a parse: a bug (fzn_arena.h) */
}

const char *fzn_arena_failed_what(const fzn_arena *arena) { return arena->failed_what; }

fzn_arena *fzn_arena_new(void) {
  fzn_arena *arena = calloc(1, sizeof *arena);
  if (!arena) return NULL;
  arena->next_chunk_size = FIRST_CHUNK;
  return arena;
}

void fzn_arena_free(fzn_arena *arena) {
  if (!arena) return;
  for (chunk *c = arena->chunks, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  for (big_header *b = arena->bigs, *next; b; b = next) {
    next = b->link.next;
    free(b);
  }
  free(arena);
}

/* A big literal array allocated at its final size (the declared length, fzn_list.c) is
 * written once, front to back: on transparent huge pages that takes one page fault per
 * 2 MiB instead of one per 4 KiB, which shortens the parse of the largest files
 * (minizinc/README.md). Advice only, on the block's 2 MiB-aligned interior. Blocks that grow
 * by realloc are not advised: remapping huge pages as they grow cost more than it saved. */
static void advise_huge(void *block, size_t bytes) {
#ifdef MADV_HUGEPAGE
  enum { HUGE_PAGE = 2u << 20 };
  if (bytes < 4 * (size_t)HUGE_PAGE) return;
  uintptr_t lo = ((uintptr_t)block + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  uintptr_t hi = ((uintptr_t)block + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);
  if (hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
  (void)block, (void)bytes;
#endif
}

static size_t round_up(size_t bytes) { return (bytes + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1); }

void *fzn_arena_alloc(fzn_arena *arena, size_t bytes) {
  if (bytes == 0) bytes = 1;
  if (bytes > BIG_THRESHOLD) {
    void *block = fzn_arena_big_alloc(arena, bytes);
    memset(block, 0, bytes);
    return block;
  }
  bytes = round_up(bytes);
  if ((size_t)(arena->limit - arena->cursor) < bytes) {
    size_t size = arena->next_chunk_size;
    if (arena->next_chunk_size < MAX_CHUNK) arena->next_chunk_size *= 2;
    chunk *c = malloc(round_up(sizeof(chunk)) + size);
    if (!c) fzn_arena_out_of_memory(arena, "arena chunk");
    c->next = arena->chunks;
    c->size = size;
    arena->chunks = c;
    arena->cursor = (char *)c + round_up(sizeof(chunk));
    arena->limit = arena->cursor + size;
    arena->bytes += size;
  }
  void *p = arena->cursor;
  arena->cursor += bytes;
  memset(p, 0, bytes);
  return p;
}

char *fzn_arena_strndup(fzn_arena *arena, const char *text, size_t length) {
  char *copy = fzn_arena_alloc(arena, length + 1);
  memcpy(copy, text, length);
  copy[length] = '\0';
  return copy;
}

void *fzn_arena_big_alloc(fzn_arena *arena, size_t bytes) {
  if (bytes > SIZE_MAX - sizeof(big_header)) fzn_arena_out_of_memory(arena, "big block");
  big_header *b = malloc(sizeof(big_header) + bytes);
  if (!b) fzn_arena_out_of_memory(arena, "big block");
  b->link.prev = NULL;
  b->link.next = arena->bigs;
  b->link.size = bytes;
  if (arena->bigs) arena->bigs->link.prev = b;
  arena->bigs = b;
  arena->bytes += bytes;
  advise_huge(b + 1, bytes);
  return b + 1;
}

void *fzn_arena_big_realloc(fzn_arena *arena, void *block, size_t bytes) {
  if (!block) return fzn_arena_big_alloc(arena, bytes);
  if (bytes > SIZE_MAX - sizeof(big_header)) fzn_arena_out_of_memory(arena, "big block");
  big_header *old = (big_header *)block - 1;
  size_t old_size = old->link.size;
  big_header *b = realloc(old, sizeof(big_header) + bytes);
  if (!b) fzn_arena_out_of_memory(arena, "big block");
  /* The block may have moved: repair its neighbours' links. */
  if (b->link.prev)
    b->link.prev->link.next = b;
  else
    arena->bigs = b;
  if (b->link.next) b->link.next->link.prev = b;
  b->link.size = bytes;
  arena->bytes = arena->bytes - old_size + bytes;
  return b + 1;
}

static void unlink_big(fzn_arena *arena, big_header *b) {
  if (b->link.prev)
    b->link.prev->link.next = b->link.next;
  else
    arena->bigs = b->link.next;
  if (b->link.next) b->link.next->link.prev = b->link.prev;
  arena->bytes -= b->link.size;
}

void fzn_arena_big_free(fzn_arena *arena, void *block) {
  if (!block) return;
  big_header *b = (big_header *)block - 1;
  unlink_big(arena, b);
  free(b);
}

void *fzn_arena_big_detach(fzn_arena *arena, void *block) {
  big_header *b = (big_header *)block - 1;
  size_t size = b->link.size;
  unlink_big(arena, b);
  memmove(b, block, size); /* in place: no second copy of a big array at any moment */
  void *shrunk = realloc(b, size ? size : 1);
  return shrunk ? shrunk : b;
}

size_t fzn_arena_bytes(const fzn_arena *arena) { return arena->bytes; }
