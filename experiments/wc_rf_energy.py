#!/usr/bin/env python3
"""Register-file energy of Warped-Compression as seed 001 Figure 9 counts it.

    wc_rf_energy.py DIR [--by AXIS] [--paper X=Y ...] [--title T] [--out PNG]

DIR is the folder of a `warpreg experiment wc-*` run (its results.csv). The seed's
register-file energy is banks + wires + compression/decompression; the operand
collectors (blocks.collectors) are outside it, and they dominate energy_pj.total, so
results.csv's norm.energy_pj.total cannot stand for it. Per wc point:

    dynamic = blocks.regfile.dynamic_pj + blocks.crossbar.dynamic_pj
    leakage = blocks.regfile.leakage_pj (the banks' cells, by the power state wc's bank
              gating gives them) + the leakage of wc and its blocks (the codec units)
    codec   = the dynamic energy of wc and its blocks: blocks.wc (range indicators,
              dummy-MOV wires), blocks.wc.bdi_compressor, blocks.wc.bdi_decompressor

each divided by the same point's baseline (its `baseline` column) register-file
energy. Prints the mean over workloads per value of AXIS (default: all rows) and,
with --out, draws Figure 9's stacked bars (baseline vs. wc) per AXIS value with the
paper's totals (--paper X=Y) beside them.
"""
import argparse
import csv
import os
import sys


def number(row, column):
    value = row.get(column, "")
    return float(value) if value not in ("", None) else 0.0


def wc_blocks(row, field):
    """Sum of `field` over blocks.wc and the blocks inside it (blocks.wc.NAME)."""
    return sum(number(row, column) for column in row
               if column.startswith("blocks.wc.") and column.endswith("." + field)
               and column.count(".") <= 3)


def parts(row):
    dynamic = number(row, "blocks.regfile.dynamic_pj") + number(row, "blocks.crossbar.dynamic_pj")
    leakage = number(row, "blocks.regfile.leakage_pj") + wc_blocks(row, "leakage_pj")
    codec = wc_blocks(row, "dynamic_pj")
    return dynamic, leakage, codec


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="experiment folder holding results.csv")
    parser.add_argument("--by", help="axis column to group by (e.g. wc.unit_energy_scale)")
    parser.add_argument("--paper", action="append", default=[],
                        help="X=Y: the paper's normalised register-file energy at axis value X")
    parser.add_argument("--title", default="Register-file energy (seed 001 Fig. 9)")
    parser.add_argument("--out", help="PNG to draw")
    args = parser.parse_args()

    with open(os.path.join(args.dir, "results.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    by_point = {r["point"]: r for r in rows}
    groups = {}  # axis value -> list of (workload, baseline parts, wc parts)
    for r in rows:
        if r.get("preset") != "wc" or r.get("status") != "ok":
            continue
        base = by_point.get(r["baseline"])
        if base is None or base is r:
            sys.exit(f"wc_rf_energy.py: point {r['point']} has no baseline point")
        key = r[args.by] if args.by else "all"
        groups.setdefault(key, []).append((r["workload"], parts(base), parts(r)))
    if not groups:
        sys.exit(f"wc_rf_energy.py: no finished wc points in {args.dir}/results.csv")

    print(f"{args.by or 'rows':>24}  n  dynamic  leakage  codec  total  (baseline = 1; "
          "baseline dynamic share)")
    means = {}
    for key, items in groups.items():
        sums = [0.0, 0.0, 0.0, 0.0, 0.0]
        for _, b, w in items:
            total_b = sum(b)
            sums[0] += w[0] / total_b
            sums[1] += w[1] / total_b
            sums[2] += w[2] / total_b
            sums[3] += sum(w) / total_b
            sums[4] += b[0] / total_b
        m = [s / len(items) for s in sums]
        means[key] = m
        print(f"{key:>24} {len(items):2d}  {m[0]:.3f}    {m[1]:.3f}    {m[2]:.3f}  {m[3]:.3f}  "
              f"({m[4]:.3f})")
    # Relative to the baseline's own parts (the paper's "dynamic -35 %, leakage -10 %").
    for key, items in groups.items():
        dyn = sum(w[0] / b[0] for _, b, w in items) / len(items)
        leak = sum(w[1] / b[1] for _, b, w in items if b[1]) / len(items)
        print(f"{key:>24}  banks+wires dynamic {100 * (dyn - 1):+.1f} %, "
              f"leakage {100 * (leak - 1):+.1f} % of the baseline's own")
    if len(groups) == 1:
        items = next(iter(groups.values()))
        print("per workload: total (dynamic + leakage + codec)")
        for workload, b, w in items:
            t = sum(b)
            print(f"  {workload:>20}  {sum(w) / t:.3f} = {w[0] / t:.3f} + {w[1] / t:.3f} + "
                  f"{w[2] / t:.3f}")

    if not args.out:
        return
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.family": "serif", "font.size": 9, "savefig.bbox": "tight"})
    paper = dict(p.split("=", 1) for p in args.paper)
    keys = list(groups)
    if len(keys) == 1:
        # One bar pair per workload (Figure 9's layout) plus the mean.
        items = next(iter(groups.values()))
        labels = [w for w, _, _ in items] + ["mean"]
        base = [[x / sum(b) for x in b] for _, b, _ in items]
        ours = [[x / sum(b) for x in w] for _, b, w in items]
        base.append([sum(v[i] for v in base) / len(items) for i in range(3)])
        ours.append([sum(v[i] for v in ours) / len(items) for i in range(3)])
        paper_at = {len(labels) - 1: float(next(iter(paper.values())))} if paper else {}
    else:
        labels = keys
        base, ours, paper_at = [], [], {}
        for i, k in enumerate(keys):
            items = groups[k]
            base.append([sum(b[j] / sum(b) for _, b, _ in items) / len(items) for j in range(3)])
            ours.append([sum(w[j] / sum(b) for _, b, w in items) / len(items) for j in range(3)])
            if k in paper:
                paper_at[i] = float(paper[k])
    fig, ax = plt.subplots(figsize=(max(5.0, 0.42 * len(labels) + 1.5), 3.0))
    width = 0.27
    colours = {"dynamic": "#4c72b0", "leakage": "#dd8452", "codec": "#55a868"}
    for i in range(len(labels)):
        for offset, stack, edge in ((-width, base[i], "black"), (0.0, ours[i], "black")):
            bottom = 0.0
            for name, value in zip(("dynamic", "leakage", "codec"), stack):
                ax.bar(i + offset, value, width, bottom=bottom, color=colours[name],
                       edgecolor=edge, linewidth=0.5, hatch="" if offset < 0 else "//",
                       label=name if i == 0 and offset == 0.0 else None)
                bottom += value
        if i in paper_at:
            ax.bar(i + width, paper_at[i], width, color="white", edgecolor="#555555",
                   hatch="xx", linewidth=0.6,
                   label="seed 001 (total)" if i == min(paper_at) else None)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=60 if len(labels) > 6 else 0, ha="right"
                       if len(labels) > 6 else "center")
    ax.set_ylabel("register-file energy / baseline")
    ax.set_xlabel(args.by or "workload (left: wc-baseline, middle: wc)")
    ax.set_title(args.title)
    ax.grid(axis="y", linestyle=":", color="#b0b0b0")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, fontsize=8)
    fig.savefig(args.out, dpi=110)
    print(args.out)


if __name__ == "__main__":
    main()
