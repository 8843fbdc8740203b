/* SPDX-License-Identifier: MIT */
/*
 * fuzz_reader.c - the strict reader (runtime/src/reader.c) on arbitrary
 * bytes, through cc_read_document: begin, skip one value, finish.
 *
 * Properties, for every input:
 *   - a rejection is one document-level kind (empty, syntax, encoding,
 *     limit) at an offset inside the reply, with a message;
 *   - its log text (fail_log, or fail_message when that is "") is printable
 *     ASCII: no byte of the reply that is not (tests/e2e/test_validate.c shows
 *     that it quotes none at all);
 *   - allowing a fence only adds inputs: what is accepted without one is
 *     accepted with one (a JSON text cannot begin with a backtick);
 *   - the verdict does not depend on the bytes after `size` (the input is
 *     read from an exact-size copy, so ASan sees any overread);
 *   - a larger max_depth only adds inputs.
 */
#include "fuzz_common.h"
#include "reader.h"

static void check_verdict(const cc_reader_t *r, bool ok, size_t size)
{
    if (ok) {
        FUZZ_CHECK(!r->failed, "accepted with failed set");
        return;
    }
    FUZZ_CHECK(r->failed, "rejected without failed set");
    FUZZ_CHECK(contractc_kind_is_document_level(r->fail_kind), "kind %s",
               contractc_kind_name(r->fail_kind));
    FUZZ_CHECK(r->fail_offset <= size, "offset %zu beyond %zu bytes", r->fail_offset, size);
    FUZZ_CHECK(r->fail_message[0] != '\0', "no message");
    FUZZ_CHECK(memchr(r->fail_message, '\0', sizeof r->fail_message) != NULL,
               "message not terminated");
    FUZZ_CHECK(memchr(r->fail_log, '\0', sizeof r->fail_log) != NULL, "log text not terminated");
    const char *log = r->fail_log[0] ? r->fail_log : r->fail_message;
    for (const char *c = log; *c; c++)
        FUZZ_CHECK(*c >= 0x20 && *c < 0x7F, "log text byte 0x%02X: %s", (unsigned char)*c, log);
    size_t line = 0, column = 0;
    cc_reader_line_column(r, r->fail_offset, &line, &column);
    FUZZ_CHECK(line >= 1 && column >= 1 && line <= size + 1 && column <= size + 1,
               "line %zu column %zu", line, column);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* an exact-size heap copy: reading one byte past it is an ASan report */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);

    cc_reader_t plain, fenced, shallow;
    bool ok_plain = cc_read_document(&plain, text, size, false, 64);
    check_verdict(&plain, ok_plain, size);
    bool ok_fenced = cc_read_document(&fenced, text, size, true, 64);
    check_verdict(&fenced, ok_fenced, size);
    FUZZ_CHECK(!ok_plain || ok_fenced, "accepted without a fence, rejected when one is allowed");
    if (ok_plain)
        FUZZ_CHECK(!fenced.fenced, "a fence was stripped from a plain JSON text");

    bool ok_shallow = cc_read_document(&shallow, text, size, false, 4);
    check_verdict(&shallow, ok_shallow, size);
    FUZZ_CHECK(!ok_shallow || ok_plain, "accepted at depth 4, rejected at depth 64");
    if (ok_plain && !ok_shallow)
        FUZZ_CHECK(shallow.fail_kind == CONTRACTC_KIND_LIMIT,
                   "only the depth differs, yet the shallow reader says %s",
                   contractc_kind_name(shallow.fail_kind));
    free(text);
    return 0;
}
