/* HRC with ties on the hospitals' side (SFAS; docs/hrc.md "Ties on the hospitals' side"):
 * deferred acceptance after tie-breaking.
 *
 * bb_hrc_da reads each hospital's list in its order. Breaking every tie by a strict order
 * gives a strict instance whose stable matchings are weakly stable in the tied one: a pair
 * that blocks in the tied instance has a hospital that strictly prefers, and the broken list
 * keeps every strict preference (Irving, Manlove & Scott for HRT; the couples' cases compare
 * ranks the same way, Biro, Manlove & McBride 2014). The matching is then judged against the
 * tied instance, where it may have fewer blocking pairs than on the broken one, never more. */
#ifndef BB_HRC_TIES_H
#define BB_HRC_TIES_H

#include "hrc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Single tie-breaking: one random order of the residents shared by every hospital; multiple:
 * each hospital its own. */
typedef enum bb_hrc_tie_break { BB_HRC_STB = 0, BB_HRC_MTB = 1 } bb_hrc_tie_break;

const char *bb_hrc_tie_break_name(bb_hrc_tie_break kind); /* "stb" or "mtb" */

/* A strict copy of inst (hosp_rank NULL): within each tie, a hospital's residents ordered by
 * lottery numbers drawn from `seed` (per resident with stb, per hospital and resident with
 * mtb); strict preferences kept. The same seed gives the same copy. BB_ERR_NOMEM. */
bb_status bb_hrc_break_ties(const bb_hrc *inst, bb_hrc_tie_break kind, uint64_t seed, bb_hrc **strict, bb_error *err);

typedef struct bb_hrc_ties_result {
  bool stable_broken;       /* bb_hrc_da's matching is stable on the broken instance */
  uint64_t blocking_broken; /* its blocking pairs there */
  bool stable;              /* weakly stable in the tied instance */
  uint64_t blocking;        /* its blocking pairs there (bb_hrc_count_blocking) */
  bb_hrc_da_stats da;
} bb_hrc_ties_result;

/* Breaks the ties (bb_hrc_break_ties), runs bb_hrc_da (opts may be NULL) on the strict copy,
 * and counts the matching's blocking pairs in inst. inst must be valid; a strict inst is
 * solved as it is (nothing to break). */
bb_status bb_hrc_da_ties(const bb_hrc *inst, bb_hrc_tie_break kind, uint64_t seed, const bb_hrc_da_opts *opts,
                         int32_t *assigned, bb_hrc_ties_result *result, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
