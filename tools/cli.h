/* bamboo-smp: what the commands share (exit codes, option parsing, messages, progress).
 *
 * Exit codes, the same for every command and documented in `bamboo-smp --help`:
 *   0 ok, 1 invalid input or unstable matching, 2 usage error, 3 I/O error,
 *   4 out of memory, 5 no GPU for a gpu-* algorithm, 6 GPU error, 7 time limit reached. */
#ifndef BB_CLI_H
#define BB_CLI_H

#include <stdint.h>

#include "generate.h"
#include "solve.h"

enum cli_exit {
  CLI_EXIT_OK = 0,
  CLI_EXIT_INPUT = 1,
  CLI_EXIT_USAGE = 2,
  CLI_EXIT_IO = 3,
  CLI_EXIT_NOMEM = 4,
  CLI_EXIT_NO_GPU = 5,
  CLI_EXIT_GPU = 6,
  CLI_EXIT_TIMEOUT = 7
};

/* cli_parse() result when -h/--help was given and the help was printed. */
#define CLI_HELP_SHOWN (-1)

/* Defaults the help texts promise. */
#define CLI_DEFAULT_SEED 1u
#define CLI_DEFAULT_GROUP 5

typedef struct cli_command {
  const char *name;
  const char *summary;               /* one line for the command list */
  const char *synopsis;              /* "gen KIND --n N ...", without the program name */
  const char *help;                  /* the option list printed after the synopsis */
  int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

extern const cli_command cli_gen, cli_solve, cli_bench, cli_plan, cli_hrc, cli_ties;

void cli_print_help(const cli_command *cmd);

/* An option table entry; tables end with a NULL name. A flag stores 1 in its int. */
typedef enum cli_opt_kind {
  CLI_FLAG,    /* int */
  CLI_INT,     /* int in [min, max] */
  CLI_U64,     /* uint64_t */
  CLI_SECONDS, /* double >= 0, a duration */
  CLI_REAL,    /* double >= 0, any other quantity */
  CLI_BYTES,   /* uint64_t > 0: a number with an optional unit, B, kB, MB, GB, TB or KiB, MiB, GiB, TiB */
  CLI_STRING   /* const char * */
} cli_opt_kind;

typedef struct cli_opt {
  const char *name; /* "--n", "-o" */
  cli_opt_kind kind;
  void *value;
  long min, max;
} cli_opt;

/* Parses argv[1..argc-1] against `opts`; at most one positional argument is accepted
 * (stored in *positional, which stays untouched if none is given; pass NULL to accept
 * none). Returns 0, CLI_HELP_SHOWN, or CLI_EXIT_USAGE after printing the message. */
int cli_parse(const cli_command *cmd, int argc, char **argv, const cli_opt *opts, const char **positional);

/* Strict integer parsing for option values; print a usage error naming `opt` and
 * return CLI_EXIT_USAGE on failure, 0 on success. */
int cli_parse_int(const cli_command *cmd, const char *opt, const char *text, long min, long max, int *out);

/* "bamboo-smp: <message>" on stderr. */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* The last message cli_error printed ("" if none), at most 511 bytes of it. */
const char *cli_last_error(void);

/* Prints the message, the command's synopsis and a pointer to its help; returns
 * CLI_EXIT_USAGE. */
int cli_usage(const cli_command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int cli_exit_code(bb_status status);
/* Prints the library's message for a failure and returns the matching exit code. */
int cli_fail(bb_status status, const bb_error *err);

/* Checks that `name` is an algorithm (usage error naming it otherwise). */
int cli_check_algorithm(const cli_command *cmd, const char *name);

/* "auto", "cpu" or "gpu" -> a bb_tail_mode; a usage error otherwise. */
int cli_parse_tail_mode(const cli_command *cmd, const char *text, int *mode);
/* Parses a complete-list generator kind; otherwise a usage error with the library's message (which
 * lists the complete kinds) followed by `other_kinds` (the command's other generators, or NULL). */
int cli_parse_kind(const cli_command *cmd, const char *name, bb_gen_kind *kind, const char *other_kinds);

/* The group size used for `kind` and n when --group was `group` (0 = not given). */
int cli_group_for(bb_gen_kind kind, int n, int group);

/* Generates an instance; prints errors and returns an exit code. */
int cli_generate(bb_gen_kind kind, int n, int group, uint64_t seed, int threads, bb_instance **out);

/* A one-line progress display on stderr, active only when stderr is a terminal. */
typedef struct cli_progress {
  const char *label; /* printed before the phase, may be NULL */
  int width;         /* characters of the line now shown, 0 if none */
} cli_progress;

/* Installs the progress callback into `opts` if stderr is a terminal and -q was not given
 * (cli_progress_wanted, cli_phase.h). */
void cli_progress_attach(cli_progress *progress, const char *label, bb_solve_opts *opts);
void cli_progress_clear(cli_progress *progress);

/* --time: the phases (ms), path, proposals and peak memory on stderr. */
void cli_print_times(double t_input, const bb_solve_stats *stats);

/* --- Incomplete lists and capacities (cmd_hr.c) --- */
#include "hr.h"

typedef struct cli_hr_opts {
  const char *side; /* --side: men/residents (default) or women/hospitals */
  int hospitals;    /* --hospitals / --women N2 for the generators (default: --n) */
  int k;            /* --k: list length (default 10) */
  double skew;      /* --skew */
  int capacity;     /* --capacity: 0 = random around NR / NH */
} cli_hr_opts;

/* Whether `kind` names an SMI/HR generator (smi, hr, nrmp). */
int cli_hr_kind(const char *kind);
/* Generates an SMI/HR instance; prints errors and returns an exit code. */
int cli_hr_generate(const char *kind, int n, const cli_hr_opts *o, uint64_t seed, int threads, bb_hr **out);
/* Parses --side into *side; a usage error otherwise. */
int cli_hr_side(const cli_command *cmd, const char *text, int smi, bb_hr_side *side);
/* Checks the algorithm handles incomplete lists (usage error naming those that do). */
int cli_hr_check_algorithm(const cli_command *cmd, const char *name);
/* Prints the matching: one line 'r h' per man/resident, 'r -' when unassigned. */
int cli_hr_write_matching(const char *path, const int32_t *assigned, int n);
/* --verify: prints 'verified: stable (...)' or the defect; returns an exit code. */
int cli_hr_verify(const bb_hr *inst, const int32_t *assigned);

/* --- The memory plan (cmd_plan.c) --- */
#include "memory_plan.h"
/* Parses a device list "0,0,1" (at most BB_PLAN_MAX_PARTS entries); a usage error otherwise. */
int cli_parse_gpus(const cli_command *cmd, const char *text, int *devices, int *count);
/* Plans (and with `print`, prints on stderr) what `req` needs here; 0 if it fits, otherwise the
 * exit code after the message naming the phase, the place and both numbers. *run_algo is the
 * algorithm to run: req->algo, or la-seq when bamboo's GPU path does not fit but its CPU
 * fallback does (with a warning). */
int cli_memory_plan(const bb_plan_request *req, int print, const char **run_algo);

/* --- Hospitals/Residents with Couples (cmd_hrc.c; the generators cmd_hrc_gen.c) --- */
#include "hrc.h"
/* Whether `kind` names an HRC generator (hrc, nrmp-couples, hrc-mallows, nrmp-2024); `gen KIND
 * ...` then goes to cli_hrc_gen, which parses its own options. */
int cli_hrc_gen_kind(const char *kind);
int cli_hrc_gen(int argc, char **argv);
/* solve on an HRC instance (read by solve, which tells the kinds apart): what it asked for. */
typedef struct cli_hrc_solve_opts {
  const char *file, *algo, *out_path; /* file: the input's name, for the JSON report */
  int quiet, verify, time, verbose;
  int threads, runs, polish; /* hrc-da-portfolio: 0 threads = all CPUs, 0 runs = the default */
  int rounds;                /* hrc-da-portfolio: repair rounds per strategy, 0 = the default */
  uint64_t seed;
  double deadline; /* bb_now() time --time-limit ends (0 = none): exit 7 past it */
  double t_input;  /* seconds the reading took, for --time */
  int format;      /* a cli_output_format (solve_report.h): json writes the report instead */
  int gpu;         /* hrc-da-portfolio: the GPU its runs go to, -1 = the CPU */
} cli_hrc_solve_opts;
/* hrc-da or hrc-da-portfolio, the matching printed as for HR, stability on stderr; returns the
 * exit code. */
int cli_hrc_solve(const bb_hrc *inst, const cli_hrc_solve_opts *o);

/* A matching file: one line 'r h' or 'r -' per resident (nr of them, hospitals below nh), any
 * order, '#' comments; errors at FILE:LINE (cmd_hrc.c). */
bb_status cli_read_matching(const char *path, int nr, int nh, int32_t *assigned, bb_error *err);

/* --- Ties: SMTI, HRT (cmd_ties.c) --- */
#include "ties.h"
/* Whether `kind` names a ties generator (smti, hrt, school); `gen KIND ...` then goes to
 * cli_ties_gen, which parses its own options. */
int cli_ties_gen_kind(const char *kind);
int cli_ties_gen(int argc, char **argv);
/* The algorithm solve runs on a ties file for --algo A (the default bamboo is da-stb). */
const char *cli_ties_algorithm(const char *algo);
/* A usage error unless A runs on ties, or when --seed was given to kiraly. */
int cli_ties_check_algorithm(const cli_command *cmd, const char *algo, int seed_given);
typedef struct cli_ties_solve_opts {
  const char *file, *algo, *out_path;
  const char *da;          /* the HR algorithm of the deferred acceptance; NULL: gs-seq */
  const bb_solve_opts *hr; /* its options; NULL: defaults */
  uint64_t seed;
  int quiet, verify, time, verbose;
  double t_input;
  int format; /* a cli_output_format */
} cli_ties_solve_opts;
int cli_ties_solve(const bb_ties *inst, const cli_ties_solve_opts *o);

/* Sum of the phases bb_solve timed: transfer, precheck, init, solve, post (seconds). */
double cli_phase_total(const bb_solve_stats *stats);

#endif
