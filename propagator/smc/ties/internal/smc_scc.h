/* Internal to the native SMTI, HRT and HRC constraints: the strongly connected components of a
 * directed graph that the caller shows one arc at a time (their size rules' S5 and Z5 graphs live
 * in the matching's arrays, so no copy of the graph is built).
 *
 * Tarjan's algorithm (Tarjan 1972 in docs/references.md) without recursion: an explicit call
 * stack and, per node, the next arc slot to look at. Nodes are visited from 0 up and their arcs
 * in slot order, so the same graph gets the same numbers. */
#ifndef BB_SMC_SCC_H
#define BB_SMC_SCC_H

#include <stdbool.h>
#include <stdint.h>

/* Node v's arc slots are arcs(v)'s [*first, *end); head(v, slot) is the node that slot's arc
 * leads to, or -1 when the slot holds no arc (an entry that is no arc of the graph). */
typedef struct bb_smc_scc_graph {
  int n;
  const void *ctx;
  void (*arcs)(const void *ctx, int v, uint32_t *first, uint32_t *end);
  int (*head)(const void *ctx, int v, uint32_t slot);
} bb_smc_scc_graph;

/* The search's work space for graphs of up to n nodes, kept between calls. */
typedef struct bb_smc_scc_work {
  int n;
  int32_t *index, *low, *stack, *calls;
  uint32_t *pos, *end;
} bb_smc_scc_work;

/* false when out of memory (w is then freed). free accepts a zeroed w. */
bool bb_smc_scc_work_new(bb_smc_scc_work *w, int n);
void bb_smc_scc_work_free(bb_smc_scc_work *w);

/* comp[v] (n entries): the number of v's component; returns how many there are. g->n <= w->n. */
int bb_smc_scc(const bb_smc_scc_graph *g, bb_smc_scc_work *w, int32_t *comp);

#endif
