/* The couples-aware deferred acceptance's shared core (cuda/hrc_da_core.h) and the portfolio
 * on the GPU (cuda/gpu_hrc_da.cu through internal/hrc_portfolio_gpu.h).
 *
 *   - bb_hrcda_count, the count the GPU judges matchings by, against brute force
 *     (harness/bth_hrc.h) on every matching of tiny instances, with and without ties;
 *   - each portfolio run as the GPU runs it (the core without the host's hooks, here on the
 *     host: test_hrc_da_emul.c) against bb_hrc_da / bb_hrc_da_random: the same matching,
 *     count, rounds and proposals;
 *   - `test_hrc_da_core gpu`: the same runs on the GPU, every run's matching and statistics
 *     and the winner the CPU's, in one batch and in several, and bb_hrc_portfolio with
 *     on_gpu (polish included) the CPU portfolio's; exits 77 without a GPU. `gpu quick` keeps
 *     the small instances only (for compute-sanitizer).
 * Without a GPU the portfolio's GPU path must say so (BB_ERR_NO_GPU). */

/* First: its hooks must be defined before the core is read. */
#include "hrc_da_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu_device.h"
#include "bth_hrc.h"
#include "hrc.h"
#include "hrc_gen.h"
#include "hrc_portfolio.h"
#include "hrc_portfolio_gpu.h"
#include "test_hrc_da_emul.h"
#include "test_util.h"

typedef struct count_ctx {
  da *d;
  hosp_view *v;
  long matchings;
} count_ctx;

static void visit(const int32_t *M, int blocking, void *ctx) {
  count_ctx *c = ctx;
  bb_hrcda_load(c->d, M);
  uint64_t n = bb_hrcda_count(c->d, c->v);
  CHECKF(n == (uint64_t)blocking, "bb_hrcda_count %llu, brute force %d", (unsigned long long)n, blocking);
  c->matchings++;
}

static void count_exhaustive(uint64_t *rng) {
  long matchings = 0;
  int instances = 400;
  for (int k = 0; k < instances; k++) {
    int nh = 1 + (int)(tu_rand(rng) % 4), nc = (int)(tu_rand(rng) % 3), ns = (int)(tu_rand(rng) % 5);
    if (2 * nc + ns == 0) ns = 1;
    bb_hrc *inst = bth_hrc_random(2 * nc + ns, nh, nc, 3, rng);
    if (k % 2) CHECK(bth_hrc_add_random_ties(inst, rng));
    da d;
    bb_error err = {{0}};
    CHECKF(bb_hrcda_init(&d, inst, 0, &err) == BB_OK, "%s", err.msg);
    count_ctx c = {&d, malloc(((size_t)nh + 1) * sizeof(hosp_view)), 0};
    bth_hrc_enumerate(inst, visit, &c);
    matchings += c.matchings;
    free(c.v);
    bb_hrcda_free(&d);
    bb_hrc_free(inst);
  }
  printf("bb_hrcda_count: %ld matchings of %d tiny instances, brute force's count\n", matchings, instances);
}

static bb_hrc *generated(int kind, uint64_t seed) {
  bb_hrc_gen_params p;
  if (kind == 0) { /* small and crowded: runs end with blocking pairs, the sequential rounds run */
    bb_hrc_gen_mmt2017(&p, 100, 30, 10);
    p.posts = 70;
  } else if (kind == 1) { /* NRMP-shaped, scaled down */
    bb_hrc_gen_nrmp(&p, 150);
    p.n_residents = 3000, p.n_hospitals = 420, p.posts = 2700;
  } else if (kind == 2) { /* SFAS-shaped: ties in the hospitals' lists */
    bb_hrc_gen_sfas(&p, 40);
  } else { /* NRMP-shaped, national size */
    bb_hrc_gen_nrmp(&p, 3000);
  }
  p.seed = seed;
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  CHECKF(bb_hrc_generate(&p, &inst, &err) == BB_OK, "%s", err.msg);
  return inst;
}

static int matched_of(const int32_t *m, int nr) {
  int n = 0;
  for (int r = 0; r < nr; r++) n += m[r] != BB_HRC_NONE;
  return n;
}

/* Runs 0..K-1 of a portfolio of `seed` on the CPU (bb_hrc_da, bb_hrc_da_random) against the
 * same runs emulated (gpu false) or on the GPU in batches of `batch` (gpu true); `rounds`
 * repair rounds a strategy (0: the default). */
static void same_runs(const bb_hrc *inst, int K, uint64_t seed, bool gpu, int batch, int rounds, long *compared) {
  bb_hrc_da_opts da_opts = {.max_rounds = rounds};
  int nr = inst->n_residents;
  bb_error err = {{0}};
  da d;
  CHECKF(bb_hrcda_init(&d, inst, 0, &err) == BB_OK, "%s", err.msg);
  int32_t *cpu = malloc(((size_t)nr + 1) * 4), *win = malloc(((size_t)nr + 1) * 4);
  int32_t *other = malloc(((size_t)K * (size_t)nr + 1) * 4), *gpu_best = malloc(((size_t)nr + 1) * 4);
  bb_hrc_run_stats *runs = calloc((size_t)K, sizeof *runs);
  bb_hrc_portfolio_result res;
  memset(&res, 0, sizeof res);
  if (gpu) {
    bb_hrc_portfolio_opts o = {.runs = K, .seed = seed, .da = da_opts, .on_gpu = true, .gpu_batch = batch};
    CHECKF(bb_hrc_portfolio_gpu_runs(inst, &o, gpu_best, &res, runs, other, &err) == BB_OK, "%s", err.msg);
    CHECK(res.runs_done == K);
  }
  int winner = -1, win_matched = 0;
  uint64_t win_bp = 0;
  for (int i = 0; i < K; i++) {
    uint64_t bp = 0;
    bb_hrc_da_stats st;
    uint64_t s = bb_hrcda_run_seed(seed, i);
    bb_status status = i == 0 ? bb_hrc_da(inst, &da_opts, cpu, NULL, &bp, &st, &err)
                              : bb_hrc_da_random(inst, &da_opts, s, cpu, &bp, &st, &err);
    CHECKF(status == BB_OK, "%s", err.msg);
    int m = matched_of(cpu, nr);
    int32_t *mine = other + (size_t)i * (size_t)nr;
    if (gpu) {
      CHECKF(!memcmp(cpu, mine, (size_t)nr * 4), "run %d: the GPU's matching is not the CPU's", i);
      CHECKF(runs[i].status == BB_OK && runs[i].blocking == bp && runs[i].matched == m && runs[i].rounds == st.rounds &&
                 runs[i].proposals == st.proposals && runs[i].seed == (i ? s : 0),
             "run %d: GPU %llu blocking pairs, %d rounds, %llu proposals; CPU %llu, %d, %llu", i,
             (unsigned long long)runs[i].blocking, runs[i].rounds, (unsigned long long)runs[i].proposals,
             (unsigned long long)bp, st.rounds, (unsigned long long)st.proposals);
    } else {
      uint64_t ebp = 0;
      bb_hrcda_totals t;
      CHECK(emul_run(&d.L, d.max_proposals, rounds ? rounds : 100, i, seed, mine, &ebp, &t));
      CHECKF(!memcmp(cpu, mine, (size_t)nr * 4), "run %d: the emulated matching is not the CPU's", i);
      CHECKF(ebp == bp && t.rounds == st.rounds && t.proposals == st.proposals && t.bounded == st.bounded,
             "run %d: emulated %llu blocking pairs, CPU %llu", i, (unsigned long long)ebp, (unsigned long long)bp);
    }
    if (winner < 0 || bp < win_bp || (bp == win_bp && m > win_matched)) {
      winner = i, win_bp = bp, win_matched = m;
      memcpy(win, cpu, (size_t)nr * 4);
    }
    (*compared)++;
  }
  if (gpu)
    CHECKF(res.best_run == winner && res.blocking == win_bp && res.matched == win_matched &&
               !memcmp(gpu_best, win, (size_t)nr * 4),
           "the GPU's winner is run %d, the CPU's %d", res.best_run, winner);
  free(cpu), free(win), free(other), free(gpu_best), free(runs);
  bb_hrcda_free(&d);
}

/* The whole portfolio (polish included) on the GPU and on the CPU: one result. */
static void same_portfolio(const bb_hrc *inst, int runs, uint64_t seed, int polish) {
  int nr = inst->n_residents;
  int32_t *a = malloc(((size_t)nr + 1) * 4), *b = malloc(((size_t)nr + 1) * 4);
  bb_hrc_portfolio_result ra, rb;
  bb_error err = {{0}};
  bb_hrc_portfolio_opts o = {.runs = runs, .threads = 2, .seed = seed, .polish_steps = polish};
  CHECKF(bb_hrc_portfolio(inst, &o, a, &ra, NULL, &err) == BB_OK, "%s", err.msg);
  o.on_gpu = true;
  CHECKF(bb_hrc_portfolio(inst, &o, b, &rb, NULL, &err) == BB_OK, "%s", err.msg);
  CHECK(!memcmp(a, b, (size_t)nr * 4));
  CHECK(ra.best_run == rb.best_run && ra.blocking == rb.blocking && ra.matched == rb.matched &&
        ra.blocking_before_polish == rb.blocking_before_polish && ra.polish_steps == rb.polish_steps &&
        ra.polish_improvements == rb.polish_improvements && ra.runs_done == rb.runs_done);
  free(a), free(b);
}

int main(int argc, char **argv) {
  bool gpu = argc > 1 && !strcmp(argv[1], "gpu"), quick = argc > 2 && !strcmp(argv[2], "quick");
  char why[256];
  bool have_gpu = bb_gpu_probe(0, why, sizeof why);
  if (gpu && !have_gpu) {
    printf("no GPU: %s\n", why);
    return 77;
  }
  uint64_t rng = 20261129;
  long compared = 0;
  if (!gpu) count_exhaustive(&rng);
  for (int k = 0; k < 60; k++) { /* tiny: every odd case of the definition */
    int nh = 1 + (int)(tu_rand(&rng) % 4), nc = (int)(tu_rand(&rng) % 4), ns = (int)(tu_rand(&rng) % 6);
    if (2 * nc + ns == 0) ns = 1;
    bb_hrc *inst = bth_hrc_random(2 * nc + ns, nh, nc, 3, &rng);
    if (k % 3 == 2) CHECK(bth_hrc_add_random_ties(inst, &rng));
    same_runs(inst, gpu ? 24 : 8, (uint64_t)k + 1, gpu, k % 2 ? 5 : 0, 0, &compared);
    bb_hrc_free(inst);
  }
  for (int kind = 0; kind < 3; kind++)
    for (uint64_t seed = 1; seed <= 3; seed++) {
      if (quick && (kind == 1 || seed > 1)) continue;
      bb_hrc *inst = generated(kind, seed);
      same_runs(inst, gpu ? 48 : 4, seed, gpu, gpu && seed == 2 ? 7 : 0, 0, &compared);
      if (gpu && kind != 2) same_portfolio(inst, 32, seed, 50);
      bb_hrc_free(inst);
    }
  if (gpu && !quick) { /* national size, one repair round a strategy to keep it short */
    bb_hrc *inst = generated(3, 6);
    same_runs(inst, 16, 6, true, 0, 1, &compared);
    bb_hrc_free(inst);
  }
  printf("%ld runs the same %s as on the CPU\n", compared, gpu ? "on the GPU" : "emulated");
  if (!have_gpu) { /* the GPU path must say why it cannot run */
    bb_hrc *inst = generated(0, 1);
    int32_t *m = malloc(((size_t)inst->n_residents + 1) * 4);
    bb_hrc_portfolio_opts o = {.runs = 4, .seed = 1, .on_gpu = true};
    bb_hrc_portfolio_result res;
    bb_error err = {{0}};
    CHECK(bb_hrc_portfolio(inst, &o, m, &res, NULL, &err) == BB_ERR_NO_GPU && strstr(err.msg, "GPU 0"));
    free(m);
    bb_hrc_free(inst);
  }
  return tu_finish();
}
