/* SPDX-License-Identifier: MIT */
/*
 * test_stream.c - the push parser (contractc_stream_*, docs/contract-language.md
 * §18) against the one-shot parser, byte for byte.
 *
 * Every reply of tests/data/cases/replies.jsonl and of the benchmark's
 * seeded corpora (bench_gen_corpus: refund, invoice, repo_map) is fed in
 * four chunkings (1 byte, 64 bytes, seeded random sizes, whole), each
 * through the in-memory tables of its contract, and:
 *
 *   - finishing gives exactly the one-shot result: status, every problem's
 *     kind, path, message, log message, rule, line and column, `dropped`,
 *     `fenced`, and the canonical record (contractc_to_json); the one
 *     exception is §18's: a reply that is DEAD and then ends inside a value
 *     finishes with the problems found before that end, not the one-shot's
 *     problem for the end (`syntax`, or `encoding` for a UTF-8 sequence
 *     cut off; counted, and checked to be such);
 *   - an accepted reply is never DEAD and ends COMPLETE;
 *   - a DEAD reply is rejected by the one-shot parser;
 *   - dead_at is the same in every chunking, inside the reply, and the
 *     prefix up to it was not DEAD;
 *   - finishing right at DEAD gives problems that are the first ones of the
 *     final list, unless that list is one document-level problem (which
 *     replaces the others, as in the one-shot parser); when both are
 *     document-level they are at the same place.
 *
 * The typed functions of a generated parser (NAME_stream_new/_finish) are
 * tested on refund_request.
 */
#include <check.h>
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"
#include "generator.h"
#include "invoice.h"
#include "refund_request.h"
#include "tables.h"

#define CASES CONTRACTC_TEST_DATA "/cases/replies.jsonl"
#define CONTRACTS CONTRACTC_TEST_DATA "/contracts/"
#define GEN_CORPUS CONTRACTC_BINARY_DIR "/bench/bench_gen_corpus"

enum { CHUNK_ONE, CHUNK_64, CHUNK_RANDOM, CHUNK_WHOLE, N_CHUNKINGS };
static const char *const chunking_names[N_CHUNKINGS] = {"1 byte", "64 bytes", "random", "whole"};

/* A contract loaded into in-memory tables. */
typedef struct loaded {
    cc_contract_t *model;
    cc_artifacts_t arts;
    cc_tables_t *tables;
} loaded_t;

static void load(loaded_t *l, const char *path)
{
    cc_diags_t d;
    cc_diags_init(&d);
    l->model = cc_contract_load(path, &d);
    ck_assert_msg(l->model && d.errors == 0, "cannot load %s", path);
    cc_diags_free(&d);
    ck_assert(cc_build_artifacts(l->model, &l->arts));
    l->tables = cc_tables_build(l->model, l->arts.hash);
    ck_assert_ptr_nonnull(l->tables);
}

static void unload(loaded_t *l)
{
    cc_tables_free(l->tables);
    cc_artifacts_free(&l->arts);
    cc_contract_free(l->model);
}

/* Everything a parse gives, as one text. */
static char *describe(const contractc_contract_t *k, contractc_status_t rc, const void *record,
                      const contractc_problems_t *p)
{
    cc_buf_t b = CC_BUF_INIT;
    char line[128];
    snprintf(line, sizeof line, "%s dropped=%zu fenced=%d\n", contractc_status_name(rc), p->dropped,
             (int)p->fenced);
    cc_buf_puts(&b, line);
    for (size_t i = 0; i < contractc_problems_count(p); i++) {
        const contractc_problem_t *q = contractc_problems_at(p, i);
        snprintf(line, sizeof line, "%s %zu:%zu ", contractc_kind_name(q->kind), q->line, q->column);
        cc_buf_puts(&b, line);
        cc_buf_puts(&b, q->path);
        cc_buf_puts(&b, " | ");
        cc_buf_puts(&b, q->message);
        cc_buf_puts(&b, " | ");
        cc_buf_puts(&b, q->log_message);
        cc_buf_puts(&b, " | ");
        cc_buf_puts(&b, q->rule ? q->rule : "-");
        cc_buf_putc(&b, '\n');
    }
    if (rc == CONTRACTC_OK) {
        char *json = contractc_to_json(k, record, NULL);
        ck_assert_ptr_nonnull(json);
        cc_buf_puts(&b, json);
        free(json);
    }
    return cc_buf_take(&b, NULL);
}

/* One reply to stream. */
typedef struct reply {
    const contractc_contract_t *k;
    const char *name;
    const char *text;
    size_t len;
    const char *source;
    size_t source_len;
} reply_t;

enum { MAX_REJECTED = 4096 };

typedef struct tally {
    size_t replies, runs, dead, exceptions, accepted;
    size_t feeds;
    /* Early rejection, over the rejected replies: dead_at / length (1 when
     * only the end rejects it), and the bytes not read by a caller that
     * stops at DEAD, in chunks of 1 byte and of 64. */
    size_t rejected, rejected_bytes, saved1_total, saved64_total;
    double frac[MAX_REJECTED], saved1[MAX_REJECTED], saved64[MAX_REJECTED];
} tally_t;

static char *one_shot(const reply_t *r, contractc_status_t *rc_out)
{
    void *record = calloc(1, r->k->root->size);
    contractc_problems_t p;
    contractc_problems_init(&p);
    contractc_status_t rc = contractc_parse(r->k, r->text, r->len, r->source, r->source_len, NULL,
                                            record, &p);
    char *d = describe(r->k, rc, record, &p);
    *rc_out = rc;
    contractc_record_free(r->k, record);
    contractc_problems_clear(&p);
    free(record);
    return d;
}

static uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static size_t chunk_size(int chunking, uint64_t *rng, size_t left)
{
    size_t n = chunking == CHUNK_ONE ? 1 : chunking == CHUNK_64 ? 64
               : chunking == CHUNK_RANDOM ? 1 + (size_t)(rng_next(rng) % 97) : left;
    return n < left ? n : left;
}

/* Whether the first n problems of `known` (a finish at DEAD) begin `final`. */
static bool is_prefix_of(const contractc_problems_t *known, const contractc_problems_t *final)
{
    size_t n = contractc_problems_count(known);
    if (n > contractc_problems_count(final))
        return false;
    for (size_t i = 0; i < n; i++) {
        const contractc_problem_t *a = contractc_problems_at(known, i), *b = contractc_problems_at(final, i);
        if (a->kind != b->kind || strcmp(a->path, b->path) != 0 || strcmp(a->message, b->message) != 0)
            return false;
    }
    return true;
}

static bool all_document_level(const contractc_problems_t *p)
{
    for (size_t i = 0; i < contractc_problems_count(p); i++)
        if (!contractc_kind_is_document_level(contractc_problems_at(p, i)->kind))
            return false;
    return contractc_problems_count(p) > 0;
}

/* The byte offset of a 1-based line and byte column. */
static size_t offset_of(const char *text, size_t len, size_t line, size_t column)
{
    size_t i = 0;
    for (size_t l = 1; l < line && i < len; i++)
        if (text[i] == '\n')
            l++;
    return i + column - 1;
}

static void stream_one(const reply_t *r, size_t index, tally_t *t)
{
    contractc_status_t want_rc;
    char *want = one_shot(r, &want_rc);
    size_t dead_at_first = SIZE_MAX;
    t->replies++;
    if (want_rc == CONTRACTC_OK)
        t->accepted++;
    for (int ch = 0; ch < N_CHUNKINGS; ch++) {
        uint64_t rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)index;
        contractc_stream_t *s = contractc_stream_new(r->k, r->source, r->source_len, NULL);
        ck_assert_ptr_nonnull(s);
        contractc_stream_state_t st = CONTRACTC_STREAM_VIABLE;
        size_t off = 0, dead_fed = 0;
        bool was_dead = false;
        char *known = NULL;
        contractc_problems_t kp;
        contractc_problems_init(&kp);
        while (off < r->len) {
            size_t n = chunk_size(ch, &rng, r->len - off);
            contractc_stream_state_t before = st;
            st = contractc_stream_feed(s, r->text + off, n);
            off += n;
            t->feeds++;
            ck_assert_msg(st != CONTRACTC_STREAM_ERROR, "%s: ERROR", r->name);
            ck_assert_msg(before != CONTRACTC_STREAM_DEAD || st == CONTRACTC_STREAM_DEAD,
                          "%s: DEAD came back to life", r->name);
            if (st == CONTRACTC_STREAM_DEAD && !was_dead) {
                was_dead = true;
                dead_fed = off;
                /* Finish right at DEAD: the problems known then. */
                void *rec = calloc(1, r->k->root->size);
                contractc_status_t krc = contractc_stream_finish(s, rec, &kp);
                ck_assert_msg(krc == CONTRACTC_REJECTED, "%s (%s): finish at DEAD gave %s", r->name,
                              chunking_names[ch], contractc_status_name(krc));
                known = describe(r->k, krc, rec, &kp);
                contractc_record_free(r->k, rec);
                free(rec);
            }
        }
        void *record = calloc(1, r->k->root->size);
        contractc_problems_t p;
        contractc_problems_init(&p);
        contractc_status_t rc = contractc_stream_finish(s, record, &p);
        char *got = describe(r->k, rc, record, &p);
        /* finish ran any check the feeds put off (stream.c): past the first
         * 4 KiB, a DEAD may be known only now. */
        size_t dead_at = contractc_stream_dead_at(s);
        if (!was_dead && dead_at != SIZE_MAX) {
            was_dead = true;
            dead_fed = r->len;
        }
        t->runs++;
        if (want_rc == CONTRACTC_REJECTED && (ch == CHUNK_ONE || ch == CHUNK_64) &&
            t->rejected < MAX_REJECTED) {
            const size_t saved = was_dead ? r->len - dead_fed : 0;
            if (ch == CHUNK_ONE) {
                t->frac[t->rejected] = r->len ? (double)(was_dead ? dead_at : r->len) / (double)r->len : 1.0;
                t->saved1[t->rejected] = (double)saved;
                t->saved1_total += saved;
                t->rejected_bytes += r->len;
            } else {
                t->saved64[t->rejected] = (double)saved;
                t->saved64_total += saved;
                t->rejected++;
            }
        }
        if (want_rc == CONTRACTC_OK) {
            ck_assert_msg(!was_dead, "%s (%s): an accepted reply went DEAD at %zu", r->name,
                          chunking_names[ch], dead_at);
            ck_assert_msg(st == CONTRACTC_STREAM_COMPLETE, "%s (%s): accepted, but the stream ends %d",
                          r->name, chunking_names[ch], (int)st);
        }
        if (was_dead) {
            t->dead++;
            ck_assert_msg(want_rc == CONTRACTC_REJECTED, "%s: DEAD, but the one-shot parser says %s",
                          r->name, contractc_status_name(want_rc));
            ck_assert_msg(dead_at < dead_fed && dead_at < r->len, "%s (%s): dead_at %zu past %zu", r->name,
                          chunking_names[ch], dead_at, dead_fed);
            /* Reported late only past the first 4 KiB, by at most an eighth
             * of what was checked before (stream.c). */
            ck_assert_msg(dead_fed - dead_at <= (ch == CHUNK_WHOLE ? r->len : 97) ||
                              (dead_at >= 4096 && dead_fed - dead_at <= dead_at / 8 + 97),
                          "%s (%s): dead_at %zu, said DEAD after %zu bytes", r->name, chunking_names[ch],
                          dead_at, dead_fed);
            if (ch == 0)
                dead_at_first = dead_at;
            ck_assert_msg(dead_at == dead_at_first, "%s: dead_at %zu in chunks of %s, %zu in 1 byte", r->name,
                          dead_at, chunking_names[ch], dead_at_first);
            /* The problems known at DEAD begin the final list, unless one
             * document-level problem replaced them. */
            contractc_problems_t wp;
            contractc_problems_init(&wp);
            void *wrec = calloc(1, r->k->root->size);
            contractc_parse(r->k, r->text, r->len, r->source, r->source_len, NULL, wrec, &wp);
            if (!all_document_level(&wp)) {
                ck_assert_msg(is_prefix_of(&kp, &wp), "%s (%s): known at DEAD\n%s\nis no prefix of\n%s",
                              r->name, chunking_names[ch], known, want);
            } else if (all_document_level(&kp)) {
                const contractc_problem_t *a = contractc_problems_at(&kp, 0), *b = contractc_problems_at(&wp, 0);
                size_t ko = offset_of(r->text, r->len, a->line, a->column);
                size_t wo = offset_of(r->text, r->len, b->line, b->column);
                ck_assert_msg(ko == wo && dead_at >= wo,
                              "%s (%s): at DEAD (dead_at %zu)\n%s\nbut finally\n%s", r->name,
                              chunking_names[ch], dead_at, known, want);
            }
            contractc_problems_clear(&wp);
            free(wrec);
        } else {
            ck_assert_msg(dead_at == SIZE_MAX, "%s: dead_at %zu while not DEAD", r->name, dead_at);
            ck_assert_msg(dead_at_first == SIZE_MAX, "%s: DEAD in 1-byte chunks only", r->name);
        }
        if (!known && was_dead)
            known = strdup(got); /* DEAD only at finish: what finish gave */
        if (strcmp(got, want) != 0) {
            /* §18: stopped at DEAD inside a value, the problems found
             * before that end, where the one-shot parser has one problem
             * for the end alone. */
            const char *gb = strchr(got, '\n'), *kb = known ? strchr(known, '\n') : NULL;
            ck_assert_msg(was_dead && rc == CONTRACTC_REJECTED && kb && gb &&
                              strncmp(gb, kb, strlen(kb)) == 0 && !all_document_level(&p) &&
                              want_rc == CONTRACTC_REJECTED &&
                              (strstr(want, "\nsyntax ") != NULL || strstr(want, "\nencoding ") != NULL) &&
                              strchr(strchr(want, '\n') + 1, '\n')[1] == '\0',
                          "%s (%s): the stream gives\n%s\nthe one-shot parser\n%s", r->name,
                          chunking_names[ch], got, want);
            t->exceptions++;
        }
        free(got);
        free(known);
        contractc_record_free(r->k, record);
        contractc_problems_clear(&p);
        contractc_problems_clear(&kp);
        free(record);
        contractc_stream_free(s);
    }
    free(want);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median and the 90th percentile (nearest rank) of v[0..n). */
static void quantiles(double *v, size_t n, double *median, double *p90)
{
    *median = *p90 = 0;
    if (!n)
        return;
    qsort(v, n, sizeof *v, cmp_double);
    *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    size_t k = (9 * n + 9) / 10;
    *p90 = v[k ? k - 1 : 0];
}

static void print_tally(const char *what, tally_t *t)
{
    printf("%s: %zu replies x %d chunkings = %zu runs agree (%zu accepted replies; %zu DEAD runs; "
           "%zu finished with the problems known at DEAD, §18)\n",
           what, t->replies, N_CHUNKINGS, t->runs, t->accepted, t->dead, t->exceptions);
    double fm, fp, s1m, s1p, s64m, s64p;
    quantiles(t->frac, t->rejected, &fm, &fp);
    quantiles(t->saved1, t->rejected, &s1m, &s1p);
    quantiles(t->saved64, t->rejected, &s64m, &s64p);
    printf("%s: early rejection over %zu rejected replies (%zu bytes): dead_at/length median %.3f, "
           "p90 %.3f; bytes not read when stopping at DEAD: 1-byte chunks median %.0f, p90 %.0f, "
           "total %zu (%.1f %%); 64-byte chunks median %.0f, p90 %.0f, total %zu (%.1f %%)\n",
           what, t->rejected, t->rejected_bytes, fm, fp, s1m, s1p, t->saved1_total,
           t->rejected_bytes ? 100.0 * (double)t->saved1_total / (double)t->rejected_bytes : 0.0,
           s64m, s64p, t->saved64_total,
           t->rejected_bytes ? 100.0 * (double)t->saved64_total / (double)t->rejected_bytes : 0.0);
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
    s[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return s;
}

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
    size_t n = strlen(s), o = 0;
    char *out = malloc(n / 4 * 3 + 4);
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n && s[i] != '='; i++) {
        acc = (acc << 6) | (unsigned)b64((unsigned char)s[i]);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xFF);
        }
    }
    *len = o;
    return out;
}

START_TEST(every_reply_case_streams_as_it_parses)
{
    const char *names[] = {"refund_request", "invoice", "signup_form", "support_route", "sensor_log",
                           "asset_tags", "api_capture", "flex_values"};
    enum { N_CONTRACTS = 8 };
    loaded_t l[N_CONTRACTS];
    for (int k = 0; k < N_CONTRACTS; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s.contract.yaml", CONTRACTS, names[k]);
        load(&l[k], path);
    }
    size_t len;
    char *text = read_all(CASES, &len), *save = NULL;
    static tally_t t;
    memset(&t, 0, sizeof t);
    size_t index = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *j = cJSON_Parse(line);
        ck_assert_ptr_nonnull(j);
        const char *contract = cJSON_GetObjectItemCaseSensitive(j, "contract")->valuestring;
        int k = 0;
        while (k + 1 < N_CONTRACTS && strcmp(contract, names[k]) != 0)
            k++;
        ck_assert_str_eq(contract, names[k]);
        cJSON *src = cJSON_GetObjectItemCaseSensitive(j, "source_text");
        const char *raw = cJSON_GetObjectItemCaseSensitive(j, "reply")->valuestring;
        cJSON *enc = cJSON_GetObjectItemCaseSensitive(j, "reply_encoding");
        reply_t r;
        r.k = &l[k].tables->contract;
        r.name = cJSON_GetObjectItemCaseSensitive(j, "id")->valuestring;
        r.source = cJSON_IsString(src) ? src->valuestring : NULL;
        r.source_len = r.source ? strlen(r.source) : 0;
        char *decoded = NULL;
        if (cJSON_IsString(enc) && strcmp(enc->valuestring, "base64") == 0) {
            decoded = base64_decode(raw, &r.len);
            r.text = decoded;
        } else {
            r.text = raw;
            r.len = strlen(raw);
        }
        stream_one(&r, index++, &t);
        free(decoded);
        cJSON_Delete(j);
    }
    print_tally("reply cases", &t);
    ck_assert_uint_ge(t.replies, 100);
    ck_assert_uint_gt(t.dead, 0);
    free(text);
    for (int k = 0; k < N_CONTRACTS; k++)
        unload(&l[k]);
}
END_TEST

START_TEST(every_bench_reply_streams_as_it_parses)
{
    const char *dir = CONTRACTC_BINARY_DIR "/tests/stream_corpora";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && '%s' 8 '%s' 8", dir, GEN_CORPUS, dir);
    ck_assert_int_eq(system(cmd), 0);
    static const struct {
        const char *corpus, *contract;
    } sets[] = {
        {"refund", CONTRACTC_SOURCE_DIR "/examples/refund/refund_request.contract.yaml"},
        {"invoice", CONTRACTS "invoice.contract.yaml"},
        {"repo_map", CONTRACTC_SOURCE_DIR "/bench/contracts/repo_map.contract.yaml"},
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        loaded_t l;
        load(&l, sets[i].contract);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.corpus", dir, sets[i].corpus);
        bench_corpus_t c;
        ck_assert_int_eq(bench_corpus_read(path, &c), 0);
        static tally_t t;
    memset(&t, 0, sizeof t);
        for (size_t j = 0; j < c.count; j++) {
            reply_t r;
            char name[64];
            snprintf(name, sizeof name, "%s #%zu", sets[i].corpus, j);
            r.k = &l.tables->contract;
            r.name = name;
            r.text = c.items[j].reply;
            r.len = c.items[j].reply_len;
            r.source = c.items[j].source;
            r.source_len = c.items[j].source_len;
            if (!r.k->needs_source) {
                r.source = NULL;
                r.source_len = 0;
            }
            stream_one(&r, j, &t);
        }
        print_tally(sets[i].corpus, &t);
        ck_assert_uint_gt(t.replies, 0);
        bench_corpus_free(&c);
        unload(&l);
    }
}
END_TEST

/* The generated parser's typed pair, and the edges of the API. */
START_TEST(the_typed_stream_of_a_generated_parser)
{
    static const char reply[] =
        "```json\n{\"order_id\": \"A-20817\", \"amount\": \"89.90\", \"currency\": \"EUR\", "
        "\"amount_text\": \"\xe2\x82\xac" "89.90\", \"reason\": \"duplicate_charge\"}\n```";
    static const char source[] = "The second charge of \xe2\x82\xac" "89.90 on 3 March is a duplicate.";
    contractc_stream_t *s = refund_request_stream_new(source, sizeof source - 1);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(contractc_stream_feed(s, "`", 1), CONTRACTC_STREAM_VIABLE);
    ck_assert_int_eq(contractc_stream_feed(s, reply + 1, sizeof reply - 6), CONTRACTC_STREAM_VIABLE);
    ck_assert_int_eq(contractc_stream_feed(s, reply + sizeof reply - 5, 4), CONTRACTC_STREAM_COMPLETE);
    ck_assert_int_eq(contractc_stream_feed(s, " \n", 2), CONTRACTC_STREAM_COMPLETE);
    ck_assert_uint_eq(contractc_stream_dead_at(s), SIZE_MAX);
    refund_request_t rec;
    contractc_problems_t p;
    contractc_problems_init(&p);
    ck_assert_int_eq(refund_request_stream_finish(s, &rec, &p), CONTRACTC_OK);
    ck_assert_str_eq(rec.order_id, "A-20817");
    refund_request_free(&rec);
    /* A word after the fence kills it, at that word. */
    ck_assert_int_eq(contractc_stream_feed(s, "ok", 2), CONTRACTC_STREAM_DEAD);
    ck_assert_uint_eq(contractc_stream_dead_at(s), sizeof reply - 1 + 2);
    ck_assert_int_eq(refund_request_stream_finish(s, &rec, &p), CONTRACTC_REJECTED);
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_SYNTAX);
    contractc_problems_clear(&p);
    contractc_stream_free(s);

    /* Dead at byte 0: prose before the JSON. */
    s = refund_request_stream_new(source, sizeof source - 1);
    ck_assert_int_eq(contractc_stream_feed(s, "Sure! Here is the JSON", 22), CONTRACTC_STREAM_DEAD);
    ck_assert_uint_eq(contractc_stream_dead_at(s), 0);
    contractc_stream_free(s);

    /* A wrong enum value, dead when it closes; finish names it, not the end. */
    s = refund_request_stream_new(source, sizeof source - 1);
    static const char bad[] = "{\"order_id\": \"A-20817\", \"amount\": \"89.90\", \"currency\": \"eur\", ";
    ck_assert_int_eq(contractc_stream_feed(s, bad, sizeof bad - 1), CONTRACTC_STREAM_DEAD);
    ck_assert_uint_eq(contractc_stream_dead_at(s), (size_t)(strstr(bad, "\"eur\"") - bad) + 4);
    ck_assert_int_eq(refund_request_stream_finish(s, &rec, &p), CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&p), 1);
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_ENUM);
    ck_assert_str_eq(contractc_problems_at(&p, 0)->path, "$.currency");
    contractc_problems_clear(&p);
    contractc_stream_free(s);

    /* The edges. */
    ck_assert_ptr_null(refund_request_stream_new(NULL, 0)); /* needs its source */
    ck_assert_ptr_null(contractc_stream_new(NULL, NULL, 0, NULL));
    ck_assert_ptr_null(refund_request_stream_new("\xff", 1)); /* not UTF-8 */
    ck_assert_int_eq(contractc_stream_feed(NULL, "{", 1), CONTRACTC_STREAM_ERROR);
    ck_assert_uint_eq(contractc_stream_dead_at(NULL), SIZE_MAX);
    contractc_stream_free(NULL);
    s = refund_request_stream_new(source, sizeof source - 1);
    ck_assert_int_eq(contractc_stream_feed(s, NULL, 0), CONTRACTC_STREAM_VIABLE);
    ck_assert_int_eq(contractc_stream_finish(s, NULL, &p), CONTRACTC_EINVAL);
    ck_assert_int_eq(contractc_stream_finish(s, &rec, &p), CONTRACTC_REJECTED); /* empty */
    ck_assert_int_eq(contractc_problems_at(&p, 0)->kind, CONTRACTC_KIND_EMPTY);
    contractc_problems_clear(&p);
    ck_assert_int_eq(contractc_stream_feed(s, NULL, 3), CONTRACTC_STREAM_ERROR);
    ck_assert_int_eq(contractc_stream_finish(s, &rec, &p), CONTRACTC_EINVAL);
    contractc_stream_free(s);
}
END_TEST

/* What the item callback saw. */
typedef struct seen_items {
    size_t count, fed, last_index, arrived_at[256];
    bool in_order, path_ok, amounts_ok;
} seen_items_t;

static size_t g_fed; /* bytes fed so far, for the callback */

static void on_item(void *user, const char *path, size_t index, const void *item)
{
    seen_items_t *seen = user;
    const invoice_line_item_t *li = item;
    seen->in_order = seen->in_order && index == seen->count;
    seen->path_ok = seen->path_ok && strcmp(path, "$.line_items") == 0;
    char want[32];
    snprintf(want, sizeof want, "line %zu", index);
    seen->amounts_ok = seen->amounts_ok && li->amount_cents == (int64_t)index &&
                       strcmp(li->description, want) == 0;
    if (seen->count < 256)
        seen->arrived_at[seen->count] = g_fed;
    seen->count++;
}

/* An invoice of n line items ("line K", K cents), item `bad` (if below
 * n) with a negative amount. */
static char *invoice_reply(size_t n, size_t bad, size_t *len)
{
    cc_buf_t b = CC_BUF_INIT;
    char item[128];
    snprintf(item, sizeof item, "{\"vendor_name\": \"Kestrel Office Supply\", \"invoice_total_cents\": %zu, "
                                "\"line_items\": [", n * (n - 1) / 2);
    cc_buf_puts(&b, item);
    for (size_t k = 0; k < n; k++) {
        snprintf(item, sizeof item, "%s{\"description\": \"line %zu\", \"amount_cents\": %s%zu}",
                 k ? ", " : "", k, k == bad ? "-" : "", k);
        cc_buf_puts(&b, item);
    }
    cc_buf_puts(&b, "]}");
    return cc_buf_take(&b, len);
}

START_TEST(items_of_a_200_item_invoice_arrive_as_they_close)
{
    for (int bad_run = 0; bad_run < 2; bad_run++) {
        size_t len;
        char *reply = invoice_reply(200, bad_run ? 50 : 1000, &len);
        contractc_stream_t *s = contractc_stream_new(&invoice_contract, NULL, 0, NULL);
        seen_items_t seen = {0, 0, 0, {0}, true, true, true};
        ck_assert(contractc_stream_on_item(s, on_item, &seen));
        contractc_stream_state_t st = CONTRACTC_STREAM_VIABLE;
        for (g_fed = 0; g_fed < len;) {
            size_t n = len - g_fed < 64 ? len - g_fed : 64;
            g_fed += n;
            st = contractc_stream_feed(s, reply + g_fed - n, n);
        }
        ck_assert(!contractc_stream_on_item(s, NULL, NULL)); /* only before the first feed */
        invoice_t rec;
        contractc_problems_t p;
        contractc_problems_init(&p);
        contractc_status_t rc = invoice_stream_finish(s, &rec, &p);
        ck_assert(seen.in_order && seen.path_ok && seen.amounts_ok);
        if (!bad_run) {
            ck_assert_int_eq(rc, CONTRACTC_OK);
            ck_assert_int_eq(st, CONTRACTC_STREAM_COMPLETE);
            ck_assert_uint_eq(seen.count, 200);
            /* Each item before the reply ended: the first within the
             * first tenth, and every one before the last chunk but the
             * last few (a check past 4 KiB waits for an eighth more). */
            ck_assert_uint_lt(seen.arrived_at[0], len / 10);
            size_t early = 0;
            for (size_t k = 0; k < 200; k++)
                early += seen.arrived_at[k] < len;
            ck_assert_uint_ge(early, 150);
            printf("200-item invoice (%zu bytes, 64-byte chunks): item 0 arrived after %zu bytes, item 100 "
                   "after %zu, item 199 after %zu; %zu of 200 before the last chunk\n",
                   len, seen.arrived_at[0], seen.arrived_at[100], seen.arrived_at[199], early);
            invoice_free(&rec);
        } else {
            ck_assert_int_eq(rc, CONTRACTC_REJECTED);
            ck_assert_int_eq(st, CONTRACTC_STREAM_DEAD);
            ck_assert_uint_eq(seen.count, 50); /* items 0..49; none from the bad one on */
            ck_assert_str_eq(contractc_problems_at(&p, 0)->path, "$.line_items[50].amount_cents");
        }
        contractc_problems_clear(&p);
        contractc_stream_free(s);
        free(reply);
    }
}
END_TEST

/* An allocator that fails its n-th allocation and counts what is live. */
typedef struct failing {
    size_t calls, fail_at, live;
} failing_t;

static void *failing_alloc(void *ctx, size_t size)
{
    failing_t *f = ctx;
    if (++f->calls == f->fail_at)
        return NULL;
    void *p = malloc(size);
    if (p)
        f->live += size;
    return p;
}

static void failing_free(void *ctx, void *p, size_t size)
{
    failing_t *f = ctx;
    if (p) {
        f->live -= size;
        free(p);
    }
}

static void ignore_item(void *user, const char *path, size_t index, const void *item)
{
    (void)path, (void)index, (void)item;
    ++*(size_t *)user;
}

/* Every allocation of a stream, failed in turn: a NULL stream, an ERROR
 * feed then ENOMEM from finish, or the right result; nothing leaks. */
START_TEST(every_allocation_failure_is_enomem_and_leaks_nothing)
{
    size_t len;
    char *reply = invoice_reply(12, 1000, &len);
    size_t runs = 0, enomem = 0;
    for (size_t fail_at = 1;; fail_at++) {
        failing_t f = {0, fail_at, 0};
        contractc_allocator_t a = {failing_alloc, failing_free, &f};
        contractc_options_t o = {&a, 0, 0, NULL};
        contractc_stream_t *s = contractc_stream_new(&invoice_contract, NULL, 0, &o);
        runs++;
        if (!s) {
            ck_assert_uint_eq(f.live, 0);
            continue;
        }
        size_t items = 0;
        (void)contractc_stream_on_item(s, ignore_item, &items); /* false: out of memory */
        bool error = false;
        for (size_t off = 0; off < len; off += 16)
            error |= contractc_stream_feed(s, reply + off, len - off < 16 ? len - off : 16) ==
                     CONTRACTC_STREAM_ERROR;
        invoice_t rec;
        contractc_problems_t p;
        contractc_problems_init_with(&p, 0, &a);
        contractc_status_t rc = invoice_stream_finish(s, &rec, &p);
        ck_assert_msg(rc == CONTRACTC_OK || rc == CONTRACTC_ENOMEM, "allocation %zu failed: %s", fail_at,
                      contractc_status_name(rc));
        ck_assert(!error || rc == CONTRACTC_ENOMEM);
        if (rc == CONTRACTC_OK)
            invoice_free(&rec);
        else
            enomem++;
        contractc_problems_clear(&p);
        contractc_stream_free(s);
        ck_assert_msg(f.live == 0, "allocation %zu failed: %zu bytes leaked", fail_at, f.live);
        if (f.calls < fail_at) { /* nothing failed: every allocation was tried */
            ck_assert_int_eq(rc, CONTRACTC_OK);
            ck_assert_uint_eq(items, 12);
            break;
        }
    }
    printf("allocation failures: %zu runs, %zu ENOMEM, no leak\n", runs, enomem);
    free(reply);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("parity");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, the_typed_stream_of_a_generated_parser);
    tcase_add_test(tc, items_of_a_200_item_invoice_arrive_as_they_close);
    tcase_add_test(tc, every_allocation_failure_is_enomem_and_leaks_nothing);
    tcase_add_test(tc, every_reply_case_streams_as_it_parses);
    tcase_add_test(tc, every_bench_reply_streams_as_it_parses);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
