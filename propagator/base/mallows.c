/* Mallows samplers (mallows.h). */
#include "mallows.h"

#include <assert.h>
#include <math.h>

uint32_t bb_mallows_geometric(bb_rng *rng, double phi, uint32_t r) {
  assert(r >= 1 && phi > 0 && phi <= 1);
  if (phi >= 1 || r == 1) return bb_rng_below(rng, r);
  /* Inversion: with u uniform in [0, 1), x = 1 - u (1 - phi^r) lies in (phi^r, 1] and
   * floor(log x / log phi) >= K exactly when x <= phi^K, which has probability
   * (phi^K - phi^r) / (1 - phi^r): the truncated geometric tail. */
  double log_phi = log(phi), u = (double)(bb_rng_next(rng) >> 11) * 0x1.0p-53;
  double k = floor(log1p(u * expm1((double)r * log_phi)) / log_phi);
  return k >= (double)(r - 1) ? r - 1 : (uint32_t)k;
}

/* The position of the k-th (1-based) free slot of a Fenwick tree over slots 1..m that counts the
 * free ones (tree[1..m]), taken out of it. */
static uint32_t take_free_slot(uint32_t *tree, uint32_t m, uint32_t k) {
  uint32_t pos = 0, step = 1;
  while (step <= m / 2) step <<= 1;
  for (; step; step >>= 1)
    if (pos + step <= m && tree[pos + step] < k) pos += step, k -= tree[pos];
  for (uint32_t i = pos + 1; i <= m; i += i & -i) tree[i]--;
  return pos; /* slot pos + 1, 0-based pos */
}

void bb_mallows_rim(bb_rng *rng, double phi, const bb_id *centre, uint32_t m, bb_id *out, uint32_t *work) {
  uint32_t *place = work, *tree = work + m;
  /* Centre item i is inserted at place[i] in 0..i of the ranking built so far ... */
  for (uint32_t i = 0; i < m; i++) place[i] = i - bb_mallows_geometric(rng, phi, i + 1);
  /* ... and the items inserted after it push it down: read backwards, item i ends in the
   * place[i]-th slot (0-based) that the later items left free. */
  for (uint32_t i = 1; i <= m; i++) tree[i] = i & -i; /* every slot free */
  for (uint32_t i = m; i-- > 0;) out[take_free_slot(tree, m, place[i] + 1)] = centre[i];
}

void bb_mallows_prefix(bb_rng *rng, double phi, const bb_id *centre, uint32_t m, bb_id *out, uint32_t len,
                       uint32_t *work) {
  assert(len <= m);
  uint32_t *taken = work; /* centre positions already placed, increasing */
  for (uint32_t t = 0; t < len; t++) {
    uint32_t pos = bb_mallows_geometric(rng, phi, m - t), j = 0;
    /* The pos-th remaining centre position: step over the taken ones at or before it. */
    for (; j < t && taken[j] <= pos; j++) pos++;
    for (uint32_t s = t; s > j; s--) taken[s] = taken[s - 1];
    taken[j] = pos;
    out[t] = centre[pos];
  }
}
