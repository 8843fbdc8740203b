/*
 * stats.c - `contractc stats LOG... [--json]`: what the decision logs
 * (`contractc-log/1`, design page "The decision log") say about a
 * contract in use.
 *
 * Everything is grouped by contract hash first: the hash covers the
 * contract, its schema and its prompt, so an edited prompt is a new group,
 * never an average with the old one.  Inside a group, one row for the whole
 * log and one per day and model, so that a rising rejection rate after a
 * model change or on one day stands out; then every (path, kind) with the
 * share of replies that had it, the attempts it took to be accepted, and
 * the routes the application chose.
 *
 * Definitions (also printed with --json's field names):
 * - a reply is an attempt that produced one (accepted or rejected; a model
 *   error produced none); the rejection rate is rejected / replies;
 * - attempts to accept counts every attempt up to and including the
 *   accepted one, model errors included (they used up an attempt);
 * - "cut" counts replies whose finish_reason was "length" or "max_tokens"
 *   (the token limit cut them off);
 * - truncated, refused, filtered count decisions that ended so: outcomes
 *   that are not wrong answers (docs/contract-language.md, "Outcomes that
 *   are not wrong answers"); a truncated attempt is a reply but not a
 *   rejection, a refused or filtered one is not a reply;
 * - model errors are also counted by their `error_class`, where given.
 *
 * A line that is not a well-formed decision is counted and reported on
 * stderr with its file and line number, and never stops the count.
 */
#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"

#define EXIT_USAGE 2
#define BAD_LINES_SHOWN 20
#define ATTEMPT_HISTOGRAM 101 /* attempts 1..100 (CONTRACTC_LOOP_MAX_ATTEMPTS) */

typedef struct metrics {
    size_t decisions, attempts, replies, rejected, accepted, attempts_to_accept;
    size_t escalated, failed, model_errors, cut, routed;
    size_t truncated, refused, filtered;
} metrics_t;

typedef struct day_row {
    char day[11];
    char *model;
    metrics_t m;
} day_row_t;

typedef struct named_count {
    char *a, *b; /* (path, kind), (route, NULL), (kind, NULL), ... */
    size_t count;
} named_count_t;

typedef struct counts {
    named_count_t *items;
    size_t count, capacity;
} counts_t;

typedef struct group {
    char *hash, *contract;
    double version;
    metrics_t all;
    size_t histogram[ATTEMPT_HISTOGRAM];
    counts_t problems, kinds, routes, models, dialects, error_classes;
    day_row_t *days;
    size_t day_count, day_capacity;
} group_t;

typedef struct stats {
    group_t *groups;
    size_t group_count, group_capacity;
    size_t files, lines, decisions, bad, blank;
    FILE *err;
    bool oom;
} stats_t;

/* ---- small containers --------------------------------------------------- */

static char *dup_or_null(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static bool same(const char *x, const char *y)
{
    if (!x || !y)
        return x == y;
    return strcmp(x, y) == 0;
}

static bool grow(void **items, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity)
        return true;
    size_t cap = *capacity ? *capacity * 2 : 8;
    void *p = realloc(*items, cap * size);
    if (!p)
        return false;
    *items = p;
    *capacity = cap;
    return true;
}

/* Adds n to the count of (a, b); false when out of memory. */
static bool counts_add(counts_t *c, const char *a, const char *b, size_t n)
{
    for (size_t i = 0; i < c->count; i++)
        if (same(c->items[i].a, a) && same(c->items[i].b, b)) {
            c->items[i].count += n;
            return true;
        }
    if (!grow((void **)&c->items, &c->capacity, c->count, sizeof *c->items))
        return false;
    named_count_t *e = &c->items[c->count];
    e->a = dup_or_null(a);
    e->b = dup_or_null(b);
    if ((a && !e->a) || (b && !e->b)) {
        free(e->a);
        free(e->b);
        return false;
    }
    e->count = n;
    c->count++;
    return true;
}

static void counts_free(counts_t *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->items[i].a);
        free(c->items[i].b);
    }
    free(c->items);
}

/* Most frequent first, then by name, so the output is stable. */
static int by_count(const void *x, const void *y)
{
    const named_count_t *a = x, *b = y;
    if (a->count != b->count)
        return a->count < b->count ? 1 : -1;
    int c = strcmp(a->a ? a->a : "", b->a ? b->a : "");
    return c ? c : strcmp(a->b ? a->b : "", b->b ? b->b : "");
}

static int by_day(const void *x, const void *y)
{
    const day_row_t *a = x, *b = y;
    int c = strcmp(a->day, b->day);
    return c ? c : strcmp(a->model ? a->model : "", b->model ? b->model : "");
}

static void stats_free(stats_t *s)
{
    for (size_t i = 0; i < s->group_count; i++) {
        group_t *g = &s->groups[i];
        free(g->hash);
        free(g->contract);
        counts_free(&g->problems);
        counts_free(&g->kinds);
        counts_free(&g->routes);
        counts_free(&g->models);
        counts_free(&g->dialects);
        counts_free(&g->error_classes);
        for (size_t k = 0; k < g->day_count; k++)
            free(g->days[k].model);
        free(g->days);
    }
    free(s->groups);
}

/* ---- reading one line ------------------------------------------------------ */

static const char *string_of(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A string, or null / absent: true with *out NULL for the latter. */
static bool optional_string(const cJSON *obj, const char *key, const char **out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    *out = NULL;
    if (!v || cJSON_IsNull(v))
        return true;
    if (!cJSON_IsString(v))
        return false;
    *out = v->valuestring;
    return true;
}

static bool all_digits(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

/* The date part of an RFC 3339 date-time (the log's `time`), checked enough
 * to group by: YYYY-MM-DDThh:mm:ss followed by a fraction or an offset. */
static bool day_of(const char *time, char day[11])
{
    size_t n = strlen(time);
    if (n < 20 || !all_digits(time, 4) || time[4] != '-' || !all_digits(time + 5, 2) ||
        time[7] != '-' || !all_digits(time + 8, 2) || time[10] != 'T' ||
        !all_digits(time + 11, 2) || time[13] != ':' || !all_digits(time + 14, 2) ||
        time[16] != ':' || !all_digits(time + 17, 2))
        return false;
    int month = (time[5] - '0') * 10 + (time[6] - '0');
    int mday = (time[8] - '0') * 10 + (time[9] - '0');
    if (month < 1 || month > 12 || mday < 1 || mday > 31)
        return false;
    memcpy(day, time, 10);
    day[10] = '\0';
    return true;
}

typedef enum {
    A_ACCEPTED, A_REJECTED, A_MODEL_ERROR, A_TRUNCATED, A_REFUSED, A_FILTERED, A_BAD
} attempt_kind_t;

static attempt_kind_t attempt_kind(const char *s)
{
    if (!s)
        return A_BAD;
    if (strcmp(s, "accepted") == 0)
        return A_ACCEPTED;
    if (strcmp(s, "rejected") == 0)
        return A_REJECTED;
    if (strcmp(s, "model_error") == 0)
        return A_MODEL_ERROR;
    if (strcmp(s, "truncated") == 0)
        return A_TRUNCATED;
    if (strcmp(s, "refused") == 0)
        return A_REFUSED;
    if (strcmp(s, "filtered") == 0)
        return A_FILTERED;
    return A_BAD;
}

/* Checks a parsed line; NULL when it is a well-formed decision, else why
 * not. */
static const char *check_line(const cJSON *j, char day[11])
{
    if (!cJSON_IsObject(j))
        return "not a JSON object";
    const char *log = string_of(j, "log");
    if (!log || strcmp(log, "contractc-log/1") != 0)
        return "\"log\" is not \"contractc-log/1\"";
    const char *time = string_of(j, "time");
    if (!time || !day_of(time, day))
        return "\"time\" is not an RFC 3339 date-time";
    if (!string_of(j, "contract"))
        return "\"contract\" is missing or not a string";
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(j, "version");
    if (!cJSON_IsNumber(version))
        return "\"version\" is missing or not a number";
    const char *hash = string_of(j, "hash");
    if (!hash || strncmp(hash, "sha256:", 7) != 0)
        return "\"hash\" is missing or not \"sha256:...\"";
    const char *s;
    if (!optional_string(j, "model", &s) || !optional_string(j, "dialect", &s) ||
        !optional_string(j, "route", &s) || !optional_string(j, "record_id", &s))
        return "\"model\", \"dialect\", \"route\" or \"record_id\" is not a string or null";
    const cJSON *attempts = cJSON_GetObjectItemCaseSensitive(j, "attempts");
    int n = cJSON_GetArraySize(attempts);
    if (!cJSON_IsArray(attempts) || n == 0)
        return "\"attempts\" is missing or empty";
    if (n >= ATTEMPT_HISTOGRAM)
        return "more attempts than a loop can make";
    int accepted = 0, rejected = 0, accepted_at = -1, i = 0;
    attempt_kind_t last = A_BAD;
    const cJSON *a;
    cJSON_ArrayForEach(a, attempts)
    {
        attempt_kind_t k = attempt_kind(string_of(a, "outcome"));
        if (k == A_BAD)
            return "an attempt's \"outcome\" is not accepted, rejected, model_error, truncated, "
                   "refused or filtered";
        /* Refused and filtered end a run; a truncated attempt may be
         * followed by one on_truncated retry. */
        if (i + 1 < n && (k == A_REFUSED || k == A_FILTERED))
            return "a refused or filtered attempt must be the last";
        if (k == A_MODEL_ERROR && !optional_string(a, "error_class", &s))
            return "an attempt's \"error_class\" is not a string";
        last = k;
        if (k == A_ACCEPTED) {
            accepted++;
            accepted_at = i;
        }
        rejected += k == A_REJECTED;
        const cJSON *problems = cJSON_GetObjectItemCaseSensitive(a, "problems");
        if (!cJSON_IsArray(problems))
            return "an attempt has no \"problems\" array";
        const cJSON *p;
        cJSON_ArrayForEach(p, problems)
        {
            if (!string_of(p, "path") || !string_of(p, "kind"))
                return "a problem lacks \"path\" or \"kind\"";
        }
        if (!optional_string(a, "finish_reason", &s))
            return "an attempt's \"finish_reason\" is not a string or null";
        i++;
    }
    const char *outcome = string_of(j, "outcome");
    if (!outcome)
        return "\"outcome\" is missing";
    if (strcmp(outcome, "accepted") == 0) {
        if (accepted != 1 || accepted_at != n - 1)
            return "an accepted decision must end with its only accepted attempt";
    } else if (strcmp(outcome, "escalated") == 0) {
        if (accepted || !rejected)
            return "an escalated decision must have rejected and no accepted attempts";
    } else if (strcmp(outcome, "failed") == 0) {
        if (accepted || rejected || last != A_MODEL_ERROR)
            return "a failed decision must have only model errors";
    } else if (strcmp(outcome, "truncated") == 0 || strcmp(outcome, "refused") == 0 ||
               strcmp(outcome, "filtered") == 0) {
        if (accepted || last != attempt_kind(outcome))
            return "a truncated, refused or filtered decision must end with such an attempt";
    } else {
        return "\"outcome\" is not accepted, escalated, failed, truncated, refused or filtered";
    }
    return NULL;
}

static group_t *group_for(stats_t *s, const char *hash, const char *contract, double version)
{
    for (size_t i = 0; i < s->group_count; i++)
        if (strcmp(s->groups[i].hash, hash) == 0)
            return &s->groups[i];
    if (!grow((void **)&s->groups, &s->group_capacity, s->group_count, sizeof *s->groups))
        return NULL;
    group_t *g = &s->groups[s->group_count];
    memset(g, 0, sizeof *g);
    g->hash = dup_or_null(hash);
    g->contract = dup_or_null(contract);
    g->version = version;
    if (!g->hash || !g->contract) {
        free(g->hash);
        free(g->contract);
        return NULL;
    }
    s->group_count++;
    return g;
}

static day_row_t *day_for(group_t *g, const char *day, const char *model)
{
    for (size_t i = 0; i < g->day_count; i++)
        if (strcmp(g->days[i].day, day) == 0 && same(g->days[i].model, model))
            return &g->days[i];
    if (!grow((void **)&g->days, &g->day_capacity, g->day_count, sizeof *g->days))
        return NULL;
    day_row_t *r = &g->days[g->day_count];
    memset(r, 0, sizeof *r);
    memcpy(r->day, day, sizeof r->day);
    r->model = dup_or_null(model);
    if (model && !r->model)
        return NULL;
    g->day_count++;
    return r;
}

/* Adds one well-formed decision to its group. */
static bool add_decision(stats_t *s, const cJSON *j, const char *day)
{
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(j, "version");
    group_t *g = group_for(s, string_of(j, "hash"), string_of(j, "contract"), version->valuedouble);
    if (!g)
        return false;
    const char *model = NULL, *dialect = NULL, *route = NULL;
    optional_string(j, "model", &model);
    optional_string(j, "dialect", &dialect);
    optional_string(j, "route", &route);
    day_row_t *row = day_for(g, day, model);
    if (!row)
        return false;
    metrics_t d;
    memset(&d, 0, sizeof d);
    d.decisions = 1;
    const char *outcome = string_of(j, "outcome");
    d.escalated = strcmp(outcome, "escalated") == 0;
    d.failed = strcmp(outcome, "failed") == 0;
    d.truncated = strcmp(outcome, "truncated") == 0;
    d.refused = strcmp(outcome, "refused") == 0;
    d.filtered = strcmp(outcome, "filtered") == 0;
    d.routed = route != NULL;
    const cJSON *a;
    size_t index = 0;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(j, "attempts"))
    {
        index++;
        d.attempts++;
        attempt_kind_t k = attempt_kind(string_of(a, "outcome"));
        if (k == A_MODEL_ERROR) {
            d.model_errors++;
            const char *error_class = NULL;
            optional_string(a, "error_class", &error_class);
            if (error_class && !counts_add(&g->error_classes, error_class, NULL, 1))
                return false;
            continue;
        }
        if (k == A_REFUSED || k == A_FILTERED)
            continue; /* no reply to count */
        d.replies++;
        const char *finish = NULL;
        optional_string(a, "finish_reason", &finish);
        d.cut += finish && (strcmp(finish, "length") == 0 || strcmp(finish, "max_tokens") == 0);
        if (k == A_TRUNCATED)
            continue; /* cut by the provider: not the model's wrong answer */
        if (k == A_ACCEPTED) {
            d.accepted = 1;
            d.attempts_to_accept = index;
            g->histogram[index]++;
            continue;
        }
        d.rejected++;
        /* Count each (path, kind) once per reply: the rate is the share of
         * replies that had it. */
        const cJSON *problems = cJSON_GetObjectItemCaseSensitive(a, "problems");
        const cJSON *p;
        int pi = 0;
        cJSON_ArrayForEach(p, problems)
        {
            const char *path = string_of(p, "path"), *kind = string_of(p, "kind");
            bool seen = false;
            for (int q = 0; q < pi && !seen; q++) {
                const cJSON *o = cJSON_GetArrayItem(problems, q);
                seen = strcmp(string_of(o, "path"), path) == 0 &&
                       strcmp(string_of(o, "kind"), kind) == 0;
            }
            pi++;
            if (!seen && !counts_add(&g->problems, path, kind, 1))
                return false;
            if (!counts_add(&g->kinds, kind, NULL, 1))
                return false;
        }
    }
    metrics_t *targets[2] = {&g->all, &row->m};
    for (int t = 0; t < 2; t++) {
        metrics_t *m = targets[t];
        m->decisions += d.decisions;
        m->attempts += d.attempts;
        m->replies += d.replies;
        m->rejected += d.rejected;
        m->accepted += d.accepted;
        m->attempts_to_accept += d.attempts_to_accept;
        m->escalated += d.escalated;
        m->failed += d.failed;
        m->model_errors += d.model_errors;
        m->cut += d.cut;
        m->routed += d.routed;
        m->truncated += d.truncated;
        m->refused += d.refused;
        m->filtered += d.filtered;
    }
    if (route && !counts_add(&g->routes, route, NULL, 1))
        return false;
    if (!counts_add(&g->models, model ? model : "(none)", NULL, 1) ||
        !counts_add(&g->dialects, dialect ? dialect : "(none)", NULL, 1))
        return false;
    return true;
}

static void bad_line(stats_t *s, const char *file, size_t line, const char *why)
{
    s->bad++;
    if (s->bad <= BAD_LINES_SHOWN)
        fprintf(s->err, "contractc stats: %s:%zu: bad line: %s\n", file, line, why);
}

/* Reads one log; false when it cannot be opened or read. */
static bool read_log(stats_t *s, const char *name)
{
    FILE *f = strcmp(name, "-") == 0 ? stdin : fopen(name, "rb");
    if (!f) {
        fprintf(s->err, "contractc stats: cannot open %s\n", name);
        return false;
    }
    s->files++;
    char *buf = NULL;
    size_t cap = 0, number = 0;
    ssize_t got;
    while ((got = getline(&buf, &cap, f)) >= 0) {
        number++;
        size_t n = (size_t)got;
        while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
            n--;
        if (n == 0) {
            s->blank++;
            continue;
        }
        s->lines++;
        if (memchr(buf, '\0', n)) {
            bad_line(s, name, number, "a NUL byte in the line");
            continue;
        }
        cJSON *j = cJSON_ParseWithLength(buf, n);
        char day[11];
        const char *why = j ? check_line(j, day) : "not JSON (a line cut by a failed write?)";
        if (why) {
            bad_line(s, name, number, why);
        } else if (!add_decision(s, j, day)) {
            s->oom = true;
        } else {
            s->decisions++;
        }
        cJSON_Delete(j);
        if (s->oom)
            break;
    }
    bool ok = !ferror(f);
    if (!ok)
        fprintf(s->err, "contractc stats: error reading %s\n", name);
    free(buf);
    if (f != stdin)
        fclose(f);
    return ok;
}

/* ---- output ---------------------------------------------------------------- */

static double ratio(size_t a, size_t b) { return b ? (double)a / (double)b : 0.0; }

/* A plain text table: cells are formatted strings, numbers right-aligned. */
#define TABLE_MAX_COLS 12
#define CELL_SIZE 96
typedef struct table {
    char (*cells)[TABLE_MAX_COLS][CELL_SIZE];
    size_t rows, capacity, cols;
    bool right[TABLE_MAX_COLS];
} table_t;

static bool table_row(table_t *t)
{
    if (!grow((void **)&t->cells, &t->capacity, t->rows, sizeof *t->cells))
        return false;
    memset(t->cells[t->rows], 0, sizeof *t->cells);
    t->rows++;
    return true;
}

static void cell(table_t *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void cell(table_t *t, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cells[t->rows - 1][col], CELL_SIZE, fmt, ap);
    va_end(ap);
}

/* Display width: code points, so "…" and the like line up. */
static size_t width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void table_print(const table_t *t, FILE *out, const char *indent)
{
    size_t w[TABLE_MAX_COLS] = {0};
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->cols; c++)
            if (width(t->cells[r][c]) > w[c])
                w[c] = width(t->cells[r][c]);
    for (size_t r = 0; r < t->rows; r++) {
        fputs(indent, out);
        for (size_t c = 0; c < t->cols; c++) {
            const char *v = t->cells[r][c];
            size_t pad = w[c] - width(v);
            bool last = c + 1 == t->cols;
            if (t->right[c] && r > 0)
                fprintf(out, "%*s%s", (int)pad, "", v);
            else
                fprintf(out, "%s%*s", v, last ? 0 : (int)pad, "");
            if (!last)
                fputs("  ", out);
        }
        fputc('\n', out);
    }
}

static void metrics_cells(table_t *t, const metrics_t *m)
{
    cell(t, 2, "%zu", m->decisions);
    cell(t, 3, "%zu", m->replies);
    cell(t, 4, "%zu", m->rejected);
    cell(t, 5, "%.1f%%", 100.0 * ratio(m->rejected, m->replies));
    cell(t, 6, "%zu", m->accepted);
    if (m->accepted)
        cell(t, 7, "%.2f", ratio(m->attempts_to_accept, m->accepted));
    else
        cell(t, 7, "-");
    cell(t, 8, "%zu", m->escalated);
    cell(t, 9, "%zu", m->failed);
    cell(t, 10, "%zu", m->model_errors);
    cell(t, 11, "%zu", m->cut);
}

static bool print_counts_line(FILE *out, const char *label, counts_t *c)
{
    if (!c->count)
        return true;
    if (c->count > 1)
        qsort(c->items, c->count, sizeof *c->items, by_count);
    fprintf(out, "  %s:", label);
    for (size_t i = 0; i < c->count; i++)
        fprintf(out, "%s %s %zu", i ? "," : "", c->items[i].a, c->items[i].count);
    fputc('\n', out);
    return true;
}

static bool print_text(stats_t *s, FILE *out)
{
    fprintf(out, "contractc stats: %zu decision%s from %zu file%s; %zu bad line%s\n", s->decisions,
            s->decisions == 1 ? "" : "s", s->files, s->files == 1 ? "" : "s", s->bad,
            s->bad == 1 ? "" : "s");
    for (size_t gi = 0; gi < s->group_count; gi++) {
        group_t *g = &s->groups[gi];
        fprintf(out, "\n%s v%.0f  %s\n", g->contract, g->version, g->hash);
        if (g->day_count > 1)
            qsort(g->days, g->day_count, sizeof *g->days, by_day);
        table_t t;
        memset(&t, 0, sizeof t);
        t.cols = 12;
        static const char *const head[] = {"day", "model", "decisions", "replies", "rejected",
                                           "rejection rate", "accepted", "attempts to accept",
                                           "escalated", "failed", "model errors", "cut (length)"};
        if (!table_row(&t))
            return false;
        for (size_t c = 0; c < t.cols; c++) {
            cell(&t, c, "%s", head[c]);
            t.right[c] = c >= 2;
        }
        if (!table_row(&t))
            return false;
        cell(&t, 0, "all");
        cell(&t, 1, "%s", g->models.count == 1 ? g->models.items[0].a : "*");
        metrics_cells(&t, &g->all);
        for (size_t d = 0; d < g->day_count; d++) {
            if (!table_row(&t))
                return false;
            cell(&t, 0, "%s", g->days[d].day);
            cell(&t, 1, "%s", g->days[d].model ? g->days[d].model : "(none)");
            metrics_cells(&t, &g->days[d].m);
        }
        table_print(&t, out, "  ");
        free(t.cells);

        fprintf(out, "  attempts to accept:");
        bool any = false;
        for (size_t k = 1; k < ATTEMPT_HISTOGRAM; k++)
            if (g->histogram[k]) {
                fprintf(out, "%s %zu: %zu", any ? "," : "", k, g->histogram[k]);
                any = true;
            }
        fputs(any ? "\n" : " none accepted\n", out);
        fprintf(out, "  routes:");
        if (!g->routes.count)
            fprintf(out, " none\n");
        else {
            if (g->routes.count > 1)
                qsort(g->routes.items, g->routes.count, sizeof *g->routes.items, by_count);
            for (size_t i = 0; i < g->routes.count; i++)
                fprintf(out, "%s %s %zu", i ? "," : "", g->routes.items[i].a, g->routes.items[i].count);
            fputc('\n', out);
        }
        if (g->all.truncated || g->all.refused || g->all.filtered)
            fprintf(out, "  not repaired: truncated %zu, refused %zu, filtered %zu\n",
                    g->all.truncated, g->all.refused, g->all.filtered);
        print_counts_line(out, "model errors by class", &g->error_classes);
        print_counts_line(out, "dialects", &g->dialects);
        print_counts_line(out, "problems by kind", &g->kinds);

        if (g->problems.count) {
            if (g->problems.count > 1)
                qsort(g->problems.items, g->problems.count, sizeof *g->problems.items, by_count);
            memset(&t, 0, sizeof t);
            t.cols = 4;
            t.right[2] = t.right[3] = true;
            if (!table_row(&t))
                return false;
            cell(&t, 0, "path");
            cell(&t, 1, "kind");
            cell(&t, 2, "replies");
            cell(&t, 3, "share of replies");
            for (size_t i = 0; i < g->problems.count; i++) {
                const named_count_t *p = &g->problems.items[i];
                if (!table_row(&t))
                    return false;
                cell(&t, 0, "%s", p->a);
                cell(&t, 1, "%s", p->b);
                cell(&t, 2, "%zu", p->count);
                cell(&t, 3, "%.1f%%", 100.0 * ratio(p->count, g->all.replies));
            }
            table_print(&t, out, "  ");
            free(t.cells);
        }
    }
    return true;
}

static cJSON *metrics_json(const metrics_t *m)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    cJSON_AddNumberToObject(o, "decisions", (double)m->decisions);
    cJSON_AddNumberToObject(o, "attempts", (double)m->attempts);
    cJSON_AddNumberToObject(o, "replies", (double)m->replies);
    cJSON_AddNumberToObject(o, "rejected", (double)m->rejected);
    cJSON_AddNumberToObject(o, "rejection_rate", ratio(m->rejected, m->replies));
    cJSON_AddNumberToObject(o, "accepted", (double)m->accepted);
    if (m->accepted)
        cJSON_AddNumberToObject(o, "mean_attempts_to_accept", ratio(m->attempts_to_accept, m->accepted));
    else
        cJSON_AddNullToObject(o, "mean_attempts_to_accept");
    cJSON_AddNumberToObject(o, "escalated", (double)m->escalated);
    cJSON_AddNumberToObject(o, "failed", (double)m->failed);
    cJSON_AddNumberToObject(o, "model_errors", (double)m->model_errors);
    cJSON_AddNumberToObject(o, "cut", (double)m->cut);
    cJSON_AddNumberToObject(o, "routed", (double)m->routed);
    cJSON_AddNumberToObject(o, "truncated", (double)m->truncated);
    cJSON_AddNumberToObject(o, "refused", (double)m->refused);
    cJSON_AddNumberToObject(o, "filtered", (double)m->filtered);
    return o;
}

static cJSON *counts_json(counts_t *c)
{
    if (c->count > 1)
        qsort(c->items, c->count, sizeof *c->items, by_count);
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < c->count; i++)
        cJSON_AddNumberToObject(o, c->items[i].a, (double)c->items[i].count);
    return o;
}

static cJSON *stats_json(stats_t *s)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddNumberToObject(root, "files", (double)s->files);
    cJSON_AddNumberToObject(root, "lines", (double)s->lines);
    cJSON_AddNumberToObject(root, "decisions", (double)s->decisions);
    cJSON_AddNumberToObject(root, "bad_lines", (double)s->bad);
    cJSON *contracts = cJSON_AddArrayToObject(root, "contracts");
    for (size_t gi = 0; contracts && gi < s->group_count; gi++) {
        group_t *g = &s->groups[gi];
        cJSON *o = cJSON_CreateObject();
        if (!o || !cJSON_AddItemToArray(contracts, o))
            break;
        cJSON_AddStringToObject(o, "hash", g->hash);
        cJSON_AddStringToObject(o, "contract", g->contract);
        cJSON_AddNumberToObject(o, "version", g->version);
        cJSON_AddItemToObject(o, "all", metrics_json(&g->all));
        cJSON *hist = cJSON_AddObjectToObject(o, "attempts_to_accept");
        for (size_t k = 1; hist && k < ATTEMPT_HISTOGRAM; k++)
            if (g->histogram[k]) {
                char key[8];
                snprintf(key, sizeof key, "%zu", k);
                cJSON_AddNumberToObject(hist, key, (double)g->histogram[k]);
            }
        cJSON_AddItemToObject(o, "routes", counts_json(&g->routes));
        cJSON_AddItemToObject(o, "models", counts_json(&g->models));
        cJSON_AddItemToObject(o, "dialects", counts_json(&g->dialects));
        cJSON_AddItemToObject(o, "error_classes", counts_json(&g->error_classes));
        cJSON_AddItemToObject(o, "kinds", counts_json(&g->kinds));
        if (g->problems.count > 1)
            qsort(g->problems.items, g->problems.count, sizeof *g->problems.items, by_count);
        cJSON *problems = cJSON_AddArrayToObject(o, "problems");
        for (size_t i = 0; problems && i < g->problems.count; i++) {
            cJSON *p = cJSON_CreateObject();
            if (!p || !cJSON_AddItemToArray(problems, p))
                break;
            cJSON_AddStringToObject(p, "path", g->problems.items[i].a);
            cJSON_AddStringToObject(p, "kind", g->problems.items[i].b);
            cJSON_AddNumberToObject(p, "replies", (double)g->problems.items[i].count);
            cJSON_AddNumberToObject(p, "share", ratio(g->problems.items[i].count, g->all.replies));
        }
        if (g->day_count > 1)
            qsort(g->days, g->day_count, sizeof *g->days, by_day);
        cJSON *days = cJSON_AddArrayToObject(o, "days");
        for (size_t d = 0; days && d < g->day_count; d++) {
            cJSON *r = metrics_json(&g->days[d].m);
            if (!r || !cJSON_AddItemToArray(days, r))
                break;
            cJSON_AddStringToObject(r, "day", g->days[d].day);
            if (g->days[d].model)
                cJSON_AddStringToObject(r, "model", g->days[d].model);
            else
                cJSON_AddNullToObject(r, "model");
        }
    }
    return root;
}

int cc_stats_main(int argc, char **argv, FILE *out, FILE *err)
{
    bool json = false;
    int logs = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0)
            json = true;
        else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(err, "contractc stats: unknown option '%s'\nusage: contractc stats LOG... [--json]\n",
                    argv[i]);
            return EXIT_USAGE;
        } else
            logs++;
    }
    if (logs == 0) {
        fprintf(err, "usage: contractc stats LOG... [--json]   (LOG may be - for stdin)\n");
        return EXIT_USAGE;
    }
    stats_t s;
    memset(&s, 0, sizeof s);
    s.err = err;
    int rc = 0;
    for (int i = 0; i < argc && !s.oom; i++) {
        if (strcmp(argv[i], "--json") == 0)
            continue;
        if (!read_log(&s, argv[i]))
            rc = EXIT_USAGE;
    }
    if (s.bad > BAD_LINES_SHOWN)
        fprintf(err, "contractc stats: ... and %zu more bad lines\n", s.bad - BAD_LINES_SHOWN);
    if (s.bad)
        fprintf(err, "contractc stats: %zu bad line%s of %zu counted and skipped\n", s.bad,
                s.bad == 1 ? "" : "s", s.lines);
    if (s.oom) {
        fprintf(err, "contractc stats: out of memory\n");
        stats_free(&s);
        return 1;
    }
    if (json) {
        cJSON *root = stats_json(&s);
        char *text = root ? cJSON_Print(root) : NULL;
        if (text) {
            fputs(text, out);
            fputc('\n', out);
        } else {
            fprintf(err, "contractc stats: out of memory\n");
            rc = 1;
        }
        free(text);
        cJSON_Delete(root);
    } else if (!print_text(&s, out)) {
        fprintf(err, "contractc stats: out of memory\n");
        rc = 1;
    }
    stats_free(&s);
    return rc;
}
