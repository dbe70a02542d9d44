/* SMTI/HRT instance files (ties_io.h, docs/formats.md): the binary reader and both writers.
 *
 * The binary file is a 40-byte header (magic, version, smti flag, NR, NH, the entries of each
 * side as 64-bit counts) and then bb_ties' arrays in order, little-endian 32-bit words:
 * res_start, res_list, res_rank, hosp_start, hosp_list, hosp_rank, capacity. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "io_writer.h"
#include "ties_io.h"
#include "ties_io_internal.h"

bb_status bb_ties_read_binary(reader *r, bb_ties **out, bb_error *err) {
  const char *name = r->name;
  const unsigned char *h = NULL;
  bb_status st = bb_reader_header(r, BB_TIES_HEADER_BYTES, BB_TIES_VERSION, &h, err);
  if (st != BB_OK) return st;
  uint32_t smti = bb_io_load_u32(h + 12), nr = bb_io_load_u32(h + 16), nh = bb_io_load_u32(h + 20);
  uint64_t er = bb_io_load_u64(h + 24), eh = bb_io_load_u64(h + 32);
  if (smti > 1 || nr > BB_MAX_N || nh > BB_MAX_N || er > UINT32_MAX - 1 || eh > UINT32_MAX - 1)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: flag %u, %u and %u people, %llu and %llu entries", name, smti,
                   nr, nh, (unsigned long long)er, (unsigned long long)eh);
  uint64_t expected = BB_TIES_HEADER_BYTES + 4 * ((uint64_t)nr + 1 + 2 * er + (uint64_t)nh + 1 + 2 * eh + nh);
  if ((st = bb_reader_check_size(r, expected, true, err)) != BB_OK) return st;
  bb_error sub = {{0}};
  bb_ties *inst = bb_ties_new(smti != 0, (int)nr, (int)nh, er, eh, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", name, sub.msg);
  bool ok = bb_reader_words(r, inst->res_start, (uint64_t)nr + 1) && bb_reader_words(r, inst->res_list, er) &&
            bb_reader_words(r, inst->res_rank, er) && bb_reader_words(r, inst->hosp_start, (uint64_t)nh + 1) &&
            bb_reader_words(r, inst->hosp_list, eh) && bb_reader_words(r, inst->hosp_rank, eh) &&
            bb_reader_words(r, (uint32_t *)inst->capacity, nh);
  if (!ok) st = bb_reader_words_fail(r, expected, err);
  if (st == BB_OK && bb_reader_has_more(r))
    st = bb_fail(err, BB_ERR_INPUT, "%s: extra data after the capacities (expected %llu bytes)", name,
                 (unsigned long long)expected);
  if (st == BB_OK && (inst->res_start[nr] != er || inst->hosp_start[nh] != eh))
    st = bb_fail(err, BB_ERR_INPUT, "%s: the last offsets (%u, %u) disagree with the header's entries (%llu, %llu)",
                 name, inst->res_start[nr], inst->hosp_start[nh], (unsigned long long)er, (unsigned long long)eh);
  if (st == BB_OK && (st = bb_ties_validate(inst, &sub)) != BB_OK) bb_fail(err, st, "%s: %s", name, sub.msg);
  if (st != BB_OK) {
    bb_ties_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}

/* ---------------------------------------------------------------- writing ---- */

/* One list: ids in order, a group of equal ranks in brackets. */
static void put_list(writer *o, const bb_id *list, const uint32_t *rank, uint32_t begin, uint32_t end) {
  for (uint32_t e = begin; e < end; e++) {
    bool opens = (e == begin || rank[e - 1] != rank[e]) && e + 1 < end && rank[e + 1] == rank[e];
    bool closes = e > begin && rank[e - 1] == rank[e] && (e + 1 == end || rank[e + 1] != rank[e]);
    if (e > begin) bb_writer_put_text(o, " ");
    if (opens) bb_writer_put_text(o, "[");
    bb_writer_put_uint(o, list[e], 0);
    if (closes) bb_writer_put_text(o, "]");
  }
}

bb_status bb_ties_write_text(const bb_ties *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "w", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, inst->smti ? "smti " : "hrt ");
  bb_writer_put_uint(&o, (uint32_t)inst->n_residents, ' ');
  bb_writer_put_uint(&o, (uint32_t)inst->n_hospitals, '\n');
  for (int r = 0; r < inst->n_residents; r++) {
    if (inst->res_start[r] == inst->res_start[r + 1]) bb_writer_put_text(&o, "-");
    put_list(&o, inst->res_list, inst->res_rank, inst->res_start[r], inst->res_start[r + 1]);
    bb_writer_put_text(&o, "\n");
  }
  for (int h = 0; h < inst->n_hospitals; h++) {
    if (!inst->smti) bb_writer_put_uint(&o, (uint32_t)inst->capacity[h], ':');
    if (!inst->smti && inst->hosp_start[h] < inst->hosp_start[h + 1]) bb_writer_put_text(&o, " ");
    if (inst->smti && inst->hosp_start[h] == inst->hosp_start[h + 1]) bb_writer_put_text(&o, "-");
    put_list(&o, inst->hosp_list, inst->hosp_rank, inst->hosp_start[h], inst->hosp_start[h + 1]);
    bb_writer_put_text(&o, "\n");
  }
  return bb_writer_close(&o, err);
}

bb_status bb_ties_write_binary(const bb_ties *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "wb", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, BB_TIES_MAGIC);
  uint64_t er = inst->res_start[inst->n_residents], eh = inst->hosp_start[inst->n_hospitals];
  uint32_t header[8] = {BB_TIES_VERSION,
                        inst->smti ? 1u : 0u,
                        (uint32_t)inst->n_residents,
                        (uint32_t)inst->n_hospitals,
                        (uint32_t)er,
                        (uint32_t)(er >> 32),
                        (uint32_t)eh,
                        (uint32_t)(eh >> 32)};
  for (int k = 0; k < 8; k++) bb_writer_put_u32(&o, header[k]);
  bb_writer_put_ids(&o, inst->res_start, (size_t)inst->n_residents + 1, 4);
  bb_writer_put_ids(&o, inst->res_list, er, 4);
  bb_writer_put_ids(&o, inst->res_rank, er, 4);
  bb_writer_put_ids(&o, inst->hosp_start, (size_t)inst->n_hospitals + 1, 4);
  bb_writer_put_ids(&o, inst->hosp_list, eh, 4);
  bb_writer_put_ids(&o, inst->hosp_rank, eh, 4);
  for (int h = 0; h < inst->n_hospitals; h++) bb_writer_put_u32(&o, (uint32_t)inst->capacity[h]);
  return bb_writer_close(&o, err);
}
