/* Header-only test helpers: a CHECK counter, a tiny RNG, an independent stability check
 * and a brute-force man-optimal matching. Nothing here calls the library's own checker,
 * so the references stay independent of the code under test. */
#ifndef BB_TEST_UTIL_H
#define BB_TEST_UTIL_H

#include "instance.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tu_passed, tu_failed;

/* CHECK(cond) and CHECKF(cond, fmt, ...): count, and report the first few failures. */
#define CHECKF(cond, ...)                                                      \
  do {                                                                         \
    if (cond) {                                                                \
      tu_passed++;                                                             \
    } else if (++tu_failed <= 25) {                                            \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)
#define CHECK(cond) CHECKF(cond, "%s", "")

/* Prints the tally on its own line; the exit status of main. */
static inline int tu_finish(void) {
  printf("%d passed, %d failed\n", tu_passed, tu_failed);
  return tu_failed ? 1 : 0;
}

/* 1 if both instances have the same size and the same preference lists. */
static inline int tu_same(const bb_instance *a, const bb_instance *b) {
  size_t cells = (size_t)a->n * (size_t)a->n;
  return a->n == b->n && memcmp(a->men_prefs, b->men_prefs, cells * sizeof(bb_id)) == 0 &&
         memcmp(a->women_prefs, b->women_prefs, cells * sizeof(bb_id)) == 0;
}

/* splitmix64: enough randomness for test instances. */
static inline uint64_t tu_rand(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static inline void tu_shuffle(bb_id *row, int n, uint64_t *state) {
  for (int i = 0; i < n; i++) row[i] = (bb_id)i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(tu_rand(state) % (uint64_t)(i + 1));
    bb_id t = row[i];
    row[i] = row[j];
    row[j] = t;
  }
}

/* Independent uniformly random instance, built without the library's generators. */
static inline bb_instance *tu_random_instance(int n, uint64_t seed) {
  bb_instance *inst = bb_instance_new(n, NULL);
  if (!inst) return NULL;
  for (int i = 0; i < n; i++) {
    tu_shuffle(inst->men_prefs + (size_t)i * n, n, &seed);
    tu_shuffle(inst->women_prefs + (size_t)i * n, n, &seed);
  }
  return inst;
}

/* rank[p * n + q] = position of q in p's row. */
static inline uint32_t *tu_ranks(const bb_id *prefs, int n) {
  uint32_t *rank = malloc((size_t)n * n * sizeof *rank);
  if (!rank) return NULL;
  for (size_t p = 0; p < (size_t)n; p++)
    for (size_t k = 0; k < (size_t)n; k++) rank[p * n + prefs[p * n + k]] = (uint32_t)k;
  return rank;
}

/* 1 if wife_of is a perfect matching without a blocking pair; the defect goes to `why`. */
static inline int tu_stable_ranked(int n, const uint32_t *men_rank, const uint32_t *women_rank, const bb_id *wife_of,
                                   char *why, size_t why_len) {
  bb_id *husband = malloc((size_t)n * sizeof *husband);
  int ok = husband != NULL;
  for (int w = 0; ok && w < n; w++) husband[w] = (bb_id)n;
  for (int m = 0; ok && m < n; m++) {
    bb_id w = wife_of[m];
    if (w >= (bb_id)n || husband[w] != (bb_id)n) {
      snprintf(why, why_len, "man %d: wife %u out of range or taken", m, w);
      ok = 0;
    } else {
      husband[w] = (bb_id)m;
    }
  }
  for (size_t m = 0; ok && m < (size_t)n; m++)
    for (size_t w = 0; ok && w < (size_t)n; w++)
      if (men_rank[m * n + w] < men_rank[m * n + wife_of[m]] &&
          women_rank[w * n + m] < women_rank[w * n + husband[w]]) {
        snprintf(why, why_len, "blocking pair (man %zu, woman %zu)", m, w);
        ok = 0;
      }
  free(husband);
  return ok;
}

static inline int tu_stable(const bb_instance *inst, const bb_id *wife_of, char *why, size_t why_len) {
  int n = inst->n;
  uint32_t *mr = tu_ranks(inst->men_prefs, n), *wr = tu_ranks(inst->women_prefs, n);
  int ok = mr && wr && tu_stable_ranked(n, mr, wr, wife_of, why, why_len);
  if (!mr || !wr) snprintf(why, why_len, "out of memory");
  free(mr);
  free(wr);
  return ok;
}

/* Brute force over all n! perfect matchings (n <= 8). Writes the man-optimal stable
 * matching to wife_of: each man gets his best partner over all stable matchings, and
 * (the lattice theorem) that assignment must itself be one of the stable matchings.
 * Returns the number of stable matchings, or -1 if that assignment is not one of them. */
static inline int tu_brute_man_optimal(const bb_instance *inst, bb_id *wife_of) {
  enum { MAX = 8 };
  int n = inst->n;
  if (n > MAX) return -1;
  uint32_t *mr = tu_ranks(inst->men_prefs, n), *wr = tu_ranks(inst->women_prefs, n);
  bb_id perm[MAX] = {0}, (*stable_sets)[MAX] = malloc(40320 * sizeof *stable_sets);
  int stack[MAX], count = 0;
  char why[128];
  if (!mr || !wr || !stable_sets) {
    free(mr);
    free(wr);
    free(stable_sets);
    return -1;
  }
  for (int i = 0; i < n; i++) perm[i] = (bb_id)i, stack[i] = 0;
  /* Heap's algorithm: every permutation of perm[] once. */
  for (int i = 0;;) {
    if (tu_stable_ranked(n, mr, wr, perm, why, sizeof why)) memcpy(stable_sets[count++], perm, sizeof perm);
    while (i < n && stack[i] >= i) stack[i++] = 0;
    if (i >= n) break;
    int j = i % 2 ? stack[i] : 0;
    bb_id t = perm[j];
    perm[j] = perm[i];
    perm[i] = t;
    stack[i]++;
    i = 0;
  }
  for (int m = 0; m < n && count > 0; m++) { /* count is never 0: Gale-Shapley's theorem */
    wife_of[m] = stable_sets[0][m];
    for (int s = 1; s < count; s++)
      if (mr[(size_t)m * n + stable_sets[s][m]] < mr[(size_t)m * n + wife_of[m]]) wife_of[m] = stable_sets[s][m];
  }
  int found = 0;
  for (int s = 0; s < count && !found; s++) found = !memcmp(stable_sets[s], wife_of, (size_t)n * sizeof(bb_id));
  free(mr);
  free(wr);
  free(stable_sets);
  return found ? count : -1;
}

#endif
