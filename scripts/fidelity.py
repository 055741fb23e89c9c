#!/usr/bin/env python3
"""Runs the experiments the fidelity report needs and writes DIR/fidelity.csv and the
report page (issue 17): for each headline result of the five papers, the paper's value
beside warpreg's, the gap and the reason.

    fidelity.py --binary warpreg [--quick] --out DIR [--doc docs/fidelity.md] [--jobs N]

The rows are experiments/fidelity/rows.json. Each experiment runs once, one at a time,
without figures; a row's 'other' experiment (its profiles beside real kernels) is shown
beside 'ours' on the page, not in the CSV. A row without an experiment is listed with an empty 'ours' and its
reason (not measured by this report yet).
"""
import argparse
import csv
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
COLUMNS = ["id", "design", "figure", "metric", "unit", "paper", "ours", "workloads"]


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def selected(row, results):
    """The ok rows of the row's preset that pass its filter."""
    for r in results:
        if r.get("preset") != row["preset"] or r.get("status", "ok") != "ok":
            continue
        if any(r.get(k) != v for k, v in row.get("filter", {}).items()):
            continue
        needed = row["sum"] if "sum" in row else [row["column"]]
        needed = needed + [row[k] for k in ("per",) if k in row]
        for column in needed + ([row["tolerable"]["x"]] if "tolerable" in row else []):
            if column not in r:
                sys.exit(f"fidelity.py: {row['id']}: no column '{column}' in "
                         f"{row['experiment']}'s results.csv")
        yield r


def crossing(curve, limit):
    """Where a curve of (x, y) first rises above limit, by linear interpolation between
    the points either side; the largest x if it never does."""
    previous = None
    for x, y in sorted(curve):
        if y > limit:
            if previous is None:
                return x
            x0, y0 = previous
            return x0 + (x - x0) * (limit - y0) / (y - y0)
        previous = (x, y)
    return previous[0]


def tolerable(row, results):
    """The mean over workloads of the largest x whose normalised y stays within the
    limit (LTRF's 'maximum tolerable register file access latency', seed 004 §6.3)."""
    curves = {}
    for r in selected(row, results):
        x, y = number(r[row["tolerable"]["x"]]), number(r[row["column"]])
        if x is not None and y is not None:
            curves.setdefault(r.get("workload"), []).append((x, y))
    if not curves:
        return None
    return statistics.mean(crossing(c, row["tolerable"]["limit"]) for c in curves.values())


def summed_over_baseline(row, results):
    """The mean over the row's runs of the sum of its 'sum' columns divided by the same
    sum on each run's baseline point (a quantity no single statistic holds, such as
    seed 001's register-file energy: banks, wires and codec without the collectors)."""
    by_point = {r["point"]: r for r in results}

    def total(r):
        return sum(number(r.get(c)) or 0.0 for c in row["sum"])

    ratios = []
    for r in selected(row, results):
        base = by_point.get(r.get("baseline"))
        if base is None:
            sys.exit(f"fidelity.py: {row['id']}: point {r['point']} has no baseline point")
        if total(base) > 0:
            ratios.append(total(r) / total(base))
    if not ratios:
        return None
    mean = statistics.mean(ratios)
    return mean - 1.0 if row.get("transform") == "minus_one" else mean


def measure(row, results):
    """The row's figure: the mean of its column (divided by its 'per' column) over its
    preset's rows as a signed fraction, or a tolerable multiple."""
    transform = row.get("transform", "none")
    if transform == "tolerable":
        return tolerable(row, results)
    if "sum" in row:
        return summed_over_baseline(row, results)
    values = []
    for r in selected(row, results):
        v = number(r[row["column"]])
        # 'per' divides each run's figure by another of its columns first: energy per
        # cycle is average power, as the paper reports it.
        d = number(r[row["per"]]) if "per" in row else 1.0
        if v is not None and d:
            values.append(v / d)
    if not values:
        return None
    mean = statistics.mean(values)
    if transform == "negate":
        return -mean
    if transform == "minus_one":
        return mean - 1.0
    return mean


def gap_note(paper, ours):
    if paper is None or ours is None:
        return ""
    if paper == 0:
        return ""
    return "yes" if abs(ours - paper) > abs(paper) / 3 else ""


def fmt(v):
    return "" if v is None else f"{v:.4g}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the warpreg binary")
    parser.add_argument("--out", required=True, help="folder for the runs and fidelity.csv")
    parser.add_argument("--quick", action="store_true", help="the experiments' quick forms")
    parser.add_argument("--doc", help="write the report page here (default DIR/fidelity.md)")
    parser.add_argument("--jobs", type=int, default=2, help="points run at once per experiment")
    args = parser.parse_args()

    spec = json.loads((ROOT / "experiments" / "fidelity" / "rows.json").read_text())
    rows = spec["rows"]
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    results = {}
    # A row's headline experiment, and the one on its other workloads (real kernels or
    # profiles) shown beside it on the page.
    names = [n for r in rows for n in (r.get("experiment"), r.get("other", {}).get("experiment"))]
    for name in dict.fromkeys(n for n in names if n):
        folder = out / name
        command = [args.binary, "experiment", name, "--out", str(folder), "--no-plots",
                   "--jobs", str(args.jobs)] + (["--quick"] if args.quick else [])
        print("fidelity.py: " + " ".join(command), file=sys.stderr)
        if subprocess.run(command, stdout=subprocess.DEVNULL).returncode != 0:
            sys.exit(f"fidelity.py: experiment {name} failed (its messages are above)")
        with open(folder / "results.csv") as f:
            results[name] = list(csv.DictReader(f))
    wall = time.monotonic() - started

    table = []
    for row in rows:
        ours = measure(row, results[row["experiment"]]) if row.get("experiment") else None
        other = row.get("other")
        # The other workloads may need their own filter (a workload named real:ROW).
        beside = (measure({**row, **other}, results[other["experiment"]]) if other else None)
        table.append({**{k: row.get(k, "") for k in COLUMNS}, "ours": ours, "beside": beside})
    with open(out / "fidelity.csv", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(COLUMNS)
        for t, row in zip(table, rows):
            w.writerow([fmt(t[c]) if c in ("paper", "ours") else t[c] for c in COLUMNS])

    doc = pathlib.Path(args.doc) if args.doc else out / "fidelity.md"
    lines = [
        "# Fidelity: the papers' headline results against warpreg's",
        "",
        "Generated by `warpreg experiment fidelity"
        + (" --quick" if args.quick else "") + "` from experiments/fidelity/rows.json "
        "(do not edit by hand). Savings and overheads are signed fractions of the baseline "
        "(a 42 % saving is -0.42), ratios are ratios. 'gap' marks a difference of more "
        "than a third of the paper's value; the reason column says why, or which page does. "
        "Where the report runs both real kernels (the benchmark table's rows with kernels in "
        "../shared/data, real:ROW) and the generated profiles, 'ours' is on the workloads "
        "the workloads column names and the column after it gives the other set.",
        "",
        f"Wall time of this run: {wall:.0f} s ({len(results)} experiments, one at a time, "
        f"--jobs {args.jobs}).",
        "",
        "| id | figure | metric | paper | ours | gap | workloads | ours on the other workloads "
        "| reason |",
        "| --- | --- | --- | ---: | ---: | --- | --- | --- | --- |",
    ]
    def cell(text):
        return str(text).replace("|", "\\|")  # |B_s| must not end a table cell

    def beside_cell(t, row):
        if "other" not in row:
            return ""
        return f"{fmt(t['beside'])} ({cell(row['other']['workloads'])})"

    for t, row in zip(table, rows):
        lines.append(f"| `{t['id']}` | {cell(t['figure'])} | {cell(t['metric'])} | "
                     f"{fmt(t['paper'])} | {fmt(t['ours'])} | {gap_note(t['paper'], t['ours'])} | "
                     f"{cell(row.get('workloads', ''))} | {beside_cell(t, row)} | "
                     f"{cell(row.get('reason', ''))} |")
    doc.write_text("\n".join(lines) + "\n")
    print(f"fidelity.py: {out / 'fidelity.csv'} and {doc} ({wall:.0f} s)")


if __name__ == "__main__":
    main()
