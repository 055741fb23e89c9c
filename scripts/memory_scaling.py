#!/usr/bin/env python3
"""The memory-bound scaling figure of docs/memory.md: a streaming kernel on 1, 2, 4, 8
and 15 SMs of the gpu preset, one run at a time. Prints a Markdown table.

    python3 scripts/memory_scaling.py [--warpreg build/warpreg] [--ctas 1500]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

KERNEL = "../shared/data/cuobjdump/henryzh-GPU_benchmark/other-vecadd/_cuobjdump_1.sass"
SMS = [1, 2, 4, 8, 15]


def run(warpreg, sms, ctas, out):
    cmd = [warpreg, "run", "-q", "--preset", "gpu", "-w", KERNEL, "-o", out,
           "--set", "gpu.sms=%d" % sms, "--set", "cuobjdump.ctas=%d" % ctas]
    subprocess.run(cmd, check=True)
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warpreg", default="build/warpreg")
    ap.add_argument("--ctas", type=int, default=1500)
    args = ap.parse_args()
    print("| SMs | cycles | IPC | IPC per SM | DRAM GB/s | of peak | DRAM bytes read | "
          "= loads x 128 B | L1 requests | = memory instructions | bound cycles | mismatches |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: | :---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for sms in SMS:
            s = run(args.warpreg, sms, args.ctas, os.path.join(tmp, str(sms)))
            if s["status"] != "ok":
                sys.exit("gpu.sms=%d: %s" % (sms, s.get("error")))
            mem = s["memory"]
            lsu = mem["load_store_unit"]
            blocks = mem["blocks"]
            read = sum(b.get("bytes_read", 0) for b in blocks.values())
            written = sum(b.get("bytes_written", 0) for b in blocks.values())
            dram = s["gpu"]["dram"] if sms > 1 else None
            clock_hz = s["params"]["sim.clock_mhz"] * 1e6 if "sim.clock_mhz" in s["params"] else 1.4e9
            seconds = s["cycles"] / clock_hz
            gbps = (read + written) / seconds / 1e9
            peak = 177.408
            # The DRAM bound: every byte the channels moved, at their peak.
            bound = (read + written) / (peak * 1e9) * clock_hz
            print("| %d | %d | %.3f | %.3f | %.1f | %.1f %% | %d | %s | %d | %s | %.0f | %d |" % (
                sms, s["cycles"], s["ipc"], s["ipc"] / sms, gbps, 100 * gbps / peak, read,
                "yes" if read == mem["loads"] * 128 else "no (%d)" % (mem["loads"] * 128),
                lsu["requests"], "yes" if lsu["requests"] == lsu["instructions"] else "no",
                bound, s["integrity"]["mismatches"]))
            if dram is not None and abs(dram["bandwidth_gbps"] - gbps) > 1e-6 * gbps:
                sys.exit("gpu.dram.bandwidth_gbps disagrees with the blocks' bytes")


if __name__ == "__main__":
    main()
