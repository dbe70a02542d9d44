#!/usr/bin/env python3
"""Differential test of stable_matching / stable_matching_partners through MiniZinc.

For random small instances (0- and 1-based, arrays indexed from 1 or from 0, with and
without side constraints), the set of solutions `minizinc -a` prints must be exactly the
set of stable matchings found by brute force (tests/mznlib/smp_reference.py) that satisfy
the side constraints. Invalid instances must be rejected with a message.

    tests/mznlib/check_stable_matching.py                          # decomposition on Gecode
    tests/mznlib/check_stable_matching.py --solver bamboo --no-lib # the native constraint

Defaults: --solver gecode -I minizinc/decomposition. Exit status 0 when every case passed.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smp_reference as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RANK_MODEL = """include "stable_matching.mzn";
int: n;
array[int, int] of int: pm;
array[int, int] of int: pw;
set of int: I = {lo}..{lo} + n - 1;
array[I] of var {dom}: men;
array[I] of var {dom}: women;
constraint stable_matching(men, women, array2d(I, I, array1d(pm)), array2d(I, I, array1d(pw))){ann};
{side}
solve satisfy;
output ["R \\(men) \\(women)\\n"];
"""

PARTNER_MODEL = """include "stable_matching.mzn";
int: n;
array[int, int] of int: pm;
array[int, int] of int: pw;
set of int: I = {lo}..{lo} + n - 1;
array[I] of var {dom}: wife;
array[I] of var {dom}: husband;
constraint stable_matching_partners(wife, husband, array2d(I, I, array1d(pm)), array2d(I, I, array1d(pw))){ann};
{side}
solve satisfy;
output ["P \\(wife) \\(husband)\\n"];
"""


def dzn(pm, pw, base):
    def mat(rows):
        return "[|" + "|".join(",".join(str(v + base) for v in r) for r in rows) + "|]"
    return "n = %d;\npm = %s;\npw = %s;\n" % (len(pm), mat(pm), mat(pw))


class Runner:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="bamboo-smc-")
        self.count = 0

    def run(self, model, data):
        self.count += 1
        mzn = os.path.join(self.tmp, "m%d.mzn" % self.count)
        dz = os.path.join(self.tmp, "m%d.dzn" % self.count)
        with open(mzn, "w") as f:
            f.write(model)
        with open(dz, "w") as f:
            f.write(data)
        cmd = [self.args.minizinc, "--solver", self.args.solver]
        if self.args.lib:
            cmd += ["-I", self.args.lib]
        cmd += ["-a", mzn, dz]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            return -1, "", "timed out after %g s" % self.args.timeout
        return p.returncode, p.stdout, p.stderr


def ints(text):
    return [int(v) for v in re.findall(r"-?\d+", text)]


def parse(stdout, tag, n):
    sols = []
    for line in stdout.splitlines():
        if line.startswith(tag + " "):
            v = ints(line[2:])
            sols.append((tuple(v[:n]), tuple(v[n:])))
    return sols, ("==========" in stdout), ("=====UNSATISFIABLE=====" in stdout)


def side_constraints(rng, pm, pw, base, lo, partners):
    """A few random side constraints: (MiniZinc text, Python test on (wife, mr, wr), label).
    Among them, pairs removed on one side only, which must still block."""
    n = len(pm)
    rm, rw = ref.rank_matrix(pm), ref.rank_matrix(pw)
    stable = ref.stable_matchings_dfs(pm, pw)
    kinds = rng.sample(["forbid", "force", "sum", "wbound", "drop_top", "hole"], rng.choice([1, 1, 2]))
    texts, tests, labels = [], [], []
    mv = "wife" if partners else "men"
    for kind in kinds:
        m = rng.randrange(n)
        w = rng.randrange(n)
        if kind == "forbid":
            if stable:
                wife = rng.choice(stable)[0]
                m = rng.randrange(n)
                w = wife[m]
            if partners:
                texts.append("constraint wife[%d] != %d;" % (lo + m, w + base))
            else:
                texts.append("constraint men[%d] != %d;" % (lo + m, rm[m][w] + base))
            tests.append(lambda s, m=m, w=w: s[0][m] != w)
        elif kind == "force":
            if partners:
                texts.append("constraint wife[%d] = %d;" % (lo + m, w + base))
            else:
                texts.append("constraint men[%d] = %d;" % (lo + m, rm[m][w] + base))
            tests.append(lambda s, m=m, w=w: s[0][m] == w)
        elif kind == "sum":
            # a bound on the men's total rank (or on the sum of the wives' ids) that cuts
            # some of the stable matchings where it can
            key = (lambda s: sum(s[0])) if partners else (lambda s: sum(s[1]))
            sums = sorted(key(s) for s in stable) or [0]
            k = sums[len(sums) // 2]
            texts.append("constraint sum(%s) <= %d;" % (mv, k + n * base))
            tests.append(lambda s, k=k, key=key: key(s) <= k)
        elif kind == "wbound":
            t = rng.randrange(n)
            if partners:
                # woman w's husband is among her t+1 favourites
                allowed = sorted(pw[w][:t + 1])
                texts.append("constraint husband[%d] in {%s};" % (lo + w, ",".join(str(a + base) for a in allowed)))
            else:
                texts.append("constraint women[%d] <= %d;" % (lo + w, t + base))
            tests.append(lambda s, w=w, t=t: s[2][w] <= t)
        elif kind == "drop_top":
            # man m may not marry his first choice; that pair still blocks
            if partners:
                texts.append("constraint wife[%d] != %d;" % (lo + m, pm[m][0] + base))
            else:
                texts.append("constraint men[%d] > %d;" % (lo + m, base))
            tests.append(lambda s, m=m: s[1][m] > 0)
        elif kind == "hole":
            # woman w may not marry the man she ranks in the middle
            r = n // 2
            if partners:
                texts.append("constraint husband[%d] != %d;" % (lo + w, pw[w][r] + base))
            else:
                texts.append("constraint women[%d] != %d;" % (lo + w, r + base))
            tests.append(lambda s, w=w, r=r: s[2][w] != r)
        labels.append(kind)
    return "\n".join(texts), (lambda s: all(t(s) for t in tests)), "+".join(labels)


def check_case(runner, pm, pw, base, lo, partners, side, label, ann, bounded):
    n = len(pm)
    side_text, side_test = ("", lambda s: True) if side is None else side[:2]
    dom = ("%d..%d" % (base, base + n - 1)) if bounded else "int"
    model = (PARTNER_MODEL if partners else RANK_MODEL).format(lo=lo, dom=dom, side=side_text, ann=ann)
    rc, out, err = runner.run(model, dzn(pm, pw, base))
    if rc != 0:
        return False, "minizinc failed (rc %d): %s" % (rc, err.strip()[-500:])
    got, complete, unsat = parse(out, "P" if partners else "R", n)
    expected = set()
    for s in ref.stable_matchings_dfs(pm, pw):
        if side_test(s):
            if partners:
                expected.add((tuple(w + base for w in s[0]), tuple(h + base for h in ref.husbands(s[0]))))
            else:
                expected.add((tuple(r + base for r in s[1]), tuple(r + base for r in s[2])))
    if len(got) != len(set(got)):
        return False, "duplicate solutions printed"
    if set(got) != expected:
        extra = sorted(set(got) - expected)
        missing = sorted(expected - set(got))
        return False, "solutions differ: %d printed, %d expected; %d unexpected (first: %s), %d missing (first: %s)" % (
            len(got), len(expected), len(extra), extra[:1], len(missing), missing[:1])
    if expected and not complete:
        return False, "search not reported complete"
    if not expected and not unsat:
        return False, "expected UNSATISFIABLE"
    return True, "%d solution(s)" % len(expected)


def random_lists(rng, n):
    return [rng.sample(range(n), n) for _ in range(n)], [rng.sample(range(n), n) for _ in range(n)]


def bad_cases():
    """(label, pm, pw, base-shift per matrix, words the error message must contain)"""
    good_pm, good_pw = ref.TABLE1_PM, ref.TABLE1_PW
    not_perm = [r[:] for r in good_pm]
    not_perm[1] = [0, 0, 3, 2, 4]
    return [
        ("pm row not a permutation", not_perm, good_pw, (0, 0), ("pm row 1",)),
        ("pw row not a permutation", good_pm, [r[:] for r in good_pw[:4]] + [[1, 1, 0, 3, 2]], (0, 0), ("pw row 4",)),
        ("mixed bases", good_pm, good_pw, (0, 1), ("base",)),
        ("base 2", good_pm, good_pw, (2, 2), ("0..4", "1..5")),
    ]


def check_bad(runner, label, pm, pw, shift, fragment):
    n = len(pm)
    model = RANK_MODEL.format(lo=1, dom="int", side="", ann="")
    def mat(rows, b):
        return "[|" + "|".join(",".join(str(v + b) for v in r) for r in rows) + "|]"
    data = "n = %d;\npm = %s;\npw = %s;\n" % (n, mat(pm, shift[0]), mat(pw, shift[1]))
    rc, out, err = runner.run(model, data)
    if rc == 0 and "R " in out:
        return False, "accepted: " + out[:200]
    if not all(word in err + out for word in fragment):
        return False, "rejected without %s in the message: %s" % (" and ".join(map(repr, fragment)), (err + out).strip()[-400:])
    return True, "rejected"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--solver", default="gecode")
    ap.add_argument("--lib", default=os.path.join(ROOT, "minizinc", "decomposition"),
                    help="folder passed with -I (default: minizinc/decomposition)")
    ap.add_argument("--no-lib", dest="lib", action="store_const", const=None)
    ap.add_argument("--cases", type=int, default=60, help="random cases")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--max-n", type=int, default=7)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--no-bad", action="store_true", help="skip the invalid-input cases")
    args = ap.parse_args()

    runner = Runner(args)
    rng = random.Random(args.seed)

    # The reference itself: the pruned search against plain enumeration of all n! matchings.
    for _ in range(100):
        n = rng.randint(1, 6)
        pm, pw = random_lists(rng, n)
        if sorted(ref.stable_matchings(pm, pw)) != sorted(ref.stable_matchings_dfs(pm, pw)):
            print("FAIL  the two brute-force enumerations disagree on %s %s" % (pm, pw))
            return 1
    failures = 0
    total_solutions = 0

    def report(ok, what, msg):
        nonlocal failures
        if not ok:
            failures += 1
        print("%s  %s: %s" % ("ok  " if ok else "FAIL", what, msg), flush=True)

    # Table 1 of [Travasci 2025], both bases, both index styles, each annotation.
    for base in (0, 1):
        for lo in (1, 0):
            for ann in ("", " :: gpu", " :: cpu", " :: uniud"):
                ok, msg = check_case(runner, ref.TABLE1_PM, ref.TABLE1_PW, base, lo, False, None,
                                     "table1", ann, base == 0)
                report(ok, "table1 base %d index %d..%s" % (base, lo, ann), msg)
        ok, msg = check_case(runner, ref.TABLE1_PM, ref.TABLE1_PW, base, 1, True, None, "table1", "", True)
        report(ok, "table1 partners base %d" % base, msg)

    # Random cases; half of them drawn from instances with several stable matchings.
    for c in range(args.cases):
        n = rng.randint(1, args.max_n)
        pm, pw = random_lists(rng, n)
        if c % 2 == 0:
            for _ in range(200):
                if len(ref.stable_matchings_dfs(pm, pw)) >= 3:
                    break
                pm, pw = random_lists(rng, n)
        base = rng.choice((0, 1))
        lo = rng.choice((0, 1))
        partners = rng.random() < 0.3
        side = side_constraints(rng, pm, pw, base, lo, partners) if rng.random() < 0.7 else None
        label = side[2] if side else "none"
        ann = rng.choice(("", "", " :: gpu", " :: cpu"))
        bounded = rng.random() < 0.5
        ok, msg = check_case(runner, pm, pw, base, lo, partners, side, label, ann, bounded)
        nsm = len(ref.stable_matchings_dfs(pm, pw))
        report(ok, "case %d n=%d base=%d index %d.. %s side=%s (%d stable)" % (
            c, n, base, lo, "partners" if partners else "ranks", label, nsm), msg)
        if ok:
            total_solutions += int(msg.split()[0])

    if not args.no_bad:
        for label, pm, pw, shift, frag in bad_cases():
            ok, msg = check_bad(runner, label, pm, pw, shift, frag)
            report(ok, "invalid: " + label, msg)

    print("%d failure(s); %d minizinc runs; %d solutions compared in the random cases" % (
        failures, runner.count, total_solutions))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
