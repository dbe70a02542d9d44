/* bamboo-smp: option parsing, messages, exit codes and the progress line. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "cli_phase.h"

#include <sys/resource.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void cli_print_help(const cli_command *cmd) { printf("usage: bamboo-smp %s\n\n%s", cmd->synopsis, cmd->help); }

static char last_error[512]; /* for solve --format json's report of a failure */

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  fprintf(stderr, "bamboo-smp: %s\n", last_error);
}

const char *cli_last_error(void) { return last_error; }

int cli_usage(const cli_command *cmd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("bamboo-smp: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  fprintf(stderr, "usage: bamboo-smp %s\nTry 'bamboo-smp help %s'.\n", cmd->synopsis, cmd->name);
  return CLI_EXIT_USAGE;
}

int cli_exit_code(bb_status status) {
  switch (status) {
    case BB_OK: return CLI_EXIT_OK;
    case BB_ERR_INPUT: return CLI_EXIT_INPUT;
    case BB_ERR_NOMEM: return CLI_EXIT_NOMEM;
    case BB_ERR_IO: return CLI_EXIT_IO;
    case BB_ERR_ARG: return CLI_EXIT_USAGE;
    case BB_ERR_NO_GPU: return CLI_EXIT_NO_GPU;
    case BB_ERR_GPU: return CLI_EXIT_GPU;
    case BB_ERR_TIMEOUT: return CLI_EXIT_TIMEOUT;
  }
  return CLI_EXIT_INPUT;
}

int cli_fail(bb_status status, const bb_error *err) {
  cli_error("%s", err && err->msg[0] ? err->msg : bb_status_name(status));
  return cli_exit_code(status);
}

/* --- option values --- */

int cli_parse_int(const cli_command *cmd, const char *opt, const char *text, long min, long max, int *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end || errno == ERANGE || isspace((unsigned char)text[0]))
    return cli_usage(cmd, "%s: '%s' is not an integer", opt, text);
  if (v < min || v > max) return cli_usage(cmd, "%s: %s is not in %ld..%ld", opt, text, min, max);
  *out = (int)v;
  return 0;
}

static int parse_u64(const cli_command *cmd, const char *opt, const char *text, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (end == text || *end || errno == ERANGE || text[0] < '0' || text[0] > '9')
    return cli_usage(cmd, "%s: '%s' is not an unsigned 64-bit integer", opt, text);
  *out = (uint64_t)v;
  return 0;
}

static int parse_real(const cli_command *cmd, const char *opt, const char *text, const char *what, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end || errno == ERANGE || !isfinite(v) || v < 0)
    return cli_usage(cmd, "%s: '%s' is not a %s >= 0", opt, text, what);
  *out = v;
  return 0;
}

static int parse_bytes(const cli_command *cmd, const char *opt, const char *text, uint64_t *out) {
  static const struct {
    const char *unit;
    double scale;
  } units[] = {{"", 1},
               {"B", 1},
               {"kB", 1e3},
               {"KB", 1e3},
               {"MB", 1e6},
               {"GB", 1e9},
               {"TB", 1e12},
               {"KiB", 1024.0},
               {"MiB", 1048576.0},
               {"GiB", 1073741824.0},
               {"TiB", 1099511627776.0}};
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end != text && errno != ERANGE && isfinite(v) && v > 0 && text[0] >= '0' && text[0] <= '9')
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
      if (!strcmp(end, units[i].unit) && v * units[i].scale < 1.8e19) {
        *out = (uint64_t)(v * units[i].scale);
        if (*out) return 0;
      }
  return cli_usage(cmd, "%s: '%s' is not a size > 0 (a number with B, kB, MB, GB, TB, KiB, MiB, GiB or TiB)", opt,
                   text);
}

static int store_value(const cli_command *cmd, const cli_opt *opt, const char *text) {
  switch (opt->kind) {
    case CLI_INT: return cli_parse_int(cmd, opt->name, text, opt->min, opt->max, opt->value);
    case CLI_U64: return parse_u64(cmd, opt->name, text, opt->value);
    case CLI_SECONDS: return parse_real(cmd, opt->name, text, "number of seconds", opt->value);
    case CLI_REAL: return parse_real(cmd, opt->name, text, "number", opt->value);
    case CLI_BYTES: return parse_bytes(cmd, opt->name, text, opt->value);
    case CLI_STRING: *(const char **)opt->value = text; return 0;
    case CLI_FLAG: break;
  }
  *(int *)opt->value = 1;
  return 0;
}

static const cli_opt *find_opt(const cli_opt *opts, const char *name) {
  for (; opts->name; opts++)
    if (strcmp(opts->name, name) == 0) return opts;
  return NULL;
}

static int is_option(const char *arg) { return arg[0] == '-' && arg[1] != '\0'; }

int cli_parse(const cli_command *cmd, int argc, char **argv, const cli_opt *opts, const char **positional) {
  int seen_positional = 0, options_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!options_done && is_option(arg)) {
      if (strcmp(arg, "--") == 0) {
        options_done = 1;
        continue;
      }
      if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
        cli_print_help(cmd);
        return CLI_HELP_SHOWN;
      }
      const cli_opt *opt = find_opt(opts, arg);
      if (!opt) return cli_usage(cmd, "unknown option '%s'", arg);
      if (opt->kind != CLI_FLAG && i + 1 >= argc) return cli_usage(cmd, "option '%s' needs a value", arg);
      int rc = store_value(cmd, opt, opt->kind == CLI_FLAG ? NULL : argv[++i]);
      if (rc) return rc;
      continue;
    }
    if (!positional || seen_positional) return cli_usage(cmd, "unexpected argument '%s'", arg);
    *positional = arg;
    seen_positional = 1;
  }
  return 0;
}

/* --- names shared by several commands --- */

int cli_check_algorithm(const cli_command *cmd, const char *name) {
  if (bb_algorithm_describe(name)) return 0;
  return cli_usage(cmd, "unknown algorithm '%s' (see 'bamboo-smp algos')", name);
}

int cli_parse_tail_mode(const cli_command *cmd, const char *text, int *mode) {
  static const char *const names[] = {"auto", "cpu", "gpu"}; /* bb_tail_mode order */
  for (int i = 0; i < 3; i++)
    if (!strcmp(text, names[i])) {
      *mode = i;
      return 0;
    }
  return cli_usage(cmd, "--tail-on takes auto, cpu or gpu, not '%s'", text);
}

int cli_parse_kind(const cli_command *cmd, const char *name, bb_gen_kind *kind, const char *other_kinds) {
  bb_error err = {{0}};
  if (bb_gen_parse_kind(name, kind, &err) == BB_OK) return 0;
  return cli_usage(cmd, "%s%s", err.msg[0] ? err.msg : "unknown generator kind", other_kinds ? other_kinds : "");
}

int cli_group_for(bb_gen_kind kind, int n, int group) {
  if (kind == BB_GEN_LATIN) return group > 0 ? group : n; /* default: the cyclic square */
  if (kind != BB_GEN_RANDOM) return 1;
  if (group > 0) return group;
  return n < CLI_DEFAULT_GROUP ? n : CLI_DEFAULT_GROUP;
}

int cli_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads, bb_instance **out) {
  bb_error err = {{0}};
  bb_status st = bb_generate(kind, n, group, seed, threads, out, &err);
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

double cli_phase_total(const bb_solve_stats *stats) {
  return stats->t_transfer + stats->t_precheck + stats->t_init + stats->t_solve + stats->t_post;
}

void cli_print_times(double t_input, const bb_solve_stats *s) {
  const struct {
    const char *phase;
    double seconds;
  } rows[] = {
      {"input", t_input},
      {"transfer", s->t_transfer},
      {"precheck", s->t_precheck},
      {"init", s->t_init},
      {"solve", s->t_solve},
      {"post", s->t_post},
      {"total", t_input + cli_phase_total(s)},
  };
  fprintf(stderr, "%-10s %12s\n", "phase", "ms");
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    fprintf(stderr, "%-10s %12.3f\n", rows[i].phase, 1e3 * rows[i].seconds);
  fprintf(stderr, "%-10s %s\n", "path", s->path);
  fprintf(stderr, "%-10s %llu\n", "proposals", (unsigned long long)s->proposals);
  if (s->tail_men) fprintf(stderr, "%-10s %d\n", "tail men", s->tail_men);
  struct rusage usage;
  char rss[BB_BYTES_TEXT];
  if (getrusage(RUSAGE_SELF, &usage) == 0) /* ru_maxrss is in KiB on Linux */
    fprintf(stderr, "%-10s %s\n", "peak RSS", bb_bytes_text(rss, (uint64_t)usage.ru_maxrss * 1024));
}

/* --- progress line --- */

static void show_progress(void *ctx, const char *what, uint64_t done, uint64_t total) {
  cli_progress *progress = ctx;
  char line[160];
  int len;
  const char *label = progress->label ? progress->label : "";
  const char *sep = progress->label ? ": " : "";
  if (total)
    len = snprintf(line, sizeof line, "%s%s%s %llu/%llu (%.0f%%)", label, sep, what, (unsigned long long)done,
                   (unsigned long long)total, 100.0 * done / total);
  else
    len = snprintf(line, sizeof line, "%s%s%s %llu", label, sep, what, (unsigned long long)done);
  if (len < 0) return;
  if (len >= (int)sizeof line) len = (int)sizeof line - 1;
  /* Pad with blanks so a shorter line hides the end of the previous one. */
  fprintf(stderr, "\r%s%*s", line, progress->width > len ? progress->width - len : 0, "");
  fflush(stderr);
  if (len > progress->width) progress->width = len;
}

void cli_progress_attach(cli_progress *progress, const char *label, bb_solve_opts *opts) {
  progress->label = label;
  progress->width = 0;
  if (!cli_progress_wanted()) return;
  opts->progress = show_progress;
  opts->progress_ctx = progress;
}

void cli_progress_clear(cli_progress *progress) {
  if (progress->width == 0) return;
  fprintf(stderr, "\r%*s\r", progress->width, "");
  fflush(stderr);
  progress->width = 0;
}
