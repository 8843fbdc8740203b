#!/usr/bin/env bash
# Regenerates the golden files under tests/golden/ from the example and test
# contracts with a freshly built contractc.  Read the diff before committing:
# golden files are reviewed by reading them (git diff tests/golden).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2 --target contractc >/dev/null
while read -r name contract; do
  [ -z "$name" ] || [ "${name#\#}" != "$name" ] && continue
  mkdir -p "tests/golden/$name"
  ./build/generator/contractc generate "$contract" -o "tests/golden/$name"
  echo "tests/golden/$name <- $contract"
done < tests/golden/contracts.txt
git --no-pager diff --stat -- tests/golden || true
