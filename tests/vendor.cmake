# Build integration and vendoring (issue 7): each test is a script under
# tests/vendor/ run on a temporary install prefix of this build.  They use
# this build's C compiler (and its C++ sibling, found here: the project
# itself stays C-only) and, in a sanitizer build, the same sanitizer flags.
set(_vendor_dir ${CMAKE_CURRENT_BINARY_DIR}/vendor)
set(_vendor_prefix ${_vendor_dir}/prefix)
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  find_program(CONTRACTC_TEST_CXX NAMES clang++ g++ c++)
else()
  find_program(CONTRACTC_TEST_CXX NAMES g++ c++ clang++)
endif()
set(_vendor_san "")
if(CONTRACTC_SANITIZE)
  set(_vendor_san "-fsanitize=address,undefined -fno-sanitize-recover=all")
endif()
set(_vendor_env
  SRC=${PROJECT_SOURCE_DIR} PREFIX=${_vendor_prefix} BUILD=${PROJECT_BINARY_DIR}
  CC=${CMAKE_C_COMPILER} CXX=${CONTRACTC_TEST_CXX} "SAN=${_vendor_san}")

# vendor_test(NAME SCRIPT): runs tests/vendor/SCRIPT with its own WORK dir.
function(vendor_test name script)
  add_test(NAME ${name} COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/vendor/${script})
  set_tests_properties(${name} PROPERTIES
    ENVIRONMENT "${_vendor_env};WORK=${_vendor_dir}/${name}"
    FIXTURES_REQUIRED contractc_install
    SKIP_RETURN_CODE 77
    TIMEOUT 120)
endfunction()

add_test(NAME vendor_install_puts_the_package_in_a_prefix
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/vendor/install.sh)
set_tests_properties(vendor_install_puts_the_package_in_a_prefix PROPERTIES
  ENVIRONMENT "${_vendor_env}"
  FIXTURES_SETUP contractc_install
  TIMEOUT 60)
vendor_test(vendor_cmake_consumer_builds_and_regenerates_on_change consumer_cmake.sh)
vendor_test(vendor_make_consumer_builds_and_check_catches_drift consumer_make.sh)
vendor_test(vendor_vendored_runtime_builds_with_nothing_installed vendored.sh)
vendor_test(vendor_abi_mismatch_fails_at_compile_time_both_ways version_stamp.sh)
vendor_test(vendor_headers_compile_as_c99_c11_and_cxx17 cxx.sh)
vendor_test(vendor_client_installs_header_target_and_pkg_config client.sh)
vendor_test(vendor_installed_generator_is_deterministic_across_dirs_paths_locales determinism.sh)
vendor_test(vendor_runtime_only_build_needs_only_a_c_compiler runtime_only.sh)
