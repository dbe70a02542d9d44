/* bamboo-smp plan: the memory plan of a solve (engine/sm/memory_plan.h), without solving. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "memory_plan.h"

int cli_parse_gpus(const cli_command *cmd, const char *text, int *devices, int *count) {
  *count = 0;
  const char *s = text;
  for (;;) {
    char *end;
    long d = strtol(s, &end, 10);
    if (end == s || d < 0 || d > 63 || (*end && *end != ','))
      return cli_usage(cmd, "--gpus '%s': expected device numbers 0..63 separated by commas", text);
    if (*count == BB_PLAN_MAX_PARTS) return cli_usage(cmd, "--gpus '%s': at most %d entries", text, BB_PLAN_MAX_PARTS);
    devices[(*count)++] = (int)d;
    if (!*end) return 0;
    s = end + 1;
  }
}

int cli_memory_plan(const bb_plan_request *req, int print, const char **run_algo) {
  bb_memory_plan plan;
  bb_error err = {{0}};
  *run_algo = req->algo;
  bb_status st = bb_memory_plan_for_run(req, &plan, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  if (print) bb_memory_plan_print(&plan, stderr);
  if ((st = bb_memory_plan_check(&plan, &err)) == BB_OK) return 0;
  if (plan.gpu && !strcmp(req->algo, "bamboo")) {
    /* bamboo falls back to la-seq when its GPU path cannot run: decided here, before any
     * allocation, instead of after a failed cudaMalloc. */
    bb_plan_request cpu = *req;
    cpu.algo = "la-seq";
    bb_memory_plan fallback;
    bb_error cpu_err = {{0}};
    if (bb_memory_plan_for_run(&cpu, &fallback, &cpu_err) == BB_OK &&
        bb_memory_plan_check(&fallback, &cpu_err) == BB_OK) {
      fprintf(stderr, "bamboo: warning: %s; running la-seq on the CPU\n", err.msg);
      *run_algo = "la-seq";
      return 0;
    }
  }
  return cli_fail(st, &err);
}

static int run_plan(int argc, char **argv) {
  int n = 0, threads = 0, verify = 0;
  const char *algo = "bamboo", *gpus = NULL, *gen_on = NULL;
  uint64_t gpu_memory = 0, host_memory = 0;
  const cli_opt opts[] = {
      {"--n", CLI_INT, &n, 1, BB_MAX_N},
      {"--algo", CLI_STRING, &algo, 0, 0},
      {"--gpus", CLI_STRING, &gpus, 0, 0},
      {"--threads", CLI_INT, &threads, 0, 4096},
      {"--verify", CLI_FLAG, &verify, 0, 0},
      {"--gen-on", CLI_STRING, &gen_on, 0, 0},
      {"--gpu-memory", CLI_BYTES, &gpu_memory, 0, 0},
      {"--host-memory", CLI_BYTES, &host_memory, 0, 0},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  int rc = cli_parse(&cli_plan, argc, argv, opts, NULL);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (!n) return cli_usage(&cli_plan, "missing --n N");
  if ((rc = cli_check_algorithm(&cli_plan, algo))) return rc;
  if (gen_on && strcmp(gen_on, "gpu") && strcmp(gen_on, "host"))
    return cli_usage(&cli_plan, "--gen-on takes gpu or host, not '%s'", gen_on);
  int devices[BB_PLAN_MAX_PARTS] = {0}, count = 1;
  if (gpus && (rc = cli_parse_gpus(&cli_plan, gpus, devices, &count))) return rc;
  bb_plan_request req = {.n = n,
                         .algo = algo,
                         .devices = devices,
                         .device_count = count,
                         .threads = threads,
                         .verify = verify,
                         .gpu_memory = gpu_memory,
                         .host_memory = host_memory,
                         .gen_on_gpu = gen_on && !strcmp(gen_on, "gpu")};
  bb_memory_plan plan;
  bb_error err = {{0}};
  bb_status st = bb_memory_plan_for_run(&req, &plan, &err);
  if (st != BB_OK) return cli_fail(st, &err);
  bb_memory_plan_print(&plan, stdout);
  st = bb_memory_plan_check(&plan, &err);
  if (st == BB_OK) printf("fits\n");
  return st == BB_OK ? 0 : cli_fail(st, &err);
}

const cli_command cli_plan = {
    "plan",
    "print the memory a solve needs per phase, GPU and host, without solving",
    "plan --n N [--algo A] [--gpus LIST] [--threads T] [--verify] [--gen-on gpu|host]\n"
    "               [--gpu-memory SIZE] [--host-memory SIZE]",
    "Prints the memory plan of 'solve --n N --algo A': the bytes each GPU and the host\n"
    "hold at the peak of every phase (lists, rank matrix, PRMatrix, solve, tail), the\n"
    "PRMatrix node format, and the free GPU memory (cudaMemGetInfo) and available host\n"
    "memory where known; then 'fits', or the first phase that does not fit and exit 4.\n"
    "--gpu-memory plans for a machine you do not have: no GPU is asked.\n"
    "The lists are counted on the host (a file or the host generators hold them there).\n"
    "Without a usable GPU, bamboo is planned as its la-seq fallback.\n\n"
    "  --n N           number of men (and of women), 1..2097151\n"
    "  --algo A        algorithm (default bamboo; 'bamboo-smp algos' lists them)\n"
    "  --gpus LIST     device list, e.g. 0 or 0,0,1: one partition of the participants\n"
    "                  per entry (the same device may repeat). bamboo and gpu-la-min\n"
    "                  only; default 0\n"
    "  --threads T     CPU threads counted for la-seq's PRMatrix build, 0 = all CPUs\n"
    "  --verify        plan 'solve --verify' too: the stability check's phase (the lists\n"
    "                  and one bit per pair of participants, on the host)\n"
    "  --gen-on W      plan 'solve --gen KIND --gen-on W': with gpu the lists are generated\n"
    "                  on the GPU, the host holds no lists, O(n) (bamboo; --gpus too)\n"
    "  --gpu-memory SIZE  free memory of each listed GPU, e.g. 141GiB or 80GB, instead of\n"
    "                  asking the GPUs here (bamboo is planned for its GPU path even where\n"
    "                  this machine has none)\n"
    "  --host-memory SIZE  host memory available, instead of this machine's\n",
    run_plan,
};
