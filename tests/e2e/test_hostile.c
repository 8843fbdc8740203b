/* SPDX-License-Identifier: MIT */
/*
 * test_hostile.c - hostile contracts and hostile replies.
 *
 * Contracts (the generator's untrusted input): a 10 MB file, 10,000 fields,
 * 40 levels of nesting, 100,000 open brackets, 70,000 YAML nodes, a YAML
 * "billion laughs", invalid UTF-8, names that collide once mangled into C,
 * and patterns whose automata would explode.  Each runs `contractc lint` as
 * a separate process and must exit 1 (never a signal) with its error at
 * FILE:LINE:COL (or FILE: for the file as a whole); the message, the time
 * and the peak memory are printed.  Time is bounded by the ctest TIMEOUT;
 * memory by an assertion on the child's peak RSS.  The large contracts are
 * written at run time (tests/data/hostile/ holds the small ones).
 *
 * Replies (the runtime's untrusted input), beyond tests/data/cases:
 *   - every JSONTestSuite n_ file embedded in an otherwise valid invoice
 *     reply at five places (a field's value, an array item, a nested
 *     field's value, the value of an unexpected key and of a duplicate key,
 *     both of which are skipped): always exactly one document-level
 *     problem at "$";
 *   - keys and values that differ from the contract's only in Unicode
 *     normalisation (NFD vs NFC, the Kelvin sign, compatibility forms):
 *     never matched;
 *   - every escape form, in values and in keys;
 *   - numbers at every boundary of integer, number and decimal.
 */
/* wait4() for the child's peak memory: a BSD call that glibc declares
 * under _DEFAULT_SOURCE. */
#define _DEFAULT_SOURCE
#include <check.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "generator.h"
#include "invoice.h"
#include "tables.h"
#include "text.h"

#define HOSTILE CONTRACTC_TEST_DATA "/hostile/"
#define JTS CONTRACTC_TEST_DATA "/jsontestsuite/test_parsing/"

/* Peak RSS allowed to `contractc lint` on any hostile contract.  The
 * largest seen is a few MB (plus the sanitizers' shadow memory in the ASan
 * suite); this is the bound the test holds it to. */
#define MAX_RSS_KB (512L * 1024L)

/* ---- hostile contracts ----------------------------------------------------- */

typedef struct contract_case {
    const char *file;     /* in tests/data/hostile/, or written at run time */
    const char *expected; /* a line the diagnostics must contain */
} contract_case_t;

static const contract_case_t contract_cases[] = {
    {"big.contract.yaml",
     "big.contract.yaml: error: the contract is larger than 1 MiB (1048576 bytes), the limit"},
    {"many_fields.contract.yaml",
     "many_fields.contract.yaml:1029:3: error: an object has at most 1024 fields; this is field 1025"},
    {"deep.contract.yaml",
     "deep.contract.yaml:5:3: error: the contract nests more than 32 levels (objects and arrays, "
     "the record being 1), the limit"},
    {"brackets.contract.yaml",
     "brackets.contract.yaml:4:136: error: the contract nests more than 128 YAML collections, the limit"},
    {"nodes.contract.yaml",
     "nodes.contract.yaml:7:513072: error: the contract has more than 65536 YAML nodes, the limit"},
    {"billion_laughs.contract.yaml",
     "billion_laughs.contract.yaml:7:8: error: aliases ('*a') are not supported in a contract; "
     "write the value out"},
    {"invalid_utf8.contract.yaml",
     "invalid_utf8.contract.yaml:3:19: error: invalid YAML: invalid trailing UTF-8 octet (byte "
     "0x28); a contract is UTF-8 text"},
    {"overlong_utf8.contract.yaml",
     "overlong_utf8.contract.yaml:3:21: error: invalid YAML: invalid length of a UTF-8 sequence"},
    {"encoded_surrogate.contract.yaml",
     "encoded_surrogate.contract.yaml:3:15: error: invalid YAML: the character U+D800 (bytes ed "
     "a0 80) is a UTF-16 surrogate, which UTF-8 text never holds; remove it"},
    {"mangling_collisions.contract.yaml",
     "mangling_collisions.contract.yaml:8:26: error: the C name 'MANGLE_STATUS_IN_STOCK' of enum "
     "value 'in stock' of field 'status' collides with that of enum value 'in-stock' of field "
     "'status'"},
    {"mangling_collisions.contract.yaml",
     "mangling_collisions.contract.yaml:8:50: error: enum value 'none' of field 'status' gives the "
     "C constant 'MANGLE_STATUS_NONE', which is reserved for null"},
    {"mangling_collisions.contract.yaml",
     "mangling_collisions.contract.yaml:10:3: error: the C name 'has_price' of field 'has_price' "
     "collides with that of the null flag of field 'price'"},
    {"mangling_collisions.contract.yaml",
     "mangling_collisions.contract.yaml:12:3: error: the C name 'label_len' of field 'label_len' "
     "collides with that of the length of field 'label'"},
    {"mangling_collisions.contract.yaml",
     "mangling_collisions.contract.yaml:13:3: error: the C name 'arena_' of field 'arena_' collides "
     "with the record's arena member 'arena_'"},
    {"dfa_explosion.contract.yaml",
     "dfa_explosion.contract.yaml:9:15: error: invalid pattern: the pattern needs more than 8192 "
     "DFA states before minimisation (the limit is 4096 after); simplify its repetitions"},
    {"repeat_explosion.contract.yaml",
     "repeat_explosion.contract.yaml:8:15: error: invalid pattern: the pattern is too large: this "
     "repetition expands it past 200000 automaton states"},
};

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    ck_assert_uint_eq(fwrite(text, 1, len, f), len);
    ck_assert_int_eq(fclose(f), 0);
}

/* The large hostile contracts, written into dir. */
static void write_large_contracts(const char *dir)
{
    char path[512];
    cc_buf_t b = CC_BUF_INIT;

    /* 10 MB: a description of 10 MB */
    cc_buf_puts(&b, "contract: big\nversion: 1\ninstruction: x\ndescription: |\n");
    while (b.len < 10u * 1024u * 1024u)
        cc_buf_puts(&b, "  lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum\n");
    cc_buf_puts(&b, "fields:\n  x: {type: string}\n");
    snprintf(path, sizeof path, "%s/big.contract.yaml", dir);
    write_text(path, b.data, b.len);
    cc_buf_free(&b);

    /* 10,000 fields */
    cc_buf_puts(&b, "contract: many\nversion: 1\ninstruction: x\nfields:\n");
    for (int i = 0; i < 10000; i++)
        cc_buf_printf(&b, "  f%d: {type: string}\n", i);
    snprintf(path, sizeof path, "%s/many_fields.contract.yaml", dir);
    write_text(path, b.data, b.len);
    cc_buf_free(&b);

    /* 40 levels of nested objects (the cap is 32) */
    cc_buf_puts(&b, "contract: deep\nversion: 1\ninstruction: x\nfields:\n");
    for (int i = 0; i < 40; i++) {
        int ind = 2 + 4 * i;
        cc_buf_printf(&b, "%*sl%d:\n%*stype: object\n%*sfields:\n", ind, "", i, ind + 2, "",
                      ind + 2, "");
    }
    cc_buf_printf(&b, "%*sleaf: {type: string}\n", 2 + 4 * 40, "");
    snprintf(path, sizeof path, "%s/deep.contract.yaml", dir);
    write_text(path, b.data, b.len);
    cc_buf_free(&b);

    /* 100,000 open flow sequences */
    cc_buf_puts(&b, "contract: brackets\nversion: 1\ninstruction: x\nfields: ");
    for (int i = 0; i < 100000; i++)
        cc_buf_putc(&b, '[');
    cc_buf_putc(&b, '\n');
    snprintf(path, sizeof path, "%s/brackets.contract.yaml", dir);
    write_text(path, b.data, b.len);
    cc_buf_free(&b);

    /* 70,000 YAML nodes in one enum (the cap is 65,536) */
    cc_buf_puts(&b, "contract: nodes\nversion: 1\ninstruction: x\nfields:\n  e:\n    type: enum\n"
                    "    values: [");
    for (int i = 0; i < 70000; i++)
        cc_buf_printf(&b, "%sv%d", i ? ", " : "", i);
    cc_buf_puts(&b, "]\n");
    snprintf(path, sizeof path, "%s/nodes.contract.yaml", dir);
    write_text(path, b.data, b.len);
    cc_buf_free(&b);
}

static void copy_file(const char *from, const char *to)
{
    size_t len = 0;
    char *text = cc_read_file(from, &len);
    ck_assert_msg(text != NULL, "cannot read %s", from);
    write_text(to, text, len);
    free(text);
}

/* Runs `contractc lint FILE` in dir (so diagnostics name the bare file);
 * returns the wait status, the output, the time and the peak RSS. */
static int run_lint(const char *dir, const char *file, char **output, double *seconds, long *rss_kb)
{
    char out_path[600];
    snprintf(out_path, sizeof out_path, "%s/lint.out", dir);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (chdir(dir) != 0 || !freopen(out_path, "w", stdout) || dup2(fileno(stdout), 2) < 0)
            _exit(99);
        execl(CONTRACTC_EXE, CONTRACTC_EXE, "lint", file, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        ck_assert_int_eq(errno, EINTR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    *rss_kb = ru.ru_maxrss;
    *output = cc_read_file(out_path, NULL);
    ck_assert_ptr_nonnull(*output);
    unlink(out_path);
    return status;
}

START_TEST(each_hostile_contract_is_a_clear_error_in_bounded_memory)
{
    char dir[] = "/tmp/contractc-hostile-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    write_large_contracts(dir);
    DIR *d = opendir(HOSTILE);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strstr(e->d_name, ".contract.yaml"))
            continue;
        char from[600], to[600];
        snprintf(from, sizeof from, "%s%s", HOSTILE, e->d_name);
        snprintf(to, sizeof to, "%s/%s", dir, e->d_name);
        copy_file(from, to);
    }
    closedir(d);

    const char *last = NULL;
    char *output = NULL;
    for (size_t i = 0; i < sizeof contract_cases / sizeof contract_cases[0]; i++) {
        const contract_case_t *c = &contract_cases[i];
        if (!last || strcmp(last, c->file) != 0) {
            free(output);
            double seconds = 0;
            long rss = 0;
            int st = run_lint(dir, c->file, &output, &seconds, &rss);
            ck_assert_msg(WIFEXITED(st), "%s: killed by signal %d", c->file, WTERMSIG(st));
            ck_assert_msg(WEXITSTATUS(st) == 1, "%s: exit %d, output:\n%s", c->file,
                          WEXITSTATUS(st), output);
            ck_assert_msg(rss < MAX_RSS_KB, "%s: peak RSS %ld KB", c->file, rss);
            size_t lines = 0;
            for (const char *p = output; *p; p++)
                lines += *p == '\n';
            const char *nl = strchr(output, '\n');
            printf("hostile contract %s: exit 1 in %.2f s, peak RSS %ld KB, %zu diagnostic lines; "
                   "first: %.*s\n",
                   c->file, seconds, rss, lines, nl ? (int)(nl - output) : (int)strlen(output),
                   output);
            last = c->file;
        }
        ck_assert_msg(strstr(output, c->expected) != NULL, "%s: expected the line\n%s\nin\n%s",
                      c->file, c->expected, output);
    }
    free(output);

    /* clean up */
    d = opendir(dir);
    while ((e = readdir(d)) != NULL) {
        char p[600];
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(dir);
}
END_TEST

/* ---- helpers for replies ---------------------------------------------------- */

typedef struct loaded {
    cc_contract_t *model;
    cc_tables_t *tables;
} loaded_t;

static loaded_t load_contract(const char *name, const char *yaml)
{
    cc_diags_t d;
    cc_diags_init(&d);
    loaded_t l;
    l.model = cc_contract_load_buffer(name, yaml, strlen(yaml), &d);
    if (!l.model)
        cc_diags_print(&d, stderr);
    ck_assert_msg(l.model != NULL, "%s does not load", name);
    cc_diags_free(&d);
    l.tables = cc_tables_build(l.model, "sha256:test");
    ck_assert_ptr_nonnull(l.tables);
    return l;
}

static void unload(loaded_t *l)
{
    cc_tables_free(l->tables);
    cc_contract_free(l->model);
}

/* The outcome of one parse: status, "kind path" per problem, and the
 * canonical form when accepted. */
typedef struct outcome {
    contractc_status_t status;
    char problems[2048]; /* "kind path\n"... */
    size_t count;
    cJSON *value;        /* the canonical form, parsed; NULL unless accepted */
    char canonical[1024]; /* the canonical form as written */
} outcome_t;

static outcome_t parse_with(const contractc_contract_t *contract, const char *reply, size_t len,
                            const char *source)
{
    union {
        long double ld;
        void *p;
        unsigned char bytes[4096];
    } rec;
    ck_assert_uint_le(contract->root->size, sizeof rec.bytes);
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    outcome_t o;
    memset(&o, 0, sizeof o);
    o.status = contractc_parse(contract, reply, len, source, source ? strlen(source) : 0, NULL,
                               rec.bytes, &problems);
    o.count = contractc_problems_count(&problems);
    size_t at = 0;
    for (size_t i = 0; i < o.count; i++) {
        const contractc_problem_t *p = contractc_problems_at(&problems, i);
        int n = snprintf(o.problems + at, sizeof o.problems - at, "%s %s\n",
                         contractc_kind_name(p->kind), p->path);
        if (n > 0 && (size_t)n < sizeof o.problems - at)
            at += (size_t)n;
    }
    if (o.status == CONTRACTC_OK) {
        char *json = contractc_to_json(contract, rec.bytes, NULL);
        ck_assert_ptr_nonnull(json);
        snprintf(o.canonical, sizeof o.canonical, "%s", json);
        o.value = cJSON_Parse(json);
        ck_assert_msg(o.value != NULL, "canonical form %s does not parse", json);
        free(json);
        contractc_record_free(contract, rec.bytes);
    }
    contractc_problems_clear(&problems);
    return o;
}

/* ---- n_ files embedded in a valid reply ----------------------------------- */

/* Five places for X in an otherwise valid invoice reply. */
static const char *const embeddings[][2] = {
    {"{\"vendor_name\": ", ", \"invoice_total_cents\": 100, \"line_items\": "
                           "[{\"description\": \"a\", \"amount_cents\": 100}]}"},
    {"{\"vendor_name\": \"V\", \"invoice_total_cents\": 100, \"line_items\": "
     "[{\"description\": \"a\", \"amount_cents\": 100}, ", "]}"},
    {"{\"vendor_name\": \"V\", \"invoice_total_cents\": 100, \"line_items\": "
     "[{\"description\": ", ", \"amount_cents\": 100}]}"},
    {"{\"vendor_name\": \"V\", \"note\": ", ", \"invoice_total_cents\": 100, \"line_items\": "
                                           "[{\"description\": \"a\", \"amount_cents\": 100}]}"},
    {"{\"vendor_name\": \"V\", \"invoice_total_cents\": 100, \"line_items\": "
     "[{\"description\": \"a\", \"amount_cents\": 100}], \"vendor_name\": ", "}"},
};

START_TEST(every_n_file_inside_a_valid_reply_is_one_document_level_problem)
{
    /* the frame itself is valid */
    const char *valid = "\"V\"";
    for (size_t k = 0; k < 4; k++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s%s%s", embeddings[k][0], k == 1 ? "{\"description\": \"b\", "
                 "\"amount_cents\": 0}" : valid, embeddings[k][1]);
        outcome_t o = parse_with(&invoice_contract, buf, strlen(buf), NULL);
        if (k == 3) {
            ck_assert_int_eq(o.status, CONTRACTC_REJECTED);
            ck_assert_str_eq(o.problems, "unexpected $.note\n");
        } else {
            ck_assert_msg(o.status == CONTRACTC_OK, "frame %zu: %s", k, o.problems);
        }
        cJSON_Delete(o.value);
    }

    DIR *d = opendir(JTS);
    ck_assert_ptr_nonnull(d);
    struct dirent *e;
    size_t files = 0, runs = 0;
    size_t by_kind[CONTRACTC_KIND_COUNT_] = {0};
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "n_", 2) != 0)
            continue;
        char path[600];
        snprintf(path, sizeof path, "%s%s", JTS, e->d_name);
        size_t len = 0;
        char *x = cc_read_file(path, &len);
        ck_assert_ptr_nonnull(x);
        files++;
        for (size_t k = 0; k < sizeof embeddings / sizeof embeddings[0]; k++) {
            size_t a = strlen(embeddings[k][0]), b = strlen(embeddings[k][1]);
            char *reply = malloc(a + len + b);
            memcpy(reply, embeddings[k][0], a);
            memcpy(reply + a, x, len);
            memcpy(reply + a + len, embeddings[k][1], b);
            union {
                long double ld;
                unsigned char bytes[1024];
            } rec;
            contractc_problems_t problems;
            contractc_problems_init(&problems);
            contractc_status_t s = contractc_parse(&invoice_contract, reply, a + len + b, NULL, 0,
                                                   NULL, rec.bytes, &problems);
            ck_assert_msg(s == CONTRACTC_REJECTED, "%s at place %zu: %s", e->d_name, k,
                          contractc_status_name(s));
            ck_assert_msg(contractc_problems_count(&problems) == 1,
                          "%s at place %zu: %zu problems, the first %s %s", e->d_name, k,
                          contractc_problems_count(&problems),
                          contractc_kind_name(contractc_problems_at(&problems, 0)->kind),
                          contractc_problems_at(&problems, 0)->path);
            const contractc_problem_t *p = contractc_problems_at(&problems, 0);
            ck_assert_msg(contractc_kind_is_document_level(p->kind),
                          "%s at place %zu: %s at %s (%s), not a document-level problem",
                          e->d_name, k, contractc_kind_name(p->kind), p->path, p->message);
            ck_assert_str_eq(p->path, "$");
            ck_assert_uint_ge(p->line, 1);
            by_kind[p->kind]++;
            contractc_problems_clear(&problems);
            free(reply);
            runs++;
        }
        free(x);
    }
    closedir(d);
    ck_assert_uint_ge(files, 180);
    printf("n_ files embedded: %zu files x 5 places = %zu replies, each one document-level "
           "problem: %zu syntax, %zu encoding, %zu limit, %zu empty\n",
           files, runs, by_kind[CONTRACTC_KIND_SYNTAX], by_kind[CONTRACTC_KIND_ENCODING],
           by_kind[CONTRACTC_KIND_LIMIT], by_kind[CONTRACTC_KIND_EMPTY]);
}
END_TEST

/* ---- Unicode normalisation -------------------------------------------------- */

/* Field names are ASCII ([A-Za-z_][A-Za-z0-9_]*), so a key can differ from
 * one only by a canonical singleton (U+212A KELVIN SIGN is canonically K)
 * or a compatibility form (ligatures, full-width letters).  Enum values and
 * grounded strings are any UTF-8: there NFC and NFD differ. */
static const char norm_yaml[] =
    "contract: norm\n"
    "version: 1\n"
    "instruction: x\n"
    "source: {name: text, description: the text}\n"
    "fields:\n"
    "  city: {type: enum, values: [\"caf\xC3\xA9\", \"Z\xC3\xBCrich\"]}\n"
    "  quote: {type: string, grounded: true}\n"
    "  K: {type: integer}\n"
    "  office: {type: string}\n";

static const char norm_source[] = "Meet at the caf\xC3\xA9 in Z\xC3\xBCrich.";

typedef struct norm_case {
    const char *what;
    const char *reply;
    const char *problems; /* "kind path\n"...; "" for accepted */
} norm_case_t;

#define NORM_REST "\"K\": 1, \"office\": \"o\"}"
static const norm_case_t norm_cases[] = {
    {"NFC as in the contract", "{\"city\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", " NORM_REST,
     ""},
    {"the same, escaped", "{\"city\": \"caf\\u00e9\", \"quote\": \"caf\\u00E9\", " NORM_REST, ""},
    {"an escaped ASCII letter in a key is the same key",
     "{\"ci\\u0074y\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", " NORM_REST, ""},
    {"NFD enum value (e + U+0301)", "{\"city\": \"cafe\xCC\x81\", \"quote\": \"caf\xC3\xA9\", " NORM_REST,
     "enum $.city\n"},
    {"NFD enum value, escaped", "{\"city\": \"cafe\\u0301\", \"quote\": \"caf\xC3\xA9\", " NORM_REST,
     "enum $.city\n"},
    {"NFD u-umlaut", "{\"city\": \"Zu\xCC\x88rich\", \"quote\": \"caf\xC3\xA9\", " NORM_REST,
     "enum $.city\n"},
    {"NFD grounded value against an NFC source",
     "{\"city\": \"caf\xC3\xA9\", \"quote\": \"cafe\xCC\x81\", " NORM_REST, "grounding $.quote\n"},
    {"KELVIN SIGN for K (canonically equivalent)",
     "{\"city\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", \"\xE2\x84\xAA\": 1, \"office\": \"o\"}",
     "unexpected $['\xE2\x84\xAA']\nmissing $.K\n"},
    {"FULLWIDTH K", "{\"city\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", \"\xEF\xBC\xAB\": 1, "
                    "\"office\": \"o\"}",
     "unexpected $['\xEF\xBC\xAB']\nmissing $.K\n"},
    {"the ffi ligature in office", "{\"city\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", \"K\": 1, "
                                   "\"o\xEF\xAC\x83\x63\x65\": \"o\"}",
     "unexpected $['o\xEF\xAC\x83\x63\x65']\nmissing $.office\n"},
    {"K followed by a combining mark", "{\"city\": \"caf\xC3\xA9\", \"quote\": \"caf\xC3\xA9\", "
                                       "\"K\\u0301\": 1, \"office\": \"o\"}",
     "unexpected $['K\xCC\x81']\nmissing $.K\n"},
};

/* Problems as a sorted multiset, so the order of unexpected/missing is free. */
static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *sorted_lines(const char *text)
{
    char *copy = strdup(text);
    char *lines[64];
    size_t n = 0;
    char *save = NULL;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 64; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, n, sizeof *lines, cmp_line);
    cc_buf_t b = CC_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        cc_buf_puts(&b, lines[i]);
        cc_buf_putc(&b, '\n');
    }
    free(copy);
    char *out = cc_buf_take(&b, NULL);
    return out ? out : strdup("");
}

START_TEST(keys_and_values_differing_only_in_normalisation_never_match)
{
    loaded_t l = load_contract("norm.contract.yaml", norm_yaml);
    for (size_t i = 0; i < sizeof norm_cases / sizeof norm_cases[0]; i++) {
        const norm_case_t *c = &norm_cases[i];
        outcome_t o = parse_with(&l.tables->contract, c->reply, strlen(c->reply), norm_source);
        char *have = sorted_lines(o.problems), *want = sorted_lines(c->problems);
        ck_assert_msg(strcmp(have, want) == 0, "%s: problems\n%s\nwant\n%s", c->what, have, want);
        ck_assert_int_eq(o.status, c->problems[0] ? CONTRACTC_REJECTED : CONTRACTC_OK);
        free(have);
        free(want);
        cJSON_Delete(o.value);
    }
    unload(&l);
}
END_TEST

/* ---- escapes ------------------------------------------------------------------- */

static const char esc_yaml[] =
    "contract: esc\nversion: 1\ninstruction: x\nfields:\n  s: {type: string}\n";

typedef struct escape_case {
    const char *json;     /* the string token's inside, as in the reply */
    const char *decoded;  /* the value's bytes; NULL: rejected */
    size_t decoded_len;
    contractc_kind_t kind; /* when rejected */
} escape_case_t;

#define OK(j, d) {j, d, sizeof d - 1, CONTRACTC_KIND_COUNT_}
#define BAD(j, k) {j, NULL, 0, CONTRACTC_KIND_##k}
static const escape_case_t escape_cases[] = {
    OK("\\\"", "\""), OK("\\\\", "\\"), OK("\\/", "/"), OK("\\b", "\b"), OK("\\f", "\f"),
    OK("\\n", "\n"), OK("\\r", "\r"), OK("\\t", "\t"),
    OK("\\u0041", "A"), OK("\\u00e9", "\xC3\xA9"), OK("\\u00E9", "\xC3\xA9"),
    OK("\\u20AC", "\xE2\x82\xAC"), OK("\\u20ac", "\xE2\x82\xAC"), OK("\\u0001", "\x01"),
    OK("\\u001F", "\x1F"), OK("\\u007F", "\x7F"), OK("\\u0080", "\xC2\x80"),
    OK("\\u07FF", "\xDF\xBF"), OK("\\u0800", "\xE0\xA0\x80"), OK("\\uFFFF", "\xEF\xBF\xBF"),
    OK("\\uFFFE", "\xEF\xBF\xBE"), OK("\\uFDD0", "\xEF\xB7\x90"),
    OK("\\uD83D\\uDE00", "\xF0\x9F\x98\x80"), OK("\\ud83d\\ude00", "\xF0\x9F\x98\x80"),
    OK("\\uD800\\uDC00", "\xF0\x90\x80\x80"), OK("\\uDBFF\\uDFFF", "\xF4\x8F\xBF\xBF"),
    OK("\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"), OK("\x7F", "\x7F"),
    OK("a\\\"b\\\\c\\/d", "a\"b\\c/d"), OK("\\u005C\\u0022", "\\\""),
    /* policy: NUL and lone surrogates (I-JSON, C strings) */
    BAD("\\u0000", ENCODING), BAD("a\\u0000b", ENCODING), BAD("\\uD800", ENCODING),
    BAD("\\uDC00", ENCODING), BAD("\\uDFFF", ENCODING), BAD("\\uD800\\u0041", ENCODING),
    BAD("\\uD800\\uD800", ENCODING), BAD("\\uDE00\\uD83D", ENCODING), BAD("\\uD800x", ENCODING),
    BAD("\xED\xA0\x80", ENCODING), BAD("\xC0\xAF", ENCODING), BAD("\xF5\x80\x80\x80", ENCODING),
    BAD("\xE2\x82", ENCODING),
    /* grammar */
    BAD("\\x41", SYNTAX), BAD("\\U0041", SYNTAX), BAD("\\u12", SYNTAX), BAD("\\u12G4", SYNTAX),
    BAD("\\'", SYNTAX), BAD("\\a", SYNTAX), BAD("\\0", SYNTAX), BAD("\\v", SYNTAX),
    BAD("\\ ", SYNTAX), BAD("\\u{41}", SYNTAX), BAD("\x01", SYNTAX), BAD("\x1F", SYNTAX),
    BAD("a\nb", SYNTAX), BAD("a\tb", SYNTAX),
};

START_TEST(every_escape_form_decodes_exactly_or_is_refused)
{
    loaded_t l = load_contract("esc.contract.yaml", esc_yaml);
    for (size_t i = 0; i < sizeof escape_cases / sizeof escape_cases[0]; i++) {
        const escape_case_t *c = &escape_cases[i];
        /* in the value, and (for accepted forms) in the key: "\u0073" is s */
        char reply[256];
        snprintf(reply, sizeof reply, "{\"s\": \"%s\"}", c->json);
        outcome_t o = parse_with(&l.tables->contract, reply, strlen(reply), NULL);
        if (c->decoded) {
            ck_assert_msg(o.status == CONTRACTC_OK, "\"%s\": %s", c->json, o.problems);
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(o.value, "s");
            ck_assert_msg(cJSON_IsString(s) && strlen(s->valuestring) == c->decoded_len &&
                              memcmp(s->valuestring, c->decoded, c->decoded_len) == 0,
                          "\"%s\" decoded wrongly", c->json);
        } else {
            ck_assert_msg(o.status == CONTRACTC_REJECTED && o.count == 1, "\"%s\": %s %s",
                          c->json, contractc_status_name(o.status), o.problems);
            char want[64];
            snprintf(want, sizeof want, "%s $\n", contractc_kind_name(c->kind));
            ck_assert_msg(strcmp(o.problems, want) == 0, "\"%s\": %s, want %s", c->json,
                          o.problems, want);
        }
        cJSON_Delete(o.value);
    }
    /* escapes in a key */
    static const char *const keys[] = {"\\u0073", "\\u0053" /* S: case-sensitive */, "s\\u0000",
                                       "\\/s"};
    static const char *const want[] = {"", "unexpected $.S\nmissing $.s\n", "encoding $\n",
                                       "unexpected $['/s']\nmissing $.s\n"};
    for (size_t i = 0; i < 4; i++) {
        char reply[128];
        snprintf(reply, sizeof reply, "{\"%s\": \"x\"}", keys[i]);
        outcome_t o = parse_with(&l.tables->contract, reply, strlen(reply), NULL);
        char *have = sorted_lines(o.problems), *w = sorted_lines(want[i]);
        ck_assert_msg(strcmp(have, w) == 0, "key \"%s\": %s, want %s", keys[i], have, w);
        free(have);
        free(w);
        cJSON_Delete(o.value);
    }
    unload(&l);
}
END_TEST

/* ---- numbers at their boundaries -------------------------------------------- */

static const char num_yaml[] =
    "contract: num\nversion: 1\ninstruction: x\nfields:\n"
    "  i: {type: integer}\n"
    "  ib: {type: integer, minimum: -5, maximum: 5}\n"
    "  n: {type: number}\n"
    "  nb: {type: number, minimum: 0, maximum: 1}\n"
    "  d: {type: decimal, scale: 2, signed: true}\n"
    "  du: {type: decimal, scale: 0}\n"
    "  db: {type: decimal, scale: 2, minimum: \"0.01\", maximum: \"100.00\"}\n";

typedef struct number_case {
    const char *field;
    const char *json;     /* the value as written in the reply */
    const char *kind;     /* NULL: accepted */
    const char *canonical; /* accepted: the canonical form's value as JSON; NULL: not checked */
} number_case_t;

static const number_case_t number_cases[] = {
    /* integer: exact within ±(2^53-1) (I-JSON) */
    {"i", "0", NULL, "0"},
    {"i", "-0", NULL, "0"},
    {"i", "9007199254740991", NULL, "9007199254740991"},
    {"i", "-9007199254740991", NULL, "-9007199254740991"},
    {"i", "9007199254740992", "range", NULL},
    {"i", "-9007199254740992", "range", NULL},
    {"i", "9223372036854775807", "range", NULL},
    {"i", "9223372036854775808", "range", NULL},
    {"i", "18446744073709551616", "range", NULL},
    {"i", "123456789012345678901234567890", "range", NULL},
    {"i", "1.0", "type", NULL},
    {"i", "12980.0", "type", NULL},
    {"i", "1e2", "type", NULL},
    {"i", "1E0", "type", NULL},
    {"i", "\"4\"", "type", NULL},
    {"i", "true", "type", NULL},
    {"ib", "-5", NULL, "-5"},
    {"ib", "5", NULL, "5"},
    {"ib", "-6", "range", NULL},
    {"ib", "6", "range", NULL},
    /* number: finite doubles; overflow to infinity and underflow to 0 refused */
    {"n", "0", NULL, NULL},
    {"n", "-0.0", NULL, NULL},
    {"n", "0e-400", NULL, NULL},
    {"n", "1.7976931348623157e308", NULL, NULL},
    {"n", "-1.7976931348623157e308", NULL, NULL},
    {"n", "1.7976931348623158e308", NULL, NULL}, /* rounds down to DBL_MAX */
    {"n", "1.7976931348623159e308", "range", NULL},
    {"n", "1e309", "range", NULL},
    {"n", "-1e309", "range", NULL},
    {"n", "2.2250738585072014e-308", NULL, NULL},
    {"n", "4.9406564584124654e-324", NULL, NULL},
    {"n", "5e-324", NULL, NULL},
    {"n", "2e-324", "range", NULL},
    {"n", "1e-400", "range", NULL},
    {"n", "0.1", NULL, "0.1"},
    {"n", "0.1000000000000000055511151231257827021181583404541015625", NULL, "0.1"},
    {"n", "9007199254740993", NULL, NULL},
    {"n", "1e999999999999999999999", "range", NULL},
    {"n", "\"1.5\"", "type", NULL},
    {"nb", "0", NULL, NULL},
    {"nb", "1", NULL, NULL},
    {"nb", "1.0000000000000002", "range", NULL},
    {"nb", "-4.9406564584124654e-324", "range", NULL},
    /* decimal: a string, exactly scale digits, in int64 minor units */
    {"d", "\"0.00\"", NULL, "\"0.00\""},
    {"d", "\"-0.01\"", NULL, "\"-0.01\""},
    {"d", "\"92233720368547758.07\"", NULL, "\"92233720368547758.07\""},
    {"d", "\"92233720368547758.08\"", "range", NULL},
    {"d", "\"-92233720368547758.08\"", NULL, "\"-92233720368547758.08\""},
    {"d", "\"-92233720368547758.09\"", "range", NULL},
    {"d", "\"99999999999999999999999.00\"", "range", NULL},
    {"d", "\"1.5\"", "format", NULL},
    {"d", "\"1.500\"", "format", NULL},
    {"d", "\"01.00\"", "format", NULL},
    {"d", "\"1.00e2\"", "format", NULL},
    {"d", "\"+1.00\"", "format", NULL},
    {"d", "\" 1.00\"", "format", NULL},
    {"d", "\"1,00\"", "format", NULL},
    {"d", "\"1.250,00\"", "format", NULL},
    {"d", "\".50\"", "format", NULL},
    {"d", "\"\"", "format", NULL},
    {"d", "1.00", "type", NULL},
    {"du", "\"9223372036854775807\"", NULL, "\"9223372036854775807\""},
    {"du", "\"9223372036854775808\"", "range", NULL},
    {"du", "\"-1\"", "format", NULL},
    {"du", "\"1.0\"", "format", NULL},
    {"du", "\"0\"", NULL, "\"0\""},
    {"du", "\"00\"", "format", NULL},
    {"db", "\"0.01\"", NULL, "\"0.01\""},
    {"db", "\"100.00\"", NULL, "\"100.00\""},
    {"db", "\"0.00\"", "range", NULL},
    {"db", "\"100.01\"", "range", NULL},
};

static const char *const num_fields[] = {"i", "ib", "n", "nb", "d", "du", "db"};
static const char *const num_defaults[] = {"1", "1", "1.5", "0.5", "\"1.00\"", "\"1\"", "\"1.00\""};

START_TEST(numbers_at_every_boundary_of_integer_number_and_decimal)
{
    loaded_t l = load_contract("num.contract.yaml", num_yaml);
    for (size_t i = 0; i < sizeof number_cases / sizeof number_cases[0]; i++) {
        const number_case_t *c = &number_cases[i];
        cc_buf_t b = CC_BUF_INIT;
        cc_buf_putc(&b, '{');
        for (size_t f = 0; f < sizeof num_fields / sizeof num_fields[0]; f++)
            cc_buf_printf(&b, "%s\"%s\": %s", f ? ", " : "", num_fields[f],
                          strcmp(num_fields[f], c->field) == 0 ? c->json : num_defaults[f]);
        cc_buf_putc(&b, '}');
        size_t len = 0;
        char *reply = cc_buf_take(&b, &len);
        outcome_t o = parse_with(&l.tables->contract, reply, len, NULL);
        if (c->kind) {
            char want[64];
            snprintf(want, sizeof want, "%s $.%s\n", c->kind, c->field);
            ck_assert_msg(strcmp(o.problems, want) == 0, "%s = %s: got %s(%s), want %s", c->field,
                          c->json, o.problems, contractc_status_name(o.status), want);
        } else {
            ck_assert_msg(o.status == CONTRACTC_OK, "%s = %s: %s", c->field, c->json, o.problems);
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(o.value, c->field);
            ck_assert_ptr_nonnull(v);
            char member[128];
            if (c->canonical) {
                snprintf(member, sizeof member, "\"%s\":%s", c->field, c->canonical);
                const char *at = strstr(o.canonical, member);
                size_t ml = strlen(member);
                ck_assert_msg(at && (at[ml] == ',' || at[ml] == '}'),
                              "%s = %s: canonical form %s, want %s in it", c->field, c->json,
                              o.canonical, member);
            }
            if (cJSON_IsNumber(v)) {
                /* the canonical number reads back to the double the reply meant */
                double want = strtod(c->json, NULL);
                ck_assert_msg(v->valuedouble == want, "%s = %s: canonical %s reads %.17g", c->field,
                              c->json, o.canonical, v->valuedouble);
            }
        }
        cJSON_Delete(o.value);
        free(reply);
    }
    unload(&l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("hostile inputs");
    TCase *tc = tcase_create("contracts");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, each_hostile_contract_is_a_clear_error_in_bounded_memory);
    suite_add_tcase(s, tc);
    TCase *tr = tcase_create("replies");
    tcase_set_timeout(tr, 120);
    tcase_add_test(tr, every_n_file_inside_a_valid_reply_is_one_document_level_problem);
    tcase_add_test(tr, keys_and_values_differing_only_in_normalisation_never_match);
    tcase_add_test(tr, every_escape_form_decodes_exactly_or_is_refused);
    tcase_add_test(tr, numbers_at_every_boundary_of_integer_number_and_decimal);
    suite_add_tcase(s, tr);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
