#!/usr/bin/env python3
"""Runs every example in models/ with its data and compares the result with brute force
(tests/mznlib/smp_reference.py; smi_reference.py for the SMI and HR models): the set of solutions for the satisfaction models, the
optimum (and the stability of the matching printed) for the optimisation ones.

    tests/mznlib/check_models.py                          # decomposition on Gecode
    tests/mznlib/check_models.py --solver bamboo --no-lib # the native constraint

Defaults: --solver gecode -I minizinc/decomposition. Prints one line per run with the expected
result (the numbers models/README.md lists); exit status 0 when all agree. With --solver
bamboo, one more run: hr_match.mzn with a hospital of capacity 4,000 under a 512 MiB
address-space limit (check_large_capacity).
"""
import argparse
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODELS = os.path.join(ROOT, "models")
sys.path.insert(0, HERE)
import smp_reference as ref  # noqa: E402
import smi_reference  # noqa: E402


def read_dzn(path):
    """n, pm, pw (as 0-based lists) and the base of a models/*.dzn instance file, and any
    (a, b) pair tables it defines, by name."""
    text = re.sub(r"%.*", "", open(path).read())
    out = {}
    for name, body in re.findall(r"(\w+)\s*=\s*([^;]*);", text):
        body = body.strip()
        if body.startswith("[|"):
            rows = [r for r in body.strip("[|] \n").split("|") if r.strip()]
            out[name] = [[int(v) for v in re.findall(r"-?\d+", r)] for r in rows]
        elif body.startswith("array2d"):
            out[name] = []
        elif body.startswith("["):
            out[name] = [int(v) for v in re.findall(r"-?\d+", body)]
        elif re.fullmatch(r"-?\d+", body):
            out[name] = int(body)
    return out


def instance(data_file):
    d = read_dzn(os.path.join(MODELS, data_file))
    base = min(min(r) for r in d["pm"])
    pm = [[v - base for v in r] for r in d["pm"]]
    pw = [[v - base for v in r] for r in d["pw"]]
    return pm, pw, base


def field(text, key):
    m = re.search(r"^%s\s*=\s*(.*)$" % key, text, re.M)
    return None if m is None else [int(v) for v in re.findall(r"-?\d+", m.group(1))]


def solutions(stdout):
    """The printed solutions (text between separators) and whether search completed."""
    parts = stdout.split("----------")
    return [p for p in parts[:-1]], "==========" in stdout, "=====UNSATISFIABLE=====" in stdout


def schedulable(couples, man_free, woman_free, days, capacity):
    load = [0] * (days + 1)

    def go(i):
        if i == len(couples):
            return True
        m, w = couples[i]
        for d in range(1, days + 1):
            if (m, d) in man_free and (w, d) in woman_free and load[d] < capacity:
                load[d] += 1
                if go(i + 1):
                    return True
                load[d] -= 1
        return False

    return go(0)


def run(args, model, data, memory=None, timeout=None):
    """minizinc on a model of models/ (data: names in models/ or absolute paths); memory:
    an address-space limit in bytes for minizinc and the solver it starts. A run past the
    timeout is killed with its solver (its own process group) and reported as rc -1."""
    cmd = [args.minizinc, "--solver", args.solver]
    if args.lib:
        cmd += ["-I", args.lib]
    if model in ("stable_marriage.mzn", "forced_forbidden.mzn", "hr_match.mzn"):
        cmd.append("-a")
    cmd += [os.path.join(MODELS, model)] + [os.path.join(MODELS, d) for d in data]
    env = dict(os.environ)
    if memory:
        env["CUDA_VISIBLE_DEVICES"] = ""  # a CUDA context reserves gigabytes of address space

    def limit():
        if memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=limit, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout or args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return -1, out, err + "\n(killed after %g s)" % (timeout or args.timeout)
    return p.returncode, out, err


def lists(d, name):
    """0-based lists of a 1-based models/*.dzn: the first name_len[i] entries of each row."""
    return [[v - 1 for v in row[:n]] for row, n in zip(d[name], d[name + "_len"])]


def check_incomplete(args, model, data, memory=None, timeout=None):
    """The SMI and HR models (1-based data with lists and lengths)."""
    d = read_dzn(os.path.join(MODELS, data[0]))
    rc, out, err = run(args, model, data, memory, timeout)
    if rc != 0:
        return False, "minizinc failed: " + err.strip()[-300:]
    sols, complete, unsat = solutions(out)
    if not complete and not unsat:
        return False, "search not complete"
    if model == "hr_match.mzn":
        rp, hp, cap = lists(d, "rp"), lists(d, "hp"), d["capacity"]
        text = re.sub(r"%.*", "", open(os.path.join(MODELS, data[1])).read())
        group = {int(v) - 1 for v in re.findall(r"-?\d+", re.search(r"group\s*=\s*\{([^}]*)\}", text).group(1))}
        rules = read_dzn(os.path.join(MODELS, data[1]))
        forbidden = [(a - 1, b - 1) for a, b in rules.get("forbidden", [])]
        want = set()
        for hosp in smi_reference.hr_stable_matchings(rp, hp, cap):
            if all(sum(1 for r in group if hosp[r] == h) >= k for h, k in enumerate(rules["group_min"])) and \
                    all(hosp[r] != h for r, h in forbidden):
                want.add(tuple(0 if h is None else h + 1 for h in hosp))
        got = [tuple(field(s, "hospital")) for s in sols]
        counts_ok = all(field(s, "assigned") == [sum(1 for h in field(s, "hospital") if h == k + 1)
                                                  for k in range(len(cap))] for s in sols)
        # assignees: each hospital's residents (1-based), best first by its list, 0-padded
        width = max(cap)
        for s in sols:
            hosp = field(s, "hospital")
            want_rows = []
            for h in range(len(cap)):
                mine = sorted((r for r in range(len(hosp)) if hosp[r] == h + 1), key=hp[h].index)
                want_rows += [r + 1 for r in mine] + [0] * (width - len(mine))
            if field(s, "assignees") != want_rows:
                return False, "assignees %s, expected %s" % (field(s, "assignees"), want_rows)
        if len(got) != len(set(got)) or set(got) != want or not counts_ok:
            return False, "got %s, expected %s (assigned counts right: %s)" % (sorted(got), sorted(want), counts_ok)
        # The rural hospitals theorem, on what the model printed: the same residents are
        # assigned in every solution, and an under-subscribed hospital has the same residents
        # in all of them. (The rules only select among stable matchings, so it holds here too.)
        assigned = {frozenset(r for r, h in enumerate(g) if h) for g in got}
        if len(assigned) > 1:
            return False, "rural hospitals: the assigned residents differ between solutions: %s" % sorted(map(sorted, assigned))
        for h in range(len(cap)):
            under = {frozenset(r for r, x in enumerate(g) if x == h + 1) for g in got
                     if sum(1 for x in g if x == h + 1) < cap[h]}
            full = any(sum(1 for x in g if x == h + 1) == cap[h] for g in got)
            if len(under) > 1 or (under and full):
                return False, "rural hospitals: hospital %d is under-subscribed with different residents" % (h + 1)
        return True, "%d solution(s): hospital %s; rural hospitals facts hold" % (len(want), sorted(want))
    # smi_egalitarian.mzn: the optimum over the brute-force stable matchings
    pm, pw = lists(d, "pm"), lists(d, "pw")
    stable = smi_reference.smi_stable_matchings(pm, pw)
    costs = [sum(sum(ranks) for ranks in smi_reference.smi_ranks(pm, pw, wife)) for wife in stable]
    best = min(costs)
    if not sols:
        return False, "no solution printed"
    last = sols[-1]
    wife = [None if w == 0 else w - 1 for w in field(last, "wife")]
    size = len(stable[0]) - stable[0].count(None)
    if field(last, "cost")[0] != best or wife not in stable or costs[stable.index(wife)] != best or \
            field(last, "size")[0] != size:
        return False, "cost %s, size %s, wife %s; expected cost %d, size %d" % (
            field(last, "cost"), field(last, "size"), field(last, "wife"), best, size)
    # The rural hospitals theorem for SMI: the optimum matches exactly the men and the women
    # that every stable matching matches.
    matched_men = {i for i, w in enumerate(wife) if w is not None}
    matched_women = {w for w in wife if w is not None}
    for other in stable:
        if matched_men != {i for i, w in enumerate(other) if w is not None} or \
                matched_women != {w for w in other if w is not None}:
            return False, "rural hospitals: the optimum matches %s / %s, a stable matching %s" % (
                sorted(matched_men), sorted(matched_women), other)
    return True, "optimum cost %d (%d of %d stable matchings), size %d; the same people matched in all" % (
        best, costs.count(best), len(stable), size)


def check(args, model, data):
    if model in ("hr_match.mzn", "smi_egalitarian.mzn"):
        return check_incomplete(args, model, data)
    pm, pw, base = instance(data[0])
    n = len(pm)
    stable = ref.stable_matchings_dfs(pm, pw)
    rc, out, err = run(args, model, data)
    if rc != 0:
        return False, "minizinc failed: " + err.strip()[-300:]
    sols, complete, unsat = solutions(out)
    if not complete and not unsat:
        return False, "search not complete"

    def ranks_of(text):
        return tuple(field(text, "men")), tuple(field(text, "women"))

    by_ranks = {(tuple(r + base for r in s[1]), tuple(r + base for r in s[2])): s for s in stable}

    if model == "stable_marriage.mzn":
        got = set()
        for s in sols:
            mr, wr = ranks_of(s)
            wife = field(s, "wife")
            if (mr, wr) not in by_ranks or [w + base for w in by_ranks[(mr, wr)][0]] != wife:
                return False, "not a stable matching: %s" % s.strip()
            got.add((mr, wr))
        if len(got) != len(sols) or got != set(by_ranks):
            return False, "%d solutions, %d stable matchings" % (len(sols), len(stable))
        wives = sorted([w + base for w in s[0]] for s in stable)
        return True, "%d stable matchings; wives %s" % (len(stable), wives if len(wives) <= 3 else "...")

    if model == "forced_forbidden.mzn":
        pairs = read_dzn(os.path.join(MODELS, data[1]))
        forced = [(a - base, b - base) for a, b in pairs.get("forced", [])]
        forbidden = [(a - base, b - base) for a, b in pairs.get("forbidden", [])]
        want = set()
        for s in stable:
            if all(s[0][m] == w for m, w in forced) and all(s[0][m] != w for m, w in forbidden):
                want.add(tuple(w + base for w in s[0]))
        got = [tuple(field(s, "wife")) for s in sols]
        if len(got) != len(set(got)) or set(got) != want:
            return False, "got %s, expected %s" % (sorted(got), sorted(want))
        if not want and not unsat:
            return False, "expected UNSATISFIABLE"
        return True, ("%d solution(s): wife %s" % (len(want), sorted(want))) if want else "UNSATISFIABLE"

    # optimisation models: the last solution printed is the optimum
    if not sols:
        return False, "no solution printed"
    last = sols[-1]
    if model == "weddings.mzn":
        w = read_dzn(os.path.join(MODELS, data[1]))
        mf = {(a - base, b) for a, b in w["man_free"]}
        wf = {(a - base, b) for a, b in w["woman_free"]}
        feasible = [s for s in stable
                    if schedulable(list(enumerate(s[0])), mf, wf, w["days"], w["capacity"])]
        best = min(sum(s[1]) + sum(s[2]) for s in feasible) + 2 * n * base
        cost = field(last, "cost")[0]
        wife = [v - base for v in field(last, "wife")]
        days = field(last, "day")
        ok_matching = any(s[0] == wife for s in feasible)
        ok_days = all((i, days[i]) in mf and (wife[i], days[i]) in wf for i in range(n)) and all(
            days.count(d) <= w["capacity"] for d in set(days))
        unconstrained = min(sum(s[1]) + sum(s[2]) for s in stable) + 2 * n * base
        if cost != best or not ok_matching or not ok_days:
            return False, "cost %d (expected %d), matching ok %s, days ok %s" % (cost, best, ok_matching, ok_days)
        return True, "optimum cost %d (%d of %d stable matchings can be scheduled; %d without days)" % (
            best, len(feasible), len(stable), unconstrained)

    if model == "happiness.mzn":  # a float objective: rank k (0-based) is worth 1/(k + 1)
        worth = lambda s: sum(1.0 / (r + 1) for r in s[1] + s[2])  # noqa: E731
        best = max(worth(s) for s in stable)
        m = re.search(r"^welfare\s*=\s*(\S+)$", last, re.M)
        value = float(m.group(1)) if m else None
        mr, wr = ranks_of(last)
        if (mr, wr) not in by_ranks:
            return False, "the final solution is not a stable matching"
        # printed with 4 decimals
        if value is None or abs(value - best) > 5e-5 or abs(worth(by_ranks[(mr, wr)]) - best) > 1e-9:
            return False, "welfare = %s, expected %.4f" % (value, best)
        n_opt = sum(1 for s in stable if abs(worth(s) - best) <= 1e-9)
        return True, "optimum welfare = %.4f (%d of %d stable matchings are optimal)" % (best, n_opt, len(stable))

    key, objective = {
        "egalitarian.mzn": ("cost", lambda s: sum(s[1]) + sum(s[2]) + 2 * n * base),
        "minimum_regret.mzn": ("regret", lambda s: max(s[1] + s[2]) + base),
        "sex_equal.mzn": ("imbalance", lambda s: abs(sum(s[1]) - sum(s[2]))),
    }[model]
    best = min(objective(s) for s in stable)
    value = field(last, key)[0]
    mr, wr = ranks_of(last)
    if (mr, wr) not in by_ranks:
        return False, "the final solution is not a stable matching"
    if value != best or objective(by_ranks[(mr, wr)]) != value:
        return False, "%s = %d, expected %d" % (key, value, best)
    n_opt = sum(1 for s in stable if objective(s) == best)
    return True, "optimum %s = %d (%d of %d stable matchings are optimal)" % (key, best, n_opt, len(stable))


RUNS = [
    ("stable_marriage.mzn", ["table1.dzn"]),
    ("stable_marriage.mzn", ["table1_1based.dzn"]),
    ("stable_marriage.mzn", ["random10.dzn"]),
    ("stable_marriage.mzn", ["random8_1based.dzn"]),
] + [
    (m, [d]) for m in ("egalitarian.mzn", "minimum_regret.mzn", "sex_equal.mzn", "happiness.mzn")
    for d in ("table1.dzn", "table1_1based.dzn", "random10.dzn", "random8_1based.dzn")
] + [
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_forbid_2_2.dzn"]),
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_force_4_4.dzn"]),
    ("forced_forbidden.mzn", ["table1.dzn", "pairs_forbid_0_3.dzn"]),
    ("weddings.mzn", ["table1.dzn", "weddings_table1.dzn"]),
    ("weddings.mzn", ["random10.dzn", "weddings_random10.dzn"]),
    ("hr_match.mzn", ["hr8.dzn", "hr8_rules.dzn"]),
    ("hr_match.mzn", ["hr8.dzn", "hr8_no_rules.dzn"]),
    ("smi_egalitarian.mzn", ["smi7x6.dzn"]),
]


# hr_match.mzn with a hospital of large capacity: its output once fixed `posts` (2 x 4,000)
# for every entry it printed, quadratic in the posts (a capacity of 20,000 took 24 GB). The
# run must succeed within an address-space limit that the quadratic output exceeds more
# than twice over, and print the matching brute force finds. bamboo only: the
# decomposition posts O(residents x posts) constraints, about 12 s on Gecode.
LARGE_CAPACITY = 4000
LARGE_MEMORY = 512 << 20
LARGE_TIMEOUT = 60


# ASan and TSan reserve terabytes of address space at start: under a sanitizer (its options
# are in the environment, as ctest sets them in a sanitizer tree) the run has no memory
# bound, and checks the answer and the time only. The plain tree checks the memory.
SANITIZED = any(v in os.environ for v in ("ASAN_OPTIONS", "TSAN_OPTIONS", "MSAN_OPTIONS"))


def check_large_capacity(args):
    memory = None if SANITIZED else LARGE_MEMORY
    tmp = tempfile.mkdtemp(prefix="bamboo-models-")
    instance, rules = os.path.join(tmp, "hr_large.dzn"), os.path.join(tmp, "hr_large_rules.dzn")
    with open(instance, "w") as f:  # residents 1-4 want hospital 2 (1 post), 5-8 hospital 1 only
        f.write("n_residents = 8;\nn_hospitals = 2;\n"
                "rp = [| 2, 1 | 2, 1 | 2, 1 | 2, 1 | 1, 0 | 1, 0 | 1, 0 | 1, 0 |];\n"
                "rp_len = [2, 2, 2, 2, 1, 1, 1, 1];\n"
                "hp = [| 8, 2, 5, 1, 7, 3, 4 | 3, 1, 2, 4, 0, 0, 0 |];\n"
                "hp_len = [7, 4];\ncapacity = [%d, 1];\n" % LARGE_CAPACITY)
    with open(rules, "w") as f:
        f.write("group = {5, 8};\ngroup_min = [2, 0];\nforbidden = array2d(1..0, 1..2, []);\n")
    ok, msg = check_incomplete(args, "hr_match.mzn", [instance, rules], memory, LARGE_TIMEOUT)
    for path in (instance, rules):
        os.unlink(path)
    os.rmdir(tmp)
    bound = "%d MiB" % (memory >> 20) if memory else "no memory bound (sanitizer)"
    return ok, "capacity %d, %s, %d s: %s" % (LARGE_CAPACITY, bound, LARGE_TIMEOUT, msg)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--solver", default="gecode")
    ap.add_argument("--lib", default=os.path.join(ROOT, "minizinc", "decomposition"))
    ap.add_argument("--no-lib", dest="lib", action="store_const", const=None)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args()
    listed = subprocess.run([args.minizinc, "--solvers"], capture_output=True, text=True).stdout
    if args.solver == "gecode" and "org.gecode.gecode" not in listed:
        print("minizinc has no Gecode solver: skipped")
        return 77
    failures = 0
    for model, data in RUNS:
        ok, msg = check(args, model, data)
        failures += not ok
        print("%s  %s %s: %s" % ("ok  " if ok else "FAIL", model, " ".join(data), msg), flush=True)
    runs = len(RUNS)
    if args.solver == "bamboo":
        ok, msg = check_large_capacity(args)
        failures += not ok
        runs += 1
        print("%s  hr_match.mzn with a large capacity: %s" % ("ok  " if ok else "FAIL", msg), flush=True)
    print("%d failure(s) in %d runs" % (failures, runs))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
