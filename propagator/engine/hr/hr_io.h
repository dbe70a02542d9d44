/* SMI/HR instance files (docs/formats.md, "Incomplete lists and capacities").
 *
 * Text: a header line `smi N1 N2` or `hr NR NH`, then one line per man/resident and one per
 * woman/hospital, each a list of ids of the other side (an empty line is an empty list);
 * a hospital's line starts with its capacity, `CAP: id id ...`. Binary (magic "BBHRCSR1"):
 * CSR offsets and ids of both sides, then the capacities. Reading validates everything and
 * reports the first problem as "FILE:LINE: ..." (text) or "FILE: ..." (binary). */
#ifndef BB_HR_IO_H
#define BB_HR_IO_H

#include "hr.h"

#ifdef __cplusplus
extern "C" {
#endif

bb_status bb_hr_read(const char *path, bb_hr **out, bb_error *err);
bb_status bb_hr_write_text(const bb_hr *inst, const char *path, bb_error *err);
bb_status bb_hr_write_binary(const bb_hr *inst, const char *path, bb_error *err);
/* An instance file of either family, told apart by its first bytes: instance_any.h. */

#ifdef __cplusplus
}
#endif
#endif
