/* SPDX-License-Identifier: MIT */
/*
 * test_stats.c - `contractc stats`: counts and rates per contract hash, per
 * day and model, per path and kind; bad lines counted and reported but
 * never fatal; the plain table; usage errors; lines written by the
 * runtime's log writer read back as decisions, and a log written by an
 * earlier release (tests/data/logs) read exactly as that release read it;
 * linear work on hostile lines (thousands of problems, thousands of
 * distinct keys); the strict line reader (bad versions, duplicates, a line
 * over the cap); control characters from the log never printed raw.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "generator.h"
#include "keymap.h"
#include "refund_request.h"
#include "text.h"

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


/* ---- an earlier release's log ----------------------------------------------- */

static char *read_data(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/logs/%s", CONTRACTC_TEST_DATA, name);
    char *text = cc_read_file(path, NULL);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    return text;
}

/* tests/data/logs/df421cc.log was written by the runtime of commit df421cc
 * (every outcome, error classes, routes, an opted-in value, dropped
 * problems, keys with control characters, two contracts); its .stats.json
 * and .stats.txt are what `contractc stats` of that commit printed. */
START_TEST(a_log_of_an_earlier_release_reads_as_it_did_then)
{
    char path[512];
    snprintf(path, sizeof path, "%s/logs/df421cc.log", CONTRACTC_TEST_DATA);
    char *argv[] = {path, "--json"};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    ck_assert_str_eq(err, "");
    char *expect_text = read_data("df421cc.stats.json");
    cJSON *have = cJSON_Parse(out), *want = cJSON_Parse(expect_text);
    ck_assert(have && want);
    ck_assert_msg(cJSON_Compare(have, want, true), "--json differs from df421cc's:\n%s", out);
    ck_assert_near(num(have, "decisions"), 12);
    ck_assert_near(num(have, "bad_lines"), 0);
    cJSON_Delete(have);
    cJSON_Delete(want);
    free(expect_text);
    free(out);
    free(err);
    ck_assert_int_eq(run_stats(1, argv, &out, &err), 0);
    expect_text = read_data("df421cc.stats.txt");
    ck_assert_str_eq(out, expect_text);
    free(expect_text);
    free(out);
    free(err);
}
END_TEST

/* ---- linear work ------------------------------------------------------------ */

/* A rejected attempt with problems $.items[i].amount for i in [from, to),
 * each listed `times` times. */
static void put_attempt(cc_buf_t *b, size_t from, size_t to, int times)
{
    cc_buf_puts(b, "{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":\"stop\",\"problems\":[");
    bool first = true;
    for (size_t i = from; i < to; i++)
        for (int t = 0; t < times; t++) {
            cc_buf_printf(b, "%s{\"path\":\"$.items[%zu].amount\",\"kind\":\"format\",\"rule\":null}",
                          first ? "" : ",", i);
            first = false;
        }
    cc_buf_puts(b, "]}");
}

static void put_line_head(cc_buf_t *b, const char *model)
{
    cc_buf_printf(b, "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:00:00Z\",\"record_id\":null,"
                     "\"contract\":\"refund_request\",\"version\":1,\"hash\":\"" H1 "\","
                     "\"dialect\":\"openai-strict\",\"model\":\"%s\",\"settings\":{},\"attempts\":[",
                  model);
}

/* `contractc stats` of this test's LOG: before, the problems of one attempt
 * were compared pairwise through cJSON's linked list (cubic: 4,000 took
 * 15 s) and every (path, kind) against every other (quadratic).  Here a
 * 4,000-problem attempt, listed twice over (a reply that repeats a
 * problem counts it once), then a second reply with half of them. */
START_TEST(a_4000_problem_line_is_counted_once_per_reply)
{
    cc_buf_t b = CC_BUF_INIT;
    put_line_head(&b, "m1");
    put_attempt(&b, 0, 4000, 2);
    cc_buf_putc(&b, ',');
    put_attempt(&b, 0, 2000, 1);
    cc_buf_puts(&b, "],\"outcome\":\"escalated\"}\n");
    ck_assert(!b.failed);
    char *err;
    cJSON *j = stats_json_of(b.data, &err);
    ck_assert_str_eq(err, "");
    ck_assert_near(num(j, "decisions"), 1);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    const cJSON *all = cJSON_GetObjectItem(c, "all");
    ck_assert_near(num(all, "replies"), 2);
    ck_assert_near(num(all, "rejected"), 2);
    ck_assert_near(num(cJSON_GetObjectItem(c, "kinds"), "format"), 10000); /* every listing */
    const cJSON *problems = cJSON_GetObjectItem(c, "problems");
    ck_assert_int_eq(cJSON_GetArraySize(problems), 4000);
    /* most frequent first, then by path: $.items[0] < $.items[1000] < ... */
    const cJSON *p0 = cJSON_GetArrayItem(problems, 0);
    ck_assert_str_eq(cJSON_GetObjectItem(p0, "path")->valuestring, "$.items[0].amount");
    ck_assert_near(num(p0, "replies"), 2);
    ck_assert_near(num(p0, "share"), 1.0);
    const cJSON *p2000 = cJSON_GetArrayItem(problems, 2000);
    ck_assert_near(num(p2000, "replies"), 1);
    size_t twice = 0, once = 0;
    const cJSON *p;
    cJSON_ArrayForEach(p, problems)
    {
        twice += num(p, "replies") == 2;
        once += num(p, "replies") == 1;
    }
    ck_assert_uint_eq(twice, 2000);
    ck_assert_uint_eq(once, 2000);
    cJSON_Delete(j);
    free(err);
    cc_buf_free(&b);
}
END_TEST

/* 20,000 lines, each with its own model and its own path: every model a
 * row of its own, every path counted once. */
START_TEST(twenty_thousand_distinct_keys_are_each_counted)
{
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < 20000; i++) {
        char model[32];
        snprintf(model, sizeof model, "m%zu", i);
        put_line_head(&b, model);
        put_attempt(&b, i, i + 1, 1);
        cc_buf_puts(&b, "],\"outcome\":\"escalated\"}\n");
    }
    ck_assert(!b.failed);
    char *err;
    cJSON *j = stats_json_of(b.data, &err);
    ck_assert_near(num(j, "decisions"), 20000);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(c, "problems")), 20000);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(c, "days")), 20000);
    ck_assert_near(num(cJSON_GetObjectItem(c, "models"), "m19999"), 1);
    const cJSON *last = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "problems"), 19999);
    ck_assert_near(num(last, "replies"), 1);
    cJSON_Delete(j);
    free(err);
    cc_buf_free(&b);
}
END_TEST

/* The paper's test vector (SipHash, Appendix A) and the index on many
 * keys, some differing only after a NUL byte. */
START_TEST(the_key_index_finds_every_key)
{
    unsigned char msg[15];
    for (int i = 0; i < 15; i++)
        msg[i] = (unsigned char)i;
    ck_assert_uint_eq(cc_siphash24(UINT64_C(0x0706050403020100), UINT64_C(0x0f0e0d0c0b0a0908), msg, 15),
                      UINT64_C(0xa129ca6149be45e5));
    cc_keymap_t m;
    cc_keymap_init(&m);
    enum { N = 5000 };
    static char keys[N][16];
    for (size_t i = 0; i < N; i++) {
        int n = snprintf(keys[i], sizeof keys[i], "k%zu", i / 2);
        keys[i][n + 1] = (char)('a' + i % 2); /* "k7\0a", "k7\0b" */
        size_t len = (size_t)n + 2, at;
        uint64_t h = cc_keymap_hash(&m, keys[i], len);
        ck_assert(!cc_keymap_find(&m, keys[i], len, h, &at));
        ck_assert(cc_keymap_insert(&m, keys[i], len, h, i));
    }
    ck_assert_uint_eq(m.count, N);
    for (size_t i = 0; i < N; i++) {
        size_t len = strlen(keys[i]) + 2, at = 0;
        ck_assert(cc_keymap_find(&m, keys[i], len, cc_keymap_hash(&m, keys[i], len), &at));
        ck_assert_uint_eq(at, i);
        size_t prefix = len - 2; /* "k7" alone is not a key */
        ck_assert(!cc_keymap_find(&m, keys[i], prefix, cc_keymap_hash(&m, keys[i], prefix), &at));
    }
    cc_keymap_free(&m);
}
END_TEST

/* ---- the strict reader -------------------------------------------------------- */

#define VLINE(version) \
    "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:00:00Z\",\"contract\":\"c\",\"version\":" \
    version ",\"hash\":\"" H1 "\",\"attempts\":[" OK_ "],\"outcome\":\"accepted\"}\n"

/* A version is a positive integer up to 2^32 - 1, as the writer prints it:
 * before, 1e999, 1.5, -5 and 0 were each a decision of a contract "vinf",
 * "v2", "v-5" or "v0" grouped with the first line's version. */
START_TEST(a_version_that_is_not_a_positive_integer_is_a_bad_line)
{
    static const char log[] = VLINE("1e999") VLINE("1.5") VLINE("-5") VLINE("0")
        VLINE("4294967296") VLINE("1.0") VLINE("1e0") VLINE("\"1\"") VLINE("null")
        VLINE("4294967295");
    char *path = write_temp("version.log", log);
    char *argv[] = {path, "--json"};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 1);
    ck_assert_near(num(j, "bad_lines"), 9);
    for (int line = 1; line <= 9; line++) {
        char want[160];
        snprintf(want, sizeof want,
                 "version.log:%d: bad line: \"version\" is missing or not an integer from 1 to "
                 "4294967295\n", line);
        ck_assert_msg(strstr(err, want) != NULL, "stderr lacks \"%s\":\n%s", want, err);
    }
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    ck_assert_near(num(c, "version"), 4294967295.0);
    cJSON_Delete(j);
    free(out);
    free(err);
    remove(path);
}
END_TEST

#define STOPPED_(at, received)                                                             \
    "{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":null,\"problems\":[{\"path\":"  \
    "\"$.amount\",\"kind\":\"format\",\"rule\":null}],\"stopped_at\":" at ",\"received\":"     \
    received "}"

/* Streamed replies stopped when dead (§18, "Streaming in the loop"):
 * counted with the bytes they had received and the bytes before their
 * first dead one; a pair that the writer cannot have written is a bad line. */
START_TEST(stopped_streams_are_counted_with_their_bytes)
{
    static const char log[] =
        LINE("2026-12-07T09:00:00Z", H1, "m1", "[" STOPPED_("41", "48") "," OK_ "]", "accepted", "")
        LINE("2026-12-07T09:01:00Z", H1, "m1", "[" STOPPED_("41", "56") "," AMOUNT_ "," OK_ "]",
             "accepted", "")
        LINE("2026-12-07T09:02:00Z", H1, "m1", "[" AMOUNT_ "," OK_ "]", "accepted", "")
        LINE("2026-12-07T09:03:00Z", H1, "m1", "[" STOPPED_("48", "48") "," OK_ "]", "accepted", "")
        LINE("2026-12-07T09:04:00Z", H1, "m1", "[" STOPPED_("-1", "48") "," OK_ "]", "accepted", "")
        LINE("2026-12-07T09:05:00Z", H1, "m1", "[{\"outcome\":\"rejected\",\"fenced\":false,"
             "\"finish_reason\":null,\"problems\":[],\"stopped_at\":3}," OK_ "]", "accepted", "");
    char *path = write_temp("stopped.log", log);
    char *argv[] = {path, "--json"};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 3);
    ck_assert_near(num(j, "bad_lines"), 3);
    for (int line = 4; line <= 6; line++) {
        char want[200];
        snprintf(want, sizeof want,
                 "stopped.log:%d: bad line: an attempt's \"stopped_at\" and \"received\" are not "
                 "byte counts of a rejected reply, the first less than the second\n", line);
        ck_assert_msg(strstr(err, want) != NULL, "stderr lacks \"%s\":\n%s", want, err);
    }
    const cJSON *all = cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0), "all");
    ck_assert_near(num(all, "stopped"), 2);
    ck_assert_near(num(all, "stopped_received"), 104);
    ck_assert_near(num(all, "stopped_at"), 82);
    ck_assert_near(num(all, "rejected"), 4);
    cJSON_Delete(j);
    free(out);
    free(err);
    char *targv[] = {path};
    ck_assert_int_eq(run_stats(1, targv, &out, &err), 0);
    ck_assert_msg(strstr(out, "  stopped when dead (streamed): 2 replies, 104 bytes received, 82 "
                              "of them before the first dead byte\n") != NULL, "%s", out);
    free(out);
    free(err);
    remove(path);
}
END_TEST

#define ALINE(body) "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:00:00Z\"," body "}\n"
#define REST_ "\"contract\":\"c\",\"version\":1,\"hash\":\"" H1 "\",\"attempts\":[" OK_ "],\"outcome\":\"accepted\""

/* What cJSON let through, and what the writer never writes. */
START_TEST(lines_the_writer_cannot_have_written_are_bad_lines)
{
    static const char log[] =
        ALINE(REST_)                                                  /* 1: good */
        ALINE(REST_ ",\"outcome\":\"escalated\"")                     /* 2: a member twice */
        ALINE(REST_) "x\n"                                            /* 3: good; 4: not JSON */
        "{\"log\":\"contractc-log/1\"} trailing\n"                    /* 5: text after the value */
        ALINE(REST_ ",\"model\":\"\xff\"")                            /* 6: not UTF-8 */
        ALINE(REST_ ",\"model\":\"a\\u0000b\"")                       /* 7: \u0000 */
        ALINE(REST_ ",\"model\":\"\\ud800\"")                         /* 8: a lone surrogate */
        ALINE("\"contract\":\"other\",\"version\":1,\"hash\":\"" H1 "\",\"attempts\":[" OK_
              "],\"outcome\":\"accepted\"")                           /* 9: same hash, other name */
        ALINE("\"contract\":\"c\",\"version\":1,\"hash\":\"sha256:ABC\",\"attempts\":[" OK_
              "],\"outcome\":\"accepted\"")                           /* 10: not a sha256 hash */
        ALINE(REST_ ",\"route\":7")                                   /* 11: route not a string */
        ALINE(REST_ ",\"value\":{\"a\":[[[{\"b\":\"\\u00e9\"}]]]},\"settings\":{\"x\":1e3}"); /* 12: good */
    char *path = write_temp("strict.log", log);
    char *argv[] = {path, "--json"};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 3);
    ck_assert_near(num(j, "bad_lines"), 9);
    static const char *const expect[] = {
        "strict.log:2: bad line: a member appears twice in one object\n",
        "strict.log:4: bad line: not JSON (a line cut by a failed write?)\n",
        "strict.log:5: bad line: not JSON (a line cut by a failed write?)\n",
        "strict.log:6: bad line: not JSON in UTF-8 (an invalid byte, a \\u0000 or a lone surrogate)\n",
        "strict.log:7: bad line: not JSON in UTF-8",
        "strict.log:8: bad line: not JSON in UTF-8",
        "strict.log:9: bad line: \"contract\" or \"version\" differs from an earlier line with the same hash\n",
        "strict.log:10: bad line: \"hash\" is missing or not \"sha256:\" and 64 lowercase hex digits\n",
        "strict.log:11: bad line: \"model\", \"dialect\", \"route\" or \"record_id\" is not a string or null\n"};
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(err, expect[i]) != NULL, "stderr lacks \"%s\":\n%s", expect[i], err);
    cJSON_Delete(j);
    free(out);
    free(err);
    remove(path);
}
END_TEST

/* A line over the cap is one bad line, skipped as it is read; the lines
 * around it count.  Once at the real cap (64 MiB, through the command) and
 * once at a small one (the fuzz target's entry). */
START_TEST(a_line_over_the_cap_is_a_bad_line)
{
    static const char good[] = LINE("2025-05-01T09:00:00Z", H1, "m1", "[" OK_ "]", "accepted", "");
    char path[512];
    snprintf(path, sizeof path, "%s/long.log", tmpdir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(good, f);
    /* a line the writer could never make: a model name of 64 MiB */
    static char chunk[65536];
    memset(chunk, 'x', sizeof chunk);
    fputs("{\"log\":\"contractc-log/1\",\"model\":\"", f);
    for (size_t i = 0; i < CC_STATS_MAX_LINE / sizeof chunk; i++)
        ck_assert_uint_eq(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
    fputs("\"}\n", f);
    fputs(good, f);
    fclose(f);
    char *argv[] = {path, "--json"};
    char *out, *err;
    ck_assert_int_eq(run_stats(2, argv, &out, &err), 0);
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 2);
    ck_assert_near(num(j, "bad_lines"), 1);
    ck_assert_near(num(j, "lines"), 3);
    char want[200];
    snprintf(want, sizeof want, "long.log:2: bad line: longer than the limit of %zu bytes (%zu bytes)\n",
             CC_STATS_MAX_LINE, CC_STATS_MAX_LINE + 36);
    ck_assert_msg(strstr(err, want) != NULL, "stderr lacks \"%s\":\n%s", want, err);
    cJSON_Delete(j);
    free(out);
    free(err);
    remove(path);

    /* a small cap: a line of exactly the cap is read, one byte more is not */
    size_t n = strlen(good) - 1;
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_puts(&b, good);
    cc_buf_append(&b, good, n); /* 2: the same line, then one byte */
    cc_buf_puts(&b, " \n");
    cc_buf_append(&b, good, n); /* 3: no line break at the end */
    ck_assert(!b.failed);
    FILE *in = fmemopen(b.data, b.len, "rb"), *o = tmpfile(), *e = tmpfile();
    ck_assert(in && o && e);
    ck_assert_int_eq(cc_stats_stream(in, "mem", n, true, o, e), 0);
    fclose(in);
    rewind(o);
    char text[65536];
    size_t got = fread(text, 1, sizeof text - 1, o);
    text[got] = '\0';
    j = cJSON_Parse(text);
    ck_assert_ptr_nonnull(j);
    ck_assert_near(num(j, "decisions"), 2);
    ck_assert_near(num(j, "bad_lines"), 1);
    rewind(e);
    got = fread(text, 1, sizeof text - 1, e);
    text[got] = '\0';
    snprintf(want, sizeof want, "mem:2: bad line: longer than the limit of %zu bytes (%zu bytes)\n", n,
             n + 1);
    ck_assert_msg(strstr(text, want) != NULL, "stderr lacks \"%s\":\n%s", want, text);
    cJSON_Delete(j);
    fclose(o);
    fclose(e);
    cc_buf_free(&b);
}
END_TEST

/* ---- nothing from the log reaches the terminal raw ------------------------------ */

/* A control character other than the line break and the tab (--json indents
 * with tabs). */
static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7F || (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0))
            return true;
    return false;
}

/* ESC (a CSI sequence that would turn the terminal red), DEL and the C1
 * CSI (U+009B) in a path, a model, a kind, a route, a dialect and an error
 * class; and an ESC in the log's file name. */
START_TEST(control_characters_from_the_log_are_printed_escaped)
{
#define ESC_ "\\u001b[31m"
    static const char log[] =
        "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:00:00Z\",\"contract\":\"c" ESC_ "\","
        "\"version\":1,\"hash\":\"" H1 "\",\"dialect\":\"d\\u007f\",\"model\":\"m" ESC_ "\","
        "\"route\":\"r\\u009b2J\",\"attempts\":["
        "{\"outcome\":\"model_error\",\"finish_reason\":null,\"problems\":[],\"error_class\":\"e" ESC_ "\"},"
        "{\"outcome\":\"rejected\",\"finish_reason\":\"stop\",\"problems\":[{\"path\":\"$.a" ESC_
        "\",\"kind\":\"k\\u009b\"}]}],\"outcome\":\"escalated\"}\n"
        "not json\n";
    char *path = write_temp("esc\x1b[31m.log", log);
    char *argv[] = {path};
    char *out, *err;
    ck_assert_int_eq(run_stats(1, argv, &out, &err), 0);
    ck_assert_msg(!has_control(out), "a control character printed raw:\n%s", out);
    ck_assert_msg(!has_control(err), "a control character printed raw:\n%s", err);
    static const char *const expect[] = {
        "\nc\\u001b[31m v1  " H1 "\n", "  all         m\\u001b[31m ", "  routes: r\\u009b2J 1\n",
        "  model errors by class: e\\u001b[31m 1\n", "  dialects: d\\u007f 1\n",
        "  problems by kind: k\\u009b 1\n", "  $.a\\u001b[31m  k\\u009b ",
        };
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++)
        ck_assert_msg(strstr(out, expect[i]) != NULL, "the table lacks\n%s\nin\n%s", expect[i], out);
    ck_assert_ptr_nonnull(strstr(err, "esc\\u001b[31m.log:2: bad line: not JSON"));
    free(out);
    free(err);

    /* --json: the same strings, escaped, read back exactly */
    char *jargv[] = {path, "--json"};
    ck_assert_int_eq(run_stats(2, jargv, &out, &err), 0);
    ck_assert_msg(!has_control(out), "a control character printed raw:\n%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\"d\\u007f\""));
    ck_assert_ptr_nonnull(strstr(out, "\"k\\u009b\""));
    cJSON *j = cJSON_Parse(out);
    ck_assert_ptr_nonnull(j);
    const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "contracts"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(c, "contract")->valuestring, "c\x1b[31m");
    const cJSON *p = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "problems"), 0);
    ck_assert_str_eq(cJSON_GetObjectItem(p, "path")->valuestring, "$.a\x1b[31m");
    ck_assert_str_eq(cJSON_GetObjectItem(p, "kind")->valuestring, "k\xc2\x9b");
    ck_assert_near(num(cJSON_GetObjectItem(c, "dialects"), "d\x7f"), 1);
    cJSON_Delete(j);
    free(out);
    free(err);
    remove(path);

    /* an unreadable log's name, and an unknown option, are shown escaped too */
    char *missing[] = {"/nonexistent/\x1b]0;title\x07.log"};
    ck_assert_int_eq(run_stats(1, missing, &out, &err), 2);
    ck_assert_msg(!has_control(err), "a control character printed raw:\n%s", err);
    ck_assert_ptr_nonnull(strstr(err, "cannot open /nonexistent/\\u001b]0;title\\u0007.log: "));
    free(out);
    free(err);
    char *option[] = {"--\x1b[2J"};
    ck_assert_int_eq(run_stats(1, option, &out, &err), 2);
    ck_assert_ptr_nonnull(strstr(err, "unknown option '--\\u001b[2J'"));
    free(out);
    free(err);
#undef ESC_
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
    tcase_add_test(t, a_log_of_an_earlier_release_reads_as_it_did_then);
    tcase_add_test(t, a_4000_problem_line_is_counted_once_per_reply);
    tcase_add_test(t, twenty_thousand_distinct_keys_are_each_counted);
    tcase_add_test(t, the_key_index_finds_every_key);
    tcase_add_test(t, a_version_that_is_not_a_positive_integer_is_a_bad_line);
    tcase_add_test(t, lines_the_writer_cannot_have_written_are_bad_lines);
    tcase_add_test(t, a_line_over_the_cap_is_a_bad_line);
    tcase_add_test(t, control_characters_from_the_log_are_printed_escaped);
    tcase_add_test(t, stopped_streams_are_counted_with_their_bytes);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    static const char *const names[] = {"good.log", "bad.log", "outcomes.log"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        remove(path);
    }
    rmdir(tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
