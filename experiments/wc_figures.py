#!/usr/bin/env python3
"""Per-benchmark figures of Warped-Compression, wide enough for 32 workloads.

    wc_figures.py DIR --out FOLDER

DIR is a `warpreg experiment wc-benchmarks` folder. Draws, from its results.csv, the
seed 001 figures that have one bar (group) per benchmark: 2 (similarity bins), 5
(<base,delta> choices), 8 (compression ratio), 10 (gated cycles per bank position),
11 (dummy MOVs), 12 (compressed registers) and 13 (execution time), each with our
mean over workloads and the paper's average beside it where the paper gives one.
(`scripts/plot_results.py` draws the same data at a fixed 5 x 3 inch size.)
Needs matplotlib (/usr/bin/python3 on Debian).
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"font.family": "serif", "font.size": 8, "savefig.bbox": "tight",
                     "axes.grid": True, "axes.grid.axis": "y", "grid.linestyle": ":"})
COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]
HATCHES = ["", "//", "..", "xx", "\\\\", "++", "oo", "--"]
WC = "blocks.wc."


def value(row, column):
    text = row.get(column, "")
    return float(text) if text not in ("", None) else None


def draw(rows, out, name, title, ylabel, columns, labels, stacked=False, paper=None,
         line=None):
    """One bar group (or stack) per workload, then 'mean' and, if given, 'paper'."""
    workloads = [r["workload"] for r in rows]
    xs = workloads + ["mean"] + (["seed 001"] if paper else [])
    per_group = 1 if stacked else max(1.0, len(columns) * 0.6)
    fig, ax = plt.subplots(figsize=(min(14.0, 0.3 * len(xs) * per_group + 2.0), 2.8))
    width = 0.8 if stacked else 0.8 / len(columns)
    bottoms = [0.0] * len(xs)
    for i, (column, label) in enumerate(zip(columns, labels)):
        heights = [value(r, column) for r in rows]
        known = [h for h in heights if h is not None]
        heights.append(sum(known) / len(known) if known else None)
        if paper:
            heights.append(paper.get(column))
        positions = [x + (0 if stacked else -0.4 + width * (i + 0.5)) for x in range(len(xs))]
        shown = [(p, h, b) for p, h, b in zip(positions, heights, bottoms) if h is not None]
        ax.bar([p for p, _, _ in shown], [h for _, h, _ in shown], width,
               bottom=[b for _, _, b in shown] if stacked else None, label=label,
               color=COLOURS[i % len(COLOURS)], hatch=HATCHES[i % len(HATCHES)],
               edgecolor="black", linewidth=0.4)
        if stacked:
            bottoms = [b + (h or 0.0) for b, h in zip(bottoms, heights)]
    if line is not None:
        ax.axhline(line, color="black", linewidth=0.8)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels(xs, rotation=60, ha="right")
    ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    path = os.path.join(out, name + ".png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)


def draw_gating(rows, out):
    """Figure 10: gated share of each 16-byte bank position (0-7 of a register's
    eight), averaged over the 4 register banks and over workloads: all workloads,
    and without those whose every warp is partial (16-thread CTAs)."""
    positions = range(8)
    full = [r for r in rows if (value(r, f"{WC}divergent_instruction_share") or 0) < 1.0]
    fig, ax = plt.subplots(figsize=(5.5, 2.8))
    for i, (subset, label) in enumerate(((rows, f"all {len(rows)} workloads"),
                                         (full, f"{len(full)} without 16-thread CTAs"))):
        means = []
        for s in positions:
            known = [value(r, f"{WC}bank_gating.gated_fraction_by_slice.slice{s}") for r in subset]
            known = [k for k in known if k is not None]
            means.append(sum(known) / len(known) if known else 0.0)
        ax.bar([s - 0.2 + 0.4 * i for s in positions], means, 0.4, label=label,
               color=COLOURS[i], hatch=HATCHES[i], edgecolor="black", linewidth=0.4)
    ax.set_xticks(list(positions))
    ax.set_xticklabels([f"{s}" for s in positions])
    ax.set_xlabel("16-byte bank within a register's eight (lanes 4s .. 4s+3)")
    ax.set_ylabel("share of cycles gated")
    ax.set_title("Power-gated cycles per bank (seed 001 Fig. 10)")
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    path = os.path.join(out, "fig10-gated-cycles.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    print(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", help="wc-benchmarks experiment folder (results.csv)")
    parser.add_argument("--out", required=True, help="folder for the PNGs")
    args = parser.parse_args()
    with open(os.path.join(args.dir, "results.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["preset"] == "wc" and r["status"] == "ok"]
    os.makedirs(args.out, exist_ok=True)
    bins = ["zero", "le_128", "le_32k", "random"]
    bin_labels = ["zero", "<= 128", "<= 32K", "random"]
    for phase in ("non_divergent", "divergent"):
        draw(rows, args.out, f"fig02-similarity-{phase.replace('_', '-')}",
             f"Value similarity of {phase.replace('_', '-')} writes (seed 001 Fig. 2)",
             "share of adjacent-lane pairs", [f"{WC}similarity_share.{phase}.{b}" for b in bins],
             bin_labels, stacked=True,
             paper={f"{WC}similarity_share.non_divergent.random": 0.21} if phase ==
             "non_divergent" else None)
    encodings = ["base4_delta0", "base4_delta1", "base4_delta2", "uncompressed"]
    draw(rows, args.out, "fig05-encodings", "<base,delta> of non-divergent writes (seed 001 Fig. 5)",
         "share of writes", [f"{WC}encoding_share.{e}" for e in encodings],
         ["<4,0>", "<4,1>", "<4,2>", "uncompressed"], stacked=True)
    draw(rows, args.out, "fig08-compression-ratio", "Compression ratio (seed 001 Fig. 8)",
         "original / stored bytes",
         [f"{WC}compression_ratio.non_divergent", f"{WC}compression_ratio.divergent_if_compressed"],
         ["non-divergent", "divergent"],
         paper={f"{WC}compression_ratio.non_divergent": 2.5,
                f"{WC}compression_ratio.divergent_if_compressed": 1.3}, line=1.0)
    draw_gating(rows, args.out)
    draw(rows, args.out, "fig11-dummy-movs", "Dummy MOVs (seed 001 Fig. 11: < 2 %)",
         "share of warp instructions", [f"{WC}dummy_mov_share"], ["dummy MOVs"],
         paper={f"{WC}dummy_mov_share": 0.02})
    draw(rows, args.out, "fig12-compressed-registers", "Compressed registers (seed 001 Fig. 12)",
         "time-average share of allocated", [f"{WC}compressed_register_share"],
         ["compressed registers"])
    draw(rows, args.out, "fig13-execution-time", "Execution time (seed 001 Fig. 13: +0.1 %)",
         "cycles / wc-baseline", ["norm.cycles"], ["wc"], paper={"norm.cycles": 1.001}, line=1.0)


if __name__ == "__main__":
    main()
