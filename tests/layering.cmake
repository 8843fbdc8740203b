# SPDX-License-Identifier: MIT
# The generator's modules call and include one way (tests/layering/layering.py):
# no include or call cycle, and the front end in pipeline order (load.c ->
# parse_yaml.c, check.c, naming.c -> model.c).  A check of the tree: the gcc
# build alone.  Needs python3; without it the test is skipped and says why.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  find_program(LAYERING_PYTHON3 python3)
  if(LAYERING_PYTHON3)
    add_test(NAME layering_generator_has_no_include_or_call_cycle
             COMMAND ${LAYERING_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/layering/layering.py
                     ${PROJECT_SOURCE_DIR})
  else()
    add_test(NAME layering_generator_has_no_include_or_call_cycle
             COMMAND ${CMAKE_COMMAND} -E echo "SKIPPED: python3 not found; layering.py needs it")
    set_tests_properties(layering_generator_has_no_include_or_call_cycle
                         PROPERTIES SKIP_REGULAR_EXPRESSION "SKIPPED")
  endif()
endif()
