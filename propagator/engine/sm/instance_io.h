/* Instance files. docs/formats.md describes both formats.
 *
 * Text: n, then n lines with the men's lists, then n lines with the women's lists,
 * ids 0-based, separated by blanks; '#' starts a comment running to the end of line.
 * Binary: "BBSMPBIN" magic, little-endian header (version, n, id width 2 or 4 bytes),
 * then the men's rows and the women's rows as raw little-endian ids.
 *
 * Reading validates everything and reports the first problem with its place
 * (line for text, row for binary): a row that is not a permutation, a duplicate id,
 * an id out of range, a wrong row count, a truncated file, n too large for memory. */
#ifndef BB_INSTANCE_IO_H
#define BB_INSTANCE_IO_H

#include "instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads either format (detected from the magic). `path` "-" reads standard input. */
bb_status bb_instance_read(const char *path, bb_instance **out, bb_error *err);
bb_status bb_instance_write_text(const bb_instance *inst, const char *path, bb_error *err);
bb_status bb_instance_write_binary(const bb_instance *inst, const char *path, bb_error *err);

#ifdef __cplusplus
}
#endif
#endif
