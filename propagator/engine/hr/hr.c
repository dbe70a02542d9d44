/* SMI/HR instances: allocation, validation, and the words messages use. */
#include "hr.h"

#include <stdlib.h>
#include <string.h>

const char *bb_hr_resident_word(const bb_hr *inst) { return inst->smi ? "man" : "resident"; }
const char *bb_hr_hospital_word(const bb_hr *inst) { return inst->smi ? "woman" : "hospital"; }

uint64_t bb_hr_bytes(int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries) {
  return ((uint64_t)n_residents + 1 + (uint64_t)n_hospitals + 1) * sizeof(uint32_t) +
         (uint64_t)n_hospitals * sizeof(int32_t) + (res_entries + hosp_entries) * sizeof(bb_id);
}

bb_hr *bb_hr_new(bool smi, int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries,
                 bb_error *err) {
  if (n_residents < 0 || n_residents > BB_MAX_N || n_hospitals < 0 || n_hospitals > BB_MAX_N) {
    bb_fail(err, BB_ERR_ARG, "%d %s and %d %s: each side must have 0..%d people", n_residents,
            smi ? "men" : "residents", n_hospitals, smi ? "women" : "hospitals", BB_MAX_N);
    return NULL;
  }
  if (res_entries > UINT32_MAX - 1 || hosp_entries > UINT32_MAX - 1) {
    bb_fail(err, BB_ERR_ARG, "%llu and %llu list entries: at most %u a side", (unsigned long long)res_entries,
            (unsigned long long)hosp_entries, UINT32_MAX - 1);
    return NULL;
  }
  uint64_t bytes = bb_hr_bytes(n_residents, n_hospitals, res_entries, hosp_entries);
  if (bb_lists_fit(bytes, err) != BB_OK) return NULL;
  bb_hr *inst = calloc(1, sizeof *inst);
  if (inst) {
    inst->smi = smi;
    inst->n_residents = n_residents;
    inst->n_hospitals = n_hospitals;
    inst->res_entries = res_entries;
    inst->hosp_entries = hosp_entries;
    inst->res_start = bb_array_new((uint64_t)n_residents + 1, sizeof *inst->res_start);
    inst->hosp_start = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->hosp_start);
    inst->capacity = bb_array_new((uint64_t)n_hospitals + 1, sizeof *inst->capacity);
    inst->res_list = bb_array_new(res_entries, sizeof *inst->res_list);
    inst->hosp_list = bb_array_new(hosp_entries, sizeof *inst->hosp_list);
  }
  if (!inst || !inst->res_start || !inst->hosp_start || !inst->capacity || !inst->res_list || !inst->hosp_list) {
    bb_hr_free(inst);
    bb_lists_out_of_memory(bytes, err);
    return NULL;
  }
  return inst;
}

void bb_hr_free(bb_hr *inst) {
  if (!inst) return;
  free(inst->res_start);
  free(inst->res_list);
  free(inst->hosp_start);
  free(inst->hosp_list);
  free(inst->capacity);
  free(inst);
}

/* One side's lists: offsets monotone, ids below `other`, nobody twice in a list. `seen` has
 * `other` stamps below *stamp. */
static bb_status check_side(const uint32_t *start, const bb_id *list, uint64_t entries, int count, int other,
                            const char *who, uint32_t *seen, uint32_t *stamp, bb_error *err) {
  if (start[0] != 0) return bb_fail(err, BB_ERR_INPUT, "%s lists: the first offset is %u, not 0", who, start[0]);
  for (int p = 0; p < count; p++) {
    if (start[p + 1] < start[p])
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list: offsets decrease (%u then %u)", who, p, start[p], start[p + 1]);
    if (start[p + 1] > entries)
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list ends at offset %u, past the %llu entries allocated", who, p,
                     start[p + 1], (unsigned long long)entries);
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
  return BB_OK;
}

bb_status bb_hr_validate(const bb_hr *inst, bb_error *err) {
  if (!inst || !inst->res_start || !inst->hosp_start || !inst->capacity)
    return bb_fail(err, BB_ERR_ARG, "bb_hr_validate: empty instance");
  int most = inst->n_residents > inst->n_hospitals ? inst->n_residents : inst->n_hospitals;
  uint32_t *seen = calloc((size_t)most + 1, sizeof *seen), stamp = 0;
  if (!seen) return bb_fail(err, BB_ERR_NOMEM, "bb_hr_validate: out of memory");
  bb_status st = check_side(inst->res_start, inst->res_list, inst->res_entries, inst->n_residents, inst->n_hospitals,
                            bb_hr_resident_word(inst), seen, &stamp, err);
  if (st == BB_OK) {
    memset(seen, 0, ((size_t)most + 1) * sizeof *seen);
    stamp = 0;
    st = check_side(inst->hosp_start, inst->hosp_list, inst->hosp_entries, inst->n_hospitals, inst->n_residents,
                    bb_hr_hospital_word(inst), seen, &stamp, err);
  }
  free(seen);
  for (int h = 0; st == BB_OK && h < inst->n_hospitals; h++) {
    if (inst->capacity[h] < 0)
      st = bb_fail(err, BB_ERR_INPUT, "hospital %d: capacity %d is negative", h, inst->capacity[h]);
    else if (inst->smi && inst->capacity[h] != 1)
      st = bb_fail(err, BB_ERR_INPUT, "woman %d: capacity %d in an SMI instance (every woman has 1)", h,
                   inst->capacity[h]);
  }
  return st;
}
