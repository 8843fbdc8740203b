/* SPDX-License-Identifier: MIT */
/*
 * dialect_diff.c - the C half of the differential test against ajv
 * (tests/schema/differential.mjs).  Built once per contract, linked with
 * that contract's generated parser (DIFF_CONTRACT names its descriptor, e.g.
 * refund_request_contract).
 *
 *   dialect_diff [--count N] [--seed S] [--regressions DIR]
 *
 * Writes one JSON line per reply to stdout:
 *
 *   {"i": N, "class": C, "tag": T, "where": PATH, "parser": true|false,
 *    "kinds": "type,missing", "reply": BASE64, "pad": P, "source": BASE64,
 *    "canonical": JSON-TEXT (only when accepted)}
 *
 * Each reply is built from the contract's descriptor tables by a seeded
 * generator and tagged at construction: `class` is what it exercises (a
 * valid reply or one mutation class), `tag` the deliberate difference it
 * is built to show ("" when parser and ajv must agree).  The reply is the
 * bytes BASE64 followed by P spaces (so a reply over max_bytes need not
 * travel through the pipe); `source` is the text grounded values were
 * checked against.  tests/schema/differential.mjs runs ajv on the same
 * bytes and compares.  Replies saved as regression cases
 * (tests/data/differential/regressions/NAME-*.json) are replayed first.
 *
 * Deliberate differences (tags), and who accepts:
 *   integer_fraction, duplicate_key, nul_escape, lone_surrogate,
 *   invalid_utf8, limit, bom, decimal_bounds, date_forms, underflow,
 *   grounding, rule: the parser rejects, ajv accepts.
 *   fence: the parser accepts (reply.fence: allow), ajv's JSON.parse rejects.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#include <cjson/cJSON.h>

#include "contractc/contractc.h"

#ifndef DIFF_CONTRACT
#error "define DIFF_CONTRACT as the contract descriptor's name"
#endif
extern const contractc_contract_t DIFF_CONTRACT;

/* ---- random numbers (splitmix64: seeded, the same on every platform) ---- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [0, n). */
static uint64_t below(uint64_t n) { return n ? rnd() % n : 0; }
static bool chance(unsigned percent) { return below(100) < percent; }
static int64_t between(int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (int64_t)below((uint64_t)(hi - lo) + 1);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "dialect_diff: out of memory\n");
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "dialect_diff: out of memory\n");
        exit(2);
    }
    return p;
}

/* ---- a growable byte buffer --------------------------------------------- */

typedef struct buf {
    char *data;
    size_t len, cap;
} buf_t;

static void bput(buf_t *b, const void *s, size_t n)
{
    if (n > SIZE_MAX / 4 - b->len) {   /* no test writes that much: a bug */
        fprintf(stderr, "dialect_diff: buffer size overflow\n");
        exit(2);
    }
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->data = xrealloc(b->data, b->cap);
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void bputs(buf_t *b, const char *s) { bput(b, s, strlen(s)); }

static void bprintf(buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>
static void bprintf(buf_t *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        bput(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* ---- a small JSON tree with the descriptor each node was made for ------- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_OBJ, J_ARR };
/* Injections at serialisation, inside a string value. */
enum { INJ_NONE, INJ_NUL, INJ_SURROGATE, INJ_BAD_UTF8 };

typedef struct jv jv_t;
struct jv {
    int t;
    char *text;                  /* J_STR: UTF-8 bytes; J_NUM: the token */
    size_t len;
    bool b;
    jv_t **kids;                 /* J_OBJ members / J_ARR items */
    char **keys;                 /* J_OBJ */
    size_t n;
    const contractc_value_t *val;        /* what it was generated for */
    const contractc_field_t *field;      /* the member's field (objects) */
    int inject;
    long dup;                    /* J_OBJ: member index written twice, or -1 */
    bool absent;                 /* an optional member left out (kept in place, so
                                    member i stays field i), not written */
    const contractc_value_t *among; /* the value union `val` is an alternative of, or NULL */
};

static jv_t *jnew(int t)
{
    jv_t *v = xmalloc(sizeof *v);
    memset(v, 0, sizeof *v);
    v->t = t;
    v->dup = -1;
    return v;
}

static void jfree(jv_t *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->n; i++) {
        jfree(v->kids[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->kids);
    free(v->keys);
    free(v->text);
    free(v);
}

static jv_t *jstr(const char *s, size_t n)
{
    jv_t *v = jnew(J_STR);
    v->text = xmalloc(n + 1);
    memcpy(v->text, s, n);
    v->text[n] = '\0';
    v->len = n;
    return v;
}

static jv_t *jnum(const char *token) { jv_t *v = jstr(token, strlen(token)); v->t = J_NUM; return v; }

static void jpush(jv_t *o, const char *key, jv_t *kid)
{
    o->kids = xrealloc(o->kids, (o->n + 1) * sizeof *o->kids);
    if (o->t == J_OBJ) {
        o->keys = xrealloc(o->keys, (o->n + 1) * sizeof *o->keys);
        o->keys[o->n] = strdup(key ? key : "");
        if (!o->keys[o->n])
            exit(2);
    }
    o->kids[o->n++] = kid;
}

static jv_t *jcopy(const jv_t *v)
{
    jv_t *c = jnew(v->t);
    *c = *v;
    c->text = NULL;
    c->kids = NULL;
    c->keys = NULL;
    c->n = 0;
    if (v->text) {
        c->text = xmalloc(v->len + 1);
        memcpy(c->text, v->text, v->len + 1);
    }
    for (size_t i = 0; i < v->n; i++)
        jpush(c, v->keys ? v->keys[i] : NULL, jcopy(v->kids[i]));
    return c;
}

/* ---- serialisation ---------------------------------------------------- */

static const char *ws(bool pretty)
{
    if (!pretty)
        return "";
    static const char *const spaces[] = {" ", "\n  ", "\t", "\r\n", "  "};
    return spaces[below(5)];
}

static void put_string(buf_t *b, const char *s, size_t n, int inject)
{
    bputs(b, "\"");
    size_t at = inject ? (size_t)below(n + 1) : n + 1;
    for (size_t i = 0; i <= n; i++) {
        if (i == at) {
            if (inject == INJ_NUL)
                bputs(b, "\\u0000");
            else if (inject == INJ_SURROGATE)
                bputs(b, chance(50) ? "\\ud800" : "\\udfff");
            else if (inject == INJ_BAD_UTF8) {
                /* one stray byte, or an overlong '/' (arguments are
                 * evaluated in no fixed order: draw first) */
                bool overlong = chance(50);
                bput(b, overlong ? "\xc0\xaf" : "\xff", overlong ? 2 : 1);
            }
        }
        if (i == n)
            break;
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            bprintf(b, "\\%c", c);
        } else if (c < 0x20) {
            bprintf(b, "\\u%04x", c);
        } else if (c == 'e' && chance(10)) {
            bputs(b, "\\u0065"); /* an escape the reader must decode */
        } else if (c == '/' && chance(50)) {
            bputs(b, "\\/");
        } else {
            bput(b, &s[i], 1);
        }
    }
    bputs(b, "\"");
}

static void serialise(buf_t *b, const jv_t *v, bool pretty)
{
    switch (v->t) {
    case J_NULL: bputs(b, "null"); break;
    case J_BOOL: bputs(b, v->b ? "true" : "false"); break;
    case J_NUM: bput(b, v->text, v->len); break;
    case J_STR: put_string(b, v->text, v->len, v->inject); break;
    case J_ARR:
        bputs(b, "[");
        for (size_t i = 0; i < v->n; i++) {
            if (i)
                bputs(b, ",");
            bputs(b, ws(pretty));
            serialise(b, v->kids[i], pretty);
        }
        bputs(b, "]");
        break;
    case J_OBJ:
        bputs(b, "{");
        bool first = true;
        for (size_t i = 0; i < v->n; i++) {
            size_t times = v->kids[i]->absent ? 0 : (long)i == v->dup ? 2 : 1;
            for (size_t k = 0; k < times; k++) {
                if (!first)
                    bputs(b, ",");
                first = false;
                bputs(b, ws(pretty));
                put_string(b, v->keys[i], strlen(v->keys[i]), INJ_NONE);
                bputs(b, pretty ? ": " : ":");
                serialise(b, v->kids[i], pretty);
            }
        }
        bputs(b, ws(pretty));
        bputs(b, "}");
        break;
    }
}

/* ---- value generation ---------------------------------------------------- */

/* Code points for strings: ASCII, 2-, 3- and 4-byte UTF-8 (an astral
 * character is one code point for contractc and for ajv). */
static const char *const alphabet[] = {"a", "b", "Z", "7", " ", "-", "\"", "\\", "/", "\n",
                                       "e", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                       "\xf0\x9d\x84\x9e", "x", "q", "'"};

static void random_text(buf_t *b, uint32_t cps)
{
    for (uint32_t i = 0; i < cps; i++)
        bputs(b, alphabet[below(sizeof alphabet / sizeof alphabet[0])]);
}

static bool utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        size_t k;
        uint32_t cp;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) { k = 1; cp = c & 0x1F; }
        else if (c >= 0xE0 && c <= 0xEF) { k = 2; cp = c & 0x0F; }
        else if (c >= 0xF0 && c <= 0xF4) { k = 3; cp = c & 0x07; }
        else return false;
        for (size_t j = 1; j <= k; j++) {
            if (i + j >= n || (s[i + j] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i + j] & 0x3F);
        }
        if ((k == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (k == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        i += k + 1;
    }
    return true;
}

static size_t code_points(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            c++;
    return c;
}

/* Live states of a DFA: those from which an accepting state is reachable. */
typedef struct live { const contractc_dfa_t *dfa; uint8_t *live; } live_t;
static live_t lives[64];
static size_t live_count;

static const uint8_t *live_of(const contractc_dfa_t *d)
{
    for (size_t i = 0; i < live_count; i++)
        if (lives[i].dfa == d)
            return lives[i].live;
    uint8_t *l = xmalloc(d->state_count);
    for (uint32_t s = 0; s < d->state_count; s++)
        l[s] = d->accepting[s];
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t s = 1; s < d->state_count; s++) {
            if (l[s])
                continue;
            for (uint32_t c = 0; c < d->class_count; c++)
                if (l[d->next[s * d->class_count + c]]) {
                    l[s] = 1;
                    changed = true;
                    break;
                }
        }
    }
    l[0] = 0;
    if (live_count < 64) {
        lives[live_count].dfa = d;
        lives[live_count++].live = l;
    }
    return l;
}

/* A random string the DFA accepts (valid UTF-8); false after many tries. */
static bool dfa_string(const contractc_dfa_t *d, buf_t *out, size_t want_cps)
{
    const uint8_t *live = live_of(d);
    for (int attempt = 0; attempt < 200; attempt++) {
        out->len = 0;
        if (out->data)
            out->data[0] = '\0';
        uint32_t s = d->start;
        for (int step = 0; step < 120; step++) {
            size_t cps = code_points(out->data ? out->data : "", out->len);
            bool stop_ok = d->accepting[s] && (want_cps ? cps >= want_cps : chance(35));
            if (stop_ok)
                break;
            unsigned char options[256];
            size_t n = 0, ascii = 0;
            for (int byte = 0; byte < 256; byte++)
                if (live[d->next[s * d->class_count + d->byte_class[byte]]]) {
                    options[n++] = (unsigned char)byte;
                    if (byte >= 0x20 && byte < 0x7f)
                        ascii++;
                }
            if (n == 0)
                break;
            unsigned char pick = options[below(n)];
            if (ascii && chance(90)) {
                size_t k = below(ascii);
                for (size_t i = 0; i < n; i++)
                    if (options[i] >= 0x20 && options[i] < 0x7f && k-- == 0) {
                        pick = options[i];
                        break;
                    }
            }
            bput(out, &pick, 1);
            s = d->next[s * d->class_count + d->byte_class[pick]];
        }
        if (d->accepting[s] && utf8_valid((const unsigned char *)out->data, out->len) &&
            (!want_cps || code_points(out->data, out->len) == want_cps))
            return true;
    }
    return false;
}

static int64_t pow10i(unsigned k)
{
    int64_t p = 1;
    while (k--)
        p *= 10;
    return p;
}

static void format_decimal(char *out, size_t cap, int64_t minor, unsigned scale)
{
    uint64_t a = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor;
    uint64_t unit = (uint64_t)pow10i(scale);
    int n = snprintf(out, cap, "%s%" PRIu64, minor < 0 ? "-" : "", a / unit);
    if (scale && n > 0 && (size_t)n + scale + 2 <= cap) {
        char *p = out + n;
        *p++ = '.';
        uint64_t f = a % unit;
        for (unsigned i = scale; i-- > 0; f /= 10)
            p[i] = (char)('0' + f % 10);
        p[scale] = '\0';
    }
}

static bool parse_decimal(const char *s, unsigned scale, int64_t *minor)
{
    bool neg = *s == '-';
    if (neg)
        s++;
    int64_t whole = 0, frac = 0;
    unsigned digits = 0;
    if (*s < '0' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9') {
        if (whole > INT64_MAX / 100)
            return false;
        whole = whole * 10 + (*s++ - '0');
    }
    if (*s == '.') {
        s++;
        while (*s >= '0' && *s <= '9' && digits < 18) {
            frac = frac * 10 + (*s++ - '0');
            digits++;
        }
    }
    if (*s || digits != scale || whole > INT64_MAX / pow10i(scale) / 2)
        return false;
    *minor = whole * pow10i(scale) + frac;
    if (neg)
        *minor = -*minor;
    return true;
}

static int days_in(int y, int m)
{
    static const int d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : d[m - 1];
}

static void random_date(char *out, size_t cap)
{
    int y = (int)between(1900, 2100);
    int m = (int)between(1, 12);
    if (chance(10)) { y = 2024; m = 2; }
    snprintf(out, cap, "%04d-%02d-%02d", y, m, (int)between(1, days_in(y, m)));
}

static void random_datetime(char *out, size_t cap)
{
    char date[16], frac[16] = "", zone[8] = "Z";
    random_date(date, sizeof date);
    if (chance(40)) {
        int digits = (int)between(1, 9);
        frac[0] = '.';
        for (int i = 1; i <= digits; i++)
            frac[i] = (char)('0' + below(10));
        frac[digits + 1] = '\0';
    }
    if (chance(50)) {
        char sign = chance(50) ? '+' : '-';
        int oh = (int)between(0, 23);
        int om = (int)between(0, 59);
        snprintf(zone, sizeof zone, "%c%02d:%02d", sign, oh, om);
    }
    int hh = (int)between(0, 23);
    int mm = (int)between(0, 59);
    int ss = (int)between(0, 59);
    snprintf(out, cap, "%sT%02d:%02d:%02d%s%s", date, hh, mm, ss, frac, zone);
}

static jv_t *gen_object(const contractc_object_t *o, int depth);

static jv_t *gen_string(const contractc_value_t *v, size_t want_cps)
{
    buf_t b = {0};
    uint32_t lo = v->min_length, hi = v->max_length;
    if (v->grounded && lo == 0)
        lo = 1; /* an empty string is never grounded */
    if (hi == CONTRACTC_UNBOUNDED || hi > lo + 10)
        hi = lo + 10;
    if (v->pattern) {
        bool ok = false;
        for (int i = 0; i < 20 && !ok; i++) {
            ok = dfa_string(v->pattern, &b, want_cps);
            size_t cps = ok ? code_points(b.data, b.len) : 0;
            ok = ok && (want_cps || (cps >= v->min_length && cps <= v->max_length));
        }
    } else {
        random_text(&b, want_cps ? (uint32_t)want_cps : (uint32_t)between(lo, hi));
    }
    jv_t *s = jstr(b.data ? b.data : "", b.len);
    free(b.data);
    s->val = v;
    return s;
}

/* Any JSON value (v2 `json`, docs/contract-language.md §4.14): scalars of
 * every JSON type and, when `containers`, arrays and objects of them (up
 * to two levels, distinct keys), small enough for the max_bytes of the
 * test contracts (scalars alone stay under 64 bytes). */
static jv_t *gen_any(bool containers, int depth)
{
    static const char *const numbers[] = {"0", "-1", "42", "2.50", "-0.5", "1e3", "1E-2",
                                          "123456789012345678901234567890"};
    unsigned pick = (unsigned)below(containers && depth < 2 ? 7 : 5);
    switch (pick) {
    case 0: return jnew(J_NULL);
    case 1: {
        jv_t *t = jnew(J_BOOL);
        t->b = chance(50);
        return t;
    }
    case 2: return jnum(numbers[below(sizeof numbers / sizeof numbers[0])]);
    case 3:
    case 4: {
        buf_t b = {0};
        random_text(&b, (uint32_t)between(0, 6));
        jv_t *t = jstr(b.data ? b.data : "", b.len);
        free(b.data);
        return t;
    }
    case 5: {
        jv_t *a = jnew(J_ARR);
        for (int64_t i = between(0, 3); i > 0; i--)
            jpush(a, NULL, gen_any(containers, depth + 1));
        return a;
    }
    default: {
        jv_t *o = jnew(J_OBJ);
        static const char *const keys[] = {"id", "a", "x-y", "$k", "note", "\xc3\xa9"};
        for (size_t i = 0, n = (size_t)between(0, 3); i < n; i++) /* pairs: distinct */
            jpush(o, keys[2 * i + (size_t)below(2)], gen_any(containers, depth + 1));
        return o;
    }
    }
}

static jv_t *gen_value(const contractc_value_t *v, int depth)
{
    char tmp[96];
    jv_t *r = NULL;
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        return gen_string(v, 0);
    case CONTRACTC_TYPE_INTEGER: {
        int64_t lo = v->minimum > -1000 ? v->minimum : -1000, hi = v->maximum < 1000 ? v->maximum : 1000;
        if (lo > hi)
            lo = hi = chance(50) ? v->minimum : v->maximum;
        int64_t x = chance(10) ? (chance(50) ? v->minimum : v->maximum) : between(lo, hi);
        snprintf(tmp, sizeof tmp, "%" PRId64, x);
        r = jnum(x == 0 && chance(10) ? "-0" : tmp);
        break;
    }
    case CONTRACTC_TYPE_NUMBER: {
        double lo = v->has_number_minimum ? v->number_minimum : -1e6;
        double hi = v->has_number_maximum ? v->number_maximum : 1e6;
        double x = lo + (hi - lo) * ((double)below(1000001) / 1e6);
        switch (below(5)) { /* the number forms a model writes */
        case 0: snprintf(tmp, sizeof tmp, "%.17g", x); break;
        case 1: snprintf(tmp, sizeof tmp, "%.3f", x); break;
        case 2: snprintf(tmp, sizeof tmp, "%g", x); break;
        case 3: snprintf(tmp, sizeof tmp, "%.4e", x); break;
        default: snprintf(tmp, sizeof tmp, "%.1E", x); break;
        }
        double back = strtod(tmp, NULL);
        if (back < lo || back > hi)
            snprintf(tmp, sizeof tmp, "%.17g", x);
        r = jnum(tmp);
        break;
    }
    case CONTRACTC_TYPE_BOOLEAN:
        r = jnew(J_BOOL);
        r->b = chance(50);
        break;
    case CONTRACTC_TYPE_DECIMAL: {
        int64_t lo = v->minimum, hi = v->maximum;
        int64_t cap = pow10i(v->scale) * 2000;
        if (lo < -cap)
            lo = v->is_signed ? -cap : 0;
        if (!v->is_signed && lo < 0)
            lo = 0;
        if (hi > cap)
            hi = cap;
        if (lo > hi)
            hi = lo;
        format_decimal(tmp, sizeof tmp, between(lo, hi), v->scale);
        r = jstr(tmp, strlen(tmp));
        break;
    }
    case CONTRACTC_TYPE_ENUM: {
        const contractc_enum_value_t *e = &v->enumeration->values[below(v->enumeration->count)];
        r = jstr(e->text, e->len);
        break;
    }
    case CONTRACTC_TYPE_DATE:
        random_date(tmp, sizeof tmp);
        r = jstr(tmp, strlen(tmp));
        break;
    case CONTRACTC_TYPE_DATETIME:
        random_datetime(tmp, sizeof tmp);
        r = jstr(tmp, strlen(tmp));
        break;
    case CONTRACTC_TYPE_OBJECT:
        r = gen_object(v->object, depth + 1);
        break;
    case CONTRACTC_TYPE_UNION: { /* v2: one variant's object with its tag, first or anywhere */
        const contractc_variant_t *var = &v->variants[below(v->variant_count)];
        jv_t *body = gen_object(var->object, depth + 1);
        r = jnew(J_OBJ);
        size_t at = chance(60) ? 0 : (size_t)below(body->n + 1);
        for (size_t i = 0; i <= body->n; i++) {
            if (i == at)
                jpush(r, v->tag, jstr(var->name, var->name_len));
            if (i < body->n)
                jpush(r, body->keys[i], body->kids[i]);
        }
        for (size_t i = 0; i < body->n; i++)
            free(body->keys[i]);
        free(body->kids);
        free(body->keys);
        free(body);
        /* its members are not sites (object_of: not an object type): the
         * mutations act on the union's object as a whole */
        break;
    }
    case CONTRACTC_TYPE_VALUE_UNION:
        /* v2 (docs/contract-language.md §4.13): one alternative's value, as
         * that alternative's (the mutations then act on its type) */
    {
        r = gen_value(&v->alternatives[below(v->alternative_count)], depth);
        r->among = v;
        return r;
    }
    case CONTRACTC_TYPE_ARRAY: {
        r = jnew(J_ARR);
        uint32_t hi = v->max_items == CONTRACTC_UNBOUNDED || v->max_items > v->min_items + 4
                          ? v->min_items + 4
                          : v->max_items;
        uint32_t n = (uint32_t)between(v->min_items, hi);
        for (uint32_t i = 0; i < n; i++) {
            /* items that may be null (ABI 2): sometimes a null item */
            jv_t *item = v->items_nullable && chance(20) ? jnew(J_NULL) : gen_value(v->items, depth + 1);
            item->val = v->items;
            jpush(r, NULL, item);
        }
        break;
    }
    case CONTRACTC_TYPE_MAP: {
        /* v2 (docs/contract-language.md §4.12): distinct keys through the
         * key pattern (any text without one), values of the value type */
        r = jnew(J_OBJ);
        uint32_t hi = v->max_items == CONTRACTC_UNBOUNDED || v->max_items > v->min_items + 4
                          ? v->min_items + 4
                          : v->max_items;
        uint32_t n = (uint32_t)between(v->min_items, hi);
        for (int tries = 0; r->n < n && tries < 200; tries++) {
            buf_t b = {0};
            if (v->pattern) {
                if (!dfa_string(v->pattern, &b, 0)) {
                    free(b.data);
                    continue;
                }
            } else {
                random_text(&b, (uint32_t)between(0, 6));
            }
            bool fresh = b.data ? strlen(b.data) == b.len : true; /* no NUL in a key here */
            for (size_t k = 0; fresh && k < r->n; k++)
                fresh = strcmp(r->keys[k], b.data ? b.data : "") != 0;
            if (fresh)
                jpush(r, b.data ? b.data : "", gen_value(v->items, depth + 1));
            free(b.data);
        }
        break;
    }
    case CONTRACTC_TYPE_JSON:
        r = gen_any(v->max_length >= 1024, 0);
        break;
    default:
        r = jnew(J_NULL);
        break;
    }
    r->val = v;
    return r;
}

/* ---- rules ----------------------------------------------------------------- */

/* A comparable key of a scalar: integers, decimals (minor units), numbers,
 * dates and datetimes (as an instant in nanoseconds / 1000).  false when
 * the node is not a well-formed value of its type. */
static bool order_key(const jv_t *v, long double *key)
{
    if (!v->val || (v->t != J_NUM && v->t != J_STR))
        return false;
    int64_t minor;
    int y, mo, d, h, mi, s;
    switch (v->val->type) {
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_NUMBER:
        *key = strtold(v->text, NULL);
        return v->t == J_NUM;
    case CONTRACTC_TYPE_DECIMAL:
        if (!parse_decimal(v->text, v->val->scale, &minor))
            return false;
        *key = (long double)minor;
        return true;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME: {
        h = mi = s = 0;
        int n = v->val->type == CONTRACTC_TYPE_DATE
                    ? sscanf(v->text, "%4d-%2d-%2d", &y, &mo, &d)
                    : sscanf(v->text, "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &s);
        if (n < 3)
            return false;
        /* days from civil (Howard Hinnant's algorithm) */
        int yy = mo <= 2 ? y - 1 : y;
        long era = (yy >= 0 ? yy : yy - 399) / 400;
        long yoe = yy - era * 400;
        long doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        long double t = (long double)(era * 146097 + doe) * 86400.0L + h * 3600 + mi * 60 + s;
        const char *frac = strchr(v->text, '.');
        if (frac)
            t += strtold(frac, NULL);
        const char *z = v->text + strlen(v->text) - 6;
        if (v->val->type == CONTRACTC_TYPE_DATETIME && v->len > 6 && (*z == '+' || *z == '-')) {
            int oh = atoi(z + 1), om = atoi(z + 4);
            t -= (*z == '+' ? 1 : -1) * (oh * 3600 + om * 60);
        }
        *key = t;
        return true;
    }
    default:
        return false;
    }
}

static bool op_holds(contractc_compare_op_t op, long double a, long double b)
{
    switch (op) {
    case CONTRACTC_OP_LT: return a < b;
    case CONTRACTC_OP_LE: return a <= b;
    case CONTRACTC_OP_EQ: return a == b;
    case CONTRACTC_OP_NE: return a != b;
    case CONTRACTC_OP_GE: return a >= b;
    case CONTRACTC_OP_GT: return a > b;
    }
    return false;
}

static bool sums_in_range;

/* Sets every sum rule's total from its operands (the total node itself
 * excepted when it is `keep`).  Operands that are not numbers of their
 * type leave the rule alone: the parser then does not run it. */
static void fix_sums(const contractc_object_t *o, jv_t *node, const jv_t *keep)
{
    for (uint32_t r = 0; r < o->rule_count; r++) {
        const contractc_rule_t *rule = &o->rules[r];
        if (rule->kind != CONTRACTC_RULE_SUM || rule->sum_total >= node->n ||
            rule->sum_array >= node->n)
            continue;
        if (node->n != o->field_count ||
            strcmp(node->keys[rule->sum_array], o->fields[rule->sum_array].name) != 0 ||
            strcmp(node->keys[rule->sum_total], o->fields[rule->sum_total].name) != 0)
            continue; /* a key was dropped, added or renamed: leave the rule to fail or not */
        jv_t *arr = node->kids[rule->sum_array], *total = node->kids[rule->sum_total];
        if (total == keep || arr->t != J_ARR || !total->val)
            continue;
        const contractc_value_t *tv = &o->fields[rule->sum_total].value;
        int64_t sum = 0;
        bool ok = true;
        for (size_t i = 0; i < arr->n && ok; i++) {
            jv_t *x = arr->kids[i];
            if (rule->sum_item != CONTRACTC_NO_FIELD)
                x = x->t == J_OBJ && rule->sum_item < x->n && x->val && x->val->object &&
                            x->n == x->val->object->field_count &&
                            strcmp(x->keys[rule->sum_item], x->val->object->fields[rule->sum_item].name) == 0
                        ? x->kids[rule->sum_item]
                        : NULL;
            int64_t m = 0;
            if (!x || !x->val)
                ok = false;
            else if (tv->type == CONTRACTC_TYPE_INTEGER && x->t == J_NUM && !strpbrk(x->text, ".eE"))
                m = strtoll(x->text, NULL, 10);
            else if (tv->type == CONTRACTC_TYPE_DECIMAL && x->t == J_STR)
                ok = parse_decimal(x->text, tv->scale, &m);
            else
                ok = false;
            if (ok && ((m > 0 && sum > INT64_MAX / 4) || (m < 0 && sum < INT64_MIN / 4)))
                ok = false;
            sum += m;
        }
        if (!ok)
            continue;
        if (sum < tv->minimum || sum > tv->maximum)
            sums_in_range = false; /* e.g. items at 2^53 - 1: build another reply */
        char tmp[64];
        if (tv->type == CONTRACTC_TYPE_INTEGER)
            snprintf(tmp, sizeof tmp, "%" PRId64, sum);
        else
            format_decimal(tmp, sizeof tmp, sum, tv->scale);
        free(total->text);
        total->text = strdup(tmp);
        if (!total->text)
            exit(2);
        total->len = strlen(tmp);
        total->t = tv->type == CONTRACTC_TYPE_INTEGER ? J_NUM : J_STR;
    }
}

static void set_null(jv_t *node, size_t i)
{
    const contractc_value_t *val = node->kids[i]->val;
    const contractc_field_t *f = node->kids[i]->field;
    jfree(node->kids[i]);
    node->kids[i] = jnew(J_NULL);
    node->kids[i]->val = val;
    node->kids[i]->field = f;
}

static void set_value(const contractc_object_t *o, jv_t *node, size_t i, int depth)
{
    if (node->kids[i]->t != J_NULL)
        return;
    jfree(node->kids[i]);
    node->kids[i] = gen_value(&o->fields[i].value, depth);
    node->kids[i]->field = &o->fields[i];
}

/* Makes a freshly generated object satisfy its rules; false when a
 * compare rule could not be satisfied (the reply is then tagged `rule`). */
static bool fix_rules(const contractc_object_t *o, jv_t *node, int depth)
{
    bool sure = true;
    for (uint32_t r = 0; r < o->rule_count; r++) {
        const contractc_rule_t *rule = &o->rules[r];
        switch (rule->kind) {
        case CONTRACTC_RULE_ALL_OR_NONE: {
            bool all = chance(70);
            for (uint32_t k = 0; k < rule->field_count; k++)
                all ? set_value(o, node, rule->fields[k], depth) : set_null(node, rule->fields[k]);
            break;
        }
        case CONTRACTC_RULE_AT_MOST_ONE:
        case CONTRACTC_RULE_EXACTLY_ONE: {
            uint64_t keep = below(rule->field_count + (rule->kind == CONTRACTC_RULE_AT_MOST_ONE));
            for (uint32_t k = 0; k < rule->field_count; k++)
                k == keep ? set_value(o, node, rule->fields[k], depth) : set_null(node, rule->fields[k]);
            break;
        }
        case CONTRACTC_RULE_COMPARE: {
            jv_t **l = &node->kids[rule->left], **rr = &node->kids[rule->right];
            long double a, b;
            for (int tries = 0; tries < 30; tries++) {
                if ((*l)->t == J_NULL || (*rr)->t == J_NULL)
                    break;
                if (!order_key(*l, &a) || !order_key(*rr, &b)) {
                    sure = false;
                    break;
                }
                if (op_holds(rule->op, a, b))
                    break;
                if (op_holds(rule->op, b, a) && tries == 0) {
                    jv_t *t = *l; /* same type: swap the values, keep the fields */
                    *l = *rr;
                    *rr = t;
                    const contractc_field_t *f = (*l)->field;
                    (*l)->field = (*rr)->field;
                    (*rr)->field = f;
                    const contractc_value_t *vv = (*l)->val;
                    (*l)->val = (*rr)->val;
                    (*rr)->val = vv;
                    continue;
                }
                jfree(*rr);
                *rr = gen_value(&o->fields[rule->right].value, depth);
                (*rr)->field = &o->fields[rule->right];
                if (tries == 29)
                    sure = false;
            }
            if ((*l)->t != J_NULL && (*rr)->t != J_NULL &&
                (!order_key(*l, &a) || !order_key(*rr, &b) || !op_holds(rule->op, a, b)))
                sure = false;
            break;
        }
        default:
            break;
        }
    }
    fix_sums(o, node, NULL);
    return sure;
}

static bool rules_sure;

static jv_t *gen_object(const contractc_object_t *o, int depth)
{
    jv_t *node = jnew(J_OBJ);
    for (uint32_t i = 0; i < o->field_count; i++) {
        const contractc_field_t *f = &o->fields[i];
        jv_t *kid = f->nullable && chance(20) ? jnew(J_NULL) : gen_value(&f->value, depth);
        kid->val = &f->value;
        kid->field = f;
        jpush(node, f->name, kid);
    }
    if (!fix_rules(o, node, depth))
        rules_sure = false;
    /* optional keys (v2): one never null that a rule made null is left out;
     * a null one sometimes (the same to the rules); a set one sometimes,
     * unless a rule counts it as set */
    for (uint32_t i = 0; i < o->field_count; i++) {
        const contractc_field_t *f = &o->fields[i];
        if (!f->optional)
            continue;
        bool counted = false;
        for (uint32_t r = 0; r < o->rule_count; r++)
            for (uint32_t k = 0; k < o->rules[r].field_count; k++)
                counted |= o->rules[r].fields[k] == i;
        jv_t *kid = node->kids[i];
        if (kid->t == J_NULL)
            kid->absent = !f->nullable || chance(50);
        else if (!counted)
            kid->absent = chance(25);
    }
    return node;
}

/* ---- sites: every value in the tree, for mutations ----------------------- */

typedef struct site {
    jv_t *parent;           /* NULL for the root */
    size_t index;
    jv_t *node;
    int depth;              /* root members: 1 */
    const contractc_object_t *owner; /* the object type holding it (members) */
    bool rule_operand;      /* inside an operand of a compare rule or a sum's total */
} site_t;

typedef struct sites {
    site_t *s;
    size_t n, cap;
} sites_t;

static const contractc_object_t *object_of(const jv_t *v)
{
    return v->val && v->val->type == CONTRACTC_TYPE_OBJECT ? v->val->object : NULL;
}

static void collect(sites_t *out, jv_t *parent, size_t index, jv_t *node, int depth,
                    const contractc_object_t *owner, bool cmp)
{
    if (out->n == out->cap) {
        out->cap = out->cap ? out->cap * 2 : 64;
        out->s = xrealloc(out->s, out->cap * sizeof *out->s);
    }
    out->s[out->n++] = (site_t){parent, index, node, depth, owner, cmp};
    const contractc_object_t *o = parent ? object_of(node) : DIFF_CONTRACT.root;
    if (node->t == J_OBJ && o) {
        for (size_t i = 0; i < node->n && i < o->field_count; i++) {
            bool c = cmp;
            for (uint32_t r = 0; r < o->rule_count; r++)
                if ((o->rules[r].kind == CONTRACTC_RULE_COMPARE &&
                     (o->rules[r].left == i || o->rules[r].right == i)) ||
                    (o->rules[r].kind == CONTRACTC_RULE_SUM && o->rules[r].sum_total == i))
                    c = true;
            collect(out, node, i, node->kids[i], depth + 1, o, c);
        }
    } else if (node->t == J_ARR || (node->t == J_OBJ && node->val &&
                                    node->val->type == CONTRACTC_TYPE_MAP)) {
        for (size_t i = 0; i < node->n; i++)
            collect(out, node, i, node->kids[i], depth + 1, NULL, cmp);
    }
}

/* ---- classes ---------------------------------------------------------------- */

enum {
    C_VALID, C_DROP_KEY, C_ADD_KEY, C_RENAME_KEY, C_TYPE_CHANGE, C_ENUM_MISS, C_BAD_FORMAT,
    C_BOUNDARY, C_NULL, C_NESTED,
    /* deliberate differences */
    C_INT_FRACTION, C_DUPLICATE, C_NUL, C_SURROGATE, C_BAD_UTF8, C_LIMIT, C_FENCE, C_BOM,
    C_DECIMAL_BOUNDS, C_DATE_FORMS, C_UNDERFLOW, C_GROUNDING, C_RULE,
    C_COUNT
};

static const char *const class_names[C_COUNT] = {
    "valid", "drop_key", "add_key", "rename_key", "type_change", "enum_miss", "bad_format",
    "boundary", "null_not_nullable", "nested",
    "integer_fraction", "duplicate_key", "nul_escape", "lone_surrogate", "invalid_utf8",
    "limit", "fence", "bom", "decimal_bounds", "date_forms", "underflow", "grounding", "rule",
};

/* Which sites a class can act on. */
static bool site_fits(int cls, const site_t *s)
{
    const jv_t *v = s->node;
    const contractc_value_t *val = v->val;
    switch (cls) {
    case C_DROP_KEY:
    case C_ADD_KEY:
    case C_RENAME_KEY:
        return v->t == J_OBJ;
    case C_TYPE_CHANGE:
        return s->parent != NULL && v->t != J_NULL;
    case C_ENUM_MISS:
        return val && val->type == CONTRACTC_TYPE_ENUM && v->t == J_STR;
    case C_BAD_FORMAT:
        return val && v->t == J_STR &&
               (val->type == CONTRACTC_TYPE_DECIMAL || val->type == CONTRACTC_TYPE_DATE ||
                val->type == CONTRACTC_TYPE_DATETIME ||
                (val->type == CONTRACTC_TYPE_STRING && val->pattern));
    case C_BOUNDARY:
        return val && v->t != J_NULL &&
               (val->type == CONTRACTC_TYPE_INTEGER ||
                (val->type == CONTRACTC_TYPE_NUMBER &&
                 (val->has_number_minimum || val->has_number_maximum)) ||
                (val->type == CONTRACTC_TYPE_STRING &&
                 (val->min_length > 0 || val->max_length != CONTRACTC_UNBOUNDED)) ||
                (val->type == CONTRACTC_TYPE_ARRAY &&
                 (val->min_items > 0 || val->max_items <= 1000)));
    case C_NULL:
        return s->parent && v->t != J_NULL && !(v->field && v->field->nullable);
    case C_NESTED:
        return s->depth >= 2 && s->parent != NULL;
    case C_INT_FRACTION:
        return val && val->type == CONTRACTC_TYPE_INTEGER && v->t == J_NUM;
    case C_DUPLICATE:
        return v->t == J_OBJ && v->n > 0;
    case C_NUL:
    case C_SURROGATE:
    case C_BAD_UTF8:
        return v->t == J_STR;
    case C_DECIMAL_BOUNDS:
        return val && val->type == CONTRACTC_TYPE_DECIMAL && v->t == J_STR &&
               (val->minimum > INT64_MIN / 2 || val->maximum < INT64_MAX / 2);
    case C_DATE_FORMS:
        return val && val->type == CONTRACTC_TYPE_DATETIME && v->t == J_STR;
    case C_UNDERFLOW:
        return val && val->type == CONTRACTC_TYPE_NUMBER && v->t == J_NUM &&
               (!val->has_number_minimum || val->number_minimum < 0) &&
               (!val->has_number_maximum || val->number_maximum > 0);
    case C_GROUNDING:
        return val && val->grounded && v->t == J_STR;
    case C_RULE: {
        const contractc_object_t *o = s->parent ? object_of(v) : DIFF_CONTRACT.root;
        return v->t == J_OBJ && o && o->rule_count > 0;
    }
    default:
        return false;
    }
}

/* ---- one reply ---------------------------------------------------------------- */

typedef struct reply {
    int cls;
    const char *tag;        /* deliberate difference, "" when none */
    char where[256];
    buf_t text;
    size_t pad;
    buf_t source;
} reply_t;

static void replace(site_t *s, jv_t *nv)
{
    nv->field = s->node->field;
    nv->among = s->node->among;
    if (!nv->val)
        nv->val = s->node->val;
    jfree(s->node);
    s->parent->kids[s->index] = nv;
    s->node = nv;
}

static jv_t *other_type(const jv_t *v)
{
    static const char *const nums[] = {"12", "0", "-3.5", "1e3"};
    static const char *const strs[] = {"12", "true", "null", "", "2024-03-01"};
    int t;
    do
        t = (int)below(5);
    while ((t == 0 && v->t == J_BOOL) || (t == 1 && v->t == J_NUM) || (t == 2 && v->t == J_STR) ||
           (t == 3 && v->t == J_ARR) || (t == 4 && v->t == J_OBJ));
    jv_t *n;
    switch (t) {
    case 0: n = jnew(J_BOOL); n->b = chance(50); return n;
    case 1: return jnum(nums[below(4)]);
    case 2: { const char *s = strs[below(5)]; return jstr(s, strlen(s)); }
    case 3: n = jnew(J_ARR); if (v->t != J_OBJ && v->t != J_ARR && chance(50)) jpush(n, NULL, jcopy(v)); return n;
    default: n = jnew(J_OBJ); if (chance(50)) jpush(n, "value", jcopy(v)); return n;
    }
}

static void path_of(const site_t *all, size_t count, const jv_t *node, char *out, size_t cap)
{
    /* rebuild the path by searching parents (trees are small) */
    const jv_t *chain[64];
    size_t idx[64], depth = 0;
    const jv_t *cur = node;
    while (depth < 64) {
        const site_t *s = NULL;
        for (size_t i = 0; i < count; i++)
            if (all[i].node == cur)
                s = &all[i];
        if (!s || !s->parent)
            break;
        chain[depth] = s->parent;
        idx[depth++] = s->index;
        cur = s->parent;
    }
    size_t len = (size_t)snprintf(out, cap, "$");
    while (depth-- > 0 && len < cap) {
        if (chain[depth]->t == J_OBJ)
            len += (size_t)snprintf(out + len, cap - len, ".%s", chain[depth]->keys[idx[depth]]);
        else
            len += (size_t)snprintf(out + len, cap - len, "[%zu]", idx[depth]);
    }
}

static void string_of_cps(const contractc_value_t *v, jv_t *node, int64_t cps)
{
    if (cps < 0)
        cps = 0;
    jv_t *s = gen_string(v, (size_t)cps);
    if (code_points(s->text, s->len) != (size_t)cps) {
        jfree(s);
        buf_t b = {0};
        random_text(&b, (uint32_t)cps);
        s = jstr(b.data ? b.data : "", b.len);
        free(b.data);
    }
    free(node->text);
    node->text = s->text;
    node->len = s->len;
    s->text = NULL;
    jfree(s);
}

static void boundary(site_t *s, reply_t *r)
{
    jv_t *v = s->node;
    const contractc_value_t *val = v->val;
    char tmp[64];
    switch (val->type) {
    case CONTRACTC_TYPE_INTEGER: {
        int64_t edges[] = {val->minimum, val->maximum};
        int64_t x = edges[below(2)];
        x += (int64_t)below(3) - 1;
        snprintf(tmp, sizeof tmp, "%" PRId64, x);
        replace(s, jnum(tmp));
        break;
    }
    case CONTRACTC_TYPE_NUMBER: {
        double e = val->has_number_minimum && (!val->has_number_maximum || chance(50))
                       ? val->number_minimum : val->number_maximum;
        double x = chance(34) ? e : nextafter(e, chance(50) ? INFINITY : -INFINITY);
        snprintf(tmp, sizeof tmp, "%.17g", x);
        replace(s, jnum(tmp));
        break;
    }
    case CONTRACTC_TYPE_STRING: {
        int64_t edge = val->max_length != CONTRACTC_UNBOUNDED && (val->min_length == 0 || chance(50))
                           ? (int64_t)val->max_length : (int64_t)val->min_length;
        string_of_cps(val, v, edge + (int64_t)below(3) - 1);
        break;
    }
    case CONTRACTC_TYPE_ARRAY: {
        int64_t edge = val->max_items <= 1000 && (val->min_items == 0 || chance(50))
                           ? (int64_t)val->max_items : (int64_t)val->min_items;
        int64_t want = edge + (int64_t)below(3) - 1;
        if (want < 0)
            want = 0;
        while ((int64_t)v->n > want) {
            jfree(v->kids[--v->n]);
        }
        while ((int64_t)v->n < want)
            jpush(v, NULL, gen_value(val->items, s->depth));
        break;
    }
    default:
        break;
    }
    (void)r;
}

static void bad_format(site_t *s, reply_t *r)
{
    const contractc_value_t *val = s->node->val;
    static const char *const decimals[] = {"1.250,00", "1,250.00", "+1.00", " 1.00", "01.00",
                                           "1.2.3", "1e2", "", "0x10", "1 000"};
    static const char *const dates[] = {"2024-02-30", "2023-02-29", "2024-13-01", "2024-1-01",
                                        "24-01-01", "2024/01/01", "2024-01-01T00:00:00Z",
                                        "01.02.2024", "2024-00-10", "2024-04-31"};
    static const char *const datetimes[] = {"2024-03-01T14:30Z", "2024-03-01T14:30:00",
                                            "2024-03-01", "2024-02-30T10:00:00Z",
                                            "2024-03-01T25:00:00Z", "2024-03-01T14:60:00Z",
                                            "2024-03-01T14:30:00+2:00", "2024-03-01T14:30:00.Z",
                                            "2024-03-01 14:30Z", "March 1 2024"};
    const char *pick = NULL;
    char tmp[64];
    switch (val->type) {
    case CONTRACTC_TYPE_DECIMAL:
        pick = decimals[below(10)];
        if (chance(40)) { /* the right digits at the wrong scale */
            format_decimal(tmp, sizeof tmp, 125, val->scale + 1);
            pick = tmp;
        }
        break;
    case CONTRACTC_TYPE_DATE: pick = dates[below(10)]; break;
    case CONTRACTC_TYPE_DATETIME: pick = datetimes[below(10)]; break;
    default: {
        /* a string the pattern refuses: change or add one character */
        jv_t *n = s->node;
        for (int tries = 0; tries < 20; tries++) {
            buf_t b = {0};
            bput(&b, n->text, n->len);
            size_t at = below(b.len + 1);
            const char *ins = alphabet[below(sizeof alphabet / sizeof alphabet[0])];
            buf_t c = {0};
            bput(&c, b.data ? b.data : "", at);
            bputs(&c, ins);
            if (at < b.len) {
                size_t skip = chance(50) ? 1 : 0; /* replace or insert */
                bput(&c, b.data + at + skip, b.len - at - skip);
            }
            free(b.data);
            bool refused = !contractc_dfa_match(val->pattern, c.data, c.len);
            if (refused || tries == 19) {
                free(n->text);
                n->text = c.data ? c.data : strdup("");
                n->len = c.len;
                break;
            }
            free(c.data);
        }
        return;
    }
    }
    replace(s, jstr(pick, strlen(pick)));
    (void)r;
}

/* RFC 3339 forms ajv-formats accepts and contractc's profile refuses. */
static void date_forms(site_t *s)
{
    char base[64];
    random_datetime(base, sizeof base);
    char tmp[96];
    switch (below(7)) {
    case 0: base[10] = 't'; snprintf(tmp, sizeof tmp, "%s", base); break;          /* lowercase t */
    case 1: base[10] = ' '; snprintf(tmp, sizeof tmp, "%s", base); break;          /* space */
    case 2: snprintf(tmp, sizeof tmp, "%.19sz", base); break;                      /* lowercase z */
    case 3: snprintf(tmp, sizeof tmp, "%.19s+0100", base); break;                  /* no colon */
    case 4: snprintf(tmp, sizeof tmp, "%.19s+01", base); break;                    /* hours only */
    case 5: snprintf(tmp, sizeof tmp, "%.19s.1234567891Z", base); break;           /* 10 digits */
    default: snprintf(tmp, sizeof tmp, "%.10sT23:59:60Z", base); break;            /* leap second */
    }
    replace(s, jstr(tmp, strlen(tmp)));
}

/* Breaks one rule of the object at s with values that pass their own
 * checks. */
static bool break_rule(site_t *s)
{
    jv_t *node = s->node;
    const contractc_object_t *o = s->parent ? object_of(node) : DIFF_CONTRACT.root;
    const contractc_rule_t *rule = &o->rules[below(o->rule_count)];
    switch (rule->kind) {
    case CONTRACTC_RULE_ALL_OR_NONE:
        if (rule->field_count < 2)
            return false;
        for (uint32_t k = 0; k < rule->field_count; k++)
            k == 0 ? set_null(node, rule->fields[k]) : set_value(o, node, rule->fields[k], s->depth);
        return true;
    case CONTRACTC_RULE_AT_MOST_ONE:
        if (rule->field_count < 2)
            return false;
        for (uint32_t k = 0; k < rule->field_count; k++)
            set_value(o, node, rule->fields[k], s->depth);
        return true;
    case CONTRACTC_RULE_EXACTLY_ONE:
        for (uint32_t k = 0; k < rule->field_count; k++)
            set_null(node, rule->fields[k]);
        return true;
    case CONTRACTC_RULE_SUM: {
        jv_t *total = node->kids[rule->sum_total];
        const contractc_value_t *tv = &o->fields[rule->sum_total].value;
        int64_t m;
        char tmp[64];
        if (tv->type == CONTRACTC_TYPE_INTEGER && total->t == J_NUM) {
            m = strtoll(total->text, NULL, 10) + rule->tolerance + 1;
            snprintf(tmp, sizeof tmp, "%" PRId64, m);
        } else if (tv->type == CONTRACTC_TYPE_DECIMAL && total->t == J_STR &&
                   parse_decimal(total->text, tv->scale, &m)) {
            format_decimal(tmp, sizeof tmp, m + rule->tolerance + 1, tv->scale);
        } else {
            return false;
        }
        free(total->text);
        total->text = strdup(tmp);
        total->len = strlen(tmp);
        return true;
    }
    case CONTRACTC_RULE_COMPARE: {
        jv_t *l = node->kids[rule->left], *r = node->kids[rule->right];
        long double a, b;
        if (l->t == J_NULL || r->t == J_NULL || !order_key(l, &a) || !order_key(r, &b))
            return false;
        if (op_holds(rule->op, a, b) && !op_holds(rule->op, b, a)) {
            node->kids[rule->left] = r;
            node->kids[rule->right] = l;
            const contractc_field_t *f = l->field;
            l->field = r->field;
            r->field = f;
            return true;
        }
        return false;
    }
    default:
        return false;
    }
}

/* Which classes this contract can build at all. */
static bool class_possible[C_COUNT];

static void pick_class_possible(void)
{
    /* Probe: generate replies and see which classes find a site. */
    for (int probe = 0; probe < 200; probe++) {
        rules_sure = true;
        jv_t *root = gen_object(DIFF_CONTRACT.root, 0);
        sites_t all = {0};
        collect(&all, NULL, 0, root, 0, NULL, false);
        for (int c = 0; c < C_COUNT; c++)
            for (size_t i = 0; i < all.n && !class_possible[c]; i++)
                if (site_fits(c, &all.s[i]))
                    class_possible[c] = true;
        free(all.s);
        jfree(root);
    }
    class_possible[C_VALID] = class_possible[C_LIMIT] = class_possible[C_FENCE] =
        class_possible[C_BOM] = true;
}

static void collect_source(const jv_t *v, buf_t *src, const jv_t *skip, bool *empty_grounded)
{
    if (v->t == J_STR && v->val && v->val->grounded && v != skip) {
        if (v->len == 0)
            *empty_grounded = true;
        bputs(src, " [");
        bput(src, v->text, v->len);
        bputs(src, "] ");
    }
    for (size_t i = 0; i < v->n; i++)
        collect_source(v->kids[i], src, skip, empty_grounded);
}

/* Nested: an object below the root, or a value below the root's members. */
static bool nested_site(int acting, const site_t *s)
{
    if (acting == C_DROP_KEY || acting == C_ADD_KEY || acting == C_RENAME_KEY)
        return s->parent != NULL;
    return s->depth >= 2;
}

static void build_reply(int cls, reply_t *r)
{
    memset(r, 0, sizeof *r);
    r->cls = cls;
    r->tag = "";
    strcpy(r->where, "$");
    /* Every class starts from a valid reply: a sum beyond its total's
     * bounds is drawn again. */
    jv_t *root = NULL;
    for (int tries = 0; tries < 20; tries++) {
        jfree(root);
        rules_sure = sums_in_range = true;
        root = gen_object(DIFF_CONTRACT.root, 0);
        if (sums_in_range)
            break;
    }
    bool sure = rules_sure;
    sites_t all = {0};
    collect(&all, NULL, 0, root, 0, NULL, false);

    site_t *s = NULL;
    size_t fits = 0;
    static const int nested_kinds[] = {C_DROP_KEY, C_ADD_KEY, C_RENAME_KEY, C_TYPE_CHANGE, C_NULL};
    int acting = cls == C_NESTED ? nested_kinds[below(5)] : cls;
    for (size_t i = 0; i < all.n; i++)
        if (site_fits(acting, &all.s[i]) && (cls != C_NESTED || nested_site(acting, &all.s[i])) &&
            below(++fits) == 0)
            s = &all.s[i];
    for (int k = 0; cls == C_NESTED && !s && k < 5; k++) { /* another nested kind */
        acting = nested_kinds[k];
        for (size_t i = 0; i < all.n; i++)
            if (site_fits(acting, &all.s[i]) && nested_site(acting, &all.s[i]) && below(++fits) == 0)
                s = &all.s[i];
    }
    if (s)
        path_of(all.s, all.n, s->node, r->where, sizeof r->where);
    const jv_t *grounding_skip = NULL;
    bool touched_rule = s && s->rule_operand;
    bool pretty = chance(50);

    if (s || acting == C_VALID || acting == C_LIMIT || acting == C_FENCE || acting == C_BOM) {
        switch (acting) {
        case C_DROP_KEY:
            if (s->node->n) {
                size_t k = below(s->node->n);
                /* an optional key a group rule counts as set: leaving it out
                 * may break the rule, which ajv cannot see (v2) */
                const jv_t *kid = s->node->kids[k];
                const contractc_object_t *o = s->parent ? object_of(s->node) : DIFF_CONTRACT.root;
                if (o && kid->field && kid->field->optional && !kid->absent && kid->t != J_NULL)
                    for (uint32_t r2 = 0; r2 < o->rule_count; r2++)
                        for (uint32_t q = 0; q < o->rules[r2].field_count; q++)
                            touched_rule |= &o->fields[o->rules[r2].fields[q]] == kid->field;
                jfree(s->node->kids[k]);
                free(s->node->keys[k]);
                memmove(&s->node->kids[k], &s->node->kids[k + 1], (s->node->n - k - 1) * sizeof(jv_t *));
                memmove(&s->node->keys[k], &s->node->keys[k + 1], (s->node->n - k - 1) * sizeof(char *));
                s->node->n--;
            }
            break;
        case C_ADD_KEY: {
            /* a key the object does not have (a field's own name would be
             * a duplicate, another class) */
            static const char *const extras[] = {"extra", "notes", "confidence_score", "Reason",
                                                 "\xf0\x9f\x98\x80", "", "value_", "id"};
            const char *key = extras[below(8)];
            for (size_t k = 0; k < s->node->n; k++)
                if (strcmp(s->node->keys[k], key) == 0)
                    key = "contractc_extra_key";
            jv_t *x = chance(50) ? jnum("1") : jstr("x", 1);
            jpush(s->node, key, x);
            break;
        }
        case C_RENAME_KEY:
            if (s->node->n) {
                size_t k = below(s->node->n);
                char *key = s->node->keys[k];
                size_t n = strlen(key);
                char *nk = xmalloc(n + 3);
                unsigned how = (unsigned)below(3);
                /* a map's key may be empty or start with a multi-byte
                 * character: changing its first byte would not rename it */
                if (how == 0 && (n == 0 || (unsigned char)key[0] >= 0x80))
                    how = 1;
                switch (how) {
                case 0: memcpy(nk, key, n + 1); nk[0] = (char)(nk[0] >= 'a' && nk[0] <= 'z' ? nk[0] - 32 : nk[0] == 'X' ? 'Y' : 'X'); break;
                case 1: snprintf(nk, n + 3, "%s_", key); break;
                default: snprintf(nk, n + 3, " %s", key); break;
                }
                free(key);
                s->node->keys[k] = nk;
                /* a map's renamed key may equal another of its keys: a
                 * duplicate, which JSON.parse lets through (v2) */
                for (size_t q = 0; q < s->node->n; q++)
                    if (q != k && strcmp(s->node->keys[q], nk) == 0)
                        r->tag = "duplicate_key";
            }
            break;
        case C_TYPE_CHANGE:
            replace(s, other_type(s->node));
            if (s->node->among && s->node->t == J_NUM && strcmp(s->node->text, "1e3") == 0)
                for (uint32_t k = 0; k < s->node->among->alternative_count; k++)
                    if (s->node->among->alternatives[k].type == CONTRACTC_TYPE_INTEGER)
                        r->tag = "integer_fraction"; /* 1e3 lands on an integer alternative */
            break;
        case C_ENUM_MISS: {
            char tmp[128];
            const char *t = s->node->text;
            switch (below(3)) {
            case 0: snprintf(tmp, sizeof tmp, "%s ", t); break;
            case 1: snprintf(tmp, sizeof tmp, "%s", t); for (char *p = tmp; *p; p++) *p = (char)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p >= 'A' && *p <= 'Z' ? *p + 32 : *p); break;
            default: snprintf(tmp, sizeof tmp, "unknown"); break;
            }
            replace(s, jstr(tmp, strlen(tmp)));
            break;
        }
        case C_BAD_FORMAT: bad_format(s, r); break;
        case C_BOUNDARY: boundary(s, r); break;
        case C_NULL: {
            jv_t *n = jnew(J_NULL);
            n->val = s->node->val;
            replace(s, n);
            break;
        }
        case C_INT_FRACTION: {
            char tmp[64];
            static const char *const forms[] = {".0", "e0", "E+0", ".000", "0e-1"};
            snprintf(tmp, sizeof tmp, "%s%s", s->node->text, forms[below(5)]);
            replace(s, jnum(tmp));
            r->tag = "integer_fraction";
            break;
        }
        case C_DUPLICATE:
            s->node->dup = (long)below(s->node->n);
            r->tag = "duplicate_key";
            break;
        case C_NUL: s->node->inject = INJ_NUL; r->tag = "nul_escape"; break;
        case C_SURROGATE: s->node->inject = INJ_SURROGATE; r->tag = "lone_surrogate"; break;
        case C_BAD_UTF8: s->node->inject = INJ_BAD_UTF8; r->tag = "invalid_utf8"; break;
        case C_DECIMAL_BOUNDS: {
            const contractc_value_t *val = s->node->val;
            char tmp[64];
            bool low = val->minimum > INT64_MIN / 2 && (val->maximum >= INT64_MAX / 2 || chance(50));
            int64_t x = low ? val->minimum - between(1, 100) : val->maximum + between(1, 100);
            if (!val->is_signed && x < 0)
                x = val->maximum + between(1, 100);
            format_decimal(tmp, sizeof tmp, x, val->scale);
            replace(s, jstr(tmp, strlen(tmp)));
            r->tag = "decimal_bounds";
            break;
        }
        case C_DATE_FORMS: date_forms(s); r->tag = "date_forms"; break;
        case C_UNDERFLOW: {
            static const char *const tiny[] = {"1e-400", "-2.5e-330", "4.9e-325", "1E-999"};
            replace(s, jnum(tiny[below(4)]));
            r->tag = "underflow";
            break;
        }
        case C_GROUNDING:
            grounding_skip = s->node;
            r->tag = "grounding";
            break;
        case C_RULE:
            if (break_rule(s))
                r->tag = "rule";
            break;
        case C_LIMIT:
            r->tag = "limit";
            break;
        case C_FENCE:
            r->tag = "fence";
            break;
        case C_BOM:
            r->tag = "bom";
            break;
        default:
            break;
        }
    }
    /* Sums follow the mutated values, except a mutated total itself. */
    {
        sites_t again = {0};
        collect(&again, NULL, 0, root, 0, NULL, false);
        for (size_t i = 0; i < again.n; i++) {
            const contractc_object_t *o = again.s[i].parent ? object_of(again.s[i].node)
                                                            : DIFF_CONTRACT.root;
            if (again.s[i].node->t == J_OBJ && o && acting != C_RULE)
                fix_sums(o, again.s[i].node, s ? s->node : NULL);
        }
        free(again.s);
    }
    if (!*r->tag && (!sure || (touched_rule && acting != C_VALID)))
        r->tag = "rule";

    bool empty_grounded = false;
    if (DIFF_CONTRACT.needs_source) {
        bputs(&r->source, "Source text of the reply:");
        collect_source(root, &r->source, grounding_skip, &empty_grounded);
    }
    if (empty_grounded && !*r->tag)
        r->tag = "grounding";

    buf_t body = {0};
    serialise(&body, root, pretty);
    if (acting == C_BOM)
        bputs(&r->text, "\xef\xbb\xbf");
    if (acting == C_FENCE)
        bputs(&r->text, chance(50) ? "```json\n" : "```\n");
    else if (pretty && chance(30))
        bputs(&r->text, "\n ");
    bput(&r->text, body.data, body.len);
    if (acting == C_FENCE)
        bputs(&r->text, "\n```\n");
    if (acting == C_LIMIT)
        r->pad = r->text.len > DIFF_CONTRACT.max_bytes ? 0 : DIFF_CONTRACT.max_bytes + 1 - r->text.len;
    free(body.data);
    free(all.s);
    jfree(root);
}

/* ---- output -------------------------------------------------------------------- */

static void put_base64(FILE *out, const unsigned char *s, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        fputc(t[v >> 18 & 63], out);
        fputc(t[v >> 12 & 63], out);
        fputc(i + 1 < n ? t[v >> 6 & 63] : '=', out);
        fputc(i + 2 < n ? t[v & 63] : '=', out);
    }
}

static void put_json_text(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static unsigned long counter;
static char *spaces;      /* judge()'s reusable buffer of spaces */
static size_t spaces_cap;

/* Runs the generated parser on one reply and writes its line. */
static void judge(const char *cls, const char *tag, const char *where, const char *text,
                  size_t len, size_t pad, const char *source, size_t source_len)
{
    /* One buffer of spaces serves every reply: the reply is copied to its
     * start and the spaces are put back afterwards, so a reply padded past
     * max_bytes costs its own length, not a fresh megabyte. */
    if (len + pad + 1 > spaces_cap) {
        free(spaces);
        spaces_cap = len + pad + 1;
        spaces = xmalloc(spaces_cap);
        memset(spaces, ' ', spaces_cap);
    }
    char *full = spaces;
    memcpy(full, text, len);
    char saved_end = full[len + pad];
    full[len + pad] = '\0';
    void *record = calloc(1, DIFF_CONTRACT.root->size ? DIFF_CONTRACT.root->size : 1);
    if (!record)
        exit(2);
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t st = contractc_parse(&DIFF_CONTRACT, full, len + pad,
                                            DIFF_CONTRACT.needs_source ? source : NULL,
                                            DIFF_CONTRACT.needs_source ? source_len : 0, NULL,
                                            record, &problems);
    if (st != CONTRACTC_OK && st != CONTRACTC_REJECTED) {
        fprintf(stderr, "dialect_diff: contractc_parse returned %s on reply %lu\n",
                contractc_status_name(st), counter);
        exit(2);
    }
    printf("{\"i\":%lu,\"class\":\"%s\",\"tag\":\"%s\",\"where\":", counter++, cls, tag);
    put_json_text(stdout, where, strlen(where));
    printf(",\"parser\":%s,\"kinds\":\"", st == CONTRACTC_OK ? "true" : "false");
    for (size_t i = 0; i < contractc_problems_count(&problems); i++)
        printf("%s%s", i ? "," : "", contractc_kind_name(contractc_problems_at(&problems, i)->kind));
    printf("\",\"reply\":\"");
    put_base64(stdout, (const unsigned char *)text, len);
    printf("\",\"pad\":%zu,\"source\":\"", pad);
    if (source)
        put_base64(stdout, (const unsigned char *)source, source_len);
    printf("\"");
    if (st == CONTRACTC_OK) {
        size_t clen = 0;
        char *canon = contractc_to_json(&DIFF_CONTRACT, record, &clen);
        if (!canon)
            exit(2);
        printf(",\"canonical\":");
        put_json_text(stdout, canon, clen);
        free(canon);
        contractc_record_free(&DIFF_CONTRACT, record);
    }
    printf("}\n");
    contractc_problems_clear(&problems);
    free(record);
    memset(full, ' ', len);
    full[len + pad] = saved_end;
}


/* Base64 decoding for regression files (ignores anything else). */
static char *unbase64(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *out = xmalloc(n / 4 * 3 + 4);
    uint32_t acc = 0;
    int bits = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        const char *p = s[i] ? strchr(t, s[i]) : NULL;
        if (!p)
            continue;
        acc = acc << 6 | (uint32_t)(p - t);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[k++] = (char)(acc >> bits & 0xFF);
        }
    }
    out[k] = '\0';
    *len = k;
    return out;
}

/* Replays tests/data/differential/regressions/NAME-*.json. */
static void replay(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t prefix = strlen(DIFF_CONTRACT.name);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (strncmp(e->d_name, DIFF_CONTRACT.name, prefix) != 0 || e->d_name[prefix] != '-' ||
            n < 5 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        buf_t b = {0};
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
            bput(&b, chunk, got);
        fclose(f);
        cJSON *j = cJSON_Parse(b.data ? b.data : "");
        free(b.data);
        const cJSON *reply = cJSON_GetObjectItemCaseSensitive(j, "reply");
        const cJSON *source = cJSON_GetObjectItemCaseSensitive(j, "source");
        const cJSON *tag = cJSON_GetObjectItemCaseSensitive(j, "tag");
        const cJSON *pad = cJSON_GetObjectItemCaseSensitive(j, "pad");
        if (!cJSON_IsString(reply)) {
            fprintf(stderr, "dialect_diff: %s has no \"reply\" (base64)\n", path);
            exit(2);
        }
        size_t rl, sl = 0;
        char *r = unbase64(reply->valuestring, &rl);
        char *s = cJSON_IsString(source) ? unbase64(source->valuestring, &sl) : NULL;
        judge("regression", cJSON_IsString(tag) ? tag->valuestring : "", e->d_name, r, rl,
              cJSON_IsNumber(pad) ? (size_t)pad->valuedouble : 0, s ? s : "", sl);
        free(r);
        free(s);
        cJSON_Delete(j);
    }
    closedir(d);
}

int main(int argc, char **argv)
{
    unsigned long count = 10000, seed = 20261;
    const char *regressions = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--count") == 0 && i + 1 < argc)
            count = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--regressions") == 0 && i + 1 < argc)
            regressions = argv[++i];
        else {
            fprintf(stderr, "usage: dialect_diff [--count N] [--seed S] [--regressions DIR]\n");
            return 2;
        }
    }
    /* One stream per contract and seed, whatever else runs. */
    uint64_t h = seed;
    for (const char *p = DIFF_CONTRACT.name; *p; p++)
        h = h * 131 + (unsigned char)*p;
    rng_state = h;
    if (regressions)
        replay(regressions);
    pick_class_possible();
    int classes[C_COUNT];
    size_t nclasses = 0;
    for (int c = 0; c < C_COUNT; c++)
        if (class_possible[c])
            classes[nclasses++] = c;
    fprintf(stderr, "dialect_diff: %s: %lu replies over %zu classes (seed %lu); not applicable to "
            "this contract:", DIFF_CONTRACT.name, count, nclasses, seed);
    for (int c = 0; c < C_COUNT; c++)
        if (!class_possible[c])
            fprintf(stderr, " %s", class_names[c]);
    fprintf(stderr, nclasses == C_COUNT ? " none\n" : "\n");
    for (unsigned long i = 0; i < count; i++) {
        reply_t r;
        build_reply(classes[i % nclasses], &r); /* round robin: every class gets its share */
        judge(class_names[r.cls], r.tag, r.where, r.text.data ? r.text.data : "", r.text.len,
              r.pad, r.source.data, r.source.len);
        free(r.text.data);
        free(r.source.data);
    }
    for (size_t i = 0; i < live_count; i++)
        free(lives[i].live);
    free(spaces);
    return 0;
}
