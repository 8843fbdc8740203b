/* SPDX-License-Identifier: MIT */
/*
 * fuzz_generated.c - the generated parsers of the test contracts
 * (refund_request, which has a source text, and invoice, which has none;
 * and language v2's signup_form, support_route, sensor_log, asset_tags and
 * api_capture and flex_values, without one), built from tests/data/contracts at build time, on
 * arbitrary bytes.
 *
 * Input: REPLY, or REPLY 0xFF 0xFE SOURCE (the source may be anything,
 * including invalid UTF-8).  Without the separator, refund_request gets the
 * example email as its source.
 *
 * Properties, for every input:
 *   - the status is OK, REJECTED or EINVAL (EINVAL only for a source that
 *     is not UTF-8, or a source given to / missing for a contract), never
 *     ENOMEM with malloc;
 *   - the problem list keeps its invariants (fuzz_common.h);
 *   - a record that is not accepted is all zero bytes;
 *   - an accepted record's canonical form (NAME_to_json) is itself
 *     accepted, and gives the same canonical form: the parser never accepts
 *     a value it could not read back;
 *   - refund_request without a source, and invoice with one, are EINVAL.
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

typedef contractc_status_t (*parse_fn)(const char *, size_t, const char *, size_t, void *,
                                       contractc_problems_t *);

static void run(const contractc_contract_t *contract, const char *reply, size_t reply_len,
                const char *source, size_t source_len)
{
    union {
        long double ld;
        void *p;
        unsigned char bytes[4096];
    } rec;
    FUZZ_CHECK(contract->root->size <= sizeof rec.bytes, "record too large");
    memset(rec.bytes, 0x5A, sizeof rec.bytes);
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t s = contractc_parse(contract, reply, reply_len, source, source_len, NULL,
                                           rec.bytes, &problems);
    FUZZ_CHECK(s == CONTRACTC_OK || s == CONTRACTC_REJECTED || s == CONTRACTC_EINVAL,
               "%s: status %s", contract->name, contractc_status_name(s));
    if (s == CONTRACTC_EINVAL)
        FUZZ_CHECK(problems.error != NULL && contractc_problems_count(&problems) == 0,
                   "EINVAL without a reason, or with problems");
    fuzz_check_problems(s, &problems);
    if (s != CONTRACTC_OK) {
        FUZZ_CHECK(fuzz_all_zero(rec.bytes, contract->root->size), "%s: %s record not zeroed",
                   contract->name, contractc_status_name(s));
    } else {
        size_t len = 0;
        char *json = contractc_to_json(contract, rec.bytes, &len);
        FUZZ_CHECK(json != NULL && len == strlen(json), "no canonical form");
        union {
            long double ld;
            void *p;
            unsigned char bytes[4096];
        } again;
        contractc_problems_t p2;
        contractc_problems_init(&p2);
        contractc_status_t s2 = contractc_parse(contract, json, len, source, source_len, NULL,
                                                again.bytes, &p2);
        FUZZ_CHECK(s2 == CONTRACTC_OK, "%s: the canonical form %s is %s (%s)", contract->name,
                   json, contractc_status_name(s2),
                   contractc_problems_count(&p2) ? contractc_problems_at(&p2, 0)->message : "");
        size_t len2 = 0;
        char *json2 = contractc_to_json(contract, again.bytes, &len2);
        FUZZ_CHECK(json2 && len2 == len && memcmp(json, json2, len) == 0,
                   "canonical form not stable: %s then %s", json, json2 ? json2 : "(null)");
        free(json2);
        contractc_record_free(contract, again.bytes);
        contractc_problems_clear(&p2);
        free(json);
        contractc_record_free(contract, rec.bytes);
        FUZZ_CHECK(fuzz_all_zero(rec.bytes, contract->root->size), "freed record not zeroed");
    }
    contractc_problems_clear(&problems);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    size_t reply_len = size;
    const char *source = email;
    size_t source_len = sizeof email - 1;
    for (size_t i = 0; i + 1 < size; i++) {
        if (data[i] == 0xFF && data[i + 1] == 0xFE) {
            reply_len = i;
            source = text + i + 2;
            source_len = size - i - 2;
            break;
        }
    }
    /* exact-size copies, so ASan sees any read past either buffer */
    char *reply = malloc(reply_len ? reply_len : 1);
    char *src = malloc(source_len ? source_len : 1);
    if (!reply || !src)
        abort();
    memcpy(reply, text, reply_len);
    memcpy(src, source, source_len);

    run(&refund_request_contract, reply, reply_len, src, source_len);
    run(&invoice_contract, reply, reply_len, NULL, 0);
    /* language v2's reader paths: keys and optional, tagged unions, arrays
     * of nullable items, maps, any JSON values, value unions */
    run(&signup_form_contract, reply, reply_len, NULL, 0);
    run(&support_route_contract, reply, reply_len, NULL, 0);
    run(&sensor_log_contract, reply, reply_len, NULL, 0);
    run(&asset_tags_contract, reply, reply_len, NULL, 0);
    run(&api_capture_contract, reply, reply_len, NULL, 0);
    run(&flex_values_contract, reply, reply_len, NULL, 0); /* value unions */

    /* the wrong use of the source: an error outcome, never a parse */
    refund_request_t r;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    FUZZ_CHECK(refund_request_parse(reply, reply_len, NULL, 0, &r, &problems) == CONTRACTC_EINVAL,
               "refund_request parsed without its source");
    FUZZ_CHECK(fuzz_all_zero(&r, sizeof r), "EINVAL record not zeroed");
    invoice_t inv;
    FUZZ_CHECK(invoice_parse(reply, reply_len, src, source_len, &inv, &problems) == CONTRACTC_EINVAL,
               "invoice parsed with a source");
    FUZZ_CHECK(fuzz_all_zero(&inv, sizeof inv), "EINVAL record not zeroed");
    contractc_problems_clear(&problems);
    free(reply);
    free(src);
    return 0;
}
