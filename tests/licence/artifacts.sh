#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# artifacts.sh CONTRACTC SOURCE_DIR WORK_DIR: what contractc writes says its
# licence.  The vendored runtime: one SPDX line (MIT, not one per part), the
# copyright and the whole permission notice of LICENSE.  Generated NAME.h and
# NAME.c: MIT-0 in the banner, and nothing claims MIT for them.
set -euo pipefail
cc=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
# The tag is spelt in two parts so that licence scanners do not read this
# script's patterns as its own licence.
tag='SPDX-License''-Identifier'
"$cc" vendor "$work/vendor" >/dev/null
rt=$work/vendor/contractc_runtime.c
n=$(grep -c "$tag:" "$rt")
[ "$n" = 1 ] || { echo "FAIL: $n SPDX lines in the vendored runtime, want 1"; exit 1; }
grep -q "^ \\* $tag: MIT\$" "$rt" || { echo "FAIL: vendored runtime is not MIT"; exit 1; }
# Every line of LICENSE is in the banner, in order.
banner=$(sed -n '1,/^ \*\//p' "$rt" | sed -e 's/^ \* \{0,1\}//' -e '/^\/\*$/d')
while IFS= read -r line; do
  [ -z "$line" ] && continue
  grep -qxF -- "$line" <<<"$banner" || { echo "FAIL: LICENSE line missing from the vendored banner: $line"; exit 1; }
done < "$src/LICENSE"
grep -q "$tag: MIT" "$work/vendor/contractc/contractc.h" || { echo "FAIL: vendored header has no SPDX line"; exit 1; }
"$cc" generate "$src/examples/refund/refund_request.contract.yaml" -o "$work/gen" >/dev/null
for f in "$work/gen/refund_request.h" "$work/gen/refund_request.c"; do
  head -n 12 "$f" | grep -q "^ \\* $tag: MIT-0\$" || { echo "FAIL: $f: no MIT-0 line in its banner"; exit 1; }
  [ "$(grep -c "$tag" "$f")" = 1 ] || { echo "FAIL: $f: more than one SPDX line"; exit 1; }
done
echo "vendored runtime: MIT with the full notice ($(wc -l < "$src/LICENSE") LICENSE lines); generated NAME.h/NAME.c: MIT-0"
