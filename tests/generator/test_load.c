/* SPDX-License-Identifier: MIT */
/*
 * test_load.c - the contract loader on the two example contracts
 * (tests/data/contracts, copied from the shared cases): every value of the
 * model, resolved rules and generated C names.  Plus robustness: the
 * loader never crashes or hangs on hostile input, and reports it.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "model.h"
#include "text.h"

#define DATA CONTRACTC_TEST_DATA "/contracts/"

static cc_contract_t *load_ok(const char *path, cc_diags_t *d)
{
    cc_diags_init(d);
    cc_contract_t *c = cc_contract_load(path, d);
    if (!c || d->errors)
        cc_diags_print(d, stderr);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(d->errors, 0);
    return c;
}

static const cc_field_t *field(const cc_object_t *o, size_t i, const char *name)
{
    ck_assert_uint_gt(o->field_count, i);
    ck_assert_str_eq(o->fields[i].name, name);
    return &o->fields[i];
}

START_TEST(refund_request_loads_with_every_value)
{
    cc_diags_t d;
    cc_contract_t *c = load_ok(DATA "refund_request.contract.yaml", &d);
    ck_assert_uint_eq(d.count, 0);
    ck_assert_str_eq(c->name, "refund_request");
    ck_assert_uint_eq(c->name_mark.line, 2);
    ck_assert_uint_eq(c->name_mark.column, 11);
    ck_assert_str_eq(c->file_name, "refund_request.contract.yaml");
    ck_assert_uint_eq(c->version, 1);
    ck_assert_str_eq(c->description, "A refund request read from one customer email.");
    ck_assert_str_eq(c->instruction,
                     "Extract the order, the amount and the reason from this customer email.\n");
    ck_assert(c->has_source);
    ck_assert_str_eq(c->source_name, "email");
    ck_assert_str_eq(c->source_description, "the customer email");
    ck_assert_uint_eq(c->type_count, 0);
    ck_assert_int_eq(c->fence, CC_FENCE_ALLOW);
    ck_assert_uint_eq(c->max_bytes, 1048576);
    ck_assert_uint_eq(c->max_depth, 64);
    ck_assert(!c->has_max_depth);
    ck_assert_ptr_null(c->default_dialect);
    ck_assert_uint_eq(c->depth, 1);

    const cc_object_t *r = &c->root;
    ck_assert_uint_eq(r->field_count, 5);
    ck_assert_str_eq(r->c_type, "refund_request_t");
    ck_assert_str_eq(r->c_struct, "refund_request");

    const cc_field_t *f = field(r, 0, "order_id");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_STRING);
    ck_assert(!f->nullable);
    ck_assert_str_eq(f->value.pattern, "A-[0-9]+");
    ck_assert_ptr_nonnull(f->value.dfa);
    ck_assert(cc_dfa_matches(f->value.dfa, "A-123", 5));
    ck_assert(!cc_dfa_matches(f->value.dfa, "B-123", 5));
    ck_assert_str_eq(f->format_text, "\"A-\" followed by digits, as written in the email");
    ck_assert_str_eq(f->c_member, "order_id");
    ck_assert_uint_eq(f->mark.line, 11);
    ck_assert_uint_eq(f->mark.column, 3);

    f = field(r, 1, "amount");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_DECIMAL);
    ck_assert_uint_eq(f->value.scale, 2);
    ck_assert(!f->value.is_signed);
    ck_assert(f->nullable);
    ck_assert(!f->value.has_minimum && !f->value.has_maximum);

    f = field(r, 2, "currency");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_ENUM);
    ck_assert(f->nullable);
    const cc_enum_t *e = f->value.enumeration;
    ck_assert_ptr_nonnull(e);
    ck_assert(!e->named);
    ck_assert_uint_eq(e->count, 3);
    ck_assert_str_eq(e->values[0], "EUR");
    ck_assert_str_eq(e->values[1], "GBP");
    ck_assert_str_eq(e->values[2], "USD");
    ck_assert_str_eq(e->c_type, "refund_request_currency_t");
    ck_assert_str_eq(e->c_prefix, "REFUND_REQUEST_CURRENCY");
    ck_assert_str_eq(e->c_constants[0], "REFUND_REQUEST_CURRENCY_EUR");
    ck_assert_str_eq(e->c_constants[2], "REFUND_REQUEST_CURRENCY_USD");

    f = field(r, 3, "amount_text");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_STRING);
    ck_assert(f->value.grounded);
    ck_assert(f->nullable);
    ck_assert_str_eq(f->description, "the amount exactly as written in the email");
    ck_assert_ptr_null(f->value.pattern);

    f = field(r, 4, "reason");
    e = f->value.enumeration;
    ck_assert_uint_eq(e->count, 4);
    ck_assert_str_eq(e->values[1], "not_received");
    ck_assert_str_eq(e->c_constants[1], "REFUND_REQUEST_REASON_NOT_RECEIVED");
    ck_assert_str_eq(e->c_constants[3], "REFUND_REQUEST_REASON_OTHER");

    ck_assert_uint_eq(r->rule_count, 1);
    const cc_rule_t *rule = &r->rules[0];
    ck_assert_int_eq(rule->kind, CC_RULE_ALL_OR_NONE);
    ck_assert_str_eq(rule->id, "rules[0]");
    ck_assert_str_eq(rule->prompt,
                     "If the email states no amount, amount, currency and amount_text are null.");
    ck_assert_uint_eq(rule->field_count, 3);
    const char *names[] = {"amount", "currency", "amount_text"};
    const unsigned idx[] = {1, 2, 3};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_str_eq(rule->fields[i].text, names[i]);
        ck_assert_uint_eq(rule->fields[i].step_count, 1);
        ck_assert_uint_eq(rule->fields[i].steps[0], idx[i]);
        ck_assert_str_eq(cc_path_field(r, &rule->fields[i])->name, names[i]);
    }
    cc_contract_free(c);
    cc_diags_free(&d);
}
END_TEST

START_TEST(invoice_loads_with_its_named_type_and_sum_rule)
{
    cc_diags_t d;
    cc_contract_t *c = load_ok(DATA "invoice.contract.yaml", &d);
    ck_assert_str_eq(c->name, "invoice");
    ck_assert_ptr_null(c->source_name);
    ck_assert(!c->has_source);
    ck_assert_uint_eq(c->depth, 3);

    ck_assert_uint_eq(c->type_count, 1);
    const cc_named_type_t *t = &c->types[0];
    ck_assert_str_eq(t->name, "line_item");
    ck_assert_ptr_null(t->enumeration);
    ck_assert_ptr_nonnull(t->object);
    ck_assert(t->object->named);
    ck_assert_str_eq(t->object->type_name, "line_item");
    ck_assert_str_eq(t->object->c_type, "invoice_line_item_t");
    ck_assert_str_eq(t->object->c_struct, "invoice_line_item");
    ck_assert_uint_eq(t->object->field_count, 2);
    const cc_field_t *f = field(t->object, 1, "amount_cents");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_INTEGER);
    ck_assert(f->value.has_minimum && !f->value.has_maximum);
    ck_assert_int_eq(f->value.minimum, 0);
    ck_assert_uint_eq(f->value.minimum_mark.line, 15);
    ck_assert_uint_eq(f->value.minimum_mark.column, 18);

    const cc_object_t *r = &c->root;
    ck_assert_str_eq(r->c_type, "invoice_t");
    f = field(r, 0, "vendor_name");
    ck_assert(f->value.has_min_length && !f->value.has_max_length);
    ck_assert_uint_eq(f->value.min_length, 1);
    f = field(r, 1, "invoice_total_cents");
    ck_assert_int_eq(f->value.minimum, 0);
    f = field(r, 2, "line_items");
    ck_assert_int_eq(f->value.type, CONTRACTC_TYPE_ARRAY);
    ck_assert(f->value.has_min_items && f->value.has_max_items);
    ck_assert_uint_eq(f->value.min_items, 1);
    ck_assert_uint_eq(f->value.max_items, 200);
    ck_assert_ptr_nonnull(f->value.items);
    ck_assert_int_eq(f->value.items->type, CONTRACTC_TYPE_OBJECT);
    ck_assert_str_eq(f->value.items->type_ref, "line_item");
    ck_assert_ptr_eq(f->value.items->object, t->object);

    ck_assert_uint_eq(r->rule_count, 1);
    const cc_rule_t *rule = &r->rules[0];
    ck_assert_int_eq(rule->kind, CC_RULE_SUM);
    ck_assert_str_eq(rule->id, "rules[0]");
    ck_assert_str_eq(rule->of.text, "line_items[].amount_cents");
    ck_assert_uint_eq(rule->of.step_count, 2);
    ck_assert_uint_eq(rule->of.steps[0], 2);
    ck_assert_uint_eq(rule->of.steps[1], 1);
    ck_assert_str_eq(cc_path_field(r, &rule->of)->name, "amount_cents");
    ck_assert_str_eq(rule->equals.text, "invoice_total_cents");
    ck_assert_uint_eq(rule->equals.step_count, 1);
    ck_assert_uint_eq(rule->equals.steps[0], 1);
    ck_assert_int_eq(rule->tolerance, 1);
    ck_assert_str_eq(rule->tolerance_text, "1");
    cc_contract_free(c);
    cc_diags_free(&d);
}
END_TEST

static cc_contract_t *load_text(const char *text, cc_diags_t *d)
{
    cc_diags_init(d);
    return cc_contract_load_buffer("t.yaml", text, strlen(text), d);
}

START_TEST(every_setting_and_naming_rule_reaches_the_model)
{
    const char *text =
        "contract: shop\n"
        "version: 7\n"
        "instruction: x\n"
        "types:\n"
        "  color: {values: [red, dark-blue, 'ÿes']}\n"
        "  item:\n"
        "    fields:\n"
        "      when: {type: date}\n"
        "      until: {type: date}\n"
        "      tone: {type: color, nullable: true}\n"
        "      size: {type: enum, values: [s, m]}\n"
        "    rules:\n"
        "      - compare: {left: when, op: '<=', right: until}\n"
        "        id: dates\n"
        "      - check: {function: check_item}\n"
        "fields:\n"
        "  default: {type: integer, minimum: -5, maximum: 5, example: 3}\n"
        "  price: {type: decimal, scale: 3, signed: true, minimum: '-1.5', maximum: '2', example: '1.250'}\n"
        "  ratio: {type: number, minimum: 0.5, maximum: 1e3}\n"
        "  items: {type: array, items: {type: item}, max_items: 3}\n"
        "  meta:\n"
        "    type: object\n"
        "    nullable: true\n"
        "    fields:\n"
        "      kind: {type: enum, values: [a]}\n"
        "      tags: {type: array, items: {type: object, fields: {k: {type: boolean}}}}\n"
        "  a: {type: integer, nullable: true}\n"
        "  b: {type: integer, nullable: true}\n"
        "  amounts: {type: array, items: {type: decimal, scale: 3}}\n"
        "  total: {type: decimal, scale: 3}\n"
        "rules:\n"
        "  - at_most_one: [a, b]\n"
        "  - sum: {of: 'amounts[]', equals: total, tolerance: '0.005'}\n"
        "reply: {fence: reject, max_bytes: 2048, max_depth: 5}\n"
        "schema: {dialect: gemini}\n";
    cc_diags_t d;
    cc_contract_t *c = load_text(text, &d);
    if (!c || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_ptr_nonnull(c);
    /* the one diagnostic: the keyword note */
    ck_assert_uint_eq(d.count, 1);
    ck_assert_int_eq(d.items[0].severity, CC_NOTE);
    ck_assert_str_eq(d.items[0].message, "field 'default' is a C keyword; its C member is 'default_'");

    ck_assert_uint_eq(c->version, 7);
    ck_assert_int_eq(c->fence, CC_FENCE_REJECT);
    ck_assert_uint_eq(c->max_bytes, 2048);
    ck_assert_uint_eq(c->max_depth, 5);
    ck_assert(c->has_max_depth);
    ck_assert_str_eq(c->default_dialect, "gemini");
    ck_assert_uint_eq(c->depth, 4); /* record, meta, tags, tags[] item */

    ck_assert_uint_eq(c->type_count, 2);
    const cc_enum_t *color = c->types[0].enumeration;
    ck_assert(color->named);
    ck_assert_str_eq(color->c_type, "shop_color_t");
    ck_assert_str_eq(color->c_constants[1], "SHOP_COLOR_DARK_BLUE");
    ck_assert_str_eq(color->c_constants[2], "SHOP_COLOR__ES"); /* one '_' per code point */
    const cc_object_t *item = c->types[1].object;
    ck_assert_str_eq(item->c_type, "shop_item_t");
    ck_assert_ptr_eq(item->fields[2].value.enumeration, color);
    ck_assert(item->fields[2].nullable);
    ck_assert_str_eq(item->fields[3].value.enumeration->c_type, "shop_item_size_t");
    ck_assert_str_eq(item->fields[3].value.enumeration->c_constants[0], "SHOP_ITEM_SIZE_S");
    ck_assert_uint_eq(item->rule_count, 2);
    ck_assert_str_eq(item->rules[0].id, "dates");
    ck_assert_int_eq(item->rules[0].op, CONTRACTC_OP_LE);
    ck_assert_uint_eq(item->rules[0].left.steps[0], 0);
    ck_assert_uint_eq(item->rules[0].right.steps[0], 1);
    ck_assert_str_eq(item->rules[1].id, "types.item.rules[1]");
    ck_assert_int_eq(item->rules[1].kind, CC_RULE_CHECK);
    ck_assert_str_eq(item->rules[1].function, "check_item");
    ck_assert_ptr_null(item->rules[1].message);

    const cc_object_t *r = &c->root;
    const cc_field_t *f = field(r, 0, "default");
    ck_assert_str_eq(f->c_member, "default_");
    ck_assert_int_eq(f->value.minimum, -5);
    ck_assert_int_eq(f->value.maximum, 5);
    ck_assert_str_eq(f->example, "3");
    f = field(r, 1, "price");
    ck_assert(f->value.is_signed);
    ck_assert_uint_eq(f->value.scale, 3);
    ck_assert_int_eq(f->value.minimum, -1500);
    ck_assert_int_eq(f->value.maximum, 2000);
    ck_assert_str_eq(f->value.minimum_text, "-1.5");
    ck_assert_str_eq(f->value.maximum_text, "2");
    f = field(r, 2, "ratio");
    ck_assert(f->value.number_minimum == 0.5);
    ck_assert(f->value.number_maximum == 1000.0);
    ck_assert_str_eq(f->value.maximum_text, "1e3");
    f = field(r, 3, "items");
    ck_assert_ptr_eq(f->value.items->object, item);
    ck_assert(!f->value.has_min_items);
    ck_assert_uint_eq(f->value.max_items, 3);
    f = field(r, 4, "meta");
    ck_assert_str_eq(f->value.object->c_type, "shop_meta_t");
    ck_assert_str_eq(f->value.object->fields[0].value.enumeration->c_constants[0],
                     "SHOP_META_KIND_A");
    ck_assert_str_eq(f->value.object->fields[1].value.items->object->c_type, "shop_meta_tags_t");

    ck_assert_uint_eq(r->rule_count, 2);
    ck_assert_int_eq(r->rules[0].kind, CC_RULE_AT_MOST_ONE);
    ck_assert_uint_eq(r->rules[0].fields[1].steps[0], 6);
    ck_assert_int_eq(r->rules[1].kind, CC_RULE_SUM);
    ck_assert_uint_eq(r->rules[1].of.step_count, 1);
    ck_assert_uint_eq(r->rules[1].of.steps[0], 7);
    ck_assert_str_eq(cc_path_field(r, &r->rules[1].of)->name, "amounts");
    ck_assert_int_eq(r->rules[1].tolerance, 5);
    cc_contract_free(c);
    cc_diags_free(&d);
}
END_TEST

/* Loads bytes that must be refused; returns the printed diagnostics. */
static char *refused(const char *text, size_t len)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *c = cc_contract_load_buffer("x.yaml", text, len, &d);
    ck_assert_ptr_null(c);
    ck_assert_uint_gt(d.errors, 0);
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    cc_diags_print(&d, f);
    fclose(f);
    cc_diags_free(&d);
    return out;
}

START_TEST(every_truncation_of_a_contract_is_refused_or_loaded_without_crashing)
{
    size_t len = 0;
    char *text = cc_read_file(DATA "invoice.contract.yaml", &len);
    ck_assert_ptr_nonnull(text);
    for (size_t n = 0; n < len; n++) {
        cc_diags_t d;
        cc_diags_init(&d);
        cc_contract_t *c = cc_contract_load_buffer("x.yaml", text, n, &d);
        ck_assert((c == NULL) == (d.errors > 0));
        cc_contract_free(c);
        cc_diags_free(&d);
    }
    free(text);
}
END_TEST

START_TEST(random_bytes_are_refused_with_a_located_error)
{
    uint32_t seed = 12345;
    char buf[512];
    for (int round = 0; round < 300; round++) {
        size_t n = (size_t)(round % 500) + 1;
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (char)(seed >> 16);
        }
        char *out = refused(buf, n);
        ck_assert_ptr_nonnull(strstr(out, "x.yaml"));
        ck_assert_ptr_nonnull(strstr(out, "error: "));
        free(out);
    }
}
END_TEST

START_TEST(a_contract_over_one_mebibyte_is_refused_unread)
{
    size_t n = ((size_t)1 << 20) + 1;
    char *big = malloc(n);
    ck_assert_ptr_nonnull(big);
    memset(big, '#', n);
    char *out = refused(big, n);
    ck_assert_str_eq(out, "x.yaml: error: the contract is 1048577 bytes; at most 1048576 "
                          "(1 MiB) are allowed\n");
    free(out);

    char path[] = "/tmp/contractc_test_load_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(big, 1, n, f), n);
    fclose(f);
    cc_diags_t d;
    cc_diags_init(&d);
    ck_assert_ptr_null(cc_contract_load(path, &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_ptr_nonnull(strstr(d.items[0].message, "larger than 1 MiB"));
    cc_diags_free(&d);
    remove(path);
    free(big);
}
END_TEST

START_TEST(a_missing_file_is_an_error_naming_it)
{
    cc_diags_t d;
    cc_diags_init(&d);
    ck_assert_ptr_null(cc_contract_load("/nonexistent/c.yaml", &d));
    ck_assert_uint_eq(d.errors, 1);
    ck_assert_str_eq(d.items[0].file, "/nonexistent/c.yaml");
    ck_assert_str_eq(d.items[0].message, "cannot open: No such file or directory");
    cc_diags_free(&d);
}
END_TEST

START_TEST(yaml_control_characters_and_utf16_are_refused)
{
    char *out = refused("contract: t\nversion: 1\x01\n", 25);
    ck_assert_str_eq(out, "x.yaml:2:11: error: invalid YAML: the character U+0001 (byte 01) "
                          "is a control character, which YAML does not allow; remove it\n");
    free(out);
    /* UTF-16 with a BOM: libyaml would transcode it; a contract is UTF-8 */
    out = refused("\xff\xfe" "c\0:\0 \0x\0", 10);
    ck_assert_str_eq(out, "x.yaml:1:1: error: the file is UTF-16 (it starts with a UTF-16 byte "
                          "order mark); a contract is UTF-8 text: save it as UTF-8\n");
    free(out);
    out = refused("\xfe\xff" "\0c\0:\0 \0x", 10);
    ck_assert_ptr_nonnull(strstr(out, "x.yaml:1:1: error: the file is UTF-16"));
    free(out);
}
END_TEST

Suite *load_suite(void);
Suite *load_suite(void)
{
    Suite *s = suite_create("load");
    TCase *tc = tcase_create("contracts");
    tcase_add_test(tc, refund_request_loads_with_every_value);
    tcase_add_test(tc, invoice_loads_with_its_named_type_and_sum_rule);
    tcase_add_test(tc, every_setting_and_naming_rule_reaches_the_model);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("robustness");
    tcase_set_timeout(tr, 60);
    tcase_add_test(tr, every_truncation_of_a_contract_is_refused_or_loaded_without_crashing);
    tcase_add_test(tr, random_bytes_are_refused_with_a_located_error);
    tcase_add_test(tr, a_contract_over_one_mebibyte_is_refused_unread);
    tcase_add_test(tr, a_missing_file_is_an_error_naming_it);
    tcase_add_test(tr, yaml_control_characters_and_utf16_are_refused);
    suite_add_tcase(s, tr);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(load_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
