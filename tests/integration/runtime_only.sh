#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -DCONTRACTC_BUILD_GENERATOR=OFF builds and installs the runtime with a C
# compiler alone: no pkg-config, libyaml, cJSON or libcrypto is looked for
# (pkg-config is pointed at a program that does not exist), and the
# installed runtime links a program that parses with the runtime's API.
source "$(dirname "$0")/common.sh"

cmake -S "$SRC" -B "$WORK/build" -DCONTRACTC_BUILD_GENERATOR=OFF \
      -DCMAKE_C_COMPILER="$CC" -DCMAKE_BUILD_TYPE=Release \
      -DPKG_CONFIG_EXECUTABLE=/nonexistent/pkg-config >"$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log" >&2; fail "runtime-only configure failed"; }
grep -qi 'libyaml\|yaml-0.1\|libcjson\|libcrypto' "$WORK/configure.log" \
  && { cat "$WORK/configure.log" >&2; fail "runtime-only configure looked for a generator dependency"; }
cmake --build "$WORK/build" -j2 >"$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log" >&2; fail "runtime-only build failed"; }
cmake --install "$WORK/build" --prefix "$WORK/prefix" >/dev/null
libdir=$(cd "$WORK/prefix" && ls -d lib*/ | head -1); libdir=${libdir%/}
[ -f "$WORK/prefix/include/contractc/contractc.h" ] || fail "no header installed"
[ -f "$WORK/prefix/$libdir/libcontractc_runtime.a" ] || fail "no static runtime installed"
[ ! -e "$WORK/prefix/bin/contractc" ] || fail "the generator was installed by a runtime-only build"
pass "runtime-only configure, build and install with a C compiler alone"

cat >"$WORK/app.c" <<'C'
#include <contractc/contractc.h>
#include <stdio.h>
int main(void)
{
    /* The runtime's version stamp and problem list, no generated code. */
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    printf("%s %zu\n", CONTRACTC_VERSION, contractc_problems_count(&problems));
    contractc_problems_clear(&problems);
    return 0;
}
C
"$CC" -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$WORK/prefix/include" "$WORK/app.c" \
      "$WORK/prefix/$libdir/libcontractc_runtime.a" -o "$WORK/app" || fail "app does not build on the installed runtime"
out=$("$WORK/app")
[ "$out" = "$VERSION 0" ] || fail "app printed '$out', not '$VERSION 0'"
pass "a program builds and runs on the runtime-only install: $out"
