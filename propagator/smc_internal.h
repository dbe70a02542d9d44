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
  /* The PRMatrix idea of seed 000, for both sides: man_partner_rank[i][k] = the rank woman
   * man_choice[i][k] gives man i. Walking a list then reads one row sequentially. */
  int32_t *man_partner_rank, *woman_partner_rank;
  atomic_int refs;
};

/* The same pair seen from the other side: (var, rank) -> (partner var, partner's rank),
 * one row of the lists and one of the partner-rank matrices. */
static inline void bb_smc_pair_partner(const bb_smc_prefs *p, int var, int rank, int *partner,
                                       int *partner_rank) {
  size_t n = (size_t)p->n;
  if (var < p->n) {
    size_t cell = (size_t)var * n + (size_t)rank;
    *partner = p->n + p->man_choice[cell];
    *partner_rank = p->man_partner_rank[cell];
  } else {
    size_t cell = (size_t)(var - p->n) * n + (size_t)rank;
    *partner = p->woman_choice[cell];
    *partner_rank = p->woman_partner_rank[cell];
  }
}

/* What the last propagation saw of each domain (var = man i or n + woman j). lo = -1 and
 * hi = n mean "not seen yet": the first look treats everything outside the domain as
 * removed. */
struct bb_smc_node {
  int n;
  int fresh;      /* no propagation has run on this lineage yet */
  int unassigned; /* variables not yet seen assigned */
  int bounds[];   /* lo[0..2n-1], then hi[0..2n-1] */
};

/* One pending channel removal: `value` leaves variable `var`'s domain at the next flush. */
typedef struct pending {
  int value, next;
} pending;

typedef struct inner_range {
  int var, lo, hi;
} inner_range;

struct bb_smc_scratch {
  int n;
  int *stack, stack_len;     /* variables to examine, each at most once */
  uint8_t *queued;
  int *unknown, unknown_len; /* variables whose inner removals must be found by a scan */
  uint8_t *is_unknown;
  inner_range *ranges;       /* inner removals the host told precisely */
  size_t ranges_len, ranges_cap;
  pending *items;            /* channel removals by variable: linked lists from head[] */
  size_t items_len, items_cap;
  int *head, *touched, touched_len;
  int *values;               /* n ints of room for a domain or a sorted removal list */
  int *lb, *ub;              /* smc_root.c: bounds while the first propagation runs */
  uint8_t *holes;            /* smc_root.c: the domain is not an interval */
};

/* smc_root.c: the first propagation of a fresh node (seed 003's init()) as one batch:
 * extended Gale-Shapley with pointers over local bounds, then one bulk write-back per
 * variable. Leaves node's bounds set for every variable and the variables that ended
 * assigned in s->unknown[0..s->unknown_len) (smc.c applies marriage to them). Returns
 * false when a domain empties. */
bool bb_smc_root_batch(const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_node *node,
                       bb_smc_scratch *s, const bb_smc_domains *d, bb_smc_counters *c);

#endif
