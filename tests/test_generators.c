/* Generators: reproducibility, validity, and the shape each kind promises
 * (docs/generators.md), checked against a small queue-based Gale-Shapley. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generate.h"
#include "instance.h"
#include "test_util.h"

static bb_instance *gen(bb_gen_kind kind, int n, int group, uint64_t seed, int threads) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_generate(kind, n, group, seed, threads, &inst, &err);
  CHECKF(st == BB_OK, "bb_generate(%s, n=%d, g=%d): %s", bb_gen_kind_name(kind), n, group, err.msg);
  return st == BB_OK ? inst : NULL;
}

/* Queue Gale-Shapley that records how the run unfolds. Round one: every man proposes
 * to his first choice, in id order. Then free men are served from a FIFO queue. */
typedef struct gs_trace {
  uint64_t proposals;
  int free_after_round1;
  int max_free_after_round1;
} gs_trace;

static void gale_shapley(const bb_instance *inst, bb_id *wife_of, gs_trace *trace) {
  int n = inst->n;
  size_t cells = (size_t)n * n;
  uint32_t *rank = malloc(cells * sizeof *rank); /* rank[w * n + m] */
  int *husband = malloc((size_t)n * sizeof *husband), *next = calloc((size_t)n, sizeof *next);
  int *queue = malloc((size_t)n * sizeof *queue);
  for (int w = 0; w < n; w++) {
    husband[w] = -1;
    for (int k = 0; k < n; k++) rank[(size_t)w * n + inst->women_prefs[(size_t)w * n + k]] = (uint32_t)k;
  }
  memset(trace, 0, sizeof *trace);
  int head = 0, tail = 0, queued = 0; /* circular queue of free men */
  /* One proposal by man m; returns the man left free (m, a dropped husband, or -1). */
#define PROPOSE(m, out)                                                  \
  do {                                                                   \
    int w_ = (int)inst->men_prefs[(size_t)(m)*n + next[m]++];            \
    trace->proposals++;                                                  \
    int h_ = husband[w_];                                                \
    if (h_ < 0) {                                                        \
      husband[w_] = (m);                                                 \
      (out) = -1;                                                        \
    } else if (rank[(size_t)w_ * n + (m)] < rank[(size_t)w_ * n + h_]) { \
      husband[w_] = (m);                                                 \
      (out) = h_;                                                        \
    } else {                                                             \
      (out) = (m);                                                       \
    }                                                                    \
  } while (0)
  /* Queues the man left free, if any. */
#define ENQUEUE(left)        \
  do {                       \
    if ((left) >= 0) {       \
      queue[tail] = (left);  \
      tail = (tail + 1) % n; \
      queued++;              \
    }                        \
  } while (0)
  for (int m = 0; m < n; m++) {
    int left;
    PROPOSE(m, left);
    ENQUEUE(left);
  }
  trace->free_after_round1 = queued;
  trace->max_free_after_round1 = queued;
  while (queued > 0) {
    int m = queue[head];
    head = (head + 1) % n;
    queued--;
    int left;
    PROPOSE(m, left);
    ENQUEUE(left);
    if (queued > trace->max_free_after_round1) trace->max_free_after_round1 = queued;
  }
#undef PROPOSE
#undef ENQUEUE
  for (int w = 0; w < n; w++) wife_of[husband[w]] = (bb_id)w;
  free(rank);
  free(husband);
  free(next);
  free(queue);
}

static void test_names(void) {
  const char *names[] = {"perfect", "solo", "congested", "random", "uniform"};
  for (int i = 0; i < 5; i++) {
    bb_gen_kind kind;
    CHECK(bb_gen_parse_kind(names[i], &kind, NULL) == BB_OK);
    CHECK(strcmp(bb_gen_kind_name(kind), names[i]) == 0);
  }
  bb_gen_kind kind;
  bb_error err = {{0}};
  CHECK(bb_gen_parse_kind("randm", &kind, &err) == BB_ERR_ARG);
  CHECK(strstr(err.msg, "'randm'") != NULL);
}

static void test_bad_arguments(void) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(BB_GEN_RANDOM, 10, 0, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  CHECK(strstr(err.msg, "group") != NULL);
  CHECK(bb_generate(BB_GEN_RANDOM, 10, 11, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  CHECK(bb_generate(BB_GEN_UNIFORM, 0, 1, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
  CHECK(bb_generate(BB_GEN_UNIFORM, -5, 1, 1, 1, &inst, &err) == BB_ERR_ARG && !inst);
}

/* Every kind: valid, reproducible, independent of the thread count, seed-sensitive. */
static void test_reproducible(void) {
  const int sizes[] = {1, 2, 3, 4, 7, 64, 301};
  for (int kind = BB_GEN_PERFECT; kind <= BB_GEN_UNIFORM; kind++) {
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
      int n = sizes[s], group = kind == BB_GEN_RANDOM ? (n + 2) / 3 : 1;
      bb_instance *a = gen(kind, n, group, 42, 1), *b = gen(kind, n, group, 42, 4), *c = gen(kind, n, group, 42, 0),
                  *d = gen(kind, n, group, 43, 2);
      if (!a || !b || !c || !d) return;
      bb_error err = {{0}};
      CHECK(bb_instance_validate(a, &err) == BB_OK);
      CHECK(bb_instance_validate(d, &err) == BB_OK);
      CHECK(tu_same(a, b));
      CHECK(tu_same(a, c));
      if (kind != BB_GEN_CONGESTED && n >= 7) CHECK(!tu_same(a, d));
      if (kind == BB_GEN_CONGESTED) CHECK(tu_same(a, d));
      bb_instance_free(a);
      bb_instance_free(b);
      bb_instance_free(c);
      bb_instance_free(d);
    }
  }
}

static void test_congested_and_groups(void) {
  int n = 50;
  bb_instance *cong = gen(BB_GEN_CONGESTED, n, 1, 7, 2), *r1 = gen(BB_GEN_RANDOM, n, 1, 7, 2);
  bb_instance *uni = gen(BB_GEN_UNIFORM, n, 1, 7, 2), *rn = gen(BB_GEN_RANDOM, n, n, 7, 3);
  if (!cong || !r1 || !uni || !rn) return;
  int identity = 1;
  for (size_t c = 0; c < (size_t)n * n; c++) identity &= cong->men_prefs[c] == c % n && cong->women_prefs[c] == c % n;
  CHECK(identity);
  CHECK(tu_same(cong, r1)); /* congested is random(1) */
  CHECK(tu_same(uni, rn));  /* uniform is random(n) */

  const int groups[] = {2, 3, 7, 12, 49};
  for (size_t g = 0; g < sizeof groups / sizeof *groups; g++) {
    int group = groups[g];
    bb_instance *inst = gen(BB_GEN_RANDOM, n, group, 99, 2);
    if (!inst) return;
    int in_group = 1, shuffled = 0;
    for (int side = 0; side < 2; side++) {
      const bb_id *rows = side ? inst->women_prefs : inst->men_prefs;
      for (int who = 0; who < n; who++)
        for (int k = 0; k < n; k++) {
          bb_id id = rows[(size_t)who * n + k];
          in_group &= (int)id / group == k / group;
          shuffled |= id != (bb_id)k;
        }
    }
    CHECK(in_group);
    CHECK(shuffled);
    bb_instance_free(inst);
  }
  bb_instance_free(cong);
  bb_instance_free(r1);
  bb_instance_free(uni);
  bb_instance_free(rn);
}

static void test_perfect(void) {
  const int sizes[] = {1, 2, 5, 200};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    bb_instance *inst = gen(BB_GEN_PERFECT, n, 1, 5, 3);
    if (!inst) return;
    char *taken = calloc((size_t)n, 1);
    int distinct = 1;
    for (int m = 0; m < n; m++) {
      bb_id w = inst->men_prefs[(size_t)m * n];
      distinct &= !taken[w];
      taken[w] = 1;
    }
    CHECK(distinct);
    bb_id *wife_of = malloc((size_t)n * sizeof *wife_of);
    gs_trace trace;
    gale_shapley(inst, wife_of, &trace);
    int first_choices = 1;
    for (int m = 0; m < n; m++) first_choices &= wife_of[m] == inst->men_prefs[(size_t)m * n];
    CHECK(first_choices);
    CHECK(trace.proposals == (uint64_t)n);
    CHECK(bb_check_stable(inst, wife_of, NULL) == BB_OK);
    free(taken);
    free(wife_of);
    bb_instance_free(inst);
  }
}

static void test_solo(void) {
  for (int n = 1; n <= 130; n += n < 12 ? 1 : 17) {
    for (uint64_t seed = 1; seed <= 3; seed++) {
      bb_instance *inst = gen(BB_GEN_SOLO, n, 1, seed, 2);
      if (!inst) return;
      CHECK(bb_instance_validate(inst, NULL) == BB_OK);
      bb_id *wife_of = malloc((size_t)n * sizeof *wife_of);
      gs_trace trace;
      gale_shapley(inst, wife_of, &trace);
      CHECK(bb_check_stable(inst, wife_of, NULL) == BB_OK);
      if (n >= 2) CHECK(trace.free_after_round1 == 1);
      CHECK(trace.max_free_after_round1 <= 1);
      uint64_t nn = (uint64_t)n;
      if (n >= 4) CHECK(trace.proposals >= (nn - 2) * (nn - 2));
      /* The exact count of the construction (generate.c): 2n - 1 + (n-2)^2. */
      if (n >= 3) CHECK(trace.proposals == 2 * nn - 1 + (nn - 2) * (nn - 2));
      if (n == 2) CHECK(trace.proposals == 3);
      if (n == 1) CHECK(trace.proposals == 1);
      free(wife_of);
      bb_instance_free(inst);
    }
  }
  const int report[] = {10, 100};
  for (int i = 0; i < 2; i++) {
    int n = report[i];
    bb_instance *inst = gen(BB_GEN_SOLO, n, 1, 2024, 1);
    if (!inst) return;
    bb_id *wife_of = malloc((size_t)n * sizeof *wife_of);
    gs_trace trace;
    gale_shapley(inst, wife_of, &trace);
    printf("solo n=%d: %llu proposals (n^2 = %d), %d free after round 1, at most %d free after\n", n,
           (unsigned long long)trace.proposals, n * n, trace.free_after_round1, trace.max_free_after_round1);
    free(wife_of);
    bb_instance_free(inst);
  }
}

/* Labels carry no structure: different seeds relabel differently. */
static void test_solo_relabelled(void) {
  bb_instance *a = gen(BB_GEN_SOLO, 40, 1, 1, 1), *b = gen(BB_GEN_SOLO, 40, 1, 2, 1);
  if (!a || !b) return;
  CHECK(!tu_same(a, b));
  int identity_first = 1;
  for (int m = 0; m < 40; m++) identity_first &= a->men_prefs[(size_t)m * 40] == (bb_id)m;
  CHECK(!identity_first);
  bb_instance_free(a);
  bb_instance_free(b);
}

int main(void) {
  test_names();
  test_bad_arguments();
  test_reproducible();
  test_congested_and_groups();
  test_perfect();
  test_solo();
  test_solo_relabelled();
  return tu_finish();
}
