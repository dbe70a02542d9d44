/* HRC benchmarks of the engine (bench/hrc.sh runs this):
 *
 *   hrc-bench family NR NC NH SEEDS DZN_DIR
 *       SEEDS instances of `gen hrc` (seeds 1..SEEDS) with NR residents, NC couples, NH
 *       hospitals; runs hrc-da on each and prints one line per instance:
 *         seed stable blocking rounds da_ms
 *       For each instance where hrc-da ends unstable, writes DZN_DIR/NR-NC-NH-SEED.dzn in the
 *       data shape of Trimble's CP model (minizinc-benchmarks hrc/hrc.mzn) with num_bp = 0, so
 *       that the script can ask gecode whether a stable matching exists at all.
 *   hrc-bench exists NR NC NH MIN_LIST MAX_LIST POSTS SEEDS
 *       small instances of the same generator decided by brute force: one line per instance,
 *         seed stable_matchings min_blocking da_stable da_blocking
 *   hrc-bench nrmp NC SEED
 *       the NRMP-shaped preset with NC couples: generation, hrc-da and checker times, the
 *       checker's blocking-pair count.
 *   hrc-bench check-dzn NR NC NH SEED PREFIX
 *       hrc-da's matching of that instance as the model's positions (PREFIX.fix.mzn), with
 *       PREFIX.dzn saying num_bp = its blocking pairs and PREFIX-minus.dzn one fewer: the CP
 *       model must accept the first and refuse the second if its count is the checker's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hrc.h"
#include "hrc_gen.h"

static double now_ms(void) { return 1e3 * bb_now(); }

static int32_t hrank1(const bb_hrc *in, int h, int r) { /* 1-based rank, 0 if unranked */
  for (uint32_t e = in->hosp_start[h]; e < in->hosp_start[h + 1]; e++)
    if ((int)in->hosp_list[e] == r) return (int32_t)(e - in->hosp_start[h]) + 1;
  return 0;
}

static uint32_t list_len(const bb_hrc *in, int r) {
  int c = in->couple_of[r];
  return c == BB_HRC_SINGLE ? in->single_start[r + 1] - in->single_start[r]
                            : in->couple_start[c + 1] - in->couple_start[c];
}

static uint32_t entry(const bb_hrc *in, int r, uint32_t k) {
  int c = in->couple_of[r];
  if (c == BB_HRC_SINGLE) return in->single_list[in->single_start[r] + k];
  return in->couple_list[2 * (in->couple_start[c] + k) + (in->couple_member[2 * c + 1] == r)];
}

/* Trimble's data shape (his instance writer: rows padded with 0, ids and ranks 1-based). */
static void write_dzn(const bb_hrc *in, FILE *f, int num_bp) {
  int nr = in->n_residents, nh = in->n_hospitals;
  uint32_t max_r = 0, max_h = 0;
  for (int r = 0; r < nr; r++) max_r = list_len(in, r) > max_r ? list_len(in, r) : max_r;
  for (int h = 0; h < nh; h++) {
    uint32_t l = in->hosp_start[h + 1] - in->hosp_start[h];
    max_h = l > max_h ? l : max_h;
  }
  fprintf(f, "num_bp = %d;\nnres = %d;\nncoup = %d;\nnhosp = %d;\nmax_rpref_len = %u;\nmax_hpref_len = %u;\n", num_bp,
          nr, in->n_couples, nh, max_r, max_h);
  fprintf(f, "rpref = [");
  for (int r = 0; r < nr; r++)
    for (uint32_t k = 0; k <= max_r; k++)
      fprintf(f, "%s%u%s", k ? "," : "|", k < list_len(in, r) ? entry(in, r, k) + 1 : 0, k == max_r ? "\n" : "");
  fprintf(f, "|];\nrpref_len = [");
  for (int r = 0; r < nr; r++) fprintf(f, "%s%u", r ? "," : "", list_len(in, r));
  fprintf(f, "];\nhpref = [");
  for (int h = 0; h < nh; h++)
    for (uint32_t k = 0; k < max_h; k++) {
      uint32_t e = in->hosp_start[h] + k;
      fprintf(f, "%s%u%s", k ? "," : "|", e < in->hosp_start[h + 1] ? in->hosp_list[e] + 1 : 0,
              k + 1 == max_h ? "\n" : "");
    }
  fprintf(f, "|];\nhpref_len = [");
  for (int h = 0; h < nh; h++) fprintf(f, "%s%u", h ? "," : "", in->hosp_start[h + 1] - in->hosp_start[h]);
  fprintf(f, "];\nhrank = [");
  for (int h = 0; h < nh; h++)
    for (int r = 0; r < nr; r++) fprintf(f, "%s%d%s", r ? "," : "|", hrank1(in, h, r), r + 1 == nr ? "\n" : "");
  fprintf(f, "|];\nhosp_cap = [");
  for (int h = 0; h < nh; h++) fprintf(f, "%s%d", h ? "," : "", in->capacity[h]);
  fprintf(f, "];\n");
}

static bb_hrc *make(int nr, int nc, int nh, uint64_t seed) {
  bb_hrc_gen_params p;
  bb_hrc_gen_mmt2017(&p, nr, nc, nh);
  p.seed = seed;
  bb_hrc *in = NULL;
  bb_error err = {{0}};
  if (bb_hrc_generate(&p, &in, &err) != BB_OK) fprintf(stderr, "hrc-bench: %s\n", err.msg);
  return in;
}

static int family(int nr, int nc, int nh, int seeds, const char *dir) {
  for (int s = 1; s <= seeds; s++) {
    bb_hrc *in = make(nr, nc, nh, (uint64_t)s);
    if (!in) return 1;
    int32_t *m = malloc((size_t)nr * sizeof *m);
    bool stable = false;
    uint64_t blocking = 0;
    bb_hrc_da_stats st;
    bb_error err = {{0}};
    double t0 = now_ms();
    if (bb_hrc_da(in, NULL, m, &stable, &blocking, &st, &err) != BB_OK) {
      fprintf(stderr, "hrc-bench: %s\n", err.msg);
      return 1;
    }
    double t1 = now_ms();
    printf("%d %d %llu %d %.3f\n", s, stable, (unsigned long long)blocking, st.rounds, t1 - t0);
    if (!stable) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%d-%d-%d-%d.dzn", dir, nr, nc, nh, s);
      FILE *f = fopen(path, "w");
      if (!f) return 1;
      write_dzn(in, f, 0);
      fclose(f);
    }
    free(m);
    bb_hrc_free(in);
  }
  return 0;
}

/* The matching fixed as the model's positions (1-based; list length + 1 when unassigned). */
static void fix_positions(const bb_hrc *in, const int32_t *m, FILE *f) {
  fprintf(f, "constraint true");
  for (int r = 0; r < in->n_residents; r++) {
    int c = in->couple_of[r];
    if (c != BB_HRC_SINGLE && in->couple_member[2 * c] != r) continue;
    uint32_t len = list_len(in, r), pos = len + 1;
    for (uint32_t k = 0; k < len; k++) {
      bool here = c == BB_HRC_SINGLE ? (int32_t)entry(in, r, k) == m[r]
                                     : (int32_t)entry(in, r, k) == m[r] && (int32_t)entry(in, r + 1, k) == m[r + 1];
      if (here) pos = k + 1;
    }
    fprintf(f, " /\\ %s[%d] = %u", c == BB_HRC_SINGLE ? "single_pos" : "coup_pos", c == BB_HRC_SINGLE ? r + 1 : c + 1,
            pos);
  }
  fprintf(f, ";\n");
}

static int check_dzn(int nr, int nc, int nh, uint64_t seed, const char *file) {
  bb_hrc *in = make(nr, nc, nh, seed);
  if (!in) return 1;
  int32_t *m = malloc((size_t)nr * sizeof *m);
  bool stable = false;
  uint64_t blocking = 0;
  bb_error err = {{0}};
  if (bb_hrc_da(in, NULL, m, &stable, &blocking, NULL, &err) != BB_OK) return 1;
  char path[1024];
  for (int minus = 0; minus < 2; minus++) {
    snprintf(path, sizeof path, "%s%s.dzn", file, minus ? "-minus" : "");
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    write_dzn(in, f, (int)blocking - minus);
    fclose(f);
  }
  snprintf(path, sizeof path, "%s.fix.mzn", file);
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  fix_positions(in, m, f);
  fclose(f);
  printf("%llu\n", (unsigned long long)blocking);
  free(m);
  bb_hrc_free(in);
  return 0;
}

static int nrmp(int nc, uint64_t seed) {
  bb_hrc_gen_params p;
  bb_hrc_gen_nrmp(&p, nc);
  p.seed = seed;
  bb_hrc *in = NULL;
  bb_error err = {{0}};
  double t0 = now_ms();
  if (bb_hrc_generate(&p, &in, &err) != BB_OK) {
    fprintf(stderr, "hrc-bench: %s\n", err.msg);
    return 1;
  }
  double t1 = now_ms();
  int32_t *m = malloc((size_t)in->n_residents * sizeof *m);
  bool stable = false;
  uint64_t blocking = 0, again = 0;
  bb_hrc_da_stats st;
  if (bb_hrc_da(in, NULL, m, &stable, &blocking, &st, &err) != BB_OK) return 1;
  double t2 = now_ms();
  if (bb_hrc_count_blocking(in, m, &again, &err) != BB_OK || again != blocking) return 1;
  double t3 = now_ms();
  int matched = 0;
  for (int r = 0; r < in->n_residents; r++) matched += m[r] != BB_HRC_NONE;
  printf("%d %llu %.1f %.1f %.1f %d %llu %d %llu %d\n", nc, (unsigned long long)seed, t1 - t0, t2 - t1, t3 - t2, stable,
         (unsigned long long)blocking, st.rounds, (unsigned long long)st.proposals, matched);
  free(m);
  bb_hrc_free(in);
  return 0;
}

/* Brute force for small instances: every matching (each single nothing or one entry, each
 * couple nothing or one pair, capacities kept while choosing), blocking pairs counted by the
 * checker (test_hrc checks the checker against an independent reference). */
typedef struct brute {
  const bb_hrc *in;
  int32_t *m, *load;
  long stable;
  uint64_t min_bp;
} brute;

static void brute_from(brute *b, int agent) {
  const bb_hrc *in = b->in;
  int nr = in->n_residents;
  if (agent == nr + in->n_couples) {
    uint64_t bp = 0;
    if (bb_hrc_count_blocking(in, b->m, &bp, NULL) != BB_OK) return;
    b->stable += bp == 0;
    if (bp < b->min_bp) b->min_bp = bp;
    return;
  }
  if (agent < nr && in->couple_of[agent] != BB_HRC_SINGLE) {
    brute_from(b, agent + 1);
    return;
  }
  brute_from(b, agent + 1); /* unassigned */
  if (agent < nr) {
    for (uint32_t e = in->single_start[agent]; e < in->single_start[agent + 1]; e++) {
      int h = (int)in->single_list[e];
      if (b->load[h] == in->capacity[h]) continue;
      b->load[h]++, b->m[agent] = h;
      brute_from(b, agent + 1);
      b->load[h]--, b->m[agent] = BB_HRC_NONE;
    }
    return;
  }
  int c = agent - nr, r1 = in->couple_member[2 * c], r2 = in->couple_member[2 * c + 1];
  for (uint32_t e = in->couple_start[c]; e < in->couple_start[c + 1]; e++) {
    int h1 = (int)in->couple_list[2 * e], h2 = (int)in->couple_list[2 * e + 1];
    b->load[h1]++, b->load[h2]++;
    if (b->load[h1] <= in->capacity[h1] && b->load[h2] <= in->capacity[h2]) {
      b->m[r1] = h1, b->m[r2] = h2;
      brute_from(b, agent + 1);
      b->m[r1] = b->m[r2] = BB_HRC_NONE;
    }
    b->load[h1]--, b->load[h2]--;
  }
}

/* Per instance: seed, stable matchings (brute force), their minimum blocking pairs, DA stable, DA's blocking pairs. */
static int exists(int nr, int nc, int nh, int min_list, int max_list, int posts, int seeds) {
  for (int s = 1; s <= seeds; s++) {
    bb_hrc_gen_params p;
    bb_hrc_gen_mmt2017(&p, nr, nc, nh);
    p.min_list = min_list, p.max_list = max_list, p.posts = posts, p.seed = (uint64_t)s;
    bb_hrc *in = NULL;
    bb_error err = {{0}};
    if (bb_hrc_generate(&p, &in, &err) != BB_OK) {
      fprintf(stderr, "hrc-bench: %s\n", err.msg);
      return 1;
    }
    brute b = {in, malloc((size_t)nr * sizeof(int32_t)), calloc((size_t)nh, sizeof(int32_t)), 0, UINT64_MAX};
    for (int r = 0; r < nr; r++) b.m[r] = BB_HRC_NONE;
    brute_from(&b, 0);
    int32_t *m = malloc((size_t)nr * sizeof *m);
    bool stable = false;
    uint64_t blocking = 0;
    if (bb_hrc_da(in, NULL, m, &stable, &blocking, NULL, &err) != BB_OK) return 1;
    printf("%d %ld %llu %d %llu\n", s, b.stable, (unsigned long long)b.min_bp, stable, (unsigned long long)blocking);
    free(m);
    free(b.m);
    free(b.load);
    bb_hrc_free(in);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 7 && !strcmp(argv[1], "family"))
    return family(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argv[6]);
  if (argc == 4 && !strcmp(argv[1], "nrmp")) return nrmp(atoi(argv[2]), strtoull(argv[3], NULL, 10));
  if (argc == 7 && !strcmp(argv[1], "check-dzn"))
    return check_dzn(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), strtoull(argv[5], NULL, 10), argv[6]);
  if (argc == 9 && !strcmp(argv[1], "exists"))
    return exists(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]), atoi(argv[7]),
                  atoi(argv[8]));
  fprintf(stderr, "usage: hrc-bench family NR NC NH SEEDS DZN_DIR | nrmp NC SEED | check-dzn NR NC NH SEED FILE\n");
  return 2;
}
