/* SPDX-License-Identifier: MIT */
/*
 * fuzz_stats.c - the decision-log reader of `contractc stats` on arbitrary
 * bytes as one log (cc_stats_stream), as text, as --json, and as --json
 * with lines capped at 200 bytes (the over-long path).
 *
 * Properties, for every input:
 *   - exit 0 (a log is never a reason to fail; only memory or stdout is);
 *   - nothing printed, on stdout or stderr, holds a control character (C0
 *     other than line break and tab, DEL, C1) or a byte that is not UTF-8:
 *     the log cannot drive the terminal;
 *   - --json parses, and its counts agree: every non-blank line of the
 *     input is a decision or a bad line; the contracts' decisions add up
 *     to the total, their days' to theirs; rejected and accepted replies
 *     are at most the replies; the accepted histogram adds up to the
 *     accepted; a (path, kind) is counted in at most the rejected replies
 *     and at most as often as its kind;
 *   - the text report's first line says the same counts;
 *   - the 200-byte cap reads the same lines and keeps at most as many
 *     decisions, and exactly as many when no line is longer.
 */
#include <cjson/cJSON.h>

#include "fuzz_common.h"
#include "generator.h"
#include "reader.h"

#define SMALL_CAP 200

typedef struct run {
    int rc;
    char *out, *err;
    size_t out_len, err_len;
} run_t;

static run_t run(const uint8_t *data, size_t size, size_t cap, bool json)
{
    /* fmemopen of 0 bytes is unspecified: an empty log is /dev/null */
    FILE *in = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
    run_t r;
    FILE *out = open_memstream(&r.out, &r.out_len), *err = open_memstream(&r.err, &r.err_len);
    FUZZ_CHECK(in && out && err, "no stream");
    r.rc = cc_stats_stream(in, "fuzz.log", cap, json, out, err);
    fclose(in);
    FUZZ_CHECK(fclose(out) == 0 && fclose(err) == 0, "closing a memory stream");
    return r;
}

static void check_shown(const char *what, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    FUZZ_CHECK(cc_utf8_valid(p, n), "%s is not UTF-8", what);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = p[i];
        FUZZ_CHECK(c >= 0x20 ? c != 0x7F : c == '\n' || c == '\t', "%s holds byte 0x%02x at %zu",
                   what, c, i);
        FUZZ_CHECK(!(c == 0xC2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] < 0xA0),
                   "%s holds a C1 control at %zu", what, i);
    }
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    FUZZ_CHECK(cJSON_IsNumber(v), "no number \"%s\"", key);
    return v->valuedouble;
}

/* Lines as the reader counts them: not blank (CRs before the break do not
 * count; a last line needs no break), or longer than cap (0: none) before
 * the CRs are cut. */
static size_t lines_of(const uint8_t *data, size_t size, size_t cap)
{
    size_t lines = 0, i = 0;
    while (i < size) {
        size_t j = i, content = 0;
        while (j < size && data[j] != '\n')
            j++;
        for (size_t k = j; k > i; k--)
            if (data[k - 1] != '\r') {
                content = k - i;
                break;
            }
        lines += content > 0 || (cap && j - i > cap);
        i = j + 1;
    }
    return lines;
}

static size_t longest_line(const uint8_t *data, size_t size)
{
    size_t longest = 0, start = 0;
    for (size_t i = 0; i <= size; i++)
        if (i == size || data[i] == '\n') {
            if (i - start > longest)
                longest = i - start;
            start = i + 1;
        }
    return longest;
}

static void check_json(const cJSON *j, size_t lines)
{
    FUZZ_CHECK(j != NULL, "--json is not JSON");
    double decisions = num(j, "decisions"), bad = num(j, "bad_lines");
    FUZZ_CHECK(num(j, "files") == 1, "files");
    FUZZ_CHECK(num(j, "lines") == (double)lines, "lines %g, the input has %zu", num(j, "lines"),
               lines);
    FUZZ_CHECK(decisions + bad == (double)lines, "%g decisions + %g bad of %zu lines", decisions,
               bad, lines);
    double sum = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(j, "contracts"))
    {
        const cJSON *all = cJSON_GetObjectItemCaseSensitive(c, "all");
        double d = num(all, "decisions"), replies = num(all, "replies");
        double rejected = num(all, "rejected"), accepted = num(all, "accepted");
        sum += d;
        FUZZ_CHECK(d >= 1, "an empty group");
        FUZZ_CHECK(rejected + accepted <= replies, "%g rejected + %g accepted of %g replies",
                   rejected, accepted, replies);
        FUZZ_CHECK(accepted <= d, "%g accepted of %g decisions", accepted, d);
        double days = 0, hist = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "days")) days += num(x, "decisions");
        FUZZ_CHECK(days == d, "days add up to %g of %g", days, d);
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "attempts_to_accept")) hist +=
            x->valuedouble;
        FUZZ_CHECK(hist == accepted, "histogram %g, accepted %g", hist, accepted);
        const cJSON *kinds = cJSON_GetObjectItemCaseSensitive(c, "kinds");
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "problems"))
        {
            double n = num(x, "replies");
            const cJSON *kind = cJSON_GetObjectItemCaseSensitive(x, "kind");
            FUZZ_CHECK(cJSON_IsString(kind), "a problem without a kind");
            FUZZ_CHECK(n >= 1 && n <= rejected, "a problem in %g of %g rejected replies", n, rejected);
            FUZZ_CHECK(num(kinds, kind->valuestring) >= n, "kind counted less than its problem");
        }
    }
    FUZZ_CHECK(sum == decisions, "contracts add up to %g of %g", sum, decisions);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_t text = run(data, size, 0, false), json = run(data, size, 0, true),
          small = run(data, size, SMALL_CAP, true);
    run_t *all[3] = {&text, &json, &small};
    for (int i = 0; i < 3; i++) {
        FUZZ_CHECK(all[i]->rc == 0, "exit %d: %s", all[i]->rc, all[i]->err);
        check_shown("stdout", all[i]->out, all[i]->out_len);
        check_shown("stderr", all[i]->err, all[i]->err_len);
    }
    cJSON *j = cJSON_Parse(json.out), *js = cJSON_Parse(small.out);
    check_json(j, lines_of(data, size, 0));
    check_json(js, lines_of(data, size, SMALL_CAP));
    double d = num(j, "decisions"), ds = num(js, "decisions");
    if (longest_line(data, size) <= SMALL_CAP)
        FUZZ_CHECK(ds == d, "the cap changed %g decisions to %g", d, ds);
    else
        FUZZ_CHECK(ds <= d, "the cap made %g decisions of %g", ds, d);
    char first[160];
    double b = num(j, "bad_lines");
    snprintf(first, sizeof first, "contractc stats: %.0f decision%s from 1 file; %.0f bad line%s\n",
             d, d == 1 ? "" : "s", b, b == 1 ? "" : "s");
    FUZZ_CHECK(strncmp(text.out, first, strlen(first)) == 0, "the text says\n%.200s\nnot\n%s",
               text.out, first);
    cJSON_Delete(j);
    cJSON_Delete(js);
    for (int i = 0; i < 3; i++) {
        free(all[i]->out);
        free(all[i]->err);
    }
    return 0;
}
