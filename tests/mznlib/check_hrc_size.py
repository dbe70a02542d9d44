#!/usr/bin/env python3
"""stable_matching_hrc's size forms through MiniZinc against brute force over all matchings.

Random tiny HRC instances (check_hrc.py's: <= 2 couples, <= 3 singles, <= 3 hospitals of
capacity 1..2; with --ties the hospitals' lists have ties, weak stability), 0- and 1-based, each
solved with `size` = the residents assigned (a couple counting two):
  all      every solution under a random `size >= K`, `size <= K` or `size = K` (K around the
           largest size): exactly the brute-force matchings with that size, each once, with the
           right bp and size (a size bound that cut off a matching loses one; Z3 and Z4 of
           smc_hrc_size.h fire where K is the smallest or largest size left);
  opt      `solve minimize bp * (residents + 1) - size`: the fewest blocking pairs, then the
           most residents placed, against the brute-force optimum;
by `--solver bamboo` (the native constraint and its size bound; and the file form,
stable_matching_hrc_file(singles, couples, bp, size, file) and, on odd cases, its long form
with rp_len, cp_len, hp_len and capacity) and by
`--solver gecode -I minizinc/decomposition` (the decomposition's count). The brute force and
blocking pairs are check_hrc.py's, written from the definition independently of the C code.

    tests/mznlib/check_hrc_size.py --solver-path <build>/minizinc/solvers [--cases 30] [--ties]

Exit 0 when every case passed, 77 (skipped) without minizinc or Gecode's solver."""
import os
import random
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True
from check_hrc import DECLS, Inst, arguments, hrc_text, solve_model  # noqa: E402

MODEL = """include "stable_matching_hrc.mzn";
""" + DECLS + """var -5..100: size;
constraint {call};
{side}
{solve}
output ["S \\(singles) \\(couples) \\(bp) \\(size)\\n"];
"""

INCLUDE_FILE = 'include "stable_matching_hrc_file.mzn";\n'


def placed(inst, vals):
    """Residents assigned by the variables' values (0-based ranks)."""
    n = sum(1 for i in range(inst.nS) if vals[i] < len(inst.slist[i]))
    return n + sum(2 for c in range(inst.nC) if vals[inst.nS + c] < len(inst.clist[c]))


def brute(inst):
    """Every matching: values -> (bp, size)."""
    import itertools
    out = {}
    for vals in itertools.product(*inst.vars_domains()):
        M = inst.matching(vals)
        if M is not None:
            out[tuple(vals)] = (inst.blocking(M), placed(inst, vals))
    return out


def run(args, env, solver, inst, b, side, solve, tmp, k):
    ties = inst.hrank is not None
    mzn, dzn = os.path.join(tmp, "s%d.mzn" % k), os.path.join(tmp, "s%d.dzn" % k)
    if solver in ("bamboo-file", "bamboo-file-long"):
        path = os.path.join(tmp, "s%d.hrc" % k)
        with open(path, "w") as g:
            g.write(hrc_text(inst))
        lens = "rp_len, cp_len, hp_len, cap, " if solver == "bamboo-file-long" else ""
        call = 'stable_matching_hrc_file(singles, couples, bp, %ssize, "%s")' % (lens, path)
        text = INCLUDE_FILE + MODEL
        solver = "bamboo"
    else:
        call = ("stable_matching_hrc(singles, couples, bp, rp, rp_len, cp1, cp2, cp_len, hp, hp_len,%s "
                "array1d(b..b + nH - 1, cap), size)" % (" hp_rank," if ties else ""))
        text = MODEL
    with open(mzn, "w") as f:
        f.write(text.format(call=call, side=side, solve=solve,
                            rank_decl="\narray[int, int] of int: hp_rank;" if ties else ""))
    rc, rows, log = solve_model(args, env, solver, inst, b, mzn, dzn, solve)
    return rc, [(tuple(x - b for x in r[:-2]), r[-2], r[-1]) for r in rows], log


def main():
    args, solvers, env, code = arguments(cases=30, seed=2033)
    if code is not None:
        return code
    rng = random.Random(args.seed)
    failures, checks = 0, 0
    tmp = tempfile.mkdtemp(prefix="hrcsize")
    k = 0
    for case in range(args.cases):
        inst = Inst(rng, args.ties)
        every = brute(inst)
        b = rng.randint(0, 1)
        top = max(s for _, s in every.values())
        K = rng.randint(max(0, top - 2), top)
        op = rng.choice([">=", "<=", "="])
        keep = {">=": lambda s: s >= K, "<=": lambda s: s <= K, "=": lambda s: s == K}[op]
        want_all = sorted((v, n, s) for v, (n, s) in every.items() if keep(s))
        N = inst.nR + 1
        want_opt = min(n * N - s for n, s in every.values())
        # The file form's short and long signatures (the long one checks the sizes against the
        # file) take turns, case by case.
        file_form = "bamboo-file-long" if case % 2 else "bamboo-file"
        for solver in solvers + ([file_form] if "bamboo" in solvers else []):
            tests = [("all", "constraint size %s %d;" % (op, K), "solve satisfy;"),
                     ("opt", "", "solve minimize bp * %d - size;" % N)]
            for name, side, solve in tests:
                k += 1
                checks += 1
                rc, sols, log = run(args, env, solver, inst, b, side, solve, tmp, k)
                if name == "all":
                    got = sorted(sols)
                    ok = rc == 0 and got == want_all and len(got) == len(set(got))
                    want = want_all
                else:
                    got = sols[-1] if sols else None
                    want = want_opt
                    ok = (rc == 0 and got is not None and got[0] in every
                          and every[got[0]] == (got[1], got[2]) and got[1] * N - got[2] == want_opt)
                if not ok:
                    failures += 1
                    print("case %d (%s, %s): got %s, brute force %s\n%s\n%s\n%s" % (
                        case, solver, name, got, want, inst.dzn(b, 0), side, log[-2000:]))
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d checks, %d failed" % (checks, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
