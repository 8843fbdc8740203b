/* SPDX-License-Identifier: MIT */
/*
 * test_cases.c - every reply case of tests/data/cases/replies.jsonl through
 * three doors that must agree with the case and with each other:
 *
 *   1. the generated parser (refund_request.c / invoice.c, built at build
 *      time with contractc_generate and the strict warning flags);
 *   2. the in-memory tables of `contractc validate` (cc_tables_build);
 *   3. the `contractc validate --json` command itself (cc_cli_main).
 *
 * An accepted case must give the expected values (compared as JSON); a
 * rejected one exactly the expected set of {path, kind}.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "generator.h"
#include "invoice.h"
#include "refund_request.h"
#include "signup_form.h"
#include "support_route.h"
#include "sensor_log.h"
#include "asset_tags.h"
#include "api_capture.h"
#include "flex_values.h"
#include "tables.h"

#define CASES CONTRACTC_TEST_DATA "/cases/replies.jsonl"
#define CONTRACTS CONTRACTC_TEST_DATA "/contracts/"

typedef struct test_case {
    cJSON *json;
    const char *id, *contract, *source, *expect;
    char *reply;
    size_t reply_len;
} test_case_t;

static int b64(int c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
}

static char *base64_decode(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *out = malloc(n / 4 * 3 + 4);
    size_t o = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && s[i] != '='; i++) {
        int v = b64((unsigned char)s[i]);
        ck_assert_int_ge(v, 0);
        acc = (acc << 6) | (unsigned)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xFF);
        }
    }
    *len = o;
    return out;
}

static test_case_t *load_cases(size_t *count)
{
    size_t len = 0;
    char *text = cc_read_file(CASES, &len);
    ck_assert_msg(text != NULL, "cannot read %s", CASES);
    test_case_t *cases = calloc(256, sizeof *cases);
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        ck_assert_uint_lt(n, 256);
        test_case_t *c = &cases[n++];
        c->json = cJSON_Parse(line);
        ck_assert_ptr_nonnull(c->json);
        c->id = cJSON_GetObjectItemCaseSensitive(c->json, "id")->valuestring;
        c->contract = cJSON_GetObjectItemCaseSensitive(c->json, "contract")->valuestring;
        c->expect = cJSON_GetObjectItemCaseSensitive(c->json, "expect")->valuestring;
        cJSON *src = cJSON_GetObjectItemCaseSensitive(c->json, "source_text");
        c->source = cJSON_IsString(src) ? src->valuestring : NULL;
        const char *reply = cJSON_GetObjectItemCaseSensitive(c->json, "reply")->valuestring;
        cJSON *enc = cJSON_GetObjectItemCaseSensitive(c->json, "reply_encoding");
        if (cJSON_IsString(enc) && strcmp(enc->valuestring, "base64") == 0) {
            c->reply = base64_decode(reply, &c->reply_len);
        } else {
            c->reply_len = strlen(reply);
            c->reply = malloc(c->reply_len + 1);
            memcpy(c->reply, reply, c->reply_len + 1);
        }
    }
    free(text);
    *count = n;
    return cases;
}

static void free_cases(test_case_t *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cJSON_Delete(cases[i].json);
        free(cases[i].reply);
    }
    free(cases);
}

/* Sorted "path kind" lines of a problem set, for comparison as multisets. */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *joined_sorted(char **lines, size_t n)
{
    qsort(lines, n, sizeof *lines, cmp_str);
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        cc_buf_puts(&b, lines[i]);
        cc_buf_putc(&b, '\n');
        free(lines[i]);
    }
    free(lines);
    char *s = cc_buf_take(&b, NULL);
    return s;
}

static char *line_of(const char *path, const char *kind)
{
    size_t n = strlen(path) + strlen(kind) + 2;
    char *s = malloc(n);
    snprintf(s, n, "%s %s", path, kind);
    return s;
}

static char *expected_problems(const test_case_t *c)
{
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(c->json, "expect_problems");
    size_t n = (size_t)cJSON_GetArraySize(arr);
    char **lines = calloc(n + 1, sizeof *lines);
    for (size_t i = 0; i < n; i++) {
        cJSON *p = cJSON_GetArrayItem(arr, (int)i);
        lines[i] = line_of(cJSON_GetObjectItemCaseSensitive(p, "path")->valuestring,
                           cJSON_GetObjectItemCaseSensitive(p, "kind")->valuestring);
    }
    return joined_sorted(lines, n);
}

static char *actual_problems(const contractc_problems_t *p)
{
    size_t n = contractc_problems_count(p);
    char **lines = calloc(n + 1, sizeof *lines);
    for (size_t i = 0; i < n; i++)
        lines[i] = line_of(contractc_problems_at(p, i)->path,
                           contractc_kind_name(contractc_problems_at(p, i)->kind));
    return joined_sorted(lines, n);
}

/* Checks one parse result against the case; `door` names the route. */
static void check_result(const test_case_t *c, const char *door, contractc_status_t rc,
                         const contractc_problems_t *problems, const char *canonical)
{
    if (strcmp(c->expect, "accept") == 0) {
        ck_assert_msg(rc == CONTRACTC_OK, "%s via %s: expected accept, got %s (first: %s %s)", c->id,
                      door, contractc_status_name(rc),
                      contractc_problems_count(problems) ? contractc_problems_at(problems, 0)->path : "-",
                      contractc_problems_count(problems) ? contractc_problems_at(problems, 0)->message : "-");
        cJSON *want = cJSON_GetObjectItemCaseSensitive(c->json, "expect_values");
        cJSON *got = cJSON_Parse(canonical);
        ck_assert_msg(got && cJSON_Compare(want, got, 1), "%s via %s: values %s", c->id, door, canonical);
        cJSON_Delete(got);
    } else {
        ck_assert_msg(rc == CONTRACTC_REJECTED, "%s via %s: expected reject, got %s", c->id, door,
                      contractc_status_name(rc));
        char *want = expected_problems(c), *have = actual_problems(problems);
        ck_assert_msg(strcmp(want, have) == 0, "%s via %s:\nexpected\n%sgot\n%s", c->id, door, want, have);
        free(want);
        free(have);
    }
}

static const contractc_contract_t *generated_contract(const char *name)
{
    if (strcmp(name, "refund_request") == 0)
        return &refund_request_contract;
    if (strcmp(name, "invoice") == 0)
        return &invoice_contract;
    if (strcmp(name, "signup_form") == 0) /* v2: keys and optional */
        return &signup_form_contract;
    if (strcmp(name, "support_route") == 0) /* v2: tagged unions */
        return &support_route_contract;
    if (strcmp(name, "sensor_log") == 0) /* v2: nullable array items */
        return &sensor_log_contract;
    if (strcmp(name, "asset_tags") == 0) /* v2: maps */
        return &asset_tags_contract;
    if (strcmp(name, "api_capture") == 0) /* v2: any JSON values */
        return &api_capture_contract;
    if (strcmp(name, "flex_values") == 0) /* v2: value unions */
        return &flex_values_contract;
    return NULL;
}

START_TEST(every_case_agrees_through_the_generated_parser)
{
    size_t n;
    test_case_t *cases = load_cases(&n);
    size_t accepted = 0, rejected = 0;
    for (size_t i = 0; i < n; i++) {
        const test_case_t *c = &cases[i];
        const contractc_contract_t *k = generated_contract(c->contract);
        ck_assert_msg(k != NULL, "unknown contract %s", c->contract);
        void *record = calloc(1, k->root->size);
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = contractc_parse(k, c->reply, c->reply_len, c->source,
                                                c->source ? strlen(c->source) : 0, NULL, record, &problems);
        char *canonical = rc == CONTRACTC_OK ? contractc_to_json(k, record, NULL) : NULL;
        check_result(c, "the generated parser", rc, &problems, canonical);
        rc == CONTRACTC_OK ? accepted++ : rejected++;
        free(canonical);
        contractc_record_free(k, record);
        contractc_problems_clear(&problems);
        free(record);
    }
    printf("generated parser: %zu cases agree (%zu accepted, %zu rejected)\n", n, accepted, rejected);
    ck_assert_uint_ge(n, 35);
    free_cases(cases, n);
}
END_TEST

START_TEST(every_case_agrees_through_the_in_memory_tables)
{
    size_t n;
    test_case_t *cases = load_cases(&n);
    const char *names[] = {"refund_request", "invoice", "signup_form", "support_route", "sensor_log",
                           "asset_tags", "api_capture", "flex_values"};
    enum { N_CONTRACTS = 8 };
    cc_contract_t *models[N_CONTRACTS];
    cc_tables_t *tables[N_CONTRACTS];
    cc_artifacts_t arts[N_CONTRACTS];
    for (int k = 0; k < N_CONTRACTS; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s.contract.yaml", CONTRACTS, names[k]);
        cc_diags_t d;
        cc_diags_init(&d);
        models[k] = cc_contract_load(path, &d);
        ck_assert_msg(models[k] && d.errors == 0, "cannot load %s", path);
        cc_diags_free(&d);
        ck_assert(cc_build_artifacts(models[k], &arts[k]));
        tables[k] = cc_tables_build(models[k], arts[k].hash);
        ck_assert_ptr_nonnull(tables[k]);
        /* same hash as the generated code */
        ck_assert_str_eq(tables[k]->contract.hash, generated_contract(names[k])->hash);
    }
    for (size_t i = 0; i < n; i++) {
        const test_case_t *c = &cases[i];
        int k = 0;
        while (k + 1 < N_CONTRACTS && strcmp(c->contract, names[k]) != 0)
            k++;
        const contractc_contract_t *t = &tables[k]->contract;
        void *record = calloc(1, t->root->size);
        contractc_problems_t problems;
        contractc_problems_init(&problems);
        contractc_status_t rc = contractc_parse(t, c->reply, c->reply_len, c->source,
                                                c->source ? strlen(c->source) : 0, NULL, record, &problems);
        char *canonical = rc == CONTRACTC_OK ? contractc_to_json(t, record, NULL) : NULL;
        check_result(c, "the in-memory tables", rc, &problems, canonical);
        free(canonical);
        contractc_record_free(t, record);
        contractc_problems_clear(&problems);
        free(record);
    }
    printf("in-memory tables: %zu cases agree\n", n);
    for (int k = 0; k < N_CONTRACTS; k++) {
        cc_tables_free(tables[k]);
        cc_artifacts_free(&arts[k]);
        cc_contract_free(models[k]);
    }
    free_cases(cases, n);
}
END_TEST

/* Writes bytes to a fresh temporary file; returns its path (free it). */
static char *temp_file(const void *data, size_t len)
{
    char *path = strdup("/tmp/contractc-case-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq((ssize_t)len, write(fd, data, len));
    close(fd);
    return path;
}

START_TEST(every_case_agrees_through_the_validate_command)
{
    size_t n;
    test_case_t *cases = load_cases(&n);
    for (size_t i = 0; i < n; i++) {
        const test_case_t *c = &cases[i];
        char contract[512];
        snprintf(contract, sizeof contract, "%s%s.contract.yaml", CONTRACTS, c->contract);
        char *reply = temp_file(c->reply, c->reply_len);
        char *source = c->source ? temp_file(c->source, strlen(c->source)) : NULL;
        char *argv[] = {"contractc", "validate", contract, reply, "--json", "--source", source, NULL};
        int argc = source ? 7 : 5;
        FILE *out = tmpfile(), *err = tmpfile();
        int code = cc_cli_main(argc, argv, out, err);
        rewind(out);
        char buf[65536];
        size_t got = fread(buf, 1, sizeof buf - 1, out);
        buf[got] = '\0';
        fclose(out);
        fclose(err);
        cJSON *result = cJSON_Parse(buf);
        ck_assert_msg(result != NULL, "%s: validate printed %s", c->id, buf);
        bool accepted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "accepted"));
        ck_assert_int_eq(code, accepted ? 0 : 1);
        if (strcmp(c->expect, "accept") == 0) {
            ck_assert_msg(accepted, "%s: validate rejected it: %s", c->id, buf);
            ck_assert(cJSON_Compare(cJSON_GetObjectItemCaseSensitive(c->json, "expect_values"),
                                    cJSON_GetObjectItemCaseSensitive(result, "value"), 1));
        } else {
            ck_assert_msg(!accepted, "%s: validate accepted it", c->id);
            cJSON *arr = cJSON_GetObjectItemCaseSensitive(result, "problems");
            size_t pn = (size_t)cJSON_GetArraySize(arr);
            char **lines = calloc(pn + 1, sizeof *lines);
            for (size_t k = 0; k < pn; k++) {
                cJSON *p = cJSON_GetArrayItem(arr, (int)k);
                lines[k] = line_of(cJSON_GetObjectItemCaseSensitive(p, "path")->valuestring,
                                   cJSON_GetObjectItemCaseSensitive(p, "kind")->valuestring);
            }
            char *have = joined_sorted(lines, pn), *want = expected_problems(c);
            ck_assert_msg(strcmp(want, have) == 0, "%s via validate:\nexpected\n%sgot\n%s", c->id, want, have);
            free(have);
            free(want);
        }
        cJSON_Delete(result);
        unlink(reply);
        free(reply);
        if (source) {
            unlink(source);
            free(source);
        }
    }
    printf("contractc validate --json: %zu cases agree\n", n);
    free_cases(cases, n);
}
END_TEST

/* docs/contract-language.md §4.11: the canonical form writes a union's tag
 * first, wherever the reply had it, then the variant's keys in contract
 * order; and the C record holds the kind and the variant's struct. */
START_TEST(a_union_is_canonical_with_its_tag_first)
{
    const char reply[] = "{\"route\":{\"amount\":\"19.99\",\"order_id\":\"AB-12345\",\"intent\":\"refund\"},"
                         "\"escalation\":null,\"history\":[{\"topic\":\"late\",\"intent\":\"question\"}]}";
    support_route_t record;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_int_eq(support_route_parse(reply, sizeof reply - 1, NULL, 0, &record, &problems),
                     CONTRACTC_OK);
    ck_assert_int_eq(record.route.kind, SUPPORT_ROUTE_ROUTE_KIND_REFUND);
    ck_assert_str_eq(record.route.as.refund.order_id, "AB-12345");
    ck_assert_int_eq(record.route.as.refund.amount, 1999);
    ck_assert(!record.has_escalation);
    ck_assert_int_eq(record.escalation.kind, SUPPORT_ROUTE_ESCALATION_KIND_NONE);
    ck_assert(!record.has_followup);
    ck_assert_uint_eq(record.history_count, 1);
    ck_assert_int_eq(record.history[0].kind, SUPPORT_ROUTE_HISTORY_KIND_QUESTION);
    ck_assert_str_eq(record.history[0].as.question.topic, "late");
    char *json = contractc_to_json(&support_route_contract, &record, NULL);
    ck_assert_str_eq(json, "{\"route\":{\"intent\":\"refund\",\"order_id\":\"AB-12345\",\"amount\":\"19.99\"},"
                           "\"escalation\":null,\"history\":[{\"intent\":\"question\",\"topic\":\"late\"}]}");
    free(json);
    support_route_free(&record);
    contractc_problems_clear(&problems);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cases");
    TCase *tc = tcase_create("replies.jsonl");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_case_agrees_through_the_generated_parser);
    tcase_add_test(tc, every_case_agrees_through_the_in_memory_tables);
    tcase_add_test(tc, every_case_agrees_through_the_validate_command);
    tcase_add_test(tc, a_union_is_canonical_with_its_tag_first);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
