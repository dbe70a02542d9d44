/* The path a constraint test runs on, from its first argument: none for the CPU, "emulated"
 * for the parallel path on host threads, "gpu" for the GPU (the test is skipped, exit 77,
 * without a usable one). */
#ifndef BB_SMC_PATH_ARG_H
#define BB_SMC_PATH_ARG_H

#include <stdio.h>
#include <string.h>

#include "bb_gpu.h"
#include "smc.h"

/* Sets *path; returns 0, or 77 after printing why when the GPU asked for is not there. */
static inline int smc_path_from_args(int argc, char **argv, bb_smc_path *path) {
  if (argc > 1 && !strcmp(argv[1], "emulated")) *path = BB_SMC_PATH_EMULATED;
  if (argc > 1 && !strcmp(argv[1], "gpu")) {
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) {
      printf("skipped: %s\n", why);
      return 77;
    }
    *path = BB_SMC_PATH_GPU;
  }
  return 0;
}

#endif
