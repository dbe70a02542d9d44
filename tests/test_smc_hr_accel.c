/* The native HR propagation's parallel path (propagator/smc/hr/smc_hr_accel.c, the step of
 * cuda/smc_hr_accel_steps.h) against its CPU path and against independent references:
 *   - the engine alone, every pair allowed: the slots hold the resident-optimal matching
 *     (bamboo-smp's sequential Gale-Shapley, bb_hr_solve "gs-seq"), on small random and on
 *     generated instances of thousands of residents;
 *   - the whole propagation: a depth-first search over random small instances (one-sided
 *     entries, capacity 0, extra post columns, random values removed at the root), each node
 *     propagated on both paths: the same outcome and the same domains of every variable after
 *     every propagation; its solutions are stable matchings and, without removals at the root,
 *     exactly the brute force's (tests/harness/bth_hr.h);
 *   - random chains of decisions at the root of generated instances of thousands of residents;
 *   - an engine failure mid-search: one warning, the CPU from then on, the same domains.
 * `test_smc_hr_accel` runs the emulation (host threads), `test_smc_hr_accel gpu` the GPU and
 * exits 77 without one. The test fails if the parallel path never ran or never raised a value. */
#include "bb_gpu_device.h"
#include "bth_hr.h"
#include "hr.h"
#include "hr_gen.h"
#include "smc_hr.h"
#include "smc_hr_accel.h"
#include "smc_hr_accel_steps.h"
#include "smc_hr_internal.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bb_smc_path path = BB_SMC_PATH_EMULATED;
static const bb_smc_hr_accel_engine_ops *ops;

/* ---- Domains: one byte per value, bounds kept ------------------------------------------------ */

typedef struct doms {
  int vars;
  int *top, *off, *lo, *hi; /* value v of var x is cell[off[x] + v], 0..top[x] */
  uint8_t *cell;
  int cells;
} doms;

static doms *doms_new(const bb_smc_hr *hr) {
  doms *d = calloc(1, sizeof *d);
  d->vars = bb_smc_hr_vars(hr);
  d->top = malloc((size_t)d->vars * sizeof(int)), d->off = malloc((size_t)d->vars * sizeof(int));
  d->lo = malloc((size_t)d->vars * sizeof(int)), d->hi = malloc((size_t)d->vars * sizeof(int));
  for (int x = 0; x < d->vars; x++) {
    d->top[x] = bb_smc_hr_top(hr, x), d->off[x] = d->cells, d->lo[x] = 0, d->hi[x] = d->top[x];
    d->cells += d->top[x] + 1;
  }
  d->cell = malloc((size_t)d->cells);
  memset(d->cell, 1, (size_t)d->cells);
  return d;
}
static void doms_copy(doms *to, const doms *from) {
  memcpy(to->lo, from->lo, (size_t)from->vars * sizeof(int));
  memcpy(to->hi, from->hi, (size_t)from->vars * sizeof(int));
  memcpy(to->cell, from->cell, (size_t)from->cells);
}
static doms *doms_clone(const doms *from) {
  doms *d = malloc(sizeof *d);
  *d = *from;
  d->top = from->top, d->off = from->off; /* shared, never freed by a clone */
  d->lo = malloc((size_t)d->vars * sizeof(int)), d->hi = malloc((size_t)d->vars * sizeof(int));
  d->cell = malloc((size_t)d->cells);
  doms_copy(d, from);
  return d;
}
static void doms_free_clone(doms *d) { free(d->lo), free(d->hi), free(d->cell), free(d); }
static void doms_free(doms *d) { free(d->top), free(d->off), doms_free_clone(d); }
static bool doms_equal(const doms *a, const doms *b) {
  return !memcmp(a->lo, b->lo, (size_t)a->vars * sizeof(int)) && !memcmp(a->hi, b->hi, (size_t)a->vars * sizeof(int)) &&
         !memcmp(a->cell, b->cell, (size_t)a->cells);
}

static bool tighten(doms *d, int x) {
  while (d->lo[x] <= d->hi[x] && !d->cell[d->off[x] + d->lo[x]]) d->lo[x]++;
  while (d->hi[x] >= d->lo[x] && !d->cell[d->off[x] + d->hi[x]]) d->hi[x]--;
  return d->lo[x] <= d->hi[x];
}
static int d_min(void *c, int x) { return ((doms *)c)->lo[x]; }
static int d_max(void *c, int x) { return ((doms *)c)->hi[x]; }
static bool d_contains(void *c, int x, int v) {
  doms *d = c;
  return v >= d->lo[x] && v <= d->hi[x] && d->cell[d->off[x] + v];
}
/* The modifiers as the core's contract wants them (smc_status.h), and as bools for the test. */
static bb_smc_status s_remove_range(void *c, int x, int lo, int hi) {
  doms *d = c;
  bool changed = false;
  for (int v = lo < 0 ? 0 : lo; v <= hi && v <= d->top[x]; v++) {
    changed = changed || d->cell[d->off[x] + v];
    d->cell[d->off[x] + v] = 0;
  }
  return !tighten(d, x) ? BB_SMC_FAILED : changed ? BB_SMC_CHANGED : BB_SMC_FIX;
}
static bb_smc_status s_remove(void *c, int x, int v) { return s_remove_range(c, x, v, v); }
static bb_smc_status s_lower_max(void *c, int x, int v) { return s_remove_range(c, x, v + 1, ((doms *)c)->top[x]); }
static bb_smc_status s_raise_min(void *c, int x, int v) { return s_remove_range(c, x, 0, v - 1); }
static bb_smc_status s_assign(void *c, int x, int v) {
  doms *d = c;
  bool in = d_contains(c, x, v), changed = !in;
  for (int w = 0; w <= d->top[x]; w++) {
    changed = changed || (w != v && d->cell[d->off[x] + w]);
    d->cell[d->off[x] + w] = (uint8_t)(in && w == v);
  }
  return !tighten(d, x) ? BB_SMC_FAILED : changed ? BB_SMC_CHANGED : BB_SMC_FIX;
}
static bool d_remove(void *c, int x, int v) { return s_remove(c, x, v) != BB_SMC_FAILED; }
static bool d_assign(void *c, int x, int v) { return s_assign(c, x, v) != BB_SMC_FAILED; }
static bb_smc_domains domains_of(doms *d) {
  bb_smc_domains dom = {.ctx = d,
                        .min = d_min,
                        .max = d_max,
                        .contains = d_contains,
                        .remove = s_remove,
                        .remove_range = s_remove_range,
                        .lower_max = s_lower_max,
                        .raise_min = s_raise_min,
                        .assign = s_assign};
  return dom;
}

/* ---- One constraint on both paths -------------------------------------------------------------- */

typedef struct pair_run {
  bb_smc_hr *hr;
  bb_smc_hr_scratch *cpu, *par; /* each path's queues */
  size_t node_bytes;
  long long compared, failed;
} pair_run;

static bb_smc_hr *hr_of(const bb_hr *I, int cols) {
  bb_error err = {{0}};
  bb_smc_hr *hr = bb_smc_hr_new_csr(I->n_residents, I->n_hospitals, cols, 0, I->res_start, I->res_list, I->hosp_start,
                                    I->hosp_list, I->capacity, &err);
  CHECKF(hr != NULL, "bb_smc_hr_new_csr: %s", err.msg);
  return hr;
}

/* Propagates a (CPU) and b (parallel), each after noting `noted` (-1: nothing); 1 at the
 * fixpoint, 0 failed. Checks that both agree. */
static int both(pair_run *p, doms *a, bb_smc_hr_node *na, doms *b, bb_smc_hr_node *nb, int noted) {
  if (noted >= 0) bb_smc_hr_note(p->cpu, p->hr, noted), bb_smc_hr_note(p->par, p->hr, noted);
  bb_smc_domains da = domains_of(a), db = domains_of(b);
  bb_smc_status ra = bb_smc_hr_propagate_on(p->hr, BB_SMC_PATH_CPU, na, p->cpu, &da);
  bb_smc_status rb = bb_smc_hr_propagate_on(p->hr, path, nb, p->par, &db);
  p->compared++;
  CHECKF(ra == rb, "CPU %s, %s path %s", ra ? "failed" : "at fixpoint", bb_smc_path_name(path),
         rb ? "failed" : "at fixpoint");
  if (ra != rb) return 0;
  if (ra == BB_SMC_FAILED) return p->failed++, 0;
  bool same = doms_equal(a, b);
  CHECKF(same, "propagation %lld: the domains differ between the CPU and the %s path", p->compared,
         bb_smc_path_name(path));
  return same;
}

/* ---- The engine alone against sequential Gale-Shapley --------------------------------------- */

static int engine_vs_gs(const bb_hr *I) {
  int cols = 0;
  for (int h = 0; h < I->n_hospitals; h++)
    if (I->capacity[h] > cols) cols = I->capacity[h];
  bb_smc_hr *hr = hr_of(I, cols);
  if (!hr) return 0;
  bb_smc_hr_accel_lists l = {hr->nr,        hr->nh,       hr->res_start[hr->nr], hr->hosp_start[hr->nh], 0,
                             hr->res_start, hr->res_hosp, hr->res_pos,           hr->hosp_start,         hr->hosp_rank,
                             NULL};
  uint32_t *slot_start = malloc(((size_t)hr->nh + 1) * sizeof *slot_start);
  slot_start[0] = 0;
  for (int h = 0; h < hr->nh; h++) slot_start[h + 1] = slot_start[h] + (uint32_t)hr->capacity[h];
  l.slots = slot_start[hr->nh], l.slot_start = slot_start;
  uint32_t *alive = calloc((size_t)l.res_entries / 32 + 1, sizeof *alive), *start = calloc((size_t)hr->nr + 1, 4);
  for (uint32_t e = 0; e < l.res_entries; e++)
    if (hr->res_pos[e] != BB_SMC_HR_UNRANKED) alive[e >> 5] |= 1u << (e & 31);
  uint64_t *slots = malloc(((size_t)l.slots + 1) * sizeof *slots);
  int32_t *want = malloc(((size_t)hr->nr + 1) * sizeof *want), *got = malloc(((size_t)hr->nr + 1) * sizeof *got);
  bb_error err = {{0}};
  void *engine = ops->open(&l, &err);
  CHECKF(engine != NULL, "%s open: %s", ops->name, err.msg);
  int bad = 0;
  if (engine) {
    CHECKF(ops->propose(engine, alive, start, slots, &err) == BB_OK, "%s propose: %s", ops->name, err.msg);
    CHECKF(bb_hr_solve(I, "gs-seq", BB_HR_RESIDENT_OPTIMAL, NULL, want, NULL, &err) == BB_OK, "%s", err.msg);
    for (int r = 0; r < hr->nr; r++) got[r] = BB_HR_NONE;
    for (int h = 0; h < hr->nh; h++)
      for (uint32_t q = slot_start[h]; q < slot_start[h + 1]; q++) {
        if (slots[q] == BB_SMC_HR_ACCEL_EMPTY) continue;
        bad += q > slot_start[h] && slots[q] <= slots[q - 1]; /* sorted, no repeats */
        got[slots[q] & 0xffffffffu] = h;
      }
    for (int r = 0; r < hr->nr; r++) bad += got[r] != want[r];
    ops->close(engine);
  }
  free(slot_start), free(alive), free(start), free(slots), free(want), free(got);
  bb_smc_hr_release(hr);
  return bad;
}

static void engine_alone(void) {
  uint64_t rng = 91;
  int bad = 0, runs = 0;
  for (int round = 0; round < 300; round++) {
    int nr = 1 + (int)(tu_rand(&rng) % 40), nh = 1 + (int)(tu_rand(&rng) % 12);
    bb_hr *I = bth_hr_random(false, nr, nh, 4, &rng);
    bad += engine_vs_gs(I), runs++;
    bb_hr_free(I);
  }
  static const int shapes[][3] = {{5000, 200, 10}, {20000, 300, 20}};
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    bb_hr_gen_params gp;
    bb_hr_gen_defaults(&gp);
    gp.smi = false, gp.n_residents = shapes[i][0], gp.n_hospitals = shapes[i][1], gp.list_length = shapes[i][2];
    gp.seed = 11 + i, gp.threads = 1;
    bb_error err = {{0}};
    bb_hr *I = NULL;
    CHECKF(bb_hr_generate(&gp, &I, &err) == BB_OK, "generate: %s", err.msg);
    if (!I) continue;
    bad += engine_vs_gs(I), runs++;
    bb_hr_free(I);
  }
  CHECKF(bad == 0, "%d residents placed differently from the resident-optimal matching, or slots out of order", bad);
  printf("engine alone (%s): %d instances, the slots hold the resident-optimal matching\n", ops->name, runs);
}

/* ---- Depth-first search on both paths ---------------------------------------------------------- */

/* Instances with many stable matchings: n residents and n hospitals in a Latin square,
 * resident r ranking hospitals r, r + 1, .. (mod n) and hospital h ranking residents h + 1,
 * h + 2, .. (mod n), so that every hospital's favourite ranks it last (the shifts are n stable
 * matchings); an entry in 8 dropped on one side (one-sided entries), a capacity in 4 is 2. Or
 * else the harness's random instance (empty lists, capacity 0), whose stable matching is
 * mostly unique. */
static bb_hr *random_instance(int n, uint64_t *rng) {
  if (tu_rand(rng) % 3 == 0) return bth_hr_random(false, n, 1 + (int)(tu_rand(rng) % 4), 3, rng);
  bb_hr *I = bb_hr_new(false, n, n, (uint64_t)n * n, (uint64_t)n * n, NULL);
  uint32_t at = 0;
  for (int r = 0; r < n; r++) {
    I->res_start[r] = at;
    for (int k = 0; k < n; k++)
      if (k == 0 || tu_rand(rng) % 8) I->res_list[at++] = (bb_id)((r + k) % n);
  }
  I->res_start[n] = at;
  at = 0;
  for (int h = 0; h < n; h++) {
    I->hosp_start[h] = at;
    for (int k = 0; k < n; k++)
      if (tu_rand(rng) % 8) I->hosp_list[at++] = (bb_id)((h + 1 + k) % n);
    I->capacity[h] = 1 + (tu_rand(rng) % 4 == 0);
  }
  I->hosp_start[n] = at;
  return I;
}

typedef struct search {
  pair_run *p;
  const bb_hr *I;
  uint64_t *rng;
  int solutions, unstable, limit;
  int32_t *found; /* solutions' assignments, up to limit */
} search;

static void dfs(search *S, doms *a, bb_smc_hr_node *na, bb_smc_hr_node *nb) {
  pair_run *p = S->p;
  int nr = S->I->n_residents, open = 0, pick = -1;
  for (int x = 0; x < a->vars; x++)
    if (a->lo[x] != a->hi[x] && tu_rand(S->rng) % (uint64_t)++open == 0) pick = x;
  if (pick < 0) { /* a solution: residents' values as a matching */
    int32_t m[64];
    for (int r = 0; r < nr; r++) {
      int v = a->lo[r], len = (int)(S->I->res_start[r + 1] - S->I->res_start[r]);
      m[r] = v == len ? BB_HR_NONE : (int32_t)S->I->res_list[S->I->res_start[r] + (uint32_t)v];
    }
    S->unstable += !bth_hr_stable(S->I, m);
    if (S->solutions < S->limit) memcpy(S->found + (size_t)S->solutions * (size_t)nr, m, (size_t)nr * sizeof *m);
    S->solutions++;
    return;
  }
  int value;
  do value = a->lo[pick] + (int)(tu_rand(S->rng) % (uint64_t)(a->hi[pick] - a->lo[pick] + 1));
  while (!a->cell[a->off[pick] + value]);
  for (int branch = 0; branch < 2; branch++) {
    doms *ca = doms_clone(a), *cb = doms_clone(a);
    bb_smc_hr_node *ka = malloc(p->node_bytes), *kb = malloc(p->node_bytes);
    memcpy(ka, na, p->node_bytes), memcpy(kb, nb, p->node_bytes);
    bool ok = branch == 0 ? d_assign(ca, pick, value) && d_assign(cb, pick, value)
                          : d_remove(ca, pick, value) && d_remove(cb, pick, value);
    if (ok && both(p, ca, ka, cb, kb, pick)) dfs(S, ca, ka, kb);
    doms_free_clone(ca), doms_free_clone(cb), free(ka), free(kb);
  }
}

static int cmp_matching_nr;
static int cmp_matching(const void *x, const void *y) {
  return memcmp(x, y, (size_t)cmp_matching_nr * sizeof(int32_t));
}

static void search_both(void) {
  uint64_t rng = 2027;
  long long compared = 0, failed = 0;
  int instances = 0, solutions = 0, brute_checked = 0, bad_sets = 0, unstable = 0;
  enum { LIMIT = 4096 };
  int32_t *found = malloc((size_t)LIMIT * 64 * sizeof *found), *all = malloc((size_t)LIMIT * 64 * sizeof *all);
  for (int round = 0; round < 1200; round++) {
    bb_hr *I = random_instance(1 + (int)(tu_rand(&rng) % 8), &rng);
    int nr = I->n_residents;
    int cols = 3 + (int)(round % 2);
    pair_run p = {hr_of(I, cols), NULL, NULL, 0, 0, 0};
    if (!p.hr) break;
    bb_error err = {{0}};
    p.cpu = bb_smc_hr_scratch_new(p.hr, &err), p.par = bb_smc_hr_scratch_new(p.hr, &err);
    p.node_bytes = bb_smc_hr_node_bytes(p.hr);
    bb_smc_hr_node *na = malloc(p.node_bytes), *nb = malloc(p.node_bytes);
    bb_smc_hr_node_init(na, p.hr), bb_smc_hr_node_init(nb, p.hr);
    doms *a = doms_new(p.hr), *b = doms_clone(a);
    /* Side constraints: a few values removed before the first propagation, on both. */
    int removals = round % 3 == 0 ? 0 : (int)(tu_rand(&rng) % 4);
    bool alive = true;
    for (int c = 0; c < removals && alive; c++) {
      int x = (int)(tu_rand(&rng) % (uint64_t)a->vars), v = (int)(tu_rand(&rng) % (uint64_t)(a->top[x] + 1));
      alive = d_remove(a, x, v) && d_remove(b, x, v);
    }
    search S = {&p, I, &rng, 0, 0, LIMIT, found};
    if (alive && both(&p, a, na, b, nb, -1)) dfs(&S, a, na, nb);
    if (alive && removals == 0 && nr <= 6) { /* the solutions are exactly the stable matchings */
      int n = bth_hr_all_stable(I, all, LIMIT);
      bool same = n == S.solutions && n <= LIMIT;
      if (same) {
        cmp_matching_nr = nr;
        qsort(found, (size_t)n, (size_t)nr * sizeof *found, cmp_matching);
        qsort(all, (size_t)n, (size_t)nr * sizeof *all, cmp_matching);
        same = !memcmp(found, all, (size_t)n * (size_t)nr * sizeof *found);
      }
      bad_sets += !same, brute_checked++;
    }
    compared += p.compared, failed += p.failed, solutions += S.solutions, unstable += S.unstable, instances++;
    doms_free(a), doms_free_clone(b), free(na), free(nb);
    bb_smc_hr_scratch_free(p.cpu), bb_smc_hr_scratch_free(p.par);
    bb_smc_hr_release(p.hr);
    bb_hr_free(I);
  }
  free(found), free(all);
  CHECKF(unstable == 0, "%d solutions are not stable matchings", unstable);
  CHECKF(bad_sets == 0, "%d instances: the solutions differ from the brute force's stable matchings", bad_sets);
  CHECK(brute_checked > 300 && solutions > 1000 && failed > 200);
  printf(
      "search: %d instances, %lld propagations compared (%lld failed on both), %d solutions, %d solution sets = brute "
      "force\n",
      instances, compared, failed, solutions, brute_checked);
}

/* ---- Decisions at scale ------------------------------------------------------------------------- */

static void chains_at_scale(void) {
  static const int shapes[][3] = {{3000, 150, 8}, {2000, 40, 5}};
  uint64_t rng = 77;
  long long compared = 0;
  for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
    bb_hr_gen_params gp;
    bb_hr_gen_defaults(&gp);
    gp.smi = false, gp.n_residents = shapes[i][0], gp.n_hospitals = shapes[i][1], gp.list_length = shapes[i][2];
    gp.seed = 5 + i, gp.threads = 1;
    bb_error err = {{0}};
    bb_hr *I = NULL;
    CHECKF(bb_hr_generate(&gp, &I, &err) == BB_OK, "generate: %s", err.msg);
    if (!I) continue;
    int cols = 0;
    for (int h = 0; h < I->n_hospitals; h++)
      if (I->capacity[h] > cols) cols = I->capacity[h];
    pair_run p = {hr_of(I, cols), NULL, NULL, 0, 0, 0};
    p.cpu = bb_smc_hr_scratch_new(p.hr, &err), p.par = bb_smc_hr_scratch_new(p.hr, &err);
    p.node_bytes = bb_smc_hr_node_bytes(p.hr);
    for (int chain = 0; chain < 10; chain++) {
      bb_smc_hr_node *na = malloc(p.node_bytes), *nb = malloc(p.node_bytes);
      bb_smc_hr_node_init(na, p.hr), bb_smc_hr_node_init(nb, p.hr);
      doms *a = doms_new(p.hr), *b = doms_clone(a);
      /* Forbidden pairs before the root (a resident in 20 loses a random hospital), then
       * residents lose their smallest value (or a random one) one after the other. */
      for (int r = 0; r < I->n_residents; r++)
        if (tu_rand(&rng) % 20 == 0) {
          int v = (int)(tu_rand(&rng) % (uint64_t)a->top[r]);
          d_remove(a, r, v), d_remove(b, r, v);
        }
      if (both(&p, a, na, b, nb, -1))
        for (int step = 0, tries = 0; step < 30 && tries < 100000; tries++) {
          int r = (int)(tu_rand(&rng) % (uint64_t)I->n_residents);
          if (a->lo[r] == a->hi[r]) continue;
          step++;
          int v = chain % 2 ? a->lo[r] : a->lo[r] + (int)(tu_rand(&rng) % (uint64_t)(a->hi[r] - a->lo[r] + 1));
          d_remove(a, r, v), d_remove(b, r, v);
          if (!both(&p, a, na, b, nb, r)) break;
        }
      doms_free(a), doms_free_clone(b), free(na), free(nb);
    }
    compared += p.compared;
    bb_smc_hr_scratch_free(p.cpu), bb_smc_hr_scratch_free(p.par);
    bb_smc_hr_release(p.hr);
    bb_hr_free(I);
  }
  printf("at scale: %lld propagations compared\n", compared);
}

/* ---- An engine that fails mid-search ---------------------------------------------------------- */

static void fallback(void) {
  if (path != BB_SMC_PATH_EMULATED) return;
  uint64_t rng = 5;
  long long runs = 0, raised = 0, compared = 0;
  for (int tries = 0; tries < 200 && compared < 4; tries++) { /* an instance whose search goes past its root */
    bb_hr *I = random_instance(7, &rng);
    pair_run p = {hr_of(I, 3), NULL, NULL, 0, 0, 0};
    bb_error err = {{0}};
    p.cpu = bb_smc_hr_scratch_new(p.hr, &err), p.par = bb_smc_hr_scratch_new(p.hr, &err);
    p.node_bytes = bb_smc_hr_node_bytes(p.hr);
    bb_smc_hr_node *na = malloc(p.node_bytes), *nb = malloc(p.node_bytes);
    bb_smc_hr_node_init(na, p.hr), bb_smc_hr_node_init(nb, p.hr);
    doms *a = doms_new(p.hr), *b = doms_clone(a);
    bb_smc_hr_accel_emulated_fail_after(2);
    search S = {&p, I, &rng, 0, 0, 0, NULL};
    if (both(&p, a, na, b, nb, -1)) dfs(&S, a, na, nb);
    bb_smc_hr_accel_emulated_fail_after(0);
    bb_smc_hr_accel_counts(p.hr, &runs, &raised);
    compared = p.compared;
    doms_free(a), doms_free_clone(b), free(na), free(nb);
    bb_smc_hr_scratch_free(p.cpu), bb_smc_hr_scratch_free(p.par);
    bb_smc_hr_release(p.hr);
    bb_hr_free(I);
  }
  CHECKF(runs == 1 && compared >= 4, "%lld runs before the failure (want 1), %lld propagations", runs, compared);
  printf("fallback: the engine failed on its second run; %lld propagations compared\n", compared);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "gpu")) {
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) {
      printf("no usable GPU (%s): skipped\n", why);
      return 77;
    }
    path = BB_SMC_PATH_GPU;
    ops = bb_smc_hr_accel_gpu_ops();
    if (!ops) return printf("no CUDA in this build: skipped\n"), 77;
  } else {
    ops = &bb_smc_hr_accel_emulated_ops;
  }
  bb_smc_hr_accel_reset_counts();
  engine_alone();
  search_both();
  chains_at_scale();
  long long runs = 0, raised = 0;
  bb_smc_hr_accel_total_counts(&runs, &raised);
  CHECKF(runs > 1000 && raised > 1000, "the %s path ran %lld times and raised %lld values", bb_smc_path_name(path),
         runs, raised);
  printf("%s path: %lld parallel runs, %lld smallest values raised by them\n", bb_smc_path_name(path), runs, raised);
  fallback();
  return tu_finish();
}
