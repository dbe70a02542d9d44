/* Hospitals/Residents with Couples (HRC) in the engine: the instance, the blocking-pair
 * count that defines stability, the couples-aware deferred acceptance.
 *
 * Residents are singles or members of a couple. A single ranks hospitals; a couple submits
 * one joint list over pairs (h1, h2) of hospitals, h1 for its first member and h2 for its
 * second (h1 == h2 allowed: both at one hospital); hospitals rank individual residents and
 * offer capacity[h] >= 0 posts. The definition of stability is Manlove, McBride & Trimble,
 * "'Almost-stable' matchings in the Hospitals/Residents problem with Couples", Constraints
 * 22 (2017), Definition 1; docs/hrc.md states it with its cases and examples.
 *
 * Acceptability follows bb_hr: a single's entry h is acceptable only if h lists him; a
 * couple's entry (h1, h2) only if h1 lists the first member and h2 the second. Entries that
 * are not acceptable stay in the lists (ranks stay the positions the file gave) but are
 * never used.
 *
 * Lists are CSR, favourite first. Resident r's own list (singles only; empty for couple
 * members) is single_list[single_start[r] .. single_start[r + 1]); couple c's joint list is
 * the pairs (couple_list[2k], couple_list[2k + 1]) for k in couple_start[c] ..
 * couple_start[c + 1]; hospital h's list is hosp_list[hosp_start[h] .. hosp_start[h + 1]).
 *
 * Ties (SFAS: hospitals rank residents by a master list of scores with ties): when hosp_rank
 * is not NULL, hosp_rank[e] is the rank of hosp_list[e] in its hospital's list (0 at the head,
 * then steps of 0 or 1: equal ranks are a tie). Residents' and couples' lists stay strict.
 * Every "h prefers r to r'" is then strict (rank of r below rank of r'), so a stable matching
 * is weakly stable (Irving, Manlove & Scott; Biro, Manlove & McBride 2014 for couples):
 * docs/hrc.md. NULL: strict lists, the rank is the position. */
#ifndef BB_HRC_H
#define BB_HRC_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* No hospital (an unassigned resident) in an assignment. */
#define BB_HRC_NONE (-1)
/* Not in a couple (couple_of[r] of a single). */
#define BB_HRC_SINGLE (-1)

typedef struct bb_hrc {
  int n_residents, n_hospitals, n_couples;
  int32_t *couple_of;     /* n_residents: the couple of r, or BB_HRC_SINGLE */
  int32_t *couple_member; /* 2 n_couples: couple c's first and second member */
  uint32_t *single_start; /* n_residents + 1 offsets into single_list */
  bb_id *single_list;
  uint32_t *couple_start; /* n_couples + 1 offsets, counted in pairs, into couple_list */
  bb_id *couple_list;     /* 2 per entry: (first member's hospital, second member's) */
  uint32_t *hosp_start;   /* n_hospitals + 1 offsets into hosp_list */
  bb_id *hosp_list;
  int32_t *capacity;   /* n_hospitals */
  uint32_t *hosp_rank; /* NULL (strict), or per hosp_list entry: its rank, ties equal */
} bb_hrc;

/* Allocates an instance with room for the given list entries (single_entries hospital ids,
 * couple_entries pairs, hosp_entries resident ids): lists uninitialised, starts, capacities
 * and couple_member zeroed, couple_of all BB_HRC_SINGLE. BB_ERR_NOMEM names the bytes;
 * BB_ERR_ARG for sizes out of range (people 0..BB_MAX_N, entries below 2^32 a kind). */
bb_hrc *bb_hrc_new(int n_residents, int n_hospitals, int n_couples, uint64_t single_entries, uint64_t couple_entries,
                   uint64_t hosp_entries, bb_error *err);
void bb_hrc_free(bb_hrc *inst); /* accepts NULL */

/* Gives inst hospitals' ranks (ties), set to the positions (no tie yet): BB_ERR_NOMEM names
 * the bytes. Does nothing when it has them. */
bb_status bb_hrc_add_ranks(bb_hrc *inst, bb_error *err);

/* Where hospital h's list entry e (hosp_start[h] <= e < hosp_start[h + 1]) ranks: its rank
 * with ties, its position without. */
static inline uint32_t bb_hrc_hosp_rank(const bb_hrc *inst, int h, uint32_t e) {
  return inst->hosp_rank ? inst->hosp_rank[e] : e - inst->hosp_start[h];
}

/* Whether some hospital ranks two of its entries alike (hosp_rank set and not the positions). */
bool bb_hrc_has_ties(const bb_hrc *inst);

/* Checks ids in range, every resident in at most one couple and couple_of consistent with
 * couple_member, couple members with empty own lists, no list naming anyone twice (a couple
 * may not list one pair twice), capacities >= 0, hospitals' ranks (when there are) 0 then
 * steps of 0 or 1; the message names the first bad list. */
bb_status bb_hrc_validate(const bb_hrc *inst, bb_error *err);

/* Checks that `assigned` (assigned[r] = hospital of r, or BB_HRC_NONE) is a matching:
 * singles on acceptable entries of their lists, each couple either both unassigned or on
 * one acceptable entry of its joint list, no hospital over capacity; then counts its
 * blocking pairs by the definition (a single with a hospital, a couple with one hospital
 * while one member keeps his place, a couple with a pair of hospitals), each counted once.
 * BB_ERR_INPUT naming the first defect when it is not a matching. */
bb_status bb_hrc_count_blocking(const bb_hrc *inst, const int32_t *assigned, uint64_t *blocking, bb_error *err);

/* BB_OK when `assigned` is a stable matching; BB_ERR_INPUT naming the first defect or the
 * first blocking pair otherwise. */
bb_status bb_hrc_check_stable(const bb_hrc *inst, const int32_t *assigned, bb_error *err);

/* The couples-aware deferred acceptance (hrc_da.c, docs/hrc.md "Deferred acceptance"). */
typedef struct bb_hrc_da_opts {
  int max_rounds;         /* repair rounds of each run (0: the default, 100) */
  uint64_t max_proposals; /* bound on each run's proposals (0: the default, 64 x (entries + 1)) */
  double deadline;        /* bb_now() time to stop at with BB_ERR_TIMEOUT (0: none) */
} bb_hrc_da_opts;

typedef struct bb_hrc_da_stats {
  int rounds;         /* repair rounds run, both runs together */
  uint64_t proposals; /* proposals made, both runs together */
  bool bounded;       /* the last run was stopped by a bound (rounds or proposals) */
} bb_hrc_da_stats;

/* Roth-Peranson style: singles and couples propose down their lists in turn, hospitals hold
 * their best up to capacity, a couple displaced from one member's hospital withdraws the other
 * member and goes on down its list, displaced residents and couples are queued again. Then
 * rounds of repair: every resident or couple that still blocks proposes again from its first
 * blocking entry (all at once; if that ends unstable, a second run from scratch repairs them
 * one at a time). Bounded, so it always ends; deterministic. assigned[r] gets the matching
 * with the fewest blocking pairs seen; *stable and *blocking (either may be NULL) come from
 * bb_hrc_count_blocking. opts and stats may be NULL. The instance must be valid; a hospital's
 * list is read in its order, so ties are broken by position (hrc_ties.h breaks them by a
 * seeded lottery instead) while the counts compare ranks (weak stability). Past
 * opts->deadline it stops with BB_ERR_TIMEOUT (the clock is read between proposals, so a
 * limit holds to a small fraction of a round). */
bb_status bb_hrc_da(const bb_hrc *inst, const bb_hrc_da_opts *opts, int32_t *assigned, bool *stable, uint64_t *blocking,
                    bb_hrc_da_stats *stats, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
