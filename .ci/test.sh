#!/usr/bin/env bash
# Installs warpreg's build dependencies (skipped when already present), then
# builds and runs every test twice: a Release build in build/ and an
# AddressSanitizer + UndefinedBehaviorSanitizer build in build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libsystemc-dev catch2 libboost-program-options-dev
  nlohmann-json3-dev)
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

stage "Sanitizer build"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPREG_SANITIZE=ON \
  -DWARPREG_TESTS=ON >/dev/null
cmake --build build-asan -j"$jobs"
stage "Sanitizer tests"
ctest --test-dir build-asan --output-on-failure -j"$jobs"

stage "All tests passed"
