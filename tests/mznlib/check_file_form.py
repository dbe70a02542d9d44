#!/usr/bin/env python3
"""The file form of the Stable Marriage predicates (stable_matching_file, _smi_file, _hr_file)
through `minizinc --solver bamboo`, against brute force and against the matrix form.

  --part brute   random small instances (complete n <= 8, SMI, HR; both bases; every
                 annotation: none, gpu, cpu, uniud; text and binary files): the solution sets
                 of the file form equal brute force from the definitions (smi_reference.py);
                 the matrix (dzn) form on the same data gives the same set.
  --part first   n = 200 random complete instances: the file form's and the dzn form's first
                 solutions are identical.
  --part errors  a missing file, a directory, sizes that disagree with the model, list
                 lengths and capacities (the .dzn's) that disagree with the file, a corrupt
                 binary file, an SMI file given to stable_matching_file, and another solver
                 (gecode) on the file form: a clear message naming the file, non-zero exit.

    tests/mznlib/check_file_form.py --part brute --solver-path <build>/minizinc/solvers \
        --bamboo-smp <build>/tools/bamboo-smp
Exit 0 when every case passed, 77 (skipped) without minizinc."""
import argparse
import itertools
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smi_reference import hr_ranks, hr_stable_matchings, smi_ranks, smi_stable_matchings  # noqa: E402
import mzn_setup  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DECOMPOSITION = os.path.join(HERE, "..", "..", "minizinc", "decomposition")
ANNOTATIONS = ["", " :: gpu", " :: cpu", " :: uniud"]


class Runner:
    def __init__(self, args):
        self.args = args
        self.tmp = tempfile.mkdtemp(prefix="bamboo-file-form-")
        self.count = 0
        self.env = mzn_setup.solver_env(args.solver_path)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def run(self, model, data, solver="bamboo", all_solutions=True, flags=()):
        self.count += 1
        mzn = self.write("m%d.mzn" % self.count, model)
        dzn = self.write("m%d.dzn" % self.count, data)
        cmd = [self.args.minizinc, "--solver", solver] + (["-I", DECOMPOSITION] if solver == "gecode" else [])
        cmd += (["-a"] if all_solutions else []) + list(flags) + [mzn, dzn]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=self.args.timeout, env=self.env)
        except subprocess.TimeoutExpired:
            return -1, "", "timed out"
        return p.returncode, p.stdout, p.stderr


def solutions(out):
    return {tuple(int(v) for v in re.findall(r"-?\d+", line[2:])) for line in out.splitlines()
            if line.startswith("S ")}


def check(runner, model, data, expected, what):
    rc, out, err = runner.run(model, data)
    if rc != 0:
        return "%s: rc %d: %s" % (what, rc, err.strip()[-300:])
    got = solutions(out)
    if got != expected:
        return "%s: %d solutions, brute force %d (unexpected %s, missing %s)" % (
            what, len(got), len(expected), sorted(got - expected)[:2], sorted(expected - got)[:2])
    return None


# --- instance files (bamboo-smp's text format, docs/formats.md) --------------------------

def complete_stable_matchings(pm, pw):
    """Complete lists: every perfect matching (a permutation) without a blocking pair."""
    n = len(pm)
    rank_m = [{w: k for k, w in enumerate(row)} for row in pm]
    rank_w = [{m: k for k, m in enumerate(row)} for row in pw]
    out = []
    for wife in itertools.permutations(range(n)):
        husband = [0] * n
        for m, w in enumerate(wife):
            husband[w] = m
        if not any(rank_m[m][w] < rank_m[m][wife[m]] and rank_w[w][m] < rank_w[w][husband[w]]
                   for m in range(n) for w in range(n)):
            out.append(list(wife))
    return out


def complete_text(pm, pw):
    n = len(pm)
    return "%d\n" % n + "".join(" ".join(map(str, row)) + "\n" for row in pm + pw)


def smi_text(pm, pw):
    return "smi %d %d\n" % (len(pm), len(pw)) + "".join(
        (" ".join(map(str, row)) if row else "-") + "\n" for row in pm + pw)


def hr_text(rp, hp, cap):
    return "hr %d %d\n" % (len(rp), len(hp)) + "".join(
        (" ".join(map(str, row)) if row else "-") + "\n" for row in rp) + "".join(
        "%d: %s\n" % (c, " ".join(map(str, row))) for row, c in zip(hp, cap))


def complete_binary(pm, pw):
    """BBSMPBIN version 1 (docs/formats.md), 2-byte ids."""
    n = len(pm)
    ids = [v for row in pm + pw for v in row]
    return b"BBSMPBIN" + struct.pack("<4I", 1, n, 2, 0) + struct.pack("<%dH" % len(ids), *ids)


def csr_binary(kind, rows1, rows2, cap=None):
    """BBHRCSR1 version 1 (docs/formats.md): kind 0 SMI, 1 HR."""
    def side(rows):
        off, ids = [0], []
        for row in rows:
            ids += row
            off.append(len(ids))
        return off, ids
    off1, ids1 = side(rows1)
    off2, ids2 = side(rows2)
    out = b"BBHRCSR1" + struct.pack("<4I", 1, kind, len(rows1), len(rows2)) + struct.pack("<2Q", len(ids1), len(ids2))
    for values in (off1, ids1, off2, ids2) + ((cap,) if kind == 1 else ()):
        out += struct.pack("<%dI" % len(values), *values)
    return out


def dzn_int_array(name, values):
    return "%s = [%s];\n" % (name, ", ".join(map(str, values)))


def matrix_dzn(name, rows, base, cols):
    cells = []
    for row in rows:
        cells.append(", ".join(str(v + base) for v in row + [0] * (cols - len(row))))
    if not rows:
        return "%s = array2d(1..0, 1..%d, []);\n" % (name, cols)
    return "%s = array2d(%d..%d, %d..%d, [%s]);\n" % (name, base, base + len(rows) - 1, base,
                                                       base + cols - 1, ", ".join(cells))


# --- the models ---------------------------------------------------------------------------

def complete_model(base, ann, form):
    data = ('string: prefs_file;\nconstraint stable_matching_file(men, women, prefs_file)%s;\n' % ann
            if form == "file" else
            "array[int, int] of int: pm;\narray[int, int] of int: pw;\n"
            "constraint stable_matching(men, women, pm, pw)%s;\n" % ann)
    return ('include "stable_matching_file.mzn";\nint: n;\n'
            "array[%d..n - 1 + %d] of var %d..n - 1 + %d: men;\n"
            "array[%d..n - 1 + %d] of var %d..n - 1 + %d: women;\n" % ((base,) * 8) + data +
            'solve satisfy;\noutput ["S \\(men) \\(women)\\n"];\n')


def smi_model(base, ann):
    return ('include "stable_matching_file.mzn";\nint: n_men;\nint: n_women;\nstring: prefs_file;\n'
            "array[%d..n_men - 1 + %d] of var int: men;\narray[%d..n_women - 1 + %d] of var int: women;\n"
            "constraint stable_matching_smi_file(men, women, prefs_file)%s;\n"
            'solve satisfy;\noutput ["S \\(men) \\(women)\\n"];\n' % (base, base, base, base, ann))


def hr_model(base, ann, cols):
    return ('include "stable_matching_file.mzn";\nint: n_residents;\nint: n_hospitals;\nstring: prefs_file;\n'
            "array[%d..n_residents - 1 + %d] of var int: residents;\n"
            "array[%d..n_hospitals - 1 + %d, %d..%d] of var int: posts;\n"
            "constraint stable_matching_hr_file(residents, posts, prefs_file)%s;\n"
            'solve satisfy;\noutput ["S \\(residents) \\(posts)\\n"];\n' % (base, base, base, base, base,
                                                                         base + cols - 1, ann))


def latin(n):
    """Lists with n stable matchings (men i: i, i+1, ...; women j: j+1, j+2, ...)."""
    return [[(i + k) % n for k in range(n)] for i in range(n)], [[(j + 1 + k) % n for k in range(n)] for j in range(n)]


def random_lists(rng, n, n_other, complete):
    lists = []
    for _ in range(n):
        ids = list(range(n_other))
        rng.shuffle(ids)
        lists.append(ids if complete else ids[:rng.randint(0, n_other)])
    return lists


def part_brute(args, runner, rng):
    failures = checks = 0
    for case in range(args.cases):
        base = case % 2
        ann = ANNOTATIONS[(case // 2) % 4]  # every annotation with both bases and both formats
        kind = ("complete", "smi", "hr")[case % 3]
        if kind == "complete":
            n = rng.randint(1, 8)
            pm, pw = latin(n) if case % 2 else (random_lists(rng, n, n, True), random_lists(rng, n, n, True))
            text, meta = complete_text(pm, pw), "n = %d;\n" % n
            expected = set()
            for wife in complete_stable_matchings(pm, pw):
                men, women = smi_ranks(pm, pw, wife)
                expected.add(tuple(v + base for v in men + women))
            model = complete_model(base, ann, "file")
        elif kind == "smi":
            n1, n2 = rng.randint(1, 5), rng.randint(1, 5)
            pm, pw = random_lists(rng, n1, n2, False), random_lists(rng, n2, n1, False)
            if case % 2:  # Latin lists, some cut short: several stable matchings
                n1 = n2 = rng.randint(2, 5)
                pm, pw = latin(n1)
                pm = [row[:len(row) - (rng.random() < 0.3)] for row in pm]
            text = smi_text(pm, pw)
            meta = "n_men = %d;\nn_women = %d;\n" % (n1, n2)
            expected = set()
            for wife in smi_stable_matchings(pm, pw):
                men, women = smi_ranks(pm, pw, wife)
                expected.add(tuple(v + base for v in men + women))
            model = smi_model(base, ann)
        else:
            nr, nh = rng.randint(1, 5), rng.randint(1, 3)
            rp, hp = random_lists(rng, nr, nh, False), random_lists(rng, nh, nr, rng.random() < 0.5)
            cap = [rng.randint(0, 2) for _ in range(nh)]
            cols = max([1] + cap)
            text = hr_text(rp, hp, cap)
            meta = "n_residents = %d;\nn_hospitals = %d;\n" % (nr, nh)
            expected = set()
            for hosp in hr_stable_matchings(rp, hp, cap):
                residents, posts = hr_ranks(rp, hp, cap, hosp, cols)
                expected.add(tuple(v + base for v in residents + [x for row in posts for x in row]))
            model = hr_model(base, ann, cols)
        path = runner.write("i%d.txt" % case, text)
        files = [path]
        if case % 2 == 1:  # the same instance in the binary format
            blob = (complete_binary(pm, pw) if kind == "complete" else
                    csr_binary(0, pm, pw) if kind == "smi" else csr_binary(1, rp, hp, cap))
            with open(runner.path("i%d.bin" % case), "wb") as f:
                f.write(blob)
            files.append(runner.path("i%d.bin" % case))
        for f in files:
            checks += 1
            msg = check(runner, model, meta + 'prefs_file = "%s";\n' % f, expected,
                        "%s case %d (base %d%s, %s)" % (kind, case, base, ann, os.path.basename(f)))
            failures += msg is not None
            print(("FAIL " + msg) if msg else "ok   %s case %d: %d stable matchings (base %d%s, %s)" % (
                kind, case, len(expected), base, ann, os.path.basename(f)), flush=True)
        if kind == "complete":  # the matrix form on the same data: the same set
            checks += 1
            data = "n = %d;\n" % len(pm) + matrix_dzn("pm", pm, base, len(pm)) + matrix_dzn("pw", pw, base, len(pm))
            data = data.replace("array2d(%d..%d, %d..%d" % (base, base + len(pm) - 1, base, base + len(pm) - 1),
                                "array2d(1..%d, 1..%d" % (len(pm), len(pm)))
            msg = check(runner, complete_model(base, ann, "dzn"), data, expected, "dzn form of case %d" % case)
            failures += msg is not None
            if msg:
                print("FAIL " + msg, flush=True)
    return failures, checks


def part_first(args, runner, rng):
    failures = checks = 0
    for k in range(args.cases):
        n = 200
        txt = runner.path("big%d.txt" % k)
        subprocess.run([args.bamboo_smp, "gen", "uniform", "--n", str(n), "--seed", str(100 + k), "-o", txt],
                       check=True)
        with open(txt) as f:
            rows = [list(map(int, line.split())) for line in f.read().splitlines()[1:] if line.strip()]
        pm, pw = rows[:n], rows[n:]
        for base in (0, 1):
            rc1, out1, err1 = runner.run(complete_model(base, "", "file"), 'n = %d;\nprefs_file = "%s";\n' % (n, txt),
                                         all_solutions=False)
            data = "n = %d;\n" % n + matrix_dzn("pm", pm, base, n).replace(
                "array2d(%d..%d, %d..%d" % (base, base + n - 1, base, base + n - 1), "array2d(1..%d, 1..%d" % (n, n))
            data += matrix_dzn("pw", pw, base, n).replace(
                "array2d(%d..%d, %d..%d" % (base, base + n - 1, base, base + n - 1), "array2d(1..%d, 1..%d" % (n, n))
            rc2, out2, err2 = runner.run(complete_model(base, "", "dzn"), data, all_solutions=False)
            checks += 1
            s1, s2 = solutions(out1), solutions(out2)
            ok = rc1 == 0 and rc2 == 0 and len(s1) == 1 and s1 == s2
            failures += not ok
            print("%s  n = %d instance %d base %d: first solutions %s" % (
                "ok  " if ok else "FAIL", n, k, base, "identical" if ok else "differ (%s | %s)" % (
                    err1.strip()[-200:], err2.strip()[-200:])), flush=True)
    return failures, checks


def part_errors(args, runner, rng):
    pm = [[0, 1], [1, 0]]
    good = runner.write("good.txt", complete_text(pm, pm))
    smi = runner.write("smi.txt", smi_text([[0], []], [[0], []]))
    big = runner.write("big.txt", complete_text([[0, 1, 2]] * 3, [[2, 1, 0]] * 3))
    corrupt = runner.path("corrupt.bin")
    subprocess.run([args.bamboo_smp, "gen", "uniform", "--n", "50", "--binary", "-o", corrupt], check=True)
    with open(corrupt, "r+b") as f:
        f.truncate(os.path.getsize(corrupt) // 2)
    cases = [
        ("missing file", runner.path("nowhere.txt"), "nowhere.txt"),
        ("a directory", runner.tmp, os.path.basename(runner.tmp)),
        ("n disagrees with the model", big, "holds n = 3, but the constraint has 2 men and 2 women"),
        ("corrupt binary file", corrupt, "corrupt.bin"),
        ("an SMI file", smi, "is an SMI instance; use stable_matching_smi_file"),
    ]
    failures = checks = 0
    model = complete_model(1, "", "file")
    for what, path, needle in cases:
        rc, out, err = runner.run(model, 'n = 2;\nprefs_file = "%s";\n' % path)
        ok = rc != 0 and needle in err and "bamboo_stable_matching_file" in err
        checks += 1
        failures += not ok
        print("%s  %s: %s" % ("ok  " if ok else "FAIL", what, err.strip().splitlines()[-1] if err.strip() else
                              "no message (rc %d)" % rc), flush=True)
    # The message names the model's line (the constraint's line there), not MiniZinc's
    # temporary FlatZinc file: from the paths file minizinc passes, or with --keep-paths from
    # the constraint's mzn_path annotation.
    for flags in ([], ["--keep-paths"]):
        rc, out, err = runner.run(model, 'n = 2;\nprefs_file = "%s";\n' % runner.path("nowhere.txt"), flags=flags)
        want = "m%d.mzn:%d:" % (runner.count, model[:model.index("constraint stable_matching")].count("\n") + 1)
        ok = rc != 0 and want in err and "nowhere.txt" in err and ".fzn:" not in err
        checks += 1
        failures += not ok
        print("%s  %s: the model's line (%s): %s" % ("ok  " if ok else "FAIL", " ".join(flags) or "default", want,
                                                     err.strip()[-200:]), flush=True)
    f, c = part_errors_numbers(args, runner)
    failures += f
    checks += c
    rc, out, err = runner.run(model, 'n = 2;\nprefs_file = "%s";\n' % good)
    checks += 1
    ok = rc == 0 and len(solutions(out)) >= 1
    failures += not ok
    print("%s  the good file solves" % ("ok  " if ok else "FAIL"), flush=True)
    listed = subprocess.run([args.minizinc, "--solvers"], capture_output=True, text=True, env=runner.env).stdout
    if "org.gecode.gecode" in listed:
        rc, out, err = runner.run(model, 'n = 2;\nprefs_file = "%s";\n' % good, solver="gecode")
        ok = rc != 0 and "only bamboo" in err and "good.txt" in err
        checks += 1
        failures += not ok
        print("%s  gecode on the file form: %s" % ("ok  " if ok else "FAIL", err.strip().splitlines()[-1:]), flush=True)
    return failures, checks


def part_errors_numbers(args, runner):
    """The shipped models (models/smi_file.mzn, models/hr_file.mzn) with a .dzn whose list
    lengths or capacities disagree with the instance file: each must stop with a
    message naming the file, the person and both numbers. In the SMI case man 1 is unmatched
    in every stable matching (both men list only woman 0, who prefers man 2), so with
    pm_len[1] = 2 instead of 1 the model's `men[1] <= pm_len[1]` ("man 1 is matched") took
    the file's unmatched rank for a partner and was reported satisfied."""
    models = os.path.join(HERE, "..", "..", "models")
    smi = runner.write("smi_numbers.txt", smi_text([[0], [0]], [[1, 0]]))
    hr = runner.write("hr_numbers.txt", hr_text([[0], [0, 1], [1]], [[1, 0], [2, 1]], [1, 2]))
    smi_dzn = 'n_men = 2;\nn_women = 1;\npm_len = %s;\npw_len = %s;\nprefs_file = "%s";\n'
    hr_dzn = ('n_residents = 3;\nn_hospitals = 2;\nrp_len = %s;\nhp_len = %s;\ncapacity = %s;\n'
              'prefs_file = "%s";\n')
    cases = [  # (what, model, data, expected rc, text in the message)
        ("smi: the lengths agree (man 1 unmatched: unsatisfiable)", "smi_file.mzn",
         smi_dzn % ("[1, 1]", "[2]", smi), 0, None),
        ("smi: pm_len[1] disagrees", "smi_file.mzn", smi_dzn % ("[2, 1]", "[2]", smi), 1,
         "man 1's list length is 2 in the model (pm_len[1]) but 1 in %s" % smi),
        ("smi: pw_len[1] disagrees", "smi_file.mzn", smi_dzn % ("[1, 1]", "[1]", smi), 1,
         "woman 1's list length is 1 in the model (pw_len[1]) but 2 in %s" % smi),
        ("hr: the numbers agree", "hr_file.mzn", hr_dzn % ("[1, 2, 1]", "[2, 2]", "[1, 2]", hr), 0, None),
        ("hr: rp_len[3] disagrees", "hr_file.mzn", hr_dzn % ("[1, 2, 2]", "[2, 2]", "[1, 2]", hr), 1,
         "resident 3's list length is 2 in the model (rp_len[3]) but 1 in %s" % hr),
        ("hr: hp_len[2] disagrees", "hr_file.mzn", hr_dzn % ("[1, 2, 1]", "[2, 3]", "[1, 2]", hr), 1,
         "hospital 2's list length is 3 in the model (hp_len[2]) but 2 in %s" % hr),
        ("hr: capacity[1] disagrees", "hr_file.mzn", hr_dzn % ("[1, 2, 1]", "[2, 2]", "[2, 2]", hr), 1,
         "hospital 1's capacity is 2 in the model (capacity[1]) but 1 in %s" % hr),
        ("hr: capacity[2] disagrees (fewer posts)", "hr_file.mzn", hr_dzn % ("[1, 2, 1]", "[2, 2]", "[1, 1]", hr), 1,
         "hospital 2's capacity is 1 in the model (capacity[2]) but 2 in %s" % hr),
    ]
    failures = checks = 0
    for what, model, data, want_rc, needle in cases:
        with open(os.path.join(models, model)) as f:
            text = f.read()
        rc, out, err = runner.run(text, data, all_solutions=False)
        if needle is None:
            ok = rc == 0 and ("UNSATISFIABLE" in out if model == "smi_file.mzn" else "----------" in out)
        else:
            ok = rc == want_rc and needle in err and "----------" not in out
        checks += 1
        failures += not ok
        print("%s  %s: rc %d: %s" % ("ok  " if ok else "FAIL", what, rc,
                                     (err.strip() or out.strip()).splitlines()[-1:] if (err + out).strip() else ""),
              flush=True)
    return failures, checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("brute", "first", "errors"), required=True)
    mzn_setup.add_arguments(ap)
    ap.add_argument("--bamboo-smp", required=True)
    ap.add_argument("--cases", type=int, default=None, help="default: 90 (brute), 3 (first)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args()
    _, code = mzn_setup.prepare(args)
    if code is not None:
        return code
    runner = Runner(args)
    if args.cases is None:
        args.cases = 3 if args.part == "first" else 90
    rng = random.Random(args.seed)
    failures, checks = {"brute": part_brute, "first": part_first, "errors": part_errors}[args.part](args, runner, rng)
    print("%d failure(s) in %d checks; %d minizinc runs" % (failures, checks, runner.count))
    shutil.rmtree(runner.tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
