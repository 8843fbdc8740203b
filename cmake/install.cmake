# Installation: `cmake --install BUILD [--prefix P]` puts
#   bin/contractc                                   the generator
#   LIBDIR/libcontractc_runtime.a, .so              the runtime, static and shared
#   include/contractc/contractc.h                   its public header
#   LIBDIR/cmake/contractc/                         the CMake package:
#       contractcConfig.cmake, contractcConfigVersion.cmake,
#       contractcTargets*.cmake (contractc::runtime, contractc::runtime_shared,
#       contractc::contractc), contractc_generate.cmake
#   LIBDIR/pkgconfig/contractc-runtime.pc           pkg-config
# and, when the chat client is built (libcurl found):
#   LIBDIR/libcontractc_chat_client.a, include/contractc/client.h,
#   contractcClientTargets*.cmake (contractc::client),
#   LIBDIR/pkgconfig/contractc-client.pc
# Every installed file locates the others relative to itself, so an install
# tree can be moved or installed with any --prefix.
include(CMakePackageConfigHelpers)

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
install(FILES ${PROJECT_BINARY_DIR}/runtime/contractc-runtime.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The chat client: its own export set, so that contractcConfig.cmake loads
# it only where libcurl and cJSON are found.  The .pc file takes the
# runtime's relocatable path lines (runtime/CMakeLists.txt).
if(TARGET contractc_chat_client)
  install(TARGETS contractc_chat_client EXPORT contractcClientTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/client/include/contractc/client.h
    DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/contractc)
  install(EXPORT contractcClientTargets
    NAMESPACE contractc::
    DESTINATION ${CONTRACTC_INSTALL_CMAKEDIR})
  foreach(_v CONTRACTC_PC_PREFIX_LINE CONTRACTC_PC_LIBDIR CONTRACTC_PC_INCLUDEDIR)
    get_directory_property(${_v} DIRECTORY ${PROJECT_SOURCE_DIR}/runtime DEFINITION ${_v})
  endforeach()
  configure_file(${PROJECT_SOURCE_DIR}/client/contractc-client.pc.in
    ${PROJECT_BINARY_DIR}/client/contractc-client.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/client/contractc-client.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
