#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-node.sh SCRIPT ARGS...: runs a node test script, or skips loudly
# (exit 77, ctest's SKIP_RETURN_CODE) when node or the ajv install is absent.
set -euo pipefail
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (scripts/install-deps.sh installs nodejs); test not run"
  exit 77
fi
exec node "$@"
