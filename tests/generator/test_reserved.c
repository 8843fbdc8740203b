/* SPDX-License-Identifier: MIT */
/*
 * test_reserved.c - names that can never be generated
 * (docs/contract-language.md, "Names that can never be generated").
 *
 * Every name of the reserved tables is put, in a contract built here, where
 * it clashes: a macro as a field name, any header identifier as a check
 * function, a tag or a header's name as the contract name, and the standard
 * types, struct tags and macros that a contract can only reach through
 * derived names (uint + least8 -> uint_least8_t, flt + eval + method ->
 * FLT_EVAL_METHOD) through those derived names.  Each must give exactly its
 * error line.  Then the classes the table does not list (C11 7.1.3's
 * prefixes, contractc*), and names near reserved ones that must still load.
 * Prints how many names it tried (ctest -V shows it).
 *
 * tests/compile/reserved_names.sh shows, for a sample of each class, that
 * the generated code really fails to build when such a name is let through.
 */
#include <check.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexical.h"
#include "load.h"
#include "model.h"
#include "reserved.h"
#include "text.h"

/* Loads `yaml` as c.yaml; returns its printed diagnostics (free() it) and
 * whether it was accepted. */
static char *lint(const char *yaml, bool *accepted)
{
    cc_diags_t d;
    cc_diags_init(&d);
    d.cap = 1000;
    cc_contract_t *c = cc_contract_load_buffer("c.yaml", yaml, strlen(yaml), &d);
    *accepted = c != NULL;
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    ck_assert_ptr_nonnull(f);
    cc_diags_print(&d, f);
    fclose(f);
    cc_contract_free(c);
    cc_diags_free(&d);
    return out;
}

static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    ck_assert_int_ge(n, 0);
    char *s = malloc((size_t)n + 1);
    ck_assert_ptr_nonnull(s);
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

/* The contract of every case: NAME, one field FIELD (line 5, column 3) and
 * a check rule calling FN (line 7, column 23). */
static char *contract(const char *name, const char *field, const char *fn)
{
    return format("contract: %s\nversion: 1\ninstruction: x\nfields:\n  %s: {type: string}\n"
                  "rules:\n  - check: {function: \"%s\"}\n", name, field, fn);
}

/* Asserts that `yaml` is refused and that its diagnostics hold `line`. */
static void expect_line(const char *what, char *yaml, char *line)
{
    bool accepted = true;
    char *out = lint(yaml, &accepted);
    ck_assert_msg(!accepted && strstr(out, line) != NULL,
                  "%s:\n--- contract\n%s--- expected a line\n%s--- got\n%s", what, yaml, line, out);
    free(out);
    free(yaml);
    free(line);
}

static bool is_contract_name(const char *s)
{
    if (!(*s >= 'a' && *s <= 'z'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

/* What the error says a name is, for the kinds that clash. */
static const char *kind_phrase(unsigned kinds)
{
    if (kinds & (CC_RESERVED_MACRO | CC_RESERVED_FUNCTION_MACRO))
        return "a macro";
    if (kinds & CC_RESERVED_TYPE)
        return "a type";
    if (kinds & CC_RESERVED_FUNCTION)
        return "a function";
    if (kinds & CC_RESERVED_VARIABLE)
        return "a variable";
    if (kinds & CC_RESERVED_ENUM_CONSTANT)
        return "an enum constant";
    return "the tag of a struct, union or enum";
}

static bool from_included_header(const cc_reserved_entry_t *e)
{
    return e->origin && (strcmp(e->origin, "<stddef.h>") == 0 ||
                         strcmp(e->origin, "<stdint.h>") == 0 ||
                         strcmp(e->origin, "<stdbool.h>") == 0);
}

enum { ORDINARY_KINDS = CC_RESERVED_MACRO | CC_RESERVED_FUNCTION_MACRO | CC_RESERVED_FUNCTION |
                        CC_RESERVED_VARIABLE | CC_RESERVED_ENUM_CONSTANT | CC_RESERVED_TYPE };

/* Counts per class, printed at the end. */
static size_t tried_member, tried_check, tried_tag, tried_header, tried_contract_type,
    tried_derived_type, tried_constant, tried_keyword, unreachable;

START_TEST(every_reserved_name_is_refused_where_it_clashes)
{
    size_t n = cc_reserved_count();
    ck_assert_uint_ge(n, 3000);
    for (size_t i = 0; i < n; i++) {
        const cc_reserved_entry_t e = cc_reserved_at(i);
        ck_assert_ptr_nonnull(e.name);
        const char *name = e.name;
        if (e.kinds & CC_RESERVED_HEADER) {
            expect_line(name, contract(name, "a", "ok_check"),
                        format("c.yaml:1:11: error: contract name '%s' gives the header '%s.h', "
                               "which would hide the standard <%s.h> wherever the generated "
                               "directory is on the include path; choose another name, such as "
                               "'%s_reply'\n", name, name, name, name));
            tried_header++;
            continue;
        }
        if (cc_is_c_keyword(name)) {
            /* bool, true, alignas...: a member gets '_' (a note); a check
             * function is not an identifier */
            expect_line(name, contract("k", name, name),
                        format("c.yaml:7:23: error: check function '%s' is not a C identifier\n",
                               name));
            tried_keyword++;
            continue;
        }
        bool tried = false;
        /* a struct member: macros, and the types of the included headers */
        if (e.kinds & (CC_RESERVED_MACRO | CC_RESERVED_PREDEFINED) ||
            (e.kinds & CC_RESERVED_TYPE && from_included_header(&e))) {
            char *why = e.kinds & CC_RESERVED_PREDEFINED
                            ? format("a macro that %s predefines", e.origin)
                            : format("%s of %s", e.kinds & CC_RESERVED_MACRO ? "a macro" : "a type",
                                     e.origin);
            expect_line(name, contract("k", name, "ok_check"),
                        format("c.yaml:5:3: error: the C name '%s' of field '%s' is %s; rename "
                               "the field, or choose its C name with c_name:\n", name, name, why));
            free(why);
            tried_member++;
            tried = true;
        }
        /* a check function: every ordinary identifier */
        if (e.kinds & (ORDINARY_KINDS | CC_RESERVED_PREDEFINED)) {
            char *why = e.kinds & CC_RESERVED_PREDEFINED
                            ? format("a macro that %s predefines", e.origin)
                            : format("%s of %s", kind_phrase(e.kinds & ORDINARY_KINDS), e.origin);
            expect_line(name, contract("k", "a", name),
                        format("c.yaml:7:23: error: check function '%s' is %s; the generated "
                               "header declares it: choose another name\n", name, why));
            free(why);
            tried_check++;
            tried = true;
        }
        /* a tag: the contract name is the record's struct tag */
        if (e.kinds & CC_RESERVED_TAG && cc_shadows_header(name)) {
            /* dirent: the header comes first */
            expect_line(name, contract(name, "a", "ok_check"),
                        format("c.yaml:1:11: error: contract name '%s' gives the header '%s.h'",
                               name, name));
            tried_tag++;
            tried = true;
        } else if (e.kinds & CC_RESERVED_TAG && is_contract_name(name)) {
            expect_line(name, contract(name, "a", "ok_check"),
                        format("c.yaml:1:11: error: contract name '%s' gives the C struct tag "
                               "'%s', which is %s of %s; choose another name, such as "
                               "'%s_reply'\n", name, name,
                               kind_phrase(e.kinds & (CC_RESERVED_MACRO | CC_RESERVED_TAG)),
                               e.origin, name));
            tried_tag++;
            tried = true;
        }
        size_t len = strlen(name);
        /* a type NAME_t: the contract NAME's record (size -> size_t) */
        if (e.kinds & CC_RESERVED_TYPE && len > 2 && strcmp(name + len - 2, "_t") == 0) {
            char *base = cc_strndup(name, len - 2);
            char why[160];
            /* (a base that is a tag itself is reported as that, above) */
            if (is_contract_name(base) && !cc_shadows_header(base) && !cc_is_c_keyword(base) &&
                !cc_reserved_c_name(base, CC_C_TAG, why, sizeof why)) {
                expect_line(name, contract(base, "a", "ok_check"),
                            format("c.yaml:1:11: error: contract name '%s' gives the C type '%s', "
                                   "which is a type of %s; choose another name, such as "
                                   "'%s_reply'\n", base, name, e.origin, base));
                tried_contract_type++;
                tried = true;
            }
            /* and A_B_t: contract A, an inline object field B */
            const char *us = strchr(base, '_');
            if (us && us[1]) {
                char *a = cc_strndup(base, (size_t)(us - base));
                if (is_contract_name(a) && !cc_has_runtime_prefix(a) && !cc_is_c_keyword(a) &&
                    cc_is_identifier(us + 1) && !cc_is_c_keyword(us + 1) &&
                    !cc_reserved_c_name(base, CC_C_TAG, why, sizeof why)) {
                    expect_line(name,
                                format("contract: %s\nversion: 1\ninstruction: x\nfields:\n"
                                       "  %s: {type: object, fields: {x: {type: string}}}\n",
                                       a, us + 1),
                                format("c.yaml:5:3: error: the C name '%s' of field '%s' is a "
                                       "type of %s; rename the field or the contract\n", name,
                                       us + 1, e.origin));
                    tried_derived_type++;
                    tried = true;
                }
                free(a);
            }
            free(base);
        }
        /* an enum constant A_B_C: contract a, field b, value C */
        if (e.kinds & CC_RESERVED_MACRO) {
            const char *u1 = strchr(name, '_'), *u2 = u1 ? strchr(u1 + 1, '_') : NULL;
            bool upper = true;
            for (const char *p = name; *p; p++)
                upper &= (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
            if (upper && u1 && u2 && u2 > u1 + 1 && u2[1] && isalpha((unsigned char)name[0]) &&
                isalpha((unsigned char)u1[1])) {
                char *a = cc_strndup(name, (size_t)(u1 - name));
                char *b = cc_strndup(u1 + 1, (size_t)(u2 - u1 - 1));
                for (char *p = a; *p; p++)
                    *p = (char)tolower((unsigned char)*p);
                for (char *p = b; *p; p++)
                    *p = (char)tolower((unsigned char)*p);
                if (!cc_has_runtime_prefix(a) && !cc_is_c_keyword(a) && !cc_is_c_keyword(b) &&
                    strcmp(u2 + 1, "NONE") != 0) {
                    /* the value's column: after "  b: {type: enum, values: [" */
                    expect_line(name,
                                format("contract: %s\nversion: 1\ninstruction: x\nfields:\n"
                                       "  %s: {type: enum, values: [%s]}\n", a, b, u2 + 1),
                                format("c.yaml:5:%zu: error: the C name '%s' of enum value '%s' "
                                       "of field '%s' is a macro of %s; rename the field or the "
                                       "contract\n", strlen(b) + 27, name, u2 + 1, b,
                                       e.origin));
                    tried_constant++;
                    tried = true;
                }
                free(a);
                free(b);
            }
        }
        if (!tried && e.kinds == CC_RESERVED_TAG && !is_contract_name(name)) {
            /* FTW: a generated tag starts with the contract name, in
             * lower case, so it cannot be one */
            unreachable++;
            continue;
        }
        ck_assert_msg(tried, "%s (kinds %#x) was tried nowhere", name, e.kinds);
    }
    size_t total = tried_member + tried_check + tried_tag + tried_header + tried_contract_type +
                   tried_derived_type + tried_constant + tried_keyword;
    printf("reserved names: %zu in the tables, %zu contracts tried: %zu as field names, %zu as "
           "check functions, %zu as contract names (struct tags), %zu as contract names "
           "(headers), %zu as contract names (NAME_t types), %zu as inline object types, %zu as "
           "enum constants, %zu keywords; %zu tags no generated name can be\n", n, total,
           tried_member, tried_check, tried_tag, tried_header, tried_contract_type,
           tried_derived_type, tried_constant, tried_keyword, unreachable);
    ck_assert_uint_le(unreachable, 10);
    ck_assert_uint_ge(tried_member, 1000);
    ck_assert_uint_ge(tried_check, 2000);
    ck_assert_uint_ge(tried_header, 70);
    ck_assert_uint_ge(tried_tag, 20);
    ck_assert_uint_ge(tried_contract_type, 100);
    ck_assert_uint_ge(tried_derived_type, 50);
    ck_assert_uint_ge(tried_constant, 100);
}
END_TEST

/* The names of the issue and of docs/contract-language.md, spelt out (not
 * taken from the table): each with its complete message. */
START_TEST(the_documented_examples_give_their_messages)
{
    static const struct {
        const char *field, *why;
    } fields[] = {
        {"NULL", "a macro of <stddef.h>"},
        {"errno", "a macro of <errno.h>"},
        {"EOF", "a macro of <stdio.h>"},
        {"I", "a macro of <complex.h>"},
        {"complex", "a macro of <complex.h>"},
        {"imaginary", "a macro of <complex.h>"},
        {"noreturn", "a macro of <stdnoreturn.h>"},
        {"stdin", "a macro of <stdio.h>"},
        {"stdout", "a macro of <stdio.h>"},
        {"stderr", "a macro of <stdio.h>"},
        {"linux", "a macro that GNU C (Linux) predefines"},
        {"unix", "a macro that GNU C (Unix systems) predefines"},
        {"i386", "a macro that GNU C (32-bit x86) predefines"},
        {"size_t", "a type of <stddef.h>"},
        {"int64_t", "a type of <stdint.h>"},
        {"uint8_t", "a type of <stdint.h>"},
        {"SIZE_MAX", "a macro of <stdint.h>"},
        {"INT64_MAX", "a macro of <stdint.h>"},
        {"CHAR_BIT", "a macro of <limits.h>"},
        {"EXIT_SUCCESS", "a macro of <stdlib.h>"},
        {"EDOM", "a macro of <errno.h>"},
        {"__typename", "reserved for the compiler and the C library (it starts with '__', "
                       "C11 7.1.3)"},
        {"__linux__", "reserved for the compiler and the C library (it starts with '__', "
                      "C11 7.1.3)"},
        {"_Exit_code", "reserved for the compiler and the C library (it starts with '_' and a "
                       "capital letter, C11 7.1.3)"},
        {"contractc", "reserved for the contractc runtime's own names (it starts with "
                      "'contractc')"},
        {"CONTRACTC_OK", "reserved for the contractc runtime's own names (it starts with "
                         "'contractc')"},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        expect_line(fields[i].field, contract("k", fields[i].field, "ok_check"),
                    format("c.yaml:5:3: error: the C name '%s' of field '%s' is %s; rename the "
                           "field, or choose its C name with c_name:\n", fields[i].field, fields[i].field, fields[i].why));

    static const struct {
        const char *name, *line;
    } names[] = {
        {"size", "contract name 'size' gives the C type 'size_t', which is a type of "
                 "<stddef.h>; choose another name, such as 'size_reply'"},
        {"int64", "contract name 'int64' gives the C type 'int64_t', which is a type of "
                  "<stdint.h>; choose another name, such as 'int64_reply'"},
        {"uint8", "contract name 'uint8' gives the C type 'uint8_t', which is a type of "
                  "<stdint.h>; choose another name, such as 'uint8_reply'"},
        /* wchar_t too, but the header comes first */
        {"wchar", "contract name 'wchar' gives the header 'wchar.h', which would hide the "
                  "standard <wchar.h> wherever the generated directory is on the include path; "
                  "choose another name, such as 'wchar_reply'"},
        {"tm", "contract name 'tm' gives the C struct tag 'tm', which is the tag of a struct, "
               "union or enum of <time.h>; choose another name, such as 'tm_reply'"},
        {"atomic_is_lock", "contract name 'atomic_is_lock' gives the C function "
                           "'atomic_is_lock_free', which is a macro of <stdatomic.h>; choose "
                           "another name, such as 'atomic_is_lock_reply'"},
        {"string", "contract name 'string' gives the header 'string.h', which would hide the "
                   "standard <string.h> wherever the generated directory is on the include "
                   "path; choose another name, such as 'string_reply'"},
        {"stdio", "contract name 'stdio' gives the header 'stdio.h', which would hide the "
                  "standard <stdio.h> wherever the generated directory is on the include path; "
                  "choose another name, such as 'stdio_reply'"},
        {"math", "contract name 'math' gives the header 'math.h', which would hide the standard "
                 "<math.h> wherever the generated directory is on the include path; choose "
                 "another name, such as 'math_reply'"},
        {"contractc", "contract name 'contractc' is reserved for the contractc runtime's own "
                      "names (it starts with 'contractc'); choose another name"},
        {"contractc_problems", "contract name 'contractc_problems' is reserved for the "
                               "contractc runtime's own names (it starts with 'contractc'); "
                               "choose another name, such as 'problems'"},
        {"contractc_record", "contract name 'contractc_record' is reserved for the contractc "
                             "runtime's own names (it starts with 'contractc'); choose another "
                             "name, such as 'record'"},
        {"contractc_date", "contract name 'contractc_date' is reserved for the contractc "
                           "runtime's own names (it starts with 'contractc'); choose another "
                           "name, such as 'date'"},
        {"contractc_string", "contract name 'contractc_string' is reserved for the contractc "
                             "runtime's own names (it starts with 'contractc'); choose another "
                             "name, such as 'string'"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        expect_line(names[i].name, contract(names[i].name, "a", "ok_check"),
                    format("c.yaml:1:11: error: %s\n", names[i].line));

    /* a check function, a named type and an enum constant */
    expect_line("assert", contract("k", "a", "assert"),
                format("c.yaml:7:23: error: check function 'assert' is a macro of <assert.h>; "
                       "the generated header declares it: choose another name\n"));
    expect_line("pthread_mutex_t",
                format("contract: pthread\nversion: 1\ninstruction: x\ntypes:\n"
                       "  mutex: {fields: {a: {type: string}}}\nfields:\n  m: {type: mutex}\n"),
                format("c.yaml:5:3: error: the C name 'pthread_mutex_t' of type 'mutex' is a type "
                       "of <sys/types.h>; rename the type or the contract\n"));
    expect_line("FLT_EVAL_METHOD",
                format("contract: flt\nversion: 1\ninstruction: x\nfields:\n"
                       "  eval: {type: enum, values: [method, other]}\n"),
                format("c.yaml:5:31: error: the C name 'FLT_EVAL_METHOD' of enum value 'method' of "
                       "field 'eval' is a macro of <float.h>; rename the field or the contract\n"));
}
END_TEST

START_TEST(names_near_reserved_ones_still_load)
{
    /* field names, type names, contract names and values that only look
     * like reserved ones, and functions of the headers as members (a
     * member is not an ordinary identifier) */
    static const char *const contracts[] = {
        ("contract: nullable\nversion: 1\ninstruction: x\nfields:\n"
         "  nullable: {type: string, nullable: true}\n  errors: {type: integer}\n"
         "  size_bytes: {type: integer}\n  strings: {type: array, items: {type: string}}\n"),
        ("contract: errors\nversion: 1\ninstruction: x\nfields:\n  size: {type: integer}\n"
         "  time: {type: string}\n  log: {type: string}\n  index: {type: integer}\n"
         "  signal: {type: string}\n  _id: {type: string}\n  string_value: {type: string}\n"
         "  null_value: {type: string}\n  eof: {type: boolean}\n  Linux: {type: boolean}\n"
         "  assert: {type: boolean}\n  offsetof: {type: integer}\n  pid_t: {type: integer}\n"),
        ("contract: size_bytes\nversion: 1\ninstruction: x\ntypes:\n"
         "  strings: {fields: {a: {type: string}}}\n  tm: {values: [a, b]}\nfields:\n"
         "  x: {type: strings}\n  y: {type: tm}\n"
         "  errno_kind: {type: enum, values: [NULL, EOF, errno, size_t]}\n"
         "rules:\n  - check: {function: check_size}\n"),
        ("contract: my_contractc\nversion: 1\ninstruction: x\nfields:\n"
         "  uses_contractc: {type: string}\n"),
    };
    for (size_t i = 0; i < sizeof contracts / sizeof contracts[0]; i++) {
        bool accepted = false;
        char *out = lint(contracts[i], &accepted);
        ck_assert_msg(accepted && strstr(out, ": error: ") == NULL, "%s\n--- got\n%s",
                      contracts[i], out);
        free(out);
    }
}
END_TEST

START_TEST(the_lookup_is_exact)
{
    char why[160];
    /* members: macros and the included headers' types only */
    ck_assert(cc_reserved_c_name("errno", CC_C_MEMBER, why, sizeof why));
    ck_assert_str_eq(why, "a macro of <errno.h>");
    ck_assert(!cc_reserved_c_name("printf", CC_C_MEMBER, why, sizeof why));
    ck_assert(!cc_reserved_c_name("pid_t", CC_C_MEMBER, why, sizeof why));
    ck_assert(cc_reserved_c_name("pid_t", CC_C_ORDINARY, why, sizeof why));
    ck_assert_str_eq(why, "a type of <sys/types.h>");
    ck_assert(cc_reserved_c_name("printf", CC_C_ORDINARY, why, sizeof why));
    ck_assert_str_eq(why, "a function of <stdio.h>");
    ck_assert(!cc_reserved_c_name("tm", CC_C_ORDINARY, why, sizeof why));
    ck_assert(cc_reserved_c_name("tm", CC_C_TAG, why, sizeof why));
    ck_assert(!cc_reserved_c_name("printf", CC_C_TAG, why, sizeof why));
    /* a short buffer is cut, never overrun */
    char small[8];
    ck_assert(cc_reserved_c_name("NULL", CC_C_MEMBER, small, sizeof small));
    ck_assert_str_eq(small, "a macro");
    ck_assert(!cc_reserved_c_name(NULL, CC_C_MEMBER, why, sizeof why));
    ck_assert(!cc_reserved_c_name("", CC_C_MEMBER, why, sizeof why));
    ck_assert(cc_has_runtime_prefix("ContractC_x"));
    ck_assert(!cc_has_runtime_prefix("contract"));
    ck_assert(cc_shadows_header("string"));
    ck_assert(cc_shadows_header("strings"));
    ck_assert(!cc_shadows_header("strin"));
    ck_assert(!cc_shadows_header("string_x"));
    ck_assert(!cc_shadows_header(NULL));
}
END_TEST

Suite *reserved_suite(void);
Suite *reserved_suite(void)
{
    Suite *s = suite_create("reserved");
    TCase *tc = tcase_create("names");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_reserved_name_is_refused_where_it_clashes);
    tcase_add_test(tc, the_documented_examples_give_their_messages);
    tcase_add_test(tc, names_near_reserved_ones_still_load);
    tcase_add_test(tc, the_lookup_is_exact);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reserved_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
