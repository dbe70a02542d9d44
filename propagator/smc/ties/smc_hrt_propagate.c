/* The native HRT constraint's per-hospital rules (smc_hrt.h), run to their fixpoint with one
 * queue of hospitals whose residents or load changed, then the size rules (smc_hrt_size.c), until
 * neither changes anything.
 *
 * Notation. Resident r's domain D_r holds positions 0 .. len(r), len(r) meaning unassigned.
 * Entry k of r names h, which lists r at position l; e_r(k) and e_h(l) are the last positions of
 * their ties. r strictly prefers h to his place v exactly when e_r(k) < v. h strictly prefers r
 * when it is under-subscribed or its worst assignee lies past e_h(l). So a blocking pair needs
 * e_r(k) < v and not "h full with every assignee at a position <= e_h(l)" (full_le(l)).
 *
 * h weakly prefers r (not at h) when it is under-subscribed or its worst assignee lies at or
 * past f_h(l), the first position of l's tie; r weakly prefers h when f_r(k) <= v != k. So
 * "h does not strictly prefer r" is full_le(l): h full with every assignee at a position
 * <= e_h(l), and "h does not weakly prefer r" full_lt(l): the same with f_h(l) - 1.
 *
 * The demands. From D_r alone (lo = min D_r), each resident r of h's list puts on h one
 * demand "full(T)": h full with every assignee at a position <= T, either strict (r is not at
 * h and full(T) holds) or a proposal (r is at h or full(T) holds). In a stable matching within
 * the domains:
 *   weak:   lo > e_r(k): strict, T = e_h(l) (r strictly prefers h, which must not strictly
 *           prefer him); lo = k alone in its tie in D_r: proposal, T = e_h(l) (r is at h, or
 *           past e_r(k): the strict case);
 *   strong: lo > e_r(k): strict, T = f_h(l) - 1 (r strictly prefers h, which must not weakly
 *           prefer him); lo in k's tie and k not in D_r: strict, T = e_h(l) (r weakly prefers
 *           h, not at h, and h must not strictly prefer him); lo = k alone in its tie:
 *           proposal, T = f_h(l) - 1 (at h, or strictly prefers); lo in k's tie otherwise:
 *           proposal, T = e_h(l) (at h, or weakly prefers);
 *   super:  lo >= f_r(k): T = f_h(l) - 1 (r is at h or weakly prefers h, which must not weakly
 *           prefer him), strict when k is not in D_r.
 * lo < f_r(k) leaves r free to take a hospital he strictly prefers: no demand.
 *
 * Rule A: positions of one-sided entries leave D_r, once.
 * Rule L (load): load[h] is between the residents fixed at h and min(capacity, those possible at
 *   h); when it can be no more than the fixed ones, the others lose h; when it must be all the
 *   possible ones, they get h. (load counts h's assignees.)
 * Rule E (proposals): nobody at a position p such that capacity demands of residents other than
 *   p's have thresholds below p. Proof: with an assignee at p, full(T) fails for each of those
 *   (p is past T), so all of them are at h, and with p that is capacity + 1 assignees.
 * Rule F (strict demand): with T the smallest threshold of a strict demand, h is full (load =
 *   capacity) and nobody past T is at h: the residents possible up to T must be at least
 *   capacity (else fail), and exactly capacity of them all get h.
 * Rule H (hospital-oriented): when h cannot be full(T) without r, because fewer than capacity
 *   residents other than r are possible up to T, or load's maximum less those fixed at h past T
 *   is below capacity, the condition of each strict demand r could make with threshold T is
 *   false: weak, T = e_h(l): D_r <= e_r(k); strong, T = f_h(l) - 1: D_r <= e_r(k), and T =
 *   e_h(l): D_r within 0 .. f_r(k) - 1 and k; super, T = f_h(l) - 1: D_r within 0 .. f_r(k) - 1
 *   and k. Proof: each of these conditions is r strictly or weakly preferring h while not at h
 *   (past e_r(k), or in k's tie or past it but not k), whose stable consequence is full(T) with
 *   r not among the assignees; so r's own place at h cannot count towards it (when T = e_h(l),
 *   r's position l lies within 0 .. T and would otherwise be counted).
 * On fixed domains (a load fixed at the count of its residents by Rule L) a blocking pair makes
 *   a strict demand (the strict cases above are exactly "r strictly / weakly prefers h and is
 *   not at h") whose full(T) is false, which Rule F fails (load below capacity, or an assignee
 *   past T). So the rules are complete on fixed domains for every kind.
 * Without ties and with capacity 1 these are the GS-lists rules of the SMTI core; Gent &
 * Prosser's clause residents[r] > e_r -> P[e_h] >= capacity (P the prefix sums of h's
 * assignees) is Rule F, its contrapositive Rule H, and what the sums' bounds propagate along
 * the prefix chain is Rules L, F and H (the chain's bounds on P[e] are the residents possible up
 * to e, and load's bounds less the residents fixed or possible past e). The strong and super
 * clauses (residents[r] > e_r -> full_lt, residents[r] >= f_r /\ residents[r] != k -> full_le
 * or full_lt) are Rule F with the strict demands above and, contrapositively, Rule H. */
#include "smc_hrt_internal.h"

#include <limits.h>

typedef struct run {
  const bb_smc_ties_hrt *t;
  bb_smc_ties_hrt_scratch *s;
  const bb_smc_domains *d;
} run;

static bool res_remove(run *x, int r, int k) {
  const bb_smc_domains *d = x->d;
  if (!d->contains(d->ctx, r, k)) return true;
  bb_smc_ties_hrt_push_lists(x->t, x->s, r);
  return d->remove(d->ctx, r, k) != BB_SMC_FAILED;
}

static bool res_lower_max(run *x, int r, int v) {
  const bb_smc_domains *d = x->d;
  if (d->max(d->ctx, r) <= v) return true;
  bb_smc_ties_hrt_push_lists(x->t, x->s, r);
  return d->lower_max(d->ctx, r, v) != BB_SMC_FAILED;
}

static bool res_assign(run *x, int r, int v) {
  const bb_smc_domains *d = x->d;
  if (d->min(d->ctx, r) == v && d->max(d->ctx, r) == v) return true;
  bb_smc_ties_hrt_push_lists(x->t, x->s, r);
  return d->assign(d->ctx, r, v) != BB_SMC_FAILED;
}

static bool load_within(run *x, int h, int lo, int hi) {
  const bb_smc_domains *d = x->d;
  int var = x->t->nr + h;
  if (d->min(d->ctx, var) < lo) {
    bb_smc_ties_hrt_push(x->s, h);
    if (d->raise_min(d->ctx, var, lo) == BB_SMC_FAILED) return false;
  }
  if (d->max(d->ctx, var) > hi) {
    bb_smc_ties_hrt_push(x->s, h);
    if (d->lower_max(d->ctx, var, hi) == BB_SMC_FAILED) return false;
  }
  return true;
}

static int next_above(const bb_smc_domains *d, int var, int v) {
  if (d->next) return d->next(d->ctx, var, v);
  int hi = d->max(d->ctx, var);
  for (int u = v + 1; u <= hi; u++)
    if (d->contains(d->ctx, var, u)) return u;
  return INT_MAX;
}

/* The resident at position t of h's list and his position k of h (-1: he does not list h). */
static int resident_at(const bb_smc_ties_hrt *t, int h, int pos, int *k) {
  const bb_smc_ties_side *H = &t->side[1], *R = &t->side[0];
  uint32_t f = H->start[h] + (uint32_t)pos, e = H->twin[f];
  int r = (int)H->other[f];
  *k = e == BB_SMC_TIES_ONE_SIDED ? -1 : (int)(e - R->start[r]);
  return r;
}

/* D_r within 0 .. f - 1 and k: r gets a hospital he strictly prefers to h's tie, or h. */
static bool res_better_or(run *x, int r, int f, int k) {
  if (!res_lower_max(x, r, k)) return false;
  for (int v = f; v < k; v++)
    if (!res_remove(x, r, v)) return false;
  return true;
}

/* The demand of resident r (entry k of his list, tied with f .. e there) on h, whose list ties
 * him with fh .. eh, by the stability (the table above): its threshold T, INT_MAX for none;
 * *strict when r is not at h. */
static int demand(const bb_smc_ties_hrt *t, const bb_smc_domains *d, int r, int k, int fh, int eh, bool *strict) {
  uint32_t at = t->side[0].start[r] + (uint32_t)k;
  int lo = d->min(d->ctx, r), f = t->side[0].first[at], e = t->side[0].last[at];
  bool in = d->contains(d->ctx, r, k), alone = in && lo == k && next_above(d, r, k) > e;
  *strict = false;
  if (lo < f) return INT_MAX; /* r may still get a hospital he strictly prefers to h */
  switch (t->stability) {
    case BB_SMC_WEAK: *strict = lo > e; return *strict || alone ? eh : INT_MAX;
    case BB_SMC_STRONG: *strict = !in; return lo > e || alone ? fh - 1 : eh;
    default: /* super */ *strict = !in; return fh - 1;
  }
}

/* How many of h's posts can be filled by residents at positions <= T other than the one at
 * position p: those possible there, and load's maximum less those fixed past T. */
static int room_upto(const bb_smc_ties_hrt_scratch *s, int T, int n_fixed, int load_hi, int p) {
  int past_fixed = n_fixed - (T < 0 ? 0 : s->fixed_prefix[T + 1]), room = T < 0 ? 0 : s->poss_prefix[T + 1];
  if (p <= T) room -= s->possible[p];
  return load_hi - past_fixed < room ? load_hi - past_fixed : room;
}

/* Rules L, E, F and H for hospital h. */
static bool hospital(run *x, int h) {
  const bb_smc_ties_hrt *t = x->t;
  const bb_smc_domains *d = x->d;
  bb_smc_ties_hrt_scratch *s = x->s;
  const bb_smc_ties_side *H = &t->side[1], *R = &t->side[0];
  uint32_t f0 = H->start[h];
  int len = (int)(H->start[h + 1] - f0), cap = t->capacity[h], strict = INT_MAX;
  s->poss_prefix[0] = s->fixed_prefix[0] = 0;
  for (int p = 0; p <= len; p++) s->below[p] = 0;
  for (int p = 0; p < len; p++) {
    int k, r = resident_at(t, h, p, &k);
    bool possible = false, fixed = false;
    s->threshold[p] = INT_MAX;
    if (k >= 0) {
      possible = d->contains(d->ctx, r, k);
      fixed = possible && d->min(d->ctx, r) == k && d->max(d->ctx, r) == k;
      bool strictly;
      int T = demand(t, d, r, k, H->first[f0 + (uint32_t)p], H->last[f0 + (uint32_t)p], &strictly);
      if (T != INT_MAX) s->threshold[p] = T, s->below[T + 1]++;
      if (strictly && T < strict) strict = T;
    }
    s->possible[p] = possible, s->fixed[p] = fixed;
    s->poss_prefix[p + 1] = s->poss_prefix[p] + possible;
    s->fixed_prefix[p + 1] = s->fixed_prefix[p] + fixed;
  }
  for (int p = 1; p <= len; p++) s->below[p] += s->below[p - 1]; /* below[p]: demands with T < p */
  int n_poss = s->poss_prefix[len], n_fixed = s->fixed_prefix[len];
  /* Rule L */
  if (!load_within(x, h, n_fixed, n_poss < cap ? n_poss : cap)) return false;
  int load_var = t->nr + h, load_lo = d->min(d->ctx, load_var), load_hi = d->max(d->ctx, load_var);
  for (int p = 0; p < len; p++) {
    if (!s->possible[p] || s->fixed[p]) continue;
    int k, r = resident_at(t, h, p, &k);
    if (load_hi == n_fixed && !res_remove(x, r, k)) return false;
    if (load_lo == n_poss && !res_assign(x, r, k)) return false;
  }
  /* Rule F: full with nobody past the smallest strict threshold; those possible up to it at
   * least capacity, all at h when exactly capacity. */
  if (strict != INT_MAX) {
    int upto = strict < 0 ? 0 : s->poss_prefix[strict + 1];
    if (!load_within(x, h, cap, cap) || upto < cap) return false;
    for (int p = strict + 1; p < len; p++) {
      int k, r = resident_at(t, h, p, &k);
      if (s->possible[p] && !res_remove(x, r, k)) return false;
    }
    if (upto == cap)
      for (int p = 0; p <= strict; p++) {
        int k, r = resident_at(t, h, p, &k);
        if (s->possible[p] && !res_assign(x, r, k)) return false;
      }
  }
  /* Rule E: nobody at a position p that capacity other demands' thresholds lie before. */
  for (int p = 0; p < len; p++) {
    if (!s->possible[p] || s->below[p] - (s->threshold[p] < p) < cap) continue;
    int k, r = resident_at(t, h, p, &k);
    if (!res_remove(x, r, k)) return false;
  }
  /* Rule H */
  for (int p = 0; p < len; p++) {
    int k, r = resident_at(t, h, p, &k);
    if (k < 0) continue;
    uint32_t at = R->start[r] + (uint32_t)k;
    int fh = H->first[f0 + (uint32_t)p], eh = H->last[f0 + (uint32_t)p];
    bool no_lt = room_upto(s, fh - 1, n_fixed, load_hi, p) < cap, no_le = room_upto(s, eh, n_fixed, load_hi, p) < cap;
    bool ok = true;
    if (t->stability == BB_SMC_WEAK)
      ok = !no_le || res_lower_max(x, r, R->last[at]);
    else if (t->stability == BB_SMC_STRONG)
      ok = (!no_lt || res_lower_max(x, r, R->last[at])) && (!no_le || res_better_or(x, r, R->first[at], k));
    else
      ok = !no_lt || res_better_or(x, r, R->first[at], k);
    if (!ok) return false;
  }
  return true;
}

/* Rule A for resident r. */
static bool acceptable_only(run *x, int r) {
  const bb_smc_ties_side *R = &x->t->side[0];
  for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++)
    if (R->twin[e] == BB_SMC_TIES_ONE_SIDED && !res_remove(x, r, (int)(e - R->start[r]))) return false;
  return true;
}

static bb_smc_status failed(bb_smc_ties_hrt_scratch *s) {
  for (int k = 0; k < s->count; k++) s->queued[s->queue[k]] = 0;
  s->count = 0;
  return BB_SMC_FAILED;
}

bb_smc_status bb_smc_ties_hrt_propagate(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_node *node,
                                        bb_smc_ties_hrt_scratch *s, const bb_smc_domains *dom) {
  run x = {t, s, dom};
  if (!node->root_done) {
    for (int r = 0; r < t->nr; r++)
      if (!acceptable_only(&x, r)) return failed(s);
    for (int h = 0; h < t->nh; h++) bb_smc_ties_hrt_push(s, h);
  }
  for (;;) {
    while (s->count > 0) {
      int h = s->queue[--s->count];
      s->queued[h] = 0;
      if (!hospital(&x, h)) return failed(s);
    }
    bool changed = false;
    if (bb_smc_ties_hrt_size_rules(t, s, dom, &changed) == BB_SMC_FAILED) return failed(s);
    if (!changed) break;
  }
  node->root_done = 1;
  return BB_SMC_FIX;
}
