#!/usr/bin/env python3
"""Draws a sweep's figures from its results.csv, as PNG and SVG.

    plot_results.py DIR/results.csv --spec DIR/sweep.json --out DIR/figures [--plot NAME]
                    [--values FILE]

Each entry of the spec's "plots" list is one figure (docs/sweeps.md):

    {"name": "energy", "kind": "bar" | "line", "x": COLUMN, "y": COLUMN or [COLUMNS],
     "series": COLUMN, "title": ..., "xlabel": ..., "ylabel": ..., "xscale": "linear" | "log",
     "labels": {"norm.cycles": "cycles", "synth.divergence=0.1": "10 % divergent"},
     "paper": {"label": "seed 001 Fig. 9", "values": [{"x": X, "y": Y, "series": S}, ...]}}

Rows that share x and series (for example several seeds) are averaged; the spread is
drawn as an error bar. A baseline row (its own baseline, so every norm.* column is 1) is
left out of a norm.* bar or point that also holds other rows: a per-workload figure of a
design against its baseline shows the design, not the mean of the design and 1.
--values writes what was drawn as JSON: {figure: {series: {x: mean}}}. Values a paper reports are drawn beside ours: hatched grey bars
in bar charts, hollow markers on a dashed line in line charts. Needs matplotlib
(Debian: python3-matplotlib).
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# Close to the papers' figures: light fills with dark edges, hatching, serif labels.
COLOURS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]
HATCHES = ["", "//", "..", "xx", "\\\\", "++", "oo", "--"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
PAPER_COLOUR = "#555555"

plt.rcParams.update({
    "font.family": "serif",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.linestyle": ":",
    "grid.color": "#b0b0b0",
    "legend.fontsize": 8,
    "legend.frameon": False,
    "svg.hashsalt": "warpreg",  # identical SVGs for identical results
    "savefig.bbox": "tight",
})


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def ordered_unique(items):
    seen = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def sort_key(value):
    n = number(value)
    return (0, n, "") if n is not None else (1, 0.0, str(value))


def mean_spread(values):
    if not values:
        return None, None
    mean = sum(values) / len(values)
    if len(values) < 2:
        return mean, None
    # Rounding can put the mean of equal values a hair outside their range.
    return mean, (min(min(values), mean), max(max(values), mean))


def same(a, b):
    """Spec values against CSV cells: 16384 == "16384", 0.1 == "0.1"."""
    na, nb = number(a), number(b)
    if na is not None and nb is not None:
        return na == nb
    return str(a) == str(b)


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def series_of(plot, rows):
    """(label, y column, series value or None) for every line or bar group."""
    ys = plot["y"] if isinstance(plot["y"], list) else [plot["y"]]
    series = plot.get("series")
    groups = []
    values = ordered_unique(r[series] for r in rows) if series else [None]
    for y in ys:
        for v in values:
            parts = []
            if len(ys) > 1:
                parts.append(y)
            if v is not None:
                parts.append(f"{series}={v}")
            label = ", ".join(parts) or "ours"
            groups.append((plot.get("labels", {}).get(label, label), y, v))
    return groups


def is_own_baseline(row):
    return row.get("baseline") not in (None, "") and row.get("baseline") == row.get("point")


def aggregate(plot, rows, y, series_value):
    series = plot.get("series")
    selected = [r for r in rows if not series or r[series] == series_value]
    # norm.* of a baseline row is 1 by definition: where it shares x with the rows
    # normalised to it, it is not one of the values the bar shows.
    if y.startswith("norm."):
        shared = {r[plot["x"]] for r in selected if not is_own_baseline(r)}
        selected = [r for r in selected
                    if not (is_own_baseline(r) and r[plot["x"]] in shared)]
    by_x = {}
    for r in selected:
        value = number(r.get(y))
        if value is None:
            continue
        by_x.setdefault(r[plot["x"]], []).append(value)
    return by_x


def paper_values(plot, y, series_value, multiple_y):
    paper = plot.get("paper")
    if not paper:
        return {}
    out = {}
    # A value's "series" names the series value or, with several y columns, the column.
    keys = [k for k in (series_value, y if multiple_y else None) if k is not None]
    for v in paper.get("values", []):
        if "series" in v and keys and not any(same(v["series"], k) for k in keys):
            continue
        out[str(v["x"])] = float(v["y"])
    return out


def record(drawn, label, xs, means):
    if drawn is not None:
        drawn[label] = {x: m for x, m in zip(xs, means) if m is not None}


def draw_bar(ax, plot, rows, drawn=None):
    xs = sorted(ordered_unique(r[plot["x"]] for r in rows), key=sort_key)
    groups = series_of(plot, rows)
    multiple_y = isinstance(plot["y"], list) and len(plot["y"]) > 1
    bars = []  # (label, heights, spreads, style)
    for i, (label, y, sv) in enumerate(groups):
        data = aggregate(plot, rows, y, sv)
        stats = [mean_spread(data.get(x, [])) for x in xs]
        style = {"color": COLOURS[i % len(COLOURS)], "hatch": HATCHES[i % len(HATCHES)]}
        bars.append((label, [s[0] for s in stats], [s[1] for s in stats], style))
        record(drawn, label, xs, [s[0] for s in stats])
        paper = paper_values(plot, y, sv, multiple_y)
        if paper:
            heights = [paper.get(x) for x in xs]
            paper_label = plot["paper"].get("label", "paper")
            if len(groups) > 1:
                paper_label += f" ({label})"
            bars.append((paper_label, heights, [None] * len(xs),
                         {"color": "white", "hatch": "////", "edgecolor": PAPER_COLOUR}))
    width = 0.8 / max(1, len(bars))
    for b, (label, heights, spreads, style) in enumerate(bars):
        positions = [i - 0.4 + width * (b + 0.5) for i in range(len(xs))]
        shown = [(p, h, s) for p, h, s in zip(positions, heights, spreads) if h is not None]
        if not shown:
            continue
        ax.bar([p for p, _, _ in shown], [h for _, h, _ in shown], width,
               label=label, edgecolor=style.get("edgecolor", "black"), linewidth=0.6,
               color=style["color"], hatch=style["hatch"])
        for p, h, s in shown:
            if s is not None:
                ax.errorbar(p, h, yerr=[[h - s[0]], [s[1] - h]], color="black", capsize=2,
                            linewidth=0.6)
    ax.set_xticks(range(len(xs)))
    longest = max((len(x) for x in xs), default=0)
    if len(xs) * longest > 60:  # many long names (e.g. 15 benchmarks): steeper, right-aligned
        ax.set_xticklabels(xs, rotation=45, ha="right", rotation_mode="anchor")
    else:
        ax.set_xticklabels(xs, rotation=20 if longest > 8 else 0)
    if any(str(y).startswith("norm.") for y in (plot["y"] if isinstance(plot["y"], list)
                                                  else [plot["y"]])):
        ax.axhline(1.0, color="black", linewidth=0.8)


def draw_line(ax, plot, rows, drawn=None):
    groups = series_of(plot, rows)
    multiple_y = isinstance(plot["y"], list) and len(plot["y"]) > 1
    for i, (label, y, sv) in enumerate(groups):
        data = aggregate(plot, rows, y, sv)
        xs = sorted((x for x in data if number(x) is not None), key=number)
        stats = [mean_spread(data[x]) for x in xs]
        record(drawn, label, xs, [s[0] for s in stats])
        colour = COLOURS[i % len(COLOURS)]
        ax.plot([number(x) for x in xs], [s[0] for s in stats], marker=MARKERS[i % len(MARKERS)],
                color=colour, label=label, linewidth=1.2, markersize=4)
        for x, s in zip(xs, stats):
            if s[1] is not None:
                ax.errorbar(number(x), s[0], yerr=[[s[0] - s[1][0]], [s[1][1] - s[0]]],
                            color=colour, capsize=2, linewidth=0.6)
        paper = paper_values(plot, y, sv, multiple_y)
        if paper:
            px = sorted(paper, key=number)
            paper_label = plot["paper"].get("label", "paper")
            if len(groups) > 1:
                paper_label += f" ({label})"
            ax.plot([number(x) for x in px], [paper[x] for x in px], linestyle="--",
                    marker=MARKERS[i % len(MARKERS)], markerfacecolor="white", color=colour,
                    markersize=6, linewidth=0.8, label=paper_label)
    if plot.get("xscale"):
        ax.set_xscale(plot["xscale"])


def draw(plot, rows, out_dir, drawn=None):
    for column in [plot["x"], plot.get("series")] + (
            plot["y"] if isinstance(plot["y"], list) else [plot["y"]]):
        if column and rows and column not in rows[0]:
            sys.exit(f"plot_results.py: figure {plot['name']}: no column '{column}' in results.csv")
    categories = len({r[plot["x"]] for r in rows}) if plot["kind"] == "bar" else 0
    fig, ax = plt.subplots(figsize=(max(5.0, 0.45 * categories), 3.0))
    (draw_bar if plot["kind"] == "bar" else draw_line)(ax, plot, rows, drawn)
    ax.set_xlabel(plot.get("xlabel", plot["x"]))
    ax.set_ylabel(plot.get("ylabel", plot["y"] if isinstance(plot["y"], str) else "value"))
    if plot.get("title"):
        ax.set_title(plot["title"])
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    written = []
    for ext in ("png", "svg"):
        path = os.path.join(out_dir, f"{plot['name']}.{ext}")
        fig.savefig(path, dpi=150, metadata={"Date": None} if ext == "svg" else None)
        written.append(path)
    plt.close(fig)
    return written


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="results.csv written by 'warpreg collect'")
    parser.add_argument("--spec", required=True, help="sweep.json of the sweep folder")
    parser.add_argument("--out", required=True, help="folder for NAME.png and NAME.svg")
    parser.add_argument("--plot", help="draw only this figure")
    parser.add_argument("--values", help="also write the drawn means to this JSON file")
    args = parser.parse_args()

    with open(args.spec) as f:
        plots = json.load(f).get("plots", [])
    rows = [r for r in read_rows(args.results)]
    if not rows:
        sys.exit(f"plot_results.py: {args.results} has no rows")
    os.makedirs(args.out, exist_ok=True)
    drawn = 0
    values = {}
    for plot in plots:
        if args.plot and plot["name"] != args.plot:
            continue
        values[plot["name"]] = {}
        for path in draw(plot, rows, args.out, values[plot["name"]]):
            print(path)
        drawn += 1
    if args.plot and not drawn:
        sys.exit(f"plot_results.py: no figure named {args.plot} in {args.spec}")
    if args.values:
        with open(args.values, "w") as f:
            json.dump(values, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
