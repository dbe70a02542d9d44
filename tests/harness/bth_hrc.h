/* Hospitals/Residents with Couples on the engine's bb_hrc (hrc.h), from the definition
 * (bth_solutions.h says what the harness is): random tiny instances, whether an assignment
 * is a matching, its blocking pairs counted straight from the wording of Manlove, McBride &
 * Trimble, Constraints 22 (2017), Definition 1 (docs/hrc.md), each agent's share of them, and
 * every matching by brute force. Written apart from the engine's checker and the constraint,
 * as plainly as possible: ranks by linear scan, sets by looping over every resident.
 *
 * A matching M gives each resident a hospital or BB_HRC_NONE (M[r]); it is a solution of the
 * constraint with bp = bth_hrc_blocking(M) when bth_hrc_is_matching(M). */
#ifndef BTH_HRC_H
#define BTH_HRC_H

#include "hrc.h"

#include <stdbool.h>
#include <stdint.h>

enum { BTH_HRC_MAX_RESIDENTS = 64 }; /* what the generator and enumeration take */

/* nc couples of distinct random residents; singles list a random subset of the hospitals,
 * couples a random subset of all pairs ((h, h) included), hospitals a random subset of the
 * residents (mostly all), all in random order; capacities 0..max_cap. nr <= 64, nh <= 64 (8 with couples). */
bb_hrc *bth_hrc_random(int nr, int nh, int nc, int max_cap, uint64_t *rng);

/* Ties on the hospitals' side: each entry of a hospital's list after the first is tied with
 * the one before it with probability 1/2. false when out of memory. */
bool bth_hrc_add_random_ties(bb_hrc *inst, uint64_t *rng);

/* Where h ranks r (0 = best; tied residents share a rank), or -1 if h does not list r. Every
 * comparison of these ranks below is strict, so with ties a blocking pair needs a hospital
 * that strictly prefers: weak stability. */
int bth_hrc_hrank(const bb_hrc *in, int h, int r);
/* Where single r lists h, or -1. */
int bth_hrc_spos(const bb_hrc *in, int r, int h);
/* Where couple c lists (h1, h2), or -1. */
int bth_hrc_cpos(const bb_hrc *in, int c, int h1, int h2);

/* Acceptable entries on both sides, couples together on one of their entries or both
 * unassigned, no hospital over capacity. */
bool bth_hrc_is_matching(const bb_hrc *in, const int32_t *M);
/* The blocking pairs of matching M that involve agent a: single resident a (a < n_residents;
 * 0 for a member of a couple) or couple a - n_residents. Each blocking pair involves exactly
 * one agent, so these shares sum to bth_hrc_blocking. M must be a matching. */
int bth_hrc_blocking_of(const bb_hrc *in, const int32_t *M, int agent);
/* The number of blocking pairs of matching M (Definition 1's types 1, 2a-b, 3a-d). */
int bth_hrc_blocking(const bb_hrc *in, const int32_t *M);

/* Brute force: calls visit(M, blocking, ctx) for every matching (n_residents <= 64). Each
 * single takes nothing or one of his entries, each couple nothing or one of its entries;
 * assignments that are not matchings are skipped. */
typedef void (*bth_hrc_visit)(const int32_t *M, int blocking, void *ctx);
void bth_hrc_enumerate(const bb_hrc *in, bth_hrc_visit visit, void *ctx);

/* What brute force decides: the number of matchings, of stable ones, the fewest blocking
 * pairs (-1: no matching, which cannot happen: everybody unassigned is one). */
typedef struct bth_hrc_summary {
  long matchings, stable;
  int min_blocking;
} bth_hrc_summary;
bth_hrc_summary bth_hrc_summarise(const bb_hrc *in);

#endif
