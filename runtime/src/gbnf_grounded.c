/* SPDX-License-Identifier: MIT */
/*
 * gbnf_grounded.c - contractc_gbnf_grounded (contractc/contractc.h, "Grounded GBNF grammars"): a grounded
 * string's rule becomes the suffix automaton of the source's code points
 * (Blumer et al.: at most 2n - 1 states and 3n - 4 transitions for n code
 * points), so the grammar stays linear in the source.  Every path from the
 * start spells a substring and every substring has a path; each state may
 * close the string, except the start (an empty quote is no quote).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "contractc/contractc.h"
#include "gbnf_text.h"

#define PREFIX "grounded-"

typedef struct sa_edge {
    uint32_t cp, to, next; /* next: the state's following edge, or 0 */
} sa_edge_t;

typedef struct sa_state {
    uint32_t len, link, first; /* first: the state's first edge, or 0 */
} sa_state_t;

typedef struct sa {
    sa_state_t *st;
    sa_edge_t *ed; /* ed[0] unused (0 ends a list) */
    uint32_t n_st, n_ed, cap_st, cap_ed;
    uint32_t last;
} sa_t;

typedef struct out {
    char *data;
    size_t len, cap;
    int failed;
} grammar_out_t;

static void grammar_put(grammar_out_t *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (n > (size_t)PTRDIFF_MAX - o->len - 1) {
        o->failed = 1;
        return;
    }
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n + 1)
            cap *= 2;
        char *d = realloc(o->data, cap);
        if (!d) {
            o->failed = 1;
            return;
        }
        o->data = d;
        o->cap = cap;
    }
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = '\0';
}

static void grammar_puts(grammar_out_t *o, const char *s) { grammar_put(o, s, strlen(s)); }

static void grammar_put_uint(grammar_out_t *o, uint32_t v)
{
    char b[12];
    size_t n = sizeof b;
    do {
        b[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    grammar_put(o, b + n, sizeof b - n);
}

static uint32_t find(const sa_t *a, uint32_t s, uint32_t cp)
{
    for (uint32_t e = a->st[s].first; e; e = a->ed[e].next)
        if (a->ed[e].cp == cp)
            return e;
    return 0;
}

static int add_edge(sa_t *a, uint32_t s, uint32_t cp, uint32_t to)
{
    if (a->n_ed == a->cap_ed)
        return -1; /* sized up front: never */
    uint32_t e = a->n_ed++;
    a->ed[e].cp = cp;
    a->ed[e].to = to;
    a->ed[e].next = a->st[s].first;
    a->st[s].first = e;
    return 0;
}

static uint32_t new_state(sa_t *a, uint32_t len, uint32_t link)
{
    uint32_t s = a->n_st++;
    a->st[s].len = len;
    a->st[s].link = link;
    a->st[s].first = 0;
    return s;
}

/* Extends the automaton by one code point (the classic online step). */
static int extend(sa_t *a, uint32_t cp)
{
    uint32_t cur = new_state(a, a->st[a->last].len + 1, 0);
    uint32_t p = a->last;
    for (;;) {
        if (find(a, p, cp))
            break;
        if (add_edge(a, p, cp, cur) < 0)
            return -1;
        if (p == 0) {
            p = UINT32_MAX;
            break;
        }
        p = a->st[p].link;
    }
    if (p == UINT32_MAX) {
        a->st[cur].link = 0;
    } else {
        uint32_t q = a->ed[find(a, p, cp)].to;
        if (a->st[p].len + 1 == a->st[q].len) {
            a->st[cur].link = q;
        } else {
            uint32_t clone = new_state(a, a->st[p].len + 1, a->st[q].link);
            for (uint32_t e = a->st[q].first; e; e = a->ed[e].next)
                if (add_edge(a, clone, a->ed[e].cp, a->ed[e].to) < 0)
                    return -1;
            for (;;) {
                uint32_t e = find(a, p, cp);
                if (!e || a->ed[e].to != q)
                    break;
                a->ed[e].to = clone;
                if (p == 0)
                    break;
                p = a->st[p].link;
            }
            a->st[q].link = clone;
            a->st[cur].link = clone;
        }
    }
    a->last = cur;
    return 0;
}

/* The next code point of valid UTF-8 at s[*i..n) (no overlongs, no
 * surrogates, at most U+10FFFF), or 0 for a byte that starts none (it is
 * skipped) and for NUL. */
static uint32_t next_cp(const unsigned char *s, size_t n, size_t *i)
{
    unsigned char c = s[*i];
    size_t k = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                                            : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (k == 0 || *i + k > n) {
        (*i)++;
        return 0;
    }
    uint32_t cp = k == 1 ? c : k == 2 ? (uint32_t)(c & 0x1F) : k == 3 ? (uint32_t)(c & 0x0F) : (uint32_t)(c & 0x07);
    for (size_t j = 1; j < k; j++) {
        if ((s[*i + j] & 0xC0) != 0x80) {
            (*i)++;
            return 0;
        }
        cp = cp << 6 | (s[*i + j] & 0x3F);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) || (k == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
        (*i)++;
        return 0;
    }
    *i += k;
    return cp;
}

/* One code point as its canonical JSON text, as a GBNF literal. */
static void put_cp(grammar_out_t *o, uint32_t cp)
{
    static const char hex[] = "0123456789abcdef";
    char json[8], lit[40];
    size_t n = 0;
    if (cp == '"' || cp == '\\') {
        json[n++] = '\\';
        json[n++] = (char)cp;
    } else if (cp < 0x20) {
        const char *short_ = cp == '\b' ? "b" : cp == '\f' ? "f" : cp == '\n' ? "n" : cp == '\r' ? "r" : cp == '\t' ? "t" : NULL;
        json[n++] = '\\';
        if (short_) {
            json[n++] = short_[0];
        } else {
            json[n++] = 'u';
            json[n++] = '0';
            json[n++] = '0';
            json[n++] = hex[cp >> 4];
            json[n++] = hex[cp & 15];
        }
    } else if (cp < 0x80) {
        json[n++] = (char)cp;
    } else if (cp < 0x800) {
        json[n++] = (char)(0xC0 | cp >> 6);
        json[n++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        json[n++] = (char)(0xE0 | cp >> 12);
        json[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
        json[n++] = (char)(0x80 | (cp & 0x3F));
    } else {
        json[n++] = (char)(0xF0 | cp >> 18);
        json[n++] = (char)(0x80 | (cp >> 12 & 0x3F));
        json[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
        json[n++] = (char)(0x80 | (cp & 0x3F));
    }
    size_t l = cc_gbnf_escape(json, n, lit);
    grammar_put(o, "\"", 1);
    grammar_put(o, lit, l);
    grammar_put(o, "\"", 1);
}

/* The rule name of state s: the start is grounded-source itself. */
static void put_state(grammar_out_t *o, uint32_t s)
{
    grammar_puts(o, "src--"); /* "--" never occurs in a generated rule name */
    grammar_put_uint(o, s);
}

int contractc_gbnf_grounded(const char *grammar, size_t grammar_len, const char *source,
                            size_t source_len, char **text, size_t *len)
{
    if (!text || !len)
        return -1;
    *text = NULL;
    *len = 0;
    if (!grammar || (!source && source_len))
        return -1;
    grammar_out_t o = {NULL, 0, 0, 0};
    /* the grounded rules: lines "grounded-NAME ::= ..." */
    int grounded = 0;
    for (size_t i = 0; i < grammar_len;) {
        const char *nl = memchr(grammar + i, '\n', grammar_len - i);
        size_t end = nl ? (size_t)(nl - grammar) + 1 : grammar_len;
        grounded |= end - i > strlen(PREFIX) && memcmp(grammar + i, PREFIX, strlen(PREFIX)) == 0;
        i = end;
    }
    if (!grounded || source_len > CONTRACTC_GBNF_MAX_SOURCE) {
        grammar_put(&o, grammar, grammar_len);
        if (o.failed || !o.data) {
            free(o.data);
            return -1;
        }
        *text = o.data;
        *len = o.len;
        return 1;
    }
    sa_t a;
    memset(&a, 0, sizeof a);
    a.cap_st = (uint32_t)(2 * source_len + 2);
    a.cap_ed = (uint32_t)(3 * source_len + 4);
    a.st = malloc(a.cap_st * sizeof *a.st);
    a.ed = malloc(a.cap_ed * sizeof *a.ed);
    int rc = a.st && a.ed ? 0 : -1;
    if (rc == 0) {
        a.n_ed = 1;
        new_state(&a, 0, 0);
        /* a NUL or a byte outside UTF-8 ends the text; the part after it
         * starts again at the start (its own substrings join the same
         * automaton: a separator code point that no edge is written for) */
        for (size_t i = 0; i < source_len && rc == 0;) {
            uint32_t cp = next_cp((const unsigned char *)source, source_len, &i);
            if (a.n_st + 2 > a.cap_st)
                rc = -1;
            else
                rc = extend(&a, cp == 0 ? 0xFFFFFFFFu : cp);
        }
    }
    if (rc == 0) {
        for (size_t i = 0; i < grammar_len;) {
            const char *nl = memchr(grammar + i, '\n', grammar_len - i);
            size_t end = nl ? (size_t)(nl - grammar) + 1 : grammar_len;
            const char *eq = memchr(grammar + i, ':', end - i);
            if (end - i > strlen(PREFIX) && memcmp(grammar + i, PREFIX, strlen(PREFIX)) == 0 && eq) {
                grammar_put(&o, grammar + i, (size_t)(eq - (grammar + i)));
                grammar_puts(&o, "::= \"\\\"\" src--0\n");
            } else {
                grammar_put(&o, grammar + i, end - i);
            }
            i = end;
        }
        if (o.len && o.data[o.len - 1] != '\n')
            grammar_put(&o, "\n", 1);
        for (uint32_t s = 0; s < a.n_st; s++) {
            put_state(&o, s);
            grammar_puts(&o, " ::= ");
            int first = 1;
            if (s != 0) {
                grammar_puts(&o, "\"\\\"\"");
                first = 0;
            }
            for (uint32_t e = a.st[s].first; e; e = a.ed[e].next) {
                if (a.ed[e].cp == 0xFFFFFFFFu)
                    continue;
                if (!first)
                    grammar_puts(&o, " | ");
                first = 0;
                put_cp(&o, a.ed[e].cp);
                grammar_put(&o, " ", 1);
                put_state(&o, a.ed[e].to);
            }
            if (first) /* an empty source: no substring at all */
                grammar_puts(&o, "[^\\x00-\\U0010FFFF]");
            grammar_put(&o, "\n", 1);
        }
        rc = o.failed ? -1 : 0;
    }
    free(a.st);
    free(a.ed);
    if (rc != 0) {
        free(o.data);
        return -1;
    }
    *text = o.data;
    *len = o.len;
    return 0;
}
