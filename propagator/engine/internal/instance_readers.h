/* Internal to the engine: each family's reader over an open base reader (io_reader.h), so
 * that instance_any.c can tell the families apart from the first bytes and hand the file on. */
#ifndef BB_INSTANCE_READERS_H
#define BB_INSTANCE_READERS_H

#include <stdbool.h>

#include "hr.h"
#include "instance.h"
#include "io_reader.h"

/* sm/sm_instance_io.c: a complete instance (format told by the first bytes). */
bb_status bb_instance_read_from(reader *r, bb_instance **out, bb_error *err);
/* hr/hr_io.c: whether the buffered first bytes are an SMI/HR file (the binary magic, or a
 * first token "smi" / "hr"); and the SMI/HR reader, which refuses anything else. */
bool bb_hr_sniff(const reader *r);
bb_status bb_hr_read_from(reader *r, bb_hr **out, bb_error *err);

#endif
