#!/usr/bin/env python3
"""The hybrid's propagations that stayed on the CPU against the CPU path's same propagations.

    smc-gpu-bench --n 2400 --instances 20 --nodes 100 --paths cpu,auto-emulated --csv F.csv
    bench/smc_hybrid_cpu_share.py F.csv

Both paths give the same search, so their propagations pair up by position; for each issue 22
category, the median and total ms of the pairs where the hybrid took the CPU.
"""
import sys, statistics as st, collections
import importlib.util
spec = importlib.util.spec_from_file_location('r', __file__.replace('smc_hybrid_cpu_share.py', 'smc_gpu_report.py')); r = importlib.util.module_from_spec(spec); spec.loader.exec_module(r)
props, _ = r.load(sys.argv[1:])
seq = r.sequences(props)
by = collections.defaultdict(lambda: [[], []])
for key, paths in seq.items():
    a, b = paths['cpu'], paths['auto-emulated']
    if len(a) != len(b): print('length differs', key, len(a), len(b)); continue
    for x, y in zip(a, b):
        if y['took'] != 'cpu': continue
        c = r.category(y)
        by[c][0].append(x['ms']); by[c][1].append(y['ms'])
for c, (a, b) in by.items():
    print(f"{c}: {len(a)} props on cpu in hybrid; cpu median {st.median(a):.4f} sum {sum(a):.2f}; hybrid median {st.median(b):.4f} sum {sum(b):.2f}")
