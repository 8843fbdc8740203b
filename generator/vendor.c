/*
 * vendor.c - placeholder for `contractc vendor` until vendoring lands.
 */
#include "generator.h"

int cc_vendor_main(int argc, char **argv, FILE *out, FILE *err)
{
    (void)argc;
    (void)argv;
    (void)out;
    fprintf(err, "contractc vendor: not implemented yet\n");
    return 2;
}
