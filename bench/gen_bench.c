/* Generation on the GPU against the host (bench/gen_device.sh runs it):
 *   gen-bench KIND N [GROUP] [--host]
 * prints one markdown row: n, kind, the GPU's seconds for both sides in the staged build's
 * blocks (256 MiB of ids per launch, what bamboo's staged build does with a generator) and in
 * blocks of all rows that fit 8 GiB, and with --host bb_generate's seconds on all CPUs (which
 * needs 8 n^2 bytes of host memory). Exit 77 without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bb_gpu_gen.h"
#include "gen_rows.h"
#include "generate.h"

static int time_sides(bb_gpu_gen *gen, int n, size_t ids_per_launch, double *seconds, bb_error *err) {
  size_t rows = ids_per_launch / (size_t)n;
  if (rows < 1) rows = 1;
  if (rows > (size_t)n) rows = (size_t)n;
  *seconds = 0;
  for (int women = 0; women < 2; women++) {
    double t = 0;
    if (bb_gpu_gen_time(gen, women, (int)rows, &t, err) != BB_OK) return 0;
    *seconds += t;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: gen-bench KIND N [GROUP] [--host]\n");
    return 2;
  }
  char why[256];
  if (!bb_gpu_probe(0, why, sizeof why)) {
    printf("skipped: %s\n", why);
    return 77;
  }
  bb_error err = {{0}};
  bb_gen_kind kind;
  if (bb_gen_parse_kind(argv[1], &kind, &err) != BB_OK) {
    fprintf(stderr, "gen-bench: %s\n", err.msg);
    return 2;
  }
  int n = atoi(argv[2]), group = 5, host = 0;
  for (int a = 3; a < argc; a++) {
    if (!strcmp(argv[a], "--host"))
      host = 1;
    else
      group = atoi(argv[a]);
  }
  if (group > n) group = n;
  bb_id *perms = bb_gen_perm_ids(kind, n) ? malloc(bb_gen_perm_ids(kind, n) * sizeof *perms) : NULL;
  bb_gen_spec spec;
  bb_gpu_gen *gen = NULL;
  double staged = 0, wide = 0, cpu = -1;
  if (bb_gen_spec_init(&spec, kind, n, group, 1, perms, &err) != BB_OK ||
      bb_gpu_gen_open(0, &spec, &gen, &err) != BB_OK || !time_sides(gen, n, (size_t)64 << 20, &staged, &err) ||
      !time_sides(gen, n, (size_t)2 << 30, &wide, &err)) {
    fprintf(stderr, "gen-bench: %s\n", err.msg);
    return 1;
  }
  if (host) {
    bb_instance *inst = NULL;
    double t = bb_now();
    if (bb_generate(kind, n, group, 1, 0, &inst, &err) != BB_OK) {
      fprintf(stderr, "gen-bench: host: %s\n", err.msg);
      return 1;
    }
    cpu = bb_now() - t;
    bb_instance_free(inst);
  }
  char cpu_text[32] = "-";
  if (cpu >= 0) snprintf(cpu_text, sizeof cpu_text, "%.2f", cpu);
  char name[48];
  snprintf(name, sizeof name, kind == BB_GEN_RANDOM ? "%s g=%d" : "%s", argv[1], group);
  printf("| %d | %s | %.2f | %.2f | %s |\n", n, name, staged, wide, cpu_text);
  bb_gpu_gen_close(gen);
  free(perms);
  return 0;
}
