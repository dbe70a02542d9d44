/* The HRC local search's state (internal/hrc_walk.h): a deferred acceptance kept between
 * moves, two journals to undo a move or go back to the checkpoint, and the blocking pairs
 * counted again only for the agents a change can reach. A step costs what the move touched
 * (its queue, the lists of the hospitals whose held sets changed) instead of the whole
 * instance. */
#include <stdlib.h>
#include <string.h>

#include "hrc_walk.h"
#include "rng.h"

static int members(const bb_hrcw *w, int a, int32_t *r) {
  if (a < w->d.nr) {
    r[0] = a;
    return 1;
  }
  r[0] = w->d.in->couple_member[2 * (a - w->d.nr)];
  r[1] = w->d.in->couple_member[2 * (a - w->d.nr) + 1];
  return 2;
}

static int agent_of(const bb_hrcw *w, int32_t r) {
  int32_t c = w->d.in->couple_of[r];
  return c == BB_HRC_SINGLE ? r : w->d.nr + c;
}

static void journal_note_agent(const bb_hrcw *w, hrcw_journal *j, int a) {
  if (j->agent_seen[a]) return;
  j->agent_seen[a] = 1;
  j->agents[j->nagents++] = a;
  j->next[a] = w->d.next[a];
  j->cur[a] = w->d.cur[a];
  int32_t r[2];
  for (int m = 0, n = members(w, a, r); m < n; m++) j->assigned[2 * a + m] = w->d.assigned[r[m]];
}

static void journal_note_hospital(const bb_hrcw *w, hrcw_journal *j, int h) {
  if (j->hosp_seen[h]) return;
  j->hosp_seen[h] = 1;
  j->hosps[j->nhosps++] = h;
  j->nheld[h] = w->d.nheld[h];
  memcpy(j->slots + w->d.L.slot0[h], w->d.slots + w->d.L.slot0[h], (size_t)w->d.nheld[h] * sizeof *j->slots);
}

void bb_hrcw_note_agent(bb_hrcw *w, int a) {
  journal_note_agent(w, &w->move, a);
  journal_note_agent(w, &w->since, a);
}

void bb_hrcw_note_hospital(bb_hrcw *w, int h) {
  journal_note_hospital(w, &w->move, h);
  journal_note_hospital(w, &w->since, h);
}

static void journal_clear(hrcw_journal *j) {
  for (int i = 0; i < j->nagents; i++) j->agent_seen[j->agents[i]] = 0;
  for (int i = 0; i < j->nhosps; i++) j->hosp_seen[j->hosps[i]] = 0;
  j->nagents = j->nhosps = 0;
}

/* Puts back every saved state (the lists stay, for the recount). */
static void journal_restore(bb_hrcw *w, const hrcw_journal *j) {
  da *d = &w->d;
  for (int i = 0; i < j->nagents; i++) {
    int a = j->agents[i];
    int32_t r[2];
    d->next[a] = j->next[a], d->cur[a] = j->cur[a];
    for (int m = 0, n = members(w, a, r); m < n; m++) d->assigned[r[m]] = j->assigned[2 * a + m];
  }
  for (int i = 0; i < j->nhosps; i++) {
    int h = j->hosps[i];
    d->nheld[h] = j->nheld[h];
    memcpy(d->slots + d->L.slot0[h], j->slots + d->L.slot0[h], (size_t)j->nheld[h] * sizeof *d->slots);
  }
}

static bool journal_alloc(hrcw_journal *j, size_t na, size_t nh, size_t nslots) {
  j->agents = malloc(na * sizeof *j->agents);
  j->hosps = malloc(nh * sizeof *j->hosps);
  j->agent_seen = calloc(na, 1);
  j->hosp_seen = calloc(nh, 1);
  j->next = malloc(na * sizeof *j->next);
  j->cur = malloc(na * sizeof *j->cur);
  j->assigned = malloc(2 * na * sizeof *j->assigned);
  j->nheld = malloc(nh * sizeof *j->nheld);
  j->slots = malloc(nslots * sizeof *j->slots);
  j->nagents = j->nhosps = 0;
  return j->agents && j->hosps && j->agent_seen && j->hosp_seen && j->next && j->cur && j->assigned && j->nheld &&
         j->slots;
}

static void journal_free(hrcw_journal *j) {
  free(j->agents), free(j->hosps), free(j->agent_seen), free(j->hosp_seen), free(j->next), free(j->cur);
  free(j->assigned), free(j->nheld), free(j->slots);
}

/* Counts agent a again; the totals and the blocker set follow. */
static void recount_agent(bb_hrcw *w, int a) {
  int64_t first;
  int n = bb_hrcda_blocking_entries(&w->d, w->view, a, &first);
  w->blocking += (uint64_t)n - (uint64_t)w->nblock[a];
  w->nblock[a] = n, w->first[a] = first;
  if (n > 0 && w->where[a] < 0) {
    w->where[a] = w->nblockers;
    w->blockers[w->nblockers++] = a;
  } else if (n == 0 && w->where[a] >= 0) {
    int last = w->blockers[--w->nblockers];
    w->blockers[w->where[a]] = last, w->where[last] = w->where[a];
    w->where[a] = -1;
  }
  uint8_t placed = w->d.cur[a] >= 0;
  if (placed != w->placed[a]) {
    int32_t r[2];
    int size = members(w, a, r);
    w->matched += placed ? size : -size;
    w->placed[a] = placed;
  }
}

/* After the changes journal j lists: new views for its hospitals, then every agent that j
 * names or that lists a hospital whose view changed is counted again (each once). */
static void recount(bb_hrcw *w, const hrcw_journal *j) {
  const bb_hrc *in = w->d.in;
  int ntodo = 0;
  if (++w->pass == INT32_MAX) {
    memset(w->stamp, 0, (size_t)w->d.nagents * sizeof *w->stamp);
    w->pass = 1;
  }
  for (int i = 0; i < j->nagents; i++) {
    int a = j->agents[i];
    if (w->stamp[a] != w->pass) w->stamp[a] = w->pass, w->todo[ntodo++] = a;
  }
  for (int i = 0; i < j->nhosps; i++) {
    int h = j->hosps[i];
    hosp_view v = bb_hrcda_view_one(&w->d, h), o = w->view[h];
    if (v.taken == o.taken && v.worst == o.worst && v.second == o.second && v.worst_id == o.worst_id) continue;
    w->view[h] = v;
    /* Whoever h does not list cannot block with h: its list is enough. */
    for (uint32_t f = in->hosp_start[h]; f < in->hosp_start[h + 1]; f++) {
      int a = agent_of(w, (int32_t)in->hosp_list[f]);
      if (w->stamp[a] != w->pass) w->stamp[a] = w->pass, w->todo[ntodo++] = a;
    }
  }
  for (int i = 0; i < ntodo; i++) recount_agent(w, w->todo[i]);
}

bb_status bb_hrcw_init(bb_hrcw *w, const bb_hrc *inst, const int32_t *assigned, uint64_t seed, bb_error *err) {
  memset(w, 0, sizeof *w);
  /* The queue breaks ties by position, the checker does not: the counts would differ. */
  if (bb_hrc_has_ties(inst))
    return bb_fail(err, BB_ERR_ARG, "hrc polish: the hospitals' lists have ties (the walk needs strict lists)");
  bb_status st = bb_hrcda_init(&w->d, inst, 0, err);
  if (st != BB_OK) return st;
  size_t na = (size_t)w->d.nagents + 1, nh = (size_t)inst->n_hospitals + 1, nslots = (size_t)w->d.L.slot0[nh - 1] + 1;
  w->view = malloc(nh * sizeof *w->view);
  w->nblock = calloc(na, sizeof *w->nblock);
  w->first = malloc(na * sizeof *w->first);
  w->placed = calloc(na, 1);
  w->blockers = malloc(na * sizeof *w->blockers);
  w->where = malloc(na * sizeof *w->where);
  w->todo = malloc(na * sizeof *w->todo);
  w->stamp = calloc(na, sizeof *w->stamp);
  bool ok = journal_alloc(&w->move, na, nh, nslots) && journal_alloc(&w->since, na, nh, nslots);
  if (!ok || !w->view || !w->nblock || !w->first || !w->placed || !w->blockers || !w->where || !w->todo || !w->stamp)
    return bb_fail(err, BB_ERR_NOMEM, "hrc polish: out of memory");
  w->d.rng = seed;
  bb_hrcda_load(&w->d, assigned);
  bb_hrcda_view(&w->d, w->view);
  for (int a = 0; a < w->d.nagents; a++) {
    w->where[a] = -1, w->first[a] = -1;
    if (a < w->d.nr && inst->couple_of[a] != BB_HRC_SINGLE) continue;
    recount_agent(w, a);
  }
  w->d.watch = w;
  return BB_OK;
}

void bb_hrcw_free(bb_hrcw *w) {
  w->d.watch = NULL;
  bb_hrcda_free(&w->d);
  journal_free(&w->move), journal_free(&w->since);
  free(w->view), free(w->nblock), free(w->first), free(w->placed), free(w->blockers), free(w->where);
  free(w->todo), free(w->stamp);
}

/* Runs the queue the move filled, then counts what it touched; a cut queue is undone. */
static bool finish_move(bb_hrcw *w) {
  w->d.proposals = 0;
  bb_hrcda_run_queue(&w->d);
  bb_hrcda_clear_queue(&w->d);
  if (w->d.timed_out) {
    journal_restore(w, &w->move);
    recount(w, &w->move);
    journal_clear(&w->move);
    return false;
  }
  recount(w, &w->move);
  return true;
}

static int random_blocker(bb_hrcw *w) { return w->blockers[bb_splitmix64(&w->d.rng) % (uint64_t)w->nblockers]; }

bool bb_hrcw_move(bb_hrcw *w) {
  if (w->nblockers == 0) return false;
  int a = random_blocker(w);
  uint32_t k = (uint32_t)w->first[a];
  bb_hrcw_note_agent(w, a);
  if (w->d.cur[a] >= 0) bb_hrcda_lose_place(&w->d, a);
  w->d.next[a] = k;
  bb_hrcda_push(&w->d, a);
  return finish_move(w);
}

/* Agent x loses its place (if it has one) and proposes again from entry `from`. */
static void send_back(bb_hrcw *w, int x, uint32_t from) {
  bb_hrcw_note_agent(w, x);
  if (w->d.cur[x] >= 0) bb_hrcda_lose_place(&w->d, x);
  w->d.next[x] = from;
  bb_hrcda_push(&w->d, x);
}

bool bb_hrcw_move_free(bb_hrcw *w) {
  if (w->nblockers == 0) return false;
  const bb_hrc *in = w->d.in;
  int a = random_blocker(w);
  uint32_t k = (uint32_t)w->first[a];
  uint32_t e = a < w->d.nr ? in->single_start[a] + k : in->couple_start[a - w->d.nr] + k;
  int hs[2] = {a < w->d.nr ? (int)in->single_list[e] : (int)in->couple_list[2 * e],
               a < w->d.nr ? -1 : (int)in->couple_list[2 * e + 1]};
  send_back(w, a, 0);
  for (int i = 0; i < 2; i++) {
    int h = hs[i];
    if (h < 0) continue;
    /* Each send takes at least one resident off h (a couple at h twice, both). */
    while (w->d.nheld[h] > 0) send_back(w, agent_of(w, w->d.slots[w->d.L.slot0[h]].resident), 0);
  }
  return finish_move(w);
}

void bb_hrcw_commit(bb_hrcw *w) { journal_clear(&w->move); }

void bb_hrcw_undo(bb_hrcw *w) {
  journal_restore(w, &w->move);
  recount(w, &w->move);
  journal_clear(&w->move);
}

void bb_hrcw_checkpoint(bb_hrcw *w) { journal_clear(&w->since); }

void bb_hrcw_back(bb_hrcw *w) {
  journal_restore(w, &w->since);
  recount(w, &w->since);
  journal_clear(&w->since);
  journal_clear(&w->move);
}
