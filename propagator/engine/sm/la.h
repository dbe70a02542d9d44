/* The locality-aware sequential proposal loop ([Bamboo-SMP] Algorithm 1, LAProp), shared by
 * the la-seq algorithm and by bamboo's CPU tail, which resumes it from the GPU's state.
 *
 * State: partner_rank[w] is the rank (in w's list) of w's current partner, n if she is
 * free; next[m] is the position in m's list of the next woman m will propose to;
 * husband[w] is w's current partner while partner_rank[w] < n (women_prefs[w * n +
 * partner_rank[w]]). The loop keeps husband[] itself, so neither the tail nor the
 * extraction reads a woman's list: a caller that resumes from partner ranks alone (bamboo
 * after its GPU phase) fills husband[] once from a row source (row_source.h,
 * bb_row_source_husbands), and the women's lists need not be on the host (a large n's lists
 * may not fit there). */
#ifndef BB_LA_H
#define BB_LA_H

#include "prmatrix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Supplies man m's PRMatrix row from position `from` on (entries from..n-1), e.g. a
 * host PRMatrix or rows fetched from the GPU. Returns a pointer to entry `from`, or NULL
 * on failure (then the message is in err). */
typedef const bb_prnode *(*bb_prrow_fn)(void *ctx, bb_id m, uint32_t from, bb_error *err);

typedef struct bb_la_state {
  int n;
  uint32_t *partner_rank; /* n */
  uint32_t *next;         /* n */
  uint64_t proposals;
  bb_id *husband; /* n; husband[w] valid while partner_rank[w] < n */
} bb_la_state;

/* A fresh state for n: every woman free (partner_rank n), every man at his first entry, no
 * proposals. BB_ERR_NOMEM (nothing held) when the three arrays cannot be had. */
bb_status bb_la_state_init(bb_la_state *st, int n, bb_error *err);
void bb_la_state_free(bb_la_state *st); /* the arrays; accepts a zeroed state */

/* Lets free man m propose from next[m] on until the chain of displacements he starts
 * ends with a free woman accepting (McVitie-Wilson order). */
bb_status bb_la_propose(bb_la_state *st, bb_prrow_fn row, void *ctx, bb_id m, bb_error *err);

/* wife_of[m] from husband[]; every woman must have a partner. */
void bb_la_extract(const bb_la_state *st, bb_id *wife_of);

#ifdef __cplusplus
}
#endif
#endif
