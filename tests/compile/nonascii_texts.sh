#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Generated texts with non-ASCII bytes (é, 日本, an emoji), a comment
# terminator and a trigraph-like sequence (in texts, and in a JSON key that
# the generated comments and tables quote: v2) compile warning-free with gcc and
# clang as C99 and C11, both as string literals (a prompt up to 4,095 bytes) and as
# character arrays (longer texts), and keep their bytes: NAME_prompt and
# NAME_schema_json equal NAME.prompt.txt and NAME.schema.json byte for byte.
# From ctest: CONTRACTC (the generator), INCLUDE (the runtime's headers),
# RUNTIME_SRC (runtime/src), WORK (a scratch directory).
set -euo pipefail
: "${CONTRACTC:?}" "${INCLUDE:?}" "${RUNTIME_SRC:?}" "${WORK:?}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

text='café 日本 😀 a */ b ??= c ??/ "q" \ /* d'
# short: prompt and schema under 4,095 bytes (string literals)
cat >short_texts.yaml <<Y
contract: short_texts
version: 1
instruction: 'Lis ceci — $text'
fields:
  a: {type: string, description: '$text'}
  b: {type: enum, values: [é, 日本], description: '$text'}
  c: {type: array, items: {type: string}, nullable: true, description: '$text $text'}
  '$text': {type: string, nullable: true, optional: true}
Y
# long: 80 fields, both texts over 4,095 bytes (character arrays)
{ printf 'contract: long_texts\nversion: 1\ninstruction: '"'"'%s'"'"'\nfields:\n' "$text"
  for i in $(seq 1 80); do printf '  f%d: {type: string, description: '"'"'%s %d'"'"'}\n' "$i" "$text" "$i"; done
} >long_texts.yaml

compilers=()
for cc in gcc clang; do command -v $cc >/dev/null && compilers+=($cc); done
[ ${#compilers[@]} -eq 2 ] || fail "gcc and clang are both needed (found: ${compilers[*]})"
n=0
for name in short_texts long_texts; do
  "$CONTRACTC" generate $name.yaml -o gen >/dev/null
  plen=$(wc -c <gen/$name.prompt.txt); slen=$(wc -c <gen/$name.schema.json)
  grep -qF "日本" gen/$name.prompt.txt || fail "$name: the prompt lost its text"
  # no generated line ends in a line splice (\ or the trigraph ??/)
  ! grep -nE '(\\|[?][?]/)$' gen/$name.h gen/$name.c || fail "$name: a line ends in a splice"
  if [ $name = short_texts ]; then
    [ "$plen" -le 4095 ] && [ "$slen" -le 4095 ] || fail "short_texts is not short ($plen, $slen)"
    grep -qF "const char ${name}_prompt[] =" gen/$name.c || fail "short prompt is not a literal"
  else
    [ "$plen" -gt 4095 ] && [ "$slen" -gt 4095 ] || fail "long_texts is not long ($plen, $slen)"
    grep -qF "const char ${name}_prompt[$plen] = {" gen/$name.c || fail "long prompt is not an array"
  fi
  cat >check_$name.c <<C
#include <stdio.h>
#include <string.h>
#include "$name.h"
static int same(const char *file, const char *text, size_t len)
{
    static char buf[1 << 20];
    FILE *f = fopen(file, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    if (n != len || memcmp(buf, text, len) != 0) { printf("%s differs\\n", file); return 0; }
    return 1;
}
int main(void)
{
    return same("gen/$name.prompt.txt", ${name}_prompt, ${name}_prompt_len) &&
           same("gen/$name.schema.json", ${name}_schema_json, ${name}_schema_json_len) ? 0 : 1;
}
C
  for cc in "${compilers[@]}"; do
    for std in c99 c11; do
      o=$name.$cc.$std
      $cc -std=$std -Wall -Wextra -Wpedantic -Werror -I"$INCLUDE" -Igen -c gen/$name.c -o $o.o \
        2>$o.log || { cat $o.log >&2; fail "$cc -std=$std does not compile $name.c"; }
      $cc -std=$std -Wall -Wextra -Wpedantic -Werror -I"$INCLUDE" -Igen check_$name.c $o.o \
        "$RUNTIME_SRC"/*.c -I"$RUNTIME_SRC" -o check_$o 2>$o.log \
        || { cat $o.log >&2; fail "$cc -std=$std does not build the check of $name"; }
      ./check_$o || fail "$cc -std=$std: $name's texts are not the generated files' bytes"
      n=$((n + 1))
    done
  done
done
echo "ok: $n builds (short and long texts, gcc and clang, -std=c99 and c11, -Wpedantic -Werror), bytes identical"
