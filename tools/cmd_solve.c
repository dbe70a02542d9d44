/* bamboo-smp solve: reads or generates an instance, solves it, prints the matching. */
#define _POSIX_C_SOURCE 200809L /* getrusage */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "cli_phase.h"
#include "gen_rows.h"
#include "hr_io.h"
#include "hrc.h"
#include "instance_any.h"
#include "instance_io.h"
#include "row_source.h"
#include "solve_report.h"

typedef struct solve_args {
  const char *file, *gen_name, *algo, *out_path, *tail_on, *gpus_text;
  const char *da; /* --da: the HR algorithm of a ties file's deferred acceptance */
  int gpus[BB_PLAN_MAX_PARTS], gpu_count;
  bb_gen_kind gen_kind;
  int n, group;
  uint64_t seed;
  int threads, tail, tail_mode, verify, time, verbose, quiet;
  int runs, polish, rounds; /* --runs, --polish, --rounds: hrc-da-portfolio on an HRC file */
  double time_limit;
  cli_hr_opts hr;
  const char *gen_on; /* --gen-on gpu|host */
  int gen_on_gpu;
  bb_gen_spec spec; /* --gen-on gpu: what the GPU generates (gen_rows.h) */
  bb_id *perms;     /* its permutations (perfect, solo) */
  const char *format_text;
  cli_output_format format; /* --format text|json */
  const char *given[32];    /* the options the command line named (note_given) */
  int given_count;
  double deadline; /* bb_now() time the --time-limit ends, counted from before the input; 0 = none */
} solve_args;

/* Whether the command line named `option`: parsing leaves a default and an explicit value
 * alike, and an option given but meaningless for the instance must be refused, not dropped. */
static int given(const solve_args *a, const char *option) {
  for (int i = 0; i < a->given_count; i++)
    if (!strcmp(a->given[i], option)) return 1;
  return 0;
}

/* Walks argv as cli_parse did (it succeeded), skipping the options' values. */
static void note_given(int argc, char **argv, const cli_opt *opts, solve_args *a) {
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    for (const cli_opt *o = opts; o->name; o++)
      if (!strcmp(argv[i], o->name)) {
        if (a->given_count < (int)(sizeof a->given / sizeof *a->given)) a->given[a->given_count++] = o->name;
        if (o->kind != CLI_FLAG) i++;
        break;
      }
}

/* The first of `options` (NULL-terminated) that was given, or NULL. */
static const char *first_given(const solve_args *a, const char *const *options) {
  for (; *options; options++)
    if (given(a, *options)) return *options;
  return NULL;
}

/* With a file: --seed goes with a ties file too (it seeds the tie-breaking), checked once the
 * file says its kind. */
static const char *const file_refused_options[] = {"--k",        "--hospitals", "--women", "--skew",
                                                   "--capacity", "--gen-on",    NULL};
static const char *const incomplete_generator_options[] = {"--k",    "--hospitals", "--women",
                                                           "--skew", "--capacity",  NULL};
/* bb_hr_solve has no partitions over GPUs and no choice of where its tail runs. */
static const char *const complete_only_options[] = {"--gpus", "--tail-on", NULL};
/* hrc-da is one sequential CPU run of the residents' side (cmd_hrc.c); hrc-da-portfolio
 * takes --threads, --seed, --runs and --polish as well, and --gpus (one GPU: its runs there). */
static const char *const not_couples_options[] = {"--tail", "--tail-on", "--da", NULL};
static const char *const portfolio_options[] = {"--threads", "--seed", "--runs", "--polish", "--rounds", NULL};

/* The options only some algorithms read (the help says which): given to another algorithm
 * they would be dropped without a word, so they are refused. */
static int check_algorithm_options(const solve_args *a, int complete) {
  int bamboo = !strcmp(a->algo, "bamboo");
  const char *extra = NULL;
  if (!bamboo && given(a, "--tail"))
    extra = "--tail";
  else if (!bamboo && given(a, "--tail-on"))
    extra = "--tail-on";
  else if (complete && !bamboo && strncmp(a->algo, "gpu-", 4) && given(a, "--gpus"))
    extra = "--gpus";
  if (!extra) return 0;
  return cli_usage(&cli_solve, "%s has no meaning for --algo %s (it goes with %s)", extra, a->algo,
                   !strcmp(extra, "--gpus") ? "bamboo and the gpu- algorithms" : "bamboo");
}

static int check_args(solve_args *a) {
  if (a->file && a->gen_name) return cli_usage(&cli_solve, "give either FILE or --gen KIND, not both");
  if (!a->file && !a->gen_name) return cli_usage(&cli_solve, "missing input: FILE or --gen KIND");
  if (a->quiet && a->out_path && a->format == CLI_FORMAT_TEXT) /* json -q still has a report */
    return cli_usage(&cli_solve, "-q and -o exclude each other");
  if (a->file && (a->n || a->group)) return cli_usage(&cli_solve, "--n and --group go with --gen");
  const char *extra = a->file ? first_given(a, file_refused_options) : NULL;
  if (extra) return cli_usage(&cli_solve, "%s goes with --gen, not with an instance file", extra);
  if (!a->file && a->da) return cli_usage(&cli_solve, "--da goes with an SMTI/HRT file, not with --gen");
  if (a->gen_on && strcmp(a->gen_on, "gpu") && strcmp(a->gen_on, "host"))
    return cli_usage(&cli_solve, "--gen-on takes gpu or host, not '%s'", a->gen_on);
  a->gen_on_gpu = a->gen_on && !strcmp(a->gen_on, "gpu");
  if (a->gen_on_gpu && (a->file || cli_hr_kind(a->gen_name)))
    return cli_usage(&cli_solve, "--gen-on gpu goes with --gen perfect, solo, congested, random or uniform");
  int rc = 0;
  if (a->file) return 0; /* the algorithm and --side are checked once the file says which kind it is */
  if ((extra = first_given(a, portfolio_options + 2)))
    return cli_usage(&cli_solve, "%s goes with --algo hrc-da-portfolio on an HRC file", extra);
  if (cli_ties_gen_kind(a->gen_name))
    return cli_usage(&cli_solve,
                     "--gen %s: solve does not generate ties (SMTI/HRT) instances; write one with "
                     "'bamboo-smp gen %s ... -o FILE', then run 'bamboo-smp solve FILE'",
                     a->gen_name, a->gen_name);
  if (cli_hrc_gen_kind(a->gen_name))
    return cli_usage(&cli_solve,
                     "--gen %s: solve does not generate couples (HRC) instances; write one with "
                     "'bamboo-smp gen %s ... -o FILE', then run 'bamboo-smp solve FILE'",
                     a->gen_name, a->gen_name);
  bb_hr_side side;
  /* smi and the complete kinds name men and women; hr and nrmp residents and hospitals. */
  int words_of_men = !cli_hr_kind(a->gen_name) || !strcmp(a->gen_name, "smi");
  if ((rc = cli_hr_side(&cli_solve, a->hr.side, words_of_men, &side))) return rc;
  if (cli_hr_kind(a->gen_name)) {
    if ((extra = first_given(a, complete_only_options)) || (extra = a->group ? "--group" : NULL))
      return cli_usage(&cli_solve, "%s goes with complete lists, not with --gen %s", extra, a->gen_name);
    if (a->n == 0 && strcmp(a->gen_name, "nrmp") != 0) return cli_usage(&cli_solve, "--gen needs --n N");
    if ((rc = cli_hr_check_algorithm(&cli_solve, a->algo))) return rc;
    return check_algorithm_options(a, 0);
  }
  if ((rc = cli_check_algorithm(&cli_solve, a->algo)) || (rc = check_algorithm_options(a, 1))) return rc;
  if ((extra = first_given(a, incomplete_generator_options)))
    return cli_usage(&cli_solve, "%s goes with --gen smi, hr or nrmp, not with --gen %s", extra, a->gen_name);
  if ((rc = cli_parse_kind(&cli_solve, a->gen_name, &a->gen_kind, "; incomplete lists: smi, hr or nrmp"))) return rc;
  if (a->n == 0) return cli_usage(&cli_solve, "--gen needs --n N");
  a->group = cli_group_for(a->gen_kind, a->n, a->group);
  if (a->group > a->n) return cli_usage(&cli_solve, "--group %d is larger than --n %d", a->group, a->n);
  if (a->gen_on_gpu && (strcmp(a->algo, "bamboo") || side == BB_HR_HOSPITAL_OPTIMAL))
    return cli_usage(&cli_solve, "--gen-on gpu goes with --algo bamboo and the men's side");
  return 0;
}

static int parse_args(int argc, char **argv, solve_args *a) {
  const cli_opt opts[] = {
      {"--gen", CLI_STRING, &a->gen_name, 0, 0},
      {"--n", CLI_INT, &a->n, 1, BB_MAX_N},
      {"--group", CLI_INT, &a->group, 1, BB_MAX_N},
      {"--seed", CLI_U64, &a->seed, 0, 0},
      {"--algo", CLI_STRING, &a->algo, 0, 0},
      {"--da", CLI_STRING, &a->da, 0, 0},
      {"--verify", CLI_FLAG, &a->verify, 0, 0},
      {"--threads", CLI_INT, &a->threads, 0, 4096},
      {"--runs", CLI_INT, &a->runs, 1, 1000000},
      {"--polish", CLI_INT, &a->polish, 0, 1000000000},
      {"--rounds", CLI_INT, &a->rounds, 1, 1000000},
      {"--tail", CLI_INT, &a->tail, 1, BB_MAX_N},
      {"--tail-on", CLI_STRING, &a->tail_on, 0, 0},
      {"--time", CLI_FLAG, &a->time, 0, 0},
      {"--time-limit", CLI_SECONDS, &a->time_limit, 0, 0},
      {"--gpus", CLI_STRING, &a->gpus_text, 0, 0},
      {"--gen-on", CLI_STRING, &a->gen_on, 0, 0},
      {"-o", CLI_STRING, &a->out_path, 0, 0},
      {"-v", CLI_FLAG, &a->verbose, 0, 0},
      {"-q", CLI_FLAG, &a->quiet, 0, 0},
      {"--format", CLI_STRING, &a->format_text, 0, 0},
      {"--side", CLI_STRING, &a->hr.side, 0, 0},
      {"--k", CLI_INT, &a->hr.k, 1, BB_MAX_N},
      {"--hospitals", CLI_INT, &a->hr.hospitals, 1, BB_MAX_N},
      {"--women", CLI_INT, &a->hr.hospitals, 1, BB_MAX_N},
      {"--skew", CLI_REAL, &a->hr.skew, 0, 0},
      {"--capacity", CLI_INT, &a->hr.capacity, 1, 1000000000},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_solve, argc, argv, opts, &a->file);
  if (!rc) note_given(argc, argv, opts, a);
  if (!rc && a->tail_on) rc = cli_parse_tail_mode(&cli_solve, a->tail_on, &a->tail_mode);
  if (!rc) rc = cli_parse_format(&cli_solve, a->format_text, &a->format);
  if (!rc && a->gpus_text) rc = cli_parse_gpus(&cli_solve, a->gpus_text, a->gpus, &a->gpu_count);
  return rc ? rc : check_args(a);
}

/* --gen-on gpu: the spec the GPU generates from, and an instance without lists: the GPU makes
 * both sides block by block, and the host reads the women's rows it needs (the husbands, and
 * --verify's checker both sides) from a row source that regenerates them (row_source.h). */
static int spec_only(solve_args *a, bb_instance **inst) {
  bb_error err = {{0}};
  size_t ids = bb_gen_perm_ids(a->gen_kind, a->n);
  if (ids && !(a->perms = malloc(ids * sizeof *a->perms))) return cli_fail(BB_ERR_NOMEM, &err);
  bb_status st = bb_gen_spec_init(&a->spec, a->gen_kind, a->n, a->group, a->seed, a->perms, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  bb_instance *in = calloc(1, sizeof *in);
  if (!in) return cli_fail(BB_ERR_NOMEM, &err);
  in->n = a->n;
  *inst = in;
  return 0;
}

/* An HRC file: the options hrc-da has no use for are refused, not dropped. With ties on the
 * hospitals' side, --algo da-stb (the default; hrc-da means it too) or da-mtb breaks them,
 * seeded by --seed, as for an SMTI/HRT file; without ties those two are refused. */
static int check_couples(const solve_args *a, const bb_hrc *hrc) {
  const char *extra = first_given(a, not_couples_options);
  if (extra)
    return cli_usage(&cli_solve, "%s has no meaning for an HRC instance (hrc-da runs on one CPU thread)", extra);
  bool tied = bb_hrc_has_ties(hrc), breaks = !strcmp(a->algo, "da-stb") || !strcmp(a->algo, "da-mtb");
  if (breaks && !tied)
    return cli_usage(&cli_solve,
                     "--algo %s goes with an HRC file with ties in the hospitals' lists; this one has none "
                     "(use hrc-da or hrc-da-portfolio)",
                     a->algo);
  if (tied && !strcmp(a->algo, "hrc-da-portfolio"))
    return cli_usage(&cli_solve,
                     "--algo hrc-da-portfolio takes strict lists; this HRC file has ties in the hospitals' lists "
                     "(use --algo da-stb, the default, or da-mtb)");
  static const char *const strict_only_options[] = {"--threads", "--runs", "--polish", "--rounds", NULL};
  if (tied && (extra = first_given(a, strict_only_options)))
    return cli_usage(&cli_solve,
                     "%s goes with --algo hrc-da-portfolio, which takes strict lists; this HRC file has ties in the "
                     "hospitals' lists",
                     extra);
  if (!tied && strcmp(a->algo, "hrc-da-portfolio") && (extra = first_given(a, portfolio_options)))
    return cli_usage(&cli_solve, "%s goes with --algo hrc-da-portfolio on an HRC file, not with --algo %s", extra,
                     a->algo);
  if (given(a, "--gpus") && strcmp(a->algo, "hrc-da-portfolio"))
    return cli_usage(&cli_solve, "--gpus goes with --algo hrc-da-portfolio on an HRC file");
  if (a->gpu_count > 1)
    return cli_usage(&cli_solve, "--gpus '%s': hrc-da-portfolio runs on one GPU; list one", a->gpus_text);
  if (a->gpu_count && given(a, "--threads"))
    return cli_usage(&cli_solve, "--threads has no meaning with --gpus (hrc-da-portfolio's runs go to the GPU)");
  if (a->hr.side && strcmp(a->hr.side, "residents"))
    return cli_usage(&cli_solve,
                     "--side takes residents for an HRC instance (hrc-da proposes from the residents), not '%s'",
                     a->hr.side);
  return 0;
}

/* A ties file: the options no ties algorithm reads are refused, not dropped. --da picks the
 * HR algorithm that runs the deferred acceptance of the broken ties, and --threads goes with
 * the ones that use threads. */
static const char *const not_ties_options[] = {"--gpus", "--tail", "--tail-on", NULL};
static int check_ties(const solve_args *a) {
  const char *extra = first_given(a, not_ties_options);
  if (extra)
    return cli_usage(&cli_solve,
                     "%s has no meaning for an SMTI/HRT instance (--da picks where its deferred "
                     "acceptance runs)",
                     extra);
  if (a->da && !bb_hr_algorithm_describe(a->da))
    return cli_usage(&cli_solve, "--da takes an HR algorithm: gs-seq, mw-par, gpu-la-min or bamboo, not '%s'", a->da);
  if (a->da && !strcmp(cli_ties_algorithm(a->algo), "kiraly"))
    return cli_usage(&cli_solve, "--da has no meaning for --algo kiraly (it runs no deferred acceptance)");
  if (given(a, "--threads") && (!a->da || (strcmp(a->da, "mw-par") && strcmp(a->da, "bamboo"))))
    return cli_usage(&cli_solve, "--threads goes with --da mw-par or bamboo for an SMTI/HRT file");
  if (a->hr.side && strcmp(a->hr.side, "residents") && strcmp(a->hr.side, "men"))
    return cli_usage(&cli_solve, "--side takes men or residents for an SMTI/HRT instance (they propose), not '%s'",
                     a->hr.side);
  return cli_ties_check_algorithm(&cli_solve, a->algo, given(a, "--seed"));
}

/* Reads or generates the instance: a complete one in *inst, an SMI/HR one in *hr, an HRC one
 * in *hrc, a ties one in *ties. The file is opened once and its kind told from the bytes read, so '-', a FIFO and
 * a process substitution work as a regular file does. */
static int load_instance(solve_args *a, bb_instance **inst, bb_hr **hr, bb_hrc **hrc, bb_ties **ties) {
  if (a->gen_on_gpu) return spec_only(a, inst);
  if (!a->file && cli_hr_kind(a->gen_name)) return cli_hr_generate(a->gen_name, a->n, &a->hr, a->seed, a->threads, hr);
  if (!a->file) return cli_generate(a->gen_kind, a->n, a->group, a->seed, a->threads, inst);
  bb_error err = {{0}};
  bb_status st = bb_read_any_with_ties(a->file, a->deadline, inst, hr, hrc, ties, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  if (*ties) return check_ties(a);
  if (*hrc) return check_couples(a, *hrc);
  const char *only_portfolio = first_given(a, portfolio_options + 2);
  if (only_portfolio)
    return cli_usage(&cli_solve, "%s goes with --algo hrc-da-portfolio on an HRC file", only_portfolio);
  if (given(a, "--seed"))
    return cli_usage(&cli_solve, "--seed goes with --gen, not with an instance file (but with a ties file)");
  if (a->da) return cli_usage(&cli_solve, "--da goes with an SMTI/HRT file");
  const char *extra = first_given(a, complete_only_options);
  if (*hr && extra) return cli_usage(&cli_solve, "%s goes with complete lists, not with an SMI/HR file", extra);
  int rc;
  if (*hr) return (rc = cli_hr_check_algorithm(&cli_solve, a->algo)) ? rc : check_algorithm_options(a, 0);
  bb_hr_side side;
  if ((rc = cli_hr_side(&cli_solve, a->hr.side, 1, &side)) || (rc = cli_check_algorithm(&cli_solve, a->algo)))
    return rc;
  return check_algorithm_options(a, 1);
}

static void fill_opts(const solve_args *a, bb_solve_opts *opts) {
  bb_solve_opts_default(opts);
  opts->threads = a->threads;
  if (a->tail) opts->tail_threshold = a->tail;
  opts->tail_mode = a->tail_mode;
  opts->verbose = a->verbose;
  /* what the input left of the limit; time_left made sure some is */
  opts->time_limit_s = a->deadline > 0 ? a->deadline - bb_now() : 0;
  if (a->deadline > 0 && opts->time_limit_s <= 0) opts->time_limit_s = 1e-9;
  opts->gpus = a->gpu_count ? a->gpus : NULL;
  opts->gpu_count = a->gpu_count;
  opts->gen_spec = a->gen_on_gpu ? &a->spec : NULL;
}

/* --format json: what every kind of instance reports alike. */
static cli_solve_report report_of(const solve_args *a, const char *kind, int men, int women,
                                  const bb_solve_stats *stats, double t_input) {
  int words_of_men = strcmp(kind, "hr") != 0;
  return (cli_solve_report){.kind = kind,
                            .source = a->file,
                            .generator = a->file ? NULL : a->gen_name,
                            .proposers = men,
                            .receivers = women,
                            .couples = -1,
                            .algorithm = a->algo,
                            .side = a->hr.side     ? a->hr.side
                                    : words_of_men ? "men"
                                                   : "residents",
                            .stats = stats,
                            .t_input = t_input,
                            .with_matching = !a->quiet,
                            .verified = a->verify,
                            .stable = -1,
                            .blocking_pairs = -1};
}

/* SMI/HR: the optimal matching of the chosen side, printed 'r h' or 'r -'. */
static int solve_incomplete(const solve_args *a, const bb_hr *hr, double t_input) {
  bb_hr_side side;
  int rc = cli_hr_side(&cli_solve, a->hr.side, hr->smi, &side);
  if (rc) return rc;
  int32_t *assigned = malloc(((size_t)hr->n_residents + 1) * sizeof *assigned);
  if (!assigned) {
    cli_error("out of memory for the matching");
    return CLI_EXIT_NOMEM;
  }
  bb_solve_opts opts;
  fill_opts(a, &opts);
  bb_solve_stats stats = {0};
  bb_error err = {{0}};
  cli_phase phase;
  cli_phase_begin(&phase, a->algo, "solving");
  cli_phase_attach(&phase, &opts);
  bb_status st = bb_hr_solve(hr, a->algo, side, &opts, assigned, &stats, &err);
  cli_phase_end(&phase);
  rc = st == BB_OK ? 0 : cli_fail(st, &err);
  int solved = !rc;
  if (!rc && a->verbose) fprintf(stderr, "bamboo-smp: algorithm %s, path: %s\n", a->algo, stats.path);
  if (!rc && a->time) cli_print_times(t_input, &stats);
  if (!rc && a->verify) rc = cli_hr_verify(hr, assigned);
  if (solved && a->format == CLI_FORMAT_JSON) {
    cli_solve_report report = report_of(a, hr->smi ? "smi" : "hr", hr->n_residents, hr->n_hospitals, &stats, t_input);
    report.assigned = assigned;
    report.unassigned = BB_HR_NONE;
    rc = cli_solve_report_finish(&report, rc, a->out_path);
  } else if (!rc && !a->quiet) {
    rc = cli_hr_write_matching(a->out_path, assigned, hr->n_residents);
  }
  free(assigned);
  return rc;
}

/* The man-optimal matching, or with --side women the woman-optimal one: every algorithm
 * returns the proposers' optimum, so the women propose to the same instance with the sexes
 * swapped (a view: the two list pointers exchanged, nothing copied), and the husbands they
 * get are turned back into wife_of. Printed as man -> woman either way. */
static int solve(const solve_args *a, const bb_instance *inst, bb_id *wife_of, bb_solve_stats *stats) {
  bb_hr_side side;
  int rc = cli_hr_side(&cli_solve, a->hr.side, 1, &side);
  if (rc) return rc;
  int women = side == BB_HR_HOSPITAL_OPTIMAL;
  bb_instance swapped = {inst->n, inst->women_prefs, inst->men_prefs};
  bb_id *husband_of = NULL;
  if (women && !(husband_of = malloc((size_t)inst->n * sizeof *husband_of))) {
    cli_error("out of memory for the matching (n=%d)", inst->n);
    return CLI_EXIT_NOMEM;
  }
  bb_solve_opts opts;
  fill_opts(a, &opts);
  cli_phase phase;
  cli_phase_begin(&phase, a->algo, "solving");
  cli_phase_attach(&phase, &opts);
  bb_error err = {{0}};
  bb_status st = women ? bb_solve(&swapped, a->algo, &opts, husband_of, stats, &err)
                       : bb_solve(inst, a->algo, &opts, wife_of, stats, &err);
  cli_phase_end(&phase);
  if (st == BB_OK && women) {
    for (int w = 0; w < inst->n; w++) wife_of[husband_of[w]] = (bb_id)w;
    size_t len = strlen(stats->path);
    snprintf(stats->path + len, sizeof stats->path - len, " (women proposing)");
  }
  free(husband_of);
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

static int verify(const solve_args *a, const bb_instance *inst, const bb_id *wife_of) {
  bb_error err = {{0}};
  bb_row_source src;
  bb_status st = bb_row_source_init(&src, inst, a->gen_on_gpu ? &a->spec : NULL, &err);
  if (st == BB_OK) st = bb_check_stable_rows(&src, wife_of, &err);
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
    cli_error("cannot write the matching to '%s': %s", path ? path : "standard output", strerror(errno));
    return CLI_EXIT_IO;
  }
  return 0;
}

/* The memory plan, before the lists (held: bytes of them already read) and before the solve:
 * a solve that cannot fit ends here with exit 4. -v prints the plan. */
static int plan_solve(solve_args *a, int n, uint64_t held) {
  bb_plan_request req = {.n = n,
                         .algo = a->algo,
                         .threads = a->threads,
                         .host_held = held,
                         .devices = a->gpu_count ? a->gpus : NULL,
                         .device_count = a->gpu_count,
                         .verify = a->verify,
                         .gen_on_gpu = a->gen_on_gpu};
  return cli_memory_plan(&req, a->verbose, &a->algo);
}

/* The limit counts the input (reading or generating): exit 7 when that took all of it. */
static int time_left(const solve_args *a) {
  if (a->deadline <= 0 || bb_now() <= a->deadline) return 0;
  cli_error("time limit of %g s reached before the solve: the input took it", a->time_limit);
  return CLI_EXIT_TIMEOUT;
}

/* An HRC file: hrc-da (cmd_hrc.c). */
static int solve_couples(const solve_args *a, const bb_hrc *hrc, double t_input) {
  cli_hrc_solve_opts o = {.file = a->file,
                          .algo = a->algo,
                          .out_path = a->out_path,
                          .quiet = a->quiet,
                          .verify = a->verify,
                          .time = a->time,
                          .verbose = a->verbose,
                          .threads = a->threads,
                          .runs = a->runs,
                          .polish = a->polish,
                          .rounds = a->rounds,
                          .seed = a->seed,
                          .deadline = a->deadline,
                          .t_input = t_input,
                          .format = a->format,
                          .gpu = a->gpu_count ? a->gpus[0] : -1};
  return cli_hrc_solve(hrc, &o);
}

/* A ties file: da-stb, da-mtb, sic or kiraly (cmd_ties.c). */
static int solve_ties(const solve_args *a, const bb_ties *ties, double t_input) {
  bb_solve_opts hr;
  fill_opts(a, &hr);
  cli_ties_solve_opts o = {.file = a->file,
                           .algo = a->algo,
                           .da = a->da,
                           .hr = &hr,
                           .out_path = a->out_path,
                           .seed = a->seed,
                           .quiet = a->quiet,
                           .verify = a->verify,
                           .time = a->time,
                           .verbose = a->verbose,
                           .t_input = t_input,
                           .format = a->format};
  return cli_ties_solve(ties, &o);
}

static int solve_parsed(solve_args *a);

/* A usage error writes no JSON (some are found only once the instance's kind is known); every
 * other failure with --format json writes the failure's report when no report was written. */
static int run_solve(int argc, char **argv) {
  solve_args a = {.algo = "bamboo", .seed = CLI_DEFAULT_SEED};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  rc = solve_parsed(&a);
  if (rc && rc != CLI_EXIT_USAGE && a.format == CLI_FORMAT_JSON && !cli_solve_report_tried())
    rc = cli_solve_report_failure(a.algo, rc, a.out_path);
  return rc;
}

static int solve_parsed(solve_args *a) {
  int rc = 0;
  if (a->quiet) cli_progress_mute();

  bb_instance *inst = NULL;
  bb_hr *hr = NULL;
  bb_hrc *hrc = NULL;
  bb_ties *ties = NULL;
  /* The plan, and the CUDA context its query of the free GPU memory makes, are in no phase. */
  if (!a->file && !cli_hr_kind(a->gen_name) && (rc = plan_solve(a, a->n, 0))) return rc;
  double t0 = bb_now();
  if (a->time_limit > 0) a->deadline = t0 + a->time_limit;
  cli_phase reading;
  const char *source = !a->file ? a->gen_name : strcmp(a->file, "-") ? a->file : "standard input";
  cli_phase_begin(&reading, source, a->file ? "reading" : "generating");
  rc = load_instance(a, &inst, &hr, &hrc, &ties);
  cli_phase_end(&reading);
  double t_input = bb_now() - t0;
  if (!rc && a->file && inst) {
    double t_plan = bb_now();
    rc = plan_solve(a, inst->n, bb_instance_bytes(inst->n));
    if (a->deadline > 0) a->deadline += bb_now() - t_plan; /* in no phase, as above */
  }
  if (!rc) rc = time_left(a);
  if (!rc && hrc) rc = solve_couples(a, hrc, t_input);
  if (!rc && ties) rc = solve_ties(a, ties, t_input);
  if (!rc && hr) rc = solve_incomplete(a, hr, t_input);
  if (rc || hr || hrc || ties) {
    bb_instance_free(inst);
    bb_hr_free(hr);
    bb_hrc_free(hrc);
    bb_ties_free(ties);
    free(a->perms);
    return rc;
  }

  bb_id *wife_of = malloc((size_t)inst->n * sizeof *wife_of);
  bb_solve_stats stats = {0};
  if (!wife_of) {
    cli_error("out of memory for the matching (n=%d)", inst->n);
    rc = CLI_EXIT_NOMEM;
  } else {
    rc = solve(a, inst, wife_of, &stats);
  }
  int solved = !rc;
  if (!rc && a->verbose) fprintf(stderr, "bamboo-smp: algorithm %s, path: %s\n", a->algo, stats.path);
  if (!rc && a->time) cli_print_times(t_input, &stats);
  if (!rc && a->verify) rc = verify(a, inst, wife_of);
  if (solved && a->format == CLI_FORMAT_JSON) {
    cli_solve_report report = report_of(a, "complete", inst->n, inst->n, &stats, t_input);
    report.wife_of = wife_of;
    rc = cli_solve_report_finish(&report, rc, a->out_path);
  } else if (!rc && !a->quiet) {
    rc = write_matching(a->out_path, wife_of, inst->n);
  }
  free(wife_of);
  bb_instance_free(inst);
  free(a->perms);
  return rc;
}

const cli_command cli_solve = {
    "solve",
    "find the man- (or woman-) optimal stable matching of a file's or a generated instance",
    "solve FILE | --gen KIND --n N [--group G] [--seed S] [--algo A] [--verify]\n"
    "                  [--side men|women|residents|hospitals] [--k K] [--hospitals N2]\n"
    "                  [--skew S] [--capacity C]\n"
    "                  [--threads T] [--tail T] [--tail-on auto|cpu|gpu] [--time]\n"
    "                  [--time-limit SEC] [--gpus LIST] [--gen-on gpu|host]\n"
    "                  [--da HR-ALGO] [--runs N] [--polish STEPS] [--rounds R]\n"
    "                  [--format text|json]\n"
    "                  [-o FILE] [-v] [-q]",
    "Reads an instance (text or binary, '-' for standard input; opened once, so a pipe\n"
    "or a FIFO works for every kind; validated first) or generates one, finds the\n"
    "man-optimal stable matching (the woman-optimal one with --side women) and\n"
    "prints it as n lines 'm w' (0-based man and woman, man first\n"
    "whichever side is optimal). An SMI/HR file (docs/formats.md) gets the\n"
    "man-/resident-optimal stable matching (or, with --side, the other side's), printed\n"
    "as one line 'r h' per man/resident, 'r -' when unmatched. An HRC file (couples)\n"
    "gets the couples-aware deferred acceptance (--algo hrc-da, its default there), the\n"
    "same lines, and on stderr whether the matching is stable and its blocking pairs;\n"
    "there --side takes only residents, --tail and --tail-on are usage errors,\n"
    "and --threads, --seed, --runs, --polish and --gpus go with --algo hrc-da-portfolio\n"
    "(hrc-da and N - 1 randomised copies on T threads, or all at once on the one GPU\n"
    "--gpus lists, the fewest blocking pairs kept, the same for every T and on the GPU;\n"
    "-v prints each run; docs/hrc.md \"Portfolio\"). An HRC file with ties\n"
    "in the hospitals' lists (SFAS) gets --algo da-stb (its default; hrc-da means it) or\n"
    "da-mtb: hrc-da once --seed S (default 1) has broken the ties, the matching judged\n"
    "by weak stability; the portfolio and its options are refused there. An SMTI/HRT file\n"
    "(ties, docs/ties.md) gets --algo da-stb (its default), da-mtb, sic or kiraly,\n"
    "seeded by --seed, the same lines; --verify checks weak stability; --da picks the\n"
    "HR algorithm of their deferred acceptance once the ties are broken (gs-seq by default; mw-par, gpu-la-min, "
    "bamboo: the GPU where it\n"
    "pays), all ending in the same matching. An option the instance or the algorithm has no use for is\n"
    "refused (exit 2): --tail and --tail-on go with bamboo, --gpus with bamboo and the\n"
    "gpu- algorithms.\n\n"
    "  FILE            instance file (docs/formats.md)\n"
    "  --gen KIND      generate instead: perfect, solo, congested, random, uniform,\n"
    "                  latin, irving-leather; or incomplete lists: smi, hr, nrmp (see\n"
    "                  'bamboo-smp help gen'). Not the couples' hrc and nrmp-couples\n"
    "                  (nor hrc-mallows, nrmp-2024): write the file with 'gen hrc ...\n"
    "                  -o FILE', then 'solve FILE'\n"
    "  --side S        which optimal stable matching: men or women (complete lists\n"
    "                  and SMI), residents or hospitals (HR); default the men's/\n"
    "                  residents'. Every algorithm honours it\n"
    "  --k, --hospitals, --women, --skew, --capacity\n"
    "                  SMI/HR generators' parameters, as for 'gen' (--gen only)\n"
    "  --n N           size of the generated instance, 1..2097151\n"
    "  --group G       random only: group size (default 5, or N when N < 5)\n"
    "  --seed S        generator seed (default 1; --gen), or the tie-breaking's seed\n"
    "                  with a ties file (not kiraly) or an HRC file with ties, or\n"
    "                  hrc-da-portfolio's\n"
    "  --algo A        algorithm (default bamboo; 'bamboo-smp algos' lists them)\n"
    "  --runs N        hrc-da-portfolio: deferred acceptances to run (default 16)\n"
    "  --polish STEPS  hrc-da-portfolio: local search steps on the best (default 0)\n"
    "  --rounds R      hrc-da-portfolio: repair rounds of each run's two strategies\n"
    "                  (default 100; fewer make each run cheaper)\n"
    "  --da A          SMTI/HRT file: the HR algorithm (gs-seq, mw-par, gpu-la-min,\n"
    "                  bamboo) of da-stb's, da-mtb's and sic's deferred acceptance\n"
    "  --verify        check the matching is perfect and stable; prints\n"
    "                  'verified: stable (n=N)' on stderr, or exits 1\n"
    "  --threads T     CPU threads, 0 = all CPUs (default 0)\n"
    "  --tail T        bamboo: the tail starts once at most T men are free (default 1)\n"
    "  --tail-on W     bamboo on complete lists: where the tail runs: auto (default:\n"
    "                  CPU, a long chain goes back to the GPU), cpu (seed 000), gpu\n"
    "                  (one GPU block)\n"
    "  --time          print the phase times (input, transfer, precheck, init, solve,\n"
    "                  post, total; ms), the path taken and the proposals on stderr\n"
    "  --time-limit S  stop S seconds after the input starts (reading or generating\n"
    "                  it counts) with exit status 7; 0 = no limit (the default).\n"
    "                  Every kind (complete, SMI/HR, HRC), --algo and --side\n"
    "  --gpus LIST     bamboo, gpu-la-min on complete lists: GPUs by number, e.g. 1\n"
    "                  or 0,1,2,3: one partition of the participants per entry (seed\n"
    "                  000 V-C), data spread over them, peer access between distinct\n"
    "                  GPUs needed;\n"
    "                  a GPU may repeat (partitions on one GPU). Default 0;\n"
    "                  gpu-mw-cas runs on the one GPU listed, and so does\n"
    "                  hrc-da-portfolio on an HRC file (its runs; the polish on the CPU)\n"
    "  --gen-on W      with --gen (complete kinds), --algo bamboo (also with --gpus): where the\n"
    "                  lists are generated: host (default) or gpu (straight into the\n"
    "                  staged build, the same instance bit for bit; the host holds\n"
    "                  no lists: it regenerates the rows it reads; no CPU fallback;\n"
    "                  docs/generators.md)\n"
    "  --format F      text (default): the lines above; json: one JSON object with the\n"
    "                  instance, algorithm, side, path, matching (index = man/resident,\n"
    "                  value = partner or null), checks (--verify, stable, blocking\n"
    "                  pairs), phase times in ms and exit status (docs/formats.md,\n"
    "                  \"JSON output\"); written also when --verify fails (exit 1)\n"
    "  -o FILE         write the matching (or the JSON) to FILE instead of standard output\n"
    "  -v              print the algorithm's decisions (path taken) on stderr\n"
    "  -q              print no matching (with json: the object without \"matching\"\n"
    "                  and \"matched\"; -o then allowed) and no progress line\n"
    "On a terminal, a phase that runs over 2 s shows a progress line on stderr.\n",
    run_solve,
};
