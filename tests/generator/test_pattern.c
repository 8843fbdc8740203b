/* SPDX-License-Identifier: MIT */
/*
 * test_pattern.c - the pattern compiler (generator/pattern.c) and the DFA
 * matcher (runtime/src/dfa.c).
 *
 * The oracle test checks both matchers against PCRE2, compiled so that it
 * reads the ECMA-262 subset the same way: PCRE2_UTF (code points), no
 * PCRE2_UCP (ASCII \d and \w), PCRE2_ALT_BSUX + PCRE2_EXTRA_ALT_BSUX
 * (\uHHHH, \u{H..}, \xHH as in ECMA-262), anchored at both ends (a whole
 * string match, not "^...$", which would allow a final newline).  ECMA's
 * \v (U+000B) is PCRE2's \x0B; the test rewrites it.  \s, \S and '.' are
 * rewritten to explicit classes (to_pcre2): PCRE2's \s is ASCII without
 * PCRE2_UCP and, with it, Unicode White_Space, which holds U+0085 and not
 * U+FEFF, so neither agrees with ECMA-262; PCRE2's '.' excludes only the
 * newline convention's characters, ECMA's excludes LF, CR, U+2028, U+2029.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <check.h>
#include <pcre2.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <contractc/contractc.h>

#include "pattern.h"

/* ------------------------------------------------------------------------ */
/* Helpers */

static contractc_dfa_t view_of(const cc_dfa_t *d, const char *source)
{
    contractc_dfa_t v;
    v.source = source;
    v.state_count = d->state_count;
    v.class_count = d->class_count;
    v.start = d->start;
    v.byte_class = d->byte_class;
    v.next = d->next;
    v.accepting = d->accepting;
    return v;
}

static cc_dfa_t *compile_ok(const char *pattern)
{
    cc_pattern_error_t err;
    cc_dfa_t *d = cc_pattern_compile(pattern, &err);
    ck_assert_msg(d != NULL, "pattern '%s' refused at %zu: %s", pattern, err.offset,
                  err.message);
    return d;
}

static bool same_tables(const cc_dfa_t *a, const cc_dfa_t *b)
{
    return a->state_count == b->state_count && a->class_count == b->class_count
        && a->start == b->start
        && memcmp(a->byte_class, b->byte_class, sizeof a->byte_class) == 0
        && memcmp(a->next, b->next, (size_t)a->state_count * a->class_count
                  * sizeof *a->next) == 0
        && memcmp(a->accepting, b->accepting, a->state_count) == 0;
}

static size_t put_utf8(char *b, uint32_t cp)
{
    if (cp < 0x80) {
        b[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = (char)(0xF0 | (cp >> 18));
    b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes valid UTF-8 at s; *n gets the length. */
static uint32_t get_utf8(const char *s, size_t *n)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) {
        *n = 1;
        return u[0];
    }
    if (u[0] < 0xE0) {
        *n = 2;
        return ((uint32_t)(u[0] & 0x1F) << 6) | (u[1] & 0x3Fu);
    }
    if (u[0] < 0xF0) {
        *n = 3;
        return ((uint32_t)(u[0] & 0x0F) << 12) | ((uint32_t)(u[1] & 0x3F) << 6)
            | (u[2] & 0x3Fu);
    }
    *n = 4;
    return ((uint32_t)(u[0] & 0x07) << 18) | ((uint32_t)(u[1] & 0x3F) << 12)
        | ((uint32_t)(u[2] & 0x3F) << 6) | (u[3] & 0x3Fu);
}

/* ------------------------------------------------------------------------ */
/* (a) refused and invalid patterns: message fragment and byte offset */

typedef struct refusal {
    const char *pattern;
    const char *fragment;
    size_t offset;
} refusal_t;

static const refusal_t refusals[] = {
    /* unsupported constructs */
    {"\\bword", "word boundary", 0},
    {"a\\B", "'\\B'", 1},
    {"(a)\\1", "backreference '\\1'", 3},
    {"(a)(b)\\9", "backreference '\\9'", 6},
    {"(?<x>a)\\k<x>", "named group '(?<'", 0},
    {"\\k<x>", "named backreference '\\k'", 0},
    {"(?<year>\\d{4})", "named group", 0},
    {"a(?=b)", "lookahead '(?='", 1},
    {"a(?!b)", "negative lookahead '(?!'", 1},
    {"(?<=a)b", "lookbehind '(?<='", 0},
    {"(?<!a)b", "negative lookbehind '(?<!'", 0},
    {"(?i)abc", "inline flags '(?i'", 0},
    {"x(?m:a)", "inline flags '(?m'", 1},
    {"(?#c)", "'(?' must be followed by ':'", 0},
    {"^abc", "'^' is not supported", 0},
    {"abc$", "'$' is not supported", 3},
    {"a|^b", "'^' is not supported", 2},
    {"(a$)", "'$' is not supported", 2},
    {"\\p{L}", "Unicode property escape '\\p'", 0},
    {"a\\P{L}", "Unicode property escape '\\P'", 1},
    {"[a\\B]", "'\\B'", 2},
    {"[\\1]", "backreference '\\1'", 1},
    {"\\01", "octal escape '\\01'", 0},
    /* invalid patterns */
    {"[a-\\d]", "cannot be a range end", 1},
    {"[\\w-z]", "cannot be a range end", 1},
    {"[z-a]", "range out of order in class: 'z-a'", 1},
    {"x[\xc3\xa9-a]", "range out of order", 2},
    {"a{3,2}", "numbers out of order in quantifier '{3,2}'", 1},
    {"a{1001}", "'1001' is over the limit of 1000", 2},
    {"a{1,99999999999}", "over the limit of 1000", 4},
    {"(ab", "missing ')' for the group opened here", 0},
    {"a(b(c)", "missing ')'", 1},
    {"ab)", "unmatched ')'", 2},
    {"[abc", "missing ']' for the class opened here", 0},
    {"*a", "nothing to repeat before '*'", 0},
    {"a|+b", "nothing to repeat before '+'", 2},
    {"(?b)", "inline flags '(?b'", 0},
    {"(*)", "nothing to repeat before '*'", 1},
    {"a**", "nothing to repeat before '*'", 2},
    {"a{2}{3}", "nothing to repeat before '{'", 4},
    {"a+?+", "nothing to repeat before '+'", 3},
    {"{2}", "nothing to repeat before '{'", 0},
    {"a{", "'{' does not start a quantifier", 1},
    {"a{,5}", "'{' does not start a quantifier", 1},
    {"a{1,2", "'{' does not start a quantifier", 1},
    {"a{x}", "'{' does not start a quantifier", 1},
    {"x}", "unmatched '}'", 1},
    {"x]", "unmatched ']'", 1},
    {"[]", "the empty class '[]'", 0},
    {"a[^]", "'[^]' is not supported", 1},
    {"[a[]", "literal '[' inside a class", 2},
    {"\\x4", "exactly two hex digits", 0},
    {"\\xZZ", "exactly two hex digits", 0},
    {"\\u12", "four hex digits", 0},
    {"a\\uD800", "lone surrogate '\\uD800'", 1},
    {"\\uDC00\\uD800", "lone surrogate '\\uDC00'", 0},
    {"\\u{110000}", "above 10FFFF", 0},
    {"\\u{}", "'\\u{' must be followed by hex digits", 0},
    {"\\u{41", "'\\u{' must be followed by hex digits", 0},
    {"\\q", "unknown escape '\\q'", 0},
    {"\\_", "unknown escape '\\_'", 0},
    {"\\\xc3\xa9", "only ASCII punctuation can be escaped", 0},
    {"ab\\", "escapes nothing", 2},
    {"\\c1", "'\\c' must be followed by a letter", 0},
    {"a\xff" "b", "not valid UTF-8", 1},
    {"\xc3", "not valid UTF-8", 0},
    {"\xed\xa0\x80", "not valid UTF-8", 0},
    /* size limits */
    {"(?:[^a]{1000}){1000}", "too large: this repetition expands it past", 0},
    {"ab(c{1000}){1000}", "too large", 2},
};

START_TEST(each_unsupported_or_invalid_pattern_is_refused_with_its_offset)
{
    const refusal_t *r = &refusals[_i];
    cc_pattern_error_t err;
    cc_dfa_t *d = cc_pattern_compile(r->pattern, &err);
    ck_assert_msg(d == NULL, "'%s' was accepted", r->pattern);
    ck_assert_msg(strstr(err.message, r->fragment) != NULL,
                  "'%s': message \"%s\" lacks \"%s\"", r->pattern, err.message, r->fragment);
    ck_assert_msg(err.offset == r->offset, "'%s': offset %zu, expected %zu (%s)",
                  r->pattern, err.offset, r->offset, err.message);
}
END_TEST

START_TEST(groups_nested_too_deep_are_refused_at_the_first_too_deep_paren)
{
    char pattern[200];
    cc_pattern_error_t err;
    int i;
    for (i = 0; i < 65; i++)
        pattern[i] = '(';
    pattern[65] = 'a';
    for (i = 0; i < 65; i++)
        pattern[66 + i] = ')';
    pattern[131] = '\0';
    ck_assert_ptr_null(cc_pattern_compile(pattern, &err));
    ck_assert_str_eq(err.message, "groups are nested more than 64 deep");
    ck_assert_uint_eq(err.offset, 64);
    /* 64 levels are fine */
    {
        char ok[200];
        cc_dfa_t *d;
        memcpy(ok, pattern, 64);
        ok[64] = 'a';
        memset(ok + 65, ')', 64);
        ok[129] = '\0';
        d = compile_ok(ok);
        ck_assert(cc_dfa_matches(d, "a", 1));
        cc_dfa_free(d);
    }
}
END_TEST

START_TEST(a_null_pattern_is_an_error_not_a_crash)
{
    cc_pattern_error_t err;
    ck_assert_ptr_null(cc_pattern_compile(NULL, &err));
    ck_assert_str_eq(err.message, "no pattern");
    ck_assert_ptr_null(cc_pattern_compile("a\\b", NULL));   /* err may be NULL */
}
END_TEST

/* ------------------------------------------------------------------------ */
/* (b) oracle: both matchers against PCRE2 */

static const char *const oracle_patterns[] = {
    "A-[0-9]+",
    "[\xc3\xa0-\xc3\xbf]+",                 /* [à-ÿ]+ */
    "[^a-z]{2,4}",
    "\\d{4}-\\d{2}-\\d{2}",
    "[A-Z]{3}",
    "(?:ab|cd)*e?",
    "a|ab|abc",
    "(a|b)*abb",
    "((a|b)c)+d?",
    "x{0,3}y{2,}",
    "\\w+@\\w+\\.com",
    "[\\w.-]+",
    "\\D\\W",
    "[^\\d_]+",
    "colou?r",
    "(?:\xc3\xa9|\xc3\xbc|\xc3\x9f)+",      /* (?:é|ü|ß)+ */
    "[\xe2\x82\xac$\xc2\xa3]\\d+(?:\\.\\d{2})?",  /* [€$£]\d+(\.\d{2})? */
    "\\u00e9\\x41\\u{1F600}",
    "[\\u0100-\\u017F]{1,3}",
    "[^\\u0000-\\u007F]+",
    "[\xf0\x9f\x98\x80-\xf0\x9f\x99\x8f]*x", /* [😀-🙏]*x */
    "(?:[a-c]|[x-z])*?q",
    "a{3}",
    "(?:)",
    "a|",
    "(|b)c",
    "[-a][a-]",
    "\\t\\n\\r\\f\\v",
    "\\(\\)\\[\\]\\{\\}\\*\\+\\?\\.\\|\\\\\\/\\-",
    "[\\]\\[\\-\\\\]+",
    "-?(?:0|[1-9][0-9]*)\\.[0-9]{2}",
    "[^abc]*c",
    "((ab)*c|d+)e{1,2}",
    "[A-Za-z_][A-Za-z0-9_]*",
    "\\cJ[\\b]\\cj",
    "[^\\W\\d]+",
    "(a*)*b",
    "[\\x01-\\x1F]x",
    "(?:a|b|c|d|e|f){2,5}?",
    "[^\\u0800-\\uFFFF]{1,2}",
    "\\uD83D\\uDE00|[\\u{10000}-\\u{10FFFF}]z",
    "(?:a{2,3}|b{0,2}c){2}",
    "[\\D]{2}",
    "\\d{2,}|[a-f]{1,2}",
    "a.b",                                  /* any code point but LF CR LS PS */
    ".+",
    "\\s+x\\S*",
    "[^\\s]+",
    "[\\sa]\\S",
    "(?:\\D|\\W|\\s).",
};

/* ECMA-262's \s as the inside of a PCRE2 class (docs/contract-language.md
 * §6.2): TAB..CR, SP, NBSP, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000, U+FEFF; written out so PCRE2's own \s plays no part. */
#define ECMA_SPACE "\\t-\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF"

/* The oracle's syntax: ECMA \v is PCRE2 \x0B, a UTF-16 pair is written
 * as one code point (PCRE2 in UTF mode refuses surrogate escapes), and \s,
 * \S and '.' become explicit classes with ECMA-262's sets.  In a class \s
 * joins the class; \S inside a class has no such spelling, so the oracle
 * patterns do not hold it (it is tested with listed values instead). */
static void to_pcre2(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    bool in_class = false;
    while (*in && o + 80 < cap) {
        if (in[0] == '\\' && in[1] == 'v') {
            memcpy(out + o, "\\x0B", 4);
            o += 4;
            in += 2;
        } else if (strncmp(in, "\\uD83D\\uDE00", 12) == 0) {
            memcpy(out + o, "\\u{1F600}", 9);
            o += 9;
            in += 12;
        } else if (in[0] == '\\' && (in[1] == 's' || in[1] == 'S')) {
            const char *cls = in_class ? ECMA_SPACE : in[1] == 's' ? "[" ECMA_SPACE "]"
                : "[^" ECMA_SPACE "]";
            ck_assert_msg(!(in_class && in[1] == 'S'), "oracle cannot write \\S in a class");
            memcpy(out + o, cls, strlen(cls));
            o += strlen(cls);
            in += 2;
        } else if (in[0] == '\\' && in[1] != '\0') {
            out[o++] = *in++;
            out[o++] = *in++;
        } else if (in[0] == '.' && !in_class) {
            static const char dot[] = "[^\\n\\r\\u2028\\u2029]";
            memcpy(out + o, dot, sizeof dot - 1);
            o += sizeof dot - 1;
            in++;
        } else {
            if (in[0] == '[' && !in_class) {
                in_class = true;
                out[o++] = *in++;
                if (*in == '^')
                    out[o++] = *in++;
                if (*in == ']')
                    out[o++] = *in++;
                continue;
            }
            if (in[0] == ']' && in_class)
                in_class = false;
            out[o++] = *in++;
        }
    }
    out[o] = '\0';
}

typedef struct rng {
    uint64_t s;
} rng_t;

static uint32_t rnd(rng_t *r, uint32_t n)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return n ? (uint32_t)((r->s >> 11) % n) : 0;
}

static const uint32_t base_alphabet[] = {
    'a', 'b', 'c', 'd', 'e', 'f', 'q', 'x', 'y', 'z', 'A', 'Z', 'M', '0', '1', '5', '9',
    '-', '_', '.', '@', ' ', '(', ')', '[', ']', '\\', '/', '*', '$', 0x01, 0x08, '\t',
    '\n', 0x0B, 0x0C, '\r', 0x1F, 0x7F, 0x80, 0xA3, 0xBF, 0xDF, 0xE0, 0xE9, 0xFC, 0xFF,
    0x100, 0x17F, 0x180, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
    0x1F600, 0x1F64F, 0x1F650, 0x10FFFF,
    0x85, 0xA0, 0x1680, 0x2000, 0x200A, 0x200B, 0x2028, 0x2029, 0x202F, 0x3000, 0xFEFF,
};

typedef struct alphabet {
    uint32_t cp[256];
    size_t n;
} alphabet_t;

static void alphabet_add(alphabet_t *a, uint32_t cp)
{
    size_t i;
    for (i = 0; i < a->n; i++)
        if (a->cp[i] == cp)
            return;
    if (a->n < sizeof a->cp / sizeof a->cp[0])
        a->cp[a->n++] = cp;
}

static void alphabet_for(alphabet_t *a, const char *pattern)
{
    size_t i, n;
    a->n = 0;
    for (i = 0; i < sizeof base_alphabet / sizeof base_alphabet[0]; i++)
        alphabet_add(a, base_alphabet[i]);
    for (i = 0; pattern[i]; i += n)
        alphabet_add(a, get_utf8(pattern + i, &n));
}

/* A string generator that reads the pattern itself (independently of the
 * compiler's parser), so that many generated strings match. */
typedef struct gen {
    const char *pat;
    rng_t *rng;
    const alphabet_t *alpha;
    char buf[1024];
    size_t len;
} gen_t;

static void emit(gen_t *g, uint32_t cp)
{
    if (g->len + 4 < sizeof g->buf)
        g->len += put_utf8(g->buf + g->len, cp);
}

/* A class item: a range, or one of \d \D \w \W \s \S (kind 'd' ...), or
 * '.' outside a class (kind '.'). */
typedef struct item {
    char kind;      /* 'r' range */
    uint32_t lo, hi;
} item_t;

static bool item_has(const item_t *it, uint32_t cp)
{
    bool digit = cp >= '0' && cp <= '9';
    bool word = digit || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || cp == '_';
    bool line_end = cp == 0x0A || cp == 0x0D || cp == 0x2028 || cp == 0x2029;
    bool space = (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0xA0 || cp == 0x1680
        || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F
        || cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
    switch (it->kind) {
    case 's': return space;
    case 'S': return !space;
    case '.': return !line_end;
    case 'd': return digit;
    case 'D': return !digit;
    case 'w': return word;
    case 'W': return !word;
    default: return cp >= it->lo && cp <= it->hi;
    }
}

static long hexn(const char *s, size_t n, size_t *used)
{
    long v = 0;
    size_t i;
    if (s[0] == '{') {
        for (i = 1; s[i] != '}'; i++)
            v = v * 16 + (long)(strchr("0123456789abcdef", s[i] | 0x20) - "0123456789abcdef");
        *used = i + 1;
        return v;
    }
    for (i = 0; i < n; i++)
        v = v * 16 + (long)(strchr("0123456789abcdef", s[i] | 0x20) - "0123456789abcdef");
    *used = n;
    return v;
}

/* Reads one escape after '\' at pos; fills an item; returns the new pos. */
static size_t read_escape(const char *p, size_t pos, item_t *it)
{
    char c = p[pos];
    size_t used;
    it->kind = 'r';
    switch (c) {
    case 'd': case 'D': case 'w': case 'W': case 's': case 'S':
        it->kind = c;
        return pos + 1;
    case 't': it->lo = 9; break;
    case 'n': it->lo = 10; break;
    case 'v': it->lo = 11; break;
    case 'f': it->lo = 12; break;
    case 'r': it->lo = 13; break;
    case 'b': it->lo = 8; break;
    case '0': it->lo = 0; break;
    case 'c':
        it->lo = it->hi = (uint32_t)(p[pos + 1] % 32);
        return pos + 2;
    case 'x':
        it->lo = it->hi = (uint32_t)hexn(p + pos + 1, 2, &used);
        return pos + 1 + used;
    case 'u': {
        long v = hexn(p + pos + 1, 4, &used);
        pos += 1 + used;
        if (v >= 0xD800 && v <= 0xDBFF && p[pos] == '\\' && p[pos + 1] == 'u') {
            long lo = hexn(p + pos + 2, 4, &used);
            v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            pos += 2 + used;
        }
        it->lo = it->hi = (uint32_t)v;
        return pos;
    }
    default:
        it->lo = (uint32_t)(unsigned char)c;
        break;
    }
    it->hi = it->lo;
    return pos + 1;
}

/* Picks a code point satisfying the items (negated or not). */
static bool pick_member(gen_t *g, const item_t *items, size_t n, bool negate, uint32_t *out)
{
    uint32_t cand[512];
    size_t nc = 0, i, j;
    for (i = 0; i < g->alpha->n; i++)
        cand[nc++] = g->alpha->cp[i];
    for (i = 0; i < n && nc + 3 < sizeof cand / sizeof cand[0]; i++) {
        if (items[i].kind == 'r') {
            cand[nc++] = items[i].lo;
            cand[nc++] = items[i].hi;
            cand[nc++] = items[i].lo + rnd(g->rng, items[i].hi - items[i].lo + 1);
        }
    }
    for (j = 0; j < 8; j++) {
        /* random start, then a linear scan for a member */
        size_t start = rnd(g->rng, (uint32_t)nc);
        for (i = 0; i < nc; i++) {
            uint32_t cp = cand[(start + i) % nc];
            bool in = false;
            size_t k;
            if (cp >= 0xD800 && cp <= 0xDFFF)
                continue;
            for (k = 0; k < n && !in; k++)
                in = item_has(&items[k], cp);
            if (in != negate) {
                *out = cp;
                return true;
            }
        }
    }
    return false;
}

static size_t gen_disj(gen_t *g, size_t pos, bool on);

/* One atom; with `on`, emits a random instance.  Returns the position after. */
static size_t gen_atom(gen_t *g, size_t pos, bool on)
{
    const char *p = g->pat;
    item_t items[64];
    size_t n = 0, used;
    bool negate = false;
    uint32_t cp;
    if (p[pos] == '(') {
        pos++;
        if (p[pos] == '?' && p[pos + 1] == ':')
            pos += 2;
        pos = gen_disj(g, pos, on);
        return pos + 1;     /* ')' */
    }
    if (p[pos] == '\\') {
        pos = read_escape(p, pos + 1, &items[0]);
        if (on && pick_member(g, items, 1, false, &cp))
            emit(g, cp);
        return pos;
    }
    if (p[pos] == '.') {
        items[0].kind = '.';
        if (on && pick_member(g, items, 1, false, &cp))
            emit(g, cp);
        return pos + 1;
    }
    if (p[pos] != '[') {
        cp = get_utf8(p + pos, &used);
        if (on)
            emit(g, cp);
        return pos + used;
    }
    pos++;
    if (p[pos] == '^') {
        negate = true;
        pos++;
    }
    while (p[pos] != ']' && n < 64) {
        item_t a;
        if (p[pos] == '\\') {
            pos = read_escape(p, pos + 1, &a);
        } else {
            a.kind = 'r';
            a.lo = a.hi = get_utf8(p + pos, &used);
            pos += used;
        }
        if (p[pos] == '-' && p[pos + 1] != ']') {
            item_t b;
            pos++;
            if (p[pos] == '\\') {
                pos = read_escape(p, pos + 1, &b);
            } else {
                b.kind = 'r';
                b.lo = b.hi = get_utf8(p + pos, &used);
                pos += used;
            }
            a.hi = b.lo;
        }
        items[n++] = a;
    }
    if (on && pick_member(g, items, n, negate, &cp))
        emit(g, cp);
    return pos + 1;
}

static size_t gen_term(gen_t *g, size_t pos, bool on)
{
    const char *p = g->pat;
    size_t after = gen_atom(g, pos, false), q = after;
    unsigned long min = 1, max = 1, count, i;
    if (p[q] == '*' || p[q] == '+' || p[q] == '?') {
        min = p[q] == '+' ? 1 : 0;
        max = p[q] == '?' ? 1 : min + 4;
        q++;
    } else if (p[q] == '{') {
        char *end;
        min = strtoul(p + q + 1, &end, 10);
        max = min;
        if (*end == ',') {
            max = end[1] == '}' ? min + 4 : strtoul(end + 1, &end, 10);
            if (*end != '}')
                end = strchr(end, '}');
        }
        q = (size_t)(strchr(end, '}') - p) + 1;
    }
    if (p[q] == '?' && q != after)
        q++;
    if (on) {
        count = min + rnd(g->rng, (uint32_t)(max - min + 1));
        for (i = 0; i < count; i++)
            (void)gen_atom(g, pos, true);
    }
    return q;
}

static size_t gen_alt(gen_t *g, size_t pos, bool on)
{
    while (g->pat[pos] != '\0' && g->pat[pos] != '|' && g->pat[pos] != ')')
        pos = gen_term(g, pos, on);
    return pos;
}

static size_t gen_disj(gen_t *g, size_t pos, bool on)
{
    size_t q = pos;
    uint32_t branches = 1, pick, i = 0;
    for (;;) {
        q = gen_alt(g, q, false);
        if (g->pat[q] != '|')
            break;
        branches++;
        q++;
    }
    pick = rnd(g->rng, branches);
    q = pos;
    for (;;) {
        q = gen_alt(g, q, on && i == pick);
        if (g->pat[q] != '|')
            return q;
        i++;
        q++;
    }
}

/* Random edits, so that near misses are tested too. */
static void mutate(gen_t *g)
{
    size_t n, i, cut[300], ncut = 0;
    char tmp[1024];
    uint32_t cp;
    for (i = 0; i < g->len; i += n) {
        (void)get_utf8(g->buf + i, &n);
        if (ncut < 299)
            cut[ncut++] = i;
    }
    cut[ncut] = g->len;
    i = rnd(g->rng, (uint32_t)ncut + 1);        /* a code point boundary */
    cp = g->alpha->cp[rnd(g->rng, (uint32_t)g->alpha->n)];
    switch (rnd(g->rng, 3)) {
    case 0:                                     /* delete one code point */
        if (i < ncut) {
            size_t a = cut[i], b = cut[i + 1];
            memmove(g->buf + a, g->buf + b, g->len - b);
            g->len -= b - a;
        }
        break;
    case 1:                                     /* insert one */
        if (g->len + 8 < sizeof g->buf) {
            size_t k = put_utf8(tmp, cp), a = cut[i];
            memmove(g->buf + a + k, g->buf + a, g->len - a);
            memcpy(g->buf + a, tmp, k);
            g->len += k;
        }
        break;
    default:                                    /* double the string */
        if (2 * g->len < sizeof g->buf) {
            memcpy(g->buf + g->len, g->buf, g->len);
            g->len *= 2;
        }
        break;
    }
}

#define ORACLE_RANDOM 2000
#define ORACLE_BUILT 2000

START_TEST(each_oracle_pattern_agrees_with_pcre2_on_thousands_of_strings)
{
    const char *pattern = oracle_patterns[_i];
    char translated[512];
    int errcode;
    PCRE2_SIZE erroffset;
    pcre2_compile_context *cctx = pcre2_compile_context_create(NULL);
    pcre2_code *re;
    pcre2_match_data *md;
    cc_dfa_t *d = compile_ok(pattern);
    contractc_dfa_t view = view_of(d, pattern), padded = view;
    alphabet_t alpha;
    gen_t g;
    rng_t r;
    long tested = 0, matched = 0, t;

    ck_assert_ptr_nonnull(cctx);
    pcre2_set_compile_extra_options(cctx, PCRE2_EXTRA_ALT_BSUX);
    to_pcre2(pattern, translated, sizeof translated);
    re = pcre2_compile((PCRE2_SPTR)translated, PCRE2_ZERO_TERMINATED,
                       PCRE2_UTF | PCRE2_ALT_BSUX | PCRE2_ANCHORED | PCRE2_ENDANCHORED,
                       &errcode, &erroffset, cctx);
    ck_assert_msg(re != NULL, "PCRE2 refused '%s' (error %d at %zu)", translated, errcode,
                  (size_t)erroffset);
    md = pcre2_match_data_create_from_pattern(re, NULL);
    ck_assert_ptr_nonnull(md);
    /* The runtime also runs the table as tables.c makes it, its class
     * count padded to a power of two (the shift loop), where the view of
     * the minimal table takes the multiply loop unless its count is one. */
    padded.class_count = cc_dfa_table_classes(d);
    uint16_t *padded_next = malloc((size_t)d->state_count * padded.class_count * sizeof *padded_next);
    ck_assert_ptr_nonnull(padded_next);
    cc_dfa_table_next(d, padded.class_count, padded_next);
    padded.next = padded_next;

    r.s = 0x9E3779B97F4A7C15ull ^ ((uint64_t)(_i + 1) * 0x100000001B3ull);
    alphabet_for(&alpha, pattern);
    g.pat = pattern;
    g.rng = &r;
    g.alpha = &alpha;
    for (t = 0; t < ORACLE_RANDOM + ORACLE_BUILT; t++) {
        bool want, got_gen, got_rt, got_pad;
        int rc;
        g.len = 0;
        if (t < ORACLE_RANDOM) {
            uint32_t n = rnd(&r, 10), k;
            for (k = 0; k < n; k++)
                emit(&g, alpha.cp[rnd(&r, (uint32_t)alpha.n)]);
        } else {
            (void)gen_disj(&g, 0, true);
            if (rnd(&r, 5) == 0)
                mutate(&g);
        }
        g.buf[g.len] = '\0';
        rc = pcre2_match(re, (PCRE2_SPTR)g.buf, g.len, 0, 0, md, NULL);
        ck_assert_msg(rc >= 0 || rc == PCRE2_ERROR_NOMATCH, "PCRE2 error %d", rc);
        want = rc >= 0;
        got_gen = cc_dfa_matches(d, g.buf, g.len);
        got_rt = contractc_dfa_match(&view, g.buf, g.len);
        got_pad = contractc_dfa_match(&padded, g.buf, g.len);
        ck_assert_msg(got_gen == want && got_rt == want && got_pad == want,
                      "pattern '%s' string \"%s\" (%zu bytes): PCRE2 %d, cc_dfa_matches %d,"
                      " contractc_dfa_match %d, padded to %u classes %d", pattern, g.buf, g.len,
                      want, got_gen, got_rt, (unsigned)padded.class_count, got_pad);
        tested++;
        matched += want;
    }
    printf("oracle %-44s %5ld strings %5ld matched, %4u states, %3u classes\n", pattern,
           tested, matched, (unsigned)d->state_count, (unsigned)d->class_count);
    /* The generator must make the test meaningful both ways. */
    ck_assert_msg(matched >= 200, "'%s': only %ld matches", pattern, matched);
    ck_assert_msg(tested - matched >= 200, "'%s': only %ld non-matches", pattern,
                  tested - matched);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    pcre2_compile_context_free(cctx);
    free(padded_next);
    cc_dfa_free(d);
}
END_TEST

/* '.', \s and \S on listed strings (docs/contract-language.md §6.2):
 * ECMA-262's sets, multibyte members included. */
typedef struct listed {
    const char *pattern, *value;
    bool match;
} listed_t;

static const listed_t listed[] = {
    {"a.b", "axb", true},
    {"a.b", "a\xc3\xa9" "b", true},                  /* U+00E9, two bytes */
    {"a.b", "a\xf0\x9f\x98\x80" "b", true},          /* U+1F600, one code point */
    {"a.b", "a\xe2\x80\xa8" "b", false},              /* U+2028 LINE SEPARATOR */
    {"a.b", "a\xe2\x80\xa9" "b", false},              /* U+2029 PARAGRAPH SEPARATOR */
    {"a.b", "a\nb", false},
    {"a.b", "a\rb", false},
    {"a.b", "a\tb", true},
    {"a.b", "a\xc2\x85" "b", true},                  /* U+0085 NEL: not an ECMA line end */
    {"a.b", "ab", false},
    {"a.b", "axxb", false},
    {"\\s", " ", true},
    {"\\s", "\t", true},
    {"\\s", "\v", true},
    {"\\s", "\n", true},
    {"\\s", "\xc2\xa0", true},                   /* NBSP */
    {"\\s", "\xef\xbb\xbf", true},               /* U+FEFF */
    {"\\s", "\xe3\x80\x80", true},               /* U+3000 IDEOGRAPHIC SPACE */
    {"\\s", "\xe2\x80\xa8", true},               /* U+2028 */
    {"\\s", "\xe2\x80\x8a", true},               /* U+200A HAIR SPACE */
    {"\\s", "\xe2\x80\x8b", false},              /* U+200B ZERO WIDTH SPACE: not Zs */
    {"\\s", "\xc2\x85", false},                  /* U+0085 NEL: not ECMA white space */
    {"\\s", "x", false},
    {"\\s", "  ", false},
    {"\\S+", "a\xc3\xa9\xf0\x9f\x98\x80", true},
    {"\\S+", "a\xc2\xa0" "b", false},
    {"\\S", "\xc2\x85", true},
    {"[^\\s]+", "abc", true},
    {"[^\\s]+", "a\xe3\x80\x80", false},
    {"[^\\S\\n]+", " \t\xc2\xa0", true},          /* white space but LF */
    {"[^\\S\\n]+", " \n", false},
    {"[^.]", ".", false},                           /* a '.' in a class is itself */
    {"[^.]", "x", true},
    {"[.]", ".", true},
    {"[.]", "x", false},
    {"\\d\\D\\w\\W", "1\xc3\xa9" "a\xe2\x80\xa8", true},
};

START_TEST(dot_and_white_space_escapes_match_ecma_262s_sets)
{
    const listed_t *c = &listed[_i];
    cc_dfa_t *d = compile_ok(c->pattern);
    contractc_dfa_t view = view_of(d, c->pattern);
    size_t n = strlen(c->value);
    ck_assert_msg(cc_dfa_matches(d, c->value, n) == c->match
                  && contractc_dfa_match(&view, c->value, n) == c->match,
                  "pattern '%s' on case %d: want %d", c->pattern, _i, c->match);
    cc_dfa_free(d);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* (c) limits */

START_TEST(an_exploding_pattern_fails_fast_at_the_state_cap)
{
    cc_pattern_error_t err;
    clock_t t0 = clock();
    cc_dfa_t *d = cc_pattern_compile("(a|b)*a(a|b){30}", &err);
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    ck_assert_ptr_null(d);
    ck_assert_msg(strstr(err.message, "the pattern needs more than 8192 DFA states") != NULL,
                  "%s", err.message);
    ck_assert_uint_eq(err.offset, 0);
    ck_assert_msg(secs < 5.0, "took %.2f s", secs);
}
END_TEST

START_TEST(the_cap_applies_to_the_minimal_dfa)
{
    cc_pattern_error_t err;
    /* (a|b)*a(a|b){n} needs 2^(n+1) states, plus the dead state. */
    cc_dfa_t *d = compile_ok("(a|b)*a(a|b){10}");
    ck_assert_uint_eq(d->state_count, 2048 + 1);
    cc_dfa_free(d);
    ck_assert_ptr_null(cc_pattern_compile("(a|b)*a(a|b){11}", &err));
    ck_assert_str_eq(err.message,
                     "the pattern needs more than 4096 DFA states; simplify its repetitions");
    /* A long but simple pattern stays within the cap. */
    d = compile_ok("[0-9a-f]{1000}");
    ck_assert_uint_eq(d->state_count, 1002);
    cc_dfa_free(d);
}
END_TEST

/* A contract's patterns share one budget: each pattern within its own caps
 * still stops once the contract's total is spent.  Small totals here, so
 * the test stays fast under sanitizers; the loader's defaults are tested in
 * test_gen_texts. */
START_TEST(a_contracts_patterns_share_one_budget)
{
    cc_pattern_error_t err;
    cc_pattern_budget_t budget;
    /* (a|b)*a(a|b){10}: 2,049 DFA states each; room for exactly 10 */
    for (unsigned room = 10 * 2049; room >= 10 * 2049 - 1; room--) {
        memset(&budget, 0, sizeof budget);
        budget.max_states = room;
        unsigned compiled = 0;
        for (unsigned i = 0; i < 100; i++) {
            cc_dfa_t *d = cc_pattern_compile_budget("(a|b)*a(a|b){10}", &budget, &err);
            if (!d)
                break;
            ck_assert_uint_eq(d->state_count, 2049);
            cc_dfa_free(d);
            compiled++;
        }
        ck_assert_uint_eq(compiled, room == 10 * 2049 ? 10 : 9);
        ck_assert(budget.spent);
        ck_assert_uint_le(budget.states, room);
        ck_assert_str_eq(err.message,
                         room == 10 * 2049
                             ? "the contract's patterns together pass the limit for one contract "
                               "(20490 DFA states built, 200000000 work units); simplify them or "
                               "use fewer"
                             : "the contract's patterns together pass the limit for one contract "
                               "(20489 DFA states built, 200000000 work units); simplify them or "
                               "use fewer");
    }

    /* once spent, even the smallest pattern is refused at once */
    memset(&err, 0, sizeof err);
    ck_assert_ptr_null(cc_pattern_compile_budget("a", &budget, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "pass the limit for one contract"));

    /* the work total counts too: closures of (a?){100} cost many units per
     * state */
    memset(&budget, 0, sizeof budget);
    budget.max_work = 1000000;
    unsigned compiled = 0;
    while (compiled < 10000) {
        cc_dfa_t *d = cc_pattern_compile_budget("(a?){100}", &budget, &err);
        if (!d)
            break;
        cc_dfa_free(d);
        compiled++;
    }
    ck_assert(budget.spent);
    ck_assert_uint_gt(compiled, 0);
    ck_assert_uint_lt(compiled, 10000);
    ck_assert_uint_lt(budget.states, CC_PATTERN_TOTAL_STATES);
    /* checked after each DFA state: it stops within one state's work */
    ck_assert_uint_gt(budget.work, 1000000);
    ck_assert_uint_lt(budget.work, 1010000);
    ck_assert_ptr_nonnull(strstr(err.message, "(500000 DFA states built, 1000000 work units)"));

    /* NFA states count as work: a pattern whose NFA passes what is left */
    memset(&budget, 0, sizeof budget);
    budget.max_work = 1000;
    ck_assert_ptr_null(cc_pattern_compile_budget("[a-z]{1000}", &budget, &err));
    ck_assert(budget.spent);
    ck_assert_uint_eq(budget.states, 0);

    /* a pattern's own error is its own, and is counted as well */
    memset(&budget, 0, sizeof budget);
    ck_assert_ptr_null(cc_pattern_compile_budget("(a|b)*a(a|b){11}", &budget, &err));
    ck_assert_str_eq(err.message,
                     "the pattern needs more than 4096 DFA states; simplify its repetitions");
    ck_assert(!budget.spent);
    ck_assert_uint_gt(budget.states, 4096);
}
END_TEST

START_TEST(large_counted_non_ascii_classes_compile)
{
    cc_dfa_t *d = compile_ok("[^a]{0,500}");
    char s[600 * 2];
    size_t i;
    for (i = 0; i < 500; i++) {
        s[2 * i] = '\xc3';
        s[2 * i + 1] = '\xa9';
    }
    /* 501 counts, dead, and before each of the 500 possible code points 7
     * states inside one: 1, 2 or 3 continuation bytes to go, and after
     * E0, ED, F0 or F4 (whose second byte is restricted). */
    ck_assert_uint_eq(d->state_count, 501 + 1 + 500 * 7);
    ck_assert(cc_dfa_matches(d, s, 1000));
    ck_assert(!cc_dfa_matches(d, s, 999));       /* cut inside a code point */
    ck_assert(cc_dfa_matches(d, "", 0));
    cc_dfa_free(d);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* (d) determinism, (e) minimisation */

static const char *const determinism_patterns[] = {
    "A-[0-9]+", "[^a-z]{2,4}", "(?:ab|cd)*e?", "[\xc3\xa0-\xc3\xbf]+", "(a|b)*abb",
    "\\w+@\\w+\\.com", "(a|b)*a(a|b){6}",
};

START_TEST(compiling_a_pattern_twice_gives_identical_tables)
{
    cc_dfa_t *a = compile_ok(determinism_patterns[_i]);
    cc_dfa_t *b = compile_ok(determinism_patterns[_i]);
    ck_assert_msg(same_tables(a, b), "'%s'", determinism_patterns[_i]);
    cc_dfa_free(a);
    cc_dfa_free(b);
}
END_TEST

typedef struct equivalent {
    const char *a, *b;
} equivalent_t;

static const equivalent_t equivalents[] = {
    {"a|a", "a"},
    {"(?:a|b)", "[ab]"},
    {"a{2,3}", "aaa?"},
    {"x*?", "x*"},
    {"(a*)*", "a*"},
    {"\\d", "[0-9]"},
    {"[\\w]", "[A-Z_a-z0-9]"},
    {"(?:ab|ac)", "a[bc]"},
    {"a+", "aa*"},
    {"[^\\D]", "\\d"},
    {"\\u00e9", "\xc3\xa9"},
    {"\\uD83D\\uDE00", "\xf0\x9f\x98\x80"},
    {"(|a)", "a?"},
    {"[^\\S]", "\\s"},
    {"\\s", "[\\t-\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF]"},
    {".", "[^\\n\\r\\u2028\\u2029]"},
    {"[^\\s\\S]", "[^\\u0000-\\u{10FFFF}]"},
};

START_TEST(equivalent_patterns_give_identical_minimal_tables)
{
    const equivalent_t *e = &equivalents[_i];
    cc_dfa_t *a = compile_ok(e->a);
    cc_dfa_t *b = compile_ok(e->b);
    ck_assert_msg(same_tables(a, b), "'%s' (%u states) vs '%s' (%u states)", e->a,
                  (unsigned)a->state_count, e->b, (unsigned)b->state_count);
    cc_dfa_free(a);
    cc_dfa_free(b);
}
END_TEST

typedef struct shape {
    const char *pattern;
    uint32_t states, classes;
} shape_t;

static const shape_t shapes[] = {
    {"a", 3, 2},                    /* dead, start, after 'a'; 'a' vs the rest */
    {"A-[0-9]+", 5, 4},
    {"(?:ab|cd)*e?", 5, 6},
    {"[0-9]{4}", 6, 2},
    {"a*", 2, 2},                   /* start is accepting and loops */
    {"[^\\u0000-\\u{10FFFF}]", 1, 1},   /* matches nothing: start = dead */
    {"(?:)", 2, 1},
};

START_TEST(the_dfa_has_the_minimal_number_of_states_and_classes)
{
    const shape_t *s = &shapes[_i];
    cc_dfa_t *d = compile_ok(s->pattern);
    ck_assert_msg(d->state_count == s->states && d->class_count == s->classes,
                  "'%s': %u states, %u classes; expected %u, %u", s->pattern,
                  (unsigned)d->state_count, (unsigned)d->class_count,
                  (unsigned)s->states, (unsigned)s->classes);
    cc_dfa_free(d);
}
END_TEST

/* The runtime's table (tables.c): the class count padded to the next power
 * of two, the padding columns dead, the others as compiled; not padded when
 * the table would pass CC_DFA_PAD_MAX entries. */
START_TEST(the_runtime_table_pads_the_classes_to_a_power_of_two_while_small)
{
    const shape_t *s = &shapes[_i];
    cc_dfa_t *d = compile_ok(s->pattern), big;
    uint32_t classes = cc_dfa_table_classes(d), q, c;
    uint16_t *next = malloc((size_t)d->state_count * classes * sizeof *next);
    ck_assert_ptr_nonnull(next);
    ck_assert_msg((classes & (classes - 1)) == 0 && classes >= d->class_count &&
                      classes < 2 * d->class_count + (d->class_count == 1),
                  "'%s': %u classes padded to %u", s->pattern, (unsigned)d->class_count,
                  (unsigned)classes);
    cc_dfa_table_next(d, classes, next);
    for (q = 0; q < d->state_count; q++)
        for (c = 0; c < classes; c++)
            ck_assert_uint_eq(next[(size_t)q * classes + c],
                              c < d->class_count ? d->next[(size_t)q * d->class_count + c] : 0);
    free(next);
    big = *d;
    big.state_count = CC_DFA_PAD_MAX / 4 + 1;
    big.class_count = 3;
    ck_assert_uint_eq(cc_dfa_table_classes(&big), 3);
    big.state_count = CC_DFA_PAD_MAX / 4;
    ck_assert_uint_eq(cc_dfa_table_classes(&big), 4);
    cc_dfa_free(d);
}
END_TEST

START_TEST(state_zero_is_dead_and_the_start_state_is_one)
{
    cc_dfa_t *d = compile_ok("A-[0-9]+");
    uint32_t c;
    ck_assert_uint_eq(d->start, 1);
    ck_assert_uint_eq(d->accepting[0], 0);
    for (c = 0; c < d->class_count; c++)
        ck_assert_uint_eq(d->next[c], 0);
    /* bytes that never occur in UTF-8 share the dead column */
    ck_assert_uint_eq(d->byte_class[0xFF], d->byte_class[0xC0]);
    cc_dfa_free(d);
}
END_TEST

/* ------------------------------------------------------------------------ */
/* The runtime matcher on its own */

START_TEST(the_runtime_matcher_handles_empty_null_and_invalid_input)
{
    cc_dfa_t *d = compile_ok("a*");
    cc_dfa_t *e = compile_ok("a|");
    contractc_dfa_t v = view_of(d, "a*"), w = view_of(e, "a|"), bad;
    ck_assert(contractc_dfa_match(&v, "", 0));
    ck_assert(contractc_dfa_match(&v, NULL, 0));
    ck_assert(!contractc_dfa_match(&v, NULL, 1));
    ck_assert(!contractc_dfa_match(NULL, "a", 1));
    ck_assert(contractc_dfa_match(&v, "aaaa", 4));
    ck_assert(!contractc_dfa_match(&v, "aaab", 4));
    ck_assert(contractc_dfa_match(&v, "aa\0b", 2));     /* length, not NUL, ends it */
    ck_assert(!contractc_dfa_match(&v, "aa\0", 3));
    ck_assert(contractc_dfa_match(&w, "", 0));
    ck_assert(contractc_dfa_match(&w, "a", 1));
    ck_assert(!contractc_dfa_match(&w, "aa", 2));
    bad = v;
    bad.start = bad.state_count;                         /* a corrupt table */
    ck_assert(!contractc_dfa_match(&bad, "a", 1));
    ck_assert(!cc_dfa_matches(NULL, "a", 1));
    cc_dfa_free(d);
    cc_dfa_free(e);
}
END_TEST

START_TEST(nul_escapes_compile_but_never_match_a_contract_string)
{
    cc_dfa_t *d = compile_ok("a\\0|b\\x00|\\u0000c");
    ck_assert(cc_dfa_matches(d, "a\0", 2));       /* the DFA is exact ... */
    ck_assert(!cc_dfa_matches(d, "a", 1));        /* ... a reply never holds U+0000 */
    cc_dfa_free(d);
}
END_TEST

static Suite *pattern_suite(void)
{
    Suite *s = suite_create("pattern");
    TCase *tc = tcase_create("refusals");
    tcase_add_loop_test(tc, each_unsupported_or_invalid_pattern_is_refused_with_its_offset, 0,
                        (int)(sizeof refusals / sizeof refusals[0]));
    tcase_add_test(tc, groups_nested_too_deep_are_refused_at_the_first_too_deep_paren);
    tcase_add_test(tc, a_null_pattern_is_an_error_not_a_crash);
    suite_add_tcase(s, tc);

    tc = tcase_create("oracle");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, each_oracle_pattern_agrees_with_pcre2_on_thousands_of_strings, 0,
                        (int)(sizeof oracle_patterns / sizeof oracle_patterns[0]));
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, dot_and_white_space_escapes_match_ecma_262s_sets, 0,
                        (int)(sizeof listed / sizeof listed[0]));
    tcase_add_test(tc, an_exploding_pattern_fails_fast_at_the_state_cap);
    tcase_add_test(tc, the_cap_applies_to_the_minimal_dfa);
    tcase_add_test(tc, a_contracts_patterns_share_one_budget);
    tcase_add_test(tc, large_counted_non_ascii_classes_compile);
    suite_add_tcase(s, tc);

    tc = tcase_create("tables");
    tcase_add_loop_test(tc, compiling_a_pattern_twice_gives_identical_tables, 0,
                        (int)(sizeof determinism_patterns / sizeof determinism_patterns[0]));
    tcase_add_loop_test(tc, equivalent_patterns_give_identical_minimal_tables, 0,
                        (int)(sizeof equivalents / sizeof equivalents[0]));
    tcase_add_loop_test(tc, the_dfa_has_the_minimal_number_of_states_and_classes, 0,
                        (int)(sizeof shapes / sizeof shapes[0]));
    tcase_add_loop_test(tc, the_runtime_table_pads_the_classes_to_a_power_of_two_while_small, 0,
                        (int)(sizeof shapes / sizeof shapes[0]));
    tcase_add_test(tc, state_zero_is_dead_and_the_start_state_is_one);
    suite_add_tcase(s, tc);

    tc = tcase_create("runtime");
    tcase_add_test(tc, the_runtime_matcher_handles_empty_null_and_invalid_input);
    tcase_add_test(tc, nul_escapes_compile_but_never_match_a_contract_string);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pattern_suite());
    int failed;
    srunner_run_all(sr, CK_ENV);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
