/* SPDX-License-Identifier: MIT */
/*
 * test_nested_limits.c - the bad inputs of nested_bad_input.h against the
 * nested_limits contract (reply.max_bytes 64 MiB, max_depth 1024, so the
 * checks really run): 32 MiB of nested arrays (1000 deep, and past max_depth),
 * an object with a million keys, four million numbers against max_items 200,
 * and a 32 MiB string.  Each gets its problems and no crash; memory is shown
 * to be bounded by a constant times the reply's size, and to grow no faster
 * than the reply, by counting through the allocator of contractc_options_t:
 * calls, peak live bytes and total bytes, at sizes N and 2N.
 *
 * Instruction counts (work, not time) are the business of bench_nested.sh,
 * which runs callgrind on nested_bad_input at two sizes.
 *
 * Under the sanitizers (NESTED_SIZE_DIVISOR=8, set by tests/nested.cmake)
 * every size is divided by 8: the same shapes, the same ratios, a shorter run.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nested_bad_input.h"
#include "nested_limits.h"

#ifndef NESTED_SIZE_DIVISOR
#define NESTED_SIZE_DIVISOR 1
#endif

#define MIB ((size_t)1 << 20)
/* N and 2N: 16 and 32 MiB (2 and 4 under the sanitizers). */
#define SIZE_N (16 * MIB / NESTED_SIZE_DIVISOR)

/* A counting allocator: calls, live bytes, their peak, and the total. */
typedef struct counter {
    size_t calls, frees, live, peak, total;
} counter_t;

static void *count_alloc(void *ctx, size_t size)
{
    counter_t *c = ctx;
    void *p = malloc(size ? size : 1);
    if (!p)
        return NULL;
    c->calls++;
    c->live += size;
    c->total += size;
    if (c->live > c->peak)
        c->peak = c->live;
    return p;
}

static void count_free(void *ctx, void *ptr, size_t size)
{
    counter_t *c = ctx;
    if (!ptr)
        return;
    c->frees++;
    c->live -= size;
    free(ptr);
}

/* One measured parse: the counts and what the problem list said. */
typedef struct measure {
    size_t reply_len, items;
    counter_t count;
    size_t problems, dropped;
    char first[160]; /* "PATH kind" of the first problem */
    char last[160];  /* and of the last one kept */
} measure_t;

static void describe(char *out, size_t n, const contractc_problem_t *p)
{
    snprintf(out, n, "%s %s", p->path, contractc_kind_name(p->kind));
}

static measure_t run(bad_kind_t kind, size_t bytes)
{
    measure_t m;
    memset(&m, 0, sizeof m);
    char *reply = bad_reply(kind, bytes, &m.reply_len, &m.items);
    ck_assert_ptr_nonnull(reply);
    contractc_allocator_t a = {count_alloc, count_free, &m.count};
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, 0, &a);
    contractc_options_t options = {&a, 0, 0, NULL};
    nested_limits_t rec;
    contractc_status_t rc = contractc_parse(&nested_limits_contract, reply, m.reply_len, NULL, 0,
                                            &options, &rec, &problems);
    ck_assert_msg(rc == CONTRACTC_REJECTED, "%s at %zu bytes: %s", bad_kind_names[kind], bytes,
                  contractc_status_name(rc));
    m.problems = contractc_problems_count(&problems);
    m.dropped = problems.dropped;
    ck_assert_uint_ge(m.problems, 1);
    describe(m.first, sizeof m.first, contractc_problems_at(&problems, 0));
    describe(m.last, sizeof m.last, contractc_problems_at(&problems, m.problems - 1));
    contractc_problems_clear(&problems);
    /* everything the parse allocated is freed again */
    ck_assert_uint_eq(m.count.live, 0);
    ck_assert_uint_eq(m.count.calls, m.count.frees);
    free(reply);
    return m;
}

/* Runs N and 2N, prints the figures, and checks what holds for every kind:
 * memory within a constant times the reply, no faster growth than it. */
static void run_pair(bad_kind_t kind, measure_t *n, measure_t *n2)
{
    *n = run(kind, SIZE_N);
    *n2 = run(kind, 2 * SIZE_N);
    double calls = (double)n2->count.calls / (double)n->count.calls;
    double peak = (double)n2->count.peak / (double)(n->count.peak ? n->count.peak : 1);
    printf("%-13s %9zu B: %7zu allocations, peak %9zu B, total %9zu B, %zu problems + %zu dropped\n",
           bad_kind_names[kind], n->reply_len, n->count.calls, n->count.peak, n->count.total,
           n->problems, n->dropped);
    printf("%-13s %9zu B: %7zu allocations, peak %9zu B, total %9zu B, %zu problems + %zu dropped\n",
           bad_kind_names[kind], n2->reply_len, n2->count.calls, n2->count.peak, n2->count.total,
           n2->problems, n2->dropped);
    printf("%-13s peak / reply bytes: %.2f and %.2f (the contract's arena_factor is %u)\n",
           bad_kind_names[kind], (double)n->count.peak / (double)n->reply_len,
           (double)n2->count.peak / (double)n2->reply_len,
           (unsigned)nested_limits_contract.arena_factor);
    printf("%-13s 2N/N: allocations x%.3f, peak x%.3f; %zu and %zu parts; first problem %s\n",
           bad_kind_names[kind], calls, peak, n->items, n2->items, n->first);
    /* memory bounded by a constant times the reply's size: the contract's
     * arena bound (arena_factor * len + arena_base, contractc.h) plus 1 MiB
     * for the reader, paths and problem list, at both sizes */
    const contractc_contract_t *c = &nested_limits_contract;
    ck_assert_uint_le(n->count.peak, (size_t)c->arena_factor * n->reply_len + c->arena_base + MIB);
    ck_assert_uint_le(n2->count.peak, (size_t)c->arena_factor * n2->reply_len + c->arena_base + MIB);
    /* growing no faster than the reply: at most x2.2 from N to 2N */
    ck_assert_msg(calls <= 2.2, "%s: allocations grew x%.3f from N to 2N", bad_kind_names[kind],
                  calls);
    ck_assert_msg(n2->count.peak <= 2.2 * (double)n->count.peak + 65536.0,
                  "%s: peak grew x%.3f from N to 2N", bad_kind_names[kind], peak);
    /* the same problems at both sizes, apart from how many were dropped */
    ck_assert_str_eq(n->first, n2->first);
}

START_TEST(nested_arrays_1000_deep_get_one_type_problem_each_and_capped)
{
    measure_t n, n2;
    run_pair(BAD_WIDE_NESTING, &n, &n2);
    /* each X = [[[...]]] is an array where an array of integers holds an
     * array: $.nest[i][0] type, for every X; the list keeps 64 */
    ck_assert_str_eq(n.first, "$.nest[0][0] type");
    ck_assert_str_eq(n.last, "$.nest[63][0] type");
    ck_assert_uint_eq(n.problems, 64);
    ck_assert_uint_eq(n.problems + n.dropped, n.items);
    ck_assert_uint_eq(n2.problems + n2.dropped, n2.items);
}
END_TEST

START_TEST(nested_arrays_past_max_depth_are_one_limit_problem)
{
    measure_t n, n2;
    run_pair(BAD_DEEP_NESTING, &n, &n2);
    ck_assert_str_eq(n.first, "$ limit");
    ck_assert_uint_eq(n.problems, 1);
    ck_assert_uint_eq(n.dropped, 0);
    ck_assert_uint_eq(n2.problems, 1);
}
END_TEST

START_TEST(an_object_with_a_million_keys_gets_every_unexpected_key_counted)
{
    measure_t n, n2;
    run_pair(BAD_MANY_KEYS, &n, &n2);
    ck_assert_str_eq(n.first, "$.meta.k000000000000000000000000000 unexpected");
    /* the missing n comes last, past the cap: counted among the dropped */
    ck_assert_str_eq(n.last, "$.meta.k000000000000000000000000063 unexpected");
    ck_assert_uint_eq(n.problems, 64);
    if (NESTED_SIZE_DIVISOR == 1)
        ck_assert_uint_ge(n2.items, 1000000);
    /* every key is one unexpected problem, plus the missing n */
    ck_assert_uint_eq(n.problems + n.dropped, n.items + 1);
    ck_assert_uint_eq(n2.problems + n2.dropped, n2.items + 1);
}
END_TEST

START_TEST(four_million_numbers_against_max_items_200_are_one_items_problem)
{
    measure_t n, n2;
    run_pair(BAD_MANY_NUMBERS, &n, &n2);
    ck_assert_str_eq(n.first, "$.values items");
    ck_assert_uint_eq(n.problems, 1);
    ck_assert_uint_eq(n2.problems, 1);
    if (NESTED_SIZE_DIVISOR == 1)
        ck_assert_uint_ge(n2.items, 4000000);
}
END_TEST

START_TEST(a_32_mib_string_is_one_length_problem)
{
    measure_t n, n2;
    run_pair(BAD_LONG_STRING, &n, &n2);
    ck_assert_str_eq(n.first, "$.text length");
    ck_assert_uint_eq(n.problems, 1);
    ck_assert_uint_eq(n2.problems, 1);
    if (NESTED_SIZE_DIVISOR == 1)
        ck_assert_uint_ge(n2.reply_len, 32 * MIB);
}
END_TEST

START_TEST(a_reply_over_max_bytes_is_refused_before_reading)
{
    /* 64 MiB + 1 byte: a limit problem, and nothing allocated for the reply */
    size_t len = 64 * MIB + 1;
    char *reply = malloc(len);
    ck_assert_ptr_nonnull(reply);
    memset(reply, ' ', len);
    counter_t count = {0, 0, 0, 0, 0};
    contractc_allocator_t a = {count_alloc, count_free, &count};
    contractc_problems_t problems;
    contractc_problems_init_with(&problems, 0, &a);
    contractc_options_t options = {&a, 0, 0, NULL};
    nested_limits_t rec;
    ck_assert_int_eq(contractc_parse(&nested_limits_contract, reply, len, NULL, 0, &options, &rec,
                                     &problems),
                     CONTRACTC_REJECTED);
    ck_assert_uint_eq(contractc_problems_count(&problems), 1);
    ck_assert_int_eq(contractc_problems_at(&problems, 0)->kind, CONTRACTC_KIND_LIMIT);
    ck_assert_uint_lt(count.peak, 64 * 1024);
    contractc_problems_clear(&problems);
    free(reply);
}
END_TEST

static Suite *limits_suite(void)
{
    Suite *s = suite_create("nested_limits");
    TCase *tc = tcase_create("bad input");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, nested_arrays_1000_deep_get_one_type_problem_each_and_capped);
    tcase_add_test(tc, nested_arrays_past_max_depth_are_one_limit_problem);
    tcase_add_test(tc, an_object_with_a_million_keys_gets_every_unexpected_key_counted);
    tcase_add_test(tc, four_million_numbers_against_max_items_200_are_one_items_problem);
    tcase_add_test(tc, a_32_mib_string_is_one_length_problem);
    tcase_add_test(tc, a_reply_over_max_bytes_is_refused_before_reading);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    if (NESTED_SIZE_DIVISOR != 1)
        printf("test_nested_limits: sanitizer build, every size divided by %d\n",
               NESTED_SIZE_DIVISOR);
    SRunner *sr = srunner_create(limits_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
