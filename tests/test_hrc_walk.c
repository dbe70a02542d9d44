/* The HRC local search's incremental state (internal/hrc_walk.h): after every move, undo,
 * checkpoint and return, on many small random instances (singles and couples), its count of
 * blocking pairs, each agent's share and the matched residents equal the harness's brute-force
 * definitions (harness/bth_hrc.h) and the checker's; an undo gives back the matching before the
 * move, a return the checkpoint's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_portfolio.h"
#include "hrc_walk.h"
#include "test_util.h"

static int matched(const bb_hrc *in, const int32_t *m) {
  int n = 0;
  for (int r = 0; r < in->n_residents; r++) n += m[r] != BB_HRC_NONE;
  return n;
}

/* The walk's numbers against the definitions; false (and reported) on the first difference. */
static bool agrees(const bb_hrcw *w, const char *after) {
  const bb_hrc *in = w->d.in;
  const int32_t *m = w->d.assigned;
  uint64_t checked = 0;
  bb_error err = {{0}};
  bool ok = bth_hrc_is_matching(in, m) && bb_hrc_count_blocking(in, m, &checked, &err) == BB_OK;
  CHECKF(ok, "after %s: not a matching (%s)", after, err.msg);
  if (!ok) return false;
  CHECKF(w->blocking == checked && (int)checked == bth_hrc_blocking(in, m),
         "after %s: the walk counts %llu, the checker %llu, brute force %d", after, (unsigned long long)w->blocking,
         (unsigned long long)checked, bth_hrc_blocking(in, m));
  CHECKF(w->matched == matched(in, m), "after %s: matched %d, really %d", after, w->matched, matched(in, m));
  int blockers = 0;
  for (int a = 0; a < w->d.nagents; a++) {
    if (a < in->n_residents && in->couple_of[a] != BB_HRC_SINGLE) continue;
    int own = bth_hrc_blocking_of(in, m, a);
    CHECKF(w->nblock[a] == own, "after %s: agent %d blocks %d times, really %d", after, a, w->nblock[a], own);
    CHECK((w->where[a] >= 0) == (own > 0));
    blockers += own > 0;
  }
  CHECK(w->nblockers == blockers);
  return w->blocking == checked;
}

static void random_walks(uint64_t *rng, int instances) {
  int moves = 0, undos = 0, backs = 0, changed = 0;
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 6), nr = 2 + (int)(tu_rand(rng) % 30);
    int nc = (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    int32_t start[64], before[64], checkpoint[64];
    bb_error err = {{0}};
    uint64_t bp = 0;
    CHECKF(bb_hrc_da_random(inst, NULL, tu_rand(rng) | 1, start, &bp, NULL, &err) == BB_OK, "%s", err.msg);
    bb_hrcw w;
    CHECKF(bb_hrcw_init(&w, inst, start, tu_rand(rng), &err) == BB_OK, "%s", err.msg);
    bool ok = agrees(&w, "init");
    memcpy(checkpoint, start, sizeof start);
    for (int step = 0; ok && step < 60; step++) {
      memcpy(before, w.d.assigned, (size_t)nr * sizeof *before);
      bool blocked = w.nblockers > 0;
      bool moved = tu_rand(rng) % 3 ? bb_hrcw_move(&w) : bb_hrcw_move_free(&w);
      CHECK(moved == blocked);
      if (!moved) {
        CHECK(w.blocking == 0 && !memcmp(before, w.d.assigned, (size_t)nr * sizeof *before));
        break;
      }
      moves++;
      if (!(ok = agrees(&w, "a move"))) break;
      changed += memcmp(before, w.d.assigned, (size_t)nr * sizeof *before) != 0;
      if (tu_rand(rng) % 2) {
        bb_hrcw_undo(&w);
        undos++;
        CHECK(!memcmp(before, w.d.assigned, (size_t)nr * sizeof *before));
        ok = agrees(&w, "an undo");
      } else {
        bb_hrcw_commit(&w);
      }
      unsigned roll = (unsigned)(tu_rand(rng) % 8);
      if (roll == 0) {
        bb_hrcw_checkpoint(&w);
        memcpy(checkpoint, w.d.assigned, (size_t)nr * sizeof *checkpoint);
      } else if (roll == 1) {
        bb_hrcw_back(&w);
        backs++;
        CHECK(!memcmp(checkpoint, w.d.assigned, (size_t)nr * sizeof *checkpoint));
        ok = ok && agrees(&w, "a return");
      }
    }
    bb_hrcw_free(&w);
    bb_hrc_free(inst);
  }
  printf("walks: %d instances, %d moves (%d changed the matching), %d undone, %d returns\n", instances, moves, changed,
         undos, backs);
  CHECK(moves > instances && changed > 0 && undos > 0 && backs > 0);
}

/* The polish on the same kind of instances: its count is the checker's and brute force's, never
 * above where it started; a wrong starting count and tied hospitals' lists are refused (the
 * portfolio leaves its best unpolished there). */
static void polish(uint64_t *rng, int instances, bool ties) {
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 6), nr = 2 + (int)(tu_rand(rng) % 30);
    bb_hrc *inst = bth_hrc_random(nr, nh, (int)(tu_rand(rng) % (uint64_t)(nr / 2 + 1)), 3, rng);
    bool tied = ties && bth_hrc_add_random_ties(inst, rng) && bb_hrc_has_ties(inst);
    int32_t m[64];
    uint64_t bp = 0, start;
    bb_error err = {{0}};
    CHECK(bb_hrc_da(inst, NULL, m, NULL, &bp, NULL, &err) == BB_OK);
    start = bp;
    bb_hrc_polish_stats s;
    if (tied) { /* refused: the walk's queue and the checker would break ties differently */
      CHECK(bb_hrc_count_blocking(inst, m, &bp, &err) == BB_OK);
      CHECK(bb_hrc_polish(inst, 10, 1, 0, m, &bp, &s, &err) == BB_ERR_ARG && strstr(err.msg, "ties"));
      bb_hrc_portfolio_opts o = {.runs = 2, .threads = 1, .seed = 1, .polish_steps = 10};
      bb_hrc_portfolio_result res;
      CHECK(bb_hrc_portfolio(inst, &o, m, &res, NULL, &err) == BB_OK && res.polish_steps == 0);
      CHECK(res.blocking == res.blocking_before_polish && (int)res.blocking == bth_hrc_blocking(inst, m));
      bb_hrc_free(inst);
      continue;
    }
    CHECKF(bb_hrc_polish(inst, 200, tu_rand(rng), 0, m, &bp, &s, &err) == BB_OK, "%s", err.msg);
    CHECK(bth_hrc_is_matching(inst, m) && (int)bp == bth_hrc_blocking(inst, m) && bp <= start);
    CHECK(start > 0 || s.steps == 0);
    uint64_t wrong = bp + 1;
    CHECK(bb_hrc_polish(inst, 5, 1, 0, m, &wrong, NULL, &err) == BB_ERR_ARG && wrong == bp + 1);
    bb_hrc_free(inst);
  }
}

int main(void) {
  uint64_t rng = 3434;
  random_walks(&rng, 3000);
  polish(&rng, 500, false);
  polish(&rng, 300, true);
  return tu_finish();
}
