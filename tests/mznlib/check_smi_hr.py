#!/usr/bin/env python3
"""Differential test of stable_matching_smi, stable_matching_smi_partners and
stable_matching_hr through MiniZinc, against brute force (tests/mznlib/smi_reference.py).

  --part brute   random SMI (n1, n2 <= 5) and HR (<= 5 residents, <= 3 hospitals, capacities
                 0..2) instances, 0- and 1-based, with one-sided entries, empty lists and
                 padding, with and without a side constraint (a forbidden or a forced
                 pair): the solution set of `minizinc -a` must be exactly the brute-force
                 set, for `--solver bamboo` (native; every annotation: none, gpu, cpu, uniud)
                 and for `--solver gecode -I minizinc/decomposition` (the decomposition).
  --part rural   the rural hospitals theorem on random HR instances: the same residents are
                 assigned in every stable matching, each hospital gets the same number, and
                 an under-subscribed hospital the same set (both solvers, which must agree).
  --part errors  bad input: MiniZinc must fail with the assert's message (both libraries).

    tests/mznlib/check_smi_hr.py --part brute --solver-path <build>/minizinc/solvers

Exit 0 when every case passed, 77 (skipped) without minizinc or Gecode's solver."""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DECOMPOSITION = os.path.join(ROOT, "minizinc", "decomposition")
sys.path.insert(0, HERE)
import smi_reference as ref  # noqa: E402
import mzn_setup  # noqa: E402

ANNOTATIONS = ("", " :: gpu", " :: cpu", " :: uniud", " :: men_proposing")

SMI_MODEL = """include "stable_matching_smi.mzn";
int: n1; int: n2; int: b;
array[int, int] of int: pm; array[int] of int: pm_len;
array[int, int] of int: pw; array[int] of int: pw_len;
array[b..b + n1 - 1] of var {dom1}: men;
array[b..b + n2 - 1] of var {dom2}: women;
constraint stable_matching_smi(men, women, pm, pm_len, pw, pw_len){ann};
{side}
solve satisfy;
output ["S \\(men) \\(women)\\n"];
"""

PARTNERS_MODEL = """include "stable_matching_smi.mzn";
int: n1; int: n2; int: b;
array[int, int] of int: pm; array[int] of int: pm_len;
array[int, int] of int: pw; array[int] of int: pw_len;
array[b..b + n1 - 1] of var int: wife;
array[b..b + n2 - 1] of var int: husband;
constraint stable_matching_smi_partners(wife, husband, pm, pm_len, pw, pw_len){ann};
{side}
solve satisfy;
output ["P \\(wife) \\(husband)\\n"];
"""

HR_MODEL = """include "stable_matching_hr.mzn";
int: nr; int: nh; int: b; int: cols;
array[int, int] of int: rp; array[int] of int: rp_len;
array[int, int] of int: hp; array[int] of int: hp_len;
array[int] of int: cap;
array[b..b + nr - 1] of var int: residents;
array[b..b + nh - 1, b..b + cols - 1] of var int: posts;
constraint stable_matching_hr(residents, posts, rp, rp_len, hp, hp_len, array1d(b..b + nh - 1, cap)){ann};
{side}
solve satisfy;
output let {{ array[int] of int: rs = fix(residents); array[int, int] of int: ps = fix(posts); }} in
       ["H \\(residents) \\(array1d(posts)) ",
        "\\([stable_matching_hr_hospital(rs, rp, rp_len, r) | r in index_set(residents)]) ",
        "\\([stable_matching_hr_assigned(ps, hp_len, h) | h in b..b + nh - 1])\\n"];
"""


def matrix(lists, cols, base, rng):
    """A dzn array2d: each list (0-based ids) plus base, padded with junk to cols columns."""
    flat = []
    for lst in lists:
        flat += [v + base for v in lst] + [rng.choice((-7, 0, 99)) for _ in range(cols - len(lst))]
    return "array2d(1..%d, 1..%d, [%s])" % (len(lists), cols, ",".join(map(str, flat)))


def random_lists(rng, n, n_other, back=None):
    """Each person lists a random subset of the other side in random order; with `back`
    (the other side's lists), mostly those who listed them, plus a few one-sided entries."""
    out = []
    for p in range(n):
        if back is None:
            cand = [q for q in range(n_other) if rng.random() < 0.8]
        else:
            cand = [q for q in range(n_other) if (p in back[q] and rng.random() < 0.85) or rng.random() < 0.1]
        rng.shuffle(cand)
        out.append(cand)
    return out


def latin_lists(rng, n, n_other, reverse=False):
    """Cyclic lists, the men's and women's opposed (the classic instances with many stable
    matchings), then thinned and locally shuffled."""
    out = []
    for p in range(n):
        lst = [(p + t) % n_other for t in range(n_other)]
        if reverse:
            lst = [(p - t - 1) % n_other for t in range(n_other)]
        lst = [q for q in lst if rng.random() < 0.93]
        if len(lst) > 1 and rng.random() < 0.3:
            i = rng.randrange(len(lst) - 1)
            lst[i], lst[i + 1] = lst[i + 1], lst[i]
        out.append(lst)
    return out


class Runner:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="bamboo-smi-")
        self.count = 0
        self.env = mzn_setup.solver_env(args.solver_path)

    def run(self, solver, model, data, all_solutions=True):
        self.count += 1
        k = self.count
        mzn = os.path.join(self.tmp, "m%d.mzn" % k)
        dzn = os.path.join(self.tmp, "m%d.dzn" % k)
        with open(mzn, "w") as f:
            f.write(model)
        with open(dzn, "w") as f:
            f.write(data)
        cmd = [self.args.minizinc, "--solver", solver]
        if solver == "gecode":
            cmd += ["-I", DECOMPOSITION]
        cmd += (["-a"] if all_solutions else []) + [mzn, dzn]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.args.timeout, env=self.env)
        except subprocess.TimeoutExpired:
            return -1, "", "timed out"
        return p.returncode, p.stdout, p.stderr


def ints(text):
    return [int(v) for v in re.findall(r"-?\d+", text)]


def solution_lines(out, tag):
    return [tuple(ints(line[2:])) for line in out.splitlines() if line.startswith(tag + " ")]


def compare(runner, solver, model, data, tag, expected):
    rc, out, err = runner.run(solver, model, data)
    if rc != 0:
        return "%s failed (rc %d): %s" % (solver, rc, err.strip()[-400:])
    got = solution_lines(out, tag)
    if len(got) != len(set(got)):
        return "%s printed a solution twice" % solver
    if set(got) != expected:
        extra, missing = sorted(set(got) - expected), sorted(expected - set(got))
        return "%s: %d solutions, %d expected; unexpected %s, missing %s" % (
            solver, len(got), len(expected), extra[:2], missing[:2])
    if expected and "==========" not in out:
        return "%s: search not reported complete" % solver
    if not expected and "=====UNSATISFIABLE=====" not in out:
        return "%s: expected UNSATISFIABLE" % solver
    return None


# --- brute force ------------------------------------------------------------------------

def richest(rng, k, draw, solve):
    """Every other case, the draw with the most stable matchings among 30 (random
    instances mostly have one), so that the sets compared are not trivial."""
    best = None
    for _ in range(30 if k % 2 == 0 else 1):
        inst = draw()
        stable = solve(*inst)
        if best is None or len(stable) > len(best[1]):
            best = (inst, stable)
    return best


def smi_case(rng, k):
    def draw():
        n1, n2 = rng.randint(1, 5), rng.randint(1, 5)
        if rng.random() < 0.5:
            pm = random_lists(rng, n1, n2)
            pw = random_lists(rng, n2, n1, back=pm)
        else:
            n2 = n1 if rng.random() < 0.7 else n2
            pm, pw = latin_lists(rng, n1, n2), latin_lists(rng, n2, n1, reverse=True)
        if k % 7 == 3:
            pm[rng.randrange(n1)] = []  # an empty list
        return pm, pw
    (pm, pw), stable = richest(rng, k, draw, ref.smi_stable_matchings)
    n1, n2 = len(pm), len(pw)
    base = (k // 2) % 2
    partners = k % 3 == 2
    side_text, side_test, label = "", (lambda wife: True), "none"
    pairs = [(m, w) for m in range(n1) for w in pm[m] if m in pw[w]]
    if pairs and k % 4 != 0:
        in_stable = [(m, wife[m]) for wife in stable for m in range(n1) if wife[m] is not None]
        m, w = rng.choice(in_stable if in_stable and rng.random() < 0.7 else pairs)
        forced = rng.random() < 0.5
        label = "%s (%d, %d)" % ("force" if forced else "forbid", m + base, w + base)
        if partners:
            side_text = "constraint wife[%d] %s %d;" % (m + base, "=" if forced else "!=", w + base)
        else:
            side_text = "constraint men[%d] %s %d;" % (m + base, "=" if forced else "!=", pm[m].index(w) + base)
        side_test = (lambda wife, m=m, w=w, f=forced: (wife[m] == w) == f)
    expected = set()
    for wife in stable:
        if not side_test(wife):
            continue
        if partners:
            husband = ref.husbands(wife, n2)
            expected.add(tuple((base - 1 if w is None else w + base) for w in wife) +
                         tuple((base - 1 if m is None else m + base) for m in husband))
        else:
            men, women = ref.smi_ranks(pm, pw, wife)
            expected.add(tuple(r + base for r in men + women))
    cm = max([len(x) for x in pm] + [0]) + rng.randint(0, 1)
    cw = max([len(x) for x in pw] + [0]) + rng.randint(0, 1)
    data = "n1 = %d; n2 = %d; b = %d;\npm = %s;\npm_len = %s;\npw = %s;\npw_len = %s;\n" % (
        n1, n2, base, matrix(pm, cm, base, rng), [len(x) for x in pm], matrix(pw, cw, base, rng),
        [len(x) for x in pw])
    bounded = rng.random() < 0.5
    template = PARTNERS_MODEL if partners else SMI_MODEL
    fmt = {"side": side_text,
           "dom1": "%d..%d" % (base, base + n2) if bounded else "int",
           "dom2": "%d..%d" % (base, base + n1) if bounded else "int"}
    what = "SMI %d: %dx%d base %d %s side %s, %d stable" % (
        k, n1, n2, base, "partners" if partners else "ranks", label, len(stable))
    return what, template, fmt, data, "P" if partners else "S", expected


def hr_instance(rng, max_r, max_h):
    n_r, n_h = rng.randint(1, max_r), rng.randint(1, max_h)
    if rng.random() < 0.5:
        rp = random_lists(rng, n_r, n_h)
        hp = random_lists(rng, n_h, n_r, back=rp)
    else:
        rp, hp = latin_lists(rng, n_r, n_h), latin_lists(rng, n_h, n_r, reverse=True)
    cap = [rng.choice((0, 1, 1, 2, 2)) for _ in range(n_h)]
    return rp, hp, cap


def hr_data(rng, rp, hp, cap, base, cols):
    cr = max([len(x) for x in rp] + [0]) + rng.randint(0, 1)
    ch = max([len(x) for x in hp] + [0]) + rng.randint(0, 1)
    return "nr = %d; nh = %d; b = %d; cols = %d;\nrp = %s;\nrp_len = %s;\nhp = %s;\nhp_len = %s;\ncap = %s;\n" % (
        len(rp), len(hp), base, cols, matrix(rp, cr, base, rng), [len(x) for x in rp],
        matrix(hp, ch, base, rng), [len(x) for x in hp], cap)


def hr_case(rng, k):
    def draw():
        rp, hp, cap = hr_instance(rng, 5, 3)
        if k % 7 == 3:
            hp[rng.randrange(len(hp))] = []  # an empty list
        return rp, hp, cap
    (rp, hp, cap), stable = richest(rng, k, draw, ref.hr_stable_matchings)
    base = (k // 2) % 2
    n_r, n_h = len(rp), len(hp)
    cols = max(cap) + (k % 3 == 1)
    side_text, side_test, label = "", (lambda hosp: True), "none"
    pairs = [(r, h) for r in range(n_r) for h in rp[r] if r in hp[h] and cap[h] > 0]
    if pairs and k % 4 != 0:
        in_stable = [(r, hosp[r]) for hosp in stable for r in range(n_r) if hosp[r] is not None]
        r, h = rng.choice(in_stable if in_stable and rng.random() < 0.7 else pairs)
        forced = rng.random() < 0.5
        label = "%s (%d, %d)" % ("force" if forced else "forbid", r + base, h + base)
        side_text = "constraint residents[%d] %s %d;" % (r + base, "=" if forced else "!=", rp[r].index(h) + base)
        side_test = (lambda hosp, r=r, h=h, f=forced: (hosp[r] == h) == f)
    expected = set()
    for hosp in stable:
        if side_test(hosp):
            residents, posts = ref.hr_ranks(rp, hp, cap, hosp, cols)
            hospital_ids = [base - 1 if h is None else h + base for h in hosp]
            counts = [sum(1 for x in hosp if x == h) for h in range(n_h)]
            expected.add(tuple(v + base for v in residents) + tuple(v + base for row in posts for v in row) +
                         tuple(hospital_ids) + tuple(counts))
    what = "HR %d: %d residents, %d hospitals, capacities %s, base %d, side %s, %d stable" % (
        k, n_r, n_h, cap, base, label, len(stable))
    return what, HR_MODEL, {"side": side_text}, hr_data(rng, rp, hp, cap, base, cols), "H", expected


def part_brute(args, runner, rng, pool):
    jobs = []
    for k in range(args.cases):
        for make in (smi_case, hr_case):
            what, template, fmt, data, tag, expected = make(rng, k)
            runs = [("bamboo", ann) for ann in ANNOTATIONS] if "bamboo" in args.solvers else []
            if "gecode" in args.solvers:
                runs.append(("gecode", rng.choice(ANNOTATIONS)))
            for solver, ann in runs:
                model = template.format(ann=ann, **fmt)
                jobs.append(("%s; %s%s" % (what, solver, ann or " (no annotation)"),
                             pool.submit(compare, runner, solver, model, data, tag, expected)))
    return jobs


# --- rural hospitals ----------------------------------------------------------------------

def rural(args, runner, rng, k):
    (rp, hp, cap), _ = richest(rng, 0, lambda: hr_instance(rng, 7, 3), ref.hr_stable_matchings)
    base = k % 2
    n_r, n_h = len(rp), len(hp)
    cols = max(cap)
    data = hr_data(rng, rp, hp, cap, base, cols)
    model = HR_MODEL.format(ann="", side="")
    sets = {}
    for solver in args.solvers:
        rc, out, err = runner.run(solver, model, data)
        if rc != 0:
            return "%s failed (rc %d): %s" % (solver, rc, err.strip()[-400:])
        sets[solver] = set(solution_lines(out, "H"))
    if len(set(map(frozenset, sets.values()))) != 1:
        return "the solvers disagree: %s" % {s: len(v) for s, v in sets.items()}
    sols = next(iter(sets.values()))
    if not sols:
        return "no stable matching (there is always one)"
    # a solution: residents (n_r), posts (n_h * cols), hospital ids (n_r), counts (n_h)
    views = []
    for s in sols:
        hosp = s[n_r + n_h * cols:n_r + n_h * cols + n_r]
        counts = s[n_r + n_h * cols + n_r:]
        views.append((hosp, counts))
    assigned = {frozenset(r for r in range(n_r) if hosp[r] != base - 1) for hosp, _ in views}
    if len(assigned) != 1:
        return "residents assigned differ between stable matchings: %s" % sorted(map(sorted, assigned))
    counts = {c for _, c in views}
    if len(counts) != 1:
        return "hospitals' numbers of residents differ: %s" % sorted(counts)
    for h in range(n_h):
        if next(iter(counts))[h] < cap[h]:
            members = {frozenset(r for r in range(n_r) if hosp[r] == h + base) for hosp, _ in views}
            if len(members) != 1:
                return "under-subscribed hospital %d gets different residents: %s" % (h + base, members)
    if len(sols) != len(ref.hr_stable_matchings(rp, hp, cap)):
        return "%d solutions, brute force finds %d" % (len(sols), len(ref.hr_stable_matchings(rp, hp, cap)))
    return "ok %d stable matching(s), %d assigned" % (len(sols), len(next(iter(assigned))))


def part_rural(args, runner, rng, pool):
    jobs = []
    for k in range(args.cases):
        jobs.append(("rural %d" % k, pool.submit(rural, args, runner, random.Random(rng.random()), k)))
    return jobs


# --- bad input ----------------------------------------------------------------------------

SMI_BAD = """include "stable_matching_smi.mzn";
array[{mi}] of var int: men;
array[{wi}] of var int: women;
constraint stable_matching_smi(men, women, {pm}, {pm_len}, {pw}, {pw_len});
"""
HR_BAD = """include "stable_matching_hr.mzn";
array[{ri}] of var int: residents;
array[{hi}, {qi}] of var int: posts;
constraint stable_matching_hr(residents, posts, {rp}, {rp_len}, {hp}, {hp_len}, {cap});
"""
GOOD_SMI = {"mi": "1..3", "wi": "1..2", "pm": "[|2,1|1,9|2,2|]", "pm_len": "[2,1,1]",
            "pw": "[|1,3|3,2|]", "pw_len": "[2,2]"}
GOOD_HR = {"ri": "1..3", "hi": "1..2", "qi": "1..2", "rp": "[|1,2|2,1|1,0|]", "rp_len": "[2,2,1]",
           "hp": "[|3,2,1|1,2,0|]", "hp_len": "[3,2]", "cap": "[2,1]"}
BAD = [
    ("SMI length above the columns", SMI_BAD, GOOD_SMI, {"pm_len": "[2,3,1]"},
     "stable_matching_smi: the list of man 2 has length 3 (pm_len), outside 0..2"),
    ("SMI negative length", SMI_BAD, GOOD_SMI, {"pw_len": "[2,-1]"},
     "stable_matching_smi: the list of woman 2 has length -1 (pw_len), outside 0..2"),
    ("SMI unknown id", SMI_BAD, GOOD_SMI, {"pm_len": "[2,2,1]"},
     "stable_matching_smi: the list of man 2 (pm row 2) names 9, which is not a woman (ids 1..2)"),
    ("SMI unknown id, woman", SMI_BAD, GOOD_SMI, {"pw": "[|1,4|3,2|]"},
     "stable_matching_smi: the list of woman 1 (pw row 1) names 4, which is not a man (ids 1..3)"),
    ("SMI duplicate", SMI_BAD, GOOD_SMI, {"pm_len": "[2,1,2]"},
     "stable_matching_smi: the list of man 3 (pm row 3) names 2 twice"),
    ("SMI lengths' size", SMI_BAD, GOOD_SMI, {"pw_len": "[2,2,1]"},
     "stable_matching_smi: pw_len has 3 entries, expected 2 (one per woman)"),
    ("SMI rows' count", SMI_BAD, GOOD_SMI, {"pm": "[|2,1|1,9|]"},
     "stable_matching_smi: pm has 2 rows, expected 3 (one per man)"),
    ("SMI base 2", SMI_BAD, GOOD_SMI, {"mi": "2..4", "wi": "2..3"},
     "stable_matching_smi: men start at index 2; the first index is the base of ids and ranks and must be 0 or 1"),
    ("SMI mixed bases", SMI_BAD, GOOD_SMI, {"wi": "0..1"},
     "stable_matching_smi: men start at index 1 but women at 0; both sides must use the same base"),
    ("HR negative capacity", HR_BAD, GOOD_HR, {"cap": "[2,-1]"},
     "stable_matching_hr: hospital 2 has capacity -1; capacities must be >= 0"),
    ("HR too few posts", HR_BAD, GOOD_HR, {"cap": "[3,1]"},
     "stable_matching_hr: posts has 2 columns, fewer than the largest capacity, 3"),
    ("HR capacities' size", HR_BAD, GOOD_HR, {"cap": "[2,1,1]"},
     "stable_matching_hr: posts has 2 rows for 3 hospitals"),
    ("HR unknown hospital", HR_BAD, GOOD_HR, {"rp_len": "[2,2,2]"},
     "stable_matching_hr: the list of resident 3 (rp row 3) names 0, which is not a hospital (ids 1..2)"),
    ("HR duplicate", HR_BAD, GOOD_HR, {"rp": "[|1,1|2,1|1,0|]"},
     "stable_matching_hr: the list of resident 1 (rp row 1) names 1 twice"),
    ("HR length", HR_BAD, GOOD_HR, {"hp_len": "[4,2]"},
     "stable_matching_hr: the list of hospital 1 has length 4 (hp_len), outside 0..3"),
    ("HR unknown resident", HR_BAD, GOOD_HR, {"hp_len": "[3,3]"},
     "stable_matching_hr: the list of hospital 2 (hp row 2) names 0, which is not a resident (ids 1..3)"),
    ("HR lengths' size", HR_BAD, GOOD_HR, {"rp_len": "[2,2]"},
     "stable_matching_hr: rp_len has 2 entries, expected 3 (one per resident)"),
    ("HR base of capacity", HR_BAD, GOOD_HR, {"cap": "array1d(0..1, [2,1])"},
     "stable_matching_hr: capacity starts at index 0 but residents at 1; both must use the same base"),
]


def bad(runner, solver, template, good, change, message):
    rc, out, err = runner.run(solver, template.format(**dict(good, **change)), "", all_solutions=False)
    if rc == 0:
        return "accepted"
    if message not in err:
        return "rejected without the message %r: %s" % (message, err.strip()[-400:])
    return None


def accepted(runner, solver, template, good):
    rc, out, err = runner.run(solver, template.format(**good), "", all_solutions=False)
    return None if rc == 0 else "rejected (rc %d): %s" % (rc, err.strip()[-400:])


def part_errors(args, runner, rng, pool):
    jobs = []
    for solver in args.solvers:
        # the valid instances pass, so that each bad one fails for its own reason
        for template, good in ((SMI_BAD, GOOD_SMI), (HR_BAD, GOOD_HR)):
            jobs.append(("valid instance; %s" % solver, pool.submit(accepted, runner, solver, template, good)))
        for label, template, good, change, message in BAD:
            jobs.append(("%s; %s" % (label, solver), pool.submit(bad, runner, solver, template, good, change, message)))
    return jobs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("brute", "rural", "errors"), required=True)
    mzn_setup.add_arguments(ap)
    ap.add_argument("--solvers", default="bamboo,gecode", help="comma-separated: bamboo, gecode")
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    args.solvers = [s for s in args.solvers.split(",") if s]

    _, code = mzn_setup.prepare(args, need=[s for s in args.solvers if s == "bamboo"], want=("gecode",))
    if code is not None:
        return code
    runner = Runner(args)

    rng = random.Random(args.seed)
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        jobs = {"brute": part_brute, "rural": part_rural, "errors": part_errors}[args.part](args, runner, rng, pool)
        for what, job in jobs:
            msg = job.result()
            ok = msg is None or msg.startswith("ok")
            failures += not ok
            print("%s  %s%s" % ("ok  " if ok else "FAIL", what, "" if msg is None else ": " + msg), flush=True)
    print("%d failure(s) in %d checks; %d minizinc runs" % (failures, len(jobs), runner.count))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
