/* mw-par for SMI/HR: parallel McVitie-Wilson over hospital posts with compare-and-swap
 * (the lock-free parallel McVitie-Wilson of [Manne 2016], on the posts of hr_internal.h).
 *
 * Each thread takes a resident and runs his chain: he proposes down his list, trying each
 * acceptable hospital's posts in order; a post holds the word rank << 32 | resident of its
 * holder, and a proposal with a smaller word takes it by compare-and-swap. The displaced
 * holder (if any) is carried on by the same thread from his own cursor. Proposal order does
 * not matter to McVitie-Wilson, so the result is the resident-optimal stable matching.
 *
 * A resident's cursor (entry << 32 | post) is written before the CAS that publishes him on a
 * post; the thread that displaces him reads it after its own CAS read his word, so the
 * release/acquire pair of the two CASes orders the two. */
#include <stdatomic.h>
#include <stdlib.h>

#include "deadline.h"
#include "hr_internal.h"
#include "parallel.h"

typedef struct par_ctx {
  const bb_hr *inst;
  const bb_hr_node *nodes;
  const uint32_t *post_start;
  _Atomic uint64_t *posts;
  _Atomic uint64_t *cursor;
  _Atomic int next_resident;
  _Atomic uint64_t proposals;
  _Atomic int timed_out;
  double deadline;
} par_ctx;

static void chain(par_ctx *c, uint32_t r) {
  const bb_hr *inst = c->inst;
  uint64_t at = atomic_load_explicit(&c->cursor[r], memory_order_relaxed);
  uint32_t e = (uint32_t)(at >> 32), p = (uint32_t)at, proposals = 0;
  for (;;) {
    if (e >= inst->res_start[r + 1]) break; /* r stays unassigned */
    bb_hr_node node = c->nodes[e];
    uint32_t rank = bb_hr_node_rank(node), h = bb_hr_node_hospital(node);
    uint32_t posts = rank == BB_HR_UNRANKED ? 0 : c->post_start[h + 1] - c->post_start[h];
    if (p >= posts) {
      e++, p = 0;
      continue;
    }
    proposals++;
    uint64_t mine = (uint64_t)rank << 32 | r;
    _Atomic uint64_t *slot = &c->posts[c->post_start[h] + p];
    atomic_store_explicit(&c->cursor[r], (uint64_t)e << 32 | p, memory_order_relaxed);
    uint64_t old = atomic_load_explicit(slot, memory_order_acquire);
    while (mine < old &&
           !atomic_compare_exchange_weak_explicit(slot, &old, mine, memory_order_acq_rel, memory_order_acquire)) {}
    if (mine > old) { /* the holder is better: try h's next post */
      p++;
      continue;
    }
    if (old == BB_HR_EMPTY_POST) break;
    r = (uint32_t)old; /* carry the displaced holder on from his next post */
    at = atomic_load_explicit(&c->cursor[r], memory_order_relaxed);
    e = (uint32_t)(at >> 32), p = (uint32_t)at + 1;
  }
  atomic_fetch_add_explicit(&c->proposals, proposals, memory_order_relaxed);
}

static void worker(void *arg, int64_t begin, int64_t end, int tid) {
  (void)begin, (void)end, (void)tid;
  par_ctx *c = arg;
  for (int k = 0;; k++) {
    if ((k & 1023) == 0 && c->deadline > 0 && bb_now() > c->deadline) {
      atomic_store(&c->timed_out, 1);
      return;
    }
    if (atomic_load_explicit(&c->timed_out, memory_order_relaxed)) return;
    int r = atomic_fetch_add_explicit(&c->next_resident, 1, memory_order_relaxed);
    if (r >= c->inst->n_residents) return;
    chain(c, (uint32_t)r);
  }
}

bb_status bb_hr_mw_par(const bb_hr *inst, const bb_hr_node *nodes, int threads, double deadline, int32_t *assigned,
                       bb_solve_stats *stats, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  par_ctx c = {.inst = inst, .nodes = nodes, .deadline = deadline};
  uint32_t *post_start = malloc(((size_t)nh + 1) * sizeof *post_start);
  c.post_start = post_start;
  c.cursor = malloc(((size_t)nr + 1) * sizeof *c.cursor);
  uint32_t total = post_start ? bb_hr_post_starts(inst, post_start) : 0;
  c.posts = malloc(((size_t)total + 1) * sizeof *c.posts);
  bb_status st = BB_OK;
  if (!post_start || !c.cursor || !c.posts) {
    st = bb_fail(err, BB_ERR_NOMEM, "mw-par: out of memory for %d residents and %d hospitals", nr, nh);
  } else {
    for (uint32_t p = 0; p < total; p++) atomic_init(&c.posts[p], BB_HR_EMPTY_POST);
    for (int r = 0; r < nr; r++) atomic_init(&c.cursor[r], (uint64_t)inst->res_start[r] << 32);
    atomic_init(&c.next_resident, 0);
    atomic_init(&c.proposals, 0);
    atomic_init(&c.timed_out, 0);
    if (threads < 1) threads = 1;
    bb_parallel_for(threads, threads, worker, &c);
    if (atomic_load(&c.timed_out)) {
      st = bb_fail(err, BB_ERR_TIMEOUT, "mw-par: time limit reached");
    } else {
      bb_hr_assign_from_posts(inst, post_start, (const uint64_t *)c.posts, assigned);
      if (stats) stats->proposals += atomic_load(&c.proposals);
    }
  }
  free(post_start);
  free((void *)c.cursor);
  free((void *)c.posts);
  return st;
}

bb_status bb_hr_finish_chains(const bb_hr *inst, const bb_hr_node *nodes, const uint32_t *post_start, uint64_t *posts,
                              uint64_t *cursor, const uint32_t *residents, int count, double deadline,
                              uint64_t *proposals, bb_error *err) {
  uint64_t made = 0;
  bb_status st = BB_OK;
  for (int k = 0; k < count && st == BB_OK; k++) {
    uint32_t r = residents[k];
    uint32_t e = (uint32_t)(cursor[r] >> 32), p = (uint32_t)cursor[r];
    while (e < inst->res_start[r + 1]) {
      bb_hr_node node = bb_hr_node_at(inst, nodes, r, e);
      uint32_t rank = bb_hr_node_rank(node), h = bb_hr_node_hospital(node);
      uint32_t open = rank == BB_HR_UNRANKED ? 0 : post_start[h + 1] - post_start[h];
      if (p >= open) {
        e++, p = 0;
        continue;
      }
      if ((made++ & 1023) == 0 && bb_past(deadline)) {
        st = bb_fail(err, BB_ERR_TIMEOUT, "the CPU tail: time limit reached after %llu proposals",
                     (unsigned long long)made);
        break;
      }
      uint64_t mine = (uint64_t)rank << 32 | r, *slot = &posts[post_start[h] + p];
      if (mine > *slot) {
        p++;
        continue;
      }
      uint64_t old = *slot;
      *slot = mine;
      cursor[r] = (uint64_t)e << 32 | p;
      if (old == BB_HR_EMPTY_POST) break;
      r = (uint32_t)old;
      e = (uint32_t)(cursor[r] >> 32), p = (uint32_t)cursor[r] + 1;
    }
  }
  *proposals += made;
  return st;
}
