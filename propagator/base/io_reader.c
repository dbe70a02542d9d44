/* The buffered line reader and token helpers of the instance readers (io_reader.h). */
#define _POSIX_C_SOURCE 200809L
#include "io_reader.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Reads more input, keeping buf[begin, end) (moved to the front). Returns 0 on success
 * (possibly reaching EOF), -1 on a read error, when the buffer cannot grow to `limit`, or
 * past the deadline. */
int bb_reader_fill(reader *r, size_t limit) {
  /* One clock read per chunk (a megabyte): nothing next to parsing it. */
  if (r->deadline > 0 && bb_now() > r->deadline) {
    r->timed_out = 1;
    r->read_errno = ETIME;
    return -1;
  }
  if (r->begin > 0) {
    memmove(r->buf, r->buf + r->begin, r->end - r->begin);
    r->end -= r->begin;
    r->scanned -= r->begin;
    r->begin = 0;
  }
  if (r->end == r->cap) {
    if (r->cap >= limit) return -1;
    size_t cap = r->cap * 2 < limit ? r->cap * 2 : limit;
    char *grown = realloc(r->buf, cap);
    if (!grown) return -1;
    r->buf = grown;
    r->cap = cap;
  }
  size_t got = fread(r->buf + r->end, 1, r->cap - r->end, r->f);
  r->end += got;
  r->bytes += got;
  if (got == 0) {
    if (ferror(r->f)) {
      r->read_errno = errno ? errno : EIO;
      return -1;
    }
    r->eof = 1;
  }
  return 0;
}

/* Next line without its '\n': 1, or 0 at end of input, or -1 (read error / too long). */
int bb_reader_line(reader *r, const char **line, size_t *len, size_t limit) {
  for (;;) {
    char *nl = memchr(r->buf + r->scanned, '\n', r->end - r->scanned);
    if (nl) {
      *line = r->buf + r->begin;
      *len = (size_t)(nl - *line);
      r->begin = r->scanned = (size_t)(nl - r->buf) + 1;
      return 1;
    }
    r->scanned = r->end;
    if (r->eof) {
      if (r->begin == r->end) return 0;
      *line = r->buf + r->begin;
      *len = r->end - r->begin;
      r->begin = r->scanned = r->end;
      return 1;
    }
    if (bb_reader_fill(r, limit) < 0) return -1;
  }
}

bb_status bb_reader_line_fail(const reader *r, long long line_no, size_t limit, bb_error *err) {
  if (r->read_errno)
    return bb_fail(err, BB_ERR_IO, "%s:%lld: read error: %s", r->name, line_no, strerror(r->read_errno));
  if (r->cap < limit) return bb_fail(err, BB_ERR_NOMEM, "%s:%lld: out of memory for a line", r->name, line_no);
  return bb_fail(err, BB_ERR_INPUT, "%s:%lld: line longer than %zu bytes", r->name, line_no, limit);
}

/* Makes at least `want` bytes available unless the input ends first. */
int bb_reader_want(reader *r, size_t want) {
  while (r->end - r->begin < want && !r->eof)
    if (bb_reader_fill(r, want > r->cap ? want : r->cap) < 0) return -1;
  return 0;
}

/* A token fit for a message: at most 40 characters, unprintable bytes as '?'. */
const char *bb_io_quote(char out[48], const char *tok, size_t len) {
  size_t k = 0;
  for (; k < len && k < 40; k++) {
    unsigned char c = (unsigned char)tok[k];
    out[k] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (k < len) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k] = '\0';
  return out;
}

/* Skips blanks; returns the start of the next token or NULL if the line (up to '#') is done. */
const char *bb_io_next_token(const char *p, const char *e, const char **tok_end) {
  while (p < e && bb_io_is_blank((unsigned char)*p)) p++;
  if (p == e || *p == '#') return NULL;
  const char *t = p;
  while (p < e && !bb_io_is_blank((unsigned char)*p) && *p != '#') p++;
  *tok_end = p;
  return t;
}

/* Token shapes: a plain number (value saturated at UINT32_MAX + 1), "-digits", or junk. */

int bb_io_classify(const char *t, const char *e, uint64_t *value) {
  int negative = t < e && *t == '-';
  const char *p = t + negative;
  if (p == e) return TOK_JUNK;
  uint64_t v = 0;
  for (; p < e; p++) {
    if (!bb_io_is_digit((unsigned char)*p)) return TOK_JUNK;
    v = v * 10 + (uint64_t)(*p - '0');
    if (v > UINT32_MAX) v = (uint64_t)UINT32_MAX + 1;
  }
  *value = v;
  return negative ? TOK_NEGATIVE : TOK_NUMBER;
}

bb_status bb_reader_open(reader *r, const char *path, bb_error *err) {
  int from_stdin = strcmp(path, "-") == 0;
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    memset(r, 0, sizeof *r);
    return bb_fail(err, BB_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
  }
  return bb_reader_open_stream(r, f, from_stdin ? "<stdin>" : path, err);
}

bb_status bb_reader_open_stream(reader *r, FILE *f, const char *name, bb_error *err) {
  memset(r, 0, sizeof *r);
  r->name = name;
  r->f = f;
  r->cap = BB_IO_CHUNK;
  r->buf = malloc(r->cap);
  bb_status st = BB_OK;
  if (!r->buf)
    st = bb_fail(err, BB_ERR_NOMEM, "%s: out of memory", r->name);
  else if (bb_reader_want(r, 8) < 0)
    st = bb_fail(err, BB_ERR_IO, "%s: read error: %s", r->name, strerror(r->read_errno ? r->read_errno : ENOMEM));
  const unsigned char *head = (const unsigned char *)r->buf + r->begin;
  size_t have = st == BB_OK ? r->end - r->begin : 0;
  if (have >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF) {
    /* A UTF-8 byte-order mark (some editors write one) carries no data: skip it, so that
     * every format sniffed and every token read starts after it. */
    r->begin += 3;
    r->scanned = r->begin;
    if (bb_reader_want(r, 8) < 0)
      st = bb_fail(err, BB_ERR_IO, "%s: read error: %s", r->name, strerror(r->read_errno ? r->read_errno : ENOMEM));
  } else if (have >= 2 && ((head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF))) {
    st = bb_fail(err, BB_ERR_INPUT, "%s: UTF-16 text (byte-order mark 0x%02X 0x%02X): save the file as UTF-8 or ASCII",
                 r->name, head[0], head[1]);
  }
  if (st != BB_OK) bb_reader_close(r);
  return st;
}

void bb_reader_close(reader *r) {
  free(r->buf);
  r->buf = NULL;
  if (r->f && r->f != stdin) fclose(r->f);
  r->f = NULL;
}

int bb_io_is_comment(const char *p, size_t len) {
  const char *e = p + len;
  while (p < e && bb_io_is_blank((unsigned char)*p)) p++;
  return p < e && *p == '#';
}

int bb_id_vec_push(id_vec *v, bb_id id) {
  if (v->len == v->cap) {
    uint64_t cap = v->cap ? 2 * v->cap : 4096;
    if (cap > UINT32_MAX) cap = UINT32_MAX;
    if (v->len == cap) return 0;
    bb_id *grown = realloc(v->ids, cap * sizeof *grown);
    if (!grown) return 0;
    v->ids = grown;
    v->cap = cap;
  }
  v->ids[v->len++] = id;
  return 1;
}

bb_status bb_reader_fail_at(const reader *r, long long line_no, bb_error *err, bb_status st, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return bb_fail(err, st, "%s:%lld: %s", r->name, line_no, msg);
}

int bb_reader_token_line(reader *r, const char **line, size_t *len, size_t limit, long long *line_no) {
  int got;
  while ((got = bb_reader_line(r, line, len, limit)) > 0) {
    ++*line_no;
    const char *end = NULL;
    if (bb_io_next_token(*line, *line + *len, &end)) break;
  }
  return got;
}

int bb_reader_list_line(reader *r, const char **line, size_t *len, size_t limit, long long *line_no) {
  int got;
  while ((got = bb_reader_line(r, line, len, limit)) > 0) {
    ++*line_no;
    if (!bb_io_is_comment(*line, *len)) break;
  }
  return got;
}

const char *bb_reader_first_token(const reader *r) {
  const char *p = r->buf + r->begin, *e = r->buf + r->end;
  while (p < e) {
    while (p < e && (bb_io_is_blank((unsigned char)*p) || *p == '\n')) p++;
    if (p < e && *p == '#') {
      while (p < e && *p != '\n') p++;
      continue;
    }
    break;
  }
  return p;
}

bb_status bb_reader_header(reader *r, size_t bytes, uint32_t version, const unsigned char **head, bb_error *err) {
  if (bb_reader_want(r, bytes) < 0) return bb_fail(err, BB_ERR_IO, "%s: read error", r->name);
  if (r->end - r->begin < bytes)
    return bb_fail(err, BB_ERR_INPUT, "%s: truncated file: the header needs %zu bytes", r->name, bytes);
  *head = (const unsigned char *)r->buf + r->begin;
  r->begin += bytes;
  uint32_t found = bb_io_load_u32(*head + 8);
  if (found < 1 || found > version) {
    if (version == 1)
      return bb_fail(err, BB_ERR_INPUT, "%s: bad header: unsupported version %u (this build reads 1)", r->name, found);
    return bb_fail(err, BB_ERR_INPUT, "%s: bad header: unsupported version %u (this build reads 1..%u)", r->name, found,
                   version);
  }
  return BB_OK;
}

bool bb_reader_file_size(const reader *r, uint64_t *size) {
  struct stat sb;
  if (fstat(fileno(r->f), &sb) != 0 || !S_ISREG(sb.st_mode)) return false;
  *size = (uint64_t)sb.st_size;
  return true;
}

bb_status bb_reader_check_size(const reader *r, uint64_t expected, bool bom_skipped, bb_error *err) {
  uint64_t size = 0;
  if (!bb_reader_file_size(r, &size) || size == expected || (bom_skipped && size == expected + 3)) return BB_OK;
  return bb_fail(err, BB_ERR_INPUT, "%s: %s: the header's sizes need %llu bytes, the file has %llu", r->name,
                 size < expected ? "truncated file" : "extra data", (unsigned long long)expected,
                 (unsigned long long)size);
}

bool bb_reader_words(reader *r, uint32_t *dst, uint64_t count) {
  uint64_t done = 0;
  while (done < count) {
    size_t avail = (r->end - r->begin) / 4;
    if (avail == 0) {
      if (r->eof || bb_reader_fill(r, r->cap) < 0) return false;
      continue;
    }
    if (avail > count - done) avail = (size_t)(count - done);
    const unsigned char *p = (const unsigned char *)r->buf + r->begin;
    for (size_t i = 0; i < avail; i++) dst[done + i] = bb_io_load_u32(p + 4 * i);
    r->begin += avail * 4;
    done += avail;
  }
  return true;
}

bb_status bb_reader_words_fail(const reader *r, uint64_t expected, bb_error *err) {
  if (r->read_errno) return bb_fail(err, BB_ERR_IO, "%s: read error: %s", r->name, strerror(r->read_errno));
  return bb_fail(err, BB_ERR_INPUT, "%s: truncated file: expected %llu bytes", r->name, (unsigned long long)expected);
}

bool bb_reader_has_more(reader *r) {
  if (r->begin == r->end && !r->eof) bb_reader_fill(r, r->cap);
  return r->begin < r->end;
}

static bool is_list_delim(char c) { return bb_io_is_blank((unsigned char)c) || c == '[' || c == ']' || c == '#'; }

bb_status bb_io_parse_tied_list(const reader *r, long long line_no, const char *p, const char *e, uint32_t bound,
                                const char *who, int index, uint32_t *seen, uint32_t stamp, id_vec *ids, id_vec *ranks,
                                bool *tied, bb_error *err) {
  const char *end = NULL, *tok = bb_io_next_token(p, e, &end);
  if (tok && end - tok == 1 && *tok == '-' && !bb_io_next_token(end, e, &end)) return BB_OK;
  uint32_t rank = 0;
  int position = 0, in_group = 0; /* in_group: ids in the open group + 1, 0 outside a group */
  char q[48];
  while (p < e) {
    char c = *p;
    if (bb_io_is_blank((unsigned char)c)) {
      p++;
      continue;
    }
    if (c == '#') break;
    if (c == '[') {
      if (in_group)
        return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list: '[' inside a tie (ties do not nest)",
                                 who, index);
      in_group = 1;
      p++;
      continue;
    }
    if (c == ']') {
      if (!in_group)
        return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list: ']' without '['", who, index);
      if (in_group == 1)
        return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list: an empty tie '[]'", who, index);
      if (in_group > 2 && tied) *tied = true;
      in_group = 0;
      rank++;
      p++;
      continue;
    }
    const char *s = p;
    while (p < e && !is_list_delim(*p)) p++;
    uint64_t v = 0;
    int shape = bb_io_classify(s, p, &v);
    if (shape == TOK_JUNK)
      return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list, position %d: not a number: '%s'", who,
                               index, position, bb_io_quote(q, s, (size_t)(p - s)));
    if (shape == TOK_NEGATIVE || v >= bound)
      return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT,
                               "%s %d's list, position %d: id %s is out of range 0..%lld%s", who, index, position,
                               bb_io_quote(q, s, (size_t)(p - s)), (long long)bound - 1,
                               bound == 0 ? " (there is nobody on the other side)" : "");
    if (seen[v] == stamp)
      return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list, position %d: id %u appears twice", who,
                               index, position, (unsigned)v);
    seen[v] = stamp;
    if (!bb_id_vec_push(ids, (bb_id)v) || !bb_id_vec_push(ranks, rank))
      return bb_reader_fail_at(r, line_no, err, BB_ERR_NOMEM, "out of memory for the lists");
    position++;
    if (in_group)
      in_group++;
    else
      rank++;
  }
  if (in_group)
    return bb_reader_fail_at(r, line_no, err, BB_ERR_INPUT, "%s %d's list: '[' is never closed", who, index);
  return BB_OK;
}
