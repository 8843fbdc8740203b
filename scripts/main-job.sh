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
# The loop examples' decision logs, summarised per contract hash, path and
# day: the refund loop's, and the agent's (one decision per tool call step).
for log in build/examples/refund/refund-decisions.log build/examples/agent/agent-decisions.log; do
  if [ -f "$log" ]; then
    echo
    echo "==> build/generator/contractc stats $log"
    build/generator/contractc stats "$log"
  fi
done
