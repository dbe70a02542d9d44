/* The couples-aware deferred acceptance's per-run core, compiled for the host (the engine's
 * hrc_da.c, hrc_walk.c, hrc_portfolio.c through engine/hrc/internal/hrc_da_internal.h) and for
 * the GPU (cuda/gpu_hrc_da.cu runs one portfolio run per thread): one implementation, so run i
 * with seed s gives the same matching on both. docs/hrc.md, "Deferred acceptance" and
 * "Portfolio", describes the algorithm; engine/hrc/hrc_da.c's header comment says why it is
 * built this way.
 *
 * Everything is flat arrays and scalars; no allocation and no clock. The host's hooks (the
 * local search told of every change, the time limit, the checker's count) are macros that
 * hrc_da_internal.h defines before including this file; left undefined (the device), they
 * compile to nothing, a run is then bounded by its proposals and rounds alone.
 *
 * Agents are singles (ids 0..nr-1, couple members skipped) and couples (nr + c). */
#ifndef BB_HRC_DA_CORE_H
#define BB_HRC_DA_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"
#include "rng.h" /* bb_splitmix64: the runs' random numbers, host and device alike */

#ifdef __CUDACC__
#define BB_HRCDA_FN static inline __host__ __device__
#else
#define BB_HRCDA_FN static inline
#endif

#ifndef BB_HRCDA_NOTE_AGENT /* the local search's hooks: agent a or hospital h is about to change */
#define BB_HRCDA_NOTE_AGENT(d, a) ((void)0)
#define BB_HRCDA_NOTE_HOSPITAL(d, h) ((void)0)
#endif
#ifndef BB_HRCDA_OUT_OF_TIME /* throttled check between proposals; the hard one after a queue */
#define BB_HRCDA_OUT_OF_TIME(d) false
#define BB_HRCDA_PAST_DEADLINE(d) false
#endif

/* bb_hrc's values (engine/hrc/hrc.h), which this folder cannot include. */
#define BB_HRCDA_NONE (-1)
#define BB_HRCDA_SINGLE (-1)
/* An evicted couple restarts its list with chance 1 in this many evictions (randomised runs). */
#define BB_HRCDA_RESTART_ONE_IN 16u
/* The sequential strategy of a randomised run draws from the seed xor this. */
#define BB_HRCDA_SECOND_STREAM 0x5851f42d4c957f2dull

/* The instance as the runs read it, shared by all of them: bb_hrc's lists, then the ranks
 * and slot layout bb_hrcda_init computes. */
typedef struct bb_hrcda_lists {
  int nr, nh, nc, nagents;
  const int32_t *couple_of, *couple_member, *capacity;
  const uint32_t *single_start, *couple_start;
  const bb_id *single_list, *couple_list;
  int32_t *srank;  /* per single entry: the hospital's position of the resident, -1 unacceptable */
  int32_t *crank;  /* per couple entry, two: the hospitals' positions of the members */
  uint32_t *slot0; /* nh + 1: where each hospital's held array starts */
  int32_t *room;   /* nh: min(capacity, list length), what can ever be held */
  /* The ranks the checker compares (with ties, equal ranks; srank and crank without). */
  const int32_t *count_srank, *count_crank;
} bb_hrcda_lists;

typedef struct bb_hrcda_held {
  int32_t resident, rank;
} bb_hrcda_held;

typedef struct bb_hrcda_hosp {
  int32_t taken, worst, second, worst_id; /* ranks; -1 if none */
} bb_hrcda_hosp;

struct bb_hrc;
struct bb_hrcw;

/* One run's state: the lists by value, then per-run arrays (a slice of one buffer on the GPU). */
typedef struct bb_hrcda {
  bb_hrcda_lists L;
  int nr, nagents;
  bb_hrcda_held *slots;
  int32_t *nheld;
  uint32_t *next;    /* per agent: the next entry to propose */
  int64_t *cur;      /* per agent: the entry held, -1 if none */
  int32_t *assigned; /* per resident */
  int32_t *queue;    /* ring of nagents + 1 */
  uint8_t *queued;
  int32_t *order; /* nagents: the order agents enter and are looked at in repair rounds */
  int qhead, qtail;
  uint64_t proposals, max_proposals;
  uint64_t rng;            /* splitmix64 state */
  bool shuffle_displaced;  /* a displaced agent goes to the queue's front or back by a coin */
  uint32_t restart_one_in; /* an evicted couple starts its list again with chance 1 / this (0: never) */
  /* The host's alone (never read here): the instance, the time limit, the local search. */
  const struct bb_hrc *in;
  double deadline; /* 0: none */
  uint32_t ticks;
  bool timed_out;
  struct bb_hrcw *watch;
  bb_error *err;
  int host_status; /* the host count's bb_status when it refused a matching */
} bb_hrcda;

/* Run i's seed in a portfolio of `seed`: a splitmix64 step from both, never 0. */
BB_HRCDA_FN uint64_t bb_hrcda_run_seed(uint64_t seed, int i) {
  uint64_t state = seed + (uint64_t)(int64_t)i * 0xd1b54a32d192ed03ull;
  uint64_t s = bb_splitmix64(&state);
  return s ? s : 1;
}

BB_HRCDA_FN int bb_hrcda_agent_of(const bb_hrcda *d, int32_t r) {
  int32_t c = d->L.couple_of[r];
  return c == BB_HRCDA_SINGLE ? r : d->nr + c;
}

BB_HRCDA_FN bool bb_hrcda_is_agent(const bb_hrcda *d, int a) {
  return a >= d->nr || d->L.couple_of[a] == BB_HRCDA_SINGLE;
}

BB_HRCDA_FN void bb_hrcda_push(bb_hrcda *d, int a) {
  if (d->queued[a]) return;
  d->queued[a] = 1;
  d->queue[d->qtail] = a;
  d->qtail = (d->qtail + 1) % (d->nagents + 1);
}

/* A displaced agent, in a randomised run, proposes next or last by a coin flip. */
BB_HRCDA_FN void bb_hrcda_push_displaced(bb_hrcda *d, int a) {
  if (!d->shuffle_displaced || d->queued[a] || (bb_splitmix64(&d->rng) & 1)) {
    bb_hrcda_push(d, a);
    return;
  }
  d->queued[a] = 1;
  d->qhead = (d->qhead + d->nagents) % (d->nagents + 1);
  d->queue[d->qhead] = a;
}

BB_HRCDA_FN int bb_hrcda_pop(bb_hrcda *d) {
  if (d->qhead == d->qtail) return -1;
  int a = d->queue[d->qhead];
  d->qhead = (d->qhead + 1) % (d->nagents + 1);
  d->queued[a] = 0;
  return a;
}

/* Residents held by h ranked better than q. */
BB_HRCDA_FN int bb_hrcda_better_than(const bb_hrcda *d, int h, int32_t q) {
  int n = 0;
  for (int k = 0; k < d->nheld[h]; k++) n += d->slots[d->L.slot0[h] + k].rank < q;
  return n;
}

BB_HRCDA_FN int bb_hrcda_worst_index(const bb_hrcda *d, int h) {
  int w = 0;
  for (int k = 1; k < d->nheld[h]; k++)
    if (d->slots[d->L.slot0[h] + k].rank > d->slots[d->L.slot0[h] + w].rank) w = k;
  return w;
}

BB_HRCDA_FN void bb_hrcda_remove_held(bb_hrcda *d, int h, int32_t r) {
  BB_HRCDA_NOTE_HOSPITAL(d, h);
  bb_hrcda_held *s = d->slots + d->L.slot0[h];
  for (int k = 0; k < d->nheld[h]; k++)
    if (s[k].resident == r) {
      s[k] = s[--d->nheld[h]];
      return;
    }
}

/* An agent loses its place: taken off its hospitals (a couple withdraws both members),
 * unassigned, and queued to propose from the entry after the one it held. */
BB_HRCDA_FN void bb_hrcda_lose_place(bb_hrcda *d, int a) {
  BB_HRCDA_NOTE_AGENT(d, a);
  if (a < d->nr) {
    if (d->assigned[a] != BB_HRCDA_NONE) bb_hrcda_remove_held(d, d->assigned[a], a);
    d->assigned[a] = BB_HRCDA_NONE;
  } else {
    int c = a - d->nr;
    for (int m = 0; m < 2; m++) {
      int32_t r = d->L.couple_member[2 * c + m];
      if (d->assigned[r] != BB_HRCDA_NONE) bb_hrcda_remove_held(d, d->assigned[r], r);
      d->assigned[r] = BB_HRCDA_NONE;
    }
  }
  if (d->cur[a] >= 0) d->next[a] = (uint32_t)d->cur[a] + 1;
  /* A restart lets an evicted couple retry pairs that failed only because of who held them then. */
  if (a >= d->nr && d->restart_one_in && bb_splitmix64(&d->rng) % d->restart_one_in == 0) d->next[a] = 0;
  d->cur[a] = -1;
  bb_hrcda_push_displaced(d, a);
}

/* h takes r (it has accepted him): if full, its worst assignee is displaced. */
BB_HRCDA_FN void bb_hrcda_take(bb_hrcda *d, int h, int32_t r, int32_t q) {
  BB_HRCDA_NOTE_HOSPITAL(d, h);
  if (d->nheld[h] == d->L.room[h]) {
    int32_t loser = d->slots[d->L.slot0[h] + bb_hrcda_worst_index(d, h)].resident;
    /* Off h; a couple member's displacement withdraws his partner (maybe from h too). */
    bb_hrcda_lose_place(d, bb_hrcda_agent_of(d, loser));
  }
  bb_hrcda_held x = {r, q};
  d->slots[d->L.slot0[h] + d->nheld[h]++] = x;
  d->assigned[r] = h;
}

BB_HRCDA_FN void bb_hrcda_propose_single(bb_hrcda *d, int r) {
  uint32_t first = d->L.single_start[r], len = d->L.single_start[r + 1] - first;
  for (; d->next[r] < len && d->proposals < d->max_proposals; d->next[r]++) {
    uint32_t e = first + d->next[r];
    int h = (int)d->L.single_list[e];
    int32_t q = d->L.srank[e];
    d->proposals++;
    if (q < 0 || d->L.room[h] == 0 || bb_hrcda_better_than(d, h, q) >= d->L.room[h]) continue;
    d->cur[r] = e - first;
    bb_hrcda_take(d, h, r, q);
    return;
  }
}

BB_HRCDA_FN void bb_hrcda_propose_couple(bb_hrcda *d, int c) {
  int a = d->nr + c;
  int32_t r1 = d->L.couple_member[2 * c], r2 = d->L.couple_member[2 * c + 1];
  uint32_t first = d->L.couple_start[c], len = d->L.couple_start[c + 1] - first;
  for (; d->next[a] < len && d->proposals < d->max_proposals; d->next[a]++) {
    uint32_t e = first + d->next[a];
    int h1 = (int)d->L.couple_list[2 * e], h2 = (int)d->L.couple_list[2 * e + 1];
    int32_t q1 = d->L.crank[2 * e], q2 = d->L.crank[2 * e + 1];
    const int32_t *room = d->L.room;
    d->proposals++;
    if (q1 < 0 || q2 < 0) continue;
    /* Each member must be among h's best `room` of held + newcomers. */
    bool ok = h1 != h2 ? bb_hrcda_better_than(d, h1, q1) < room[h1] && bb_hrcda_better_than(d, h2, q2) < room[h2]
                       : bb_hrcda_better_than(d, h1, q1) + (q2 < q1) < room[h1] &&
                             bb_hrcda_better_than(d, h1, q2) + (q1 < q2) < room[h1];
    if (!ok) continue;
    d->cur[a] = e - first;
    /* The better-ranked first at a shared hospital, so the second never displaces the first. */
    if (h1 == h2 && q2 < q1) {
      bb_hrcda_take(d, h2, r2, q2);
      bb_hrcda_take(d, h1, r1, q1);
    } else {
      bb_hrcda_take(d, h1, r1, q1);
      bb_hrcda_take(d, h2, r2, q2);
    }
    return;
  }
}

BB_HRCDA_FN void bb_hrcda_run_queue(bb_hrcda *d) {
  int a;
  while ((a = bb_hrcda_pop(d)) >= 0 && d->proposals < d->max_proposals && !BB_HRCDA_OUT_OF_TIME(d)) {
    if (d->cur[a] >= 0) continue; /* queued, then placed again before its turn: cannot happen, kept safe */
    if (a < d->nr)
      bb_hrcda_propose_single(d, a);
    else
      bb_hrcda_propose_couple(d, a - d->nr);
  }
}

BB_HRCDA_FN void bb_hrcda_clear_queue(bb_hrcda *d) {
  while (bb_hrcda_pop(d) >= 0) {}
}

/* ------------------------------------------------------------------ repair ---- */

BB_HRCDA_FN bb_hrcda_hosp bb_hrcda_view_one(const bb_hrcda *d, int h) {
  bb_hrcda_hosp x = {d->nheld[h], -1, -1, -1};
  for (int k = 0; k < d->nheld[h]; k++) {
    bb_hrcda_held s = d->slots[d->L.slot0[h] + k];
    if (s.rank > x.worst)
      x.second = x.worst, x.worst = s.rank, x.worst_id = s.resident;
    else if (s.rank > x.second)
      x.second = s.rank;
  }
  return x;
}

BB_HRCDA_FN void bb_hrcda_view_all(const bb_hrcda *d, bb_hrcda_hosp *v) {
  for (int h = 0; h < d->L.nh; h++) v[h] = bb_hrcda_view_one(d, h);
}

BB_HRCDA_FN bool bb_hrcda_takes(const bb_hrcda *d, const bb_hrcda_hosp *v, int h, int32_t q, int32_t except) {
  return v[h].taken < d->L.capacity[h] || (v[h].worst_id == except ? v[h].second : v[h].worst) > q;
}

/* Agent a's blocking entries (the cases of docs/hrc.md) on view v with the hospitals' ranks
 * srank / crank, counted up to the `want`-th (0: all); the first goes to *first (-1 if none). */
BB_HRCDA_FN int bb_hrcda_scan_blocking(const bb_hrcda *d, const bb_hrcda_hosp *v, const int32_t *srank,
                                       const int32_t *crank, int a, int want, int64_t *first) {
  int n = 0;
  *first = -1;
  const bb_hrcda_lists *in = &d->L;
  if (a < d->nr) {
    uint32_t start = in->single_start[a], stop = d->cur[a] >= 0 ? (uint32_t)d->cur[a] : in->single_start[a + 1] - start;
    for (uint32_t k = 0; k < stop; k++)
      if (srank[start + k] >= 0 && bb_hrcda_takes(d, v, (int)in->single_list[start + k], srank[start + k], -1)) {
        if (n++ == 0) *first = k;
        if (n == want) break;
      }
    return n;
  }
  int c = a - d->nr;
  int32_t r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1], a1 = d->assigned[r1], a2 = d->assigned[r2];
  uint32_t start = in->couple_start[c], stop = d->cur[a] >= 0 ? (uint32_t)d->cur[a] : in->couple_start[c + 1] - start;
  for (uint32_t k = 0; k < stop; k++) {
    uint32_t e = start + k;
    int h1 = (int)in->couple_list[2 * e], h2 = (int)in->couple_list[2 * e + 1];
    int32_t q1 = crank[2 * e], q2 = crank[2 * e + 1];
    if (q1 < 0 || q2 < 0) continue;
    bool blocks;
    if (a2 == h2)
      blocks = bb_hrcda_takes(d, v, h1, q1, r2);
    else if (a1 == h1)
      blocks = bb_hrcda_takes(d, v, h2, q2, r1);
    else if (h1 != h2)
      blocks = bb_hrcda_takes(d, v, h1, q1, -1) && bb_hrcda_takes(d, v, h2, q2, -1);
    else {
      int32_t best = q1 < q2 ? q1 : q2, other = q1 < q2 ? q2 : q1, free_posts = in->capacity[h1] - v[h1].taken;
      blocks = free_posts >= 2 || (free_posts == 1 && v[h1].worst > best) ||
               (free_posts == 0 && v[h1].worst > other && v[h1].second > best);
    }
    if (!blocks) continue;
    if (n++ == 0) *first = k;
    if (n == want) break;
  }
  return n;
}

/* The first entry through which agent a blocks on view v, or -1. */
BB_HRCDA_FN int64_t bb_hrcda_first_blocking(const bb_hrcda *d, const bb_hrcda_hosp *v, int a) {
  int64_t first;
  bb_hrcda_scan_blocking(d, v, d->L.srank, d->L.crank, a, 1, &first);
  return first;
}

/* How many entries of agent a block on view v (the checker's count for a, strict lists), the
 * first into *first (-1 if none). */
BB_HRCDA_FN int bb_hrcda_blocking_entries(const bb_hrcda *d, const bb_hrcda_hosp *v, int a, int64_t *first) {
  return bb_hrcda_scan_blocking(d, v, d->L.srank, d->L.crank, a, 0, first);
}

/* The checker's rank of resident r where he is held (count_srank / count_crank). */
BB_HRCDA_FN int32_t bb_hrcda_count_rank(const bb_hrcda *d, int32_t r) {
  int a = bb_hrcda_agent_of(d, r);
  if (a < d->nr) return d->L.count_srank[d->L.single_start[a] + (uint32_t)d->cur[a]];
  int c = a - d->nr, m = d->L.couple_member[2 * c + 1] == r;
  return d->L.count_crank[2 * (d->L.couple_start[c] + (uint32_t)d->cur[a]) + m];
}

/* The blocking pairs of the current matching as bb_hrc_count_blocking counts them (ties
 * included: the views and the entries compare the checker's ranks). v is work space. */
BB_HRCDA_FN uint64_t bb_hrcda_count(const bb_hrcda *d, bb_hrcda_hosp *v) {
  for (int h = 0; h < d->L.nh; h++) {
    bb_hrcda_hosp x = {d->nheld[h], -1, -1, -1};
    for (int k = 0; k < d->nheld[h]; k++) {
      int32_t r = d->slots[d->L.slot0[h] + k].resident, q = bb_hrcda_count_rank(d, r);
      if (q > x.worst)
        x.second = x.worst, x.worst = q, x.worst_id = r;
      else if (q > x.second)
        x.second = q;
    }
    v[h] = x;
  }
  uint64_t n = 0;
  int64_t first;
  for (int a = 0; a < d->nagents; a++)
    if (bb_hrcda_is_agent(d, a))
      n += (uint64_t)bb_hrcda_scan_blocking(d, v, d->L.count_srank, d->L.count_crank, a, 0, &first);
  return n;
}

/* A batch repair round: every agent that blocks (all judged on one view) proposes again from
 * its first blocking entry. Returns how many agents were sent back. */
BB_HRCDA_FN int bb_hrcda_repair_batch(bb_hrcda *d, bb_hrcda_hosp *v, int64_t *restart) {
  bb_hrcda_view_all(d, v);
  int sent = 0;
  for (int a = 0; a < d->nagents; a++) restart[a] = bb_hrcda_is_agent(d, a) ? bb_hrcda_first_blocking(d, v, a) : -1;
  for (int i = 0; i < d->nagents; i++) {
    int a = d->order[i];
    if (restart[a] < 0) continue;
    if (d->cur[a] >= 0) bb_hrcda_lose_place(d, a);
    d->next[a] = (uint32_t)restart[a];
    bb_hrcda_push(d, a);
    sent++;
  }
  return sent;
}

/* A sequential repair round: the agents in `order`; each that still blocks (the hospitals'
 * view is rebuilt after every change) proposes again from its first blocking entry, and the
 * queue runs before the next is looked at. Returns how many agents were sent back. */
BB_HRCDA_FN int bb_hrcda_repair_sequential(bb_hrcda *d, bb_hrcda_hosp *v) {
  int sent = 0;
  bool fresh = false;
  for (int i = 0; i < d->nagents && d->proposals < d->max_proposals && !BB_HRCDA_OUT_OF_TIME(d); i++) {
    int a = d->order[i];
    if (!bb_hrcda_is_agent(d, a)) continue;
    if (!fresh) bb_hrcda_view_all(d, v), fresh = true;
    int64_t e = bb_hrcda_first_blocking(d, v, a);
    if (e < 0) continue;
    if (d->cur[a] >= 0) bb_hrcda_lose_place(d, a);
    d->next[a] = (uint32_t)e;
    bb_hrcda_push(d, a);
    bb_hrcda_run_queue(d);
    fresh = false;
    sent++;
  }
  return sent;
}

/* ------------------------------------------------------------------- runs ---- */

/* The start of a run: empty hospitals, every agent unassigned and queued in id order, no
 * proposals made, randomisation off. The lists and the arrays' places stay. */
BB_HRCDA_FN void bb_hrcda_reset(bb_hrcda *d) {
  for (int h = 0; h < d->L.nh; h++) d->nheld[h] = 0;
  for (int r = 0; r < d->nr; r++) d->assigned[r] = BB_HRCDA_NONE;
  d->qhead = d->qtail = 0;
  for (int a = 0; a < d->nagents; a++) d->next[a] = 0, d->cur[a] = -1, d->order[a] = a, d->queued[a] = 0;
  for (int a = 0; a < d->nagents; a++)
    if (bb_hrcda_is_agent(d, a)) bb_hrcda_push(d, a);
  d->proposals = 0;
  d->rng = 0;
  d->shuffle_displaced = false;
  d->restart_one_in = 0;
  d->ticks = 0;
  d->timed_out = false;
}

/* Seeds the random state, shuffles `order` and queues the unplaced agents again in that
 * order, and turns on the displaced agents' coin and the couples' restarts. */
BB_HRCDA_FN void bb_hrcda_randomise(bb_hrcda *d, uint64_t seed, uint32_t restart_one_in) {
  d->rng = seed;
  d->shuffle_displaced = true;
  d->restart_one_in = restart_one_in;
  for (int i = d->nagents - 1; i > 0; i--) { /* Fisher-Yates */
    int j = (int)(bb_splitmix64(&d->rng) % (uint64_t)(i + 1));
    int32_t t = d->order[i];
    d->order[i] = d->order[j], d->order[j] = t;
  }
  d->qhead = d->qtail = 0;
  for (int a = 0; a < d->nagents; a++) d->queued[a] = 0;
  for (int i = 0; i < d->nagents; i++) {
    int a = d->order[i];
    if (d->cur[a] < 0 && bb_hrcda_is_agent(d, a)) bb_hrcda_push(d, a);
  }
}

/* What bb_hrcda_loop ends with. */
enum { BB_HRCDA_DONE = 0, BB_HRCDA_TIMED_OUT = 1, BB_HRCDA_COUNT_FAILED = 2 };

/* A run's totals over its strategies. */
typedef struct bb_hrcda_totals {
  int rounds;
  uint64_t proposals;
  bool bounded; /* the last strategy was stopped by a bound (rounds or proposals) */
} bb_hrcda_totals;

/* One strategy of a run, from d's state: the queue, then repair rounds (sequential or batch)
 * until stable or bounded; a matching with fewer blocking pairs than *best goes to
 * best_assigned. The count is the host checker's where BB_HRCDA_COUNT is defined,
 * bb_hrcda_count otherwise. v: nh views, restart: nagents entries of work space. */
BB_HRCDA_FN int bb_hrcda_loop(bb_hrcda *d, bool sequential, int max_rounds, bb_hrcda_hosp *v, int64_t *restart,
                              int32_t *best_assigned, uint64_t *best, bb_hrcda_totals *total) {
  int rounds = 0, code = BB_HRCDA_DONE;
  for (;;) {
    bb_hrcda_run_queue(d);
    /* A queue cut short is no matching of this run: stop before the checker judges it. */
    if (BB_HRCDA_PAST_DEADLINE(d)) {
      code = BB_HRCDA_TIMED_OUT;
      break;
    }
    uint64_t count = 0;
#ifdef BB_HRCDA_COUNT
    if (!BB_HRCDA_COUNT(d, &count)) {
      code = BB_HRCDA_COUNT_FAILED;
      break;
    }
#else
    count = bb_hrcda_count(d, v);
#endif
    if (count < *best) {
      *best = count;
      for (int r = 0; r < d->nr; r++) best_assigned[r] = d->assigned[r];
    }
    if (count == 0) break;
    if (rounds == max_rounds || d->proposals >= d->max_proposals) {
      total->bounded = true;
      break;
    }
    rounds++;
    int sent = sequential ? bb_hrcda_repair_sequential(d, v) : bb_hrcda_repair_batch(d, v, restart);
    if (sent == 0) break; /* the count and the repair disagree: cannot happen */
  }
  total->rounds += rounds;
  total->proposals += d->proposals;
  return code;
}

/* A whole run (bb_hrc_da when `randomised` is false, bb_hrc_da_random with `seed` when true):
 * batch repair rounds from scratch, then, if that ends unstable, sequential ones from scratch
 * (a randomised run draws them from a second stream); the better matching stays in
 * best_assigned and *best (UINT64_MAX on entry). d's arrays are overwritten. */
BB_HRCDA_FN int bb_hrcda_full_run(bb_hrcda *d, bool randomised, uint64_t seed, int max_rounds, bb_hrcda_hosp *v,
                                  int64_t *restart, int32_t *best_assigned, uint64_t *best, bb_hrcda_totals *total) {
  total->rounds = 0, total->proposals = 0, total->bounded = false;
  bb_hrcda_reset(d);
  if (randomised) bb_hrcda_randomise(d, seed, BB_HRCDA_RESTART_ONE_IN);
  int code = bb_hrcda_loop(d, false, max_rounds, v, restart, best_assigned, best, total);
  if (code != BB_HRCDA_DONE || *best == 0) return code;
  total->bounded = false;
  bb_hrcda_reset(d);
  if (randomised) bb_hrcda_randomise(d, seed ^ BB_HRCDA_SECOND_STREAM, BB_HRCDA_RESTART_ONE_IN);
  return bb_hrcda_loop(d, true, max_rounds, v, restart, best_assigned, best, total);
}

#endif
