# SPDX-License-Identifier: MIT
# Included from generator/CMakeLists.txt: compiles the vendorable runtime
# (cmake/embed_runtime.cmake) into the generator for `contractc vendor`.
# The runtime's source list is read from the contractc_runtime target, so a
# new runtime file is vendored as soon as it is built.
get_target_property(_rt_sources contractc_runtime SOURCES)
get_target_property(_rt_dir contractc_runtime SOURCE_DIR)
set(_rt_names "")
set(_rt_deps "")
foreach(s IN LISTS _rt_sources)
  get_filename_component(_n ${s} NAME)
  list(APPEND _rt_names ${_n})
  list(APPEND _rt_deps ${_rt_dir}/src/${_n})
endforeach()
list(JOIN _rt_names "|" _rt_names)
file(GLOB _rt_private_headers CONFIGURE_DEPENDS ${_rt_dir}/src/*.h)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/vendor_files.c ${CMAKE_CURRENT_BINARY_DIR}/vendor/contractc_runtime.c
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/vendor
  COMMAND ${CMAKE_COMMAND} -DSRC_DIR=${_rt_dir}/src "-DSOURCES=${_rt_names}"
          -DHEADER=${_rt_dir}/include/contractc/contractc.h
          -DLICENSE=${PROJECT_SOURCE_DIR}/LICENSE
          -DVERSION=${PROJECT_VERSION}
          -DAMALGAMATION=${CMAKE_CURRENT_BINARY_DIR}/vendor/contractc_runtime.c
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/vendor_files.c
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_runtime.cmake
  DEPENDS ${_rt_deps} ${_rt_private_headers} ${_rt_dir}/include/contractc/contractc.h
          ${PROJECT_SOURCE_DIR}/cmake/embed_runtime.cmake ${PROJECT_SOURCE_DIR}/LICENSE
  COMMENT "Amalgamating the runtime for contractc vendor"
  VERBATIM)
target_sources(contractc_gen PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/vendor_files.c)
