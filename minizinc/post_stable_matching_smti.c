/* Stable Marriage with ties under weak stability, posted natively (propagator/smc/ties through
 * shim/bb_stable_matching_smti.h):
 *
 *   bamboo_stable_matching_smti(men, women, size, base, pm, pm_len, pm_cols, pm_rank,
 *                               pm_rank_cols, pw, pw_len, pw_cols, pw_rank, pw_rank_cols)
 *
 * pm and pm_rank are men x pm_cols and men x pm_rank_cols row-major, padded past each list's
 * length; pw and pw_rank likewise; ids and positions from base; as mznlib's
 * stable_matching_smti passes them. Annotations are ignored: the constraint has one path (the CPU). */
#include "bb_stable_matching_smti.h"
#include "registry.h"

static bool smti_sizes_ok(fzn_builder *b, const fzn_constraint *c, const char *who, int people, const char *m,
                          int entries, int lens, int cols, const char *r, int rank_entries, int rank_cols) {
  if (lens != people)
    return fzn_report(b, c->line, "%s: %s_len has %d entries for %d %s", c->name, m, lens, people, who);
  if (cols < 0 || (long long)people * cols != entries)
    return fzn_report(b, c->line, "%s: %s has %d entries, not %d x %d (%s x %s_cols)", c->name, m, entries, people,
                      cols, who, m);
  if (rank_cols < 0 || (long long)people * rank_cols != rank_entries)
    return fzn_report(b, c->line, "%s: %s has %d entries, not %d x %d (%s x %s_cols)", c->name, r, rank_entries, people,
                      rank_cols, who, r);
  return true;
}

static bool post_smti(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, size, base, n1, n2;
  int *pm, *pm_len, pm_cols, *pm_rank, pm_rank_cols, npm, npl, npr;
  int *pw, *pw_len, pw_cols, *pw_rank, pw_rank_cols, npw, nwl, nwr;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "men", &men, &n1) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "women", &women, &n2) ||
      !fzn_arg_int_var(b, ARG(2), c->line, "size", &size) || !fzn_arg_int(b, ARG(3), c->line, "base", &base) ||
      !fzn_arg_int_array(b, ARG(4), c->line, "pm", &pm, &npm) ||
      !fzn_arg_int_array(b, ARG(5), c->line, "pm_len", &pm_len, &npl) ||
      !fzn_arg_int(b, ARG(6), c->line, "pm_cols", &pm_cols) ||
      !fzn_arg_int_array(b, ARG(7), c->line, "pm_rank", &pm_rank, &npr) ||
      !fzn_arg_int(b, ARG(8), c->line, "pm_rank_cols", &pm_rank_cols) ||
      !fzn_arg_int_array(b, ARG(9), c->line, "pw", &pw, &npw) ||
      !fzn_arg_int_array(b, ARG(10), c->line, "pw_len", &pw_len, &nwl) ||
      !fzn_arg_int(b, ARG(11), c->line, "pw_cols", &pw_cols) ||
      !fzn_arg_int_array(b, ARG(12), c->line, "pw_rank", &pw_rank, &nwr) ||
      !fzn_arg_int(b, ARG(13), c->line, "pw_rank_cols", &pw_rank_cols))
    return false;
  if (base != 0 && base != 1)
    return fzn_report(b, c->line, "%s: base %d; ids and positions count from 0 or 1", c->name, base);
  if (!smti_sizes_ok(b, c, "men", n1, "pm", npm, npl, pm_cols, "pm_rank", npr, pm_rank_cols) ||
      !smti_sizes_ok(b, c, "women", n2, "pw", npw, nwl, pw_cols, "pw_rank", nwr, pw_rank_cols))
    return false;
  bb_error err = {{0}};
  bb_status st = bb_post_stable_matching_smti(b->space, men, n1, women, n2, size, base, pm, pm_len, pm_cols, pm_rank,
                                              pm_rank_cols, pw, pw_len, pw_cols, pw_rank, pw_rank_cols, &err);
  return fzn_posted(b, c, st, &err);
}

const fzn_builtin fzn_stable_matching_smti_builtins[] = {{"bamboo_stable_matching_smti", 14, post_smti, 0, 0},
                                                         {NULL, 0, NULL, 0, 0}};
