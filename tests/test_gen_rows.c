/* The row generator that the host and the GPU share (engine/sm/gen_rows.h):
 *   - bb_generate's instances keep the fingerprints they had before the row code moved into
 *     gen_rows.h (FNV-1a 64 of the men's then the women's lists, little-endian 32-bit ids,
 *     taken from bamboo-smp gen at commit a915f66): the GPU generator reproduces these rows,
 *     so the host's output must never drift;
 *   - any range of rows from bb_gen_rows (what a streaming generator or a checker draws), and a
 *     side from bb_generate_side on 1 or 3 threads, are the rows of bb_generate, every kind;
 *   - bb_gen_spec_init refuses what bb_generate refuses;
 *   - the memory plan of solve --gen-on gpu (memory_plan.h, gen_on_gpu): no lists on the host in
 *     any phase (2n^2 ids fewer, 16n bytes of permutations more, row buffers in the tail and
 *     verify phases: row_source.h), 16n more bytes on the device; refused for other algorithms and
 *     the unstaged initialisation, accepted for partitions (16n more per device);
 *   - bb_solve on an instance without men's lists, or without any: refused for every algorithm
 *     but bamboo with opts.gen_spec, which without a GPU answers BB_ERR_NO_GPU (no la-seq
 *     fallback: it would need the lists) and with one must give gs-seq's matching. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_rows.h"
#include "generate.h"
#include "memory_plan.h"
#include "row_source.h"
#include "solve.h"
#include "test_util.h"

static uint64_t fnv1a(uint64_t h, const bb_id *ids, size_t count) {
  for (size_t i = 0; i < count; i++)
    for (int b = 0; b < 4; b++) {
      h ^= (ids[i] >> (8 * b)) & 0xffu;
      h *= 0x100000001b3ull;
    }
  return h;
}

static void test_fingerprints(void) {
  static const struct {
    bb_gen_kind kind;
    int n, group;
    uint64_t seed, fnv;
  } cases[] = {
      {BB_GEN_PERFECT, 300, 0, 21, 0xd6e5a408053941b9ull}, {BB_GEN_SOLO, 300, 0, 22, 0xbdb1f1bef588d019ull},
      {BB_GEN_CONGESTED, 50, 0, 1, 0x0cd24a9c69bef725ull}, {BB_GEN_RANDOM, 300, 5, 23, 0xb6fa1b20eb68b3adull},
      {BB_GEN_RANDOM, 301, 7, 24, 0x7eacbbe3451b7b3dull},  {BB_GEN_UNIFORM, 300, 0, 25, 0x6c2155c39e8ab979ull},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    bb_instance *inst = NULL;
    bb_error err = {{0}};
    bb_status st = bb_generate(cases[c].kind, cases[c].n, cases[c].group, cases[c].seed, 3, &inst, &err);
    CHECKF(st == BB_OK, "%s", err.msg);
    if (st != BB_OK) continue;
    size_t cells = (size_t)inst->n * (size_t)inst->n;
    uint64_t h = fnv1a(fnv1a(0xcbf29ce484222325ull, inst->men_prefs, cells), inst->women_prefs, cells);
    CHECKF(h == cases[c].fnv, "%s n=%d: fingerprint %016llx, expected %016llx", bb_gen_kind_name(cases[c].kind),
           cases[c].n, (unsigned long long)h, (unsigned long long)cases[c].fnv);
    bb_instance_free(inst);
  }
}

static void test_ranges(bb_gen_kind kind, int n, int group, uint64_t seed) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(kind, n, group, seed, 2, &inst, &err) == BB_OK);
  bb_id *perms = malloc((bb_gen_perm_ids(kind, n) + 1) * sizeof *perms);
  bb_id *rows = malloc((size_t)n * (size_t)n * sizeof *rows);
  bb_gen_spec spec;
  CHECKF(inst && perms && rows && bb_gen_spec_init(&spec, kind, n, group, seed, perms, &err) == BB_OK, "%s", err.msg);
  if (inst && perms && rows)
    for (int women = 0; women < 2; women++) {
      const bb_id *expect = women ? inst->women_prefs : inst->men_prefs;
      /* Blocks of 1, 7 and all rows, each starting where the last ended; then backwards. */
      const int blocks[] = {1, 7, n};
      for (int b = 0; b < 3; b++) {
        memset(rows, 0xff, (size_t)n * (size_t)n * sizeof *rows);
        for (int first = 0; first < n; first += blocks[b]) {
          int count = n - first < blocks[b] ? n - first : blocks[b];
          bb_gen_rows(&spec, women, first, count, rows + (size_t)first * (size_t)n);
        }
        CHECKF(!memcmp(rows, expect, (size_t)n * (size_t)n * sizeof *rows), "%s n=%d side %d blocks of %d",
               bb_gen_kind_name(kind), n, women, blocks[b]);
      }
      for (int threads = 1; threads <= 3; threads += 2) { /* bb_generate_side */
        memset(rows, 0xff, (size_t)n * (size_t)n * sizeof *rows);
        bb_generate_side(&spec, women, threads, rows);
        CHECKF(!memcmp(rows, expect, (size_t)n * (size_t)n * sizeof *rows), "%s n=%d side %d bb_generate_side(%d)",
               bb_gen_kind_name(kind), n, women, threads);
      }
      memset(rows, 0xff, (size_t)n * (size_t)n * sizeof *rows);
      for (int r = n - 1; r >= 0; r--) bb_gen_rows(&spec, women, r, 1, rows + (size_t)r * (size_t)n);
      CHECKF(!memcmp(rows, expect, (size_t)n * (size_t)n * sizeof *rows), "%s n=%d side %d backwards",
             bb_gen_kind_name(kind), n, women);
    }
  free(perms);
  free(rows);
  bb_instance_free(inst);
}

static void test_spec_errors(void) {
  bb_gen_spec spec;
  bb_error err = {{0}};
  bb_id perms[40];
  CHECK(bb_gen_spec_init(&spec, BB_GEN_RANDOM, 0, 1, 1, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_gen_spec_init(&spec, BB_GEN_RANDOM, 10, 11, 1, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_gen_spec_init(&spec, BB_GEN_RANDOM, 10, 0, 1, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_gen_spec_init(&spec, (bb_gen_kind)99, 10, 1, 1, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_gen_spec_init(&spec, BB_GEN_SOLO, 10, 0, 1, NULL, &err) == BB_ERR_ARG); /* needs perms */
  CHECK(bb_gen_spec_init(&spec, BB_GEN_SOLO, 10, 0, 1, perms, &err) == BB_OK);
  CHECK(bb_gen_spec_init(&spec, BB_GEN_UNIFORM, 10, 0, 1, NULL, &err) == BB_OK);
  CHECK(bb_gen_perm_ids(BB_GEN_PERFECT, 10) == 40 && bb_gen_perm_ids(BB_GEN_RANDOM, 10) == 0);
}

/* The plan of --gen-on gpu against the host generators': no lists on the host (8n^2 bytes
 * fewer) but the permutations (16n, on the device too); the tail phase adds a row buffer per
 * thread (the husbands read from regenerated women's rows, row_source.h), the verify phase
 * the checker's buffers (both sides' rows per checking thread, and one for its report). */
static void test_plan(void) {
  bb_error err = {{0}};
  const int sizes[] = {1000, 70000, 120000};
  for (int s = 0; s < 3; s++) {
    uint64_t n = (uint64_t)sizes[s];
    for (int verify = 0; verify < 2; verify++) {
      bb_plan_request host = {.n = sizes[s], .algo = "bamboo", .verify = verify, .threads = 3}, gpu = host;
      gpu.gen_on_gpu = 1;
      bb_memory_plan a, b;
      CHECKF(bb_memory_plan_make(&host, &a, &err) == BB_OK, "%s", err.msg);
      CHECKF(bb_memory_plan_make(&gpu, &b, &err) == BB_OK, "%s", err.msg);
      CHECK(a.phases == b.phases && a.phases >= 3);
      uint64_t check_threads = (uint64_t)bb_check_stable_threads((int)n);
      for (int i = 0; i < a.phases && i < b.phases; i++) {
        CHECK(!strcmp(a.phase[i].name, b.phase[i].name));
        uint64_t extra = !strcmp(a.phase[i].name, "tail")     ? 3 * n * 4
                         : !strcmp(a.phase[i].name, "verify") ? (2 * check_threads + 1) * n * 4
                                                              : 0;
        CHECKF(b.phase[i].host + 8 * n * n == a.phase[i].host + 16 * n + extra, "n=%d %s: host %llu vs %llu", sizes[s],
               a.phase[i].name, (unsigned long long)a.phase[i].host, (unsigned long long)b.phase[i].host);
        CHECKF(b.phase[i].device[0] == a.phase[i].device[0] + (!strcmp(a.phase[i].name, "verify") ? 0 : 16 * n),
               "n=%d %s: device %llu vs %llu", sizes[s], a.phase[i].name, (unsigned long long)a.phase[i].device[0],
               (unsigned long long)b.phase[i].device[0]);
      }
      /* O(n) beside the pinned upload buffers (and the check's n^2 / 8 bits with --verify). */
      uint64_t bits = verify ? n * ((n + 63) / 64) * 8 : 0;
      CHECKF(bb_memory_plan_peak_host(&b) < ((uint64_t)300 << 20) + 200 * n + bits, "n=%d: host peak %llu", sizes[s],
             (unsigned long long)bb_memory_plan_peak_host(&b));
      CHECK(bb_memory_plan_peak_host(&b) < bb_memory_plan_peak_host(&a));
    }
  }
  const int two[] = {0, 0};
  bb_plan_request la = {.n = 1000, .algo = "gpu-la-min", .gen_on_gpu = 1};
  bb_plan_request parts = {.n = 1000, .algo = "bamboo", .devices = two, .device_count = 2, .gen_on_gpu = 1};
  bb_plan_request unstaged = {.n = 1000, .algo = "bamboo", .unstaged = 1, .gen_on_gpu = 1};
  bb_memory_plan p;
  CHECK(bb_memory_plan_make(&la, &p, &err) == BB_ERR_ARG);
  CHECK(bb_memory_plan_make(&unstaged, &p, &err) == BB_ERR_ARG);
  /* Partitions (--gpus 0,0 / 0,1): each generates its rows on its device; the host as on one
   * GPU. Staged (bamboo's default), each partition holds its generator (16n) while it builds
   * (the PRMatrix and rank matrix phases) and no block of uploaded lists; unstaged, each
   * device 16n more while the rows are made (the lists phase); no more after. */
  const int one_each[] = {0, 1};
  for (int k = 0; k < 4; k++) {
    bb_plan_request host = parts;
    host.devices = k % 2 ? one_each : two;
    host.unstaged = k >= 2;
    host.gen_on_gpu = 0;
    host.threads = parts.threads = 2;
    bb_plan_request gen = host;
    gen.gen_on_gpu = 1;
    bb_memory_plan a, b;
    CHECKF(bb_memory_plan_make(&host, &a, &err) == BB_OK && bb_memory_plan_make(&gen, &b, &err) == BB_OK, "%s",
           err.msg);
    CHECK(a.phases == b.phases && a.devices == b.devices && b.devices == 1 + k % 2);
    uint64_t n = 1000, per_device = k % 2 ? 1 : 2; /* partitions on each device */
    for (int i = 0; i < a.phases && i < b.phases; i++) {
      const char *name = a.phase[i].name;
      int tail = !strcmp(name, "tail");
      uint64_t generators = !host.unstaged ? (!strcmp(name, "PRMatrix") || !strcmp(name, "rank matrix")) * per_device
                                           : !strcmp(name, "lists");
      CHECKF(b.phase[i].host + 8 * n * n == a.phase[i].host + 16 * n + (tail ? 2 * n * 4 : 0), "parts %s: host",
             a.phase[i].name);
      /* Uploaded, a staged partition holds a block of its women's lists beside its rank rows
       * (all 1000 rows here); generated, it draws them as rank rows, no list held. */
      uint64_t lists = !host.unstaged && !strcmp(name, "rank matrix") ? per_device * n * n * 4 : 0;
      for (int d = 0; d < a.devices; d++)
        CHECKF(b.phase[i].device[d] + lists == a.phase[i].device[d] + generators * 16 * n, "parts %s (%s): device %d",
               a.phase[i].name, host.unstaged ? "unstaged" : "staged", d);
    }
  }
}

static void test_solve_without_men(void) {
  int n = 60;
  bb_error err = {{0}};
  bb_instance *full = NULL;
  CHECK(bb_generate(BB_GEN_RANDOM, n, 5, 3, 1, &full, &err) == BB_OK);
  if (!full) return;
  bb_instance women_only = {n, NULL, full->women_prefs};
  bb_gen_spec spec;
  CHECK(bb_gen_spec_init(&spec, BB_GEN_RANDOM, n, 5, 3, NULL, &err) == BB_OK);
  bb_id expect[60], got[60];
  CHECK(bb_solve(full, "gs-seq", NULL, expect, NULL, &err) == BB_OK);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  CHECK(bb_solve(&women_only, "la-seq", &opts, got, NULL, &err) == BB_ERR_ARG);
  CHECK(bb_solve(&women_only, "bamboo", &opts, got, NULL, &err) == BB_ERR_ARG); /* no spec */
  opts.gen_spec = &spec;
  CHECK(bb_solve(&women_only, "gs-seq", &opts, got, NULL, &err) == BB_ERR_ARG);
  bb_status st = bb_solve(&women_only, "bamboo", &opts, got, NULL, &err);
  CHECKF(st == BB_ERR_NO_GPU || (st == BB_OK && !memcmp(got, expect, sizeof got)), "bamboo, lists on the GPU: %s",
         st == BB_OK ? "matching differs from gs-seq" : err.msg);
  bb_instance bare = {n, NULL, NULL}; /* solve --gen-on gpu: the women's rows regenerated on the host */
  CHECK(bb_solve(&bare, "la-seq", &opts, got, NULL, &err) == BB_ERR_ARG);
  memset(got, 0, sizeof got);
  st = bb_solve(&bare, "bamboo", &opts, got, NULL, &err);
  CHECKF(st == BB_ERR_NO_GPU || (st == BB_OK && !memcmp(got, expect, sizeof got)), "bamboo, no host lists: %s",
         st == BB_OK ? "matching differs from gs-seq" : err.msg);
  bb_gen_spec other = spec;
  other.n = n - 1; /* a spec for another instance */
  opts.gen_spec = &other;
  CHECK(bb_solve(&women_only, "bamboo", &opts, got, NULL, &err) == BB_ERR_ARG);
  bb_instance_free(full);
}

int main(void) {
  test_plan();
  test_solve_without_men();
  test_fingerprints();
  const bb_gen_kind kinds[] = {BB_GEN_PERFECT, BB_GEN_SOLO, BB_GEN_CONGESTED, BB_GEN_RANDOM, BB_GEN_UNIFORM};
  const int sizes[] = {1, 2, 3, 10, 97};
  for (size_t k = 0; k < 5; k++)
    for (int s = 0; s < 5; s++) {
      int n = sizes[s];
      test_ranges(kinds[k], n, kinds[k] == BB_GEN_RANDOM ? (n < 4 ? n : 4) : 0, 5 + (uint64_t)s);
    }
  test_spec_errors();
  return tu_finish();
}
