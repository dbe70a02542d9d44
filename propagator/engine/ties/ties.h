/* Ties: SMTI and Hospitals/Residents with Ties (HRT) in the engine (docs/ties.md).
 *
 * The shape of bb_hr (hr.h) with a rank on every list entry: residents rank subsets of the
 * hospitals, hospitals subsets of the residents, entries of equal rank are a tie. SMTI
 * (stable marriage with ties and incomplete lists) is the case where every capacity is 1,
 * men as residents and women as hospitals; `smti` only says which words to use.
 *
 * Resident r's list is res_list[res_start[r] .. res_start[r + 1]) with res_rank[e] the rank
 * of entry e: ranks start at 0 and rise by 0 (the same tie) or 1 (the next tie) along a list,
 * so a rank is the index of the entry's tie group. Hospitals likewise. A pair (r, h) is
 * acceptable only if each lists the other; a one-sided entry never matches and never blocks.
 *
 * Stability (Irving 1994; Irving, Manlove & Scott 2000), for a matching M and an acceptable
 * pair (r, h) not in M. Say r "strictly wants" h when r is unassigned or ranks h better than
 * M(r), and "weakly wants" h when r strictly wants h or ranks h equal to M(r). Say h "strictly
 * wants" r when h is under-subscribed or ranks r better than its worst assignee, and "weakly
 * wants" r when h strictly wants r or ranks r equal to its worst assignee. The pair blocks
 *   weakly:   when r strictly wants h and h strictly wants r;
 *   strongly: when one strictly wants the other and the other weakly wants the first;
 *   super:    when each weakly wants the other.
 * M is weakly (strongly, super-) stable when no pair blocks in that sense. Every instance has a
 * weakly stable matching; strongly and super-stable ones may not exist. */
#ifndef BB_TIES_H
#define BB_TIES_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No hospital (an unassigned resident) in an assignment. */
#define BB_TIES_NONE (-1)
/* Not acceptable: the other side does not list this entry (bb_ties_mutual_ranks). */
#define BB_TIES_ONE_SIDED UINT32_MAX

typedef struct bb_ties {
  bool smti; /* every capacity is 1, men and women */
  int n_residents, n_hospitals;
  uint32_t *res_start; /* n_residents + 1 offsets into res_list and res_rank */
  bb_id *res_list;
  uint32_t *res_rank;
  uint32_t *hosp_start; /* n_hospitals + 1 offsets into hosp_list and hosp_rank */
  bb_id *hosp_list;
  uint32_t *hosp_rank;
  int32_t *capacity; /* n_hospitals */
} bb_ties;

typedef enum bb_ties_stability { BB_TIES_WEAK = 0, BB_TIES_STRONG = 1, BB_TIES_SUPER = 2 } bb_ties_stability;

/* "weak", "strong", "super"; and back (false for any other word). */
const char *bb_ties_stability_name(bb_ties_stability kind);
bool bb_ties_stability_parse(const char *word, bb_ties_stability *kind);

/* "man"/"woman" for SMTI, "resident"/"hospital" for HRT. */
const char *bb_ties_resident_word(const bb_ties *inst);
const char *bb_ties_hospital_word(const bb_ties *inst);

/* Allocates an instance with room for the given list entries (lists and ranks uninitialised,
 * starts and capacities zeroed). BB_ERR_ARG for sizes out of range, BB_ERR_NOMEM. */
bb_ties *bb_ties_new(bool smti, int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries,
                     bb_error *err);
void bb_ties_free(bb_ties *inst); /* accepts NULL */

/* Ids in range, nobody twice in a list, ranks 0, then steps of 0 or 1, capacities >= 0 (1 in
 * SMTI); the message names the first bad list and position. */
bb_status bb_ties_validate(const bb_ties *inst, bb_error *err);

/* For every entry, the other side's rank of the pair, or BB_TIES_ONE_SIDED: res_other has
 * res_start[n_residents] words, hosp_other hosp_start[n_hospitals] (either may be NULL).
 * O(entries log(list length)). */
bb_status bb_ties_mutual_ranks(const bb_ties *inst, uint32_t *res_other, uint32_t *hosp_other, bb_error *err);

/* What the checker found: the count and the first blocking pair (-1, -1 when none). */
typedef struct bb_ties_blocking {
  uint64_t count;
  int32_t first_resident, first_hospital;
} bb_ties_blocking;

/* Checks `assigned` (assigned[r] = hospital of r, or BB_TIES_NONE) is a matching of acceptable
 * pairs within the capacities (BB_ERR_INPUT naming the first defect otherwise), then counts
 * the pairs that block in the sense `kind`, each acceptable pair once. */
bb_status bb_ties_count_blocking(const bb_ties *inst, const int32_t *assigned, bb_ties_stability kind,
                                 bb_ties_blocking *out, bb_error *err);
/* BB_OK when `assigned` is a `kind`-stable matching; BB_ERR_INPUT naming the defect or the
 * first blocking pair (and the count) otherwise. */
bb_status bb_ties_check_stable(const bb_ties *inst, const int32_t *assigned, bb_ties_stability kind, bb_error *err);

/* NULL-terminated algorithm names (da-stb, da-mtb, sic, kiraly) and a line about one. */
const char *const *bb_ties_algorithm_names(void);
const char *bb_ties_algorithm_describe(const char *name);

/* Runs algorithm `algo` on a valid instance: assigned[r] for every resident, a weakly stable
 * matching. `seed` drives the tie-breaking of da-stb, da-mtb and sic (kiraly is
 * deterministic). docs/ties.md describes each. */
bb_status bb_ties_solve(const bb_ties *inst, const char *algo, uint64_t seed, int32_t *assigned, bb_error *err);

/* How da-stb, da-mtb and sic run their deferred acceptance: once the ties are broken the
 * instance is an HR instance, so any algorithm of the HR engine solves it (bb_hr_solve), on
 * the CPU or the GPU. Every one ends in the same matching, the resident-optimal stable matching
 * of the broken instance. */
typedef struct bb_ties_solve_opts {
  uint64_t seed;
  const char *da;                 /* an HR algorithm (bb_hr_algorithm_names); NULL: gs-seq */
  const struct bb_solve_opts *hr; /* its options (threads, GPUs, time limit); NULL: defaults */
} bb_ties_solve_opts;
/* bb_ties_solve with those options; `path`, when not NULL, receives what the deferred
 * acceptance ran on (bb_solve_stats.path; empty for kiraly). BB_ERR_ARG for an unknown
 * `da`, or a `da` given to kiraly, which runs none. */
bb_status bb_ties_solve_with(const bb_ties *inst, const char *algo, const bb_ties_solve_opts *opts, int32_t *assigned,
                             char path[96], bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
