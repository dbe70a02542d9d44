/* Internal to the HRC constraint's core: the data bb_smc_hrc_new builds. */
#ifndef BB_SMC_HRC_DATA_H
#define BB_SMC_HRC_DATA_H

#include "smc_hrc.h"

/* A "slot" is one position of one hospital's list: hospital h's slots are
 * hosp_start[h] .. hosp_start[h + 1], best first, so within a hospital a smaller slot is a
 * resident it prefers, or, with ties, one it prefers or ranks equal: the slots before
 * bb_smc_hrc_tie_end(d, s) other than s are the residents it ranks at or above s's. Entries are the variables' list entries, var_start[v] .. var_start[v + 1]. */
struct bb_smc_hrc {
  int refs; /* atomic */
  int n_residents, n_hospitals, n_singles, n_couples, n_vars;
  int32_t *single_res;    /* n_singles: the resident behind single variable i */
  int32_t *couple_member; /* 2 n_couples */
  uint32_t *var_start;    /* n_vars + 1 */
  int32_t *e_h1, *e_h2;   /* per entry: hospital (of the first member), second member's (-1 singles) */
  int32_t *e_s1, *e_s2;   /* slots of the resident / members there; -1: not acceptable */
  int32_t *e_x21;         /* couples: slot of the second member at h1 (-1 if h1 does not list him) */
  int32_t *e_x12;         /* couples: slot of the first member at h2 */
  uint32_t *hosp_start;   /* n_hospitals + 1 */
  int32_t *slot_var;      /* variable that places the slot's resident (-1: none) */
  int32_t *slot_member;   /* 0 or 1 for a couple's member, -1 for a single */
  int32_t *slot_entry;    /* a single's entry at this hospital, -1 if none (or a couple) */
  int32_t *slot_hosp;     /* the hospital of the slot */
  int32_t *tie_end;       /* NULL (strict lists), or per slot one past the last slot of its tie */
  int32_t *capacity;
  int longest; /* the longest variable's list */
  int path;    /* bb_smc_path: where the counting pass runs (smc_hrc_path.h's bb_smc_hrc_set_path) */
  _Atomic(struct bb_smc_hrc_accel *)
      accel; /* the GPU / emulated counting engines, made on first use (smc_hrc_accel.c) */
};

/* One past the last slot of s's tie (s + 1 without ties). A hospital wants the resident at s
 * (would take him in a blocking pair) when fewer than its capacity of its assignees lie before
 * that, s aside: those it ranks at or above him, whom it would not give up for him. */
static inline int32_t bb_smc_hrc_tie_end(const bb_smc_hrc *d, int32_t s) { return d->tie_end ? d->tie_end[s] : s + 1; }

void bb_smc_hrc_accel_free(struct bb_smc_hrc_accel *a); /* accepts NULL */

#endif
