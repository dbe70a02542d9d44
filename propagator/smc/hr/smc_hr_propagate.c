/* The native HR constraint's rules (smc_hr.h), run to their fixpoint with two queues: residents
 * whose domain changed, and hospitals whose posts need their bounds again.
 *
 * Resident-oriented GS (Manlove et al. 2007, after Gusfield & Irving 1.6): resident r has
 * "proposed" to every hospital ranked at or above his smallest value (last_min). If r is not
 * at such a hospital h, h must be full with residents it prefers to r, or (r, h) blocks. So
 * once capacity[h] residents have proposed to h, nobody h ranks below the capacity[h]-th best
 * of them can be at h: all of those would have to be there as well (proposed_cut). A resident
 * whose smallest value is strictly worse than h makes h full with better residents
 * (strict_best). Both thresholds only move up h's list down a branch, so what they remove is
 * removed once (cut).
 *
 * Hospital-oriented GS: if fewer than capacity[h] residents possible at h are ranked above r
 * by h, h cannot be full of residents better than r, so r must not prefer h to his place: r
 * gets h or better. offer_end is the capacity[h]-th possible resident of h's list; everybody
 * up to it has been told (his largest value lowered to h's rank, removing "unassigned").
 *
 * Which pairs became impossible is kept as one bit per resident list entry (gone), so that
 * each death is counted once (offers_alive) and tells its hospital once. */
#include "smc_hr_internal.h"

#include <assert.h>

typedef struct run {
  const bb_smc_hr *hr;
  bb_smc_hr_scratch *s;
  const bb_smc_domains *d;
  int32_t *last_min;
  bb_smc_hr_hosp *hosp;
  uint64_t *gone;
} run;

static int res_len(const bb_smc_hr *hr, int r) { return (int)(hr->res_start[r + 1] - hr->res_start[r]); }
static int hosp_len(const bb_smc_hr *hr, int h) { return (int)(hr->hosp_start[h + 1] - hr->hosp_start[h]); }
static int post_var(const bb_smc_hr *hr, int h, int q) { return hr->nr + h * hr->cols + q; }

static bool is_gone(const run *x, uint32_t e) { return x->gone[e >> 6] >> (e & 63) & 1; }
static void set_gone(run *x, uint32_t e) { x->gone[e >> 6] |= (uint64_t)1 << (e & 63); }

/* Each queue holds an agent at most once (its queued flag), so it never outgrows its agents. */
static void push_res(run *x, int r) {
  bb_smc_hr_scratch *s = x->s;
  assert(r >= 0 && r < x->hr->nr);
  if (!s->res_queued[r]) {
    assert(s->res_count < x->hr->nr);
    s->res_queued[r] = 1, s->res_queue[s->res_count++] = r;
  }
}
static void push_hosp(run *x, int h) {
  bb_smc_hr_scratch *s = x->s;
  assert(h >= 0 && h < x->hr->nh);
  if (!s->hosp_queued[h]) {
    assert(s->hosp_count < x->hr->nh);
    s->hosp_queued[h] = 1, s->hosp_queue[s->hosp_count++] = h;
  }
}

/* Resident r cannot have the hospital at his rank k. */
static bool drop(run *x, int r, int k) {
  const bb_smc_domains *d = x->d;
  if (!d->contains(d->ctx, r, k)) return true;
  push_res(x, r);
  return d->remove(d->ctx, r, k) != BB_SMC_FAILED;
}

/* Has the resident at entry f of a hospital's list proposed to it? */
static bool proposed(const run *x, uint32_t f) {
  uint32_t k = x->hr->hosp_rank[f];
  return k != BB_SMC_HR_UNRANKED && (int32_t)k <= x->last_min[x->hr->hosp_res[f]];
}

/* Removes h from everybody past its thresholds who has not lost it yet. */
static bool apply_cut(run *x, int h) {
  const bb_smc_hr *hr = x->hr;
  bb_smc_hr_hosp *st = &x->hosp[h];
  int32_t c = st->proposed_cut;
  if (st->strict_best < c) c = st->strict_best;
  if (st->posts_cut < c) c = st->posts_cut;
  for (int32_t p = c + 1; p <= st->cut; p++) {
    uint32_t f = hr->hosp_start[h] + (uint32_t)p, k = hr->hosp_rank[f];
    if (k != BB_SMC_HR_UNRANKED && !drop(x, (int)hr->hosp_res[f], (int)k)) return false;
  }
  if (c < st->cut) st->cut = c;
  return true;
}

/* Hospital-oriented GS: offers h's next positions until capacity[h] possible residents hold one. */
static bool offer(run *x, int h) {
  const bb_smc_hr *hr = x->hr;
  const bb_smc_domains *d = x->d;
  bb_smc_hr_hosp *st = &x->hosp[h];
  int len = hosp_len(hr, h);
  while (st->offers_alive < hr->capacity[h] && st->offer_end + 1 < len) {
    uint32_t f = hr->hosp_start[h] + (uint32_t)++st->offer_end, k = hr->hosp_rank[f];
    if (k == BB_SMC_HR_UNRANKED) continue;
    int r = (int)hr->hosp_res[f];
    if (d->max(d->ctx, r) > (int)k) {
      push_res(x, r);
      if (d->lower_max(d->ctx, r, (int)k) == BB_SMC_FAILED) return false;
    }
    if (!is_gone(x, hr->res_start[r] + k)) st->offers_alive++;
  }
  return true;
}

/* The pair of resident entry e (hospital h, position p in h's list) became impossible. */
static bool pair_gone(run *x, int h, int32_t p) {
  bb_smc_hr_hosp *st = &x->hosp[h];
  push_hosp(x, h);
  if (p > st->offer_end) return true;
  st->offers_alive--;
  return offer(x, h);
}

/* Resident at position p of h's list proposed to h (h is at or above his smallest value). */
static bool proposes(run *x, int h, int32_t p) {
  const bb_smc_hr *hr = x->hr;
  bb_smc_hr_hosp *st = &x->hosp[h];
  int len = hosp_len(hr, h);
  if (hr->capacity[h] == 0) return true;
  if (st->proposed_cut == len) {
    if (++st->proposers < hr->capacity[h]) return true;
    int32_t q = len - 1;
    while (!proposed(x, hr->hosp_start[h] + (uint32_t)q)) q--;
    st->proposed_cut = q;
  } else if (p < st->proposed_cut) {
    int32_t q = st->proposed_cut - 1;
    while (!proposed(x, hr->hosp_start[h] + (uint32_t)q)) q--;
    st->proposed_cut = q;
  } else {
    return true;
  }
  return apply_cut(x, h);
}

/* Resident at position p of h's list can only do strictly worse than h: h is full of better ones. */
static bool passed(run *x, int h, int32_t p) {
  bb_smc_hr_hosp *st = &x->hosp[h];
  if (p >= st->strict_best) return true;
  st->strict_best = p;
  push_hosp(x, h);
  return apply_cut(x, h);
}

static bool resident_changed(run *x, int r) {
  const bb_smc_hr *hr = x->hr;
  const bb_smc_domains *d = x->d;
  int len = res_len(hr, r);
  uint32_t first = hr->res_start[r];
  for (int k = 0; k < len; k++) {
    uint32_t e = first + (uint32_t)k;
    if (is_gone(x, e)) continue;
    uint32_t p = hr->res_pos[e];
    if (p == BB_SMC_HR_UNRANKED) { /* a one-sided entry is never a match */
      set_gone(x, e);
      if (!drop(x, r, k)) return false;
      continue;
    }
    if (d->contains(d->ctx, r, k)) continue;
    set_gone(x, e);
    if (!pair_gone(x, (int)hr->res_hosp[e], (int32_t)p)) return false;
  }
  int low = d->min(d->ctx, r), old = x->last_min[r];
  if (low > old) {
    x->last_min[r] = low;
    for (int k = old < 0 ? 0 : old; k < low && k < len; k++) {
      uint32_t e = first + (uint32_t)k;
      if (hr->res_pos[e] != BB_SMC_HR_UNRANKED && !passed(x, (int)hr->res_hosp[e], (int32_t)hr->res_pos[e]))
        return false;
    }
    for (int k = old + 1; k <= low && k < len; k++) {
      uint32_t e = first + (uint32_t)k;
      if (hr->res_pos[e] != BB_SMC_HR_UNRANKED && !proposes(x, (int)hr->res_hosp[e], (int32_t)hr->res_pos[e]))
        return false;
    }
  }
  if (low < len && d->max(d->ctx, r) == low) push_hosp(x, (int)hr->res_hosp[first + (uint32_t)low]);
  return true;
}

/* Snapshots the posts' bounds (all the passes read of them besides membership). */
static void posts_bounds(const run *x, int h, int cap, int32_t *lo, int32_t *hi) {
  const bb_smc_domains *d = x->d;
  for (int q = 0; q < cap; q++) {
    int v = post_var(x->hr, h, q);
    lo[q] = d->min(d->ctx, v), hi[q] = d->max(d->ctx, v);
  }
}

/* One pass of the posts' rules of hospital h. */
static bool posts_pass(run *x, int h, bool external) {
  const bb_smc_hr *hr = x->hr;
  const bb_smc_domains *d = x->d;
  bb_smc_hr_hosp *st = &x->hosp[h];
  int cap = hr->capacity[h], empty = hosp_len(hr, h);
  uint32_t start = hr->hosp_start[h];
  /* What the posts say of the residents: nobody before the first post's minimum, nobody past
   * the last post's maximum when that post cannot be empty, nobody when the first must be. */
  int first_min = d->min(d->ctx, post_var(hr, h, 0)), last_max = d->max(d->ctx, post_var(hr, h, cap - 1));
  if (first_min == empty) {
    st->posts_cut = -1;
  } else {
    if (last_max < empty && last_max < st->posts_cut) st->posts_cut = last_max;
    for (; st->low < first_min && st->low <= st->cut; st->low++) {
      uint32_t k = hr->hosp_rank[start + (uint32_t)st->low];
      if (k != BB_SMC_HR_UNRANKED && !drop(x, (int)hr->hosp_res[start + (uint32_t)st->low], (int)k)) return false;
    }
  }
  if (!apply_cut(x, h)) return false;
  /* The residents still possible at h (alive) and those fixed there, in h's order. */
  int n_alive = 0, n_fixed = 0, last = -1;
  for (int32_t p = st->low; p <= st->cut; p++) {
    uint32_t f = start + (uint32_t)p, k = hr->hosp_rank[f];
    if (k == BB_SMC_HR_UNRANKED) continue;
    int r = (int)hr->hosp_res[f];
    if (!d->contains(d->ctx, r, (int)k)) continue;
    if (n_alive <= cap) x->s->alive[n_alive] = p;
    x->s->tail[n_alive % (cap + 1)] = p;
    n_alive++;
    last = p;
    if (d->max(d->ctx, r) == (int)k && d->min(d->ctx, r) == (int)k) {
      if (n_fixed <= cap) x->s->fixed[n_fixed] = p;
      n_fixed++;
    }
  }
  if (n_fixed > cap) return false;
  bool full = st->strict_best < empty;
  /* h takes at least `need` residents: all its posts when it must be full, else as many as
   * its posts that cannot be empty (a prefix: empty is every post's largest value). Each of
   * the first `need` posts leaves room after it for the filled ones behind it; with no more
   * residents possible than needed, all of them are at h. */
  int need = 0;
  for (int q = 0; q < cap; q++)
    if (d->max(d->ctx, post_var(hr, h, q)) < empty) need = q + 1;
  if (full) need = cap;
  if (n_alive < need) return false;
  if (need > 0 && n_alive == need)
    for (int32_t p = st->low; p <= st->cut; p++) {
      uint32_t f = start + (uint32_t)p, k = hr->hosp_rank[f];
      if (k == BB_SMC_HR_UNRANKED) continue;
      int r = (int)hr->hosp_res[f];
      if (!d->contains(d->ctx, r, (int)k) || (d->min(d->ctx, r) == (int)k && d->max(d->ctx, r) == (int)k)) continue;
      push_res(x, r);
      if (d->assign(d->ctx, r, (int)k) == BB_SMC_FAILED) return false;
    }
  for (int q = 0; q < need; q++) {
    int v = post_var(hr, h, q), room = x->s->tail[(n_alive - need + q) % (cap + 1)];
    if (d->max(d->ctx, v) > room && d->lower_max(d->ctx, v, room) == BB_SMC_FAILED) return false;
  }
  for (int q = 0; q < cap; q++) {
    int v = post_var(hr, h, q);
    if (q >= n_alive) {
      if (d->assign(d->ctx, v, empty) == BB_SMC_FAILED) return false;
      continue;
    }
    int a = x->s->alive[q];
    if (d->min(d->ctx, v) < a && d->raise_min(d->ctx, v, a) == BB_SMC_FAILED) return false;
    if (q < n_fixed && d->max(d->ctx, v) > x->s->fixed[q] && d->lower_max(d->ctx, v, x->s->fixed[q]) == BB_SMC_FAILED)
      return false;
    if (last + 1 < empty && d->max(d->ctx, v) > last &&
        d->remove_range(d->ctx, v, last + 1, empty - 1) == BB_SMC_FAILED)
      return false;
    if (full && d->remove(d->ctx, v, empty) == BB_SMC_FAILED) return false;
  }
  /* Best first, empty last: a post is empty only after an empty one, else above the one before. */
  for (int q = 1; q < cap; q++) {
    int before = d->min(d->ctx, post_var(hr, h, q - 1)), v = post_var(hr, h, q);
    if (before == empty) {
      if (d->assign(d->ctx, v, empty) == BB_SMC_FAILED) return false;
    } else if (d->min(d->ctx, v) <= before && d->raise_min(d->ctx, v, before + 1) == BB_SMC_FAILED) {
      return false;
    }
  }
  for (int q = cap - 2; q >= 0; q--) {
    int after = d->max(d->ctx, post_var(hr, h, q + 1)), v = post_var(hr, h, q);
    if (after < empty && d->max(d->ctx, v) >= after && d->lower_max(d->ctx, v, after - 1) == BB_SMC_FAILED)
      return false;
  }
  /* A post fixed to a resident puts him at h. */
  for (int q = 0; q < cap; q++) {
    int v = post_var(hr, h, q), p = d->min(d->ctx, v);
    if (p == empty || d->max(d->ctx, v) != p) continue;
    uint32_t f = start + (uint32_t)p, k = hr->hosp_rank[f];
    if (k == BB_SMC_HR_UNRANKED) return false;
    int r = (int)hr->hosp_res[f];
    if (d->min(d->ctx, r) != (int)k || d->max(d->ctx, r) != (int)k) {
      push_res(x, r);
      if (d->assign(d->ctx, r, (int)k) == BB_SMC_FAILED) return false;
    }
  }
  /* Someone else changed a post: a resident that no post can hold any more loses h. */
  if (external)
    for (int32_t p = st->low; p <= st->cut; p++) {
      uint32_t f = start + (uint32_t)p, k = hr->hosp_rank[f];
      if (k == BB_SMC_HR_UNRANKED || !d->contains(d->ctx, (int)hr->hosp_res[f], (int)k)) continue;
      bool held = false;
      for (int q = 0; q < cap && !held; q++) {
        int v = post_var(hr, h, q);
        held = d->min(d->ctx, v) <= p && p <= d->max(d->ctx, v) && d->contains(d->ctx, v, p);
      }
      if (!held && !drop(x, (int)hr->hosp_res[f], (int)k)) return false;
    }
  return true;
}

/* The posts' rules again while they move a bound: the pass reads bounds only (and membership,
 * which only someone else's change needs), so equal bounds mean its fixpoint. */
static bool hospital_changed(run *x, int h, bool external) {
  int cap = x->hr->capacity[h];
  if (cap == 0) return true; /* its posts were emptied at the root, its residents cut */
  int32_t *lo = x->s->post_lo, *hi = x->s->post_hi;
  for (;;) {
    posts_bounds(x, h, cap, lo, hi);
    if (!posts_pass(x, h, external)) return false;
    external = false;
    bool moved = false;
    for (int q = 0; q < cap && !moved; q++) {
      int v = post_var(x->hr, h, q);
      moved = x->d->min(x->d->ctx, v) != lo[q] || x->d->max(x->d->ctx, v) != hi[q];
    }
    if (!moved) return true;
  }
}

static bool root(run *x) {
  const bb_smc_hr *hr = x->hr;
  const bb_smc_domains *d = x->d;
  for (int r = 0; r < hr->nr; r++) push_res(x, r);
  for (int h = 0; h < hr->nh; h++) {
    push_hosp(x, h);
    x->s->hosp_external[h] = 1;
    for (int q = hr->capacity[h]; q < hr->cols; q++)
      if (d->assign(d->ctx, post_var(hr, h, q), hosp_len(hr, h)) == BB_SMC_FAILED) return false;
    if (!apply_cut(x, h) || !offer(x, h)) return false;
  }
  return true;
}

static void clear_queues(bb_smc_hr_scratch *s) {
  for (int i = 0; i < s->res_count; i++) s->res_queued[s->res_queue[i]] = 0;
  for (int i = 0; i < s->hosp_count; i++) s->hosp_queued[s->hosp_queue[i]] = 0, s->hosp_external[s->hosp_queue[i]] = 0;
  s->res_count = s->hosp_count = 0;
}

bb_smc_status bb_smc_hr_propagate(const bb_smc_hr *hr, bb_smc_hr_node *node, bb_smc_hr_scratch *s,
                                  const bb_smc_domains *dom) {
  size_t ints = ((sizeof(bb_smc_hr_node) + (size_t)hr->nr * sizeof(int32_t)) + 7) & ~(size_t)7;
  run x = {hr,
           s,
           dom,
           (int32_t *)(node + 1),
           (bb_smc_hr_hosp *)((char *)node + ints),
           (uint64_t *)((char *)node + ints + (size_t)hr->nh * sizeof(bb_smc_hr_hosp))};
  bool ok = true;
  if (!node->root_done) {
    node->root_done = 1;
    ok = root(&x);
  }
  while (ok) {
    if (s->res_count) {
      int r = s->res_queue[--s->res_count];
      s->res_queued[r] = 0;
      ok = resident_changed(&x, r);
    } else if (s->hosp_count) {
      int h = s->hosp_queue[--s->hosp_count];
      bool external = s->hosp_external[h];
      s->hosp_queued[h] = 0, s->hosp_external[h] = 0;
      ok = hospital_changed(&x, h, external);
    } else {
      break;
    }
  }
  if (!ok) {
    clear_queues(s);
    return BB_SMC_FAILED;
  }
  return BB_SMC_FIX;
}
