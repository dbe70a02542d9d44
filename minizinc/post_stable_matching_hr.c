/* Hospitals/Residents posted natively (propagator/smc/hr through shim/bb_stable_matching_hr.h):
 *
 *   bamboo_stable_matching_hr(residents, posts, cols, base, rp, rp_len, rp_cols,
 *                             hp, hp_len, hp_cols, capacity)              the dzn form
 *   bamboo_stable_matching_hr_file(residents, posts, cols, base,
 *                                  rp_len, hp_len, capacity) :: bamboo_data_file("PATH")
 *
 * posts is hospitals x cols row-major; rp and hp are padded row-major matrices of ids from
 * base (rp_cols and hp_cols columns), as mznlib's stable_matching_hr passes them. The file form
 * reads PATH as post_stable_matching.c's file forms do (text or binary, FILE:LINE messages) and
 * checks the lengths and capacities the model passed against it, one by one. The cloning
 * reduction of the file form stays registered as bamboo_stable_matching_hr_file_cloned
 * (post_stable_matching.c), for comparisons.
 *
 * Annotations: ::gpu propagates on the GPU path (smc_hr.h's bb_smc_hr_propagate_on: the
 * resident-oriented proposals on the GPU, the rest on the CPU, the CPU path's domains); without
 * a usable GPU the poster warns once per model at the user's line (fzn_annotated_path) and the
 * constraint propagates on the CPU. ::cpu and ::uniud, or no annotation, propagate on the CPU. */
#include "post_file_form.h"
#include "bb_stable_matching_hr.h"
#include "hr.h"
#include "instance_any.h"
#include "instance_io.h"
#include "registry.h"

#include <string.h>

static bool hr_base_ok(fzn_builder *b, const fzn_constraint *c, int base) {
  return base == 0 || base == 1 ||
         fzn_report(b, c->line,
                    "%s: the arrays start at index %d; ids and ranks count from the first index, "
                    "which must be 0 or 1",
                    c->name, base);
}

/* residents, posts, cols, base: the four arguments both forms start with. */
static bool hr_vars(fzn_builder *b, const fzn_constraint *c, int **res, int *nr, int **posts, int *np, int *cols,
                    int *base) {
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "residents", res, nr) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "posts", posts, np) ||
      !fzn_arg_int(b, ARG(2), c->line, "posts' columns", cols) || !fzn_arg_int(b, ARG(3), c->line, "base", base) ||
      !hr_base_ok(b, c, *base))
    return false;
  if (*cols < 0 || (*cols == 0 && *np != 0) || (*cols > 0 && *np % *cols != 0))
    return fzn_report(b, c->line, "%s: posts has %d entries, not a multiple of its %d columns", c->name, *np, *cols);
  return true;
}

static bool post_hr(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *res, *posts, *rp, *rp_len, *hp, *hp_len, *cap, nr, np, cols, base, nrp, nrl, rp_cols, nhp, nhl, hp_cols, nh;
  if (!hr_vars(b, c, &res, &nr, &posts, &np, &cols, &base) || !fzn_arg_int_array(b, ARG(4), c->line, "rp", &rp, &nrp) ||
      !fzn_arg_int_array(b, ARG(5), c->line, "rp_len", &rp_len, &nrl) ||
      !fzn_arg_int(b, ARG(6), c->line, "rp_cols", &rp_cols) ||
      !fzn_arg_int_array(b, ARG(7), c->line, "hp", &hp, &nhp) ||
      !fzn_arg_int_array(b, ARG(8), c->line, "hp_len", &hp_len, &nhl) ||
      !fzn_arg_int(b, ARG(9), c->line, "hp_cols", &hp_cols) ||
      !fzn_arg_int_array(b, ARG(10), c->line, "capacity", &cap, &nh))
    return false;
  if (cols > 0 && np / cols != nh)
    return fzn_report(b, c->line, "%s: posts has %d rows but capacity %d entries", c->name, np / cols, nh);
  if (nrl != nr || nhl != nh)
    return fzn_report(b, c->line, "%s: rp_len has %d entries for %d residents, hp_len %d for %d hospitals", c->name,
                      nrl, nr, nhl, nh);
  if (rp_cols < 0 || (long long)nr * rp_cols != nrp)
    return fzn_report(b, c->line, "%s: rp has %d entries, not %d x %d (residents x rp_cols)", c->name, nrp, nr,
                      rp_cols);
  if (hp_cols < 0 || (long long)nh * hp_cols != nhp)
    return fzn_report(b, c->line, "%s: hp has %d entries, not %d x %d (hospitals x hp_cols)", c->name, nhp, nh,
                      hp_cols);
  bb_error err = {{0}};
  bb_stable_matching_hr_options opts = {fzn_annotated_path(b, c)};
  bb_status st = bb_post_stable_matching_hr(b->space, res, nr, posts, nh, cols, base, rp, rp_len, rp_cols, hp, hp_len,
                                            hp_cols, cap, &opts, &err);
  return fzn_posted(b, c, st, &err);
}

static bool post_hr_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *res, *posts, nr, np, cols, base;
  if (!hr_vars(b, c, &res, &nr, &posts, &np, &cols, &base)) return false;
  const char *path = fzn_data_file(b, c, "stable_matching_file.mzn");
  if (!path) return false;
  bb_instance *complete = NULL;
  bb_hr *inst = NULL;
  bb_error err = {{0}};
  if (bb_read_any_instance(path, &complete, &inst, &err) != BB_OK)
    return fzn_report(b, c->line, "%s: %s", c->name, err.msg);
  if (!inst) {
    bb_instance_free(complete);
    return fzn_report(b, c->line, "%s: %s is a complete instance; use stable_matching_file", c->name, path);
  }
  int nh = inst->n_hospitals, max_cap = 0;
  for (int h = 0; h < nh; h++)
    if (inst->capacity[h] > max_cap) max_cap = inst->capacity[h];
  bool ok = true;
  if (inst->n_residents != nr || (int64_t)nh * cols != np)
    ok = fzn_report(b, c->line,
                    "%s: %s holds %d residents and %d hospitals, but the constraint has %d residents and "
                    "%d x %d posts",
                    c->name, path, inst->n_residents, nh, nr, cols ? np / cols : 0, cols);
  else if (!fzn_file_numbers_agree(b, c, ARG(4), "rp_len", "resident", "list length", nr, base, path, inst->res_start,
                                   NULL, NULL) ||
           !fzn_file_numbers_agree(b, c, ARG(5), "hp_len", "hospital", "list length", nh, base, path, inst->hosp_start,
                                   NULL, NULL) ||
           !fzn_file_numbers_agree(b, c, ARG(6), "capacity", "hospital", "capacity", nh, base, path, NULL,
                                   inst->capacity, NULL))
    ok = false;
  else if (cols < max_cap)
    ok = fzn_report(b, c->line, "%s: posts has %d columns, fewer than the largest capacity in %s, %d", c->name, cols,
                    path, max_cap);
  if (ok) {
    bb_stable_matching_hr_options opts = {fzn_annotated_path(b, c)};
    bb_status st =
        bb_post_stable_matching_hr_csr(b->space, res, nr, posts, nh, cols, base, inst->res_start, inst->res_list,
                                       inst->hosp_start, inst->hosp_list, inst->capacity, &opts, &err);
    ok = fzn_posted(b, c, st, &err);
  }
  bb_hr_free(inst);
  return ok;
}

const fzn_builtin fzn_stable_matching_hr_builtins[] = {{"bamboo_stable_matching_hr", 11, post_hr, 0, 0},
                                                       {"bamboo_stable_matching_hr_file", 7, post_hr_file, 0, 0},
                                                       {NULL, 0, NULL, 0, 0}};
