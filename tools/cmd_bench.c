/* bamboo-smp bench: algorithms x workloads x sizes, median times as a markdown table (and CSV).
 *
 * Every instance is generated once. The first run of each algorithm is checked with
 * bb_check_stable and compared with the first algorithm's matching on that instance
 * (the man-optimal matching is unique, so all must be identical). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "csv.h"
#include "gpu_lists.h"

#define BENCH_MAX_ITEMS 64
#define BENCH_MAX_RUNS 100

typedef struct bench_args {
  const char *algos_text, *kinds_text, *sizes_text, *markdown_path, *csv_path, *tail_on;
  int group, runs, threads, tail, tail_mode, pinned;
  uint64_t seed;
  double max_seconds;
} bench_args;

/* Where the rows go besides standard output; either may be NULL. */
typedef struct bench_outputs {
  FILE *markdown, *csv;
} bench_outputs;

typedef struct bench_plan {
  char *algo_buf; /* owns the strings algos[] points into */
  const char *algos[BENCH_MAX_ITEMS];
  int n_algos;
  bb_gen_kind kinds[BENCH_MAX_ITEMS];
  int n_kinds;
  int sizes[BENCH_MAX_ITEMS];
  int n_sizes;
} bench_plan;

/* One instance being benchmarked, and the matching the others must equal. */
typedef struct bench_case {
  const bench_args *args;
  const bench_outputs *out;
  const bb_instance *inst;
  char workload[32];
  bb_id *wife_of, *reference;
  const char *reference_algo;    /* NULL until an algorithm succeeded */
  const bb_gpu_lists *gpu_lists; /* --pinned: bamboo's packed pinned lists, or NULL */
} bench_case;

/* --- the plan: comma-separated lists --- */

/* Splits `text` in place at commas; empty items are an error. Returns the count or -1. */
static int split_list(char *text, char **items, int max_items) {
  int count = 0;
  for (char *item = text;; item++) {
    char *comma = strchr(item, ',');
    if (comma) *comma = '\0';
    if (!*item || count == max_items) return -1;
    items[count++] = item;
    if (!comma) return count;
    item = comma;
  }
}

static char *copy_string(const char *text) {
  size_t len = strlen(text) + 1;
  char *copy = malloc(len);
  return copy ? memcpy(copy, text, len) : NULL;
}

/* Splits `text` into a scratch copy; the caller frees *buf. */
static int split_option(const char *opt, const char *text, char **buf, char **items) {
  *buf = copy_string(text);
  if (!*buf) {
    cli_error("out of memory");
    return -1;
  }
  int count = split_list(*buf, items, BENCH_MAX_ITEMS);
  if (count < 0) cli_usage(&cli_bench, "%s: '%s' is not a comma-separated list", opt, text);
  return count;
}

static int plan_algorithms(const bench_args *a, bench_plan *p) {
  if (!a->algos_text) {
    for (const char *const *name = bb_algorithm_names(); *name && p->n_algos < BENCH_MAX_ITEMS; name++)
      p->algos[p->n_algos++] = *name;
    return 0;
  }
  char *items[BENCH_MAX_ITEMS];
  p->n_algos = split_option("--algos", a->algos_text, &p->algo_buf, items);
  if (p->n_algos < 0) return p->algo_buf ? CLI_EXIT_USAGE : CLI_EXIT_NOMEM;
  for (int i = 0; i < p->n_algos; i++) {
    int rc = cli_check_algorithm(&cli_bench, items[i]);
    if (rc) return rc;
    p->algos[i] = items[i];
  }
  return 0;
}

static int plan_kinds(const bench_args *a, bench_plan *p) {
  char *buf, *items[BENCH_MAX_ITEMS];
  int count = split_option("--kinds", a->kinds_text, &buf, items), rc = 0;
  if (count < 0) rc = buf ? CLI_EXIT_USAGE : CLI_EXIT_NOMEM;
  for (int i = 0; i < count && !rc; i++) rc = cli_parse_kind(&cli_bench, items[i], &p->kinds[i], NULL);
  p->n_kinds = count;
  free(buf);
  return rc;
}

static int plan_sizes(const bench_args *a, bench_plan *p) {
  char *buf, *items[BENCH_MAX_ITEMS];
  int count = split_option("--n", a->sizes_text, &buf, items), rc = 0;
  if (count < 0) rc = buf ? CLI_EXIT_USAGE : CLI_EXIT_NOMEM;
  for (int i = 0; i < count && !rc; i++) rc = cli_parse_int(&cli_bench, "--n", items[i], 1, BB_MAX_N, &p->sizes[i]);
  p->n_sizes = count;
  free(buf);
  return rc;
}

static int parse_args(int argc, char **argv, bench_args *a, bench_plan *p) {
  const cli_opt opts[] = {
      {"--algos", CLI_STRING, &a->algos_text, 0, 0},
      {"--kinds", CLI_STRING, &a->kinds_text, 0, 0},
      {"--n", CLI_STRING, &a->sizes_text, 0, 0},
      {"--group", CLI_INT, &a->group, 1, BB_MAX_N},
      {"--runs", CLI_INT, &a->runs, 1, BENCH_MAX_RUNS},
      {"--seed", CLI_U64, &a->seed, 0, 0},
      {"--threads", CLI_INT, &a->threads, 0, 4096},
      {"--tail", CLI_INT, &a->tail, 1, BB_MAX_N},
      {"--tail-on", CLI_STRING, &a->tail_on, 0, 0},
      {"--max-seconds", CLI_SECONDS, &a->max_seconds, 0, 0},
      {"--markdown", CLI_STRING, &a->markdown_path, 0, 0},
      {"--csv", CLI_STRING, &a->csv_path, 0, 0},
      {"--pinned", CLI_FLAG, &a->pinned, 0, 0},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_bench, argc, argv, opts, NULL);
  if (!rc && a->tail_on) rc = cli_parse_tail_mode(&cli_bench, a->tail_on, &a->tail_mode);
  if (!rc) rc = plan_algorithms(a, p);
  if (!rc) rc = plan_kinds(a, p);
  if (!rc) rc = plan_sizes(a, p);
  return rc;
}

/* --- output --- */

static void emit(FILE *markdown, const char *text) {
  fputs(text, stdout);
  fflush(stdout);
  if (markdown) {
    fputs(text, markdown);
    fflush(markdown);
  }
}

/* Whether a row could not be written (a full disk): the table is lost, so bench stops. */
static int output_failed(const bench_outputs *out) {
  return ferror(stdout) || (out->markdown && ferror(out->markdown)) || (out->csv && ferror(out->csv));
}

/* The same row in the CSV file, cells unescaped (the CSV quoting is its own). */
static void emit_csv(FILE *csv, const char *const *fields) {
  if (!csv) return;
  cli_csv_row(csv, fields, 7);
  fflush(csv);
}

/* Copies `text` with '|' escaped so it stays inside one table cell. */
static void table_cell(char *out, size_t size, const char *text) {
  size_t len = 0;
  for (; *text && len + 3 < size; text++) {
    if (*text == '|') out[len++] = '\\';
    out[len++] = *text;
  }
  out[len] = '\0';
}

static void emit_row(const bench_case *c, const char *algo, const char *solve_ms, const char *total_ms, int runs,
                     const char *path) {
  char cell[256], row[512];
  table_cell(cell, sizeof cell, path);
  snprintf(row, sizeof row, "| %d | %s | %s | %s | %s | %d | %s |\n", c->inst->n, c->workload, algo, solve_ms, total_ms,
           runs, cell);
  emit(c->out->markdown, row);
  char n_text[16], runs_text[16];
  snprintf(n_text, sizeof n_text, "%d", c->inst->n);
  snprintf(runs_text, sizeof runs_text, "%d", runs);
  emit_csv(c->out->csv, (const char *const[]){n_text, c->workload, algo, solve_ms, total_ms, runs_text, path});
}

static void emit_header(const bench_outputs *out) {
  emit(out->markdown,
       "| n | workload | algorithm | solve ms (median) | total ms (median) | runs | path |\n"
       "|---:|---|---|---:|---:|---:|---|\n");
  emit_csv(out->csv,
           (const char *const[]){"n", "workload", "algorithm", "solve_ms_median", "total_ms_median", "runs", "path"});
}

/* --- measuring --- */

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median_ms(double *seconds, int count) {
  qsort(seconds, (size_t)count, sizeof *seconds, compare_doubles);
  double mid = count % 2 ? seconds[count / 2] : (seconds[count / 2 - 1] + seconds[count / 2]) / 2;
  return 1e3 * mid;
}

/* Stability of the first result of `algo`, and equality with the reference matching. */
static int check_result(bench_case *c, const char *algo) {
  int n = c->inst->n;
  bb_error err = {{0}};
  bb_status st = bb_check_stable(c->inst, c->wife_of, &err);
  if (st != BB_OK) {
    cli_error("%s on %s n=%d: unstable result: %s", algo, c->workload, n, err.msg);
    return CLI_EXIT_INPUT;
  }
  if (!c->reference_algo) {
    memcpy(c->reference, c->wife_of, (size_t)n * sizeof *c->wife_of);
    c->reference_algo = algo;
    return 0;
  }
  for (int m = 0; m < n; m++) {
    if (c->wife_of[m] == c->reference[m]) continue;
    cli_error("%s on %s n=%d: matching differs from %s's (man %d: woman %u, not %u)", algo, c->workload, n,
              c->reference_algo, m, (unsigned)c->wife_of[m], (unsigned)c->reference[m]);
    return CLI_EXIT_INPUT;
  }
  return 0;
}

static bb_status run_once(bench_case *c, const char *algo, int run, bb_solve_stats *stats, double *wall,
                          bb_error *err) {
  const bench_args *a = c->args;
  bb_solve_opts opts;
  bb_solve_opts_default(&opts);
  opts.threads = a->threads;
  if (a->tail) opts.tail_threshold = a->tail;
  opts.tail_mode = a->tail_mode;
  opts.time_limit_s = a->max_seconds;
  opts.gpu_lists = c->gpu_lists;
  char label[96];
  snprintf(label, sizeof label, "n=%d %s %s run %d/%d", c->inst->n, c->workload, algo, run + 1, a->runs);
  cli_progress progress;
  cli_progress_attach(&progress, label, &opts);
  *stats = (bb_solve_stats){0};
  double t0 = bb_now();
  bb_status st = bb_solve(c->inst, algo, &opts, c->wife_of, stats, err);
  *wall = bb_now() - t0;
  cli_progress_clear(&progress);
  return st;
}

static int bench_algorithm(bench_case *c, const char *algo) {
  const bench_args *a = c->args;
  double solve_s[BENCH_MAX_RUNS], total_s[BENCH_MAX_RUNS];
  bb_solve_stats stats = {0};
  int runs = 0;
  while (runs < a->runs) {
    bb_error err = {{0}};
    double wall;
    bb_status st = run_once(c, algo, runs, &stats, &wall, &err);
    if (st == BB_ERR_NO_GPU) {
      emit_row(c, algo, "skipped (no GPU)", "", 0, "");
      return 0;
    }
    if (st == BB_ERR_TIMEOUT) {
      char stopped[48];
      snprintf(stopped, sizeof stopped, "> %g s (stopped)", a->max_seconds);
      emit_row(c, algo, stopped, "", runs, stats.path);
      return 0;
    }
    int rc = st == BB_OK ? 0 : cli_fail(st, &err);
    if (!rc && runs == 0) rc = check_result(c, algo);
    if (rc) {
      emit_row(c, algo, st == BB_OK ? "FAILED (wrong matching)" : "error", "", runs, stats.path);
      return rc;
    }
    solve_s[runs] = stats.t_solve;
    total_s[runs] = cli_phase_total(&stats);
    runs++;
    if (a->max_seconds > 0 && wall > a->max_seconds / 2) break;
  }
  char solve_ms[32], total_ms[32];
  snprintf(solve_ms, sizeof solve_ms, "%.3f", median_ms(solve_s, runs));
  snprintf(total_ms, sizeof total_ms, "%.3f", median_ms(total_s, runs));
  emit_row(c, algo, solve_ms, total_ms, runs, stats.path);
  return 0;
}

/* --pinned: bamboo's lists packed into the fewest bits an id needs (at most 16; 15 at
 * n = 30,000) in pinned host memory (gpu_lists.h), made once per instance
 * and timed on a row of their own (not in any run's total). Without a GPU, or for n > 65,536,
 * the row says why and bamboo reads the instance as usual. */
static void prepare_pinned(bench_case *c, bb_gpu_lists **lists) {
  bb_error err = {{0}};
  double t0 = bb_now();
  bb_status st = bb_gpu_lists_prepare(c->inst, c->args->threads, lists, &err);
  char ms[32];
  snprintf(ms, sizeof ms, "%.3f", 1e3 * (bb_now() - t0));
  emit_row(c, "(packed pinned lists)", "", st == BB_OK ? ms : "", 1,
           st == BB_OK ? "made once, outside the totals; bamboo uploads from them" : err.msg);
  c->gpu_lists = st == BB_OK ? *lists : NULL;
}

/* Generates one instance and runs every algorithm on it; returns the first failure. */
static int bench_instance(const bench_args *a, const bench_plan *p, const bench_outputs *out, int n, bb_gen_kind kind) {
  int group = cli_group_for(kind, n, a->group);
  if (group > n) {
    cli_error("skipping %s n=%d: --group %d is larger than n", bb_gen_kind_name(kind), n, group);
    return CLI_EXIT_USAGE;
  }
  bench_case c = {.args = a, .out = out};
  if (kind == BB_GEN_RANDOM)
    snprintf(c.workload, sizeof c.workload, "random(g=%d)", group);
  else
    snprintf(c.workload, sizeof c.workload, "%s", bb_gen_kind_name(kind));
  bb_instance *inst = NULL;
  int rc = cli_generate(kind, n, group, a->seed, a->threads, &inst);
  if (rc) return rc;
  c.inst = inst;
  bb_gpu_lists *lists = NULL;
  if (a->pinned) prepare_pinned(&c, &lists);
  c.wife_of = malloc((size_t)n * sizeof *c.wife_of);
  c.reference = malloc((size_t)n * sizeof *c.reference);
  if (!c.wife_of || !c.reference) {
    cli_error("out of memory for the matchings (n=%d)", n);
    rc = CLI_EXIT_NOMEM;
  }
  for (int i = 0; i < p->n_algos && rc != CLI_EXIT_NOMEM; i++) {
    int algo_rc = bench_algorithm(&c, p->algos[i]);
    if (!rc) rc = algo_rc;
  }
  free(c.wife_of);
  free(c.reference);
  bb_gpu_lists_free(lists);
  bb_instance_free(inst);
  return rc;
}

static FILE *open_table(const char *path, int *rc) {
  FILE *f = NULL;
  if (!*rc && path && !(f = fopen(path, "w"))) {
    cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
    *rc = CLI_EXIT_IO;
  }
  return f;
}

/* Closes a table file; the errno of its first failed write or of the close, 0 if none. */
static int close_table(FILE *f) {
  if (!f) return 0;
  int failed_errno = ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !failed_errno) failed_errno = errno ? errno : EIO;
  return failed_errno;
}

static int run_bench(int argc, char **argv) {
  bench_args a = {.kinds_text = "perfect,solo,congested,random",
                  .sizes_text = "10000,30000",
                  .runs = 3,
                  .seed = CLI_DEFAULT_SEED,
                  .max_seconds = 60};
  bench_plan p = {0};
  int rc = parse_args(argc, argv, &a, &p);
  bench_outputs out = {NULL, NULL};
  out.markdown = open_table(a.markdown_path, &rc);
  out.csv = open_table(a.csv_path, &rc);
  if (!rc) {
    emit_header(&out);
    for (int i = 0; i < p.n_sizes && !output_failed(&out); i++)
      for (int k = 0; k < p.n_kinds && !output_failed(&out); k++) {
        int instance_rc = bench_instance(&a, &p, &out, p.sizes[i], p.kinds[k]);
        if (!rc) rc = instance_rc;
      }
  }
  /* Every row was flushed as it was printed: an error flag means a row is missing. */
  int stdout_errno = ferror(stdout) || fflush(stdout) != 0 ? (errno ? errno : EIO) : 0;
  int markdown_errno = close_table(out.markdown);
  int csv_errno = close_table(out.csv);
  if (stdout_errno || markdown_errno || csv_errno) {
    if (stdout_errno) cli_error("cannot write the table to standard output: %s", strerror(stdout_errno));
    if (markdown_errno) cli_error("cannot write '%s': %s", a.markdown_path, strerror(markdown_errno));
    if (csv_errno) cli_error("cannot write '%s': %s", a.csv_path, strerror(csv_errno));
    if (!rc || rc == CLI_HELP_SHOWN) rc = CLI_EXIT_IO;
  }
  free(p.algo_buf);
  return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
}

const cli_command cli_bench = {
    "bench",
    "time the algorithms on generated workloads (markdown table, CSV)",
    "bench [--algos A,B,..] [--kinds K,..] [--n N,..] [--group G] [--runs R]\n"
    "                  [--seed S] [--threads T] [--tail T] [--tail-on auto|cpu|gpu]\n"
    "                  [--max-seconds S] [--pinned]\n"
    "                  [--markdown FILE] [--csv FILE]",
    "For each size and workload, generates one instance and runs each algorithm R\n"
    "times; prints a markdown table (n | workload | algorithm | solve ms | total ms |\n"
    "runs | path) with the median solve-phase time and the median total (sum of all\n"
    "phases, host-to-GPU transfer included). The first result of each algorithm is\n"
    "checked for stability and must equal the first algorithm's matching.\n"
    "Algorithms that need a GPU are 'skipped (no GPU)' when there is none.\n\n"
    "  --algos LIST       algorithms (default: all, as 'bamboo-smp algos' lists them)\n"
    "  --kinds LIST       workloads (default perfect,solo,congested,random)\n"
    "  --n LIST           sizes (default 10000,30000)\n"
    "  --group G          group size of the random workload (default 5)\n"
    "  --runs R           runs per algorithm, 1..100 (default 3)\n"
    "  --seed S           generator seed (default 1)\n"
    "  --threads T        CPU threads, 0 = all CPUs (default 0)\n"
    "  --tail T           bamboo: the tail starts at <= T free men (default 1)\n"
    "  --tail-on W        bamboo: auto (default), cpu or gpu; see 'help solve'\n"
    "  --max-seconds S    time limit of one run (default 60, 0 = none); a run that is\n"
    "                     stopped shows '> S s (stopped)'; after a run longer than\n"
    "                     S/2 no more runs of that algorithm are made\n"
    "  --markdown FILE    also write the table to FILE\n"
    "  --csv FILE         also write the rows to FILE as CSV: a header line (n,workload,\n"
    "                     algorithm,solve_ms_median,total_ms_median,runs,path), fields\n"
    "                     quoted where needed (RFC 4180); a failed write exits 3\n"
    "  --pinned           bamboo uploads from a copy of the lists with ids packed into\n"
    "                     the fewest bits that hold them (at most 16) in pinned host\n"
    "                     memory (n <= 65536), made once per instance; the\n"
    "                     time to make it is a row of its own, outside the totals\n",
    run_bench,
};
