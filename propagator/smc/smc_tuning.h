/* Process-wide settings of the Stable Marriage constraint's paths (smc.h is the contract with
 * a host solver): the parallel path's tail, whether a GPU is there, the hybrid's calibration
 * and the root batch. Every setting holds for every constraint of the process; tests,
 * benchmarks and fzn-bamboo's options set them before posting. */
#ifndef BB_SMC_TUNING_H
#define BB_SMC_TUNING_H

#include "smc.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The parallel path's tail: the engine's chains park once at most this many are running, and
 * every proposer still unsettled after that round (parked, or displaced by another's cap) is
 * finished on the CPU; 0: the GPU runs rounds until none is left. Process-wide; default 32
 * (smc_hybrid.c). */
void bb_smc_set_tail_threshold(int threshold);
int bb_smc_tail_threshold(void);

/* Whether the GPU path can run in this process (a CUDA build and a device); if not,
 * bb_smc_gpu_why says why. Probed once. */
bool bb_smc_gpu_available(void);
const char *bb_smc_gpu_why(void);

/* The GPU devices the parallel path's search threads spread over (fzn-bamboo's --gpus;
 * smc_gpus.c). Each search thread, on its first GPU propagation, takes the next entry of the list
 * round-robin (thread t of the process gets entry t mod count) and keeps it; each entry has its
 * own copy of a constraint's pair matrix, on its device, so an id listed twice ("0,0") gives two
 * copies on one GPU. An entry whose device cannot be opened falls back to the CPU with the usual
 * warning, for the threads on that entry. Default {0}. Set before search: threads re-take their
 * entry when the list is set again. */
#define BB_SMC_MAX_GPU_ENTRIES 8
#define BB_SMC_MAX_GPU_ID 1023
bb_status bb_smc_set_gpus(const int *devices, int count, bb_error *err);
int bb_smc_gpus(int *devices, int max); /* copies up to max entries; returns the list's length */
/* "0,1,0" -> devices[] (BB_SMC_MAX_GPU_ENTRIES of room) and *count; BB_ERR_ARG naming the problem. */
bb_status bb_smc_parse_gpus(const char *text, int *devices, int *count, bb_error *err);
/* The entry of the thread holding ticket t (0, 1, ... in the order threads took one). */
int bb_smc_gpu_entry_for(int ticket, int entries);
/* How many threads took an entry since the list was last set (tests, -v). */
int bb_smc_gpu_threads(void);

/* The hybrid's thresholds (smc_hybrid.c): the GPU is taken when n >= min_n and at least
 * min_free proposers are free or min_modified variables changed. Read once per process from the
 * calibration file of this
 * GPU model, else built-in defaults; `source` says which. */
typedef struct bb_smc_calibration {
  int min_n, min_free;
  int min_modified; /* ... or at least this many variables changed ([Travasci 2025] Figure 4) */
  /* A propagation the hybrid left on the CPU moves to the GPU once its rules have made this
   * many steps (channel removals + bound updates): one free proposer can start a cascade
   * over thousands of variables, which no count known beforehand predicts. */
  int handover;
  /* The same for a CPU propagation that runs as batches (smc_delta.c, the default): a batch
   * writes nothing until its round ends, so one past the budget hands its events over whole.
   * A batch's steps (removals channelled, bounds cut) are cheaper than the event rules', hence a
   * budget of its own (a calibration file written before the batches keeps `handover`). */
  int batch_handover;
  /* ... plus this many steps per value of the changed variables' old domains (the run's
   * old_domain): the work a propagation without a cascade does is about what its changed
   * domains lost, so the budget grows with what it touches, and a cascade (steps far beyond
   * that) is recognised early whether one proposer or hundreds started it. */
  int handover_per_value;
  /* A batch past its budget hands over only while it has touched fewer than this many
   * variables per 1000 steps; at or above it, it finishes on the CPU (0: always hands over).
   * Many variables a step is a cascade of short moves that the CPU ends soon and the GPU
   * takes several rounds over; few is a long one the GPU takes in bulk (docs/constraint.md). */
  int handover_spread;
  char source[1024];
} bb_smc_calibration;
bb_smc_calibration bb_smc_get_calibration(void);
/* For tests: replaces the thresholds (`handover` for both budgets; handover_per_value 0: the
 * budget is `handover` alone), and lets BB_SMC_PATH_AUTO use `engine` (GPU or EMULATED) as its
 * parallel path even without a GPU. */
void bb_smc_set_calibration(int min_n, int min_free, int min_modified, int handover, bb_smc_path engine);
/* For tests, after bb_smc_set_calibration: the handover budget's steps per old domain value. */
void bb_smc_set_handover_per_value(int steps);
/* ... and the batches' spread (handover_spread, per 1000 steps; bb_smc_set_calibration sets 0). */
void bb_smc_set_handover_spread(int per_mille);
/* The calibration file at `path` (docs/formats.md) over *c: each `key integer` line sets its
 * key, the keys it lacks keep their values, `source` is left alone. A missing file is no error
 * (*found false, *c untouched). BB_ERR_IO when it is not a regular file (a FIFO, /dev/zero, a
 * folder: refused at once, never waited on) or cannot be read; BB_ERR_INPUT, "PATH:LINE: ...",
 * for a known key whose value is not an integer or does not fit an int, a line over 255
 * bytes, a NUL byte, or more than 64 KiB in all. *c may be partly set on failure. */
bb_status bb_smc_calibration_read(const char *path, bb_smc_calibration *c, bool *found, bb_error *err);
/* fzn-bamboo --calibrate, before it measures (a minute): BB_ERR_IO, "cannot write PATH: ...",
 * when `path` exists and is not a regular file, so that /dev/full fails at once. */
bb_status bb_smc_calibration_check_target(const char *path, bb_error *err);
/* Writes c's thresholds to `path` (a regular file, created if missing) for the GPU `model`;
 * BB_ERR_IO when it cannot, a failed flush or close included (a full disk). */
bb_status bb_smc_calibration_write(const char *path, const bb_smc_calibration *c, const char *model, bb_error *err);
/* Where the calibration of this machine's GPU lives; false without a GPU (or a HOME). */
bool bb_smc_calibration_path(char *out, size_t len);
/* The model name of the GPU the calibration is for ("NVIDIA H100 80GB HBM3"), the device the
 * parallel path uses; false (and "") without a usable GPU. */
bool bb_smc_gpu_model(char *out, size_t len);
/* The parallel path packs ids and ranks into 16 bits, and counts the values it reports in
 * 32 bits (at most n^2 of them): larger constraints stay on the CPU. */
#define BB_SMC_GPU_MAX_N 46340

/* For tests and measurements: the first propagation of a fresh node runs as one batch
 * (smc_root.c, the default) or through the event rules like every later one. Both give the
 * same domains. Process-wide. */
void bb_smc_set_root_batch(bool on);
/* Likewise for every later propagation on the CPU path: as batches (smc_delta.c, the default:
 * local state, one write-back per changed variable and round) or through the event rules.
 * Both give the same domains. Process-wide. */
void bb_smc_set_delta_batch(bool on);
bool bb_smc_delta_batch(void);

#ifdef __cplusplus
}
#endif
#endif
