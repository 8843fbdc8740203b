#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
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
  # The provider dialects (docs/dialects.md): NAME.D.schema.json and NAME.D.notes.txt
  # for each D.  Generated apart, because asking for dialects also embeds
  # them in NAME.c, and the golden NAME.c is the plain one.  A dialect the
  # contract exceeds is refused (its diagnostic is shown) and has no golden.
  tmp=$(mktemp -d)
  ./build/generator/contractc generate "$contract" -o "$tmp" --schema-dialect openai-strict \
    --schema-dialect gemini --schema-dialect anthropic --schema-dialect llama-cpp >/dev/null || true
  rm -f "tests/golden/$name/$name".*.schema.json "tests/golden/$name/$name".*.notes.txt
  cp "$tmp/$name".*.schema.json "$tmp/$name".*.notes.txt "tests/golden/$name/" 2>/dev/null || true
  rm -rf "$tmp"
  # The tool definitions (docs/tools.md): NAME.D.tool.json and
  # NAME.D.tool.notes.txt for each D, apart for the same reason (after the
  # dialects: their rm above also matches NAME.D.tool.notes.txt).
  tmp=$(mktemp -d)
  ./build/generator/contractc generate "$contract" -o "$tmp" --tool openai --tool anthropic \
    --tool gemini --tool mcp >/dev/null || true
  rm -f "tests/golden/$name/$name".*.tool.json "tests/golden/$name/$name".*.tool.notes.txt
  cp "$tmp/$name".*.tool.json "$tmp/$name".*.tool.notes.txt "tests/golden/$name/" 2>/dev/null || true
  rm -rf "$tmp"
  # NAME.gbnf and its notes (docs/grammar.md), also generated apart: asking
  # for them embeds NAME_gbnf[] in NAME.c
  tmp=$(mktemp -d)
  ./build/generator/contractc generate "$contract" -o "$tmp" --grammar gbnf >/dev/null
  cp "$tmp/$name.gbnf" "$tmp/$name.gbnf.notes.txt" "tests/golden/$name/"
  rm -rf "$tmp"
  echo "tests/golden/$name <- $contract"
done < tests/golden/contracts.txt
git --no-pager diff --stat -- tests/golden || true
