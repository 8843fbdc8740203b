/* SPDX-License-Identifier: MIT */
/*
 * reader.h - the strict JSON reader under the validation interpreter (internal).
 *
 * One linear pass over the raw reply bytes that enforces RFC 8259 exactly and
 * contractc's policy on top (docs/contract-language.md §6, "Reading a reply"):
 *   - white space is only space, tab, LF, CR (RFC 8259 section 2);
 *   - UTF-8 only (RFC 8259 section 8.1), no BOM;
 *   - \u0000 and lone surrogates (escaped or not) are `encoding` problems
 *     (I-JSON, RFC 7493 section 2.1, and C strings);
 *   - noncharacters such as U+FFFF are accepted;
 *   - nesting is capped at max_depth open containers (the root is 1),
 *     counted for every byte, skipped values included;
 *   - one optional Markdown fence when the contract allows it.
 *
 * The reader builds no tree.  validate.c drives it token by token and feeds
 * the descriptor tables; cc_skip_value() reads a value nobody wants (an
 * unexpected key's, a duplicate's) with the same strictness, iteratively.
 *
 * The first document-level problem stops the reader: r->failed is set with
 * its kind, its byte offset in the raw reply and a message, and every
 * function returns false from then on.  Callers turn it into the one
 * problem at "$".
 */
#ifndef CONTRACTC_READER_H
#define CONTRACTC_READER_H

#include "contractc/contractc.h"
#include "private.h"

typedef struct cc_reader {
    const unsigned char *raw;   /* the whole reply as given */
    size_t raw_len;
    const unsigned char *p;     /* cursor */
    const unsigned char *end;   /* end of the JSON text (a closing fence and
                                   trailing white space are beyond it) */
    const unsigned char *utf8_end; /* [p as begun, utf8_end) is known to
                                   be well-formed UTF-8; the string scan
                                   validates ahead of itself in chunks */
    bool utf8_final;            /* utf8_end is where the first bad sequence
                                   starts, or end: it moves no more */
    uint32_t depth;             /* open containers */
    uint32_t max_depth;
    bool fenced;                /* a fence was stripped */
    /* Prefix mode (cc_reader_begin_prefix: a stream's bytes so far,
     * docs/contract-language.md §18): the text may continue, so running out
     * inside a value is not a problem but `ended`. */
    bool prefix;
    bool ended;                 /* prefix mode: failed because the text ran
                                   out where more bytes may still come */
    bool ended_in_string;       /* ... and it ran out inside a string */
    bool fence_open;            /* prefix mode: a fence was opened and its
                                   closing line has not come yet */
    bool closing;               /* prefix mode: the text ends with the start
                                   of a closing fence ("\n`"), so the JSON
                                   text before it cannot continue */
    bool failed;                /* a document-level problem was found */
    contractc_kind_t fail_kind; /* empty, syntax, encoding or limit */
    size_t fail_offset;         /* byte offset in raw */
    char fail_message[160];     /* "unexpected ',' where a value was expected" */
    char fail_log[160];         /* the same for logs, without any byte of the
                                   reply ("found a letter" for "found 'x'");
                                   "" when it is fail_message */
} cc_reader_t;

/*
 * Starts reading `reply`: strips surrounding white space and, when
 * fence_allowed, one fence (```, an optional lowercase "json" tag, optional
 * spaces or tabs, a line break, the text, a line break, ```).  Sets r->p and
 * r->end around the JSON text and r->fenced.  Returns false (r->failed) for
 * an empty reply or fence (`empty`), a fence under fence_allowed == false
 * (`syntax`), or a BOM (`encoding`).  max_bytes is the caller's business.
 */
CC_PRIVATE bool cc_reader_begin(cc_reader_t *r, const char *reply, size_t reply_len,
                     bool fence_allowed, uint32_t max_depth);

/*
 * cc_reader_begin for a prefix of a reply (the bytes a stream has received,
 * docs/contract-language.md §18): the same rules, except that what may still
 * continue is not a problem.  Nothing but white space, a part of an opening
 * fence line, or a fence whose closing line has not come (r->fence_open) is
 * fine; then every later running out of text inside a value sets r->ended
 * (with r->failed, so that the walk stops) instead of a problem.  A real
 * problem before the end is recorded exactly as cc_reader_begin's reader
 * records it.
 */
CC_PRIVATE bool cc_reader_begin_prefix(cc_reader_t *r, const char *reply, size_t reply_len,
                            bool fence_allowed, uint32_t max_depth);

/* After the root value: only white space may remain before r->end.
 * Otherwise `syntax` ("text after the JSON value"). */
CC_PRIVATE bool cc_reader_finish(cc_reader_t *r);

/* The out-of-line parts of cc_peek and cc_expect (white space, problems);
 * call those. */
CC_PRIVATE int cc_peek_slow(cc_reader_t *r);
CC_PRIVATE bool cc_expect_slow(cc_reader_t *r, char c, const char *what);

/* Skips white space and returns the next byte without consuming it, or -1
 * at r->end.  Never fails by itself.  Inline: it runs before every token,
 * and usually no white space comes first. */
static inline int cc_peek(cc_reader_t *r)
{
    if (r->p < r->end && *r->p > ' ')
        return *r->p;
    return cc_peek_slow(r);
}

/* Skips white space and consumes `c` (one of { } [ ] : ,).  On any other
 * byte (or the end) records a `syntax` problem naming what was found and
 * what was expected (`what`, e.g. "':' after the key").  Inline when `c`
 * comes next. */
static inline bool cc_expect(cc_reader_t *r, char c, const char *what)
{
    if (r->p < r->end && *r->p == (unsigned char)c && !r->failed) {
        r->p++;
        return true;
    }
    return cc_expect_slow(r, c, what);
}

/* The `limit` problem of cc_enter (out of line); call cc_enter. */
CC_PRIVATE bool cc_enter_fail(cc_reader_t *r);

/* After '{' or '[' was consumed: depth + 1, `limit` problem above max_depth.
 * Inline: it runs for every object and array. */
static inline bool cc_enter(cc_reader_t *r)
{
    if (r->failed)
        return false;
    if (++r->depth <= r->max_depth)
        return true;
    return cc_enter_fail(r);
}

/* After '}' or ']' was consumed. */
static inline void cc_leave(cc_reader_t *r)
{
    if (r->depth > 0)
        r->depth--;
}

/* A string token, validated; `raw` points just after the opening quote. */
typedef struct cc_string_token {
    const unsigned char *raw;
    size_t raw_len;        /* bytes between the quotes */
    size_t decoded_len;    /* bytes after unescaping (UTF-8); the code
                              points, when wanted, are
                              cc_utf8_code_points() of the decoded text */
    bool has_escapes;      /* false: raw is already the decoded text */
} cc_string_token_t;

/* r->p must be at '"' (after cc_peek).  Validates the whole string (escapes,
 * UTF-8, control bytes, policy) and moves past the closing quote. */
CC_PRIVATE bool cc_scan_string(cc_reader_t *r, cc_string_token_t *t);

/*
 * As cc_scan_string, and also writes the decoded text to buf[0..cap) as it
 * scans, 16 bytes a store, where the scan's fast path can: one pass, and
 * one branch per escape instead of one in the scan and one in the decode.
 * Returns true with *copied set when buf holds all t->decoded_len bytes
 * (no NUL added); *copied is false when the string leaves the fast path
 * (a \u escape, the last bytes of the checked text, a string longer than
 * cap - 16, a problem): decode it with cc_decode_string then.
 */
CC_PRIVATE bool cc_scan_string_copy(cc_reader_t *r, cc_string_token_t *t, char *buf, size_t cap,
                         bool *copied);

/* Writes the decoded bytes of a scanned string to dst (t->decoded_len bytes,
 * no NUL added).  Cannot fail: the token was validated. */
CC_PRIVATE void cc_decode_string(const cc_string_token_t *t, char *dst);

/* A number token (RFC 8259 section 6 grammar), validated. */
typedef struct cc_number_token {
    const unsigned char *text;
    size_t len;
    bool negative;
    bool has_fraction;     /* a '.' part */
    bool has_exponent;     /* an 'e'/'E' part */
} cc_number_token_t;

/* r->p must be at '-' or a digit. */
CC_PRIVATE bool cc_scan_number(cc_reader_t *r, cc_number_token_t *t);

/*
 * The usual integer, read and converted in one pass: -?(0|[1-9][0-9]*) with
 * at most 15 digits (so |value| < 10^15, inside the I-JSON exact range of
 * RFC 7493 section 2.2), not followed by a byte that would continue a
 * number (a fraction, an exponent, more digits, a letter).  Sets *value
 * and moves r->p past it.  Returns false, with r and *value untouched, for
 * anything else: the general path (cc_scan_number, cc_convert_integer)
 * then reads it and says what is wrong.  r->p must be at '-' or a digit.
 */
CC_PRIVATE bool cc_scan_small_integer(cc_reader_t *r, int64_t *value);

typedef enum cc_literal { CC_LITERAL_TRUE, CC_LITERAL_FALSE, CC_LITERAL_NULL } cc_literal_t;

/* r->p must be at 't', 'f' or 'n'. */
CC_PRIVATE bool cc_scan_literal(cc_reader_t *r, cc_literal_t *which);

/* Reads one whole value of any type (after cc_peek), iteratively, with the
 * same strictness and depth accounting; the value is discarded. */
CC_PRIVATE bool cc_skip_value(cc_reader_t *r);

/* What cc_walk_value tells its caller about the value it reads: each
 * callback gets `user`; one that returns false stops the walk, which then
 * returns false without a problem of its own (the caller knows why). */
typedef struct cc_walk {
    bool (*open)(void *user, bool object);   /* '{' (object) or '[' was entered */
    bool (*key)(void *user, const cc_string_token_t *key); /* a key and its ':' */
    bool (*item)(void *user);                /* an item of the innermost array begins */
    void (*close)(void *user);               /* the innermost container closed */
    void *user;
} cc_walk_t;

/* cc_skip_value, telling `walk` (NULL: nobody) of every container, key and
 * array item as it reads them: the one reader of a `json` value
 * (docs/contract-language.md §4.14), which must see its keys. */
CC_PRIVATE bool cc_walk_value(cc_reader_t *r, const cc_walk_t *walk);

/* Records a document-level problem at byte offset `offset` of raw (only the
 * first one is kept).  `message` is the log's text too (fail_log ""), so it
 * holds no byte of the reply.  Always returns false. */
CC_PRIVATE bool cc_reader_fail(cc_reader_t *r, contractc_kind_t kind, size_t offset,
                    const char *message);

/* ---- utf8.c: the runtime's one UTF-8 rule ----------------------------- */

/* Length (1..4) of the well-formed UTF-8 sequence (RFC 3629: no overlongs,
 * no surrogates, at most U+10FFFF) at s[0..n), or 0 when there is none.
 * The runtime's one UTF-8 rule, shared by the reader, the source check
 * and the log writer. */
CC_PRIVATE size_t cc_utf8_length(const unsigned char *s, size_t n);

/* The multi-byte sequence at q (q < end, *q >= 0x80) by the same rule:
 * its length and *cp, its code point, or 0 with *why set to the reason it
 * is not well formed ("a truncated UTF-8 sequence"), for messages.  For
 * the careful paths only: the string scan outside the checked prefix, and
 * messages. */
CC_PRIVATE size_t cc_utf8_sequence(const unsigned char *q, const unsigned char *end,
                        uint32_t *cp, const char **why);

/* The offset of the first byte of s[0..n) that does not start a
 * well-formed sequence (by cc_utf8_length's rule), or n when all of s is
 * well-formed UTF-8.  ASCII runs are checked sixteen bytes at a time
 * (with SSE2, 64 bytes a step for long texts). */
CC_PRIVATE size_t cc_utf8_valid_prefix(const unsigned char *s, size_t n);

/* True when s[0..n) is well-formed UTF-8 throughout
 * (cc_utf8_valid_prefix(s, n) == n). */
CC_PRIVATE bool cc_utf8_valid(const unsigned char *s, size_t n);

/* The number of code points in s[0..n), which must be well-formed UTF-8
 * (a decoded string token): the bytes that are not continuation bytes
 * 0x80-0xBF, counted eight at a time. */
CC_PRIVATE size_t cc_utf8_code_points(const unsigned char *s, size_t n);

/* 1-based line and 1-based byte column of a raw offset (LF ends a line). */
CC_PRIVATE void cc_reader_line_column(const cc_reader_t *r, size_t offset,
                           size_t *line, size_t *column);

/*
 * Reads a whole document with no contract: begin, skip one value, finish.
 * Returns true when it is one acceptable JSON text; otherwise false with
 * r->fail_* set.  For JSONTestSuite and the fuzz targets.
 */
CC_PRIVATE bool cc_read_document(cc_reader_t *r, const char *text, size_t len,
                      bool fence_allowed, uint32_t max_depth);

#endif /* CONTRACTC_READER_H */
