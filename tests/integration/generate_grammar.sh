#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# contractc_generate(... GRAMMAR gbnf) with the installed package, under Unix
# Makefiles and Ninja: NAME.gbnf and NAME.gbnf.notes.txt are written (the
# same bytes as `contractc grammar` prints), declared as outputs and named
# by the depfile; NAME.c holds NAME_gbnf[] with those bytes (a program
# compares them and grounds the grammar in an email); GRAMMAR_VAR names
# the files; a target without GRAMMAR gets none; deleting NAME.gbnf or
# editing the contract regenerates it, a no-op build runs nothing; an
# unknown GRAMMAR and GRAMMAR_VAR alone stop the configure.
source "$(dirname "$0")/common.sh"
p="$WORK/proj"
mkdir -p "$p"
cp "$SRC/examples/refund/refund_request.contract.yaml" "$p/"
cp "$SRC/examples/refund/data/a1063.email.txt" "$p/"
K="$p/refund_request.contract.yaml"
printf 'contract: plain\nversion: 1\ndescription: One word.\ninstruction: Say one word.\nfields:\n  word: {type: string}\n' \
  >"$p/plain.contract.yaml"
cat >"$p/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(grammar C)
find_package(contractc 0.1 REQUIRED)
contractc_generate(TARGET refund CONTRACTS refund_request.contract.yaml
                   GRAMMAR gbnf GRAMMAR_VAR refund_grammars)
contractc_generate(TARGET plain CONTRACTS plain.contract.yaml OUTPUT_DIR plain)
message(STATUS "grammars: ${refund_grammars}")
add_executable(use_grammar main.c)
target_link_libraries(use_grammar PRIVATE refund plain)
EOF
cat >"$p/main.c" <<'EOF'
/* argv[1]: NAME.gbnf as written; argv[2]: an email to ground it in */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "refund_request.h"
#include "plain.h"
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(1 << 20) : NULL;
    *len = buf ? fread(buf, 1, 1 << 20, f) : 0;
    if (f)
        fclose(f);
    return buf;
}
int main(int argc, char **argv)
{
    size_t file_len, email_len;
    char *file = argc > 2 ? slurp(argv[1], &file_len) : NULL;
    char *email = argc > 2 ? slurp(argv[2], &email_len) : NULL;
    if (!file || !email)
        return 2;
    int same = file_len == refund_request_gbnf_len &&
               memcmp(file, refund_request_gbnf, file_len) == 0 &&
               refund_request_gbnf[refund_request_gbnf_len] == '\0';
    char *g = NULL;
    size_t g_len = 0;
    int rc = contractc_gbnf_grounded(refund_request_gbnf, refund_request_gbnf_len, email,
                                     email_len, &g, &g_len);
    printf("gbnf %zu bytes, %s the file; grounded rc %d, %zu bytes, %s\n", refund_request_gbnf_len,
           same ? "same as" : "NOT the same as", rc, g_len,
           g && g_len > refund_request_gbnf_len && strstr(g, "grounded-") ? "rules grown from the email"
                                                                    : "no rules from the email");
    free(g);
    free(file);
    free(email);
    return same && rc == 0 && g_len > refund_request_gbnf_len ? 0 : 1;
}
EOF
# the generator ran in this build (Makefiles print the comment, Ninja -v the command)
ran() { grep -qE 'contractc: generating refund_request|bin/contractc generate ' "$1"; }
generators=("Unix Makefiles")
command -v ninja >/dev/null && generators+=(Ninja)
[ ${#generators[@]} = 2 ] || echo "note: ninja not found (ninja-build), testing Unix Makefiles only"
"$CONTRACTC" grammar "$K" >"$WORK/want.gbnf" 2>"$WORK/want.notes.txt" \
  || fail "contractc grammar failed on the refund contract"
for gen in "${generators[@]}"; do
  cp "$SRC/examples/refund/refund_request.contract.yaml" "$K"
  b="$WORK/build-${gen// /-}"
  o="$b/contractc"
  cmake -S "$p" -B "$b" -G "$gen" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror $SAN" ${SAN:+-DCMAKE_EXE_LINKER_FLAGS="$SAN"} \
    >"$b.configure.log" 2>&1 || { cat "$b.configure.log" >&2; fail "$gen: does not configure"; }
  expect_contains "$b.configure.log" "grammars: $o/refund_request.gbnf"
  build() { cmake --build "$b" -v >"$b.log" 2>&1 || { cat "$b.log" >&2; fail "$gen: does not build"; }; }
  build
  got=$(cd "$o" && ls | tr '\n' ' ')
  [ "$got" = "refund_request.c refund_request.gbnf refund_request.gbnf.notes.txt refund_request.h refund_request.prompt.txt refund_request.schema.json " ] \
    || fail "$gen: files written: $got"
  got=$(cd "$b/plain" && ls | tr '\n' ' ')
  [ "$got" = "plain.c plain.h plain.prompt.txt plain.schema.json " ] || fail "$gen: without GRAMMAR: $got"
  expect_same "$o/refund_request.gbnf" "$WORK/want.gbnf"
  expect_same "$o/refund_request.gbnf.notes.txt" "$WORK/want.notes.txt"
  expect_contains "$o/refund_request.h" "extern const char refund_request_gbnf[];"
  expect_contains "$o/refund_request.gbnf" 'root ::='
  if grep -q '_gbnf' "$b/plain/plain.h"; then fail "$gen: plain.h declares a grammar without GRAMMAR"; fi
  "$b/use_grammar" "$o/refund_request.gbnf" "$p/a1063.email.txt" >"$b.run.log" \
    || { cat "$b.run.log" >&2; fail "$gen: use_grammar failed"; }
  expect_contains "$b.run.log" "same as the file; grounded rc 0"
  expect_contains "$b.run.log" "rules grown from the email"
  d="$b/CMakeFiles/refund.contractc/refund_request.d"
  expect_contains "$d" "$o/refund_request.gbnf \\"
  expect_contains "$d" "$o/refund_request.gbnf.notes.txt: \\"
  [ "$(tail -1 "$d")" = "  $K" ] || fail "$gen: the depfile's prerequisite is not the contract: $(cat "$d")"
  if [ "$gen" = Ninja ]; then
    grep -q "^build contractc/refund_request.h .*contractc/refund_request.gbnf contractc/refund_request.gbnf.notes.txt" \
      "$b/build.ninja" || fail "Ninja: the grammar files are not outputs of the custom command"
  fi
  build
  if ran "$b.log"; then fail "$gen: a no-op build ran the generator"; fi
  rm "$o/refund_request.gbnf"
  build
  ran "$b.log" || fail "$gen: a deleted refund_request.gbnf was not regenerated"
  expect_same "$o/refund_request.gbnf" "$WORK/want.gbnf"
  sleep 1
  sed -i 's/damaged, other\]/damaged, other, late]/' "$K"
  grep -q 'other, late' "$K" || fail "the edit of the contract's enum did not apply"
  build
  ran "$b.log" || fail "$gen: an edited contract did not regenerate"
  expect_contains "$o/refund_request.gbnf" '"\"late\""'
  "$b/use_grammar" "$o/refund_request.gbnf" "$p/a1063.email.txt" >"$b.run.log" \
    || { cat "$b.run.log" >&2; fail "$gen: use_grammar failed after the edit"; }
  pass "$gen: NAME.gbnf and its notes as 'contractc grammar' prints them, NAME_gbnf[] the same bytes, in the depfile; a deleted or edited grammar is regenerated"
done

# expect_configure_error NAME CALL MESSAGE
expect_configure_error() {
  local d="$WORK/$1"
  mkdir -p "$d"
  cp "$p/plain.contract.yaml" "$d/"
  printf 'cmake_minimum_required(VERSION 3.21)\nproject(%s C)\nfind_package(contractc 0.1 REQUIRED)\n%s\n' \
    "$1" "$2" >"$d/CMakeLists.txt"
  expect_fails "$d.log" cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC"
  tr '\n' ' ' <"$d.log" | tr -s ' ' >"$d.joined.log"
  expect_contains "$d.joined.log" "$3"
}
expect_configure_error bad_grammar 'contractc_generate(TARGET one CONTRACTS plain.contract.yaml GRAMMAR json)' \
  "contractc_generate: unknown GRAMMAR 'json' (known: gbnf)"
expect_configure_error no_value 'contractc_generate(TARGET one CONTRACTS plain.contract.yaml GRAMMAR)' \
  "contractc_generate: unknown GRAMMAR '' (known: gbnf)"
expect_configure_error var_alone 'contractc_generate(TARGET one CONTRACTS plain.contract.yaml GRAMMAR_VAR g)' \
  "contractc_generate: GRAMMAR_VAR needs GRAMMAR gbnf"
pass "errors: GRAMMAR json, GRAMMAR without a value, GRAMMAR_VAR without GRAMMAR"
