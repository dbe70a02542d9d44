/* Shared by the HRC engine's tests (test_hrc.c, test_hrc_ties.c): instance equality for the
 * formats' round trips and the generators' seeds, and the engine's checker against the
 * harness's count of blocking pairs on one matching. */
#ifndef BB_HRC_TESTLIB_H
#define BB_HRC_TESTLIB_H

#include "hrc.h"
#include "test_util.h"

#include <stdbool.h>
#include <string.h>

/* Equal instances: every array, and the hospitals' ranks as bb_hrc_hosp_rank reads them (a
 * strict instance may or may not carry ranks equal to the positions). */
static inline bool ht_same_hrc(const bb_hrc *a, const bb_hrc *b) {
  if (a->n_residents != b->n_residents || a->n_hospitals != b->n_hospitals || a->n_couples != b->n_couples)
    return false;
  int nr = a->n_residents, nh = a->n_hospitals, nc = a->n_couples;
  bool same = !memcmp(a->couple_of, b->couple_of, (size_t)nr * 4) &&
              !memcmp(a->couple_member, b->couple_member, (size_t)nc * 8) &&
              !memcmp(a->single_start, b->single_start, ((size_t)nr + 1) * 4) &&
              !memcmp(a->single_list, b->single_list, (size_t)a->single_start[nr] * 4) &&
              !memcmp(a->couple_start, b->couple_start, ((size_t)nc + 1) * 4) &&
              !memcmp(a->couple_list, b->couple_list, (size_t)a->couple_start[nc] * 8) &&
              !memcmp(a->hosp_start, b->hosp_start, ((size_t)nh + 1) * 4) &&
              !memcmp(a->hosp_list, b->hosp_list, (size_t)a->hosp_start[nh] * 4) &&
              !memcmp(a->capacity, b->capacity, (size_t)nh * 4);
  for (int h = 0; same && h < nh; h++)
    for (uint32_t e = a->hosp_start[h]; e < a->hosp_start[h + 1]; e++)
      same &= bb_hrc_hosp_rank(a, h, e) == bb_hrc_hosp_rank(b, h, e);
  return same;
}

/* The engine's count of M's blocking pairs is the reference's `blocking`, and its stability
 * check says stable exactly when that is 0 (err: check_stable's message). */
static inline void ht_check_checker(const bb_hrc *inst, const int32_t *M, int blocking, bb_error *err) {
  uint64_t got = 0;
  bb_status st = bb_hrc_count_blocking(inst, M, &got, err);
  CHECKF(st == BB_OK && got == (uint64_t)blocking, "count %llu (status %d: %s), reference %d", (unsigned long long)got,
         st, err->msg, blocking);
  st = bb_hrc_check_stable(inst, M, err);
  CHECKF((st == BB_OK) == (blocking == 0), "check_stable %d (%s) but the reference counts %d", st, err->msg, blocking);
}

#endif
