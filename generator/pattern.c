/* SPDX-License-Identifier: MIT */
/*
 * pattern.c - the contract's regular pattern subset, compiled to a minimal
 * byte DFA whose tables the generator emits and the runtime runs.
 *
 * Pipeline:
 *   parse      pattern text -> syntax tree over Unicode code point sets
 *   nfa        tree -> Thompson NFA over UTF-8 bytes; a code point range is
 *              split into byte-range sequences (the RE2 / Go utf8-ranges
 *              method), so [^a-z] costs about ten short chains, not one
 *              edge per code point
 *   subset     NFA -> DFA over "byte intervals" (the coarsest partition of
 *              0..255 that no NFA edge splits)
 *   minimise   Valmari's partition refinement (Hopcroft's bound,
 *              O(m log n)); states that cannot reach acceptance are folded
 *              into the dead state first
 *   tables     states renumbered breadth-first from the start state (dead
 *              state 0), byte intervals with equal columns merged into byte
 *              classes numbered by their lowest byte
 * Every step is deterministic, so one pattern always gives the same tables
 * (they are emitted into generated code), and equivalent patterns give
 * identical tables.
 *
 * The accepted language (ECMA-262 syntax, matched against the whole string;
 * decisions where ECMA-262 leaves room or where engines disagree):
 *   - literals are code points; the pattern must be valid UTF-8.  Characters
 *     are code points as with ECMA-262's `u` flag (an astral character is one
 *     character, never two surrogates).
 *   - escapes: \t \n \v \f \r (\v is U+000B as in ECMA-262), \cA..\cZ and
 *     \ca..\cz, \xHH, \uHHHH (a \uD800-\uDBFF\uDC00-\uDFFF pair is one code
 *     point; a lone surrogate is refused: valid UTF-8 never holds one),
 *     \u{H...} up to 10FFFF, \0 when no digit follows, and any escaped ASCII
 *     punctuation as itself (\. \- \/ \{ ...).  \0, \x00 and \u0000 are
 *     accepted but never match: a contract string cannot hold U+0000.
 *   - \d = [0-9], \w = [A-Za-z0-9_], \D and \W their complements over all
 *     code points (ASCII semantics, no Unicode case or digit folding).
 *     \s is ECMA-262's white space and line terminators (Unicode, not
 *     PCRE2's ASCII set), \S its complement; '.' is any code point but LF,
 *     CR, U+2028 and U+2029 (no dotAll flag).  All may appear in [^...].
 *   - classes [...] and [^...] with ranges and the escapes above, plus [\b]
 *     (U+0008) as in ECMA-262.  Refused for portability (ECMA-262 and
 *     PCRE/Python read them differently): the empty class [] and [^], an
 *     unescaped '[' inside a class, and \d-style escapes as range ends.
 *   - (...) and (?:...), '|' (an empty alternative matches ""), and the
 *     quantifiers ? * + {m} {m,} {m,n} with m, n <= 1000.  Lazy forms (*?,
 *     {m,n}? ...) are accepted and mean the same as the greedy ones: under a
 *     whole-string match both accept exactly the same strings.
 *   - a literal '{', '}' or ']' must be escaped (ECMA-262's `u` flag rule;
 *     without it engines disagree about "a{,5}").
 * Refused with a message naming the construct and its byte offset:
 * \b \B, backreferences (\1..\9, \k<name>), named groups (?<name>...),
 * lookahead and lookbehind, inline flags, Unicode property escapes \p \P,
 * octal escapes, '^' and '$' anywhere (every pattern is anchored already).
 *
 * Limits (a hostile contract must not exhaust time or memory): groups nest
 * at most 64 deep; repetition counts are at most 1000; the NFA has at most
 * 200,000 states; subset construction stops once it passes
 * 2 * CC_DFA_MAX_STATES states or a fixed work budget; the minimal DFA has at
 * most CC_DFA_MAX_STATES states.  A contract's patterns together build at
 * most CC_PATTERN_TOTAL_STATES DFA states and spend CC_PATTERN_TOTAL_WORK
 * work units (cc_pattern_compile_budget): each pattern's own limits are capped by
 * what is left, so ten thousand patterns each under its own limits still
 * stop within the contract's.
 */
#include "pattern.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUP_DEPTH 64
#define MAX_REPEAT 1000u
#define REPEAT_INF UINT32_MAX
#define MAX_NFA_STATES 200000u
#define MAX_SUBSET_STATES (2u * CC_DFA_MAX_STATES)
/* Work units: NFA states visited by closures plus edges followed.  Far above
 * any sensible pattern (a few million), far below a second of CPU. */
#define WORK_BUDGET 100000000u
/* NFA state numbers stored for all DFA states' sets (32 MiB). */
#define MAX_POOL (8u * 1024 * 1024)
#define MAX_CODE_POINT 0x10FFFFu

/* ------------------------------------------------------------------------ */
/* Errors */

#if defined(__GNUC__)
#define CC_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CC_PRINTF(f, a)
#endif

static void set_error(cc_pattern_error_t *err, size_t offset, const char *fmt, ...)
    CC_PRINTF(3, 4);

static void set_error(cc_pattern_error_t *err, size_t offset, const char *fmt, ...)
{
    va_list ap;
    if (err == NULL)
        return;
    err->offset = offset;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------------------ */
/* Code point sets: sorted, disjoint, non-adjacent [lo, hi] pairs once
 * normalised. */

typedef struct cpset {
    uint32_t *r;        /* r[2i] = lo, r[2i+1] = hi */
    size_t n, cap;      /* pairs */
} cpset_t;

static bool cpset_add(cpset_t *s, uint32_t lo, uint32_t hi)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        uint32_t *r = realloc(s->r, cap * 2 * sizeof *r);
        if (r == NULL)
            return false;
        s->r = r;
        s->cap = cap;
    }
    s->r[2 * s->n] = lo;
    s->r[2 * s->n + 1] = hi;
    s->n++;
    return true;
}

static bool cpset_add_set(cpset_t *s, const cpset_t *t)
{
    size_t i;
    for (i = 0; i < t->n; i++)
        if (!cpset_add(s, t->r[2 * i], t->r[2 * i + 1]))
            return false;
    return true;
}

static int cmp_pair(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1])
        return x[1] < y[1] ? -1 : 1;
    return 0;
}

static void cpset_normalise(cpset_t *s)
{
    size_t i, w = 0;
    if (s->n == 0)
        return;
    qsort(s->r, s->n, 2 * sizeof *s->r, cmp_pair);
    for (i = 1; i < s->n; i++) {
        uint32_t lo = s->r[2 * i], hi = s->r[2 * i + 1];
        if (lo <= s->r[2 * w + 1] + 1) {
            if (hi > s->r[2 * w + 1])
                s->r[2 * w + 1] = hi;
        } else {
            w++;
            s->r[2 * w] = lo;
            s->r[2 * w + 1] = hi;
        }
    }
    s->n = w + 1;
}

/* Replaces a normalised set by its complement over 0..10FFFF. */
static bool cpset_negate(cpset_t *s)
{
    cpset_t out = {NULL, 0, 0};
    uint32_t next = 0;
    size_t i;
    bool ok = true;
    for (i = 0; i < s->n && ok; i++) {
        if (s->r[2 * i] > next)
            ok = cpset_add(&out, next, s->r[2 * i] - 1);
        next = s->r[2 * i + 1] + 1;
    }
    if (ok && next <= MAX_CODE_POINT)
        ok = cpset_add(&out, next, MAX_CODE_POINT);
    if (!ok) {
        free(out.r);
        return false;
    }
    free(s->r);
    *s = out;
    return true;
}

/* ECMA-262's WhiteSpace and LineTerminator code points, the set \s
 * matches (docs/contract-language.md §6.2, "Patterns"): TAB, LF, VT, FF,
 * CR, SP, NBSP, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
 * U+3000 and U+FEFF.  Ranges in ascending order. */
static const uint32_t ecma_space[][2] = {
    {0x09, 0x0D}, {0x20, 0x20}, {0xA0, 0xA0}, {0x1680, 0x1680},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
    {0x3000, 0x3000}, {0xFEFF, 0xFEFF},
};

/* \d, \w, \s and their complements, and '.' (any code point but LF, CR,
 * U+2028, U+2029), added to `s` (docs/contract-language.md §6.2,
 * "Patterns"): \d and \w are ASCII only, \s is ECMA-262's Unicode set. */
static bool cpset_add_escape_class(cpset_t *s, char c)
{
    cpset_t t = {NULL, 0, 0};
    bool ok = true;
    size_t i;
    if (c == 'd' || c == 'D') {
        ok = cpset_add(&t, '0', '9');
    } else if (c == 's' || c == 'S') {
        for (i = 0; ok && i < sizeof ecma_space / sizeof ecma_space[0]; i++)
            ok = cpset_add(&t, ecma_space[i][0], ecma_space[i][1]);
    } else if (c == '.') {
        ok = cpset_add(&t, 0x0A, 0x0A) && cpset_add(&t, 0x0D, 0x0D)
            && cpset_add(&t, 0x2028, 0x2029);
    } else {
        ok = cpset_add(&t, '0', '9') && cpset_add(&t, 'A', 'Z')
            && cpset_add(&t, '_', '_') && cpset_add(&t, 'a', 'z');
    }
    if (ok && (c == 'D' || c == 'W' || c == 'S' || c == '.')) {
        cpset_normalise(&t);
        ok = cpset_negate(&t);
    }
    ok = ok && cpset_add_set(s, &t);
    free(t.r);
    return ok;
}

/* ------------------------------------------------------------------------ */
/* Syntax tree */

typedef enum node_kind { N_EMPTY, N_SET, N_CAT, N_ALT, N_REP } node_kind_t;

typedef struct node node_t;
struct node {
    node_kind_t kind;
    size_t offset;          /* where the construct starts in the pattern */
    cpset_t set;            /* N_SET, normalised */
    node_t **kids;          /* N_CAT, N_ALT */
    size_t nkids, capkids;
    node_t *kid;            /* N_REP */
    uint32_t min, max;      /* N_REP; max may be REPEAT_INF */
    node_t *all_next;       /* every node, for freeing */
};

typedef struct parser {
    const char *src;
    size_t len, pos;
    cc_pattern_error_t *err;
    bool failed;
    int depth;
    node_t *all;            /* every node allocated */
} parser_t;

static void perr(parser_t *p, size_t offset, const char *fmt, ...) CC_PRINTF(3, 4);

/* Records the first error only: later ones are consequences. */
static void perr(parser_t *p, size_t offset, const char *fmt, ...)
{
    va_list ap;
    if (p->failed)
        return;
    p->failed = true;
    if (p->err == NULL)
        return;
    p->err->offset = offset;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
}

static void oom(parser_t *p)
{
    perr(p, p->pos, "out of memory");
}

static node_t *new_node(parser_t *p, node_kind_t kind, size_t offset)
{
    node_t *n = calloc(1, sizeof *n);
    if (n == NULL) {
        oom(p);
        return NULL;
    }
    n->kind = kind;
    n->offset = offset;
    n->all_next = p->all;
    p->all = n;
    return n;
}

static bool add_kid(parser_t *p, node_t *n, node_t *kid)
{
    if (n->nkids == n->capkids) {
        size_t cap = n->capkids ? n->capkids * 2 : 4;
        node_t **k = realloc(n->kids, cap * sizeof *k);
        if (k == NULL) {
            oom(p);
            return false;
        }
        n->kids = k;
        n->capkids = cap;
    }
    n->kids[n->nkids++] = kid;
    return true;
}

static void free_nodes(node_t *all)
{
    while (all != NULL) {
        node_t *next = all->all_next;
        free(all->set.r);
        free(all->kids);
        free(all);
        all = next;
    }
}

/* Length of the valid UTF-8 sequence at s (RFC 3629 §4), 0 if invalid. */
static size_t utf8_valid_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        return avail >= 2 && (s[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned char lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return avail >= 3 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned char lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return avail >= 4 && s[1] >= lo && s[1] <= hi && (s[2] & 0xC0) == 0x80
            && (s[3] & 0xC0) == 0x80 ? 4 : 0;
    }
    return 0;
}

/* Decodes the (already validated) code point at p->pos and advances. */
static uint32_t next_cp(parser_t *p)
{
    const unsigned char *s = (const unsigned char *)p->src + p->pos;
    size_t n = utf8_valid_len(s, p->len - p->pos);
    uint32_t cp;
    if (n == 1)
        cp = s[0];
    else if (n == 2)
        cp = ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3Fu);
    else if (n == 3)
        cp = ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3Fu);
    else
        cp = ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12)
            | ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3Fu);
    p->pos += n;
    return cp;
}

static int peek(const parser_t *p, size_t ahead)
{
    return p->pos + ahead < p->len ? (unsigned char)p->src[p->pos + ahead] : -1;
}

static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads exactly `count` hex digits at p->pos; -1 (nothing consumed) if not. */
static long read_hex(parser_t *p, int count)
{
    long v = 0;
    int i;
    for (i = 0; i < count; i++) {
        int h = hex_value(peek(p, (size_t)i));
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    p->pos += (size_t)count;
    return v;
}

/* The escapes that denote a single code point, shared by atoms and classes;
 * p->pos is just after the backslash, `start` at it.  Class-only and
 * atom-only escapes (\b, \d, \1, ...) are handled by the callers. */
static bool parse_char_escape(parser_t *p, size_t start, uint32_t *cp)
{
    int c = peek(p, 0);
    long v;
    if (c < 0) {
        perr(p, start, "'\\' at the end of the pattern escapes nothing");
        return false;
    }
    switch (c) {
    case 't': p->pos++; *cp = 0x09; return true;
    case 'n': p->pos++; *cp = 0x0A; return true;
    case 'v': p->pos++; *cp = 0x0B; return true;
    case 'f': p->pos++; *cp = 0x0C; return true;
    case 'r': p->pos++; *cp = 0x0D; return true;
    case 'c': {
        int l = peek(p, 1);
        if (!((l >= 'A' && l <= 'Z') || (l >= 'a' && l <= 'z'))) {
            perr(p, start, "'\\c' must be followed by a letter A-Z or a-z");
            return false;
        }
        p->pos += 2;
        *cp = (uint32_t)(l % 32);
        return true;
    }
    case '0':
        if (peek(p, 1) >= '0' && peek(p, 1) <= '9') {
            perr(p, start, "octal escape '\\0%c' is not supported; use \\xHH", peek(p, 1));
            return false;
        }
        p->pos++;
        *cp = 0;
        return true;
    case 'x':
        p->pos++;
        v = read_hex(p, 2);
        if (v < 0) {
            perr(p, start, "'\\x' must be followed by exactly two hex digits");
            return false;
        }
        *cp = (uint32_t)v;
        return true;
    case 'u':
        p->pos++;
        if (peek(p, 0) == '{') {
            size_t digits = 0;
            v = 0;
            p->pos++;
            while (hex_value(peek(p, 0)) >= 0) {
                v = v * 16 + hex_value(peek(p, 0));
                if (v > (long)MAX_CODE_POINT) {
                    perr(p, start, "code point in '\\u{...}' is above 10FFFF");
                    return false;
                }
                p->pos++;
                digits++;
            }
            if (digits == 0 || peek(p, 0) != '}') {
                perr(p, start, "'\\u{' must be followed by hex digits and '}'");
                return false;
            }
            p->pos++;
        } else {
            v = read_hex(p, 4);
            if (v < 0) {
                perr(p, start, "'\\u' must be followed by four hex digits or {hex digits}");
                return false;
            }
            /* A UTF-16 pair written as two escapes is one code point. */
            if (v >= 0xD800 && v <= 0xDBFF && peek(p, 0) == '\\' && peek(p, 1) == 'u') {
                size_t save = p->pos;
                long lo;
                p->pos += 2;
                lo = read_hex(p, 4);
                if (lo >= 0xDC00 && lo <= 0xDFFF)
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                else
                    p->pos = save;
            }
        }
        if (v >= 0xD800 && v <= 0xDFFF) {
            perr(p, start, "lone surrogate '\\u%04lX' can never match valid UTF-8", (unsigned long)v);
            return false;
        }
        *cp = (uint32_t)v;
        return true;
    default:
        break;
    }
    if (c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')
                      || (c >= 'a' && c <= 'z') || c == '_')) {
        p->pos++;
        *cp = (uint32_t)c;      /* identity escape of ASCII punctuation */
        return true;
    }
    if (c >= 0x80) {
        perr(p, start, "unknown escape: only ASCII punctuation can be escaped");
        return false;
    }
    perr(p, start, "unknown escape '\\%c'", c);
    return false;
}

/* Escapes refused in both atoms and classes; true if one was reported. */
static bool refuse_escape(parser_t *p, size_t start, int c, bool in_class)
{
    switch (c) {
    case 'B':
        perr(p, start, "'\\B' (not a word boundary) is not supported");
        return true;
    case 'b':
        if (in_class)
            return false;
        perr(p, start, "'\\b' (word boundary) is not supported");
        return true;
    case 'k':
        perr(p, start, "named backreference '\\k' is not supported");
        return true;
    case 'p':
    case 'P':
        perr(p, start, "Unicode property escape '\\%c' is not supported; write the class out", c);
        return true;
    default:
        break;
    }
    if (c >= '1' && c <= '9') {
        perr(p, start, "backreference '\\%c' is not supported", c);
        return true;
    }
    return false;
}

/* One class member: a code point (*is_set false) or \d \D \w \W added to
 * `set` (*is_set true). */
static bool parse_class_atom(parser_t *p, cpset_t *set, bool *is_set, uint32_t *cp)
{
    size_t start = p->pos;
    int c = peek(p, 0);
    *is_set = false;
    if (c == '[') {
        perr(p, start, "write a literal '[' inside a class as \\[");
        return false;
    }
    if (c != '\\') {
        *cp = next_cp(p);
        return true;
    }
    p->pos++;
    c = peek(p, 0);
    if (refuse_escape(p, start, c, true))
        return false;
    if (c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 's' || c == 'S') {
        p->pos++;
        *is_set = true;
        if (!cpset_add_escape_class(set, (char)c)) {
            oom(p);
            return false;
        }
        return true;
    }
    if (c == 'b') {
        p->pos++;
        *cp = 0x08;             /* [\b] is backspace in ECMA-262 */
        return true;
    }
    return parse_char_escape(p, start, cp);
}

static node_t *parse_class(parser_t *p)
{
    size_t start = p->pos;
    node_t *n = new_node(p, N_SET, start);
    bool negate = false;
    if (n == NULL)
        return NULL;
    p->pos++;
    if (peek(p, 0) == '^') {
        negate = true;
        p->pos++;
    }
    if (peek(p, 0) == ']') {
        perr(p, start, negate
             ? "'[^]' is not supported: only ECMA-262 reads it as any character"
             : "the empty class '[]' is not supported: engines disagree about it");
        return NULL;
    }
    for (;;) {
        size_t atom_start = p->pos;
        uint32_t lo, hi;
        bool lo_set, hi_set;
        if (peek(p, 0) < 0) {
            perr(p, start, "missing ']' for the class opened here");
            return NULL;
        }
        if (peek(p, 0) == ']') {
            p->pos++;
            break;
        }
        if (!parse_class_atom(p, &n->set, &lo_set, &lo))
            return NULL;
        if (peek(p, 0) == '-' && peek(p, 1) != ']' && peek(p, 1) >= 0) {
            p->pos++;
            if (!parse_class_atom(p, &n->set, &hi_set, &hi))
                return NULL;
            if (lo_set || hi_set) {
                perr(p, atom_start, "a class escape such as '\\d' cannot be a range end; write '-' as \\-");
                return NULL;
            }
            if (lo > hi) {
                perr(p, atom_start, "range out of order in class: '%.*s'",
                     (int)(p->pos - atom_start), p->src + atom_start);
                return NULL;
            }
            if (!cpset_add(&n->set, lo, hi)) {
                oom(p);
                return NULL;
            }
        } else if (!lo_set && !cpset_add(&n->set, lo, lo)) {
            oom(p);
            return NULL;
        }
    }
    cpset_normalise(&n->set);
    if (negate && !cpset_negate(&n->set)) {
        oom(p);
        return NULL;
    }
    return n;
}

/* Parses the decimal number at p->pos (at least one digit), capped. */
static bool parse_count(parser_t *p, uint32_t *out)
{
    size_t start = p->pos;
    uint32_t v = 0;
    bool over = false;
    while (peek(p, 0) >= '0' && peek(p, 0) <= '9') {
        if (!over) {
            v = v * 10 + (uint32_t)(peek(p, 0) - '0');
            if (v > MAX_REPEAT)
                over = true;
        }
        p->pos++;
    }
    if (over) {
        perr(p, start, "repetition count '%.*s' is over the limit of %u",
             (int)(p->pos - start > 20 ? 20 : p->pos - start), p->src + start, MAX_REPEAT);
        return false;
    }
    *out = v;
    return true;
}

/* At '{': reads {m}, {m,} or {m,n}.  Returns false with an error set when
 * the brace does not start a valid quantifier. */
static bool parse_braces(parser_t *p, uint32_t *min, uint32_t *max)
{
    size_t start = p->pos;
    p->pos++;
    if (!(peek(p, 0) >= '0' && peek(p, 0) <= '9'))
        goto invalid;
    if (!parse_count(p, min))
        return false;
    if (peek(p, 0) == '}') {
        *max = *min;
    } else if (peek(p, 0) == ',') {
        p->pos++;
        if (peek(p, 0) == '}') {
            *max = REPEAT_INF;
        } else if (peek(p, 0) >= '0' && peek(p, 0) <= '9') {
            if (!parse_count(p, max))
                return false;
            if (peek(p, 0) != '}')
                goto invalid;
            if (*max < *min) {
                perr(p, start, "numbers out of order in quantifier '%.*s'",
                     (int)(p->pos + 1 - start), p->src + start);
                return false;
            }
        } else {
            goto invalid;
        }
    } else {
        goto invalid;
    }
    p->pos++;                   /* '}' */
    return true;
invalid:
    perr(p, start, "'{' does not start a quantifier {m}, {m,} or {m,n}; write a literal '{' as \\{");
    return false;
}

static bool is_quantifier_start(int c)
{
    return c == '*' || c == '+' || c == '?' || c == '{';
}

static node_t *parse_disjunction(parser_t *p);

static node_t *parse_group(parser_t *p)
{
    size_t start = p->pos;
    node_t *inner;
    p->pos++;
    if (peek(p, 0) == '?') {
        int c = peek(p, 1);
        if (c == ':') {
            p->pos += 2;
        } else if (c == '=') {
            perr(p, start, "lookahead '(?=' is not supported");
            return NULL;
        } else if (c == '!') {
            perr(p, start, "negative lookahead '(?!' is not supported");
            return NULL;
        } else if (c == '<' && peek(p, 2) == '=') {
            perr(p, start, "lookbehind '(?<=' is not supported");
            return NULL;
        } else if (c == '<' && peek(p, 2) == '!') {
            perr(p, start, "negative lookbehind '(?<!' is not supported");
            return NULL;
        } else if (c == '<') {
            perr(p, start, "named group '(?<' is not supported; use (...) or (?:...)");
            return NULL;
        } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-') {
            perr(p, start, "inline flags '(?%c' are not supported", c);
            return NULL;
        } else {
            perr(p, start, "'(?' must be followed by ':' (only (?:...) groups are supported)");
            return NULL;
        }
    }
    if (++p->depth > MAX_GROUP_DEPTH) {
        perr(p, start, "groups are nested more than %d deep", MAX_GROUP_DEPTH);
        return NULL;
    }
    inner = parse_disjunction(p);
    p->depth--;
    if (inner == NULL)
        return NULL;
    if (peek(p, 0) != ')') {
        perr(p, start, "missing ')' for the group opened here");
        return NULL;
    }
    p->pos++;
    return inner;
}

static node_t *single_cp_node(parser_t *p, size_t start, uint32_t cp)
{
    node_t *n = new_node(p, N_SET, start);
    if (n == NULL)
        return NULL;
    if (!cpset_add(&n->set, cp, cp)) {
        oom(p);
        return NULL;
    }
    return n;
}

static node_t *parse_atom(parser_t *p)
{
    size_t start = p->pos;
    int c = peek(p, 0);
    uint32_t cp;
    switch (c) {
    case '(':
        return parse_group(p);
    case '[':
        return parse_class(p);
    case '.': {
        node_t *n = new_node(p, N_SET, start);
        p->pos++;
        if (n == NULL)
            return NULL;
        if (!cpset_add_escape_class(&n->set, '.')) {
            oom(p);
            return NULL;
        }
        cpset_normalise(&n->set);
        return n;
    }
    case '^':
        perr(p, start, "'^' is not supported: a pattern always matches the whole string");
        return NULL;
    case '$':
        perr(p, start, "'$' is not supported: a pattern always matches the whole string");
        return NULL;
    case ']':
        perr(p, start, "unmatched ']'; write a literal ']' as \\]");
        return NULL;
    case '}':
        perr(p, start, "unmatched '}'; write a literal '}' as \\}");
        return NULL;
    case '*':
    case '+':
    case '?':
        perr(p, start, "nothing to repeat before '%c'", c);
        return NULL;
    case '{': {
        uint32_t mn, mx;
        if (parse_braces(p, &mn, &mx))
            perr(p, start, "nothing to repeat before '{'");
        return NULL;
    }
    case '\\': {
        node_t *n;
        p->pos++;
        c = peek(p, 0);
        if (refuse_escape(p, start, c, false))
            return NULL;
        if (c == 'd' || c == 'D' || c == 'w' || c == 'W' || c == 's' || c == 'S') {
            p->pos++;
            n = new_node(p, N_SET, start);
            if (n == NULL)
                return NULL;
            if (!cpset_add_escape_class(&n->set, (char)c)) {
                oom(p);
                return NULL;
            }
            cpset_normalise(&n->set);
            return n;
        }
        if (!parse_char_escape(p, start, &cp))
            return NULL;
        return single_cp_node(p, start, cp);
    }
    default:
        cp = next_cp(p);
        return single_cp_node(p, start, cp);
    }
}

static node_t *parse_term(parser_t *p)
{
    size_t start = p->pos;
    node_t *atom = parse_atom(p);
    for (;;) {
        uint32_t min, max;
        int c = peek(p, 0);
        size_t qstart = p->pos;
        node_t *rep;
        if (atom == NULL || !is_quantifier_start(c))
            return atom;
        if (c == '{') {
            if (!parse_braces(p, &min, &max))
                return NULL;
        } else {
            p->pos++;
            min = c == '+' ? 1 : 0;
            max = c == '?' ? 1 : REPEAT_INF;
        }
        if (peek(p, 0) == '?')
            p->pos++;           /* lazy: same language under a whole match */
        if (is_quantifier_start(peek(p, 0))) {
            perr(p, p->pos, "nothing to repeat before '%c' (quantifier '%.*s' already applies)",
                 peek(p, 0), (int)(p->pos - qstart), p->src + qstart);
            return NULL;
        }
        rep = new_node(p, N_REP, start);
        if (rep == NULL)
            return NULL;
        rep->kid = atom;
        rep->min = min;
        rep->max = max;
        atom = rep;
    }
}

static node_t *parse_alternative(parser_t *p)
{
    node_t *cat = new_node(p, N_CAT, p->pos);
    if (cat == NULL)
        return NULL;
    while (peek(p, 0) >= 0 && peek(p, 0) != '|' && peek(p, 0) != ')') {
        node_t *t = parse_term(p);
        if (t == NULL || !add_kid(p, cat, t))
            return NULL;
    }
    return cat;
}

static node_t *parse_disjunction(parser_t *p)
{
    node_t *alt = new_node(p, N_ALT, p->pos);
    if (alt == NULL)
        return NULL;
    for (;;) {
        node_t *a = parse_alternative(p);
        if (a == NULL || !add_kid(p, alt, a))
            return NULL;
        if (peek(p, 0) != '|')
            return alt;
        p->pos++;
    }
}

/* ------------------------------------------------------------------------ */
/* Byte NFA (Thompson).  State 0 is a reserved sink meaning "no state":
 * an out of 0 is no edge, and a failed allocation hands out 0 so that the
 * builder can finish its recursion harmlessly before the error is seen. */

enum { S_EPS, S_BYTE, S_MATCH };

typedef struct nstate {
    uint8_t kind, lo, hi;
    uint32_t out, out2;     /* S_EPS: up to two edges; S_BYTE: out */
} nstate_t;

typedef struct nfa {
    nstate_t *s;
    uint32_t n, cap;
    bool too_big, oom;
    uint32_t max_states;    /* MAX_NFA_STATES, or less when the budget has less */
    int rep_depth;          /* repetitions being expanded */
    size_t rep_offset;      /* the outermost one's offset */
    size_t blame;           /* rep_offset when the size limit was hit */
} nfa_t;

typedef struct frag {
    uint32_t start, end;    /* end: an S_EPS state with no edges yet */
} frag_t;

static uint32_t nfa_new(nfa_t *a, uint8_t kind)
{
    if (a->too_big || a->oom)
        return 0;
    if (a->n >= a->max_states) {
        a->too_big = true;
        a->blame = a->rep_offset;
        return 0;
    }
    if (a->n == a->cap) {
        uint32_t cap = a->cap ? a->cap * 2 : 256;
        nstate_t *s = realloc(a->s, cap * sizeof *s);
        if (s == NULL) {
            a->oom = true;
            return 0;
        }
        a->s = s;
        a->cap = cap;
    }
    a->s[a->n].kind = kind;
    a->s[a->n].lo = a->s[a->n].hi = 0;
    a->s[a->n].out = a->s[a->n].out2 = 0;
    return a->n++;
}

static bool nfa_failed(const nfa_t *a)
{
    return a->too_big || a->oom;
}

static void link_to(nfa_t *a, uint32_t from, uint32_t to)
{
    if (from != 0)
        a->s[from].out = to;
}

/* A UTF-8 byte sequence: byte i lies in [lo[i], hi[i]]. */
typedef struct seq {
    uint8_t n, lo[4], hi[4];
} seq_t;

typedef struct seqs {
    seq_t *v;
    size_t n, cap;
    bool oom;
} seqs_t;

static size_t utf8_encode(uint32_t cp, uint8_t *b)
{
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6));
        b[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12));
        b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = (uint8_t)(0xF0 | (cp >> 18));
    b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}

/* Splits [lo, hi] (no surrogates inside) into byte-range sequences such
 * that each sequence is a product of byte ranges: first by encoded length,
 * then at continuation-byte boundaries (Russ Cox, utf8-ranges; RE2). */
static void utf8_split(uint32_t lo, uint32_t hi, seqs_t *out)
{
    static const uint32_t len_max[3] = {0x7F, 0x7FF, 0xFFFF};
    uint8_t a[4], b[4];
    size_t i, n;
    if (lo > hi || out->oom)
        return;
    for (i = 0; i < 3; i++) {
        if (lo <= len_max[i] && hi > len_max[i]) {
            utf8_split(lo, len_max[i], out);
            utf8_split(len_max[i] + 1, hi, out);
            return;
        }
    }
    if (hi >= 0x80) {
        for (i = 1; i < 4; i++) {
            uint32_t m = (1u << (6 * i)) - 1;
            if ((lo & ~m) != (hi & ~m)) {
                if ((lo & m) != 0) {
                    utf8_split(lo, lo | m, out);
                    utf8_split((lo | m) + 1, hi, out);
                    return;
                }
                if ((hi & m) != m) {
                    utf8_split(lo, (hi & ~m) - 1, out);
                    utf8_split(hi & ~m, hi, out);
                    return;
                }
            }
        }
    }
    n = utf8_encode(lo, a);
    (void)utf8_encode(hi, b);
    if (out->n == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 16;
        seq_t *v = realloc(out->v, cap * sizeof *v);
        if (v == NULL) {
            out->oom = true;
            return;
        }
        out->v = v;
        out->cap = cap;
    }
    out->v[out->n].n = (uint8_t)n;
    for (i = 0; i < n; i++) {
        out->v[out->n].lo[i] = a[i];
        out->v[out->n].hi[i] = b[i];
    }
    out->n++;
}

static frag_t compile_node(nfa_t *a, const node_t *n);

static frag_t compile_set(nfa_t *a, const cpset_t *set)
{
    seqs_t q = {NULL, 0, 0, false};
    frag_t f;
    uint32_t split = 0, *cache;
    size_t i, j, cache_cap = 16;
    f.start = nfa_new(a, S_EPS);
    f.end = nfa_new(a, S_EPS);
    for (i = 0; i < set->n; i++) {
        uint32_t lo = set->r[2 * i], hi = set->r[2 * i + 1];
        /* Surrogates never occur in valid UTF-8: leave them out. */
        if (hi < 0xD800 || lo > 0xDFFF) {
            utf8_split(lo, hi, &q);
        } else {
            if (lo < 0xD800)
                utf8_split(lo, 0xD7FF, &q);
            if (hi > 0xDFFF)
                utf8_split(0xE000, hi, &q);
        }
    }
    if (q.oom) {
        a->oom = true;
        free(q.v);
        return f;
    }
    /* Each sequence is built from its last byte backwards, reusing a state
     * already made for the same byte range and successor: [E1-EC][80-BF]
     * [80-BF] and [EE-EF][80-BF][80-BF] then share their tails, so the
     * subsets stay as few as the minimal DFA's states.  The distinct first
     * bytes hang off a chain of splits from the start. */
    /* The cache is an open-addressing hash set of byte states keyed by
     * (lo, hi, out): a class may list many thousands of code points. */
    while (cache_cap < q.n * 8 + 2)
        cache_cap *= 2;
    cache = calloc(cache_cap, sizeof *cache);
    if (cache == NULL) {
        a->oom = true;
        free(q.v);
        return f;
    }
    split = f.start;
    for (i = 0; i < q.n && !nfa_failed(a); i++) {
        uint32_t next = f.end;
        bool fresh = false;
        for (j = q.v[i].n; j-- > 0 && !nfa_failed(a);) {
            uint8_t lo = q.v[i].lo[j], hi = q.v[i].hi[j];
            size_t c = (((size_t)next * 16777619u) ^ ((size_t)lo << 8) ^ hi) & (cache_cap - 1);
            fresh = true;
            while (cache[c] != 0) {
                if (a->s[cache[c]].lo == lo && a->s[cache[c]].hi == hi
                    && a->s[cache[c]].out == next) {
                    fresh = false;
                    break;
                }
                c = (c + 1) & (cache_cap - 1);
            }
            if (fresh) {
                uint32_t b = nfa_new(a, S_BYTE);
                if (b == 0)
                    break;
                a->s[b].lo = lo;
                a->s[b].hi = hi;
                a->s[b].out = next;
                cache[c] = b;
                next = b;
            } else {
                next = cache[c];
            }
        }
        if (nfa_failed(a) || !fresh)
            continue;       /* a first byte already reachable from the start */
        if (a->s[split].out == 0) {
            a->s[split].out = next;
        } else {
            uint32_t s2 = nfa_new(a, S_EPS);
            if (s2 == 0)
                break;
            a->s[s2].out = next;
            a->s[split].out2 = s2;
            split = s2;
        }
    }
    free(cache);
    free(q.v);
    return f;
}

static frag_t compile_cat(nfa_t *a, const frag_t *f, frag_t g)
{
    frag_t r;
    link_to(a, f->end, g.start);
    r.start = f->start;
    r.end = g.end;
    return r;
}

static frag_t compile_rep_body(nfa_t *a, const node_t *n);

static frag_t compile_rep(nfa_t *a, const node_t *n)
{
    frag_t f;
    if (a->rep_depth++ == 0)
        a->rep_offset = n->offset;
    f = compile_rep_body(a, n);
    a->rep_depth--;
    return f;
}

static frag_t compile_rep_body(nfa_t *a, const node_t *n)
{
    frag_t f;
    uint32_t i;
    f.start = f.end = nfa_new(a, S_EPS);
    for (i = 0; i < n->min && !nfa_failed(a); i++)
        f = compile_cat(a, &f, compile_node(a, n->kid));
    if (n->max == REPEAT_INF) {
        frag_t loop, x;
        loop.start = nfa_new(a, S_EPS);
        loop.end = nfa_new(a, S_EPS);
        x = compile_node(a, n->kid);
        if (nfa_failed(a))
            return f;
        a->s[loop.start].out = x.start;
        a->s[loop.start].out2 = loop.end;
        link_to(a, x.end, loop.start);
        f = compile_cat(a, &f, loop);
    } else {
        /* Nested, x(x(x)?)? rather than x?x?x?: after i copies the NFA is
         * in copy i only, which keeps subset construction's sets small. */
        uint32_t end = 0, tail = f.end;
        if (n->max > n->min)
            end = nfa_new(a, S_EPS);
        for (i = n->min; i < n->max && !nfa_failed(a); i++) {
            uint32_t split = nfa_new(a, S_EPS);
            frag_t x = compile_node(a, n->kid);
            if (nfa_failed(a))
                break;
            a->s[split].out = x.start;
            a->s[split].out2 = end;
            link_to(a, tail, split);
            tail = x.end;
        }
        if (end != 0) {
            link_to(a, tail, end);
            f.end = end;
        }
    }
    return f;
}

static frag_t compile_node(nfa_t *a, const node_t *n)
{
    frag_t f;
    size_t i;
    f.start = f.end = 0;
    if (nfa_failed(a))
        return f;
    switch (n->kind) {
    case N_EMPTY:
        f.start = f.end = nfa_new(a, S_EPS);
        return f;
    case N_SET:
        return compile_set(a, &n->set);
    case N_CAT:
        f.start = f.end = nfa_new(a, S_EPS);
        for (i = 0; i < n->nkids && !nfa_failed(a); i++)
            f = compile_cat(a, &f, compile_node(a, n->kids[i]));
        return f;
    case N_ALT: {
        uint32_t split;
        if (n->nkids == 1)
            return compile_node(a, n->kids[0]);
        f.start = split = nfa_new(a, S_EPS);
        f.end = nfa_new(a, S_EPS);
        for (i = 0; i < n->nkids && !nfa_failed(a); i++) {
            frag_t x = compile_node(a, n->kids[i]);
            if (nfa_failed(a))
                break;
            link_to(a, x.end, f.end);
            a->s[split].out = x.start;
            if (i + 1 < n->nkids) {
                uint32_t s2 = nfa_new(a, S_EPS);
                a->s[split].out2 = s2;
                split = s2;
            }
        }
        return f;
    }
    case N_REP:
        return compile_rep(a, n);
    }
    return f;
}

/* ------------------------------------------------------------------------ */
/* Subset construction over byte intervals. */

typedef struct subset {
    const nfa_t *nfa;
    /* byte intervals */
    uint32_t k;
    uint8_t interval[256];
    /* DFA states: set of "important" NFA states (S_BYTE, S_MATCH) */
    uint32_t n, cap;
    size_t *set_off;
    uint32_t *set_len;
    uint32_t *pool;
    size_t pool_n, pool_cap;
    uint32_t *trans;        /* [n * k] */
    uint8_t *acc;
    /* hash of sets -> state + 1 */
    uint32_t *ht;
    size_t ht_cap;
    /* scratch */
    uint32_t *mark, gen;
    uint32_t *stack, *tmp;
    uint32_t *bucket_n, *bucket_off, *targets;
    size_t targets_cap;
    unsigned long work;
    uint32_t max_states;    /* MAX_SUBSET_STATES, or less when the budget has less */
    unsigned long max_work; /* WORK_BUDGET, or less when the budget has less */
    int status;             /* 0 ok, 1 too many states, 2 work budget, 3 oom,
                             * 4 the contract's totals */
} subset_t;

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Epsilon closure of seeds, as a sorted list of important states in
 * s->tmp; returns its length. */
static uint32_t closure(subset_t *s, const uint32_t *seeds, uint32_t nseeds)
{
    const nstate_t *st = s->nfa->s;
    uint32_t sp = 0, count = 0, i;
    s->gen++;
    for (i = 0; i < nseeds; i++) {
        if (seeds[i] != 0 && s->mark[seeds[i]] != s->gen) {
            s->mark[seeds[i]] = s->gen;
            s->stack[sp++] = seeds[i];
        }
    }
    while (sp > 0) {
        uint32_t q = s->stack[--sp];
        s->work++;
        if (st[q].kind != S_EPS) {
            s->tmp[count++] = q;
            continue;
        }
        if (st[q].out != 0 && s->mark[st[q].out] != s->gen) {
            s->mark[st[q].out] = s->gen;
            s->stack[sp++] = st[q].out;
        }
        if (st[q].out2 != 0 && s->mark[st[q].out2] != s->gen) {
            s->mark[st[q].out2] = s->gen;
            s->stack[sp++] = st[q].out2;
        }
    }
    if (count > 1) /* qsort's pointer must not be NULL, even for 0 items */
        qsort(s->tmp, count, sizeof *s->tmp, cmp_u32);
    return count;
}

static uint32_t hash_set(const uint32_t *v, uint32_t n)
{
    uint32_t h = 2166136261u, i;
    for (i = 0; i < n; i++) {
        h ^= v[i];
        h *= 16777619u;
    }
    return h ^ n;
}

static bool ht_grow(subset_t *s)
{
    size_t cap = s->ht_cap ? s->ht_cap * 2 : 1024, i;
    uint32_t *ht = calloc(cap, sizeof *ht);
    if (ht == NULL)
        return false;
    for (i = 0; i < s->n; i++) {
        size_t h = hash_set(s->pool + s->set_off[i], s->set_len[i]) & (cap - 1);
        while (ht[h] != 0)
            h = (h + 1) & (cap - 1);
        ht[h] = (uint32_t)i + 1;
    }
    free(s->ht);
    s->ht = ht;
    s->ht_cap = cap;
    return true;
}

/* The DFA state for the set in s->tmp[0..n), created if new. */
static uint32_t intern(subset_t *s, uint32_t n)
{
    size_t h, i;
    uint32_t d;
    if (s->status != 0)
        return 0;
    if ((s->n + 1) * 2 > s->ht_cap && !ht_grow(s)) {
        s->status = 3;
        return 0;
    }
    h = hash_set(s->tmp, n) & (s->ht_cap - 1);
    while (s->ht[h] != 0) {
        d = s->ht[h] - 1;
        if (s->set_len[d] == n
            && (n == 0 || memcmp(s->pool + s->set_off[d], s->tmp, n * sizeof *s->tmp) == 0))
            return d;
        h = (h + 1) & (s->ht_cap - 1);
    }
    if (s->n >= s->max_states) {
        s->status = s->max_states < MAX_SUBSET_STATES ? 4 : 1;
        return 0;
    }
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 64;
        size_t *off = realloc(s->set_off, cap * sizeof *off);
        uint32_t *len, *tr;
        uint8_t *acc;
        if (off != NULL)
            s->set_off = off;
        len = off ? realloc(s->set_len, cap * sizeof *len) : NULL;
        if (len != NULL)
            s->set_len = len;
        tr = len ? realloc(s->trans, (size_t)cap * s->k * sizeof *tr) : NULL;
        if (tr != NULL)
            s->trans = tr;
        acc = tr ? realloc(s->acc, cap) : NULL;
        if (acc == NULL) {
            s->status = 3;
            return 0;
        }
        s->acc = acc;
        s->cap = cap;
    }
    if (s->pool_n + n > MAX_POOL) {
        s->status = 2;
        return 0;
    }
    if (s->pool_n + n > s->pool_cap) {
        size_t cap = s->pool_cap ? s->pool_cap : 1024;
        uint32_t *pool;
        while (cap < s->pool_n + n)
            cap *= 2;
        pool = realloc(s->pool, cap * sizeof *pool);
        if (pool == NULL) {
            s->status = 3;
            return 0;
        }
        s->pool = pool;
        s->pool_cap = cap;
    }
    d = s->n++;
    if (n > 0)                  /* the dead state's set is empty */
        memcpy(s->pool + s->pool_n, s->tmp, n * sizeof *s->tmp);
    s->set_off[d] = s->pool_n;
    s->set_len[d] = n;
    s->pool_n += n;
    s->acc[d] = 0;
    for (i = 0; i < n; i++)
        if (s->nfa->s[s->tmp[i]].kind == S_MATCH)
            s->acc[d] = 1;
    h = hash_set(s->tmp, n) & (s->ht_cap - 1);
    while (s->ht[h] != 0)
        h = (h + 1) & (s->ht_cap - 1);
    s->ht[h] = d + 1;
    return d;
}

/* Builds the DFA from the NFA's start state; s->status says how it went. */
static void subset_build(subset_t *s, uint32_t start, uint32_t *dfa_start)
{
    const nstate_t *st = s->nfa->s;
    bool cut[257];
    uint32_t i, d, c, nstart;
    memset(cut, 0, sizeof cut);
    cut[0] = true;
    for (i = 1; i < s->nfa->n; i++) {
        if (st[i].kind == S_BYTE) {
            cut[st[i].lo] = true;
            cut[st[i].hi + 1] = true;
        }
    }
    s->k = 0;
    for (i = 0; i < 256; i++) {
        if (cut[i])
            s->k++;
        s->interval[i] = (uint8_t)(s->k - 1);
    }
    s->mark = calloc(s->nfa->n, sizeof *s->mark);
    s->stack = malloc(s->nfa->n * sizeof *s->stack);
    s->tmp = malloc(s->nfa->n * sizeof *s->tmp);
    s->bucket_n = malloc(s->k * sizeof *s->bucket_n);
    s->bucket_off = malloc((s->k + 1) * sizeof *s->bucket_off);
    if (!s->mark || !s->stack || !s->tmp || !s->bucket_n || !s->bucket_off) {
        s->status = 3;
        return;
    }
    (void)intern(s, 0);                     /* the dead state, 0 */
    nstart = closure(s, &start, 1);
    *dfa_start = intern(s, nstart);
    for (d = 0; d < s->n && s->status == 0; d++) {
        /* the dead state's set is empty, and the pool may still be NULL */
        uint32_t len = s->set_len[d], total = 0;
        const uint32_t *set = len ? s->pool + s->set_off[d] : NULL;
        memset(s->bucket_n, 0, s->k * sizeof *s->bucket_n);
        for (i = 0; i < len; i++) {
            const nstate_t *q = &st[set[i]];
            if (q->kind == S_BYTE)
                for (c = s->interval[q->lo]; c <= s->interval[q->hi]; c++)
                    s->bucket_n[c]++;
        }
        for (c = 0; c < s->k; c++) {
            s->bucket_off[c] = total;
            total += s->bucket_n[c];
        }
        s->bucket_off[s->k] = total;
        if (total > s->targets_cap) {
            uint32_t *t = realloc(s->targets, total * sizeof *t);
            if (t == NULL) {
                s->status = 3;
                break;
            }
            s->targets = t;
            s->targets_cap = total;
        }
        memset(s->bucket_n, 0, s->k * sizeof *s->bucket_n);
        for (i = 0; i < len; i++) {
            const nstate_t *q = &st[set[i]];
            if (q->kind == S_BYTE)
                for (c = s->interval[q->lo]; c <= s->interval[q->hi]; c++)
                    s->targets[s->bucket_off[c] + s->bucket_n[c]++] = q->out;
        }
        s->work += total;
        for (c = 0; c < s->k && s->status == 0; c++) {
            uint32_t next = 0;
            if (s->bucket_n[c] > 0) {
                uint32_t m = closure(s, s->targets + s->bucket_off[c], s->bucket_n[c]);
                next = intern(s, m);
            }
            /* `trans` may move when intern() grows it: index afresh. */
            if (s->status == 0)
                s->trans[(size_t)d * s->k + c] = next;
        }
        if (s->work > s->max_work && s->status == 0)
            s->status = s->max_work < WORK_BUDGET ? 4 : 2;
    }
}

static void subset_free(subset_t *s)
{
    free(s->set_off);
    free(s->set_len);
    free(s->pool);
    free(s->trans);
    free(s->acc);
    free(s->ht);
    free(s->mark);
    free(s->stack);
    free(s->tmp);
    free(s->bucket_n);
    free(s->bucket_off);
    free(s->targets);
}

/* ------------------------------------------------------------------------ */
/* Minimisation: Valmari, "Fast brief practical DFA minimization" (2012),
 * refining blocks of states and cords of transitions in turn.  It works on
 * the partial DFA whose transitions are those between live states (states
 * that can reach acceptance); every other state then has no transitions and
 * is not accepting, so all of them end up in the dead state's block. */

typedef struct partition {
    uint32_t z;                        /* number of sets */
    uint32_t *E, *L, *S, *F, *P;       /* elements, locations, set of element, first, past */
} partition_t;

typedef struct refiner {
    partition_t B, C;
    uint32_t *M, *W, w;                /* marked counts, touched sets */
} refiner_t;

static bool partition_init(partition_t *p, uint32_t n)
{
    uint32_t i;
    size_t sz = (size_t)(n ? n : 1) * sizeof(uint32_t);
    p->E = malloc(sz);
    p->L = malloc(sz);
    p->S = malloc(sz);
    p->F = malloc(sz);
    p->P = malloc(sz);
    if (!p->E || !p->L || !p->S || !p->F || !p->P)
        return false;
    p->z = n > 0;
    for (i = 0; i < n; i++) {
        p->E[i] = p->L[i] = i;
        p->S[i] = 0;
    }
    if (p->z) {
        p->F[0] = 0;
        p->P[0] = n;
    }
    return true;
}

static void partition_free(partition_t *p)
{
    free(p->E);
    free(p->L);
    free(p->S);
    free(p->F);
    free(p->P);
}

static void partition_mark(refiner_t *r, partition_t *p, uint32_t e)
{
    uint32_t s = p->S[e], i = p->L[e], j = p->F[s] + r->M[s];
    p->E[i] = p->E[j];
    p->L[p->E[i]] = i;
    p->E[j] = e;
    p->L[e] = j;
    if (r->M[s]++ == 0)
        r->W[r->w++] = s;
}

static void partition_split(refiner_t *r, partition_t *p)
{
    while (r->w > 0) {
        uint32_t s = r->W[--r->w], j = p->F[s] + r->M[s], i;
        if (j == p->P[s]) {
            r->M[s] = 0;
            continue;
        }
        /* The smaller half becomes the new set (Hopcroft's trick). */
        if (r->M[s] <= p->P[s] - j) {
            p->F[p->z] = p->F[s];
            p->P[p->z] = p->F[s] = j;
        } else {
            p->P[p->z] = p->P[s];
            p->F[p->z] = p->P[s] = j;
        }
        for (i = p->F[p->z]; i < p->P[p->z]; i++)
            p->S[p->E[i]] = p->z;
        r->M[s] = r->M[p->z++] = 0;
    }
}

/* Minimises the complete DFA trans[n * k] and writes the result, renumbered
 * breadth-first, as out_trans[*out_n * k] (malloc'ed), out_acc, out_start.
 * Returns 0, 1 (over CC_DFA_MAX_STATES) or 3 (out of memory). */
static int minimise(const uint32_t *trans, const uint8_t *acc, uint32_t n, uint32_t k,
                    uint32_t start, uint32_t **out_trans, uint8_t **out_acc,
                    uint32_t *out_n, uint32_t *out_start)
{
    uint8_t *live = calloc(n, 1);
    uint32_t *radj_off = calloc((size_t)n + 1, sizeof *radj_off);
    uint32_t *radj = NULL, *queue = malloc((size_t)n * sizeof *queue);
    uint32_t *T = NULL, *Lb = NULL, *H = NULL, *A = NULL, *Fa = NULL;
    uint32_t *newid = NULL, *order = NULL;
    refiner_t r;
    size_t total = (size_t)n * k, t, m = 0;
    uint32_t qh = 0, qt = 0, q, c, i, b, ns;
    int status = 3;
    memset(&r, 0, sizeof r);
    *out_trans = NULL;
    *out_acc = NULL;
    if (!live || !radj_off || !queue)
        goto done;
    /* Live states: reverse reachability from the accepting ones. */
    for (t = 0; t < total; t++)
        radj_off[trans[t] + 1]++;
    for (q = 0; q < n; q++)
        radj_off[q + 1] += radj_off[q];
    radj = malloc((total ? total : 1) * sizeof *radj);
    if (radj == NULL)
        goto done;
    {
        uint32_t *fill = calloc(n, sizeof *fill);
        if (fill == NULL)
            goto done;
        for (t = 0; t < total; t++) {
            uint32_t h = trans[t];
            radj[radj_off[h] + fill[h]++] = (uint32_t)(t / k);
        }
        free(fill);
    }
    for (q = 0; q < n; q++) {
        if (acc[q]) {
            live[q] = 1;
            queue[qt++] = q;
        }
    }
    while (qh < qt) {
        q = queue[qh++];
        for (t = radj_off[q]; t < radj_off[q + 1]; t++) {
            if (!live[radj[t]]) {
                live[radj[t]] = 1;
                queue[qt++] = radj[t];
            }
        }
    }
    /* Transitions between live states, grouped by label (class). */
    for (t = 0; t < total; t++)
        if (live[t / k] && live[trans[t]])
            m++;
    T = malloc((m ? m : 1) * sizeof *T);
    Lb = malloc((m ? m : 1) * sizeof *Lb);
    H = malloc((m ? m : 1) * sizeof *H);
    A = malloc((m ? m : 1) * sizeof *A);
    Fa = calloc((size_t)n + 1, sizeof *Fa);
    r.M = calloc((m > n ? m : n) + 1, sizeof *r.M);
    r.W = calloc((m > n ? m : n) + 1, sizeof *r.W);
    if (!T || !Lb || !H || !A || !Fa || !r.M || !r.W)
        goto done;
    m = 0;
    for (c = 0; c < k; c++) {
        for (q = 0; q < n; q++) {
            uint32_t h = trans[(size_t)q * k + c];
            if (live[q] && live[h]) {
                T[m] = q;
                Lb[m] = c;
                H[m] = h;
                m++;
            }
        }
    }
    if (!partition_init(&r.B, n) || !partition_init(&r.C, (uint32_t)m))
        goto done;
    for (q = 0; q < n; q++)
        if (acc[q])
            partition_mark(&r, &r.B, q);
    partition_split(&r, &r.B);
    if (m > 0) {
        uint32_t a = Lb[0];
        r.C.z = 0;
        r.M[0] = 0;
        for (t = 0; t < m; t++) {
            if (Lb[t] != a) {
                a = Lb[t];
                r.C.P[r.C.z++] = (uint32_t)t;
                r.C.F[r.C.z] = (uint32_t)t;
                r.M[r.C.z] = 0;
            }
            r.C.S[t] = r.C.z;
            r.C.L[t] = (uint32_t)t;
        }
        r.C.P[r.C.z++] = (uint32_t)m;
    }
    /* Incoming transitions of each state, for splitting cords. */
    for (t = 0; t < m; t++)
        Fa[H[t]]++;
    for (q = 0; q < n; q++)
        Fa[q + 1] += Fa[q];
    for (t = m; t-- > 0;)
        A[--Fa[H[t]]] = (uint32_t)t;
    b = 1;
    c = 0;
    while (c < r.C.z) {
        for (i = r.C.F[c]; i < r.C.P[c]; i++)
            partition_mark(&r, &r.B, T[r.C.E[i]]);
        partition_split(&r, &r.B);
        c++;
        while (b < r.B.z) {
            for (i = r.B.F[b]; i < r.B.P[b]; i++) {
                uint32_t e = r.B.E[i], j;
                for (j = Fa[e]; j < Fa[e + 1]; j++)
                    partition_mark(&r, &r.C, A[j]);
            }
            partition_split(&r, &r.C);
            b++;
        }
    }
    /* Renumber the blocks breadth-first from the start: dead block 0. */
    newid = malloc((size_t)r.B.z * sizeof *newid);
    order = malloc((size_t)r.B.z * sizeof *order);
    if (!newid || !order)
        goto done;
    for (b = 0; b < r.B.z; b++)
        newid[b] = UINT32_MAX;
    ns = 0;
    newid[r.B.S[0]] = ns;
    order[ns++] = r.B.S[0];
    if (newid[r.B.S[start]] == UINT32_MAX) {
        newid[r.B.S[start]] = ns;
        order[ns++] = r.B.S[start];
    }
    for (i = 1; i < ns; i++) {
        uint32_t rep = r.B.E[r.B.F[order[i]]];
        for (c = 0; c < k; c++) {
            uint32_t nb = r.B.S[trans[(size_t)rep * k + c]];
            if (newid[nb] == UINT32_MAX) {
                newid[nb] = ns;
                order[ns++] = nb;
            }
        }
    }
    if (ns > CC_DFA_MAX_STATES) {
        status = 1;
        goto done;
    }
    *out_trans = calloc((size_t)ns * k, sizeof **out_trans);
    *out_acc = calloc(ns, 1);
    if (!*out_trans || !*out_acc)
        goto done;
    for (i = 1; i < ns; i++) {
        uint32_t rep = r.B.E[r.B.F[order[i]]];
        (*out_acc)[i] = acc[rep];
        for (c = 0; c < k; c++)
            (*out_trans)[(size_t)i * k + c] = newid[r.B.S[trans[(size_t)rep * k + c]]];
    }
    *out_n = ns;
    *out_start = newid[r.B.S[start]];
    status = 0;
done:
    if (status != 0) {
        free(*out_trans);
        free(*out_acc);
        *out_trans = NULL;
        *out_acc = NULL;
    }
    free(live);
    free(radj_off);
    free(radj);
    free(queue);
    free(T);
    free(Lb);
    free(H);
    free(A);
    free(Fa);
    free(r.M);
    free(r.W);
    partition_free(&r.B);
    partition_free(&r.C);
    free(newid);
    free(order);
    return status;
}

/* ------------------------------------------------------------------------ */
/* Tables: merge byte intervals whose columns agree into byte classes. */

static cc_dfa_t *make_tables(const uint32_t *trans, const uint8_t *acc, uint32_t n,
                             uint32_t k, uint32_t start, const uint8_t *interval)
{
    cc_dfa_t *dfa = calloc(1, sizeof *dfa);
    uint32_t *cls = malloc((k ? k : 1) * sizeof *cls);
    uint32_t *hash = malloc((k ? k : 1) * sizeof *hash);
    uint32_t *first_of = malloc((k ? k : 1) * sizeof *first_of);
    uint32_t kc = 0, c, d, q;
    int b;
    if (!dfa || !cls || !hash || !first_of)
        goto fail;
    for (c = 0; c < k; c++) {
        uint32_t h = 2166136261u;
        for (q = 0; q < n; q++) {
            h ^= trans[(size_t)q * k + c];
            h *= 16777619u;
        }
        hash[c] = h;
        cls[c] = UINT32_MAX;
    }
    /* Classes numbered in order of their lowest byte. */
    for (b = 0; b < 256; b++) {
        c = interval[b];
        if (cls[c] != UINT32_MAX)
            continue;
        for (d = 0; d < kc; d++) {
            uint32_t o = first_of[d];
            if (hash[o] != hash[c])
                continue;
            for (q = 0; q < n; q++)
                if (trans[(size_t)q * k + o] != trans[(size_t)q * k + c])
                    break;
            if (q == n)
                break;
        }
        if (d == kc)
            first_of[kc++] = c;
        cls[c] = d;
    }
    dfa->state_count = n;
    dfa->class_count = kc;
    dfa->start = start;
    for (b = 0; b < 256; b++)
        dfa->byte_class[b] = (uint8_t)cls[interval[b]];
    dfa->next = calloc((size_t)n * kc, sizeof *dfa->next);
    dfa->accepting = calloc(n, 1);
    if (!dfa->next || !dfa->accepting)
        goto fail;
    for (q = 0; q < n; q++) {
        dfa->accepting[q] = acc[q];
        for (d = 0; d < kc; d++)
            dfa->next[(size_t)q * kc + d] = (uint16_t)trans[(size_t)q * k + first_of[d]];
    }
    free(cls);
    free(hash);
    free(first_of);
    return dfa;
fail:
    free(cls);
    free(hash);
    free(first_of);
    cc_dfa_free(dfa);
    return NULL;
}

/* ------------------------------------------------------------------------ */

static uint64_t total_states(const cc_pattern_budget_t *b)
{
    return b && b->max_states ? b->max_states : CC_PATTERN_TOTAL_STATES;
}

static uint64_t total_work(const cc_pattern_budget_t *b)
{
    return b && b->max_work ? b->max_work : CC_PATTERN_TOTAL_WORK;
}

static void budget_error(const cc_pattern_budget_t *b, cc_pattern_error_t *err)
{
    set_error(err, 0, "the contract's patterns together pass the limit for one contract (%llu "
              "DFA states built, %llu work units); simplify them or use fewer",
              (unsigned long long)total_states(b), (unsigned long long)total_work(b));
}

cc_dfa_t *cc_pattern_compile(const char *pattern, cc_pattern_error_t *err)
{
    return cc_pattern_compile_budget(pattern, NULL, err);
}

cc_dfa_t *cc_pattern_compile_budget(const char *pattern, cc_pattern_budget_t *budget,
                                    cc_pattern_error_t *err)
{
    parser_t p;
    nfa_t a;
    subset_t s;
    node_t *root;
    cc_dfa_t *dfa = NULL;
    frag_t f;
    uint32_t match, dstart = 0, mn = 0, mstart = 0;
    uint32_t *mtrans = NULL;
    uint8_t *macc = NULL;
    size_t i;
    int status;

    if (err != NULL) {
        err->offset = 0;
        err->message[0] = '\0';
    }
    if (pattern == NULL) {
        set_error(err, 0, "no pattern");
        return NULL;
    }
    memset(&p, 0, sizeof p);
    p.src = pattern;
    p.len = strlen(pattern);
    p.err = err;
    for (i = 0; i < p.len;) {
        size_t n = utf8_valid_len((const unsigned char *)pattern + i, p.len - i);
        if (n == 0) {
            set_error(err, i, "the pattern is not valid UTF-8");
            return NULL;
        }
        i += n;
    }
    root = parse_disjunction(&p);
    if (root != NULL && !p.failed && p.pos < p.len)
        perr(&p, p.pos, "unmatched ')'");
    if (p.failed) {
        free_nodes(p.all);
        return NULL;
    }

    /* What is left of the contract's totals caps this pattern's own. */
    uint64_t states_left = total_states(budget), work_left = total_work(budget);
    if (budget != NULL) {
        if (budget->spent || budget->states >= states_left || budget->work >= work_left) {
            budget->spent = true;
            budget_error(budget, err);
            free_nodes(p.all);
            return NULL;
        }
        states_left -= budget->states;
        work_left -= budget->work;
    }
    memset(&a, 0, sizeof a);
    /* NFA states built count as work units */
    a.max_states = work_left < MAX_NFA_STATES ? (uint32_t)work_left : MAX_NFA_STATES;
    (void)nfa_new(&a, S_EPS);       /* state 0: "no state" */
    f = compile_node(&a, root);
    match = nfa_new(&a, S_MATCH);
    link_to(&a, f.end, match);
    free_nodes(p.all);
    if (budget != NULL)
        budget->work += a.n;
    if (a.too_big && a.max_states < MAX_NFA_STATES) {
        budget->spent = true;
        budget_error(budget, err);
        free(a.s);
        return NULL;
    }
    if (a.too_big) {
        set_error(err, a.blame, "the pattern is too large: this repetition expands it past %u"
                  " automaton states", MAX_NFA_STATES);
        free(a.s);
        return NULL;
    }
    if (a.oom) {
        set_error(err, 0, "out of memory");
        free(a.s);
        return NULL;
    }

    memset(&s, 0, sizeof s);
    s.nfa = &a;
    work_left = work_left > a.n ? work_left - a.n : 0;
    s.max_states = states_left < MAX_SUBSET_STATES ? (uint32_t)states_left : MAX_SUBSET_STATES;
    s.max_work = work_left < WORK_BUDGET ? (unsigned long)work_left : WORK_BUDGET;
    subset_build(&s, f.start, &dstart);
    if (budget != NULL) {
        budget->states += s.n;
        budget->work += s.work;
        if (s.status == 4)
            budget->spent = true;
    }
    status = s.status;
    if (status == 0)
        status = minimise(s.trans, s.acc, s.n, s.k, dstart, &mtrans, &macc, &mn, &mstart);
    if (status == 0) {
        dfa = make_tables(mtrans, macc, mn, s.k, mstart, s.interval);
        if (dfa == NULL)
            status = 3;
    }
    switch (status) {
    case 0:
        break;
    case 1:
        if (s.status == 1)
            set_error(err, 0, "the pattern needs more than %u DFA states before minimisation"
                      " (the limit is %u after); simplify its repetitions",
                      (unsigned)MAX_SUBSET_STATES, (unsigned)CC_DFA_MAX_STATES);
        else
            set_error(err, 0, "the pattern needs more than %u DFA states; simplify its repetitions",
                      (unsigned)CC_DFA_MAX_STATES);
        break;
    case 2:
        set_error(err, 0, "the pattern is too complex to compile within the work limit;"
                  " simplify its repetitions");
        break;
    case 4:
        budget_error(budget, err);
        break;
    default:
        set_error(err, 0, "out of memory");
        break;
    }
    free(mtrans);
    free(macc);
    subset_free(&s);
    free(a.s);
    return dfa;
}

void cc_dfa_free(cc_dfa_t *dfa)
{
    if (dfa == NULL)
        return;
    free(dfa->next);
    free(dfa->accepting);
    free(dfa);
}

uint32_t cc_dfa_table_classes(const cc_dfa_t *dfa)
{
    uint32_t classes = 1;
    while (classes < dfa->class_count)
        classes *= 2;
    return (uint64_t)dfa->state_count * classes <= CC_DFA_PAD_MAX ? classes : dfa->class_count;
}

void cc_dfa_table_next(const cc_dfa_t *dfa, uint32_t classes, uint16_t *next)
{
    for (uint32_t q = 0; q < dfa->state_count; q++)
        for (uint32_t c = 0; c < classes; c++)
            next[(size_t)q * classes + c] =
                c < dfa->class_count ? dfa->next[(size_t)q * dfa->class_count + c] : 0;
}

bool cc_dfa_matches(const cc_dfa_t *dfa, const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s, *end;
    uint32_t state;
    if (dfa == NULL || (s == NULL && len > 0))
        return false;
    state = dfa->start;
    end = p + len;
    while (p < end && state != 0)
        state = dfa->next[(size_t)state * dfa->class_count + dfa->byte_class[*p++]];
    return dfa->accepting[state] != 0;
}
