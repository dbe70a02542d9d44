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
#include "registry.h"

#include <string.h>

/* residents, posts, cols, base: the four arguments both forms start with. */
static bool hr_vars(fzn_builder *b, const fzn_constraint *c, int **res, int *nr, int **posts, int *np, int *cols,
                    int *base) {
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "residents", res, nr) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "posts", posts, np) ||
      !fzn_arg_int(b, ARG(2), c->line, "posts' columns", cols) || !fzn_arg_int(b, ARG(3), c->line, "base", base) ||
      !fzn_base_ok(b, c, *base))
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
  if (!fzn_padded_lists_ok(b, c, "rp", nrp, "rp_len", nrl, "rp_cols", rp_cols, nr, "residents") ||
      !fzn_padded_lists_ok(b, c, "hp", nhp, "hp_len", nhl, "hp_cols", hp_cols, nh, "hospitals"))
    return false;
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
  const char *path;
  bb_hr *inst = fzn_hr_file(b, c, nr, np, cols, base, &path);
  if (!inst) return false;
  bb_error err = {{0}};
  bb_stable_matching_hr_options opts = {fzn_annotated_path(b, c)};
  bb_status st =
      bb_post_stable_matching_hr_csr(b->space, res, nr, posts, inst->n_hospitals, cols, base, inst->res_start,
                                     inst->res_list, inst->hosp_start, inst->hosp_list, inst->capacity, &opts, &err);
  bb_hr_free(inst);
  return fzn_posted(b, c, st, &err);
}
const fzn_builtin fzn_stable_matching_hr_builtins[] = {{"bamboo_stable_matching_hr", 11, post_hr, 0, 0},
                                                       {"bamboo_stable_matching_hr_file", 7, post_hr_file, 0, 0},
                                                       {NULL, 0, NULL, 0, 0}};
