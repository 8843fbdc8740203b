#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The version stamp between generated code and the runtime fails at compile
# time, both ways, saying what to do: generated code newer than the runtime
# header ("update the runtime"), and a runtime that no longer accepts code
# that old ("regenerate it with contractc generate FILE -o DIR").  The
# runtime header is patched in a copy; the generated files are fresh from the
# installed generator, the program is examples/consumer-make/app.c.
source "$(dirname "$0")/common.sh"
hdr="$SRC/runtime/include/contractc/contractc.h"
abi=$(sed -n 's/^#define CONTRACTC_ABI_VERSION \([0-9]*\)$/\1/p' "$hdr")
mkdir -p "$WORK/gen"
"$CONTRACTC" generate "$SRC/examples/consumer-make/refund_request.contract.yaml" -o "$WORK/gen" >/dev/null
cp "$SRC/examples/consumer-make/app.c" "$WORK/gen/"
gen_abi=$(sed -n 's/^#if !defined(CONTRACTC_ABI_VERSION) || CONTRACTC_ABI_VERSION < \([0-9]*\)$/\1/p' \
  "$WORK/gen/refund_request.h")
min=$(sed -n 's/^#define CONTRACTC_ABI_MIN_GENERATED \([0-9]*\)$/\1/p' "$hdr")
# A contract is generated for the oldest ABI that holds it (a v1 contract:
# 1), within what this header accepts.
[ -n "$abi" ] && [ -n "$min" ] && [ -n "$gen_abi" ] && [ "$gen_abi" -ge "$min" ] &&
  [ "$gen_abi" -le "$abi" ] || fail "header ABI '$abi' (oldest accepted '$min'), generated code ABI '$gen_abi'"

# runtime_copy NAME ABI MIN: a copy of the header with its stamps set.
runtime_copy() {
  mkdir -p "$WORK/$1/contractc"
  sed -e "s/^#define CONTRACTC_ABI_VERSION .*/#define CONTRACTC_ABI_VERSION $2/" \
      -e "s/^#define CONTRACTC_ABI_MIN_GENERATED .*/#define CONTRACTC_ABI_MIN_GENERATED $3/" \
      "$hdr" >"$WORK/$1/contractc/contractc.h"
  grep -q "^#define CONTRACTC_ABI_VERSION $2\$" "$WORK/$1/contractc/contractc.h" || fail "patching the header failed"
}
compile() { # INCLUDE_DIR FILE: compile a generated file against that header
  "$CC" -std=c99 -fsyntax-only -I"$WORK/$1" "$WORK/gen/$2"
}

runtime_copy same "$abi" "$min"
for f in refund_request.c app.c; do
  compile same $f >"$WORK/same.log" 2>&1 || { cat "$WORK/same.log" >&2; fail "$f does not compile against this header"; }
done
pass "generated ABI $gen_abi and runtime ABI $abi (oldest accepted $min): compiles"
abi=$gen_abi # below: runtimes around the generated code's ABI

runtime_copy older $((abi - 1)) $((abi - 1))
for f in refund_request.c app.c; do
  expect_fails "$WORK/older.log" compile older $f
  expect_contains "$WORK/older.log" "refund_request.h needs a newer contractc runtime (descriptor ABI $abi): update the runtime"
done
pass "generated code newer than the runtime: #error ... update the runtime"

runtime_copy newer $((abi + 1)) $((abi + 1))
for f in refund_request.c app.c; do
  expect_fails "$WORK/newer.log" compile newer $f
  expect_contains "$WORK/newer.log" "refund_request.h is older than this contractc runtime: regenerate it with contractc generate refund_request.contract.yaml -o DIR"
done
pass "a runtime that dropped ABI $abi: #error ... regenerate it with contractc generate refund_request.contract.yaml -o DIR"

# A newer runtime that still accepts ABI $abi compiles the old code.
runtime_copy compatible $((abi + 1)) "$abi"
compile compatible refund_request.c >"$WORK/compatible.log" 2>&1 || { cat "$WORK/compatible.log" >&2; fail "a runtime still accepting ABI $abi refused it"; }
pass "a runtime of ABI $((abi + 1)) accepting $abi: compiles"
