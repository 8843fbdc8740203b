/* SPDX-License-Identifier: MIT */
/*
 * main.c - the `contractc` executable: everything is in the generator
 * library (cli.c), so tests can run the same code in process.
 */
#include <stdio.h>

#include "generator.h"

int main(int argc, char **argv)
{
    return cc_cli_main(argc, argv, stdout, stderr);
}
