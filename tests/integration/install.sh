#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cmake --install to a temporary prefix: the layout the package promises,
# pkg-config's answers, and a shared library exporting the public API only.
# Sets up the prefix the other vendor tests use (ctest fixture).
: "${BUILD:?}"
export PREFIX WORK=${WORK:-$PREFIX.work}
rm -rf "$PREFIX"
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
source "$(dirname "$0")/common.sh"

libdir=$(cd "$PREFIX" && ls -d lib*/ | head -1); libdir=${libdir%/}
for f in bin/contractc include/contractc/contractc.h \
         "$libdir/libcontractc_runtime.a" "$libdir/libcontractc_runtime.so" \
         "$libdir/cmake/contractc/contractcConfig.cmake" \
         "$libdir/cmake/contractc/contractcConfigVersion.cmake" \
         "$libdir/cmake/contractc/contractcTargets.cmake" \
         "$libdir/cmake/contractc/contractc_generate.cmake" \
         "$libdir/pkgconfig/contractc-runtime.pc" share/man/man1/contractc.1; do
  [ -e "$PREFIX/$f" ] || fail "not installed: $f"
done
pass "installed layout ($libdir)"

"$CONTRACTC" --version >"$WORK/version" 2>&1
version=$VERSION
expect_contains "$WORK/version" "contractc $version (descriptor ABI"
pass "installed contractc --version says $version"

if command -v man >/dev/null; then
  # man finds the installed page by name under the prefix's share/man
  LC_ALL=C MANPATH="$PREFIX/share/man" MANWIDTH=100 man contractc >"$WORK/man.txt" 2>&1 \
    || { cat "$WORK/man.txt" >&2; fail "man contractc fails on the installed page"; }
  expect_contains "$WORK/man.txt" "generate CONTRACT... -o DIR"
  pass "man contractc reads the installed page ($(wc -l <"$WORK/man.txt") lines)"
fi

export PKG_CONFIG_PATH="$PREFIX/$libdir/pkgconfig"
[ "$(pkg-config --modversion contractc-runtime)" = "$version" ] || fail "pkg-config --modversion is not $version"
[ "$(pkg-config --variable=prefix contractc-runtime)" = "$PREFIX" ] || fail "the .pc prefix is not the --prefix $PREFIX"
[ "$(pkg-config --variable=libdir contractc-runtime)" = "$PREFIX/$libdir" ] || fail "the .pc libdir is not $PREFIX/$libdir"
cflags=$(pkg-config --cflags contractc-runtime | xargs)
libs=$(pkg-config --libs contractc-runtime | xargs)
[ -f "${cflags#-I}/contractc/contractc.h" ] || fail "pkg-config --cflags ($cflags) does not find contractc/contractc.h"
case "$libs" in *-lcontractc_runtime*) ;; *) fail "pkg-config --libs lacks -lcontractc_runtime: $libs";; esac
pass "pkg-config: $cflags $libs"

# The shared library exports contractc_* only; internal cc_* stay local.
others=$(nm -D --defined-only "$PREFIX/$libdir/libcontractc_runtime.so" | awk '{print $3}' | grep -v '^contractc_' || true)
[ -z "$others" ] || fail "libcontractc_runtime.so exports non-API symbols: $others"
nm -D --defined-only "$PREFIX/$libdir/libcontractc_runtime.so" | grep -q ' contractc_parse$' \
  || fail "libcontractc_runtime.so does not export contractc_parse"
soname=$(readelf -d "$PREFIX/$libdir/libcontractc_runtime.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
[ "$soname" = "libcontractc_runtime.so.${version%.*}" ] || fail "soname $soname, expected libcontractc_runtime.so.${version%.*}"
pass "shared runtime: soname $soname, exports contractc_* only"
