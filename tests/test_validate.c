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
    {"29 February in a common year", "fields:\n  d: {type: date}\n", "{\"d\":\"2023-02-29\"}", "$.d format",
     "a real calendar date"},
    {"29 February in a leap year", "fields:\n  d: {type: date}\n", "{\"d\":\"2024-02-29\"}", "", NULL},
    {"sum within its tolerance",
     "fields:\n  xs: {type: array, items: {type: integer}}\n  t: {type: integer}\n"
     "rules:\n  - sum: {of: \"xs[]\", equals: t, tolerance: 1}\n",
     "{\"xs\":[1,2,3],\"t\":7}", "", NULL},
    {"an array item's path", "fields:\n  xs: {type: array, max_items: 2, items: {type: integer}}\n",
     "{\"xs\":[1,\"2\",3]}", "$.xs[1] type|$.xs items", NULL},
};

static char *problems_text(const contractc_problems_t *p)
{
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < contractc_problems_count(p); i++) {
        const contractc_problem_t *x = contractc_problem_at(p, i);
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
        const char *msg = contractc_problem_at(&p, 0)->message;
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
    ck_assert_int_eq(contractc_problem_at(&p, 0)->kind, CONTRACTC_KIND_RULE);
    ck_assert_str_eq(contractc_problem_at(&p, 0)->path, "$");
    ck_assert_str_eq(contractc_problem_at(&p, 0)->rule, "rules[0]");
    ck_assert_ptr_nonnull(strstr(contractc_problem_at(&p, 0)->message, "overflows"));
    contractc_problems_clear(&p);
    cc_buf_free(&b);
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
        const contractc_problem_t *x = contractc_problem_at(&p, i);
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
    ck_assert_str_eq(contractc_problem_at(&p, 9)->path, "$.xs[9]");
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
            ck_assert_int_eq(contractc_problem_at(&p, 0)->kind, CONTRACTC_KIND_GROUNDING);
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
    ck_assert_int_eq(contractc_problem_at(&p, 0)->kind, CONTRACTC_KIND_LIMIT);
    contractc_problems_clear(&p);
    contractc_options_t deep = {NULL, 0, 1, NULL};
    ck_assert_int_eq(contractc_parse(c, "{\"a\":1}", 7, NULL, 0, &deep, record, &p), CONTRACTC_OK);
    contractc_record_free(c, record);
    contractc_problems_clear(&p);
    ck_assert_int_eq(contractc_parse(c, "{\"a\":[1]}", 9, NULL, 0, &deep, record, &p), CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_problem_at(&p, 0)->kind, CONTRACTC_KIND_LIMIT);
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
    const contractc_problem_t *x = contractc_problem_at(&p, 0);
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
    tcase_add_test(u, the_cap_keeps_the_first_problems_and_counts_the_rest);
    tcase_add_test(u, grounding_is_an_exact_search_of_the_source);
    tcase_add_test(u, an_accepted_flat_record_is_one_arena_allocation);
    tcase_add_test(u, string_values_of_every_length_are_stored_exactly);
    tcase_add_test(u, limits_can_be_overridden_per_call);
    tcase_add_test(u, document_problems_give_line_and_column);
    suite_add_tcase(s, u);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    printf("validate: %zu table rows\n", sizeof rows / sizeof rows[0]);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
