# SPDX-License-Identifier: MIT
# Issue 6: provider dialects of the schema, and the differential test
# against ajv.  Included by tests/CMakeLists.txt.
#
#   test_dialects                    Check: goldens, keyword allowlists,
#                                    limits, completeness (model -> tables,
#                                    prompt, schema or notes), CLI
#   dialects_node_setup              npm ci of tests/schema (ajv 8 + ajv-formats)
#   dialects_metaschema              every emitted schema against the 2020-12
#                                    meta-schema (Ajv2020, strict)
#   dialects_differential_<contract> 10,000 seeded replies through the
#                                    generated parser and ajv
contractc_check_test(test_dialects GENERATOR LIBS PkgConfig::CJSON)
add_dependencies(test_dialects contractc)
target_compile_definitions(test_dialects PRIVATE
  CONTRACTC_EXE="$<TARGET_FILE:contractc>")

set(DIALECTS_NODE_DIR ${CMAKE_CURRENT_BINARY_DIR}/schema-node)
set(DIALECTS_SCHEMA_DIR ${CMAKE_CURRENT_SOURCE_DIR}/schema)
add_test(NAME dialects_node_setup
  COMMAND bash ${DIALECTS_SCHEMA_DIR}/setup.sh ${DIALECTS_SCHEMA_DIR} ${DIALECTS_NODE_DIR})
set_tests_properties(dialects_node_setup PROPERTIES FIXTURES_SETUP dialects_node
  SKIP_RETURN_CODE 77)

add_test(NAME dialects_metaschema
  COMMAND bash ${DIALECTS_SCHEMA_DIR}/run-node.sh ${DIALECTS_SCHEMA_DIR}/metaschema.mjs
          --node-modules ${DIALECTS_NODE_DIR}/node_modules
          --contractc $<TARGET_FILE:contractc>
          --root ${PROJECT_SOURCE_DIR}
          --work ${CMAKE_CURRENT_BINARY_DIR}/metaschema)
set_tests_properties(dialects_metaschema PROPERTIES FIXTURES_REQUIRED dialects_node
  SKIP_RETURN_CODE 77)

# The differential runner: one executable per contract (each links its own
# generated parser, so two contracts with one name never collide).
add_executable(dialect_stubs support/dialect_stubs.c)
target_compile_options(dialect_stubs PRIVATE ${CONTRACTC_WARNINGS})
target_compile_definitions(dialect_stubs PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(dialect_stubs PRIVATE contractc_gen)

file(GLOB _dialect_example_contracts ${PROJECT_SOURCE_DIR}/examples/*/*.contract.yaml)
# consumer-* are copies of an example, built as a user would (examples/CMakeLists.txt)
list(FILTER _dialect_example_contracts EXCLUDE REGEX "/examples/consumer-[^/]*/")
list(SORT _dialect_example_contracts)
set(_dialect_diff_contracts
  ${CONTRACTC_TEST_DATA}/contracts/refund_request.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/invoice.contract.yaml
  ${CONTRACTC_TEST_DATA}/differential/all_types.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/signup_form.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/support_route.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/sensor_log.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/asset_tags.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/api_capture.contract.yaml
  ${CONTRACTC_TEST_DATA}/contracts/flex_values.contract.yaml
  ${_dialect_example_contracts})
set(CONTRACTC_DIFF_COUNT 10000 CACHE STRING "replies per contract in the differential test")
foreach(_c IN LISTS _dialect_diff_contracts)
  get_filename_component(_file ${_c} NAME)
  string(REGEX REPLACE "(\\.contract)?\\.ya?ml$" "" _name "${_file}")
  file(RELATIVE_PATH _rel ${PROJECT_SOURCE_DIR} ${_c})
  get_filename_component(_reldir ${_rel} DIRECTORY)
  get_filename_component(_group ${_reldir} NAME)
  set(_id ${_group}_${_name})
  set(_out ${CMAKE_CURRENT_BINARY_DIR}/diff/${_id})
  contractc_generate(TARGET diff_${_id}_parser CONTRACTS ${_c} OUTPUT_DIR ${_out})
  target_compile_options(diff_${_id}_parser PRIVATE ${CONTRACTC_WARNINGS})
  add_custom_command(OUTPUT ${_out}/check_stubs.c
    COMMAND ${CMAKE_COMMAND} -E make_directory ${_out}
    COMMAND dialect_stubs ${_c} ${_out}/check_stubs.c
    DEPENDS ${_c} dialect_stubs
    COMMENT "dialect_stubs: check functions of ${_file}" VERBATIM)
  add_executable(dialect_diff_${_id} e2e/dialect_diff.c ${_out}/check_stubs.c)
  target_compile_options(dialect_diff_${_id} PRIVATE ${CONTRACTC_WARNINGS})
  target_compile_definitions(dialect_diff_${_id} PRIVATE _POSIX_C_SOURCE=200809L
    DIFF_CONTRACT=${_name}_contract)
  target_link_libraries(dialect_diff_${_id} PRIVATE diff_${_id}_parser contractc_runtime
    PkgConfig::CJSON m)
  add_test(NAME dialects_differential_${_id}
    COMMAND bash ${DIALECTS_SCHEMA_DIR}/run-node.sh ${DIALECTS_SCHEMA_DIR}/differential.mjs
            --node-modules ${DIALECTS_NODE_DIR}/node_modules
            --runner $<TARGET_FILE:dialect_diff_${_id}>
            --contractc $<TARGET_FILE:contractc>
            --contract ${_c}
            --count ${CONTRACTC_DIFF_COUNT}
            --regressions ${CONTRACTC_TEST_DATA}/differential/regressions
            --failures ${CMAKE_CURRENT_BINARY_DIR}/differential-failures
            --work ${CMAKE_CURRENT_BINARY_DIR}/diff/${_id}/schemas)
  set_tests_properties(dialects_differential_${_id} PROPERTIES
    FIXTURES_REQUIRED dialects_node SKIP_RETURN_CODE 77)
endforeach()
