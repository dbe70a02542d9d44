#!/usr/bin/env python3
"""Writes a random Stable Marriage instance as MiniZinc data for the models in this folder.

    models/gen_smp.py N [--seed S] [--base 0|1] [-o FILE]

Every man's and every woman's list is a uniformly random permutation (Python's
random.Random(S), so a seed always gives the same instance). The output sets n, pm and pw;
with --base 0 (the default, as seed 003's Figure 1) ids and ranks are 0..n-1, with
--base 1 they are 1..n.
"""
import argparse
import random
import sys


def random_instance(n, seed):
    """(pm, pw): n lists each, 0-based ids, seeded."""
    rng = random.Random(seed)
    pm = [rng.sample(range(n), n) for _ in range(n)]
    pw = [rng.sample(range(n), n) for _ in range(n)]
    return pm, pw


def dzn_matrix(rows, base):
    body = "\n".join("  " + ", ".join(str(v + base) for v in r) for r in rows)
    return "[|\n" + body.replace("\n", "\n|") + "\n|]"


def to_dzn(pm, pw, base):
    return "n = %d;\npm = %s;\npw = %s;\n" % (len(pm), dzn_matrix(pm, base), dzn_matrix(pw, base))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--base", type=int, choices=(0, 1), default=0)
    ap.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("n must be at least 1")
    pm, pw = random_instance(args.n, args.seed)
    text = "%% random instance: n = %d, seed %d, base %d (models/gen_smp.py)\n" % (
        args.n, args.seed, args.base) + to_dzn(pm, pw, args.base)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
