/* The file forms' shared checks (post_file_form.h). */
#include "post_file_form.h"
#include "hrc_io.h"
#include "instance_any.h"
#include "instance_io.h"
#include "smc_tuning.h"

#include <string.h>

const char *fzn_data_file(fzn_builder *b, const fzn_constraint *c, const char *added_by) {
  for (int a = 0; a < c->annotations.count; a++) {
    const fzn_expr *ann = c->annotations.items[a];
    if (ann->kind == FZN_E_CALL && !strcmp(ann->u.call.name, "bamboo_data_file") && ann->u.call.count == 1 &&
        ann->u.call.args[0]->kind == FZN_E_STRING)
      return ann->u.call.args[0]->u.str;
  }
  if (added_by)
    fzn_report(b, c->line,
               "%s: no bamboo_data_file(\"PATH\") annotation names the instance file (mznlib's "
               "%s adds it)",
               c->name, added_by);
  else
    fzn_report(b, c->line, "%s: no bamboo_data_file(\"PATH\") annotation names the instance file", c->name);
  return NULL;
}

bool fzn_file_numbers_agree(fzn_builder *b, const fzn_constraint *c, const fzn_expr *arg, const char *name,
                            const char *person, const char *what, int n, int base, const char *path,
                            const uint32_t *start, const int32_t *capacity, const int64_t *values) {
  int *given, count;
  if (!fzn_arg_int_array(b, arg, c->line, name, &given, &count)) return false;
  if (count == 0) return true;
  if (count != n)
    return fzn_report(b, c->line, "%s: %s has %d entries, but %s holds %d %ss", c->name, name, count, path, n, person);
  for (int i = 0; i < n; i++) {
    long long in_file = start      ? (long long)(start[i + 1] - start[i])
                        : capacity ? (long long)capacity[i]
                                   : (long long)values[i];
    if (given[i] != in_file)
      return fzn_report(b, c->line, "%s: %s %d's %s is %d in the model (%s[%d]) but %lld in %s", c->name, person,
                        base + i, what, given[i], name, base + i, in_file, path);
  }
  return true;
}

bool fzn_base_ok(fzn_builder *b, const fzn_constraint *c, int base) {
  return base == 0 || base == 1 ||
         fzn_report(b, c->line,
                    "%s: the arrays start at index %d; ids and ranks count from the first index, "
                    "which must be 0 or 1",
                    c->name, base);
}

bool fzn_sides_head(fzn_builder *b, const fzn_constraint *c, const char *name0, const char *name1, const char *var_name,
                    int **side0, int *n0, int **side1, int *n1, int *var, int *base) {
  return fzn_arg_int_var_array(b, c->args[0], c->line, name0, side0, n0) &&
         fzn_arg_int_var_array(b, c->args[1], c->line, name1, side1, n1) &&
         fzn_arg_int_var(b, c->args[2], c->line, var_name, var) && fzn_arg_int(b, c->args[3], c->line, "base", base);
}

bool fzn_padded_lists_ok(fzn_builder *b, const fzn_constraint *c, const char *matrix, int entries, const char *len_name,
                         int lens, const char *cols_name, int cols, int people, const char *who) {
  if (lens != people)
    return fzn_report(b, c->line, "%s: %s has %d entries for %d %s", c->name, len_name, lens, people, who);
  if (cols < 0) return fzn_report(b, c->line, "%s: %s is %d; it must be at least 0", c->name, cols_name, cols);
  if ((long long)people * cols != entries)
    return fzn_report(b, c->line, "%s: %s has %d entries, not %d x %d (%s x %s)", c->name, matrix, entries, people,
                      cols, who, cols_name);
  return true;
}

/* Arguments 0..3 of every HRC form: singles, couples, a third variable, base. */
static bool hrc_head(fzn_builder *b, const fzn_constraint *c, const char *var_name, int **singles, int *ns,
                     int **couples, int *nc, int *var, int *base) {
  return fzn_sides_head(b, c, "singles", "couples", var_name, singles, ns, couples, nc, var, base);
}

bool fzn_hrc_residents_read(fzn_builder *b, const fzn_constraint *c, const char *var_name, fzn_hrc_residents *a) {
  return hrc_head(b, c, var_name, &a->singles, &a->ns, &a->couples, &a->nc, &a->var, &a->base) &&
         fzn_arg_int_array(b, c->args[4], c->line, "rp", &a->rp, &a->nrp) &&
         fzn_arg_int_array(b, c->args[5], c->line, "rp_len", &a->rp_len, &a->nrl) &&
         fzn_arg_int(b, c->args[6], c->line, "rp_cols", &a->rp_cols) &&
         fzn_arg_int_array(b, c->args[7], c->line, "cp1", &a->cp1, &a->ncp1) &&
         fzn_arg_int_array(b, c->args[8], c->line, "cp2", &a->cp2, &a->ncp2) &&
         fzn_arg_int_array(b, c->args[9], c->line, "cp_len", &a->cp_len, &a->ncl) &&
         fzn_arg_int(b, c->args[10], c->line, "cp_cols", &a->cp_cols);
}

bool fzn_hrc_residents_ok(fzn_builder *b, const fzn_constraint *c, const fzn_hrc_residents *a) {
  return fzn_base_ok(b, c, a->base) &&
         fzn_padded_lists_ok(b, c, "rp", a->nrp, "rp_len", a->nrl, "rp_cols", a->rp_cols, a->ns, "singles") &&
         fzn_padded_lists_ok(b, c, "cp1", a->ncp1, "cp_len", a->ncl, "cp_cols", a->cp_cols, a->nc, "couples") &&
         fzn_padded_lists_ok(b, c, "cp2", a->ncp2, "cp_len", a->ncl, "cp_cols", a->cp_cols, a->nc, "couples");
}

bb_hrc *fzn_hrc_file(fzn_builder *b, const fzn_constraint *c, const char *var_name, int **singles, int *ns,
                     int **couples, int *nc, int *var, int *base, const char **path) {
  if (!hrc_head(b, c, var_name, singles, ns, couples, nc, var, base) || !fzn_base_ok(b, c, *base)) return NULL;
  *path = fzn_data_file(b, c, NULL);
  if (!*path) return NULL;
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  if (bb_hrc_read(*path, &inst, &err) != BB_OK) {
    fzn_report(b, c->line, "%s: %s", c->name, err.msg);
    return NULL;
  }
  int file_singles = inst->n_residents - 2 * inst->n_couples;
  if (file_singles != *ns || inst->n_couples != *nc) {
    fzn_report(b, c->line, "%s: %s holds %d singles and %d couples, but the constraint has %d and %d", c->name, *path,
               file_singles, inst->n_couples, *ns, *nc);
    bb_hrc_free(inst);
    return NULL;
  }
  return inst;
}

bb_hr *fzn_hr_file(fzn_builder *b, const fzn_constraint *c, int nr, int np, int cols, int base, const char **path) {
  *path = fzn_data_file(b, c, "stable_matching_file.mzn");
  if (!*path) return NULL;
  bb_instance *complete = NULL;
  bb_hr *inst = NULL;
  bb_error err = {{0}};
  if (bb_read_any_instance(*path, &complete, &inst, &err) != BB_OK) {
    fzn_report(b, c->line, "%s: %s", c->name, err.msg);
    return NULL;
  }
  if (!inst) {
    bb_instance_free(complete);
    fzn_report(b, c->line, "%s: %s is a complete instance; use stable_matching_file", c->name, *path);
    return NULL;
  }
  int nh = inst->n_hospitals, max_cap = 0;
  for (int h = 0; h < nh; h++)
    if (inst->capacity[h] > max_cap) max_cap = inst->capacity[h];
  bool ok = true;
  if (inst->n_residents != nr || (int64_t)nh * cols != np || cols < 0)
    ok = fzn_report(b, c->line,
                    "%s: %s holds %d residents and %d hospitals, but the constraint has %d residents and "
                    "%d x %d posts",
                    c->name, *path, inst->n_residents, nh, nr, cols ? np / cols : 0, cols);
  else if (!fzn_file_numbers_agree(b, c, c->args[4], "rp_len", "resident", "list length", nr, base, *path,
                                   inst->res_start, NULL, NULL) ||
           !fzn_file_numbers_agree(b, c, c->args[5], "hp_len", "hospital", "list length", nh, base, *path,
                                   inst->hosp_start, NULL, NULL) ||
           !fzn_file_numbers_agree(b, c, c->args[6], "capacity", "hospital", "capacity", nh, base, *path, NULL,
                                   inst->capacity, NULL))
    ok = false;
  else if (cols < max_cap)
    ok = fzn_report(b, c->line, "%s: posts has %d columns, fewer than the largest capacity in %s, %d", c->name, cols,
                    *path, max_cap);
  if (!ok) {
    bb_hr_free(inst);
    return NULL;
  }
  return inst;
}

bool fzn_gpu_usable(fzn_builder *b, const fzn_constraint *c, const char *what) {
  if (bb_smc_gpu_available()) return true;
  if (!b->warned_gpu)
    fzn_warn(b, c->line, "::gpu: %s; propagating on the CPU (%s, and any ::gpu constraint after it)", bb_smc_gpu_why(),
             what);
  b->warned_gpu = true;
  return false;
}

bb_smc_path fzn_annotated_path(fzn_builder *b, const fzn_constraint *c) {
  bb_smc_path path = BB_SMC_PATH_CPU;
  for (int a = 0; a < c->annotations.count; a++) {
    const fzn_expr *ann = c->annotations.items[a];
    if (ann->kind != FZN_E_ID) continue;
    if (!strcmp(ann->u.id.name, "gpu")) path = BB_SMC_PATH_GPU;
    if (!strcmp(ann->u.id.name, "cpu") || !strcmp(ann->u.id.name, "uniud")) path = BB_SMC_PATH_CPU;
  }
  const char *what = strncmp(c->name, "bamboo_", 7) ? c->name : c->name + 7;
  if (path == BB_SMC_PATH_GPU && !fzn_gpu_usable(b, c, what)) path = BB_SMC_PATH_CPU;
  return path;
}

void fzn_cpu_only(fzn_builder *b, const fzn_constraint *c) {
  for (int a = 0; a < c->annotations.count; a++) {
    const fzn_expr *ann = c->annotations.items[a];
    if (ann->kind != FZN_E_ID || strcmp(ann->u.id.name, "gpu") || b->warned_cpu_only) continue;
    const char *what = strncmp(c->name, "bamboo_", 7) ? c->name : c->name + 7;
    fzn_warn(b, c->line, "::gpu: %s has no GPU path; propagating on the CPU (and any such constraint after it)", what);
    b->warned_cpu_only = true;
  }
}
