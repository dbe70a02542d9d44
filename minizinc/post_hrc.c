/* Hospitals/Residents with Couples: the two FlatZinc forms of stable_matching_hrc.
 *
 *   bamboo_stable_matching_hrc(singles, couples, bp, base, rp, rp_len, rp_cols, cp1, cp2,
 *                              cp_len, cp_cols, hp, hp_len, hp_cols, capacity, hp_rank,
 *                              hp_rank_cols)
 *   bamboo_stable_matching_hrc_file(singles, couples, bp, base, rp_len, cp_len, hp_len,
 *                                   capacity) :: bamboo_data_file("PATH")
 *
 * Both become an engine instance (bb_hrc, propagator/engine/hrc/hrc.h): the dzn form's
 * arrays are laid out as the engine's lists (residents numbered couples first: couple c's
 * members 2c and 2c + 1, then the singles), the file form is read by the engine's reader
 * (text or binary, FILE:LINE errors). hp_rank (empty: strict lists) ranks each hospital's
 * list with ties, as the file form's brackets do; both become the instance's hosp_rank (ranks
 * from 0, steps of 0 or 1) and mean weak stability. The engine's couples-aware deferred acceptance
 * (bb_hrc_da) then gives the matching that the default brancher tries first, and the shim
 * posts the constraint over the instance's lists (bb_post_stable_matching_hrc).
 *
 * Annotations: ::gpu runs every propagation's counting pass on the GPU and the rules on the
 * host (smc_hrc_path.h: the CPU path's domains); without a usable GPU the poster warns once per
 * model at the user's line (fzn_annotated_path) and the constraint propagates on the CPU.
 * ::cpu (or ::uniud), or no annotation, propagate on the CPU: the GPU's counting pass is slower
 * to the first solution than the CPU (docs/hrc_constraint.md).
 *
 * ::hrc_portfolio(RUNS, POLISH) (declared in decomposition/stable_matching_hrc.mzn, for both
 * forms): when the deferred acceptance ends with blocking pairs, the portfolio of randomised ones
 * (hrc_portfolio.h; RUNS runs on all CPUs, seed 1, POLISH local search steps) runs too, and its
 * best matching, when it has fewer, is the one the brancher tries first (docs/hrc_constraint.md
 * "Search"); the deferred acceptance's stays the value order of the branching that follows.
 * On the GPU path (::gpu with a usable GPU) the runs go to GPU 0, the same runs with the same best (the polish on the CPU); should the GPU fail, they run on the CPU. Values out
 * of range are an error at the model's line. */
#include "post_file_form.h"
#include "bb_hrc.h"
#include "hrc.h"
#include "hrc_portfolio.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The constraint's ::hrc_portfolio(RUNS, POLISH): true with *runs > 0 when it has one (the
 * first), true with *runs = 0 when it has none, false (reported at the model's line) when it is
 * malformed or a value is out of range. */
static bool portfolio_setting(fzn_builder *b, const fzn_constraint *c, int *runs, int *polish) {
  *runs = 0, *polish = 0;
  const fzn_expr *ann = fzn_find_call(&c->annotations, "hrc_portfolio");
  if (!ann) return true;
  const char *what = strncmp(c->name, "bamboo_", 7) ? c->name : c->name + 7;
  if (ann->u.call.count != 2 || ann->u.call.args[0]->kind != FZN_E_INT || ann->u.call.args[1]->kind != FZN_E_INT)
    return fzn_report(b, c->line, "%s: ::hrc_portfolio takes two integers, RUNS and POLISH", what);
  int64_t r = ann->u.call.args[0]->u.i, p = ann->u.call.args[1]->u.i;
  if (r < 1 || r > 1000000 || p < 0 || p > 1000000000)
    return fzn_report(b, c->line, "%s: ::hrc_portfolio(%lld, %lld): RUNS must be 1..1000000 and POLISH 0..1000000000",
                      what, (long long)r, (long long)p);
  *runs = (int)r, *polish = (int)p;
  return true;
}

/* The portfolio's best (malloc'd, for the caller to free) when it has fewer blocking pairs than
 * the deferred acceptance's matching (and the annotation asks for it: runs > 0), else NULL; its
 * runs on GPU 0 when on_gpu. */
static int32_t *maybe_portfolio(const bb_hrc *inst, int runs, int polish, bool on_gpu, uint64_t *blocking) {
  if (*blocking == 0 || runs == 0) return NULL;
  bb_hrc_portfolio_opts o = {.runs = runs, .threads = 0, .seed = 1, .polish_steps = polish, .on_gpu = on_gpu};
  bb_hrc_portfolio_result res;
  bb_error err = {{0}};
  int32_t *best = malloc(((size_t)inst->n_residents + 1) * sizeof *best);
  bb_status st = best ? bb_hrc_portfolio(inst, &o, best, &res, NULL, &err) : BB_ERR_NOMEM;
  if (st != BB_OK && on_gpu && best) { /* the GPU failed: the same runs on the CPU */
    if (getenv("BAMBOO_HRC_DEBUG")) fprintf(stderr, "hrc: portfolio on the GPU: %s; on the CPU\n", err.msg);
    o.on_gpu = on_gpu = false;
    st = bb_hrc_portfolio(inst, &o, best, &res, NULL, &err);
  }
  bool better = st == BB_OK && res.blocking < *blocking;
  if (better) *blocking = res.blocking;
  if (getenv("BAMBOO_HRC_DEBUG"))
    fprintf(stderr, "hrc: portfolio of %d runs, %d polish steps: %llu blocking pairs (%s)\n", runs, polish,
            (unsigned long long)*blocking, on_gpu ? "on the GPU" : "on the CPU");
  if (better) return best;
  free(best);
  return NULL;
}

/* Runs the deferred acceptance and posts the constraint over `inst` (freed here). */
static bool post_instance(fzn_builder *b, const fzn_constraint *c, bb_hrc *inst, const int *singles, int ns,
                          const int *couples, int nc, int bp, int base) {
  int runs, polish;
  if (!portfolio_setting(b, c, &runs, &polish)) { /* before the deferred acceptance's time */
    bb_hrc_free(inst);
    return false;
  }
  bb_error err = {{0}};
  int32_t *first = malloc(((size_t)inst->n_residents + 1) * sizeof *first);
  bool ok = first != NULL;
  if (!ok) {
    bb_note_out_of_memory();
    fzn_report(b, c->line, "%s: out of memory", c->name);
  }
  bb_smc_path path = fzn_annotated_path(b, c);
  /* The deferred acceptance is only a value order: if it cannot run, search starts without it. */
  uint64_t da_bp = 0;
  if (ok && bb_hrc_da(inst, NULL, first, NULL, &da_bp, NULL, &err) != BB_OK) {
    free(first);
    first = NULL;
  }
  if (getenv("BAMBOO_HRC_DEBUG"))
    fprintf(stderr, "hrc: deferred acceptance: %llu blocking pairs\n", (unsigned long long)da_bp);
  /* The portfolio's matching is only the first decision (the incumbent under minimize); the
   * deferred acceptance's stays the value order: below the better bound the search tries the
   * values the plain search tries (a refutation's length depends on the value order). */
  int32_t *better = first ? maybe_portfolio(inst, runs, polish, path == BB_SMC_PATH_GPU, &da_bp) : NULL;
  if (ok) {
    bb_smc_hrc_lists L = bb_smc_hrc_lists_of(inst);
    bb_stable_matching_hrc_options opts = {path, better ? first : NULL};
    bb_status st = bb_post_stable_matching_hrc(b->space, singles, ns, couples, nc, bp, base, &L,
                                               better ? better : first, &opts, &err);
    ok = fzn_posted(b, c, st, &err);
  }
  free(better);
  free(first);
  bb_hrc_free(inst);
  return ok;
}

/* Row i's first len entries of a row-major matrix with `cols` columns, as 0-based ids below n. */
static bool copy_row(fzn_builder *b, const fzn_constraint *c, const char *name, const int *m, int rows, int cols, int i,
                     int len, int base, int n, bb_id *out) {
  if (len < 0 || len > cols || i >= rows)
    return fzn_report(b, c->line, "%s: row %d of %s: length %d outside 0..%d", c->name, base + i, name, len, cols);
  for (int k = 0; k < len; k++) {
    int id = m[(size_t)i * cols + k] - base;
    if (id < 0 || id >= n)
      return fzn_report(b, c->line, "%s: %s[%d, %d] = %d is no id (%d..%d)", c->name, name, base + i, base + k,
                        id + base, base, base + n - 1);
    out[k] = (bb_id)id;
  }
  return true;
}

/* The hospitals' ranks (row-major, `cols` columns; equal ranks tied) as inst->hosp_rank: from
 * 0, one step per change of rank. */
static bool take_ranks(fzn_builder *b, const fzn_constraint *c, bb_hrc *inst, const int *hr, int cols, int base) {
  bb_error err = {{0}};
  if (bb_hrc_add_ranks(inst, &err) != BB_OK) return fzn_report(b, c->line, "%s: %s", c->name, err.msg);
  for (int h = 0; h < inst->n_hospitals; h++)
    for (uint32_t e = inst->hosp_start[h]; e < inst->hosp_start[h + 1]; e++) {
      uint32_t k = e - inst->hosp_start[h];
      const int *row = hr + (size_t)h * (size_t)cols;
      if (k > 0 && row[k] < row[k - 1])
        return fzn_report(b, c->line, "%s: the ranks of hospital %d decrease from %d to %d at position %d", c->name,
                          base + h, row[k - 1], row[k], base + (int)k);
      inst->hosp_rank[e] = k == 0 ? 0 : inst->hosp_rank[e - 1] + (row[k] != row[k - 1]);
    }
  return true;
}

/* bamboo_stable_matching_hrc: the dzn form. */
static bool post_hrc(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  fzn_hrc_residents a;
  int *hp, *hp_len, hp_cols, *cap, *hr, hr_cols, nhp, nhl, nh, nhr;
  if (!fzn_hrc_residents_read(b, c, "bp", &a) || !fzn_arg_int_array(b, ARG(11), c->line, "hp", &hp, &nhp) ||
      !fzn_arg_int_array(b, ARG(12), c->line, "hp_len", &hp_len, &nhl) ||
      !fzn_arg_int(b, ARG(13), c->line, "hp_cols", &hp_cols) ||
      !fzn_arg_int_array(b, ARG(14), c->line, "capacity", &cap, &nh) ||
      !fzn_arg_int_array(b, ARG(15), c->line, "hp_rank", &hr, &nhr) ||
      !fzn_arg_int(b, ARG(16), c->line, "hp_rank_cols", &hr_cols))
    return false;
  if (!fzn_hrc_residents_ok(b, c, &a) ||
      !fzn_padded_lists_ok(b, c, "hp", nhp, "hp_len", nhl, "hp_cols", hp_cols, nh, "hospitals") ||
      (nhr > 0 && !fzn_padded_lists_ok(b, c, "hp_rank", nhr, "hp_len", nhl, "hp_rank_cols", hr_cols, nh, "hospitals")))
    return false;
  int *singles = a.singles, *couples = a.couples, bp = a.var, base = a.base, ns = a.ns, nc = a.nc;
  int *rp = a.rp, *rp_len = a.rp_len, rp_cols = a.rp_cols, *cp1 = a.cp1, *cp2 = a.cp2, *cp_len = a.cp_len;
  int cp_cols = a.cp_cols;
  int nr = ns + 2 * nc;
  uint64_t se = 0, ce = 0, he = 0;
  for (int i = 0; i < ns; i++) se += (uint64_t)(rp_len[i] > 0 ? rp_len[i] : 0);
  for (int i = 0; i < nc; i++) ce += (uint64_t)(cp_len[i] > 0 ? cp_len[i] : 0);
  for (int i = 0; i < nh; i++) he += (uint64_t)(hp_len[i] > 0 ? hp_len[i] : 0);
  bb_error err = {{0}};
  bb_hrc *inst = bb_hrc_new(nr, nh, nc, se, ce, he, &err);
  if (!inst) return fzn_report(b, c->line, "%s: %s", c->name, err.msg);
  bool ok = true;
  uint32_t at = 0;
  for (int r = 0; r < nr && ok; r++) {
    inst->single_start[r] = at;
    if (r < 2 * nc) {
      inst->couple_of[r] = r / 2;
      inst->couple_member[r] = r;
      continue;
    }
    int i = r - 2 * nc;
    ok = copy_row(b, c, "rp", rp, ns, rp_cols, i, rp_len[i], base, nh, inst->single_list + at);
    at += ok ? (uint32_t)rp_len[i] : 0;
  }
  inst->single_start[nr] = at;
  at = 0;
  bb_id *row = malloc(((size_t)cp_cols + 1) * sizeof *row);
  if (!row) ok = fzn_report(b, c->line, "%s: out of memory", c->name);
  for (int i = 0; i < nc && ok; i++) {
    inst->couple_start[i] = at;
    ok = copy_row(b, c, "cp1", cp1, nc, cp_cols, i, cp_len[i], base, nh, row);
    for (int k = 0; ok && k < cp_len[i]; k++) inst->couple_list[2 * (at + (uint32_t)k)] = row[k];
    ok = ok && copy_row(b, c, "cp2", cp2, nc, cp_cols, i, cp_len[i], base, nh, row);
    for (int k = 0; ok && k < cp_len[i]; k++) inst->couple_list[2 * (at + (uint32_t)k) + 1] = row[k];
    at += ok ? (uint32_t)cp_len[i] : 0;
  }
  free(row);
  inst->couple_start[nc] = at;
  at = 0;
  for (int h = 0; h < nh && ok; h++) {
    inst->hosp_start[h] = at;
    ok = copy_row(b, c, "hp", hp, nh, hp_cols, h, hp_len[h], base, nr, inst->hosp_list + at);
    at += ok ? (uint32_t)hp_len[h] : 0;
    inst->capacity[h] = cap[h];
  }
  inst->hosp_start[nh] = at;
  if (ok && nhr > 0) ok = take_ranks(b, c, inst, hr, hr_cols, base);
  if (ok && bb_hrc_validate(inst, &err) != BB_OK) ok = fzn_report(b, c->line, "%s: %s", c->name, err.msg);
  if (!ok) {
    bb_hrc_free(inst);
    return false;
  }
  return post_instance(b, c, inst, singles, ns, couples, nc, bp, base);
}

/* bamboo_stable_matching_hrc_file: the file form. */
static bool post_hrc_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *singles, *couples, bp, base, ns, nc;
  const char *path;
  bb_hrc *inst = fzn_hrc_file(b, c, "bp", &singles, &ns, &couples, &nc, &bp, &base, &path);
  if (!inst) return false;
  int nh = inst->n_hospitals;
  size_t most = (size_t)(ns > nc ? ns : nc) > (size_t)nh ? (size_t)(ns > nc ? ns : nc) : (size_t)nh;
  int64_t *numbers = malloc((most + 1) * sizeof *numbers);
  bool ok = numbers != NULL;
  if (!ok) fzn_report(b, c->line, "%s: out of memory", c->name);
  if (ok) { /* single lengths, in the order of the singles' variables (resident id) */
    int i = 0;
    for (int r = 0; r < inst->n_residents; r++)
      if (inst->couple_of[r] == BB_HRC_SINGLE) numbers[i++] = inst->single_start[r + 1] - inst->single_start[r];
    ok = fzn_file_numbers_agree(b, c, ARG(4), "rp_len", "single", "list length", ns, base, path, NULL, NULL, numbers);
  }
  if (ok) {
    for (int i = 0; i < nc; i++) numbers[i] = inst->couple_start[i + 1] - inst->couple_start[i];
    ok = fzn_file_numbers_agree(b, c, ARG(5), "cp_len", "couple", "list length", nc, base, path, NULL, NULL, numbers);
  }
  if (ok) {
    for (int h = 0; h < nh; h++) numbers[h] = inst->hosp_start[h + 1] - inst->hosp_start[h];
    ok = fzn_file_numbers_agree(b, c, ARG(6), "hp_len", "hospital", "list length", nh, base, path, NULL, NULL, numbers);
  }
  if (ok) {
    for (int h = 0; h < nh; h++) numbers[h] = inst->capacity[h];
    ok = fzn_file_numbers_agree(b, c, ARG(7), "capacity", "hospital", "capacity", nh, base, path, NULL, NULL, numbers);
  }
  free(numbers);
  if (!ok) {
    bb_hrc_free(inst);
    return false;
  }
  return post_instance(b, c, inst, singles, ns, couples, nc, bp, base);
}

const fzn_builtin fzn_hrc_builtins[] = {{"bamboo_stable_matching_hrc", 17, post_hrc, 0, 0},
                                        {"bamboo_stable_matching_hrc_file", 8, post_hrc_file, 0, 0},
                                        {NULL, 0, NULL, 0, 0}};
