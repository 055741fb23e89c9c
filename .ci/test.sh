#!/usr/bin/env bash
# Installs warpreg's build dependencies (skipped when already present), then
# builds and runs every test twice: a Release build in build/ and an
# AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/. Between the two,
# quick experiments run end to end and must produce their figures.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libsystemc-dev catch2 libboost-program-options-dev
  nlohmann-json3-dev zlib1g-dev parallel python3-matplotlib verilator
  clang libclang-rt-14-dev  # clang and libFuzzer: the fuzz smoke runs (docs/reliability.md)
  valgrind)                 # bench --callgrind and its test (docs/performance.md)
if ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi

jobs="$(nproc)"
stage() { printf '\n== %s (%ds elapsed)\n' "$1" "$SECONDS"; }

stage "Release build"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DWARPREG_TESTS=ON >/dev/null
cmake --build build -j"$jobs"
stage "Release tests"
ctest --test-dir build --output-on-failure -j"$jobs"

stage "Install and examples"
# Installs build/ to a temporary prefix, then builds and runs examples/ against it with
# find_package and pkg-config (docs/library.md).
scripts/check_install.sh build

stage "Quick experiments"
# One per design beside the register-file size study: each must end with every point
# finished, a results.csv and its figures.
for experiment in rf-shrink rfv-energy wc-benchmarks wrf-savings; do
  dir="build/experiment-quick/$experiment"
  rm -rf "$dir"
  ./build/warpreg experiment "$experiment" --quick --out "$dir" >/dev/null
  test -s "$dir/results.csv" || { echo "missing or empty: $dir/results.csv"; exit 1; }
  ls "$dir"/figures/*.png "$dir"/figures/*.svg >/dev/null ||
    { echo "no figures in $dir/figures"; exit 1; }
  echo "$experiment: $(($(wc -l <"$dir/results.csv") - 1)) points, $(ls "$dir"/figures/*.png | wc -l) figures"
done

stage "Design pairs"
# Every design alone and every pair on two real kernels: ok, zero integrity mismatches,
# the refused pairs refused (docs/composition.md has the full matrix).
python3 scripts/composition_matrix.py --check --kernels hotspot LPS >/dev/null

stage "Fidelity report (quick)"
# Issue 17's report in its quick form (seconds): every row, written to the build folder
# (the full run writes docs/fidelity.md).
./build/warpreg experiment fidelity --quick --out build/fidelity-quick >/dev/null
test -s build/fidelity-quick/fidelity.csv || { echo "missing: build/fidelity-quick/fidelity.csv"; exit 1; }
echo "fidelity: $(($(wc -l <build/fidelity-quick/fidelity.csv) - 1)) rows"

stage "Sanitizer build"
# -O1 -g1: half the compile time of -O2 -g, and still line numbers in sanitizer reports.
# Static libraries only: the Release build and the install check cover the shared ones.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  -DWARPREG_SANITIZE=ON -DWARPREG_TESTS=ON -DWARPREG_SHARED_LIBS=OFF >/dev/null
cmake --build build-asan -j"$jobs"
stage "Sanitizer tests"
ctest --test-dir build-asan --output-on-failure -j"$jobs"

stage "Fuzz smoke runs"
# Every reader's libFuzzer harness, 2000 executions each from the shared seed corpora.
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  -DCMAKE_CXX_COMPILER=clang++ -DWARPREG_FUZZ=ON -DWARPREG_TESTS=OFF -DWARPREG_WERROR=OFF \
  -DWARPREG_RTL=OFF >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzzers
fuzz/smoke.sh build-fuzz

stage "All tests passed"
