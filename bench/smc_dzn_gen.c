/* smc-dzn-gen: a random complete Stable Marriage instance (bamboo's uniform generator, the
 * instances smc-gpu-bench uses) as MiniZinc data for models/stable_marriage.mzn: n, pm, pw,
 * 0-based. Fast enough for n = 10000 (200 M numbers), which Python is not.
 *
 * usage: smc-dzn-gen N [SEED] > data.dzn */
#include "generate.h"

#include <stdio.h>
#include <stdlib.h>

static void matrix(const char *name, const bb_id *m, int n) {
  printf("%s = [|\n", name);
  for (int r = 0; r < n; r++) {
    for (int k = 0; k < n; k++) printf(k ? ", %u" : "  %u", (unsigned)m[(size_t)r * n + k]);
    fputs(r + 1 < n ? "\n|" : "\n|];\n", stdout);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  unsigned long long seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
  if (n < 1) {
    fprintf(stderr, "usage: smc-dzn-gen N [SEED] > data.dzn\n");
    return 2;
  }
  bb_error err = {{0}};
  bb_instance *inst = NULL;
  if (bb_generate(BB_GEN_UNIFORM, n, n, seed, 0, &inst, &err) != BB_OK) {
    fprintf(stderr, "smc-dzn-gen: %s\n", err.msg);
    return 1;
  }
  static char buf[1 << 20];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  printf("n = %d;\n", n);
  matrix("pm", inst->men_prefs, n);
  matrix("pw", inst->women_prefs, n);
  bb_instance_free(inst);
  return fflush(stdout) == 0 ? 0 : 3;
}
