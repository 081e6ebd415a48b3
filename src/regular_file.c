/* Regular files only; see regular_file.h. */
#define _GNU_SOURCE /* O_CLOEXEC */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "something else";
}

FILE *regular_file_open(const char *path, long long *size, char *why, size_t why_size) {
    /* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting forever */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(why, why_size, "%s", strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "it is %s, not a regular file", kind_of(st.st_mode));
        close(fd);
        return NULL;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(why, why_size, "%s", strerror(errno));
        close(fd);
        return NULL;
    }
    if (size) *size = (long long)st.st_size;
    return f;
}
