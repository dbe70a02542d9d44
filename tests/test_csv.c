/* bamboo-smp's CSV rows (tools/csv.h): the fields RFC 4180 says to quote are quoted, quotes
 * doubled, the others written as they are. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

static int failed;

static void expect_row(const char *const *fields, int count, const char *want) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  if (!out) {
    perror("open_memstream");
    exit(1);
  }
  cli_csv_row(out, fields, count);
  fclose(out);
  if (strcmp(text, want) != 0) {
    fprintf(stderr, "csv row: got [%s], expected [%s]\n", text, want);
    failed++;
  }
  free(text);
}

int main(void) {
  expect_row((const char *const[]){"20", "random(g=5)", "la-seq", "1.250"}, 4, "20,random(g=5),la-seq,1.250\n");
  expect_row((const char *const[]){"a,b", "say \"hi\"", "two\nlines", "cr\r"}, 4,
             "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
  expect_row((const char *const[]){" lead", "trail ", "in side", ""}, 4, "\" lead\",\"trail \",in side,\n");
  expect_row((const char *const[]){NULL, "> 1e-06 s (stopped)"}, 2, ",> 1e-06 s (stopped)\n");
  if (!failed) printf("test_csv: ok\n");
  return failed ? 1 : 0;
}
