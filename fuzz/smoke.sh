#!/usr/bin/env bash
# Runs every libFuzzer harness of build-fuzz/ for a short fixed number of executions
# (RUNS, default 2000) from seed corpora taken at run time: the shared real inputs beside
# the checkout (../shared/data) and the repository's own examples. A crash, a leak, a
# timeout or an undocumented exception fails the script. Longer runs: docs/reliability.md.
# Usage: fuzz/smoke.sh [BUILD_DIR] (configure it as .ci/test.sh does)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-fuzz}"
runs="${RUNS:-2000}"
shared="../shared/data"
work="$(mktemp -d /tmp/warpreg-fuzz-smoke-XXXXXX)"
artifacts="$build/fuzz/artifacts"  # a failing input is kept here
mkdir -p "$artifacts"
trap 'rm -rf "$work"' EXIT

# Harness name, then its seed files (globs; missing ones are skipped).
seeds() {
  case "$1" in
    text_trace) ls testbenches/data/*.trace ;;
    traceg) ls "$shared"/accelsim/*.traceg testbenches/data/*.traceg ;;
    kernelslist) ls "$shared"/accelsim/kernelslist.g ;;
    dot) ls "$shared"/nvdisasm-cfg/*.dot ;;
    cuobjdump | sass) find "$shared"/cuobjdump -name '*.sass' | sort | head -20 ;;
    profile) ls stimuli/profiles/*.json ;;
    preset) ls platforms/presets/*.json ;;
    tech_table) ls power/tech/*.json ;;
    sweep_spec | experiment_spec) ls experiments/*.json ;;
  esac 2>/dev/null || true
}

status=0
for harness in text_trace traceg kernelslist dot cuobjdump sass profile preset tech_table \
  sweep_spec experiment_spec; do
  binary="$build/fuzz/fuzz_$harness"
  [ -x "$binary" ] || { echo "missing $binary (build the 'fuzzers' target)"; exit 2; }
  corpus="$work/$harness"
  mkdir -p "$corpus"
  n=0
  while IFS= read -r seed; do
    [ -f "$seed" ] && cp "$seed" "$corpus/seed-$((n++))"
  done < <(seeds "$harness")
  log="$work/$harness.log"
  start=$SECONDS
  # -max_len bounds the mutations, not the seeds' coverage: a seed is read whole at first.
  if "$binary" -runs="$runs" -max_len=65536 -timeout=20 -rss_limit_mb=2048 -seed=1 \
    -artifact_prefix="$artifacts/$harness-" "$corpus" >"$log" 2>&1; then
    echo "fuzz_$harness: $n seeds, $(grep -o 'Done [0-9]* runs' "$log" | head -1), \
$(grep -o 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1), $((SECONDS - start)) s"
  else
    status=1
    echo "fuzz_$harness: FAILED (log follows)"
    tail -40 "$log"
    ls "$artifacts/$harness"-* 2>/dev/null || true
  fi
done
exit "$status"
