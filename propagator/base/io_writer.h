/* The buffered writer shared by the instance writers of the engine (engine/sm/sm_instance_io.c
 * for complete lists, engine/hr/hr_io.c for incomplete lists and capacities,
 * engine/hrc/hrc_io_bin.c for couples), the counterpart of io_reader.h. Every write is
 * checked: the first failure (a full disk) is kept, later writes are dropped, and
 * bb_writer_close reports it with the file's name, as it does a failing fclose or fflush.
 * A writer that fails part way leaves a partial file behind; the message names it. */
#ifndef BB_IO_WRITER_H
#define BB_IO_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bb_common.h"
#include "io_reader.h" /* BB_IO_CHUNK */

typedef struct writer {
  FILE *f;
  const char *name; /* the path as given, for messages */
  int to_stdout;    /* path "-": flushed, not closed */
  char *buf;        /* BB_IO_CHUNK bytes, data is buf[0, len) */
  size_t len;
  int write_errno; /* errno of the first failed write, 0 if none */
} writer;

/* Opens `path` ("-": standard output) with fopen's `mode` ("w" or "wb"). On failure nothing
 * is left open: "cannot open 'PATH' for writing: ..." or "cannot write 'PATH': out of memory". */
bb_status bb_writer_open(writer *w, const char *path, const char *mode, bb_error *err);
/* Flushes, closes (stdout: flushes) and frees; BB_ERR_IO "cannot write 'PATH': ..." when any
 * write, the flush or the close failed. Call it once after every successful open. */
bb_status bb_writer_close(writer *w, bb_error *err);

/* Hands the buffer to the stream (a failure is kept for bb_writer_close). */
void bb_writer_flush(writer *w);
/* The place for `bytes` more bytes (at most BB_IO_CHUNK); the caller adds them to len. */
static inline char *bb_writer_room(writer *w, size_t bytes) {
  if (w->len + bytes > BB_IO_CHUNK) bb_writer_flush(w);
  return w->buf + w->len;
}

/* Text: `s` as it is; `v` in decimal followed by `after` unless it is '\0'. */
void bb_writer_put_text(writer *w, const char *s);
static inline void bb_writer_put_uint(writer *w, uint64_t v, char after) {
  char *p = bb_writer_room(w, 21), tmp[20];
  int len = 0;
  do tmp[len++] = (char)('0' + v % 10), v /= 10;
  while (v);
  for (int k = 0; k < len; k++) p[k] = tmp[len - 1 - k];
  w->len += (size_t)len;
  if (after) w->buf[w->len++] = after;
}

/* Binary, little-endian whatever the host: one 32-bit word, or `count` ids of `width` bytes
 * each (2 or 4; a 2-byte id keeps its low half). */
static inline void bb_writer_put_u32(writer *w, uint32_t v) {
  unsigned char *p = (unsigned char *)bb_writer_room(w, 4);
  for (int b = 0; b < 4; b++) p[b] = (unsigned char)(v >> (8 * b));
  w->len += 4;
}
void bb_writer_put_ids(writer *w, const uint32_t *ids, size_t count, unsigned width);

#endif
