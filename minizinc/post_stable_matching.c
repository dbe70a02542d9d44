/* Every form of the Stable Marriage constraints that fzn-bamboo posts: the dzn forms, whose
 * preference data MiniZinc flattened into arrays (bamboo_stable_matching,
 * bamboo_stable_matching_smi; Hospitals/Residents reaches the latter cloned by mznlib), and the
 * file forms below. The annotations (::gpu, ::cpu, ::men_proposing, ...) mean the same in all
 * of them (fzn_smc_options).
 *
 * The file form, for matrices too big to go through FlatZinc: the preference data stays in a
 * bamboo-smp instance file, which MiniZinc never expands, and fzn-bamboo reads it when it
 * posts the constraint. mznlib's stable_matching_file.mzn passes the path in an annotation,
 * because FlatZinc constraints take no strings:
 *
 *   bamboo_stable_matching_file(men, women, base)                            :: bamboo_data_file("PATH")
 *   bamboo_stable_matching_smi_file(men, women, base, pm_len, pw_len)        :: bamboo_data_file("PATH")
 *   bamboo_stable_matching_hr_file_cloned(residents, posts, cols, base,
 *                                  rp_len, hp_len, capacity)                 :: bamboo_data_file("PATH")
 *   (HR by cloning, for comparisons; bamboo_stable_matching_hr_file is native: post_stable_matching_hr.c)
 *
 * The file is read by the engine's readers (text or binary, told apart by their first bytes;
 * docs/formats.md), so it gets their validation and FILE:LINE messages. Its sizes must agree
 * with the constraint's arrays, and the list lengths and capacities the model computes with
 * (the .dzn beside the file, passed to the long forms; empty arrays from the short forms) with
 * the file's, one by one: a model whose "unmatched" rank or capacity differs from the file's
 * would otherwise get a wrong answer, not an error. A complete instance's lists become the constraint's data
 * without a copy (bb_smc_prefs_adopt); SMI goes in as CSR; HR is cloned into posts here,
 * exactly as mznlib's stable_matching_hr does in MiniZinc for the dzn form. */
#include "post_file_form.h"
#include "bb_stable_matching.h"
#include "smc_tuning.h"
#include "hr_io.h"
#include "instance_any.h"
#include "instance_io.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

/* ::gpu and ::cpu (alias ::uniud, [Travasci 2025]'s name for the serial propagator) force a path;
 * without either, the hybrid chooses at every propagation. ::men_proposing asks for the
 * weaker strength (MGS-lists), ::gs_lists for the default (arc consistency). A ::gpu that
 * cannot be had (n above gpu_max_n when that is > 0, or no usable GPU) warns and runs on the
 * CPU; `what` names the constraint in the warning. The warning for no GPU comes once per model,
 * at the first ::gpu constraint, and says why in the probe's words (bb_gpu_probe: "no NVIDIA
 * GPU or driver found" where there is none). */
static bb_stable_matching_options fzn_smc_options(fzn_builder *b, const fzn_constraint *c, const char *what, int n,
                                                  int gpu_max_n) {
  bb_stable_matching_options opts = {BB_SMC_GS_LISTS, BB_SMC_PATH_AUTO};
  for (int a = 0; a < c->annotations.count; a++) {
    const fzn_expr *ann = c->annotations.items[a];
    if (ann->kind != FZN_E_ID) continue;
    const char *name = ann->u.id.name;
    if (!strcmp(name, "cpu") || !strcmp(name, "uniud")) opts.path = BB_SMC_PATH_CPU;
    if (!strcmp(name, "gpu")) opts.path = BB_SMC_PATH_GPU;
    if (!strcmp(name, "men_proposing")) opts.strength = BB_SMC_MEN_PROPOSING;
    if (!strcmp(name, "gs_lists")) opts.strength = BB_SMC_GS_LISTS;
  }
  if (opts.path == BB_SMC_PATH_GPU && gpu_max_n > 0 && n > gpu_max_n) {
    fzn_warn(b, c->line, "::gpu: n = %d is above the GPU path's limit of %d; %s propagates on the CPU", n, gpu_max_n,
             what);
    opts.path = BB_SMC_PATH_CPU;
  }
  if (opts.path == BB_SMC_PATH_GPU && !fzn_gpu_usable(b, c, what)) opts.path = BB_SMC_PATH_CPU;
  return opts;
}

/* A row-major matrix `name` of rows x cols as the constraint declares it, and the number of
 * entries its data has: they agree, or the message gives both. */
static bool matrix_entries(fzn_builder *b, const fzn_constraint *c, const char *name, int rows, int cols, int entries) {
  if (rows >= 0 && cols >= 0 && (long long)rows * cols == entries) return true;
  return fzn_report(b, c->line, "%s: %s is declared %d x %d (%lld entries) but its data has %d entries", c->name, name,
                    rows, cols, (long long)rows * cols, entries);
}

/* bamboo_stable_matching(men, women, pm, pw, pm_rows, pm_cols, pw_rows, pw_cols) :: gpu/cpu/uniud. */
static bool post_stable_matching(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, *pm = NULL, *pw = NULL, nm, nw, npm, npw, dims[4];
  bool own_pm = false, own_pw = false; /* handed over by the model: ours to free or to give on */
  bb_error err;
  bool ok = fzn_arg_int_var_array(b, ARG(0), c->line, "men", &men, &nm) &&
            fzn_arg_int_var_array(b, ARG(1), c->line, "women", &women, &nw) &&
            fzn_arg_int_array_take(b, ARG(2), c->line, "pm", &pm, &npm, &own_pm) &&
            fzn_arg_int_array_take(b, ARG(3), c->line, "pw", &pw, &npw, &own_pw);
  for (int k = 0; ok && k < 4; k++) ok = fzn_arg_int(b, ARG(4 + k), c->line, "matrix size", &dims[k]);
  if (ok) ok = matrix_entries(b, c, "pm", dims[0], dims[1], npm) && matrix_entries(b, c, "pw", dims[2], dims[3], npw);
  if (!ok) {
    if (own_pm) free(pm);
    if (own_pw) free(pw);
    return false;
  }
  bb_stable_matching_options opts = fzn_smc_options(b, c, "stable_matching", dims[0], BB_SMC_GPU_MAX_N);
  if (own_pm && own_pw) { /* the big case: the constraint builds its data in the model's arrays */
    bb_smc_prefs *prefs = bb_smc_prefs_take(nm, nw, pm, dims[0], dims[1], pw, dims[2], dims[3], &err);
    if (!prefs) return fzn_posted(b, c, BB_ERR_INPUT, &err); /* or out of memory: the message says which */
    return fzn_posted(b, c, bb_post_stable_matching_prefs(b->space, men, nm, women, nw, prefs, &opts, &err), &err);
  }
  bb_status st =
      bb_post_stable_matching(b->space, men, nm, women, nw, pm, dims[0], dims[1], pw, dims[2], dims[3], &opts, &err);
  if (own_pm) free(pm);
  if (own_pw) free(pw);
  return fzn_posted(b, c, st, &err);
}

/* bamboo_stable_matching_smi(men, women, base, pm, pm_len, pm_cols, pw, pw_len, pw_cols) :: gpu/cpu/uniud.
 * Incomplete lists (and Hospitals/Residents, which mznlib clones into SMI). pm and pw are
 * row-major with pm_cols / pw_cols columns, rows padded past their lengths; the core
 * validates the lists themselves (bb_smc_prefs_new_smi) and names the row. */
static bool post_stable_matching_smi(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, *pm, *pw, *pm_len, *pw_len, nm, nw, npm, npw, npm_len, npw_len, base, pm_cols, pw_cols;
  bb_error err;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "men", &men, &nm) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "women", &women, &nw) ||
      !fzn_arg_int(b, ARG(2), c->line, "base", &base) || !fzn_arg_int_array(b, ARG(3), c->line, "pm", &pm, &npm) ||
      !fzn_arg_int_array(b, ARG(4), c->line, "pm_len", &pm_len, &npm_len) ||
      !fzn_arg_int(b, ARG(5), c->line, "pm_cols", &pm_cols) ||
      !fzn_arg_int_array(b, ARG(6), c->line, "pw", &pw, &npw) ||
      !fzn_arg_int_array(b, ARG(7), c->line, "pw_len", &pw_len, &npw_len) ||
      !fzn_arg_int(b, ARG(8), c->line, "pw_cols", &pw_cols))
    return false;
  if (!fzn_check_same_length(b, c, nm, npm_len, "men and pm_len") ||
      !fzn_check_same_length(b, c, nw, npw_len, "women and pw_len"))
    return false;
  /* One row per man (woman): the rows are the men's, so the declared rows are nm and nw. */
  if (!matrix_entries(b, c, "pm", nm, pm_cols, npm) || !matrix_entries(b, c, "pw", nw, pw_cols, npw)) return false;
  bb_stable_matching_options opts = fzn_smc_options(b, c, "stable_matching_smi", 0, 0);
  return fzn_posted(b, c,
                    bb_post_stable_matching_smi(b->space, men, nm, women, nw, base, pm, pm_len, pm_cols, pw, pw_len,
                                                pw_cols, &opts, &err),
                    &err);
}

/* ---- The file forms ---- */

/* Reads PATH; exactly one of *complete and *incomplete is set on success. */
static bool read_file(fzn_builder *b, const fzn_constraint *c, const char *path, bb_instance **complete,
                      bb_hr **incomplete) {
  bb_error err = {{0}};
  *complete = NULL;
  *incomplete = NULL;
  if (bb_read_any_instance(path, complete, incomplete, &err) == BB_OK) return true;
  return fzn_report(b, c->line, "%s: %s", c->name, err.msg);
}

/* The arguments (men, women, base) and the instance file of the complete and SMI forms; on
 * success exactly one of *complete and *incomplete is set. */
static bool men_women_file(fzn_builder *b, const fzn_constraint *c, int **men, int *nm, int **women, int *nw, int *base,
                           const char **path, bb_instance **complete, bb_hr **incomplete) {
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "men", men, nm) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "women", women, nw) ||
      !fzn_arg_int(b, ARG(2), c->line, "base", base) || !fzn_base_ok(b, c, *base))
    return false;
  *path = fzn_data_file(b, c, "stable_matching_file.mzn");
  return *path && read_file(b, c, *path, complete, incomplete);
}

/* What the file holds, for messages. */
static const char *kind_of(const bb_instance *complete, const bb_hr *incomplete) {
  return complete ? "a complete instance" : incomplete->smi ? "an SMI instance" : "an HR instance";
}

/* bamboo_stable_matching_file(men, women, base) :: bamboo_data_file(PATH). */
static bool post_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, nm, nw, base;
  const char *path;
  bb_instance *inst;
  bb_hr *other;
  if (!men_women_file(b, c, &men, &nm, &women, &nw, &base, &path, &inst, &other)) return false;
  if (!inst) {
    const char *kind = kind_of(NULL, other);
    bool smi = other->smi;
    bb_hr_free(other);
    return fzn_report(b, c->line, "%s: %s is %s; use stable_matching_%s_file", c->name, path, kind, smi ? "smi" : "hr");
  }
  if (inst->n != nm || inst->n != nw) {
    int n = inst->n;
    bb_instance_free(inst);
    return fzn_report(b, c->line, "%s: %s holds n = %d, but the constraint has %d men and %d women", c->name, path, n,
                      nm, nw);
  }
  /* The lists become the constraint's data as they are (bb_id and int32_t are both 32 bits;
   * ids are below 2^31). */
  bb_error err = {{0}};
  int32_t *mp = (int32_t *)inst->men_prefs, *wp = (int32_t *)inst->women_prefs;
  int n = inst->n;
  inst->men_prefs = inst->women_prefs = NULL;
  bb_instance_free(inst);
  bb_smc_prefs *prefs = bb_smc_prefs_adopt(n, base, mp, wp, &err);
  if (!prefs) return fzn_report(b, c->line, "%s: %s: %s", c->name, path, err.msg);
  bb_stable_matching_options opts = fzn_smc_options(b, c, c->name, 0, 0);
  return fzn_posted(b, c, bb_post_stable_matching_prefs(b->space, men, nm, women, nw, prefs, &opts, &err), &err);
}

/* bamboo_stable_matching_smi_file(men, women, base) :: bamboo_data_file(PATH). */
static bool post_smi_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *men, *women, nm, nw, base;
  const char *path;
  bb_instance *complete;
  bb_hr *inst;
  if (!men_women_file(b, c, &men, &nm, &women, &nw, &base, &path, &complete, &inst)) return false;
  if (!inst || !inst->smi) {
    const char *kind = kind_of(complete, inst);
    bool hr = inst != NULL;
    bb_instance_free(complete);
    bb_hr_free(inst);
    return fzn_report(b, c->line, "%s: %s is %s; use stable_matching_%sfile", c->name, path, kind, hr ? "hr_" : "");
  }
  if (inst->n_residents != nm || inst->n_hospitals != nw) {
    int r = inst->n_residents, h = inst->n_hospitals;
    bb_hr_free(inst);
    return fzn_report(b, c->line, "%s: %s holds %d men and %d women, but the constraint has %d and %d", c->name, path,
                      r, h, nm, nw);
  }
  if (!fzn_file_numbers_agree(b, c, ARG(3), "pm_len", "man", "list length", nm, base, path, inst->res_start, NULL,
                              NULL) ||
      !fzn_file_numbers_agree(b, c, ARG(4), "pw_len", "woman", "list length", nw, base, path, inst->hosp_start, NULL,
                              NULL)) {
    bb_hr_free(inst);
    return false;
  }
  bb_error err = {{0}};
  bb_stable_matching_options opts = fzn_smc_options(b, c, c->name, 0, 0);
  bb_status st = bb_post_stable_matching_smi_csr(b->space, men, nm, women, nw, base, inst->res_start, inst->res_list,
                                                 inst->hosp_start, inst->hosp_list, &opts, &err);
  bb_hr_free(inst);
  return fzn_posted(b, c, st, &err);
}

/* bamboo_stable_matching_hr_file(residents, posts, cols, base) :: bamboo_data_file(PATH).
 * posts is nH x cols row-major (cols >= the largest capacity). The cloning reduction:
 * hospital h becomes capacity[h] posts with h's list, and in a resident's list h becomes its
 * posts in order. An SMI constraint over the residents' ranks of posts and the posts' ranks
 * of residents (new variables) is channelled to the model's variables:
 *   residents[r] = b + the rank in r's list of the hospital of r's post (b + |list| if none);
 *   posts[h, q]  = the q-th post's variable for q < capacity[h], else b + |h's list| (empty). */
static bool post_hr_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  (void)self;
  int *res, *posts, nr, np, cols, base;
  if (!fzn_arg_int_var_array(b, ARG(0), c->line, "residents", &res, &nr) ||
      !fzn_arg_int_var_array(b, ARG(1), c->line, "posts", &posts, &np) ||
      !fzn_arg_int(b, ARG(2), c->line, "posts' columns", &cols) || !fzn_arg_int(b, ARG(3), c->line, "base", &base) ||
      !fzn_base_ok(b, c, base))
    return false;
  const char *path;
  bb_hr *inst = fzn_hr_file(b, c, nr, np, cols, base, &path);
  if (!inst) return false;
  int nh = inst->n_hospitals;
  int64_t n_posts = 0;
  for (int h = 0; h < nh; h++) n_posts += inst->capacity[h];
  bool ok = true;
  if (n_posts > BB_MAX_N)
    ok =
        fzn_report(b, c->line, "%s: %s has %lld posts in all; at most %d", c->name, path, (long long)n_posts, BB_MAX_N);
  /* The clone in CSR: first[h] = h's first post. */
  uint32_t *first = NULL, *m_start = NULL, *m_list = NULL, *w_start = NULL, *w_list = NULL;
  int *table = NULL;
  uint64_t m_entries = 0;
  if (ok) {
    first = malloc(((size_t)nh + 1) * sizeof *first);
    m_start = malloc(((size_t)nr + 1) * sizeof *m_start);
    w_start = malloc(((size_t)n_posts + 1) * sizeof *w_start);
    ok = first && m_start && w_start;
  }
  if (ok) {
    first[0] = 0;
    for (int h = 0; h < nh; h++) first[h + 1] = first[h] + (uint32_t)inst->capacity[h];
    for (int r = 0; r < nr; r++)
      for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++)
        m_entries += (uint64_t)inst->capacity[inst->res_list[e]];
    uint64_t w_entries = 0;
    for (int h = 0; h < nh; h++)
      w_entries += (uint64_t)inst->capacity[h] * (inst->hosp_start[h + 1] - inst->hosp_start[h]);
    if (m_entries > UINT32_MAX || w_entries > UINT32_MAX) {
      ok = fzn_report(b, c->line, "%s: the cloned lists of %s are too long (%llu and %llu entries)", c->name, path,
                      (unsigned long long)m_entries, (unsigned long long)w_entries);
    } else {
      m_list = malloc((m_entries + 1) * sizeof *m_list);
      w_list = malloc((w_entries + 1) * sizeof *w_list);
      ok = m_list && w_list;
      if (!ok) {
        bb_note_out_of_memory();
        fzn_report(b, c->line, "%s: out of memory for the cloned lists of %s", c->name, path);
      }
    }
  }
  if (ok) {
    uint32_t at = 0;
    for (int r = 0; r < nr; r++) {
      m_start[r] = at;
      for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++)
        for (uint32_t p = first[inst->res_list[e]]; p < first[inst->res_list[e] + 1]; p++) m_list[at++] = p;
    }
    m_start[nr] = at;
    at = 0;
    for (int h = 0; h < nh; h++)
      for (uint32_t p = first[h]; p < first[h + 1]; p++) {
        w_start[p] = at;
        for (uint32_t e = inst->hosp_start[h]; e < inst->hosp_start[h + 1]; e++) w_list[at++] = inst->hosp_list[e];
      }
    w_start[n_posts] = at;
  }
  /* The clone's variables, then the constraint over them and the channels. */
  bb_error err = {{0}};
  int *rp = ok ? malloc(((size_t)nr + 1) * sizeof *rp) : NULL,
      *pv = ok ? malloc(((size_t)n_posts + 1) * sizeof *pv) : NULL;
  ok = ok && rp && pv;
  for (int r = 0; ok && r < nr; r++)
    rp[r] = bb_int_var(b->space, base, base + (int)(m_start[r + 1] - m_start[r]), &err);
  for (int64_t p = 0; ok && p < n_posts; p++)
    pv[p] = bb_int_var(b->space, base, base + (int)(w_start[p + 1] - w_start[p]), &err);
  if (ok) {
    bb_stable_matching_options opts = fzn_smc_options(b, c, c->name, 0, 0);
    ok = fzn_posted(b, c,
                    bb_post_stable_matching_smi_csr(b->space, rp, nr, pv, (int)n_posts, base, m_start, m_list, w_start,
                                                    w_list, &opts, &err),
                    &err);
  }
  /* residents[r] = table_r[rp[r] - base]: the rank of the post's hospital in r's own list. */
  for (int r = 0; ok && r < nr; r++) {
    int len = (int)(m_start[r + 1] - m_start[r]), k = 0;
    int *grown = realloc(table, ((size_t)len + 1) * sizeof *table);
    if (!grown) {
      bb_note_out_of_memory();
      ok = fzn_report(b, c->line, "%s: out of memory", c->name);
      break;
    }
    table = grown;
    for (uint32_t e = inst->res_start[r]; e < inst->res_start[r + 1]; e++)
      for (int q = 0; q < inst->capacity[inst->res_list[e]]; q++) table[k++] = base + (int)(e - inst->res_start[r]);
    table[k] = base + (int)(inst->res_start[r + 1] - inst->res_start[r]); /* unassigned */
    ok = fzn_posted(b, c, bb_post_array_int_element(b->space, rp[r], table, len + 1, base, res[r], BB_IPL_DOM, &err),
                    &err);
  }
  for (int h = 0; ok && h < nh; h++) {
    int empty = base + (int)(inst->hosp_start[h + 1] - inst->hosp_start[h]);
    for (int q = 0; ok && q < cols; q++) {
      int x = posts[(size_t)h * cols + q];
      bb_status st =
          q < inst->capacity[h]
              ? bb_post_int_rel(b->space, x, BB_EQ, pv[first[h] + (uint32_t)q], bb_reif_none(), BB_IPL_DEF, &err)
              : bb_post_int_rel_const(b->space, x, BB_EQ, empty, bb_reif_none(), BB_IPL_DEF, &err);
      ok = fzn_posted(b, c, st, &err);
    }
  }
  free(table);
  free(rp);
  free(pv);
  free(first);
  free(m_start);
  free(m_list);
  free(w_start);
  free(w_list);
  bb_hr_free(inst);
  return ok;
}

const fzn_builtin fzn_stable_matching_builtins[] = {
    {"bamboo_stable_matching", 8, post_stable_matching, 0, 0},
    {"bamboo_stable_matching_smi", 9, post_stable_matching_smi, 0, 0},
    {"bamboo_stable_matching_file", 3, post_file, 0, 0},
    {"bamboo_stable_matching_smi_file", 5, post_smi_file, 0, 0},
    {"bamboo_stable_matching_hr_file_cloned", 7, post_hr_file, 0, 0}, /* native: post_stable_matching_hr.c */
    {NULL, 0, NULL, 0, 0}};
