#!/usr/bin/env python3
"""Differential test of the natives, end to end: every snippet of check_mznlib.py (each
global of minizinc/mznlib, with odd index sets) is solved for all solutions by
`--solver bamboo` and by a reference, std's decompositions on fzn-gecode (a temporary
solver configuration with no solver library; stable_matching through minizinc/decomposition/). The
two solution sets must be equal. This checks the library and fzn-bamboo's registry
together: offsets, argument orders, table layouts.

    MZN_SOLVER_PATH=<build>/minizinc/solvers tests/mznlib/check_natives.py

Needs fzn-bamboo (the build-tree bamboo.msc on MZN_SOLVER_PATH) and /usr/bin/fzn-gecode.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from check_mznlib import CASES  # noqa: E402


def solutions(stdout):
    parts = stdout.split("----------")
    return sorted(p.strip() for p in parts[:-1]), "==========" in stdout, "=====UNSATISFIABLE=====" in stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--solver", default="bamboo")
    ap.add_argument("--fzn-gecode", default="/usr/bin/fzn-gecode")
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    if not os.access(args.fzn_gecode, os.X_OK):
        print("skipped: no %s (Debian package flatzinc)" % args.fzn_gecode)
        return 77

    tmp = tempfile.mkdtemp(prefix="bamboo-natives-")
    ref_dir = os.path.join(tmp, "solvers")
    os.mkdir(ref_dir)
    with open(os.path.join(ref_dir, "reference.msc"), "w") as f:
        json.dump({"id": "org.bamboo.std-reference", "name": "std decompositions on fzn-gecode",
                   "version": "0.0.0", "mznlib": "", "executable": args.fzn_gecode,
                   "stdFlags": ["-a", "-n", "-f", "-p", "-r", "-s", "-t"],
                   "supportsMzn": False, "supportsFzn": True, "needsSolns2Out": True}, f)
    env = dict(os.environ)
    env["MZN_SOLVER_PATH"] = ref_dir + (os.pathsep + env["MZN_SOLVER_PATH"] if env.get("MZN_SOLVER_PATH") else "")

    failures = 0
    for k, case in enumerate(CASES):
        label, model = case[0], case[1]
        # a fifth element is the reference's own model, where std has no decomposition
        ref_model = case[4] if len(case) > 4 else model
        mzn = os.path.join(tmp, "n%d.mzn" % k)
        with open(mzn, "w") as f:
            f.write(model + "\n")
        # std 2.6.4's arg_min.mzn needs arg_max.mzn (bamboo's library mends that itself)
        ref_mzn = os.path.join(tmp, "r%d.mzn" % k)
        with open(ref_mzn, "w") as f:
            f.write(('include "arg_max.mzn";\n' if "arg_min" in model else "") + ref_model + "\n")
        results = []
        for solver, extra, path in ((args.solver, [], mzn),
                                    ("org.bamboo.std-reference",
                                     ["-I", os.path.join(ROOT, "minizinc", "decomposition")], ref_mzn)):
            try:
                p = subprocess.run([args.minizinc, "--solver", solver, "-a"] + extra + [path],
                                   capture_output=True, text=True, env=env, timeout=args.timeout)
                results.append((p.returncode, solutions(p.stdout), p.stderr.strip()))
            except subprocess.TimeoutExpired:
                results.append((-1, ([], False, False), "timed out"))
        (rc_b, (sol_b, done_b, unsat_b), err_b), (rc_r, (sol_r, done_r, unsat_r), err_r) = results
        if rc_r != 0:
            if rc_b != 0:
                print("ok    %s: both reject the model" % label)
            else:
                failures += 1
                print("FAIL  %s: the reference rejects the model, bamboo does not: %s" % (label, err_r[-200:]))
            continue
        problems = []
        if rc_b != 0:
            problems.append("bamboo failed: " + err_b[-300:])
        elif sol_b != sol_r or unsat_b != unsat_r or done_b != done_r:
            problems.append("bamboo: %d solution(s)%s, reference: %d%s" % (
                len(sol_b), " (UNSAT)" if unsat_b else "", len(sol_r), " (UNSAT)" if unsat_r else ""))
            extra_b = [s for s in sol_b if s not in sol_r][:1]
            missing = [s for s in sol_r if s not in sol_b][:1]
            if extra_b:
                problems.append("only bamboo: " + extra_b[0].replace("\n", " "))
            if missing:
                problems.append("only the reference: " + missing[0].replace("\n", " "))
        if problems:
            failures += 1
            print("FAIL  %s" % label)
            for pr in problems:
                print("        " + pr)
        else:
            print("ok    %s: %d solution(s)" % (label, len(sol_r)))
    print("%d failure(s) in %d cases" % (failures, len(CASES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
