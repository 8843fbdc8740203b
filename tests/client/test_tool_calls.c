/* SPDX-License-Identifier: MIT */
/*
 * test_tool_calls.c - tool calls read from each provider's response with
 * their arguments' exact bytes (contractc_tool_calls_read, docs/tools.md
 * "Exact argument bytes"), and the generated parser run on those bytes:
 * `1.0` for an integer field and a duplicate key are rejected in every
 * provider's shape, where a re-serialized value (cJSON) would have passed.
 * The envelope is read by the runtime's strict reader too (contractc_json_span).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <contractc/client.h>

#include "invoice.h"

/* Arguments whose total is written 1.0 (an integer field), and arguments
 * with a key twice. */
#define ARGS_ONE_POINT_ZERO                                                                        \
    "{\"vendor_name\": \"ACME\", \"invoice_total_cents\": 1.0, "                                    \
    "\"line_items\": [{\"description\": \"x\", \"amount_cents\": 1}]}"
#define ARGS_DUPLICATE                                                                             \
    "{\"vendor_name\": \"ACME\", \"invoice_total_cents\": 1, \"vendor_name\": \"EVIL\", "          \
    "\"line_items\": [{\"description\": \"x\", \"amount_cents\": 1}]}"
#define ARGS_GOOD                                                                                  \
    "{\"vendor_name\":\"ACME\",\"invoice_total_cents\":1,"                                         \
    "\"line_items\":[{\"description\":\"x\",\"amount_cents\":1}]}"

/* The arguments as OpenAI sends them: a JSON string holding their text. */
static char *as_json_string(const char *text)
{
    cJSON *s = cJSON_CreateString(text);
    char *out = cJSON_PrintUnformatted(s);
    cJSON_Delete(s);
    ck_assert_ptr_nonnull(out);
    return out;
}

/* A response of `format` with one call of invoice whose arguments are args
 * (a JSON text), after a text block / part where the provider has one. */
static char *response_with(contractc_tool_format_t format, const char *args)
{
    char *buf = malloc(strlen(args) * 2 + 1024);
    ck_assert_ptr_nonnull(buf);
    switch (format) {
    case CONTRACTC_TOOL_OPENAI: {
        char *str = as_json_string(args);
        sprintf(buf,
                "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                "\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":"
                "\"call_abc\",\"type\":\"function\",\"function\":{\"name\":\"invoice\","
                "\"arguments\":%s}}]},\"finish_reason\":\"tool_calls\"}]}",
                str);
        cJSON_free(str);
        break;
    }
    case CONTRACTC_TOOL_ANTHROPIC:
        sprintf(buf,
                "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["
                "{\"type\":\"text\",\"text\":\"Reading it.\"},"
                "{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"invoice\",\"input\":%s}],"
                "\"stop_reason\":\"tool_use\"}",
                args);
        break;
    case CONTRACTC_TOOL_GEMINI:
        sprintf(buf,
                "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
                "{\"text\":\"Reading it.\"},"
                "{\"functionCall\":{\"name\":\"invoice\",\"args\":%s}}]},\"finishReason\":\"STOP\"}]}",
                args);
        break;
    case CONTRACTC_TOOL_MCP:
        sprintf(buf,
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\","
                "\"params\":{\"name\":\"invoice\",\"arguments\":%s}}",
                args);
        break;
    }
    return buf;
}

static const char *const format_names[] = {"openai", "anthropic", "gemini", "mcp"};
static const char *const ids[] = {"call_abc", "toolu_01", "", "7"};

/* Reads the one call of response_with(format, args); its bytes are args. */
static void read_one(contractc_tool_format_t format, const char *args, contractc_tool_calls_t *calls)
{
    char *body = response_with(format, args);
    char error[256];
    int rc = contractc_tool_calls_read(format, body, strlen(body), calls, error, sizeof error);
    ck_assert_msg(rc == 0, "%s: %s", format_names[format], error);
    ck_assert_uint_eq(calls->count, 1);
    ck_assert_str_eq(calls->calls[0].name, "invoice");
    ck_assert_str_eq(calls->calls[0].id, ids[format]);
    /* the exact bytes, never re-serialized */
    ck_assert_uint_eq(calls->calls[0].arguments_len, strlen(args));
    ck_assert(memcmp(calls->calls[0].arguments, args, strlen(args)) == 0);
    ck_assert_int_eq(calls->calls[0].arguments[calls->calls[0].arguments_len], '\0');
    free(body);
}

/* Parses the call's bytes with the generated parser: the one problem. */
static void assert_rejected(const contractc_tool_call_t *call, contractc_kind_t kind,
                            const char *path, const char *format)
{
    invoice_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t st = invoice_parse(call->arguments, call->arguments_len, NULL, 0, &rec,
                                          &problems);
    ck_assert_int_eq(st, CONTRACTC_REJECTED);
    ck_assert_uint_ge(contractc_problems_count(&problems), 1);
    const contractc_problem_t *p = contractc_problems_at(&problems, 0);
    ck_assert_msg(p->kind == kind && strcmp(p->path, path) == 0, "%s: %s at %s", format,
                  contractc_kind_name(p->kind), p->path);
    printf("%-9s %-6s %.*s\n          -> %s at %s: %s\n", format, call->id[0] ? call->id : "(no id)",
           (int)call->arguments_len, call->arguments, contractc_kind_name(p->kind), p->path,
           p->message);
    contractc_problems_clear(&problems);
}

START_TEST(one_point_zero_for_an_integer_is_rejected_from_the_exact_bytes_of_every_provider)
{
    for (int f = CONTRACTC_TOOL_OPENAI; f <= CONTRACTC_TOOL_MCP; f++) {
        contractc_tool_calls_t calls;
        read_one((contractc_tool_format_t)f, ARGS_ONE_POINT_ZERO, &calls);
        assert_rejected(&calls.calls[0], CONTRACTC_KIND_TYPE, "$.invoice_total_cents",
                        format_names[f]);
        contractc_tool_calls_free(&calls);
    }
    /* what a re-serialized value would have hidden: cJSON prints 1.0 as 1,
     * and the parser accepts that */
    cJSON *tree = cJSON_Parse(ARGS_ONE_POINT_ZERO);
    char *again = cJSON_PrintUnformatted(tree);
    ck_assert_ptr_nonnull(strstr(again, "\"invoice_total_cents\":1,"));
    invoice_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_int_eq(invoice_parse(again, strlen(again), NULL, 0, &rec, &problems), CONTRACTC_OK);
    printf("re-serialized by cJSON: %s -> accepted (the bytes were 1.0)\n", again);
    invoice_free(&rec);
    contractc_problems_clear(&problems);
    cJSON_free(again);
    cJSON_Delete(tree);
}
END_TEST

START_TEST(a_duplicate_key_is_rejected_from_the_exact_bytes_of_every_provider)
{
    for (int f = CONTRACTC_TOOL_OPENAI; f <= CONTRACTC_TOOL_MCP; f++) {
        contractc_tool_calls_t calls;
        read_one((contractc_tool_format_t)f, ARGS_DUPLICATE, &calls);
        assert_rejected(&calls.calls[0], CONTRACTC_KIND_DUPLICATE, "$.vendor_name",
                        format_names[f]);
        contractc_tool_calls_free(&calls);
    }
}
END_TEST

START_TEST(good_arguments_are_accepted_from_every_provider)
{
    for (int f = CONTRACTC_TOOL_OPENAI; f <= CONTRACTC_TOOL_MCP; f++) {
        contractc_tool_calls_t calls;
        read_one((contractc_tool_format_t)f, ARGS_GOOD, &calls);
        invoice_t rec;
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        ck_assert_int_eq(invoice_parse(calls.calls[0].arguments, calls.calls[0].arguments_len,
                                       NULL, 0, &rec, &problems),
                         CONTRACTC_OK);
        ck_assert_str_eq(rec.vendor_name, "ACME");
        ck_assert_int_eq(rec.invoice_total_cents, 1);
        invoice_free(&rec);
        contractc_problems_clear(&problems);
        contractc_tool_calls_free(&calls);
    }
}
END_TEST

START_TEST(parallel_calls_come_in_response_order_and_text_blocks_are_skipped)
{
    const char *body =
        "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"one\",\"input\":{\"x\": 1}},"
        "{\"type\":\"text\",\"text\":\"and\"},"
        "{\"type\":\"tool_use\",\"id\":\"b\",\"name\":\"two\",\"input\":{ \"y\" : [1.50] }}]}";
    contractc_tool_calls_t calls;
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_ANTHROPIC, body, strlen(body), &calls,
                                               NULL, 0),
                     0);
    ck_assert_uint_eq(calls.count, 2);
    ck_assert_str_eq(calls.calls[0].name, "one");
    ck_assert_str_eq(calls.calls[0].arguments, "{\"x\": 1}");
    ck_assert_str_eq(calls.calls[1].id, "b");
    ck_assert_str_eq(calls.calls[1].arguments, "{ \"y\" : [1.50] }");
    contractc_tool_calls_free(&calls);
    contractc_tool_calls_free(&calls); /* twice is fine */

    const char *openai = "{\"choices\":[{\"message\":{\"content\":null,\"tool_calls\":["
                         "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"one\","
                         "\"arguments\":\"{\\\"a\\\":\\\"\\\\u00e9\\u00e9\\\"}\"}},"
                         "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"two\","
                         "\"arguments\":\"{}\"}}]}}]}";
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_OPENAI, openai, strlen(openai), &calls,
                                               NULL, 0),
                     0);
    ck_assert_uint_eq(calls.count, 2);
    /* the string's decoded bytes: an escape inside the arguments stays an
     * escape, one of the string itself is decoded */
    ck_assert_str_eq(calls.calls[0].arguments, "{\"a\":\"\\u00e9\xc3\xa9\"}");
    ck_assert_str_eq(calls.calls[1].name, "two");
    ck_assert_str_eq(calls.calls[1].arguments, "{}");
    contractc_tool_calls_free(&calls);
}
END_TEST

START_TEST(a_text_reply_has_no_calls_and_missing_arguments_are_empty)
{
    const char *text = "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},"
                       "\"finish_reason\":\"stop\"}]}";
    contractc_tool_calls_t calls;
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_OPENAI, text, strlen(text), &calls,
                                               NULL, 0),
                     0);
    ck_assert_uint_eq(calls.count, 0);
    ck_assert_ptr_null(calls.calls);
    const char *gemini = "{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":"
                         "\"invoice\",\"id\":\"g1\"}}]}}]}";
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_GEMINI, gemini, strlen(gemini), &calls,
                                               NULL, 0),
                     0);
    ck_assert_uint_eq(calls.count, 1);
    ck_assert_str_eq(calls.calls[0].id, "g1");
    ck_assert_uint_eq(calls.calls[0].arguments_len, 0);
    invoice_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_int_eq(invoice_parse(calls.calls[0].arguments, 0, NULL, 0, &rec, &problems),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_problems_at(&problems, 0)->kind, CONTRACTC_KIND_EMPTY);
    contractc_problems_clear(&problems);
    contractc_tool_calls_free(&calls);
    const char *mcp = "{\"jsonrpc\":\"2.0\",\"id\":\"req-\\u0031\",\"method\":\"tools/call\","
                      "\"params\":{\"name\":\"invoice\"}}";
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_MCP, mcp, strlen(mcp), &calls, NULL, 0),
                     0);
    ck_assert_str_eq(calls.calls[0].id, "req-1");
    ck_assert_uint_eq(calls.calls[0].arguments_len, 0);
    contractc_tool_calls_free(&calls);
}
END_TEST

/* A response that must be refused, with a word of the reason. */
static void assert_refused(contractc_tool_format_t f, const char *body, const char *why)
{
    contractc_tool_calls_t calls;
    char error[256] = "unset";
    ck_assert_int_eq(contractc_tool_calls_read(f, body, strlen(body), &calls, error, sizeof error), 1);
    ck_assert_uint_eq(calls.count, 0);
    ck_assert_ptr_null(calls.calls);
    ck_assert_msg(strstr(error, why) != NULL, "error '%s' lacks '%s'", error, why);
}

START_TEST(an_envelope_the_strict_reader_refuses_is_refused_whole)
{
    /* \u0000 in a name: cJSON would cut it to "invoice" */
    assert_refused(CONTRACTC_TOOL_ANTHROPIC,
                   "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"invoice\\u0000x\","
                   "\"input\":{}}]}",
                   "malformed Anthropic response");
    /* the key on the way to the arguments twice: which one is meant? */
    assert_refused(CONTRACTC_TOOL_ANTHROPIC,
                   "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"invoice\","
                   "\"input\":{\"x\":1},\"input\":{\"x\":2}}]}",
                   "the key \"input\" occurs twice");
    assert_refused(CONTRACTC_TOOL_GEMINI,
                   "{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"f\","
                   "\"args\":{}}}]}}],\"candidates\":[]}",
                   "occurs twice");
    /* invalid UTF-8 anywhere (cJSON does not check it) */
    assert_refused(CONTRACTC_TOOL_MCP,
                   "{\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"f\",\"arguments\":{}},"
                   "\"note\":\"\xff\"}",
                   "malformed MCP response");
    assert_refused(CONTRACTC_TOOL_OPENAI, "{\"choices\": [", "not JSON");
    assert_refused(CONTRACTC_TOOL_OPENAI,
                   "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\","
                   "\"function\":{\"name\":\"f\",\"arguments\":{\"a\":1}}}]}}]}",
                   "arguments is not a string");
    assert_refused(CONTRACTC_TOOL_OPENAI,
                   "{\"choices\":[{\"message\":{\"tool_calls\":[{\"type\":\"function\","
                   "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}",
                   "has no id string");
    assert_refused(CONTRACTC_TOOL_MCP, "{\"id\":1,\"method\":\"tools/list\",\"params\":{}}",
                   "not a tools/call request");
    assert_refused(CONTRACTC_TOOL_MCP, "{\"id\":null,\"method\":\"tools/call\",\"params\":{\"name\":\"f\"}}",
                   "string or number id");
    assert_refused(CONTRACTC_TOOL_ANTHROPIC, "{\"type\":\"message\"}", "no content array");
    /* more calls than the cap */
    size_t cap = CONTRACTC_TOOL_CALLS_MAX + 1;
    char *big = malloc(cap * 64 + 64);
    ck_assert_ptr_nonnull(big);
    strcpy(big, "{\"content\":[");
    for (size_t i = 0; i < cap; i++)
        sprintf(big + strlen(big), "%s{\"type\":\"tool_use\",\"id\":\"i\",\"name\":\"n\",\"input\":{}}",
                i ? "," : "");
    strcat(big, "]}");
    assert_refused(CONTRACTC_TOOL_ANTHROPIC, big, "more than 128 tool calls");
    free(big);
    contractc_tool_calls_t calls;
    ck_assert_int_eq(contractc_tool_calls_read((contractc_tool_format_t)9, "{}", 2, &calls, NULL, 0), 1);
    ck_assert_int_eq(contractc_tool_calls_read(CONTRACTC_TOOL_MCP, "{}", 2, NULL, NULL, 0), 1);
}
END_TEST

START_TEST(json_span_finds_values_and_says_why_it_cannot)
{
    const char *text = " {\"a\": [1, {\"b\" : \"x\\u0041\"}, 3], \"\\u0063\": true} ";
    contractc_json_step_t path[] = {{"a", 0}, {NULL, 1}, {"b", 0}};
    bool found;
    size_t b, e;
    char why[160];
    ck_assert_int_eq(contractc_json_span(text, strlen(text), 0, path, 3, &found, &b, &e, why,
                                         sizeof why),
                     CONTRACTC_OK);
    ck_assert(found);
    ck_assert_int_eq((int)(e - b), 9);
    ck_assert(memcmp(text + b, "\"x\\u0041\"", 9) == 0);
    char out[16];
    size_t n;
    ck_assert_int_eq(contractc_json_string_decode(text + b, e - b, out, &n), CONTRACTC_OK);
    ck_assert(n == 2 && memcmp(out, "xA", 2) == 0);
    /* an escaped key matches its decoded name; the root is the whole text */
    contractc_json_step_t c[] = {{"c", 0}};
    ck_assert_int_eq(contractc_json_span(text, strlen(text), 0, c, 1, &found, &b, &e, NULL, 0),
                     CONTRACTC_OK);
    ck_assert(found && memcmp(text + b, "true", 4) == 0 && e - b == 4);
    ck_assert_int_eq(contractc_json_span(text, strlen(text), 0, NULL, 0, &found, &b, &e, NULL, 0),
                     CONTRACTC_OK);
    ck_assert(found && b == 1 && e == strlen(text) - 1);
    /* absent: no such key, an index past the end, a scalar where a
     * container is needed */
    contractc_json_step_t absent[][2] = {{{"z", 0}, {NULL, 0}}, {{"a", 0}, {NULL, 3}},
                                         {{"c", 0}, {"d", 0}}};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_int_eq(contractc_json_span(text, strlen(text), 0, absent[i], 2, &found, &b, &e,
                                             NULL, 0),
                         CONTRACTC_OK);
        ck_assert(!found);
    }
    /* the reader's verdicts, with the byte */
    ck_assert_int_eq(contractc_json_span("{\"a\":1,}", 8, 0, c, 1, &found, &b, &e, why, sizeof why),
                     CONTRACTC_REJECTED);
    ck_assert_msg(strstr(why, "at byte") != NULL, "%s", why);
    ck_assert_int_eq(contractc_json_span("[[[1]]]", 7, 2, NULL, 0, &found, &b, &e, why, sizeof why),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_json_span("{} {}", 5, 0, NULL, 0, &found, &b, &e, NULL, 0),
                     CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_json_span(NULL, 0, 0, NULL, 0, NULL, &b, &e, NULL, 0),
                     CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_json_string_decode("\"\\u0000\"", 8, out, &n), CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_json_string_decode("\"a\" ", 4, out, &n), CONTRACTC_OK);
    ck_assert_int_eq(contractc_json_string_decode("1", 1, out, &n), CONTRACTC_REJECTED);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tool_calls");
    TCase *tc = tcase_create("tool_calls");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, one_point_zero_for_an_integer_is_rejected_from_the_exact_bytes_of_every_provider);
    tcase_add_test(tc, a_duplicate_key_is_rejected_from_the_exact_bytes_of_every_provider);
    tcase_add_test(tc, good_arguments_are_accepted_from_every_provider);
    tcase_add_test(tc, parallel_calls_come_in_response_order_and_text_blocks_are_skipped);
    tcase_add_test(tc, a_text_reply_has_no_calls_and_missing_arguments_are_empty);
    tcase_add_test(tc, an_envelope_the_strict_reader_refuses_is_refused_whole);
    tcase_add_test(tc, json_span_finds_values_and_says_why_it_cannot);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
