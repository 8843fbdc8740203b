/* SPDX-License-Identifier: MIT */
/*
 * test_alloc_fail.c - every allocation can fail, and failing it is an error
 * outcome, never a crash, a leak or a half-filled record (curl's torture
 * runs, nanopb's malloc wrappers).
 *
 *   1. The runtime, through its allocator option: for every reply case of
 *      tests/data/cases/replies.jsonl and every example reply, the parse is
 *      first run with a counting allocator (N allocations), then once per
 *      n in 1..N with the n-th allocation failing.  Each must return
 *      CONTRACTC_ENOMEM with problems->error set, no problem added, the
 *      record all zero bytes, every block freed with the size it was
 *      allocated with.  Run n = N + 1 gives the first run's status again.
 *
 *   2. The generator, through the LD_PRELOAD shim (tests/support/alloc_shim.c):
 *      libyaml, cJSON and libcrypto have no allocator hook, so the n-th
 *      malloc of the whole `contractc generate` process fails.  For every
 *      n, the process must exit 0 with the four artifacts byte-identical to
 *      a clean run, or exit 1 with a message on stderr; never die on a
 *      signal; never leave a temporary file; and every artifact present
 *      afterwards is byte-identical to the clean run's (an output directory
 *      holding a complete earlier generation keeps it).  In ctest the first
 *      64 and then every 13th n are run; scripts/test-hardening.sh sets CONTRACTC_ALLOC_STRIDE=1
 *      for every n.  Skipped (loudly) in sanitizer builds, where ASan owns
 *      malloc.
 *
 *   3. `contractc stats LOG` and `stats LOG --json` through the same shim,
 *      on an earlier release's log with bad lines added: for every n (the
 *      same stride), exit 0 with stdout and stderr byte-identical to a
 *      clean run, or exit 1 with a message on stderr and nothing on stdout;
 *      never a signal.
 */
/* memmem() */
#define _GNU_SOURCE
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "asset_tags.h"
#include "api_capture.h"
#include "contractc/contractc.h"
#include "flex_values.h"
#include "invoice.h"
#include "refund_request.h"
#include "signup_form.h"
#include "support_route.h"
#include "sensor_log.h"
#include "text.h"

#define CASES CONTRACTC_TEST_DATA "/cases/replies.jsonl"
#define EXAMPLE_DATA CONTRACTC_SOURCE_DIR "/examples/refund/data/"

/* ---- a counting, failing allocator -------------------------------------- */

/* Each block carries its size in front, so a free with the wrong size (the
 * allocator contract says `free` receives the size allocated) is caught. */
typedef struct counting {
    size_t calls;       /* alloc calls so far */
    size_t fail_at;     /* 0: never fail; else the call number that fails */
    size_t live;        /* blocks not yet freed */
    size_t bad_frees;   /* frees whose size did not match */
} counting_t;

/* C99 has no max_align_t: the union of the widest standard types. */
typedef union max_align {
    long double ld;
    long long ll;
    void *p;
    double d;
} max_align_u;

typedef union header {
    size_t size;
    max_align_u align;
} header_t;

static void *counting_alloc(void *ctx, size_t size)
{
    counting_t *c = ctx;
    c->calls++;
    if (c->fail_at && c->calls == c->fail_at)
        return NULL;
    header_t *h = malloc(sizeof *h + size);
    if (!h)
        return NULL;
    h->size = size;
    c->live++;
    return h + 1;
}

static void counting_free(void *ctx, void *ptr, size_t size)
{
    counting_t *c = ctx;
    if (!ptr)
        return;
    header_t *h = (header_t *)ptr - 1;
    if (h->size != size)
        c->bad_frees++;
    c->live--;
    free(h);
}

/* ---- the replies ---------------------------------------------------------- */

typedef struct reply {
    char id[96];
    const contractc_contract_t *contract;
    char *reply, *source;
    size_t reply_len, source_len;
} reply_t;

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

static char *dup_text(const char *s, size_t *len)
{
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    memcpy(p, s, n + 1);
    if (len)
        *len = n;
    return p;
}

static const contractc_contract_t *contract_named(const char *name)
{
    if (strcmp(name, "refund_request") == 0)
        return &refund_request_contract;
    if (strcmp(name, "invoice") == 0)
        return &invoice_contract;
    if (strcmp(name, "signup_form") == 0)
        return &signup_form_contract;
    if (strcmp(name, "support_route") == 0)
        return &support_route_contract;
    if (strcmp(name, "sensor_log") == 0)
        return &sensor_log_contract;
    if (strcmp(name, "asset_tags") == 0)
        return &asset_tags_contract;
    if (strcmp(name, "api_capture") == 0)
        return &api_capture_contract;
    if (strcmp(name, "flex_values") == 0)
        return &flex_values_contract;
    return NULL;
}

/* The reply cases, then the refund example's replies with their emails. */
static reply_t *load_replies(size_t *count)
{
    size_t len = 0, n = 0;
    char *text = cc_read_file(CASES, &len);
    ck_assert_msg(text != NULL, "cannot read %s", CASES);
    reply_t *r = calloc(512, sizeof *r);
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        ck_assert_uint_lt(n, 500);
        cJSON *j = cJSON_Parse(line);
        ck_assert_ptr_nonnull(j);
        reply_t *c = &r[n++];
        snprintf(c->id, sizeof c->id, "%s", cJSON_GetObjectItemCaseSensitive(j, "id")->valuestring);
        c->contract = contract_named(cJSON_GetObjectItemCaseSensitive(j, "contract")->valuestring);
        ck_assert_msg(c->contract != NULL, "%s: unknown contract", c->id);
        cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source_text");
        if (cJSON_IsString(src))
            c->source = dup_text(src->valuestring, &c->source_len);
        const char *reply = cJSON_GetObjectItemCaseSensitive(j, "reply")->valuestring;
        cJSON *enc = cJSON_GetObjectItemCaseSensitive(j, "reply_encoding");
        if (cJSON_IsString(enc) && strcmp(enc->valuestring, "base64") == 0)
            c->reply = base64_decode(reply, &c->reply_len);
        else
            c->reply = dup_text(reply, &c->reply_len);
        cJSON_Delete(j);
    }
    free(text);

    static const char *const examples[][2] = {
        {"a1063-correct.reply.json", "a1063.email.txt"},
        {"a1063-decimal-comma.reply.json", "a1063.email.txt"},
        {"a1063-not-in-email.reply.json", "a1063.email.txt"},
        {"a1077-all-null.reply.json", "a1077.email.txt"},
        {"a1077-invented-amount.reply.json", "a1077.email.txt"},
    };
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        reply_t *c = &r[n++];
        snprintf(c->id, sizeof c->id, "examples/refund/%s", examples[i][0]);
        c->contract = &refund_request_contract;
        char path[512];
        snprintf(path, sizeof path, "%s%s", EXAMPLE_DATA, examples[i][0]);
        c->reply = cc_read_file(path, &c->reply_len);
        ck_assert_msg(c->reply != NULL, "cannot read %s", path);
        snprintf(path, sizeof path, "%s%s", EXAMPLE_DATA, examples[i][1]);
        c->source = cc_read_file(path, &c->source_len);
        ck_assert_msg(c->source != NULL, "cannot read %s", path);
    }
    *count = n;
    return r;
}

static void free_replies(reply_t *r, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(r[i].reply);
        free(r[i].source);
    }
    free(r);
}

/* The whole outcome of one parse as text: the status, every problem (kind,
 * path, both messages, line, column), the fenced flag and, when accepted,
 * the record's canonical form.  A failed allocation must either turn into
 * CONTRACTC_ENOMEM or leave this outcome exactly as a clean run gives it
 * (an allocation for a message that is then discarded, when a
 * document-level problem replaces the others, may fail unnoticed). */
typedef struct outcome {
    contractc_status_t status;
    char *text;          /* malloc'd */
    size_t problems;
    bool error_set;
    bool record_zero;    /* all zero bytes (checked unless accepted) */
} outcome_t;

static void outcome_free(outcome_t *o)
{
    free(o->text);
    o->text = NULL;
}

static outcome_t parse_once(const reply_t *c, counting_t *counter)
{
    contractc_allocator_t a = {counting_alloc, counting_free, counter};
    contractc_options_t options = {0};
    options.allocator = &a;
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, 0, &a);
    union {
        max_align_u align;
        unsigned char bytes[4096];
    } record;
    ck_assert_uint_le(c->contract->root->size, sizeof record.bytes);
    memset(record.bytes, 0xA5, sizeof record.bytes); /* poison: must come back zeroed */
    outcome_t o = {0};
    o.status = contractc_parse(c->contract, c->reply, c->reply_len, c->source,
                               c->source ? c->source_len : 0, &options, record.bytes, &problems);
    o.problems = contractc_problems_count(&problems);
    o.error_set = problems.error != NULL;
    o.record_zero = true;
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "%s fenced=%d\n", contractc_status_name(o.status), (int)problems.fenced);
    for (size_t i = 0; i < o.problems; i++) {
        const contractc_problem_t *p = contractc_problems_at(&problems, i);
        cc_buf_printf(&b, "%s %s %zu:%zu %s | %s\n", contractc_kind_name(p->kind), p->path, p->line,
                      p->column, p->message, p->log_message);
    }
    cc_buf_printf(&b, "dropped=%zu\n", problems.dropped);
    if (o.status == CONTRACTC_OK) {
        size_t len = 0;
        char *json = contractc_to_json(c->contract, record.bytes, &len);
        ck_assert_ptr_nonnull(json);
        cc_buf_append(&b, json, len);
        free(json);
        contractc_record_free(c->contract, record.bytes);
    } else {
        for (size_t i = 0; i < c->contract->root->size; i++)
            if (record.bytes[i] != 0)
                o.record_zero = false;
    }
    contractc_problems_clear(&problems);
    o.text = cc_buf_take(&b, NULL);
    return o;
}

START_TEST(every_allocation_of_every_reply_parse_fails_cleanly)
{
    size_t n = 0, points = 0, absorbed = 0, max_points = 0;
    reply_t *replies = load_replies(&n);
    ck_assert_uint_ge(n, 30);
    for (size_t i = 0; i < n; i++) {
        const reply_t *c = &replies[i];
        counting_t clean = {0};
        outcome_t o0 = parse_once(c, &clean);
        ck_assert_msg(o0.status == CONTRACTC_OK || o0.status == CONTRACTC_REJECTED,
                      "%s: clean run gave %s", c->id, contractc_status_name(o0.status));
        ck_assert_msg(clean.live == 0 && clean.bad_frees == 0,
                      "%s: clean run leaked %zu blocks, %zu bad frees", c->id, clean.live,
                      clean.bad_frees);
        ck_assert_msg(clean.calls > 0, "%s: no allocation to fail", c->id);
        for (size_t k = 1; k <= clean.calls; k++) {
            counting_t counter = {0};
            counter.fail_at = k;
            outcome_t o = parse_once(c, &counter);
            ck_assert_msg(counter.live == 0, "%s: allocation %zu failed and %zu blocks leaked", c->id,
                          k, counter.live);
            ck_assert_msg(counter.bad_frees == 0, "%s: allocation %zu: %zu frees with a wrong size",
                          c->id, k, counter.bad_frees);
            if (o.status == CONTRACTC_ENOMEM) {
                ck_assert_msg(o.error_set, "%s: allocation %zu failed without problems->error",
                              c->id, k);
                ck_assert_msg(o.problems == 0, "%s: allocation %zu failed and %zu problems remain",
                              c->id, k, o.problems);
                ck_assert_msg(o.record_zero, "%s: allocation %zu failed and the record is not zeroed",
                              c->id, k);
            } else {
                ck_assert_msg(strcmp(o.text, o0.text) == 0,
                              "%s: allocation %zu of %zu failed, status %s, and the outcome differs "
                              "from the clean run:\n%s\nclean:\n%s",
                              c->id, k, clean.calls, contractc_status_name(o.status), o.text, o0.text);
                absorbed++;
            }
            outcome_free(&o);
            points++;
        }
        /* one more than it needs: the same outcome as the clean run */
        counting_t over = {0};
        over.fail_at = clean.calls + 1;
        outcome_t o1 = parse_once(c, &over);
        ck_assert_str_eq(o1.text, o0.text);
        outcome_free(&o1);
        outcome_free(&o0);
        if (clean.calls > max_points)
            max_points = clean.calls;
    }
    printf("runtime allocation failures: %zu failure points over %zu replies (at most %zu in one "
           "parse): %zu CONTRACTC_ENOMEM with a zeroed record, %zu absorbed with the clean "
           "outcome unchanged; nothing leaked\n",
           points, n, max_points, points - absorbed, absorbed);
    free_replies(replies, n);
}
END_TEST

/* ---- the generator under the LD_PRELOAD shim ---------------------------- */

#ifdef CONTRACTC_ALLOC_SHIM

static const char *const artifact_ext[] = {".h", ".c", ".schema.json", ".prompt.txt"};

/* Runs `contractc generate CONTRACT -o DIR` with the shim failing call
 * `fail_at` (0: none).  Returns the wait status; stderr goes to err_path. */
static int run_generate(const char *contract, const char *dir, unsigned long fail_at,
                        const char *count_path, const char *err_path)
{
    fflush(stdout); /* else the child's freopen would write our buffer twice */
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char n[32];
        snprintf(n, sizeof n, "%lu", fail_at);
        setenv("LD_PRELOAD", CONTRACTC_ALLOC_SHIM, 1);
        setenv("CONTRACTC_FAIL_ALLOC", n, 1);
        setenv("CONTRACTC_ALLOC_COUNT", count_path, 1);
        if (!freopen(err_path, "w", stderr) || !freopen("/dev/null", "w", stdout))
            _exit(99);
        execl(CONTRACTC_EXE, CONTRACTC_EXE, "generate", contract, "-o", dir, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    return status;
}

/* Calls made from inside libcrypto, as ranges (the shim's second line). */
typedef struct crypto_calls {
    unsigned long lo[4096], hi[4096];
    size_t count;
} crypto_calls_t;

static bool in_crypto(const crypto_calls_t *c, unsigned long n)
{
    for (size_t i = 0; i < c->count; i++)
        if (n >= c->lo[i] && n <= c->hi[i])
            return true;
    return false;
}

static unsigned long read_count(const char *path, bool *failed, crypto_calls_t *crypto)
{
    size_t len = 0;
    char *text = cc_read_file(path, &len);
    ck_assert_msg(text != NULL, "the shim wrote no count to %s (not preloaded?)", path);
    unsigned long n = strtoul(text, NULL, 10);
    char *nl = strchr(text, '\n');
    *failed = nl ? memmem(text, (size_t)(nl - text), "failed", 6) != NULL : false;
    if (crypto) {
        crypto->count = 0;
        char *p = nl ? strstr(nl, "libcrypto:") : NULL;
        ck_assert_msg(p != NULL, "no libcrypto line in %s", path);
        p += strlen("libcrypto:");
        while (crypto->count < 4096) {
            char *end;
            unsigned long lo = strtoul(p, &end, 10);
            if (end == p || *end != '-')
                break;
            unsigned long hi = strtoul(end + 1, &p, 10);
            crypto->lo[crypto->count] = lo;
            crypto->hi[crypto->count++] = hi;
        }
    }
    free(text);
    return n;
}

static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    char path[1024];
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

/* ---- commands of the CLI under the shim ---------------------------------- */

/* Runs CONTRACTC_EXE with argv (argv[0] included, NULL-terminated) and the
 * shim failing call `fail_at` (0: none); stdout and stderr go to files.
 * Returns the wait status. */
static int run_cli_shim(const char *const *argv, unsigned long fail_at, const char *count_path,
                        const char *out_path, const char *err_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        char n[32];
        snprintf(n, sizeof n, "%lu", fail_at);
        setenv("LD_PRELOAD", CONTRACTC_ALLOC_SHIM, 1);
        setenv("CONTRACTC_FAIL_ALLOC", n, 1);
        setenv("CONTRACTC_ALLOC_COUNT", count_path, 1);
        if (!freopen(err_path, "w", stderr) || !freopen(out_path, "w", stdout))
            _exit(99);
        execv(CONTRACTC_EXE, (char *const *)argv);
        _exit(98);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    return status;
}

/* What a sweep of one command found, by outcome.  The command's result
 * exits are the codes below its error exit (stats: 0; validate: 0 and 1). */
typedef struct cli_sweep {
    unsigned long points, same, error_exits;
    unsigned long crypto_crashes; /* died inside libcrypto's start-up (OpenSSL 3.0: see sweep_contract) */
    unsigned long wrong;          /* a result exit with output other than the clean run's */
    unsigned long bad_exit;       /* neither a result exit nor the error exit */
    unsigned long no_message;     /* the error exit with nothing on stderr */
    unsigned long half_output;    /* the error exit with something on stdout */
    unsigned long signals;        /* killed by a signal outside libcrypto */
    unsigned long not_reached;
    char first_wrong[1200], first_other[1200];
} cli_sweep_t;

static void sweep_note(char *first, size_t size, const char *what, const char *detail)
{
    if (!*first)
        snprintf(first, size, "%.500s: %.600s", what, detail);
}

/* Sweeps one command line (`label` names it in messages): the clean run
 * gives the reference exit code (a result exit, below `error_code`) and
 * stdout, and stderr too when `same_stderr`; then every failure point (the
 * first 64, then every `stride`-th; libcrypto's calls every 13 * stride-th)
 * must give exactly that, or exit `error_code` with a message on stderr and
 * nothing on stdout. */
static void sweep_cli(const char *const *argv, const char *label, int error_code, bool same_stderr,
                      const char *work, unsigned long stride, cli_sweep_t *v)
{
    char count_path[512], out_path[512], err_path[512];
    snprintf(count_path, sizeof count_path, "%s/count", work);
    snprintf(out_path, sizeof out_path, "%s/stdout", work);
    snprintf(err_path, sizeof err_path, "%s/stderr", work);
    int st = run_cli_shim(argv, 0, count_path, out_path, err_path);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) < error_code, "%s: clean run failed", label);
    int clean_code = WEXITSTATUS(st);
    size_t ref_len = 0, ref_err_len = 0;
    char *ref = cc_read_file(out_path, &ref_len);
    char *ref_err = cc_read_file(err_path, &ref_err_len);
    ck_assert(ref && ref_err);
    ck_assert_uint_gt(ref_len, 0);
    bool failed = false;
    crypto_calls_t crypto;
    memset(&crypto, 0, sizeof crypto);
    unsigned long total = read_count(count_path, &failed, &crypto);
    unsigned long here = 0;
    for (unsigned long n = 1; n <= total; n++) {
        bool crypto_call = in_crypto(&crypto, n);
        if (n > 64 && (n - 1) % (crypto_call ? 13 * stride : stride) != 0)
            continue;
        char what[1200];
        snprintf(what, sizeof what, "%.1000s, allocation %lu of %lu failed", label, n, total);
        st = run_cli_shim(argv, n, count_path, out_path, err_path);
        here++;
        if (!WIFEXITED(st)) {
            char sig[32];
            snprintf(sig, sizeof sig, "signal %d", WTERMSIG(st));
            if (crypto_call) {
                v->crypto_crashes++;
            } else {
                v->signals++;
                sweep_note(v->first_other, sizeof v->first_other, what, sig);
            }
            continue;
        }
        int code = WEXITSTATUS(st);
        read_count(count_path, &failed, NULL);
        if (!failed) {
            v->not_reached++;
            sweep_note(v->first_other, sizeof v->first_other, what, "the shim never reached that call");
        }
        size_t out_len = 0, err_len = 0;
        char *out = cc_read_file(out_path, &out_len);
        char *err = cc_read_file(err_path, &err_len);
        ck_assert(out && err);
        char detail[900];
        snprintf(detail, sizeof detail, "exit %d, stdout \"%.300s\", stderr \"%.200s\"", code, out, err);
        bool same_out = out_len == ref_len && memcmp(out, ref, ref_len) == 0;
        bool same_err = !same_stderr || (err_len == ref_err_len && memcmp(err, ref_err, err_len) == 0);
        if (code == clean_code && same_out && same_err) {
            v->same++;
        } else if (code < error_code) {
            v->wrong++;
            sweep_note(v->first_wrong, sizeof v->first_wrong, what, detail);
        } else if (code != error_code) {
            v->bad_exit++;
            sweep_note(v->first_other, sizeof v->first_other, what, detail);
        } else {
            v->error_exits++;
            if (err_len == 0) {
                v->no_message++;
                sweep_note(v->first_other, sizeof v->first_other, what, detail);
            }
            if (out_len != 0) {
                v->half_output++;
                sweep_note(v->first_other, sizeof v->first_other, what, detail);
            }
        }
        free(out);
        free(err);
    }
    printf("%s: %lu of %lu malloc calls failed in turn\n", label, here, total);
    v->points += here;
    free(ref);
    free(ref_err);
    unlink(count_path);
    unlink(out_path);
    unlink(err_path);
}

/* The log of an earlier release (tests/data/logs/df421cc.log: every
 * outcome, two contracts, several days and models) followed by bad lines
 * of several kinds and a blank one, as text and as --json. */
START_TEST(every_malloc_of_contractc_stats_fails_cleanly_or_not_at_all)
{
    const char *s = getenv("CONTRACTC_ALLOC_STRIDE");
    unsigned long stride = s && *s ? strtoul(s, NULL, 10) : 13;
    if (stride == 0)
        stride = 1;
    char work[] = "/tmp/contractc-alloc-stats-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(work));
    char log[600];
    snprintf(log, sizeof log, "%s/decisions.log", work);
    size_t len = 0;
    char *text = cc_read_file(CONTRACTC_TEST_DATA "/logs/df421cc.log", &len);
    ck_assert_ptr_nonnull(text);
    FILE *f = fopen(log, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    fputs("\n{\"log\":\"contractc-log/1\",\"time\":\"2025-05-0\n"
          "[1,2]\n"
          "{\"log\":\"contractc-log/1\",\"time\":\"2025-05-01T09:00:00Z\",\"contract\":\"c\",\"version\":1.5}\n",
          f);
    fclose(f);
    free(text);
    cli_sweep_t v;
    memset(&v, 0, sizeof v);
    /* Exit 0 with exactly the clean run's stdout and stderr, or exit 1. */
    const char *text_argv[] = {CONTRACTC_EXE, "stats", log, NULL};
    const char *json_argv[] = {CONTRACTC_EXE, "stats", log, "--json", NULL};
    sweep_cli(text_argv, "stats allocation failures: stats", 1, true, work, stride, &v);
    sweep_cli(json_argv, "stats allocation failures: stats --json", 1, true, work, stride, &v);
    unlink(log);
    rmdir(work);
    printf("stats allocation failures: %lu failure points over stats and stats --json (every call "
           "up to 64, then every %lu): %lu gave the clean output, %lu exit 1 with a message and no "
           "output, %lu silently wrong (exit 0, other output)\n",
           v.points, stride, v.same, v.error_exits, v.wrong);
    if (v.first_wrong[0])
        printf("VIOLATION silently wrong output: %lu runs; first: %s\n", v.wrong, v.first_wrong);
    if (v.first_other[0])
        printf("VIOLATION other: %lu signals, %lu other exit codes, %lu exit 1 without a message, "
               "%lu exit 1 with output, %lu not reached; first: %s\n",
               v.signals, v.bad_exit, v.no_message, v.half_output, v.not_reached, v.first_other);
    ck_assert_msg(v.wrong == 0, "%lu runs gave silently wrong output", v.wrong);
    ck_assert_msg(v.signals + v.bad_exit + v.no_message + v.half_output + v.not_reached == 0,
                  "stats broke the allocation-failure contract (listed above)");
}
END_TEST

/* Violations found by the sweep: counted by category, the first of each
 * kept as an example, all reported together at the end. */
typedef struct violations {
    unsigned long count[6];
    char first[6][1024];
} violations_t;

enum { V_SIGNAL, V_EXIT_CODE, V_NO_MESSAGE, V_LEFTOVER, V_NOT_COMPLETE, V_NOT_REACHED };
static const char *const violation_names[] = {
    "killed by a signal", "exit code other than 0 or 1", "error exit without a message",
    "file left behind that is not an artifact", "artifact not byte-identical to a clean run",
    "failure point not reached (nondeterministic run)"};

static void violation(violations_t *v, int kind, const char *what, const char *detail)
{
    if (v->count[kind]++ == 0)
        snprintf(v->first[kind], sizeof v->first[kind], "%.600s: %.400s", what, detail);
}

/* Checks DIR after a run: only the four artifact names, each byte-identical
 * to the reference.  Returns how many artifacts are present. */
static size_t check_dir(const char *dir, const char *name, char *const ref[4],
                        const size_t ref_len[4], const char *what, violations_t *v)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    size_t present = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t k = 0;
        for (; k < 4; k++) {
            char want[256];
            snprintf(want, sizeof want, "%s%s", name, artifact_ext[k]);
            if (strcmp(e->d_name, want) == 0)
                break;
        }
        if (k == 4) {
            violation(v, V_LEFTOVER, what, e->d_name);
            continue;
        }
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *have = cc_read_file(path, &len);
        if (!(have && len == ref_len[k] && memcmp(have, ref[k], len) == 0))
            violation(v, V_NOT_COMPLETE, what, e->d_name);
        free(have);
        present++;
    }
    closedir(d);
    return present;
}

static void sweep_contract(const char *contract, const char *work, unsigned long stride,
                           unsigned long *points, unsigned long *partial_sets, violations_t *v)
{
    char dir[512], count_path[512], err_path[512], name[256];
    snprintf(dir, sizeof dir, "%s/out", work);
    snprintf(count_path, sizeof count_path, "%s/count", work);
    snprintf(err_path, sizeof err_path, "%s/stderr", work);
    ck_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
    const char *base = strrchr(contract, '/');
    base = base ? base + 1 : contract;
    snprintf(name, sizeof name, "%s", base);
    char *dot = strstr(name, ".contract.yaml");
    ck_assert_ptr_nonnull(dot);
    *dot = '\0';

    /* the clean run: the reference artifacts and the number of calls */
    empty_dir(dir);
    int st = run_generate(contract, dir, 0, count_path, err_path);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: clean run failed", contract);
    bool failed = false;
    static crypto_calls_t crypto;
    unsigned long total = read_count(count_path, &failed, &crypto);
    ck_assert_uint_gt(total, 0);
    char *ref[4];
    size_t ref_len[4];
    for (size_t k = 0; k < 4; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s%s", dir, name, artifact_ext[k]);
        ref[k] = cc_read_file(path, &ref_len[k]);
        ck_assert_msg(ref[k] != NULL, "%s: clean run wrote no %s", contract, path);
    }

    unsigned long here = 0, partial = 0, clean_exits = 0, crypto_total = 0, crypto_run = 0;
    unsigned long crypto_crashes = 0;
    char crypto_first[700] = "";
    for (unsigned long n = 1; n <= total; n++) {
        /* every call up to 64, then every `stride`-th; of libcrypto's own
         * calls (its start-up absorbs failures) every 13 * stride-th */
        bool crypto_call = in_crypto(&crypto, n);
        crypto_total += crypto_call;
        if (n > 64 && (n - 1) % (crypto_call ? 13 * stride : stride) != 0)
            continue;
        crypto_run += crypto_call;
        /* into an empty directory; and, in the last calls (where the files
         * are written) and every 16th before, over a complete generation */
        int passes = (n + 400 > total || n % 16 == 1) ? 2 : 1;
        for (int over = 0; over < passes; over++) {
            char what[600];
            snprintf(what, sizeof what, "%s, allocation %lu of %lu failed%s", contract, n, total,
                     over ? " over a complete generation" : "");
            empty_dir(dir);
            if (over) {
                for (size_t k = 0; k < 4; k++) {
                    char path[1024];
                    snprintf(path, sizeof path, "%s/%s%s", dir, name, artifact_ext[k]);
                    FILE *f = fopen(path, "wb");
                    ck_assert_ptr_nonnull(f);
                    ck_assert_uint_eq(fwrite(ref[k], 1, ref_len[k], f), ref_len[k]);
                    fclose(f);
                }
            }
            st = run_generate(contract, dir, n, count_path, err_path);
            if (!WIFEXITED(st)) {
                char sig[32];
                snprintf(sig, sizeof sig, "signal %d", WTERMSIG(st));
                if (crypto_call) {
                    /* OpenSSL 3.0 does not check every allocation of its
                     * own start-up (CRYPTO_THREAD_lock_new's result is used
                     * unchecked by EVP_MD_fetch): reported, not ours */
                    if (crypto_crashes++ == 0)
                        snprintf(crypto_first, sizeof crypto_first, "%.600s: %s", what, sig);
                } else {
                    violation(v, V_SIGNAL, what, sig);
                }
                continue;
            }
            int code = WEXITSTATUS(st);
            read_count(count_path, &failed, NULL);
            if (!failed)
                violation(v, V_NOT_REACHED, what, "the shim never reached that call");
            size_t present = check_dir(dir, name, ref, ref_len, what, v);
            size_t elen = 0;
            char *etext = cc_read_file(err_path, &elen);
            if (code == 0) {
                /* a failure that was handled (a retry, a smaller buffer): the
                 * output must be the whole, identical generation */
                if (present != 4)
                    violation(v, V_NOT_COMPLETE, what, "exit 0 without all four artifacts");
                clean_exits++;
            } else {
                char detail[300];
                snprintf(detail, sizeof detail, "exit %d, stderr \"%.200s\"", code,
                         etext ? etext : "");
                if (code != 1)
                    violation(v, V_EXIT_CODE, what, detail);
                if (!etext || elen == 0)
                    violation(v, V_NO_MESSAGE, what, detail);
                if (!over && present != 0)
                    partial++;
                if (over && present != 4)
                    violation(v, V_NOT_COMPLETE, what, "an earlier complete artifact was removed");
            }
            free(etext);
        }
        here++;
    }
    printf("generator allocation failures: %s: %lu of %lu malloc calls failed in turn (%lu of the "
           "%lu made by the generator, libyaml, cJSON and libc; %lu of the %lu made inside "
           "libcrypto), in an empty output directory and, for the last 400 and every 16th, over a "
           "complete generation; %lu runs absorbed the failure (exit 0, identical output); %lu "
           "error exits left a subset of complete artifacts in an empty directory\n",
           contract, here, total, here - crypto_run, total - crypto_total, crypto_run, crypto_total,
           clean_exits, partial);
    if (crypto_crashes)
        printf("generator allocation failures: %s: %lu runs died inside libcrypto after one of its "
               "own allocations failed (an OpenSSL 3.0 limitation, not counted); first: %s\n",
               contract, crypto_crashes, crypto_first);
    *points += here;
    *partial_sets += partial;
    for (size_t k = 0; k < 4; k++)
        free(ref[k]);
    empty_dir(dir);
    rmdir(dir);
    unlink(count_path);
    unlink(err_path);
}

START_TEST(every_malloc_of_contractc_generate_can_fail_without_a_partial_artifact)
{
    const char *s = getenv("CONTRACTC_ALLOC_STRIDE");
    unsigned long stride = s && *s ? strtoul(s, NULL, 10) : 13;
    if (stride == 0)
        stride = 1;
    char work[] = "/tmp/contractc-alloc-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(work));
    glob_t g;
    memset(&g, 0, sizeof g);
    const char *only = getenv("CONTRACTC_ALLOC_CONTRACT"); /* one contract, for debugging */
    if (only && *only) {
        ck_assert_int_eq(glob(only, 0, NULL, &g), 0);
    } else {
        ck_assert_int_eq(glob(CONTRACTC_SOURCE_DIR "/examples/*/*.contract.yaml", 0, NULL, &g), 0);
        ck_assert_int_eq(glob(CONTRACTC_TEST_DATA "/contracts/*.contract.yaml", GLOB_APPEND, NULL, &g),
                         0);
    }
    unsigned long points = 0, partial = 0, bad = 0;
    violations_t v;
    memset(&v, 0, sizeof v);
    /* the examples share contracts: each distinct text once */
    char *seen[64];
    size_t seen_count = 0;
    for (size_t i = 0; i < g.gl_pathc && seen_count < 64; i++) {
        /* examples/consumer-*: copies for out-of-tree builds (tests/integration/),
         * one with its own schema dialect, whose files this sweep does not know */
        if (!(only && *only) && strstr(g.gl_pathv[i], "/examples/consumer-"))
            continue;
        char *text = cc_read_file(g.gl_pathv[i], NULL);
        ck_assert_ptr_nonnull(text);
        bool dup = false;
        for (size_t k = 0; k < seen_count && !dup; k++)
            dup = strcmp(seen[k], text) == 0;
        if (dup) {
            free(text);
            continue;
        }
        seen[seen_count++] = text;
        sweep_contract(g.gl_pathv[i], work, stride, &points, &partial, &v);
    }
    for (size_t k = 0; k < seen_count; k++)
        free(seen[k]);
    printf("generator allocation failures: %lu failure points over %zu distinct contracts (every "
           "call up to 64, then every %lu)\n",
           points, seen_count, stride);
    for (int k = 0; k < 6; k++) {
        if (v.count[k]) {
            printf("VIOLATION %s: %lu runs; first: %s\n", violation_names[k], v.count[k], v.first[k]);
            bad += v.count[k];
        }
    }
    ck_assert_uint_ge(seen_count, only && *only ? 1 : 2);
    globfree(&g);
    rmdir(work);
    ck_assert_msg(bad == 0, "%lu runs broke the allocation-failure contract (listed above)", bad);
}
END_TEST

/* Every example reply with its source text, from examples/NAME/data/cases.txt
 * ("REPLY SOURCE expected ..."): accepted and rejected replies, grounded
 * values, sums, a `check` rule that the CLI names under not_run. */
START_TEST(every_malloc_of_contractc_validate_json_fails_cleanly_or_not_at_all)
{
    const char *s = getenv("CONTRACTC_ALLOC_STRIDE");
    unsigned long stride = s && *s ? strtoul(s, NULL, 10) : 13;
    if (stride == 0)
        stride = 1;
    char work[] = "/tmp/contractc-alloc-validate-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(work));
    glob_t g;
    memset(&g, 0, sizeof g);
    ck_assert_int_eq(glob(CONTRACTC_SOURCE_DIR "/examples/*/data/cases.txt", 0, NULL, &g), 0);
    cli_sweep_t v;
    memset(&v, 0, sizeof v);
    size_t replies = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char data[512], example[512], contract[1024];
        snprintf(data, sizeof data, "%s", g.gl_pathv[i]);
        *strrchr(data, '/') = '\0';                     /* examples/NAME/data */
        snprintf(example, sizeof example, "%s", data);
        *strrchr(example, '/') = '\0';                  /* examples/NAME */
        glob_t cg;
        memset(&cg, 0, sizeof cg);
        char pattern[1100];
        snprintf(pattern, sizeof pattern, "%s/*.contract.yaml", example);
        ck_assert_int_eq(glob(pattern, 0, NULL, &cg), 0);
        snprintf(contract, sizeof contract, "%s", cg.gl_pathv[0]);
        globfree(&cg);
        /* the invoice's texts are shown to the reader only: its contract has no source */
        char *contract_text = cc_read_file(contract, NULL);
        ck_assert_ptr_nonnull(contract_text);
        bool has_source = strncmp(contract_text, "source:", 7) == 0 || strstr(contract_text, "\nsource:");
        free(contract_text);
        char *text = cc_read_file(g.gl_pathv[i], NULL);
        ck_assert_ptr_nonnull(text);
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char reply_file[256], source_file[256];
            if (line[0] == '#' || sscanf(line, "%255s %255s", reply_file, source_file) != 2)
                continue;
            char reply[1024], source[1024];
            snprintf(reply, sizeof reply, "%s/%s", data, reply_file);
            snprintf(source, sizeof source, "%s/%s", data, source_file);
            /* The clean exit (0 accepted, 1 rejected) with its stdout, or exit 2. */
            const char *argv[] = {CONTRACTC_EXE, "validate", contract, reply, "--json",
                                  has_source ? "--source" : NULL, source, NULL};
            char label[1200];
            snprintf(label, sizeof label, "validate allocation failures: %.1000s", reply);
            sweep_cli(argv, label, 2, false, work, stride, &v);
            replies++;
        }
        free(text);
    }
    globfree(&g);
    rmdir(work);
    printf("validate allocation failures: %lu failure points over %zu replies (every call up to 64, "
           "then every %lu; libcrypto's every %lu): %lu gave the clean output, %lu exit 2 with a "
           "message and no output, %lu silently wrong (exit 0 or 1, other output); %lu died inside "
           "libcrypto (OpenSSL 3.0, not counted)\n",
           v.points, replies, stride, 13 * stride, v.same, v.error_exits, v.wrong, v.crypto_crashes);
    if (v.first_wrong[0])
        printf("VIOLATION silently wrong output: %lu runs; first: %s\n", v.wrong, v.first_wrong);
    if (v.first_other[0])
        printf("VIOLATION other: %lu signals, %lu other exit codes, %lu exit 2 without a message, "
               "%lu exit 2 with output, %lu not reached; first: %s\n",
               v.signals, v.bad_exit, v.no_message, v.half_output, v.not_reached, v.first_other);
    ck_assert_uint_ge(replies, 10);
    ck_assert_msg(v.wrong == 0, "%lu runs gave silently wrong output", v.wrong);
    ck_assert_msg(v.signals + v.bad_exit + v.no_message + v.half_output + v.not_reached == 0,
                  "validate broke the allocation-failure contract (listed above)");
}
END_TEST

#endif

int main(void)
{
    Suite *s = suite_create("allocation failures");
    TCase *rt = tcase_create("runtime");
    tcase_set_timeout(rt, 600);
    tcase_add_test(rt, every_allocation_of_every_reply_parse_fails_cleanly);
    suite_add_tcase(s, rt);
#ifdef CONTRACTC_ALLOC_SHIM
    TCase *st = tcase_create("stats");
    tcase_set_timeout(st, 3600);
    tcase_add_test(st, every_malloc_of_contractc_stats_fails_cleanly_or_not_at_all);
    suite_add_tcase(s, st);
    TCase *gen = tcase_create("generator");
    tcase_set_timeout(gen, 3600);
    tcase_add_test(gen, every_malloc_of_contractc_generate_can_fail_without_a_partial_artifact);
    suite_add_tcase(s, gen);
    TCase *val = tcase_create("validate");
    tcase_set_timeout(val, 3600);
    tcase_add_test(val, every_malloc_of_contractc_validate_json_fails_cleanly_or_not_at_all);
    suite_add_tcase(s, val);
#else
    printf("SKIPPED: the generator's LD_PRELOAD allocation-failure sweep needs a build without "
           "sanitizers (ASan replaces malloc, so the shim cannot be preloaded)\n");
#endif
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
