/* The hybrid's calibration file (smc_calibration_file.c) without a GPU: what a run reads from
 * $BAMBOO_CALIBRATION and what --calibrate writes there. The probe once read the file with
 * fgets and sscanf, so /dev/zero spun forever, "batch_handover 1e9" read as 1 and "min_n 12abc"
 * as 12; an alarm turns a hang into a failure. */
#define _POSIX_C_SOURCE 200809L
#include "smc_tuning.h"
#include "test_util.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/bb_calibration_XXXXXX";
static char path[256];

static const bb_smc_calibration base = {1000, 512, 512, 500, 8000, 1, 310, ""};

static void write_file(const char *content, size_t length) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  if (!f) return;
  fwrite(content, 1, length, f);
  fclose(f);
}

/* Reads `at` over the base values; the status, with the message in msg[256]. */
static bb_status read_at(const char *at, bb_smc_calibration *c, bool *found, char *msg) {
  *c = base;
  bb_error err = {{0}};
  bb_status st = bb_smc_calibration_read(at, c, found, &err);
  snprintf(msg, 256, "%.255s", err.msg);
  return st;
}

/* `content` is refused with a message holding `want`. */
#define REFUSED(content, want_st, want) refused(content, sizeof content - 1, want_st, want)
static void refused(const char *content, size_t length, bb_status want_st, const char *want) {
  write_file(content, length);
  bb_smc_calibration c;
  bool found;
  char msg[256];
  bb_status st = read_at(path, &c, &found, msg);
  CHECKF(st == want_st && strstr(msg, want), "'%.40s': status %d, '%s', expected '%s'", content, st, msg, want);
}

static void test_read(void) {
  bb_smc_calibration c;
  bool found = true;
  char msg[256];
  CHECK(read_at("/nonexistent/calibration.txt", &c, &found, msg) == BB_OK && !found && c.min_n == 1000);

  static const char good[] =
      "# bamboo calibration\n\nmin_n 600\nmin_free  64 # a comment\r\nunknown_key 1e9\n"
      "min_modified 0\nhandover_per_value 0\nhandover_spread 250\nbatch_handover 9000";
  write_file(good, sizeof good - 1);
  CHECKF(read_at(path, &c, &found, msg) == BB_OK && found, "%s", msg);
  CHECK(c.min_n == 600 && c.min_free == 64 && c.handover_per_value == 0 && c.handover_spread == 250);
  CHECK(c.batch_handover == 9000 && c.handover == 500);
  CHECK(c.min_modified == 512); /* below its least value: ignored, as documented */

  char want[300];
  snprintf(want, sizeof want, "%s:2: batch_handover: '1e9' is not an integer", path);
  REFUSED("min_n 600\nbatch_handover 1e9\n", BB_ERR_INPUT, want);
  snprintf(want, sizeof want, "%s:1: min_n: '12abc' is not an integer", path);
  REFUSED("min_n 12abc\n", BB_ERR_INPUT, want);
  REFUSED("min_n 99999999999\n", BB_ERR_INPUT, "min_n: 99999999999 does not fit in an int");
  REFUSED("min_n -\n", BB_ERR_INPUT, "min_n: '-' is not an integer");
  REFUSED("min_free\n", BB_ERR_INPUT, ":1: min_free has no value");
  REFUSED("min_n 5 6\n", BB_ERR_INPUT, ":1: unexpected '6' after min_n's value");
  REFUSED("min_n 5\n\0\n", BB_ERR_INPUT, ":2: a NUL byte");
  char line[400];
  memset(line, 'x', sizeof line);
  line[0] = '#';
  refused(line, sizeof line, BB_ERR_INPUT, ":1: line longer than 255 bytes");

  /* Not regular files: refused at once. The FIFO has no writer, so a plain open would wait. */
  CHECK(read_at("/dev/zero", &c, &found, msg) == BB_ERR_IO && strstr(msg, "not a regular file"));
  CHECK(read_at("/dev/full", &c, &found, msg) == BB_ERR_IO && strstr(msg, "not a regular file"));
  CHECK(read_at(dir, &c, &found, msg) == BB_ERR_IO && strstr(msg, "not a regular file"));
  char fifo[300];
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECKF(read_at(fifo, &c, &found, msg) == BB_ERR_IO && strstr(msg, "not a regular file"), "%s", msg);

  bb_error err = {{0}};
  CHECK(bb_smc_calibration_check_target(fifo, &err) == BB_ERR_IO && strstr(err.msg, "not a regular file"));
  unlink(fifo);
}

static void test_write(void) {
  bb_smc_calibration c = {700, 128, 256, 400, 7000, 2, 300, ""}, back;
  bb_error err = {{0}};
  bool found = false;
  char msg[256];
  CHECK(bb_smc_calibration_check_target(path, &err) == BB_OK);
  CHECKF(bb_smc_calibration_write(path, &c, "Test GPU", &err) == BB_OK, "%s", err.msg);
  CHECKF(read_at(path, &back, &found, msg) == BB_OK && found, "%s", msg);
  CHECK(back.min_n == 700 && back.min_free == 128 && back.min_modified == 256 && back.handover == 400);
  CHECK(back.batch_handover == 7000 && back.handover_per_value == 2 && back.handover_spread == 300);

  CHECK(bb_smc_calibration_check_target("/dev/full", &err) == BB_ERR_IO && strstr(err.msg, "not a regular file"));
  CHECK(bb_smc_calibration_write("/dev/full", &c, "Test GPU", &err) == BB_ERR_IO);
  CHECK(bb_smc_calibration_check_target(dir, &err) == BB_ERR_IO);
  CHECK(bb_smc_calibration_write(dir, &c, "Test GPU", &err) == BB_ERR_IO);

  /* A full disk, by a file size limit: the write is checked, not assumed. */
  struct rlimit old, small = {16, 16};
  CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
  small.rlim_max = old.rlim_max;
  void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
  CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
  bb_status st = bb_smc_calibration_write(path, &c, "Test GPU", &err);
  CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
  signal(SIGXFSZ, was);
  CHECKF(st == BB_ERR_IO && strstr(err.msg, "cannot write"), "%d %s", st, err.msg);
}

int main(void) {
  alarm(20); /* a read that never ends fails the test instead of hanging it */
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(path, sizeof path, "%s/calibration.txt", dir);
  test_read();
  test_write();
  unlink(path);
  rmdir(dir);
  return tu_finish();
}
