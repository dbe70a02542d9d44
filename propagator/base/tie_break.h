/* Internal: breaking the ties of preference lists by seeded lotteries, shared by the engine's
 * tie-breaking deferred acceptance (SMTI/HRT in engine/ties, SFAS in engine/hrc).
 *
 * Each owner's list keeps its ranks; within one rank its entries are ordered by a lottery number
 * drawn from (seed, owner, id). With single tie-breaking the owner takes no part in the draw, so
 * every owner of the side orders its ties by one shared order of the ids; with multiple
 * tie-breaking every owner draws its own. Equal lottery numbers, which distinct ids of one list
 * never draw (the draw is one-to-one in the id), would fall back to the smaller id.
 *
 * The draw's constants are parameters because each engine's seeds are documented to reproduce
 * their matchings: the lottery of id at owner p is two splitmix64 steps from
 *   seed ^ (multiple ? (p + 1) << owner_shift : 0) ^ id * id_stride. */
#ifndef BB_TIE_BREAK_H
#define BB_TIE_BREAK_H

#include <stdbool.h>
#include <stdint.h>

#include "bb_common.h"

typedef struct bb_tie_lottery {
  uint64_t seed;        /* the caller's seed, already salted with anything that tells its sides apart */
  bool multiple;        /* multiple tie-breaking: every owner its own order */
  unsigned owner_shift; /* where the owner's number enters the draw (multiple only) */
  uint64_t id_stride;   /* the id's multiplier in the draw */
} bb_tie_lottery;

/* The lottery number of `id` in the order of `owner`. */
uint64_t bb_tie_lottery_draw(const bb_tie_lottery *lottery, uint32_t owner, bb_id id);

/* Breaks the ties of count owners' lists: owner p's entries are list[start[p] .. start[p + 1]),
 * rank[e] the rank of entry e (ties share one). Writes each list ordered by rank, then lottery
 * number, into out (out's layout is start's; out may not be list). false when out of memory. */
bool bb_tie_break_lists(const uint32_t *start, const bb_id *list, const uint32_t *rank, int count,
                        const bb_tie_lottery *lottery, bb_id *out);

#endif
