# SPDX-License-Identifier: MIT
# The command line's conventions (tests/cli/cli.sh, one case per test):
# --help, checked standard output, bounded reply reads, -o and vendor
# parents, rewrite only on change, --check's regenerate command, help CMD,
# -q, - for stdin, --depfile, the man page.
foreach(case help stdout_full bounded_reply directories unchanged check_message help_alias quiet
        stdin depfile manpage)
  add_test(NAME cli_${case} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/cli.sh ${case})
  set_tests_properties(cli_${case} PROPERTIES
    ENVIRONMENT "CONTRACTC=$<TARGET_FILE:contractc>;SRC=${PROJECT_SOURCE_DIR};WORK=${CMAKE_CURRENT_BINARY_DIR}/cli/${case}"
    SKIP_RETURN_CODE 77
    TIMEOUT 60)
endforeach()
