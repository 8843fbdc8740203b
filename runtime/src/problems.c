/* SPDX-License-Identifier: MIT */
/*
 * problems.c - the capped problem list, kind and status names, and the
 * message builder, with the one JSON string escaper and number check.
 */
#include <string.h>

#include "internal.h"
#include "reader.h"

/*
 * The list's storage.  The problems' strings live in text blocks owned by
 * the list and filled in order, so that a reported problem costs no
 * allocation of its own, and dropping the problems from index `keep` on
 * frees the newer blocks and rewinds the one left.  The list's private
 * member texts_ points at the newest block, NULL before the first.  A
 * problem's path is its first text: the rewind goes back to it.
 */
typedef struct contractc_text_block_ {
    struct contractc_text_block_ *prev; /* the older block */
    size_t first;               /* index of the first problem stored here */
    size_t size, used;          /* bytes of data[] */
    char data[];
} cc_text_block_t;

static const char *const kind_names[] = {
#define CONTRACTC_KIND_NAME_(name, text) text,
    CONTRACTC_KIND_TABLE(CONTRACTC_KIND_NAME_)
#undef CONTRACTC_KIND_NAME_
};

const char *contractc_kind_name(contractc_kind_t kind)
{
    if ((unsigned)kind >= (unsigned)CONTRACTC_KIND_COUNT_)
        return "?";
    return kind_names[kind];
}

bool contractc_kind_is_document_level(contractc_kind_t kind)
{
    return kind == CONTRACTC_KIND_EMPTY || kind == CONTRACTC_KIND_SYNTAX ||
           kind == CONTRACTC_KIND_ENCODING || kind == CONTRACTC_KIND_LIMIT ||
           kind == CONTRACTC_KIND_UNKNOWN_TOOL;
}

const char *contractc_status_name(contractc_status_t status)
{
    switch (status) {
    case CONTRACTC_OK: return "ok";
    case CONTRACTC_REJECTED: return "rejected";
    case CONTRACTC_ENOMEM: return "enomem";
    case CONTRACTC_EINVAL: return "einval";
    case CONTRACTC_ESINK: return "esink";
    }
    return "?";
}

void contractc_problems_init(contractc_problems_t *problems)
{
    contractc_problems_init_with(problems, 0, NULL);
}

void contractc_problems_init_with(contractc_problems_t *problems, size_t cap,
                                  const contractc_allocator_t *allocator)
{
    memset(problems, 0, sizeof *problems);
    problems->cap = cap ? cap : CONTRACTC_PROBLEMS_DEFAULT_CAP;
    problems->allocator_ = allocator;
}

/* The first block holds a few problems (a typical rejection has one or
 * two: a small peak); the next ones grow fourfold, so that a hostile reply
 * reaching the default cap takes three blocks. */
#define CC_TEXT_BLOCK_MIN 512u
#define CC_TEXT_BLOCK_MAX 65536u /* then they stay this size */

static size_t items_bytes(size_t capacity)
{
    return capacity * sizeof(contractc_problem_t);
}

void cc_problems_truncate(contractc_problems_t *problems, size_t keep, size_t dropped)
{
    if (keep < problems->count_) {
        cc_text_block_t *b = problems->texts_;
        bool keep_is_here = true; /* problem `keep` has its strings in b */
        while (b && b->first >= keep) {
            cc_text_block_t *prev = b->prev;
            keep_is_here = b->first != keep;
            cc_free(problems->allocator_, b, sizeof *b + b->size);
            b = prev;
        }
        if (b && keep_is_here)
            b->used = (size_t)(problems->items_[keep].path - b->data);
        problems->texts_ = b;
        problems->count_ = keep;
    }
    problems->dropped = dropped;
}

void contractc_problems_clear(contractc_problems_t *problems)
{
    if (!problems)
        return;
    cc_problems_truncate(problems, 0, 0);
    if (problems->items_)
        cc_free(problems->allocator_, problems->items_, items_bytes(problems->capacity_));
    problems->items_ = NULL;
    problems->capacity_ = 0;
    problems->fenced = false;
    problems->error = NULL;
}

size_t contractc_problems_count(const contractc_problems_t *problems)
{
    return problems ? problems->count_ : 0;
}

const contractc_problem_t *contractc_problems_at(const contractc_problems_t *problems,
                                                 size_t i)
{
    if (!problems || i >= problems->count_)
        return NULL;
    return &problems->items_[i];
}

const contractc_problem_t *contractc_problem_at(const contractc_problems_t *problems,
                                                size_t i)
{
    return contractc_problems_at(problems, i);
}

static char *store_text(char *dst, const char *s, size_t n)
{
    memcpy(dst, s, n);
    dst[n] = '\0';
    return dst + n + 1;
}

/*
 * Room for one more problem and `total` bytes of its text: the item array
 * grows (eightfold: from the 8 that hold a typical rejection straight to
 * the default cap, 64, since each step is a malloc, a copy and a free that
 * a hostile reply paid for on top of its problems' own work), and the text
 * goes in the newest block or a new one.  Returns the new item (counted;
 * its path is set to *text, where its strings go), or NULL when out of
 * memory.
 */
static contractc_problem_t *problem_reserve(contractc_problems_t *problems, size_t total,
                                            char **text)
{
    if (problems->count_ == problems->capacity_) {
        size_t cap = problems->capacity_ ? problems->capacity_ * 8 : 8;
        if (cap > problems->cap)
            cap = problems->cap;
        contractc_problem_t *items = cc_alloc(problems->allocator_, items_bytes(cap));
        if (!items)
            return NULL;
        if (problems->items_) {
            if (problems->count_)
                memcpy(items, problems->items_, problems->count_ * sizeof *items);
            cc_free(problems->allocator_, problems->items_, items_bytes(problems->capacity_));
        }
        problems->items_ = items;
        problems->capacity_ = cap;
    }
    cc_text_block_t *b = problems->texts_;
    if (!b || b->size - b->used < total) {
        size_t size = !b ? CC_TEXT_BLOCK_MIN
                    : b->size < CC_TEXT_BLOCK_MAX / 4 ? b->size * 4 : CC_TEXT_BLOCK_MAX;
        if (size < total) /* a problem's strings are never split */
            size = total;
        if (size > (size_t)-1 - sizeof *b)
            return NULL;
        cc_text_block_t *nb = cc_alloc(problems->allocator_, sizeof *nb + size);
        if (!nb)
            return NULL;
        nb->prev = b;
        nb->first = problems->count_;
        nb->size = size;
        nb->used = 0;
        problems->texts_ = b = nb;
    }
    contractc_problem_t *p = &problems->items_[problems->count_++];
    /* The path is stored first: cc_problems_truncate rewinds to it. */
    *text = b->data + b->used;
    p->path = *text;
    b->used += total;
    return p;
}

bool cc_problems_add(contractc_problems_t *problems, contractc_kind_t kind,
                     const char *path, size_t np, const char *message, size_t nm,
                     const char *log_message, size_t nl, const char *rule,
                     size_t line, size_t column)
{
    if (problems->count_ >= problems->cap) {
        problems->dropped++;
        return true;
    }
    /* A message that quotes no reply value is its own log message (the
     * caller passes one text for both): it is stored once. */
    const bool shared = log_message == message && nl == nm;
    size_t nr = rule ? strlen(rule) : 0;
    size_t total = np + 1 + nm + 1 + (shared ? 0 : nl + 1) + (rule ? nr + 1 : 0);
    char *at;
    contractc_problem_t *p = problem_reserve(problems, total, &at);
    if (!p)
        return false;
    p->kind = kind;
    at = store_text(at, path, np);
    p->message = at;
    at = store_text(at, message, nm);
    p->log_message = shared ? p->message : at;
    if (!shared)
        at = store_text(at, log_message, nl);
    p->rule = NULL;
    if (rule) {
        p->rule = at;
        store_text(at, rule, nr);
    }
    p->line = line;
    p->column = column;
    return true;
}

/* ---- message builder --------------------------------------------------- */

void cc_str_init(cc_str_t *s, const contractc_allocator_t *allocator)
{
    memset(s, 0, sizeof *s);
    s->allocator = allocator;
}

void cc_str_append_slow(cc_str_t *s, const char *text, size_t n)
{
    if (s->failed || s->discard)
        return;
    if (s->len + n + 1 > s->capacity) {
        size_t len = s->len;
        size_t cap = s->capacity > 128 ? s->capacity : 128;
        while (cap < len + n + 1)
            cap *= 2;
        char *p = cc_alloc(s->allocator, cap);
        if (!p) {
            /* Sticky: with capacity 0 every later append comes back here
             * and stops at `failed`; nothing is left to free. */
            cc_str_free(s);
            s->failed = true;
            return;
        }
        if (len)
            memcpy(p, s->data, len);
        cc_str_free(s); /* the old heap block, if any (never the caller's buffer) */
        s->data = p;
        s->len = len;
        s->capacity = cap;
        s->owned = true;
    }
    memcpy(s->data + s->len, text, n);
    s->len += n;
    s->data[s->len] = '\0';
}

void cc_str_putu(cc_str_t *s, uint64_t value)
{
    char buf[24];
    size_t i = sizeof buf;
    do {
        buf[--i] = (char)('0' + value % 10);
        value /= 10;
    } while (value);
    cc_str_append(s, buf + i, sizeof buf - i);
}

void cc_str_puti(cc_str_t *s, int64_t value)
{
    if (value < 0) {
        cc_str_append(s, "-", 1);
        cc_str_putu(s, (uint64_t)0 - (uint64_t)value);
    } else {
        cc_str_putu(s, (uint64_t)value);
    }
}

void cc_str_json_string(cc_str_t *s, const char *text, size_t n, size_t max_code_points)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)text;
    size_t run = 0; /* text[run..i) is written as it is, in one append */
    size_t i = 0, code_points = 0;
    cc_str_append(s, "\"", 1);
    while (i < n) {
        const unsigned char c = p[i];
        if (max_code_points && code_points++ == max_code_points) {
            cc_str_append(s, text + run, i - run);
            cc_str_puts(s, "\xE2\x80\xA6"); /* … */
            cc_str_append(s, "\"", 1);
            return;
        }
        if (c >= 0x20 && c != '"' && c != '\\') {
            if (c < 0x80) {
                i++;
                continue;
            }
            const size_t k = cc_utf8_length(p + i, n - i);
            if (k) {
                i += k;
                continue;
            }
        }
        cc_str_append(s, text + run, i - run);
        char esc[6] = {'\\', (char)c, '0', '0', 0, 0};
        size_t len = 2;
        switch (c) {
        case '"': case '\\': break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default:
            if (c < 0x20) {
                esc[1] = 'u';
                esc[4] = hex[c >> 4];
                esc[5] = hex[c & 15];
                len = 6;
            } else { /* starts no well-formed sequence */
                memcpy(esc, "\xEF\xBF\xBD", 3);
                len = 3;
            }
        }
        cc_str_append(s, esc, len);
        run = ++i;
    }
    cc_str_append(s, text + run, n - run);
    cc_str_append(s, "\"", 1);
}

bool cc_json_number_valid(const char *s, size_t n)
{
    /* The reader trims white space around a text: a number has none, and
     * begins with '-' or a digit and ends with a digit. */
    if (!s || n == 0 || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) || s[n - 1] < '0' ||
        s[n - 1] > '9')
        return false;
    cc_reader_t r;
    cc_number_token_t t;
    return cc_reader_begin(&r, s, n, false, 1) && cc_scan_number(&r, &t) && r.p == r.end;
}

char *contractc_json_string(const char *text, size_t len, size_t *out_len)
{
    if (out_len)
        *out_len = 0;
    if (!text && len)
        return NULL;
    cc_str_t s;
    cc_str_init(&s, NULL); /* returned: plain malloc, free() */
    cc_str_json_string(&s, text ? text : "", len, 0);
    if (s.failed) {
        cc_str_free(&s);
        return NULL;
    }
    if (out_len)
        *out_len = s.len;
    return s.data;
}

bool contractc_json_number_valid(const char *text, size_t len)
{
    return cc_json_number_valid(text, len);
}

void cc_str_token(cc_str_t *s, const char *text, size_t n)
{
    if (n > CC_ECHO_CODE_POINTS) {
        cc_str_append(s, text, CC_ECHO_CODE_POINTS);
        cc_str_puts(s, "\xE2\x80\xA6");
    } else {
        cc_str_append(s, text, n);
    }
}
