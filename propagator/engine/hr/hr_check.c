/* Stability checker for SMI/HR matchings (hr.h), straight from the definitions.
 *
 * It deliberately shares nothing with the solvers' ranked view (hr_ranks.c): each hospital's
 * list is copied as (resident, rank) pairs sorted by resident, and "where does h rank r" is a
 * binary search. Then:
 *   1. every assigned pair is acceptable (both lists name each other) and no hospital takes
 *      more residents than its capacity;
 *   2. no acceptable pair (r, h) blocks: r unassigned or listing h before his hospital, and h
 *      under-subscribed or ranking r before its worst assignee.
 * O(entries log(list length)) time, O(entries) memory. Hospitals are sorted in parallel; the
 * first defect by resident id is reported. */
#include <stdlib.h>

#include "hr.h"
#include "parallel.h"

typedef struct ranked_pair {
  uint32_t resident, rank;
} ranked_pair;

typedef struct check_ctx {
  const bb_hr *inst;
  ranked_pair *by_resident; /* hosp_start layout */
} check_ctx;

static int by_resident_id(const void *a, const void *b) {
  uint32_t x = ((const ranked_pair *)a)->resident, y = ((const ranked_pair *)b)->resident;
  return (x > y) - (x < y);
}

static void sort_hospitals(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  check_ctx *c = arg;
  for (int64_t h = begin; h < end; h++) {
    uint32_t first = c->inst->hosp_start[h], last = c->inst->hosp_start[h + 1];
    for (uint32_t f = first; f < last; f++) c->by_resident[f] = (ranked_pair){c->inst->hosp_list[f], f - first};
    qsort(c->by_resident + first, last - first, sizeof *c->by_resident, by_resident_id);
  }
}

/* h's rank of r, or -1 if h does not list r. */
static int64_t hospital_rank(const check_ctx *c, uint32_t h, uint32_t r) {
  size_t lo = c->inst->hosp_start[h], hi = c->inst->hosp_start[h + 1];
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->by_resident[mid].resident < r)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < c->inst->hosp_start[h + 1] && c->by_resident[lo].resident == r) return c->by_resident[lo].rank;
  return -1;
}

bb_status bb_hr_check_stable(const bb_hr *inst, const int32_t *assigned, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  const char *rw = bb_hr_resident_word(inst), *hw = bb_hr_hospital_word(inst);
  check_ctx c = {inst, malloc(((size_t)inst->hosp_start[nh] + 1) * sizeof(ranked_pair))};
  int64_t *worst = malloc(((size_t)nh + 1) * sizeof *worst); /* rank of the worst assignee */
  int64_t *taken = calloc((size_t)nh + 1, sizeof *taken);
  int64_t *own_rank = malloc(((size_t)nr + 1) * sizeof *own_rank); /* his rank of his hospital */
  bb_status st = BB_OK;
  if (!c.by_resident || !worst || !taken || !own_rank) {
    st = bb_fail(err, BB_ERR_NOMEM, "checker: out of memory");
    goto done;
  }
  bb_parallel_for(bb_cpu_count(), nh, sort_hospitals, &c);
  for (int h = 0; h < nh; h++) worst[h] = -1;
  for (int r = 0; r < nr && st == BB_OK; r++) {
    int32_t h = assigned[r];
    own_rank[r] = INT64_MAX;
    if (h == BB_HR_NONE) continue;
    if (h < 0 || h >= nh) {
      st = bb_fail(err, BB_ERR_INPUT, "%s %d is assigned %s %d, which does not exist", rw, r, hw, h);
      break;
    }
    for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++)
      if (inst->res_list[e] == (bb_id)h) own_rank[r] = e - inst->res_start[r];
    int64_t rank = hospital_rank(&c, (uint32_t)h, (uint32_t)r);
    if (own_rank[r] == INT64_MAX || rank < 0)
      st = bb_fail(err, BB_ERR_INPUT, "%s %d is assigned %s %d, but %s", rw, r, hw, h,
                   own_rank[r] == INT64_MAX ? "his list does not name it" : "its list does not name him");
    else if (++taken[h] > inst->capacity[h])
      st = bb_fail(err, BB_ERR_INPUT, "%s %d takes more than its capacity %d", hw, h, inst->capacity[h]);
    else if (rank > worst[h])
      worst[h] = rank;
  }
  for (int r = 0; r < nr && st == BB_OK; r++) {
    uint32_t first = inst->res_start[r], last = inst->res_start[r + 1];
    for (uint32_t e = first; e < last && (int64_t)(e - first) < own_rank[r]; e++) {
      uint32_t h = inst->res_list[e];
      int64_t rank = hospital_rank(&c, h, (uint32_t)r);
      if (rank < 0) continue; /* not acceptable to h */
      if (taken[h] < inst->capacity[h] || rank < worst[h]) {
        st = bb_fail(err, BB_ERR_INPUT, "blocking pair (%s %d, %s %d): %s, and %s %d %s", rw, r, hw, h,
                     assigned[r] == BB_HR_NONE ? "he is unassigned" : "he prefers it to his own", hw, h,
                     taken[h] < inst->capacity[h] ? "has a free place" : "prefers him to its worst assignee");
        break;
      }
    }
  }
done:
  free(c.by_resident);
  free(worst);
  free(taken);
  free(own_rank);
  return st;
}

uint64_t bb_hr_acceptable_pairs(const bb_hr *inst) {
  check_ctx c = {inst, malloc(((size_t)inst->hosp_start[inst->n_hospitals] + 1) * sizeof(ranked_pair))};
  if (!c.by_resident) return 0;
  sort_hospitals(&c, 0, inst->n_hospitals, 0);
  uint64_t count = 0;
  for (int r = 0; r < inst->n_residents; r++)
    for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++)
      count += hospital_rank(&c, inst->res_list[e], (uint32_t)r) >= 0;
  free(c.by_resident);
  return count;
}
