/* Internal to the native HR constraint (the .c files of smc/hr): the structs behind smc_hr.h's opaque types. */
#ifndef BB_SMC_HR_INTERNAL_H
#define BB_SMC_HR_INTERNAL_H

#include "smc_hr.h"

#include <stdatomic.h>
#include <stdint.h>

/* A list entry whose other side does not list back (a one-sided entry). */
#define BB_SMC_HR_UNRANKED UINT32_MAX

struct bb_smc_hr {
  int nr, nh, cols, base;
  /* Resident r's list: entries res_start[r] .. res_start[r + 1]; entry e names hospital
   * res_hosp[e], which ranks r at position res_pos[e] (UNRANKED when it does not list r). */
  uint32_t *res_start, *res_hosp, *res_pos;
  /* Hospital h's list likewise: hosp_res[f] ranks h at position hosp_rank[f] in his list. */
  uint32_t *hosp_start, *hosp_res, *hosp_rank;
  int32_t *capacity;
  atomic_int refs;
  _Atomic(struct bb_smc_hr_accel *) accel; /* the parallel path's engines, made on first use (smc_hr_accel.c) */
};

/* Frees the parallel path's state (accepts NULL); the data's release calls it. */
void bb_smc_hr_accel_free(struct bb_smc_hr_accel *a);
/* For tests: the parallel runs that answered and the smallest values they raised, for one
 * constraint and over the process (since the last reset). */
void bb_smc_hr_accel_counts(const bb_smc_hr *hr, long long *runs, long long *raised);
void bb_smc_hr_accel_total_counts(long long *runs, long long *raised);
void bb_smc_hr_accel_reset_counts(void);

/* A hospital's memory in a search node. Positions are in the hospital's list; len(h) means
 * "none" for the thresholds. Every threshold only moves one way down a branch. */
typedef struct bb_smc_hr_hosp {
  int32_t proposed_cut; /* the capacity-th best resident who has "proposed" (resident-oriented GS) */
  int32_t proposers;    /* proposers counted while proposed_cut is none */
  int32_t strict_best;  /* the best resident who can only do strictly worse than h: h is full */
  int32_t offer_end;    /* the last position h has "offered" to (hospital-oriented GS), -1: none */
  int32_t offers_alive; /* residents still possible at h among positions 0 .. offer_end */
  int32_t posts_cut;    /* from the posts: nobody past the largest value of the last post */
  int32_t cut;          /* positions past cut have been removed from h */
  int32_t low;          /* positions before low have been removed from h (the first post's minimum) */
} bb_smc_hr_hosp;

struct bb_smc_hr_node {
  int32_t root_done, pad;
  /* followed by: int32_t last_min[nr] (the smallest value of each resident the rules have
   * seen, -1 before the first), bb_smc_hr_hosp hosp[nh], uint64_t gone[] (one bit per resident
   * list entry: the pair has been seen impossible) */
};

struct bb_smc_hr_scratch {
  int *res_queue, res_count;
  uint8_t *res_queued;
  int *hosp_queue, hosp_count;
  uint8_t *hosp_queued, *hosp_external; /* external: a post changed by someone else */
  int32_t *alive, *fixed;               /* a hospital's first capacity + 1 possible and fixed residents */
  int32_t *tail;                        /* its last capacity + 1 possible residents (a ring) */
  int32_t *post_lo, *post_hi;           /* its posts' bounds before a pass */
};

#endif
