/* SPDX-License-Identifier: MIT */
/*
 * example_cases.h - the harness the example programs share: it runs every
 * case of DATA_DIR/cases.txt through a contract's generated parser, prints
 * the accepted record (through the example's own printer) or every problem
 * and the repair turn, and checks the outcome against the expectation.
 *
 * cases.txt, one case a line ('#' starts a comment):
 *   REPLY_FILE TEXT_FILE accept [what it shows]
 *   REPLY_FILE TEXT_FILE reject PATH:kind,PATH:kind [what it shows]
 * TEXT_FILE is the text the model read; it is the parser's source text
 * when the contract grounds values in one.
 */
#ifndef CONTRACTC_EXAMPLE_CASES_H
#define CONTRACTC_EXAMPLE_CASES_H

#include <stddef.h>

#include <contractc/contractc.h>

typedef struct example {
    const char *program;                  /* "ticket_example", for messages */
    const contractc_contract_t *contract; /* NAME_contract of the generated NAME.c */
    const char *text_what;                /* "ticket text", for messages */
    /* Prints an accepted record (a pointer to the contract's NAME_t). */
    void (*print_record)(const void *record);
} example_t;

/*
 * Runs the cases of argv[1] (or default_dir) and returns the exit status:
 * 0 when every case came out as expected, 1 otherwise or when a file is
 * missing.
 */
int example_run(const example_t *e, int argc, char **argv, const char *default_dir);

/* Reads DIR/NAME whole and NUL-terminates it; NULL on error.  free() it. */
char *example_read_file(const char *dir, const char *name, size_t *len);

#endif /* CONTRACTC_EXAMPLE_CASES_H */
