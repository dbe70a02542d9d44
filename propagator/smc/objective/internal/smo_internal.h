/* The objective module's internals: the instance, the lattice of one restriction (its
 * rotations and the edges that generate their poset) and the minimum-weight closure. */
#ifndef BB_SMO_INTERNAL_H
#define BB_SMO_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>

#include "smc_objective.h"

struct bb_smo {
  atomic_int refs;
  int n;
  int32_t *man_choice, *woman_choice; /* n * n, ids by rank */
  int32_t *man_rank, *woman_rank;     /* n * n, ranks by id */
  int64_t *man_weight, *woman_weight; /* n * n, by rank */
  bool monotone;                      /* every weight row non-decreasing in rank: the extremes bound the difference */
};

/* One restriction's lattice. Rotation r is moves rot_start[r] .. rot_start[r + 1] - 1:
 * man move_man[i] leaves the woman at position move_from[i] of his list for the one at
 * move_to[i]. Rotations are numbered in the order one maximal chain eliminated them (a
 * linear extension of the poset). Edge e says rotation edge_before[e] precedes
 * edge_after[e]; their transitive closure is the rotation poset. */
typedef struct smo_lattice {
  int n;
  int32_t *first_pos; /* the man-optimal matching: man m's wife as a position in his list */
  int32_t *last_pos;  /* the woman-optimal one */
  int n_rot, n_moves, n_edges, cap_moves, cap_edges;
  int32_t *rot_start, *move_man, *move_from, *move_to;
  int32_t *edge_before, *edge_after;
} smo_lattice;

/* Builds the lattice of the restriction; BB_SMO_NONE when some man is single in its
 * man-optimal matching. Free with smo_lattice_free (also after a failure). */
bb_smo_result smo_lattice_build(const bb_smo *smo, bb_smo_allowed allowed, smo_lattice *out);
void smo_lattice_free(smo_lattice *lat);
/* Only first_pos and last_pos (the two Gale-Shapley runs, no rotations); the same results. */
bb_smo_result smo_extremes_build(const bb_smo *smo, bb_smo_allowed allowed, smo_lattice *out);

/* The sum over a man-optimal matching of man_sign * man weight + woman_sign * woman
 * weight, and each rotation's change of it when eliminated (delta, n_rot entries). */
int64_t smo_first_weight(const bb_smo *smo, const smo_lattice *lat, int man_sign, int woman_sign);
void smo_rotation_deltas(const bb_smo *smo, const smo_lattice *lat, int man_sign, int woman_sign, int64_t *delta);

/* The least sum of cost over a closed set of rotations (every predecessor of a member is a
 * member; the empty set is closed, so the result is <= 0), by Picard's reduction to a
 * minimum cut and Dinic's max-flow. false when memory runs out. */
bool smo_min_closure(const smo_lattice *lat, const int64_t *cost, int64_t *out);

#endif
