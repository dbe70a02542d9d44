/* The GPU list of the constraint's parallel path (smc_gpus.c, bb_smc_set_gpus; fzn-bamboo's
 * --gpus):
 *   - the slot arithmetic (one prefs->accel slot per list entry, the emulation's slot apart)
 *     and the round-robin assignment of entries to threads (pure C);
 *   - list parsing and validation: good lists, and bad ones refused with BB_ERR_ARG and a
 *     message naming the problem, the list in force unchanged;
 *   - threads: each takes the next entry on its first call and keeps it, its device is its
 *     entry's, and setting the list again makes threads take new entries;
 *   - search threads (host threads, each a depth-first search on the toy host of smc_toy.h)
 *     on shared constraints, the list {0 x entries}: every thread's search gives the same
 *     digest (domains and results after every propagation) as one search on the CPU path,
 *     and each entry that a thread used has its own copy (prefs->accel slot); the threads of an
 *     entry on a device that cannot be opened propagate on the CPU, the others on the GPU.
 * Without arguments the searches run on the CPU emulation (one slot, whatever the list) and on
 * the GPU path, which without a GPU (CI) must fall back to the CPU per entry with identical
 * results; `test_smc_gpus gpu` runs them on the GPU with 1, 2 and 4 entries on device 0 and 1, 2
 * and 4 threads, and 2 entries of which one is a missing device; it exits 77 without a GPU. */
#include "smc.h"
#include "smc_internal.h"
#include "smc_tuning.h"
#include "bth_sm.h"
#include "smc_toy.h"
#include "test_util.h"

#include "bb_gpu.h"

#include <pthread.h>
#include <stdio.h>

static void slot_arithmetic(void) {
  bool used[BB_SMC_ACCEL_SLOTS] = {false};
  for (int e = 0; e < BB_SMC_MAX_GPU_ENTRIES; e++) {
    CHECKF(bb_smc_accel_slot(BB_SMC_PATH_EMULATED, e) == 0, "the emulation's slot moved with entry %d", e);
    int s = bb_smc_accel_slot(BB_SMC_PATH_GPU, e);
    CHECKF(s >= 1 && s < BB_SMC_ACCEL_SLOTS && !used[s], "entry %d: slot %d (taken or out of 1..%d)", e, s,
           BB_SMC_ACCEL_SLOTS - 1);
    if (s >= 0 && s < BB_SMC_ACCEL_SLOTS) used[s] = true;
  }
}

static void round_robin(void) {
  for (int entries = 1; entries <= BB_SMC_MAX_GPU_ENTRIES; entries++) {
    int count[BB_SMC_MAX_GPU_ENTRIES] = {0};
    for (int t = 0; t < 5 * entries; t++) {
      int e = bb_smc_gpu_entry_for(t, entries);
      CHECKF(e >= 0 && e < entries, "ticket %d of %d entries: entry %d", t, entries, e);
      if (e >= 0 && e < entries) count[e]++;
      CHECKF(entries == 1 || e != bb_smc_gpu_entry_for(t + 1, entries), "tickets %d and %d share an entry of %d", t,
             t + 1, entries);
    }
    for (int e = 0; e < entries; e++)
      CHECKF(count[e] == 5, "%d entries: entry %d got %d of %d threads", entries, e, count[e], 5 * entries);
  }
}

static void expect_parse(const char *text, int count, const int *want) {
  int got[BB_SMC_MAX_GPU_ENTRIES], n = -1;
  bb_error err = {{0}};
  bb_status st = bb_smc_parse_gpus(text, got, &n, &err);
  CHECKF(st == BB_OK && n == count && memcmp(got, want, (size_t)count * sizeof *got) == 0,
         "'%s': status %d, %d entries (%s)", text, (int)st, n, err.msg);
}

static void expect_refused(const char *text, const char *needle) {
  int got[BB_SMC_MAX_GPU_ENTRIES], n;
  bb_error err = {{0}};
  bb_status st = bb_smc_parse_gpus(text, got, &n, &err);
  CHECKF(st == BB_ERR_ARG && strstr(err.msg, needle), "'%s': status %d, message '%s' lacks '%s'", text, (int)st,
         err.msg, needle);
}

static void parsing(void) {
  expect_parse("0", 1, (const int[]){0});
  expect_parse("0,1,0", 3, (const int[]){0, 1, 0});
  expect_parse("12,3", 2, (const int[]){12, 3});
  expect_parse("1023,0,0,0,0,0,0,7", 8, (const int[]){1023, 0, 0, 0, 0, 0, 0, 7});
  expect_refused("", "empty");
  expect_refused("x", "entry 1 is not a device id");
  expect_refused("0,-1", "entry 2 is not a device id");
  expect_refused(" 0", "entry 1 is not a device id");
  expect_refused("0,", "comma-separated");
  expect_refused("0 1", "comma-separated");
  expect_refused("1024", "above the largest device id 1023");
  expect_refused("0,0,0,0,0,0,0,0,0", "more than 8 entries");
  /* Setting: refused lists leave the list in force. */
  bb_error err = {{0}};
  const int two[2] = {3, 1}, bad[9] = {0}, negative[2] = {0, -2}, huge[1] = {BB_SMC_MAX_GPU_ID + 1};
  CHECK(bb_smc_set_gpus(two, 2, &err) == BB_OK);
  CHECKF(bb_smc_set_gpus(bad, 0, &err) == BB_ERR_ARG && strstr(err.msg, "1 to 8"), "no entries: %s", err.msg);
  CHECKF(bb_smc_set_gpus(bad, 9, &err) == BB_ERR_ARG && strstr(err.msg, "9 GPU entries"), "9 entries: %s", err.msg);
  CHECKF(bb_smc_set_gpus(negative, 2, &err) == BB_ERR_ARG && strstr(err.msg, "entry 2 is device -2"), "%s", err.msg);
  CHECKF(bb_smc_set_gpus(huge, 1, &err) == BB_ERR_ARG && strstr(err.msg, "device 1024"), "%s", err.msg);
  int now[BB_SMC_MAX_GPU_ENTRIES];
  CHECK(bb_smc_gpus(now, BB_SMC_MAX_GPU_ENTRIES) == 2 && now[0] == 3 && now[1] == 1);
}

/* --- Threads take entries. --- */
typedef struct taker {
  int entry, again, device, before;
} taker;

static void *take(void *arg) {
  taker *t = arg;
  t->before = bb_smc_gpu_entry_if_taken();
  t->entry = bb_smc_gpu_entry();
  t->device = bb_smc_accel_device();
  t->again = bb_smc_gpu_entry();
  return NULL;
}

static void thread_entries(void) {
  const int list[3] = {5, 0, 5};
  bb_error err = {{0}};
  CHECK(bb_smc_set_gpus(list, 3, &err) == BB_OK);
  enum { THREADS = 6 };
  taker t[THREADS];
  pthread_t id[THREADS];
  for (int k = 0; k < THREADS; k++) pthread_create(&id[k], NULL, take, &t[k]);
  for (int k = 0; k < THREADS; k++) pthread_join(id[k], NULL);
  int count[3] = {0};
  for (int k = 0; k < THREADS; k++) {
    CHECKF(t[k].before == -1, "thread %d had entry %d before its first call", k, t[k].before);
    CHECKF(t[k].entry >= 0 && t[k].entry < 3 && t[k].again == t[k].entry, "thread %d: entry %d, then %d", k, t[k].entry,
           t[k].again);
    if (t[k].entry >= 0 && t[k].entry < 3) {
      count[t[k].entry]++;
      CHECKF(t[k].device == list[t[k].entry], "thread %d: entry %d on device %d", k, t[k].entry, t[k].device);
    }
  }
  for (int e = 0; e < 3; e++) CHECKF(count[e] == 2, "entry %d: %d of %d threads", e, count[e], THREADS);
  CHECKF(bb_smc_gpu_threads() == THREADS, "%d threads took an entry, %d ran", bb_smc_gpu_threads(), THREADS);
  /* A new list: this thread's entry lapses and the counting starts again. */
  int mine = bb_smc_gpu_entry();
  const int two[2] = {0, 0};
  CHECK(bb_smc_set_gpus(two, 2, &err) == BB_OK);
  CHECKF(bb_smc_gpu_entry_if_taken() == -1 && bb_smc_gpu_threads() == 0, "entry %d kept over a new list", mine);
  CHECK(bb_smc_gpu_entry() == 0);
  pthread_create(&id[0], NULL, take, &t[0]);
  pthread_join(id[0], NULL);
  CHECKF(t[0].entry == 1 && t[0].device == 0, "the second thread of the new list: entry %d", t[0].entry);
}

/* --- Search threads on shared constraints. --- */
enum { INSTANCES = 6, BUDGET = 400 };
static const int sizes[INSTANCES] = {5, 8, 12, 30, 64, 150};

typedef struct searcher {
  bb_smc_prefs *const *prefs;
  bb_smc_path path;
  uint64_t digest[INSTANCES][2];
  long propagations, on_path; /* propagations, and those that ran on `path` */
  bool setup_failed;
  int entry; /* the GPU list entry the thread took (-1: none) */
} searcher;

static void mix(uint64_t *h, const void *data, size_t bytes) {
  const unsigned char *c = data;
  for (size_t k = 0; k < bytes; k++) *h = (*h ^ c[k]) * 0x100000001b3ull;
}

/* A depth-first search with decisions drawn from the domains (so identical propagations give
 * identical trees): every propagation's result and domains go into the digest. */
static void dfs(searcher *S, const bb_smc_prefs *p, bb_smc_strength strength, bb_smc_scratch *s, toy_node *t,
                uint64_t *rng, int *budget, uint64_t *h) {
  if ((*budget)-- <= 0) return;
  bb_smc_domains d = toy_domains(&t->dom);
  bb_smc_run_info info = {0};
  bb_smc_status r = bb_smc_propagate_on(p, strength, S->path, t->smc, s, &d, NULL, &info);
  S->propagations++;
  S->on_path += info.path == S->path;
  mix(h, &r, sizeof r);
  if (r == BB_SMC_FAILED) return;
  mix(h, t->dom.in, (size_t)t->dom.vars * (size_t)t->dom.n);
  int var = -1;
  for (int v = 0; v < t->dom.vars && var < 0; v++)
    if (toy_min(&t->dom, v) != toy_max(&t->dom, v)) var = v;
  if (var < 0) return;
  int lo = toy_min(&t->dom, var), hi = toy_max(&t->dom, var), value;
  do value = lo + (int)(tu_rand(rng) % (uint64_t)(hi - lo + 1));
  while (!toy_contains(&t->dom, var, value));
  for (int branch = 0; branch < 2; branch++) {
    toy_node c = node_copy(t);
    if (branch == 0)
      toy_assign(&c.dom, var, value);
    else
      toy_remove(&c.dom, var, value);
    if (branch == 1 && value > lo && value < hi)
      bb_smc_note_removed(s, var, value, value);
    else
      bb_smc_note_changed(s, var);
    dfs(S, p, strength, s, &c, rng, budget, h);
    bb_smc_scratch_clear(s);
    node_free(&c);
  }
}

static void *search_all(void *arg) {
  searcher *S = arg;
  for (int i = 0; i < INSTANCES; i++)
    for (int g = 0; g < 2; g++) {
      bb_error err = {{0}};
      bb_smc_scratch *s = bb_smc_scratch_for(S->prefs[i], &err);
      if (!s) {
        S->setup_failed = true;
        continue;
      }
      toy_node root = node_new(sizes[i]);
      uint64_t rng = 2100 + (uint64_t)(i * 2 + g), h = 0xcbf29ce484222325ull;
      int budget = BUDGET;
      dfs(S, S->prefs[i], g ? BB_SMC_MEN_PROPOSING : BB_SMC_GS_LISTS, s, &root, &rng, &budget, &h);
      S->digest[i][g] = h;
      node_free(&root);
      bb_smc_scratch_free(s);
    }
  S->entry = bb_smc_gpu_entry_if_taken();
  return NULL;
}

/* `threads` searches at once on `path` with the list {0 x entries} (entry `bad`, if >= 0, on a
 * device that cannot be opened), against one on the CPU. gpu: whether the GPU path must really
 * run on good entries (else every thread falls back to the CPU, as on a bad entry). */
static void threads_on_list(bb_smc_path path, int entries, int bad, int threads, bool gpu) {
  bb_smc_prefs *prefs[INSTANCES];
  uint64_t seed = 21;
  for (int i = 0; i < INSTANCES; i++) {
    int n = sizes[i], *pm = malloc(sizeof(int) * (size_t)(n * n)), *pw = malloc(sizeof(int) * (size_t)(n * n));
    bth_sm_random(n, &seed, pm, pw);
    bb_error err;
    prefs[i] = bb_smc_prefs_new(n, n, pm, n, n, pw, n, n, &err);
    CHECKF(prefs[i] != NULL, "%s", err.msg);
    free(pm);
    free(pw);
  }
  searcher reference = {prefs, BB_SMC_PATH_CPU, {{0}}, 0, 0, false, -1};
  search_all(&reference);
  int list[BB_SMC_MAX_GPU_ENTRIES] = {0};
  if (bad >= 0) list[bad] = BB_SMC_MAX_GPU_ID;
  bb_error err = {{0}};
  CHECK(bb_smc_set_gpus(list, entries, &err) == BB_OK);
  searcher S[8];
  pthread_t id[8];
  for (int k = 0; k < threads; k++) {
    S[k] = (searcher){prefs, path, {{0}}, 0, 0, false, -1};
    pthread_create(&id[k], NULL, search_all, &S[k]);
  }
  for (int k = 0; k < threads; k++) pthread_join(id[k], NULL);
  long on_path = 0, propagations = 0;
  for (int k = 0; k < threads; k++) {
    CHECK(!S[k].setup_failed);
    CHECKF(memcmp(S[k].digest, reference.digest, sizeof reference.digest) == 0,
           "%s, %d entries, thread %d of %d: the searches differ from the CPU path's", bb_smc_path_name(path), entries,
           k, threads);
    CHECKF(S[k].propagations == reference.propagations, "thread %d: %ld propagations, the CPU path %ld", k,
           S[k].propagations, reference.propagations);
    on_path += S[k].on_path;
    propagations += S[k].propagations;
    bool runs = path == BB_SMC_PATH_EMULATED || (gpu && S[k].entry != bad);
    CHECKF(S[k].on_path == (runs ? S[k].propagations : 0),
           "thread %d (entry %d): %ld of %ld propagations on the %s path", k, S[k].entry, S[k].on_path,
           S[k].propagations, bb_smc_path_name(path));
  }
  /* The copies: the emulation has one slot; the GPU path one per entry its threads took. */
  int used = threads < entries ? threads : entries;
  CHECKF(path != BB_SMC_PATH_GPU || bb_smc_gpu_threads() == threads, "%d of %d threads took an entry",
         bb_smc_gpu_threads(), threads);
  for (int i = 0; i < INSTANCES; i++)
    for (int slot = 0; slot < BB_SMC_ACCEL_SLOTS; slot++) {
      bool want = path == BB_SMC_PATH_EMULATED ? slot == 0 : slot >= 1 && slot <= used;
      bool made = atomic_load(&prefs[i]->accel[slot]) != NULL;
      CHECKF(made == want, "%s, %d entries, %d threads, n %d: slot %d %s", bb_smc_path_name(path), entries, threads,
             sizes[i], slot, made ? "made but not wanted" : "not made");
    }
  for (int i = 0; i < INSTANCES; i++) bb_smc_prefs_release(prefs[i]);
  printf("%s path, %d entries%s, %d threads: %ld propagations, %ld on it, every search equal to the CPU path's\n",
         bb_smc_path_name(path), entries, bad >= 0 ? " (one on a missing device)" : "", threads, propagations, on_path);
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  bool gpu = argc > 1 && !strcmp(argv[1], "gpu");
  if (gpu) {
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) {
      printf("skipped: %s\n", why);
      return 77;
    }
  }
  slot_arithmetic();
  round_robin();
  parsing();
  thread_entries();
  if (gpu) {
    threads_on_list(BB_SMC_PATH_GPU, 1, -1, 1, true);
    threads_on_list(BB_SMC_PATH_GPU, 2, -1, 2, true);
    threads_on_list(BB_SMC_PATH_GPU, 2, -1, 4, true);
    threads_on_list(BB_SMC_PATH_GPU, 4, -1, 4, true);
    threads_on_list(BB_SMC_PATH_GPU, 4, -1, 2, true);
    threads_on_list(BB_SMC_PATH_GPU, 2, 1, 4, true); /* entry 1 falls back, entry 0 runs */
  } else {
    threads_on_list(BB_SMC_PATH_EMULATED, 2, -1, 2, false);
    threads_on_list(BB_SMC_PATH_EMULATED, 3, -1, 4, false);
    char why[256];
    if (!bb_gpu_probe(0, why, sizeof why)) { /* the fallback, per entry */
      threads_on_list(BB_SMC_PATH_GPU, 2, -1, 2, false);
      threads_on_list(BB_SMC_PATH_GPU, 2, 1, 4, false);
    }
  }
  return tu_finish();
}
