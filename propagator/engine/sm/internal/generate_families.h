/* The instance families with many stable matchings (sm_generate_families.c),
 * called by bb_generate for BB_GEN_LATIN and BB_GEN_IRVING_LEATHER. */
#ifndef BB_GENERATE_FAMILIES_H
#define BB_GENERATE_FAMILIES_H

#include "generate.h"

/* Fills inst's lists (inst->n == n, checked by the caller); `group` is latin's
 * radix. */
bb_status bb_generate_family(bb_gen_kind kind, int n, int group, bb_instance *inst, bb_error *err);

#endif
