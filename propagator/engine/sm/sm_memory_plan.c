/* The memory plan's arithmetic (memory_plan.h). Every figure below names the allocation it
 * mirrors, so that a change there shows up here; bytes are exact, not rounded up to pages.
 * Abbreviations: n2 = n * n cells, r = a partition's participants (n for one partition). */
#include "memory_plan.h"
#include "row_source.h"

#include <string.h>

#include "bb_gpu_prnode.h" /* the node formats: which one an n gets */

#include "solve.h"

/* cuda/gpu_common.cu: UPLOAD_CHUNK_IDS, two pinned host buffers and, when ids travel narrowed
 * (n <= 65536), two device staging buffers of 16-bit ids; freed after the upload. */
#define PLAN_UPLOAD_CHUNK_IDS ((uint64_t)32 << 20)
#define PLAN_CTL_BYTES 16u                        /* d_ctl / h_ctl: 4 ints */
#define PLAN_PR_BLOCK 16u                         /* engine/sm/prmatrix.c: rank columns copied per thread */
#define PLAN_STAGE_BLOCK_IDS ((uint64_t)64 << 20) /* cuda/gpu_staged.cu: rows of lists per block */

/* cuda/gpu_staged.cu, rank_blocking_of: rows of uploaded women's lists held beside a rank
 * block of rank_rows women (none when the lists are generated on the GPU: drawn as rank rows,
 * or, for the kinds shuffled in place, lists and fewer rank rows within the block's bytes). */
static uint64_t rank_list_rows(uint64_t n, uint64_t rank_rows, int gen_on_gpu) {
  uint64_t rows = PLAN_STAGE_BLOCK_IDS / n;
  if (rows > rank_rows) rows = rank_rows;
  return gen_on_gpu ? 0 : rows < 1 ? 1 : rows;
}

int bb_plan_part_first(int n, int parts, int p) {
  int base = n / parts, extra = n % parts;
  return p * base + (p < extra ? p : extra);
}

int bb_plan_part_owner(int n, int parts, int id) {
  int base = n / parts, extra = n % parts;
  int big = extra * (base + 1); /* ids held by the partitions that got one more */
  return id < big ? id / (base + 1) : extra + (id - big) / base;
}

int bb_plan_rank_rows_for(int n, int node_bytes, int gen_on_gpu, uint64_t device_free) {
  /* Beside the PRMatrix: the control words, the upload staging while ids are narrowed, the
   * block of uploaded lists (at its largest), and 64 MiB kept for the allocator's rounding and
   * the runtime's own allocations. */
  uint64_t un = (uint64_t)n, beside = (uint64_t)node_bytes * un * un + PLAN_CTL_BYTES +
                                      (un <= 65536 ? 2 * PLAN_UPLOAD_CHUNK_IDS * 2 : 0) + ((uint64_t)64 << 20) +
                                      rank_list_rows(un, un, gen_on_gpu) * un * 4;
  uint64_t women = device_free > beside ? (device_free - beside) / ((uint64_t)bb_rank_block_bytes(n) * un) : 0;
  uint64_t fewest = (un + 63) / 64; /* at most 64 passes over the PRMatrix */
  if (women < fewest) women = fewest;
  return women < un ? (int)women : n;
}

int bb_plan_part_rank_rows_default(int n) {
  uint64_t un = (uint64_t)n, rows = PLAN_STAGE_BLOCK_IDS / un, fewest = (un + 63) / 64;
  if (rows < fewest) rows = fewest;
  return rows < un ? (int)rows : n;
}

static int bits_for(uint32_t values) { /* bits to write 0 .. values - 1 */
  int bits = 0;
  while (bits < 32 && ((uint64_t)1 << bits) < values) bits++;
  return bits;
}

static bb_plan_phase *add_phase(bb_memory_plan *p, const char *name) {
  bb_plan_phase *ph = &p->phase[p->phases++];
  memset(ph, 0, sizeof *ph);
  ph->name = name;
  return ph;
}

static int device_index(const bb_memory_plan *p, int device) {
  for (int d = 0; d < p->devices; d++)
    if (p->device_id[d] == device) return d;
  return -1;
}

/* Adds `bytes(r)` of every partition to its device's figure in `ph`. */
typedef uint64_t (*part_bytes_fn)(uint64_t n, uint64_t r, int first_part, const bb_memory_plan *p);

static void add_parts(bb_plan_phase *ph, const bb_memory_plan *p, part_bytes_fn bytes) {
  for (int q = 0; q < p->parts; q++)
    ph->device[device_index(p, p->part[q].device)] += bytes((uint64_t)p->n, (uint64_t)p->part[q].count, q == 0, p);
}

/* --- GPU figures, per partition ------------------------------------------------------ */
static uint64_t dev_lists(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  /* open_device: d_ctl, d_men, d_women (r rows of n ids each side) */
  return (first ? PLAN_CTL_BYTES : 0) + 2 * r * n * (uint64_t)p->id_bytes;
}
static uint64_t dev_staging(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)p;
  /* pipe_acquire: two device staging buffers while the lists are narrowed on the bus; the
   * partitions of a device upload one after the other, so only one pipe at a time. */
  return first && n <= 65536 ? 2 * PLAN_UPLOAD_CHUNK_IDS * 2 : 0;
}
static uint64_t dev_rank(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)first, (void)p;
  return r * n * 4; /* bb_gpu_build_rank: uint32 ranks of the partition's women */
}
static uint64_t dev_pr(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)first;
  return r * n * (uint64_t)p->node_bytes; /* bb_gpu_build_prmatrix: the partition's men */
}
/* The O(n) matching state lives on the first partition (cuda/bb_gpu_multi.h). */
static uint64_t dev_bamboo_state(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)p;
  return first ? n * 8 + n * 8 : 0; /* d_words, d_parked */
}
/* The staged path (cuda/gpu_staged.cu) per partition: the women's lists alone, then the
 * rank matrix beside the PRMatrix and one block of the men's rows (or, once the block is
 * freed, the partner words, whichever is more). */
static uint64_t dev_women(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  return (first ? PLAN_CTL_BYTES : 0) + r * n * (uint64_t)p->id_bytes;
}
static uint64_t dev_ctl(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)n, (void)r, (void)p;
  return first ? PLAN_CTL_BYTES : 0;
}
static uint64_t dev_block_or_state(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  uint64_t rows = PLAN_STAGE_BLOCK_IDS / n < n ? PLAN_STAGE_BLOCK_IDS / n : n;
  if (rows < 1) rows = 1;
  uint64_t block = rows * n * (uint64_t)p->id_bytes + dev_staging(n, r, first, p);
  uint64_t state = dev_bamboo_state(n, r, first, p);
  return block > state ? block : state;
}

/* The staged partitions (cuda/gpu_multi.cu, each a context of cuda/gpu_staged.cu, all
 * building at once): per partition its block of the men's rows, its rank block (the rank rows
 * of rank_rows women and a block of uploaded lists) and its own upload pipeline's staging. */
/* cuda/gpu_staged.cu, prmatrix_from_men: blocks of 64 Mi ids, or of the rank block's bytes
 * (rank_rows * rank bytes / 4 rows) when the rank matrix comes in blocks (no more than the rank
 * phase holds), at most the rows there are. */
static uint64_t men_block_rows(uint64_t n, uint64_t rows_there, const bb_memory_plan *p) {
  uint64_t rows = PLAN_STAGE_BLOCK_IDS / n, paired = (uint64_t)p->rank_rows * (uint64_t)bb_rank_block_bytes((int)n) / 4;
  if (paired > rows) rows = paired < n ? paired : n;
  if (rows > rows_there) rows = rows_there;
  return rows < 1 ? 1 : rows;
}
static uint64_t dev_part_men_block(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)first;
  return men_block_rows(n, r, p) * n * (uint64_t)p->id_bytes;
}
/* cuda/gpu_staged.cu, ranks_in_blocks: the rank rows, and the uploaded lists' block. */
static uint64_t rank_block_bytes(uint64_t n, const bb_memory_plan *p) {
  uint64_t rows = (uint64_t)p->rank_rows;
  return rows * n * (uint64_t)bb_rank_block_bytes((int)n) + rank_list_rows(n, rows, p->gen_on_gpu) * n * 4;
}
static uint64_t dev_part_rank_block(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)first;
  return rank_block_bytes(n, p);
}
static uint64_t dev_part_staging(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)first, (void)p;
  return n <= 65536 ? 2 * PLAN_UPLOAD_CHUNK_IDS * 2 : 0;
}
/* bb_gpu_gen_open per partition (lists generated on the GPU): its permutations until its build ends. */
static uint64_t dev_part_generator(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)first;
  return p->gen_on_gpu ? 16 * n : 0;
}

static uint64_t dev_baseline_state(uint64_t n, uint64_t r, int first, const bb_memory_plan *p) {
  (void)r, (void)p;
  return first ? n * 4 + n * 4 : 0; /* bb_gpu_run_baseline: d_partner, d_next */
}

/* Per-device staging is counted once per device, not per partition. */
static void add_staging(bb_plan_phase *ph, const bb_memory_plan *p) {
  for (int d = 0; d < p->devices; d++) ph->device[d] += dev_staging((uint64_t)p->n, 0, 1, p);
}

static void add_all(bb_plan_phase *ph, const bb_memory_plan *p, const part_bytes_fn *fns) {
  for (; *fns; fns++) add_parts(ph, p, *fns);
}

static void plan_gpu(bb_memory_plan *p, uint64_t host_lists, uint64_t host_small) {
  const uint64_t n = (uint64_t)p->n;
  int bamboo = !strcmp(p->algo, "bamboo"), mw_cas = !strcmp(p->algo, "gpu-mw-cas");
  uint64_t pinned = 2 * PLAN_UPLOAD_CHUNK_IDS * (n <= 65536 ? 2 : 4) + PLAN_CTL_BYTES;
  /* sm_bamboo.c: la partner_rank, next, husband, free_men; the baselines: h_partner */
  uint64_t host_state = bamboo ? 4 * 4 * n : 4 * n;
  /* bamboo after its GPU phase: download_state's h_words and h_parked (n each), then the CPU
   * tail's pinned h_row_raw (n nodes) and decoded h_row */
  uint64_t host_solve = host_lists + host_small + host_state + PLAN_CTL_BYTES + 16 * n;
  uint64_t host_tail = host_solve + n * (uint64_t)p->node_bytes + 8 * n;

  bb_plan_phase *ph;
  if (bamboo && p->staged && p->parts > 1) {
    uint64_t host = host_lists + host_small + host_state + pinned * (uint64_t)p->parts;
    static const part_bytes_fn women[] = {dev_ctl, dev_pr, dev_part_men_block, dev_part_staging, dev_part_generator,
                                          NULL};
    static const part_bytes_fn ranks[] = {dev_ctl, dev_pr, dev_part_rank_block, dev_part_staging, dev_part_generator,
                                          NULL};
    static const part_bytes_fn solve[] = {dev_ctl, dev_pr, dev_bamboo_state, NULL};
    ph = add_phase(p, "PRMatrix");
    add_all(ph, p, women);
    ph->host = host;
    ph = add_phase(p, "rank matrix");
    add_all(ph, p, ranks);
    ph->host = host;
    ph = add_phase(p, "solve");
    add_all(ph, p, solve);
    ph->host = host_solve;
    ph = add_phase(p, "tail");
    add_all(ph, p, solve);
    ph->host = host_tail;
    return;
  }
  if (bamboo && p->staged && p->rank_rows > 0) {
    /* cuda/gpu_staged.cu, ranks_in_blocks: the PRMatrix first (women from the men's blocks),
     * then per block of rank_rows women their rank rows (and uploaded lists) beside it. */
    uint64_t pr = (uint64_t)p->node_bytes * n * n, staging = dev_staging(n, n, 1, p);
    uint64_t rows = men_block_rows(n, n, p);
    uint64_t host = host_lists + host_small + host_state + pinned;
    ph = add_phase(p, "PRMatrix");
    ph->device[0] = PLAN_CTL_BYTES + pr + rows * n * 4 + staging;
    ph->host = host;
    ph = add_phase(p, "rank matrix");
    ph->device[0] = PLAN_CTL_BYTES + pr + rank_block_bytes(n, p) + staging;
    ph->host = host;
    ph = add_phase(p, "solve");
    ph->device[0] = PLAN_CTL_BYTES + pr + 16 * n;
    ph->host = host_solve;
    ph = add_phase(p, "tail");
    ph->device[0] = PLAN_CTL_BYTES + pr + 16 * n;
    ph->host = host_tail;
    return;
  }
  if (bamboo && p->staged) {
    /* The pipeline's pinned buffers live from the women's upload to the last men's block. */
    ph = add_phase(p, "lists");
    static const part_bytes_fn women[] = {dev_women, NULL};
    add_all(ph, p, women);
    add_staging(ph, p);
    ph->host = host_lists + host_small + host_state + pinned;
    ph = add_phase(p, "rank matrix");
    static const part_bytes_fn rank[] = {dev_women, dev_rank, NULL};
    add_all(ph, p, rank);
    add_staging(ph, p);
    ph->host = host_lists + host_small + host_state + pinned;
    ph = add_phase(p, "PRMatrix");
    static const part_bytes_fn pr[] = {dev_ctl, dev_rank, dev_pr, dev_block_or_state, NULL};
    add_all(ph, p, pr);
    ph->host = host_lists + host_small + host_state + pinned;
    static const part_bytes_fn solve[] = {dev_ctl, dev_pr, dev_bamboo_state, NULL};
    ph = add_phase(p, "solve");
    add_all(ph, p, solve);
    ph->host = host_solve;
    ph = add_phase(p, "tail");
    add_all(ph, p, solve);
    ph->host = host_tail;
    return;
  }
  ph = add_phase(p, "lists");
  static const part_bytes_fn lists[] = {dev_lists, NULL};
  add_all(ph, p, lists);
  add_staging(ph, p);
  ph->host = host_lists + host_small + host_state + pinned;

  ph = add_phase(p, "rank matrix");
  static const part_bytes_fn rank[] = {dev_lists, dev_rank, NULL};
  add_all(ph, p, rank);
  ph->host = host_lists + host_small + host_state + PLAN_CTL_BYTES;

  if (!mw_cas) {
    /* The rank matrix is freed only after the PRMatrix (and bamboo's words) exist. */
    ph = add_phase(p, "PRMatrix");
    static const part_bytes_fn pr_bamboo[] = {dev_lists, dev_rank, dev_pr, dev_bamboo_state, NULL};
    static const part_bytes_fn pr_la[] = {dev_lists, dev_rank, dev_pr, NULL};
    add_all(ph, p, bamboo ? pr_bamboo : pr_la);
    ph->host = host_lists + host_small + host_state + PLAN_CTL_BYTES;
  }

  ph = add_phase(p, "solve");
  static const part_bytes_fn s_bamboo[] = {dev_lists, dev_pr, dev_bamboo_state, NULL};
  static const part_bytes_fn s_la[] = {dev_lists, dev_pr, dev_baseline_state, NULL};
  static const part_bytes_fn s_cas[] = {dev_lists, dev_rank, dev_baseline_state, NULL};
  add_all(ph, p, bamboo ? s_bamboo : mw_cas ? s_cas : s_la);
  /* bamboo's download_state: h_words and h_parked, n each */
  ph->host = host_lists + host_small + host_state + PLAN_CTL_BYTES + (bamboo ? 16 * n : 0);

  if (bamboo) {
    /* The CPU tail fetches rows: pinned h_row_raw (n nodes) and the decoded h_row. */
    ph = add_phase(p, "tail");
    add_all(ph, p, s_bamboo);
    ph->host = host_tail;
  }
}

static void plan_cpu(bb_memory_plan *p, const char *algo, int threads, uint64_t host_lists, uint64_t host_small) {
  const uint64_t n = (uint64_t)p->n, n2 = n * n;
  bb_plan_phase *ph = add_phase(p, "lists");
  ph->host = host_lists + host_small;
  ph = add_phase(p, "rank matrix"); /* bb_rank_matrix_build: uint32 n x n */
  ph->host = host_lists + host_small + 4 * n2;
  uint64_t state;
  if (!strcmp(algo, "la-seq")) {
    /* bb_prmatrix_build: bb_prnode n x n beside the rank matrix, and each thread's copy of
     * PR_BLOCK rank columns; then the rank matrix is freed. */
    ph = add_phase(p, "PRMatrix");
    ph->host = host_lists + host_small + 4 * n2 + 8 * n2 + (uint64_t)threads * PLAN_PR_BLOCK * n * 4;
    ph = add_phase(p, "solve");
    ph->host = host_lists + host_small + 8 * n2 + 12 * n; /* partner_rank, next, husband */
    return;
  }
  if (!strcmp(algo, "gs-seq"))
    state = 12 * n; /* suitor, next, queue */
  else if (!strcmp(algo, "gs-par"))
    state = 20 * n + (uint64_t)threads * 64; /* + tallies */
  else
    state = 8 * n; /* mw-seq, mw-par: suitor/partner, next */
  ph = add_phase(p, "solve");
  ph->host = host_lists + host_small + 4 * n2 + state;
}

/* solve --verify (bb_check_stable, sm_check.c): after the solve everything but the lists and
 * wife_of is freed, and the checker adds husband_of and one bit per (woman, man), in 64-bit
 * words per woman. Rows regenerated (gen_on_gpu: no lists on the host) add one row buffer per
 * side and checking thread and one for the report (bb_check_stable_rows). Without this phase a run
 * at the largest n that the solve admits was
 * killed by the kernel in the check: the solve used all the host memory the plan allowed, and
 * the check's buffers did not fit (docs/engine.md). */
static void plan_verify(bb_memory_plan *p, const bb_plan_request *req, uint64_t host_lists, uint64_t host_small) {
  if (!req->verify) return;
  const uint64_t n = (uint64_t)p->n;
  bb_plan_phase *ph = add_phase(p, "verify");
  ph->host = host_lists + host_small + 4 * n + n * ((n + 63) / 64) * 8;
  if (req->gen_on_gpu) {
    uint64_t threads = (uint64_t)bb_check_stable_threads((int)n);
    ph->host += (2 * threads + 1) * n * sizeof(bb_id);
  }
}

bb_status bb_memory_plan_make(const bb_plan_request *req, bb_memory_plan *p, bb_error *err) {
  memset(p, 0, sizeof *p);
  if (!req->algo || !bb_algorithm_describe(req->algo))
    return bb_fail(err, BB_ERR_ARG, "memory plan: unknown algorithm '%s'", req->algo ? req->algo : "");
  if (req->n < 1 || req->n > BB_MAX_N)
    return bb_fail(err, BB_ERR_ARG, "memory plan: n = %d is outside 1..%d", req->n, BB_MAX_N);
  int count = req->devices && req->device_count > 0 ? req->device_count : 1;
  if (count > BB_PLAN_MAX_PARTS)
    return bb_fail(err, BB_ERR_ARG, "memory plan: %d partitions, at most %d", count, BB_PLAN_MAX_PARTS);
  if (count > req->n)
    return bb_fail(err, BB_ERR_ARG, "memory plan: %d partitions for n = %d participants", count, req->n);
  const uint64_t n = (uint64_t)req->n;
  p->n = req->n;
  p->host_held = req->host_held;
  snprintf(p->algo, sizeof p->algo, "%s", req->algo);
  p->node_bits_min = 2 * bits_for((uint32_t)n);
  int threads = req->threads > 0 ? req->threads : bb_cpu_count();
  uint64_t host_lists = 2 * n * n * sizeof(bb_id); /* bb_instance_new */
  uint64_t host_small = 4 * n;                     /* wife_of (tools/cmd_solve.c) */

  p->gpu = bb_algorithm_needs_gpu(req->algo) || !strcmp(req->algo, "bamboo");
  if (!p->gpu) {
    plan_cpu(p, req->algo, threads, host_lists, host_small);
    plan_verify(p, req, host_lists, host_small);
    return BB_OK;
  }
  if (count > 1 && strcmp(req->algo, "bamboo") && strcmp(req->algo, "gpu-la-min"))
    return bb_fail(err, BB_ERR_ARG, "memory plan: %s runs on one GPU; partitions are for bamboo and gpu-la-min",
                   req->algo);
  p->id_bytes = sizeof(bb_id);
  int forced = req->node_bytes ? req->node_bytes : req->wide_nodes ? 8 : 0;
  if (!strcmp(req->algo, "bamboo")) {
    p->node_bytes = bb_prnode_bytes_choose(req->n, forced, bb_prnode_bytes_default(req->n, 0)); /* gpu_bamboo.cu */
    p->staged = !req->unstaged;
    p->rank_rows = p->staged && req->rank_rows > 0 ? (req->rank_rows < req->n ? req->rank_rows : req->n) : 0;
    if (p->staged && count > 1 && !p->rank_rows) p->rank_rows = bb_plan_part_rank_rows_default(req->n);
  } else if (!strcmp(req->algo, "gpu-la-min"))
    p->node_bytes = bb_prnode_bytes_choose(req->n, forced, bb_prnode_bytes_default(req->n, 1)); /* gpu_la_min.cu */
  p->parts = count;
  for (int q = 0; q < count; q++) {
    int device = req->devices ? req->devices[q] : 0;
    p->part[q].device = device;
    p->part[q].first = bb_plan_part_first(req->n, count, q);
    p->part[q].count = bb_plan_part_first(req->n, count, q + 1) - p->part[q].first;
    if (device_index(p, device) < 0) p->device_id[p->devices++] = device;
  }
  p->gen_on_gpu = req->gen_on_gpu;
  if (req->gen_on_gpu) {
    if (strcmp(req->algo, "bamboo") || (!p->staged && count == 1))
      return bb_fail(err, BB_ERR_ARG,
                     "memory plan: lists generated on the GPU need bamboo, with the staged "
                     "initialisation on one GPU or partitioned (--gpus)");
    /* No lists on the host: the permutations of perfect/solo (16n, on the device too:
     * gpu_gen.cu; the staged build keeps them to the end, a partition only while its rows
     * are generated: gpu_multi.cu), and after the GPU phase one row buffer per thread while
     * the husbands are read from regenerated women's rows (row_source.h; counted in the tail
     * phase, which follows at once). */
    host_lists = 16 * n;
    plan_gpu(p, host_lists, host_small);
    for (int i = 0; i < p->phases; i++) {
      /* staged partitions count theirs in dev_part_generator */
      if (p->staged && p->parts == 1)
        p->phase[i].device[0] += 16 * n;
      else if (!p->staged && !strcmp(p->phase[i].name, "lists"))
        for (int d = 0; d < p->devices; d++) p->phase[i].device[d] += 16 * n;
      if (!strcmp(p->phase[i].name, "tail")) p->phase[i].host += bb_row_source_scratch_bytes(p->n, threads, 1);
    }
  } else {
    plan_gpu(p, host_lists, host_small);
  }
  plan_verify(p, req, host_lists, host_small);
  return BB_OK;
}

uint64_t bb_memory_plan_peak_host(const bb_memory_plan *p) {
  uint64_t peak = 0;
  for (int i = 0; i < p->phases; i++)
    if (p->phase[i].host > peak) peak = p->phase[i].host;
  return peak;
}

uint64_t bb_memory_plan_peak_device(const bb_memory_plan *p, int d) {
  uint64_t peak = 0;
  for (int i = 0; i < p->phases; i++)
    if (p->phase[i].device[d] > peak) peak = p->phase[i].device[d];
  return peak;
}

bb_status bb_memory_plan_check(const bb_memory_plan *p, bb_error *err) {
  char need[BB_BYTES_TEXT], have[BB_BYTES_TEXT], total[BB_BYTES_TEXT];
  for (int i = 0; i < p->phases; i++) {
    const bb_plan_phase *ph = &p->phase[i];
    for (int d = 0; d < p->devices; d++)
      if (p->device_free[d] && ph->device[d] > p->device_free[d])
        return bb_fail(err, BB_ERR_NOMEM,
                       "memory plan: n = %d, %s: the %s phase needs %s on GPU %d, %s free (of %s); "
                       "'bamboo-smp plan' shows every phase",
                       p->n, p->algo, ph->name, bb_bytes_text(need, ph->device[d]), p->device_id[d],
                       bb_bytes_text(have, p->device_free[d]), bb_bytes_text(total, p->device_total[d]));
    uint64_t more = ph->host > p->host_held ? ph->host - p->host_held : 0;
    if (p->host_available && more > p->host_available)
      return bb_fail(err, BB_ERR_NOMEM,
                     "memory plan: n = %d, %s: the %s phase needs %s of host memory, %s available; "
                     "'bamboo-smp plan' shows every phase",
                     p->n, p->algo, ph->name, bb_bytes_text(need, more), bb_bytes_text(have, p->host_available));
  }
  return BB_OK;
}

void bb_memory_plan_print(const bb_memory_plan *p, FILE *out) {
  char a[BB_BYTES_TEXT], b[BB_BYTES_TEXT];
  fprintf(out, "memory plan: %s, n = %d", p->algo, p->n);
  if (p->rank_rows) fprintf(out, ", rank matrix in blocks of %d women", p->rank_rows);
  if (p->gpu)
    fprintf(out, ", %s, %d-bit ids and %s PRMatrix nodes on the GPU (the narrowest needs %d bits)\n",
            p->staged ? "staged initialisation" : "all lists on the device", 8 * p->id_bytes,
            p->node_bytes == 4   ? "32-bit (16-bit woman | 16-bit rank)"
            : p->node_bytes == 5 ? "40-bit (20-bit woman | 20-bit rank, in a 32-bit and an 8-bit plane)"
            : p->node_bytes == 8 ? "64-bit (32-bit woman | 32-bit rank)"
                                 : "no",
            p->node_bits_min);
  else
    fprintf(out, ", on the CPU\n");
  for (int q = 0; q < p->parts; q++)
    fprintf(out, "partition %d: GPU %d, men and women %d..%d\n", q, p->part[q].device, p->part[q].first,
            p->part[q].first + p->part[q].count - 1);
  fprintf(out, "%-12s %-8s %12s  %s\n", "phase", "where", "needs", "free / total");
  for (int i = 0; i < p->phases; i++) {
    const bb_plan_phase *ph = &p->phase[i];
    if (p->host_available)
      fprintf(out, "%-12s %-8s %12s  %s available\n", ph->name, "host", bb_bytes_text(a, ph->host),
              bb_bytes_text(b, p->host_available));
    else
      fprintf(out, "%-12s %-8s %12s  unknown\n", ph->name, "host", bb_bytes_text(a, ph->host));
    for (int d = 0; d < p->devices; d++) {
      char where[16], total[BB_BYTES_TEXT];
      snprintf(where, sizeof where, "GPU %d", p->device_id[d]);
      if (p->device_total[d])
        fprintf(out, "%-12s %-8s %12s  %s / %s\n", ph->name, where, bb_bytes_text(a, ph->device[d]),
                bb_bytes_text(b, p->device_free[d]), bb_bytes_text(total, p->device_total[d]));
      else
        fprintf(out, "%-12s %-8s %12s  unknown (no GPU here)\n", ph->name, where, bb_bytes_text(a, ph->device[d]));
    }
  }
  fprintf(out, "peak: host %s", bb_bytes_text(a, bb_memory_plan_peak_host(p)));
  for (int d = 0; d < p->devices; d++)
    fprintf(out, ", GPU %d %s", p->device_id[d], bb_bytes_text(a, bb_memory_plan_peak_device(p, d)));
  fputc('\n', out);
}
