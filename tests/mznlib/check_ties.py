#!/usr/bin/env python3
"""stable_matching_smti / _hrt (weak, strong, super) against brute force (ties_reference.py).

Parts (--part): `sets` runs small random SMTI and HRT instances with -a on bamboo (its mznlib)
and on Gecode (-I minizinc/decomposition) and compares the set of solutions (positions, loads,
size) with every stable matching by definition; `max` runs `solve maximize size` (mostly weak
stability: MAX-SMTI, MAX-HRT) and compares the optimum with the brute-force maximum; `errors` checks that bad arguments abort with a message that
names the user's model line. Instances: base 0 and 1, ties dense and sparse, incomplete lists,
padding columns, ranks with gaps, HRT capacities up to 3.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mzn_setup  # noqa: E402
import ties_reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DECOMPOSITION = os.path.join(ROOT, "minizinc", "decomposition")
PRED = {("smti", "weak"): "stable_matching_smti", ("smti", "strong"): "stable_matching_smti_strong",
        ("smti", "super"): "stable_matching_smti_super", ("hrt", "weak"): "stable_matching_hrt",
        ("hrt", "strong"): "stable_matching_hrt_strong", ("hrt", "super"): "stable_matching_hrt_super"}


def ranks(rng, n, tie):
    """n non-decreasing ranks: a new rank with probability 1 - tie, steps of 1..3."""
    r, out = rng.randint(-2, 3), []
    for k in range(n):
        if k > 0 and rng.random() >= tie:
            r += rng.randint(1, 3)
        out.append(r)
    return out


def lists(rng, n, n_other, keep, tie):
    ls = []
    for _ in range(n):
        ls.append([x for x in rng.sample(range(n_other), n_other) if rng.random() < keep])
    return ls, [ranks(rng, len(l), tie) for l in ls]


def instance(rng, kind_of):
    tie = rng.choice([0.2, 0.5, 0.9])
    keep = rng.choice([0.6, 0.85, 1.0])
    if kind_of == "smti":
        n1, n2 = rng.randint(1, 4), rng.randint(1, 4)
        ml, mr = lists(rng, n1, n2, keep, tie)
        wl, wr = lists(rng, n2, n1, keep, tie)
        return dict(a=(ml, mr), c=(wl, wr), cap=None)
    nR, nH = rng.randint(1, 5), rng.randint(1, 3)
    rl, rr = lists(rng, nR, nH, keep, tie)
    hl, hr = lists(rng, nH, nR, keep, tie)
    return dict(a=(rl, rr), c=(hl, hr), cap=[rng.randint(0, 3) if rng.random() < 0.1 else rng.randint(1, 3)
                                            for _ in range(nH)])


def matrix(rows, b, pad, fill):
    """A MiniZinc 2d array literal of rows (ids shifted to base b), padded to the longest row
    plus `pad` columns of `fill`."""
    cols = max([len(r) for r in rows] + [0]) + pad
    flat = [str(v) for r in rows for v in list(r) + [fill] * (cols - len(r))]
    return "array2d(1..%d, 1..%d, [%s])" % (len(rows), cols, ", ".join(flat))


def call(kind_of, kind, inst, b, tag, rng):
    """Declarations and the constraint for one instance, its variables suffixed with `tag`."""
    (al, ar), (cl, cr) = inst["a"], inst["c"]
    pad = rng.randint(0, 1)
    shift = lambda ls: [[x + b for x in l] for l in ls]  # noqa: E731
    a_name, c_name = ("men", "women") if kind_of == "smti" else ("residents", "load")
    decl = ("array[%d..%d] of var int: %s%s;\narray[%d..%d] of var int: %s%s;\nvar int: size%s;\n"
            % (b, b + len(al) - 1, a_name, tag, b, b + len(cl) - 1, c_name, tag, tag))
    args = [a_name + tag, c_name + tag, matrix(shift(al), b, pad, 7), str([len(l) for l in al]),
            matrix(ar, b, pad, -9), matrix(shift(cl), b, pad, 7), str([len(l) for l in cl]),
            matrix(cr, b, pad, -9)]
    if kind_of == "hrt":
        args.append(str(inst["cap"]))
    args.append("size" + tag)
    return decl + "constraint %s(%s);\n" % (PRED[(kind_of, kind)], ", ".join(args))


def brute(kind_of, kind, inst, b):
    (al, ar), (cl, cr) = inst["a"], inst["c"]
    if kind_of == "smti":
        return ref.smti_solutions(al, ar, cl, cr, kind, b)
    return ref.hrt_solutions(al, ar, cl, cr, inst["cap"], kind, b)


class Runner:
    def __init__(self, args, env):
        self.args, self.env = args, env

    def run(self, solver, text, all_solutions, extra=()):
        with tempfile.NamedTemporaryFile("w", suffix=".mzn", delete=False) as f:
            f.write(text)
        cmd = [self.args.minizinc, "--solver", solver, f.name] + list(extra)
        if solver == "gecode":
            cmd += ["-I", DECOMPOSITION]
        if all_solutions:
            cmd.insert(1, "-a")
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=120)
        finally:
            os.unlink(f.name)
        return p


def parse_all(out):
    sols = set()
    for line in out.splitlines():
        if line.startswith("S "):
            a, c, s = line[2:].split(";")
            sols.add((tuple(int(x) for x in a.split(",") if x), tuple(int(x) for x in c.split(",") if x), int(s)))
    return sols


def check_sets(runner, rng, count, failures):
    jobs = []
    for idx in range(count):
        kind_of = "smti" if idx % 2 == 0 else "hrt"
        kind = ref.KINDS[(idx // 2) % 3]
        b = rng.randint(0, 1)
        inst = instance(rng, kind_of)
        a_name, c_name = ("men", "women") if kind_of == "smti" else ("residents", "load")
        text = ('include "stable_matching_%s.mzn";\n' % kind_of + call(kind_of, kind, inst, b, "", rng)
                + "solve satisfy;\n"
                + 'output ["S ", join(",", [show(x) | x in %s]), ";", join(",", [show(x) | x in %s]), ";", show(size), "\\n"];\n'
                % (a_name, c_name))
        want = brute(kind_of, kind, inst, b)
        for solver in ("bamboo", "gecode"):
            jobs.append((solver, text, want, "%s %s #%d" % (kind_of, kind, idx)))

    def one(job):
        solver, text, want, name = job
        p = runner.run(solver, text, True)
        got = parse_all(p.stdout)
        if p.returncode != 0 or "==========" not in p.stdout and want or got != want:
            return "%s on %s: rc %d, %d solutions, expected %d\n  only got: %s\n  missing: %s\n%s%s" % (
                name, solver, p.returncode, len(got), len(want), sorted(got - want)[:3],
                sorted(want - got)[:3], text, p.stderr[-800:])
        return None

    with ThreadPoolExecutor(runner.args.jobs) as ex:
        for r in ex.map(one, jobs):
            if r:
                failures.append(r)
    return len(jobs)


def check_max(runner, rng, batches, per, failures):
    jobs = []
    for bi in range(batches):
        kind_of = "smti" if bi % 2 == 0 else "hrt"
        text, total = 'include "stable_matching_%s.mzn";\n' % kind_of, 0
        for t in range(per):
            kind = "weak" if (bi // 2) % 4 else rng.choice(["strong", "super"])
            inst, b = instance(rng, kind_of), rng.randint(0, 1)
            sols = brute(kind_of, kind, inst, b)
            if not sols:
                continue  # no stable matching (strong, super): the whole model would fail
            total += max(s[2] for s in sols)
            text += call(kind_of, kind, inst, b, "_%d" % t, rng)
        sizes = [v for v in re.findall(r"var int: (size_\d+);", text)]
        text += "solve maximize %s;\noutput [\"T \", show(%s), \"\\n\"];\n" % (" + ".join(sizes) or "0",
                                                                            " + ".join(sizes) or "0")
        for solver in ("bamboo", "gecode"):
            jobs.append((solver, text, total, "max %s batch %d" % (kind_of, bi)))

    def one(job):
        solver, text, want, name = job
        p = runner.run(solver, text, False)
        got = [int(m) for m in re.findall(r"^T (-?\d+)$", p.stdout, re.M)]
        if p.returncode != 0 or "==========" not in p.stdout or not got or got[-1] != want:
            return "%s on %s: rc %d, optimum %s, expected %d\n%s" % (name, solver, p.returncode,
                                                                      got[-1:] or None, want, p.stderr[-800:])
        return None

    with ThreadPoolExecutor(runner.args.jobs) as ex:
        for r in ex.map(one, jobs):
            if r:
                failures.append(r)
    return len(jobs)


ERRORS = [
    # (predicate form, arguments after the variables, expected message fragment)
    ("smti", "[|0, 1|0, 1|], [2, 2], [|1, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|]",
     "the ranks of man 0 (pm_rank row 0) decrease from 1 to 0 at position 1"),
    ("smti", "[|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|3, 2|]",
     "the ranks of woman 1 (pw_rank row 1) decrease from 3 to 2"),
    ("smti", "[|0, 0|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|]",
     "names 0 twice"),
    ("smti", "[|0, 2|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|]",
     "names 2, which is not a woman"),
    ("smti", "[|0, 1|0, 1|], [2, 3], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|]",
     "has length 3 (pm_len), outside 0..2"),
    ("smti", "[|0, 1|0, 1|], [2, 2], [|0|0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|]",
     "pm_rank has 1 columns, but the list of man 0 has length 2"),
    ("hrt", "[|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, -1|], [1, 1]",
     "the ranks of hospital 1 (hp_rank row 1) decrease from 0 to -1"),
    ("hrt", "[|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [1]",
     "capacity has 1 entries, expected 2"),
    ("hrt", "[|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [1, -1]",
     "hospital 1 has capacity -1"),
    ("hrt", "[|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [|0, 1|0, 1|], [2, 2], [|0, 0|0, 0|], [1, 1]",
     "residents start at index 2; the first index is the base of ids and ranks and must be 0 or 1"),
]


def check_errors(runner, failures):
    n = 0
    for kind_of, args, fragment in ERRORS:
        a_name, c_name = ("men", "women") if kind_of == "smti" else ("residents", "load")
        lo = 2 if "start at index 2" in fragment else 0  # a base that is neither 0 nor 1
        text = ('include "stable_matching_%s.mzn";\narray[%d..%d] of var int: %s;\narray[%d..%d] of var int: %s;\n'
                'var int: size;\n\n' % (kind_of, lo, lo + 1, a_name, lo, lo + 1, c_name)
                + "constraint stable_matching_%s(%s, %s, %s, size);\nsolve satisfy;\n" % (kind_of, a_name, c_name, args))
        for solver in ("bamboo", "gecode") if kind_of == "hrt" or "ranks" in fragment else ("bamboo",):
            n += 1
            p = runner.run(solver, text, False)
            # the user's constraint is on line 6 of the model
            if p.returncode == 0 or fragment not in p.stderr or not re.search(r"\.mzn:6\.", p.stderr):
                failures.append("error %r on %s: rc %d, stderr:\n%s" % (fragment, solver, p.returncode,
                                                                      p.stderr[-1500:]))
    return n


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    mzn_setup.add_arguments(ap)
    ap.add_argument("--part", choices=["sets", "max", "errors"], required=True)
    ap.add_argument("--cases", type=int, default=70, help="instances for `sets`")
    ap.add_argument("--batches", type=int, default=100, help="instances (models) of `max`")
    # one instance per model: a sum over independent instances makes branch and bound search
    # their product
    ap.add_argument("--per", type=int, default=1, help="instances per model of `max`")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=33)
    args = ap.parse_args()
    env, code = mzn_setup.prepare(args, need=("bamboo",), want=("gecode",))
    if code is not None:
        return code
    runner, rng, failures = Runner(args, env), random.Random(args.seed), []
    if args.part == "sets":
        n = check_sets(runner, rng, args.cases, failures)
    elif args.part == "max":
        n = check_max(runner, rng, args.batches, args.per, failures)
    else:
        n = check_errors(runner, failures)
    for f in failures[:8]:
        print("FAIL", f)
    print("%s: %d runs, %d failures" % (args.part, n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
