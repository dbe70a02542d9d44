/* Instance files (docs/formats.md): a line-oriented text format and a raw binary one.
 *
 * Both readers stream the file through one growing buffer, so input can be a pipe, and
 * report the first problem with its place: "FILE:LINE: ..." for text (row i of the lists
 * is exactly the ids of one non-blank, non-comment line, which lets a wrong row length
 * be named precisely), "FILE: ..." for binary. Integers are parsed by hand: a 1 GB text
 * file (n = 10000) must not take minutes. */
#define _POSIX_C_SOURCE 200809L
#include "instance_io.h"

#include "instance_readers.h"
#include "io_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIN_MAGIC "BBSMPBIN"
#define BIN_VERSION 1u
#define BIN_HEADER_BYTES 24
/* No legitimate line needs more than ~8 bytes per id; this bounds memory on junk input. */
#define LINE_SLACK ((size_t)64 << 20)

/* ------------------------------------------------------------------ reading ---- */

typedef struct text_state {
  reader *r;
  const char *name;
  long long line_no;
  int n;
  uint32_t *seen; /* n stamps for the permutation check */
  uint32_t stamp;
} text_state;

/* "FILE:LINE: ..." at the line being read. */
#define text_fail(ts, err, st, ...) bb_reader_fail_at((ts)->r, (ts)->line_no, err, st, __VA_ARGS__)

/* Parses one list into row[0..n). The side is "man" or "woman". A wrong length is
 * reported before a bad id in it (a long row has duplicates by necessity), except that
 * a non-number is reported at once. */
static bb_status parse_row(text_state *ts, const char *line, size_t len, bb_id *row, const char *side, int who,
                           bb_error *err) {
  const char *p = line, *e = line + len;
  const int n = ts->n;
  const uint32_t stamp = ++ts->stamp;
  uint32_t *seen = ts->seen;
  int count = 0;
  int bad_pos = -1; /* first out-of-range or repeated id */
  const char *bad_tok = NULL, *bad_end = NULL;
  for (;;) {
    while (p < e && bb_io_is_blank((unsigned char)*p)) p++;
    if (p == e || *p == '#') break;
    const char *t = p;
    uint64_t v = 0;
    /* Fast path: a plain decimal number. */
    while (p < e && bb_io_is_digit((unsigned char)*p)) {
      v = v * 10 + (uint64_t)(*p - '0');
      if (v > UINT32_MAX) v = (uint64_t)UINT32_MAX + 1;
      p++;
    }
    if (p == t || (p < e && !bb_io_is_blank((unsigned char)*p) && *p != '#')) {
      while (p < e && !bb_io_is_blank((unsigned char)*p) && *p != '#') p++;
      if (bb_io_classify(t, p, &v) != TOK_NEGATIVE) {
        char q[48];
        return text_fail(ts, err, BB_ERR_INPUT, "%s %d's list: not a number: '%s'", side, who,
                         bb_io_quote(q, t, (size_t)(p - t)));
      }
      v = UINT64_MAX; /* negative: out of range */
    }
    if (count < n && bad_pos < 0) {
      if (v >= (uint64_t)n || seen[v] == stamp) {
        bad_pos = count;
        bad_tok = t;
        bad_end = p;
      } else {
        seen[v] = stamp;
        row[count] = (bb_id)v;
      }
    }
    count++;
  }
  if (count != n)
    return text_fail(ts, err, BB_ERR_INPUT, "expected %d ids in %s %d's list, line has %d", n, side, who, count);
  if (bad_pos >= 0) {
    char q[48];
    uint64_t v = 0;
    bb_io_quote(q, bad_tok, (size_t)(bad_end - bad_tok));
    if (bb_io_classify(bad_tok, bad_end, &v) != TOK_NUMBER || v >= (uint64_t)n)
      return text_fail(ts, err, BB_ERR_INPUT, "%s %d's list, position %d: id %s is out of range 0..%d", side, who,
                       bad_pos, q, n - 1);
    int first = 0;
    while (row[first] != (bb_id)v) first++;
    return text_fail(ts, err, BB_ERR_INPUT,
                     "%s %d's list: id %s appears twice (positions %d and %d): not a permutation", side, who, q, first,
                     bad_pos);
  }
  return BB_OK;
}

static int line_is_blank(const char *p, size_t len) {
  const char *e = p + len, *tok_end = NULL;
  return bb_io_next_token(p, e, &tok_end) == NULL;
}

static bb_status read_error(const text_state *ts, bb_error *err, size_t limit) {
  if (ts->r->read_errno) return bb_fail(err, BB_ERR_IO, "%s: read error: %s", ts->name, strerror(ts->r->read_errno));
  if (ts->r->cap < limit)
    return bb_fail(err, BB_ERR_NOMEM, "%s:%lld: out of memory for a line", ts->name, ts->line_no + 1);
  return bb_fail(err, BB_ERR_INPUT, "%s:%lld: line longer than %zu bytes", ts->name, ts->line_no + 1, limit);
}

static bb_status read_text(text_state *ts, bb_instance **out, bb_error *err) {
  const char *line = NULL, *tok, *tok_end = NULL;
  size_t len, limit = LINE_SLACK;
  int got;
  char q[48];

  /* n, alone on the first non-blank, non-comment line. */
  for (;;) {
    got = bb_reader_line(ts->r, &line, &len, limit);
    if (got < 0) return read_error(ts, err, limit);
    if (got == 0)
      return bb_fail(err, BB_ERR_INPUT, "%s: %s: expected n (the number of men and of women)", ts->name,
                     ts->r->bytes ? "no data (only blank lines and comments)" : "empty file");
    ts->line_no++;
    if (!line_is_blank(line, len)) break;
  }
  tok = bb_io_next_token(line, line + len, &tok_end);
  uint64_t value = 0;
  int shape = bb_io_classify(tok, tok_end, &value);
  bb_io_quote(q, tok, (size_t)(tok_end - tok));
  if (shape == TOK_JUNK)
    return text_fail(ts, err, BB_ERR_INPUT, "not a number: '%s' (expected n, the number of men and of women)", q);
  if (shape == TOK_NEGATIVE || value < 1 || value > BB_MAX_N)
    return text_fail(ts, err, BB_ERR_INPUT, "n = %s is out of range 1..%d", q, BB_MAX_N);
  const char *extra = bb_io_next_token(tok_end, line + len, &tok_end);
  if (extra)
    return text_fail(ts, err, BB_ERR_INPUT, "expected n alone on its line, found '%s' after it",
                     bb_io_quote(q, extra, (size_t)(tok_end - extra)));
  int n = (int)value;
  ts->n = n;

  bb_error sub = {{0}};
  bb_instance *inst = bb_instance_new(n, &sub);
  if (!inst) return text_fail(ts, err, BB_ERR_NOMEM, "%s", sub.msg);
  ts->seen = calloc((size_t)n, sizeof *ts->seen);
  if (!ts->seen) {
    bb_instance_free(inst);
    return text_fail(ts, err, BB_ERR_NOMEM, "out of memory");
  }

  limit = LINE_SLACK + 16 * (size_t)n;
  int rows = 0, total = 2 * n;
  bb_status st = BB_OK;
  while (st == BB_OK) {
    got = bb_reader_line(ts->r, &line, &len, limit);
    if (got < 0) {
      st = read_error(ts, err, limit);
      break;
    }
    if (got == 0) break;
    ts->line_no++;
    if (line_is_blank(line, len)) continue;
    if (rows == total) {
      st = text_fail(ts, err, BB_ERR_INPUT, "extra data after the women's lists");
      break;
    }
    int women = rows >= n;
    int who = women ? rows - n : rows;
    bb_id *row = (women ? inst->women_prefs : inst->men_prefs) + (size_t)who * (size_t)n;
    st = parse_row(ts, line, len, row, women ? "woman" : "man", who, err);
    rows++;
  }
  if (st == BB_OK && rows < total)
    st = text_fail(ts, err, BB_ERR_INPUT, "file ends after %d of %d rows (truncated?): %s", rows, total,
                   rows < n ? "the men's lists are incomplete" : "the women's lists are incomplete");
  if (st != BB_OK) {
    bb_instance_free(inst);
    return st;
  }
  *out = inst;
  return BB_OK;
}

static bb_status read_binary(reader *r, const char *name, bb_instance **out, bb_error *err) {
  if (bb_reader_want(r, BIN_HEADER_BYTES) < 0)
    return bb_fail(err, BB_ERR_IO, "%s: read error: %s", name, strerror(r->read_errno ? r->read_errno : ENOMEM));
  size_t have = r->end - r->begin;
  if (have < BIN_HEADER_BYTES)
    return bb_fail(err, BB_ERR_INPUT, "%s: truncated file: expected at least %d bytes (the header), got %zu", name,
                   BIN_HEADER_BYTES, have);
  const unsigned char *h = (const unsigned char *)r->buf + r->begin;
  uint32_t version = bb_io_load_u32(h + 8), n = bb_io_load_u32(h + 12), id_bytes = bb_io_load_u32(h + 16),
           reserved = bb_io_load_u32(h + 20);
  r->begin += BIN_HEADER_BYTES;
  if (version != BIN_VERSION)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: unsupported version %u (this build reads %u)", name, version,
                   BIN_VERSION);
  if (n < 1 || n > BB_MAX_N)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: n = %u is out of range 1..%d", name, n, BB_MAX_N);
  if (!(id_bytes == 4 || (id_bytes == 2 && n <= 65536)))
    return bb_fail(err, BB_ERR_INPUT,
                   "%s: bad header: id width %u bytes is invalid for n = %u (2 or 4, 4 when n > 65536)", name, id_bytes,
                   n);
  if (reserved != 0)
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: reserved field is %u, expected 0", name, reserved);

  uint64_t cells = 2 * (uint64_t)n * n, expected = BIN_HEADER_BYTES + cells * id_bytes;
  bb_error sub = {{0}};
  bb_instance *inst = bb_instance_new((int)n, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", name, sub.msg);

  uint64_t size = 0;
  if (bb_reader_file_size(r, &size) && size != expected) {
    bb_instance_free(inst);
    return bb_fail(err, BB_ERR_INPUT, "%s: %s: expected %llu bytes for n = %u, got %llu", name,
                   size < expected ? "truncated file" : "extra data after the women's rows",
                   (unsigned long long)expected, n, (unsigned long long)size);
  }

  /* The men's and women's rows are contiguous in the file: one stream of ids. */
  uint64_t done = 0;
  while (done < cells) {
    size_t avail = (r->end - r->begin) / id_bytes;
    if (avail == 0) {
      if (r->eof || bb_reader_fill(r, r->cap) < 0) break;
      continue;
    }
    uint64_t half = cells / 2;
    if (done < half && avail > half - done) avail = (size_t)(half - done); /* one side at a time */
    if (avail > cells - done) avail = (size_t)(cells - done);
    const unsigned char *p = (const unsigned char *)r->buf + r->begin;
    bb_id *dst = done < half ? inst->men_prefs + done : inst->women_prefs + (done - half);
    if (id_bytes == 2)
      for (size_t i = 0; i < avail; i++) dst[i] = (bb_id)(p[2 * i] | (uint32_t)p[2 * i + 1] << 8);
    else
      for (size_t i = 0; i < avail; i++) dst[i] = bb_io_load_u32(p + 4 * i);
    r->begin += avail * id_bytes;
    done += avail;
  }
  if (r->read_errno) {
    bb_instance_free(inst);
    return bb_fail(err, BB_ERR_IO, "%s: read error: %s", name, strerror(r->read_errno));
  }
  if (done < cells) {
    bb_instance_free(inst);
    return bb_fail(err, BB_ERR_INPUT, "%s: truncated file: expected %llu bytes for n = %u, got %llu", name,
                   (unsigned long long)expected, n, (unsigned long long)r->bytes);
  }
  if (bb_reader_has_more(r)) {
    bb_instance_free(inst);
    return bb_fail(err, BB_ERR_INPUT, "%s: extra data after the women's rows (expected %llu bytes)", name,
                   (unsigned long long)expected);
  }
  bb_status st = bb_instance_validate(inst, &sub);
  if (st != BB_OK) {
    bb_instance_free(inst);
    return bb_fail(err, st, "%s: %s", name, sub.msg);
  }
  *out = inst;
  return BB_OK;
}

bb_status bb_instance_read_from(reader *r, bb_instance **out, bb_error *err) {
  const char *name = r->name;
  size_t have = r->end - r->begin;
  const char *head = r->buf + r->begin;
  if (have >= 8 && memcmp(head, BIN_MAGIC, 8) == 0) return read_binary(r, name, out, err);
  if ((have >= 5 && memcmp(head, BIN_MAGIC, 5) == 0) || memchr(head, '\0', have < 8 ? have : 8)) {
    char q[48];
    return bb_fail(err, BB_ERR_INPUT, "%s: bad magic '%s': neither a text instance nor a %s binary file", name,
                   bb_io_quote(q, head, have < 8 ? have : 8), BIN_MAGIC);
  }
  text_state ts = {.r = r, .name = name};
  bb_status st = read_text(&ts, out, err);
  free(ts.seen);
  return st;
}

bb_status bb_instance_read(const char *path, bb_instance **out, bb_error *err) {
  if (!path || !out) return bb_fail(err, BB_ERR_ARG, "bb_instance_read: NULL argument");
  *out = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st == BB_OK) st = bb_instance_read_from(&r, out, err);
  bb_reader_close(&r);
  return st;
}

/* ------------------------------------------------------------------ writing ---- */

static bb_status check_writable(const bb_instance *inst, const char *path, bb_error *err) {
  if (!inst || !path || inst->n < 1 || !inst->men_prefs || !inst->women_prefs)
    return bb_fail(err, BB_ERR_ARG, "bb_instance_write: NULL or empty argument");
  return BB_OK;
}

bb_status bb_instance_write_text(const bb_instance *inst, const char *path, bb_error *err) {
  bb_status st = check_writable(inst, path, err);
  if (st != BB_OK) return st;
  writer w;
  if ((st = bb_writer_open(&w, path, "w", err)) != BB_OK) return st;
  int n = inst->n;
  bb_writer_put_uint(&w, (uint32_t)n, '\n');
  for (int side = 0; side < 2; side++) {
    const bb_id *rows = side ? inst->women_prefs : inst->men_prefs;
    for (int who = 0; who < n; who++) {
      const bb_id *row = rows + (size_t)who * (size_t)n;
      for (int k = 0; k < n; k++) bb_writer_put_uint(&w, row[k], k + 1 < n ? ' ' : '\n');
    }
  }
  return bb_writer_close(&w, err);
}

bb_status bb_instance_write_binary(const bb_instance *inst, const char *path, bb_error *err) {
  bb_status st = check_writable(inst, path, err);
  if (st != BB_OK) return st;
  writer w;
  if ((st = bb_writer_open(&w, path, "wb", err)) != BB_OK) return st;
  uint32_t n = (uint32_t)inst->n, id_bytes = n <= 65536 ? 2 : 4;
  bb_writer_put_text(&w, BIN_MAGIC);
  uint32_t header[4] = {BIN_VERSION, n, id_bytes, 0};
  for (int i = 0; i < 4; i++) bb_writer_put_u32(&w, header[i]);
  size_t cells = (size_t)n * n;
  bb_writer_put_ids(&w, inst->men_prefs, cells, id_bytes);
  bb_writer_put_ids(&w, inst->women_prefs, cells, id_bytes);
  return bb_writer_close(&w, err);
}
