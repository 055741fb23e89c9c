#!/usr/bin/env bash
# Runs every shipped profile, every function-0 kernel of the nvdisasm CFGs and the
# Accel-Sim sample on each preset given, small (6 CTAs), and prints one line per run:
# workload preset status cycles checked-operands mismatches. Exit 1 if any run is not
# "ok" or has a mismatch.
# Usage: scripts/integrity_all.sh PRESET... (e.g. rfv rfv-shrink rfv-hw-only)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${WARPREG:-build/warpreg}
data=../shared/data
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
bad=0
workloads=$(ls stimuli/profiles | sed 's/\.json$//')
workloads+=" $(ls $data/nvdisasm-cfg/*.dot 2>/dev/null) $(ls $data/accelsim/*.traceg 2>/dev/null)"
for w in $workloads; do
  for p in "$@"; do
    "$bin" run --preset "$p" --workload "$w" --set profile.ctas=6 --set dot.ctas=6 \
      --out "$out/run" --quiet 2>/dev/null
    line=$(/usr/bin/python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print(s["status"], s["cycles"], s["integrity"]["checked_reads"], s["integrity"]["mismatches"])
' "$out/run/stats.json" 2>/dev/null) || line="no-stats - - -"
    echo "$(basename "$w") $p $line"
    case "$line" in "ok "*" 0") ;; *) bad=1 ;; esac
    rm -rf "$out/run"
  done
done
exit $bad
