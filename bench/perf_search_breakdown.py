#!/usr/bin/env python3
"""Where the search's propagations spend their time: a `perf script` dump (perf record
--call-graph dwarf) of smc-gpu-bench or smc-bench, reduced to the samples taken under
bb_search_next (the first propagation, at the root, is left out) and grouped into the
search's phases by the innermost frame that names one.

    perf record -F 4000 --call-graph dwarf,16384 -o perf.data \\
        build/bench/smc-gpu-bench --n 2400 --instances 4 --nodes 100 --paths cpu --csv /dev/null
    perf script -i perf.data > perf.txt
    bench/perf_search_breakdown.py perf.txt > breakdown.md
"""
import collections
import re
import sys

# (phase, frame patterns), the first phase whose pattern the innermost matching frame has
PHASES = [
    ("host calls: bounds read from Gecode (dom_min/dom_max)", ("dom_min", "dom_max")),
    ("write-back: values removed in Gecode (nq, minus_v, sort)",
     ("dom_remove", "nq_full", "minus", "qsort", "msort", "compare_int")),
    ("write-back: bounds set in Gecode (lq/gq/eq)", ("dom_lower_max", "dom_raise_min", "dom_assign", "lq_full", "gq_full", "eq_full")),
    ("cascade: channel (pairs to remove)", ("channel",)),
    ("cascade: stability (cap_partner)", ("cap_partner", "stability")),
    ("event bookkeeping: advisors, describe, scans", ("advise", "bb_smc_describe", "scan_unknown", "bb_smc_note", "dom_values", "in_full")),
    ("per-node state copy (clone, propagator copy, dispose)",
     ("StableMatching::StableMatching", "_clone", "perform_copy", "Space::Space", "dispose", "~Space", "bb_space::copy")),
    ("cascade: examine, marriage, driver", ("examine", "marriage", "flush", "bb_smc_propagate_on")),
]


def frames(block):
    for line in block.strip().split("\n")[1:]:
        parts = line.split(None, 1)
        if len(parts) == 2:
            yield re.sub(r"\+0x[0-9a-f]+", "", parts[1])


def main():
    text = open(sys.argv[1]).read()
    phase, total = collections.Counter(), 0
    for block in text.split("\n\n"):
        fr = list(frames(block))
        if not any("bb_search_next" in f for f in fr):
            continue
        total += 1
        for f in fr:
            hit = next((name for name, pats in PHASES if any(p in f for p in pats)), None)
            if hit:
                phase[hit] += 1
                break
        else:
            phase["other (search, Gecode's kernel)"] += 1
    print("%d samples under bb_search_next\n" % total)
    print("| phase | share of the search's samples |")
    print("|---|---:|")
    for name, count in phase.most_common():
        print("| %s | %.1f %% |" % (name, 100.0 * count / max(total, 1)))


if __name__ == "__main__":
    main()
