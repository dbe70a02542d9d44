/* Internal to the HRC generators (hrc_gen.c, hrc_mallows.c): what they share around the lists
 * each draws its own way: the checks of the sizes and posts, a draw by cumulative weights, and
 * the instance's lists built from every resident's own list and each couple's pairs. */
#ifndef BB_HRC_GEN_LISTS_H
#define BB_HRC_GEN_LISTS_H

#include <stdint.h>

#include "hrc.h"
#include "rng.h"

/* Every resident's own list: resident r's is own[r * width ..] (own_len[r] hospitals); uses has
 * an entry each (zeroed), marked when someone proposes with it. */
typedef struct bb_hrc_own_lists {
  const bb_id *own;
  const int *own_len;
  int width;
  uint8_t *uses;
} bb_hrc_own_lists;

/* Residents 0..BB_MAX_N, at most half of them in couples, hospitals 1..BB_MAX_N; BB_ERR_ARG. */
bb_status bb_hrc_gen_check_sizes(int n_residents, int n_couples, int n_hospitals, bb_error *err);
/* posts 0..INT32_MAX, at least min_capacity >= 0 at each hospital; BB_ERR_ARG. */
bb_status bb_hrc_gen_check_posts(int64_t posts, int min_capacity, int n_hospitals, bb_error *err);

/* lo..hi, uniformly. */
static inline int bb_hrc_gen_between(bb_rng *rng, int lo, int hi) {
  return lo + (int)bb_rng_below(rng, (uint64_t)(hi - lo + 1));
}
/* An index below n drawn with the weights whose running sums are cumulative[0..n). */
uint32_t bb_hrc_gen_weighted(bb_rng *rng, const double *cumulative, int n);

/* The singles' lists (their own lists) and the couples' joint lists (couple c's k-th pair names
 * its members' own entries pairs[2k] and pairs[2k + 1], as joint(ctx, c, pairs) returns them with
 * their number), marking the entries used; inst's couples are residents 0..2 n_couples - 1. */
void bb_hrc_gen_resident_lists(bb_hrc *inst, const bb_hrc_own_lists *L, int (*joint)(void *ctx, int c, uint32_t *pairs),
                               void *ctx, uint32_t *pairs);
/* Hospital h's list: the residents with a used entry naming h, in the order `order` (NULL: by
 * id). fill: n_hospitals + 1 zeroed counters. */
void bb_hrc_gen_hospital_lists(bb_hrc *inst, const bb_hrc_own_lists *L, const bb_id *order, uint32_t *fill);

#endif
