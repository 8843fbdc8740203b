#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# contractc_generate() against the installed package, option by option:
# SCHEMA_VAR and the declared outputs follow the contract's own
# schema: {dialect: D} in its flow and block forms (quotes, comments, blank
# lines), SCHEMA_DIALECT overrides it as --schema-dialect does, and an edited
# dialect reconfigures; TOOLS writes the tool definitions; RUNTIME shared (any case) links the shared runtime;
# and the errors: a project without C, an unknown RUNTIME, one library with
# both runtimes, a schema: setting that cannot be read at configure time.
source "$(dirname "$0")/common.sh"
p="$WORK/proj"
mkdir -p "$p"
contract() { # FILE NAME SCHEMA_LINES
  printf 'contract: %s\nversion: 1\ndescription: One word.\ninstruction: Say one word.\n%b\nfields:\n  word: {type: string}\n' \
    "$2" "$3" >"$p/$1"
}
contract flow.contract.yaml flow 'schema: {dialect: gemini}   # the provider'
contract block.contract.yaml block '"schema":\n  # which provider\n\n  "dialect": '"'openai-strict'"'   # OpenAI'
contract plain.contract.yaml plain ''
contract over.contract.yaml over 'schema: {dialect: gemini}'
cat >"$p/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.21)
project(options C)
find_package(contractc 0.1 REQUIRED)
contractc_generate(TARGET flow CONTRACTS flow.contract.yaml SCHEMA_VAR flow_schemas)
contractc_generate(TARGET block CONTRACTS block.contract.yaml SCHEMA_VAR block_schemas RUNTIME SHARED)
contractc_generate(TARGET plain CONTRACTS plain.contract.yaml SCHEMA_VAR plain_schemas RUNTIME static)
contractc_generate(TARGET over CONTRACTS over.contract.yaml SCHEMA_VAR over_schemas
                   SCHEMA_DIALECT anthropic llama-cpp TOOLS openai mcp openai)
foreach(t flow block plain over)
  message(STATUS "${t}: ${${t}_schemas}")
endforeach()
add_executable(use_block main.c)
target_link_libraries(use_block PRIVATE block)
EOF
cat >"$p/main.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include "block.h"
int main(void)
{
    const char *reply = "{\"word\":\"hello\"}";
    block_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t st = block_parse(reply, strlen(reply), NULL, 0, &rec, &problems);
    int ok = st == CONTRACTC_OK && strcmp(rec.word, "hello") == 0 && block_dialects[0] &&
             strcmp(block_dialects[0], "openai-strict") == 0;
    printf("%s %s %s\n", contractc_status_name(st), st == CONTRACTC_OK ? rec.word : "-",
           block_dialects[0] ? block_dialects[0] : "(no dialect)");
    if (st == CONTRACTC_OK)
        block_free(&rec);
    contractc_problems_clear(&problems);
    return ok ? 0 : 1;
}
EOF
b="$WORK/build"
cmake -S "$p" -B "$b" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
      -DCMAKE_C_FLAGS="-Wall -Wextra -Wpedantic -Werror" >"$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log" >&2; fail "the options project does not configure"; }
o="$b/contractc"
expect_contains "$WORK/configure.log" "flow: $o/flow.gemini.schema.json"
expect_contains "$WORK/configure.log" "block: $o/block.openai-strict.schema.json"
expect_contains "$WORK/configure.log" "plain: $o/plain.schema.json"
expect_contains "$WORK/configure.log" "over: $o/over.anthropic.schema.json;$o/over.llama-cpp.schema.json"
pass "SCHEMA_VAR: flow form -> gemini, block form (quoted, commented) -> openai-strict, none -> portable, SCHEMA_DIALECT overrides"

build() { cmake --build "$b" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "the options project does not build"; }; }
build
want="block.c block.h block.openai-strict.notes.txt block.openai-strict.schema.json block.prompt.txt block.schema.json
flow.c flow.gemini.notes.txt flow.gemini.schema.json flow.h flow.prompt.txt flow.schema.json
over.anthropic.notes.txt over.anthropic.schema.json over.c over.h over.llama-cpp.notes.txt over.llama-cpp.schema.json over.mcp.tool.json over.mcp.tool.notes.txt over.openai.tool.json over.openai.tool.notes.txt over.prompt.txt over.schema.json
plain.c plain.h plain.prompt.txt plain.schema.json"
got=$(cd "$o" && ls | sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ] || fail "files written: $got"
build
if grep -qF "contractc: generating" "$WORK/build.log"; then fail "a no-op rebuild regenerated a contract"; fi
grep -q 'over_tool_openai_json\[\]' "$o/over.h" || fail "over.h does not declare over_tool_openai_json[]"
pass "the files written are the files declared (30, TOOLS included), and a no-op rebuild runs nothing"

readelf -d "$b/use_block" | grep -q 'NEEDED.*libcontractc_runtime\.so' || fail "RUNTIME SHARED did not link libcontractc_runtime.so"
"$b/use_block" >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "use_block failed"; }
expect_contains "$WORK/run.log" "ok hello openai-strict"
pass "RUNTIME SHARED: use_block needs libcontractc_runtime.so, parsed {\"word\":\"hello\"} (dialect openai-strict compiled in)"

sed -i 's/^schema: {dialect: gemini}   # the provider$/schema: {dialect: llama-cpp}/' "$p/flow.contract.yaml"
build
expect_contains "$WORK/build.log" "flow: $o/flow.llama-cpp.schema.json"
[ -f "$o/flow.llama-cpp.schema.json" ] || fail "no flow.llama-cpp.schema.json after the edit"
pass "an edited schema.dialect reconfigures: SCHEMA_VAR is flow.llama-cpp.schema.json, and it is written"

# expect_configure_error NAME PROJECT_LANGUAGES CALL MESSAGE [SCHEMA_LINES]
expect_configure_error() {
  local d="$WORK/$1"
  mkdir -p "$d"
  p=$d contract one.contract.yaml one "${5:-}"
  printf 'cmake_minimum_required(VERSION 3.21)\nproject(%s %s)\nfind_package(contractc 0.1 REQUIRED)\n%b\n' \
    "$1" "$2" "$3" >"$d/CMakeLists.txt"
  expect_fails "$d.log" cmake -S "$d" -B "$d/build" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC"
  # CMake wraps a message's lines: compare with them joined
  tr '\n' ' ' <"$d.log" | tr -s ' ' >"$d.joined.log"
  expect_contains "$d.joined.log" "$4"
}
expect_configure_error no_c NONE 'contractc_generate(TARGET one CONTRACTS one.contract.yaml)' \
  "contractc_generate: the generated NAME.c files are C, and C is not enabled here: name it in project() (project(app C CXX)) or call enable_language(C) before find_package(contractc)"
expect_configure_error bad_runtime C 'contractc_generate(TARGET one CONTRACTS one.contract.yaml RUNTIME dynamic)' \
  "contractc_generate: RUNTIME is static or shared, not 'dynamic'"
expect_configure_error both_runtimes C 'contractc_generate(TARGET one CONTRACTS one.contract.yaml)\ncontractc_generate(TARGET one CONTRACTS one.contract.yaml OUTPUT_DIR other RUNTIME shared)' \
  "contractc_generate: one already links the static runtime"
expect_configure_error bad_tool C 'contractc_generate(TARGET one CONTRACTS one.contract.yaml TOOLS claude)' \
  "contractc_generate: unknown TOOLS 'claude' (known: openai, anthropic, gemini, mcp)"
expect_configure_error unreadable C 'contractc_generate(TARGET one CONTRACTS one.contract.yaml)' \
  "contractc_generate: cannot read the 'schema:' setting of $WORK/unreadable/one.contract.yaml" \
  'schema: {\n    dialect: gemini}'
pass "errors: project(NONE) is told to enable C; RUNTIME dynamic; TOOLS claude; both runtimes on one target; a multi-line flow schema: setting"
