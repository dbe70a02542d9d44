/* SMTI/HRT by brute force (bth_ties.h). */
#include "bth_ties.h"

#include <stdlib.h>
#include <string.h>

static uint64_t next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A random subset of 0..n-1 (each kept with probability keep_percent) in random order, with
 * random ranks; returns its length. */
static int random_list(int n, int keep_percent, int tie_percent, bb_id *ids, uint32_t *ranks, uint64_t *rng) {
  int len = 0;
  for (int i = 0; i < n; i++)
    if ((int)(next(rng) % 100) < keep_percent) ids[len++] = (bb_id)i;
  for (int i = len - 1; i > 0; i--) {
    int j = (int)(next(rng) % (uint64_t)(i + 1));
    bb_id t = ids[i];
    ids[i] = ids[j];
    ids[j] = t;
  }
  for (int i = 0; i < len; i++) ranks[i] = i == 0 ? 0 : ranks[i - 1] + ((int)(next(rng) % 100) < tie_percent ? 0 : 1);
  return len;
}

bb_ties *bth_ties_random(int nr, int nh, int max_cap, bool smti, int tie_percent, uint64_t *rng) {
  bb_ties *in = bb_ties_new(smti, nr, nh, (uint64_t)nr * nh, (uint64_t)nr * nh, NULL);
  if (!in) return NULL;
  for (int r = 0; r < nr; r++) {
    uint32_t s = in->res_start[r];
    int keep = 40 + (int)(next(rng) % 61);
    in->res_start[r + 1] = s + (uint32_t)random_list(nh, keep, tie_percent, in->res_list + s, in->res_rank + s, rng);
  }
  for (int h = 0; h < nh; h++) {
    uint32_t s = in->hosp_start[h];
    int keep = 70 + (int)(next(rng) % 31);
    in->hosp_start[h + 1] = s + (uint32_t)random_list(nr, keep, tie_percent, in->hosp_list + s, in->hosp_rank + s, rng);
    in->capacity[h] = smti ? 1 : (int32_t)(next(rng) % (uint64_t)(max_cap + 1));
  }
  return in;
}

int bth_ties_rrank(const bb_ties *in, int r, int h) {
  for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++)
    if ((int)in->res_list[e] == h) return (int)in->res_rank[e];
  return -1;
}

int bth_ties_hrank(const bb_ties *in, int h, int r) {
  for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++)
    if ((int)in->hosp_list[e] == r) return (int)in->hosp_rank[e];
  return -1;
}

static bool acceptable(const bb_ties *in, int r, int h) {
  return bth_ties_rrank(in, r, h) >= 0 && bth_ties_hrank(in, h, r) >= 0;
}

bool bth_ties_is_matching(const bb_ties *in, const int32_t *M) {
  for (int h = 0; h < in->n_hospitals; h++) {
    int held = 0;
    for (int r = 0; r < in->n_residents; r++) held += M[r] == h;
    if (held > in->capacity[h]) return false;
  }
  for (int r = 0; r < in->n_residents; r++)
    if (M[r] != BB_TIES_NONE && (M[r] < 0 || M[r] >= in->n_hospitals || !acceptable(in, r, M[r]))) return false;
  return true;
}

int bth_ties_size(const bb_ties *in, const int32_t *M) {
  int size = 0;
  for (int r = 0; r < in->n_residents; r++) size += M[r] != BB_TIES_NONE;
  return size;
}

/* How r sees h against M[r], how h sees r against its worst assignee: 2 strictly better (or
 * r unassigned, h under-subscribed), 1 equal, 0 worse. */
static int resident_view(const bb_ties *in, const int32_t *M, int r, int h) {
  if (M[r] == BB_TIES_NONE) return 2;
  int now = bth_ties_rrank(in, r, M[r]), there = bth_ties_rrank(in, r, h);
  return there < now ? 2 : there == now ? 1 : 0;
}

static int hospital_view(const bb_ties *in, const int32_t *M, int h, int r) {
  int held = 0, worst = -1;
  for (int s = 0; s < in->n_residents; s++)
    if (M[s] == h) {
      held++;
      int k = bth_ties_hrank(in, h, s);
      if (k > worst) worst = k;
    }
  if (held < in->capacity[h]) return 2;
  if (held == 0) return 0; /* capacity 0: wants nobody */
  int k = bth_ties_hrank(in, h, r);
  return k < worst ? 2 : k == worst ? 1 : 0;
}

int bth_ties_blocking(const bb_ties *in, const int32_t *M, bb_ties_stability kind) {
  int count = 0;
  for (int r = 0; r < in->n_residents; r++)
    for (int h = 0; h < in->n_hospitals; h++) {
      if (M[r] == h || !acceptable(in, r, h)) continue;
      int a = resident_view(in, M, r, h), b = hospital_view(in, M, h, r);
      bool blocks = kind == BB_TIES_WEAK     ? a == 2 && b == 2
                    : kind == BB_TIES_STRONG ? (a == 2 && b >= 1) || (a >= 1 && b == 2)
                                             : a >= 1 && b >= 1;
      count += blocks;
    }
  return count;
}

typedef struct walk {
  const bb_ties *in;
  int32_t M[BTH_TIES_MAX_RESIDENTS];
  int held[64];
  bth_ties_visit visit;
  void *ctx;
} walk;

static void assign_from(walk *w, int r) {
  const bb_ties *in = w->in;
  if (r == in->n_residents) {
    w->visit(w->M, w->ctx);
    return;
  }
  w->M[r] = BB_TIES_NONE;
  assign_from(w, r + 1);
  for (int h = 0; h < in->n_hospitals; h++)
    if (w->held[h] < in->capacity[h] && acceptable(in, r, h)) {
      w->M[r] = h;
      w->held[h]++;
      assign_from(w, r + 1);
      w->held[h]--;
    }
  w->M[r] = BB_TIES_NONE;
}

void bth_ties_enumerate(const bb_ties *in, bth_ties_visit visit, void *ctx) {
  if (in->n_residents > BTH_TIES_MAX_RESIDENTS || in->n_hospitals > 64) abort();
  walk w = {.in = in, .visit = visit, .ctx = ctx};
  assign_from(&w, 0);
}

static void summarise_visit(const int32_t *M, void *ctx) {
  struct {
    const bb_ties *in;
    bth_ties_summary s;
  } *c = ctx;
  c->s.matchings++;
  if (bth_ties_blocking(c->in, M, BB_TIES_WEAK) == 0) {
    c->s.weak++;
    int size = bth_ties_size(c->in, M);
    if (size > c->s.max_weak_size) c->s.max_weak_size = size;
  }
  c->s.strong += bth_ties_blocking(c->in, M, BB_TIES_STRONG) == 0;
  c->s.super += bth_ties_blocking(c->in, M, BB_TIES_SUPER) == 0;
}

bth_ties_summary bth_ties_summarise(const bb_ties *in) {
  struct {
    const bb_ties *in;
    bth_ties_summary s;
  } c = {in, {0, 0, 0, 0, -1}};
  bth_ties_enumerate(in, summarise_visit, &c);
  return c.s;
}

typedef struct dominate {
  const bb_ties *in;
  const int32_t *base;
  bool found;
} dominate;

/* A resident's rank of his place, unassigned as worse than every rank. */
static int place_rank(const bb_ties *in, const int32_t *M, int r) {
  return M[r] == BB_TIES_NONE ? 1 << 30 : bth_ties_rrank(in, r, M[r]);
}

static void dominate_visit(const int32_t *M, void *ctx) {
  dominate *d = ctx;
  if (d->found || bth_ties_blocking(d->in, M, BB_TIES_WEAK) != 0) return;
  bool better = false;
  for (int r = 0; r < d->in->n_residents; r++) {
    int now = place_rank(d->in, d->base, r), there = place_rank(d->in, M, r);
    if (there > now) return;
    better |= there < now;
  }
  d->found = better;
}

bool bth_ties_weak_pareto_dominated(const bb_ties *in, const int32_t *M) {
  dominate d = {in, M, false};
  bth_ties_enumerate(in, dominate_visit, &d);
  return d.found;
}
