# SPDX-License-Identifier: MIT
# Generated code compiled with gcc and clang under the strict warning set
# (tests/compile/*.sh), from this build's generator and runtime sources.
add_test(NAME compile_nonascii_texts_with_gcc_and_clang
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compile/nonascii_texts.sh)
set_tests_properties(compile_nonascii_texts_with_gcc_and_clang PROPERTIES
  ENVIRONMENT "CONTRACTC=$<TARGET_FILE:contractc>;INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include;RUNTIME_SRC=${PROJECT_SOURCE_DIR}/runtime/src;WORK=${CMAKE_CURRENT_BINARY_DIR}/compile_nonascii"
  TIMEOUT 120)

add_test(NAME compile_enum_name_functions_with_gcc_and_clang
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compile/enum_names.sh)
set_tests_properties(compile_enum_name_functions_with_gcc_and_clang PROPERTIES
  ENVIRONMENT "CONTRACTC=$<TARGET_FILE:contractc>;INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include;RUNTIME_SRC=${PROJECT_SOURCE_DIR}/runtime/src;WORK=${CMAKE_CURRENT_BINARY_DIR}/compile_enum_names"
  TIMEOUT 120)

add_test(NAME compile_reserved_names_break_the_build
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compile/reserved_names.sh)
set_tests_properties(compile_reserved_names_break_the_build PROPERTIES
  ENVIRONMENT "CONTRACTC=$<TARGET_FILE:contractc>;INCLUDE=${PROJECT_SOURCE_DIR}/runtime/include;WORK=${CMAKE_CURRENT_BINARY_DIR}/compile_reserved"
  TIMEOUT 180)

# `contractc vendor`'s one-file runtime exports contractc_* alone (nm).
add_test(NAME compile_vendored_runtime_exports_only_contractc_symbols
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/compile/vendored_symbols.sh)
set_tests_properties(compile_vendored_runtime_exports_only_contractc_symbols PROPERTIES
  ENVIRONMENT "CONTRACTC=$<TARGET_FILE:contractc>;WORK=${CMAKE_CURRENT_BINARY_DIR}/compile_vendored_symbols"
  SKIP_RETURN_CODE 77
  TIMEOUT 120)
