/* Stable Marriage on complete lists, from the definition (bth_solutions.h says what the
 * harness is): random instances, every stable matching by brute force, and the extended
 * Gale-Shapley lists computed the textbook way on plain lists. Preferences are 0-based
 * row-major: pm[i*n+k] is man i's k-th choice, pw[j*n+k] woman j's. */
#ifndef BTH_SM_H
#define BTH_SM_H

#include "bth_solutions.h"

#include <stdbool.h>
#include <stdint.h>

enum { BTH_SM_BRUTE_MAX = 10 }; /* brute force enumerates n! assignments */

/* Uniformly random complete lists (n <= 256): for each person, men's row then women's row. */
void bth_sm_random(int n, uint64_t *rng, int *pm, int *pw);
/* Position of q in p's list (-1 if absent). */
int bth_sm_rank(const int *prefs, int n, int p, int q);
/* Stable against the FULL lists (a forbidden pair can still block); wife[i] = man i's woman. */
bool bth_sm_stable(const int *pm, const int *pw, int n, const int *wife);
/* Every stable matching that uses only allowed pairs (allowed[i*n+j]: man i with woman j),
 * as wife rows (width n) in lexicographic order; n <= BTH_SM_BRUTE_MAX. */
void bth_sm_brute(const int *pm, const int *pw, int n, const bool *allowed, bth_solutions *out);
/* Stable within the allowed pairs: no ALLOWED pair blocks (the restricted instance's
 * stability; with every pair allowed, bth_sm_stable). */
bool bth_sm_stable_within(const int *pm, const int *pw, int n, const bool *allowed, const int *wife);
/* Every perfect matching of allowed pairs that is stable within them (the restricted
 * instance's perfect stable matchings), as bth_sm_brute's rows. */
void bth_sm_brute_within(const int *pm, const int *pw, int n, const bool *allowed, bth_solutions *out);
/* Extended Gale-Shapley ([Travasci 2025] Algorithm 1) with `prop` proposing: on return keep[p*n+q]
 * says whether q is still on proposer p's list, keep_other[q*n+p] the same for receivers. */
void bth_sm_extended_gs(const int *prop, const int *recv, int n, bool *keep, bool *keep_other);
/* The lists after the root propagation as allowed pairs: MGS-lists, or with gs_lists their
 * intersection with the WGS-lists (the GS-lists). */
void bth_sm_gs_lists(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed);
/* The fixpoint of the constraint's three rules (smc.h: stability, men's and with gs_lists
 * women's; marriage; channelling, one matrix for both sides), computed naively (O(n^4)) on
 * allowed; false if someone's list empties. */
bool bth_sm_rule_fixpoint(const int *pm, const int *pw, int n, bool gs_lists, bool *allowed);

#endif
