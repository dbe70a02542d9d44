/* bamboo-smp gen: writes a generated instance (docs/generators.md, docs/formats.md). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "hr_io.h"
#include "instance_io.h"

typedef struct gen_args {
  const char *kind_name;
  int n, group, threads, binary;
  uint64_t seed;
  const char *out_path, *dzn_path;
  cli_hr_opts hr;
} gen_args;

/* A MiniZinc string literal's body: quotes and backslashes escaped, newline and tab as \n and
 * \t (the escapes MiniZinc and fzn-bamboo's lexer both resolve). Other control characters
 * have no escape both understand: dzn_unquotable() refuses them before anything is written. */
static void dzn_string(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '\n' || *s == '\t') {
      fputs(*s == '\n' ? "\\n" : "\\t", f);
      continue;
    }
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
}

/* The first byte of `s` that a MiniZinc string cannot carry, or 0. */
static unsigned char dzn_unquotable(const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) return c;
  }
  return 0;
}

/* `path` made absolute through its folder (which must exist): the file itself need not. */
static int canonical_name(const char *path, char out[PATH_MAX]) {
  const char *slash = strrchr(path, '/');
  char dir[PATH_MAX], resolved[PATH_MAX];
  const char *base = slash ? slash + 1 : path;
  if (slash) {
    size_t len = slash == path ? 1 : (size_t)(slash - path);
    if (len >= sizeof dir) return -1;
    memcpy(dir, path, len);
    dir[len] = '\0';
  } else {
    strcpy(dir, ".");
  }
  if (!realpath(dir, resolved)) return -1;
  return snprintf(out, PATH_MAX, "%s/%s", resolved, base) < PATH_MAX ? 0 : -1;
}

/* Whether two paths name one file: the same inode when both exist, else the same name once
 * the folders are resolved ("F", "./F", "d/../F"). A link to a file not yet there is missed. */
static int same_file(const char *a, const char *b) {
  if (strcmp(a, b) == 0) return 1;
  struct stat sa, sb;
  int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return 0;
  char ca[PATH_MAX], cb[PATH_MAX];
  return canonical_name(a, ca) == 0 && canonical_name(b, cb) == 0 && strcmp(ca, cb) == 0;
}

static void dzn_ints(FILE *f, const char *name, const uint32_t *start, const int32_t *values, int count) {
  fprintf(f, "%s = [", name);
  for (int i = 0; i < count; i++)
    fprintf(f, "%s%lld", i ? (i % 20 ? ", " : ",\n  ") : "",
            start ? (long long)(start[i + 1] - start[i]) : (long long)values[i]);
  fprintf(f, "];\n");
}

/* The companion .dzn of an instance file for the file form of the MiniZinc predicates
 * (docs/minizinc.md): the sizes a model computes with, and the file's path. */
static int write_dzn(const char *dzn_path, const char *data_path, int n, const bb_hr *inst) {
  FILE *f = fopen(dzn_path, "w");
  if (!f) {
    bb_error err = {{0}};
    return cli_fail(bb_fail(&err, BB_ERR_IO, "%s: cannot write: %s", dzn_path, strerror(errno)), &err);
  }
  fprintf(f, "%% The sizes of \"");
  dzn_string(f, data_path); /* a newline in the path would end the comment */
  fprintf(f, "\", for stable_matching%s_file (written by bamboo-smp gen --dzn).\n",
          !inst       ? ""
          : inst->smi ? "_smi"
                      : "_hr");
  if (!inst) {
    fprintf(f, "n = %d;\n", n);
  } else if (inst->smi) {
    fprintf(f, "n_men = %d;\nn_women = %d;\n", inst->n_residents, inst->n_hospitals);
    dzn_ints(f, "pm_len", inst->res_start, NULL, inst->n_residents);
    dzn_ints(f, "pw_len", inst->hosp_start, NULL, inst->n_hospitals);
  } else {
    fprintf(f, "n_residents = %d;\nn_hospitals = %d;\n", inst->n_residents, inst->n_hospitals);
    dzn_ints(f, "capacity", NULL, inst->capacity, inst->n_hospitals);
    dzn_ints(f, "rp_len", inst->res_start, NULL, inst->n_residents);
    dzn_ints(f, "hp_len", inst->hosp_start, NULL, inst->n_hospitals);
  }
  fprintf(f, "prefs_file = \"");
  dzn_string(f, data_path);
  fprintf(f, "\";\n");
  /* A write that failed earlier (a full disk) leaves the error flag; fclose reports the last. */
  int write_errno = ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !write_errno) write_errno = errno ? errno : EIO;
  if (write_errno) {
    bb_error err = {{0}};
    return cli_fail(bb_fail(&err, BB_ERR_IO, "%s: write failed: %s", dzn_path, strerror(write_errno)), &err);
  }
  return CLI_EXIT_OK;
}

static int parse_args(int argc, char **argv, gen_args *a) {
  const cli_opt opts[] = {
      {"--n", CLI_INT, &a->n, 1, BB_MAX_N},
      {"--group", CLI_INT, &a->group, 1, BB_MAX_N},
      {"--seed", CLI_U64, &a->seed, 0, 0},
      {"--threads", CLI_INT, &a->threads, 0, 4096},
      {"-o", CLI_STRING, &a->out_path, 0, 0},
      {"--binary", CLI_FLAG, &a->binary, 0, 0},
      {"--dzn", CLI_STRING, &a->dzn_path, 0, 0},
      {"--k", CLI_INT, &a->hr.k, 1, BB_MAX_N},
      {"--hospitals", CLI_INT, &a->hr.hospitals, 1, BB_MAX_N},
      {"--women", CLI_INT, &a->hr.hospitals, 1, BB_MAX_N},
      {"--skew", CLI_REAL, &a->hr.skew, 0, 0},
      {"--capacity", CLI_INT, &a->hr.capacity, 1, 1000000000},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_gen, argc, argv, opts, &a->kind_name);
  if (rc) return rc;
  if (!a->kind_name) return cli_usage(&cli_gen, "missing generator KIND");
  if (a->n == 0 && strcmp(a->kind_name, "nrmp") != 0) return cli_usage(&cli_gen, "missing --n N");
  if (a->binary && !a->out_path) return cli_usage(&cli_gen, "--binary needs -o FILE");
  if (a->dzn_path && (!a->out_path || !strcmp(a->out_path, "-")))
    return cli_usage(&cli_gen, "--dzn needs -o FILE (the .dzn names it)");
  if (a->dzn_path && same_file(a->out_path, a->dzn_path))
    return cli_usage(&cli_gen, "-o '%s' and --dzn '%s' are the same file: the .dzn would overwrite the instance",
                     a->out_path, a->dzn_path);
  unsigned char bad = a->dzn_path ? dzn_unquotable(a->out_path) : 0;
  if (bad)
    return cli_usage(&cli_gen,
                     "--dzn: the instance path holds the control character 0x%02x, which a MiniZinc string "
                     "cannot carry: choose another -o name",
                     bad);
  return 0;
}

static int gen_incomplete(const gen_args *a) {
  bb_hr *inst = NULL;
  int rc = cli_hr_generate(a->kind_name, a->n, &a->hr, a->seed, a->threads, &inst);
  if (rc) return rc;
  bb_error err = {{0}};
  const char *path = a->out_path ? a->out_path : "-";
  bb_status st = a->binary ? bb_hr_write_binary(inst, path, &err) : bb_hr_write_text(inst, path, &err);
  rc = st != BB_OK ? cli_fail(st, &err) : a->dzn_path ? write_dzn(a->dzn_path, path, 0, inst) : CLI_EXIT_OK;
  bb_hr_free(inst);
  return rc;
}

static int run_gen(int argc, char **argv) {
  if (argc > 1 && cli_hrc_gen_kind(argv[1])) return cli_hrc_gen(argc, argv);   /* couples: cmd_hrc.c */
  if (argc > 1 && cli_ties_gen_kind(argv[1])) return cli_ties_gen(argc, argv); /* ties: cmd_ties.c */
  gen_args a = {.seed = CLI_DEFAULT_SEED};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (cli_hr_kind(a.kind_name)) return gen_incomplete(&a);
  bb_gen_kind kind;
  if ((rc = cli_parse_kind(
           &cli_gen, a.kind_name, &kind,
           "; incomplete lists: smi, hr or nrmp; couples: hrc, nrmp-couples, hrc-mallows, nrmp-2024 or sfas; "
           "ties: smti, hrt or school")))
    return rc;
  int group = cli_group_for(kind, a.n, a.group);
  if (group > a.n) return cli_usage(&cli_gen, "--group %d is larger than --n %d", group, a.n);

  bb_instance *inst = NULL;
  if ((rc = cli_generate(kind, a.n, group, a.seed, a.threads, &inst))) return rc;
  bb_error err = {{0}};
  const char *path = a.out_path ? a.out_path : "-";
  bb_status st = a.binary ? bb_instance_write_binary(inst, path, &err) : bb_instance_write_text(inst, path, &err);
  int n = inst->n;
  bb_instance_free(inst);
  if (st != BB_OK) return cli_fail(st, &err);
  return a.dzn_path ? write_dzn(a.dzn_path, path, n, NULL) : CLI_EXIT_OK;
}

const cli_command cli_gen = {
    "gen",
    "write a generated instance",
    "gen KIND --n N [--group G] [--seed S] [--threads T] [-o FILE] [--binary] [--dzn DZN]\n"
    "                [--k K] [--hospitals N2 | --women N2] [--skew S] [--capacity C]",
    "Writes a generated instance: text on standard output, or to FILE with -o.\n"
    "The same KIND, N, G and S give the same instance whatever the thread count.\n\n"
    "  KIND         perfect, solo, congested, random, uniform, latin or irving-leather\n"
    "               (docs/generators.md)\n"
    "  --n N        instance size, 1..2097151 (required)\n"
    "  --group G    random: group size, 1..N (default 5, or N when N < 5);\n"
    "               latin: radix, 1..N (default N: the cyclic square)\n"
    "  --seed S     unsigned 64-bit seed (default 1)\n"
    "  --threads T  generator threads, 0 = all CPUs (default 0)\n"
    "  -o FILE      write to FILE instead of standard output\n"
    "  --binary     write the compact binary format (needs -o; docs/formats.md)\n"
    "  --dzn DZN    also write DZN: the sizes (n, list lengths, capacities) and the\n"
    "               path of FILE, for MiniZinc's stable_matching*_file (needs -o,\n"
    "               not FILE itself)\n\n"
    "Incomplete lists and capacities (docs/generators.md):\n"
    "  smi          N men each rank K distinct women of N2; each woman ranks the men\n"
    "               who listed her, in random order\n"
    "  hr           N residents each rank K distinct hospitals of N2; capacities\n"
    "               random in 1..2c-1 around c = N / N2, or --capacity C\n"
    "  nrmp         hr preset shaped like the US resident match: 31000 residents,\n"
    "               2300 hospitals, lists of 15, skew 0.5 (options override)\n"
    "  --k K        list length of each man/resident (default 10)\n"
    "  --hospitals N2, --women N2   size of the other side (default N)\n"
    "  --skew S     popularity: hospital h is drawn with weight 1/(h+1)^S (default 0)\n"
    "  --capacity C every hospital's capacity (hr)\n\n"
    "Couples (HRC): hrc, nrmp-couples, hrc-mallows (correlated, Mallows), nrmp-2024,\n"
    "  sfas (ties on the hospitals' side)\n"
    "               ('bamboo-smp gen hrc --help', docs/generators.md)\n"
    "Ties (SMTI, HRT): smti, hrt, school ('bamboo-smp gen smti --help', docs/ties.md)\n",
    run_gen,
};
