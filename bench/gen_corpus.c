/* SPDX-License-Identifier: MIT */
/*
 * gen_corpus.c - the benchmark's seeded corpus generator.
 *
 *   gen_corpus SEED OUTDIR [SCALE]
 *
 * writes OUTDIR/refund.corpus, invoice.corpus, repo_map.corpus (about 90%
 * valid replies, the rest broken in one way each) and the scaling series
 * OUTDIR/series_SHAPE_SIZE.corpus, SHAPE valid, keys, strings or deep,
 * SIZE 100, 1000, 10000, 100000 or 1000000 (invoice replies of about that
 * many bytes, about 4 MiB of distinct replies per file).  SCALE (default 1)
 * divides the corpus sizes and the series' reply counts, for the quick
 * smoke test.  The same seed gives the same bytes on every machine
 * (splitmix64, no libc rand).
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

/* ---- the scaling series (invoice) ---------------------------------------
 * For every shape and nominal size S, K = max(1, ceil(4 MiB / S)) / SCALE
 * distinct replies (different random content, the same shape, S bytes
 * each where the shape allows it), in OUTDIR/series_SHAPE_S.corpus.  Each
 * size is timed over its K replies: one reply parsed over and over lets
 * the branch predictor learn it (small replies then look several times
 * faster per byte than large ones), real traffic never repeats a reply. */
static const size_t series_sizes[] = {100, 1000, 10000, 100000, 1000000};
#define SERIES_COUNT (sizeof series_sizes / sizeof *series_sizes)
#define SERIES_BYTES ((size_t)4 << 20)
#define SERIES_MAX_DEPTH 62 /* the limit 64 less the root object and "junk" */

/* Appends exactly n bytes of text: whole words (JSON-escaped already)
 * while they fit, then random letters. */
static void put_text_exact(buf_t *b, size_t n)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyz";
    size_t end = b->len + n;
    for (;;) {
        const char *w = words[rnd() % (sizeof words / sizeof *words)];
        size_t sep = b->len > end - n, wl = strlen(w); /* a blank unless first */
        if (b->len + sep + wl > end)
            break;
        if (sep)
            puts_(b, " ");
        put(b, w, wl);
    }
    if (b->len > end - n && b->len + 1 < end)
        puts_(b, " ");
    while (b->len < end) {
        char c = letters[rnd() % (sizeof letters - 1)];
        put(b, &c, 1);
    }
}

/* A valid invoice of `size` bytes (at least its skeleton with 1-byte
 * texts: about 105 B): min(200, size / 5000 + 1) items, 1 below 2 KB;
 * random amounts, a total within the tolerance, description lengths
 * varying by item, the vendor name taking the remainder. */
static void series_valid(buf_t *b, size_t size)
{
    long items = size < 2000 ? 1 : size / 5000 + 1 > 200 ? 200 : (long)(size / 5000) + 1;
    long *amounts = malloc(sizeof *amounts * (size_t)items);
    size_t *desc = malloc(sizeof *desc * (size_t)items);
    long total = 0;
    if (!amounts || !desc) {
        fprintf(stderr, "gen_corpus: out of memory\n");
        exit(1);
    }
    for (long i = 0; i < items; i++) {
        amounts[i] = rint_in(1, 500000);
        total += amounts[i];
    }
    if (rint_in(0, 3) == 0)
        total += rint_in(-1, 1); /* within the tolerance */
    /* The skeleton's bytes: everything but the texts. */
    char num[32];
    size_t fixed = strlen("{\"vendor_name\":\"\",\"invoice_total_cents\":,\"line_items\":[]}") +
                   (size_t)snprintf(num, sizeof num, "%ld", total) + (size_t)(items - 1);
    for (long i = 0; i < items; i++)
        fixed += strlen("{\"description\":\"\",\"amount_cents\":}") +
                 (size_t)snprintf(num, sizeof num, "%ld", amounts[i]);
    size_t text = size > fixed + 1 + (size_t)items ? size - fixed : 1 + (size_t)items;
    size_t vendor = (size_t)rint_in(3, 40);
    if (vendor > text / 4)
        vendor = 1;
    /* Descriptions: random weights 1..3, scaled to the rest, at least 1. */
    size_t rest = text - vendor, weights = 0, used = 0;
    for (long i = 0; i < items; i++)
        weights += desc[i] = (size_t)rint_in(100, 300);
    for (long i = 0; i < items; i++) {
        size_t d = (size_t)((double)(rest - (size_t)items) * (double)desc[i] / (double)weights);
        used += desc[i] = d + 1;
    }
    vendor += rest - used; /* the rounding */
    puts_(b, "{\"vendor_name\":\"");
    put_text_exact(b, vendor);
    printf_(b, "\",\"invoice_total_cents\":%ld,\"line_items\":[", total);
    for (long i = 0; i < items; i++) {
        puts_(b, i ? ",{\"description\":\"" : "{\"description\":\"");
        put_text_exact(b, desc[i]);
        printf_(b, "\",\"amount_cents\":%ld}", amounts[i]);
    }
    puts_(b, "]}");
    free(amounts);
    free(desc);
}

/* A random member name of n bytes ending in `tag` (which makes every
 * member of a reply unique and none of invoice's fields): letters, digits,
 * '_', '-', some 'é' and some "\n". */
static void put_key(buf_t *b, size_t n, const char *tag)
{
    static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
    size_t tl = strlen(tag), end = b->len + n - tl;
    while (b->len < end) {
        long r = rint_in(0, 39);
        if (r == 0 && end - b->len >= 2)
            puts_(b, "\xc3\xa9");
        else if (r == 1 && end - b->len >= 2)
            puts_(b, "\\n");
        else
            put(b, &chars[rnd() % (sizeof chars - 1)], 1);
    }
    put(b, tag, tl);
}

/* Many unexpected members: every one is a problem (most beyond the cap).
 * Random names of 3 to 25 bytes, integers of 1 to 6 digits; the last
 * name is as long as it takes to fill the size. */
static void series_keys(buf_t *b, size_t size)
{
    puts_(b, "{");
    for (long i = 0;; i++) {
        char value[32], tag[24];
        int vl = snprintf(value, sizeof value, "%ld",
                          (long)((rnd() % 1000000) >> rint_in(0, 19)));
        int tl = snprintf(tag, sizeof tag, "~%lx", (unsigned long)i);
        size_t key = (size_t)tl + (size_t)rint_in(1, 20);
        size_t other = (i ? 1u : 0u) + 3 + (size_t)vl; /* , " " : value */
        size_t room = size > b->len + 1 ? size - b->len - 1 : 0; /* 1 for '}' */
        int last = other + key + 40 > room;
        if (last)
            key = room > other + (size_t)tl ? room - other : (size_t)tl;
        if (i)
            puts_(b, ",");
        puts_(b, "\"");
        put_key(b, key, tag);
        puts_(b, "\":");
        put(b, value, (size_t)vl);
        if (last)
            break;
    }
    puts_(b, "}");
}

/* One long vendor name: words with multi-byte characters and escapes. */
static void series_strings(buf_t *b, size_t size)
{
    static const char tail[] = "\",\"invoice_total_cents\":0,\"line_items\":[]}";
    puts_(b, "{\"vendor_name\":\"");
    size_t room = size > b->len + sizeof tail - 1 + 1 ? size - b->len - (sizeof tail - 1) : 1;
    put_text_exact(b, room);
    puts_(b, tail);
}

/* An unexpected member whose value is an array of arrays nested up to the
 * depth limit (64: the root object, the outer array and 62 levels): each
 * element a random walk of brackets that climbs to a random peak of 32 to
 * 62 levels (wiggling on the way), and wanders down again; the elements
 * and their inner siblings are separated by commas. */
static void series_deep(buf_t *b, size_t size)
{
    puts_(b, "{\"junk\":[");
    size_t end = size > b->len + 2 + 2 ? size - 2 : b->len + 2; /* keep "]}" */
    for (long e = 0;; e++) {
        size_t room = end > b->len ? end - b->len : 0;
        if (e)
            room = room ? room - 1 : 0; /* its comma */
        if (room < 2 && e)
            break;
        size_t budget = (size_t)rint_in(100, 400);
        if (budget > room || room - budget < 2)
            budget = room < 2 ? 2 : room;
        if (e)
            puts_(b, ",");
        size_t start = b->len;
        long peak = rint_in(32, SERIES_MAX_DEPTH), d = 0;
        int up = 1, closed = 0;
        do {
            size_t left = budget - (b->len - start);
            int open;
            if (d == 0)
                open = 1;
            else if ((size_t)d + 1 + (size_t)closed >= left || d >= SERIES_MAX_DEPTH)
                open = 0; /* room only to close (and a comma before an open) */
            else
                open = rint_in(0, 99) < (up ? 80 : 20);
            if (open) {
                if (closed)
                    puts_(b, ",");
                puts_(b, "[");
                d++;
                closed = 0;
                if (d >= peak)
                    up = 0;
            } else {
                puts_(b, "]");
                d--;
                closed = 1;
            }
        } while (d > 0);
    }
    while (b->len < end) /* at most a byte or two short: blanks */
        puts_(b, " ");
    puts_(b, "]}");
}

static void gen_series(const char *dir, size_t scale)
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
    buf_t b = {0};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        for (size_t i = 0; i < SERIES_COUNT; i++) {
            char path[4096];
            size_t size = series_sizes[i];
            size_t k = (SERIES_BYTES + size - 1) / size / scale;
            snprintf(path, sizeof path, "%s/series_%s_%zu.corpus", dir, shapes[s].name, size);
            FILE *f = fopen(path, "wb");
            if (!f) {
                fprintf(stderr, "gen_corpus: cannot write %s\n", path);
                exit(1);
            }
            for (size_t r = 0; r < (k ? k : 1); r++) {
                b.len = 0;
                shapes[s].gen(&b, size);
                record(f, shapes[s].intent, &b, NULL);
            }
            fclose(f);
        }
    }
    free(b.data);
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
    gen_series(dir, scale);
    return 0;
}
