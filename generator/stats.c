/* SPDX-License-Identifier: MIT */
/*
 * stats.c - `contractc stats LOG... [--json]`: what the decision logs
 * (`contractc-log/1`, docs/contract-language.md §15, "The decision log") say
 * about a contract in use.
 *
 * Everything is grouped by contract hash first: the hash covers the
 * contract, its schema and its prompt, so an edited prompt is a new group,
 * never an average with the old one.  Inside a group, one row for the whole
 * log and one per day and model, so that a rising rejection rate after a
 * model change or on one day stands out; then every (path, kind) with the
 * share of replies that had it, the attempts it took to be accepted, and
 * the routes the application chose.
 *
 * Definitions (also printed with --json's field names):
 * - a reply is an attempt that produced one (accepted or rejected; a model
 *   error produced none); the rejection rate is rejected / replies;
 * - attempts to accept counts every attempt up to and including the
 *   accepted one, model errors included (they used up an attempt);
 * - "cut" counts replies whose finish_reason was "length" or "max_tokens"
 *   (the token limit cut them off);
 * - truncated, refused, filtered count decisions that ended so: outcomes
 *   that are not wrong answers (docs/contract-language.md, "Outcomes that
 *   are not wrong answers"); a truncated attempt is a reply but not a
 *   rejection, a refused or filtered one is not a reply;
 * - model errors are also counted by their `error_class`, where given;
 * - stopped counts streamed replies the client stopped receiving at their
 *   first dead byte (docs/contract-language.md §18, "Streaming in the
 *   loop"); stopped_received sums the bytes they had received, stopped_at
 *   the bytes before their first dead one.  The bytes never received are
 *   not known to anyone but the provider (a stream carries no length).
 *
 * Reading.  A log is untrusted input (a reply chooses the paths in it, a
 * disk or an editor may cut or change lines), so each line is read by the
 * runtime's strict JSON reader (RFC 8259, UTF-8 only, no \u0000, nesting
 * capped), in two passes over the line and without building a tree: the
 * first checks the whole decision, the second counts its problems.  A line
 * is at most CC_STATS_MAX_LINE bytes (docs/contract-language.md, "The
 * decision log"); a longer one is skipped as it is read, never held whole.
 * A line that is not a well-formed decision (the checks of check_line) is
 * counted and reported on stderr with its file and line number, and never
 * stops the count.  Every count is a hash lookup (keymap.h), so the work
 * is linear in the log's bytes.
 *
 * Printing.  Texts from the log (contract names, models, dialects, routes,
 * paths, kinds, error classes) and file names are shown with control
 * characters (C0, DEL, C1) escaped as \u00XX, so a log cannot drive the
 * terminal; --json escapes them the same way inside its strings.  A bad
 * line's message never quotes the line.
 *
 * Errors.  Out of memory, at any allocation, is exit 1 with a message and
 * nothing on stdout; an unreadable log is exit 2; an error writing stdout
 * is exit 1.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "keymap.h"
#include "reader.h"

#define EXIT_USAGE 2
#define BAD_LINES_SHOWN 20
#define ATTEMPT_HISTOGRAM 101 /* attempts 1..100 (CONTRACTC_LOOP_MAX_ATTEMPTS) */
/* The log's own nesting is 5 (line, attempts, attempt, problems,
 * problem); an opted-in value nests as deep as the contract allows, and
 * the reader allows 1024 levels at most. */
#define LOG_MAX_DEPTH 1024u

typedef struct metrics {
    size_t decisions, attempts, replies, rejected, accepted, attempts_to_accept;
    size_t escalated, failed, model_errors, cut, routed;
    size_t truncated, refused, filtered;
    /* streamed replies stopped at their first dead byte, and the bytes
     * they had received then and up to that byte (summed) */
    size_t stopped, stopped_received, stopped_at;
} metrics_t;

typedef struct day_row {
    char day[11];
    char *key;   /* owned: the day, then "\0" (no model) or "\1" and the model */
    char *model; /* inside key, or NULL */
    size_t key_len;
    metrics_t m;
} day_row_t;

typedef struct named_count {
    char *a, *b;   /* a owns one allocation, "a\0b\0"; b inside it or NULL */
    size_t a_len;  /* the key's length: a, or a, NUL and b */
    size_t count;
    size_t stamp;  /* the last reply counted (problems: once per reply) */
} named_count_t;

/* (a, b) -> count, in first-seen order; sorted only for output, after
 * which the index is stale (nothing is added then). */
typedef struct counts {
    named_count_t *items;
    size_t count, capacity;
    cc_keymap_t index;
} counts_t;

typedef struct group {
    char *hash, *contract;
    uint32_t version;
    metrics_t all;
    size_t histogram[ATTEMPT_HISTOGRAM];
    counts_t problems, kinds, routes, models, dialects, error_classes;
    day_row_t *days;
    size_t day_count, day_capacity;
    cc_keymap_t day_index;
} group_t;

/* ---- one line, as read ------------------------------------------------------ */

typedef enum {
    A_ACCEPTED, A_REJECTED, A_MODEL_ERROR, A_TRUNCATED, A_REFUSED, A_FILTERED, A_BAD
} attempt_kind_t;

/* What a member's value was. */
typedef enum { V_ABSENT, V_NULL, V_STRING, V_ARRAY, V_OTHER } value_kind_t;

typedef struct text_field {
    value_kind_t kind;
    const char *s; /* V_STRING: decoded, NUL-terminated, in the line's arena */
} text_field_t;

typedef struct line_attempt {
    attempt_kind_t kind;
    bool cut;                     /* finish_reason "length" or "max_tokens" */
    value_kind_t finish_kind, error_class_kind, problems_kind;
    const char *error_class;      /* V_STRING */
    bool bad_problem;             /* an item of problems without string path and kind */
    size_t problem_count;
    /* stopped_at and received (a streamed reply stopped when it was dead):
     * V_ABSENT, V_OTHER for a non-negative integer (kept in the value),
     * or V_NULL standing for anything else */
    value_kind_t stopped_kind, received_kind;
    size_t stopped_at, received;
} line_attempt_t;

typedef struct line {
    char *text;                   /* the line, without its line break */
    size_t len, cap;
    char *arena;                  /* decoded strings: never more than len + 1 bytes */
    size_t arena_len, arena_cap;
    text_field_t log, time, contract, hash, model, dialect, route, record_id, outcome;
    bool version_ok;              /* an integer 1..UINT32_MAX */
    uint32_t version;
    value_kind_t attempts_kind;
    size_t attempt_count;         /* all items; the first ATTEMPT_HISTOGRAM are kept */
    line_attempt_t attempts[ATTEMPT_HISTOGRAM];
    const char *duplicate;        /* the first member that appeared twice */
    contractc_kind_t fail_kind;   /* why the reader refused the line */
} line_t;

typedef struct stats {
    group_t *groups;
    size_t group_count, group_capacity;
    cc_keymap_t group_index;
    size_t files, lines, decisions, bad, blank;
    size_t max_line;
    size_t reply_stamp;
    char *key;                    /* scratch for composite keys */
    size_t key_cap;
    line_t line;
    FILE *err;
    bool oom;
} stats_t;

/* ---- shown text ------------------------------------------------------------- */

/* Emits s as shown to a person, in pieces, through emit: C0 controls, DEL
 * and C1 controls as \u00XX, a byte that is not well-formed UTF-8 as \xHH,
 * the rest as it is.  A backslash stays one: the runtime's paths already
 * write a control character in a key as \u00XX (RFC 9535), so a path shows
 * the same whether the log held it escaped or not.  Allocates nothing. */
typedef void (*emit_fn)(void *ctx, const char *bytes, size_t n);

static void shown(emit_fn emit, void *ctx, const char *s)
{
    static const char hex[] = "0123456789abcdef", HEX[] = "0123456789ABCDEF";
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s), run = 0, i = 0;
    while (i < n) {
        unsigned char c = p[i];
        size_t k = c < 0x80 ? 1 : cc_utf8_length(p + i, n - i);
        bool control = c < 0x20 || c == 0x7F || (k == 2 && c == 0xC2 && p[i + 1] < 0xA0);
        if (k && !control) {
            i += k;
            continue;
        }
        if (i > run)
            emit(ctx, s + run, i - run);
        if (!k) {
            char esc[4] = {'\\', 'x', HEX[c >> 4], HEX[c & 15]};
            emit(ctx, esc, 4);
        } else {
            unsigned cp = k == 2 ? p[i + 1] : c;
            char esc[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15]};
            emit(ctx, esc, 6);
        }
        i += k ? k : 1;
        run = i;
    }
    if (n > run)
        emit(ctx, s + run, n - run);
}

static void emit_buf(void *ctx, const char *bytes, size_t n) { cc_buf_append(ctx, bytes, n); }

static void emit_file(void *ctx, const char *bytes, size_t n) { fwrite(bytes, 1, n, ctx); }

/* Appends s shown (shown()) to b. */
static void buf_shown(cc_buf_t *b, const char *s) { shown(emit_buf, b, s); }

/* Writes s shown (shown()) to f. */
static void put_shown(FILE *f, const char *s) { shown(emit_file, f, s); }

/* ---- small containers ------------------------------------------------------- */

static bool grow(void **items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return true;
    size_t cap = *capacity ? *capacity * 2 : 8;
    if (cap < *capacity || cap > (size_t)-1 / size)
        return false;
    void *p = realloc(*items, cap * size);
    if (!p)
        return false;
    *items = p;
    *capacity = cap;
    return true;
}

/* The scratch key: a, then (when b) a NUL and b.  NULL when out of memory. */
static const char *make_key(stats_t *s, const char *a, const char *b, size_t *len)
{
    size_t na = strlen(a), nb = b ? strlen(b) + 1 : 0;
    size_t need = na + nb + 1;
    if (need > s->key_cap) {
        size_t cap = s->key_cap ? s->key_cap : 64;
        while (cap < need)
            cap *= 2;
        char *k = realloc(s->key, cap);
        if (!k)
            return NULL;
        s->key = k;
        s->key_cap = cap;
    }
    memcpy(s->key, a, na + 1);
    if (b)
        memcpy(s->key + na + 1, b, nb);
    *len = na + nb;
    return s->key;
}

static void counts_init(counts_t *c)
{
    memset(c, 0, sizeof *c);
    cc_keymap_init(&c->index);
}

/* Adds n to the count of (a, b) (b NULL for one-name counts) unless it was
 * already counted for `stamp` (0: count always); false when out of
 * memory. */
static bool counts_add(stats_t *s, counts_t *c, const char *a, const char *b, size_t n,
                       size_t stamp)
{
    size_t len, at;
    const char *key = make_key(s, a, b, &len);
    if (!key)
        return false;
    uint64_t h = cc_keymap_hash(&c->index, key, len);
    if (cc_keymap_find(&c->index, key, len, h, &at)) {
        named_count_t *e = &c->items[at];
        if (!stamp || e->stamp != stamp)
            e->count += n;
        e->stamp = stamp;
        return true;
    }
    if (!grow((void **)&c->items, &c->capacity, c->count, sizeof *c->items))
        return false;
    char *copy = malloc(len + 1);
    if (!copy)
        return false;
    memcpy(copy, key, len + 1);
    if (!cc_keymap_insert(&c->index, copy, len, h, c->count)) {
        free(copy);
        return false;
    }
    named_count_t *e = &c->items[c->count++];
    e->a = copy;
    e->b = b ? copy + strlen(a) + 1 : NULL;
    e->a_len = len;
    e->count = n;
    e->stamp = stamp;
    return true;
}

static void counts_free(counts_t *c)
{
    for (size_t i = 0; i < c->count; i++)
        free(c->items[i].a);
    free(c->items);
    cc_keymap_free(&c->index);
}

/* Most frequent first, then by name, so the output is stable. */
static int by_count(const void *x, const void *y)
{
    const named_count_t *a = x, *b = y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    int c = strcmp(a->a, b->a);
    return c ? c : strcmp(a->b ? a->b : "", b->b ? b->b : "");
}

static void counts_sort(counts_t *c)
{
    if (c->count > 1)
        qsort(c->items, c->count, sizeof *c->items, by_count);
}

static int by_day(const void *x, const void *y)
{
    const day_row_t *a = x, *b = y;
    int c = strcmp(a->day, b->day);
    return c ? c : strcmp(a->model ? a->model : "", b->model ? b->model : "");
}

static void stats_free(stats_t *s)
{
    for (size_t i = 0; i < s->group_count; i++) {
        group_t *g = &s->groups[i];
        free(g->hash);
        free(g->contract);
        counts_free(&g->problems);
        counts_free(&g->kinds);
        counts_free(&g->routes);
        counts_free(&g->models);
        counts_free(&g->dialects);
        counts_free(&g->error_classes);
        for (size_t k = 0; k < g->day_count; k++)
            free(g->days[k].key);
        free(g->days);
        cc_keymap_free(&g->day_index);
    }
    free(s->groups);
    cc_keymap_free(&s->group_index);
    free(s->key);
    free(s->line.text);
    free(s->line.arena);
}

/* ---- reading one line ------------------------------------------------------- */

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* The date part of an RFC 3339 date-time (the log's `time`), checked enough
 * to group by: YYYY-MM-DDThh:mm:ss followed by a fraction or an offset. */
static bool day_of(const char *time, char day[11])
{
    size_t n = strlen(time);
    if (n < 20 || !all_digits(time, 4) || time[4] != '-' || !all_digits(time + 5, 2) ||
        time[7] != '-' || !all_digits(time + 8, 2) || time[10] != 'T' ||
        !all_digits(time + 11, 2) || time[13] != ':' || !all_digits(time + 14, 2) ||
        time[16] != ':' || !all_digits(time + 17, 2))
        return false;
    int month = (time[5] - '0') * 10 + (time[6] - '0');
    int mday = (time[8] - '0') * 10 + (time[9] - '0');
    if (month < 1 || month > 12 || mday < 1 || mday > 31)
        return false;
    memcpy(day, time, 10);
    day[10] = '\0';
    return true;
}

/* "sha256:" and 64 lowercase hex digits, as the generator writes it. */
static bool hash_valid(const char *h)
{
    if (strncmp(h, "sha256:", 7) != 0 || strlen(h) != 71)
        return false;
    for (size_t i = 7; i < 71; i++)
        if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
            return false;
    return true;
}

static attempt_kind_t attempt_kind(const char *s)
{
    if (!s)
        return A_BAD;
    if (strcmp(s, "accepted") == 0)
        return A_ACCEPTED;
    if (strcmp(s, "rejected") == 0)
        return A_REJECTED;
    if (strcmp(s, "model_error") == 0)
        return A_MODEL_ERROR;
    if (strcmp(s, "truncated") == 0)
        return A_TRUNCATED;
    if (strcmp(s, "refused") == 0)
        return A_REFUSED;
    if (strcmp(s, "filtered") == 0)
        return A_FILTERED;
    return A_BAD;
}

/* Called by the second pass for each problem of attempt `attempt`. */
typedef bool (*problem_fn)(void *ctx, size_t attempt, const char *path, const char *kind);

typedef enum { PARSE_OK, PARSE_NOT_JSON, PARSE_NOT_OBJECT, PARSE_OOM } parse_status_t;

typedef struct parser {
    cc_reader_t r;
    line_t *L;
    problem_fn fn;                /* NULL in the first pass */
    void *ctx;
    bool oom;                     /* fn failed */
} parser_t;

/* A string token decoded into the arena (room: see line_t). */
static const char *arena_string(line_t *L, const cc_string_token_t *t)
{
    char *d = L->arena + L->arena_len;
    cc_decode_string(t, d);
    d[t->decoded_len] = '\0';
    L->arena_len += t->decoded_len + 1;
    return d;
}

/* A short string token into buf (size > 0): false when it does not fit. */
static bool short_string(const cc_string_token_t *t, char *buf, size_t size)
{
    if (t->decoded_len >= size)
        return false;
    cc_decode_string(t, buf);
    buf[t->decoded_len] = '\0';
    return true;
}

/* Reads any value, noting only its kind; false on a JSON error. */
static bool skip_noting(parser_t *p, value_kind_t *kind)
{
    cc_reader_t *r = &p->r;
    int c = cc_peek(r);
    if (c == 'n' && r->end - r->p >= 4 && memcmp(r->p, "null", 4) == 0) {
        cc_literal_t l;
        *kind = V_NULL;
        return cc_scan_literal(r, &l);
    }
    *kind = c == '[' ? V_ARRAY : V_OTHER;
    return cc_skip_value(r);
}

/* A string or null; the string into the arena when `keep`. */
static bool read_text(parser_t *p, text_field_t *f, bool keep)
{
    cc_reader_t *r = &p->r;
    if (cc_peek(r) != '"')
        return skip_noting(p, &f->kind);
    cc_string_token_t t;
    if (!cc_scan_string(r, &t))
        return false;
    f->kind = V_STRING;
    f->s = keep ? arena_string(p->L, &t) : NULL;
    return true;
}

/* Object members: calls member(p, name, user) at the value of each key
 * that is one of `names` (NULL-terminated; `name` is the entry itself, so
 * it compares by address) and skips the others.  The reader is at '{'. */
typedef bool (*member_fn)(parser_t *p, const char *key, void *user);

static bool read_object(parser_t *p, const char *const *names, member_fn member, void *user)
{
    cc_reader_t *r = &p->r;
    if (!cc_expect(r, '{', "'{'") || !cc_enter(r))
        return false;
    if (cc_peek(r) == '}') {
        r->p++;
        cc_leave(r);
        return true;
    }
    for (;;) {
        cc_string_token_t t;
        char key[24];
        if (!cc_scan_string(r, &t) || !cc_expect(r, ':', "':' after the key"))
            return false;
        const char *name = NULL;
        if (short_string(&t, key, sizeof key))
            for (size_t i = 0; names[i] && !name; i++)
                if (strcmp(names[i], key) == 0)
                    name = names[i];
        if (name ? !member(p, name, user) : !cc_skip_value(r))
            return false;
        int c = cc_peek(r);
        if (c == ',') {
            r->p++;
            if (cc_peek(r) != '"')
                return cc_scan_string(r, &t); /* fails: "expected a string" */
            continue;
        }
        if (!cc_expect(r, '}', "',' or '}' after a member of an object"))
            return false;
        cc_leave(r);
        return true;
    }
}

/* Array items: calls item(p, index, user) at each. The reader is at '['. */
typedef bool (*item_fn)(parser_t *p, size_t index, void *user);

static bool read_array(parser_t *p, item_fn item, void *user)
{
    cc_reader_t *r = &p->r;
    if (!cc_expect(r, '[', "'['") || !cc_enter(r))
        return false;
    if (cc_peek(r) == ']') {
        r->p++;
        cc_leave(r);
        return true;
    }
    for (size_t i = 0;; i++) {
        if (!item(p, i, user))
            return false;
        int c = cc_peek(r);
        if (c == ',') {
            r->p++;
            if (cc_peek(r) == ']')
                return cc_skip_value(r); /* fails: "unexpected ']'" */
            continue;
        }
        if (!cc_expect(r, ']', "',' or ']' after an item of an array"))
            return false;
        cc_leave(r);
        return true;
    }
}

/* Notes a member seen twice (the first such) and says whether it is new. */
static bool first_time(parser_t *p, bool *seen, const char *key)
{
    if (*seen) {
        if (!p->L->duplicate)
            p->L->duplicate = key;
        return false;
    }
    *seen = true;
    return true;
}

/* ---- a problem: {path, kind, ...} */

typedef struct problem_read {
    text_field_t path, kind;
    bool seen_path, seen_kind;
} problem_read_t;

static const char *const problem_names[] = {"path", "kind", NULL};

static bool problem_member(parser_t *p, const char *key, void *user)
{
    problem_read_t *q = user;
    bool path = key == problem_names[0];
    text_field_t scratch;
    bool first = first_time(p, path ? &q->seen_path : &q->seen_kind, key);
    /* the first pass only notes the types; the second decodes */
    return read_text(p, first ? (path ? &q->path : &q->kind) : &scratch, p->fn != NULL);
}

static bool problem_item(parser_t *p, size_t index, void *user)
{
    (void)index;
    line_attempt_t *at = user;
    line_t *L = p->L;
    problem_read_t q;
    memset(&q, 0, sizeof q);
    if (cc_peek(&p->r) != '{') {
        value_kind_t k;
        at->bad_problem = true;
        return skip_noting(p, &k);
    }
    size_t mark = L->arena_len;
    if (!read_object(p, problem_names, problem_member, &q))
        return false;
    if (q.path.kind != V_STRING || q.kind.kind != V_STRING) {
        at->bad_problem = true;
        return true;
    }
    if (!p->fn) {
        at->problem_count++;
        return true;
    }
    bool ok = p->fn(p->ctx, (size_t)(at - L->attempts), q.path.s, q.kind.s);
    L->arena_len = mark; /* the next problem's strings go where these were */
    if (!ok)
        p->oom = true;
    return ok;
}

/* ---- an attempt: {outcome, finish_reason, error_class, problems, ...} */

typedef struct attempt_read {
    line_attempt_t *at;
    bool seen[6];
} attempt_read_t;

static const char *const attempt_names[] = {"outcome",    "finish_reason", "error_class",
                                            "problems",   "stopped_at",    "received",
                                            NULL};

/* A count as the writer prints it (a byte count, the version): a
 * non-negative integer of at most 19 digits that fits a size_t (V_OTHER
 * with *value), else V_NULL (not one). */
static bool read_count(parser_t *p, value_kind_t *kind, size_t *value)
{
    cc_reader_t *r = &p->r;
    int c = cc_peek(r);
    if (!(c >= '0' && c <= '9')) {
        value_kind_t k;
        *kind = V_NULL;
        return skip_noting(p, &k);
    }
    cc_number_token_t n;
    if (!cc_scan_number(r, &n))
        return false;
    *kind = V_NULL;
    if (n.negative || n.has_fraction || n.has_exponent || n.len > 19)
        return true;
    uint64_t v = 0;
    for (size_t i = 0; i < n.len; i++)
        v = v * 10 + (uint64_t)(n.text[i] - '0');
    if (v > SIZE_MAX)
        return true;
    *kind = V_OTHER;
    *value = (size_t)v;
    return true;
}

static bool attempt_member(parser_t *p, const char *key, void *user)
{
    attempt_read_t *a = user;
    line_attempt_t *at = a->at;
    cc_reader_t *r = &p->r;
    size_t which = 0;
    while (attempt_names[which] != key)
        which++;
    bool first = first_time(p, &a->seen[which], key);
    if (p->fn && which != 3)
        return cc_skip_value(r); /* the second pass reads the problems only */
    if (which == 4 || which == 5) {
        value_kind_t k;
        size_t v = 0;
        if (!read_count(p, &k, &v))
            return false;
        if (first && which == 4) {
            at->stopped_kind = k;
            at->stopped_at = v;
        } else if (first) {
            at->received_kind = k;
            at->received = v;
        }
        return true;
    }
    if (which == 3) {
        if (cc_peek(r) != '[' || !first) {
            value_kind_t k;
            if (!skip_noting(p, &k))
                return false;
            if (first)
                at->problems_kind = k;
            return true;
        }
        at->problems_kind = V_ARRAY;
        return read_array(p, problem_item, at);
    }
    if (which == 2) { /* error_class: kept, it is counted */
        text_field_t f = {V_ABSENT, NULL};
        if (!read_text(p, &f, first))
            return false;
        if (first) {
            at->error_class_kind = f.kind;
            at->error_class = f.s;
        }
        return true;
    }
    /* outcome, finish_reason: short words */
    value_kind_t kind;
    char text[24];
    bool fits = false;
    if (cc_peek(r) == '"') {
        cc_string_token_t t;
        if (!cc_scan_string(r, &t))
            return false;
        kind = V_STRING;
        fits = short_string(&t, text, sizeof text);
    } else if (!skip_noting(p, &kind)) {
        return false;
    }
    if (!first)
        return true;
    if (which == 0) {
        at->kind = kind == V_STRING && fits ? attempt_kind(text) : A_BAD;
    } else {
        at->finish_kind = kind;
        at->cut = kind == V_STRING && fits &&
                  (strcmp(text, "length") == 0 || strcmp(text, "max_tokens") == 0);
    }
    return true;
}

static bool attempt_item(parser_t *p, size_t index, void *user)
{
    (void)user;
    line_t *L = p->L;
    if (!p->fn)
        L->attempt_count = index + 1;
    if (index >= ATTEMPT_HISTOGRAM) /* a bad line: read on, keep nothing */
        return cc_skip_value(&p->r);
    line_attempt_t *at = &L->attempts[index];
    if (!p->fn) {
        memset(at, 0, sizeof *at);
        at->kind = A_BAD;
    }
    if (cc_peek(&p->r) != '{')
        return cc_skip_value(&p->r); /* stays A_BAD */
    attempt_read_t a;
    memset(&a, 0, sizeof a);
    a.at = at;
    return read_object(p, attempt_names, attempt_member, &a);
}

/* ---- the line: {log, time, ..., attempts, outcome, route, ...} */

static const char *const line_names[] = {"log",       "time",    "contract", "version",
                                         "hash",      "model",   "dialect",  "route",
                                         "record_id", "outcome", "attempts", NULL};

typedef struct line_read {
    bool seen[11];
} line_read_t;

static bool line_member(parser_t *p, const char *key, void *user)
{
    line_read_t *lr = user;
    line_t *L = p->L;
    cc_reader_t *r = &p->r;
    size_t which = 0;
    while (line_names[which] != key)
        which++;
    bool first = first_time(p, &lr->seen[which], key);
    if (which == 10) { /* attempts */
        if (cc_peek(r) != '[' || !first) {
            value_kind_t k;
            if (!skip_noting(p, &k))
                return false;
            if (first)
                L->attempts_kind = k;
            return true;
        }
        if (!p->fn)
            L->attempts_kind = V_ARRAY;
        return read_array(p, attempt_item, NULL);
    }
    if (p->fn)
        return cc_skip_value(r); /* the second pass reads the problems only */
    if (which == 3) { /* version: an integer, as the writer prints it */
        value_kind_t k;
        size_t v = 0;
        if (!read_count(p, &k, &v))
            return false;
        if (first && k == V_OTHER && v >= 1 && (uint64_t)v <= UINT32_MAX) {
            L->version_ok = true;
            L->version = (uint32_t)v;
        }
        return true;
    }
    text_field_t *fields[] = {&L->log,   &L->time,    &L->contract, NULL,          &L->hash,
                              &L->model, &L->dialect, &L->route,    &L->record_id, &L->outcome};
    text_field_t scratch;
    return read_text(p, first ? fields[which] : &scratch, first);
}

/* Reads L->text.  The first pass (fn NULL) fills L; the second, on a line
 * the first found well-formed, calls fn for every problem and changes
 * nothing else. */
static parse_status_t parse_line(line_t *L, problem_fn fn, void *ctx)
{
    if (!fn) {
        /* decoded strings are never longer than their tokens: len + 1
         * bytes hold the kept strings of one pass and one problem's */
        if (L->arena_cap < L->len + 1) {
            size_t cap = L->arena_cap ? L->arena_cap : 256;
            while (cap < L->len + 1)
                cap *= 2;
            char *a = malloc(cap);
            if (!a)
                return PARSE_OOM;
            free(L->arena);
            L->arena = a;
            L->arena_cap = cap;
        }
        L->arena_len = 0;
        text_field_t none = {V_ABSENT, NULL};
        L->log = L->time = L->contract = L->hash = L->model = L->dialect = L->route =
            L->record_id = L->outcome = none;
        L->attempts_kind = V_ABSENT;
        L->version_ok = false;
        L->attempt_count = 0;
        L->duplicate = NULL;
    }
    parser_t p;
    memset(&p, 0, sizeof p);
    p.L = L;
    p.fn = fn;
    p.ctx = ctx;
    L->fail_kind = CONTRACTC_KIND_SYNTAX;
    parse_status_t st = PARSE_OK;
    if (!cc_reader_begin(&p.r, L->text, L->len, false, LOG_MAX_DEPTH))
        st = PARSE_NOT_JSON;
    else if (cc_peek(&p.r) != '{')
        st = cc_skip_value(&p.r) && cc_reader_finish(&p.r) ? PARSE_NOT_OBJECT : PARSE_NOT_JSON;
    else {
        line_read_t lr;
        memset(&lr, 0, sizeof lr);
        if (!read_object(&p, line_names, line_member, &lr) || !cc_reader_finish(&p.r))
            st = p.oom ? PARSE_OOM : PARSE_NOT_JSON;
    }
    if (p.r.failed)
        L->fail_kind = p.r.fail_kind;
    return st;
}

static bool optional_text(const text_field_t *f)
{
    return f->kind == V_ABSENT || f->kind == V_NULL || f->kind == V_STRING;
}

/* Checks a parsed line; NULL when it is a well-formed decision, else why
 * not (a constant text: it never quotes the line). */
static const char *check_line(const line_t *L, char day[11])
{
    if (L->duplicate)
        return "a member appears twice in one object";
    if (L->log.kind != V_STRING || strcmp(L->log.s, "contractc-log/1") != 0)
        return "\"log\" is not \"contractc-log/1\"";
    if (L->time.kind != V_STRING || !day_of(L->time.s, day))
        return "\"time\" is not an RFC 3339 date-time";
    if (L->contract.kind != V_STRING)
        return "\"contract\" is missing or not a string";
    if (!L->version_ok)
        return "\"version\" is missing or not an integer from 1 to 4294967295";
    if (L->hash.kind != V_STRING || !hash_valid(L->hash.s))
        return "\"hash\" is missing or not \"sha256:\" and 64 lowercase hex digits";
    if (!optional_text(&L->model) || !optional_text(&L->dialect) || !optional_text(&L->route) ||
        !optional_text(&L->record_id))
        return "\"model\", \"dialect\", \"route\" or \"record_id\" is not a string or null";
    size_t n = L->attempt_count;
    if (L->attempts_kind != V_ARRAY || n == 0)
        return "\"attempts\" is missing or empty";
    if (n >= ATTEMPT_HISTOGRAM)
        return "more attempts than a loop can make";
    size_t accepted = 0, rejected = 0, accepted_at = (size_t)-1;
    attempt_kind_t last = A_BAD;
    for (size_t i = 0; i < n; i++) {
        const line_attempt_t *a = &L->attempts[i];
        attempt_kind_t k = a->kind;
        if (k == A_BAD)
            return "an attempt's \"outcome\" is not accepted, rejected, model_error, truncated, "
                   "refused or filtered";
        /* Refused and filtered end a run; a truncated attempt may be
         * followed by one on_truncated retry. */
        if (i + 1 < n && (k == A_REFUSED || k == A_FILTERED))
            return "a refused or filtered attempt must be the last";
        if (k == A_MODEL_ERROR && a->error_class_kind != V_ABSENT &&
            a->error_class_kind != V_NULL && a->error_class_kind != V_STRING)
            return "an attempt's \"error_class\" is not a string";
        last = k;
        if (k == A_ACCEPTED) {
            accepted++;
            accepted_at = i;
        }
        rejected += k == A_REJECTED;
        if (a->problems_kind != V_ARRAY)
            return "an attempt has no \"problems\" array";
        if (a->bad_problem)
            return "a problem lacks \"path\" or \"kind\"";
        if (a->finish_kind != V_ABSENT && a->finish_kind != V_NULL && a->finish_kind != V_STRING)
            return "an attempt's \"finish_reason\" is not a string or null";
        if (a->stopped_kind != a->received_kind ||
            (a->stopped_kind != V_ABSENT &&
             (a->stopped_kind != V_OTHER || k != A_REJECTED || a->stopped_at >= a->received)))
            return "an attempt's \"stopped_at\" and \"received\" are not byte counts of a "
                   "rejected reply, the first less than the second";
    }
    if (L->outcome.kind != V_STRING)
        return "\"outcome\" is missing";
    const char *outcome = L->outcome.s;
    if (strcmp(outcome, "accepted") == 0) {
        if (accepted != 1 || accepted_at != n - 1)
            return "an accepted decision must end with its only accepted attempt";
    } else if (strcmp(outcome, "escalated") == 0) {
        if (accepted || !rejected)
            return "an escalated decision must have rejected and no accepted attempts";
    } else if (strcmp(outcome, "failed") == 0) {
        if (accepted || rejected || last != A_MODEL_ERROR)
            return "a failed decision must have only model errors";
    } else if (strcmp(outcome, "truncated") == 0 || strcmp(outcome, "refused") == 0 ||
               strcmp(outcome, "filtered") == 0) {
        if (accepted || last != attempt_kind(outcome))
            return "a truncated, refused or filtered decision must end with such an attempt";
    } else {
        return "\"outcome\" is not accepted, escalated, failed, truncated, refused or filtered";
    }
    return NULL;
}

/* ---- counting a decision ---------------------------------------------------- */

static group_t *find_group(stats_t *s, const char *hash, uint64_t h)
{
    size_t at;
    return cc_keymap_find(&s->group_index, hash, strlen(hash), h, &at) ? &s->groups[at] : NULL;
}

static group_t *new_group(stats_t *s, const line_t *L, uint64_t h)
{
    if (!grow((void **)&s->groups, &s->group_capacity, s->group_count, sizeof *s->groups))
        return NULL;
    group_t *g = &s->groups[s->group_count];
    memset(g, 0, sizeof *g);
    g->hash = cc_strdup(L->hash.s);
    g->contract = cc_strdup(L->contract.s);
    g->version = L->version;
    if (!g->hash || !g->contract ||
        !cc_keymap_insert(&s->group_index, g->hash, strlen(g->hash), h, s->group_count)) {
        free(g->hash);
        free(g->contract);
        return NULL;
    }
    counts_init(&g->problems);
    counts_init(&g->kinds);
    counts_init(&g->routes);
    counts_init(&g->models);
    counts_init(&g->dialects);
    counts_init(&g->error_classes);
    cc_keymap_init(&g->day_index);
    s->group_count++;
    return g;
}

static day_row_t *day_for(group_t *g, const char *day, const char *model)
{
    size_t mlen = model ? strlen(model) : 0;
    size_t len = 11 + mlen;
    char *key = malloc(len + 1);
    if (!key)
        return NULL;
    memcpy(key, day, 10);
    key[10] = model ? '\1' : '\0';
    if (model)
        memcpy(key + 11, model, mlen);
    key[len] = '\0';
    uint64_t h = cc_keymap_hash(&g->day_index, key, len);
    size_t at;
    if (cc_keymap_find(&g->day_index, key, len, h, &at)) {
        free(key);
        return &g->days[at];
    }
    if (!grow((void **)&g->days, &g->day_capacity, g->day_count, sizeof *g->days) ||
        !cc_keymap_insert(&g->day_index, key, len, h, g->day_count)) {
        free(key);
        return NULL;
    }
    day_row_t *r = &g->days[g->day_count++];
    memset(r, 0, sizeof *r);
    memcpy(r->day, day, 10);
    r->key = key;
    r->key_len = len;
    r->model = model ? key + 11 : NULL;
    return r;
}

typedef struct count_ctx {
    stats_t *s;
    group_t *g;
    size_t attempt; /* the attempt whose problems are being counted, + 1 */
} count_ctx_t;

/* The second pass: each (path, kind) once per reply, each kind every time. */
static bool count_problem(void *ctx, size_t attempt, const char *path, const char *kind)
{
    count_ctx_t *c = ctx;
    stats_t *s = c->s;
    if (c->s->line.attempts[attempt].kind != A_REJECTED)
        return true;
    if (c->attempt != attempt + 1) {
        c->attempt = attempt + 1;
        s->reply_stamp++;
    }
    return counts_add(s, &c->g->problems, path, kind, 1, s->reply_stamp) &&
           counts_add(s, &c->g->kinds, kind, NULL, 1, 0);
}

typedef enum { ADD_OK, ADD_BAD, ADD_OOM } add_status_t;

/* Adds the well-formed decision in s->line to its group. */
static add_status_t add_decision(stats_t *s, const char *day, const char **why)
{
    line_t *L = &s->line;
    uint64_t h = cc_keymap_hash(&s->group_index, L->hash.s, strlen(L->hash.s));
    group_t *g = find_group(s, L->hash.s, h);
    if (g && (strcmp(g->contract, L->contract.s) != 0 || g->version != L->version)) {
        /* the hash covers the name and the version (docs/contract-language.md) */
        *why = "\"contract\" or \"version\" differs from an earlier line with the same hash";
        return ADD_BAD;
    }
    if (!g && !(g = new_group(s, L, h)))
        return ADD_OOM;
    const char *model = L->model.kind == V_STRING ? L->model.s : NULL;
    const char *dialect = L->dialect.kind == V_STRING ? L->dialect.s : NULL;
    const char *route = L->route.kind == V_STRING ? L->route.s : NULL;
    day_row_t *row = day_for(g, day, model);
    if (!row)
        return ADD_OOM;
    metrics_t d;
    memset(&d, 0, sizeof d);
    d.decisions = 1;
    const char *outcome = L->outcome.s;
    d.escalated = strcmp(outcome, "escalated") == 0;
    d.failed = strcmp(outcome, "failed") == 0;
    d.truncated = strcmp(outcome, "truncated") == 0;
    d.refused = strcmp(outcome, "refused") == 0;
    d.filtered = strcmp(outcome, "filtered") == 0;
    d.routed = route != NULL;
    bool any_problems = false;
    for (size_t i = 0; i < L->attempt_count; i++) {
        const line_attempt_t *a = &L->attempts[i];
        d.attempts++;
        if (a->kind == A_MODEL_ERROR) {
            d.model_errors++;
            if (a->error_class_kind == V_STRING &&
                !counts_add(s, &g->error_classes, a->error_class, NULL, 1, 0))
                return ADD_OOM;
            continue;
        }
        if (a->kind == A_REFUSED || a->kind == A_FILTERED)
            continue; /* no reply to count */
        d.replies++;
        d.cut += a->cut;
        if (a->kind == A_TRUNCATED)
            continue; /* cut by the provider: not the model's wrong answer */
        if (a->kind == A_ACCEPTED) {
            d.accepted = 1;
            d.attempts_to_accept = i + 1;
            g->histogram[i + 1]++;
            continue;
        }
        d.rejected++;
        any_problems |= a->problem_count > 0;
        if (a->stopped_kind == V_OTHER) {
            d.stopped++;
            d.stopped_received += a->received;
            d.stopped_at += a->stopped_at;
        }
    }
    if (any_problems) {
        count_ctx_t c = {s, g, 0};
        parse_status_t st = parse_line(L, count_problem, &c);
        if (st != PARSE_OK)
            return ADD_OOM; /* the first pass read the same bytes: only memory fails */
    }
    metrics_t *targets[2] = {&g->all, &row->m};
    for (int t = 0; t < 2; t++) {
        metrics_t *m = targets[t];
        m->decisions += d.decisions;
        m->attempts += d.attempts;
        m->replies += d.replies;
        m->rejected += d.rejected;
        m->accepted += d.accepted;
        m->attempts_to_accept += d.attempts_to_accept;
        m->escalated += d.escalated;
        m->failed += d.failed;
        m->model_errors += d.model_errors;
        m->cut += d.cut;
        m->routed += d.routed;
        m->truncated += d.truncated;
        m->refused += d.refused;
        m->filtered += d.filtered;
        m->stopped += d.stopped;
        m->stopped_received += d.stopped_received;
        m->stopped_at += d.stopped_at;
    }
    if (route && !counts_add(s, &g->routes, route, NULL, 1, 0))
        return ADD_OOM;
    if (!counts_add(s, &g->models, model ? model : "(none)", NULL, 1, 0) ||
        !counts_add(s, &g->dialects, dialect ? dialect : "(none)", NULL, 1, 0))
        return ADD_OOM;
    return ADD_OK;
}

static void bad_line(stats_t *s, const char *file, size_t line, const char *why)
{
    s->bad++;
    if (s->bad <= BAD_LINES_SHOWN) {
        fputs("contractc stats: ", s->err);
        put_shown(s->err, file);
        fprintf(s->err, ":%zu: bad line: %s\n", line, why);
    }
}

/* Why the reader refused a line (never its bytes). */
static const char *not_json_why(contractc_kind_t kind)
{
    switch (kind) {
    case CONTRACTC_KIND_ENCODING:
        return "not JSON in UTF-8 (an invalid byte, a \\u0000 or a lone surrogate)";
    case CONTRACTC_KIND_LIMIT:
        return "nested deeper than 1024 levels";
    default:
        return "not JSON (a line cut by a failed write?)";
    }
}

/* One line (s->line.text), counted as a decision or a bad line; false when
 * out of memory. */
static bool take_line(stats_t *s, const char *name, size_t number)
{
    line_t *L = &s->line;
    s->lines++;
    if (memchr(L->text, '\0', L->len)) {
        bad_line(s, name, number, "a NUL byte in the line");
        return true;
    }
    parse_status_t st = parse_line(L, NULL, NULL);
    if (st == PARSE_OOM)
        return false;
    if (st == PARSE_NOT_JSON) {
        bad_line(s, name, number, not_json_why(L->fail_kind));
        return true;
    }
    if (st == PARSE_NOT_OBJECT) {
        bad_line(s, name, number, "not a JSON object");
        return true;
    }
    char day[11];
    const char *why = check_line(L, day);
    if (!why) {
        add_status_t a = add_decision(s, day, &why);
        if (a == ADD_OOM)
            return false;
        if (a == ADD_OK) {
            s->decisions++;
            return true;
        }
    }
    bad_line(s, name, number, why);
    return true;
}

/* Reads one log from f; false when it cannot be read (s->oom when out of
 * memory).  Lines longer than s->max_line are skipped as they are read. */
static bool read_stream(stats_t *s, FILE *f, const char *name)
{
    line_t *L = &s->line;
    char block[16384];
    size_t pos = 0, have = 0, number = 0;
    bool eof = false;
    s->files++;
    while (!eof || pos < have) {
        /* one line: its bytes up to the line break, or to the end */
        size_t total = 0;
        bool any = false, too_long = false, ended = false;
        L->len = 0;
        while (!ended) {
            if (pos == have) {
                have = eof ? 0 : fread(block, 1, sizeof block, f);
                pos = 0;
                if (have == 0) {
                    eof = true;
                    break;
                }
            }
            any = true;
            const char *nl = memchr(block + pos, '\n', have - pos);
            size_t chunk = nl ? (size_t)(nl - (block + pos)) : have - pos;
            total += chunk;
            if (!too_long && total > s->max_line) {
                too_long = true;
            } else if (!too_long) {
                if (L->len + chunk + 1 > L->cap) {
                    size_t cap = L->cap ? L->cap : 4096;
                    while (cap < L->len + chunk + 1)
                        cap *= 2;
                    char *t = realloc(L->text, cap);
                    if (!t) {
                        s->oom = true;
                        return false;
                    }
                    L->text = t;
                    L->cap = cap;
                }
                memcpy(L->text + L->len, block + pos, chunk);
                L->len += chunk;
            }
            pos += chunk;
            if (nl) {
                pos++;
                ended = true;
            }
        }
        if (!any)
            break;
        number++;
        if (too_long) {
            s->lines++;
            char why[120];
            snprintf(why, sizeof why, "longer than the limit of %zu bytes (%zu bytes)", s->max_line,
                     total);
            bad_line(s, name, number, why);
            continue;
        }
        while (L->len && L->text[L->len - 1] == '\r')
            L->len--;
        if (L->len == 0) {
            s->blank++;
            continue;
        }
        L->text[L->len] = '\0';
        if (!take_line(s, name, number)) {
            s->oom = true;
            return false;
        }
    }
    if (ferror(f)) {
        fputs("contractc stats: error reading ", s->err);
        put_shown(s->err, name);
        fputc('\n', s->err);
        return false;
    }
    return true;
}

/* Reads one log by name ("-": stdin); false when it cannot be opened or
 * read. */
static bool read_log(stats_t *s, const char *name)
{
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    if (!f) {
        int e = errno;
        if (e == ENOMEM) { /* out of memory, not an unreadable log */
            s->oom = true;
            return false;
        }
        fputs("contractc stats: cannot open ", s->err);
        put_shown(s->err, name);
        fprintf(s->err, ": %s\n", strerror(e));
        return false;
    }
    bool ok = read_stream(s, f, name);
    if (f != stdin)
        fclose(f);
    return ok;
}

/* ---- output ----------------------------------------------------------------- */

static double ratio(size_t a, size_t b) { return b ? (double)a / (double)b : 0.0; }

/* A plain text table: cells are formatted strings, numbers right-aligned. */
#define TABLE_MAX_COLS 12
typedef struct table {
    char *(*cells)[TABLE_MAX_COLS];
    size_t rows, capacity, cols;
    bool right[TABLE_MAX_COLS];
    bool failed;
} table_t;

static bool table_row(table_t *t)
{
    if (!grow((void **)&t->cells, &t->capacity, t->rows, sizeof *t->cells)) {
        t->failed = true;
        return false;
    }
    for (size_t c = 0; c < TABLE_MAX_COLS; c++)
        t->cells[t->rows][c] = NULL;
    t->rows++;
    return true;
}

static void table_free(table_t *t)
{
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < TABLE_MAX_COLS; c++)
            free(t->cells[r][c]);
    free(t->cells);
}

static void set_cell(table_t *t, size_t col, cc_buf_t *b)
{
    char *v = cc_buf_take(b, NULL);
    if (!v)
        t->failed = true;
    free(t->cells[t->rows - 1][col]);
    t->cells[t->rows - 1][col] = v;
}

static void cell(table_t *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void cell(table_t *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cc_buf_t b = CC_BUF_INIT;
    char small[64];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof small) {
        t->failed = true; /* numbers and words only: always short */
        return;
    }
    cc_buf_append(&b, small, (size_t)n);
    set_cell(t, col, &b);
}

/* A cell holding a text from the log, shown. */
static void text_cell(table_t *t, size_t col, const char *text)
{
    cc_buf_t b = CC_BUF_INIT;
    buf_shown(&b, text);
    set_cell(t, col, &b);
}

/* Display width: code points, so "…" and the like line up. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void table_print(const table_t *t, cc_buf_t *out, const char *indent)
{
    size_t w[TABLE_MAX_COLS] = {0};
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->cols; c++)
            if (t->cells[r][c] && width(t->cells[r][c]) > w[c])
                w[c] = width(t->cells[r][c]);
    for (size_t r = 0; r < t->rows; r++) {
        cc_buf_puts(out, indent);
        for (size_t c = 0; c < t->cols; c++) {
            const char *v = t->cells[r][c] ? t->cells[r][c] : "";
            size_t pad = w[c] - width(v);
            bool last = c + 1 == t->cols;
            if (t->right[c] && r > 0) {
                for (size_t i = 0; i < pad; i++)
                    cc_buf_putc(out, ' ');
                cc_buf_puts(out, v);
            } else {
                cc_buf_puts(out, v);
                for (size_t i = 0; !last && i < pad; i++)
                    cc_buf_putc(out, ' ');
            }
            if (!last)
                cc_buf_puts(out, "  ");
        }
        cc_buf_putc(out, '\n');
    }
}

static void metrics_cells(table_t *t, const metrics_t *m)
{
    cell(t, 2, "%zu", m->decisions);
    cell(t, 3, "%zu", m->replies);
    cell(t, 4, "%zu", m->rejected);
    cell(t, 5, "%.1f%%", 100.0 * ratio(m->rejected, m->replies));
    cell(t, 6, "%zu", m->accepted);
    if (m->accepted)
        cell(t, 7, "%.2f", ratio(m->attempts_to_accept, m->accepted));
    else
        cell(t, 7, "-");
    cell(t, 8, "%zu", m->escalated);
    cell(t, 9, "%zu", m->failed);
    cell(t, 10, "%zu", m->model_errors);
    cell(t, 11, "%zu", m->cut);
}

/* "  LABEL: a 3, b 1" (nothing when empty; `none` when set and empty). */
static void print_counts_line(cc_buf_t *out, const char *label, counts_t *c, const char *none)
{
    if (!c->count && !none)
        return;
    cc_buf_printf(out, "  %s:", label);
    if (!c->count && none) {
        cc_buf_putc(out, ' ');
        cc_buf_puts(out, none);
    }
    counts_sort(c);
    for (size_t i = 0; i < c->count; i++) {
        cc_buf_puts(out, i ? ", " : " ");
        buf_shown(out, c->items[i].a);
        cc_buf_printf(out, " %zu", c->items[i].count);
    }
    cc_buf_putc(out, '\n');
}

/* The report as text into out; false when out of memory. */
static bool print_text(stats_t *s, cc_buf_t *out)
{
    cc_buf_printf(out, "contractc stats: %zu decision%s from %zu file%s; %zu bad line%s\n",
                  s->decisions, s->decisions == 1 ? "" : "s", s->files, s->files == 1 ? "" : "s",
                  s->bad, s->bad == 1 ? "" : "s");
    for (size_t gi = 0; gi < s->group_count; gi++) {
        group_t *g = &s->groups[gi];
        cc_buf_putc(out, '\n');
        buf_shown(out, g->contract);
        cc_buf_printf(out, " v%" PRIu32 "  %s\n", g->version, g->hash);
        if (g->day_count > 1)
            qsort(g->days, g->day_count, sizeof *g->days, by_day);
        table_t t;
        memset(&t, 0, sizeof t);
        t.cols = 12;
        static const char *const head[] = {"day", "model", "decisions", "replies", "rejected",
                                           "rejection rate", "accepted", "attempts to accept",
                                           "escalated", "failed", "model errors", "cut (length)"};
        if (table_row(&t)) {
            for (size_t c = 0; c < t.cols; c++) {
                cell(&t, c, "%s", head[c]);
                t.right[c] = c >= 2;
            }
        }
        if (table_row(&t)) {
            cell(&t, 0, "all");
            text_cell(&t, 1, g->models.count == 1 ? g->models.items[0].a : "*");
            metrics_cells(&t, &g->all);
        }
        for (size_t d = 0; d < g->day_count && !t.failed; d++) {
            if (!table_row(&t))
                break;
            cell(&t, 0, "%s", g->days[d].day);
            text_cell(&t, 1, g->days[d].model ? g->days[d].model : "(none)");
            metrics_cells(&t, &g->days[d].m);
        }
        if (!t.failed)
            table_print(&t, out, "  ");
        table_free(&t);
        if (t.failed)
            return false;

        cc_buf_puts(out, "  attempts to accept:");
        bool any = false;
        for (size_t k = 1; k < ATTEMPT_HISTOGRAM; k++)
            if (g->histogram[k]) {
                cc_buf_printf(out, "%s %zu: %zu", any ? "," : "", k, g->histogram[k]);
                any = true;
            }
        cc_buf_puts(out, any ? "\n" : " none accepted\n");
        print_counts_line(out, "routes", &g->routes, "none");
        if (g->all.truncated || g->all.refused || g->all.filtered)
            cc_buf_printf(out, "  not repaired: truncated %zu, refused %zu, filtered %zu\n",
                          g->all.truncated, g->all.refused, g->all.filtered);
        if (g->all.stopped)
            cc_buf_printf(out,
                          "  stopped when dead (streamed): %zu repl%s, %zu bytes received, "
                          "%zu of them before the first dead byte\n",
                          g->all.stopped, g->all.stopped == 1 ? "y" : "ies",
                          g->all.stopped_received, g->all.stopped_at);
        print_counts_line(out, "model errors by class", &g->error_classes, NULL);
        print_counts_line(out, "dialects", &g->dialects, NULL);
        print_counts_line(out, "problems by kind", &g->kinds, NULL);

        if (g->problems.count) {
            counts_sort(&g->problems);
            memset(&t, 0, sizeof t);
            t.cols = 4;
            t.right[2] = t.right[3] = true;
            if (table_row(&t)) {
                cell(&t, 0, "path");
                cell(&t, 1, "kind");
                cell(&t, 2, "replies");
                cell(&t, 3, "share of replies");
            }
            for (size_t i = 0; i < g->problems.count && !t.failed; i++) {
                const named_count_t *p = &g->problems.items[i];
                if (!table_row(&t))
                    break;
                text_cell(&t, 0, p->a);
                text_cell(&t, 1, p->b);
                cell(&t, 2, "%zu", p->count);
                cell(&t, 3, "%.1f%%", 100.0 * ratio(p->count, g->all.replies));
            }
            if (!t.failed)
                table_print(&t, out, "  ");
            table_free(&t);
            if (t.failed)
                return false;
        }
    }
    return !out->failed;
}

/* ---- --json ----------------------------------------------------------------- */

/* Adds item under key, or deletes it; false when either failed. */
static bool add_item(cJSON *o, const char *key, cJSON *item)
{
    if (!item)
        return false;
    if (!cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool add_number(cJSON *o, const char *key, double v)
{
    return cJSON_AddNumberToObject(o, key, v) != NULL;
}

static bool append_item(cJSON *array, cJSON *item)
{
    if (!item)
        return false;
    if (!cJSON_AddItemToArray(array, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static cJSON *metrics_json(const metrics_t *m)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    bool ok = add_number(o, "decisions", (double)m->decisions) &&
              add_number(o, "attempts", (double)m->attempts) &&
              add_number(o, "replies", (double)m->replies) &&
              add_number(o, "rejected", (double)m->rejected) &&
              add_number(o, "rejection_rate", ratio(m->rejected, m->replies)) &&
              add_number(o, "accepted", (double)m->accepted) &&
              (m->accepted ? add_number(o, "mean_attempts_to_accept",
                                        ratio(m->attempts_to_accept, m->accepted))
                           : cJSON_AddNullToObject(o, "mean_attempts_to_accept") != NULL) &&
              add_number(o, "escalated", (double)m->escalated) &&
              add_number(o, "failed", (double)m->failed) &&
              add_number(o, "model_errors", (double)m->model_errors) &&
              add_number(o, "cut", (double)m->cut) && add_number(o, "routed", (double)m->routed) &&
              add_number(o, "truncated", (double)m->truncated) &&
              add_number(o, "refused", (double)m->refused) &&
              add_number(o, "filtered", (double)m->filtered) &&
              /* added later: written when there is something to say, so a
               * log without streaming reads as before */
              (!m->stopped || (add_number(o, "stopped", (double)m->stopped) &&
                               add_number(o, "stopped_received", (double)m->stopped_received) &&
                               add_number(o, "stopped_at", (double)m->stopped_at)));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *counts_json(counts_t *c)
{
    counts_sort(c);
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < c->count; i++)
        if (!add_number(o, c->items[i].a, (double)c->items[i].count)) {
            cJSON_Delete(o);
            return NULL;
        }
    return o;
}

static cJSON *group_json(group_t *g)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    bool ok = cJSON_AddStringToObject(o, "hash", g->hash) &&
              cJSON_AddStringToObject(o, "contract", g->contract) &&
              add_number(o, "version", (double)g->version) &&
              add_item(o, "all", metrics_json(&g->all));
    cJSON *hist = ok ? cJSON_AddObjectToObject(o, "attempts_to_accept") : NULL;
    ok = hist != NULL;
    for (size_t k = 1; ok && k < ATTEMPT_HISTOGRAM; k++)
        if (g->histogram[k]) {
            char key[8];
            snprintf(key, sizeof key, "%zu", k);
            ok = add_number(hist, key, (double)g->histogram[k]);
        }
    ok = ok && add_item(o, "routes", counts_json(&g->routes)) &&
         add_item(o, "models", counts_json(&g->models)) &&
         add_item(o, "dialects", counts_json(&g->dialects)) &&
         add_item(o, "error_classes", counts_json(&g->error_classes)) &&
         add_item(o, "kinds", counts_json(&g->kinds));
    counts_sort(&g->problems);
    cJSON *problems = ok ? cJSON_AddArrayToObject(o, "problems") : NULL;
    ok = problems != NULL;
    for (size_t i = 0; ok && i < g->problems.count; i++) {
        const named_count_t *n = &g->problems.items[i];
        cJSON *p = cJSON_CreateObject();
        ok = append_item(problems, p) && cJSON_AddStringToObject(p, "path", n->a) &&
             cJSON_AddStringToObject(p, "kind", n->b) &&
             add_number(p, "replies", (double)n->count) &&
             add_number(p, "share", ratio(n->count, g->all.replies));
    }
    if (g->day_count > 1)
        qsort(g->days, g->day_count, sizeof *g->days, by_day);
    cJSON *days = ok ? cJSON_AddArrayToObject(o, "days") : NULL;
    ok = days != NULL;
    for (size_t d = 0; ok && d < g->day_count; d++) {
        cJSON *r = metrics_json(&g->days[d].m);
        ok = append_item(days, r) && cJSON_AddStringToObject(r, "day", g->days[d].day) &&
             (g->days[d].model ? cJSON_AddStringToObject(r, "model", g->days[d].model) != NULL
                               : cJSON_AddNullToObject(r, "model") != NULL);
    }
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *stats_json(stats_t *s)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    bool ok = add_number(root, "files", (double)s->files) &&
              add_number(root, "lines", (double)s->lines) &&
              add_number(root, "decisions", (double)s->decisions) &&
              add_number(root, "bad_lines", (double)s->bad);
    cJSON *contracts = ok ? cJSON_AddArrayToObject(root, "contracts") : NULL;
    ok = contracts != NULL;
    for (size_t gi = 0; ok && gi < s->group_count; gi++)
        ok = append_item(contracts, group_json(&s->groups[gi]));
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* cJSON escapes C0 controls; DEL and the C1 controls (U+0080..U+009F) are
 * escaped here as \u00XX too (they occur only inside strings: the text is
 * valid UTF-8, every string having passed the strict reader). */
static void json_shown(cc_buf_t *out, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t run = 0, i = 0;
    for (; p[i]; i++) {
        unsigned cp;
        if (p[i] == 0x7F)
            cp = 0x7F;
        else if (p[i] == 0xC2 && p[i + 1] >= 0x80 && p[i + 1] < 0xA0)
            cp = p[i + 1];
        else
            continue;
        cc_buf_append(out, text + run, i - run);
        cc_buf_printf(out, "\\u%04x", cp);
        i += cp == 0x7F ? 0 : 1;
        run = i + 1;
    }
    cc_buf_append(out, text + run, i - run);
}

/* ---- the command -------------------------------------------------------------- */

static void stats_init(stats_t *s, FILE *err, size_t max_line)
{
    memset(s, 0, sizeof *s);
    s->err = err;
    s->max_line = max_line;
    cc_keymap_init(&s->group_index);
}

/* The summary of bad lines, then the report on out; the exit code. */
static int finish(stats_t *s, int rc, bool json, FILE *out, FILE *err)
{
    if (s->bad > BAD_LINES_SHOWN)
        fprintf(err, "contractc stats: ... and %zu more bad lines\n", s->bad - BAD_LINES_SHOWN);
    if (s->bad)
        fprintf(err, "contractc stats: %zu bad line%s of %zu counted and skipped\n", s->bad,
                s->bad == 1 ? "" : "s", s->lines);
    if (s->oom) {
        fprintf(err, "contractc stats: out of memory\n");
        stats_free(s);
        return 1;
    }
    cc_buf_t text = CC_BUF_INIT;
    bool ok;
    if (json) {
        cJSON *root = stats_json(s);
        char *printed = root ? cJSON_Print(root) : NULL;
        ok = printed != NULL;
        if (ok) {
            json_shown(&text, printed);
            cc_buf_putc(&text, '\n');
        }
        free(printed);
        cJSON_Delete(root);
    } else {
        ok = print_text(s, &text);
    }
    stats_free(s);
    if (!ok || text.failed) {
        cc_buf_free(&text);
        fprintf(err, "contractc stats: out of memory\n");
        return 1;
    }
    bool written = fwrite(text.data, 1, text.len, out) == text.len;
    cc_buf_free(&text);
    if (!written || fflush(out) != 0 || ferror(out)) {
        fprintf(err, "contractc stats: cannot write standard output: %s\n", strerror(errno));
        return 1;
    }
    return rc;
}

int cc_stats_stream(FILE *in, const char *name, size_t max_line, bool json, FILE *out, FILE *err)
{
    stats_t s;
    stats_init(&s, err, max_line ? max_line : CC_STATS_MAX_LINE);
    int rc = read_stream(&s, in, name) || s.oom ? 0 : EXIT_USAGE;
    return finish(&s, rc, json, out, err);
}

int cc_stats_main(int argc, char **argv, FILE *out, FILE *err)
{
    bool json = false;
    int logs = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fputs("contractc stats: unknown option '", err);
            put_shown(err, argv[i]);
            fputs("'\nusage: contractc stats LOG... [--json]\n", err);
            return EXIT_USAGE;
        } else
            logs++;
    }
    if (logs == 0) {
        fprintf(err, "usage: contractc stats LOG... [--json]   (LOG may be - for stdin)\n");
        return EXIT_USAGE;
    }
    stats_t s;
    stats_init(&s, err, CC_STATS_MAX_LINE);
    int rc = 0;
    for (int i = 0; i < argc && !s.oom; i++) {
        if (strcmp(argv[i], "--json") == 0)
            continue;
        if (!read_log(&s, argv[i]) && !s.oom)
            rc = EXIT_USAGE;
    }
    return finish(&s, rc, json, out, err);
}
