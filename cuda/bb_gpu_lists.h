/* bamboo's lists in the 16-bit pinned form its upload reads (what and why: the engine's
 * gpu_lists.h, which makes them from an instance through these). */
#ifndef BB_GPU_LISTS_PACK_H
#define BB_GPU_LISTS_PACK_H

#include "bb_gpu_args.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu_lists bb_gpu_lists;

/* Packs both sides of `inst` into new pinned host memory with `threads` threads (0 = all
 * CPUs). BB_ERR_ARG when n > 65,536 (ids do not fit 16 bits), BB_ERR_NO_GPU without CUDA or a
 * device, BB_ERR_NOMEM when the pinned memory cannot be had. The result remembers `inst`'s list
 * pointers: bamboo uses it only for an instance with those very lists (bb_gpu_opts.gpu_lists). */
bb_status bb_gpu_lists_pack(const bb_gpu_instance *inst, int threads, bb_gpu_lists **out, bb_error *err);
void bb_gpu_lists_release(bb_gpu_lists *lists); /* accepts NULL */

#ifdef __cplusplus
}
#endif
#endif
