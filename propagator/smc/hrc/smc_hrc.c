/* The HRC constraint's data: validation, and the slot tables that let a propagation count
 * "assigned residents a hospital prefers to r" with prefix sums over the hospital's list. */
#include "smc_hrc_data.h"

#include <stdlib.h>
#include <string.h>

static void *alloc_n(size_t n, size_t size, bool *ok) {
  void *p = malloc((n ? n : 1) * size);
  if (!p) *ok = false;
  return p;
}

static void data_free(bb_smc_hrc *d) {
  if (!d) return;
  free(d->single_res);
  free(d->couple_member);
  free(d->var_start);
  free(d->e_h1);
  free(d->e_h2);
  free(d->e_s1);
  free(d->e_s2);
  free(d->e_x21);
  free(d->e_x12);
  free(d->hosp_start);
  free(d->slot_var);
  free(d->slot_member);
  free(d->slot_entry);
  free(d->slot_hosp);
  free(d->tie_end);
  free(d->capacity);
  bb_smc_hrc_accel_free(d->accel);
  free(d);
}

/* Resident r's slots, sorted by hospital: (hospital, slot) pairs in r_start[r] .. r_start[r+1]. */
typedef struct res_slots {
  uint32_t *start;
  int32_t *hosp, *slot;
} res_slots;

static int cmp_pair(const void *a, const void *b) {
  const int32_t *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static int32_t slot_of(const res_slots *rs, int r, int h) {
  uint32_t lo = rs->start[r], hi = rs->start[r + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (rs->hosp[mid] < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < rs->start[r + 1] && rs->hosp[lo] == h ? rs->slot[lo] : -1;
}

static bb_status validate(const bb_smc_hrc_lists *L, bb_error *err) {
  int nR = L->n_residents, nH = L->n_hospitals, nC = L->n_couples;
  if (nR < 0 || nH < 0 || nC < 0 || nR > BB_MAX_N || nH > BB_MAX_N || 2 * (int64_t)nC > nR)
    return bb_fail(err, BB_ERR_INPUT, "HRC: bad sizes (%d residents, %d hospitals, %d couples)", nR, nH, nC);
  if (!L->single_start || !L->couple_start || !L->hosp_start || !L->capacity || (nC && !L->couple_member))
    return bb_fail(err, BB_ERR_ARG, "HRC: missing arrays");
  for (int c = 0; c < 2 * nC; c++)
    if (L->couple_member[c] < 0 || L->couple_member[c] >= nR)
      return bb_fail(err, BB_ERR_INPUT, "HRC: couple %d's member %d is not a resident", c / 2, L->couple_member[c]);
  for (int h = 0; h < nH; h++) {
    if (L->capacity[h] < 0) return bb_fail(err, BB_ERR_INPUT, "HRC: hospital %d has capacity %d", h, L->capacity[h]);
    if (L->hosp_start[h + 1] < L->hosp_start[h]) return bb_fail(err, BB_ERR_INPUT, "HRC: hospital %d's list", h);
    for (uint32_t e = L->hosp_start[h]; e < L->hosp_start[h + 1]; e++)
      if (L->hosp_list[e] < 0 || L->hosp_list[e] >= nR)
        return bb_fail(err, BB_ERR_INPUT, "HRC: hospital %d lists %d, not a resident", h, L->hosp_list[e]);
  }
  for (int h = 0; h < nH && L->hosp_rank; h++)
    for (uint32_t e = L->hosp_start[h]; e < L->hosp_start[h + 1]; e++) {
      uint32_t was = e == L->hosp_start[h] ? 0 : L->hosp_rank[e - 1];
      if (L->hosp_rank[e] != was && (e == L->hosp_start[h] || L->hosp_rank[e] != was + 1))
        return bb_fail(err, BB_ERR_INPUT,
                       "HRC: hospital %d's ranks: %u at position %u (ranks start at 0 and step by 0 or 1)", h,
                       L->hosp_rank[e], e - L->hosp_start[h]);
    }
  for (int r = 0; r < nR; r++) {
    if (L->single_start[r + 1] < L->single_start[r]) return bb_fail(err, BB_ERR_INPUT, "HRC: resident %d's list", r);
    for (uint32_t e = L->single_start[r]; e < L->single_start[r + 1]; e++)
      if (L->single_list[e] < 0 || L->single_list[e] >= nH)
        return bb_fail(err, BB_ERR_INPUT, "HRC: resident %d lists %d, not a hospital", r, L->single_list[e]);
  }
  for (int c = 0; c < nC; c++) {
    if (L->couple_start[c + 1] < L->couple_start[c]) return bb_fail(err, BB_ERR_INPUT, "HRC: couple %d's list", c);
    for (uint32_t e = L->couple_start[c]; e < L->couple_start[c + 1]; e++)
      for (int m = 0; m < 2; m++)
        if (L->couple_list[2 * e + m] < 0 || L->couple_list[2 * e + m] >= nH)
          return bb_fail(err, BB_ERR_INPUT, "HRC: couple %d lists %d, not a hospital", c, L->couple_list[2 * e + m]);
  }
  return BB_OK;
}

bb_status bb_smc_hrc_new(const bb_smc_hrc_lists *L, bb_smc_hrc **out, bb_error *err) {
  *out = NULL;
  if (!L) return bb_fail(err, BB_ERR_ARG, "bb_smc_hrc_new: no lists");
  bb_status st = validate(L, err);
  if (st != BB_OK) return st;
  int nR = L->n_residents, nH = L->n_hospitals, nC = L->n_couples;
  bool ok = true;
  bb_smc_hrc *d = calloc(1, sizeof *d);
  int32_t *couple_of = alloc_n((size_t)nR, sizeof *couple_of, &ok);
  res_slots rs = {alloc_n((size_t)nR + 1, sizeof(uint32_t), &ok), NULL, NULL};
  if (!d || !ok) goto nomem;
  d->refs = 1;
  d->n_residents = nR;
  d->n_hospitals = nH;
  d->n_couples = nC;
  for (int r = 0; r < nR; r++) couple_of[r] = -1;
  for (int k = 0; k < 2 * nC; k++) {
    int r = L->couple_member[k];
    if (couple_of[r] >= 0) {
      bb_fail(err, BB_ERR_INPUT, "HRC: resident %d is a member of couple %d and of couple %d", r, couple_of[r], k / 2);
      goto fail;
    }
    couple_of[r] = k / 2;
    if (L->single_start[r + 1] != L->single_start[r]) {
      bb_fail(err, BB_ERR_INPUT, "HRC: resident %d is in couple %d but has a list of his own", r, k / 2);
      goto fail;
    }
  }
  d->n_singles = nR - 2 * nC;
  d->n_vars = d->n_singles + nC;
  uint32_t n_slots = L->hosp_start[nH] - L->hosp_start[0];
  uint64_t entries = (uint64_t)(L->single_start[nR] - L->single_start[0]) + (L->couple_start[nC] - L->couple_start[0]);
  if (entries > INT32_MAX || n_slots > INT32_MAX) {
    bb_fail(err, BB_ERR_INPUT, "HRC: lists too long");
    goto fail;
  }
  d->single_res = alloc_n((size_t)d->n_singles, sizeof(int32_t), &ok);
  d->couple_member = alloc_n(2 * (size_t)nC, sizeof(int32_t), &ok);
  d->var_start = alloc_n((size_t)d->n_vars + 1, sizeof(uint32_t), &ok);
  d->e_h1 = alloc_n(entries, sizeof(int32_t), &ok);
  d->e_h2 = alloc_n(entries, sizeof(int32_t), &ok);
  d->e_s1 = alloc_n(entries, sizeof(int32_t), &ok);
  d->e_s2 = alloc_n(entries, sizeof(int32_t), &ok);
  d->e_x21 = alloc_n(entries, sizeof(int32_t), &ok);
  d->e_x12 = alloc_n(entries, sizeof(int32_t), &ok);
  d->hosp_start = alloc_n((size_t)nH + 1, sizeof(uint32_t), &ok);
  d->slot_var = alloc_n(n_slots, sizeof(int32_t), &ok);
  d->slot_member = alloc_n(n_slots, sizeof(int32_t), &ok);
  d->slot_entry = alloc_n(n_slots, sizeof(int32_t), &ok);
  d->slot_hosp = alloc_n(n_slots, sizeof(int32_t), &ok);
  d->capacity = alloc_n((size_t)nH, sizeof(int32_t), &ok);
  if (L->hosp_rank) d->tie_end = alloc_n(n_slots, sizeof(int32_t), &ok);
  rs.hosp = alloc_n(n_slots, sizeof(int32_t) * 2, &ok); /* pairs (hospital, slot), split below */
  if (!ok) goto nomem;
  /* Slots, and resident -> (hospital, slot) sorted by hospital. */
  memset(rs.start, 0, ((size_t)nR + 1) * sizeof *rs.start);
  for (int h = 0; h <= nH; h++) d->hosp_start[h] = L->hosp_start[h] - L->hosp_start[0];
  memcpy(d->capacity, L->capacity, (size_t)nH * sizeof *d->capacity);
  if (nC) memcpy(d->couple_member, L->couple_member, 2 * (size_t)nC * sizeof *d->couple_member);
  for (uint32_t s = 0; s < n_slots; s++) rs.start[L->hosp_list[L->hosp_start[0] + s] + 1]++;
  for (int r = 0; r < nR; r++) rs.start[r + 1] += rs.start[r];
  {
    uint32_t *fill = alloc_n((size_t)nR, sizeof *fill, &ok);
    if (!ok) goto nomem;
    memcpy(fill, rs.start, (size_t)nR * sizeof *fill);
    for (int h = 0; h < nH; h++)
      for (uint32_t s = d->hosp_start[h]; s < d->hosp_start[h + 1]; s++) {
        int r = L->hosp_list[L->hosp_start[0] + s];
        uint32_t at = fill[r]++;
        rs.hosp[2 * at] = h;
        rs.hosp[2 * at + 1] = (int32_t)s;
        d->slot_hosp[s] = h;
      }
    free(fill);
    for (int r = 0; r < nR; r++) {
      uint32_t a = rs.start[r], b = rs.start[r + 1];
      qsort(rs.hosp + 2 * a, b - a, 2 * sizeof(int32_t), cmp_pair);
      for (uint32_t k = a + 1; k < b; k++)
        if (rs.hosp[2 * k] == rs.hosp[2 * k - 2]) {
          bb_fail(err, BB_ERR_INPUT, "HRC: hospital %d lists resident %d twice", rs.hosp[2 * k], r);
          goto fail;
        }
    }
    /* split the pairs into two arrays in place: slots go to a new array */
    rs.slot = alloc_n(n_slots, sizeof(int32_t), &ok);
    if (!ok) goto nomem;
    for (uint32_t k = 0; k < n_slots; k++) {
      rs.slot[k] = rs.hosp[2 * k + 1];
      rs.hosp[k] = rs.hosp[2 * k];
    }
  }
  for (int h = 0; h < nH && d->tie_end; h++) /* ties: each slot's tie ends where the rank changes */
    for (uint32_t s = d->hosp_start[h + 1]; s-- > d->hosp_start[h];) {
      const uint32_t *rank = L->hosp_rank + L->hosp_start[0];
      bool tied = s + 1 < d->hosp_start[h + 1] && rank[s + 1] == rank[s];
      d->tie_end[s] = tied ? d->tie_end[s + 1] : (int32_t)s + 1;
    }
  for (uint32_t s = 0; s < n_slots; s++) {
    int r = L->hosp_list[L->hosp_start[0] + s];
    d->slot_member[s] = couple_of[r] >= 0 ? (L->couple_member[2 * couple_of[r]] == r ? 0 : 1) : -1;
    d->slot_entry[s] = -1;
    d->slot_var[s] = -1; /* set below from the residents */
  }
  /* Variables: singles by resident id, then couples. */
  uint32_t at = 0;
  int v = 0;
  for (int r = 0; r < nR; r++) {
    if (couple_of[r] >= 0) continue;
    d->single_res[v] = r;
    d->var_start[v] = at;
    for (uint32_t e = L->single_start[r]; e < L->single_start[r + 1]; e++, at++) {
      int h = L->single_list[e];
      for (uint32_t f = L->single_start[r]; f < e; f++)
        if (L->single_list[f] == h) {
          bb_fail(err, BB_ERR_INPUT, "HRC: resident %d lists hospital %d twice", r, h);
          goto fail;
        }
      d->e_h1[at] = h;
      d->e_h2[at] = -1;
      d->e_s1[at] = slot_of(&rs, r, h);
      d->e_s2[at] = d->e_x21[at] = d->e_x12[at] = -1;
      if (d->e_s1[at] >= 0) d->slot_entry[d->e_s1[at]] = (int32_t)(e - L->single_start[r]);
    }
    for (uint32_t k = rs.start[r]; k < rs.start[r + 1]; k++) d->slot_var[rs.slot[k]] = v;
    v++;
  }
  for (int c = 0; c < nC; c++, v++) {
    int m1 = L->couple_member[2 * c], m2 = L->couple_member[2 * c + 1];
    d->var_start[v] = at;
    for (uint32_t e = L->couple_start[c]; e < L->couple_start[c + 1]; e++, at++) {
      int h1 = L->couple_list[2 * e], h2 = L->couple_list[2 * e + 1];
      for (uint32_t f = L->couple_start[c]; f < e; f++)
        if (L->couple_list[2 * f] == h1 && L->couple_list[2 * f + 1] == h2) {
          bb_fail(err, BB_ERR_INPUT, "HRC: couple %d lists the pair (%d, %d) twice", c, h1, h2);
          goto fail;
        }
      d->e_h1[at] = h1;
      d->e_h2[at] = h2;
      d->e_s1[at] = slot_of(&rs, m1, h1);
      d->e_s2[at] = slot_of(&rs, m2, h2);
      if (d->e_s1[at] < 0 || d->e_s2[at] < 0) d->e_s1[at] = d->e_s2[at] = -1;
      d->e_x21[at] = slot_of(&rs, m2, h1);
      d->e_x12[at] = slot_of(&rs, m1, h2);
    }
    for (int m = 0; m < 2; m++) {
      int r = m ? m2 : m1;
      for (uint32_t k = rs.start[r]; k < rs.start[r + 1]; k++) d->slot_var[rs.slot[k]] = v;
    }
  }
  d->var_start[v] = at;
  d->longest = 0;
  for (int u = 0; u < d->n_vars; u++)
    if (bb_smc_hrc_len(d, u) > d->longest) d->longest = bb_smc_hrc_len(d, u);
  free(couple_of);
  free(rs.start);
  free(rs.hosp);
  free(rs.slot);
  *out = d;
  return BB_OK;
nomem:
  st = bb_fail(err, BB_ERR_NOMEM, "HRC: out of memory for the constraint's data");
fail:
  free(couple_of);
  free(rs.start);
  free(rs.hosp);
  free(rs.slot);
  data_free(d);
  return st == BB_OK ? BB_ERR_INPUT : st;
}

void bb_smc_hrc_retain(bb_smc_hrc *d) { __atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED); }

void bb_smc_hrc_release(bb_smc_hrc *d) {
  if (d && __atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) == 0) data_free(d);
}

int bb_smc_hrc_singles(const bb_smc_hrc *d) { return d->n_singles; }
int bb_smc_hrc_couples(const bb_smc_hrc *d) { return d->n_couples; }
int bb_smc_hrc_len(const bb_smc_hrc *d, int v) { return (int)(d->var_start[v + 1] - d->var_start[v]); }
int bb_smc_hrc_single_resident(const bb_smc_hrc *d, int i) { return d->single_res[i]; }

bool bb_smc_hrc_acceptable(const bb_smc_hrc *d, int v, int k) {
  return k >= 0 && k < bb_smc_hrc_len(d, v) && d->e_s1[d->var_start[v] + (uint32_t)k] >= 0;
}

int bb_smc_hrc_rank_of(const bb_smc_hrc *d, int v, const int32_t *assigned) {
  int len = bb_smc_hrc_len(d, v);
  uint32_t e0 = d->var_start[v];
  if (v < d->n_singles) {
    int h = assigned[d->single_res[v]];
    if (h < 0) return len;
    for (int k = 0; k < len; k++)
      if (d->e_h1[e0 + (uint32_t)k] == h) return d->e_s1[e0 + (uint32_t)k] >= 0 ? k : -1;
    return -1;
  }
  int c = v - d->n_singles, h1 = assigned[d->couple_member[2 * c]], h2 = assigned[d->couple_member[2 * c + 1]];
  if (h1 < 0 && h2 < 0) return len;
  for (int k = 0; k < len; k++)
    if (d->e_h1[e0 + (uint32_t)k] == h1 && d->e_h2[e0 + (uint32_t)k] == h2)
      return d->e_s1[e0 + (uint32_t)k] >= 0 ? k : -1;
  return -1;
}

/* Fixed domains for bb_smc_hrc_own_counts: one value per variable, nothing may be removed. */
static int fixed_value(void *ctx, int v) { return ((const int *)ctx)[v]; }
static int fixed_size(void *ctx, int v) {
  (void)ctx, (void)v;
  return 1;
}
static bool fixed_contains(void *ctx, int v, int k) { return ((const int *)ctx)[v] == k; }
static bb_smc_status fixed_remove(void *ctx, int v, int k) {
  return ((const int *)ctx)[v] == k ? BB_SMC_FAILED : BB_SMC_FIX;
}
static bb_smc_status fixed_lower_max(void *ctx, int v, int k) {
  return ((const int *)ctx)[v] > k ? BB_SMC_FAILED : BB_SMC_FIX;
}

bb_smc_status bb_smc_hrc_own_counts(const bb_smc_hrc *d, const int *ranks, int32_t *own) {
  for (int v = 0; v < d->n_vars; v++)
    if (ranks[v] < 0 || ranks[v] > bb_smc_hrc_len(d, v) ||
        (ranks[v] < bb_smc_hrc_len(d, v) && !bb_smc_hrc_acceptable(d, v, ranks[v])))
      return BB_SMC_FAILED;
  bb_smc_domains dom = {.ctx = (void *)ranks,
                        .min = fixed_value,
                        .max = fixed_value,
                        .size = fixed_size,
                        .contains = fixed_contains,
                        .remove = fixed_remove,
                        .lower_max = fixed_lower_max};
  int32_t *ub = malloc(((size_t)d->n_vars + 1) * sizeof *ub);
  if (!ub) return BB_SMC_NOMEM;
  bb_smc_hrc_budgets b = {NULL, NULL, own, ub};
  int64_t lb, hi;
  /* with everything fixed, each share is exact (and equals the possible count) */
  bb_smc_status r = bb_smc_hrc_propagate_budgets(d, &dom, INT64_MAX / 4, &b, &lb, &hi);
  free(ub);
  return r == BB_SMC_FAILED || r == BB_SMC_NOMEM ? r : BB_SMC_FIX;
}

/* The propagation's entry points, each the next with its default: no budgets, no scratch kept,
 * no memo, nothing told (smc_hrc_propagate.c). */
bb_smc_status bb_smc_hrc_propagate(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max, int64_t *lb,
                                   int64_t *ub) {
  return bb_smc_hrc_propagate_budgets(d, dom, bp_max, NULL, lb, ub);
}

bb_smc_status bb_smc_hrc_propagate_budgets(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, int64_t *lb, int64_t *ub) {
  return bb_smc_hrc_propagate_scratch(d, dom, bp_max, b, NULL, lb, ub);
}

bb_smc_status bb_smc_hrc_propagate_scratch(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                           const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, int64_t *lb,
                                           int64_t *ub) {
  return bb_smc_hrc_propagate_memo(d, dom, bp_max, b, x, NULL, lb, ub);
}

bb_smc_status bb_smc_hrc_propagate_memo(const bb_smc_hrc *d, const bb_smc_domains *dom, int64_t bp_max,
                                        const bb_smc_hrc_budgets *b, bb_smc_hrc_scratch *x, bb_smc_hrc_memo *m,
                                        int64_t *lb, int64_t *ub) {
  return bb_smc_hrc_propagate_changes(d, dom, bp_max, b, x, m, NULL, lb, ub);
}
