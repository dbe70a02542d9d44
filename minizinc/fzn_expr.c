/* Expression nodes and set literals. Sets are normalised once, here, so every consumer
 * sees sorted, disjoint, non-adjacent ranges. */
#include "fzn_parse_state.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

fzn_expr *fzn_expr_new(fzn_parser *p, fzn_expr_kind kind, int line) {
  fzn_expr *e = fzn_arena_alloc(p->arena, sizeof *e);
  e->kind = kind;
  e->line = line;
  return e;
}

fzn_expr *fzn_int_expr(fzn_parser *p, int64_t value, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_INT, line);
  e->u.i = value;
  return e;
}

fzn_expr *fzn_bool_expr(fzn_parser *p, bool value, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_BOOL, line);
  e->u.b = value;
  return e;
}

fzn_expr *fzn_float_expr(fzn_parser *p, double value, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_FLOAT, line);
  e->u.f = value;
  return e;
}

fzn_expr *fzn_id_expr(fzn_parser *p, const char *name, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_ID, line);
  e->u.id.name = name;
  return e;
}

fzn_expr *fzn_access_expr(fzn_parser *p, const char *name, int64_t index, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_ACCESS, line);
  e->u.id.name = name;
  e->u.id.index = index;
  return e;
}

fzn_expr *fzn_string_expr(fzn_parser *p, const char *text, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_STRING, line);
  e->u.str = text;
  return e;
}

fzn_expr *fzn_call_expr(fzn_parser *p, const char *name, fzn_list *args, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_CALL, line);
  e->u.call.name = name;
  e->u.call.args = fzn_list_to_exprs(p, args, &e->u.call.count);
  return e;
}

fzn_expr *fzn_range_set(fzn_parser *p, int64_t lo, int64_t hi, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_SET, line);
  if (lo <= hi) {
    e->u.set.bounds = fzn_arena_alloc(p->arena, 2 * sizeof(int64_t));
    e->u.set.bounds[0] = lo;
    e->u.set.bounds[1] = hi;
    e->u.set.ranges = 1;
  }
  return e;
}

static int compare_int64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

fzn_expr *fzn_set_of_list(fzn_parser *p, fzn_list *ints, int line) {
  fzn_expr *e = fzn_expr_new(p, FZN_E_SET, line);
  if (!ints || ints->count == 0) return e;
  /* The grammar only pushes int literals into a set's list; sorted here as int64. */
  size_t count = ints->count;
  int64_t *values = ints->items;
  if (!ints->wide) {
    values = count * sizeof *values > 4096 ? fzn_arena_big_alloc(p->arena, count * sizeof *values)
                                           : fzn_arena_alloc(p->arena, count * sizeof *values);
    for (size_t k = 0; k < count; k++) values[k] = fzn_list_int_at(ints, k);
  }
  bool sorted = true;
  for (size_t k = 1; k < count && sorted; k++) sorted = values[k - 1] < values[k];
  if (!sorted) qsort(values, count, sizeof *values, compare_int64);
  size_t ranges = 0;
  for (size_t k = 0; k < count; k++)
    if (k == 0 || (values[k] != values[k - 1] && values[k - 1] + 1 != values[k])) ranges++;
  if (ranges > INT32_MAX) {
    fzn_error(p, line, "set literal has too many ranges");
    return e;
  }
  int64_t *bounds = fzn_arena_alloc(p->arena, 2 * ranges * sizeof(int64_t));
  size_t r = 0;
  for (size_t k = 0; k < count; k++) {
    if (k > 0 && values[k] == values[k - 1]) continue;
    if (k > 0 && values[k - 1] + 1 == values[k]) { /* no overflow: values[k-1] < values[k] */
      bounds[2 * r - 1] = values[k];
    } else {
      bounds[2 * r] = bounds[2 * r + 1] = values[k];
      r++;
    }
  }
  e->u.set.bounds = bounds;
  e->u.set.ranges = (int)ranges;
  return e;
}

void fzn_float_format(double value, char *buffer, size_t size) {
  snprintf(buffer, size, "%.17g", value);
  /* The shortest form that reads back the same, and always recognisably a float. */
  for (int precision = 1; precision < 17; precision++) {
    char shorter[48];
    snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (strtod(shorter, NULL) == value) {
      snprintf(buffer, size, "%s", shorter);
      break;
    }
  }
  if (!strpbrk(buffer, ".eEni")) strncat(buffer, ".0", size - strlen(buffer) - 1);
}

bool fzn_set_contains(const fzn_expr *set, int64_t value) {
  int lo = 0, hi = set->u.set.ranges - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (value < set->u.set.bounds[2 * mid])
      hi = mid - 1;
    else if (value > set->u.set.bounds[2 * mid + 1])
      lo = mid + 1;
    else
      return true;
  }
  return false;
}

bool fzn_set_is_subset(const fzn_expr *sub, const fzn_expr *super) {
  /* Each range of `sub` must lie inside one range of `super` (both normalised). */
  int j = 0;
  for (int i = 0; i < sub->u.set.ranges; i++) {
    int64_t lo = sub->u.set.bounds[2 * i], hi = sub->u.set.bounds[2 * i + 1];
    while (j < super->u.set.ranges && super->u.set.bounds[2 * j + 1] < lo) j++;
    if (j == super->u.set.ranges || super->u.set.bounds[2 * j] > lo || super->u.set.bounds[2 * j + 1] < hi)
      return false;
  }
  return true;
}

void fzn_set_format(const fzn_expr *set, char *buffer, size_t size) {
  int ranges = set->u.set.ranges;
  const int64_t *b = set->u.set.bounds;
  size_t used = 0;
#define APPEND(...)                                              \
  do {                                                           \
    if (used < size) {                                           \
      int n = snprintf(buffer + used, size - used, __VA_ARGS__); \
      used += n > 0 ? (size_t)n : 0;                             \
    }                                                            \
  } while (0)
  if (size) buffer[0] = '\0';
  if (ranges == 0) {
    APPEND("{}");
  } else if (ranges == 1) {
    APPEND("%" PRId64 "..%" PRId64, b[0], b[1]);
  } else {
    bool singletons = true;
    for (int i = 0; i < ranges; i++) singletons = singletons && b[2 * i] == b[2 * i + 1];
    enum { SHOWN = 8 };
    if (singletons) {
      APPEND("{");
      for (int i = 0; i < ranges && i < SHOWN; i++) APPEND("%s%" PRId64, i ? "," : "", b[2 * i]);
      APPEND(ranges > SHOWN ? ",...}" : "}");
    } else {
      for (int i = 0; i < ranges && i < SHOWN; i++) {
        if (b[2 * i] == b[2 * i + 1])
          APPEND("%s{%" PRId64 "}", i ? " union " : "", b[2 * i]);
        else
          APPEND("%s%" PRId64 "..%" PRId64, i ? " union " : "", b[2 * i], b[2 * i + 1]);
      }
      if (ranges > SHOWN) APPEND(" union ...");
    }
  }
#undef APPEND
}
