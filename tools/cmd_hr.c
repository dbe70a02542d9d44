/* bamboo-smp on incomplete lists and capacities (SMI, HR): generation, the side, output and
 * verification that `gen` and `solve` share (cli.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hr_gen.h"

int cli_hr_kind(const char *kind) {
  return kind && (!strcmp(kind, "smi") || !strcmp(kind, "hr") || !strcmp(kind, "nrmp"));
}

int cli_hr_generate(const char *kind, int n, const cli_hr_opts *o, uint64_t seed, int threads, bb_hr **out) {
  bb_hr_gen_params p;
  if (!strcmp(kind, "nrmp")) {
    bb_hr_gen_nrmp(&p);
    if (n) p.n_residents = n;
    if (o->hospitals) p.n_hospitals = o->hospitals;
    if (o->k) p.list_length = o->k;
    if (o->skew > 0) p.skew = o->skew;
  } else {
    bb_hr_gen_defaults(&p);
    p.smi = !strcmp(kind, "smi");
    p.n_residents = n;
    p.n_hospitals = o->hospitals ? o->hospitals : n;
    if (o->k) p.list_length = o->k;
    p.skew = o->skew;
  }
  p.capacity = o->capacity;
  p.seed = seed;
  p.threads = threads;
  bb_error err = {{0}};
  bb_status st = bb_hr_generate(&p, out, &err);
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

int cli_hr_side(const cli_command *cmd, const char *text, int smi, bb_hr_side *side) {
  *side = BB_HR_RESIDENT_OPTIMAL;
  if (!text) return 0;
  if (!strcmp(text, smi ? "men" : "residents")) return 0;
  if (!strcmp(text, smi ? "women" : "hospitals")) {
    *side = BB_HR_HOSPITAL_OPTIMAL;
    return 0;
  }
  return cli_usage(cmd, "--side takes %s for this instance, not '%s'", smi ? "men or women" : "residents or hospitals",
                   text);
}

int cli_hr_check_algorithm(const cli_command *cmd, const char *name) {
  if (bb_hr_algorithm_describe(name)) return 0;
  char list[200] = "";
  for (const char *const *a = bb_hr_algorithm_names(); *a; a++) {
    if (list[0]) strncat(list, ", ", sizeof list - strlen(list) - 1);
    strncat(list, *a, sizeof list - strlen(list) - 1);
  }
  return cli_usage(cmd, "algorithm '%s' needs complete lists; for SMI/HR instances use %s", name, list);
}

int cli_hr_write_matching(const char *path, const int32_t *assigned, int n) {
  FILE *out = path ? fopen(path, "w") : stdout;
  if (!out) {
    cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
    return CLI_EXIT_IO;
  }
  for (int r = 0; r < n; r++) {
    if (assigned[r] == BB_HR_NONE)
      fprintf(out, "%d -\n", r);
    else
      fprintf(out, "%d %d\n", r, (int)assigned[r]);
  }
  int failed = ferror(out) != 0;
  failed |= (path ? fclose(out) : fflush(out)) != 0;
  if (failed) {
    cli_error("cannot write the matching to '%s': %s", path ? path : "standard output", strerror(errno));
    return CLI_EXIT_IO;
  }
  return 0;
}

int cli_hr_verify(const bb_hr *inst, const int32_t *assigned) {
  bb_error err = {{0}};
  bb_status st = bb_hr_check_stable(inst, assigned, &err);
  if (st != BB_OK) {
    cli_error("verify failed: %s", err.msg[0] ? err.msg : bb_status_name(st));
    return cli_exit_code(st);
  }
  int matched = 0;
  for (int r = 0; r < inst->n_residents; r++) matched += assigned[r] != BB_HR_NONE;
  fprintf(stderr, "verified: stable (%s, %d %s, %d %s, %d matched)\n", inst->smi ? "smi" : "hr", inst->n_residents,
          inst->smi ? "men" : "residents", inst->n_hospitals, inst->smi ? "women" : "hospitals", matched);
  return 0;
}
