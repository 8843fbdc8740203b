#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every test on a fresh Debian 12 machine: installs what it needs, then
#   1. a gcc Release build (-O3, -Werror) and the whole ctest suite, so the
#      build type users pick first cannot regress; then the hardening stage
#      (scripts/test-hardening.sh: fuzz replays, valgrind, allocation failures);
#   2. a clang build (-Werror) of the portable code alone (no SSE2 paths,
#      CONTRACTC_SIMD=OFF) and the whole suite again;
#   3. an ASan + UBSan build and the whole suite (any report fails it);
#   4. the reader's tests in builds for SSSE3 and for x86-64-v3 (AVX2), where
#      this CPU runs them: the UTF-8 check has a path for each, compiled only
#      when the compiler targets it.
# Set CONTRACTC_QUICK=1 to run only the gcc Release suite (no hardening stage,
# no other builds).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh

# Every build here turns -Werror on (CONTRACTC_WERROR; off for users).
run_suite() { # NAME BUILD_TYPE CMAKE_ARGS...
  local name=$1 type=$2; shift 2
  echo "==> $name, $type ($(date -u +%H:%M:%S))"
  cmake -S . -B "build-test-$name" -DCMAKE_BUILD_TYPE="$type" -DCONTRACTC_WERROR=ON "$@" >/dev/null
  cmake --build "build-test-$name" -j2
  ctest --test-dir "build-test-$name" --output-on-failure -j2
}

# The reader's tests alone, with extra compiler flags (the SIMD level).
reader_suite() { # NAME C_FLAGS
  echo "==> $1 ($(date -u +%H:%M:%S))"
  cmake -S . -B "build-test-$1" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCONTRACTC_WERROR=ON -DCMAKE_C_COMPILER=clang \
        "-DCMAKE_C_FLAGS=$2" >/dev/null
  cmake --build "build-test-$1" -j2 --target test_reader
  ctest --test-dir "build-test-$1" -R '^test_reader$' --output-on-failure
}
has_cpu_flags() { # FLAG...: all in /proc/cpuinfo (x86-64 Linux)
  [ "$(uname -m)" = x86_64 ] || return 1
  for f in "$@"; do grep -qw "$f" /proc/cpuinfo || return 1; done
}

run_suite gcc Release -DCMAKE_C_COMPILER=gcc
if [ "${CONTRACTC_QUICK:-0}" != 1 ]; then
  bash scripts/test-hardening.sh
  run_suite clang RelWithDebInfo -DCMAKE_C_COMPILER=clang -DCONTRACTC_SIMD=OFF
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_suite sanitize Debug -DCMAKE_C_COMPILER=clang -DCONTRACTC_SANITIZE=ON
  if has_cpu_flags ssse3; then
    reader_suite ssse3 -mssse3
  else
    echo "==> ssse3: SKIPPED (this CPU has no SSSE3)"
  fi
  if has_cpu_flags avx2 bmi2 fma movbe; then
    reader_suite x86-64-v3 -march=x86-64-v3
  else
    echo "==> x86-64-v3: SKIPPED (this CPU has no AVX2)"
  fi
fi
