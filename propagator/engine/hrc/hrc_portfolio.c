/* The portfolio of couples-aware deferred acceptances (hrc_portfolio.h, docs/hrc.md
 * "Portfolio"): run 0 is bb_hrc_da, the others randomised; each thread keeps the best of the
 * runs it took, and the threads' bests are compared by (blocking pairs, matched, run), a total
 * order, so how runs fell to threads never shows in the result. */
#include <stdlib.h>
#include <string.h>

#include "hrc_portfolio.h"
#include "hrc_da_internal.h"
#include "hrc_portfolio_gpu.h"
#include "parallel.h"

bb_status bb_hrc_da_random(const bb_hrc *inst, const bb_hrc_da_opts *opts, uint64_t seed, int32_t *assigned,
                           uint64_t *blocking, bb_hrc_da_stats *stats, bb_error *err) {
  if (!inst || !assigned) return bb_fail(err, BB_ERR_ARG, "bb_hrc_da_random: NULL argument");
  uint64_t best = UINT64_MAX;
  bb_hrc_da_stats total = {0, 0, false};
  da d;
  bb_status st = bb_hrcda_init(&d, inst, opts ? opts->max_proposals : 0, err);
  if (st == BB_OK) st = bb_hrcda_host_run(&d, opts, true, seed, assigned, &best, &total, err);
  bb_hrcda_free(&d);
  if (st != BB_OK) return st;
  if (blocking) *blocking = best;
  if (stats) *stats = total;
  return BB_OK;
}

/* Run i's seed: a splitmix64 step from the portfolio's seed and i, never 0. */
static uint64_t run_seed(uint64_t seed, int i) { return bb_hrcda_run_seed(seed, i); }

typedef struct slot {
  int32_t *best, *scratch; /* the thread's best matching, and the run in progress */
  int best_run, best_matched;
  uint64_t best_blocking;
  bb_status failure; /* the first error other than a timeout, BB_OK if none */
  bb_error err;
} slot;

typedef struct portfolio {
  const bb_hrc *inst;
  const bb_hrc_portfolio_opts *opts;
  bb_hrc_run_stats *runs;
  slot *slots;
} portfolio;

static int count_matched(const bb_hrc *inst, const int32_t *m) {
  int n = 0;
  for (int r = 0; r < inst->n_residents; r++) n += m[r] != BB_HRC_NONE;
  return n;
}

/* Whether (blocking, matched, run) a beats b: fewer blocking pairs, then more matched, then the lower run. */
static bool beats(uint64_t ba, int ma, int ra, uint64_t bb, int mb, int rb) {
  if (ba != bb) return ba < bb;
  if (ma != mb) return ma > mb;
  return ra < rb;
}

static void run_range(void *ctx, int64_t begin, int64_t end, int tid) {
  portfolio *p = ctx;
  slot *s = &p->slots[tid];
  const bb_hrc_portfolio_opts *o = p->opts;
  for (int64_t i = begin; i < end; i++) {
    bb_hrc_run_stats *rs = &p->runs[i];
    memset(rs, 0, sizeof *rs);
    rs->status = BB_ERR_TIMEOUT;
    if (o->deadline > 0 && bb_now() > o->deadline) continue;
    bb_hrc_da_opts da_opts = o->da;
    da_opts.deadline = o->deadline;
    bb_hrc_da_stats st = {0, 0, false};
    uint64_t blocking = 0;
    bb_error err = {{0}};
    double t0 = bb_now();
    bb_status status;
    if (i == 0) {
      status = bb_hrc_da(p->inst, &da_opts, s->scratch, NULL, &blocking, &st, &err);
    } else {
      rs->seed = run_seed(o->seed, (int)i);
      status = bb_hrc_da_random(p->inst, &da_opts, rs->seed, s->scratch, &blocking, &st, &err);
    }
    rs->seconds = bb_now() - t0;
    rs->status = status;
    if (status != BB_OK) {
      if (status != BB_ERR_TIMEOUT && s->failure == BB_OK) s->failure = status, s->err = err;
      continue;
    }
    rs->blocking = blocking;
    rs->rounds = st.rounds;
    rs->proposals = st.proposals;
    rs->matched = count_matched(p->inst, s->scratch);
    if (s->best_run < 0 || beats(blocking, rs->matched, (int)i, s->best_blocking, s->best_matched, s->best_run)) {
      int32_t *t = s->best;
      s->best = s->scratch, s->scratch = t;
      s->best_run = (int)i, s->best_blocking = blocking, s->best_matched = rs->matched;
    }
  }
}

static bb_status run_all(portfolio *p, int threads, int32_t *assigned, bb_hrc_portfolio_result *res, bb_error *err) {
  size_t bytes = ((size_t)p->inst->n_residents + 1) * sizeof(int32_t);
  bb_status st = BB_OK;
  for (int t = 0; t < threads; t++) {
    p->slots[t] = (slot){.best = malloc(bytes), .scratch = malloc(bytes), .best_run = -1, .failure = BB_OK};
    if (!p->slots[t].best || !p->slots[t].scratch) st = bb_fail(err, BB_ERR_NOMEM, "hrc-da-portfolio: out of memory");
  }
  bb_pool *pool = st == BB_OK ? bb_pool_new(threads) : NULL;
  if (st == BB_OK && !pool) st = bb_fail(err, BB_ERR_NOMEM, "hrc-da-portfolio: out of memory");
  if (st == BB_OK) bb_pool_for(pool, p->opts->runs, 1, run_range, p);
  bb_pool_free(pool);
  int winner = -1;
  for (int t = 0; t < threads && st == BB_OK; t++) {
    const slot *s = &p->slots[t];
    if (s->failure != BB_OK) {
      *err = s->err;
      st = s->failure;
    } else if (s->best_run >= 0 &&
               (winner < 0 || beats(s->best_blocking, s->best_matched, s->best_run, p->slots[winner].best_blocking,
                                    p->slots[winner].best_matched, p->slots[winner].best_run)))
      winner = t;
  }
  if (st == BB_OK && winner < 0)
    st = bb_fail(err, BB_ERR_TIMEOUT, "hrc-da-portfolio: time limit reached before any run ended");
  if (st == BB_OK) {
    const slot *w = &p->slots[winner];
    memcpy(assigned, w->best, (size_t)p->inst->n_residents * sizeof *assigned);
    res->best_run = w->best_run;
    res->blocking = res->blocking_before_polish = w->best_blocking;
    res->matched = w->best_matched;
    for (int i = 0; i < p->opts->runs; i++) res->runs_done += p->runs[i].status == BB_OK;
  }
  for (int t = 0; t < threads; t++) free(p->slots[t].best), free(p->slots[t].scratch);
  return st;
}

static bb_status polish(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *assigned,
                        bb_hrc_portfolio_result *res, bb_error *err);

bb_status bb_hrc_portfolio(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *assigned,
                           bb_hrc_portfolio_result *res, bb_hrc_run_stats *runs, bb_error *err) {
  if (!inst || !opts || !assigned || !res) return bb_fail(err, BB_ERR_ARG, "bb_hrc_portfolio: NULL argument");
  if (opts->runs < 1) return bb_fail(err, BB_ERR_ARG, "bb_hrc_portfolio: runs %d, needs at least 1", opts->runs);
  if (opts->threads < 0) return bb_fail(err, BB_ERR_ARG, "bb_hrc_portfolio: threads %d is negative", opts->threads);
  if (opts->polish_steps < 0)
    return bb_fail(err, BB_ERR_ARG, "bb_hrc_portfolio: polish steps %d is negative", opts->polish_steps);
  if (opts->gpu_batch < 0)
    return bb_fail(err, BB_ERR_ARG, "bb_hrc_portfolio: gpu batch %d is negative", opts->gpu_batch);
  memset(res, 0, sizeof *res);
  bb_status st;
  if (opts->on_gpu) {
    bb_hrc_run_stats *own = runs ? NULL : malloc((size_t)opts->runs * sizeof *own);
    if (!runs && !own) return bb_fail(err, BB_ERR_NOMEM, "hrc-da-portfolio: out of memory");
    st = bb_hrc_portfolio_gpu_runs(inst, opts, assigned, res, runs ? runs : own, NULL, err);
    free(own);
    return st == BB_OK ? polish(inst, opts, assigned, res, err) : st;
  }
  int threads = opts->threads ? opts->threads : bb_cpu_count();
  if (threads < 1) threads = 1;
  if (threads > opts->runs) threads = opts->runs;
  bb_hrc_run_stats *own = runs ? NULL : malloc((size_t)opts->runs * sizeof *own);
  slot *slots = calloc((size_t)threads, sizeof *slots);
  if ((!runs && !own) || !slots) {
    free(own), free(slots);
    return bb_fail(err, BB_ERR_NOMEM, "hrc-da-portfolio: out of memory");
  }
  portfolio p = {inst, opts, runs ? runs : own, slots};
  st = run_all(&p, threads, assigned, res, err);
  free(own), free(slots);
  return st == BB_OK ? polish(inst, opts, assigned, res, err) : st;
}

/* The local search on the runs' best (bb_hrc_polish), when asked and useful. */
static bb_status polish(const bb_hrc *inst, const bb_hrc_portfolio_opts *opts, int32_t *assigned,
                        bb_hrc_portfolio_result *res, bb_error *err) {
  bb_status st = BB_OK;
  /* The walk needs strict lists (bb_hrc_polish): with ties the runs' best stands unpolished. */
  if (opts->polish_steps == 0 || res->blocking == 0 || bb_hrc_has_ties(inst)) return st;
  bb_hrc_polish_stats ps = {0, 0, 0};
  /* The search's own stream: the seed's run N would be the next run's. */
  st = bb_hrc_polish(inst, opts->polish_steps, run_seed(opts->seed, -1), opts->deadline, assigned, &res->blocking, &ps,
                     err);
  if (st != BB_OK) return st;
  res->polish_steps = ps.steps, res->polish_moves = ps.moves, res->polish_improvements = ps.improvements;
  res->matched = count_matched(inst, assigned);
  return BB_OK;
}
