#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-node.sh NODE_DIR SCRIPT ARGS...: runs a node test script of
# tests/gbnf, or skips loudly (exit 77, ctest's SKIP_RETURN_CODE) when node
# or the node-llama-cpp install in NODE_DIR is absent (setup.sh said why).
set -euo pipefail
dir=$1
shift
if ! command -v node >/dev/null; then
  echo "SKIP: node is not installed (scripts/install-deps.sh installs nodejs); test not run"
  exit 77
fi
if [ ! -d "$dir/node_modules/@node-llama-cpp/linux-x64" ]; then
  echo "SKIP: node-llama-cpp is not installed in $dir (see gbnf_node_setup); test not run"
  exit 77
fi
exec node "$@"
