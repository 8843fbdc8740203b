#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed generator writes byte-identical files whatever the output
# directory, the working directory, the contract path's form (relative,
# absolute, with ./ and .., through a symlink, with spaces) and the locale.
# contractc itself never calls setlocale(); to prove the output would not
# change if it (or a library) did, the de_DE runs preload a shim that calls
# setlocale(LC_ALL, "") before main and records the decimal point it got.
source "$(dirname "$0")/common.sh"
locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$' \
  || skip "locale de_DE.UTF-8 is not installed (scripts/install-deps.sh generates it)"

mkdir -p "$WORK/src/out_a" "$WORK/other" "$WORK/x/out_b" "$WORK/out_c" "$WORK/dir with space/out d"
cp "$SRC/examples/consumer-make/refund_request.contract.yaml" "$SRC/tests/data/contracts/invoice.contract.yaml" "$WORK/src/"
cp "$WORK/src/"*.yaml "$WORK/dir with space/"
ln -s "$WORK/src" "$WORK/link"

cat >"$WORK/shim.c" <<'C'
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
/* Runs before main: the process then uses the environment's locale. */
__attribute__((constructor)) static void use_environment_locale(void)
{
    const char *name = setlocale(LC_ALL, "");
    const char *record = getenv("SHIM_RECORD");
    FILE *f = record ? fopen(record, "w") : NULL;
    if (f) {
        fprintf(f, "%s decimal_point=%s\n", name ? name : "(failed)", localeconv()->decimal_point);
        fclose(f);
    }
}
C
"$CC" -shared -fPIC -o "$WORK/shim.so" "$WORK/shim.c"

gen() { # OUT_DIR_NAME(for the listing) CWD OUTPUT_ARG ENV... -- CONTRACT...
  local label=$1 cwd=$2 out=$3; shift 3
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  (cd "$cwd" && env "${envs[@]}" "$CONTRACTC" generate "$@" -o "$out" --schema-dialect openai-strict \
     >"$WORK/$label.log" 2>&1) || { cat "$WORK/$label.log" >&2; fail "generate failed in case $label"; }
}
de=(LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 LD_PRELOAD="$WORK/shim.so" ASAN_OPTIONS=verify_asan_link_order=0)

gen a "$WORK/src" out_a LC_ALL=C -- refund_request.contract.yaml invoice.contract.yaml
gen b / "$WORK/x/out_b" "${de[@]}" SHIM_RECORD="$WORK/shim_b.txt" -- \
  "$WORK/src/refund_request.contract.yaml" "$WORK/src/invoice.contract.yaml"
gen c "$WORK/other" ../x/../out_c/ "${de[@]}" SHIM_RECORD="$WORK/shim_c.txt" -- \
  ../src/./refund_request.contract.yaml .././src/invoice.contract.yaml
gen d "$WORK/dir with space" "$WORK/dir with space/out d" LC_ALL=C.UTF-8 -- \
  "$WORK/link/refund_request.contract.yaml" ./invoice.contract.yaml

for rec in "$WORK/shim_b.txt" "$WORK/shim_c.txt"; do
  expect_contains "$rec" "decimal_point=,"
done
pass "the de_DE runs had the locale active in the generator (decimal point ',')"

files=$(cd "$WORK/src/out_a" && ls | sort)
count=$(echo "$files" | wc -l)
[ "$count" -ge 12 ] || fail "case a wrote $count files: $files"
for other in "$WORK/x/out_b" "$WORK/out_c" "$WORK/dir with space/out d"; do
  [ "$(cd "$other" && ls | sort)" = "$files" ] || fail "$other holds other files than case a"
  for f in $files; do
    expect_same "$WORK/src/out_a/$f" "$other/$f"
  done
done
pass "$count files byte-identical across 4 output dirs, 4 working dirs, relative/absolute/./../symlink/space paths, C, C.UTF-8 and de_DE.UTF-8"

# No path, user or host in the generated files.
for f in $files; do
  if grep -qF -e "$WORK" -e "$SRC" "$WORK/src/out_a/$f"; then fail "$f names a directory"; fi
done
expect_contains "$WORK/src/out_a/refund_request.h" "from refund_request.contract.yaml. DO NOT EDIT"
pass "banners name the contract's file name only"
