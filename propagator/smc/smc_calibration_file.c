/* The hybrid's calibration file (docs/formats.md, "The hybrid's calibration file"): read by
 * every run that finds a GPU (smc_hybrid.c), written by fzn-bamboo --calibrate. Apart from the
 * probe, so that a machine without a GPU tests the parser.
 *
 * The path comes from the environment and may name anything: a FIFO (whose open would wait for
 * a writer), a device that never ends (/dev/zero) or never takes a byte (/dev/full), a folder.
 * Only a regular file is read or written, every line is bounded, and a value that is not an
 * integer refuses the whole file: one bad line says the file is not what --calibrate wrote. */
#define _POSIX_C_SOURCE 200809L
#include "smc_tuning.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --calibrate writes eight short lines; anything near these limits was not written by it. */
#define CALIBRATION_LINE_MAX 255
#define CALIBRATION_SIZE_MAX ((long long)1 << 16)

typedef struct key {
  const char *name;
  int least; /* a smaller value is ignored (docs/formats.md) */
  size_t offset;
} key;

static const key keys[] = {
    {"min_n", 1, offsetof(bb_smc_calibration, min_n)},
    {"min_free", 1, offsetof(bb_smc_calibration, min_free)},
    {"min_modified", 1, offsetof(bb_smc_calibration, min_modified)},
    {"handover", 1, offsetof(bb_smc_calibration, handover)},
    {"batch_handover", 1, offsetof(bb_smc_calibration, batch_handover)},
    {"handover_per_value", 0, offsetof(bb_smc_calibration, handover_per_value)},
    {"handover_spread", 0, offsetof(bb_smc_calibration, handover_spread)},
};

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next blank-separated token of [p, e), NULL at the end or at a '#' comment. */
static char *next_token(char *p, char *e, char **end) {
  while (p < e && is_blank(*p)) p++;
  if (p == e || *p == '#') return NULL;
  char *t = p;
  while (p < e && !is_blank(*p) && *p != '#') p++;
  *end = p;
  return t;
}

static bb_status parse_line(const char *path, long long line_no, char *line, size_t len, bb_smc_calibration *c,
                            bb_error *err) {
  char *e = line + len, *end = NULL, *name = next_token(line, e, &end);
  if (!name) return BB_OK; /* blank or a comment */
  const key *k = NULL;
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if ((size_t)(end - name) == strlen(keys[i].name) && !memcmp(name, keys[i].name, (size_t)(end - name))) k = &keys[i];
  if (!k) return BB_OK; /* unknown keys are ignored (a later version's, say) */
  char *value = next_token(end, e, &end);
  if (!value) return bb_fail(err, BB_ERR_INPUT, "%s:%lld: %s has no value", path, line_no, k->name);
  char saved = *end, *stop = NULL;
  *end = '\0'; /* strtol must not read past the token */
  errno = 0;
  long v = strtol(value, &stop, 10);
  bool integer = stop == end && stop != value, in_range = errno != ERANGE && v >= INT_MIN && v <= INT_MAX;
  *end = saved;
  if (!integer)
    return bb_fail(err, BB_ERR_INPUT, "%s:%lld: %s: '%.*s' is not an integer", path, line_no, k->name,
                   (int)(end - value > 40 ? 40 : end - value), value);
  if (!in_range)
    return bb_fail(err, BB_ERR_INPUT, "%s:%lld: %s: %.*s does not fit in an int", path, line_no, k->name,
                   (int)(end - value > 40 ? 40 : end - value), value);
  char *extra = next_token(end, e, &end);
  if (extra)
    return bb_fail(err, BB_ERR_INPUT, "%s:%lld: unexpected '%.*s' after %s's value", path, line_no,
                   (int)(end - extra > 40 ? 40 : end - extra), extra, k->name);
  if (v >= k->least) *(int *)((char *)c + k->offset) = (int)v;
  return BB_OK;
}

bb_status bb_smc_calibration_read(const char *path, bb_smc_calibration *c, bool *found, bb_error *err) {
  *found = false;
  /* O_NONBLOCK: a FIFO opens at once (and is refused below) instead of waiting for a writer. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return BB_OK; /* not calibrated: the defaults */
    return bb_fail(err, BB_ERR_IO, "%s: cannot open the calibration file: %s", path, strerror(errno));
  }
  struct stat sb;
  const char *wrong = fstat(fd, &sb) != 0 ? strerror(errno) : !S_ISREG(sb.st_mode) ? "not a regular file" : NULL;
  if (wrong) {
    close(fd);
    return bb_fail(err, BB_ERR_IO, "%s: cannot read the calibration file: %s", path, wrong);
  }
  FILE *f = fdopen(fd, "r");
  if (!f) {
    close(fd);
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory", path);
  }
  *found = true;
  char line[CALIBRATION_LINE_MAX + 1];
  size_t len = 0;
  long long line_no = 1, total = 0;
  bb_status st = BB_OK;
  for (int ch; st == BB_OK;) {
    ch = getc_unlocked(f);
    if (ch == EOF || ch == '\n') {
      if (ch == EOF && ferror(f))
        st = bb_fail(err, BB_ERR_IO, "%s:%lld: read error: %s", path, line_no, strerror(errno));
      else if (ch == EOF && len == 0)
        break;
      else
        st = parse_line(path, line_no, line, len, c, err);
      if (ch == EOF) break;
      line_no++;
      len = 0;
    } else if (++total > CALIBRATION_SIZE_MAX) {
      st = bb_fail(err, BB_ERR_INPUT, "%s: larger than %lld bytes: not a calibration file", path, CALIBRATION_SIZE_MAX);
    } else if (ch == '\0') {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: a NUL byte: not a calibration file", path, line_no);
    } else if (len == CALIBRATION_LINE_MAX) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: line longer than %d bytes", path, line_no, CALIBRATION_LINE_MAX);
    } else {
      line[len++] = (char)ch;
    }
  }
  fclose(f);
  return st;
}

bb_status bb_smc_calibration_check_target(const char *path, bb_error *err) {
  struct stat sb;
  if (stat(path, &sb) != 0)
    return errno == ENOENT ? BB_OK : bb_fail(err, BB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  if (!S_ISREG(sb.st_mode)) return bb_fail(err, BB_ERR_IO, "cannot write %s: not a regular file", path);
  return BB_OK;
}

bb_status bb_smc_calibration_write(const char *path, const bb_smc_calibration *c, const char *model, bb_error *err) {
  /* Checked again at the open itself: the file may have been replaced during the measurement.
   * No O_TRUNC yet: truncating a device or a FIFO is not ours to do. */
  int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
  if (fd < 0) return bb_fail(err, BB_ERR_IO, "cannot write %s: %s", path, strerror(errno));
  struct stat sb;
  const char *wrong = fstat(fd, &sb) != 0     ? strerror(errno)
                      : !S_ISREG(sb.st_mode)  ? "not a regular file"
                      : ftruncate(fd, 0) != 0 ? strerror(errno)
                                              : NULL;
  if (wrong) {
    close(fd);
    return bb_fail(err, BB_ERR_IO, "cannot write %s: %s", path, wrong);
  }
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    return bb_fail(err, BB_ERR_NOMEM, "cannot write %s: out of memory", path);
  }
  fprintf(f, "# bamboo calibration for %s, written by fzn-bamboo --calibrate\n", model);
  fprintf(f, "min_n %d\nmin_free %d\n", c->min_n, c->min_free);
  fprintf(f, "min_modified %d\nhandover %d\nbatch_handover %d\nhandover_per_value %d\nhandover_spread %d\n",
          c->min_modified, c->handover, c->batch_handover, c->handover_per_value, c->handover_spread);
  errno = 0;
  bool written = fflush(f) == 0 && !ferror(f);
  int why = errno;
  if (fclose(f) != 0) {
    written = false;
    if (!why) why = errno;
  }
  /* A full disk: a truncated file would set wrong thresholds, so the caller must fail. */
  if (!written) return bb_fail(err, BB_ERR_IO, "cannot write %s: %s", path, strerror(why ? why : EIO));
  return BB_OK;
}
