#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# contractc_generate() with the installed package, under Ninja and Unix
# Makefiles: the custom command writes a depfile (`generate -q --depfile`,
# read through add_custom_command(DEPFILE)) naming every generated file and
# the contract; a no-op build runs nothing; touching the contract reruns the
# generator; a real edit regenerates and recompiles.  Under Ninja an edit
# that changes no output (a YAML comment) runs the generator but recompiles
# nothing: the generator keeps unchanged files as they are and Ninja
# re-checks their times (restat).  Makefiles compare times alone: there the
# outputs are touched after the command (else an output left older than the
# edited contract would rerun it on every build), so a comment recompiles.
source "$(dirname "$0")/common.sh"
cp -r "$SRC/examples/consumer-cmake" "$WORK/src"
K="$WORK/src/refund_request.contract.yaml"
generators=("Unix Makefiles")
command -v ninja >/dev/null && generators+=(Ninja)
[ ${#generators[@]} = 2 ] || echo "note: ninja not found (ninja-build), testing Unix Makefiles only"
# the generator ran in this build (Makefiles print the comment, Ninja -v the command)
ran() { grep -qE 'contractc: generating refund_request|bin/contractc generate ' "$1"; }
for gen in "${generators[@]}"; do
  cp "$SRC/examples/consumer-cmake/refund_request.contract.yaml" "$K"
  b="$WORK/build-${gen// /-}"
  cmake -S "$WORK/src" -B "$b" -G "$gen" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_C_COMPILER="$CC" \
    -DCMAKE_BUILD_TYPE=Debug ${SAN:+-DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN"} \
    >"$b.configure.log" 2>&1 || { cat "$b.configure.log" >&2; fail "$gen: does not configure"; }
  build() { cmake --build "$b" -v >"$b.log" 2>&1 || { cat "$b.log" >&2; fail "$gen: does not build"; }; }
  build
  ran "$b.log" || fail "$gen: the first build did not run the generator"
  if grep -q 'schema written' "$b.log"; then fail "$gen: generate -q printed its summary"; fi
  d="$b/CMakeFiles/refund_contract.contractc/refund_request.d"
  [ -f "$d" ] || fail "$gen: no depfile $d"
  expect_contains "$d" "$b/contractc/refund_request.h \\"
  expect_contains "$d" "$b/contractc/refund_request.openai-strict.notes.txt: \\"
  [ "$(tail -1 "$d")" = "  $K" ] || fail "$gen: the depfile's prerequisite is not the contract: $(cat "$d")"
  if [ "$gen" = Ninja ]; then
    block=$(sed -n '/^build contractc\/refund_request.h /,/^$/p' "$b/build.ninja")
    grep -q -- "--depfile $d" <<<"$block" && grep -q '^  depfile = ' <<<"$block" \
      && grep -q '^  restat = 1' <<<"$block" || fail "Ninja: the custom command has no depfile: $block"
  else
    grep -rqF -- "--depfile $d" "$b/CMakeFiles/refund_contract.dir/build.make" \
      || fail "Makefiles: the custom command does not pass --depfile"
  fi
  # nothing changed: nothing runs
  build
  if ran "$b.log"; then fail "$gen: a no-op build ran the generator"; fi
  before=$(stat -c %.9Y "$b/contractc/refund_request.c")

  # touched (a comment: no output changes): the generator runs
  sleep 1
  printf '# a comment that changes no output\n' >>"$K"
  build
  ran "$b.log" || fail "$gen: an edited contract did not run the generator"
  if [ "$gen" = Ninja ]; then
    [ "$(stat -c %.9Y "$b/contractc/refund_request.c")" = "$before" ] \
      || fail "$gen: an unchanged refund_request.c was rewritten"
    if grep -E 'refund_request\.c\.o( |$)' "$b.log" | grep -q -- ' -c '; then
      fail "$gen: a comment in the contract recompiled refund_request.c"
    fi
  fi
  build
  if ran "$b.log"; then fail "$gen: the build after a regeneration ran the generator again"; fi

  # a real change: regenerated and recompiled
  sed -i 's/Extract the order, the amount and the reason/Extract the order number, the amount and the reason/' "$K"
  build
  expect_contains "$b/contractc/refund_request.prompt.txt" "Extract the order number,"
  grep -E 'refund_request\.c\.o' "$b.log" | grep -q -- ' -c ' || fail "$gen: an edited contract was not recompiled"
  "$b/refund_app" >"$b.run.log" || { cat "$b.run.log" >&2; fail "$gen: refund_app failed"; }
  if [ "$gen" = Ninja ]; then
    pass "$gen: a depfile names the contract; no-op builds run nothing; a comment recompiles nothing; an edit recompiles"
  else
    pass "$gen: a depfile names the contract; no-op builds run nothing; an edit regenerates and recompiles"
  fi
done
