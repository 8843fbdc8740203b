#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-examples.sh BUILD: runs every example program of a build
# (BUILD/examples/*/*_example), with the arguments it needs, as the main job
# does; exits non-zero at the first that fails.  The test suite runs it too
# (tests/integration: main_job_examples_run), so an example the main job
# cannot run fails CI.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: run-examples.sh BUILD}
for example in "$build"/examples/*/; do
  for program in "$example"*_example; do
    [ -x "$program" ] || continue
    case "$program" in
      */local_example)
        # the local-model example grounds the grammar in one email (no
        # model here: it prints the grammar's size and skips llama.cpp)
        args=(examples/refund/data/a1063.email.txt "${example}a1063.grounded.gbnf") ;;
      *) args=() ;;
    esac
    echo "==> $program ${args[*]}"
    "$program" "${args[@]}"
    echo
  done
done
