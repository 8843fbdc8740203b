#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: set up a fresh Debian 12 machine, build contractc, generate
# the example contracts' code at build time and run the example programs on
# their replies.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2
bash scripts/run-examples.sh build
# The loop example's decision log, summarised per contract hash, path and day.
log=build/examples/refund/refund-decisions.log
if [ -f "$log" ]; then
  echo "==> build/generator/contractc stats $log"
  build/generator/contractc stats "$log"
fi
