# SPDX-License-Identifier: MIT
# contractc_generate(TARGET target
#                    CONTRACTS file...
#                    [OUTPUT_DIR dir]
#                    [SCHEMA_DIALECT dialect...]
#                    [GRAMMAR gbnf]
#                    [TOOLS tool...]
#                    [TOOLSET name]
#                    [SCHEMA_VAR var]
#                    [PROMPT_VAR var]
#                    [GRAMMAR_VAR var]
#                    [RUNTIME static|shared])
#
# Generates, at build time, NAME.h, NAME.c, NAME.schema.json and
# NAME.prompt.txt for each contract (and NAME.D.schema.json and
# NAME.D.notes.txt for each schema dialect D, see SCHEMA_DIALECT; NAME.gbnf
# and NAME.gbnf.notes.txt with GRAMMAR gbnf; NAME.D.tool.json and
# NAME.D.tool.notes.txt for each tool D, see TOOLS), and
# creates -- or extends, if it already exists -- the library `target` with
# the generated sources, their include directory (PUBLIC) and the runtime
# (PUBLIC).  A new target is a STATIC library unless BUILD_SHARED_LIBS says
# otherwise.
#
#   CONTRACTS       contract files, relative to the current source directory
#                   or absolute.  NAME is the contract's `contract:` key (read
#                   at configure time; changing it reconfigures), else the
#                   file name up to ".contract.yaml" or ".yaml".
#   OUTPUT_DIR      where the files go; relative to the current binary
#                   directory; default ${CMAKE_CURRENT_BINARY_DIR}/contractc.
#   SCHEMA_DIALECT  provider dialects (openai-strict, gemini, anthropic,
#                   llama-cpp) passed as `--schema-dialect D`.  Without it,
#                   a contract's own `schema: {dialect: D}` selects D, as
#                   it does for `contractc generate` (docs/dialects.md); the
#                   key is read at configure time like `contract:`.
#   GRAMMAR         `gbnf`: passed as `--grammar gbnf`, so each contract also
#                   gets NAME.gbnf (llama.cpp's GBNF, root rule `root`) and
#                   NAME.gbnf.notes.txt (what the grammar does not carry),
#                   and NAME.c the grammar as NAME_gbnf[] and NAME_gbnf_len
#                   (declared in NAME.h; docs/grammar.md).
#   TOOLS           tool definitions (openai, anthropic, gemini, mcp) passed
#                   as `--tool D`: NAME.D.tool.json and NAME.D.tool.notes.txt
#                   for each, and NAME_tool_D_json[] in NAME.c
#                   (docs/tools.md).
#   TOOLSET         a name: also NAME.h and NAME.c of `contractc toolset
#                   NAME CONTRACT...`, the CONTRACTS of this call as one set
#                   of tools (NAME_call_t, NAME_parse_call, NAME_loop_run;
#                   docs/tools.md, "Generated toolsets").
#   SCHEMA_VAR      set in the caller's scope to the schema file of each
#                   contract that a provider is given: NAME.D.schema.json for
#                   each SCHEMA_DIALECT D, else for the contract's own
#                   dialect D, else NAME.schema.json.
#   PROMPT_VAR      set in the caller's scope to each NAME.prompt.txt.
#   GRAMMAR_VAR     set in the caller's scope to each NAME.gbnf (needs
#                   GRAMMAR gbnf).
#   RUNTIME         the runtime `target` links: `static` (the default,
#                   contractc::runtime) or `shared` (contractc::runtime_shared,
#                   libcontractc_runtime.so).  One target links one of them:
#                   extending it with the other is an error.
#
# The generated NAME.c files are C.  Including this file (find_package
# does) in a project that enabled other languages but not C -- project(app
# CXX) -- enables C, since enable_language() may not be called from inside a
# function; a project that enabled no language (project(app NONE)) may use
# the generator alone, and contractc_generate() tells it to enable C.
#
# The files are regenerated when a contract or the generator binary changes
# (the generator's templates are compiled into it).  With the Ninja and
# Makefile generators the command also writes a depfile (`contractc generate
# --depfile`, as protoc's --dependency_out), read through
# add_custom_command(DEPFILE): the files a contract is made from are named
# by the generator itself.  The generator rewrites a file only when its
# bytes change, so under Ninja an edit that changes no output (a YAML
# comment) recompiles nothing (restat); other generators touch the outputs
# after the command, so it does not rerun on every build.  The generator is the
# target contractc::contractc: imported by find_package(contractc), or the
# `contractc` target of this source tree.  Output is byte-identical whatever
# the build, working or output directory, path form or locale.

# DEPFILE paths relative to the binary directory (CMP0116, CMake 3.20); the
# depfile's paths are absolute either way.  The function records the policy
# when it is defined below.
if(POLICY CMP0116)
  cmake_policy(SET CMP0116 NEW)
endif()
get_property(_contractc_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
if(NOT CMAKE_C_COMPILER_LOADED AND _contractc_languages AND NOT _contractc_languages STREQUAL "NONE"
   AND NOT CMAKE_CURRENT_FUNCTION)
  message(STATUS "contractc: enabling C for the generated parsers (NAME.c is C)")
  enable_language(C)
endif()
unset(_contractc_languages)

if(TARGET contractc AND NOT TARGET contractc::contractc)
  # in the contractc tree itself: the same name an installed package exports
  add_executable(contractc::contractc ALIAS contractc)
endif()

# _contractc_own_dialect(VAR FILE): VAR = the schema dialect that FILE's
# top-level `schema:` setting selects (docs/contract-language.md), or empty.
# The two forms a contract writes it in are read, quotes and comments
# allowed:
#   schema: {dialect: D}        schema:
#                                 dialect: D
# A `schema:` key in another form is an error rather than a guess: the files
# declared from it must be the ones the generator writes.  An unknown D is
# left to the generator, whose diagnostic names its line.
function(_contractc_own_dialect var file)
  file(READ ${file} _text)
  string(REPLACE "\r" "" _text "${_text}")
  set(_d "")
  set(_q "[\"']?")
  if("\n${_text}" MATCHES "\n${_q}schema${_q}[ \t]*:([^\n]*)((\n([ \t#][^\n]*)?)*)")
    set(_inline "${CMAKE_MATCH_1}")
    set(_block "${CMAKE_MATCH_2}")
    string(REGEX REPLACE "[ \t]#.*$" "" _inline " ${_inline}")
    string(STRIP "${_inline}" _inline)
    set(_value "[ \t]*:[ \t]*${_q}([A-Za-z0-9_.-]+)")
    if(_inline STREQUAL "")
      if(_block MATCHES "\n[ \t]+${_q}dialect${_q}${_value}")
        set(_d ${CMAKE_MATCH_1})
      endif()
    elseif(_inline MATCHES "^{(.*)}$")
      set(_flow "${CMAKE_MATCH_1}")
      if(",${_flow}" MATCHES ",[ \t]*${_q}dialect${_q}${_value}")
        set(_d ${CMAKE_MATCH_1})
      elseif(_flow MATCHES "dialect")
        set(_d "?")
      endif()
    elseif(NOT _inline MATCHES "^(null|~|Null|NULL)$")
      set(_d "?")
    endif()
  endif()
  if(_d STREQUAL "?")
    message(FATAL_ERROR "contractc_generate: cannot read the 'schema:' setting of ${file} at "
      "configure time: write it as 'schema: {dialect: D}' on one line or as a block "
      "(a 'schema:' line, then an indented 'dialect: D'), or pass SCHEMA_DIALECT D")
  endif()
  if(NOT _d MATCHES "^(openai-strict|gemini|anthropic|llama-cpp)$")
    set(_d "")
  endif()
  set(${var} "${_d}" PARENT_SCOPE)
endfunction()

function(contractc_generate)
  cmake_parse_arguments(CG "" "TARGET;OUTPUT_DIR;SCHEMA_VAR;PROMPT_VAR;RUNTIME;GRAMMAR;GRAMMAR_VAR;TOOLSET"
                        "CONTRACTS;SCHEMA_DIALECT;TOOLS" ${ARGN})
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
  if(NOT CMAKE_C_COMPILER_LOADED)
    message(FATAL_ERROR "contractc_generate: the generated NAME.c files are C, and C is not "
      "enabled here: name it in project() (project(app C CXX)) or call enable_language(C) "
      "before find_package(contractc)")
  endif()
  if(NOT CG_RUNTIME)
    set(CG_RUNTIME static)
  endif()
  string(TOLOWER "${CG_RUNTIME}" CG_RUNTIME)
  if(CG_RUNTIME STREQUAL "static")
    set(_runtime contractc::runtime)
  elseif(CG_RUNTIME STREQUAL "shared")
    set(_runtime contractc::runtime_shared)
  else()
    message(FATAL_ERROR "contractc_generate: RUNTIME is static or shared, not '${CG_RUNTIME}'")
  endif()
  if(NOT TARGET ${_runtime})
    message(FATAL_ERROR "contractc_generate: RUNTIME ${CG_RUNTIME} needs the target ${_runtime}, "
                        "which this contractc package does not provide")
  endif()
  foreach(d IN LISTS CG_SCHEMA_DIALECT)
    if(NOT d MATCHES "^(openai-strict|gemini|anthropic|llama-cpp)$")
      message(FATAL_ERROR "contractc_generate: unknown SCHEMA_DIALECT '${d}' "
                          "(known: openai-strict, gemini, anthropic, llama-cpp)")
    endif()
  endforeach()
  if("GRAMMAR" IN_LIST CG_KEYWORDS_MISSING_VALUES OR
     (DEFINED CG_GRAMMAR AND NOT CG_GRAMMAR STREQUAL "gbnf"))
    message(FATAL_ERROR "contractc_generate: unknown GRAMMAR '${CG_GRAMMAR}' (known: gbnf)")
  endif()
  if(CG_GRAMMAR_VAR AND NOT CG_GRAMMAR)
    message(FATAL_ERROR "contractc_generate: GRAMMAR_VAR needs GRAMMAR gbnf")
  endif()
  foreach(t IN LISTS CG_TOOLS)
    if(NOT t MATCHES "^(openai|anthropic|gemini|mcp)$")
      message(FATAL_ERROR "contractc_generate: unknown TOOLS '${t}' "
                          "(known: openai, anthropic, gemini, mcp)")
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
  if(CG_GRAMMAR)
    list(APPEND _flags --grammar ${CG_GRAMMAR})
  endif()
  list(REMOVE_DUPLICATES CG_TOOLS)
  foreach(t IN LISTS CG_TOOLS)
    list(APPEND _flags --tool ${t})
  endforeach()

  set(_sources "")
  set(_schemas "")
  set(_prompts "")
  set(_grammars "")
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
    if(CG_GRAMMAR)
      list(APPEND _out ${CG_OUTPUT_DIR}/${_name}.gbnf ${CG_OUTPUT_DIR}/${_name}.gbnf.notes.txt)
      list(APPEND _grammars ${CG_OUTPUT_DIR}/${_name}.gbnf)
    endif()
    # the flags' dialects, or else the contract's own (as the generator picks)
    set(_dialects ${CG_SCHEMA_DIALECT})
    if(NOT _dialects)
      _contractc_own_dialect(_dialects ${_abs})
    endif()
    if(_dialects)
      foreach(d IN LISTS _dialects)
        list(APPEND _out ${CG_OUTPUT_DIR}/${_name}.${d}.schema.json
                         ${CG_OUTPUT_DIR}/${_name}.${d}.notes.txt)
        list(APPEND _schemas ${CG_OUTPUT_DIR}/${_name}.${d}.schema.json)
      endforeach()
    else()
      list(APPEND _schemas ${CG_OUTPUT_DIR}/${_name}.schema.json)
    endif()
    foreach(t IN LISTS CG_TOOLS)
      list(APPEND _out ${CG_OUTPUT_DIR}/${_name}.${t}.tool.json
                       ${CG_OUTPUT_DIR}/${_name}.${t}.tool.notes.txt)
    endforeach()
    # DEPFILE: Ninja (CMake 3.7+) and Makefiles (3.20+); other generators
    # (Visual Studio, Xcode) rely on DEPENDS alone
    set(_depfile_args "")
    set(_depfile_flags "")
    if(CMAKE_GENERATOR MATCHES "Ninja" OR
       (CMAKE_GENERATOR MATCHES "Makefiles" AND NOT CMAKE_VERSION VERSION_LESS 3.20))
      set(_depfile ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${CG_TARGET}.contractc/${_name}.d)
      set(_depfile_args DEPFILE ${_depfile})
      set(_depfile_flags --depfile ${_depfile})
    endif()
    # generate rewrites only the files whose bytes change.  Ninja re-checks
    # the outputs' times after the command (restat), so unchanged files
    # recompile nothing; the other generators compare times alone, and an
    # output left older than an edited contract would rerun the command on
    # every build: there the outputs are touched after it.
    set(_touch "")
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
      set(_touch COMMAND ${CMAKE_COMMAND} -E touch_nocreate ${_out})
    endif()
    # generate makes the output directory (and the depfile's) itself; -q:
    # no summary line per dialect in the build log
    add_custom_command(
      OUTPUT ${_out}
      COMMAND ${_gen} generate -q ${_abs} -o ${CG_OUTPUT_DIR} ${_flags} ${_depfile_flags}
      ${_touch}
      DEPENDS ${_abs} ${_gen_depends}
      ${_depfile_args}
      COMMENT "contractc: generating ${_name} from ${_file}"
      VERBATIM)
    list(APPEND _sources ${CG_OUTPUT_DIR}/${_name}.c ${CG_OUTPUT_DIR}/${_name}.h)
  endforeach()

  # The toolset: one command over every contract of this call, after the
  # contracts' own files (its NAME.c includes their NAME.h).
  if(CG_TOOLSET)
    if(NOT CG_TOOLSET MATCHES "^[a-z][a-z0-9_]*$")
      message(FATAL_ERROR "contractc_generate: TOOLSET '${CG_TOOLSET}' is not [a-z][a-z0-9_]*")
    endif()
    set(_abs_contracts "")
    foreach(_contract IN LISTS CG_CONTRACTS)
      get_filename_component(_abs ${_contract} ABSOLUTE)
      list(APPEND _abs_contracts ${_abs})
    endforeach()
    set(_ts_out ${CG_OUTPUT_DIR}/${CG_TOOLSET}.h ${CG_OUTPUT_DIR}/${CG_TOOLSET}.c)
    set(_touch "")
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
      set(_touch COMMAND ${CMAKE_COMMAND} -E touch_nocreate ${_ts_out})
    endif()
    add_custom_command(
      OUTPUT ${_ts_out}
      COMMAND ${_gen} toolset -q ${CG_TOOLSET} ${_abs_contracts} -o ${CG_OUTPUT_DIR}
      ${_touch}
      DEPENDS ${_abs_contracts} ${_gen_depends}
      COMMENT "contractc: generating the toolset ${CG_TOOLSET}"
      VERBATIM)
    list(APPEND _sources ${_ts_out})
  endif()

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
  get_target_property(_linked ${CG_TARGET} CONTRACTC_RUNTIME)
  if(_linked AND NOT _linked STREQUAL CG_RUNTIME)
    message(FATAL_ERROR "contractc_generate: ${CG_TARGET} already links the ${_linked} runtime; "
                        "one library cannot link both (RUNTIME ${CG_RUNTIME})")
  endif()
  set_target_properties(${CG_TARGET} PROPERTIES CONTRACTC_RUNTIME ${CG_RUNTIME})
  target_link_libraries(${CG_TARGET} PUBLIC ${_runtime})
  if(CG_SCHEMA_VAR)
    set(${CG_SCHEMA_VAR} ${_schemas} PARENT_SCOPE)
  endif()
  if(CG_PROMPT_VAR)
    set(${CG_PROMPT_VAR} ${_prompts} PARENT_SCOPE)
  endif()
  if(CG_GRAMMAR_VAR)
    set(${CG_GRAMMAR_VAR} ${_grammars} PARENT_SCOPE)
  endif()
endfunction()
