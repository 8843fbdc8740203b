# SPDX-License-Identifier: MIT
# Tool calls (docs/tools.md).  Included by tests/CMakeLists.txt.
#
#   test_tools        (tests/CMakeLists.txt) generate --tool D: goldens, the
#                     providers' documented shapes, refusals, the CLI
#   test_tool_calls   the client reads each provider's tool calls with the
#                     arguments' exact bytes; the parser rejects 1.0 and a
#                     duplicate key from them; contractc_json_span
if(TARGET contractc_chat_client)
  contractc_check_test(test_tool_calls LIBS contractc_chat_client test_contracts PkgConfig::CJSON)
else()
  add_test(NAME test_tool_calls COMMAND ${CMAKE_COMMAND} -E echo
    "SKIP: libcurl was not found, so the chat client (client/) and its tool-call test are not built")
  set_tests_properties(test_tool_calls PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP:")
endif()
# test_toolset: contractc_toolset_parse routes by tool name; unknown_tool in
# the problem list, the repair turn, the log and stats
contractc_check_test(test_toolset GENERATOR LIBS test_contracts)
# The generated toolset (docs/tools.md, "Generated toolsets"): the golden
# files (tests/golden/agent_tools: read them to review), and the names
# `contractc toolset` refuses, each with its reason and exit 2.
add_test(NAME toolset_golden
  COMMAND contractc toolset agent_tools
          ${PROJECT_SOURCE_DIR}/examples/agent/lookup_order.contract.yaml
          ${PROJECT_SOURCE_DIR}/examples/agent/issue_refund.contract.yaml
          -o ${CMAKE_CURRENT_SOURCE_DIR}/golden/agent_tools --check)
add_test(NAME toolset_refuses_a_name_sharing_a_contract_prefix
  COMMAND sh -c "\"$1\" toolset lookup \"$2\" -o \"$3\"; echo exit=$?" sh
          $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR}/examples/agent/lookup_order.contract.yaml
          ${CMAKE_CURRENT_BINARY_DIR}/toolset-refused)
set_tests_properties(toolset_refuses_a_name_sharing_a_contract_prefix PROPERTIES
  PASS_REGULAR_EXPRESSION "contractc toolset: the toolset name 'lookup' and the contract 'lookup_order' share a C prefix.*\nexit=2\n$")
add_test(NAME toolset_refuses_two_contracts_of_one_name
  COMMAND sh -c "\"$1\" toolset tools \"$2\" \"$2\" -o \"$3\"; echo exit=$?" sh
          $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR}/examples/agent/lookup_order.contract.yaml
          ${CMAKE_CURRENT_BINARY_DIR}/toolset-refused)
set_tests_properties(toolset_refuses_two_contracts_of_one_name PROPERTIES
  PASS_REGULAR_EXPRESSION "two contracts named 'lookup_order'.*\nexit=2\n$")
add_test(NAME toolset_refuses_a_name_that_is_not_an_identifier
  COMMAND sh -c "\"$1\" toolset Tools-1 \"$2\" -o \"$3\"; echo exit=$?" sh
          $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR}/examples/agent/lookup_order.contract.yaml
          ${CMAKE_CURRENT_BINARY_DIR}/toolset-refused)
set_tests_properties(toolset_refuses_a_name_that_is_not_an_identifier PROPERTIES
  PASS_REGULAR_EXPRESSION "the toolset name 'Tools-1' is not \\[a-z\\]\\[a-z0-9_\\]\\*.*\nexit=2\n$")
add_test(NAME toolset_refuses_a_name_the_runtime_owns
  COMMAND sh -c "\"$1\" toolset contractc_tools \"$2\" -o \"$3\"; echo exit=$?" sh
          $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR}/examples/agent/lookup_order.contract.yaml
          ${CMAKE_CURRENT_BINARY_DIR}/toolset-refused)
set_tests_properties(toolset_refuses_a_name_the_runtime_owns PROPERTIES
  PASS_REGULAR_EXPRESSION "the toolset name 'contractc_tools' is reserved: names starting with 'contractc' are the runtime's own\nexit=2\n$")
