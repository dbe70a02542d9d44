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
 * Say r "proposes" to h when D_r has no value in 0 .. e_r(k) but k, and "strictly proposes" when
 * it has none at all. In a weakly stable matching within the domains, a proposer is at h or
 * makes full_le(l) true (he is not at h, so v > e_r(k): h must not strictly prefer him); a
 * strict proposer makes full_le(l) true.
 *
 * Rule A: positions of one-sided entries leave D_r, once.
 * Rule L (load): load[h] is between the residents fixed at h and min(capacity, those possible at
 *   h); when it can be no more than the fixed ones, the others lose h; when it must be all the
 *   possible ones, they get h. (load counts h's assignees.)
 * Rule E (proposals): once capacity[h] residents propose to h, with E the tie end (in h's list)
 *   of the capacity-th of them in h's order, nobody past E is at h. Proof: an assignee s past E
 *   leaves full_le false for each of those proposers (s is worse than their ties), so all of them
 *   are at h, and with s that is capacity + 1 assignees.
 * Rule F (strict proposal): a strict proposer at position l makes h full (load = capacity) with
 *   assignees all at positions <= e_h(l): nobody past it is at h, the residents possible there
 *   must be at least capacity (else fail), and exactly capacity of them are all at h.
 * Rule H (hospital-oriented): if h cannot be full with assignees at positions <= e = e_h(l),
 *   because fewer than capacity residents are possible there, or load's maximum less those fixed
 *   at h past e is below capacity, then r gets h or a hospital tied with h or better:
 *   D_r <= e_r(k). Proof: otherwise r strictly prefers h, is not at h, and full_le(l) fails.
 * Without ties and with capacity 1 these are the GS-lists rules of the SMTI core; Gent &
 * Prosser's clause residents[r] > e_r -> P[e_h] >= capacity (P the prefix sums of h's
 * assignees) is Rule F, its contrapositive Rule H, and what the sums' bounds propagate along
 * the prefix chain is Rules L, F and H (the chain's bounds on P[e] are the residents possible up
 * to e, and load's bounds less the residents fixed or possible past e). */
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

/* Rules L, E, F and H for hospital h. */
static bool hospital(run *x, int h) {
  const bb_smc_ties_hrt *t = x->t;
  const bb_smc_domains *d = x->d;
  bb_smc_ties_hrt_scratch *s = x->s;
  const bb_smc_ties_side *H = &t->side[1], *R = &t->side[0];
  uint32_t f0 = H->start[h];
  int len = (int)(H->start[h + 1] - f0), cap = t->capacity[h], proposers = 0, cut = len, strict = len;
  s->poss_prefix[0] = s->fixed_prefix[0] = 0;
  for (int p = 0; p < len; p++) {
    int k, r = resident_at(t, h, p, &k);
    bool possible = false, fixed = false;
    if (k >= 0) {
      int lo = d->min(d->ctx, r), er = R->last[R->start[r] + (uint32_t)k];
      possible = d->contains(d->ctx, r, k);
      fixed = possible && lo == k && d->max(d->ctx, r) == k;
      bool strictly = lo > er, proposes = strictly || (lo == k && next_above(d, r, k) > er);
      if (proposes && proposers < cap && ++proposers == cap) cut = H->last[f0 + (uint32_t)p];
      if (strictly && strict == len) strict = H->last[f0 + (uint32_t)p]; /* tie ends never decrease */
    }
    s->possible[p] = possible, s->fixed[p] = fixed;
    s->poss_prefix[p + 1] = s->poss_prefix[p] + possible;
    s->fixed_prefix[p + 1] = s->fixed_prefix[p] + fixed;
  }
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
  /* Rules E and F: nobody past the cut; F's prefix holds capacity residents, all at h if exact. */
  if (strict < len) {
    if (!load_within(x, h, cap, cap) || s->poss_prefix[strict + 1] < cap) return false;
    if (strict < cut) cut = strict;
  }
  for (int p = cut + 1; p < len; p++) {
    int k, r = resident_at(t, h, p, &k);
    if (s->possible[p] && !res_remove(x, r, k)) return false;
  }
  if (strict < len && s->poss_prefix[strict + 1] == cap)
    for (int p = 0; p <= strict; p++) {
      int k, r = resident_at(t, h, p, &k);
      if (s->possible[p] && !res_assign(x, r, k)) return false;
    }
  /* Rule H */
  for (int p = 0; p < len; p++) {
    int k, r = resident_at(t, h, p, &k);
    if (k < 0) continue;
    int e = H->last[f0 + (uint32_t)p], room = s->poss_prefix[e + 1];
    int past_fixed = n_fixed - s->fixed_prefix[e + 1];
    if (load_hi - past_fixed < room) room = load_hi - past_fixed;
    if (room < cap && !res_lower_max(x, r, R->last[R->start[r] + (uint32_t)k])) return false;
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
