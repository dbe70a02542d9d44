/* Generators of SMI and HR instances (docs/generators.md, "Incomplete lists"), reproducible
 * from a seed whatever the thread count. */
#ifndef BB_HR_GEN_H
#define BB_HR_GEN_H

#include "hr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_hr_gen_params {
  bool smi;        /* SMI (capacities 1) or HR */
  int n_residents; /* men / residents */
  int n_hospitals; /* women / hospitals */
  int list_length; /* k: each man/resident ranks k distinct women/hospitals (at most n_hospitals) */
  double skew;     /* 0: uniform choice; s > 0: hospital h is chosen with weight 1 / (h + 1)^s */
  int capacity;    /* HR: every hospital's capacity; 0: random in 1..2c-1 around c = NR / NH */
  uint64_t seed;
  int threads; /* 0 = all CPUs */
} bb_hr_gen_params;

/* Defaults: SMI, k = 10, uniform, seed 1. */
void bb_hr_gen_defaults(bb_hr_gen_params *p);
/* The NRMP-shaped preset: HR, 31,000 residents, 2,300 hospitals, lists of 15, popularity
 * skew 0.5, capacities random around 31000 / 2300 = 13.5. */
void bb_hr_gen_nrmp(bb_hr_gen_params *p);

/* Each man/resident picks list_length distinct women/hospitals (in the order drawn: his
 * ranking); each woman/hospital ranks exactly the people who listed her, in uniformly random
 * order. So every entry is acceptable. BB_ERR_ARG for parameters out of range. */
bb_status bb_hr_generate(const bb_hr_gen_params *p, bb_hr **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
