#!/usr/bin/env python3
"""Justifies the golden files: every tests/fzn/golden/*.expected must be exactly what the
brute-force reference (fzn_ref.py) prints for its .fzn, and, unless the file says
`% oracle-gecode: skip (reason)`, the same solutions in the same order, and the same final
status, as fzn-gecode prints with the same arguments (compared value by value: Gecode prints
the variables sorted by name and sets as `{1, 3}`, and prints no parameters). Bamboo's
natives are unknown to fzn-gecode; a file may rename them to Gecode's own FlatZinc
constraints for the comparison, with a line
    % oracle-gecode-map: bamboo_inverse=inverse_offsets(1,4,3,2) fzn_nvalue=nvalue
(the numbers pick and order the original arguments, 1-based). A file that no brute force
can enumerate says `% oracle-reference: skip (reason)`; its expected output is written by
hand and checked against fzn-gecode only.

    tests/fzn/check_golden.py [--write] [--no-gecode] [FILE.fzn ...]

--write (re)creates the .expected files from the reference (review the diff). Exit 0 when
every file agrees; 77 when fzn-gecode is missing and --no-gecode was not given (nothing
else is then checked)."""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fzn_ref  # noqa: E402
import fzn_solutions  # noqa: E402


def header_args(path):
    with open(path) as f:
        first = f.readline()
    if not first.startswith("% args:"):
        raise SystemExit("%s: the first line must be '%% args: ...'" % path)
    return first[len("% args:"):].split()


def reference_skip(path):
    with open(path) as f:
        return any(line.startswith("% oracle-reference: skip") for line in f)


def gecode_skip(path):
    with open(path) as f:
        for line in f:
            if line.startswith("% oracle-gecode: skip"):
                return True
    return False


def gecode_map(path):
    """{native: (gecode name, argument order or None)} from the file's map lines."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("% oracle-gecode-map:"):
                for item in line.split(":", 1)[1].split():
                    src, dst = item.split("=")
                    m = re.fullmatch(r"(\w+)(?:\(([\d,]+)\))?", dst)
                    order = [int(k) - 1 for k in m.group(2).split(",")] if m.group(2) else None
                    out[src] = (m.group(1), order)
    return out


def split_args(text):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def renamed_for_gecode(path, mapping):
    """The file's text with the mapped constraints rewritten (one constraint per line)."""
    out = []
    with open(path) as f:
        for line in f:
            m = re.match(r"constraint (\w+)\((.*)\)(\s*(?:::.*)?;)\s*$", line)
            if m and m.group(1) in mapping:
                name, order = mapping[m.group(1)]
                args = split_args(m.group(2))
                if order is not None:
                    args = [args[k] for k in order]
                line = "constraint %s(%s)%s\n" % (name, ", ".join(args), m.group(3))
            out.append(line)
    return "".join(out)


def reference(path, args):
    with open(path) as f:
        text = f.read()
    all_solutions = "-a" in args
    limit = int(args[args.index("-n") + 1]) if "-n" in args else 0
    return fzn_ref.run(text, all_solutions, limit, intermediate="-i" in args)


def compare_gecode(path, args, expected):
    # fzn-gecode 6.2 has no -i; its -a is the same request on an optimisation (every
    # improving solution), and the golden files use -i on optimisations only.
    gargs = ["-time" if a == "-t" else "-a" if a == "-i" else a for a in args if a != "-v"]
    mapping = gecode_map(path)
    with tempfile.NamedTemporaryFile("w", suffix=".fzn", delete=False) as tmp:
        tmp.write(renamed_for_gecode(path, mapping))
    try:
        r = subprocess.run(["fzn-gecode"] + gargs + [tmp.name], capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(tmp.name)
    if r.returncode != 0:
        return "fzn-gecode exit %d: %s" % (r.returncode, r.stderr.strip()[:300])
    gsols, gstatus = fzn_solutions.parse(r.stdout)
    esols, estatus = fzn_solutions.parse(expected)
    if gstatus != estatus:
        return "status: gecode %s, expected %s" % (gstatus, estatus)
    if len(gsols) != len(esols):
        return "gecode printed %d solutions, expected %d" % (len(gsols), len(esols))
    for k, (g, e) in enumerate(zip(gsols, esols)):
        names = set(g)
        if not names <= set(e):
            return "solution %d: gecode prints %s that the expected output lacks" % (k + 1, sorted(names - set(e)))
        cg = fzn_solutions.canonical_solution(g)
        ce = fzn_solutions.canonical_solution(e, names)
        if cg != ce:
            return "solution %d differs:\n  gecode   %s\n  expected %s" % (k + 1, cg, ce)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--no-gecode", action="store_true")
    ap.add_argument("files", nargs="*")
    opts = ap.parse_args()
    use_gecode = not opts.no_gecode
    if use_gecode and not shutil.which("fzn-gecode"):
        print("fzn-gecode not found: skipped")
        return 77
    files = opts.files or sorted(glob.glob(os.path.join(HERE, "golden", "*.fzn")))
    failures = skipped = 0
    for path in files:
        name = os.path.basename(path)
        args = header_args(path)
        exp_path = path[:-4] + ".expected"
        ref = None
        if not reference_skip(path):
            try:
                ref = reference(path, args)
            except fzn_ref.RefError as e:
                print("FAIL %s: reference: %s" % (name, e))
                failures += 1
                continue
            if opts.write:
                with open(exp_path, "w") as f:
                    f.write(ref)
        with open(exp_path) as f:
            expected = f.read()
        if ref is not None and ref != expected:
            print("FAIL %s: the reference prints something else than %s" % (name, os.path.basename(exp_path)))
            failures += 1
            continue
        if use_gecode and not gecode_skip(path):
            why = compare_gecode(path, args, expected)
            if why:
                print("FAIL %s: %s" % (name, why))
                failures += 1
                continue
        elif use_gecode:
            skipped += 1
    print("%d files, %d failures, %d without a Gecode comparison" % (len(files), failures, skipped))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
