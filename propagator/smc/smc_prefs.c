/* The Stable Marriage constraint's preference data: validated once at post time, then
 * shared read-only by every search node and thread (reference counted). */
#include "smc_internal.h"
#include "parallel.h"

#include <stdatomic.h>

#include <stdlib.h>
#include <string.h>

const char *bb_smc_strength_name(bb_smc_strength strength) {
  return strength == BB_SMC_MEN_PROPOSING ? "men-proposing" : "gs-lists";
}

bool bb_smc_strength_parse(const char *name, bb_smc_strength *out) {
  if (strcmp(name, "gs-lists") == 0)
    *out = BB_SMC_GS_LISTS;
  else if (strcmp(name, "men-proposing") == 0)
    *out = BB_SMC_MEN_PROPOSING;
  else
    return false;
  return true;
}

/* Smallest entry of a matrix: its base, if the matrix is valid. */
static int matrix_min(const int *m, size_t cells) {
  int lo = cells ? m[0] : 0;
  for (size_t c = 1; c < cells; c++)
    if (m[c] < lo) lo = m[c];
  return lo;
}

/* Checks every row of an n x n matrix is a permutation of base..base+n-1 and fills the
 * 0-based list (in place when m is the list itself) and, when rank_of is set, its inverse
 * (rank_of[p * n + q] = position of q in p's row). Without rank_of, row_seen (n ints) is the
 * scratch of the check. */
static bb_status load_rows(const char *name, const char *who, const int *m, int n, int base, int32_t *list,
                           int32_t *rank_of, int32_t *row_seen, bb_error *err) {
  for (size_t p = 0; p < (size_t)n; p++) {
    int32_t *rank_row = rank_of ? rank_of + p * (size_t)n : row_seen;
    for (int q = 0; q < n; q++) rank_row[q] = -1;
    for (int k = 0; k < n; k++) {
      int v = m[p * (size_t)n + (size_t)k];
      if (v < base || v - base >= n)
        return bb_fail(err, BB_ERR_INPUT,
                       "stable_matching: %s row %d (%s %d's list): value %d at column %d is "
                       "outside %d..%d",
                       name, (int)p + base, who, (int)p + base, v, k + base, base, base + n - 1);
      int q = v - base;
      if (rank_row[q] >= 0)
        return bb_fail(err, BB_ERR_INPUT,
                       "stable_matching: %s row %d (%s %d's list) is not a permutation of "
                       "%d..%d: %d appears at columns %d and %d",
                       name, (int)p + base, who, (int)p + base, base, base + n - 1, v, (int)rank_row[q] + base,
                       k + base);
      rank_row[q] = k;
      list[p * (size_t)n + (size_t)k] = q;
    }
  }
  return BB_OK;
}

/* The build of the complete form runs its row loops on every core: at n = 10000 they touch
 * 1.6 GB, and the partner-rank matrices are most of the time between parsing and search.
 * Rows are independent; the tile transpose is split by tile rows (the pair of tiles across
 * the diagonal belongs to the upper one's row, so no two threads touch a tile). */
enum { TILE = 64 };

typedef struct build_job {
  const int *m;
  int n, base;
  int32_t *list, *rank_of, *m_out;
  const int32_t *choice;
  int32_t *scratch; /* threads x n */
  atomic_bool failed;
} build_job;

static int build_threads(int n) {
  int t = bb_cpu_count();
  if ((int64_t)n * n < (1 << 20)) return 1; /* small instances: threads cost more than they save */
  return t < 1 ? 1 : t > 64 ? 64 : t;
}

/* Checks rows (and fills rank_of, when set) without writing the list, so that a bad input
 * stays intact for the sequential check's message. */
static void check_rows_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
  build_job *j = ctx;
  size_t N = (size_t)j->n;
  int32_t *seen = j->scratch + (size_t)tid * N;
  for (size_t p = (size_t)begin; p < (size_t)end && !atomic_load_explicit(&j->failed, memory_order_relaxed); p++) {
    int32_t *rank_row = j->rank_of ? j->rank_of + p * N : seen;
    for (size_t q = 0; q < N; q++) rank_row[q] = -1;
    for (size_t k = 0; k < N; k++) {
      int v = j->m[p * N + k];
      if (v < j->base || v - j->base >= j->n || rank_row[v - j->base] >= 0) {
        atomic_store(&j->failed, true);
        return;
      }
      rank_row[v - j->base] = (int32_t)k;
    }
  }
}

static void to_list_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  build_job *j = ctx;
  size_t N = (size_t)j->n;
  for (size_t c = (size_t)begin * N; c < (size_t)end * N; c++) j->list[c] = j->m[c] - j->base;
}

/* load_rows on all threads: the rows are checked first, and only a valid matrix is written
 * as the 0-based list (nothing to write when it is that already). On a bad row the
 * sequential load_rows runs on the intact input, so the message is the one of the first bad
 * row, whatever the thread count. */
static bb_status load_rows_parallel(const char *name, const char *who, const int *m, int n, int base, int32_t *list,
                                    int32_t *rank_of, int32_t *row_seen, bb_error *err) {
  int threads = build_threads(n);
  int32_t *scratch = threads > 1 ? malloc((size_t)threads * (size_t)n * sizeof *scratch) : NULL;
  if (!scratch) return load_rows(name, who, m, n, base, list, rank_of, row_seen, err);
  build_job j = {.m = m, .n = n, .base = base, .list = list, .rank_of = rank_of, .scratch = scratch};
  atomic_init(&j.failed, false);
  bb_parallel_for(threads, n, check_rows_chunk, &j);
  free(scratch);
  if (atomic_load(&j.failed)) return load_rows(name, who, m, n, base, list, rank_of, row_seen, err);
  if ((const int *)list != m || base != 0) bb_parallel_for(threads, n, to_list_chunk, &j);
  return BB_OK;
}

static void invert_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  build_job *j = ctx;
  size_t N = (size_t)j->n;
  for (size_t p = (size_t)begin; p < (size_t)end; p++)
    for (size_t k = 0; k < N; k++) j->rank_of[p * N + (size_t)j->choice[p * N + k]] = (int32_t)k;
}

/* The inverse of each (valid) row: rank_of[p][list[p][k]] = k. */
static void invert_rows(const int32_t *list, int32_t *rank_of, int n) {
  build_job j = {.n = n, .choice = list, .rank_of = rank_of};
  bb_parallel_for(build_threads(n), n, invert_chunk, &j);
}

static void transpose_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
  (void)tid;
  build_job *j = ctx;
  size_t N = (size_t)j->n;
  int32_t *m = j->m_out;
  for (size_t t = (size_t)begin; t < (size_t)end; t++) {
    size_t p0 = t * TILE;
    for (size_t q0 = p0; q0 < N; q0 += TILE) {
      size_t p1 = p0 + TILE < N ? p0 + TILE : N, q1 = q0 + TILE < N ? q0 + TILE : N;
      for (size_t p = p0; p < p1; p++)
        for (size_t q = q0 > p + 1 ? q0 : p + 1; q < q1; q++) {
          int32_t x = m[p * N + q];
          m[p * N + q] = m[q * N + p];
          m[q * N + p] = x;
        }
    }
  }
}

static void permute_chunk(void *ctx, int64_t begin, int64_t end, int tid) {
  build_job *j = ctx;
  size_t N = (size_t)j->n;
  int32_t *row_tmp = j->scratch + (size_t)tid * N;
  for (size_t p = (size_t)begin; p < (size_t)end; p++) {
    int32_t *row = j->m_out + p * N;
    memcpy(row_tmp, row, N * sizeof *row);
    const int32_t *wants = j->choice + p * N;
    for (size_t k = 0; k < N; k++) row[k] = row_tmp[wants[k]];
  }
}

/* In place: m holds other_rank on entry and partner_rank on exit, partner_rank[p][k] =
 * other_rank[choice[p][k]][p]. Reading other_rank by columns misses the cache and the TLB on
 * every read, so: transpose m in place in 64 x 64 tiles (pairs of tiles swapped across the
 * diagonal), then permute each row through choice using one row of scratch per thread
 * (an order of magnitude faster; docs/constraint.md). In place, the data never needs a
 * third n x n matrix.
 * row_tmp (n ints) is the scratch when no more can be had. */
static void to_partner_ranks(const int32_t *choice, int32_t *m, int32_t *row_tmp, int n) {
  int threads = build_threads(n);
  int32_t *scratch = threads > 1 ? malloc((size_t)threads * (size_t)n * sizeof *scratch) : NULL;
  if (!scratch) threads = 1;
  build_job j = {.n = n, .choice = choice, .m_out = m, .scratch = scratch ? scratch : row_tmp};
  bb_parallel_for(threads, ((int64_t)n + TILE - 1) / TILE, transpose_chunk, &j);
  bb_parallel_for(threads, n, permute_chunk, &j);
  free(scratch);
}

/* An empty preference record with one reference and no accelerator: what both forms start
 * from (NULL when out of memory). */
static bb_smc_prefs *prefs_alloc(void) {
  bb_smc_prefs *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  atomic_init(&p->refs, 1);
  for (int k = 0; k < BB_SMC_ACCEL_SLOTS; k++) atomic_init(&p->accel[k], NULL);
  pthread_mutex_init(&p->accel_lock, NULL);
  return p;
}

/* The complete form's data from validated sizes: the choice matrices (men, women: n x n
 * each, owned from here on) are filled from pm / pw (values in `base`), or already hold the
 * 0-based lists when pm is NULL (bb_smc_prefs_adopt; checked here all the same). Each side's
 * inverse ranks become the other side's partner ranks in place, one side at a time: the
 * data kept and the peak are both 4 n^2 ints (beside the input of bb_smc_prefs_new). */
static bb_smc_prefs *build_complete(int n, int base, const int *pm, const int *pw, int32_t *men, int32_t *women,
                                    bb_error *err) {
  size_t cells = (size_t)n * (size_t)n;
  bb_smc_prefs *p = prefs_alloc();
  int32_t *woman_partner = bb_alloc_large(cells * sizeof *woman_partner),
          *row_tmp = malloc((size_t)n * sizeof *row_tmp);
  if (!p || !woman_partner || !row_tmp) {
    bb_smc_prefs_release(p), free(woman_partner), free(row_tmp), free(men), free(women);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for the preference data of n = %d (%.1f MiB)", n,
            4.0 * (double)cells * sizeof *men / 1048576.0);
    return NULL;
  }
  p->n = n;
  p->men = n;
  p->vars = 2 * n;
  p->room = n;
  p->base = base;
  p->man_choice = men;
  p->woman_choice = women;
  /* woman_partner = the men's inverse ranks, then (in place) the women's partner ranks. */
  bb_status st =
      load_rows_parallel("pm", "man", pm ? pm : (const int *)men, n, pm ? base : 0, men, woman_partner, NULL, err);
  if (st == BB_OK)
    st = load_rows_parallel("pw", "woman", pw ? pw : (const int *)women, n, pw ? base : 0, women, NULL, row_tmp, err);
  int32_t *man_partner = st == BB_OK ? bb_alloc_large(cells * sizeof *man_partner) : NULL;
  if (st == BB_OK && !man_partner)
    st = bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for the preference data of n = %d", n);
  if (st != BB_OK) {
    free(woman_partner), free(row_tmp);
    bb_smc_prefs_release(p);
    return NULL;
  }
  to_partner_ranks(women, woman_partner, row_tmp, n);
  invert_rows(women, man_partner, n); /* the women's inverse ranks, then the men's partner ranks */
  to_partner_ranks(men, man_partner, row_tmp, n);
  free(row_tmp);
  p->man_partner_rank = man_partner;
  p->woman_partner_rank = woman_partner;
  return p;
}

/* bb_smc_prefs_new's checks of the shape and the base; the base, or -1 after reporting. */
static int complete_base(int n_men, int n_women, const int *pm, int pm_rows, int pm_cols, const int *pw, int pw_rows,
                         int pw_cols, bb_error *err) {
  if (n_men != n_women) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching: %d men but %d women (the arrays must have the same length)", n_men,
            n_women);
    return -1;
  }
  int n = n_men;
  if (n < 1 || n > BB_MAX_N) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching: %d men; need 1..%d", n, BB_MAX_N);
    return -1;
  }
  if (pm_rows != n || pm_cols != n || pw_rows != n || pw_cols != n) {
    const char *which = (pm_rows != n || pm_cols != n) ? "pm" : "pw";
    int rows = which[1] == 'm' ? pm_rows : pw_rows, cols = which[1] == 'm' ? pm_cols : pw_cols;
    bb_fail(err, BB_ERR_INPUT, "stable_matching: %s is %d x %d but there are %d men and %d women (need %d x %d)", which,
            rows, cols, n, n, n, n);
    return -1;
  }
  size_t cells = (size_t)n * (size_t)n;
  int base_m = matrix_min(pm, cells), base_w = matrix_min(pw, cells);
  if (base_m != 0 && base_m != 1) {
    bb_fail(err, BB_ERR_INPUT,
            "stable_matching: pm's smallest value is %d; rows must be permutations of 0..%d or 1..%d", base_m, n - 1,
            n);
    return -1;
  }
  if (base_w != base_m) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching: mixed bases: pm is %d-based but pw's smallest value is %d", base_m,
            base_w);
    return -1;
  }
  return base_m;
}

bb_smc_prefs *bb_smc_prefs_new(int n_men, int n_women, const int *pm, int pm_rows, int pm_cols, const int *pw,
                               int pw_rows, int pw_cols, bb_error *err) {
  int base = complete_base(n_men, n_women, pm, pm_rows, pm_cols, pw, pw_rows, pw_cols, err);
  if (base < 0) return NULL;
  int n = n_men;
  size_t cells = (size_t)n * (size_t)n;
  int32_t *men = bb_alloc_large(cells * sizeof *men), *women = bb_alloc_large(cells * sizeof *women);
  if (!men || !women) {
    free(men);
    free(women);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching: out of memory for the preference data of n = %d (%.1f MiB)", n,
            4.0 * (double)cells * sizeof *men / 1048576.0);
    return NULL;
  }
  return build_complete(n, base, pm, pw, men, women, err);
}

bb_smc_prefs *bb_smc_prefs_take(int n_men, int n_women, int32_t *pm, int pm_rows, int pm_cols, int32_t *pw, int pw_rows,
                                int pw_cols, bb_error *err) {
  int base = complete_base(n_men, n_women, pm, pm_rows, pm_cols, pw, pw_rows, pw_cols, err);
  if (base < 0) {
    free(pm);
    free(pw);
    return NULL;
  }
  /* load_rows reads each entry before it writes the 0-based id in its place. */
  return build_complete(n_men, base, pm, pw, pm, pw, err);
}

bb_smc_prefs *bb_smc_prefs_adopt(int n, int base, int32_t *men_choice, int32_t *women_choice, bb_error *err) {
  if (n < 1 || n > BB_MAX_N || (base != 0 && base != 1)) {
    free(men_choice);
    free(women_choice);
    bb_fail(err, BB_ERR_INPUT, "stable_matching: n = %d and base %d; need 1..%d and 0 or 1", n, base, BB_MAX_N);
    return NULL;
  }
  return build_complete(n, base, NULL, NULL, men_choice, women_choice, err);
}

bb_smc_prefs *bb_smc_prefs_retain(bb_smc_prefs *prefs) {
  atomic_fetch_add_explicit(&prefs->refs, 1, memory_order_relaxed);
  return prefs;
}

void bb_smc_prefs_release(bb_smc_prefs *prefs) {
  if (!prefs) return;
  if (atomic_fetch_sub_explicit(&prefs->refs, 1, memory_order_acq_rel) == 1) {
    for (int k = 0; k < BB_SMC_ACCEL_SLOTS; k++) bb_smc_accel_free(atomic_load(&prefs->accel[k]));
    pthread_mutex_destroy(&prefs->accel_lock);
    free(prefs->man_choice);
    free(prefs->woman_choice);
    free(prefs->man_partner_rank);
    free(prefs->woman_partner_rank);
    free(prefs->start);
    free(prefs->pair_var);
    free(prefs->pair_rank);
    free(prefs);
  }
}

int bb_smc_prefs_n(const bb_smc_prefs *prefs) { return prefs->n; }
int bb_smc_prefs_men(const bb_smc_prefs *prefs) { return prefs->men; }
int bb_smc_prefs_women(const bb_smc_prefs *prefs) { return prefs->vars - prefs->men; }
int bb_smc_prefs_vars(const bb_smc_prefs *prefs) { return prefs->vars; }
bool bb_smc_prefs_incomplete(const bb_smc_prefs *prefs) { return prefs->start != NULL; }
int bb_smc_prefs_len(const bb_smc_prefs *prefs, int var) {
  return prefs->start ? bb_smc_row_len(prefs, var) - 1 : prefs->n;
}
int bb_smc_partner(const bb_smc_prefs *prefs, int var, int rank) {
  int partner, partner_rank;
  bb_smc_pair_partner(prefs, var, rank, &partner, &partner_rank);
  return partner;
}
int bb_smc_prefs_base(const bb_smc_prefs *prefs) { return prefs->base; }
int bb_smc_man_choice(const bb_smc_prefs *p, int man, int rank) { return p->man_choice[(size_t)man * p->n + rank]; }
int bb_smc_woman_choice(const bb_smc_prefs *p, int woman, int rank) {
  return p->woman_choice[(size_t)woman * p->n + rank];
}
/* A scan of the row: the inverse ranks are not kept (they cost 2 n^2 ints). */
static int position(const int32_t *row, int n, int id) {
  for (int k = 0; k < n; k++)
    if (row[k] == id) return k;
  return -1;
}
int bb_smc_man_rank(const bb_smc_prefs *p, int man, int woman) {
  return position(p->man_choice + (size_t)man * p->n, p->n, woman);
}
int bb_smc_woman_rank(const bb_smc_prefs *p, int woman, int man) {
  return position(p->woman_choice + (size_t)woman * p->n, p->n, man);
}

/* --- Incomplete lists (SMI). --- */

/* One side's lists as given: padded rows (ids in the user's base, lengths apart) or CSR
 * (0-based ids, offsets). */
typedef struct smi_rows {
  const int *ids, *len;
  int cols;
  const uint32_t *start, *list; /* CSR when start is set */
} smi_rows;

static inline int row_len(const smi_rows *r, int i) {
  return r->start ? (int)(r->start[i + 1] - r->start[i]) : r->len[i];
}
/* The k-th id of row i, in the user's base. */
static inline int64_t row_id(const smi_rows *r, int i, int k, int base) {
  return r->start ? (int64_t)r->list[r->start[i] + (uint32_t)k] + base
                  : r->ids[(size_t)i * (size_t)r->cols + (size_t)k];
}

/* Checks one side's rows (`count` people listing ids of `others`) and copies each list into
 * its row of pair_var (as the partner's variable, offset by `first_other`), one row per
 * person with room for the unmatched rank. */
static bb_status load_smi_rows(const char *name, const char *who, const char *whom, const smi_rows *rows, int count,
                               int others, int first_other, int first_var, int base, bb_smc_prefs *p, int32_t *seen,
                               bb_error *err) {
  /* seen[q] = the row that last named q; seen[others + q] = the column */
  for (int q = 0; q < others; q++) seen[q] = -1;
  for (int i = 0; i < count; i++) {
    int var = first_var + i, len = row_len(rows, i);
    for (int k = 0; k < len; k++) {
      int64_t v = row_id(rows, i, k, base);
      if (v < base || v - base >= others) {
        const char *plural = whom[0] == 'w' ? "women" : "men";
        if (others == 0)
          return bb_fail(err, BB_ERR_INPUT,
                         "stable_matching_smi: %s row %d (%s %d's list) names %s %lld, but there are no %s", name,
                         i + base, who, i + base, whom, (long long)v, plural);
        return bb_fail(err, BB_ERR_INPUT,
                       "stable_matching_smi: %s row %d (%s %d's list) names %s %lld at column %d; the %s are %d..%d",
                       name, i + base, who, i + base, whom, (long long)v, k + base, plural, base, base + others - 1);
      }
      int q = (int)(v - base);
      if (seen[q] == i)
        return bb_fail(err, BB_ERR_INPUT,
                       "stable_matching_smi: %s row %d (%s %d's list) names %s %lld twice (columns %d and %d)", name,
                       i + base, who, i + base, whom, (long long)v, seen[others + q] + base, k + base);
      seen[q] = i;
      seen[others + q] = k;
      p->pair_var[p->start[var] + k] = first_other + q;
    }
    p->pair_var[p->start[var] + len] = -1; /* the unmatched rank */
  }
  return BB_OK;
}

static bb_status check_lengths(const char *name, const char *who, const int *len, int count, int cols, int base,
                               bb_error *err) {
  for (int i = 0; i < count; i++)
    if (len[i] < 0 || len[i] > cols)
      return bb_fail(err, BB_ERR_INPUT,
                     "stable_matching_smi: %s_len[%d] (%s %d's list length) is %d; a row has %d columns, so 0..%d",
                     name, i + base, who, i + base, len[i], cols, cols);
  return BB_OK;
}

static bool sizes_ok(int n_men, int n_women, int base, bb_error *err) {
  if (base != 0 && base != 1) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching_smi: base %d; ids and ranks start at 0 or 1", base);
    return false;
  }
  if (n_men < 0 || n_women < 0 || n_men > BB_MAX_N || n_women > BB_MAX_N || (n_men == 0 && n_women == 0)) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching_smi: %d men and %d women; need 0..%d of each, and someone", n_men,
            n_women, BB_MAX_N);
    return false;
  }
  return true;
}

static bb_smc_prefs *build_smi(int n_men, int n_women, int base, const smi_rows *men_rows, const smi_rows *women_rows,
                               bb_error *err);

bb_smc_prefs *bb_smc_prefs_new_smi(int n_men, int n_women, int base, const int *pm, const int *pm_len, int pm_cols,
                                   const int *pw, const int *pw_len, int pw_cols, bb_error *err) {
  if (!sizes_ok(n_men, n_women, base, err)) return NULL;
  if (pm_cols < 0 || pw_cols < 0 || (n_men > 0 && pm_cols > 0 && !pm) || (n_women > 0 && pw_cols > 0 && !pw) ||
      (n_men > 0 && !pm_len) || (n_women > 0 && !pw_len)) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching_smi: preference rows or lengths missing");
    return NULL;
  }
  if (check_lengths("pm", "man", pm_len, n_men, pm_cols, base, err) != BB_OK ||
      check_lengths("pw", "woman", pw_len, n_women, pw_cols, base, err) != BB_OK)
    return NULL;
  smi_rows m = {pm, pm_len, pm_cols, NULL, NULL}, w = {pw, pw_len, pw_cols, NULL, NULL};
  return build_smi(n_men, n_women, base, &m, &w, err);
}

bb_smc_prefs *bb_smc_prefs_new_smi_csr(int n_men, int n_women, int base, const uint32_t *m_start,
                                       const uint32_t *m_list, const uint32_t *w_start, const uint32_t *w_list,
                                       bb_error *err) {
  if (!sizes_ok(n_men, n_women, base, err)) return NULL;
  if ((n_men > 0 && !m_start) || (n_women > 0 && !w_start)) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching_smi: preference lists missing");
    return NULL;
  }
  smi_rows m = {NULL, NULL, 0, m_start, m_list}, w = {NULL, NULL, 0, w_start, w_list};
  return build_smi(n_men, n_women, base, &m, &w, err);
}

static bb_smc_prefs *build_smi(int n_men, int n_women, int base, const smi_rows *men_rows, const smi_rows *women_rows,
                               bb_error *err) {
  int vars = n_men + n_women;
  bb_smc_prefs *p = prefs_alloc();
  if (!p) {
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_smi: out of memory");
    return NULL;
  }
  p->men = n_men;
  p->vars = vars;
  p->base = base;
  p->start = malloc(((size_t)vars + 1) * sizeof *p->start);
  int64_t cells = 0;
  int longest = 0;
  if (p->start)
    for (int v = 0; v < vars; v++) {
      int len = v < n_men ? row_len(men_rows, v) : row_len(women_rows, v - n_men);
      if (len > longest) longest = len;
      p->start[v] = cells;
      cells += len + 1;
    }
  p->room = longest + 1;
  int32_t *seen = malloc(2 * ((size_t)(n_men > n_women ? n_men : n_women) + 1) * sizeof *seen);
  if (p->start) {
    p->start[vars] = cells;
    p->pair_var = malloc((size_t)cells * sizeof *p->pair_var);
    p->pair_rank = malloc((size_t)cells * sizeof *p->pair_rank);
  }
  if (!p->start || !p->pair_var || !p->pair_rank || !seen) {
    free(seen);
    bb_smc_prefs_release(p);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_smi: out of memory for the preference data (%lld entries)",
            (long long)cells);
    return NULL;
  }
  if (load_smi_rows("pm", "man", "woman", men_rows, n_men, n_women, n_men, 0, base, p, seen, err) != BB_OK ||
      load_smi_rows("pw", "woman", "man", women_rows, n_women, n_men, 0, n_men, base, p, seen, err) != BB_OK) {
    free(seen);
    bb_smc_prefs_release(p);
    return NULL;
  }
  free(seen);
  /* Partner ranks: pair_rank of (v, k) = the rank v's k-th choice q gives v. The cells naming
   * each q are grouped by a counting sort; then, for each q in turn, rank_of[] holds q's
   * ranks of the people q lists and the cells naming q read them. A cell whose partner does
   * not list v back is one-sided: no pair. O(total length). */
  int32_t *rank_of = malloc((size_t)vars * sizeof *rank_of), *owner = malloc((size_t)cells * sizeof *owner);
  int64_t *cursor = malloc(((size_t)vars + 1) * sizeof *cursor);
  int64_t *incoming = malloc((size_t)cells * sizeof *incoming);
  if (!rank_of || !owner || !cursor || !incoming) {
    free(rank_of);
    free(owner);
    free(cursor);
    free(incoming);
    bb_smc_prefs_release(p);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_smi: out of memory");
    return NULL;
  }
  for (int v = 0; v <= vars; v++) cursor[v] = 0;
  for (int v = 0; v < vars; v++)
    for (int64_t c = p->start[v]; c < p->start[v + 1]; c++) {
      owner[c] = v;
      if (p->pair_var[c] >= 0) cursor[p->pair_var[c] + 1]++;
    }
  for (int v = 0; v < vars; v++) cursor[v + 1] += cursor[v];
  for (int64_t c = 0; c < cells; c++)
    if (p->pair_var[c] >= 0) incoming[cursor[p->pair_var[c]]++] = c;
  /* cursor[q] now ends q's group, which starts where q - 1's ends. */
  for (int v = 0; v < vars; v++) rank_of[v] = -1;
  for (int q = 0; q < vars; q++) {
    for (int64_t c = p->start[q]; c < p->start[q + 1]; c++)
      if (p->pair_var[c] >= 0) rank_of[p->pair_var[c]] = (int32_t)(c - p->start[q]);
    for (int64_t e = q ? cursor[q - 1] : 0; e < cursor[q]; e++) p->pair_rank[incoming[e]] = rank_of[owner[incoming[e]]];
    for (int64_t c = p->start[q]; c < p->start[q + 1]; c++)
      if (p->pair_var[c] >= 0) rank_of[p->pair_var[c]] = -1;
  }
  for (int64_t c = 0; c < cells; c++)
    if (p->pair_var[c] < 0 || p->pair_rank[c] < 0) p->pair_var[c] = p->pair_rank[c] = -1;
  free(owner);
  free(rank_of);
  free(cursor);
  free(incoming);
  return p;
}
