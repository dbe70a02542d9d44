/* HRC deferred acceptance after tie-breaking (hrc_ties.h). */
#include "hrc_ties.h"

#include <string.h>

#include "tie_break.h"

const char *bb_hrc_tie_break_name(bb_hrc_tie_break kind) { return kind == BB_HRC_MTB ? "mtb" : "stb"; }

bb_status bb_hrc_break_ties(const bb_hrc *inst, bb_hrc_tie_break kind, uint64_t seed, bb_hrc **strict, bb_error *err) {
  if (!inst || !strict) return bb_fail(err, BB_ERR_ARG, "bb_hrc_break_ties: NULL argument");
  *strict = NULL;
  int nr = inst->n_residents, nh = inst->n_hospitals, nc = inst->n_couples;
  uint64_t es = inst->single_start[nr], ec = inst->couple_start[nc], eh = inst->hosp_start[nh];
  bb_hrc *out = bb_hrc_new(nr, nh, nc, es, ec, eh, err);
  if (!out) return BB_ERR_NOMEM; /* sizes of a valid instance: only memory can fail */
  memcpy(out->couple_of, inst->couple_of, (size_t)nr * sizeof *out->couple_of);
  memcpy(out->couple_member, inst->couple_member, (size_t)nc * 2 * sizeof *out->couple_member);
  memcpy(out->single_start, inst->single_start, ((size_t)nr + 1) * sizeof *out->single_start);
  memcpy(out->couple_start, inst->couple_start, ((size_t)nc + 1) * sizeof *out->couple_start);
  memcpy(out->hosp_start, inst->hosp_start, ((size_t)nh + 1) * sizeof *out->hosp_start);
  memcpy(out->capacity, inst->capacity, (size_t)nh * sizeof *out->capacity);
  if (es) memcpy(out->single_list, inst->single_list, es * sizeof(bb_id));
  if (ec) memcpy(out->couple_list, inst->couple_list, 2 * ec * sizeof(bb_id));
  if (eh) memcpy(out->hosp_list, inst->hosp_list, eh * sizeof(bb_id));
  /* Resident r's lottery number at hospital h: with stb one number a resident (h ignored). */
  bb_tie_lottery lottery = {
      .seed = seed, .multiple = kind == BB_HRC_MTB, .owner_shift = 32, .id_stride = 0x9E3779B97F4A7C15u};
  if (inst->hosp_rank &&
      !bb_tie_break_lists(inst->hosp_start, inst->hosp_list, inst->hosp_rank, nh, &lottery, out->hosp_list)) {
    bb_hrc_free(out);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_break_ties: out of memory");
  }
  *strict = out;
  return BB_OK;
}

bb_status bb_hrc_da_ties(const bb_hrc *inst, bb_hrc_tie_break kind, uint64_t seed, const bb_hrc_da_opts *opts,
                         int32_t *assigned, bb_hrc_ties_result *result, bb_error *err) {
  if (!inst || !assigned || !result) return bb_fail(err, BB_ERR_ARG, "bb_hrc_da_ties: NULL argument");
  memset(result, 0, sizeof *result);
  bb_hrc *strict = NULL;
  bb_status st = bb_hrc_break_ties(inst, kind, seed, &strict, err);
  if (st == BB_OK)
    st = bb_hrc_da(strict, opts, assigned, &result->stable_broken, &result->blocking_broken, &result->da, err);
  if (st == BB_OK) st = bb_hrc_count_blocking(inst, assigned, &result->blocking, err);
  result->stable = st == BB_OK && result->blocking == 0;
  bb_hrc_free(strict);
  return st;
}
