/* smc-dzn-gen: a random complete Stable Marriage instance (bamboo's uniform
 * generator, the instances smc-gpu-bench uses) as MiniZinc data for
 * models/stable_marriage.mzn: n, pm, pw, 0-based. Fast enough for n = 10000
 * (200 M numbers), which Python is not.
 *
 * With --fzn it writes instead the FlatZinc that MiniZinc 2.6.4 writes for
 * models/stable_marriage.mzn with that data and Bamboo's library (n >= 5), byte
 * for byte (the test bench.fzn_gen_identical checks it): MiniZinc takes 150-190
 * s and 5 GB to flatten n = 10000, this takes seconds, so the front end can be
 * measured on that text anywhere.
 *
 * --gen KIND [--group G] takes another of bamboo-smp gen's kinds
 * (docs/generators.md), e.g. latin or irving-leather for bench/research.sh.
 *
 * usage: smc-dzn-gen N [SEED] [--fzn] [--gen KIND [--group G]] > data.dzn (or
 * model.fzn) */
#include "generate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void matrix(const char *name, const bb_id *m, int n) {
  printf("%s = [|\n", name);
  for (int r = 0; r < n; r++) {
    for (int k = 0; k < n; k++) printf(k ? ", %u" : "  %u", (unsigned)m[(size_t)r * n + k]);
    fputs(r + 1 < n ? "\n|" : "\n|];\n", stdout);
  }
}

/* One data array as MiniZinc writes it: row-major, no blanks. */
static void fzn_array(int id, const bb_id *m, int n) {
  size_t cells = (size_t)n * (size_t)n;
  printf("array [1..%zu] of int: X_INTRODUCED_%d_ = [", cells, id);
  for (size_t c = 0; c < cells; c++) printf(c ? ",%u" : "%u", (unsigned)m[c]);
  fputs("];\n", stdout);
}

static void fzn_var_array(const char *name, int first, int n) {
  printf("array [1..%d] of var int: %s:: output_array([1..%d]) = [", n, name, n);
  for (int i = 0; i < n; i++) printf(i ? ",X_INTRODUCED_%d_" : "X_INTRODUCED_%d_", first + i);
  fputs("];\n", stdout);
}

static void fzn_model(const bb_instance *inst, int n) {
  fputs(
      "predicate bamboo_stable_matching(array [int] of var int: men,array "
      "[int] of var int: women,"
      "array [int] of int: pm,array [int] of int: pw,int: pm_rows,int: "
      "pm_cols,int: pw_rows,int: pw_cols);\n",
      stdout);
  /* 2n and 2n+1 go to the first rows that the library's data checks read */
  fzn_array(2 * n + 2, inst->women_prefs, n);
  fzn_array(2 * n + 3, inst->men_prefs, n);
  for (int v = 0; v < 2 * n; v++) printf("var 0..%d: X_INTRODUCED_%d_;\n", n - 1, v);
  fzn_var_array("men", 0, n);
  fzn_var_array("women", n, n);
  printf(
      "constraint "
      "bamboo_stable_matching(men,women,X_INTRODUCED_%d_,X_INTRODUCED_%d_,%"
      "d,%d,%d,%d):: gpu;\n",
      2 * n + 3, 2 * n + 2, n, n, n, n);
  fputs("solve  satisfy;\n", stdout);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  unsigned long long seed = 1;
  int fzn = 0, group = 0, bad = 0;
  bb_gen_kind kind = BB_GEN_UNIFORM;
  bb_error err = {{0}};
  for (int a = 2; a < argc && !bad; a++) {
    if (strcmp(argv[a], "--fzn") == 0)
      fzn = 1;
    else if (strcmp(argv[a], "--gen") == 0 && a + 1 < argc)
      bad = bb_gen_parse_kind(argv[++a], &kind, &err) != BB_OK;
    else if (strcmp(argv[a], "--group") == 0 && a + 1 < argc)
      group = atoi(argv[++a]);
    else if (a == 2 && argv[a][0] != '-')
      seed = strtoull(argv[a], NULL, 10);
    else
      bad = 1;
  }
  if (group == 0) group = kind == BB_GEN_RANDOM && n > 5 ? 5 : n; /* as bamboo-smp gen */
  if (n < 1 || bad || (fzn && n < 5)) {
    if (err.msg[0]) fprintf(stderr, "smc-dzn-gen: %s\n", err.msg);
    fprintf(stderr,
            "usage: smc-dzn-gen N [SEED] [--fzn] [--gen KIND [--group G]] > "
            "data.dzn "
            "(--fzn: N >= 5; KIND as bamboo-smp gen, default uniform)\n");
    return 2;
  }
  bb_instance *inst = NULL;
  if (bb_generate(kind, n, group, seed, 0, &inst, &err) != BB_OK) {
    fprintf(stderr, "smc-dzn-gen: %s\n", err.msg);
    return 1;
  }
  static char buf[1 << 20];
  setvbuf(stdout, buf, _IOFBF, sizeof buf);
  if (fzn) {
    fzn_model(inst, n);
  } else {
    printf("n = %d;\n", n);
    matrix("pm", inst->men_prefs, n);
    matrix("pw", inst->women_prefs, n);
  }
  bb_instance_free(inst);
  return fflush(stdout) == 0 ? 0 : 3;
}
