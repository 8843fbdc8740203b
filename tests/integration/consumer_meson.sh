#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Route 5, examples/consumer-meson: Meson finds the runtime through
# pkg-config (dependency('contractc-runtime')) and the installed generator
# on PATH; a custom target generates the parser at build time.  The program
# (the same app.c as consumer-make and consumer-cmake) rejects the decimal
# comma and accepts 1250.00 EUR; an edited contract is regenerated; the
# schema and the prompt are installed.
source "$(dirname "$0")/common.sh"
command -v meson >/dev/null || skip "meson not found: install meson and ninja-build (scripts/install-deps.sh)"
command -v ninja >/dev/null || skip "ninja not found: install ninja-build (scripts/install-deps.sh)"
libdir=$(cd "$PREFIX" && ls -d lib*/ | head -1); libdir=${libdir%/}

# The consumers share one program and one contract; the copies must not drift.
for f in app.c refund_request.contract.yaml; do
  for d in consumer-cmake consumer-make; do
    expect_same "$SRC/examples/consumer-meson/$f" "$SRC/examples/$d/$f"
  done
done

cp -r "$SRC/examples/consumer-meson" "$WORK/src"
export PKG_CONFIG_PATH="$PREFIX/$libdir/pkgconfig" PATH="$PREFIX/bin:$PATH"
CC="$CC" meson setup "$WORK/build" "$WORK/src" -Dwerror=true -Dbuildtype=debug \
  --prefix "$WORK/inst" >"$WORK/setup.log" 2>&1 || { cat "$WORK/setup.log" >&2; fail "meson setup failed"; }
expect_contains "$WORK/setup.log" "Run-time dependency contractc-runtime found: YES"
expect_contains "$WORK/setup.log" "Program contractc found: YES ($PREFIX/bin/contractc)"

build() { meson compile -C "$WORK/build" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "meson compile failed"; }; }
build
expect_contains "$WORK/build.log" "Generating refund_request"
readelf -d "$WORK/build/refund_app" | grep -q 'NEEDED.*libcontractc_runtime\.so' \
  || fail "refund_app is not linked against the runtime pkg-config names"
env -u LD_LIBRARY_PATH "$WORK/build/refund_app" >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "refund_app failed"; }
expect_contains "$WORK/run.log" '- $.amount: "1.250,00" is not a decimal like "1250.00"'
expect_contains "$WORK/run.log" "refund 1250.00 EUR"
pass "meson (warning_level=3, werror): generated at build time, linked with pkg-config, ran (rejected 1.250,00, accepted 1250.00 EUR)"

build
if grep -qF "Generating refund_request" "$WORK/build.log"; then fail "a no-op meson compile regenerated the contract"; fi
sed -i 's/Extract the order, the amount and the reason/Extract the order number, the amount and the reason/' \
  "$WORK/src/refund_request.contract.yaml"
build
expect_contains "$WORK/build.log" "Generating refund_request"
expect_contains "$WORK/build/refund_request.prompt.txt" "Extract the order number,"
"$WORK/build/refund_app" >/dev/null || fail "refund_app failed after the regeneration"
pass "no-op compile regenerates nothing; an edited contract is regenerated"

meson install -C "$WORK/build" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "meson install failed"; }
for f in refund_request.schema.json refund_request.prompt.txt; do
  [ -f "$WORK/inst/share/refund_app/$f" ] || fail "meson install did not install share/refund_app/$f"
done
[ -x "$WORK/inst/bin/refund_app" ] || fail "meson install did not install bin/refund_app"
pass "meson install: bin/refund_app, share/refund_app/refund_request.{schema.json,prompt.txt}"
