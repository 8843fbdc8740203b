/* SPDX-License-Identifier: MIT */
/*
 * test_schema_prompt.c - the prompt, the portable schema and the contract
 * hash (gen_prompt.c, gen_schema.c, hash.c).
 *
 * Models are built by hand here (the refund_request and invoice contracts of
 * docs/contract-language.md), so these tests pin the emitters independently of
 * the YAML loader; the last case loads the same contracts from
 * tests/data/contracts/ and checks that both routes give the same bytes.
 */
#include <check.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <openssl/evp.h>

#include "generator.h"

/* ---- building models by hand ----------------------------------------- */

static char *xdup(const char *s)
{
    char *p = cc_strdup(s);
    ck_assert_ptr_nonnull(p);
    return p;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    ck_assert_ptr_nonnull(p);
    return p;
}

static cc_contract_t *new_contract(const char *name, const char *instruction, size_t fields)
{
    cc_contract_t *c = xcalloc(1, sizeof *c);
    c->name = xdup(name);
    c->version = 1;
    c->instruction = xdup(instruction);
    c->fence = CC_FENCE_ALLOW;
    c->max_bytes = (uint64_t)1 << 20;
    c->max_depth = 64;
    c->root.fields = xcalloc(fields, sizeof *c->root.fields);
    c->root.field_count = fields;
    return c;
}

static cc_field_t *set_field(cc_object_t *o, size_t i, const char *name, contractc_type_t type)
{
    cc_field_t *f = &o->fields[i];
    f->name = xdup(name);
    f->value.type = type;
    return f;
}

static cc_enum_t *new_enum(const char *const *values, size_t count)
{
    cc_enum_t *e = xcalloc(1, sizeof *e);
    e->values = xcalloc(count, sizeof *e->values);
    for (size_t i = 0; i < count; i++)
        e->values[i] = xdup(values[i]);
    e->count = count;
    return e;
}

static cc_object_t *new_object(size_t fields)
{
    cc_object_t *o = xcalloc(1, sizeof *o);
    o->fields = xcalloc(fields, sizeof *o->fields);
    o->field_count = fields;
    return o;
}

static void set_paths(cc_rule_t *r, const char *const *paths, size_t count)
{
    r->fields = xcalloc(count, sizeof *r->fields);
    for (size_t i = 0; i < count; i++)
        r->fields[i].text = xdup(paths[i]);
    r->field_count = count;
}

static cc_rule_t *add_rules(cc_object_t *o, size_t count)
{
    o->rules = xcalloc(count, sizeof *o->rules);
    o->rule_count = count;
    for (size_t i = 0; i < count; i++) {
        char id[32];
        snprintf(id, sizeof id, "rules[%zu]", i);
        o->rules[i].id = xdup(id);
    }
    return o->rules;
}

/* The refund_request contract of docs/contract-language.md. */
static cc_contract_t *refund_contract(void)
{
    static const char *const currencies[] = {"EUR", "GBP", "USD"};
    static const char *const reasons[] = {"duplicate_charge", "not_received", "damaged",
                                          "other"};
    static const char *const group[] = {"amount", "currency", "amount_text"};
    cc_contract_t *c = new_contract(
        "refund_request", "Extract the order, the amount and the reason from this customer email.\n",
        5);
    c->description = xdup("A refund request read from one customer email.");
    c->has_source = true;
    c->source_name = xdup("email");
    c->source_description = xdup("the customer email");

    cc_field_t *f = set_field(&c->root, 0, "order_id", CONTRACTC_TYPE_STRING);
    f->value.pattern = xdup("A-[0-9]+");
    f->format_text = xdup("\"A-\" followed by digits, as written in the email");

    f = set_field(&c->root, 1, "amount", CONTRACTC_TYPE_DECIMAL);
    f->value.scale = 2;
    f->nullable = true;

    f = set_field(&c->root, 2, "currency", CONTRACTC_TYPE_ENUM);
    f->value.enumeration = new_enum(currencies, 3);
    f->nullable = true;

    f = set_field(&c->root, 3, "amount_text", CONTRACTC_TYPE_STRING);
    f->nullable = true;
    f->value.grounded = true;
    f->description = xdup("the amount exactly as written in the email");

    f = set_field(&c->root, 4, "reason", CONTRACTC_TYPE_ENUM);
    f->value.enumeration = new_enum(reasons, 4);

    cc_rule_t *r = add_rules(&c->root, 1);
    r->kind = CC_RULE_ALL_OR_NONE;
    set_paths(r, group, 3);
    r->prompt = xdup("If the email states no amount, amount, currency and amount_text are null.");
    return c;
}

/* The invoice contract: a named object type inlined as array items. */
static cc_contract_t *invoice_contract(void)
{
    cc_contract_t *c = new_contract(
        "invoice",
        "Read the vendor, the invoice total and every line item from this invoice.\n", 3);
    c->description = xdup("The vendor, total and line items read from one invoice.");

    cc_object_t *item = new_object(2);
    item->named = true;
    item->type_name = xdup("line_item");
    cc_field_t *f = set_field(item, 0, "description", CONTRACTC_TYPE_STRING);
    f->description = xdup("the line's text as printed");
    f = set_field(item, 1, "amount_cents", CONTRACTC_TYPE_INTEGER);
    f->value.has_minimum = true;
    f->value.minimum = 0;
    f->description = xdup("the line's amount in cents");
    c->types = xcalloc(1, sizeof *c->types);
    c->type_count = 1;
    c->types[0].name = xdup("line_item");
    c->types[0].object = item;

    f = set_field(&c->root, 0, "vendor_name", CONTRACTC_TYPE_STRING);
    f->value.has_min_length = true;
    f->value.min_length = 1;
    f->description = xdup("the vendor's name as printed on the invoice");
    f = set_field(&c->root, 1, "invoice_total_cents", CONTRACTC_TYPE_INTEGER);
    f->value.has_minimum = true;
    f->value.minimum = 0;
    f->description = xdup("the invoice total in cents");
    f = set_field(&c->root, 2, "line_items", CONTRACTC_TYPE_ARRAY);
    f->value.has_min_items = f->value.has_max_items = true;
    f->value.min_items = 1;
    f->value.max_items = 200;
    f->value.items = xcalloc(1, sizeof *f->value.items);
    f->value.items->type = CONTRACTC_TYPE_OBJECT;
    f->value.items->object = item;
    f->value.items->type_ref = xdup("line_item");

    cc_rule_t *r = add_rules(&c->root, 1);
    r->kind = CC_RULE_SUM;
    r->of.text = xdup("line_items[].amount_cents");
    r->equals.text = xdup("invoice_total_cents");
    r->tolerance = 1;
    r->tolerance_text = xdup("1");
    r->prompt = xdup("The line items' amount_cents add up to invoice_total_cents (within one cent).");
    return c;
}

/* ---- small helpers --------------------------------------------------- */

static char *prompt_of(const cc_contract_t *c)
{
    size_t len = 0;
    char *p = cc_emit_prompt(c, &len);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(strlen(p), len);
    return p;
}

static char *schema_of(const cc_contract_t *c)
{
    size_t len = 0;
    char *s = cc_emit_schema(c, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(strlen(s), len);
    return s;
}

static const char k_reply_line[] =
    "Reply with one JSON object and nothing else. Exactly these keys:\n";
static const char k_closing[] =
    "Never estimate. A program checks this reply and rejects anything else.\n";

/* The prompt's lines between the "Reply with ..." line and the closing
 * line (field and rule lines), as a new string. */
static char *key_section(const char *prompt)
{
    const char *start = strstr(prompt, k_reply_line);
    ck_assert_ptr_nonnull(start);
    start += strlen(k_reply_line);
    size_t total = strlen(start), closing = strlen(k_closing);
    ck_assert_uint_ge(total, closing);
    ck_assert_str_eq(start + total - closing, k_closing);
    return cc_strndup(start, total - closing);
}

static const cJSON *get(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    ck_assert_msg(item != NULL, "no key \"%s\"", key);
    return item;
}

static void assert_keys(const cJSON *obj, const char *const *keys, size_t count)
{
    const cJSON *e = obj->child;
    for (size_t i = 0; i < count; i++, e = e->next) {
        ck_assert_msg(e != NULL, "missing key %zu (\"%s\")", i, keys[i]);
        ck_assert_str_eq(e->string, keys[i]);
    }
    ck_assert_msg(e == NULL, "extra key \"%s\"", e ? e->string : "");
}

static void assert_strings(const cJSON *arr, const char *const *values, size_t count)
{
    ck_assert(cJSON_IsArray(arr));
    ck_assert_int_eq(cJSON_GetArraySize(arr), (int)count);
    const cJSON *e = arr->child;
    for (size_t i = 0; i < count; i++, e = e->next)
        ck_assert_str_eq(e->valuestring, values[i]);
}

static double number_at(const cJSON *obj, const char *key)
{
    const cJSON *n = get(obj, key);
    ck_assert(cJSON_IsNumber(n));
    return n->valuedouble;
}

/* ---- the prompt ------------------------------------------------------ */

static const char k_refund_prompt[] =
    "Extract the order, the amount and the reason from this customer email.\n"
    "\n"
    "Reply with one JSON object and nothing else. Exactly these keys:\n"
    "order_id: \"A-\" followed by digits, as written in the email\n"
    "amount: like \"1250.00\" (dot, two decimals, no separators), or null\n"
    "currency: \"EUR\", \"GBP\" or \"USD\", or null\n"
    "amount_text: the amount exactly as written in the email, or null\n"
    "reason: \"duplicate_charge\", \"not_received\", \"damaged\" or \"other\"\n"
    "If the email states no amount, amount, currency and amount_text are null.\n"
    "Never estimate. A program checks this reply and rejects anything else.\n";

START_TEST(refund_prompt_is_the_design_page_example_byte_for_byte)
{
    cc_contract_t *c = refund_contract();
    size_t len = 0;
    char *p = cc_emit_prompt(c, &len);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_eq(len, sizeof k_refund_prompt - 1);
    ck_assert(memcmp(p, k_refund_prompt, len) == 0);
    free(p);
    cc_contract_free(c);
}
END_TEST

START_TEST(invoice_prompt_lists_item_fields_with_their_array_path)
{
    cc_contract_t *c = invoice_contract();
    char *p = prompt_of(c);
    ck_assert_str_eq(
        p,
        "Read the vendor, the invoice total and every line item from this invoice.\n"
        "\n"
        "Reply with one JSON object and nothing else. Exactly these keys:\n"
        "vendor_name: the vendor's name as printed on the invoice; at least 1 character\n"
        "invoice_total_cents: the invoice total in cents; a whole number 0 or more\n"
        "line_items: a list of 1 to 200 items, each an object with the keys below\n"
        "line_items[].description: the line's text as printed\n"
        "line_items[].amount_cents: the line's amount in cents; a whole number 0 or more\n"
        "The line items' amount_cents add up to invoice_total_cents (within one cent).\n"
        "Never estimate. A program checks this reply and rejects anything else.\n");
    free(p);
    cc_contract_free(c);
}
END_TEST

/* One-field contracts: a setup function shapes field "x"; the expected
 * text is the prompt's key section (field and rule lines). */
typedef void (*setup_fn)(cc_contract_t *c, cc_field_t *f);

static void s_text(cc_contract_t *c, cc_field_t *f) { (void)c; (void)f; }
static void s_text_desc(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->description = xdup("the name");
}
static void s_text_1_80(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.has_min_length = f->value.has_max_length = true;
    f->value.min_length = 1;
    f->value.max_length = 80;
}
static void s_text_min1(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.has_min_length = true;
    f->value.min_length = 1;
}
static void s_text_max1(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.has_max_length = true;
    f->value.max_length = 1;
}
static void s_text_exact3(cc_contract_t *c, cc_field_t *f)
{
    s_text_max1(c, f);
    f->value.has_min_length = true;
    f->value.min_length = f->value.max_length = 3;
    f->description = xdup("a code");
}
static void s_text_min0(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.has_min_length = true;
    f->value.min_length = 0;
}
static void s_text_pattern(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.pattern = xdup("A-[0-9]+");
}
static void s_text_example(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->example = xdup("ACME \"GmbH\"");
}
static void s_grounded(cc_contract_t *c, cc_field_t *f)
{
    c->has_source = true;
    c->source_name = xdup("email");
    c->source_description = xdup("the customer email");
    f->value.grounded = true;
}
static void s_grounded_desc(cc_contract_t *c, cc_field_t *f)
{
    s_grounded(c, f);
    f->description = xdup("the name as written");
}
static void s_grounded_verbatim(cc_contract_t *c, cc_field_t *f)
{
    s_grounded(c, f);
    f->description = xdup("the name, VERBATIM");
}
static void s_grounded_no_source_description(cc_contract_t *c, cc_field_t *f)
{
    c->has_source = true;
    c->source_name = xdup("letter");
    f->value.grounded = true;
    f->nullable = true;
}
static void s_format_text(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->description = xdup("the country");
    f->format_text = xdup("two capital letters");
    f->value.pattern = xdup("[A-Z]{2}");
}
static void s_folded_desc(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->description = xdup("  the long\nname\r\n\tof it \n");
}
static void s_int(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_INTEGER;
}
static void s_int_0_100(cc_contract_t *c, cc_field_t *f)
{
    s_int(c, f);
    f->value.has_minimum = f->value.has_maximum = true;
    f->value.minimum = 0;
    f->value.maximum = 100;
}
static void s_int_min0(cc_contract_t *c, cc_field_t *f)
{
    s_int(c, f);
    f->value.has_minimum = true;
}
static void s_int_max_neg(cc_contract_t *c, cc_field_t *f)
{
    s_int(c, f);
    f->value.has_maximum = true;
    f->value.maximum = -1;
}
static void s_int_example_null(cc_contract_t *c, cc_field_t *f)
{
    s_int(c, f);
    f->example = xdup("42");
    f->nullable = true;
}
static void s_number_min(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_NUMBER;
    f->value.has_minimum = true;
    f->value.number_minimum = 0.5;
    f->value.minimum_text = xdup("0.5");
}
static void s_number_bounds_unwritten(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_NUMBER;
    f->value.has_minimum = f->value.has_maximum = true;
    f->value.number_minimum = -1.5;
    f->value.number_maximum = 1e3;
}
static void s_bool(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_BOOLEAN;
    f->description = xdup("whether it shipped");
}
static void s_dec(cc_contract_t *c, cc_field_t *f, uint8_t scale)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_DECIMAL;
    f->value.scale = scale;
}
static void s_dec0(cc_contract_t *c, cc_field_t *f) { s_dec(c, f, 0); }
static void s_dec1(cc_contract_t *c, cc_field_t *f) { s_dec(c, f, 1); }
static void s_dec3_signed(cc_contract_t *c, cc_field_t *f)
{
    s_dec(c, f, 3);
    f->value.is_signed = true;
}
static void s_dec18(cc_contract_t *c, cc_field_t *f) { s_dec(c, f, 18); }
static void s_dec_bounds(cc_contract_t *c, cc_field_t *f)
{
    s_dec(c, f, 2);
    f->value.has_minimum = f->value.has_maximum = true;
    f->value.minimum = 1;
    f->value.maximum = 10000;
    f->value.minimum_text = xdup("0.01");
    f->value.maximum_text = xdup("100.00");
}
static void s_dec_min_unwritten(cc_contract_t *c, cc_field_t *f)
{
    s_dec(c, f, 2);
    f->value.has_minimum = true;
    f->value.minimum = 200000;
}
static void s_dec_example(cc_contract_t *c, cc_field_t *f)
{
    s_dec(c, f, 2);
    f->example = xdup("19.99");
    f->description = xdup("the price");
}
static void s_enum1(cc_contract_t *c, cc_field_t *f)
{
    static const char *const v[] = {"only"};
    (void)c;
    f->value.type = CONTRACTC_TYPE_ENUM;
    f->value.enumeration = new_enum(v, 1);
}
static void s_enum2(cc_contract_t *c, cc_field_t *f)
{
    static const char *const v[] = {"yes", "no"};
    (void)c;
    f->value.type = CONTRACTC_TYPE_ENUM;
    f->value.enumeration = new_enum(v, 2);
    f->nullable = true;
}
static void s_date(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_DATE;
}
static void s_date_example(cc_contract_t *c, cc_field_t *f)
{
    s_date(c, f);
    f->example = xdup("1999-12-31");
    f->nullable = true;
}
static void s_datetime(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_DATETIME;
}
static void s_object(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_OBJECT;
    f->value.object = new_object(2);
    f->description = xdup("the customer");
    f->nullable = true;
    set_field(f->value.object, 0, "name", CONTRACTC_TYPE_STRING);
    cc_field_t *addr = set_field(f->value.object, 1, "address", CONTRACTC_TYPE_OBJECT);
    addr->value.object = new_object(1);
    set_field(addr->value.object, 0, "city", CONTRACTC_TYPE_STRING);
}
static void s_array_int(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_ARRAY;
    f->value.has_min_items = f->value.has_max_items = true;
    f->value.min_items = 1;
    f->value.max_items = 5;
    f->value.items = xcalloc(1, sizeof *f->value.items);
    f->value.items->type = CONTRACTC_TYPE_INTEGER;
    f->value.items->has_minimum = true;
}
static void s_array_unbounded_strings(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_ARRAY;
    f->value.items = xcalloc(1, sizeof *f->value.items);
    f->value.items->type = CONTRACTC_TYPE_STRING;
    f->value.items->has_max_length = true;
    f->value.items->max_length = 20;
    f->description = xdup("the tags");
}
static void s_array_of_arrays(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_ARRAY;
    f->value.has_min_items = true;
    f->value.min_items = 0;
    cc_value_t *inner = f->value.items = xcalloc(1, sizeof *f->value.items);
    inner->type = CONTRACTC_TYPE_ARRAY;
    inner->has_min_items = inner->has_max_items = true;
    inner->min_items = inner->max_items = 2;
    inner->items = xcalloc(1, sizeof *inner->items);
    inner->items->type = CONTRACTC_TYPE_OBJECT;
    inner->items->object = new_object(1);
    set_field(inner->items->object, 0, "y", CONTRACTC_TYPE_BOOLEAN);
}
static void s_array_items_with_rule(cc_contract_t *c, cc_field_t *f)
{
    (void)c;
    f->value.type = CONTRACTC_TYPE_ARRAY;
    f->value.has_min_items = f->value.has_max_items = true;
    f->value.min_items = f->value.max_items = 1;
    f->value.items = xcalloc(1, sizeof *f->value.items);
    f->value.items->type = CONTRACTC_TYPE_OBJECT;
    cc_object_t *o = f->value.items->object = new_object(2);
    set_field(o, 0, "start", CONTRACTC_TYPE_DATE);
    set_field(o, 1, "end", CONTRACTC_TYPE_DATE);
    cc_rule_t *r = add_rules(o, 1);
    r->kind = CC_RULE_COMPARE;
    r->left.text = xdup("start");
    r->right.text = xdup("end");
    r->op = CONTRACTC_OP_LE;
}

static void s_rules(cc_contract_t *c, cc_field_t *f)
{
    static const char *const abc[] = {"x", "b", "c"};
    f->nullable = true;
    cc_rule_t *r = add_rules(&c->root, 3);
    r[0].kind = CC_RULE_AT_MOST_ONE;
    set_paths(&r[0], abc, 3);
    r[1].kind = CC_RULE_ALL_OR_NONE;
    set_paths(&r[1], abc, 2);
    r[2].kind = CC_RULE_CHECK;
    r[2].function = xdup("check_x");
    r[2].message = xdup("Must be fine!");
}

static const struct phrase_case {
    const char *name;
    setup_fn setup;
    const char *section;
} phrase_cases[] = {
    {"plain text", s_text, "x: text\n"},
    {"described text", s_text_desc, "x: the name\n"},
    {"length 1..80", s_text_1_80, "x: text, 1 to 80 characters\n"},
    {"min length 1", s_text_min1, "x: text, at least 1 character\n"},
    {"max length 1", s_text_max1, "x: text, at most 1 character\n"},
    {"exact length", s_text_exact3, "x: a code; exactly 3 characters\n"},
    {"min length 0 says nothing", s_text_min0, "x: text\n"},
    {"pattern", s_text_pattern, "x: text, matching A-[0-9]+\n"},
    {"string example", s_text_example, "x: text, like \"ACME \\\"GmbH\\\"\"\n"},
    {"grounded", s_grounded, "x: text, copied exactly from the customer email\n"},
    {"grounded described", s_grounded_desc,
     "x: the name as written; copied exactly from the customer email\n"},
    {"grounded verbatim", s_grounded_verbatim, "x: the name, VERBATIM\n"},
    {"grounded source name", s_grounded_no_source_description,
     "x: text, copied exactly from the letter, or null\n"},
    {"format_text", s_format_text, "x: the country; two capital letters\n"},
    {"folded description", s_folded_desc, "x: the long name of it\n"},
    {"integer", s_int, "x: a whole number\n"},
    {"integer 0..100", s_int_0_100, "x: a whole number from 0 to 100\n"},
    {"integer min 0", s_int_min0, "x: a whole number 0 or more\n"},
    {"integer max -1", s_int_max_neg, "x: a whole number -1 or less\n"},
    {"integer example", s_int_example_null, "x: a whole number, like 42, or null\n"},
    {"number min", s_number_min, "x: a number 0.5 or more\n"},
    {"number bounds", s_number_bounds_unwritten, "x: a number from -1.5 to 1000\n"},
    {"boolean", s_bool, "x: whether it shipped; true or false\n"},
    {"decimal scale 0", s_dec0, "x: like \"1250\" (whole number, no dot, no separators)\n"},
    {"decimal scale 1", s_dec1, "x: like \"1250.0\" (dot, one decimal, no separators)\n"},
    {"decimal signed", s_dec3_signed,
     "x: like \"1250.000\" (dot, three decimals, may start with -, no separators)\n"},
    {"decimal scale 18", s_dec18,
     "x: like \"1.000000000000000000\" (dot, 18 decimals, no separators)\n"},
    {"decimal bounds", s_dec_bounds,
     "x: like \"100.00\" (dot, two decimals, no separators), from 0.01 to 100.00\n"},
    {"decimal minimum", s_dec_min_unwritten,
     "x: like \"2000.00\" (dot, two decimals, no separators), 2000.00 or more\n"},
    {"decimal example", s_dec_example,
     "x: the price; like \"19.99\" (dot, two decimals, no separators)\n"},
    {"enum of one", s_enum1, "x: \"only\"\n"},
    {"enum of two", s_enum2, "x: \"yes\" or \"no\", or null\n"},
    {"date", s_date, "x: like \"2024-03-01\" (YYYY-MM-DD)\n"},
    {"date example", s_date_example, "x: like \"1999-12-31\" (YYYY-MM-DD), or null\n"},
    {"datetime", s_datetime,
     "x: like \"2024-03-01T14:30:00Z\" (RFC 3339 with seconds and an offset)\n"},
    {"object", s_object,
     "x: the customer; an object with the keys below, or null\n"
     "x.name: text\n"
     "x.address: an object with the keys below\n"
     "x.address.city: text\n"},
    {"array of integers", s_array_int, "x: a list of 1 to 5 items, each a whole number 0 or more\n"},
    {"array of strings", s_array_unbounded_strings,
     "x: the tags; a list of items, each text, at most 20 characters\n"},
    {"array of arrays", s_array_of_arrays,
     "x: a list of items, each a list of exactly 2 items, each an object with the keys below\n"
     "x[][].y: true or false\n"},
    {"item rules", s_array_items_with_rule,
     "x: a list of exactly 1 item, each an object with the keys below\n"
     "x[].start: like \"2024-03-01\" (YYYY-MM-DD)\n"
     "x[].end: like \"2024-03-01\" (YYYY-MM-DD)\n"
     "For each x[] item: start must be less than or equal to end.\n"},
    {"generated rule lines", s_rules,
     "x: text, or null\n"
     "At most one of x, b and c may be set.\n"
     "x and b must be all null or all set.\n"}, /* the check has no prompt: no line */
};

START_TEST(field_lines_follow_the_format_phrase_table)
{
    const struct phrase_case *pc = &phrase_cases[_i];
    cc_contract_t *c = new_contract("t", "Do it.", 1);
    cc_field_t *f = set_field(&c->root, 0, "x", CONTRACTC_TYPE_STRING);
    pc->setup(c, f);
    char *p = prompt_of(c);
    char *section = key_section(p);
    ck_assert_ptr_nonnull(section);
    ck_assert_msg(strcmp(section, pc->section) == 0, "%s:\n got: %s\nwant: %s", pc->name,
                  section, pc->section);
    ck_assert(strncmp(p, "Do it.\n\n", 8) == 0);
    free(section);
    free(p);
    cc_contract_free(c);
}
END_TEST

START_TEST(prompt_under_a_comma_locale_equals_the_c_locale_prompt)
{
    cc_contract_t *c = refund_contract();
    cc_contract_t *n = new_contract("t", "Do it.", 1);
    cc_field_t *f = set_field(&n->root, 0, "x", CONTRACTC_TYPE_STRING);
    s_number_bounds_unwritten(n, f);
    char *p_c = prompt_of(c), *n_c = prompt_of(n), *s_c = schema_of(n);

    const char *old = setlocale(LC_ALL, NULL);
    char *saved = xdup(old ? old : "C");
    if (!setlocale(LC_ALL, "de_DE.UTF-8") && !setlocale(LC_ALL, "de_DE.utf8")) {
        fprintf(stderr, "skipped: locale de_DE.UTF-8 is not installed\n");
    } else {
        char *p_de = prompt_of(c), *n_de = prompt_of(n), *s_de = schema_of(n);
        setlocale(LC_ALL, saved);
        ck_assert_str_eq(p_de, p_c);
        ck_assert_str_eq(n_de, n_c);
        ck_assert_str_eq(s_de, s_c);
        free(p_de);
        free(n_de);
        free(s_de);
    }
    setlocale(LC_ALL, saved);
    free(saved);
    free(p_c);
    free(n_c);
    free(s_c);
    cc_contract_free(c);
    cc_contract_free(n);
}
END_TEST

/* ---- value examples -------------------------------------------------- */

static const struct example_case {
    const char *name;
    setup_fn setup;
    const char *json; /* NULL: no example */
} example_cases[] = {
    {"plain string", s_text, NULL},
    {"patterned string", s_text_pattern, NULL},
    {"string example is JSON-escaped", s_text_example, "\"ACME \\\"GmbH\\\"\""},
    {"integer without bounds", s_int, "0"},
    {"integer below its range", s_int_max_neg, "-1"},
    {"integer example as written", s_int_example_null, "42"},
    {"number clamped to its minimum", s_number_min, "0.5"},
    {"number between its bounds", s_number_bounds_unwritten, "0"},
    {"boolean", s_bool, "true"},
    {"decimal scale 0", s_dec0, "\"1250\""},
    {"decimal scale 1", s_dec1, "\"1250.0\""},
    {"decimal scale 3", s_dec3_signed, "\"1250.000\""},
    {"decimal scale 18", s_dec18, "\"1.000000000000000000\""},
    {"decimal clamped to maximum", s_dec_bounds, "\"100.00\""},
    {"decimal clamped to minimum", s_dec_min_unwritten, "\"2000.00\""},
    {"decimal example", s_dec_example, "\"19.99\""},
    {"enum", s_enum2, "\"yes\""},
    {"date", s_date, "\"2024-03-01\""},
    {"date example", s_date_example, "\"1999-12-31\""},
    {"datetime", s_datetime, "\"2024-03-01T14:30:00Z\""},
    {"object", s_object, NULL},
    {"array", s_array_int, NULL},
};

START_TEST(value_examples_are_json_text_of_the_fields_type)
{
    const struct example_case *ec = &example_cases[_i];
    cc_contract_t *c = new_contract("t", "Do it.", 1);
    cc_field_t *f = set_field(&c->root, 0, "x", CONTRACTC_TYPE_STRING);
    ec->setup(c, f);
    char *ex = cc_value_example(f);
    if (!ec->json) {
        ck_assert_msg(ex == NULL, "%s: got %s", ec->name, ex);
    } else {
        ck_assert_msg(ex != NULL, "%s: no example", ec->name);
        ck_assert_msg(strcmp(ex, ec->json) == 0, "%s: got %s, want %s", ec->name, ex, ec->json);
    }
    free(ex);
    cc_contract_free(c);
}
END_TEST

/* ---- rule sentences -------------------------------------------------- */

START_TEST(rule_sentences_name_their_fields)
{
    static const char *const three[] = {"amount", "currency", "amount_text"};
    static const char *const two[] = {"email", "phone"};
    static const char *const one[] = {"a"};
    static const struct {
        contractc_compare_op_t op;
        const char *sentence;
    } ops[] = {
        {CONTRACTC_OP_LT, "start must be less than end"},
        {CONTRACTC_OP_LE, "start must be less than or equal to end"},
        {CONTRACTC_OP_EQ, "start must be equal to end"},
        {CONTRACTC_OP_NE, "start must be different from end"},
        {CONTRACTC_OP_GE, "start must be greater than or equal to end"},
        {CONTRACTC_OP_GT, "start must be greater than end"},
    };
    cc_object_t owner = {0};
    cc_rule_t r;
    char *s;

    memset(&r, 0, sizeof r);
    r.kind = CC_RULE_ALL_OR_NONE;
    set_paths(&r, three, 3);
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "amount, currency and amount_text must be all null or all set");
    free(s);
    r.kind = CC_RULE_AT_MOST_ONE;
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "at most one of amount, currency and amount_text may be set");
    free(s);
    r.field_count = 2;
    r.fields[0].text[0] = 'A'; /* operands are written as given */
    r.kind = CC_RULE_EXACTLY_ONE;
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "exactly one of Amount and currency must be set");
    free(s);
    r.field_count = 3;
    for (size_t i = 0; i < 3; i++)
        free(r.fields[i].text);
    free(r.fields);

    memset(&r, 0, sizeof r);
    r.kind = CC_RULE_EXACTLY_ONE;
    set_paths(&r, two, 2);
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "exactly one of email and phone must be set");
    free(s);
    free(r.fields[0].text);
    free(r.fields[1].text);
    free(r.fields);
    set_paths(&r, one, 1);
    r.kind = CC_RULE_AT_MOST_ONE;
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "at most one of a may be set");
    free(s);
    free(r.fields[0].text);
    free(r.fields);

    memset(&r, 0, sizeof r);
    r.kind = CC_RULE_SUM;
    r.of.text = xdup("line_items[].amount_cents");
    r.equals.text = xdup("invoice_total_cents");
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "the sum of line_items[].amount_cents must equal invoice_total_cents");
    free(s);
    r.tolerance = 1;
    r.tolerance_text = xdup("1");
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(
        s, "the sum of line_items[].amount_cents must equal invoice_total_cents (within 1)");
    free(s);
    free(r.tolerance_text);
    r.tolerance_text = xdup("0.00");
    r.tolerance = 0; /* a zero tolerance is not worth a word */
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "the sum of line_items[].amount_cents must equal invoice_total_cents");
    free(s);
    free(r.tolerance_text);
    r.tolerance_text = xdup("0.01");
    r.tolerance = 1;
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(
        s, "the sum of line_items[].amount_cents must equal invoice_total_cents (within 0.01)");
    free(s);
    free(r.tolerance_text);
    free(r.of.text);
    free(r.equals.text);

    memset(&r, 0, sizeof r);
    r.kind = CC_RULE_COMPARE;
    r.left.text = xdup("start");
    r.right.text = xdup("end");
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        r.op = ops[i].op;
        s = cc_rule_sentence(&owner, &r);
        ck_assert_str_eq(s, ops[i].sentence);
        free(s);
    }
    free(r.left.text);
    free(r.right.text);

    memset(&r, 0, sizeof r);
    r.kind = CC_RULE_CHECK;
    r.function = xdup("check_vat");
    r.message = xdup("the VAT number must be valid");
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "the VAT number must be valid");
    free(s);
    free(r.message);
    r.message = NULL;
    s = cc_rule_sentence(&owner, &r);
    ck_assert_str_eq(s, "the check check_vat must pass");
    free(s);
    free(r.function);
}
END_TEST

/* ---- the schema ------------------------------------------------------ */

static const char k_refund_schema[] =
    "{\n"
    "  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\",\n"
    "  \"$id\": \"urn:contractc:refund_request:v1\",\n"
    "  \"title\": \"refund_request\",\n"
    "  \"description\": \"A refund request read from one customer email.\",\n"
    "  \"type\": \"object\",\n"
    "  \"properties\": {\n"
    "    \"order_id\": {\n"
    "      \"description\": \"\\\"A-\\\" followed by digits, as written in the email\",\n"
    "      \"type\": \"string\",\n"
    "      \"pattern\": \"^(A-[0-9]+)$\"\n"
    "    },\n"
    "    \"amount\": {\n"
    "      \"type\": [\n"
    "        \"string\",\n"
    "        \"null\"\n"
    "      ],\n"
    "      \"pattern\": \"^(0|[1-9][0-9]*)\\\\.[0-9]{2}$\"\n"
    "    },\n"
    "    \"currency\": {\n"
    "      \"anyOf\": [\n"
    "        {\n"
    "          \"type\": \"string\",\n"
    "          \"enum\": [\n"
    "            \"EUR\",\n"
    "            \"GBP\",\n"
    "            \"USD\"\n"
    "          ]\n"
    "        },\n"
    "        {\n"
    "          \"type\": \"null\"\n"
    "        }\n"
    "      ]\n"
    "    },\n"
    "    \"amount_text\": {\n"
    "      \"description\": \"the amount exactly as written in the email\",\n"
    "      \"type\": [\n"
    "        \"string\",\n"
    "        \"null\"\n"
    "      ]\n"
    "    },\n"
    "    \"reason\": {\n"
    "      \"type\": \"string\",\n"
    "      \"enum\": [\n"
    "        \"duplicate_charge\",\n"
    "        \"not_received\",\n"
    "        \"damaged\",\n"
    "        \"other\"\n"
    "      ]\n"
    "    }\n"
    "  },\n"
    "  \"required\": [\n"
    "    \"order_id\",\n"
    "    \"amount\",\n"
    "    \"currency\",\n"
    "    \"amount_text\",\n"
    "    \"reason\"\n"
    "  ],\n"
    "  \"additionalProperties\": false\n"
    "}\n";

START_TEST(refund_schema_is_the_portable_mapping)
{
    static const char *const root_keys[] = {"$schema", "$id", "title", "description", "type",
                                            "properties", "required", "additionalProperties"};
    static const char *const fields[] = {"order_id", "amount", "currency", "amount_text",
                                         "reason"};
    static const char *const string_null[] = {"string", "null"};
    static const char *const currencies[] = {"EUR", "GBP", "USD"};
    cc_contract_t *c = refund_contract();
    char *s = schema_of(c);
    cJSON *root = cJSON_Parse(s);
    ck_assert_ptr_nonnull(root);

    assert_keys(root, root_keys, 8);
    ck_assert_str_eq(get(root, "$schema")->valuestring,
                     "https://json-schema.org/draft/2020-12/schema");
    ck_assert_str_eq(get(root, "title")->valuestring, "refund_request");
    ck_assert_str_eq(get(root, "type")->valuestring, "object");
    ck_assert(cJSON_IsFalse(get(root, "additionalProperties")));
    assert_strings(get(root, "required"), fields, 5);
    const cJSON *props = get(root, "properties");
    assert_keys(props, fields, 5);

    ck_assert_str_eq(get(get(props, "order_id"), "pattern")->valuestring, "^(A-[0-9]+)$");
    const cJSON *amount = get(props, "amount");
    assert_strings(get(amount, "type"), string_null, 2);
    ck_assert_str_eq(get(amount, "pattern")->valuestring, "^(0|[1-9][0-9]*)\\.[0-9]{2}$");

    const cJSON *any = get(get(props, "currency"), "anyOf");
    ck_assert_int_eq(cJSON_GetArraySize(any), 2);
    ck_assert_str_eq(get(any->child, "type")->valuestring, "string");
    assert_strings(get(any->child, "enum"), currencies, 3);
    ck_assert_str_eq(get(any->child->next, "type")->valuestring, "null");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(get(props, "currency"), "type"));

    assert_strings(get(get(props, "amount_text"), "type"), string_null, 2);
    ck_assert_str_eq(get(get(props, "reason"), "type")->valuestring, "string");

    /* ... and the exact bytes: two-space indents, one final newline. */
    ck_assert_str_eq(s, k_refund_schema);
    cJSON_Delete(root);
    free(s);
    cc_contract_free(c);
}
END_TEST

START_TEST(invoice_schema_inlines_the_named_item_type)
{
    static const char *const item_keys[] = {"description", "amount_cents"};
    static const char *const array_keys[] = {"type", "items", "minItems", "maxItems"};
    cc_contract_t *c = invoice_contract();
    char *s = schema_of(c);
    ck_assert_ptr_null(strstr(s, "$ref"));
    ck_assert_ptr_null(strstr(s, "$defs"));
    ck_assert_ptr_null(strstr(s, "line_item\""));
    cJSON *root = cJSON_Parse(s);
    ck_assert_ptr_nonnull(root);

    const cJSON *props = get(root, "properties");
    ck_assert_double_eq(number_at(get(props, "vendor_name"), "minLength"), 1);
    const cJSON *total = get(props, "invoice_total_cents");
    ck_assert_str_eq(get(total, "type")->valuestring, "integer");
    ck_assert_double_eq(number_at(total, "minimum"), 0);
    ck_assert_double_eq(number_at(total, "maximum"), 9007199254740991.0);

    const cJSON *lines = get(props, "line_items");
    ck_assert_ptr_null(cJSON_GetObjectItemCaseSensitive(lines, "description"));
    assert_keys(lines, array_keys, 4);
    ck_assert_str_eq(get(lines, "type")->valuestring, "array");
    ck_assert_double_eq(number_at(lines, "minItems"), 1);
    ck_assert_double_eq(number_at(lines, "maxItems"), 200);
    const cJSON *item = get(lines, "items");
    ck_assert_str_eq(get(item, "type")->valuestring, "object");
    assert_keys(get(item, "properties"), item_keys, 2);
    assert_strings(get(item, "required"), item_keys, 2);
    ck_assert(cJSON_IsFalse(get(item, "additionalProperties")));
    const cJSON *cents = get(get(item, "properties"), "amount_cents");
    ck_assert_str_eq(get(cents, "description")->valuestring, "the line's amount in cents");
    ck_assert_double_eq(number_at(cents, "minimum"), 0);
    ck_assert_double_eq(number_at(cents, "maximum"), 9007199254740991.0);
    ck_assert(strstr(s, "\"maximum\": 9007199254740991\n") != NULL);
    ck_assert(strstr(s, "\"minItems\": 1,\n") != NULL);

    cJSON_Delete(root);
    free(s);
    cc_contract_free(c);
}
END_TEST

/* Compact JSON of a parsed tree, keys in order.  Not cJSON_PrintUnformatted:
 * that writes 9007199254740991 as 9.00719925474099e+15. */
static void compact(cc_buf_t *b, const cJSON *item)
{
    if (cJSON_IsObject(item) || cJSON_IsArray(item)) {
        bool is_obj = cJSON_IsObject(item) != 0;
        cc_buf_putc(b, is_obj ? '{' : '[');
        for (const cJSON *e = item->child; e; e = e->next) {
            if (is_obj) {
                cc_buf_json_string(b, e->string, strlen(e->string));
                cc_buf_putc(b, ':');
            }
            compact(b, e);
            if (e->next)
                cc_buf_putc(b, ',');
        }
        cc_buf_putc(b, is_obj ? '}' : ']');
    } else if (cJSON_IsString(item)) {
        cc_buf_json_string(b, item->valuestring, strlen(item->valuestring));
    } else if (cJSON_IsNumber(item)) {
        double d = item->valuedouble;
        if (d == (double)(int64_t)d)
            cc_buf_printf(b, "%" PRId64, (int64_t)d);
        else
            cc_buf_printf(b, "%.17g", d);
    } else {
        cc_buf_puts(b, cJSON_IsTrue(item) ? "true" : cJSON_IsFalse(item) ? "false" : "null");
    }
}

/* One-field schemas: the property's keywords as compact JSON text. */
static const struct schema_case {
    const char *name;
    setup_fn setup;
    const char *property; /* cJSON_PrintUnformatted of properties.x */
} schema_cases[] = {
    {"plain string", s_text, "{\"type\":\"string\"}"},
    {"string bounds", s_text_1_80, "{\"type\":\"string\",\"minLength\":1,\"maxLength\":80}"},
    {"grounded string notes its source", s_grounded_desc,
     "{\"description\":\"the name as written; copied exactly from the customer email\","
     "\"type\":\"string\"}"},
    {"format_text joins the description", s_format_text,
     "{\"description\":\"the country; two capital letters\",\"type\":\"string\","
     "\"pattern\":\"^([A-Z]{2})$\"}"},
    {"integer without bounds", s_int,
     "{\"type\":\"integer\",\"minimum\":-9007199254740991,\"maximum\":9007199254740991}"},
    {"nullable integer", s_int_example_null,
     "{\"type\":[\"integer\",\"null\"],\"minimum\":-9007199254740991,"
     "\"maximum\":9007199254740991}"},
    {"number bounds", s_number_bounds_unwritten,
     "{\"type\":\"number\",\"minimum\":-1.5,\"maximum\":1000}"},
    {"boolean", s_bool, "{\"description\":\"whether it shipped\",\"type\":\"boolean\"}"},
    {"decimal scale 0", s_dec0, "{\"type\":\"string\",\"pattern\":\"^(0|[1-9][0-9]*)$\"}"},
    {"signed decimal", s_dec3_signed,
     "{\"type\":\"string\",\"pattern\":\"^-?(0|[1-9][0-9]*)\\\\.[0-9]{3}$\"}"},
    {"decimal bounds have no schema form", s_dec_bounds,
     "{\"type\":\"string\",\"pattern\":\"^(0|[1-9][0-9]*)\\\\.[0-9]{2}$\"}"},
    {"nullable enum", s_enum2,
     "{\"anyOf\":[{\"type\":\"string\",\"enum\":[\"yes\",\"no\"]},{\"type\":\"null\"}]}"},
    {"date", s_date, "{\"type\":\"string\",\"format\":\"date\"}"},
    {"nullable date", s_date_example, "{\"type\":[\"string\",\"null\"],\"format\":\"date\"}"},
    {"datetime", s_datetime, "{\"type\":\"string\",\"format\":\"date-time\"}"},
    {"nullable object", s_object,
     "{\"description\":\"the customer\",\"anyOf\":[{\"type\":\"object\",\"properties\":{"
     "\"name\":{\"type\":\"string\"},\"address\":{\"type\":\"object\",\"properties\":{"
     "\"city\":{\"type\":\"string\"}},\"required\":[\"city\"],\"additionalProperties\":false}},"
     "\"required\":[\"name\",\"address\"],\"additionalProperties\":false},{\"type\":\"null\"}]}"},
    {"array of integers", s_array_int,
     "{\"type\":\"array\",\"items\":{\"type\":\"integer\",\"minimum\":0,"
     "\"maximum\":9007199254740991},\"minItems\":1,\"maxItems\":5}"},
    {"array of arrays", s_array_of_arrays,
     "{\"type\":\"array\",\"items\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
     "\"properties\":{\"y\":{\"type\":\"boolean\"}},\"required\":[\"y\"],"
     "\"additionalProperties\":false},\"minItems\":2,\"maxItems\":2},\"minItems\":0}"},
};

START_TEST(property_schemas_follow_the_portable_mapping)
{
    const struct schema_case *sc = &schema_cases[_i];
    cc_contract_t *c = new_contract("t", "Do it.", 1);
    cc_field_t *f = set_field(&c->root, 0, "x", CONTRACTC_TYPE_STRING);
    sc->setup(c, f);
    char *s = schema_of(c);
    cJSON *root = cJSON_Parse(s);
    ck_assert_ptr_nonnull(root);
    cc_buf_t b = CC_BUF_INIT;
    compact(&b, get(get(root, "properties"), "x"));
    char *text = cc_buf_take(&b, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strcmp(text, sc->property) == 0, "%s:\n got: %s\nwant: %s", sc->name, text,
                  sc->property);
    free(text);
    cJSON_Delete(root);
    free(s);
    cc_contract_free(c);
}
END_TEST

START_TEST(schema_is_byte_identical_across_runs)
{
    cc_contract_t *a = invoice_contract(), *b = invoice_contract();
    char *s1 = schema_of(a), *s2 = schema_of(a), *s3 = schema_of(b);
    ck_assert_str_eq(s1, s2);
    ck_assert_str_eq(s1, s3);
    size_t n = strlen(s1);
    ck_assert(n >= 2 && s1[n - 1] == '\n' && s1[n - 2] == '}');
    free(s1);
    free(s2);
    free(s3);
    cc_contract_free(a);
    cc_contract_free(b);
}
END_TEST

/* ---- canonical model and hash ---------------------------------------- */

static const char k_refund_model[] =
    "{\"contract\":\"refund_request\",\"version\":1,"
    "\"reply\":{\"fence\":\"allow\",\"max_bytes\":1048576,\"max_depth\":64},"
    "\"source\":true,\"fields\":["
    "{\"name\":\"order_id\",\"nullable\":false,\"type\":\"string\",\"min_length\":0,"
    "\"max_length\":null,\"pattern\":\"A-[0-9]+\",\"grounded\":false},"
    "{\"name\":\"amount\",\"nullable\":true,\"type\":\"decimal\",\"scale\":2,"
    "\"signed\":false,\"minimum\":null,\"maximum\":null},"
    "{\"name\":\"currency\",\"nullable\":true,\"type\":\"enum\","
    "\"values\":[\"EUR\",\"GBP\",\"USD\"]},"
    "{\"name\":\"amount_text\",\"nullable\":true,\"type\":\"string\",\"min_length\":0,"
    "\"max_length\":null,\"pattern\":null,\"grounded\":true},"
    "{\"name\":\"reason\",\"nullable\":false,\"type\":\"enum\","
    "\"values\":[\"duplicate_charge\",\"not_received\",\"damaged\",\"other\"]}],"
    "\"rules\":[{\"kind\":\"all_or_none\",\"id\":\"rules[0]\","
    "\"fields\":[\"amount\",\"currency\",\"amount_text\"]}]}";

START_TEST(refund_canonical_model_is_compact_json_in_contract_order)
{
    cc_contract_t *c = refund_contract();
    size_t len = 0;
    char *m = cc_canonical_model(c, &len);
    ck_assert_ptr_nonnull(m);
    ck_assert_uint_eq(len, strlen(m));
    ck_assert_str_eq(m, k_refund_model);
    cJSON *parsed = cJSON_Parse(m);
    ck_assert_ptr_nonnull(parsed);
    cJSON_Delete(parsed);
    free(m);
    cc_contract_free(c);
}
END_TEST

START_TEST(invoice_canonical_model_inlines_items_and_resolves_defaults)
{
    cc_contract_t *c = invoice_contract();
    char *m = cc_canonical_model(c, NULL);
    ck_assert_ptr_nonnull(m);
    ck_assert_str_eq(
        m, "{\"contract\":\"invoice\",\"version\":1,"
           "\"reply\":{\"fence\":\"allow\",\"max_bytes\":1048576,\"max_depth\":64},"
           "\"source\":false,\"fields\":["
           "{\"name\":\"vendor_name\",\"nullable\":false,\"type\":\"string\",\"min_length\":1,"
           "\"max_length\":null,\"pattern\":null,\"grounded\":false},"
           "{\"name\":\"invoice_total_cents\",\"nullable\":false,\"type\":\"integer\","
           "\"minimum\":0,\"maximum\":9007199254740991},"
           "{\"name\":\"line_items\",\"nullable\":false,\"type\":\"array\",\"min_items\":1,"
           "\"max_items\":200,\"items\":{\"type\":\"object\",\"fields\":["
           "{\"name\":\"description\",\"nullable\":false,\"type\":\"string\",\"min_length\":0,"
           "\"max_length\":null,\"pattern\":null,\"grounded\":false},"
           "{\"name\":\"amount_cents\",\"nullable\":false,\"type\":\"integer\",\"minimum\":0,"
           "\"maximum\":9007199254740991}],\"rules\":[]}}],"
           "\"rules\":[{\"kind\":\"sum\",\"id\":\"rules[0]\","
           "\"of\":\"line_items[].amount_cents\",\"equals\":\"invoice_total_cents\","
           "\"tolerance\":1}]}");
    free(m);
    cc_contract_free(c);
}
END_TEST

/* Computes the hash of a contract's own schema and prompt. */
static void hash_of(const cc_contract_t *c, char out[72])
{
    size_t slen = 0, plen = 0;
    char *s = cc_emit_schema(c, &slen);
    char *p = cc_emit_prompt(c, &plen);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(p);
    ck_assert(cc_contract_hash(c, s, slen, p, plen, out));
    free(s);
    free(p);
}

START_TEST(hash_is_sha256_over_the_framed_parts)
{
    cc_contract_t *c = refund_contract();
    size_t mlen = 0, slen = 0, plen = 0;
    char *m = cc_canonical_model(c, &mlen);
    char *s = cc_emit_schema(c, &slen);
    char *p = cc_emit_prompt(c, &plen);
    ck_assert_ptr_nonnull(m);
    ck_assert_ptr_nonnull(s);
    ck_assert_ptr_nonnull(p);

    /* The framing, spelt out independently: one buffer, one-shot digest. */
    size_t cap = 64 + mlen + slen + plen;
    char *all = xcalloc(1, cap);
    int n = snprintf(all, cap, "contractc-hash-v1\n%zu\n%s%zu\n%s%zu\n%s", mlen, m, slen, s,
                     plen, p);
    ck_assert_int_gt(n, 0);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    ck_assert_int_eq(EVP_Digest(all, (size_t)n, digest, &dlen, EVP_sha256(), NULL), 1);
    ck_assert_uint_eq(dlen, 32);
    char want[72] = "sha256:";
    for (unsigned i = 0; i < 32; i++)
        snprintf(want + 7 + 2 * i, 3, "%02x", digest[i]);

    char got[72];
    memset(got, 'X', sizeof got);
    ck_assert(cc_contract_hash(c, s, slen, p, plen, got));
    ck_assert_uint_eq(strlen(got), 71);
    ck_assert_str_eq(got, want);
    for (size_t i = 7; i < 71; i++)
        ck_assert((got[i] >= '0' && got[i] <= '9') || (got[i] >= 'a' && got[i] <= 'f'));

    char again[72];
    hash_of(c, again);
    ck_assert_str_eq(again, got);

    free(all);
    free(m);
    free(s);
    free(p);
    cc_contract_free(c);
}
END_TEST

START_TEST(hash_frames_each_part_with_its_length)
{
    /* Moving one byte from the schema to the prompt keeps the
     * concatenation but must change the hash. */
    cc_contract_t *c = refund_contract();
    char h1[72], h2[72];
    ck_assert(cc_contract_hash(c, "ab", 2, "c", 1, h1));
    ck_assert(cc_contract_hash(c, "a", 1, "bc", 2, h2));
    ck_assert_str_ne(h1, h2);
    ck_assert(cc_contract_hash(c, "", 0, "", 0, h1));
    ck_assert_uint_eq(strlen(h1), 71);
    cc_contract_free(c);
}
END_TEST

/* Each mutation changes something a verdict, the schema or the prompt
 * depends on, so each must change the hash. */
static void m_scale(cc_contract_t *c) { c->root.fields[1].value.scale = 3; }
static void m_signed(cc_contract_t *c) { c->root.fields[1].value.is_signed = true; }
static void m_nullable(cc_contract_t *c) { c->root.fields[4].nullable = true; }
static void m_pattern(cc_contract_t *c)
{
    free(c->root.fields[0].value.pattern);
    c->root.fields[0].value.pattern = xdup("A-[0-9]{1,9}");
}
static void m_enum_value(cc_contract_t *c)
{
    c->root.fields[2].value.enumeration->values[2][0] = 'X';
}
static void m_grounded(cc_contract_t *c) { c->root.fields[3].value.grounded = false; }
static void m_max_length(cc_contract_t *c)
{
    c->root.fields[3].value.has_max_length = true;
    c->root.fields[3].value.max_length = 40;
}
static void m_version(cc_contract_t *c) { c->version = 2; }
static void m_fence(cc_contract_t *c) { c->fence = CC_FENCE_REJECT; }
static void m_max_bytes(cc_contract_t *c) { c->max_bytes = 4096; }
static void m_max_depth(cc_contract_t *c) { c->max_depth = 8; }
static void m_rule_id(cc_contract_t *c)
{
    free(c->root.rules[0].id);
    c->root.rules[0].id = xdup("amount_group");
}
static void m_rule_prompt(cc_contract_t *c)
{
    free(c->root.rules[0].prompt);
    c->root.rules[0].prompt = NULL;
}
static void m_description(cc_contract_t *c)
{
    free(c->root.fields[3].description);
    c->root.fields[3].description = xdup("the amount as written in the email");
}
static void m_instruction(cc_contract_t *c)
{
    free(c->instruction);
    c->instruction = xdup("Extract the order.");
}
static void m_source(cc_contract_t *c) { c->has_source = false; }

static const struct mutation {
    const char *name;
    void (*apply)(cc_contract_t *c);
} mutations[] = {
    {"scale", m_scale},           {"signed", m_signed},         {"nullable", m_nullable},
    {"pattern", m_pattern},       {"enum value", m_enum_value}, {"grounded", m_grounded},
    {"max_length", m_max_length}, {"version", m_version},       {"fence", m_fence},
    {"max_bytes", m_max_bytes},   {"max_depth", m_max_depth},   {"rule id", m_rule_id},
    {"rule prompt", m_rule_prompt}, {"description", m_description},
    {"instruction", m_instruction}, {"source", m_source},
};

START_TEST(hash_changes_with_every_setting_that_matters)
{
    const struct mutation *mu = &mutations[_i];
    cc_contract_t *a = refund_contract(), *b = refund_contract();
    char ha[72], hb[72];
    hash_of(a, ha);
    hash_of(b, hb);
    ck_assert_str_eq(ha, hb);
    mu->apply(b);
    hash_of(b, hb);
    ck_assert_msg(strcmp(ha, hb) != 0, "%s did not change the hash", mu->name);
    cc_contract_free(a);
    cc_contract_free(b);
}
END_TEST

START_TEST(hash_ignores_what_no_artifact_carries)
{
    /* The named type's name and the file name reach neither verdicts nor
     * the schema nor the prompt. */
    cc_contract_t *a = invoice_contract(), *b = invoice_contract();
    free(b->types[0].name);
    b->types[0].name = xdup("row");
    b->file_name = xdup("elsewhere.contract.yaml");
    char ha[72], hb[72];
    hash_of(a, ha);
    hash_of(b, hb);
    ck_assert_str_eq(ha, hb);
    cc_contract_free(a);
    cc_contract_free(b);
}
END_TEST

/* ---- the same contracts through the YAML loader ---------------------- */

static const char *const k_contract_files[] = {"refund_request", "invoice"};

START_TEST(loaded_contracts_give_the_same_artifacts_as_hand_built_ones)
{
    char path[512];
    snprintf(path, sizeof path, "%s/contracts/%s.contract.yaml", CONTRACTC_TEST_DATA,
             k_contract_files[_i]);
    FILE *probe = fopen(path, "rb");
    if (!probe) {
        fprintf(stderr, "skipped: %s is missing\n", path);
        return;
    }
    fclose(probe);

    cc_diags_t diags;
    cc_diags_init(&diags);
    cc_contract_t *loaded = cc_contract_load(path, &diags);
    if (!loaded)
        cc_diags_print(&diags, stderr);
    ck_assert_ptr_nonnull(loaded);
    cc_diags_free(&diags);
    cc_contract_t *hand = _i == 0 ? refund_contract() : invoice_contract();

    char *p1 = prompt_of(loaded), *p2 = prompt_of(hand);
    ck_assert_str_eq(p1, p2);
    if (_i == 0)
        ck_assert_str_eq(p1, k_refund_prompt);
    char *s1 = schema_of(loaded), *s2 = schema_of(hand);
    ck_assert_str_eq(s1, s2);
    char *m1 = cc_canonical_model(loaded, NULL), *m2 = cc_canonical_model(hand, NULL);
    ck_assert_ptr_nonnull(m1);
    ck_assert_ptr_nonnull(m2);
    ck_assert_str_eq(m1, m2);
    char h1[72], h2[72];
    hash_of(loaded, h1);
    hash_of(hand, h2);
    ck_assert_str_eq(h1, h2);

    free(p1);
    free(p2);
    free(s1);
    free(s2);
    free(m1);
    free(m2);
    cc_contract_free(loaded);
    cc_contract_free(hand);
}
END_TEST

/* ---- runner ---------------------------------------------------------- */

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static Suite *schema_prompt_suite(void)
{
    Suite *s = suite_create("schema_prompt");

    TCase *prompt = tcase_create("prompt");
    tcase_add_test(prompt, refund_prompt_is_the_design_page_example_byte_for_byte);
    tcase_add_test(prompt, invoice_prompt_lists_item_fields_with_their_array_path);
    tcase_add_loop_test(prompt, field_lines_follow_the_format_phrase_table, 0,
                        COUNT(phrase_cases));
    tcase_add_test(prompt, prompt_under_a_comma_locale_equals_the_c_locale_prompt);
    tcase_add_loop_test(prompt, value_examples_are_json_text_of_the_fields_type, 0,
                        COUNT(example_cases));
    tcase_add_test(prompt, rule_sentences_name_their_fields);
    suite_add_tcase(s, prompt);

    TCase *schema = tcase_create("schema");
    tcase_add_test(schema, refund_schema_is_the_portable_mapping);
    tcase_add_test(schema, invoice_schema_inlines_the_named_item_type);
    tcase_add_loop_test(schema, property_schemas_follow_the_portable_mapping, 0,
                        COUNT(schema_cases));
    tcase_add_test(schema, schema_is_byte_identical_across_runs);
    suite_add_tcase(s, schema);

    TCase *hash = tcase_create("hash");
    tcase_add_test(hash, refund_canonical_model_is_compact_json_in_contract_order);
    tcase_add_test(hash, invoice_canonical_model_inlines_items_and_resolves_defaults);
    tcase_add_test(hash, hash_is_sha256_over_the_framed_parts);
    tcase_add_test(hash, hash_frames_each_part_with_its_length);
    tcase_add_loop_test(hash, hash_changes_with_every_setting_that_matters, 0,
                        COUNT(mutations));
    tcase_add_test(hash, hash_ignores_what_no_artifact_carries);
    suite_add_tcase(s, hash);

    TCase *load = tcase_create("load");
    tcase_add_loop_test(load, loaded_contracts_give_the_same_artifacts_as_hand_built_ones, 0,
                        COUNT(k_contract_files));
    suite_add_tcase(s, load);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(schema_prompt_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
