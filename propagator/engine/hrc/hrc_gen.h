/* Generators of HRC instances (docs/generators.md, "Couples"), reproducible from a seed.
 *
 * Every resident draws an individual list of hospitals; a single ranks his; a couple's joint
 * list is the pairs of its members' individual lists in "shells" (docs/generators.md): after
 * (1st, 1st) come the pairs that use a 2nd choice, then those that use a 3rd, ..., the order
 * the Constraints 2017 instances show (the .dzn files of minizinc-benchmarks hrc/). Hospitals rank exactly
 * the residents who can propose to them, in random order. The first 2 n_couples residents are
 * the couples' members, (0, 1), (2, 3), ... */
#ifndef BB_HRC_GEN_H
#define BB_HRC_GEN_H

#include "hrc.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_hrc_gen_params {
  int n_residents, n_hospitals, n_couples;
  int min_list, max_list;     /* an individual list's length, uniform in [min, max] (at most NH) */
  int couple_min, couple_max; /* a joint list keeps the first J pairs, J uniform in [min, max];
                                   0, 0: all of them (the product of the members' lists) */
  double skew;                /* 0: uniform; s > 0: hospital h drawn with weight 1 / (h + 1)^s */
  int64_t posts;              /* total capacity, each post at a uniformly random hospital */
  int min_capacity;           /* every hospital gets at least this many posts first */
  int score_classes;          /* 0: hospitals rank in random order; L > 0: by a master list of
                                 scores in L classes, ties within a class (SFAS) */
  uint64_t seed;
} bb_hrc_gen_params;

/* The random instances of Manlove, McBride & Trimble (Constraints 2017, Section 6): n_residents,
 * n_couples couples, n_hospitals hospitals, posts = n_residents, lists of 3..5 hospitals,
 * couples' lists the full product, uniform popularity. Experiment 1 scales residents with
 * couples and hospitals at a tenth of them; experiment 2 keeps 100 residents, 10 hospitals
 * and varies the couples (docs/generators.md says what is known of their parameters). */
void bb_hrc_gen_mmt2017(bb_hrc_gen_params *p, int n_residents, int n_couples, int n_hospitals);
/* The NRMP-shaped preset: 47,000 residents of whom n_couples couples (1,000 by default: pass
 * 0), 6,600 programmes, lists of 10-15, joint lists of 10-15 pairs, popularity skew 0.5,
 * 43,000 posts, each programme at least 1. */
void bb_hrc_gen_nrmp(bb_hrc_gen_params *p, int n_couples);

/* Shaped like SFAS, the Scottish Foundation Allocation Scheme (Biro, Manlove & McBride 2014
 * used its data): 700 residents of whom n_couples couples, 50 hospitals of 14 posts each,
 * lists of exactly 6 hospitals drawn with popularity skew 0.5, couples' joint lists the
 * product of their members' lists, hospitals ranking by one master list of scores in 40
 * classes (ties within a class), as the HRT generator's hrt (ties_gen.h). */
void bb_hrc_gen_sfas(bb_hrc_gen_params *p, int n_couples);

/* BB_ERR_ARG for parameters out of range. */
bb_status bb_hrc_generate(const bb_hrc_gen_params *p, bb_hrc **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
