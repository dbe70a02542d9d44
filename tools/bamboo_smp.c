/* bamboo-smp: command-line front end of libbamboo (gen, solve, bench, algos).
 *
 * Exit codes (see cli.h): 0 ok, 1 invalid input or unstable matching, 2 usage error,
 * 3 I/O error, 4 out of memory, 5 no GPU for a gpu-* algorithm, 6 GPU error,
 * 7 time limit reached. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "hr.h"

#ifndef BAMBOO_VERSION
#define BAMBOO_VERSION "unknown"
#endif

static const cli_command *const commands[] = {&cli_gen, &cli_solve, &cli_plan, &cli_bench, &cli_hrc, &cli_ties, NULL};

static const char exit_codes_text[] =
    "Exit status:\n"
    "  0  ok\n"
    "  1  invalid input (malformed instance file) or unstable matching (--verify)\n"
    "  2  usage error (unknown option, command, algorithm or generator kind; bad value)\n"
    "  3  I/O error (cannot read a file, or cannot write a file or standard output)\n"
    "  4  out of memory\n"
    "  5  no usable GPU for a gpu-* algorithm\n"
    "  6  GPU error\n"
    "  7  time limit reached\n";

static void print_usage(FILE *out) {
  fprintf(out,
          "usage: bamboo-smp COMMAND [OPTIONS]\n"
          "       bamboo-smp --help | --version | help COMMAND\n\n"
          "Stable marriage: the man-optimal stable matching, on the CPU or the GPU.\n\n"
          "Commands:\n");
  for (int i = 0; commands[i]; i++) fprintf(out, "  %-7s %s\n", commands[i]->name, commands[i]->summary);
  fprintf(out,
          "  %-7s %s\n  %-7s %s\n\n"
          "Run 'bamboo-smp help COMMAND' for a command's options.\n\n%s",
          "algos", "list the algorithms", "help", "show a command's usage and options", exit_codes_text);
}

static const cli_command *find_command(const char *name) {
  for (int i = 0; commands[i]; i++)
    if (strcmp(commands[i]->name, name) == 0) return commands[i];
  return NULL;
}

static int print_version(void) {
#ifdef BAMBOO_HAVE_CUDA
  const char *gpu = "GPU kernels built in";
#else
  const char *gpu = "built without CUDA: GPU algorithms unavailable";
#endif
  printf("bamboo-smp %s (%s)\n", BAMBOO_VERSION, gpu);
  return CLI_EXIT_OK;
}

static int list_algorithms(int argc) {
  if (argc > 1) {
    cli_error("algos takes no arguments");
    return CLI_EXIT_USAGE;
  }
  for (const char *const *name = bb_algorithm_names(); *name; name++)
    printf("%-12s %s%s\n", *name, bb_algorithm_describe(*name), bb_algorithm_needs_gpu(*name) ? " [needs a GPU]" : "");
  printf("\nFor incomplete lists and capacities (SMI/HR files):\n");
  for (const char *const *name = bb_hr_algorithm_names(); *name; name++)
    printf("%-12s %s%s\n", *name, bb_hr_algorithm_describe(*name),
           !strcmp(*name, "gpu-la-min") ? " [needs a GPU]" : "");
  printf("\nFor couples (HRC files):\n%-12s %s\n", "hrc-da",
         "couples-aware deferred acceptance (Roth-Peranson style), then repair rounds; says whether it is stable");
  printf("%-12s %s\n", "hrc-da-portfolio",
         "hrc-da and randomised copies on --threads, the fewest blocking pairs kept, then --polish local search");
  printf("%-12s %s\n", "da-stb, da-mtb",
         "HRC files with ties in the hospitals' lists: hrc-da once --seed S has broken them (single or multiple)");
  printf("\nFor ties (SMTI/HRT files; --seed S breaks the ties of all but kiraly):\n");
  for (const char *const *name = bb_ties_algorithm_names(); *name; name++)
    printf("%-12s %s\n", *name, bb_ties_algorithm_describe(*name));
  return CLI_EXIT_OK;
}

static int help(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stdout);
    return CLI_EXIT_OK;
  }
  const cli_command *cmd = find_command(argv[1]);
  if (cmd) {
    cli_print_help(cmd);
    return CLI_EXIT_OK;
  }
  if (strcmp(argv[1], "algos") == 0) {
    printf("usage: bamboo-smp algos\n\nLists the algorithms 'solve --algo' and 'bench --algos' accept.\n");
    return CLI_EXIT_OK;
  }
  cli_error("no help for unknown command '%s'", argv[1]);
  return CLI_EXIT_USAGE;
}

/* Whatever a command printed on standard output must have reached it: a full disk or a closed
 * pipe turns a success into the I/O exit status (the command's own failure code is kept). */
static int finish(int rc) {
  int failed = ferror(stdout) != 0;
  failed |= fflush(stdout) != 0;
  if (failed && rc == CLI_EXIT_OK) {
    cli_error("cannot write to standard output: %s", strerror(errno ? errno : EIO));
    return CLI_EXIT_IO;
  }
  return rc;
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return CLI_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) return help(1, argv + 1);
  if (strcmp(name, "--version") == 0) return print_version();
  if (strcmp(name, "help") == 0) return help(argc - 1, argv + 1);
  if (strcmp(name, "algos") == 0) return list_algorithms(argc - 1);
  const cli_command *cmd = find_command(name);
  if (cmd) return cmd->run(argc - 1, argv + 1);
  cli_error("unknown %s '%s'", name[0] == '-' ? "option" : "command", name);
  print_usage(stderr);
  return CLI_EXIT_USAGE;
}

int main(int argc, char **argv) { return finish(dispatch(argc, argv)); }
