/* Opening a file that must be a regular file (a net, a script, an EPD suite): a FIFO would
 * block the engine in open() or never end, a device or directory is never what was meant. */
#ifndef SQUALL_REGULAR_FILE_H
#define SQUALL_REGULAR_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Opens path for reading ("rb") without ever blocking on a FIFO, and refuses anything that
 * is not a regular file. On success *size (if given) is the file's size in bytes; on
 * failure NULL, and why says why ("No such file or directory", "it is a FIFO, not a regular
 * file", ...) for the caller's "cannot open ..." line. */
FILE *regular_file_open(const char *path, long long *size, char *why, size_t why_size);

#endif
