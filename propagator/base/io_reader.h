/* The buffered line reader, the token helpers and the steps every reader repeats (text: the
 * line loops and messages; binary: header, size, words), shared by the instance readers of the
 * engine (engine/sm/sm_instance_io.c for complete lists, engine/hr/hr_io.c for incomplete lists
 * and capacities, engine/hrc/ for couples, engine/ties/ for ties, engine/instance_any.c telling
 * them apart). The whole file streams through one growing buffer, so input can be a pipe;
 * integers are parsed by hand because a 1 GB text file must not take minutes. */
#ifndef BB_IO_READER_H
#define BB_IO_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bb_common.h"

#define BB_IO_CHUNK ((size_t)1 << 20)

typedef struct reader {
  FILE *f;
  const char *name; /* for messages */
  char *buf;
  size_t cap, begin, end, scanned; /* data is buf[begin, end); no '\n' in [begin, scanned) */
  int eof;
  int read_errno;  /* errno of a failed read, 0 if none */
  uint64_t bytes;  /* bytes read from the file so far */
  double deadline; /* bb_now() time after which reading stops (0 = none): a time limit counts reading */
  int timed_out;   /* the last fill failed because the deadline had passed */
} reader;

/* Reads more input, keeping buf[begin, end) (moved to the front). Returns 0 on success
 * (possibly reaching EOF), -1 on a read error, when the buffer cannot grow to `limit`, or
 * when the deadline has passed (timed_out set, read_errno ETIME). */
int bb_reader_fill(reader *r, size_t limit);
/* Next line without its '\n': 1, or 0 at end of input, or -1 (read error / too long). */
int bb_reader_line(reader *r, const char **line, size_t *len, size_t limit);
/* The error for a -1 from bb_reader_line at line `line_no` (1-based): "NAME:LINE: read error:
 * ...", "... out of memory for a line" or "... line longer than LIMIT bytes". A caller must
 * never take -1 for the end of the input: what follows a long line would go unread. */
bb_status bb_reader_line_fail(const reader *r, long long line_no, size_t limit, bb_error *err);
/* Makes at least `want` bytes available unless the input ends first. */
int bb_reader_want(reader *r, size_t want);

static inline int bb_io_is_blank(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}
static inline int bb_io_is_digit(unsigned char c) { return (unsigned)(c - '0') < 10u; }
/* A token fit for a message: at most 40 characters, unprintable bytes as '?'. */
const char *bb_io_quote(char out[48], const char *tok, size_t len);
/* Skips blanks; returns the start of the next token or NULL if the line (up to '#') is done. */
const char *bb_io_next_token(const char *p, const char *e, const char **tok_end);
/* Token shapes: a plain number (value saturated at UINT32_MAX + 1), "-digits", or junk. */
enum { TOK_NUMBER, TOK_NEGATIVE, TOK_JUNK };
int bb_io_classify(const char *t, const char *e, uint64_t *value);
/* A line is a comment when '#' is its first non-blank character. */
int bb_io_is_comment(const char *p, size_t len);

/* A growing list of ids (the CSR lists a text reader collects), at most 2^32 - 1 of them. */
typedef struct id_vec {
  bb_id *ids;
  uint64_t len, cap;
} id_vec;
/* Appends id; 0 when memory runs out or the list is full (the reader reports it), else 1. */
int bb_id_vec_push(id_vec *v, bb_id id);

/* A list of ids below `bound` with ties as bracketed groups ("1 [2 0] 3"; '-' alone: the
 * empty list), as the SMTI/HRT and HRC text formats write it: each id onto `ids` and its rank
 * (the index of its group; a lone id is a group of one) onto `ranks`, nobody twice (`seen`, a
 * slot per id, is stamped with `stamp`). The tokenizer is its own because '[' and ']' may touch
 * the ids ("[0 3]"). Errors are "NAME:LINE: WHO INDEX's list...": not a number, out of range,
 * twice, '[' inside a tie, ']' without '[', an empty tie '[]', '[' never closed. *tied (may be
 * NULL) becomes true when a group holds two ids or more. */
bb_status bb_io_parse_tied_list(const reader *r, long long line_no, const char *p, const char *e, uint32_t bound,
                                const char *who, int index, uint32_t *seen, uint32_t stamp, id_vec *ids, id_vec *ranks,
                                bool *tied, bb_error *err);

/* The text readers' steps. A message for line `line_no`: "NAME:LINE: " then the format's text
 * (cut at 400 bytes). */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
bb_status
bb_reader_fail_at(const reader *r, long long line_no, bb_error *err, bb_status st, const char *fmt, ...);
/* The next line with a token (blank and comment-only lines are passed, each counted in
 * *line_no): 1, 0 at the end of the input, or -1 as bb_reader_line. */
int bb_reader_token_line(reader *r, const char **line, size_t *len, size_t limit, long long *line_no);
/* The next line that is not comment-only (a blank one is kept: an empty list), counted in
 * *line_no: 1, 0 at the end of the input, or -1 as bb_reader_line. */
int bb_reader_list_line(reader *r, const char **line, size_t *len, size_t limit, long long *line_no);
/* Where the buffered text's first token starts, past blank and comment lines (for sniffing a
 * header word; the buffer ends at r->buf + r->end). */
const char *bb_reader_first_token(const reader *r);

/* The binary readers' steps: little-endian words whatever the host. */
static inline uint32_t bb_io_load_u32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t bb_io_load_u64(const unsigned char *p) {
  return bb_io_load_u32(p) | (uint64_t)bb_io_load_u32(p + 4) << 32;
}
/* The header, its magic included: `bytes` bytes, consumed, *head their start (valid until the
 * next read), the word after the magic the format's version, 1..`version` (the newest this
 * build reads; the caller reads the word again when versions differ). Else "NAME: read error",
 * "NAME: truncated file: the header needs N bytes" or "NAME: bad header: unsupported version V
 * ...". */
bb_status bb_reader_header(reader *r, size_t bytes, uint32_t version, const unsigned char **head, bb_error *err);
/* The size of the file behind r: true for a regular file, false for a pipe or a terminal. */
bool bb_reader_file_size(const reader *r, uint64_t *size);
/* BB_OK when the file has the `expected` bytes its header's sizes need (or is no regular file,
 * or, with `bom_skipped`, has 3 more: a byte-order mark the reader skipped), else "NAME:
 * truncated file: the header's sizes need E bytes, the file has S" or "NAME: extra data: ...". */
bb_status bb_reader_check_size(const reader *r, uint64_t expected, bool bom_skipped, bb_error *err);
/* Reads `count` words into dst; false if the input ends first or a read fails. */
bool bb_reader_words(reader *r, uint32_t *dst, uint64_t count);
/* The error after bb_reader_words failed in a file of `expected` bytes: "NAME: read error:
 * CAUSE" or "NAME: truncated file: expected E bytes". */
bb_status bb_reader_words_fail(const reader *r, uint64_t expected, bb_error *err);
/* Whether input is left (reading ahead when the buffer is empty): after the last array, extra
 * data. */
bool bb_reader_has_more(reader *r);

/* Opens `path` ("-": standard input, named "<stdin>") and buffers its first bytes, so that a
 * reader can tell the format from them. On failure nothing is left open. */
bb_status bb_reader_open(reader *r, const char *path, bb_error *err);
/* The same over a stream opened elsewhere (a pipe, fmemopen), named `name` in messages; the
 * reader owns `f` from now on (closes it, unless it is stdin), also on failure. */
bb_status bb_reader_open_stream(reader *r, FILE *f, const char *name, bb_error *err);
void bb_reader_close(reader *r); /* after a successful open */

#endif
