/* The one host contract of the stable-matching cores (SM/SMI in smc.h, HR in hr/smc_hr.h,
 * HRC in hrc/smc_hrc.h): how a core reads and narrows the host solver's domains. Each core
 * numbers its variables (its header says how) and sees values as 0-based ranks: the host
 * absorbs the model's base once (Gecode: Int::OffsetView, shim/smc_domains.hh). A core uses
 * the callbacks it needs and says which; a host fills them all (the optional ones may be
 * NULL). Modifiers return (smc_status.h) BB_SMC_FAILED when the domain becomes empty (the
 * constraint then fails), BB_SMC_CHANGED when it shrank, BB_SMC_FIX when nothing changed,
 * as Gecode's ModEvent does. */
#ifndef BB_SMC_DOMAINS_H
#define BB_SMC_DOMAINS_H

#include <stdbool.h>

#include "smc_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_smc_domains {
  void *ctx;
  int (*min)(void *ctx, int var);
  int (*max)(void *ctx, int var);
  int (*size)(void *ctx, int var);
  bool (*contains)(void *ctx, int var, int value);
  /* Writes the values ascending into out (room for the domain's size); returns how many. */
  int (*values)(void *ctx, int var, int *out);
  bb_smc_status (*remove)(void *ctx, int var, int value);
  bb_smc_status (*lower_max)(void *ctx, int var, int value); /* var <= value */
  bb_smc_status (*raise_min)(void *ctx, int var, int value); /* var >= value */
  bb_smc_status (*assign)(void *ctx, int var, int value);
  /* Removes lo..hi (a run of ranks); the HR core's way to drop a stretch of a list. */
  bb_smc_status (*remove_range)(void *ctx, int var, int lo, int hi);
  /* Bulk: values ascending and distinct; absent ones are ignored. */
  bb_smc_status (*remove_values)(void *ctx, int var, const int *values, int count);
  bb_smc_status (*keep_values)(void *ctx, int var, const int *values, int count);
  /* Optional, by ranges (NULL: the core uses values / keep_values / remove_values). A range
   * list is `count` lo, hi pairs, ascending, disjoint and not adjacent (maximal runs). ranges
   * writes var's domain so into out (room for n + 1 ints: n ranks make at most (n + 1) / 2
   * ranges) and returns count; keep_ranges and remove_ranges are the bulk updates. A host
   * that stores ranges (Gecode) then reads and writes a domain in one pass over its ranges
   * instead of value by value (the root's gather and write-back were dominated by it). */
  int (*ranges)(void *ctx, int var, int *out);
  bb_smc_status (*keep_ranges)(void *ctx, int var, const int *pairs, int count);
  bb_smc_status (*remove_ranges)(void *ctx, int var, const int *pairs, int count);
  /* Optional: the smallest value of var's domain above `value`, or INT_MAX when there is none.
   * A proposer's next rank is usually the value after its domain's minimum, which a host that
   * keeps ranges finds in a step or two, where reading the whole domain walks every range
   * (smc_delta.c). NULL: the core reads the domain's ranges. */
  int (*next)(void *ctx, int var, int value);
} bb_smc_domains;

#ifdef __cplusplus
}
#endif
#endif
