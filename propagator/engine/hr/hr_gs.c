/* gs-seq for SMI/HR: the sequential Gale-Shapley algorithm with capacities (Gusfield and
 * Irving 1.6; Roth and Sotomayor 5.4), from either side.
 *
 * Residents proposing: a free resident proposes down his list; a hospital with a free post
 * accepts; a full one keeps its best c proposers, so it holds its assignees in a max-heap on
 * its rank of them and swaps out the worst when a better one proposes. The result is the
 * resident-optimal stable matching whatever the order of proposals.
 *
 * Hospitals proposing: a hospital with free posts offers them down its list; a resident
 * accepts if unassigned or if he prefers the new hospital, which gives a post back to his old
 * one. The result is the hospital-optimal stable matching. */
#include <stdlib.h>

#include "deadline.h"
#include "hr_internal.h"

/* The clock is read at the first step and then every HR_CLOCK_EVERY list entries walked (a
 * deadline already past stops at once; a clock read costs ~20 ns, 65536 steps ~100 us). */
#define HR_CLOCK_EVERY 0xFFFFu

static bb_status hr_timeout(bb_error *err, uint64_t proposals) {
  return bb_fail(err, BB_ERR_TIMEOUT, "gs-seq: time limit reached after %llu proposals", (unsigned long long)proposals);
}

/* The heap of hospital h lives in heap[post_start[h] .. + capacity): words rank << 32 |
 * resident, the worst (largest) at the root. */
static void sift_down(uint64_t *heap, uint32_t size, uint32_t i) {
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, top = i;
    if (l < size && heap[l] > heap[top]) top = l;
    if (r < size && heap[r] > heap[top]) top = r;
    if (top == i) return;
    uint64_t tmp = heap[i];
    heap[i] = heap[top];
    heap[top] = tmp;
    i = top;
  }
}

static void sift_up(uint64_t *heap, uint32_t i) {
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (heap[parent] >= heap[i]) return;
    uint64_t tmp = heap[i];
    heap[i] = heap[parent];
    heap[parent] = tmp;
    i = parent;
  }
}

bb_status bb_hr_gs_residents(const bb_hr *inst, const bb_hr_node *nodes, double deadline, int32_t *assigned,
                             bb_solve_stats *stats, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t *post_start = malloc(((size_t)nh + 1) * sizeof *post_start);
  uint32_t *held = calloc((size_t)nh + 1, sizeof *held);
  uint32_t *next = malloc(((size_t)nr + 1) * sizeof *next);
  int32_t *free_stack = malloc(((size_t)nr + 1) * sizeof *free_stack);
  uint64_t *heap = NULL;
  bb_status st = BB_OK;
  if (post_start && held && next && free_stack) {
    uint32_t posts = bb_hr_post_starts(inst, post_start);
    heap = malloc(((size_t)posts + 1) * sizeof *heap);
  }
  if (!heap) {
    st = bb_fail(err, BB_ERR_NOMEM, "gs-seq: out of memory for %d residents and %d hospitals", nr, nh);
    goto done;
  }
  int free_count = 0;
  for (int r = nr - 1; r >= 0; r--) {
    assigned[r] = BB_HR_NONE;
    next[r] = inst->res_start[r];
    free_stack[free_count++] = r;
  }
  uint64_t proposals = 0, steps = 0;
  while (free_count > 0) {
    int r = free_stack[--free_count];
    uint32_t end = inst->res_start[r + 1];
    while (next[r] < end) {
      if ((steps++ & HR_CLOCK_EVERY) == 0 && bb_past(deadline)) {
        if (stats) stats->proposals += proposals;
        st = hr_timeout(err, proposals);
        goto done;
      }
      bb_hr_node node = nodes[next[r]++];
      uint32_t rank = bb_hr_node_rank(node), h = bb_hr_node_hospital(node);
      if (rank == BB_HR_UNRANKED) continue;
      proposals++;
      uint32_t cap = post_start[h + 1] - post_start[h];
      uint64_t *mine = heap + post_start[h], word = (uint64_t)rank << 32 | (uint32_t)r;
      if (held[h] < cap) {
        mine[held[h]] = word;
        sift_up(mine, held[h]++);
      } else if (cap > 0 && word < mine[0]) {
        int loser = (int)(uint32_t)mine[0];
        assigned[loser] = BB_HR_NONE;
        free_stack[free_count++] = loser;
        mine[0] = word;
        sift_down(mine, cap, 0);
      } else {
        continue;
      }
      assigned[r] = (int32_t)h;
      break;
    }
  }
  if (stats) stats->proposals += proposals;
done:
  free(post_start);
  free(held);
  free(next);
  free(free_stack);
  free(heap);
  return st;
}

bb_status bb_hr_gs_hospitals(const bb_hr *inst, const int32_t *hosp_rank, double deadline, int32_t *assigned,
                             bb_solve_stats *stats, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t *next = malloc(((size_t)nh + 1) * sizeof *next);
  uint32_t *open = malloc(((size_t)nh + 1) * sizeof *open);              /* posts not yet filled */
  int32_t *holder_rank = malloc(((size_t)nr + 1) * sizeof *holder_rank); /* his rank of his hospital */
  int32_t *queue = malloc(((size_t)nh + 1) * sizeof *queue);
  unsigned char *queued = calloc((size_t)nh + 1, 1);
  if (!next || !open || !holder_rank || !queue || !queued) {
    free(next), free(open), free(holder_rank), free(queue), free(queued);
    return bb_fail(err, BB_ERR_NOMEM, "gs-seq: out of memory for %d residents and %d hospitals", nr, nh);
  }
  for (int r = 0; r < nr; r++) assigned[r] = BB_HR_NONE;
  int queue_len = 0;
  for (int h = nh - 1; h >= 0; h--) {
    next[h] = inst->hosp_start[h];
    open[h] = bb_hr_posts_of(inst, h);
    if (open[h] > 0) queue[queue_len++] = h, queued[h] = 1;
  }
  uint64_t proposals = 0, steps = 0;
  bb_status st = BB_OK;
  while (queue_len > 0 && st == BB_OK) {
    int h = queue[--queue_len];
    queued[h] = 0;
    uint32_t end = inst->hosp_start[h + 1];
    while (open[h] > 0 && next[h] < end) {
      if ((steps++ & HR_CLOCK_EVERY) == 0 && bb_past(deadline)) {
        st = hr_timeout(err, proposals);
        break;
      }
      uint32_t f = next[h]++;
      int32_t rank = hosp_rank[f];
      if (rank < 0) continue;
      proposals++;
      int r = (int)inst->hosp_list[f], old = assigned[r];
      if (old != BB_HR_NONE && holder_rank[r] < rank) continue; /* he keeps the better one */
      if (old != BB_HR_NONE) {
        open[old]++;
        if (!queued[old]) queue[queue_len++] = old, queued[old] = 1;
      }
      assigned[r] = h;
      holder_rank[r] = rank;
      open[h]--;
    }
  }
  if (stats) stats->proposals += proposals;
  free(next), free(open), free(holder_rank), free(queue), free(queued);
  return st;
}
