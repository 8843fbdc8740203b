/* SPDX-License-Identifier: MIT */
/*
 * test_tables.c - the descriptor tables `contractc validate` builds in
 * memory equal the generated ones (NAME.c, compiled here), member by
 * member: names, types, bounds, examples, enum spellings, pattern DFAs,
 * rules, and the struct layout the generator computed against the
 * compiler's sizeof/offsetof.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "table_list.h"
#include "tables.h"

static void str_eq(const char *what, const char *a, const char *b)
{
    if (!a || !b)
        ck_assert_msg(a == b, "%s: one is NULL (%s / %s)", what, a ? a : "NULL", b ? b : "NULL");
    else
        ck_assert_msg(strcmp(a, b) == 0, "%s: \"%s\" != \"%s\"", what, a, b);
}

static size_t compared;

static void compare_object(const char *where, const contractc_object_t *a, const contractc_object_t *b,
                           unsigned depth);

static void compare_value(const char *where, const contractc_value_t *a, const contractc_value_t *b,
                          unsigned depth)
{
    ck_assert_msg(depth < 40, "%s: too deep", where);
    ck_assert_msg(a->type == b->type, "%s: type %d != %d", where, a->type, b->type);
    ck_assert_msg(a->min_length == b->min_length && a->max_length == b->max_length, "%s: length", where);
    ck_assert_msg(a->grounded == b->grounded, "%s: grounded", where);
    ck_assert_msg(a->minimum == b->minimum && a->maximum == b->maximum, "%s: bounds", where);
    ck_assert_msg(a->has_number_minimum == b->has_number_minimum &&
                      a->has_number_maximum == b->has_number_maximum,
                  "%s: number bounds", where);
    if (a->has_number_minimum)
        ck_assert_msg(a->number_minimum == b->number_minimum, "%s: number minimum", where);
    if (a->has_number_maximum)
        ck_assert_msg(a->number_maximum == b->number_maximum, "%s: number maximum", where);
    ck_assert_msg(a->scale == b->scale && a->is_signed == b->is_signed, "%s: scale", where);
    str_eq(where, a->example, b->example);
    str_eq(where, a->minimum_text, b->minimum_text);
    str_eq(where, a->maximum_text, b->maximum_text);
    ck_assert_msg(!a->pattern == !b->pattern, "%s: pattern presence", where);
    if (a->pattern) {
        const contractc_dfa_t *x = a->pattern, *y = b->pattern;
        str_eq(where, x->source, y->source);
        ck_assert(x->state_count == y->state_count && x->class_count == y->class_count &&
                  x->start == y->start);
        ck_assert(memcmp(x->byte_class, y->byte_class, 256) == 0);
        ck_assert(memcmp(x->next, y->next, sizeof(uint16_t) * x->state_count * x->class_count) == 0);
        ck_assert(memcmp(x->accepting, y->accepting, x->state_count) == 0);
    }
    ck_assert_msg(!a->enumeration == !b->enumeration, "%s: enum presence", where);
    if (a->enumeration) {
        str_eq(where, a->enumeration->name, b->enumeration->name);
        ck_assert_uint_eq(a->enumeration->count, b->enumeration->count);
        for (uint32_t i = 0; i < a->enumeration->count; i++) {
            ck_assert_uint_eq(a->enumeration->values[i].len, b->enumeration->values[i].len);
            str_eq(where, a->enumeration->values[i].text, b->enumeration->values[i].text);
        }
    }
    ck_assert_msg(!a->object == !b->object, "%s: object presence", where);
    if (a->object)
        compare_object(where, a->object, b->object, depth + 1);
    ck_assert_msg(!a->items == !b->items, "%s: items presence", where);
    if (a->items) {
        ck_assert_msg(a->min_items == b->min_items && a->max_items == b->max_items, "%s: items", where);
        ck_assert_msg(a->item_size == b->item_size && a->item_align == b->item_align,
                      "%s: item layout %u/%u (computed) vs %u/%u (compiler)", where, a->item_size,
                      a->item_align, b->item_size, b->item_align);
        ck_assert_msg(a->items_nullable == b->items_nullable &&
                          a->item_has_offset == b->item_has_offset &&
                          a->item_value_offset == b->item_value_offset,
                      "%s: nullable items %d at %u/%u (computed) vs %d at %u/%u (compiler)", where,
                      a->items_nullable, a->item_has_offset, a->item_value_offset,
                      b->items_nullable, b->item_has_offset, b->item_value_offset);
        compare_value(where, a->items, b->items, depth + 1);
    }
    /* a tagged union: its tag, variants and the offset of `as` */
    str_eq(where, a->tag, b->tag);
    ck_assert_msg(a->tag_len == b->tag_len && a->variant_count == b->variant_count,
                  "%s: union tag or variant count", where);
    ck_assert_msg(a->union_offset == b->union_offset, "%s: union offset %u (computed) vs %u",
                  where, a->union_offset, b->union_offset);
    for (uint32_t i = 0; i < a->variant_count; i++) {
        ck_assert_uint_eq(a->variants[i].name_len, b->variants[i].name_len);
        str_eq(where, a->variants[i].name, b->variants[i].name);
        compare_object(where, a->variants[i].object, b->variants[i].object, depth + 1);
    }
    /* a value union: its alternatives, in order (the offset of `as` above) */
    ck_assert_msg(a->alternative_count == b->alternative_count && !a->alternatives == !b->alternatives,
                  "%s: value union alternatives %u vs %u", where, a->alternative_count,
                  b->alternative_count);
    for (uint32_t i = 0; i < a->alternative_count; i++)
        compare_value(where, &a->alternatives[i], &b->alternatives[i], depth + 1);
    compared++;
}

static void compare_object(const char *where, const contractc_object_t *a, const contractc_object_t *b,
                           unsigned depth)
{
    str_eq(where, a->name, b->name);
    ck_assert_uint_eq(a->field_count, b->field_count);
    ck_assert_msg(a->size == b->size && a->align == b->align,
                  "%s: struct %s layout %u/%u (computed) vs %u/%u (compiler)", where, a->name, a->size,
                  a->align, b->size, b->align);
    for (uint32_t i = 0; i < a->field_count; i++) {
        const contractc_field_t *x = &a->fields[i], *y = &b->fields[i];
        char at[256];
        snprintf(at, sizeof at, "%s%s", where, x->path_segment);
        str_eq(at, x->name, y->name);
        ck_assert_uint_eq(x->name_len, y->name_len);
        str_eq(at, x->path_segment, y->path_segment);
        ck_assert(x->nullable == y->nullable);
        ck_assert_msg(x->offset == y->offset && x->has_offset == y->has_offset &&
                          x->aux_offset == y->aux_offset,
                      "%s: offsets %u/%u/%u (computed) vs %u/%u/%u (compiler)", at, x->offset,
                      x->has_offset, x->aux_offset, y->offset, y->has_offset, y->aux_offset);
        ck_assert_msg(x->optional == y->optional && x->null_offset == y->null_offset,
                      "%s: optional %d/%d, null_offset %u (computed) vs %u (compiler)", at,
                      x->optional, y->optional, x->null_offset, y->null_offset);
        compare_value(at, &x->value, &y->value, depth + 1);
        ck_assert_uint_eq(a->lookup[i], b->lookup[i]);
    }
    ck_assert_uint_eq(a->rule_count, b->rule_count);
    for (uint32_t i = 0; i < a->rule_count; i++) {
        const contractc_rule_t *x = &a->rules[i], *y = &b->rules[i];
        ck_assert(x->kind == y->kind);
        str_eq(where, x->id, y->id);
        str_eq(where, x->message, y->message);
        ck_assert_uint_eq(x->field_count, y->field_count);
        for (uint32_t k = 0; k < x->field_count; k++)
            ck_assert_uint_eq(x->fields[k], y->fields[k]);
        ck_assert(x->sum_array == y->sum_array && x->sum_item == y->sum_item &&
                  x->sum_total == y->sum_total && x->tolerance == y->tolerance);
        ck_assert(x->left == y->left && x->right == y->right && x->op == y->op);
        /* check functions exist only in generated code */
        ck_assert(x->kind != CONTRACTC_RULE_CHECK || (x->check == NULL && y->check != NULL));
    }
}

static void compare_contract(const char *path, const contractc_contract_t *generated)
{
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load(path, &d);
    ck_assert_msg(m && d.errors == 0, "cannot load %s", path);
    cc_diags_free(&d);
    cc_artifacts_t art;
    ck_assert(cc_build_artifacts(m, &art));
    cc_tables_t *t = cc_tables_build(m, art.hash);
    ck_assert_ptr_nonnull(t);
    const contractc_contract_t *c = &t->contract;
    ck_assert_uint_eq(c->abi, generated->abi);
    str_eq("name", c->name, generated->name);
    ck_assert_uint_eq(c->version, generated->version);
    str_eq("hash", c->hash, generated->hash);
    ck_assert_uint_eq(c->arena_offset, generated->arena_offset);
    ck_assert_uint_eq(c->max_bytes, generated->max_bytes);
    ck_assert_uint_eq(c->max_depth, generated->max_depth);
    ck_assert(c->fence_allowed == generated->fence_allowed);
    ck_assert(c->needs_source == generated->needs_source);
    str_eq("source_name", c->source_name, generated->source_name);
    ck_assert_uint_eq(c->arena_factor, generated->arena_factor);
    ck_assert_uint_eq(c->arena_base, generated->arena_base);
    compared = 0;
    compare_object("$", c->root, generated->root, 0);
    printf("%s: %zu values compared, record %u bytes, arena factor %u\n", file, compared,
           generated->root->size, generated->arena_factor);
    cc_tables_free(t);
    cc_artifacts_free(&art);
    cc_contract_free(m);
}

START_TEST(tables_in_memory_equal_the_generated_ones)
{
    const cc_table_case_t *t = &cc_table_cases[_i];
    compare_contract(t->contract_file, t->generated);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tables");
    TCase *tc = tcase_create("in memory vs generated");
    tcase_add_loop_test(tc, tables_in_memory_equal_the_generated_ones, 0, (int)cc_table_case_count);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
