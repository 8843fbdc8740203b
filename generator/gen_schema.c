/* SPDX-License-Identifier: MIT */
/*
 * gen_schema.c - NAME.schema.json, the portable draft 2020-12 schema
 * (dialects.md section 0; docs/contract-language.md §10, "Schemas and
 * dialects").
 *
 * The root:
 *
 *   "$schema": "https://json-schema.org/draft/2020-12/schema"
 *   "$id": "urn:contractc:NAME:vVERSION"   stable, never a path, so the
 *                                          same contract gives the same bytes
 *                                          in any directory
 *   "title": NAME, "description": the contract's description (if any),
 *   then the object keywords below.
 *
 * Every object (the root, inline and named types, which are inlined, never
 * $ref): "type": "object", "properties" in contract order, "required" =
 * every key in contract order but the optional ones (v2), "additionalProperties": false.
 *
 * A property's schema, keys in this order:
 *   "description"  the field's description, then its format_text, then
 *                  for a grounded string cc_phrase_grounded's "copied
 *                  exactly from SOURCE" (the prompt's phrase and test: left
 *                  out when cc_grounding_stated), joined by "; "; absent
 *                  when all three are.  Grounded string items of an array
 *                  get the phrase as the items' own "description" (first
 *                  key), under the same test on the array field.
 *   then the value's keywords (below); a nullable scalar gets
 *   "type": [T, "null"], a nullable enum, object or array gets
 *   "anyOf": [<value>, {"type": "null"}] after its description.  Array
 *   items that may be null (docs/contract-language.md §4.6) are written
 *   the same way inside "items".
 *
 * | contract | keywords                                                     |
 * | -------- | ------------------------------------------------------------ |
 * | string   | type string, minLength, maxLength, pattern "^(P)$"           |
 * | integer  | type integer, minimum, maximum (else -/+ 9007199254740991)   |
 * | number   | type number, minimum, maximum (only those set)               |
 * | boolean  | type boolean                                                 |
 * | decimal  | type string, pattern: "^(0|[1-9][0-9]*)$" at scale 0, else   |
 * |          | "^(0|[1-9][0-9]*)\.[0-9]{N}$"; signed: "^-?" instead of "^"  |
 * | enum     | type string, enum [values]                                   |
 * | date     | type string, format date                                     |
 * | datetime | type string, format date-time                                |
 * | array    | type array, items, minItems, maxItems                        |
 *
 * The tree is built with cJSON and printed by print_json() below instead
 * of cJSON_Print: cJSON writes doubles with the C locale's printf and its
 * layout is not ours to promise.  Ours: two-space indents, keys in
 * insertion order, one value per line (as JSON.stringify(v, null, 2)),
 * "[]" and "{}" for empty containers, integral numbers within 2^53 as
 * integers (PRId64), other numbers by cc_format_number, strings with only
 * '"', '\' and control characters escaped, and one final newline.  This is
 * the layout of Python's json.dumps(v, indent=2, ensure_ascii=False), so a
 * reviewer can reproduce it with a stock tool.
 */
#include "generator.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "convert.h"
#include "lexical.h"

typedef struct schema_ctx {
    const cc_contract_t *contract;
    bool failed; /* an allocation failed somewhere in the tree */
} schema_ctx_t;

/* ---- building -------------------------------------------------------- */

/* Attaches `item` to `obj` under `key`; on failure frees it and records
 * the failure, so callers can build on and check once. */
static void put(schema_ctx_t *c, cJSON *obj, const char *key, cJSON *item)
{
    if (!item || !obj) {
        cJSON_Delete(item);
        c->failed = true;
        return;
    }
    if (!cJSON_AddItemToObject(obj, key, item)) {
        cJSON_Delete(item);
        c->failed = true;
    }
}

static void append(schema_ctx_t *c, cJSON *arr, cJSON *item)
{
    if (!item || !arr) {
        cJSON_Delete(item);
        c->failed = true;
        return;
    }
    if (!cJSON_AddItemToArray(arr, item)) {
        cJSON_Delete(item);
        c->failed = true;
    }
}

static void put_string(schema_ctx_t *c, cJSON *obj, const char *key, const char *s)
{
    put(c, obj, key, cJSON_CreateString(s));
}

/* Numbers stay exact: every integer here is within ±(2^53 − 1) or a
 * uint32 count, which a double holds exactly. */
static void put_number(schema_ctx_t *c, cJSON *obj, const char *key, double d)
{
    put(c, obj, key, cJSON_CreateNumber(d));
}

/* "type": T, or "type": [T, "null"] for a nullable scalar. */
static void put_type(schema_ctx_t *c, cJSON *obj, const char *type, bool nullable)
{
    if (!nullable) {
        put_string(c, obj, "type", type);
        return;
    }
    cJSON *arr = cJSON_CreateArray();
    append(c, arr, cJSON_CreateString(type));
    append(c, arr, cJSON_CreateString("null"));
    put(c, obj, "type", arr);
}

/* Appends `s` trimmed of surrounding white space, after "; " when needed. */
static void join_part(cc_buf_t *b, const char *s)
{
    size_t start = 0, end = strlen(s);
    while (start < end && strchr(" \t\r\n", s[start]))
        start++;
    while (end > start && strchr(" \t\r\n", s[end - 1]))
        end--;
    if (b->len > 0)
        cc_buf_puts(b, "; ");
    cc_buf_append(b, s + start, end - start);
}

static void put_description(schema_ctx_t *c, cJSON *obj, const cc_field_t *f)
{
    cc_buf_t b = CC_BUF_INIT;
    if (!cc_is_blank(f->description))
        join_part(&b, f->description);
    if (!cc_is_blank(f->format_text))
        join_part(&b, f->format_text);
    if (f->value.type == CONTRACTC_TYPE_STRING && f->value.grounded && !cc_grounding_stated(f)) {
        if (b.len > 0)
            cc_buf_puts(&b, "; ");
        cc_phrase_grounded(&b, c->contract);
    }
    if (b.failed) {
        c->failed = true;
    } else if (b.len > 0) {
        put_string(c, obj, "description", b.data);
    }
    cc_buf_free(&b);
}

static void object_keywords(schema_ctx_t *c, cJSON *o, const cc_object_t *obj,
                            const char *tag, const char *tag_value);

/* The anchored pattern of a decimal's dot-decimal form. */
static void put_decimal_pattern(schema_ctx_t *c, cJSON *obj, const cc_value_t *v)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, v->is_signed ? "^-?(0|[1-9][0-9]*)" : "^(0|[1-9][0-9]*)");
    if (v->scale > 0)
        cc_buf_printf(&b, "\\.[0-9]{%u}", (unsigned)v->scale);
    cc_buf_putc(&b, '$');
    if (b.failed)
        c->failed = true;
    else
        put_string(c, obj, "pattern", b.data);
    cc_buf_free(&b);
}

/* obj's `anyOf`: the branches in `any`, then {"type": "null"} when
 * nullable (the unions of docs/contract-language.md §4.11 and §4.13). */
static void put_any_of(schema_ctx_t *c, cJSON *obj, cJSON *any, bool nullable)
{
    if (nullable) {
        cJSON *null_branch = cJSON_CreateObject();
        put_string(c, null_branch, "type", "null");
        append(c, any, null_branch);
    }
    put(c, obj, "anyOf", any);
}

/* The keywords of a value into `obj`; `nullable` only for scalars (the
 * caller wraps enums, objects and arrays in anyOf).  `f` is the field the
 * value belongs to (for array items, the array's): a grounded string item
 * gets cc_phrase_grounded as its own description unless f already says
 * so. */
static void value_keywords(schema_ctx_t *c, cJSON *obj, const cc_value_t *v, bool nullable,
                           const cc_field_t *f)
{
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        put_type(c, obj, "string", nullable);
        if (v->has_min_length)
            put_number(c, obj, "minLength", v->min_length);
        if (v->has_max_length)
            put_number(c, obj, "maxLength", v->max_length);
        if (v->pattern) {
            cc_buf_t b = CC_BUF_INIT;
            cc_buf_printf(&b, "^(%s)$", v->pattern);
            if (b.failed)
                c->failed = true;
            else
                put_string(c, obj, "pattern", b.data);
            cc_buf_free(&b);
        }
        break;
    case CONTRACTC_TYPE_INTEGER:
        put_type(c, obj, "integer", nullable);
        /* Always bounded: a provider must not produce what the parser
         * rejects as beyond I-JSON's exact range. */
        put_number(c, obj, "minimum",
                   (double)(v->has_minimum ? v->minimum : CONTRACTC_INTEGER_MIN));
        put_number(c, obj, "maximum",
                   (double)(v->has_maximum ? v->maximum : CONTRACTC_INTEGER_MAX));
        break;
    case CONTRACTC_TYPE_NUMBER:
        put_type(c, obj, "number", nullable);
        if (v->has_minimum)
            put_number(c, obj, "minimum", v->number_minimum);
        if (v->has_maximum)
            put_number(c, obj, "maximum", v->number_maximum);
        break;
    case CONTRACTC_TYPE_BOOLEAN:
        put_type(c, obj, "boolean", nullable);
        break;
    case CONTRACTC_TYPE_DECIMAL:
        put_type(c, obj, "string", nullable);
        put_decimal_pattern(c, obj, v);
        break;
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME:
        put_type(c, obj, "string", nullable);
        put_string(c, obj, "format", v->type == CONTRACTC_TYPE_DATE ? "date" : "date-time");
        break;
    case CONTRACTC_TYPE_ENUM: {
        put_string(c, obj, "type", "string");
        cJSON *values = cJSON_CreateArray();
        for (size_t i = 0; v->enumeration && i < v->enumeration->count; i++)
            append(c, values, cJSON_CreateString(v->enumeration->values[i]));
        put(c, obj, "enum", values);
        break;
    }
    case CONTRACTC_TYPE_UNION: {
        /* docs/contract-language.md §4.11: one closed object schema per
         * variant, the tag first, a required const */
        cJSON *any = cJSON_CreateArray();
        for (size_t i = 0; i < v->variant_count; i++) {
            cJSON *branch = cJSON_CreateObject();
            if (branch)
                object_keywords(c, branch, v->variants[i].object, v->tag, v->variants[i].name);
            append(c, any, branch);
        }
        put_any_of(c, obj, any, nullable);
        break;
    }
    case CONTRACTC_TYPE_VALUE_UNION: {
        /* docs/contract-language.md §4.13: anyOf of the alternatives, each
         * with its own constraints (their JSON types differ: at most one
         * branch fits a value), and {"type": "null"} when nullable */
        cJSON *any = cJSON_CreateArray();
        for (size_t i = 0; i < v->alternative_count; i++) {
            cJSON *branch = cJSON_CreateObject();
            if (branch)
                value_keywords(c, branch, &v->alternatives[i], false, f);
            append(c, any, branch);
        }
        put_any_of(c, obj, any, nullable);
        break;
    }
    case CONTRACTC_TYPE_OBJECT:
        if (v->object)
            object_keywords(c, obj, v->object, NULL, NULL);
        else
            c->failed = true; /* an unresolved type: the loader refuses it */
        break;
    case CONTRACTC_TYPE_ARRAY: {
        put_string(c, obj, "type", "array");
        cJSON *items = cJSON_CreateObject();
        if (items && v->items && v->items->type == CONTRACTC_TYPE_STRING && v->items->grounded &&
            !cc_grounding_stated(f)) {
            cc_buf_t d = CC_BUF_INIT;
            cc_phrase_grounded(&d, c->contract);
            if (d.failed)
                c->failed = true;
            else
                put_string(c, items, "description", d.data);
            cc_buf_free(&d);
        }
        const cc_value_t *iv = v->items;
        if (items && iv && iv->nullable &&
            (iv->type == CONTRACTC_TYPE_ENUM || iv->type == CONTRACTC_TYPE_OBJECT)) {
            /* items that may be null (docs/contract-language.md §4.6), as a
             * nullable field: anyOf around an enum or object */
            cJSON *any = cJSON_CreateArray();
            cJSON *branch = cJSON_CreateObject();
            if (branch)
                value_keywords(c, branch, iv, false, f);
            append(c, any, branch);
            cJSON *null_branch = cJSON_CreateObject();
            put_string(c, null_branch, "type", "null");
            append(c, any, null_branch);
            put(c, items, "anyOf", any);
        } else if (items && iv) {
            value_keywords(c, items, iv, iv->nullable, f);
        }
        put(c, obj, "items", items);
        if (v->has_min_items)
            put_number(c, obj, "minItems", v->min_items);
        if (v->has_max_items)
            put_number(c, obj, "maxItems", v->max_items);
        break;
    }
    case CONTRACTC_TYPE_MAP: { /* docs/contract-language.md §4.12 */
        put_string(c, obj, "type", "object");
        cJSON *values = cJSON_CreateObject();
        if (values && v->items)
            value_keywords(c, values, v->items, false, f);
        put(c, obj, "additionalProperties", values);
        if (v->pattern) {
            cJSON *names = cJSON_CreateObject();
            cc_buf_t b = CC_BUF_INIT;
            cc_buf_printf(&b, "^(%s)$", v->pattern);
            if (b.failed)
                c->failed = true;
            else
                put_string(c, names, "pattern", b.data);
            cc_buf_free(&b);
            put(c, obj, "propertyNames", names);
        }
        if (v->has_min_items)
            put_number(c, obj, "minProperties", v->min_items);
        if (v->has_max_items)
            put_number(c, obj, "maxProperties", v->max_items);
        break;
    }
    default:
        break;
    }
}

static cJSON *field_schema(schema_ctx_t *c, const cc_field_t *f)
{
    cJSON *s = cJSON_CreateObject();
    if (!s) {
        c->failed = true;
        return NULL;
    }
    put_description(c, s, f);
    contractc_type_t t = f->value.type;
    bool structured = t == CONTRACTC_TYPE_ENUM || t == CONTRACTC_TYPE_OBJECT ||
                      t == CONTRACTC_TYPE_ARRAY || t == CONTRACTC_TYPE_MAP;
    if (f->nullable && structured) {
        /* Never a type array around an enum, object or array, and never
         * null inside a string enum (dialects.md section 0). */
        cJSON *any = cJSON_CreateArray();
        cJSON *branch = cJSON_CreateObject();
        if (branch)
            value_keywords(c, branch, &f->value, false, f);
        append(c, any, branch);
        cJSON *null_branch = cJSON_CreateObject();
        put_string(c, null_branch, "type", "null");
        append(c, any, null_branch);
        put(c, s, "anyOf", any);
    } else {
        value_keywords(c, s, &f->value, f->nullable, f);
    }
    return s;
}

/* The object keywords into `o` (which may already hold a description);
 * `tag`: the object is the variant `tag_value` of a tagged union, whose
 * tag comes first in properties and required, as a const. */
static void object_keywords(schema_ctx_t *c, cJSON *o, const cc_object_t *obj,
                            const char *tag, const char *tag_value)
{
    put_string(c, o, "type", "object");
    cJSON *props = cJSON_CreateObject();
    cJSON *required = cJSON_CreateArray();
    if (tag) {
        cJSON *t = cJSON_CreateObject();
        put_string(c, t, "type", "string");
        put_string(c, t, "const", tag_value);
        if (props)
            put(c, props, tag, t);
        else
            cJSON_Delete(t);
        append(c, required, cJSON_CreateString(tag));
    }
    for (size_t i = 0; i < obj->field_count; i++) {
        const cc_field_t *f = &obj->fields[i];
        if (props)
            put(c, props, f->name, field_schema(c, f));
        if (!f->optional) /* an optional key may be absent (v2) */
            append(c, required, cJSON_CreateString(f->name));
    }
    put(c, o, "properties", props);
    put(c, o, "required", required);
    put(c, o, "additionalProperties", cJSON_CreateFalse());
}

/* ---- printing -------------------------------------------------------- */

static void indent(cc_buf_t *b, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++)
        cc_buf_puts(b, "  ");
}

static void print_number(cc_buf_t *b, double d)
{
    /* 2^53: every integer up to it is exact in a double. */
    if (d >= -9007199254740992.0 && d <= 9007199254740992.0 && (double)(int64_t)d == d) {
        cc_buf_printf(b, "%" PRId64, (int64_t)d);
    } else {
        char num[33];
        size_t n = cc_format_number(d, num);
        cc_buf_append(b, num, n);
    }
}

static void print_json(cc_buf_t *b, const cJSON *item, unsigned depth);

void cc_print_schema_json(cc_buf_t *b, const struct cJSON *item)
{
    print_json(b, item, 0);
}

static void print_json(cc_buf_t *b, const cJSON *item, unsigned depth)
{
    if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
        bool is_obj = cJSON_IsObject(item) != 0;
        if (!item->child) {
            cc_buf_puts(b, is_obj ? "{}" : "[]");
            return;
        }
        cc_buf_puts(b, is_obj ? "{\n" : "[\n");
        for (const cJSON *e = item->child; e; e = e->next) {
            indent(b, depth + 1);
            if (is_obj) {
                const char *key = e->string ? e->string : "";
                cc_buf_json_string(b, key, strlen(key));
                cc_buf_puts(b, ": ");
            }
            print_json(b, e, depth + 1);
            cc_buf_puts(b, e->next ? ",\n" : "\n");
        }
        indent(b, depth);
        cc_buf_putc(b, is_obj ? '}' : ']');
    } else if (cJSON_IsString(item)) {
        const char *s = item->valuestring ? item->valuestring : "";
        cc_buf_json_string(b, s, strlen(s));
    } else if (cJSON_IsNumber(item)) {
        print_number(b, item->valuedouble);
    } else if (cJSON_IsTrue(item)) {
        cc_buf_puts(b, "true");
    } else if (cJSON_IsFalse(item)) {
        cc_buf_puts(b, "false");
    } else if (cJSON_IsRaw(item) && item->valuestring) {
        cc_buf_puts(b, item->valuestring);
    } else {
        cc_buf_puts(b, "null");
    }
}

char *cc_emit_schema(const cc_contract_t *contract, size_t *len)
{
    schema_ctx_t c = {contract, false};
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    put_string(&c, root, "$schema", "https://json-schema.org/draft/2020-12/schema");
    cc_buf_t id = CC_BUF_INIT;
    cc_buf_printf(&id, "urn:contractc:%s:v%" PRIu32, contract->name ? contract->name : "",
                  contract->version);
    if (id.failed)
        c.failed = true;
    else
        put_string(&c, root, "$id", id.data);
    cc_buf_free(&id);
    put_string(&c, root, "title", contract->name ? contract->name : "");
    if (!cc_is_blank(contract->description)) {
        cc_buf_t d = CC_BUF_INIT;
        join_part(&d, contract->description);
        if (d.failed)
            c.failed = true;
        else
            put_string(&c, root, "description", d.data);
        cc_buf_free(&d);
    }

    object_keywords(&c, root, &contract->root, NULL, NULL);

    char *out = NULL;
    if (!c.failed) {
        cc_buf_t b = CC_BUF_INIT;
        print_json(&b, root, 0);
        cc_buf_putc(&b, '\n');
        out = cc_buf_take(&b, len);
    }
    cJSON_Delete(root);
    return out;
}
