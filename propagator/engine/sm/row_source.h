/* Where a side's preference rows come from: the host lists when they exist, else
 * the generator's row code (gen_rows.h), one row at a time, bit for bit the rows the host
 * generator writes. With solve --gen KIND --gen-on gpu the host holds no lists at all: the
 * matching's husbands (bb_row_source_husbands) and the stability check
 * (bb_check_stable_rows) regenerate each row they read, in O(n) memory per thread.
 *
 * A row is a pure function of (spec, side, row), so rows can be regenerated in any order by
 * any number of threads (gen_rows.h). */
#ifndef BB_ROW_SOURCE_H
#define BB_ROW_SOURCE_H

#include "gen_rows.h"
#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_row_source {
  int n;
  const bb_id *lists[2];   /* [0] men's, [1] women's: n * n host ids each, or NULL */
  const bb_gen_spec *spec; /* the rows of a side without lists are regenerated from it */
} bb_row_source;

/* The source of an instance's lists, with `spec` (may be NULL) for the sides it lacks.
 * BB_ERR_ARG when a side has neither lists nor a spec, or the spec is for another n. */
bb_status bb_row_source_init(bb_row_source *src, const bb_instance *inst, const bb_gen_spec *spec, bb_error *err);

/* Row `who` of side `women` (0 men, 1 women): a pointer into the host lists, or `buf`
 * (n ids) filled by the generator. */
static inline const bb_id *bb_row_source_row(const bb_row_source *src, int women, int who, bb_id *buf) {
  const bb_id *lists = src->lists[women ? 1 : 0];
  if (lists) return lists + (size_t)who * (size_t)src->n;
  bb_gen_row(src->spec, women ? 1 : 0, who, buf);
  return buf;
}

/* Whether side `women` is regenerated (then a reader needs a row buffer). */
static inline int bb_row_source_generated(const bb_row_source *src, int women) { return !src->lists[women ? 1 : 0]; }

/* husband[w] = the man at position partner_rank[w] of woman w's row, for every woman with
 * partner_rank[w] < n (the others are left alone). With `before` non-NULL only the women whose
 * partner_rank differs from before[w] are looked at (after a phase that moved a few). Rows are
 * regenerated on `threads` threads (0: all CPUs), one row buffer each. */
bb_status bb_row_source_husbands(const bb_row_source *src, const uint32_t *partner_rank, const uint32_t *before,
                                 bb_id *husband, int threads, bb_error *err);

/* Host bytes bb_row_source_husbands needs beyond its arguments on `threads` threads (0: all
 * CPUs): one row per thread when the women's rows are regenerated, else nothing. */
uint64_t bb_row_source_scratch_bytes(int n, int threads, int generated);

/* bb_check_stable (instance.h) over a row source: the same verdict and message, with the rows
 * read one at a time (n^2 / 8 bytes of bits plus a row buffer per thread and O(n) words). */
bb_status bb_check_stable_rows(const bb_row_source *src, const bb_id *wife_of, bb_error *err);

/* The threads the stability check (bb_check_stable, bb_check_stable_rows) runs on at size n:
 * one below about a million pairs, else every CPU (the memory plan counts a row buffer each). */
int bb_check_stable_threads(int n);

#ifdef __cplusplus
}
#endif
#endif
