/* The file form of the SMTI and HRT constraints (weak, strong or super-stability, native; post_stable_matching_ties.c
 * posts the matrix form): the lists and ranks stay in a ties file of bamboo-smp's formats (text
 * `smti N1 N2` / `hrt NR NH`, or binary; docs/formats.md), read once here, never by MiniZinc.
 *
 *   bamboo_stable_matching_smti_file(men, women, size, base, pm_len, pw_len)
 *   bamboo_stable_matching_hrt_file(residents, load, size, base, rp_len, hp_len, capacity)
 *       :: bamboo_data_file("PATH")
 *   and the same with _strong_file and _super_file for the other stabilities (the builtin's p1).
 *
 * The variables mean what they mean in the matrix form. The list lengths and capacities are empty
 * in the short forms; given, each is checked against the file (fzn_file_numbers_agree), so that a
 * model computing with them cannot silently disagree with the file. The file's lists go to the
 * matrix form's poster as padded matrices of ids and ranks from base (O(people x longest list)
 * words for the time of the posting). Annotations other than bamboo_data_file are ignored, as in
 * the matrix form (one path: the CPU). */
#include "bb_stable_matching_ties.h"
#include "post_file_form.h"
#include "registry.h"
#include "ties_io.h"

#include <stdlib.h>
#include <string.h>

/* One side of the file as stable_matching_smti's arguments: row-major lists and ranks of `cols`
 * columns (the longest list, at least 1), ids from base. */
typedef struct padded_side {
  int *list, *len, *rank, cols;
} padded_side;

static void padded_free(padded_side *s) {
  free(s->list);
  free(s->len);
  free(s->rank);
}

static bool padded_from(padded_side *s, int n, const uint32_t *start, const bb_id *ids, const uint32_t *ranks,
                        int base) {
  s->cols = 1;
  for (int i = 0; i < n; i++)
    if ((int)(start[i + 1] - start[i]) > s->cols) s->cols = (int)(start[i + 1] - start[i]);
  size_t cells = (size_t)(n ? n : 1) * (size_t)s->cols;
  s->list = calloc(cells, sizeof *s->list);
  s->rank = calloc(cells, sizeof *s->rank);
  s->len = malloc((size_t)(n ? n : 1) * sizeof *s->len);
  if (!s->list || !s->rank || !s->len) return false;
  for (int i = 0; i < n; i++) {
    s->len[i] = (int)(start[i + 1] - start[i]);
    for (uint32_t e = start[i]; e < start[i + 1]; e++) {
      size_t at = (size_t)i * (size_t)s->cols + (e - start[i]);
      s->list[at] = (int)ids[e] + base;
      s->rank[at] = (int)ranks[e];
    }
  }
  return true;
}

/* Arguments 0..5 shared by both: the two sides' variables, size, base, the two sides' lengths. */
typedef struct file_args {
  int *side0, *side1, n0, n1, size, base;
} file_args;

/* The file named by the annotation, whose sides have n0 and n1 people and whose list lengths
 * (and capacities, for HRT) agree with the model's. NULL after reporting. */
static bb_ties *ties_file(fzn_builder *b, const fzn_constraint *c, const char *const names[4], bool smti,
                          const file_args *a, const char **path) {
  *path = fzn_data_file(b, c, smti ? "stable_matching_smti_file.mzn" : "stable_matching_hrt_file.mzn");
  if (!*path) return NULL;
  bb_ties *inst = NULL;
  bb_error err = {{0}};
  if (bb_ties_read(*path, &inst, &err) != BB_OK) {
    fzn_report(b, c->line, "%s: %s", c->name, err.msg);
    return NULL;
  }
  const char *p0 = smti ? "man" : "resident", *p1 = smti ? "woman" : "hospital", *p1s = smti ? "women" : "hospitals";
  bool ok = true;
  if (smti && !inst->smti)
    /* c->name is bamboo_stable_matching_smti[_strong|_super]_file: name the HRT form of the same stability */
    ok = fzn_report(b, c->line, "%s: %s is an HRT instance; use stable_matching_hrt%s", c->name, *path,
                    c->name + strlen("bamboo_stable_matching_smti"));
  else if (inst->n_residents != a->n0 || inst->n_hospitals != a->n1)
    ok = fzn_report(b, c->line, "%s: %s holds %d %s and %d %s, but the constraint has %d %s and %d %s", c->name, *path,
                    inst->n_residents, names[0], inst->n_hospitals, p1s, a->n0, names[0], a->n1, names[1]);
  else if (!fzn_file_numbers_agree(b, c, c->args[4], names[2], p0, "list length", a->n0, a->base, *path,
                                   inst->res_start, NULL, NULL) ||
           !fzn_file_numbers_agree(b, c, c->args[5], names[3], p1, "list length", a->n1, a->base, *path,
                                   inst->hosp_start, NULL, NULL) ||
           (!smti && !fzn_file_numbers_agree(b, c, c->args[6], "capacity", p1, "capacity", a->n1, a->base, *path, NULL,
                                             inst->capacity, NULL)))
    ok = false;
  if (!ok) {
    bb_ties_free(inst);
    return NULL;
  }
  return inst;
}

static bool file_read(fzn_builder *b, const fzn_constraint *c, const char *const names[4], file_args *a) {
  return fzn_sides_head(b, c, names[0], names[1], "size", &a->side0, &a->n0, &a->side1, &a->n1, &a->size, &a->base) &&
         fzn_base_ok(b, c, a->base);
}

static bool post_ties_file(fzn_builder *b, const fzn_constraint *c, bool smti, bb_stability stability) {
  static const char *const smti_names[4] = {"men", "women", "pm_len", "pw_len"};
  static const char *const hrt_names[4] = {"residents", "load", "rp_len", "hp_len"};
  const char *const *names = smti ? smti_names : hrt_names;
  file_args a;
  const char *path;
  if (!file_read(b, c, names, &a)) return false;
  bb_ties *inst = ties_file(b, c, names, smti, &a, &path);
  if (!inst) return false;
  padded_side s0 = {0}, s1 = {0};
  bb_error err = {{0}};
  bb_status st = BB_OK;
  if (!padded_from(&s0, inst->n_residents, inst->res_start, inst->res_list, inst->res_rank, a.base) ||
      !padded_from(&s1, inst->n_hospitals, inst->hosp_start, inst->hosp_list, inst->hosp_rank, a.base))
    st = bb_fail(&err, BB_ERR_NOMEM, "out of memory for the lists of %s", path);
  else if (smti)
    st = bb_post_stable_matching_smti(b->space, a.side0, a.n0, a.side1, a.n1, a.size, a.base, s0.list, s0.len, s0.cols,
                                      s0.rank, s0.cols, s1.list, s1.len, s1.cols, s1.rank, s1.cols, stability, &err);
  else
    st = bb_post_stable_matching_hrt(b->space, a.side0, a.n0, a.side1, a.n1, a.size, a.base, s0.list, s0.len, s0.cols,
                                     s0.rank, s0.cols, s1.list, s1.len, s1.cols, s1.rank, s1.cols, inst->capacity,
                                     stability, &err);
  padded_free(&s0);
  padded_free(&s1);
  bb_ties_free(inst);
  if (st == BB_OK) fzn_cpu_only(b, c);
  return fzn_posted(b, c, st, &err);
}

static bool post_smti_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  return post_ties_file(b, c, true, (bb_stability)self->p1);
}

static bool post_hrt_file(fzn_builder *b, const fzn_constraint *c, const fzn_builtin *self) {
  return post_ties_file(b, c, false, (bb_stability)self->p1);
}

const fzn_builtin fzn_stable_matching_ties_file_builtins[] = {
    {"bamboo_stable_matching_smti_file", 6, post_smti_file, BB_STABILITY_WEAK, 0},
    {"bamboo_stable_matching_smti_strong_file", 6, post_smti_file, BB_STABILITY_STRONG, 0},
    {"bamboo_stable_matching_smti_super_file", 6, post_smti_file, BB_STABILITY_SUPER, 0},
    {"bamboo_stable_matching_hrt_file", 7, post_hrt_file, BB_STABILITY_WEAK, 0},
    {"bamboo_stable_matching_hrt_strong_file", 7, post_hrt_file, BB_STABILITY_STRONG, 0},
    {"bamboo_stable_matching_hrt_super_file", 7, post_hrt_file, BB_STABILITY_SUPER, 0},
    {NULL, 0, NULL, 0, 0}};
