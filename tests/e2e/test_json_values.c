/* SPDX-License-Identifier: MIT */
/*
 * test_json_values.c - language v2's any JSON values (docs/contract-language.md
 * §4.14) through the generated parser of tests/data/contracts/api_capture:
 * the value kept byte for byte, its canonical form without insignificant
 * white space, absent against null, max_bytes inclusive, duplicate keys
 * compared decoded and scoped to their object, paths at depth (past the
 * walk's inline levels), the depth cap, numbers by the grammar alone.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_capture.h"

/* A reply around a body and a tail of further members (after "body"). */
static char *reply_with(const char *body, const char *tail)
{
    const char *head = "{\"method\":\"POST\",\"path\":\"/v1/x\",\"body\":";
    const char *rest = ",\"headers\":{},\"attempts\":[],\"samples\":[]";
    size_t n = strlen(head) + strlen(body) + strlen(tail) + strlen(rest) + 2;
    char *r = malloc(n);
    ck_assert_ptr_nonnull(r);
    snprintf(r, n, "%s%s%s%s}", head, body, tail, rest);
    return r;
}

/* Parses a NUL-terminated reply into rec (zeroed first), its problems into p. */
static contractc_status_t parse(const char *reply, api_capture_t *rec, contractc_problems_t *p)
{
    contractc_problems_init(p);
    memset(rec, 0, sizeof *rec);
    return api_capture_parse(reply, strlen(reply), NULL, 0, rec, p);
}

START_TEST(body_is_kept_byte_exact_and_canonical_drops_white_space)
{
    const char *body = "{ \"a\" : [1, 2.50, -0, 1E+2] ,\n\t\"s\": \"x  \\u0041\\\"\" , \"n\":null }";
    char *reply = reply_with(body, "");
    api_capture_t rec;
    contractc_problems_t p;
    ck_assert_int_eq(parse(reply, &rec, &p), CONTRACTC_OK);
    ck_assert_uint_eq(rec.body_len, strlen(body));
    ck_assert_str_eq(rec.body, body); /* NUL-terminated, the bytes as sent */
    char *canonical = api_capture_to_json(&rec, NULL);
    ck_assert_ptr_nonnull(canonical);
    ck_assert_ptr_nonnull(strstr(canonical,
        "\"body\":{\"a\":[1,2.50,-0,1E+2],\"s\":\"x  \\u0041\\\"\",\"n\":null}"));
    free(canonical);
    api_capture_free(&rec);
    contractc_problems_clear(&p);
    free(reply);
}
END_TEST

START_TEST(optional_json_absent_and_null_differ)
{
    char *absent = reply_with("1", ""), *null = reply_with("1", ",\"response\":null");
    api_capture_t rec;
    contractc_problems_t p;
    ck_assert_int_eq(parse(absent, &rec, &p), CONTRACTC_OK);
    ck_assert(!rec.has_response);
    ck_assert_ptr_null(rec.response);
    char *c = api_capture_to_json(&rec, NULL);
    ck_assert_ptr_null(strstr(c, "response"));
    free(c);
    api_capture_free(&rec);
    ck_assert_int_eq(parse(null, &rec, &p), CONTRACTC_OK);
    ck_assert(rec.has_response); /* the reply said null: that is its value */
    ck_assert_str_eq(rec.response, "null");
    ck_assert_uint_eq(rec.response_len, 4);
    c = api_capture_to_json(&rec, NULL);
    ck_assert_ptr_nonnull(strstr(c, "\"response\":null"));
    free(c);
    api_capture_free(&rec);
    contractc_problems_clear(&p);
    free(absent);
    free(null);
}
END_TEST

/* A body of exactly n bytes: a string of n - 2 letters. */
static char *body_of(size_t n)
{
    char *b = malloc(n + 1);
    ck_assert_ptr_nonnull(b);
    memset(b, 'q', n);
    b[0] = b[n - 1] = '"';
    b[n] = '\0';
    return b;
}

START_TEST(max_bytes_is_inclusive)
{
    char *at = body_of(2048), *over = body_of(2049);
    char *r1 = reply_with(at, ""), *r2 = reply_with(over, "");
    api_capture_t rec;
    contractc_problems_t p;
    ck_assert_int_eq(parse(r1, &rec, &p), CONTRACTC_OK);
    ck_assert_uint_eq(rec.body_len, 2048);
    api_capture_free(&rec);
    ck_assert_int_eq(parse(r2, &rec, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    const contractc_problem_t *pr = contractc_problems_at(&p, 0);
    ck_assert_str_eq(pr->path, "$.body");
    ck_assert_int_eq(pr->kind, CONTRACTC_KIND_LENGTH);
    ck_assert_str_eq(pr->message, "the value is 2049 bytes of JSON text; at most 2048 are allowed");
    contractc_problems_clear(&p);
    free(at);
    free(over);
    free(r1);
    free(r2);
}
END_TEST

/* The paths of the problems, one per line. */
static void paths(const contractc_problems_t *p, char *out, size_t cap)
{
    out[0] = '\0';
    for (size_t i = 0; i < contractc_problems_count(p); i++) {
        const contractc_problem_t *pr = contractc_problems_at(p, i);
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s %s\n", pr->path, contractc_kind_name(pr->kind));
    }
}

START_TEST(duplicate_keys_compared_decoded_and_scoped_per_object)
{
    char got[512];
    api_capture_t rec;
    contractc_problems_t p;
    /* "a" and "\u0061" are one key */
    char *r = reply_with("{\"a\":1,\"\\u0061\":2}", "");
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_REJECTED);
    paths(&p, got, sizeof got);
    ck_assert_str_eq(got, "$.body.a duplicate\n");
    contractc_problems_clear(&p);
    free(r);
    /* one key in two objects, and in the items of an array, is no duplicate */
    r = reply_with("{\"a\":{\"a\":1},\"b\":{\"a\":2},\"c\":[{\"k\":1},{\"k\":1}]}", "");
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_OK);
    api_capture_free(&rec);
    free(r);
    /* each object's duplicate, at its own path; a key that is no identifier in brackets */
    r = reply_with("{\"x-y\":1,\"x-y\":2,\"z\":[0,{\"q\":1,\"q\":1,\"q\":1}]}", "");
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_REJECTED);
    paths(&p, got, sizeof got);
    ck_assert_str_eq(got, "$.body['x-y'] duplicate\n$.body.z[1].q duplicate\n$.body.z[1].q duplicate\n");
    contractc_problems_clear(&p);
    free(r);
}
END_TEST

START_TEST(paths_at_depth_and_the_depth_cap)
{
    /* 20 arrays deep (past the walk's 8 inline levels), then a duplicate */
    char body[256] = "", want[256] = "$.body";
    for (int i = 0; i < 20; i++) {
        strcat(body, "[0,");
        strcat(want, "[1]");
    }
    strcat(body, "{\"k\":1,\"k\":2}");
    for (int i = 0; i < 20; i++)
        strcat(body, "]");
    strcat(want, ".k duplicate\n");
    char *r = reply_with(body, "");
    api_capture_t rec;
    contractc_problems_t p;
    char got[256];
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_REJECTED);
    paths(&p, got, sizeof got);
    ck_assert_str_eq(got, want);
    contractc_problems_clear(&p);
    free(r);
    /* deeper than reply.max_depth (64, the root object is 1): a limit */
    char deep[160] = "";
    for (int i = 0; i < 64; i++)
        strcat(deep, "[");
    for (int i = 0; i < 64; i++)
        strcat(deep, "]");
    r = reply_with(deep, "");
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_REJECTED);
    paths(&p, got, sizeof got);
    ck_assert_str_eq(got, "$ limit\n");
    contractc_problems_clear(&p);
    free(r);
    /* 63 levels inside the root: accepted */
    deep[0] = '\0';
    for (int i = 0; i < 63; i++)
        strcat(deep, "[");
    for (int i = 0; i < 63; i++)
        strcat(deep, "]");
    r = reply_with(deep, "");
    ck_assert_int_eq(parse(r, &rec, &p), CONTRACTC_OK);
    ck_assert_uint_eq(rec.body_len, 126);
    api_capture_free(&rec);
    free(r);
}
END_TEST

START_TEST(numbers_by_the_grammar_alone)
{
    const char *ok[] = {"1e999", "-0", "100000000000000000000000", "0.000000000000000000001"};
    const char *bad[] = {"01", "1.", "+1", ".5", "NaN", "0x10"};
    api_capture_t rec;
    contractc_problems_t p;
    char got[256];
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char *r = reply_with(ok[i], "");
        ck_assert_msg(parse(r, &rec, &p) == CONTRACTC_OK, "%s", ok[i]);
        ck_assert_str_eq(rec.body, ok[i]);
        api_capture_free(&rec);
        free(r);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *r = reply_with(bad[i], "");
        ck_assert_msg(parse(r, &rec, &p) == CONTRACTC_REJECTED, "%s", bad[i]);
        paths(&p, got, sizeof got);
        ck_assert_msg(strcmp(got, "$ syntax\n") == 0, "%s: %s", bad[i], got);
        contractc_problems_clear(&p);
        free(r);
    }
}
END_TEST

START_TEST(items_and_map_values_hold_their_text)
{
    const char *reply = "{\"method\":\"GET\",\"path\":\"/\",\"body\":null,"
                        "\"headers\":{\"x-a\":[1, 2],\"x-b\":\"v\"},"
                        "\"attempts\":[{\"status\":200,\"body\":{ }}],"
                        "\"samples\":[true , {\"k\" :\"\\n\"}]}";
    api_capture_t rec;
    contractc_problems_t p;
    ck_assert_int_eq(parse(reply, &rec, &p), CONTRACTC_OK);
    ck_assert_str_eq(rec.body, "null");
    ck_assert_uint_eq(rec.headers_count, 2);
    ck_assert_str_eq(rec.headers[0].key, "x-a");
    ck_assert_str_eq(rec.headers[0].value.data, "[1, 2]");
    ck_assert_uint_eq(rec.headers[0].value.len, 6);
    ck_assert_str_eq(rec.headers[1].value.data, "\"v\"");
    ck_assert_uint_eq(rec.attempts_count, 1);
    ck_assert_str_eq(rec.attempts[0].body, "{ }");
    ck_assert_uint_eq(rec.samples_count, 2);
    ck_assert_str_eq(rec.samples[0].data, "true");
    ck_assert_str_eq(rec.samples[1].data, "{\"k\" :\"\\n\"}");
    char *c = api_capture_to_json(&rec, NULL);
    ck_assert_str_eq(c, "{\"method\":\"GET\",\"path\":\"/\",\"body\":null,\"headers\":{\"x-a\":[1,2],"
                        "\"x-b\":\"v\"},\"attempts\":[{\"status\":200,\"body\":{}}],\"samples\":"
                        "[true,{\"k\":\"\\n\"}]}");
    free(c);
    api_capture_free(&rec);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("json_values");
    TCase *t = tcase_create("api_capture");
    tcase_add_test(t, body_is_kept_byte_exact_and_canonical_drops_white_space);
    tcase_add_test(t, optional_json_absent_and_null_differ);
    tcase_add_test(t, max_bytes_is_inclusive);
    tcase_add_test(t, duplicate_keys_compared_decoded_and_scoped_per_object);
    tcase_add_test(t, paths_at_depth_and_the_depth_cap);
    tcase_add_test(t, numbers_by_the_grammar_alone);
    tcase_add_test(t, items_and_map_values_hold_their_text);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
