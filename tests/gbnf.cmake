# SPDX-License-Identifier: MIT
# GBNF for local models (docs/grammar.md).  Included by tests/CMakeLists.txt.
#
#   test_gbnf          Check: golden NAME.gbnf and notes, NAME_gbnf[] only
#                      when asked, exact ranges, limits noted, the escaper
#   gbnf_node_setup    npm ci of tests/gbnf (node-llama-cpp 3.21.1, CPU)
#   gbnf_oracle        llama.cpp's grammar engine: every grammar parses;
#                      sound on a random walk of each grammar, the reply
#                      cases, the bench corpora and fuzzed replies; complete
#                      on the canonical form of every accepted reply
#
# The oracle runs in the gcc build only (scripts/test.sh's other builds
# would run the same node script against the same grammars).
contractc_check_test(test_gbnf GENERATOR)
contractc_check_test(test_gbnf_grounded)

if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  set(GBNF_NODE_DIR ${CMAKE_CURRENT_BINARY_DIR}/gbnf-node)
  set(GBNF_DIR ${CMAKE_CURRENT_SOURCE_DIR}/gbnf)
  add_test(NAME gbnf_node_setup
    COMMAND bash ${GBNF_DIR}/setup.sh ${GBNF_DIR} ${GBNF_NODE_DIR})
  set_tests_properties(gbnf_node_setup PROPERTIES FIXTURES_SETUP gbnf_node
    SKIP_RETURN_CODE 77 TIMEOUT 300)
  add_executable(gbnf_grounded_tool gbnf/grounded_tool.c)
  target_compile_options(gbnf_grounded_tool PRIVATE ${CONTRACTC_WARNINGS})
  target_link_libraries(gbnf_grounded_tool PRIVATE contractc_runtime)
  add_test(NAME gbnf_oracle
    COMMAND bash ${GBNF_DIR}/run-node.sh ${GBNF_NODE_DIR} ${GBNF_DIR}/oracle.mjs
            $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR} ${GBNF_NODE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/gbnf-corpus $<TARGET_FILE:bench_gen_corpus>
            $<TARGET_FILE:gbnf_grounded_tool>)
  set_tests_properties(gbnf_oracle PROPERTIES FIXTURES_REQUIRED gbnf_node
    SKIP_RETURN_CODE 77 TIMEOUT 240)
endif()

# The side-by-side table (docs/grammar.md, "Exactness"): contractc's GBNF
# and node-llama-cpp's JSON-Schema converter on the replies the parser
# rejects, by problem kind, with a control row of valid replies.
if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CONTRACTC_SANITIZE)
  add_test(NAME gbnf_exactness
    COMMAND bash ${GBNF_DIR}/run-node.sh ${GBNF_NODE_DIR} ${GBNF_DIR}/exactness.mjs
            $<TARGET_FILE:contractc> ${PROJECT_SOURCE_DIR} ${GBNF_NODE_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/gbnf-corpus $<TARGET_FILE:bench_gen_corpus>)
  set_tests_properties(gbnf_exactness PROPERTIES FIXTURES_REQUIRED gbnf_node
    SKIP_RETURN_CODE 77 TIMEOUT 240)
endif()
