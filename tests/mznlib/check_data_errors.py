#!/usr/bin/env python3
"""Bad Stable Marriage data is reported at the call in the user's model, by both libraries.

Each case is a small model whose constraint (stable_matching, _partners, _smi, _hr or a
file form) or HR helper (stable_matching_hr_hospital, _assigned, _assignee, var and par)
is on line CALL_LINE, with data that is wrong in one way. It runs on
`--solver bamboo` (minizinc/mznlib and fzn-bamboo) and on Gecode with minizinc/decomposition (std
decomposition); the run must fail, name the model at CALL_LINE and say what is wrong.
The checks MiniZinc makes (shapes, bases, the range of the entries, the SMI/HR lists, the
file forms' sizes) give MiniZinc's "m.mzn:LINE.COL" on both solvers. The checks that only
fzn-bamboo makes (a complete row that is not a permutation, what a file holds) are
reported by fzn-bamboo as "m.mzn:LINE:" too: by default from the paths file that minizinc
passes (bamboo.msc's needsPathsFile), and under `--keep-paths` from the constraint's
mzn_path annotation; both runs are made. A `::gpu` model (stable_matching, stable_matching_hr,
stable_matching_hrc and its file form) on a machine without a usable GPU must warn once, at the
model's line, naming the constraint, with a message a user can act on.

    MZN_SOLVER_PATH=<build>/minizinc/solvers tests/mznlib/check_data_errors.py
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CALL_LINE = 4

COMPLETE = """include "stable_matching.mzn";
array[{mlo}..{mhi}] of var int: men;
array[{wlo}..{whi}] of var int: women;
constraint {call}(men, women, {pm}, {pw});
solve satisfy;
"""

SMI = """include "stable_matching_smi.mzn";
array[{b}..{mhi}] of var int: men;
array[{b}..{whi}] of var int: women;
constraint stable_matching_smi(men, women, {pm}, {pm_len}, {pw}, {pw_len});
solve satisfy;
"""

HR = """include "stable_matching_hr.mzn";
array[1..2] of var int: residents;
array[1..1, 1..2] of var int: posts;
constraint stable_matching_hr(residents, posts, [|1|1|], [1,1], [|1,2|], [2], {capacity});
solve satisfy;
"""

FILE = """include "stable_matching_file.mzn";
array[{mlo}..{mhi}] of var int: men;
array[{wlo}..{whi}] of var int: women;
constraint {call}(men, women, "{path}");
solve satisfy;
"""

SMI_FILE_LENGTHS = """include "stable_matching_file.mzn";
array[1..2] of var int: men;
array[1..2] of var int: women;
constraint stable_matching_smi_file(men, women, {pm_len}, {pw_len}, "{path}");
solve satisfy;
"""

HR_FILE = """include "stable_matching_file.mzn";
array[1..2] of var int: residents;
array[{plo}..{plo}, 1..2] of var int: posts;
constraint stable_matching_hr_file(residents, posts, "{path}");
solve satisfy;
"""

# The HR helpers, on line 4, ahead of the constraint (as models/hr_match.mzn declares
# `hospital`): MiniZinc evaluates them first, so they must check what they read themselves.
# 3 residents (rp: 3 columns), 2 hospitals (hp: 3 columns), capacities 2 and 1.
HR_HELPER = """include "stable_matching_hr.mzn";
array[{rlo}..{rhi}] of var int: residents;
array[{rlo}..{hhi}, {rlo}..{rlo} + 1] of var int: posts;
{decl} = {helper};
constraint stable_matching_hr(residents, posts, [|1,2,0|2,1,0|1,0,0|], [2,2,1], [|1,2,3|3,2,1|], [3,3], [2,1]);
solve satisfy;
"""

RP, RP_LEN = "[|1,2,0|2,1,0|1,0,0|]", "[2,2,1]"
HP, HP_LEN = "[|1,2,3|3,2,1|]", "[3,3]"


def hr_helper(helper, decl="array[1..3] of var int: hospital", base=1, residents=3, hospitals=2):
    return HR_HELPER.format(rlo=base, rhi=base + residents - 1, hhi=base + hospitals - 1,
                            decl=decl, helper=helper)


def hospital(rp=RP, rp_len=RP_LEN, r="r"):
    return "[stable_matching_hr_hospital(residents, %s, %s, %s) | r in 1..3]" % (rp, rp_len, r)


T1 = "[|0,1,2|1,2,0|2,0,1|]"


def complete(pm=T1, pw=T1, m=(1, 3), w=(1, 3), call="stable_matching"):
    return COMPLETE.format(mlo=m[0], mhi=m[1], wlo=w[0], whi=w[1], pm=pm, pw=pw, call=call)


# (label, model, words the message must hold, whether only fzn-bamboo can see it, solvers)
CASES = [
    ("men and women differ", complete(w=(1, 2)), ["3 men but 2 women"], False),
    ("pm not n x n", complete(pm="[|0,1|1,0|0,1|]"), ["pm is 3x2, expected 3x3"], False),
    ("pw not n x n", complete(pw="[|0,1,2|1,2,0|]"), ["pw is 2x3, expected 3x3"], False),
    ("no men", complete(pm="array2d(1..0, 1..0, [])", pw="array2d(1..0, 1..0, [])", m=(1, 0), w=(1, 0)),
     ["there are no men"], False),
    ("base 2", complete(pm="[|2,3,4|3,4,2|4,2,3|]", pw="[|2,3,4|3,4,2|4,2,3|]"),
     ["pm's first row ranges over 2..4", "0..2 or of 1..3"], False),
    ("an entry out of range", complete(pm="[|0,1,3|1,2,0|2,0,1|]"), ["pm's first row ranges over 0..3"], False),
    # beyond the first row: bamboo's library reads one row (docs/minizinc.md), fzn-bamboo the rest
    ("an entry out of range, row 2", complete(pw="[|0,1,2|1,5,0|2,0,1|]"), ["pw row 1"], True),
    ("mixed bases", complete(pw="[|1,2,3|2,3,1|3,1,2|]"), ["same base"], False),
    ("partners: mixed bases", complete(pw="[|1,2,3|2,3,1|3,1,2|]", call="stable_matching_partners"),
     ["same base"], False),
    ("partners: no men", complete(pm="array2d(1..0, 1..0, [])", pw="array2d(1..0, 1..0, [])", m=(1, 0),
                                  w=(1, 0), call="stable_matching_partners"),
     ["stable_matching_partners: there are no men"], False),
    ("partners: pm not n x n", complete(pm="[|0,1|1,0|0,1|]", call="stable_matching_partners"),
     ["stable_matching_partners: pm is 3x2, expected 3x3"], False),
    ("partners: wives and husbands differ", complete(w=(1, 2), call="stable_matching_partners"),
     ["stable_matching_partners: 3 men but 2 women"], False),
    ("pm row not a permutation", complete(pm="[|0,1,2|0,0,2|2,0,1|]"), ["pm row 1"], True),
    ("pw row not a permutation", complete(pw="[|0,1,2|1,2,0|2,2,1|]"), ["pw row 2"], True),
    ("smi: list too long", SMI.format(b=1, mhi=2, whi=2, pm="[|1,2|2,1|]", pm_len="[3,2]",
                                      pw="[|1,2|2,1|]", pw_len="[2,2]"), ["length 3"], False),
    ("smi: not a woman", SMI.format(b=1, mhi=2, whi=2, pm="[|1,3|2,1|]", pm_len="[2,2]",
                                    pw="[|1,2|2,1|]", pw_len="[2,2]"), ["names 3, which is not a woman"], False),
    ("smi: named twice", SMI.format(b=0, mhi=1, whi=1, pm="[|0,0|1,0|]", pm_len="[2,2]",
                                    pw="[|0,1|1,0|]", pw_len="[2,2]"), ["names 0 twice"], False),
    ("smi: base 2", SMI.format(b=2, mhi=3, whi=3, pm="[|2,3|3,2|]", pm_len="[2,2]",
                               pw="[|2,3|3,2|]", pw_len="[2,2]"), ["must be 0 or 1"], False),
    ("hr: negative capacity", HR.format(capacity="[-1]"), ["capacity -1"], False),
    # the helpers (regression: rp_len[8] = 4 with 3 columns said "lower bound of empty array
    # undefined", other bad calls were silently unsatisfiable)
    ("hr_hospital: a list longer than rp's columns", hr_helper(hospital(rp_len="[2,2,4]")),
     ["stable_matching_hr_hospital: the list of resident 3 has length 4 (rp_len), outside 0..3"], False),
    ("hr_hospital: rp too short", hr_helper(hospital(rp="[|1,2,0|2,1,0|]")),
     ["stable_matching_hr_hospital: rp has 2 rows, expected 3 (one per resident)"], False),
    ("hr_hospital: rp_len too short", hr_helper(hospital(rp_len="[2,2]")),
     ["stable_matching_hr_hospital: rp_len has 2 entries, expected 3 (one per resident)"], False),
    ("hr_hospital: no such resident", hr_helper(hospital(r="r + 1")),
     ["stable_matching_hr_hospital: there is no resident 4 (ids 1..3)"], False),
    ("hr_hospital: base 2", hr_helper(hospital(), base=2), ["residents start at index 2"], False),
    ("hr_assignee: a list longer than hp's columns",
     hr_helper("stable_matching_hr_assignee(posts, %s, [3,4], 2, 1)" % HP, decl="var int: x"),
     ["stable_matching_hr_assignee: the list of hospital 2 has length 4 (hp_len), outside 0..3"], False),
    ("hr_assignee: no such post", hr_helper("stable_matching_hr_assignee(posts, %s, %s, 1, 3)" % (HP, HP_LEN),
                                            decl="var int: x"),
     ["stable_matching_hr_assignee: hospital 1 has no post 3 (posts' columns are 1..2)"], False),
    ("hr_assignee: hp too short", hr_helper("stable_matching_hr_assignee(posts, [|1,2,3|], [3], 1, 1)",
                                            decl="var int: x"),
     ["stable_matching_hr_assignee: hp has 1 rows, expected 2 (one per hospital)"], False),
    ("hr_assigned: hp_len too short", hr_helper("stable_matching_hr_assigned(posts, [3], 1)", decl="var int: x"),
     ["stable_matching_hr_assigned: hp_len has 1 entries, expected 2"], False),
    ("hr_assigned: no such hospital", hr_helper("stable_matching_hr_assigned(posts, %s, 3)" % HP_LEN,
                                                decl="var int: x"),
     ["stable_matching_hr_assigned: there is no hospital 3 (ids 1..2)"], False),
    ("hr_assigned (par): hp_len too short",
     hr_helper("stable_matching_hr_assigned(array2d(1..2, 1..2, [1, 4, 2, 4]), [3], 1)", decl="int: x"),
     ["stable_matching_hr_assigned: hp_len has 1 entries, expected 2"], False),
    ("hr_hospital (par): a list longer than rp's columns",
     hr_helper("stable_matching_hr_hospital([1, 1, 1], %s, [2,2,4], 3)" % RP, decl="int: x"),
     ["stable_matching_hr_hospital: the list of resident 3 has length 4 (rp_len), outside 0..3"], False),
    ("file: men and women differ", FILE.format(mlo=1, mhi=3, wlo=1, whi=2, call="stable_matching_file",
                                               path="{file3}"), ["3 men but 2 women"], False),
    ("file: base 2", FILE.format(mlo=2, mhi=4, wlo=2, whi=4, call="stable_matching_file", path="{file3}"),
     ["must be 0 or 1"], False),
    ("smi file: mixed bases", FILE.format(mlo=0, mhi=2, wlo=1, whi=3, call="stable_matching_smi_file",
                                          path="{file3}"), ["same base"], False),
    ("hr file: posts' rows", HR_FILE.format(plo=0, path="{file3}"), ["posts' rows start at 0"], False),
    ("smi file: pm_len too short", SMI_FILE_LENGTHS.format(pm_len="[1]", pw_len="[1, 1]", path="{file3}"),
     ["pm_len has 1 entries, expected 2 (one per man)"], False),
    ("smi file: pw_len too long", SMI_FILE_LENGTHS.format(pm_len="[1, 1]", pw_len="[1, 1, 1]", path="{file3}"),
     ["pw_len has 3 entries, expected 2 (one per woman)"], False),
    ("file: n differs from the file's", FILE.format(mlo=1, mhi=2, wlo=1, whi=2, call="stable_matching_file",
                                                    path="{file3}"), ["holds n = 3"], True),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--minizinc", default="minizinc")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--solver-path", help="folder of a bamboo.msc, put first on MZN_SOLVER_PATH")
    args = ap.parse_args()
    if args.solver_path:
        os.environ["MZN_SOLVER_PATH"] = args.solver_path + (
            os.pathsep + os.environ["MZN_SOLVER_PATH"] if os.environ.get("MZN_SOLVER_PATH") else "")
    tmp = tempfile.mkdtemp(prefix="bamboo-data-errors-")
    file3 = os.path.join(tmp, "t3.txt")
    with open(file3, "w") as f:  # a valid complete instance, n = 3
        f.write("3\n0 1 2\n1 2 0\n2 0 1\n0 1 2\n1 2 0\n2 0 1\n")
    failures = 0
    for k, (label, model, words, bamboo_only) in enumerate(CASES):
        mzn = os.path.join(tmp, "m%d.mzn" % k)
        with open(mzn, "w") as f:
            f.write(model.replace("{file3}", file3))
        file_form = "_file(" in model
        runs = [("bamboo", ["--solver", "bamboo"])]
        if bamboo_only:  # the model's line from mzn_path annotations as well as from the paths file
            runs.append(("bamboo --keep-paths", ["--solver", "bamboo", "--keep-paths"]))
        if not bamboo_only or not file_form:  # other solvers never read a file
            runs.append(("gecode + share", ["--solver", "gecode", "-I", os.path.join(ROOT, "minizinc", "decomposition")]))
        for name, flags in runs:
            try:
                p = subprocess.run([args.minizinc] + flags + [mzn], capture_output=True, text=True,
                                   timeout=args.timeout)
                out, rc = p.stdout + p.stderr, p.returncode
            except subprocess.TimeoutExpired:
                out, rc = "timed out", -1
            at_line = re.search(re.escape(mzn) + r":%d[.:]" % CALL_LINE, out)
            problems = []
            if name.startswith("bamboo") and re.search(r"mznfile\w*\.fzn", out):
                problems.append("names MiniZinc's temporary FlatZinc file")
            if rc == 0:
                problems.append("accepted")
            if not at_line:
                problems.append("not reported at %s:%d" % (os.path.basename(mzn), CALL_LINE))
            problems += ["no %r in the message" % w for w in words if w not in out]
            if problems:
                failures += 1
                print("FAIL  %s (%s): %s\n        %s" % (label, name, "; ".join(problems),
                                                        out.strip().replace("\n", "\n        ")[:600]))
            else:
                print("ok    %s (%s)" % (label, name))
    hrc_file = os.path.join(tmp, "gpu.hrc")
    with open(hrc_file, "w") as f:
        f.write(HRC_FILE)
    for name, text in (("stable_matching", GPU.format(t1=T1)), ("stable_matching_hr", GPU_HR),
                       ("stable_matching_hrc", GPU_HRC),
                       ("stable_matching_hrc_file", GPU_HRC_FILE.replace("{path}", hrc_file))):
        failures += check_gpu_warning(args, tmp, name, text)
    failures += check_cpu_only_warning(args, tmp)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


GPU = """include "stable_matching.mzn";
array[1..3] of var int: men;
array[1..3] of var int: women;
constraint stable_matching(men, women, {t1}, {t1}) :: gpu;
constraint stable_matching(women, men, {t1}, {t1}) :: gpu;
solve satisfy;
"""

# The native HR and HRC constraints warn as stable_matching does, at the call (CALL_LINE), in
# fzn-bamboo's poster: their propagators' own warning comes at search time without a line.
GPU_HR = HR.format(capacity="[2]").replace(";\nsolve", " :: gpu;\nsolve")

GPU_HRC = """include "stable_matching_hrc.mzn";
array[1..1] of var int: singles; array[1..1] of var int: couples;
var int: bp;
constraint stable_matching_hrc(singles, couples, bp, [|1, 2|], [2], [|1|], [|2|], [1], [|1, 2, 3|1, 2, 3|], [3, 3], [1, 2]) :: gpu;
solve satisfy;
"""

# The file form: one couple (residents 0 and 1) and two singles, two hospitals
# (`bamboo-smp gen hrc --n 4 --couples 1 --hospitals 2 --posts 3 --lists 1 2`, docs/formats.md).
HRC_FILE = """hrc 4 2 1
0 1: 1 1  0 1
-
-
1
0
0: 3 0
3: 2 1 0
"""

GPU_HRC_FILE = """include "stable_matching_hrc_file.mzn";
array[1..2] of var int: singles; array[1..1] of var int: couples;
var int: bp;
constraint stable_matching_hrc_file(singles, couples, bp, "{path}") :: gpu;
solve satisfy;
"""

# What a user is told when ::gpu cannot be had: a build without CUDA says so, a CUDA build on
# a machine without an NVIDIA driver or GPU (CI, for one) says that. Never the CUDA runtime's
# own words (regression: they read as if an old driver were installed).
GPU_MESSAGES = ["no NVIDIA GPU or driver found; propagating on the CPU", "has no CUDA support"]


GPU_SMTI = """include "stable_matching_smti.mzn";
array[1..2] of var int: men; array[1..2] of var int: women; var int: size;
array[1..2, 1..2] of int: pm = [| 1, 2 | 1, 2 |]; array[1..2, 1..2] of int: pw = [| 1, 2 | 1, 2 |];
constraint stable_matching_smti(men, women, pm, [2, 2], [| 1, 1 | 1, 2 |], pw, [2, 2], [| 1, 2 | 1, 1 |], size) :: gpu;
constraint stable_matching_smti(men, women, pm, [2, 2], [| 1, 1 | 1, 2 |], pw, [2, 2], [| 1, 2 | 1, 1 |], size) :: gpu;
solve maximize size;
"""


def check_cpu_only_warning(args, tmp):
    """::gpu on a ties constraint, which has no GPU path: the run succeeds with the optimum and
    one warning at the first constraint's line naming it (regression: the annotation was dropped
    without a word), whether or not this machine has a GPU."""
    mzn = os.path.join(tmp, "gpu_smti.mzn")
    with open(mzn, "w") as f:
        f.write(GPU_SMTI)
    p = subprocess.run([args.minizinc, "--solver", "bamboo", mzn], capture_output=True, text=True,
                       timeout=args.timeout)
    warnings = [line for line in p.stderr.splitlines() if "warning: " in line]
    want = "%s:%d: warning: ::gpu: stable_matching_smti has no GPU path; propagating on the CPU" % (mzn, CALL_LINE)
    if p.returncode != 0 or "size = 2;" not in p.stdout or len(warnings) != 1 or not warnings[0].startswith(want):
        print("FAIL  stable_matching_smti ::gpu (no GPU path): rc %d, warnings %r\n        %s"
              % (p.returncode, warnings, p.stdout.strip()[:300]))
        return 1
    print("ok    stable_matching_smti ::gpu: %s" % warnings[0])
    return 0


def check_gpu_warning(args, tmp, name, text):
    """::gpu without a usable GPU: the run succeeds and warns once (stable_matching: two ::gpu
    constraints), at the model's line (the first one's), without --keep-paths, naming the
    constraint. No warning at all means a GPU was found."""
    mzn = os.path.join(tmp, "gpu_%s.mzn" % name)
    with open(mzn, "w") as f:
        f.write(text)
    p = subprocess.run([args.minizinc, "--solver", "bamboo", mzn], capture_output=True, text=True,
                       timeout=args.timeout)
    warnings = [line for line in p.stderr.splitlines() if "warning: " in line and "gpu" in line.lower()]
    problems = []
    if p.returncode != 0 or "----------" not in p.stdout:
        problems.append("rc %d, no solution" % p.returncode)
    if warnings:
        if len(warnings) != 1:
            problems.append("%d warnings, expected one" % len(warnings))
        if not warnings[0].startswith("%s:%d: warning: ::gpu" % (mzn, CALL_LINE)):
            problems.append("not at %s:%d" % (os.path.basename(mzn), CALL_LINE))
        if not any(m in warnings[0] for m in GPU_MESSAGES) or "insufficient" in warnings[0]:
            problems.append("not a message a user can act on")
        if "(%s," % name not in warnings[0]:
            problems.append("%s not named" % name)
    if problems:
        print("FAIL  %s ::gpu without a GPU: %s\n        %s" % (name, "; ".join(problems), p.stderr.strip()[:600]))
        return 1
    print("ok    %s ::gpu: %s" % (name, warnings[0] if warnings else "a GPU was found: no warning"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
