/* Incomplete lists and capacities: SMI and Hospitals/Residents in the engine.
 *
 * One representation serves both: residents rank subsets of the hospitals, hospitals rank
 * subsets of the residents, hospital h offers capacity[h] >= 0 posts. SMI (stable marriage
 * with incomplete lists) is the case where every capacity is 1, with men as residents and
 * women as hospitals; `smi` only says which words (and file header) to use.
 *
 * A pair (r, h) is acceptable only if each lists the other; an entry on one side only is
 * kept in the lists (so ranks stay the positions the file gave) but never matched. A
 * matching assigns each resident at most one acceptable hospital and each hospital at most
 * its capacity. It is stable when no acceptable pair (r, h) blocks: r unassigned or
 * preferring h, and h under-subscribed or preferring r to its worst assignee.
 *
 * Lists are CSR (large incomplete instances are sparse): resident r's list is
 * res_list[res_start[r] .. res_start[r + 1]), favourite first; likewise for hospitals. */
#ifndef BB_HR_H
#define BB_HR_H

#include <stdbool.h>

#include "solve.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No hospital (an unassigned resident) in an assignment. */
#define BB_HR_NONE (-1)

typedef struct bb_hr {
  bool smi; /* an SMI instance: every capacity is 1, men and women */
  int n_residents, n_hospitals;
  uint32_t *res_start; /* n_residents + 1 offsets into res_list */
  bb_id *res_list;
  uint32_t *hosp_start; /* n_hospitals + 1 offsets into hosp_list */
  bb_id *hosp_list;
  int32_t *capacity;                  /* n_hospitals */
  uint64_t res_entries, hosp_entries; /* the entries allocated (bb_hr_new): what offsets may reach */
} bb_hr;

/* Words for messages: "man"/"woman" for SMI, "resident"/"hospital" for HR. */
const char *bb_hr_resident_word(const bb_hr *inst);
const char *bb_hr_hospital_word(const bb_hr *inst);

/* Allocates an instance with room for the given numbers of list entries (uninitialised
 * lists; starts and capacities zeroed). BB_ERR_NOMEM names the bytes; BB_ERR_ARG for sizes
 * outside 0..BB_MAX_N people or 2^32 - 1 entries a side. */
bb_hr *bb_hr_new(bool smi, int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries,
                 bb_error *err);
void bb_hr_free(bb_hr *inst); /* accepts NULL */
uint64_t bb_hr_bytes(int n_residents, int n_hospitals, uint64_t res_entries, uint64_t hosp_entries);

/* Checks offsets start at 0, never decrease and stay within the entries allocated, ids are in
 * range, no list names anyone twice, capacities are >= 0 and the capacities of SMI are 1; the
 * message names the first bad list. */
bb_status bb_hr_validate(const bb_hr *inst, bb_error *err);

/* Number of acceptable pairs (both lists name each other). */
uint64_t bb_hr_acceptable_pairs(const bb_hr *inst);

/* Checks `assigned` (assigned[r] = hospital of resident r, or BB_HR_NONE) is a matching of
 * acceptable pairs within the capacities with no blocking pair. O(entries log(list length))
 * time, independent of the solvers' data structures. The message names the first defect. */
bb_status bb_hr_check_stable(const bb_hr *inst, const int32_t *assigned, bb_error *err);

/* Which optimal stable matching to compute. */
typedef enum bb_hr_side {
  BB_HR_RESIDENT_OPTIMAL = 0, /* men/residents propose (the default) */
  BB_HR_HOSPITAL_OPTIMAL = 1  /* women/hospitals propose */
} bb_hr_side;

/* NULL-terminated names of the algorithms for incomplete lists, and a line about one. */
const char *const *bb_hr_algorithm_names(void);
const char *bb_hr_algorithm_describe(const char *name);

/* Solves a valid instance: assigned[r] for every resident. Every algorithm returns the same
 * (unique) optimal stable matching of the chosen side. opts and stats may be NULL. */
bb_status bb_hr_solve(const bb_hr *inst, const char *algo, bb_hr_side side, const bb_solve_opts *opts,
                      int32_t *assigned, bb_solve_stats *stats, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
