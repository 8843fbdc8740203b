/* SPDX-License-Identifier: MIT */
/*
 * private.h - CC_PRIVATE, the mark of a function that the runtime's source
 * files share with one another and with nothing else (not installed).
 *
 * Every such function is declared once, in a private header, as
 *
 *   CC_PRIVATE bool cc_scan_number(cc_reader_t *r, cc_number_token_t *t);
 *
 * and defined without the mark.  In the library build CC_PRIVATE is empty:
 * the functions are ordinary external functions, so the generator, the
 * tests and the benchmark can call them, and libcontractc_runtime.so hides
 * them with its version script (contractc_runtime.map).  The one-file
 * runtime of `contractc vendor` (cmake/embed_runtime.cmake) defines it as
 * `static` before this header, so a vendored runtime exports the public
 * contractc_* functions alone and cannot clash with a name of the user's
 * program (the approach of SQLite's SQLITE_PRIVATE).
 */
#ifndef CONTRACTC_PRIVATE_H
#define CONTRACTC_PRIVATE_H

#ifndef CC_PRIVATE
#define CC_PRIVATE
#endif

#endif /* CONTRACTC_PRIVATE_H */
