/* bamboo-smp solve --format json (solve_report.h). The writer is a handful of fprintf calls:
 * the object is flat enough that a JSON library would be more code than it saves. */
#define _POSIX_C_SOURCE 200809L
#include "solve_report.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cli_parse_format(const cli_command *cmd, const char *text, cli_output_format *format) {
  *format = CLI_FORMAT_TEXT;
  if (!text || !strcmp(text, "text")) return 0;
  if (!strcmp(text, "json")) {
    *format = CLI_FORMAT_JSON;
    return 0;
  }
  return cli_usage(cmd, "--format takes text or json, not '%s'", text);
}

/* Length of the well-formed UTF-8 sequence at s (at most `left` bytes), 0 if there is none:
 * file names are bytes, and a JSON reader rejects a string that is not UTF-8. */
static size_t utf8_length(const unsigned char *s, size_t left) {
  size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
  if (!len || len > left) return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80) return 0;
  /* Overlong forms, UTF-16 surrogates and code points past U+10FFFF. */
  if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) || (s[0] == 0xf0 && s[1] < 0x90) ||
      (s[0] == 0xf4 && s[1] >= 0x90))
    return 0;
  return len;
}

/* A JSON string: quotes, backslashes and control characters escaped, bytes that are not UTF-8
 * replaced by U+FFFD; NULL is written as null. */
static void put_string(FILE *out, const char *text) {
  if (!text) {
    fputs("null", out);
    return;
  }
  const unsigned char *s = (const unsigned char *)text;
  size_t left = strlen(text);
  fputc('"', out);
  while (left) {
    unsigned char c = *s;
    size_t len = 1;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c == '\t')
      fputs("\\t", out);
    else if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\u%04x", c);
    else if (c < 0x80)
      fputc(c, out);
    else if ((len = utf8_length(s, left)) != 0)
      fwrite(s, 1, len, out);
    else {
      fputs("\\ufffd", out);
      len = 1;
    }
    s += len;
    left -= len;
  }
  fputc('"', out);
}

static const char *bool_text(int value) { return value < 0 ? "null" : value ? "true" : "false"; }

static void put_instance(FILE *out, const cli_solve_report *r) {
  int smi_words = !strcmp(r->kind, "complete") || !strcmp(r->kind, "smi");
  fputs("  \"instance\": {\"kind\": ", out);
  put_string(out, r->kind);
  fputs(", \"file\": ", out);
  put_string(out, r->source);
  fputs(", \"generator\": ", out);
  put_string(out, r->generator);
  fprintf(out, ", \"%s\": %d, \"%s\": %d", smi_words ? "men" : "residents", r->proposers,
          smi_words ? "women" : "hospitals", r->receivers);
  if (r->couples >= 0) fprintf(out, ", \"couples\": %d", r->couples);
  fputs("},\n", out);
}

/* The phases and their names as --time prints them (cli_print_times), in milliseconds. */
static void put_times(FILE *out, const cli_solve_report *r) {
  const bb_solve_stats *s = r->stats;
  fprintf(out, "  \"times_ms\": {\"input\": %.3f", 1e3 * r->t_input);
  if (s) {
    fprintf(out,
            ", \"transfer\": %.3f, \"precheck\": %.3f, \"init\": %.3f, \"solve\": %.3f, \"post\": %.3f, "
            "\"total\": %.3f},\n",
            1e3 * s->t_transfer, 1e3 * s->t_precheck, 1e3 * s->t_init, 1e3 * s->t_solve, 1e3 * s->t_post,
            1e3 * (r->t_input + cli_phase_total(s)));
    fprintf(out, "  \"proposals\": %llu,\n", (unsigned long long)s->proposals);
  } else {
    fprintf(out, ", \"solve\": %.3f, \"total\": %.3f},\n", 1e3 * r->t_solve, 1e3 * (r->t_input + r->t_solve));
  }
}

/* One partner a line would make 'solve -o' of a large n hard to read; ten a line keeps it
 * short and still diffable. */
static void put_matching(FILE *out, const cli_solve_report *r) {
  int matched = 0;
  fputs("  \"matching\": [", out);
  for (int m = 0; m < r->proposers; m++) {
    if (m)
      fputs(m % 10 ? ", " : ",\n    ", out);
    else
      fputs("\n    ", out);
    if (r->wife_of) {
      fprintf(out, "%u", (unsigned)r->wife_of[m]);
      matched++;
    } else if (r->assigned[m] == r->unassigned) {
      fputs("null", out);
    } else {
      fprintf(out, "%d", (int)r->assigned[m]);
      matched++;
    }
  }
  fprintf(out, "%s],\n  \"matched\": %d,\n", r->proposers ? "\n  " : "", matched);
}

static int report_tried; /* a report was opened for writing, whether or not the write succeeded */

int cli_solve_report_tried(void) { return report_tried; }

static int close_report(FILE *out, const char *path) {
  int failed = ferror(out) != 0;
  failed |= (path ? fclose(out) : fflush(out)) != 0;
  if (failed) {
    cli_error("cannot write the report to '%s': %s", path ? path : "standard output", strerror(errno));
    return CLI_EXIT_IO;
  }
  return 0;
}

/* The report's stream (`path`, or standard output), marked as tried; NULL after the message. */
static FILE *open_report(const char *path) {
  report_tried = 1;
  FILE *out = path ? fopen(path, "w") : stdout;
  if (!out) cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
  return out;
}

int cli_solve_report_failure(const char *algorithm, int rc, const char *path) {
  FILE *out = open_report(path);
  if (!out) return rc;
  fputs("{\n  \"algorithm\": ", out);
  put_string(out, algorithm);
  fputs(",\n  \"error\": ", out);
  put_string(out, cli_last_error());
  fprintf(out, ",\n  \"exit_status\": %d\n}\n", rc);
  close_report(out, path);
  return rc; /* the failure's status, even when its report could not be written too */
}

int cli_solve_report_write(const cli_solve_report *r, const char *path) {
  FILE *out = open_report(path);
  if (!out) return CLI_EXIT_IO;
  fputs("{\n", out);
  put_instance(out, r);
  fputs("  \"algorithm\": ", out);
  put_string(out, r->algorithm);
  fputs(",\n  \"side\": ", out);
  put_string(out, r->side);
  fputs(",\n  \"path\": ", out);
  put_string(out, r->stats ? r->stats->path : r->path ? r->path : r->algorithm);
  fputs(",\n", out);
  if (r->tie_break) {
    fputs("  \"tie_break\": {\"kind\": ", out);
    put_string(out, r->tie_break);
    fprintf(out, ", \"seed\": %llu},\n", (unsigned long long)r->tie_seed);
  }
  if (r->with_matching) put_matching(out, r);
  fprintf(out, "  \"checks\": {\"verify\": %s, \"stable\": %s, \"blocking_pairs\": ", bool_text(r->verified),
          bool_text(r->stable));
  if (r->blocking_pairs >= 0)
    fprintf(out, "%lld},\n", (long long)r->blocking_pairs);
  else
    fputs("null},\n", out);
  put_times(out, r);
  fprintf(out, "  \"exit_status\": %d\n}\n", r->exit_status);
  return close_report(out, path);
}

int cli_solve_report_finish(cli_solve_report *r, int rc, const char *path) {
  if (rc != CLI_EXIT_OK && !(rc == CLI_EXIT_INPUT && r->verified)) return rc;
  if (r->verified && r->stable < 0) r->stable = rc == CLI_EXIT_OK;
  r->exit_status = rc;
  int write_rc = cli_solve_report_write(r, path);
  return write_rc ? write_rc : rc;
}
