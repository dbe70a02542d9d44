/* An instance file of either family (docs/formats.md): complete lists (instance_io.h) or
 * incomplete lists and capacities (hr_io.h), told apart by the first bytes. */
#ifndef BB_INSTANCE_ANY_H
#define BB_INSTANCE_ANY_H

#include "hr.h"
#include "instance.h"
#include "io_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A complete instance goes to *complete, an SMI/HR one to *incomplete; the other stays NULL.
 * With complete == NULL only SMI/HR files are accepted. */
bb_status bb_read_any_instance(const char *path, bb_instance **complete, bb_hr **incomplete, bb_error *err);
/* The same from an open reader (io_reader.h), as the fuzzer feeds it. */
bb_status bb_read_any_from(reader *r, bb_instance **complete, bb_hr **incomplete, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
