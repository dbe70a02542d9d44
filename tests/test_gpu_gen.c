/* GPU test of generation on the device (ctest label `gpu`, exit 77 without a GPU):
 *   1. every kind's rows generated on the GPU (cuda/gpu_gen.cu) equal bb_generate's bit for bit,
 *      at several n, seeds and groups, whole sides and ranges of rows starting anywhere; and
 *      the same rows as rank rows (bb_gpu_gen_ranks_to_host, as the staged build holds its
 *      women when the rank matrix comes in blocks) are exactly their inverses;
 *   2. bamboo's staged build fed by the device generator (bb_gpu_set_generator) gives gs-seq's
 *      matching on the host-generated instance, with one block of men's rows or many, the rank
 *      matrix whole or in blocks, and the tail on the CPU (reading PRMatrix rows from the GPU)
 *      or on the GPU, and in many small rank blocks with a short last one (women drawn as rank
 *      rows, or drawn as lists and scattered, by kind and group). The instance handed to the context has both sides' lists reversed, so a
 *      build that uploaded them instead of generating them would give another matching; the
 *      host reads the husbands from a row source that regenerates the women's rows
 *      (row_source.h), as solve --gen-on gpu does without any list on the host;
 *   3. bb_solve("bamboo") on an instance with no lists at all and opts.gen_spec (what solve
 *      --gen-on gpu runs): on one GPU with the tail on the CPU, on the GPU, and in auto mode
 *      with a row budget of 1 (the CPU tail hands its chain back to the GPU, whose changed
 *      partners are read again from regenerated rows), and partitioned (--gpus 0,0 and 0,0,0,
 *      each partition generating its rows): gs-seq's matching, and stable by
 *      bb_check_stable_rows over regenerated rows (--verify without lists).
 * Argument "quick" runs a smaller set (compute-sanitizer memcheck). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu.h"
#include "bb_gpu_gen.h"
#include "gen_rows.h"
#include "generate.h"
#include "gpu_args.h"
#include "la.h"
#include "row_source.h"
#include "solve.h"

static int passed, failed;

static void check(int ok, const char *what, bb_gen_kind kind, int n, int group, const char *detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s on %s n=%d g=%d: %s\n", what, bb_gen_kind_name(kind), n, group, detail);
  }
}

/* Opens the device generator of (kind, n, group, seed) and fills *spec (host permutations in
 * *perms, freed by the caller). */
static bb_status open_gen(bb_gen_kind kind, int n, int group, uint64_t seed, bb_id **perms, bb_gpu_gen **gen,
                          bb_gen_spec *spec, bb_error *err) {
  size_t ids = bb_gen_perm_ids(kind, n);
  *perms = ids ? malloc(ids * sizeof **perms) : NULL;
  if (ids && !*perms) return bb_fail(err, BB_ERR_NOMEM, "out of memory");
  bb_status st = bb_gen_spec_init(spec, kind, n, group, seed, *perms, err);
  if (st == BB_OK) st = bb_gpu_gen_open(0, spec, gen, err);
  return st;
}

/* 1b: the rank rows of rows first .. first + count - 1 of one side are the inverses of the
 * host's lists: rank[i][list[i][k]] == k for every k (a permutation has one inverse). */
static void ranks_inverse(bb_gen_kind kind, int n, int group, const bb_instance *inst, bb_gpu_gen *gen, int women,
                          int first, int count) {
  uint32_t *rank = malloc((size_t)count * (size_t)n * sizeof *rank);
  bb_error err = {{0}};
  if (!rank) {
    check(0, "rank rows", kind, n, group, "out of memory");
    return;
  }
  memset(rank, 0xff, (size_t)count * (size_t)n * sizeof *rank);
  bb_status st = bb_gpu_gen_ranks_to_host(gen, women, first, count, rank, &err);
  const bb_id *lists = (women ? inst->women_prefs : inst->men_prefs) + (size_t)first * (size_t)n;
  int ok = st == BB_OK;
  for (size_t i = 0; ok && i < (size_t)count; i++)
    for (size_t k = 0; ok && k < (size_t)n; k++) ok = rank[i * (size_t)n + lists[i * (size_t)n + k]] == (uint32_t)k;
  char what[64];
  snprintf(what, sizeof what, "%s rank rows %d..%d", women ? "women's" : "men's", first, first + count - 1);
  check(ok, what, kind, n, group, st != BB_OK ? err.msg : "not the inverse of the lists");
  free(rank);
}

/* 1: device rows == host rows, whole sides and a range starting at row `first`. */
static void rows_identical(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  bb_id *perms = NULL, *got = malloc((size_t)n * (size_t)n * sizeof *got);
  bb_gpu_gen *gen = NULL;
  bb_gen_spec spec;
  bb_status st = got ? bb_generate(kind, n, group, seed, 0, &inst, &err) : BB_ERR_NOMEM;
  if (st == BB_OK) st = open_gen(kind, n, group, seed, &perms, &gen, &spec, &err);
  for (int women = 0; women < 2 && st == BB_OK; women++) {
    const bb_id *expect = women ? inst->women_prefs : inst->men_prefs;
    memset(got, 0xff, (size_t)n * (size_t)n * sizeof *got);
    st = bb_gpu_gen_to_host(gen, women, 0, n, got, &err);
    if (st != BB_OK) break;
    check(!memcmp(got, expect, (size_t)n * (size_t)n * sizeof *got), women ? "women's rows" : "men's rows", kind, n,
          group, "differ from bb_generate");
    int first = n / 3, count = n - first - n / 5; /* a range inside, away from both ends */
    if (count < 1) continue;
    memset(got, 0xff, (size_t)count * (size_t)n * sizeof *got);
    st = bb_gpu_gen_to_host(gen, women, first, count, got, &err);
    if (st != BB_OK) break;
    check(!memcmp(got, expect + (size_t)first * (size_t)n, (size_t)count * (size_t)n * sizeof *got), "a range of rows",
          kind, n, group, "differs from bb_generate");
  }
  for (int women = 0; women < 2 && st == BB_OK; women++) {
    ranks_inverse(kind, n, group, inst, gen, women, 0, n);
    int first = n / 3, count = n - first - n / 5;
    if (count > 0) ranks_inverse(kind, n, group, inst, gen, women, first, count);
  }
  if (st != BB_OK) check(0, "generation", kind, n, group, err.msg);
  bb_gpu_gen_close(gen);
  free(perms);
  free(got);
  bb_instance_free(inst);
}

/* The CPU tail's row source: PRMatrix rows read from the GPU, as sm_bamboo.c reads them. */
static const bb_prnode *gpu_row(void *ctx, bb_id m, uint32_t from, bb_error *err) {
  return bb_gpu_prrow(ctx, m, from, err);
}

/* 2: bamboo's GPU phase on device-generated lists, then the tail and the extraction. */
static void solve_generated(bb_gen_kind kind, int n, int group, uint64_t seed, const char *stage_rows, int rank_rows,
                            int gpu_tail) {
  bb_error err = {{0}};
  bb_instance *inst = NULL, *decoy = NULL;
  bb_id *perms = NULL, *expect = malloc((size_t)n * sizeof *expect), *got = malloc((size_t)n * sizeof *got);
  bb_id *free_men = malloc((size_t)n * sizeof *free_men);
  bb_la_state la = {.n = n,
                    .partner_rank = malloc((size_t)n * 4),
                    .next = malloc((size_t)n * 4),
                    .husband = malloc((size_t)n * sizeof(bb_id))};
  bb_gen_spec spec;
  bb_row_source src = {.n = n, .spec = &spec};
  bb_gpu_gen *gen = NULL;
  bb_gpu *gpu = NULL;
  int free_count = 0;
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.tail_mode = gpu_tail ? BB_TAIL_GPU : BB_TAIL_CPU;
  bb_solve_stats stats = {0};
  setenv("BAMBOO_GPU_STAGE_ROWS", stage_rows, 1);
  unsetenv("BAMBOO_GPU_RANK_ROWS"); /* rank_rows comes through bb_gpu_set_rank_rows */
  bb_status st = expect && got && free_men && la.partner_rank && la.next && la.husband ? BB_OK : BB_ERR_NOMEM;
  if (st == BB_OK) st = bb_generate(kind, n, group, seed, 0, &inst, &err);
  if (st == BB_OK) st = bb_solve(inst, "gs-seq", NULL, expect, NULL, &err);
  if (st == BB_OK && !(decoy = bb_instance_new(n, &err))) st = BB_ERR_NOMEM;
  if (st == BB_OK) {
    /* Reversed lists: neither the device nor the host tail may read them. */
    for (size_t c = 0, cells = (size_t)n * (size_t)n; c < cells; c++) {
      size_t reversed = (c / (size_t)n) * (size_t)n + ((size_t)n - 1 - c % (size_t)n);
      decoy->men_prefs[c] = inst->men_prefs[reversed];
      decoy->women_prefs[c] = inst->women_prefs[reversed];
    }
  }
  if (st == BB_OK) st = open_gen(kind, n, group, seed, &perms, &gen, &spec, &err);
  bb_gpu_stats gstats = bb_gpu_stats_of(&stats);
  bb_gpu_opts gopts = bb_gpu_opts_of(&opts);
  bb_gpu_la gla = bb_gpu_la_of(&la);
  if (st == BB_OK) {
    bb_gpu_instance lists = bb_gpu_instance_of(decoy);
    st = bb_gpu_open_staged(0, &lists, &gpu, &gstats, &err);
  }
  if (st == BB_OK) st = bb_gpu_set_generator(gpu, gen, &err);
  if (st == BB_OK) bb_gpu_set_rank_rows(gpu, rank_rows);
  if (st == BB_OK) st = bb_gpu_bamboo(gpu, &gopts, &gla, free_men, &free_count, &gstats, &err);
  if (st == BB_OK) st = bb_row_source_husbands(&src, la.partner_rank, NULL, la.husband, 2, &err);
  for (int i = 0; i < free_count && st == BB_OK; i++) st = bb_la_propose(&la, gpu_row, gpu, free_men[i], &err);
  char what[96];
  snprintf(what, sizeof what, "bamboo on generated lists (stage rows %s, rank rows %d, %s tail)", stage_rows, rank_rows,
           gpu_tail ? "GPU" : "CPU");
  if (st == BB_OK) {
    bb_la_extract(&la, got);
    check(!memcmp(got, expect, (size_t)n * sizeof *got), what, kind, n, group, "matching differs from gs-seq");
  } else {
    check(0, what, kind, n, group, err.msg);
  }
  bb_gpu_close(gpu);
  bb_gpu_gen_close(gen);
  free(perms);
  free(expect);
  free(got);
  free(free_men);
  free(la.partner_rank);
  free(la.next);
  free(la.husband);
  bb_instance_free(inst);
  bb_instance_free(decoy);
}

/* 3 */
static void solve_without_lists(bb_gen_kind kind, int n, int group, uint64_t seed) {
  static const int two[] = {0, 0}, three[] = {0, 0, 0};
  bb_error err = {{0}};
  bb_instance *inst = NULL, bare = {n, NULL, NULL};
  bb_id *perms = bb_gen_perm_ids(kind, n) ? malloc(bb_gen_perm_ids(kind, n) * sizeof *perms) : NULL;
  bb_id *expect = malloc((size_t)n * sizeof *expect), *got = malloc((size_t)n * sizeof *got);
  bb_gen_spec spec;
  bb_status st = expect && got ? bb_generate(kind, n, group, seed, 0, &inst, &err) : BB_ERR_NOMEM;
  if (st == BB_OK) st = bb_solve(inst, "gs-seq", NULL, expect, NULL, &err);
  if (st == BB_OK) st = bb_gen_spec_init(&spec, kind, n, group, seed, perms, &err);
  if (st != BB_OK) check(0, "setup", kind, n, group, err.msg);
  bb_row_source src = {.n = n, .spec = &spec};
  for (int c = 0; c < 5 && st == BB_OK; c++) {
    static const char *what[] = {"one GPU, CPU tail", "one GPU, GPU tail", "one GPU, auto tail handed back",
                                 "--gpus 0,0", "--gpus 0,0,0"};
    bb_solve_opts opts;
    bb_solve_opts_default(&opts);
    opts.gen_spec = &spec;
    opts.tail_mode = c == 0 || c >= 3 ? BB_TAIL_CPU : c == 1 ? BB_TAIL_GPU : BB_TAIL_AUTO;
    if (c == 2) {
      opts.tail_threshold = n;  /* the CPU tail starts at once ... */
      opts.tail_row_budget = 1; /* ... and hands the first chain back */
    }
    if (c >= 3 && n < c - 1) continue;
    if (c >= 3) {
      opts.gpus = c == 3 ? two : three;
      opts.gpu_count = c - 1;
    }
    memset(got, 0xff, (size_t)n * sizeof *got);
    bb_error e = {{0}};
    bb_status s = bb_solve(&bare, "bamboo", &opts, got, NULL, &e);
    char detail[sizeof e.msg + 64];
    snprintf(detail, sizeof detail, "%s", s == BB_OK ? "matching differs from gs-seq" : e.msg);
    check(s == BB_OK && !memcmp(got, expect, (size_t)n * sizeof *got), what[c], kind, n, group, detail);
    if (s == BB_OK) {
      s = bb_check_stable_rows(&src, got, &e);
      check(s == BB_OK, "check over regenerated rows", kind, n, group, e.msg);
    }
  }
  bb_instance_free(inst);
  free(perms);
  free(expect);
  free(got);
}

int main(int argc, char **argv) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  int quick = argc > 1 && !strcmp(argv[1], "quick");
  static const int sizes_full[] = {1, 2, 3, 17, 100, 257, 1000, 3001}, sizes_quick[] = {3, 100};
  const int *sizes = quick ? sizes_quick : sizes_full;
  int count = quick ? 2 : 8;
  const bb_gen_kind kinds[] = {BB_GEN_PERFECT, BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  for (int s = 0; s < count; s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      int n = sizes[s];
      uint64_t seed = 11 + (uint64_t)s;
      if (kinds[k] != BB_GEN_RANDOM) {
        rows_identical(kinds[k], n, 0, seed);
        continue;
      }
      /* 32 is the largest group written in tiles (gpu_gen.cu), 33 the smallest that is not. */
      const int groups[] = {1, 3 < n ? 3 : n, 5 < n ? 5 : n, 32 < n ? 32 : n, 33 < n ? 33 : n, n};
      for (int g = 0; g < 6; g++) rows_identical(kinds[k], n, groups[g], seed);
    }
  static const int solve_full[] = {2, 17, 500, 2000}, solve_quick[] = {17, 300};
  const int *solve_n = quick ? solve_quick : solve_full;
  for (int s = 0; s < (quick ? 2 : 4); s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      int n = solve_n[s], group = n < 5 ? n : 5;
      solve_generated(kinds[k], n, group, 7 + (uint64_t)s, "0", 0, 0);
      solve_generated(kinds[k], n, group, 7 + (uint64_t)s, "7", 0, 1);
      if (!quick) solve_generated(kinds[k], n, group, 7 + (uint64_t)s, "3", n / 4 + 1, 0);
      /* Many rank blocks with a short last one: 7 women a block (3 where the lists are drawn
       * beside the rank rows: perfect, solo, uniform, random with g > 32). */
      solve_generated(kinds[k], n, group, 7 + (uint64_t)s, "2", 7, quick ? 0 : 1);
      if (kinds[k] == BB_GEN_RANDOM && n > 33 && !quick) {
        solve_generated(kinds[k], n, 32, 7 + (uint64_t)s, "3", 7, 0); /* drawn as rank rows */
        solve_generated(kinds[k], n, 33, 7 + (uint64_t)s, "3", 7, 0); /* drawn as lists */
      }
    }
  unsetenv("BAMBOO_GPU_STAGE_ROWS");
  static const int bare_full[] = {2, 17, 300, 2000}, bare_quick[] = {17, 300};
  for (int s = 0; s < (quick ? 2 : 4); s++)
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      int n = quick ? bare_quick[s] : bare_full[s];
      solve_without_lists(kinds[k], n, n < 5 ? n : 5, 21 + (uint64_t)s);
    }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
