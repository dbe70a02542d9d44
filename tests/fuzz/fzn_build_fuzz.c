/* libFuzzer target: any bytes through fzn-bamboo's front end past the parser, as its main()
 * does: parse, create the variables, post every constraint into Gecode through the shim,
 * check the output annotations, post the search annotations and the objective; then a
 * search of at most a few nodes, whose first solution is printed to /dev/null. Posting
 * crashes, leaks and shim exceptions that escape show up here; the solving is not the
 * target. Needs Gecode (linked dynamically). The engine sees 256 MiB of memory
 * (bb_memory_cap), as instance_fuzz.c. */
#include "bb_common.h"
#include "build.h"
#include "fuzz_target.h"
#include "fzn_model.h"
#include "output.h"
#include "registry.h"
#include "search_ann.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NODE_LIMIT = 16, FAIL_LIMIT = 16 };

static bool build(fzn_builder *b, const fzn_model *model, FILE *errors, bb_search_options *opts) {
  bool ok = fzn_build_variables(b, model, errors) && (fzn_find_bool_images(b), fzn_post_constraints(b)) &&
            fzn_output_check(b) && fzn_post_search(b, false, 1, opts);
  if (ok && model->has_solve && model->solve.kind != FZN_SATISFY) {
    int objective;
    bb_error err;
    ok = fzn_arg_int_var(b, model->solve.objective, model->solve.line, "objective", &objective) &&
         (bb_space_set_objective(b->space, model->solve.kind == FZN_MINIMIZE ? BB_MINIMIZE : BB_MAXIMIZE, objective,
                                 &err) == BB_OK ||
          fzn_report(b, model->solve.line, "objective: %s", err.msg));
  }
  return ok;
}

int fuzz_accepts(const uint8_t *data, size_t size, FILE *errors) {
  static FILE *sink;
  if (!sink) {
    sink = fopen("/dev/null", "w");
    bb_memory_cap = (uint64_t)256 << 20;
    /* A stable_matching file constraint may name "-", standard input: never wait on it. */
    if (!freopen("/dev/null", "r", stdin)) return 0;
  }
  if (!errors) errors = sink;
  fzn_model *model = fzn_parse_string((const char *)data, size, "fuzz.fzn", errors);
  if (!model) return 0;
  fzn_builder b;
  bb_search_options opts;
  bb_search_options_init(&opts);
  bool ok = build(&b, model, errors, &opts);
  if (ok) {
    opts.threads = 1;
    opts.node_limit = NODE_LIMIT;
    opts.fail_limit = FAIL_LIMIT;
    bb_error err = {{0}};
    bb_search *search = bb_search_new(b.space, &opts, &err);
    if (search) {
      bb_space *solution = bb_search_next(search, &err);
      if (solution) fzn_output_solution(&b, solution, sink);
      bb_space_free(solution);
      bb_search_free(search);
    }
  }
  fzn_builder_free(&b);
  fzn_model_free(model);
  return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_accepts(data, size, NULL);
  return 0;
}
