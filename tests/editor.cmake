# SPDX-License-Identifier: MIT
# The editor schema of a contract (docs/contract.schema.json, draft-07 for
# yaml-language-server) against `contractc lint`.  Included by
# tests/CMakeLists.txt after dialects.cmake, whose dialects_node_setup
# installs ajv and yaml (tests/schema/package.json).  The schema is the same
# file for every compiler, so the test runs in the gcc build only.
#
#   editor_contract_schema   every example and test contract lint accepts is
#                            valid; every tests/editor/invalid/ contract is
#                            flagged; lint's other verdicts fall in named
#                            classes a schema cannot see
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  add_test(NAME editor_contract_schema
    COMMAND bash ${DIALECTS_SCHEMA_DIR}/run-node.sh
            ${CMAKE_CURRENT_SOURCE_DIR}/editor/contract_schema.mjs
            --node-modules ${DIALECTS_NODE_DIR}/node_modules
            --contractc $<TARGET_FILE:contractc>
            --root ${PROJECT_SOURCE_DIR}
            --work ${CMAKE_CURRENT_BINARY_DIR}/editor)
  set_tests_properties(editor_contract_schema PROPERTIES FIXTURES_REQUIRED dialects_node
    SKIP_RETURN_CODE 77)
endif()
