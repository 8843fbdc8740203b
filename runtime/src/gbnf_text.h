/* SPDX-License-Identifier: MIT */
/*
 * gbnf_text.h - the one GBNF string escaper (internal), shared by the
 * generator (NAME.gbnf) and the runtime (contractc_gbnf_grounded), so a
 * literal of llama.cpp's GBNF is spelt one way everywhere
 * (docs/grammar.md, "The grammar").
 */
#ifndef CONTRACTC_GBNF_TEXT_H
#define CONTRACTC_GBNF_TEXT_H

#include <stddef.h>

#include "private.h"

/*
 * Writes the body of a GBNF string literal (no quotes) that matches the
 * bytes s[0..n) exactly: '"' as \", '\' as \\, bytes below 0x20 and 0x7F
 * as \xHH; every other byte as is (UTF-8 stays UTF-8: llama.cpp decodes
 * literals as UTF-8).  out holds at least 4 * n bytes, or is NULL to
 * count.  Returns the length written (no NUL).
 */
CC_PRIVATE size_t cc_gbnf_escape(const char *s, size_t n, char *out);

#endif /* CONTRACTC_GBNF_TEXT_H */
