/* SPDX-License-Identifier: MIT */
/*
 * test_import.c - `contractc import`'s mapping (docs/contract-language.md
 * §17): each class of the ledger, the strict refusals with their pointers
 * (exit 1), --lenient's `dropped`, exit 2 on bad JSON and a bad --pointer,
 * names, OpenAPI and draft-04 input, and YAML quoting.  Every contract an
 * import writes is loaded here and must load without an error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "import.h"

typedef struct result {
    int rc;
    char *yaml;
    char *report;
    cc_contract_t *model; /* the imported contract, loaded (rc 0) */
} result_t;

static result_t run_opt(const char *json, const char *name, const char *pointer, bool lenient)
{
    result_t r = {0, NULL, NULL, NULL};
    cc_import_options_t opt = {name, pointer, "order.schema.json", lenient, NULL, 0};
    cc_buf_t report = CC_BUF_INIT;
    size_t len = 0;
    r.rc = cc_import(json, strlen(json), &opt, &r.yaml, &len, &report);
    size_t n;
    r.report = report.data ? cc_buf_take(&report, &n) : cc_strdup("");
    if (r.rc == CC_IMPORT_OK) {
        ck_assert_ptr_nonnull(r.yaml);
        cc_diags_t d;
        cc_diags_init(&d);
        r.model = cc_contract_load_buffer("<imported>", r.yaml, len, &d);
        if (!r.model || d.errors)
            cc_diags_print(&d, stderr);
        ck_assert_msg(r.model && d.errors == 0, "the imported contract does not load:\n%s", r.yaml);
        cc_diags_free(&d);
    } else {
        ck_assert_ptr_null(r.yaml);
    }
    return r;
}

static result_t run(const char *json)
{
    return run_opt(json, NULL, NULL, false);
}

static void done(result_t *r)
{
    cc_contract_free(r->model);
    free(r->yaml);
    free(r->report);
}

#define HAS(hay, needle) ck_assert_msg(strstr((hay), (needle)) != NULL, \
                                       "no '%s' in:\n%s", (needle), (hay))
#define HASNT(hay, needle) ck_assert_msg(strstr((hay), (needle)) == NULL, \
                                         "'%s' in:\n%s", (needle), (hay))

static const cc_field_t *field_of(const cc_object_t *o, const char *name)
{
    for (size_t i = 0; i < o->field_count; i++)
        if (strcmp(o->fields[i].name, name) == 0)
            return &o->fields[i];
    ck_abort_msg("no field %s", name);
    return NULL;
}

START_TEST(objects_are_closed_and_keys_not_required_are_optional)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"},"
                     " \"b\": {\"type\": \"boolean\"}}, \"required\": [\"a\"]}");
    ck_assert_int_eq(r.rc, 0);
    HAS(r.report, "#: closed-object: open object closed (additional keys are now rejected)\n");
    HASNT(r.report, ": optional:"); /* optional keeps the meaning: not ledgered */
    ck_assert(!field_of(&r.model->root, "a")->optional);
    ck_assert(field_of(&r.model->root, "b")->optional);
    done(&r);
    /* additionalProperties: false says it already */
    r = run("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}},"
            " \"additionalProperties\": false}");
    ck_assert_int_eq(r.rc, 0);
    HASNT(r.report, "closed-object");
    done(&r);
}
END_TEST

/* `properties` (or a map's `additionalProperties`) without `type` admits
 * every non-object as well; the contract's object does not: ledgered. */
START_TEST(an_object_without_type_is_ledgered_type_implied)
{
    result_t r = run("{\"properties\": {\"o\": {\"properties\": {\"x\": {\"type\": \"string\"}}},"
                     " \"m\": {\"additionalProperties\": {\"type\": \"string\"}}},"
                     " \"required\": [\"o\"]}");
    ck_assert_int_eq(r.rc, 0);
    HAS(r.report, "#: type-implied: 'properties' without 'type' read as an object");
    HAS(r.report, "#/properties/o: type-implied: 'properties' without 'type' read as an object");
    HAS(r.report, "#/properties/m: type-implied: 'additionalProperties' without 'type' read as a map");
    done(&r);
    /* with the type: nothing to say */
    r = run("{\"type\": \"object\", \"properties\": {\"o\": {\"type\": \"object\","
            " \"properties\": {\"x\": {\"type\": \"string\"}}}}}");
    ck_assert_int_eq(r.rc, 0);
    HASNT(r.report, "type-implied");
    done(&r);
}
END_TEST

START_TEST(the_instruction_is_the_description_else_the_title_else_a_sentence)
{
    result_t r = run("{\"title\": \"Order\", \"description\": \"Read the order.\", \"type\": "
                     "\"object\", \"properties\": {\"a\": {\"type\": \"string\"}}}");
    ck_assert_str_eq(r.model->instruction, "Read the order.");
    ck_assert_str_eq(r.model->description, "Read the order.");
    ck_assert_str_eq(r.model->name, "order");
    HAS(r.report, "#: instruction: the instruction is the schema's description");
    done(&r);
    r = run("{\"title\": \"Order Line\", \"type\": \"object\", \"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->instruction, "Order Line");
    ck_assert_str_eq(r.model->name, "order_line");
    HAS(r.report, "#: instruction: the instruction is the schema's title");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->name, "order"); /* order.schema.json */
    HAS(r.report, "#: instruction: the schema has no description");
    done(&r);
}
END_TEST

START_TEST(names_are_lower_snake_case_valid_and_never_collide)
{
    result_t r = run_opt("{\"title\": \"OrderLine\", \"type\": \"object\", \"properties\": "
                         "{\"a\": {}}}", "my_order", NULL, false);
    ck_assert_str_eq(r.model->name, "my_order");
    done(&r);
    r = run("{\"title\": \"OrderLine v2\", \"type\": \"object\", \"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->name, "order_line_v2");
    done(&r);
    /* a name that is a C keyword or shadows a header gets a suffix */
    r = run("{\"title\": \"string\", \"type\": \"object\", \"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->name, "string_reply");
    done(&r);
    r = run("{\"title\": \"42\", \"type\": \"object\", \"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->name, "schema_42");
    done(&r);
    /* the portable schema's $id gives name and version */
    r = run("{\"$id\": \"urn:contractc:refund:v7\", \"title\": \"x\", \"type\": \"object\", "
            "\"properties\": {\"a\": {}}}");
    ck_assert_str_eq(r.model->name, "refund");
    ck_assert_uint_eq(r.model->version, 7);
    done(&r);
    ck_assert(cc_import_name_ok("order"));
    ck_assert(!cc_import_name_ok("Order"));
    ck_assert(!cc_import_name_ok("int"));
    ck_assert(!cc_import_name_ok("contractc_x"));
    /* type names: $defs keys made valid, distinct */
    r = run("{\"type\": \"object\", \"properties\": {"
            "\"a\": {\"$ref\": \"#/$defs/a-b\"}, \"b\": {\"$ref\": \"#/$defs/a_b\"},"
            "\"c\": {\"$ref\": \"#/$defs/string\"}}, \"$defs\": {"
            "\"a-b\": {\"type\": \"object\", \"properties\": {\"x\": {\"type\": \"string\"}}},"
            "\"a_b\": {\"type\": \"object\", \"properties\": {\"y\": {\"type\": \"string\"}}},"
            "\"string\": {\"enum\": [\"p\", \"q\"]}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_uint_eq(r.model->type_count, 3);
    ck_assert_str_eq(r.model->types[0].name, "a_b");
    ck_assert_str_eq(r.model->types[1].name, "a_b_2");
    ck_assert_str_eq(r.model->types[2].name, "string_type");
    HAS(r.report, "#/$defs/a-b: named-type: the named type a_b\n");
    done(&r);
}
END_TEST

START_TEST(integer_bounds_fold_to_inclusive_ones)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"a\": {\"type\": \"integer\", \"exclusiveMinimum\": 0, \"maximum\": 9.5},"
                     "\"b\": {\"type\": \"integer\"},"
                     "\"c\": {\"type\": \"integer\", \"minimum\": -1e300, \"maximum\": 3}}}");
    ck_assert_int_eq(r.rc, 0);
    const cc_field_t *a = field_of(&r.model->root, "a");
    ck_assert(a->value.has_minimum && a->value.minimum == 1);
    ck_assert(a->value.has_maximum && a->value.maximum == 9);
    HAS(r.report, "#/properties/a/exclusiveMinimum: bound-folded: exclusiveMinimum 0 of an "
                  "integer folded to the inclusive minimum 1\n");
    HAS(r.report, "#/properties/a/maximum: bound-folded: maximum 9.5 of an integer folded to 9\n");
    HAS(r.report, "#/properties/b: bound-folded: integer without bounds: the contract's integer "
                  "is I-JSON's, within ±(2^53-1)\n");
    HAS(r.report, "#/properties/c: bound-folded: minimum");
    ck_assert(!field_of(&r.model->root, "b")->value.has_minimum);
    done(&r);
    /* draft-04: exclusiveMinimum is a flag on minimum */
    r = run("{\"id\": \"http://example.com/s\", \"type\": \"object\", \"properties\": {"
            "\"age\": {\"type\": \"integer\", \"minimum\": 0, \"exclusiveMinimum\": true, "
            "\"maximum\": 150, \"exclusiveMaximum\": false}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "age")->value.minimum, 1);
    ck_assert_int_eq(field_of(&r.model->root, "age")->value.maximum, 150);
    HAS(r.report, "#/id: ignored:");
    done(&r);
}
END_TEST

START_TEST(formats_become_types_bounds_or_patterns)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"d\": {\"type\": \"string\", \"format\": \"date\"},"
                     "\"t\": {\"type\": \"string\", \"format\": \"date-time\"},"
                     "\"i\": {\"type\": \"integer\", \"format\": \"int32\"},"
                     "\"u\": {\"type\": \"integer\", \"format\": \"uint32\", \"minimum\": 5},"
                     "\"id\": {\"type\": \"string\", \"format\": \"uuid\"},"
                     "\"ip\": {\"type\": \"string\", \"format\": \"ipv4\"}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "d")->value.type, CONTRACTC_TYPE_DATE);
    ck_assert_int_eq(field_of(&r.model->root, "t")->value.type, CONTRACTC_TYPE_DATETIME);
    ck_assert_int_eq(field_of(&r.model->root, "i")->value.minimum, -2147483648LL);
    ck_assert_int_eq(field_of(&r.model->root, "u")->value.minimum, 5);
    ck_assert_int_eq(field_of(&r.model->root, "u")->value.maximum, 4294967295LL);
    ck_assert_ptr_nonnull(field_of(&r.model->root, "id")->value.pattern);
    HAS(r.report, "#/properties/d/format: format-profile:");
    HAS(r.report, "#/properties/t/format: format-profile:");
    HAS(r.report, "#/properties/i/format: format-mapped:");
    HAS(r.report, "#/properties/id/format: format-mapped:");
    HAS(r.report, "#/properties/ip/format: format-mapped:");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"e\": {\"type\": \"string\", \"format\": "
            "\"ipv6\"}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/e/format: cannot carry: format ipv6 has no contract form\n");
    done(&r);
}
END_TEST

/* The formats written as a pattern that is their outline (ledgered with
 * what it leaves out), a format of no draft ignored, a string format on a
 * number ignored, OpenAPI's byte a format in an OpenAPI document only. */
START_TEST(formats_outlined_unknown_ignored)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"u\": {\"type\": \"string\", \"format\": \"uri\"},"
                     "\"e\": {\"type\": \"string\", \"format\": \"email\"},"
                     "\"h\": {\"type\": \"string\", \"format\": \"hostname\"},"
                     "\"h2\": {\"type\": \"string\", \"format\": \"hostname\", \"maxLength\": 40},"
                     "\"tm\": {\"type\": \"string\", \"format\": \"time\"},"
                     "\"jp\": {\"type\": \"string\", \"format\": \"json-pointer\"},"
                     "\"x\": {\"type\": \"string\", \"format\": \"url\"},"
                     "\"b\": {\"type\": \"string\", \"format\": \"byte\"},"
                     "\"n\": {\"type\": \"integer\", \"format\": \"date-time\", \"minimum\": 0,"
                     " \"maximum\": 9}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(field_of(&r.model->root, "e")->value.pattern, "[^\\s@]+@[^\\s@]+");
    ck_assert_str_eq(field_of(&r.model->root, "jp")->value.pattern, "(/([^~/]|~[01])*)*");
    ck_assert_uint_eq(field_of(&r.model->root, "h")->value.max_length, 253);
    ck_assert_uint_eq(field_of(&r.model->root, "h2")->value.max_length, 40);
    ck_assert_ptr_nonnull(field_of(&r.model->root, "u")->value.pattern);
    ck_assert_ptr_nonnull(field_of(&r.model->root, "tm")->value.pattern);
    ck_assert_ptr_null(field_of(&r.model->root, "x")->value.pattern);
    ck_assert_ptr_null(field_of(&r.model->root, "b")->value.pattern);
    HAS(r.report, "#/properties/u/format: format-mapped: format uri written as the pattern "
                  "[A-Za-z][A-Za-z0-9+.\\-]*:");
    HAS(r.report, "the parts after the scheme are not checked)\n");
    HAS(r.report, "#/properties/h/format: format-mapped: format hostname written as the pattern ");
    HAS(r.report, " with a length cap (RFC 1123 labels");
    HAS(r.report, "#/properties/jp/format: format-mapped: format json-pointer written as the "
                  "pattern (/([^~/]|~[01])*)*\n");
    HAS(r.report, "#/properties/x/format: ignored: format url is no format of JSON Schema: no "
                  "validation meaning\n");
    HAS(r.report, "#/properties/b/format: ignored: format byte is no format of JSON Schema");
    HAS(r.report, "#/properties/n/format: ignored: format date-time is a format of strings: a "
                  "number passes it\n");
    ck_assert_int_eq(field_of(&r.model->root, "n")->value.maximum, 9);
    done(&r);
    /* byte is OpenAPI's base64: exact in an OpenAPI document */
    r = run_opt("{\"openapi\": \"3.1.0\", \"components\": {\"schemas\": {\"Blob\": {"
                "\"type\": \"object\", \"properties\": {\"data\": {\"type\": \"string\", "
                "\"format\": \"byte\"}}}}}}",
                NULL, "/components/schemas/Blob", false);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(field_of(&r.model->root, "data")->value.pattern,
                     "([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");
    done(&r);
}
END_TEST

/* A required key the properties do not name, in an object whose other
 * keys are free, must be there with any value: a json field; with
 * additionalProperties: false no object passes, refused. */
START_TEST(required_keys_beyond_the_properties)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"},"
                     "\"o\": {\"type\": \"object\", \"required\": [\"x\", \"y\", \"x\"]}},"
                     "\"required\": [\"a\", \"b\"]}");
    ck_assert_int_eq(r.rc, 0);
    const cc_field_t *b = field_of(&r.model->root, "b");
    ck_assert_int_eq(b->value.type, CONTRACTC_TYPE_JSON);
    ck_assert(!b->optional);
    const cc_field_t *o = field_of(&r.model->root, "o");
    ck_assert_int_eq(o->value.type, CONTRACTC_TYPE_OBJECT);
    ck_assert_uint_eq(o->value.object->field_count, 2); /* x once */
    HAS(r.report, "#/properties/o: closed-object:");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}},"
            "\"required\": [\"b\"], \"additionalProperties\": false}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/required: cannot carry: required key 'b' is neither among the properties "
                  "nor allowed by 'additionalProperties': false (no object passes)\n");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}},"
            "\"required\": [\"\"]}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/required: cannot carry: the empty key has no contract form\n");
    done(&r);
}
END_TEST

START_TEST(patterns_are_searches_made_whole_string_matches)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"a\": {\"type\": \"string\", \"pattern\": \"^[A-Z]{2}$\"},"
                     "\"b\": {\"type\": \"string\", \"pattern\": \"abc\"},"
                     "\"c\": {\"type\": \"string\", \"pattern\": \"^x|y$\"},"
                     "\"d\": {\"type\": \"string\", \"pattern\": \"^(a|b)$\"}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(field_of(&r.model->root, "a")->value.pattern, "[A-Z]{2}");
    ck_assert_str_eq(field_of(&r.model->root, "b")->value.pattern, "[\\s\\S]*abc[\\s\\S]*");
    ck_assert_str_eq(field_of(&r.model->root, "c")->value.pattern, "x[\\s\\S]*|[\\s\\S]*y");
    ck_assert_str_eq(field_of(&r.model->root, "d")->value.pattern, "a|b");
    HAS(r.report, "#/properties/b/pattern: pattern-translated: search abc written as the "
                  "whole-string match [\\s\\S]*abc[\\s\\S]*\n");
    HASNT(r.report, "#/properties/d/pattern"); /* ^(P)$ is gen_schema's own form */
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"w\": {\"type\": \"string\", "
            "\"pattern\": \"\\\\bword\\\\b\"}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/w/pattern: cannot carry: pattern \\bword\\b is outside");
    done(&r);
    /* the portable schema's own form is checked too */
    r = run("{\"type\": \"object\", \"properties\": {\"w\": {\"type\": \"string\", "
            "\"pattern\": \"^((?!x)a)$\"}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/w/pattern: cannot carry: pattern ^((?!x)a)$ is outside");
    done(&r);
}
END_TEST

START_TEST(refs_become_named_types_and_recursion_is_refused)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"home\": {\"$ref\": \"#/$defs/Address\"},"
                     "\"work\": {\"$ref\": \"#/definitions/Address\"},"
                     "\"code\": {\"$ref\": \"#/$defs/Code\"}},"
                     "\"$defs\": {\"Address\": {\"type\": \"object\", \"properties\": "
                     "{\"city\": {\"type\": \"string\"}}, \"additionalProperties\": false},"
                     "\"Code\": {\"type\": \"string\", \"maxLength\": 4}},"
                     "\"definitions\": {\"Address\": {\"type\": \"object\", \"properties\": "
                     "{\"city\": {\"type\": \"string\"}}, \"additionalProperties\": false}}}");
    ck_assert_int_eq(r.rc, 0);
    /* two equal schemas are one type */
    ck_assert_uint_eq(r.model->type_count, 1);
    ck_assert_str_eq(r.model->types[0].name, "Address");
    HAS(r.report, "#/properties/code: named-type: $ref #/$defs/Code written in place");
    ck_assert_uint_eq(field_of(&r.model->root, "code")->value.max_length, 4);
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"tree\": {\"$ref\": \"#/$defs/Node\"}},"
            "\"$defs\": {\"Node\": {\"type\": \"object\", \"properties\": {\"kids\": "
            "{\"type\": \"array\", \"items\": {\"$ref\": \"#/$defs/Node\"}}}}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/$defs/Node/properties/kids/items: cannot carry: '$ref' #/$defs/Node "
                  "reaches itself");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": \"other.json#/a\"}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/x: cannot carry: '$ref' other.json#/a is not local");
    done(&r);
}
END_TEST

START_TEST(nullable_forms)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"a\": {\"type\": [\"string\", \"null\"]},"
                     "\"b\": {\"anyOf\": [{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 9},"
                     " {\"type\": \"null\"}]},"
                     "\"c\": {\"enum\": [\"x\", \"y\", null]},"
                     "\"d\": {\"type\": \"array\", \"items\": {\"type\": [\"number\", \"null\"]}}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert(field_of(&r.model->root, "a")->nullable);
    ck_assert(field_of(&r.model->root, "b")->nullable);
    ck_assert(field_of(&r.model->root, "c")->nullable);
    ck_assert_int_eq(field_of(&r.model->root, "c")->value.type, CONTRACTC_TYPE_ENUM);
    ck_assert(field_of(&r.model->root, "d")->value.items->nullable);
    done(&r);
    /* null must pass both the type and the enum (or const): a type that
     * admits null beside an enum without it admits no null, an enum that
     * lists null beside a type without it neither (found by
     * JSONSchemaBench's instances, tests/import/jsb_instances.py) */
    r = run("{\"type\": \"object\", \"properties\": {"
            "\"e\": {\"type\": [\"string\", \"null\"], \"enum\": [\"v1\"]},"
            "\"f\": {\"type\": \"string\", \"enum\": [\"v1\", null]},"
            "\"g\": {\"type\": [\"string\", \"null\"], \"enum\": [\"v1\", null]},"
            "\"h\": {\"type\": [\"string\", \"null\"], \"const\": \"v1\"},"
            "\"i\": {\"anyOf\": [{\"enum\": [\"v1\"]}, {\"type\": \"null\"}]}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert(!field_of(&r.model->root, "e")->nullable);
    ck_assert(!field_of(&r.model->root, "f")->nullable);
    ck_assert(field_of(&r.model->root, "g")->nullable);
    ck_assert(!field_of(&r.model->root, "h")->nullable);
    ck_assert(field_of(&r.model->root, "i")->nullable);
    done(&r);
    /* OpenAPI 3.0: nullable: true, and --pointer */
    r = run_opt("{\"openapi\": \"3.0.3\", \"components\": {\"schemas\": {\"Order\": {"
                "\"type\": \"object\", \"properties\": {\"note\": {\"type\": \"string\", "
                "\"nullable\": true}, \"pet\": {\"$ref\": \"#/components/schemas/Pet\"}}},"
                "\"Pet\": {\"type\": \"object\", \"properties\": {\"name\": {\"type\": "
                "\"string\"}}}}}}",
                NULL, "/components/schemas/Order", false);
    ck_assert_int_eq(r.rc, 0);
    ck_assert(field_of(&r.model->root, "note")->nullable);
    HAS(r.report, "#/components/schemas/Order: closed-object:");
    HAS(r.report, "#/components/schemas/Pet: named-type: the named type Pet\n");
    done(&r);
}
END_TEST

START_TEST(unions_tagged_and_by_json_type)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"req\": {\"oneOf\": [{\"$ref\": \"#/$defs/Refund\"}, {\"type\": \"object\","
                     " \"properties\": {\"kind\": {\"const\": \"complaint\"}, \"text\": {\"type\":"
                     " \"string\"}}, \"required\": [\"kind\", \"text\"]}]},"
                     "\"qty\": {\"anyOf\": [{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 9},"
                     " {\"type\": \"string\", \"maxLength\": 10}]},"
                     "\"v\": {\"type\": [\"boolean\", \"string\"]}},"
                     "\"$defs\": {\"Refund\": {\"type\": \"object\", \"properties\": {\"kind\": "
                     "{\"type\": \"string\", \"enum\": [\"refund\"]}, \"amount\": {\"type\": "
                     "\"number\"}}, \"required\": [\"kind\", \"amount\"], "
                     "\"additionalProperties\": false}}}");
    ck_assert_int_eq(r.rc, 0);
    const cc_field_t *req = field_of(&r.model->root, "req");
    ck_assert_int_eq(req->value.type, CONTRACTC_TYPE_UNION);
    ck_assert_str_eq(req->value.tag, "kind");
    ck_assert_uint_eq(req->value.variant_count, 2);
    ck_assert_str_eq(r.model->types[0].name, "Refund");
    ck_assert_str_eq(r.model->types[1].name, "complaint");
    HAS(r.report, "#/properties/req/oneOf: union: oneOf of 2 objects told apart by the const key "
                  "'kind': a tagged union\n");
    ck_assert_int_eq(field_of(&r.model->root, "qty")->value.type, CONTRACTC_TYPE_VALUE_UNION);
    ck_assert_int_eq(field_of(&r.model->root, "v")->value.type, CONTRACTC_TYPE_VALUE_UNION);
    HAS(r.report, "#/properties/qty/anyOf: union: anyOf of 2 branches of distinct JSON types");
    done(&r);
    /* type: object beside a oneOf of objects is their union */
    r = run("{\"type\": \"object\", \"properties\": {\"shape\": {\"type\": \"object\", "
            "\"oneOf\": [{\"type\": \"object\", \"properties\": {\"kind\": {\"const\": "
            "\"circle\"}, \"r\": {\"type\": \"number\"}}, \"required\": [\"kind\", \"r\"]},"
            "{\"properties\": {\"kind\": {\"const\": \"square\"}}, \"required\": [\"kind\"], "
            "\"type\": \"object\", \"additionalProperties\": false}]}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED); /* square has no field but its tag */
    HAS(r.report, "#/properties/shape/oneOf/1: cannot carry: an object without a property");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"shape\": {\"type\": \"object\", "
            "\"oneOf\": [{\"type\": \"object\", \"properties\": {\"kind\": {\"const\": "
            "\"circle\"}, \"r\": {\"type\": \"number\"}}, \"required\": [\"kind\", \"r\"]},"
            "{\"properties\": {\"kind\": {\"const\": \"square\"}, \"side\": {}}, "
            "\"required\": [\"kind\"], \"type\": \"object\"}]}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "shape")->value.type, CONTRACTC_TYPE_UNION);
    done(&r);
    /* branches that overlap are no union a contract has (oneOf: an
     * integer passes both, so only a fraction passes the oneOf) */
    r = run("{\"type\": \"object\", \"properties\": {\"n\": {\"oneOf\": [{\"type\": "
            "\"integer\"}, {\"type\": \"number\"}]}, \"o\": {\"anyOf\": [{\"type\": \"object\", "
            "\"properties\": {\"p\": {\"type\": \"string\"}}}, {\"type\": \"object\", "
            "\"properties\": {\"q\": {\"type\": \"string\"}}}]}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/n/oneOf: cannot carry: the branches of oneOf are neither objects "
                  "with a common const key nor of distinct JSON types: branches 0 and 1 overlap "
                  "(integer and number)\n");
    HAS(r.report, "#/properties/o/anyOf: cannot carry: the branches of anyOf are neither objects "
                  "with a common const key nor of distinct JSON types: branches 0 and 1 are both "
                  "of type object without a common const key\n");
    done(&r);
}
END_TEST

/* Exact folds of anyOf/oneOf: a branch contained in a bare one of its
 * type left out (anyOf only, and never one that admits null), branches
 * that are sets of strings one enum (oneOf: of the strings in exactly one
 * branch); integers making one run are that integer range. */
START_TEST(unions_folded_exactly)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"n\": {\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"number\"}]},"
                     "\"s\": {\"anyOf\": [{\"type\": \"string\", \"pattern\": \"^x\"}, "
                     "{\"type\": \"string\", \"description\": \"any\"}, {\"type\": \"boolean\"}]},"
                     "\"e\": {\"oneOf\": [{\"enum\": [\"a\", \"b\"]}, {\"const\": \"b\"}, "
                     "{\"type\": \"string\", \"enum\": [\"c\"]}]},"
                     "\"u\": {\"anyOf\": [{\"enum\": [\"a\", \"b\"]}, {\"const\": \"b\"}]},"
                     "\"i\": {\"type\": \"integer\", \"enum\": [3, 2, 4, 3]},"
                     "\"k\": {\"const\": 7}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "n")->value.type, CONTRACTC_TYPE_NUMBER);
    HAS(r.report, "#/properties/n/anyOf/0: union: left out: contained in #/properties/n/anyOf/1, "
                  "which is any number\n");
    const cc_field_t *sf = field_of(&r.model->root, "s");
    ck_assert_int_eq(sf->value.type, CONTRACTC_TYPE_VALUE_UNION);
    HAS(r.report, "#/properties/s/anyOf/0: union: left out: contained in #/properties/s/anyOf/1");
    const cc_field_t *e = field_of(&r.model->root, "e");
    ck_assert_int_eq(e->value.type, CONTRACTC_TYPE_ENUM);
    ck_assert_uint_eq(e->value.enumeration->count, 2); /* a, c: b is in two branches */
    ck_assert_str_eq(e->value.enumeration->values[0], "a");
    ck_assert_str_eq(e->value.enumeration->values[1], "c");
    ck_assert_uint_eq(field_of(&r.model->root, "u")->value.enumeration->count, 2);
    const cc_field_t *i = field_of(&r.model->root, "i");
    ck_assert_int_eq(i->value.type, CONTRACTC_TYPE_INTEGER);
    ck_assert_int_eq(i->value.minimum, 2);
    ck_assert_int_eq(i->value.maximum, 4);
    ck_assert_int_eq(field_of(&r.model->root, "k")->value.minimum, 7);
    ck_assert_int_eq(field_of(&r.model->root, "k")->value.maximum, 7);
    done(&r);
    /* what does not fold: integers with a gap, a string set beside a
     * null-admitting one, a oneOf whose every string is in two branches */
    r = run("{\"type\": \"object\", \"properties\": {"
            "\"g\": {\"type\": \"integer\", \"enum\": [6, 9]},"
            "\"z\": {\"anyOf\": [{\"type\": \"string\"}, {\"enum\": [\"x\", null]}]},"
            "\"w\": {\"oneOf\": [{\"const\": \"a\"}, {\"enum\": [\"a\"]}]}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/g/enum: cannot carry:");
    HAS(r.report, "#/properties/z/anyOf: cannot carry:");
    HAS(r.report, "#/properties/w/oneOf: cannot carry: every string of oneOf is in two branches: "
                  "no string passes\n");
    done(&r);
}
END_TEST

/* patternProperties with one pattern and no properties: a map whose key
 * pattern it is (a search made whole-string); the keys it left free are
 * closed, ledgered; additionalProperties: false alone admits only {}. */
START_TEST(pattern_properties_are_a_map)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"a\": {\"type\": \"object\", \"patternProperties\": {\"^[a-z]+$\": "
                     "{\"type\": \"integer\", \"minimum\": 0, \"maximum\": 9}}, "
                     "\"additionalProperties\": false},"
                     "\"b\": {\"patternProperties\": {\"x\": {\"type\": \"string\"}}, "
                     "\"maxProperties\": 3},"
                     "\"c\": {\"type\": \"object\", \"additionalProperties\": false}}}");
    ck_assert_int_eq(r.rc, 0);
    const cc_field_t *a = field_of(&r.model->root, "a");
    ck_assert_int_eq(a->value.type, CONTRACTC_TYPE_MAP);
    ck_assert_str_eq(a->value.pattern, "[a-z]+");
    ck_assert_int_eq(a->value.items->minimum, 0); /* 0, not -0 */
    HASNT(r.report, "#/properties/a: closed-object");
    const cc_field_t *b = field_of(&r.model->root, "b");
    ck_assert_str_eq(b->value.pattern, "[\\s\\S]*x[\\s\\S]*");
    ck_assert_uint_eq(b->value.max_items, 3);
    HAS(r.report, "#/properties/b: closed-object: a key that does not match the "
                  "patternProperties pattern is now rejected (the schema left it free)\n");
    HAS(r.report, "#/properties/b: type-implied: 'patternProperties' without 'type' read as a map");
    ck_assert(field_of(&r.model->root, "c")->value.has_max_items);
    ck_assert_uint_eq(field_of(&r.model->root, "c")->value.max_items, 0);
    done(&r);
    /* two patterns, or one beside properties, stay refused */
    r = run("{\"type\": \"object\", \"properties\": {\"m\": {\"type\": \"object\", "
            "\"patternProperties\": {\"^a\": {}, \"^b\": {\"type\": \"string\"}}}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/m/patternProperties: cannot carry:");
    done(&r);
}
END_TEST

START_TEST(maps_json_values_and_merged_all_of)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"m\": {\"type\": \"object\", \"additionalProperties\": {\"type\": "
                     "\"integer\", \"minimum\": 0, \"maximum\": 5}, \"propertyNames\": "
                     "{\"pattern\": \"^[a-z]+$\"}, \"maxProperties\": 3},"
                     "\"free\": {\"type\": \"object\"},"
                     "\"any\": {}, \"t\": true, \"arr\": {\"type\": \"array\"},"
                     "\"both\": {\"allOf\": [{\"$ref\": \"#/$defs/A\"}, {\"properties\": "
                     "{\"b\": {\"type\": \"string\"}}, \"required\": [\"b\"]}]}},"
                     "\"$defs\": {\"A\": {\"type\": \"object\", \"properties\": {\"a\": "
                     "{\"type\": \"string\"}}, \"required\": [\"a\"]}}}");
    ck_assert_int_eq(r.rc, 0);
    const cc_field_t *m = field_of(&r.model->root, "m");
    ck_assert_int_eq(m->value.type, CONTRACTC_TYPE_MAP);
    ck_assert_str_eq(m->value.pattern, "[a-z]+");
    ck_assert_uint_eq(m->value.max_items, 3);
    ck_assert_int_eq(field_of(&r.model->root, "free")->value.type, CONTRACTC_TYPE_MAP);
    ck_assert_int_eq(field_of(&r.model->root, "free")->value.items->type, CONTRACTC_TYPE_JSON);
    ck_assert_int_eq(field_of(&r.model->root, "any")->value.type, CONTRACTC_TYPE_JSON);
    ck_assert_int_eq(field_of(&r.model->root, "t")->value.type, CONTRACTC_TYPE_JSON);
    ck_assert_int_eq(field_of(&r.model->root, "arr")->value.items->type, CONTRACTC_TYPE_JSON);
    const cc_field_t *both = field_of(&r.model->root, "both");
    ck_assert_int_eq(both->value.type, CONTRACTC_TYPE_OBJECT);
    ck_assert_uint_eq(both->value.object->field_count, 2);
    ck_assert(!both->value.object->fields[1].optional);
    HAS(r.report, "#/properties/both/allOf: named-type: allOf of 2 schemas merged into one\n");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"x\": {\"allOf\": [{\"type\": \"string\"},"
            " {\"type\": \"integer\"}]}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/x: cannot carry: allOf: 'type' is given twice, differently\n");
    done(&r);
}
END_TEST

START_TEST(annotations_and_unknown_keywords_are_ignored_and_ledgered)
{
    result_t r = run("{\"$schema\": \"https://json-schema.org/draft/2019-09/schema\", "
                     "\"type\": \"object\", \"x-order\": 3, \"$comment\": \"c\", \"properties\": "
                     "{\"a\": {\"type\": \"string\", \"title\": \"A\", \"default\": \"d\", "
                     "\"examples\": [\"e\"], \"readOnly\": true, \"deprecated\": true, "
                     "\"contentMediaType\": \"text/plain\", \"x-foo\": {}}}}");
    ck_assert_int_eq(r.rc, 0);
    HAS(r.report, "#/x-order: ignored: unknown keyword 'x-order'");
    HAS(r.report, "#/$comment: ignored: '$comment' is an annotation");
    HAS(r.report, "#/properties/a/title: ignored:");
    HAS(r.report, "#/properties/a/default: ignored:");
    HAS(r.report, "#/properties/a/examples: ignored:");
    HAS(r.report, "#/properties/a/readOnly: ignored:");
    HAS(r.report, "#/properties/a/deprecated: ignored:");
    HAS(r.report, "#/properties/a/contentMediaType: ignored:");
    HAS(r.report, "#/properties/a/x-foo: ignored: unknown keyword 'x-foo'");
    HASNT(r.report, "$schema");
    done(&r);
}
END_TEST

START_TEST(strict_lists_every_blocker_and_lenient_drops_them)
{
    static const char schema[] =
        "{\"type\": \"object\", \"properties\": {"
        "\"e\": {\"type\": \"string\", \"format\": \"ipv6\"},"
        "\"n\": {\"type\": \"number\", \"exclusiveMinimum\": 0},"
        "\"m\": {\"type\": \"integer\", \"multipleOf\": 5, \"minimum\": 0, \"maximum\": 100},"
        "\"u\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, \"uniqueItems\": true},"
        "\"p\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": \"string\"}}, "
        "\"patternProperties\": {\"^x\": {}}}}}";
    result_t r = run(schema);
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/e/format: cannot carry: format ipv6 has no contract form\n");
    HAS(r.report, "#/properties/n/exclusiveMinimum: cannot carry: 'exclusiveMinimum' has no "
                  "contract form\n");
    HAS(r.report, "#/properties/m/multipleOf: cannot carry:");
    HAS(r.report, "#/properties/u/uniqueItems: cannot carry:");
    HAS(r.report, "#/properties/p/patternProperties: cannot carry:");
    done(&r);
    r = run_opt(schema, NULL, NULL, true);
    ck_assert_int_eq(r.rc, 0);
    HAS(r.report, "#/properties/e/format: dropped: format ipv6 has no contract form\n");
    HAS(r.report, "#/properties/n/exclusiveMinimum: dropped:");
    HAS(r.report, "#/properties/m/multipleOf: dropped:");
    HAS(r.report, "#/properties/u/uniqueItems: dropped:");
    HAS(r.report, "#/properties/p/patternProperties: dropped:");
    ck_assert_int_eq(field_of(&r.model->root, "m")->value.maximum, 100);
    done(&r);
}
END_TEST

START_TEST(the_root_must_be_an_object)
{
    static const char *const roots[] = {
        "{\"type\": \"array\", \"items\": {}}", "[1]", "true",
        "{\"type\": \"object\", \"additionalProperties\": {\"type\": \"string\"}}",
        "{\"anyOf\": [{\"type\": \"object\", \"properties\": {\"a\": {}}}, {\"type\": \"null\"}]}"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        for (int lenient = 0; lenient < 2; lenient++) {
            result_t r = run_opt(roots[i], NULL, NULL, lenient);
            ck_assert_msg(r.rc == CC_IMPORT_REFUSED, "%s gave %d", roots[i], r.rc);
            HAS(r.report, "#: cannot carry: the root must be an object");
            done(&r);
        }
    }
}
END_TEST

START_TEST(bad_json_and_bad_pointers_are_exit_2)
{
    static const char *const bad[] = {"", "{", "{\"type\": \"object\"} x", "{\"a\xff\": 1}",
                                      "{\"a\": 1, \"a\": 2}", "{\"openapi\": \"3.1.0\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        result_t r = run(bad[i]);
        ck_assert_msg(r.rc == CC_IMPORT_BAD_INPUT, "'%s' gave %d", bad[i], r.rc);
        done(&r);
    }
    result_t r = run_opt("{\"a\": {}}", NULL, "/b", false);
    ck_assert_int_eq(r.rc, CC_IMPORT_BAD_INPUT);
    HAS(r.report, "--pointer /b names nothing in the document");
    done(&r);
    r = run_opt("{\"a\": {}}", NULL, "a", false);
    ck_assert_int_eq(r.rc, CC_IMPORT_BAD_INPUT);
    done(&r);
}
END_TEST

START_TEST(strings_keys_and_values_are_quoted_safely)
{
    result_t r = run("{\"description\": \"Line one\\nit's \\\"two\\\"\\t\\u2028end\", "
                     "\"type\": \"object\", \"properties\": {"
                     "\"first name\": {\"type\": \"string\"}, \"null\": {\"type\": \"string\"},"
                     "\"yes\": {\"enum\": [\"yes\", \"no\", \"1.5\", \"null\", \"a: b\", \"'q'\"]},"
                     "\"p\": {\"type\": \"string\", \"pattern\": \"^it's\\\\d+$\"}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_str_eq(r.model->description, "Line one\nit's \"two\"\t\xe2\x80\xa8" "end");
    ck_assert_str_eq(r.model->root.fields[0].name, "first name");
    ck_assert_str_eq(r.model->root.fields[1].name, "null");
    const cc_field_t *yes = field_of(&r.model->root, "yes");
    ck_assert_uint_eq(yes->value.enumeration->count, 6);
    ck_assert_str_eq(yes->value.enumeration->values[0], "yes");
    ck_assert_str_eq(yes->value.enumeration->values[3], "null");
    ck_assert_str_eq(yes->value.enumeration->values[5], "'q'");
    ck_assert_str_eq(field_of(&r.model->root, "p")->value.pattern, "it's\\d+");
    done(&r);
}
END_TEST

START_TEST(c_names_keep_derived_names_apart)
{
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"first-name\": {\"type\": \"string\"}, \"first_name\": {\"type\": \"string\"},"
                     "\"stdin\": {\"type\": \"string\"}, \"__utma\": {\"type\": \"string\"},"
                     "\"contractCode\": {\"type\": \"string\"}, \"_\": {\"type\": \"string\"},"
                     "\"state\": {\"enum\": [\"none\", \"Unknown\", \"UNKNOWN\", \"\", \"a-b\", "
                     "\"a_b\", \"ok\", \"ok\"]}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_ptr_null(field_of(&r.model->root, "first-name")->c_name);
    ck_assert_str_eq(field_of(&r.model->root, "first_name")->c_name, "f_first_name");
    ck_assert_str_eq(field_of(&r.model->root, "stdin")->c_name, "f_stdin");
    ck_assert_str_eq(field_of(&r.model->root, "__utma")->c_name, "f__utma");
    ck_assert_str_eq(field_of(&r.model->root, "contractCode")->c_name, "f_ode");
    /* "_" itself is fine, but its length member would be __len (reserved) */
    ck_assert_str_eq(field_of(&r.model->root, "_")->c_name, "f_");
    HAS(r.yaml, "- {value: 'none', c_name: VALUE_1}\n");
    HAS(r.yaml, "- {value: 'UNKNOWN', c_name: VALUE_3}\n");
    HAS(r.yaml, "- {value: '', c_name: VALUE_4}\n");
    HAS(r.yaml, "- {value: 'a_b', c_name: VALUE_6}\n");
    /* the same value twice is one value */
    ck_assert_uint_eq(field_of(&r.model->root, "state")->value.enumeration->count, 7);
    done(&r);
}
END_TEST

START_TEST(refs_beside_keywords_merge_and_expansion_is_capped)
{
    result_t r = run("{\"allOf\": [{\"$ref\": \"#/$defs/Base\"}], \"properties\": {\"b\": "
                     "{\"$ref\": \"#/$defs/Code\", \"maxLength\": 3}}, \"$defs\": {"
                     "\"Base\": {\"type\": \"object\", \"properties\": {\"a\": {\"type\": "
                     "\"string\"}}, \"required\": [\"a\"]},"
                     "\"Code\": {\"type\": \"string\", \"pattern\": \"^[A-Z]+$\"}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_uint_eq(r.model->root.field_count, 2);
    const cc_field_t *b = field_of(&r.model->root, "b");
    ck_assert_uint_eq(b->value.max_length, 3);
    ck_assert_str_eq(b->value.pattern, "[A-Z]+");
    HAS(r.report, "#/allOf: named-type: allOf of 1 schemas merged into one\n");
    HAS(r.report, "#/properties/b: named-type: $ref merged with the keywords beside it\n");
    done(&r);
    /* [integer, number] is number */
    r = run("{\"type\": \"object\", \"properties\": {\"n\": {\"type\": [\"integer\", "
            "\"number\"], \"minimum\": 0}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "n")->value.type, CONTRACTC_TYPE_NUMBER);
    done(&r);
    /* 18 levels of an array $ref used twice, written in place (a
     * contract names only objects and enums): 2^18 copies of the leaf;
     * past the caps it is refused, never written */
    cc_buf_t big = CC_BUF_INIT;
    cc_buf_puts(&big, "{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": "
                      "\"#/$defs/l0\"}}, \"$defs\": {");
    for (int i = 0; i < 18; i++)
        cc_buf_printf(&big, "\"l%d\": {\"type\": \"array\", \"items\": {\"anyOf\": [{\"$ref\": "
                            "\"#/$defs/l%d\"}, {\"type\": \"object\", \"properties\": {\"k\": "
                            "{\"$ref\": \"#/$defs/l%d\"}}}]}}, ",
                      i, i + 1, i + 1);
    cc_buf_puts(&big, "\"l18\": {\"type\": \"string\"}}}");
    r = run(big.data);
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#: cannot carry: the contract would pass 1 MiB");
    done(&r);
    /* a chain of 3000 $refs, each an array of the next, and one of 3000
     * allOfs: refused at 128 levels, the recursion bounded */
    for (int kind = 0; kind < 2; kind++) {
        big.len = 0;
        cc_buf_puts(&big, "{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": "
                          "\"#/$defs/d0\"}}, \"$defs\": {");
        for (int i = 0; i < 3000; i++)
            cc_buf_printf(&big, kind ? "\"d%d\": {\"allOf\": [{\"$ref\": \"#/$defs/d%d\"}]}, "
                                     : "\"d%d\": {\"type\": \"array\", \"items\": {\"$ref\": "
                                       "\"#/$defs/d%d\"}}, ",
                          i, i + 1);
        cc_buf_puts(&big, "\"d3000\": {\"type\": \"string\"}}}");
        r = run(big.data);
        ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
        HAS(r.report, "128 levels of nesting");
        done(&r);
    }
    cc_buf_free(&big);
}
END_TEST

START_TEST(maps_as_items_and_values_but_never_of_nulls)
{
    /* a map as an array's items and as a map's values (§4.12) */
    result_t r = run("{\"type\": \"object\", \"properties\": {"
                     "\"a\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
                     "\"additionalProperties\": {\"type\": \"string\"}}},"
                     "\"mm\": {\"type\": \"object\", \"additionalProperties\": {\"type\": "
                     "\"object\", \"additionalProperties\": {\"type\": \"integer\", \"minimum\": 0,"
                     " \"maximum\": 9}}}}}");
    ck_assert_int_eq(r.rc, 0);
    ck_assert_int_eq(field_of(&r.model->root, "a")->value.items->type, CONTRACTC_TYPE_MAP);
    const cc_field_t *mm = field_of(&r.model->root, "mm");
    ck_assert_int_eq(mm->value.items->type, CONTRACTC_TYPE_MAP);
    ck_assert_int_eq(mm->value.items->items->maximum, 9);
    done(&r);
    /* a map as a value union's alternative (§4.13) */
    r = run("{\"type\": \"object\", \"properties\": {"
            "\"v\": {\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"object\", "
            "\"additionalProperties\": {\"type\": \"string\", \"maxLength\": 3}}]}}}");
    ck_assert_int_eq(r.rc, 0);
    const cc_value_t *v = &field_of(&r.model->root, "v")->value;
    ck_assert_int_eq(v->type, CONTRACTC_TYPE_VALUE_UNION);
    ck_assert_uint_eq(v->alternative_count, 2);
    ck_assert_int_eq(v->alternatives[1].type, CONTRACTC_TYPE_MAP);
    ck_assert_int_eq(v->alternatives[1].items->max_length, 3);
    done(&r);
    /* values that may be null are not, nor items that may be null where
     * the loader generates none (§4.6): said with their pointers */
    r = run("{\"type\": \"object\", \"properties\": {"
            "\"m\": {\"type\": \"object\", \"additionalProperties\": {\"type\": "
            "[\"string\", \"null\"]}},"
            "\"w\": {\"anyOf\": [{\"type\": \"string\"}, {\"type\": \"array\", "
            "\"items\": {\"type\": [\"string\", \"null\"]}}]},"
            "\"n\": {\"type\": \"array\", \"items\": {\"type\": \"array\", "
            "\"items\": {\"type\": [\"integer\", \"null\"]}}},"
            "\"u\": {\"type\": \"array\", \"items\": {\"type\": [\"integer\", \"string\", "
            "\"null\"]}}}}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/m/additionalProperties: cannot carry: map values that may be "
                  "null have no contract form\n");
    HAS(r.report, "#/properties/w/anyOf/1/items: cannot carry: nullable items of a list that is "
                  "an alternative of a union have no contract form\n");
    HAS(r.report, "#/properties/n/items/items: cannot carry: nullable items of a list that is an "
                  "item or a map's value have no contract form\n");
    HAS(r.report, "#/properties/u/items: cannot carry: nullable items that are a value union "
                  "have no contract form\n");
    done(&r);
    r = run_opt("{\"type\": \"object\", \"properties\": {"
                "\"m\": {\"type\": \"object\", \"additionalProperties\": {\"type\": "
                "[\"string\", \"null\"]}},"
                "\"u\": {\"anyOf\": [{\"type\": \"string\"}, {\"not\": {}}]}}}",
                NULL, NULL, true);
    ck_assert_int_eq(r.rc, 0); /* looser: json where nothing narrower is left */
    ck_assert_int_eq(field_of(&r.model->root, "m")->value.items->type, CONTRACTC_TYPE_JSON);
    ck_assert_int_eq(field_of(&r.model->root, "u")->value.type, CONTRACTC_TYPE_JSON);
    done(&r);
}
END_TEST

/* From a new user's trial: a part of an allOf (or a $ref's target) closed
 * by additionalProperties: false admits only its own keys; a property whose
 * schema is false can never be given; additionalProperties: {} is true;
 * nullable beside an enum without null still fails; --pointer names it. */
START_TEST(closed_parts_false_properties_and_openapi_nullable)
{
    static const char defs[] = "\"$defs\": {\"A\": {\"type\": \"object\", \"properties\": "
                               "{\"a\": {\"type\": \"string\"}}, \"required\": [\"a\"], "
                               "\"additionalProperties\": false}}";
    char json[1024];
    snprintf(json, sizeof json, "{\"type\": \"object\", \"properties\": {\"ab\": {\"allOf\": "
             "[{\"$ref\": \"#/$defs/A\"}, {\"properties\": {\"b\": {\"type\": \"string\"}}, "
             "\"required\": [\"b\"]}]}}, %s}", defs);
    result_t r = run(json);
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/ab: cannot carry: allOf: key 'b' is required, but a part closed "
                  "by additionalProperties: false does not name it (no object passes)\n");
    done(&r);
    snprintf(json, sizeof json, "{\"type\": \"object\", \"properties\": {\"ab\": {\"allOf\": "
             "[{\"$ref\": \"#/$defs/A\"}, {\"properties\": {\"c\": {\"type\": \"string\"}}}]},"
             "\"x\": false, \"o\": {\"type\": \"object\", \"properties\": {\"p\": {\"type\": "
             "\"string\"}}, \"additionalProperties\": {}}}, %s}", defs);
    r = run(json);
    ck_assert_int_eq(r.rc, 0);
    ck_assert_uint_eq(field_of(&r.model->root, "ab")->value.object->field_count, 1);
    HAS(r.report, "#/properties/ab/properties/c: named-type: left out: a part closed by "
                  "additionalProperties: false does not name it, so it can never be given\n");
    ck_assert_uint_eq(r.model->root.field_count, 2); /* ab and o: x may never be given */
    HAS(r.report, "#/properties/x: named-type: left out: its schema is false");
    HAS(r.report, "#/properties/o: closed-object:");
    done(&r);
    r = run("{\"type\": \"object\", \"properties\": {\"x\": false}, \"required\": [\"x\"]}");
    ck_assert_int_eq(r.rc, CC_IMPORT_REFUSED);
    HAS(r.report, "#/properties/x: cannot carry: key 'x' is required and its schema is false "
                  "(no object passes)\n");
    done(&r);
    r = run_opt("{\"openapi\": \"3.0.3\", \"components\": {\"schemas\": {\"Refund\": {"
                "\"type\": \"object\", \"properties\": {\"reason\": {\"type\": \"string\", "
                "\"enum\": [\"late\", \"damaged\"], \"nullable\": true}, \"pw\": {\"type\": "
                "\"string\", \"format\": \"password\"}}}}}}",
                NULL, "/components/schemas/Refund", false);
    ck_assert_int_eq(r.rc, 0);
    ck_assert(!field_of(&r.model->root, "reason")->nullable);
    HAS(r.report, "#/components/schemas/Refund/properties/reason/nullable: ignored: null is "
                  "admitted by nullable: true but not listed by the enum, so null still fails");
    HAS(r.report, "#/components/schemas/Refund/properties/pw/format: ignored: format password is "
                  "OpenAPI's hint: no validation meaning\n");
    ck_assert_str_eq(r.model->name, "refund");
    done(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("mapping");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, objects_are_closed_and_keys_not_required_are_optional);
    tcase_add_test(tc, the_instruction_is_the_description_else_the_title_else_a_sentence);
    tcase_add_test(tc, names_are_lower_snake_case_valid_and_never_collide);
    tcase_add_test(tc, integer_bounds_fold_to_inclusive_ones);
    tcase_add_test(tc, formats_become_types_bounds_or_patterns);
    tcase_add_test(tc, formats_outlined_unknown_ignored);
    tcase_add_test(tc, required_keys_beyond_the_properties);
    tcase_add_test(tc, unions_folded_exactly);
    tcase_add_test(tc, pattern_properties_are_a_map);
    tcase_add_test(tc, closed_parts_false_properties_and_openapi_nullable);
    tcase_add_test(tc, patterns_are_searches_made_whole_string_matches);
    tcase_add_test(tc, refs_become_named_types_and_recursion_is_refused);
    tcase_add_test(tc, nullable_forms);
    tcase_add_test(tc, unions_tagged_and_by_json_type);
    tcase_add_test(tc, maps_json_values_and_merged_all_of);
    tcase_add_test(tc, annotations_and_unknown_keywords_are_ignored_and_ledgered);
    tcase_add_test(tc, strict_lists_every_blocker_and_lenient_drops_them);
    tcase_add_test(tc, the_root_must_be_an_object);
    tcase_add_test(tc, bad_json_and_bad_pointers_are_exit_2);
    tcase_add_test(tc, strings_keys_and_values_are_quoted_safely);
    tcase_add_test(tc, c_names_keep_derived_names_apart);
    tcase_add_test(tc, refs_beside_keywords_merge_and_expansion_is_capped);
    tcase_add_test(tc, maps_as_items_and_values_but_never_of_nulls);
    tcase_add_test(tc, an_object_without_type_is_ledgered_type_implied);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
