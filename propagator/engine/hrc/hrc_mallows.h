/* HRC instances with correlated preferences (docs/generators.md, "Mallows"), reproducible from a
 * seed: residents' lists are Mallows draws around one common ranking of the hospitals, hospitals'
 * lists Mallows draws around one common ranking of the residents (mallows.h), so that a small
 * dispersion phi makes everyone agree on who is good. A ranking strays about phi / (1 - phi)
 * places from its centre whatever the number of items, so over many hospitals only phi near 1
 * spreads the residents over them (docs/generators.md, "Mallows").
 *
 *   centres           The hospitals' common ranking and the residents' are uniformly random
 *                     permutations (so couples' members sit anywhere in the residents' one).
 *   individual lists  Resident r keeps the first L places of a Mallows(phi_residents) ranking of
 *                     all hospitals, L uniform in [min_list, max_list] (couples' members: in
 *                     [member_min_list, member_max_list]).
 *   joint lists       The pairs (a_i, b_j) of the members' lists in the order of the sum of
 *                     ranks i + j; among equal sums the more even pair first (smaller |i - j|),
 *                     then the first member's better choice (smaller i). The first J pairs are
 *                     kept, J uniform in [joint_min, joint_max] (both 0: all L1 L2 of them).
 *   hospitals' lists  Exactly the residents who can propose to h (as bb_hrc_generate), ranked by
 *                     a Mallows(phi_hospitals) ranking around the residents' common ranking
 *                     restricted to them.
 *   capacities        min_capacity each; the other posts one at a time to a random hospital:
 *                     uniformly, or with uneven_capacity, hospital h with a weight drawn once
 *                     from Exp(1) (the capacities then spread like a geometric distribution).
 * The first 2 n_couples residents are the couples' members, (0, 1), (2, 3), ... */
#ifndef BB_HRC_MALLOWS_H
#define BB_HRC_MALLOWS_H

#include <stdbool.h>

#include "hrc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_hrc_mallows_params {
  int n_residents, n_hospitals, n_couples;
  int min_list, max_list;               /* a single's list length (1 <= min <= max <= min(NH, 1000)) */
  int member_min_list, member_max_list; /* a couple member's (both 0: the singles') */
  int joint_min, joint_max;             /* pairs a joint list keeps (both 0: all) */
  double phi_residents, phi_hospitals;  /* dispersions in (0, 1]: 1 uniform, near 0 all alike */
  int64_t posts;                        /* total capacity */
  int min_capacity;                     /* posts every hospital gets first */
  bool uneven_capacity;                 /* the other posts by Exp(1) weights, not uniformly */
  uint64_t seed;
} bb_hrc_mallows_params;

/* hrc-mallows' defaults for the given sizes: lists of 3..5, joint lists all pairs, posts = NR,
 * phi 0.5 on both sides, seed 1. */
void bb_hrc_mallows_default(bb_hrc_mallows_params *p, int n_residents, int n_couples, int n_hospitals);

/* The NRMP 2024 shape (docs/generators.md, "nrmp-2024", says which numbers are published and
 * which are guesses): 44,900 residents of whom 1,100 couples, 6,400 programmes, 41,500 posts
 * (at least 1 each, the rest by Exp(1) weights), singles' lists of 5..20, members' of 10..25,
 * joint lists of 20..300 pairs, phi 0.9995 for residents and 0.7 for programmes, seed 1. */
void bb_hrc_mallows_nrmp2024(bb_hrc_mallows_params *p);

/* The joint list's order: the first `keep` pairs (i, j), i < l1, j < l2, by rank sum as above,
 * written as pairs[2k] = i, pairs[2k + 1] = j; returns how many (min(keep, l1 l2)). */
int bb_hrc_joint_by_rank_sum(int l1, int l2, int keep, uint32_t *pairs);

/* BB_ERR_ARG naming the parameter out of range. */
bb_status bb_hrc_generate_mallows(const bb_hrc_mallows_params *p, bb_hrc **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
