#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The runtime header and a generated header compile as C99, C11 and C++17
# (extern "C"), each under the strict warning set; a C++17 program calls the
# C-compiled parser and links (the names are not mangled).
source "$(dirname "$0")/common.sh"
[ -n "${CXX:-}" ] && command -v "$CXX" >/dev/null || skip "no C++ compiler (CXX='${CXX:-}'): install g++ or clang++"
mkdir -p "$WORK/gen"
"$CONTRACTC" generate "$SRC/examples/consumer-make/refund_request.contract.yaml" \
  "$SRC/tests/data/contracts/invoice.contract.yaml" -o "$WORK/gen"
"$CONTRACTC" vendor "$WORK/gen" >/dev/null
cd "$WORK/gen"
cat >runtime_only.c <<'C'
#include <contractc/contractc.h>
int main(void) { contractc_problems_t p; contractc_problems_init(&p); contractc_problems_clear(&p); return CONTRACTC_OK; }
C
cat >both.c <<'C'
#include "refund_request.h"
#include "invoice.h"
#include "refund_request.h" /* guarded: twice is harmless */
int main(void) { return refund_request_contract.abi == CONTRACTC_ABI_VERSION ? 0 : 1; }
C
strict=(-Wall -Wextra -Wpedantic -Wshadow -Werror)
n=0
for std in c99 c11; do
  for tu in runtime_only.c both.c; do
    "$CC" -std=$std "${strict[@]}" -Wstrict-prototypes -I. -fsyntax-only $tu >"$WORK/c.log" 2>&1 \
      || { cat "$WORK/c.log" >&2; fail "$tu does not compile as $std"; }
    n=$((n + 1))
  done
done
for tu in runtime_only.c both.c; do
  cp $tu ${tu%.c}.cpp
  "$CXX" -std=c++17 "${strict[@]}" -I. -fsyntax-only ${tu%.c}.cpp >"$WORK/cxx.log" 2>&1 \
    || { cat "$WORK/cxx.log" >&2; fail "$tu does not compile as C++17"; }
  n=$((n + 1))
done
pass "$n compilations: contractc.h, refund_request.h and invoice.h as C99, C11 and C++17, -Werror"

# Link C++ against the C objects: a missing extern "C" would be an undefined
# mangled symbol here.
cat >app.cpp <<'C'
#include <cstdio>
#include <cstring>
#include "refund_request.h"
int main()
{
    const char *reply = "{\"order_id\":\"A-1\",\"amount\":null,\"currency\":null,"
                        "\"amount_text\":null,\"reason\":\"other\"}";
    const char *email = "order A-1";
    refund_request_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t st = refund_request_parse(reply, std::strlen(reply), email,
                                                 std::strlen(email), &rec, &problems);
    std::printf("%s %s\n", contractc_status_name(st), st == CONTRACTC_OK ? rec.order_id : "-");
    if (st == CONTRACTC_OK)
        refund_request_free(&rec);
    contractc_problems_clear(&problems);
    return st == CONTRACTC_OK ? 0 : 1;
}
C
"$CC" -std=c99 -I. -c refund_request.c contractc_runtime.c
"$CXX" -std=c++17 "${strict[@]}" -I. app.cpp refund_request.o contractc_runtime.o -o app_cxx \
  >"$WORK/link.log" 2>&1 || { cat "$WORK/link.log" >&2; fail "C++ program does not link against the C parser"; }
./app_cxx >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "the C++ program failed"; }
expect_contains "$WORK/run.log" "ok A-1"
pass "a C++17 program links and calls refund_request_parse (accepted order A-1)"
