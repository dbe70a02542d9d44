/* bamboo-smp: CSV rows (RFC 4180) for tables a spreadsheet or a script reads. */
#ifndef BB_CSV_H
#define BB_CSV_H

#include <stdio.h>

/* Writes `count` fields and a line end. A field holding a comma, a quote, a line break or a
 * blank at either end is quoted, its quotes doubled; the caller checks ferror(out). */
void cli_csv_row(FILE *out, const char *const *fields, int count);

#endif
