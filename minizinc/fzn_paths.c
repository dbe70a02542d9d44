/* MiniZinc's paths file and path strings (see fzn_paths.h). The table keeps only what a
 * message needs, the first user location of each line: a few files (interned) and one
 * (key, file, line) entry per constraint and variable, sorted for binary search. */
#define _POSIX_C_SOURCE 200809L
#include "fzn_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct numbered {
  int index, file, line;
} numbered;

typedef struct named {
  char *name;
  int file, line;
} named;

struct fzn_paths {
  char **files;
  int file_count, file_cap;
  numbered *constraints;
  int constraint_count, constraint_cap;
  named *variables;
  int variable_count, variable_cap;
};

/* A decimal number of at most 9 digits, at least 1 when `positive`, ending at `stop` or
 * the string's end; *end past it. */
static bool small_number(const char *s, char stop, bool positive, int *value, const char **end) {
  long v = 0;
  int digits = 0;
  for (; *s >= '0' && *s <= '9'; s++) {
    if (++digits > 9) return false;
    v = v * 10 + (*s - '0');
  }
  if (digits == 0 || (*s != stop && *s != '\0') || (positive && v < 1)) return false;
  *value = (int)v;
  *end = s;
  return true;
}

bool fzn_path_location(const char *path, char *file, size_t size, int *line) {
  for (const char *seg = path; seg && *seg; seg = strchr(seg, ';'), seg = seg ? seg + 1 : NULL) {
    const char *bar = strchr(seg, '|'), *semi = strchr(seg, ';'), *end;
    if (!bar || (semi && semi < bar) || bar == seg) continue; /* no file in this segment */
    int value;
    if (!small_number(bar + 1, '|', true, &value, &end)) continue;
    if ((size_t)(bar - seg) >= size) return false;
    memcpy(file, seg, (size_t)(bar - seg));
    file[bar - seg] = '\0';
    *line = value;
    return true;
  }
  return false;
}

/* Doubles *items (of `size` bytes each) when *count == *cap; false when memory runs out. */
static bool grow(void **items, int *count, int *cap, size_t size) {
  if (*count < *cap) return true;
  if (*cap > INT_MAX / 2) return false;
  int want = *cap ? *cap * 2 : 64;
  void *more = realloc(*items, (size_t)want * size);
  if (!more) return false;
  *items = more;
  *cap = want;
  return true;
}

/* The index of `file` among the interned names (added if new), -1 when memory runs out. */
static int intern(fzn_paths *p, const char *file) {
  for (int k = p->file_count - 1; k >= 0; k--) /* the latest first: lines come file by file */
    if (!strcmp(p->files[k], file)) return k;
  char *copy = strdup(file);
  if (!copy || !grow((void **)&p->files, &p->file_count, &p->file_cap, sizeof *p->files)) {
    free(copy);
    return -1;
  }
  p->files[p->file_count] = copy;
  return p->file_count++;
}

/* One line of the file, without its newline: false only when memory runs out. */
static bool add_line(fzn_paths *p, char *text, char *file, size_t file_size) {
  char *tab1 = strchr(text, '\t'), *tab2 = tab1 ? strchr(tab1 + 1, '\t') : NULL;
  int line;
  if (!tab1 || tab1 == text || !tab2 || !fzn_path_location(tab2 + 1, file, file_size, &line)) return true;
  *tab1 = '\0';
  int index;
  const char *end;
  bool is_constraint = small_number(text, '\0', false, &index, &end);
  int f = intern(p, file);
  if (f < 0) return false;
  if (is_constraint) {
    if (!grow((void **)&p->constraints, &p->constraint_count, &p->constraint_cap, sizeof *p->constraints)) return false;
    p->constraints[p->constraint_count++] = (numbered){index, f, line};
    return true;
  }
  char *name = strdup(text);
  if (!name || !grow((void **)&p->variables, &p->variable_count, &p->variable_cap, sizeof *p->variables)) {
    free(name);
    return false;
  }
  p->variables[p->variable_count++] = (named){name, f, line};
  return true;
}

static int by_index(const void *a, const void *b) {
  int x = ((const numbered *)a)->index, y = ((const numbered *)b)->index;
  return (x > y) - (x < y);
}

static int by_name(const void *a, const void *b) { return strcmp(((const named *)a)->name, ((const named *)b)->name); }

/* The next line of `in` into *text (grown up to FZN_PATHS_LINE_MAX bytes), without its
 * newline: 1, 0 at the end of the file, -1 when the line is longer or memory runs out
 * (*too_long says which). getline() would grow its buffer without end on a file with no
 * newline (--paths /dev/zero). */
static int bounded_line(FILE *in, char **text, size_t *cap, size_t *len, unsigned long long *total, bool *too_long) {
  int c = EOF;
  *len = 0;
  *too_long = false;
  for (;;) {
    if (*len + 1 >= *cap) { /* room for one more byte and the '\0' */
      size_t want = *cap ? 2 * *cap : 256;
      char *more = realloc(*text, want);
      if (!more) return -1;
      *text = more;
      *cap = want;
    }
    if ((c = getc_unlocked(in)) == EOF) break;
    if (++*total > FZN_PATHS_SIZE_MAX) return *too_long = true, -1;
    if (c == '\n') break;
    if (*len == FZN_PATHS_LINE_MAX) return *too_long = true, -1;
    (*text)[(*len)++] = (char)c;
  }
  if (c == EOF && *len == 0) return 0;
  (*text)[*len] = '\0';
  return 1;
}

fzn_paths *fzn_paths_read_stream(FILE *in, char *why, size_t why_size) {
  fzn_paths *p = calloc(1, sizeof *p);
  char *text = NULL, *file = NULL;
  size_t text_cap = 0, file_size = 0, len = 0;
  unsigned long long total = 0, line_no = 0;
  bool ok = p != NULL, too_long = false;
  int got = 0;
  while (ok && (got = bounded_line(in, &text, &text_cap, &len, &total, &too_long)) > 0) {
    line_no++;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r')) text[--len] = '\0';
    if (file_size < len + 1) { /* a file name is shorter than its line */
      free(file);
      file_size = len + 1;
      file = malloc(file_size);
      ok = file != NULL;
    }
    ok = ok && add_line(p, text, file, file_size);
  }
  free(text);
  free(file);
  if (got < 0 && too_long) {
    if (total > FZN_PATHS_SIZE_MAX)
      snprintf(why, why_size, "larger than %llu bytes", (unsigned long long)FZN_PATHS_SIZE_MAX);
    else
      snprintf(why, why_size, "line %llu is longer than %zu bytes", line_no + 1, (size_t)FZN_PATHS_LINE_MAX);
    fzn_paths_free(p);
    return NULL;
  }
  if (ok && got == 0 && ferror(in)) {
    snprintf(why, why_size, "read error: %s", strerror(errno));
    fzn_paths_free(p);
    return NULL;
  }
  if (!ok || got < 0) {
    snprintf(why, why_size, "out of memory");
    fzn_paths_free(p);
    return NULL;
  }
  if (p->constraint_count) qsort(p->constraints, (size_t)p->constraint_count, sizeof *p->constraints, by_index);
  if (p->variable_count) qsort(p->variables, (size_t)p->variable_count, sizeof *p->variables, by_name);
  return p;
}

fzn_paths *fzn_paths_read(const char *path, char *why, size_t why_size) {
  FILE *in = fopen(path, "r");
  if (!in) {
    snprintf(why, why_size, "%s", strerror(errno));
    return NULL;
  }
  fzn_paths *p = fzn_paths_read_stream(in, why, why_size);
  fclose(in);
  return p;
}

void fzn_paths_free(fzn_paths *p) {
  if (!p) return;
  for (int k = 0; k < p->file_count; k++) free(p->files[k]);
  for (int k = 0; k < p->variable_count; k++) free(p->variables[k].name);
  free(p->files);
  free(p->constraints);
  free(p->variables);
  free(p);
}

bool fzn_paths_constraint(const fzn_paths *p, int k, fzn_location *out) {
  if (!p) return false;
  numbered key = {k, 0, 0};
  const numbered *hit =
      p->constraint_count ? bsearch(&key, p->constraints, (size_t)p->constraint_count, sizeof key, by_index) : NULL;
  if (!hit) return false;
  *out = (fzn_location){p->files[hit->file], hit->line};
  return true;
}

bool fzn_paths_variable(const fzn_paths *p, const char *name, fzn_location *out) {
  if (!p || !name) return false;
  named key = {(char *)name, 0, 0};
  const named *hit =
      p->variable_count ? bsearch(&key, p->variables, (size_t)p->variable_count, sizeof key, by_name) : NULL;
  if (!hit) return false;
  *out = (fzn_location){p->files[hit->file], hit->line};
  return true;
}
