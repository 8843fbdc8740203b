/* SPDX-License-Identifier: MIT */
/*
 * key_segment.h - the JSONPath segment of a key from a reply (internal).
 *
 * A problem at an unexpected or duplicate key names the key in its path:
 * ".key" for an identifier, else RFC 9535 bracket notation ("['a b']")
 * with that RFC's escapes (section 2.3.1.1), cut to 64 code points plus
 * "…".  key_segment.c writes the segment; validate.c places it in paths.
 */
#ifndef CONTRACTC_KEY_SEGMENT_H
#define CONTRACTC_KEY_SEGMENT_H

#include <stddef.h>
#include "private.h"

#define CC_KEY_ECHO_CODE_POINTS 64 /* a key in a path is cut to this */

/* The room cc_key_segment needs for any key: each of the first 64 code
 * points takes at most 6 bytes ("\u00XX"; UTF-8 is copied, 4 at most), and
 * "['", "…" and "']" 7 more. */
#define CC_KEY_SEGMENT_MAX (CC_KEY_ECHO_CODE_POINTS * 6 + 7)

/* The room cc_key_segment needs for a key of n bytes (at most
 * CC_KEY_SEGMENT_MAX). */
static inline size_t cc_key_segment_max(size_t n)
{
    return (n < CC_KEY_ECHO_CODE_POINTS ? n : CC_KEY_ECHO_CODE_POINTS) * 6 + 7;
}

/* Writes the path segment of key k[0..n) (decoded, valid UTF-8) at seg,
 * which has room for cc_key_segment_max(n) bytes, and returns its length
 * (no NUL is written). */
CC_PRIVATE size_t cc_key_segment(char *seg, const char *k, size_t n);

#endif /* CONTRACTC_KEY_SEGMENT_H */
