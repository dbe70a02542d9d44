/* The objective bounds over the stable-matching lattice (docs/objectives.md):
 *
 *   bamboo_stable_matching_objective(men, women, pm, pw, wm, ww, cost, kind)
 *
 * pm, pw: the n x n lists row-major (n = length of men), ids in the data's base (read off
 * pm's smallest entry, as stable_matching does); wm, ww: n x n weights by rank, or both
 * empty for "the rank in the data's base"; kind: 0 the least weight, 1 the imbalance
 * (|men's weight - women's weight|), 2 the regret. The predicates of
 * mznlib/stable_matching_objective.mzn post it beside stability and cost's definition; it
 * only raises cost's minimum (shim/bb_smc_objective.h). Annotations (::cpu, ::gpu) are
 * ignored: the bound runs on the CPU. */
#include "bb_smc_objective.h"
#include "registry.h"

static bool post_objective(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, *pm, *pw, *wm, *ww, cost, kind, nm, nw, npm, npw, nwm, nww;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "men", &men, &nm) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "women", &women, &nw) ||
      !fzn_arg_int_array(b, ARG(2), c->line, "pm", &pm, &npm) ||
      !fzn_arg_int_array(b, ARG(3), c->line, "pw", &pw, &npw) ||
      !fzn_arg_int_array(b, ARG(4), c->line, "wm", &wm, &nwm) ||
      !fzn_arg_int_array(b, ARG(5), c->line, "ww", &ww, &nww) || !fzn_arg_int_var(b, ARG(6), c->line, "cost", &cost) ||
      !fzn_arg_int(b, ARG(7), c->line, "kind", &kind))
    return false;
  long long cells = (long long)nm * nm;
  if (nm < 1 || nw != nm || npm != cells || npw != cells || nwm != nww || (nwm != 0 && nwm != cells))
    return fzn_report(b, c->line,
                      "%s: %d men, %d women, %d and %d list entries, %d and %d weights; need n, n, n^2, n^2 and "
                      "n^2 or no weights",
                      c->name, nm, nw, npm, npw, nwm, nww);
  int base = pm[0];
  for (long long i = 1; i < cells; i++)
    if (pm[i] < base) base = pm[i];
  if (base != 0 && base != 1)
    return fzn_report(b, c->line, "%s: the lists' smallest id is %d; ids count from 0 or 1", c->name, base);
  bb_error err = {{0}};
  return fzn_posted(b, c,
                    bb_post_stable_matching_objective(b->space, men, women, nm, base, pm, pw, nwm ? wm : NULL,
                                                      nww ? ww : NULL, cost, kind, &err),
                    &err);
}

const fzn_builtin fzn_stable_matching_objective_builtins[] = {
    {"bamboo_stable_matching_objective", 8, post_objective, 0, 0}, {NULL, 0, NULL, 0, 0}};
