/* SPDX-License-Identifier: MIT */
/*
 * test_client.c - the chat client against a real HTTP server on loopback
 * (tests/support/replay_server.py: recorded responses, recorded requests, their
 * arrival times).  What went over the wire: the path, the key only in its
 * header, the contract's openai-strict schema as response_format, and on the
 * repair request the rejected reply at -2 and the complaint at -1; the
 * Anthropic Messages shape; the request options.  Every failure as a model
 * error with a clear message, its error class and no key (a raw NUL byte
 * included); the key echoed by the server scrubbed from errors, finish
 * reasons, refusals and the log; the retries (429 with Retry-After, 500 then
 * success, 401 and insufficient_quota once, a slow body past the deadline)
 * with their timings; a refusal, a content-filter stop and a cut reply
 * ending the loop without a repair; streaming (a paced recorded event
 * stream of a doomed reply cut at its first dead byte, the server
 * recording when it saw the close; Anthropic's text deltas; a server that
 * answers whole; a stream that breaks off).
 *
 * Needs python3 (installed by scripts/install-deps.sh); without it the test
 * exits 77, which ctest reports as skipped.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "chat_client.h"
#include "refund_request.h"

#define KEY_VAR "CONTRACTC_TEST_API_KEY"
#define KEY "sk-test-4f9c2b7e1a0d-SECRET"

static char tmpdir[] = "/tmp/contractc-test-client-XXXXXX";
static char *schema_text;     /* the schema the client sends */
static size_t schema_len;
static char schema_file[128]; /* its file name, for messages */

static const char email[] =
    "Hello,\nmy order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n";
static const char comma_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1.250,00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";
static const char good_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        if (len)
            *len = (size_t)n;
    }
    return buf;
}

static void write_all(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Runs argv, stdout and stderr to /dev/null; returns the exit status. */
static int run(char *const argv[])
{
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The schema to send: the openai-strict dialect written by
 * `contractc generate --schema-dialect openai-strict`; the portable schema
 * (loudly) when this build's generator refuses the dialect. */
static void load_schema(void)
{
    char out[128], path[512];
    snprintf(out, sizeof out, "%s/generated", tmpdir);
    if (mkdir(out, 0700) != 0) {
        perror(out);
        exit(EXIT_FAILURE);
    }
    char *argv[] = {CONTRACTC_EXE, "generate", CONTRACTC_TEST_DATA "/contracts/refund_request.contract.yaml",
                    "-o", out, "--schema-dialect", "openai-strict", NULL};
    int rc = run(argv);
    snprintf(schema_file, sizeof schema_file, "refund_request.openai-strict.schema.json");
    snprintf(path, sizeof path, "%s/%s", out, schema_file);
    schema_text = read_all(path, &schema_len);
    if (!schema_text) {
        fprintf(stderr, "NOTE: contractc generate --schema-dialect openai-strict exited %d and wrote no "
                        "%s; the client is tested with the portable refund_request.schema.json instead\n",
                rc, schema_file);
        snprintf(schema_file, sizeof schema_file, "refund_request.schema.json");
        snprintf(path, sizeof path, "%s/%s", out, schema_file);
        schema_text = read_all(path, &schema_len);
    }
    if (!schema_text) {
        fprintf(stderr, "cannot generate the test contract's schema\n");
        exit(EXIT_FAILURE);
    }
    printf("client: sending %s (%zu bytes)\n", schema_file, schema_len);
}

/* ---- the replay server ------------------------------------------------------ */
typedef struct server {
    pid_t pid;
    int port;
    char record[320];
} server_t;

static int server_count;

static server_t start_server(const char *script_json)
{
    server_t s;
    memset(&s, 0, sizeof s);
    char script[320], port_file[320];
    /* Each test may run in its own forked process: the pid keeps the
     * names apart. */
    int n = server_count++;
    long pid = (long)getpid();
    snprintf(script, sizeof script, "%s/script%ld-%d.json", tmpdir, pid, n);
    snprintf(port_file, sizeof port_file, "%s/port%ld-%d", tmpdir, pid, n);
    snprintf(s.record, sizeof s.record, "%s/requests%ld-%d.jsonl", tmpdir, pid, n);
    write_all(script, script_json);
    s.pid = fork();
    if (s.pid == 0) {
        /* A failed assertion ends the test before stop_server: the server
         * goes with it instead of holding the runner's pipe open. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        execl(CONTRACTC_PYTHON, CONTRACTC_PYTHON, CONTRACTC_SOURCE_DIR "/tests/support/replay_server.py",
              "--script", script, "--record", s.record, "--port-file", port_file, (char *)NULL);
        _exit(127);
    }
    ck_assert_int_gt(s.pid, 0);
    for (int i = 0; i < 1000 && s.port == 0; i++) { /* up to 10 s to start */
        char *text = read_all(port_file, NULL);
        if (text) {
            s.port = atoi(text);
            free(text);
        } else {
            struct timespec ts = {0, 10 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    ck_assert_msg(s.port > 0, "the replay server did not start");
    return s;
}

static void stop_server(server_t *s)
{
    kill(s->pid, SIGTERM);
    waitpid(s->pid, NULL, 0);
}

/* The recorded requests, as a JSON array (free with cJSON_Delete). */
static cJSON *requests(const server_t *s)
{
    cJSON *all = cJSON_CreateArray();
    char *text = read_all(s->record, NULL);
    if (!text)
        return all;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(line);
        ck_assert_ptr_nonnull(j);
        cJSON_AddItemToArray(all, j);
    }
    free(text);
    return all;
}

/* A chat completion response with `content` (JSON-escaped here). */
static char *completion(const char *content, const char *finish)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "id", "chatcmpl-replay");
    cJSON_AddStringToObject(root, "object", "chat.completion");
    cJSON *choices = cJSON_AddArrayToObject(root, "choices");
    cJSON *choice = cJSON_CreateObject();
    cJSON_AddItemToArray(choices, choice);
    cJSON_AddNumberToObject(choice, "index", 0);
    cJSON *message = cJSON_AddObjectToObject(choice, "message");
    cJSON_AddStringToObject(message, "role", "assistant");
    cJSON_AddStringToObject(message, "content", content);
    cJSON_AddNullToObject(message, "refusal");
    cJSON_AddStringToObject(choice, "finish_reason", finish);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* text as a JSON string literal (malloc'd). */
static char *as_json_text(const char *text)
{
    cJSON *str = cJSON_CreateString(text);
    char *out = cJSON_PrintUnformatted(str);
    cJSON_Delete(str);
    return out;
}

static char url_buf[64];

/* The test configuration for server s, without retries (max_attempts 1):
 * the retry tests set their own. */
static contractc_chat_config_t config_for(const server_t *s, long timeout_ms, size_t max_response)
{
    snprintf(url_buf, sizeof url_buf, "http://127.0.0.1:%d/v1", s ? s->port : 9);
    contractc_chat_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.base_url = url_buf;
    cfg.model = "replay-model";
    cfg.api_key_env = KEY_VAR;
    cfg.schema_name = "refund_request";
    cfg.schema = schema_text;
    cfg.schema_len = schema_len;
    cfg.temperature = "0";
    cfg.seed = "7";
    cfg.timeout_ms = timeout_ms;
    cfg.max_response_bytes = max_response;
    cfg.max_attempts = 1;
    return cfg;
}

static contractc_chat_client_t *client_with(const contractc_chat_config_t *cfg)
{
    char why[256];
    contractc_chat_client_t *c = contractc_chat_client_new(cfg, why, sizeof why);
    ck_assert_msg(c != NULL, "%s", why);
    return c;
}

static contractc_chat_client_t *client_for(const server_t *s, long timeout_ms, size_t max_response)
{
    contractc_chat_config_t cfg = config_for(s, timeout_ms, max_response);
    return client_with(&cfg);
}

static const char *str_at(const cJSON *o, const char *path1, const char *path2)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, path1);
    if (path2)
        v = cJSON_GetObjectItemCaseSensitive(v, path2);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

START_TEST(the_loop_over_loopback_sends_the_schema_and_the_rejected_reply_above_the_complaint)
{
    char script[4096];
    char *r1 = completion(comma_reply, "stop"), *r2 = completion(good_reply, "stop");
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s},{\"status\":200,\"json\":%s}]", r1, r2);
    free(r1);
    free(r2);
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, 10000, 0);

    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_int_eq(rec.amount, 125000);
    ck_assert_int_eq(contractc_chat_last_status(client), 200);
    ck_assert_uint_eq(d.attempt_count, 2);
    ck_assert_str_eq(d.attempts[0].finish_reason, "stop");

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    cJSON *schema_sent = cJSON_Parse(schema_text);
    for (int i = 0; i < 2; i++) {
        const cJSON *req = cJSON_GetArrayItem(reqs, i);
        ck_assert_str_eq(str_at(req, "path", NULL), "/v1/chat/completions");
        ck_assert_str_eq(str_at(req, "headers", "authorization"), "Bearer " KEY);
        ck_assert_str_eq(str_at(req, "headers", "content-type"), "application/json");
        const cJSON *body = cJSON_GetObjectItem(req, "body");
        ck_assert_str_eq(str_at(body, "model", NULL), "replay-model");
        ck_assert_double_eq(cJSON_GetObjectItem(body, "temperature")->valuedouble, 0);
        ck_assert_int_eq(cJSON_GetObjectItem(body, "seed")->valueint, 7);
        const cJSON *format = cJSON_GetObjectItem(body, "response_format");
        ck_assert_str_eq(str_at(format, "type", NULL), "json_schema");
        const cJSON *js = cJSON_GetObjectItem(format, "json_schema");
        ck_assert_str_eq(str_at(js, "name", NULL), "refund_request");
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(js, "strict")));
        ck_assert_msg(cJSON_Compare(cJSON_GetObjectItem(js, "schema"), schema_sent, true),
                      "the schema sent is not %s", schema_file);
        /* The key travels only in the header. */
        char *printed = cJSON_PrintUnformatted(body);
        ck_assert_ptr_null(strstr(printed, "SECRET"));
        free(printed);
    }
    /* First request: the prompt and the email, nothing else. */
    const cJSON *m1 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, 0), "body"), "messages");
    ck_assert_int_eq(cJSON_GetArraySize(m1), 1);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m1, 0), "role", NULL), "user");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m1, 0), "content", NULL), contractc_transcript_at(&t, 0)->text);
    /* Second request: the rejected reply at -2, the complaint at -1. */
    const cJSON *m2 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, 1), "body"), "messages");
    int n = cJSON_GetArraySize(m2);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m2, n - 2), "role", NULL), "assistant");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m2, n - 2), "content", NULL), comma_reply);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m2, n - 1), "role", NULL), "user");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m2, n - 1), "content", NULL),
                     "Your reply was rejected. Fix every problem and reply with the corrected JSON object only:\n"
                     "- $.amount: \"1.250,00\" is not a decimal like \"1250.00\" (dot, two decimals, no "
                     "separators)\n");
    char *shown = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(m2, n - 2), "content"));
    printf("client: request 2 has %d messages; messages[-2] is the assistant's %s\n", n, shown);
    free(shown);

    /* The decision log of this run holds no key. */
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    e.model = "replay-model";
    e.dialect = "openai-strict";
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL), CONTRACTC_OK);
    ck_assert_ptr_null(strstr(line, "SECRET"));
    free(line);

    cJSON_Delete(schema_sent);
    cJSON_Delete(reqs);
    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* ---- streaming (docs/client.md, "Streaming") --------------------------------- */

/* A recorded event stream of `reply` as an OpenAI-compatible server sends
 * it: a role chunk, `piece` bytes of content per chunk, a finish chunk and
 * [DONE]; as the replay script's "events" array (a cJSON array). */
static cJSON *chunk_events(const char *reply, size_t piece)
{
    cJSON *events = cJSON_CreateArray();
    cJSON_AddItemToArray(events, cJSON_CreateString(
        "{\"id\":\"chatcmpl-s\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}"));
    size_t len = strlen(reply);
    for (size_t i = 0; i < len; i += piece) {
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)(len - i < piece ? len - i : piece), reply + i);
        cJSON *chunk = cJSON_CreateObject();
        cJSON_AddStringToObject(chunk, "id", "chatcmpl-s");
        cJSON_AddStringToObject(chunk, "object", "chat.completion.chunk");
        cJSON *choice = cJSON_CreateObject();
        cJSON_AddItemToArray(cJSON_AddArrayToObject(chunk, "choices"), choice);
        cJSON_AddNumberToObject(choice, "index", 0);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(choice, "delta"), "content", text);
        cJSON_AddNullToObject(choice, "finish_reason");
        char *printed = cJSON_PrintUnformatted(chunk);
        cJSON_AddItemToArray(events, cJSON_CreateString(printed));
        free(printed);
        cJSON_Delete(chunk);
    }
    cJSON_AddItemToArray(events, cJSON_CreateString(
        "{\"id\":\"chatcmpl-s\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
        "\"delta\":{},\"finish_reason\":\"stop\"}]}"));
    cJSON_AddItemToArray(events, cJSON_CreateString("[DONE]"));
    return events;
}

/* The server's record of step n's event stream (waits for it: the server
 * writes it once it saw the close, or sent everything). */
static cJSON *stream_record(const server_t *s, int n)
{
    for (int tries = 0; tries < 300; tries++) { /* up to 3 s */
        cJSON *reqs = requests(s);
        const cJSON *r;
        cJSON_ArrayForEach(r, reqs) {
            const cJSON *st = cJSON_GetObjectItem(r, "stream");
            if (st && cJSON_GetObjectItem(r, "n")->valueint == n) {
                cJSON *copy = cJSON_Duplicate(st, true);
                cJSON_Delete(reqs);
                return copy;
            }
        }
        cJSON_Delete(reqs);
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    ck_abort_msg("the replay server recorded no stream for request %d", n);
    return NULL;
}

START_TEST(a_streamed_doomed_reply_is_cut_at_its_first_dead_byte_and_repaired)
{
    /* The doomed reply paced as a model streams (4 bytes a chunk, one
     * chunk every 10 ms), then the corrected one. */
    cJSON *script = cJSON_CreateArray();
    cJSON *step1 = cJSON_CreateObject(), *step2 = cJSON_CreateObject();
    cJSON_AddItemToObject(step1, "events", chunk_events(comma_reply, 4));
    cJSON_AddNumberToObject(step1, "pace", 0.01);
    cJSON_AddItemToObject(step2, "events", chunk_events(good_reply, 4));
    cJSON_AddItemToArray(script, step1);
    cJSON_AddItemToArray(script, step2);
    char *script_text = cJSON_PrintUnformatted(script);
    cJSON_Delete(script);
    server_t s = start_server(script_text);
    free(script_text);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.stream = true;
    contractc_chat_client_t *client = client_with(&cfg);

    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    loop.stream = true;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_int_eq(rec.amount, 125000);
    ck_assert_uint_eq(d.attempt_count, 2);

    /* Attempt 1: dead at the amount's closing quote, stopped in the chunk
     * of 4 bytes that held it. */
    const size_t len = strlen(comma_reply);
    const size_t dead = (size_t)(strstr(comma_reply, "1.250,00\"") - comma_reply) + 8;
    const size_t received = (dead / 4 + 1) * 4;
    ck_assert(d.attempts[0].stopped);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_REJECTED);
    ck_assert_uint_eq(d.attempts[0].stopped_at, dead);
    ck_assert_uint_eq(d.attempts[0].received, received);
    ck_assert_uint_eq(d.attempts[0].problem_count, 1);
    ck_assert_str_eq(d.attempts[0].problems[0].path, "$.amount");
    ck_assert(!d.attempts[1].stopped);
    ck_assert_str_eq(d.attempts[1].finish_reason, "stop");

    /* The server saw the close: it sent the role chunk and the content
     * chunks up to the dead one, and at most one more (the close is looked
     * for before each event, every 10 ms), never the rest. */
    cJSON *st = stream_record(&s, 0);
    const int sent = cJSON_GetObjectItem(st, "events_sent")->valueint;
    const int total = cJSON_GetObjectItem(st, "events_total")->valueint;
    const int sent_bytes = cJSON_GetObjectItem(st, "bytes_sent")->valueint;
    const int total_bytes = cJSON_GetObjectItem(st, "bytes_total")->valueint;
    const int needed = 1 + (int)(received / 4);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(st, "closed_early")));
    ck_assert_int_ge(sent, needed);
    ck_assert_int_le(sent, needed + 1);
    ck_assert_int_eq(total, 1 + (int)((len + 3) / 4) + 2);
    printf("client stream: dead at byte %zu of the %zu-byte reply, %zu bytes received; the server "
           "sent %d of %d events (%d of %d bytes) before it saw the close\n",
           dead, len, received, sent, total, sent_bytes, total_bytes);
    cJSON_Delete(st);
    st = stream_record(&s, 1);
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(st, "closed_early")));
    cJSON_Delete(st);

    /* The requests asked for a stream; the repair shows the bytes read,
     * the marker, and the complaint. */
    cJSON *reqs = requests(&s);
    int posts = 0;
    const cJSON *req;
    cJSON_ArrayForEach(req, reqs) {
        const cJSON *body = cJSON_GetObjectItem(req, "body");
        if (!body)
            continue; /* a stream record */
        posts++;
        ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(body, "stream")));
        if (posts == 2) {
            const cJSON *m = cJSON_GetObjectItem(body, "messages");
            int n = cJSON_GetArraySize(m);
            char echo[256];
            snprintf(echo, sizeof echo, "%.*s\n[... reply stopped here]", (int)received, comma_reply);
            ck_assert_str_eq(str_at(cJSON_GetArrayItem(m, n - 2), "content", NULL), echo);
            ck_assert_str_eq(str_at(cJSON_GetArrayItem(m, n - 1), "content", NULL),
                             "Your reply was rejected. Fix every problem and reply with the corrected "
                             "JSON object only:\n- $.amount: \"1.250,00\" is not a decimal like "
                             "\"1250.00\" (dot, two decimals, no separators)\n");
        }
    }
    ck_assert_int_eq(posts, 2);
    cJSON_Delete(reqs);

    /* The log keeps where it was dead and how much was read. */
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2026-12-07T09:30:00Z";
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL), CONTRACTC_OK);
    char want[64];
    snprintf(want, sizeof want, "\"stopped_at\":%zu,\"received\":%zu", dead, received);
    ck_assert_msg(strstr(line, want) != NULL, "%s", line);
    free(line);

    refund_request_free(&rec);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* Anthropic Messages streams text deltas: the request asks for a stream
 * and the doomed reply is stopped at the delta that kills it; the config
 * with tools is refused. */
START_TEST(anthropic_streams_text_deltas_and_stops_when_dead)
{
    cJSON *events = cJSON_CreateArray();
    cJSON_AddItemToArray(events, cJSON_CreateString(
        "{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"role\":\"assistant\"}}"));
    cJSON_AddItemToArray(events, cJSON_CreateString(
        "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}"));
    const size_t len = strlen(comma_reply);
    for (size_t i = 0; i < len; i += 6) {
        char piece[8];
        snprintf(piece, sizeof piece, "%.6s", comma_reply + i);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "type", "content_block_delta");
        cJSON_AddNumberToObject(e, "index", 0);
        cJSON *delta = cJSON_AddObjectToObject(e, "delta");
        cJSON_AddStringToObject(delta, "type", "text_delta");
        cJSON_AddStringToObject(delta, "text", piece);
        char *printed = cJSON_PrintUnformatted(e);
        cJSON_AddItemToArray(events, cJSON_CreateString(printed));
        free(printed);
        cJSON_Delete(e);
    }
    cJSON_AddItemToArray(events, cJSON_CreateString(
        "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"}}"));
    cJSON_AddItemToArray(events, cJSON_CreateString("{\"type\":\"message_stop\"}"));
    cJSON *script = cJSON_CreateArray();
    cJSON *step = cJSON_CreateObject();
    cJSON_AddItemToObject(step, "events", events);
    cJSON_AddNumberToObject(step, "pace", 0.005);
    cJSON_AddItemToArray(script, step);
    char *script_text = cJSON_PrintUnformatted(script);
    cJSON_Delete(script);
    server_t s = start_server(script_text);
    free(script_text);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.provider = CONTRACTC_CHAT_ANTHROPIC;
    cfg.schema = NULL;
    cfg.schema_name = NULL;
    cfg.stream = true;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    contractc_stream_t *parser = refund_request_stream_new(email, strlen(email));
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    reply.stream = parser;
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    const size_t dead = (size_t)(strstr(comma_reply, "1.250,00\"") - comma_reply) + 8;
    ck_assert(reply.stopped);
    ck_assert_uint_eq(contractc_stream_dead_at(parser), dead);
    ck_assert_uint_eq(reply.len, (dead / 6 + 1) * 6);
    ck_assert_int_eq(memcmp(reply.text, comma_reply, reply.len), 0);
    cJSON *st = stream_record(&s, 0);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(st, "closed_early")));
    ck_assert_int_lt(cJSON_GetObjectItem(st, "events_sent")->valueint,
                     cJSON_GetObjectItem(st, "events_total")->valueint);
    cJSON_Delete(st);
    cJSON *reqs = requests(&s);
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, 0),
                                                                   "body"), "stream")));
    cJSON_Delete(reqs);
    contractc_stream_free(parser);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);

    /* stream with tools: refused, saying why */
    const contractc_chat_tool_t tool = {"{\"name\":\"x\",\"input_schema\":{\"type\":\"object\"}}", 45};
    cfg.tools = &tool;
    cfg.tool_count = 1;
    char why[256];
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "stream and tools together are not supported: a streamed tool call's "
                          "argument deltas are not read");
}
END_TEST

/* A server that ignores "stream" and answers with one JSON response is
 * read whole; a stream that breaks off before [DONE] is a network error,
 * not retried once its text reached the loop's stream. */
START_TEST(a_stream_request_answered_whole_or_broken_off)
{
    char script[4096];
    char *r1 = completion(good_reply, "stop");
    cJSON *broken = chunk_events(good_reply, 16);
    /* drop the finish chunk and [DONE]: the stream just ends */
    cJSON_DeleteItemFromArray(broken, cJSON_GetArraySize(broken) - 1);
    cJSON_DeleteItemFromArray(broken, cJSON_GetArraySize(broken) - 1);
    char *b = cJSON_PrintUnformatted(broken);
    cJSON_Delete(broken);
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s},{\"events\":%s}]", r1, b);
    free(r1);
    free(b);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.stream = true;
    cfg.max_attempts = 3;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_stream_t *parser = refund_request_stream_new(email, strlen(email));
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    reply.stream = parser;
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_uint_eq(reply.len, strlen(good_reply));
    ck_assert_int_eq(memcmp(reply.text, good_reply, reply.len), 0);
    ck_assert(!reply.stopped);
    contractc_stream_free(parser);

    parser = refund_request_stream_new(email, strlen(email));
    memset(&reply, 0, sizeof reply);
    reply.stream = parser;
    ck_assert_int_ne(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_int_eq(reply.error_class, CONTRACTC_ERROR_CLASS_NETWORK);
    ck_assert_msg(strncmp(reply.error, "the event stream ended before its end ([DONE]) after ", 53) == 0,
                  "%s", reply.error);
    ck_assert_uint_eq(contractc_chat_last_attempts(client), 1);
    contractc_stream_free(parser);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* ---- failures: one row per response ---------------------------------------- */
typedef struct failure_row {
    const char *name;
    const char *step;      /* the script entry */
    long timeout_ms;
    size_t max_response;
    const char *error;     /* the start (or a fragment) of the message */
    long status;
    contractc_error_class_t error_class;
} failure_row_t;

static const failure_row_t failures[] = {
    {"HTTP 500 with an error message", "{\"status\":500,\"json\":{\"error\":{\"message\":\"the server exploded\"}}}",
     10000, 0, "HTTP 500 from the endpoint: the server exploded", 500, CONTRACTC_ERROR_CLASS_HTTP_5XX},
    {"HTTP 401 whose message quotes the key",
     "{\"status\":401,\"json\":{\"error\":{\"message\":\"Incorrect API key provided: " KEY ".\"}}}", 10000, 0,
     "HTTP 401 from the endpoint: Incorrect API key provided: [API key].", 401, CONTRACTC_ERROR_CLASS_AUTH},
    {"HTTP 429 without a JSON body", "{\"status\":429,\"text\":\"slow down\"}", 10000, 0,
     "HTTP 429 from the endpoint (no error message)", 429, CONTRACTC_ERROR_CLASS_HTTP_429},
    {"a body that is not JSON", "{\"status\":200,\"text\":\"<html>hello</html>\"}", 10000, 0,
     "malformed response: the body (18 bytes) is not JSON", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"no choices", "{\"status\":200,\"json\":{\"choices\":[]}}", 10000, 0,
     "malformed response: no choices[0].message", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"content that is not a string",
     "{\"status\":200,\"json\":{\"choices\":[{\"message\":{\"content\":42},\"finish_reason\":\"stop\"}]}}", 10000,
     0, "malformed response: choices[0].message.content is not a string", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"content null without a refusal or a filter",
     "{\"status\":200,\"json\":{\"choices\":[{\"message\":{\"content\":null,\"refusal\":null},"
     "\"finish_reason\":\"stop\"}]}}",
     10000, 0, "malformed response: choices[0].message.content is not a string", 200,
     CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"U+0000 in the reply text",
     "{\"status\":200,\"json\":{\"choices\":[{\"message\":{\"content\":\"{}\\u0000garbage\"},\"finish_reason\":\"stop\"}]}}",
     10000, 0, "the response holds U+0000 in a string", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"a raw NUL byte in the reply text",
     "{\"status\":200,\"raw\":\"{\\\"choices\\\":[{\\\"message\\\":{\\\"content\\\":\\\"{}\\u0000garbage\\\"},"
     "\\\"finish_reason\\\":\\\"stop\\\"}]}\"}",
     10000, 0, "malformed response: a NUL byte at offset 37 of the body (73 bytes)", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"a raw NUL byte in an error text",
     "{\"status\":400,\"raw\":\"{\\\"error\\\":{\\\"message\\\":\\\"bad\\u0000" KEY "\\\"}}\"}",
     10000, 0, "HTTP 400 from the endpoint: bad", 400, CONTRACTC_ERROR_CLASS_BAD_REQUEST},
    {"a response over the cap", "{\"status\":200,\"bytes\":100000}", 10000, 4096,
     "the response is over 4096 bytes", 200, CONTRACTC_ERROR_CLASS_MALFORMED_RESPONSE},
    {"a server slower than the time-out", "{\"delay\":3,\"status\":200,\"json\":{}}", 300, 0,
     "no complete response from http://127.0.0.1:", 0, CONTRACTC_ERROR_CLASS_TIMEOUT},
};

START_TEST(every_failure_is_a_model_error_with_a_clear_message_and_no_key)
{
    const failure_row_t *row = &failures[_i];
    char script[1024];
    snprintf(script, sizeof script, "[%s]", row->step);
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, row->timeout_ms, row->max_response);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    int rc = contractc_chat_model(client, &t, &reply);
    ck_assert_msg(rc != 0, "%s: accepted as a reply", row->name);
    ck_assert_msg(strstr(reply.error, row->error) != NULL, "%s: error \"%s\", wanted \"%s\"", row->name,
                  reply.error, row->error);
    ck_assert_msg(strstr(reply.error, "SECRET") == NULL, "%s: the key is in \"%s\"", row->name, reply.error);
    ck_assert_int_eq(contractc_chat_last_status(client), row->status);
    ck_assert_msg(reply.error_class == row->error_class, "%s: error class %s", row->name,
                  contractc_error_class_name(reply.error_class));
    printf("client: %-36s -> [%s] %s\n", row->name, contractc_error_class_name(reply.error_class), reply.error);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

START_TEST(a_refused_connection_is_a_model_error)
{
    /* A port that was free a moment ago: bind, read it, close. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    getsockname(fd, (struct sockaddr *)&a, &len);
    close(fd);
    server_t fake;
    memset(&fake, 0, sizeof fake);
    fake.port = ntohs(a.sin_port);
    contractc_chat_client_t *client = client_for(&fake, 2000, 0);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    ck_assert_int_ne(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_msg(strncmp(reply.error, "cannot reach http://127.0.0.1:", 30) == 0, "%s", reply.error);
    ck_assert_int_eq(reply.error_class, CONTRACTC_ERROR_CLASS_NETWORK);
    printf("client: %-36s -> [%s] %s\n", "a refused connection", contractc_error_class_name(reply.error_class),
           reply.error);
    contractc_chat_client_free(client);
    /* A network error is retried: three tries, 10 to 20 ms apart. */
    contractc_chat_config_t cfg = config_for(&fake, 2000, 0);
    cfg.max_attempts = 3;
    cfg.retry_base_ms = 10;
    cfg.retry_cap_ms = 20;
    client = client_with(&cfg);
    memset(&reply, 0, sizeof reply);
    ck_assert_int_ne(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_uint_eq(contractc_chat_last_attempts(client), 3);
    ck_assert_int_eq(reply.error_class, CONTRACTC_ERROR_CLASS_NETWORK);
    ck_assert_msg(strstr(reply.error, "(after 3 tries)") != NULL, "%s", reply.error);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
}
END_TEST

START_TEST(a_reply_cut_by_the_token_limit_ends_truncated_without_a_repair)
{
    char script[2048];
    char *r1 = completion("{\"order_id\":\"A-1063\",\"amount\":\"12", "length");
    char *r2 = completion(good_reply, "stop");
    snprintf(script, sizeof script,
             "[{\"status\":503,\"json\":{\"error\":{\"message\":\"overloaded\"}}},{\"status\":200,\"json\":%s},"
             "{\"status\":200,\"json\":%s}]",
             r1, r2);
    free(r1);
    free(r2);
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, 10000, 0);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt, refund_request_prompt_len,
                               email, strlen(email));
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_REJECTED);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_TRUNCATED);
    ck_assert_uint_eq(d.attempt_count, 2);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_str_eq(d.attempts[0].error, "HTTP 503 from the endpoint: overloaded");
    ck_assert_int_eq(d.attempts[1].outcome, CONTRACTC_ATTEMPT_TRUNCATED);
    ck_assert_str_eq(d.attempts[1].finish_reason, "length");
    ck_assert_int_eq(d.attempts[1].problems[0].kind, CONTRACTC_KIND_SYNTAX);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, &line, NULL), CONTRACTC_OK);
    ck_assert_ptr_nonnull(strstr(line, "{\"outcome\":\"truncated\",\"fenced\":false,\"finish_reason\":\"length\""));
    ck_assert_ptr_nonnull(strstr(line, "\"outcome\":\"truncated\"}\n"));
    ck_assert_ptr_nonnull(strstr(line, "\"error\":\"HTTP 503 from the endpoint: overloaded\""));
    free(line);
    /* Two requests: the model error's retry re-sent the same transcript,
     * and the cut reply got no repair request (the third response of the
     * script is never asked for). */
    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, 1), "body"),
                                                            "messages")),
                     1);
    cJSON_Delete(reqs);
    contractc_decision_free(&d);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* The key, whole or as a prefix at a cut, never leaves the client: a 401
 * whose message ends in a key prefix the server cut, a 403 whose message has
 * the key across the 160-byte cut, then replies whose finish_reason is the
 * key (whole, and across the 31-byte cut), and one whose finish_reason ends in
 * a key prefix that, dropped, bares a shorter one (found by
 * fuzz_client_response). */
START_TEST(the_key_echoed_by_the_server_never_reaches_an_error_or_the_log)
{
    char pad[200];
    memset(pad, 'x', 155);
    pad[155] = '\0';
    char pad150[160];
    memcpy(pad150, pad, 150);
    pad150[150] = '\0';
    char *r2 = completion(good_reply, KEY);
    char *r3 = completion(good_reply, "zzzzzzzzzzzzzzzzzzzzzzzzzz" KEY);
    char *r4 = completion(good_reply, "sk-tesk-test-4f9c2b7e1a0d-SECR");
    char script[8192];
    snprintf(script, sizeof script,
             "[{\"status\":401,\"json\":{\"error\":{\"message\":\"%ssk-test-4f\"}}},"
             "{\"status\":403,\"json\":{\"error\":{\"message\":\"%s%s\"}}},{\"status\":200,\"json\":%s},"
             "{\"status\":200,\"json\":%s},{\"status\":200,\"json\":%s}]",
             pad150, pad, KEY, r2, r3, r4);
    free(r2);
    free(r3);
    free(r4);
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, 10000, 0);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt, refund_request_prompt_len,
                               email, strlen(email));
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, &t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_uint_eq(d.attempt_count, 3);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    ck_assert_int_eq(d.attempts[1].outcome, CONTRACTC_ATTEMPT_MODEL_ERROR);
    /* The server's own cut: "sk-test-4f", a key prefix at the end, dropped. */
    char want[256];
    snprintf(want, sizeof want, "HTTP 401 from the endpoint: %s", pad150);
    ck_assert_str_eq(d.attempts[0].error, want);
    /* The key starts at byte 155 of 160: the mask does not fit, none of it. */
    snprintf(want, sizeof want, "HTTP 403 from the endpoint: %s", pad);
    ck_assert_str_eq(d.attempts[1].error, want);
    ck_assert_str_eq(d.attempts[2].finish_reason, "[API key]");
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, &rec, NULL, NULL, &line, NULL), CONTRACTC_OK);
    ck_assert_msg(strstr(line, "sk-t") == NULL, "%s", line);
    ck_assert_ptr_nonnull(strstr(line, "\"finish_reason\":\"[API key]\""));
    printf("client: the key in a 401 text and a finish_reason -> \"%.40s...\" and \"%s\"\n",
           d.attempts[0].error, d.attempts[2].finish_reason);
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);

    /* The third response: the key cut at the 31-byte finish_reason. */
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "zzzzzzzzzzzzzzzzzzzzzzzzzz");
    /* The fourth: "sk-test-4f9c2b7e1a0d-SECR" dropped leaves "sk-te", a
     * prefix too: dropped as well. */
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "");
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* ---- retries ------------------------------------------------------------------ */

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The server-side arrival time of request n (seconds). */
static double request_time(const cJSON *reqs, int n)
{
    return cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, n), "t")->valuedouble;
}

typedef struct retry_run {
    int rc;
    contractc_model_reply_t reply;
    unsigned tries;
    int requests;
    double elapsed_s;  /* the whole call, as the caller saw it */
    double gap_s;      /* between the first two requests, as the server saw them */
} retry_run_t;

/* One call of the model function against `script`, with retries: max 3
 * tries, base/cap in ms, deadline in ms, jitter seed 7. */
static retry_run_t retry_call(const char *script, long base_ms, long cap_ms, long deadline_ms,
                              long timeout_ms)
{
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, timeout_ms, 0);
    cfg.max_attempts = 3;
    cfg.retry_base_ms = base_ms;
    cfg.retry_cap_ms = cap_ms;
    cfg.deadline_ms = deadline_ms;
    cfg.jitter_seed = 7;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    retry_run_t r;
    memset(&r, 0, sizeof r);
    double t0 = mono_s();
    r.rc = contractc_chat_model(client, &t, &r.reply);
    r.elapsed_s = mono_s() - t0;
    r.tries = contractc_chat_last_attempts(client);
    r.reply.text = NULL; /* owned by the client, freed below */
    cJSON *reqs = requests(&s);
    r.requests = cJSON_GetArraySize(reqs);
    r.gap_s = r.requests >= 2 ? request_time(reqs, 1) - request_time(reqs, 0) : 0;
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
    return r;
}

static char *ok_step(void)
{
    char *r = completion(good_reply, "stop");
    size_t n = strlen(r) + 32;
    char *step = malloc(n);
    snprintf(step, n, "{\"status\":200,\"json\":%s}", r);
    free(r);
    return step;
}

START_TEST(a_429_is_retried_after_its_retry_after)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script,
             "[{\"status\":429,\"headers\":{\"Retry-After\":\"1\"},\"json\":{\"error\":{\"message\":\"Rate limit "
             "reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}},%s]",
             ok);
    free(ok);
    /* base 10 ms: only Retry-After can make the wait a second. */
    retry_run_t r = retry_call(script, 10, 20, 10000, 5000);
    ck_assert_msg(r.rc == 0, "%s", r.reply.error);
    ck_assert_int_eq(r.requests, 2);
    ck_assert_uint_eq(r.tries, 2);
    ck_assert_msg(r.gap_s >= 0.95 && r.gap_s < 2.0, "the retry came %.3f s after the 429", r.gap_s);
    printf("client: 429 with Retry-After: 1 -> retried after %.3f s (call %.3f s, 2 requests)\n", r.gap_s,
           r.elapsed_s);
}
END_TEST

START_TEST(a_500_then_success_is_two_requests_with_a_jittered_backoff)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script, "[{\"status\":500,\"json\":{\"error\":{\"message\":\"boom\"}}},%s]", ok);
    free(ok);
    retry_run_t r = retry_call(script, 200, 400, 10000, 5000);
    ck_assert_msg(r.rc == 0, "%s", r.reply.error);
    ck_assert_int_eq(r.requests, 2);
    ck_assert_str_eq(r.reply.finish_reason, "stop");
    /* Full jitter over [0, 200 ms] for the first retry. */
    ck_assert_msg(r.gap_s < 0.2 + 0.3, "the retry came %.3f s after the 500", r.gap_s);
    printf("client: 500 then 200 -> retried after %.3f s (base 200 ms, seed 7; call %.3f s, 2 requests)\n",
           r.gap_s, r.elapsed_s);
}
END_TEST

START_TEST(every_5xx_is_retried_up_to_max_attempts_then_fails_http_5xx)
{
    const char *script = "[{\"status\":503,\"json\":{\"error\":{\"message\":\"overloaded\"}}},"
                         "{\"status\":502,\"text\":\"bad gateway\"},"
                         "{\"status\":500,\"json\":{\"error\":{\"message\":\"still down\"}}}]";
    retry_run_t r = retry_call(script, 20, 40, 10000, 5000);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_int_eq(r.requests, 3);
    ck_assert_int_eq(r.reply.error_class, CONTRACTC_ERROR_CLASS_HTTP_5XX);
    ck_assert_str_eq(r.reply.error, "HTTP 500 from the endpoint: still down (after 3 tries)");
    printf("client: 503, 502, 500 -> [%s] %s in %.3f s\n", contractc_error_class_name(r.reply.error_class),
           r.reply.error, r.elapsed_s);
}
END_TEST

START_TEST(a_401_is_sent_once)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script,
             "[{\"status\":401,\"json\":{\"error\":{\"message\":\"Incorrect API key provided\","
             "\"code\":\"invalid_api_key\"}}},%s]",
             ok);
    free(ok);
    retry_run_t r = retry_call(script, 10, 20, 10000, 5000);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_int_eq(r.requests, 1);
    ck_assert_uint_eq(r.tries, 1);
    ck_assert_int_eq(r.reply.error_class, CONTRACTC_ERROR_CLASS_AUTH);
    ck_assert_str_eq(r.reply.error, "HTTP 401 from the endpoint: Incorrect API key provided");
    printf("client: 401 -> [%s] once, %.3f s\n", contractc_error_class_name(r.reply.error_class), r.elapsed_s);
}
END_TEST

START_TEST(insufficient_quota_is_sent_once)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script,
             "[{\"status\":429,\"headers\":{\"Retry-After\":\"1\"},\"json\":{\"error\":{\"message\":\"You exceeded "
             "your current quota\",\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}},%s]",
             ok);
    free(ok);
    retry_run_t r = retry_call(script, 10, 20, 10000, 5000);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_int_eq(r.requests, 1);
    ck_assert_int_eq(r.reply.error_class, CONTRACTC_ERROR_CLASS_BAD_REQUEST);
    ck_assert_msg(r.elapsed_s < 0.5, "%.3f s: waited for a retry that cannot help", r.elapsed_s);
    printf("client: 429 insufficient_quota -> [%s] once, %.3f s\n", contractc_error_class_name(r.reply.error_class),
           r.elapsed_s);
}
END_TEST

START_TEST(a_retry_after_past_the_deadline_is_not_waited_for)
{
    const char *script = "[{\"status\":429,\"headers\":{\"Retry-After\":\"30\"},\"json\":{\"error\":{\"message\":"
                         "\"slow down\"}}},{\"status\":200,\"json\":{}}]";
    retry_run_t r = retry_call(script, 10, 20, 2000, 1000);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_int_eq(r.requests, 1);
    ck_assert_int_eq(r.reply.error_class, CONTRACTC_ERROR_CLASS_HTTP_429);
    ck_assert_msg(r.elapsed_s < 0.5, "%.3f s", r.elapsed_s);
    ck_assert_msg(strstr(r.reply.error, "(no retry: a wait of 30000 ms would pass the 2000 ms deadline)"), "%s",
                  r.reply.error);
    printf("client: 429 Retry-After: 30, deadline 2 s -> %s (%.3f s)\n", r.reply.error, r.elapsed_s);
}
END_TEST

START_TEST(a_retry_after_http_date_in_the_past_is_retried_at_once)
{
    char date[64];
    time_t past = time(NULL) - 10;
    struct tm tm;
    gmtime_r(&past, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script, "[{\"status\":503,\"headers\":{\"Retry-After\":\"%s\"},\"text\":\"\"},%s]", date,
             ok);
    free(ok);
    /* base 2 s: without the date the jitter could wait up to 2 s. */
    retry_run_t r = retry_call(script, 2000, 2000, 10000, 5000);
    ck_assert_msg(r.rc == 0, "%s", r.reply.error);
    ck_assert_int_eq(r.requests, 2);
    ck_assert_msg(r.gap_s < 0.3, "%.3f s", r.gap_s);
}
END_TEST

START_TEST(a_slow_body_past_the_deadline_is_a_timeout_within_the_deadline)
{
    char *r1 = completion(good_reply, "stop");
    char script[4096];
    snprintf(script, sizeof script, "[{\"status\":200,\"body_delay\":5,\"json\":%s}]", r1);
    free(r1);
    retry_run_t r = retry_call(script, 10, 20, 1500, 10000);
    ck_assert_int_ne(r.rc, 0);
    ck_assert_int_eq(r.reply.error_class, CONTRACTC_ERROR_CLASS_TIMEOUT);
    ck_assert_int_eq(r.requests, 1);
    ck_assert_msg(strstr(r.reply.error, "within the deadline of 1500 ms") != NULL, "%s", r.reply.error);
    ck_assert_ptr_null(strstr(r.reply.error, "no retry"));
    ck_assert_msg(r.elapsed_s >= 1.4 && r.elapsed_s < 1.5 + 0.5, "%.3f s", r.elapsed_s);
    printf("client: a body stalled 5 s, deadline 1.5 s -> [%s] after %.3f s: %s\n",
           contractc_error_class_name(r.reply.error_class), r.elapsed_s, r.reply.error);
}
END_TEST

/* ---- refusals and content filters -------------------------------------------- */

/* One loop run (3 attempts) against `script`; the decision in *d. */
static int loop_over(const char *script, contractc_decision_t *d, int *requests_made)
{
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, 10000, 0);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_begin(&t, &refund_request_contract, refund_request_prompt, refund_request_prompt_len,
                               email, strlen(email));
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    int st = contractc_loop_run(&loop, &t, email, strlen(email), &rec, d);
    if (st == CONTRACTC_OK)
        refund_request_free(&rec);
    cJSON *reqs = requests(&s);
    *requests_made = cJSON_GetArraySize(reqs);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
    return st;
}

START_TEST(an_openai_refusal_with_content_null_ends_refused_without_a_repair)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script,
             "[{\"status\":200,\"json\":{\"id\":\"chatcmpl-r\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
             "\"message\":{\"role\":\"assistant\",\"content\":null,\"refusal\":\"I can't help with that. " KEY
             "\"},\"finish_reason\":\"stop\"}]}},%s]",
             ok);
    free(ok);
    contractc_decision_t d;
    int n = 0;
    ck_assert_int_eq(loop_over(script, &d, &n), CONTRACTC_REJECTED);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_REFUSED);
    ck_assert_uint_eq(d.attempt_count, 1);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_REFUSED);
    ck_assert_str_eq(d.attempts[0].finish_reason, "refusal");
    /* The words are kept for the caller, the key scrubbed from them. */
    ck_assert_str_eq(d.attempts[0].refusal, "I can't help with that. [API key]");
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    e.time = "2025-05-01T09:30:00Z";
    char *line = NULL;
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, &line, NULL), CONTRACTC_OK);
    ck_assert_ptr_nonnull(strstr(line, "\"outcome\":\"refused\"}\n"));
    ck_assert_ptr_null(strstr(line, "help with that"));
    printf("client: OpenAI refusal, content null -> %s", line);
    free(line);
    contractc_decision_free(&d);
}
END_TEST

START_TEST(a_content_filter_stop_ends_filtered_without_a_repair)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script,
             "[{\"status\":200,\"json\":{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
             "\"content\":null},\"finish_reason\":\"content_filter\"}]}},%s]",
             ok);
    free(ok);
    contractc_decision_t d;
    int n = 0;
    ck_assert_int_eq(loop_over(script, &d, &n), CONTRACTC_REJECTED);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_FILTERED);
    ck_assert_uint_eq(d.attempt_count, 1);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_FILTERED);
    ck_assert_str_eq(d.attempts[0].finish_reason, "content_filter");
    contractc_decision_free(&d);
    /* With partial content too. */
    char *cut = completion("{\"order_id\":\"A-10", "content_filter");
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s}]", cut);
    free(cut);
    ck_assert_int_eq(loop_over(script, &d, &n), CONTRACTC_REJECTED);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(d.outcome, CONTRACTC_OUTCOME_FILTERED);
    contractc_decision_free(&d);
}
END_TEST

/* ---- providers and request options --------------------------------------------- */

static const cJSON *request_at(const cJSON *reqs, int n) { return cJSON_GetArrayItem(reqs, n); }
static const cJSON *body_at(const cJSON *reqs, int n) { return cJSON_GetObjectItem(request_at(reqs, n), "body"); }

START_TEST(anthropic_messages_has_its_wire_shape_and_stop_reasons)
{
    const char *script =
        "[{\"status\":200,\"json\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-x\","
        "\"content\":[{\"type\":\"text\",\"text\":\"{\\\"order_id\\\":\"},{\"type\":\"text\",\"text\":\"\\\"A-1063\\\"}\"}],"
        "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}},"
        "{\"status\":200,\"json\":{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"{\\\"order\"}],"
        "\"stop_reason\":\"max_tokens\"}},"
        "{\"status\":200,\"json\":{\"type\":\"message\",\"content\":[],\"stop_reason\":\"refusal\"}},"
        "{\"status\":529,\"json\":{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}}]";
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.provider = CONTRACTC_CHAT_ANTHROPIC;
    cfg.model = "claude-x";
    cfg.schema = NULL; /* Anthropic takes no response_format */
    cfg.schema_name = NULL;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_SYSTEM, "Extract the refund.", 19);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    contractc_transcript_add(&t, CONTRACTC_ROLE_ASSISTANT, "{}", 2);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "again", 5);
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "stop");
    ck_assert_uint_eq(reply.len, strlen("{\"order_id\":\"A-1063\"}"));
    ck_assert(memcmp(reply.text, "{\"order_id\":\"A-1063\"}", reply.len) == 0);
    memset(&reply, 0, sizeof reply);
    reply.max_tokens = 300; /* as the loop sets it after on_truncated */
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "max_tokens");
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "refusal");
    ck_assert_uint_eq(reply.len, 0);
    memset(&reply, 0, sizeof reply);
    ck_assert_int_ne(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.error, "HTTP 529 from the endpoint: Overloaded");
    ck_assert_int_eq(reply.error_class, CONTRACTC_ERROR_CLASS_HTTP_5XX);

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 4);
    const cJSON *req = request_at(reqs, 0);
    ck_assert_str_eq(str_at(req, "path", NULL), "/v1/messages");
    ck_assert_str_eq(str_at(req, "headers", "x-api-key"), KEY);
    ck_assert_str_eq(str_at(req, "headers", "anthropic-version"), "2023-06-01");
    ck_assert_ptr_null(str_at(req, "headers", "authorization"));
    const cJSON *body = body_at(reqs, 0);
    ck_assert_str_eq(str_at(body, "model", NULL), "claude-x");
    ck_assert_str_eq(str_at(body, "system", NULL), "Extract the refund.");
    ck_assert_int_eq(cJSON_GetObjectItem(body, "max_tokens")->valueint, 4096);
    ck_assert_ptr_null(cJSON_GetObjectItem(body, "response_format"));
    ck_assert_ptr_null(cJSON_GetObjectItem(body, "seed"));
    ck_assert_double_eq(cJSON_GetObjectItem(body, "temperature")->valuedouble, 0);
    const cJSON *msgs = cJSON_GetObjectItem(body, "messages");
    ck_assert_int_eq(cJSON_GetArraySize(msgs), 3);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(msgs, 0), "role", NULL), "user");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(msgs, 0), "content", NULL), "hello");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(msgs, 1), "role", NULL), "assistant");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(msgs, 2), "content", NULL), "again");
    ck_assert_int_eq(cJSON_GetObjectItem(body_at(reqs, 1), "max_tokens")->valueint, 300);
    char *shown = cJSON_PrintUnformatted(body);
    printf("client: Anthropic request body: %.300s\n", shown);
    free(shown);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* ---- tools (docs/tools.md, "The client speaks tools") ---------------------- */

/* A recorded chat completion whose message is one tool call of
 * refund_request with `args` (JSON-escaped here, as OpenAI sends it). */
static char *tool_completion(const char *id, const char *args)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "id", "chatcmpl-tools");
    cJSON_AddStringToObject(root, "object", "chat.completion");
    cJSON *choice = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(root, "choices"), choice);
    cJSON_AddNumberToObject(choice, "index", 0);
    cJSON *message = cJSON_AddObjectToObject(choice, "message");
    cJSON_AddStringToObject(message, "role", "assistant");
    cJSON_AddNullToObject(message, "content");
    cJSON_AddNullToObject(message, "refusal");
    cJSON *call = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(message, "tool_calls"), call);
    cJSON_AddStringToObject(call, "id", id);
    cJSON_AddStringToObject(call, "type", "function");
    cJSON *fn = cJSON_AddObjectToObject(call, "function");
    cJSON_AddStringToObject(fn, "name", "refund_request");
    cJSON_AddStringToObject(fn, "arguments", args);
    cJSON_AddStringToObject(choice, "finish_reason", "tool_calls");
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* A rejected call's error result: the tool-call repair turn. */
static const char repair_text[] =
    "Your tool call was rejected. Fix every problem and make the call again with the corrected "
    "arguments:\n"
    "- $.amount: \"1.250,00\" is not a decimal like \"1250.00\" (dot, two decimals, no separators)\n";

/* Runs the repair loop over the client: accepted on the second attempt. */
static void run_tool_loop(contractc_chat_client_t *client, contractc_transcript_t *t)
{
    contractc_transcript_init(t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_int_eq(rec.amount, 125000);
    ck_assert_uint_eq(d.attempt_count, 2);
    ck_assert_str_eq(d.attempts[0].finish_reason, "tool_calls");
    refund_request_free(&rec);
    contractc_decision_free(&d);
}

START_TEST(openai_tools_tool_choice_and_the_repair_as_a_tool_message)
{
    char script[4096];
    char *r1 = tool_completion("call_1", comma_reply), *r2 = tool_completion("call_2", good_reply);
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s},{\"status\":200,\"json\":%s}]", r1, r2);
    free(r1);
    free(r2);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.schema = NULL; /* the tool carries the schema */
    cfg.schema_name = NULL;
    const contractc_chat_tool_t tools[] = {{refund_request_tool_openai_json, refund_request_tool_openai_json_len}};
    cfg.tools = tools;
    cfg.tool_count = 1;
    cfg.tool_choice = "refund_request";
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    run_tool_loop(client, &t);
    const contractc_tool_calls_t *calls = contractc_chat_last_tool_calls(client);
    ck_assert_uint_eq(calls->count, 1);
    ck_assert_str_eq(calls->calls[0].id, "call_2");
    ck_assert_str_eq(calls->calls[0].arguments, good_reply);

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    cJSON *tool_sent = cJSON_Parse(refund_request_tool_openai_json);
    for (int i = 0; i < 2; i++) {
        const cJSON *body = body_at(reqs, i);
        ck_assert_ptr_null(cJSON_GetObjectItem(body, "response_format"));
        const cJSON *sent = cJSON_GetObjectItem(body, "tools");
        ck_assert_int_eq(cJSON_GetArraySize(sent), 1);
        ck_assert(cJSON_Compare(cJSON_GetArrayItem(sent, 0), tool_sent, true));
        const cJSON *choice = cJSON_GetObjectItem(body, "tool_choice");
        ck_assert_str_eq(str_at(choice, "type", NULL), "function");
        ck_assert_str_eq(str_at(choice, "function", "name"), "refund_request");
    }
    cJSON_Delete(tool_sent);
    /* the second request: the call as the assistant's tool_calls, the
     * repair prompt as the tool's result for that id */
    const cJSON *m = cJSON_GetObjectItem(body_at(reqs, 1), "messages");
    ck_assert_int_eq(cJSON_GetArraySize(m), 3);
    const cJSON *assistant = cJSON_GetArrayItem(m, 1), *tool = cJSON_GetArrayItem(m, 2);
    ck_assert_str_eq(str_at(assistant, "role", NULL), "assistant");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(assistant, "content")));
    const cJSON *call = cJSON_GetArrayItem(cJSON_GetObjectItem(assistant, "tool_calls"), 0);
    ck_assert_str_eq(str_at(call, "id", NULL), "call_1");
    ck_assert_str_eq(str_at(call, "type", NULL), "function");
    ck_assert_str_eq(str_at(call, "function", "name"), "refund_request");
    ck_assert_str_eq(str_at(call, "function", "arguments"), comma_reply);
    ck_assert_str_eq(str_at(tool, "role", NULL), "tool");
    ck_assert_str_eq(str_at(tool, "tool_call_id", NULL), "call_1");
    ck_assert_str_eq(str_at(tool, "content", NULL), repair_text);
    char *shown = cJSON_PrintUnformatted(m);
    printf("client: OpenAI tool repair, request 2 messages[1..2]: %.900s\n", strstr(shown, "{\"role\":\"assistant\""));
    free(shown);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

START_TEST(anthropic_tools_tool_choice_and_the_repair_as_a_tool_result_with_is_error)
{
    /* recorded as raw bytes, so the input's bytes are these */
    char script[8192], r1[2048], r2[2048];
#define ANTHROPIC_TOOL_USE                                                                     \
    "{\"id\":\"msg_t\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["                 \
    "{\"type\":\"text\",\"text\":\"Recording it.\"},"                                             \
    "{\"type\":\"tool_use\",\"id\":\"%s\",\"name\":\"refund_request\",\"input\":%s}],"         \
    "\"stop_reason\":\"tool_use\"}"
    snprintf(r1, sizeof r1, ANTHROPIC_TOOL_USE, "toolu_01", comma_reply);
    snprintf(r2, sizeof r2, ANTHROPIC_TOOL_USE, "toolu_02", good_reply);
    char *q1 = as_json_text(r1), *q2 = as_json_text(r2);
    snprintf(script, sizeof script, "[{\"status\":200,\"raw\":%s},{\"status\":200,\"raw\":%s}]", q1, q2);
    free(q1);
    free(q2);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.provider = CONTRACTC_CHAT_ANTHROPIC;
    cfg.schema = NULL;
    cfg.schema_name = NULL;
    const contractc_chat_tool_t tools[] = {{refund_request_tool_anthropic_json,
                                            refund_request_tool_anthropic_json_len}};
    cfg.tools = tools;
    cfg.tool_count = 1;
    cfg.tool_choice = "required";
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    run_tool_loop(client, &t);

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    const cJSON *body = body_at(reqs, 1);
    ck_assert_str_eq(str_at(body, "tool_choice", "type"), "any");
    const cJSON *tool = cJSON_GetArrayItem(cJSON_GetObjectItem(body, "tools"), 0);
    ck_assert_str_eq(str_at(tool, "name", NULL), "refund_request");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(tool, "strict")));
    const cJSON *m = cJSON_GetObjectItem(body, "messages");
    ck_assert_int_eq(cJSON_GetArraySize(m), 3);
    const cJSON *use = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(m, 1), "content"), 0);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m, 1), "role", NULL), "assistant");
    ck_assert_str_eq(str_at(use, "type", NULL), "tool_use");
    ck_assert_str_eq(str_at(use, "id", NULL), "toolu_01");
    cJSON *want = cJSON_Parse(comma_reply);
    ck_assert(cJSON_Compare(cJSON_GetObjectItem(use, "input"), want, true));
    cJSON_Delete(want);
    const cJSON *result = cJSON_GetArrayItem(cJSON_GetObjectItem(cJSON_GetArrayItem(m, 2), "content"), 0);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(m, 2), "role", NULL), "user");
    ck_assert_str_eq(str_at(result, "type", NULL), "tool_result");
    ck_assert_str_eq(str_at(result, "tool_use_id", NULL), "toolu_01");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(result, "is_error")));
    ck_assert_str_eq(str_at(result, "content", NULL), repair_text);
    char *shown = cJSON_PrintUnformatted(cJSON_GetArrayItem(m, 2));
    printf("client: Anthropic tool repair, request 2 messages[2]: %.400s\n", shown);
    free(shown);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

/* ---- a turn of two tool calls, one rejected (docs/tools.md, "Tool calls in
 * the transcript") ------------------------------------------------------- */

/* The second call's arguments: amount a number where a decimal string is
 * wanted. */
static const char number_reply[] =
    "{\"order_id\":\"A-1063\",\"amount\":1.0,\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}";

static const char number_repair[] =
    "Your tool call was rejected. Fix every problem and make the call again with the corrected "
    "arguments:\n"
    "- $.amount: found the number 1.0; expected a decimal like \"1250.00\" (dot, two decimals, no "
    "separators)\n";

/* A recorded OpenAI chat completion with two tool calls of refund_request. */
static char *two_call_completion(const char *id1, const char *args1, const char *id2,
                                 const char *args2)
{
    char *one = tool_completion(id1, args1);
    cJSON *root = cJSON_Parse(one);
    free(one);
    cJSON *calls = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "choices"), 0), "message"),
        "tool_calls");
    cJSON *second = cJSON_Duplicate(cJSON_GetArrayItem(calls, 0), true);
    cJSON_ReplaceItemInObject(second, "id", cJSON_CreateString(id2));
    cJSON_ReplaceItemInObject(cJSON_GetObjectItem(second, "function"), "arguments",
                              cJSON_CreateString(args2));
    cJSON_AddItemToArray(calls, second);
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return text;
}

/* Runs the loop over a client whose first response is two calls (the
 * second rejected) and whose second is two good ones; checks the decision
 * and its log line. */
static void run_two_call_loop(contractc_chat_client_t *client, contractc_transcript_t *t)
{
    contractc_transcript_init(t, NULL);
    ck_assert_int_eq(contractc_transcript_begin(t, &refund_request_contract, refund_request_prompt,
                                                refund_request_prompt_len, email, strlen(email)),
                     CONTRACTC_OK);
    contractc_loop_t loop;
    memset(&loop, 0, sizeof loop);
    loop.contract = &refund_request_contract;
    loop.model = contractc_chat_model;
    loop.model_user = client;
    refund_request_t rec;
    contractc_decision_t d;
    ck_assert_int_eq(contractc_loop_run(&loop, t, email, strlen(email), &rec, &d), CONTRACTC_OK);
    ck_assert_int_eq(rec.amount, 125000);
    ck_assert_uint_eq(d.attempt_count, 2);
    ck_assert_int_eq(d.attempts[0].outcome, CONTRACTC_ATTEMPT_REJECTED);
    ck_assert_uint_eq(d.attempts[0].tool_call_count, 2);
    ck_assert_str_eq(d.attempts[0].tool_calls[0].tool, "refund_request");
    ck_assert_uint_eq(d.attempts[0].tool_calls[0].problems, 0);
    ck_assert_uint_eq(d.attempts[0].tool_calls[1].problems, 1);
    ck_assert_uint_eq(d.attempts[0].problem_count, 1);
    ck_assert_str_eq(d.attempts[0].problems[0].path, "$.amount");
    /* the transcript: prompt, two calls, two results, two accepted calls */
    ck_assert_uint_eq(contractc_transcript_count(t), 7);
    ck_assert_int_eq(contractc_transcript_at(t, 3)->role, CONTRACTC_ROLE_TOOL);
    ck_assert(!contractc_transcript_at(t, 3)->is_error);
    ck_assert(contractc_transcript_at(t, 4)->is_error);
    contractc_log_entry_t e;
    memset(&e, 0, sizeof e);
    char *line = NULL;
    size_t len = 0;
    ck_assert_int_eq(contractc_log_format(&d, &e, NULL, NULL, NULL, &line, &len), CONTRACTC_OK);
    ck_assert_ptr_nonnull(strstr(line, "\"tool_calls\":[{\"tool\":\"refund_request\",\"problems\":0},"
                                       "{\"tool\":\"refund_request\",\"problems\":1}]"));
    free(line);
    refund_request_free(&rec);
    contractc_decision_free(&d);
}

START_TEST(openai_two_calls_one_rejected_go_back_as_one_turn_and_two_results)
{
    char script[8192];
    char *r1 = two_call_completion("call_a", good_reply, "call_b", number_reply);
    char *r2 = two_call_completion("call_c", good_reply, "call_d", good_reply);
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s},{\"status\":200,\"json\":%s}]", r1, r2);
    free(r1);
    free(r2);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.schema = NULL;
    cfg.schema_name = NULL;
    const contractc_chat_tool_t tools[] = {{refund_request_tool_openai_json, refund_request_tool_openai_json_len}};
    cfg.tools = tools;
    cfg.tool_count = 1;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    run_two_call_loop(client, &t);

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    const cJSON *m = cJSON_GetObjectItem(body_at(reqs, 1), "messages");
    /* user, the assistant with both calls, the two results in order */
    ck_assert_int_eq(cJSON_GetArraySize(m), 4);
    const cJSON *assistant = cJSON_GetArrayItem(m, 1);
    ck_assert_str_eq(str_at(assistant, "role", NULL), "assistant");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(assistant, "content")));
    const cJSON *calls = cJSON_GetObjectItem(assistant, "tool_calls");
    ck_assert_int_eq(cJSON_GetArraySize(calls), 2);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(calls, 0), "id", NULL), "call_a");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(calls, 0), "function", "arguments"), good_reply);
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(calls, 1), "id", NULL), "call_b");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(calls, 1), "function", "name"), "refund_request");
    ck_assert_str_eq(str_at(cJSON_GetArrayItem(calls, 1), "function", "arguments"), number_reply);
    const cJSON *first = cJSON_GetArrayItem(m, 2), *second = cJSON_GetArrayItem(m, 3);
    ck_assert_str_eq(str_at(first, "role", NULL), "tool");
    ck_assert_str_eq(str_at(first, "tool_call_id", NULL), "call_a");
    ck_assert_str_eq(str_at(first, "content", NULL), CONTRACTC_REPAIR_NOT_RUN);
    ck_assert_str_eq(str_at(second, "role", NULL), "tool");
    ck_assert_str_eq(str_at(second, "tool_call_id", NULL), "call_b");
    ck_assert_str_eq(str_at(second, "content", NULL), number_repair);
    char *shown = cJSON_PrintUnformatted(m);
    printf("client: OpenAI two calls, request 2 messages[1..3]: %.1200s\n", strstr(shown, "{\"role\":\"assistant\""));
    free(shown);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

START_TEST(anthropic_two_calls_one_rejected_go_back_as_tool_use_blocks_and_tool_results)
{
    char script[16384], r1[4096], r2[4096];
#define ANTHROPIC_TWO_TOOL_USES                                                                \
    "{\"id\":\"msg_t\",\"type\":\"message\",\"role\":\"assistant\",\"content\":["                 \
    "{\"type\":\"tool_use\",\"id\":\"%s\",\"name\":\"refund_request\",\"input\":%s},"          \
    "{\"type\":\"tool_use\",\"id\":\"%s\",\"name\":\"refund_request\",\"input\":%s}],"         \
    "\"stop_reason\":\"tool_use\"}"
    snprintf(r1, sizeof r1, ANTHROPIC_TWO_TOOL_USES, "toolu_a", good_reply, "toolu_b", number_reply);
    snprintf(r2, sizeof r2, ANTHROPIC_TWO_TOOL_USES, "toolu_c", good_reply, "toolu_d", good_reply);
    char *q1 = as_json_text(r1), *q2 = as_json_text(r2);
    snprintf(script, sizeof script, "[{\"status\":200,\"raw\":%s},{\"status\":200,\"raw\":%s}]", q1, q2);
    free(q1);
    free(q2);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    cfg.provider = CONTRACTC_CHAT_ANTHROPIC;
    cfg.schema = NULL;
    cfg.schema_name = NULL;
    const contractc_chat_tool_t tools[] = {{refund_request_tool_anthropic_json,
                                            refund_request_tool_anthropic_json_len}};
    cfg.tools = tools;
    cfg.tool_count = 1;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    run_two_call_loop(client, &t);

    cJSON *reqs = requests(&s);
    ck_assert_int_eq(cJSON_GetArraySize(reqs), 2);
    const cJSON *m = cJSON_GetObjectItem(body_at(reqs, 1), "messages");
    /* user, the assistant with both tool_use blocks, one user message with
     * both tool_result blocks in order */
    ck_assert_int_eq(cJSON_GetArraySize(m), 3);
    const cJSON *assistant = cJSON_GetArrayItem(m, 1), *user = cJSON_GetArrayItem(m, 2);
    ck_assert_str_eq(str_at(assistant, "role", NULL), "assistant");
    const cJSON *uses = cJSON_GetObjectItem(assistant, "content");
    ck_assert_int_eq(cJSON_GetArraySize(uses), 2);
    const cJSON *use1 = cJSON_GetArrayItem(uses, 0), *use2 = cJSON_GetArrayItem(uses, 1);
    ck_assert_str_eq(str_at(use1, "type", NULL), "tool_use");
    ck_assert_str_eq(str_at(use1, "id", NULL), "toolu_a");
    ck_assert_str_eq(str_at(use2, "type", NULL), "tool_use");
    ck_assert_str_eq(str_at(use2, "id", NULL), "toolu_b");
    ck_assert_str_eq(str_at(use2, "name", NULL), "refund_request");
    cJSON *want1 = cJSON_Parse(good_reply), *want2 = cJSON_Parse(number_reply);
    ck_assert(cJSON_Compare(cJSON_GetObjectItem(use1, "input"), want1, true));
    ck_assert(cJSON_Compare(cJSON_GetObjectItem(use2, "input"), want2, true));
    cJSON_Delete(want1);
    cJSON_Delete(want2);
    ck_assert_str_eq(str_at(user, "role", NULL), "user");
    const cJSON *results = cJSON_GetObjectItem(user, "content");
    ck_assert_int_eq(cJSON_GetArraySize(results), 2);
    const cJSON *res1 = cJSON_GetArrayItem(results, 0), *res2 = cJSON_GetArrayItem(results, 1);
    ck_assert_str_eq(str_at(res1, "type", NULL), "tool_result");
    ck_assert_str_eq(str_at(res1, "tool_use_id", NULL), "toolu_a");
    ck_assert_ptr_null(cJSON_GetObjectItem(res1, "is_error"));
    ck_assert_str_eq(str_at(res1, "content", NULL), CONTRACTC_REPAIR_NOT_RUN);
    ck_assert_str_eq(str_at(res2, "type", NULL), "tool_result");
    ck_assert_str_eq(str_at(res2, "tool_use_id", NULL), "toolu_b");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(res2, "is_error")));
    ck_assert_str_eq(str_at(res2, "content", NULL), number_repair);
    char *shown = cJSON_PrintUnformatted(m);
    printf("client: Anthropic two calls, request 2 messages[1..2]: %.1400s\n", strstr(shown, "{\"role\":\"assistant\""));
    free(shown);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

START_TEST(tool_configurations_are_checked)
{
    contractc_chat_config_t cfg = config_for(NULL, 1000, 0);
    const contractc_chat_tool_t bad[] = {{"[1]", 3}};
    const contractc_chat_tool_t good[] = {{refund_request_tool_openai_json, refund_request_tool_openai_json_len}};
    char why[256];
    cfg.tools = bad;
    cfg.tool_count = 1;
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "tool 1 is not a JSON object with a name");
    cfg.tools = good;
    cfg.tool_choice = "invoice";
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "tool_choice must be auto, required, none or the name of one of the tools");
    cfg.tools = NULL;
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "tool_count is set but tools is NULL");
    ck_assert_ptr_null(contractc_chat_last_tool_calls(NULL));
}
END_TEST

START_TEST(openai_options_extra_headers_url_query_max_completion_tokens_no_response_format)
{
    char *ok = ok_step();
    char script[4096];
    snprintf(script, sizeof script, "[%s]", ok);
    free(ok);
    server_t s = start_server(script);
    contractc_chat_config_t cfg = config_for(&s, 10000, 0);
    static const char *const extra[] = {"OpenAI-Organization: org-test", "X-Trace-Id: 42", NULL};
    cfg.extra_headers = extra;
    cfg.url_query = "api-version=2024-10-21";
    cfg.api_key_header = "api-key";
    cfg.use_max_completion_tokens = true;
    cfg.no_response_format = true;
    cfg.max_tokens = 256;
    contractc_chat_client_t *client = client_with(&cfg);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_USER, "hello", 5);
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    cJSON *reqs = requests(&s);
    const cJSON *req = request_at(reqs, 0);
    ck_assert_str_eq(str_at(req, "path", NULL), "/v1/chat/completions?api-version=2024-10-21");
    ck_assert_str_eq(str_at(req, "headers", "api-key"), KEY);
    ck_assert_ptr_null(str_at(req, "headers", "authorization"));
    ck_assert_str_eq(str_at(req, "headers", "openai-organization"), "org-test");
    ck_assert_str_eq(str_at(req, "headers", "x-trace-id"), "42");
    const cJSON *body = body_at(reqs, 0);
    ck_assert_int_eq(cJSON_GetObjectItem(body, "max_completion_tokens")->valueint, 256);
    ck_assert_ptr_null(cJSON_GetObjectItem(body, "max_tokens"));
    ck_assert_ptr_null(cJSON_GetObjectItem(body, "response_format"));
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);

    /* Bad options are refused with the reason. */
    char why[256];
    static const char *const bad[] = {"no colon here", NULL};
    cfg.extra_headers = bad;
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "extra header 1 is not one \"Name: value\" line");
    cfg.extra_headers = NULL;
    cfg.url_query = "?api-version=1";
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "url_query must be a non-empty query without '?', '#' or white space");
    cfg.url_query = NULL;
    cfg.no_response_format = false;
    cfg.schema = NULL;
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "schema_name and schema are required (or set no_response_format)");
}
END_TEST

START_TEST(message_bytes_that_are_not_utf8_are_sent_as_u_fffd_and_nul_escaped)
{
    char *r1 = completion(good_reply, "stop");
    char script[2048];
    snprintf(script, sizeof script, "[{\"status\":200,\"json\":%s}]", r1);
    free(r1);
    server_t s = start_server(script);
    contractc_chat_client_t *client = client_for(&s, 10000, 0);
    contractc_transcript_t t;
    contractc_transcript_init(&t, NULL);
    contractc_transcript_add(&t, CONTRACTC_ROLE_ASSISTANT, "a\xFF" "b\0c\"\xC3\xA9", 8);
    contractc_model_reply_t reply;
    memset(&reply, 0, sizeof reply);
    ck_assert_int_eq(contractc_chat_model(client, &t, &reply), 0);
    ck_assert_str_eq(reply.finish_reason, "stop");
    ck_assert_uint_eq(reply.len, strlen(good_reply));
    cJSON *reqs = requests(&s);
    const cJSON *msg = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(reqs, 0), "body"), "messages"), 0);
    ck_assert_str_eq(str_at(msg, "role", NULL), "assistant");
    /* cJSON stops at the NUL: compare up to it, and that it was escaped. */
    ck_assert_str_eq(str_at(msg, "content", NULL), "a\xEF\xBF\xBD" "b");
    char *raw = read_all(s.record, NULL);
    ck_assert_msg(strstr(raw, "\"content\": \"a\xEF\xBF\xBD" "b\\u0000c\\\"\xC3\xA9\"") != NULL, "%s", raw);
    free(raw);
    cJSON_Delete(reqs);
    contractc_transcript_clear(&t);
    contractc_chat_client_free(client);
    stop_server(&s);
}
END_TEST

START_TEST(bad_configurations_are_refused_with_the_reason)
{
    contractc_chat_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.base_url = "http://127.0.0.1:9/v1";
    cfg.model = "m";
    cfg.schema_name = "refund_request";
    cfg.schema = schema_text;
    cfg.schema_len = schema_len;
    char why[256];
    cfg.api_key_env = "CONTRACTC_TEST_UNSET_KEY_VARIABLE";
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "the environment variable CONTRACTC_TEST_UNSET_KEY_VARIABLE (the API key) is not set");
    cfg.api_key_env = NULL;
    cfg.schema = "{\"type\":";
    cfg.schema_len = 8;
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "the schema is not a JSON object");
    cfg.schema = schema_text;
    cfg.schema_len = schema_len;
    cfg.temperature = "0,2"; /* a German decimal comma: not a JSON number */
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    ck_assert_str_eq(why, "temperature and seed must be JSON number text");
    cfg.temperature = NULL;
    cfg.schema_name = "refund request";
    ck_assert_ptr_null(contractc_chat_client_new(&cfg, why, sizeof why));
    cfg.schema_name = "refund_request";
    contractc_chat_client_t *c = contractc_chat_client_new(&cfg, why, sizeof why);
    ck_assert_ptr_nonnull(c);
    contractc_chat_client_free(c);
    contractc_chat_client_free(NULL);
}
END_TEST

int main(void)
{
    if (access(CONTRACTC_PYTHON, X_OK) != 0) {
        fprintf(stderr, "SKIP: python3 (%s) is not available, so the loopback replay server cannot run; "
                        "scripts/install-deps.sh installs it\n",
                CONTRACTC_PYTHON);
        return 77;
    }
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    setenv(KEY_VAR, KEY, 1);
    load_schema();
    Suite *s = suite_create("client");
    TCase *t = tcase_create("client");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, the_loop_over_loopback_sends_the_schema_and_the_rejected_reply_above_the_complaint);
    tcase_add_loop_test(t, every_failure_is_a_model_error_with_a_clear_message_and_no_key, 0,
                        (int)(sizeof failures / sizeof failures[0]));
    tcase_add_test(t, a_refused_connection_is_a_model_error);
    tcase_add_test(t, a_reply_cut_by_the_token_limit_ends_truncated_without_a_repair);
    tcase_add_test(t, the_key_echoed_by_the_server_never_reaches_an_error_or_the_log);
    tcase_add_test(t, a_429_is_retried_after_its_retry_after);
    tcase_add_test(t, a_500_then_success_is_two_requests_with_a_jittered_backoff);
    tcase_add_test(t, every_5xx_is_retried_up_to_max_attempts_then_fails_http_5xx);
    tcase_add_test(t, a_401_is_sent_once);
    tcase_add_test(t, insufficient_quota_is_sent_once);
    tcase_add_test(t, a_retry_after_past_the_deadline_is_not_waited_for);
    tcase_add_test(t, a_retry_after_http_date_in_the_past_is_retried_at_once);
    tcase_add_test(t, a_slow_body_past_the_deadline_is_a_timeout_within_the_deadline);
    tcase_add_test(t, an_openai_refusal_with_content_null_ends_refused_without_a_repair);
    tcase_add_test(t, a_content_filter_stop_ends_filtered_without_a_repair);
    tcase_add_test(t, anthropic_messages_has_its_wire_shape_and_stop_reasons);
    tcase_add_test(t, openai_options_extra_headers_url_query_max_completion_tokens_no_response_format);
    tcase_add_test(t, message_bytes_that_are_not_utf8_are_sent_as_u_fffd_and_nul_escaped);
    tcase_add_test(t, bad_configurations_are_refused_with_the_reason);
    tcase_add_test(t, openai_tools_tool_choice_and_the_repair_as_a_tool_message);
    tcase_add_test(t, anthropic_tools_tool_choice_and_the_repair_as_a_tool_result_with_is_error);
    tcase_add_test(t, openai_two_calls_one_rejected_go_back_as_one_turn_and_two_results);
    tcase_add_test(t, anthropic_two_calls_one_rejected_go_back_as_tool_use_blocks_and_tool_results);
    tcase_add_test(t, tool_configurations_are_checked);
    tcase_add_test(t, a_streamed_doomed_reply_is_cut_at_its_first_dead_byte_and_repaired);
    tcase_add_test(t, a_stream_request_answered_whole_or_broken_off);
    tcase_add_test(t, anthropic_streams_text_deltas_and_stops_when_dead);
    suite_add_tcase(s, t);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmpdir);
    free(schema_text);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
