/* bamboo's lists in the form its upload reads, so that fewer bytes cross the bus: both
 * sides' ids packed into the fewest bits that hold n - 1 (at most 16, so n <= 65,536; 15 at n = 30,000, 14 at 10,000),
 * each row from a 16-bit boundary, in pinned (page-locked) host memory, made once per instance.
 *
 * From there the upload is a DMA of at most 4n^2 bytes with no host work: the copy engine moves the
 * chunks while the GPU builds the rank matrix and the PRMatrix from the chunks already there
 * (cuda/gpu_overlap.cu). Without it bamboo reads the instance's 32-bit lists, and host threads
 * narrow each chunk into pinned buffers on the way (8n^2 bytes read from host memory per run).
 * Making this form costs a pass over the lists and the pinning of up to 4n^2 bytes; `bamboo-smp
 * bench --pinned` times it apart from the runs (docs/engine.md, "Upload"). */
#ifndef BB_GPU_LISTS_H
#define BB_GPU_LISTS_H

#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bb_gpu_lists bb_gpu_lists;

/* Packs both sides of `inst` into new pinned host memory with `threads` threads (0 = all
 * CPUs). BB_ERR_ARG when n > 65,536 (ids do not fit 16 bits), BB_ERR_NO_GPU without CUDA or a
 * device, BB_ERR_NOMEM when the pinned memory cannot be had. The result remembers `inst`'s list
 * pointers: bamboo uses it only for an instance with those very lists (bb_solve_opts.gpu_lists). */
bb_status bb_gpu_lists_prepare(const bb_instance *inst, int threads, bb_gpu_lists **out, bb_error *err);
void bb_gpu_lists_free(bb_gpu_lists *lists); /* accepts NULL */

#ifdef __cplusplus
}
#endif
#endif
