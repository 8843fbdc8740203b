/* SPDX-License-Identifier: MIT */
/*
 * test_log.c - the decision log `contractc-log/1`: the exact line for a
 * decision, no reply values in problems, the opt-in value, routes,
 * settings, escaping, time from the caller or the clock, and sinks that
 * fail (a failing function and a full device, /dev/full).
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "refund_request.h"

static const char email[] =
    "Hello,\nmy order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n";
static const char comma_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1.250,00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char good_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";

/* A model that answers from a list; "!error" fails, "!error429" fails as a
 * rate limit; "@REASON:" before a reply sets that finish_reason. */
typedef struct script {
    const char *const *replies;
    size_t calls;
} script_t;

static int scripted(void *user, const contractc_transcript_t *t, contractc_model_reply_t *reply)
{
    (void)t;
    script_t *s = user;
    const char *r = s->replies[s->calls++];
    if (strcmp(r, "!error") == 0) {
        snprintf(reply->error, sizeof reply->error, "connection refused by 127.0.0.1:9");
        return 1;
    }
    if (strcmp(r, "!error429") == 0) {
        snprintf(reply->error, sizeof reply->error, "HTTP 429");
        reply->error_class = CONTRACTC_ERROR_CLASS_HTTP_429;
        return 1;
    }
    const char *reason = "stop";
    size_t reason_len = 4;
    if (r[0] == '@') {
        reason = r + 1;
        reason_len = (size_t)(strchr(r, ':') - reason);
        r = strchr(r, ':') + 1;
    }
    reply->text = r;
    reply->len = strlen(r);
    snprintf(reply->finish_reason, sizeof reply->finish_reason, "%.*s", (int)reason_len, reason);
    return 0;
}

/* Runs the loop over `replies` and leaves the decision and record. */
static contractc_status_t decide(const char *const *replies, contractc_decision_t *d,
                                 refund_request_t *rec, size_t problem_cap)
{
    script_t s = {replies, 0};
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = scripted;
    loop.model_user = &s;
    loop.problem_cap = problem_cap;
    contractc_status_t st = contractc_loop_run(&loop, &t, email, strlen(email), rec, d);
    contractc_transcript_clear(&t);
    return st;
}

static char *format(const contractc_decision_t *d, const contractc_log_entry_t *e,
                    const void *record)
{
    char *line = NULL;
    size_t len = 0;
    ck_assert_int_eq(contractc_log_format(d, e, record, NULL, NULL, &line, &len), CONTRACTC_OK);
    ck_assert_uint_eq(strlen(line), len);
    ck_assert_int_eq(line[len - 1], '\n');
    ck_assert_ptr_null(memchr(line, '\n', len - 1)); /* exactly one line */
    cJSON *j = cJSON_ParseWithLength(line, len);
    ck_assert_msg(j != NULL, "not JSON: %s", line);
    cJSON_Delete(j);
    return line;
}

START_TEST(a_repaired_decision_is_logged_as_exactly_this_line)
{
    static const char *const replies[] = {comma_reply, good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    const contractc_setting_t settings[] = {{"temperature", "0", true}, {"seed", "42", true},
                                            {"prompt_variant", "b", false}};
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    e.record_id = "A-1063";
    e.dialect = "openai-strict";
    e.model = "scripted";
    e.settings = settings;
    e.setting_count = 3;
    char *line = format(&d, &e, &rec);
    char expect[2048];
    snprintf(expect, sizeof expect,
             "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:30:00Z\",\"record_id\":\"A-1063\","
             "\"contract\":\"refund_request\",\"version\":1,\"hash\":\"%s\",\"dialect\":\"openai-strict\","
             "\"model\":\"scripted\",\"settings\":{\"temperature\":0,\"seed\":42,\"prompt_variant\":\"b\"},"
             "\"attempts\":[{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":\"stop\","
             "\"problems\":[{\"path\":\"$.amount\",\"kind\":\"format\",\"rule\":null}]},"
             "{\"outcome\":\"accepted\",\"fenced\":false,\"finish_reason\":\"stop\",\"problems\":[]}],"
             "\"outcome\":\"accepted\"}\n",
             refund_request_contract_hash);
    ck_assert_str_eq(line, expect);
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(problems_carry_no_reply_values_and_the_value_is_opt_in)
{
    static const char *const replies[] = {comma_reply, good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = format(&d, &e, &rec);
    ck_assert_ptr_null(strstr(line, "1.250,00")); /* neither the bad value */
    ck_assert_ptr_null(strstr(line, "1250"));     /* nor the good one */
    ck_assert_ptr_null(strstr(line, "\"value\""));
    ck_assert_ptr_nonnull(strstr(line, "\"record_id\":null,"));
    ck_assert_ptr_nonnull(strstr(line, "\"settings\":{},"));
    free(line);
    e.include_value = true;
    line = format(&d, &e, &rec);
    ck_assert_ptr_nonnull(strstr(line, ",\"value\":{\"order_id\":\"A-1063\",\"amount\":\"1250.00\","
                                       "\"currency\":\"EUR\",\"amount_text\":\"1.250,00 EUR\","
                                       "\"reason\":\"damaged\"}}\n"));
    free(line);
    /* Opted in without the record: refused rather than silently dropped. */
    char *none = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, &none, NULL), CONTRACTC_EINVAL);
    ck_assert_ptr_null(none);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(a_route_is_written_when_the_caller_sets_one)
{
    static const char *const replies[] = {
        "{\"order_id\":\"A-1063\",\"amount\":null,\"currency\":null,\"amount_text\":null,"
        "\"reason\":\"damaged\"}"};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00.25+02:00";
    e.route = "person";
    char *line = format(&d, &e, &rec);
    ck_assert_ptr_nonnull(strstr(line, "\"outcome\":\"accepted\",\"route\":\"person\"}\n"));
    ck_assert_ptr_nonnull(strstr(line, "\"time\":\"2025-05-01T09:30:00.25+02:00\""));
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(escalated_and_failed_runs_log_every_attempt_with_model_errors)
{
    static const char *const escalated[] = {comma_reply, "!error", "nope"};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(escalated, &d, &rec, 0), CONTRACTC_REJECTED);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = format(&d, &e, NULL);
    ck_assert_ptr_nonnull(strstr(
        line, "{\"outcome\":\"model_error\",\"fenced\":false,\"finish_reason\":null,"
              "\"problems\":[],\"error\":\"connection refused by 127.0.0.1:9\"}"));
    ck_assert_ptr_nonnull(strstr(line, "{\"outcome\":\"rejected\",\"fenced\":false,\"finish_reason\":"
                                       "\"stop\",\"problems\":[{\"path\":\"$\",\"kind\":\"syntax\","
                                       "\"rule\":null}]}],\"outcome\":\"escalated\"}\n"));
    ck_assert_ptr_null(strstr(line, "nope"));
    free(line);
    e.include_value = true; /* nothing to include: not an error */
    line = format(&d, &e, NULL);
    ck_assert_ptr_null(strstr(line, "\"value\""));
    free(line);
    contractc_decision_free(&d);

    static const char *const failed[] = {"!error", "!error", "!error"};
    ck_assert_int_eq(decide(failed, &d, &rec, 0), CONTRACTC_REJECTED);
    e.include_value = false;
    line = format(&d, &e, NULL);
    ck_assert_ptr_nonnull(strstr(line, "],\"outcome\":\"failed\"}\n"));
    free(line);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(a_rule_problem_logs_its_rule_id_and_dropped_problems_are_counted)
{
    static const char *const replies[] = {
        ("{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":null,\"amount_text\":null,"
         "\"reason\":\"damaged\"}"),
        "{\"a\":1,\"b\":2,\"c\":3}", "x"};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 2), CONTRACTC_REJECTED);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = format(&d, &e, NULL);
    ck_assert_msg(strstr(line, "\"problems\":[{\"path\":\"$\",\"kind\":\"rule\",\"rule\":\"rules[0]\"}]") !=
                      NULL,
                  "%s", line);
    /* Cap 2: 3 unexpected + 5 missing keys give 2 kept and 6 dropped. */
    ck_assert_msg(strstr(line, ",\"dropped\":6}") != NULL, "%s", line);
    free(line);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(caller_strings_are_escaped_and_invalid_utf8_becomes_u_fffd)
{
    static const char *const replies[] = {good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    e.record_id = "a\"b\\c\nd\x01\xFF\xC3\xA9";
    char *line = format(&d, &e, &rec);
    /* the canonical form's escaping (the one escaper): \n as two characters */
    ck_assert_ptr_nonnull(strstr(line, "\"record_id\":\"a\\\"b\\\\c\\nd\\u0001\xEF\xBF\xBD\xC3\xA9\""));
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

/* Clocks. */
static bool fixed_clock(void *user, char *buf, size_t size)
{
    snprintf(buf, size, "%s", (const char *)user);
    return true;
}

static bool broken_clock(void *user, char *buf, size_t size)
{
    (void)user;
    (void)buf;
    (void)size;
    return false;
}

START_TEST(the_time_comes_from_the_caller_or_the_clock_and_must_be_rfc3339)
{
    static const char *const replies[] = {good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, fixed_clock, "2024-02-29T23:59:59Z", &line, NULL),
                     CONTRACTC_OK);
    ck_assert_ptr_nonnull(strstr(line, "\"time\":\"2024-02-29T23:59:59Z\""));
    free(line);
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, broken_clock, NULL, &line, NULL), CONTRACTC_EINVAL);
    ck_assert_ptr_null(line);
    /* The clock's text is checked like the caller's. */
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, fixed_clock, "yesterday", &line, NULL),
                     CONTRACTC_EINVAL);
    static const char *const bad[] = {"2025-05-01 09:30:00Z", "2025-05-01T09:30Z", "2025-13-01T09:30:00Z",
                                      "2025-05-01T09:30:00z", "2025-05-01T09:30:00+0200",
                                      "2025-05-01T09:30:00.Z", "2025-05-01T24:00:00Z", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e.time = bad[i];
        ck_assert_msg(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL) == CONTRACTC_EINVAL,
                      "accepted time \"%s\"", bad[i]);
    }
    /* The default clock: UTC, whole seconds. */
    char now[CONTRACTC_TIME_SIZE];
    if (contractc_clock_utc(NULL, now, sizeof now)) {
        ck_assert_uint_eq(strlen(now), 20);
        ck_assert_int_eq(now[10], 'T');
        ck_assert_int_eq(now[19], 'Z');
        e.time = NULL;
        ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL), CONTRACTC_OK);
        free(line);
    } else {
        fprintf(stderr, "SKIP: no POSIX gmtime_r here, so no default clock to check\n");
    }
    ck_assert(!contractc_clock_utc(NULL, now, 10)); /* too small a buffer */
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(settings_that_claim_to_be_numbers_must_be_json_numbers)
{
    static const char *const replies[] = {good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    static const char *const good[] = {"0", "-0.5", "1e-3", "12.50E+2"};
    static const char *const bad[] = {"", "01", ".5", "1.", "NaN", "1e", "0x10", "1 ", "+1"};
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    contractc_setting_t set = {"temperature", NULL, true};
    e.settings = &set;
    e.setting_count = 1;
    char *line = NULL;
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        set.value = good[i];
        line = format(&d, &e, &rec);
        free(line);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        set.value = bad[i];
        ck_assert_msg(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL) == CONTRACTC_EINVAL,
                      "accepted number \"%s\"", bad[i]);
    }
    set.value = "1 ";
    set.is_number = false; /* as a string it is fine */
    line = format(&d, &e, &rec);
    ck_assert_ptr_nonnull(strstr(line, "\"settings\":{\"temperature\":\"1 \"}"));
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

/* A sink that stores lines in memory, or fails on demand. */
typedef struct memsink {
    char buf[8192];
    size_t len;
    bool fail;
    int calls;
} memsink_t;

static int mem_sink(void *user, const char *line, size_t len)
{
    memsink_t *m = user;
    m->calls++;
    if (m->fail || m->len + len >= sizeof m->buf)
        return -1;
    memcpy(m->buf + m->len, line, len);
    m->len += len;
    m->buf[m->len] = '\0';
    return 0;
}

START_TEST(a_failing_sink_is_reported_and_the_decision_can_still_be_formatted)
{
    static const char *const replies[] = {good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    memsink_t m;
    memset(&m, 0, sizeof m);
    contractc_log_t log = {mem_sink, &m, fixed_clock, "2025-05-01T09:30:00Z"};
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.record_id = "A-1063";
    ck_assert_int_eq(contractc_log_write(&log, &d, &e, &rec), CONTRACTC_OK);
    ck_assert_int_eq(m.calls, 1);
    ck_assert_ptr_nonnull(strstr(m.buf, "\"time\":\"2025-05-01T09:30:00Z\",\"record_id\":\"A-1063\""));
    size_t first = m.len;
    m.fail = true;
    contractc_status_t st = contractc_log_write(&log, &d, &e, &rec);
    ck_assert_int_eq(st, CONTRACTC_ESINK);
    ck_assert_str_eq(contractc_status_name(st), "esink");
    ck_assert_uint_eq(m.len, first);
    /* The caller still holds the decision: the same line, for elsewhere. */
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, fixed_clock, "2025-05-01T09:30:00Z", &line, NULL),
                     CONTRACTC_OK);
    ck_assert_str_eq(line, m.buf);
    free(line);
    /* Bad arguments are not sink failures. */
    contractc_log_t no_sink = {NULL, NULL, NULL, NULL};
    ck_assert_int_eq(contractc_log_write(&no_sink, &d, &e, &rec), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_log_write(&log, NULL, &e, &rec), CONTRACTC_EINVAL);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(the_file_sink_reports_a_full_device)
{
    static const char *const replies[] = {good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(replies, &d, &rec, 0), CONTRACTC_OK);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    /* A working file first. */
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    contractc_log_t log = {contractc_log_file_sink, f, NULL, NULL};
    ck_assert_int_eq(contractc_log_write(&log, &d, &e, &rec), CONTRACTC_OK);
    ck_assert_int_eq(contractc_log_write(&log, &d, &e, &rec), CONTRACTC_OK);
    rewind(f);
    char buf[4096];
    int lines = 0;
    while (fgets(buf, sizeof buf, f))
        lines++;
    ck_assert_int_eq(lines, 2);
    fclose(f);
    /* /dev/full: every write fails with ENOSPC, as on a full file system. */
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        fprintf(stderr, "SKIP: /dev/full cannot be opened (%s): the full-device case is not run\n",
                strerror(errno));
    } else {
        log.sink_user = full;
        errno = 0;
        ck_assert_int_eq(contractc_log_write(&log, &d, &e, &rec), CONTRACTC_ESINK);
        ck_assert_int_eq(errno, ENOSPC);
        fclose(full);
    }
    ck_assert_int_ne(contractc_log_file_sink(NULL, "x\n", 2), 0);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}
END_TEST

/* The whole content of a stream opened for update, from its start. */
static size_t stream_content(FILE *f, char *buf, size_t size)
{
    ck_assert_int_eq(fflush(f), 0);
    rewind(f);
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = '\0';
    return n;
}

/* One failure does not spoil the stream: a file whose descriptor is
 * /dev/full for one write (ENOSPC, as on a full disk) and its own file
 * again after.  The failed line is reported failed; the retry and the next
 * line are reported stored and are in the file once each; the failed
 * attempt left nothing but the line break the retry starts with. */
START_TEST(the_file_sink_recovers_after_a_failure_and_a_retry_writes_once)
{
    int full = open("/dev/full", O_WRONLY);
    if (full < 0) {
        fprintf(stderr, "SKIP: /dev/full cannot be opened (%s)\n", strerror(errno));
        return;
    }
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    const int own = dup(fileno(f));
    ck_assert_int_ge(own, 0);
    ck_assert_int_eq(contractc_log_file_sink(f, "line0\n", 6), 0);
    ck_assert_int_ge(dup2(full, fileno(f)), 0);
    ck_assert_int_ne(contractc_log_file_sink(f, "line1\n", 6), 0);
    ck_assert_int_ne(contractc_log_file_sink(f, "line1\n", 6), 0); /* still full */
    ck_assert_int_ge(dup2(own, fileno(f)), 0);
    ck_assert_int_eq(contractc_log_file_sink(f, "line1\n", 6), 0); /* the retry */
    ck_assert_int_eq(contractc_log_file_sink(f, "line2\n", 6), 0);
    ck_assert_int_eq(contractc_log_file_sink(f, "line3\n", 6), 0);
    char buf[256];
    stream_content(f, buf, sizeof buf);
    ck_assert_str_eq(buf, "line0\n\nline1\nline2\nline3\n");
    fclose(f);
    close(own);
    close(full);
}
END_TEST

/* A failure in the middle of a line: a pipe that takes part of a line
 * longer than its buffer, then would block (EAGAIN).  The cut line stays
 * in the pipe; the next line, after the reader drained it, is stored and
 * on a line of its own, not glued to the cut one. */
START_TEST(a_line_cut_by_a_failure_is_not_glued_to_the_next)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_ge(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK), 0);
    ck_assert_int_ge(fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK), 0);
    FILE *w = fdopen(fds[1], "w");
    ck_assert_ptr_nonnull(w);
    const size_t big = (size_t)4 << 20; /* past any pipe buffer */
    char *line = malloc(big);
    ck_assert_ptr_nonnull(line);
    memset(line, 'a', big - 1);
    line[big - 1] = '\n';
    ck_assert_int_ne(contractc_log_file_sink(w, line, big), 0);
    /* What the failed call put through: a cut line, no line break. */
    size_t cut = 0;
    char chunk[65536];
    ssize_t got;
    while ((got = read(fds[0], chunk, sizeof chunk)) > 0) {
        ck_assert_ptr_null(memchr(chunk, '\n', (size_t)got));
        cut += (size_t)got;
    }
    ck_assert_uint_gt(cut, 0);
    ck_assert_uint_lt(cut, big);
    ck_assert_int_eq(contractc_log_file_sink(w, "line1\n", 6), 0);
    ck_assert_int_eq(contractc_log_file_sink(w, "line2\n", 6), 0);
    got = read(fds[0], chunk, sizeof chunk - 1);
    ck_assert_int_gt(got, 0);
    chunk[got] = '\0';
    ck_assert_str_eq(chunk, "\nline1\nline2\n");
    fclose(w);
    close(fds[0]);
    free(line);
}
END_TEST

/* The log's former status names still compile (deprecated, so the warning
 * is silenced here) and are the one status enum's values. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
START_TEST(the_former_log_status_names_are_the_status_values)
{
    ck_assert_int_eq(CONTRACTC_LOG_WRITTEN, CONTRACTC_OK);
    ck_assert_int_eq(CONTRACTC_LOG_SINK_FAILED, CONTRACTC_ESINK);
    ck_assert_int_eq(CONTRACTC_LOG_ENOMEM, CONTRACTC_ENOMEM);
    ck_assert_int_eq(CONTRACTC_LOG_EINVAL, CONTRACTC_EINVAL);
    contractc_log_status_t st = CONTRACTC_LOG_SINK_FAILED;
    ck_assert_str_eq(contractc_log_status_name(st), "sink_failed");
    ck_assert_str_eq(contractc_log_status_name(CONTRACTC_LOG_WRITTEN), "written");
    ck_assert_str_eq(contractc_log_status_name(CONTRACTC_REJECTED), "?");
    ck_assert_str_eq(contractc_status_name(CONTRACTC_ESINK), "esink");
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    ck_assert_ptr_null(contractc_problem_at(&problems, 0));
    contractc_problems_clear(&problems);
}
END_TEST
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

START_TEST(a_decision_without_an_outcome_is_not_logged)
{
    contractc_decision_t d;
    memset(&d, 0, sizeof d);
    d.contract = &refund_request_contract;
    char *line = NULL;
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, &line, NULL), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_log_format(NULL, &e, NULL, NULL, NULL, &line, NULL), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, NULL, NULL), CONTRACTC_EINVAL);
    ck_assert_str_eq(contractc_status_name((contractc_status_t)9), "?");
}
END_TEST

START_TEST(outcomes_that_are_not_wrong_answers_are_logged_with_additive_keys)
{
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char expect[2048];
#define HEAD "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:30:00Z\",\"record_id\":null," \
             "\"contract\":\"refund_request\",\"version\":1,\"hash\":\"%s\",\"dialect\":null," \
             "\"model\":null,\"settings\":{},\"attempts\":[%s],\"outcome\":\"%s\"}\n"

    /* A cut reply: truncated, its problems kept, no repair. */
    static const char *const cut[] = {"!error429", "@length:{\"order_id\":\"A-1", good_reply};
    contractc_decision_t d;
    refund_request_t rec;
    ck_assert_int_eq(decide(cut, &d, &rec, 0), CONTRACTC_REJECTED);
    char *line = format(&d, &e, NULL);
    snprintf(expect, sizeof expect, HEAD, refund_request_contract_hash,
             "{\"outcome\":\"model_error\",\"fenced\":false,\"finish_reason\":null,\"problems\":[],"
             "\"error\":\"HTTP 429\",\"error_class\":\"http_429\"},"
             "{\"outcome\":\"truncated\",\"fenced\":false,\"finish_reason\":\"length\","
             "\"problems\":[{\"path\":\"$\",\"kind\":\"syntax\",\"rule\":null}]}",
             "truncated");
    ck_assert_str_eq(line, expect);
    free(line);
    contractc_decision_free(&d);

    /* An accepted reply the provider marked cut is flagged. */
    static const char *const flagged[] = {"@max_tokens:" "{\"order_id\":\"A-1063\",\"amount\":null,"
                                          "\"currency\":null,\"amount_text\":null,\"reason\":\"other\"}"};
    ck_assert_int_eq(decide(flagged, &d, &rec, 0), CONTRACTC_OK);
    line = format(&d, &e, &rec);
    snprintf(expect, sizeof expect, HEAD, refund_request_contract_hash,
             "{\"outcome\":\"accepted\",\"fenced\":false,\"finish_reason\":\"max_tokens\","
             "\"problems\":[],\"truncated\":true}",
             "accepted");
    ck_assert_str_eq(line, expect);
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);

    /* A refusal: its words only when the caller opts in to values. */
    static const char *const refused[] = {"@refusal:I won't do \"that\"."};
    ck_assert_int_eq(decide(refused, &d, &rec, 0), CONTRACTC_REJECTED);
    line = format(&d, &e, NULL);
    snprintf(expect, sizeof expect, HEAD, refund_request_contract_hash,
             "{\"outcome\":\"refused\",\"fenced\":false,\"finish_reason\":\"refusal\",\"problems\":[]}",
             "refused");
    ck_assert_str_eq(line, expect);
    free(line);
    e.include_value = true;
    line = format(&d, &e, NULL);
    ck_assert_ptr_nonnull(strstr(line, ",\"refusal\":\"I won't do \\\"that\\\".\"}"));
    free(line);
    e.include_value = false;
    contractc_decision_free(&d);

    static const char *const filtered[] = {"@content_filter:{\"order_id\":"};
    ck_assert_int_eq(decide(filtered, &d, &rec, 0), CONTRACTC_REJECTED);
    line = format(&d, &e, NULL);
    snprintf(expect, sizeof expect, HEAD, refund_request_contract_hash,
             "{\"outcome\":\"filtered\",\"fenced\":false,\"finish_reason\":\"content_filter\","
             "\"problems\":[]}",
             "filtered");
    ck_assert_str_eq(line, expect);
    free(line);
    contractc_decision_free(&d);
#undef HEAD
}
END_TEST

int main(void)
{
    Suite *s = suite_create("log");
    TCase *t = tcase_create("log");
    tcase_add_test(t, a_repaired_decision_is_logged_as_exactly_this_line);
    tcase_add_test(t, problems_carry_no_reply_values_and_the_value_is_opt_in);
    tcase_add_test(t, a_route_is_written_when_the_caller_sets_one);
    tcase_add_test(t, escalated_and_failed_runs_log_every_attempt_with_model_errors);
    tcase_add_test(t, a_rule_problem_logs_its_rule_id_and_dropped_problems_are_counted);
    tcase_add_test(t, caller_strings_are_escaped_and_invalid_utf8_becomes_u_fffd);
    tcase_add_test(t, the_time_comes_from_the_caller_or_the_clock_and_must_be_rfc3339);
    tcase_add_test(t, settings_that_claim_to_be_numbers_must_be_json_numbers);
    tcase_add_test(t, a_failing_sink_is_reported_and_the_decision_can_still_be_formatted);
    tcase_add_test(t, the_file_sink_reports_a_full_device);
    tcase_add_test(t, the_file_sink_recovers_after_a_failure_and_a_retry_writes_once);
    tcase_add_test(t, a_line_cut_by_a_failure_is_not_glued_to_the_next);
    tcase_add_test(t, a_decision_without_an_outcome_is_not_logged);
    tcase_add_test(t, the_former_log_status_names_are_the_status_values);
    tcase_add_test(t, outcomes_that_are_not_wrong_answers_are_logged_with_additive_keys);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
