# SPDX-License-Identifier: MIT
# Hardening tests (included by tests/CMakeLists.txt): allocation failures,
# hostile contracts and hostile replies.  The fuzz targets live in fuzz/;
# scripts/test-hardening.sh runs them, valgrind and the full allocation
# sweep of the generator.

# The LD_PRELOAD fail-the-n-th-malloc shim: only without sanitizers, since
# ASan replaces malloc itself and refuses to be preloaded after another one.
set(_shim_defs "")
if(NOT CONTRACTC_SANITIZE AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
  add_library(contractc_alloc_shim MODULE ${CMAKE_CURRENT_SOURCE_DIR}/support/alloc_shim.c)
  target_compile_options(contractc_alloc_shim PRIVATE ${CONTRACTC_WARNINGS})
  set(_shim_defs CONTRACTC_ALLOC_SHIM="$<TARGET_FILE:contractc_alloc_shim>"
                 CONTRACTC_EXE="$<TARGET_FILE:contractc>")
endif()

contractc_check_test(test_alloc_fail GENERATOR LIBS test_contracts PkgConfig::CJSON)
if(_shim_defs)
  target_compile_definitions(test_alloc_fail PRIVATE ${_shim_defs})
  add_dependencies(test_alloc_fail contractc_alloc_shim contractc)
endif()
set_tests_properties(test_alloc_fail PROPERTIES TIMEOUT 1800)

contractc_check_test(test_hostile GENERATOR LIBS test_contracts PkgConfig::CJSON)
target_compile_definitions(test_hostile PRIVATE
  CONTRACTC_EXE="$<TARGET_FILE:contractc>")
add_dependencies(test_hostile contractc)
# The time bound of the hostile contracts: each must finish far inside it.
set_tests_properties(test_hostile PROPERTIES TIMEOUT 300)

# The fuzz targets' seed corpora, assembled by fuzz/seeds.cmake from the test
# data and the examples (the fuzz build does it at build time): every source
# in them byte for byte, no two seeds alike, the same files on every run.
# A check of the tree: the gcc build alone.  Needs python3.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  find_program(FUZZ_SEEDS_PYTHON3 NAMES python3 HINTS /usr/bin)
  if(FUZZ_SEEDS_PYTHON3)
    add_test(NAME fuzz_seeds_are_assembled
             COMMAND ${FUZZ_SEEDS_PYTHON3} ${PROJECT_SOURCE_DIR}/fuzz/test_seeds.py
                     ${CMAKE_COMMAND} ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/fuzz-seeds)
  else()
    add_test(NAME fuzz_seeds_are_assembled
             COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: python3 not found; fuzz/test_seeds.py needs it")
    set_tests_properties(fuzz_seeds_are_assembled PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED")
  endif()
endif()
