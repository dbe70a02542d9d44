#!/usr/bin/env python3
"""The file form of the ties constraints (stable_matching_smti_file, stable_matching_hrt_file)
through `minizinc --solver bamboo`, against brute force and against the matrix form.

Parts (--part):
  sets    random instances (check_ties_native.py's: SMTI 1..5 x 1..5, HRT 1..6 residents and
          1..3 hospitals, capacities 0..3, incomplete and one-sided lists, ties, base 0 and 1)
          written as a ties file (text, or binary through `bamboo-smp ties convert`), short and
          long forms: the set of all solutions (-a) equals brute force (ties_reference.py) and
          the matrix form's on the same data, and `maximize size` reaches the brute-force
          maximum, as the matrix form does; with --stability strong or super, the same for
          stable_matching_smti_strong_file, _super_file and the _hrt ones (and their matrix
          forms; unsatisfiable when no such matching exists);
  models  models/max_hrt_file.mzn and models/school_choice_file.mzn on the data of
          models/max_hrt8.dzn and school_choice9.dzn written as files (the optimum and the
          fewest worse off of brute force, as check_ties_models.py finds them for the matrix
          models), models/max_smti_file.mzn on random SMTI files against brute force,
          models/super_hrt_file.mzn on random HRT files (unsatisfiable exactly when brute force
          finds no super-stable matching, else brute force's least total position, and
          `bamboo-smp ties check --stability super` agrees), and
          models/school_stb.py on a `bamboo-smp gen school` file against the positions of
          `bamboo-smp solve --algo da-stb`'s matching (students' lists are strict there);
  errors  a missing file, a directory, a truncated binary file, sizes that disagree with the
          arrays, list lengths and capacities that disagree with the file, an HRT file given
          to stable_matching_smti_file, the message at the model's line, and gecode on the
          file form: non-zero exit and a message naming the file.
Exit 0 when every check passed, 77 (skipped) without minizinc."""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_ties  # noqa: E402
import check_ties_models  # noqa: E402  (read_dzn, lists, deferred acceptance)
import check_ties_native as native  # noqa: E402  (instances, the matrix-form model, brute force)
import mzn_setup  # noqa: E402
import ties_reference as ref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DECOMPOSITION = os.path.join(HERE, "..", "..", "minizinc", "decomposition")
MODELS = os.path.join(HERE, "..", "..", "models")


def ties_line(ids, ranks):
    """One list in the text format: equal ranks in brackets, '-' when empty."""
    groups = []
    for x, r in zip(ids, ranks):
        if groups and groups[-1][0] == r:
            groups[-1][1].append(x)
        else:
            groups.append((r, [x]))
    return " ".join(str(g[0]) if len(g) == 1 else "[%s]" % " ".join(map(str, g)) for _, g in groups) or "-"


def ties_text(inst):
    kind = inst["kind"]
    lines = ["%s %d %d" % (kind, len(inst["ml"]), len(inst["wl"]))]
    lines += [ties_line(l, r) for l, r in zip(inst["ml"], inst["mr"])]
    for j, (l, r) in enumerate(zip(inst["wl"], inst["wr"])):
        lines.append(("%d: " % inst["cap"][j] if kind == "hrt" else "") + ties_line(l, r))
    return "\n".join(lines) + "\n"


def file_model(inst, path, long_form, solve="satisfy"):
    b, kind = inst["b"], inst["kind"]
    a, c = native.NAMES[kind]
    extra = ""
    if long_form:
        extra = "%s, %s, " % ([len(l) for l in inst["ml"]], [len(l) for l in inst["wl"]])
        extra += "%s, " % inst["cap"] if kind == "hrt" else ""
    output = ('output ["S ", join(",", [show(x) | x in %s]), ";", join(",", [show(x) | x in %s]), ";", '
              'show(size), "\\n"];\n' % (a, c))
    return ('include "stable_matching_%s_file.mzn";\narray[%d..%d] of var int: %s;\n'
            'array[%d..%d] of var int: %s;\nvar int: size;\n'
            'constraint %s_file(%s, %s, %ssize, "%s");\nsolve %s;\n%s'
            % (kind, b, b + len(inst["ml"]) - 1, a, b, b + len(inst["wl"]) - 1, c, native.predicate(kind), a, c, extra,
               path, solve, output))


class Files:
    def __init__(self, args):
        self.args, self.tmp, self.count = args, tempfile.mkdtemp(prefix="bamboo-ties-file-"), 0

    def write(self, text, binary=False):
        self.count += 1
        path = os.path.join(self.tmp, "i%d.txt" % self.count)
        with open(path, "w") as f:
            f.write(text)
        if not binary:
            return path
        subprocess.run([self.args.bamboo_smp, "ties", "convert", path, "-o", path + ".bin", "--binary"], check=True,
                       capture_output=True)
        return path + ".bin"


def part_sets(args, runner, files, rng):
    jobs = []
    for idx, inst in enumerate(native.instances(rng, args.cases)):
        path = files.write(ties_text(inst), binary=idx % 3 == 2)
        long_form = idx % 2 == 1
        jobs.append((inst, path, long_form, "%s #%d (%s, %s form)" % (inst["kind"], idx, os.path.basename(path),
                                                                       "long" if long_form else "short")))

    def one(job):
        inst, path, long_form, name = job
        want = native.brute(inst)
        best = max([s[2] for s in want], default=None)
        runs = {}
        for form, text_all, text_max in (
                ("file", file_model(inst, path, long_form), file_model(inst, path, long_form, "maximize size")),
                ("matrix", native.model(inst, True), native.model(inst, True, solve="maximize size"))):
            p = runner.run("bamboo", text_all, True)
            q = runner.run("bamboo", text_max, False)
            if p.returncode or q.returncode:
                return "%s: %s form rc %d/%d\n%s%s%s" % (name, form, p.returncode, q.returncode, text_all,
                                                          p.stderr[-600:], q.stderr[-600:])
            runs[form] = (check_ties.parse_all(p.stdout), native.last_size(q.stdout))
        if runs["file"][0] != want:
            got = runs["file"][0]
            return "%s: file form %d solutions, brute force %d\n  only got %s\n  missing %s\n%s" % (
                name, len(got), len(want), sorted(got - want)[:3], sorted(want - got)[:3], ties_text(inst))
        if runs["file"] != runs["matrix"] or runs["file"][1] != best:
            return "%s: file form %s, matrix form %s, brute force max %s\n%s" % (
                name, runs["file"][1], runs["matrix"][1], best, ties_text(inst))
        return None

    with ThreadPoolExecutor(args.jobs) as ex:
        failures = [r for r in ex.map(one, jobs) if r]
    return failures, len(jobs)


def run_model(args, runner, model, data):
    p = subprocess.run([args.minizinc, "--solver", "bamboo", os.path.join(MODELS, model), "-D", data],
                       capture_output=True, text=True, env=runner.env, timeout=120)
    return p, dict(re.findall(r"^(\w+) = (.*);$", p.stdout, re.M))


def part_models(args, runner, files, rng):
    failures, checks = [], 0

    def check(ok, what, p):
        print("%s  %s" % ("ok  " if ok else "FAIL", what), flush=True)
        if not ok:
            failures.append("%s\n%s%s" % (what, p.stdout[-300:], p.stderr[-300:]))

    d = check_ties_models.read_dzn(os.path.join(MODELS, "max_hrt8.dzn"))
    (rl, rr), (hl, hr) = check_ties_models.lists(d, "r"), check_ties_models.lists(d, "h")
    inst = dict(kind="hrt", ml=rl, mr=rr, wl=hl, wr=hr, cap=d["capacity"])
    best = max(s[2] for s in ref_hrt(inst))
    path = files.write(ties_text(inst))
    p, v = run_model(args, runner, "max_hrt_file.mzn",
                     'n_residents = %d; n_hospitals = %d; prefs_file = "%s";' % (len(rl), len(hl), path))
    checks += 1
    check(p.returncode == 0 and v.get("size") == str(best), "max_hrt_file on max_hrt8: size %s, brute force %d"
          % (v.get("size"), best), p)

    d = check_ties_models.read_dzn(os.path.join(MODELS, "school_choice9.dzn"))
    (sl, sr), (cl, cr) = check_ties_models.lists(d, "s"), check_ties_models.lists(d, "c")
    inst = dict(kind="hrt", ml=sl, mr=sr, wl=cl, wr=cr, cap=d["capacity"])
    sols = ref_hrt(inst)
    best = max(s[2] for s in sols)
    stb = d["stb"]  # students' lists are strict: the last position tied with stb's is stb's

    def worse(pos):
        return sum(p > q for p, q in zip(pos, stb))

    fewest = min(worse(s[0]) for s in sols if s[2] == best)
    path = files.write(ties_text(inst))
    p, v = run_model(args, runner, "school_choice_file.mzn", 'n_students = %d; n_schools = %d; prefs_file = "%s"; '
                     "stb_last = %s;" % (len(sl), len(cl), path, stb))
    checks += 1
    check(p.returncode == 0 and v.get("size") == str(best) and v.get("worse") == str(fewest),
          "school_choice_file on school_choice9: size %s worse %s, brute force %d %d"
          % (v.get("size"), v.get("worse"), best, fewest), p)

    for idx in range(4):
        n1, n2 = rng.randint(2, 5), rng.randint(2, 5)
        ml, mr = check_ties.lists(rng, n1, n2, 0.8, 0.5)
        wl, wr = check_ties.lists(rng, n2, n1, 0.8, 0.5)
        inst = dict(kind="smti", ml=ml, mr=mr, wl=wl, wr=wr, cap=None, b=1)
        best = max(s[2] for s in native.brute(inst))
        path = files.write(ties_text(inst))
        p, v = run_model(args, runner, "max_smti_file.mzn",
                         'n_men = %d; n_women = %d; prefs_file = "%s";' % (n1, n2, path))
        checks += 1
        check(p.returncode == 0 and v.get("size") == str(best), "max_smti_file #%d: size %s, brute force %d"
              % (idx, v.get("size"), best), p)

    # super_hrt_file.mzn: unsatisfiable exactly when brute force finds no super-stable matching,
    # else the least total position of brute force's, a super-stable matching by the checker too
    found = {"super-stable": 0, "none": 0}
    for idx in range(60):
        if min(found.values()) >= 3:
            break
        inst = dict(native.instance(rng, "hrt"), b=1)
        sols = ref.hrt_solutions(inst["ml"], inst["mr"], inst["wl"], inst["wr"], inst["cap"], "super", 1)
        path = files.write(ties_text(inst))
        p, v = run_model(args, runner, "super_hrt_file.mzn", 'n_residents = %d; n_hospitals = %d; prefs_file = "%s";'
                         % (len(inst["ml"]), len(inst["wl"]), path))
        checks += 1
        if not sols:
            found["none"] += 1
            check(p.returncode == 0 and "=====UNSATISFIABLE=====" in p.stdout,
                  "super_hrt_file #%d: no super-stable matching by brute force, unsatisfiable" % idx, p)
            continue
        found["super-stable"] += 1
        best = min(sum(s[0]) for s in sols)
        pos = [int(x) for x in v.get("residents", "[]").strip("[]").split(",") if x.strip()]
        match = os.path.join(files.tmp, "super%d.match" % idx)
        with open(match, "w") as f:
            f.write("".join("%d %s\n" % (r, inst["ml"][r][k - 1] if k <= len(inst["ml"][r]) else "-")
                            for r, k in enumerate(pos)))
        checked = subprocess.run([args.bamboo_smp, "ties", "check", path, "--matching", match, "--stability", "super"],
                                 capture_output=True, text=True)
        check(p.returncode == 0 and len(pos) == len(inst["ml"]) and sum(pos) == best and checked.returncode == 0,
              "super_hrt_file #%d: total position %s, brute force %d; ties check: %s"
              % (idx, sum(pos) if pos else None, best, (checked.stdout + checked.stderr).strip()), p)
    check(min(found.values()) >= 3, "super_hrt_file: %d instances with a super-stable matching, %d without"
          % (found["super-stable"], found["none"]), subprocess.CompletedProcess([], 0, "", ""))

    school = os.path.join(files.tmp, "school.hrt")
    subprocess.run([args.bamboo_smp, "gen", "school", "--n", "300", "--hospitals", "12", "--capacity", "20", "-o",
                    school], check=True)
    matching = subprocess.run([args.bamboo_smp, "solve", "--algo", "da-stb", school], check=True,
                              capture_output=True, text=True).stdout
    dzn = subprocess.run([sys.executable, os.path.join(MODELS, "school_stb.py"), school, "-"], input=matching,
                         capture_output=True, text=True)
    with open(school) as f:
        rows = f.read().splitlines()[1:301]
    want = []
    for r, line in enumerate(matching.split("\n")[:300]):
        h = line.split()[1]
        ids = rows[r].split() if rows[r] != "-" else []
        want.append(len(ids) + 1 if h == "-" else ids.index(h) + 1)
    got = re.search(r"stb_last = \[([^\]]*)\]", dzn.stdout)
    checks += 1
    ok = dzn.returncode == 0 and got and [int(x) for x in got.group(1).split(",")] == want
    print("%s  school_stb.py on a 300-student school file" % ("ok  " if ok else "FAIL"), flush=True)
    if not ok:
        failures.append("school_stb.py: %s %s" % (dzn.stderr[-300:], dzn.stdout[:300]))
    return failures, checks


def ref_hrt(inst):
    return native.brute(dict(inst, b=1))


def part_errors(args, runner, files, rng):
    smti = dict(kind="smti", ml=[[0], [0, 1]], mr=[[0], [0, 0]], wl=[[1, 0], [1]], wr=[[0, 1], [0]], cap=None, b=1)
    hrt = dict(kind="hrt", ml=[[0], [1, 0], [1]], mr=[[0], [0, 1], [0]], wl=[[1, 0], [2, 1]], wr=[[0, 0], [0, 1]],
               cap=[1, 2], b=1)
    smti_path, hrt_path = files.write(ties_text(smti)), files.write(ties_text(hrt))
    corrupt = os.path.join(files.tmp, "corrupt.bin")
    subprocess.run([args.bamboo_smp, "gen", "hrt", "--binary", "-o", corrupt], check=True)
    with open(corrupt, "r+b") as f:
        f.truncate(os.path.getsize(corrupt) // 2)
    missing = os.path.join(files.tmp, "nowhere.hrt")

    def with_(inst, **kw):
        out = dict(inst)
        out.update(kw)
        return out

    cases = [  # (what, instance the model is written for, path, long form, text in the message)
        ("smti: missing file", smti, missing, False, "nowhere.hrt"),
        ("hrt: missing file", hrt, missing, False, "nowhere.hrt"),
        ("hrt: a directory", hrt, files.tmp, False, os.path.basename(files.tmp)),
        ("hrt: truncated binary file", hrt, corrupt, False, "corrupt.bin"),
        ("smti: an HRT file", with_(smti, ml=hrt["ml"], wl=hrt["wl"]), hrt_path, False,
         "is an HRT instance; use stable_matching_hrt_file"),
        ("smti: one man too many", with_(smti, ml=smti["ml"] + [[0]]), smti_path, False,
         "holds 2 men and 2 women, but the constraint has 3 men and 2 women"),
        ("hrt: one hospital too few", with_(hrt, wl=hrt["wl"][:1], cap=[1]), hrt_path, False,
         "holds 3 residents and 2 hospitals, but the constraint has 3 residents and 1 load"),
        ("smti: pm_len[2] disagrees", with_(smti, ml=[[0], [0]]), smti_path, True,
         "man 2's list length is 1 in the model (pm_len[2]) but 2 in %s" % smti_path),
        ("smti: pw_len[1] disagrees", with_(smti, wl=[[1], [1]]), smti_path, True,
         "woman 1's list length is 1 in the model (pw_len[1]) but 2 in %s" % smti_path),
        ("hrt: rp_len[3] disagrees", with_(hrt, ml=[[0], [1, 0], [1, 0]]), hrt_path, True,
         "resident 3's list length is 2 in the model (rp_len[3]) but 1 in %s" % hrt_path),
        ("hrt: capacity[2] disagrees", with_(hrt, cap=[1, 1]), hrt_path, True,
         "hospital 2's capacity is 1 in the model (capacity[2]) but 2 in %s" % hrt_path),
    ]
    failures, checks = [], 0
    for what, inst, path, long_form, needle in cases:
        text = file_model(inst, path, long_form)
        p = runner.run("bamboo", text, False)
        fn = "bamboo_stable_matching_%s_file" % inst["kind"]
        ok = p.returncode == 1 and needle in p.stderr and fn in p.stderr and "----------" not in p.stdout
        checks += 1
        print("%s  %s: rc %d: %s" % ("ok  " if ok else "FAIL", what, p.returncode,
                                     p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else ""), flush=True)
        if not ok:
            failures.append("%s: rc %d\n%s" % (what, p.returncode, p.stderr[-400:]))
    # The good files solve, in both forms; the message names the model's line, not the FlatZinc's.
    for inst, path in ((smti, smti_path), (hrt, hrt_path)):
        for long_form in (False, True):
            p = runner.run("bamboo", file_model(inst, path, long_form), False)
            checks += 1
            if p.returncode or "----------" not in p.stdout:
                failures.append("%s %s form does not solve: rc %d\n%s" % (
                    inst["kind"], "long" if long_form else "short", p.returncode, p.stderr[-400:]))
    for flags in ([], ["--keep-paths"]):
        text = file_model(hrt, missing, False)
        with tempfile.NamedTemporaryFile("w", suffix=".mzn", dir=files.tmp, delete=False) as f:
            f.write(text)
        p = subprocess.run([args.minizinc, "--solver", "bamboo", f.name] + flags, capture_output=True, text=True,
                           env=runner.env, timeout=120)
        line = text[:text.index("constraint stable_matching")].count("\n") + 1
        want = "%s:%d:" % (os.path.basename(f.name), line)
        ok = p.returncode == 1 and want in p.stderr and ".fzn:" not in p.stderr
        checks += 1
        print("%s  the model's line (%s): %s" % ("ok  " if ok else "FAIL", " ".join(flags) or "default",
                                                 p.stderr.strip()[-160:]), flush=True)
        if not ok:
            failures.append("model's line %s: %s" % (want, p.stderr[-400:]))
    listed = subprocess.run([args.minizinc, "--solvers"], capture_output=True, text=True, env=runner.env).stdout
    if "org.gecode.gecode" in listed:
        for inst, path in ((smti, smti_path), (hrt, hrt_path)):
            for long_form in (False, True):
                p = runner.run("gecode", file_model(inst, path, long_form), False)
                ok = p.returncode != 0 and "only bamboo" in p.stderr and os.path.basename(path) in p.stderr
                checks += 1
                print("%s  gecode on %s_file (%s form)" % ("ok  " if ok else "FAIL", inst["kind"],
                                                          "long" if long_form else "short"), flush=True)
                if not ok:
                    failures.append("gecode on %s: rc %d %s" % (inst["kind"], p.returncode, p.stderr[-300:]))
    return failures, checks


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    mzn_setup.add_arguments(ap)
    ap.add_argument("--part", choices=("sets", "models", "errors"), required=True)
    ap.add_argument("--bamboo-smp", required=True)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--stability", choices=sorted(native.KIND), default="weak")
    args = ap.parse_args()
    native.STABILITY[0] = args.stability
    env, code = mzn_setup.prepare(args, need=("bamboo",))
    if code is not None:
        return code
    runner, files = check_ties.Runner(args, env), Files(args)
    runner.env = env
    failures, checks = {"sets": part_sets, "models": part_models, "errors": part_errors}[args.part](args, runner, files,
                                                                             random.Random(args.seed))
    for f in failures[:8]:
        print("FAIL", f)
    print("%s (%s): %d checks, %d failures" % (args.part, args.stability, checks, len(failures)))
    shutil.rmtree(files.tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
