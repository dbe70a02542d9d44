/* SMTI/HRT instances: allocation, validation, the mutual ranks every algorithm reads. */
#include "ties.h"

#include <stdlib.h>
#include <string.h>

static const char *const stability_names[] = {"weak", "strong", "super"};

const char *bb_ties_stability_name(bb_ties_stability kind) { return (unsigned)kind < 3 ? stability_names[kind] : "?"; }

bool bb_ties_stability_parse(const char *word, bb_ties_stability *kind) {
  for (int k = 0; word && k < 3; k++)
    if (!strcmp(word, stability_names[k])) return *kind = (bb_ties_stability)k, true;
  return false;
}

const char *bb_ties_resident_word(const bb_ties *inst) { return inst->smti ? "man" : "resident"; }
const char *bb_ties_hospital_word(const bb_ties *inst) { return inst->smti ? "woman" : "hospital"; }

bb_ties *bb_ties_new(bool smti, int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries,
                     bb_error *err) {
  if (n_residents < 0 || n_residents > BB_MAX_N || n_hospitals < 0 || n_hospitals > BB_MAX_N) {
    bb_fail(err, BB_ERR_ARG, "%d and %d people: each side must have 0..%d", n_residents, n_hospitals, BB_MAX_N);
    return NULL;
  }
  if (res_entries > UINT32_MAX - 1 || hosp_entries > UINT32_MAX - 1) {
    bb_fail(err, BB_ERR_ARG, "%llu and %llu list entries: at most %u a side", (unsigned long long)res_entries,
            (unsigned long long)hosp_entries, UINT32_MAX - 1);
    return NULL;
  }
  bb_ties *inst = calloc(1, sizeof *inst);
  if (inst) {
    inst->smti = smti;
    inst->n_residents = n_residents;
    inst->n_hospitals = n_hospitals;
    inst->res_start = bb_array_new((uint64_t)n_residents + 1, sizeof *inst->res_start);
    inst->hosp_start = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->hosp_start);
    inst->capacity = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->capacity);
    inst->res_list = bb_array_new(res_entries, sizeof *inst->res_list);
    inst->res_rank = bb_array_new(res_entries, sizeof *inst->res_rank);
    inst->hosp_list = bb_array_new(hosp_entries, sizeof *inst->hosp_list);
    inst->hosp_rank = bb_array_new(hosp_entries, sizeof *inst->hosp_rank);
  }
  if (!inst || !inst->res_start || !inst->hosp_start || !inst->capacity || !inst->res_list || !inst->res_rank ||
      !inst->hosp_list || !inst->hosp_rank) {
    bb_ties_free(inst);
    bb_fail(err, BB_ERR_NOMEM, "out of memory for the preference lists (%llu and %llu entries)",
            (unsigned long long)res_entries, (unsigned long long)hosp_entries);
    return NULL;
  }
  return inst;
}

void bb_ties_free(bb_ties *inst) {
  if (!inst) return;
  free(inst->res_start);
  free(inst->res_list);
  free(inst->res_rank);
  free(inst->hosp_start);
  free(inst->hosp_list);
  free(inst->hosp_rank);
  free(inst->capacity);
  free(inst);
}

/* One side: offsets monotone, ids below `other`, nobody twice, ranks 0 then steps of 0 or 1. */
static bb_status check_side(const uint32_t *start, const bb_id *list, const uint32_t *rank, int count, int other,
                            const char *who, uint32_t *seen, bb_error *err) {
  if (start[0] != 0) return bb_fail(err, BB_ERR_INPUT, "%s lists: the first offset is %u, not 0", who, start[0]);
  /* Every offset first: a list is read only once all of them are known to stay within the
   * last one (the entries' count), which a binary file may contradict. */
  for (int p = 0; p < count; p++)
    if (start[p + 1] < start[p])
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list: offsets decrease (%u then %u)", who, p, start[p], start[p + 1]);
  for (int p = 0; p < count; p++) {
    uint32_t stamp = (uint32_t)p + 1;
    for (uint32_t e = start[p]; e < start[p + 1]; e++) {
      bb_id id = list[e];
      uint32_t pos = e - start[p];
      if (id >= (bb_id)other)
        return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %u: id %u is out of range 0..%d", who, p, pos, id,
                       other - 1);
      if (seen[id] == stamp)
        return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %u: id %u appears twice", who, p, pos, id);
      seen[id] = stamp;
      uint32_t want_low = e == start[p] ? 0 : rank[e - 1], want_high = e == start[p] ? 0 : rank[e - 1] + 1;
      if (rank[e] < want_low || rank[e] > want_high)
        return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %u: rank %u (ranks start at 0 and rise by 0 or 1)",
                       who, p, pos, rank[e]);
    }
  }
  return BB_OK;
}

bb_status bb_ties_validate(const bb_ties *inst, bb_error *err) {
  if (!inst || !inst->res_start || !inst->hosp_start || !inst->capacity)
    return bb_fail(err, BB_ERR_ARG, "bb_ties_validate: empty instance");
  int most = inst->n_residents > inst->n_hospitals ? inst->n_residents : inst->n_hospitals;
  uint32_t *seen = calloc((size_t)most + 1, sizeof *seen);
  if (!seen) return bb_fail(err, BB_ERR_NOMEM, "bb_ties_validate: out of memory");
  bb_status st = check_side(inst->res_start, inst->res_list, inst->res_rank, inst->n_residents, inst->n_hospitals,
                            bb_ties_resident_word(inst), seen, err);
  if (st == BB_OK) {
    memset(seen, 0, ((size_t)most + 1) * sizeof *seen);
    st = check_side(inst->hosp_start, inst->hosp_list, inst->hosp_rank, inst->n_hospitals, inst->n_residents,
                    bb_ties_hospital_word(inst), seen, err);
  }
  free(seen);
  for (int h = 0; st == BB_OK && h < inst->n_hospitals; h++) {
    if (inst->capacity[h] < 0)
      st = bb_fail(err, BB_ERR_INPUT, "%s %d: capacity %d is negative", bb_ties_hospital_word(inst), h,
                   inst->capacity[h]);
    else if (inst->smti && inst->capacity[h] != 1)
      st = bb_fail(err, BB_ERR_INPUT, "woman %d: capacity %d in an SMTI instance (every woman has 1)", h,
                   inst->capacity[h]);
  }
  return st;
}

/* ------------------------------------------------------------ mutual ranks ---- */

typedef struct keyed {
  uint32_t id, rank;
} keyed;

static int by_id(const void *a, const void *b) {
  uint32_t x = ((const keyed *)a)->id, y = ((const keyed *)b)->id;
  return (x > y) - (x < y);
}

/* Each list of one side copied and sorted by id, so the other side finds its rank by binary
 * search: a transpose without a hash table. */
static keyed *sorted_lists(const uint32_t *start, const bb_id *list, const uint32_t *rank, int count) {
  uint64_t total = start[count];
  keyed *k = malloc((size_t)(total ? total : 1) * sizeof *k);
  if (!k) return NULL;
  for (uint64_t e = 0; e < total; e++) k[e] = (keyed){list[e], rank[e]};
  for (int p = 0; p < count; p++) qsort(k + start[p], start[p + 1] - start[p], sizeof *k, by_id);
  return k;
}

static uint32_t find_rank(const keyed *k, uint32_t lo, uint32_t end, uint32_t id) {
  uint32_t hi = end;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (k[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < end && k[lo].id == id ? k[lo].rank : BB_TIES_ONE_SIDED;
}

static bb_status fill(const bb_ties *inst, bool residents, uint32_t *out, bb_error *err) {
  /* out[e] for an entry of one side = the rank the other side gives the pair */
  const uint32_t *ostart = residents ? inst->hosp_start : inst->res_start;
  int ocount = residents ? inst->n_hospitals : inst->n_residents;
  keyed *k = residents ? sorted_lists(inst->hosp_start, inst->hosp_list, inst->hosp_rank, inst->n_hospitals)
                       : sorted_lists(inst->res_start, inst->res_list, inst->res_rank, inst->n_residents);
  if (!k) return bb_fail(err, BB_ERR_NOMEM, "out of memory for the mutual ranks");
  const uint32_t *start = residents ? inst->res_start : inst->hosp_start;
  const bb_id *list = residents ? inst->res_list : inst->hosp_list;
  int count = residents ? inst->n_residents : inst->n_hospitals;
  for (int p = 0; p < count; p++)
    for (uint32_t e = start[p]; e < start[p + 1]; e++) {
      bb_id o = list[e];
      out[e] = (int)o < ocount && ostart[o] < ostart[o + 1] ? find_rank(k, ostart[o], ostart[o + 1], (uint32_t)p)
                                                            : BB_TIES_ONE_SIDED;
    }
  free(k);
  return BB_OK;
}

bb_status bb_ties_mutual_ranks(const bb_ties *inst, uint32_t *res_other, uint32_t *hosp_other, bb_error *err) {
  bb_status st = BB_OK;
  if (res_other) st = fill(inst, true, res_other, err);
  if (st == BB_OK && hosp_other) st = fill(inst, false, hosp_other, err);
  return st;
}
