/* The harness's models in Gecode, through the shim's C API (library
 * bamboo_test_harness_gecode; bth_solutions.h says what the harness is):
 *   - enumerate every solution of a space (DFS, or Gecode's parallel engine), handing each
 *     to the test, which reads and CHECKs it (bth_read_values helps);
 *   - snapshot the domains of variables, to compare paths (CPU, emulated, GPU) or a
 *     reference value by value;
 *   - post the Stable Marriage constraint for an SM or SMI instance of the reference;
 *   - side constraints written once: each both posted as Gecode constraints and evaluated
 *     on a reference solution, so that a random model and its brute-force answer agree by
 *     construction. */
#ifndef BTH_GECODE_H
#define BTH_GECODE_H

#include "bb_post.h"
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_stable_matching.h"
#include "bth_smi.h"
#include "bth_solutions.h"

#include <stdbool.h>
#include <stdint.h>

/* --- Enumeration. --- */

typedef void (*bth_on_solution)(const bb_space *solution, void *ctx);
/* Searches `space` (which stays the caller's) to the end with `threads` threads, calling
 * on_solution for each solution. False if the search could not be made (err says why; no
 * solution then). *count gets the solutions, *fails the failed nodes (either may be NULL). */
bool bth_search_all(bb_space *space, int threads, bth_on_solution on_solution, void *ctx, long *count, uint64_t *fails,
                    bb_error *err);
/* value[k] = the minimum of vars[k] in `solution`, minus base; returns how many of the
 * variables are not assigned. */
int bth_read_values(const bb_space *solution, const int *vars, int count, int base, int *value);

/* --- Domains. --- */

/* Which of lo..hi each of count variables holds. */
typedef struct bth_domains {
  int count, lo, hi;
  uint8_t *in; /* count rows of hi - lo + 1 */
} bth_domains;
/* false if memory ran out. */
bool bth_domains_read(bth_domains *d, const bb_space *space, const int *vars, int count, int lo, int hi);
/* Whether variable k holds value (false outside lo..hi). */
bool bth_domains_has(const bth_domains *d, int k, int value);
bool bth_same_domains(const bth_domains *a, const bth_domains *b);
void bth_domains_free(bth_domains *d);

/* --- The constraint on the reference's instances. --- */

enum { BTH_MODEL_MAX = 256 };
/* A space and the variables of one matching: men's, then women's. */
typedef struct bth_model {
  bb_space *space;
  int men, women;
  int var[2 * BTH_MODEL_MAX];
} bth_model;
static inline int *bth_men(bth_model *m) { return m->var; }
static inline int *bth_women(bth_model *m) { return m->var + m->men; }

/* A fresh space with men and women variables over lo..hi (nothing posted). */
bth_model bth_model_new(int men, int women, int lo, int hi, bb_error *err);
/* bb_post_stable_matching on m's variables with complete lists pm, pw (0-based, n = m->men)
 * shifted to base. */
bb_status bth_sm_post(bth_model *m, int base, const int *pm, const int *pw, const bb_stable_matching_options *opts,
                      bb_error *err);
/* bb_post_stable_matching_smi for I on men[0..nm) and women[0..nw) (aliases allowed), the
 * lists in base in rows of nw + extra_cols (men) and nm + extra_cols (women) columns,
 * padded past each length with junk (men's rows) and -junk (women's), which the
 * constraint must ignore. */
bb_status bth_smi_post(bb_space *space, const int *men, const int *women, const bth_smi *I, int base, int extra_cols,
                       int junk, const bb_stable_matching_options *opts, bb_error *err);

/* --- Side constraints, on the ranks (0-based values) of a model's variables. --- */

typedef enum bth_side_kind {
  BTH_SIDE_NE,     /* value[var] != value */
  BTH_SIDE_EQ,     /* value[var] == value */
  BTH_SIDE_IN,     /* bit value[var] of mask is set */
  BTH_SIDE_LE,     /* value[var] <= value[other] */
  BTH_SIDE_SUM_LE, /* value[var] + ... + value[var + count - 1] <= value */
} bth_side_kind;
typedef struct bth_side {
  bth_side_kind kind;
  int var, other, count, value;
  uint32_t mask;
} bth_side;

/* Whether a solution (value[v]: the 0-based rank of variable v) satisfies c. */
bool bth_side_allows(const bth_side *c, const int *value);
/* Posts c on the space's variables vars[v] (values shifted by base). */
bb_status bth_side_post(const bth_side *c, bb_space *space, const int *vars, int base, bb_error *err);

#endif
