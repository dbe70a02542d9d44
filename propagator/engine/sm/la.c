/* LAProp, the locality-aware proposal loop ([Bamboo-SMP] Algorithm 1, lines 9-26): one
 * PRMatrix read per proposal gives both the woman and the proposer's rank with her. */
#include "la.h"

#include <assert.h>
#include <stdlib.h>

bb_status bb_la_state_init(bb_la_state *st, int n, bb_error *err) {
  *st = (bb_la_state){.n = n};
  st->partner_rank = malloc((size_t)(n > 0 ? n : 1) * sizeof *st->partner_rank);
  st->next = calloc((size_t)(n > 0 ? n : 1), sizeof *st->next);
  st->husband = malloc((size_t)(n > 0 ? n : 1) * sizeof *st->husband);
  if (!st->partner_rank || !st->next || !st->husband) {
    bb_la_state_free(st);
    return bb_fail(err, BB_ERR_NOMEM, "out of memory for the proposal state of %d men and %d women", n, n);
  }
  for (int w = 0; w < n; w++) st->partner_rank[w] = (uint32_t)n;
  return BB_OK;
}

void bb_la_state_free(bb_la_state *st) {
  free(st->partner_rank);
  free(st->next);
  free(st->husband);
  st->partner_rank = st->next = NULL;
  st->husband = NULL;
}

bb_status bb_la_propose(bb_la_state *st, bb_prrow_fn row, void *ctx, bb_id m, bb_error *err) {
  const uint32_t n = (uint32_t)st->n;
  uint32_t *partner_rank = st->partner_rank, *next = st->next;
  for (;;) {
    uint32_t from = next[m];
    if (from >= n)
      return bb_fail(err, BB_ERR_INPUT, "bb_la_propose: man %u has proposed to every woman (inconsistent state)", m);
    const bb_prnode *first = row(ctx, m, from, err);
    /* The only row sources that fail are GPU copies; a caller whose source fails for
     * another reason (la-seq's time limit) knows it and maps the status itself. */
    if (!first) return BB_ERR_GPU;
    const bb_prnode *p = first, *end = first + (n - from);
    uint32_t held;
    /* Hot loop: rejections. A man only ever moves down his list, and a woman only
     * trades up, so he proposes while she holds someone she ranks better. */
    while ((held = partner_rank[p->woman]) < p->man_rank)
      if (++p == end)
        return bb_fail(err, BB_ERR_INPUT, "bb_la_propose: man %u was rejected by every woman (inconsistent state)", m);
    partner_rank[p->woman] = p->man_rank;
    bb_id displaced = st->husband[p->woman];
    st->husband[p->woman] = m;
    uint32_t taken = (uint32_t)(p - first) + 1;
    next[m] = from + taken;
    st->proposals += taken;
    if (held == n) return BB_OK;
    m = displaced;
  }
}

void bb_la_extract(const bb_la_state *st, bb_id *wife_of) {
  const size_t n = (size_t)st->n;
  for (size_t w = 0; w < n; w++) {
    assert(st->partner_rank[w] < n);
    wife_of[st->husband[w]] = (bb_id)w;
  }
}
