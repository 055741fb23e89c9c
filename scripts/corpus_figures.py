#!/usr/bin/env python3
"""Prints the real-kernel sections of docs/stimuli.md: `warpreg compile --json -n 8 16 24`
on every kernel of ../shared/data (cuobjdump listings, nvdisasm CFGs, the Accel-Sim
sample), the per-kernel table, the corpus distributions of what the profiles assume,
and the same quantities over the shipped profiles.

Usage: scripts/corpus_figures.py [BUILD_DIR]   (default: build)
"""
import json
import pathlib
import statistics
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
binary = root / (sys.argv[1] if len(sys.argv) > 1 else "build") / "warpreg"
data = root.parent / "shared" / "data"
sizes = [8, 16, 24]


def inputs():
    cuobjdump = sorted(p for p in (data / "cuobjdump").rglob("*")
                       if p.is_file() and p.name not in ("README.md", "MANIFEST.tsv"))
    return (cuobjdump + sorted((data / "nvdisasm-cfg").glob("*.dot"))
            + sorted((data / "accelsim").glob("*.traceg")))


def short(name, limit=34):
    if name.startswith("$") and name.count("$") >= 2:  # nvdisasm's "$kernel$helper"
        name = "$..$" + name.rsplit("$", 1)[1]
    return name if len(name) <= limit else name[: limit - 1] + "…"


def where(path):
    rel = path.relative_to(data)
    if rel.parts[0] == "cuobjdump":
        return f"{rel.parts[2]}/{short(rel.name, 26)}"  # benchmark/file
    return rel.name


def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * (len(values) - 1) + 0.5))]


def spread(values, fmt="{:.0f}"):
    """min / median / max and mean."""
    return (f"{fmt.format(min(values))} / {fmt.format(q(values, 0.5))} / "
            f"{fmt.format(max(values))} (mean {fmt.format(statistics.mean(values))})")


rows = []
for path in inputs():
    out = subprocess.run([str(binary), "compile", str(path), "--json", "-n", *map(str, sizes)],
                         check=True, capture_output=True, text=True).stdout
    for kernel in json.loads(out):
        rows.append((path, kernel))

# ---- the benchmark table: rows with real kernels -----------------------------------------
by_name = {}
for path, k in rows:
    by_name[f"{path.relative_to(data)}:{k['selector']}"] = k
table = json.load(open(root / "stimuli" / "benchmarks" / "benchmarks.json"))["rows"]
print("| row | paper's launch: CTAs × threads, registers | real kernels (the first runs as real:ROW) "
      "| their registers |")
print("|---|---|---|---|")
for row in table:
    if not row.get("kernels"):
        continue
    src = row["sources"]
    mark = lambda f: "" if src.get(f, "").startswith("paper") else "*"
    launch = (f"{row.get('ctas', '—')}{mark('ctas')} × {row.get('threads_per_cta', '—')}"
              f"{mark('threads_per_cta')}, {row.get('regs_per_thread', '—')}"
              f"{mark('regs_per_thread')}")
    names = [k.split("/")[-1] if k.startswith("nvdisasm") else k.split("/")[2] + ":" +
             k.rsplit(":", 1)[1] for k in row["kernels"]]
    regs = [str(by_name[k]["registers"]) for k in row["kernels"]]
    print(f"| `{row['id']}` | {launch} | {', '.join(f'`{short(n, 44)}`' for n in names)} | "
          f"{', '.join(regs)} |")
print("\n(* assumed, not from the paper; the source of each number is in the table)\n")

# ---- the per-kernel table ---------------------------------------------------------------
print("| source | kernel | arch | regs | max live | dead (static / dyn.) | static code | "
      "N=8 | N=16 | N=24 | \\|E_s\\| (warps) |")
print("|---|---|---|---:|---:|---|---:|---:|---:|---:|---|")
for path, k in rows:
    f, m, s = k["release_flags"], k["regmutex"], k["shape"]
    code = "—" if "error" in f else f"{100 * f['static_code_increase']:.1f} %"
    ivs = [("—" if "error" in r else str(r["intervals"])) for r in k["register_intervals"]]
    es = "—" if "error" in m else f"{m['es']} ({m['baseline_warps']}→{m['warps']})"
    print(f"| {where(path)} | `{short(k['kernel'])}` | {k['arch'] or '—'} | {k['registers']} | "
          f"{k['max_live']} | {100 * s['dead_fraction']:.0f} / "
          f"{100 * s['dynamic']['dead_fraction']:.0f} % | {code} | {' | '.join(ivs)} | {es} |")

# ---- distributions over distinct kernels ------------------------------------------------
distinct = {}
for path, k in rows:
    key = (k["arch"], k["kernel"], k["instructions"], k["registers"], k["max_live"])
    distinct.setdefault(key, k)
kernels = list(distinct.values())
print(f"\n{len(rows)} kernels, {len(kernels)} distinct (same architecture, name, "
      "instruction count, registers and max live counted once).\n")


def line(label, values, fmt="{:.0f}"):
    print(f"| {label} | {spread(values, fmt)} |")


print("| quantity over the distinct kernels | min / median / max (mean) |")
print("|---|---|")
line("registers per thread", [k["registers"] for k in kernels])
for arch in ("sm_10", "sm_13", "sm_20"):
    regs = [k["registers"] for k in kernels if k["arch"] == arch]
    if regs:
        line(f"registers per thread, {arch}", regs)
line("max live / registers (%)",
     [100 * k["max_live"] / max(1, k["registers"]) for k in kernels])
line("dead fraction, static (% of registers)", [100 * k["shape"]["dead_fraction"] for k in kernels])
line("dead fraction, dynamic (% of registers)",
     [100 * k["shape"]["dynamic"]["dead_fraction"] for k in kernels])
line("live range, median (dynamic instructions)",
     [k["shape"]["dynamic"]["live_range_median"] for k in kernels])
line("live range, 90th percentile", [k["shape"]["dynamic"]["live_range_p90"] for k in kernels])
line("values never read (%)", [100 * k["shape"]["dynamic"]["dead_on_write"] for k in kernels])
line("instructions (static)", [k["instructions"] for k in kernels])
line("loops", [k["shape"]["loops"] for k in kernels])
line("loop nesting depth", [k["shape"]["max_loop_depth"] for k in kernels])
line("conditional branches (blocks with 2+ successors)",
     [k["shape"]["conditional_branches"] for k in kernels])
line("barriers", [k["shape"]["barriers"] for k in kernels])
with_barriers = [k for k in kernels if k["shape"]["barriers"]]
print(f"| kernels with a barrier | {len(with_barriers)} of {len(kernels)}; "
      f"{sum(1 for k in with_barriers if k['shape']['barriers_in_loops'])} of them with one "
      f"inside a loop |")
print()
print("| instruction mix (% of instructions, mean over distinct kernels) | static | dynamic |")
print("|---|---:|---:|")
for c in ("alu", "sfu", "load", "store", "branch", "barrier", "exit"):
    st = statistics.mean(100 * k["shape"]["mix"][c] for k in kernels)
    dy = statistics.mean(100 * k["shape"]["dynamic"]["mix"][c] for k in kernels)
    print(f"| {c} | {st:.1f} | {dy:.1f} |")
memory = [100 * (k["shape"]["dynamic"]["mix"]["load"] + k["shape"]["dynamic"]["mix"]["store"])
          for k in kernels]
stores = [k["shape"]["dynamic"]["mix"]["store"] /
          (k["shape"]["dynamic"]["mix"]["load"] + k["shape"]["dynamic"]["mix"]["store"])
          for k in kernels
          if k["shape"]["dynamic"]["mix"]["load"] + k["shape"]["dynamic"]["mix"]["store"] > 0]
sfu = [100 * k["shape"]["dynamic"]["mix"]["sfu"] for k in kernels]

# ---- the same quantities over the shipped profiles ------------------------------------
profiles = [json.load(open(p)) for p in sorted((root / "stimuli" / "profiles").glob("*.json"))]
pk = [p["kernel"] for p in profiles]
print(f"\n| quantity | corpus ({len(kernels)} kernels): min / median / max (mean) | "
      f"profiles ({len(profiles)}): min / median / max (mean) |")
print("|---|---|---|")
print(f"| registers per thread | {spread([k['registers'] for k in kernels])} | "
      f"{spread([p['regs_per_thread'] for p in pk])} |")
print(f"| memory instructions (% of dynamic) | {spread(memory)} | "
      f"{spread([100 * p.get('memory_fraction', 0.2) for p in pk])} |")
print(f"| stores among memory instructions (%) | {spread([100 * s for s in stores])} | "
      f"{spread([100 * p.get('store_share', 0.25) for p in pk])} |")
print(f"| SFU instructions (% of dynamic) | {spread(sfu, '{:.1f}')} | "
      f"{spread([100 * p.get('sfu_fraction', 0.05) for p in pk], '{:.1f}')} |")
print(f"| loops (nests x depth for profiles) | {spread([k['shape']['loops'] for k in kernels])} | "
      f"{spread([sum(len(n) for n in p.get('loops', [])) for p in pk])} |")
print(f"| loop nesting depth | {spread([k['shape']['max_loop_depth'] for k in kernels])} | "
      f"{spread([max([len(n) for n in p.get('loops', [])] or [0]) for p in pk])} |")
print(f"| conditional branches | "
      f"{spread([k['shape']['conditional_branches'] for k in kernels])} | "
      f"{spread([p.get('if_regions', 1) for p in pk])} (if-regions) |")
print(f"| barriers | {spread([k['shape']['barriers'] for k in kernels])} | "
      f"{spread([p.get('barriers', 0) for p in pk])} |")
