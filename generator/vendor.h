/* SPDX-License-Identifier: MIT */
/*
 * vendor.h - the runtime's files as `contractc vendor` writes them (internal).
 *
 * vendor_files.c is generated at build time by cmake/embed_runtime.cmake:
 * the one-file runtime (contractc_runtime.c, amalgamated from runtime/src)
 * and the public header (contractc/contractc.h), as byte arrays, so the
 * installed generator needs no source tree to vendor from.
 */
#ifndef CONTRACTC_VENDOR_H
#define CONTRACTC_VENDOR_H

#include <stddef.h>

typedef struct cc_vendor_file {
    const char *name;  /* path relative to the vendor directory, '/'-separated */
    const char *data;  /* the file's bytes, followed by a NUL not counted in len */
    size_t len;
} cc_vendor_file_t;

/* Every file `contractc vendor DIR` writes, in the order it writes them. */
extern const cc_vendor_file_t cc_vendor_files[];
extern const size_t cc_vendor_file_count;

#endif /* CONTRACTC_VENDOR_H */
