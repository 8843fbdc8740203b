/*
 * gen_corpus.c - the benchmark's seeded corpus generator.
 *
 *   gen_corpus SEED OUTDIR [SCALE]
 *
 * writes OUTDIR/refund.corpus, invoice.corpus, repo_map.corpus (about 90%
 * valid replies, the rest broken in one way each) and the scaling series
 * OUTDIR/series_{valid,keys,strings,deep}.corpus (invoice replies of about
 * 100 B, 1 KB, 10 KB, 100 KB and 1 MB).  SCALE (default 1) divides the
 * corpus sizes, for the quick smoke test.  The same seed gives the same
 * bytes on every machine (splitmix64, no libc rand).
 *
 * Only replies whose verdict JSON Schema (with the ajv runner's custom
 * keywords for grounding and the rules) and a careful cJSON validator can
 * decide are generated: no duplicate keys, no 1.0 for an integer, no
 * invalid UTF-8, no \u0000, no fences, integers within 2^53.  Those are
 * contractc's extra strictness, tested in tests/, not a speed question.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a seeded PRNG (splitmix64) --------------------------------------- */
static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static long rint_in(long lo, long hi) { return lo + (long)(rnd() % (uint64_t)(hi - lo + 1)); }

/* ---- a growing text buffer ---------------------------------------------- */
typedef struct buf {
    char *data;
    size_t len, cap;
} buf_t;

static void need(buf_t *b, size_t n)
{
    if (b->len + n + 1 <= b->cap)
        return;
    while (b->len + n + 1 > b->cap)
        b->cap = b->cap ? b->cap * 2 : 1024;
    b->data = realloc(b->data, b->cap);
    if (!b->data) {
        fprintf(stderr, "gen_corpus: out of memory\n");
        exit(1);
    }
}

static void put(buf_t *b, const char *s, size_t n)
{
    need(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void puts_(buf_t *b, const char *s) { put(b, s, strlen(s)); }

static void printf_(buf_t *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void printf_(buf_t *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(b, tmp, (size_t)n);
}

static void record(FILE *f, int intent, const buf_t *reply, const buf_t *source)
{
    size_t sl = source ? source->len : 0;
    fprintf(f, "%d %zu %zu\n", intent, reply->len, sl);
    fwrite(reply->data, 1, reply->len, f);
    if (sl)
        fwrite(source->data, 1, sl, f);
    fputc('\n', f);
}

static const char *const words[] = {
    "consulting", "hours", "licence", "annual", "support", "travel", "hotel",
    "café", "délai", "widget", "assembly", "on-site", "review", "maintenance",
    "shipping", "€-priced", "parts", "labour", "\\\"express\\\"", "line\\nbreak",
    "discount", "überweisung", "workshop", "cloud", "storage", "Größe",
};

/* Appends words (JSON-escaped already) until about n bytes were added. */
static void put_text(buf_t *b, size_t n)
{
    size_t start = b->len;
    while (b->len - start < n) {
        if (b->len > start)
            puts_(b, " ");
        puts_(b, words[rnd() % (sizeof words / sizeof *words)]);
    }
}

/* ---- refund ------------------------------------------------------------- */
static const char *const currencies[] = {"EUR", "GBP", "USD"};
static const char *const symbols[] = {"€", "£", "$"};
static const char *const reasons[] = {"duplicate_charge", "not_received", "damaged", "other"};

static void gen_refund(FILE *f, size_t n)
{
    buf_t reply = {0}, email = {0};
    for (size_t i = 0; i < n; i++) {
        reply.len = email.len = 0;
        long order = rint_in(1000, 99999);
        long cents = rint_in(100, 250000);
        int cur = (int)rint_in(0, 2);
        const char *reason = reasons[rint_in(0, 3)];
        int stated = rint_in(0, 4) != 0; /* 80% state an amount */
        char amount_text[64];
        if (cents >= 100000)
            snprintf(amount_text, sizeof amount_text, "%s%ld,%03ld.%02ld", symbols[cur],
                     cents / 100000, (cents / 100) % 1000, cents % 100);
        else
            snprintf(amount_text, sizeof amount_text, "%s%ld.%02ld", symbols[cur], cents / 100,
                     cents % 100);
        printf_(&email, "Hello, order A-%ld was charged twice", order);
        if (stated)
            printf_(&email, " (%s)", amount_text);
        puts_(&email, ". Please refund it. Regards, Sam");

        int bad = rint_in(0, 9) == 0 ? (int)rint_in(0, 10) : -1;
        printf_(&reply, "{\"order_id\":\"%s%ld\",", bad == 0 ? "B-" : "A-", order);
        if (stated && bad != 7) {
            if (bad == 1)
                printf_(&reply, "\"amount\":\"%ld.%03ld,%02ld\",", cents / 100000, (cents / 100) % 1000, cents % 100);
            else if (bad == 2)
                printf_(&reply, "\"amount\":%ld.%02ld,", cents / 100, cents % 100);
            else if (bad == 10)
                printf_(&reply, "\"amount\":\"%ld.%02ld0\",", cents / 100, cents % 100);
            else
                printf_(&reply, "\"amount\":\"%ld.%02ld\",", cents / 100, cents % 100);
            printf_(&reply, "\"currency\":\"%s\",", bad == 3 ? "eur" : currencies[cur]);
            printf_(&reply, "\"amount_text\":\"%s\",", bad == 6 ? "1250 EUR" : amount_text);
        } else if (bad == 7) {
            printf_(&reply, "\"amount\":null,\"currency\":\"%s\",\"amount_text\":null,", currencies[cur]);
        } else {
            puts_(&reply, "\"amount\":null,\"currency\":null,\"amount_text\":null,");
        }
        if (bad == 5)
            puts_(&reply, "\"note\":\"refund asap\",");
        if (bad != 4)
            printf_(&reply, "\"reason\":\"%s\"", reason);
        else
            reply.len--; /* drop the trailing comma */
        puts_(&reply, bad == 8 ? ",}" : "}");
        if (bad == 9)
            reply.len -= 5;
        /* bad 3 with a null amount, 1/2/6/10 with no amount stated: the
         * mutation did not happen, the reply is valid. */
        int valid = bad < 0 || ((bad == 1 || bad == 2 || bad == 3 || bad == 6 || bad == 10) && !stated);
        record(f, valid, &reply, &email);
    }
    free(reply.data);
    free(email.data);
}

/* ---- invoice ------------------------------------------------------------ */
static void put_invoice(buf_t *b, long items, size_t desc_min, size_t desc_max, int bad)
{
    long *amounts = malloc(sizeof *amounts * (size_t)(items ? items : 1));
    long total = 0;
    for (long i = 0; i < items; i++) {
        amounts[i] = rint_in(1, 500000);
        total += amounts[i];
    }
    if (rint_in(0, 3) == 0)
        total += rint_in(-1, 1); /* within the tolerance */
    if (bad == 0)
        total += 500;
    puts_(b, "{\"vendor_name\":\"");
    if (bad != 3)
        put_text(b, (size_t)rint_in(3, 40));
    puts_(b, "\",");
    if (bad != 8)
        printf_(b, "\"invoice_total_cents\":%ld,", total);
    puts_(b, "\"line_items\":[");
    for (long i = 0; i < items; i++) {
        if (i)
            puts_(b, ",");
        puts_(b, "{\"description\":\"");
        put_text(b, (size_t)rint_in((long)desc_min, (long)desc_max));
        if (bad == 1 && i == items - 1)
            printf_(b, "\",\"amount_cents\":-%ld}", amounts[i] + 1);
        else if (bad == 2 && i == items / 2)
            printf_(b, "\",\"amount_cents\":\"%ld\"}", amounts[i]);
        else if (bad == 5 && i == 0)
            printf_(b, "\",\"amount_cents\":%ld,\"tax_cents\":0}", amounts[i]);
        else if (bad == 6 && i == items - 1)
            printf_(b, "\",\"amount_cents\":%ld.5}", amounts[i]);
        else if (bad == 7 && i == items / 2)
            printf_(b, "\",\"amount_cents\" %ld}", amounts[i]);
        else
            printf_(b, "\",\"amount_cents\":%ld}", amounts[i]);
    }
    puts_(b, bad == 9 ? ",]}" : "]}");
    free(amounts);
}

static void gen_invoice(FILE *f, size_t n)
{
    buf_t reply = {0};
    for (size_t i = 0; i < n; i++) {
        reply.len = 0;
        int bad = rint_in(0, 9) == 0 ? (int)rint_in(0, 9) : -1;
        long items = rint_in(1, 200);
        if (bad == 4)
            items = 0;
        put_invoice(&reply, items, 10, 1000, bad);
        record(f, bad < 0, &reply, NULL);
    }
    free(reply.data);
}

/* ---- repo_map (nested) -------------------------------------------------- */
static const char *const kinds[] = {"function", "type", "constant", "macro"};

static void put_ident(buf_t *b)
{
    static const char first[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    static const char rest[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    char s[40];
    size_t n = (size_t)rint_in(3, 30);
    s[0] = first[rnd() % (sizeof first - 1)];
    for (size_t i = 1; i < n; i++)
        s[i] = rest[rnd() % (sizeof rest - 1)];
    put(b, s, n);
}

static void gen_repo_map(FILE *f, size_t n)
{
    buf_t b = {0};
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        int bad = rint_in(0, 9) == 0 ? (int)rint_in(0, 8) : -1;
        long modules = rint_in(1, 6);
        /* Where the one mutation goes: module 0, file 0, symbol 0. */
        puts_(&b, "{\"repository\":\"github.com/example/");
        put_ident(&b);
        puts_(&b, "\",\"modules\":[");
        for (long m = 0; m < modules; m++) {
            if (m)
                puts_(&b, ",");
            puts_(&b, "{\"name\":\"");
            put_ident(&b);
            puts_(&b, "\",\"summary\":");
            if (rint_in(0, 2)) {
                puts_(&b, "\"");
                put_text(&b, (size_t)rint_in(10, 120));
                puts_(&b, "\"");
            } else {
                puts_(&b, "null");
            }
            puts_(&b, ",\"files\":[");
            long files = (bad == 4 && m == 0) ? 0 : rint_in(1, 8);
            for (long fi = 0; fi < files; fi++) {
                if (fi)
                    puts_(&b, ",");
                puts_(&b, "{\"path\":\"src/");
                put_ident(&b);
                puts_(&b, ".c\",");
                if (!(bad == 5 && m == 0 && fi == 0))
                    printf_(&b, "\"lines\":%ld,", rint_in(0, 5000));
                puts_(&b, "\"symbols\":[");
                long syms = rint_in(0, 25);
                if (m == 0 && fi == 0 && syms == 0)
                    syms = 1;
                for (long s = 0; s < syms; s++) {
                    int here = m == 0 && fi == 0 && s == 0;
                    if (s)
                        puts_(&b, ",");
                    puts_(&b, "{\"name\":\"");
                    if (here && bad == 0)
                        puts_(&b, "9");
                    put_ident(&b);
                    printf_(&b, "\",\"kind\":\"%s\",\"line\":%ld,\"exported\":%s",
                            here && bad == 1 ? "class" : kinds[rint_in(0, 3)],
                            here && bad == 2 ? 0L : rint_in(1, 5000),
                            here && bad == 3 ? "\"yes\"" : rint_in(0, 1) ? "true" : "false");
                    puts_(&b, here && bad == 6 ? ",\"doc\":null}" : "}");
                }
                puts_(&b, "]}");
            }
            puts_(&b, "],\"depends_on\":[");
            long deps = rint_in(0, 4);
            if (bad == 7 && m == 0 && deps == 0)
                deps = 1;
            for (long d = 0; d < deps; d++) {
                if (d)
                    puts_(&b, ",");
                puts_(&b, "\"");
                if (!(bad == 7 && m == 0 && d == 0))
                    put_ident(&b);
                puts_(&b, "\"");
            }
            puts_(&b, "]}");
        }
        puts_(&b, bad == 8 ? "]" : "]}"); /* 8: the root object is never closed */
        record(f, bad < 0, &b, NULL);
    }
    free(b.data);
}

/* ---- the scaling series (invoice) --------------------------------------- */
static const size_t series_sizes[] = {100, 1000, 10000, 100000, 1000000};
#define SERIES_COUNT (sizeof series_sizes / sizeof *series_sizes)

/* A valid invoice of about `size` bytes: up to 200 items, descriptions
 * long enough to reach the size. */
static void series_valid(buf_t *b, size_t size)
{
    long items = size < 2000 ? 1 : size / 5000 > 200 ? 200 : (long)(size / 5000) + 1;
    size_t per = size / (size_t)items;
    size_t desc = per > 150 ? per - 100 : 5;
    put_invoice(b, items, desc, desc, -1);
}

/* Many unexpected keys: every one is a problem (most beyond the cap). */
static void series_keys(buf_t *b, size_t size)
{
    puts_(b, "{");
    for (long i = 0; b->len + 16 < size; i++)
        printf_(b, "%s\"k%ld\":%ld", i ? "," : "", i, i % 10);
    puts_(b, "}");
}

/* One long vendor name with some multi-byte characters and escapes. */
static void series_strings(buf_t *b, size_t size)
{
    puts_(b, "{\"vendor_name\":\"");
    while (b->len + 60 < size)
        put_text(b, 8);
    puts_(b, "\",\"invoice_total_cents\":0,\"line_items\":[]}");
}

/* An unexpected key whose value is arrays nested to the depth limit (64:
 * the root object, the outer array and 62 levels), repeated to the size. */
static void series_deep(buf_t *b, size_t size)
{
    puts_(b, "{\"junk\":[");
    for (long i = 0; i == 0 || b->len + 126 < size; i++) {
        if (i)
            puts_(b, ",");
        int depth = size < 200 ? 40 : 62;
        for (int d = 0; d < depth; d++)
            puts_(b, "[");
        for (int d = 0; d < depth; d++)
            puts_(b, "]");
    }
    puts_(b, "]}");
}

static void gen_series(const char *dir)
{
    static const struct {
        const char *name;
        void (*gen)(buf_t *, size_t);
        int intent;
    } shapes[] = {
        {"valid", series_valid, 1},
        {"keys", series_keys, 2},
        {"strings", series_strings, 2},
        {"deep", series_deep, 2},
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/series_%s.corpus", dir, shapes[s].name);
        FILE *f = fopen(path, "wb");
        if (!f) {
            fprintf(stderr, "gen_corpus: cannot write %s\n", path);
            exit(1);
        }
        buf_t b = {0};
        for (size_t i = 0; i < SERIES_COUNT; i++) {
            b.len = 0;
            shapes[s].gen(&b, series_sizes[i]);
            record(f, shapes[s].intent, &b, NULL);
        }
        free(b.data);
        fclose(f);
    }
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "gen_corpus: cannot write %s\n", path);
        exit(1);
    }
    return f;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_corpus SEED OUTDIR [SCALE]\n");
        return 2;
    }
    unsigned long long seed = strtoull(argv[1], NULL, 10);
    const char *dir = argv[2];
    size_t scale = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 1;
    if (scale == 0)
        scale = 1;
    FILE *f;
    rng_state = seed;
    f = open_out(dir, "refund.corpus");
    gen_refund(f, 4000 / scale);
    fclose(f);
    rng_state = seed + 1;
    f = open_out(dir, "invoice.corpus");
    gen_invoice(f, 200 / scale);
    fclose(f);
    rng_state = seed + 2;
    f = open_out(dir, "repo_map.corpus");
    gen_repo_map(f, 600 / scale);
    fclose(f);
    rng_state = seed + 3;
    gen_series(dir);
    return 0;
}
