#!/usr/bin/env python3
"""models/hrc_challenge.mzn (the MiniZinc Challenge's `hrc` problem on stable_matching_hrc)
through `minizinc --solver bamboo`, on data in the Challenge's own layout, against the
Challenge model's meaning: the fewest unassigned residents (a couple counts twice) over the
matchings with AT MOST num_bp blocking pairs, and no solution when num_bp exceeds the number
of the model's blocking-pair Booleans (the singles' list lengths plus the couples').

The Challenge's hrc.mzn sums its Booleans to exactly num_bp, but a blocking pair only
implies its Boolean, so the spare ones make up the difference: one single resident, one
hospital of capacity 1 that ranks him, num_bp = 1 has optimum 0 (he is assigned, no blocking
pair), not 1. That instance first, then random tiny instances against brute force
(check_hrc.py's blocking pairs, from Definition 1 of Manlove, McBride & Trimble).

    tests/mznlib/check_hrc_challenge.py --solver-path <build>/minizinc/solvers
    [--challenge-model hrc.mzn]   also run the Challenge's own model on Gecode, same data

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
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODEL = os.path.join(ROOT, "models", "hrc_challenge.mzn")
sys.path.insert(0, HERE)
import check_hrc as ch  # noqa: E402
import mzn_setup  # noqa: E402

# one single, one hospital of capacity 1 that ranks him
TINY = {"nS": 1, "nC": 0, "nH": 1, "cap": [1], "slist": [[0]], "clist": [], "hlist": [[0]]}


def make(fields):
    inst = ch.Inst.__new__(ch.Inst)
    for k, v in fields.items():
        setattr(inst, k, v)
    inst.nR = inst.nS + 2 * inst.nC
    return inst


def mutual(rng):
    """A random check_hrc instance made mutually acceptable, as the Challenge's data are (its
    model reads hrank for every listed hospital): residents keep the hospitals that rank them,
    hospitals then rank exactly the residents that list them."""
    while True:
        inst = ch.Inst(rng)
        inst.slist = [[h for h in lst if inst.rank(h, 2 * inst.nC + i) is not None]
                      for i, lst in enumerate(inst.slist)]
        inst.clist = [[(h1, h2) for h1, h2 in lst
                       if inst.rank(h1, 2 * c) is not None and inst.rank(h2, 2 * c + 1) is not None]
                      for c, lst in enumerate(inst.clist)]
        if all(inst.slist) and all(inst.clist):
            break
    listed = [set() for _ in range(inst.nH)]
    for i, lst in enumerate(inst.slist):
        for h in lst:
            listed[h].add(2 * inst.nC + i)
    for c, lst in enumerate(inst.clist):
        for h1, h2 in lst:
            listed[h1].add(2 * c)
            listed[h2].add(2 * c + 1)
    inst.hlist = [[r for r in inst.hlist[h] if r in listed[h]] for h in range(inst.nH)]
    return inst


def challenge_dzn(inst, num_bp):
    """The Challenge's layout: residents 1..nres, couple c = 2c - 1, 2c with parallel rows,
    singles after; rows padded with zeros (at least one), hrank 0 where unranked."""
    rows, lens = [], []
    for c in range(inst.nC):
        rows += [[h + 1 for h, _ in inst.clist[c]], [h + 1 for _, h in inst.clist[c]]]
        lens += [len(inst.clist[c])] * 2
    for i in range(inst.nS):
        rows.append([h + 1 for h in inst.slist[i]])
        lens.append(len(inst.slist[i]))
    width = max(lens)
    hwidth = max(max(len(x) for x in inst.hlist), 1)
    hrank = [[(inst.hlist[h].index(r) + 1 if r in inst.hlist[h] else 0) for r in range(inst.nR)]
             for h in range(inst.nH)]

    def matrix(m):
        return "[|" + "|".join(", ".join(str(x) for x in r) for r in m) + "|]"
    return "\n".join([
        "num_bp = %d;" % num_bp, "nres = %d;" % inst.nR, "ncoup = %d;" % inst.nC, "nhosp = %d;" % inst.nH,
        "max_rpref_len = %d;" % width, "max_hpref_len = %d;" % hwidth,
        "rpref = %s;" % matrix([r + [0] * (width + 1 - len(r)) for r in rows]),
        "rpref_len = %s;" % lens,
        "hpref = %s;" % matrix([[r + 1 for r in x] + [0] * (hwidth - len(x)) for x in inst.hlist]),
        "hpref_len = %s;" % [len(x) for x in inst.hlist],
        "hosp_cap = %s;" % inst.cap, "hrank = %s;" % matrix(hrank)]) + "\n"


def expected(inst, num_bp):
    """The fewest unassigned residents over the matchings with at most num_bp blocking pairs;
    None when there is no such matching or num_bp exceeds the Challenge's Booleans."""
    if num_bp > sum(len(x) for x in inst.slist) + sum(len(x) for x in inst.clist):
        return None
    best = None
    for vals in itertools.product(*inst.vars_domains()):
        M = inst.matching(vals)
        if M is not None and inst.blocking(M) <= num_bp:
            unassigned = sum(1 for x in M if x is None)
            best = unassigned if best is None else min(best, unassigned)
    return best


def solve(args, env, solver, model, dzn):
    p = subprocess.run([args.minizinc, "--solver", solver, model, dzn], capture_output=True, text=True,
                       env=env, timeout=120)
    found = re.findall(r"objective = (\d+);", p.stdout)
    if p.returncode != 0:
        return "error: " + p.stderr.strip()[-300:]
    if "=====UNSATISFIABLE=====" in p.stdout:
        return None
    if "==========" not in p.stdout or not found:
        return "not proved"
    return int(found[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mzn_setup.add_arguments(ap)
    ap.add_argument("--challenge-model", help="the Challenge's hrc.mzn, run on Gecode as well")
    ap.add_argument("--cases", type=int, default=24)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="bamboo-hrc-challenge-")
    cases = [("one single, one hospital", make(TINY), k) for k in (0, 1, 2)]
    for case in range(args.cases):
        cases.append(("random %d" % case, mutual(rng), case % 3))
    failures = 0
    for k, (label, inst, num_bp) in enumerate(cases):
        dzn = os.path.join(tmp, "c%d.dzn" % k)
        with open(dzn, "w") as f:
            f.write(challenge_dzn(inst, num_bp))
        want = expected(inst, num_bp)
        runs = [("bamboo", MODEL)] + ([("gecode", args.challenge_model)] if args.challenge_model else [])
        for solver, model in runs:
            got = solve(args, env, solver, model, dzn)
            ok = got == want
            failures += not ok
            print("%s  %s (%d singles, %d couples, %d hospitals), num_bp = %d, %s on %s: %s, expected %s" % (
                "ok  " if ok else "FAIL", label, inst.nS, inst.nC, inst.nH, num_bp, solver,
                os.path.basename(model), "unsatisfiable" if got is None else got,
                "unsatisfiable" if want is None else want), flush=True)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s) in %d cases" % (failures, len(cases)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
