/* SPDX-License-Identifier: MIT */
/*
 * bench_c.c - the benchmark's C runners.
 *
 *   bench_c MODE RUNNER CONTRACT CORPUS [SECONDS]
 *
 * RUNNER:   contractc  the generated parser (contractc_parse over NAME_contract)
 *           cjson      cJSON_ParseWithLengthOpts + cJSON_Delete, no validation
 *           strict     a hand-written strict validator on cJSON (refund and
 *                      invoice only): the careful C developer's baseline
 * CONTRACT: refund | invoice | repo_map
 * MODE:     time      passes over the corpus for at least SECONDS (default
 *                     0.3) after one warm-up pass; prints the median pass as
 *                     "ns_per_reply=... mb_per_s=... passes=..."
 *           verdicts  one line of '1' (accepted) / '0' (rejected) per reply
 *           mem       counting allocator: peak heap, allocations per reply
 *                     (and, for contractc, the bound k * bytes + 4 KiB)
 *           once      one uncounted warm-up pass, then one pass inside
 *                     bench_pass() (for callgrind --toggle-collect=bench_pass):
 *                     the warm-up keeps one-time costs (the dynamic
 *                     linker's lazy binding of libc calls, ~3,000
 *                     instructions; malloc carving its first chunks from a
 *                     fresh heap) out of the count, where they would be
 *                     charged to the replies and weigh most on a small
 *                     corpus (the 1 KB reply of the scaling series)
 *
 * The scaling series is timed with `time` over corpora of distinct replies
 * (one per shape and size), never one reply repeated: the branch predictor
 * would learn a reply of up to ~100 KB and make small replies look several
 * times faster per byte than large ones.
 *
 * Output is key=value text for bench/run.py.  Exit 0; 2 for usage errors.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus.h"
#include "invoice.h"
#include "refund_request.h"
#include "repo_map.h"

/* ---- clocks and medians ------------------------------------------------- */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- counting allocators -------------------------------------------------
 * contractc's allocator gets the size on free; cJSON's hooks do not, so
 * they keep it in a 16-byte header. */
typedef struct counts {
    size_t live, peak, allocs;
} counts_t;

static counts_t g_counts;

static void *count_alloc(void *ctx, size_t size)
{
    counts_t *c = ctx;
    void *p = malloc(size);
    if (p) {
        c->allocs++;
        c->live += size;
        if (c->live > c->peak)
            c->peak = c->live;
    }
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counts_t *c = ctx;
    if (ptr) {
        c->live -= size;
        free(ptr);
    }
}

static void *cjson_count_malloc(size_t size)
{
    unsigned char *p = count_alloc(&g_counts, size + 16);
    if (!p)
        return NULL;
    memcpy(p, &size, sizeof size);
    return p + 16;
}

static void cjson_count_free(void *ptr)
{
    if (!ptr)
        return;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t size;
    memcpy(&size, p, sizeof size);
    count_free(&g_counts, p, size + 16);
}

/* ---- the contracts -------------------------------------------------------- */
typedef struct contract_info {
    const char *name;
    const contractc_contract_t *contract;
    size_t record_size;
} contract_info_t;

static const contract_info_t contracts[] = {
    {"refund", &refund_request_contract, sizeof(refund_request_t)},
    {"invoice", &invoice_contract, sizeof(invoice_t)},
    {"repo_map", &repo_map_contract, sizeof(repo_map_t)},
};

/* The record of any contract: the largest root struct, suitably aligned. */
typedef union any_record {
    refund_request_t refund;
    invoice_t invoice;
    repo_map_t repo_map;
} any_record_t;

/* ---- the hand-written strict validator on cJSON -------------------------- */

/* Code points of a UTF-8 string (cJSON decoded it; the corpus is valid). */
static size_t code_points(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* An I-JSON integer: a number that is integral and within ±(2^53 − 1). */
static int get_integer(const cJSON *item, long long *out)
{
    if (!cJSON_IsNumber(item))
        return 0;
    double d = item->valuedouble;
    if (!(d >= -9007199254740991.0 && d <= 9007199254740991.0))
        return 0;
    long long v = (long long)d;
    if ((double)v != d)
        return 0;
    *out = v;
    return 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* order_id: A-[0-9]+ (whole string). */
static int match_order_id(const char *s)
{
    if (s[0] != 'A' || s[1] != '-' || !is_digit(s[2]))
        return 0;
    for (s += 2; *s; s++)
        if (!is_digit(*s))
            return 0;
    return 1;
}

/* decimal, scale 2, unsigned: (0|[1-9][0-9]*)\.[0-9]{2}. */
static int match_decimal2(const char *s)
{
    if (s[0] == '0') {
        s++;
    } else if (s[0] >= '1' && s[0] <= '9') {
        while (is_digit(*s))
            s++;
    } else {
        return 0;
    }
    return s[0] == '.' && is_digit(s[1]) && is_digit(s[2]) && s[3] == '\0';
}

static int in_list(const char *s, const char *const *values, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, values[i]) == 0)
            return 1;
    return 0;
}

/* Each key of `o` must be one of names[], at most once; all must be
 * present.  Fills found[i] with the member of names[i]. */
static int exact_keys(const cJSON *o, const char *const *names, size_t n, const cJSON **found)
{
    if (!cJSON_IsObject(o))
        return 0;
    for (size_t i = 0; i < n; i++)
        found[i] = NULL;
    for (const cJSON *m = o->child; m; m = m->next) {
        size_t i = 0;
        while (i < n && strcmp(m->string, names[i]) != 0)
            i++;
        if (i == n || found[i])
            return 0; /* unexpected or duplicate */
        found[i] = m;
    }
    for (size_t i = 0; i < n; i++)
        if (!found[i])
            return 0;
    return 1;
}

static int strict_refund(const cJSON *root, const char *email)
{
    static const char *const keys[] = {"order_id", "amount", "currency", "amount_text", "reason"};
    static const char *const currencies[] = {"EUR", "GBP", "USD"};
    static const char *const reasons[] = {"duplicate_charge", "not_received", "damaged", "other"};
    const cJSON *f[5];
    if (!exact_keys(root, keys, 5, f))
        return 0;
    if (!cJSON_IsString(f[0]) || !match_order_id(f[0]->valuestring))
        return 0;
    int set = 0;
    if (!cJSON_IsNull(f[1])) {
        if (!cJSON_IsString(f[1]) || !match_decimal2(f[1]->valuestring))
            return 0;
        set++;
    }
    if (!cJSON_IsNull(f[2])) {
        if (!cJSON_IsString(f[2]) || !in_list(f[2]->valuestring, currencies, 3))
            return 0;
        set++;
    }
    if (!cJSON_IsNull(f[3])) {
        /* grounded: occurs verbatim in the email; an empty value never does */
        if (!cJSON_IsString(f[3]) || f[3]->valuestring[0] == '\0' ||
            !strstr(email, f[3]->valuestring))
            return 0;
        set++;
    }
    if (!cJSON_IsString(f[4]) || !in_list(f[4]->valuestring, reasons, 4))
        return 0;
    return set == 0 || set == 3; /* all_or_none */
}

static int strict_invoice(const cJSON *root)
{
    static const char *const keys[] = {"vendor_name", "invoice_total_cents", "line_items"};
    static const char *const item_keys[] = {"description", "amount_cents"};
    const cJSON *f[3], *g[2];
    long long total, sum = 0, v;
    if (!exact_keys(root, keys, 3, f))
        return 0;
    if (!cJSON_IsString(f[0]) || code_points(f[0]->valuestring) < 1)
        return 0;
    if (!get_integer(f[1], &total) || total < 0)
        return 0;
    if (!cJSON_IsArray(f[2]))
        return 0;
    int count = cJSON_GetArraySize(f[2]);
    if (count < 1 || count > 200)
        return 0;
    for (const cJSON *it = f[2]->child; it; it = it->next) {
        if (!exact_keys(it, item_keys, 2, g) || !cJSON_IsString(g[0]) ||
            !get_integer(g[1], &v) || v < 0)
            return 0;
        sum += v; /* at most 200 * 2^53: no overflow in 64 bits */
    }
    return sum - total <= 1 && total - sum <= 1; /* sum rule, tolerance 1 */
}

/* ---- one reply, per runner ------------------------------------------------ */
typedef enum { R_CONTRACTC, R_CJSON, R_STRICT, R_STREAM } runner_t;

typedef struct ctx {
    runner_t runner;
    const contract_info_t *info;
    const contractc_options_t *options;
    const contractc_allocator_t *allocator;
    size_t chunk; /* R_STREAM: bytes per feed */
} ctx_t;

/* The push parser (docs/contract-language.md §18): the reply fed x->chunk
 * bytes at a time, then finished, as a caller that reads all of it would
 * (no stop at DEAD: the same work as contractc_parse's, plus the checks of
 * the prefixes).  *fed_at_dead: bytes fed when the stream said DEAD (the
 * reply's length when it never did); *dead_at: contractc_stream_dead_at. */
static int run_stream(const ctx_t *x, const bench_reply_t *r, size_t *fed_at_dead, size_t *dead_at)
{
    contractc_stream_t *s = contractc_stream_new(x->info->contract, r->source, r->source_len,
                                                 x->options);
    if (!s) {
        fprintf(stderr, "bench_c: contractc_stream_new failed\n");
        exit(1);
    }
    size_t off = 0;
    *fed_at_dead = r->reply_len;
    while (off < r->reply_len) {
        size_t n = r->reply_len - off < x->chunk ? r->reply_len - off : x->chunk;
        contractc_stream_state_t st = contractc_stream_feed(s, r->reply + off, n);
        off += n;
        if (st == CONTRACTC_STREAM_DEAD && *fed_at_dead == r->reply_len)
            *fed_at_dead = off;
    }
    *dead_at = contractc_stream_dead_at(s);
    any_record_t rec;
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, 0, x->allocator);
    contractc_status_t st = contractc_stream_finish(s, &rec, &problems);
    if (st == CONTRACTC_OK)
        contractc_record_free(x->info->contract, &rec);
    contractc_problems_clear(&problems);
    contractc_stream_free(s);
    return st == CONTRACTC_OK;
}

static int run_one(const ctx_t *x, const bench_reply_t *r)
{
    if (x->runner == R_STREAM) {
        size_t fed, dead_at;
        return run_stream(x, r, &fed, &dead_at);
    }
    if (x->runner == R_CONTRACTC) {
        any_record_t rec;
        contractc_problems_t problems;
        contractc_problems_init_with(&problems, 0, x->allocator);
        contractc_status_t st = contractc_parse(x->info->contract, r->reply, r->reply_len,
                                                r->source, r->source_len, x->options, &rec,
                                                &problems);
        if (st == CONTRACTC_OK)
            contractc_record_free(x->info->contract, &rec);
        else if (st != CONTRACTC_REJECTED) {
            fprintf(stderr, "bench_c: contractc_parse returned %s\n", contractc_status_name(st));
            exit(1);
        }
        contractc_problems_clear(&problems);
        return st == CONTRACTC_OK;
    }
    /* len + 1: the strict end check wants the NUL inside the length. */
    cJSON *root = cJSON_ParseWithLengthOpts(r->reply, r->reply_len + 1, NULL, 1);
    int ok = root != NULL;
    if (ok && x->runner == R_STRICT)
        ok = x->info->contract == &refund_request_contract ? strict_refund(root, r->source)
                                                           : strict_invoice(root);
    cJSON_Delete(root);
    return ok;
}

/* Not inlined: callgrind collects inside it alone. */
#if defined(__GNUC__)
#define BENCH_NOINLINE __attribute__((noinline))
#else
#define BENCH_NOINLINE
#endif
BENCH_NOINLINE size_t bench_pass(const ctx_t *x, const bench_corpus_t *c);
BENCH_NOINLINE size_t bench_pass(const ctx_t *x, const bench_corpus_t *c)
{
    size_t accepted = 0;
    for (size_t i = 0; i < c->count; i++)
        accepted += (size_t)run_one(x, &c->items[i]);
    return accepted;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_c time|verdicts|mem|once|early "
                    "contractc|cjson|strict|stream1|stream64 refund|invoice|repo_map CORPUS "
                    "[SECONDS]\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5)
        return usage();
    const char *mode = argv[1];
    ctx_t x = {0};
    if (strcmp(argv[2], "contractc") == 0)
        x.runner = R_CONTRACTC;
    else if (strcmp(argv[2], "cjson") == 0)
        x.runner = R_CJSON;
    else if (strcmp(argv[2], "strict") == 0)
        x.runner = R_STRICT;
    else if (strcmp(argv[2], "stream1") == 0)
        x.runner = R_STREAM, x.chunk = 1;
    else if (strcmp(argv[2], "stream64") == 0)
        x.runner = R_STREAM, x.chunk = 64;
    else
        return usage();
    for (size_t i = 0; i < sizeof contracts / sizeof *contracts; i++)
        if (strcmp(argv[3], contracts[i].name) == 0)
            x.info = &contracts[i];
    if (!x.info || (x.runner == R_STRICT && x.info->contract == &repo_map_contract))
        return usage();
    double seconds = argc > 5 ? atof(argv[5]) : 0.3;
    bench_corpus_t c;
    if (bench_corpus_read(argv[4], &c) != 0)
        return 1;
    contractc_options_t options = {0};
    x.options = &options;

    if (strcmp(mode, "verdicts") == 0) {
        for (size_t i = 0; i < c.count; i++)
            putchar(run_one(&x, &c.items[i]) ? '1' : '0');
        putchar('\n');
    } else if (strcmp(mode, "early") == 0 && x.runner == R_STREAM) {
        /* Early rejection (docs/contract-language.md §18) over the rejected
         * replies: where the first dead byte is, as a fraction of the
         * reply, and the bytes a caller that stops at DEAD does not read
         * (fed in chunks of x.chunk bytes). */
        double *frac = malloc((c.count + 1) * sizeof *frac);
        double *saved = malloc((c.count + 1) * sizeof *saved);
        size_t n = 0, dead = 0, bytes = 0, saved_total = 0;
        for (size_t i = 0; i < c.count; i++) {
            size_t fed, dead_at;
            if (run_stream(&x, &c.items[i], &fed, &dead_at))
                continue;
            const size_t len = c.items[i].reply_len;
            bytes += len;
            if (dead_at != (size_t)-1) {
                dead++;
                saved_total += len - fed;
            }
            /* A reply rejected only at its end (cut off) dies at its length. */
            frac[n] = len ? (double)(dead_at != (size_t)-1 ? dead_at : len) / (double)len : 1.0;
            saved[n] = (double)(len - fed);
            n++;
        }
        double p90f = 0, p90s = 0, medf = 0, meds = 0;
        if (n) {
            qsort(frac, n, sizeof *frac, cmp_double);
            qsort(saved, n, sizeof *saved, cmp_double);
            p90f = frac[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1];
            p90s = saved[(n * 9) / 10 < n ? (n * 9) / 10 : n - 1];
            medf = median(frac, n);
            meds = median(saved, n);
        }
        printf("rejected=%zu dead=%zu dead_at_frac_median=%.3f dead_at_frac_p90=%.3f "
               "saved_bytes_median=%.0f saved_bytes_p90=%.0f saved_bytes_total=%zu "
               "rejected_bytes=%zu chunk=%zu\n",
               n, dead, medf, p90f, meds, p90s, saved_total, bytes, x.chunk);
        free(frac);
        free(saved);
    } else if (strcmp(mode, "once") == 0) {
        /* The warm-up calls the runner directly: callgrind collects inside
         * bench_pass only. */
        for (size_t i = 0; i < c.count; i++)
            (void)run_one(&x, &c.items[i]);
        size_t accepted = bench_pass(&x, &c);
        printf("replies=%zu bytes=%zu accepted=%zu\n", c.count, c.bytes, accepted);
    } else if (strcmp(mode, "time") == 0) {
        size_t cap = 4096, n = 0;
        double *passes = malloc(cap * sizeof *passes);
        bench_pass(&x, &c); /* warm-up */
        double start = now_ns();
        while (n < cap && (n < 5 || now_ns() - start < seconds * 1e9)) {
            double t0 = now_ns();
            bench_pass(&x, &c);
            passes[n++] = now_ns() - t0;
        }
        double m = median(passes, n);
        printf("ns_per_reply=%.1f mb_per_s=%.1f passes=%zu replies=%zu bytes=%zu\n",
               m / (double)c.count, (double)c.bytes / m * 1e3, n, c.count, c.bytes);
        free(passes);
    } else if (strcmp(mode, "mem") == 0) {
        contractc_allocator_t alloc = {count_alloc, count_free, &g_counts};
        if (x.runner == R_CONTRACTC) {
            options.allocator = &alloc;
            x.allocator = &alloc;
        } else {
            cJSON_Hooks hooks = {cjson_count_malloc, cjson_count_free};
            cJSON_InitHooks(&hooks);
        }
        size_t peak_max = 0, allocs = 0, acc = 0, acc_allocs = 0, acc_allocs_max = 0;
        size_t within = 0, peak_ratio_at = 0;
        double worst_ratio = 0; /* peak / reply_len over accepted replies */
        const size_t k = x.info->contract->arena_factor;
        for (size_t i = 0; i < c.count; i++) {
            const bench_reply_t *r = &c.items[i];
            g_counts.peak = g_counts.live = g_counts.allocs = 0;
            int ok = run_one(&x, r);
            if (g_counts.live != 0) {
                fprintf(stderr, "bench_c: reply %zu leaked %zu bytes\n", i, g_counts.live);
                return 1;
            }
            allocs += g_counts.allocs;
            if (g_counts.peak > peak_max)
                peak_max = g_counts.peak;
            if (ok) {
                acc++;
                acc_allocs += g_counts.allocs;
                if (g_counts.allocs > acc_allocs_max)
                    acc_allocs_max = g_counts.allocs;
                if (g_counts.peak <= k * r->reply_len + 4096)
                    within++;
                double ratio = (double)g_counts.peak / (double)r->reply_len;
                if (ratio > worst_ratio) {
                    worst_ratio = ratio;
                    peak_ratio_at = i;
                }
            }
        }
        printf("peak_max=%zu allocs_per_reply=%.2f allocs_per_accepted=%.2f "
               "allocs_per_accepted_max=%zu accepted=%zu replies=%zu k=%zu "
               "within_bound=%zu worst_peak_per_byte=%.2f worst_at=%zu\n",
               peak_max, (double)allocs / (double)c.count,
               acc ? (double)acc_allocs / (double)acc : 0.0, acc_allocs_max, acc, c.count,
               x.runner == R_CONTRACTC ? k : 0, within, worst_ratio, peak_ratio_at);
    } else {
        bench_corpus_free(&c);
        return usage();
    }
    bench_corpus_free(&c);
    return 0;
}
