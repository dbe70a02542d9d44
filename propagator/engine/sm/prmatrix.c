/* Rank matrix and PRMatrix construction ([Bamboo-SMP] section IV-A, Figure 4), parallel
 * over rows: every entry is independent. */
#include "prmatrix.h"

#include "parallel.h"

#include <stdlib.h>

/* Below this many cells a thread costs more than it saves. */
#define PARALLEL_MIN_CELLS (1u << 18)

static int threads_for_cells(int threads, int n) {
  if ((size_t)n * (size_t)n < PARALLEL_MIN_CELLS) return 1;
  if (threads <= 0) threads = bb_cpu_count();
  return threads > n ? n : threads;
}

/* malloc of an n x n matrix, refusing sizes the machine does not have. */
static void *matrix_alloc(int n, size_t cell, const char *what, bb_error *err) {
  size_t bytes = (size_t)n * (size_t)n * cell;
  uint64_t avail = bb_available_memory();
  int too_large = avail && bytes > avail;
  void *p = too_large ? NULL : malloc(bytes);
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  if (!p)
    bb_fail(err, BB_ERR_NOMEM,
            too_large ? "n = %d: the %s needs %s of host memory, %s available"
                      : "n = %d: the %s needs %s of host memory: allocation failed (%s available)",
            n, what, bb_bytes_text(need, bytes), bb_bytes_text(have, too_large ? avail : bb_available_memory()));
  return p;
}

typedef struct build_ctx {
  const bb_instance *inst;
  const uint32_t *women_rank;
  uint32_t *rank_out;
  bb_prnode *pr_out;
} build_ctx;

static void rank_rows(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const build_ctx *c = arg;
  size_t n = (size_t)c->inst->n;
  for (size_t w = (size_t)begin; w < (size_t)end; w++) {
    const bb_id *list = c->inst->women_prefs + w * n;
    uint32_t *rank = c->rank_out + w * n;
    for (size_t k = 0; k < n; k++) rank[list[k]] = (uint32_t)k;
  }
}

/* Men are done in blocks of PR_BLOCK (one cache line of a rank row): the block's
 * columns of the rank matrix are first copied into rows of a scratch buffer, reading
 * each line of the rank matrix once, so the lookups then stay inside one row of n
 * entries instead of striding over the whole matrix. */
#define PR_BLOCK 16

static void pr_rows(void *arg, int64_t begin, int64_t end, int tid) {
  (void)tid;
  const build_ctx *c = arg;
  size_t n = (size_t)c->inst->n;
  uint32_t *columns = malloc(PR_BLOCK * n * sizeof *columns);
  for (size_t m0 = (size_t)begin; m0 < (size_t)end; m0 += PR_BLOCK) {
    size_t block = (size_t)end - m0 < PR_BLOCK ? (size_t)end - m0 : PR_BLOCK;
    if (columns)
      for (size_t w = 0; w < n; w++) {
        const uint32_t *line = c->women_rank + w * n + m0;
        for (size_t j = 0; j < block; j++) columns[j * n + w] = line[j];
      }
    for (size_t j = 0; j < block; j++) {
      size_t m = m0 + j;
      const bb_id *list = c->inst->men_prefs + m * n;
      bb_prnode *row = c->pr_out + m * n;
      if (columns) {
        const uint32_t *rank_of_m = columns + j * n; /* rank_of_m[w] = rank of m with w */
        for (size_t k = 0; k < n; k++) row[k] = (bb_prnode){list[k], rank_of_m[list[k]]};
      } else { /* no scratch memory: stride through the rank matrix */
        for (size_t k = 0; k < n; k++) row[k] = (bb_prnode){list[k], c->women_rank[(size_t)list[k] * n + m]};
      }
    }
  }
  free(columns);
}

bb_status bb_rank_matrix_build(const bb_instance *inst, int threads, uint32_t **women_rank, bb_error *err) {
  *women_rank = NULL;
  uint32_t *rank = matrix_alloc(inst->n, sizeof *rank, "women's rank matrix", err);
  if (!rank) return BB_ERR_NOMEM;
  build_ctx c = {inst, NULL, rank, NULL};
  bb_parallel_for(threads_for_cells(threads, inst->n), inst->n, rank_rows, &c);
  *women_rank = rank;
  return BB_OK;
}

bb_status bb_prmatrix_build(const bb_instance *inst, const uint32_t *women_rank, int threads, bb_prnode **prmatrix,
                            bb_error *err) {
  *prmatrix = NULL;
  bb_prnode *pr = matrix_alloc(inst->n, sizeof *pr, "PRMatrix", err);
  if (!pr) return BB_ERR_NOMEM;
  build_ctx c = {inst, women_rank, NULL, pr};
  bb_parallel_for(threads_for_cells(threads, inst->n), inst->n, pr_rows, &c);
  *prmatrix = pr;
  return BB_OK;
}
