/* Internal to the native SMTI constraint (the .c files of smc/ties): the structs behind smc_ties.h's opaque types. */
#ifndef BB_SMC_TIES_INTERNAL_H
#define BB_SMC_TIES_INTERNAL_H

#include "smc_scc.h"
#include "smc_ties.h"

#include <stdatomic.h>
#include <stdint.h>

/* An entry whose other side does not list back (a one-sided entry: never a value). */
#define BB_SMC_TIES_ONE_SIDED UINT32_MAX

/* One side's lists (men: side 0, women: side 1). Person p's entries are start[p] .. start[p + 1]
 * (position k is entry start[p] + k); entry e names other[e] on the other side, whose entry
 * naming p is twin[e] (an index into the other side's entries, ONE_SIDED when it does not list
 * p); first[e] and last[e] are the positions of the first and last entry tied with e. */
typedef struct bb_smc_ties_side {
  int n;
  uint32_t *start, *other, *twin;
  int32_t *first, *last;
} bb_smc_ties_side;

/* One side from its padded matrices of ids from base (n persons naming ids below `other`): checks
 * lengths within the columns, ids, nobody twice, ranks that never decrease (BB_ERR_INPUT, the
 * message names fn, the person and the matrix), fills start, other, first and last; stamp has
 * room for `other` ints. twins fills a's twins from b's lists. free accepts a zeroed side. */
bool bb_smc_ties_side_build(bb_smc_ties_side *s, const char *fn, const char *who, const char *mat, const char *rank_mat,
                            int n, int other, int base, const int *m, const int *len, int cols, const int *rank,
                            int rank_cols, int32_t *stamp, bb_error *err);
bool bb_smc_ties_side_twins(bb_smc_ties_side *a, const bb_smc_ties_side *b, const char *fn, bb_error *err);
void bb_smc_ties_side_free(bb_smc_ties_side *s);

struct bb_smc_ties {
  int n_men, n_women, base;
  bb_smc_stability stability;
  bb_smc_ties_side side[2];
  atomic_int refs;
};

struct bb_smc_ties_node {
  int32_t root_done;
};

/* One side of the bipartite graph the matching rules walk: the allowed pairs (alive) of the
 * side's entries, the partner of each person (-1: none) and a work area of the other side's size. */
typedef struct bb_smc_ties_graph {
  const bb_smc_ties_side *side;
  uint8_t *alive;   /* per entry of this side: the pair is still allowed */
  int32_t *mate;    /* per person: the partner on the other side, or -1 */
  int32_t *reached; /* per person: the stamp of the last search that reached him */
  int32_t *parent;  /* per person: who reached him in that search */
  int32_t *queue;   /* room for every person of this side */
} bb_smc_ties_graph;

struct bb_smc_ties_scratch {
  int *queue, count; /* persons (variables below n_men + n_women) whose rules must run */
  uint8_t *queued;
  bb_smc_ties_graph g[2]; /* g[0] walks from the men, g[1] from the women */
  int32_t stamp;
  bb_smc_scc_work scc; /* Rule S5's components of the men's graph: comp per man */
  int32_t *comp;
};

/* The person p's side (0: men, 1: women) and index in it. */
static inline int bb_smc_ties_side_of(const bb_smc_ties *t, int var) { return var < t->n_men ? 0 : 1; }

/* smc_ties_size.c: the size rules over domains at the fixpoint of the per-person rules. Sets
 * *changed when a domain shrank (everyone touched is noted in s's queue). */
bb_smc_status bb_smc_ties_size_rules(const bb_smc_ties *t, bb_smc_ties_scratch *s, const bb_smc_domains *d,
                                     bool *changed);
/* Queues variable var (a person) for the per-person rules. */
void bb_smc_ties_push(bb_smc_ties_scratch *s, int var);

#endif
