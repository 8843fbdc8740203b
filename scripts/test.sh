#!/usr/bin/env bash
# Runs every test on a fresh Debian 12 machine: installs what it needs, then
#   1. a gcc build (-Werror) and the whole ctest suite;
#   2. a clang build (-Werror) of the portable code alone (no SSE2 paths,
#      CONTRACTC_SIMD=OFF) and the whole suite again;
#   3. an ASan + UBSan build and the whole suite (any report fails it).
# Set CONTRACTC_QUICK=1 to run only the first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

run_suite() { # NAME CMAKE_ARGS...
  local name=$1; shift
  echo "==> $name ($(date -u +%H:%M:%S))"
  cmake -S . -B "build-test-$name" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
  cmake --build "build-test-$name" -j2
  ctest --test-dir "build-test-$name" --output-on-failure -j2
}

run_suite gcc -DCMAKE_C_COMPILER=gcc
# Fuzz replay, valgrind and allocation-failure runs (issue: hardening).
if [ -f scripts/test-hardening.sh ]; then
  bash scripts/test-hardening.sh
fi
if [ "${CONTRACTC_QUICK:-0}" != 1 ]; then
  run_suite clang -DCMAKE_C_COMPILER=clang -DCONTRACTC_SIMD=OFF
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite sanitize -DCMAKE_C_COMPILER=clang -DCONTRACTC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
fi
