#!/usr/bin/env python3
"""Shows that a change leaves simulated results untouched (docs/performance.md).

Runs two warpreg binaries (say, before and after a speed fix) on the same inputs and
compares what they simulated:
  * every shipped preset on each --workload, one `warpreg run --out` each: stats.json
    must be equal except for the provenance fields (command, revision, wall time);
  * every shipped experiment in its quick form (`warpreg experiment NAME --quick
    --no-plots`): results.csv must be byte-identical.
Both binaries read presets, profiles and experiments from this checkout
(WARPREG_DATA_DIR). Exit status 0 when everything matches, 1 otherwise.

Usage: scripts/results_identity.py BEFORE_BINARY AFTER_BINARY [--out DIR]
           [--workload W]... [--no-experiments] [--ignore-param P]...

--ignore-param P leaves parameter P out of both stats.json's "params" (for a change
that adds a parameter: the old binary does not list it).
"""
import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROVENANCE = {"command", "revision", "wall_time_s"}
DEFAULT_WORKLOADS = [
    "rfv-hotspot",
    "wrf-bfs",
    "real:rfv-hotspot",
    os.path.join(ROOT, "..", "shared", "data", "nvdisasm-cfg", "hotspot.dot"),
]


def without_provenance(value, ignored=()):
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k not in PROVENANCE}
        if isinstance(value.get("params"), dict):
            value["params"] = {k: v for k, v in value["params"].items() if k not in ignored}
        return {k: without_provenance(v, ignored) for k, v in value.items()}
    if isinstance(value, list):
        return [without_provenance(v, ignored) for v in value]
    return value


def run(binary, args, env):
    done = subprocess.run([binary] + args, env=env, capture_output=True, text=True)
    return done.returncode, (done.stderr.strip().splitlines() or [""])[0]


def names(folder, suffix):
    return sorted(f[: -len(suffix)] for f in os.listdir(folder) if f.endswith(suffix))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--out", help="folder for both runs (default: a temporary one)")
    parser.add_argument("--workload", action="append", help="repeatable; default: four")
    parser.add_argument("--no-experiments", action="store_true")
    parser.add_argument("--ignore-param", action="append", default=[],
                        help="repeatable: a parameter left out of stats.json's params")
    options = parser.parse_args()
    out = options.out or tempfile.mkdtemp(prefix="warpreg-identity-")
    env = dict(os.environ, WARPREG_DATA_DIR=ROOT)
    presets = names(os.path.join(ROOT, "platforms", "presets"), ".json")
    workloads = options.workload or DEFAULT_WORKLOADS
    mismatches = 0
    same = refused = 0
    for preset in presets:
        for index, workload in enumerate(workloads):
            label = f"{preset} on {os.path.basename(workload)}"
            results = []
            for side, binary in (("before", options.before), ("after", options.after)):
                folder = os.path.join(out, side, f"{preset}.w{index}")
                status, message = run(
                    binary,
                    ["run", "-q", "--preset", preset, "--workload", workload, "--out", folder],
                    env,
                )
                stats = os.path.join(folder, "stats.json")
                results.append(
                    (status, message,
                     without_provenance(json.load(open(stats)), set(options.ignore_param))
                     if os.path.exists(stats) else None)
                )
            (s1, m1, r1), (s2, m2, r2) = results
            if (s1, r1) != (s2, r2) or (r1 is None and m1 != m2):
                mismatches += 1
                print(f"DIFFERENT: {label} (exit {s1} / {s2})")
            elif r1 is None:
                refused += 1
            else:
                same += 1
    print(f"runs: {same} identical, {refused} refused alike by both, {mismatches} different")

    if not options.no_experiments:
        experiments = names(os.path.join(ROOT, "experiments"), ".json")
        equal = 0
        for name in experiments:
            files = []
            for side, binary in (("before", options.before), ("after", options.after)):
                folder = os.path.join(out, side, "experiments", name)
                run(binary, ["experiment", name, "--quick", "--no-plots", "--jobs", "1",
                             "--out", folder], env)
                files.append(os.path.join(folder, "results.csv"))
            if all(os.path.exists(f) for f in files) and filecmp.cmp(*files, shallow=False):
                equal += 1
            else:
                mismatches += 1
                print(f"DIFFERENT: experiment {name} results.csv")
        print(f"quick experiments: {equal} of {len(experiments)} results.csv byte-identical")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
