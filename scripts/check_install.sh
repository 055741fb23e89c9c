#!/usr/bin/env bash
# warpreg as a library, checked as a user would use it (docs/library.md):
#   1. build the libraries and the program in BUILD (default build/, reused),
#   2. install them to a temporary prefix,
#   3. configure, build and run every example against that prefix with
#      find_package(warpreg CONFIG), and compile the plain-cores example with
#      pkg-config (warpreg-cores, and warpreg: every layer),
#   4. run the installed program with the source tree out of reach of its data lookup,
#   5. build and run the plain-cores example in a parent project that
#      add_subdirectory()s the repository.
# Usage: scripts/check_install.sh [BUILD]   (KEEP=1 keeps the temporary folder)
set -euo pipefail
source_dir="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$source_dir/build}"
jobs="${JOBS:-$(nproc)}"
work="$(mktemp -d "${TMPDIR:-/tmp}/warpreg-install.XXXXXX")"
[[ "${KEEP:-0}" == 1 ]] || trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
step() { printf -- '-- %s\n' "$*"; }

step "build $build"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j"$jobs" >/dev/null

step "install to $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for file in include/warpreg/modules/bdi/bdi_core.h include/warpreg/platforms/sm/platform.h \
  lib/cmake/warpreg/warpregConfig.cmake lib/pkgconfig/warpreg.pc lib/pkgconfig/warpreg-cores.pc \
  lib/libwarpreg_cores.a bin/warpreg share/warpreg/platforms/presets/baseline.json \
  share/warpreg/power/tech/fermi40.json share/warpreg/experiments/rf-shrink.json \
  share/warpreg/scripts/plot_results.py; do
  [[ -e "$prefix/$file" ]] || { echo "not installed: $file"; exit 1; }
done
ls "$prefix"/lib/libwarpreg_cores.so* >/dev/null

example() {  # NAME PROGRAM ARGS...: configure, build and run an example
  local name="$1" program="$2"
  shift 2
  step "example $name"
  cmake -S "$source_dir/examples/$name" -B "$work/$name" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
  cmake --build "$work/$name" -j"$jobs" >/dev/null
  (cd "$work" && "$work/$name/$program" "$@")
}
example bdi-testbench bdi_testbench
example user-block user_block "$source_dir/examples/user-block/my_platform.json" \
  --set mystage.extra_cycles=2 --out "$work/user-block/stats.json"
grep -q '"mystage"' "$work/user-block/stats.json" || { echo "no mystage in stats.json"; exit 1; }
# A user block's keys are in the catalogue: a misspelt one is refused naming it.
if (cd "$work" && "$work/user-block/user_block" --set mystage.extra_cycle=2 2>"$work/typo.txt"); then
  echo "a misspelt user parameter was accepted"; exit 1
fi
grep -q "mystage.extra_cycle" "$work/typo.txt" || { cat "$work/typo.txt"; exit 1; }
example plain-cores plain_cores

step "pkg-config"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
for package in warpreg-cores warpreg; do
  # shellcheck disable=SC2046
  g++ -std=c++17 -O1 "$source_dir/examples/plain-cores/plain_cores.cpp" -o "$work/pc-$package" \
    $(pkg-config --cflags --libs "$package") -Wl,-rpath,"$prefix/lib"
  "$work/pc-$package" >/dev/null
  echo "plain_cores with pkg-config --cflags --libs $package: ok"
done
# The cores alone need no SystemC at all.
if objdump -p "$work/pc-warpreg-cores" | grep -q 'NEEDED.*libsystemc'; then
  echo "plain_cores built with warpreg-cores needs libsystemc"; exit 1
fi

step "installed program"
# Run from elsewhere, with the build's source tree hidden from the data lookup: a copy
# of the prefix under a new name must find its own data.
cp -a "$prefix" "$work/moved"
version="$(cd / && "$work/moved/bin/warpreg" --version)"
grep -q "data: $work/moved/share/warpreg" <<<"$version" || { echo "$version"; exit 1; }
(cd / && "$work/moved/bin/warpreg" run --preset wrf --set synth.ctas=4 --set synth.insts_per_warp=60 \
  --out "$work/run" >/dev/null)
grep -q '"status": "ok"' "$work/run/stats.json"
# An experiment: its spec, profiles and plotting script all come from the prefix.
(cd / && "$work/moved/bin/warpreg" experiment rfv-energy --quick --jobs "$jobs" \
  --out "$work/experiment" >/dev/null)
ls "$work/experiment"/figures/*.png >/dev/null
# The environment still overrides the data.
mkdir -p "$work/presets"
cp "$prefix/share/warpreg/platforms/presets/baseline.json" "$work/presets/only.json"
WARPREG_PRESETS="$work/presets" "$work/moved/bin/warpreg" presets | grep -q only ||
  { echo "WARPREG_PRESETS ignored"; exit 1; }
echo "installed program: finds its data (presets, experiments, scripts) under its prefix; WARPREG_PRESETS overrides it"

step "add_subdirectory"
mkdir -p "$work/parent"
cat >"$work/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.16)
project(parent LANGUAGES CXX)
add_subdirectory("$source_dir" warpreg)
add_executable(plain_cores "$source_dir/examples/plain-cores/plain_cores.cpp")
target_link_libraries(plain_cores PRIVATE warpreg::cores)
CMAKE
cmake -S "$work/parent" -B "$work/parent/build" "${launcher[@]}" >/dev/null
# Only what plain_cores needs (common, power, cores): about a minute on two cores.
cmake --build "$work/parent/build" -j"$jobs" --target plain_cores >/dev/null
"$work/parent/build/plain_cores" >/dev/null
echo "a parent project builds warpreg::cores with add_subdirectory(warpreg) and runs on it"

step "install check passed"
