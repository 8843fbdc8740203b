# SPDX-License-Identifier: MIT
# `contractc import` (docs/contract-language.md §17).  Included by
# tests/CMakeLists.txt.  The mapping's unit tests (test_import) and the
# round trip over every example and test contract (test_import_round_trip)
# are Check tests in tests/generator/; here the command line:
#   import_pydantic_story   tests/data/import/pydantic_order.*: a pydantic v2
#                           schema imported, contract and ledger against
#                           their goldens, then replies validated
#   import_cli              exit statuses, -o, stdin, --pointer, --lenient
#   import_coverage         the schemas of ../shared/corpora/jsonschemabench
#                           (outside the repository; skipped when absent):
#                           how many import strictly, with --lenient, and
#                           the first blockers of the rest, per subset
#   import_json_schema_test_suite
#                           tests/data/json-schema-test-suite (draft2020-12):
#                           each group imported strictly (bare, and wrapped
#                           as the property v of an object root), each test's
#                           instance validated against the suite's `valid`;
#                           every disagreement must be explained by a ledger
#                           class or the contract's policy (tests/import/
#                           jsts.py --guard).  The gcc build alone: the
#                           other builds would measure the same importer.
foreach(case pydantic cli)
  if(case STREQUAL "pydantic")
    set(name import_pydantic_story)
  else()
    set(name import_${case})
  endif()
  add_test(NAME ${name}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/import/import.sh ${case} $<TARGET_FILE:contractc>
            ${CONTRACTC_TEST_DATA}/import ${CMAKE_CURRENT_BINARY_DIR}/import-${case})
endforeach()
add_test(NAME import_coverage
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/import/coverage.sh $<TARGET_FILE:contractc>
          ${PROJECT_SOURCE_DIR}/../shared/corpora/jsonschemabench ${CMAKE_CURRENT_BINARY_DIR}/import-coverage)
set_tests_properties(import_coverage PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  find_program(IMPORT_PYTHON3 NAMES python3 HINTS /usr/bin)
  if(IMPORT_PYTHON3)
    add_test(NAME import_json_schema_test_suite
      COMMAND ${IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/jsts.py $<TARGET_FILE:contractc>
              ${CONTRACTC_TEST_DATA}/json-schema-test-suite/draft2020-12
              ${CMAKE_CURRENT_BINARY_DIR}/import-jsts --guard)
    set_tests_properties(import_json_schema_test_suite PROPERTIES TIMEOUT 120)
    # import_jsb_instances: JSONSchemaBench's test instances (the first 10
    # of each schema) validated against each strict and each --lenient
    # import, every disagreement classed by the ledger or the contract's
    # policy; --guard fails on an unexplained one (tests/import/
    # jsb_instances.py; ~2 min on 2 cores; skipped when the corpus is absent)
    add_test(NAME import_jsb_instances
      COMMAND ${IMPORT_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/import/jsb_instances.py $<TARGET_FILE:contractc>
              ${PROJECT_SOURCE_DIR}/../shared/corpora/jsonschemabench
              ${CMAKE_CURRENT_BINARY_DIR}/import-jsb-instances --guard)
    set_tests_properties(import_jsb_instances PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  else()
    add_test(NAME import_json_schema_test_suite
      COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: python3 not found; tests/import/jsts.py needs it")
  endif()
endif()
