/* SMTI/HRT instance files (ties_io.h, docs/formats.md): the text reader and the sniffing.
 *
 * As in the SMI/HR format every line after the header is one list (a blank line or '-' is an
 * empty one) except comment-only lines. A list is tokens and bracketed groups, read by the
 * shared bb_io_parse_tied_list (HRC's hospitals use it too). Ranks count groups: a lone id is
 * a group of one. The binary format and the writers
 * are in ties_io_bin.c. */
#define _POSIX_C_SOURCE 200809L
#include "ties_io.h"

#include <stdlib.h>
#include <string.h>

#include "ties_io_internal.h"

#define LINE_LIMIT ((size_t)1 << 30)

typedef struct ties_text {
  reader *r;
  long long line_no;
  bool smti;
  int nr, nh;
  uint32_t *seen, stamp;
  id_vec res, res_rank, hosp, hosp_rank;
  uint32_t *res_start, *hosp_start;
  int32_t *capacity;
} ties_text;

/* "NAME:LINE: ..." at the line being read. */
#define text_fail(t, err, st, ...) bb_reader_fail_at((t)->r, (t)->line_no, err, st, __VA_ARGS__)

/* A list: ids of the other side (below `bound`), distinct, ties as bracketed groups. */
static bb_status parse_list(ties_text *t, const char *p, const char *e, uint32_t bound, const char *who, int index,
                            id_vec *ids, id_vec *ranks, bb_error *err) {
  return bb_io_parse_tied_list(t->r, t->line_no, p, e, bound, who, index, t->seen, ++t->stamp, ids, ranks, NULL, err);
}

static const char *find_colon(const char *p, const char *e) {
  while (p < e && *p != ':' && *p != '#') p++;
  return p < e && *p == ':' ? p : NULL;
}

static bb_status parse_hospital(ties_text *t, const char *line, size_t len, int h, bb_error *err) {
  const char *e = line + len, *colon = find_colon(line, e), *end = NULL, *tok;
  const char *hw = t->smti ? "woman" : "hospital";
  char q[48];
  uint64_t v = 0;
  if (t->smti) { /* SMTI: no capacities, every woman has 1 */
    t->capacity[h] = 1;
    bb_status st = parse_list(t, line, e, (uint32_t)t->nr, hw, h, &t->hosp, &t->hosp_rank, err);
    t->hosp_start[h + 1] = (uint32_t)t->hosp.len;
    return st;
  }
  if (!colon)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d's line has no capacity: expected 'CAPACITY: id id ...'", h);
  tok = bb_io_next_token(line, colon, &end);
  if (!tok)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d's line has nothing before ':': expected 'CAPACITY: ...'", h);
  size_t tl = (size_t)(colon - tok);
  while (tl > 0 && bb_io_is_blank((unsigned char)tok[tl - 1])) tl--;
  int shape = bb_io_classify(tok, tok + tl, &v);
  if (shape != TOK_NUMBER || v > INT32_MAX)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity '%s' is not a number in 0..%d", h,
                     bb_io_quote(q, tok, tl), INT32_MAX);
  t->capacity[h] = (int32_t)v;
  bb_status st = parse_list(t, colon + 1, e, (uint32_t)t->nr, hw, h, &t->hosp, &t->hosp_rank, err);
  t->hosp_start[h + 1] = (uint32_t)t->hosp.len;
  return st;
}

static bb_status parse_header(ties_text *t, const char *line, size_t len, bb_error *err) {
  const char *e = line + len, *end = NULL, *tok = bb_io_next_token(line, e, &end);
  char q[48];
  if (end - tok == 4 && !memcmp(tok, "smti", 4))
    t->smti = true;
  else if (!(end - tok == 3 && !memcmp(tok, "hrt", 3)))
    return text_fail(t, err, BB_ERR_INPUT, "expected 'smti N1 N2' or 'hrt NR NH', found '%s'",
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  int *n[2] = {&t->nr, &t->nh};
  for (int k = 0; k < 2; k++) {
    tok = bb_io_next_token(end, e, &end);
    uint64_t v = 0;
    if (!tok)
      return text_fail(t, err, BB_ERR_INPUT, "the header lacks a count: expected '%s'",
                       t->smti ? "smti N1 N2" : "hrt NR NH");
    if (bb_io_classify(tok, end, &v) != TOK_NUMBER || v > BB_MAX_N)
      return text_fail(t, err, BB_ERR_INPUT, "'%s' is not a count in 0..%d", bb_io_quote(q, tok, (size_t)(end - tok)),
                       BB_MAX_N);
    *n[k] = (int)v;
  }
  if ((tok = bb_io_next_token(end, e, &end)) != NULL)
    return text_fail(t, err, BB_ERR_INPUT, "unexpected '%s' after the header's counts",
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  return BB_OK;
}

static bb_status build(ties_text *t, bb_ties **out, bb_error *err) {
  bb_error sub = {{0}};
  bb_ties *inst = bb_ties_new(t->smti, t->nr, t->nh, t->res.len, t->hosp.len, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", t->r->name, sub.msg);
  memcpy(inst->res_start, t->res_start, ((size_t)t->nr + 1) * sizeof(uint32_t));
  memcpy(inst->hosp_start, t->hosp_start, ((size_t)t->nh + 1) * sizeof(uint32_t));
  memcpy(inst->capacity, t->capacity, (size_t)t->nh * sizeof(int32_t));
  if (t->res.len) memcpy(inst->res_list, t->res.ids, t->res.len * sizeof(bb_id));
  if (t->res.len) memcpy(inst->res_rank, t->res_rank.ids, t->res.len * sizeof(uint32_t));
  if (t->hosp.len) memcpy(inst->hosp_list, t->hosp.ids, t->hosp.len * sizeof(bb_id));
  if (t->hosp.len) memcpy(inst->hosp_rank, t->hosp_rank.ids, t->hosp.len * sizeof(uint32_t));
  bb_status st = bb_ties_validate(inst, &sub); /* checked line by line; this guards the reader */
  if (st != BB_OK) {
    bb_ties_free(inst);
    return bb_fail(err, st, "%s: %s", t->r->name, sub.msg);
  }
  *out = inst;
  return BB_OK;
}

static bb_status read_text(ties_text *t, bb_ties **out, bb_error *err) {
  const char *line;
  size_t len;
  int got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no); /* the header */
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  if (got == 0) return bb_fail(err, BB_ERR_INPUT, "%s: no header 'smti N1 N2' or 'hrt NR NH'", t->r->name);
  bb_status st = parse_header(t, line, len, err);
  if (st != BB_OK) return st;
  int most = t->nr > t->nh ? t->nr : t->nh;
  t->seen = calloc((size_t)most + 1, sizeof *t->seen);
  t->res_start = calloc((size_t)t->nr + 1, sizeof(uint32_t));
  t->hosp_start = calloc((size_t)t->nh + 1, sizeof(uint32_t));
  t->capacity = calloc((size_t)t->nh + 1, sizeof(int32_t));
  if (!t->seen || !t->res_start || !t->hosp_start || !t->capacity)
    return text_fail(t, err, BB_ERR_NOMEM, "out of memory");
  const char *rw = t->smti ? "man" : "resident", *hw = t->smti ? "woman" : "hospital";
  int rows = 0, total = t->nr + t->nh;
  while (rows < total) {
    got = bb_reader_list_line(t->r, &line, &len, LINE_LIMIT, &t->line_no);
    if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
    if (got == 0)
      return text_fail(t, err, BB_ERR_INPUT,
                       "file ends after %d of %d lists (truncated?): %s %d's line is missing (an empty list is an "
                       "empty line or '-')",
                       rows, total, rows < t->nr ? rw : hw, rows < t->nr ? rows : rows - t->nr);
    if (rows < t->nr) {
      st = parse_list(t, line, line + len, (uint32_t)t->nh, rw, rows, &t->res, &t->res_rank, err);
      t->res_start[rows + 1] = (uint32_t)t->res.len;
    } else {
      st = parse_hospital(t, line, len, rows - t->nr, err);
    }
    if (st != BB_OK) return st;
    rows++;
  }
  if ((got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no)) > 0)
    return text_fail(t, err, BB_ERR_INPUT, "extra data after the last list (the header says %d and %d)", t->nr, t->nh);
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  return build(t, out, err);
}

/* ---------------------------------------------------------------- sniffing ---- */

static bool looks_like_ties_text(const reader *r) {
  const char *p = bb_reader_first_token(r), *e = r->buf + r->end;
  for (int k = 0; k < 2; k++) {
    const char *word = k ? "hrt" : "smti";
    size_t wl = strlen(word);
    if ((size_t)(e - p) > wl && !memcmp(p, word, wl) && (bb_io_is_blank((unsigned char)p[wl]) || p[wl] == '\n'))
      return true;
  }
  return false;
}

bool bb_ties_sniff(const reader *r) {
  size_t have = r->end - r->begin;
  return (have >= 8 && !memcmp(r->buf + r->begin, BB_TIES_MAGIC, 8)) || looks_like_ties_text(r);
}

bb_status bb_ties_read_from(reader *r, bb_ties **out, bb_error *err) {
  size_t have = r->end - r->begin;
  if (have >= 8 && !memcmp(r->buf + r->begin, BB_TIES_MAGIC, 8)) return bb_ties_read_binary(r, out, err);
  if (!looks_like_ties_text(r))
    return bb_fail(err, BB_ERR_INPUT,
                   "%s: not an SMTI/HRT instance: expected 'smti N1 N2', 'hrt NR NH' or the %s magic", r->name,
                   BB_TIES_MAGIC);
  ties_text t = {.r = r};
  bb_status st = read_text(&t, out, err);
  free(t.seen);
  free(t.res_start);
  free(t.hosp_start);
  free(t.capacity);
  free(t.res.ids);
  free(t.res_rank.ids);
  free(t.hosp.ids);
  free(t.hosp_rank.ids);
  return st;
}

bb_status bb_ties_read(const char *path, bb_ties **out, bb_error *err) {
  if (!path || !out) return bb_fail(err, BB_ERR_ARG, "bb_ties_read: NULL argument");
  *out = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  st = bb_ties_read_from(&r, out, err);
  bb_reader_close(&r);
  return st;
}
