#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one-file runtime that `contractc vendor DIR` writes exports the public
# API alone: compiled to an object with gcc and clang (C99 and C11, the
# strict warning set, -Werror), every symbol it defines for the linker is
# named contractc_*, and the functions the runtime's files share (cc_*,
# CC_PRIVATE) are local to it, so they cannot clash with a name of the
# user's program.  The object then links with a program that defines a
# cc_* function of its own.  From ctest: CONTRACTC (the generator), WORK (a
# scratch directory).
set -euo pipefail
: "${CONTRACTC:?}" "${WORK:?}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$CONTRACTC" vendor vendored >/dev/null
[ -f vendored/contractc_runtime.c ] || fail "contractc vendor wrote no contractc_runtime.c"
flags=(-Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Werror -O2)

# A user's program with names the runtime uses inside: they must not clash.
cat >app.c <<'C'
#include <stdio.h>
#include "contractc/contractc.h"
void *cc_alloc(const void *a, size_t size);
void *cc_alloc(const void *a, size_t size) { (void)a; (void)size; return NULL; }
int cc_scan_number(void);
int cc_scan_number(void) { return 42; }
int main(void)
{
    printf("%s %d\n", contractc_status_name(CONTRACTC_OK), cc_scan_number());
    return cc_alloc(NULL, 1) != NULL;
}
C

compilers=()
for cc in gcc clang; do command -v "$cc" >/dev/null && compilers+=("$cc"); done
[ ${#compilers[@]} -gt 0 ] || { echo "SKIP: neither gcc nor clang found"; exit 77; }
for cc in "${compilers[@]}"; do
  for std in c99 c11; do
    obj="runtime_${cc}_${std}.o"
    "$cc" -std="$std" "${flags[@]}" -Ivendored -c vendored/contractc_runtime.c -o "$obj" \
      || fail "$cc -std=$std: the vendored runtime does not compile warning-free"
    nm -g --defined-only "$obj" | awk '{print $3}' | sort >"exported_${cc}_${std}.txt"
    [ -s "exported_${cc}_${std}.txt" ] || fail "$cc -std=$std: the object exports nothing"
    if grep -v '^contractc_' "exported_${cc}_${std}.txt" >"leaked_${cc}_${std}.txt"; then
      fail "$cc -std=$std: the vendored runtime exports names other than contractc_*:" \
        "$(tr '\n' ' ' <"leaked_${cc}_${std}.txt")"
    fi
    "$cc" -std="$std" -Ivendored app.c "$obj" -o "app_${cc}_${std}" \
      || fail "$cc -std=$std: a program with its own cc_* functions does not link"
    [ "$("./app_${cc}_${std}")" = "ok 42" ] || fail "$cc -std=$std: the program ran wrong"
    echo "$cc -std=$std: $(wc -l <"exported_${cc}_${std}.txt") symbols exported, all contractc_*;" \
      "$(nm --defined-only "$obj" | grep -c ' t cc_') cc_* functions local"
  done
done
