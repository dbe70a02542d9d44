#!/usr/bin/env python3
"""Converts an instance of the MiniZinc Challenge's `hrc` problem (minizinc-benchmarks,
hrc/exp*.dzn: Manlove, McBride & Trimble's generator) into stable_matching_hrc's dzn layout
(models/hrc_*.mzn) or bamboo-smp's HRC text format (stable_matching_hrc_file).

The Challenge numbers residents 1..nres, couple i being residents 2i - 1 and 2i whose joint
list is the parallel rows rpref[2i - 1, k], rpref[2i, k]; singles follow. stable_matching_hrc
numbers them the same way (base 1), so the conversion only splits the rows.

    bench/hrc_challenge.py exp1-0-10.dzn --dzn out.dzn
    bench/hrc_challenge.py exp1-0-10.dzn --hrc out.hrc
"""
import argparse
import re
import sys


def parse(text):
    """name -> int or list of rows (a 2d array) or list (a 1d array)."""
    out = {}
    text = re.sub(r"%[^\n]*", "", text)
    for name, value in re.findall(r"(\w+)\s*=\s*([^;]*);", text):
        value = value.strip()
        if value.startswith("[|"):
            rows = [r for r in value[2:].rstrip("]").rstrip("|").split("|")]
            out[name] = [[int(x) for x in r.replace(",", " ").split()] for r in rows if r.strip()]
        elif value.startswith("["):
            out[name] = [int(x) for x in value[1:-1].replace(",", " ").split()]
        else:
            out[name] = int(value)
    return out


def convert(d):
    """(singles' lists, couples' pair lists, hospitals' lists, capacities), all 0-based ids."""
    nres, ncoup, nhosp = d["nres"], d["ncoup"], d["nhosp"]
    rpref, rlen = d["rpref"], d["rpref_len"]
    singles = [[h - 1 for h in rpref[r][:rlen[r]]] for r in range(2 * ncoup, nres)]
    couples = [list(zip([h - 1 for h in rpref[2 * c][:rlen[2 * c]]], [h - 1 for h in rpref[2 * c + 1][:rlen[2 * c]]]))
               for c in range(ncoup)]
    hosp = [[r - 1 for r in d["hpref"][h][:d["hpref_len"][h]]] for h in range(nhosp)]
    return singles, couples, hosp, list(d["hosp_cap"])


def dzn(singles, couples, hosp, cap):
    def matrix(rows):
        w = max([len(r) for r in rows] + [1])
        if not rows:
            return "array2d(1..0, 1..1, [])"
        return "[|" + "|".join(", ".join(str(x + 1) for x in r + [0] * (w - len(r))) for r in rows) + "|]"
    return "\n".join([
        "nS = %d;" % len(singles), "nC = %d;" % len(couples), "nH = %d;" % len(hosp),
        "rp = %s;" % matrix(singles), "rp_len = %s;" % [len(r) for r in singles],
        "cp1 = %s;" % matrix([[p[0] for p in c] for c in couples]),
        "cp2 = %s;" % matrix([[p[1] for p in c] for c in couples]),
        "cp_len = %s;" % [len(c) for c in couples],
        "hp = %s;" % matrix(hosp), "hp_len = %s;" % [len(r) for r in hosp],
        "capacity = %s;" % cap]) + "\n"


def hrc_text(singles, couples, hosp, cap):
    nc = len(couples)
    lines = ["hrc %d %d %d" % (len(singles) + 2 * nc, len(hosp), nc)]
    for c, pairs in enumerate(couples):
        lines.append("%d %d: %s" % (2 * c, 2 * c + 1, " ".join("%d %d" % p for p in pairs)))
    lines += ["-"] * (2 * nc) + [" ".join(map(str, s)) for s in singles]
    lines += ["%d: %s" % (cap[h], " ".join(map(str, hosp[h]))) for h in range(len(hosp))]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("challenge_dzn")
    ap.add_argument("--dzn")
    ap.add_argument("--hrc")
    a = ap.parse_args()
    with open(a.challenge_dzn) as f:
        parts = convert(parse(f.read()))
    if a.dzn:
        with open(a.dzn, "w") as f:
            f.write(dzn(*parts))
    if a.hrc:
        with open(a.hrc, "w") as f:
            f.write(hrc_text(*parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
