/* bamboo-smp on Hospitals/Residents with Couples (docs/hrc.md, docs/formats.md): `solve` on an
 * HRC file (the couples-aware deferred acceptance, hrc-da) and the `hrc` command (check a
 * matching, convert a file). The generators are in cmd_hrc_gen.c. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_phase.h"
#include "hrc.h"
#include "hrc_io.h"
#include "hrc_portfolio.h"
#include "hrc_ties.h"
#include "io_reader.h"
#include "solve_report.h"

/* --------------------------------------------------------------- solve ---- */

static int32_t *alloc_matching(const bb_hrc *inst) {
  int32_t *m = malloc(((size_t)inst->n_residents + 1) * sizeof *m);
  if (!m) cli_error("out of memory for the matching");
  return m;
}

/* --format json: the report of hrc-da's matching, its stability counted by the checker. */
static int write_report(const char *file, const char *algo, const bb_hrc *inst, const int32_t *assigned, bool stable,
                        uint64_t blocking, double t_input, double t_solve, int quiet, int verify, int rc,
                        const char *out_path, const char *path, const char *tie_break, uint64_t tie_seed) {
  cli_solve_report report = {.kind = "hrc",
                             .source = file,
                             .proposers = inst->n_residents,
                             .receivers = inst->n_hospitals,
                             .couples = inst->n_couples,
                             .algorithm = algo,
                             .side = "residents",
                             .t_input = t_input,
                             .t_solve = t_solve,
                             .assigned = assigned,
                             .unassigned = BB_HRC_NONE,
                             .with_matching = !quiet,
                             .verified = verify,
                             .stable = stable,
                             .blocking_pairs = (int64_t)blocking,
                             .path = path,
                             .tie_break = tie_break,
                             .tie_seed = tie_seed};
  return cli_solve_report_finish(&report, rc, out_path);
}

/* The default number of runs of hrc-da-portfolio. */
#define CLI_PORTFOLIO_RUNS 16

/* -v: one line per run of the portfolio. */
static void print_runs(const bb_hrc_run_stats *runs, int n) {
  for (int i = 0; i < n; i++) {
    const bb_hrc_run_stats *r = &runs[i];
    if (r->status != BB_OK) {
      fprintf(stderr, "run %d: %s\n", i, r->status == BB_ERR_TIMEOUT ? "cut by the time limit" : "failed");
      continue;
    }
    fprintf(stderr, "run %d: seed %llu, %llu blocking pairs, %d matched, %d repair rounds, %llu proposals, %.1f ms\n",
            i, (unsigned long long)r->seed, (unsigned long long)r->blocking, r->matched, r->rounds,
            (unsigned long long)r->proposals, 1e3 * r->seconds);
  }
}

/* hrc-da-portfolio: the runs, the polish, and the count checked again by the checker. */
static int solve_portfolio(const bb_hrc *inst, const cli_hrc_solve_opts *o, int32_t *assigned, bool *stable,
                           uint64_t *blocking) {
  bb_hrc_portfolio_opts po = {.runs = o->runs ? o->runs : CLI_PORTFOLIO_RUNS,
                              .threads = o->threads,
                              .seed = o->seed,
                              .polish_steps = o->polish,
                              .deadline = o->deadline,
                              .da = {.max_rounds = o->rounds},
                              .on_gpu = o->gpu >= 0,
                              .device = o->gpu >= 0 ? o->gpu : 0};
  bb_hrc_run_stats *runs = malloc((size_t)po.runs * sizeof *runs);
  if (!runs) {
    cli_error("out of memory for the runs' statistics");
    return CLI_EXIT_NOMEM;
  }
  bb_hrc_portfolio_result res;
  bb_error err = {{0}};
  bb_status st = bb_hrc_portfolio(inst, &po, assigned, &res, runs, &err);
  int rc = st == BB_OK ? 0 : cli_fail(st, &err);
  if (!rc && o->verbose) print_runs(runs, po.runs);
  free(runs);
  uint64_t checked = 0;
  if (!rc && (st = bb_hrc_count_blocking(inst, assigned, &checked, &err)) != BB_OK) rc = cli_fail(st, &err);
  if (!rc && checked != res.blocking) {
    cli_error("hrc-da-portfolio counted %llu blocking pairs, the checker %llu", (unsigned long long)res.blocking,
              (unsigned long long)checked);
    return CLI_EXIT_INPUT;
  }
  if (rc) return rc;
  *blocking = checked;
  *stable = checked == 0;
  fprintf(stderr,
          "hrc-da-portfolio: %s, %llu blocking pairs (%d residents, %d couples, %d hospitals; %d matched; best of "
          "%d runs%s: run %d, %llu blocking pairs; polish: %d steps, %d moves, %d improvements)\n",
          *stable ? "stable" : "not stable", (unsigned long long)checked, inst->n_residents, inst->n_couples,
          inst->n_hospitals, res.matched, res.runs_done, po.on_gpu ? " on the GPU" : "", res.best_run,
          (unsigned long long)res.blocking_before_polish, res.polish_steps, res.polish_moves, res.polish_improvements);
  return 0;
}

/* An HRC file with ties on the hospitals' side: hrc-da on the ties broken by da-stb (the
 * default) or da-mtb, seeded; the matching judged in the tied instance (weak stability). */
static int solve_tied(const bb_hrc *inst, const cli_hrc_solve_opts *o) {
  bb_hrc_tie_break kind = !strcmp(o->algo, "da-mtb") ? BB_HRC_MTB : BB_HRC_STB;
  const char *algo = kind == BB_HRC_MTB ? "da-mtb" : "da-stb";
  char path[128];
  snprintf(path, sizeof path, "hrc-da on the hospitals' ties broken by %s (seed %llu)", bb_hrc_tie_break_name(kind),
           (unsigned long long)o->seed);
  double t1 = bb_now();
  bb_error err = {{0}};
  int32_t *assigned = alloc_matching(inst);
  if (!assigned) return CLI_EXIT_NOMEM;
  bb_hrc_ties_result res;
  bb_hrc_da_opts da_opts = {.deadline = o->deadline};
  cli_phase phase;
  cli_phase_begin(&phase, algo, "solving");
  bb_status st = bb_hrc_da_ties(inst, kind, o->seed, &da_opts, assigned, &res, &err);
  cli_phase_end(&phase);
  int rc = st == BB_OK ? 0 : cli_fail(st, &err), solved = !rc, json = o->format == CLI_FORMAT_JSON;
  double t2 = bb_now();
  if (!rc) {
    int matched = 0;
    for (int r = 0; r < inst->n_residents; r++) matched += assigned[r] != BB_HRC_NONE;
    fprintf(stderr,
            "%s: %s, %llu blocking pairs (weak stability; %s; on the broken lists %llu; %d residents, %d couples, "
            "%d hospitals; %d matched; %d repair rounds%s, %llu proposals)\n",
            algo, res.stable ? "stable" : "not stable", (unsigned long long)res.blocking, path,
            (unsigned long long)res.blocking_broken, inst->n_residents, inst->n_couples, inst->n_hospitals, matched,
            res.da.rounds, res.da.bounded ? ", stopped by its bound" : "", (unsigned long long)res.da.proposals);
    if (o->verbose) fprintf(stderr, "bamboo-smp: algorithm %s, path: %s\n", algo, path);
    if (o->time) fprintf(stderr, "input %.1f ms, %s and checker %.1f ms\n", 1e3 * o->t_input, algo, 1e3 * (t2 - t1));
  }
  if (!rc && !o->quiet && !json) rc = cli_hr_write_matching(o->out_path, assigned, inst->n_residents);
  if (!rc && o->verify && !res.stable) {
    bb_hrc_check_stable(inst, assigned, &err);
    cli_error("verify failed: %s", err.msg);
    rc = CLI_EXIT_INPUT;
  } else if (!rc && o->verify) {
    fprintf(stderr, "verified: weakly stable (hrc with ties, %d residents, %d couples, %d hospitals)\n",
            inst->n_residents, inst->n_couples, inst->n_hospitals);
  }
  if (solved && json)
    rc = write_report(o->file, algo, inst, assigned, res.stable, res.blocking, o->t_input, t2 - t1, o->quiet, o->verify,
                      rc, o->out_path, path, bb_hrc_tie_break_name(kind), o->seed);
  free(assigned);
  return rc;
}

int cli_hrc_solve(const bb_hrc *inst, const cli_hrc_solve_opts *o) {
  if (bb_hrc_has_ties(inst)) {
    if (strcmp(o->algo, "da-stb") && strcmp(o->algo, "da-mtb") && strcmp(o->algo, "hrc-da") &&
        strcmp(o->algo, "bamboo")) {
      cli_error(
          "algorithm '%s' does not take couples with ties; for an HRC file with ties use --algo da-stb (its "
          "default) or da-mtb",
          o->algo);
      return CLI_EXIT_USAGE;
    }
    return solve_tied(inst, o);
  }
  bool portfolio = !strcmp(o->algo, "hrc-da-portfolio");
  if (strcmp(o->algo, "hrc-da") != 0 && strcmp(o->algo, "bamboo") != 0 && !portfolio) {
    cli_error(
        "algorithm '%s' does not take couples; for an HRC file use --algo hrc-da (its default) or "
        "hrc-da-portfolio",
        o->algo);
    return CLI_EXIT_USAGE;
  }
  const char *algo = portfolio ? "hrc-da-portfolio" : "hrc-da";
  double t1 = bb_now();
  bb_error err = {{0}};
  bb_status st;
  int32_t *assigned = alloc_matching(inst);
  int rc = assigned ? 0 : CLI_EXIT_NOMEM;
  bool stable = false;
  uint64_t blocking = 0;
  bb_hrc_da_stats stats = {0, 0, false};
  cli_phase phase;
  cli_phase_begin(&phase, algo, "solving");
  bb_hrc_da_opts da_opts = {.deadline = o->deadline};
  if (!rc && portfolio)
    rc = solve_portfolio(inst, o, assigned, &stable, &blocking);
  else if (!rc && (st = bb_hrc_da(inst, &da_opts, assigned, &stable, &blocking, &stats, &err)) != BB_OK)
    rc = cli_fail(st, &err);
  cli_phase_end(&phase);
  double t2 = bb_now();
  int solved = !rc, json = o->format == CLI_FORMAT_JSON;
  if (!rc && portfolio) {
    if (o->time)
      fprintf(stderr, "input %.1f ms, hrc-da-portfolio and checker %.1f ms\n", 1e3 * o->t_input, 1e3 * (t2 - t1));
  } else if (!rc) {
    int matched = 0;
    for (int r = 0; r < inst->n_residents; r++) matched += assigned[r] != BB_HRC_NONE;
    fprintf(stderr,
            "hrc-da: %s, %llu blocking pairs (%d residents, %d couples, %d hospitals; %d matched; %d repair "
            "rounds%s, %llu proposals)\n",
            stable ? "stable" : "not stable", (unsigned long long)blocking, inst->n_residents, inst->n_couples,
            inst->n_hospitals, matched, stats.rounds, stats.bounded ? ", stopped by its bound" : "",
            (unsigned long long)stats.proposals);
    if (o->verbose)
      fprintf(stderr, "bamboo-smp: algorithm hrc-da, path: deferred acceptance with couples, %d repair rounds\n",
              stats.rounds);
    if (o->time) fprintf(stderr, "input %.1f ms, hrc-da and checker %.1f ms\n", 1e3 * o->t_input, 1e3 * (t2 - t1));
  }
  if (!rc && !o->quiet && !json) rc = cli_hr_write_matching(o->out_path, assigned, inst->n_residents);
  if (!rc && o->verify && !stable) {
    bb_hrc_check_stable(inst, assigned, &err);
    cli_error("verify failed: %s", err.msg);
    rc = CLI_EXIT_INPUT;
  } else if (!rc && o->verify) {
    fprintf(stderr, "verified: stable (hrc, %d residents, %d couples, %d hospitals)\n", inst->n_residents,
            inst->n_couples, inst->n_hospitals);
  }
  if (solved && json)
    rc = write_report(o->file, algo, inst, assigned, stable, blocking, o->t_input, t2 - t1, o->quiet, o->verify, rc,
                      o->out_path, NULL, NULL, 0);
  free(assigned);
  return rc;
}

/* ------------------------------------------------------------- hrc check ---- */

/* Only a comment makes a matching's line long; one past this is refused, never taken for the
 * end of the file (which would leave the lines after it unchecked). */
#define MATCHING_LINE_LIMIT ((size_t)1 << 20)

/* A matching file (cli.h): HRC's and the ties' check read it. */
bb_status cli_read_matching(const char *path, int nr, int nh, int32_t *assigned, bb_error *err) {
  reader r;
  bb_status st = bb_reader_open(&r, path, err);
  if (st != BB_OK) return st;
  uint8_t *seen = calloc((size_t)nr + 1, 1);
  const char *line, *end = NULL;
  size_t len;
  long long line_no = 0;
  int got;
  char q[48];
  if (!seen) st = bb_fail(err, BB_ERR_NOMEM, "out of memory");
  while (st == BB_OK && (got = bb_reader_line(&r, &line, &len, MATCHING_LINE_LIMIT)) != 0) {
    if (got < 0) {
      st = bb_reader_line_fail(&r, line_no + 1, MATCHING_LINE_LIMIT, err);
      break;
    }
    line_no++;
    const char *e = line + len, *tok = bb_io_next_token(line, e, &end);
    if (!tok) continue;
    uint64_t who = 0, h = 0;
    if (bb_io_classify(tok, end, &who) != TOK_NUMBER || who >= (uint64_t)nr) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: '%s' is not a resident 0..%d", r.name, line_no,
                   bb_io_quote(q, tok, (size_t)(end - tok)), nr - 1);
      break;
    }
    tok = bb_io_next_token(end, e, &end);
    if (!tok) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: resident %llu has no hospital (or '-')", r.name, line_no,
                   (unsigned long long)who);
      break;
    }
    if (end - tok == 1 && *tok == '-') {
      assigned[who] = BB_HRC_NONE;
    } else if (bb_io_classify(tok, end, &h) != TOK_NUMBER || h >= (uint64_t)nh) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: '%s' is not a hospital 0..%d or '-'", r.name, line_no,
                   bb_io_quote(q, tok, (size_t)(end - tok)), nh - 1);
      break;
    } else {
      assigned[who] = (int32_t)h;
    }
    if (seen[who]++) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: resident %llu appears twice", r.name, line_no, (unsigned long long)who);
      break;
    }
    if ((tok = bb_io_next_token(end, e, &end)) != NULL) {
      st = bb_fail(err, BB_ERR_INPUT, "%s:%lld: unexpected '%s' after 'r h'", r.name, line_no,
                   bb_io_quote(q, tok, (size_t)(end - tok)));
      break;
    }
  }
  for (int x = 0; st == BB_OK && x < nr; x++)
    if (!seen[x]) st = bb_fail(err, BB_ERR_INPUT, "%s: resident %d is missing (give 'r -' when unassigned)", r.name, x);
  free(seen);
  bb_reader_close(&r);
  return st;
}

static const cli_command cli_hrc_check_cmd = {
    "hrc",
    "check a matching of an HRC instance",
    "hrc check INSTANCE --matching FILE",
    "Reads an HRC instance and a matching (one line 'r h' per resident, 'r -' when\n"
    "unassigned, as 'solve' prints), checks that it is a matching and counts its blocking\n"
    "pairs by Manlove, McBride & Trimble 2017, Definition 1 (docs/hrc.md). Prints\n"
    "'stable' or 'not stable: K blocking pairs' and the first blocking pair; exit status 0\n"
    "when stable, 1 when not (or when it is no matching).\n",
    NULL,
};

static int hrc_check(int argc, char **argv) {
  const char *instance = NULL, *matching = NULL;
  const cli_opt opts[] = {{"--matching", CLI_STRING, &matching, 0, 0}, {NULL, CLI_FLAG, NULL, 0, 0}};
  int rc = cli_parse(&cli_hrc_check_cmd, argc, argv, opts, &instance);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (!instance || !matching) return cli_usage(&cli_hrc_check_cmd, "needs INSTANCE and --matching FILE");
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_hrc_read(instance, &inst, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  int32_t *assigned = alloc_matching(inst);
  uint64_t blocking = 0;
  rc = assigned ? 0 : CLI_EXIT_NOMEM;
  if (!rc && (st = cli_read_matching(matching, inst->n_residents, inst->n_hospitals, assigned, &err)) != BB_OK)
    rc = cli_fail(st, &err);
  if (!rc && (st = bb_hrc_count_blocking(inst, assigned, &blocking, &err)) != BB_OK) rc = cli_fail(st, &err);
  if (!rc && blocking == 0) printf("stable\n");
  if (!rc && blocking > 0) {
    bb_hrc_check_stable(inst, assigned, &err);
    printf("not stable: %llu blocking pairs; the first: %s\n", (unsigned long long)blocking, err.msg);
    rc = CLI_EXIT_INPUT;
  }
  free(assigned);
  bb_hrc_free(inst);
  return rc;
}

static const cli_command cli_hrc_convert_cmd = {
    "hrc",
    "convert an HRC instance between text and binary",
    "hrc convert INSTANCE -o FILE [--binary]",
    "Reads an HRC instance (text or binary) and writes it as text, or binary with --binary.\n",
    NULL,
};

static int hrc_convert(int argc, char **argv) {
  const char *instance = NULL, *out = NULL;
  int binary = 0;
  const cli_opt opts[] = {
      {"-o", CLI_STRING, &out, 0, 0}, {"--binary", CLI_FLAG, &binary, 0, 0}, {NULL, CLI_FLAG, NULL, 0, 0}};
  int rc = cli_parse(&cli_hrc_convert_cmd, argc, argv, opts, &instance);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (!instance || !out) return cli_usage(&cli_hrc_convert_cmd, "needs INSTANCE and -o FILE");
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  bb_status st = bb_hrc_read(instance, &inst, &err);
  if (st == BB_OK) st = binary ? bb_hrc_write_binary(inst, out, &err) : bb_hrc_write_text(inst, out, &err);
  bb_hrc_free(inst);
  return st == BB_OK ? CLI_EXIT_OK : cli_fail(st, &err);
}

static int run_hrc(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "check")) return hrc_check(argc - 1, argv + 1);
  if (argc >= 2 && !strcmp(argv[1], "convert")) return hrc_convert(argc - 1, argv + 1);
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    cli_print_help(&cli_hrc);
    return CLI_EXIT_OK;
  }
  return cli_usage(&cli_hrc, "expected 'hrc check' or 'hrc convert'");
}

const cli_command cli_hrc = {
    "hrc",
    "HRC (couples): check a matching, convert a file",
    "hrc check INSTANCE --matching FILE | hrc convert INSTANCE -o FILE [--binary]",
    "Hospitals/Residents with Couples (docs/hrc.md). 'gen hrc' and 'gen nrmp-couples'\n"
    "write instances; 'solve FILE' runs the couples-aware deferred acceptance (hrc-da) on\n"
    "an HRC file and says whether its matching is stable. 'gen sfas' writes files with ties in\n"
    "the hospitals' lists, which solve breaks (--algo da-stb or da-mtb, --seed) before hrc-da.\n\n"
    "  check INSTANCE --matching FILE   count the blocking pairs of a matching ('r h' lines);\n"
    "                                   exit 0 when stable, 1 when not\n"
    "  convert INSTANCE -o FILE [--binary]   rewrite as text or binary\n",
    run_hrc,
};
