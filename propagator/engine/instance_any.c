/* The format-sniffing reader (instance_any.h): the SMI/HR reader takes what looks like its
 * own (binary magic or a first token "smi" / "hr"), the complete-list reader the rest; an HRC
 * file (hrc_io.h) is refused with a message that names it. */
#include "instance_any.h"

#include "hrc_io.h"

#include "instance_readers.h"

bb_status bb_read_any_from(reader *r, bb_instance **complete, bb_hr **incomplete, bb_error *err) {
  if (bb_hrc_sniff(r)) /* couples have their own instance (hrc_io.h): say so rather than misparse */
    return bb_fail(err, BB_ERR_INPUT, "%s: an HRC instance (couples): read it with bb_hrc_read (docs/hrc.md)", r->name);
  if (!complete || bb_hr_sniff(r)) return bb_hr_read_from(r, incomplete, err);
  return bb_instance_read_from(r, complete, err);
}

bb_status bb_read_any_instance(const char *path, bb_instance **complete, bb_hr **incomplete, bb_error *err) {
  if (!path || !incomplete) return bb_fail(err, BB_ERR_ARG, "bb_read_any_instance: NULL argument");
  if (complete) *complete = NULL;
  *incomplete = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  st = bb_read_any_from(&r, complete, incomplete, err);
  bb_reader_close(&r);
  return st;
}
