/* The native HRT constraint's shared data (the lists of smc_ties_data.c plus capacities), a
 * search node's memory and a propagator's work space. */
#include "smc_hrt_internal.h"

#include <stdlib.h>
#include <string.h>

static const char WHO[] = "stable_matching_hrt";

static void data_free(bb_smc_ties_hrt *t) {
  bb_smc_ties_side_free(&t->side[0]);
  bb_smc_ties_side_free(&t->side[1]);
  free(t->capacity);
  free(t);
}

bb_smc_ties_hrt *bb_smc_ties_hrt_new(int nr, int nh, int base, const int *rp, const int *rp_len, int rp_cols,
                                     const int *rp_rank, int rp_rank_cols, const int *hp, const int *hp_len,
                                     int hp_cols, const int *hp_rank, int hp_rank_cols, const int *capacity,
                                     bb_smc_stability stability, bb_error *err) {
  if (stability != BB_SMC_WEAK && stability != BB_SMC_STRONG && stability != BB_SMC_SUPER)
    return bb_fail(err, BB_ERR_ARG, "%s: stability %d; it must be weak, strong or super", WHO, (int)stability), NULL;
  static const char *const names[3] = {WHO, "stable_matching_hrt_strong", "stable_matching_hrt_super"};
  const char *who = names[stability];
  if (nr < 0 || nh < 0 || nr > BB_MAX_N || nh > BB_MAX_N || rp_cols < 0 || hp_cols < 0 || rp_rank_cols < 0 ||
      hp_rank_cols < 0 || (nr && !rp_len) || (nh && (!hp_len || !capacity)) || (nr && rp_cols && !rp) ||
      (nh && hp_cols && !hp) || (nr && rp_rank_cols && !rp_rank) || (nh && hp_rank_cols && !hp_rank))
    return bb_fail(err, BB_ERR_ARG, "%s: bad sizes or arrays (%d residents, %d hospitals)", who, nr, nh), NULL;
  for (int h = 0; h < nh; h++)
    if (capacity[h] < 0)
      return bb_fail(err, BB_ERR_INPUT, "%s: hospital %d has capacity %d; capacities must be >= 0", who, base + h,
                     capacity[h]),
             NULL;
  bb_smc_ties_hrt *t = calloc(1, sizeof *t);
  int32_t *stamp = malloc(((size_t)(nr > nh ? nr : nh) + 1) * sizeof *stamp);
  if (t) t->capacity = malloc(((size_t)nh + 1) * sizeof *t->capacity);
  if (!t || !stamp || !t->capacity) {
    free(stamp);
    if (t) data_free(t);
    return bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the preference data", who), NULL;
  }
  t->nr = nr, t->nh = nh, t->base = base, t->stability = stability;
  for (int h = 0; h < nh; h++) t->capacity[h] = capacity[h];
  atomic_init(&t->refs, 1);
  bool ok = bb_smc_ties_side_build(&t->side[0], who, "resident", "rp", "rp_rank", nr, nh, base, rp, rp_len, rp_cols,
                                   rp_rank, rp_rank_cols, stamp, err) &&
            bb_smc_ties_side_build(&t->side[1], who, "hospital", "hp", "hp_rank", nh, nr, base, hp, hp_len, hp_cols,
                                   hp_rank, hp_rank_cols, stamp, err);
  free(stamp);
  ok = ok && bb_smc_ties_side_twins(&t->side[0], &t->side[1], who, err) &&
       bb_smc_ties_side_twins(&t->side[1], &t->side[0], who, err);
  if (!ok) {
    data_free(t);
    return NULL;
  }
  return t;
}

bb_smc_ties_hrt *bb_smc_ties_hrt_retain(bb_smc_ties_hrt *t) {
  atomic_fetch_add(&t->refs, 1);
  return t;
}

void bb_smc_ties_hrt_release(bb_smc_ties_hrt *t) {
  if (t && atomic_fetch_sub(&t->refs, 1) == 1) data_free(t);
}

int bb_smc_ties_hrt_residents(const bb_smc_ties_hrt *t) { return t->nr; }
int bb_smc_ties_hrt_hospitals(const bb_smc_ties_hrt *t) { return t->nh; }
int bb_smc_ties_hrt_vars(const bb_smc_ties_hrt *t) { return t->nr + t->nh + 1; }
bool bb_smc_ties_hrt_based(const bb_smc_ties_hrt *t, int var) { return var < t->nr; }

int bb_smc_ties_hrt_top(const bb_smc_ties_hrt *t, int var) {
  if (var < t->nr) return (int)(t->side[0].start[var + 1] - t->side[0].start[var]);
  if (var < t->nr + t->nh) return t->capacity[var - t->nr];
  return t->nr;
}

size_t bb_smc_ties_hrt_node_bytes(const bb_smc_ties_hrt *t) {
  (void)t;
  return sizeof(bb_smc_ties_hrt_node);
}

void bb_smc_ties_hrt_node_init(bb_smc_ties_hrt_node *node, const bb_smc_ties_hrt *t) {
  (void)t;
  node->root_done = 0;
}

bb_smc_ties_hrt_scratch *bb_smc_ties_hrt_scratch_new(const bb_smc_ties_hrt *t, bb_error *err) {
  bb_smc_ties_hrt_scratch *s = calloc(1, sizeof *s);
  size_t nh = (size_t)t->nh + 1, longest = 1;
  for (int h = 0; h < t->nh; h++) {
    size_t len = t->side[1].start[h + 1] - t->side[1].start[h];
    if (len + 1 > longest) longest = len + 1;
  }
  bool ok = s != NULL;
  if (ok) {
    s->queue = malloc(nh * sizeof *s->queue);
    s->queued = calloc(nh, 1);
    s->possible = malloc(longest);
    s->fixed = malloc(longest);
    s->poss_prefix = malloc((longest + 1) * sizeof *s->poss_prefix);
    s->fixed_prefix = malloc((longest + 1) * sizeof *s->fixed_prefix);
    s->threshold = malloc(longest * sizeof *s->threshold);
    s->below = malloc((longest + 1) * sizeof *s->below);
    const bb_smc_ties_side *R = &t->side[0], *H = &t->side[1];
    bb_smc_capmatch_graph g = {t->nr, t->nh, R->start, R->other, H->start, H->other, H->twin};
    ok = s->queue && s->queued && s->possible && s->fixed && s->poss_prefix && s->fixed_prefix && s->threshold &&
         s->below && bb_smc_capmatch_new(&s->match, &g);
  }
  if (!ok) {
    bb_smc_ties_hrt_scratch_free(s);
    bb_fail(err, BB_ERR_NOMEM, "%s: out of memory for the propagator's work space", WHO);
    return NULL;
  }
  return s;
}

void bb_smc_ties_hrt_scratch_free(bb_smc_ties_hrt_scratch *s) {
  if (!s) return;
  free(s->queue), free(s->queued), free(s->possible), free(s->fixed), free(s->poss_prefix), free(s->fixed_prefix);
  free(s->threshold), free(s->below);
  bb_smc_capmatch_free(&s->match);
  free(s);
}

void bb_smc_ties_hrt_push(bb_smc_ties_hrt_scratch *s, int h) {
  if (!s->queued[h]) s->queued[h] = 1, s->queue[s->count++] = h;
}

void bb_smc_ties_hrt_push_lists(const bb_smc_ties_hrt *t, bb_smc_ties_hrt_scratch *s, int r) {
  const bb_smc_ties_side *R = &t->side[0];
  for (uint32_t e = R->start[r]; e < R->start[r + 1]; e++)
    if (R->twin[e] != BB_SMC_TIES_ONE_SIDED) bb_smc_ties_hrt_push(s, (int)R->other[e]);
}

/* A resident's change concerns the hospitals of his list, a load's its hospital; size needs no
 * note (the size rules run at every propagation). */
void bb_smc_ties_hrt_note(bb_smc_ties_hrt_scratch *s, const bb_smc_ties_hrt *t, int var) {
  if (var < t->nr)
    bb_smc_ties_hrt_push_lists(t, s, var);
  else if (var < t->nr + t->nh)
    bb_smc_ties_hrt_push(s, var - t->nr);
}
