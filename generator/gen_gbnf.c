/* SPDX-License-Identifier: MIT */
/*
 * gen_gbnf.c - NAME.gbnf and NAME.gbnf.notes.txt: the contract as a
 * llama.cpp GBNF grammar (docs/grammar.md).
 *
 * Complete: the grammar admits the canonical form of every record the
 * parser accepts (compact, keys in contract order, strings with only '"',
 * '\' and control characters escaped).  Sound: every text it admits is
 * accepted by the parser, except in the classes its notes list.  So each
 * construct is spelt as the parser checks it:
 *
 *   string      '"' then code points (raw, or any escape but \u0000 and
 *               lone surrogates) then '"'; min/max_length as {m,n}
 *   pattern     the contract's DFA (pattern.c) turned from bytes into
 *               code points, one rule per state; with a length, the
 *               product of the DFA and a counter (CC_GBNF_MAX_PRODUCT)
 *   integer     the exact range min..max (default +-(2^53 - 1)) as digit
 *               classes, canonical form only (no "-0", no leading zeros)
 *   decimal     '"' then the exact range of minor units (default int64)
 *               in the form (0|[1-9][0-9]*)\.[0-9]{scale} then '"'
 *   number      any JSON number whose double is finite and not a
 *               non-zero underflow; no '-' when minimum >= 0
 *   date        real calendar dates (leap years spelt out)
 *   date-time   RFC 3339 in contractc's profile, 1-9 fraction digits
 *   enum        the values, each as a JSON string
 *   nullable    value | "null"; all_or_none, at_most_one, exactly_one
 *               over an object's own fields: the allowed null/set
 *               combinations as alternatives (CC_GBNF_MAX_ALTERNATIVES)
 *   array       "[" item ("," item){min-1,max-1} "]"; items that may be
 *               null: (item | "null") for each item
 *   map         "{" key ":" value ("," key ":" value){min-1,max-1} "}",
 *               the key through key_pattern's DFA; distinct keys noted
 *
 * White space: up to 20 of space, tab, LF, CR around every token.
 *   optional    a key left out or written, in contract order
 *               (emit_optional_members)
 * The other v2 constructs (unions, json) join in emit_value().
 */
#include "gen_gbnf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "contractc/contractc.h"
#include "gbnf_text.h"
#include "generator.h"
#include "text.h"

/* The ±(2^53 − 1) range of a JSON integer (RFC 7493 section 2.2). */
#define INTEGER_LIMIT 9007199254740991LL
#define WS_MAX 20

typedef struct rule {
    char *name;
    char *body;
} rule_t;

typedef struct gb {
    const cc_contract_t *m;
    rule_t *rules;
    size_t count, cap;
    char **notes;
    size_t note_count, note_cap;
    bool oom;
    /* the shared rules a value used */
    bool use_char, use_number, use_number_pos, use_date, use_datetime, use_boolean;
    bool use_json; /* json-value and its rules (docs/contract-language.md §4.14) */
} gb_t;

/* Names of the shared rules (reserved before any field's rule). */
static const char *const shared_names[] = {
    "root", "ws", "char", "char-escape", "hex", "number", "number-nonneg", "number-body",
    "boolean", "date", "date-time", "year", "leap-year", "time", "two-digit-hour", "minute",
    "json-value", "json-member", "json-number",
};

/* ---- rules and names ------------------------------------------------------- */

static bool name_taken(const gb_t *g, const char *name)
{
    for (size_t i = 0; i < sizeof shared_names / sizeof shared_names[0]; i++)
        if (strcmp(shared_names[i], name) == 0)
            return true;
    for (size_t i = 0; i < g->count; i++)
        if (g->rules[i].name && strcmp(g->rules[i].name, name) == 0)
            return true;
    return false;
}

/* A new rule named `base` (made unique with -2, -3, ...); its index, or
 * SIZE_MAX when out of memory.  The body comes later (set_body). */
static size_t new_rule(gb_t *g, const char *base)
{
    if (g->oom)
        return SIZE_MAX;
    if (g->count == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 32;
        rule_t *r = realloc(g->rules, cap * sizeof *r);
        if (!r) {
            g->oom = true;
            return SIZE_MAX;
        }
        g->rules = r;
        g->cap = cap;
    }
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, base);
    for (unsigned k = 2; !b.failed && name_taken(g, b.data); k++) {
        cc_buf_free(&b);
        cc_buf_printf(&b, "%s-%u", base, k);
    }
    char *name = cc_buf_take(&b, NULL);
    if (!name) {
        g->oom = true;
        return SIZE_MAX;
    }
    g->rules[g->count].name = name;
    g->rules[g->count].body = NULL;
    return g->count++;
}

static const char *rule_name(const gb_t *g, size_t idx)
{
    return idx == SIZE_MAX ? "?" : g->rules[idx].name;
}

static void set_body(gb_t *g, size_t idx, cc_buf_t *body)
{
    char *text = cc_buf_take(body, NULL);
    if (!text || idx == SIZE_MAX) {
        free(text);
        g->oom = true;
        return;
    }
    g->rules[idx].body = text;
}

/* A rule name from a JSON key: every byte outside [A-Za-z0-9] as '-'
 * (GBNF names are [A-Za-z0-9-]+), runs of '-' as one. */
static void name_part(cc_buf_t *b, const char *key)
{
    bool dash = b->len > 0 && b->data[b->len - 1] == '-';
    for (const char *p = key; *p; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (ok) {
            cc_buf_putc(b, c);
            dash = false;
        } else if (!dash && b->len > 0) {
            cc_buf_putc(b, '-');
            dash = true;
        }
    }
    while (b->len > 0 && b->data[b->len - 1] == '-')
        b->data[--b->len] = '\0';
}

/* ---- notes ---------------------------------------------------------------- */

static void note(gb_t *g, const char *path, cc_buf_t *what)
{
    cc_buf_t line = CC_BUF_INIT;
    cc_buf_printf(&line, "%s: ", path);
    if (what->data)
        cc_buf_append(&line, what->data, what->len);
    cc_buf_puts(&line, "; the parser enforces it");
    cc_buf_free(what);
    char *text = cc_buf_take(&line, NULL);
    if (!text) {
        g->oom = true;
        return;
    }
    if (g->note_count == g->note_cap) {
        size_t cap = g->note_cap ? g->note_cap * 2 : 16;
        char **n = realloc(g->notes, cap * sizeof *n);
        if (!n) {
            free(text);
            g->oom = true;
            return;
        }
        g->notes = n;
        g->note_cap = cap;
    }
    g->notes[g->note_count++] = text;
}

static int note_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- literals ------------------------------------------------------------- */

/* A GBNF literal matching the bytes s[0..n). */
static void lit(cc_buf_t *b, const char *s, size_t n)
{
    char *tmp = malloc(4 * n + 1);
    if (!tmp) {
        b->failed = true;
        return;
    }
    size_t len = cc_gbnf_escape(s, n, tmp);
    cc_buf_putc(b, '"');
    cc_buf_append(b, tmp, len);
    cc_buf_putc(b, '"');
    free(tmp);
}

/* A GBNF literal matching `s` written as a canonical JSON string. */
static void json_lit(cc_buf_t *b, const char *s)
{
    cc_buf_t j = CC_BUF_INIT;
    cc_buf_json_string(&j, s, strlen(s));
    if (j.failed)
        b->failed = true;
    else
        lit(b, j.data, j.len);
    cc_buf_free(&j);
}

/* One code point in a character class: printable ASCII letters and digits
 * as themselves, everything else as \xHH, \uHHHH or \UHHHHHHHH. */
static void class_cp(cc_buf_t *b, uint32_t cp)
{
    if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9') ||
        cp == ' ' || cp == '_' || cp == '.' || cp == ':' || cp == '@' || cp == '#' || cp == '/' ||
        cp == '+' || cp == ',' || cp == '=')
        cc_buf_putc(b, (char)cp);
    else if (cp < 0x100)
        cc_buf_printf(b, "\\x%02X", (unsigned)cp);
    else if (cp < 0x10000)
        cc_buf_printf(b, "\\u%04X", (unsigned)cp);
    else
        cc_buf_printf(b, "\\U%08X", (unsigned)cp);
}

/* A repetition suffix {m,n} ("?" "*" "+" where shorter); max UINT32_MAX
 * is unbounded. */
static void repeat(cc_buf_t *b, uint32_t min, uint32_t max)
{
    if (min == 1 && max == 1)
        return;
    if (min == 0 && max == 1)
        cc_buf_putc(b, '?');
    else if (min == 0 && max == UINT32_MAX)
        cc_buf_putc(b, '*');
    else if (min == 1 && max == UINT32_MAX)
        cc_buf_putc(b, '+');
    else if (max == UINT32_MAX)
        cc_buf_printf(b, "{%" PRIu32 ",}", min);
    else if (min == max)
        cc_buf_printf(b, "{%" PRIu32 "}", min);
    else
        cc_buf_printf(b, "{%" PRIu32 ",%" PRIu32 "}", min, max);
}

/* ---- digit ranges --------------------------------------------------------- */

static void digit_class(cc_buf_t *b, char lo, char hi)
{
    if (lo == hi)
        cc_buf_printf(b, "\"%c\"", lo);
    else if (hi == lo + 1)
        cc_buf_printf(b, "[%c%c]", lo, hi);
    else
        cc_buf_printf(b, "[%c-%c]", lo, hi);
}

static bool all_of(const char *s, size_t n, char c)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != c)
            return false;
    return true;
}

/* Every digit string of width n from a to z (same width, a <= z, leading
 * zeros part of the string), as one GBNF expression (alternatives in
 * parentheses). */
static void same_width(cc_buf_t *b, const char *a, const char *z, size_t n)
{
    if (n == 0)
        return;
    size_t common = 0;
    while (common < n && a[common] == z[common])
        common++;
    if (common > 0) {
        cc_buf_putc(b, '"');
        cc_buf_append(b, a, common);
        cc_buf_putc(b, '"');
        if (common < n) {
            cc_buf_putc(b, ' ');
            same_width(b, a + common, z + common, n - common);
        }
        return;
    }
    if (all_of(a, n, '0') && all_of(z, n, '9')) {
        cc_buf_puts(b, "[0-9]");
        if (n > 1)
            repeat(b, (uint32_t)n, (uint32_t)n);
        return;
    }
    char nines[24], zeros[24];
    memset(nines, '9', sizeof nines);
    memset(zeros, '0', sizeof zeros);
    bool low_full = all_of(a + 1, n - 1, '0'), high_full = all_of(z + 1, n - 1, '9');
    char mid_lo = low_full ? a[0] : (char)(a[0] + 1);
    char mid_hi = high_full ? z[0] : (char)(z[0] - 1);
    int alts = !low_full + (mid_lo <= mid_hi) + !high_full;
    bool first = true;
    if (alts > 1)
        cc_buf_putc(b, '(');
    if (!low_full) {
        cc_buf_printf(b, "\"%c\" ", a[0]);
        same_width(b, a + 1, nines, n - 1);
        first = false;
    }
    if (mid_lo <= mid_hi) {
        if (!first)
            cc_buf_puts(b, " | ");
        digit_class(b, mid_lo, mid_hi);
        if (n > 1) {
            cc_buf_puts(b, " [0-9]");
            if (n > 2)
                repeat(b, (uint32_t)(n - 1), (uint32_t)(n - 1));
        }
        first = false;
    }
    if (!high_full) {
        if (!first)
            cc_buf_puts(b, " | ");
        cc_buf_printf(b, "\"%c\" ", z[0]);
        same_width(b, zeros, z + 1, n - 1);
    }
    if (alts > 1)
        cc_buf_putc(b, ')');
}

static size_t digits_of(uint64_t v, char out[24])
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = '\0';
    return n;
}

static uint64_t pow10u(size_t k)
{
    uint64_t p = 1;
    while (k--)
        p *= 10;
    return p;
}

/* The canonical texts (no leading zeros) of every integer from lo to hi,
 * as a parenthesised GBNF expression of alternatives. */
static void uint_range(cc_buf_t *b, uint64_t lo, uint64_t hi)
{
    char la[24], za[24];
    size_t ln = digits_of(lo, la), hn = digits_of(hi, za);
    bool first = true;
    /* alternatives: one per width, unless lo and hi have the same width */
    bool paren = ln != hn;
    if (paren)
        cc_buf_putc(b, '(');
    for (size_t len = ln; len <= hn; len++) {
        uint64_t floor_ = len == 1 ? 0 : pow10u(len - 1);
        uint64_t ceil_ = len >= 20 ? UINT64_MAX : pow10u(len) - 1;
        uint64_t a = lo > floor_ ? lo : floor_, z = hi < ceil_ ? hi : ceil_;
        if (!first)
            cc_buf_puts(b, " | ");
        first = false;
        /* whole widths from len on: one [1-9][0-9]{len-1,end-1} */
        if (len >= 2 && a == floor_ && z == ceil_) {
            size_t end = len;
            while (end + 1 <= hn && end + 1 < 20 && hi >= pow10u(end + 1) - 1)
                end++;
            cc_buf_puts(b, "[1-9] [0-9]");
            repeat(b, (uint32_t)(len - 1), (uint32_t)(end - 1));
            len = end;
            continue;
        }
        char as[24], zs[24];
        digits_of(a, as);
        digits_of(z, zs);
        same_width(b, as, zs, len);
    }
    if (paren)
        cc_buf_putc(b, ')');
}

/* Signed integers lo..hi in canonical form ("-0" not admitted). */
static void int_range(cc_buf_t *b, int64_t lo, int64_t hi)
{
    uint64_t mag_lo = lo < 0 ? (uint64_t)0 - (uint64_t)lo : 0;
    if (lo >= 0) {
        uint_range(b, (uint64_t)lo, (uint64_t)hi);
    } else if (hi < 0) {
        cc_buf_puts(b, "\"-\" ");
        uint_range(b, (uint64_t)0 - (uint64_t)hi, mag_lo);
    } else {
        cc_buf_puts(b, "(\"-\" ");
        uint_range(b, 1, mag_lo);
        cc_buf_puts(b, " | ");
        uint_range(b, 0, (uint64_t)hi);
        cc_buf_putc(b, ')');
    }
}

/* Decimals of `scale` digits whose minor units run from lo to hi (both
 * >= 0): (0|[1-9][0-9]*) "." [0-9]{scale}. */
static void decimal_mag(cc_buf_t *b, uint64_t lo, uint64_t hi, uint8_t scale)
{
    if (scale == 0) {
        uint_range(b, lo, hi);
        return;
    }
    uint64_t p = pow10u(scale);
    uint64_t il = lo / p, fl = lo % p, ih = hi / p, fh = hi % p;
    char fls[24], fhs[24], zeros[24], nines[24];
    memset(zeros, '0', sizeof zeros);
    memset(nines, '9', sizeof nines);
    char tmp[24];
    size_t n = digits_of(fl, tmp);
    memset(fls, '0', scale);
    memcpy(fls + scale - n, tmp, n);
    n = digits_of(fh, tmp);
    memset(fhs, '0', scale);
    memcpy(fhs + scale - n, tmp, n);
    if (il == ih) {
        uint_range(b, il, il);
        cc_buf_puts(b, " \".\" ");
        same_width(b, fls, fhs, scale);
        return;
    }
    cc_buf_putc(b, '(');
    uint_range(b, il, il);
    cc_buf_puts(b, " \".\" ");
    same_width(b, fls, nines, scale);
    if (il + 1 <= ih - 1) {
        cc_buf_puts(b, " | ");
        uint_range(b, il + 1, ih - 1);
        cc_buf_puts(b, " \".\" ");
        same_width(b, zeros, nines, scale);
    }
    cc_buf_puts(b, " | ");
    uint_range(b, ih, ih);
    cc_buf_puts(b, " \".\" ");
    same_width(b, zeros, fhs, scale);
    cc_buf_putc(b, ')');
}

/* ---- patterns: the DFA over code points ------------------------------------ */

#define MIXED UINT32_MAX

typedef struct edge {
    uint32_t lo, hi, to;
} edge_t;

typedef struct dfa_walk {
    const cc_dfa_t *d;
    uint32_t *uniform[4]; /* [k][state]: the state after k continuation bytes if
                           * every sequence leads there, MIXED, or MIXED - 1 unknown */
    edge_t *edges;
    size_t count, cap;
    bool oom;
} dfa_walk_t;

static uint32_t step(const cc_dfa_t *d, uint32_t s, unsigned char byte)
{
    return d->next[(size_t)s * d->class_count + d->byte_class[byte]];
}

static uint32_t uniform(dfa_walk_t *w, uint32_t s, int k)
{
    if (k == 0)
        return s;
    uint32_t *memo = &w->uniform[k][s];
    if (*memo != MIXED - 1)
        return *memo;
    uint32_t t = MIXED;
    for (unsigned b = 0x80; b <= 0xBF; b++) {
        uint32_t u = uniform(w, step(w->d, s, (unsigned char)b), k - 1);
        if (u == MIXED || (b > 0x80 && u != t)) {
            t = MIXED;
            break;
        }
        t = u;
    }
    *memo = t;
    return t;
}

static void add_edge(dfa_walk_t *w, uint32_t lo, uint32_t hi, uint32_t to)
{
    if (to == 0)
        return;
    if (w->count && w->edges[w->count - 1].to == to && w->edges[w->count - 1].hi + 1 == lo) {
        w->edges[w->count - 1].hi = hi;
        return;
    }
    if (w->count == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        edge_t *e = realloc(w->edges, cap * sizeof *e);
        if (!e) {
            w->oom = true;
            return;
        }
        w->edges = e;
        w->cap = cap;
    }
    w->edges[w->count++] = (edge_t){lo, hi, to};
}

/* Continuation bytes blo..bhi from state s, k of them still to come
 * (this one included); base is the code point's bits so far. */
static void walk_cont(dfa_walk_t *w, uint32_t s, int k, uint32_t base, unsigned blo, unsigned bhi)
{
    for (unsigned b = blo; b <= bhi; b++) {
        uint32_t t = step(w->d, s, (unsigned char)b);
        uint32_t cp = base | ((uint32_t)(b & 0x3F) << (6 * (k - 1)));
        if (t == 0)
            continue;
        uint32_t u = uniform(w, t, k - 1);
        if (u != MIXED)
            add_edge(w, cp, cp + (1u << (6 * (k - 1))) - 1, u);
        else
            walk_cont(w, t, k - 1, cp, 0x80, 0xBF);
    }
}

/* The code point edges of state s, in code point order: every valid UTF-8
 * sequence (no NUL, no surrogates, nothing above U+10FFFF). */
static void state_edges(dfa_walk_t *w, uint32_t s)
{
    w->count = 0;
    for (unsigned b = 1; b < 0x80; b++)
        add_edge(w, b, b, step(w->d, s, (unsigned char)b));
    for (unsigned b = 0xC2; b <= 0xDF; b++) {
        uint32_t t = step(w->d, s, (unsigned char)b);
        if (t)
            walk_cont(w, t, 1, (uint32_t)(b & 0x1F) << 6, 0x80, 0xBF);
    }
    for (unsigned b = 0xE0; b <= 0xEF; b++) {
        uint32_t t = step(w->d, s, (unsigned char)b);
        if (t)
            walk_cont(w, t, 2, (uint32_t)(b & 0x0F) << 12, b == 0xE0 ? 0xA0 : 0x80,
                      b == 0xED ? 0x9F : 0xBF);
    }
    for (unsigned b = 0xF0; b <= 0xF4; b++) {
        uint32_t t = step(w->d, s, (unsigned char)b);
        if (t)
            walk_cont(w, t, 3, (uint32_t)(b & 0x07) << 18, b == 0xF0 ? 0x90 : 0x80,
                      b == 0xF4 ? 0x8F : 0xBF);
    }
}

/* The JSON text of one special code point (a control character, '"' or
 * '\') as the canonical form writes it, as a GBNF literal. */
static void special_lit(cc_buf_t *b, uint32_t cp)
{
    switch (cp) {
    case '"': cc_buf_puts(b, "\"\\\\\\\"\""); return;    /* \" */
    case '\\': cc_buf_puts(b, "\"\\\\\\\\\""); return;   /* \\ */
    case '\b': cc_buf_puts(b, "\"\\\\b\""); return;
    case '\f': cc_buf_puts(b, "\"\\\\f\""); return;
    case '\n': cc_buf_puts(b, "\"\\\\n\""); return;
    case '\r': cc_buf_puts(b, "\"\\\\r\""); return;
    case '\t': cc_buf_puts(b, "\"\\\\t\""); return;
    default: cc_buf_printf(b, "\"\\\\u00%02x\"", (unsigned)cp); return;
    }
}

static bool is_special(uint32_t cp)
{
    return cp < 0x20 || cp == '"' || cp == '\\';
}

/* Alternatives for the edges to `to` in w->edges, each followed by
 * `next` (a rule name). */
static void edges_to(cc_buf_t *b, const edge_t *edges, size_t count, uint32_t to,
                     const char *next, bool *first)
{
    /* the plain code points as one class */
    bool any = false;
    uint32_t single = UINT32_MAX; /* the one code point, when the class has one */
    size_t points = 0;
    cc_buf_t cls = CC_BUF_INIT;
    for (size_t i = 0; i < count; i++) {
        if (edges[i].to != to)
            continue;
        uint32_t lo = edges[i].lo, hi = edges[i].hi;
        while (lo <= hi) {
            if (is_special(lo)) {
                lo++;
                continue;
            }
            uint32_t end = lo;
            while (end < hi && !is_special(end + 1))
                end++;
            class_cp(&cls, lo);
            points += end - lo + 1;
            single = points == 1 ? lo : UINT32_MAX;
            if (end > lo) {
                if (end > lo + 1)
                    cc_buf_putc(&cls, '-');
                class_cp(&cls, end);
            }
            any = true;
            if (end == UINT32_MAX)
                break;
            lo = end + 1;
        }
    }
    if (any) {
        if (!*first)
            cc_buf_puts(b, " | ");
        *first = false;
        if (single != UINT32_MAX) {
            char u[4];
            size_t n = 0;
            if (single < 0x80) {
                u[n++] = (char)single;
            } else if (single < 0x800) {
                u[n++] = (char)(0xC0 | single >> 6);
                u[n++] = (char)(0x80 | (single & 0x3F));
            } else if (single < 0x10000) {
                u[n++] = (char)(0xE0 | single >> 12);
                u[n++] = (char)(0x80 | (single >> 6 & 0x3F));
                u[n++] = (char)(0x80 | (single & 0x3F));
            } else {
                u[n++] = (char)(0xF0 | single >> 18);
                u[n++] = (char)(0x80 | (single >> 12 & 0x3F));
                u[n++] = (char)(0x80 | (single >> 6 & 0x3F));
                u[n++] = (char)(0x80 | (single & 0x3F));
            }
            lit(b, u, n);
        } else {
            cc_buf_putc(b, '[');
            cc_buf_append(b, cls.data, cls.len);
            cc_buf_putc(b, ']');
        }
        cc_buf_printf(b, " %s", next);
    }
    if (cls.failed)
        b->failed = true;
    cc_buf_free(&cls);
    for (size_t i = 0; i < count; i++) {
        if (edges[i].to != to)
            continue;
        for (uint32_t cp = edges[i].lo; cp <= edges[i].hi && cp < 0x60; cp++) {
            if (!is_special(cp))
                continue;
            if (!*first)
                cc_buf_puts(b, " | ");
            *first = false;
            special_lit(b, cp);
            cc_buf_printf(b, " %s", next);
        }
    }
}

/*
 * A patterned string: '"', then the DFA's code points with a length
 * counter k (0..K, K = max when bounded, else min, where it stays), then
 * '"' in an accepting state with k >= min.  Returns false when the product
 * would pass CC_GBNF_MAX_PRODUCT rules (nothing is emitted).
 */
static bool emit_pattern(gb_t *g, size_t head, const char *base, const cc_dfa_t *d,
                         uint32_t min, bool bounded, uint32_t max)
{
    uint32_t K = bounded ? max : min;
    uint64_t nodes = (uint64_t)d->state_count * (K + 1);
    if (nodes > CC_GBNF_MAX_PRODUCT)
        return false;
    dfa_walk_t w;
    memset(&w, 0, sizeof w);
    w.d = d;
    for (int k = 1; k <= 3; k++) {
        w.uniform[k] = malloc(d->state_count * sizeof(uint32_t));
        if (w.uniform[k])
            for (uint32_t s = 0; s < d->state_count; s++)
                w.uniform[k][s] = MIXED - 1;
        else
            w.oom = true;
    }
    /* the edges of every state, computed once */
    edge_t **edges = calloc(d->state_count, sizeof *edges);
    size_t *counts = calloc(d->state_count, sizeof *counts);
    bool *live = calloc((size_t)nodes, sizeof *live);
    size_t *idx = malloc((size_t)nodes * sizeof *idx);
    if (!edges || !counts || !live || !idx)
        w.oom = true;
    for (uint32_t s = 1; !w.oom && s < d->state_count; s++) {
        state_edges(&w, s);
        edges[s] = malloc((w.count ? w.count : 1) * sizeof(edge_t));
        if (!edges[s]) {
            w.oom = true;
            break;
        }
        if (w.count)
            memcpy(edges[s], w.edges, w.count * sizeof(edge_t));
        counts[s] = w.count;
    }
#define NODE(s, k) ((size_t)(s) * (K + 1) + (k))
#define SUCC(k) (bounded ? (k) + 1 : ((k) + 1 > K ? K : (k) + 1))
    /* live: the closing quote can be reached */
    bool changed = !w.oom;
    while (changed) {
        changed = false;
        for (uint32_t s = 1; s < d->state_count; s++)
            for (uint32_t k = 0; k <= K; k++) {
                if (live[NODE(s, k)])
                    continue;
                bool l = d->accepting[s] && k >= min;
                for (size_t e = 0; !l && e < counts[s]; e++)
                    l = (!bounded || k < K) && live[NODE(edges[s][e].to, SUCC(k))];
                if (l)
                    live[NODE(s, k)] = changed = true;
            }
    }
    /* rules in breadth-first order from the start, named BASE-1, BASE-2, ... */
    size_t *queue = malloc((size_t)nodes * sizeof *queue);
    size_t qn = 0, qi = 0;
    if (!queue)
        w.oom = true;
    for (size_t i = 0; !w.oom && i < nodes; i++)
        idx[i] = SIZE_MAX;
    cc_buf_t hb = CC_BUF_INIT;
    cc_buf_puts(&hb, "\"\\\"\" ");
    if (!w.oom && live[NODE(d->start, 0)]) {
        cc_buf_t nb = CC_BUF_INIT;
        cc_buf_printf(&nb, "%s-1", base);
        idx[NODE(d->start, 0)] = new_rule(g, nb.data ? nb.data : base);
        cc_buf_free(&nb);
        queue[qn++] = NODE(d->start, 0);
        cc_buf_puts(&hb, rule_name(g, idx[NODE(d->start, 0)]));
    } else {
        /* no string matches: a grammar that admits nothing here */
        cc_buf_puts(&hb, "[^\\x00-\\U0010FFFF]");
    }
    set_body(g, head, &hb);
    while (!w.oom && !g->oom && qi < qn) {
        size_t node = queue[qi++];
        uint32_t s = (uint32_t)(node / (K + 1)), k = (uint32_t)(node % (K + 1));
        cc_buf_t body = CC_BUF_INIT;
        bool first = true;
        if (d->accepting[s] && k >= min) {
            cc_buf_puts(&body, "\"\\\"\"");
            first = false;
        }
        if (!bounded || k < K) {
            uint32_t nk = SUCC(k);
            /* targets in order of their first code point */
            for (size_t e = 0; e < counts[s]; e++) {
                uint32_t t = edges[s][e].to;
                bool seen = false;
                for (size_t p = 0; p < e && !seen; p++)
                    seen = edges[s][p].to == t;
                if (seen || !live[NODE(t, nk)])
                    continue;
                if (idx[NODE(t, nk)] == SIZE_MAX) {
                    cc_buf_t nb = CC_BUF_INIT;
                    cc_buf_printf(&nb, "%s-%zu", base, qn + 1);
                    idx[NODE(t, nk)] = new_rule(g, nb.data ? nb.data : base);
                    cc_buf_free(&nb);
                    queue[qn++] = NODE(t, nk);
                }
                edges_to(&body, edges[s], counts[s], t, rule_name(g, idx[NODE(t, nk)]), &first);
            }
        }
        set_body(g, idx[node], &body);
    }
#undef NODE
#undef SUCC
    if (w.oom)
        g->oom = true;
    for (uint32_t s = 0; edges && s < d->state_count; s++)
        free(edges[s]);
    free(edges);
    free(counts);
    free(live);
    free(idx);
    free(queue);
    free(w.edges);
    for (int k = 1; k <= 3; k++)
        free(w.uniform[k]);
    return true;
}

/* ---- values ---------------------------------------------------------------- */

static void emit_object(gb_t *g, size_t head, const cc_object_t *o, const char *base,
                        const char *path);

/*
 * A tagged union (docs/contract-language.md §4.11): its variants as
 * alternatives, each one the variant's object with the tag first, written
 * as a one-value enum member ahead of the variant's own fields.  A
 * variant's rules are not carried here (their field indexes would shift):
 * each one is a note, and the grammar stays looser than the parser.
 */
static void emit_union(gb_t *g, size_t head, const cc_value_t *v, const char *base,
                       const char *path)
{
    size_t *vr = calloc(v->variant_count + 1, sizeof *vr);
    if (!vr) {
        g->oom = true;
        return;
    }
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_putc(&b, '(');
    for (size_t i = 0; i < v->variant_count; i++) {
        cc_buf_t nb = CC_BUF_INIT;
        cc_buf_printf(&nb, "%s-", base);
        name_part(&nb, v->variants[i].name);
        if (nb.len > 0 && nb.data[nb.len - 1] == '-')
            cc_buf_puts(&nb, "kind");
        vr[i] = new_rule(g, nb.data ? nb.data : "kind");
        cc_buf_free(&nb);
        if (g->oom)
            break;
        cc_buf_printf(&b, "%s%s", i ? " | " : "", rule_name(g, vr[i]));
    }
    cc_buf_putc(&b, ')');
    set_body(g, head, &b);
    for (size_t i = 0; i < v->variant_count && !g->oom; i++) {
        const cc_object_t *o = v->variants[i].object;
        char *values[1] = {v->variants[i].name};
        cc_enum_t one;
        memset(&one, 0, sizeof one);
        one.values = values;
        one.count = 1;
        cc_object_t with_tag;
        memset(&with_tag, 0, sizeof with_tag);
        with_tag.field_count = o->field_count + 1;
        with_tag.fields = calloc(with_tag.field_count, sizeof *with_tag.fields);
        if (!with_tag.fields) {
            g->oom = true;
            break;
        }
        with_tag.fields[0].name = v->tag;
        with_tag.fields[0].value.type = CONTRACTC_TYPE_ENUM;
        with_tag.fields[0].value.enumeration = &one;
        for (size_t k = 0; k < o->field_count; k++)
            with_tag.fields[k + 1] = o->fields[k]; /* shallow: read only */
        for (size_t r = 0; r < o->rule_count; r++) {
            char *sentence = cc_rule_sentence(o, &o->rules[r]);
            cc_buf_t w = CC_BUF_INIT;
            cc_buf_printf(&w, "rule %s \"%s\" of the variant \"%s\" not carried by the grammar "
                              "(a variant's rules have no form in it)", o->rules[r].id,
                          sentence ? sentence : "", v->variants[i].name);
            if (!sentence)
                g->oom = true;
            free(sentence);
            note(g, path, &w);
        }
        char *own = cc_strdup(rule_name(g, vr[i]));
        if (!own)
            g->oom = true;
        else
            emit_object(g, vr[i], &with_tag, own, path);
        free(own);
        free(with_tag.fields);
    }
    free(vr);
}

/* The JSON path of a key under `path` ("$.a", "$['first-name']"). */
static void path_key(cc_buf_t *b, const char *path, const char *key)
{
    cc_buf_puts(b, path);
    cc_buf_key_segment(b, key, false);
}

static void note_limit(gb_t *g, const char *path, const char *what, uint32_t n)
{
    cc_buf_t w = CC_BUF_INIT;
    cc_buf_printf(&w, "%s %" PRIu32 " not carried by the grammar (llama.cpp refuses %u or more "
                      "repetitions: written unbounded)", what, n, CC_GBNF_MAX_REPETITION);
    note(g, path, &w);
}

/* A string's code point count as GBNF bounds, with the notes of what is
 * too large for llama.cpp. */
static void string_bounds(gb_t *g, const cc_value_t *v, const char *path, uint32_t *min,
                          bool *bounded, uint32_t *max)
{
    *min = v->has_min_length ? v->min_length : 0;
    *bounded = v->has_max_length;
    *max = v->has_max_length ? v->max_length : UINT32_MAX;
    if (*bounded && *max >= CC_GBNF_MAX_REPETITION) {
        note_limit(g, path, "max_length", *max);
        *bounded = false;
        *max = UINT32_MAX;
    }
    if (*min >= CC_GBNF_MAX_REPETITION) {
        note_limit(g, path, "min_length", *min);
        *min = 0;
    }
}

/* The body of rule `head`: the value v at `path` (its null is the
 * caller's).  v2 constructs (unions, maps, json) join here when the
 * contract model has them; optional keys are emit_object's. */
static void emit_value(gb_t *g, size_t head, const cc_value_t *v, const char *base,
                       const char *path);

/* A value union (docs/contract-language.md §4.13): its alternatives, one
 * rule each, named BASE-TYPE ("quantity-string"); their JSON types differ,
 * so at most one alternative admits a value.  A grounded string
 * alternative's rule is named as a grounded field's is. */
static void emit_value_union(gb_t *g, size_t head, const cc_value_t *v, const char *base,
                             const char *path)
{
    size_t *ar = calloc(v->alternative_count + 1, sizeof *ar);
    char **bases = calloc(v->alternative_count + 1, sizeof *bases);
    if (!ar || !bases) {
        free(ar);
        free(bases);
        g->oom = true;
        return;
    }
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_putc(&b, '(');
    for (size_t i = 0; i < v->alternative_count && !g->oom; i++) {
        const cc_value_t *a = &v->alternatives[i];
        cc_buf_t nb = CC_BUF_INIT, rb = CC_BUF_INIT;
        cc_buf_printf(&nb, "%s-%s", base, cc_type_name(a->type));
        bool grounded = a->type == CONTRACTC_TYPE_STRING && a->grounded;
        cc_buf_printf(&rb, "%s%s", grounded ? CC_GBNF_GROUNDED_PREFIX : "",
                      nb.data ? nb.data : "");
        ar[i] = new_rule(g, rb.data ? rb.data : "alternative");
        bases[i] = grounded ? cc_buf_take(&nb, NULL) : cc_strdup(rule_name(g, ar[i]));
        if (!bases[i] || nb.failed || rb.failed)
            g->oom = true;
        cc_buf_free(&nb);
        cc_buf_free(&rb);
        if (!g->oom)
            cc_buf_printf(&b, "%s%s", i ? " | " : "", rule_name(g, ar[i]));
    }
    cc_buf_putc(&b, ')');
    set_body(g, head, &b);
    for (size_t i = 0; i < v->alternative_count && !g->oom; i++)
        emit_value(g, ar[i], &v->alternatives[i], bases[i], path);
    for (size_t i = 0; i < v->alternative_count; i++)
        free(bases[i]);
    free(bases);
    free(ar);
}

static void emit_value(gb_t *g, size_t head, const cc_value_t *v, const char *base,
                       const char *path)
{
    cc_buf_t b = CC_BUF_INIT;
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: {
        uint32_t min, max;
        bool bounded;
        string_bounds(g, v, path, &min, &bounded, &max);
        if (v->dfa) {
            if (emit_pattern(g, head, base, v->dfa, min, bounded, max))
                return;
            cc_buf_t w = CC_BUF_INIT;
            cc_buf_printf(&w, "the length beside the pattern not carried by the grammar (the "
                              "pattern's %" PRIu32 " states times the length would pass %u rules)",
                          v->dfa->state_count - 1, CC_GBNF_MAX_PRODUCT);
            note(g, path, &w);
            emit_pattern(g, head, base, v->dfa, 0, false, 0);
            return;
        }
        g->use_char = true;
        cc_buf_puts(&b, "\"\\\"\" char");
        repeat(&b, min, max);
        cc_buf_puts(&b, " \"\\\"\"");
        break;
    }
    case CONTRACTC_TYPE_INTEGER: {
        int64_t lo = v->has_minimum ? v->minimum : -INTEGER_LIMIT;
        int64_t hi = v->has_maximum ? v->maximum : INTEGER_LIMIT;
        if (lo < -INTEGER_LIMIT)
            lo = -INTEGER_LIMIT;
        if (hi > INTEGER_LIMIT)
            hi = INTEGER_LIMIT;
        if (lo > hi)
            cc_buf_puts(&b, "[^\\x00-\\U0010FFFF]"); /* nothing is in range */
        else
            int_range(&b, lo, hi);
        break;
    }
    case CONTRACTC_TYPE_DECIMAL: {
        int64_t lo = v->has_minimum ? v->minimum : (v->is_signed ? INT64_MIN : 0);
        int64_t hi = v->has_maximum ? v->maximum : INT64_MAX;
        if (!v->is_signed && lo < 0)
            lo = 0;
        cc_buf_puts(&b, "\"\\\"\" ");
        if (lo > hi) {
            cc_buf_puts(&b, "[^\\x00-\\U0010FFFF]");
        } else if (lo >= 0) {
            decimal_mag(&b, (uint64_t)lo, (uint64_t)hi, v->scale);
        } else if (hi < 0) {
            cc_buf_puts(&b, "\"-\" ");
            decimal_mag(&b, (uint64_t)0 - (uint64_t)hi, (uint64_t)0 - (uint64_t)lo, v->scale);
        } else {
            /* "-0.00" is accepted too, but canonical "0.00" is enough */
            cc_buf_puts(&b, "(\"-\" ");
            decimal_mag(&b, 1, (uint64_t)0 - (uint64_t)lo, v->scale);
            cc_buf_puts(&b, " | ");
            decimal_mag(&b, 0, (uint64_t)hi, v->scale);
            cc_buf_putc(&b, ')');
        }
        cc_buf_puts(&b, " \"\\\"\"");
        break;
    }
    case CONTRACTC_TYPE_NUMBER: {
        bool nonneg = v->has_minimum && v->number_minimum >= 0;
        if (nonneg) {
            g->use_number_pos = true;
            cc_buf_puts(&b, "number-nonneg");
        } else {
            g->use_number = true;
            cc_buf_puts(&b, "number");
        }
        if (v->has_minimum && !(v->number_minimum == 0)) {
            cc_buf_t w = CC_BUF_INIT;
            cc_buf_printf(&w, "minimum %s not carried by the grammar (a bound of a JSON number "
                              "has no finite spelling%s)",
                          v->minimum_text ? v->minimum_text : "?",
                          nonneg ? "; its sign is carried" : "");
            note(g, path, &w);
        }
        if (v->has_maximum) {
            cc_buf_t w = CC_BUF_INIT;
            cc_buf_printf(&w, "maximum %s not carried by the grammar (a bound of a JSON number "
                              "has no finite spelling)", v->maximum_text ? v->maximum_text : "?");
            note(g, path, &w);
        }
        break;
    }
    case CONTRACTC_TYPE_BOOLEAN:
        g->use_boolean = true;
        cc_buf_puts(&b, "boolean");
        break;
    case CONTRACTC_TYPE_DATE:
        g->use_date = true;
        cc_buf_puts(&b, "\"\\\"\" date \"\\\"\"");
        break;
    case CONTRACTC_TYPE_DATETIME:
        g->use_datetime = true;
        cc_buf_puts(&b, "\"\\\"\" date-time \"\\\"\"");
        break;
    case CONTRACTC_TYPE_ENUM: {
        const cc_enum_t *e = v->enumeration;
        cc_buf_putc(&b, '(');
        for (size_t i = 0; e && i < e->count; i++) {
            if (i)
                cc_buf_puts(&b, " | ");
            json_lit(&b, e->values[i]);
        }
        cc_buf_putc(&b, ')');
        break;
    }
    case CONTRACTC_TYPE_OBJECT:
        emit_object(g, head, v->object, base, path);
        return;
    case CONTRACTC_TYPE_UNION:
        emit_union(g, head, v, base, path);
        return;
    case CONTRACTC_TYPE_VALUE_UNION:
        emit_value_union(g, head, v, base, path);
        return;
    case CONTRACTC_TYPE_ARRAY: {
        cc_buf_t ib = CC_BUF_INIT, ip = CC_BUF_INIT;
        bool grounded_item = v->items->type == CONTRACTC_TYPE_STRING && v->items->grounded;
        cc_buf_printf(&ib, "%s%s-item", grounded_item ? CC_GBNF_GROUNDED_PREFIX : "", base);
        cc_buf_printf(&ip, "%s[*]", path);
        size_t item = new_rule(g, ib.data ? ib.data : base);
        if (ib.failed || ip.failed)
            g->oom = true;
        uint32_t min = v->has_min_items ? v->min_items : 0;
        bool bounded = v->has_max_items;
        uint32_t max = v->has_max_items ? v->max_items : UINT32_MAX;
        if (bounded && max >= CC_GBNF_MAX_REPETITION) {
            note_limit(g, path, "max_items", max);
            bounded = false;
            max = UINT32_MAX;
        }
        if (min >= CC_GBNF_MAX_REPETITION) {
            note_limit(g, path, "min_items", min);
            min = 0;
        }
        /* items that may be null (docs/contract-language.md §4.6): item | "null" */
        cc_buf_t nb = CC_BUF_INIT;
        if (v->items->nullable) {
            cc_buf_printf(&nb, "(%s | \"null\")", rule_name(g, item));
            if (nb.failed)
                g->oom = true;
        }
        const char *in = nb.data ? nb.data : rule_name(g, item);
        cc_buf_puts(&b, "\"[\" ws ");
        if (!bounded || max > 0) {
            if (min == 0)
                cc_buf_putc(&b, '(');
            cc_buf_puts(&b, in);
            if (!bounded || max > 1) {
                cc_buf_printf(&b, " (ws \",\" ws %s)", in);
                repeat(&b, min > 0 ? min - 1 : 0, bounded ? max - 1 : UINT32_MAX);
            }
            if (min == 0)
                cc_buf_puts(&b, ")?");
            cc_buf_puts(&b, " ws ");
        }
        cc_buf_puts(&b, "\"]\"");
        cc_buf_free(&nb);
        set_body(g, head, &b);
        if (!g->oom && grounded_item) {
            cc_buf_t w = CC_BUF_INIT, phrase = CC_BUF_INIT, sb = CC_BUF_INIT;
            cc_phrase_grounded(&phrase, g->m);
            cc_buf_printf(&w, "grounded (%s) not carried by the grammar (contractc_gbnf_grounded() "
                              "carries it for one source text)", phrase.data ? phrase.data : "");
            cc_buf_free(&phrase);
            note(g, ip.data ? ip.data : path, &w);
            cc_buf_printf(&sb, "%s-item", base);
            emit_value(g, item, v->items, sb.data ? sb.data : base, ip.data ? ip.data : path);
            cc_buf_free(&sb);
        } else if (!g->oom) {
            emit_value(g, item, v->items, rule_name(g, item), ip.data ? ip.data : path);
        }
        cc_buf_free(&ib);
        cc_buf_free(&ip);
        return;
    }
    case CONTRACTC_TYPE_MAP: {
        /* docs/contract-language.md §4.12: "{" entry ("," entry){min-1,max-1} "}",
         * an entry a key (a JSON string, through the key_pattern's DFA when
         * there is one) then ":" then the value's grammar */
        cc_buf_t kb = CC_BUF_INIT, vb = CC_BUF_INIT, eb = CC_BUF_INIT, vp = CC_BUF_INIT;
        cc_buf_printf(&eb, "%s-entry", base);
        cc_buf_printf(&kb, "%s-key", base);
        cc_buf_printf(&vb, "%s-value", base);
        cc_buf_printf(&vp, "%s.*", path);
        size_t entry = new_rule(g, eb.data ? eb.data : base);
        size_t key = new_rule(g, kb.data ? kb.data : base);
        size_t value = new_rule(g, vb.data ? vb.data : base);
        if (eb.failed || kb.failed || vb.failed || vp.failed)
            g->oom = true;
        uint32_t min = v->has_min_items ? v->min_items : 0;
        bool bounded = v->has_max_items;
        uint32_t max = v->has_max_items ? v->max_items : UINT32_MAX;
        if (bounded && max >= CC_GBNF_MAX_REPETITION) {
            note_limit(g, path, "max_entries", max);
            bounded = false;
            max = UINT32_MAX;
        }
        if (min >= CC_GBNF_MAX_REPETITION) {
            note_limit(g, path, "min_entries", min);
            min = 0;
        }
        const char *en = rule_name(g, entry);
        cc_buf_puts(&b, "\"{\" ws ");
        if (!bounded || max > 0) {
            if (min == 0)
                cc_buf_putc(&b, '(');
            cc_buf_puts(&b, en);
            if (!bounded || max > 1) {
                cc_buf_printf(&b, " (ws \",\" ws %s)", en);
                repeat(&b, min > 0 ? min - 1 : 0, bounded ? max - 1 : UINT32_MAX);
            }
            if (min == 0)
                cc_buf_puts(&b, ")?");
            cc_buf_puts(&b, " ws ");
        }
        cc_buf_puts(&b, "\"}\"");
        set_body(g, head, &b);
        cc_buf_t e = CC_BUF_INIT;
        cc_buf_printf(&e, "%s ws \":\" ws %s", rule_name(g, key), rule_name(g, value));
        set_body(g, entry, &e);
        if (!g->oom && (v->has_max_items ? v->max_items : 2) > 1) {
            cc_buf_t w = CC_BUF_INIT;
            cc_buf_puts(&w, "distinct keys not carried by the grammar (a context-free grammar "
                            "cannot exclude a key written twice)");
            note(g, path, &w);
        }
        if (!g->oom && v->dfa) {
            emit_pattern(g, key, rule_name(g, key), v->dfa, 0, false, 0);
        } else if (!g->oom) {
            cc_buf_t kbody = CC_BUF_INIT;
            g->use_char = true;
            cc_buf_puts(&kbody, "\"\\\"\" char* \"\\\"\"");
            set_body(g, key, &kbody);
        }
        if (!g->oom && v->items->type == CONTRACTC_TYPE_STRING && v->items->grounded) {
            cc_buf_t w = CC_BUF_INIT, phrase = CC_BUF_INIT;
            cc_phrase_grounded(&phrase, g->m);
            cc_buf_printf(&w, "grounded (%s) not carried by the grammar (a map's values are "
                              "not substituted by contractc_gbnf_grounded())",
                          phrase.data ? phrase.data : "");
            cc_buf_free(&phrase);
            note(g, vp.data ? vp.data : path, &w);
        }
        if (!g->oom)
            emit_value(g, value, v->items, rule_name(g, value), vp.data ? vp.data : path);
        cc_buf_free(&eb);
        cc_buf_free(&kb);
        cc_buf_free(&vb);
        cc_buf_free(&vp);
        return;
    }
    case CONTRACTC_TYPE_JSON: {
        /* docs/contract-language.md §4.14: any JSON value, the reader's
         * strings (char) and numbers of the JSON grammar alone */
        g->use_json = g->use_char = true;
        cc_buf_puts(&b, "json-value");
        cc_buf_t w = CC_BUF_INIT;
        cc_buf_printf(&w, "distinct keys in its objects and nesting within reply.max_depth %" PRIu32
                          " not carried by the grammar (a context-free grammar cannot exclude a "
                          "key written twice; json-value nests without a bound)",
                      g->m->max_depth);
        note(g, path, &w);
        if (v->has_max_length) {
            cc_buf_t m = CC_BUF_INIT;
            cc_buf_printf(&m, "max_bytes %" PRIu32 " not carried by the grammar (the length of "
                              "a value's text has no bound in it)", v->max_length);
            note(g, path, &m);
        }
        break;
    }
    default:
        cc_buf_puts(&b, "[^\\x00-\\U0010FFFF]");
        break;
    }
    set_body(g, head, &b);
}

/* ---- objects and nullable groups ------------------------------------------- */

/* The field index of a rule's path when it names a field of `o` itself,
 * else SIZE_MAX. */
static size_t own_field(const cc_object_t *o, const cc_path_t *p)
{
    if (p->step_count != 1)
        return SIZE_MAX;
    const cc_field_t *f = cc_path_field(o, p);
    for (size_t i = 0; f && i < o->field_count; i++)
        if (&o->fields[i] == f)
            return i;
    return SIZE_MAX;
}

static bool is_group(cc_rule_kind_t k)
{
    return k == CC_RULE_ALL_OR_NONE || k == CC_RULE_AT_MOST_ONE || k == CC_RULE_EXACTLY_ONE;
}

/* Whether the set/null choice `set` (bit i: group field i set) keeps rule r. */
static bool group_holds(const cc_object_t *o, const cc_rule_t *r, const size_t *group,
                        size_t gn, uint32_t set)
{
    size_t n = 0;
    for (size_t i = 0; i < r->field_count; i++) {
        size_t f = own_field(o, &r->fields[i]);
        for (size_t k = 0; k < gn; k++)
            if (group[k] == f && (set >> k & 1u))
                n++;
    }
    switch (r->kind) {
    case CC_RULE_ALL_OR_NONE: return n == 0 || n == r->field_count;
    case CC_RULE_AT_MOST_ONE: return n <= 1;
    case CC_RULE_EXACTLY_ONE: return n == 1;
    default: return true;
    }
}

/* One member, `"key" ws ":" ws VALUE`, into b: VALUE is the field's rule,
 * "null", or either, as state says (-1 free, 0 null, 1 set). */
static void put_member(gb_t *g, cc_buf_t *b, const cc_field_t *f, size_t rule, int state)
{
    cc_buf_t key = CC_BUF_INIT;
    cc_buf_json_string(&key, f->name, strlen(f->name));
    if (key.failed)
        g->oom = true;
    else
        lit(b, key.data, key.len);
    cc_buf_free(&key);
    cc_buf_puts(b, " ws \":\" ws ");
    if (state == 1)
        cc_buf_puts(b, rule_name(g, rule));
    else if (state == 0)
        cc_buf_puts(b, "\"null\"");
    else
        cc_buf_printf(b, "(%s | \"null\")", rule_name(g, rule));
}

/* The object `{...}` of one alternative (set: the group fields set, bit k
 * for group[k]) when some keys are optional (v2, docs/grammar.md): the
 * members in contract order, each optional one left out or written.  A
 * key in state "not set" is null or (optional) absent; one that is not
 * nullable is then only absent.  With a required member r: every optional
 * member before r as (m ws "," ws)?, after r as (ws "," ws m)?.  With
 * none: nothing, or the first member written then the rest as above, each
 * rest a rule of its own (HEAD-after-N) so the grammar stays linear. */
static void emit_optional_members(gb_t *g, size_t head, const cc_object_t *o, const size_t *fr,
                                  const size_t *group, size_t gn, uint32_t set, cc_buf_t *b)
{
    size_t n = o->field_count;
    char **m = calloc(n ? n : 1, sizeof *m); /* the member text; NULL: left out */
    bool *req = calloc(n ? n : 1, sizeof *req);
    if (!m || !req) {
        free(m);
        free(req);
        g->oom = true;
        return;
    }
    size_t first_req = SIZE_MAX, first = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        const cc_field_t *f = &o->fields[i];
        int gstate = -1; /* the group's: -1 none, 0 not set, 1 set */
        for (size_t k = 0; k < gn; k++)
            if (group[k] == i)
                gstate = (int)(set >> k & 1u);
        if (f->optional && !f->nullable && gstate == 0)
            continue; /* not set, and never null: absent */
        req[i] = !f->optional || gstate == 1;
        int state = f->nullable ? gstate : 1; /* the value: -1 either, 0 null, 1 set */
        cc_buf_t mb = CC_BUF_INIT;
        put_member(g, &mb, f, fr[i], state);
        m[i] = cc_buf_take(&mb, NULL);
        if (!m[i])
            g->oom = true;
        if (req[i] && first_req == SIZE_MAX)
            first_req = i;
        if (first == SIZE_MAX)
            first = i;
    }
    cc_buf_puts(b, "\"{\" ws ");
    if (first_req != SIZE_MAX) {
        for (size_t i = 0; i < n; i++) {
            if (!m[i])
                continue;
            if (i < first_req)
                cc_buf_printf(b, "(%s ws \",\" ws) ", m[i]);
            else if (i == first_req)
                cc_buf_puts(b, m[i]);
            else if (req[i])
                cc_buf_printf(b, " ws \",\" ws %s", m[i]);
            else
                cc_buf_printf(b, " (ws \",\" ws %s)?", m[i]);
        }
    } else {
        /* after[i]: the rule of the members after member i (SIZE_MAX: none) */
        size_t *after = calloc(n ? n : 1, sizeof *after);
        if (!after)
            g->oom = true;
        size_t next = SIZE_MAX; /* the rule of the members from i on */
        for (size_t i = n; after && i-- > 0;) {
            after[i] = next;
            if (!m[i] || i == first)
                continue; /* the first member is never after another */
            cc_buf_t rb = CC_BUF_INIT, nb = CC_BUF_INIT;
            cc_buf_printf(&rb, "(ws \",\" ws %s)?", m[i]);
            if (next != SIZE_MAX)
                cc_buf_printf(&rb, " %s", rule_name(g, next));
            cc_buf_printf(&nb, "%s-after", rule_name(g, head));
            size_t r = nb.failed ? SIZE_MAX : new_rule(g, nb.data);
            cc_buf_free(&nb);
            set_body(g, r, &rb);
            next = r;
        }
        bool any = false;
        for (size_t i = 0; after && i < n; i++) {
            if (!m[i])
                continue;
            cc_buf_puts(b, any ? " | " : "(");
            any = true;
            cc_buf_puts(b, m[i]);
            if (after[i] != SIZE_MAX)
                cc_buf_printf(b, " %s", rule_name(g, after[i]));
        }
        if (any)
            cc_buf_puts(b, ")?");
        free(after);
    }
    cc_buf_puts(b, " ws \"}\"");
    for (size_t i = 0; i < n; i++)
        free(m[i]);
    free(m);
    free(req);
}

static void emit_object(gb_t *g, size_t head, const cc_object_t *o, const char *base,
                        const char *path)
{
    /* the fields' rules, and their JSON paths for notes */
    size_t *fr = calloc(o->field_count + 1, sizeof *fr);
    char **bases = calloc(o->field_count + 1, sizeof *bases);
    if (!fr || !bases) {
        free(fr);
        free(bases);
        g->oom = true;
        return;
    }
    for (size_t i = 0; i < o->field_count; i++) {
        cc_buf_t nb = CC_BUF_INIT;
        if (base[0]) {
            cc_buf_puts(&nb, base);
            cc_buf_putc(&nb, '-');
        }
        name_part(&nb, o->fields[i].name);
        if (nb.len == 0 || (base[0] && nb.data[nb.len - 1] == '-'))
            cc_buf_puts(&nb, "field");
        if (o->fields[i].value.grounded) {
            /* the grounded value's own rule; its sub-rules keep the plain base */
            cc_buf_t gb2 = CC_BUF_INIT;
            cc_buf_printf(&gb2, "%s%s", CC_GBNF_GROUNDED_PREFIX, nb.data ? nb.data : "");
            fr[i] = new_rule(g, gb2.data ? gb2.data : "field");
            cc_buf_free(&gb2);
            bases[i] = cc_buf_take(&nb, NULL);
        } else {
            fr[i] = new_rule(g, nb.data ? nb.data : "field");
            bases[i] = cc_strdup(rule_name(g, fr[i]));
        }
        if (!bases[i])
            g->oom = true;
        cc_buf_free(&nb);
    }

    /* the nullable groups this object's rules make */
    size_t group[32], gn = 0;
    bool groups_carried = true;
    for (size_t r = 0; r < o->rule_count; r++) {
        if (!is_group(o->rules[r].kind))
            continue;
        for (size_t i = 0; i < o->rules[r].field_count; i++) {
            size_t f = own_field(o, &o->rules[r].fields[i]);
            bool seen = false;
            for (size_t k = 0; k < gn; k++)
                seen = seen || group[k] == f;
            if (f == SIZE_MAX || (!seen && gn == 16)) {
                groups_carried = false;
            } else if (!seen) {
                group[gn++] = f;
            }
        }
    }
    uint32_t alts[CC_GBNF_MAX_ALTERNATIVES];
    size_t alt_count = 0;
    if (gn && groups_carried) {
        for (uint32_t set = 0; set < (1u << gn) && groups_carried; set++) {
            bool ok = true;
            for (size_t k = 0; k < gn && ok; k++) /* unset: null, or absent (optional) */
                ok = o->fields[group[k]].nullable || o->fields[group[k]].optional ||
                     (set >> k & 1u);
            for (size_t r = 0; r < o->rule_count && ok; r++)
                ok = group_holds(o, &o->rules[r], group, gn, set);
            if (!ok)
                continue;
            if (alt_count == CC_GBNF_MAX_ALTERNATIVES)
                groups_carried = false;
            else
                alts[alt_count++] = set;
        }
    }
    if (!groups_carried)
        gn = 0;
    if (gn == 0) {
        alt_count = 1;
        alts[0] = 0;
    }
    /* rules the grammar does not carry */
    for (size_t r = 0; r < o->rule_count; r++) {
        const cc_rule_t *rule = &o->rules[r];
        if (is_group(rule->kind) && groups_carried)
            continue;
        char *sentence = cc_rule_sentence(o, rule);
        cc_buf_t w = CC_BUF_INIT;
        cc_buf_printf(&w, "rule %s \"%s\" not carried by the grammar (%s)", rule->id,
                      sentence ? sentence : "",
                      is_group(rule->kind) ? "more alternatives than the grammar spells out"
                                           : "no form in a context-free grammar");
        if (!sentence)
            g->oom = true;
        free(sentence);
        note(g, path, &w);
    }

    bool any_optional = false;
    for (size_t i = 0; i < o->field_count; i++)
        any_optional |= o->fields[i].optional;
    cc_buf_t b = CC_BUF_INIT;
    if (alt_count > 1)
        cc_buf_puts(&b, "(\n    ");
    for (size_t a = 0; a < alt_count && any_optional; a++) {
        if (a)
            cc_buf_puts(&b, "\n  | ");
        emit_optional_members(g, head, o, fr, group, gn, alts[a], &b);
    }
    for (size_t a = 0; a < alt_count && !any_optional; a++) {
        if (a)
            cc_buf_puts(&b, "\n  | ");
        cc_buf_puts(&b, "\"{\" ws ");
        for (size_t i = 0; i < o->field_count; i++) {
            const cc_field_t *f = &o->fields[i];
            if (i)
                cc_buf_puts(&b, " ws \",\" ws ");
            cc_buf_t key = CC_BUF_INIT;
            cc_buf_json_string(&key, f->name, strlen(f->name));
            if (key.failed)
                g->oom = true;
            else
                lit(&b, key.data, key.len);
            cc_buf_free(&key);
            cc_buf_puts(&b, " ws \":\" ws ");
            int state = -1; /* -1 free (value or null), 0 null, 1 set */
            for (size_t k = 0; k < gn; k++)
                if (group[k] == i)
                    state = (int)(alts[a] >> k & 1u);
            if (!f->nullable)
                state = 1;
            if (state == 1)
                cc_buf_puts(&b, rule_name(g, fr[i]));
            else if (state == 0)
                cc_buf_puts(&b, "\"null\"");
            else
                cc_buf_printf(&b, "(%s | \"null\")", rule_name(g, fr[i]));
        }
        cc_buf_puts(&b, " ws \"}\"");
    }
    if (alt_count > 1)
        cc_buf_puts(&b, "\n  )");
    set_body(g, head, &b);

    for (size_t i = 0; i < o->field_count && !g->oom; i++) {
        const cc_field_t *f = &o->fields[i];
        cc_buf_t fp = CC_BUF_INIT;
        path_key(&fp, path, f->name);
        if (fp.failed) {
            g->oom = true;
            break;
        }
        if (f->value.grounded) {
            cc_buf_t w = CC_BUF_INIT, phrase = CC_BUF_INIT;
            cc_phrase_grounded(&phrase, g->m);
            cc_buf_printf(&w, "grounded (%s) not carried by the grammar (contractc_gbnf_grounded() "
                              "carries it for one source text)", phrase.data ? phrase.data : "");
            cc_buf_free(&phrase);
            note(g, fp.data, &w);
        }
        /* the rule's own name is the base of its sub-rules */
        emit_value(g, fr[i], &f->value, bases[i], fp.data);
        cc_buf_free(&fp);
    }
    for (size_t i = 0; i < o->field_count; i++)
        free(bases[i]);
    free(bases);
    free(fr);
}

/* ---- shared rules ---------------------------------------------------------- */

static const char char_rules[] =
    "char ::= [^\"\\\\\\x00-\\x1F] | \"\\\\\" char-escape\n"
    "char-escape ::= [\"\\\\/bfnrt] | \"u\" ([1-9a-cA-CeEfF] hex{3} | [dD] [0-7] hex{2} | \"0\" "
    "([1-9a-fA-F] hex{2} | \"0\" ([1-9a-fA-F] hex | \"0\" [1-9a-fA-F])) | [dD] [89abAB] hex{2} "
    "\"\\\\u\" [dD] [c-fC-F] hex{2})\n"
    "hex ::= [0-9a-fA-F]\n";

/* A JSON number whose double is finite, and zero or at least the smallest
 * subnormal (the parser refuses an overflow and a non-zero underflow):
 * plain forms of up to 21 integer and 24 fraction digits, or one digit,
 * up to 16 more and an exponent: any exponent from -323 to 307, 308 below
 * 1.79, -324 from 2.5 (ECMAScript's canonical texts among them). */
static const char number_rules[] =
    "number-body ::= (\"0\" | [1-9] [0-9]{0,20}) (\".\" [0-9]{1,24})? | [1-9] (\".\" "
    "[0-9]{1,16})? [eE] (\"+\"? ([0-9] | [1-9] [0-9] | [12] [0-9]{2} | \"30\" [0-7]) | \"-\" ([0-9] | "
    "[1-9] [0-9] | [12] [0-9]{2} | \"3\" [01] [0-9] | \"32\" [0-3])) | \"1\" (\".\" ([0-6] "
    "[0-9]{0,15} | \"7\" ([0-8] [0-9]{0,14})?))? [eE] \"+\"? \"308\" | ([3-9] (\".\" [0-9]{1,16})? "
    "| \"2.\" [5-9] [0-9]{0,15}) [eE] \"-324\"\n";

/* Any JSON value (docs/contract-language.md §4.14): RFC 8259's grammar
 * with the reader's strings (char: no \u0000, no lone surrogate) and its
 * numbers by the grammar alone, as a json value's are read. */
static const char json_rules[] =
    "json-value ::= \"{\" ws (json-member (ws \",\" ws json-member)* ws)? \"}\" | \"[\" ws "
    "(json-value (ws \",\" ws json-value)* ws)? \"]\" | \"\\\"\" char* \"\\\"\" | json-number | "
    "\"true\" | \"false\" | \"null\"\n"
    "json-member ::= \"\\\"\" char* \"\\\"\" ws \":\" ws json-value\n"
    "json-number ::= \"-\"? (\"0\" | [1-9] [0-9]*) (\".\" [0-9]+)? ([eE] [-+]? [0-9]+)?\n";

static const char date_rules[] =
    "date ::= year \"-\" ((\"0\" [13578] | \"1\" [02]) \"-\" (\"0\" [1-9] | [12] [0-9] | \"3\" [01])"
    " | (\"0\" [469] | \"11\") \"-\" (\"0\" [1-9] | [12] [0-9] | \"30\") | \"02-\" (\"0\" [1-9] | \"1\" "
    "[0-9] | \"2\" [0-8])) | leap-year \"-02-29\"\n"
    "year ::= [0-9]{4}\n"
    "leap-year ::= [0-9]{2} (\"0\" [48] | [2468] [048] | [13579] [26]) | ([02468] [048] | [13579] "
    "[26]) \"00\"\n";

static const char datetime_rules[] =
    "date-time ::= date \"T\" time (\".\" [0-9]{1,9})? (\"Z\" | [+-] two-digit-hour \":\" minute)\n"
    "time ::= two-digit-hour \":\" minute \":\" minute\n"
    "two-digit-hour ::= [01] [0-9] | \"2\" [0-3]\n"
    "minute ::= [0-5] [0-9]\n";

bool cc_emit_gbnf(const cc_contract_t *m, char **grammar, size_t *grammar_len, char **notes,
                  size_t *notes_len)
{
    *grammar = *notes = NULL;
    gb_t g;
    memset(&g, 0, sizeof g);
    g.m = m;
    cc_buf_t nb = CC_BUF_INIT;
    name_part(&nb, m->name);
    if (nb.len == 0)
        cc_buf_puts(&nb, "record");
    size_t top = new_rule(&g, nb.data ? nb.data : "record");
    cc_buf_free(&nb);
    if (top != SIZE_MAX)
        emit_object(&g, top, &m->root, "", "$");
    {
        cc_buf_t w = CC_BUF_INIT;
        cc_buf_printf(&w, "reply.max_bytes %" PRIu64 " not carried by the grammar (a reply's "
                          "size has no bound in it: cap the model's tokens)", m->max_bytes);
        note(&g, "$", &w);
    }

    cc_buf_t out = CC_BUF_INIT;
    cc_buf_printf(&out, "root ::= ws %s ws\n", rule_name(&g, top));
    for (size_t i = 0; i < g.count; i++)
        cc_buf_printf(&out, "%s ::= %s\n", g.rules[i].name, g.rules[i].body ? g.rules[i].body : "\"\"");
    cc_buf_printf(&out, "ws ::= [ \\t\\n\\r]{0,%d}\n", WS_MAX);
    if (g.use_boolean)
        cc_buf_puts(&out, "boolean ::= \"true\" | \"false\"\n");
    if (g.use_char)
        cc_buf_puts(&out, char_rules);
    if (g.use_date || g.use_datetime)
        cc_buf_puts(&out, date_rules);
    if (g.use_datetime)
        cc_buf_puts(&out, datetime_rules);
    if (g.use_number)
        cc_buf_puts(&out, "number ::= \"-\"? number-body\n");
    if (g.use_number_pos)
        cc_buf_puts(&out, "number-nonneg ::= number-body\n");
    if (g.use_number || g.use_number_pos)
        cc_buf_puts(&out, number_rules);
    if (g.use_json)
        cc_buf_puts(&out, json_rules);

    cc_buf_t nt = CC_BUF_INIT;
    cc_buf_printf(&nt, "# %s.gbnf: what the grammar does not carry (docs/grammar.md).\n"
                       "# A reply the grammar admits may still be rejected for these; the parser "
                       "enforces every one.\n", m->name);
    if (g.notes)
        qsort(g.notes, g.note_count, sizeof *g.notes, note_cmp);
    for (size_t i = 0; i < g.note_count; i++)
        cc_buf_printf(&nt, "%s\n", g.notes[i]);

    bool ok = !g.oom && !out.failed && !nt.failed;
    if (ok) {
        *grammar = cc_buf_take(&out, grammar_len);
        *notes = cc_buf_take(&nt, notes_len);
        ok = *grammar && *notes;
    }
    if (!ok) {
        free(*grammar);
        free(*notes);
        *grammar = *notes = NULL;
    }
    cc_buf_free(&out);
    cc_buf_free(&nt);
    for (size_t i = 0; i < g.count; i++) {
        free(g.rules[i].name);
        free(g.rules[i].body);
    }
    free(g.rules);
    for (size_t i = 0; i < g.note_count; i++)
        free(g.notes[i]);
    free(g.notes);
    return ok;
}
