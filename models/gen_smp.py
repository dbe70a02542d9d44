#!/usr/bin/env python3
"""Writes a random Stable Marriage instance as MiniZinc data for the models in this folder.

    models/gen_smp.py N [--seed S] [--base 0|1] [--family random|latin|irving-leather]
                      [--group G] [-o FILE]

By default every man's and every woman's list is a uniformly random permutation (Python's
random.Random(S), so a seed always gives the same instance). --family latin and
irving-leather write the group-table instances with many stable matchings that
`bamboo-smp gen latin|irving-leather` writes (docs/generators.md, the same lists): man i's
k-th choice is i + k and woman j's is j - (n - 1 - k), digit-wise in radix G (latin, default
G = n: the cyclic square, n stable matchings) or 2 (irving-leather, n = 2^k). The output sets n, pm and pw;
with --base 0 (the default, as Figure 1 of [Travasci 2025]) ids and ranks are 0..n-1, with
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


def radices(n, group):
    """Latin's mixed radix: group as often as it divides n, then the rest."""
    out, rest = [], n
    if 1 < group < n:
        while rest > 1 and rest % group == 0:
            out.append(group)
            rest //= group
    if rest > 1 or not out:
        out.append(rest)
    return out


def combine(a, b, sign, rs):
    """a + sign * b, digit-wise (least significant digit first)."""
    out, scale = 0, 1
    for r in rs:
        out += ((a % r + sign * (b % r)) % r) * scale
        a, b, scale = a // r, b // r, scale * r
    return out


def family_instance(n, family, group):
    """(pm, pw) of latin (radix group) or irving-leather (radix 2, n = 2^k)."""
    rs = radices(n, 2 if family == "irving-leather" else group)
    pm = [[combine(i, k, 1, rs) for k in range(n)] for i in range(n)]
    pw = [[combine(j, n - 1 - k, -1, rs) for k in range(n)] for j in range(n)]
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
    ap.add_argument("--family", choices=("random", "latin", "irving-leather"), default="random")
    ap.add_argument("--group", type=int, default=0, help="latin's radix (default n)")
    ap.add_argument("-o", "--output", help="file to write (default: standard output)")
    args = ap.parse_args()
    if args.n < 1:
        ap.error("n must be at least 1")
    if args.family == "irving-leather" and args.n & (args.n - 1):
        ap.error("irving-leather needs n = 2^k")
    if not 0 <= args.group <= args.n:
        ap.error("--group must be in 1..n")
    if args.family == "random":
        pm, pw = random_instance(args.n, args.seed)
        what = "random instance: n = %d, seed %d" % (args.n, args.seed)
    else:
        pm, pw = family_instance(args.n, args.family, args.group or args.n)
        what = "%s instance: n = %d, group %d" % (args.family, args.n, args.group or args.n)
    text = "%% %s, base %d (models/gen_smp.py)\n" % (what, args.base) + to_dzn(pm, pw, args.base)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
