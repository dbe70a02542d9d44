/* The families with many stable matchings (latin, irving-leather;
 * docs/generators.md): valid Latin-square lists, and their number of stable
 * matchings counted by brute force over all n! matchings against what is known:
 * Irving and Leather's recurrence a_k = 3 a_{k-1}^2 - 2 a_{k-2}^4 (1, 2, 10,
 * 268 for n = 1, 2, 4, 8) and the cyclic square's n diagonals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"
#include "instance.h"
#include "test_util.h"

#define MAX_N 9

typedef struct brute {
  int n;
  int man_rank[MAX_N][MAX_N];   /* man_rank[m][w]: m's rank of w */
  int woman_rank[MAX_N][MAX_N]; /* woman_rank[w][m] */
  int wife[MAX_N];
  int taken[MAX_N];
  long count;
} brute;

/* A complete matching is stable when no man and woman both prefer each other.
 */
static int stable(const brute *b) {
  int husband[MAX_N];
  for (int m = 0; m < b->n; m++) husband[b->wife[m]] = m;
  for (int m = 0; m < b->n; m++)
    for (int w = 0; w < b->n; w++)
      if (b->man_rank[m][w] < b->man_rank[m][b->wife[m]] && b->woman_rank[w][m] < b->woman_rank[w][husband[w]])
        return 0;
  return 1;
}

static void enumerate(brute *b, int m) {
  if (m == b->n) {
    b->count += stable(b);
    return;
  }
  for (int w = 0; w < b->n; w++) {
    if (b->taken[w]) continue;
    b->taken[w] = 1;
    b->wife[m] = w;
    enumerate(b, m + 1);
    b->taken[w] = 0;
  }
}

/* Lists are permutations and, read as squares, Latin (every column a
 * permutation too). */
static int latin_square(const bb_id *rows, int n) {
  for (int r = 0; r < n; r++) {
    int seen_row[MAX_N] = {0}, seen_col[MAX_N] = {0};
    for (int k = 0; k < n; k++) {
      bb_id a = rows[(size_t)r * n + k], c = rows[(size_t)k * n + r];
      if (a >= (bb_id)n || c >= (bb_id)n || seen_row[a]++ || seen_col[c]++) return 0;
    }
  }
  return 1;
}

static long count_stable(bb_gen_kind kind, int n, int group) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_generate(kind, n, group, 1, 1, &inst, &err);
  CHECKF(st == BB_OK, "%s n=%d g=%d: %s", bb_gen_kind_name(kind), n, group, err.msg);
  if (st != BB_OK) return -1;
  CHECKF(latin_square(inst->men_prefs, n) && latin_square(inst->women_prefs, n),
         "%s n=%d g=%d: lists are not a Latin square", bb_gen_kind_name(kind), n, group);
  brute b = {.n = n};
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++) {
      b.man_rank[i][inst->men_prefs[(size_t)i * n + k]] = k;
      b.woman_rank[i][inst->women_prefs[(size_t)i * n + k]] = k;
    }
  bb_instance_free(inst);
  enumerate(&b, 0);
  return b.count;
}

static int same_lists(bb_gen_kind a, int ga, bb_gen_kind b, int gb, int n) {
  bb_instance *x = NULL, *y = NULL;
  int same = bb_generate(a, n, ga, 1, 1, &x, NULL) == BB_OK && bb_generate(b, n, gb, 7, 2, &y, NULL) == BB_OK &&
             memcmp(x->men_prefs, y->men_prefs, (size_t)n * n * sizeof(bb_id)) == 0 &&
             memcmp(x->women_prefs, y->women_prefs, (size_t)n * n * sizeof(bb_id)) == 0;
  bb_instance_free(x);
  bb_instance_free(y);
  return same;
}

int main(void) {
  /* Irving and Leather: a_0 = 1, a_1 = 2, a_k = 3 a_{k-1}^2 - 2 a_{k-2}^4 for n
   * = 2^k. */
  long a[4] = {1, 2, 0, 0};
  for (int k = 2; k < 4; k++) a[k] = 3 * a[k - 1] * a[k - 1] - 2 * a[k - 2] * a[k - 2] * a[k - 2] * a[k - 2];
  for (int k = 0; k < 4; k++) {
    long got = count_stable(BB_GEN_IRVING_LEATHER, 1 << k, 1);
    CHECKF(got == a[k], "irving-leather n=%d: %ld stable matchings, the recurrence says %ld", 1 << k, got, a[k]);
  }
  /* The cyclic square (latin, g = n or 1): exactly the n diagonals. */
  for (int n = 1; n <= 7; n++) {
    long got = count_stable(BB_GEN_LATIN, n, n);
    CHECKF(got == n, "latin n=%d g=n: %ld stable matchings, expected the %d diagonals", n, got, n);
    CHECKF(same_lists(BB_GEN_LATIN, n, BB_GEN_LATIN, 1, n), "latin n=%d: g=1 differs from g=n", n);
  }
  /* latin with g = 2 on n = 2^k is Irving and Leather's instance; g = 3 on n =
   * 9 has more stable matchings than the cyclic square of the same size. */
  for (int n = 2; n <= 16; n *= 2)
    CHECKF(same_lists(BB_GEN_LATIN, 2, BB_GEN_IRVING_LEATHER, 0, n), "latin g=2 n=%d differs from irving-leather", n);
  long z3 = count_stable(BB_GEN_LATIN, 9, 3), cyc = count_stable(BB_GEN_LATIN, 9, 9);
  CHECKF(z3 > 3 * cyc,
         "latin n=9 g=3: %ld stable matchings, not far above the cyclic "
         "square's %ld",
         z3, cyc);
  /* Refusals: n not a power of 2, a group out of range. */
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(BB_GEN_IRVING_LEATHER, 6, 1, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  CHECK(strstr(err.msg, "2^k") != NULL);
  CHECK(bb_generate(BB_GEN_LATIN, 6, 7, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  CHECK(bb_generate(BB_GEN_LATIN, 6, 0, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  return tu_finish();
}
