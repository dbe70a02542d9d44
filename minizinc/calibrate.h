/* fzn-bamboo --calibrate (calibrate.c): times stable_matching's CPU and GPU paths on this
 * machine and writes the hybrid's thresholds to the calibration file of this GPU model. */
#ifndef FZN_CALIBRATE_H
#define FZN_CALIBRATE_H

#include <stdio.h>

/* Prints the measurements to `out`; returns fzn-bamboo's exit code (1 without a GPU). */
int fzn_calibrate(FILE *out, FILE *errors);

#endif
