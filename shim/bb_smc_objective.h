/* Objective bounds over the stable-matching lattice as a Gecode propagator: the C API of
 * shim/stable_matching_objective.cpp (propagator/smc/objective/smc_objective.h, docs/objectives.md).
 *
 *   bb_post_stable_matching_objective(men, women, n, base, pm, pw, wm, ww, cost, kind)
 *
 * men[i] and women[j] are rank variables as in stable_matching (base + k: the k-th choice);
 * pm and pw the n x n lists (ids in base); wm[i * n + k] the weight of man i marrying his
 * k-th choice, ww likewise (NULL for both: the weight of rank k is base + k, so that the
 * total is sum(men) + sum(women)). Whenever the men's and women's domains change, the
 * propagator computes over the stable matchings of the instance restricted to the pairs
 * both domains allow, and raises cost's minimum:
 *   BB_SMO_KIND_WEIGHT     to the least sum of the weights;
 *   BB_SMO_KIND_IMBALANCE  to the distance from 0 to the exact range of
 *                          (sum of the men's weights - sum of the women's);
 *   BB_SMO_KIND_REGRET     to base + the rank that somebody must accept in every stable
 *                          matching (each man's best stable wife, each woman's best husband);
 * and fails when no perfect stable matching of the restriction is left. It bounds only:
 * cost's own definition (the sum, the absolute difference, the maximum) and stability are
 * posted by the caller (the MiniZinc predicates of stable_matching_objective.mzn). Sound
 * with any side constraints, as long as (men, women) is constrained to be stable for pm, pw. */
#ifndef BB_SMC_OBJECTIVE_SHIM_H
#define BB_SMC_OBJECTIVE_SHIM_H

#include "bb_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_smo_kind { BB_SMO_KIND_WEIGHT = 0, BB_SMO_KIND_IMBALANCE = 1, BB_SMO_KIND_REGRET = 2 } bb_smo_kind;

/* Errors: BB_ERR_ARG (a variable that does not exist, base not 0 or 1, kind unknown),
 * BB_ERR_INPUT (a list that is no permutation, naming it), BB_ERR_NOMEM. */
bb_status bb_post_stable_matching_objective(bb_space *space, const int *men, const int *women, int n, int base,
                                            const int *pm, const int *pw, const int *wm, const int *ww, int cost,
                                            int kind, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
