/* The native SMTI constraint's per-person rules (smc_ties.h), run to their fixpoint with one queue
 * of persons whose domain changed, then the size rules (smc_ties_size.c), until neither changes
 * anything.
 *
 * Notation. Person p's domain D_p holds positions 0 .. len(p), len(p) meaning unmatched. Entry k
 * of p names q; when q lists p back, l is p's position in q's list (the pair is acceptable), and
 * e_p(k), e_q(l) are the last positions of the ties of k and l. p strictly prefers q to its
 * assignment v exactly when e_p(k) < v (v = len(p) included). Weak stability: no acceptable
 * pair (p, q) not matched together has e_p(k) < m_p and e_q(l) < m_q.
 *
 * Each rule below reads one person's domain only, so after a fixpoint only the persons whose
 * domain changed need them again (the advisors note those).
 *
 * Rule A (acceptable values). k is removed from D_p when q does not list p: a matching uses
 * acceptable pairs only. (Once, at the first propagation: nothing brings a value back.)
 *
 * Rule C (channel). k not in D_p => l leaves D_q; D_p = {k} with k < len(p) => D_q = {l}.
 * Proof: p and q are matched together in both variables or in neither.
 *
 * Rule W (weak Gale-Shapley). If D_p has no value in 0 .. e_p(k) but k, then D_q <= e_q(l): q
 * gets a partner at least as good as p (tied with p or better), or p itself. Proof: take a
 * weakly stable matching within the domains. If p is matched to q, q's value is l <= e_q(l).
 * Otherwise p's value v is in D_p, not k, so v > e_p(k): p strictly prefers q. The pair is
 * acceptable and not matched together, so q must not strictly prefer p: q's value is <= e_q(l).
 * The condition holds for exactly the entries k of ties wholly before min D_p (all entries when
 * p must be unmatched), and for k = min D_p when no other value of D_p is tied with it.
 * Without ties (e = k) this is GS: the men-oriented rule "q gets p or better once p's best
 * possible is q" and, from the other side, the women-oriented one. Gent & Prosser's clause
 * m_i > e_i(k) -> w_j <= e_j(l) is Rule W with D_i past e_i(k); its contrapositive w_j > e_j(l)
 * -> m_i <= e_i(k) is Rule W from j's side. Rule W is stronger where the one value left in
 * 0 .. e_p(k) is k itself: the clause then waits, while Rule W knows q must still do as well.
 *
 * On fixed domains Rules C and W fail exactly the assignments that are not weakly stable
 * matchings: C makes the values agree on who is matched with whom, and W with fixed D_p past
 * e_p(k) forces q's value to at most e_q(l), failing if q's fixed value is past it.
 *
 * Strong and super-stability replace Rule W (the constraint's stability says which runs). With
 * f_p(k) the first position of k's tie, p weakly prefers q to its value v, not matched to q,
 * exactly when v >= f_p(k) and v != k. Strong stability: no acceptable pair (p, q) not matched
 * together with (e_p(k) < m_p and f_q(l) <= m_q) or (f_p(k) <= m_p and e_q(l) < m_q).
 * Super-stability: none with f_p(k) <= m_p, m_p != k, f_q(l) <= m_q, m_q != l.
 *
 * Rule T (strong). (T1) If min D_p > e_p(k), then D_q < f_q(l). (T2) If min D_p >= f_p(k)
 * (k in the tie of min D_p), then D_q <= e_q(l). (T3) If D_p has no value in 0 .. e_p(k) but k,
 * then D_q within 0 .. f_q(l) - 1 and l. Proof, in a strongly stable matching within the
 * domains: (T1) p's value is past e_p(k), so p strictly prefers q and is not matched to it; q
 * must not weakly prefer p: m_q < f_q(l). (T2) p is at q (m_q = l <= e_q(l)) or p's value is
 * at least f_p(k) and not k, so p weakly prefers q, and q must not strictly prefer p: m_q <=
 * e_q(l). (T3) p is at q (m_q = l) or p's value is past e_p(k): T1. T1 fires for the entries
 * of the ties wholly before min D_p, T2 for those of min D_p's tie, T3 for min D_p alone in its
 * tie. The decomposition's clause m_i > e_i -> w_j < f_j is T1; its contrapositive w_j >= f_j
 * -> m_i <= e_i is T2 (or T1) from j's side; the second clause is the first with the sides
 * exchanged, and the rule runs for both sides. On fixed domains a pair blocking in the first
 * way has D_p = {m_p} past e_p(k), and T1 fails q's value at or past f_q(l); in the second way
 * D_p's value is in k's tie or past it and is not k, and T2 (or T1) fails q's value past e_q(l).
 *
 * Rule U (super). If min D_p >= f_p(k) (k in the tie of min D_p or before it), then D_q within
 * 0 .. f_q(l) - 1 and l, and within 0 .. f_q(l) - 1 when k is not in D_p. Proof: p is at q
 * (m_q = l, and k in D_p) or p's value is at least f_p(k) and not k, so p weakly prefers q, and
 * q must not weakly prefer p: m_q < f_q(l). The decomposition's clause (m_i >= f_i /\ m_i != k)
 * -> w_j < f_j is U when min D_i >= f_i and k is gone from D_i; its other unit consequences
 * (w_j >= f_j and m_i != k give m_i < f_i; w_j >= f_j and m_i >= f_i give m_i = k) are U from
 * j's side (D_i within 0 .. f_i - 1 and k). On fixed domains a blocking pair has D_p = {m_p},
 * m_p >= f_p(k), m_p != k, and U fails q's value at or past f_q(l). */
#include "smc_ties_internal.h"

#include <assert.h>
#include <limits.h>

typedef struct run {
  const bb_smc_ties *t;
  bb_smc_ties_scratch *s;
  const bb_smc_domains *d;
} run;

static int var_of(const bb_smc_ties *t, int side, int p) { return side == 0 ? p : t->n_men + p; }

static bool lower_max(run *x, int var, int v) {
  const bb_smc_domains *d = x->d;
  if (d->max(d->ctx, var) <= v) return true;
  bb_smc_ties_push(x->s, var);
  return d->lower_max(d->ctx, var, v) != BB_SMC_FAILED;
}

static bool remove_value(run *x, int var, int v) {
  const bb_smc_domains *d = x->d;
  if (!d->contains(d->ctx, var, v)) return true;
  bb_smc_ties_push(x->s, var);
  return d->remove(d->ctx, var, v) != BB_SMC_FAILED;
}

static bool assign(run *x, int var, int v) {
  const bb_smc_domains *d = x->d;
  if (d->min(d->ctx, var) == v && d->max(d->ctx, var) == v) return true;
  bb_smc_ties_push(x->s, var);
  return d->assign(d->ctx, var, v) != BB_SMC_FAILED;
}

/* The smallest value of var above v, INT_MAX when there is none. */
static int next_above(const bb_smc_domains *d, int var, int v) {
  if (d->next) return d->next(d->ctx, var, v);
  int hi = d->max(d->ctx, var);
  for (int u = v + 1; u <= hi; u++)
    if (d->contains(d->ctx, var, u)) return u;
  return INT_MAX;
}

/* Rule A for person var. */
static bool acceptable_only(run *x, int var) {
  const bb_smc_ties *t = x->t;
  int sd = bb_smc_ties_side_of(t, var), p = sd == 0 ? var : var - t->n_men;
  const bb_smc_ties_side *S = &t->side[sd];
  for (uint32_t e = S->start[p]; e < S->start[p + 1]; e++)
    if (S->twin[e] == BB_SMC_TIES_ONE_SIDED && !remove_value(x, var, (int)(e - S->start[p]))) return false;
  return true;
}

/* q's side of entry k of p's list (side sd): q's variable and p's position l in q's list. */
static int twin_of(const bb_smc_ties *t, int sd, uint32_t e, int *l) {
  const bb_smc_ties_side *S = &t->side[sd], *O = &t->side[1 - sd];
  int q = (int)S->other[e];
  *l = (int)(S->twin[e] - O->start[q]);
  return var_of(t, 1 - sd, q);
}

/* D_q within 0 .. f - 1 and l: q gets someone it strictly prefers to p, or p (at l). */
static bool better_or(run *x, int qvar, int f, int l) {
  if (!lower_max(x, qvar, l)) return false;
  for (int v = f; v < l; v++)
    if (!remove_value(x, qvar, v)) return false;
  return true;
}

/* Rule W, T or U (by the constraint's stability) for person p of side sd, lo = min D_p. */
static bool stability_rule(run *x, int var, int sd, int p, int lo, int len) {
  const bb_smc_ties *t = x->t;
  const bb_smc_domains *d = x->d;
  const bb_smc_ties_side *S = &t->side[sd], *O = &t->side[1 - sd];
  uint32_t e0 = S->start[p];
  /* before: the entries of the ties wholly before lo; through: also lo's tie; alone: lo is the
   * only value of D_p in its tie. */
  int before = lo == len ? len : S->first[e0 + (uint32_t)lo];
  int through = lo == len ? len : S->last[e0 + (uint32_t)lo] + 1;
  bool alone = lo < len && next_above(d, var, lo) > S->last[e0 + (uint32_t)lo];
  int upto = t->stability == BB_SMC_WEAK ? before : through;
  for (int k = 0; k < upto; k++) {
    uint32_t e = e0 + (uint32_t)k;
    if (S->twin[e] == BB_SMC_TIES_ONE_SIDED) continue;
    int l, q = twin_of(t, sd, e, &l);
    uint32_t f = S->twin[e];
    bool ok;
    if (t->stability == BB_SMC_WEAK)
      ok = lower_max(x, q, O->last[f]);
    else if (t->stability == BB_SMC_STRONG)
      ok = k < before ? lower_max(x, q, O->first[f] - 1) : lower_max(x, q, O->last[f]);
    else
      ok = d->contains(d->ctx, var, k) ? better_or(x, q, O->first[f], l) : lower_max(x, q, O->first[f] - 1);
    if (!ok) return false;
  }
  if (alone && t->stability != BB_SMC_SUPER) {
    int l, q = twin_of(t, sd, e0 + (uint32_t)lo, &l);
    uint32_t f = S->twin[e0 + (uint32_t)lo];
    if (t->stability == BB_SMC_WEAK ? !lower_max(x, q, O->last[f]) : !better_or(x, q, O->first[f], l)) return false;
  }
  return true;
}

/* Rules C, and W, T or U, for person var. */
static bool person(run *x, int var) {
  const bb_smc_ties *t = x->t;
  const bb_smc_domains *d = x->d;
  int sd = bb_smc_ties_side_of(t, var), p = sd == 0 ? var : var - t->n_men;
  const bb_smc_ties_side *S = &t->side[sd], *O = &t->side[1 - sd];
  uint32_t e0 = S->start[p];
  int len = (int)(S->start[p + 1] - e0);
  for (int k = 0; k < len; k++) {
    uint32_t f = S->twin[e0 + (uint32_t)k];
    if (f == BB_SMC_TIES_ONE_SIDED || d->contains(d->ctx, var, k)) continue;
    int q = (int)S->other[e0 + (uint32_t)k];
    if (!remove_value(x, var_of(t, 1 - sd, q), (int)(f - O->start[q]))) return false;
  }
  int lo = d->min(d->ctx, var), hi = d->max(d->ctx, var);
  assert(lo >= 0 && hi <= len);
  if (lo == hi && lo < len) {
    uint32_t f = S->twin[e0 + (uint32_t)lo];
    assert(f != BB_SMC_TIES_ONE_SIDED); /* Rule A removed it */
    int q = (int)S->other[e0 + (uint32_t)lo];
    if (!assign(x, var_of(t, 1 - sd, q), (int)(f - O->start[q]))) return false;
  }
  return stability_rule(x, var, sd, p, lo, len);
}

static bb_smc_status failed(bb_smc_ties_scratch *s) {
  for (int k = 0; k < s->count; k++) s->queued[s->queue[k]] = 0;
  s->count = 0;
  return BB_SMC_FAILED;
}

bb_smc_status bb_smc_ties_propagate(const bb_smc_ties *t, bb_smc_ties_node *node, bb_smc_ties_scratch *s,
                                    const bb_smc_domains *dom) {
  run x = {t, s, dom};
  int persons = t->n_men + t->n_women;
  if (!node->root_done) {
    for (int v = 0; v < persons; v++) {
      if (!acceptable_only(&x, v)) return failed(s);
      bb_smc_ties_push(s, v);
    }
  }
  for (;;) {
    while (s->count > 0) {
      int v = s->queue[--s->count];
      s->queued[v] = 0;
      if (!person(&x, v)) return failed(s);
    }
    bool changed = false;
    if (bb_smc_ties_size_rules(t, s, dom, &changed) == BB_SMC_FAILED) return failed(s);
    if (!changed) break;
  }
  node->root_done = 1;
  return BB_SMC_FIX;
}
