/* SMI/HR generators (hr_gen.h).
 *
 *   residents' lists  Resident r draws k distinct hospitals from his own random stream
 *                     (seed, 0, r): uniformly (Floyd's subset sampling), or with weights
 *                     1 / (h + 1)^s through Walker's alias table, rejecting repeats; a
 *                     resident who needs too many redraws (k close to NH with strong skew)
 *                     completes his list with the next free hospitals after random starts.
 *                     The draw order is his ranking (Floyd's subset is shuffled).
 *   hospitals' lists  The residents who listed h, bucketed in resident order and then
 *                     shuffled from h's stream (seed, 1, h).
 *   capacities        HR: the fixed --capacity c, or from h's stream (seed, 2, h), uniform
 *                     in 1..2c-1 with c = round(NR / NH) (at least 1).
 * Streams depend on the person, never on the thread, so any thread count gives the same
 * instance. */
#include "hr_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "rng.h"

void bb_hr_gen_defaults(bb_hr_gen_params *p) {
  memset(p, 0, sizeof *p);
  p->smi = true;
  p->list_length = 10;
  p->seed = 1;
}

void bb_hr_gen_nrmp(bb_hr_gen_params *p) {
  bb_hr_gen_defaults(p);
  p->smi = false;
  p->n_residents = 31000;
  p->n_hospitals = 2300;
  p->list_length = 15;
  p->skew = 0.5;
}

typedef struct alias_table {
  double *prob;
  uint32_t *alias;
} alias_table;

/* Vose's alias method: O(n) to build, O(1) per draw. */
static bool alias_build(alias_table *t, int n, double skew) {
  t->prob = malloc((size_t)n * sizeof *t->prob);
  t->alias = malloc((size_t)n * sizeof *t->alias);
  uint32_t *small = malloc((size_t)n * sizeof *small), *large = malloc((size_t)n * sizeof *large);
  bool ok = t->prob && t->alias && small && large;
  if (ok) {
    double total = 0;
    for (int h = 0; h < n; h++) total += t->prob[h] = pow(h + 1.0, -skew);
    int ns = 0, nl = 0;
    for (int h = 0; h < n; h++) {
      t->prob[h] *= n / total;
      t->alias[h] = (uint32_t)h;
      if (t->prob[h] < 1.0)
        small[ns++] = (uint32_t)h;
      else
        large[nl++] = (uint32_t)h;
    }
    while (ns > 0 && nl > 0) {
      uint32_t s = small[--ns], l = large[nl - 1];
      t->alias[s] = l;
      t->prob[l] -= 1.0 - t->prob[s];
      if (t->prob[l] < 1.0) nl--, small[ns++] = l;
    }
    while (nl > 0) t->prob[large[--nl]] = 1.0;
    while (ns > 0) t->prob[small[--ns]] = 1.0;
  }
  free(small);
  free(large);
  return ok;
}

static uint32_t alias_draw(const alias_table *t, bb_rng *rng, int n) {
  uint32_t h = bb_rng_below(rng, (uint64_t)n);
  double u = (double)(bb_rng_next(rng) >> 11) * 0x1.0p-53;
  return u < t->prob[h] ? h : t->alias[h];
}

typedef struct gen_ctx {
  const bb_hr_gen_params *p;
  int k;
  bb_hr *inst;
  alias_table table;
  uint32_t *seen;   /* threads * NH stamps */
  uint32_t *counts; /* threads * NH: entries per (thread's chunk, hospital) */
  int threads;
} gen_ctx;

static void draw_lists(void *arg, int64_t begin, int64_t end, int tid) {
  gen_ctx *c = arg;
  int nh = c->p->n_hospitals, k = c->k;
  uint32_t *seen = c->seen + (size_t)tid * (size_t)nh, stamp = 0;
  uint32_t *counts = c->counts + (size_t)tid * (size_t)nh;
  for (int64_t r = begin; r < end; r++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, c->p->seed, (uint64_t)r << 2);
    bb_id *list = c->inst->res_list + (size_t)r * (size_t)k;
    if (++stamp == 0) memset(seen, 0, (size_t)nh * sizeof *seen), stamp = 1;
    int got = 0;
    if (c->p->skew > 0) {
      for (int tries = 0; got < k && tries < 8 * k + 64; tries++) {
        uint32_t h = alias_draw(&c->table, &rng, nh);
        if (seen[h] != stamp) seen[h] = stamp, list[got++] = h;
      }
      while (got < k) { /* nearly every hospital taken: the next free one from a random start */
        uint32_t h = bb_rng_below(&rng, (uint64_t)nh);
        while (seen[h] == stamp) h = h + 1 == (uint32_t)nh ? 0 : h + 1;
        seen[h] = stamp, list[got++] = h;
      }
    } else { /* Floyd: a uniform k-subset, then shuffled into a ranking */
      for (int j = nh - k; j < nh; j++) {
        uint32_t h = bb_rng_below(&rng, (uint64_t)j + 1);
        if (seen[h] == stamp) h = (uint32_t)j;
        seen[h] = stamp;
        list[got++] = h;
      }
      bb_rng_shuffle(&rng, list, (size_t)k);
    }
    for (int e = 0; e < k; e++) counts[list[e]]++;
  }
}

/* Hospitals' lists: bucket the residents in resident order (each thread's chunk of residents
 * has its own offset in every bucket), then shuffle each bucket. */
static void fill_hospitals(void *arg, int64_t begin, int64_t end, int tid) {
  gen_ctx *c = arg;
  int nh = c->p->n_hospitals, k = c->k;
  uint32_t *cursor = c->counts + (size_t)tid * (size_t)nh;
  for (int64_t r = begin; r < end; r++)
    for (int e = 0; e < k; e++) c->inst->hosp_list[cursor[c->inst->res_list[(size_t)r * k + e]]++] = (bb_id)r;
}

static void shuffle_hospitals(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  gen_ctx *c = arg;
  bb_hr *inst = c->inst;
  int avg = (int)((c->p->n_residents + c->p->n_hospitals / 2) / (c->p->n_hospitals ? c->p->n_hospitals : 1));
  if (avg < 1) avg = 1;
  for (int64_t h = begin; h < end; h++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, c->p->seed, (uint64_t)h << 2 | 1);
    bb_rng_shuffle(&rng, inst->hosp_list + inst->hosp_start[h], inst->hosp_start[h + 1] - inst->hosp_start[h]);
    if (c->p->smi) {
      inst->capacity[h] = 1;
    } else if (c->p->capacity > 0) {
      inst->capacity[h] = c->p->capacity;
    } else {
      bb_rng_seed_stream(&rng, c->p->seed, (uint64_t)h << 2 | 2);
      inst->capacity[h] = 1 + (int32_t)bb_rng_below(&rng, (uint64_t)(2 * avg - 1));
    }
  }
}

bb_status bb_hr_generate(const bb_hr_gen_params *p, bb_hr **out, bb_error *err) {
  *out = NULL;
  int nr = p->n_residents, nh = p->n_hospitals;
  if (nr < 1 || nr > BB_MAX_N || nh < 1 || nh > BB_MAX_N)
    return bb_fail(err, BB_ERR_ARG, "generator: need 1..%d people on each side (got %d and %d)", BB_MAX_N, nr, nh);
  if (p->list_length < 0) return bb_fail(err, BB_ERR_ARG, "generator: list length %d is negative", p->list_length);
  if (!(p->skew >= 0 && p->skew <= 10)) return bb_fail(err, BB_ERR_ARG, "generator: skew must be in 0..10");
  if (p->capacity < 0) return bb_fail(err, BB_ERR_ARG, "generator: capacity %d is negative", p->capacity);
  gen_ctx c = {.p = p, .k = p->list_length < nh ? p->list_length : nh};
  uint64_t entries = (uint64_t)nr * (uint64_t)c.k;
  bb_error sub = {{0}};
  bb_status st = BB_OK;
  c.inst = bb_hr_new(p->smi, nr, nh, entries, entries, &sub);
  if (!c.inst) return bb_fail(err, entries > UINT32_MAX - 1 ? BB_ERR_ARG : BB_ERR_NOMEM, "generator: %s", sub.msg);
  c.threads = p->threads > 0 ? p->threads : bb_cpu_count();
  if (c.threads > nr) c.threads = nr;
  if (c.threads > 1 && entries < 1000000) c.threads = 1;
  c.seen = calloc((size_t)c.threads * (size_t)nh, sizeof *c.seen);
  c.counts = calloc((size_t)c.threads * (size_t)nh, sizeof *c.counts);
  if (!c.seen || !c.counts || (p->skew > 0 && !alias_build(&c.table, nh, p->skew))) {
    st = bb_fail(err, BB_ERR_NOMEM, "generator: out of memory");
  } else {
    for (int r = 0; r <= nr; r++) c.inst->res_start[r] = (uint32_t)((uint64_t)r * (uint64_t)c.k);
    bb_parallel_for(c.threads, nr, draw_lists, &c);
    /* counts[t][h] becomes thread t's first slot in bucket h. */
    uint32_t sum = 0;
    for (int h = 0; h < nh; h++) {
      c.inst->hosp_start[h] = sum;
      for (int t = 0; t < c.threads; t++) {
        uint32_t count = c.counts[(size_t)t * nh + h];
        c.counts[(size_t)t * nh + h] = sum;
        sum += count;
      }
    }
    c.inst->hosp_start[nh] = sum;
    bb_parallel_for(c.threads, nr, fill_hospitals, &c);
    bb_parallel_for(c.threads, nh, shuffle_hospitals, &c);
  }
  free(c.seen);
  free(c.counts);
  free(c.table.prob);
  free(c.table.alias);
  if (st != BB_OK) {
    bb_hr_free(c.inst);
    return st;
  }
  *out = c.inst;
  return BB_OK;
}
