#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Route 4, examples/consumer-cxx: a C++17 project that enables C++ alone
# (project(ticket_triage CXX)) against the installed package.
# find_package(contractc) enables C for the generated ticket.c; the
# contract's own schema: {dialect: openai-strict} is what SCHEMA_VAR names
# and what is compiled in; RUNTIME shared links libcontractc_runtime.so.
# The program, C++17 including ticket.h, parses a reply with three problems
# (rejected at each path) and the corrected reply (accepted) and checks both.
source "$(dirname "$0")/common.sh"
[ -n "${CXX:-}" ] && command -v "$CXX" >/dev/null || skip "no C++ compiler (CXX='${CXX:-}'): install g++ or clang++"
cp -r "$SRC/examples/consumer-cxx" "$WORK/src"
strict="-Wall -Wextra -Wpedantic -Werror"
cmake -S "$WORK/src" -B "$WORK/build" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Debug \
      -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_C_COMPILER="$CC" \
      -DCMAKE_CXX_FLAGS="$strict" -DCMAKE_C_FLAGS="$strict" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DCMAKE_INSTALL_PREFIX="$WORK/inst" >"$WORK/configure.log" 2>&1 \
  || { cat "$WORK/configure.log" >&2; fail "consumer-cxx does not configure"; }
expect_contains "$WORK/configure.log" "contractc: enabling C for the generated parsers (NAME.c is C)"
expect_contains "$WORK/configure.log" "schemas: $WORK/build/contractc/ticket.openai-strict.schema.json"
pass "project(ticket_triage CXX): find_package enabled C; SCHEMA_VAR is the contract's own dialect's schema"

build() { cmake --build "$WORK/build" >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; fail "consumer-cxx does not build"; }; }
build
expect_contains "$WORK/build.log" "contractc: generating ticket from ticket.contract.yaml"
expect_contains "$WORK/build.log" "Building C object CMakeFiles/ticket_contract.dir/contractc/ticket.c.o"
expect_contains "$WORK/build.log" "Building CXX object CMakeFiles/ticket_app.dir/app.cpp.o"
grep -F '"file": "'"$WORK"'/src/app.cpp"' -B3 "$WORK/build/compile_commands.json" | grep -qF -- "-std=c++17" \
  || fail "app.cpp was not compiled as C++17"
for f in ticket.h ticket.c ticket.schema.json ticket.prompt.txt ticket.openai-strict.schema.json \
         ticket.openai-strict.notes.txt; do
  [ -f "$WORK/build/contractc/$f" ] || fail "contractc_generate did not write $f"
done
readelf -d "$WORK/build/ticket_app" | grep -q 'NEEDED.*libcontractc_runtime\.so' \
  || fail "RUNTIME shared: ticket_app is not linked against libcontractc_runtime.so"
if nm "$WORK/build/ticket_app" | grep -q ' T contractc_parse$'; then fail "RUNTIME shared: the static runtime was linked in"; fi
pass "ticket.c built as C, app.cpp as C++17 (-Werror), linked against libcontractc_runtime.so"

"$WORK/build/ticket_app" >"$WORK/run.log" || { cat "$WORK/run.log" >&2; fail "ticket_app failed"; }
expect_contains "$WORK/run.log" "schema dialect openai-strict"
expect_contains "$WORK/run.log" '  $.urgency: "urgent" is not one of "low", "medium" or "high"'
expect_contains "$WORK/run.log" '  $.score: found the string "4"; expected an integer'
expect_contains "$WORK/run.log" '  $.tags[1]: found the number 503; expected a string'
expect_contains "$WORK/run.log" "triage: urgency high, severity 5, 3 tags"
pass "ticket_app ran: rejected at \$.urgency, \$.score, \$.tags[1]; accepted urgency high, severity 5"

# The declared outputs are the files written: a no-op build runs nothing.
build
if grep -qF "contractc: generating" "$WORK/build.log"; then fail "a no-op rebuild regenerated the contract"; fi
pass "a no-op rebuild does not regenerate"

cmake --install "$WORK/build" >"$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "install failed"; }
[ -f "$WORK/inst/share/ticket_app/ticket.openai-strict.schema.json" ] || fail "SCHEMA_VAR's file not installed"
"$WORK/inst/bin/ticket_app" >/dev/null || fail "the installed ticket_app failed"
pass "installed ticket_app (it finds the shared runtime) and share/ticket_app/ticket.openai-strict.schema.json"
