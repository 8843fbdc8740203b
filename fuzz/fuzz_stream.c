/* SPDX-License-Identifier: MIT */
/*
 * fuzz_stream.c - the push parser (contractc_stream_*,
 * docs/contract-language.md §18) against the one-shot parser, on the
 * generated parsers of the test contracts and arbitrary bytes cut at
 * points the fuzzer chooses.
 *
 * Input: CUTS 0xFF 0xFE REPLY, where each byte of CUTS is the size (1 to
 * 256: the byte + 1) of the next chunk of REPLY (the rest is one chunk
 * after the last); without the separator, all of it is the reply, cut in
 * chunks of 7 bytes.  refund_request gets the example email as its source.
 *
 * Properties, for every input and contract:
 *   - feeding every chunk and finishing gives the one-shot result (status,
 *     every problem's kind, path, messages, line and column, and the
 *     canonical form when accepted), except §18's: a reply DEAD and then
 *     ending inside a value finishes with the problems found before that
 *     end;
 *   - DEAD stays DEAD, and a DEAD reply is rejected by the one-shot parser;
 *     an accepted one ends COMPLETE;
 *   - dead_at is the same as when the reply is fed one byte at a time.
 */
#include "api_capture.h"
#include "asset_tags.h"
#include "flex_values.h"
#include "fuzz_common.h"
#include "invoice.h"
#include "refund_request.h"
#include "sensor_log.h"
#include "signup_form.h"
#include "support_route.h"

static const char email[] =
    "Hi team,\nI was charged twice for order A-20817. The second charge of \xE2\x82\xAC" "89.90 on 3 "
    "March is a duplicate. Please refund it.\nThanks,\nM.";

/* Everything a parse gives, as one malloc'd text. */
static char *describe(const contractc_contract_t *k, contractc_status_t rc, const void *record,
                      const contractc_problems_t *p)
{
    size_t cap = 256, len = 0;
    char *s = malloc(cap);
    FUZZ_CHECK(s != NULL, "out of memory");
    len = (size_t)snprintf(s, cap, "%d %zu %d\n", (int)rc, p->dropped, (int)p->fenced);
    for (size_t i = 0; i <= contractc_problems_count(p); i++) {
        char *add = NULL;
        size_t n = 0;
        if (i < contractc_problems_count(p)) {
            const contractc_problem_t *q = contractc_problems_at(p, i);
            n = strlen(q->path) + strlen(q->message) + strlen(q->log_message) +
                (q->rule ? strlen(q->rule) : 0) + 80;
            add = malloc(n);
            FUZZ_CHECK(add != NULL, "out of memory");
            n = (size_t)snprintf(add, n, "%d %zu:%zu %s|%s|%s|%s\n", (int)q->kind, q->line, q->column,
                                 q->path, q->message, q->log_message, q->rule ? q->rule : "-");
        } else if (rc == CONTRACTC_OK) {
            add = contractc_to_json(k, record, &n);
            FUZZ_CHECK(add != NULL, "out of memory");
        } else {
            break;
        }
        if (len + n + 1 > cap) {
            while (len + n + 1 > cap)
                cap *= 2;
            s = realloc(s, cap);
            FUZZ_CHECK(s != NULL, "out of memory");
        }
        memcpy(s + len, add, n);
        len += n;
        s[len] = '\0';
        free(add);
    }
    return s;
}

static char *finish(const contractc_contract_t *k, contractc_stream_t *s, contractc_status_t *rc)
{
    union {
        long double ld;
        void *p;
        unsigned char bytes[4096];
    } rec;
    FUZZ_CHECK(k->root->size <= sizeof rec.bytes, "record too large");
    contractc_problems_t p;
    contractc_problems_init(&p);
    *rc = contractc_stream_finish(s, rec.bytes, &p);
    char *d = describe(k, *rc, rec.bytes, &p);
    contractc_record_free(k, rec.bytes);
    contractc_problems_clear(&p);
    return d;
}

static void run(const contractc_contract_t *k, const uint8_t *cuts, size_t ncuts, const char *reply,
                size_t len, const char *source, size_t source_len)
{
    union {
        long double ld;
        void *p;
        unsigned char bytes[4096];
    } rec;
    FUZZ_CHECK(k->root->size <= sizeof rec.bytes, "record too large");
    contractc_problems_t p;
    contractc_problems_init(&p);
    contractc_status_t want_rc = contractc_parse(k, reply, len, source, source_len, NULL, rec.bytes, &p);
    char *want = describe(k, want_rc, rec.bytes, &p);
    contractc_record_free(k, rec.bytes);
    contractc_problems_clear(&p);

    /* One byte at a time: the reference dead_at. */
    contractc_stream_t *one = contractc_stream_new(k, source, source_len, NULL);
    FUZZ_CHECK(one != NULL, "stream_new failed");
    for (size_t i = 0; i < len; i++)
        contractc_stream_feed(one, reply + i, 1);
    const size_t dead_at = contractc_stream_dead_at(one);
    contractc_stream_free(one);

    contractc_stream_t *s = contractc_stream_new(k, source, source_len, NULL);
    FUZZ_CHECK(s != NULL, "stream_new failed");
    contractc_stream_state_t st = CONTRACTC_STREAM_VIABLE;
    char *known = NULL;
    size_t off = 0, c = 0;
    while (off < len) {
        size_t n = c < ncuts ? (size_t)cuts[c++] + 1 : len - off;
        if (n > len - off)
            n = len - off;
        contractc_stream_state_t before = st;
        st = contractc_stream_feed(s, reply + off, n);
        off += n;
        FUZZ_CHECK(st != CONTRACTC_STREAM_ERROR, "ERROR with malloc");
        FUZZ_CHECK(before != CONTRACTC_STREAM_DEAD || st == CONTRACTC_STREAM_DEAD, "DEAD came back");
        if (st == CONTRACTC_STREAM_DEAD && !known) {
            contractc_status_t krc;
            known = finish(k, s, &krc);
            FUZZ_CHECK(krc == CONTRACTC_REJECTED, "finish at DEAD gave %d", (int)krc);
        }
    }
    FUZZ_CHECK(contractc_stream_dead_at(s) == dead_at, "dead_at %zu, one byte at a time %zu",
               contractc_stream_dead_at(s), dead_at);
    if (st == CONTRACTC_STREAM_DEAD)
        FUZZ_CHECK(want_rc == CONTRACTC_REJECTED && dead_at < len, "DEAD at %zu, one-shot %d", dead_at,
                   (int)want_rc);
    if (want_rc == CONTRACTC_OK)
        FUZZ_CHECK(st == CONTRACTC_STREAM_COMPLETE, "accepted, stream ends %d", (int)st);
    contractc_status_t rc;
    char *got = finish(k, s, &rc);
    if (strcmp(got, want) != 0) {
        /* §18: DEAD, then the end inside a value: the problems found
         * before the end (those known at DEAD first), where the one-shot
         * parser has one problem for the end (syntax, or encoding for a
         * UTF-8 sequence cut off). */
        const char *gb = strchr(got, '\n'), *kb = known ? strchr(known, '\n') : NULL;
        FUZZ_CHECK(st == CONTRACTC_STREAM_DEAD && rc == CONTRACTC_REJECTED && kb && gb &&
                       strncmp(gb, kb, strlen(kb)) == 0 && want_rc == CONTRACTC_REJECTED &&
                       (strncmp(strchr(want, '\n') + 1, "1 ", 2) == 0 ||
                        strncmp(strchr(want, '\n') + 1, "2 ", 2) == 0) &&
                       strchr(strchr(want, '\n') + 1, '\n')[1] == '\0' &&
                       strncmp(gb + 1, "1 ", 2) != 0,
                   "the stream gives\n%s\nthe one-shot parser\n%s", got, want);
    }
    free(got);
    free(known);
    free(want);
    contractc_stream_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint8_t sevens[] = {6};
    const uint8_t *cuts = sevens;
    size_t ncuts = 0;
    const char *reply = (const char *)data;
    size_t len = size;
    for (size_t i = 0; i + 1 < size; i++) {
        if (data[i] == 0xFF && data[i + 1] == 0xFE) {
            cuts = data;
            ncuts = i;
            reply = (const char *)data + i + 2;
            len = size - i - 2;
            break;
        }
    }
    /* Each byte fed alone re-reads the prefix (stream.c): keep it small. */
    if (len > 1024)
        return 0;
    /* Without cuts: chunks of 7 bytes. */
    uint8_t seven[1024 / 7 + 1];
    if (cuts == sevens) {
        ncuts = len / 7 + 1;
        memset(seven, 6, ncuts);
        cuts = seven;
    }
    run(&refund_request_contract, cuts, ncuts, reply, len, email, sizeof email - 1);
    run(&invoice_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&signup_form_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&support_route_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&sensor_log_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&asset_tags_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&api_capture_contract, cuts, ncuts, reply, len, NULL, 0);
    run(&flex_values_contract, cuts, ncuts, reply, len, NULL, 0);
    return 0;
}
