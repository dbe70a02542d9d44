#!/usr/bin/env python3
"""The hybrid's propagations that stayed on the CPU against the CPU path's same propagations.

    smc-gpu-bench --n 2400 --instances 20 --nodes 100 --paths cpu,auto-emulated --csv F.csv
    bench/smc_hybrid_cpu_share.py F.csv                  # the hybrid is auto-emulated
    HYBRID=auto bench/smc_hybrid_cpu_share.py F.csv ...  # a GPU host's --paths cpu,auto

Both paths give the same search, so their propagations pair up by position; for each
free-proposer category, the median and total ms of the pairs where the hybrid took the CPU,
split by what the propagation before it took: right after a parallel run (the engine wrote
the domains and walked its own state) or after another CPU propagation.
"""
import collections
import importlib.util
import os
import statistics as st
import sys

spec = importlib.util.spec_from_file_location('r', __file__.replace('smc_hybrid_cpu_share.py', 'smc_gpu_report.py'))
r = importlib.util.module_from_spec(spec)
spec.loader.exec_module(r)
hybrid = os.environ.get('HYBRID', 'auto-emulated')
props, _ = r.load(sys.argv[1:])
seq = r.sequences(props)
by = collections.defaultdict(lambda: [[], []])
for key, paths in seq.items():
    a, b = paths['cpu'], paths[hybrid]
    if len(a) != len(b):
        print('length differs', key, len(a), len(b))
        continue
    before = 'first'
    for x, y in zip(a, b):
        if y['took'] == 'cpu' and y['phase'] == 'search':
            c = r.category(y)
            for split in (c + ', all', c + ', ' + before):
                by[split][0].append(x['ms'])
                by[split][1].append(y['ms'])
        before = 'after the engine' if y['took'] != 'cpu' else 'after a cpu one'
print('| category, what ran before | pairs | cpu median ms | hybrid median ms | cpu total | hybrid total | hybrid / cpu total |')
print('|---|---:|---:|---:|---:|---:|---:|')
for c in sorted(by):
    a, b = by[c]
    print(f'| {c} | {len(a)} | {st.median(a):.4f} | {st.median(b):.4f} | {sum(a):.1f} | {sum(b):.1f} | {sum(b) / sum(a):.2f} |')
