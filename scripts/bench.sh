#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The benchmark (bench/README.md) in one command, on Debian 12: installs what it
# needs (libsimdjson-dev, g++, valgrind, node + npm, python3), builds a
# Release tree with the simdjson runner, installs ajv from bench/'s lockfile
# and runs bench/run.py: corpora, agreement check, interleaved timing,
# callgrind, memory, scaling; where the CPU has AVX2, also a second build for
# x86-64-v3, timed beside the first.  Extra arguments go to run.py
# (e.g. --rounds 9 --seconds 0.5).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/install-deps.sh"
packages=(libsimdjson-dev g++ valgrind nodejs npm python3)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
  # nodejs may come from elsewhere (nodesource, nvm): keep it when `node` works.
  if command -v node >/dev/null && command -v npm >/dev/null; then
    missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
  fi
  filtered=()
  for p in "${missing[@]}"; do [ -n "$p" ] && filtered+=("$p"); done
  if [ ${#filtered[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    $SUDO apt-get install -y -qq --no-install-recommends "${filtered[@]}"
  fi
fi
(cd "$root/bench" && npm ci --no-audit --no-fund --loglevel=error)
build="$root/build-bench"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS=-g \
      -DCONTRACTC_BENCH=ON -DCONTRACTC_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)" --target bench_c bench_gen_corpus bench_simdjson
# The same parser for x86-64-v3 (AVX2, BMI2, FMA, MOVBE: any x86 since 2013 or
# so), where this CPU runs it: the runtime's SIMD paths are chosen when it is
# compiled, and a default Debian build targets plain x86-64 (SSE2).
v3=()
if [ "$(uname -m)" = x86_64 ] &&
   grep -qw avx2 /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo &&
   grep -qw fma /proc/cpuinfo && grep -qw movbe /proc/cpuinfo; then
  build_v3="$root/build-bench-v3"
  cmake -S "$root" -B "$build_v3" -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS=-g -march=x86-64-v3" \
        -DCONTRACTC_BENCH=ON -DCONTRACTC_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build_v3" -j"$(nproc)" --target bench_c
  v3=(--v3-build "$build_v3")
fi
exec python3 "$root/bench/run.py" --build "$build" --out "$build/corpora" "${v3[@]}" "$@"
