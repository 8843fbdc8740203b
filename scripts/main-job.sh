#!/usr/bin/env bash
# The main job: set up a fresh Debian 12 machine, build contractc, generate
# the example contracts' code at build time and run the example programs on
# their replies.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2
for example in build/examples/*/; do
  for program in "$example"*_example; do
    [ -x "$program" ] || continue
    echo "==> $program"
    "$program"
    echo
  done
done
