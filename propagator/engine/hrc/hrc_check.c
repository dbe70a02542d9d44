/* The HRC checker (hrc.h): is `assigned` a matching, and how many blocking pairs does it
 * admit under Manlove, McBride & Trimble, Constraints 22 (2017), Definition 1 (docs/hrc.md).
 *
 * One blocking pair is one entry of one list: a single's hospital, or a couple's pair of
 * hospitals, that blocks by some case of the definition; an entry counts once even if two
 * cases apply (they cannot: the cases split on which members keep their hospitals). This is
 * the count the paper minimises and the one Trimble's CP model (minizinc-benchmarks hrc.mzn,
 * coup_bp / single_bp) sums.
 *
 * What a hospital h must know of M(h) for every case is three numbers: how many it holds, its
 * worst assignee's rank (and who that is) and its second worst's rank. "h prefers r to some
 * member of S" is "the worst rank in S is above r's", and excluding a partner from S means
 * taking the second worst when the partner is the worst. Each hospital's list is copied as
 * (resident, rank) sorted by resident, so "where does h rank r" is a binary search: the whole
 * check is O(entries log(list length)). */
#include <stdio.h>
#include <stdlib.h>

#include "hrc.h"

typedef struct ranked_pair {
  uint32_t resident, rank;
} ranked_pair;

typedef struct hosp_state {
  int64_t taken, worst, second; /* ranks; -1 when there is no such assignee */
  int64_t worst_id;
} hosp_state;

typedef struct checker {
  const bb_hrc *inst;
  const int32_t *assigned;
  ranked_pair *by_resident; /* hosp_start layout */
  hosp_state *hosp;
} checker;

static int by_resident_id(const void *a, const void *b) {
  uint32_t x = ((const ranked_pair *)a)->resident, y = ((const ranked_pair *)b)->resident;
  return (x > y) - (x < y);
}

/* h's rank of r, or -1 if h does not list r. */
static int64_t hospital_rank(const checker *c, uint32_t h, uint32_t r) {
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

static bool has_room(const checker *c, uint32_t h) { return c->hosp[h].taken < c->inst->capacity[h]; }

/* The worst rank in M(h) \ {except} (except may be -1), or -1 if that set is empty. */
static int64_t worst_without(const checker *c, uint32_t h, int64_t except) {
  return c->hosp[h].worst_id == except ? c->hosp[h].second : c->hosp[h].worst;
}

/* h under-subscribed, or preferring rank q to some member of M(h) \ {except}. */
static bool would_take(const checker *c, uint32_t h, int64_t q, int64_t except) {
  return has_room(c, h) || worst_without(c, h, except) > q;
}

/* Case 3b: both members, neither now at h, to h together (q_best < q_other: h's ranks of them).
 * Two free posts; or one, and some assignee below the better; or none, and two distinct
 * assignees r_s below the better and r_t below the other (docs/hrc.md, "case 3b"). */
static bool would_take_both(const checker *c, uint32_t h, int64_t q_best, int64_t q_other) {
  int64_t free_posts = c->inst->capacity[h] - c->hosp[h].taken;
  if (free_posts >= 2) return true;
  if (free_posts == 1) return c->hosp[h].worst > q_best;
  return c->hosp[h].worst > q_other && c->hosp[h].second > q_best;
}

/* Fills the per-hospital states and checks that `assigned` is a matching; position[x] (x a
 * single resident, or n_residents + couple) is the index of the entry it holds, or its list's
 * length when unassigned. */
static bb_status check_matching(checker *c, uint32_t *position, bb_error *err) {
  const bb_hrc *in = c->inst;
  int nr = in->n_residents, nh = in->n_hospitals;
  for (int r = 0; r < nr; r++) {
    int32_t h = c->assigned[r];
    if (h != BB_HRC_NONE && (h < 0 || h >= nh))
      return bb_fail(err, BB_ERR_INPUT, "resident %d: hospital %d is out of range 0..%d (or -1, unassigned)", r, h,
                     nh - 1);
    if (in->couple_of[r] != BB_HRC_SINGLE) continue;
    uint32_t first = in->single_start[r], last = in->single_start[r + 1], e = first;
    if (h != BB_HRC_NONE) {
      while (e < last && in->single_list[e] != (bb_id)h) e++;
      if (e == last) return bb_fail(err, BB_ERR_INPUT, "resident %d is at hospital %d, which he does not list", r, h);
      if (hospital_rank(c, (uint32_t)h, (uint32_t)r) < 0)
        return bb_fail(err, BB_ERR_INPUT, "resident %d is at hospital %d, which does not list him", r, h);
    } else {
      e = last;
    }
    position[r] = e - first;
  }
  for (int k = 0; k < in->n_couples; k++) {
    int32_t r1 = in->couple_member[2 * k], r2 = in->couple_member[2 * k + 1];
    int32_t h1 = c->assigned[r1], h2 = c->assigned[r2];
    uint32_t first = in->couple_start[k], last = in->couple_start[k + 1], e = first;
    if ((h1 == BB_HRC_NONE) != (h2 == BB_HRC_NONE))
      return bb_fail(err, BB_ERR_INPUT, "couple %d: resident %d is %s but his partner %d is %s", k, r1,
                     h1 == BB_HRC_NONE ? "unassigned" : "assigned", r2, h2 == BB_HRC_NONE ? "unassigned" : "assigned");
    if (h1 != BB_HRC_NONE) {
      while (e < last && !(in->couple_list[2 * e] == (bb_id)h1 && in->couple_list[2 * e + 1] == (bb_id)h2)) e++;
      if (e == last)
        return bb_fail(err, BB_ERR_INPUT, "couple %d (residents %d, %d) is at (%d, %d), a pair it does not list", k, r1,
                       r2, h1, h2);
      if (hospital_rank(c, (uint32_t)h1, (uint32_t)r1) < 0 || hospital_rank(c, (uint32_t)h2, (uint32_t)r2) < 0)
        return bb_fail(err, BB_ERR_INPUT, "couple %d is at (%d, %d), but hospital %d does not list resident %d", k, h1,
                       h2, hospital_rank(c, (uint32_t)h1, (uint32_t)r1) < 0 ? h1 : h2,
                       hospital_rank(c, (uint32_t)h1, (uint32_t)r1) < 0 ? r1 : r2);
    } else {
      e = last;
    }
    position[nr + k] = e - first;
  }
  for (int h = 0; h < nh; h++) c->hosp[h] = (hosp_state){0, -1, -1, -1};
  for (int r = 0; r < nr; r++) {
    int32_t h = c->assigned[r];
    if (h == BB_HRC_NONE) continue;
    hosp_state *s = &c->hosp[h];
    int64_t q = hospital_rank(c, (uint32_t)h, (uint32_t)r);
    if (++s->taken > in->capacity[h])
      return bb_fail(err, BB_ERR_INPUT, "hospital %d holds more than its capacity %d (resident %d is one too many)", h,
                     in->capacity[h], r);
    if (q > s->worst) {
      s->second = s->worst;
      s->worst = q;
      s->worst_id = r;
    } else if (q > s->second) {
      s->second = q;
    }
  }
  return BB_OK;
}

/* Counts the blocking pairs; with stop_at_first, stops at the first and describes it. */
static bb_status count_blocking(checker *c, const uint32_t *position, uint64_t *blocking, bool stop_at_first,
                                bb_error *err) {
  const bb_hrc *in = c->inst;
  int nr = in->n_residents;
  uint64_t count = 0;
  for (int r = 0; r < nr; r++) { /* case 1: a single and a hospital */
    if (in->couple_of[r] != BB_HRC_SINGLE) continue;
    uint32_t first = in->single_start[r];
    for (uint32_t e = first; e < first + position[r]; e++) {
      uint32_t h = in->single_list[e];
      int64_t q = hospital_rank(c, h, (uint32_t)r);
      if (q < 0 || !would_take(c, h, q, -1)) continue;
      count++;
      if (stop_at_first)
        return bb_fail(err, BB_ERR_INPUT, "blocking pair (case 1): resident %d and hospital %d (%s)", r, h,
                       has_room(c, h) ? "under-subscribed" : "it prefers him to an assignee");
    }
  }
  for (int k = 0; k < in->n_couples; k++) {
    int32_t r1 = in->couple_member[2 * k], r2 = in->couple_member[2 * k + 1];
    int32_t a1 = c->assigned[r1], a2 = c->assigned[r2];
    uint32_t first = in->couple_start[k];
    for (uint32_t e = first; e < first + position[nr + k]; e++) {
      uint32_t h1 = in->couple_list[2 * e], h2 = in->couple_list[2 * e + 1];
      int64_t q1 = hospital_rank(c, h1, (uint32_t)r1), q2 = hospital_rank(c, h2, (uint32_t)r2);
      if (q1 < 0 || q2 < 0) continue;
      const char *which;
      bool blocks;
      if (a2 == (int32_t)h2) { /* 2a: the second keeps his place, the first moves to h1 */
        blocks = would_take(c, h1, q1, r2);
        which = "2a: the second member keeps his hospital";
      } else if (a1 == (int32_t)h1) { /* 2b: the first keeps his place */
        blocks = would_take(c, h2, q2, r1);
        which = "2b: the first member keeps his hospital";
      } else if (h1 != h2) { /* 3a: both move, to two hospitals */
        blocks = would_take(c, h1, q1, -1) && would_take(c, h2, q2, -1);
        which = "3a: both move, to two hospitals";
      } else { /* 3b: both move, to one hospital */
        blocks = q1 < q2 ? would_take_both(c, h1, q1, q2) : would_take_both(c, h1, q2, q1);
        which = "3b: both move, to one hospital";
      }
      if (!blocks) continue;
      count++;
      if (stop_at_first)
        return bb_fail(err, BB_ERR_INPUT, "blocking pair (case %s): couple %d (residents %d, %d) and (%u, %u)", which,
                       k, r1, r2, h1, h2);
    }
  }
  *blocking = count;
  return BB_OK;
}

static bb_status run_check(const bb_hrc *inst, const int32_t *assigned, uint64_t *blocking, bool stop_at_first,
                           bb_error *err) {
  if (!inst || !assigned) return bb_fail(err, BB_ERR_ARG, "bb_hrc check: NULL argument");
  int nr = inst->n_residents, nh = inst->n_hospitals;
  checker c = {inst, assigned, malloc(((size_t)inst->hosp_start[nh] + 1) * sizeof(ranked_pair)),
               malloc(((size_t)nh + 1) * sizeof(hosp_state))};
  uint32_t *position = malloc(((size_t)nr + (size_t)inst->n_couples + 1) * sizeof *position);
  bb_status st = BB_OK;
  if (!c.by_resident || !c.hosp || !position) {
    st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc check: out of memory");
  } else {
    for (int h = 0; h < nh; h++) {
      uint32_t first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
      for (uint32_t f = first; f < last; f++)
        c.by_resident[f] = (ranked_pair){inst->hosp_list[f], bb_hrc_hosp_rank(inst, h, f)};
      qsort(c.by_resident + first, last - first, sizeof *c.by_resident, by_resident_id);
    }
    st = check_matching(&c, position, err);
    uint64_t count = 0;
    if (st == BB_OK) st = count_blocking(&c, position, &count, stop_at_first, err);
    if (st == BB_OK && blocking) *blocking = count;
  }
  free(c.by_resident);
  free(c.hosp);
  free(position);
  return st;
}

bb_status bb_hrc_count_blocking(const bb_hrc *inst, const int32_t *assigned, uint64_t *blocking, bb_error *err) {
  return run_check(inst, assigned, blocking, false, err);
}

bb_status bb_hrc_check_stable(const bb_hrc *inst, const int32_t *assigned, bb_error *err) {
  return run_check(inst, assigned, NULL, true, err);
}
