#!/usr/bin/env python3
"""Tables from smc-latency-bench runs: for each decision and path, the smallest
time over every run given (a run's min over its --repeat clones), so that drift of a shared
machine counts as little as it can; the paths' fingerprints of the resulting domains must
agree, decision by decision.

    bench/smc_latency_report.py run1.csv run2.csv ... > table.md"""
import collections
import statistics
import sys


def main():
    best = collections.defaultdict(dict)  # decision -> path -> ms
    prints = collections.defaultdict(set)
    paths = []
    for name in sys.argv[1:]:
        for line in open(name):
            f = line.strip().split(",")
            if f[0] != "decision":
                continue
            path, key, ms = f[1], int(f[2]), float(f[7])
            if path not in paths:
                paths.append(path)
            best[key][path] = min(ms, best[key].get(path, ms))
            prints[key].add((f[8], f[9]))
    keys = sorted(k for k in best if all(p in best[k] for p in paths))
    differ = [k for k in keys if len(prints[k]) != 1]
    print("| decision | " + " | ".join(paths) + " |")
    print("|---:|" + "---:|" * len(paths))
    for k in keys:
        print("| %d | " % k + " | ".join("%.4f" % best[k][p] for p in paths) + " |")
    print()
    print("| summary | " + " | ".join(paths) + " |")
    print("|---|" + "---:|" * len(paths))
    print("| decisions | " + " | ".join(str(len(keys)) for _ in paths) + " |")
    for label, pick in (("median ms", statistics.median), ("90th percentile ms", lambda v: sorted(v)[int(0.9 * (len(v) - 1))]),
                        ("sum ms", sum)):
        print("| %s | " % label + " | ".join("%.4f" % pick([best[k][p] for k in keys]) for p in paths) + " |")
    print()
    print("Identical domains on every path: %d of %d decisions%s." %
          (len(keys) - len(differ), len(keys), "" if not differ else " (differ: %s)" % differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
