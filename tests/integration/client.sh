#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed chat client: <contractc/client.h>, the CMake target
# contractc::client (find_package(contractc)) and pkg-config
# contractc-client each build a program that makes a client and reads its
# configuration errors.  Skipped when this build has no client (no libcurl).
source "$(dirname "$0")/common.sh"

libdir=$(cd "$PREFIX" && ls -d lib*/ | head -1); libdir=${libdir%/}
[ -f "$PREFIX/$libdir/libcontractc_chat_client.a" ] || skip "this build has no chat client (libcurl not found)"
[ -f "$PREFIX/include/contractc/client.h" ] || fail "no <contractc/client.h> installed"
[ -f "$PREFIX/$libdir/cmake/contractc/contractcClientTargets.cmake" ] || fail "no contractcClientTargets.cmake"
[ -f "$PREFIX/$libdir/pkgconfig/contractc-client.pc" ] || fail "no contractc-client.pc"

cat >"$WORK/app.c" <<'C'
#include <contractc/client.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
    contractc_chat_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.base_url = "http://127.0.0.1:9/v1";
    cfg.model = "m";
    char why[256];
    /* OpenAI-compatible without a schema: refused with the reason. */
    if (contractc_chat_client_new(&cfg, why, sizeof why) != NULL)
        return 1;
    printf("%s\n", why);
    cfg.provider = CONTRACTC_CHAT_ANTHROPIC; /* takes no schema */
    contractc_chat_client_t *c = contractc_chat_client_new(&cfg, why, sizeof why);
    if (!c)
        return 2;
    printf("anthropic client, %u tries so far\n", contractc_chat_last_attempts(c));
    contractc_chat_client_free(c);
    return 0;
}
C
cat >"$WORK/expected.txt" <<'T'
schema_name and schema are required (or set no_response_format)
anthropic client, 0 tries so far
T

mkdir -p "$WORK/cmake"
cat >"$WORK/cmake/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(client_consumer C)
find_package(contractc 0.1 REQUIRED)
if(NOT TARGET contractc::client)
  message(FATAL_ERROR "find_package(contractc) did not import contractc::client")
endif()
add_executable(app $WORK/app.c)
target_link_libraries(app PRIVATE contractc::client)
CM
cmake -S "$WORK/cmake" -B "$WORK/cmake/build" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
      "-DCMAKE_C_FLAGS=-Wall -Wextra -Wpedantic -Werror $SAN" >"$WORK/cmake.log" 2>&1 \
  && cmake --build "$WORK/cmake/build" >>"$WORK/cmake.log" 2>&1 \
  || { cat "$WORK/cmake.log" >&2; fail "the CMake consumer of contractc::client did not build"; }
"$WORK/cmake/build/app" >"$WORK/cmake.out" || fail "the CMake consumer exited $?"
expect_same "$WORK/expected.txt" "$WORK/cmake.out"
pass "find_package(contractc) + contractc::client builds and runs"

export PKG_CONFIG_PATH="$PREFIX/$libdir/pkgconfig"
# shellcheck disable=SC2046,SC2086
"$CC" -std=c99 -Wall -Wextra -Wpedantic -Werror $SAN "$WORK/app.c" -o "$WORK/app-pc" \
  $(pkg-config --cflags --libs contractc-client) 2>"$WORK/pc.log" \
  || { cat "$WORK/pc.log" >&2; fail "the pkg-config consumer of contractc-client did not build"; }
LD_LIBRARY_PATH="$PREFIX/$libdir" "$WORK/app-pc" >"$WORK/pc.out" || fail "the pkg-config consumer exited $?"
expect_same "$WORK/expected.txt" "$WORK/pc.out"
pass "pkg-config contractc-client builds and runs"
