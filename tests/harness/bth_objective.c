/* The Stable Marriage objectives from their definitions (bth_objective.h). */
#include "bth_objective.h"

#include "bth_sm.h"

bth_sm_score bth_sm_objectives(const int *pm, const int *pw, int n, const int64_t *mw, const int64_t *ww,
                               const int *wife) {
  bth_sm_score s = {0, 0, 0};
  for (int m = 0; m < n; m++) {
    int k = bth_sm_rank(pm, n, m, wife[m]);
    s.men += mw[m * n + k];
    if (k > s.regret) s.regret = k;
  }
  for (int m = 0; m < n; m++) {
    int w = wife[m], k = bth_sm_rank(pw, n, w, m);
    s.women += ww[w * n + k];
    if (k > s.regret) s.regret = k;
  }
  return s;
}

bth_sm_extremes bth_sm_objective_extremes(const int *pm, const int *pw, int n, const int64_t *mw, const int64_t *ww,
                                          const bth_solutions *matchings) {
  bth_sm_extremes e = {0, 0, 0, 0, 0};
  for (int k = 0; k < matchings->count; k++) {
    bth_sm_score s = bth_sm_objectives(pm, pw, n, mw, ww, bth_solution(matchings, k));
    int64_t total = s.men + s.women, difference = s.men - s.women;
    if (!e.count++) {
      e.min_weight = total, e.min_difference = e.max_difference = difference, e.min_regret = s.regret;
      continue;
    }
    if (total < e.min_weight) e.min_weight = total;
    if (difference < e.min_difference) e.min_difference = difference;
    if (difference > e.max_difference) e.max_difference = difference;
    if (s.regret < e.min_regret) e.min_regret = s.regret;
  }
  return e;
}
