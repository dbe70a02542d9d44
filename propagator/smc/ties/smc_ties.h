/* Stable Marriage with Ties and Incomplete lists (SMTI) under weak, strong or super-stability,
 * propagated natively.
 *
 *   stable_matching_smti(men, women, lists with ranks, size)
 *
 * Variables (0-based positions; the solver's views add the model's base):
 *   men[i]    the position, in i's list, of i's partner; len(i) when i is unmatched;
 *   women[j]  likewise in j's list;
 *   size      the number of matched men (0 .. n_men; no view offset).
 * Variable i < n_men is men[i], n_men + j is women[j], n_men + n_women is size.
 *
 * A list is a sequence of distinct ids of the other side with a rank per entry; ranks never
 * decrease along a list and equal ranks are tied (docs/ties_constraint.md). A pair is acceptable
 * when each lists the other; a matching uses acceptable pairs only. p strictly prefers q to its
 * assignment when q lies past the tie of its partner (being unmatched lies past every entry).
 * (p, q), not matched together, blocks when each strictly prefers the other; a matching is weakly
 * stable when no pair blocks it [Irving 1994]. Under strong stability (p, q) blocks when one
 * strictly prefers the other and the other weakly prefers (q's rank at most that of its
 * partner's), under super-stability when both weakly prefer; the stability rule below changes
 * with the kind, every other rule is the same.
 *
 * The rules (smc_ties_propagate.c and smc_ties_size.c prove each from this definition) reason only
 * from the current domains and the lists, so they stay sound whatever side constraints remove:
 *   - acceptable values and the channel: men[i] = k <-> women[j] = l for each acceptable pair;
 *   - weak Gale-Shapley: when nothing in p's domain is at least as good as q except q itself, q
 *     must get a partner it likes at least as much as p (this is the men- and women-oriented
 *     GS-lists when there are no ties, and subsumes Gent & Prosser's clauses
 *     men[i] > e_i -> women[j] <= e_j both ways); its strong and super forms likewise subsume
 *     the decomposition's strong and super clauses;
 *   - size: at least the men (women) forced matched, at most a maximum matching over the pairs
 *     the domains still allow; a matching must cover everyone forced matched; when size must
 *     reach the maximum, everyone that every maximum matching covers is matched, and when size
 *     may not exceed the number forced, everyone else is unmatched.
 * The rules are complete on fixed domains: a fixed assignment that is not a weakly (strongly,
 * super-) stable matching of the right size fails. Finding every pair of some weakly stable matching is
 * NP-hard (Manlove et al. 2002), so the domains are not arc consistent in general.
 *
 * Per propagation: the lists of the persons whose domain changed, then one maximum matching
 * (repaired from the last one by augmenting paths) and two alternating searches, O(total list
 * length) each plus the augmentations. */
#ifndef BB_SMC_TIES_H
#define BB_SMC_TIES_H

#include "bb_common.h"
#include "smc_domains.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which matchings are stable (docs/ties_constraint.md, "Definitions"): an acceptable pair not
 * matched together blocks when both strictly prefer each other (weak), one strictly and the other
 * weakly (strong), or both weakly (super). The numbers are those of the MiniZinc decomposition's
 * `kind`. */
typedef enum bb_smc_stability { BB_SMC_WEAK = 0, BB_SMC_STRONG = 1, BB_SMC_SUPER = 2 } bb_smc_stability;

/* The preference data: read-only, reference counted, shared by every search node. */
typedef struct bb_smc_ties bb_smc_ties;

/* From row-major padded matrices of ids counting from base (stable_matching_smti's arguments):
 * man i's list is pm[i * pm_cols .. + pm_len[i]), the rank of its k-th entry pm_rank[i *
 * pm_rank_cols + k]; women likewise. Checks lengths, ids, repeats and that ranks never decrease
 * (BB_ERR_INPUT naming the list), or BB_ERR_NOMEM. base only shifts ids and decorates messages.
 * stability picks the stability rule (smc_ties_propagate.c); BB_ERR_ARG when it is none of the
 * three. */
bb_smc_ties *bb_smc_ties_new(int n_men, int n_women, int base, const int *pm, const int *pm_len, int pm_cols,
                             const int *pm_rank, int pm_rank_cols, const int *pw, const int *pw_len, int pw_cols,
                             const int *pw_rank, int pw_rank_cols, bb_smc_stability stability, bb_error *err);
bb_smc_ties *bb_smc_ties_retain(bb_smc_ties *t);
void bb_smc_ties_release(bb_smc_ties *t); /* accepts NULL */

int bb_smc_ties_men(const bb_smc_ties *t);
int bb_smc_ties_women(const bb_smc_ties *t);
int bb_smc_ties_vars(const bb_smc_ties *t); /* n_men + n_women + 1 */
/* The largest value of variable var: len(p) (unmatched) for a person, n_men for size. */
int bb_smc_ties_top(const bb_smc_ties *t, int var);

/* The solver's domains: the one host contract (smc_domains.h), on the variable numbers above.
 * The core uses min, max, contains, remove, lower_max, raise_min and assign, and next when the
 * host gives it. */

/* One search node's memory (copied with the node): whether the first propagation ran. */
typedef struct bb_smc_ties_node bb_smc_ties_node;
size_t bb_smc_ties_node_bytes(const bb_smc_ties *t);
void bb_smc_ties_node_init(bb_smc_ties_node *node, const bb_smc_ties *t);

/* One propagator copy's work space (the queue, the matching kept from the last propagation as a
 * start for the next), not copied. */
typedef struct bb_smc_ties_scratch bb_smc_ties_scratch;
bb_smc_ties_scratch *bb_smc_ties_scratch_new(const bb_smc_ties *t, bb_error *err);
void bb_smc_ties_scratch_free(bb_smc_ties_scratch *s); /* accepts NULL */

/* What changed since the last propagation, from the solver's advisors. */
void bb_smc_ties_note(bb_smc_ties_scratch *s, const bb_smc_ties *t, int var);

/* Runs the rules to their fixpoint over the noted changes (everything at the first call). The
 * rules follow their own domain changes; the solver need not report them back. Answers
 * (smc_status.h) BB_SMC_FIX (at the fixpoint) or BB_SMC_FAILED (no stable matching of the kind and of
 * an allowed size within the domains). */
bb_smc_status bb_smc_ties_propagate(const bb_smc_ties *t, bb_smc_ties_node *node, bb_smc_ties_scratch *s,
                                    const bb_smc_domains *dom);

#ifdef __cplusplus
}
#endif
#endif
