/* The native HRT constraint's size rules (smc_hrt.h): smc_ties_size.c's rules with capacities.
 * The pairs still allowed form a bipartite graph G in which hospital h may take up to room(h) =
 * min(capacity[h], load[h]'s maximum) residents; every solution is a capacitated matching of G.
 * Let A be the residents whose domain has lost "unassigned" and nu the size of a maximum
 * capacitated matching of G. As for SMTI (with each hospital seen as room(h) copies of itself,
 * which makes the matchings ordinary ones): a matching must cover A (S1); max(|A|, sum of the
 * loads' minima) <= size <= nu (S2: size counts the assigned residents, which are the sum of the
 * loads); size's maximum equal to |A| leaves everyone else unassigned, equal to the sum of the
 * loads' minima holds every load at its minimum, and size's minimum equal to the sum of the
 * loads' maxima raises every load to its maximum (S3); size's minimum equal to nu assigns every
 * resident that every maximum matching covers (S4: those an even alternating path does not join
 * to a free resident; from a resident the path goes to a hospital of his, which a maximum
 * matching fills, then on to any of its assignees). The hospitals' own minima are not checked
 * for a common cover.
 *
 * S5 (maximum pairs): size's minimum equal to nu removes every allowed pair that no maximum
 * capacitated matching uses, by Dulmage-Mendelsohn on G with hospital h as room(h) copies (the
 * matchings then ordinary, so smc_ties_size.c's S5 applies): given the maximum matching M, a pair
 * (r, h) outside M, room(h) > 0, is in some maximum matching exactly when (a) r is missable
 * (S4's even path from a free resident: then h is full, and r may take any of its posts), or
 * (b) r is "movable" and h "has room to give": h has a free post, or one of its assignees is
 * movable, where a movable resident is one with an allowed pair to a hospital that has room to
 * give (an even alternating path from a free copy of a hospital ends at him), or (c) r and h lie
 * on an alternating cycle: one strongly connected component of the graph with an arc r -> h for
 * each allowed pair outside M and h -> y for each assignee y of h (a resident reaches every copy
 * of a hospital, so its assignees and it stand for all of them). */
#include "smc_hrt_internal.h"

/* The allowed pairs and rooms; the kept matching loses the pairs no longer allowed and the
 * residents past a room. */
static void snapshot(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d) {
  const bb_smc_ties_side *R = &t->side[0];
  bb_smc_capmatch *m = &s->match;
  for (int h = 0; h < t->nh; h++) {
    int hi = d->max(d->ctx, t->nr + h);
    m->room[h] = hi < t->capacity[h] ? hi : t->capacity[h];
  }
  for (int r = 0; r < t->nr; r++)
    for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++)
      m->alive[e] = R->twin[e] != BB_SMC_TIES_ONE_SIDED && d->contains(d->ctx, r, (int)(e - R->start[r]));
  bb_smc_capmatch_keep(m);
}

typedef struct forced_ctx {
  const bb_smc_ties_hrt *t;
  const bb_smc_domains *d;
} forced_ctx;

static bool forced(const bb_smc_ties_hrt *t, const bb_smc_domains *d, int r) {
  return d->max(d->ctx, r) < (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
}

static bool forced_at(const void *ctx, int r) {
  const forced_ctx *c = ctx;
  return forced(c->t, c->d, r);
}

static bb_smc_status note(bb_smc_status st, const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int var,
                          bool *changed) {
  if (st == BB_SMC_CHANGED) {
    *changed = true;
    if (var < t->nr)
      bb_smc_ties_hrt_push_lists(t, s, var);
    else
      bb_smc_ties_hrt_push(s, var - t->nr);
  }
  return st;
}

/* S5 over the missable residents (res_reached = missed) and the kept maximum matching. */
static bb_smc_status maximum_pairs(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d,
                                   int32_t missed, bool *changed) {
  const bb_smc_ties_side *R = &t->side[0];
  int32_t room_stamp = bb_smc_capmatch_pair_marks(&s->match, missed);
  if (!room_stamp) return BB_SMC_FIX; /* the marks were just cleared: next time */
  for (int r = 0; r < t->nr; r++)
    for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++)
      if (bb_smc_capmatch_unused(&s->match, missed, room_stamp, r, e) &&
          note(d->remove(d->ctx, r, (int)(e - R->start[r])), t, s, r, changed) == BB_SMC_FAILED)
        return BB_SMC_FAILED;
  return BB_SMC_FIX;
}

bb_smc_status bb_smc_ties_hrt_size_rules(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, const bb_smc_domains *d,
                                         bool *changed) {
  int size_var = t->nr + t->nh, nu = 0, n_a = 0, load_min = 0, load_max = 0;
  snapshot(t, s, d);
  if (!bb_smc_capmatch_cover(&s->match, forced_at, &(forced_ctx){t, d})) return BB_SMC_FAILED;
  nu = bb_smc_capmatch_maximum(&s->match);
  for (int r = 0; r < t->nr; r++) n_a += forced(t, d, r);
  for (int h = 0; h < t->nh; h++) load_min += d->min(d->ctx, t->nr + h), load_max += d->max(d->ctx, t->nr + h);
  if (d->raise_min(d->ctx, size_var, n_a > load_min ? n_a : load_min) == BB_SMC_FAILED ||
      d->lower_max(d->ctx, size_var, nu) == BB_SMC_FAILED)
    return BB_SMC_FAILED;
  int lo = d->min(d->ctx, size_var), hi = d->max(d->ctx, size_var);
  for (int r = 0; r < t->nr && hi == n_a; r++) {
    int len = (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
    if (!forced(t, d, r) && note(d->assign(d->ctx, r, len), t, s, r, changed) == BB_SMC_FAILED) return BB_SMC_FAILED;
  }
  for (int h = 0; h < t->nh; h++) {
    int var = t->nr + h, min = d->min(d->ctx, var), max = d->max(d->ctx, var);
    if (hi == load_min && note(d->lower_max(d->ctx, var, min), t, s, var, changed) == BB_SMC_FAILED)
      return BB_SMC_FAILED;
    if (lo == load_max && note(d->raise_min(d->ctx, var, max), t, s, var, changed) == BB_SMC_FAILED)
      return BB_SMC_FAILED;
  }
  if (lo == nu && !*changed) {
    int32_t stamp = bb_smc_capmatch_missable(&s->match);
    for (int r = 0; r < t->nr; r++) {
      int len = (int)(t->side[0].start[r + 1] - t->side[0].start[r]);
      if (s->match.res_reached[r] != stamp && note(d->lower_max(d->ctx, r, len - 1), t, s, r, changed) == BB_SMC_FAILED)
        return BB_SMC_FAILED;
    }
    if (!*changed) return maximum_pairs(t, s, d, stamp, changed);
  }
  return BB_SMC_FIX;
}
