/* Sets of solutions (bth_solutions.h). */
#include "bth_solutions.h"

#include <stdlib.h>
#include <string.h>

void bth_solutions_reset(bth_solutions *s, int width) {
  s->width = width;
  s->count = 0;
}

void bth_solutions_free(bth_solutions *s) {
  free(s->row);
  memset(s, 0, sizeof *s);
}

bool bth_solutions_add(bth_solutions *s, const int *row) {
  size_t need = ((size_t)s->count + 1) * (size_t)s->width;
  if (need > (size_t)s->cap) {
    size_t cap = s->cap ? 2 * (size_t)s->cap : 256;
    while (cap < need) cap *= 2;
    int *grown = realloc(s->row, cap * sizeof *grown);
    if (!grown) return false;
    s->row = grown;
    s->cap = (int)cap;
  }
  memcpy(s->row + (size_t)s->count * (size_t)s->width, row, (size_t)s->width * sizeof *row);
  s->count++;
  return true;
}

bool bth_solutions_copy(bth_solutions *to, const bth_solutions *from) {
  bth_solutions_reset(to, from->width);
  for (int k = 0; k < from->count; k++)
    if (!bth_solutions_add(to, bth_solution(from, k))) return false;
  return true;
}

int *bth_solution(const bth_solutions *s, int k) { return s->row + (size_t)k * (size_t)s->width; }

/* Quadratic, as the sets are small (brute force enumerates them). */
bool bth_same_solutions(const bth_solutions *a, const bth_solutions *b) {
  if (a->count != b->count || a->width != b->width) return false;
  size_t bytes = (size_t)a->width * sizeof(int);
  for (int x = 0; x < a->count; x++) {
    bool seen = false;
    for (int y = 0; y < b->count && !seen; y++) seen = !memcmp(bth_solution(a, x), bth_solution(b, y), bytes);
    if (!seen) return false;
  }
  return true;
}

void bth_solutions_keep(bth_solutions *s, bool (*keep)(const int *row, void *ctx), void *ctx) {
  int kept = 0;
  for (int k = 0; k < s->count; k++)
    if (keep(bth_solution(s, k), ctx))
      memmove(bth_solution(s, kept++), bth_solution(s, k), (size_t)s->width * sizeof(int));
  s->count = kept;
}

uint64_t bth_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void bth_shuffle(int *ids, int count, uint64_t *rng) {
  for (int q = 0; q < count; q++) ids[q] = q;
  for (int q = count - 1; q > 0; q--) {
    int r = (int)(bth_rand(rng) % (uint64_t)(q + 1)), t = ids[q];
    ids[q] = ids[r];
    ids[r] = t;
  }
}
