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
