/* SPDX-License-Identifier: MIT */
/*
 * alloc_shim.c - an LD_PRELOAD library that fails the n-th allocation of a
 * process (curl's "torture" runs, nanopb's malloc wrappers), for the parts
 * of the generator whose libraries have no allocator hook: libyaml, cJSON
 * and libcrypto all call malloc directly.
 *
 *   CONTRACTC_FAIL_ALLOC=N        the N-th call (1-based) of malloc, calloc,
 *                                 realloc (to a non-zero size), strdup and
 *                                 friends returns NULL with errno = ENOMEM;
 *                                 every other call succeeds.  0 or unset:
 *                                 none fails.
 *   CONTRACTC_ALLOC_COUNT=FILE    at exit, write the number of calls counted
 *                                 (and "failed" when call N was reached) on
 *                                 the first line, and on the second, after
 *                                 "libcrypto:", the ranges "A-B" of call
 *                                 numbers made from inside libcrypto (whose
 *                                 start-up makes thousands of allocations and
 *                                 absorbs their failure itself), so a sweep
 *                                 can sample those and take every other one.
 *
 * Counting starts when this library's constructor runs, so allocations made
 * by the dynamic loader and by libc's own start-up are not counted and
 * never fail: the run is deterministic and each failure lands in code that
 * the program under test is responsible for.
 *
 * glibc lets a preloaded library replace malloc and sends its own internal
 * calls (strdup, fopen's buffer, ...) through the replacement; the real
 * allocator is reached through its exported __libc_* entry points, which,
 * unlike dlsym(RTLD_NEXT), never allocate themselves.  Not for ASan builds:
 * ASan replaces malloc too.
 *
 * Test-only code: the counters are process-wide on purpose.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

static unsigned long long counted;   /* calls seen since the constructor */
static unsigned long long fail_at;   /* 0: none */
static int armed;
static int failed;

/* libcrypto's loaded address range, and the calls made from inside it. */
static uintptr_t crypto_lo, crypto_hi;
#define MAX_RANGES 4096
static unsigned long long range_lo[MAX_RANGES], range_hi[MAX_RANGES];
static size_t ranges;
static int ranges_overflowed;

static void note_caller(const void *caller)
{
    uintptr_t a = (uintptr_t)caller;
    if (!crypto_hi || a < crypto_lo || a >= crypto_hi)
        return;
    if (ranges && range_hi[ranges - 1] + 1 == counted) {
        range_hi[ranges - 1] = counted;
    } else if (ranges < MAX_RANGES) {
        range_lo[ranges] = range_hi[ranges] = counted;
        ranges++;
    } else {
        ranges_overflowed = 1;
    }
}

/* One counted call: true when it is the one to fail. */
#define should_fail() should_fail_from(__builtin_return_address(0))
static int should_fail_from(const void *caller)
{
    if (!armed)
        return 0;
    counted++;
    note_caller(caller);
    if (fail_at != 0 && counted == fail_at) {
        failed = 1;
        return 1;
    }
    return 0;
}

void *malloc(size_t size)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size)
{
    /* realloc(p, 0) frees: not an allocation that can fail. */
    if (size != 0 && should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(ptr, size);
}

void free(void *ptr)
{
    __libc_free(ptr);
}

/* strdup and strndup are counted through malloc (glibc's internal calls go
 * through the replacement); defining them here as well keeps that true on
 * libcs that would not. */
char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p)
        memcpy(p, s, n);
    return p;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

static void report(void)
{
    const char *path = getenv("CONTRACTC_ALLOC_COUNT");
    if (!path || !*path)
        return;
    armed = 0;
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "%llu%s\nlibcrypto:", counted, failed ? " failed" : "");
    for (size_t i = 0; i < ranges && !ranges_overflowed; i++)
        fprintf(f, " %llu-%llu", range_lo[i], range_hi[i]);
    fputc('\n', f);
    fclose(f);
}

/* dl_iterate_phdr callback: the extent of libcrypto's loaded segments. */
static int find_crypto(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libcrypto.so"))
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (!crypto_lo || lo < crypto_lo)
            crypto_lo = lo;
        if (hi > crypto_hi)
            crypto_hi = hi;
    }
    return 1;
}

__attribute__((constructor)) static void shim_start(void)
{
    dl_iterate_phdr(find_crypto, NULL);
    const char *n = getenv("CONTRACTC_FAIL_ALLOC");
    fail_at = n ? strtoull(n, NULL, 10) : 0;
    atexit(report);
    armed = 1;
}
