/* libFuzzer target: any bytes through the instance readers (docs/formats.md: complete text and
 * BBSMPBIN, SMI/HR text and BBHRCSR1), twice: as a stream of unknown size (fmemopen: the path
 * of a pipe or stdin, checked as it is read) and as a regular file named by path (a memfd under
 * /proc/self/fd: bb_read_any_instance as bamboo-smp calls it, with the size checks of regular
 * files). Both must agree on accepting. An accepted instance is solved by the sequential CPU
 * algorithms, which must agree, and checked stable, so a reader that lets through what the
 * validators should reject shows up as a crash in the engine. The readers see 256 MiB of
 * memory (bb_memory_cap): a header claiming a huge n fails at once, as it would on a small
 * machine, instead of reserving gigabytes that the input never fills. */
#define _GNU_SOURCE
#include "fuzz_target.h"
#include "bb_common.h"
#include "hr.h"
#include "hr_io.h"
#include "instance.h"
#include "instance_any.h"
#include "io_reader.h"
#include "solve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Solvers must not make a fuzz run slow: the readers are the target. */
enum { SOLVE_LIMIT_ENTRIES = 1 << 16 };

static void solve_complete(const bb_instance *inst) {
  if ((uint64_t)inst->n * (uint64_t)inst->n > SOLVE_LIMIT_ENTRIES) return;
  static const char *const algos[] = {"gs-seq", "mw-seq", "la-seq"};
  bb_id *wife[3];
  bb_error err;
  for (int a = 0; a < 3; a++) {
    wife[a] = malloc((size_t)inst->n * sizeof *wife[a]);
    if (!wife[a] || bb_solve(inst, algos[a], NULL, wife[a], NULL, &err) != BB_OK ||
        bb_check_stable(inst, wife[a], &err) != BB_OK) {
      fprintf(stderr, "%s: %s\n", algos[a], err.msg);
      abort();
    }
    if (a > 0 && memcmp(wife[a], wife[0], (size_t)inst->n * sizeof *wife[a]) != 0) {
      fprintf(stderr, "%s and %s disagree\n", algos[0], algos[a]);
      abort();
    }
  }
  for (int a = 0; a < 3; a++) free(wife[a]);
}

static void solve_incomplete(const bb_hr *inst) {
  if ((uint64_t)inst->res_start[inst->n_residents] + inst->hosp_start[inst->n_hospitals] > SOLVE_LIMIT_ENTRIES) return;
  int32_t *assigned = malloc(((size_t)inst->n_residents + 1) * sizeof *assigned);
  bb_error err;
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.threads = 1;
  for (int side = 0; side < 2; side++)
    if (!assigned || bb_hr_solve(inst, "gs-seq", (bb_hr_side)side, &opts, assigned, NULL, &err) != BB_OK ||
        bb_hr_check_stable(inst, assigned, &err) != BB_OK) {
      fprintf(stderr, "gs-seq, side %d: %s\n", side, err.msg);
      abort();
    }
  free(assigned);
}

/* 1 if the input was accepted, 0 if rejected; solves what was accepted. */
static int read_stream(const uint8_t *data, size_t size, FILE *errors) {
  /* fmemopen refuses an empty buffer; /dev/null is the same empty stream. */
  FILE *f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
  if (!f) abort();
  reader r;
  bb_instance *complete = NULL;
  bb_hr *incomplete = NULL;
  bb_error err = {{0}};
  bb_status st = bb_reader_open_stream(&r, f, "<stream>", &err);
  if (st == BB_OK) {
    st = bb_read_any_from(&r, &complete, &incomplete, &err);
    bb_reader_close(&r);
  }
  if (st != BB_OK && errors) fprintf(errors, "%s\n", err.msg);
  if ((st == BB_OK) != (complete || incomplete)) abort();
  if (complete) solve_complete(complete);
  if (incomplete) solve_incomplete(incomplete);
  bb_instance_free(complete);
  bb_hr_free(incomplete);
  return st == BB_OK;
}

static int read_file(const uint8_t *data, size_t size, FILE *errors) {
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    fd = memfd_create("instance", 0);
    if (fd < 0) abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) abort();
  bb_instance *complete = NULL;
  bb_hr *incomplete = NULL;
  bb_error err = {{0}};
  bb_status st = bb_read_any_instance(path, &complete, &incomplete, &err);
  if (st != BB_OK && errors) fprintf(errors, "%s\n", err.msg);
  if ((st == BB_OK) != (complete || incomplete)) abort();
  bb_instance_free(complete);
  bb_hr_free(incomplete);
  return st == BB_OK;
}

int fuzz_accepts(const uint8_t *data, size_t size, FILE *errors) {
  bb_memory_cap = (uint64_t)256 << 20;
  int streamed = read_stream(data, size, errors), from_file = read_file(data, size, errors);
  if (streamed != from_file) {
    fprintf(stderr, "the stream reader %s the input, the file reader %s it\n", streamed ? "accepts" : "rejects",
            from_file ? "accepts" : "rejects");
    abort();
  }
  return streamed;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_accepts(data, size, NULL);
  return 0;
}
