#!/usr/bin/env python3
"""Summarises bench/research.sh's table rows (from bench/research_device.sh or research.sh).

    bench/research_report.py ROWS.md [LIMIT]

Prints, per family and objective (a model and its `_bound` twin together):
  1. the largest n each solver proved optimal, and at each n >= 256 where some bamboo run
     proved it, Gecode's wall time over bamboo's fastest (">" where Gecode did not prove it
     within LIMIT: then LIMIT stands for its time);
  2. nodes per second of solveTime for every solver at each n, timeouts included (a timeout's
     rate is that of the nodes it reached).
"""
import sys
from collections import defaultdict

rows = []
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.strip().strip('|').split('|')]
    if len(cells) != 10 or not cells[1].isdigit():
        continue
    fam, n, model, solver, result, wall, solve, nodes, rate, obj = cells
    rows.append(dict(fam=fam, n=int(n), model=model, solver=solver, result=result,
                     wall=float(wall) if wall else None, rate=rate))
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0

def column(model, solver):
    if solver == 'gecode':
        return 'gecode'
    return solver + ('+bound' if model.endswith('_bound') else '')

COLUMNS = ['cpu', 'gpu', 'auto', 'cpu+bound', 'gpu+bound', 'auto+bound', 'gecode']
by = defaultdict(dict)  # (fam, objective) -> {(column, n): row}
for r in rows:
    objective = r['model'][:-len('_bound')] if r['model'].endswith('_bound') else r['model']
    by[(r['fam'], objective)][(column(r['model'], r['solver']), r['n'])] = r

def proved(r):
    return r is not None and r['result'] in ('optimal', 'unsat')

print('## Largest n proved optimal, and Gecode / bamboo at n >= 256\n')
print('| family | objective | ' + ' | '.join(COLUMNS) + ' | Gecode / bamboo\'s fastest, wall s, at each n >= 256 bamboo proved |')
print('|---|---|' + '---:|' * len(COLUMNS) + '---|')
for (fam, objective), cells in sorted(by.items()):
    sizes = sorted({n for (_, n) in cells})
    largest = []
    for col in COLUMNS:
        ok = [n for n in sizes if proved(cells.get((col, n)))]
        largest.append(str(max(ok)) if ok else 'none')
    ratios = []
    for n in sizes:
        if n < 256:
            continue
        best = min(((cells[(c, n)]['wall'], c) for c in COLUMNS[:-1] if proved(cells.get((c, n)))), default=None)
        if best is None:
            continue
        g = cells.get(('gecode', n))
        if proved(g):
            ratios.append(f'{n}: {g["wall"]:.2f} / {best[0]:.2f} = {g["wall"] / best[0]:.1f}x ({best[1]})')
        else:
            ratios.append(f'{n}: > {limit:.0f} / {best[0]:.2f} = > {limit / best[0]:.1f}x ({best[1]})')
    print(f'| {fam} | {objective} | ' + ' | '.join(largest) + ' | ' + ('; '.join(ratios) or '-') + ' |')

print('\n## Nodes per second of solveTime (t: the run timed out; its rate over the nodes it reached)\n')
print('| family | objective | n | ' + ' | '.join(COLUMNS) + ' |')
print('|---|---|---:|' + '---:|' * len(COLUMNS))
for (fam, objective), cells in sorted(by.items()):
    for n in sorted({n for (_, n) in cells}):
        out = []
        for col in COLUMNS:
            r = cells.get((col, n))
            if r is None or r['result'] == 'skip' or r['rate'] in ('', '-'):
                out.append('')
            else:
                out.append(r['rate'] + ('' if proved(r) else ' t'))
        if any(out):
            print(f'| {fam} | {objective} | {n} | ' + ' | '.join(out) + ' |')
