# SPDX-License-Identifier: MIT
# Installation: `cmake --install BUILD [--prefix P]` puts
#   bin/contractc                                   the generator
#   MANDIR/man1/contractc.1                         its manual page (share/man)
#   LIBDIR/libcontractc_runtime.a, .so              the runtime, static and shared
#   include/contractc/contractc.h                   its public header
#   LIBDIR/cmake/contractc/                         the CMake package:
#       contractcConfig.cmake, contractcConfigVersion.cmake,
#       contractcTargets*.cmake (contractc::runtime, contractc::runtime_shared,
#       contractc::contractc), contractc_generate.cmake
#   LIBDIR/pkgconfig/contractc-runtime.pc           pkg-config
#   DATADIR/contractc/contract.schema.json          the editor schema of a contract
#                                                   (yaml-language-server; with the generator)
# and, when the chat client is built (libcurl found):
#   LIBDIR/libcontractc_chat_client.a, include/contractc/client.h,
#   contractcClientTargets*.cmake (contractc::client),
#   LIBDIR/pkgconfig/contractc-client.pc
# The CMake package locates the other files relative to itself, so an
# install tree can be moved.  A .pc file names the prefix it is installed to
# (`--prefix P`, else CMAKE_INSTALL_PREFIX): pkg-config's answers are then
# the paths a packager expects (prefix=/usr, libdir=${prefix}/lib/<multiarch>,
# includedir=${prefix}/include), and a system prefix's -I and -L are the
# ones pkg-config leaves out.  DESTDIR is not part of any path in them.
include(CMakePackageConfigHelpers)

# contractc_install_pkgconfig(TEMPLATE NAME): installs TEMPLATE as
# LIBDIR/pkgconfig/NAME.pc.  Its @VAR@s are filled in at configure time,
# except three:
#   @CONTRACTC_PC_PREFIX@      the install prefix, filled in at install time
#   @CONTRACTC_PC_LIBDIR@      ${prefix}/CMAKE_INSTALL_LIBDIR, or that
#   @CONTRACTC_PC_INCLUDEDIR@  directory itself when it is absolute (the
#                              same for CMAKE_INSTALL_INCLUDEDIR)
function(contractc_install_pkgconfig template name)
  foreach(dir LIBDIR INCLUDEDIR)
    if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
      set(CONTRACTC_PC_${dir} "${CMAKE_INSTALL_${dir}}")
    else()
      set(CONTRACTC_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
    endif()
  endforeach()
  set(CONTRACTC_PC_PREFIX "@CONTRACTC_PC_PREFIX@") # kept for install time
  set(_stage ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc.in)
  set(_final ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc)
  configure_file(${template} ${_stage} @ONLY)
  install(CODE "
    get_filename_component(CONTRACTC_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\" ABSOLUTE)
    configure_file(\"${_stage}\" \"${_final}\" @ONLY)")
  install(FILES ${_final} DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endfunction()

set(CONTRACTC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/contractc
    CACHE STRING "Where the contractc CMake package is installed, relative to the prefix")

install(TARGETS contractc_runtime contractc_runtime_shared
  EXPORT contractcTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET contractc)
  install(TARGETS contractc EXPORT contractcTargets
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # the manual page, written by hand (tests/cli/cli.sh renders it)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/contractc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${PROJECT_SOURCE_DIR}/docs/contract.schema.json
    DESTINATION ${CMAKE_INSTALL_DATADIR}/contractc)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/contractc
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

install(EXPORT contractcTargets
  NAMESPACE contractc::
  DESTINATION ${CONTRACTC_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/contractcConfig.cmake.in
  ${PROJECT_BINARY_DIR}/contractcConfig.cmake
  INSTALL_DESTINATION ${CONTRACTC_INSTALL_CMAKEDIR}
  NO_SET_AND_CHECK_MACRO)
# Before 1.0 a minor release may change the descriptor ABI and the API, so
# find_package(contractc 0.1) accepts 0.1.x only.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/contractcConfigVersion.cmake
  VERSION ${PROJECT_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/contractcConfig.cmake
  ${PROJECT_BINARY_DIR}/contractcConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/contractc_generate.cmake
  DESTINATION ${CONTRACTC_INSTALL_CMAKEDIR})
contractc_install_pkgconfig(${PROJECT_SOURCE_DIR}/runtime/contractc-runtime.pc.in contractc-runtime)

# The chat client: its own export set, so that contractcConfig.cmake loads
# it only where libcurl and cJSON are found.  The .pc file takes the
# same prefix and path lines as the runtime's (contractc_install_pkgconfig).
if(TARGET contractc_chat_client)
  install(TARGETS contractc_chat_client EXPORT contractcClientTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/client/include/contractc/client.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/contractc)
  install(EXPORT contractcClientTargets
    NAMESPACE contractc::
    DESTINATION ${CONTRACTC_INSTALL_CMAKEDIR})
  contractc_install_pkgconfig(${PROJECT_SOURCE_DIR}/client/contractc-client.pc.in contractc-client)
endif()
