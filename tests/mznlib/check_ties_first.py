#!/usr/bin/env python3
"""The native ties constraint's default brancher (shim/ties_branch.cpp): under `maximize size`
with no search annotation, the first solution reported is the larger of the engine's Kiraly
3/2-approximation and Erdil-Ergin SIC matchings (Kiraly's when they tie), which `bamboo-smp solve`
computes on the same instance; and the search still ends at an optimum no smaller than it.

Random SMTI from `bamboo-smp gen smti` (n 8..30, Gent & Prosser's p1, p2), the model of
bench/ties/max_smti.mzn with the men's positions in the output; and small SFAS-shaped HRT from
`bamboo-smp gen hrt` (10..40 residents, 3..6 hospitals) with stable_matching_hrt, the residents'
positions compared likewise.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench"))
import max_smti  # noqa: E402  (its smti parser and dzn writer)
import mzn_setup  # noqa: E402

MODEL = """include "stable_matching_smti.mzn";
int: n_men; int: n_women;
array[int, int] of int: pm; array[int] of int: pm_len; array[int, int] of int: pm_rank;
array[int, int] of int: pw; array[int] of int: pw_len; array[int, int] of int: pw_rank;
array[1..n_men] of var int: men;
array[1..n_women] of var int: women;
var int: size;
constraint stable_matching_smti(men, women, pm, pm_len, pm_rank, pw, pw_len, pw_rank, size);
solve maximize size;
output ["S ", join(",", [show(x) | x in men]), ";", show(size), "\\n"];
"""

HRT_MODEL = """include "stable_matching_hrt.mzn";
int: n_men; int: n_women;
array[int, int] of int: pm; array[int] of int: pm_len; array[int, int] of int: pm_rank;
array[int, int] of int: pw; array[int] of int: pw_len; array[int, int] of int: pw_rank;
array[int] of int: capacity;
array[1..n_men] of var int: men;
array[1..n_women] of var int: load;
var int: size;
constraint stable_matching_hrt(men, load, pm, pm_len, pm_rank, pw, pw_len, pw_rank, capacity, size);
solve maximize size;
output ["S ", join(",", [show(x) | x in men]), ";", show(size), "\\n"];
"""


def parse_hrt(text):
    """An `hrt NR NH` file: the lists as parse_smti reads them, and the hospitals' capacities."""
    lines = text.splitlines()
    nr = int(lines[0].split()[1])
    cap = [int(l.split(":")[0]) for l in lines[1 + nr:] if ":" in l]
    body = lines[:1 + nr] + [l.split(":", 1)[1] for l in lines[1 + nr:] if ":" in l]
    n1, n2, men, women = max_smti.parse_smti("\n".join(body))
    return n1, n2, men, women, cap


def engine(smp, inst, algo):
    """The men's 1-based positions of `algo`'s matching (len + 1 for unmatched) and its size."""
    out = subprocess.run([smp, "solve", inst, "--algo", algo] + (["--seed", "1"] if algo != "kiraly" else []),
                         capture_output=True, text=True, check=True).stdout
    return {int(l.split()[0]): (None if l.split()[1] == "-" else int(l.split()[1])) for l in out.splitlines()}


def main():
    ap = argparse.ArgumentParser()
    mzn_setup.add_arguments(ap)
    ap.add_argument("--smp", required=True)
    ap.add_argument("--cases", type=int, default=16)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    rng = random.Random(33)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        models = [os.path.join(tmp, "m.mzn"), os.path.join(tmp, "h.mzn")]
        open(models[0], "w").write(MODEL)
        open(models[1], "w").write(HRT_MODEL)
        for case in range(args.cases):
            hrt = case % 2 == 1
            inst = os.path.join(tmp, "i.txt")
            data = os.path.join(tmp, "i.dzn")
            if hrt:
                n, nh = rng.randint(10, 40), rng.randint(3, 6)
                p1, p2 = "-", "-"  # not Gent & Prosser's: an HRT instance of nh hospitals
                subprocess.run([args.smp, "gen", "hrt", "--n", str(n), "--hospitals", str(nh), "--k", "3",
                                "--capacity", str(rng.randint(1, 4)), "--classes", str(rng.randint(1, 4)),
                                "--seed", str(case + 1), "-o", inst], check=True)
                n1, n2, men, women, cap = parse_hrt(open(inst).read())
                open(data, "w").write(max_smti.dzn(n1, n2, men, women) + "capacity = %s;\n" % cap)
            else:
                n, p1, p2 = rng.randint(8, 30), rng.choice(["0.3", "0.6", "0.9"]), rng.choice(["0.3", "0.7"])
                subprocess.run([args.smp, "gen", "smti", "--n", str(n), "--p1", p1, "--p2", p2, "--seed",
                                str(case + 1), "-o", inst], check=True)
                n1, n2, men, women = max_smti.parse_smti(open(inst).read())
                open(data, "w").write(max_smti.dzn(n1, n2, men, women))
            found = [engine(args.smp, inst, algo) for algo in ("kiraly", "sic")]
            sizes = [sum(h is not None for h in m.values()) for m in found]
            best = found[0] if sizes[0] >= sizes[1] else found[1]
            want = [len(men[i][0]) + 1 if best[i] is None else men[i][0].index(best[i]) + 1 for i in range(n1)]
            p = subprocess.run([args.minizinc, "--solver", "bamboo", "-i", models[hrt], data], capture_output=True,
                               text=True, env=env)
            sols = re.findall(r"^S ([^;]*);(\d+)$", p.stdout, re.M)
            name = "case %d (%s, n %d, p1 %s, p2 %s)" % (case, "hrt" if hrt else "smti", n, p1, p2)
            if p.returncode != 0 or not sols or "==========" not in p.stdout:
                print("%s: rc %d, no optimum\n%s" % (name, p.returncode, p.stderr[-600:]))
                failures += 1
                continue
            first = [int(x) for x in sols[0][0].split(",")]
            if first != want or int(sols[-1][1]) < max(sizes):
                print("%s: first solution %s (size %s), expected %s (size %d: kiraly %d, sic %d); optimum %s"
                      % (name, first, sols[0][1], want, max(sizes), sizes[0], sizes[1], sols[-1][1]))
                failures += 1
    print("%d cases, %d failures" % (args.cases, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
