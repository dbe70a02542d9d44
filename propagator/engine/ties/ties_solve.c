/* bb_ties_solve: the algorithms by name, and deferred acceptance with tie-breaking.
 *
 * Breaking every tie by a strict order turns the instance into an HR (SMI) one whose stable
 * matchings are all weakly stable in the original: a pair that blocks weakly strictly
 * prefers both ways, which the broken lists keep. The broken instance goes to the strict
 * engine's bb_hr_solve (resident-proposing). */
#include <stdio.h>
#include <string.h>

#include "hr.h"
#include "ties.h"
#include "ties_algos.h"
#include "tie_break.h"

#define TIES_ALGOS(X)                                                                                          \
  X("da-stb", "deferred acceptance after single tie-breaking: one random order of each side for everybody")    \
  X("da-mtb", "deferred acceptance after multiple tie-breaking: every agent breaks its ties by its own order") \
  X("sic", "da-stb, then Erdil-Ergin stable improvement cycles until none is left (constrained efficient)")    \
  X("kiraly", "Kiraly's 3/2-approximation of the largest weakly stable matching (deterministic)")

static const char *const names[] = {
#define TIES_NAME(name, text) name,
    TIES_ALGOS(TIES_NAME)
#undef TIES_NAME
        NULL};

const char *const *bb_ties_algorithm_names(void) { return names; }

const char *bb_ties_algorithm_describe(const char *name) {
#define TIES_TEXT(id, text) \
  if (name && strcmp(name, id) == 0) return text;
  TIES_ALGOS(TIES_TEXT)
#undef TIES_TEXT
  return NULL;
}

/* Breaks one side's ties (side 0 the residents', 1 the hospitals'; single tie-breaking gives every
 * owner of a side that side's order). */
static bool break_side(const uint32_t *start, const bb_id *list, const uint32_t *rank, int count, int side,
                       bool multiple, uint64_t seed, bb_id *out) {
  bb_tie_lottery lottery = {
      .seed = seed ^ ((uint64_t)side << 62), .multiple = multiple, .owner_shift = 24, .id_stride = 2};
  return bb_tie_break_lists(start, list, rank, count, &lottery, out);
}

bb_status bb_ties_da(const bb_ties *in, bool multiple, const bb_ties_solve_opts *opts, int32_t *assigned, char path[96],
                     bb_error *err) {
  uint64_t seed = opts->seed;
  uint64_t er = in->res_start[in->n_residents], eh = in->hosp_start[in->n_hospitals];
  bb_hr *hr = bb_hr_new(in->smti, in->n_residents, in->n_hospitals, er, eh, err);
  if (!hr) return BB_ERR_NOMEM;
  memcpy(hr->res_start, in->res_start, ((size_t)in->n_residents + 1) * sizeof(uint32_t));
  memcpy(hr->hosp_start, in->hosp_start, ((size_t)in->n_hospitals + 1) * sizeof(uint32_t));
  memcpy(hr->capacity, in->capacity, (size_t)in->n_hospitals * sizeof(int32_t));
  bb_status st = BB_OK;
  if (!break_side(in->res_start, in->res_list, in->res_rank, in->n_residents, 0, multiple, seed, hr->res_list) ||
      !break_side(in->hosp_start, in->hosp_list, in->hosp_rank, in->n_hospitals, 1, multiple, seed, hr->hosp_list))
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory for the tie-breaking");
  bb_solve_stats stats = {0};
  if (st == BB_OK)
    st = bb_hr_solve(hr, opts->da ? opts->da : "gs-seq", BB_HR_RESIDENT_OPTIMAL, opts->hr, assigned, &stats, err);
  if (st == BB_OK && path) snprintf(path, 96, "%s", stats.path);
  bb_hr_free(hr);
  return st;
}

bb_status bb_ties_solve(const bb_ties *in, const char *algo, uint64_t seed, int32_t *assigned, bb_error *err) {
  bb_ties_solve_opts opts = {.seed = seed};
  return bb_ties_solve_with(in, algo, &opts, assigned, NULL, err);
}

bb_status bb_ties_solve_with(const bb_ties *in, const char *algo, const bb_ties_solve_opts *opts, int32_t *assigned,
                             char path[96], bb_error *err) {
  if (!in || !assigned || !opts) return bb_fail(err, BB_ERR_ARG, "bb_ties_solve: NULL argument");
  if (path) path[0] = 0;
  if (!bb_ties_algorithm_describe(algo))
    return bb_fail(err, BB_ERR_ARG, "unknown algorithm '%s' for ties: da-stb, da-mtb, sic or kiraly",
                   algo ? algo : "(null)");
  if (opts->da && !bb_hr_algorithm_describe(opts->da))
    return bb_fail(err, BB_ERR_ARG,
                   "unknown deferred acceptance '%s' for ties: an HR algorithm (gs-seq, mw-par, "
                   "gpu-la-min or bamboo)",
                   opts->da);
  if (!strcmp(algo, "kiraly")) {
    if (opts->da) return bb_fail(err, BB_ERR_ARG, "kiraly runs no deferred acceptance: it takes no '%s'", opts->da);
    return bb_ties_kiraly(in, assigned, err);
  }
  bb_status st = bb_ties_da(in, !strcmp(algo, "da-mtb"), opts, assigned, path, err);
  if (st == BB_OK && !strcmp(algo, "sic")) st = bb_ties_sic(in, assigned, err);
  return st;
}
