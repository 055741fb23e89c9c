#!/usr/bin/env bash
# Installs warpreg's build dependencies (skipped when already present), then
# builds and runs every test twice: a Release build in build/ and an
# AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/. Between the two,
# the quick experiment runs end to end and must produce its figures.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libsystemc-dev catch2 libboost-program-options-dev
  nlohmann-json3-dev parallel python3-matplotlib)
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

stage "Quick experiment"
rm -rf build/experiment-quick
./build/warpreg experiment rf-shrink --quick --out build/experiment-quick
for f in results.csv figures/rf-energy-vs-size.png figures/rf-energy-vs-size.svg; do
  test -s "build/experiment-quick/$f" || { echo "missing or empty: build/experiment-quick/$f"; exit 1; }
done

stage "Sanitizer build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPREG_SANITIZE=ON \
  -DWARPREG_TESTS=ON >/dev/null
cmake --build build-asan -j"$jobs"
stage "Sanitizer tests"
ctest --test-dir build-asan --output-on-failure -j"$jobs"

stage "All tests passed"
