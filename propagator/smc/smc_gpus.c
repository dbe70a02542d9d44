/* The GPU devices the constraint's parallel path spreads its search threads over (smc_tuning.h:
 * bb_smc_set_gpus, fzn-bamboo's --gpus). The list is process-wide and set before search; each
 * search thread takes its entry on its first GPU propagation, round-robin from one atomic
 * counter, and keeps it (Gecode's workers are long-lived): so -p 4 over two entries puts two
 * threads on each. An entry, not a device id, names the copy of a constraint's pair matrix a
 * thread uses (bb_smc_accel_slot): "0,0" makes two copies on device 0, which is how the
 * multi-device code runs on a machine with one GPU. */
#include "smc_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(BB_SMC_MAX_GPUS == BB_SMC_MAX_GPU_ENTRIES, "one accel slot per list entry");

static int gpu_list[BB_SMC_MAX_GPU_ENTRIES] = {0};
static atomic_int gpu_count = 1;
static atomic_int next_ticket;          /* threads that took an entry since the list was set */
static atomic_int generation;           /* bumped by bb_smc_set_gpus: a thread's old entry lapses */
static _Thread_local int my_entry = -1; /* this thread's entry, taken under `my_generation` */
static _Thread_local int my_generation = -1;

int bb_smc_gpu_entry_for(int ticket, int entries) { return entries > 0 && ticket >= 0 ? ticket % entries : 0; }

bb_status bb_smc_set_gpus(const int *devices, int count, bb_error *err) {
  if (count < 1 || count > BB_SMC_MAX_GPU_ENTRIES)
    return bb_fail(err, BB_ERR_ARG, "%d GPU entries: the list holds 1 to %d", count, BB_SMC_MAX_GPU_ENTRIES);
  for (int k = 0; k < count; k++)
    if (devices[k] < 0 || devices[k] > BB_SMC_MAX_GPU_ID)
      return bb_fail(err, BB_ERR_ARG, "GPU entry %d is device %d: a device id is 0 to %d", k + 1, devices[k],
                     BB_SMC_MAX_GPU_ID);
  for (int k = 0; k < count; k++) gpu_list[k] = devices[k];
  atomic_store(&gpu_count, count);
  atomic_store(&next_ticket, 0);
  atomic_fetch_add(&generation, 1);
  return BB_OK;
}

int bb_smc_gpus(int *devices, int max) {
  int count = atomic_load(&gpu_count);
  for (int k = 0; k < count && k < max; k++) devices[k] = gpu_list[k];
  return count;
}

int bb_smc_gpu_threads(void) { return atomic_load(&next_ticket); }

bb_status bb_smc_parse_gpus(const char *text, int *devices, int *count, bb_error *err) {
  *count = 0;
  const char *s = text;
  if (!*s) return bb_fail(err, BB_ERR_ARG, "an empty GPU list (want device ids such as 0,1)");
  for (;;) {
    if (*count == BB_SMC_MAX_GPU_ENTRIES)
      return bb_fail(err, BB_ERR_ARG, "GPU list '%s' has more than %d entries", text, BB_SMC_MAX_GPU_ENTRIES);
    if (*s < '0' || *s > '9')
      return bb_fail(err, BB_ERR_ARG, "GPU list '%s': entry %d is not a device id (0 to %d)", text, *count + 1,
                     BB_SMC_MAX_GPU_ID);
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || v > BB_SMC_MAX_GPU_ID)
      return bb_fail(err, BB_ERR_ARG, "GPU list '%s': entry %d is above the largest device id %d", text, *count + 1,
                     BB_SMC_MAX_GPU_ID);
    devices[(*count)++] = (int)v;
    if (!*end) return BB_OK;
    if (*end != ',' || !end[1])
      return bb_fail(err, BB_ERR_ARG, "GPU list '%s': expected a comma-separated list of device ids", text);
    s = end + 1;
  }
}

int bb_smc_gpu_entry(void) {
  int gen = atomic_load_explicit(&generation, memory_order_acquire);
  if (my_generation != gen) {
    my_entry = bb_smc_gpu_entry_for(atomic_fetch_add(&next_ticket, 1), atomic_load(&gpu_count));
    my_generation = gen;
  }
  return my_entry;
}

int bb_smc_gpu_entry_if_taken(void) {
  return my_generation == atomic_load_explicit(&generation, memory_order_acquire) ? my_entry : -1;
}

int bb_smc_gpu_device_of(int entry) { return entry >= 0 && entry < atomic_load(&gpu_count) ? gpu_list[entry] : 0; }
