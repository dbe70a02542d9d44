/* Exact samplers of the Mallows distribution over rankings (Mallows, "Non-null ranking models",
 * Biometrika 44, 1957; docs/references.md): a ranking pi of m items around a centre ranking has
 * probability phi^d(pi) / Z(phi, m), d the Kendall tau distance to the centre (the pairs of items
 * the two rankings order differently), Z = prod_{i=1..m} (1 + phi + ... + phi^(i-1)). phi = 1 is
 * the uniform distribution; the smaller phi, the closer rankings stay to the centre.
 *
 * Both samplers draw a Lehmer code, one truncated geometric number a step, which is why they
 * are exact rather than approximations (docs/generators.md, "Mallows"):
 *   bb_mallows_rim     the repeated insertion method (Doignon, Pekec & Regenwetter,
 *                      Psychometrika 69, 2004): centre item i (0-based) goes to position i - k of
 *                      the i + 1 places, P(k) proportional to phi^k; it passes k earlier items,
 *                      so d is the sum of the k. A whole ranking, O(m log m).
 *   bb_mallows_prefix  the first len places of a ranking, chosen top-down: place t takes the
 *                      k-th of the centre's remaining items, P(k) proportional to phi^k; that item
 *                      goes ahead of the k remaining items the centre puts first, so d is again
 *                      the sum of the k. Stopping early leaves the exact distribution of the first
 *                      len places, in O(len^2) whatever m is. */
#ifndef BB_MALLOWS_H
#define BB_MALLOWS_H

#include <stdint.h>

#include "bb_common.h"
#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* k in [0, r) with P(k) = phi^k / (1 + phi + ... + phi^(r-1)); phi in (0, 1], r >= 1. */
uint32_t bb_mallows_geometric(bb_rng *rng, double phi, uint32_t r);

/* out[0..m) a Mallows(phi) ranking of the items centre[0..m) (centre[0] the centre's first);
 * work holds 2 m + 1 entries. out and centre must not overlap. */
void bb_mallows_rim(bb_rng *rng, double phi, const bb_id *centre, uint32_t m, bb_id *out, uint32_t *work);

/* out[0..len) the first len places of a Mallows(phi) ranking of centre[0..m), len <= m; work
 * holds len entries (the centre positions taken, sorted). */
void bb_mallows_prefix(bb_rng *rng, double phi, const bb_id *centre, uint32_t m, bb_id *out, uint32_t len,
                       uint32_t *work);

#ifdef __cplusplus
}
#endif
#endif
