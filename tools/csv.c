/* bamboo-smp: CSV rows (csv.h). */
#include "csv.h"

#include <string.h>

static int needs_quotes(const char *field) {
  size_t len = strlen(field);
  if (len && (field[0] == ' ' || field[len - 1] == ' ')) return 1;
  return strpbrk(field, ",\"\r\n") != NULL;
}

static void put_field(FILE *out, const char *field) {
  if (!needs_quotes(field)) {
    fputs(field, out);
    return;
  }
  fputc('"', out);
  for (; *field; field++) {
    if (*field == '"') fputc('"', out);
    fputc(*field, out);
  }
  fputc('"', out);
}

void cli_csv_row(FILE *out, const char *const *fields, int count) {
  for (int i = 0; i < count; i++) {
    if (i) fputc(',', out);
    put_field(out, fields[i] ? fields[i] : "");
  }
  /* CRLF is RFC 4180's; a plain newline is what every reader accepts and what diff shows. */
  fputc('\n', out);
}
