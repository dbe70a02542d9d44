/* Internal to the native HRT constraint (smc_hrt_*.c): the structs behind smc_hrt.h's opaque types. */
#ifndef BB_SMC_HRT_INTERNAL_H
#define BB_SMC_HRT_INTERNAL_H

#include "smc_capmatch.h"
#include "smc_hrt.h"
#include "smc_ties_internal.h" /* the lists' layout, bb_smc_ties_side */

/* side[0]: the residents' lists, side[1]: the hospitals'. */
struct bb_smc_ties_hrt {
  int nr, nh, base;
  bb_smc_stability stability;
  bb_smc_ties_side side[2];
  int32_t *capacity;
  atomic_int refs;
};

struct bb_smc_ties_hrt_node {
  int32_t root_done;
};

struct bb_smc_ties_hrt_scratch {
  int *queue, count; /* hospitals whose rules must run */
  uint8_t *queued;
  /* One hospital's pass, per position of its list: possible[t] (1 if the resident there may be
   * at h), and the prefix sums of the possible and the fixed (index t + 1: positions 0..t). */
  uint8_t *possible, *fixed;
  int32_t *poss_prefix, *fixed_prefix;
  /* Per position: the threshold of the resident's demand on h (smc_hrt_propagate.c), and the
   * number of demands per threshold (index threshold + 1), summed into "thresholds below". */
  int32_t *threshold, *below;
  /* The size rules' capacitated matching (smc_hrt_size.c): room[h] = min(capacity, load's
   * maximum), alive per resident entry. */
  bb_smc_capmatch match;
};

/* smc_hrt_size.c: the size rules, as bb_smc_ties_size_rules; *changed when a resident or load
 * shrank (their hospitals are queued). */
bb_smc_status bb_smc_ties_hrt_size_rules(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d,
                                         bool *changed);
/* Queues hospital h; and every hospital of resident r's list. */
void bb_smc_ties_hrt_push(bb_smc_ties_hrt_scratch *s, int h);
void bb_smc_ties_hrt_push_lists(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int r);

#endif
