/* The HRC constraint's core (propagator/smc/hrc) at bp = 0 (the stable matchings) against the
 * linear rows of stability, on tiny random instances with strict hospitals' lists and with ties
 * on the hospitals' side (weak stability). From the root domains propagated to a fixpoint with
 * bp in [0, 0], bound propagation of each row below must find nothing left to remove: a rule
 * that counted the resident himself among those who may fill the hospital of his own demand
 * (his premise puts him elsewhere) would leave some row with a consequence.
 *   single r, his entry j at hospital h (he ranks there at slot s):
 *     cap(h) * (1 - [r at entry 0 .. j]) <= h's assignees ranked at or above s (ties: up to
 *     the end of s's tie), r himself aside;
 *   couple c (members m1, m2), its entry j = (h1, h2), case 2a (the couple holds a worse pair
 *     that keeps m2 at h2; m1 moves to h1):
 *     (cap(h1) - [h1 == h2]) * ([m2 at h2] - [c at pair 0 .. j]) <= h1's assignees ranked at
 *     or above m1, m1 and m2 aside (m2 at h2 holds one of h1's posts when h1 == h2), and 2b
 *     the same with the members' roles swapped.
 * Each left side is 1 exactly when the pair would block if the hospital wanted the resident,
 * so every stable matching satisfies the rows. Bound propagation of a row: with its left side
 * surely 1, the right side's possible residents must be at least its coefficient, and all of
 * them are there when exactly that many; with the right side's possible residents fewer than
 * the coefficient, the left side is 0: for a single, his one value left among 0 .. j is his,
 * for a couple, every value that makes the left side 1 goes. The root must also keep every
 * stable matching (brute force by the harness's reference). */
#include "bth_hrc.h"
#include "hrc.h"
#include "smc_hrc.h"
#include "smc_hrc_testlib.h"
#include "test_util.h"

/* Propagates to a fixpoint with bp in [0, 0]; false on failure. */
static bool stable_root(const bb_smc_hrc *d, doms *D) {
  bb_smc_domains dom = doms_table(D);
  for (int round = 0; round < 1000; round++) {
    int64_t lb, ub;
    bb_smc_status r = bb_smc_hrc_propagate(d, &dom, 0, &lb, &ub);
    if (r == BB_SMC_FAILED || lb > 0) return false;
    if (r == BB_SMC_FIX) return true;
  }
  CHECKF(0, "no fixpoint after 1000 rounds");
  return false;
}

/* The variables as the core numbers them: the singles by resident id, then the couples. */
static int var_of_single(const hb_inst *I, int r) {
  int v = 0;
  for (int q = 0; q < r; q++) v += I->couple_of[q] < 0;
  return v;
}

static int n_singles(const hb_inst *I) { return var_of_single(I, I->nR); }

/* Hospital h's position of resident q (-1: not listed), and his rank there. */
static int hpos(const hb_inst *I, int h, int q) {
  for (int k = 0; k < I->hlen[h]; k++)
    if (I->hlist[h][k] == q) return k;
  return -1;
}
static int hrank(const hb_inst *I, int h, int k) { return I->tied ? I->hrank[h][k] : k; }

/* The values of q's variable (mask) that place resident q at hospital h, and that variable. */
static uint32_t at_values(const hb_inst *I, const doms *D, int q, int h, int *var) {
  uint32_t m = 0;
  int c = I->couple_of[q];
  if (c < 0) {
    *var = var_of_single(I, q);
    for (int k = 0; k < I->slen[q]; k++) m |= (uint32_t)(I->slist[q][k] == h) << k;
  } else {
    *var = n_singles(I) + c;
    int who = I->member[2 * c] == q ? 0 : 1;
    for (int k = 0; k < I->clen[c]; k++) m |= (uint32_t)(I->clist[c][k][who] == h) << k;
  }
  return m & D->mask[*var];
}

/* The residents other than a and b that h ranks at or above position k and that D allows at
 * h; with check, those must all be at h (the row with exactly that many). */
static int others_above(const hb_inst *I, const doms *D, int h, int k, int a, int b, bool check) {
  int n = 0;
  for (int t = 0; t < I->hlen[h]; t++) {
    int q = I->hlist[h][t], v;
    if (q == a || q == b || hrank(I, h, t) > hrank(I, h, k)) continue;
    uint32_t m = at_values(I, D, q, h, &v);
    n += m != 0;
    if (check && m)
      CHECKF(D->mask[v] == m, "resident %d must be at hospital %d (domain %x, there %x)", q, h, D->mask[v], m);
  }
  return n;
}

static int fired_single, fired_couple;

static void single_rows(const hb_inst *I, const doms *D) {
  for (int r = 0; r < I->nR; r++) {
    if (I->couple_of[r] >= 0) continue;
    int v = var_of_single(I, r);
    for (int j = 0; j < I->slen[r]; j++) {
      int h = I->slist[r][j], s = hpos(I, h, r);
      if (s < 0) continue; /* not acceptable: never blocks */
      uint32_t left = D->mask[v] & ((2u << j) - 1);
      int others = others_above(I, D, h, s, r, r, false), cap = I->cap[h];
      if (left == 0) {
        CHECKF(others >= cap, "single %d, entry %d: hospital %d cannot be full, the root lives", r, j, h);
        if (others == cap) others_above(I, D, h, s, r, r, true);
        fired_single += others <= cap;
      } else if ((left & (left - 1)) == 0 && others < cap) {
        CHECKF(D->mask[v] == left, "single %d: domain %x, the row of his entry %d leaves only %x", r, D->mask[v], j,
               left);
        fired_single++;
      }
    }
  }
}

/* Couple c's rows of case 2a (who = 0: the first member moves, the second stays) or 2b. */
static void couple_rows(const hb_inst *I, const doms *D, int c, int who) {
  int v = n_singles(I) + c, mover = I->member[2 * c + who], stayer = I->member[2 * c + 1 - who];
  for (int j = 0; j < I->clen[c]; j++) {
    int h = I->clist[c][j][who], stay = I->clist[c][j][1 - who], s = hpos(I, h, mover);
    if (s < 0 || hpos(I, stay, stayer) < 0) continue; /* not acceptable */
    uint32_t all = 0;                                 /* the values that make the left side 1 */
    for (int p = j + 1; p < I->clen[c]; p++) all |= (uint32_t)(I->clist[c][p][1 - who] == stay) << p;
    uint32_t S = all & D->mask[v];
    int others = others_above(I, D, h, s, mover, stayer, false), need = I->cap[h] - (h == stay);
    if (S != 0 && S == D->mask[v]) {
      CHECKF(others >= need, "couple %d, entry %d: hospital %d cannot be full, the root lives", c, j, h);
      if (others == need) others_above(I, D, h, s, mover, stayer, true);
      fired_couple += others <= need;
    } else if (all != 0 && others < need) {
      CHECKF(S == 0, "couple %d: values %x make entry %d block at hospital %d", c, S, j, h);
      fired_couple++;
    }
  }
}

typedef struct keep_ctx {
  const bb_hrc *H;
  const bb_smc_hrc *d;
  const doms *root; /* NULL: the root failed */
  int stable;
} keep_ctx;

static void keeps(void *c, const int *val) {
  keep_ctx *x = c;
  int32_t M[HB_MAX_R];
  if (solution(x->H, x->d, val, M) != 0) return;
  x->stable++;
  CHECKF(x->root != NULL, "%s", "the root failed, yet a stable matching exists");
  for (int v = 0; x->root && v < x->root->n; v++)
    CHECKF(x->root->mask[v] >> val[v] & 1u, "variable %d lost value %d of a stable matching", v, val[v]);
}

/* One fixpoint at bp = 0 from domains B (the root's or narrower): its rows, and every stable
 * matching inside B kept (when B has few enough assignments to enumerate). */
typedef struct tally {
  int fixpoints, failed, single_rows, couple_rows, stable, enumerated;
} tally;

static void trial(const hb_inst *I, const bb_hrc *H, const bb_smc_hrc *d, const doms *B, tally *y) {
  doms D = *B;
  bool alive = stable_root(d, &D);
  if (alive) {
    y->fixpoints++;
    int fs = fired_single, fc = fired_couple;
    single_rows(I, &D);
    for (int c = 0; c < I->nC; c++) couple_rows(I, &D, c, 0), couple_rows(I, &D, c, 1);
    y->single_rows += fired_single - fs;
    y->couple_rows += fired_couple - fc;
  } else {
    y->failed++;
  }
  long assignments = 1;
  for (int v = 0; v < B->n; v++) assignments *= popcount(B->mask[v]);
  if (assignments > 20000) return;
  int val[2 * HB_MAX_R];
  keep_ctx k = {H, d, alive ? &D : NULL, 0};
  each_assignment(B, 0, val, keeps, &k);
  y->stable += k.stable;
  y->enumerated++;
}

int main(void) {
  tally y[2] = {{0}, {0}};
  for (int t = 0; t < 4000; t++) {
    int tied = t >= 2000;
    hb_inst I;
    int nH = 1 + (int)hb_rand(4), nC = (int)hb_rand(4), nS = (int)hb_rand(5);
    if (2 * nC + nS == 0) nS = 1;
    hb_random(&I, 2 * nC + nS, nH, nC, 1 + (int)hb_rand(HB_MAX_L)); /* long joint lists: pairs sharing a hospital */
    for (int h = 0; h < I.nH; h++) I.cap[h] = 1 + (int)hb_rand(3);
    if (tied) hb_add_ties(&I);
    lists l;
    bb_smc_hrc *d;
    bb_hrc *H;
    if (!hb_build_checked(&I, &l, &d, &H)) continue;
    doms root = root_domains(d);
    trial(&I, H, d, &root, &y[tied]);
    for (int sub = 0; sub < 8; sub++) { /* narrower domains, as a search would leave them */
      doms B = root;
      for (int v = 0; v < B.n; v++) {
        uint32_t m = B.mask[v] & (uint32_t)hb_rand(1u << 16);
        if (m && hb_rand(2)) B.mask[v] = m;
      }
      trial(&I, H, d, &B, &y[tied]);
    }
    bb_hrc_free(H);
    bb_smc_hrc_release(d);
  }
  for (int k = 0; k < 2; k++) {
    printf(
        "%s: %d fixpoints at bp = 0 (%d failed), rows with a consequence the fixpoint holds: %d of singles, %d of "
        "couples; %d stable matchings kept in %d enumerations\n",
        k ? "ties" : "strict", y[k].fixpoints, y[k].failed, y[k].single_rows, y[k].couple_rows, y[k].stable,
        y[k].enumerated);
    CHECKF(y[k].single_rows > 0 && y[k].couple_rows > 0 && y[k].failed > 0 && y[k].stable > 0,
           "%s: some kind of fixpoint or row never seen", k ? "ties" : "strict");
  }
  return tu_finish();
}
