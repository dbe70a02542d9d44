/* Replays a fuzzer's seed corpus through its LLVMFuzzerTestOneInput without libFuzzer (it is
 * linked with one target: fzn_fuzz.c, fzn_build_fuzz.c or instance_fuzz.c), so CI (under
 * BAMBOO_SANITIZE too) checks every input that once found a bug. A file whose name starts
 * with "valid_" must also be accepted (fuzz_accepts), one with "invalid_" must be rejected;
 * others (crash reproducers) only must not crash.
 * Usage: TARGET_replay DIR_OR_FILE... */
#define _POSIX_C_SOURCE 200809L
#include "fuzz_target.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int files, failures;

static char *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t capacity = 4096, used = 0;
  char *data = malloc(capacity);
  size_t n;
  while (data && (n = fread(data + used, 1, capacity - used, f)) > 0) {
    used += n;
    if (used == capacity) {
      char *bigger = realloc(data, capacity *= 2);
      if (!bigger) free(data);
      data = bigger;
    }
  }
  fclose(f);
  *size = used;
  return data;
}

static void replay_file(const char *path) {
  size_t size;
  char *data = read_all(path, &size);
  if (!data) {
    fprintf(stderr, "%s: cannot read\n", path);
    failures++;
    return;
  }
  files++;
  LLVMFuzzerTestOneInput((const uint8_t *)data, size);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  bool must_parse = strncmp(base, "valid_", 6) == 0;
  bool must_fail = strncmp(base, "invalid_", 8) == 0;
  if (must_parse || must_fail) {
    bool accepted = fuzz_accepts((const uint8_t *)data, size, must_parse ? stderr : NULL);
    if (accepted != must_parse) {
      fprintf(stderr, "%s: %s\n", path, must_parse ? "rejected" : "accepted");
      failures++;
    }
  }
  free(data);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void replay(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "%s: not found\n", path);
    failures++;
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    replay_file(path);
    return;
  }
  DIR *dir = opendir(path);
  if (!dir) {
    failures++;
    return;
  }
  char **names = NULL;
  size_t count = 0;
  for (struct dirent *e; (e = readdir(dir));) {
    if (e->d_name[0] == '.') continue;
    char **more = realloc(names, (count + 1) * sizeof *names);
    if (!more) break;
    names = more;
    size_t length = strlen(path) + strlen(e->d_name) + 2;
    names[count] = malloc(length);
    if (names[count]) snprintf(names[count++], length, "%s/%s", path, e->d_name);
  }
  closedir(dir);
  qsort(names, count, sizeof *names, by_name); /* a stable order for the log */
  for (size_t k = 0; k < count; k++) {
    replay(names[k]);
    free(names[k]);
  }
  free(names);
}

int main(int argc, char **argv) {
  for (int k = 1; k < argc; k++) replay(argv[k]);
  printf("%d inputs replayed, %d failures\n", files, failures);
  return failures || files == 0 ? 1 : 0;
}
