# SPDX-License-Identifier: MIT
# The user's guide cannot drift from the code (tests/guide/check_guide.py):
# every contract in docs/contract-language.md is linted and generated with
# the built contractc, each contract shown failing fails with the message
# shown, each excerpt of generated C or prompt text occurs verbatim in the
# generated file, each C example compiles against its generated header,
# each example program links with the runtime and prints what is shown,
# and each row of "Changing a contract safely" (§12.1) is measured.
find_program(CONTRACTC_PYTHON3 NAMES python3 HINTS /usr/bin)
set(_guide_flags)
if(CONTRACTC_SANITIZE)
  set(_guide_flags -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
if(CONTRACTC_PYTHON3)
  add_test(NAME guide_every_example_lints_generates_and_matches_the_generated_files
    COMMAND ${CONTRACTC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/guide/check_guide.py
            $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR}/docs/contract-language.md
            ${CMAKE_CURRENT_BINARY_DIR}/guide ${CMAKE_C_COMPILER}
            ${PROJECT_SOURCE_DIR}/runtime/include $<TARGET_FILE:contractc_runtime>
            ${_guide_flags})
  set_tests_properties(guide_every_example_lints_generates_and_matches_the_generated_files
    PROPERTIES TIMEOUT 120)
else()
  add_test(NAME guide_every_example_lints_generates_and_matches_the_generated_files
    COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: python3 not found; tests/guide/check_guide.py needs it")
endif()
