/* Internal to the SMC modules (smc_prefs.c, smc.c): the structs behind the opaque types. */
#ifndef BB_SMC_INTERNAL_H
#define BB_SMC_INTERNAL_H

#include "smc.h"

#include <stdatomic.h>
#include <stdint.h>

struct bb_smc_prefs {
  int n, base;
  /* 0-based, row-major n x n: man_choice[i][k] = woman at man i's rank k, man_rank[i][j]
   * = rank of woman j in man i's list; likewise for women. One allocation. */
  int32_t *man_choice, *woman_choice, *man_rank, *woman_rank;
  atomic_int refs;
};

/* What the last propagation saw of each domain (var = man i or n + woman j). lo = -1 and
 * hi = n mean "not seen yet": the first look treats everything outside the domain as
 * removed. */
struct bb_smc_node {
  int n;
  int fresh;      /* no propagation has run on this lineage yet */
  int unassigned; /* variables not yet seen assigned */
  int bounds[];   /* lo[0..2n-1], then hi[0..2n-1] */
};

#endif
