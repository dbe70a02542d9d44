/* bamboo-smp gen on Hospitals/Residents with Couples (docs/generators.md, "Couples", "Mallows" and
 * "SFAS"): hrc, nrmp-couples and sfas (hrc_gen.h), hrc-mallows and nrmp-2024 (hrc_mallows.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "hrc.h"
#include "hrc_gen.h"
#include "hrc_io.h"
#include "hrc_mallows.h"

int cli_hrc_gen_kind(const char *kind) {
  return kind && (!strcmp(kind, "hrc") || !strcmp(kind, "nrmp-couples") || !strcmp(kind, "hrc-mallows") ||
                  !strcmp(kind, "nrmp-2024") || !strcmp(kind, "sfas"));
}

static const cli_command cli_gen_hrc = {
    "gen",
    "write a generated HRC instance",
    "gen hrc --n N [--couples C] [--hospitals H] [--posts P] [--lists MIN MAX] [--seed S] [-o FILE] [--binary]\n"
    "       bamboo-smp gen nrmp-couples [--couples C] [--n N] [--hospitals H] [--posts P] [--skew S] [--seed S]\n"
    "                  [-o FILE] [--binary]\n"
    "       bamboo-smp gen hrc-mallows --n N [--couples C] [--hospitals H] [--posts P | --capacity K]\n"
    "                  [--lists MIN MAX] [--member-lists MIN MAX] [--joint MIN MAX] [--phi X]\n"
    "                  [--phi-residents X] [--phi-hospitals X] [--seed S] [-o FILE] [--binary]\n"
    "       bamboo-smp gen nrmp-2024 [the options of hrc-mallows, --n too]\n"
    "       bamboo-smp gen sfas [--n N] [--couples C] [--hospitals H] [--capacity K] [--k K]\n"
    "                  [--classes L] [--skew S] [--seed S] [-o FILE] [--binary]",
    "Hospitals/Residents with Couples (docs/generators.md, \"Couples\" and \"Mallows\"):\n"
    "  hrc            the random instances of Manlove, McBride & Trimble (Constraints 2017):\n"
    "                 N residents, C couples (default N/10), H hospitals (default N/10,\n"
    "                 at least 1), P posts (default N) at random hospitals, lists of 3..5\n"
    "                 distinct hospitals (default; below 5 hospitals min(3,H)..H),\n"
    "                 couples' joint lists the product of their members' lists\n"
    "  nrmp-couples   shaped like the US resident match: 47000 residents of whom C couples\n"
    "                 (default 1000), 6600 programmes, 43000 posts (at least 1 each), lists\n"
    "                 of 10..15, joint lists of 10..15 pairs, popularity skew 0.5\n"
    "  hrc-mallows    correlated preferences: each resident's list is the top of a Mallows\n"
    "                 ranking around one common ranking of the hospitals, each hospital ranks\n"
    "                 its applicants by a Mallows ranking around one common ranking of the\n"
    "                 residents; joint lists are the pairs of the members' lists by the sum of\n"
    "                 their ranks. Defaults as hrc: C = H = N/10, P = N, lists of 3..5, all pairs\n"
    "  nrmp-2024      hrc-mallows shaped like the 2024 NRMP Main Match: 44900 residents of whom\n"
    "                 1100 couples, 6400 programmes, 41500 posts (at least 1 each, unevenly\n"
    "                 spread), lists of 5..20, members' lists of 10..25, joint lists of 20..300\n"
    "                 pairs, phi 0.9995 (residents) and 0.7 (programmes); options override\n"
    "  sfas           shaped like SFAS (Scottish Foundation Allocation Scheme), ties on the\n"
    "                 hospitals' side: 700 residents of whom C couples (default 10), 50\n"
    "                 hospitals of --capacity 14 posts, strict lists of --k 6 hospitals\n"
    "                 (popularity --skew 0.5), joint lists the product of the members' lists,\n"
    "                 hospitals ranking by one master list of scores in --classes 40 classes\n"
    "                 (equal scores tied). Solve with --algo da-stb or da-mtb\n"
    "  --lists MIN MAX  individual list lengths, 1 <= MIN <= MAX <= H (one option, two values)\n"
    "  --member-lists MIN MAX  hrc-mallows, nrmp-2024: couple members' list lengths\n"
    "                 (default: as --lists)\n"
    "  --joint MIN MAX  hrc-mallows, nrmp-2024: a joint list keeps its first J pairs, J uniform\n"
    "                 in MIN..MAX (default hrc-mallows: all pairs)\n"
    "  --phi X        hrc-mallows, nrmp-2024: the dispersion of both sides, 0 < X <= 1\n"
    "                 (1 uniform, near 0 everyone agrees; default 0.5). A list strays about\n"
    "                 X/(1-X) places from the common ranking: over many hospitals, take X near 1\n"
    "  --phi-residents X, --phi-hospitals X   the residents' or the hospitals' alone\n"
    "  --capacity K   hrc-mallows, nrmp-2024: every hospital exactly K posts (not with --posts)\n"
    "  --seed S       unsigned 64-bit seed (default 1)\n"
    "  -o FILE        write to FILE instead of standard output\n"
    "  --binary       the binary format (needs -o)\n",
    NULL,
};

/* The options that take two values (MIN MAX), pulled out before the common parser sees argv. */
typedef struct pair_opt {
  const char *name;
  int value[2], given;
} pair_opt;

static int take_pairs(int argc, char **argv, pair_opt *pairs, int npairs, char **rest, int *nrest) {
  for (int i = 0; i < argc; i++) {
    pair_opt *o = NULL;
    for (int k = 0; k < npairs && i >= 2; k++)
      if (!strcmp(argv[i], pairs[k].name)) o = &pairs[k];
    if (!o) {
      if (i != 1) rest[(*nrest)++] = argv[i];
      continue;
    }
    if (o->given) return cli_usage(&cli_gen_hrc, "%s given twice: give it once, as %s MIN MAX", o->name, o->name);
    for (int k = 0; k < 2; k++) {
      const char *value = i + 1 + k < argc ? argv[i + 1 + k] : NULL;
      int rc = value && !(value[0] == '-' && value[1] == '-')
                   ? cli_parse_int(&cli_gen_hrc, o->name, value, 1, 1000, &o->value[k])
                   : cli_usage(&cli_gen_hrc, "%s needs two values, MIN and MAX (e.g. %s 3 5)", o->name, o->name);
      if (rc) return rc;
    }
    if (o->value[0] > o->value[1])
      return cli_usage(&cli_gen_hrc, "%s %d %d: MIN is larger than MAX", o->name, o->value[0], o->value[1]);
    o->given = 1;
    i += 2;
  }
  rest[*nrest] = NULL;
  return 0;
}

typedef struct hrc_gen_args {
  int n, couples, hospitals, posts, capacity, binary;
  int k, classes; /* sfas: list length, score classes */
  double skew, phi, phi_residents, phi_hospitals;
  pair_opt lists, member_lists, joint;
} hrc_gen_args;

static void fit_lists(int *lo, int *hi, int hospitals) {
  if (*hi > hospitals) *hi = hospitals;
  if (*lo > *hi) *lo = *hi;
}

static int params_classic(const char *kind, const hrc_gen_args *a, bb_hrc_gen_params *p) {
  if (a->member_lists.given || a->joint.given || a->phi >= 0 || a->phi_residents >= 0 || a->phi_hospitals >= 0 ||
      a->capacity)
    return cli_usage(&cli_gen_hrc, "--member-lists, --joint, --phi* and --capacity go with hrc-mallows and nrmp-2024");
  if (!strcmp(kind, "hrc")) {
    if (!a->n) return cli_usage(&cli_gen_hrc, "gen hrc needs --n N");
    if (a->skew >= 0) return cli_usage(&cli_gen_hrc, "--skew goes with nrmp-couples");
    int h = a->hospitals ? a->hospitals : (a->n / 10 > 0 ? a->n / 10 : 1);
    bb_hrc_gen_mmt2017(p, a->n, a->couples >= 0 ? a->couples : a->n / 10, h);
    if (a->posts >= 0) p->posts = a->posts;
    if (a->lists.given)
      p->min_list = a->lists.value[0], p->max_list = a->lists.value[1];
    else /* the default 3..5 fitted to fewer than 5 hospitals (N < 50), since lists are distinct */
      fit_lists(&p->min_list, &p->max_list, h);
    return 0;
  }
  if (a->lists.given) return cli_usage(&cli_gen_hrc, "--lists goes with hrc, hrc-mallows and nrmp-2024");
  bb_hrc_gen_nrmp(p, a->couples > 0 ? a->couples : 0);
  if (a->couples == 0) p->n_couples = 0;
  if (a->n) p->n_residents = a->n;
  if (a->hospitals) p->n_hospitals = a->hospitals;
  if (a->posts >= 0) p->posts = a->posts;
  if (a->skew >= 0) p->skew = a->skew;
  fit_lists(&p->min_list, &p->max_list, p->n_hospitals);
  if ((int64_t)p->min_capacity * p->n_hospitals > p->posts) p->min_capacity = 0;
  return 0;
}

/* sfas: the options of the HRT generator's hrt (gen hrt) where they mean the same. */
static int params_sfas(const hrc_gen_args *a, bb_hrc_gen_params *p) {
  if (a->lists.given || a->member_lists.given || a->joint.given || a->phi >= 0 || a->phi_residents >= 0 ||
      a->phi_hospitals >= 0 || a->posts >= 0)
    return cli_usage(&cli_gen_hrc,
                     "--lists, --member-lists, --joint, --phi* and --posts do not go with sfas "
                     "(--k, --capacity and --classes do)");
  bb_hrc_gen_sfas(p, a->couples >= 0 ? a->couples : 10);
  if (a->n) p->n_residents = a->n;
  if (a->hospitals) p->n_hospitals = a->hospitals;
  if (a->k) p->min_list = p->max_list = a->k;
  if (a->classes) p->score_classes = a->classes;
  if (a->skew >= 0) p->skew = a->skew;
  if (a->capacity) p->min_capacity = a->capacity;
  p->posts = (int64_t)p->min_capacity * p->n_hospitals;
  if (p->max_list > p->n_hospitals) p->min_list = p->max_list = p->n_hospitals;
  return 0;
}

static int check_phi(const char *name, double phi) {
  if (phi < 0 || (phi > 0 && phi <= 1)) return 0;
  return cli_usage(&cli_gen_hrc, "%s %g: expected a dispersion 0 < phi <= 1", name, phi);
}

static int params_mallows(const char *kind, const hrc_gen_args *a, bb_hrc_mallows_params *p) {
  if (a->skew >= 0) return cli_usage(&cli_gen_hrc, "--skew goes with nrmp-couples");
  if (a->capacity && a->posts >= 0) return cli_usage(&cli_gen_hrc, "--capacity and --posts: give one of them");
  int rc;
  if ((rc = check_phi("--phi", a->phi)) || (rc = check_phi("--phi-residents", a->phi_residents)) ||
      (rc = check_phi("--phi-hospitals", a->phi_hospitals)))
    return rc;
  if (!strcmp(kind, "hrc-mallows")) {
    if (!a->n) return cli_usage(&cli_gen_hrc, "gen hrc-mallows needs --n N");
    int h = a->hospitals ? a->hospitals : (a->n / 10 > 0 ? a->n / 10 : 1);
    bb_hrc_mallows_default(p, a->n, a->couples >= 0 ? a->couples : a->n / 10, h);
    if (!a->lists.given) fit_lists(&p->min_list, &p->max_list, h);
  } else {
    bb_hrc_mallows_nrmp2024(p);
    if (a->n) p->n_residents = a->n;
    if (a->couples >= 0) p->n_couples = a->couples;
    if (a->hospitals) p->n_hospitals = a->hospitals;
    if (!a->lists.given) fit_lists(&p->min_list, &p->max_list, p->n_hospitals);
    if (!a->member_lists.given) fit_lists(&p->member_min_list, &p->member_max_list, p->n_hospitals);
  }
  if (a->lists.given) p->min_list = a->lists.value[0], p->max_list = a->lists.value[1];
  if (a->member_lists.given)
    p->member_min_list = a->member_lists.value[0], p->member_max_list = a->member_lists.value[1];
  if (a->joint.given) p->joint_min = a->joint.value[0], p->joint_max = a->joint.value[1];
  if (a->phi > 0) p->phi_residents = p->phi_hospitals = a->phi;
  if (a->phi_residents > 0) p->phi_residents = a->phi_residents;
  if (a->phi_hospitals > 0) p->phi_hospitals = a->phi_hospitals;
  if (a->posts >= 0) p->posts = a->posts;
  if (a->capacity) p->min_capacity = a->capacity, p->posts = (int64_t)a->capacity * p->n_hospitals;
  if ((int64_t)p->min_capacity * p->n_hospitals > p->posts) p->min_capacity = 0;
  return 0;
}

int cli_hrc_gen(int argc, char **argv) {
  const char *kind = argv[1], *out = NULL;
  hrc_gen_args a = {.couples = -1, .posts = -1, .skew = -1, .phi = -1, .phi_residents = -1, .phi_hospitals = -1};
  a.lists.name = "--lists", a.member_lists.name = "--member-lists", a.joint.name = "--joint";
  uint64_t seed = CLI_DEFAULT_SEED;
  const cli_opt opts[] = {
      {"--n", CLI_INT, &a.n, 1, BB_MAX_N},
      {"--couples", CLI_INT, &a.couples, 0, BB_MAX_N},
      {"--hospitals", CLI_INT, &a.hospitals, 1, BB_MAX_N},
      {"--posts", CLI_INT, &a.posts, 0, 2000000000},
      {"--capacity", CLI_INT, &a.capacity, 1, 1000000},
      {"--skew", CLI_REAL, &a.skew, 0, 0},
      {"--k", CLI_INT, &a.k, 1, 1000},
      {"--classes", CLI_INT, &a.classes, 1, 1000000},
      {"--phi", CLI_REAL, &a.phi, 0, 0},
      {"--phi-residents", CLI_REAL, &a.phi_residents, 0, 0},
      {"--phi-hospitals", CLI_REAL, &a.phi_hospitals, 0, 0},
      {"--seed", CLI_U64, &seed, 0, 0},
      {"-o", CLI_STRING, &out, 0, 0},
      {"--binary", CLI_FLAG, &a.binary, 0, 0},
      {NULL, CLI_FLAG, NULL, 0, 0},
  };
  char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
  if (!rest) return CLI_EXIT_NOMEM;
  pair_opt pairs[3] = {a.lists, a.member_lists, a.joint};
  int nrest = 0, rc = take_pairs(argc, argv, pairs, 3, rest, &nrest);
  a.lists = pairs[0], a.member_lists = pairs[1], a.joint = pairs[2];
  if (!rc) rc = cli_parse(&cli_gen_hrc, nrest, rest, opts, NULL);
  free(rest);
  if (rc) return rc == CLI_HELP_SHOWN ? CLI_EXIT_OK : rc;
  if (a.binary && !out) return cli_usage(&cli_gen_hrc, "--binary needs -o FILE");
  bb_hrc *inst = NULL;
  bb_error err = {{0}};
  bb_status st;
  if (strcmp(kind, "sfas") && (a.k || a.classes)) return cli_usage(&cli_gen_hrc, "--k and --classes go with sfas");
  if (!strcmp(kind, "sfas")) {
    bb_hrc_gen_params p;
    if ((rc = params_sfas(&a, &p))) return rc;
    p.seed = seed;
    st = bb_hrc_generate(&p, &inst, &err);
  } else if (!strcmp(kind, "hrc") || !strcmp(kind, "nrmp-couples")) {
    bb_hrc_gen_params p;
    if ((rc = params_classic(kind, &a, &p))) return rc;
    p.seed = seed;
    st = bb_hrc_generate(&p, &inst, &err);
  } else {
    bb_hrc_mallows_params p;
    if ((rc = params_mallows(kind, &a, &p))) return rc;
    p.seed = seed;
    st = bb_hrc_generate_mallows(&p, &inst, &err);
  }
  if (st != BB_OK) return st == BB_ERR_ARG ? cli_usage(&cli_gen_hrc, "%s", err.msg) : cli_fail(st, &err);
  const char *path = out ? out : "-";
  st = a.binary ? bb_hrc_write_binary(inst, path, &err) : bb_hrc_write_text(inst, path, &err);
  bb_hrc_free(inst);
  return st == BB_OK ? CLI_EXIT_OK : cli_fail(st, &err);
}
