/* SPDX-License-Identifier: MIT */
/*
 * codemap_checks.c - the business check of the codemap contract, written by
 * the user in C.  The generated codemap.h declares it (rule line_in_file of
 * type symbol); the generated parser calls it once per symbol, with the
 * symbol's path ($.symbols[N]), and only on a record that has no other
 * problem, so `item` is fully typed and valid here.
 */
#include <stdio.h>

#include "codemap.h"

/* Lines of the text: its line breaks, plus a last line without one. */
static size_t count_lines(const char *text, size_t len)
{
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            lines++;
    if (len && text[len - 1] != '\n')
        lines++;
    return lines;
}

void codemap_symbol_line_in_file(const codemap_symbol_t *item, contractc_check_t *check)
{
    size_t len = 0;
    const char *file = contractc_check_source(check, &len);
    size_t lines = count_lines(file ? file : "", len);
    if (item->line > 0 && (uint64_t)item->line > (uint64_t)lines) {
        char message[160];
        snprintf(message, sizeof message,
                 "line %lld is beyond the end of the file, which has %zu lines",
                 (long long)item->line, lines);
        contractc_check_fail(check, message); /* copies the message */
    }
}
