#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh SRC_DIR DEST_DIR: installs node-llama-cpp 3.21.1 and its CPU
# binary @node-llama-cpp/linux-x64 (package.json + package-lock.json of
# SRC_DIR; no CUDA or Vulkan builds: --omit=optional, no install scripts)
# into DEST_DIR/node_modules with `npm ci`, once per lockfile.  Exit 77
# (ctest: skipped) when node (20 or later) or npm is missing, or the host
# is not linux-x64 (the only binary the lockfile pins).
set -euo pipefail
src=$1 dest=$2
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "SKIP: node/npm not installed (scripts/install-deps.sh installs nodejs); the llama.cpp grammar tests cannot run"
  exit 77
fi
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 20 ]; then
  echo "SKIP: node $(node --version) is older than 20, which node-llama-cpp 3.21.1 needs; the llama.cpp grammar tests cannot run"
  exit 77
fi
if [ "$(node -p 'process.platform + "-" + process.arch')" != linux-x64 ]; then
  echo "SKIP: the lockfile pins llama.cpp's linux-x64 CPU binary only; the llama.cpp grammar tests cannot run here"
  exit 77
fi
mkdir -p "$dest"
if [ -d "$dest/node_modules/@node-llama-cpp/linux-x64" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  echo "node-llama-cpp already installed in $dest (lockfile unchanged)"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest"
npm ci --omit=optional --ignore-scripts --no-audit --no-fund --loglevel=error
node -e 'const fs = require("fs"); const v = (p) => JSON.parse(fs.readFileSync("node_modules/" + p + "/package.json", "utf8")).version; console.log("installed node-llama-cpp", v("node-llama-cpp"), "and @node-llama-cpp/linux-x64", v("@node-llama-cpp/linux-x64"))'
