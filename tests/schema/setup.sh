#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# setup.sh SRC_DIR DEST_DIR: installs the pinned ajv and yaml packages (package.json +
# package-lock.json of SRC_DIR) into DEST_DIR/node_modules with `npm ci`, once
# per lockfile.  Exit 77 (ctest: skipped) when node or npm is missing.
set -euo pipefail
src=$1 dest=$2
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "SKIP: node/npm not installed (scripts/install-deps.sh installs nodejs); the ajv tests cannot run"
  exit 77
fi
mkdir -p "$dest"
if [ -d "$dest/node_modules/ajv" ] && cmp -s "$src/package-lock.json" "$dest/package-lock.json"; then
  echo "ajv already installed in $dest (lockfile unchanged)"
  exit 0
fi
cp "$src/package.json" "$src/package-lock.json" "$dest/"
cd "$dest"
npm ci --no-audit --no-fund --loglevel=error
node -e 'console.log("installed ajv", require("ajv/package.json").version, "ajv-formats", require("ajv-formats/package.json").version, "yaml", require("yaml/package.json").version)'
