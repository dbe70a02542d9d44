/* The checker of ties.h: whether an assignment is a matching, and its blocking pairs in the
 * weak, strong or super sense, straight from the definitions in ties.h (docs/ties.md). It
 * shares no data structure with the algorithms: ranks come from bb_ties_mutual_ranks. */
#include <stdlib.h>

#include "ties.h"

typedef struct check_state {
  uint32_t *res_other;   /* the hospital's rank of each resident entry */
  int64_t *partner_rank; /* n_residents: r's rank of its hospital, -1 when unassigned */
  int64_t *worst;        /* n_hospitals: h's rank of its worst assignee, -1 when it has none */
  int32_t *filled;       /* n_hospitals: assignees */
} check_state;

static void release(check_state *s) {
  free(s->res_other);
  free(s->partner_rank);
  free(s->worst);
  free(s->filled);
}

/* Fills partner_rank, worst and filled; BB_ERR_INPUT when `assigned` is not a matching. */
static bb_status read_matching(const bb_ties *in, const int32_t *assigned, check_state *s, bb_error *err) {
  const char *rw = bb_ties_resident_word(in), *hw = bb_ties_hospital_word(in);
  for (int h = 0; h < in->n_hospitals; h++) s->worst[h] = -1;
  for (int r = 0; r < in->n_residents; r++) {
    int32_t h = assigned[r];
    s->partner_rank[r] = -1;
    if (h == BB_TIES_NONE) continue;
    if (h < 0 || h >= in->n_hospitals)
      return bb_fail(err, BB_ERR_INPUT, "%s %d is assigned %d, not a %s id (0..%d) or none", rw, r, h, hw,
                     in->n_hospitals - 1);
    for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++)
      if (in->res_list[e] == (bb_id)h && s->res_other[e] != BB_TIES_ONE_SIDED) {
        s->partner_rank[r] = in->res_rank[e];
        if ((int64_t)s->res_other[e] > s->worst[h]) s->worst[h] = s->res_other[e];
      }
    if (s->partner_rank[r] < 0)
      return bb_fail(err, BB_ERR_INPUT, "%s %d is assigned %s %d, which is not an acceptable pair", rw, r, hw, h);
    if (++s->filled[h] > in->capacity[h])
      return bb_fail(err, BB_ERR_INPUT, "%s %d has more than its capacity %d assigned", hw, h, in->capacity[h]);
  }
  return BB_OK;
}

static bool blocks(bb_ties_stability kind, bool r_strict, bool r_weak, bool h_strict, bool h_weak) {
  switch (kind) {
    case BB_TIES_WEAK: return r_strict && h_strict;
    case BB_TIES_STRONG: return (r_strict && h_weak) || (r_weak && h_strict);
    default: return r_weak && h_weak;
  }
}

bb_status bb_ties_count_blocking(const bb_ties *in, const int32_t *assigned, bb_ties_stability kind,
                                 bb_ties_blocking *out, bb_error *err) {
  if (!in || !assigned || !out) return bb_fail(err, BB_ERR_ARG, "bb_ties_count_blocking: NULL argument");
  *out = (bb_ties_blocking){0, -1, -1};
  uint64_t entries = in->res_start[in->n_residents];
  check_state s = {malloc((size_t)(entries ? entries : 1) * sizeof(uint32_t)),
                   malloc(((size_t)in->n_residents + 1) * sizeof(int64_t)),
                   malloc(((size_t)in->n_hospitals + 1) * sizeof(int64_t)),
                   calloc((size_t)in->n_hospitals + 1, sizeof(int32_t))};
  bb_status st = !s.res_other || !s.partner_rank || !s.worst || !s.filled
                     ? bb_fail(err, BB_ERR_NOMEM, "out of memory for the checker")
                     : bb_ties_mutual_ranks(in, s.res_other, NULL, err);
  if (st == BB_OK) st = read_matching(in, assigned, &s, err);
  for (int r = 0; st == BB_OK && r < in->n_residents; r++)
    for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++) {
      int32_t h = (int32_t)in->res_list[e];
      int64_t hr = s.res_other[e], rr = in->res_rank[e];
      if (hr == BB_TIES_ONE_SIDED || assigned[r] == h) continue;
      bool r_strict = s.partner_rank[r] < 0 || rr < s.partner_rank[r];
      bool r_weak = r_strict || rr == s.partner_rank[r];
      bool h_strict = s.filled[h] < in->capacity[h] || hr < s.worst[h];
      bool h_weak = h_strict || hr == s.worst[h];
      if (!blocks(kind, r_strict, r_weak, h_strict, h_weak)) continue;
      if (out->count++ == 0) out->first_resident = r, out->first_hospital = h;
    }
  release(&s);
  return st;
}

bb_status bb_ties_check_stable(const bb_ties *in, const int32_t *assigned, bb_ties_stability kind, bb_error *err) {
  bb_ties_blocking b;
  bb_status st = bb_ties_count_blocking(in, assigned, kind, &b, err);
  if (st != BB_OK || b.count == 0) return st;
  static const char *const adjective[] = {"weakly stable", "strongly stable", "super-stable"};
  return bb_fail(err, BB_ERR_INPUT, "not %s: %llu blocking pair%s, the first (%s %d, %s %d)",
                 adjective[kind > BB_TIES_SUPER ? BB_TIES_SUPER : kind], (unsigned long long)b.count,
                 b.count == 1 ? "" : "s", bb_ties_resident_word(in), b.first_resident, bb_ties_hospital_word(in),
                 b.first_hospital);
}
