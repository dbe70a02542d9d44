/* Instance allocation and validation. */
#include "instance.h"

#include <stdlib.h>
#include <string.h>

uint64_t bb_instance_bytes(int n) { return 2u * (uint64_t)n * (uint64_t)n * sizeof(bb_id); }

bb_instance *bb_instance_new(int n, bb_error *err) {
  if (n < 1 || n > BB_MAX_N) {
    bb_fail(err, BB_ERR_ARG, "n = %d is out of range (1..%d)", n, BB_MAX_N);
    return NULL;
  }
  uint64_t bytes = bb_instance_bytes(n), avail = bb_available_memory();
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT];
  if (avail && bytes > avail) {
    bb_fail(err, BB_ERR_NOMEM, "n = %d is too large for memory: the preference lists need %s, %s available", n,
            bb_bytes_text(need, bytes), bb_bytes_text(have, avail));
    return NULL;
  }
  size_t cells = (size_t)n * (size_t)n;
  bb_instance *inst = calloc(1, sizeof *inst);
  if (inst) {
    inst->n = n;
    inst->men_prefs = bb_alloc_large(cells * sizeof(bb_id));
    inst->women_prefs = bb_alloc_large(cells * sizeof(bb_id));
  }
  if (!inst || !inst->men_prefs || !inst->women_prefs) {
    bb_instance_free(inst);
    bb_fail(err, BB_ERR_NOMEM, "n = %d is too large for memory: cannot allocate %s of lists (%s available)", n,
            bb_bytes_text(need, bytes), bb_bytes_text(have, bb_available_memory()));
    return NULL;
  }
  return inst;
}

void bb_instance_free(bb_instance *inst) {
  if (!inst) return;
  free(inst->men_prefs);
  free(inst->women_prefs);
  free(inst);
}

/* Checks one row; `seen` is an n-entry scratch array whose entries are < stamp. */
static bb_status check_row(const bb_id *row, int n, const char *side, int who, uint32_t *seen, uint32_t stamp,
                           bb_error *err) {
  for (int k = 0; k < n; k++) {
    bb_id id = row[k];
    if (id >= (bb_id)n)
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %d: id %u is out of range 0..%d", side, who, k, id,
                     n - 1);
    if (seen[id] == stamp)
      return bb_fail(err, BB_ERR_INPUT, "%s %d's list, position %d: id %u appears twice", side, who, k, id);
    seen[id] = stamp;
  }
  return BB_OK;
}

bb_status bb_instance_validate(const bb_instance *inst, bb_error *err) {
  if (!inst || inst->n < 1 || !inst->men_prefs || !inst->women_prefs)
    return bb_fail(err, BB_ERR_ARG, "bb_instance_validate: empty instance");
  int n = inst->n;
  uint32_t *seen = calloc((size_t)n, sizeof *seen);
  if (!seen) return bb_fail(err, BB_ERR_NOMEM, "bb_instance_validate: out of memory");
  bb_status st = BB_OK;
  uint32_t stamp = 0;
  for (int m = 0; m < n && st == BB_OK; m++)
    st = check_row(inst->men_prefs + (size_t)m * n, n, "man", m, seen, ++stamp, err);
  for (int w = 0; w < n && st == BB_OK; w++)
    st = check_row(inst->women_prefs + (size_t)w * n, n, "woman", w, seen, ++stamp, err);
  free(seen);
  return st;
}
