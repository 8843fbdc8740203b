/* SPDX-License-Identifier: MIT */
/*
 * vendor.c - `contractc vendor DIR`: writes the runtime for vendoring.
 *
 * The runtime depends on the C library alone, so vendoring it is copying
 * two files: DIR/contractc_runtime.c (every runtime source in one file) and
 * DIR/contractc/contractc.h (the public header, keeping the path generated
 * code includes).  Then `cc -I DIR app.c NAME.c DIR/contractc_runtime.c`
 * builds with nothing of contractc installed.  Both files come from the
 * generator binary itself (vendor.h), so they always match the generator
 * that writes NAME.h and NAME.c: same version, same descriptor ABI.
 *
 * Exit: 0 written; 1 a file could not be written; 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "generator.h"
#include "io.h"
#include "vendor.h"

int cc_vendor_main(int argc, char **argv, FILE *info, FILE *err)
{
    if (argc != 1 || argv[0][0] == '\0' || (argv[0][0] == '-' && argv[0][1] != '\0')) {
        fprintf(err, "usage: contractc vendor DIR\n"
                     "  writes DIR/contractc_runtime.c and DIR/contractc/contractc.h\n");
        return 2;
    }
    const char *dir = argv[0];
    if (!cc_make_dirs(dir, "vendor", err)) /* parents too, as mkdir -p */
        return 1;
    int status = 0;
    for (size_t i = 0; i < cc_vendor_file_count; i++) {
        const cc_vendor_file_t *file = &cc_vendor_files[i];
        cc_buf_t path = CC_BUF_INIT;
        cc_buf_printf(&path, "%s/%s", dir, file->name);
        if (!path.data || path.failed) {
            fprintf(err, "contractc vendor: out of memory\n");
            cc_buf_free(&path);
            return 1;
        }
        /* create the file's parent directories below DIR ("contractc/") */
        bool ok = true;
        char *slash = strrchr(path.data + strlen(dir) + 1, '/');
        if (slash) {
            *slash = '\0';
            ok = cc_make_dirs(path.data, "vendor", err);
            *slash = '/';
        }
        /* written through a temporary file and rename(), and only when the
         * bytes change: a reader never sees half a runtime */
        if (ok && cc_write_file_if_changed(path.data, file->data, file->len, "vendor", err) < 0)
            ok = false;
        if (!ok)
            status = 1;
        else if (info) /* the files written: informational, not a result */
            fprintf(info, "%s\n", path.data);
        cc_buf_free(&path);
    }
    return status;
}
