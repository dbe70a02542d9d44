/* bamboo-smp on ties (SMTI, HRT; docs/ties.md): the `gen smti|hrt|school` generators, `solve`
 * on a ties file (da-stb, da-mtb, sic, kiraly), and the `ties` command (check a matching's
 * weak, strong or super-stability, convert a file). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_phase.h"
#include "solve_report.h"
#include "ties.h"
#include "ties_gen.h"
#include "ties_io.h"

int cli_ties_gen_kind(const char *kind) {
  bb_ties_gen_kind k;
  return bb_ties_gen_kind_parse(kind, &k);
}

/* ----------------------------------------------------------------- gen ---- */

static const cli_command cli_gen_ties = {
    "gen",
    "write a generated SMTI or HRT instance",
    "gen smti [--n N] [--women N2] [--p1 P] [--p2 P] [--seed S] [-o FILE] [--binary]\n"
    "       bamboo-smp gen hrt|school [--n N] [--hospitals H] [--k K] [--capacity C] [--classes L]\n"
    "                  [--skew S] [--seed S] [-o FILE] [--binary]",
    "Ties (docs/generators.md, \"Ties\"; docs/ties.md):\n"
    "  smti     Gent & Prosser: N men (default 100) and N2 women (default N), complete\n"
    "           random lists, each pair deleted with probability --p1 (default 0.5), each\n"
    "           entry tied with the one before with probability --p2 (default 0.5)\n"
    "  hrt      shaped like SFAS: 700 residents with strict lists of --k 6 of 50 hospitals\n"
    "           of capacity 14, hospitals ranking by one master list of --classes 40 scores\n"
    "  school   shaped like New York City: 90000 students, 700 programmes of capacity 100,\n"
    "           lists of 1..--k 12, --classes 4 priority groups (10/20/30/40 %)\n"
    "  --skew S     hrt, school: popularity of hospital h ~ 1/(h+1)^S (0.5 and 0.8)\n"
    "  --seed S     unsigned 64-bit seed (default 1)\n"
    "  -o FILE      write to FILE instead of standard output\n"
    "  --binary     the binary format (needs -o)\n",
    NULL,
};

int cli_ties_gen(int argc, char **argv) {
  const char *kind_name = argv[1], *out = NULL;
  int n = 0, other = 0, women = 0, k = 0, capacity = 0, classes = 0, binary = 0;
  double p1 = -1, p2 = -1, skew = -1;
  uint64_t seed = CLI_DEFAULT_SEED;
  const cli_opt opts[] = {
      {"--n", CLI_INT, &n, 1, BB_MAX_N},
      {"--hospitals", CLI_INT, &other, 1, BB_MAX_N},
      {"--women", CLI_INT, &women, 1, BB_MAX_N},
      {"--p1", CLI_REAL, &p1, 0, 0},
      {"--p2", CLI_REAL, &p2, 0, 0},
      {"--k", CLI_INT, &k, 1, 100000},
      {"--capacity", CLI_INT, &capacity, 1, 2000000000},
      {"--classes", CLI_INT, &classes, 1, 1000000},
      {"--skew", CLI_REAL, &skew, 0, 0},
      {"--seed", CLI_U64, &seed, 0, 0},
      {"-o", CLI_STRING, &out, 0, 0},
      {"--binary", CLI_FLAG, &binary, 0, 0},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_gen_ties, argc - 1, argv + 1, opts, NULL);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (binary && !out) return cli_usage(&cli_gen_ties, "--binary needs -o FILE");
  bb_ties_gen_kind kind = BB_TIES_GEN_SMTI;
  bb_ties_gen_kind_parse(kind_name, &kind);
  bb_ties_gen_params p;
  bb_ties_gen_defaults(kind, &p);
  if (kind == BB_TIES_GEN_SMTI) {
    const char *extra = other       ? "--hospitals"
                        : k         ? "--k"
                        : capacity  ? "--capacity"
                        : classes   ? "--classes"
                        : skew >= 0 ? "--skew"
                                    : NULL;
    if (extra) return cli_usage(&cli_gen_ties, "%s goes with hrt and school, not with smti", extra);
    if (n) p.n_residents = p.n_hospitals = n;
    if (women) p.n_hospitals = women;
    if (p1 >= 0) p.p1 = p1;
    if (p2 >= 0) p.p2 = p2;
  } else {
    const char *extra = women ? "--women" : p1 >= 0 ? "--p1" : p2 >= 0 ? "--p2" : NULL;
    if (extra) return cli_usage(&cli_gen_ties, "%s goes with smti, not with %s", extra, kind_name);
    if (n) p.n_residents = n;
    if (other) p.n_hospitals = other;
    if (k) p.list_length = k;
    if (capacity) p.capacity = capacity;
    if (classes) p.classes = classes;
    if (skew >= 0) p.skew = skew;
  }
  p.seed = seed;
  bb_ties *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_ties_generate(&p, &inst, &err);
  if (st != BB_OK) return st == BB_ERR_ARG ? cli_usage(&cli_gen_ties, "%s", err.msg) : cli_fail(st, &err);
  const char *path = out ? out : "-";
  st = binary ? bb_ties_write_binary(inst, path, &err) : bb_ties_write_text(inst, path, &err);
  bb_ties_free(inst);
  return st == BB_OK ? CLI_EXIT_OK : cli_fail(st, &err);
}

/* --------------------------------------------------------------- solve ---- */

const char *cli_ties_algorithm(const char *algo) { return !strcmp(algo, "bamboo") ? "da-stb" : algo; }

int cli_ties_check_algorithm(const cli_command *cmd, const char *algo, int seed_given) {
  const char *name = cli_ties_algorithm(algo);
  if (!bb_ties_algorithm_describe(name))
    return cli_usage(cmd,
                     "algorithm '%s' does not take ties; for an SMTI/HRT file use da-stb (the default), da-mtb, "
                     "sic or kiraly",
                     algo);
  if (seed_given && !strcmp(name, "kiraly"))
    return cli_usage(cmd, "--seed has no meaning for --algo kiraly (it breaks no ties at random)");
  return 0;
}

int cli_ties_solve(const bb_ties *inst, const cli_ties_solve_opts *o) {
  const char *algo = cli_ties_algorithm(o->algo);
  int32_t *assigned = malloc(((size_t)inst->n_residents + 1) * sizeof *assigned);
  if (!assigned) {
    cli_error("out of memory for the matching");
    return CLI_EXIT_NOMEM;
  }
  double t1 = bb_now();
  bb_error err = {{0}};
  cli_phase phase;
  cli_phase_begin(&phase, algo, "solving");
  bb_ties_solve_opts so = {.seed = o->seed, .da = o->da, .hr = o->hr};
  char path[96];
  bb_status st = bb_ties_solve_with(inst, algo, &so, assigned, path, &err);
  if (st == BB_OK && o->verbose && path[0]) fprintf(stderr, "%s: deferred acceptance on %s\n", algo, path);
  cli_phase_end(&phase);
  double t2 = bb_now();
  int rc = st == BB_OK ? 0 : cli_fail(st, &err), json = o->format == CLI_FORMAT_JSON;
  bb_ties_blocking b = {0, -1, -1};
  if (!rc && (st = bb_ties_count_blocking(inst, assigned, BB_TIES_WEAK, &b, &err)) != BB_OK) rc = cli_fail(st, &err);
  if (!rc) {
    int matched = 0;
    for (int r = 0; r < inst->n_residents; r++) matched += assigned[r] != BB_TIES_NONE;
    if (o->verbose || o->verify)
      fprintf(stderr, "%s: %s, %llu weakly blocking pairs (%d %s, %d %s; %d matched)\n", algo,
              b.count ? "not weakly stable" : "weakly stable", (unsigned long long)b.count, inst->n_residents,
              inst->smti ? "men" : "residents", inst->n_hospitals, inst->smti ? "women" : "hospitals", matched);
    if (o->time) fprintf(stderr, "input %.1f ms, %s %.1f ms\n", 1e3 * o->t_input, algo, 1e3 * (t2 - t1));
  }
  if (!rc && !o->quiet && !json) rc = cli_hr_write_matching(o->out_path, assigned, inst->n_residents);
  if (!rc && o->verify && b.count) {
    bb_ties_check_stable(inst, assigned, BB_TIES_WEAK, &err);
    cli_error("verify failed: %s", err.msg);
    rc = CLI_EXIT_INPUT;
  } else if (!rc && o->verify) {
    fprintf(stderr, "verified: weakly stable (%s)\n", inst->smti ? "smti" : "hrt");
  }
  if (st == BB_OK && json) {
    cli_solve_report report = {.kind = inst->smti ? "smti" : "hrt",
                               .source = o->file,
                               .proposers = inst->n_residents,
                               .receivers = inst->n_hospitals,
                               .couples = -1,
                               .algorithm = algo,
                               .side = inst->smti ? "men" : "residents",
                               .t_input = o->t_input,
                               .t_solve = t2 - t1,
                               .assigned = assigned,
                               .unassigned = BB_TIES_NONE,
                               .with_matching = !o->quiet,
                               .verified = o->verify,
                               .stable = b.count == 0,
                               .blocking_pairs = (int64_t)b.count};
    rc = cli_solve_report_finish(&report, rc, o->out_path);
  }
  free(assigned);
  return rc;
}

/* ---------------------------------------------------------- ties check ---- */

static const cli_command cli_ties_check_cmd = {
    "ties",
    "check a matching of an SMTI/HRT instance",
    "ties check INSTANCE --matching FILE [--stability weak|strong|super]",
    "Reads an SMTI/HRT instance and a matching (one line 'r h' per resident, 'r -' when\n"
    "unassigned, as 'solve' prints), checks that it is a matching and counts its blocking\n"
    "pairs for weak (the default), strong or super-stability (docs/ties.md). Prints\n"
    "'weakly stable' (or 'strongly stable', 'super-stable') or the count and the first\n"
    "blocking pair; exit status 0 when stable, 1 when not (or when it is no matching).\n",
    NULL,
};

static int ties_check(int argc, char **argv) {
  const char *instance = NULL, *matching = NULL, *stability = NULL;
  const cli_opt opts[] = {{"--matching", CLI_STRING, &matching, 0, 0},
                          {"--stability", CLI_STRING, &stability, 0, 0},
                          {NULL, CLI_FLAG, NULL, 0, 0}};
  int rc = cli_parse(&cli_ties_check_cmd, argc, argv, opts, &instance);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (!instance || !matching) return cli_usage(&cli_ties_check_cmd, "needs INSTANCE and --matching FILE");
  bb_ties_stability kind = BB_TIES_WEAK;
  if (stability && !bb_ties_stability_parse(stability, &kind))
    return cli_usage(&cli_ties_check_cmd, "--stability takes weak, strong or super, not '%s'", stability);
  bb_ties *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_ties_read(instance, &inst, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  int32_t *assigned = malloc(((size_t)inst->n_residents + 1) * sizeof *assigned);
  bb_ties_blocking b;
  rc = assigned ? 0 : CLI_EXIT_NOMEM;
  if (!rc && (st = cli_read_matching(matching, inst->n_residents, inst->n_hospitals, assigned, &err)) != BB_OK)
    rc = cli_fail(st, &err);
  if (!rc && (st = bb_ties_count_blocking(inst, assigned, kind, &b, &err)) != BB_OK) rc = cli_fail(st, &err);
  static const char *const adjective[] = {"weakly stable", "strongly stable", "super-stable"};
  if (!rc && b.count == 0) printf("%s\n", adjective[kind]);
  if (!rc && b.count > 0) {
    printf("not %s: %llu blocking pair%s; the first: %s %d with %s %d\n", adjective[kind], (unsigned long long)b.count,
           b.count == 1 ? "" : "s", bb_ties_resident_word(inst), b.first_resident, bb_ties_hospital_word(inst),
           b.first_hospital);
    rc = CLI_EXIT_INPUT;
  }
  free(assigned);
  bb_ties_free(inst);
  return rc;
}

static const cli_command cli_ties_convert_cmd = {
    "ties",
    "convert an SMTI/HRT instance between text and binary",
    "ties convert INSTANCE -o FILE [--binary]",
    "Reads an SMTI/HRT instance (text or binary) and writes it as text, or binary with --binary.\n",
    NULL,
};

static int ties_convert(int argc, char **argv) {
  const char *instance = NULL, *out = NULL;
  int binary = 0;
  const cli_opt opts[] = {
      {"-o", CLI_STRING, &out, 0, 0}, {"--binary", CLI_FLAG, &binary, 0, 0}, {NULL, CLI_FLAG, NULL, 0, 0}};
  int rc = cli_parse(&cli_ties_convert_cmd, argc, argv, opts, &instance);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (!instance || !out) return cli_usage(&cli_ties_convert_cmd, "needs INSTANCE and -o FILE");
  bb_ties *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_ties_read(instance, &inst, &err);
  if (st == BB_OK) st = binary ? bb_ties_write_binary(inst, out, &err) : bb_ties_write_text(inst, out, &err);
  bb_ties_free(inst);
  return st == BB_OK ? CLI_EXIT_OK : cli_fail(st, &err);
}

static int run_ties(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "check")) return ties_check(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "convert")) return ties_convert(argc - 1, argv + 1);
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    cli_print_help(&cli_ties);
    return CLI_EXIT_OK;
  }
  return cli_usage(&cli_ties, "expected 'ties check' or 'ties convert'");
}

const cli_command cli_ties = {
    "ties",
    "SMTI/HRT (ties): check a matching, convert a file",
    "ties check INSTANCE --matching FILE [--stability weak|strong|super] | ties convert INSTANCE -o FILE [--binary]",
    "Stable matching with ties (docs/ties.md). 'gen smti', 'gen hrt' and 'gen school' write\n"
    "instances; 'solve FILE' runs --algo da-stb (the default), da-mtb, sic or kiraly on one\n"
    "(--seed S drives the tie-breaking of all but kiraly).\n\n"
    "  check INSTANCE --matching FILE [--stability K]   count the blocking pairs of a\n"
    "                                   matching ('r h' lines); exit 0 when stable, 1 when not\n"
    "  convert INSTANCE -o FILE [--binary]   rewrite as text or binary\n",
    run_ties,
};
