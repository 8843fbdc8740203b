/*
 * test_stats.c - `contractc stats`: counts and rates per contract hash, per
 * day and model, per path and kind; bad lines counted and reported but
 * never fatal; the plain table; usage errors; and lines written by the
 * runtime's log writer read back as decisions.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "generator.h"
#include "refund_request.h"

#define H1 "sha256:1111111111111111111111111111111111111111111111111111111111111111"
#define H2 "sha256:2222222222222222222222222222222222222222222222222222222222222222"

/* One decision line; `attempts` is the JSON array text. */
#define LINE(time, hash, model, attempts, outcome, extra)                                 \
    "{\"log\":\"contractc-log/1\",\"time\":\"" time "\",\"record_id\":null,"              \
    "\"contract\":\"refund_request\",\"version\":1,\"hash\":\"" hash "\","                \
    "\"dialect\":\"openai-strict\",\"model\":\"" model "\",\"settings\":{},"              \
    "\"attempts\":" attempts ",\"outcome\":\"" outcome "\"" extra "}\n"

#define OK_ "{\"outcome\":\"accepted\",\"fenced\":false,\"finish_reason\":\"stop\",\"problems\":[]}"
#define AMOUNT_ \
    "{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":\"stop\",\"problems\":[{\"path\":\"$.amount\",\"kind\":\"format\",\"rule\":null}]}"
#define CUT_ \
    "{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":\"length\",\"problems\":[{\"path\":\"$\",\"kind\":\"syntax\",\"rule\":null}]}"
#define ERR_ \
    "{\"outcome\":\"model_error\",\"fenced\":false,\"finish_reason\":null,\"problems\":[],\"error\":\"HTTP 503\"}"

/* Day 1, model m1: two decisions accepted first time, one routed.
 * Day 2, model m2: the rejection rate rises; one repair, one escalation,
 * one model error then a cut reply then acceptance.
 * A second hash (an edited prompt) with one failed decision. */
static const char good_log[] =
    LINE("2025-05-01T09:00:00Z", H1, "m1", "[" OK_ "]", "accepted", "")
    LINE("2025-05-01T10:00:00Z", H1, "m1", "[" OK_ "]", "accepted", ",\"route\":\"person\"")
    "\n"
    LINE("2025-05-02T09:00:00Z", H1, "m2", "[" AMOUNT_ "," OK_ "]", "accepted", "")
    LINE("2025-05-02T09:30:00+02:00", H1, "m2", "[" AMOUNT_ "," AMOUNT_ "," CUT_ "]", "escalated", "")
    LINE("2025-05-02T11:00:00.5Z", H1, "m2", "[" ERR_ "," CUT_ "," OK_ "]", "accepted", "")
    LINE("2025-05-03T08:00:00Z", H2, "m2", "[" ERR_ "," ERR_ "]", "failed", "");

static char tmpdir[] = "/tmp/contractc-test-stats-XXXXXX";

static char *write_temp(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Runs `contractc stats ARGS`; returns the exit code, stdout and stderr. */
static int run_stats(int argc, char **argv, char **out_text, char **err_text)
{
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert(out && err);
    int rc = cc_stats_main(argc, argv, out, err);
    FILE *files[2] = {out, err};
    char **texts[2] = {out_text, err_text};
    for (int i = 0; i < 2; i++) {
        long n = ftell(files[i]);
        rewind(files[i]);
        char *buf = malloc((size_t)n + 1);
        ck_assert_uint_eq(fread(buf, 1, (size_t)n, files[i]), (size_t)n);
        buf[n] = '\0';
        fclose(files[i]);
        *texts[i] = buf;
    }
    return rc;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    ck_assert_msg(cJSON_IsNumber(v), "no number \"%s\"", key);
    return v->valuedouble;
}

#define ck_assert_near(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-9, "%s = %g, not %g", #a, (double)(a), (double)(b))

static cJSON *stats_json_of(const char *log, char **err_text)
{
    char *path = write_temp("good.log", log);
    char *argv[] = {path, "--json"};
    char *out;
    ck_assert_int_eq(run_stats(2, argv, &out, err_text), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_msg(j != NULL, "not JSON:\n%s", out);
    free(out);
    return j;
}

START_TEST(the_whole_log_is_counted_per_contract_hash)
{
    char *err;
    cJSON *j = stats_json_of(good_log, &err);
    ck_assert_str_eq(err, "");
    ck_assert_near(num(j, "decisions"), 6);
    ck_assert_near(num(j, "bad_lines"), 0);
    ck_assert_near(num(j, "files"), 1);
    const cJSON *contracts = cJSON_GetObjectItem(j, "contracts");
    ck_assert_int_eq(cJSON_GetArraySize(contracts), 2);
    const cJSON *c = cJSON_GetArrayItem(contracts, 0);
    ck_assert_str_eq(cJSON_GetObjectItem(c, "hash")->valuestring, H1);
    const cJSON *all = cJSON_GetObjectItem(c, "all");
    ck_assert_near(num(all, "decisions"), 5);
    ck_assert_near(num(all, "attempts"), 10);
    ck_assert_near(num(all, "replies"), 9);        /* 10 attempts, 1 model error */
    ck_assert_near(num(all, "rejected"), 5);
    ck_assert_near(num(all, "rejection_rate"), 5.0 / 9.0);
    ck_assert_near(num(all, "accepted"), 4);
    ck_assert_near(num(all, "mean_attempts_to_accept"), (1 + 1 + 2 + 3) / 4.0);
    ck_assert_near(num(all, "escalated"), 1);
    ck_assert_near(num(all, "failed"), 0);
    ck_assert_near(num(all, "model_errors"), 1);
    ck_assert_near(num(all, "cut"), 2);
    ck_assert_near(num(all, "routed"), 1);
    const cJSON *hist = cJSON_GetObjectItem(c, "attempts_to_accept");
    ck_assert_near(num(hist, "1"), 2);
    ck_assert_near(num(hist, "2"), 1);
    ck_assert_near(num(hist, "3"), 1);
    ck_assert_near(num(cJSON_GetObjectItem(c, "routes"), "person"), 1);
    ck_assert_near(num(cJSON_GetObjectItem(c, "kinds"), "format"), 3);
    ck_assert_near(num(cJSON_GetObjectItem(c, "kinds"), "syntax"), 2);
    /* The edited contract is its own group. */
    const cJSON *c2 = cJSON_GetArrayItem(contracts, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(c2, "hash")->valuestring, H2);
    const cJSON *all2 = cJSON_GetObjectItem(c2, "all");
    ck_assert_near(num(all2, "failed"), 1);
    ck_assert_near(num(all2, "replies"), 0);
    ck_assert_near(num(all2, "rejection_rate"), 0);
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(all2, "mean_attempts_to_accept")));
    cJSON_Delete(j);
    free(err);
}
END_TEST

START_TEST(a_rising_rejection_rate_shows_by_day_and_model)
{
    char *err;
    cJSON *j = stats_json_of(good_log, &err);
    const cJSON *days = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0), "days");
    ck_assert_int_eq(cJSON_GetArraySize(days), 2);
    const cJSON *d1 = cJSON_GetArrayItem(days, 0), *d2 = cJSON_GetArrayItem(days, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(d1, "day")->valuestring, "2025-05-01");
    ck_assert_str_eq(cJSON_GetObjectItem(d1, "model")->valuestring, "m1");
    ck_assert_near(num(d1, "rejection_rate"), 0);
    ck_assert_near(num(d1, "decisions"), 2);
    /* "2025-05-02T09:30:00+02:00" counts on the day it was written with. */
    ck_assert_str_eq(cJSON_GetObjectItem(d2, "day")->valuestring, "2025-05-02");
    ck_assert_str_eq(cJSON_GetObjectItem(d2, "model")->valuestring, "m2");
    ck_assert_near(num(d2, "decisions"), 3);
    ck_assert_near(num(d2, "rejection_rate"), 5.0 / 7.0);
    ck_assert_near(num(d2, "mean_attempts_to_accept"), 2.5);
    cJSON_Delete(j);
    free(err);
}
END_TEST

START_TEST(problems_are_counted_per_path_and_kind_as_a_share_of_replies)
{
    char *err;
    cJSON *j = stats_json_of(good_log, &err);
    const cJSON *problems =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0), "problems");
    ck_assert_int_eq(cJSON_GetArraySize(problems), 2);
    const cJSON *p0 = cJSON_GetArrayItem(problems, 0), *p1 = cJSON_GetArrayItem(problems, 1);
    ck_assert_str_eq(cJSON_GetObjectItem(p0, "path")->valuestring, "$.amount");
    ck_assert_str_eq(cJSON_GetObjectItem(p0, "kind")->valuestring, "format");
    ck_assert_near(num(p0, "replies"), 3);
    ck_assert_near(num(p0, "share"), 3.0 / 9.0);
    ck_assert_str_eq(cJSON_GetObjectItem(p1, "path")->valuestring, "$");
    ck_assert_str_eq(cJSON_GetObjectItem(p1, "kind")->valuestring, "syntax");
    ck_assert_near(num(p1, "replies"), 2);
    cJSON_Delete(j);
    free(err);
}
END_TEST

START_TEST(bad_lines_are_counted_and_reported_but_never_fatal)
{
    static const char log[] =
        LINE("2025-05-01T09:00:00Z", H1, "m1", "[" OK_ "]", "accepted", "")
        "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:0\n"           /* 2: cut by a full disk */
        "not json at all\n"                                                  /* 3 */
        "[1,2]\n"                                                            /* 4 */
        LINE("2025-05-01T09:00:00Z", H1, "m1", "[" OK_ "]", "escalated", "") /* 5: inconsistent */
        LINE("yesterday", H1, "m1", "[" OK_ "]", "accepted", "")             /* 6 */
        LINE("2025-05-01T09:00:00Z", H1, "m1", "[]", "accepted", "")         /* 7 */
        LINE("2025-05-01T09:00:00Z", "md5:00", "m1", "[" OK_ "]", "accepted", "") /* 8 */
        LINE("2025-05-01T09:00:00Z", H1, "m1", "[" ERR_ "]", "failed", "")
        "{\"log\":\"contractc-log/2\"}\n"; /* 10 */
    char *path = write_temp("bad.log", log);
    char *argv[] = {"--json", path};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 2);
    ck_assert_near(num(j, "bad_lines"), 8);
    ck_assert_near(num(j, "lines"), 10);
    static const char *const expect[] = {
        "bad.log:2: bad line: not JSON", "bad.log:3: bad line: not JSON",
        "bad.log:4: bad line: not a JSON object",
        "bad.log:5: bad line: an escalated decision must have rejected and no accepted attempts",
        "bad.log:6: bad line: \"time\" is not an RFC 3339 date-time",
        "bad.log:7: bad line: \"attempts\" is missing or empty",
        "bad.log:8: bad line: \"hash\" is missing", "bad.log:10: bad line: \"log\" is not",
        "8 bad lines of 10 counted and skipped"};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(err, expect[i]) != NULL, "stderr lacks \"%s\":\n%s", expect[i], err);
    cJSON_Delete(j);
    free(out);
    free(err);
}
END_TEST

START_TEST(the_plain_table_shows_the_rates)
{
    char *path = write_temp("good.log", good_log);
    char *argv[] = {path};
    char *out, *err;
    ck_assert_int_eq(run_stats(1, argv, &out, &err), 0);
    static const char *const expect[] = {
        "contractc stats: 6 decisions from 1 file; 0 bad lines\n",
        "\nrefund_request v1  " H1 "\n",
        "  day         model  decisions  replies  rejected  rejection rate  accepted  attempts to accept  "
        "escalated  failed  model errors  cut (length)\n",
        "  all         *              5        9         5           55.6%         4                1.75  "
        "        1       0             1             2\n",
        "  2025-05-01  m1             2        2         0            0.0%         2                1.00  "
        "        0       0             0             0\n",
        "  2025-05-02  m2             3        7         5           71.4%         2                2.50  "
        "        1       0             1             2\n",
        "  attempts to accept: 1: 2, 2: 1, 3: 1\n", "  routes: person 1\n",
        "  $.amount  format        3             33.3%\n",
        "  all         m2             1        0         0            0.0%         0                   -  "
        "        0       1             2             0\n",
        "  attempts to accept: none accepted\n"};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(out, expect[i]) != NULL, "the table lacks\n%s\nin\n%s", expect[i], out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
    char *out, *err;
    ck_assert_int_eq(run_stats(0, NULL, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "usage: contractc stats LOG..."));
    free(out);
    free(err);
    char *bad_option[] = {"--csv", "x.log"};
    ck_assert_int_eq(run_stats(2, bad_option, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "unknown option '--csv'"));
    free(out);
    free(err);
    char *missing[] = {"/nonexistent/contractc.log"};
    ck_assert_int_eq(run_stats(1, missing, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "cannot open /nonexistent/contractc.log"));
    free(out);
    free(err);
}
END_TEST

/* The runtime's writer and this reader agree on the format. */
static int one_reply(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    (void)t;
    size_t *calls = user;
    static const char *const replies[] = {
        "{\"order_id\":\"A-1\",\"amount\":\"1,00\",\"currency\":\"EUR\",\"amount_text\":\"1,00\",\"reason\":\"other\"}",
        "{\"order_id\":\"A-1\",\"amount\":\"1.00\",\"currency\":\"EUR\",\"amount_text\":\"1,00\",\"reason\":\"other\"}"};
    reply->text = replies[*calls];
    reply->len = strlen(replies[*calls]);
    ++*calls;
    return 0;
}

START_TEST(lines_written_by_the_runtime_are_read_as_decisions)
{
    static const char email[] = "order A-1, 1,00 EUR";
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                               refund_request_prompt_len, email, strlen(email));
    size_t calls = 0;
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = one_reply;
    loop.model_user = &calls;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-06-01T12:00:00Z";
    e.include_value = true;
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL), CONTRACTC_OK);
    char *err;
    cJSON *j = stats_json_of(line, &err);
    ck_assert_near(num(j, "decisions"), 1);
    ck_assert_near(num(j, "bad_lines"), 0);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(c, "hash")->valuestring, refund_request_contract_hash);
    ck_assert_near(num(cJSON_GetObjectItem(c, "all"), "rejection_rate"), 0.5);
    cJSON_Delete(j);
    free(err);
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
}
END_TEST

/* Outcomes that are not wrong answers (the runtime writes them since the
 * loop reads the stop reason); the lines above are the older kinds, still
 * read as before. */
#define TRUNC_ \
    "{\"outcome\":\"truncated\",\"fenced\":false,\"finish_reason\":\"max_tokens\",\"problems\":[{\"path\":\"$\",\"kind\":\"syntax\",\"rule\":null}]}"
#define REFUSED_ "{\"outcome\":\"refused\",\"fenced\":false,\"finish_reason\":\"refusal\",\"problems\":[]}"
#define FILTERED_ "{\"outcome\":\"filtered\",\"fenced\":false,\"finish_reason\":\"content_filter\",\"problems\":[]}"
#define ERR429_ \
    "{\"outcome\":\"model_error\",\"fenced\":false,\"finish_reason\":null,\"problems\":[],\"error\":\"HTTP 429\",\"error_class\":\"http_429\"}"
#define OKCUT_ "{\"outcome\":\"accepted\",\"fenced\":false,\"finish_reason\":\"length\",\"problems\":[],\"truncated\":true}"
static const char outcomes_log[] =
    LINE("2025-06-01T09:00:00Z", H1, "m1", "[" ERR429_ "," TRUNC_ "]", "truncated", "")
    LINE("2025-06-01T09:10:00Z", H1, "m1", "[" TRUNC_ "," OK_ "]", "accepted", "")
    LINE("2025-06-01T09:20:00Z", H1, "m1", "[" REFUSED_ "]", "refused", "")
    LINE("2025-06-01T09:30:00Z", H1, "m1", "[" FILTERED_ "]", "filtered", "")
    LINE("2025-06-01T09:40:00Z", H1, "m1", "[" OKCUT_ "]", "accepted", "")
    /* bad: a refusal cannot be followed by another attempt, and a
     * truncated decision must end with a truncated attempt */
    LINE("2025-06-01T09:50:00Z", H1, "m1", "[" REFUSED_ "," OK_ "]", "accepted", "")
    LINE("2025-06-01T09:55:00Z", H1, "m1", "[" AMOUNT_ "]", "truncated", "");

START_TEST(truncated_refused_and_filtered_are_counted_and_never_rejections)
{
    char *err;
    cJSON *j = stats_json_of(outcomes_log, &err);
    ck_assert_near(num(j, "decisions"), 5);
    ck_assert_near(num(j, "bad_lines"), 2);
    ck_assert_ptr_nonnull(strstr(err, "a refused or filtered attempt must be the last"));
    ck_assert_ptr_nonnull(strstr(err, "a truncated, refused or filtered decision must end with such an attempt"));
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    const cJSON *all = cJSON_GetObjectItem(c, "all");
    ck_assert_near(num(all, "attempts"), 7);
    ck_assert_near(num(all, "replies"), 4);   /* two truncated, two accepted */
    ck_assert_near(num(all, "rejected"), 0);  /* a cut reply is not a wrong answer */
    ck_assert_near(num(all, "accepted"), 2);
    ck_assert_near(num(all, "cut"), 3);       /* max_tokens twice, length once */
    ck_assert_near(num(all, "truncated"), 1);
    ck_assert_near(num(all, "refused"), 1);
    ck_assert_near(num(all, "filtered"), 1);
    ck_assert_near(num(all, "model_errors"), 1);
    ck_assert_near(num(cJSON_GetObjectItem(c, "error_classes"), "http_429"), 1);
    ck_assert_ptr_null(cJSON_GetObjectItem(c, "problems")->child); /* none counted */
    cJSON_Delete(j);
    free(err);

    char *path = write_temp("outcomes.log", outcomes_log);
    char *argv[] = {path};
    char *out;
    ck_assert_int_eq(run_stats(1, argv, &out, &err), 0);
    ck_assert_ptr_nonnull(strstr(out, "\n  not repaired: truncated 1, refused 1, filtered 1\n"));
    ck_assert_ptr_nonnull(strstr(out, "\n  model errors by class: http_429 1\n"));
    free(out);
    free(err);
}
END_TEST

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("stats");
    TCase *t = tcase_create("stats");
    tcase_add_test(t, the_whole_log_is_counted_per_contract_hash);
    tcase_add_test(t, a_rising_rejection_rate_shows_by_day_and_model);
    tcase_add_test(t, problems_are_counted_per_path_and_kind_as_a_share_of_replies);
    tcase_add_test(t, bad_lines_are_counted_and_reported_but_never_fatal);
    tcase_add_test(t, the_plain_table_shows_the_rates);
    tcase_add_test(t, usage_errors_exit_2);
    tcase_add_test(t, lines_written_by_the_runtime_are_read_as_decisions);
    tcase_add_test(t, truncated_refused_and_filtered_are_counted_and_never_rejections);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    static const char *const names[] = {"good.log", "bad.log"};
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        remove(path);
    }
    rmdir(tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
