/* The differential test harness (tests/harness/, library bamboo_test_harness), in the spirit
 * of Gecode's Test::Int::Test: a model is solved by two independent roads (brute force from
 * the definition, the propagator on the CPU, emulated or GPU path, a decomposition) and what
 * each finds is compared, as sets of solutions or as domains.
 *
 *   bth_solutions.h  sets of solutions (rows of ints) and their comparison
 *   bth_sm.h         Stable Marriage, complete lists: random instances, brute force, GS-lists
 *   bth_smi.h        incomplete lists (SMI): random instances, brute force, ranks as values
 *   bth_hr.h         Hospitals/Residents (bb_hr): random instances, stability, brute force
 *   bth_hrc.h        HRC (bb_hrc): random instances, blocking pairs by the definition, brute force
 *   bth_objective.h  the Stable Marriage objectives (weights, regret) of a matching, their extremes
 *   bth_gecode.h     the same models in Gecode through the shim: enumeration, domain
 *                    snapshots, the constraint's posts, side constraints (its own library,
 *                    bamboo_test_harness_gecode)
 *
 * The harness counts nothing: it returns what it found, and the test CHECKs it, so that each
 * test's tally stays its own. Nothing here calls the code under test except to drive it. */
#ifndef BTH_SOLUTIONS_H
#define BTH_SOLUTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* Solutions as rows of `width` ints (a wife per man, a rank per variable, ...), in the
 * order found. Grows as needed; a zeroed struct is an empty set of width 0. */
typedef struct bth_solutions {
  int width;
  int count;
  int cap;  /* ints allocated */
  int *row; /* count rows of width ints */
} bth_solutions;

/* Empties s and sets its width, keeping its memory. */
void bth_solutions_reset(bth_solutions *s, int width);
void bth_solutions_free(bth_solutions *s);
/* Appends a copy of row (width ints); false if memory ran out. */
bool bth_solutions_add(bth_solutions *s, const int *row);
/* to = a copy of from (to's memory reused); false if memory ran out. */
bool bth_solutions_copy(bth_solutions *to, const bth_solutions *from);
/* Row k (0 <= k < count). */
int *bth_solution(const bth_solutions *s, int k);
/* The same rows, in any order (and as many of each). */
bool bth_same_solutions(const bth_solutions *a, const bth_solutions *b);
/* Keeps the rows for which keep(row, ctx) holds, in order. */
void bth_solutions_keep(bth_solutions *s, bool (*keep)(const int *row, void *ctx), void *ctx);

/* splitmix64, the tests' generator (as test_util.h's tu_rand): the same seed gives the same
 * instances everywhere. */
uint64_t bth_rand(uint64_t *state);
/* ids[0..count) a uniformly random permutation of 0..count-1. */
void bth_shuffle(int *ids, int count, uint64_t *rng);

#endif
