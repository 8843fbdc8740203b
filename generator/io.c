/* SPDX-License-Identifier: MIT */
/*
 * io.c - the command line's files and standard streams (io.h).
 */
#include "io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

char *cc_read_bounded(const char *path, size_t max, size_t *len, bool *over,
                      unsigned long long *size)
{
    bool from_stdin = strcmp(path, "-") == 0;
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    *len = 0;
    *over = false;
    *size = 0;
    if (!f)
        return NULL;
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0)
        *size = (unsigned long long)st.st_size;
    cc_buf_t b = CC_BUF_INIT;
    char chunk[65536];
    size_t limit = max < (size_t)-1 ? max + 1 : max;
    while (b.len < limit && !b.failed) {
        size_t want = limit - b.len < sizeof chunk ? limit - b.len : sizeof chunk;
        size_t n = fread(chunk, 1, want, f);
        if (n == 0)
            break;
        cc_buf_append(&b, chunk, n);
    }
    int read_error = ferror(f);
    if (!from_stdin)
        fclose(f);
    if (read_error) {
        cc_buf_free(&b);
        errno = EIO;
        return NULL;
    }
    size_t got = b.len;
    char *p = cc_buf_take(&b, len);
    if (!p) {
        errno = ENOMEM;
        return NULL;
    }
    *over = got > max;
    return p;
}

bool cc_make_dirs(const char *dir, const char *cmd, FILE *err)
{
    char *p = cc_strdup(dir);
    if (!p) {
        fprintf(err, "contractc %s: out of memory\n", cmd);
        return false;
    }
    /* each prefix ending before a '/', then the whole path */
    bool ok = true;
    for (char *s = p + 1; ok; s++) {
        bool end = *s == '\0';
        if (*s != '/' && !end)
            continue;
        if (s[-1] != '/') {
            *s = '\0';
            struct stat st;
            if (mkdir(p, 0777) != 0 && !(errno == EEXIST && stat(p, &st) == 0 && S_ISDIR(st.st_mode))) {
                fprintf(err, "contractc %s: cannot create %s: %s\n", cmd, p,
                        errno == EEXIST ? "a file of that name exists" : strerror(errno));
                ok = false;
            }
            if (!end)
                *s = '/';
        }
        if (end)
            break;
    }
    free(p);
    return ok;
}

/* True when path is a regular file holding exactly data[0..len).  Any doubt
 * (unreadable, out of memory) is "no": the file is then written. */
static bool holds(const char *path, const char *data, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || (unsigned long long)st.st_size != len)
        return false;
    size_t have_len = 0;
    bool over = false;
    unsigned long long size = 0;
    char *have = cc_read_bounded(path, len, &have_len, &over, &size);
    bool same = have && !over && have_len == len && memcmp(have, data, len) == 0;
    free(have);
    return same;
}

int cc_write_file_if_changed(const char *path, const char *data, size_t len, const char *cmd,
                             FILE *err)
{
    if (holds(path, data, len))
        return 0;
    cc_buf_t tmp = CC_BUF_INIT;
    cc_buf_printf(&tmp, "%s.tmpXXXXXX", path);
    if (!tmp.data || tmp.failed) {
        fprintf(err, "contractc %s: out of memory writing %s\n", cmd, path);
        cc_buf_free(&tmp);
        return -1;
    }
    int fd = mkstemp(tmp.data);
    if (fd < 0) {
        fprintf(err, "contractc %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        cc_buf_free(&tmp);
        return -1;
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
        fprintf(err, "contractc %s: cannot write %s: %s\n", cmd, path, strerror(errno));
        unlink(tmp.data);
    }
    cc_buf_free(&tmp);
    return ok ? 1 : -1;
}

bool cc_out_write(FILE *out, const char *data, size_t len)
{
    if (len && fwrite(data, 1, len, out) != len)
        return false;
    return !ferror(out);
}

bool cc_out_finish(FILE *out, FILE *err, const char *cmd)
{
    errno = 0;
    bool flushed = fflush(out) == 0;
    int why = errno;
    if (flushed && !ferror(out))
        return true;
    fprintf(err, "contractc%s%s: cannot write standard output: %s\n", cmd ? " " : "", cmd ? cmd : "",
            !flushed && why ? strerror(why) : "a write failed");
    return false;
}
