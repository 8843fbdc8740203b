#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Work on the bad inputs of nested_bad_input.h (deep, wide and long
# replies), counted in instructions, not time:
# callgrind runs nested_bad_input on each kind at two sizes, N and 2N,
# counting only the instructions inside contractc_parse (the reply is built
# outside it), and prints the ratio.  Linear work gives x2 (accepted within
# [1.8, 2.2]); deep-nesting stops at max_depth, so its work must not grow
# (at most x1.2).  Exit 77 (ctest: skipped) when valgrind is absent.
#
#   usage: bench_nested.sh PATH/TO/nested_bad_input [N_BYTES]   (default 1 MiB)
set -euo pipefail
prog=$1
n=${2:-1048576}
if ! command -v valgrind >/dev/null; then
  echo "bench_nested: SKIPPED: valgrind is not installed (scripts/install-deps.sh installs it)"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

instructions() { # KIND BYTES -> Ir inside contractc_parse
  local out=$tmp/cg.$1.$2
  valgrind --tool=callgrind --toggle-collect=contractc_parse --callgrind-out-file="$out" \
    "$prog" "$1" "$2" >"$tmp/stdout" 2>"$tmp/stderr" || { cat "$tmp/stderr" >&2; return 1; }
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out"
}

fail=0
printf '%-13s %12s %14s %14s %7s\n' kind "N bytes" "Ir(N)" "Ir(2N)" ratio
for kind in wide-nesting many-keys many-numbers long-string deep-nesting; do
  a=$(instructions "$kind" "$n")
  b=$(instructions "$kind" $((2 * n)))
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", b / a }')
  printf '%-13s %12d %14d %14d %7s\n' "$kind" "$n" "$a" "$b" "$ratio"
  if [ "$kind" = deep-nesting ]; then
    ok=$(awk -v r="$ratio" 'BEGIN { print (r <= 1.2) ? 1 : 0 }')
  else
    ok=$(awk -v r="$ratio" 'BEGIN { print (r >= 1.8 && r <= 2.2) ? 1 : 0 }')
  fi
  if [ "$ok" != 1 ]; then
    echo "bench_nested: $kind: work grew x$ratio from N to 2N" >&2
    fail=1
  fi
done
exit $fail
