/* SPDX-License-Identifier: MIT */
/*
 * fuzz_differential.c - the strict reader against cJSON (Debian's
 * libcjson), in the two directions that must hold (cJSON accepts more:
 * control bytes in strings, any byte below 0x21 as white space, invalid
 * UTF-8, a BOM, \u0000):
 *
 *   1. what the reader accepts as one JSON text, cJSON parses too, to an
 *      equal tree (same types, same key order, same decoded strings, the
 *      same doubles);
 *   2. what cJSON rejects, the reader rejects.
 *
 * The reader builds no tree, so this file builds one (test-only) from the
 * reader's token API (reader.h: cc_peek, cc_scan_string, cc_scan_number,
 * ...), the same API validate.c drives.  That builder must agree with
 * cc_read_document (which skips with cc_skip_value) on every input, in the
 * verdict and the kind of problem: a third property.
 *
 * One documented cJSON limit is excluded: cJSON copies at most 63 bytes of
 * a number token (parse_number's buffer), so a longer number (legal in RFC
 * 8259) makes cJSON fail; inputs with such a number skip direction 1.
 */
#include <cjson/cJSON.h>
#include <math.h>

#include "fuzz_common.h"
#include "reader.h"

#define DEPTH 64
#define CJSON_NUMBER_MAX 63

typedef struct builder {
    cc_reader_t r;
    bool long_number; /* a number token longer than cJSON reads */
} builder_t;

static char *decoded(const cc_string_token_t *t)
{
    char *s = malloc(t->decoded_len + 1);
    if (!s)
        abort();
    cc_decode_string(t, s);
    s[t->decoded_len] = '\0';
    return s;
}

static cJSON *build_value(builder_t *b);

static cJSON *build_object(builder_t *b)
{
    b->r.p++; /* '{' */
    if (!cc_enter(&b->r))
        return NULL;
    cJSON *obj = cJSON_CreateObject();
    if (cc_peek(&b->r) == '}') {
        b->r.p++;
        cc_leave(&b->r);
        return obj;
    }
    for (;;) {
        cc_string_token_t key;
        /* cc_expect classifies what stands there as validate.c's reader
         * does (syntax, or encoding for a byte that is not UTF-8) */
        if (cc_peek(&b->r) != '"') {
            cc_expect(&b->r, '"', "a key (a string in double quotes)");
            break;
        }
        if (!cc_scan_string(&b->r, &key) || !cc_expect(&b->r, ':', "':' after the key"))
            break;
        cJSON *v = build_value(b);
        if (!v)
            break;
        char *k = decoded(&key);
        cJSON_AddItemToObject(obj, k, v);
        free(k);
        int ch = cc_peek(&b->r);
        if (ch == ',') {
            b->r.p++;
            continue;
        }
        if (!cc_expect(&b->r, '}', "',' or '}'"))
            break;
        cc_leave(&b->r);
        return obj;
    }
    cJSON_Delete(obj);
    return NULL;
}

static cJSON *build_array(builder_t *b)
{
    b->r.p++; /* '[' */
    if (!cc_enter(&b->r))
        return NULL;
    cJSON *arr = cJSON_CreateArray();
    if (cc_peek(&b->r) == ']') {
        b->r.p++;
        cc_leave(&b->r);
        return arr;
    }
    for (;;) {
        cJSON *v = build_value(b);
        if (!v)
            break;
        cJSON_AddItemToArray(arr, v);
        int ch = cc_peek(&b->r);
        if (ch == ',') {
            b->r.p++;
            continue;
        }
        if (!cc_expect(&b->r, ']', "',' or ']'"))
            break;
        cc_leave(&b->r);
        return arr;
    }
    cJSON_Delete(arr);
    return NULL;
}

static cJSON *build_value(builder_t *b)
{
    int ch = cc_peek(&b->r);
    if (ch == '{')
        return build_object(b);
    if (ch == '[')
        return build_array(b);
    if (ch == '"') {
        cc_string_token_t t;
        if (!cc_scan_string(&b->r, &t))
            return NULL;
        char *s = decoded(&t);
        cJSON *v = cJSON_CreateString(s);
        free(s);
        return v;
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) {
        cc_number_token_t t;
        if (!cc_scan_number(&b->r, &t))
            return NULL;
        if (t.len > CJSON_NUMBER_MAX)
            b->long_number = true;
        char *s = malloc(t.len + 1);
        if (!s)
            abort();
        memcpy(s, t.text, t.len);
        s[t.len] = '\0';
        cJSON *v = cJSON_CreateNumber(strtod(s, NULL)); /* as cJSON does */
        free(s);
        return v;
    }
    if (ch == 't' || ch == 'f' || ch == 'n') {
        cc_literal_t lit;
        if (!cc_scan_literal(&b->r, &lit))
            return NULL;
        return lit == CC_LITERAL_NULL ? cJSON_CreateNull() : cJSON_CreateBool(lit == CC_LITERAL_TRUE);
    }
    /* not a value: let the reader classify it, as validate.c does */
    if (cc_skip_value(&b->r))
        cc_reader_fail(&b->r, CONTRACTC_KIND_SYNTAX, (size_t)(b->r.p - b->r.raw),
                       "the reader skipped what the builder could not read");
    return NULL;
}

/* Exact equality (cJSON_Compare's epsilon would call inf unequal to inf). */
static bool same_tree(const cJSON *a, const cJSON *b)
{
    if ((a->type & 0xFF) != (b->type & 0xFF))
        return false;
    if (cJSON_IsNumber(a))
        return a->valuedouble == b->valuedouble ||
               (isnan(a->valuedouble) && isnan(b->valuedouble));
    if (cJSON_IsString(a))
        return strcmp(a->valuestring, b->valuestring) == 0;
    if (cJSON_IsObject(a) || cJSON_IsArray(a)) {
        const cJSON *x = a->child, *y = b->child;
        for (; x && y; x = x->next, y = y->next) {
            if (cJSON_IsObject(a) && strcmp(x->string, y->string) != 0)
                return false;
            if (!same_tree(x, y))
                return false;
        }
        return !x && !y;
    }
    return true; /* null, true, false: the type says it all */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    /* cJSON needs the terminating NUL inside the length to check that
     * nothing follows the value (require_null_terminated). */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    cc_reader_t doc;
    bool reader_ok = cc_read_document(&doc, text, size, false, DEPTH);

    builder_t b;
    memset(&b, 0, sizeof b);
    cJSON *mine = NULL;
    bool built = false;
    if (cc_reader_begin(&b.r, text, size, false, DEPTH)) {
        mine = build_value(&b);
        built = mine != NULL && cc_reader_finish(&b.r);
    }
    FUZZ_CHECK(built == reader_ok, "cc_read_document says %s, the token API says %s",
               reader_ok ? "accept" : "reject", built ? "accept" : "reject");
    /* the same kind (offsets may differ: cc_skip_value puts a trailing
     * comma's problem at the comma, validate.c at the bracket after it) */
    if (!reader_ok)
        FUZZ_CHECK(b.r.fail_kind == doc.fail_kind, "skip says %s at %zu, the token API says %s at %zu",
                   contractc_kind_name(doc.fail_kind), doc.fail_offset,
                   contractc_kind_name(b.r.fail_kind), b.r.fail_offset);

    const char *end = NULL;
    cJSON *theirs = cJSON_ParseWithLengthOpts(text, size + 1, &end, 1);
    if (reader_ok && !b.long_number) {
        FUZZ_CHECK(theirs != NULL, "the reader accepts what cJSON rejects (at byte %td)",
                   end ? end - text : (ptrdiff_t)-1);
        FUZZ_CHECK(same_tree(mine, theirs), "the reader's tree differs from cJSON's");
    }
    if (!theirs && !b.long_number)
        FUZZ_CHECK(!reader_ok, "cJSON rejects, the reader accepts");
    cJSON_Delete(theirs);
    cJSON_Delete(mine);
    free(text);
    return 0;
}
