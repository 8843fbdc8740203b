#!/usr/bin/env bash
# The benchmark (issue 8) in one command, on Debian 12: installs what it
# needs (libsimdjson-dev, g++, valgrind, node + npm, python3), builds a
# Release tree with the simdjson runner, installs ajv from bench/'s lockfile
# and runs bench/run.py: corpora, agreement check, interleaved timing,
# callgrind, memory, scaling.  Extra arguments go to run.py
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
exec python3 "$root/bench/run.py" --build "$build" --out "$build/corpora" "$@"
