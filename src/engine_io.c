/* Line-atomic output, logging and the input/search event reader. */
#define _GNU_SOURCE
#include "engine_io.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"

int io_protocol = PROTO_TERMINAL;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static bool log_is_stderr;
static int64_t start_ns;
static atomic_int error_count;
static char current_command[256];
static FILE *cookie_stream;

/* Input buffer: bytes read from stdin not yet handed out as lines. */
#define INPUT_LINE_MAX (1 << 20) /* bytes before the newline */
static char *in_buf;
static size_t in_len, in_cap, in_start;
static bool in_eof, in_discarding;
static int wake_pipe[2] = {-1, -1};

typedef struct {
    unsigned search_id;
    Move best, ponder;
} DoneMessage;

static double elapsed_seconds(void) { return (double)(time_now_ns() - start_ns) / 1e9; }

/* Caller holds out_lock. Each line gets a timestamp and a direction marker. */
static void log_lines(char marker, const char *text, size_t len) {
    if (!log_file) return;
    double t = elapsed_seconds();
    while (len > 0) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) : len;
        fprintf(log_file, "%10.3f %c %.*s\n", t, marker, (int)n, text);
        if (!nl) break;
        len -= n + 1, text += n + 1;
    }
    fflush(log_file);
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t size) {
    (void)cookie;
    io_write(buf, size);
    return (ssize_t)size;
}

void io_init(void) {
    start_ns = time_now_ns();
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (wake_pipe[0] < 0 && pipe(wake_pipe) == 0) {
        fcntl(wake_pipe[0], F_SETFL, fcntl(wake_pipe[0], F_GETFL) | O_NONBLOCK);
        fcntl(wake_pipe[0], F_SETFD, FD_CLOEXEC);
        fcntl(wake_pipe[1], F_SETFD, FD_CLOEXEC);
    }
}

bool io_open_log(const char *path, char *err, size_t err_size) {
    io_close_log();
    if (!strcmp(path, "-")) {
        log_file = stderr, log_is_stderr = true;
        return true;
    }
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(err, err_size, "cannot open log file '%s': %s", path, strerror(errno));
        return false;
    }
    pthread_mutex_lock(&out_lock);
    log_file = f, log_is_stderr = false;
    pthread_mutex_unlock(&out_lock);
    return true;
}

void io_close_log(void) {
    pthread_mutex_lock(&out_lock);
    if (log_file && !log_is_stderr) fclose(log_file);
    log_file = NULL;
    pthread_mutex_unlock(&out_lock);
}

void io_write(const char *text, size_t len) {
    pthread_mutex_lock(&out_lock);
    fwrite(text, 1, len, stdout);
    fflush(stdout);
    log_lines('>', text, len);
    pthread_mutex_unlock(&out_lock);
}

void io_printf(const char *fmt, ...) {
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        io_write(small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1); /* long PVs or option lists */
    if (!big) return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    io_write(big, (size_t)n);
    free(big);
}

void io_set_command(const char *line) {
    snprintf(current_command, sizeof current_command, "%s", line ? line : "");
}

void io_error(const char *fmt, ...) {
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    atomic_fetch_add(&error_count, 1);
    switch (io_protocol) {
    case PROTO_UCI: io_printf("info string error: %s\n", msg); break;
    case PROTO_XBOARD: io_printf("Error (%s): %s\n", msg, current_command); break;
    default: io_printf("error: %s\n", msg); break;
    }
}

void io_info(const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *prefix = io_protocol == PROTO_UCI ? "info string " : io_protocol == PROTO_XBOARD ? "# " : "";
    io_printf("%s%s\n", prefix, msg);
}

int io_error_count(void) { return atomic_load(&error_count); }

FILE *io_stream(void) {
    if (!cookie_stream) {
        cookie_io_functions_t fns = {.read = NULL, .write = cookie_write, .seek = NULL, .close = NULL};
        cookie_stream = fopencookie(NULL, "w", fns);
        if (!cookie_stream) return stdout;
        setvbuf(cookie_stream, NULL, _IOLBF, 0);
    }
    return cookie_stream;
}

void io_log_input(const char *line) {
    if (!log_file) return;
    pthread_mutex_lock(&out_lock);
    log_lines('<', line, strlen(line));
    pthread_mutex_unlock(&out_lock);
}

void io_post_search_done(unsigned search_id, Move best, Move ponder) {
    DoneMessage msg = {search_id, best, ponder};
    /* Smaller than PIPE_BUF, so the write is atomic; retry only on signals. */
    while (write(wake_pipe[1], &msg, sizeof msg) < 0 && errno == EINTR) {}
}

bool io_poll_search_done(IoEvent *ev) {
    DoneMessage msg;
    ssize_t n = read(wake_pipe[0], &msg, sizeof msg);
    if (n != (ssize_t)sizeof msg) return false;
    ev->kind = IO_EVENT_SEARCH_DONE;
    ev->line = NULL;
    ev->search_id = msg.search_id;
    ev->best = msg.best, ev->ponder = msg.ponder;
    return true;
}

/* A line the engine will not run: one error line that quotes its start, so xboard's
 * "Error (reason): command" names this line and not the one before it. reason NULL: too long. */
static void refuse_line(const char *begin, size_t len, const char *reason) {
    char head[48], too_long[64];
    if (!reason) snprintf(too_long, sizeof too_long, "input line longer than %d bytes ignored", INPUT_LINE_MAX), reason = too_long;
    size_t n = strnlen(begin, len < 32 ? len : 32);
    snprintf(head, sizeof head, "%.*s%s", (int)n, begin, n < len ? "..." : "");
    io_log_input(head);
    io_set_command(head);
    io_error("%s", reason);
}

/* Hands out the next complete line in the buffer (or the unterminated tail at EOF). Lines
 * are taken whole or refused whole: one longer than INPUT_LINE_MAX bytes, or holding a NUL
 * byte, gets one error line and is not run at all. */
static bool take_line(IoEvent *ev) {
    for (;;) {
        char *begin = in_buf ? in_buf + in_start : NULL; /* nothing read yet: no buffer to offset */
        size_t avail = in_len - in_start;
        char *nl = avail ? memchr(begin, '\n', avail) : NULL;
        size_t len;
        if (nl) {
            len = (size_t)(nl - begin);
            in_start += len + 1;
            if (in_discarding) { /* the tail of a line already refused */
                in_discarding = false;
                continue;
            }
        } else if (avail > INPUT_LINE_MAX && !in_discarding) { /* refuse it now; skip the rest as it comes */
            refuse_line(begin, avail, NULL);
            in_start = in_len, in_discarding = true;
            continue;
        } else if (in_eof && avail) { /* the last line has no newline */
            if (in_len == in_cap) { /* room for the terminator */
                char *grown = realloc(in_buf, in_cap + 1);
                if (!grown) return false;
                in_buf = grown, in_cap++;
                begin = in_buf + in_start;
            }
            len = avail;
            in_start = in_len;
            if (in_discarding) {
                in_discarding = false;
                continue;
            }
        } else {
            if (in_discarding) in_start = in_len; /* drop what came of the refused line */
            return false;
        }
        if (len > INPUT_LINE_MAX) {
            refuse_line(begin, len, NULL);
            continue;
        }
        if (memchr(begin, '\0', len)) {
            refuse_line(begin, len, "input line with a NUL byte ignored");
            continue;
        }
        begin[len] = '\0';
        if (len > 0 && begin[len - 1] == '\r') begin[len - 1] = '\0';
        ev->kind = IO_EVENT_LINE;
        ev->line = begin;
        io_log_input(begin);
        return true;
    }
}

static void read_more_input(void) {
    if (in_start > 0) { /* drop lines already handed out */
        memmove(in_buf, in_buf + in_start, in_len - in_start);
        in_len -= in_start, in_start = 0;
    }
    if (in_len == in_cap) { /* take_line refuses a line before it grows past INPUT_LINE_MAX */
        size_t cap = in_cap ? in_cap * 2 : 4096;
        char *grown = realloc(in_buf, cap);
        if (!grown) {
            in_eof = true;
            return;
        }
        in_buf = grown, in_cap = cap;
    }
    ssize_t n = read(STDIN_FILENO, in_buf + in_len, in_cap - in_len);
    if (n > 0) in_len += (size_t)n;
    else if (n == 0 || (errno != EINTR && errno != EAGAIN)) in_eof = true;
}

void io_next_event(IoEvent *ev) {
    for (;;) {
        if (io_poll_search_done(ev)) return;
        if (take_line(ev)) return;
        if (in_eof) {
            ev->kind = IO_EVENT_EOF;
            ev->line = NULL;
            return;
        }
        struct pollfd fds[2] = {{.fd = STDIN_FILENO, .events = POLLIN}, {.fd = wake_pipe[0], .events = POLLIN}};
        int r = poll(fds, 2, -1);
        if (r < 0) {
            if (errno == EINTR) continue;
            in_eof = true;
            continue;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR | POLLNVAL)) read_more_input();
    }
}
