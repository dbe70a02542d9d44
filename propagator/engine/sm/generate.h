/* Instance generators ([Bamboo-SMP] section III-A workloads), reproducible from a seed:
 * the same (kind, n, group, seed) gives the same instance whatever the thread count.
 * docs/generators.md states precisely what each kind generates. */
#ifndef BB_GENERATE_H
#define BB_GENERATE_H

#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum bb_gen_kind {
  BB_GEN_PERFECT,   /* distinct first choices: the first round is the answer */
  BB_GEN_SOLO,      /* one collision, then one long sequential rejection chain */
  BB_GEN_CONGESTED, /* every list is 0,1,..,n-1 (random with group size 1) */
  BB_GEN_RANDOM,    /* shared group order, shuffled within groups of size g */
  BB_GEN_UNIFORM,   /* independent uniformly random lists (random with g = n) */
  BB_GEN_LATIN,          /* group-table lists, radix g: many stable matchings */
  BB_GEN_IRVING_LEATHER  /* n = 2^k: Irving and Leather's family (latin with g = 2) */
} bb_gen_kind;

bb_status bb_gen_parse_kind(const char *name, bb_gen_kind *kind, bb_error *err);
const char *bb_gen_kind_name(bb_gen_kind kind);

/* `group` is used by BB_GEN_RANDOM and BB_GEN_LATIN only (1 <= group <= n). `threads` 0 = all CPUs. */
bb_status bb_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads,
                      bb_instance **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
