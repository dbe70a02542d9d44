/* Internal to the SMI/HR modules (hr_*.c): the ranked view the solvers read, and the posts
 * (their encoding, which the GPU shares, is public: hr_posts.h).
 *
 * A resident's list entry becomes a node: the hospital and the rank that hospital gives the
 * resident, packed in 64 bits ([Bamboo-SMP]'s PRMatrix node, for incomplete lists), so that a
 * proposal is one sequential load. An entry the hospital does not reciprocate carries
 * BB_HR_UNRANKED and is skipped.
 *
 * A hospital of capacity c is c posts with the hospital's list (Gusfield and Irving 1.6.5):
 * a resident who ranks h tries h's posts in order, which makes HR an SMI instance whose
 * resident-optimal matching fills every hospital's posts best first. The parallel and GPU
 * solvers work on posts; a post is one 64-bit word (rank << 32 | resident), so that the
 * better of two proposals is simply the smaller word. */
#ifndef BB_HR_INTERNAL_H
#define BB_HR_INTERNAL_H

#include "hr.h"
#include "hr_posts.h"

/* For every resident entry e, nodes[e] = (hospital, its rank of the resident); and, when
 * hosp_rank is not NULL, for every hospital entry f, hosp_rank[f] = the rank of that hospital
 * in the resident's list, or -1 if the resident does not list it. O(entries) time by a
 * transpose of the residents' lists; `threads` 0 = all CPUs. */
bb_status bb_hr_rank_pairs(const bb_hr *inst, int threads, bb_hr_node *nodes, int32_t *hosp_rank, bb_error *err);

/* Resident r's list entry e as a node, from the ranked view or, without one, by a scan. */
static inline bb_hr_node bb_hr_node_at(const bb_hr *inst, const bb_hr_node *nodes, uint32_t r, uint32_t e) {
  if (nodes) return nodes[e];
  uint32_t h = inst->res_list[e], first = inst->hosp_start[h], last = inst->hosp_start[h + 1];
  for (uint32_t f = first; f < last; f++)
    if (inst->hosp_list[f] == r) return bb_hr_make_node(h, f - first);
  return bb_hr_make_node(h, BB_HR_UNRANKED);
}

/* The posts a hospital can fill: its capacity, but never more than the residents it lists. */
static inline uint32_t bb_hr_posts_of(const bb_hr *inst, int h) {
  uint32_t listed = inst->hosp_start[h + 1] - inst->hosp_start[h];
  uint32_t cap = inst->capacity[h] < 0 ? 0 : (uint32_t)inst->capacity[h];
  return cap < listed ? cap : listed;
}

/* post_start[h] = the first post of hospital h (n_hospitals + 1 entries); returns the total. */
uint32_t bb_hr_post_starts(const bb_hr *inst, uint32_t *post_start);

/* Reads the assignment off the posts: assigned[r] = hospital or BB_HR_NONE. */
void bb_hr_assign_from_posts(const bb_hr *inst, const uint32_t *post_start, const uint64_t *posts, int32_t *assigned);

/* The algorithms (hr_gs.c, hr_par.c, hr_solve.c for the GPU). `deadline` is an absolute
 * bb_now() time (0 = none): past it they stop with BB_ERR_TIMEOUT. */
bb_status bb_hr_gs_residents(const bb_hr *inst, const bb_hr_node *nodes, double deadline, int32_t *assigned,
                             bb_solve_stats *stats, bb_error *err);
bb_status bb_hr_gs_hospitals(const bb_hr *inst, const int32_t *hosp_rank, double deadline, int32_t *assigned,
                             bb_solve_stats *stats, bb_error *err);
bb_status bb_hr_mw_par(const bb_hr *inst, const bb_hr_node *nodes, int threads, double deadline, int32_t *assigned,
                       bb_solve_stats *stats, bb_error *err);
/* The sequential end of a chain-based run (the GPU's tail): runs the chains of
 * residents[0..count) on plain post words, each from its cursor (entry << 32 | post). With
 * nodes NULL (the ranked view lives on the GPU only) a hospital's rank of the resident is
 * found by scanning its list: the tail makes few proposals, usually, but one chain may make
 * many, so it reads the clock like the other loops and stops with BB_ERR_TIMEOUT past
 * `deadline` (0 = none). *proposals counts what it made either way. */
bb_status bb_hr_finish_chains(const bb_hr *inst, const bb_hr_node *nodes, const uint32_t *post_start, uint64_t *posts,
                              uint64_t *cursor, const uint32_t *residents, int count, double deadline,
                              uint64_t *proposals, bb_error *err);

#endif
