/* The couples-aware deferred acceptance (hrc.h, docs/hrc.md "Deferred acceptance").
 *
 * Roth & Peranson (1999) extend resident-proposing deferred acceptance to couples: a couple
 * proposes a pair (h1, h2) and holds it only if both hospitals would hold their member; when
 * one member is displaced, the other withdraws too and the couple goes on down its joint
 * list. A withdrawal frees a post, and residents that hospital turned away earlier may now
 * block; Roth-Peranson re-queue them. We do the same more bluntly: after each pass, every
 * single or couple that blocks (by the definition, from the state this file keeps) proposes
 * again from its first blocking entry. Nothing guarantees that this ends (a stable matching
 * may not exist), so rounds and proposals are bounded and the best matching seen is kept.
 * Two kinds of repair round: batch (every blocking agent judged on one view, all sent back)
 * settles national-size instances in a few dozen rounds; sequential (one agent at a time, the
 * queue run after each) does better on small crowded ones, and the two together find a stable
 * matching a little more often than either (docs/hrc.md). bb_hrc_da runs batch
 * and, only if that ends unstable, sequential from scratch.
 *
 * Agents are singles (ids 0..nr-1, couple members skipped) and couples (nr + c). A FIFO queue
 * holds the agents that must propose; the order (singles, then couples, by id; displaced agents
 * at the back) makes the run deterministic. Hospitals keep their held residents in small
 * unsorted arrays: capacities at national scale are a handful, a scan is cheaper than a heap.
 * The final count comes from bb_hrc_count_blocking, which is checked against brute force. */
#include <stdlib.h>
#include <string.h>

#include "hrc.h"
#include "hrc_da_internal.h"

#define HRC_CLOCK_EVERY 4095u

/* Whether the deadline has passed: a proposal costs nanoseconds, a clock read tens of them. */
static bool out_of_time(da *d) {
  if (d->deadline > 0 && !d->timed_out && (d->ticks++ & HRC_CLOCK_EVERY) == 0) d->timed_out = bb_now() > d->deadline;
  return d->timed_out;
}

static int agent_of(const da *d, int32_t r) {
  int32_t c = d->in->couple_of[r];
  return c == BB_HRC_SINGLE ? r : d->nr + c;
}

void bb_hrcda_push(da *d, int a) {
  if (d->queued[a]) return;
  d->queued[a] = 1;
  d->queue[d->qtail] = a;
  d->qtail = (d->qtail + 1) % (d->nagents + 1);
}

/* A displaced agent, in a randomised run, proposes next or last by a coin flip. */
static void push_displaced(da *d, int a) {
  if (!d->shuffle_displaced || d->queued[a] || (bb_hrcda_next_random(&d->rng) & 1)) {
    bb_hrcda_push(d, a);
    return;
  }
  d->queued[a] = 1;
  d->qhead = (d->qhead + d->nagents) % (d->nagents + 1);
  d->queue[d->qhead] = a;
}

static int pop(da *d) {
  if (d->qhead == d->qtail) return -1;
  int a = d->queue[d->qhead];
  d->qhead = (d->qhead + 1) % (d->nagents + 1);
  d->queued[a] = 0;
  return a;
}

/* Residents held by h ranked better than q. */
static int better_than(const da *d, int h, int32_t q) {
  int n = 0;
  for (int k = 0; k < d->nheld[h]; k++) n += d->slots[d->slot0[h] + k].rank < q;
  return n;
}

static int worst_index(const da *d, int h) {
  int w = 0;
  for (int k = 1; k < d->nheld[h]; k++)
    if (d->slots[d->slot0[h] + k].rank > d->slots[d->slot0[h] + w].rank) w = k;
  return w;
}

static void remove_held(da *d, int h, int32_t r) {
  if (d->watch) bb_hrcw_note_hospital(d->watch, h);
  held *s = d->slots + d->slot0[h];
  for (int k = 0; k < d->nheld[h]; k++)
    if (s[k].resident == r) {
      s[k] = s[--d->nheld[h]];
      return;
    }
}

/* An agent loses its place: taken off its hospitals (a couple withdraws both members),
 * unassigned, and queued to propose from the entry after the one it held. */
void bb_hrcda_lose_place(da *d, int a) {
  const bb_hrc *in = d->in;
  if (d->watch) bb_hrcw_note_agent(d->watch, a);
  if (a < d->nr) {
    if (d->assigned[a] != BB_HRC_NONE) remove_held(d, d->assigned[a], a);
    d->assigned[a] = BB_HRC_NONE;
  } else {
    int c = a - d->nr;
    for (int m = 0; m < 2; m++) {
      int32_t r = in->couple_member[2 * c + m];
      if (d->assigned[r] != BB_HRC_NONE) remove_held(d, d->assigned[r], r);
      d->assigned[r] = BB_HRC_NONE;
    }
  }
  if (d->cur[a] >= 0) d->next[a] = (uint32_t)d->cur[a] + 1;
  /* A restart lets an evicted couple retry pairs that failed only because of who held them then. */
  if (a >= d->nr && d->restart_one_in && bb_hrcda_next_random(&d->rng) % d->restart_one_in == 0) d->next[a] = 0;
  d->cur[a] = -1;
  push_displaced(d, a);
}

/* h takes r (it has accepted him): if full, its worst assignee is displaced. */
static void take(da *d, int h, int32_t r, int32_t q) {
  if (d->watch) bb_hrcw_note_hospital(d->watch, h);
  if (d->nheld[h] == d->room[h]) {
    int32_t loser = d->slots[d->slot0[h] + worst_index(d, h)].resident;
    /* Off h; a couple member's displacement withdraws his partner (maybe from h too). */
    bb_hrcda_lose_place(d, agent_of(d, loser));
  }
  d->slots[d->slot0[h] + d->nheld[h]++] = (held){r, q};
  d->assigned[r] = h;
}

static void propose_single(da *d, int r) {
  const bb_hrc *in = d->in;
  uint32_t first = in->single_start[r], len = in->single_start[r + 1] - first;
  for (; d->next[r] < len && d->proposals < d->max_proposals; d->next[r]++) {
    uint32_t e = first + d->next[r];
    int h = (int)in->single_list[e];
    int32_t q = d->srank[e];
    d->proposals++;
    if (q < 0 || d->room[h] == 0 || better_than(d, h, q) >= d->room[h]) continue;
    d->cur[r] = e - first;
    take(d, h, r, q);
    return;
  }
}

static void propose_couple(da *d, int c) {
  const bb_hrc *in = d->in;
  int a = d->nr + c;
  int32_t r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
  uint32_t first = in->couple_start[c], len = in->couple_start[c + 1] - first;
  for (; d->next[a] < len && d->proposals < d->max_proposals; d->next[a]++) {
    uint32_t e = first + d->next[a];
    int h1 = (int)in->couple_list[2 * e], h2 = (int)in->couple_list[2 * e + 1];
    int32_t q1 = d->crank[2 * e], q2 = d->crank[2 * e + 1];
    d->proposals++;
    if (q1 < 0 || q2 < 0) continue;
    /* Each member must be among h's best `room` of held + newcomers. */
    bool ok =
        h1 != h2 ? better_than(d, h1, q1) < d->room[h1] && better_than(d, h2, q2) < d->room[h2]
                 : better_than(d, h1, q1) + (q2 < q1) < d->room[h1] && better_than(d, h1, q2) + (q1 < q2) < d->room[h1];
    if (!ok) continue;
    d->cur[a] = e - first;
    /* The better-ranked first at a shared hospital, so the second never displaces the first. */
    if (h1 == h2 && q2 < q1) {
      take(d, h2, r2, q2);
      take(d, h1, r1, q1);
    } else {
      take(d, h1, r1, q1);
      take(d, h2, r2, q2);
    }
    return;
  }
}

void bb_hrcda_run_queue(da *d) {
  int a;
  while ((a = pop(d)) >= 0 && d->proposals < d->max_proposals && !out_of_time(d)) {
    if (d->cur[a] >= 0) continue; /* queued, then placed again before its turn: cannot happen, kept safe */
    if (a < d->nr)
      propose_single(d, a);
    else
      propose_couple(d, a - d->nr);
  }
}

/* ------------------------------------------------------------------ repair ---- */

hosp_view bb_hrcda_view_one(const da *d, int h) {
  hosp_view x = {d->nheld[h], -1, -1, -1};
  for (int k = 0; k < d->nheld[h]; k++) {
    held s = d->slots[d->slot0[h] + k];
    if (s.rank > x.worst)
      x.second = x.worst, x.worst = s.rank, x.worst_id = s.resident;
    else if (s.rank > x.second)
      x.second = s.rank;
  }
  return x;
}

void bb_hrcda_view(const da *d, hosp_view *v) {
  for (int h = 0; h < d->in->n_hospitals; h++) v[h] = bb_hrcda_view_one(d, h);
}

void bb_hrcda_clear_queue(da *d) {
  while (pop(d) >= 0) {}
}

static bool takes(const da *d, const hosp_view *v, int h, int32_t q, int32_t except) {
  return v[h].taken < d->in->capacity[h] || (v[h].worst_id == except ? v[h].second : v[h].worst) > q;
}

/* Agent a's blocking entries (the cases of docs/hrc.md), counted up to the `want`-th (0: all);
 * the first goes to *first (-1 if none). */
static int scan_blocking(const da *d, const hosp_view *v, int a, int want, int64_t *first) {
  int n = 0;
  *first = -1;
  const bb_hrc *in = d->in;
  if (a < d->nr) {
    uint32_t start = in->single_start[a], stop = d->cur[a] >= 0 ? (uint32_t)d->cur[a] : in->single_start[a + 1] - start;
    for (uint32_t k = 0; k < stop; k++)
      if (d->srank[start + k] >= 0 && takes(d, v, (int)in->single_list[start + k], d->srank[start + k], -1)) {
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
    int32_t q1 = d->crank[2 * e], q2 = d->crank[2 * e + 1];
    if (q1 < 0 || q2 < 0) continue;
    bool blocks;
    if (a2 == h2)
      blocks = takes(d, v, h1, q1, r2);
    else if (a1 == h1)
      blocks = takes(d, v, h2, q2, r1);
    else if (h1 != h2)
      blocks = takes(d, v, h1, q1, -1) && takes(d, v, h2, q2, -1);
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

/* The first entry through which agent a blocks, or -1. */
int64_t bb_hrcda_first_blocking(const da *d, const hosp_view *v, int a) {
  int64_t first;
  scan_blocking(d, v, a, 1, &first);
  return first;
}

int bb_hrcda_blocking_entries(const da *d, const hosp_view *v, int a, int64_t *first) {
  return scan_blocking(d, v, a, 0, first);
}

/* A batch repair round: every agent that blocks (all judged on one view) proposes again from
 * its first blocking entry. Returns how many agents were sent back. */
static int repair_batch(da *d, hosp_view *v, int64_t *restart) {
  bb_hrcda_view(d, v);
  int sent = 0;
  for (int a = 0; a < d->nagents; a++) {
    restart[a] = -1;
    if (a < d->nr && d->in->couple_of[a] != BB_HRC_SINGLE) continue;
    restart[a] = bb_hrcda_first_blocking(d, v, a);
  }
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

/* A sequential repair round: the agents in id order; each that still blocks (the hospitals' view is
 * rebuilt after every change) proposes again from its first blocking entry, and the queue runs
 * before the next is looked at. Returns how many agents were sent back. */
static int repair_sequential(da *d, hosp_view *v) {
  int sent = 0;
  bool fresh = false;
  for (int i = 0; i < d->nagents && d->proposals < d->max_proposals && !out_of_time(d); i++) {
    int a = d->order[i];
    if (a < d->nr && d->in->couple_of[a] != BB_HRC_SINGLE) continue;
    if (!fresh) bb_hrcda_view(d, v), fresh = true;
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

/* ------------------------------------------------------------------- setup ---- */

typedef struct ranked_pair {
  uint32_t resident, rank;
} ranked_pair;

static int by_resident_id(const void *a, const void *b) {
  uint32_t x = ((const ranked_pair *)a)->resident, y = ((const ranked_pair *)b)->resident;
  return (x > y) - (x < y);
}

static int32_t lookup(const bb_hrc *in, const ranked_pair *sorted, uint32_t h, uint32_t r) {
  size_t lo = in->hosp_start[h], hi = in->hosp_start[h + 1], end = hi;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (sorted[mid].resident < r)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < end && sorted[lo].resident == r ? (int32_t)sorted[lo].rank : -1;
}

void bb_hrcda_free(da *d) {
  free(d->srank);
  free(d->crank);
  free(d->slot0);
  free(d->slots);
  free(d->nheld);
  free(d->room);
  free(d->next);
  free(d->cur);
  free(d->assigned);
  free(d->queue);
  free(d->queued);
  free(d->order);
}

bb_status bb_hrcda_init(da *d, const bb_hrc *in, uint64_t max_proposals, bb_error *err) {
  int nr = in->n_residents, nh = in->n_hospitals, nc = in->n_couples;
  uint64_t es = in->single_start[nr], ec = in->couple_start[nc], eh = in->hosp_start[nh];
  memset(d, 0, sizeof *d);
  d->in = in;
  d->nr = nr;
  d->nagents = nr + nc;
  d->max_proposals = max_proposals ? max_proposals : 64 * (es + ec + 1);
  d->srank = malloc((es + 1) * sizeof *d->srank);
  d->crank = malloc((2 * ec + 1) * sizeof *d->crank);
  d->slot0 = malloc(((size_t)nh + 1) * sizeof *d->slot0);
  d->nheld = calloc((size_t)nh + 1, sizeof *d->nheld);
  d->room = malloc(((size_t)nh + 1) * sizeof *d->room);
  d->next = calloc((size_t)d->nagents + 1, sizeof *d->next);
  d->cur = malloc(((size_t)d->nagents + 1) * sizeof *d->cur);
  d->assigned = malloc(((size_t)nr + 1) * sizeof *d->assigned);
  d->queue = malloc(((size_t)d->nagents + 1) * sizeof *d->queue);
  d->queued = calloc((size_t)d->nagents + 1, 1);
  d->order = malloc(((size_t)d->nagents + 1) * sizeof *d->order);
  ranked_pair *sorted = malloc((eh + 1) * sizeof *sorted);
  if (!d->srank || !d->crank || !d->slot0 || !d->nheld || !d->room || !d->next || !d->cur || !d->assigned ||
      !d->queue || !d->queued || !d->order || !sorted) {
    free(sorted);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  }
  uint64_t slots = 0;
  for (int h = 0; h < nh; h++) {
    uint32_t first = in->hosp_start[h], last = in->hosp_start[h + 1];
    for (uint32_t f = first; f < last; f++) sorted[f] = (ranked_pair){in->hosp_list[f], f - first};
    qsort(sorted + first, last - first, sizeof *sorted, by_resident_id);
    d->room[h] = (int32_t)((uint32_t)in->capacity[h] < last - first ? (uint32_t)in->capacity[h] : last - first);
    d->slot0[h] = (uint32_t)slots;
    slots += (uint64_t)d->room[h];
  }
  d->slot0[nh] = (uint32_t)slots;
  d->slots = malloc((slots + 1) * sizeof *d->slots);
  if (!d->slots) {
    free(sorted);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  }
  for (int r = 0; r < nr; r++)
    for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
      d->srank[e] = lookup(in, sorted, in->single_list[e], (uint32_t)r);
  for (int c = 0; c < nc; c++)
    for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++)
      for (int m = 0; m < 2; m++)
        d->crank[2 * e + m] = lookup(in, sorted, in->couple_list[2 * e + m], (uint32_t)in->couple_member[2 * c + m]);
  free(sorted);
  for (int r = 0; r < nr; r++) d->assigned[r] = BB_HRC_NONE;
  for (int a = 0; a < d->nagents; a++) {
    d->cur[a] = -1;
    d->order[a] = a;
    if (a >= nr || in->couple_of[a] == BB_HRC_SINGLE) bb_hrcda_push(d, a);
  }
  return BB_OK;
}

void bb_hrcda_randomise(da *d, uint64_t seed, uint32_t restart_one_in) {
  d->rng = seed;
  d->shuffle_displaced = true;
  d->restart_one_in = restart_one_in;
  for (int i = d->nagents - 1; i > 0; i--) { /* Fisher-Yates */
    int j = (int)(bb_hrcda_next_random(&d->rng) % (uint64_t)(i + 1));
    int32_t t = d->order[i];
    d->order[i] = d->order[j], d->order[j] = t;
  }
  d->qhead = d->qtail = 0;
  memset(d->queued, 0, (size_t)d->nagents);
  for (int i = 0; i < d->nagents; i++) {
    int a = d->order[i];
    if (d->cur[a] < 0 && (a >= d->nr || d->in->couple_of[a] == BB_HRC_SINGLE)) bb_hrcda_push(d, a);
  }
}

/* Where resident r holds his place at h: the rank h gives him. */
static int32_t held_rank(const da *d, int a, int32_t r) {
  int m = a >= d->nr && d->in->couple_member[2 * (a - d->nr) + 1] == r;
  uint32_t first = a < d->nr ? d->in->single_start[a] : d->in->couple_start[a - d->nr];
  return a < d->nr ? d->srank[first + (uint32_t)d->cur[a]] : d->crank[2 * (first + (uint32_t)d->cur[a]) + m];
}

void bb_hrcda_load(da *d, const int32_t *assigned) {
  const bb_hrc *in = d->in;
  for (int h = 0; h < in->n_hospitals; h++) d->nheld[h] = 0;
  d->qhead = d->qtail = 0;
  memset(d->queued, 0, (size_t)d->nagents);
  for (int a = 0; a < d->nagents; a++) {
    d->cur[a] = -1;
    if (a < d->nr) {
      if (in->couple_of[a] != BB_HRC_SINGLE) continue;
      uint32_t first = in->single_start[a], len = in->single_start[a + 1] - first;
      d->next[a] = len;
      for (uint32_t k = 0; k < len && assigned[a] != BB_HRC_NONE; k++)
        if ((int32_t)in->single_list[first + k] == assigned[a]) d->cur[a] = k, d->next[a] = k + 1, k = len;
    } else {
      int c = a - d->nr;
      int32_t h1 = assigned[in->couple_member[2 * c]], h2 = assigned[in->couple_member[2 * c + 1]];
      uint32_t first = in->couple_start[c], len = in->couple_start[c + 1] - first;
      d->next[a] = len;
      for (uint32_t k = 0; k < len && h1 != BB_HRC_NONE; k++)
        if ((int32_t)in->couple_list[2 * (first + k)] == h1 && (int32_t)in->couple_list[2 * (first + k) + 1] == h2 &&
            d->crank[2 * (first + k)] >= 0 && d->crank[2 * (first + k) + 1] >= 0)
          d->cur[a] = k, d->next[a] = k + 1, k = len;
    }
  }
  for (int r = 0; r < d->nr; r++) {
    int a = in->couple_of[r] == BB_HRC_SINGLE ? r : d->nr + in->couple_of[r];
    d->assigned[r] = d->cur[a] >= 0 ? assigned[r] : BB_HRC_NONE;
    if (d->assigned[r] == BB_HRC_NONE) continue;
    int h = d->assigned[r];
    d->slots[d->slot0[h] + d->nheld[h]++] = (held){r, held_rank(d, a, r)};
  }
}

/* bb_hrcda_run (the internal header); works on a copy of *dp and hands it back. */
bb_status bb_hrcda_run(da *dp, const bb_hrc_da_opts *opts, bool sequential, int32_t *assigned, uint64_t *best,
                       bb_hrc_da_stats *total, bb_error *err) {
  int max_rounds = opts && opts->max_rounds > 0 ? opts->max_rounds : 100;
  const bb_hrc *inst = dp->in;
  da d = *dp;
  bb_status st = BB_OK;
  d.deadline = opts ? opts->deadline : 0;
  hosp_view *view = malloc(((size_t)inst->n_hospitals + 1) * sizeof *view);
  int64_t *restart = malloc(((size_t)d.nagents + 1) * sizeof *restart);
  if (st == BB_OK && (!view || !restart)) st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  uint64_t count = 0;
  int rounds = 0;
  while (st == BB_OK) {
    bb_hrcda_run_queue(&d);
    /* A queue cut short is no matching of this run: stop before the checker judges it. */
    if (d.timed_out || (d.deadline > 0 && bb_now() > d.deadline)) {
      st = bb_fail(err, BB_ERR_TIMEOUT, "hrc-da: time limit reached after %d repair rounds, %llu proposals",
                   total->rounds + rounds, (unsigned long long)(total->proposals + d.proposals));
      break;
    }
    st = bb_hrc_count_blocking(inst, d.assigned, &count, err);
    if (st != BB_OK) break;
    if (count < *best) {
      *best = count;
      memcpy(assigned, d.assigned, (size_t)inst->n_residents * sizeof *assigned);
    }
    if (count == 0) break;
    if (rounds == max_rounds || d.proposals >= d.max_proposals) {
      total->bounded = true;
      break;
    }
    rounds++;
    int sent = sequential ? repair_sequential(&d, view) : repair_batch(&d, view, restart);
    if (sent == 0) break; /* the checker and this file disagree: cannot happen */
  }
  total->rounds += rounds;
  total->proposals += d.proposals;
  free(view);
  free(restart);
  *dp = d;
  return st;
}

/* One run from scratch with one kind of repair round; the best matching so far stays in
 * `assigned` / *best. */
static bb_status run_strategy(const bb_hrc *inst, const bb_hrc_da_opts *opts, bool sequential, int32_t *assigned,
                              uint64_t *best, bb_hrc_da_stats *total, bb_error *err) {
  da d;
  bb_status st = bb_hrcda_init(&d, inst, opts ? opts->max_proposals : 0, err);
  if (st == BB_OK) st = bb_hrcda_run(&d, opts, sequential, assigned, best, total, err);
  bb_hrcda_free(&d);
  return st;
}

bb_status bb_hrc_da(const bb_hrc *inst, const bb_hrc_da_opts *opts, int32_t *assigned, bool *stable, uint64_t *blocking,
                    bb_hrc_da_stats *stats, bb_error *err) {
  if (!inst || !assigned) return bb_fail(err, BB_ERR_ARG, "bb_hrc_da: NULL argument");
  uint64_t best = UINT64_MAX;
  bb_hrc_da_stats total = {0, 0, false};
  /* Batch rounds first (they settle large instances fastest); if they end unstable, a fresh run
     with sequential rounds, which small crowded instances favour. The better result stays. */
  bb_status st = run_strategy(inst, opts, false, assigned, &best, &total, err);
  if (st == BB_OK && best > 0) {
    total.bounded = false;
    st = run_strategy(inst, opts, true, assigned, &best, &total, err);
  }
  if (st != BB_OK) return st;
  if (stable) *stable = best == 0;
  if (blocking) *blocking = best;
  if (stats) *stats = total;
  return BB_OK;
}
