# SPDX-License-Identifier: MIT
# Issue 8, the benchmark: a quick smoke test of its harness (not a timing).
# bench/run.py --quick generates small corpora (seeded) and checks that the
# validating runners' verdicts agree reply by reply: contractc, the strict
# cJSON validator, and ajv when node and bench/node_modules are there (run
# scripts/bench.sh once to install them).  No timed assertion.  Needs
# python3; without it the test is skipped and says why.  The harness
# (bench/CMakeLists.txt) is always built with the tests.
find_program(BENCH_PYTHON3 python3)
if(BENCH_PYTHON3)
  add_test(NAME bench_runners_agree_on_every_reply
           COMMAND ${BENCH_PYTHON3} ${PROJECT_SOURCE_DIR}/bench/run.py --quick
                   --build ${PROJECT_BINARY_DIR}
                   --out ${CMAKE_CURRENT_BINARY_DIR}/bench_smoke)
  set_tests_properties(bench_runners_agree_on_every_reply PROPERTIES TIMEOUT 60)
else()
  add_test(NAME bench_runners_agree_on_every_reply
           COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: python3 not found; bench/run.py needs it")
  set_tests_properties(bench_runners_agree_on_every_reply PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED")
endif()
# bench_v2 (unions and maps against plain objects of the same bytes): every
# reply of its seeded corpora accepted by both twins.  No timing.
add_test(NAME bench_v2_corpora_are_accepted_by_both_twins COMMAND bench_v2 check)
set_tests_properties(bench_v2_corpora_are_accepted_by_both_twins PROPERTIES
  PASS_REGULAR_EXPRESSION "every reply accepted")
