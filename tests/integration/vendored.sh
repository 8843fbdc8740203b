#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contractc vendor DIR`: two files, the header byte-identical to the
# runtime's, the same bytes whatever the directory; then the README's
# vendored build, `cc -I. app.c refund_request.c contractc_runtime.c`, with
# nothing of contractc on any search path, and the same build under the
# strict warning set as C99 and C11.
source "$(dirname "$0")/common.sh"
for d in /usr/include /usr/local/include; do
  [ ! -e "$d/contractc" ] || skip "$d/contractc exists: a vendored build could not prove it needs nothing installed"
done

mkdir -p "$WORK/a/deeper" "$WORK/b"
# the files written are informational: named on stderr, nothing on stdout
(cd "$WORK/a/deeper" && "$CONTRACTC" vendor ../v 2>"$WORK/vendor.log" >"$WORK/vendor.out")
[ ! -s "$WORK/vendor.out" ] || fail "vendor printed on stdout: $(cat "$WORK/vendor.out")"
"$CONTRACTC" vendor "$WORK/b/v/" >/dev/null
files=$(cd "$WORK/a/v" && find . -type f | sort | tr '\n' ' ')
[ "$files" = "./contractc/contractc.h ./contractc_runtime.c " ] || fail "vendor wrote: $files"
expect_same "$WORK/a/v/contractc/contractc.h" "$SRC/runtime/include/contractc/contractc.h"
expect_same "$WORK/a/v/contractc_runtime.c" "$WORK/b/v/contractc_runtime.c"
expect_contains "$WORK/vendor.log" "../v/contractc_runtime.c"
if grep -qF "$SRC" "$WORK/a/v/contractc_runtime.c"; then fail "the vendored runtime names a build path"; fi
expect_contains "$WORK/a/v/contractc_runtime.c" "the contractc $VERSION runtime in one file"
pass "vendor wrote contractc_runtime.c ($(wc -c <"$WORK/a/v/contractc_runtime.c") bytes) and contractc/contractc.h, same bytes from any directory"

# usage
expect_fails "$WORK/usage.log" "$CONTRACTC" vendor
rc=0; "$CONTRACTC" vendor >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "contractc vendor with no DIR exits $rc, expected 2"
rc=0; "$CONTRACTC" vendor a b >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "contractc vendor a b exits $rc, expected 2"
pass "contractc vendor without exactly one DIR is a usage error (exit 2)"

# The vendored build: the program and the committed generated files of
# examples/consumer-make, then exactly the README's command line.
v="$WORK/a/v"
cp "$SRC/examples/consumer-make/app.c" "$SRC/examples/consumer-make/refund_request.c" \
   "$SRC/examples/consumer-make/refund_request.h" "$v/"
(cd "$v" && env -u CPATH -u C_INCLUDE_PATH -u LIBRARY_PATH -u PKG_CONFIG_PATH \
   "$CC" $SAN -I. app.c refund_request.c contractc_runtime.c -o app) >"$WORK/cc.log" 2>&1 \
  || { cat "$WORK/cc.log" >&2; fail "the vendored build failed"; }
(cd "$v" && ./app) >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "the vendored program failed"; }
expect_contains "$WORK/run.log" "refund 1250.00 EUR"
ldd "$v/app" | grep -q contractc && fail "the vendored program links a contractc library"
pass "cc -I. app.c refund_request.c contractc_runtime.c builds and runs with nothing installed"

for std in c99 c11; do
  (cd "$v" && "$CC" -std=$std -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
     -Wmissing-prototypes -Werror -I. -c app.c refund_request.c contractc_runtime.c) \
     >"$WORK/strict.log" 2>&1 || { cat "$WORK/strict.log" >&2; fail "the vendored build has warnings as $std"; }
done
pass "the vendored build is warning-free as C99 and C11 (-Wall -Wextra -Wpedantic -Werror)"
