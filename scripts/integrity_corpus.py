#!/usr/bin/env python3
"""Runs every kernel of every file under ../shared/data/cuobjdump and
../shared/data/nvdisasm-cfg on each preset given (default: every shipped preset),
small (CTAS CTAs each), and prints one line per run:

    workload preset status cycles checked-operands mismatches

then the counts per preset: ok (status ok, zero mismatches), rejected (the preset
refuses the kernel before the run with exit status 2, e.g. a forced RegMutex |E_s|
that the kernel's registers cannot hold; the reason follows '#'), failed (anything
else). Exit 1 if any run failed.

Usage: scripts/integrity_corpus.py [--ctas N] [--jobs J] [--build DIR] [--limit K] [PRESET...]
"""
import argparse
import concurrent.futures
import json
import pathlib
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parent.parent
data = root.parent / "shared" / "data"


def kernels(binary):
    """Every kernel as a workload name FILE:SELECTOR, from `warpreg compile --json`."""
    files = sorted(p for p in (data / "cuobjdump").rglob("*")
                   if p.is_file() and p.name not in ("README.md", "MANIFEST.tsv"))
    files += sorted((data / "nvdisasm-cfg").glob("*.dot"))
    names = []
    for path in files:
        out = subprocess.run([str(binary), "compile", str(path), "--json"], check=True,
                             capture_output=True, text=True).stdout
        for k in json.loads(out):
            names.append(f"{path}:{k['selector']}")
    return names


def presets(binary):
    out = subprocess.run([str(binary), "presets"], check=True, capture_output=True,
                         text=True).stdout
    return [line.split()[0] for line in out.splitlines()
            if line.startswith("  ") and not line.startswith("   ")]


def run(binary, workload, preset, ctas):
    with tempfile.TemporaryDirectory() as out:
        proc = subprocess.run([str(binary), "run", "--preset", preset, "--workload", workload,
                               "--set", f"cuobjdump.ctas={ctas}", "--set", f"dot.ctas={ctas}",
                               "--out", out, "--quiet"], capture_output=True, text=True)
        try:
            s = json.load(open(pathlib.Path(out) / "stats.json"))
            return (s["status"], s["cycles"], s["integrity"]["checked_reads"],
                    s["integrity"]["mismatches"], "")
        except (OSError, ValueError, KeyError):
            error = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            return ("rejected" if proc.returncode == 2 else "no-stats", "-", "-", "-", error)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*")
    parser.add_argument("--ctas", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--build", default="build")
    parser.add_argument("--limit", type=int, default=0, help="only the first K kernels")
    args = parser.parse_args()
    binary = root / args.build / "warpreg"
    names = kernels(binary)
    if args.limit:
        names = names[: args.limit]
    chosen = args.presets or presets(binary)
    jobs = [(w, p) for w in names for p in chosen]
    counts = {"ok": 0, "rejected": 0, "failed": 0}
    per_preset = {p: dict(counts) for p in chosen}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = pool.map(lambda job: (job, run(binary, job[0], job[1], args.ctas)), jobs)
        for (workload, preset), (status, cycles, checked, mismatches, error) in results:
            short = str(pathlib.Path(workload).relative_to(data)) if workload.startswith(
                str(data)) else workload
            outcome = ("ok" if status == "ok" and mismatches == 0 else
                       "rejected" if status == "rejected" else "failed")
            per_preset[preset][outcome] += 1
            counts[outcome] += 1
            line = f"{short} {preset} {status} {cycles} {checked} {mismatches}"
            print(line + (f"  # {error}" if error else ""), flush=True)
    print(f"\n{len(names)} kernels x {len(chosen)} presets = {len(jobs)} runs: "
          f"{counts['ok']} ok with zero mismatches, {counts['rejected']} rejected by the "
          f"preset, {counts['failed']} failed")
    for p, c in per_preset.items():
        print(f"  {p:24s} {c['ok']} ok, {c['rejected']} rejected, {c['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
