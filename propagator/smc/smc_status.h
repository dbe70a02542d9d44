/* The status vocabulary of every stable-matching core (SM/SMI, HR, HRC and the next ones), after
 * Gecode's ModEvent and ExecStatus (gecode/kernel/core.hpp): a host-contract modifier answers
 * failed, unchanged (ME_NONE) or changed, as a view's modification does; a propagation answers
 * failed, at its fixpoint (ES_FIX), changed and not at its fixpoint (ES_NOFIX), subsumed
 * (ES_SUBSUMED: every variable assigned), or out of scratch memory, which is the host's error
 * and never a fixpoint. A core returns the subset its header names. */
#ifndef BB_SMC_STATUS_H
#define BB_SMC_STATUS_H

typedef enum bb_smc_status {
  BB_SMC_FIX = 0,    /* a modifier changed nothing; a propagation is at its fixpoint */
  BB_SMC_FAILED = 1, /* a domain became empty; no stable matching is left in the domains */
  BB_SMC_SOLVED = 2, /* every variable assigned: the domains are a stable matching (subsumed) */
  BB_SMC_NOMEM = 3,  /* scratch memory ran out; the domains are not at the fixpoint and the
                         host must report an error (never treat this as FIX) */
  BB_SMC_CHANGED = 4 /* a modifier shrank the domain; a propagation shrank domains and must
                         run again (ES_NOFIX) */
} bb_smc_status;

#endif
