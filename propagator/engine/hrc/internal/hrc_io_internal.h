/* Internal to the HRC formats: the binary magic and the binary reader (hrc_io_bin.c), which
 * hrc_io.c's sniffing hands a file to. */
#ifndef BB_HRC_IO_INTERNAL_H
#define BB_HRC_IO_INTERNAL_H

#include "hrc.h"
#include "io_reader.h"

#define BB_HRC_MAGIC "BBHRCPL1"
/* Version 1: strict lists. Version 2 appends the hospitals' ranks (ties), one word an entry. */
#define BB_HRC_VERSION 2u
#define BB_HRC_HEADER_BYTES 48

bb_status bb_hrc_read_binary(reader *r, bb_hrc **out, bb_error *err);

#endif
