#!/usr/bin/env python3
"""fzn-bamboo's --gpus LIST (the GPU devices stable_matching's search threads spread over;
docs/minizinc.md):

  - bad lists are usage errors: exit 2, a message naming --gpus and the problem, nothing on
    standard output;
  - a good list changes no result: for random complete instances (n = 30) and a ::gpu and an
    unannotated constraint, `-a` with --gpus 0,0 (two copies on device 0) and -p 1/2/4 gives
    the same solution set as the default (one device, -p 1), every solution stable (checked
    here from the definition), and the same warnings: without a GPU, the documented fallback
    (CPU, with the ::gpu warning) for every list.

    tests/fzn/check_gpus.py FZN_BAMBOO
"""
import os
import random
import re
import subprocess
import sys
import tempfile

N = 30

BAD = [
    ("", "an empty GPU list"),
    ("a", "entry 1 is not a device id"),
    ("0,x", "entry 2 is not a device id"),
    ("-1", "entry 1 is not a device id"),
    ("0,", "comma-separated list"),
    ("0,,1", "entry 2 is not a device id"),
    ("0;1", "comma-separated list"),
    ("1024", "above the largest device id 1023"),
    ("99999999999999999999", "above the largest device id"),
    ("0,0,0,0,0,0,0,0,0", "more than 8 entries"),
]


def stable(pm, pw, men, women):
    """men[i], women[j]: 0-based ranks."""
    n = len(pm)
    wife = [pm[i][men[i]] for i in range(n)]
    if sorted(wife) != list(range(n)) or any(pw[wife[i]][women[wife[i]]] != i for i in range(n)):
        return False
    rank_m = [{w: k for k, w in enumerate(row)} for row in pm]
    rank_w = [{m: k for k, m in enumerate(row)} for row in pw]
    return not any(rank_m[i][w] < men[i] and rank_w[w][i] < women[w] for i in range(n) for w in range(n))


def fzn(pm, pw, annotation):
    n = len(pm)
    lines = ["array [1..%d] of int: pm = [%s];" % (n * n, ",".join(str(v) for row in pm for v in row)),
             "array [1..%d] of int: pw = [%s];" % (n * n, ",".join(str(v) for row in pw for v in row))]
    for side in ("m", "w"):
        lines += ["var 0..%d: %s%d;" % (n - 1, side, i) for i in range(n)]
    lines.append("array [1..%d] of var int: men :: output_array([1..%d]) = [%s];" %
                 (n, n, ",".join("m%d" % i for i in range(n))))
    lines.append("array [1..%d] of var int: women :: output_array([1..%d]) = [%s];" %
                 (n, n, ",".join("w%d" % i for i in range(n))))
    lines.append("constraint bamboo_stable_matching(men,women,pm,pw,%d,%d,%d,%d)%s;" % (n, n, n, n, annotation))
    lines.append("solve :: int_search(men, first_fail, indomain_split, complete) satisfy;")
    return "\n".join(lines) + "\n"


def run(exe, path, extra):
    p = subprocess.run([exe, "-a"] + extra + [path], capture_output=True, text=True, timeout=120)
    sols = []
    for block in p.stdout.split("----------")[:-1]:
        men = re.search(r"men = array1d\(1\.\.\d+, \[([^\]]*)\]\)", block)
        women = re.search(r"women = array1d\(1\.\.\d+, \[([^\]]*)\]\)", block)
        sols.append((tuple(int(v) for v in men.group(1).split(",")), tuple(int(v) for v in women.group(1).split(","))))
    warnings = sorted(l for l in p.stderr.splitlines() if "warning" in l and "-p" not in l)
    return p.returncode, sorted(sols), warnings, p.stderr


def main():
    exe = sys.argv[1]
    failures = 0
    with tempfile.TemporaryDirectory(prefix="check gpus 1 ") as work:
        path = os.path.join(work, "m.fzn")
        rng = random.Random(21)
        pm = [rng.sample(range(N), N) for _ in range(N)]
        pw = [rng.sample(range(N), N) for _ in range(N)]
        with open(path, "w") as f:
            f.write(fzn(pm, pw, " :: gpu"))
        for value, needle in BAD:
            p = subprocess.run([exe, "--gpus", value, path], capture_output=True, text=True, timeout=60)
            ok = p.returncode == 2 and "--gpus" in p.stderr and needle in p.stderr and p.stdout == ""
            failures += not ok
            print("%s  --gpus %-22r exit %d: %s" % ("ok  " if ok else "FAIL", value, p.returncode, p.stderr.strip()))
        for case, annotation in enumerate([" :: gpu", "", " :: gpu", ""]):
            pm = [rng.sample(range(N), N) for _ in range(N)]
            pw = [rng.sample(range(N), N) for _ in range(N)]
            with open(path, "w") as f:
                f.write(fzn(pm, pw, annotation))
            rc, base, base_warn, err = run(exe, path, [])
            if rc != 0 or not base or not all(stable(pm, pw, m, w) for m, w in base):
                failures += 1
                print("FAIL  case %d: the default run: exit %d, %d solutions: %s" % (case, rc, len(base), err[-300:]))
                continue
            for extra in (["--gpus", "0,0"], ["--gpus", "0,0", "-p", "2"], ["--gpus", "0,0,0,0", "-p", "4"],
                          ["--gpus", "0", "-p", "2"]):
                rc, sols, warn, err = run(exe, path, extra)
                problem = None
                if rc != 0:
                    problem = "exit %d: %s" % (rc, err.strip()[-300:])
                elif sols != base:
                    problem = "%d solutions, the default run %d, or different ones" % (len(sols), len(base))
                elif warn != base_warn:
                    problem = "warnings %r, the default run %r" % (warn, base_warn)
                failures += problem is not None
                print("%s  case %d%s %s: %s" % ("FAIL" if problem else "ok  ", case, annotation, " ".join(extra),
                                               problem or "%d stable matchings, warnings %r" % (len(sols), warn)))
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
