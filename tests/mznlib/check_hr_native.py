#!/usr/bin/env python3
"""stable_matching_hr posted natively (bamboo_stable_matching_hr) against the cloning reduction
(stable_matching_hr_cloning, the model before the native constraint), both through
`minizinc --solver bamboo`, on random HR instances larger than brute force reaches (up to 8
residents, 4 hospitals, capacities 0..3), 0- and 1-based, with side constraints on either
side: a forbidden or forced pair, a hospital's count of assignees (stable_matching_hr_assigned)
bounded, a post's assignee (stable_matching_hr_assignee) forbidden, a post forced to be
empty. The solution sets (residents, posts and the helpers' values) must be equal. The file
form likewise: stable_matching_hr_file against stable_matching_hr_file_cloning on the same
instance file. With ::gpu the native form takes its GPU path: without a GPU it warns once on
stderr and propagates on the CPU; either way the same solutions. And the native FlatZinc must hold no SMI constraint (nothing cloned).

    tests/mznlib/check_hr_native.py --solver-path <build>/minizinc/solvers

Exit 0 when every case passed, 77 (skipped) without minizinc."""
import argparse
import os
import random
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_smi_hr as smi_hr  # noqa: E402  (its Runner, instances and data)
import mzn_setup  # noqa: E402

MODEL = """include "stable_matching_hr.mzn";
include "stable_matching_file.mzn";
int: nr; int: nh; int: b; int: cols;
array[int, int] of int: rp; array[int] of int: rp_len;
array[int, int] of int: hp; array[int] of int: hp_len;
array[int] of int: cap;
array[b..b + nr - 1] of var int: residents;
array[b..b + nh - 1, b..b + cols - 1] of var int: posts;
constraint {call};
{side}
solve satisfy;
output let {{ array[int] of int: rs = fix(residents); array[int, int] of int: ps = fix(posts); }} in
       ["H \\(residents) \\(array1d(posts)) ",
        "\\([stable_matching_hr_hospital(rs, rp, rp_len, r) | r in index_set(residents)]) ",
        "\\([stable_matching_hr_assigned(ps, hp_len, h) | h in b..b + nh - 1])\\n"];
"""

DZN_CALL = "{pred}(residents, posts, rp, rp_len, hp, hp_len, array1d(b..b + nh - 1, cap)){ann}"
FILE_CALL = '{pred}(residents, posts, "{path}"){ann}'


def sides(rng, rp, hp, cap, base, cols):
    """A random side constraint (MiniZinc text), or none."""
    n_r, n_h = len(rp), len(hp)
    kind = rng.randrange(6)
    pairs = [(r, h) for r in range(n_r) for h in rp[r] if r in hp[h]]
    if kind == 1 and pairs:
        r, h = rng.choice(pairs)
        return "constraint residents[%d] %s %d;" % (r + base, rng.choice(("=", "!=")), rp[r].index(h) + base)
    if kind == 2:
        h = rng.randrange(n_h)
        return "constraint stable_matching_hr_assigned(posts, hp_len, %d) %s %d;" % (
            h + base, rng.choice(("<=", ">=", "=")), rng.randint(0, max(cap[h], 1)))
    if kind == 3 and hp[0]:
        h = rng.randrange(n_h)
        if hp[h] and cap[h] > 0:
            return "constraint stable_matching_hr_assignee(posts, hp, hp_len, %d, %d) != %d;" % (
                h + base, rng.randrange(cap[h]) + base, rng.choice(hp[h]) + base)
    if kind == 4:
        h = rng.randrange(n_h)
        return "constraint posts[%d, %d] = %d;" % (h + base, base, len(hp[h]) + base)
    if kind == 5:
        return "constraint sum(residents) <= %d;" % (sum(len(x) for x in rp) // 2 + n_r * base)
    return ""


def instance(rng, k):
    """Every other one random lists; else cyclic ones with many stable matchings: resident r
    (group r mod nh) ranks the hospitals from his group's on, and each hospital ranks first the
    groups that rank it last; a few entries dropped."""
    n_h = rng.randint(2, 4)
    n_r = rng.randint(n_h, 8)
    if k % 2:
        rp = smi_hr.random_lists(rng, n_r, n_h)
        hp = smi_hr.random_lists(rng, n_h, n_r, back=rp)
        return rp, hp, [rng.choice((0, 1, 1, 2, 2, 3)) for _ in range(n_h)]
    rp = [[(r % n_h + t) % n_h for t in range(n_h) if rng.random() < 0.95] for r in range(n_r)]
    hp = [[r for g in range(1, n_h + 1) for r in range(n_r) if (h - r % n_h) % n_h == n_h - g and rng.random() < 0.95]
          for h in range(n_h)]
    return rp, hp, [rng.choice((1, 1, 2, 2, 3)) for _ in range(n_h)]


def solutions(runner, model, data):
    rc, out, err = runner.run("bamboo", model, data)
    if rc != 0:
        return None, "rc %d: %s" % (rc, err.strip()[-300:])
    got = smi_hr.solution_lines(out, "H")
    if "==========" not in out and "=====UNSATISFIABLE=====" not in out:
        return None, "search not reported complete"
    return set(got), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mzn_setup.add_arguments(ap)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2011)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    _, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    runner = smi_hr.Runner(args)
    rng = random.Random(args.seed)
    failures = richest = 0
    for k in range(args.cases):
        rp, hp, cap = instance(rng, k)
        base = k % 2
        cols = max(cap) + (k % 3 == 1)
        data = smi_hr.hr_data(rng, rp, hp, cap, base, cols)
        side = sides(rng, rp, hp, cap, base, cols)
        ann = rng.choice(("", " :: cpu", " :: uniud"))
        form = "file" if k % 4 == 3 else "dzn"
        if form == "file":
            path = os.path.join(runner.tmp, "hr%d.txt" % k)
            with open(path, "w") as f:
                f.write("hr %d %d\n" % (len(rp), len(hp)) + "".join(
                    (" ".join(map(str, row)) if row else "-") + "\n" for row in rp) + "".join(
                    "%d: %s\n" % (c, " ".join(map(str, row))) for row, c in zip(hp, cap)))
            native = MODEL.format(call=FILE_CALL.format(pred="stable_matching_hr_file", path=path, ann=ann), side=side)
            cloned = MODEL.format(call=FILE_CALL.format(pred="stable_matching_hr_file_cloning", path=path, ann=ann),
                                  side=side)
        else:
            native = MODEL.format(call=DZN_CALL.format(pred="stable_matching_hr", ann=ann), side=side)
            cloned = MODEL.format(call=DZN_CALL.format(pred="stable_matching_hr_cloning", ann=ann), side=side)
        a, err_a = solutions(runner, native, data)
        b, err_b = solutions(runner, cloned, data)
        what = "HR %d (%s): %d residents, %d hospitals, capacities %s, base %d, side '%s'" % (
            k, form, len(rp), len(hp), cap, base, side)
        if err_a or err_b:
            msg = "native: %s; cloning: %s" % (err_a, err_b)
        elif a != b:
            msg = "native %d solutions, cloning %d; only native %s, only cloning %s" % (
                len(a), len(b), sorted(a - b)[:2], sorted(b - a)[:2])
        else:
            msg = None
            richest = max(richest, len(a))
        failures += msg is not None
        print("%s  %s%s" % ("FAIL" if msg else "ok  ", what, ": " + msg if msg else ": %d solutions" % len(a)),
              flush=True)
    # ::gpu: the GPU path; without a GPU (CI) it says so once on stderr (check_data_errors.py
    # checks the model's line) and solves on the CPU.
    # Either way the same solutions.
    rp, hp, cap = instance(rng, 0)
    data = smi_hr.hr_data(rng, rp, hp, cap, 1, max(cap))
    plain, _ = solutions(runner, MODEL.format(call=DZN_CALL.format(pred="stable_matching_hr", ann=""), side=""), data)
    rc, out, err = runner.run("bamboo", MODEL.format(call=DZN_CALL.format(pred="stable_matching_hr", ann=" :: gpu"),
                                                     side=""), data)
    warnings = err.count("warning: ::gpu:")
    warned = warnings == 1 if shutil.which("nvidia-smi") is None else warnings <= 1
    ok = rc == 0 and warned and set(smi_hr.solution_lines(out, "H")) == plain
    failures += not ok
    print("%s  ::gpu (warns once without a GPU) gives the same solutions (rc %d, warned %s)" % ("ok  " if ok else "FAIL", rc, warned))
    # The native FlatZinc: the HR constraint itself, no SMI clone.
    rp, hp, cap = instance(rng, 0)
    data = smi_hr.hr_data(rng, rp, hp, cap, 1, max(cap))
    fzn = os.path.join(runner.tmp, "native.fzn")
    with open(os.path.join(runner.tmp, "native.mzn"), "w") as f:
        f.write(MODEL.format(call=DZN_CALL.format(pred="stable_matching_hr", ann=""), side=""))
    with open(os.path.join(runner.tmp, "native.dzn"), "w") as f:
        f.write(data)
    p = subprocess.run([args.minizinc, "--solver", "bamboo", "-c", os.path.join(runner.tmp, "native.mzn"),
                        os.path.join(runner.tmp, "native.dzn"), "--fzn", fzn], capture_output=True, text=True,
                       env=runner.env)
    text = open(fzn).read() if p.returncode == 0 and os.path.exists(fzn) else ""
    ok = "constraint bamboo_stable_matching_hr(" in text and "constraint bamboo_stable_matching_smi(" not in text
    failures += not ok
    print("%s  the native FlatZinc posts bamboo_stable_matching_hr and no SMI clone" % ("ok  " if ok else "FAIL"))
    print("%d cases, up to %d solutions each, %d failed" % (args.cases, richest, failures))
    if richest < 3:
        print("FAIL  the instances are too poor to compare")
        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
