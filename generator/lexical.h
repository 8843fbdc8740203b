/* SPDX-License-Identifier: MIT */
/*
 * lexical.h - the lexical predicates of the contract language (internal to
 * the generator): which texts are identifiers, C keywords, integers and
 * JSON numbers.  Pure functions on NUL-terminated text, no model, no
 * allocation; every stage and emitter that asks one of these questions
 * asks it here, so each rule is written once.
 */
#ifndef CONTRACTC_LEXICAL_H
#define CONTRACTC_LEXICAL_H

#include <stdbool.h>
#include <stddef.h>

/* True for [A-Za-z_][A-Za-z0-9_]* (a field, type or check function name;
 * also an RFC 9535 member-name shorthand).  False for NULL or "". */
bool cc_is_identifier(const char *s);

/* The same for the first `len` bytes of s (need not be NUL-terminated). */
bool cc_is_identifier_n(const char *s, size_t len);

/* True when `word` is a C11, C23 or C++20 keyword (or a C alternative
 * spelling such as `and`): it cannot be a C or C++ identifier. */
bool cc_is_c_keyword(const char *word);

/* True for -?(0|[1-9][0-9]*): the only integers a contract writes. */
bool cc_is_integer_text(const char *s);

/* True for an RFC 8259 number token (section 6): the generator's one JSON
 * number check (number bounds, number examples). */
bool cc_is_json_number(const char *s);

/* True for the white space a contract's texts are trimmed of: space, TAB,
 * LF and CR. */
bool cc_is_space(char c);

/* True when `s` holds no character but cc_is_space's (NULL counts as
 * blank): an empty description or prompt. */
bool cc_is_blank(const char *s);

/* Code points of valid UTF-8 text (the loader guarantees validity): the
 * bytes that are not continuation bytes. */
size_t cc_code_points(const char *s);

#endif /* CONTRACTC_LEXICAL_H */
