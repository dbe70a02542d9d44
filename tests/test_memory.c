/* The memory estimate behind every "needs X, Y available" message: it honours `ulimit -v`
 * (RLIMIT_AS), which it ignored (regression: "needs 0.01 GiB, 22.22 GiB available" under a
 * 30 MB limit), and sizes print in a unit that shows them ("0.00 GiB" said nothing).
 *
 * The limit is set on the running process and only lowered far below what is mapped plus a
 * little, so nothing here allocates under it: the estimate alone must refuse. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "hr.h"
#include "instance.h"
#include "test_util.h"

static uint64_t mapped_bytes(void) {
  unsigned long long pages = 0;
  FILE *f = fopen("/proc/self/statm", "r");
  if (f) {
    if (fscanf(f, "%llu", &pages) != 1) pages = 0;
    fclose(f);
  }
  return (uint64_t)pages * 4096u; /* a lower bound where pages are larger */
}

static void units(void) {
  char out[BB_BYTES_TEXT];
  CHECK(!strcmp(bb_bytes_text(out, 0), "0 bytes"));
  CHECK(!strcmp(bb_bytes_text(out, 1023), "1023 bytes"));
  CHECK(!strcmp(bb_bytes_text(out, 1536), "1.50 KiB"));
  CHECK(!strcmp(bb_bytes_text(out, 72000000), "68.7 MiB"));
  CHECK(!strcmp(bb_bytes_text(out, (uint64_t)300 << 20), "300 MiB"));
  CHECK(!strcmp(bb_bytes_text(out, 23856000000ull), "22.2 GiB"));
  CHECK(!strcmp(bb_bytes_text(out, UINT64_MAX), "16777216 TiB"));
}

static void address_space_limit(void) {
  struct rlimit old;
  if (getrlimit(RLIMIT_AS, &old) != 0) return;
  uint64_t room = (uint64_t)32 << 20, mapped = mapped_bytes();
  if (mapped == 0) {
    printf("no /proc/self/statm: the limit cannot be placed; skipped\n");
    return;
  }
  struct rlimit lower = old;
  lower.rlim_cur = (rlim_t)(mapped + room);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lower.rlim_cur) lower.rlim_cur = old.rlim_cur;
  CHECK(setrlimit(RLIMIT_AS, &lower) == 0);
  uint64_t avail = bb_available_memory();
  CHECKF(avail > 0 && avail <= room, "%llu bytes available under a limit %llu bytes above what is mapped",
         (unsigned long long)avail, (unsigned long long)room);
  /* n = 3000: 68.7 MiB of lists, more than the room left. */
  bb_error err = {{0}};
  bb_instance *inst = bb_instance_new(3000, &err);
  CHECKF(!inst && strstr(err.msg, "need 68.7 MiB") && strstr(err.msg, "MiB available") && !strstr(err.msg, "GiB"), "%s",
         err.msg);
  bb_instance_free(inst);
  bb_hr *hr = bb_hr_new(true, 1000000, 1000000, 10000000, 10000000, &err);
  CHECKF(!hr && strstr(err.msg, "MiB available"), "%s", err.msg);
  bb_hr_free(hr);
  CHECK(setrlimit(RLIMIT_AS, &old) == 0);
  CHECK(bb_available_memory() > room || bb_available_memory() == 0);
}

int main(void) {
  units();
  address_space_limit();
  return tu_finish();
}
