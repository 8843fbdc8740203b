# SPDX-License-Identifier: MIT
# Builds the vendorable runtime and compiles it into the generator, for
# `contractc vendor DIR`.  Run with cmake -P:
#
#   -DSRC_DIR=runtime/src       the runtime's sources and private headers
#   -DSOURCES=a.c|b.c|...       the sources, in build order ('|'-separated)
#   -DHEADER=runtime/include/contractc/contractc.h
#   -DLICENSE=LICENSE              its text goes into the one-file runtime's banner
#   -DVERSION=0.1.0
#   -DAMALGAMATION=.../contractc_runtime.c   the one-file runtime (written)
#   -DOUT=.../vendor_files.c                 both files as byte arrays (written)
#
# The amalgamation is plain concatenation: CC_PRIVATE defined as `static`
# (runtime/src/private.h), the private headers (each once, in include order)
# and then every source, with their private #includes dropped.  So every
# function the runtime's files share is static in the one file, and a
# vendored runtime exports the public contractc_* functions alone.  That
# needs each file-local name (static function or variable, file-scope type
# or tag, macro) to be defined by one source only: a name that two sources
# define stops the build here, naming both (rename one of them).  Output is
# a function of the input bytes only: no paths, dates or host names.
cmake_minimum_required(VERSION 3.21)
foreach(v SRC_DIR SOURCES HEADER LICENSE VERSION AMALGAMATION OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "embed_runtime.cmake: -D${v}= is required")
  endif()
endforeach()
string(REPLACE "|" ";" SOURCES "${SOURCES}")
get_filename_component(SRC_DIR "${SRC_DIR}" ABSOLUTE)

file(GLOB headers RELATIVE ${SRC_DIR} ${SRC_DIR}/*.h)
list(SORT headers)

# Drops #include lines of private headers; the public header is included in
# its quoted form, which finds contractc/contractc.h beside the amalgamation
# even without -I.
function(strip_includes var)
  set(t "${${var}}")
  foreach(h IN LISTS headers)
    string(REPLACE "#include \"${h}\"\n" "" t "${t}")
  endforeach()
  string(REPLACE "#include <contractc/contractc.h>" "#include \"contractc/contractc.h\"" t "${t}")
  # Each part's SPDX line: the one-file runtime carries one, with the
  # licence text, in its banner.
  # (The tag in two parts, so licence scanners do not read it as this file's.)
  set(tag "SPDX-License")
  string(REPLACE "/* ${tag}-Identifier: MIT */\n" "" t "${t}")
  set(${var} "${t}" PARENT_SCOPE)
endfunction()

# The private headers a text includes.
function(private_includes var text)
  set(found "")
  foreach(h IN LISTS headers)
    string(FIND "${text}" "#include \"${h}\"" at)
    if(at GREATER -1)
      list(APPEND found ${h})
    endif()
  endforeach()
  set(${var} "${found}" PARENT_SCOPE)
endfunction()

# File-local names defined at file scope by one source, and its macros.  Scanned on a copy
# in which '[', ']' and ';' are replaced, so CMake's list syntax cannot
# split or bracket a match.
function(local_names var text)
  set(scan "\n${text}")
  string(REPLACE "[" "<" scan "${scan}")
  string(REPLACE "]" ">" scan "${scan}")
  string(REPLACE ";" "," scan "${scan}")
  set(names "")
  set(id "[A-Za-z_][A-Za-z0-9_]*")
  foreach(re
      "\nstatic [^\n(=,{]*[ *](${id}) *[(<=,]"    # static functions and data
      "\ntypedef [^\n{]*[ *](${id}),"              # typedef T NAME;
      "\n} *(${id}),"                              # } NAME; closing a typedef
      "\n(struct|union|enum) (${id}) *{"           # struct TAG {
      "\ntypedef (struct|union|enum) (${id})"      # typedef struct TAG
      "\n# *define (${id})")                        # macros
    string(REGEX MATCHALL "${re}" hits "${scan}")
    foreach(hit IN LISTS hits)
      string(REGEX REPLACE "${re}" "\\1" name "${hit}")
      if(name MATCHES "^(struct|union|enum)$")
        string(REGEX REPLACE "${re}" "\\2" name "${hit}")
      endif()
      list(APPEND names ${name})
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES names)
  set(${var} "${names}" PARENT_SCOPE)
endfunction()

# ---- private headers, each after the private headers it includes --------
set(body "")
set(done "")
set(pending ${headers})
while(pending)
  set(progress FALSE)
  foreach(h IN LISTS pending)
    file(READ ${SRC_DIR}/${h} text)
    private_includes(deps "${text}")
    list(REMOVE_ITEM deps ${done} ${h})
    if(NOT deps)
      strip_includes(text)
      string(APPEND body "/* ==== ${h} ==== */\n${text}\n")
      list(APPEND done ${h})
      list(REMOVE_ITEM pending ${h})
      set(progress TRUE)
    endif()
  endforeach()
  if(NOT progress)
    message(FATAL_ERROR "embed_runtime.cmake: private headers include each other in a cycle: ${pending}")
  endif()
endwhile()

# ---- sources ----------------------------------------------------------------
# Plain concatenation, after a check that no two sources define one
# file-local name (they would collide in the one file).
set(all_names "")
set(clashes "")
foreach(s IN LISTS SOURCES)
  file(READ ${SRC_DIR}/${s} text)
  local_names(names "${text}")
  foreach(n IN LISTS names)
    if(DEFINED owner_${n})
      list(APPEND clashes "${n} (${owner_${n}} and ${s})")
    else()
      set(owner_${n} ${s})
    endif()
  endforeach()
  strip_includes(text)
  string(APPEND body "/* ==== ${s} ==== */\n${text}\n")
endforeach()
if(clashes)
  list(JOIN clashes ", " clashes)
  message(FATAL_ERROR "embed_runtime.cmake: the one-file runtime is the sources one after "
    "another, so a file-local name may be defined by one source only; rename one of each: "
    "${clashes}")
endif()

file(READ ${LICENSE} license_text)
string(STRIP "${license_text}" license_text)
string(REPLACE "\n" "\n * " license_text " * ${license_text}")
string(REGEX REPLACE " \\* \n" " *\n" license_text "${license_text}")
list(JOIN headers ", " header_list)
list(JOIN SOURCES ", " source_list)
set(amalgamation "/*
 * contractc_runtime.c - the contractc ${VERSION} runtime in one file, for vendoring.
 * SPDX-License-Identifier: MIT
 * Written by `contractc vendor DIR` together with contractc/contractc.h; DO NOT
 * EDIT.  Update both by running `contractc vendor DIR` again with the contractc
 * that generates your contracts' NAME.h and NAME.c: a generated file and this
 * runtime that disagree on the descriptor ABI fail to compile, and the error
 * says which to regenerate.
 *
 * Build: cc -I. app.c NAME.c contractc_runtime.c   (C99, the C library only)
 *
 * Parts: ${header_list}; then ${source_list}.
 * The parts one after another; the functions they share are static here
 * (CC_PRIVATE), so this file exports the public contractc_* functions only.
 *
${license_text}
 */
#if defined(__GNUC__) || defined(__clang__)
#define CC_PRIVATE static __attribute__((unused))
#else
#define CC_PRIVATE static
#endif
#include \"contractc/contractc.h\"

${body}")
file(READ ${HEADER} header_text)

file(WRITE ${AMALGAMATION}.tmp "${amalgamation}")
file(COPY_FILE ${AMALGAMATION}.tmp ${AMALGAMATION} ONLY_IF_DIFFERENT)
file(REMOVE ${AMALGAMATION}.tmp)

# ---- both files as byte arrays ------------------------------------------
set(out "/* Generated by cmake/embed_runtime.cmake at build time; do not edit. */\n#include \"vendor.h\"\n\n")
set(table "const cc_vendor_file_t cc_vendor_files[] = {\n")
set(i 0)
foreach(pair "contractc_runtime.c|${AMALGAMATION}" "contractc/contractc.h|${HEADER}")
  string(REPLACE "|" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 path)
  file(READ ${path} hex HEX)
  string(LENGTH "${hex}" n)
  math(EXPR bytes "${n} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," arr "${hex}")
  string(REGEX REPLACE "((0x..,){16})" "\\1\n" arr "${arr}")
  string(APPEND out "static const unsigned char file_${i}[] = {\n${arr}0x00};\n\n")
  string(APPEND table "    { \"${name}\", (const char *)file_${i}, ${bytes} },\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND table "};\nconst size_t cc_vendor_file_count = ${i};\n")
file(WRITE ${OUT}.tmp "${out}${table}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUT}.tmp)
