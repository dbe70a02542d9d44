#!/usr/bin/env python3
"""The hybrid against the faster forced path, propagation by propagation, when the hybrid ran
in a CSV of its own (smc-gpu-bench --paths auto) beside one with the forced paths (--paths cpu,gpu
or cpu,gpu,auto) of the same instances, seed and node limit: a calibration sweep, say.

    bench/smc_paired.py FORCED.csv [AUTO.csv ...]

Per category of free proposers (as bench/smc_gpu_report.py counts them): the hybrid's median and
90th percentile (ms per propagation, write-back included) and its total time over the oracle's
(the faster of cpu and gpu for each propagation). Without AUTO files, FORCED's own auto path is
used. The propagations of the paths must line up one to one (every path makes the same search),
which is checked."""
import collections
import csv
import lzma
import statistics
import sys

CATEGORIES = ("all free", "1-2 free", "3-255 free", ">= 256 free")


def load(name):
    seq = collections.defaultdict(list)
    with (lzma.open(name, "rt") if name.endswith(".xz") else open(name)) as f:
        for r in csv.reader(f):
            if r[0] == "prop":
                seq[(r[2], r[3])].append(r)
    return seq


def category(r):
    n = int(r[1])
    if int(r[8]) == 2 * n and int(r[9]) == 2 * n * n:
        return "all free"
    free = int(r[7])
    if free == 0:
        return "none free"
    return "1-2 free" if free <= 2 else "3-255 free" if free < 256 else ">= 256 free"


def pct(values, q):
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def paired(forced, auto):
    out = {}
    for cat in CATEGORIES:
        times, oracle = [], []
        for inst in sorted({k[0] for k in forced}, key=int):
            cpu, gpu, hyb = forced[(inst, "cpu")], forced[(inst, "gpu")], auto[(inst, "auto")]
            if not len(cpu) == len(gpu) == len(hyb):
                sys.exit("instance %s: the paths made different searches" % inst)
            for c, g, a in zip(cpu, gpu, hyb):
                if c[7] != a[7] or c[8] != a[8]:
                    sys.exit("instance %s: the propagations do not line up" % inst)
                if category(c) == cat:
                    times.append(float(a[19]))
                    oracle.append(min(float(c[19]), float(g[19])))
        if times:
            out[cat] = (len(times), statistics.median(times), pct(times, 0.9), sum(times) / sum(oracle))
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    forced = load(sys.argv[1])
    print("| hybrid from | " + " | ".join("%s: median [p90] ms, ratio" % c for c in CATEGORIES) + " |")
    print("|---|" + "---|" * len(CATEGORIES))
    for name in sys.argv[2:] or [sys.argv[1]]:
        t = paired(forced, load(name))
        print("| %s | " % name + " | ".join("%.3f [%.2f], %.2f" % t[c][1:] if c in t else "-" for c in CATEGORIES) + " |")


if __name__ == "__main__":
    main()
