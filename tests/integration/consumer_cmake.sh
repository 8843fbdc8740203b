#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# examples/consumer-cmake against the installed package: find_package,
# contractc_generate (with SCHEMA_DIALECT, SCHEMA_VAR, PROMPT_VAR), a run,
# regeneration when the contract or the generator changes and only then,
# and a version the package must refuse.
source "$(dirname "$0")/common.sh"
cp -r "$SRC/examples/consumer-cmake" "$WORK/src"
# A copy of the prefix, so touching its generator below leaves the other
# tests' generator alone.
cp -a "$PREFIX" "$WORK/prefix"
cmake_args=(-DCMAKE_PREFIX_PATH="$WORK/prefix" -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=Debug)
[ -z "$SAN" ] || cmake_args+=(-DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN")

cmake -S "$WORK/src" -B "$WORK/build" "${cmake_args[@]}" >"$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log" >&2; fail "consumer-cmake does not configure"; }
expect_contains "$WORK/configure.log" "schemas: $WORK/build/contractc/refund_request.openai-strict.schema.json; prompts: $WORK/build/contractc/refund_request.prompt.txt"
pass "find_package(contractc 0.1) and SCHEMA_VAR/PROMPT_VAR"

build() { cmake --build "$WORK/build" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "consumer-cmake does not build"; }; }
build
expect_contains "$WORK/build.log" "contractc: generating refund_request from refund_request.contract.yaml"
"$WORK/build/refund_app" >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "refund_app failed"; }
expect_contains "$WORK/run.log" '- $.amount: "1.250,00" is not a decimal like "1250.00"'
expect_contains "$WORK/run.log" "refund 1250.00 EUR"
for f in refund_request.h refund_request.c refund_request.schema.json refund_request.prompt.txt \
         refund_request.openai-strict.schema.json refund_request.openai-strict.notes.txt; do
  [ -f "$WORK/build/contractc/$f" ] || fail "contractc_generate did not write $f"
done
pass "built and ran refund_app (rejected 1.250,00, accepted 1250.00 EUR)"

# Nothing changed: nothing regenerated.
build
if grep -qF "contractc: generating" "$WORK/build.log"; then fail "a no-op rebuild regenerated the contract"; fi
pass "a no-op rebuild does not regenerate"

# The contract changes: regenerated, and the new prompt is in the program.
old_hash=$(grep -o 'sha256:[0-9a-f]*' "$WORK/build/contractc/refund_request.h" | head -1)
sed -i 's/Extract the order, the amount and the reason/Extract the order number, the amount and the reason/' \
  "$WORK/src/refund_request.contract.yaml"
build
expect_contains "$WORK/build.log" "contractc: generating refund_request"
expect_contains "$WORK/build/contractc/refund_request.prompt.txt" "Extract the order number,"
new_hash=$(grep -o 'sha256:[0-9a-f]*' "$WORK/build/contractc/refund_request.h" | head -1)
[ "$old_hash" != "$new_hash" ] || fail "the contract changed but the hash did not ($old_hash)"
"$WORK/build/refund_app" >"$WORK/run.log"
expect_contains "$WORK/run.log" "contract $new_hash"
pass "an edited contract is regenerated ($old_hash -> $new_hash)"

# The generator changes (a newer file): regenerated.
touch -d '+1 minute' "$WORK/prefix/bin/contractc"
build
expect_contains "$WORK/build.log" "contractc: generating refund_request"
pass "a changed generator binary regenerates"

# A version the package does not provide is refused at configure time.
mkdir -p "$WORK/toonew"
printf 'cmake_minimum_required(VERSION 3.21)\nproject(toonew NONE)\nfind_package(contractc 0.99 REQUIRED)\n' >"$WORK/toonew/CMakeLists.txt"
expect_fails "$WORK/toonew.log" cmake -S "$WORK/toonew" -B "$WORK/toonew/build" -DCMAKE_PREFIX_PATH="$PREFIX"
expect_contains "$WORK/toonew.log" "version: $VERSION"
pass "find_package(contractc 0.99) is refused by the $VERSION package"
