#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# examples/consumer-make: a Makefile with pkg-config and committed generated
# files.  `make check` passes on the committed files, builds against the
# installed shared runtime and runs; a drift (an edited contract, a
# hand-edited generated file) makes `make check` fail, naming the files.
source "$(dirname "$0")/common.sh"
libdir=$(cd "$PREFIX" && ls -d lib*/ | head -1); libdir=${libdir%/}
fresh_copy() { cp -r "$SRC/examples/consumer-make" "$WORK/$1"; rm -f "$WORK/$1"/*.o "$WORK/$1/refund_app"; }
fresh_copy src
mk() { local dir=$1; shift
  make -C "$dir" CC="$CC" CONTRACTC="$CONTRACTC" PKG_CONFIG_PATH="$PREFIX/$libdir/pkgconfig" \
          CFLAGS="-O1 -g -Wall -Wextra -Wpedantic -Werror $SAN" LDFLAGS="$SAN" "$@"; }

if ! mk "$WORK/src" check >"$WORK/check.log" 2>&1; then
  cat "$WORK/check.log" >&2
  if grep -qF "differs from" "$WORK/check.log"; then
    fail "the committed files of examples/consumer-make drifted from the generator: run" \
         "make -C examples/consumer-make generate CONTRACTC=BUILD/generator/contractc and review the diff"
  fi
  fail "make check failed in examples/consumer-make"
fi
expect_contains "$WORK/check.log" "generate --check refund_request.contract.yaml -o ."
expect_contains "$WORK/check.log" "refund 1250.00 EUR"
readelf -d "$WORK/src/refund_app" | grep -q 'NEEDED.*libcontractc_runtime\.so' \
  || fail "refund_app is not linked against the shared runtime"
pass "make check: committed files current; refund_app built with pkg-config against the shared runtime and ran"

# Drift 1: the contract was edited but the files were not regenerated.
fresh_copy edited
sed -i 's/values: \[EUR, GBP, USD\]/values: [EUR, GBP, USD, CHF]/' "$WORK/edited/refund_request.contract.yaml"
expect_fails "$WORK/drift1.log" make -C "$WORK/edited" CONTRACTC="$CONTRACTC" check-generated
expect_contains "$WORK/drift1.log" "./refund_request.h: differs from refund_request.contract.yaml"
expect_contains "$WORK/drift1.log" "./refund_request.c: differs from refund_request.contract.yaml"
expect_contains "$WORK/drift1.log" "./refund_request.schema.json: differs"
expect_contains "$WORK/drift1.log" "./refund_request.prompt.txt: differs"
expect_fails "$WORK/drift1b.log" mk "$WORK/edited" check
[ ! -e "$WORK/edited/refund_app" ] || fail "make check built the program despite the drift"
pass "an edited contract: make check fails naming all four files"

# Drift 2: a generated file was edited by hand.
fresh_copy handedit
sed -i 's/\.max_depth = /.max_depth = 1 + /' "$WORK/handedit/refund_request.c"
cmp -s "$WORK/src/refund_request.c" "$WORK/handedit/refund_request.c" && fail "the hand edit did not apply"
expect_fails "$WORK/drift2.log" make -C "$WORK/handedit" CONTRACTC="$CONTRACTC" check-generated
expect_contains "$WORK/drift2.log" "./refund_request.c: differs from refund_request.contract.yaml"
if grep -qF "refund_request.h: differs" "$WORK/drift2.log"; then fail "an untouched header reported as drifted"; fi
pass "a hand-edited refund_request.c: make check fails naming it alone"

# `make generate` repairs the drift.
make -C "$WORK/edited" CONTRACTC="$CONTRACTC" generate >/dev/null
make -C "$WORK/edited" CONTRACTC="$CONTRACTC" check-generated >/dev/null || fail "check still fails after make generate"
expect_contains "$WORK/edited/refund_request.h" "REFUND_REQUEST_CURRENCY_CHF"
pass "make generate brings the files back in line"
