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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "generator.h"
#include "vendor.h"

/* mkdir that accepts an existing directory. */
static bool make_dir(const char *path, FILE *err)
{
    if (mkdir(path, 0755) == 0 || errno == EEXIST)
        return true;
    fprintf(err, "contractc vendor: cannot create %s: %s\n", path, strerror(errno));
    return false;
}

/* Writes data to path through a temporary file and rename(), so a reader
 * (or an interrupted run) never sees half a runtime. */
static bool write_atomic(const char *path, const char *data, size_t len, FILE *err)
{
    cc_buf_t tmp = CC_BUF_INIT;
    cc_buf_printf(&tmp, "%s.tmpXXXXXX", path);
    if (!tmp.data || tmp.failed) {
        fprintf(err, "contractc vendor: out of memory\n");
        return false;
    }
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        fprintf(err, "contractc vendor: cannot write %s: %s\n", path, strerror(errno));
        cc_buf_free(&tmp);
        return false;
    }
    FILE *f = fdopen(fd, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f)
        ok = (fclose(f) == 0) && ok;
    else
        close(fd);
    if (ok)
        ok = chmod(tmp.data, 0644) == 0 && rename(tmp.data, path) == 0;
    if (!ok) {
        fprintf(err, "contractc vendor: cannot write %s: %s\n", path, strerror(errno));
        unlink(tmp.data);
    }
    cc_buf_free(&tmp);
    return ok;
}

int cc_vendor_main(int argc, char **argv, FILE *out, FILE *err)
{
    if (argc != 1 || argv[0][0] == '\0' || (argv[0][0] == '-' && argv[0][1] != '\0')) {
        fprintf(err, "usage: contractc vendor DIR\n"
                     "  writes DIR/contractc_runtime.c and DIR/contractc/contractc.h\n");
        return 2;
    }
    const char *dir = argv[0];
    if (!make_dir(dir, err))
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
        for (char *slash = path.data + strlen(dir) + 1; ok && (slash = strchr(slash, '/')); slash++) {
            *slash = '\0';
            ok = make_dir(path.data, err);
            *slash = '/';
        }
        if (ok && !write_atomic(path.data, file->data, file->len, err))
            ok = false;
        if (ok)
            fprintf(out, "%s\n", path.data);
        else
            status = 1;
        cc_buf_free(&path);
    }
    return status;
}
