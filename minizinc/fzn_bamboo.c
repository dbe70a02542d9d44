/* fzn-bamboo: the FlatZinc interpreter of the MiniZinc solver `bamboo`.
 *
 *   fzn-bamboo [options] model.fzn
 *
 * Parse (parser.y) -> variables and constraints through the shim (build.c, registry.c) ->
 * branchings from the solve annotations (search_ann.c) -> Gecode search -> solutions as
 * FlatZinc specifies (output.c). Exit codes: 0 the search ran (whatever it found,
 * including UNSATISFIABLE and UNKNOWN), 1 the model was rejected (syntax, unknown
 * constraint, unsupported feature...), 2 bad command line, 3 a file could not be read or
 * the output could not be written, 4 out of memory (parsing, posting or searching, any
 * -p) or a solver error during search. */
#define _POSIX_C_SOURCE 200809L
#include "bb_search.h"
#include "bb_shim.h"
#include "bb_float.h"
#include "build.h"
#include "bb_stable_matching.h"
#include "calibrate.h"
#include "fzn_model.h"
#include "output.h"
#include "registry.h"
#include "search_ann.h"
#include "smc_tuning.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#ifndef BAMBOO_VERSION
#define BAMBOO_VERSION "unknown"
#endif

typedef struct options {
  bool all, intermediate, free_search, stats, verbose;
  long solutions; /* -n: 0 = the default (1 for satisfaction, all improving for optimisation) */
  int threads;
  unsigned seed;
  long time_limit_ms;
  double float_step;           /* --float-step: a better float objective improves by more than this */
  long node_limit, fail_limit; /* Gecode's -node and -fail cutoffs; 0 = none */
  const char *file;
  const char *paths;                           /* --paths FILE: MiniZinc's symbol table, to name the user's lines */
  int gpus[BB_SMC_MAX_GPU_ENTRIES], gpu_count; /* --gpus LIST; 0 entries: the default (device 0) */
  /* fzn-gecode's restart options; given, they take precedence over the model's restart_*
   * annotation (the scale and base each on their own). */
  bool restart_given, scale_given, base_given;
  bb_restart_kind restart;
  unsigned long restart_scale;
  double restart_base;
  bool nogoods;
  unsigned nogoods_limit;                      /* 0: the default depth */
  unsigned commit_distance, adaptive_distance; /* -c-d, -a-d; 0: Gecode's (8, 2) */
} options;

static void usage(FILE *out) {
  fprintf(out,
          "usage: fzn-bamboo [options] model.fzn\n"
          "  -a            all solutions (satisfaction); every improving solution (optimisation)\n"
          "  -n N          stop after N solutions\n"
          "  -i            print every improving solution of an optimisation (without -a or -i,\n"
          "                only the best one, also when -t or SIGINT/SIGTERM stops the search)\n"
          "  -f            free search: ignore the search annotations, use bamboo's default\n"
          "  -p N          N search threads (Gecode's parallel search; at most the number of CPUs)\n"
          "  -r SEED       random seed for random variable/value choices\n"
          "  -s            statistics as %%%%%%mzn-stat lines\n"
          "  -t MS         time limit in milliseconds (search stops, the best solution so far is printed)\n"
          "  -node N       stop after N search nodes, -fail N after N failures (as fzn-gecode)\n"
          "  -restart K    restarts: none, constant, linear, luby or geometric (as fzn-gecode;\n"
          "                over the model's restart annotation); -restart-scale N failures per\n"
          "                unit (default 250), -restart-base B for geometric (default 1.5)\n"
          "  -nogoods [B]  post no-goods from restarts (true/false, 1/0; alone: true), up to\n"
          "                depth -nogoods-limit N (default 128)\n"
          "  -c-d N        recomputation commit distance (as fzn-gecode; default 8): the search\n"
          "                keeps a copy of the space every N levels; -a-d N adaptive\n"
          "                recomputation distance (default 2)\n"
          "  -v            progress on standard error (phases, where stable_matching propagated)\n"
          "  --float-step S  a better float objective must improve by more than S (default 0;\n"
          "                fzn-gecode's -step)\n"
          "  --gpus LIST   GPU devices for stable_matching's GPU path, e.g. 0,1 (default 0): search\n"
          "                threads (-p) take the entries round-robin, each entry its own copy of\n"
          "                the data; a device listed twice gets two copies\n"
          "  --paths FILE  MiniZinc's paths file (minizinc passes it): messages name the\n"
          "                model's .mzn/.dzn lines instead of the FlatZinc's\n"
          "  --calibrate   time stable_matching's CPU and GPU paths on this machine and write\n"
          "                the thresholds of the automatic choice (needs a GPU)\n"
          "  --help, --version\n"
          "exit codes: 0 searched (including UNSATISFIABLE/UNKNOWN), 1 model rejected, 2 usage,\n"
          "            3 cannot read the file or write the output, 4 out of memory or solver error\n");
}

static bool number(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

/* The restart and no-good options at argv[*k] (fzn-gecode's names): -1 when argv[*k] is none
 * of them, 0 when it was read (*k moved past its value), 2 for a bad value. */
static int parse_search_option(int argc, char **argv, int *k, options *o) {
  static const char *const kinds[] = {"none", "constant", "linear", "luby", "geometric"}; /* bb_restart_kind order */
  const char *a = argv[*k], *val = *k + 1 < argc ? argv[*k + 1] : NULL;
  long v;
  if (!strcmp(a, "-nogoods")) {
    o->nogoods = true;
    if (val && (!strcmp(val, "true") || !strcmp(val, "1")))
      ++*k;
    else if (val && (!strcmp(val, "false") || !strcmp(val, "0")))
      ++*k, o->nogoods = false;
    return 0;
  }
  if (strcmp(a, "-restart") && strcmp(a, "-restart-scale") && strcmp(a, "-restart-base") &&
      strcmp(a, "-nogoods-limit") && strcmp(a, "-c-d") && strcmp(a, "-a-d"))
    return -1;
  if (!val) {
    fprintf(stderr, "fzn-bamboo: %s needs a value\n", a);
    return 2;
  }
  ++*k;
  if (!strcmp(a, "-restart")) {
    for (int i = 0; i < 5; i++)
      if (!strcmp(val, kinds[i])) {
        o->restart = (bb_restart_kind)i;
        o->restart_given = true;
        return 0;
      }
    fprintf(stderr, "fzn-bamboo: bad value '%s' for -restart (none, constant, linear, luby or geometric)\n", val);
    return 2;
  }
  if (!strcmp(a, "-restart-base")) {
    char *end;
    errno = 0;
    double base = strtod(val, &end);
    if (errno || end == val || *end || !(base > 1.0) || base > 1e6) {
      fprintf(stderr, "fzn-bamboo: bad value '%s' for -restart-base (a number above 1)\n", val);
      return 2;
    }
    o->restart_base = base;
    o->base_given = true;
    return 0;
  }
  if (!number(val, 1, 2000000000L, &v)) {
    fprintf(stderr, "fzn-bamboo: bad value '%s' for %s (a positive integer)\n", val, a);
    return 2;
  }
  if (!strcmp(a, "-restart-scale"))
    o->restart_scale = (unsigned long)v, o->scale_given = true;
  else if (!strcmp(a, "-c-d"))
    o->commit_distance = (unsigned)v;
  else if (!strcmp(a, "-a-d"))
    o->adaptive_distance = (unsigned)v;
  else
    o->nogoods_limit = (unsigned)v;
  return 0;
}

/* Returns -1 to go on, else the exit code. */
static int parse_options(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->threads = 1;
  for (int k = 1; k < argc; k++) {
    const char *a = argv[k];
    long v;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--calibrate")) return fzn_calibrate(stdout, stderr);
    if (!strcmp(a, "--version")) {
      printf("fzn-bamboo %s (Gecode 6.2 underneath)\n", BAMBOO_VERSION);
      return 0;
    }
    int searched = parse_search_option(argc, argv, &k, o);
    if (searched >= 0) {
      if (searched) return searched;
      continue;
    }
    if (!strcmp(a, "-a") || !strcmp(a, "--all-solutions"))
      o->all = true;
    else if (!strcmp(a, "-i") || !strcmp(a, "--intermediate"))
      o->intermediate = true;
    else if (!strcmp(a, "-f") || !strcmp(a, "--free-search"))
      o->free_search = true;
    else if (!strcmp(a, "-s") || !strcmp(a, "--statistics"))
      o->stats = true;
    else if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
      o->verbose = true;
    else if ((!strcmp(a, "--float-step") || !strcmp(a, "-step")) && k + 1 < argc) {
      const char *val = argv[++k];
      char *end;
      errno = 0;
      double step = strtod(val, &end);
      if (errno || end == val || *end || !(step >= 0.0) || step > 1e300) {
        fprintf(stderr, "fzn-bamboo: bad value '%s' for %s (a non-negative number)\n", val, a);
        return 2;
      }
      o->float_step = step;
    } else if ((!strcmp(a, "-n") || !strcmp(a, "-p") || !strcmp(a, "-r") || !strcmp(a, "-t")) && k + 1 < argc) {
      const char *val = argv[++k];
      bool ok = a[1] == 'n'   ? number(val, 1, 2000000000L, &v)
                : a[1] == 'p' ? number(val, 1, 1024, &v)
                : a[1] == 'r' ? number(val, 0, 4294967295L, &v)
                              : number(val, 0, 1000000000000L, &v);
      if (!ok) {
        fprintf(stderr, "fzn-bamboo: bad value '%s' for %s\n", val, a);
        return 2;
      }
      if (a[1] == 'n')
        o->solutions = v;
      else if (a[1] == 'p')
        o->threads = (int)v;
      else if (a[1] == 'r')
        o->seed = (unsigned)v;
      else
        o->time_limit_ms = v;
    } else if (!strcmp(a, "--gpus") && k + 1 < argc) {
      bb_error err = {{0}};
      if (bb_smc_parse_gpus(argv[++k], o->gpus, &o->gpu_count, &err) != BB_OK) {
        fprintf(stderr, "fzn-bamboo: bad value for --gpus: %s\n", err.msg);
        return 2;
      }
    } else if (!strcmp(a, "--paths") && k + 1 < argc) {
      o->paths = argv[++k];
    } else if ((!strcmp(a, "-node") || !strcmp(a, "-fail")) && k + 1 < argc) {
      const char *val = argv[++k];
      if (!number(val, 0, LONG_MAX, &v)) {
        fprintf(stderr, "fzn-bamboo: bad value '%s' for %s\n", val, a);
        return 2;
      }
      if (a[1] == 'n')
        o->node_limit = v;
      else
        o->fail_limit = v;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fzn-bamboo: unknown option '%s' (see --help)\n", a);
      return 2;
    } else if (!o->file) {
      o->file = a;
    } else {
      fprintf(stderr, "fzn-bamboo: more than one model file ('%s' and '%s')\n", o->file, a);
      return 2;
    }
  }
  if (!o->file) {
    usage(stderr);
    return 2;
  }
  /* Gecode's parallel engine slows down past one thread per CPU, and steeply (docs/minizinc.md,
   * `-p N`). */
  int cpus = bb_cpu_count();
  if (o->threads > cpus) {
    fprintf(stderr, "fzn-bamboo: warning: -p %d is more than the %d CPUs of this machine; searching with %d threads\n",
            o->threads, cpus, cpus);
    o->threads = cpus;
  }
  return -1;
}

/* SIGINT or SIGTERM during the search: set by the handler, read by the search's stop
 * check, so the search stops as at a time limit and the best solution so far is printed.
 * The handler is reset after the first signal, so a second one ends the process at once. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig) {
  (void)sig;
  interrupted = 1;
}

static void stop_search_on_signals(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_interrupt;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

/* MiniZinc starts fzn-bamboo as its child; if it is killed (SIGKILL leaves it no chance to
 * stop us), the search must not go on as an orphan. Linux sends the signal when the parent
 * dies; a parent that died before the request is caught by the second getppid(). Before
 * the search SIGTERM keeps its default action (the process ends at once); during it,
 * stop_search_on_signals stops the search instead. */
static void die_with_parent(void) {
#ifdef __linux__
  pid_t parent = getppid();
  if (prctl(PR_SET_PDEATHSIG, SIGTERM) == 0 && getppid() != parent) raise(SIGTERM);
#endif
}

/* Memory ran out in one of Gecode's search threads (bb_set_fatal_handler): other threads
 * still run, so no exit() handlers; stdout is not flushed (a solution half written stays
 * unwritten; every whole one was flushed). */
static void fatal_in_search(const char *message, bool out_of_memory) {
  (void)out_of_memory;
  fprintf(stderr, "fzn-bamboo: %s\n", message);
  _exit(4);
}

/* The model file, before the parser opens it: a directory or an unreadable file is exit 3,
 * with the file named. Only a regular file is opened to find out: a FIFO or a process
 * substitution can be read once, so the parser must be the one to open it. */
static bool readable(const char *file) {
  if (strcmp(file, "-") == 0) return true;
  struct stat st;
  if (stat(file, &st) != 0) {
    fprintf(stderr, "fzn-bamboo: cannot open '%s': %s\n", file, strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    fprintf(stderr, "fzn-bamboo: cannot read '%s': it is a directory\n", file);
    return false;
  }
  if (!S_ISREG(st.st_mode)) return true;
  FILE *probe = fopen(file, "r");
  if (!probe) {
    fprintf(stderr, "fzn-bamboo: cannot open '%s': %s\n", file, strerror(errno));
    return false;
  }
  fclose(probe);
  return true;
}

/* Exit status 3 for output that could not be written (errno value `e`). */
static int output_failed(int e) {
  fprintf(stderr, "fzn-bamboo: cannot write the output: %s\n", strerror(e));
  return 3;
}

/* Whether the model declares an int, Boolean or set variable of its own (not one that
 * MiniZinc introduced). */
static bool has_discrete_decisions(const fzn_model *m) {
  for (int k = 0; k < m->decl_count; k++) {
    const fzn_decl *d = m->decls[k];
    if (d->type.is_var && d->type.base != FZN_T_FLOAT && !fzn_has_atom(&d->annotations, "var_is_introduced"))
      return true;
  }
  return false;
}

/* -v: where stable_matching's propagations ran and what they cost (any search thread). */
typedef struct smc_tally {
  pthread_mutex_t lock;
  long count[4];
  double ms[4], first_ms;
  bb_smc_path first_path;
} smc_tally;

static void tally_propagation(void *ctx, const bb_smc_run_info *info) {
  smc_tally *t = ctx;
  pthread_mutex_lock(&t->lock);
  int p = (int)info->path & 3;
  if (t->count[0] + t->count[1] + t->count[2] + t->count[3] == 0) {
    t->first_ms = info->t_total * 1e3;
    t->first_path = info->path;
  }
  t->count[p]++;
  t->ms[p] += info->t_total * 1e3;
  pthread_mutex_unlock(&t->lock);
}

static void print_tally(const smc_tally *t) {
  long total = t->count[0] + t->count[1] + t->count[2] + t->count[3];
  if (!total) return;
  fprintf(stderr, "fzn-bamboo: stable_matching: %ld propagations; the first on the %s path in %.3f ms", total,
          bb_smc_path_name(t->first_path), t->first_ms);
  for (int p = 1; p < 4; p++)
    if (t->count[p]) fprintf(stderr, "; %s: %ld in %.3f ms", bb_smc_path_name((bb_smc_path)p), t->count[p], t->ms[p]);
  fprintf(stderr, "\n");
}

static int print_stats(const bb_search_statistics *st, double init_s, double solve_s, int vars, FILE *out) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  fprintf(out, "%%%%%%mzn-stat: initTime=%.6f\n", init_s);
  fprintf(out, "%%%%%%mzn-stat: solveTime=%.6f\n", solve_s);
  fprintf(out, "%%%%%%mzn-stat: solutions=%llu\n", (unsigned long long)st->solutions);
  fprintf(out, "%%%%%%mzn-stat: variables=%d\n", vars);
  fprintf(out, "%%%%%%mzn-stat: nodes=%llu\n", (unsigned long long)st->nodes);
  fprintf(out, "%%%%%%mzn-stat: failures=%llu\n", (unsigned long long)st->fails);
  fprintf(out, "%%%%%%mzn-stat: restarts=%llu\n", (unsigned long long)st->restarts);
  fprintf(out, "%%%%%%mzn-stat: peakDepth=%llu\n", (unsigned long long)st->depth);
  fprintf(out, "%%%%%%mzn-stat: propagations=%llu\n", (unsigned long long)st->propagations);
  fprintf(out, "%%%%%%mzn-stat: peakMem=%.2f\n", (double)ru.ru_maxrss / 1024.0);
  fprintf(out, "%%%%%%mzn-stat-end\n");
  return fzn_output_flush(out);
}

int main(int argc, char **argv) {
  options o;
  int rc = parse_options(argc, argv, &o);
  if (rc >= 0) {
    int e = fzn_output_flush(stdout); /* --help, --version */
    return e ? output_failed(e) : rc;
  }
  double t0 = bb_now();
  die_with_parent();
  bb_set_fatal_handler(fatal_in_search);
  if (!readable(o.file)) return 3;
  fzn_parse_status parsed;
  fzn_model *model = fzn_parse_path(o.file, stderr, &parsed);
  if (!model && parsed.outcome == FZN_PARSE_OUT_OF_MEMORY) {
    fprintf(stderr, "fzn-bamboo: out of memory while parsing (%s)\n", parsed.what);
    return 4;
  }
  if (!model) return parsed.outcome == FZN_PARSE_UNREADABLE ? 3 : 1;
  model->paths_file = o.paths;
  double t_parse = bb_now() - t0;
  fzn_builder b;
  bb_search_options sopts;
  bb_search_options_init(&sopts);
  sopts.threads = o.threads;
  if (o.gpu_count > 0) {
    bb_error err = {{0}};
    if (bb_smc_set_gpus(o.gpus, o.gpu_count, &err) != BB_OK) { /* parse_options checked the list */
      fprintf(stderr, "fzn-bamboo: --gpus: %s\n", err.msg);
      return 2;
    }
  }
  bool ok = fzn_build_variables(&b, model, stderr) && (fzn_find_bool_images(&b), fzn_post_constraints(&b)) &&
            fzn_output_check(&b);
  bool optimise = model->has_solve && model->solve.kind != FZN_SATISFY;
  if (ok && optimise) {
    int obj;
    bb_error err;
    bb_objective_sense sense = model->solve.kind == FZN_MINIMIZE ? BB_MINIMIZE : BB_MAXIMIZE;
    const fzn_decl *od = fzn_decl_of(&b, model->solve.objective);
    if ((od && od->type.base == FZN_T_FLOAT) || model->solve.objective->kind == FZN_E_FLOAT)
      /* A float objective over float decisions alone, without a search annotation (or
       * with -f), is split before anything else (bb_branch_float_objective_first). A
       * model's own search goes first, and so do int, Boolean and set decisions: they
       * usually fix the objective, which an interval split cannot. */
      ok = fzn_arg_float_var(&b, model->solve.objective, model->solve.line, "objective", &obj) &&
           ((bb_space_set_float_objective(b.space, sense, obj, o.float_step, &err) == BB_OK &&
             ((model->solve.annotations.count > 0 && !o.free_search) || has_discrete_decisions(model) ||
              bb_branch_float_objective_first(b.space, &err) == BB_OK)) ||
            fzn_report(&b, model->solve.line, "objective: %s", err.msg));
    else
      ok = fzn_arg_int_var(&b, model->solve.objective, model->solve.line, "objective", &obj) &&
           (bb_space_set_objective(b.space, sense, obj, &err) == BB_OK ||
            fzn_report(&b, model->solve.line, "objective: %s", err.msg));
  }
  ok = ok && fzn_post_search(&b, o.free_search, o.seed, &sopts);
  if (!ok) {
    fzn_report_unshown(&b);
    fzn_builder_free(&b);
    fzn_model_free(model);
    /* Each failure was reported where it happened; memory running out there (a poster,
     * a variable, the preference data) is not the model's fault. */
    return bb_out_of_memory_seen() ? 4 : 1;
  }
  double t_init = bb_now() - t0;
  if (o.verbose)
    fprintf(stderr, "fzn-bamboo: parsed in %.3f s, built in %.3f s (%d int, %d bool, %d set, %d float variables)\n",
            t_parse, t_init - t_parse, bb_int_var_count(b.space), bb_bool_var_count(b.space), bb_set_var_count(b.space),
            bb_float_var_count(b.space));
  if (o.time_limit_ms > 0) {
    long left = o.time_limit_ms - (long)(t_init * 1000.0);
    sopts.time_limit_ms = (uint64_t)(left > 1 ? left : 1);
  }
  if (o.restart_given) sopts.restart = o.restart;
  if (o.scale_given) sopts.restart_scale = o.restart_scale;
  if (o.base_given) sopts.restart_base = o.restart_base;
  sopts.nogoods = o.nogoods;
  sopts.nogoods_limit = o.nogoods_limit;
  /* A restart forgets which solutions a satisfaction search has given, so enumerating them
   * with restarts would repeat the first one without end (as fzn-gecode does). */
  if (!optimise && (o.all || o.solutions > 1) && sopts.restart != BB_RESTART_NONE) {
    fprintf(stderr,
            "fzn-bamboo: warning: restarts are ignored when enumerating solutions (%s); "
            "a restart would give the same solutions again\n",
            o.all ? "-a" : "-n");
    sopts.restart = BB_RESTART_NONE;
  }
  sopts.node_limit = (uint64_t)o.node_limit;
  sopts.fail_limit = (uint64_t)o.fail_limit;
  sopts.commit_distance = o.commit_distance;
  sopts.adaptive_distance = o.adaptive_distance;
  sopts.interrupt = &interrupted;
  stop_search_on_signals();
  bb_error err = {{0}};
  static smc_tally tally = {PTHREAD_MUTEX_INITIALIZER, {0}, {0}, 0, BB_SMC_PATH_AUTO};
  if (o.verbose) bb_stable_matching_observe(tally_propagation, &tally);
  double t_search = bb_now();
  bb_search *search = bb_search_new(b.space, &sopts, &err);
  if (!search) {
    fprintf(stderr, "fzn-bamboo: %s\n", err.msg);
    fzn_builder_free(&b);
    fzn_model_free(model);
    return 4;
  }
  /* Satisfaction: 1 solution, or -n N, or all with -a. Optimisation: the search runs to
   * the end (-n caps the improving solutions); as in fzn-gecode and MiniZinc's convention,
   * each improving solution is printed with -a or -i, otherwise only the last one, when
   * the search ends or a limit or a signal stops it. */
  long wanted = o.solutions ? o.solutions : (o.all || optimise) ? -1 : 1;
  bool print_each = !optimise || o.all || o.intermediate;
  long found = 0;
  bb_space *sol, *best = NULL;
  int write_error = 0;
  while (!write_error && (wanted < 0 || found < wanted) && (sol = bb_search_next(search, &err)) != NULL) {
    if (print_each) {
      write_error = fzn_output_solution(&b, sol, stdout);
      bb_space_free(sol);
    } else {
      bb_space_free(best);
      best = sol;
    }
    if (write_error) break;
    if (o.verbose && found == 0)
      fprintf(stderr, "fzn-bamboo: first solution %.3f s after the search started (%.3f s after start)\n",
              bb_now() - t_search, bb_now() - t0);
    found++;
  }
  if (best) {
    write_error = fzn_output_solution(&b, best, stdout);
    bb_space_free(best);
  }
  if (write_error) {
    bb_search_free(search);
    fzn_builder_free(&b);
    fzn_model_free(model);
    if (write_error == ENOMEM) {
      fprintf(stderr, "fzn-bamboo: out of memory while printing a solution\n");
      return 4;
    }
    return output_failed(write_error);
  }
  bool error = err.msg[0] != 0;
  bool complete = !error && !bb_search_stopped(search) && (wanted < 0 || found < wanted);
  if (error) fprintf(stderr, "fzn-bamboo: %s\n", err.msg);
  if (complete)
    puts(found ? "==========" : "=====UNSATISFIABLE=====");
  else if (found == 0 && !error)
    puts("=====UNKNOWN=====");
  if (o.stats) {
    bb_search_statistics st;
    bb_search_stats(search, &st);
    write_error =
        print_stats(&st, t_init, bb_now() - t_search, bb_int_var_count(b.space) + bb_bool_var_count(b.space), stdout);
  }
  if (!write_error) write_error = fzn_output_flush(stdout);
  /* A file system may report a failed write only when the file is closed. */
  if (!write_error && fclose(stdout) != 0) write_error = errno ? errno : EIO;
  if (o.verbose) print_tally(&tally);
  bb_search_free(search);
  fzn_builder_free(&b);
  fzn_model_free(model);
  if (write_error) return output_failed(write_error);
  return error ? 4 : 0;
}
