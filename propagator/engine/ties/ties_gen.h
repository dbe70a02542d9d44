/* Seeded generators of SMTI and HRT instances (docs/generators.md, "Ties"). The same seed
 * gives the same instance. */
#ifndef BB_TIES_GEN_H
#define BB_TIES_GEN_H

#include "ties.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_ties_gen_kind {
  BB_TIES_GEN_SMTI = 0,  /* Gent & Prosser: complete random lists, pairs deleted (p1), ties (p2) */
  BB_TIES_GEN_HRT = 1,   /* SFAS-shaped: residents strict, hospitals by a master list of scores */
  BB_TIES_GEN_SCHOOL = 2 /* school choice: students strict, programmes by priority classes */
} bb_ties_gen_kind;

typedef struct bb_ties_gen_params {
  bb_ties_gen_kind kind;
  int n_residents, n_hospitals; /* smti: n_residents men and n_hospitals women */
  double p1;                    /* smti: the probability that a pair is unacceptable to both */
  double p2;                    /* smti: the probability that an entry ties with the one before it */
  int list_length;              /* hrt, school: the longest resident's list (school: 1..list_length) */
  int capacity;                 /* hrt, school: posts per hospital */
  int classes;                  /* hrt: score levels of the master list; school: priority classes */
  double skew;                  /* hrt, school: popularity of hospital h ~ 1 / (h + 1)^skew */
  uint64_t seed;
} bb_ties_gen_params;

/* The kind's defaults: smti n = 100, p1 = 0.5, p2 = 0.5; hrt 700 residents, 50 hospitals of
 * capacity 14, lists of 6, 40 score levels, skew 0.5; school 90000 students, 700 programmes
 * of capacity 100, lists of 1..12, 4 priority classes, skew 0.8. Seed 1. */
void bb_ties_gen_defaults(bb_ties_gen_kind kind, bb_ties_gen_params *p);
/* "smti", "hrt", "school" -> kind; false for any other word. */
bool bb_ties_gen_kind_parse(const char *word, bb_ties_gen_kind *kind);

bb_status bb_ties_generate(const bb_ties_gen_params *p, bb_ties **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
