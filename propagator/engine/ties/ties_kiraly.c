/* Kiraly's approximation for MAX-SMTI ("Linear time local approximation algorithm for maximum
 * stable marriage", Algorithms 6 (2013)), and MAX-HRT through cloning.
 *
 * Men propose down their lists a tie at a time. Within his current tie a man proposes first to
 * a "maiden" (a woman never engaged), so that a man with a choice leaves the others free. A man
 * who exhausts his list as a "lad" is promoted to "bachelor" and goes through it once more; a
 * bachelor who exhausts it stays single. A woman accepts a proposal when she is free, when she
 * strictly prefers the proposer, when she is indifferent and the proposer is a bachelor while
 * her fiance is a lad, or when her fiance is "uncertain" (he still has a maiden in his current
 * tie, so he will find another partner as good: she is "flighty"); a man rejected for that last
 * reason keeps her in his tie, every other rejection deletes her.
 *
 * Why a flighty woman may take a worse man and the matching still ends weakly stable: a man
 * proposes to a non-maiden only when his tie has no maiden left, and maidens never come back,
 * so an uncertain fiance proposed to her while she was a maiden: he is her first, and while he
 * is uncertain she accepts everyone, so nobody has deleted her yet (the assert below). Her
 * later fiances are certain, so from her first deletion on her partners only get better, and
 * every deletion happens while she holds a man she likes at least as well as the one deleting
 * her: the Gale-Shapley argument. The 2/3 bound is tested against brute force
 * (tests/test_ties.c).
 *
 * HRT: hospital h with capacity c is c women with h's list; a resident ranks all of them where
 * he ranks h. Weakly stable matchings of the clone and of the original correspond with equal
 * sizes (docs/ties.md), so the ratio carries over; the men's lists grow c-fold. */
#include <assert.h>
#include <stdlib.h>

#include "ties.h"
#include "ties_algos.h"

typedef struct entry {
  uint32_t woman, own, theirs; /* the woman (a hospital's post), his rank of her, hers of him */
} entry;

typedef struct kiraly {
  uint32_t n_men, n_women;
  uint32_t *start; /* n_men + 1 into list */
  entry *list;
  uint32_t *tie_begin, *tie_end, *left_end; /* current tie; its remaining women list[tie_begin .. left_end) */
  uint32_t *maiden_from;                    /* no maiden in list[tie_begin .. maiden_from) */
  uint8_t *phase;                           /* 0 lad, 1 bachelor, 2 single for good */
  int64_t *fiance;                          /* n_women: the man, or -1 */
  uint32_t *fiance_rank, *fiance_pos;       /* her rank of him; his entry of her */
  uint8_t *ever;                            /* n_women: was engaged once (not a maiden) */
  uint8_t *rejected_any;                    /* n_women: a man deleted her from his list */
  uint32_t *queue;
} kiraly;

static void start_tie(kiraly *k, uint32_t m, uint32_t from) {
  uint32_t end = from;
  while (end < k->start[m + 1] && k->list[end].own == k->list[from].own) end++;
  k->tie_begin[m] = from, k->tie_end[m] = end, k->left_end[m] = end, k->maiden_from[m] = from;
}

/* The first maiden among m's remaining women of his tie, or UINT32_MAX. Entries before
 * maiden_from are known not to be maidens, and maidens never come back, so the cursor moves
 * forward (a deletion moves it back one step at most): a long tie (a hospital's cloned posts)
 * is not scanned again at every proposal. */
static uint32_t maiden_in_tie(kiraly *k, uint32_t m) {
  uint32_t e = k->maiden_from[m];
  while (e < k->left_end[m] && k->ever[k->list[e].woman]) e++;
  k->maiden_from[m] = e;
  return e < k->left_end[m] ? e : UINT32_MAX;
}

static void swap_entries(kiraly *k, uint32_t a, uint32_t b) {
  entry t = k->list[a];
  k->list[a] = k->list[b];
  k->list[b] = t;
}

/* Drops entry e from m's remaining women (m is free, so no fiance_pos points into his list),
 * keeping the entries before maiden_from free of maidens. */
static void delete_at(kiraly *k, uint32_t m, uint32_t e) {
  swap_entries(k, e, --k->left_end[m]);
  if (k->maiden_from[m] > k->left_end[m]) k->maiden_from[m] = k->left_end[m];
  if (e < k->maiden_from[m] && !k->ever[k->list[e].woman]) /* a maiden moved below the cursor */
    swap_entries(k, e, --k->maiden_from[m]);
}

static void run(kiraly *k) {
  uint32_t head = 0, tail = 0;
  for (uint32_t m = 0; m < k->n_men; m++) {
    k->phase[m] = 0;
    start_tie(k, m, k->start[m]);
    k->queue[tail++] = m;
  }
  uint32_t slots = k->n_men + 1;
  while (head != tail) {
    uint32_t m = k->queue[head];
    head = (head + 1) % slots;
    for (;;) {
      if (k->left_end[m] == k->tie_begin[m]) { /* the tie is used up: the next, or a new pass */
        uint32_t next = k->tie_end[m];
        if (next == k->start[m + 1]) {
          if (k->phase[m] == 1 || k->start[m] == k->start[m + 1]) {
            k->phase[m] = 2;
            break;
          }
          k->phase[m] = 1;
          next = k->start[m];
        }
        start_tie(k, m, next);
        continue;
      }
      uint32_t e = maiden_in_tie(k, m);
      if (e == UINT32_MAX) e = k->tie_begin[m];
      uint32_t w = k->list[e].woman, mine = k->list[e].theirs;
      int64_t f = k->fiance[w];
      bool accept = f < 0, keeps = false;
      if (!accept) {
        uint32_t theirs = k->fiance_rank[w];
        bool promoted = k->phase[m] == 1 && k->phase[f] == 0;
        accept = mine < theirs || (mine == theirs && promoted);
        if (!accept && maiden_in_tie(k, (uint32_t)f) != UINT32_MAX) { /* she is no maiden herself */
          assert(!k->rejected_any[w]); /* flighty: still with her first fiance (the header says why) */
          accept = keeps = true;
        }
      }
      if (!accept) {
        k->rejected_any[w] = 1;
        delete_at(k, m, e);
        continue;
      }
      if (f >= 0) {
        if (!keeps) k->rejected_any[w] = 1;
        if (!keeps) delete_at(k, (uint32_t)f, k->fiance_pos[w]);
        k->queue[tail] = (uint32_t)f;
        tail = (tail + 1) % slots;
      }
      k->fiance[w] = m, k->fiance_rank[w] = mine, k->fiance_pos[w] = e, k->ever[w] = 1;
      break;
    }
  }
}

bb_status bb_ties_kiraly(const bb_ties *in, int32_t *assigned, bb_error *err) {
  uint32_t nr = (uint32_t)in->n_residents, nh = (uint32_t)in->n_hospitals, er = in->res_start[nr];
  uint32_t *res_other = malloc((er ? er : 1) * sizeof *res_other), *first_post = malloc((nh + 1) * sizeof(uint32_t));
  int32_t *post_hospital = NULL;
  kiraly k = {0};
  bb_status st = !res_other || !first_post ? bb_fail(err, BB_ERR_NOMEM, "out of memory for kiraly")
                                           : bb_ties_mutual_ranks(in, res_other, NULL, err);
  uint64_t entries = 0;
  if (st == BB_OK) {
    first_post[0] = 0;
    for (uint32_t h = 0; h < nh; h++) first_post[h + 1] = first_post[h] + (uint32_t)in->capacity[h];
    for (uint32_t e = 0; e < er; e++)
      if (res_other[e] != BB_TIES_ONE_SIDED) entries += (uint64_t)in->capacity[in->res_list[e]];
    k.n_men = nr, k.n_women = first_post[nh];
    k.start = malloc((nr + 1) * sizeof *k.start);
    k.list = malloc((entries ? entries : 1) * sizeof *k.list);
    k.tie_begin = malloc((nr + 1) * sizeof(uint32_t)), k.tie_end = malloc((nr + 1) * sizeof(uint32_t));
    k.left_end = malloc((nr + 1) * sizeof(uint32_t)), k.phase = malloc(nr + 1);
    k.maiden_from = malloc((nr + 1) * sizeof(uint32_t));
    k.fiance = malloc((k.n_women + 1) * sizeof(int64_t)), k.fiance_rank = malloc((k.n_women + 1) * sizeof(uint32_t));
    k.fiance_pos = malloc((k.n_women + 1) * sizeof(uint32_t)), k.ever = calloc(k.n_women + 1, 1);
    k.rejected_any = calloc(k.n_women + 1, 1);
    k.queue = malloc((nr + 1) * sizeof(uint32_t)), post_hospital = malloc((k.n_women + 1) * sizeof(int32_t));
    if (entries > UINT32_MAX - 1 || !k.start || !k.list || !k.tie_begin || !k.tie_end || !k.left_end ||
        !k.maiden_from || !k.phase || !k.fiance || !k.fiance_rank || !k.fiance_pos || !k.ever || !k.rejected_any ||
        !k.queue || !post_hospital)
      st =
          bb_fail(err, BB_ERR_NOMEM, "kiraly: out of memory for %llu cloned list entries", (unsigned long long)entries);
  }
  if (st == BB_OK) {
    uint32_t n = 0;
    for (uint32_t r = 0; r < nr; r++) {
      k.start[r] = n;
      for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++) {
        bb_id h = in->res_list[e];
        if (res_other[e] == BB_TIES_ONE_SIDED) continue;
        for (uint32_t p = first_post[h]; p < first_post[h + 1]; p++)
          k.list[n++] = (entry){p, in->res_rank[e], res_other[e]};
      }
    }
    k.start[nr] = n;
    for (uint32_t h = 0; h < nh; h++)
      for (uint32_t p = first_post[h]; p < first_post[h + 1]; p++) post_hospital[p] = (int32_t)h;
    for (uint32_t w = 0; w < k.n_women; w++) k.fiance[w] = -1;
    run(&k);
    for (uint32_t r = 0; r < nr; r++) assigned[r] = BB_TIES_NONE;
    for (uint32_t w = 0; w < k.n_women; w++)
      if (k.fiance[w] >= 0) assigned[k.fiance[w]] = post_hospital[w];
  }
  free(res_other), free(first_post), free(post_hospital), free(k.start), free(k.list), free(k.tie_begin);
  free(k.tie_end), free(k.left_end), free(k.maiden_from), free(k.phase), free(k.fiance), free(k.fiance_rank);
  free(k.fiance_pos);
  free(k.ever), free(k.rejected_any), free(k.queue);
  return st;
}
