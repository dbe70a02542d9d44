/* The format-sniffing reader (instance_any.h): the SMTI/HRT reader takes what looks like its
 * own (binary magic or a first token "smti" / "hrt"), the HRC reader takes what looks like its own
 * (binary magic or a first token "hrc"), the SMI/HR reader what looks like its own (binary
 * magic or a first token "smi" / "hr"), the complete-list reader the rest. The sniffing looks
 * only at the bytes the reader has buffered, so nothing is read twice. */
#include "instance_any.h"

#include "hrc_io.h"
#include "ties_io.h"

#include "instance_readers.h"

static bb_status read_sniffed(reader *r, bb_instance **complete, bb_hr **incomplete, bb_hrc **couples, bb_ties **ties,
                              bb_error *err) {
  if (bb_ties_sniff(r)) {
    if (ties) return bb_ties_read_from(r, ties, err);
    return bb_fail(err, BB_ERR_INPUT, "%s: an SMTI/HRT instance (ties): read it with bb_ties_read (docs/ties.md)",
                   r->name);
  }
  if (bb_hrc_sniff(r)) {
    if (couples) return bb_hrc_read_from(r, couples, err);
    /* couples have their own instance (hrc_io.h): say so rather than misparse */
    return bb_fail(err, BB_ERR_INPUT, "%s: an HRC instance (couples): read it with bb_hrc_read (docs/hrc.md)", r->name);
  }
  if (!complete || bb_hr_sniff(r)) return bb_hr_read_from(r, incomplete, err);
  return bb_instance_read_from(r, complete, err);
}

bb_status bb_read_any_from(reader *r, bb_instance **complete, bb_hr **incomplete, bb_error *err) {
  return read_sniffed(r, complete, incomplete, NULL, NULL, err);
}

static bb_status read_path(const char *path, double deadline, bb_instance **complete, bb_hr **incomplete,
                           bb_hrc **couples, bb_ties **ties, bb_error *err) {
  if (!path || !incomplete) return bb_fail(err, BB_ERR_ARG, "bb_read_any_instance: NULL argument");
  if (complete) *complete = NULL;
  if (couples) *couples = NULL;
  if (ties) *ties = NULL;
  *incomplete = NULL;
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  r.deadline = deadline;
  st = read_sniffed(&r, complete, incomplete, couples, ties, err);
  /* The readers report a fill that the deadline stopped as a read error; it is the limit. */
  if (st != BB_OK && r.timed_out)
    st = bb_fail(err, BB_ERR_TIMEOUT, "%s: time limit reached while reading the instance (%llu bytes read)", r.name,
                 (unsigned long long)r.bytes);
  bb_reader_close(&r);
  return st;
}

bb_status bb_read_any_instance(const char *path, bb_instance **complete, bb_hr **incomplete, bb_error *err) {
  return read_path(path, 0, complete, incomplete, NULL, NULL, err);
}

bb_status bb_read_any_kind(const char *path, double deadline, bb_instance **complete, bb_hr **incomplete,
                           bb_hrc **couples, bb_error *err) {
  if (!couples) return bb_fail(err, BB_ERR_ARG, "bb_read_any_kind: NULL argument");
  return read_path(path, deadline, complete, incomplete, couples, NULL, err);
}

bb_status bb_read_any_with_ties(const char *path, double deadline, bb_instance **complete, bb_hr **incomplete,
                                bb_hrc **couples, bb_ties **ties, bb_error *err) {
  if (!couples || !ties) return bb_fail(err, BB_ERR_ARG, "bb_read_any_with_ties: NULL argument");
  return read_path(path, deadline, complete, incomplete, couples, ties, err);
}
