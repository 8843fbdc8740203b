/* SPDX-License-Identifier: MIT */
/*
 * reader.c - the strict JSON reader (RFC 8259 plus contractc's policy).
 *
 * Grammar (RFC 8259 sections 2-7), as enforced here:
 *
 *   JSON-text = ws value ws
 *   ws        = *( %x20 / %x09 / %x0A / %x0D )
 *   value     = false / null / true / object / array / number / string
 *   object    = '{' ws [ member *( ws ',' ws member ) ] ws '}'
 *   member    = string ws ':' ws value
 *   array     = '[' ws [ value *( ws ',' ws value ) ] ws ']'
 *   number    = [ '-' ] int [ frac ] [ exp ]
 *   int       = '0' / ( %x31-39 *DIGIT )
 *   frac      = '.' 1*DIGIT
 *   exp       = ( 'e' / 'E' ) [ '-' / '+' ] 1*DIGIT
 *   string    = '"' *char '"'   (char: unescaped >= U+0020 except '"' and
 *               '\', or one of \" \\ \/ \b \f \n \r \t \uXXXX)
 *
 * Policy on top: UTF-8 exactly as RFC 3629 section 4 (no overlongs, no
 * encoded surrogates, nothing above U+10FFFF), no BOM, no \u0000, no lone
 * surrogate escapes (I-JSON, RFC 7493 section 2.1); noncharacters pass.
 *
 * The reader never allocates.  Hot loops (white space, string bytes) are
 * table lookups over local cursor copies; messages are built only on the
 * error path, by hand (no printf), into the reader's fixed buffer.
 */
#include "internal.h"
#include "reader.h"
#include "scan.h"

#include <string.h>

/* cc_skip_value keeps one bit per open container it entered itself; the
 * reader never lets depth exceed this (cc_reader_begin clamps max_depth). */
#define CC_READER_DEPTH_CAP CONTRACTC_MAX_DEPTH

/* 1 for the four JSON white-space bytes (RFC 8259 section 2). */
static const unsigned char ws_table[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
};

/* String byte classes: 0 = plain printable ASCII, copied as is. */
enum { SB_PLAIN = 0, SB_QUOTE, SB_ESCAPE, SB_CONTROL, SB_HIGH };

#define SB_CTRL16 SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, \
    SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, \
    SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL, SB_CONTROL
#define SB_HIGH16 SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, \
    SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, SB_HIGH, \
    SB_HIGH, SB_HIGH

static const unsigned char string_table[256] = {
    SB_CTRL16, SB_CTRL16,
    0, 0, SB_QUOTE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,    /* 0x20 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,           /* 0x30 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,           /* 0x40 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, SB_ESCAPE, 0, 0, 0,   /* 0x50 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,           /* 0x60 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,           /* 0x70 */
    SB_HIGH16, SB_HIGH16, SB_HIGH16, SB_HIGH16,
    SB_HIGH16, SB_HIGH16, SB_HIGH16, SB_HIGH16,
};

/* ------------------------------------------------------------------------
 * Messages: a tiny bounded builder, used only when a problem is recorded.
 *
 * Two texts at once: the model's, which may name what the reply holds
 * there (the word, the number, the byte, the code point), and the log's,
 * which never carries a byte of the reply (docs/security.md, "Problem
 * messages for logs"): it names the class of what was found instead ("a
 * letter", "a number").
 * msg_str writes to both, msg_model and the msg_* of reply bytes to the
 * model's only, msg_log to the log's only.
 * ------------------------------------------------------------------------ */
typedef struct msg {
    char text[sizeof(((cc_reader_t *)0)->fail_message)];
    size_t len;
    char log[sizeof(((cc_reader_t *)0)->fail_log)];
    size_t log_len;
} msg_t;

#define MSG_INIT {{0}, 0, {0}, 0}

static void put_text(char *buf, size_t size, size_t *len, const char *s)
{
    while (*s && *len + 1 < size)
        buf[(*len)++] = *s++;
    buf[*len] = '\0';
}

/* To both texts: words of contractc's own. */
static void msg_str(msg_t *m, const char *s)
{
    put_text(m->text, sizeof m->text, &m->len, s);
    put_text(m->log, sizeof m->log, &m->log_len, s);
}

/* To the model's text only: what the reply holds. */
static void msg_model(msg_t *m, const char *s)
{
    put_text(m->text, sizeof m->text, &m->len, s);
}

/* To the log's text only: the class of what the model's text shows. */
static void msg_log(msg_t *m, const char *s)
{
    put_text(m->log, sizeof m->log, &m->log_len, s);
}

/* A byte of the reply, as it is, to the model's text. */
static void msg_model_char(msg_t *m, char c)
{
    char s[2];
    s[0] = c;
    s[1] = '\0';
    msg_model(m, s);
}

/* A count (a line, a column, a limit) to both texts. */
static void msg_uint(msg_t *m, uint64_t v)
{
    char digits[24], text[24];
    size_t n = 0, k = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        text[k++] = digits[--n];
    text[k] = '\0';
    msg_str(m, text);
}

/* Hex digits of a value taken from the reply, to the model's text. */
static void msg_hex(msg_t *m, uint32_t v, int width)
{
    static const char hex[] = "0123456789ABCDEF";
    int i;
    for (i = width - 1; i >= 0; i--)
        msg_model_char(m, hex[(v >> (4 * i)) & 0xF]);
}

/* "U+000A" (at least four hex digits, as Unicode writes code points), to
 * the model's text. */
static void msg_code_point(msg_t *m, uint32_t cp)
{
    msg_model(m, "U+");
    msg_hex(m, cp, cp > 0xFFFF ? (cp > 0xFFFFF ? 6 : 5) : 4);
}

/* "0xC3", to the model's text. */
static void msg_byte(msg_t *m, unsigned char b)
{
    msg_model(m, "0x");
    msg_hex(m, b, 2);
}

static size_t offset_of(const cc_reader_t *r, const unsigned char *q)
{
    return (size_t)(q - r->raw);
}

static bool fail_msg(cc_reader_t *r, contractc_kind_t kind,
                     const unsigned char *at, const msg_t *m)
{
    if (r->failed)
        return false;
    cc_reader_fail(r, kind, offset_of(r, at), m->text);
    /* fail_log stays "" when the texts are the same. */
    if (m->log_len != m->len || memcmp(m->log, m->text, m->len) != 0)
        memcpy(r->fail_log, m->log, m->log_len + 1);
    return false;
}

static bool fail_at(cc_reader_t *r, contractc_kind_t kind,
                    const unsigned char *at, const char *message)
{
    return cc_reader_fail(r, kind, offset_of(r, at), message);
}

/* Prefix mode: whether q is the end of a text that may still continue. */
static bool at_open_end(const cc_reader_t *r, const unsigned char *q)
{
    return q >= r->end && r->prefix && !r->closing;
}

/* Prefix mode: the text ran out inside a token that may still become
 * valid (a UTF-8 sequence, a number, a literal); r->ended, no problem. */
static bool fail_ended(cc_reader_t *r)
{
    return cc_reader_fail(r, CONTRACTC_KIND_SYNTAX, r->raw_len, "the text ends here");
}

/* Whether [q, end) is the start of a well-formed UTF-8 sequence cut off by
 * the end: a lead byte, then only continuation bytes, fewer than it needs
 * (cc_utf8_sequence said "truncated", so the second byte is in range). */
static bool utf8_cut_by_end(const unsigned char *q, const unsigned char *end, const char *why)
{
    const unsigned char *c;
    if (strcmp(why, "a truncated UTF-8 sequence") != 0 || end - q >= 4)
        return false;
    for (c = q + 1; c < end; c++)
        if (*c < 0x80 || *c > 0xBF)
            return false;
    return true;
}

static bool fail_utf8(cc_reader_t *r, const unsigned char *at, const char *why)
{
    msg_t m = MSG_INIT;
    if (at_open_end(r, r->end) && utf8_cut_by_end(at, r->end, why))
        return fail_ended(r);
    msg_str(&m, "invalid UTF-8: ");
    msg_str(&m, why);
    msg_model(&m, " (byte ");
    msg_byte(&m, *at);
    msg_model(&m, ")");
    return fail_msg(r, CONTRACTC_KIND_ENCODING, at, &m);
}

/* ------------------------------------------------------------------------
 * Problems
 * ------------------------------------------------------------------------ */

bool cc_reader_fail(cc_reader_t *r, contractc_kind_t kind, size_t offset,
                    const char *message)
{
    size_t n;
    if (r->failed)
        return false;
    r->failed = true;
    r->fail_kind = kind;
    r->fail_offset = offset > r->raw_len ? r->raw_len : offset;
    /* Prefix mode: a problem at the end of the text so far is the text
     * running out (what was expected there may still come). */
    if (r->prefix && !r->closing && r->fail_offset >= (size_t)(r->end - r->raw))
        r->ended = true;
    n = strlen(message);
    if (n >= sizeof r->fail_message)
        n = sizeof r->fail_message - 1;
    memcpy(r->fail_message, message, n);
    r->fail_message[n] = '\0';
    r->fail_log[0] = '\0';
    return false;
}

void cc_reader_line_column(const cc_reader_t *r, size_t offset, size_t *line,
                           size_t *column)
{
    size_t i, ln = 1, line_start = 0;
    if (offset > r->raw_len)
        offset = r->raw_len;
    for (i = 0; i < offset; i++) {
        if (r->raw[i] == '\n') {
            ln++;
            line_start = i + 1;
        }
    }
    *line = ln;
    *column = offset - line_start + 1;
}

/*
 * Describes what is at q for "expected X, found Y" messages.  A byte that
 * starts invalid UTF-8 becomes an `encoding` problem instead (the text is
 * not UTF-8 there, whatever the grammar wanted).
 */
static bool fail_found(cc_reader_t *r, const unsigned char *q,
                       const char *prefix, const char *expected)
{
    msg_t m = MSG_INIT;
    msg_str(&m, prefix);
    msg_str(&m, expected);
    msg_str(&m, ", found ");
    if (q >= r->end) {
        msg_str(&m, r->fenced ? "the end of the fenced text"
                              : "the end of the reply");
    } else if (*q == '"') {
        msg_str(&m, "a string");
    } else if (*q == '-' || (*q >= '0' && *q <= '9')) {
        msg_str(&m, "a number");
    } else if (*q >= 0x80) {
        uint32_t cp = 0;
        const char *why = "";
        if (cc_utf8_sequence(q, r->end, &cp, &why) == 0)
            return fail_utf8(r, q, why);
        msg_code_point(&m, cp);
        if (cp == 0xFEFF) {
            msg_model(&m, " (a byte order mark)");
            msg_log(&m, "a byte order mark");
        } else {
            msg_log(&m, "a non-ASCII character");
        }
    } else if (*q < 0x20 || *q == 0x7F) {
        msg_code_point(&m, *q);
        msg_log(&m, "a control character");
    } else {
        /* The grammar's own punctuation names a token class; any other
         * character is the reply's. */
        const bool structural = *q == '{' || *q == '}' || *q == '[' ||
                                *q == ']' || *q == ',' || *q == ':';
        const bool letter = (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z');
        msg_model_char(&m, '\'');
        msg_model_char(&m, (char)*q);
        msg_model_char(&m, '\'');
        if (structural) {
            msg_log(&m, "'");
            msg_log(&m, *q == '{' ? "{" : *q == '}' ? "}" : *q == '[' ? "["
                        : *q == ']' ? "]" : *q == ',' ? "," : ":");
            msg_log(&m, "'");
        } else {
            msg_log(&m, letter ? "a letter" : "a punctuation character");
        }
    }
    return fail_msg(r, CONTRACTC_KIND_SYNTAX, q, &m);
}

/* ------------------------------------------------------------------------
 * Begin and finish: white space, BOM, the Markdown fence
 * ------------------------------------------------------------------------ */

static const unsigned char *skip_ws(const unsigned char *q,
                                    const unsigned char *end)
{
    while (q < end && ws_table[*q])
        q++;
    return q;
}

static bool is_fence(const unsigned char *q, const unsigned char *end)
{
    return end - q >= 3 && q[0] == '`' && q[1] == '`' && q[2] == '`';
}

/* A UTF-8 byte order mark (EF BB BF) at q. */
static bool is_bom(const unsigned char *q, const unsigned char *end)
{
    return end - q >= 3 && q[0] == 0xEF && q[1] == 0xBB && q[2] == 0xBF;
}

/* A BOM before the JSON text, wherever it is (at byte 0, after white
 * space, after a fence's opening line) is `encoding`
 * (docs/contract-language.md, "Problem kinds"). */
static bool fail_bom(cc_reader_t *r, const unsigned char *at)
{
    return fail_at(r, CONTRACTC_KIND_ENCODING, at,
                   at == r->raw ? "the reply starts with a byte order mark (BOM); "
                                  "send UTF-8 without it"
                                : "a byte order mark (BOM) before the JSON text; "
                                  "send UTF-8 without it");
}

/*
 * The fence rule (docs/contract-language.md §6.3, "Fine print"): ``` +
 * optional lowercase "json" + optional spaces/tabs + LF or CRLF, the JSON
 * text, a line break, ```; white space around the whole (already stripped: [s,
 * e)).
 */
static bool strip_fence(cc_reader_t *r, const unsigned char *s,
                        const unsigned char *e)
{
    const unsigned char *q = s + 3, *body, *close;

    if (e - q >= 4 && memcmp(q, "json", 4) == 0)
        q += 4;
    while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    if (q < e && *q == '\r' && q + 1 < e && q[1] == '\n')
        q++;
    if (q >= e || *q != '\n') {
        /* Nothing after the opening line but white space (cut off before
         * [s, e)): no text and no closing fence, whether or not a line
         * break ended it. */
        if (q >= e)
            return fail_at(r, CONTRACTC_KIND_SYNTAX, e,
                           "the ``` fence is never closed (nothing follows its "
                           "opening line)");
        return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                       "unexpected text after the opening ``` fence (only a "
                       "lowercase json tag may follow it on its line)");
    }
    body = q + 1;
    if (e - body >= 3 && is_fence(e - 3, e) && e[-4] == '\n') {
        close = e - 3;
    } else if (e - body >= 3 && is_fence(e - 3, e) && e - 3 >= body &&
               skip_ws(body, e - 3) == e - 3) {
        /* "```json\n```": nothing between the fences. */
        close = e - 3;
    } else {
        /* Find the first closing fence to say what is wrong. */
        for (q = body; q + 3 < e; q++) {
            if (*q == '\n' && is_fence(q + 1, e))
                return fail_at(r, CONTRACTC_KIND_SYNTAX, skip_ws(q + 4, e),
                               "text after the closing ``` fence");
        }
        if (is_fence(e - 3, e) && e - 3 > body)
            return fail_at(r, CONTRACTC_KIND_SYNTAX, e - 3,
                           "the closing ``` fence must be on its own line");
        return fail_at(r, CONTRACTC_KIND_SYNTAX, e,
                       "the ``` fence is never closed");
    }
    r->fenced = true;
    q = skip_ws(body, close);
    if (q == close)
        return fail_at(r, CONTRACTC_KIND_EMPTY, body,
                       "the fence is empty: no JSON text inside");
    if (is_bom(q, close))
        return fail_bom(r, q);
    r->p = body;
    r->end = close;
    return true;
}

/* The valid-UTF-8 prefix starts empty at the JSON text; the string scan
 * extends it as it reads (utf8_extend). */
static bool utf8_start(cc_reader_t *r)
{
    r->utf8_end = r->p;
    r->utf8_final = r->p == r->end;
    return true;
}

/* Prefix mode: whether [q, e) is a proper prefix of an opening fence
 * line after its ``` (docs/contract-language.md §6.3: an optional "json",
 * spaces or tabs, a line break), so that the line may still become one. */
static bool fence_line_cut(const unsigned char *q, const unsigned char *e)
{
    size_t n = (size_t)(e - q);
    if (n < 4 && memcmp(q, "json", n) == 0)
        return true;
    if (n >= 4 && memcmp(q, "json", 4) == 0)
        q += 4;
    while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    return q == e || (*q == '\r' && q + 1 == e);
}

/* Prefix mode, [s, e) opens a fence: the fence rule when its closing line
 * has come (or text after one shows it never will), else the text so far
 * after the opening line, r->fence_open, and a closing fence's start cut
 * off the end (r->closing). */
static bool open_fence(cc_reader_t *r, const unsigned char *s, const unsigned char *e)
{
    const unsigned char *q = s + 3, *body;
    if (fence_line_cut(q, e))
        return fail_ended(r);
    if (e - q >= 4 && memcmp(q, "json", 4) == 0)
        q += 4;
    while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    if (q < e && *q == '\r' && q + 1 < e && q[1] == '\n')
        q++;
    if (q >= e || *q != '\n')
        return strip_fence(r, s, e); /* its problem */
    body = q + 1;
    if (e - body >= 3 && is_fence(e - 3, e) &&
        (e[-4] == '\n' || skip_ws(body, e - 3) == e - 3)) {
        /* Closed: the JSON text cannot continue. */
        r->closing = true;
        return strip_fence(r, s, e);
    }
    /* A raw line break is in no JSON token, so a "\n```" inside is a
     * closing fence with text after it. */
    for (q = body; q + 3 < e; q++)
        if (*q == '\n' && is_fence(q + 1, e))
            return strip_fence(r, s, e);
    r->fenced = true;
    r->fence_open = true;
    if (e[-1] == '`' && (e[-2] == '\n' || (e - body >= 2 && e[-2] == '`' && e[-3] == '\n'))) {
        e -= e[-2] == '`' ? 2 : 1;
        r->closing = true;
    }
    r->p = body;
    r->end = e;
    q = skip_ws(body, e);
    if (q == e) {
        r->closing = false; /* nothing yet: the text may still come */
        return fail_ended(r);
    }
    if (is_bom(q, e))
        return fail_bom(r, q);
    return true;
}

static bool begin(cc_reader_t *r, const char *reply, size_t reply_len,
                  bool fence_allowed, uint32_t max_depth, bool prefix);

bool cc_reader_begin(cc_reader_t *r, const char *reply, size_t reply_len,
                     bool fence_allowed, uint32_t max_depth)
{
    return begin(r, reply, reply_len, fence_allowed, max_depth, false);
}

bool cc_reader_begin_prefix(cc_reader_t *r, const char *reply, size_t reply_len,
                            bool fence_allowed, uint32_t max_depth)
{
    return begin(r, reply, reply_len, fence_allowed, max_depth, true);
}

static bool begin(cc_reader_t *r, const char *reply, size_t reply_len,
                  bool fence_allowed, uint32_t max_depth, bool prefix)
{
    const unsigned char *s, *e;

    /* A NULL reply reads as "": pointer arithmetic on NULL, even + 0, is
     * undefined (C99 6.5.6). */
    r->raw = (const unsigned char *)(reply ? reply : "");
    r->raw_len = reply ? reply_len : 0;
    r->p = r->raw;
    r->end = r->raw + r->raw_len;
    r->depth = 0;
    r->max_depth = max_depth > CC_READER_DEPTH_CAP ? CC_READER_DEPTH_CAP
                                                    : max_depth;
    r->utf8_end = r->raw;
    r->utf8_final = false;
    r->fenced = false;
    r->prefix = prefix;
    r->ended = false;
    r->ended_in_string = false;
    r->fence_open = false;
    r->closing = false;
    r->failed = false;
    r->fail_kind = CONTRACTC_KIND_EMPTY;
    r->fail_offset = 0;
    r->fail_message[0] = '\0';
    if (r->raw_len == 0) {
        r->end = r->raw;
        return cc_reader_fail(r, CONTRACTC_KIND_EMPTY, 0, "the reply is empty");
    }

    s = r->raw;
    e = r->end;
    /* The usual reply starts with an ASCII byte that is neither white space
     * nor a fence's '`' (so no BOM either) and ends with no white space:
     * it is the JSON text as it is. */
    if (s[0] < 0x80 && !ws_table[s[0]] && s[0] != '`' && !ws_table[e[-1]]) {
        r->p = s;
        return utf8_start(r);
    }
    if (is_bom(s, e))
        return fail_bom(r, s);
    if (e - s >= 2 && ((s[0] == 0xFF && s[1] == 0xFE) ||
                       (s[0] == 0xFE && s[1] == 0xFF)))
        return fail_at(r, CONTRACTC_KIND_ENCODING, s,
                       "the reply is UTF-16 (it starts with a UTF-16 byte "
                       "order mark); send UTF-8");

    s = skip_ws(s, e);
    while (e > s && ws_table[e[-1]])
        e--;
    if (s == e) {
        r->p = r->end = s;
        return fail_at(r, CONTRACTC_KIND_EMPTY, s,
                       "the reply is only white space");
    }
    if (is_bom(s, e))
        return fail_bom(r, s);
    if (prefix && fence_allowed && e - s < 3 && s[0] == '`' && (e - s == 1 || s[1] == '`'))
        return fail_ended(r); /* "``": a fence may still open */
    if (is_fence(s, e)) {
        if (!fence_allowed)
            return fail_at(r, CONTRACTC_KIND_SYNTAX, s,
                           "a ``` fence is not allowed: reply with the JSON "
                           "text alone");
        if (prefix)
            return open_fence(r, s, e) && utf8_start(r);
        return strip_fence(r, s, e) && utf8_start(r);
    }
    r->p = s;
    r->end = e;
    return utf8_start(r);
}

bool cc_reader_finish(cc_reader_t *r)
{
    const unsigned char *q;
    if (r->failed)
        return false;
    /* cc_reader_begin cut the white space after the JSON text. */
    if (r->p == r->end)
        return true;
    q = skip_ws(r->p, r->end);
    r->p = q;
    if (q != r->end) {
        if (*q >= 0x80) {
            uint32_t cp = 0;
            const char *why = "";
            if (cc_utf8_sequence(q, r->end, &cp, &why) == 0)
                return fail_utf8(r, q, why);
        }
        return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                       "text after the JSON value (reply with one JSON value "
                       "and nothing else)");
    }
    return true;
}

/* ------------------------------------------------------------------------
 * Tokens
 * ------------------------------------------------------------------------ */

int cc_peek_slow(cc_reader_t *r)
{
    const unsigned char *q = r->p, *end = r->end;
    while (q < end && ws_table[*q])
        q++;
    r->p = q;
    return q < end ? *q : -1;
}

bool cc_expect_slow(cc_reader_t *r, char c, const char *what)
{
    if (r->failed)
        return false;
    if (cc_peek(r) == (unsigned char)c) {
        r->p++;
        return true;
    }
    return fail_found(r, r->p, "expected ", what);
}

bool cc_enter_fail(cc_reader_t *r)
{
    msg_t m = MSG_INIT;
    msg_str(&m, "nesting deeper than the limit of ");
    msg_uint(&m, r->max_depth);
    msg_str(&m, r->max_depth == 1 ? " level" : " levels");
    msg_str(&m, " of objects and arrays");
    /* The bracket just consumed opened the level too many. */
    return fail_msg(r, CONTRACTC_KIND_LIMIT, r->p > r->raw ? r->p - 1 : r->p,
                    &m);
}


static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* The four hex digits after "\u" at q (q + 4 <= end checked), or -1. */
static long hex4(const unsigned char *q)
{
    int a = hex_value(q[0]), b = hex_value(q[1]), c = hex_value(q[2]),
        d = hex_value(q[3]);
    if ((a | b | c | d) < 0)
        return -1;
    return ((long)a << 12) | (b << 8) | (c << 4) | d;
}

static size_t utf8_length(uint32_t cp)
{
    return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static bool fail_lone_surrogate(cc_reader_t *r, const unsigned char *at,
                                uint32_t unit, bool high)
{
    msg_t m = MSG_INIT;
    msg_str(&m, "lone surrogate ");
    msg_model(&m, "\\u");
    msg_hex(&m, unit, 4);
    msg_log(&m, "escape");
    msg_str(&m, high ? " in a string (a high surrogate must be followed by "
                       "a low one, \\uDC00-\\uDFFF)"
                     : " in a string (a low surrogate must follow a high "
                       "one, \\uD800-\\uDBFF)");
    return fail_msg(r, CONTRACTC_KIND_ENCODING, at, &m);
}

static bool fail_unterminated(cc_reader_t *r, const unsigned char *open);

/* The text ends inside an escape of the string opened at `open`: the
 * reply ends inside a string, but in prefix mode not in its plain text
 * (the stream's next plain byte may finish the escape). */
static bool fail_cut_escape(cc_reader_t *r, const unsigned char *open)
{
    fail_unterminated(r, open);
    r->ended_in_string = false;
    return false;
}

/* Whether [p, end) is a proper prefix of a \uXXXX escape: the text ends
 * before the escape could finish, so it is truncated, not malformed. */
static bool cut_escape(const unsigned char *p, const unsigned char *end)
{
    size_t i, n = (size_t)(end - p);
    if (n >= 6)
        return false;
    for (i = 0; i < n; i++) {
        if (i == 0 ? p[i] != '\\' : i == 1 ? p[i] != 'u'
                                            : hex_value(p[i]) < 0)
            return false;
    }
    return true;
}

/*
 * One escape at q (q[0] == '\\') of the string opened at `open`.  Adds
 * to *shrink how many bytes shorter its decoded form is; returns the byte
 * after it, or NULL after recording a problem.
 */
static const unsigned char *scan_escape(cc_reader_t *r, const unsigned char *open,
                                        const unsigned char *q,
                                        size_t *shrink)
{
    const unsigned char *end = r->end;
    long unit, low;
    msg_t m = MSG_INIT;

    if (q + 1 >= end)
        return fail_cut_escape(r, open), NULL;
    switch (q[1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
    case 't':
        *shrink += 1;
        return q + 2;
    case 'u':
        break;
    default:
        msg_str(&m, "invalid escape ");
        msg_model(&m, "'\\");
        if (q[1] >= 0x20 && q[1] < 0x7F) {
            msg_model_char(&m, (char)q[1]);
            msg_model(&m, "' ");
        } else {
            msg_model(&m, "' followed by byte ");
            msg_byte(&m, q[1]);
            msg_model(&m, " ");
        }
        msg_str(&m, "in a string");
        msg_str(&m, " (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
        return fail_msg(r, CONTRACTC_KIND_SYNTAX, q, &m), NULL;
    }
    if (cut_escape(q, end))
        return fail_cut_escape(r, open), NULL;
    if (end - q < 6 || (unit = hex4(q + 2)) < 0)
        return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                       "invalid \\u escape in a string: it needs exactly four "
                       "hex digits"), NULL;
    if (unit == 0)
        return fail_at(r, CONTRACTC_KIND_ENCODING, q,
                       "\\u0000 (NUL) is not allowed in a string"), NULL;
    if (unit >= 0xDC00 && unit <= 0xDFFF)
        return fail_lone_surrogate(r, q, (uint32_t)unit, false), NULL;
    if (unit >= 0xD800 && unit <= 0xDBFF) {
        if (cut_escape(q + 6, end))
            return fail_cut_escape(r, open), NULL;
        if (end - q < 12 || q[6] != '\\' || q[7] != 'u' ||
            (low = hex4(q + 8)) < 0 || low < 0xDC00 || low > 0xDFFF)
            return fail_lone_surrogate(r, q, (uint32_t)unit, true), NULL;
        *shrink += 12 - 4;
        return q + 12;
    }
    *shrink += 6 - utf8_length((uint32_t)unit);
    return q + 6;
}

static bool fail_control(cc_reader_t *r, const unsigned char *at)
{
    static const char *const names[32] = {
        0, 0, 0, 0, 0, 0, 0, 0, "\\b", "\\t", "\\n", 0, "\\f", "\\r",
    };
    msg_t m = MSG_INIT;
    msg_str(&m, "raw control character");
    msg_model(&m, " ");
    msg_code_point(&m, *at);
    /* Not "write \u0000": policy rejects that escape too. */
    if (*at == 0) {
        msg_str(&m, " in a string (NUL is not allowed in a string, escaped "
                    "or not)");
        return fail_msg(r, CONTRACTC_KIND_SYNTAX, at, &m);
    }
    msg_str(&m, " in a string (write ");
    if (names[*at]) {
        msg_model(&m, names[*at]);
    } else {
        msg_model(&m, "\\u00");
        msg_hex(&m, *at, 2);
    }
    msg_log(&m, "it as an escape such as \\n or \\u001F");
    msg_str(&m, ")");
    return fail_msg(r, CONTRACTC_KIND_SYNTAX, at, &m);
}

static bool fail_unterminated(cc_reader_t *r, const unsigned char *open)
{
    msg_t m = MSG_INIT;
    size_t line, column;
    if (!r->failed && at_open_end(r, r->end)) {
        /* Prefix mode: no problem, so no message (its line and column
         * would cost a pass over the text so far). */
        r->ended_in_string = true;
        return fail_ended(r);
    }
    cc_reader_line_column(r, offset_of(r, open), &line, &column);
    msg_str(&m, r->fenced ? "the fenced text ends inside a string"
                          : "the reply ends inside a string");
    msg_str(&m, " (it starts at line ");
    msg_uint(&m, line);
    msg_str(&m, ", column ");
    msg_uint(&m, column);
    msg_str(&m, ")");
    return fail_msg(r, CONTRACTC_KIND_SYNTAX, r->end, &m);
}

/*
 * The string scan validates the UTF-8 of the text ahead of it this many
 * bytes at a time (r->utf8_end), not all of it in cc_reader_begin: a reply
 * rejected early (too deep, a syntax error) then costs no pass over the
 * rest of it (tests/e2e/bench_nested.sh checks that this work stays flat).
 */
#define CC_UTF8_CHUNK 4096

/*
 * Moves r->utf8_end on, a chunk at a time, until it is 8 bytes or more
 * past the cursor q or has reached the first bad sequence or r->end
 * (r->utf8_final).  A chunk that ends inside a sequence has that sequence
 * checked whole.  Not inline: it runs once a chunk, and inlined into the
 * scans' loops it cost them registers (docs/runtime-internals.md).
 */
static CC_NOINLINE void utf8_extend(cc_reader_t *r, const unsigned char *q)
{
    const unsigned char *v = r->utf8_end, *end = r->end;
    while (!r->utf8_final && v - q < 8) {
        size_t avail = (size_t)(end - v), len;
        size_t chunk = avail < CC_UTF8_CHUNK ? avail : CC_UTF8_CHUNK;
        size_t ok = cc_utf8_valid_prefix(v, chunk);
        if (ok < chunk) {
            /* v[ok] >= 0x80: the prefix stops only at a high byte. */
            len = cc_utf8_length(v + ok, avail - ok);
            if (len == 0) {
                v += ok;
                r->utf8_final = true;
                break;
            }
            ok += len;
        }
        v += ok;
        if (v == end)
            r->utf8_final = true;
    }
    r->utf8_end = v;
}

/* For the byte after '\\' of an escape that decodes to one byte, that
 * byte (RFC 8259 section 7); 0 for every other byte. */
static const unsigned char short_escape[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b', ['f'] = '\f',
    ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* Whether skip_plain stops at byte c. */
static inline bool is_special(unsigned char c)
{
    return c == '"' || c == '\\' || c < 0x20;
}

/* Ends the string token opened at `open` at its closing quote `close`;
 * `shrink` is how much shorter the escapes make it decoded (every escape
 * is longer than what it stands for).  Moves the cursor past the quote. */
static CC_INLINE bool string_done(cc_reader_t *r, cc_string_token_t *t,
                                  const unsigned char *open, const unsigned char *close,
                                  size_t shrink)
{
    t->raw = open + 1;
    t->raw_len = (size_t)(close - (open + 1));
    t->decoded_len = t->raw_len - shrink;
    t->has_escapes = shrink != 0;
    r->p = close + 1;
    return true;
}

/*
 * The rest of the string opened at `open`, from q (no escapes before it):
 * the general scan.  Its fast path is skip_plain through the text before
 * utf8_end; it handles the closing quote and the short escapes.  The
 * careful path after it checks byte by byte against the grammar, the UTF-8
 * rule and policy, where the fast path cannot run (the last bytes before
 * utf8_end, every byte from the first bad sequence on) and for what it
 * leaves (\u escapes, every problem), so every message and offset is the
 * careful path's.
 *
 * Not inline: cc_scan_string's common case (a string without escapes in
 * valid text) then runs as a small leaf (docs/runtime-internals.md,
 * "Inlining").
 */
static CC_NOINLINE bool scan_string_rest(cc_reader_t *r, cc_string_token_t *t,
                                         const unsigned char *open, const unsigned char *q,
                                         size_t shrink)
{
    /* shrink: raw bytes minus decoded bytes, from the escapes before q */
    const unsigned char *end = r->end, *lim = r->utf8_end;

    for (;;) {
        /* The fast path. */
        q = skip_plain(q, lim);
        if (q < lim && is_special(*q)) {
            if (*q == '"')
                break;
            if (*q == '\\' && end - q >= 2 && short_escape[q[1]]) {
                shrink += 1;
                q += 2;
                continue;
            }
        } else if (!r->utf8_final) {
            utf8_extend(r, q);
            lim = r->utf8_end;
            continue;
        } else {
            /* The last step may have ended inside a valid sequence: its
             * continuation bytes, before lim, were checked. */
            while (q < lim && (*q & 0xC0u) == 0x80u)
                q++;
        }

        /* The careful path: the plain bytes, then the byte that stops
         * them. */
        while (end - q >= 8 && plain8(q))
            q += 8;
        while (q < end && string_table[*q] == SB_PLAIN)
            q++;
        if (q >= end)
            return fail_unterminated(r, open);
        if (string_table[*q] == SB_QUOTE)
            break;
        if (string_table[*q] == SB_ESCAPE) {
            q = scan_escape(r, open, q, &shrink);
            if (!q)
                return false;
        } else if (string_table[*q] == SB_CONTROL) {
            return fail_control(r, q);
        } else {
            uint32_t cp = 0;
            const char *why = "";
            size_t n = cc_utf8_sequence(q, end, &cp, &why);
            if (n == 0)
                return fail_utf8(r, q, why);
            q += n;
        }
    }
    return string_done(r, t, open, q, shrink);
}

bool cc_scan_string(cc_reader_t *r, cc_string_token_t *t)
{
    const unsigned char *open = r->p, *q, *lim = r->utf8_end;

    if (r->failed)
        return false;
    if (open >= r->end || *open != '"')
        return fail_found(r, open, "expected ", "a string");
    /* The common case, a string without escapes in text known to be valid
     * UTF-8, is done here; from anything else on, the general scan. */
    q = skip_wide(open + 1, lim);
    /* No quote yet, and less than a whole step left before lim: one more
     * step, the one that ends at lim.  (lim, the end of the checked text,
     * may also still lie before q.) */
    if (q < lim && *q != '"' && lim - q < WIDE_STEP && lim - r->raw >= WIDE_STEP)
        q = skip_tail(q, lim);
    if (q < lim && *q == '"')
        return string_done(r, t, open, q, 0);
    return scan_string_rest(r, t, open, q, 0);
}

/*
 * The fast path of scan_string_rest, writing as it goes: whole steps of
 * plain text are stored whole (what lies past a special byte is written
 * over after it), each short escape stores its byte.  It stops where the
 * fast path would, and where fewer than 16 bytes of buf remain; the
 * general scan finishes the string then, with the escapes counted so far.
 * r->p is at the opening quote.  Not inline, like scan_string_rest, so
 * that cc_scan_string_copy below stays a small leaf.
 */
static CC_NOINLINE bool scan_string_copy_rest(cc_reader_t *r, cc_string_token_t *t, char *buf,
                                              size_t cap, bool *copied, size_t done)
{
    /* done: plain bytes already copied, with no escape before them */
    const unsigned char *open = r->p, *q = open + 1 + done, *lim = r->utf8_end, *end = r->end;
    unsigned char *d = (unsigned char *)buf + done;
    const unsigned char *const dlim = (const unsigned char *)buf + (cap < 16 ? 0 : cap - 16);
    size_t shrink = 0;

    for (;;) {
        while (lim - q >= COPY_STEP && d <= dlim) {
            const unsigned k = copy_step(q, d);
            q += k;
            d += k;
            if (k < COPY_STEP)
                goto special;
        }
        if (!r->utf8_final && d <= dlim) {
            /* Check the next chunk ahead (the first string of a reply
             * starts with none checked). */
            utf8_extend(r, q);
            lim = r->utf8_end;
            if (lim - q >= COPY_STEP)
                continue;
        }
        break; /* the last bytes, or the end of buf: the general scan */
    special:
        if (*q == '"') {
            *copied = true;
            return string_done(r, t, open, q, shrink);
        }
        if (*q != '\\' || end - q < 2 || !short_escape[q[1]])
            break; /* a control byte, \u, a bad escape: the general scan */
        *d++ = short_escape[q[1]];
        q += 2;
        shrink += 1;
    }
    return scan_string_rest(r, t, open, q, shrink);
}

/*
 * The common case, a string that closes within the first step of text
 * known to be valid UTF-8, is done here, as a small leaf; the rest (more
 * steps, escapes, the UTF-8 check ahead, which the first string of a reply
 * always needs) is scan_string_copy_rest above, which goes on from the
 * special byte or the end of that step.
 */
bool cc_scan_string_copy(cc_reader_t *r, cc_string_token_t *t, char *buf, size_t cap,
                         bool *copied)
{
    const unsigned char *open = r->p, *q = open + 1;
    unsigned k = 0;

    *copied = false;
    if (r->failed || open >= r->end || *open != '"')
        return cc_scan_string(r, t);
    if (r->utf8_end - q >= COPY_STEP && cap >= 16) { /* as the steps of the rest */
        k = copy_step(q, (unsigned char *)buf);
        if (k < COPY_STEP && q[k] == '"') {
            *copied = true;
            return string_done(r, t, open, q + k, 0);
        }
    }
    return scan_string_copy_rest(r, t, buf, cap, copied, k);
}

static char *put_utf8(char *dst, uint32_t cp)
{
    if (cp < 0x80) {
        *dst++ = (char)cp;
    } else if (cp < 0x800) {
        *dst++ = (char)(0xC0 | (cp >> 6));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *dst++ = (char)(0xE0 | (cp >> 12));
        *dst++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *dst++ = (char)(0xF0 | (cp >> 18));
        *dst++ = (char)(0x80 | ((cp >> 12) & 0x3F));
        *dst++ = (char)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (char)(0x80 | (cp & 0x3F));
    }
    return dst;
}

void cc_decode_string(const cc_string_token_t *t, char *dst)
{
    const unsigned char *q = t->raw, *end = t->raw + t->raw_len;
    const char *const out_end = dst + t->decoded_len;
    if (!t->has_escapes) {
        if (t->raw_len)
            memcpy(dst, t->raw, t->raw_len);
        return;
    }
    while (q < end) {
        q = copy_to_escape(q, end, &dst, out_end);
        if (q >= end)
            break;
        /* The token was validated: every escape is well formed. */
        switch (q[1]) {
        case 'b': *dst++ = '\b'; q += 2; break;
        case 'f': *dst++ = '\f'; q += 2; break;
        case 'n': *dst++ = '\n'; q += 2; break;
        case 'r': *dst++ = '\r'; q += 2; break;
        case 't': *dst++ = '\t'; q += 2; break;
        case 'u': {
            uint32_t unit = (uint32_t)hex4(q + 2);
            q += 6;
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                uint32_t low = (uint32_t)hex4(q + 2);
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                q += 6;
            }
            dst = put_utf8(dst, unit);
            break;
        }
        default: /* '"', '\\', '/' */
            *dst++ = (char)q[1];
            q += 2;
            break;
        }
    }
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* A byte that may directly follow a number: the grammar allows only white
 * space, ',', ']', '}' (or the end); letters, digits, '.', '+', '-' right
 * after a number mean the number itself is malformed ("1.2.3", "0x1F"). */
static const unsigned char number_byte[256] = {
    ['.'] = 1, ['+'] = 1, ['-'] = 1, ['_'] = 1,
    ['0'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['A'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['a'] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* One lookup: it runs after every number and literal. */
static bool continues_number(unsigned char c)
{
    return number_byte[c] != 0;
}

static bool fail_number(cc_reader_t *r, const unsigned char *start,
                        const unsigned char *at, const char *why)
{
    msg_t m = MSG_INIT;
    const unsigned char *q = start;
    msg_str(&m, why);
    msg_model(&m, " (in \"");
    while (q < r->end && q - start < 24 && continues_number(*q))
        msg_model_char(&m, (char)*q++);
    msg_model(&m, q < r->end && continues_number(*q) ? "...\")" : "\")");
    return fail_msg(r, CONTRACTC_KIND_SYNTAX, at, &m);
}

bool cc_scan_number(cc_reader_t *r, cc_number_token_t *t)
{
    const unsigned char *start = r->p, *q = start, *end = r->end;

    if (r->failed)
        return false;
    t->negative = false;
    t->has_fraction = false;
    t->has_exponent = false;
    if (q < end && *q == '-') {
        t->negative = true;
        q++;
    }
    if (q >= end || !is_digit(*q))
        return fail_number(r, start, q, "expected a digit after '-'");
    if (*q == '0') {
        q++;
        if (q < end && is_digit(*q))
            return fail_number(r, start, q - 1,
                               "a number may not have a leading zero");
    } else {
        while (q < end && is_digit(*q))
            q++;
    }
    if (q < end && *q == '.') {
        q++;
        t->has_fraction = true;
        if (q >= end || !is_digit(*q))
            return fail_number(r, start, q,
                               "expected a digit after the decimal point");
        while (q < end && is_digit(*q))
            q++;
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q++;
        t->has_exponent = true;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q >= end || !is_digit(*q))
            return fail_number(r, start, q,
                               "expected a digit in the exponent");
        while (q < end && is_digit(*q))
            q++;
    }
    if (q < end && continues_number(*q))
        return fail_number(r, start, q, "invalid number");
    if (q >= end && at_open_end(r, q)) /* more digits may follow */
        return fail_ended(r);
    t->text = start;
    t->len = (size_t)(q - start);
    r->p = q;
    return true;
}

bool cc_scan_small_integer(cc_reader_t *r, int64_t *value)
{
    const unsigned char *q = r->p, *end = r->end, *digits;
    uint64_t v = 0;
    unsigned digit;
    size_t n;
    bool negative = false;

    if (r->failed)
        return false;
    if (q < end && *q == '-') {
        negative = true;
        q++;
    }
    digits = q;
    /* The form and the value in one loop: its exit is the one branch a
     * reply's integer mispredicts (a scan, then a check, then a sum each
     * had their own). */
    while (q < end && (digit = (unsigned)(*q - '0')) <= 9) {
        v = v * 10 + digit; /* may wrap past 19 digits: unsigned, defined */
        q++;
    }
    n = (size_t)(q - digits);
    if (n == 0 || n > 15 || (n > 1 && *digits == '0') ||
        (q < end ? continues_number(*q) : r->prefix))
        return false; /* (in prefix mode, cc_scan_number says why) */
    *value = negative ? -(int64_t)v : (int64_t)v;
    r->p = q;
    return true;
}

/* The end of the word (letters, digits, '_') that starts at q. */
static const unsigned char *word_end(const unsigned char *q,
                                     const unsigned char *end)
{
    while (q < end && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
                       is_digit(*q) || *q == '_'))
        q++;
    return q;
}

/* Whether [w, e) is `lower` in any case ("NaN", "INF"). */
static bool word_is(const unsigned char *w, const unsigned char *e,
                    const char *lower)
{
    for (; w < e && *lower; w++, lower++) {
        unsigned char c = *w >= 'A' && *w <= 'Z' ? (unsigned char)(*w + 32)
                                                 : *w;
        if (c != (unsigned char)*lower)
            return false;
    }
    return w == e && *lower == '\0';
}

/* "True", "NULL", "nan": the word at q, for the message. */
static bool fail_word(cc_reader_t *r, const unsigned char *q,
                      const char *context)
{
    msg_t m = MSG_INIT;
    const unsigned char *w = q, *e = word_end(q, r->end);
    if (at_open_end(r, e) && e - q < 5 &&
        (memcmp(q, "true", (size_t)(e - q)) == 0 || memcmp(q, "false", (size_t)(e - q)) == 0 ||
         memcmp(q, "null", (size_t)(e - q)) == 0))
        return fail_ended(r); /* "tru": the literal may still come */
    msg_str(&m, "unexpected word ");
    msg_model(&m, "'");
    while (w < e && w - q < 24)
        msg_model_char(&m, (char)*w++);
    msg_model(&m, "' ");
    msg_str(&m, context);
    /* NaN and Infinity are what a model writes for a number it lacks. */
    if (word_is(q, e, "nan") || word_is(q, e, "inf") ||
        word_is(q, e, "infinity"))
        msg_str(&m, " (JSON has no NaN or Infinity: write a finite number "
                    "or null)");
    else
        msg_str(&m, " (JSON has only true, false and null, in lowercase)");
    return fail_msg(r, CONTRACTC_KIND_SYNTAX, q, &m);
}

bool cc_scan_literal(cc_reader_t *r, cc_literal_t *which)
{
    const unsigned char *q = r->p, *end = r->end;
    size_t n = 4;

    if (r->failed)
        return false;
    if (q >= end)
        return fail_found(r, q, "expected ", "a value");
    /* memcmp of a constant 4 bytes is one 32-bit compare, where a length
     * chosen by a switch was a call. */
    if (end - q < 4)
        return fail_word(r, q, "where a value was expected");
    if (memcmp(q, "null", 4) == 0)
        *which = CC_LITERAL_NULL;
    else if (memcmp(q, "true", 4) == 0)
        *which = CC_LITERAL_TRUE;
    else if (end - q >= 5 && memcmp(q, "fals", 4) == 0 && q[4] == 'e')
        *which = CC_LITERAL_FALSE, n = 5;
    else
        return fail_word(r, q, "where a value was expected");
    if (q + n < end && continues_number(q[n]))
        return fail_word(r, q, "where a value was expected");
    r->p = q + n;
    return true;
}

/* Why the byte at q cannot start a value, said as usefully as we can. */
static bool fail_value_start(cc_reader_t *r, const unsigned char *q,
                             const char *context)
{
    if (q < r->end) {
        unsigned char c = *q;
        bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        /* A reply that is one word ("True", "NaN", "None") is a wrong
         * value, not text before one. */
        if (r->depth == 0 && letter &&
            skip_ws(word_end(q, r->end), r->end) == r->end)
            return fail_word(r, q, "where a value was expected");
        if (r->depth == 0 && c != '\'' && c != '+' && c != '.' && c >= 0x20 &&
            c < 0x7F)
            return fail_found(r, q, "text before the JSON value: ",
                              "the reply must start with a JSON value or a "
                              "``` fence");
        if (letter)
            return fail_word(r, q, context);
        if (c == '\'')
            return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                           "single quotes are not JSON: strings use double "
                           "quotes");
        if (c == '+')
            return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                           "a number may not start with '+'");
        if (c == '.')
            return fail_at(r, CONTRACTC_KIND_SYNTAX, q,
                           "a number must start with a digit (write 0.5, "
                           "not .5)");
    }
    return fail_found(r, q, "expected a value ", context);
}

/* ------------------------------------------------------------------------
 * Skipping a whole value, iteratively
 * ------------------------------------------------------------------------ */

static bool skip_scalar(cc_reader_t *r, int c, const char *context)
{
    cc_string_token_t s;
    cc_number_token_t n;
    cc_literal_t l;
    if (c == '"')
        return cc_scan_string(r, &s);
    if (c == '-' || (c >= '0' && c <= '9'))
        return cc_scan_number(r, &n);
    if (c == 't' || c == 'f' || c == 'n')
        return cc_scan_literal(r, &l);
    return fail_value_start(r, r->p, context);
}

static void set_kind(unsigned char *kinds, uint32_t level, bool object)
{
    if (object)
        kinds[level / 8] |= (unsigned char)(1u << (level % 8));
    else
        kinds[level / 8] &= (unsigned char)~(1u << (level % 8));
}

static bool is_object(const unsigned char *kinds, uint32_t level)
{
    return (kinds[level / 8] >> (level % 8)) & 1u;
}

bool cc_skip_value(cc_reader_t *r)
{
    return cc_walk_value(r, NULL);
}

bool cc_walk_value(cc_reader_t *r, const cc_walk_t *w)
{
    /* One bit per container this call opened (1 = object, 0 = array).  The
     * reader caps depth at CC_READER_DEPTH_CAP, so the stack cannot
     * overflow: cc_enter fails first. */
    unsigned char kinds[CC_READER_DEPTH_CAP / 8];
    enum { WANT_VALUE, WANT_KEY, AFTER_VALUE } state = WANT_VALUE;
    uint32_t level = 0;
    const unsigned char *comma;
    const char *context = r->depth == 0 ? "at the start of the reply"
                                        : "here";
    cc_string_token_t key;
    bool object;
    int c;

    if (r->failed)
        return false;
    for (;;) {
        switch (state) {
        case WANT_VALUE:
            c = cc_peek(r);
            if (c != '{' && c != '[') {
                if (!skip_scalar(r, c, context))
                    return false;
                state = AFTER_VALUE;
                break;
            }
            r->p++;
            if (!cc_enter(r))
                return false;
            object = c == '{';
            set_kind(kinds, level++, object);
            if (w && !w->open(w->user, object))
                return false;
            if (cc_peek(r) == (object ? '}' : ']')) {
                r->p++;
                cc_leave(r);
                level--;
                if (w)
                    w->close(w->user);
                state = AFTER_VALUE;
            } else {
                context = "after '['";
                state = object ? WANT_KEY : WANT_VALUE;
                if (!object && w && !w->item(w->user))
                    return false;
            }
            break;

        case WANT_KEY:
            c = cc_peek(r);
            if (c != '"') {
                if (c == '\'')
                    return fail_at(r, CONTRACTC_KIND_SYNTAX, r->p,
                                   "single quotes are not JSON: keys are "
                                   "strings in double quotes");
                return fail_found(r, r->p, "expected ",
                                  "a key (a string in double quotes)");
            }
            if (!cc_scan_string(r, &key) ||
                !cc_expect(r, ':', "':' after the key"))
                return false;
            if (w && !w->key(w->user, &key))
                return false;
            context = "after ':'";
            state = WANT_VALUE;
            break;

        case AFTER_VALUE:
            if (level == 0)
                return true;
            object = is_object(kinds, level - 1);
            c = cc_peek(r);
            if (c == (object ? '}' : ']')) {
                r->p++;
                cc_leave(r);
                level--;
                if (w)
                    w->close(w->user);
                break;
            }
            if (c != ',')
                return fail_found(r, r->p, "expected ",
                                  object ? "',' or '}' after a member of an "
                                           "object"
                                         : "',' or ']' after an item of an "
                                           "array");
            comma = r->p++;
            if (cc_peek(r) == (object ? '}' : ']'))
                return fail_at(r, CONTRACTC_KIND_SYNTAX, comma,
                               object ? "unexpected ',' after the last member "
                                        "of an object"
                                      : "unexpected ',' after the last item "
                                        "of an array");
            context = "after ','";
            state = object ? WANT_KEY : WANT_VALUE;
            if (!object && w && !w->item(w->user))
                return false;
            break;
        }
    }
}

bool cc_read_document(cc_reader_t *r, const char *text, size_t len,
                      bool fence_allowed, uint32_t max_depth)
{
    return cc_reader_begin(r, text, len, fence_allowed, max_depth) &&
           cc_skip_value(r) && cc_reader_finish(r);
}
