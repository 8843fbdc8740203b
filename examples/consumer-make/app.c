/* SPDX-License-Identifier: MIT */
/*
 * app.c - a program outside the contractc tree that uses a generated parser:
 * one German customer email, the model's first reply (a decimal comma,
 * rejected with its repair turn) and its corrected reply (accepted).
 *
 * It builds four ways, with the same source (tests/integration/ builds each):
 *   examples/consumer-cmake   find_package(contractc) + contractc_generate()
 *   examples/consumer-make    a Makefile, pkg-config and committed generated files
 *   examples/consumer-meson   Meson, pkg-config and a custom_target generating at build time
 *   vendored                  cc -I. app.c refund_request.c contractc_runtime.c
 * Exit status: 0 when the first reply is rejected and the second accepted
 * with the exact amount, 1 otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refund_request.h"

static const char email[] =
    "Hello,\n"
    "my order A-1063 arrived damaged. I paid 1.250,00 EUR and would like my money back.\n"
    "Regards,\n"
    "J. Weber\n";

static const char *const replies[] = {
    "{\"order_id\":\"A-1063\",\"amount\":\"1.250,00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}",
    "{\"order_id\":\"A-1063\",\"amount\":\"1250.00\",\"currency\":\"EUR\","
    "\"amount_text\":\"1.250,00 EUR\",\"reason\":\"damaged\"}",
};

/* Parses one reply; returns 1 accepted (with *minor set), 0 rejected, -1 error. */
static int handle(const char *reply, int64_t *minor)
{
    refund_request_t rec;
    contractc_problems_t problems;
    contractc_problems_init(&problems);
    contractc_status_t st = refund_request_parse(reply, strlen(reply), email, sizeof email - 1,
                                                 &rec, &problems);
    int result = -1;
    if (st == CONTRACTC_OK) {
        char *json = refund_request_to_json(&rec, NULL);
        printf("accepted: %s\n", json ? json : "(out of memory)");
        *minor = rec.has_amount ? rec.amount : -1;
        free(json);
        refund_request_free(&rec);
        result = json ? 1 : -1;
    } else if (st == CONTRACTC_REJECTED) {
        char *turn = NULL;
        if (refund_request_repair_prompt(&problems, &turn, NULL) == CONTRACTC_OK) {
            printf("rejected; repair turn:\n%s", turn);
            result = 0;
        }
        free(turn);
    } else {
        printf("error: %s\n", contractc_status_name(st));
    }
    contractc_problems_clear(&problems);
    return result;
}

int main(void)
{
    int64_t minor = 0;
    printf("contract %s (runtime %s)\n", refund_request_contract_hash, CONTRACTC_VERSION);
    int first = handle(replies[0], &minor);
    int second = handle(replies[1], &minor);
    if (first != 0 || second != 1 || minor != 125000) {
        printf("FAILED: expected the first reply rejected and the second accepted as 125000 minor units\n");
        return 1;
    }
    printf("refund %" PRId64 ".%02" PRId64 " EUR\n", minor / 100, minor % 100);
    return 0;
}
