/* Objective bounds over the stable-matching lattice, independent of any solver: the
 * minimum total weight of a stable matching (egalitarian cost, or any per-rank weights) and
 * the exact range of (men's weight - women's weight), both over the stable matchings of the
 * instance restricted to what the current domains allow (docs/objectives.md).
 *
 * Restriction: pair (m, w) is kept iff man m's domain holds his rank of w and woman w's
 * domain holds her rank of m. Every solution of a model whose matching is stable for the
 * full lists is a perfect stable matching of that SMI restriction (a pair blocking it in the
 * restriction is a pair of the full instance and would block there too), so the minimum
 * over the restriction's stable matchings is a lower bound on every solution's cost, with
 * any side constraints. If the restriction's stable matchings are not perfect (by the Rural
 * Hospitals theorem they all match the same people), no solution is left.
 *
 * Method: Gusfield & Irving, "The Stable Marriage Problem" (MIT Press 1989), sections 2.5
 * and 3.3: the man-optimal matching by Gale-Shapley, every rotation by one maximal chain
 * of eliminations, the rotation poset from the type-1 / type-2 pair labels; then Irving,
 * Leather & Gusfield, J. ACM 34 (1987): the optimal stable matching is the man-optimal one
 * changed by a minimum-weight closed set of rotations, found by a minimum cut (Picard 1976).
 * O(n^2) time and memory per call, plus the max-flow over at most n(n-1)/2 rotations. */
#ifndef BB_SMC_OBJECTIVE_H
#define BB_SMC_OBJECTIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instance and its weights: shared, read-only, reference counted. */
typedef struct bb_smo bb_smo;

/* n men and n women, complete lists: man_choice[m * n + k] = the woman (0-based id) man m
 * ranks k-th, woman_choice likewise; man_weight[m * n + k] = the weight of man m marrying
 * his k-th choice, woman_weight[w * n + k] the same for woman w (may be negative). Copies
 * everything; rejects rows that are not permutations (BB_ERR_INPUT naming the row). */
bb_status bb_smo_new(int n, const int32_t *man_choice, const int32_t *woman_choice, const int64_t *man_weight,
                     const int64_t *woman_weight, bb_smo **out, bb_error *err);
bb_smo *bb_smo_retain(bb_smo *smo);
void bb_smo_release(bb_smo *smo); /* NULL is fine */
int bb_smo_n(const bb_smo *smo);
/* Man m's rank of woman w, woman w's rank of man m. */
int bb_smo_man_rank(const bb_smo *smo, int m, int w);
int bb_smo_woman_rank(const bb_smo *smo, int w, int m);
/* The weight of agent a (men 0..n-1, then women n..2n-1) taking his or her k-th choice. */
int64_t bb_smo_weight(const bb_smo *smo, int a, int k);
/* Whether every agent's weights are non-decreasing in the rank (so that a domain's extreme
 * weights sit at its extreme ranks). */
bool bb_smo_monotone(const bb_smo *smo);

typedef enum bb_smo_result {
  BB_SMO_OK = 0, /* the bound is in *out */
  BB_SMO_NONE,   /* the restriction has no perfect stable matching: no solution is left */
  BB_SMO_NOMEM
} bb_smo_result;

/* What the domains allow: man_ok[m * n + k] != 0 iff man m may take his k-th choice,
 * woman_ok[w * n + k] likewise (ranks from 0). */
typedef struct bb_smo_allowed {
  const uint8_t *man_ok, *woman_ok;
} bb_smo_allowed;

/* The least total weight (sum over the men of man_weight plus sum over the women of
 * woman_weight) of a stable matching of the restriction. */
bb_smo_result bb_smo_min_weight(const bb_smo *smo, bb_smo_allowed allowed, int64_t *out);

/* The least and the greatest (sum of man_weight - sum of woman_weight) over the stable
 * matchings of the restriction: exact, by two minimum cuts. With ranks as weights this
 * brackets the sex-equal objective: |men - women| >= the distance from 0 to [lo, hi]. */
bb_smo_result bb_smo_difference_range(const bb_smo *smo, bb_smo_allowed allowed, int64_t *lo, int64_t *hi);

/* Largest rank anybody must accept in every stable matching of the restriction: each man's
 * rank in the man-optimal matching, each woman's in the woman-optimal one (their best
 * stable partners). A lower bound on the regret (the largest rank in the matching). */
bb_smo_result bb_smo_min_regret_bound(const bb_smo *smo, bb_smo_allowed allowed, int *out);

#ifdef __cplusplus
}
#endif
#endif
