/* Internal to the SMTI/HRT formats: the binary magic and reader (ties_io_bin.c), which the
 * text reader's sniffing (ties_io.c) hands a file to. */
#ifndef BB_TIES_IO_INTERNAL_H
#define BB_TIES_IO_INTERNAL_H

#include "io_reader.h"
#include "ties.h"

#define BB_TIES_MAGIC "BBTIESL1"
#define BB_TIES_VERSION 1u
#define BB_TIES_HEADER_BYTES 40

bb_status bb_ties_read_binary(reader *r, bb_ties **out, bb_error *err);

#endif
