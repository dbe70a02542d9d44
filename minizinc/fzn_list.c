/* Growing lists for the grammar. A list of literals is a flat array that doubles; once it
 * outgrows a small chunk allocation it moves into an arena big block and then grows with
 * realloc, so the 5.76 M-element preference arrays of a stable-marriage model cost one
 * int32_t each (int64_t only from a literal that needs it) and are copied only O(log n)
 * times (realloc of a big block usually remaps rather than copies). */
#include "fzn_parse_state.h"

#include <limits.h>
#include <string.h>

enum { FIRST_CAPACITY = 8, SMALL_BYTES = 2048 };

fzn_list *fzn_list_new(fzn_parser *p, int line) {
  fzn_list *list = fzn_arena_alloc(p->arena, sizeof *list);
  list->kind = FZN_LIST_INTS; /* an empty list is an empty int array */
  list->line = line;
  return list;
}

static size_t item_size(const fzn_list *list) {
  switch (list->kind) {
    case FZN_LIST_INTS: return list->wide ? sizeof(int64_t) : sizeof(int32_t);
    case FZN_LIST_BOOLS: return sizeof(bool);
    case FZN_LIST_EXPRS: break;
  }
  return sizeof(fzn_expr *);
}

/* Room for `more` more items. */
static void reserve_n(fzn_parser *p, fzn_list *list, size_t more) {
  if (list->capacity - list->count >= more) return;
  size_t size = item_size(list);
  size_t capacity = list->capacity ? list->capacity * 2 : FIRST_CAPACITY;
  if (more > SIZE_MAX / 2 - list->count) fzn_arena_out_of_memory(p->arena, "list");
  while (capacity < list->count + more) capacity *= 2;
  if (capacity > SIZE_MAX / size) fzn_arena_out_of_memory(p->arena, "list");
  size_t bytes = capacity * size;
  if (list->big) {
    list->items = fzn_arena_big_realloc(p->arena, list->items, bytes);
  } else {
    void *items;
    if (bytes <= SMALL_BYTES) {
      items = fzn_arena_alloc(p->arena, bytes);
    } else {
      items = fzn_arena_big_alloc(p->arena, bytes);
      list->big = true;
    }
    if (list->count) memcpy(items, list->items, list->count * size);
    list->items = items;
  }
  list->capacity = capacity;
}

static void reserve(fzn_parser *p, fzn_list *list) { reserve_n(p, list, 1); }

void fzn_list_reserve_ints(fzn_parser *p, fzn_list *list, size_t count) {
  if (list->kind != FZN_LIST_INTS || list->count || list->capacity || list->wide || count <= FIRST_CAPACITY) return;
  list->items = fzn_arena_big_alloc(p->arena, count * sizeof(int32_t));
  list->big = true;
  list->capacity = count;
}

void fzn_hint_length(fzn_parser *p, int64_t lo, int64_t hi) {
  /* Only plausible lengths: a wrong hint costs memory, never correctness (the list still
   * grows past it or gives back what it did not use), and the text must hold at least two
   * bytes ("0,") per element, so a declaration cannot make it reserve more than the text. */
  p->length_hint = lo == 1 && hi >= 1 && (uint64_t)hi <= p->text_bytes / 2 ? (size_t)hi : 0;
}

int64_t fzn_list_int_at(const fzn_list *list, size_t k) {
  return list->wide ? ((const int64_t *)list->items)[k] : (int64_t)((const int32_t *)list->items)[k];
}

/* An int list's items become int64_t (at its first literal outside int32). */
static void widen(fzn_parser *p, fzn_list *list) {
  size_t count = list->count;
  const int32_t *old = list->items;
  int64_t *items = NULL;
  bool big = false;
  size_t capacity = count ? count * 2 : FIRST_CAPACITY;
  if (capacity * sizeof *items <= SMALL_BYTES) {
    items = fzn_arena_alloc(p->arena, capacity * sizeof *items);
  } else {
    items = fzn_arena_big_alloc(p->arena, capacity * sizeof *items);
    big = true;
  }
  for (size_t k = 0; k < count; k++) items[k] = old[k];
  if (list->big) fzn_arena_big_free(p->arena, list->items);
  list->items = items;
  list->capacity = capacity;
  list->big = big;
  list->wide = true;
}

/* Turns a list of literals into a list of nodes, at its first element of another kind. */
static void to_exprs(fzn_parser *p, fzn_list *list) {
  if (list->kind == FZN_LIST_EXPRS) return;
  fzn_list_kind old_kind = list->kind;
  bool old_wide = list->wide, old_big = list->big;
  void *old_items = list->items;
  size_t count = list->count;
  list->kind = FZN_LIST_EXPRS;
  list->items = NULL;
  list->count = list->capacity = 0;
  list->big = list->wide = false;
  for (size_t k = 0; k < count; k++) {
    fzn_expr *e = old_kind == FZN_LIST_INTS
                      ? fzn_int_expr(p, old_wide ? ((int64_t *)old_items)[k] : ((int32_t *)old_items)[k], list->line)
                      : fzn_bool_expr(p, ((bool *)old_items)[k], list->line);
    fzn_list_push_expr(p, list, e);
  }
  if (old_big) fzn_arena_big_free(p->arena, old_items); /* the literals' block, maybe sized by a hint */
}

void fzn_list_push_int(fzn_parser *p, fzn_list *list, int64_t value) {
  if (list->kind != FZN_LIST_INTS) { /* bools or nodes already: the int becomes a node */
    fzn_list_push_expr(p, list, fzn_int_expr(p, value, list->line));
    return;
  }
  fzn_list_push_ints(p, list, &value, 1);
}

void fzn_list_push_ints(fzn_parser *p, fzn_list *list, const int64_t *values, size_t count) {
  if (count == 0) return;
  if (list->kind != FZN_LIST_INTS) {
    for (size_t k = 0; k < count; k++) fzn_list_push_int(p, list, values[k]);
    return;
  }
  int64_t lo = values[0], hi = values[0];
  for (size_t k = 1; k < count; k++) {
    lo = values[k] < lo ? values[k] : lo;
    hi = values[k] > hi ? values[k] : hi;
  }
  if (list->count == 0) list->min = lo, list->max = hi;
  list->min = lo < list->min ? lo : list->min;
  list->max = hi > list->max ? hi : list->max;
  if (!list->wide && (list->min < INT32_MIN || list->max > INT32_MAX)) widen(p, list);
  reserve_n(p, list, count);
  if (list->wide) {
    memcpy((int64_t *)list->items + list->count, values, count * sizeof *values);
  } else {
    int32_t *out = (int32_t *)list->items + list->count;
    for (size_t k = 0; k < count; k++) out[k] = (int32_t)values[k];
  }
  list->count += count;
}

static void push_bool(fzn_parser *p, fzn_list *list, bool value) {
  if (list->kind == FZN_LIST_INTS && list->count == 0) list->kind = FZN_LIST_BOOLS;
  if (list->kind != FZN_LIST_BOOLS) {
    fzn_list_push_expr(p, list, fzn_bool_expr(p, value, list->line));
    return;
  }
  reserve(p, list);
  ((bool *)list->items)[list->count++] = value;
}

void fzn_list_push_expr(fzn_parser *p, fzn_list *list, fzn_expr *expr) {
  if (list->kind != FZN_LIST_EXPRS) {
    if (list->count == 0) {
      if (list->big) fzn_arena_big_free(p->arena, list->items);
      list->kind = FZN_LIST_EXPRS;
      list->capacity = 0; /* the literal buffer (if any) is of the wrong item size */
      list->items = NULL;
      list->big = list->wide = false;
    } else {
      to_exprs(p, list);
    }
  }
  reserve(p, list);
  ((fzn_expr **)list->items)[list->count++] = expr;
}

void fzn_list_push(fzn_parser *p, fzn_list *list, fzn_elem elem) {
  switch (elem.tag) {
    case FZN_ELEM_INT: fzn_list_push_int(p, list, elem.u.i); break;
    case FZN_ELEM_BOOL: push_bool(p, list, elem.u.b); break;
    case FZN_ELEM_EXPR: fzn_list_push_expr(p, list, elem.u.e); break;
  }
}

fzn_list *fzn_list_append_run(fzn_parser *p, fzn_list *list, fzn_list *run) {
  if (!list) return run;
  for (size_t k = 0; k < run->count; k++) fzn_list_push_int(p, list, fzn_list_int_at(run, k)); /* ints only */
  return list;
}

/* The element count as the model stores it (an int). */
static int checked_count(fzn_parser *p, const fzn_list *list) {
  if (list->count > INT_MAX) {
    fzn_error(p, list->line, "array literal has more than %d elements", INT_MAX);
    return 0;
  }
  return (int)list->count;
}

/* Gives a big block back what the doubling over-allocated. */
static void shrink(fzn_parser *p, fzn_list *list) {
  if (list->big && list->count < list->capacity && list->count > 0) {
    list->items = fzn_arena_big_realloc(p->arena, list->items, list->count * item_size(list));
    list->capacity = list->count;
  }
}

fzn_expr *fzn_list_to_array(fzn_parser *p, fzn_list *list, int line) {
  fzn_expr *e;
  if (!list) {
    e = fzn_expr_new(p, FZN_E_INTS, line);
    return e;
  }
  shrink(p, list);
  int count = checked_count(p, list);
  switch (list->kind) {
    case FZN_LIST_INTS:
      e = fzn_expr_new(p, FZN_E_INTS, line);
      if (list->wide)
        e->u.ints.values.wide = list->items;
      else
        e->u.ints.values.narrow = list->items;
      e->u.ints.count = count;
      e->u.ints.is_wide = list->wide;
      e->u.ints.is_big = list->big;
      e->u.ints.min = list->min;
      e->u.ints.max = list->max;
      break;
    case FZN_LIST_BOOLS:
      e = fzn_expr_new(p, FZN_E_BOOLS, line);
      e->u.bools.values = list->items;
      e->u.bools.count = count;
      break;
    default:
      e = fzn_expr_new(p, FZN_E_ARRAY, line);
      e->u.array.elems = list->items;
      e->u.array.count = count;
      break;
  }
  if (count == 0) memset(&e->u, 0, sizeof e->u);
  return e;
}

fzn_expr **fzn_list_to_exprs(fzn_parser *p, fzn_list *list, int *count) {
  if (!list || list->count == 0) {
    *count = 0;
    return NULL;
  }
  to_exprs(p, list);
  shrink(p, list);
  *count = checked_count(p, list);
  return list->items;
}

fzn_annotations fzn_list_to_annotations(fzn_parser *p, fzn_list *list) {
  fzn_annotations annotations;
  annotations.items = fzn_list_to_exprs(p, list, &annotations.count);
  return annotations;
}
