/* SPDX-License-Identifier: MIT */
/*
 * reserved.h - names that can never be generated (internal to the
 * generator; docs/contract-language.md, "Names that can never be
 * generated").
 *
 * One table (reserved.c) answers for every C spelling the generator makes:
 * a name of the C11 or POSIX headers (macros, types, functions, variables,
 * enum constants, tags), a macro GNU C predefines (linux, unix, ...), a
 * name the C standard reserves for the implementation (a leading "__" or
 * "_" and a capital letter, C11 7.1.3), and anything starting with
 * "contractc" in any case (the runtime's names).  naming.c asks it for
 * every generated name and parse_yaml.c for check functions.  C and C++
 * keywords are not here: a member named like one gets a '_' suffix
 * (lexical.c, cc_is_c_keyword).
 */
#ifndef CONTRACTC_RESERVED_H
#define CONTRACTC_RESERVED_H

#include <stdbool.h>
#include <stddef.h>

/* Where a generated name is used: it decides which names clash. */
typedef enum cc_c_use {
    /* A struct member (a field's C member, has_X, X_len, X_count): only
     * object-like macros clash, and the type names of the headers the
     * generated structs use (<stddef.h>, <stdint.h>, <stdbool.h>: in C++ a
     * member named size_t hides the type from the members after it). */
    CC_C_MEMBER,
    /* An identifier with file scope in the ordinary name space (typedef
     * name, function, object, enum constant, check function): every
     * identifier of the headers clashes (C11 7.1.3), macros included. */
    CC_C_ORDINARY,
    /* A struct or enum tag: macros and the headers' tags clash. */
    CC_C_TAG
} cc_c_use_t;

/*
 * True when `c_name` cannot be generated for `use`; then `why` (why_size
 * bytes, at least 1) gets a NUL-terminated phrase completing "'NAME' is
 * ...", such as "a macro of <errno.h>", "a type of <stddef.h>" or
 * "reserved for the contractc runtime's own names".  False (why untouched)
 * for a name that is free.
 */
bool cc_reserved_c_name(const char *c_name, cc_c_use_t use, char *why, size_t why_size);

/* True when `name` starts with "contractc" in any case (contractc_record,
 * CONTRACTC_OK, ContractC): the runtime's own names. */
bool cc_has_runtime_prefix(const char *name);

/*
 * True when the generated header NAME.h would hide the standard header
 * <NAME.h> from every file whose include path has the generated directory:
 * C11 and C23 headers, the POSIX headers outside a subdirectory, and a few
 * of glibc's commonly included ones (string, stdio, math, time, ...).
 */
bool cc_shadows_header(const char *contract_name);

/* What a reserved name is, as bits (a name can be several: stat is a
 * function and a struct tag). */
enum {
    CC_RESERVED_MACRO = 1u << 0,          /* object-like macro */
    CC_RESERVED_FUNCTION_MACRO = 1u << 1, /* function-like macro */
    CC_RESERVED_FUNCTION = 1u << 2,
    CC_RESERVED_VARIABLE = 1u << 3,
    CC_RESERVED_ENUM_CONSTANT = 1u << 4,
    CC_RESERVED_TYPE = 1u << 5,           /* typedef name */
    CC_RESERVED_TAG = 1u << 6,            /* struct, union or enum tag */
    CC_RESERVED_HEADER = 1u << 7,         /* a header's name without ".h" */
    CC_RESERVED_PREDEFINED = 1u << 8      /* a macro GNU C predefines */
};

/* One name of the tables: its spelling, what it is (CC_RESERVED_* bits)
 * and where it comes from ("<errno.h>", "GNU C (Linux)"; NULL for a header,
 * whose name is the header's without ".h"). */
typedef struct cc_reserved_entry {
    const char *name;
    unsigned kinds;
    const char *origin;
} cc_reserved_entry_t;

/* How many names the tables hold, and the i-th (i < cc_reserved_count(),
 * in no stated order): for tests that try every one. */
size_t cc_reserved_count(void);
cc_reserved_entry_t cc_reserved_at(size_t i);

#endif /* CONTRACTC_RESERVED_H */
