/* The portfolio of couples-aware deferred acceptances and its polish (hrc_portfolio.h): on
 * tiny instances against the harness's brute force (harness/bth_hrc.h), the same result for
 * every thread count, randomised runs that find what hrc-da does not on correlated instances,
 * and the argument and deadline errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_mallows.h"
#include "hrc_portfolio.h"
#include "test_util.h"

/* Every result is a matching whose reported count is the reference's, never below brute force's
 * minimum, never above hrc-da's nor above the randomised single run with run 1's seed; the
 * polish never makes it worse, and its count is the reference's too. */
static void against_reference(uint64_t *rng, int instances) {
  int improved = 0, polished = 0;
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nr = 2 + (int)(tu_rand(rng) % 6);
    int nc = 1 + (int)(tu_rand(rng) % (uint64_t)(nr / 2));
    bb_hrc *inst = bth_hrc_random(nr, nh, nc, 3, rng);
    bth_hrc_summary s = bth_hrc_summarise(inst);
    int32_t M[16], single[16], random_run[16];
    uint64_t da_bp = 0, rand_bp = 0;
    bb_error err = {{0}};
    CHECKF(bb_hrc_da(inst, NULL, single, NULL, &da_bp, NULL, &err) == BB_OK, "%s", err.msg);
    bb_hrc_portfolio_opts o = {.runs = 6, .threads = 2, .seed = (uint64_t)k + 1};
    bb_hrc_run_stats runs[6];
    bb_hrc_portfolio_result res;
    CHECKF(bb_hrc_portfolio(inst, &o, M, &res, runs, &err) == BB_OK, "%s", err.msg);
    CHECK(bth_hrc_is_matching(inst, M));
    CHECKF(res.blocking == (uint64_t)bth_hrc_blocking(inst, M), "portfolio reports %llu, the reference counts %d",
           (unsigned long long)res.blocking, bth_hrc_blocking(inst, M));
    CHECK((int)res.blocking >= s.min_blocking);
    CHECK(res.blocking <= da_bp && runs[0].blocking == da_bp && runs[0].status == BB_OK);
    CHECK(res.runs_done == 6 && res.best_run >= 0 && res.best_run < 6 && runs[res.best_run].blocking == res.blocking);
    CHECK(bb_hrc_da_random(inst, NULL, runs[1].seed, random_run, &rand_bp, NULL, &err) == BB_OK);
    CHECK(rand_bp == runs[1].blocking && bth_hrc_is_matching(inst, random_run) &&
          rand_bp == (uint64_t)bth_hrc_blocking(inst, random_run));
    CHECK(res.blocking <= rand_bp);
    improved += res.blocking < da_bp;
    if (res.blocking > 0) {
      uint64_t before = res.blocking;
      o.polish_steps = 40;
      CHECKF(bb_hrc_portfolio(inst, &o, M, &res, NULL, &err) == BB_OK, "%s", err.msg);
      CHECK(res.blocking_before_polish == before && res.blocking <= before && res.polish_steps > 0);
      CHECK(bth_hrc_is_matching(inst, M) && res.blocking == (uint64_t)bth_hrc_blocking(inst, M));
      CHECK((int)res.blocking >= s.min_blocking);
      polished += res.blocking < before;
    }
    bb_hrc_free(inst);
  }
  printf("tiny instances: %d, the portfolio beats hrc-da on %d, the polish improves %d\n", instances, improved,
         polished);
}

static bb_hrc *correlated(uint64_t seed) {
  bb_hrc_mallows_params p;
  bb_hrc_mallows_default(&p, 300, 60, 30);
  p.min_list = 5, p.max_list = 10;
  p.phi_residents = 0.9, p.phi_hospitals = 0.5;
  p.seed = seed;
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  CHECKF(bb_hrc_generate_mallows(&p, &inst, &err) == BB_OK, "%s", err.msg);
  return inst;
}

/* One result, bit for bit, whatever the thread count; run statistics too (but the times). */
static void deterministic(void) {
  bb_hrc *inst = correlated(7);
  int nr = inst->n_residents;
  int32_t *ref = malloc((size_t)nr * 4), *m = malloc((size_t)nr * 4);
  bb_hrc_run_stats ref_runs[9], runs[9];
  bb_hrc_portfolio_result ref_res, res;
  bb_error err = {{0}};
  bb_hrc_portfolio_opts o = {.runs = 9, .threads = 1, .seed = 42, .polish_steps = 30};
  CHECKF(bb_hrc_portfolio(inst, &o, ref, &ref_res, ref_runs, &err) == BB_OK, "%s", err.msg);
  const int thread_counts[] = {2, 3, 4, 9, 0};
  for (int t = 0; t < 5; t++) {
    o.threads = thread_counts[t];
    CHECKF(bb_hrc_portfolio(inst, &o, m, &res, runs, &err) == BB_OK, "%s", err.msg);
    CHECKF(!memcmp(ref, m, (size_t)nr * 4), "threads %d: another matching", o.threads);
    CHECK(res.best_run == ref_res.best_run && res.blocking == ref_res.blocking &&
          res.polish_improvements == ref_res.polish_improvements);
    for (int i = 0; i < 9; i++)
      CHECK(runs[i].seed == ref_runs[i].seed && runs[i].blocking == ref_runs[i].blocking &&
            runs[i].proposals == ref_runs[i].proposals && runs[i].matched == ref_runs[i].matched);
  }
  /* Another seed, other randomised runs (run 0 is hrc-da either way). */
  o.seed = 43;
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, runs, &err) == BB_OK);
  CHECK(runs[0].blocking == ref_runs[0].blocking && runs[0].seed == 0 && runs[1].seed != ref_runs[1].seed);
  free(ref), free(m);
  bb_hrc_free(inst);
}

/* Correlated instances where hrc-da ends with blocking pairs: the randomised runs differ from it
 * and, over the set, the portfolio does strictly better than hrc-da somewhere. */
static void randomised_runs_help(void) {
  int unstable = 0, better = 0, differ = 0;
  for (uint64_t seed = 1; seed <= 12; seed++) {
    bb_hrc *inst = correlated(seed);
    int32_t *m = malloc((size_t)inst->n_residents * 4);
    uint64_t da_bp = 0;
    bb_error err = {{0}};
    CHECK(bb_hrc_da(inst, NULL, m, NULL, &da_bp, NULL, &err) == BB_OK);
    bb_hrc_portfolio_opts o = {.runs = 8, .threads = 2, .seed = seed};
    bb_hrc_run_stats runs[8];
    bb_hrc_portfolio_result res;
    CHECKF(bb_hrc_portfolio(inst, &o, m, &res, runs, &err) == BB_OK, "%s", err.msg);
    uint64_t checked = 0;
    CHECK(bb_hrc_count_blocking(inst, m, &checked, &err) == BB_OK && checked == res.blocking);
    CHECK(res.blocking <= da_bp);
    unstable += da_bp > 0;
    better += res.blocking < da_bp;
    for (int i = 1; i < 8; i++) differ += runs[i].proposals != runs[0].proposals;
    bb_hrc_free(inst);
    free(m);
  }
  printf("correlated instances: hrc-da unstable on %d of 12, the portfolio better on %d\n", unstable, better);
  CHECK(differ > 0);
  CHECK(unstable == 0 || better > 0);
}

static void errors(void) {
  uint64_t rng = 5;
  bb_hrc *inst = bth_hrc_random(6, 3, 2, 2, &rng);
  int32_t m[8];
  bb_hrc_portfolio_result res;
  bb_error err = {{0}};
  bb_hrc_portfolio_opts o = {.runs = 0};
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "runs"));
  o = (bb_hrc_portfolio_opts){.runs = 2, .threads = -1};
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "threads"));
  o = (bb_hrc_portfolio_opts){.runs = 2, .polish_steps = -1};
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, NULL, &err) == BB_ERR_ARG && strstr(err.msg, "polish"));
  CHECK(bb_hrc_portfolio(inst, NULL, m, &res, NULL, &err) == BB_ERR_ARG);
  o = (bb_hrc_portfolio_opts){.runs = 3, .deadline = bb_now() - 1};
  bb_hrc_run_stats runs[3];
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, runs, &err) == BB_ERR_TIMEOUT && strstr(err.msg, "time limit"));
  CHECK(runs[0].status == BB_ERR_TIMEOUT && runs[2].status == BB_ERR_TIMEOUT);
  o.deadline = bb_now() + 3600;
  CHECK(bb_hrc_portfolio(inst, &o, m, &res, runs, &err) == BB_OK && res.runs_done == 3);
  bb_hrc_free(inst);
}

int main(void) {
  uint64_t rng = 34;
  against_reference(&rng, 1500);
  deterministic();
  randomised_runs_help();
  errors();
  return tu_finish();
}
