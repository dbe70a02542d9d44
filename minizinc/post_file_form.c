/* The file forms' shared checks (post_file_form.h). */
#include "post_file_form.h"
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
