/* The memory plan (engine/sm/memory_plan.h): its figures against the allocations
 * the GPU and CPU paths make (written out here from the cuda/ kernels and engine/sm/, one
 * term per allocation), the partition arithmetic against a brute-force split, and the
 * refusal that names the phase, the place and both numbers. */
#include <string.h>

#include "memory_plan.h"
#include "test_util.h"

#define CHUNK ((uint64_t)32 << 20) /* cuda/gpu_common.cu UPLOAD_CHUNK_IDS */

static const bb_plan_phase *phase(const bb_memory_plan *p, const char *name) {
  for (int i = 0; i < p->phases; i++)
    if (!strcmp(p->phase[i].name, name)) return &p->phase[i];
  return NULL;
}

static bb_memory_plan plan_with(int n, const char *algo, const int *devices, int count, int unstaged) {
  bb_plan_request req = {
      .n = n, .algo = algo, .devices = devices, .device_count = count, .threads = 2, .unstaged = unstaged};
  bb_memory_plan p;
  bb_error err = {{0}};
  CHECKF(bb_memory_plan_make(&req, &p, &err) == BB_OK, "%s n=%d: %s", algo, n, err.msg);
  return p;
}

static bb_memory_plan plan_of(int n, const char *algo, const int *devices, int count) {
  return plan_with(n, algo, devices, count, 0);
}

/* The earlier initialisation (BAMBOO_GPU_STAGED=0): every list on the device first. */
static void bamboo_unstaged(void) {
  static const int sizes[] = {1000, 30000, 65536, 65537, 90000, 150000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    uint64_t n = (uint64_t)sizes[i], n2 = n * n;
    bb_memory_plan p = plan_with(sizes[i], "bamboo", NULL, 0, 1);
    uint64_t node = n <= 65536 ? 4 : 5; /* 5: 40 bits up to n = 2^20 */
    CHECK(!p.staged);
    CHECKF(p.node_bytes == (int)node, "n=%llu node %d", (unsigned long long)n, p.node_bytes);
    CHECK(p.gpu && p.devices == 1 && p.parts == 1 && p.part[0].count == (int)n);
    uint64_t lists = 16 + 2 * n2 * 4, staging = n <= 65536 ? 2 * CHUNK * 2 : 0;
    const bb_plan_phase *ph = phase(&p, "lists");
    CHECK(ph && ph->device[0] == lists + staging);
    ph = phase(&p, "rank matrix");
    CHECK(ph && ph->device[0] == lists + 4 * n2);
    ph = phase(&p, "PRMatrix");
    CHECK(ph && ph->device[0] == lists + 4 * n2 + node * n2 + 16 * n);
    ph = phase(&p, "solve");
    CHECK(ph && ph->device[0] == lists + node * n2 + 16 * n);
    CHECK(phase(&p, "tail") && phase(&p, "tail")->device[0] == ph->device[0]);
    /* below a few thousand the 128 MiB upload staging is the peak */
    if (n >= 30000) CHECK(bb_memory_plan_peak_device(&p, 0) == phase(&p, "PRMatrix")->device[0]);
    /* host: the lists, wife_of, bamboo's O(n) state (partner_rank, next, husband, free_men),
     * the pinned upload buffers */
    uint64_t host_lists = 8 * n2 + 4 * n + 16 * n;
    CHECK(phase(&p, "lists")->host == host_lists + 2 * CHUNK * (n <= 65536 ? 2 : 4) + 16);
    CHECK(phase(&p, "tail")->host == host_lists + 16 + 16 * n + node * n + 8 * n);
  }
  /* The figure: n = 90,000 with 64-bit nodes needed about 160 GB at once. */
  bb_plan_request req = {.n = 90000, .algo = "bamboo", .threads = 2, .unstaged = 1, .node_bytes = 8};
  bb_memory_plan p;
  CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.node_bytes == 8);
  uint64_t peak = bb_memory_plan_peak_device(&p, 0);
  CHECKF(peak > 160000000000ull && peak < 163000000000ull, "peak %llu", (unsigned long long)peak);
}

/* The staged initialisation (cuda/gpu_staged.cu): women's lists, then the rank matrix, then
 * rank matrix + PRMatrix + one block of men's rows (64 Mi ids) + the upload staging. */
static void bamboo_staged(void) {
  static const int sizes[] = {3, 1000, 30000, 65536, 65537, 90000, 150000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    uint64_t n = (uint64_t)sizes[i], n2 = n * n;
    bb_memory_plan p = plan_of(sizes[i], "bamboo", NULL, 0);
    uint64_t node = n <= 65536 ? 4 : 5, staging = n <= 65536 ? 2 * CHUNK * 2 : 0;
    uint64_t block_rows = ((uint64_t)64 << 20) / n < n ? ((uint64_t)64 << 20) / n : n;
    uint64_t block = block_rows * n * 4 + staging;
    CHECK(p.staged);
    CHECK(phase(&p, "lists")->device[0] == 16 + 4 * n2 + staging);
    CHECK(phase(&p, "rank matrix")->device[0] == 16 + 8 * n2 + staging);
    CHECKF(phase(&p, "PRMatrix")->device[0] == 16 + 4 * n2 + node * n2 + (block > 16 * n ? block : 16 * n), "n=%llu",
           (unsigned long long)n);
    CHECK(phase(&p, "solve")->device[0] == 16 + node * n2 + 16 * n);
    CHECK(phase(&p, "tail")->device[0] == 16 + node * n2 + 16 * n);
    uint64_t pinned = 2 * CHUNK * (n <= 65536 ? 2 : 4) + 16;
    CHECK(phase(&p, "PRMatrix")->host == 8 * n2 + 4 * n + 16 * n + pinned);
  }
  /* n = 90,000: about 73.2 GB (68.1 GiB) with 40-bit nodes, 97.5 GB with 64-bit ones, instead
   * of 161 unstaged: an 80 GB GPU (about 79 GiB free) holds it whole. */
  bb_memory_plan p = plan_of(90000, "bamboo", NULL, 0);
  uint64_t peak = bb_memory_plan_peak_device(&p, 0);
  CHECKF(peak > 73000000000ull && peak < 73500000000ull, "peak %llu", (unsigned long long)peak);
  bb_plan_request wide = {.n = 90000, .algo = "bamboo", .node_bytes = 8};
  CHECK(bb_memory_plan_make(&wide, &p, NULL) == BB_OK);
  peak = bb_memory_plan_peak_device(&p, 0);
  CHECKF(peak > 97000000000ull && peak < 98000000000ull, "peak %llu", (unsigned long long)peak);
  /* The rank matrix in blocks of women (cuda/gpu_staged.cu ranks_in_blocks): the PRMatrix
   * first beside one block of men's rows (as many bytes as the next phase's rank rows: R * 3 / 4
   * rows of 4-byte ids), then beside R women's rank rows of 3 bytes (n <= 2^24) and, when the
   * lists are uploaded, a block of 64 Mi ids of lists (559 rows at n = 120,000). */
  {
    uint64_t n = 120000, n2 = n * n, rows = 5000 * 3 / 4, lists = 559;
    bb_plan_request req = {.n = (int)n, .algo = "bamboo", .rank_rows = 5000};
    CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.rank_rows == 5000);
    CHECK(p.phases == 4 && !strcmp(p.phase[0].name, "PRMatrix") && !strcmp(p.phase[1].name, "rank matrix"));
    CHECK(phase(&p, "PRMatrix")->device[0] == 16 + 5 * n2 + rows * n * 4);
    CHECK(phase(&p, "rank matrix")->device[0] == 16 + 5 * n2 + 5000 * n * 3 + lists * n * 4);
    CHECK(phase(&p, "solve")->device[0] == 16 + 5 * n2 + 16 * n);
    /* 120,000 then needs 74.1 GB (69.0 GiB) with 40-bit nodes, 117 GB with 64-bit ones,
     * instead of 173 with the whole rank matrix: an 80 GB GPU holds it. */
    CHECKF(bb_memory_plan_peak_device(&p, 0) == 74068320016ull, "%llu",
           (unsigned long long)bb_memory_plan_peak_device(&p, 0));
    /* Lists generated on the GPU: the rank rows alone (drawn as rank rows). */
    req.gen_on_gpu = 1;
    CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.rank_rows == 5000);
    CHECK(phase(&p, "rank matrix")->device[0] == 16 + 5 * n2 + 5000 * n * 3 + 16 * n); /* + the generator's 16n */
    CHECK(phase(&p, "PRMatrix")->device[0] == 16 + 5 * n2 + rows * n * 4 + 16 * n);
    req.gen_on_gpu = 0;
    /* Fewer women than the block of lists holds: the lists' block is as small as the rank block. */
    req.rank_rows = 100;
    CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK);
    CHECK(phase(&p, "rank matrix")->device[0] == 16 + 5 * n2 + 100 * n * 3 + 100 * n * 4);
    CHECK(phase(&p, "PRMatrix")->device[0] == 16 + 5 * n2 + lists * n * 4);
    req.rank_rows = 1 << 30; /* at most n */
    CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.rank_rows == (int)n);
    /* The choice of R: what fits beside the PRMatrix (and 64 MiB kept, and the uploaded lists'
     * block), 3 bytes a rank, between n/64 and n. */
    uint64_t beside = 8 * n2 + 16 + ((uint64_t)64 << 20) + lists * n * 4, drawn = beside - lists * n * 4;
    CHECK(bb_plan_rank_rows_for((int)n, 8, 0, beside + 3 * n * 4000) == 4000);
    CHECK(bb_plan_rank_rows_for((int)n, 8, 0, beside + 3 * n * 4000 - 1) == 3999);
    CHECK(bb_plan_rank_rows_for((int)n, 8, 1, drawn + 3 * n * 4000) == 4000);
    CHECK(bb_plan_rank_rows_for((int)n, 8, 1, drawn + 3 * n * 4000 - 1) == 3999);
    CHECK(bb_plan_rank_rows_for((int)n, 8, 0, beside) == (int)((n + 63) / 64));
    CHECK(bb_plan_rank_rows_for((int)n, 8, 1, 1000) == (int)((n + 63) / 64));
    CHECK(bb_plan_rank_rows_for((int)n, 8, 0, (uint64_t)1 << 50) == (int)n);
    /* n = 1000: the lists' block is all n rows (4 MB), the narrowed upload's staging 128 MiB. */
    CHECK(bb_plan_rank_rows_for(1000, 4, 0, 4000000 + 16 + ((uint64_t)192 << 20) + 4000000 + 3000 * 100) == 100);
    CHECK(bb_plan_rank_rows_for(1000, 4, 1, 4000000 + 16 + ((uint64_t)192 << 20) + 3000 * 100) == 100);
    req = (bb_plan_request){.n = 1000, .algo = "bamboo", .rank_rows = 10, .unstaged = 1};
    CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.rank_rows == 0);
  }
  /* Partitions are staged too, unless asked not to be (staged_partitions() has their figures). */
  static const int two[] = {0, 0};
  CHECK(plan_of(1000, "bamboo", two, 2).staged && !plan_with(1000, "bamboo", two, 2, 1).staged);
}

static void baselines_and_cpu(void) {
  uint64_t n = 30000, n2 = n * n;
  bb_memory_plan p = plan_of((int)n, "gpu-la-min", NULL, 0);
  CHECK(p.node_bytes == 8);
  CHECK(phase(&p, "PRMatrix")->device[0] == 16 + 8 * n2 + 4 * n2 + 8 * n2);
  CHECK(phase(&p, "solve")->device[0] == 16 + 8 * n2 + 8 * n2 + 8 * n);
  CHECK(!phase(&p, "tail"));
  p = plan_of((int)n, "gpu-mw-cas", NULL, 0);
  CHECK(p.node_bytes == 0 && !phase(&p, "PRMatrix"));
  CHECK(phase(&p, "solve")->device[0] == 16 + 8 * n2 + 4 * n2 + 8 * n);
  p = plan_of((int)n, "la-seq", NULL, 0);
  CHECK(!p.gpu && p.devices == 0);
  CHECK(phase(&p, "PRMatrix")->host == 8 * n2 + 4 * n + 4 * n2 + 8 * n2 + 2 * 16 * n * 4);
  CHECK(phase(&p, "solve")->host == 8 * n2 + 4 * n + 8 * n2 + 12 * n); /* partner_rank, next, husband */
  CHECK(bb_memory_plan_peak_host(&p) == phase(&p, "PRMatrix")->host);
  p = plan_of((int)n, "gs-seq", NULL, 0);
  CHECK(!phase(&p, "PRMatrix") && phase(&p, "solve")->host == 8 * n2 + 4 * n + 4 * n2 + 12 * n);
}

static void node_format(void) {
  CHECK(plan_of(65536, "bamboo", NULL, 0).node_bits_min == 32);
  CHECK(plan_of(65537, "bamboo", NULL, 0).node_bits_min == 34);
  CHECK(plan_of(90000, "bamboo", NULL, 0).node_bits_min == 34);
  CHECK(plan_of(1, "bamboo", NULL, 0).node_bits_min == 0);
  bb_plan_request req = {.n = 1000, .algo = "bamboo", .wide_nodes = 1};
  bb_memory_plan p;
  CHECK(bb_memory_plan_make(&req, &p, NULL) == BB_OK && p.node_bytes == 8);
  /* The default: the narrowest format that holds n for bamboo; gpu-la-min keeps [Bamboo-SMP]'s
   * 8 bytes while the 4-byte node would do, and takes the 40-bit one above. */
  static const struct {
    int n, bamboo, la_min;
  } want[] = {{1, 4, 8},       {65536, 4, 8},         {65537, 5, 5},   {90000, 5, 5},
              {1 << 20, 5, 5}, {(1 << 20) + 1, 8, 8}, {BB_MAX_N, 8, 8}};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
    CHECKF(plan_of(want[i].n, "bamboo", NULL, 0).node_bytes == want[i].bamboo, "bamboo n=%d", want[i].n);
    CHECKF(plan_of(want[i].n, "gpu-la-min", NULL, 0).node_bytes == want[i].la_min, "la-min n=%d", want[i].n);
  }
  /* A forced format (BAMBOO_GPU_NODE_BYTES) where it holds n, the narrowest that does where not. */
  static const struct {
    int n, forced, got;
  } forced[] = {{1000, 4, 4},  {1000, 5, 5},          {1000, 8, 8},         {90000, 4, 5},
                {90000, 8, 8}, {(1 << 20) + 1, 5, 8}, {(1 << 20) + 1, 4, 8}};
  const char *algos[] = {"bamboo", "gpu-la-min"};
  for (size_t i = 0; i < sizeof forced / sizeof *forced; i++)
    for (int a = 0; a < 2; a++) {
      bb_plan_request r = {.n = forced[i].n, .algo = algos[a], .threads = 2, .node_bytes = forced[i].forced};
      CHECKF(bb_memory_plan_make(&r, &p, NULL) == BB_OK && p.node_bytes == forced[i].got, "%s n=%d forced %d: %d",
             algos[a], forced[i].n, forced[i].forced, p.node_bytes);
    }
  /* The reason for the 40-bit node: bamboo's staged solve at n = 125,000 with the rank matrix
   * in blocks needs 5 bytes a pair (73.5 GiB: fits an 80 GB GPU's 79 GiB; 8 bytes would need
   * 117 GiB). The rank phase: 2000 rank rows of 3 bytes and 536 rows of uploaded lists. */
  bb_plan_request big = {.n = 125000, .algo = "bamboo", .threads = 2, .rank_rows = 2000};
  CHECK(bb_memory_plan_make(&big, &p, NULL) == BB_OK && p.node_bytes == 5);
  uint64_t n = 125000;
  CHECKF(bb_memory_plan_peak_device(&p, 0) == 16 + 5 * n * n + 2000 * n * 3 + 536 * n * 4, "peak %llu",
         (unsigned long long)bb_memory_plan_peak_device(&p, 0));
}

/* Unstaged partitions (gpu-la-min; bamboo with BAMBOO_GPU_STAGED=0) on one device add up to
 * the one-partition figures exactly; on two devices the figures split, each device with its
 * own upload staging. */
static void partitions(void) {
  static const int one[] = {0}, same[] = {0, 0, 0, 0}, two[] = {0, 1}, mixed[] = {3, 1, 3};
  int sizes[] = {1000, 30001, 70001};
  for (int s = 0; s < 3; s++) {
    const char *algos[] = {"bamboo", "gpu-la-min"};
    for (int a = 0; a < 2; a++) {
      bb_memory_plan p1 = plan_with(sizes[s], algos[a], one, 1, 1);
      bb_memory_plan p4 = plan_with(sizes[s], algos[a], same, 4, 1);
      bb_memory_plan p2 = plan_with(sizes[s], algos[a], two, 2, 1);
      CHECK(p4.parts == 4 && p4.devices == 1 && p2.devices == 2 && p1.phases == p4.phases);
      uint64_t staging = sizes[s] <= 65536 ? 2 * CHUNK * 2 : 0;
      for (int i = 0; i < p1.phases; i++) {
        CHECKF(p4.phase[i].device[0] == p1.phase[i].device[0], "%s n=%d %s", algos[a], sizes[s], p1.phase[i].name);
        uint64_t split = p2.phase[i].device[0] + p2.phase[i].device[1];
        uint64_t extra = i == 0 ? staging : 0;
        CHECKF(split == p1.phase[i].device[0] + extra, "%s n=%d %s", algos[a], sizes[s], p1.phase[i].name);
        CHECK(p4.phase[i].host == p1.phase[i].host);
      }
      bb_memory_plan p3 = plan_with(sizes[s], algos[a], mixed, 3, 1);
      CHECK(p3.devices == 2 && p3.device_id[0] == 3 && p3.device_id[1] == 1);
      CHECK(p3.part[1].device == 1 && p3.part[2].device == 3);
    }
  }
  bb_error err = {{0}};
  bb_memory_plan p;
  bb_plan_request req = {.n = 100, .algo = "gpu-mw-cas", .devices = same, .device_count = 2};
  CHECK(bb_memory_plan_make(&req, &p, &err) == BB_ERR_ARG && strstr(err.msg, "one GPU"));
  req = (bb_plan_request){.n = 3, .algo = "bamboo", .devices = same, .device_count = 4};
  CHECK(bb_memory_plan_make(&req, &p, &err) == BB_ERR_ARG && strstr(err.msg, "4 partitions"));
  req = (bb_plan_request){.n = 3, .algo = "no-such"};
  CHECK(bb_memory_plan_make(&req, &p, &err) == BB_ERR_ARG && strstr(err.msg, "no-such"));
}

/* bamboo's staged partitions (cuda/gpu_multi.cu over cuda/gpu_staged.cu): each device holds
 * its partitions' PRMatrix rows, and while building one block of their men's lists, or of
 * rank_rows women's rank rows (3 bytes each below 2^24) with, when uploaded, a block of at most
 * 64 Mi ids of their lists, and each partition's own upload staging and generator; written out
 * here term by term. */
static uint64_t staged_part_expected(const bb_memory_plan *p, const char *phase_name, int d, int gen) {
  uint64_t n = (uint64_t)p->n, sum = 0;
  for (int q = 0; q < p->parts; q++) {
    if (p->part[q].device != p->device_id[d]) continue;
    uint64_t r = (uint64_t)p->part[q].count, block = ((uint64_t)64 << 20) / n, rank = (uint64_t)p->rank_rows;
    if (rank * 3 / 4 > block) block = rank * 3 / 4; /* no more than the rank blocks */
    uint64_t lists = ((uint64_t)64 << 20) / n < rank ? ((uint64_t)64 << 20) / n : rank;
    if (block > r) block = r;
    if (block < 1) block = 1;
    uint64_t staging = n <= 65536 ? 2 * CHUNK * 2 : 0, generator = gen ? 16 * n : 0;
    sum += (q == 0 ? 16 : 0) + r * n * (uint64_t)p->node_bytes;
    if (!strcmp(phase_name, "PRMatrix")) sum += block * n * 4 + staging + generator;
    if (!strcmp(phase_name, "rank matrix")) sum += rank * n * 3 + (gen ? 0 : lists * n * 4) + staging + generator;
    if (q == 0 && (!strcmp(phase_name, "solve") || !strcmp(phase_name, "tail"))) sum += 16 * n;
  }
  return sum;
}

static void staged_partitions(void) {
  static const int two[] = {0, 1}, same[] = {0, 0, 0}, mixed[] = {2, 0, 2, 1};
  const struct {
    const int *devices;
    int count;
  } lists[] = {{two, 2}, {same, 3}, {mixed, 4}};
  int sizes[] = {1000, 30001, 70001, 225000};
  for (int s = 0; s < 4; s++)
    for (int l = 0; l < 3; l++)
      for (int gen = 0; gen < 2; gen++) {
        bb_plan_request req = {.n = sizes[s],
                               .algo = "bamboo",
                               .devices = lists[l].devices,
                               .device_count = lists[l].count,
                               .threads = 2,
                               .gen_on_gpu = gen};
        bb_memory_plan p;
        bb_error err = {{0}};
        CHECKF(bb_memory_plan_make(&req, &p, &err) == BB_OK, "%s", err.msg);
        CHECK(p.staged && p.rank_rows == bb_plan_part_rank_rows_default(sizes[s]) && p.phases == 4);
        for (int i = 0; i < p.phases; i++)
          for (int d = 0; d < p.devices; d++)
            CHECKF(p.phase[i].device[d] == staged_part_expected(&p, p.phase[i].name, d, gen), "n=%d list %d %s GPU %d",
                   sizes[s], l, p.phase[i].name, p.device_id[d]);
      }
  /* The default block: 64 Mi ids' worth of women, at least n / 64, at most n. */
  CHECK(bb_plan_part_rank_rows_default(1000) == 1000);
  CHECK(bb_plan_part_rank_rows_default(30000) == 2236);
  CHECK(bb_plan_part_rank_rows_default(225000) == 3516);
}

/* Planning for a machine that is not here (plan --gpu-memory): each listed GPU has the stated
 * free memory; the staged partitions take the most women per block that fit beside their
 * rows; n = 225,000 over two 141 GiB GPUs fits, and n = 300,000 (210 GiB of rows each) does not. */
static void stated_gpu_memory(void) {
  static const int two[] = {0, 1}, same[] = {0, 0};
  uint64_t gib = (uint64_t)1 << 30;
  int sizes[] = {200000, 225000, 300000};
  for (int s = 0; s < 3; s++)
    for (int l = 0; l < 2; l++) {
      bb_plan_request req = {.n = sizes[s],
                             .algo = "bamboo",
                             .devices = l ? same : two,
                             .device_count = 2,
                             .gen_on_gpu = 1,
                             .gpu_memory = 141 * gib,
                             .host_memory = 64 * gib};
      bb_memory_plan p;
      bb_error err = {{0}};
      CHECKF(bb_memory_plan_for_run(&req, &p, &err) == BB_OK, "%s", err.msg);
      CHECK(p.device_free[0] == 141 * gib && p.host_available == 64 * gib && p.staged);
      bb_status fits = bb_memory_plan_check(&p, &err);
      int expect = l == 0 && sizes[s] <= 225000; /* both partitions on one GPU: twice the rows */
      CHECKF((fits == BB_OK) == expect, "n=%d %s: %s", sizes[s], l ? "0,0" : "0,1", err.msg);
      if (fits != BB_OK) continue;
      uint64_t n = (uint64_t)sizes[s], rows = (uint64_t)p.part[0].count * n * 5;
      /* the block is the most that fits: one more woman would not */
      CHECK(bb_memory_plan_peak_device(&p, 0) <= 141 * gib);
      CHECKF(rows + 16 + 16 * n + (uint64_t)(p.rank_rows + 1) * n * 3 + ((uint64_t)64 << 20) > 141 * gib,
             "rank rows %d", p.rank_rows);
    }
}

/* first/owner against a brute-force even split. */
static void partition_arithmetic(void) {
  for (int n = 1; n <= 70; n++)
    for (int parts = 1; parts <= 16 && parts <= n; parts++) {
      int owner[70], id = 0;
      for (int q = 0; q < parts; q++) {
        int size = n / parts + (q < n % parts);
        CHECK(bb_plan_part_first(n, parts, q) == id);
        for (int k = 0; k < size; k++) owner[id++] = q;
      }
      CHECK(id == n && bb_plan_part_first(n, parts, parts) == n);
      for (int i = 0; i < n; i++)
        CHECKF(bb_plan_part_owner(n, parts, i) == owner[i], "n=%d parts=%d id=%d", n, parts, i);
    }
  CHECK(bb_plan_part_owner(2097151, 4, 2097150) == 3);
  CHECK(bb_plan_part_first(2097151, 4, 1) == 524288);
}

static void refusal(void) {
  bb_plan_request req = {.n = 90000, .algo = "bamboo", .threads = 2, .unstaged = 1, .node_bytes = 8};
  bb_memory_plan p;
  bb_error err = {{0}};
  CHECK(bb_memory_plan_make(&req, &p, &err) == BB_OK);
  CHECK(bb_memory_plan_check(&p, &err) == BB_OK); /* nothing known: nothing refused */
  p.device_free[0] = 140ull << 30;                /* a 141 GB GPU's */
  p.device_total[0] = 141ull << 30;
  CHECK(bb_memory_plan_check(&p, &err) == BB_ERR_NOMEM);
  CHECKF(strstr(err.msg, "the PRMatrix phase needs 151 GiB") && strstr(err.msg, "on GPU 0, 140 GiB free"), "%s",
         err.msg);
  p.device_free[0] = 200ull << 30;
  p.host_available = 50ull << 30;
  CHECK(bb_memory_plan_check(&p, &err) == BB_ERR_NOMEM);
  CHECKF(strstr(err.msg, "the lists phase needs 60.") && strstr(err.msg, "host memory, 50.0 GiB available"), "%s",
         err.msg);
  p.host_held = 8ull * 90000 * 90000; /* the lists already read: only the rest is needed */
  CHECKF(bb_memory_plan_check(&p, &err) == BB_OK, "%s", err.msg);
  FILE *out = tmpfile();
  if (out) {
    bb_memory_plan_print(&p, out);
    char text[4096] = {0};
    rewind(out);
    size_t got = fread(text, 1, sizeof text - 1, out);
    CHECK(got > 0 && strstr(text, "PRMatrix     GPU 0") && strstr(text, "64-bit (32-bit woman"));
    fclose(out);
  }
  p = plan_of(90000, "bamboo", NULL, 0);
  out = tmpfile();
  if (out) {
    bb_memory_plan_print(&p, out);
    char text[4096] = {0};
    rewind(out);
    size_t got = fread(text, 1, sizeof text - 1, out);
    CHECKF(got > 0 && strstr(text, "40-bit (20-bit woman | 20-bit rank") && strstr(text, "needs 34 bits"), "%s", text);
    fclose(out);
  }
}

/* solve --verify adds the checker's phase: the lists, wife_of and husband_of, and one bit per
 * (woman, man); at the n where the solve's own phases just fit, the check does not. */
static void verify_phase(void) {
  int n = 129184;
  bb_plan_request req = {.n = n, .algo = "bamboo"};
  bb_memory_plan plain, checked;
  bb_error err = {{0}};
  CHECK(bb_memory_plan_make(&req, &plain, &err) == BB_OK);
  req.verify = 1;
  CHECK(bb_memory_plan_make(&req, &checked, &err) == BB_OK);
  CHECK(checked.phases == plain.phases + 1);
  const bb_plan_phase *v = &checked.phase[checked.phases - 1];
  uint64_t nn = (uint64_t)n, bits = nn * ((nn + 63) / 64) * 8;
  CHECKF(!strcmp(v->name, "verify") && v->host == 8 * nn * nn + 8 * nn + bits && v->device[0] == 0, "%s %llu", v->name,
         (unsigned long long)v->host);
  uint64_t solve_peak = bb_memory_plan_peak_host(&plain);
  CHECK(bb_memory_plan_peak_host(&checked) == (v->host > solve_peak ? v->host : solve_peak));
  plain.host_available = checked.host_available = v->host - 1; /* room for all but the check */
  if (solve_peak <= plain.host_available) {
    CHECKF(bb_memory_plan_check(&plain, &err) == BB_OK, "%s", err.msg);
    CHECK(bb_memory_plan_check(&checked, &err) == BB_ERR_NOMEM && strstr(err.msg, "the verify phase needs"));
  }
  for (int c = 0; c < 2; c++) { /* the CPU algorithms too */
    bb_plan_request cpu = {.n = 1000, .algo = c ? "la-seq" : "gs-seq", .verify = 1};
    bb_memory_plan q;
    CHECK(bb_memory_plan_make(&cpu, &q, &err) == BB_OK && !strcmp(q.phase[q.phases - 1].name, "verify"));
  }
}

int main(void) {
  bamboo_unstaged();
  bamboo_staged();
  baselines_and_cpu();
  node_format();
  partitions();
  staged_partitions();
  stated_gpu_memory();
  partition_arithmetic();
  refusal();
  verify_phase();
  return tu_finish();
}
