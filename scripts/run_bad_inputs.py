#!/usr/bin/env python3
"""Runs every case of testbenches/data/bad/manifest.tsv through the warpreg binary.

Each case must exit with the expected code, print "warpreg: error: PREFIX..." (or
"warpreg: warning: PREFIX..." for exit 0) as the first line of standard error, stay under
the memory limit (RLIMIT_AS) and the time limit, keep the message under 1000
characters, and leave no file in its output folder.
Usage: run_bad_inputs.py WARPREG_BINARY BAD_DIR [--mem-mib N] [--seconds S]
"""
import argparse
import os
import resource
import shlex
import subprocess
import sys
import tempfile


# Quoted input is cut, so no message grows with the input.
MAX_MESSAGE = 1000


def limit(mem_bytes):
    def apply():
        if mem_bytes:  # 0: no limit (a sanitizer build)
            resource.setrlimit(resource.RLIMIT_AS, (mem_bytes, mem_bytes))
    return apply


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("bad_dir")
    ap.add_argument("--mem-mib", type=int, default=1024, help="0 for no limit")
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    bad_dir = os.path.abspath(args.bad_dir)
    failures = 0
    cases = 0
    with open(os.path.join(bad_dir, "manifest.tsv"), encoding="utf-8") as manifest:
        for number, line in enumerate(manifest, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 5:
                print(f"manifest.tsv:{number}: expected 5 tab-separated fields")
                return 2
            name, code, env_text, command, prefix = fields
            cases += 1
            with tempfile.TemporaryDirectory(prefix="warpreg_bad_") as tmp:
                out = os.path.join(tmp, "out")
                argv = [binary] + shlex.split(command.replace("{out}", out))
                env = dict(os.environ)
                for assignment in shlex.split(env_text) if env_text != "-" else []:
                    key, value = assignment.split("=", 1)
                    env[key] = value  # relative to the folder the case runs in
                try:
                    done = subprocess.run(argv, cwd=bad_dir, env=env, capture_output=True,
                                          timeout=args.seconds,
                                          preexec_fn=limit(args.mem_mib << 20))
                except subprocess.TimeoutExpired:
                    print(f"FAIL {name}: still running after {args.seconds} s")
                    failures += 1
                    continue
                err = done.stderr.decode("utf-8", "replace")
                first = err.splitlines()[0] if err else ""
                kind = "warning" if int(code) == 0 else "error"
                want = f"warpreg: {kind}: {prefix}"
                problems = []
                if done.returncode != int(code):
                    problems.append(f"exit {done.returncode}, expected {code}")
                if not first.startswith(want):
                    problems.append(f"stderr starts {first[:300]!r}, expected {want!r}")
                if len(first) > MAX_MESSAGE:
                    problems.append(f"a message of {len(first)} characters")
                if int(code) != 0 and os.path.exists(out) and any(
                        files for _, _, files in os.walk(out)):
                    problems.append("left files in its output folder")
                if problems:
                    failures += 1
                    print(f"FAIL {name}: " + "; ".join(problems))
                else:
                    print(f"ok   {name}")
    print(f"{cases - failures} of {cases} hostile inputs handled as expected")
    return 1 if failures or cases == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
