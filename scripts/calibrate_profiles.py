#!/usr/bin/env python3
"""Recalibrates uniform-liveness profiles' assumed instruction mix and branch shape to real
code (issue 15; docs/stimuli.md "Recalibrated on the corpus").

* A profile whose benchmark row (stimuli/benchmarks/benchmarks.json) lists real kernels
  takes the mean of those kernels, measured by `warpreg compile --json` over one CTA:
  `memory_fraction` and `sfu_fraction` as shares of the non-control instructions (what
  the generator draws its chunks from), `store_share`, `if_regions` (conditional
  branches that are not loop latches), `block_insts` (instructions per basic block) and
  `barriers`. These fields move from "assumed" to "measured".
* Every other profile keeps its rank among the shipped profiles and takes the corpus
  value at that rank (quantile mapping over the distinct kernels of ../shared/data,
  ties at their middle): `memory_fraction`, `store_share` and `sfu_fraction`. They stay
  "assumed". Their `if_regions` and `block_insts` already sit at the corpus medians (2
  and 9 against 1-3 and 10-12) and are kept: ranks among three values are too coarse
  to map onto a long tail.

Every profile also gets `"liveness": "corpus"` (the generator's calibrated register
use). Launch, registers, loops, divergence, the barriers of unmeasured rows and the
value mixes are not touched. Writes the calibrated profiles to OUT_DIR (the input is
left as it is); prints what moved.

The shipped profiles are this script's output since commit d0b4365; its input was the
uniform set before it (`git archive 3cdb159 stimuli/profiles | tar -x -C DIR`, then
--from DIR/stimuli/profiles). A profile that already has corpus liveness is refused:
calibrating twice would shift the rank-mapped fields again.

Usage: scripts/calibrate_profiles.py OUT_DIR [BUILD_DIR] [--from PROFILES_DIR]
       (default build dir: build; default profiles: stimuli/profiles)
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("out_dir", type=pathlib.Path)
parser.add_argument("build_dir", nargs="?", default="build")
parser.add_argument("--from", dest="profiles_dir", type=pathlib.Path,
                    default=root / "stimuli" / "profiles")
options = parser.parse_args()
out_dir = options.out_dir
binary = root / options.build_dir / "warpreg"
data = root.parent / "shared" / "data"
MAPPED = ("memory_fraction", "store_share", "sfu_fraction")
MEASURED = MAPPED + ("if_regions", "block_insts", "barriers")


def compile_json(target):
    out = subprocess.run([str(binary), "compile", str(target), "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def shape(kernel):
    """The calibrated fields measured on one real kernel."""
    mix = kernel["shape"]["dynamic"]["mix"]
    body = mix["alu"] + mix["sfu"] + mix["load"] + mix["store"]
    memory = mix["load"] + mix["store"]
    return {
        "memory_fraction": memory / body if body else 0.0,
        "store_share": mix["store"] / memory if memory else None,
        "sfu_fraction": mix["sfu"] / body if body else 0.0,
        "if_regions": max(0, kernel["shape"]["conditional_branches"] - kernel["shape"]["loops"]),
        "block_insts": kernel["instructions"] / max(1, kernel["blocks"]),
        "barriers": kernel["shape"]["barriers"],
    }


def corpus_kernels():
    files = sorted(p for p in (data / "cuobjdump").rglob("*")
                   if p.is_file() and p.name not in ("README.md", "MANIFEST.tsv"))
    files += sorted((data / "nvdisasm-cfg").glob("*.dot"))
    distinct = {}
    for path in files:
        for k in compile_json(path):
            distinct.setdefault((k["arch"], k["kernel"], k["instructions"], k["registers"],
                                 k["max_live"]), k)
    return [shape(k) for k in distinct.values() if k["instructions"] > 1]


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


def rank(value, values):
    """Where value sits among values, in (0, 1): (below + equal / 2) / n."""
    below = sum(1 for v in values if v < value)
    equal = sum(1 for v in values if v == value)
    return (below + equal / 2) / len(values)


def main():
    rows = {r["profile"]: r for r in
            json.load(open(root / "stimuli" / "benchmarks" / "benchmarks.json"))["rows"]}
    corpus = corpus_kernels()
    paths = sorted(options.profiles_dir.glob("*.json"))
    profiles = {p.stem: json.load(open(p)) for p in paths}
    calibrated = [n for n, p in profiles.items() if p["kernel"].get("liveness") == "corpus"]
    if calibrated:
        sys.exit(f"calibrate_profiles.py: {options.profiles_dir}: {', '.join(calibrated[:3])}"
                 f"{' ...' if len(calibrated) > 3 else ''} already have corpus liveness; "
                 "give the uniform profiles with --from (see --help)")
    before = {name: {f: p["kernel"].get(f) for f in MEASURED} for name, p in profiles.items()}
    for path in paths:
        name = path.stem
        p = profiles[name]
        kernel = p["kernel"]
        kernels = rows.get(name, {}).get("kernels", [])
        if kernels:
            measured = [shape(compile_json(data / k)[0]) for k in kernels]
            stores = [m["store_share"] for m in measured if m["store_share"] is not None]
            kernel["memory_fraction"] = round(statistics.mean(m["memory_fraction"]
                                                              for m in measured), 3)
            kernel["store_share"] = round(statistics.mean(stores), 3) if stores else 0.0
            kernel["sfu_fraction"] = round(statistics.mean(m["sfu_fraction"] for m in measured), 3)
            for field in ("if_regions", "block_insts", "barriers"):
                kernel[field] = round(statistics.mean(m[field] for m in measured))
            moved = [f"kernel.{f}" for f in MEASURED]
            p["assumed"] = [f for f in p["assumed"] if f not in moved]
            p["measured"] = moved
            p["measured_from"] = ", ".join(kernels)
        else:
            for field in MAPPED:
                ours = [before[n][field] or 0 for n in profiles]
                at = rank(before[name][field] or 0, ours)
                kernel[field] = round(quantile([c[field] for c in corpus
                                                if c[field] is not None], at), 3)
        kernel["liveness"] = "corpus"
        p["assumed"].append("kernel.liveness")
        if kernel["memory_fraction"] + kernel["sfu_fraction"] > 1:
            kernel["sfu_fraction"] = round(1 - kernel["memory_fraction"], 3)
        out_dir.mkdir(parents=True, exist_ok=True)
        with open(out_dir / path.name, "w") as f:
            json.dump(p, f, indent=2)
            f.write("\n")
        changes = [f"{f} {before[name][f]} -> {kernel.get(f)}" for f in MEASURED
                   if before[name][f] != kernel.get(f)]
        print(f"{name}: {'; '.join(changes) or 'unchanged'}"
              f"{' (measured)' if kernels else ''}")


main()
