/* SPDX-License-Identifier: MIT */
/*
 * validate.c - the interpreter: reads a reply with the strict reader and
 * validates it against a contract's descriptor tables in the same pass.
 *
 * There is no tree.  Each value is read straight into the record's struct
 * (offsets from the field tables) or, when it breaks a constraint, reported
 * with its path and left out.  Semantics follow docs/contract-language.md
 * ("Reading a reply", "Problem kinds", "Fine print"):
 *
 *   - Document-level problems (empty, syntax, encoding, limit) replace every
 *     other problem: the list is then exactly that one problem at "$".
 *   - Every other problem is reported, in document order, then the missing
 *     keys of each object at its end, then its rules.
 *   - One problem per failing constraint per path; a `type` or `null`
 *     problem suppresses that value's other checks; grounding runs only
 *     when the value's shape passed.
 *   - A declarative rule runs only when every field it names passed its own
 *     checks; `check` rules run only on a record with no other problem.
 *   - Of a key present twice the first is validated; each later one gives
 *     one `duplicate` and is skipped.
 */
#include <stdio.h>
#include <string.h>

#include "contractc/contractc.h"
#include "convert.h"
#include "internal.h"
#include "key_segment.h"
#include "reader.h"

#define CC_PATH_MAX 4096           /* bytes of a path, "…" beyond */
#define CC_MAX_FIELDS CONTRACTC_MAX_FIELDS /* per object (the contract cap) */
#define CC_BITSET_WORDS (CC_MAX_FIELDS / 64)
#define CC_SUM_MASKS 4             /* sum rules per object with exact gating */
#define CC_SOURCE_MAX CONTRACTC_MAX_SOURCE_BYTES
#define CC_ARENA_FIRST_MAX ((size_t)1 << 20) /* bytes reserved before reading */
#define CC_MSG_INLINE 256          /* bytes of a message built without the heap */
#define CC_PREFIX_ARENA_FIRST ((size_t)16 << 10) /* bytes reserved for a prefix (stream.c) */
#define CC_PREFIX_STEPS 32         /* steps of an object's path kept (report_unexpected) */

enum { V_OK = 0, V_BAD = 1, V_FAIL = 2 };

/*
 * One step of the path to the value being read: a field of the contract, a
 * key from the reply (unexpected or duplicate), or an array index.  Steps
 * live on the C stack of the function reading the value, linked to their
 * parent, so the hot path pays two stores per step; the "$.a[2].b" text is
 * built only when a problem is reported (report(), path_render()).
 */
typedef enum { STEP_FIELD, STEP_KEY, STEP_INDEX } cc_step_kind_t;

typedef struct cc_step {
    const struct cc_step *up;
    cc_step_kind_t kind;
    const contractc_field_t *field; /* STEP_FIELD */
    const char *key;                /* STEP_KEY: the decoded key */
    size_t n;                       /* STEP_KEY: its bytes; STEP_INDEX: the index */
} cc_step_t;

typedef struct cc_parse {
    const contractc_contract_t *contract;
    cc_reader_t r;
    contractc_arena_t *arena;
    contractc_problems_t *problems;
    const contractc_allocator_t *allocator;
    const char *source;
    size_t source_len;
    void *user;
    size_t found;  /* problems found in this parse, kept or dropped */
    bool oom;
    bool checks_seen; /* an object read has a `check` rule (run_rules) */
    const struct cc_step *at; /* the value being read; NULL: the root "$" */
    /* A stream's item hook (cc_prefix_result_t.item), NULL in
     * contractc_parse. */
    void (*item)(void *user, const contractc_field_t *field, size_t index, const void *at);
    void *item_user;
    /* The buffers a message (cc_msg_t) starts in, so that a typical problem
     * allocates only its copy in the list.  One message is built at a
     * time; msg_busy makes a nested one fall back to the heap. */
    bool msg_busy;
    char msg_model[CC_MSG_INLINE], msg_log[CC_MSG_INLINE];
    /* The unexpected keys stored so far, each with its object (the object's
     * '{' in the reply), to tell a key's later occurrences in the same object
     * (`duplicate`) from its first (`unexpected`): an open-addressed table in
     * the arena, set up at the first unexpected key of a parse (keys NULL
     * until then).  It holds at most as many keys as the problem list holds
     * problems: past the cap nothing is stored, so nothing needs telling
     * apart. */
    struct cc_key_seen *keys;
    size_t keys_count, keys_mask; /* keys_mask + 1 entries, 0 when none */
    uint64_t keys_seed;
    /* While an object's unexpected keys are reported (report_unexpected),
     * c->path holds the object's own path, rendered from the steps kept in
     * prefix[0..prefix_steps) (innermost first); prefix_valid says so.
     * Any other report overwrites c->path and clears it. */
    bool prefix_valid;
    size_t prefix_steps;
    cc_step_t prefix[CC_PREFIX_STEPS];
    size_t path_len;
    char path[CC_PATH_MAX + 8]; /* built from `at` only when reporting */
    /* The decoded text of the string value being read, when the scan could
     * write it as it went (cc_scan_string_copy); longer ones are decoded
     * into the arena after the scan. */
    char text[2048];
    /* The tagged union whose variant read_union is reading, the '{' of
     * that object in the reply (NULL: none; the other two are read only
     * under it), and whether its tag key was skipped.  Last, so that the
     * members above keep their offsets. */
    const contractc_value_t *tagged;
    const unsigned char *tagged_open;
    bool tag_skipped;
} cc_parse_t;

/* Makes `s` the current step (its parent is the current one). */
static void step_enter(cc_parse_t *c, cc_step_t *s) { s->up = c->at; c->at = s; }
static void step_leave(cc_parse_t *c, const cc_step_t *s) { c->at = s->up; }

/* ------------------------------------------------------------------------
 * Paths
 * ------------------------------------------------------------------------ */

/* Appends a segment (only path_render does, when a problem is reported).
 * A path that would pass CC_PATH_MAX ends in "…" instead. */
static void path_push(cc_parse_t *c, const char *seg, size_t n)
{
    if (c->path_len + n > CC_PATH_MAX) {
        static const char ellipsis[] = "\xE2\x80\xA6";
        if (c->path_len + 3 <= CC_PATH_MAX + 7 &&
            (c->path_len < 3 || memcmp(c->path + c->path_len - 3, ellipsis, 3) != 0)) {
            memcpy(c->path + c->path_len, ellipsis, 3);
            c->path_len += 3;
        }
    } else {
        memcpy(c->path + c->path_len, seg, n);
        c->path_len += n;
    }
    c->path[c->path_len] = '\0';
}

static void path_push_index(cc_parse_t *c, size_t index)
{
    char buf[32];
    size_t i = sizeof buf;
    buf[--i] = ']';
    do {
        buf[--i] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    buf[--i] = '[';
    path_push(c, buf + i, sizeof buf - i);
}

/* Appends the path segment of a key (cc_key_segment) to c->path: straight
 * into it when it surely fits (nearly always), else through a buffer for
 * path_push to cut. */
static void path_push_key(cc_parse_t *c, const char *k, size_t n)
{
    if (c->path_len + cc_key_segment_max(n) <= CC_PATH_MAX) {
        c->path_len += cc_key_segment(c->path + c->path_len, k, n);
        c->path[c->path_len] = '\0';
    } else {
        char scratch[CC_KEY_SEGMENT_MAX];
        path_push(c, scratch, cc_key_segment(scratch, k, n));
    }
}

/* Appends the path of `s` (root first) to c->path.  The chain is as deep as
 * the contract's nesting (at most 2 steps per level), like the reading
 * recursion itself. */
static void path_render(cc_parse_t *c, const cc_step_t *s)
{
    if (!s)
        return;
    path_render(c, s->up);
    switch (s->kind) {
    case STEP_FIELD: path_push(c, s->field->path_segment, strlen(s->field->path_segment)); break;
    case STEP_KEY: path_push_key(c, s->key, s->n); break;
    case STEP_INDEX: path_push_index(c, s->n); break;
    }
}

/* ------------------------------------------------------------------------
 * Reporting
 * ------------------------------------------------------------------------ */

/* Past the list's cap a problem is only counted (no path, no copy, no
 * message): counts it there and returns true. */
static bool only_counted(cc_parse_t *c)
{
    if (c->problems->count_ < c->problems->cap)
        return false;
    c->found++;
    c->problems->dropped++;
    return true;
}

/* Counts a problem at the current value and renders its path into c->path. */
static void found_here(cc_parse_t *c)
{
    c->found++;
    c->prefix_valid = false;
    c->path_len = 1;
    c->path[1] = '\0';
    path_render(c, c->at);
}

/* Counts a problem and, under the list's cap, stores it at the current
 * path.  The log text may be the model's (the same pointer: stored once). */
static void report_text(cc_parse_t *c, contractc_kind_t kind, const char *model, size_t nm,
                        const char *log, size_t nl, const char *rule)
{
    if (only_counted(c))
        return;
    found_here(c);
    if (!cc_problems_add(c->problems, kind, c->path, c->path_len, model, nm, log, nl, rule,
                         0, 0))
        c->oom = true;
}

/* A problem whose message quotes nothing from the reply: one text, the
 * model's and the log's. */
static void report_fixed(cc_parse_t *c, contractc_kind_t kind, const char *text, size_t n)
{
    report_text(c, kind, text, n, text, n, NULL);
}

static void report(cc_parse_t *c, contractc_kind_t kind, const cc_str_t *model,
                   const cc_str_t *log, const char *rule)
{
    if ((model->failed || log->failed) && c->problems->count_ < c->problems->cap) {
        c->found++; /* out of memory; past the cap it would only be counted */
        c->oom = true;
        return;
    }
    const char *m = model->data ? model->data : "";
    const char *l = log == model ? m : log->data ? log->data : "";
    report_text(c, kind, m, model->len, l, log->len, rule);
}

/* A problem whose model message starts with an echo of the value ("\"x\"",
 * "89.90") and whose log message says "the value" instead. */
typedef struct cc_msg {
    cc_str_t model, log;
    bool borrowed; /* the builders started in c->msg_model and c->msg_log */
} cc_msg_t;

static void msg_init(cc_parse_t *c, cc_msg_t *m)
{
    m->borrowed = false;
    if (c->problems->count_ >= c->problems->cap) {
        /* A message past the list's cap would be dropped: build nothing. */
        cc_str_init(&m->model, c->allocator);
        cc_str_init(&m->log, c->allocator);
        m->model.discard = m->log.discard = true;
    } else if (!c->msg_busy) {
        c->msg_busy = m->borrowed = true;
        cc_str_init_buf(&m->model, c->allocator, c->msg_model, sizeof c->msg_model);
        cc_str_init_buf(&m->log, c->allocator, c->msg_log, sizeof c->msg_log);
    } else {
        cc_str_init(&m->model, c->allocator);
        cc_str_init(&m->log, c->allocator);
    }
}

/* Releases m's builders (and the parse's buffers), without reporting. */
static void msg_free(cc_parse_t *c, cc_msg_t *m)
{
    cc_str_free(&m->model);
    cc_str_free(&m->log);
    if (m->borrowed)
        c->msg_busy = false;
}

static void msg_both(cc_msg_t *m, const char *text)
{
    cc_str_puts(&m->model, text);
    cc_str_puts(&m->log, text);
}

static void msg_count(cc_msg_t *m, uint64_t v)
{
    cc_str_putu(&m->model, v);
    cc_str_putu(&m->log, v);
}

static void msg_report(cc_parse_t *c, cc_msg_t *m, contractc_kind_t kind, const char *rule)
{
    report(c, kind, &m->model, &m->log, rule);
    msg_free(c, m);
}

/* "a decimal like \"1250.00\" (dot, two decimals, no separators)": the
 * form's words are cc_decimal_form's, as in the prompt. */
static void put_decimal_phrase(cc_str_t *s, const contractc_value_t *v)
{
    cc_str_puts(s, "a decimal like ");
    if (v->example) {
        cc_str_puts(s, v->example);
    } else {
        char buf[48];
        size_t n = cc_format_decimal(v->scale ? 125000 : 1250, v->scale, buf + 1);
        buf[0] = '"';
        buf[n + 1] = '"';
        cc_str_append(s, buf, n + 2);
    }
    char form[CC_DECIMAL_FORM_MAX];
    size_t n = cc_decimal_form(v->scale, v->is_signed, form);
    cc_str_puts(s, " (");
    cc_str_append(s, form, n);
    cc_str_puts(s, ")");
}

static void put_enum_values(cc_str_t *s, const contractc_enum_t *e)
{
    const uint32_t shown = e->count > 24 ? 20 : e->count;
    for (uint32_t i = 0; i < shown; i++) {
        if (i)
            cc_str_puts(s, i + 1 == e->count ? " or " : ", ");
        cc_str_quote(s, e->values[i].text, e->values[i].len);
    }
    if (shown < e->count) {
        cc_str_puts(s, " or one of ");
        cc_str_putu(s, e->count - shown);
        cc_str_puts(s, " more");
    }
}

/* "a, b, c": the names of o's first 24 fields, then ", ..." if there are
 * more; a key that is not an identifier (its path segment is not ".key")
 * is quoted: "first-name". */
static void put_key_names(cc_str_t *s, const contractc_object_t *o)
{
    for (uint32_t i = 0; i < o->field_count && i < 24; i++) {
        if (i)
            cc_str_puts(s, ", ");
        if (o->fields[i].path_segment[0] == '.')
            cc_str_append(s, o->fields[i].name, o->fields[i].name_len);
        else
            cc_str_quote(s, o->fields[i].name, o->fields[i].name_len);
    }
    if (o->field_count > 24)
        cc_str_puts(s, ", ...");
}

/* What a value of `v` must be, for type problems. */
static void put_expected(cc_str_t *s, const contractc_value_t *v)
{
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: cc_str_puts(s, "a string"); break;
    case CONTRACTC_TYPE_INTEGER:
        cc_str_puts(s, "an integer (digits only, no fraction or exponent)");
        break;
    case CONTRACTC_TYPE_NUMBER: cc_str_puts(s, "a number"); break;
    case CONTRACTC_TYPE_BOOLEAN: cc_str_puts(s, "true or false"); break;
    case CONTRACTC_TYPE_DECIMAL: put_decimal_phrase(s, v); break;
    case CONTRACTC_TYPE_ENUM:
        cc_str_puts(s, "one of ");
        put_enum_values(s, v->enumeration);
        break;
    case CONTRACTC_TYPE_DATE:
        cc_str_puts(s, "a date string like ");
        cc_str_puts(s, v->example ? v->example : "\"" CC_DATE_EXAMPLE "\"");
        cc_str_puts(s, " (" CC_DATE_FORM ")");
        break;
    case CONTRACTC_TYPE_DATETIME:
        cc_str_puts(s, "a date-time string like ");
        cc_str_puts(s, v->example ? v->example : "\"" CC_DATETIME_EXAMPLE "\"");
        cc_str_puts(s, " (" CC_DATETIME_FORM ")");
        break;
    case CONTRACTC_TYPE_OBJECT: {
        const contractc_object_t *o = v->object;
        cc_str_puts(s, "an object with the keys ");
        put_key_names(s, o);
        break;
    }
    case CONTRACTC_TYPE_ARRAY: cc_str_puts(s, "a list (JSON array)"); break;
    case CONTRACTC_TYPE_UNION:
        cc_str_puts(s, "an object whose key ");
        cc_str_quote(s, v->tag, v->tag_len);
        cc_str_puts(s, " says its kind");
        break;
    case CONTRACTC_TYPE_MAP: cc_str_puts(s, "an object (JSON object) of free keys"); break;
    case CONTRACTC_TYPE_JSON: cc_str_puts(s, "a JSON value"); break;
    case CONTRACTC_TYPE_VALUE_UNION: /* docs/contract-language.md §4.13: every alternative */
        for (uint32_t i = 0; i < v->alternative_count; i++) { /* as the prompt says it */
            cc_str_puts(s, i ? "; or " : "either ");
            put_expected(s, &v->alternatives[i]);
        }
        break;
    default: break; /* the types of v2 the tables of this build do not use */
    }
}

/* ------------------------------------------------------------------------
 * Small helpers
 * ------------------------------------------------------------------------ */

static bool bit_get(const uint64_t *bits, size_t i) { return (bits[i / 64] >> (i % 64)) & 1u; }
static void bit_set(uint64_t *bits, size_t i) { bits[i / 64] |= (uint64_t)1 << (i % 64); }

static bool fail(cc_parse_t *c) { return c->r.failed || c->oom; }

/* a[0..n) == b[0..n).  Keys are short: word compares beat a call to memcmp.
 * Inline: it runs for every key and enum value, for a few instructions. */
static inline bool bytes_equal(const char *a, const char *b, size_t n)
{
    uint64_t x, y;
    if (n >= 8) {
        for (; n > 8; n -= 8, a += 8, b += 8) {
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            if (x != y)
                return false;
        }
        /* The last 8 bytes, overlapping the previous word when n < 8. */
        memcpy(&x, a + n - 8, 8);
        memcpy(&y, b + n - 8, 8);
        return x == y;
    }
    if (n >= 4) { /* the first and the last 4 bytes, overlapping */
        uint32_t u, v, w, z;
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        memcpy(&w, a + n - 4, 4);
        memcpy(&z, b + n - 4, 4);
        return u == v && w == z;
    }
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Words of a per-field bitset of `o` that are in use (fields < 1024). */
static size_t bitset_words(const contractc_object_t *o) { return (o->field_count + 63u) / 64u; }

/* The decoded text of a scanned string: the raw bytes when it has no
 * escapes, else a copy in the arena.  NULL when out of memory. */
static const char *string_text(cc_parse_t *c, const cc_string_token_t *t)
{
    if (!t->has_escapes)
        return (const char *)t->raw;
    char *dst = cc_arena_alloc_bytes(c->arena, t->decoded_len + 1);
    if (!dst) {
        c->oom = true;
        return NULL;
    }
    cc_decode_string(t, dst);
    dst[t->decoded_len] = '\0';
    return dst;
}

/* Byte-exact search of needle in haystack (grounding).  Linear time: a
 * short needle is searched directly; a long one with Knuth-Morris-Pratt,
 * whose table is allocated for the call. */
static int contains(cc_parse_t *c, const char *hay, size_t hn, const char *nee, size_t nn)
{
    if (nn == 0 || nn > hn)
        return 0;
    if (nn <= 16) {
        const char *end = hay + (hn - nn) + 1;
        for (const char *p = hay; p < end;) {
            const char *q = memchr(p, nee[0], (size_t)(end - p));
            if (!q)
                return 0;
            if (memcmp(q, nee, nn) == 0)
                return 1;
            p = q + 1;
        }
        return 0;
    }
    if (nn > UINT32_MAX)
        return 0;
    uint32_t *fail_to = cc_alloc(c->allocator, nn * sizeof *fail_to);
    if (!fail_to) {
        c->oom = true;
        return -1;
    }
    fail_to[0] = 0;
    for (size_t i = 1, k = 0; i < nn; i++) {
        while (k && nee[i] != nee[k])
            k = fail_to[k - 1];
        if (nee[i] == nee[k])
            k++;
        fail_to[i] = (uint32_t)k;
    }
    int found = 0;
    for (size_t i = 0, k = 0; i < hn; i++) {
        while (k && hay[i] != nee[k])
            k = fail_to[k - 1];
        if (hay[i] == nee[k])
            k++;
        if (k == nn) {
            found = 1;
            break;
        }
    }
    cc_free(c->allocator, fail_to, nn * sizeof *fail_to);
    return found;
}

/* ------------------------------------------------------------------------
 * Reading values
 * ------------------------------------------------------------------------ */

/* Where one value goes, as offsets into the struct at `base` (the record,
 * an object or an array item), as the field table has them: the member,
 * its size_t _len or _count (aux) and the bool has_X of a nullable field,
 * CONTRACTC_ABSENT for none.  Offsets are copied for each member read,
 * where pointers had to be worked out. */
typedef struct cc_slot {
    unsigned char *base;
    uint32_t offset, aux_offset, has_offset;
} cc_slot_t;

/* The member itself. */
static unsigned char *slot_dst(const cc_slot_t *s) { return s->base + s->offset; }

/* Sets the _len or _count of the member, when it has one. */
static void slot_set_aux(const cc_slot_t *s, size_t n)
{
    if (s->aux_offset != CONTRACTC_ABSENT)
        memcpy(s->base + s->aux_offset, &n, sizeof n);
}

/* Sets has_X of a nullable member: its value is stated. */
static void slot_set_has(const cc_slot_t *s)
{
    static const bool stated = true;
    if (s->has_offset != CONTRACTC_ABSENT)
        memcpy(s->base + s->has_offset, &stated, sizeof stated);
}

static int read_value(cc_parse_t *c, const contractc_value_t *v, bool nullable,
                      const cc_slot_t *slot, bool *own_ok, uint64_t *item_ok);

/* Reads a value of the wrong JSON type and reports a `type` problem; at
 * the end of the reply (ch < 0), a `syntax` problem. */
static int read_mismatch(cc_parse_t *c, const contractc_value_t *v, int ch)
{
    if (ch < 0) {
        cc_reader_fail(&c->r, CONTRACTC_KIND_SYNTAX, (size_t)(c->r.p - c->r.raw),
                       "the reply ends where a value was expected");
        return V_FAIL;
    }
    cc_msg_t m;
    msg_init(c, &m);
    msg_both(&m, "found ");
    if (ch == '"') {
        cc_string_token_t t;
        if (!cc_scan_string(&c->r, &t))
            goto failed;
        const char *text = string_text(c, &t);
        if (!text)
            goto failed;
        cc_str_puts(&m.model, "the string ");
        cc_str_quote(&m.model, text, t.decoded_len);
        cc_str_puts(&m.log, "a string");
    } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
        cc_number_token_t t;
        if (!cc_scan_number(&c->r, &t))
            goto failed;
        cc_str_puts(&m.model, "the number ");
        cc_str_token(&m.model, (const char *)t.text, t.len);
        cc_str_puts(&m.log, "a number");
    } else if (ch == 't' || ch == 'f') {
        cc_literal_t lit;
        if (!cc_scan_literal(&c->r, &lit))
            goto failed;
        cc_str_puts(&m.model, lit == CC_LITERAL_TRUE ? "true" : "false");
        cc_str_puts(&m.log, "a boolean");
    } else if (ch == '{' || ch == '[') {
        if (!cc_skip_value(&c->r))
            goto failed;
        msg_both(&m, ch == '{' ? "an object" : "an array");
    } else {
        cc_skip_value(&c->r); /* records the syntax problem */
        goto failed;
    }
    msg_both(&m, "; expected ");
    put_expected(&m.model, v);
    put_expected(&m.log, v);
    msg_report(c, &m, CONTRACTC_KIND_TYPE, NULL);
    return fail(c) ? V_FAIL : V_BAD;
failed:
    msg_free(c, &m);
    return V_FAIL;
}

/* A string: length, pattern and grounding, then a copy in the arena. */
static int read_string(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '"')
        return read_mismatch(c, v, ch);
    cc_string_token_t t;
    bool copied;
    if (!cc_scan_string_copy(&c->r, &t, c->text, sizeof c->text, &copied))
        return V_FAIL;
    const char *text = copied ? c->text : string_text(c, &t);
    if (!text)
        return V_FAIL;
    int result = V_OK;
    /* Counting code points costs a pass over the text: only bounds need it. */
    size_t points = v->min_length > 0 || v->max_length != CONTRACTC_UNBOUNDED
                        ? cc_utf8_code_points((const unsigned char *)text, t.decoded_len)
                        : 0;
    if (points < v->min_length || points > v->max_length) {
        cc_msg_t m;
        msg_init(c, &m);
        cc_str_quote(&m.model, text, t.decoded_len);
        cc_str_puts(&m.log, "the value");
        msg_both(&m, " is ");
        msg_count(&m, points);
        msg_both(&m, points == 1 ? " character long; " : " characters long; ");
        if (points < v->min_length) {
            msg_both(&m, "expected at least ");
            msg_count(&m, v->min_length);
        } else {
            msg_both(&m, "expected at most ");
            msg_count(&m, v->max_length);
        }
        msg_both(&m, v->min_length == 1 && points == 0 ? " (not empty)" : "");
        msg_report(c, &m, CONTRACTC_KIND_LENGTH, NULL);
        result = V_BAD;
    }
    if (v->pattern && !contractc_dfa_match(v->pattern, text, t.decoded_len)) {
        cc_msg_t m;
        msg_init(c, &m);
        cc_str_quote(&m.model, text, t.decoded_len);
        cc_str_puts(&m.log, "the value");
        msg_both(&m, " does not match the pattern ");
        msg_both(&m, v->pattern->source);
        msg_both(&m, " (the whole value must match)");
        msg_report(c, &m, CONTRACTC_KIND_PATTERN, NULL);
        result = V_BAD;
    }
    if (result == V_OK && v->grounded) {
        int found = contains(c, c->source, c->source_len, text, t.decoded_len);
        if (found < 0)
            return V_FAIL;
        if (!found) {
            const char *name = c->contract->source_name ? c->contract->source_name : "the source text";
            cc_msg_t m;
            msg_init(c, &m);
            cc_str_quote(&m.model, text, t.decoded_len);
            cc_str_puts(&m.log, "the value");
            msg_both(&m, t.decoded_len ? " does not occur verbatim in "
                                       : " is empty, and an empty value is never grounded in ");
            msg_both(&m, name);
            msg_both(&m, "; copy it exactly as written there");
            msg_report(c, &m, CONTRACTC_KIND_GROUNDING, NULL);
            result = V_BAD;
        }
    }
    if (result != V_OK)
        return fail(c) ? V_FAIL : result;
    /* Store: string_text put the text in the arena already when it had
     * escapes and the scan could not decode it. */
    char *copy = (char *)text;
    if (!t.has_escapes || copied) {
        copy = cc_arena_alloc_bytes(c->arena, t.decoded_len + 1);
        if (!copy) {
            c->oom = true;
            return V_FAIL;
        }
        memcpy(copy, text, t.decoded_len);
        copy[t.decoded_len] = '\0';
    }
    memcpy(slot_dst(slot), &copy, sizeof copy);
    slot_set_aux(slot, t.decoded_len);
    return V_OK;
}

static void put_bound(cc_str_t *s, const char *text, int64_t value)
{
    if (text)
        cc_str_puts(s, text);
    else
        cc_str_puti(s, value);
}

/* The `range` problem of check_int_range (out of line: reading an
 * in-range value should not pay for building a message). */
static int report_int_range(cc_parse_t *c, const contractc_value_t *v, int64_t value,
                            const char *echo, size_t echo_len, bool quoted)
{
    cc_msg_t m;
    msg_init(c, &m);
    if (quoted)
        cc_str_quote(&m.model, echo, echo_len);
    else
        cc_str_token(&m.model, echo, echo_len);
    cc_str_puts(&m.log, "the value");
    if (value < v->minimum) {
        msg_both(&m, " is below the minimum ");
        put_bound(&m.model, v->minimum_text, v->minimum);
        put_bound(&m.log, v->minimum_text, v->minimum);
    } else {
        msg_both(&m, " is above the maximum ");
        put_bound(&m.model, v->maximum_text, v->maximum);
        put_bound(&m.log, v->maximum_text, v->maximum);
    }
    msg_report(c, &m, CONTRACTC_KIND_RANGE, NULL);
    return fail(c) ? V_FAIL : V_BAD;
}

/* `range` problem for an int64 against [minimum, maximum]. */
static inline int check_int_range(cc_parse_t *c, const contractc_value_t *v, int64_t value,
                                  const char *echo, size_t echo_len, bool quoted)
{
    if (value >= v->minimum && value <= v->maximum)
        return V_OK;
    return report_int_range(c, v, value, echo, echo_len, quoted);
}

/* An integer: exact (I-JSON range), then its bounds. */
static int read_integer(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '-' && !(ch >= '0' && ch <= '9'))
        return read_mismatch(c, v, ch);
    int64_t value;
    const unsigned char *start = c->r.p;
    if (cc_scan_small_integer(&c->r, &value)) {
        /* the usual integer, read in one pass */
        int rr = check_int_range(c, v, value, (const char *)start, (size_t)(c->r.p - start),
                                 false);
        if (rr != V_OK)
            return rr;
        memcpy(slot_dst(slot), &value, sizeof value);
        return V_OK;
    }
    cc_number_token_t t;
    if (!cc_scan_number(&c->r, &t))
        return V_FAIL;
    cc_convert_t rc = cc_convert_integer((const char *)t.text, t.len, &value);
    if (rc != CC_CONVERT_OK) {
        cc_msg_t m;
        msg_init(c, &m);
        cc_str_token(&m.model, (const char *)t.text, t.len);
        cc_str_puts(&m.log, "the value");
        if (rc == CC_CONVERT_FORMAT) {
            msg_both(&m, " is not an integer: write it with digits only, no fraction or exponent");
            msg_report(c, &m, CONTRACTC_KIND_TYPE, NULL);
        } else {
            msg_both(&m, " is outside the exact integer range -9007199254740991..9007199254740991");
            msg_report(c, &m, CONTRACTC_KIND_RANGE, NULL);
        }
        return fail(c) ? V_FAIL : V_BAD;
    }
    int rr = check_int_range(c, v, value, (const char *)t.text, t.len, false);
    if (rr != V_OK)
        return rr;
    memcpy(slot_dst(slot), &value, sizeof value);
    return V_OK;
}

/* A number: a finite double, then its bounds. */
static int read_number(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '-' && !(ch >= '0' && ch <= '9'))
        return read_mismatch(c, v, ch);
    cc_number_token_t t;
    if (!cc_scan_number(&c->r, &t))
        return V_FAIL;
    double value;
    cc_convert_t rc = cc_convert_number((const char *)t.text, t.len, &value);
    const char *why = NULL;
    const char *bound = NULL;
    if (rc != CC_CONVERT_OK)
        why = value == 0 ? " underflows to zero; write it with fewer digits or as 0"
                         : " is too large for a double";
    else if (v->has_number_minimum && value < v->number_minimum)
        why = " is below the minimum ", bound = v->minimum_text;
    else if (v->has_number_maximum && value > v->number_maximum)
        why = " is above the maximum ", bound = v->maximum_text;
    if (why) {
        cc_msg_t m;
        msg_init(c, &m);
        cc_str_token(&m.model, (const char *)t.text, t.len);
        cc_str_puts(&m.log, "the value");
        msg_both(&m, why);
        if (bound)
            msg_both(&m, bound);
        msg_report(c, &m, CONTRACTC_KIND_RANGE, NULL);
        return fail(c) ? V_FAIL : V_BAD;
    }
    memcpy(slot_dst(slot), &value, sizeof value);
    return V_OK;
}

/* Reports a `format` or `enum` problem on a string value. */
static int string_problem(cc_parse_t *c, contractc_kind_t kind, const char *text, size_t n,
                          const contractc_value_t *v)
{
    cc_msg_t m;
    msg_init(c, &m);
    cc_str_quote(&m.model, text, n);
    cc_str_puts(&m.log, "the value");
    if (kind == CONTRACTC_KIND_ENUM) {
        msg_both(&m, " is not one of ");
        put_enum_values(&m.model, v->enumeration);
        put_enum_values(&m.log, v->enumeration);
        msg_both(&m, " (exact spelling, case-sensitive)");
    } else {
        msg_both(&m, " is not ");
        put_expected(&m.model, v);
        put_expected(&m.log, v);
        if (v->type == CONTRACTC_TYPE_DATE || v->type == CONTRACTC_TYPE_DATETIME)
            msg_both(&m, ", a real calendar date");
    }
    msg_report(c, &m, kind, NULL);
    return fail(c) ? V_FAIL : V_BAD;
}

/* Decimal, enum, date and datetime are strings with a fixed form, each
 * read by its own function (read_value picks it: one dispatch per value).
 * This is their common start: the decoded text of the string at the
 * cursor, or NULL on failure. */
static inline const char *fixed_text(cc_parse_t *c, cc_string_token_t *t)
{
    if (!cc_scan_string(&c->r, t))
        return NULL;
    return string_text(c, t);
}

/* A decimal: minor units (int64) by its form and scale, then its bounds. */
static int read_decimal(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '"')
        return read_mismatch(c, v, ch);
    cc_string_token_t t;
    const char *text = fixed_text(c, &t);
    if (!text)
        return V_FAIL;
    size_t n = t.decoded_len;
    int64_t minor;
    cc_convert_t rc = cc_convert_decimal(text, n, v->scale, v->is_signed, &minor);
    if (rc == CC_CONVERT_FORMAT)
        return string_problem(c, CONTRACTC_KIND_FORMAT, text, n, v);
    if (rc == CC_CONVERT_RANGE) {
        cc_msg_t m;
        msg_init(c, &m);
        cc_str_quote(&m.model, text, n);
        cc_str_puts(&m.log, "the value");
        msg_both(&m, " is too large");
        msg_report(c, &m, CONTRACTC_KIND_RANGE, NULL);
        return fail(c) ? V_FAIL : V_BAD;
    }
    int rr = check_int_range(c, v, minor, text, n, true);
    if (rr != V_OK)
        return rr;
    memcpy(slot_dst(slot), &minor, sizeof minor);
    return V_OK;
}

/* An enum: the C value of its exact spelling (index + 1). */
static int read_enum(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '"')
        return read_mismatch(c, v, ch);
    cc_string_token_t t;
    const char *text = fixed_text(c, &t);
    if (!text)
        return V_FAIL;
    size_t n = t.decoded_len;
    const contractc_enum_t *e = v->enumeration;
    for (uint32_t i = 0; i < e->count; i++) {
        if (e->values[i].len == n && bytes_equal(e->values[i].text, text, n)) {
            int value = (int)i + 1;
            memcpy(slot_dst(slot), &value, sizeof value);
            return V_OK;
        }
    }
    return string_problem(c, CONTRACTC_KIND_ENUM, text, n, v);
}

/* A date, a real calendar day (RFC 3339 full-date). */
static int read_date(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '"')
        return read_mismatch(c, v, ch);
    cc_string_token_t t;
    const char *text = fixed_text(c, &t);
    if (!text)
        return V_FAIL;
    contractc_date_t d;
    if (cc_convert_date(text, t.decoded_len, &d) != CC_CONVERT_OK)
        return string_problem(c, CONTRACTC_KIND_FORMAT, text, t.decoded_len, v);
    memcpy(slot_dst(slot), &d, sizeof d);
    return V_OK;
}

/* A date-time with its offset (RFC 3339). */
static int read_datetime(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != '"')
        return read_mismatch(c, v, ch);
    cc_string_token_t t;
    const char *text = fixed_text(c, &t);
    if (!text)
        return V_FAIL;
    contractc_datetime_t d;
    if (cc_convert_datetime(text, t.decoded_len, &d) != CC_CONVERT_OK)
        return string_problem(c, CONTRACTC_KIND_FORMAT, text, t.decoded_len, v);
    memcpy(slot_dst(slot), &d, sizeof d);
    return V_OK;
}

static int read_object(cc_parse_t *c, const contractc_object_t *o, unsigned char *base,
                       uint64_t *ok_bits);

static const char duplicate_msg[] = "the key appears more than once; give each key exactly once";

/* Reads an array's items into an arena vector (at most max_items are kept;
 * the rest are still validated into one scratch slot so that memory stays
 * bounded).  own_ok: the array's own checks (item count) passed.
 * item_ok: for items that are objects, the AND of their fields' ok bits. */
static int read_array(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot,
                      bool *own_ok, uint64_t *item_ok)
{
    const contractc_value_t *iv = v->items;
    const size_t size = iv ? v->item_size : 0, align = iv ? v->item_align : 1;
    if (!iv || size == 0)
        return V_FAIL;
    c->r.p++; /* '[' */
    if (!cc_enter(&c->r))
        return V_FAIL;
    unsigned char *items = NULL;
    size_t count = 0, capacity = 0;
    unsigned char *scratch = NULL;
    int result = V_OK;
    const size_t keep = v->max_items == CONTRACTC_UNBOUNDED ? (size_t)-1 : v->max_items;
    if (item_ok && iv->type == CONTRACTC_TYPE_OBJECT)
        memset(item_ok, 0xff, CC_BITSET_WORDS * sizeof *item_ok);
    /* Items that may be null (ABI 2, docs/contract-language.md §4.6): each
     * is { bool has_value; T value; }; a null leaves has_value false.  ABI 1
     * tables read items_nullable as false: the value at the item itself. */
    const bool nullable = v->items_nullable;
    const uint32_t voff = nullable ? v->item_value_offset : 0;
    const uint32_t has_off = nullable ? v->item_has_offset : CONTRACTC_ABSENT;
    cc_step_t step = {NULL, STEP_INDEX, NULL, NULL, 0};
    step_enter(c, &step);
    int ch = cc_peek(&c->r);
    if (ch == ']') {
        c->r.p++;
    } else {
        for (;;) {
            unsigned char *at;
            if (count < keep) {
                if (count == capacity) {
                    size_t ncap = capacity ? capacity * 2 : 4;
                    if (ncap > keep)
                        ncap = keep;
                    if (ncap > ((size_t)-1 / 4) / size) {
                        c->oom = true;
                        return V_FAIL;
                    }
                    items = cc_arena_grow(c->arena, items, capacity * size, ncap * size, align);
                    if (!items) {
                        c->oom = true;
                        return V_FAIL;
                    }
                    capacity = ncap;
                }
                at = items + count * size;
                if (nullable)
                    memset(at, 0, size); /* has_value false until read */
            } else {
                if (!scratch && !(scratch = cc_arena_alloc(c->arena, size, align))) {
                    c->oom = true;
                    return V_FAIL;
                }
                memset(scratch, 0, size);
                at = scratch;
            }
            step.n = count;
            /* A string, json, array or map item is a pointer and its size_t. */
            cc_slot_t s = {at, voff,
                           cc_type_has_count(iv->type) ? voff + (uint32_t)sizeof(void *)
                               : CONTRACTC_ABSENT,
                           has_off};
            uint64_t bits[CC_BITSET_WORDS];
            int r;
            if (iv->type == CONTRACTC_TYPE_OBJECT && cc_peek(&c->r) == '{') {
                r = read_object(c, iv->object, at + voff, bits);
                if (nullable && r != V_FAIL)
                    slot_set_has(&s);
                if (item_ok)
                    for (size_t w = 0; w < bitset_words(iv->object); w++)
                        item_ok[w] &= bits[w];
            } else {
                bool item_own_ok;
                r = read_value(c, iv, nullable, &s, &item_own_ok, NULL);
                /* not an object: its fields failed, unless it was an accepted null */
                if (item_ok && iv->type == CONTRACTC_TYPE_OBJECT && r != V_OK)
                    memset(item_ok, 0, CC_BITSET_WORDS * sizeof *item_ok);
            }
            if (r == V_FAIL)
                return V_FAIL;
            if (r == V_BAD)
                result = V_BAD;
            /* A stream's item of a root field, closed and clean (§18). */
            if (c->item && r == V_OK && c->found == 0 && count < keep && step.up &&
                step.up->kind == STEP_FIELD && !step.up->up)
                c->item(c->item_user, step.up->field, count, at);
            count++;
            if (count == (size_t)-1)
                return V_FAIL;
            ch = cc_peek(&c->r);
            if (ch == ',') {
                c->r.p++;
                if (cc_peek(&c->r) == ']') {
                    cc_reader_fail(&c->r, CONTRACTC_KIND_SYNTAX, (size_t)(c->r.p - c->r.raw),
                                   "unexpected ']' after ','; remove the trailing comma");
                    return V_FAIL;
                }
                continue;
            }
            if (!cc_expect(&c->r, ']', "',' or ']' after an array item"))
                return V_FAIL;
            break;
        }
    }
    step_leave(c, &step);
    cc_leave(&c->r);
    *own_ok = true;
    if (count < v->min_items || count > v->max_items) {
        cc_msg_t m;
        msg_init(c, &m);
        msg_both(&m, "the list has ");
        msg_count(&m, count);
        msg_both(&m, count == 1 ? " item; expected " : " items; expected ");
        if (count < v->min_items) {
            msg_both(&m, "at least ");
            msg_count(&m, v->min_items);
        } else {
            msg_both(&m, "at most ");
            msg_count(&m, v->max_items);
        }
        msg_report(c, &m, CONTRACTC_KIND_ITEMS, NULL);
        *own_ok = false;
        result = V_BAD;
    }
    if (count > keep)
        count = keep;
    memcpy(slot_dst(slot), &items, sizeof items);
    slot_set_aux(slot, count);
    return fail(c) ? V_FAIL : result;
}

/* One key of a map read so far (read_map): its hash and its text (the
 * entry's copy in the arena). */
typedef struct cc_map_key {
    uint64_t hash;
    const char *key; /* NULL: a free slot */
    size_t n;
} cc_map_key_t;

/* FNV-1a of the key from the parse's address, then MurmurHash3's final
 * mix: the table's order is not the reply sender's to predict. */
static uint64_t map_key_hash(const cc_parse_t *c, const char *k, size_t n)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325) ^
                 ((uint64_t)(uintptr_t)c * UINT64_C(0x9E3779B97F4A7C15));
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * UINT64_C(0x100000001b3);
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

/* The slot of key k[0..n) with hash h in table t (mask + 1 slots, never
 * full): its entry, or the free one where it goes. */
static cc_map_key_t *map_key_slot(cc_map_key_t *t, size_t mask, uint64_t h, const char *k,
                                  size_t n)
{
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        cc_map_key_t *e = &t[i];
        if (!e->key || (e->hash == h && e->n == n && memcmp(e->key, k, n) == 0))
            return e;
    }
}

/* Reads a map (docs/contract-language.md §4.12; the cursor at '{') into an
 * arena vector of entries { key, key_len, value } in reply order, as
 * read_array reads items (at most max_items entries kept, the rest checked
 * into one scratch entry).  Each key is looked up in a table of the keys
 * read so far (on the heap, freed here): a key read before is `duplicate`
 * and its value skipped; a key outside key_pattern (v->pattern) is
 * `pattern` at the entry's path, and its value is still checked.  The
 * entry count out of bounds is one `items` problem at the map's path.
 * own_ok: that count passed. */
CC_NOINLINE static int read_map(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot,
                    bool *own_ok)
{
    const contractc_value_t *iv = v->items;
    const size_t size = iv ? v->item_size : 0, align = iv ? v->item_align : 1;
    if (!iv || size == 0 || align == 0)
        return V_FAIL;
    const size_t voff = CONTRACTC_MAP_VALUE_OFFSET(align);
    c->r.p++; /* '{' */
    if (!cc_enter(&c->r))
        return V_FAIL;
    unsigned char *entries = NULL, *scratch = NULL;
    size_t count = 0, capacity = 0;
    cc_map_key_t *keys = NULL;
    size_t keys_mask = 0, keys_count = 0;
    int result = V_OK;
    const size_t keep = v->max_items == CONTRACTC_UNBOUNDED ? (size_t)-1 : v->max_items;
    cc_step_t step = {NULL, STEP_KEY, NULL, NULL, 0};
    step_enter(c, &step);
    if (cc_peek(&c->r) == '}') {
        c->r.p++;
    } else {
        for (;;) {
            if (cc_peek(&c->r) != '"') {
                cc_expect(&c->r, '"', "a key string");
                goto failed;
            }
            cc_string_token_t kt;
            if (!cc_scan_string(&c->r, &kt))
                goto failed;
            /* The entry's key: a NUL-terminated copy in the arena. */
            char *key = cc_arena_alloc_bytes(c->arena, kt.decoded_len + 1);
            if (!key)
                goto oom;
            if (kt.has_escapes)
                cc_decode_string(&kt, key);
            else
                memcpy(key, kt.raw, kt.decoded_len);
            key[kt.decoded_len] = '\0';
            if (!cc_expect(&c->r, ':', "':' after the key"))
                goto failed;
            step.key = key;
            step.n = kt.decoded_len;
            if ((keys_count + 1) * 2 > (keys_count ? keys_mask + 1 : 0)) {
                /* Twice the size (16 slots at first), at most half full. */
                size_t old_size = keys ? keys_mask + 1 : 0, nsize = old_size ? old_size * 2 : 16;
                if (nsize > (size_t)-1 / 2 / sizeof *keys)
                    goto oom;
                cc_map_key_t *t = cc_alloc(c->allocator, nsize * sizeof *t);
                if (!t)
                    goto oom;
                for (size_t i = 0; i < nsize; i++)
                    t[i].key = NULL;
                for (size_t i = 0; i < old_size; i++)
                    if (keys[i].key)
                        *map_key_slot(t, nsize - 1, keys[i].hash, keys[i].key, keys[i].n) = keys[i];
                cc_free(c->allocator, keys, old_size * sizeof *keys);
                keys = t;
                keys_mask = nsize - 1;
            }
            const uint64_t h = map_key_hash(c, key, kt.decoded_len);
            cc_map_key_t *e = map_key_slot(keys, keys_mask, h, key, kt.decoded_len);
            if (e->key) {
                report_fixed(c, CONTRACTC_KIND_DUPLICATE, duplicate_msg, sizeof duplicate_msg - 1);
                result = V_BAD;
                if (fail(c) || !cc_skip_value(&c->r))
                    goto failed;
            } else {
                e->hash = h;
                e->key = key;
                e->n = kt.decoded_len;
                keys_count++;
                if (v->pattern && !contractc_dfa_match(v->pattern, key, kt.decoded_len)) {
                    cc_msg_t m;
                    msg_init(c, &m);
                    cc_str_puts(&m.model, "the key ");
                    cc_str_quote(&m.model, key, kt.decoded_len);
                    cc_str_puts(&m.log, "the key");
                    msg_both(&m, " does not match the key pattern ");
                    msg_both(&m, v->pattern->source);
                    msg_both(&m, " (the whole key must match)");
                    msg_report(c, &m, CONTRACTC_KIND_PATTERN, NULL);
                    result = V_BAD;
                    if (fail(c))
                        goto failed;
                }
                unsigned char *at;
                if (count < keep) {
                    if (count == capacity) {
                        size_t ncap = capacity ? capacity * 2 : 4;
                        if (ncap > keep)
                            ncap = keep;
                        if (ncap > ((size_t)-1 / 4) / size)
                            goto oom;
                        entries = cc_arena_grow(c->arena, entries, capacity * size, ncap * size,
                                                align);
                        if (!entries)
                            goto oom;
                        capacity = ncap;
                    }
                    at = entries + count * size;
                } else {
                    if (!scratch && !(scratch = cc_arena_alloc(c->arena, size, align)))
                        goto oom;
                    memset(scratch, 0, size);
                    at = scratch;
                }
                const char *kp = key;
                const size_t kn = kt.decoded_len;
                memcpy(at, &kp, sizeof kp);
                memcpy(at + sizeof kp, &kn, sizeof kn);
                /* A string or an array value is a pointer and its size_t. */
                cc_slot_t s = {at + voff, 0,
                               cc_type_has_count(iv->type) ? (uint32_t)sizeof(void *)
                                   : CONTRACTC_ABSENT,
                               CONTRACTC_ABSENT};
                int r;
                if (iv->type == CONTRACTC_TYPE_OBJECT && cc_peek(&c->r) == '{') {
                    uint64_t bits[CC_BITSET_WORDS];
                    r = read_object(c, iv->object, at + voff, bits);
                } else {
                    bool value_ok;
                    r = read_value(c, iv, false, &s, &value_ok, NULL);
                }
                if (r == V_FAIL)
                    goto failed;
                if (r == V_BAD)
                    result = V_BAD;
                count++;
                if (count == (size_t)-1)
                    goto failed;
            }
            int ch = cc_peek(&c->r);
            if (ch == ',') {
                c->r.p++;
                continue;
            }
            if (!cc_expect(&c->r, '}', "',' or '}' after an object member"))
                goto failed;
            break;
        }
    }
    cc_free(c->allocator, keys, keys ? (keys_mask + 1) * sizeof *keys : 0);
    step_leave(c, &step);
    cc_leave(&c->r);
    *own_ok = true;
    if (count < v->min_items || count > v->max_items) {
        cc_msg_t m;
        msg_init(c, &m);
        msg_both(&m, "the object has ");
        msg_count(&m, count);
        msg_both(&m, count == 1 ? " entry; expected " : " entries; expected ");
        if (count < v->min_items) {
            msg_both(&m, "at least ");
            msg_count(&m, v->min_items);
        } else {
            msg_both(&m, "at most ");
            msg_count(&m, v->max_items);
        }
        msg_report(c, &m, CONTRACTC_KIND_ITEMS, NULL);
        *own_ok = false;
        result = V_BAD;
    }
    if (count > keep)
        count = keep;
    memcpy(slot_dst(slot), &entries, sizeof entries);
    slot_set_aux(slot, count);
    return fail(c) ? V_FAIL : result;
oom:
    c->oom = true;
failed:
    cc_free(c->allocator, keys, keys ? (keys_mask + 1) * sizeof *keys : 0);
    return V_FAIL;
}

/* ---- json values (docs/contract-language.md §4.14) ---------------------- */

/* One open container of a json value (read_json): its step in the path,
 * the key being read of an object or the index of an array, and for an
 * object its ordinal among the value's objects (1, 2, ...; 0: an array),
 * the scope of its keys in the duplicate table. */
typedef struct cc_json_level {
    cc_step_t step;
    uint32_t object;
} cc_json_level_t;

/* One key read so far in a json value's objects: its object, its hash and
 * its decoded text (in the reply, or in the arena when it has escapes). */
typedef struct cc_json_key {
    uint64_t hash;
    const char *key; /* NULL: a free slot */
    size_t n;
    uint32_t object;
} cc_json_key_t;

#define CC_JSON_LEVELS_INLINE 8

/* read_json's walk (cc_walk_t's user): the open containers, innermost
 * last, and the keys read so far (on the heap, freed by read_json). */
typedef struct cc_json_walk {
    cc_parse_t *c;
    const cc_step_t *base;     /* c->at when the value began */
    cc_json_level_t *levels;   /* [cap]: first `inline_levels`, then the heap */
    size_t depth, cap;
    cc_json_level_t inline_levels[CC_JSON_LEVELS_INLINE];
    cc_json_key_t *keys;       /* keys_mask + 1 slots, at most half full */
    size_t keys_mask, keys_count;
    uint32_t objects;          /* objects opened so far */
    bool duplicate;            /* a `duplicate` was reported */
} cc_json_walk_t;

static bool json_open(void *user, bool object)
{
    cc_json_walk_t *w = user;
    cc_parse_t *c = w->c;
    if (w->depth == w->cap) {
        /* Twice the levels; the steps moved, so their chain is relinked. */
        size_t ncap = w->cap * 2;
        cc_json_level_t *l = cc_alloc(c->allocator, ncap * sizeof *l);
        if (!l) {
            c->oom = true;
            return false;
        }
        memcpy(l, w->levels, w->depth * sizeof *l);
        if (w->levels != w->inline_levels)
            cc_free(c->allocator, w->levels, w->cap * sizeof *l);
        for (size_t i = 0; i < w->depth; i++)
            l[i].step.up = i ? &l[i - 1].step : w->base;
        w->levels = l;
        w->cap = ncap;
        c->at = w->depth ? &l[w->depth - 1].step : w->base;
    }
    if (object && w->objects == UINT32_MAX)
        return false; /* more objects than the reader's byte cap can hold */
    cc_json_level_t *l = &w->levels[w->depth++];
    l->object = object ? ++w->objects : 0;
    l->step.kind = object ? STEP_KEY : STEP_INDEX;
    l->step.field = NULL;
    l->step.key = "";
    /* an array's index: item() counts up from here, (size_t)-1 + 1 == 0 */
    l->step.n = object ? 0 : (size_t)-1;
    step_enter(c, &l->step);
    return true;
}

static bool json_item(void *user)
{
    cc_json_walk_t *w = user;
    w->levels[w->depth - 1].step.n++;
    return true;
}

static void json_close(void *user)
{
    cc_json_walk_t *w = user;
    step_leave(w->c, &w->levels[--w->depth].step);
}

/* A key of the innermost object: the path's step, and `duplicate` when
 * the object had it before (compared decoded, as read_map compares). */
static bool json_key(void *user, const cc_string_token_t *kt)
{
    cc_json_walk_t *w = user;
    cc_parse_t *c = w->c;
    cc_json_level_t *l = &w->levels[w->depth - 1];
    const char *key = (const char *)kt->raw;
    if (kt->has_escapes) {
        char *d = cc_arena_alloc_bytes(c->arena, kt->decoded_len + 1);
        if (!d) {
            c->oom = true;
            return false;
        }
        cc_decode_string(kt, d);
        d[kt->decoded_len] = '\0';
        key = d;
    }
    const size_t n = kt->decoded_len;
    l->step.key = key;
    l->step.n = n;
    if ((w->keys_count + 1) * 2 > (w->keys ? w->keys_mask + 1 : 0)) {
        size_t old = w->keys ? w->keys_mask + 1 : 0, nsize = old ? old * 2 : 16;
        cc_json_key_t *t = nsize <= (size_t)-1 / 2 / sizeof *t
                               ? cc_alloc(c->allocator, nsize * sizeof *t) : NULL;
        if (!t) {
            c->oom = true;
            return false;
        }
        for (size_t i = 0; i < nsize; i++)
            t[i].key = NULL;
        for (size_t i = 0; i < old; i++) {
            if (!w->keys[i].key)
                continue;
            size_t j = (size_t)w->keys[i].hash & (nsize - 1);
            while (t[j].key)
                j = (j + 1) & (nsize - 1);
            t[j] = w->keys[i];
        }
        cc_free(c->allocator, w->keys, old * sizeof *t);
        w->keys = t;
        w->keys_mask = nsize - 1;
    }
    const uint64_t h = map_key_hash(c, key, n) ^ ((uint64_t)l->object * UINT64_C(0x9E3779B97F4A7C15));
    for (size_t i = (size_t)h & w->keys_mask;; i = (i + 1) & w->keys_mask) {
        cc_json_key_t *e = &w->keys[i];
        if (!e->key) {
            e->hash = h;
            e->key = key;
            e->n = n;
            e->object = l->object;
            w->keys_count++;
            return true;
        }
        if (e->hash == h && e->object == l->object && e->n == n && memcmp(e->key, key, n) == 0) {
            report_fixed(c, CONTRACTC_KIND_DUPLICATE, duplicate_msg, sizeof duplicate_msg - 1);
            w->duplicate = true;
            return !fail(c);
        }
    }
}

/*
 * Reads any JSON value (the cursor at its first byte; `null` included)
 * with the one reader (cc_walk_value: the grammar, the encoding, the depth
 * cap; numbers by the grammar only), reports each key an object of it has
 * twice as `duplicate` at that key's path, and a text over max_length
 * bytes (max_bytes) as `length`.  The slot gets a NUL-terminated copy of
 * the value's bytes as sent and their count.
 */
CC_NOINLINE static int read_json(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot,
                                 bool *own_ok)
{
    const unsigned char *start = c->r.p;
    cc_json_walk_t w;
    w.c = c;
    w.base = c->at;
    w.levels = w.inline_levels;
    w.depth = 0;
    w.cap = CC_JSON_LEVELS_INLINE;
    w.keys = NULL;
    w.keys_mask = w.keys_count = 0;
    w.objects = 0;
    w.duplicate = false;
    const cc_walk_t walk = {json_open, json_key, json_item, json_close, &w};
    bool read = cc_walk_value(&c->r, &walk);
    c->at = w.base;
    if (w.levels != w.inline_levels)
        cc_free(c->allocator, w.levels, w.cap * sizeof *w.levels);
    cc_free(c->allocator, w.keys, w.keys ? (w.keys_mask + 1) * sizeof *w.keys : 0);
    if (!read || fail(c))
        return V_FAIL;
    const size_t n = (size_t)(c->r.p - start);
    int result = w.duplicate ? V_BAD : V_OK;
    if (n > v->max_length) {
        cc_msg_t m;
        msg_init(c, &m);
        msg_both(&m, "the value is ");
        msg_count(&m, n);
        msg_both(&m, " bytes of JSON text; at most ");
        msg_count(&m, v->max_length);
        msg_both(&m, " are allowed");
        msg_report(c, &m, CONTRACTC_KIND_LENGTH, NULL);
        if (fail(c))
            return V_FAIL;
        result = V_BAD;
    }
    char *copy = cc_arena_alloc_bytes(c->arena, n + 1);
    if (!copy) {
        c->oom = true;
        return V_FAIL;
    }
    memcpy(copy, start, n);
    copy[n] = '\0';
    memcpy(slot_dst(slot), &copy, sizeof copy);
    slot_set_aux(slot, n);
    if (result == V_OK) {
        *own_ok = true;
        slot_set_has(slot);
    }
    return result;
}

/* A `null` where a value of descriptor `v` was expected: accepted when
 * nullable (has_X stays false: "not stated"), else a `null` problem. */
static int read_null(cc_parse_t *c, const contractc_value_t *v, bool nullable,
                     const cc_slot_t *slot, bool *own_ok)
{
    if (v->type == CONTRACTC_TYPE_JSON) /* null is a json value's value */
        return read_json(c, v, slot, own_ok);
    cc_literal_t lit;
    if (!cc_scan_literal(&c->r, &lit))
        return V_FAIL;
    if (nullable) {
        *own_ok = true;
        return V_OK;
    }
    cc_msg_t m;
    msg_init(c, &m);
    msg_both(&m, "null is not allowed here; expected ");
    put_expected(&m.model, v);
    put_expected(&m.log, v);
    /* an optional key that is not nullable: absent is its "not stated"
     * (docs/contract-language.md §4.10) */
    if (c->at && c->at->kind == STEP_FIELD && c->at->field->optional)
        msg_both(&m, ", or leave the key out");
    msg_report(c, &m, CONTRACTC_KIND_NULL, NULL);
    return fail(c) ? V_FAIL : V_BAD;
}

/* An object value, into the struct at slot_dst(slot). */
static int read_object_value(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot,
                             bool *own_ok)
{
    uint64_t bits[CC_BITSET_WORDS];
    int r = read_object(c, v->object, slot_dst(slot), bits);
    if (r != V_FAIL)
        *own_ok = true;
    if (r != V_FAIL)
        slot_set_has(slot);
    return r;
}

/* The decoded text of the string token t, for a comparison: the raw bytes
 * without escapes, else `small` when it fits, else a copy in the arena. */
static const char *token_text(cc_parse_t *c, const cc_string_token_t *t, char *small, size_t cap)
{
    if (t->has_escapes && t->decoded_len <= cap) {
        cc_decode_string(t, small);
        return small;
    }
    return string_text(c, t);
}

/*
 * A tagged union (docs/contract-language.md §4.11), the cursor at '{'.  One
 * scan of the object finds the tag key first (the reader's skip functions:
 * the values are not read), up to the tag (a tag written first costs one
 * key; the variant's read finds any fault after it); a missing tag is one `missing` problem at
 * PATH.TAG, a tag that is not a string one `type` problem, a tag value that
 * names no variant one `enum` problem, and in those cases nothing else of
 * the object is checked.  Otherwise the cursor goes back to '{' and the
 * object is read as the variant's object into `as`, the tag key skipped
 * (a second one is `duplicate`), and the kind is set to the variant's index
 * + 1.
 */
CC_NOINLINE static int read_union(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot,
                      bool *own_ok)
{
    const unsigned char *open = c->r.p, *tag_at = NULL;
    char small[256];
    c->r.p++; /* '{' */
    if (!cc_enter(&c->r))
        return V_FAIL;
    if (cc_peek(&c->r) == '}') {
        c->r.p++;
    } else {
        for (;;) {
            if (cc_peek(&c->r) != '"') {
                cc_expect(&c->r, '"', "a key string");
                return V_FAIL;
            }
            cc_string_token_t kt;
            if (!cc_scan_string(&c->r, &kt) || !cc_expect(&c->r, ':', "':' after the key"))
                return V_FAIL;
            if (!tag_at && kt.decoded_len == v->tag_len) {
                const char *key = token_text(c, &kt, small, sizeof small);
                if (!key)
                    return V_FAIL;
                if (bytes_equal(key, v->tag, v->tag_len)) {
                    cc_peek(&c->r);
                    tag_at = c->r.p;
                    break; /* the rest is read with the variant, or skipped below */
                }
            }
            if (!cc_skip_value(&c->r))
                return V_FAIL;
            int ch = cc_peek(&c->r);
            if (ch == ',') {
                c->r.p++;
                continue;
            }
            if (!cc_expect(&c->r, '}', "',' or '}' after an object member"))
                return V_FAIL;
            break;
        }
    }
    cc_leave(&c->r);
    /* past the object when the scan read it whole (no tag); else found
     * again below, on the rare paths that skip it */
    const unsigned char *after = tag_at ? NULL : c->r.p;
    cc_step_t step = {NULL, STEP_KEY, NULL, v->tag, v->tag_len};
    if (!tag_at) {
        step_enter(c, &step);
        cc_msg_t m;
        msg_init(c, &m);
        msg_both(&m, "the key is required: it says which kind of object this is, one of ");
        for (uint32_t i = 0; i < v->variant_count; i++) {
            if (i)
                msg_both(&m, i + 1 == v->variant_count ? " or " : ", ");
            cc_str_quote(&m.model, v->variants[i].name, v->variants[i].name_len);
            cc_str_quote(&m.log, v->variants[i].name, v->variants[i].name_len);
        }
        msg_report(c, &m, CONTRACTC_KIND_MISSING, NULL);
        step_leave(c, &step);
        return fail(c) ? V_FAIL : V_BAD;
    }
    c->r.p = tag_at;
    step_enter(c, &step);
    int ch = cc_peek(&c->r), r = V_BAD;
    if (ch != '"') {
        contractc_value_t string_value;
        memset(&string_value, 0, sizeof string_value);
        string_value.type = CONTRACTC_TYPE_STRING;
        r = read_mismatch(c, &string_value, ch);
    } else {
        cc_string_token_t t;
        const char *text = NULL;
        if (cc_scan_string(&c->r, &t))
            text = token_text(c, &t, small, sizeof small);
        if (!text) {
            r = V_FAIL;
        } else {
            uint32_t i = 0;
            while (i < v->variant_count &&
                   !(v->variants[i].name_len == t.decoded_len &&
                     bytes_equal(v->variants[i].name, text, t.decoded_len)))
                i++;
            if (i < v->variant_count) {
                step_leave(c, &step);
                int kind = (int)i + 1;
                unsigned char *dst = slot_dst(slot);
                memcpy(dst, &kind, sizeof kind);
                c->r.p = open;
                uint64_t bits[CC_BITSET_WORDS];
                /* read_object skips its tag once; an enclosing variant's
                 * state is restored after (its tag may come later) */
                const unsigned char *outer_open = c->tagged_open;
                const contractc_value_t *outer = outer_open ? c->tagged : NULL;
                bool outer_skipped = outer_open ? c->tag_skipped : false;
                c->tagged = v;
                c->tagged_open = open;
                c->tag_skipped = false;
                r = read_object(c, v->variants[i].object, dst + v->union_offset, bits);
                c->tagged = outer;
                c->tagged_open = outer_open;
                c->tag_skipped = outer_skipped;
                if (r != V_FAIL)
                    *own_ok = true;
                return r;
            }
            cc_msg_t m;
            msg_init(c, &m);
            cc_str_quote(&m.model, text, t.decoded_len);
            cc_str_puts(&m.log, "the value");
            msg_both(&m, " is not one of the kinds ");
            for (uint32_t k = 0; k < v->variant_count; k++) {
                if (k)
                    msg_both(&m, k + 1 == v->variant_count ? " or " : ", ");
                cc_str_quote(&m.model, v->variants[k].name, v->variants[k].name_len);
                cc_str_quote(&m.log, v->variants[k].name, v->variants[k].name_len);
            }
            msg_both(&m, " (exact spelling, case-sensitive)");
            msg_report(c, &m, CONTRACTC_KIND_ENUM, NULL);
            r = fail(c) ? V_FAIL : V_BAD;
        }
    }
    step_leave(c, &step);
    if (r == V_FAIL)
        return r;
    if (!after) { /* a bad tag: the object is skipped, nothing else of it checked */
        c->r.p = open;
        if (!cc_skip_value(&c->r))
            return V_FAIL;
        after = c->r.p;
    }
    c->r.p = after;
    return r;
}

/* Whether a value starting with byte ch is of the JSON type of values of
 * type t (a value union's alternative, docs/contract-language.md §4.13). */
static bool json_type_fits(contractc_type_t t, int ch)
{
    switch (t) {
    case CONTRACTC_TYPE_STRING: case CONTRACTC_TYPE_DECIMAL: case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME: case CONTRACTC_TYPE_ENUM:
        return ch == '"';
    case CONTRACTC_TYPE_INTEGER: case CONTRACTC_TYPE_NUMBER:
        return ch == '-' || (ch >= '0' && ch <= '9');
    case CONTRACTC_TYPE_BOOLEAN: return ch == 't' || ch == 'f';
    case CONTRACTC_TYPE_OBJECT: case CONTRACTC_TYPE_UNION: case CONTRACTC_TYPE_MAP:
        return ch == '{';
    case CONTRACTC_TYPE_ARRAY: return ch == '[';
    default: return false;
    }
}

/*
 * A value union (docs/contract-language.md §4.13), at the value's first
 * byte ch (not 'n': read_null took it).  The one alternative of the
 * value's JSON type reads it into `as` (its problems are that
 * alternative's, at this path) and the kind is set to its index + 1; a
 * value of none of the alternatives' JSON types is one `type` problem
 * naming them all.  Nothing is coerced: "5" is no integer.
 */
CC_NOINLINE static int read_value_union(cc_parse_t *c, const contractc_value_t *v,
                                        const cc_slot_t *slot, int ch, bool *own_ok)
{
    uint32_t i = 0;
    while (i < v->alternative_count && !json_type_fits(v->alternatives[i].type, ch))
        i++;
    if (i == v->alternative_count)
        return read_mismatch(c, v, ch);
    const contractc_value_t *a = &v->alternatives[i];
    int kind = (int)i + 1;
    memcpy(slot_dst(slot), &kind, sizeof kind);
    /* `as`: a string alternative is a contractc_string_t and an array
     * alternative a { T *items; size_t count; }, the length after the
     * pointer (as an array's string or list item) */
    const uint32_t at = slot->offset + v->union_offset;
    cc_slot_t s = {slot->base, at,
                   cc_type_has_count(a->type) ? at + (uint32_t)sizeof(void *)
                       : CONTRACTC_ABSENT,
                   CONTRACTC_ABSENT};
    bool alternative_ok = false;
    int r = read_value(c, a, false, &s, &alternative_ok, NULL);
    if (r != V_FAIL)
        slot_set_has(slot);
    *own_ok = alternative_ok;
    return r;
}

/* A boolean (the other scalar readers are above). */
static int read_boolean(cc_parse_t *c, const contractc_value_t *v, const cc_slot_t *slot, int ch)
{
    if (ch != 't' && ch != 'f')
        return read_mismatch(c, v, ch);
    cc_literal_t lit;
    if (!cc_scan_literal(&c->r, &lit))
        return V_FAIL;
    bool value = lit == CC_LITERAL_TRUE;
    memcpy(slot_dst(slot), &value, sizeof value);
    return V_OK;
}

/*
 * Reads one value of descriptor `v` at the cursor into `slot`.
 * own_ok: the value's own checks passed (for arrays, apart from items).
 * Inline (CC_INLINE) and small: it runs for every member and item, and the reader it
 * picks is the compiler's to inline or not (docs/runtime-internals.md,
 * "Inlining").
 */
static CC_INLINE int read_value(cc_parse_t *c, const contractc_value_t *v, bool nullable,
                             const cc_slot_t *slot, bool *own_ok, uint64_t *item_ok)
{
    *own_ok = false;
    int ch = cc_peek(&c->r);
    if (ch == 'n')
        return read_null(c, v, nullable, slot, own_ok);
    if (v->type == CONTRACTC_TYPE_OBJECT)
        return ch == '{' ? read_object_value(c, v, slot, own_ok) : read_mismatch(c, v, ch);
    if (v->type == CONTRACTC_TYPE_ARRAY) {
        if (ch != '[')
            return read_mismatch(c, v, ch);
        int r = read_array(c, v, slot, own_ok, item_ok);
        if (r != V_FAIL)
            slot_set_has(slot);
        return r;
    }
    if (v->type == CONTRACTC_TYPE_MAP) {
        if (ch != '{')
            return read_mismatch(c, v, ch);
        int r = read_map(c, v, slot, own_ok);
        if (r != V_FAIL)
            slot_set_has(slot);
        return r;
    }
    /* Each scalar type's reader, given the value's first byte ch (not 'n':
     * read_null), reads a value of another JSON type, or the end of the
     * reply (ch < 0), with read_mismatch. */
    int r;
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: r = read_string(c, v, slot, ch); break;
    case CONTRACTC_TYPE_INTEGER: r = read_integer(c, v, slot, ch); break;
    case CONTRACTC_TYPE_NUMBER: r = read_number(c, v, slot, ch); break;
    case CONTRACTC_TYPE_BOOLEAN: r = read_boolean(c, v, slot, ch); break;
    case CONTRACTC_TYPE_DECIMAL: r = read_decimal(c, v, slot, ch); break;
    case CONTRACTC_TYPE_ENUM: r = read_enum(c, v, slot, ch); break;
    case CONTRACTC_TYPE_DATE: r = read_date(c, v, slot, ch); break;
    case CONTRACTC_TYPE_DATETIME: r = read_datetime(c, v, slot, ch); break;
    case CONTRACTC_TYPE_JSON:
        if (ch < 0)
            return read_mismatch(c, v, ch);
        return read_json(c, v, slot, own_ok);
    case CONTRACTC_TYPE_UNION:
        if (ch != '{')
            return read_mismatch(c, v, ch);
        r = read_union(c, v, slot, own_ok);
        if (r != V_FAIL)
            slot_set_has(slot);
        return r;
    case CONTRACTC_TYPE_VALUE_UNION:
        return read_value_union(c, v, slot, ch, own_ok);
    default: return V_FAIL;
    }
    if (r == V_OK) {
        *own_ok = true;
        slot_set_has(slot);
    }
    return r;
}

/* ------------------------------------------------------------------------
 * Objects and their rules
 * ------------------------------------------------------------------------ */

/* Finds the field named k[0..n) through the sorted key lookup. */
static const contractc_field_t *find_field(const contractc_object_t *o, const char *k,
                                           size_t n, uint32_t *index)
{
    uint32_t lo = 0, hi = o->field_count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const contractc_field_t *f = &o->fields[o->lookup[mid]];
        int cmp = f->name_len < n ? -1 : f->name_len > n ? 1 : memcmp(f->name, k, n);
        if (cmp == 0) {
            *index = o->lookup[mid];
            return f;
        }
        if (cmp < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Whether keys a and b are equal once folded: lowercase ASCII, without '_',
 * '-' and ' ', so that "orderId" and "order-id" both match "order_id".
 * Compared in place, stopping at the first difference: most unexpected
 * keys match no field, and that shows within a byte or two. */
static bool folded_equal(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < an && (a[i] == '_' || a[i] == '-' || a[i] == ' '))
            i++;
        while (j < bn && (b[j] == '_' || b[j] == '-' || b[j] == ' '))
            j++;
        if (i == an || j == bn)
            return i == an && j == bn;
        char x = a[i++], y = b[j++];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return false;
    }
}

/* The first byte of k[0..n) that folding keeps, lowercased; -1 for none. */
static int folded_first(const char *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char ch = k[i];
        if (ch != '_' && ch != '-' && ch != ' ')
            return (ch >= 'A' && ch <= 'Z') ? ch - 'A' + 'a' : (unsigned char)ch;
    }
    return -1;
}

#define CC_SUGGEST_MAX 128 /* longer keys and field names are never suggested */

/* The field an unexpected key was probably meant to be, or NULL. */
static const contractc_field_t *suggest_field(const contractc_object_t *o, const char *k,
                                              size_t n, const uint64_t *seen)
{
    if (n > CC_SUGGEST_MAX)
        return NULL;
    /* Every unexpected key is tried against every field: the first folded
     * bytes, found once for the key, rule out nearly all of them. */
    const int first = folded_first(k, n);
    for (uint32_t i = 0; i < o->field_count; i++) {
        const contractc_field_t *f = &o->fields[i];
        if (bit_get(seen, i) || f->name_len > CC_SUGGEST_MAX ||
            folded_first(f->name, f->name_len) != first)
            continue;
        if (folded_equal(k, n, f->name, f->name_len))
            return f;
    }
    return NULL;
}

static const char allowed_prefix[] = "unexpected key; the allowed keys are ";

/* "unexpected key; the allowed keys are a, b, c": the first 24 fields. */
static void put_allowed_keys(cc_str_t *s, const contractc_object_t *o)
{
    cc_str_append(s, allowed_prefix, sizeof allowed_prefix - 1);
    put_key_names(s, o);
}

/* Whether c->path holds the path of steps s (the chain up from an object
 * whose unexpected keys are being reported).  Steps are compared by what
 * they render, not by address: they live on the stack, and the next item
 * of an array reuses its predecessor's with another index. */
static bool prefix_is(const cc_parse_t *c, const cc_step_t *s)
{
    if (!c->prefix_valid)
        return false;
    size_t i = 0;
    for (; s; s = s->up, i++) {
        if (i == c->prefix_steps)
            return false;
        const cc_step_t *t = &c->prefix[i];
        if (s->kind != t->kind || (s->kind == STEP_FIELD ? s->field != t->field : s->n != t->n))
            return false;
    }
    return i == c->prefix_steps;
}

/* Renders the path of steps s into c->path and keeps the steps for
 * prefix_is, when they fit and hold no key (a key step renders its bytes,
 * which its pointer does not pin down; none is ever an object's parent). */
static void prefix_render(cc_parse_t *c, const cc_step_t *s)
{
    c->path_len = 1;
    c->path[1] = '\0';
    path_render(c, s);
    size_t i = 0;
    for (; s && i < CC_PREFIX_STEPS && s->kind != STEP_KEY; s = s->up)
        c->prefix[i++] = *s;
    c->prefix_steps = i;
    c->prefix_valid = s == NULL;
}

/* One unexpected key stored; object NULL: a free entry. */
typedef struct cc_key_seen {
    uint64_t hash;
    const unsigned char *object;
    const char *key;
    size_t n;
} cc_key_seen_t;

/* FNV-1a of the object's offset and the key from the parse's seed, then a
 * final mix (MurmurHash3's) so that the table index takes every bit. */
static uint64_t key_hash(const cc_parse_t *c, const unsigned char *object, const char *k,
                         size_t n)
{
    uint64_t h = (UINT64_C(0xcbf29ce484222325) ^ c->keys_seed) +
                 (uint64_t)(object - c->r.raw) * UINT64_C(0x9E3779B97F4A7C15);
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)k[i]) * UINT64_C(0x100000001b3);
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    return h;
}

/* The slot of (object, k[0..n)) in the table: its entry, or the free one
 * where it goes. */
static cc_key_seen_t *key_slot(cc_parse_t *c, uint64_t h, const unsigned char *object,
                               const char *k, size_t n)
{
    for (size_t i = (size_t)h & c->keys_mask;; i = (i + 1) & c->keys_mask) {
        cc_key_seen_t *e = &c->keys[i];
        if (!e->object ||
            (e->hash == h && e->object == object && e->n == n && memcmp(e->key, k, n) == 0))
            return e;
    }
}

/* Whether unexpected key k[0..n) of the object whose '{' is at `object`
 * was stored before: 1 yes, 0 no (it is stored now), -1 out of memory.
 * `transient`: k lives in a buffer of the caller, copied to keep it. */
static int unexpected_key_seen(cc_parse_t *c, const unsigned char *object, const char *k,
                               size_t n, bool transient)
{
    if (!c->keys) { /* the first unexpected key of this parse */
        c->keys_count = c->keys_mask = 0;
        /* The table's order is the reply sender's business only if they
         * can predict it: the address of the parse state varies. */
        c->keys_seed = (uint64_t)(uintptr_t)c * UINT64_C(0x9E3779B97F4A7C15);
    }
    if ((c->keys_count + 1) * 2 > c->keys_mask + 1) {
        /* Twice the size (at least 16 entries), at most half full; the old
         * table stays in the arena until the parse ends, as the list's
         * problems do. */
        size_t size = c->keys_mask ? (c->keys_mask + 1) * 2 : 16;
        if (size > (size_t)-1 / 2 / sizeof(cc_key_seen_t))
            return -1;
        cc_key_seen_t *old = c->keys;
        size_t old_size = c->keys_mask ? c->keys_mask + 1 : 0;
        cc_key_seen_t *t = cc_arena_alloc(c->arena, size * sizeof *t, sizeof(uint64_t));
        if (!t)
            return -1;
        for (size_t i = 0; i < size; i++)
            t[i].object = NULL; /* the arena zeroes it; NULL need not be all zero bits */
        c->keys = t;
        c->keys_mask = size - 1;
        for (size_t i = 0; i < old_size; i++)
            if (old[i].object)
                *key_slot(c, old[i].hash, old[i].object, old[i].key, old[i].n) = old[i];
    }
    const uint64_t h = key_hash(c, object, k, n);
    cc_key_seen_t *e = key_slot(c, h, object, k, n);
    if (e->object)
        return 1;
    if (transient) {
        char *copy = cc_arena_alloc_bytes(c->arena, n ? n : 1);
        if (!copy)
            return -1;
        memcpy(copy, k, n);
        k = copy;
    }
    e->hash = h;
    e->object = object;
    e->key = k;
    e->n = n;
    c->keys_count++;
    return 0;
}


/* Reports unexpected key k[0..n) of object o (c->at is the key's step),
 * whose '{' is at `object`; k is in a buffer of the caller when
 * `transient`.  A key already reported in this object is `duplicate`
 * (docs/contract-language.md, "Fine print").  The path is the object's,
 * rendered once for all of its unexpected keys (a deep object's steps are
 * walked once, not once per key), then the key's segment. */
static void report_unexpected(cc_parse_t *c, const contractc_object_t *o,
                              const unsigned char *object, const char *k, size_t n,
                              bool transient, const uint64_t *seen)
{
    if (only_counted(c))
        return;
    int again = unexpected_key_seen(c, object, k, n, transient);
    if (again < 0) {
        c->found++;
        c->oom = true;
        return;
    }
    if (again) {
        report_fixed(c, CONTRACTC_KIND_DUPLICATE, duplicate_msg, sizeof duplicate_msg - 1);
        return;
    }
    /* The message quotes no reply value: the model's text is the log's. */
    const contractc_field_t *near = suggest_field(o, k, n, seen);
    cc_msg_t m;
    msg_init(c, &m);
    if (near) {
        cc_str_puts(&m.model, "unexpected key; did you mean \"");
        cc_str_append(&m.model, near->name, near->name_len);
        cc_str_puts(&m.model, "\"? Keys must be spelt exactly");
    } else {
        if (c->tagged_open == object) {
            /* A union's variant: its tag is allowed too, and comes first,
             * as the variant's schema lists it ("intent, summary, severity"). */
            const char *t = c->tagged->tag;
            size_t tn = c->tagged->tag_len, i = 0;
            while (i < tn && (t[i] == '_' || (t[i] >= 'a' && t[i] <= 'z') ||
                              (t[i] >= 'A' && t[i] <= 'Z') || (i > 0 && t[i] >= '0' && t[i] <= '9')))
                i++;
            cc_str_append(&m.model, allowed_prefix, sizeof allowed_prefix - 1);
            if (i == tn) /* as put_key_names writes a key */
                cc_str_append(&m.model, t, tn);
            else
                cc_str_quote(&m.model, t, tn);
            if (o->field_count)
                cc_str_puts(&m.model, ", ");
            put_key_names(&m.model, o);
        } else {
            put_allowed_keys(&m.model, o);
        }
    }
    c->found++;
    if (m.model.failed) {
        c->oom = true;
        msg_free(c, &m);
        return;
    }
    const cc_step_t *up = c->at->up;
    if (!prefix_is(c, up))
        prefix_render(c, up);
    const size_t prefix = c->path_len;
    path_push_key(c, k, n);
    if (!cc_problems_add(c->problems, CONTRACTC_KIND_UNEXPECTED, c->path, c->path_len,
                         m.model.data, m.model.len, m.model.data, m.model.len, NULL, 0, 0))
        c->oom = true;
    c->path_len = prefix; /* the object's path again, for its next key */
    c->path[prefix] = '\0';
    msg_free(c, &m);
}

/* Sum state for one `sum` rule while its object is read. */
typedef struct cc_sum_gate {
    const contractc_rule_t *rule;
    uint64_t item_ok[CC_BITSET_WORDS];
    bool own_ok;
} cc_sum_gate_t;

/* A signed 128-bit integer in two's complement, hi:lo, for `sum`: plain C99
 * (no __int128), so every compiler runs the same code.  The sum of n int64
 * operands has a magnitude of at most n * 2^63, far inside 2^127 for any n
 * that fits in memory, so the accumulation itself never overflows and the
 * sum is exact (docs/contract-language.md, "Fine print"). */
typedef struct cc_wide {
    uint64_t lo, hi;
} cc_wide_t;

/* w += v.  The sign of v extends into hi; the carry out of lo is the
 * unsigned wrap of lo (defined arithmetic, no branch on the value). */
static void wide_add(cc_wide_t *w, int64_t v)
{
    const uint64_t u = (uint64_t)v;
    w->lo += u;
    w->hi += (w->lo < u) + (v < 0 ? UINT64_MAX : 0);
}

/* Whether w is within int64 (hi is then the sign extension of lo). */
static bool wide_fits_i64(const cc_wide_t *w)
{
    return w->hi == (w->lo >> 63 ? UINT64_MAX : 0);
}

/* w as int64 (w fits: wide_fits_i64).  No unsigned-to-signed conversion of
 * a value above INT64_MAX, which C leaves to the implementation. */
static int64_t wide_to_i64(const cc_wide_t *w)
{
    if (w->lo <= (uint64_t)INT64_MAX)
        return (int64_t)w->lo;
    return -(int64_t)(UINT64_MAX - w->lo) - 1;
}

/* |a - b| <= t, exactly, for any int64 a and b (t >= 0): the difference
 * needs 64 bits unsigned, which int64 has not at INT64_MIN. */
static bool within_tolerance(int64_t a, int64_t b, int64_t t)
{
    const uint64_t diff = a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
    return t >= 0 && diff <= (uint64_t)t;
}

static int64_t read_i64(const unsigned char *p)
{
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether field f holds no value: null, or (optional) absent; has_X false. */
static bool field_is_null(const contractc_field_t *f, const unsigned char *base)
{
    if ((!f->nullable && !f->optional) || f->has_offset == CONTRACTC_ABSENT)
        return false;
    bool has;
    memcpy(&has, base + f->has_offset, sizeof has);
    return !has;
}

static void report_rule(cc_parse_t *c, const contractc_rule_t *rule, const char *detail_model,
                        const char *detail_log)
{
    cc_msg_t m;
    msg_init(c, &m);
    msg_both(&m, rule->message ? rule->message : "a rule is broken");
    if (detail_model) {
        cc_str_puts(&m.model, detail_model);
        cc_str_puts(&m.log, detail_log);
    }
    msg_report(c, &m, CONTRACTC_KIND_RULE, rule->id);
}

static void run_sum(cc_parse_t *c, const contractc_object_t *o, const cc_sum_gate_t *g,
                    const unsigned char *base)
{
    const contractc_rule_t *rule = g->rule;
    const contractc_field_t *af = &o->fields[rule->sum_array];
    const contractc_field_t *tf = &o->fields[rule->sum_total];
    const contractc_value_t *iv = af->value.items;
    const unsigned char *items;
    size_t count;
    memcpy(&items, base + af->offset, sizeof items);
    memcpy(&count, base + af->aux_offset, sizeof count);
    size_t off = 0;
    if (rule->sum_item != CONTRACTC_NO_FIELD)
        off = iv->object->fields[rule->sum_item].offset;
    cc_wide_t wide = {0, 0};
    for (size_t i = 0; i < count; i++)
        wide_add(&wide, read_i64(items + i * af->value.item_size + off));
    if (!wide_fits_i64(&wide)) {
        report_rule(c, rule, ": the sum of the items does not fit in a signed 64-bit integer",
                    ": the sum of the items does not fit in a signed 64-bit integer");
        return;
    }
    const int64_t sum = wide_to_i64(&wide);
    const int64_t total = read_i64(base + tf->offset);
    if (within_tolerance(sum, total, rule->tolerance))
        return;
    /* The detail quotes reply values: the model gets it, the log does not. */
    const contractc_value_t *sv = rule->sum_item != CONTRACTC_NO_FIELD
                                      ? &iv->object->fields[rule->sum_item].value
                                      : iv;
    char a[48], b[48];
    if (sv->type == CONTRACTC_TYPE_DECIMAL) {
        a[cc_format_decimal(sum, sv->scale, a)] = '\0';
        b[cc_format_decimal(total, sv->scale, b)] = '\0';
    } else {
        a[cc_format_decimal(sum, 0, a)] = '\0';
        b[cc_format_decimal(total, 0, b)] = '\0';
    }
    cc_str_t d;
    cc_str_init(&d, c->allocator);
    cc_str_puts(&d, ": the items add up to ");
    cc_str_puts(&d, a);
    cc_str_puts(&d, ", but ");
    cc_str_append(&d, tf->name, tf->name_len);
    cc_str_puts(&d, " is ");
    cc_str_puts(&d, b);
    if (d.failed)
        c->oom = true;
    report_rule(c, rule, d.data ? d.data : "", "");
    cc_str_free(&d);
}

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int64_t datetime_seconds(const contractc_datetime_t *d)
{
    return cc_days_from_civil(d->date.year, d->date.month, d->date.day) * 86400 +
           d->hour * 3600 + d->minute * 60 + d->second - (int64_t)d->offset_minutes * 60;
}

/* -1, 0, 1 as x[0..nx) sorts before, equal to, after y[0..ny) (bytes). */
static int compare_bytes(const char *x, size_t nx, const char *y, size_t ny)
{
    const int c = nx && ny ? memcmp(x, y, nx < ny ? nx : ny) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return nx < ny ? -1 : nx > ny;
}

/* The value an enum member at `at` holds (1-based, as the record stores
 * it), or NULL for none. */
static const contractc_enum_value_t *enum_value(const contractc_value_t *v, const unsigned char *at)
{
    int x;
    memcpy(&x, at, sizeof x);
    if (x < 1 || (uint32_t)x > v->enumeration->count)
        return NULL;
    return &v->enumeration->values[x - 1];
}

static void run_compare(cc_parse_t *c, const contractc_object_t *o, const contractc_rule_t *rule,
                        const unsigned char *base)
{
    const contractc_field_t *lf = &o->fields[rule->left], *rf = &o->fields[rule->right];
    if (field_is_null(lf, base) || field_is_null(rf, base))
        return; /* a null side skips it (docs/contract-language.md §5.4) */
    const unsigned char *a = base + lf->offset, *b = base + rf->offset;
    int cmp = 0;
    switch (lf->value.type) {
    case CONTRACTC_TYPE_INTEGER:
    case CONTRACTC_TYPE_DECIMAL:
        cmp = cmp_i64(read_i64(a), read_i64(b));
        break;
    case CONTRACTC_TYPE_NUMBER: {
        double x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        cmp = x < y ? -1 : x > y;
        break;
    }
    case CONTRACTC_TYPE_DATE: {
        contractc_date_t x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        cmp = cmp_i64(cc_days_from_civil(x.year, x.month, x.day),
                      cc_days_from_civil(y.year, y.month, y.day));
        break;
    }
    case CONTRACTC_TYPE_DATETIME: {
        contractc_datetime_t x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        cmp = cmp_i64(datetime_seconds(&x), datetime_seconds(&y));
        if (cmp == 0)
            cmp = cmp_i64(x.nanos, y.nanos);
        break;
    }
    case CONTRACTC_TYPE_STRING: {
        /* Byte for byte, as keys and enum values match (the contract
         * allows only == and != here; an order, from other tables, is the
         * bytes' order). */
        const char *x, *y;
        size_t nx, ny;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        memcpy(&nx, base + lf->aux_offset, sizeof nx);
        memcpy(&ny, base + rf->aux_offset, sizeof ny);
        cmp = compare_bytes(x, nx, y, ny);
        break;
    }
    case CONTRACTC_TYPE_ENUM: {
        /* By spelling: the two fields may list their values apart. */
        const contractc_enum_value_t *x = enum_value(&lf->value, a), *y = enum_value(&rf->value, b);
        if (!x || !y)
            return; /* no value (tables not made by the generator) */
        cmp = compare_bytes(x->text, x->len, y->text, y->len);
        break;
    }
    case CONTRACTC_TYPE_BOOLEAN: {
        bool x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        cmp = (int)x - (int)y;
        break;
    }
    default:
        return;
    }
    bool holds = false;
    switch (rule->op) {
    case CONTRACTC_OP_LT: holds = cmp < 0; break;
    case CONTRACTC_OP_LE: holds = cmp <= 0; break;
    case CONTRACTC_OP_EQ: holds = cmp == 0; break;
    case CONTRACTC_OP_NE: holds = cmp != 0; break;
    case CONTRACTC_OP_GE: holds = cmp >= 0; break;
    case CONTRACTC_OP_GT: holds = cmp > 0; break;
    }
    if (!holds)
        report_rule(c, rule, NULL, NULL);
}

static void run_rules(cc_parse_t *c, const contractc_object_t *o, const unsigned char *base,
                      const uint64_t *ok, cc_sum_gate_t *sums, size_t sum_count)
{
    for (uint32_t i = 0; i < o->rule_count; i++) {
        const contractc_rule_t *rule = &o->rules[i];
        switch (rule->kind) {
        case CONTRACTC_RULE_ALL_OR_NONE:
        case CONTRACTC_RULE_AT_MOST_ONE:
        case CONTRACTC_RULE_EXACTLY_ONE: {
            uint32_t set = 0;
            bool gated = true;
            for (uint32_t k = 0; k < rule->field_count; k++) {
                uint16_t fi = rule->fields[k];
                if (!bit_get(ok, fi))
                    gated = false;
                else if (!field_is_null(&o->fields[fi], base))
                    set++;
            }
            if (!gated)
                break;
            bool holds = rule->kind == CONTRACTC_RULE_ALL_OR_NONE ? (set == 0 || set == rule->field_count)
                       : rule->kind == CONTRACTC_RULE_AT_MOST_ONE ? set <= 1
                                                                  : set == 1;
            if (!holds)
                report_rule(c, rule, NULL, NULL);
            break;
        }
        case CONTRACTC_RULE_SUM: {
            cc_sum_gate_t *g = NULL;
            for (size_t k = 0; k < sum_count; k++)
                if (sums[k].rule == rule)
                    g = &sums[k];
            bool gated = bit_get(ok, rule->sum_total);
            if (g && rule->sum_item != CONTRACTC_NO_FIELD)
                gated = gated && g->own_ok && bit_get(g->item_ok, rule->sum_item);
            else
                gated = gated && bit_get(ok, rule->sum_array); /* the whole array */
            if (gated)
                run_sum(c, o, g ? g : &(cc_sum_gate_t){rule, {0}, true}, base);
            break;
        }
        case CONTRACTC_RULE_COMPARE:
            if (bit_get(ok, rule->left) && bit_get(ok, rule->right))
                run_compare(c, o, rule, base);
            break;
        case CONTRACTC_RULE_CHECK:
            /* After the whole record, when it is clean: every object of
             * a clean record passed here, so this is how contractc_parse
             * knows whether there is a check to run. */
            c->checks_seen = true;
            break;
        }
        if (fail(c))
            return;
    }
}

/* A field both optional and nullable read as V_OK: when it was null (has_X
 * still false), X_null says so (docs/contract-language.md §4.10). */
static void set_null_flag(const contractc_field_t *f, unsigned char *base)
{
    static const bool said_null = true;
    bool has = true;
    if (f->has_offset != CONTRACTC_ABSENT)
        memcpy(&has, base + f->has_offset, sizeof has);
    if (!has && f->null_offset != CONTRACTC_ABSENT)
        memcpy(base + f->null_offset, &said_null, sizeof said_null);
}

/* The keys of o its reply left out (not in `seen`): an optional one is
 * fine and passes for the rules (ok_bits: has_X false, as a null); every
 * other one is a `missing` problem at step (the object's own step, made a
 * field step here).  True when one was reported.  In an object with
 * optional keys, a nullable key's message does not claim every key must
 * be present. */
static bool report_missing(cc_parse_t *c, const contractc_object_t *o, const uint64_t *seen,
                           uint64_t *ok_bits, cc_step_t *step)
{
    static const char nullable[] =
        "the key is missing; every key must be present: write null when the value is not stated";
    static const char nullable_required[] =
        "the key is missing; it is required: write null when the value is not stated";
    static const char required[] = "the key is missing; it is required";
    bool any_optional = false, reported = false;
    for (uint32_t i = 0; i < o->field_count && !any_optional; i++)
        any_optional = o->fields[i].optional;
    for (uint32_t i = 0; i < o->field_count; i++) {
        if (bit_get(seen, i))
            continue;
        const contractc_field_t *f = &o->fields[i];
        if (f->optional) {
            bit_set(ok_bits, i);
            continue;
        }
        step->field = f;
        if (f->nullable && any_optional)
            report_fixed(c, CONTRACTC_KIND_MISSING, nullable_required, sizeof nullable_required - 1);
        else if (f->nullable)
            report_fixed(c, CONTRACTC_KIND_MISSING, nullable, sizeof nullable - 1);
        else
            report_fixed(c, CONTRACTC_KIND_MISSING, required, sizeof required - 1);
        reported = true;
    }
    return reported;
}

/* Reads an object (the cursor at '{') into the struct at `base`.
 * ok_bits[i]: field i was present and its whole value passed, or it is
 * optional and absent (the first bitset_words(o) words are written).
 * When the object is the variant read_union is reading (its '{' is
 * c->tagged_open), the union's tag key, read already, is skipped once; the
 * test is on the path of keys the object does not have, so other objects
 * do not pay for it. */
static int read_object(cc_parse_t *c, const contractc_object_t *o, unsigned char *base,
                       uint64_t *ok_bits)
{
    const size_t words = bitset_words(o);
    uint64_t seen[CC_BITSET_WORDS];
    uint32_t seen_count = 0;
    seen[0] = ok_bits[0] = 0; /* words >= 1: one word covers 64 fields */
    for (size_t w = 1; w < words; w++)
        seen[w] = ok_bits[w] = 0;
    cc_sum_gate_t sums[CC_SUM_MASKS];
    size_t sum_count = 0;
    for (uint32_t i = 0; i < o->rule_count && sum_count < CC_SUM_MASKS; i++) {
        if (o->rules[i].kind == CONTRACTC_RULE_SUM) {
            sums[sum_count].rule = &o->rules[i];
            sums[sum_count].own_ok = false;
            memset(sums[sum_count].item_ok, 0, sizeof sums[sum_count].item_ok);
            sum_count++;
        }
    }
    int result = V_OK;
    const unsigned char *open = c->r.p; /* the object's identity for report_unexpected */
    c->r.p++; /* '{' */
    if (!cc_enter(&c->r))
        return V_FAIL;
    cc_step_t step = {NULL, STEP_FIELD, NULL, NULL, 0};
    step_enter(c, &step);
    /* Replies usually list the keys in the contract's order (the schema's
     * property order), so the field after the last one found is tried
     * first, and the sorted lookup only runs when it is not the key. */
    uint32_t next = 0;
    int ch = cc_peek(&c->r);
    if (ch == '}') {
        c->r.p++;
    } else {
        for (;;) {
            if (cc_peek(&c->r) != '"') {
                cc_expect(&c->r, '"', "a key string");
                return V_FAIL;
            }
            const contractc_field_t *f = NULL;
            uint32_t fi = 0;
            char small[256];
            const char *key;
            size_t key_len;
            const unsigned char *q = c->r.p; /* at '"' */
            const contractc_field_t *nf = next < o->field_count ? &o->fields[next] : NULL;
            if (nf && (size_t)(c->r.end - q) >= (size_t)nf->name_len + 3 &&
                q[nf->name_len + 1] == '"' && q[nf->name_len + 2] == ':' &&
                nf->path_segment[0] == '.' &&
                bytes_equal((const char *)q + 1, nf->name, nf->name_len)) {
                /* The expected key, and its name needs no escape: a path
                 * segment ".name" (not "['...']") says the name is
                 * [A-Za-z_][A-Za-z0-9_]* (contractc.h), so these bytes are
                 * exactly the string token "name" (RFC 8259 section 7),
                 * valid UTF-8 too.  No scan; and the ':' right after it,
                 * as compact replies have it, is taken here too. */
                c->r.p = q + nf->name_len + 3;
                f = nf;
                fi = next;
                key = nf->name;
                key_len = nf->name_len;
            } else {
                cc_string_token_t kt;
                if (!cc_scan_string(&c->r, &kt))
                    return V_FAIL;
                key = (const char *)kt.raw;
                key_len = kt.decoded_len;
                if (!kt.has_escapes) {
                    /* Without escapes the raw bytes are the key. */
                    if (nf && nf->name_len == kt.raw_len && bytes_equal(nf->name, key, kt.raw_len)) {
                        fi = next;
                        f = nf;
                    }
                } else if (kt.decoded_len <= sizeof small) {
                    cc_decode_string(&kt, small);
                    key = small;
                } else if (!(key = string_text(c, &kt))) {
                    return V_FAIL;
                }
                if (!cc_expect(&c->r, ':', "':' after the key"))
                    return V_FAIL;
            }
            if (!f)
                f = find_field(o, key, key_len, &fi);
            if (!f && c->tagged_open == open && key_len == c->tagged->tag_len &&
                bytes_equal(key, c->tagged->tag, key_len) && !c->tag_skipped) {
                /* the union's tag, checked by read_union before */
                c->tag_skipped = true;
                if (!cc_skip_value(&c->r))
                    return V_FAIL;
            } else if (!f && c->tagged_open == open && key_len == c->tagged->tag_len &&
                       bytes_equal(key, c->tagged->tag, key_len)) {
                step.kind = STEP_KEY;
                step.key = key;
                step.n = key_len;
                report_fixed(c, CONTRACTC_KIND_DUPLICATE, duplicate_msg, sizeof duplicate_msg - 1);
                result = V_BAD;
                if (!cc_skip_value(&c->r))
                    return V_FAIL;
            } else if (!f || bit_get(seen, fi)) {
                if (f) {
                    step.kind = STEP_FIELD;
                    step.field = f;
                } else {
                    step.kind = STEP_KEY;
                    step.key = key;
                    step.n = key_len;
                }
                if (f)
                    report_fixed(c, CONTRACTC_KIND_DUPLICATE, duplicate_msg,
                                 sizeof duplicate_msg - 1);
                else
                    report_unexpected(c, o, open, key, key_len, key == small, seen);
                result = V_BAD;
                if (!cc_skip_value(&c->r))
                    return V_FAIL;
                if (f) { /* a duplicate spoils the field for the rules */
                    ok_bits[fi / 64] &= ~((uint64_t)1 << (fi % 64));
                }
            } else {
                bit_set(seen, fi);
                seen_count++;
                next = fi + 1;
                step.kind = STEP_FIELD;
                step.field = f;
                size_t before = c->found;
                cc_slot_t slot = {base, f->offset, f->aux_offset, f->has_offset};
                cc_sum_gate_t *g = NULL;
                for (size_t k = 0; k < sum_count; k++)
                    if (sums[k].rule->sum_array == fi)
                        g = &sums[k];
                bool own_ok = false;
                int r = read_value(c, &f->value, f->nullable, &slot, &own_ok, g ? g->item_ok : NULL);
                if (r == V_FAIL)
                    return V_FAIL;
                if (f->optional && f->nullable && r == V_OK)
                    set_null_flag(f, base);
                if (g)
                    g->own_ok = own_ok;
                /* Other sum rules on the same array share its gate. */
                for (size_t k = 0; g && k < sum_count; k++)
                    if (&sums[k] != g && sums[k].rule->sum_array == fi) {
                        sums[k].own_ok = own_ok;
                        memcpy(sums[k].item_ok, g->item_ok, sizeof g->item_ok);
                    }
                if (r == V_OK && c->found == before)
                    bit_set(ok_bits, fi);
                else
                    result = V_BAD;
            }
            ch = cc_peek(&c->r);
            if (ch == ',') {
                c->r.p++;
                continue;
            }
            if (!cc_expect(&c->r, '}', "',' or '}' after an object member"))
                return V_FAIL;
            break;
        }
    }
    cc_leave(&c->r);
    step.kind = STEP_FIELD;
    if (seen_count < o->field_count && report_missing(c, o, seen, ok_bits, &step))
        result = V_BAD;
    step_leave(c, &step);
    if (fail(c))
        return V_FAIL;
    size_t before = c->found;
    run_rules(c, o, base, ok_bits, sums, sum_count);
    if (fail(c))
        return V_FAIL;
    if (c->found != before)
        result = V_BAD;
    return result;
}

/* ------------------------------------------------------------------------
 * User checks, on a clean record
 * ------------------------------------------------------------------------ */

struct contractc_check {
    cc_parse_t *parse;
    const contractc_rule_t *rule;
};

void contractc_check_fail(contractc_check_t *check, const char *message)
{
    if (!check)
        return;
    cc_parse_t *c = check->parse;
    cc_str_t m;
    cc_str_init(&m, c->allocator);
    cc_str_puts(&m, message ? message : (check->rule->message ? check->rule->message : "check failed"));
    report(c, CONTRACTC_KIND_RULE, &m, &m, check->rule->id);
    cc_str_free(&m);
}

void *contractc_check_user(const contractc_check_t *check)
{
    return check ? check->parse->user : NULL;
}

const char *contractc_check_source(const contractc_check_t *check, size_t *len)
{
    if (len)
        *len = check ? check->parse->source_len : 0;
    return check ? check->parse->source : NULL;
}

static void run_checks_value(cc_parse_t *c, const contractc_value_t *v, const unsigned char *at);

/* Runs the object's nested checks first (document order), then its own. */
static void run_checks_object(cc_parse_t *c, const contractc_object_t *o, const unsigned char *base)
{
    cc_step_t step = {NULL, STEP_FIELD, NULL, NULL, 0};
    step_enter(c, &step);
    for (uint32_t i = 0; i < o->field_count && !c->oom; i++) {
        const contractc_field_t *f = &o->fields[i];
        if (field_is_null(f, base))
            continue;
        step.field = f;
        run_checks_value(c, &f->value, base + f->offset);
    }
    step_leave(c, &step);
    for (uint32_t i = 0; i < o->rule_count && !c->oom; i++) {
        const contractc_rule_t *rule = &o->rules[i];
        if (rule->kind != CONTRACTC_RULE_CHECK || !rule->check)
            continue;
        contractc_check_t check = {c, rule};
        rule->check(base, &check);
    }
}

static void run_checks_value(cc_parse_t *c, const contractc_value_t *v, const unsigned char *at)
{
    if (v->type == CONTRACTC_TYPE_OBJECT) {
        run_checks_object(c, v->object, at);
    } else if (v->type == CONTRACTC_TYPE_UNION) {
        int kind; /* 0: null; else the variant read into `as` */
        memcpy(&kind, at, sizeof kind);
        if (kind >= 1 && (uint32_t)kind <= v->variant_count)
            run_checks_object(c, v->variants[kind - 1].object, at + v->union_offset);
    } else if (v->type == CONTRACTC_TYPE_VALUE_UNION) {
        int kind; /* 0: null; else the alternative read into `as` */
        memcpy(&kind, at, sizeof kind);
        if (kind >= 1 && (uint32_t)kind <= v->alternative_count)
            run_checks_value(c, &v->alternatives[kind - 1], at + v->union_offset);
    } else if (v->type == CONTRACTC_TYPE_ARRAY && v->items &&
               (v->items->type == CONTRACTC_TYPE_OBJECT || v->items->type == CONTRACTC_TYPE_ARRAY ||
                v->items->type == CONTRACTC_TYPE_UNION ||
                v->items->type == CONTRACTC_TYPE_VALUE_UNION || v->items->type == CONTRACTC_TYPE_MAP)) {
        const unsigned char *items;
        size_t count;
        memcpy(&items, at, sizeof items);
        memcpy(&count, at + sizeof(void *), sizeof count);
        cc_step_t step = {NULL, STEP_INDEX, NULL, NULL, 0};
        step_enter(c, &step);
        for (size_t i = 0; i < count && !c->oom; i++) {
            step.n = i;
            run_checks_value(c, v->items, items + i * v->item_size);
        }
        step_leave(c, &step);
    } else if (v->type == CONTRACTC_TYPE_MAP && v->items &&
               (v->items->type == CONTRACTC_TYPE_OBJECT || v->items->type == CONTRACTC_TYPE_ARRAY ||
                v->items->type == CONTRACTC_TYPE_UNION ||
                v->items->type == CONTRACTC_TYPE_VALUE_UNION || v->items->type == CONTRACTC_TYPE_MAP)) {
        const unsigned char *entries;
        size_t count;
        memcpy(&entries, at, sizeof entries);
        memcpy(&count, at + sizeof(void *), sizeof count);
        const size_t voff = CONTRACTC_MAP_VALUE_OFFSET(v->item_align);
        cc_step_t step = {NULL, STEP_KEY, NULL, NULL, 0};
        step_enter(c, &step);
        for (size_t i = 0; i < count && !c->oom; i++) {
            const unsigned char *e = entries + i * v->item_size;
            memcpy(&step.key, e, sizeof step.key);
            memcpy(&step.n, e + sizeof(void *), sizeof step.n);
            run_checks_value(c, v->items, e + voff);
        }
        step_leave(c, &step);
    }
}

/* ------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------ */

/* "line L, column C: " + text + the closing advice. */
static void put_document_text(cc_str_t *m, const cc_parse_t *c, size_t line, size_t column,
                              const char *text)
{
    cc_str_puts(m, "line ");
    cc_str_putu(m, line);
    cc_str_puts(m, ", column ");
    cc_str_putu(m, column);
    cc_str_puts(m, ": ");
    cc_str_puts(m, text);
    cc_str_puts(m, c->r.fail_kind == CONTRACTC_KIND_LIMIT ? ""
                   : "; reply with exactly one JSON object and nothing else");
}

/* The one document-level problem, at "$": the reader's text for the model,
 * and for the log its text without reply bytes (fail_log) when it has one. */
static void report_document(cc_parse_t *c, size_t keep, size_t dropped)
{
    cc_problems_truncate(c->problems, keep, dropped);
    size_t line, column;
    cc_reader_line_column(&c->r, c->r.fail_offset, &line, &column);
    cc_str_t m, l;
    cc_str_init(&m, c->allocator);
    cc_str_init(&l, c->allocator);
    put_document_text(&m, c, line, column, c->r.fail_message);
    const bool own_log = c->r.fail_log[0] != '\0';
    if (own_log)
        put_document_text(&l, c, line, column, c->r.fail_log);
    const cc_str_t *log = own_log ? &l : &m;
    c->prefix_valid = false;
    c->path_len = 1;
    c->path[1] = '\0';
    c->found++;
    if (m.failed || l.failed ||
        !cc_problems_add(c->problems, c->r.fail_kind, "$", 1, m.data, m.len, log->data,
                         log->len, NULL, line, column))
        c->oom = true;
    cc_str_free(&m);
    cc_str_free(&l);
}

static CC_INLINE contractc_status_t parse_reply(const contractc_contract_t *contract,
                                          const char *reply, size_t reply_len,
                                          const char *source, size_t source_len,
                                          const contractc_options_t *options, void *out,
                                          contractc_problems_t *problems,
                                          cc_prefix_result_t *prefix);

contractc_status_t contractc_parse(const contractc_contract_t *contract,
                                   const char *reply, size_t reply_len,
                                   const char *source, size_t source_len,
                                   const contractc_options_t *options,
                                   void *out, contractc_problems_t *problems)
{
    if (!contract || !out || !problems || (!reply && reply_len) || !contract->root) {
        if (problems)
            problems->error = "NULL contract, reply, record or problem list";
        return CONTRACTC_EINVAL;
    }
    const contractc_object_t *root = contract->root;
    memset(out, 0, root->size);
    problems->fenced = false;
    if (contract->abi < CONTRACTC_ABI_MIN_GENERATED || contract->abi > CONTRACTC_ABI_VERSION) {
        problems->error = "the contract tables were generated for another runtime ABI; regenerate them";
        return CONTRACTC_EINVAL;
    }
    if (contract->needs_source) {
        if (!source) {
            problems->error = "this contract grounds values in a source text, and none was given";
            return CONTRACTC_EINVAL;
        }
        if (source_len > CC_SOURCE_MAX) {
            problems->error = "the source text is over 4 MiB";
            return CONTRACTC_EINVAL;
        }
        if (!cc_utf8_valid((const unsigned char *)source, source_len)) {
            problems->error = "the source text is not valid UTF-8";
            return CONTRACTC_EINVAL;
        }
    } else if (source) {
        problems->error = "this contract has no source, and a source text was given";
        return CONTRACTC_EINVAL;
    }
    return parse_reply(contract, reply, reply_len, source, source_len, options, out, problems, NULL);
}

contractc_status_t cc_parse_prefix(const contractc_contract_t *contract, const char *reply,
                                   size_t reply_len, const char *source, size_t source_len,
                                   const contractc_options_t *options, void *out,
                                   contractc_problems_t *problems, cc_prefix_result_t *res)
{
    memset(out, 0, contract->root->size);
    problems->fenced = false;
    return parse_reply(contract, reply, reply_len, source, source_len, options, out, problems, res);
}

/* contractc_parse after its checks of the arguments; over a prefix of a
 * reply when `prefix` is not NULL (cc_parse_prefix).  Inline, so that
 * contractc_parse's copy has no test of `prefix` left. */
static CC_INLINE contractc_status_t parse_reply(const contractc_contract_t *contract,
                                          const char *reply, size_t reply_len,
                                          const char *source, size_t source_len,
                                          const contractc_options_t *options, void *out,
                                          contractc_problems_t *problems,
                                          cc_prefix_result_t *prefix)
{
    const contractc_object_t *root = contract->root;
    /* The parse state lives on the stack (about 7 KiB, mostly the path and
     * text buffers), so an accepted record costs exactly one allocation:
     * its arena. */
    cc_parse_t state;
    cc_parse_t *c = &state;
    const contractc_allocator_t *allocator = options ? options->allocator : NULL;
    /* Every member up to the path buffer is set here; the reader is set by
     * cc_reader_begin (or below, for a reply over max_bytes). */
    c->contract = contract;
    c->arena = NULL;
    c->found = 0;
    c->oom = false;
    c->checks_seen = false;
    c->at = NULL;
    c->item = prefix ? prefix->item : NULL;
    c->item_user = prefix ? prefix->item_user : NULL;
    c->tagged_open = NULL; /* tagged and tag_skipped are read only under it */
    c->msg_busy = false;
    c->keys = NULL;
    c->prefix_valid = false;
    c->problems = problems;
    c->allocator = allocator;
    c->source = source;
    c->source_len = source ? source_len : 0;
    c->user = options ? options->user : NULL;
    c->path[0] = '$';
    c->path[1] = '\0';
    c->path_len = 1;
    const size_t keep = problems->count_, dropped = problems->dropped;
    size_t max_bytes = options && options->max_bytes ? options->max_bytes : contract->max_bytes;
    uint32_t max_depth = options && options->max_depth ? options->max_depth : contract->max_depth;
    contractc_status_t status = CONTRACTC_REJECTED;

    if (reply_len > max_bytes) {
        /* Checked before reading: nothing of the reply is looked at. */
        memset(&c->r, 0, sizeof c->r);
        c->r.raw = (const unsigned char *)reply;
        c->r.failed = true;
        c->r.fail_kind = CONTRACTC_KIND_LIMIT;
        snprintf(c->r.fail_message, sizeof c->r.fail_message,
                 "the reply is %zu bytes; the limit is %zu bytes", reply_len, max_bytes);
        report_document(c, keep, dropped);
        goto done;
    }
    /* The first block holds a typical record whole (one allocation): the
     * strings fit in reply_len bytes, and arrays of small items usually in as
     * much again.  It is capped so that a huge reply rejected early does not
     * reserve arena_factor times its size up front; past the first block the
     * arena grows by doubling, within the contract's bound. */
    uint32_t factor = contract->arena_factor < 2 ? 1 : 2;
    size_t first = reply_len <= CC_ARENA_FIRST_MAX / factor ? reply_len * factor : CC_ARENA_FIRST_MAX;
    first += (size_t)contract->arena_base + root->size;
    /* A prefix's record is thrown away (stream.c): a small first block, so
     * that re-reading a long prefix does not map and unmap a large one. */
    if (prefix && first > CC_PREFIX_ARENA_FIRST)
        first = CC_PREFIX_ARENA_FIRST;
    c->arena = cc_arena_create(allocator, first);
    if (!c->arena) {
        c->oom = true;
        goto done;
    }
    if (prefix ? cc_reader_begin_prefix(&c->r, reply ? reply : "", reply_len,
                                        contract->fence_allowed, max_depth)
               : cc_reader_begin(&c->r, reply ? reply : "", reply_len, contract->fence_allowed,
                                 max_depth)) {
        int ch = cc_peek(&c->r);
        if (ch == '{') {
            uint64_t bits[CC_BITSET_WORDS];
            read_object(c, root, out, bits);
        } else {
            cc_msg_t m;
            msg_init(c, &m);
            msg_both(&m, "the reply is ");
            msg_both(&m, ch == '[' ? "an array" : ch == '"' ? "a string" : ch == 't' || ch == 'f' ? "a boolean"
                        : ch == 'n' ? "null" : "a number");
            msg_both(&m, "; expected one JSON object with the keys ");
            put_key_names(&m.model, root);
            put_key_names(&m.log, root);
            msg_report(c, &m, CONTRACTC_KIND_TYPE, NULL);
            cc_skip_value(&c->r);
        }
        if (!fail(c))
            cc_reader_finish(&c->r);
    }
    c->at = NULL; /* a failed read returns from inside its steps */
    problems->fenced = c->r.fenced;
    if (prefix) {
        prefix->ended = c->r.failed && c->r.ended;
        prefix->ended_in_string = prefix->ended && c->r.ended_in_string;
        prefix->fence_open = c->r.fence_open;
        prefix->found = c->found;
    }
    if (c->oom)
        goto done;
    if (c->r.failed) {
        /* Prefix mode: the text ran out, which is no problem; the ones
         * found before it stay. */
        if (!(prefix && c->r.ended))
            report_document(c, keep, dropped);
        goto done;
    }
    if (c->found == 0 && c->checks_seen) {
        run_checks_object(c, root, out);
    }
    if (!c->oom && c->found == 0)
        status = CONTRACTC_OK;

done:
    if (c->oom) {
        cc_problems_truncate(problems, keep, dropped);
        problems->error = "out of memory";
        status = CONTRACTC_ENOMEM;
    }
    if (status == CONTRACTC_OK) {
        memcpy((unsigned char *)out + contract->arena_offset, &c->arena, sizeof c->arena);
    } else {
        cc_arena_destroy(c->arena);
        memset(out, 0, root->size);
    }
    return status;
}

void contractc_record_free(const contractc_contract_t *contract, void *record)
{
    if (!contract || !record || !contract->root)
        return;
    contractc_arena_t *arena;
    memcpy(&arena, (unsigned char *)record + contract->arena_offset, sizeof arena);
    cc_arena_destroy(arena);
    memset(record, 0, contract->root->size);
}
