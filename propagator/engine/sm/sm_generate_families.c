/* Instance families with many stable matchings, for optimisation over stable
 * matchings (bench/research.sh's workloads). docs/generators.md states what
 * each kind generates.
 *
 * Both are group-table ("Latin square") instances. Ids 0..n-1 are the elements
 * of the group G = Z_r1 x Z_r2 x ... (mixed radix, digit d of x is x's
 * coordinate in Z_rd, least significant first), with + and - digit-wise: man
 * i's k-th choice is i + k, and woman j's k-th choice is j - (n - 1 - k); so a
 * man ranks woman w at position w - i read as a number, and a woman ranks man m
 * at n - 1 - (j - m): each pair's two ranks are opposite, which is what makes
 * the men's and the women's interests pull apart and the lattice of stable
 * matchings large. latin           radices g, g, ..., g, r (as many g as divide
 * n, the rest r); g = n (or 1) gives the cyclic square: exactly n stable
 * matchings (the diagonals). irving-leather  n = 2^k, every radix 2 (+ and -
 * are XOR): Irving and Leather's doubling construction (SIAM J. Comput. 15,
 * 1986), 1, 2, 10, 268, 195472, ... stable matchings for n = 1, 2, 4, 8, 16
 * (a_k = 3 a_{k-1}^2 - 2 a_{k-2}^4). tests/test_generator_families.c counts the
 * stable matchings by brute force. No randomness: the seed is not used. */
#include "generate_families.h"

#define BB_FAMILY_MAX_DIGITS 64

typedef struct family_radix {
  int count;
  int radix[BB_FAMILY_MAX_DIGITS];
} family_radix;

static void family_radices(int n, int group, family_radix *r) {
  r->count = 0;
  int rest = n;
  if (group > 1 && group < n)
    while (rest > 1 && rest % group == 0 && r->count < BB_FAMILY_MAX_DIGITS - 1) {
      r->radix[r->count++] = group;
      rest /= group;
    }
  if (rest > 1 || r->count == 0) r->radix[r->count++] = rest;
}

/* a + sign * b in G (sign is +1 or -1). */
static int family_combine(const family_radix *r, int a, int b, int sign) {
  int out = 0, scale = 1;
  for (int d = 0; d < r->count; d++) {
    int rd = r->radix[d];
    int x = a % rd, y = b % rd;
    a /= rd;
    b /= rd;
    int z = (x + sign * y) % rd;
    if (z < 0) z += rd;
    out += z * scale;
    scale *= rd;
  }
  return out;
}

bb_status bb_generate_family(bb_gen_kind kind, int n, int group, bb_instance *inst, bb_error *err) {
  if (kind == BB_GEN_IRVING_LEATHER) {
    if (n & (n - 1)) return bb_fail(err, BB_ERR_ARG, "irving-leather needs n = 2^k, not n = %d", n);
    group = 2;
  } else if (kind != BB_GEN_LATIN) {
    return bb_fail(err, BB_ERR_ARG, "bb_generate_family: kind %d is not a family", (int)kind);
  }
  family_radix r;
  family_radices(n, group, &r);
  for (int i = 0; i < n; i++) {
    bb_id *man = inst->men_prefs + (size_t)i * (size_t)n;
    bb_id *woman = inst->women_prefs + (size_t)i * (size_t)n;
    for (int k = 0; k < n; k++) {
      man[k] = (bb_id)family_combine(&r, i, k, +1);
      woman[k] = (bb_id)family_combine(&r, i, n - 1 - k, -1);
    }
  }
  return BB_OK;
}
