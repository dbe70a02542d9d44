/* The state of the HRC local search (hrc_walk.c, used by hrc_polish.c): one deferred
 * acceptance kept from step to step, with the blocking pairs counted incrementally.
 *
 * A move changes a few agents and hospitals; the walk is told about each before it changes
 * (da.watch) and saves its old state in two journals: one since the move began (to undo it)
 * and one since the last checkpoint (to go back to the best matching). After a move or an
 * undo, only the agents whose count can have changed are counted again: those the journal
 * names, and those listing a hospital whose held set looks different to a proposer (its
 * number held, worst and second-worst ranks, worst assignee). Agents are hrc_da_internal.h's:
 * singles 0..nr-1 (couple members skipped) and couples nr + c. */
#ifndef BB_HRC_WALK_H
#define BB_HRC_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "hrc.h"
#include "hrc_da_internal.h"

typedef struct hrcw_journal {
  int32_t *agents, *hosps; /* what was noted, in order */
  int nagents, nhosps;
  uint8_t *agent_seen, *hosp_seen;
  uint32_t *next; /* per agent: the saved state, valid where agent_seen */
  int64_t *cur;
  int32_t *assigned; /* per agent, two: its members' hospitals (a single uses the first) */
  int32_t *nheld;    /* per hospital */
  held *slots;       /* d.slots' layout */
} hrcw_journal;

typedef struct bb_hrcw {
  da d;
  hosp_view *view;           /* per hospital, as of the last count */
  hrcw_journal move, since;  /* since the move began; since the checkpoint */
  int32_t *nblock;           /* per agent: its blocking entries */
  int64_t *first;            /* per agent: its first blocking entry, -1 if none */
  uint8_t *placed;           /* per agent: held an entry at the last count */
  int32_t *blockers, *where; /* agents with nblock > 0, and each one's index there (-1) */
  int nblockers;
  int32_t *todo, *stamp; /* agents to count again, and the pass that queued each */
  int32_t pass;
  uint64_t blocking; /* the sum of nblock: the checker's count of d.assigned */
  int matched;       /* residents d.assigned places */
} bb_hrcw;

/* Loads matching `assigned` (of inst) and counts its blocking pairs; `seed` drives the moves. */
bb_status bb_hrcw_init(bb_hrcw *w, const bb_hrc *inst, const int32_t *assigned, uint64_t seed, bb_error *err);
void bb_hrcw_free(bb_hrcw *w);
/* One move (the previous one committed or undone): a random blocking agent proposes from its
 * first blocking entry and the queue runs to its end. False, with nothing changed, when no
 * agent blocks; false, with the move undone, when the deadline (d.deadline) cut the queue. */
bool bb_hrcw_move(bb_hrcw *w);
/* An LNS move: a random blocking agent, and every agent held by the hospitals it blocks with,
 * lose their places and propose again from the top of their lists. Same results as above. */
bool bb_hrcw_move_free(bb_hrcw *w);
void bb_hrcw_commit(bb_hrcw *w);
void bb_hrcw_undo(bb_hrcw *w);
/* The current matching becomes the checkpoint (after a commit). */
void bb_hrcw_checkpoint(bb_hrcw *w);
/* Back to the checkpoint (after a commit or an undo). */
void bb_hrcw_back(bb_hrcw *w);

#endif
