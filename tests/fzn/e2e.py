#!/usr/bin/env python3
"""End to end through MiniZinc: `minizinc --solver bamboo` (the build-tree bamboo.msc, found
through MZN_SOLVER_PATH, which e2e.sh sets) on

  1. every example of models/ with its data, against the results that models/README.md
     documents (transcribed below: the solution sets of the satisfaction models, the optima
     of the optimisation ones);
  2. random Stable Marriage instances with n <= 6, 0- and 1-based, generated here: the set
     of solutions of `-a` with the constraint annotated `:: gpu`, `:: cpu`, `:: uniud`,
     `:: men_proposing` (the weaker strength, on the hybrid and the GPU) and not annotated must be exactly the brute-force set of stable matchings
     (tests/mznlib/smp_reference.py) and the set that Gecode prints with the decomposition
     (`--solver gecode -I minizinc/decomposition`); `:: gpu` with `-p 4` too;
  3. with --larger K, K random instances of n = 40 (too many for brute force): the solution
     sets of `:: gpu`, `:: gpu` with `-p 4`, `:: cpu` and no annotation must be equal.

    tests/fzn/e2e.py [--jobs J] [--instances K] [--larger K] [--seed S]

Exit 0 when everything agrees, 1 otherwise."""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "models")
DECOMPOSITION = os.path.join(ROOT, "minizinc", "decomposition")
sys.path.insert(0, os.path.join(ROOT, "tests", "mznlib"))
import smp_reference  # noqa: E402

TIMEOUT = 120

# models/README.md, "Models and expected results". (model, data files, flags, check)
# check: ("solutions", {field: value, ...} per solution, as a list) for -a runs,
#        ("count", n) for -a runs, ("unsat",), ("optimum", field, value[, {field: value}]):
#        without -a or -i exactly one solution, the optimum (MiniZinc passes neither flag and
#        fzn-bamboo, as fzn-gecode, prints the best solution only); ("improving", field,
#        value, sense) for -i runs: more than one solution, each strictly better, the last
#        the optimum.
T1_W1 = {"wife": [3, 0, 2, 1, 4], "men": [0, 0, 3, 1, 2], "women": [0, 1, 1, 0, 1]}
T1_W2 = {"wife": [3, 0, 4, 2, 1], "men": [0, 0, 1, 0, 1], "women": [0, 3, 4, 0, 4]}
DOCUMENTED = [
    ("stable_marriage.mzn", ["table1.dzn"], ["-a"], ("solutions", [T1_W1, T1_W2])),
    ("stable_marriage.mzn", ["table1_1based.dzn"], ["-a"],
     ("solutions", [{"wife": [4, 1, 3, 2, 5]}, {"wife": [4, 1, 5, 3, 2]}])),
    ("stable_marriage.mzn", ["random10.dzn"], ["-a"], ("count", 10)),
    ("stable_marriage.mzn", ["random8_1based.dzn"], ["-a"], ("count", 4)),
    ("egalitarian.mzn", ["table1.dzn"], [], ("optimum", "cost", 9, {"wife": [3, 0, 2, 1, 4]})),
    ("egalitarian.mzn", ["table1_1based.dzn"], [], ("optimum", "cost", 19)),
    ("egalitarian.mzn", ["random10.dzn"], [], ("optimum", "cost", 43)),
    ("egalitarian.mzn", ["random8_1based.dzn"], [], ("optimum", "cost", 39)),
    ("minimum_regret.mzn", ["table1.dzn"], [], ("optimum", "regret", 3, {"wife": [3, 0, 2, 1, 4]})),
    ("minimum_regret.mzn", ["table1_1based.dzn"], [], ("optimum", "regret", 4)),
    ("minimum_regret.mzn", ["random10.dzn"], [], ("optimum", "regret", 7)),
    ("minimum_regret.mzn", ["random8_1based.dzn"], [], ("optimum", "regret", 6, {"wife": [4, 1, 6, 2, 5, 7, 3, 8]})),
    ("sex_equal.mzn", ["table1.dzn"], [], ("optimum", "imbalance", 3, {"wife": [3, 0, 2, 1, 4]})),
    ("sex_equal.mzn", ["table1_1based.dzn"], [], ("optimum", "imbalance", 3)),
    ("sex_equal.mzn", ["random10.dzn"], [], ("optimum", "imbalance", 0, {"wife": [4, 2, 3, 9, 1, 5, 0, 7, 6, 8]})),
    ("sex_equal.mzn", ["random8_1based.dzn"], [], ("optimum", "imbalance", 1, {"wife": [4, 1, 6, 2, 5, 7, 3, 8]})),
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_forbid_2_2.dzn"], ["-a"],
     ("solutions", [{"wife": [3, 0, 4, 2, 1], "husband": [1, 4, 3, 0, 2]}])),
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_force_4_4.dzn"], ["-a"],
     ("solutions", [{"wife": [3, 0, 2, 1, 4], "husband": [1, 3, 2, 0, 4]}])),
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_forbid_0_3.dzn"], ["-a"], ("unsat",)),
    ("weddings.mzn", ["table1.dzn", "weddings_table1.dzn"], [], ("optimum", "cost", 13, {"wife": [3, 0, 4, 2, 1]})),
    ("weddings.mzn", ["random10.dzn", "weddings_random10.dzn"], [], ("optimum", "cost", 44)),
    ("weddings.mzn", ["random10.dzn", "weddings_random10.dzn"], ["-i"], ("improving", "cost", 44, "min")),
    ("hr_match.mzn", ["hr8.dzn", "hr8_rules.dzn"], ["-a"],
     ("solutions", [{"hospital": [2, 1, 2, 1, 3, 1, 0, 3], "assigned": [3, 2, 2]}])),
    ("hr_match.mzn", ["hr8.dzn", "hr8_no_rules.dzn"], ["-a"],
     ("solutions", [{"hospital": [2, 1, 2, 1, 3, 1, 0, 3]}, {"hospital": [2, 1, 2, 3, 3, 1, 0, 1]},
                    {"hospital": [2, 1, 3, 1, 2, 1, 0, 3]}])),
    ("smi_egalitarian.mzn", ["smi7x6.dzn"], [], ("optimum", "cost", 16, {"size": [6]})),
]

RANK_MODEL = """include "stable_matching.mzn";
int: n;
array[int, int] of int: pm;
array[int, int] of int: pw;
int: base = min(array1d(pm));
array[1..n] of var base..base + n - 1: men;
array[1..n] of var base..base + n - 1: women;
constraint stable_matching(men, women, pm, pw){ann};
solve satisfy;
output ["men = \\(men)\\nwomen = \\(women)\\n"];
"""


def minizinc(args, env_solver_path=True):
    env = dict(os.environ)
    if not env_solver_path:
        env.pop("MZN_SOLVER_PATH", None)
    try:
        r = subprocess.run(["minizinc"] + args, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return None, "timeout after %ds" % TIMEOUT
    if r.returncode != 0:
        return None, "exit %d: %s" % (r.returncode, r.stderr.strip()[-600:])
    return r.stdout, None


def parse(stdout):
    """(solutions as {field: list of ints}, status)."""
    sols = []
    for block in stdout.split("----------")[:-1]:
        sol = {}
        for m in re.finditer(r"^\s*(\w+)\s*=\s*(.*)$", block, re.M):
            sol[m.group(1)] = [int(v) for v in re.findall(r"-?\d+", m.group(2))]
        sols.append(sol)
    status = None
    for s in ("=====UNSATISFIABLE=====", "=========="):
        if s in stdout:
            status = s
    return sols, status


def check_documented(case):
    model, data, flags, check = case
    label = "%s %s %s" % (model, " ".join(data), " ".join(flags))
    out, err = minizinc(["--solver", "bamboo"] + flags + [os.path.join(MODELS, model)] +
                        [os.path.join(MODELS, d) for d in data])
    if err:
        return label, err
    sols, status = parse(out)
    kind = check[0]
    if kind == "unsat":
        return label, None if status == "=====UNSATISFIABLE=====" and not sols else \
            "expected =====UNSATISFIABLE=====, got %d solutions, %s" % (len(sols), status)
    if status != "==========":
        return label, "search did not complete (status %s)" % status
    if kind == "count":
        return label, None if len(sols) == check[1] else "%d solutions, expected %d" % (len(sols), check[1])
    if kind == "solutions":
        want = check[1]
        got = [{k: s.get(k) for k in w} for s, w in zip(sols, want)] if len(sols) == len(want) else None
        if got is None or sorted(map(repr, got)) != sorted(map(repr, want)):
            return label, "solutions %s, expected %s" % ([{k: s.get(k) for k in want[0]} for s in sols], want)
        return label, None
    field, value = check[1], check[2]
    if not sols:
        return label, "no solution"
    if kind == "optimum" and len(sols) != 1:
        return label, "%d solutions printed without -a or -i, expected the optimum alone" % len(sols)
    if kind == "improving":
        values = [s.get(field, [None])[0] for s in sols]
        better = all((b < a) if check[3] == "min" else (b > a) for a, b in zip(values, values[1:]))
        if len(values) < 2 or not better:
            return label, "%s = %s with -i, expected several, each strictly better" % (field, values)
    last = sols[-1]
    if last.get(field, [None])[0] != value:
        return label, "%s = %s, expected %s" % (field, last.get(field), value)
    for k, v in (check[3] if kind == "optimum" and len(check) > 3 else {}).items():
        if last.get(k) != v:
            return label, "%s = %s, expected %s (the only optimum)" % (k, last.get(k), v)
    return label, None


def random_instances(count, seed):
    """`count` instances (n <= 6, alternately 0- and 1-based); for each n, the one with the
    most stable matchings among 40 seeded draws, so that the sets compared are not trivial."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        n = [3, 4, 5, 6, 6, 5, 4, 2][k % 8]
        best = None
        for _ in range(40):
            pm = [rng.sample(range(n), n) for _ in range(n)]
            pw = [rng.sample(range(n), n) for _ in range(n)]
            found = len(smp_reference.stable_matchings(pm, pw))
            if best is None or found > best[0]:
                best = (found, pm, pw)
        out.append((n, best[1], best[2], k % 2))
    return out


def dzn(pm, pw, base):
    mat = lambda rows: "[|" + "|".join(", ".join(str(v + base) for v in r) for r in rows) + "|]"
    return "n = %d;\npm = %s;\npw = %s;\n" % (len(pm), mat(pm), mat(pw))


def have_gecode():
    out, err = minizinc(["--solvers"])
    return err is None and "org.gecode.gecode" in out


def check_instance(inst, tmpdir, k, gecode):
    n, pm, pw, base = inst
    label = "random instance %d (n = %d, base %d)" % (k, n, base)
    data = os.path.join(tmpdir, "inst%d.dzn" % k)
    with open(data, "w") as f:
        f.write(dzn(pm, pw, base))
    brute = {(tuple(r + base for r in men), tuple(r + base for r in women))
             for _, men, women in smp_reference.stable_matchings(pm, pw)}
    problems = []
    runs = [("bamboo", ann, []) for ann in ("", " :: gpu", " :: cpu", " :: uniud", " :: men_proposing",
                                            " :: gpu :: men_proposing")]
    runs.append(("bamboo", " :: gpu", ["-p", "4"]))
    if gecode:
        runs += [("gecode", ann, []) for ann in ("", " :: gpu")]
    for solver, ann, flags in runs:
        model = os.path.join(tmpdir, "inst%d_%s%s.mzn" % (k, solver, ann.replace(" :: ", "_")))
        with open(model, "w") as f:
            f.write(RANK_MODEL.replace("{ann}", ann))
        args = ["--solver", solver, "-a"] + flags + [model, data]
        if solver == "gecode":
            args[2:2] = ["-I", DECOMPOSITION]
        out, err = minizinc(args)
        what = "%s%s%s" % (solver, ann or " (no annotation)", " " + " ".join(flags) if flags else "")
        if err:
            problems.append("%s: %s" % (what, err))
            continue
        sols, status = parse(out)
        got = [(tuple(s["men"]), tuple(s["women"])) for s in sols]
        if status != "==========" or len(got) != len(set(got)) or set(got) != brute:
            problems.append("%s: %d solutions (%s), brute force %d; extra %s; missing %s" % (
                what, len(got), status, len(brute), sorted(set(got) - brute)[:2], sorted(brute - set(got))[:2]))
    return label + " with %d stable matchings" % len(brute), "; ".join(problems) or None


def check_larger(k, n, seed, tmpdir):
    """Paths against each other on an instance too large for brute force."""
    rng = random.Random(seed * 7919 + k)
    pm = [rng.sample(range(n), n) for _ in range(n)]
    pw = [rng.sample(range(n), n) for _ in range(n)]
    data = os.path.join(tmpdir, "larger%d.dzn" % k)
    with open(data, "w") as f:
        f.write(dzn(pm, pw, 0))
    sets = {}
    for ann, flags in ((" :: gpu", []), (" :: gpu", ["-p", "4"]), (" :: cpu", []), ("", [])):
        model = os.path.join(tmpdir, "larger%d%s.mzn" % (k, ann.replace(" :: ", "_")))
        with open(model, "w") as f:
            f.write(RANK_MODEL.replace("{ann}", ann))
        out, err = minizinc(["--solver", "bamboo", "-a"] + flags + [model, data])
        what = (ann or " (no annotation)") + (" " + " ".join(flags) if flags else "")
        if err:
            return "larger instance %d (n = %d)" % (k, n), "%s: %s" % (what, err)
        sols, status = parse(out)
        got = [(tuple(s["men"]), tuple(s["women"])) for s in sols]
        if status != "==========" or len(got) != len(set(got)):
            return "larger instance %d (n = %d)" % (k, n), "%s: status %s, %d solutions" % (what, status, len(got))
        sets[what] = set(got)
    first = next(iter(sets.values()))
    bad = [w for w, s in sets.items() if s != first]
    label = "larger instance %d (n = %d) with %d stable matchings on every path" % (k, n, len(first))
    return label, ("differs: %s" % ", ".join(bad)) if bad else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--instances", type=int, default=8)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--larger", type=int, default=0)
    opts = ap.parse_args()
    failures = 0
    gecode = have_gecode()
    if not gecode:
        print("note: MiniZinc has no Gecode; the decomposition is not compared")
    with tempfile.TemporaryDirectory() as tmpdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        jobs = [pool.submit(check_documented, c) for c in DOCUMENTED]
        jobs += [pool.submit(check_instance, inst, tmpdir, k, gecode)
                 for k, inst in enumerate(random_instances(opts.instances, opts.seed))]
        jobs += [pool.submit(check_larger, k, 40, opts.seed, tmpdir) for k in range(opts.larger)]
        for job in jobs:
            label, problem = job.result()
            if problem:
                failures += 1
                print("FAIL %s: %s" % (label, problem))
            else:
                print("ok   %s" % label)
    print("%d cases, %d failed" % (len(jobs), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
