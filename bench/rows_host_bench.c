/* The host side of solve --gen KIND --gen-on gpu without host lists, against the
 * same steps over host lists (bench/rows_host.sh runs it).
 *
 *   rows-host-bench KIND N GROUP SEED MATCHING lists|rows
 *
 * MATCHING is a man-optimal matching of the instance ('m w' lines, bamboo-smp solve -o). The
 * run turns it into the women's partner ranks (what bamboo's GPU phase hands over; setup, not
 * measured as a step), then measures what the host does after the GPU phase:
 *   husbands  bb_row_source_husbands from the partner ranks (the tail's and extraction's reads);
 *   check     bb_check_stable_rows (solve --verify).
 * "lists" first generates the instance on the host (bb_generate), as --gen-on host does;
 * "rows" holds the generator's spec only and regenerates each row it reads. Prints each step's
 * time and the peak RSS (getrusage) after it. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "generate.h"
#include "row_source.h"
#include "solve.h"

static double peak_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0; /* Linux: KiB */
}

static void step(const char *name, double t0) {
  printf("%-10s %9.3f s   peak RSS %9.1f MiB\n", name, bb_now() - t0, peak_mib());
}

int main(int argc, char **argv) {
  if (argc != 7 || (strcmp(argv[6], "lists") && strcmp(argv[6], "rows"))) {
    fprintf(stderr, "usage: rows-host-bench KIND N GROUP SEED MATCHING lists|rows\n");
    return 2;
  }
  bb_error err = {{0}};
  bb_gen_kind kind;
  int n = atoi(argv[2]), group = atoi(argv[3]);
  uint64_t seed = strtoull(argv[4], NULL, 10);
  int rows = !strcmp(argv[6], "rows");
  if (bb_gen_parse_kind(argv[1], &kind, &err) != BB_OK || n < 1) {
    fprintf(stderr, "%s\n", err.msg[0] ? err.msg : "bad n");
    return 2;
  }
  bb_id *wife = malloc((size_t)n * sizeof *wife), *husband = malloc((size_t)n * sizeof *husband);
  uint32_t *rank = malloc((size_t)n * sizeof *rank);
  bb_id *perms = bb_gen_perm_ids(kind, n) ? malloc(bb_gen_perm_ids(kind, n) * sizeof *perms) : NULL;
  FILE *in = fopen(argv[5], "r");
  if (!wife || !husband || !rank || !in || (bb_gen_perm_ids(kind, n) && !perms)) {
    fprintf(stderr, "cannot read %s or out of memory\n", argv[5]);
    return 1;
  }
  for (int m = 0, w; m < n; m++)
    if (fscanf(in, "%*d %d", &w) != 1 || w < 0 || w >= n) {
      fprintf(stderr, "%s: line %d: expected 'man woman'\n", argv[5], m + 1);
      return 1;
    } else
      wife[m] = (bb_id)w;
  fclose(in);

  printf("%s n=%d g=%d seed=%llu, %s on the host, %d CPUs\n", argv[1], n, group, (unsigned long long)seed,
         rows ? "rows regenerated (no lists)" : "lists", bb_cpu_count());
  step("start", bb_now());
  bb_gen_spec spec;
  bb_instance *inst = NULL, bare = {n, NULL, NULL};
  double t = bb_now();
  if (bb_gen_spec_init(&spec, kind, n, group, seed, perms, &err) != BB_OK ||
      (!rows && bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK)) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  if (!rows) step("generate", t);
  bb_row_source src;
  if (bb_row_source_init(&src, rows ? &bare : inst, rows ? &spec : NULL, &err) != BB_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  /* Setup: the partner ranks the GPU phase would hand over. */
  bb_id *row = malloc((size_t)n * sizeof *row);
  for (int m = 0; m < n && row; m++) {
    const bb_id *r = bb_row_source_row(&src, 1, (int)wife[m], row);
    for (int k = 0; k < n; k++)
      if (r[k] == (bb_id)m) rank[wife[m]] = (uint32_t)k;
  }
  free(row);

  t = bb_now();
  if (bb_row_source_husbands(&src, rank, NULL, husband, 0, &err) != BB_OK) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  step("husbands", t);
  int bad = 0;
  for (int w = 0; w < n; w++) bad += wife[husband[w]] != (bb_id)w;
  t = bb_now();
  bb_status st = bb_check_stable_rows(&src, wife, &err);
  step("check", t);
  printf("husbands %s, check: %s\n", bad ? "WRONG" : "agree with the matching", st == BB_OK ? "stable" : err.msg);
  bb_instance_free(inst);
  free(perms);
  free(wife);
  free(husband);
  free(rank);
  return bad || st != BB_OK;
}
