#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A packager's build: configured for the system prefix /usr (GNUInstallDirs
# then picks the multiarch libdir) and installed to a DESTDIR.  Every .pc
# file says prefix=/usr, libdir=${prefix}/LIBDIR, includedir=${prefix}/include,
# so pkg-config leaves the system -I and -L out; no installed file names the
# DESTDIR.  Then installation directories given as absolute paths: the .pc
# files name them as they are.
source "$(dirname "$0")/common.sh"
b="$WORK/build"
cmake -S "$SRC" -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
      -DCMAKE_C_COMPILER="$CC" -DCONTRACTC_BUILD_TESTS=OFF -DCONTRACTC_BUILD_EXAMPLES=OFF \
      >"$WORK/configure.log" 2>&1 || { cat "$WORK/configure.log" >&2; fail "configure for /usr failed"; }
cmake --build "$b" -j2 >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "the Release build failed"; }
DESTDIR="$WORK/root" cmake --install "$b" >"$WORK/install.log" 2>&1 \
  || { cat "$WORK/install.log" >&2; fail "DESTDIR install failed"; }

libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:PATH=//p' "$b/CMakeCache.txt")
multiarch=$("$CC" -print-multiarch 2>/dev/null || true)
if [ -f /etc/debian_version ] && [ -n "$multiarch" ]; then
  [ "$libdir" = "lib/$multiarch" ] || fail "GNUInstallDirs chose $libdir for /usr, expected lib/$multiarch"
fi
pcdir="$WORK/root/usr/$libdir/pkgconfig"
pcs=$(cd "$pcdir" 2>/dev/null && ls ./*.pc | sed 's|^\./||' | sort | tr '\n' ' ') || true
case " $pcs" in *" contractc-runtime.pc "*) ;; *) fail "no contractc-runtime.pc in $pcdir (found: $pcs)";; esac
for pc in $pcs; do
  expect_contains "$pcdir/$pc" "prefix=/usr"
  expect_contains "$pcdir/$pc" "libdir=\${prefix}/$libdir"
  expect_contains "$pcdir/$pc" "includedir=\${prefix}/include"
  m=${pc%.pc}
  got_lib=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=libdir "$m")
  got_inc=$(PKG_CONFIG_PATH="$pcdir" pkg-config --variable=includedir "$m")
  [ "$got_lib" = "/usr/$libdir" ] || fail "$pc: libdir is $got_lib, not /usr/$libdir"
  [ "$got_inc" = "/usr/include" ] || fail "$pc: includedir is $got_inc, not /usr/include"
  # the system directories are the ones pkg-config leaves out
  cflags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags "$m" | xargs)
  libs=$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs "$m" | xargs)
  case " $cflags $libs " in *" -I/usr/include "*|*" -L/usr/$libdir "*|*pkgconfig*) fail "$pc gives system paths: $cflags $libs";; esac
  pass "$pc: prefix=/usr libdir=$got_lib includedir=$got_inc; --cflags '$cflags' --libs '$libs'"
done
[ "$(PKG_CONFIG_PATH="$pcdir" pkg-config --libs contractc-runtime | xargs)" = "-lcontractc_runtime" ] \
  || fail "pkg-config --libs contractc-runtime is not -lcontractc_runtime alone"
[ -f "$WORK/root/usr/$libdir/cmake/contractc/contractcConfig.cmake" ] || fail "no CMake package under /usr/$libdir/cmake"
[ -f "$WORK/root/usr/include/contractc/contractc.h" ] || fail "no header under /usr/include"
if grep -rlF "$WORK" "$WORK/root" >"$WORK/named.txt"; then
  cat "$WORK/named.txt" >&2; fail "installed files name the DESTDIR or the build directory"
fi
pass "DESTDIR install: the CMake package, the header and the .pc files under /usr; no file names $WORK"

# Absolute installation directories are written as they are.
cmake "$b" -DCMAKE_INSTALL_PREFIX=/opt/cc -DCMAKE_INSTALL_LIBDIR=/opt/cc-lib/lib64 \
      -DCMAKE_INSTALL_INCLUDEDIR=/opt/cc-include >"$WORK/configure2.log" 2>&1 \
  || { cat "$WORK/configure2.log" >&2; fail "reconfigure with absolute directories failed"; }
cmake --build "$b" -j2 >"$WORK/build2.log" 2>&1 || { cat "$WORK/build2.log" >&2; fail "rebuild failed"; }
DESTDIR="$WORK/root2" cmake --install "$b" >/dev/null
pc="$WORK/root2/opt/cc-lib/lib64/pkgconfig/contractc-runtime.pc"
expect_contains "$pc" "prefix=/opt/cc"
expect_contains "$pc" "libdir=/opt/cc-lib/lib64"
expect_contains "$pc" "includedir=/opt/cc-include"
[ -f "$WORK/root2/opt/cc-include/contractc/contractc.h" ] || fail "the header is not in the absolute includedir"
pass "absolute CMAKE_INSTALL_LIBDIR/INCLUDEDIR: libdir=/opt/cc-lib/lib64 includedir=/opt/cc-include"
