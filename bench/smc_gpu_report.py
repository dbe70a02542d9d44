#!/usr/bin/env python3
"""Tables and plots of seed 003's experiment from smc-gpu-bench CSV files (bench/smc_device.sh
bench): propagation times by the number of free proposers at the start of the propagation
(all, two or fewer, none, and the rest), by the number of modified variables and by their old
total domain size, for the paths cpu, gpu and auto (the hybrid); and the check that every path
ends in the same root domains and the same first solution.

    bench/smc_gpu_report.py CSV [CSV ...] [--plots DIR] [--prefix NAME] > results.md

Plots (PNG, with --plots) need matplotlib."""
import argparse
import collections
import csv
import lzma
import os
import statistics
import sys

PATHS = ("cpu", "gpu", "auto")
CATEGORIES = ("all free (first propagation)", "1-2 free", "none free", "3-255 free", ">= 256 free")
SEED = {"all free (first propagation)": "162.34 / 72.34", "1-2 free": "0.44 / 8.07 (two free)",
        "none free": "0.61 / 1.36"}


def category(row):
    if row["modified"] == 2 * row["n"] and row["old_domain"] == 2 * row["n"] * row["n"]:  # a fresh node
        return CATEGORIES[0]
    free = row["free"]
    if free == 0:
        return "none free"
    if free <= 2:
        return "1-2 free"
    return "3-255 free" if free < 256 else ">= 256 free"


def load(files):
    props, results = [], []
    for name in files:
        with (lzma.open(name, "rt") if name.endswith(".xz") else open(name)) as f:
            for rec in csv.reader(f):
                if rec[0] == "prop":
                    props.append({"n": int(rec[1]), "instance": int(rec[2]), "path": rec[3], "strength": rec[4],
                                  "phase": rec[5], "took": rec[6], "free": int(rec[7]), "modified": int(rec[8]),
                                  "old_domain": int(rec[9]), "handed": 0, "ms": float(rec[19])})
                elif rec[0] == "result":
                    results.append({"n": int(rec[1]), "instance": int(rec[2]), "path": rec[3], "strength": rec[4],
                                    "post_ms": float(rec[5]), "root_ms": float(rec[6]), "root": rec[7],
                                    "status": rec[8], "solution": rec[9]})
    return props, results


def pct(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def fmt(x):
    return "-" if x != x else ("%.3f" % x if x < 100 else "%.1f" % x)


def sequences(props):
    """(n, strength, instance) -> path -> the propagations in order."""
    seq = collections.defaultdict(lambda: collections.defaultdict(list))
    for p in props:
        seq[(p["n"], p["strength"], p["instance"])][p["path"]].append(p)
    return seq


def report(props, results, out):
    groups = sorted({(p["n"], p["strength"]) for p in props})
    seq = sequences(props)
    for n, strength in groups:
        rows = [p for p in props if p["n"] == n and p["strength"] == strength]
        instances = len({p["instance"] for p in rows})
        out.write("\n### n = %d, %s, %d instances x 2 constraints\n\n" % (n, strength, instances))
        out.write("Median [10th-90th percentile] milliseconds per propagation, write-back into Gecode included.\n\n")
        # cpu-rules (smc-gpu-bench: the CPU path with later propagations through the event rules), when run.
        shown = (("cpu-rules",) if any(p["path"] == "cpu-rules" for p in rows) else ()) + PATHS
        out.write("| free proposers at the start | propagations | " + " | ".join(shown[:-1]) + " | auto (hybrid) | "
                  "auto took the GPU | auto / faster forced | seed 003 serial / GPU (RTX 4090) |\n|---|---:|" +
                  "---:|" * len(shown) + "---:|---:|---|\n")
        for cat in CATEGORIES:
            line = ["| %s" % cat]
            by_path = {path: [p["ms"] for p in rows if p["path"] == path and category(p) == cat] for path in shown}
            count = len(by_path["cpu"])
            if count == 0:
                continue
            line.append("%d" % count)
            for path in shown:
                v = by_path[path]
                line.append("%s [%s-%s]" % (fmt(statistics.median(v)), fmt(pct(v, 0.1)), fmt(pct(v, 0.9))) if v else "-")
            auto_gpu = sum(1 for p in rows if p["path"] == "auto" and category(p) == cat and p["took"] == "gpu")
            line.append("%d of %d" % (auto_gpu, len(by_path["auto"])))
            best = min(statistics.median(by_path["cpu"]), statistics.median(by_path["gpu"])) if by_path["gpu"] else float("nan")
            line.append("%.2f" % (statistics.median(by_path["auto"]) / best) if by_path["auto"] and best == best else "-")
            line.append(SEED.get(cat, "") if n == 2400 else "")
            out.write(" | ".join(line) + " |\n")
        # Paired: every propagation's time on the hybrid against the faster forced path.
        pairs = collections.defaultdict(lambda: [0.0, 0.0, 0])
        for (pn, ps, _), by in seq.items():
            if (pn, ps) != (n, strength) or not all(len(by[p]) == len(by["cpu"]) for p in PATHS):
                continue
            for c, g, a in zip(by["cpu"], by["gpu"], by["auto"]):
                key = category(c)
                pairs[key][0] += a["ms"]
                pairs[key][1] += min(c["ms"], g["ms"])
                pairs[key][2] += 1
        if pairs:
            out.write("\nTotal time of the same propagations: the hybrid against the faster forced path for each one "
                      "(an oracle).\n\n| free proposers | propagations | auto ms | oracle ms | ratio |\n|---|---:|---:|---:|---:|\n")
            for cat in CATEGORIES:
                if cat in pairs:
                    a, o, k = pairs[cat]
                    out.write("| %s | %d | %.1f | %.1f | %.2f |\n" % (cat, k, a, o, a / o if o else float("nan")))
        for field, label, edges in (("modified", "modified variables", [0, 1, 2, 8, 64, 512, 4096, 10 ** 9]),
                                    ("old_domain", "old total domain size of the modified variables",
                                     [0, 1, 10, 100, 1000, 10 ** 4, 10 ** 5, 10 ** 6, 10 ** 12])):
            out.write("\nBy %s (later propagations): median ms.\n\n| %s | propagations | cpu | gpu | auto |\n"
                      "|---|---:|---:|---:|---:|\n" % (label, label))
            for lo, hi in zip(edges, edges[1:]):
                sel = [p for p in rows if category(p) != CATEGORIES[0] and lo <= p[field] < hi]
                if not sel:
                    continue
                cells = []
                for path in PATHS:
                    v = [p["ms"] for p in sel if p["path"] == path]
                    cells.append(fmt(statistics.median(v)) if v else "-")
                out.write("| %d..%d | %d | %s |\n" % (lo, hi - 1, len([p for p in sel if p["path"] == "cpu"]),
                                                     " | ".join(cells)))
    # Identity across paths.
    by_instance = collections.defaultdict(dict)
    for r in results:
        by_instance[(r["n"], r["strength"], r["instance"])][r["path"]] = (r["root"], r["status"], r["solution"])
    same = sum(1 for v in by_instance.values() if len(set(v.values())) == 1)
    out.write("\n**Identical on every path:** %d of %d instances end with the same root domains and the same first "
              "solution (or the same stop) on cpu, gpu and auto.\n" % (same, len(by_instance)))
    return same == len(by_instance)


def plots(props, folder, prefix):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(folder, exist_ok=True)
    colors = {"cpu": "tab:blue", "gpu": "tab:orange", "auto": "tab:green"}
    for n, strength in sorted({(p["n"], p["strength"]) for p in props}):
        rows = [p for p in props if p["n"] == n and p["strength"] == strength]
        cats = [c for c in CATEGORIES if any(category(p) == c for p in rows)]
        fig, ax = plt.subplots(figsize=(10, 5))
        data, pos, cols = [], [], []
        for i, cat in enumerate(cats):
            for j, path in enumerate(PATHS):
                v = [p["ms"] for p in rows if p["path"] == path and category(p) == cat]
                if v:
                    data.append(v)
                    pos.append(i * 4 + j)
                    cols.append(colors[path])
        box = ax.boxplot(data, positions=pos, widths=0.8, patch_artist=True, showfliers=False)
        for patch, c in zip(box["boxes"], cols):
            patch.set_facecolor(c)
        ax.set_xticks([i * 4 + 1 for i in range(len(cats))])
        ax.set_xticklabels(cats)
        ax.set_yscale("log")
        ax.set_ylabel("propagation time (ms, log)")
        ax.set_title("n = %d, %s: propagation time by free proposers (blue cpu, orange gpu, green hybrid)" % (n, strength))
        fig.tight_layout()
        fig.savefig(os.path.join(folder, "%s-%d-%s-free.png" % (prefix, n, strength)), dpi=110)
        plt.close(fig)
        for field, label in (("modified", "modified variables"), ("old_domain", "old total domain size")):
            fig, ax = plt.subplots(figsize=(8, 5))
            for path in PATHS:
                sel = [p for p in rows if p["path"] == path and category(p) != CATEGORIES[0] and p[field] > 0]
                ax.scatter([p[field] for p in sel], [p["ms"] for p in sel], s=6, alpha=0.5, color=colors[path],
                           label=path)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(label)
            ax.set_ylabel("propagation time (ms)")
            ax.legend()
            ax.set_title("n = %d, %s: time against %s" % (n, strength, label))
            fig.tight_layout()
            fig.savefig(os.path.join(folder, "%s-%d-%s-%s.png" % (prefix, n, strength, field.replace("_", "-"))), dpi=110)
            plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--plots")
    ap.add_argument("--prefix", default="smc")
    opts = ap.parse_args()
    props, results = load(opts.csv)
    ok = report(props, results, sys.stdout)
    if opts.plots:
        plots(props, opts.plots, opts.prefix)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
