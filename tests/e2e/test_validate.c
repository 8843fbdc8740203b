/* SPDX-License-Identifier: MIT */
/*
 * test_validate.c - the interpreter's semantics, table-driven: each row is a
 * contract (YAML, built into in-memory tables as `contractc validate` does),
 * a reply, and the exact problems expected (path, kind, and a fragment of
 * the model's message).  Then the list's cap, the log rendering without
 * reply values, grounding, fences, limits, options and allocation counts.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "tables.h"

/* A contract from YAML text, with its tables; freed by close_contract. */
typedef struct loaded {
    cc_contract_t *model;
    cc_tables_t *tables;
} loaded_t;

static loaded_t open_contract(const char *yaml)
{
    cc_diags_t d;
    cc_diags_init(&d);
    loaded_t l;
    l.model = cc_contract_load_buffer("test.contract.yaml", yaml, strlen(yaml), &d);
    if (!l.model || d.errors)
        cc_diags_print(&d, stderr);
    ck_assert_msg(l.model && d.errors == 0, "contract does not load:\n%s", yaml);
    cc_diags_free(&d);
    l.tables = cc_tables_build(l.model, "sha256:test");
    ck_assert_ptr_nonnull(l.tables);
    return l;
}

static void close_contract(loaded_t *l)
{
    cc_tables_free(l->tables);
    cc_contract_free(l->model);
}

#define HEAD "contract: t\nversion: 1\ninstruction: x\n"

typedef struct row {
    const char *name;
    const char *yaml;      /* after HEAD */
    const char *reply;
    const char *expect;    /* "PATH KIND|PATH KIND" in order, or "" for accept */
    const char *fragment;  /* in the first problem's message, or NULL */
} row_t;

static const row_t rows[] = {
    /* types: no coercion */
    {"a string where an integer is wanted", "fields:\n  n: {type: integer}\n", "{\"n\":\"4\"}",
     "$.n type", "found the string \"4\"; expected an integer"},
    {"true where an integer is wanted", "fields:\n  n: {type: integer}\n", "{\"n\":true}", "$.n type",
     "found true"},
    {"an integral float is not an integer", "fields:\n  n: {type: integer}\n", "{\"n\":12980.0}",
     "$.n type", "12980.0 is not an integer"},
    {"an exponent is not an integer", "fields:\n  n: {type: integer}\n", "{\"n\":1e3}", "$.n type", NULL},
    {"-0 is the integer 0", "fields:\n  n: {type: integer}\n", "{\"n\":-0}", "", NULL},
    {"2^53 is outside the exact range", "fields:\n  n: {type: integer}\n", "{\"n\":9007199254740992}",
     "$.n range", "outside the exact integer range"},
    {"2^53-1 is inside it", "fields:\n  n: {type: integer}\n", "{\"n\":-9007199254740991}", "", NULL},
    {"integer bounds", "fields:\n  n: {type: integer, minimum: 1, maximum: 5}\n", "{\"n\":6}", "$.n range",
     "6 is above the maximum 5"},
    {"1 is not true", "fields:\n  b: {type: boolean}\n", "{\"b\":1}", "$.b type", NULL},
    {"a number overflowing to infinity", "fields:\n  x: {type: number}\n", "{\"x\":1e400}", "$.x range", NULL},
    {"a number underflowing to zero", "fields:\n  x: {type: number}\n", "{\"x\":1e-400}", "$.x range",
     "underflows to zero"},
    {"zero written with an exponent is zero", "fields:\n  x: {type: number}\n", "{\"x\":0e-400}", "", NULL},
    /* decimals */
    {"a decimal comma", "fields:\n  a: {type: decimal, scale: 2}\n", "{\"a\":\"1.250,00\"}", "$.a format",
     "is not a decimal like \"1250.00\" (dot, two decimals, no separators)"},
    {"a decimal as a number", "fields:\n  a: {type: decimal, scale: 2}\n", "{\"a\":89.90}", "$.a type",
     "found the number 89.90"},
    {"too few decimals", "fields:\n  a: {type: decimal, scale: 2}\n", "{\"a\":\"89.9\"}", "$.a format", NULL},
    {"a sign on an unsigned decimal", "fields:\n  a: {type: decimal, scale: 2}\n", "{\"a\":\"-1.00\"}",
     "$.a format", NULL},
    {"a signed decimal", "fields:\n  a: {type: decimal, scale: 2, signed: true}\n", "{\"a\":\"-1.00\"}", "",
     NULL},
    {"decimal bounds in minor units", "fields:\n  a: {type: decimal, scale: 2, maximum: \"100.00\"}\n",
     "{\"a\":\"100.01\"}", "$.a range", "above the maximum 100.00"},
    {"a decimal beyond int64", "fields:\n  a: {type: decimal, scale: 2}\n",
     "{\"a\":\"92233720368547758.08\"}", "$.a range", NULL},
    /* strings */
    {"length in code points", "fields:\n  s: {type: string, max_length: 3}\n", "{\"s\":\"\\u00e9\\u00e9\\u00e9\"}",
     "", NULL},
    {"a string too long", "fields:\n  s: {type: string, max_length: 3}\n", "{\"s\":\"abcd\"}", "$.s length",
     "4 characters long; expected at most 3"},
    {"pattern and length both reported", "fields:\n  s: {type: string, pattern: '[a-z]+', max_length: 2}\n",
     "{\"s\":\"ABC\"}", "$.s length|$.s pattern", NULL},
    {"a JSON text inside a string stays a string", "fields:\n  s: {type: string}\n",
     "{\"s\":\"{\\\"a\\\":1}\"}", "", NULL},
    /* enums */
    {"an enum is case-sensitive", "fields:\n  c: {type: enum, values: [EUR, USD]}\n", "{\"c\":\"eur\"}",
     "$.c enum", "\"eur\" is not one of \"EUR\" or \"USD\""},
    {"enum values are strings as written", "fields:\n  c: {type: enum, values: [yes, no, 1.5]}\n",
     "{\"c\":\"1.5\"}", "", NULL},
    /* keys are read without a scan when they are the expected field's
     * name; every other spelling takes the scan and the sorted lookup */
    {"the expected key spelt with \\u escapes", "fields:\n  ab: {type: integer}\n  cd: {type: integer}\n",
     "{\"\\u0061b\":1,\"c\\u0064\":2}", "", NULL},
    {"a prefix of the expected key", "fields:\n  ab: {type: integer}\n", "{\"a\":1,\"ab\":2}",
     "$.a unexpected", NULL},
    {"the expected key cut by the end of the reply", "fields:\n  ab: {type: integer}\n", "{\"ab",
     "$ syntax", NULL},
    {"keys out of the contract's order", "fields:\n  a: {type: integer}\n  b: {type: integer}\n",
     "{\"b\":2,\"a\":1}", "", NULL},
    /* nulls and keys */
    {"null where not nullable", "fields:\n  s: {type: string}\n", "{\"s\":null}", "$.s null",
     "null is not allowed here"},
    {"a missing nullable key is missing", "fields:\n  s: {type: string, nullable: true}\n", "{}", "$.s missing",
     "write null"},
    {"an unexpected key suggests the near one", "fields:\n  order_id: {type: string}\n",
     "{\"orderId\":\"x\",\"order_id\":\"y\"}", "$.orderId unexpected", NULL},
    {"a camelCase key instead of the field", "fields:\n  order_id: {type: string}\n", "{\"orderId\":\"x\"}",
     "$.orderId unexpected|$.order_id missing", "did you mean \"order_id\""},
    {"a key twice, even with the same value", "fields:\n  a: {type: integer}\n", "{\"a\":1,\"a\":1}",
     "$.a duplicate", NULL},
    /* an unexpected key present twice: unexpected once, then duplicate,
     * also when spelt with escapes; per object, not per reply */
    {"an unexpected key twice", "fields:\n  a: {type: integer}\n", "{\"a\":1,\"x\":1,\"x\":2,\"x\":3}",
     "$.x unexpected|$.x duplicate|$.x duplicate", NULL},
    {"an unexpected key twice, once escaped", "fields:\n  a: {type: integer}\n",
     "{\"a\":1,\"x\\u00e9\":1,\"y\":2,\"x\xC3\xA9\":3}",
     "$['x\xC3\xA9'] unexpected|$.y unexpected|$['x\xC3\xA9'] duplicate", NULL},
    {"the second occurrence of an unexpected key is a duplicate", "fields:\n  a: {type: integer}\n",
     "{\"x\":1,\"a\":1,\"x\":2}", "$.x unexpected|$.x duplicate", "the allowed keys are a"},
    {"an unexpected key in two objects is unexpected in each",
     "fields:\n  o: {type: array, items: {type: object, fields: {a: {type: integer}}}}\n",
     "{\"o\":[{\"a\":1,\"x\":1},{\"a\":1,\"x\":1,\"x\":1}]}",
     "$.o[0].x unexpected|$.o[1].x unexpected|$.o[1].x duplicate", NULL},
    {"an unexpected key again after a nested object",
     "fields:\n  a: {type: integer}\n  n: {type: object, fields: {b: {type: integer}}}\n",
     "{\"x\":1,\"n\":{\"b\":1,\"x\":1},\"a\":1,\"x\":1}",
     "$.x unexpected|$.n.x unexpected|$.x duplicate", NULL},
    {"a key that needs brackets", "fields:\n  a: {type: integer}\n", "{\"a\":1,\"order id\":2}",
     "$['order id'] unexpected", NULL},
    {"a key with a quote and a backslash", "fields:\n  a: {type: integer}\n", "{\"a\":1,\"it's\\\\\":2}",
     "$['it\\'s\\\\'] unexpected", NULL},
    {"keys match case-sensitively", "fields:\n  a: {type: integer}\n", "{\"A\":1}",
     "$.A unexpected|$.a missing", "did you mean \"a\""},
    /* documents */
    {"the root must be an object", "fields:\n  a: {type: integer}\n", "[1]", "$ type", "the reply is an array"},
    {"a syntax problem replaces the others", "fields:\n  a: {type: integer}\n", "{\"a\":\"x\",}", "$ syntax",
     NULL},
    {"a leading zero", "fields:\n  a: {type: integer}\n", "{\"a\":01}", "$ syntax", NULL},
    {"an empty reply", "fields:\n  a: {type: integer}\n", "  \n ", "$ empty", NULL},
    {"a fence is stripped", "fields:\n  a: {type: integer}\n", "```json\n{\"a\":1}\n```", "", NULL},
    {"a fence under fence: reject", "reply: {fence: reject}\nfields:\n  a: {type: integer}\n",
     "```json\n{\"a\":1}\n```", "$ syntax", NULL},
    {"\\u0000 is an encoding problem", "fields:\n  s: {type: string}\n", "{\"s\":\"a\\u0000\"}", "$ encoding",
     NULL},
    {"a lone surrogate is an encoding problem", "fields:\n  s: {type: string}\n", "{\"s\":\"\\ud800\"}",
     "$ encoding", NULL},
    {"depth counts skipped values too", "reply: {max_depth: 3}\nfields:\n  a: {type: integer}\n",
     "{\"a\":1,\"x\":[[[1]]]}", "$ limit", NULL},
    {"max_bytes is checked before reading", "reply: {max_bytes: 8}\nfields:\n  a: {type: integer}\n",
     "{\"a\":12345}", "$ limit", "the reply is 11 bytes; the limit is 8 bytes"},
    /* rules */
    {"all_or_none", "fields:\n  a: {type: integer, nullable: true}\n  b: {type: integer, nullable: true}\n"
                    "rules:\n  - all_or_none: [a, b]\n",
     "{\"a\":1,\"b\":null}", "$ rule", "a and b must be all null or all set"},
    {"a rule waits for its operands' own checks",
     "fields:\n  a: {type: integer, nullable: true}\n  b: {type: integer, nullable: true}\n"
     "rules:\n  - all_or_none: [a, b]\n",
     "{\"a\":\"1\",\"b\":null}", "$.a type", NULL},
    {"exactly_one", "fields:\n  a: {type: integer, nullable: true}\n  b: {type: integer, nullable: true}\n"
                    "rules:\n  - exactly_one: [a, b]\n",
     "{\"a\":null,\"b\":null}", "$ rule", NULL},
    {"at_most_one", "fields:\n  a: {type: integer, nullable: true}\n  b: {type: integer, nullable: true}\n"
                    "rules:\n  - at_most_one: [a, b]\n",
     "{\"a\":1,\"b\":2}", "$ rule", NULL},
    {"compare dates", "fields:\n  s: {type: date}\n  e: {type: date}\nrules:\n  - compare: {left: s, op: '<=', right: e}\n",
     "{\"s\":\"2024-03-02\",\"e\":\"2024-03-01\"}", "$ rule", NULL},
    {"compare date-times by instant",
     "fields:\n  s: {type: datetime}\n  e: {type: datetime}\nrules:\n  - compare: {left: s, op: '<', right: e}\n",
     "{\"s\":\"2024-03-01T10:00:00+02:00\",\"e\":\"2024-03-01T09:00:00Z\"}", "", NULL},
    /* == and != on strings (bytes, after decoding), enums (by spelling,
     * whatever order each lists its values in) and booleans */
    {"compare strings, equal", "fields:\n  a: {type: string}\n  b: {type: string}\n"
                               "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":\"x\\u00e9\",\"b\":\"x\xC3\xA9\"}", "", NULL},
    {"compare strings, case-sensitive", "fields:\n  a: {type: string}\n  b: {type: string}\n"
                                        "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":\"x\",\"b\":\"X\"}", "$ rule", "a must be equal to b"},
    {"compare strings, a prefix is not equal", "fields:\n  a: {type: string}\n  b: {type: string}\n"
                                               "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":\"ab\",\"b\":\"abc\"}", "$ rule", NULL},
    {"compare strings, different", "fields:\n  a: {type: string}\n  b: {type: string}\n"
                                   "rules:\n  - compare: {left: a, op: '!=', right: b}\n",
     "{\"a\":\"\",\"b\":\"\"}", "$ rule", "a must be different from b"},
    {"compare strings, skipped on null",
     "fields:\n  a: {type: string, nullable: true}\n  b: {type: string}\n"
     "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":null,\"b\":\"x\"}", "", NULL},
    {"compare enums by spelling", "fields:\n  a: {type: enum, values: [eur, usd]}\n"
                                  "  b: {type: enum, values: [usd, gbp, eur]}\n"
                                  "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":\"eur\",\"b\":\"eur\"}", "", NULL},
    {"compare enums, unequal", "fields:\n  a: {type: enum, values: [eur, usd]}\n"
                               "  b: {type: enum, values: [usd, eur]}\n"
                               "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":\"eur\",\"b\":\"usd\"}", "$ rule", "a must be equal to b"},
    {"compare enums, different", "fields:\n  a: {type: enum, values: [eur, usd]}\n"
                                 "  b: {type: enum, values: [usd, eur]}\n"
                                 "rules:\n  - compare: {left: a, op: '!=', right: b}\n",
     "{\"a\":\"usd\",\"b\":\"usd\"}", "$ rule", "a must be different from b"},
    {"compare booleans", "fields:\n  a: {type: boolean}\n  b: {type: boolean}\n"
                         "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":true,\"b\":false}", "$ rule", "a must be equal to b"},
    {"compare booleans, equal", "fields:\n  a: {type: boolean}\n  b: {type: boolean}\n"
                                "rules:\n  - compare: {left: a, op: '==', right: b}\n",
     "{\"a\":false,\"b\":false}", "", NULL},
    {"compare booleans, different", "fields:\n  a: {type: boolean}\n  b: {type: boolean}\n"
                                    "rules:\n  - compare: {left: a, op: '!=', right: b}\n",
     "{\"a\":true,\"b\":true}", "$ rule", NULL},
    {"29 February in a common year", "fields:\n  d: {type: date}\n", "{\"d\":\"2023-02-29\"}", "$.d format",
     "a real calendar date"},
    {"29 February in a leap year", "fields:\n  d: {type: date}\n", "{\"d\":\"2024-02-29\"}", "", NULL},
    {"sum within its tolerance",
     "fields:\n  xs: {type: array, items: {type: integer}}\n  t: {type: integer}\n"
     "rules:\n  - sum: {of: \"xs[]\", equals: t, tolerance: 1}\n",
     "{\"xs\":[1,2,3],\"t\":7}", "", NULL},
    /* sum is exact: -0.01 is 2^63 + 6 minor units away from the total (a
     * difference beyond int64, once wrapped and accepted) */
    {"a sum off its total by more than int64 holds",
     "fields:\n  entries: {type: array, items: {type: decimal, scale: 2, signed: true}}\n"
     "  balance: {type: decimal, scale: 2, signed: true}\n"
     "rules:\n  - sum: {of: \"entries[]\", equals: balance}\n",
     "{\"entries\":[\"-0.01\"],\"balance\":\"92233720368547758.07\"}", "$ rule",
     "the sum of entries[] must equal balance: the items add up to -0.01, but balance is "
     "92233720368547758.07"},
    {"a sum equal to its total at INT64_MIN minor units",
     "fields:\n  entries: {type: array, items: {type: decimal, scale: 2, signed: true}}\n"
     "  balance: {type: decimal, scale: 2, signed: true}\n"
     "rules:\n  - sum: {of: \"entries[]\", equals: balance}\n",
     "{\"entries\":[\"-92233720368547758.00\",\"-0.08\"],\"balance\":\"-92233720368547758.08\"}", "",
     NULL},
    /* the seven behaviours docs/contract-language.md pins down */
    {"a root null is a type problem", "fields:\n  a: {type: integer}\n", "null", "$ type",
     "the reply is null; expected one JSON object"},
    {"number bounds compare the double read: the same double as the maximum",
     "fields:\n  x: {type: number, maximum: 0.1}\n", "{\"x\":0.10000000000000001}", "", NULL},
    {"number bounds compare the double read: the next double above it",
     "fields:\n  x: {type: number, maximum: 0.1}\n", "{\"x\":0.10000000000000002}", "$.x range",
     "above the maximum 0.1"},
    {"number bounds compare the double read: the minimum",
     "fields:\n  x: {type: number, minimum: 1e-7}\n", "{\"x\":0.000000099999999999999999}", "",
     NULL},
    {"a signed decimal -0.00", "fields:\n  a: {type: decimal, scale: 2, signed: true}\n",
     "{\"a\":\"-0.00\"}", "", NULL},
    {"a key cut to 64 code points keeps dot notation",
     "fields:\n  a: {type: integer}\n", "{\"a\":1,\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkxyz\":2}",
     "$.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\xE2\x80\xA6 unexpected", NULL},
    {"a key cut to 64 code points that is no identifier keeps brackets",
     "fields:\n  a: {type: integer}\n", "{\"a\":1,\"-kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkxyz\":2}",
     "$['-kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\xE2\x80\xA6'] unexpected", NULL},
    {"year 0000 is a valid date", "fields:\n  d: {type: date}\n", "{\"d\":\"0000-01-01\"}", "", NULL},
    {"year 0000 is a leap year (divisible by 400)", "fields:\n  d: {type: date}\n",
     "{\"d\":\"0000-02-29\"}", "", NULL},
    {"CRLF around a fence", "fields:\n  a: {type: integer}\n", "\r\n```json\r\n{\"a\":1}\r\n```\r\n", "",
     NULL},
    {"an empty fence with a json tag", "fields:\n  a: {type: integer}\n", "```json\n```", "$ empty",
     "the fence is empty"},
    {"an empty fence with a json tag and blank lines", "fields:\n  a: {type: integer}\n",
     "```json\r\n\r\n```", "$ empty", "the fence is empty"},
    {"an array item's path", "fields:\n  xs: {type: array, max_items: 2, items: {type: integer}}\n",
     "{\"xs\":[1,\"2\",3]}", "$.xs[1] type|$.xs items", NULL},
};

static char *problems_text(const contractc_problems_t *p)
{
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < contractc_problems_count(p); i++) {
        const contractc_problem_t *x = contractc_problems_at(p, i);
        cc_buf_printf(&b, "%s%s %s", i ? "|" : "", x->path, contractc_kind_name(x->kind));
    }
    char *s = cc_buf_take(&b, NULL);
    return s;
}

/* Parses `reply` against `c` and asserts the problem list ("PATH KIND|...",
 * "" for accept) and the status; the first problem's message must contain
 * `fragment` when it is not NULL.  `what` names the case in failures. */
static void expect_problems(const contractc_contract_t *c, const char *what, const char *reply,
                            const char *expect, const char *fragment)
{
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    contractc_status_t rc = contractc_parse(c, reply, strlen(reply), NULL, 0, NULL, record, &p);
    char *got = problems_text(&p);
    ck_assert_msg(strcmp(got, expect) == 0, "%s: expected [%s], got [%s]", what, expect, got);
    ck_assert_msg((rc == CONTRACTC_OK) == (expect[0] == '\0'), "%s: status %s", what,
                  contractc_status_name(rc));
    if (fragment) {
        const char *msg = contractc_problems_at(&p, 0)->message;
        ck_assert_msg(strstr(msg, fragment) != NULL, "%s: message \"%s\" lacks \"%s\"", what, msg,
                      fragment);
    }
    free(got);
    if (rc == CONTRACTC_OK)
        contractc_record_free(c, record);
    contractc_problems_clear(&p);
    free(record);
}

/* Contract field names are identifiers; the runtime reads an expected key
 * without a scan only when the table says so (path_segment ".name").  A
 * table whose name holds '"' or '\\' (path segment "['...']") must not match
 * those raw bytes (RFC 8259 section 7: in the reply they are escapes or end
 * the string). */
START_TEST(a_key_is_never_matched_raw_when_the_name_would_need_escapes)
{
    static const struct {
        const char *name, *segment, *reply, *expect;
    } cases[] = {
        {"a\"b", "['a\"b']", "{\"a\\\"b\":1}", ""},      /* escaped: the name */
        {"a\"b", "['a\"b']", "{\"a\"b\":1}", "$ syntax"}, /* raw: the key is "a" */
        {"a\\b", "['a\\\\b']", "{\"a\\\\b\":1}", ""},    /* escaped backslash: the name */
        {"a\\b", "['a\\\\b']", "{\"a\\b\":1}",             /* \b is U+0008 */
         "$['a\\b'] unexpected|$['a\\\\b'] missing"},
        {"ab", ".ab", "{\"ab\":1}", ""},                       /* the raw match itself */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        loaded_t l = open_contract(HEAD "fields:\n  ab: {type: integer}\n");
        contractc_field_t *f = (contractc_field_t *)(void *)&l.tables->contract.root->fields[0];
        f->name = cases[i].name;
        f->name_len = (uint32_t)strlen(cases[i].name);
        f->path_segment = cases[i].segment;
        expect_problems(&l.tables->contract, cases[i].reply, cases[i].reply, cases[i].expect, NULL);
        close_contract(&l);
    }
}
END_TEST

START_TEST(each_row_gives_exactly_its_problems)
{
    const row_t *r = &rows[_i];
    cc_buf_t y = CC_BUF_INIT;
    cc_buf_puts(&y, HEAD);
    cc_buf_puts(&y, r->yaml);
    loaded_t l = open_contract(y.data);
    cc_buf_free(&y);
    expect_problems(&l.tables->contract, r->name, r->reply, r->expect, r->fragment);
    close_contract(&l);
}
END_TEST

START_TEST(a_sum_that_overflows_is_a_rule_problem_not_a_wrapped_value)
{
    /* 1025 items of 2^53-1 pass 2^63: the sum must not wrap */
    loaded_t l = open_contract(HEAD "fields:\n  xs: {type: array, items: {type: integer}}\n  t: {type: integer}\n"
                                    "rules:\n  - sum: {of: \"xs[]\", equals: t}\n");
    const contractc_contract_t *c = &l.tables->contract;
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "{\"xs\":[");
    for (int i = 0; i < 1025; i++)
        cc_buf_printf(&b, "%s9007199254740991", i ? "," : "");
    cc_buf_puts(&b, "],\"t\":1}");
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(contractc_parse(c, b.data, b.len, NULL, 0, NULL, record, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_RULE);
    ck_assert_str_eq(contractc_problems_at(&p, 0)->path, "$");
    ck_assert_str_eq(contractc_problems_at(&p, 0)->rule, "rules[0]");
    ck_assert_str_eq(contractc_problems_at(&p, 0)->message,
                     "the sum of xs[] must equal t: the sum of the items does not fit in a signed "
                     "64-bit integer");
    contractc_problems_clear(&p);
    cc_buf_free(&b);
    free(record);
    close_contract(&l);
}
END_TEST

/* The canonical form of what was read (docs/contract-language.md,
 * "Canonical form of a record"): `number` as ECMAScript's
 * Number.prototype.toString writes the double read, at the edges of its
 * exponent form; a signed "-0.00" as "0.00"; year 0000 as written. */
static const struct {
    const char *number, *canonical;
} canonical_numbers[] = {
    {"1e21", "1e+21"},
    {"1E21", "1e+21"},
    {"999999999999999999999", "1e+21"},
    {"100000000000000000000", "100000000000000000000"},
    {"123456789012345678901", "123456789012345680000"},
    {"1e-6", "0.000001"},
    {"0.000001", "0.000001"},
    {"1e-7", "1e-7"},
    {"0.00000012", "1.2e-7"},
    {"4.9e-324", "5e-324"},
    {"5e-324", "5e-324"},
    {"1.7976931348623157e308", "1.7976931348623157e+308"},
    {"-0", "0"},
    {"-0.0e5", "0"},
    {"100e-2", "1"},
    {"0.30000000000000004", "0.30000000000000004"},
    {"-1.5e300", "-1.5e+300"},
};

START_TEST(the_canonical_form_writes_numbers_as_ecmascript_does)
{
    loaded_t l = open_contract(HEAD "fields:\n  x: {type: number}\n"
                                    "  d: {type: decimal, scale: 2, signed: true}\n"
                                    "  y: {type: date}\n");
    const contractc_contract_t *c = &l.tables->contract;
    char reply[256], want[256];
    snprintf(reply, sizeof reply, "{\"x\":%s,\"d\":\"-0.00\",\"y\":\"0000-02-29\"}",
             canonical_numbers[_i].number);
    snprintf(want, sizeof want, "{\"x\":%s,\"d\":\"0.00\",\"y\":\"0000-02-29\"}",
             canonical_numbers[_i].canonical);
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(contractc_parse(c, reply, strlen(reply), NULL, 0, NULL, record, &p),
                     CONTRACTC_OK);
    size_t len = 0;
    char *json = contractc_to_json(c, record, &len);
    ck_assert_ptr_nonnull(json);
    ck_assert_str_eq(json, want);
    ck_assert_uint_eq(len, strlen(want));
    free(json);
    contractc_record_free(c, record);
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

START_TEST(log_messages_carry_no_reply_values)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: decimal, scale: 2}\n  s: {type: string, max_length: 2}\n"
                                    "  c: {type: enum, values: [EUR]}\n  n: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    const char *reply = "{\"a\":\"SECRET1\",\"s\":\"SECRET2\",\"c\":\"SECRET3\",\"n\":\"SECRET4\"}";
    ck_assert_int_eq(contractc_parse(c, reply, strlen(reply), NULL, 0, NULL, record, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 4);
    for (size_t i = 0; i < 4; i++) {
        const contractc_problem_t *x = contractc_problems_at(&p, i);
        ck_assert_msg(strstr(x->message, "SECRET") != NULL, "the model sees the value: %s", x->message);
        ck_assert_msg(strstr(x->log_message, "SECRET") == NULL, "the log must not: %s", x->log_message);
    }
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

START_TEST(the_cap_keeps_the_first_problems_and_counts_the_rest)
{
    loaded_t l = open_contract(HEAD "fields:\n  xs: {type: array, items: {type: integer}}\n");
    const contractc_contract_t *c = &l.tables->contract;
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "{\"xs\":[");
    for (int i = 0; i < 100; i++)
        cc_buf_printf(&b, "%s\"%d\"", i ? "," : "", i);
    cc_buf_puts(&b, "]}");
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init_with(&p, 10, NULL);
    ck_assert_int_eq(contractc_parse(c, b.data, b.len, NULL, 0, NULL, record, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 10);
    ck_assert_uint_eq(p.dropped, 90);
    ck_assert_str_eq(contractc_problems_at(&p, 9)->path, "$.xs[9]");
    char *turn = NULL;
    ck_assert_int_eq(contractc_repair_prompt(&p, &turn, NULL), CONTRACTC_OK);
    ck_assert_ptr_nonnull(strstr(turn, "- ... and 90 more problems\n"));
    free(turn);
    contractc_problems_clear(&p);
    /* the list is reusable after clear */
    ck_assert_uint_eq(contractc_problems_count(&p), 0);
    cc_buf_free(&b);
    free(record);
    close_contract(&l);
}
END_TEST

START_TEST(grounding_is_an_exact_search_of_the_source)
{
    loaded_t l = open_contract(HEAD "source: {name: email, description: the customer email}\n"
                                    "fields:\n  q: {type: string, grounded: true, nullable: true}\n");
    const contractc_contract_t *c = &l.tables->contract;
    /* a long needle goes through the linear-time search */
    const char *source = "Dear team, the amount was 1.250,00 EUR and the order A-1 arrived late; "
                         "the parcel was damaged beyond repair, said the customer in their email.";
    struct { const char *reply; contractc_status_t want; } cases[] = {
        {"{\"q\":\"1.250,00 EUR\"}", CONTRACTC_OK},
        {"{\"q\":\"1.250,00 eur\"}", CONTRACTC_REJECTED},          /* no case folding */
        {"{\"q\":\"1.250,00  EUR\"}", CONTRACTC_REJECTED},         /* no space folding */
        {"{\"q\":\"the parcel was damaged beyond repair, said the customer\"}", CONTRACTC_OK},
        {"{\"q\":\"the parcel was damaged beyond repair, said the customers\"}", CONTRACTC_REJECTED},
        {"{\"q\":\"\"}", CONTRACTC_REJECTED},                      /* empty is never grounded */
        {"{\"q\":null}", CONTRACTC_OK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        void *record = calloc(1, c->root->size);
        contractc_problems_t p;
        contractc_problems_init(&p);
        contractc_status_t rc = contractc_parse(c, cases[i].reply, strlen(cases[i].reply), source,
                                                strlen(source), NULL, record, &p);
        ck_assert_msg(rc == cases[i].want, "%s: %s", cases[i].reply, contractc_status_name(rc));
        if (rc == CONTRACTC_REJECTED)
            ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_GROUNDING);
        if (rc == CONTRACTC_OK)
            contractc_record_free(c, record);
        contractc_problems_clear(&p);
        free(record);
    }
    /* a source that is not UTF-8, or none at all, is an error outcome */
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(contractc_parse(c, "{\"q\":null}", 10, "\xff", 1, NULL, record, &p), CONTRACTC_EINVAL);
    ck_assert_ptr_nonnull(strstr(p.error, "UTF-8"));
    ck_assert_int_eq(contractc_parse(c, "{\"q\":null}", 10, NULL, 0, NULL, record, &p), CONTRACTC_EINVAL);
    ck_assert_uint_eq(contractc_problems_count(&p), 0);
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

/* A counting allocator: how many allocations a parse makes. */
typedef struct counter {
    size_t allocs, frees, live, peak;
} counter_t;

static void *count_alloc(void *ctx, size_t size)
{
    counter_t *c = ctx;
    c->allocs++;
    c->live += size;
    if (c->live > c->peak)
        c->peak = c->live;
    return malloc(size);
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counter_t *c = ctx;
    if (!ptr)
        return;
    c->frees++;
    c->live -= size;
    free(ptr);
}

START_TEST(an_accepted_flat_record_is_one_arena_allocation)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: string}\n  b: {type: decimal, scale: 2}\n"
                                    "  c: {type: enum, values: [x, y]}\n");
    const contractc_contract_t *c = &l.tables->contract;
    counter_t n = {0, 0, 0, 0};
    contractc_allocator_t a = {count_alloc, count_free, &n};
    contractc_options_t o = {&a, 0, 0, NULL};
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    const char *reply = "{\"a\":\"hello\",\"b\":\"1.00\",\"c\":\"y\"}";
    ck_assert_int_eq(contractc_parse(c, reply, strlen(reply), NULL, 0, &o, record, &p), CONTRACTC_OK);
    /* the arena, and nothing else */
    ck_assert_uint_eq(n.allocs, 1);
    ck_assert_uint_eq(n.frees, 0);
    contractc_record_free(c, record);
    ck_assert_uint_eq(n.frees, 1);
    ck_assert_uint_eq(n.live, 0);
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

/*
 * String values of many lengths, with escapes and raw UTF-8 spread over
 * them, are stored byte for byte: those the scan decodes as it goes (up to
 * the parse's 2 KiB text buffer), those it gives up on part of the way (a
 * \u escape, the buffer full) and decodes after, and those that end near
 * the end of the reply.
 */
START_TEST(string_values_of_every_length_are_stored_exactly)
{
    loaded_t l = open_contract(HEAD "fields:\n  s: {type: string}\n  n: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    const contractc_field_t *f = &c->root->fields[0];
    ck_assert_str_eq(f->name, "s");
    static const size_t lengths[] = {0,    1,    15,   16,   17,   31,   33,   100,  2000, 2030,
                                     2031, 2032, 2033, 2034, 2047, 2048, 2049, 4000, 9001};
    static const struct {
        const char *raw, *decoded;
    } pieces[] = {
        {"a", "a"}, {"\\n", "\n"}, {"\\\"", "\""}, {"\xc3\xa9", "\xc3\xa9"},
        {"b", "b"}, {"\\\\", "\\"}, {"\\u00e9", "\xc3\xa9"}, {"c", "c"},
    };
    for (int with_u = 0; with_u < 2; with_u++)
        for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
            /* lengths[li] pieces; one \u escape, in the middle, if with_u */
            size_t cap = lengths[li] * 8 + 64, n = 0, w = 0;
            char *reply = malloc(cap), *want = malloc(cap);
            ck_assert(reply && want);
            n += (size_t)sprintf(reply, "{\"s\":\"");
            for (size_t i = 0; i < lengths[li]; i++) {
                size_t k = (i * 7 + i / 3) % 8;
                if (k == 6)
                    k = 7;
                if (with_u && i == lengths[li] / 2)
                    k = 6;
                n += (size_t)sprintf(reply + n, "%s", pieces[k].raw);
                w += (size_t)sprintf(want + w, "%s", pieces[k].decoded);
            }
            /* the string ends 9 bytes before the end of the reply, 30, or 2 */
            n += (size_t)sprintf(reply + n, li % 2 == 0 ? "\"}"
                                            : li % 4 == 1 ? "\",\"n\":1}"
                                                          : "\",                     \"n\":1}");
            if (li % 2 == 0) { /* the field order does not matter */
                memmove(reply + 8, reply, n);
                memcpy(reply, "{\"n\":1,\"", 8);
                memmove(reply + 8, reply + 8 + 2, n - 2);
                n += 6;
            }
            void *record = calloc(1, c->root->size);
            contractc_problems_t p;
            contractc_problems_init(&p);
            contractc_status_t rc = contractc_parse(c, reply, n, NULL, 0, NULL, record, &p);
            ck_assert_msg(rc == CONTRACTC_OK, "length %zu: %s: %.60s", lengths[li],
                          contractc_status_name(rc), reply);
            /* A second parse writes over whatever the first left on the
             * stack: the record must not point there. */
            void *other = calloc(1, c->root->size);
            const char *zs = "{\"s\":\"zzzzzzzz\\nzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\",\"n\":2}";
            ck_assert_int_eq(contractc_parse(c, zs, strlen(zs), NULL, 0, NULL, other, &p),
                             CONTRACTC_OK);
            contractc_record_free(c, other);
            free(other);
            const char *got;
            size_t got_len;
            memcpy(&got, (const char *)record + f->offset, sizeof got);
            memcpy(&got_len, (const char *)record + f->aux_offset, sizeof got_len);
            ck_assert_msg(got_len == w && memcmp(got, want, w) == 0 && got[w] == '\0',
                          "length %zu (\\u: %d): stored %zu bytes, expected %zu", lengths[li],
                          with_u, got_len, w);
            contractc_record_free(c, record);
            contractc_problems_clear(&p);
            free(record);
            free(reply);
            free(want);
        }
    close_contract(&l);
}
END_TEST

START_TEST(limits_can_be_overridden_per_call)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    contractc_options_t o = {NULL, 4, 0, NULL};
    ck_assert_int_eq(contractc_parse(c, "{\"a\":1}", 7, NULL, 0, &o, record, &p), CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_LIMIT);
    contractc_problems_clear(&p);
    contractc_options_t deep = {NULL, 0, 1, NULL};
    ck_assert_int_eq(contractc_parse(c, "{\"a\":1}", 7, NULL, 0, &deep, record, &p), CONTRACTC_OK);
    contractc_record_free(c, record);
    contractc_problems_clear(&p);
    ck_assert_int_eq(contractc_parse(c, "{\"a\":[1]}", 9, NULL, 0, &deep, record, &p), CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_LIMIT);
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

START_TEST(document_problems_give_line_and_column)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    void *record = calloc(1, c->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    const char *reply = "{\n  \"a\": 1,\n  \"b\": 'x'\n}";
    ck_assert_int_eq(contractc_parse(c, reply, strlen(reply), NULL, 0, NULL, record, &p), CONTRACTC_REJECTED);
    const contractc_problem_t *x = contractc_problems_at(&p, 0);
    ck_assert_int_eq(x->kind, CONTRACTC_KIND_SYNTAX);
    ck_assert_str_eq(x->path, "$");
    ck_assert_uint_eq(x->line, 3);
    ck_assert_uint_eq(x->column, 8);
    ck_assert_ptr_nonnull(strstr(x->message, "line 3, column 8"));
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    contractc_problems_clear(&p);
    free(record);
    close_contract(&l);
}
END_TEST

/* ---- reported problems: exact texts, long messages, the list's storage --- */

/* Parses `reply` into `p` (not cleared first) with allocator `a` (or NULL). */
static contractc_status_t parse_into(const contractc_contract_t *c, const char *reply, size_t len,
                                     const contractc_allocator_t *a, contractc_problems_t *p)
{
    void *record = calloc(1, c->root->size);
    contractc_options_t o = {a, 0, 0, NULL};
    contractc_status_t rc = contractc_parse(c, reply, len, NULL, 0, &o, record, p);
    if (rc == CONTRACTC_OK)
        contractc_record_free(c, record);
    free(record);
    return rc;
}

/* Document-level problems: the model's message shows what the reply holds
 * where the text breaks (the word, the number, the character); the log's
 * says line, column and the class of what was found, never its bytes. */
static const struct {
    const char *reply;
    const char *model; /* a fragment of the model's message */
    const char *log;   /* the whole log message */
} document_logs[] = {
    {"{\"a\":4111111111111111xyz}", "invalid number (in \"4111111111111111xyz\")",
     "line 1, column 22: invalid number; reply with exactly one JSON object and nothing else"},
    {"{\"a\":SECRET_TOKEN_x}", "unexpected word 'SECRET_TOKEN_x' here",
     "line 1, column 6: unexpected word here (JSON has only true, false and null, in lowercase); "
     "reply with exactly one JSON object and nothing else"},
    {"SECRET", "unexpected word 'SECRET' where a value was expected",
     "line 1, column 1: unexpected word where a value was expected (JSON has only true, false "
     "and null, in lowercase); reply with exactly one JSON object and nothing else"},
    {"{\"a\":NaN}", "unexpected word 'NaN'",
     "line 1, column 6: unexpected word here (JSON has no NaN or Infinity: write a finite "
     "number or null); reply with exactly one JSON object and nothing else"},
    {"Sure: {\"a\":1}", "found 'S'",
     "line 1, column 1: text before the JSON value: the reply must start with a JSON value or a "
     "``` fence, found a letter; reply with exactly one JSON object and nothing else"},
    {"{\"a\":1 x}", "found 'x'",
     "line 1, column 8: expected ',' or '}' after an object member, found a letter; reply with "
     "exactly one JSON object and nothing else"},
    {"{\"a\":1 #}", "found '#'",
     "line 1, column 8: expected ',' or '}' after an object member, found a punctuation "
     "character; reply with exactly one JSON object and nothing else"},
    /* the grammar's punctuation is a token class of its own */
    {"{\"a\":1 :}", "found ':'",
     "line 1, column 8: expected ',' or '}' after an object member, found ':'; reply with "
     "exactly one JSON object and nothing else"},
    {"{\"a\":1 \x01}", "found U+0001",
     "line 1, column 8: expected ',' or '}' after an object member, found a control character; "
     "reply with exactly one JSON object and nothing else"},
    {"{\"a\":1 \xC3\xA9}", "found U+00E9",
     "line 1, column 8: expected ',' or '}' after an object member, found a non-ASCII "
     "character; reply with exactly one JSON object and nothing else"},
    {"{\"a\":\xEF\xBB\xBF" "1}", "found U+FEFF (a byte order mark)",
     "line 1, column 6: expected a value here, found a byte order mark; reply with exactly one "
     "JSON object and nothing else"},
    {"{\"a\":\"\\q\"}", "invalid escape '\\q' in a string",
     "line 1, column 7: invalid escape in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
     "\\uXXXX); reply with exactly one JSON object and nothing else"},
    {"{\"a\":\"\\\x01\"}", "invalid escape '\\' followed by byte 0x01 in a string",
     "line 1, column 7: invalid escape in a string (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t "
     "\\uXXXX); reply with exactly one JSON object and nothing else"},
    {"{\"a\":\"x\x02y\"}", "raw control character U+0002 in a string (write \\u0002)",
     "line 1, column 8: raw control character in a string (write it as an escape such as \\n or "
     "\\u001F); reply with exactly one JSON object and nothing else"},
    {"{\"a\":\"\\ud83d\"}", "lone surrogate \\uD83D in a string",
     "line 1, column 7: lone surrogate escape in a string (a high surrogate must be followed by "
     "a low one, \\uDC00-\\uDFFF); reply with exactly one JSON object and nothing else"},
    {"{\"a\":\"\xC3(\"}", "(byte 0xC3)",
     "line 1, column 7: invalid UTF-8: a truncated UTF-8 sequence; reply with exactly one JSON "
     "object and nothing else"},
    {"{\"a\":-x}", "expected a digit after '-' (in \"-x\")",
     "line 1, column 7: expected a digit after '-'; reply with exactly one JSON object and "
     "nothing else"},
    /* texts that quote nothing are the same for both */
    {"{\"a\":1,}", "expected a key string, found '}'",
     "line 1, column 8: expected a key string, found '}'; reply with exactly one JSON object and "
     "nothing else"},
    {"{\"a\":1", "found the end of the reply",
     "line 1, column 7: expected ',' or '}' after an object member, found the end of the reply; "
     "reply with exactly one JSON object and nothing else"},
};

START_TEST(document_log_messages_name_the_token_class_not_its_bytes)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    contractc_problems_t p;
    contractc_problems_init(&p);
    const char *reply = document_logs[_i].reply;
    ck_assert_int_eq(parse_into(c, reply, strlen(reply), NULL, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    const contractc_problem_t *x = contractc_problems_at(&p, 0);
    ck_assert(contractc_kind_is_document_level(x->kind));
    ck_assert_msg(strstr(x->message, document_logs[_i].model) != NULL, "model: %s", x->message);
    ck_assert_str_eq(x->log_message, document_logs[_i].log);
    contractc_problems_clear(&p);
    close_contract(&l);
}
END_TEST

/* Marker bytes: none occurs in any text of contractc's own nor in the
 * contract below, so a log message holding one took it from the reply. */
static bool is_marker(unsigned char b)
{
    return b >= 0x80 || b < 0x20 || b == 0x7F || b == 'Q' || b == 'V' || b == 'W' ||
           b == 'G' || b == '#' || b == '~' || b == '@' || b == '^' || b == '&' || b == '!';
}

/* Every problem of thousands of broken replies, each a valid one with
 * marker bytes put in (a byte, a word, a number's tail, an escape, a
 * sequence that is no UTF-8), at every kind of place: no log message
 * holds a marker byte, whatever the model's shows. */
START_TEST(no_log_message_holds_a_byte_of_the_reply)
{
    loaded_t l = open_contract(HEAD "fields:\n  name: {type: string, max_length: 8}\n"
                                    "  amount: {type: decimal, scale: 2, signed: true}\n"
                                    "  count: {type: integer, maximum: 9}\n"
                                    "  ratio: {type: number}\n"
                                    "  cur: {type: enum, values: [eur, usd]}\n"
                                    "  day: {type: date}\n"
                                    "  ok: {type: boolean}\n"
                                    "  lines:\n    type: array\n    items:\n      type: object\n"
                                    "      fields:\n        price: {type: decimal, scale: 2}\n"
                                    "  total: {type: decimal, scale: 2}\n"
                                    "rules:\n  - sum: {of: \"lines[].price\", equals: total}\n");
    const contractc_contract_t *c = &l.tables->contract;
    static const char *const bases[] = {
        "{\"name\":\"ab\",\"amount\":\"-1.50\",\"count\":3,\"ratio\":0.5,\"cur\":\"eur\","
        "\"day\":\"2024-02-29\",\"ok\":true,\"lines\":[{\"price\":\"1.00\"},{\"price\":\"2.00\"}],"
        "\"total\":\"3.00\"}",
        "```json\n{\"name\":\"ab\",\"amount\":\"0.00\",\"count\":0,\"ratio\":-1e3,\"cur\":\"usd\","
        "\"day\":\"0000-01-01\",\"ok\":false,\"lines\":[],\"total\":\"0.00\"}\n```",
    };
    static const char *const inserts[] = {
        "Q", "V", "W", "G", "#", "~", "@", "^", "&", "!", "\x01", "\x1f", "\x7f", "\xC3\xA9",
        "\xC3", "\xEF\xBB\xBF", "\xFF", "\xED\xA0\x80", "QW", "1Q", "9V9", "-Q", "1.Q", "1eQ",
        "\\Q", "\\uQW12", "\"Q\"", "\"\\Q\"", "QWGV_QW", "\"Q\":1,", ",\"Q\":\"W\"",
        "\"G#\":[Q]", "\"ok\":tQue,", "\"ok\":nuGl,", "\"\\uD800Q\"",
        "\"amount\":\"Q\",", "\"cur\":\"Q\",", "\"name\":\"QQQQQQQQQ\",", "\"count\":99,",
        "\"day\":\"2024-02-30\",", "\"ratio\":1e999,", "\"count\":\"Q\",",
    };
    uint64_t x = UINT64_C(0x9E3779B97F4A7C15);
    size_t problems = 0, document = 0, with_marker_in_model = 0;
    for (int n = 0; n < 20000; n++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        const char *base = bases[x % 2];
        const char *ins = inserts[(x >> 8) % (sizeof inserts / sizeof *inserts)];
        const size_t bl = strlen(base), il = strlen(ins), at = (size_t)(x >> 24) % (bl + 1);
        const bool replace = ((x >> 20) & 3) == 0 && at < bl;
        char reply[512];
        memcpy(reply, base, at);
        memcpy(reply + at, ins, il);
        const size_t rest = replace ? at + 1 : at;
        memcpy(reply + at + il, base + rest, bl - rest);
        const size_t len = at + il + bl - rest;
        contractc_problems_t p;
        contractc_problems_init(&p);
        contractc_status_t rc = parse_into(c, reply, len, NULL, &p);
        if (rc != CONTRACTC_OK && rc != CONTRACTC_REJECTED)
            ck_abort_msg("reply [%.*s]: status %s", (int)len, reply, contractc_status_name(rc));
        for (size_t i = 0; i < contractc_problems_count(&p); i++) {
            const contractc_problem_t *q = contractc_problems_at(&p, i);
            problems++;
            document += contractc_kind_is_document_level(q->kind);
            for (const char *m = q->message; *m; m++)
                if (is_marker((unsigned char)*m)) {
                    with_marker_in_model++;
                    break;
                }
            /* (an assertion per byte would cost a write to Check's pipe) */
            for (const char *m = q->log_message; *m; m++)
                if (is_marker((unsigned char)*m))
                    ck_abort_msg("reply [%.*s]: log message [%s] holds byte 0x%02X", (int)len,
                                 reply, q->log_message, (unsigned char)*m);
        }
        contractc_problems_clear(&p);
    }
    /* the sweep reached both kinds of problems, and the model's messages
     * did quote the markers */
    ck_assert_uint_gt(document, 2000);
    ck_assert_uint_gt(problems - document, 2000);
    ck_assert_uint_gt(with_marker_in_model, 2000);
    close_contract(&l);
}
END_TEST


static void expect_problem(const contractc_problems_t *p, size_t i, contractc_kind_t kind,
                           const char *path, const char *message, const char *log_message)
{
    const contractc_problem_t *x = contractc_problems_at(p, i);
    ck_assert_msg(x != NULL, "problem %zu is missing", i);
    ck_assert_msg(x->kind == kind, "problem %zu (%s): kind %s", i, path, contractc_kind_name(x->kind));
    ck_assert_msg(strcmp(x->path, path) == 0, "problem %zu: path [%s], expected [%s]", i, x->path, path);
    ck_assert_msg(strcmp(x->message, message) == 0, "problem %zu (%s): message [%s], expected [%s]", i,
                  path, x->message, message);
    ck_assert_msg(strcmp(x->log_message, log_message) == 0, "problem %zu (%s): log [%s], expected [%s]",
                  i, path, x->log_message, log_message);
}

static char *repeat(const char *unit, size_t times)
{
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < times; i++)
        cc_buf_puts(&b, unit);
    return cc_buf_take(&b, NULL);
}

/* The expected key is matched in place, with the ':' right after it: any
 * other byte there (or the end) is still the reader's syntax problem, at
 * that byte, and white space before the ':' is still allowed. */
START_TEST(an_expected_key_needs_its_colon_right_after_it_or_after_white_space)
{
    static const struct {
        const char *reply;
        size_t column;      /* 0: accepted */
        const char *message;
    } cases[] = {
        {"{\"a\":1,\"b\"2}", 11, "expected ':' after the key, found a number"},
        {"{\"a\":1,\"b\",2}", 11, "expected ':' after the key, found ','"},
        {"{\"a\"1,\"b\":2}", 5, "expected ':' after the key, found a number"},
        {"{\"a\":1,\"b\"", 11, "expected ':' after the key, found the end of the reply"},
        {"{\"a\" :1,\"b\"\t: 2}", 0, NULL},
    };
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n  b: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        contractc_problems_t p;
        contractc_problems_init(&p);
        contractc_status_t rc = parse_into(c, cases[i].reply, strlen(cases[i].reply), NULL, &p);
        if (!cases[i].message) {
            ck_assert_msg(rc == CONTRACTC_OK, "%s: rejected", cases[i].reply);
        } else {
            const contractc_problem_t *x = contractc_problems_at(&p, 0);
            ck_assert_msg(rc == CONTRACTC_REJECTED && x && x->kind == CONTRACTC_KIND_SYNTAX &&
                              x->column == cases[i].column &&
                              strstr(x->message, cases[i].message) != NULL,
                          "%s: %s", cases[i].reply, x ? x->message : "accepted");
        }
        contractc_problems_clear(&p);
    }
    close_contract(&l);
}
END_TEST

/* Every unexpected key gets its whole path and message: the suggestion folds
 * case, '_', '-' and ' '; the path escapes and cuts the key to 64 code points
 * (docs/contract-language.md §6.3, "Fine print"); a key with no near field
 * lists the allowed keys. */
START_TEST(unexpected_keys_get_exact_paths_and_messages)
{
    loaded_t l = open_contract(HEAD "fields:\n  order_id: {type: string}\n  total: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    static const char near_order[] = "unexpected key; did you mean \"order_id\"? Keys must be spelt exactly";
    static const char near_total[] = "unexpected key; did you mean \"total\"? Keys must be spelt exactly";
    static const char allowed[] = "unexpected key; the allowed keys are order_id, total";
    char *k64 = repeat("k", 64), *k65 = repeat("k", 65), *e70 = repeat("\xC3\xA9", 70);
    char *e64 = repeat("\xC3\xA9", 64), *a64 = repeat("a", 64), *b60 = repeat("b", 60);
    char *b53 = repeat("b", 53), *k70 = repeat("k", 70);
    struct {
        const char *json_key; /* as written in the reply */
        const char *path, *message;
    } cases[] = {
        {"orderId", "$.orderId", near_order},
        {"ORDER-ID", "$['ORDER-ID']", near_order},
        {"order id", "$['order id']", near_order},
        {"_Total_", "$._Total_", near_total},
        {"totals", "$.totals", allowed},
        {"x~1", "$['x~1']", allowed},
        {"1abc", "$['1abc']", allowed},
        {"a'b\\\\c\\n\\u0001\xC3\xA9", "$['a\\'b\\\\c\\n\\u0001\xC3\xA9']", allowed},
        {k64, NULL, allowed}, /* paths built below */
        {k65, NULL, allowed},
        {e70, NULL, allowed},
        {NULL, NULL, allowed}, /* 64 'a' then "\n": brackets, the escape cut off */
        {NULL, NULL, allowed}, /* 10 'a', a quote, 60 'b': the escape inside the cut */
        {k70, NULL, allowed},  /* the same key again: every problem is reported */
    };
    const size_t n = sizeof cases / sizeof cases[0];
    cc_buf_t key1 = CC_BUF_INIT, key2 = CC_BUF_INIT;
    cc_buf_printf(&key1, "%s\\n", a64);
    cc_buf_printf(&key2, "aaaaaaaaaa'%s", b60);
    cases[11].json_key = key1.data;
    cases[12].json_key = key2.data;
    cc_buf_t paths[5] = {CC_BUF_INIT, CC_BUF_INIT, CC_BUF_INIT, CC_BUF_INIT, CC_BUF_INIT};
    cc_buf_printf(&paths[0], "$.%s", k64);
    cc_buf_printf(&paths[1], "$.%s\xE2\x80\xA6", k64);
    cc_buf_printf(&paths[2], "$['%s\xE2\x80\xA6']", e64);
    cc_buf_printf(&paths[3], "$['%s\xE2\x80\xA6']", a64);
    cc_buf_printf(&paths[4], "$['aaaaaaaaaa\\'%s\xE2\x80\xA6']", b53);
    for (size_t i = 0; i < 5; i++)
        cases[8 + i].path = paths[i].data;
    cases[13].path = paths[1].data;
    cc_buf_t reply = CC_BUF_INIT;
    cc_buf_puts(&reply, "{");
    for (size_t i = 0; i < n; i++)
        cc_buf_printf(&reply, "%s\"%s\":%zu", i ? "," : "", cases[i].json_key, i);
    cc_buf_puts(&reply, "}");

    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(parse_into(c, reply.data, reply.len, NULL, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), n + 2);
    for (size_t i = 0; i < n; i++)
        expect_problem(&p, i, CONTRACTC_KIND_UNEXPECTED, cases[i].path, cases[i].message,
                       cases[i].message);
    expect_problem(&p, n, CONTRACTC_KIND_MISSING, "$.order_id", "the key is missing; it is required",
                   "the key is missing; it is required");
    expect_problem(&p, n + 1, CONTRACTC_KIND_MISSING, "$.total", "the key is missing; it is required",
                   "the key is missing; it is required");
    contractc_problems_clear(&p);

    /* A field already given is not suggested again. */
    contractc_problems_init(&p);
    const char *again = "{\"order_id\":\"x\",\"orderId\":\"y\",\"total\":1}";
    ck_assert_int_eq(parse_into(c, again, strlen(again), NULL, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    expect_problem(&p, 0, CONTRACTC_KIND_UNEXPECTED, "$.orderId", allowed, allowed);
    contractc_problems_clear(&p);

    for (size_t i = 0; i < 5; i++)
        cc_buf_free(&paths[i]);
    cc_buf_free(&key1);
    cc_buf_free(&key2);
    cc_buf_free(&reply);
    free(k64), free(k65), free(e70), free(e64), free(a64), free(b60), free(b53), free(k70);
    close_contract(&l);
}
END_TEST

/* ---- unexpected keys' paths against a reference -------------------------- */

/* The path segment of key k[0..n) as docs/contract-language.md words it,
 * written here a byte at a time, apart from the runtime's code: ".key" for
 * [A-Za-z_][A-Za-z0-9_]*, else ['...'] with \' \\ \b \f \n \r \t, and \u00XX
 * for the other control bytes; the key cut after 64 code points with "…". */
static void ref_key_segment(cc_buf_t *b, const char *k, size_t n)
{
    bool ident = n > 0 && !(k[0] >= '0' && k[0] <= '9');
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)k[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_'))
            ident = false;
    }
    size_t cut = n, cps = 0;
    for (size_t i = 0; i < n; i++) {
        if (((unsigned char)k[i] & 0xC0) != 0x80 && cps++ == 64) {
            cut = i;
            break;
        }
    }
    cc_buf_puts(b, ident ? "." : "['");
    for (size_t i = 0; i < cut; i++) {
        unsigned char ch = (unsigned char)k[i];
        switch (ch) {
        case '\'': cc_buf_puts(b, "\\'"); break;
        case '\\': cc_buf_puts(b, "\\\\"); break;
        case '\b': cc_buf_puts(b, "\\b"); break;
        case '\f': cc_buf_puts(b, "\\f"); break;
        case '\n': cc_buf_puts(b, "\\n"); break;
        case '\r': cc_buf_puts(b, "\\r"); break;
        case '\t': cc_buf_puts(b, "\\t"); break;
        default:
            if (ch < 0x20)
                cc_buf_printf(b, "\\u%04x", ch);
            else
                cc_buf_putc(b, (char)ch);
        }
    }
    if (cut < n)
        cc_buf_puts(b, "\xE2\x80\xA6");
    if (!ident)
        cc_buf_puts(b, "']");
}

/* Appends segment seg to a path as the runtime does: a segment that would
 * take the path past 4096 bytes is left out, and "…" marks the gap (once
 * in a row). */
static void ref_push(cc_buf_t *path, const char *seg, size_t n)
{
    if (path->len + n <= 4096)
        cc_buf_append(path, seg, n);
    else if (path->len < 3 || memcmp(path->data + path->len - 3, "\xE2\x80\xA6", 3) != 0)
        cc_buf_puts(path, "\xE2\x80\xA6");
}

/* Unexpected keys for one object: every length up to 70 bytes that
 * matters to the segment writer (around 16, 32 and 64, its steps and the
 * cut), each as an identifier, starting with a digit, and with one byte
 * to escape, a plain non-identifier byte or a two-byte character at its
 * start, middle or end; then some with several escapes.  None folds like
 * a field name ("zz_..."), so all share one message. */
typedef struct key_list {
    char **keys;
    size_t *lens;
    size_t count;
} key_list_t;

static void key_list_add(key_list_t *l, const char *k, size_t n)
{
    l->keys = realloc(l->keys, (l->count + 1) * sizeof *l->keys);
    l->lens = realloc(l->lens, (l->count + 1) * sizeof *l->lens);
    ck_assert(l->keys && l->lens);
    l->keys[l->count] = malloc(n + 1);
    ck_assert_ptr_nonnull(l->keys[l->count]);
    memcpy(l->keys[l->count], k, n);
    l->keys[l->count][n] = '\0';
    l->lens[l->count++] = n;
}

static key_list_t sweep_keys(void)
{
    static const char fill[] = "kLmNoPqRsTuVwXyAbCdEfGhIjK_0123456789abcdefgh";
    static const size_t lengths[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,  15, 16, 17, 18,
                                     23, 30, 31, 32, 33, 34, 47, 48, 63, 64, 65, 66, 70};
    static const char *const specials[] = {"\n", "'", "\\", "\x01", "\x1f", "\t", "\b",
                                           "\f", "\r", "~", "\xC3\xA9", " "};
    key_list_t l = {NULL, NULL, 0};
    char k[128];
    for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
        const size_t n = lengths[li];
        for (size_t i = 0; i < n; i++)
            k[i] = fill[i % (sizeof fill - 1)];
        key_list_add(&l, k, n); /* an identifier (the empty key is not) */
        if (n) {
            k[0] = '7';
            key_list_add(&l, k, n);
            k[0] = fill[0];
        }
        for (size_t si = 0; si < sizeof specials / sizeof *specials; si++) {
            const size_t sl = strlen(specials[si]);
            if (n < sl)
                continue;
            const size_t at[] = {0, (n - sl) / 2, n - sl};
            for (size_t ai = 0; ai < 3; ai++) {
                if ((ai == 1 && at[1] == at[0]) || (ai == 2 && (at[2] == at[1] || at[2] == at[0])))
                    continue;
                for (size_t i = 0; i < n; i++)
                    k[i] = fill[i % (sizeof fill - 1)];
                memcpy(k + at[ai], specials[si], sl);
                key_list_add(&l, k, n);
            }
        }
        if (n >= 20) { /* escapes in both halves of a short key, and more */
            for (size_t i = 0; i < n; i++)
                k[i] = fill[i % (sizeof fill - 1)];
            k[3] = '\n', k[9] = '\'', k[17] = '\x02', k[n - 1] = '\\';
            key_list_add(&l, k, n);
        }
    }
    memset(k, '\n', 32); /* every byte escaped */
    key_list_add(&l, k, 32);
    memset(k, '\x1b', 33);
    key_list_add(&l, k, 33);
    for (size_t i = 0; i < 40; i++) /* 80 bytes, 40 code points: not cut */
        memcpy(k + 2 * i, "\xC3\xA9", 2);
    key_list_add(&l, k, 80);
    return l;
}

static void key_list_free(key_list_t *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->keys[i]);
    free(l->keys);
    free(l->lens);
}

/* What a test expects: problem i's kind, path and, for an unexpected key,
 * message. */
typedef struct expected {
    contractc_kind_t kind;
    char *path;
    const char *message; /* NULL: not checked */
} expected_t;

typedef struct expect_list {
    expected_t *items;
    size_t count;
} expect_list_t;

static void expect_add(expect_list_t *e, contractc_kind_t kind, const char *path,
                       const char *message)
{
    e->items = realloc(e->items, (e->count + 1) * sizeof *e->items);
    ck_assert_ptr_nonnull(e->items);
    e->items[e->count].kind = kind;
    e->items[e->count].path = strdup(path);
    e->items[e->count++].message = message;
}

/* Appends the keys of l to the reply as members "KEY":0 (each after a
 * comma) and expects one problem of `kind` per key, at prefix + its
 * segment (through ref_push, for long prefixes). */
static void put_keys(cc_buf_t *reply, expect_list_t *e, const key_list_t *l, const char *prefix,
                     contractc_kind_t kind, const char *message)
{
    for (size_t i = 0; i < l->count; i++) {
        cc_buf_putc(reply, ',');
        cc_buf_json_string(reply, l->keys[i], l->lens[i]);
        cc_buf_puts(reply, ":0");
        cc_buf_t seg = CC_BUF_INIT, path = CC_BUF_INIT;
        ref_key_segment(&seg, l->keys[i], l->lens[i]);
        cc_buf_puts(&path, prefix);
        ref_push(&path, seg.data, seg.len);
        expect_add(e, kind, path.data, message);
        cc_buf_free(&seg);
        cc_buf_free(&path);
    }
}

/* The keys of l, each the first time in its object: one `unexpected` each. */
static void put_unexpected(cc_buf_t *reply, expect_list_t *e, const key_list_t *l,
                           const char *prefix, const char *message)
{
    put_keys(reply, e, l, prefix, CONTRACTC_KIND_UNEXPECTED, message);
}

static const char duplicate_message[] =
    "the key appears more than once; give each key exactly once";

/* The keys of l again in an object that had them: one `duplicate` each. */
static void put_unexpected_again(cc_buf_t *reply, expect_list_t *e, const key_list_t *l,
                                 const char *prefix)
{
    put_keys(reply, e, l, prefix, CONTRACTC_KIND_DUPLICATE, duplicate_message);
}

/* The keys of l, each with `tail` appended: other keys, as many. */
static key_list_t keys_with_tail(const key_list_t *l, const char *tail)
{
    key_list_t out = {NULL, NULL, 0};
    char k[256];
    const size_t t = strlen(tail);
    for (size_t i = 0; i < l->count; i++) {
        ck_assert_uint_le(l->lens[i] + t, sizeof k);
        memcpy(k, l->keys[i], l->lens[i]);
        memcpy(k + l->lens[i], tail, t);
        key_list_add(&out, k, l->lens[i] + t);
    }
    return out;
}

/* Parses reply (with a cap of 100,000) and checks every problem against e. */
static void expect_exactly(const contractc_contract_t *c, const cc_buf_t *reply,
                           const expect_list_t *e)
{
    contractc_problems_t p;
    contractc_problems_init_with(&p, 100000, NULL);
    ck_assert_int_eq(parse_into(c, reply->data, reply->len, NULL, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), e->count);
    for (size_t i = 0; i < e->count; i++) {
        const contractc_problem_t *x = contractc_problems_at(&p, i);
        /* Messages show the paths' last 200 bytes: Check refuses long ones. */
        const char *want = e->items[i].path, *got = x->path;
        const char *want_tail = want + (strlen(want) > 200 ? strlen(want) - 200 : 0);
        const char *got_tail = got + (strlen(got) > 200 ? strlen(got) - 200 : 0);
        ck_assert_msg(x->kind == e->items[i].kind, "problem %zu (...%s): kind %s", i, want_tail,
                      contractc_kind_name(x->kind));
        ck_assert_msg(strcmp(got, want) == 0,
                      "problem %zu: path (%zu bytes) [...%s], expected (%zu bytes) [...%s]", i,
                      strlen(got), got_tail, strlen(want), want_tail);
        if (e->items[i].message) {
            ck_assert_str_eq(x->message, e->items[i].message);
            ck_assert_str_eq(x->log_message, e->items[i].message);
        }
    }
    contractc_problems_clear(&p);
}

static void expect_list_free(expect_list_t *e)
{
    for (size_t i = 0; i < e->count; i++)
        free(e->items[i].path);
    free(e->items);
}

/* Every unexpected key gets its exact path wherever its object is: at the
 * root, in a nested object, in each item of an array (the items' paths
 * differ only in their index), and again after another problem in the
 * same object; every kind of key (see sweep_keys), checked against a
 * reference writer.  Most of these problems share their message with the
 * object's first one and have their path written in place, the object's
 * part kept from key to key. */
START_TEST(unexpected_keys_get_exact_paths_in_every_object)
{
    loaded_t l = open_contract(HEAD "fields:\n"
                                    "  zz_a: {type: integer}\n"
                                    "  zz_meta:\n"
                                    "    type: object\n"
                                    "    fields:\n"
                                    "      zz_x: {type: integer}\n"
                                    "  zz_items:\n"
                                    "    type: array\n"
                                    "    items:\n"
                                    "      type: object\n"
                                    "      fields:\n"
                                    "        zz_id: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    static const char root[] = "unexpected key; the allowed keys are zz_a, zz_meta, zz_items";
    static const char meta[] = "unexpected key; the allowed keys are zz_x";
    static const char item[] = "unexpected key; the allowed keys are zz_id";
    key_list_t keys = sweep_keys();
    ck_assert_uint_gt(keys.count, 500);
    cc_buf_t reply = CC_BUF_INIT;
    expect_list_t e = {NULL, 0};
    cc_buf_puts(&reply, "{\"zz_a\":1");
    put_unexpected(&reply, &e, &keys, "$", root);
    cc_buf_puts(&reply, ",\"zz_meta\":{\"zz_x\":1");
    put_unexpected(&reply, &e, &keys, "$.zz_meta", meta);
    cc_buf_puts(&reply, "}");
    /* The root's keys again, after the nested ones: each a duplicate of
     * its first occurrence (not of the nested object's); then new ones,
     * whose path takes the root's part again. */
    key_list_t more = keys_with_tail(&keys, "_2");
    put_unexpected_again(&reply, &e, &keys, "$");
    put_unexpected(&reply, &e, &more, "$", root);
    cc_buf_puts(&reply, ",\"zz_items\":[{\"zz_id\":1");
    put_unexpected(&reply, &e, &keys, "$.zz_items[0]", item);
    cc_buf_puts(&reply, "},{\"zz_id\":2"); /* the same keys in the next item: unexpected */
    put_unexpected(&reply, &e, &keys, "$.zz_items[1]", item);
    cc_buf_puts(&reply, ",\"zz_id\":3"); /* a duplicate between unexpected keys */
    expect_add(&e, CONTRACTC_KIND_DUPLICATE, "$.zz_items[1].zz_id", NULL);
    put_unexpected(&reply, &e, &more, "$.zz_items[1]", item);
    put_unexpected_again(&reply, &e, &keys, "$.zz_items[1]");
    cc_buf_puts(&reply, "},{\"zz_id\":\"4\""); /* a type problem before them */
    expect_add(&e, CONTRACTC_KIND_TYPE, "$.zz_items[2].zz_id", NULL);
    put_unexpected(&reply, &e, &keys, "$.zz_items[2]", item);
    cc_buf_puts(&reply, "}]}");
    expect_exactly(c, &reply, &e);
    expect_list_free(&e);
    cc_buf_free(&reply);
    key_list_free(&keys);
    key_list_free(&more);
    close_contract(&l);
}
END_TEST

/* Near the 4096-byte cap of a path, a key's segment is written when it
 * fits and left out for "…" when it does not, as for any other segment:
 * objects 20 and 21 levels deep under 200-byte field names, the second
 * one's own path already cut. */
START_TEST(unexpected_keys_below_a_long_path_are_cut_like_any_segment)
{
    cc_buf_t y = CC_BUF_INIT, name = CC_BUF_INIT;
    for (size_t i = 0; i < 198; i++) /* field names "lD" + these: 200 bytes */
        cc_buf_putc(&name, (char)('a' + i % 26));
    cc_buf_puts(&y, HEAD "fields:\n");
    for (int d = 0; d < 21; d++)
        cc_buf_printf(&y, "%*sl%d%s:\n%*stype: object\n%*sfields:\n", 2 + 4 * d, "", d % 10,
                      name.data, 4 + 4 * d, "", 4 + 4 * d, "");
    cc_buf_printf(&y, "%*szz_leaf: {type: integer}\n", 2 + 4 * 21, "");
    loaded_t l = open_contract(y.data);
    const contractc_contract_t *c = &l.tables->contract;
    static const char deepest[] = "unexpected key; the allowed keys are zz_leaf";
    key_list_t keys = sweep_keys();
    cc_buf_t reply = CC_BUF_INIT, path = CC_BUF_INIT;
    expect_list_t e = {NULL, 0};
    cc_buf_puts(&path, "$");
    for (int d = 0; d < 21; d++) {
        cc_buf_printf(&reply, "%s\"l%d%s\":{", d ? "" : "{", d % 10, name.data);
        cc_buf_t seg = CC_BUF_INIT;
        cc_buf_printf(&seg, ".l%d%s", d % 10, name.data);
        ref_push(&path, seg.data, seg.len);
        cc_buf_free(&seg);
        if (d == 19) { /* 4021 bytes of path: some segments fit */
            ck_assert_uint_eq(path.len, 4021);
            cc_buf_puts(&reply, "\"zz_k\":1");
            expect_add(&e, CONTRACTC_KIND_UNEXPECTED, "", NULL); /* its path is below */
            free(e.items[e.count - 1].path);
            cc_buf_t first = CC_BUF_INIT;
            cc_buf_printf(&first, "%s.zz_k", path.data);
            e.items[e.count - 1].path = strdup(first.data);
            cc_buf_free(&first);
            put_unexpected(&reply, &e, &keys, path.data, NULL);
            cc_buf_puts(&reply, ",");
        }
    }
    ck_assert(path.len < 4100 && memcmp(path.data + path.len - 3, "\xE2\x80\xA6", 3) == 0);
    cc_buf_puts(&reply, "\"zz_leaf\":1");
    put_unexpected(&reply, &e, &keys, path.data, deepest);
    for (int d = 0; d < 21; d++)
        cc_buf_putc(&reply, '}');
    cc_buf_putc(&reply, '}');
    expect_exactly(c, &reply, &e);
    expect_list_free(&e);
    cc_buf_free(&reply);
    cc_buf_free(&path);
    cc_buf_free(&name);
    cc_buf_free(&y);
    key_list_free(&keys);
    close_contract(&l);
}
END_TEST

/* Messages are built in fixed buffers that spill to the heap: one longer
 * than the buffer (several hundred bytes) comes out whole, for the model
 * and for the log. */
START_TEST(a_message_longer_than_its_buffer_comes_out_whole)
{
    cc_buf_t y = CC_BUF_INIT, allowed = CC_BUF_INIT, values = CC_BUF_INIT;
    cc_buf_puts(&y, HEAD "fields:\n  e:\n    type: enum\n    values: [");
    for (int i = 0; i < 12; i++) {
        cc_buf_printf(&y, "%svalue_number_%02d_spelt_out_in_full", i ? ", " : "", i);
        cc_buf_printf(&values, "%s\"value_number_%02d_spelt_out_in_full\"",
                      i == 0 ? "" : i == 11 ? " or " : ", ", i);
    }
    cc_buf_puts(&y, "]\n");
    cc_buf_puts(&allowed, "unexpected key; the allowed keys are e");
    for (int i = 0; i < 12; i++) {
        cc_buf_printf(&y, "  field_number_%02d_with_a_long_name: {type: integer, nullable: true}\n", i);
        cc_buf_printf(&allowed, ", field_number_%02d_with_a_long_name", i);
    }
    ck_assert_uint_gt(allowed.len, 300);
    ck_assert_uint_gt(values.len, 300);
    loaded_t l = open_contract(y.data);
    const contractc_contract_t *c = &l.tables->contract;
    cc_buf_t reply = CC_BUF_INIT;
    cc_buf_puts(&reply, "{\"e\":\"nope\",\"zz1\":1,\"zz2\":2");
    for (int i = 0; i < 12; i++)
        cc_buf_printf(&reply, ",\"field_number_%02d_with_a_long_name\":null", i);
    cc_buf_puts(&reply, "}");
    cc_buf_t model = CC_BUF_INIT, log = CC_BUF_INIT;
    cc_buf_printf(&model, "\"nope\" is not one of %s (exact spelling, case-sensitive)", values.data);
    cc_buf_printf(&log, "the value is not one of %s (exact spelling, case-sensitive)", values.data);

    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(parse_into(c, reply.data, reply.len, NULL, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 3);
    expect_problem(&p, 0, CONTRACTC_KIND_ENUM, "$.e", model.data, log.data);
    expect_problem(&p, 1, CONTRACTC_KIND_UNEXPECTED, "$.zz1", allowed.data, allowed.data);
    expect_problem(&p, 2, CONTRACTC_KIND_UNEXPECTED, "$.zz2", allowed.data, allowed.data);
    contractc_problems_clear(&p);
    cc_buf_free(&y), cc_buf_free(&allowed), cc_buf_free(&values), cc_buf_free(&reply);
    cc_buf_free(&model), cc_buf_free(&log);
    close_contract(&l);
}
END_TEST

/* A reply with `keys` unexpected keys "key_NNN_padded_out_a_little" (and no "a"). */
static char *many_keys_reply(size_t keys, size_t *len)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, "{");
    for (size_t i = 0; i < keys; i++)
        cc_buf_printf(&b, "%s\"key_%03zu_padded_out_a_little\":%zu", i ? "," : "", i, i);
    cc_buf_puts(&b, "}");
    return cc_buf_take(&b, len);
}

/* Problem i of a list filled by many_keys_reply, at `base`. */
static void expect_many_keys(const contractc_problems_t *p, size_t base, size_t keys)
{
    static const char allowed[] = "unexpected key; the allowed keys are a";
    char path[64];
    for (size_t i = 0; i < keys; i++) {
        snprintf(path, sizeof path, "$.key_%03zu_padded_out_a_little", i);
        expect_problem(p, base + i, CONTRACTC_KIND_UNEXPECTED, path, allowed, allowed);
    }
    expect_problem(p, base + keys, CONTRACTC_KIND_MISSING, "$.a", "the key is missing; it is required",
                   "the key is missing; it is required");
}

/* The list keeps its problems' strings in blocks that it rewinds when a
 * document-level problem replaces a parse's problems: the problems of
 * earlier parses in the same list stay whole, and every block is freed
 * with its size. */
START_TEST(a_document_problem_replaces_only_its_own_parse_problems)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    counter_t n = {0, 0, 0, 0};
    contractc_allocator_t a = {count_alloc, count_free, &n};
    size_t len;
    char *reply = many_keys_reply(300, &len); /* about 20 KiB of problem text */
    contractc_problems_t p;
    contractc_problems_init_with(&p, 1000, &a);
    ck_assert_int_eq(parse_into(c, reply, len, &a, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 301);
    expect_many_keys(&p, 0, 300);
    /* Two problems found, then a syntax problem: they are dropped. */
    const char *bad = "{\"q1\":1,\"q2\":2,}";
    ck_assert_int_eq(parse_into(c, bad, strlen(bad), &a, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 302);
    ck_assert_int_eq(contractc_problems_at(&p, 301)->kind, CONTRACTC_KIND_SYNTAX);
    ck_assert_str_eq(contractc_problems_at(&p, 301)->path, "$");
    expect_many_keys(&p, 0, 300);
    /* More after it, then a syntax problem found only after new blocks. */
    ck_assert_int_eq(parse_into(c, reply, len, &a, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 603);
    expect_many_keys(&p, 302, 300);
    reply[len - 1] = ','; /* "...:299," : the reply ends inside the object */
    ck_assert_int_eq(parse_into(c, reply, len, &a, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 604);
    ck_assert_int_eq(contractc_problems_at(&p, 603)->kind, CONTRACTC_KIND_SYNTAX);
    expect_many_keys(&p, 0, 300);
    expect_many_keys(&p, 302, 300);
    contractc_problems_clear(&p);
    ck_assert_uint_eq(n.live, 0);
    ck_assert_uint_eq(n.allocs, n.frees);

    /* Short parses that each end in a syntax problem, in a new list: now
     * and then the first problem of one starts a new block, which the
     * syntax problem then frees whole (the older block keeps its end). */
    char *messages[120];
    contractc_problems_init_with(&p, 1000, &a);
    for (size_t i = 0; i < 120; i++) {
        size_t keys = i % 7 + 1, short_len;
        char *s = many_keys_reply(keys, &short_len);
        s[short_len - 1] = ',';
        ck_assert_int_eq(parse_into(c, s, short_len, &a, &p), CONTRACTC_REJECTED);
        ck_assert_uint_eq(contractc_problems_count(&p), i + 1);
        const contractc_problem_t *x = contractc_problems_at(&p, i);
        ck_assert_int_eq(x->kind, CONTRACTC_KIND_SYNTAX);
        messages[i] = repeat(x->message, 1);
        for (size_t j = 0; j <= i; j++)
            expect_problem(&p, j, CONTRACTC_KIND_SYNTAX, "$", messages[j], messages[j]);
        free(s);
    }
    contractc_problems_clear(&p);
    for (size_t i = 0; i < 120; i++)
        free(messages[i]);
    ck_assert_uint_eq(n.live, 0);
    ck_assert_uint_eq(n.allocs, n.frees);
    free(reply);
    close_contract(&l);
}
END_TEST

/* A failing allocator: the `fail_at`-th allocation (1-based) fails. */
typedef struct failing {
    counter_t count;
    size_t fail_at;
} failing_t;

static void *failing_alloc(void *ctx, size_t size)
{
    failing_t *f = ctx;
    if (f->count.allocs + 1 == f->fail_at) {
        f->fail_at = 0;
        return NULL;
    }
    return count_alloc(&f->count, size);
}

static void failing_free(void *ctx, void *ptr, size_t size)
{
    count_free(&((failing_t *)ctx)->count, ptr, size);
}

/* Out of memory in the middle of storing problems (a new block, the
 * array, a message past its buffer) leaves the earlier problems whole and
 * frees what the parse took. */
START_TEST(out_of_memory_while_storing_problems_keeps_the_earlier_ones)
{
    loaded_t l = open_contract(HEAD "fields:\n  a: {type: integer}\n");
    const contractc_contract_t *c = &l.tables->contract;
    size_t len1, len2;
    char *first = many_keys_reply(40, &len1);   /* fills the first blocks */
    char *second = many_keys_reply(600, &len2); /* new blocks and a larger array */
    size_t total = 0; /* allocations of the second parse */
    for (size_t fail_at = 0;; fail_at++) {
        failing_t f = {{0, 0, 0, 0}, 0};
        contractc_allocator_t a = {failing_alloc, failing_free, &f};
        contractc_problems_t p;
        contractc_problems_init_with(&p, 1000, &a);
        ck_assert_int_eq(parse_into(c, first, len1, &a, &p), CONTRACTC_REJECTED);
        size_t before = f.count.allocs;
        f.fail_at = fail_at ? before + fail_at : 0;
        contractc_status_t rc = parse_into(c, second, len2, &a, &p);
        if (fail_at == 0) {
            total = f.count.allocs - before;
            ck_assert_uint_ge(total, 4); /* the arena, the array, two blocks */
        }
        if (fail_at == 0 || fail_at > total) {
            ck_assert_int_eq(rc, CONTRACTC_REJECTED);
            ck_assert_uint_eq(contractc_problems_count(&p), 41 + 601);
            expect_many_keys(&p, 41, 600);
        } else {
            ck_assert_msg(rc == CONTRACTC_ENOMEM, "allocation %zu of %zu failed: %s", fail_at, total,
                          contractc_status_name(rc));
            ck_assert_uint_eq(contractc_problems_count(&p), 41);
        }
        expect_many_keys(&p, 0, 40);
        contractc_problems_clear(&p);
        ck_assert_uint_eq(f.count.live, 0);
        ck_assert_uint_eq(f.count.allocs, f.count.frees);
        if (fail_at > total)
            break;
    }
    free(first);
    free(second);
    close_contract(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("validate");
    TCase *t = tcase_create("rows");
    tcase_add_loop_test(t, each_row_gives_exactly_its_problems, 0, (int)(sizeof rows / sizeof rows[0]));
    suite_add_tcase(s, t);
    TCase *u = tcase_create("behaviour");
    tcase_add_test(u, a_key_is_never_matched_raw_when_the_name_would_need_escapes);
    tcase_add_test(u, a_sum_that_overflows_is_a_rule_problem_not_a_wrapped_value);
    tcase_add_test(u, log_messages_carry_no_reply_values);
    tcase_add_loop_test(u, the_canonical_form_writes_numbers_as_ecmascript_does, 0,
                        (int)(sizeof canonical_numbers / sizeof canonical_numbers[0]));
    tcase_add_loop_test(u, document_log_messages_name_the_token_class_not_its_bytes, 0,
                        (int)(sizeof document_logs / sizeof document_logs[0]));
    tcase_add_test(u, no_log_message_holds_a_byte_of_the_reply);
    tcase_add_test(u, the_cap_keeps_the_first_problems_and_counts_the_rest);
    tcase_add_test(u, grounding_is_an_exact_search_of_the_source);
    tcase_add_test(u, an_accepted_flat_record_is_one_arena_allocation);
    tcase_add_test(u, string_values_of_every_length_are_stored_exactly);
    tcase_add_test(u, limits_can_be_overridden_per_call);
    tcase_add_test(u, document_problems_give_line_and_column);
    tcase_add_test(u, an_expected_key_needs_its_colon_right_after_it_or_after_white_space);
    tcase_add_test(u, unexpected_keys_get_exact_paths_and_messages);
    tcase_add_test(u, unexpected_keys_get_exact_paths_in_every_object);
    tcase_add_test(u, unexpected_keys_below_a_long_path_are_cut_like_any_segment);
    tcase_add_test(u, a_message_longer_than_its_buffer_comes_out_whole);
    tcase_add_test(u, a_document_problem_replaces_only_its_own_parse_problems);
    tcase_add_test(u, out_of_memory_while_storing_problems_keeps_the_earlier_ones);
    suite_add_tcase(s, u);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("validate: %zu table rows\n", sizeof rows / sizeof rows[0]);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
