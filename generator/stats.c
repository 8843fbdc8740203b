/*
 * stats.c - placeholder for `contractc stats` until the decision log lands.
 */
#include "generator.h"

int cc_stats_main(int argc, char **argv, FILE *out, FILE *err)
{
    (void)argc;
    (void)argv;
    (void)out;
    fprintf(err, "contractc stats: not implemented yet\n");
    return 2;
}
