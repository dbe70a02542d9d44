/* Seeded tie-breaking of preference lists (tie_break.h). */
#include "tie_break.h"

#include <stdlib.h>

#include "rng.h"

uint64_t bb_tie_lottery_draw(const bb_tie_lottery *lottery, uint32_t owner, bb_id id) {
  uint64_t s = lottery->seed ^ (lottery->multiple ? ((uint64_t)owner + 1) << lottery->owner_shift : 0) ^
               ((uint64_t)id * lottery->id_stride);
  bb_splitmix64(&s);
  return bb_splitmix64(&s);
}

typedef struct keyed_entry {
  uint32_t rank;
  uint64_t lottery;
  bb_id id;
} keyed_entry;

static int by_rank_then_lottery(const void *a, const void *b) {
  const keyed_entry *x = a, *y = b;
  if (x->rank != y->rank) return (x->rank > y->rank) - (x->rank < y->rank);
  if (x->lottery != y->lottery) return (x->lottery > y->lottery) - (x->lottery < y->lottery);
  return (x->id > y->id) - (x->id < y->id);
}

bool bb_tie_break_lists(const uint32_t *start, const bb_id *list, const uint32_t *rank, int count,
                        const bb_tie_lottery *lottery, bb_id *out) {
  uint32_t longest = 0;
  for (int p = 0; p < count; p++)
    if (start[p + 1] - start[p] > longest) longest = start[p + 1] - start[p];
  keyed_entry *keyed = malloc(((size_t)longest + 1) * sizeof *keyed);
  if (!keyed) return false;
  for (int p = 0; p < count; p++) {
    uint32_t first = start[p], len = start[p + 1] - first;
    for (uint32_t k = 0; k < len; k++) {
      bb_id id = list[first + k];
      keyed[k] = (keyed_entry){rank[first + k], bb_tie_lottery_draw(lottery, (uint32_t)p, id), id};
    }
    qsort(keyed, len, sizeof *keyed, by_rank_then_lottery);
    for (uint32_t k = 0; k < len; k++) out[first + k] = keyed[k].id;
  }
  free(keyed);
  return true;
}
