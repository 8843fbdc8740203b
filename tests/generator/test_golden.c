/* SPDX-License-Identifier: MIT */
/*
 * test_golden.c - the generated artifacts are the reviewed golden files
 * (tests/golden/, refreshed by scripts/refresh-golden.sh), and they are
 * byte-identical whatever the working directory, the output directory, the
 * form of the contract path and the locale.
 */
#include <check.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "generator.h"

#define ROOT CONTRACTC_SOURCE_DIR
#define GOLDEN ROOT "/tests/golden"

static const char *const exts[] = {".h", ".c", ".schema.json", ".prompt.txt"};

typedef struct golden {
    char name[128];
    char contract[512];
} golden_t;

static size_t load_list(golden_t *out, size_t cap)
{
    size_t len;
    char *text = cc_read_file(GOLDEN "/contracts.txt", &len);
    ck_assert_ptr_nonnull(text);
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && n < cap; line = strtok_r(NULL, "\n", &save)) {
        char rel[400];
        if (line[0] == '#' || sscanf(line, "%127s %399s", out[n].name, rel) != 2)
            continue;
        snprintf(out[n].contract, sizeof out[n].contract, "%s/%s", ROOT, rel);
        n++;
    }
    free(text);
    return n;
}

static void artifacts_of(const char *contract, cc_artifacts_t *a)
{
    cc_diags_t d;
    cc_diags_init(&d);
    cc_contract_t *m = cc_contract_load(contract, &d);
    ck_assert_msg(m && d.errors == 0, "cannot load %s", contract);
    cc_diags_free(&d);
    ck_assert(cc_build_artifacts(m, a));
    cc_contract_free(m);
}

static void assert_golden(const golden_t *g, const cc_artifacts_t *a, const char *when)
{
    const char *texts[] = {a->header, a->source, a->schema, a->prompt};
    const size_t lens[] = {a->header_len, a->source_len, a->schema_len, a->prompt_len};
    for (size_t k = 0; k < 4; k++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s/%s%s", GOLDEN, g->name, g->name, exts[k]);
        size_t len = 0;
        char *want = cc_read_file(path, &len);
        ck_assert_msg(want != NULL, "missing golden file %s", path);
        ck_assert_msg(len == lens[k] && memcmp(want, texts[k], len) == 0,
                      "%s differs from the generated text (%s); if the change is intended, run "
                      "scripts/refresh-golden.sh and review the diff",
                      path, when);
        free(want);
    }
}

START_TEST(artifacts_equal_the_golden_files)
{
    golden_t list[16];
    size_t n = load_list(list, 16);
    ck_assert_uint_ge(n, 2);
    for (size_t i = 0; i < n; i++) {
        cc_artifacts_t a;
        artifacts_of(list[i].contract, &a);
        assert_golden(&list[i], &a, "C locale");
        cc_artifacts_free(&a);
    }
    printf("golden: %zu contracts x 4 artifacts equal\n", n);
}
END_TEST

START_TEST(artifacts_do_not_depend_on_the_locale)
{
    if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
        printf("SKIP: the de_DE.UTF-8 locale is not installed (scripts/install-deps.sh installs it)\n");
        return;
    }
    /* under de_DE the decimal separator is a comma */
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 1.5);
    ck_assert_str_eq(probe, "1,5");
    golden_t list[16];
    size_t n = load_list(list, 16);
    for (size_t i = 0; i < n; i++) {
        cc_artifacts_t a;
        artifacts_of(list[i].contract, &a);
        assert_golden(&list[i], &a, "de_DE.UTF-8 locale");
        cc_artifacts_free(&a);
    }
    setlocale(LC_ALL, "C");
    printf("golden under de_DE.UTF-8: %zu contracts equal\n", n);
}
END_TEST

static char *make_temp_dir(void)
{
    char *dir = strdup("/tmp/contractc-golden-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

/* DIR/NAMEEXT as a malloc'd string. */
static char *out_path(const char *dir, const char *name, const char *ext)
{
    cc_buf_t b = CC_BUF_INIT;
    cc_buf_printf(&b, "%s/%s%s", dir, name, ext);
    return cc_buf_take(&b, NULL);
}

static void remove_outputs(const char *dir, const char *name)
{
    for (size_t k = 0; k < 4; k++) {
        char *path = out_path(dir, name, exts[k]);
        unlink(path);
        free(path);
    }
    rmdir(dir);
}

/* Runs `contractc generate CONTRACT -o DIR` from the working directory cwd. */
static void generate_from(const char *cwd, const char *contract, const char *dir)
{
    char old[PATH_MAX];
    ck_assert_ptr_nonnull(getcwd(old, sizeof old));
    ck_assert_int_eq(chdir(cwd), 0);
    char *argv[] = {"contractc", "generate", (char *)contract, "-o", (char *)dir, NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    int code = cc_cli_main(5, argv, out, err);
    fclose(out);
    fclose(err);
    ck_assert_int_eq(chdir(old), 0);
    ck_assert_int_eq(code, 0);
}

START_TEST(generate_writes_the_same_bytes_from_any_directory_and_path_form)
{
    golden_t list[16];
    size_t n = load_list(list, 16);
    for (size_t i = 0; i < n; i++) {
        char *a = make_temp_dir(), *b = make_temp_dir();
        /* absolute contract path, from /tmp, into a */
        generate_from("/tmp", list[i].contract, a);
        /* relative contract path, from the repository root, into b */
        const char *rel = list[i].contract + strlen(ROOT) + 1;
        generate_from(ROOT, rel, b);
        for (size_t k = 0; k < 4; k++) {
            char *pa = out_path(a, list[i].name, exts[k]), *pb = out_path(b, list[i].name, exts[k]);
            char *gdir = out_path(GOLDEN, list[i].name, "");
            char *pg = out_path(gdir, list[i].name, exts[k]);
            free(gdir);
            size_t la, lb, lg;
            char *xa = cc_read_file(pa, &la), *xb = cc_read_file(pb, &lb), *xg = cc_read_file(pg, &lg);
            ck_assert(xa && xb && xg);
            ck_assert_msg(la == lb && memcmp(xa, xb, la) == 0, "%s and %s differ", pa, pb);
            ck_assert_msg(la == lg && memcmp(xa, xg, la) == 0, "%s differs from %s", pa, pg);
            free(xa);
            free(xb);
            free(xg);
            free(pa);
            free(pb);
            free(pg);
        }
        remove_outputs(a, list[i].name);
        remove_outputs(b, list[i].name);
        free(a);
        free(b);
    }
    printf("generate: %zu contracts byte-identical across directories and path forms\n", n);
}
END_TEST

START_TEST(generate_check_reports_drift)
{
    golden_t list[16];
    load_list(list, 16);
    char *dir = make_temp_dir();
    generate_from("/tmp", list[0].contract, dir);
    char *argv[] = {"contractc", "generate", "--check", list[0].contract, "-o", dir, NULL};
    FILE *out = tmpfile(), *err = tmpfile();
    ck_assert_int_eq(cc_cli_main(6, argv, out, err), 0);
    /* edit one artifact: --check must now fail and name it */
    char *path = out_path(dir, list[0].name, ".prompt.txt");
    FILE *f = fopen(path, "ab");
    free(path);
    ck_assert_ptr_nonnull(f);
    fputs("edited by hand\n", f);
    fclose(f);
    rewind(out);
    ck_assert_int_eq(cc_cli_main(6, argv, out, err), 1);
    rewind(out);
    char buf[2048] = {0};
    size_t got = fread(buf, 1, sizeof buf - 1, out);
    buf[got] = '\0';
    ck_assert_msg(strstr(buf, ".prompt.txt: differs") != NULL, "output: %s", buf);
    fclose(out);
    fclose(err);
    remove_outputs(dir, list[0].name);
    free(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("golden");
    TCase *tc = tcase_create("artifacts");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, artifacts_equal_the_golden_files);
    tcase_add_test(tc, artifacts_do_not_depend_on_the_locale);
    tcase_add_test(tc, generate_writes_the_same_bytes_from_any_directory_and_path_form);
    tcase_add_test(tc, generate_check_reports_drift);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
