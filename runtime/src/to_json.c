/* SPDX-License-Identifier: MIT */
/*
 * to_json.c - an accepted record in the canonical form
 * (docs/contract-language.md, "Canonical form of a record"): compact, keys in
 * contract order, strings as UTF-8 with only '"', '\' and control characters
 * escaped, integers as plain digits, numbers as the shortest text that reads
 * back to the same double, decimals as strings with exactly `scale` fraction
 * digits, enums as their value, dates and date-times as received, null for
 * values not stated; an optional key the reply left out is not written (one
 * it gave as null is written as null: docs/contract-language.md §4.10); a
 * json value as sent without its insignificant white space (§4.14).
 */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "internal.h"

/* The text is built with the runtime's message builder (plain malloc: it
 * is returned, for free()) and its strings by the one JSON escaper. */
typedef cc_str_t out_t;

static void put(out_t *o, const char *s, size_t n) { cc_str_append(o, s, n); }

static void puts_(out_t *o, const char *s) { cc_str_puts(o, s); }

static void put_json_string(out_t *o, const char *s, size_t n) { cc_str_json_string(o, s, n, 0); }

static void put_digits(out_t *o, unsigned value, int width)
{
    char buf[12];
    for (int i = width - 1; i >= 0; i--) {
        buf[i] = (char)('0' + value % 10);
        value /= 10;
    }
    put(o, buf, (size_t)width);
}

static void put_date(out_t *o, const contractc_date_t *d)
{
    put_digits(o, (unsigned)d->year, 4);
    put(o, "-", 1);
    put_digits(o, d->month, 2);
    put(o, "-", 1);
    put_digits(o, d->day, 2);
}

static void put_datetime(out_t *o, const contractc_datetime_t *d)
{
    put(o, "\"", 1);
    put_date(o, &d->date);
    put(o, "T", 1);
    put_digits(o, d->hour, 2);
    put(o, ":", 1);
    put_digits(o, d->minute, 2);
    put(o, ":", 1);
    put_digits(o, d->second, 2);
    if (d->fraction_digits) {
        unsigned frac = d->nanos;
        for (int i = d->fraction_digits; i < 9; i++)
            frac /= 10;
        put(o, ".", 1);
        put_digits(o, frac, d->fraction_digits);
    }
    if (d->zone == 'Z' || (d->zone != '+' && d->zone != '-' && d->offset_minutes == 0)) {
        put(o, "Z", 1);
    } else {
        int off = d->offset_minutes < 0 ? -d->offset_minutes : d->offset_minutes;
        put(o, d->offset_minutes < 0 || d->zone == '-' ? "-" : "+", 1);
        put_digits(o, (unsigned)off / 60, 2);
        put(o, ":", 1);
        put_digits(o, (unsigned)off % 60, 2);
    }
    put(o, "\"", 1);
}

static void put_object(out_t *o, const contractc_object_t *obj, const unsigned char *base,
                       const contractc_value_t *tagged, const contractc_variant_t *variant);

/* A json value's text s[0..n) (read and checked by the reader) without its
 * insignificant white space (docs/contract-language.md §4.14): the bytes
 * of strings as sent, escapes included, and nothing else changed. */
static void put_json_text(out_t *o, const char *s, size_t n)
{
    size_t run = 0; /* s[run..i): bytes to keep, not yet written */
    bool in_string = false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (in_string) {
            if (ch == '\\')
                i++; /* the escaped byte is never the closing quote */
            else if (ch == '"')
                in_string = false;
        } else if (ch == '"') {
            in_string = true;
        } else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            put(o, s + run, i - run);
            run = i + 1;
        }
    }
    put(o, s + run, n - run);
}

static void put_value(out_t *o, const contractc_value_t *v, const unsigned char *at,
                      size_t aux)
{
    char buf[48];
    switch (v->type) {
    case CONTRACTC_TYPE_STRING: {
        const char *s;
        memcpy(&s, at, sizeof s);
        put_json_string(o, s ? s : "", s ? aux : 0);
        break;
    }
    case CONTRACTC_TYPE_JSON: {
        const char *s;
        memcpy(&s, at, sizeof s);
        if (s)
            put_json_text(o, s, aux);
        else
            puts_(o, "null");
        break;
    }
    case CONTRACTC_TYPE_INTEGER: {
        int64_t x;
        memcpy(&x, at, sizeof x);
        put(o, buf, cc_format_decimal(x, 0, buf));
        break;
    }
    case CONTRACTC_TYPE_NUMBER: {
        double x;
        memcpy(&x, at, sizeof x);
        put(o, buf, cc_format_number(x, buf));
        break;
    }
    case CONTRACTC_TYPE_BOOLEAN: {
        bool x;
        memcpy(&x, at, sizeof x);
        puts_(o, x ? "true" : "false");
        break;
    }
    case CONTRACTC_TYPE_DECIMAL: {
        int64_t x;
        memcpy(&x, at, sizeof x);
        put(o, "\"", 1);
        put(o, buf, cc_format_decimal(x, v->scale, buf));
        put(o, "\"", 1);
        break;
    }
    case CONTRACTC_TYPE_ENUM: {
        int x;
        memcpy(&x, at, sizeof x);
        if (x >= 1 && (uint32_t)x <= v->enumeration->count) {
            const contractc_enum_value_t *e = &v->enumeration->values[x - 1];
            put_json_string(o, e->text, e->len);
        } else {
            puts_(o, "null");
        }
        break;
    }
    case CONTRACTC_TYPE_DATE: {
        contractc_date_t d;
        memcpy(&d, at, sizeof d);
        put(o, "\"", 1);
        put_date(o, &d);
        put(o, "\"", 1);
        break;
    }
    case CONTRACTC_TYPE_DATETIME: {
        contractc_datetime_t d;
        memcpy(&d, at, sizeof d);
        put_datetime(o, &d);
        break;
    }
    case CONTRACTC_TYPE_OBJECT:
        put_object(o, v->object, at, NULL, NULL);
        break;
    case CONTRACTC_TYPE_UNION: { /* the tag first, then the variant's fields */
        int kind;
        memcpy(&kind, at, sizeof kind);
        if (kind >= 1 && (uint32_t)kind <= v->variant_count)
            put_object(o, v->variants[kind - 1].object, at + v->union_offset, v,
                       &v->variants[kind - 1]);
        else
            puts_(o, "null");
        break;
    }
    case CONTRACTC_TYPE_VALUE_UNION: { /* the alternative read (§4.13) */
        int kind;
        memcpy(&kind, at, sizeof kind);
        if (kind >= 1 && (uint32_t)kind <= v->alternative_count) {
            const contractc_value_t *a = &v->alternatives[kind - 1];
            const unsigned char *as = at + v->union_offset;
            size_t as_aux = 0;
            if (cc_type_has_count(a->type))
                memcpy(&as_aux, as + sizeof(void *), sizeof as_aux);
            put_value(o, a, as, as_aux);
        } else {
            puts_(o, "null");
        }
        break;
    }
    case CONTRACTC_TYPE_ARRAY: {
        const unsigned char *items;
        memcpy(&items, at, sizeof items);
        const contractc_value_t *iv = v->items;
        put(o, "[", 1);
        for (size_t i = 0; i < aux; i++) {
            const unsigned char *item = items + i * v->item_size;
            if (i)
                put(o, ",", 1);
            if (v->items_nullable) { /* { bool has_value; T value; }: §4.6 */
                bool has;
                memcpy(&has, item + v->item_has_offset, sizeof has);
                if (!has) {
                    puts_(o, "null");
                    continue;
                }
                item += v->item_value_offset;
            }
            size_t item_aux = 0;
            if (cc_type_has_count(iv->type))
                memcpy(&item_aux, item + sizeof(void *), sizeof item_aux);
            put_value(o, iv, item, item_aux);
        }
        put(o, "]", 1);
        break;
    }
    case CONTRACTC_TYPE_MAP: { /* docs/contract-language.md §4.12: reply order */
        const unsigned char *entries;
        memcpy(&entries, at, sizeof entries);
        const contractc_value_t *iv = v->items;
        const size_t voff = CONTRACTC_MAP_VALUE_OFFSET(v->item_align);
        put(o, "{", 1);
        for (size_t i = 0; i < aux; i++) {
            const unsigned char *e = entries + i * v->item_size;
            const char *key;
            size_t key_len, value_aux = 0;
            memcpy(&key, e, sizeof key);
            memcpy(&key_len, e + sizeof(void *), sizeof key_len);
            if (i)
                put(o, ",", 1);
            put_json_string(o, key, key_len);
            put(o, ":", 1);
            if (cc_type_has_count(iv->type))
                memcpy(&value_aux, e + voff + sizeof(void *), sizeof value_aux);
            put_value(o, iv, e + voff, value_aux);
        }
        put(o, "}", 1);
        break;
    }
    default: /* the types of v2 the tables of this build do not use */
        puts_(o, "null");
        break;
    }
}

/* An object; `tagged` and `variant`: the tagged union it is the variant
 * of, whose tag comes first (docs/contract-language.md §4.11), or NULL. */
static void put_object(out_t *o, const contractc_object_t *obj, const unsigned char *base,
                       const contractc_value_t *tagged, const contractc_variant_t *variant)
{
    put(o, "{", 1);
    bool first = true;
    if (tagged) {
        put_json_string(o, tagged->tag, tagged->tag_len);
        put(o, ":", 1);
        put_json_string(o, variant->name, variant->name_len);
        first = false;
    }
    for (uint32_t i = 0; i < obj->field_count; i++) {
        const contractc_field_t *f = &obj->fields[i];
        bool has = true;
        if (f->has_offset != CONTRACTC_ABSENT)
            memcpy(&has, base + f->has_offset, sizeof has);
        if (!has && f->optional) {
            /* absent: not written, unless the reply said null (X_null) */
            bool said_null = false;
            if (f->nullable && f->null_offset != CONTRACTC_ABSENT)
                memcpy(&said_null, base + f->null_offset, sizeof said_null);
            if (!said_null)
                continue;
        }
        if (!first)
            put(o, ",", 1);
        first = false;
        put_json_string(o, f->name, f->name_len);
        put(o, ":", 1);
        if (!has) {
            puts_(o, "null");
            continue;
        }
        size_t aux = 0;
        if (f->aux_offset != CONTRACTC_ABSENT)
            memcpy(&aux, base + f->aux_offset, sizeof aux);
        put_value(o, &f->value, base + f->offset, aux);
    }
    put(o, "}", 1);
}

char *contractc_to_json(const contractc_contract_t *contract, const void *record, size_t *len)
{
    if (!contract || !record || !contract->root)
        return NULL;
    out_t o;
    cc_str_init(&o, NULL);
    put_object(&o, contract->root, record, NULL, NULL);
    if (o.failed) {
        cc_str_free(&o);
        return NULL;
    }
    if (len)
        *len = o.len;
    return o.data;
}
