#!/usr/bin/env python3
"""Draws the time series of one run (warpreg run --sample CYCLES --out DIR): IPC and
issue, occupancy, register-file accesses, power-state residency of the register cells,
and every block's dynamic power. Writes DIR/samples.png and DIR/samples.svg."""
import argparse
import csv
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("dir", help="the run's --out folder, holding samples.csv")
    parser.add_argument("--title", default=None, help="figure title (default: the folder)")
    args = parser.parse_args()
    path = os.path.join(args.dir, "samples.csv")
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"warpreg plot: cannot read {path}: {e.strerror}")
    if not rows:
        sys.exit(f"warpreg plot: {path} has no samples")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("warpreg plot: matplotlib is missing (Debian: python3-matplotlib)")

    cycle = [int(r["cycle"]) for r in rows]
    column = lambda name: [float(r[name]) for r in rows]
    states = [c for c in rows[0] if c.startswith("rf_cells_")]
    powers = [c for c in rows[0] if c.startswith("power_mw.")]

    fig, axes = plt.subplots(4, 1, figsize=(9, 10), sharex=True)
    ax = axes[0]
    ax.plot(cycle, column("ipc"), label="IPC")
    ax.set_ylabel("IPC (warp inst./cycle)")
    ax2 = ax.twinx()
    ax2.plot(cycle, column("resident_warps"), color="tab:gray", linestyle="--",
             label="resident warps")
    ax2.set_ylabel("resident warps")
    ax.legend(loc="upper left")
    ax2.legend(loc="upper right")

    ax = axes[1]
    for name in ("rf_reads", "rf_writes", "rf_conflicted_reads"):
        ax.plot(cycle, column(name), label=name.replace("rf_", "").replace("_", " "))
    ax.set_ylabel("RF accesses / interval")
    ax.legend(loc="upper right")

    ax = axes[2]
    ax.stackplot(cycle, *[column(s) for s in states],
                 labels=[s.replace("rf_cells_", "") for s in states])
    ax.set_ylabel("share of RF cells")
    ax.set_ylim(0, 1)
    ax.legend(loc="upper right")

    ax = axes[3]
    for name in powers:
        ax.plot(cycle, column(name), label=name.replace("power_mw.", ""))
    ax.set_ylabel("dynamic power (mW)")
    ax.set_xlabel("cycle (end of interval)")
    ax.legend(loc="upper right", fontsize="small")

    fig.suptitle(args.title or os.path.basename(os.path.normpath(args.dir)))
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(args.dir, "samples." + ext), dpi=100)
    print(os.path.join(args.dir, "samples.png"))


if __name__ == "__main__":
    main()
