/* Hospitals/Residents on the engine's bb_hr (hr.h), from the definition (bth_solutions.h
 * says what the harness is): random small instances (one-sided entries, empty lists,
 * capacity 0), stability straight from the definition, and every stable matching by brute
 * force over every assignment. */
#ifndef BTH_HR_H
#define BTH_HR_H

#include "bth_solutions.h"
#include "hr.h"

#include <stdbool.h>
#include <stdint.h>

enum { BTH_HR_BRUTE_MAX = 16 }; /* residents brute force enumerates */

/* Each resident lists a random subset of the hospitals in random order, each hospital
 * likewise (mostly everybody), so some entries are one-sided; capacities 0..max_cap (1
 * for SMI). nr, nh <= 64. */
bb_hr *bth_hr_random(bool smi, int nr, int nh, int max_cap, uint64_t *rng);
/* Position of id in who's list (start/list: the residents' or the hospitals' side), or -1. */
int bth_hr_pos(const uint32_t *start, const bb_id *list, int who, int id);
/* assigned[r]: resident r's hospital or BB_HR_NONE. 1 if a matching of acceptable pairs
 * within capacities with no blocking pair. */
int bth_hr_stable(const bb_hr *inst, const int32_t *assigned);
/* Every stable matching (residents' choices among their listed hospitals, or none, in
 * every combination). Writes up to max of them to out[k * nr + r]; returns the count
 * (which may exceed max). nr <= BTH_HR_BRUTE_MAX. */
int bth_hr_all_stable(const bb_hr *inst, int32_t *out, int max);

#endif
