/* bb_check_stable against a brute-force definition of stability: every matching of
 * small random instances, Gale-Shapley outputs of every generator, hand-made defects,
 * and a large case that takes the parallel path. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"
#include "instance.h"
#include "test_util.h"

static void expect(bb_status got, bb_status want, const bb_error *err, const char *needle, int line) {
  CHECKF(got == want && (!needle || strstr(err->msg, needle)), "line %d: got %s \"%s\", want %s containing \"%s\"",
         line, bb_status_name(got), err->msg, bb_status_name(want), needle ? needle : "");
}
#define EXPECT(got, want, err, needle) expect(got, want, err, needle, __LINE__)

/* The first blocking pair by (man, position in his list), as the checker reports it:
 * returns the man and sets *woman, or -1 if the (perfect) matching is stable. */
static int first_blocking_pair(const bb_instance *inst, const bb_id *wife_of, bb_id *woman) {
  int n = inst->n;
  uint32_t *wrank = tu_ranks(inst->women_prefs, n);
  int *husband = malloc((size_t)n * sizeof *husband);
  for (int m = 0; m < n; m++) husband[wife_of[m]] = m;
  int found = -1;
  for (int m = 0; m < n && found < 0; m++)
    for (int k = 0; k < n; k++) {
      bb_id w = inst->men_prefs[(size_t)m * n + k];
      if (w == wife_of[m]) break;
      if (wrank[(size_t)w * n + m] < wrank[(size_t)w * n + husband[w]]) {
        found = m;
        *woman = w;
        break;
      }
    }
  free(wrank);
  free(husband);
  return found;
}

static void gale_shapley(const bb_instance *inst, bb_id *wife_of) {
  int n = inst->n;
  uint32_t *wrank = tu_ranks(inst->women_prefs, n);
  int *husband = malloc((size_t)n * sizeof *husband), *next = calloc((size_t)n, sizeof *next);
  int *stack = malloc((size_t)n * sizeof *stack), top = 0;
  for (int i = 0; i < n; i++) {
    husband[i] = -1;
    stack[top++] = n - 1 - i;
  }
  while (top > 0) {
    int m = stack[--top];
    for (;;) {
      int w = (int)inst->men_prefs[(size_t)m * n + next[m]++];
      int h = husband[w];
      if (h < 0) {
        husband[w] = m;
        break;
      }
      if (wrank[(size_t)w * n + m] < wrank[(size_t)w * n + h]) {
        husband[w] = m;
        stack[top++] = h;
        break;
      }
    }
  }
  for (int w = 0; w < n; w++) wife_of[husband[w]] = (bb_id)w;
  free(wrank);
  free(husband);
  free(next);
  free(stack);
}

static bb_instance *gen(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_instance *inst = NULL;
  if (bb_generate(kind, n, group, seed, 1, &inst, NULL) != BB_OK) {
    fprintf(stderr, "bb_generate failed\n");
    exit(1);
  }
  return inst;
}

/* All n! matchings of random small instances: the checker agrees with brute force. */
static int next_permutation(bb_id *a, int n) {
  int i = n - 2;
  while (i >= 0 && a[i] >= a[i + 1]) i--;
  if (i < 0) return 0;
  int j = n - 1;
  while (a[j] <= a[i]) j--;
  bb_id t = a[i];
  a[i] = a[j];
  a[j] = t;
  for (int l = i + 1, r = n - 1; l < r; l++, r--) {
    t = a[l];
    a[l] = a[r];
    a[r] = t;
  }
  return 1;
}

static void test_brute_force(void) {
  int checked = 0, stable = 0;
  for (int n = 1; n <= 6; n++)
    for (uint64_t seed = 1; seed <= 6; seed++) {
      bb_instance *inst = gen(n > 3 ? BB_GEN_RANDOM : BB_GEN_UNIFORM, n, n > 3 ? 2 + (int)seed % 3 : 1, seed);
      bb_id wife_of[6];
      for (int m = 0; m < n; m++) wife_of[m] = (bb_id)m;
      do {
        bb_error err = {{0}};
        bb_id w = 0;
        int m = first_blocking_pair(inst, wife_of, &w);
        bb_status st = bb_check_stable(inst, wife_of, &err);
        if (m < 0) {
          EXPECT(st, BB_OK, &err, NULL);
          stable++;
        } else {
          char want[64];
          snprintf(want, sizeof want, "blocking pair (man %d, woman %u)", m, w);
          EXPECT(st, BB_ERR_INPUT, &err, want);
        }
        checked++;
      } while (next_permutation(wife_of, n));
      bb_instance_free(inst);
    }
  printf("brute force: %d matchings checked, %d stable\n", checked, stable);
  CHECK(stable >= 36); /* every instance has at least one stable matching */
}

static void test_gale_shapley_outputs(void) {
  const int sizes[] = {1, 2, 3, 10, 97, 300};
  for (int kind = BB_GEN_PERFECT; kind <= BB_GEN_UNIFORM; kind++)
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      int n = sizes[s];
      bb_instance *inst = gen(kind, n, (n + 3) / 4, 11 + s);
      bb_id *wife_of = malloc((size_t)n * sizeof *wife_of);
      gale_shapley(inst, wife_of);
      bb_error err = {{0}};
      EXPECT(bb_check_stable(inst, wife_of, &err), BB_OK, &err, NULL);
      free(wife_of);
      bb_instance_free(inst);
    }
}

static void test_hand_made(void) {
  /* n = 2: both men prefer woman 0, both women prefer man 0. */
  bb_id men[] = {0, 1, 0, 1}, women[] = {0, 1, 0, 1};
  bb_instance inst = {2, men, women};
  bb_error err = {{0}};
  bb_id stable[] = {0, 1}, crossed[] = {1, 0}, twice[] = {0, 0}, outside[] = {0, 7};
  EXPECT(bb_check_stable(&inst, stable, &err), BB_OK, &err, NULL);
  EXPECT(bb_check_stable(&inst, crossed, &err), BB_ERR_INPUT, &err,
         "blocking pair (man 0, woman 0): both prefer each other to their partners");
  EXPECT(bb_check_stable(&inst, twice, &err), BB_ERR_INPUT, &err, "woman 0 is married to both man 0 and man 1");
  EXPECT(bb_check_stable(&inst, outside, &err), BB_ERR_INPUT, &err, "man 1 has woman id 7, out of range");
  EXPECT(bb_check_stable(&inst, NULL, &err), BB_ERR_ARG, &err, NULL);
  EXPECT(bb_check_stable(NULL, stable, &err), BB_ERR_ARG, &err, NULL);

  /* n = 3, man 2 and woman 1 block: he lists her before his wife (woman 2), she lists
   * him before her husband (man 1). */
  bb_id men3[] = {0, 1, 2, /**/ 1, 0, 2, /**/ 1, 2, 0};
  bb_id women3[] = {0, 1, 2, /**/ 2, 1, 0, /**/ 0, 1, 2};
  bb_instance inst3 = {3, men3, women3};
  bb_id m3[] = {0, 1, 2};
  EXPECT(bb_check_stable(&inst3, m3, &err), BB_ERR_INPUT, &err, "blocking pair (man 2, woman 1)");
  EXPECT(bb_check_stable(&inst3, m3, &err), BB_ERR_INPUT, &err,
         "he lists her at position 0, his wife woman 2 at 1; she lists him at position 0, her "
         "husband man 1 at 1");

  /* A broken instance (woman 1's list lacks her husband) is reported, not crashed on. */
  bb_id bad_women[] = {0, 1, 0, 0};
  bb_instance broken = {2, men, bad_women};
  EXPECT(bb_check_stable(&broken, stable, &err), BB_ERR_INPUT, &err, "woman 1's list does not contain");
  bb_id range_women[] = {0, 1, 9, 1};
  broken.women_prefs = range_women;
  EXPECT(bb_check_stable(&broken, stable, &err), BB_ERR_INPUT, &err, "id 9 is out of range");
}

/* n^2 > 2^20: the checker runs threaded; the report must still be the first pair. */
static void test_large(void) {
  int n = 1200;
  bb_instance *inst = gen(BB_GEN_UNIFORM, n, 1, 77);
  bb_id *wife_of = malloc((size_t)n * sizeof *wife_of);
  gale_shapley(inst, wife_of);
  bb_error err = {{0}};
  EXPECT(bb_check_stable(inst, wife_of, &err), BB_OK, &err, NULL);
  /* Swap the wives of a few pairs of men: almost surely unstable. */
  for (int i = 0; i < 5; i++) {
    int a = 1000 - 150 * i, b = 1100 - 90 * i;
    bb_id t = wife_of[a];
    wife_of[a] = wife_of[b];
    wife_of[b] = t;
  }
  bb_id w = 0;
  int m = first_blocking_pair(inst, wife_of, &w);
  CHECK(m >= 0);
  char want[64];
  snprintf(want, sizeof want, "blocking pair (man %d, woman %u)", m, w);
  for (int rep = 0; rep < 3; rep++) EXPECT(bb_check_stable(inst, wife_of, &err), BB_ERR_INPUT, &err, want);
  free(wife_of);
  bb_instance_free(inst);
}

int main(void) {
  test_hand_made();
  test_brute_force();
  test_gale_shapley_outputs();
  test_large();
  return tu_finish();
}
