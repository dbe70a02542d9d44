/* The ties generators (ties_gen.h): valid, reproducible, and shaped as documented
 * (docs/generators.md, "Ties"); the school-choice preset solved at full size. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "ties.h"
#include "ties_gen.h"

static bb_ties *make(const bb_ties_gen_params *p) {
  bb_ties *in = NULL;
  bb_error err = {{0}};
  CHECKF(bb_ties_generate(p, &in, &err) == BB_OK && in, "%s", err.msg);
  if (in) CHECKF(bb_ties_validate(in, &err) == BB_OK, "%s", err.msg);
  return in;
}

static bool same(const bb_ties *a, const bb_ties *b) {
  uint64_t er = a->res_start[a->n_residents], eh = a->hosp_start[a->n_hospitals];
  return a->n_residents == b->n_residents && a->n_hospitals == b->n_hospitals && er == b->res_start[b->n_residents] &&
         eh == b->hosp_start[b->n_hospitals] && !memcmp(a->res_list, b->res_list, er * 4) &&
         !memcmp(a->res_rank, b->res_rank, er * 4) && !memcmp(a->hosp_list, b->hosp_list, eh * 4) &&
         !memcmp(a->hosp_rank, b->hosp_rank, eh * 4) && !memcmp(a->capacity, b->capacity, (size_t)a->n_hospitals * 4);
}

static void reproducible(bb_ties_gen_kind kind, int nr, int nh) {
  bb_ties_gen_params p;
  bb_ties_gen_defaults(kind, &p);
  p.n_residents = nr, p.n_hospitals = nh;
  bb_ties *a = make(&p), *b = make(&p);
  p.seed = 2;
  bb_ties *c = make(&p);
  CHECK(a && b && c && same(a, b) && !same(a, c));
  bb_ties_free(a), bb_ties_free(b), bb_ties_free(c);
}

static void smti_shape(void) {
  bb_ties_gen_params p;
  bb_ties_gen_defaults(BB_TIES_GEN_SMTI, &p);
  p.n_residents = p.n_hospitals = 200, p.p1 = 0.3, p.p2 = 0.4;
  bb_ties *in = make(&p);
  if (!in) return;
  uint64_t er = in->res_start[200], ties = 0, steps = 0;
  double kept = (double)er / (200.0 * 200.0);
  CHECKF(fabs(kept - 0.7) < 0.02, "kept %.3f of the pairs, expected 0.7", kept);
  CHECK(er == in->hosp_start[200] && in->smti);
  for (int m = 0; m < 200; m++)
    for (uint32_t e = in->res_start[m] + 1; e < in->res_start[m + 1]; e++, steps++)
      ties += in->res_rank[e] == in->res_rank[e - 1];
  CHECKF(fabs((double)ties / (double)steps - 0.4) < 0.02, "tie rate %.3f, expected 0.4", (double)ties / (double)steps);
  /* every pair is mutual: deletion removes it from both lists */
  uint32_t *other = malloc(er * sizeof *other);
  bb_ties_mutual_ranks(in, other, NULL, NULL);
  uint64_t one_sided = 0;
  for (uint64_t e = 0; e < er; e++) one_sided += other[e] == BB_TIES_ONE_SIDED;
  CHECK(one_sided == 0);
  free(other);
  bb_ties_free(in);
  p.p1 = 0, p.p2 = 0, p.n_residents = p.n_hospitals = 20;
  in = make(&p);
  CHECK(in && in->res_start[20] == 400 && in->res_rank[19] == 19);
  bb_ties_free(in);
  p.p2 = 1;
  in = make(&p);
  CHECK(in && in->res_rank[19] == 0 && in->hosp_rank[399] == 0);
  bb_ties_free(in);
  p.p1 = 1.5;
  bb_error err = {{0}};
  CHECK(bb_ties_generate(&p, &in, &err) == BB_ERR_ARG && strstr(err.msg, "[0, 1]"));
}

/* hrt: every hospital orders its applicants by one master list of scores. */
static void hrt_shape(void) {
  bb_ties_gen_params p;
  bb_ties_gen_defaults(BB_TIES_GEN_HRT, &p);
  bb_ties *in = make(&p);
  if (!in) return;
  CHECK(in->n_residents == 700 && in->n_hospitals == 50 && in->capacity[0] == 14);
  bool consistent = true, some_tie = false;
  for (int r = 0; r < 700; r++)
    CHECK(in->res_start[r + 1] - in->res_start[r] == 6 && in->res_rank[in->res_start[r] + 5] == 5);
  for (int h = 0; h < 50; h++)
    for (uint32_t a = in->hosp_start[h]; a < in->hosp_start[h + 1]; a++)
      for (uint32_t b = a + 1; b < in->hosp_start[h + 1] && b < a + 40; b++) {
        some_tie |= in->hosp_rank[a] == in->hosp_rank[b];
        /* the pair's order at every other hospital listing both agrees: ties stay ties */
        for (int g = h + 1; g < 50 && g < h + 4; g++) {
          int ra = -1, rb = -1;
          for (uint32_t e = in->hosp_start[g]; e < in->hosp_start[g + 1]; e++) {
            if (in->hosp_list[e] == in->hosp_list[a]) ra = (int)in->hosp_rank[e];
            if (in->hosp_list[e] == in->hosp_list[b]) rb = (int)in->hosp_rank[e];
          }
          if (ra >= 0 && rb >= 0) consistent &= (ra == rb) == (in->hosp_rank[a] == in->hosp_rank[b]) && (ra <= rb);
        }
      }
  CHECK(consistent && some_tie);
  bb_ties_free(in);
}

/* school: the New York City preset at full size, solved by da-stb and sic. */
static void school_preset(void) {
  bb_ties_gen_params p;
  bb_ties_gen_defaults(BB_TIES_GEN_SCHOOL, &p);
  bb_ties *in = make(&p);
  if (!in) return;
  CHECK(in->n_residents == 90000 && in->n_hospitals == 700 && in->capacity[0] == 100);
  uint32_t longest = 0, shortest = 99, worst_class = 0;
  for (int r = 0; r < in->n_residents; r++) {
    uint32_t len = in->res_start[r + 1] - in->res_start[r];
    longest = len > longest ? len : longest, shortest = len < shortest ? len : shortest;
  }
  for (uint64_t e = 0; e < in->hosp_start[700]; e++)
    worst_class = in->hosp_rank[e] > worst_class ? in->hosp_rank[e] : worst_class;
  CHECK(longest == 12 && shortest == 1 && worst_class <= 3);
  int32_t *da = malloc(90000 * sizeof *da), *sic = malloc(90000 * sizeof *sic);
  bb_error err = {{0}};
  CHECKF(bb_ties_solve(in, "da-stb", 7, da, &err) == BB_OK && bb_ties_check_stable(in, da, BB_TIES_WEAK, &err) == BB_OK,
         "%s", err.msg);
  CHECKF(bb_ties_solve(in, "sic", 7, sic, &err) == BB_OK && bb_ties_check_stable(in, sic, BB_TIES_WEAK, &err) == BB_OK,
         "%s", err.msg);
  long placed = 0, improved = 0;
  for (int r = 0; r < 90000; r++) {
    placed += da[r] >= 0;
    improved += sic[r] != da[r];
  }
  printf("school preset: %d students, %ld placed by da-stb, %ld better off after sic\n", in->n_residents, placed,
         improved);
  CHECK(placed > 50000 && improved > 0);
  free(da), free(sic);
  bb_ties_free(in);
}

int main(void) {
  reproducible(BB_TIES_GEN_SMTI, 30, 25);
  reproducible(BB_TIES_GEN_HRT, 300, 20);
  reproducible(BB_TIES_GEN_SCHOOL, 2000, 30);
  smti_shape();
  hrt_shape();
  school_preset();
  return tu_finish();
}
