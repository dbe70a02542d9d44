/* SMI/HR in the engine: every algorithm against brute force on small instances (both sides),
 * the rural hospitals facts, the checker against the definition, files, generators, and the
 * algorithms against each other on large generated instances.
 *
 *   test_hr        the CPU tests (bamboo falls back to the CPU without a GPU)
 *   test_hr gpu    the GPU algorithms against gs-seq on large instances; exit 77 without a GPU
 *   test_hr gpu-quick   the two smallest of those (for compute-sanitizer) */
#include <stdio.h>
#include <string.h>

#include "bb_gpu.h"
#include "hr_gen.h"
#include "hr_internal.h"
#include "hr_io.h"
#include "instance_any.h"
#include "bth_hr.h"
#include "test_util.h"

static const char *const cpu_algos[] = {"gs-seq", "mw-par", "bamboo"};

static int32_t *solve(const bb_hr *inst, const char *algo, bb_hr_side side, int threads, int tail, bb_status *st) {
  int32_t *assigned = malloc(((size_t)inst->n_residents + 1) * sizeof *assigned);
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.threads = threads;
  if (tail) opts.tail_threshold = tail;
  bb_error err = {{0}};
  *st = bb_hr_solve(inst, algo, side, &opts, assigned, NULL, &err);
  if (*st != BB_OK) fprintf(stderr, "%s: %s\n", algo, err.msg);
  return assigned;
}

/* The stable matchings of a small instance, and what theory says about them. */
static void brute_force_case(bool smi, int nr, int nh, uint64_t *rng) {
  bb_hr *inst = bth_hr_random(smi, nr, nh, 2, rng);
  enum { MAX = 4096 };
  static int32_t all[MAX * 16];
  int count = bth_hr_all_stable(inst, all, MAX);
  CHECKF(count >= 1 && count <= MAX, "%d stable matchings", count); /* Gale-Shapley: one exists */
  if (count < 1 || count > MAX) return;
  /* Resident-optimal: each resident's best over all stable matchings; hospital-optimal: his
   * worst (Gusfield and Irving 1.6.5). Both must be stable matchings themselves. */
  int32_t best[16], worst[16];
  for (int r = 0; r < nr; r++) {
    int bp = 1 << 30, wp = -1;
    best[r] = worst[r] = BB_HR_NONE;
    for (int k = 0; k < count; k++) {
      int32_t h = all[k * nr + r];
      int p = h == BB_HR_NONE ? 1 << 29 : bth_hr_pos(inst->res_start, inst->res_list, r, h);
      if (p < bp) bp = p, best[r] = h;
      if (p > wp) wp = p, worst[r] = h;
    }
  }
  CHECK(bth_hr_stable(inst, best));
  CHECK(bth_hr_stable(inst, worst));
  /* Rural hospitals: the same residents are assigned everywhere, every hospital fills the
   * same number of posts, and an under-subscribed one gets the same residents. */
  for (int k = 1; k < count; k++) {
    for (int r = 0; r < nr; r++) CHECK((all[k * nr + r] == BB_HR_NONE) == (all[r] == BB_HR_NONE));
    for (int h = 0; h < nh; h++) {
      int n0 = 0, nk = 0, same = 1;
      for (int r = 0; r < nr; r++) {
        n0 += all[r] == h, nk += all[k * nr + r] == h;
        same &= (all[r] == h) == (all[k * nr + r] == h);
      }
      CHECK(n0 == nk);
      if (n0 < inst->capacity[h]) CHECK(same);
    }
  }
  /* The GPU's CPU tail (bb_hr_finish_chains, ranking by scans) from the very start: every
   * resident parked before his first proposal. */
  uint32_t post_start[8], cursor_ids[16];
  uint64_t words[64], cursor[16];
  uint32_t posts = bb_hr_post_starts(inst, post_start);
  for (uint32_t p = 0; p < posts; p++) words[p] = BB_HR_EMPTY_POST;
  for (int r = 0; r < nr; r++) cursor[r] = (uint64_t)inst->res_start[r] << 32, cursor_ids[r] = (uint32_t)(nr - 1 - r);
  uint64_t tail_proposals = 0;
  bb_error tail_err = {{0}};
  CHECK(bb_hr_finish_chains(inst, NULL, post_start, words, cursor, cursor_ids, nr, 0, &tail_proposals, &tail_err) ==
        BB_OK);
  int32_t tail_result[16];
  bb_hr_assign_from_posts(inst, post_start, words, tail_result);
  CHECK(memcmp(tail_result, best, (size_t)nr * sizeof *best) == 0);
  for (size_t a = 0; a < sizeof cpu_algos / sizeof *cpu_algos; a++)
    for (int side = 0; side < 2; side++)
      for (int threads = 1; threads <= 3; threads += 2) {
        bb_status st;
        int32_t *got = solve(inst, cpu_algos[a], (bb_hr_side)side, threads, 0, &st);
        CHECK(st == BB_OK);
        CHECKF(memcmp(got, side ? worst : best, (size_t)nr * sizeof *got) == 0, "%s %s side=%d nr=%d nh=%d",
               smi ? "smi" : "hr", cpu_algos[a], side, nr, nh);
        free(got);
      }
  bb_hr_free(inst);
}

/* The library's checker says what the definition says, on random (often invalid) assignments. */
static void checker_case(bool smi, uint64_t *rng) {
  int nr = 1 + (int)(tu_rand(rng) % 5), nh = 1 + (int)(tu_rand(rng) % 4);
  bb_hr *inst = bth_hr_random(smi, nr, nh, 2, rng);
  int32_t assigned[8];
  for (int r = 0; r < nr; r++) assigned[r] = (int32_t)(tu_rand(rng) % (uint64_t)(nh + 1)) - 1;
  bb_error err = {{0}};
  bb_status st = bb_hr_check_stable(inst, assigned, &err);
  CHECKF((st == BB_OK) == bth_hr_stable(inst, assigned), "checker says %s: %s", bb_status_name(st), err.msg);
  bb_hr_free(inst);
}

static int same_instance(const bb_hr *a, const bb_hr *b) {
  int nr = a->n_residents, nh = a->n_hospitals;
  return a->smi == b->smi && nr == b->n_residents && nh == b->n_hospitals &&
         !memcmp(a->res_start, b->res_start, ((size_t)nr + 1) * 4) &&
         !memcmp(a->hosp_start, b->hosp_start, ((size_t)nh + 1) * 4) &&
         !memcmp(a->res_list, b->res_list, (size_t)a->res_start[nr] * 4) &&
         !memcmp(a->hosp_list, b->hosp_list, (size_t)a->hosp_start[nh] * 4) &&
         !memcmp(a->capacity, b->capacity, (size_t)nh * 4);
}

static void round_trip(const bb_hr *inst, const char *dir) {
  char path[512];
  for (int binary = 0; binary < 2; binary++) {
    snprintf(path, sizeof path, "%s/hr_round_trip.%s", dir, binary ? "bin" : "txt");
    bb_error err = {{0}};
    bb_status st = binary ? bb_hr_write_binary(inst, path, &err) : bb_hr_write_text(inst, path, &err);
    CHECKF(st == BB_OK, "write: %s", err.msg);
    bb_hr *back = NULL;
    st = bb_hr_read(path, &back, &err);
    CHECKF(st == BB_OK && back && same_instance(inst, back), "read back (%s): %s", binary ? "binary" : "text", err.msg);
    bb_hr_free(back);
    remove(path);
  }
}

static void files(const char *dir, uint64_t *rng) {
  for (int k = 0; k < 40; k++) {
    bb_hr *inst = bth_hr_random(k % 2, 1 + k % 6, 1 + k % 5, 3, rng);
    round_trip(inst, dir);
    bb_hr_free(inst);
  }
  bb_hr_gen_params p;
  bb_hr_gen_nrmp(&p);
  p.n_residents = 3000, p.n_hospitals = 200;
  bb_hr *inst = NULL;
  CHECK(bb_hr_generate(&p, &inst, NULL) == BB_OK);
  round_trip(inst, dir);
  bb_hr_free(inst);
  /* A complete instance file is not an SMI/HR one, and bb_read_any_instance tells them apart. */
  char path[512];
  snprintf(path, sizeof path, "%s/complete.txt", dir);
  FILE *f = fopen(path, "w");
  fputs("# complete\n2\n0 1\n1 0\n0 1\n1 0\n", f);
  fclose(f);
  bb_instance *complete = NULL;
  bb_hr *hr = NULL;
  bb_error err = {{0}};
  CHECK(bb_read_any_instance(path, &complete, &hr, &err) == BB_OK && complete && !hr);
  bb_instance_free(complete);
  CHECK(bb_hr_read(path, &hr, &err) == BB_ERR_INPUT && strstr(err.msg, "not an SMI/HR instance"));
  remove(path);
}

static void generators(void) {
  bb_hr_gen_params p;
  bb_hr_gen_defaults(&p);
  for (int kind = 0; kind < 3; kind++) {
    p.smi = kind == 0;
    p.n_residents = 20000, p.n_hospitals = kind == 2 ? 500 : 15000, p.list_length = 60;
    p.skew = kind == 1 ? 0.8 : 0;
    bb_hr *one = NULL, *many = NULL;
    p.threads = 1;
    CHECK(bb_hr_generate(&p, &one, NULL) == BB_OK);
    p.threads = 4;
    CHECK(bb_hr_generate(&p, &many, NULL) == BB_OK);
    CHECKF(one && many && same_instance(one, many), "generator kind %d depends on the thread count", kind);
    bb_error err = {{0}};
    CHECKF(bb_hr_validate(one, &err) == BB_OK, "%s", err.msg);
    CHECK(one->res_start[one->n_residents] == 20000u * 60 && one->hosp_start[one->n_hospitals] == 20000u * 60);
    CHECK(bb_hr_acceptable_pairs(one) == 20000u * 60); /* hospitals rank exactly their applicants */
    /* Large instances: every CPU algorithm, both sides, the same stable matching. */
    for (int side = 0; side < 2; side++) {
      bb_status st;
      int32_t *ref = solve(one, "gs-seq", (bb_hr_side)side, 1, 0, &st);
      CHECK(st == BB_OK && bb_hr_check_stable(one, ref, &err) == BB_OK);
      for (size_t a = 1; a < sizeof cpu_algos / sizeof *cpu_algos; a++) {
        int32_t *got = solve(one, cpu_algos[a], (bb_hr_side)side, 4, 0, &st);
        CHECKF(st == BB_OK && !memcmp(got, ref, (size_t)one->n_residents * 4), "%s side %d kind %d", cpu_algos[a], side,
               kind);
        free(got);
      }
      free(ref);
    }
    bb_hr_free(one);
    bb_hr_free(many);
  }
  p.n_residents = 0;
  bb_hr *none = NULL;
  CHECK(bb_hr_generate(&p, &none, NULL) == BB_ERR_ARG && !none);
}

/* A side with nobody on it (the file "smi 0 1" and an empty line is valid): every algorithm,
 * both sides, leaves everyone unmatched. Found by tests/fuzz/instance_fuzz (hr_ranks.c
 * offset a NULL array by zero when there were no residents). */
static void empty_sides(void) {
  const int sizes[][2] = {{0, 0}, {0, 1}, {0, 3}, {2, 0}};
  for (int smi = 0; smi < 2; smi++)
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
      int nr = sizes[k][0], nh = sizes[k][1];
      bb_error err = {{0}};
      bb_hr *inst = bb_hr_new(smi, nr, nh, 0, 0, &err);
      CHECKF(inst != NULL, "%s", err.msg);
      if (!inst) continue;
      for (int h = 0; h < nh; h++) inst->capacity[h] = 1;
      CHECKF(bb_hr_validate(inst, &err) == BB_OK, "%s", err.msg);
      for (size_t a = 0; a < sizeof cpu_algos / sizeof *cpu_algos; a++)
        for (int side = 0; side < 2; side++)
          for (int threads = 1; threads <= 4; threads += 3) {
            bb_status st;
            int32_t *got = solve(inst, cpu_algos[a], (bb_hr_side)side, threads, 0, &st);
            CHECKF(st == BB_OK && bb_hr_check_stable(inst, got, &err) == BB_OK, "%s, %d and %d, side %d", cpu_algos[a],
                   nr, nh, side);
            for (int r = 0; r < nr; r++) CHECK(got[r] == BB_HR_NONE);
            free(got);
          }
      bb_hr_free(inst);
    }
}

/* An instance built through the library whose offsets run past the entries it allocated is
 * refused by bb_hr_validate before anything reads past the lists (it was read out of bounds:
 * the instance did not record its allocation). */
static void offsets_past_the_entries(void) {
  for (int side = 0; side < 2; side++) {
    bb_error err = {{0}};
    bb_hr *inst = bb_hr_new(false, 2, 2, 2, 2, &err);
    for (int p = 0; p < 2; p++) inst->res_list[p] = inst->hosp_list[p] = (bb_id)p;
    inst->res_start[1] = inst->hosp_start[1] = 1;
    inst->res_start[2] = inst->hosp_start[2] = 2;
    inst->capacity[0] = inst->capacity[1] = 1;
    CHECKF(bb_hr_validate(inst, &err) == BB_OK, "%s", err.msg);
    (side ? inst->hosp_start : inst->res_start)[2] = 3;
    CHECKF(bb_hr_validate(inst, &err) == BB_ERR_INPUT && strstr(err.msg, "past the 2 entries allocated"), "side %d: %s",
           side, err.msg);
    bb_hr_free(inst);
  }
}

/* --time-limit: every CPU algorithm, both sides, stops with BB_ERR_TIMEOUT once the
 * deadline has passed (regression: gs-seq ignored it), and gs-seq's own loops check it:
 * called with a deadline already past, both stop before the first proposal. A limit of 0
 * means none. */
/* The GPU path's CPU tail (bb_hr_finish_chains), run here on every resident from the start
 * of his list, as a GPU that parked them all would hand them over: past a deadline it stops
 * with BB_ERR_TIMEOUT (it ignored the clock before), and without one it finishes the
 * resident-optimal matching, with nodes (ranked view) and without (scanning the lists). */
static void finish_chains_deadline(const bb_hr *inst, const bb_hr_node *nodes) {
  int nr = inst->n_residents, nh = inst->n_hospitals;
  uint32_t *post_start = malloc(((size_t)nh + 1) * sizeof *post_start);
  uint32_t posts = bb_hr_post_starts(inst, post_start);
  uint64_t *words = malloc(((size_t)posts + 1) * sizeof *words);
  uint64_t *cursor = malloc(((size_t)nr + 1) * sizeof *cursor);
  uint32_t *parked = malloc(((size_t)nr + 1) * sizeof *parked);
  int32_t *assigned = malloc(((size_t)nr + 1) * sizeof *assigned);
  int32_t *expected = malloc(((size_t)nr + 1) * sizeof *expected);
  bb_error err = {{0}};
  CHECK(bb_hr_solve(inst, "gs-seq", BB_HR_RESIDENT_OPTIMAL, NULL, expected, NULL, &err) == BB_OK);
  for (int pass = 0; pass < 3; pass++) {
    for (uint32_t p = 0; p < posts; p++) words[p] = BB_HR_EMPTY_POST;
    for (int r = 0; r < nr; r++) cursor[r] = (uint64_t)inst->res_start[r] << 32, parked[r] = (uint32_t)r;
    uint64_t proposals = 0;
    double deadline = pass == 0 ? 1e-9 : 0; /* 1e-9: long past */
    bb_status st = bb_hr_finish_chains(inst, pass == 2 ? NULL : nodes, post_start, words, cursor, parked, nr, deadline,
                                       &proposals, &err);
    if (pass == 0) {
      CHECKF(st == BB_ERR_TIMEOUT && strstr(err.msg, "time limit"), "status %d: %s", (int)st, err.msg);
      continue;
    }
    CHECKF(st == BB_OK && proposals > 0, "pass %d: status %d: %s", pass, (int)st, err.msg);
    bb_hr_assign_from_posts(inst, post_start, words, assigned);
    CHECK(memcmp(assigned, expected, (size_t)nr * sizeof *assigned) == 0);
  }
  free(post_start), free(words), free(cursor), free(parked), free(assigned), free(expected);
}

static void time_limits(void) {
  for (int smi = 0; smi < 2; smi++) {
    bb_hr_gen_params p;
    bb_hr_gen_defaults(&p);
    p.smi = smi, p.n_residents = 3000, p.n_hospitals = smi ? 3000 : 300, p.list_length = 10, p.seed = 5;
    bb_hr *inst = NULL;
    CHECK(bb_hr_generate(&p, &inst, NULL) == BB_OK);
    if (!inst) continue;
    int32_t *assigned = malloc(((size_t)inst->n_residents + 1) * sizeof *assigned);
    bb_error err = {{0}};
    for (size_t a = 0; a < sizeof cpu_algos / sizeof *cpu_algos; a++)
      for (int side = 0; side < 2; side++) {
        bb_solve_opts opts;
        bb_solve_opts_default(&opts);
        opts.time_limit_s = 1e-9;
        bb_status st = bb_hr_solve(inst, cpu_algos[a], (bb_hr_side)side, &opts, assigned, NULL, &err);
        CHECKF(st == BB_ERR_TIMEOUT && strstr(err.msg, "time limit"), "%s side %d smi %d: status %d", cpu_algos[a],
               side, smi, (int)st);
        opts.time_limit_s = 0;
        CHECK(bb_hr_solve(inst, cpu_algos[a], (bb_hr_side)side, &opts, assigned, NULL, &err) == BB_OK);
      }
    uint32_t entries = inst->res_start[inst->n_residents], hosp_entries = inst->hosp_start[inst->n_hospitals];
    bb_hr_node *nodes = malloc(((size_t)entries + 1) * sizeof *nodes);
    int32_t *hosp_rank = malloc(((size_t)hosp_entries + 1) * sizeof *hosp_rank);
    CHECK(bb_hr_rank_pairs(inst, 1, nodes, hosp_rank, &err) == BB_OK);
    bb_solve_stats stats = {0};
    double past = 1e-9; /* bb_now() is far beyond it */
    CHECK(bb_hr_gs_residents(inst, nodes, past, assigned, &stats, &err) == BB_ERR_TIMEOUT && stats.proposals == 0);
    CHECK(bb_hr_gs_hospitals(inst, hosp_rank, past, assigned, &stats, &err) == BB_ERR_TIMEOUT && stats.proposals == 0);
    CHECK(bb_hr_gs_residents(inst, nodes, 0, assigned, &stats, &err) == BB_OK);
    CHECK(bb_hr_check_stable(inst, assigned, &err) == BB_OK);
    CHECK(bb_hr_gs_hospitals(inst, hosp_rank, 0, assigned, &stats, &err) == BB_OK);
    CHECK(bb_hr_check_stable(inst, assigned, &err) == BB_OK);
    finish_chains_deadline(inst, nodes);
    free(nodes);
    free(hosp_rank);
    free(assigned);
    bb_hr_free(inst);
  }
}

/* On a GPU: the GPU algorithms (and bamboo's tail at several thresholds) equal gs-seq. */
static int gpu_tests(bool quick) {
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  const struct {
    bool smi;
    int nr, nh, k;
    double skew;
  } cases[] = {
      {true, 1000, 1000, 30, 0},      {false, 31000, 2300, 15, 0.5},   {true, 200000, 200000, 20, 0},
      {true, 100000, 80000, 40, 1.0}, {false, 300000, 20000, 20, 0.7}, {true, 1000000, 1000000, 100, 0},
  };
  size_t count = quick ? 2 : sizeof cases / sizeof *cases;
  for (size_t c = 0; c < count; c++) {
    bb_hr_gen_params p;
    bb_hr_gen_defaults(&p);
    p.smi = cases[c].smi, p.n_residents = cases[c].nr, p.n_hospitals = cases[c].nh;
    p.list_length = cases[c].k, p.skew = cases[c].skew, p.seed = 7 + c;
    bb_hr *inst = NULL;
    CHECK(bb_hr_generate(&p, &inst, NULL) == BB_OK);
    for (int side = 0; side < 2; side++) {
      bb_status st;
      int32_t *ref = solve(inst, "mw-par", (bb_hr_side)side, 0, 0, &st);
      if (c < 5) { /* gs-seq on the largest one takes long; mw-par equals it on the others */
        int32_t *seq = solve(inst, "gs-seq", (bb_hr_side)side, 1, 0, &st);
        CHECK(!memcmp(seq, ref, (size_t)inst->n_residents * 4));
        free(seq);
      }
      const char *algos[] = {"gpu-la-min", "bamboo", "bamboo", "bamboo"};
      int tails[] = {0, 1, 32, 100000};
      for (int a = 0; a < 4; a++) {
        int32_t *got = solve(inst, algos[a], (bb_hr_side)side, 0, tails[a], &st);
        CHECKF(st == BB_OK && !memcmp(got, ref, (size_t)inst->n_residents * 4), "case %zu side %d %s tail %d", c, side,
               algos[a], tails[a]);
        free(got);
      }
      free(ref);
    }
    bb_hr_free(inst);
  }
  return tu_finish();
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "gpu") == 0) return gpu_tests(false);
  if (argc > 1 && strcmp(argv[1], "gpu-quick") == 0) return gpu_tests(true); /* under compute-sanitizer */
  const char *dir = argc > 1 ? argv[1] : ".";
  uint64_t rng = 12345;
  for (int k = 0; k < 300; k++) {
    brute_force_case(true, 1 + k % 5, 1 + (k / 5) % 5, &rng);
    brute_force_case(false, 1 + k % 6, 1 + (k / 6) % 3, &rng);
  }
  for (int k = 0; k < 3000; k++) checker_case(k % 2, &rng);
  empty_sides();
  offsets_past_the_entries();
  time_limits();
  files(dir, &rng);
  generators();
  return tu_finish();
}
