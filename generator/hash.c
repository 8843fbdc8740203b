/* SPDX-License-Identifier: MIT */
/*
 * hash.c - the canonical contract model and NAME_contract_hash
 * (docs/contract-language.md, "Hash and banners").
 *
 * The canonical model is compact JSON of every resolved setting that
 * affects a verdict, in contract order, with every default written out so
 * that two contracts that mean the same thing hash the same:
 *
 *   {"contract":NAME,"version":N,
 *    "reply":{"fence":"allow"|"reject","max_bytes":N,"max_depth":N},
 *    "source":true|false,
 *    "fields":[FIELD...],"rules":[RULE...]}
 *
 *   FIELD = {"name":KEY,"nullable":B[,"optional":true], VALUE...}
 *           (VALUE's keys inline; "optional" only when set, so that a
 *           contract without it hashes as in v1)
 *   VALUE by type, every key always present (null: no bound):
 *     string   "type","min_length" (0 default),"max_length"|null,
 *              "pattern" (as written)|null,"grounded"
 *     integer  "type","minimum","maximum" (resolved: ±9007199254740991)
 *     number   "type","minimum"|null,"maximum"|null (cc_format_number)
 *     boolean, date, datetime  "type"
 *     decimal  "type","scale","signed","minimum"|null,"maximum"|null
 *              (bounds in minor units: the scale fixes their meaning)
 *     enum     "type","values":[...]
 *     object   "type","fields":[FIELD...],"rules":[RULE...]
 *     array    "type","min_items" (0 default),"max_items"|null,
 *              "items":{VALUE[,"nullable":true]} ("nullable" only for
 *              items that may be null, docs/contract-language.md §4.6)
 *     map      "type","key_pattern"|null,"min_entries" (0 default),
 *              "max_entries"|null,"values":{VALUE} (v2: only a contract
 *              with a map has the type, so v1 hashes are as they were)
 *   RULE = {"kind":K,"id":ID, ...}
 *     all_or_none, at_most_one, exactly_one  "fields":[PATH...]
 *     sum      "of":PATH,"equals":PATH,"tolerance":N (operands' units)
 *     compare  "left":PATH,"op":"<="...,"right":PATH
 *     check    "function":NAME
 *
 * Decisions:
 * - Named types are inlined at every use, as in the schema: the verdict
 *   depends on the structure, not on the type's name (a rename changes the
 *   C names, which the generated files carry anyway).
 * - Descriptions, format texts, examples, rule prompts and check messages
 *   are left out: they are prompt text, and the prompt itself is hashed.
 *   Bounds as written ("0.01") are left out too: the minor units with the
 *   scale say the same, and message texts are not verdicts.
 * - Paths are the rule operands as written ("line_items[].amount_cents").
 * - Rule ids are in: they name the rule in problems and logs.
 * - C names (`c_name:` of a field or an enum value) are left out: they
 *   change the C interface, not a verdict, like a named type's name.
 * - The schema dialect is recorded beside the hash, not in it.
 *
 * The hash is SHA-256 (OpenSSL libcrypto, EVP) over
 *   "contractc-hash-v1\n"
 *   LEN(model) "\n" model   LEN(schema) "\n" schema   LEN(prompt) "\n" prompt
 * with each LEN in decimal ASCII, so no part can run into the next.
 */
#include "generator.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "convert.h"

static const char k_hash_tag[] = "contractc-hash-v1\n";

static const char *rule_kind_name(cc_rule_kind_t k)
{
    switch (k) {
    case CC_RULE_ALL_OR_NONE: return "all_or_none";
    case CC_RULE_AT_MOST_ONE: return "at_most_one";
    case CC_RULE_EXACTLY_ONE: return "exactly_one";
    case CC_RULE_SUM: return "sum";
    case CC_RULE_COMPARE: return "compare";
    case CC_RULE_CHECK: return "check";
    }
    return "unknown";
}

static const char *op_text(contractc_compare_op_t op)
{
    switch (op) {
    case CONTRACTC_OP_LT: return "<";
    case CONTRACTC_OP_LE: return "<=";
    case CONTRACTC_OP_EQ: return "==";
    case CONTRACTC_OP_NE: return "!=";
    case CONTRACTC_OP_GE: return ">=";
    case CONTRACTC_OP_GT: return ">";
    }
    return "?";
}

/* ,"key": prefix; every value below follows a key, never opens an object. */
static void key(cc_buf_t *b, const char *k)
{
    cc_buf_putc(b, ',');
    cc_buf_json_string(b, k, strlen(k));
    cc_buf_putc(b, ':');
}

static void str_or_null(cc_buf_t *b, const char *s)
{
    if (s)
        cc_buf_json_string(b, s, strlen(s));
    else
        cc_buf_puts(b, "null");
}

static void i64_or_null(cc_buf_t *b, bool has, int64_t v)
{
    if (has)
        cc_buf_printf(b, "%" PRId64, v);
    else
        cc_buf_puts(b, "null");
}

static void number_or_null(cc_buf_t *b, bool has, double v)
{
    if (has) {
        char num[33];
        size_t n = cc_format_number(v, num);
        cc_buf_append(b, num, n);
    } else {
        cc_buf_puts(b, "null");
    }
}

static void put_bool(cc_buf_t *b, bool v) { cc_buf_puts(b, v ? "true" : "false"); }

static void put_path(cc_buf_t *b, const cc_path_t *p) { str_or_null(b, p->text); }

static void model_object(cc_buf_t *b, const cc_object_t *obj);

/* The value's keys, each written as ,"key":value (the caller opened the
 * object and wrote a first key). */
static void model_value(cc_buf_t *b, const cc_value_t *v)
{
    key(b, "type");
    cc_buf_json_string(b, cc_type_name(v->type), strlen(cc_type_name(v->type)));
    switch (v->type) {
    case CONTRACTC_TYPE_STRING:
        key(b, "min_length");
        cc_buf_printf(b, "%" PRIu32, v->has_min_length ? v->min_length : 0u);
        key(b, "max_length");
        i64_or_null(b, v->has_max_length, v->max_length);
        key(b, "pattern");
        str_or_null(b, v->pattern);
        key(b, "grounded");
        put_bool(b, v->grounded);
        break;
    case CONTRACTC_TYPE_INTEGER:
        key(b, "minimum");
        cc_buf_printf(b, "%" PRId64, v->has_minimum ? v->minimum : CONTRACTC_INTEGER_MIN);
        key(b, "maximum");
        cc_buf_printf(b, "%" PRId64, v->has_maximum ? v->maximum : CONTRACTC_INTEGER_MAX);
        break;
    case CONTRACTC_TYPE_NUMBER:
        key(b, "minimum");
        number_or_null(b, v->has_minimum, v->number_minimum);
        key(b, "maximum");
        number_or_null(b, v->has_maximum, v->number_maximum);
        break;
    case CONTRACTC_TYPE_DECIMAL:
        key(b, "scale");
        cc_buf_printf(b, "%u", (unsigned)v->scale);
        key(b, "signed");
        put_bool(b, v->is_signed);
        key(b, "minimum");
        i64_or_null(b, v->has_minimum, v->minimum);
        key(b, "maximum");
        i64_or_null(b, v->has_maximum, v->maximum);
        break;
    case CONTRACTC_TYPE_ENUM:
        key(b, "values");
        cc_buf_putc(b, '[');
        for (size_t i = 0; v->enumeration && i < v->enumeration->count; i++) {
            if (i > 0)
                cc_buf_putc(b, ',');
            cc_buf_json_string(b, v->enumeration->values[i], strlen(v->enumeration->values[i]));
        }
        cc_buf_putc(b, ']');
        break;
    case CONTRACTC_TYPE_OBJECT:
        if (v->object)
            model_object(b, v->object);
        break;
    case CONTRACTC_TYPE_ARRAY:
    case CONTRACTC_TYPE_MAP: {
        const bool map = v->type == CONTRACTC_TYPE_MAP;
        if (map) {
            key(b, "key_pattern");
            str_or_null(b, v->pattern);
        }
        key(b, map ? "min_entries" : "min_items");
        cc_buf_printf(b, "%" PRIu32, v->has_min_items ? v->min_items : 0u);
        key(b, map ? "max_entries" : "max_items");
        i64_or_null(b, v->has_max_items, v->max_items);
        key(b, map ? "values" : "items");
        if (v->items) {
            /* The item value alone: "type" comes first, so open with it. */
            cc_buf_t inner = CC_BUF_INIT;
            model_value(&inner, v->items);
            if (inner.failed)
                b->failed = true;
            else {
                cc_buf_putc(b, '{');
                cc_buf_append(b, inner.data + 1, inner.len - 1); /* drop ',' */
                if (v->items->nullable) { /* v2, only when used */
                    key(b, "nullable");
                    put_bool(b, true);
                }
                cc_buf_putc(b, '}');
            }
            cc_buf_free(&inner);
        } else {
            cc_buf_puts(b, "null");
        }
        break;
    }
    case CONTRACTC_TYPE_JSON: /* v2 (docs/contract-language.md §4.14) */
        key(b, "max_bytes");
        i64_or_null(b, v->has_max_length, v->max_length);
        break;
    case CONTRACTC_TYPE_UNION: /* v2: the tag and each variant's value and object */
        key(b, "tag");
        str_or_null(b, v->tag);
        key(b, "variants");
        cc_buf_putc(b, '[');
        for (size_t i = 0; i < v->variant_count; i++) {
            cc_buf_puts(b, i > 0 ? ",{\"value\":" : "{\"value\":");
            cc_buf_json_string(b, v->variants[i].name, strlen(v->variants[i].name));
            if (v->variants[i].object)
                model_object(b, v->variants[i].object);
            cc_buf_putc(b, '}');
        }
        cc_buf_putc(b, ']');
        break;
    case CONTRACTC_TYPE_VALUE_UNION: /* v2 (§4.13): each alternative's value, in order */
        key(b, "alternatives");
        cc_buf_putc(b, '[');
        for (size_t i = 0; i < v->alternative_count; i++) {
            /* "type" comes first, so open with it, as for items */
            cc_buf_t inner = CC_BUF_INIT;
            model_value(&inner, &v->alternatives[i]);
            if (inner.failed) {
                b->failed = true;
            } else {
                cc_buf_puts(b, i > 0 ? ",{" : "{");
                cc_buf_append(b, inner.data + 1, inner.len - 1); /* drop ',' */
                cc_buf_putc(b, '}');
            }
            cc_buf_free(&inner);
        }
        cc_buf_putc(b, ']');
        break;
    case CONTRACTC_TYPE_BOOLEAN:
    case CONTRACTC_TYPE_DATE:
    case CONTRACTC_TYPE_DATETIME:
    default:
        break;
    }
}

static void model_rule(cc_buf_t *b, const cc_rule_t *r)
{
    cc_buf_puts(b, "{\"kind\":");
    cc_buf_json_string(b, rule_kind_name(r->kind), strlen(rule_kind_name(r->kind)));
    key(b, "id");
    str_or_null(b, r->id);
    switch (r->kind) {
    case CC_RULE_ALL_OR_NONE:
    case CC_RULE_AT_MOST_ONE:
    case CC_RULE_EXACTLY_ONE:
        key(b, "fields");
        cc_buf_putc(b, '[');
        for (size_t i = 0; i < r->field_count; i++) {
            if (i > 0)
                cc_buf_putc(b, ',');
            put_path(b, &r->fields[i]);
        }
        cc_buf_putc(b, ']');
        break;
    case CC_RULE_SUM:
        key(b, "of");
        put_path(b, &r->of);
        key(b, "equals");
        put_path(b, &r->equals);
        key(b, "tolerance");
        cc_buf_printf(b, "%" PRId64, r->tolerance);
        break;
    case CC_RULE_COMPARE:
        key(b, "left");
        put_path(b, &r->left);
        key(b, "op");
        cc_buf_json_string(b, op_text(r->op), strlen(op_text(r->op)));
        key(b, "right");
        put_path(b, &r->right);
        break;
    case CC_RULE_CHECK:
        key(b, "function");
        str_or_null(b, r->function);
        break;
    default:
        break;
    }
    cc_buf_putc(b, '}');
}

/* ,"fields":[...],"rules":[...] */
static void model_object(cc_buf_t *b, const cc_object_t *obj)
{
    key(b, "fields");
    cc_buf_putc(b, '[');
    for (size_t i = 0; i < obj->field_count; i++) {
        const cc_field_t *f = &obj->fields[i];
        if (i > 0)
            cc_buf_putc(b, ',');
        cc_buf_puts(b, "{\"name\":");
        cc_buf_json_string(b, f->name, strlen(f->name));
        key(b, "nullable");
        put_bool(b, f->nullable);
        if (f->optional) { /* v2: only when used, so v1 hashes stay */
            key(b, "optional");
            put_bool(b, true);
        }
        model_value(b, &f->value);
        cc_buf_putc(b, '}');
    }
    cc_buf_putc(b, ']');
    key(b, "rules");
    cc_buf_putc(b, '[');
    for (size_t i = 0; i < obj->rule_count; i++) {
        if (i > 0)
            cc_buf_putc(b, ',');
        model_rule(b, &obj->rules[i]);
    }
    cc_buf_putc(b, ']');
}

char *cc_canonical_model(const cc_contract_t *contract, size_t *len)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "{\"contract\":");
    str_or_null(&b, contract->name);
    key(&b, "version");
    cc_buf_printf(&b, "%" PRIu32, contract->version);
    key(&b, "reply");
    cc_buf_printf(&b, "{\"fence\":\"%s\",\"max_bytes\":%" PRIu64 ",\"max_depth\":%" PRIu32 "}",
                  contract->fence == CC_FENCE_REJECT ? "reject" : "allow",
                  contract->max_bytes, contract->max_depth);
    key(&b, "source");
    put_bool(&b, contract->has_source);
    model_object(&b, &contract->root);
    cc_buf_putc(&b, '}');
    return cc_buf_take(&b, len);
}

/* Feeds LEN "\n" BYTES to the digest. */
static bool update_part(EVP_MD_CTX *md, const char *data, size_t len)
{
    char head[32];
    int n = snprintf(head, sizeof head, "%zu\n", len);
    if (n < 0 || (size_t)n >= sizeof head)
        return false;
    if (EVP_DigestUpdate(md, head, (size_t)n) != 1)
        return false;
    return len == 0 || EVP_DigestUpdate(md, data, len) == 1;
}

bool cc_contract_hash(const cc_contract_t *contract, const char *schema, size_t schema_len,
                      const char *prompt, size_t prompt_len, char out[72])
{
    static const char hex[] = "0123456789abcdef";
    size_t model_len = 0;
    char *model = cc_canonical_model(contract, &model_len);
    if (!model)
        return false;

    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int digest_len = 0;
    bool ok = false;
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    if (md && EVP_DigestInit_ex(md, EVP_sha256(), NULL) == 1 &&
        EVP_DigestUpdate(md, k_hash_tag, sizeof k_hash_tag - 1) == 1 &&
        update_part(md, model, model_len) && update_part(md, schema, schema_len) &&
        update_part(md, prompt, prompt_len) &&
        EVP_DigestFinal_ex(md, digest, &digest_len) == 1 && digest_len == 32) {
        memcpy(out, "sha256:", 7);
        for (unsigned i = 0; i < 32; i++) {
            out[7 + 2 * i] = hex[digest[i] >> 4];
            out[8 + 2 * i] = hex[digest[i] & 15];
        }
        out[71] = '\0';
        ok = true;
    }
    EVP_MD_CTX_free(md);
    free(model);
    return ok;
}
