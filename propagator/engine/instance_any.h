/* An instance file of any family (docs/formats.md): complete lists (instance_io.h),
 * incomplete lists and capacities (hr_io.h), couples (hrc_io.h) or ties (ties_io.h), told apart by the first
 * bytes. The file is opened once, so standard input, a FIFO or a process substitution reads
 * as well as a regular file. */
#ifndef BB_INSTANCE_ANY_H
#define BB_INSTANCE_ANY_H

#include "hr.h"
#include "hrc.h"
#include "instance.h"
#include "io_reader.h"
#include "ties.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A complete instance goes to *complete, an SMI/HR one to *incomplete; the other stays NULL.
 * With complete == NULL only SMI/HR files are accepted. */
bb_status bb_read_any_instance(const char *path, bb_instance **complete, bb_hr **incomplete, bb_error *err);
/* The same from an open reader (io_reader.h), as the fuzzer feeds it. */
bb_status bb_read_any_from(reader *r, bb_instance **complete, bb_hr **incomplete, bb_error *err);

/* Every family: an HRC file goes to *couples, and exactly one of the three is set on success.
 * `deadline` (a bb_now() time, 0 = none) bounds the reading: BB_ERR_TIMEOUT once it passes,
 * so that a time limit counts the input as well as the solve. */
bb_status bb_read_any_kind(const char *path, double deadline, bb_instance **complete, bb_hr **incomplete,
                           bb_hrc **couples, bb_error *err);

/* Every family and ties: an SMTI/HRT file goes to *ties (ties_io.h); the functions above
 * refuse one with a message naming docs/ties.md. */
bb_status bb_read_any_with_ties(const char *path, double deadline, bb_instance **complete, bb_hr **incomplete,
                                bb_hrc **couples, bb_ties **ties, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
