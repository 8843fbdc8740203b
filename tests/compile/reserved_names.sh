#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Why the reserved names are refused (docs/contract-language.md, "Names that
# can never be generated"): for a sample of every class, the code generated
# with the name let through does not build, while the same contract with a
# free name builds warning-free; and contractc lint refuses the real name.
#
# The check cannot be bypassed, so each case is generated with placeholder
# names (zzname, zzfield, zzvalue, zzcheck) that lint clean, then the
# placeholders are replaced by the reserved name in NAME.h and NAME.c, as if
# the generator had written it.  A case builds NAME.c and a user's file that
# includes the case's standard headers and NAME.h, with gcc and clang
# (-std=c11, or gnu11 for the GNU C macros) or g++ and clang++ (C++17).
# From ctest: CONTRACTC (the generator), INCLUDE (the runtime's headers),
# WORK (a scratch directory).
set -euo pipefail
: "${CONTRACTC:?}" "${INCLUDE:?}" "${WORK:?}"
rm -rf "$WORK"; mkdir -p "$WORK"; cd "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }
for cc in gcc clang g++ clang++; do command -v $cc >/dev/null || fail "$cc is needed"; done

# builds DIR NAME LANG STD HEADERS USE: NAME.c as C, then a user's file
# (C or C++) that includes HEADERS and NAME.h and runs the statement USE
builds() {
  local dir=$1 name=$2 lang=$3 std=$4 headers=$5 use=$6 c user
  { for h in $headers; do echo "#include <$h>"; done
    echo "#include \"$name.h\""
    echo "int main(void) { $use return 0; }"; } >"$dir/user.$lang"
  for c in gcc clang; do
    $c -std=$std -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -I"$INCLUDE" \
      -I"$dir" -c "$dir/$name.c" -o "$dir/$name.$c.o" 2>>"$dir/log" || return 1
    if [ "$lang" = c ]; then
      $c -std=$std -Wall -Wextra -Wpedantic -Werror -D_POSIX_C_SOURCE=200809L -I"$INCLUDE" \
        -I"$dir" -c "$dir/user.c" -o "$dir/user.$c.o" 2>>"$dir/log" || return 1
    else
      user=g++; [ $c = clang ] && user=clang++
      $user -std=c++17 -Wall -Wextra -Werror -I"$INCLUDE" -I"$dir" -c "$dir/user.cc" \
        -o "$dir/user.$user.o" 2>>"$dir/log" || return 1
    fi
  done
}

# proves LABEL YAML SED LANG STD HEADERS USE [YAML_SED]: YAML (with
# placeholders) builds; with SED applied to its generated files it does
# not; with YAML_SED (default SED) applied to it, contractc lint refuses it.
n=0
proves() {
  local label=$1 yaml=$2 sed=$3 lang=$4 std=$5 headers=$6 use=$7 ysed=${8:-$3}
  local d="case$n" real f; mkdir -p "$d/ok" "$d/bad"
  printf '%s\n' "$yaml" >"$d/zz.yaml"
  "$CONTRACTC" generate "$d/zz.yaml" -o "$d/ok" >/dev/null 2>"$d/gen.log" \
    || { cat "$d/gen.log" >&2; fail "$label: the placeholder contract does not generate"; }
  builds "$d/ok" zzname "$lang" "$std" "$headers" "${use//@/zzname}" \
    || { cat "$d/ok/log" >&2; fail "$label: the placeholder contract does not build"; }
  real=$(echo zzname | sed "$sed")
  for f in zzname.h zzname.c; do
    sed "$sed" "$d/ok/$f" >"$d/bad/${f/zzname/$real}"
  done
  if builds "$d/bad" "$real" "$lang" "$std" "$headers" "${use//@/$real}"; then
    fail "$label: the generated code builds with the reserved name: the refusal is not needed"
  fi
  sed "$ysed" "$d/zz.yaml" >"$d/real.yaml"
  if "$CONTRACTC" lint "$d/real.yaml" >"$d/lint.log" 2>&1; then
    fail "$label: contractc lint accepts it"
  fi
  grep -Eq "error: .*( is (a|an|the tag|reserved)|hide the standard)" "$d/lint.log" \
    || { cat "$d/lint.log" >&2; fail "$label: lint refuses it for another reason"; }
  printf '%-32s %s | %s\n' "$label" "$(grep -m1 -o '[^ ]*error: .*' "$d/lint.log" | sed 's/^[^:]*://' | cut -c1-120)" \
    "$(grep -m1 'error' "$d/bad/log" | sed "s/^[^ ]* //;s/[‘’]/'/g" | cut -c1-80)"
  n=$((n + 1))
}

field() { printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  zzfield: {type: %s}\n  n: {type: integer}\n' "$1"; }
plain=$(printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  a: {type: string}\n')
use='@_t r; (void)r;'

# struct members: macros of the headers (NULL breaks NAME.c itself)
proves "field NULL"                "$(field string)" s/zzfield/NULL/g c c11 "" "$use"
proves "field errno (<errno.h>)"   "$(field string)" s/zzfield/errno/g c c11 errno.h "$use"
proves "field EOF (<stdio.h>)"     "$(field string)" s/zzfield/EOF/g c c11 stdio.h "$use"
proves "field I (<complex.h>)"     "$(field boolean)" s/zzfield/I/g c c11 complex.h "$use"
proves "field complex (<complex.h>)" "$(field boolean)" s/zzfield/complex/g c c11 complex.h "$use"
proves "field noreturn"            "$(field boolean)" s/zzfield/noreturn/g c c11 stdnoreturn.h "$use"
proves "field SIZE_MAX"            "$(field integer)" s/zzfield/SIZE_MAX/g c c11 "" "$use"
proves "field st_atime (<sys/stat.h>)" "$(field integer)" s/zzfield/st_atime/g c c11 sys/stat.h "$use"
proves "field __FILE__ (C11 7.1.3)" "$(field integer)" s/zzfield/__FILE__/g c c11 "" "$use"
# GNU C's predefined macros
proves "field linux (gnu11)"       "$(field boolean)" s/zzfield/linux/g c gnu11 "" "$use"
proves "field unix (gnu11)"        "$(field boolean)" s/zzfield/unix/g c gnu11 "" "$use"
# the included headers' types, as members: C++ (a member hides the type)
proves "field size_t (C++)"        "$(printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  zzfield: {type: boolean}\n  s: {type: string}\n')" \
  s/zzfield/size_t/g cc c11 "" "$use"
proves "field int64_t (C++)"       "$(field integer)" s/zzfield/int64_t/g cc c11 "" "$use"
# contract names: the record's type, its tag, its header, the runtime's names
proves "contract size (size_t)"    "$plain" s/zzname/size/g c c11 "" "$use"
proves "contract int64 (int64_t)"  "$plain" s/zzname/int64/g c c11 "" "$use"
proves "contract uint8 (uint8_t)"  "$plain" s/zzname/uint8/g c c11 "" "$use"
proves "contract wchar (wchar_t)"  "$plain" "s/zzname/wchar/g;s/ZZNAME/WCHAR/g" c c11 "" "$use"
proves "contract tm (struct tm)"   "$plain" s/zzname/tm/g c c11 time.h "$use"
proves "contract string (string.h)" "$plain" "s/zzname/string/g;s/ZZNAME/STRING/g" c c11 string.h \
  'static char b[4]; memcpy(b, "ab", 3); (void)b;'
proves "contract math (math.h)"    "$plain" "s/zzname/math/g;s/ZZNAME/MATH/g" c c11 math.h \
  'volatile double x = sqrt(2.0); (void)x;'
proves "contract contractc_problems" "$plain" s/zzname/contractc_problems/g c c11 "" "$use"
proves "contract contractc_date"   "$plain" s/zzname/contractc_date/g c c11 "" "$use"
proves "contract contractc_string" "$plain" s/zzname/contractc_string/g c c11 "" "$use"
# names derived from the contract and a field: types and enum constants
proves "contract uint + object least8" \
  "$(printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  zzfield: {type: object, fields: {x: {type: string}}}\n')" \
  "s/zzname_zzfield/uint_least8/g" c c11 "" "$use" "s/zzname/uint/;s/zzfield/least8/"
proves "enum constant FLT_EVAL_METHOD" \
  "$(printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  zzfield: {type: enum, values: [zzvalue, other]}\n')" \
  "s/ZZNAME_ZZFIELD_ZZVALUE/FLT_EVAL_METHOD/g" c c11 float.h "$use" \
  "s/zzname/flt/;s/zzfield/eval/;s/zzvalue/method/"
# check functions: the header's functions and function-like macros
check=$(printf 'contract: zzname\nversion: 1\ninstruction: x\nfields:\n  a: {type: string}\nrules:\n  - check: {function: zzcheck}\n')
proves "check function printf"     "$check" s/zzcheck/printf/g c c11 stdio.h "$use"
proves "check function assert"     "$check" s/zzcheck/assert/g c c11 assert.h "$use"
proves "check function abs"        "$check" s/zzcheck/abs/g c c11 stdlib.h "$use"

echo "ok: $n reserved names shown to break the generated code's build (each builds with a free name), each refused by lint"
