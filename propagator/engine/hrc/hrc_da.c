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
 * The final count comes from bb_hrc_count_blocking, which is checked against brute force.
 *
 * The steps of a run live in cuda/hrc_da_core.h, which the GPU portfolio compiles too (one
 * implementation, so a run gives the same matching on both); this file keeps what only the
 * host does: the ranks and the arrays, loading a matching, and the errors. */
#include <stdlib.h>
#include <string.h>

#include "hrc.h"
#include "hrc_da_internal.h"

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
  if (d->L.count_srank != d->L.srank) free((void *)d->L.count_srank);
  if (d->L.count_crank != d->L.crank) free((void *)d->L.count_crank);
  free(d->L.srank);
  free(d->L.crank);
  free(d->L.slot0);
  free(d->slots);
  free(d->nheld);
  free(d->L.room);
  free(d->next);
  free(d->cur);
  free(d->assigned);
  free(d->queue);
  free(d->queued);
  free(d->order);
}

/* With ties, the ranks the count compares: each entry's position mapped to its tie rank. */
static bool tie_ranks(da *d, uint64_t es, uint64_t ec) {
  const bb_hrc *in = d->in;
  d->L.count_srank = d->L.srank, d->L.count_crank = d->L.crank;
  if (!in->hosp_rank) return true;
  int32_t *s = malloc((es + 1) * sizeof *s), *c = malloc((2 * ec + 1) * sizeof *c);
  if (!s || !c) {
    free(s), free(c);
    return false;
  }
  for (uint64_t e = 0; e < es; e++) {
    uint32_t h = in->single_list[e];
    s[e] = d->L.srank[e] < 0 ? -1 : (int32_t)in->hosp_rank[in->hosp_start[h] + (uint32_t)d->L.srank[e]];
  }
  for (uint64_t k = 0; k < 2 * ec; k++) {
    uint32_t h = in->couple_list[k];
    c[k] = d->L.crank[k] < 0 ? -1 : (int32_t)in->hosp_rank[in->hosp_start[h] + (uint32_t)d->L.crank[k]];
  }
  d->L.count_srank = s, d->L.count_crank = c;
  return true;
}

bb_status bb_hrcda_init(da *d, const bb_hrc *in, uint64_t max_proposals, bb_error *err) {
  int nr = in->n_residents, nh = in->n_hospitals, nc = in->n_couples;
  uint64_t es = in->single_start[nr], ec = in->couple_start[nc], eh = in->hosp_start[nh];
  memset(d, 0, sizeof *d);
  d->in = in;
  d->nr = nr;
  d->nagents = nr + nc;
  d->L = (bb_hrcda_lists){.nr = nr,
                          .nh = nh,
                          .nc = nc,
                          .nagents = nr + nc,
                          .couple_of = in->couple_of,
                          .couple_member = in->couple_member,
                          .capacity = in->capacity,
                          .single_start = in->single_start,
                          .couple_start = in->couple_start,
                          .single_list = in->single_list,
                          .couple_list = in->couple_list};
  d->max_proposals = max_proposals ? max_proposals : 64 * (es + ec + 1);
  d->L.srank = malloc((es + 1) * sizeof *d->L.srank);
  d->L.crank = malloc((2 * ec + 1) * sizeof *d->L.crank);
  d->L.slot0 = malloc(((size_t)nh + 1) * sizeof *d->L.slot0);
  d->nheld = calloc((size_t)nh + 1, sizeof *d->nheld);
  d->L.room = malloc(((size_t)nh + 1) * sizeof *d->L.room);
  d->next = calloc((size_t)d->nagents + 1, sizeof *d->next);
  d->cur = malloc(((size_t)d->nagents + 1) * sizeof *d->cur);
  d->assigned = malloc(((size_t)nr + 1) * sizeof *d->assigned);
  d->queue = malloc(((size_t)d->nagents + 1) * sizeof *d->queue);
  d->queued = calloc((size_t)d->nagents + 1, 1);
  d->order = malloc(((size_t)d->nagents + 1) * sizeof *d->order);
  ranked_pair *sorted = malloc((eh + 1) * sizeof *sorted);
  if (!d->L.srank || !d->L.crank || !d->L.slot0 || !d->nheld || !d->L.room || !d->next || !d->cur || !d->assigned ||
      !d->queue || !d->queued || !d->order || !sorted) {
    free(sorted);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  }
  uint64_t slots = 0;
  for (int h = 0; h < nh; h++) {
    uint32_t first = in->hosp_start[h], last = in->hosp_start[h + 1];
    for (uint32_t f = first; f < last; f++) sorted[f] = (ranked_pair){in->hosp_list[f], f - first};
    qsort(sorted + first, last - first, sizeof *sorted, by_resident_id);
    d->L.room[h] = (int32_t)((uint32_t)in->capacity[h] < last - first ? (uint32_t)in->capacity[h] : last - first);
    d->L.slot0[h] = (uint32_t)slots;
    slots += (uint64_t)d->L.room[h];
  }
  d->L.slot0[nh] = (uint32_t)slots;
  d->slots = malloc((slots + 1) * sizeof *d->slots);
  if (!d->slots) {
    free(sorted);
    return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  }
  for (int r = 0; r < nr; r++)
    for (uint32_t e = in->single_start[r]; e < in->single_start[r + 1]; e++)
      d->L.srank[e] = lookup(in, sorted, in->single_list[e], (uint32_t)r);
  for (int c = 0; c < nc; c++)
    for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++)
      for (int m = 0; m < 2; m++)
        d->L.crank[2 * e + m] = lookup(in, sorted, in->couple_list[2 * e + m], (uint32_t)in->couple_member[2 * c + m]);
  free(sorted);
  if (!tie_ranks(d, es, ec)) return bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  bb_hrcda_reset(d);
  return BB_OK;
}

/* Where resident r holds his place at h: the rank h gives him. */
static int32_t held_rank(const da *d, int a, int32_t r) {
  int m = a >= d->nr && d->in->couple_member[2 * (a - d->nr) + 1] == r;
  uint32_t first = a < d->nr ? d->in->single_start[a] : d->in->couple_start[a - d->nr];
  return a < d->nr ? d->L.srank[first + (uint32_t)d->cur[a]] : d->L.crank[2 * (first + (uint32_t)d->cur[a]) + m];
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
            d->L.crank[2 * (first + k)] >= 0 && d->L.crank[2 * (first + k) + 1] >= 0)
          d->cur[a] = k, d->next[a] = k + 1, k = len;
    }
  }
  for (int r = 0; r < d->nr; r++) {
    int a = in->couple_of[r] == BB_HRC_SINGLE ? r : d->nr + in->couple_of[r];
    d->assigned[r] = d->cur[a] >= 0 ? assigned[r] : BB_HRC_NONE;
    if (d->assigned[r] == BB_HRC_NONE) continue;
    int h = d->assigned[r];
    d->slots[d->L.slot0[h] + d->nheld[h]++] = (held){r, held_rank(d, a, r)};
  }
}

bb_status bb_hrcda_host_run(da *d, const bb_hrc_da_opts *opts, bool randomised, uint64_t seed, int32_t *assigned,
                            uint64_t *best, bb_hrc_da_stats *stats, bb_error *err) {
  int max_rounds = opts && opts->max_rounds > 0 ? opts->max_rounds : 100;
  const bb_hrc *inst = d->in;
  d->deadline = opts ? opts->deadline : 0;
  d->err = err;
  hosp_view *view = malloc(((size_t)inst->n_hospitals + 1) * sizeof *view);
  int64_t *restart = malloc(((size_t)d->nagents + 1) * sizeof *restart);
  bb_status st = BB_OK;
  if (!view || !restart) st = bb_fail(err, BB_ERR_NOMEM, "bb_hrc_da: out of memory");
  bb_hrcda_totals total = {0, 0, false};
  int code = st == BB_OK ? bb_hrcda_full_run(d, randomised, seed, max_rounds, view, restart, assigned, best, &total)
                         : BB_HRCDA_DONE;
  if (code == BB_HRCDA_TIMED_OUT)
    st = bb_fail(err, BB_ERR_TIMEOUT, "hrc-da: time limit reached after %d repair rounds, %llu proposals", total.rounds,
                 (unsigned long long)total.proposals);
  else if (code == BB_HRCDA_COUNT_FAILED)
    st = (bb_status)d->host_status;
  d->err = NULL;
  free(view);
  free(restart);
  if (st == BB_OK && stats) *stats = (bb_hrc_da_stats){total.rounds, total.proposals, total.bounded};
  return st;
}

bb_status bb_hrc_da(const bb_hrc *inst, const bb_hrc_da_opts *opts, int32_t *assigned, bool *stable, uint64_t *blocking,
                    bb_hrc_da_stats *stats, bb_error *err) {
  if (!inst || !assigned) return bb_fail(err, BB_ERR_ARG, "bb_hrc_da: NULL argument");
  uint64_t best = UINT64_MAX;
  bb_hrc_da_stats total = {0, 0, false};
  /* Batch rounds first (they settle large instances fastest); if they end unstable, a fresh run
     with sequential rounds, which small crowded instances favour. The better result stays. */
  da d;
  bb_status st = bb_hrcda_init(&d, inst, opts ? opts->max_proposals : 0, err);
  if (st == BB_OK) st = bb_hrcda_host_run(&d, opts, false, 0, assigned, &best, &total, err);
  bb_hrcda_free(&d);
  if (st != BB_OK) return st;
  if (stable) *stable = best == 0;
  if (blocking) *blocking = best;
  if (stats) *stats = total;
  return BB_OK;
}
