# contractc_generate(TARGET target CONTRACTS file... [OUTPUT_DIR dir])
#
# Generates NAME.h, NAME.c, NAME.schema.json and NAME.prompt.txt for each
# contract at build time (re-run when the contract or the generator changes)
# and creates -- or extends, if it exists -- the static library `target`
# with the generated sources, their include directory and contractc::runtime.
# The contract's name is the file name up to ".contract.yaml" (or ".yaml"),
# which must match its `contract:` key.
function(contractc_generate)
  cmake_parse_arguments(CG "" "TARGET;OUTPUT_DIR;SCHEMA_DIALECT;SCHEMA_VAR;PROMPT_VAR" "CONTRACTS" ${ARGN})
  if(NOT CG_TARGET OR NOT CG_CONTRACTS)
    message(FATAL_ERROR "contractc_generate: TARGET and CONTRACTS are required")
  endif()
  if(NOT CG_OUTPUT_DIR)
    set(CG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/contractc)
  endif()
  if(TARGET contractc::contractc)
    set(_gen contractc::contractc)
  else()
    set(_gen contractc)
  endif()
  set(_sources "")
  foreach(_contract IN LISTS CG_CONTRACTS)
    get_filename_component(_abs ${_contract} ABSOLUTE)
    get_filename_component(_file ${_abs} NAME)
    string(REGEX REPLACE "(\\.contract)?\\.ya?ml$" "" _name "${_file}")
    set(_out ${CG_OUTPUT_DIR}/${_name}.h ${CG_OUTPUT_DIR}/${_name}.c
             ${CG_OUTPUT_DIR}/${_name}.schema.json ${CG_OUTPUT_DIR}/${_name}.prompt.txt)
    add_custom_command(
      OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CG_OUTPUT_DIR}
      COMMAND ${_gen} generate ${_abs} -o ${CG_OUTPUT_DIR}
      DEPENDS ${_abs} ${_gen}
      COMMENT "contractc: generating ${_name} from ${_file}"
      VERBATIM)
    list(APPEND _sources ${CG_OUTPUT_DIR}/${_name}.c ${CG_OUTPUT_DIR}/${_name}.h)
  endforeach()
  if(NOT TARGET ${CG_TARGET})
    add_library(${CG_TARGET} STATIC)
  endif()
  target_sources(${CG_TARGET} PRIVATE ${_sources})
  target_include_directories(${CG_TARGET} PUBLIC ${CG_OUTPUT_DIR})
  if(TARGET contractc::runtime)
    target_link_libraries(${CG_TARGET} PUBLIC contractc::runtime)
  endif()
endfunction()
