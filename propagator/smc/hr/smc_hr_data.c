/* The native HR constraint's shared data (both ranks of every acceptable pair, built once),
 * a search node's memory and a propagator's queues. */
#include "smc_hr_internal.h"

#include <stdlib.h>
#include <string.h>

static void data_free(bb_smc_hr *hr) {
  bb_smc_hr_accel_free(atomic_load(&hr->accel));
  free(hr->res_start);
  free(hr->res_hosp);
  free(hr->res_pos);
  free(hr->hosp_start);
  free(hr->hosp_res);
  free(hr->hosp_rank);
  free(hr->capacity);
  free(hr);
}

static bb_smc_hr *no_memory(bb_smc_hr *hr, bb_error *err) {
  if (hr) data_free(hr);
  bb_fail(err, BB_ERR_NOMEM, "stable_matching_hr: out of memory for the preference data");
  return NULL;
}

/* Checks one side's lists: ids below `other`, nobody twice (stamp[id] = the list's owner + 1). */
static bool lists_ok(const char *who, const char *whom, int n, int other, int base, const uint32_t *start,
                     const uint32_t *list, int32_t *stamp, bb_error *err) {
  for (int i = 0; i < other; i++) stamp[i] = -1;
  for (int i = 0; i < n; i++) {
    if (start[i + 1] < start[i]) {
      bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s %d's list has a negative length", who, base + i);
      return false;
    }
    for (uint32_t e = start[i]; e < start[i + 1]; e++) {
      if (list[e] >= (uint32_t)other) {
        bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s %d's list names %s %lld, which does not exist (ids %d..%d)",
                who, base + i, whom, (long long)list[e] + base, base, base + other - 1);
        return false;
      }
      if (stamp[list[e]] == i) {
        bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s %d's list names %s %d twice", who, base + i, whom,
                base + (int)list[e]);
        return false;
      }
      stamp[list[e]] = i;
    }
  }
  return true;
}

bb_smc_hr *bb_smc_hr_new_csr(int nr, int nh, int cols, int base, const uint32_t *res_start, const uint32_t *res_list,
                             const uint32_t *hosp_start, const uint32_t *hosp_list, const int32_t *capacity,
                             bb_error *err) {
  if (nr < 0 || nh < 0 || nr > BB_MAX_N || nh > BB_MAX_N || cols < 0 || !res_start || !hosp_start || (nh && !capacity))
    return bb_fail(err, BB_ERR_ARG, "stable_matching_hr: bad sizes (%d residents, %d hospitals, %d columns)", nr, nh,
                   cols),
           NULL;
  for (int h = 0; h < nh; h++) {
    if (capacity[h] < 0)
      return bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: hospital %d has capacity %d; capacities must be >= 0",
                     base + h, capacity[h]),
             NULL;
    if (capacity[h] > cols)
      return bb_fail(err, BB_ERR_INPUT,
                     "stable_matching_hr: hospital %d has capacity %d, more than the %d columns of posts", base + h,
                     capacity[h], cols),
             NULL;
  }
  uint32_t lr = res_start[nr], lh = hosp_start[nh];
  bb_smc_hr *hr = calloc(1, sizeof *hr);
  if (!hr) return no_memory(NULL, err);
  hr->nr = nr, hr->nh = nh, hr->cols = cols, hr->base = base;
  atomic_init(&hr->refs, 1);
  hr->res_start = malloc(((size_t)nr + 1) * sizeof(uint32_t));
  hr->res_hosp = malloc(((size_t)lr + 1) * sizeof(uint32_t));
  hr->res_pos = malloc(((size_t)lr + 1) * sizeof(uint32_t));
  hr->hosp_start = malloc(((size_t)nh + 1) * sizeof(uint32_t));
  hr->hosp_res = malloc(((size_t)lh + 1) * sizeof(uint32_t));
  hr->hosp_rank = malloc(((size_t)lh + 1) * sizeof(uint32_t));
  hr->capacity = malloc(((size_t)nh + 1) * sizeof(int32_t));
  int32_t *stamp = malloc(((size_t)(nr > nh ? nr : nh) + 1) * sizeof *stamp);
  /* The hospitals' entries bucketed by resident: by_res[by_start[r] ..] = hospital entries naming r. */
  uint32_t *by_start = calloc((size_t)nr + 2, sizeof *by_start), *by_res = malloc(((size_t)lh + 1) * sizeof *by_res);
  uint32_t *of_hosp = malloc(((size_t)lh + 1) * sizeof *of_hosp);
  if (!hr->res_start || !hr->res_hosp || !hr->res_pos || !hr->hosp_start || !hr->hosp_res || !hr->hosp_rank ||
      !hr->capacity || !stamp || !by_start || !by_res || !of_hosp) {
    free(stamp), free(by_start), free(by_res), free(of_hosp);
    return no_memory(hr, err);
  }
  memcpy(hr->res_start, res_start, ((size_t)nr + 1) * sizeof(uint32_t));
  memcpy(hr->res_hosp, res_list, (size_t)lr * sizeof(uint32_t));
  memcpy(hr->hosp_start, hosp_start, ((size_t)nh + 1) * sizeof(uint32_t));
  memcpy(hr->hosp_res, hosp_list, (size_t)lh * sizeof(uint32_t));
  if (nh) memcpy(hr->capacity, capacity, (size_t)nh * sizeof(int32_t));
  bool ok = lists_ok("resident", "hospital", nr, nh, base, res_start, res_list, stamp, err) &&
            lists_ok("hospital", "resident", nh, nr, base, hosp_start, hosp_list, stamp, err);
  if (ok) {
    for (int h = 0; h < nh; h++)
      for (uint32_t f = hosp_start[h]; f < hosp_start[h + 1]; f++) {
        of_hosp[f] = (uint32_t)h;
        by_start[hosp_list[f] + 2]++;
      }
    for (int r = 0; r < nr; r++) by_start[r + 2] += by_start[r + 1];
    for (uint32_t f = 0; f < lh; f++) by_res[by_start[hosp_list[f] + 1]++] = f;
    /* stamp[h] = the position in r's list of hospital h, while r is handled (-1 elsewhere). */
    for (int h = 0; h < nh; h++) stamp[h] = -1;
    for (uint32_t f = 0; f < lh; f++) hr->hosp_rank[f] = BB_SMC_HR_UNRANKED;
    for (int r = 0; r < nr; r++) {
      for (uint32_t e = res_start[r]; e < res_start[r + 1]; e++) {
        stamp[res_list[e]] = (int32_t)(e - res_start[r]);
        hr->res_pos[e] = BB_SMC_HR_UNRANKED;
      }
      for (uint32_t b = by_start[r]; b < by_start[r + 1]; b++) {
        uint32_t f = by_res[b], h = of_hosp[f];
        if (stamp[h] < 0) continue; /* h lists r, r does not list h */
        hr->hosp_rank[f] = (uint32_t)stamp[h];
        hr->res_pos[res_start[r] + (uint32_t)stamp[h]] = f - hosp_start[h];
      }
      for (uint32_t e = res_start[r]; e < res_start[r + 1]; e++) stamp[res_list[e]] = -1;
    }
  }
  free(stamp), free(by_start), free(by_res), free(of_hosp);
  if (!ok) {
    data_free(hr);
    return NULL;
  }
  return hr;
}

/* One side's padded matrix of base-counted ids as CSR of 0-based ids. */
static bool to_csr(const char *who, const char *mat, int n, int other, int base, const int *m, const int *len, int cols,
                   uint32_t **start, uint32_t **list, bb_error *err) {
  uint64_t total = 0;
  for (int i = 0; i < n; i++) {
    if (len[i] < 0 || len[i] > cols) {
      bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s %d's list length is %d; %s has %d columns", who, base + i,
              len[i], mat, cols);
      return false;
    }
    total += (uint64_t)len[i];
  }
  if (total > UINT32_MAX - 1) {
    bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s holds %llu entries, too many", mat, (unsigned long long)total);
    return false;
  }
  *start = malloc(((size_t)n + 1) * sizeof **start);
  *list = malloc((size_t)(total + 1) * sizeof **list);
  if (!*start || !*list) {
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_hr: out of memory for the preference data");
    return false;
  }
  uint32_t at = 0;
  for (int i = 0; i < n; i++) {
    (*start)[i] = at;
    for (int k = 0; k < len[i]; k++) {
      int id = m[(size_t)i * (size_t)cols + (size_t)k];
      if (id < base || id >= base + other) {
        bb_fail(err, BB_ERR_INPUT, "stable_matching_hr: %s %d's list names %d, which is no id (%d..%d)", who, base + i,
                id, base, base + other - 1);
        return false;
      }
      (*list)[at++] = (uint32_t)(id - base);
    }
  }
  (*start)[n] = at;
  return true;
}

bb_smc_hr *bb_smc_hr_new(int nr, int nh, int cols, int base, const int *rp, const int *rp_len, int rp_cols,
                         const int *hp, const int *hp_len, int hp_cols, const int32_t *capacity, bb_error *err) {
  if (nr < 0 || nh < 0 || rp_cols < 0 || hp_cols < 0 || (nr && !rp_len) || (nh && !hp_len) || (nr && rp_cols && !rp) ||
      (nh && hp_cols && !hp))
    return bb_fail(err, BB_ERR_ARG, "stable_matching_hr: bad arrays"), NULL;
  uint32_t *rs = NULL, *rl = NULL, *hs = NULL, *hl = NULL;
  bb_smc_hr *hr = NULL;
  if (to_csr("resident", "rp", nr, nh, base, rp, rp_len, rp_cols, &rs, &rl, err) &&
      to_csr("hospital", "hp", nh, nr, base, hp, hp_len, hp_cols, &hs, &hl, err))
    hr = bb_smc_hr_new_csr(nr, nh, cols, base, rs, rl, hs, hl, capacity, err);
  free(rs), free(rl), free(hs), free(hl);
  return hr;
}

bb_smc_hr *bb_smc_hr_retain(bb_smc_hr *hr) {
  atomic_fetch_add(&hr->refs, 1);
  return hr;
}

void bb_smc_hr_release(bb_smc_hr *hr) {
  if (hr && atomic_fetch_sub(&hr->refs, 1) == 1) data_free(hr);
}

int bb_smc_hr_residents(const bb_smc_hr *hr) { return hr->nr; }
int bb_smc_hr_hospitals(const bb_smc_hr *hr) { return hr->nh; }
int bb_smc_hr_cols(const bb_smc_hr *hr) { return hr->cols; }
int bb_smc_hr_vars(const bb_smc_hr *hr) { return hr->nr + hr->nh * hr->cols; }

int bb_smc_hr_top(const bb_smc_hr *hr, int var) {
  if (var < hr->nr) return (int)(hr->res_start[var + 1] - hr->res_start[var]);
  int h = (var - hr->nr) / hr->cols;
  return (int)(hr->hosp_start[h + 1] - hr->hosp_start[h]);
}

static size_t gone_words(const bb_smc_hr *hr) { return ((size_t)hr->res_start[hr->nr] + 63) / 64; }

size_t bb_smc_hr_node_bytes(const bb_smc_hr *hr) {
  size_t ints = sizeof(bb_smc_hr_node) + (size_t)hr->nr * sizeof(int32_t);
  ints = (ints + 7) & ~(size_t)7;
  return ints + (size_t)hr->nh * sizeof(bb_smc_hr_hosp) + gone_words(hr) * sizeof(uint64_t);
}

void bb_smc_hr_node_init(bb_smc_hr_node *node, const bb_smc_hr *hr) {
  memset(node, 0, bb_smc_hr_node_bytes(hr));
  int32_t *last_min = (int32_t *)(node + 1);
  for (int r = 0; r < hr->nr; r++) last_min[r] = -1;
  bb_smc_hr_hosp *hosp =
      (bb_smc_hr_hosp *)((char *)node +
                         (((sizeof(bb_smc_hr_node) + (size_t)hr->nr * sizeof(int32_t)) + 7) & ~(size_t)7));
  for (int h = 0; h < hr->nh; h++) {
    int32_t len = (int32_t)(hr->hosp_start[h + 1] - hr->hosp_start[h]);
    bb_smc_hr_hosp *st = &hosp[h];
    /* Capacity 0: nobody can be at h, from the start. */
    st->proposed_cut = hr->capacity[h] == 0 ? -1 : len;
    st->proposers = 0;
    st->strict_best = len;
    st->offer_end = -1;
    st->offers_alive = 0;
    st->posts_cut = len;
    st->cut = len - 1;
    st->low = 0;
  }
}

bb_smc_hr_scratch *bb_smc_hr_scratch_new(const bb_smc_hr *hr, bb_error *err) {
  bb_smc_hr_scratch *s = calloc(1, sizeof *s);
  int max_cap = 0;
  for (int h = 0; h < hr->nh; h++)
    if (hr->capacity[h] > max_cap) max_cap = hr->capacity[h];
  if (s) {
    s->res_queue = malloc(((size_t)hr->nr + 1) * sizeof(int));
    s->res_queued = calloc((size_t)hr->nr + 1, 1);
    s->hosp_queue = malloc(((size_t)hr->nh + 1) * sizeof(int));
    s->hosp_queued = calloc((size_t)hr->nh + 1, 1);
    s->hosp_external = calloc((size_t)hr->nh + 1, 1);
    s->alive = malloc(((size_t)max_cap + 2) * sizeof(int32_t));
    s->fixed = malloc(((size_t)max_cap + 2) * sizeof(int32_t));
    s->tail = malloc(((size_t)max_cap + 2) * sizeof(int32_t));
    s->post_lo = malloc(((size_t)max_cap + 2) * sizeof(int32_t));
    s->post_hi = malloc(((size_t)max_cap + 2) * sizeof(int32_t));
  }
  if (!s || !s->res_queue || !s->res_queued || !s->hosp_queue || !s->hosp_queued || !s->hosp_external || !s->alive ||
      !s->fixed || !s->tail || !s->post_lo || !s->post_hi) {
    bb_smc_hr_scratch_free(s);
    bb_fail(err, BB_ERR_NOMEM, "stable_matching_hr: out of memory for the propagator's queues");
    return NULL;
  }
  return s;
}

void bb_smc_hr_scratch_free(bb_smc_hr_scratch *s) {
  if (!s) return;
  free(s->res_queue);
  free(s->res_queued);
  free(s->hosp_queue);
  free(s->hosp_queued);
  free(s->hosp_external);
  free(s->alive);
  free(s->fixed);
  free(s->tail);
  free(s->post_lo);
  free(s->post_hi);
  free(s);
}

void bb_smc_hr_note(bb_smc_hr_scratch *s, const bb_smc_hr *hr, int var) {
  if (var < hr->nr) {
    if (!s->res_queued[var]) s->res_queued[var] = 1, s->res_queue[s->res_count++] = var;
    return;
  }
  int h = (var - hr->nr) / hr->cols;
  s->hosp_external[h] = 1;
  if (!s->hosp_queued[h]) s->hosp_queued[h] = 1, s->hosp_queue[s->hosp_count++] = h;
}
