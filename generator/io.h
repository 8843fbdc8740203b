/* SPDX-License-Identifier: MIT */
/*
 * io.h - the command line's files and standard streams (internal to the
 * generator): bounded reads of untrusted input, output files rewritten only
 * when their bytes change, directories made with their parents, and the
 * one checked way every command writes its result to standard output.
 *
 * Every function that can fail prints one line on `err`, in the form
 * "contractc CMD: cannot write PATH: REASON", and says so in its result;
 * `cmd` is the command's name ("generate"), used in that line.
 */
#ifndef CONTRACTC_IO_H
#define CONTRACTC_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * Reads at most max + 1 bytes from path ("-": standard input), so that an
 * input of any size (a 1 GiB file, an endless pipe) costs at most max + 1
 * bytes of memory.  Returns the bytes read (malloc'd, NUL-terminated, free()
 * it) and their count in *len; *over is true when the input holds more than
 * max bytes (then *len is max + 1 and the rest is not read).  *size is the
 * input's whole size when it is known without reading it (a regular file),
 * else 0.  NULL on error with errno set (ENOMEM, or the reason the file
 * could not be opened or read).
 */
char *cc_read_bounded(const char *path, size_t max, size_t *len, bool *over,
                      unsigned long long *size);

/*
 * Creates directory `dir` and every missing parent (as `mkdir -p`; mode
 * 0777 less the umask).  An existing directory is fine; an existing file of
 * that name is an error.  false with a message on err.
 */
bool cc_make_dirs(const char *dir, const char *cmd, FILE *err);

/*
 * Writes data[0..len) to path unless the file already holds exactly those
 * bytes: then it is left alone, modification time included, so a build
 * system sees nothing to redo.  A write goes to a temporary file in the same
 * directory (mode 0644) that is then renamed over path, so no half-written
 * file is ever left under the real name.  Returns 1 written, 0 unchanged,
 * -1 error (message on err; path is as it was).
 */
int cc_write_file_if_changed(const char *path, const char *data, size_t len, const char *cmd,
                             FILE *err);

/*
 * Standard output.  cc_out_write writes data[0..len) to out; false when the
 * stream has failed (now or before: the error flag is sticky).  cc_out_finish
 * flushes out and checks that every write to it succeeded; false with
 * "contractc CMD: cannot write standard output: REASON" on err otherwise.
 * cc_cli_main calls cc_out_finish after every command, so a command that
 * prints piecewise (fprintf) is covered too; a command whose result is one
 * buffer writes it with cc_out_write, so nothing is printed after a failure.
 */
bool cc_out_write(FILE *out, const char *data, size_t len);
bool cc_out_finish(FILE *out, FILE *err, const char *cmd);

#endif /* CONTRACTC_IO_H */
