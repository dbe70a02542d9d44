/* Instance files: round trips of both formats, and every malformed case reported with
 * its place and its problem; a read failing inside the binary list formats (SMI/HR, HRC,
 * SMTI/HRT). Usage: test_io DATA_DIR (tests/data). */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "generate.h"
#include "hr_gen.h"
#include "hr_io.h"
#include "hrc_gen.h"
#include "hrc_io.h"
#include "instance_io.h"
#include "instance_readers.h"
#include "io_writer.h"
#include "test_util.h"
#include "ties_gen.h"
#include "ties_io.h"

static char tmp_dir[256];
static const char *data_dir;

static const char *tmp_path(const char *name) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
  return path;
}

/* Reads `path`, expecting `want` and a message containing each of the needles. */
static void expect_read(const char *path, bb_status want, const char *needle1, const char *needle2, int line) {
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  bb_status got = bb_instance_read(path, &inst, &err);
  CHECKF(got == want && (want == BB_OK) == (inst != NULL) && (!needle1 || strstr(err.msg, needle1)) &&
             (!needle2 || strstr(err.msg, needle2)),
         "line %d: reading %s: got %s \"%s\", want %s with \"%s\", \"%s\"", line, path, bb_status_name(got), err.msg,
         bb_status_name(want), needle1 ? needle1 : "", needle2 ? needle2 : "");
  bb_instance_free(inst);
}
#define EXPECT_READ(path, want, n1, n2) expect_read(path, want, n1, n2, __LINE__)

static void write_bytes(const char *path, const void *bytes, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
}

static void test_round_trips(void) {
  const int sizes[] = {1, 2, 7, 300};
  for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
    int n = sizes[s];
    bb_instance *inst = NULL, *back = NULL;
    bb_error err = {{0}};
    CHECK(bb_generate(BB_GEN_UNIFORM, n, n, 1234 + s, 1, &inst, &err) == BB_OK);
    if (!inst) return;
    const char *text = tmp_path("round.txt");
    CHECK(bb_instance_write_text(inst, text, &err) == BB_OK);
    CHECK(bb_instance_read(text, &back, &err) == BB_OK);
    CHECK(back && tu_same(inst, back));
    bb_instance_free(back);
    back = NULL;
    const char *bin = tmp_path("round.bin");
    CHECK(bb_instance_write_binary(inst, bin, &err) == BB_OK);
    CHECK(bb_instance_read(bin, &back, &err) == BB_OK);
    CHECK(back && tu_same(inst, back));
    /* Exact size: header + 2 n^2 two-byte ids. */
    FILE *f = fopen(bin, "rb");
    CHECK(f && fseek(f, 0, SEEK_END) == 0 && ftell(f) == 24 + 4L * n * n);
    if (f) fclose(f);
    bb_instance_free(back);
    bb_instance_free(inst);
  }
}

static void test_good_text_files(void) {
  char path[512];
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  snprintf(path, sizeof path, "%s/ok_comments.txt", data_dir);
  CHECK(bb_instance_read(path, &inst, &err) == BB_OK);
  if (!inst) {
    fprintf(stderr, "%s\n", err.msg);
    return;
  }
  const bb_id men[] = {0, 1, 2, 1, 0, 2, 2, 1, 0}, women[] = {1, 0, 2, 0, 1, 2, 2, 0, 1};
  CHECK(inst->n == 3 && memcmp(inst->men_prefs, men, sizeof men) == 0 &&
        memcmp(inst->women_prefs, women, sizeof women) == 0);
  bb_instance *crlf = NULL;
  snprintf(path, sizeof path, "%s/ok_crlf_no_final_newline.txt", data_dir);
  CHECK(bb_instance_read(path, &crlf, &err) == BB_OK);
  CHECK(crlf && tu_same(inst, crlf));
  bb_instance_free(crlf);
  bb_instance_free(inst);
}

static void test_bad_text_files(void) {
  static const struct {
    const char *file;
    bb_status status;
    const char *needle1, *needle2;
  } cases[] = {
      {"dup_id.txt", BB_ERR_INPUT, "dup_id.txt:5: man 1's list: id 0 appears twice", "not a permutation"},
      {"woman_dup_id.txt", BB_ERR_INPUT, "woman_dup_id.txt:6: woman 1's list: id 1 appears twice", NULL},
      {"out_of_range.txt", BB_ERR_INPUT, "out_of_range.txt:4: man 2's list", "id 9 is out of range 0..4"},
      {"negative_id.txt", BB_ERR_INPUT, "negative_id.txt:3: man 1's list", "id -1 is out of range 0..1"},
      {"short_row.txt", BB_ERR_INPUT, "short_row.txt:4: expected 5 ids in man 2's list, line has 4", NULL},
      {"long_row.txt", BB_ERR_INPUT, "long_row.txt:8: expected 5 ids in woman 1's list, line has 6", NULL},
      {"truncated.txt", BB_ERR_INPUT, "truncated.txt:8: file ends after 7 of 10 rows (truncated?)", NULL},
      {"extra_data.txt", BB_ERR_INPUT, "extra_data.txt:7: extra data after the women's lists", NULL},
      {"negative_n.txt", BB_ERR_INPUT, "negative_n.txt:1: n = -3 is out of range", NULL},
      {"zero_n.txt", BB_ERR_INPUT, "zero_n.txt:1: n = 0 is out of range", NULL},
      {"huge_n.txt", BB_ERR_INPUT, "n = 99999999999 is out of range", NULL},
      {"n_too_large_for_memory.txt", BB_ERR_NOMEM, "n_too_large_for_memory.txt:1: n = 2000000", "memory"},
      {"n_not_alone.txt", BB_ERR_INPUT, "n_not_alone.txt:1: expected n alone on its line", NULL},
      {"n_not_a_number.txt", BB_ERR_INPUT, "n_not_a_number.txt:1: not a number: 'three'", NULL},
      {"not_a_number.txt", BB_ERR_INPUT, "not_a_number.txt:3: man 1's list: not a number: 'x3'", NULL},
      {"empty.txt", BB_ERR_INPUT, "empty.txt: empty file", NULL},
      {"comments_only.txt", BB_ERR_INPUT, "comments_only.txt: no data", NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/bad/%s", data_dir, cases[i].file);
    expect_read(path, cases[i].status, cases[i].needle1, cases[i].needle2, __LINE__);
  }
}

/* A binary file: header fields, then `count` ids of `id_bytes` bytes. */
static void write_binary(const char *path, const char *magic, uint32_t version, uint32_t n, uint32_t id_bytes,
                         uint32_t reserved, const uint32_t *ids, size_t count) {
  size_t len = 24 + count * id_bytes;
  unsigned char *bytes = malloc(len);
  uint32_t fields[4] = {version, n, id_bytes, reserved};
  memcpy(bytes, magic, 8);
  for (int i = 0; i < 4; i++)
    for (int b = 0; b < 4; b++) bytes[8 + 4 * i + b] = (unsigned char)(fields[i] >> (8 * b));
  for (size_t c = 0; c < count; c++)
    for (uint32_t b = 0; b < id_bytes; b++) bytes[24 + c * id_bytes + b] = (unsigned char)(ids[c] >> (8 * b));
  write_bytes(path, bytes, len);
  free(bytes);
}

static void test_binary_files(void) {
  /* n = 3, men then women. */
  uint32_t ids[18] = {0, 1, 2, 1, 0, 2, 2, 1, 0, 1, 0, 2, 0, 1, 2, 2, 0, 1};
  const char *path = tmp_path("case.bin");
  bb_instance *inst = NULL;
  bb_error err = {{0}};

  write_binary(path, "BBSMPBIN", 1, 3, 4, 0, ids, 18); /* 4-byte ids are fine at any n */
  CHECK(bb_instance_read(path, &inst, &err) == BB_OK);
  CHECK(inst && inst->n == 3 && inst->men_prefs[3] == 1 && inst->women_prefs[8] == 1);
  bb_instance_free(inst);

  write_binary(path, "BBSMPBIX", 1, 3, 2, 0, ids, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "bad magic", "case.bin");
  write_bytes(path,
              "\x7f"
              "ELF\x02\x01\x01\0\0\0\0\0",
              12);
  EXPECT_READ(path, BB_ERR_INPUT, "bad magic", NULL);
  write_binary(path, "BBSMPBIN", 2, 3, 2, 0, ids, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "bad header: unsupported version 2", NULL);
  write_binary(path, "BBSMPBIN", 1, 0, 2, 0, ids, 0);
  EXPECT_READ(path, BB_ERR_INPUT, "bad header: n = 0 is out of range", NULL);
  write_binary(path, "BBSMPBIN", 1, 3, 3, 0, ids, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "bad header: id width 3 bytes", NULL);
  write_binary(path, "BBSMPBIN", 1, 70000, 2, 0, ids, 0);
  EXPECT_READ(path, BB_ERR_INPUT, "bad header: id width 2 bytes is invalid for n = 70000", NULL);
  write_binary(path, "BBSMPBIN", 1, 3, 2, 5, ids, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "bad header: reserved field is 5", NULL);
  write_bytes(path, "BBSMPBIN\x01\0\0\0\x03\0", 14);
  EXPECT_READ(path, BB_ERR_INPUT, "truncated file: expected at least 24 bytes", NULL);
  write_binary(path, "BBSMPBIN", 1, 3, 2, 0, ids, 17);
  EXPECT_READ(path, BB_ERR_INPUT, "truncated file: expected 60 bytes for n = 3, got 58", NULL);
  write_binary(path, "BBSMPBIN", 1, 2000000, 4, 0, ids, 0);
  EXPECT_READ(path, BB_ERR_NOMEM, "n = 2000000", "memory");

  uint32_t more[19];
  memcpy(more, ids, sizeof ids);
  more[18] = 0;
  write_binary(path, "BBSMPBIN", 1, 3, 2, 0, more, 19);
  EXPECT_READ(path, BB_ERR_INPUT, "extra data after the women's rows: expected 60 bytes for n = 3, got 62", NULL);

  uint32_t dup[18], range[18];
  memcpy(dup, ids, sizeof ids);
  memcpy(range, ids, sizeof ids);
  dup[11] = 0;      /* woman 0: 1 0 0 */
  range[4] = 70000; /* man 1, position 1 */
  write_binary(path, "BBSMPBIN", 1, 3, 2, 0, dup, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "case.bin: woman 0's list, position 2: id 0 appears twice", NULL);
  write_binary(path, "BBSMPBIN", 1, 3, 4, 0, range, 18);
  EXPECT_READ(path, BB_ERR_INPUT, "case.bin: man 1's list, position 1: id 70000 is out of range 0..2", NULL);
}

static void test_io_errors(void) {
  EXPECT_READ(tmp_path("no-such-file.txt"), BB_ERR_IO, "cannot open", "No such file");
  EXPECT_READ(tmp_dir, BB_ERR_IO, NULL, NULL); /* a directory */
  bb_instance *inst = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(BB_GEN_CONGESTED, 4, 1, 1, 1, &inst, &err) == BB_OK);
  CHECK(bb_instance_write_text(inst, tmp_path("missing-dir/x.txt"), &err) == BB_ERR_IO);
  CHECK(strstr(err.msg, "cannot open") != NULL);
  CHECK(bb_instance_write_binary(inst, tmp_path("missing-dir/x.bin"), &err) == BB_ERR_IO);
  if (access("/dev/full", W_OK) == 0) {
    CHECK(bb_instance_write_text(inst, "/dev/full", &err) == BB_ERR_IO);
    CHECK(strstr(err.msg, "cannot write '/dev/full'") != NULL);
  }
  bb_instance_free(inst);
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *data = NULL;
  *len = 0;
  if (!f) return NULL;
  size_t cap = 0, got;
  do {
    if (*len == cap) {
      char *grown = realloc(data, cap = cap ? 2 * cap : 1 << 16);
      if (!grown) break;
      data = grown;
    }
    got = fread(data + *len, 1, cap - *len, f);
    *len += got;
  } while (got);
  fclose(f);
  return data;
}

/* base/io_writer: what it writes, across buffer boundaries, and every failure named. */
/* A stream that yields the first `good` bytes of a file and then fails with EIO. */
typedef struct failing {
  const char *data;
  size_t len, good, at;
} failing;
static ssize_t failing_read(void *c, char *buf, size_t size) {
  failing *f = c;
  if (f->at >= f->good) {
    errno = EIO;
    return -1;
  }
  size_t n = f->good - f->at < size ? f->good - f->at : size;
  memcpy(buf, f->data + f->at, n);
  f->at += n;
  return (ssize_t)n;
}

/* Reads the binary file at `path` through a stream that fails halfway, past the header. */
static bb_status read_failing(const char *path, int family, bb_error *err) {
  size_t len = 0;
  char *data = read_all(path, &len);
  failing f = {data, len, len / 2, 0};
  CHECKF(data && len / 2 > 48, "%s: %zu bytes", path, len);
  FILE *stream = fopencookie(&f, "rb", (cookie_io_functions_t){.read = failing_read});
  reader r;
  bb_status st = bb_reader_open_stream(&r, stream, "failing.bin", err);
  if (st == BB_OK) {
    void *inst = NULL;
    st = family == 0   ? bb_hr_read_from(&r, (bb_hr **)&inst, err)
         : family == 1 ? bb_hrc_read_from(&r, (bb_hrc **)&inst, err)
                       : bb_ties_read_from(&r, (bb_ties **)&inst, err);
    CHECK(inst == NULL);
    bb_reader_close(&r);
  }
  free(data);
  return st;
}

/* Every binary list format names the cause of a read error, as the complete format does. */
static void test_list_read_errors(void) {
  const char *path = tmp_path("lists.bin");
  bb_error err = {{0}};
  bb_hr_gen_params hp;
  bb_hr_gen_defaults(&hp);
  hp.n_residents = hp.n_hospitals = 50;
  bb_hrc_gen_params cp;
  bb_hrc_gen_mmt2017(&cp, 50, 10, 10);
  bb_ties_gen_params tp;
  bb_ties_gen_defaults(BB_TIES_GEN_SMTI, &tp);
  tp.n_residents = tp.n_hospitals = 50;
  char want[128];
  snprintf(want, sizeof want, "failing.bin: read error: %s", strerror(EIO));
  for (int family = 0; family < 3; family++) {
    bb_status st = BB_ERR_ARG;
    if (family == 0) {
      bb_hr *inst = NULL;
      if (bb_hr_generate(&hp, &inst, &err) == BB_OK) st = bb_hr_write_binary(inst, path, &err);
      bb_hr_free(inst);
    } else if (family == 1) {
      bb_hrc *inst = NULL;
      if (bb_hrc_generate(&cp, &inst, &err) == BB_OK) st = bb_hrc_write_binary(inst, path, &err);
      bb_hrc_free(inst);
    } else {
      bb_ties *inst = NULL;
      if (bb_ties_generate(&tp, &inst, &err) == BB_OK) st = bb_ties_write_binary(inst, path, &err);
      bb_ties_free(inst);
    }
    CHECKF(st == BB_OK, "family %d: %s", family, err.msg);
    if (st != BB_OK) continue;
    st = read_failing(path, family, &err);
    CHECKF(st == BB_ERR_IO && !strcmp(err.msg, want), "family %d: %s \"%s\", want \"%s\"", family, bb_status_name(st),
           err.msg, want);
  }
  remove(path);
}

static void test_writer(void) {
  enum { IDS = 300000 }; /* 1.2 MB of 4-byte ids: more than one BB_IO_CHUNK */
  uint32_t *ids = malloc(IDS * sizeof *ids);
  char *text = malloc(BB_IO_CHUNK + 2);
  CHECK(ids && text);
  if (!ids || !text) return;
  for (uint32_t i = 0; i < IDS; i++) ids[i] = i * 2654435761u;
  memset(text, 'x', BB_IO_CHUNK + 1);
  text[BB_IO_CHUNK + 1] = '\0';

  const char *path = tmp_path("writer.bin");
  writer w;
  bb_error err = {{0}};
  CHECK(bb_writer_open(&w, path, "wb", &err) == BB_OK);
  bb_writer_put_text(&w, "hr ");
  bb_writer_put_uint(&w, 0, ' ');
  bb_writer_put_uint(&w, UINT64_MAX, '\0');
  bb_writer_put_uint(&w, 4294967295u, '\n');
  bb_writer_put_u32(&w, 0x04030201u);
  bb_writer_put_ids(&w, ids, IDS, 4);
  bb_writer_put_ids(&w, ids, 3, 2);
  bb_writer_put_text(&w, text);
  CHECK(bb_writer_close(&w, &err) == BB_OK);

  size_t len = 0;
  char *got = read_all(path, &len);
  const char head[] = "hr 0 184467440737095516154294967295\n\x01\x02\x03\x04";
  size_t want_len = (sizeof head - 1) + 4 * (size_t)IDS + 2 * 3 + BB_IO_CHUNK + 1;
  CHECKF(got && len == want_len, "writer wrote %zu bytes, want %zu", len, want_len);
  if (got && len == want_len) {
    const unsigned char *p = (const unsigned char *)got;
    CHECK(memcmp(p, head, sizeof head - 1) == 0);
    p += sizeof head - 1;
    int same = 1;
    for (uint32_t i = 0; i < IDS; i++, p += 4)
      same &= ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24) == ids[i];
    for (uint32_t i = 0; i < 3; i++, p += 2) same &= ((uint32_t)p[0] | (uint32_t)p[1] << 8) == (ids[i] & 0xffffu);
    for (size_t i = 0; i <= BB_IO_CHUNK; i++) same &= p[i] == 'x';
    CHECK(same);
  }
  free(got);
  remove(path);

  /* A missing folder: nothing opened, the path named. */
  CHECK(bb_writer_open(&w, tmp_path("missing-dir/w.txt"), "w", &err) == BB_ERR_IO);
  CHECK(strstr(err.msg, "cannot open '") && strstr(err.msg, "missing-dir/w.txt' for writing"));
  if (access("/dev/full", W_OK) == 0) {
    /* Found at close (all in the buffer) and part way (more than a buffer). */
    for (int big = 0; big < 2; big++) {
      err.msg[0] = '\0';
      CHECK(bb_writer_open(&w, "/dev/full", "wb", &err) == BB_OK);
      bb_writer_put_text(&w, "hrc ");
      if (big) bb_writer_put_ids(&w, ids, IDS, 4);
      CHECK(bb_writer_close(&w, &err) == BB_ERR_IO);
      CHECKF(strstr(err.msg, "cannot write '/dev/full': No space left"), "got \"%s\"", err.msg);
    }
  }
  free(ids);
  free(text);
}

/* "-" reads standard input, in either format. */
static void test_stdin(void) {
  bb_instance *inst = NULL, *back = NULL;
  bb_error err = {{0}};
  CHECK(bb_generate(BB_GEN_RANDOM, 20, 4, 9, 1, &inst, &err) == BB_OK);
  const char *formats[] = {"stdin.txt", "stdin.bin"};
  for (int i = 0; i < 2; i++) {
    const char *path = tmp_path(formats[i]);
    CHECK((i ? bb_instance_write_binary : bb_instance_write_text)(inst, path, &err) == BB_OK);
    int reopened = freopen(path, "rb", stdin) != NULL;
    CHECKF(reopened, "cannot reopen stdin from %s", path);
    if (!reopened) return;
    CHECK(bb_instance_read("-", &back, &err) == BB_OK);
    CHECK(back && tu_same(inst, back));
    bb_instance_free(back);
    back = NULL;
  }
  bb_instance_free(inst);
}

/* Not a pass/fail test: how fast the text reader goes on this machine. */
static void measure_text_speed(void) {
  int n = 2000;
  bb_instance *inst = NULL, *back = NULL;
  if (bb_generate(BB_GEN_UNIFORM, n, n, 3, 0, &inst, NULL) != BB_OK) return;
  const char *path = tmp_path("speed.txt");
  double t0 = bb_now();
  CHECK(bb_instance_write_text(inst, path, NULL) == BB_OK);
  double t1 = bb_now();
  CHECK(bb_instance_read(path, &back, NULL) == BB_OK);
  double t2 = bb_now();
  FILE *f = fopen(path, "rb");
  long bytes = 0;
  if (f && fseek(f, 0, SEEK_END) == 0) bytes = ftell(f);
  if (f) fclose(f);
  printf("text n=%d (%.1f MB): write %.0f MB/s, read %.0f MB/s\n", n, bytes / 1e6, bytes / 1e6 / (t1 - t0),
         bytes / 1e6 / (t2 - t1));
  CHECK(back && tu_same(inst, back));
  remove(path);
  bb_instance_free(back);
  bb_instance_free(inst);
}

/* Random corruptions of valid files: the reader returns a status, never crashes, and
 * whatever it accepts is a valid instance. Run under BAMBOO_SANITIZE for full value. */
static void fuzz(void) {
  bb_instance *inst = NULL;
  if (bb_generate(BB_GEN_RANDOM, 5, 2, 77, 1, &inst, NULL) != BB_OK) return;
  const char *path = tmp_path("fuzz.in");
  uint64_t state = 12345;
  int accepted = 0;
  for (int binary = 0; binary < 2; binary++) {
    CHECK((binary ? bb_instance_write_binary : bb_instance_write_text)(inst, path, NULL) == BB_OK);
    FILE *f = fopen(path, "rb");
    unsigned char orig[512];
    size_t len = f ? fread(orig, 1, sizeof orig, f) : 0;
    if (f) fclose(f);
    for (int iter = 0; iter < 1500; iter++) {
      unsigned char buf[520];
      size_t cur = len;
      memcpy(buf, orig, len);
      int edits = 1 + iter % 4;
      for (int e = 0; e < edits; e++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(state >> 33);
        size_t at = cur ? r % cur : 0;
        switch ((r >> 24) % 4) {
          case 0: buf[at] = (unsigned char)(r >> 8); break; /* overwrite */
          case 1: cur = at; break;                          /* truncate */
          case 2: buf[at] = binary ? (unsigned char)(buf[at] ^ 1) : "0123456789 \n#-x"[r % 16]; break;
          default: /* insert */
            if (cur < sizeof buf) {
              memmove(buf + at + 1, buf + at, cur - at);
              buf[at] = "0123456789 \n#-"[r % 15];
              cur++;
            }
        }
      }
      write_bytes(path, buf, cur);
      bb_instance *got = NULL;
      bb_error err = {{0}};
      bb_status st = bb_instance_read(path, &got, &err);
      CHECK((st == BB_OK) == (got != NULL));
      CHECK(st == BB_OK || err.msg[0] != '\0');
      if (got) {
        CHECK(bb_instance_validate(got, NULL) == BB_OK);
        accepted++;
      }
      bb_instance_free(got);
    }
  }
  printf("fuzz: %d of 3000 corrupted files still valid instances\n", accepted);
  remove(path);
  bb_instance_free(inst);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_io DATA_DIR\n");
    return 2;
  }
  data_dir = argv[1];
  const char *base = getenv("TMPDIR");
  snprintf(tmp_dir, sizeof tmp_dir, "%s/bamboo-test-io-XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(tmp_dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_round_trips();
  test_good_text_files();
  test_bad_text_files();
  test_binary_files();
  test_io_errors();
  test_writer();
  test_list_read_errors();
  fuzz();
  measure_text_speed();
  test_stdin();

  const char *names[] = {"round.txt", "round.bin", "case.bin", "stdin.txt", "stdin.bin"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) remove(tmp_path(names[i]));
  rmdir(tmp_dir);
  return tu_finish();
}
