/* Stable Marriage on incomplete lists (SMI), from the definition (bth_solutions.h says what
 * the harness is): small random instances (unequal sides, one-sided entries, empty lists),
 * every stable matching by brute force, and matchings as the constraint's variables hold
 * them. A pair is acceptable iff each lists the other; a matching of acceptable pairs is
 * stable iff no acceptable pair (m, w) has m unmatched or preferring w to his wife and w
 * unmatched or preferring m to her husband. */
#ifndef BTH_SMI_H
#define BTH_SMI_H

#include "bth_solutions.h"
#include "hr.h"

#include <stdbool.h>
#include <stdint.h>

enum { BTH_SMI_MAX = 8, BTH_SMI_VARS = 2 * BTH_SMI_MAX, BTH_NONE = -1 };

/* An instance, 0-based: man i lists pm[i][0 .. lm[i]), woman j lists pw[j][0 .. lw[j]). */
typedef struct bth_smi {
  int nm, nw;
  int pm[BTH_SMI_MAX][BTH_SMI_MAX], lm[BTH_SMI_MAX];
  int pw[BTH_SMI_MAX][BTH_SMI_MAX], lw[BTH_SMI_MAX];
} bth_smi;

/* The family bth_smi_random draws from. With probability 1/cyclic_one_in the lists are
 * cyclic (n people a side, 2 <= n <= max_side, man p's k-th choice (p + k) % n, woman p's
 * (p + 1 + k) % n: many stable matchings), each cut short by 1 (+ 0..cut_extra) with
 * probability 1/cut_one_in; otherwise 1..max_side people a side (one side empty with
 * probability 1/empty_side_one_in, never if 0) listing a random order of the other side,
 * mostly all or all but one, a third of the time 0..all. */
typedef struct bth_smi_shape {
  int max_side; /* <= BTH_SMI_MAX */
  int cyclic_one_in, cut_one_in, cut_extra, empty_side_one_in;
} bth_smi_shape;
/* The family of most SMI tests: up to 5 a side, cyclic 1 in 4, cut 1 in 5 by 1 or 2, a side
 * empty 1 in 25. */
extern const bth_smi_shape bth_smi_small;

void bth_smi_random(bth_smi *I, uint64_t *rng, const bth_smi_shape *shape);

static inline int bth_smi_vars(const bth_smi *I) { return I->nm + I->nw; }
/* The list length of variable v (men first, then women). */
static inline int bth_smi_len(const bth_smi *I, int v) { return v < I->nm ? I->lm[v] : I->lw[v - I->nm]; }
/* Position of id in list[0 .. len), or -1. */
int bth_smi_pos(const int *list, int len, int id);
bool bth_smi_acceptable(const bth_smi *I, int m, int w);
/* wife[m]: man m's woman or BTH_NONE. */
bool bth_smi_stable(const bth_smi *I, const int *wife);

/* A matching as the constraint's variables hold it (bth_smi_vars values): man i's value is
 * his wife's position in his list (lm[i] when unmatched), woman j's likewise. */
void bth_smi_values_of(const bth_smi *I, const int *wife, int *value);
/* Every stable matching as such values (width bth_smi_vars), each man taking a woman or
 * nobody in every combination. */
void bth_smi_brute(const bth_smi *I, bth_solutions *out);
/* Keeps the solutions whose every value is allowed (allowed[v * stride + value]). */
void bth_smi_filter(const bth_smi *I, bth_solutions *s, const uint8_t *allowed, int stride);

/* The instance as the engine's bb_hr (every capacity 1), for bamboo-smp's algorithms. */
bb_hr *bth_smi_to_hr(const bth_smi *I, bb_error *err);

#endif
