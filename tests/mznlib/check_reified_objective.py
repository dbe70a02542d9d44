#!/usr/bin/env python3
"""The objective predicates of stable_matching_objective.mzn under a Boolean (on -> P,
on <-> P, not P) through `minizinc --solver bamboo`, against the decomposition on Gecode.

bamboo's lattice bound has no reified form, so the reified objectives are the plain
definitions; a wrong one shows up as a different solution set or optimum. For each of
stable_matching_weight, _egalitarian, _sex_equal and _min_regret:
  - on models/table1.dzn, cost in -10..100, `solve minimize cost + 50 * (1 - on)` (so that
    on free must find the predicate's optimum) with on free, forced true and forced false,
    under -> and <->, and with the predicate negated: the same optimum (or
    unsatisfiability) on both solvers;
  - on random instances with n = 2 (every form) and n = 3 (on forced true), `-a` under
    `solve satisfy`: the same set of (men, women, cost, on) on both solvers, and for n = 2
    the set that brute force over every assignment gives from the definitions.

    tests/mznlib/check_reified_objective.py --solver-path <build>/minizinc/solvers
Exit 0 when every case passed, 77 (skipped) without minizinc or fzn-gecode."""
import argparse
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
from check_reified import is_stable  # noqa: E402 (the brute force of b <-> stable_matching)
import mzn_setup  # noqa: E402
DECOMPOSITION = os.path.join(ROOT, "minizinc", "decomposition")
TABLE1 = os.path.join(ROOT, "models", "table1.dzn")

MODEL = """include "stable_matching_objective.mzn";
int: n;
array[int, int] of int: pm;
array[int, int] of int: pw;
int: base = min(array1d(pm));
array[1..n, 1..n] of int: wm = array2d(1..n, 1..n, [(3 * i + 5 * k) mod 7 - 2 | i, k in 1..n]);
array[1..n, 1..n] of int: ww = array2d(1..n, 1..n, [(2 * j + 3 * k) mod 5 | j, k in 1..n]);
array[1..n] of var base..base + n - 1: men;
array[1..n] of var base..base + n - 1: women;
var {cost_lo}..{cost_hi}: cost;
var bool: on;
constraint {form};
solve {solve};
output ["S \\(men) \\(women) \\(cost) \\(bool2int(on))\\n"];
"""

CALLS = {
    "weight": "stable_matching_weight(men, women, pm, pw, wm, ww, cost)",
    "egalitarian": "stable_matching_egalitarian(men, women, pm, pw, cost)",
    "sex_equal": "stable_matching_sex_equal(men, women, pm, pw, cost)",
    "min_regret": "stable_matching_min_regret(men, women, pm, pw, cost)",
}

# name -> the constraint item's text, with P for the predicate's call
FORMS = {
    "imp": "on -> P",
    "imp_true": "(on -> P) /\\ on",
    "imp_false": "(on -> P) /\\ not on",
    "iff": "on <-> P",
    "iff_true": "(on <-> P) /\\ on",
    "iff_false": "(on <-> P) /\\ not on",
    "negated": "not P /\\ on",
}


def wm(i, k):  # the model's weights, 1-based man and rank
    return (3 * i + 5 * k) % 7 - 2


def ww(j, k):
    return (2 * j + 3 * k) % 5


def cost_of(name, men, women, base):
    """The predicate's cost for these ranks (in the base), from its definition."""
    if name == "weight":
        return (sum(wm(i + 1, r - base + 1) for i, r in enumerate(men))
                + sum(ww(j + 1, r - base + 1) for j, r in enumerate(women)))
    if name == "egalitarian":
        return sum(men) + sum(women)
    if name == "sex_equal":
        return abs(sum(men) - sum(women))
    return max(men + women)


def brute(name, form, pm, pw, base, lo, hi):
    """Every (men, women, cost, on) the form allows, ranks and cost in the model's ranges."""
    n = len(pm)
    out = set()
    for men in itertools.product(range(base, base + n), repeat=n):
        for women in itertools.product(range(base, base + n), repeat=n):
            stable = is_stable(pm, pw, [r - base for r in men], [r - base for r in women])
            defined = cost_of(name, list(men), list(women), base)
            for cost in range(lo, hi + 1):
                p = stable and cost == defined
                for on in (False, True):
                    ok = {"imp": not on or p, "imp_true": on and p, "imp_false": not on,
                          "iff": on == p, "iff_true": on and p, "iff_false": not on and not p,
                          "negated": on and not p}[form]
                    if ok:
                        out.add(men + women + (cost, int(on)))
    return out


def run(args, env, solver, mzn, dzn, all_solutions):
    """(exit status, set of solution tuples, whether the search was complete, stderr)."""
    cmd = [args.minizinc, "--solver", solver] + (["-I", DECOMPOSITION] if solver == "gecode" else [])
    cmd += (["-a"] if all_solutions else []) + [mzn, dzn]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    got = [tuple(int(v) for v in re.findall(r"-?\d+", line[2:])) for line in p.stdout.splitlines()
           if line.startswith("S ")]
    status = ("complete" if "==========" in p.stdout else
              "unsat" if "=====UNSATISFIABLE=====" in p.stdout else "incomplete")
    return p.returncode, got, status, p.stderr.strip()


def write_dzn(path, pm, pw, base):
    n = len(pm)
    with open(path, "w") as f:
        f.write("n = %d;\npm = [|%s|];\npw = [|%s|];\n" % (
            n, "|".join(",".join(str(v + base) for v in r) for r in pm),
            "|".join(",".join(str(v + base) for v in r) for r in pw)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mzn_setup.add_arguments(ap)
    ap.add_argument("--cases", type=int, default=4, help="random instances per predicate")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args, want=("gecode",))
    if code is not None:
        return code
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="bamboo-reified-objective-")
    failures = checks = 0

    def check(label, mzn_text, dzn, all_solutions, want=None):
        nonlocal failures, checks
        mzn = os.path.join(tmp, "m%d.mzn" % checks)
        with open(mzn, "w") as f:
            f.write(mzn_text)
        rc_b, got_b, st_b, err_b = run(args, env, "bamboo", mzn, dzn, all_solutions)
        rc_g, got_g, st_g, err_g = run(args, env, "gecode", mzn, dzn, all_solutions)
        if all_solutions:
            same = set(got_b) == set(got_g) and len(got_b) == len(set(got_b))
            what = "%d solutions, gecode %d" % (len(set(got_b)), len(set(got_g)))
            if want is not None:
                same = same and set(got_b) == want
                what += ", brute force %d" % len(want)
        else:  # the optimum, cost + 50 * (1 - on), of the last solution printed
            opt_b = got_b[-1][-2] + 50 * (1 - got_b[-1][-1]) if got_b else None
            opt_g = got_g[-1][-2] + 50 * (1 - got_g[-1][-1]) if got_g else None
            same = opt_b == opt_g
            what = "optimum %s, gecode %s" % (opt_b, opt_g)
        ok = rc_b == 0 and rc_g == 0 and st_b == st_g and st_b != "incomplete" and same
        checks += 1
        failures += not ok
        print("%s  %s: %s (%s)%s" % ("ok  " if ok else "FAIL", label, what, st_b,
                                     "" if rc_b == 0 else ": " + err_b[-300:]), flush=True)

    for name, call in CALLS.items():
        for form, text in FORMS.items():
            mzn = MODEL.format(cost_lo=-10, cost_hi=100, form=text.replace("P", call),
                               solve="minimize cost + 50 * (1 - bool2int(on))")
            check("table1, %s, %s" % (name, text), mzn, TABLE1, False)
        for case in range(args.cases):
            n = 2 if case % 2 == 0 else 3
            base = (case // 2) % 2
            pm = [rng.sample(range(n), n) for _ in range(n)]
            pw = [rng.sample(range(n), n) for _ in range(n)]
            dzn = os.path.join(tmp, "%s%d.dzn" % (name, case))
            write_dzn(dzn, pm, pw, base)
            # a cost range a little wider than the costs so that the definition's
            # cost = ... is what cuts it down
            lo, hi = (-6, 2 * n * (n - 1 + base) + 1)
            forms = FORMS if n == 2 else {f: FORMS[f] for f in ("imp_true", "iff_true")}
            for form, text in forms.items():
                mzn = MODEL.format(cost_lo=lo, cost_hi=hi, form=text.replace("P", call), solve="satisfy")
                want = brute(name, form, pm, pw, base, lo, hi) if n == 2 else None
                check("n = %d base %d, %s, %s, -a" % (n, base, name, text), mzn, dzn, True, want)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s) in %d checks" % (failures, checks))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
