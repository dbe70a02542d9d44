/* SMTI/HRT instance files (docs/formats.md, "Ties").
 *
 * Text: a header line `smti N1 N2` or `hrt NR NH`, then one line per man/resident and one per
 * woman/hospital, as in the SMI/HR format (a hospital's line starts with `CAP:`, an empty
 * line or '-' is an empty list), except that a tie is a bracketed group of ids: `2 [0 3] 1`
 * ranks 2 first, 0 and 3 equal second, 1 third. Binary (magic "BBTIESL1", version 1): the
 * SMI/HR layout plus a rank per entry. Reading validates everything and reports the first
 * problem as "FILE:LINE: ..." (text) or "FILE: ..." (binary). */
#ifndef BB_TIES_IO_H
#define BB_TIES_IO_H

#include <stdbool.h>

#include "io_reader.h"
#include "ties.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether the buffered first bytes of `r` are a ties file (the magic, or a first token
 * "smti" / "hrt"), and the reader over an open reader (the file is read once). */
bool bb_ties_sniff(const reader *r);
bb_status bb_ties_read_from(reader *r, bb_ties **out, bb_error *err);
bb_status bb_ties_read(const char *path, bb_ties **out, bb_error *err);
bb_status bb_ties_write_text(const bb_ties *inst, const char *path, bb_error *err);
bb_status bb_ties_write_binary(const bb_ties *inst, const char *path, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
