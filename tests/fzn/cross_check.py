#!/usr/bin/env python3
"""Differential test of fzn-bamboo against fzn-gecode on the committed corpus
(tests/fzn/corpus/, flattened by make_corpus.sh).

For every model NAME, three runs with -a:
  gecode  fzn-gecode  corpus/fzn/NAME.fzn         (MiniZinc's std decompositions)
  std     fzn-bamboo  corpus/fzn/NAME.fzn         (the FlatZinc builtins)
  native  fzn-bamboo  corpus/fzn-bamboo/NAME.fzn  (bamboo's natives, minizinc/NATIVES.md)
Satisfaction: the three sets of distinct solutions (printed variables, value by value) must
be equal, and each run must end with `==========` or `=====UNSATISFIABLE=====`.
Optimisation: the objective of the last solution must be equal and each run must prove it
(`==========`); the objective variable is made an output variable where it is not one.
A model whose source says `% cross-check-oracle: reference (reason)` is judged against the
brute-force reference fzn_ref.py on corpus/fzn/NAME.fzn instead of fzn-gecode (for the set
order, which Gecode defines differently from MiniZinc).
A model whose source says `% cross-check-max-nodes: N (reason)` must also be solved (proven)
by the native run in at most N search nodes (its -s statistics): for natives posted as
Gecode's FlatZinc library posts them, whose strength shows in the nodes, not in the answer.

    tests/fzn/cross_check.py --fzn-bamboo build/minizinc/fzn-bamboo [--timeout S] [--jobs J] [NAME...]

Exit 0 when everything agrees, 1 otherwise, 77 when fzn-gecode is not installed."""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fzn_solutions  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")


def objective_of(text):
    """(kind, variable name or None) of the solve item."""
    m = re.search(r"^solve\b(.*?)\b(satisfy|minimize|maximize)\s*([^;]*);", text, re.M | re.S)
    if not m:
        raise ValueError("no solve item")
    kind = m.group(2)
    if kind == "satisfy":
        return kind, None
    obj = m.group(3).strip()
    return kind, obj if re.fullmatch(r"[A-Za-z_]\w*", obj) else None


def with_objective_output(text, obj):
    """The text with `:: output_var` on the objective's declaration (if it lacks one)."""
    pat = re.compile(r"^(var\s[^:]*:\s*%s\b)([^;=]*)" % re.escape(obj), re.M)
    m = pat.search(text)
    if not m or "output_var" in m.group(2):
        return text
    return text[:m.end(1)] + " :: output_var" + text[m.end(1):]


def run(cmd, timeout):
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout after %gs" % timeout, timeout
    dt = time.monotonic() - t0
    if r.returncode != 0:
        return None, "exit %d: %s" % (r.returncode, r.stderr.strip()[:400]), dt
    return r.stdout, None, dt


def summarise(out, kind, obj):
    """(status, distinct solutions, count, final objective)."""
    sols, status = fzn_solutions.parse(out)
    distinct = {fzn_solutions.canonical_solution(s) for s in sols}
    final = None
    if kind != "satisfy" and obj and sols:
        final = fzn_solutions.canonical(sols[-1].get(obj, "?"))
    return status, distinct, len(sols), final


def check(name, opts):
    """A list of problems (empty when the model passes) and a one-line summary."""
    std_path = os.path.join(CORPUS, "fzn", name + ".fzn")
    native_path = os.path.join(CORPUS, "fzn-bamboo", name + ".fzn")
    oracle, olabel = [opts.fzn_gecode], "gecode"
    with open(os.path.join(CORPUS, name + ".mzn")) as f:
        source = f.read()
    if "% cross-check-oracle: reference" in source:
        oracle, olabel = [sys.executable, os.path.join(HERE, "fzn_ref.py"), "--any-order"], "reference"
    m = re.search(r"^% cross-check-max-nodes: (\d+)", source, re.M)
    max_nodes = int(m.group(1)) if m else None
    runs = [(olabel, oracle, std_path), ("std", [opts.fzn_bamboo], std_path)]
    if os.path.exists(native_path):
        runs.append(("native", [opts.fzn_bamboo], native_path))
    results, problems, tmpfiles = {}, [], []
    try:
        for label, exe, path in runs:
            with open(path) as f:
                text = f.read()
            kind, obj = objective_of(text)
            if obj:
                patched = with_objective_output(text, obj)
                if patched != text:
                    fd, tmp = tempfile.mkstemp(suffix=".fzn")
                    with os.fdopen(fd, "w") as f:
                        f.write(patched)
                    tmpfiles.append(tmp)
                    path = tmp
            counted = label == "native" and max_nodes is not None
            out, err, dt = run(exe + ["-a"] + (["-s"] if counted else []) + [path], opts.timeout)
            if err:
                if label == olabel:
                    return [], "SKIP %s: %s %s" % (name, olabel, err)
                problems.append("%s: %s" % (label, err))
                continue
            if counted:
                nodes = re.findall(r"^%%%mzn-stat: nodes=(\d+)", out, re.M)
                if not nodes:
                    problems.append("%s: no nodes statistic" % label)
                elif int(nodes[-1]) > max_nodes:
                    problems.append("%s: %s nodes, at most %d expected" % (label, nodes[-1], max_nodes))
            results[label] = summarise(out, kind, obj) + (dt,)
    finally:
        for tmp in tmpfiles:
            os.unlink(tmp)
    ref = results[olabel]
    ok_status = ("==========", "=====UNSATISFIABLE=====")
    for label, res in results.items():
        status, distinct, count, final = res[:4]
        if status not in ok_status:
            problems.append("%s: status %s" % (label, status))
        if label == olabel:
            continue
        if kind == "satisfy":
            if distinct != ref[1]:
                extra = sorted(distinct - ref[1])[:2]
                missing = sorted(ref[1] - distinct)[:2]
                problems.append("%s: %d distinct solutions, %s %d; not in %s's: %s; missing: %s"
                                % (label, len(distinct), olabel, len(ref[1]), olabel, extra, missing))
        elif final != ref[3] or status != ref[0]:
            problems.append("%s: objective %s (%s), %s %s (%s)" % (label, final, status, olabel, ref[3], ref[0]))
    if kind == "satisfy":
        what = "%d solutions" % len(ref[1])
    else:
        what = "%s %s = %s" % (kind, obj, ref[3]) if ref[0] == "==========" else "no solution"
    times = " ".join("%s %.2fs" % (label, res[4]) for label, res in results.items())
    return problems, "%s: %s (%s)" % (name, what, times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fzn-bamboo", required=True)
    ap.add_argument("--fzn-gecode", default="fzn-gecode")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("names", nargs="*")
    opts = ap.parse_args()
    if not shutil.which(opts.fzn_gecode):
        print("fzn-gecode not found: skipped")
        return 77
    opts.fzn_bamboo = os.path.abspath(opts.fzn_bamboo)
    names = opts.names or sorted(f[:-4] for f in os.listdir(os.path.join(CORPUS, "fzn")) if f.endswith(".fzn"))
    failures = skips = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        for name, (problems, summary) in zip(names, pool.map(lambda n: check(n, opts), names)):
            if summary.startswith("SKIP"):
                skips += 1
                print(summary)
            elif problems:
                failures += 1
                print("FAIL " + summary)
                for p in problems:
                    print("     " + p)
            elif opts.verbose:
                print("ok   " + summary)
    print("%d models: %d failed, %d skipped (the oracle did not finish)" % (len(names), failures, skips))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
