/* bamboo-smp solve: reads or generates an instance, solves it, prints the matching. */
#define _POSIX_C_SOURCE 200809L /* getrusage */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "instance_io.h"

typedef struct solve_args {
  const char *file, *gen_name, *algo, *out_path, *tail_on;
  bb_gen_kind gen_kind;
  int n, group;
  uint64_t seed;
  int threads, tail, tail_mode, verify, time, verbose, quiet;
  double time_limit;
} solve_args;

static int check_args(solve_args *a) {
  if (a->file && a->gen_name) return cli_usage(&cli_solve, "give either FILE or --gen KIND, not both");
  if (!a->file && !a->gen_name) return cli_usage(&cli_solve, "missing input: FILE or --gen KIND");
  if (a->quiet && a->out_path) return cli_usage(&cli_solve, "-q and -o exclude each other");
  if (a->file && (a->n || a->group)) return cli_usage(&cli_solve, "--n and --group go with --gen");
  int rc = cli_check_algorithm(&cli_solve, a->algo);
  if (rc || a->file) return rc;
  if ((rc = cli_parse_kind(&cli_solve, a->gen_name, &a->gen_kind))) return rc;
  if (a->n == 0) return cli_usage(&cli_solve, "--gen needs --n N");
  a->group = cli_group_for(a->gen_kind, a->n, a->group);
  if (a->group > a->n) return cli_usage(&cli_solve, "--group %d is larger than --n %d", a->group, a->n);
  return 0;
}

static int parse_args(int argc, char **argv, solve_args *a) {
  const cli_opt opts[] = {
      {"--gen", CLI_STRING, &a->gen_name, 0, 0},
      {"--n", CLI_INT, &a->n, 1, BB_MAX_N},
      {"--group", CLI_INT, &a->group, 1, BB_MAX_N},
      {"--seed", CLI_U64, &a->seed, 0, 0},
      {"--algo", CLI_STRING, &a->algo, 0, 0},
      {"--verify", CLI_FLAG, &a->verify, 0, 0},
      {"--threads", CLI_INT, &a->threads, 0, 4096},
      {"--tail", CLI_INT, &a->tail, 1, BB_MAX_N},
      {"--tail-on", CLI_STRING, &a->tail_on, 0, 0},
      {"--time", CLI_FLAG, &a->time, 0, 0},
      {"--time-limit", CLI_SECONDS, &a->time_limit, 0, 0},
      {"-o", CLI_STRING, &a->out_path, 0, 0},
      {"-v", CLI_FLAG, &a->verbose, 0, 0},
      {"-q", CLI_FLAG, &a->quiet, 0, 0},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_solve, argc, argv, opts, &a->file);
  if (!rc && a->tail_on) rc = cli_parse_tail_mode(&cli_solve, a->tail_on, &a->tail_mode);
  return rc ? rc : check_args(a);
}

static int load_instance(const solve_args *a, bb_instance **inst) {
  if (!a->file) return cli_generate(a->gen_kind, a->n, a->group, a->seed, a->threads, inst);
  bb_error err = {{0}};
  bb_status st = bb_instance_read(a->file, inst, &err);
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

static int solve(const solve_args *a, const bb_instance *inst, bb_id *wife_of,
                 bb_solve_stats *stats) {
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.threads = a->threads;
  if (a->tail) opts.tail_threshold = a->tail;
  opts.tail_mode = a->tail_mode;
  opts.verbose = a->verbose;
  opts.time_limit_s = a->time_limit;
  cli_progress progress;
  cli_progress_attach(&progress, a->algo, &opts);
  bb_error err = {{0}};
  bb_status st = bb_solve(inst, a->algo, &opts, wife_of, stats, &err);
  cli_progress_clear(&progress);
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

static void print_times(double t_input, const bb_solve_stats *s) {
  const struct {
    const char *phase;
    double seconds;
  } rows[] = {
      {"input", t_input},       {"transfer", s->t_transfer}, {"precheck", s->t_precheck},
      {"init", s->t_init},      {"solve", s->t_solve},       {"post", s->t_post},
      {"total", t_input + cli_phase_total(s)},
  };
  fprintf(stderr, "%-10s %12s\n", "phase", "ms");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    fprintf(stderr, "%-10s %12.3f\n", rows[i].phase, 1e3 * rows[i].seconds);
  fprintf(stderr, "%-10s %s\n", "path", s->path);
  fprintf(stderr, "%-10s %llu\n", "proposals", (unsigned long long)s->proposals);
  if (s->tail_men) fprintf(stderr, "%-10s %d\n", "tail men", s->tail_men);
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0) /* ru_maxrss is in KiB on Linux */
    fprintf(stderr, "%-10s %.2f GiB\n", "peak RSS", usage.ru_maxrss / 1048576.0);
}

static int verify(const bb_instance *inst, const bb_id *wife_of) {
  bb_error err = {{0}};
  bb_status st = bb_check_stable(inst, wife_of, &err);
  if (st != BB_OK) {
    cli_error("verify failed: %s", err.msg[0] ? err.msg : bb_status_name(st));
    return cli_exit_code(st);
  }
  fprintf(stderr, "verified: stable (n=%d)\n", inst->n);
  return 0;
}

static int write_matching(const char *path, const bb_id *wife_of, int n) {
  FILE *out = path ? fopen(path, "w") : stdout;
  if (!out) {
    cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
    return CLI_EXIT_IO;
  }
  for (int m = 0; m < n; m++) fprintf(out, "%d %u\n", m, (unsigned)wife_of[m]);
  int failed = ferror(out) != 0;
  failed |= (path ? fclose(out) : fflush(out)) != 0;
  if (failed) {
    cli_error("cannot write the matching to '%s': %s", path ? path : "standard output",
              strerror(errno));
    return CLI_EXIT_IO;
  }
  return 0;
}

static int run_solve(int argc, char **argv) {
  solve_args a = {.algo = "bamboo", .seed = CLI_DEFAULT_SEED};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;

  double t0 = bb_now();
  bb_instance *inst = NULL;
  if ((rc = load_instance(&a, &inst))) return rc;
  double t_input = bb_now() - t0;

  bb_id *wife_of = malloc((size_t)inst->n * sizeof *wife_of);
  bb_solve_stats stats = {0};
  if (!wife_of) {
    cli_error("out of memory for the matching (n=%d)", inst->n);
    rc = CLI_EXIT_NOMEM;
  } else {
    rc = solve(&a, inst, wife_of, &stats);
  }
  if (!rc && a.verbose)
    fprintf(stderr, "bamboo-smp: algorithm %s, path: %s\n", a.algo, stats.path);
  if (!rc && a.time) print_times(t_input, &stats);
  if (!rc && a.verify) rc = verify(inst, wife_of);
  if (!rc && !a.quiet) rc = write_matching(a.out_path, wife_of, inst->n);
  free(wife_of);
  bb_instance_free(inst);
  return rc;
}

const cli_command cli_solve = {
    "solve",
    "find the man-optimal stable matching of a file's or a generated instance",
    "solve FILE | --gen KIND --n N [--group G] [--seed S] [--algo A] [--verify]\n"
    "                  [--threads T] [--tail T] [--tail-on auto|cpu|gpu] [--time]\n"
    "                  [--time-limit SEC]\n"
    "                  [-o FILE] [-v] [-q]",
    "Reads an instance (text or binary, '-' for standard input; validated first) or\n"
    "generates one, finds the man-optimal stable matching and prints it as n lines\n"
    "'m w' (0-based man and woman).\n\n"
    "  FILE            instance file (docs/formats.md)\n"
    "  --gen KIND      generate instead: perfect, solo, congested, random, uniform\n"
    "  --n N           size of the generated instance, 1..2097151\n"
    "  --group G       random only: group size (default 5, or N when N < 5)\n"
    "  --seed S        generator seed (default 1)\n"
    "  --algo A        algorithm (default bamboo; 'bamboo-smp algos' lists them)\n"
    "  --verify        check the matching is perfect and stable; prints\n"
    "                  'verified: stable (n=N)' on stderr, or exits 1\n"
    "  --threads T     CPU threads, 0 = all CPUs (default 0)\n"
    "  --tail T        bamboo: the tail starts once at most T men are free (default 1)\n"
    "  --tail-on W     bamboo: where the tail runs: auto (default: CPU, a long chain\n"
    "                  goes back to the GPU), cpu (seed 000), gpu (one GPU block)\n"
    "  --time          print the phase times (input, transfer, precheck, init, solve,\n"
    "                  post, total; ms), the path taken and the proposals on stderr\n"
    "  --time-limit S  stop after S seconds with exit status 7 (default: none)\n"
    "  -o FILE         write the matching to FILE instead of standard output\n"
    "  -v              print the algorithm's decisions (path taken) on stderr\n"
    "  -q              print no matching\n",
    run_solve,
};
