/* HRC instance files (hrc_io.h, docs/formats.md): the binary reader and both writers.
 *
 * The binary file is bb_hrc's arrays in order, little-endian, after a 48-byte header; the
 * couples' membership (couple_of) is not stored but derived from couple_member. Version 2
 * (written only when some hospital has a tie) appends hosp_rank; version 1 is still read. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hrc_io.h"
#include "hrc_io_internal.h"
#include "io_writer.h"

static bb_status check_last(const char *name, const uint32_t *start, int count, uint64_t entries, const char *who,
                            bb_error *err) {
  if (start[count] != entries)
    return bb_fail(err, BB_ERR_INPUT, "%s: the %s' last offset is %u but the header says %llu entries", name, who,
                   start[count], (unsigned long long)entries);
  return BB_OK;
}

bb_status bb_hrc_read_binary(reader *r, bb_hrc **out, bb_error *err) {
  const char *name = r->name;
  const unsigned char *h = NULL;
  bb_status st = bb_reader_header(r, BB_HRC_HEADER_BYTES, BB_HRC_VERSION, &h, err);
  if (st != BB_OK) return st;
  bool ranked = bb_io_load_u32(h + 8) == 2;
  uint32_t nr = bb_io_load_u32(h + 12), nh = bb_io_load_u32(h + 16), nc = bb_io_load_u32(h + 20);
  uint64_t es = bb_io_load_u64(h + 24), ec = bb_io_load_u64(h + 32), eh = bb_io_load_u64(h + 40);
  if (nr > BB_MAX_N || nh > BB_MAX_N || (uint64_t)nc * 2 > nr)
    return bb_fail(err, BB_ERR_INPUT,
                   "%s: bad header: %u residents, %u hospitals, %u couples (at most %d a side, two residents a couple)",
                   name, nr, nh, nc, BB_MAX_N);
  if (es > UINT32_MAX - 1 || ec > (UINT32_MAX - 1) / 2 || eh > UINT32_MAX - 1)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: %llu, %llu and %llu entries are too many", name,
                   (unsigned long long)es, (unsigned long long)ec, (unsigned long long)eh);
  uint64_t expected = BB_HRC_HEADER_BYTES + 4 * (2 * (uint64_t)nc + nr + 1 + es + (uint64_t)nc + 1 + 2 * ec +
                                                 (uint64_t)nh + 1 + eh + nh + (ranked ? eh : 0));
  if ((st = bb_reader_check_size(r, expected, true, err)) != BB_OK) return st;
  bb_error sub = {{0}};
  bb_hrc *inst = bb_hrc_new((int)nr, (int)nh, (int)nc, es, ec, eh, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", name, sub.msg);
  bool ok = bb_reader_words(r, (uint32_t *)inst->couple_member, 2 * (uint64_t)nc) &&
            bb_reader_words(r, inst->single_start, (uint64_t)nr + 1) && bb_reader_words(r, inst->single_list, es) &&
            bb_reader_words(r, inst->couple_start, (uint64_t)nc + 1) && bb_reader_words(r, inst->couple_list, 2 * ec) &&
            bb_reader_words(r, inst->hosp_start, (uint64_t)nh + 1) && bb_reader_words(r, inst->hosp_list, eh) &&
            bb_reader_words(r, (uint32_t *)inst->capacity, nh);
  if (ok && ranked) st = check_last(name, inst->hosp_start, (int)nh, eh, "hospitals", err); /* sizes the ranks */
  if (ok && ranked && st == BB_OK && (st = bb_hrc_add_ranks(inst, &sub)) != BB_OK)
    bb_fail(err, st, "%s: %s", name, sub.msg);
  if (ok && ranked && st == BB_OK) ok = bb_reader_words(r, inst->hosp_rank, eh);
  if (!ok) st = bb_reader_words_fail(r, expected, err);
  if (st == BB_OK && bb_reader_has_more(r))
    st = bb_fail(err, BB_ERR_INPUT, "%s: extra data after the %s (expected %llu bytes)", name,
                 ranked ? "hospitals' ranks" : "capacities", (unsigned long long)expected);
  if (st == BB_OK) st = check_last(name, inst->single_start, (int)nr, es, "residents", err);
  if (st == BB_OK) st = check_last(name, inst->couple_start, (int)nc, ec, "couples", err);
  if (st == BB_OK) st = check_last(name, inst->hosp_start, (int)nh, eh, "hospitals", err);
  for (uint32_t c = 0; st == BB_OK && c < nc; c++)
    for (int m = 0; m < 2; m++) {
      int32_t who = inst->couple_member[2 * c + m];
      if (who < 0 || (uint32_t)who >= nr)
        st = bb_fail(err, BB_ERR_INPUT, "%s: couple %u: member %d is out of range 0..%u", name, c, who, nr - 1);
      else
        inst->couple_of[who] = (int32_t)c;
    }
  if (st == BB_OK && (st = bb_hrc_validate(inst, &sub)) != BB_OK) bb_fail(err, st, "%s: %s", name, sub.msg);
  if (st != BB_OK) {
    bb_hrc_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}

/* ---------------------------------------------------------------- writing ---- */

bb_status bb_hrc_write_text(const bb_hrc *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "w", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, "hrc ");
  bb_writer_put_uint(&o, (uint32_t)inst->n_residents, ' ');
  bb_writer_put_uint(&o, (uint32_t)inst->n_hospitals, ' ');
  bb_writer_put_uint(&o, (uint32_t)inst->n_couples, '\n');
  for (int c = 0; c < inst->n_couples; c++) {
    bb_writer_put_uint(&o, (uint32_t)inst->couple_member[2 * c], ' ');
    bb_writer_put_uint(&o, (uint32_t)inst->couple_member[2 * c + 1], ':');
    for (uint32_t e = inst->couple_start[c]; e < inst->couple_start[c + 1]; e++) {
      bb_writer_put_text(&o, e > inst->couple_start[c] ? "  " : " ");
      bb_writer_put_uint(&o, inst->couple_list[2 * e], ' ');
      bb_writer_put_uint(&o, inst->couple_list[2 * e + 1], 0);
    }
    bb_writer_put_text(&o, "\n");
  }
  for (int r = 0; r < inst->n_residents; r++) {
    if (inst->couple_of[r] != BB_HRC_SINGLE) bb_writer_put_text(&o, "-");
    for (uint32_t e = inst->single_start[r]; e < inst->single_start[r + 1]; e++)
      bb_writer_put_uint(&o, inst->single_list[e], e + 1 < inst->single_start[r + 1] ? ' ' : 0);
    bb_writer_put_text(&o, "\n");
  }
  bool tied = bb_hrc_has_ties(inst);
  for (int h = 0; h < inst->n_hospitals; h++) {
    uint32_t first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
    bb_writer_put_uint(&o, (uint32_t)inst->capacity[h], ':');
    for (uint32_t e = first; e < last; e++) { /* a tie of two or more in brackets */
      uint32_t q = bb_hrc_hosp_rank(inst, h, e);
      bool opens = tied && e + 1 < last && inst->hosp_rank[e + 1] == q && (e == first || inst->hosp_rank[e - 1] != q);
      bool closes = tied && e > first && inst->hosp_rank[e - 1] == q && (e + 1 == last || inst->hosp_rank[e + 1] != q);
      bb_writer_put_text(&o, opens ? " [" : " ");
      bb_writer_put_uint(&o, inst->hosp_list[e], 0);
      if (closes) bb_writer_put_text(&o, "]");
    }
    bb_writer_put_text(&o, "\n");
  }
  return bb_writer_close(&o, err);
}

bb_status bb_hrc_write_binary(const bb_hrc *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "wb", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, BB_HRC_MAGIC);
  uint64_t es = inst->single_start[inst->n_residents], ec = inst->couple_start[inst->n_couples],
           eh = inst->hosp_start[inst->n_hospitals];
  bool tied = bb_hrc_has_ties(inst);
  uint32_t header[10] = {tied ? 2u : 1u,
                         (uint32_t)inst->n_residents,
                         (uint32_t)inst->n_hospitals,
                         (uint32_t)inst->n_couples,
                         (uint32_t)es,
                         (uint32_t)(es >> 32),
                         (uint32_t)ec,
                         (uint32_t)(ec >> 32),
                         (uint32_t)eh,
                         (uint32_t)(eh >> 32)};
  for (int k = 0; k < 10; k++) bb_writer_put_u32(&o, header[k]);
  for (int k = 0; k < 2 * inst->n_couples; k++) bb_writer_put_u32(&o, (uint32_t)inst->couple_member[k]);
  bb_writer_put_ids(&o, inst->single_start, (size_t)inst->n_residents + 1, 4);
  bb_writer_put_ids(&o, inst->single_list, es, 4);
  bb_writer_put_ids(&o, inst->couple_start, (size_t)inst->n_couples + 1, 4);
  bb_writer_put_ids(&o, inst->couple_list, 2 * ec, 4);
  bb_writer_put_ids(&o, inst->hosp_start, (size_t)inst->n_hospitals + 1, 4);
  bb_writer_put_ids(&o, inst->hosp_list, eh, 4);
  for (int h = 0; h < inst->n_hospitals; h++) bb_writer_put_u32(&o, (uint32_t)inst->capacity[h]);
  if (tied) bb_writer_put_ids(&o, inst->hosp_rank, eh, 4);
  return bb_writer_close(&o, err);
}
