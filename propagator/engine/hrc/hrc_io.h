/* HRC instance files (docs/formats.md, "Hospitals/Residents with Couples").
 *
 * Text: a header line `hrc NR NH NC`, then one line per couple `R1 R2: H1 H2 H1 H2 ...` (its
 * members, then its joint list as pairs), one line per resident (a single's list of
 * hospitals; a couple member's line is empty or '-'), one line per hospital `CAP: r r ...`.
 * A hospital's list may tie residents as bracketed groups (`CAP: 2 [0 1]`), no other list.
 * Binary (magic "BBHRCPL1"): the same arrays as bb_hrc, version 2 with hosp_rank after them.
 * Reading validates everything and reports the first problem as "FILE:LINE: ..." (text) or
 * "FILE: ..." (binary). */
#ifndef BB_HRC_IO_H
#define BB_HRC_IO_H

#include <stdbool.h>

#include "hrc.h"
#include "io_reader.h"

#ifdef __cplusplus
extern "C" {
#endif

bb_status bb_hrc_read(const char *path, bb_hrc **out, bb_error *err);
/* Whether the buffered first bytes of an open reader are an HRC file (binary magic, or a
 * first token "hrc" past blank and comment lines); and the reader over it. */
bool bb_hrc_sniff(const reader *r);
bb_status bb_hrc_read_from(reader *r, bb_hrc **out, bb_error *err);
bb_status bb_hrc_write_text(const bb_hrc *inst, const char *path, bb_error *err);
bb_status bb_hrc_write_binary(const bb_hrc *inst, const char *path, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
