/* libFuzzer target: any bytes through the FlatZinc parser. Errors go to /dev/null; the
 * model (if any) is freed, so LeakSanitizer sees every allocation of a parse. Built with
 * clang only (CC=clang cmake -DBAMBOO_FUZZ=ON); tests/fuzz/replay.c runs the same function
 * over the committed corpus in every build. */
#include "fuzz_target.h"
#include "fzn_model.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int fuzz_accepts(const uint8_t *data, size_t size, FILE *errors) {
  static FILE *sink;
  if (!sink) sink = fopen("/dev/null", "w");
  fzn_model *model = fzn_parse_string((const char *)data, size, "fuzz.fzn", errors ? errors : sink);
  int accepted = model != NULL;
  fzn_model_free(model);
  return accepted;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_accepts(data, size, NULL);
  return 0;
}
