/* SPDX-License-Identifier: MIT */
/*
 * json_span.c - the byte span of one value in a JSON text, and a JSON
 * string token's decoded bytes (contractc.h, "JSON spans"), both read
 * with the reader that reads replies (reader.c): one strict reader, no
 * second JSON scanner.
 *
 * What it is for: a tool call's arguments inside a provider's response
 * are parsed from their exact bytes (docs/tools.md, "Exact argument
 * bytes"), which a tree (cJSON) cannot give back.  The walk follows the
 * steps only; every other value is skipped by cc_skip_value with the same
 * strictness, so the whole text is read as a reply would be (white space,
 * UTF-8, no \u0000 or lone surrogate, depth) and a text the reader would
 * reject has no span.  A key on the path that occurs twice in its object
 * makes the path ambiguous: rejected rather than picking one.
 */
#include "contractc/contractc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

typedef struct span_walk {
    bool found;
    size_t begin, end;
    bool ambiguous;
    const char *ambiguous_key;
} span_walk_t;

/* True when the scanned key token is `key`. */
static bool span_key_is(const cc_string_token_t *t, const char *key, bool *oom)
{
    size_t n = strlen(key);
    if (t->decoded_len != n)
        return false;
    if (!t->has_escapes)
        return memcmp(t->raw, key, n) == 0;
    char small[256];
    char *buf = n <= sizeof small ? small : malloc(n);
    if (!buf) {
        *oom = true;
        return false;
    }
    cc_decode_string(t, buf);
    bool same = memcmp(buf, key, n) == 0;
    if (buf != small)
        free(buf);
    return same;
}

static bool span_walk_value(cc_reader_t *r, const contractc_json_step_t *steps, size_t n, span_walk_t *s,
                 bool *oom)
{
    int c = cc_peek(r);
    if (n == 0) {
        s->found = true;
        s->begin = (size_t)(r->p - r->raw);
        if (!cc_skip_value(r))
            return false;
        s->end = (size_t)(r->p - r->raw);
        return true;
    }
    bool object = c == '{';
    if ((object && !steps->key) || (c == '[' && steps->key) || (c != '{' && c != '['))
        return cc_skip_value(r); /* not the container the step needs: absent */
    r->p++;
    if (!cc_enter(r))
        return false;
    if (cc_peek(r) == (object ? '}' : ']')) {
        r->p++;
        cc_leave(r);
        return true;
    }
    bool seen = false;
    for (size_t index = 0;; index++) {
        bool here;
        if (object) {
            if (cc_peek(r) != '"')
                return cc_reader_fail(r, CONTRACTC_KIND_SYNTAX, (size_t)(r->p - r->raw),
                                      "a key (a string) was expected");
            cc_string_token_t key;
            if (!cc_scan_string(r, &key))
                return false;
            here = span_key_is(&key, steps->key, oom);
            if (*oom)
                return false;
            if (!cc_expect(r, ':', "':' after the key"))
                return false;
            if (here && seen) {
                s->ambiguous = true;
                s->ambiguous_key = steps->key;
                return false;
            }
        } else {
            here = index == steps->index;
        }
        seen = seen || here;
        if (!(here ? span_walk_value(r, steps + 1, n - 1, s, oom) : cc_skip_value(r)))
            return false;
        c = cc_peek(r);
        if (c == ',') {
            r->p++;
            continue;
        }
        if (!cc_expect(r, object ? '}' : ']', object ? "',' or '}' after a member"
                                                     : "',' or ']' after an item"))
            return false;
        cc_leave(r);
        return true;
    }
}

contractc_status_t contractc_json_span(const char *text, size_t len, uint32_t max_depth,
                                       const contractc_json_step_t *steps, size_t step_count,
                                       bool *found, size_t *begin, size_t *end, char *why,
                                       size_t why_size)
{
    if (why && why_size)
        why[0] = '\0';
    if (!found || !begin || !end || (step_count && !steps) || (!text && len))
        return CONTRACTC_EINVAL;
    *found = false;
    *begin = *end = 0;
    cc_reader_t r;
    span_walk_t s;
    memset(&s, 0, sizeof s);
    bool oom = false;
    bool ok = cc_reader_begin(&r, text, len, false, max_depth ? max_depth : CONTRACTC_MAX_DEPTH) &&
              span_walk_value(&r, steps, step_count, &s, &oom) && cc_reader_finish(&r);
    if (oom)
        return CONTRACTC_ENOMEM;
    if (!ok) {
        if (why && why_size && s.ambiguous)
            snprintf(why, why_size, "the key \"%s\" occurs twice on the path (at byte %zu)",
                     s.ambiguous_key, (size_t)(r.p - r.raw));
        else if (why && why_size)
            snprintf(why, why_size, "%s (at byte %zu)", r.fail_message, r.fail_offset);
        return CONTRACTC_REJECTED;
    }
    *found = s.found;
    *begin = s.found ? s.begin : 0;
    *end = s.found ? s.end : 0;
    return CONTRACTC_OK;
}

contractc_status_t contractc_json_string_decode(const char *token, size_t len, char *out,
                                                size_t *out_len)
{
    if (!token || !out || !out_len)
        return CONTRACTC_EINVAL;
    *out_len = 0;
    cc_reader_t r;
    cc_string_token_t t;
    if (!cc_reader_begin(&r, token, len, false, 1) || cc_peek(&r) != '"' ||
        !cc_scan_string(&r, &t) || !cc_reader_finish(&r))
        return CONTRACTC_REJECTED;
    cc_decode_string(&t, out);
    *out_len = t.decoded_len;
    return CONTRACTC_OK;
}
