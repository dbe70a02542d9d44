/* Stable Marriage and Hospitals/Residents with ties under weak, strong or super-stability, posted natively
 * (propagator/smc/ties through shim/bb_stable_matching_ties.h):
 *
 *   bamboo_stable_matching_smti(men, women, size, base, pm, pm_len, pm_cols, pm_rank,
 *                               pm_rank_cols, pw, pw_len, pw_cols, pw_rank, pw_rank_cols)
 *   bamboo_stable_matching_hrt(residents, load, size, base, rp, rp_len, rp_cols, rp_rank,
 *                              rp_rank_cols, hp, hp_len, hp_cols, hp_rank, hp_rank_cols, capacity)
 *
 * pm and pm_rank are men x pm_cols and men x pm_rank_cols row-major, padded past each list's
 * length; pw and pw_rank likewise (rp, hp likewise); ids and positions from base; as mznlib's
 * stable_matching_smti and _hrt pass them. bamboo_stable_matching_smti_strong, _smti_super,
 * _hrt_strong and _hrt_super take the same arguments (the builtin's p1 is the stability, as
 * bb_stability numbers it). There is one path, the CPU: ::gpu is warned about
 * (fzn_cpu_only) and propagates on the CPU. */
#include "bb_stable_matching_ties.h"
#include "post_file_form.h"
#include "registry.h"

#include <stdio.h>

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

/* Arguments 0..13 of either form: the two sides' variables, size, base, the lists and ranks. */
typedef struct ties_args {
  int *men, *women, size, base, n1, n2;
  int *pm, *pm_len, pm_cols, *pm_rank, pm_rank_cols, npm, npl, npr;
  int *pw, *pw_len, pw_cols, *pw_rank, pw_rank_cols, npw, nwl, nwr;
} ties_args;

static bool ties_read(fzn_builder *b, const fzn_constraint *c, const char *const names[4], ties_args *a) {
  char len0[16], len1[16];
  snprintf(len0, sizeof len0, "%s_len", names[2]);
  snprintf(len1, sizeof len1, "%s_len", names[3]);
  if (!fzn_sides_head(b, c, names[0], names[1], "size", &a->men, &a->n1, &a->women, &a->n2, &a->size, &a->base) ||
      !fzn_arg_int_array(b, ARG(4), c->line, names[2], &a->pm, &a->npm) ||
      !fzn_arg_int_array(b, ARG(5), c->line, len0, &a->pm_len, &a->npl) ||
      !fzn_arg_int(b, ARG(6), c->line, "columns", &a->pm_cols) ||
      !fzn_arg_int_array(b, ARG(7), c->line, "ranks", &a->pm_rank, &a->npr) ||
      !fzn_arg_int(b, ARG(8), c->line, "rank columns", &a->pm_rank_cols) ||
      !fzn_arg_int_array(b, ARG(9), c->line, names[3], &a->pw, &a->npw) ||
      !fzn_arg_int_array(b, ARG(10), c->line, len1, &a->pw_len, &a->nwl) ||
      !fzn_arg_int(b, ARG(11), c->line, "columns", &a->pw_cols) ||
      !fzn_arg_int_array(b, ARG(12), c->line, "ranks", &a->pw_rank, &a->nwr) ||
      !fzn_arg_int(b, ARG(13), c->line, "rank columns", &a->pw_rank_cols))
    return false;
  if (a->base != 0 && a->base != 1)
    return fzn_report(b, c->line, "%s: base %d; ids and positions count from 0 or 1", c->name, a->base);
  return true;
}

static bool post_smti(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  static const char *const names[4] = {"men", "women", "pm", "pw"};
  ties_args a;
  if (!ties_read(b, c, names, &a) ||
      !smti_sizes_ok(b, c, "men", a.n1, "pm", a.npm, a.npl, a.pm_cols, "pm_rank", a.npr, a.pm_rank_cols) ||
      !smti_sizes_ok(b, c, "women", a.n2, "pw", a.npw, a.nwl, a.pw_cols, "pw_rank", a.nwr, a.pw_rank_cols))
    return false;
  bb_error err = {{0}};
  bb_status st = bb_post_stable_matching_smti(b->space, a.men, a.n1, a.women, a.n2, a.size, a.base, a.pm, a.pm_len,
                                              a.pm_cols, a.pm_rank, a.pm_rank_cols, a.pw, a.pw_len, a.pw_cols,
                                              a.pw_rank, a.pw_rank_cols, (bb_stability)self->p1, &err);
  if (st == BB_OK) fzn_cpu_only(b, c);
  return fzn_posted(b, c, st, &err);
}

static bool post_hrt(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  static const char *const names[4] = {"residents", "load", "rp", "hp"};
  ties_args a;
  int *cap, nh;
  if (!ties_read(b, c, names, &a) || !fzn_arg_int_array(b, ARG(14), c->line, "capacity", &cap, &nh) ||
      !smti_sizes_ok(b, c, "residents", a.n1, "rp", a.npm, a.npl, a.pm_cols, "rp_rank", a.npr, a.pm_rank_cols) ||
      !smti_sizes_ok(b, c, "hospitals", a.n2, "hp", a.npw, a.nwl, a.pw_cols, "hp_rank", a.nwr, a.pw_rank_cols))
    return false;
  if (nh != a.n2) return fzn_report(b, c->line, "%s: capacity has %d entries for %d hospitals", c->name, nh, a.n2);
  bb_error err = {{0}};
  bb_status st = bb_post_stable_matching_hrt(b->space, a.men, a.n1, a.women, a.n2, a.size, a.base, a.pm, a.pm_len,
                                             a.pm_cols, a.pm_rank, a.pm_rank_cols, a.pw, a.pw_len, a.pw_cols, a.pw_rank,
                                             a.pw_rank_cols, cap, (bb_stability)self->p1, &err);
  if (st == BB_OK) fzn_cpu_only(b, c);
  return fzn_posted(b, c, st, &err);
}

const fzn_builtin fzn_stable_matching_ties_builtins[] = {
    {"bamboo_stable_matching_smti", 14, post_smti, BB_STABILITY_WEAK, 0},
    {"bamboo_stable_matching_smti_strong", 14, post_smti, BB_STABILITY_STRONG, 0},
    {"bamboo_stable_matching_smti_super", 14, post_smti, BB_STABILITY_SUPER, 0},
    {"bamboo_stable_matching_hrt", 15, post_hrt, BB_STABILITY_WEAK, 0},
    {"bamboo_stable_matching_hrt_strong", 15, post_hrt, BB_STABILITY_STRONG, 0},
    {"bamboo_stable_matching_hrt_super", 15, post_hrt, BB_STABILITY_SUPER, 0},
    {NULL, 0, NULL, 0, 0}};
