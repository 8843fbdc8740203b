#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench-v2.sh [BUILD]: what a tagged union and a map cost against a plain
# object reading the same bytes (bench/README.md, "Unions and maps").  Runs
# BUILD/bench/bench_v2 once per pair under callgrind (only bench_pass
# counted, after a warm-up pass) and prints instructions per reply and per
# byte, and each twin's ratio.  BUILD defaults to build-bench-v2, a Release
# tree it configures and builds.  Needs valgrind (scripts/bench.sh installs
# it).  Instruction counts, not times: these machines are noisy.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench-v2}
if [ -z "${1:-}" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j2 --target bench_v2 >/dev/null
fi
command -v valgrind >/dev/null || { echo "bench-v2: valgrind is missing" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
declare -A per_byte
printf '| pair | contract | replies | bytes | instr/reply | instr/byte |\n| --- | --- | --: | --: | --: | --: |\n'
for pair in union union_plain union_mixed map map_plain; do
  valgrind --tool=callgrind --toggle-collect=bench_pass --callgrind-out-file="$tmp/cg.out" \
    "$build/bench/bench_v2" once "$pair" > "$tmp/kv.txt" 2> "$tmp/err.txt" ||
    { cat "$tmp/err.txt" >&2; exit 1; }
  ins=$(awk '/^(totals|summary):/ {print $2; exit}' "$tmp/cg.out")
  replies=$(sed -n 's/.*replies=\([0-9]*\).*/\1/p' "$tmp/kv.txt")
  bytes=$(sed -n 's/.*bytes=\([0-9]*\).*/\1/p' "$tmp/kv.txt")
  case $pair in
    union|union_mixed) contract=route_union ;;
    union_plain) contract=route_plain ;;
    map) contract=labels_map ;;
    map_plain) contract=labels_plain ;;
  esac
  per_byte[$pair]=$(awk -v i="$ins" -v b="$bytes" 'BEGIN {printf "%.3f", i / b}')
  awk -v p="$pair" -v c="$contract" -v r="$replies" -v b="$bytes" -v i="$ins" \
    'BEGIN {printf "| %s | %s | %d | %d | %.0f | %.3f |\n", p, c, r, b, i / r, i / b}'
done
echo
awk -v u="${per_byte[union]}" -v p="${per_byte[union_plain]}" -v m="${per_byte[map]}" \
    -v q="${per_byte[map_plain]}" 'BEGIN {
  printf "union / plain object, same bytes: %.3f (%+.1f %%)\n", u / p, (u / p - 1) * 100
  printf "map / plain object, same bytes:   %.3f (%+.1f %%)\n", m / q, (m / q - 1) * 100 }'
