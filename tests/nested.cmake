# SPDX-License-Identifier: MIT
# Issue 3, nested contracts: dates, rules, checks, gating, paths, the lint
# cases of the nested contract errors, and the bad-input work counts.
# Included by tests/CMakeLists.txt (contractc_check_test is defined there).
set(NESTED_DATA ${CONTRACTC_TEST_DATA}/nested)
contractc_generate(TARGET nested_contracts
  CONTRACTS ${NESTED_DATA}/nested_dates.contract.yaml
            ${NESTED_DATA}/nested_presence.contract.yaml
            ${NESTED_DATA}/nested_sums.contract.yaml
            ${NESTED_DATA}/nested_compare.contract.yaml
            ${NESTED_DATA}/nested_checks.contract.yaml
            ${NESTED_DATA}/nested_item_checks.contract.yaml
            ${NESTED_DATA}/nested_paths.contract.yaml
            ${NESTED_DATA}/nested_limits.contract.yaml
  OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/generated_nested)
target_compile_options(nested_contracts PRIVATE ${CONTRACTC_WARNINGS})

contractc_check_test(test_nested GENERATOR LIBS nested_contracts)

# Bad input: replies of 16 and 32 MiB, counted with a counting allocator.
# Under the sanitizers every size is divided by 8 (ASan's shadow memory and
# checks make the full sizes slow); the ratios are the same.
contractc_check_test(test_nested_limits LIBS nested_contracts)
if(CONTRACTC_SANITIZE)
  target_compile_definitions(test_nested_limits PRIVATE NESTED_SIZE_DIVISOR=8)
endif()
set_tests_properties(test_nested_limits PROPERTIES TIMEOUT 300)

# Work, counted in instructions: callgrind on two sizes of each bad input
# (tests/e2e/bench_nested.sh).  Not under the sanitizers (valgrind cannot run
# an ASan binary), and only in the gcc build: Debian 12's valgrind 3.19
# cannot read the DWARF 5 that clang 14 writes and gives up.  Skipped
# loudly when valgrind is absent.
add_executable(nested_bad_input e2e/nested_bad_input.c)
target_compile_options(nested_bad_input PRIVATE ${CONTRACTC_WARNINGS})
target_compile_definitions(nested_bad_input PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(nested_bad_input PRIVATE nested_contracts)
if(NOT CONTRACTC_SANITIZE AND CMAKE_C_COMPILER_ID STREQUAL "GNU")
  add_test(NAME nested_bad_input_work_is_linear
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/e2e/bench_nested.sh $<TARGET_FILE:nested_bad_input>)
  set_tests_properties(nested_bad_input_work_is_linear PROPERTIES
    LABELS "bench" TIMEOUT 600 SKIP_RETURN_CODE 77)
endif()
