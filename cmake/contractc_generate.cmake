# contractc_generate(TARGET target
#                    CONTRACTS file...
#                    [OUTPUT_DIR dir]
#                    [SCHEMA_DIALECT dialect...]
#                    [SCHEMA_VAR var]
#                    [PROMPT_VAR var])
#
# Generates, at build time, NAME.h, NAME.c, NAME.schema.json and
# NAME.prompt.txt for each contract (and NAME.D.schema.json and
# NAME.D.notes.txt for each SCHEMA_DIALECT D), and creates -- or extends, if
# it already exists -- the library `target` with the generated sources, their
# include directory (PUBLIC) and contractc::runtime (PUBLIC).  A new target
# is a STATIC library unless BUILD_SHARED_LIBS says otherwise.
#
#   CONTRACTS       contract files, relative to the current source directory
#                   or absolute.  NAME is the contract's `contract:` key (read
#                   at configure time; changing it reconfigures), else the
#                   file name up to ".contract.yaml" or ".yaml".
#   OUTPUT_DIR      where the files go; relative to the current binary
#                   directory; default ${CMAKE_CURRENT_BINARY_DIR}/contractc.
#   SCHEMA_DIALECT  provider dialects (openai-strict, gemini, anthropic,
#                   llama-cpp) passed as `--schema-dialect D`.
#   SCHEMA_VAR      set in the caller's scope to the schema file of each
#                   contract that a provider is given: NAME.D.schema.json for
#                   each SCHEMA_DIALECT D, else NAME.schema.json.
#   PROMPT_VAR      set in the caller's scope to each NAME.prompt.txt.
#
# The files are regenerated when a contract or the generator binary changes
# (the generator's templates are compiled into it).  The generator is the
# target contractc::contractc: imported by find_package(contractc), or the
# `contractc` target of this source tree.  Output is byte-identical whatever
# the build, working or output directory, path form or locale.
if(TARGET contractc AND NOT TARGET contractc::contractc)
  # in the contractc tree itself: the same name an installed package exports
  add_executable(contractc::contractc ALIAS contractc)
endif()

function(contractc_generate)
  cmake_parse_arguments(CG "" "TARGET;OUTPUT_DIR;SCHEMA_VAR;PROMPT_VAR"
                        "CONTRACTS;SCHEMA_DIALECT" ${ARGN})
  if(CG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "contractc_generate: unknown arguments: ${CG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CG_TARGET OR NOT CG_CONTRACTS)
    message(FATAL_ERROR "contractc_generate: TARGET and CONTRACTS are required")
  endif()
  if(NOT TARGET contractc::contractc)
    message(FATAL_ERROR "contractc_generate: no generator: call find_package(contractc) first "
                        "(it imports contractc::contractc)")
  endif()
  foreach(d IN LISTS CG_SCHEMA_DIALECT)
    if(NOT d MATCHES "^(openai-strict|gemini|anthropic|llama-cpp)$")
      message(FATAL_ERROR "contractc_generate: unknown SCHEMA_DIALECT '${d}' "
                          "(known: openai-strict, gemini, anthropic, llama-cpp)")
    endif()
  endforeach()
  if(NOT CG_OUTPUT_DIR)
    set(CG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/contractc)
  endif()
  get_filename_component(CG_OUTPUT_DIR ${CG_OUTPUT_DIR} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})

  # The command runs the real target (and depends on it, so it is built
  # first and a rebuilt generator re-runs it); an imported generator is a
  # file dependency instead.
  get_target_property(_gen contractc::contractc ALIASED_TARGET)
  if(_gen)
    set(_gen_depends ${_gen})
  else()
    set(_gen contractc::contractc)
    set(_gen_depends $<TARGET_FILE:contractc::contractc>)
  endif()
  set(_flags "")
  foreach(d IN LISTS CG_SCHEMA_DIALECT)
    list(APPEND _flags --schema-dialect ${d})
  endforeach()

  set(_sources "")
  set(_schemas "")
  set(_prompts "")
  foreach(_contract IN LISTS CG_CONTRACTS)
    get_filename_component(_abs ${_contract} ABSOLUTE)
    if(NOT EXISTS ${_abs})
      message(FATAL_ERROR "contractc_generate: contract ${_abs} does not exist")
    endif()
    get_filename_component(_file ${_abs} NAME)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_abs})
    file(STRINGS ${_abs} _key REGEX "^contract:" LIMIT_COUNT 1)
    if(_key MATCHES "^contract:[ \t]*[\"']?([A-Za-z_][A-Za-z0-9_]*)")
      set(_name ${CMAKE_MATCH_1})
    else()
      string(REGEX REPLACE "(\\.contract)?\\.ya?ml$" "" _name "${_file}")
    endif()
    set(_out ${CG_OUTPUT_DIR}/${_name}.h ${CG_OUTPUT_DIR}/${_name}.c
             ${CG_OUTPUT_DIR}/${_name}.schema.json ${CG_OUTPUT_DIR}/${_name}.prompt.txt)
    list(APPEND _prompts ${CG_OUTPUT_DIR}/${_name}.prompt.txt)
    if(CG_SCHEMA_DIALECT)
      foreach(d IN LISTS CG_SCHEMA_DIALECT)
        list(APPEND _out ${CG_OUTPUT_DIR}/${_name}.${d}.schema.json
                         ${CG_OUTPUT_DIR}/${_name}.${d}.notes.txt)
        list(APPEND _schemas ${CG_OUTPUT_DIR}/${_name}.${d}.schema.json)
      endforeach()
    else()
      list(APPEND _schemas ${CG_OUTPUT_DIR}/${_name}.schema.json)
    endif()
    add_custom_command(
      OUTPUT ${_out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CG_OUTPUT_DIR}
      COMMAND ${_gen} generate ${_abs} -o ${CG_OUTPUT_DIR} ${_flags}
      DEPENDS ${_abs} ${_gen_depends}
      COMMENT "contractc: generating ${_name} from ${_file}"
      VERBATIM)
    list(APPEND _sources ${CG_OUTPUT_DIR}/${_name}.c ${CG_OUTPUT_DIR}/${_name}.h)
  endforeach()

  if(NOT TARGET ${CG_TARGET})
    add_library(${CG_TARGET})
  else()
    get_target_property(_type ${CG_TARGET} TYPE)
    if(NOT _type MATCHES "^(STATIC|SHARED|OBJECT|MODULE)_LIBRARY$")
      message(FATAL_ERROR "contractc_generate: ${CG_TARGET} exists and is a ${_type}, "
                          "not a library that can hold the generated sources")
    endif()
  endif()
  target_sources(${CG_TARGET} PRIVATE ${_sources})
  target_include_directories(${CG_TARGET} PUBLIC $<BUILD_INTERFACE:${CG_OUTPUT_DIR}>)
  # the generated C uses designated initializers and <stdbool.h>: C99
  target_compile_features(${CG_TARGET} PRIVATE c_std_99)
  target_link_libraries(${CG_TARGET} PUBLIC contractc::runtime)
  if(CG_SCHEMA_VAR)
    set(${CG_SCHEMA_VAR} ${_schemas} PARENT_SCOPE)
  endif()
  if(CG_PROMPT_VAR)
    set(${CG_PROMPT_VAR} ${_prompts} PARENT_SCOPE)
  endif()
endfunction()
