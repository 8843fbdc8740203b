#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# tree.sh REUSE: every tracked source file has its SPDX line (scripts/
# licence-headers.sh) and `reuse lint` finds a licence and a copyright for
# every file of the repository (.reuse/dep5 covers data and goldens).
set -euo pipefail
reuse=$1
if ! git rev-parse --show-toplevel >/dev/null 2>&1; then
  echo "FAIL: not a git checkout; the licence check reads git ls-files"; exit 1
fi
bash scripts/licence-headers.sh
# reuse lints what git tracks, copied apart: build trees inside the source
# tree are not part of it.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files -z | xargs -0 cp --parents -t "$tmp"
out=$(cd "$tmp" && "$reuse" lint 2>&1) || { echo "$out"; echo "FAIL: reuse lint"; exit 1; }
echo "$out" | tail -n 12
if grep -q " - ERROR - " <<<"$out"; then echo "FAIL: reuse lint reported errors"; exit 1; fi
echo "$out" | grep -q "Congratulations" || { echo "FAIL: reuse lint did not say the tree is compliant"; exit 1; }
