/* What every fuzz target (fzn_fuzz.c, fzn_build_fuzz.c, instance_fuzz.c) gives replay.c,
 * besides LLVMFuzzerTestOneInput: whether an input is accepted, so that the corpus's
 * valid_* files must be and its invalid_* files must not (errors, if any, go to `errors`). */
#ifndef BB_FUZZ_TARGET_H
#define BB_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int fuzz_accepts(const uint8_t *data, size_t size, FILE *errors);

#endif
