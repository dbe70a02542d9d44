/* The couples-aware deferred acceptance's state (hrc_da.c), shared with the randomised runs of
 * the portfolio (hrc_portfolio.c) and its local search (hrc_polish.c).
 *
 * Every field is a flat array indexed by hospital, agent, resident or list entry, plus a few
 * scalars (the queue's ends, the counters, the random state): no pointer chasing and no
 * allocation once bb_hrcda_init returns, so many copies could live side by side in one buffer.
 *
 * Agents are singles (ids 0..nr-1, couple members skipped) and couples (nr + c). */
#ifndef BB_HRC_DA_INTERNAL_H
#define BB_HRC_DA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "hrc.h"

typedef struct held {
  int32_t resident, rank;
} held;

struct bb_hrcw;

typedef struct da {
  const bb_hrc *in;
  int nr, nagents;
  int32_t *srank;  /* per single entry: the hospital's rank of the resident, -1 unacceptable */
  int32_t *crank;  /* per couple entry, two: the hospitals' ranks of the members */
  uint32_t *slot0; /* n_hospitals + 1: where each hospital's held array starts */
  held *slots;
  int32_t *nheld, *room; /* room: min(capacity, list length), what can ever be held */
  uint32_t *next;        /* per agent: the next entry to propose */
  int64_t *cur;          /* per agent: the entry held, -1 if none */
  int32_t *assigned;
  int32_t *queue; /* ring of nagents + 1 */
  uint8_t *queued;
  int qhead, qtail;
  uint64_t proposals, max_proposals;
  double deadline; /* 0: none */
  uint32_t ticks;  /* calls of out_of_time, which reads the clock every HRC_CLOCK_EVERY + 1 */
  bool timed_out;
  /* Randomisation (bb_hrcda_randomise); all off after bb_hrcda_init. */
  int32_t *order;          /* nagents: the order agents enter and are looked at in repair rounds */
  uint64_t rng;            /* splitmix64 state */
  bool shuffle_displaced;  /* a displaced agent goes to the queue's front or back by a coin */
  uint32_t restart_one_in; /* an evicted couple starts its list again with chance 1 / this (0: never) */
  /* NULL, or a local search (hrc_walk.c) told about every agent and hospital before the queue
   * changes it, so it can undo a move and recount only what the move touched. */
  struct bb_hrcw *watch;
} da;

typedef struct hosp_view {
  int32_t taken, worst, second, worst_id; /* ranks; -1 if none */
} hosp_view;

/* The next number of a splitmix64 stream (Steele, Lea & Flood 2014): one uint64_t of state. */
static inline uint64_t bb_hrcda_next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Ranks, empty hospitals, every agent unassigned and queued in id order. */
bb_status bb_hrcda_init(da *d, const bb_hrc *in, uint64_t max_proposals, bb_error *err);
void bb_hrcda_free(da *d);
/* Seeds the random state, shuffles `order` and queues the agents again in that order, and
 * turns on the displaced agents' coin and the couples' restarts. */
void bb_hrcda_randomise(da *d, uint64_t seed, uint32_t restart_one_in);
/* Puts d in the state of matching `assigned` (a matching of d->in): hospitals hold their
 * assignees, each placed agent holds its entry, unplaced agents have proposed their whole
 * list, the queue is empty. Counters and the random state are kept. */
void bb_hrcda_load(da *d, const int32_t *assigned);

void bb_hrcda_push(da *d, int a);
void bb_hrcda_lose_place(da *d, int a);
void bb_hrcda_run_queue(da *d);
void bb_hrcda_view(const da *d, hosp_view *v);
hosp_view bb_hrcda_view_one(const da *d, int h);
/* How many entries of agent a block on view v (the checker's count for a), the first into
 * *first (-1 if none). */
int bb_hrcda_blocking_entries(const da *d, const hosp_view *v, int a, int64_t *first);
/* Drops whatever is left in the queue (a queue cut short by the proposal bound). */
void bb_hrcda_clear_queue(da *d);
/* The walk's hooks (hrc_walk.c): agent a's or hospital h's state is about to change. */
void bb_hrcw_note_agent(struct bb_hrcw *w, int a);
void bb_hrcw_note_hospital(struct bb_hrcw *w, int h);
/* The first entry through which agent a blocks on view v, or -1 (docs/hrc.md's cases). */
int64_t bb_hrcda_first_blocking(const da *d, const hosp_view *v, int a);
/* One run: the queue, then repair rounds (sequential or batch) until stable or bounded; the
 * best matching seen goes to `assigned` when its count beats *best. d was initialised (and
 * maybe randomised) by the caller and is consumed. */
bb_status bb_hrcda_run(da *d, const bb_hrc_da_opts *opts, bool sequential, int32_t *assigned, uint64_t *best,
                       bb_hrc_da_stats *total, bb_error *err);

#endif
