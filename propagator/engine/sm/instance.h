/* A stable-marriage instance: n men, n women, complete strict preference lists.
 *
 * Lists are stored row-major and 0-based: men_prefs[m * n + k] is the k-th choice of
 * man m (k = 0 is his favourite), women_prefs[w * n + k] the k-th choice of woman w.
 * A valid instance has every row a permutation of 0..n-1. */
#ifndef BB_INSTANCE_H
#define BB_INSTANCE_H

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_instance {
  int n;
  bb_id *men_prefs;   /* n * n */
  bb_id *women_prefs; /* n * n */
} bb_instance;

/* Allocates an instance with uninitialised lists. Fails with BB_ERR_NOMEM and a
 * message giving the bytes needed if 2 n^2 ids cannot be had (or exceed the memory
 * the machine has available), and with BB_ERR_ARG if n is outside 1..BB_MAX_N. */
bb_instance *bb_instance_new(int n, bb_error *err);
void bb_instance_free(bb_instance *inst); /* accepts NULL */

/* Bytes the instance's lists take. */
uint64_t bb_instance_bytes(int n);

/* Checks that every row is a permutation of 0..n-1; the message names the first
 * bad row ("man 3's list: id 7 appears twice" ...). */
bb_status bb_instance_validate(const bb_instance *inst, bb_error *err);

/* Checks that `wife_of` (wife_of[m] = woman of man m) is a perfect matching with
 * no blocking pair. O(n^2) time; n^2 bits of scratch (one bit per pair; sm_check.c
 * explains why O(n) words cannot do it in O(n^2) time), in blocks if memory is short. The message
 * names the first defect (a woman married twice,
 * an id out of range, or a blocking pair "(man 3, woman 5)"). */
bb_status bb_check_stable(const bb_instance *inst, const bb_id *wife_of, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
