/* The size of a Hospitals/Residents with Couples matching (stable_matching_hrc's size form):
 *
 *   bamboo_stable_matching_hrc_size(singles, couples, size, base, rp, rp_len, rp_cols, cp1, cp2,
 *                                   cp_len, cp_cols, capacity)
 *   bamboo_stable_matching_hrc_size_file(singles, couples, size, base) :: bamboo_data_file("PATH")
 *
 * posted beside bamboo_stable_matching_hrc (or its file form) over the same variables: size =
 * the residents assigned, bounded by shim/bb_hrc_size.h. The dzn form reads the residents' lists
 * (the hospitals' are not needed), the file form reads the file again with the engine's reader. */
#include "bb_hrc_size.h"
#include "hrc.h"
#include "post_file_form.h"
#include "registry.h"

#include <stdlib.h>

/* Posts over L and frees nothing. */
static bool post_lists(fzn_builder *b, const fzn_constraint *c, const int *singles, int ns, const int *couples, int nc,
                       int size, int base, const bb_smc_hrc_size_lists *L) {
  bb_error err = {{0}};
  bb_status st = bb_post_hrc_size(b->space, singles, ns, couples, nc, size, base, L, &err);
  return fzn_posted(b, c, st, &err);
}

/* Row i's first len entries of a row-major matrix with `cols` columns, as 0-based hospitals. */
static bool copy_row(fzn_builder *b, const fzn_constraint *c, const char *name, const int *m, int cols, int i, int len,
                     int base, int nh, int32_t *out, int stride) {
  for (int k = 0; k < len; k++) {
    int h = m[(size_t)i * (size_t)cols + (size_t)k] - base;
    if (h < 0 || h >= nh)
      return fzn_report(b, c->line, "%s: %s[%d, %d] = %d is no hospital (%d..%d)", c->name, name, base + i, base + k,
                        h + base, base, base + nh - 1);
    out[(size_t)k * (size_t)stride] = h;
  }
  return true;
}

static bool post_size(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  fzn_hrc_residents a;
  int *cap, nh;
  if (!fzn_hrc_residents_read(b, c, "size", &a) || !fzn_arg_int_array(b, ARG(11), c->line, "capacity", &cap, &nh) ||
      !fzn_hrc_residents_ok(b, c, &a))
    return false;
  int ns = a.ns, nc = a.nc, base = a.base;
  uint32_t *ss = malloc(((size_t)ns + 1) * sizeof *ss), *cs = malloc(((size_t)nc + 1) * sizeof *cs);
  bool ok = ss && cs;
  if (ok) {
    ss[0] = cs[0] = 0;
    for (int i = 0; i < ns; i++) ss[i + 1] = ss[i] + (uint32_t)a.rp_len[i];
    for (int i = 0; i < nc; i++) cs[i + 1] = cs[i] + (uint32_t)a.cp_len[i];
  }
  int32_t *sh = ok ? malloc(((size_t)ss[ns] + 1) * sizeof *sh) : NULL;
  int32_t *cpair = ok ? malloc((2 * (size_t)cs[nc] + 1) * sizeof *cpair) : NULL;
  int32_t *capacity = malloc(((size_t)nh + 1) * sizeof *capacity);
  ok = ok && sh && cpair && capacity;
  if (!ok) fzn_report(b, c->line, "%s: out of memory", c->name);
  for (int i = 0; i < ns && ok; i++)
    ok = copy_row(b, c, "rp", a.rp, a.rp_cols, i, a.rp_len[i], base, nh, sh + ss[i], 1);
  for (int i = 0; i < nc && ok; i++)
    ok = copy_row(b, c, "cp1", a.cp1, a.cp_cols, i, a.cp_len[i], base, nh, cpair + 2 * (size_t)cs[i], 2) &&
         copy_row(b, c, "cp2", a.cp2, a.cp_cols, i, a.cp_len[i], base, nh, cpair + 2 * (size_t)cs[i] + 1, 2);
  for (int h = 0; h < nh && ok; h++) capacity[h] = cap[h];
  if (ok) {
    bb_smc_hrc_size_lists L = {ns, nc, nh, ss, sh, cs, cpair, capacity};
    ok = post_lists(b, c, a.singles, ns, a.couples, nc, a.var, base, &L);
  }
  free(ss), free(cs), free(sh), free(cpair), free(capacity);
  return ok;
}

static bool post_size_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *singles, *couples, size, base, ns, nc;
  const char *path;
  bb_hrc *inst = fzn_hrc_file(b, c, "size", &singles, &ns, &couples, &nc, &size, &base, &path);
  if (!inst) return false;
  int nr = inst->n_residents;
  uint32_t *ss = malloc(((size_t)ns + 1) * sizeof *ss);
  int32_t *sh = malloc(((size_t)inst->single_start[nr] + 1) * sizeof *sh);
  bool ok = ss && sh;
  if (!ok) fzn_report(b, c->line, "%s: out of memory", c->name);
  if (ok) { /* the singles in resident id order, as the variables are */
    int i = 0;
    ss[0] = 0;
    for (int r = 0; r < nr; r++) {
      if (inst->couple_of[r] != BB_HRC_SINGLE) continue;
      ss[i + 1] = ss[i];
      for (uint32_t e = inst->single_start[r]; e < inst->single_start[r + 1]; e++)
        sh[ss[i + 1]++] = (int32_t)inst->single_list[e];
      i++;
    }
    bb_smc_hrc_size_lists L = {
        ns, nc, inst->n_hospitals, ss, sh, inst->couple_start, (const int32_t *)inst->couple_list, inst->capacity};
    ok = post_lists(b, c, singles, ns, couples, nc, size, base, &L);
  }
  free(ss), free(sh);
  bb_hrc_free(inst);
  return ok;
}

const fzn_builtin fzn_hrc_size_builtins[] = {{"bamboo_stable_matching_hrc_size", 12, post_size, 0, 0},
                                             {"bamboo_stable_matching_hrc_size_file", 4, post_size_file, 0, 0},
                                             {NULL, 0, NULL, 0, 0}};
