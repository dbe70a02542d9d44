/* Internal to the native HRT and HRC constraints' size rules (smc_hrt_size.c, smc_hrc_size.c): a
 * maximum capacitated matching of a bipartite graph of residents and hospitals, hospital h seen
 * as room[h] posts, kept in the propagator's work space from one propagation to the next, and
 * the marks their rules read off it (Dulmage-Mendelsohn, as smc_hrt_size.c's S5 explains):
 * the residents some maximum matching leaves free, the residents and hospitals an even
 * alternating path joins to a free post, and the alternating cycles.
 *
 * The augmenting paths are breadth-first searches through full hospitals and their assignees;
 * within one pass a failed search's tree is Hungarian, which no later augmenting path of the pass
 * meets (Edmonds 1965 in docs/references.md), so the pass skips it: without that every free
 * resident would search the whole graph again, O(free residents x entries) per propagation. */
#ifndef BB_SMC_CAPMATCH_H
#define BB_SMC_CAPMATCH_H

#include "smc_scc.h"

#include <stdbool.h>
#include <stdint.h>

/* A hospital entry whose resident does not name the hospital back. */
#define BB_SMC_CAPMATCH_NO_ENTRY UINT32_MAX

/* The graph's lists, the caller's (they outlive the matching). A resident may stand more than
 * once in a hospital's list (a couple's member naming it in two pairs). */
typedef struct bb_smc_capmatch_graph {
  int nr, nh;
  const uint32_t *res_start;  /* nr + 1: resident r's entries res_start[r] .. res_start[r + 1] */
  const uint32_t *res_hosp;   /* per resident entry: its hospital */
  const uint32_t *hosp_start; /* nh + 1: hospital h's entries */
  const uint32_t *hosp_res;   /* per hospital entry: its resident */
  const uint32_t *hosp_entry; /* per hospital entry: the resident entry naming h, or NO_ENTRY */
} bb_smc_capmatch_graph;

typedef struct bb_smc_capmatch {
  bb_smc_capmatch_graph g;
  uint8_t *alive;                      /* per resident entry, set by the caller: the edge is in the graph */
  int32_t *room;                       /* per hospital, set by the caller: its posts */
  int32_t *hosp_of;                    /* per resident: his hospital in the matching, -1 for none */
  int32_t *held;                       /* per hospital: how many residents the matching gives it */
  int32_t *res_reached, *hosp_reached; /* the searches' marks: the stamp of the last one there */
  int32_t *hosp_parent, *bfs;
  int32_t stamp;
  bb_smc_scc_work scc; /* the alternating cycles' components: resident r node r, hospital h nr + h */
  int32_t *comp;
} bb_smc_capmatch;

/* An empty matching over g (copied: its arrays stay the caller's); false when out of memory (m
 * is then freed). free accepts a zeroed m. */
bool bb_smc_capmatch_new(bb_smc_capmatch *m, const bb_smc_capmatch_graph *g);
void bb_smc_capmatch_free(bb_smc_capmatch *m);

/* A stamp newer than every mark (the marks are cleared when the stamps run out). */
int32_t bb_smc_capmatch_stamp(bb_smc_capmatch *m);

/* After the caller set alive and room: the kept matching loses the edges no longer alive and
 * the residents past a hospital's room. */
void bb_smc_capmatch_keep(bb_smc_capmatch *m);

/* Makes the matching cover every resident forced(ctx, r) names, from the kept one or from it
 * restricted to them; false when no matching does. */
bool bb_smc_capmatch_cover(bb_smc_capmatch *m, bool (*forced)(const void *ctx, int r), const void *ctx);

/* Augments the matching to a maximum one; returns its size. */
int bb_smc_capmatch_maximum(bb_smc_capmatch *m);

/* On a maximum matching: marks (res_reached = the stamp returned) the residents some maximum
 * matching leaves free, those an even alternating path joins to a free resident. */
int32_t bb_smc_capmatch_missable(bb_smc_capmatch *m);

/* On a maximum matching, after missable's marks (stamp `missed`): marks (res_reached =
 * hosp_reached = the stamp returned) the movable residents and the hospitals with room to give,
 * those an even alternating path joins to a free post, and numbers the components of the graph
 * with an arc r -> h for each alive edge outside the matching into a hospital with room, and
 * h -> y for each assignee y of h. Returns 0 when the marks were just cleared (missed is lost):
 * then there is nothing to read until the next propagation. */
int32_t bb_smc_capmatch_pair_marks(bb_smc_capmatch *m, int32_t missed);

/* After pair_marks (its stamp room_stamp): whether resident r's entry e is an alive edge outside
 * the matching that no maximum matching uses: its hospital has no room, or r is not missable,
 * not (movable with the hospital having room to give) and not on an alternating cycle with it. */
static inline bool bb_smc_capmatch_unused(const bb_smc_capmatch *m, int32_t missed, int32_t room_stamp, int r,
                                          uint32_t e) {
  int h = (int)m->g.res_hosp[e];
  if (!m->alive[e] || h == m->hosp_of[r]) return false;
  bool in_some =
      m->room[h] > 0 && (m->res_reached[r] == missed                                              /* missable */
                         || (m->res_reached[r] == room_stamp && m->hosp_reached[h] == room_stamp) /* movable */
                         || m->comp[r] == m->comp[m->g.nr + h]);                                  /* a cycle */
  return !in_some;
}

#endif
