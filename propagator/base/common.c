/* Error messages, clocks and machine facts used across libbamboo. */
#define _DEFAULT_SOURCE /* madvise */
#define _POSIX_C_SOURCE 200809L
#include "bb_common.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static atomic_bool out_of_memory_seen;

void bb_note_out_of_memory(void) { atomic_store(&out_of_memory_seen, true); }
bool bb_out_of_memory_seen(void) { return atomic_load(&out_of_memory_seen); }

bb_status bb_fail(bb_error *err, bb_status status, const char *fmt, ...) {
  if (status == BB_ERR_NOMEM) bb_note_out_of_memory();
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return status;
}

const char *bb_status_name(bb_status status) {
  switch (status) {
    case BB_OK: return "ok";
    case BB_ERR_INPUT: return "invalid input";
    case BB_ERR_NOMEM: return "out of memory";
    case BB_ERR_IO: return "i/o error";
    case BB_ERR_ARG: return "bad argument";
    case BB_ERR_NO_GPU: return "no usable GPU";
    case BB_ERR_GPU: return "GPU error";
    case BB_ERR_TIMEOUT: return "time limit";
  }
  return "unknown status";
}

double bb_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

uint64_t bb_memory_cap;

static uint64_t capped(uint64_t bytes) {
  return bb_memory_cap && (bytes == 0 || bytes > bb_memory_cap) ? bb_memory_cap : bytes;
}

static uint64_t physical_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f) {
    char line[256];
    unsigned long long kib;
    while (fgets(line, sizeof line, f)) {
      if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) {
        fclose(f);
        return (uint64_t)kib * 1024u;
      }
    }
    fclose(f);
  }
  long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return (pages > 0 && page > 0) ? (uint64_t)pages * (uint64_t)page : 0;
}

/* What `ulimit -v` (RLIMIT_AS) and `ulimit -d` (RLIMIT_DATA) still leave this process: the
 * limit less what is mapped now (/proc/self/statm: the whole address space, and data + stack).
 * UINT64_MAX when neither is set. A large malloc is an mmap, which both limits count, so a
 * machine with 22 GiB free still has only this much for us. */
static uint64_t rlimit_room(void) {
  unsigned long long size = 0, resident, shared, text, lib, data = 0;
  long page = sysconf(_SC_PAGESIZE);
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%llu %llu %llu %llu %llu %llu", &size, &resident, &shared, &text, &lib, &data) != 6) size = data = 0;
    fclose(f);
  }
  const struct {
    int resource;
    unsigned long long used_pages;
  } limits[] = {{RLIMIT_AS, size}, {RLIMIT_DATA, data}};
  uint64_t room = UINT64_MAX;
  for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
    struct rlimit rl;
    if (getrlimit(limits[k].resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) continue;
    uint64_t used = (uint64_t)limits[k].used_pages * (uint64_t)(page > 0 ? page : 4096);
    uint64_t left = (uint64_t)rl.rlim_cur > used ? (uint64_t)rl.rlim_cur - used : 0;
    if (left < room) room = left;
  }
  return room;
}

uint64_t bb_available_memory(void) {
  uint64_t avail = physical_available(), room = rlimit_room();
  if (room != UINT64_MAX && (avail == 0 || room < avail))
    avail = room > 0 ? room : 1; /* 0 would read as "unknown": nothing is left */
  return capped(avail);
}

const char *bb_bytes_text(char out[BB_BYTES_TEXT], uint64_t bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) {
    snprintf(out, BB_BYTES_TEXT, "%llu bytes", (unsigned long long)bytes);
    return out;
  }
  double v = (double)bytes / 1024;
  int u = 0;
  while (v >= 1024 && u < 3) v /= 1024, u++;
  snprintf(out, BB_BYTES_TEXT, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
  return out;
}

int bb_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}

void *bb_alloc_large(size_t bytes) {
  enum { HUGE_PAGE = 2u << 20 };
  if (bytes < HUGE_PAGE) return malloc(bytes ? bytes : 1);
  void *p = NULL;
  if (posix_memalign(&p, HUGE_PAGE, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
  (void)madvise(p, bytes & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE); /* advice only: may fail */
#endif
  return p;
}

void *bb_array_new(uint64_t count, size_t size) {
  if (count > SIZE_MAX / size) return NULL;
  return calloc(count ? (size_t)count : 1, size);
}

bb_status bb_lists_fit(uint64_t bytes, bb_error *err) {
  uint64_t avail = bb_available_memory();
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  if (avail && bytes > avail)
    return bb_fail(err, BB_ERR_NOMEM, "the preference lists need %s, %s available", bb_bytes_text(need, bytes),
                   bb_bytes_text(have, avail));
  return BB_OK;
}

bb_status bb_lists_out_of_memory(uint64_t bytes, bb_error *err) {
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  return bb_fail(err, BB_ERR_NOMEM, "out of memory: cannot allocate the preference lists' %s (%s available)",
                 bb_bytes_text(need, bytes), bb_bytes_text(have, bb_available_memory()));
}
