/* Stability checker: is wife_of a perfect matching with no blocking pair?
 *
 * A pair (m, w) blocks when m lists w before his wife and w lists m before her husband.
 * Answering "does w prefer m to her husband" in O(1) needs either the women's rank
 * matrix (n^2 ids, as large as the lists) or a second look at w's row (O(n), so O(n^3)
 * in all). Neither fits "O(n^2) time, little memory", and with read-only lists a
 * join of the two prefix relations cannot be done in O(n) words (the relations have up
 * to n^2 pairs each). We keep one bit per (woman, man):
 *
 *   1. for every woman w, set bit (w, m) for each man m in her list before her husband
 *      (one scan of each woman's row up to her husband);
 *   2. for every man m, scan his row up to his wife; (m, w) blocks iff bit (w, m) is set.
 *
 * O(n^2) time and n^2 / 8 bytes (1/64 of the lists themselves; 528 MB at n = 65000)
 * plus O(n) words. If the bit matrix cannot be allocated we process the women in
 * blocks of as many rows as fit, re-scanning the men's prefixes once per block. Both
 * steps run in parallel; the report is the blocking pair with the smallest man id and,
 * for him, the woman earliest in his list, whatever the thread count.
 *
 * The rows come from a row source (row_source.h): the host lists, or rows regenerated one at a
 * time by the generator (solve --gen-on gpu --verify), then each thread has one row buffer per
 * side and the check holds no list at all. */
#include "instance.h"
#include "row_source.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"

#define NONE INT64_MAX

typedef struct check_ctx {
  const bb_row_source *src;
  bb_id *row_bufs[2]; /* n ids per thread for a regenerated side, else NULL */
  const bb_id *wife_of;
  const int32_t *husband_of;
  uint64_t *bits;                  /* (w - w0) * words + m / 64 */
  size_t words;                    /* 64-bit words per woman */
  int w0, w1;                      /* women of the current block */
  _Atomic int64_t first_blocking;  /* m * n + position of w in m's list */
  _Atomic int64_t first_bad_woman; /* a woman whose list lacks her husband / has a bad id */
  _Atomic int64_t first_bad_man;
} check_ctx;

static void atomic_min(_Atomic int64_t *slot, int64_t value) {
  int64_t cur = atomic_load_explicit(slot, memory_order_relaxed);
  while (value < cur &&
         !atomic_compare_exchange_weak_explicit(slot, &cur, value, memory_order_relaxed, memory_order_relaxed)) {}
}

/* Step 1 for the women begin..end of the block. */
static void mark_preferred_men(void *arg, int64_t begin, int64_t end, int tid) {
  check_ctx *ctx = arg;
  int n = ctx->src->n;
  bb_id *buf = ctx->row_bufs[1] ? ctx->row_bufs[1] + (size_t)tid * (size_t)n : NULL;
  for (int64_t w = ctx->w0 + begin; w < ctx->w0 + end; w++) {
    const bb_id *row = bb_row_source_row(ctx->src, 1, (int)w, buf);
    uint64_t *bits = ctx->bits + (size_t)(w - ctx->w0) * ctx->words;
    bb_id husband = (bb_id)ctx->husband_of[w];
    memset(bits, 0, ctx->words * sizeof *bits);
    for (int k = 0;; k++) {
      bb_id m = k < n ? row[k] : (bb_id)n;
      if (m == husband) break;
      if (m >= (bb_id)n) { /* an id out of range, or no husband in the list */
        atomic_min(&ctx->first_bad_woman, w);
        break;
      }
      bits[m >> 6] |= (uint64_t)1 << (m & 63);
    }
  }
}

/* Step 2 for the men begin..end against the women of the block. */
static void find_blocking_pairs(void *arg, int64_t begin, int64_t end, int tid) {
  check_ctx *ctx = arg;
  int n = ctx->src->n;
  bb_id *buf = ctx->row_bufs[0] ? ctx->row_bufs[0] + (size_t)tid * (size_t)n : NULL;
  for (int64_t m = begin; m < end; m++) {
    if (m > atomic_load_explicit(&ctx->first_blocking, memory_order_relaxed) / n) return;
    const bb_id *row = bb_row_source_row(ctx->src, 0, (int)m, buf);
    bb_id wife = ctx->wife_of[m];
    uint64_t bit = (uint64_t)1 << (m & 63);
    size_t word = (size_t)m >> 6;
    for (int k = 0;; k++) {
      bb_id w = k < n ? row[k] : (bb_id)n;
      if (w == wife) break;
      if (w >= (bb_id)n) { /* an id out of range, or no wife in the list */
        atomic_min(&ctx->first_bad_man, m);
        break;
      }
      if ((int)w < ctx->w0 || (int)w >= ctx->w1) continue;
      if (ctx->bits[(size_t)((int)w - ctx->w0) * ctx->words + word] & bit) {
        atomic_min(&ctx->first_blocking, m * n + k);
        break;
      }
    }
  }
}

static int position_in(const bb_id *row, int n, bb_id id) {
  for (int k = 0; k < n; k++)
    if (row[k] == id) return k;
  return -1;
}

static bb_status report_bad_row(const bb_row_source *src, bb_id *buf, const char *side, int who, bb_id partner,
                                bb_error *err) {
  const char *other = side[0] == 'm' ? "woman" : "man";
  const bb_id *row = bb_row_source_row(src, side[0] != 'm', who, buf);
  for (int k = 0; k < src->n; k++)
    if (row[k] >= (bb_id)src->n)
      return bb_fail(err, BB_ERR_INPUT, "invalid instance: %s %d's list, position %d: id %u is out of range 0..%d",
                     side, who, k, row[k], src->n - 1);
  return bb_fail(err, BB_ERR_INPUT, "invalid instance: %s %d's list does not contain %s partner, %s %u", side, who,
                 side[0] == 'm' ? "his" : "her", other, partner);
}

bb_status bb_check_stable(const bb_instance *inst, const bb_id *wife_of, bb_error *err) {
  if (!inst || inst->n < 1 || !inst->men_prefs || !inst->women_prefs || !wife_of)
    return bb_fail(err, BB_ERR_ARG, "bb_check_stable: NULL or empty argument");
  bb_row_source src;
  bb_status st = bb_row_source_init(&src, inst, NULL, err);
  return st == BB_OK ? bb_check_stable_rows(&src, wife_of, err) : st;
}

/* One row buffer per thread for each regenerated side, and one for the report (none at all
 * with host lists: the rows are read in place). */
static bb_status alloc_row_bufs(const bb_row_source *src, int threads, bb_id *bufs[2], bb_id **report, bb_error *err) {
  size_t n = (size_t)src->n;
  bufs[0] = bufs[1] = *report = NULL;
  if (!bb_row_source_generated(src, 0) && !bb_row_source_generated(src, 1)) return BB_OK;
  int ok = (*report = malloc(n * sizeof **report)) != NULL;
  for (int side = 0; side < 2 && ok; side++)
    if (bb_row_source_generated(src, side))
      ok = (bufs[side] = malloc((size_t)threads * n * sizeof *bufs[side])) != NULL;
  if (ok) return BB_OK;
  free(bufs[0]);
  free(bufs[1]);
  free(*report);
  return bb_fail(err, BB_ERR_NOMEM, "bb_check_stable: out of memory for row buffers");
}

bb_status bb_check_stable_rows(const bb_row_source *src, const bb_id *wife_of, bb_error *err) {
  if (!src || src->n < 1 || !wife_of || ((!src->lists[0] || !src->lists[1]) && !src->spec))
    return bb_fail(err, BB_ERR_ARG, "bb_check_stable: NULL or empty argument");
  int n = src->n;
  int32_t *husband_of = malloc((size_t)n * sizeof *husband_of);
  if (!husband_of) return bb_fail(err, BB_ERR_NOMEM, "bb_check_stable: out of memory");
  for (int w = 0; w < n; w++) husband_of[w] = -1;
  for (int m = 0; m < n; m++) {
    bb_id w = wife_of[m];
    if (w >= (bb_id)n) {
      free(husband_of);
      return bb_fail(err, BB_ERR_INPUT, "man %d has woman id %u, out of range 0..%d", m, w, n - 1);
    }
    if (husband_of[w] >= 0) {
      int first = husband_of[w];
      free(husband_of);
      return bb_fail(err, BB_ERR_INPUT, "woman %u is married to both man %d and man %d", w, first, m);
    }
    husband_of[w] = m;
  }
  /* n men, n women, no woman twice: the matching is perfect. */

  size_t words = ((size_t)n + 63) / 64;
  int block = n;
  uint64_t *bits = NULL;
  while (block >= 1 && !(bits = malloc((size_t)block * words * sizeof *bits))) block /= 2;
  if (!bits) {
    free(husband_of);
    return bb_fail(err, BB_ERR_NOMEM, "bb_check_stable: out of memory");
  }

  check_ctx ctx = {.src = src, .wife_of = wife_of, .husband_of = husband_of, .bits = bits, .words = words};
  atomic_init(&ctx.first_blocking, NONE);
  atomic_init(&ctx.first_bad_woman, NONE);
  atomic_init(&ctx.first_bad_man, NONE);
  int threads = bb_check_stable_threads(n);
  bb_id *report = NULL;
  if (alloc_row_bufs(src, threads, ctx.row_bufs, &report, err) != BB_OK) {
    free(bits);
    free(husband_of);
    return BB_ERR_NOMEM;
  }

  for (int w0 = 0; w0 < n; w0 += block) {
    ctx.w0 = w0;
    ctx.w1 = n - w0 < block ? n : w0 + block;
    int rows = ctx.w1 - ctx.w0;
    bb_parallel_for(threads < rows ? threads : rows, rows, mark_preferred_men, &ctx);
    if (atomic_load(&ctx.first_bad_woman) != NONE) break;
    bb_parallel_for(threads, n, find_blocking_pairs, &ctx);
    if (atomic_load(&ctx.first_bad_man) != NONE) break;
  }
  free(bits);
  free(ctx.row_bufs[0]);
  free(ctx.row_bufs[1]);

  bb_status st = BB_OK;
  int64_t bad_woman = atomic_load(&ctx.first_bad_woman), bad_man = atomic_load(&ctx.first_bad_man);
  int64_t blocking = atomic_load(&ctx.first_blocking);
  if (bad_woman != NONE) {
    st = report_bad_row(src, report, "woman", (int)bad_woman, (bb_id)husband_of[bad_woman], err);
  } else if (bad_man != NONE) {
    st = report_bad_row(src, report, "man", (int)bad_man, wife_of[bad_man], err);
  } else if (blocking != NONE) {
    int m = (int)(blocking / n), k = (int)(blocking % n);
    const bb_id *his_row = bb_row_source_row(src, 0, m, report);
    bb_id w = his_row[k];
    bb_id wife = wife_of[m];
    int his_wife_at = position_in(his_row, n, wife); /* before `report` holds her row */
    int husband = husband_of[w];
    const bb_id *her_row = bb_row_source_row(src, 1, (int)w, report);
    st = bb_fail(err, BB_ERR_INPUT,
                 "blocking pair (man %d, woman %u): both prefer each other to their partners "
                 "(he lists her at position %d, his wife woman %u at %d; she lists him at "
                 "position %d, her husband man %d at %d)",
                 m, w, k, wife, his_wife_at, position_in(her_row, n, (bb_id)m), husband,
                 position_in(her_row, n, (bb_id)husband));
  }
  free(report);
  free(husband_of);
  return st;
}

int bb_check_stable_threads(int n) { return (uint64_t)n * (uint64_t)n < ((uint64_t)1 << 20) ? 1 : bb_cpu_count(); }
