/* Instance generators ([Bamboo-SMP] section III-A workloads), reproducible from a seed:
 * the same (kind, n, group, seed) gives the same instance whatever the thread count.
 * docs/generators.md states precisely what each kind generates. */
#ifndef BB_GENERATE_H
#define BB_GENERATE_H

#include "gen_row.h"
#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

bb_status bb_gen_parse_kind(const char *name, bb_gen_kind *kind, bb_error *err);
const char *bb_gen_kind_name(bb_gen_kind kind);

/* `group` is used by BB_GEN_RANDOM and BB_GEN_LATIN only (1 <= group <= n). `threads` 0 = all CPUs. */
bb_status bb_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads, bb_instance **out, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
