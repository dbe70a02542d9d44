#!/usr/bin/env python3
"""Reified and half-reified stable_matching (b <-> stable_matching(...), b -> ...) through
`minizinc --solver bamboo` (and the decomposition on Gecode when it is there), against brute
force over every assignment of the rank variables.

For random instances with n <= 3 (both bases), `minizinc -a` must print exactly the
assignments (men, women, b) that the definition allows:
  b <-> sm:  b is true exactly when the ranks form a stable matching;
  b -> sm:   b false allows everything; b true only stable matchings;
  not b, with b <-> sm: every assignment that is not a stable matching.

    tests/mznlib/check_reified.py --solver-path <build>/minizinc/solvers
Exit 0 when every case passed, 77 (skipped) without minizinc."""
import argparse
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
import mzn_setup  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DECOMPOSITION = os.path.join(HERE, "..", "..", "minizinc", "decomposition")

MODEL = """include "stable_matching.mzn";
int: n;
array[1..n, 1..n] of int: pm;
array[1..n, 1..n] of int: pw;
array[1..n] of var {base}..n - 1 + {base}: men;
array[1..n] of var {base}..n - 1 + {base}: women;
var bool: b;
constraint {form};
solve satisfy;
output ["S \\(men) \\(women) \\(bool2int(b))\\n"];
"""


def is_stable(pm, pw, men, women):
    """men[i] / women[j]: 0-based ranks. A stable (perfect) matching of the full lists?"""
    n = len(pm)
    wife = [pm[i][men[i]] for i in range(n)]
    if sorted(wife) != list(range(n)):
        return False
    for i in range(n):
        if women[wife[i]] != pw[wife[i]].index(i):
            return False
    husband = [0] * n
    for i, w in enumerate(wife):
        husband[w] = i
    for i in range(n):
        for w in range(n):
            if pm[i].index(w) < men[i] and pw[w].index(i) < women[w]:
                return False
    return True


def expected(pm, pw, base, form):
    n = len(pm)
    out = set()
    for men in itertools.product(range(n), repeat=n):
        for women in itertools.product(range(n), repeat=n):
            sm = is_stable(pm, pw, men, women)
            for b in (0, 1):
                ok = {"iff": b == sm, "imp": (not b) or sm, "not": b == sm and not b}[form]
                if ok:
                    out.add(tuple(v + base for v in men + women) + (b,))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mzn_setup.add_arguments(ap)
    ap.add_argument("--cases", type=int, default=18)
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    # Gecode, where minizinc has it, runs the decomposition on the same instances.
    listed = subprocess.run([args.minizinc, "--solvers"], capture_output=True, text=True, env=env).stdout
    solvers = ["bamboo"] + (["gecode"] if mzn_setup.TAGS["gecode"] in listed else [])
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="bamboo-reified-")
    failures = checks = 0
    forms = {"iff": "b <-> stable_matching(men, women, pm, pw)",
             "imp": "b -> stable_matching(men, women, pm, pw)",
             "not": "(b <-> stable_matching(men, women, pm, pw)) /\\ not b"}
    for case in range(args.cases):
        n = 1 + case % 3
        base = case % 2
        form = ("iff", "imp", "not")[(case // 2) % 3]
        pm = [rng.sample(range(n), n) for _ in range(n)]
        pw = [rng.sample(range(n), n) for _ in range(n)]
        want = expected(pm, pw, base, form)
        mzn = os.path.join(tmp, "r%d.mzn" % case)
        dzn = os.path.join(tmp, "r%d.dzn" % case)
        with open(mzn, "w") as f:
            f.write(MODEL.format(base=base, form=forms[form]))
        with open(dzn, "w") as f:
            f.write("n = %d;\npm = [|%s|];\npw = [|%s|];\n" % (
                n, "|".join(",".join(str(v + base) for v in r) for r in pm),
                "|".join(",".join(str(v + base) for v in r) for r in pw)))
        for solver in solvers:
            cmd = [args.minizinc, "--solver", solver] + (["-I", DECOMPOSITION] if solver == "gecode" else []) + ["-a", mzn, dzn]
            p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
            got = {tuple(int(v) for v in re.findall(r"-?\d+", line[2:])) for line in p.stdout.splitlines()
                   if line.startswith("S ")}
            ok = p.returncode == 0 and got == want
            checks += 1
            failures += not ok
            print("%s  case %d (n = %d, base %d, %s) on %s: %d solutions, brute force %d%s" % (
                "ok  " if ok else "FAIL", case, n, base, forms[form], solver, len(got), len(want),
                "" if p.returncode == 0 else ": " + p.stderr.strip()[-300:]), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s) in %d checks" % (failures, checks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
