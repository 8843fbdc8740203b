# SPDX-License-Identifier: MIT
# Assembles the seed corpus of every fuzz target from the test data and the
# examples (cmake -P, run by fuzz/CMakeLists.txt at build time and by the
# test fuzz_seeds_are_assembled):
#
#   cmake -DSOURCE_DIR=<repo> -DOUTPUT_DIR=<dir> -P fuzz/seeds.cmake
#
# OUTPUT_DIR/TARGET/ is emptied and written again, the same bytes every run:
# inputs are taken in sorted order, seeds are named after where they come
# from, and a seed whose bytes another seed of the target already has is
# left out.  Nothing here is committed: fuzz/regressions/TARGET/ (the saved
# crashes) is replayed beside it, and a seed that exists nowhere else
# belongs in tests/data (see fuzz/README.md).
#
#   reader, differential   the replies below, and JSONTestSuite's test_parsing
#   generated, validate,   the reply cases (tests/data/cases/replies.jsonl,
#   stream                 one file per case's "reply"), the differential
#                          test's saved replies, every example reply
#   contract               the test, nested, hostile, lint and differential
#                          contracts, every example contract, and a chain of
#                          named types that doubles at each level
#   stats                  every log of tests/data/logs, whole and line by
#                          line, and tests/data/logs/bad (bad lines of each
#                          kind)
#   client_response        tests/data/client/responses (recorded HTTP
#                          responses of the providers)
#   client_stream          tests/data/client/streams (recorded event
#                          streams of the providers)
cmake_minimum_required(VERSION 3.21)
foreach(var SOURCE_DIR OUTPUT_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "fuzz/seeds.cmake: -D${var}=... is required")
  endif()
endforeach()
set(_data ${SOURCE_DIR}/tests/data)
set(_targets reader differential generated validate contract stats client_response stream
    client_stream)

foreach(t IN LISTS _targets)
  file(REMOVE_RECURSE ${OUTPUT_DIR}/${t})
  file(MAKE_DIRECTORY ${OUTPUT_DIR}/${t})
  set(_hashes_${t} "")
  set(_count_${t} 0)
endforeach()

# A seed named NAME for target T: its bytes are in the file SRC (copied as
# they are), or, without SRC, in the variable named by CONTENT.
function(_seed t name)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "SRC;CONTENT" "")
  if(arg_SRC)
    file(SHA256 ${arg_SRC} hash)
  else()
    string(SHA256 hash "${${arg_CONTENT}}")
  endif()
  if(hash IN_LIST _hashes_${t})
    return()
  endif()
  if(EXISTS ${OUTPUT_DIR}/${t}/${name})
    message(FATAL_ERROR "fuzz/seeds.cmake: two seeds of fuzz_${t} are named ${name}")
  endif()
  if(arg_SRC)
    file(COPY_FILE ${arg_SRC} ${OUTPUT_DIR}/${t}/${name})
  else()
    file(WRITE ${OUTPUT_DIR}/${t}/${name} "${${arg_CONTENT}}")
  endif()
  list(APPEND _hashes_${t} ${hash})
  math(EXPR n "${_count_${t}} + 1")
  set(_hashes_${t} "${_hashes_${t}}" PARENT_SCOPE)
  set(_count_${t} ${n} PARENT_SCOPE)
endfunction()

# The lines of a text file, one at a time, into the variable named by the
# second argument, as a list of offsets and lengths (file(STRINGS) would
# split a line at its semicolons).  Each line keeps no newline.
function(_lines file out_starts out_lengths)
  file(READ ${file} text)
  string(LENGTH "${text}" size)
  set(starts "")
  set(lengths "")
  set(pos 0)
  while(pos LESS size)
    string(SUBSTRING "${text}" ${pos} -1 rest)
    string(FIND "${rest}" "\n" nl)
    if(nl EQUAL -1)
      math(EXPR nl "${size} - ${pos}")
    endif()
    list(APPEND starts ${pos})
    list(APPEND lengths ${nl})
    math(EXPR pos "${pos} + ${nl} + 1")
  endwhile()
  set(${out_starts} "${starts}" PARENT_SCOPE)
  set(${out_lengths} "${lengths}" PARENT_SCOPE)
endfunction()

set(_reply_targets reader differential generated validate stream)

# The reply cases: each line's "reply", decoded, as ID.json.
set(_cases ${_data}/cases/replies.jsonl)
file(READ ${_cases} _text)
_lines(${_cases} _starts _lengths)
list(LENGTH _starts _n)
if(_n GREATER 0)
  math(EXPR _last "${_n} - 1")
  foreach(i RANGE ${_last})
    list(GET _starts ${i} _at)
    list(GET _lengths ${i} _len)
    string(SUBSTRING "${_text}" ${_at} ${_len} _line)
    if(_line STREQUAL "")
      continue()
    endif()
    string(JSON _id GET "${_line}" id)
    string(JSON _reply GET "${_line}" reply)
    foreach(t IN LISTS _reply_targets)
      _seed(${t} ${_id}.json CONTENT _reply)
    endforeach()
  endforeach()
endif()

# The differential test's saved replies and every example reply.
file(GLOB _files ${_data}/differential/regressions/*.json)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_name ${f} NAME)
  foreach(t IN LISTS _reply_targets)
    _seed(${t} differential-${_name} SRC ${f})
  endforeach()
endforeach()
file(GLOB_RECURSE _files RELATIVE ${SOURCE_DIR}/examples ${SOURCE_DIR}/examples/*.reply.json)
list(SORT _files)
foreach(f IN LISTS _files)
  string(REGEX REPLACE "/data/|/" "-" _name "${f}")
  string(REGEX REPLACE "\\.reply\\.json$" ".json" _name "${_name}")
  foreach(t IN LISTS _reply_targets)
    _seed(${t} example-${_name} SRC ${SOURCE_DIR}/examples/${f})
  endforeach()
endforeach()

# JSONTestSuite (MIT, tests/data/jsontestsuite/LICENSE) for the JSON-only
# targets.
file(GLOB _files ${_data}/jsontestsuite/test_parsing/*.json)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_name ${f} NAME)
  foreach(t reader differential)
    _seed(${t} ${_name} SRC ${f})
  endforeach()
endforeach()

# Contracts: the test data's, then the examples'.
foreach(dir contracts nested hostile differential lint)
  file(GLOB _files ${_data}/${dir}/*.yaml)
  list(SORT _files)
  foreach(f IN LISTS _files)
    get_filename_component(_name ${f} NAME)
    _seed(contract ${dir}-${_name} SRC ${f})
  endforeach()
endforeach()
file(GLOB _files RELATIVE ${SOURCE_DIR}/examples ${SOURCE_DIR}/examples/*/*.contract.yaml)
list(SORT _files)
foreach(f IN LISTS _files)
  string(REPLACE "/" "-" _name "${f}")
  _seed(contract example-${_name} SRC ${SOURCE_DIR}/examples/${f})
endforeach()
# A chain of named types, each with two fields of the next: written out in
# full it doubles at each level (64 leaves), the shape fuzz_contract's size
# budget is about.
set(_chain "contract: doubling\nversion: 1\ninstruction: Read it.\ntypes:\n")
foreach(level RANGE 0 5)
  math(EXPR next "${level} + 1")
  string(APPEND _chain "  t${level}:\n    fields:\n      a: {type: t${next}}\n      b: {type: t${next}}\n")
endforeach()
string(APPEND _chain "  t6:\n    fields:\n      v: {type: string}\nfields:\n  root: {type: t0}\n")
_seed(contract named-types-doubling.contract.yaml CONTENT _chain)

# Decision logs: each whole, then each line alone (a line is a decision).
file(GLOB _files ${_data}/logs/*.log)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_stem ${f} NAME_WE)
  _seed(stats ${_stem}-whole.log SRC ${f})
  file(READ ${f} _text)
  _lines(${f} _starts _lengths)
  set(_k 0)
  foreach(_at _len IN ZIP_LISTS _starts _lengths)
    math(EXPR _k "${_k} + 1")
    string(SUBSTRING "${_text}" ${_at} ${_len} _line)
    if(_line STREQUAL "")
      continue()
    endif()
    string(APPEND _line "\n")
    if(_k LESS 10)
      set(_k2 "0${_k}")
    else()
      set(_k2 "${_k}")
    endif()
    _seed(stats ${_stem}-line${_k2}.log CONTENT _line)
  endforeach()
endforeach()
file(GLOB _files ${_data}/logs/bad/*.log)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_name ${f} NAME)
  _seed(stats bad-${_name} SRC ${f})
endforeach()

# The providers' recorded HTTP responses.
file(GLOB _files ${_data}/client/responses/*)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_name ${f} NAME)
  if(NOT _name STREQUAL "README.md")
    _seed(client_response ${_name} SRC ${f})
  endif()
endforeach()

# The providers' recorded event streams.
file(GLOB _files ${_data}/client/streams/*.sse)
list(SORT _files)
foreach(f IN LISTS _files)
  get_filename_component(_name ${f} NAME)
  _seed(client_stream ${_name} SRC ${f})
endforeach()

set(_summary "")
foreach(t IN LISTS _targets)
  if(_count_${t} EQUAL 0)
    message(FATAL_ERROR "fuzz/seeds.cmake: no seeds for fuzz_${t}")
  endif()
  string(APPEND _summary " ${t} ${_count_${t}}")
endforeach()
file(WRITE ${OUTPUT_DIR}/seeds.txt "seeds:${_summary}\n")
message(STATUS "fuzz seeds:${_summary}")
