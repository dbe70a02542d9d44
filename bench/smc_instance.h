/* The benchmarks' Stable Marriage model: a random complete instance (bamboo's uniform
 * generator) as the int matrices stable_matching takes, and a space with n men's and n
 * women's rank variables. Header-only, for smc-bench and smc-gpu-bench. */
#ifndef BB_SMC_INSTANCE_H
#define BB_SMC_INSTANCE_H

#include "bb_shim.h"
#include "generate.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct smc_model {
  int n;
  int *pm, *pw;     /* n x n, 0-based */
  int *men, *women; /* variable indexes in space */
  bb_space *space;
} smc_model;

/* false (with a message on stderr, prefixed by `who`) when generation fails. */
static inline bool smc_model_new(smc_model *m, int n, uint64_t seed, const char *who) {
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  if (bb_generate(BB_GEN_UNIFORM, n, n, seed, 0, &inst, &err) != BB_OK) {
    fprintf(stderr, "%s: %s\n", who, err.msg);
    return false;
  }
  size_t cells = (size_t)n * n;
  m->n = n;
  m->pm = malloc(cells * sizeof *m->pm);
  m->pw = malloc(cells * sizeof *m->pw);
  m->men = malloc((size_t)n * sizeof *m->men);
  m->women = malloc((size_t)n * sizeof *m->women);
  for (size_t c = 0; c < cells; c++) m->pm[c] = (int)inst->men_prefs[c], m->pw[c] = (int)inst->women_prefs[c];
  bb_instance_free(inst);
  m->space = bb_space_new(&err);
  for (int i = 0; i < n; i++) m->men[i] = bb_int_var(m->space, 0, n - 1, &err);
  for (int j = 0; j < n; j++) m->women[j] = bb_int_var(m->space, 0, n - 1, &err);
  return true;
}

/* The matrices are only needed to post: free them early at large n. */
static inline void smc_model_drop_matrices(smc_model *m) {
  free(m->pm);
  free(m->pw);
  m->pm = m->pw = NULL;
}

static inline void smc_model_free(smc_model *m) {
  smc_model_drop_matrices(m);
  bb_space_free(m->space);
  free(m->men);
  free(m->women);
}

#endif
