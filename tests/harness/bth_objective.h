/* The objectives over Stable Marriage matchings (propagator/smc/objective/, smc_objective.h),
 * from their definitions (bth_solutions.h says what the harness is), for a matching given as
 * a wife row over bth_sm.h's lists: each side's weight, a weight per (person, rank), and the
 * regret, the worst rank anybody gets. Combined with bth_sm_brute (the constraint's
 * solutions) or bth_sm_brute_within (the restriction's stable matchings), they give the
 * optimum a bound is compared with. */
#ifndef BTH_OBJECTIVE_H
#define BTH_OBJECTIVE_H

#include "bth_solutions.h"

#include <stdbool.h>
#include <stdint.h>

/* What one matching scores: men's weight sum(mw[m*n + rank of wife[m]]), women's likewise
 * with ww, and the regret. */
typedef struct bth_sm_score {
  int64_t men, women;
  int regret;
} bth_sm_score;
bth_sm_score bth_sm_objectives(const int *pm, const int *pw, int n, const int64_t *mw, const int64_t *ww,
                               const int *wife);

/* The extremes over a set of matchings: the least total weight (men + women), the range of
 * men - women, the least regret; count 0 leaves the rest zero. */
typedef struct bth_sm_extremes {
  long count;
  int64_t min_weight, min_difference, max_difference;
  int min_regret;
} bth_sm_extremes;
bth_sm_extremes bth_sm_objective_extremes(const int *pm, const int *pw, int n, const int64_t *mw, const int64_t *ww,
                                          const bth_solutions *matchings);

#endif
