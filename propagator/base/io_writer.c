/* The buffered, checked writer of the instance writers (io_writer.h). */
#define _POSIX_C_SOURCE 200809L
#include "io_writer.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

bb_status bb_writer_open(writer *w, const char *path, const char *mode, bb_error *err) {
  memset(w, 0, sizeof *w);
  w->name = path;
  w->to_stdout = strcmp(path, "-") == 0;
  w->f = w->to_stdout ? stdout : fopen(path, mode);
  if (!w->f) return bb_fail(err, BB_ERR_IO, "cannot open '%s' for writing: %s", path, strerror(errno));
  w->buf = malloc(BB_IO_CHUNK);
  if (!w->buf) {
    if (!w->to_stdout) fclose(w->f);
    w->f = NULL;
    return bb_fail(err, BB_ERR_NOMEM, "cannot write '%s': out of memory", path);
  }
  return BB_OK;
}

void bb_writer_flush(writer *w) {
  assert(w->len <= BB_IO_CHUNK);
  /* After a failure nothing more is written: the file is lost anyway, and the first errno
   * is the one worth reporting. */
  if (w->len && !w->write_errno && fwrite(w->buf, 1, w->len, w->f) != w->len) w->write_errno = errno ? errno : EIO;
  w->len = 0;
}

bb_status bb_writer_close(writer *w, bb_error *err) {
  bb_writer_flush(w);
  free(w->buf);
  w->buf = NULL;
  /* A failure the stream saw without fwrite returning short (an earlier write to stdout). */
  if (!w->write_errno && ferror(w->f)) w->write_errno = errno ? errno : EIO;
  if ((w->to_stdout ? fflush(w->f) : fclose(w->f)) != 0 && !w->write_errno) w->write_errno = errno ? errno : EIO;
  w->f = NULL;
  if (w->write_errno) return bb_fail(err, BB_ERR_IO, "cannot write '%s': %s", w->name, strerror(w->write_errno));
  return BB_OK;
}

void bb_writer_put_text(writer *w, const char *s) {
  for (size_t left = strlen(s); left;) {
    size_t room = BB_IO_CHUNK - w->len;
    if (room == 0) {
      bb_writer_flush(w);
      continue;
    }
    size_t chunk = left < room ? left : room;
    memcpy(w->buf + w->len, s, chunk);
    w->len += chunk;
    s += chunk;
    left -= chunk;
  }
}

void bb_writer_put_ids(writer *w, const uint32_t *ids, size_t count, unsigned width) {
  assert(width == 2 || width == 4);
  while (count) {
    size_t batch = (BB_IO_CHUNK - w->len) / width;
    if (batch == 0) {
      bb_writer_flush(w);
      continue;
    }
    if (batch > count) batch = count;
    unsigned char *p = (unsigned char *)w->buf + w->len;
    for (size_t i = 0; i < batch; i++)
      for (unsigned b = 0; b < width; b++) p[width * i + b] = (unsigned char)(ids[i] >> (8 * b));
    w->len += batch * width;
    ids += batch;
    count -= batch;
  }
}
