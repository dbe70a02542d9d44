/* The generators of ties_gen.h.
 *
 * smti follows Gent & Prosser (ECAI 2002): every man ranks every woman and every woman every
 * man at random; each pair is then deleted from both lists with probability p1; walking down
 * each list, an entry joins the tie of the one before it with probability p2.
 *
 * hrt and school draw each resident's strict list from hospitals weighted by popularity; a
 * hospital ranks exactly the residents who listed it (so every pair is acceptable both ways)
 * by a class, better class first and equal classes tied. In hrt the class is the resident's
 * score on one master list (SFAS ranked applicants by such scores); in school it is drawn per
 * (student, programme) from a few priority groups (siblings, zone, borough, the rest). */
#include "ties_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

void bb_ties_gen_defaults(bb_ties_gen_kind kind, bb_ties_gen_params *p) {
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->seed = 1;
  if (kind == BB_TIES_GEN_SMTI) {
    p->n_residents = p->n_hospitals = 100;
    p->p1 = 0.5, p->p2 = 0.5;
  } else if (kind == BB_TIES_GEN_HRT) {
    p->n_residents = 700, p->n_hospitals = 50, p->capacity = 14, p->list_length = 6, p->classes = 40, p->skew = 0.5;
  } else {
    p->n_residents = 90000, p->n_hospitals = 700, p->capacity = 100, p->list_length = 12, p->classes = 4, p->skew = 0.8;
  }
}

bool bb_ties_gen_kind_parse(const char *word, bb_ties_gen_kind *kind) {
  static const char *const words[] = {"smti", "hrt", "school"};
  for (int k = 0; word && k < 3; k++)
    if (!strcmp(word, words[k])) return *kind = (bb_ties_gen_kind)k, true;
  return false;
}

static bool kept(uint64_t seed, uint32_t m, uint32_t w, double p1) {
  uint64_t s = seed ^ 0x5DEECE66Dull ^ ((uint64_t)m << 32 | w);
  bb_splitmix64(&s);
  return (double)(bb_splitmix64(&s) >> 11) * 0x1.0p-53 >= p1;
}

static void shuffle(uint32_t *a, uint32_t n, bb_rng *rng) {
  for (uint32_t i = 0; i < n; i++) a[i] = i;
  for (uint32_t i = n; i > 1; i--) {
    uint32_t j = bb_rng_below(rng, i), t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
  }
}

static double unit(bb_rng *rng) { return (double)(bb_rng_next(rng) >> 11) * 0x1.0p-53; }

static bb_status gen_smti(const bb_ties_gen_params *p, bb_ties **out, bb_error *err) {
  uint32_t nm = (uint32_t)p->n_residents, nw = (uint32_t)p->n_hospitals;
  uint64_t pairs = 0;
  for (uint32_t m = 0; m < nm; m++)
    for (uint32_t w = 0; w < nw; w++) pairs += kept(p->seed, m, w, p->p1);
  bb_ties *in = bb_ties_new(true, (int)nm, (int)nw, pairs, pairs, err);
  uint32_t *perm = malloc(((size_t)(nm > nw ? nm : nw) + 1) * sizeof *perm);
  if (!in || !perm) {
    bb_ties_free(in), free(perm);
    return bb_fail(err, BB_ERR_NOMEM, "out of memory for an SMTI instance of %llu pairs", (unsigned long long)pairs);
  }
  for (int side = 0; side < 2; side++) {
    uint32_t count = side ? nw : nm, other = side ? nm : nw, n = 0;
    uint32_t *start = side ? in->hosp_start : in->res_start, *rank = side ? in->hosp_rank : in->res_rank;
    bb_id *list = side ? in->hosp_list : in->res_list;
    for (uint32_t a = 0; a < count; a++) {
      bb_rng rng;
      bb_rng_seed_stream(&rng, p->seed, (uint64_t)side << 32 | a);
      shuffle(perm, other, &rng);
      start[a] = n;
      for (uint32_t i = 0; i < other; i++) {
        uint32_t b = perm[i];
        if (!kept(p->seed, side ? b : a, side ? a : b, p->p1)) continue;
        rank[n] = n == start[a] ? 0 : rank[n - 1] + (unit(&rng) < p->p2 ? 0 : 1);
        list[n++] = b;
      }
    }
    start[count] = n;
  }
  for (uint32_t w = 0; w < nw; w++) in->capacity[w] = 1;
  free(perm);
  *out = in;
  return BB_OK;
}

typedef struct applicant {
  uint32_t cls, resident;
} applicant;

static int by_class(const void *a, const void *b) {
  const applicant *x = a, *y = b;
  if (x->cls != y->cls) return (x->cls > y->cls) - (x->cls < y->cls);
  return (x->resident > y->resident) - (x->resident < y->resident);
}

/* The class hospital h gives resident r: a master-list score (hrt) or a priority group (school). */
static uint32_t class_of(const bb_ties_gen_params *p, const uint32_t *score, uint32_t r, uint32_t h) {
  if (p->kind == BB_TIES_GEN_HRT) return score[r];
  uint64_t s = p->seed ^ 0xC1A55ull ^ ((uint64_t)r << 24) ^ h;
  bb_splitmix64(&s);
  double u = (double)(bb_splitmix64(&s) >> 11) * 0x1.0p-53; /* groups of 10 %, 20 %, 30 %, ... */
  uint32_t c = 0;
  for (double edge = 0.1; c + 1 < (uint32_t)p->classes && u >= edge; c++, edge += 0.1 * (c + 1)) {}
  return c;
}

static bb_status gen_hospitals(const bb_ties_gen_params *p, bb_ties **out, bb_error *err) {
  uint32_t nr = (uint32_t)p->n_residents, nh = (uint32_t)p->n_hospitals;
  uint32_t len = (uint32_t)(p->list_length < (int)nh ? p->list_length : (int)nh);
  double *cumulative = malloc(((size_t)nh + 1) * sizeof *cumulative);
  uint32_t *lens = malloc(((size_t)nr + 1) * sizeof *lens), *score = malloc(((size_t)nr + 1) * sizeof *score);
  bb_ties *in = NULL;
  applicant *apps = NULL;
  bb_status st = BB_OK;
  if (!cumulative || !lens || !score) st = bb_fail(err, BB_ERR_NOMEM, "out of memory for the generator");
  uint64_t total = 0;
  for (uint32_t r = 0; st == BB_OK && r < nr; r++) {
    bb_rng rng;
    bb_rng_seed_stream(&rng, p->seed, r);
    lens[r] = p->kind == BB_TIES_GEN_SCHOOL && len ? 1 + bb_rng_below(&rng, len) : len;
    score[r] = bb_rng_below(&rng, (uint64_t)(p->classes > 0 ? p->classes : 1));
    total += lens[r];
  }
  if (st == BB_OK && !(in = bb_ties_new(false, (int)nr, (int)nh, total, total, err))) st = BB_ERR_NOMEM;
  if (st == BB_OK && !(apps = malloc((size_t)(total ? total : 1) * sizeof *apps)))
    st = bb_fail(err, BB_ERR_NOMEM, "out of memory for the generator");
  if (st == BB_OK) {
    double sum = 0;
    for (uint32_t h = 0; h < nh; h++) cumulative[h] = sum += pow((double)h + 1, -p->skew);
    uint32_t n = 0;
    for (uint32_t r = 0; r < nr; r++) { /* popularity-weighted draws without repeats */
      bb_rng rng;
      bb_rng_seed_stream(&rng, p->seed ^ 0xD7A3ull, r);
      in->res_start[r] = n;
      while (n - in->res_start[r] < lens[r]) {
        double u = unit(&rng) * sum;
        uint32_t lo = 0, hi = nh - 1;
        while (lo < hi) {
          uint32_t mid = (lo + hi) / 2;
          if (cumulative[mid] > u)
            hi = mid;
          else
            lo = mid + 1;
        }
        bool twice = false;
        for (uint32_t e = in->res_start[r]; e < n; e++) twice |= in->res_list[e] == lo;
        if (twice) continue;
        in->res_rank[n] = n - in->res_start[r];
        in->res_list[n++] = lo;
      }
    }
    in->res_start[nr] = n;
    /* hospitals: the applicants of each, by class */
    for (uint32_t e = 0; e < n; e++) in->hosp_start[in->res_list[e] + 1]++;
    for (uint32_t h = 0; h < nh; h++) in->hosp_start[h + 1] += in->hosp_start[h];
    uint32_t *fill = malloc(((size_t)nh + 1) * sizeof *fill);
    if (!fill) st = bb_fail(err, BB_ERR_NOMEM, "out of memory for the generator");
    for (uint32_t h = 0; fill && h < nh; h++) fill[h] = in->hosp_start[h];
    for (uint32_t r = 0; fill && r < nr; r++)
      for (uint32_t e = in->res_start[r]; e < in->res_start[r + 1]; e++) {
        uint32_t h = in->res_list[e];
        apps[fill[h]++] = (applicant){class_of(p, score, r, h), r};
      }
    for (uint32_t h = 0; fill && h < nh; h++) {
      uint32_t b = in->hosp_start[h], end = in->hosp_start[h + 1];
      qsort(apps + b, end - b, sizeof *apps, by_class);
      for (uint32_t e = b; e < end; e++) {
        in->hosp_list[e] = apps[e].resident;
        in->hosp_rank[e] = e == b ? 0 : in->hosp_rank[e - 1] + (apps[e].cls != apps[e - 1].cls);
      }
      in->capacity[h] = p->capacity > 0 ? p->capacity : (int32_t)((nr + nh - 1) / (nh ? nh : 1));
    }
    free(fill);
  }
  free(cumulative), free(lens), free(score), free(apps);
  if (st != BB_OK) {
    bb_ties_free(in);
    return st;
  }
  *out = in;
  return BB_OK;
}

bb_status bb_ties_generate(const bb_ties_gen_params *p, bb_ties **out, bb_error *err) {
  if (!p || !out) return bb_fail(err, BB_ERR_ARG, "bb_ties_generate: NULL argument");
  *out = NULL;
  if (p->n_residents < 0 || p->n_residents > BB_MAX_N || p->n_hospitals < 0 || p->n_hospitals > BB_MAX_N)
    return bb_fail(err, BB_ERR_ARG, "%d and %d people: each side must have 0..%d", p->n_residents, p->n_hospitals,
                   BB_MAX_N);
  if (p->kind == BB_TIES_GEN_SMTI) {
    if (!(p->p1 >= 0 && p->p1 <= 1 && p->p2 >= 0 && p->p2 <= 1))
      return bb_fail(err, BB_ERR_ARG, "p1 = %g and p2 = %g: both must lie in [0, 1]", p->p1, p->p2);
    if ((uint64_t)p->n_residents * (uint64_t)p->n_hospitals > UINT32_MAX - 1)
      return bb_fail(err, BB_ERR_ARG, "%d x %d pairs: too many for complete lists", p->n_residents, p->n_hospitals);
    return gen_smti(p, out, err);
  }
  if (p->list_length < 0 || p->capacity < 0 || p->classes < 1 || !(p->skew >= 0))
    return bb_fail(err, BB_ERR_ARG, "list length %d, capacity %d, %d classes, skew %g: need >= 0, >= 0, >= 1, >= 0",
                   p->list_length, p->capacity, p->classes, p->skew);
  if (p->n_hospitals == 0 && p->list_length > 0 && p->n_residents > 0)
    return bb_fail(err, BB_ERR_ARG, "residents' lists of %d need hospitals", p->list_length);
  if ((uint64_t)p->n_residents * (uint64_t)p->list_length > UINT32_MAX - 1)
    return bb_fail(err, BB_ERR_ARG, "%d residents x %d entries: too many", p->n_residents, p->list_length);
  return gen_hospitals(p, out, err);
}
