/* SMTI/HRT on the engine's bb_ties (ties.h), from the definitions (bth_solutions.h says what
 * the harness is): random tiny instances with ties, whether an assignment is a matching, its
 * blocking pairs in the weak, strong and super sense counted straight from the wording of
 * docs/ties.md (Irving 1994; Irving, Manlove & Scott 2000), and every matching by brute force.
 * Written apart from the engine's checker, as plainly as possible: ranks by linear scan, a
 * hospital's worst assignee by looping over every resident. */
#ifndef BTH_TIES_H
#define BTH_TIES_H

#include "ties.h"

#include <stdbool.h>
#include <stdint.h>

enum { BTH_TIES_MAX_RESIDENTS = 16 };

/* nr residents, nh hospitals (both <= 16), each list a random subset of the other side in
 * random order cut into ties (a new tie begins with probability 1 - tie_percent / 100);
 * capacities 0..max_cap (1 with smti). */
bb_ties *bth_ties_random(int nr, int nh, int max_cap, bool smti, int tie_percent, uint64_t *rng);

/* r's rank of h, h's rank of r: the rank of the entry, or -1 if not listed. */
int bth_ties_rrank(const bb_ties *in, int r, int h);
int bth_ties_hrank(const bb_ties *in, int h, int r);

/* Acceptable pairs only, no hospital over capacity. */
bool bth_ties_is_matching(const bb_ties *in, const int32_t *M);
/* The blocking pairs of matching M in the sense `kind`. */
int bth_ties_blocking(const bb_ties *in, const int32_t *M, bb_ties_stability kind);
/* Residents assigned in M. */
int bth_ties_size(const bb_ties *in, const int32_t *M);

/* Calls visit(M, ctx) for every matching (n_residents <= 16). */
typedef void (*bth_ties_visit)(const int32_t *M, void *ctx);
void bth_ties_enumerate(const bb_ties *in, bth_ties_visit visit, void *ctx);

/* What brute force decides: how many matchings are weakly, strongly and super-stable, the
 * largest weakly stable matching's size (-1 if none, which cannot happen). */
typedef struct bth_ties_summary {
  long matchings, weak, strong, super;
  int max_weak_size;
} bth_ties_summary;
bth_ties_summary bth_ties_summarise(const bb_ties *in);

/* Whether some weakly stable matching gives every resident a hospital he ranks at least as
 * well as in M (unassigned worst) and at least one strictly better. */
bool bth_ties_weak_pareto_dominated(const bb_ties *in, const int32_t *M);

#endif
