# SPDX-License-Identifier: MIT
# The licence of every file (LICENSE, .reuse/dep5, the SPDX line at the top
# of each source file) and of what contractc writes: the one-file runtime of
# `contractc vendor` carries MIT with its full text, generated NAME.h/NAME.c
# say MIT-0.  A check of the tree, so it runs in the gcc build alone.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  find_program(REUSE_EXECUTABLE reuse REQUIRED)
  add_test(NAME licence_every_source_file_has_its_spdx_line_and_reuse_lint_passes
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/licence/tree.sh ${REUSE_EXECUTABLE}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endif()
add_test(NAME licence_vendored_runtime_is_mit_with_its_text_and_generated_code_mit0
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/licence/artifacts.sh $<TARGET_FILE:contractc>
          ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/licence)
