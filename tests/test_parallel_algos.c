/* Differential stress test of the threaded code: bb_parallel_for and the pool cover
 * every index exactly once, and gs-par / mw-par equal gs-seq for 1..8 threads, many
 * times over (races show up as occasional differences). */
#include "algos.h"
#include "generate.h"
#include "parallel.h"
#include "solve.h"
#include "test_util.h"

#include <stdatomic.h>

typedef struct cover {
  _Atomic int *hits;
  _Atomic int bad_tid;
  int threads;
} cover;

static void mark(void *arg, int64_t begin, int64_t end, int tid) {
  cover *c = arg;
  if (tid < 0 || tid >= c->threads) atomic_fetch_add(&c->bad_tid, 1);
  for (int64_t i = begin; i < end; i++) atomic_fetch_add(&c->hits[i], 1);
}

static void check_helpers(void) {
  enum { MAX = 1000 };
  static _Atomic int hits[MAX];
  static const int64_t counts[] = {0, 1, 2, 7, 64, 999, 1000};
  for (int threads = 0; threads <= 9; threads++) {
    bb_pool *pool = bb_pool_new(threads);
    CHECK(pool != NULL);
    if (pool) CHECK(bb_pool_threads(pool) >= 1 && bb_pool_threads(pool) <= (threads > 1 ? threads : 1));
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++)
      for (int use_pool = 0; use_pool <= (pool != NULL); use_pool++)
        for (int64_t grain = 1; grain <= 100; grain *= 10) {
          for (int i = 0; i < MAX; i++) atomic_init(&hits[i], 0);
          cover cv = {hits, 0, threads > 1 ? threads : 1};
          if (use_pool)
            bb_pool_for(pool, counts[c], grain, mark, &cv);
          else
            bb_parallel_for(threads, counts[c], mark, &cv);
          int wrong = 0;
          for (int64_t i = 0; i < MAX; i++) wrong += atomic_load(&hits[i]) != (i < counts[c]);
          CHECKF(wrong == 0 && atomic_load(&cv.bad_tid) == 0,
                 "threads=%d count=%lld pool=%d grain=%lld: %d bad cells, %d bad tids", threads, (long long)counts[c],
                 use_pool, (long long)grain, wrong, atomic_load(&cv.bad_tid));
          if (!use_pool) break; /* grain only matters to the pool */
        }
    bb_pool_free(pool);
  }
  bb_pool_free(NULL);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.threads = 5;
  CHECK(bb_threads_for(&opts, 100) == 5);
  CHECK(bb_threads_for(&opts, 3) == 3);
  CHECK(bb_threads_for(&opts, 0) == 1);
  opts.threads = 0;
  CHECK(bb_threads_for(&opts, 1 << 30) == bb_cpu_count());
}

static void stress(bb_gen_kind kind, int n, int group, uint64_t seed, int repeats) {
  static const char *const par[] = {"gs-par", "mw-par"};
  static const int thread_counts[] = {1, 2, 3, 4, 8};
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_generate(kind, n, group, seed, 0, &inst, &err);
  CHECKF(st == BB_OK, "generate: %s", err.msg);
  bb_id *ref = malloc((size_t)n * sizeof *ref), *got = malloc((size_t)n * sizeof *got);
  CHECK(ref && got);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  char why[128];
  if (st == BB_OK && ref && got) {
    st = bb_solve(inst, "gs-seq", &opts, ref, NULL, &err);
    CHECKF(st == BB_OK, "gs-seq: %s", err.msg);
    CHECKF(tu_stable(inst, ref, why, sizeof why), "gs-seq: %s", why);
  }
  for (size_t a = 0; st == BB_OK && a < 2; a++)
    for (size_t t = 0; t < sizeof thread_counts / sizeof *thread_counts; t++) {
      int differ = 0, failed = 0;
      opts.threads = thread_counts[t];
      for (int r = 0; r < repeats; r++) {
        if (bb_solve(inst, par[a], &opts, got, NULL, &err) != BB_OK)
          failed++;
        else
          differ += memcmp(ref, got, (size_t)n * sizeof *ref) != 0;
      }
      CHECKF(!failed && !differ, "%s %s n=%d g=%d seed=%llu threads=%d: %d of %d runs failed (%s), %d differ", par[a],
             bb_gen_kind_name(kind), n, group, (unsigned long long)seed, thread_counts[t], failed, repeats, err.msg,
             differ);
    }
  free(ref);
  free(got);
  bb_instance_free(inst);
}

int main(void) {
  check_helpers();
  for (uint64_t seed = 1; seed <= 3; seed++) {
    stress(BB_GEN_UNIFORM, 300, 1, seed, 20);
    stress(BB_GEN_RANDOM, 300, 2, seed, 20);
    stress(BB_GEN_RANDOM, 257, 8, seed, 20);
    stress(BB_GEN_UNIFORM, 97, 1, seed, 20);
  }
  stress(BB_GEN_CONGESTED, 300, 1, 1, 20);
  stress(BB_GEN_SOLO, 300, 1, 1, 20);
  stress(BB_GEN_PERFECT, 300, 1, 1, 20);
  stress(BB_GEN_UNIFORM, 2, 1, 1, 20);
  stress(BB_GEN_UNIFORM, 1, 1, 1, 20);
  stress(BB_GEN_UNIFORM, 2000, 1, 9, 3); /* several rounds wide enough for the pool */
  return tu_finish();
}
