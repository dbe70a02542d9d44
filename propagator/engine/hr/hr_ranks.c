/* The ranked view of an SMI/HR instance (hr_internal.h): for every list entry, the rank the
 * other side gives it back.
 *
 * Looking a resident up in a hospital's list entry by entry would cost O(list length) per
 * entry. Instead the residents' entries are bucketed by hospital (a counting-sort
 * transpose), and each hospital then marks the residents of its own list with their ranks in
 * a resident-indexed array, so every bucket entry is answered in O(1): O(entries) in all.
 * Hospitals are independent, so they are shared out among threads, each with its own marks. */
#include <stdlib.h>

#include "hr_internal.h"
#include "parallel.h"

typedef struct rank_ctx {
  const bb_hr *inst;
  uint32_t *bucket_start;    /* n_hospitals + 1 */
  uint32_t *cursor;          /* threads x n_hospitals: each thread's next slot in each bucket */
  uint32_t *bucket_entry;    /* resident entry index, by hospital */
  uint32_t *bucket_resident; /* its resident */
  bb_hr_node *nodes;
  int32_t *hosp_rank;
  uint64_t *marks; /* threads * n_residents: (hospital + 1) << 32 | value */
} rank_ctx;

/* The transpose without atomics: thread t counts its chunk of residents into its own row of
 * cursors, the rows are turned into offsets (hospital by hospital, thread by thread), and the
 * same chunks fill the buckets. bb_parallel_for gives chunk t to tid t both times. */
static void count_entries(void *arg, int64_t begin, int64_t end, int tid) {
  rank_ctx *c = arg;
  const bb_hr *inst = c->inst;
  uint32_t *cursor = c->cursor + (size_t)tid * (size_t)inst->n_hospitals;
  for (uint32_t e = inst->res_start[begin]; e < inst->res_start[end]; e++) cursor[inst->res_list[e]]++;
}

static void fill_buckets(void *arg, int64_t begin, int64_t end, int tid) {
  rank_ctx *c = arg;
  const bb_hr *inst = c->inst;
  uint32_t *cursor = c->cursor + (size_t)tid * (size_t)inst->n_hospitals;
  for (int64_t r = begin; r < end; r++)
    for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++) {
      uint32_t slot = cursor[inst->res_list[e]]++;
      c->bucket_entry[slot] = e;
      c->bucket_resident[slot] = (uint32_t)r;
    }
}

static void rank_hospitals(void *arg, int64_t begin, int64_t end, int tid) {
  rank_ctx *c = arg;
  const bb_hr *inst = c->inst;
  uint64_t *mark = c->marks + (size_t)tid * (size_t)inst->n_residents;
  for (int64_t h = begin; h < end; h++) {
    uint64_t tag = (uint64_t)(h + 1) << 32;
    uint32_t first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
    for (uint32_t f = first; f < last; f++) mark[inst->hosp_list[f]] = tag | (f - first);
    for (uint32_t b = c->bucket_start[h]; b < c->bucket_start[h + 1]; b++) {
      uint64_t m = mark[c->bucket_resident[b]];
      uint32_t rank = (m & ~0xffffffffull) == tag ? (uint32_t)m : BB_HR_UNRANKED;
      c->nodes[c->bucket_entry[b]] = bb_hr_make_node((uint32_t)h, rank);
    }
    if (!c->hosp_rank) continue;
    /* The other direction: the same buckets give each resident's position of h. Marks are
     * tagged with h + 1 | 1 << 31 so they never match the marks above. */
    uint64_t tag2 = (uint64_t)(h + 1) << 32 | 0x8000000000000000ull;
    for (uint32_t b = c->bucket_start[h]; b < c->bucket_start[h + 1]; b++) {
      uint32_t r = c->bucket_resident[b];
      mark[r] = tag2 | (c->bucket_entry[b] - inst->res_start[r]);
    }
    for (uint32_t f = first; f < last; f++) {
      uint64_t m = mark[inst->hosp_list[f]];
      c->hosp_rank[f] = (m & ~0xffffffffull) == tag2 ? (int32_t)(uint32_t)m : -1;
    }
  }
}

/* Short residents' lists (the resident match: 15 of 2,300 programmes): each hospital entry
 * finds itself in the resident's list by a scan, which reads the hospitals' lists in order
 * and needs no transpose. */
#define SCAN_MAX_AVERAGE 32
#define PREFETCH_AHEAD 16

static void scan_hospitals(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  rank_ctx *c = arg;
  const bb_hr *inst = c->inst;
  for (int64_t h = begin; h < end; h++) {
    uint32_t first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
    for (uint32_t f = first; f < last; f++) {
      /* The residents' rows are read in random order: fetch a few entries ahead (halves
       * the time at NRMP size). */
      if (f + PREFETCH_AHEAD < last) {
        uint32_t ahead = inst->res_start[inst->hosp_list[f + PREFETCH_AHEAD]];
        __builtin_prefetch(inst->res_list + ahead);
        __builtin_prefetch(inst->res_list + ahead + 15);
        __builtin_prefetch(c->nodes + ahead, 1);
      }
      uint32_t r = inst->hosp_list[f], from = inst->res_start[r], len = inst->res_start[r + 1] - from;
      const bb_id *row = inst->res_list + from;
      /* No early exit: where h sits is random, and a fixed-length loop of conditional moves
       * costs less than the mispredicted branch that would leave it. */
      int32_t at = -1;
      for (uint32_t j = 0; j < len; j++) at = row[j] == (bb_id)h ? (int32_t)j : at;
      if (at >= 0) c->nodes[from + (uint32_t)at] = bb_hr_make_node((uint32_t)h, f - first);
      if (c->hosp_rank) c->hosp_rank[f] = at;
    }
  }
}

static void unranked_nodes(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  rank_ctx *c = arg;
  for (int64_t e = begin; e < end; e++) c->nodes[e] = bb_hr_make_node(c->inst->res_list[e], BB_HR_UNRANKED);
}

bb_status bb_hr_rank_pairs(const bb_hr *inst, int threads, bb_hr_node *nodes, int32_t *hosp_rank, bb_error *err) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t entries = inst->res_start[nr];
  if (threads <= 0) threads = bb_cpu_count();
  if (threads > 1 && entries < 1000000) threads = 1; /* not worth the threads */
  if (nr > 0 && entries / (uint32_t)nr <= SCAN_MAX_AVERAGE) {
    rank_ctx c = {.inst = inst, .nodes = nodes, .hosp_rank = hosp_rank};
    bb_parallel_for(threads, entries, unranked_nodes, &c);
    bb_parallel_for(threads > nh ? (nh > 0 ? nh : 1) : threads, nh, scan_hospitals, &c);
    return BB_OK;
  }
  if (threads > nh) threads = nh > 0 ? nh : 1;
  rank_ctx c = {.inst = inst, .nodes = nodes, .hosp_rank = hosp_rank};
  c.bucket_start = malloc(((size_t)nh + 1) * sizeof *c.bucket_start);
  c.cursor = calloc((size_t)threads * (size_t)nh + 1, sizeof *c.cursor);
  c.bucket_entry = malloc(((size_t)entries + 1) * sizeof *c.bucket_entry);
  c.bucket_resident = malloc(((size_t)entries + 1) * sizeof *c.bucket_resident);
  /* + 1: never NULL, also with no residents (rank_hospitals offsets it per thread). */
  c.marks = calloc((size_t)threads * (size_t)nr + 1, sizeof *c.marks);
  bb_status st = BB_OK;
  if (!c.bucket_start || !c.cursor || !c.bucket_entry || !c.bucket_resident || !c.marks) {
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory ranking %u list entries", entries);
  } else {
    bb_parallel_for(threads, nr, count_entries, &c);
    uint32_t sum = 0;
    for (int h = 0; h < nh; h++) {
      c.bucket_start[h] = sum;
      for (int t = 0; t < threads; t++) {
        uint32_t *cell = &c.cursor[(size_t)t * nh + h], count = *cell;
        *cell = sum;
        sum += count;
      }
    }
    c.bucket_start[nh] = sum;
    bb_parallel_for(threads, nr, fill_buckets, &c);
    bb_parallel_for(threads, nh, rank_hospitals, &c);
  }
  free(c.bucket_start);
  free(c.cursor);
  free(c.bucket_entry);
  free(c.bucket_resident);
  free(c.marks);
  return st;
}

uint32_t bb_hr_post_starts(const bb_hr *inst, uint32_t *post_start) {
  uint32_t sum = 0;
  for (int h = 0; h < inst->n_hospitals; h++) {
    post_start[h] = sum;
    sum += bb_hr_posts_of(inst, h);
  }
  post_start[inst->n_hospitals] = sum;
  return sum;
}

void bb_hr_assign_from_posts(const bb_hr *inst, const uint32_t *post_start, const uint64_t *posts, int32_t *assigned) {
  for (int r = 0; r < inst->n_residents; r++) assigned[r] = BB_HR_NONE;
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t p = post_start[h]; p < post_start[h + 1]; p++)
      if (posts[p] != BB_HR_EMPTY_POST) assigned[(uint32_t)posts[p]] = h;
}
