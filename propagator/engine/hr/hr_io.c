/* SMI/HR instance files (hr_io.h, docs/formats.md): the text and binary readers and writers.
 *
 * Unlike the complete format, a blank line is meaningful here (an empty list), so every line
 * after the header is one list, except comment-only lines ('#' first), which are skipped.
 * Lists are collected in growing arrays, since the file does not say how many entries come,
 * and the instance is allocated once at the end. */
#define _POSIX_C_SOURCE 200809L
#include "hr_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "instance_readers.h"
#include "io_writer.h"

#define HR_MAGIC "BBHRCSR1"
#define HR_VERSION 1u
#define HR_HEADER_BYTES 40
#define LINE_LIMIT ((size_t)1 << 30)

/* ------------------------------------------------------------------- text ---- */

typedef struct hr_text {
  reader *r;
  long long line_no;
  bool smi;
  int n1, n2;
  uint32_t *seen, stamp;
  id_vec lists[2];
  uint32_t *start[2];
  int32_t *capacity;
} hr_text;

/* "NAME:LINE: ..." at the line being read. */
#define text_fail(t, err, st, ...) bb_reader_fail_at((t)->r, (t)->line_no, err, st, __VA_ARGS__)

static const char *side_word(const hr_text *t, int side) {
  return side ? (t->smi ? "woman" : "hospital") : (t->smi ? "man" : "resident");
}

/* One list: (for a hospital) "CAP:" then ids of the other side, or a lone '-' for none. */
static bb_status parse_list(hr_text *t, const char *line, size_t len, int side, int who, bb_error *err) {
  const char *p = line, *e = line + len, *tok, *end = NULL;
  int other = side ? t->n1 : t->n2;
  const char *word = side_word(t, side);
  char q[48];
  uint64_t v = 0;
  if (side == 1 && !t->smi) {
    /* The capacity is what stands before the line's first ':' ("2: 0 1", "2:0 1" and "2 : 0 1"
       alike); a '#' before any ':' starts a comment, so such a line has no capacity. */
    const char *colon = p;
    while (colon < e && *colon != ':' && *colon != '#') colon++;
    if (colon == e || *colon != ':')
      return text_fail(t, err, BB_ERR_INPUT, "hospital %d's line has no capacity: expected 'CAPACITY: id id ...'", who);
    tok = bb_io_next_token(p, colon, &end);
    if (!tok)
      return text_fail(t, err, BB_ERR_INPUT,
                       "hospital %d's line has nothing before ':': expected 'CAPACITY: id id ...'", who);
    size_t tl = (size_t)(colon - tok);
    while (tl > 0 && bb_io_is_blank((unsigned char)tok[tl - 1])) tl--;
    int shape = bb_io_classify(tok, tok + tl, &v);
    if (shape == TOK_JUNK)
      return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity '%s' is not a number", who,
                       bb_io_quote(q, tok, tl));
    if (shape == TOK_NEGATIVE)
      return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity %s is negative", who, bb_io_quote(q, tok, tl));
    if (v > INT32_MAX)
      return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity %s is too large", who, bb_io_quote(q, tok, tl));
    t->capacity[who] = (int32_t)v;
    p = colon + 1;
  }
  uint32_t stamp = ++t->stamp;
  int position = 0;
  while ((tok = bb_io_next_token(p, e, &end)) != NULL) {
    p = end;
    size_t tl = (size_t)(end - tok);
    if (position == 0 && tl == 1 && *tok == '-' && !bb_io_next_token(p, e, &end)) break; /* '-': empty */
    int shape = bb_io_classify(tok, end, &v);
    if (shape == TOK_JUNK)
      return text_fail(t, err, BB_ERR_INPUT, "%s %d's list: not a number: '%s'", word, who, bb_io_quote(q, tok, tl));
    if (shape == TOK_NEGATIVE || v >= (uint64_t)other)
      return text_fail(t, err, BB_ERR_INPUT, "%s %d's list, position %d: id %s is out of range 0..%d%s", word, who,
                       position, bb_io_quote(q, tok, tl), other - 1,
                       other == 0 ? " (there is nobody on the other side)" : "");
    if (t->seen[v] == stamp)
      return text_fail(t, err, BB_ERR_INPUT, "%s %d's list, position %d: id %s appears twice", word, who, position,
                       bb_io_quote(q, tok, tl));
    t->seen[v] = stamp;
    if (!bb_id_vec_push(&t->lists[side], (bb_id)v))
      return text_fail(t, err, BB_ERR_NOMEM, "out of memory for the lists (%llu entries)",
                       (unsigned long long)t->lists[side].len);
    position++;
  }
  t->start[side][who + 1] = (uint32_t)t->lists[side].len;
  return BB_OK;
}

static bb_status parse_header(hr_text *t, const char *line, size_t len, bb_error *err) {
  const char *e = line + len, *end = NULL, *tok = bb_io_next_token(line, e, &end);
  char q[48];
  size_t tl = (size_t)(end - tok);
  if (tl == 3 && memcmp(tok, "smi", 3) == 0)
    t->smi = true;
  else if (!(tl == 2 && memcmp(tok, "hr", 2) == 0))
    return text_fail(t, err, BB_ERR_INPUT, "expected 'smi N1 N2' or 'hr NR NH', found '%s'", bb_io_quote(q, tok, tl));
  const char *what[2] = {t->smi ? "N1 (men)" : "NR (residents)", t->smi ? "N2 (women)" : "NH (hospitals)"};
  int *n[2] = {&t->n1, &t->n2};
  for (int k = 0; k < 2; k++) {
    tok = bb_io_next_token(end, e, &end);
    uint64_t v = 0;
    if (!tok) return text_fail(t, err, BB_ERR_INPUT, "the header lacks %s", what[k]);
    int shape = bb_io_classify(tok, end, &v);
    if (shape != TOK_NUMBER || v > BB_MAX_N)
      return text_fail(t, err, BB_ERR_INPUT, "%s = '%s' is not a count in 0..%d", what[k],
                       bb_io_quote(q, tok, (size_t)(end - tok)), BB_MAX_N);
    *n[k] = (int)v;
  }
  if ((tok = bb_io_next_token(end, e, &end)) != NULL)
    return text_fail(t, err, BB_ERR_INPUT, "unexpected '%s' after the header's counts",
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  return BB_OK;
}

static bb_status read_text(hr_text *t, bb_hr **out, bb_error *err) {
  const char *line;
  size_t len;
  int got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no); /* the header */
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  if (got == 0) return bb_fail(err, BB_ERR_INPUT, "%s: no header 'smi N1 N2' or 'hr NR NH'", t->r->name);
  bb_status st = parse_header(t, line, len, err);
  if (st != BB_OK) return st;
  int most = t->n1 > t->n2 ? t->n1 : t->n2;
  t->seen = calloc((size_t)most + 1, sizeof *t->seen);
  t->start[0] = calloc((size_t)t->n1 + 1, sizeof(uint32_t));
  t->start[1] = calloc((size_t)t->n2 + 1, sizeof(uint32_t));
  t->capacity = calloc((size_t)t->n2 + 1, sizeof *t->capacity);
  if (!t->seen || !t->start[0] || !t->start[1] || !t->capacity) return text_fail(t, err, BB_ERR_NOMEM, "out of memory");
  if (t->smi)
    for (int h = 0; h < t->n2; h++) t->capacity[h] = 1;
  int rows = 0, total = t->n1 + t->n2;
  while (rows < total) {
    got = bb_reader_list_line(t->r, &line, &len, LINE_LIMIT, &t->line_no);
    if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
    if (got == 0) {
      int side = rows >= t->n1;
      return text_fail(t, err, BB_ERR_INPUT,
                       "file ends after %d of %d lists (truncated?): %s %d's list is missing (an empty list is an "
                       "empty line or '-')",
                       rows, total, side_word(t, side), side ? rows - t->n1 : rows);
    }
    int side = rows >= t->n1;
    if ((st = parse_list(t, line, len, side, side ? rows - t->n1 : rows, err)) != BB_OK) return st;
    rows++;
  }
  if ((got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no)) > 0)
    return text_fail(t, err, BB_ERR_INPUT, "extra data after the %s lists (the header says %d and %d)",
                     t->smi ? "women's" : "hospitals'", t->n1, t->n2);
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  bb_error sub = {{0}};
  bb_hr *inst = bb_hr_new(t->smi, t->n1, t->n2, t->lists[0].len, t->lists[1].len, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", t->r->name, sub.msg);
  memcpy(inst->res_start, t->start[0], ((size_t)t->n1 + 1) * sizeof(uint32_t));
  memcpy(inst->hosp_start, t->start[1], ((size_t)t->n2 + 1) * sizeof(uint32_t));
  memcpy(inst->capacity, t->capacity, (size_t)t->n2 * sizeof(int32_t));
  if (t->lists[0].len) memcpy(inst->res_list, t->lists[0].ids, t->lists[0].len * sizeof(bb_id));
  if (t->lists[1].len) memcpy(inst->hosp_list, t->lists[1].ids, t->lists[1].len * sizeof(bb_id));
  *out = inst;
  return BB_OK;
}

/* ----------------------------------------------------------------- binary ---- */

static bb_status check_offsets(const char *name, const uint32_t *start, int count, uint64_t entries, const char *who,
                               bb_error *err) {
  if (start[0] != 0) return bb_fail(err, BB_ERR_INPUT, "%s: the %s' offsets start at %u, not 0", name, who, start[0]);
  for (int p = 0; p < count; p++)
    if (start[p + 1] < start[p])
      return bb_fail(err, BB_ERR_INPUT, "%s: the %s' offsets decrease at %d (%u then %u)", name, who, p, start[p],
                     start[p + 1]);
  if (start[count] != entries)
    return bb_fail(err, BB_ERR_INPUT, "%s: the %s' last offset is %u but the header says %llu entries", name, who,
                   start[count], (unsigned long long)entries);
  return BB_OK;
}

static bb_status read_binary(reader *r, bb_hr **out, bb_error *err) {
  const char *name = r->name;
  const unsigned char *h = NULL;
  bb_status st = bb_reader_header(r, HR_HEADER_BYTES, HR_VERSION, &h, err);
  if (st != BB_OK) return st;
  uint32_t kind = bb_io_load_u32(h + 12), n1 = bb_io_load_u32(h + 16), n2 = bb_io_load_u32(h + 20);
  uint64_t e1 = bb_io_load_u64(h + 24), e2 = bb_io_load_u64(h + 32);
  if (kind > 1) return bb_fail(err, BB_ERR_INPUT, "%s: bad header: kind %u is neither 0 (smi) nor 1 (hr)", name, kind);
  if (n1 > BB_MAX_N || n2 > BB_MAX_N)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: %u and %u people; at most %d a side", name, n1, n2, BB_MAX_N);
  if (e1 > UINT32_MAX - 1 || e2 > UINT32_MAX - 1)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: %llu and %llu entries; at most %u a side", name,
                   (unsigned long long)e1, (unsigned long long)e2, UINT32_MAX - 1);
  uint64_t expected = HR_HEADER_BYTES + 4 * ((uint64_t)n1 + 1 + e1 + (uint64_t)n2 + 1 + e2 + (kind ? n2 : 0));
  if ((st = bb_reader_check_size(r, expected, false, err)) != BB_OK) return st;
  bb_error sub = {{0}};
  bb_hr *inst = bb_hr_new(kind == 0, (int)n1, (int)n2, e1, e2, &sub);
  if (!inst) return bb_fail(err, sub.msg[0] ? BB_ERR_NOMEM : BB_ERR_INPUT, "%s: %s", name, sub.msg);
  bool ok = bb_reader_words(r, inst->res_start, (uint64_t)n1 + 1) && bb_reader_words(r, inst->res_list, e1) &&
            bb_reader_words(r, inst->hosp_start, (uint64_t)n2 + 1) && bb_reader_words(r, inst->hosp_list, e2) &&
            (kind == 0 || bb_reader_words(r, (uint32_t *)inst->capacity, n2));
  if (!ok) st = bb_reader_words_fail(r, expected, err);
  if (st == BB_OK && bb_reader_has_more(r))
    st = bb_fail(err, BB_ERR_INPUT, "%s: extra data after the %s (expected %llu bytes)", name,
                 kind ? "capacities" : "women's lists", (unsigned long long)expected);
  if (kind == 0)
    for (uint32_t w = 0; w < n2; w++) inst->capacity[w] = 1;
  if (st == BB_OK) st = check_offsets(name, inst->res_start, (int)n1, e1, kind ? "residents" : "men", err);
  if (st == BB_OK) st = check_offsets(name, inst->hosp_start, (int)n2, e2, kind ? "hospitals" : "women", err);
  if (st == BB_OK && (st = bb_hr_validate(inst, &sub)) != BB_OK) bb_fail(err, st, "%s: %s", name, sub.msg);
  if (st != BB_OK) {
    bb_hr_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}

/* ---------------------------------------------------------------- reading ---- */

/* The first token of the text, past blank and comment lines, is "smi" or "hr". */
static bool looks_like_hr_text(const reader *r) {
  const char *p = bb_reader_first_token(r), *e = r->buf + r->end;
  size_t left = (size_t)(e - p);
  if (left >= 4 && memcmp(p, "smi", 3) == 0 && bb_io_is_blank((unsigned char)p[3])) return true;
  return left >= 3 && memcmp(p, "hr", 2) == 0 && bb_io_is_blank((unsigned char)p[2]);
}

bool bb_hr_sniff(const reader *r) {
  size_t have = r->end - r->begin;
  return (have >= 8 && memcmp(r->buf + r->begin, HR_MAGIC, 8) == 0) || looks_like_hr_text(r);
}

bb_status bb_hr_read_from(reader *r, bb_hr **out, bb_error *err) {
  size_t have = r->end - r->begin;
  if (have >= 8 && memcmp(r->buf + r->begin, HR_MAGIC, 8) == 0) return read_binary(r, out, err);
  if (!looks_like_hr_text(r))
    return bb_fail(err, BB_ERR_INPUT, "%s: not an SMI/HR instance: expected 'smi N1 N2', 'hr NR NH' or the %s magic",
                   r->name, HR_MAGIC);
  hr_text t = {.r = r};
  bb_status st = read_text(&t, out, err);
  free(t.seen);
  free(t.start[0]);
  free(t.start[1]);
  free(t.capacity);
  free(t.lists[0].ids);
  free(t.lists[1].ids);
  return st;
}

bb_status bb_hr_read(const char *path, bb_hr **out, bb_error *err) {
  if (!path || !out) return bb_fail(err, BB_ERR_ARG, "bb_hr_read: NULL argument");
  *out = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  st = bb_hr_read_from(&r, out, err);
  bb_reader_close(&r);
  return st;
}

/* ---------------------------------------------------------------- writing ---- */

static void put_lists(writer *o, const uint32_t *start, const bb_id *list, int count, const int32_t *capacity) {
  for (int p = 0; p < count; p++) {
    if (capacity) {
      bb_writer_put_uint(o, (uint32_t)capacity[p], 0);
      bb_writer_put_text(o, ":");
    }
    for (uint32_t e = start[p]; e < start[p + 1]; e++) {
      if (capacity || e > start[p]) bb_writer_put_text(o, " ");
      bb_writer_put_uint(o, list[e], 0);
    }
    bb_writer_put_text(o, "\n");
  }
}

bb_status bb_hr_write_text(const bb_hr *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "w", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, inst->smi ? "smi " : "hr ");
  bb_writer_put_uint(&o, (uint32_t)inst->n_residents, ' ');
  bb_writer_put_uint(&o, (uint32_t)inst->n_hospitals, '\n');
  put_lists(&o, inst->res_start, inst->res_list, inst->n_residents, NULL);
  put_lists(&o, inst->hosp_start, inst->hosp_list, inst->n_hospitals, inst->smi ? NULL : inst->capacity);
  return bb_writer_close(&o, err);
}

bb_status bb_hr_write_binary(const bb_hr *inst, const char *path, bb_error *err) {
  writer o;
  bb_status st = bb_writer_open(&o, path, "wb", err);
  if (st != BB_OK) return st;
  bb_writer_put_text(&o, HR_MAGIC);
  uint64_t e1 = inst->res_start[inst->n_residents], e2 = inst->hosp_start[inst->n_hospitals];
  uint32_t header[8] = {
      HR_VERSION,           inst->smi ? 0u : 1u, (uint32_t)inst->n_residents, (uint32_t)inst->n_hospitals, (uint32_t)e1,
      (uint32_t)(e1 >> 32), (uint32_t)e2,        (uint32_t)(e2 >> 32)};
  for (int k = 0; k < 8; k++) bb_writer_put_u32(&o, header[k]);
  bb_writer_put_ids(&o, inst->res_start, (size_t)inst->n_residents + 1, 4);
  bb_writer_put_ids(&o, inst->res_list, e1, 4);
  bb_writer_put_ids(&o, inst->hosp_start, (size_t)inst->n_hospitals + 1, 4);
  bb_writer_put_ids(&o, inst->hosp_list, e2, 4);
  if (!inst->smi)
    for (int h = 0; h < inst->n_hospitals; h++) bb_writer_put_u32(&o, (uint32_t)inst->capacity[h]);
  return bb_writer_close(&o, err);
}
