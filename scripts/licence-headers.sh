#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Every tracked source file starts with an SPDX licence line (after
# a "#!" line where there is one).  Data, goldens, corpora and prose are
# covered by .reuse/dep5 instead, because a comment would change their bytes.
#
#   bash scripts/licence-headers.sh          list files without the line; exit 1 if any
#   bash scripts/licence-headers.sh --add    add the MIT line where it is missing
#
# Run from anywhere inside the repository; reads `git ls-files`.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
add=0
[ "${1:-}" = "--add" ] && add=1

# comment_style FILE -> "c" (/* */), "hash" (#) or "" (not a source file).
comment_style() {
  case "$1" in
    tests/golden/*|examples/consumer-make/refund_request.[ch]) echo "" ;;  # generated: MIT-0 banner
    examples/*/data/*|tests/data/*|fuzz/regressions/*) echo "" ;;  # data (a source text to quote, replies)
    *.c|*.h|*.cpp|*.js|*.mjs|*.map) echo c ;;
    *.sh|*.py|*.cmake|*/CMakeLists.txt|CMakeLists.txt|*/Makefile|*.pc.in|*.cmake.in|*.gitignore|.ci/run) echo hash ;;
    *) echo "" ;;
  esac
}

# The tag in two parts, so licence scanners do not read this script's
# patterns as its own licence.
tag='SPDX-License''-Identifier'
missing=0
while IFS= read -r f; do
  style=$(comment_style "$f")
  [ -n "$style" ] || continue
  if head -n 3 "$f" | grep -q "$tag:"; then continue; fi
  if [ "$add" = 0 ]; then
    echo "no $tag line in the first 3 lines: $f"
    missing=$((missing + 1))
    continue
  fi
  if [ "$style" = c ]; then line="/* $tag: MIT */"; else line="# $tag: MIT"; fi
  tmp=$(mktemp)
  if head -n 1 "$f" | grep -q '^#!'; then
    { head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } > "$tmp"
  else
    { echo "$line"; cat "$f"; } > "$tmp"
  fi
  chmod --reference="$f" "$tmp"; mv "$tmp" "$f"
  echo "added: $f"
done < <(git ls-files)
if [ "$add" = 0 ]; then
  echo "licence-headers: $missing file(s) without an SPDX line"
  [ "$missing" = 0 ]
fi
