#!/usr/bin/env python3
"""Seed 000's Figure 9 form: bamboo on the GPU against the best CPU algorithm, per workload and n.

Runs `bamboo-smp bench` once over the CPU algorithms and bamboo (one instance per size and
workload, generated once, every algorithm on the same one; bench checks each result against the
first), then prints, per (n, workload), the best CPU algorithm by total time (every phase,
initialisation included, generation not) and by solve phase, bamboo's times and the speed-ups.

  bench/figure9.py [--bin build/tools/bamboo-smp] [--n 20000,40000] [--kinds solo,congested,random]
                   [--runs 3] [--max-seconds 60] [--csv FILE]
"""
import argparse
import csv
import subprocess
import sys
import tempfile

CPU = ["gs-seq", "mw-seq", "la-seq", "gs-par", "mw-par"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="build/tools/bamboo-smp")
    ap.add_argument("--n", default="20000,40000")
    ap.add_argument("--kinds", default="solo,congested,random")
    ap.add_argument("--runs", default="3")
    ap.add_argument("--max-seconds", default="60")
    ap.add_argument("--csv", help="keep bench's rows here")
    a = ap.parse_args()
    rows_file = a.csv or tempfile.NamedTemporaryFile(suffix=".csv", delete=False).name
    cmd = [a.bin, "bench", "--algos", ",".join(CPU + ["bamboo"]), "--kinds", a.kinds, "--n", a.n, "--runs", a.runs,
           "--max-seconds", a.max_seconds, "--csv", rows_file]
    print("command:", " ".join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit(f"figure9: bamboo-smp bench exited {done.returncode}")
    table = {}
    with open(rows_file) as f:
        for r in csv.DictReader(f):
            try:
                times = (float(r["solve_ms_median"]), float(r["total_ms_median"]))
            except ValueError:  # stopped or skipped
                continue
            table.setdefault((int(r["n"]), r["workload"]), {})[r["algorithm"]] = (times, r["path"])
    print("| n | workload | best CPU (total) | CPU total ms | bamboo total ms | speed-up | best CPU (solve) |"
          " CPU solve ms | bamboo solve ms | speed-up | bamboo's path |")
    print("|---:|---|---|---:|---:|---:|---|---:|---:|---:|---|")
    for (n, kind), algos in sorted(table.items()):
        cpu = {k: v for k, v in algos.items() if k in CPU}
        if "bamboo" not in algos or not cpu:
            continue
        (b_solve, b_total), path = algos["bamboo"]
        bt = min(cpu, key=lambda k: cpu[k][0][1])
        bs = min(cpu, key=lambda k: cpu[k][0][0])
        print(f"| {n} | {kind} | {bt} | {cpu[bt][0][1]:.1f} | {b_total:.1f} | {cpu[bt][0][1] / b_total:.1f}x | {bs} |"
              f" {cpu[bs][0][0]:.1f} | {b_solve:.1f} | {cpu[bs][0][0] / b_solve:.1f}x | {path} |")


if __name__ == "__main__":
    main()
