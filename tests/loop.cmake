# SPDX-License-Identifier: MIT
# The repair loop, the decision log, `contractc stats` and the chat client
# (docs/contract-language.md §14, §15; docs/client.md).  Included by tests/CMakeLists.txt.
contractc_check_test(test_loop LIBS test_contracts)
contractc_check_test(test_log LIBS test_contracts PkgConfig::CJSON)
contractc_check_test(test_stats GENERATOR LIBS test_contracts PkgConfig::CJSON m)

# The chat client against the loopback replay server (tests/support/replay_server.py).
# It sends the openai-strict schema that `contractc generate` writes (the
# test falls back to the portable schema, loudly, if the dialect is refused).
# Debian's python3 first (version managers' shims can take seconds to start).
find_program(CONTRACTC_PYTHON3 NAMES python3 HINTS /usr/bin)
if(TARGET contractc_chat_client)
  contractc_check_test(test_client LIBS contractc_chat_client test_contracts PkgConfig::CJSON)
  if(CONTRACTC_PYTHON3)
    set(_python ${CONTRACTC_PYTHON3})
  else()
    set(_python /usr/bin/python3) # absent: the test skips, saying so
  endif()
  target_compile_definitions(test_client PRIVATE CONTRACTC_PYTHON="${_python}"
    CONTRACTC_EXE="$<TARGET_FILE:contractc>")
  add_dependencies(test_client contractc)
  set_tests_properties(test_client PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
  # The reader of a streamed response, without a network (client/chat_stream.c).
  contractc_check_test(test_chat_stream LIBS contractc_chat_client test_contracts PkgConfig::CJSON)
else()
  add_test(NAME test_client COMMAND ${CMAKE_COMMAND} -E echo
    "SKIP: libcurl was not found, so the chat client (client/) and its test are not built")
  set_tests_properties(test_client PROPERTIES SKIP_REGULAR_EXPRESSION "SKIP:")
endif()
