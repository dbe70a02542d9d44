#!/usr/bin/env python3
"""The objective predicates of stable_matching_objective.mzn (docs/objectives.md) end to end:
on random small instances, each model with the lattice bound (models/*_bound.mzn,
bench/research_pairs_bound.mzn with random forced and forbidden pairs as side constraints,
tests/mznlib/objective_weight.mzn with random weights of either sign) must reach the same
optimum (or the same unsatisfiability) on bamboo as brute force over every perfect matching,
and as the model without the bound on bamboo; the decomposition on Gecode must agree too.

    tests/mznlib/check_objective.py [--seeds K]
Needs minizinc with bamboo (MZN_SOLVER_PATH) and gecode; exit 77 (skip) without them.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import smp_reference  # noqa: E402 (the brute force shared by the Stable Marriage checks)
ROOT = os.path.dirname(os.path.dirname(HERE))
DECOMP = os.path.join(ROOT, "minizinc", "decomposition")


def stable_matchings(pm, pw):
    """Every stable matching, as (men's ranks, women's ranks, wife), 0-based
    (smp_reference's brute force, in this file's tuple order)."""
    return [(men, women, tuple(wife)) for wife, men, women in smp_reference.stable_matchings(pm, pw)]


def dzn_matrix(rows):
    return "[|" + "|".join(", ".join(str(v) for v in r) for r in rows) + "|]"


def run(solver, model, data, extra_args=()):
    cmd = ["minizinc", "--solver", solver, *extra_args, model, *data]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    out = p.stdout
    if "=====UNSATISFIABLE=====" in out:
        return "unsat"
    if "==========" not in out:
        return "error: " + (p.stderr or out)[-400:]
    values = re.findall(r"^(?:cost|imbalance|regret)\s*=\s*(-?\d+)", out, re.M)
    return int(values[-1]) if values else "error: no objective in " + out[-300:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=6)
    args = ap.parse_args()
    try:
        solvers = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True).stdout
    except OSError:
        print("skip: no minizinc")
        return 77
    if "org.bamboo.bamboo" not in solvers or "gecode" not in solvers.lower():
        print("skip: minizinc sees no bamboo or no gecode")
        return 77
    bad = runs = 0
    with tempfile.TemporaryDirectory(prefix="objective check ") as tmp:
        for seed in range(1, args.seeds + 1):
            rng = random.Random(seed)
            n, base = rng.randint(4, 6), seed % 2
            for _ in range(500):  # uniform lists with several stable matchings
                pm = [rng.sample(range(n), n) for _ in range(n)]
                pw = [rng.sample(range(n), n) for _ in range(n)]
                sms = stable_matchings(pm, pw)
                if len(sms) >= 3:
                    break
            wm = [[rng.randint(-5, 9) for _ in range(n)] for _ in range(n)]
            ww = [[rng.randint(-5, 9) for _ in range(n)] for _ in range(n)]
            fm, fw = rng.randrange(n), rng.randrange(n)
            forb = [(rng.randrange(n), rng.randrange(n)) for _ in range(2)]
            data = os.path.join(tmp, f"inst {seed}.dzn")
            with open(data, "w") as f:
                f.write(f"n = {n};\npm = {dzn_matrix([[v + base for v in r] for r in pm])};\n")
                f.write(f"pw = {dzn_matrix([[v + base for v in r] for r in pw])};\n")
            wdata = os.path.join(tmp, f"weights {seed}.dzn")
            with open(wdata, "w") as f:
                f.write(f"wm = {dzn_matrix(wm)};\nww = {dzn_matrix(ww)};\n")
            pdata = os.path.join(tmp, f"pairs {seed}.dzn")
            with open(pdata, "w") as f:
                f.write(f"forced = [| {fm + base}, {fw + base} |];\n")
                f.write("forbidden = " + dzn_matrix([[a + base, b + base] for a, b in forb]) + ";\n")

            def best(key, keep=lambda s: True):
                vals = [key(s) for s in sms if keep(s)]
                return min(vals) if vals else "unsat"

            pairs_ok = lambda s: s[2][fm] == fw and all(s[2][a] != b for a, b in forb)  # noqa: E731
            cases = [
                ("egalitarian", [data], best(lambda s: sum(s[0]) + sum(s[1]) + 2 * n * base)),
                ("sex_equal", [data], best(lambda s: abs(sum(s[0]) - sum(s[1])))),
                ("minimum_regret", [data], best(lambda s: max(s[0] + s[1]) + base)),
                ("pairs", [data, pdata], best(lambda s: abs(sum(s[0]) - sum(s[1])), pairs_ok)),
            ]
            for name, dfiles, want in cases:
                plain = os.path.join(ROOT, "bench", "research_pairs.mzn") if name == "pairs" else os.path.join(ROOT, "models", name + ".mzn")
                bound = plain.replace(".mzn", "_bound.mzn")
                got = {"bamboo": run("org.bamboo.bamboo", plain, dfiles),
                       "bamboo bound": run("org.bamboo.bamboo", bound, dfiles),
                       "gecode decomposition": run("gecode", bound, dfiles, ["-I", DECOMP])}
                for who, v in got.items():
                    runs += 1
                    if v != want:
                        bad += 1
                        print(f"FAIL seed {seed} n {n} base {base} {name} on {who}: {v}, brute force {want}")
            want = best(lambda s: sum(wm[m][s[0][m]] for m in range(n)) + sum(ww[w][s[1][w]] for w in range(n)))
            model = os.path.join(HERE, "objective_weight.mzn")
            for who, v in (("bamboo bound", run("org.bamboo.bamboo", model, [data, wdata])),
                           ("gecode decomposition", run("gecode", model, [data, wdata], ["-I", DECOMP]))):
                runs += 1
                if v != want:
                    bad += 1
                    print(f"FAIL seed {seed} n {n} base {base} weights on {who}: {v}, brute force {want}")
            print(f"seed {seed}: n {n}, base {base}, {len(sms)} stable matchings: checked")
    print(f"{runs - bad} of {runs} runs agree with brute force")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
