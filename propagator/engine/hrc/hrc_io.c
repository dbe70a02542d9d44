/* HRC instance files (hrc_io.h, docs/formats.md): the text reader and the sniffing.
 *
 * As in the SMI/HR format, a blank line is meaningful (an empty list), so every line after the
 * header is one list except comment-only lines. The file does not say how many entries come:
 * lists grow in arrays and the instance is allocated once at the end. Every check that needs
 * only the line at hand happens there, so its message carries the line; what spans lines (a
 * resident in two couples, a couple member with his own list) is checked as the later line
 * arrives. A hospital's line may hold ties as bracketed groups (bb_io_parse_tied_list, as in
 * the SMTI/HRT format); residents' and couples' lines may not. The binary format and the
 * writers are in hrc_io_bin.c. */
#define _POSIX_C_SOURCE 200809L
#include "hrc_io.h"

#include <stdlib.h>
#include <string.h>

#include "hrc_io_internal.h"

#define LINE_LIMIT ((size_t)1 << 30)

typedef struct hrc_text {
  reader *r;
  long long line_no;
  int nr, nh, nc;
  uint32_t *seen, stamp;
  long long *couple_line;       /* nr: the line that put resident r in a couple, 0 if none */
  id_vec singles, pairs, hosps; /* pairs: two ids an entry */
  id_vec hosp_ranks;            /* per hosps entry: its rank (ties share one) */
  bool tied;                    /* some hospital's line has a tie of two or more */
  uint32_t *single_start, *couple_start, *hosp_start;
  int32_t *couple_member, *couple_of, *capacity;
} hrc_text;

/* "NAME:LINE: ..." at the line being read. */
#define text_fail(t, err, st, ...) bb_reader_fail_at((t)->r, (t)->line_no, err, st, __VA_ARGS__)

/* The next token as an id below `bound`; *got is false at the end of the line. */
static bb_status next_id(hrc_text *t, const char **p, const char *e, uint32_t bound, const char *what, uint32_t *id,
                         bool *got, bb_error *err) {
  const char *end = NULL, *tok = bb_io_next_token(*p, e, &end);
  *got = tok != NULL;
  if (!tok) return BB_OK;
  *p = end;
  char q[48];
  size_t tl = (size_t)(end - tok);
  uint64_t v = 0;
  int shape = bb_io_classify(tok, end, &v);
  if (shape == TOK_JUNK)
    return text_fail(t, err, BB_ERR_INPUT, "%s: not a number: '%s'", what, bb_io_quote(q, tok, tl));
  if (shape == TOK_NEGATIVE || v >= bound)
    return text_fail(t, err, BB_ERR_INPUT, "%s: id %s is out of range 0..%lld%s", what, bb_io_quote(q, tok, tl),
                     (long long)bound - 1, bound == 0 ? " (there is nobody on the other side)" : "");
  *id = (uint32_t)v;
  return BB_OK;
}

/* A list of distinct ids below `bound` onto v ('-' alone: empty). */
static bb_status parse_ids(hrc_text *t, const char *p, const char *e, uint32_t bound, const char *who, int index,
                           id_vec *v, bb_error *err) {
  const char *end = NULL, *tok = bb_io_next_token(p, e, &end);
  if (tok && end - tok == 1 && *tok == '-' && !bb_io_next_token(end, e, &end)) return BB_OK;
  uint32_t stamp = ++t->stamp, id = 0;
  char what[96];
  for (int position = 0;; position++) {
    bool got = false;
    snprintf(what, sizeof what, "%s %d's list, position %d", who, index, position);
    bb_status st = next_id(t, &p, e, bound, what, &id, &got, err);
    if (st != BB_OK) return st;
    if (!got) return BB_OK;
    if (t->seen[id] == stamp) return text_fail(t, err, BB_ERR_INPUT, "%s: id %u appears twice", what, id);
    t->seen[id] = stamp;
    if (!bb_id_vec_push(v, id)) return text_fail(t, err, BB_ERR_NOMEM, "out of memory for the lists");
  }
}

/* Only hospitals rank with ties (SFAS): a bracket on a resident's or a couple's line is an
 * error, said as such rather than as a token that is no number. */
static bb_status refuse_brackets(hrc_text *t, const char *p, const char *e, const char *who, int index, bb_error *err) {
  for (; p < e && *p != '#'; p++)
    if (*p == '[' || *p == ']')
      return text_fail(t, err, BB_ERR_INPUT, "%s %d's line has '%c': ties are allowed only in hospitals' lists", who,
                       index, *p);
  return BB_OK;
}

/* Where the line's first ':' is, before any '#'; NULL if none. */
static const char *find_colon(const char *p, const char *e) {
  while (p < e && *p != ':' && *p != '#') p++;
  return p < e && *p == ':' ? p : NULL;
}

static int by_pair_then_position(const void *a, const void *b) {
  const uint32_t *x = a, *y = b;
  for (int k = 0; k < 3; k++)
    if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
  return 0;
}

/* "R1 R2: H1 H2 H1 H2 ...". */
static bb_status parse_couple(hrc_text *t, const char *line, size_t len, int c, bb_error *err) {
  const char *p = line, *e = line + len, *colon = find_colon(p, e);
  bb_status refused = refuse_brackets(t, p, e, "couple", c, err);
  if (refused != BB_OK) return refused;
  if (!colon)
    return text_fail(t, err, BB_ERR_INPUT, "couple %d's line has no ':': expected 'R1 R2: H1 H2 H1 H2 ...'", c);
  char what[96];
  for (int m = 0; m < 2; m++) {
    uint32_t r = 0;
    bool got = false;
    snprintf(what, sizeof what, "couple %d's %s member", c, m ? "second" : "first");
    bb_status st = next_id(t, &p, colon, (uint32_t)t->nr, what, &r, &got, err);
    if (st != BB_OK) return st;
    if (!got) return text_fail(t, err, BB_ERR_INPUT, "%s is missing before ':'", what);
    if (m == 1 && (int32_t)r == t->couple_member[2 * c])
      return text_fail(t, err, BB_ERR_INPUT, "couple %d: resident %u is both members", c, r);
    if (t->couple_of[r] != BB_HRC_SINGLE)
      return text_fail(t, err, BB_ERR_INPUT, "couple %d: resident %u is already in couple %d (line %lld)", c, r,
                       t->couple_of[r], t->couple_line[r]);
    t->couple_member[2 * c + m] = (int32_t)r;
    t->couple_of[r] = c;
    t->couple_line[r] = t->line_no;
  }
  const char *end = NULL, *tok = bb_io_next_token(p, colon, &end);
  if (tok) {
    char q[48];
    return text_fail(t, err, BB_ERR_INPUT, "couple %d: unexpected '%s' before ':' (a couple has two members)", c,
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  }
  p = colon + 1;
  uint64_t first = t->pairs.len;
  for (int position = 0;; position++) {
    uint32_t h[2] = {0, 0};
    bool got = false;
    for (int m = 0; m < 2; m++) {
      snprintf(what, sizeof what, "couple %d's list, pair %d", c, position);
      bb_status st = next_id(t, &p, e, (uint32_t)t->nh, what, &h[m], &got, err);
      if (st != BB_OK) return st;
      if (!got && m == 1)
        return text_fail(t, err, BB_ERR_INPUT,
                         "couple %d's list has an odd number of hospital ids: pair %d lacks its second hospital", c,
                         position);
      if (!got) break;
      if (!bb_id_vec_push(&t->pairs, h[m])) return text_fail(t, err, BB_ERR_NOMEM, "out of memory for the lists");
    }
    if (!got) break;
  }
  uint64_t n = (t->pairs.len - first) / 2;
  if (n > 1) { /* a pair twice: sort (h1, h2, position) triples */
    uint32_t *tr = malloc(n * 3 * sizeof *tr);
    if (!tr) return text_fail(t, err, BB_ERR_NOMEM, "out of memory");
    for (uint64_t k = 0; k < n; k++) {
      tr[3 * k] = t->pairs.ids[first + 2 * k];
      tr[3 * k + 1] = t->pairs.ids[first + 2 * k + 1];
      tr[3 * k + 2] = (uint32_t)k;
    }
    qsort(tr, n, 3 * sizeof *tr, by_pair_then_position);
    bb_status st = BB_OK;
    for (uint64_t k = 1; k < n && st == BB_OK; k++)
      if (tr[3 * k] == tr[3 * k - 3] && tr[3 * k + 1] == tr[3 * k - 2])
        st = text_fail(t, err, BB_ERR_INPUT, "couple %d's list, pair %u: the pair (%u, %u) appears twice", c,
                       tr[3 * k + 2], tr[3 * k], tr[3 * k + 1]);
    free(tr);
    if (st != BB_OK) return st;
  }
  t->couple_start[c + 1] = (uint32_t)(t->pairs.len / 2);
  return BB_OK;
}

static bb_status parse_resident(hrc_text *t, const char *line, size_t len, int r, bb_error *err) {
  bb_status st = refuse_brackets(t, line, line + len, "resident", r, err);
  if (st != BB_OK) return st;
  st = parse_ids(t, line, line + len, (uint32_t)t->nh, "resident", r, &t->singles, err);
  t->single_start[r + 1] = (uint32_t)t->singles.len;
  if (st == BB_OK && t->couple_of[r] != BB_HRC_SINGLE && t->single_start[r + 1] != t->single_start[r])
    return text_fail(t, err, BB_ERR_INPUT,
                     "resident %d is in couple %d (line %lld), so his line must be empty or '-': a couple ranks "
                     "pairs on its own line",
                     r, t->couple_of[r], t->couple_line[r]);
  return st;
}

static bb_status parse_hospital(hrc_text *t, const char *line, size_t len, int h, bb_error *err) {
  const char *e = line + len, *colon = find_colon(line, e), *end = NULL, *tok;
  char q[48];
  uint64_t v = 0;
  if (!colon)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d's line has no capacity: expected 'CAPACITY: id id ...'", h);
  tok = bb_io_next_token(line, colon, &end);
  if (!tok)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d's line has nothing before ':': expected 'CAPACITY: id id ...'",
                     h);
  size_t tl = (size_t)(colon - tok);
  while (tl > 0 && bb_io_is_blank((unsigned char)tok[tl - 1])) tl--;
  int shape = bb_io_classify(tok, tok + tl, &v);
  if (shape == TOK_JUNK)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity '%s' is not a number", h, bb_io_quote(q, tok, tl));
  if (shape == TOK_NEGATIVE)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity %s is negative", h, bb_io_quote(q, tok, tl));
  if (v > INT32_MAX)
    return text_fail(t, err, BB_ERR_INPUT, "hospital %d: capacity %s is too large", h, bb_io_quote(q, tok, tl));
  t->capacity[h] = (int32_t)v;
  bb_status st = bb_io_parse_tied_list(t->r, t->line_no, colon + 1, e, (uint32_t)t->nr, "hospital", h, t->seen,
                                       ++t->stamp, &t->hosps, &t->hosp_ranks, &t->tied, err);
  t->hosp_start[h + 1] = (uint32_t)t->hosps.len;
  return st;
}

static bb_status parse_header(hrc_text *t, const char *line, size_t len, bb_error *err) {
  const char *e = line + len, *end = NULL, *tok = bb_io_next_token(line, e, &end);
  char q[48];
  if (!(end - tok == 3 && memcmp(tok, "hrc", 3) == 0))
    return text_fail(t, err, BB_ERR_INPUT, "expected 'hrc NR NH NC', found '%s'",
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  const char *what[3] = {"NR (residents)", "NH (hospitals)", "NC (couples)"};
  int *n[3] = {&t->nr, &t->nh, &t->nc};
  for (int k = 0; k < 3; k++) {
    tok = bb_io_next_token(end, e, &end);
    uint64_t v = 0;
    if (!tok) return text_fail(t, err, BB_ERR_INPUT, "the header lacks %s: expected 'hrc NR NH NC'", what[k]);
    if (bb_io_classify(tok, end, &v) != TOK_NUMBER || v > BB_MAX_N)
      return text_fail(t, err, BB_ERR_INPUT, "%s = '%s' is not a count in 0..%d", what[k],
                       bb_io_quote(q, tok, (size_t)(end - tok)), BB_MAX_N);
    *n[k] = (int)v;
  }
  if ((tok = bb_io_next_token(end, e, &end)) != NULL)
    return text_fail(t, err, BB_ERR_INPUT, "unexpected '%s' after the header's counts",
                     bb_io_quote(q, tok, (size_t)(end - tok)));
  if ((int64_t)t->nc * 2 > t->nr)
    return text_fail(t, err, BB_ERR_INPUT, "%d couples need %lld residents, the header says %d", t->nc,
                     (long long)t->nc * 2, t->nr);
  return BB_OK;
}

static const char *row_word(const hrc_text *t, int row, int *index) {
  if (row < t->nc) return *index = row, "couple";
  if (row < t->nc + t->nr) return *index = row - t->nc, "resident";
  return *index = row - t->nc - t->nr, "hospital";
}

static bb_status read_text(hrc_text *t, bb_hrc **out, bb_error *err) {
  const char *line;
  size_t len;
  int got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no); /* the header */
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  if (got == 0) return bb_fail(err, BB_ERR_INPUT, "%s: no header 'hrc NR NH NC'", t->r->name);
  bb_status st = parse_header(t, line, len, err);
  if (st != BB_OK) return st;
  int most = t->nr > t->nh ? t->nr : t->nh;
  t->seen = calloc((size_t)most + 1, sizeof *t->seen);
  t->couple_line = calloc((size_t)t->nr + 1, sizeof *t->couple_line);
  t->single_start = calloc((size_t)t->nr + 1, sizeof(uint32_t));
  t->couple_start = calloc((size_t)t->nc + 1, sizeof(uint32_t));
  t->hosp_start = calloc((size_t)t->nh + 1, sizeof(uint32_t));
  t->couple_member = calloc((size_t)t->nc * 2 + 1, sizeof(int32_t));
  t->couple_of = malloc(((size_t)t->nr + 1) * sizeof(int32_t));
  t->capacity = calloc((size_t)t->nh + 1, sizeof(int32_t));
  if (!t->seen || !t->couple_line || !t->single_start || !t->couple_start || !t->hosp_start || !t->couple_member ||
      !t->couple_of || !t->capacity)
    return text_fail(t, err, BB_ERR_NOMEM, "out of memory");
  for (int r = 0; r < t->nr; r++) t->couple_of[r] = BB_HRC_SINGLE;
  int rows = 0, total = t->nc + t->nr + t->nh, index = 0;
  while (rows < total) {
    got = bb_reader_list_line(t->r, &line, &len, LINE_LIMIT, &t->line_no);
    if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
    if (got == 0) {
      const char *word = row_word(t, rows, &index);
      return text_fail(t, err, BB_ERR_INPUT,
                       "file ends after %d of %d lines (truncated?): %s %d's line is missing (an empty list is an "
                       "empty line or '-')",
                       rows, total, word, index);
    }
    if (rows < t->nc)
      st = parse_couple(t, line, len, rows, err);
    else if (rows < t->nc + t->nr)
      st = parse_resident(t, line, len, rows - t->nc, err);
    else
      st = parse_hospital(t, line, len, rows - t->nc - t->nr, err);
    if (st != BB_OK) return st;
    rows++;
  }
  if ((got = bb_reader_token_line(t->r, &line, &len, LINE_LIMIT, &t->line_no)) > 0)
    return text_fail(t, err, BB_ERR_INPUT, "extra data after the hospitals' lines (the header says %d, %d and %d)",
                     t->nr, t->nh, t->nc);
  if (got < 0) return bb_reader_line_fail(t->r, t->line_no + 1, LINE_LIMIT, err);
  bb_error sub = {{0}};
  bb_hrc *inst = bb_hrc_new(t->nr, t->nh, t->nc, t->singles.len, t->pairs.len / 2, t->hosps.len, &sub);
  if (!inst) return bb_fail(err, BB_ERR_NOMEM, "%s: %s", t->r->name, sub.msg);
  memcpy(inst->couple_of, t->couple_of, (size_t)t->nr * sizeof(int32_t));
  memcpy(inst->couple_member, t->couple_member, (size_t)t->nc * 2 * sizeof(int32_t));
  memcpy(inst->single_start, t->single_start, ((size_t)t->nr + 1) * sizeof(uint32_t));
  memcpy(inst->couple_start, t->couple_start, ((size_t)t->nc + 1) * sizeof(uint32_t));
  memcpy(inst->hosp_start, t->hosp_start, ((size_t)t->nh + 1) * sizeof(uint32_t));
  memcpy(inst->capacity, t->capacity, (size_t)t->nh * sizeof(int32_t));
  if (t->singles.len) memcpy(inst->single_list, t->singles.ids, t->singles.len * sizeof(bb_id));
  if (t->pairs.len) memcpy(inst->couple_list, t->pairs.ids, t->pairs.len * sizeof(bb_id));
  if (t->hosps.len) memcpy(inst->hosp_list, t->hosps.ids, t->hosps.len * sizeof(bb_id));
  /* Without a tie the instance stays strict (hosp_rank NULL), as before ties were read. */
  if (t->tied && (st = bb_hrc_add_ranks(inst, &sub)) != BB_OK) {
    bb_hrc_free(inst);
    return bb_fail(err, st, "%s: %s", t->r->name, sub.msg);
  }
  if (t->tied) memcpy(inst->hosp_rank, t->hosp_ranks.ids, t->hosp_ranks.len * sizeof(uint32_t));
  /* Everything was checked line by line; validating once more guards the reader itself. */
  if ((st = bb_hrc_validate(inst, &sub)) != BB_OK) {
    bb_hrc_free(inst);
    return bb_fail(err, st, "%s: %s", t->r->name, sub.msg);
  }
  *out = inst;
  return BB_OK;
}

/* ---------------------------------------------------------------- sniffing ---- */

/* The first token of the text, past blank and comment lines, is "hrc". */
static bool looks_like_hrc_text(const reader *r) {
  const char *p = bb_reader_first_token(r), *e = r->buf + r->end;
  return (size_t)(e - p) >= 4 && memcmp(p, "hrc", 3) == 0 && (bb_io_is_blank((unsigned char)p[3]) || p[3] == '\n');
}

bool bb_hrc_sniff(const reader *r) {
  size_t have = r->end - r->begin;
  return (have >= 8 && memcmp(r->buf + r->begin, BB_HRC_MAGIC, 8) == 0) || looks_like_hrc_text(r);
}

bb_status bb_hrc_read_from(reader *r, bb_hrc **out, bb_error *err) {
  size_t have = r->end - r->begin;
  if (have >= 8 && memcmp(r->buf + r->begin, BB_HRC_MAGIC, 8) == 0) return bb_hrc_read_binary(r, out, err);
  if (!looks_like_hrc_text(r))
    return bb_fail(err, BB_ERR_INPUT, "%s: not an HRC instance: expected 'hrc NR NH NC' or the %s magic", r->name,
                   BB_HRC_MAGIC);
  hrc_text t = {.r = r};
  bb_status st = read_text(&t, out, err);
  free(t.seen);
  free(t.couple_line);
  free(t.single_start);
  free(t.couple_start);
  free(t.hosp_start);
  free(t.couple_member);
  free(t.couple_of);
  free(t.capacity);
  free(t.singles.ids);
  free(t.pairs.ids);
  free(t.hosps.ids);
  free(t.hosp_ranks.ids);
  return st;
}

bb_status bb_hrc_read(const char *path, bb_hrc **out, bb_error *err) {
  if (!path || !out) return bb_fail(err, BB_ERR_ARG, "bb_hrc_read: NULL argument");
  *out = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  st = bb_hrc_read_from(&r, out, err);
  bb_reader_close(&r);
  return st;
}
