/* HRC instances (hrc.h): allocation and validation. */
#include "hrc.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hrc_bytes(int nr, int nh, int nc, uint64_t se, uint64_t ce, uint64_t he) {
  return ((uint64_t)nr * 2 + 1 + (uint64_t)nc * 3 + 1 + (uint64_t)nh * 2 + 1) * 4 + (se + 2 * ce + he) * sizeof(bb_id);
}

bb_hrc *bb_hrc_new(int n_residents, int n_hospitals, int n_couples, uint64_t single_entries, uint64_t couple_entries,
                   uint64_t hosp_entries, bb_error *err) {
  if (n_residents < 0 || n_residents > BB_MAX_N || n_hospitals < 0 || n_hospitals > BB_MAX_N || n_couples < 0 ||
      (int64_t)n_couples * 2 > n_residents) {
    bb_fail(err, BB_ERR_ARG,
            "%d residents, %d hospitals and %d couples: each side must have 0..%d people and the couples' "
            "members must be residents",
            n_residents, n_hospitals, n_couples, BB_MAX_N);
    return NULL;
  }
  if (single_entries > UINT32_MAX - 1 || couple_entries > (UINT32_MAX - 1) / 2 || hosp_entries > UINT32_MAX - 1) {
    bb_fail(err, BB_ERR_ARG, "%llu, %llu and %llu list entries: at most %u a kind (%u couple pairs)",
            (unsigned long long)single_entries, (unsigned long long)couple_entries, (unsigned long long)hosp_entries,
            UINT32_MAX - 1, (UINT32_MAX - 1) / 2);
    return NULL;
  }
  uint64_t bytes = hrc_bytes(n_residents, n_hospitals, n_couples, single_entries, couple_entries, hosp_entries);
  if (bb_lists_fit(bytes, err) != BB_OK) return NULL;
  bb_hrc *inst = calloc(1, sizeof *inst);
  if (inst) {
    inst->n_residents = n_residents;
    inst->n_hospitals = n_hospitals;
    inst->n_couples = n_couples;
    inst->couple_of = bb_array_new((uint64_t)n_residents + 1, sizeof *inst->couple_of);
    inst->couple_member = bb_array_new((uint64_t)n_couples * 2 + 1, sizeof *inst->couple_member);
    inst->single_start = bb_array_new((uint64_t)n_residents + 1, sizeof *inst->single_start);
    inst->couple_start = bb_array_new((uint64_t)n_couples + 1, sizeof *inst->couple_start);
    inst->hosp_start = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->hosp_start);
    inst->capacity = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->capacity);
    inst->single_list = bb_array_new(single_entries, sizeof(bb_id));
    inst->couple_list = bb_array_new(2 * couple_entries, sizeof(bb_id));
    inst->hosp_list = bb_array_new(hosp_entries, sizeof(bb_id));
  }
  if (!inst || !inst->couple_of || !inst->couple_member || !inst->single_start || !inst->couple_start ||
      !inst->hosp_start || !inst->capacity || !inst->single_list || !inst->couple_list || !inst->hosp_list) {
    bb_hrc_free(inst);
    bb_lists_out_of_memory(bytes, err);
    return NULL;
  }
  for (int r = 0; r < n_residents; r++) inst->couple_of[r] = BB_HRC_SINGLE;
  return inst;
}

void bb_hrc_free(bb_hrc *inst) {
  if (!inst) return;
  free(inst->couple_of);
  free(inst->couple_member);
  free(inst->single_start);
  free(inst->single_list);
  free(inst->couple_start);
  free(inst->couple_list);
  free(inst->hosp_start);
  free(inst->hosp_list);
  free(inst->capacity);
  free(inst->hosp_rank);
  free(inst);
}

bb_status bb_hrc_add_ranks(bb_hrc *inst, bb_error *err) {
  if (inst->hosp_rank) return BB_OK;
  uint64_t entries = inst->hosp_start[inst->n_hospitals];
  inst->hosp_rank = bb_array_new(entries, sizeof *inst->hosp_rank);
  if (!inst->hosp_rank) return bb_lists_out_of_memory(entries * sizeof *inst->hosp_rank, err);
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t e = inst->hosp_start[h]; e < inst->hosp_start[h + 1]; e++)
      inst->hosp_rank[e] = e - inst->hosp_start[h];
  return BB_OK;
}

bool bb_hrc_has_ties(const bb_hrc *inst) {
  if (!inst->hosp_rank) return false;
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t e = inst->hosp_start[h] + 1; e < inst->hosp_start[h + 1]; e++)
      if (inst->hosp_rank[e] == inst->hosp_rank[e - 1]) return true;
  return false;
}

/* Ranks start at 0 and step by 0 (a tie) or 1. */
static bb_status check_ranks(const bb_hrc *inst, bb_error *err) {
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t e = inst->hosp_start[h]; e < inst->hosp_start[h + 1]; e++) {
      uint32_t pos = e - inst->hosp_start[h], rank = inst->hosp_rank[e];
      if (pos == 0 && rank != 0)
        return bb_fail(err, BB_ERR_INPUT, "hospital %d's list: the first rank is %u, not 0", h, rank);
      if (pos > 0 && rank != inst->hosp_rank[e - 1] && rank != inst->hosp_rank[e - 1] + 1)
        return bb_fail(err, BB_ERR_INPUT, "hospital %d's list, position %u: rank %u after rank %u (steps of 0 or 1)", h,
                       pos, rank, inst->hosp_rank[e - 1]);
    }
  return BB_OK;
}

/* Offsets start at 0 and never decrease. */
static bb_status check_offsets(const uint32_t *start, int count, const char *who, bb_error *err) {
  if (start[0] != 0) return bb_fail(err, BB_ERR_INPUT, "%s lists: the first offset is %u, not 0", who, start[0]);
  for (int p = 0; p < count; p++)
    if (start[p + 1] < start[p])
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list: offsets decrease (%u then %u)", who, p, start[p], start[p + 1]);
  return BB_OK;
}

/* Lists of single ids below `other`, nobody twice; `seen` has `other` stamps. */
static bb_status check_lists(const uint32_t *start, const bb_id *list, int count, int other, const char *who,
                             uint32_t *seen, uint32_t *stamp, bb_error *err) {
  bb_status st = check_offsets(start, count, who, err);
  for (int p = 0; st == BB_OK && p < count; p++) {
    uint32_t s = ++*stamp;
    for (uint32_t e = start[p]; e < start[p + 1]; e++) {
      bb_id id = list[e];
      if (id >= (bb_id)other)
        return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %u: id %u is out of range 0..%d", who, p,
                       e - start[p], id, other - 1);
      if (seen[id] == s)
        return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %u: id %u appears twice", who, p, e - start[p], id);
      seen[id] = s;
    }
  }
  return st;
}

static int by_pair(const void *a, const void *b) {
  const bb_id *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* Couples: members are distinct residents, in one couple each, couple_of agrees, members'
 * own lists are empty, joint lists name hospitals in range and no pair twice. */
static bb_status check_couples(const bb_hrc *inst, bb_error *err) {
  int nr = inst->n_residents, nc = inst->n_couples, nh = inst->n_hospitals;
  for (int c = 0; c < nc; c++)
    for (int m = 0; m < 2; m++) {
      int32_t r = inst->couple_member[2 * c + m];
      if (r < 0 || r >= nr)
        return bb_fail(err, BB_ERR_INPUT, "couple %d: member %d is out of range 0..%d", c, r, nr - 1);
      if (m == 1 && r == inst->couple_member[2 * c])
        return bb_fail(err, BB_ERR_INPUT, "couple %d: resident %d is both members", c, r);
      if (inst->couple_of[r] != c)
        return bb_fail(err, BB_ERR_INPUT, "couple %d: member %d has couple_of %d (in another couple, or marked single)",
                       c, r, inst->couple_of[r]);
      if (inst->single_start[r + 1] != inst->single_start[r])
        return bb_fail(err, BB_ERR_INPUT, "resident %d is in couple %d but has an own list of %u hospitals", r, c,
                       inst->single_start[r + 1] - inst->single_start[r]);
    }
  for (int r = 0; r < nr; r++) {
    int32_t c = inst->couple_of[r];
    if (c == BB_HRC_SINGLE) continue;
    if (c < 0 || c >= nc || (inst->couple_member[2 * c] != r && inst->couple_member[2 * c + 1] != r))
      return bb_fail(err, BB_ERR_INPUT, "resident %d: couple_of is %d but that couple does not have him", r, c);
  }
  bb_status st = check_offsets(inst->couple_start, nc, "couple", err);
  uint32_t most = 0;
  for (int c = 0; st == BB_OK && c < nc; c++) {
    uint32_t len = inst->couple_start[c + 1] - inst->couple_start[c];
    if (len > most) most = len;
    for (uint32_t e = inst->couple_start[c]; e < inst->couple_start[c + 1]; e++)
      for (int m = 0; m < 2; m++)
        if (inst->couple_list[2 * e + m] >= (bb_id)nh)
          return bb_fail(err, BB_ERR_INPUT, "couple %d's list, pair %u: hospital %u is out of range 0..%d", c,
                         e - inst->couple_start[c], inst->couple_list[2 * e + m], nh - 1);
  }
  if (st != BB_OK) return st;
  /* A pair twice: sort a copy of each list (lists are short; this is validation only). */
  bb_id *copy = malloc(((size_t)most * 2 + 2) * sizeof *copy);
  if (!copy) return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_validate: out of memory");
  for (int c = 0; st == BB_OK && c < nc; c++) {
    uint32_t first = inst->couple_start[c], len = inst->couple_start[c + 1] - first;
    memcpy(copy, inst->couple_list + 2 * (size_t)first, (size_t)len * 2 * sizeof *copy);
    qsort(copy, len, 2 * sizeof *copy, by_pair);
    for (uint32_t k = 1; k < len; k++)
      if (copy[2 * k] == copy[2 * k - 2] && copy[2 * k + 1] == copy[2 * k - 1]) {
        st = bb_fail(err, BB_ERR_INPUT, "couple %d's list: the pair (%u, %u) appears twice", c, copy[2 * k],
                     copy[2 * k + 1]);
        break;
      }
  }
  free(copy);
  return st;
}

bb_status bb_hrc_validate(const bb_hrc *inst, bb_error *err) {
  if (!inst || !inst->couple_of || !inst->couple_member || !inst->single_start || !inst->couple_start ||
      !inst->hosp_start || !inst->capacity)
    return bb_fail(err, BB_ERR_ARG, "bb_hrc_validate: empty instance");
  if (inst->n_couples < 0 || (int64_t)inst->n_couples * 2 > inst->n_residents)
    return bb_fail(err, BB_ERR_INPUT, "%d couples need %lld residents, there are %d", inst->n_couples,
                   (long long)inst->n_couples * 2, inst->n_residents);
  int most = inst->n_residents > inst->n_hospitals ? inst->n_residents : inst->n_hospitals;
  uint32_t *seen = calloc((size_t)most + 1, sizeof *seen), stamp = 0;
  if (!seen) return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_validate: out of memory");
  bb_status st = check_lists(inst->single_start, inst->single_list, inst->n_residents, inst->n_hospitals, "resident",
                             seen, &stamp, err);
  if (st == BB_OK) {
    memset(seen, 0, ((size_t)most + 1) * sizeof *seen);
    stamp = 0;
    st = check_lists(inst->hosp_start, inst->hosp_list, inst->n_hospitals, inst->n_residents, "hospital", seen, &stamp,
                     err);
  }
  free(seen);
  if (st == BB_OK) st = check_couples(inst, err);
  for (int h = 0; st == BB_OK && h < inst->n_hospitals; h++)
    if (inst->capacity[h] < 0)
      st = bb_fail(err, BB_ERR_INPUT, "hospital %d: capacity %d is negative", h, inst->capacity[h]);
  if (st == BB_OK && inst->hosp_rank) st = check_ranks(inst, err);
  return st;
}
