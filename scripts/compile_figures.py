#!/usr/bin/env python3
"""Prints the markdown tables of docs/stimuli.md: `warpreg compile` on every real
kernel of ../shared/data at N = 8, 16, 24 registers per interval.

Usage: scripts/compile_figures.py [BUILD_DIR]   (default: build)
"""
import json
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = root / (sys.argv[1] if len(sys.argv) > 1 else "build") / "warpreg"
data = root.parent / "shared" / "data"
inputs = sorted((data / "nvdisasm-cfg").glob("*.dot")) + sorted((data / "accelsim").glob("*.traceg"))
sizes = [8, 16, 24]


def short(name, limit=40):
    if name.startswith("$") and name.count("$") >= 2:  # nvdisasm's "$kernel$helper"
        name = "$..$" + name.rsplit("$", 1)[1]
    return name if len(name) <= limit else name[: limit - 1] + "…"


rows = []
for path in inputs:
    out = subprocess.run([str(binary), "compile", str(path), "--json", "-n", *map(str, sizes)],
                         check=True, capture_output=True, text=True).stdout
    for kernel in json.loads(out):
        rows.append((path.name, kernel))

print("| file | kernel | blocks | insts | regs | max live | pir | pbr (regs) | static code | "
      "\\|B_s\\| / \\|E_s\\| | SRP sections | warps |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for file, k in rows:
    f, m = k["release_flags"], k["regmutex"]
    flags = ("error" if "error" in f else
             f"{f['pir']} | {f['pbr']} ({f['pbr_registers']}) | {100 * f['static_code_increase']:.1f} %")
    if "error" in f:
        flags = "— | — | —"
    rm = ("— | — | —" if "error" in m else
          f"{m['bs']} / {m['es']} | {m['srp_sections']} | {m['baseline_warps']} → {m['warps']}")
    print(f"| {file} | `{short(k['kernel'])}` | {k['blocks']} | {k['instructions']} | "
          f"{k['registers']} | {k['max_live']} | {flags} | {rm} |")

print()
print("| file | kernel | " + " | ".join(f"N={n}: intervals, insts mean (min..max), regs mean/max"
                                         for n in sizes) + " |")
print("|---|---|" + "---|" * len(sizes))
for file, k in rows:
    cells = []
    for r in k["register_intervals"]:
        if "error" in r:
            cells.append("error: " + r["error"])
        else:
            cells.append(f"{r['intervals']}, {r['instructions_mean']:.1f} "
                         f"({r['instructions_min']}..{r['instructions_max']}), "
                         f"{r['working_set_mean']:.1f}/{r['working_set_max']}")
    print(f"| {file} | `{short(k['kernel'])}` | " + " | ".join(cells) + " |")
