/* SPDX-License-Identifier: MIT */
/*
 * table_list.h - the generated list of contracts that test_tables compares
 * (written by tests/CMakeLists.txt: the test contracts, or the examples).
 */
#ifndef CONTRACTC_TEST_TABLE_LIST_H
#define CONTRACTC_TEST_TABLE_LIST_H

#include <stddef.h>

#include <contractc/contractc.h>

typedef struct cc_table_case {
    const char *contract_file;             /* absolute path */
    const contractc_contract_t *generated; /* NAME_contract of the generated NAME.c */
} cc_table_case_t;

extern const cc_table_case_t cc_table_cases[];
extern const size_t cc_table_case_count;

#endif /* CONTRACTC_TEST_TABLE_LIST_H */
