/* bamboo-smp solve --format json: one JSON object on standard output (or -o FILE) with what a
 * script needs from a solve: the instance, the algorithm and path taken, the matching, the
 * checks made, the phase times and the exit status. docs/formats.md, "JSON output", lists the
 * keys; the text format stays the default. */
#ifndef BB_SOLVE_REPORT_H
#define BB_SOLVE_REPORT_H

#include <stdint.h>

#include "cli.h"

typedef enum cli_output_format { CLI_FORMAT_TEXT = 0, CLI_FORMAT_JSON } cli_output_format;

/* "text" or "json" (NULL = text) -> *format; a usage error of `cmd` otherwise. */
int cli_parse_format(const cli_command *cmd, const char *text, cli_output_format *format);

/* Everything one solve reports. The matching is either wife_of (complete lists: every man
 * has a wife) or assigned (SMI/HR/HRC: `unassigned` marks a man/resident without partner). */
typedef struct cli_solve_report {
  const char *kind;      /* "complete", "smi", "hr" or "hrc" */
  const char *source;    /* the file read, or NULL when generated */
  const char *generator; /* --gen KIND, or NULL when read */
  int proposers;         /* men / residents */
  int receivers;         /* women / hospitals */
  int couples;           /* HRC only; -1 elsewhere */
  const char *algorithm;
  const char *side;            /* "men", "women", "residents" or "hospitals" */
  const bb_solve_stats *stats; /* NULL where bb_solve_stats is not filled (HRC) */
  double t_input, t_solve;     /* seconds; t_solve only read when stats is NULL */
  const bb_id *wife_of;
  const int32_t *assigned;
  int32_t unassigned;
  int with_matching;      /* 0 with -q: the "matching" key is left out */
  int verified;           /* --verify ran */
  int stable;             /* 1 stable, 0 not, -1 unknown (no check made) */
  int64_t blocking_pairs; /* -1 when the check does not count them */
  int exit_status;        /* the exit status bamboo-smp returns */
  const char *path;       /* what ran, where stats is NULL (NULL: the algorithm's name) */
  const char *tie_break;  /* HRC with ties: "stb" or "mtb" (key "tie_break"); NULL elsewhere */
  uint64_t tie_seed;      /* its seed */
} cli_solve_report;

/* Writes the report to `path` (NULL = standard output); 0, or CLI_EXIT_IO after the message. */
int cli_solve_report_write(const cli_solve_report *report, const char *path);

/* The report's exit status for a solve that ended with `rc`: rc itself; the JSON is written
 * only when the matching exists (rc 0, or 1 from a failed --verify). */
int cli_solve_report_finish(cli_solve_report *report, int rc, const char *path);

/* 1 once this process tried to write a report (a failed write is not tried again). */
int cli_solve_report_tried(void);

/* A solve that ended with `rc` != 0 and no report (no matching: a time limit, an input, memory
 * or GPU error): writes {"algorithm", "error" (the message printed on stderr), "exit_status"}
 * to `path` (NULL = standard output), so a script reading the JSON learns why; returns rc (a
 * report that cannot be written is said on stderr and does not change the status). */
int cli_solve_report_failure(const char *algorithm, int rc, const char *path);

#endif
