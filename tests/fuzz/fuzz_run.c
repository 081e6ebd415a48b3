/* Runs one session: the engine reads the session's bytes (with the pauses asked for) while
 * its standard output and error are collected; then the final sync, end of input, and the
 * exit. Every wait has a deadline; an engine past it gets SIGABRT (the sanitizer build then
 * prints where it was) and then SIGKILL. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "fuzz.h"

#define OUTPUT_CAP (32u << 20)
/* Sanitizer settings for the engine: a report ends the run with a stack; a failed
 * allocation returns NULL as in a release build; no process may take the machine's memory. */
#define ASAN_SETTINGS                                                                                             \
    "detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=1024:hard_rss_limit_mb=2500:"            \
    "handle_abort=1:exitcode=86"
#define UBSAN_SETTINGS "print_stacktrace=1:halt_on_error=1:exitcode=87"

typedef struct {
    char *data;
    size_t len, cap;
    bool truncated;
} Buffer;

static void buffer_append(Buffer *b, const char *data, size_t n) {
    if (b->len + n > OUTPUT_CAP) {
        b->truncated = true;
        n = OUTPUT_CAP - b->len;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < b->len + n + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) {
            b->truncated = true;
            return;
        }
        b->data = grown, b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

/* Counts whole output lines equal to reply (or, for "pong N", starting with it). */
static int count_replies(const Buffer *b, const char *reply) {
    if (!reply || !b->data) return 0;
    int count = 0;
    size_t n = strlen(reply);
    for (const char *p = b->data; p && *p;) {
        if (!strncmp(p, reply, n) && (p[n] == '\n' || p[n] == '\r')) count++;
        p = strchr(p, '\n');
        if (p) p++;
    }
    return count;
}

static pid_t spawn(const FuzzRunConfig *cfg, const FuzzSession *s, int *to, int *from_out, int *from_err) {
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err)) return -1;
    const char *argv[FUZZ_MAX_ARGS + 6];
    int argc = 0;
    argv[argc++] = cfg->engine;
    for (int i = 0; i < s->arg_count; i++) argv[argc++] = s->args[i];
    char *commands = NULL;
    if (s->mode == FUZZ_BATCH_ARGS) argv[argc++] = "--command", argv[argc++] = commands = fuzz_command_list(s);
    else if (s->mode == FUZZ_BATCH_STDIN) argv[argc++] = "--batch";
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], STDIN_FILENO), dup2(out[1], STDOUT_FILENO), dup2(err[1], STDERR_FILENO);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]), close(err[0]), close(err[1]);
        setenv("ASAN_OPTIONS", ASAN_SETTINGS, 1);
        setenv("UBSAN_OPTIONS", UBSAN_SETTINGS, 1);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    free(commands);
    close(in[0]), close(out[1]), close(err[1]);
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    fcntl(in[1], F_SETFD, FD_CLOEXEC), fcntl(out[0], F_SETFD, FD_CLOEXEC), fcntl(err[0], F_SETFD, FD_CLOEXEC);
    *to = in[1], *from_out = out[0], *from_err = err[0];
    return pid;
}

/* What the writer still has to send: the stream line by line (pausing before the lines
 * that ask for it), then the sync. */
typedef struct {
    const FuzzSession *s;
    char *stream;
    size_t len, sent;
    size_t *line_start; /* offset of each line in the stream */
    int line;           /* the line being sent */
    bool paused;        /* its pause is over */
    int64_t not_before;
    const char *sync;
    size_t sync_sent;
} Writer;

static void writer_init(Writer *w, const FuzzSession *s, const char *sync) {
    memset(w, 0, sizeof *w);
    w->s = s;
    if (s->mode != FUZZ_BATCH_ARGS) w->stream = fuzz_stream(s, &w->len);
    if (s->cut_at >= 0 && (size_t)s->cut_at < w->len) w->len = (size_t)s->cut_at;
    w->line_start = calloc((size_t)s->count + 1, sizeof *w->line_start);
    size_t off = 0;
    for (int i = 0; i < s->count && w->line_start; i++) w->line_start[i] = off, off += s->lines[i].len + 1;
    w->sync = s->cut_at >= 0 || s->mode == FUZZ_BATCH_ARGS || s->mode == FUZZ_BATCH_STDIN ? NULL : sync;
}

/* The bytes that may be written now (the rest of the current line), or 0 and how long to wait. */
static size_t writer_ready(Writer *w, int64_t now, const char **data, int *wait_ms) {
    *wait_ms = -1;
    if (w->sent >= w->len || !w->line_start) return 0;
    while (w->line + 1 < w->s->count && w->line_start[w->line + 1] <= w->sent) w->line++, w->paused = false;
    int delay = w->s->lines[w->line].delay_ms;
    if (w->line_start[w->line] == w->sent && delay > 0 && !w->paused) {
        if (!w->not_before) w->not_before = now + delay;
        if (now < w->not_before) {
            *wait_ms = (int)(w->not_before - now);
            return 0;
        }
        w->paused = true, w->not_before = 0;
    }
    size_t end = w->line + 1 < w->s->count ? w->line_start[w->line + 1] : w->len;
    *data = w->stream + w->sent;
    return (end < w->len ? end : w->len) - w->sent;
}

void fuzz_run_session(const FuzzRunConfig *cfg, const FuzzSession *s, const char *sync_line, const char *sync_reply,
                      int sync_count, FuzzRun *run) {
    memset(run, 0, sizeof *run);
    signal(SIGPIPE, SIG_IGN);
    int64_t start = time_now_ms(), deadline = start + cfg->session_deadline_ms;
    int to = -1, from_out = -1, from_err = -1;
    pid_t pid = spawn(cfg, s, &to, &from_out, &from_err);
    if (pid < 0) {
        run->exit_code = -1, run->hung = true, run->hang_stage = "cannot start the engine";
        return;
    }
    Writer w;
    writer_init(&w, s, sync_line);
    Buffer out = {0}, err = {0};
    int64_t sync_sent_at = 0, eof_at = 0;
    if (s->mode == FUZZ_BATCH_ARGS) close(to), to = -1, eof_at = start;
    bool exited = false;
    int status = 0;
    const char *stage = "sending the session";
    for (;;) {
        int64_t now = time_now_ms();
        /* write what may go now; the poll below waits for the pipe only while bytes are
         * waiting (an idle pipe is always writable: polling it would spin through every pause) */
        bool bytes_waiting = false;
        int pause_ms = -1;
        if (to >= 0) {
            const char *data;
            int wait_ms;
            size_t n = writer_ready(&w, now, &data, &wait_ms);
            pause_ms = wait_ms;
            if (n == 0 && w.sent >= w.len && wait_ms < 0) { /* stream done: the sync, then end of input */
                if (w.sync && w.sync_sent < strlen(w.sync)) {
                    if (!sync_sent_at) sync_sent_at = now, stage = "waiting for the final sync";
                    data = w.sync + w.sync_sent, n = strlen(w.sync) - w.sync_sent;
                } else if (!w.sync || count_replies(&out, sync_reply) >= sync_count) {
                    if (w.sync) run->sync_answered = true;
                    close(to), to = -1, eof_at = now, stage = "exiting after end of input";
                }
            }
            if (n > 0 && to >= 0) {
                ssize_t k = write(to, data, n > 65536 ? 65536 : n);
                if (k > 0) {
                    if (w.sent < w.len) w.sent += (size_t)k;
                    else w.sync_sent += (size_t)k;
                } else if (k < 0 && errno != EAGAIN && errno != EINTR) { /* the engine has gone */
                    close(to), to = -1, eof_at = now;
                }
                bytes_waiting = to >= 0;
            }
        }
        if (!exited && waitpid(pid, &status, WNOHANG) == pid) exited = true;
        if (exited && from_out < 0 && from_err < 0) break;
        if (!exited && now > deadline) {
            run->hung = true, run->hang_stage = stage;
            kill(pid, SIGABRT);
            int64_t grace = time_now_ms() + 3000;
            while (waitpid(pid, &status, WNOHANG) != pid && time_now_ms() < grace) {
                char tmp[65536];
                ssize_t k = from_err >= 0 ? read(from_err, tmp, sizeof tmp) : 0;
                if (k > 0) buffer_append(&err, tmp, (size_t)k);
                else usleep(10000);
            }
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            exited = true;
        }
        if (eof_at && !exited && now > eof_at + cfg->quiet_exit_ms && now < deadline) deadline = now;
        /* read what is there */
        struct pollfd fds[3];
        int nfds = 0;
        if (from_out >= 0) fds[nfds++] = (struct pollfd){.fd = from_out, .events = POLLIN};
        if (from_err >= 0) fds[nfds++] = (struct pollfd){.fd = from_err, .events = POLLIN};
        if (bytes_waiting) fds[nfds++] = (struct pollfd){.fd = to, .events = POLLOUT};
        int timeout = exited ? 50 : pause_ms >= 0 && pause_ms < 20 ? pause_ms : 20;
        if (poll(fds, (nfds_t)nfds, timeout) < 0 && errno != EINTR) break;
        for (int i = 0; i < nfds; i++) {
            if (fds[i].fd == to || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            char tmp[65536];
            ssize_t k = read(fds[i].fd, tmp, sizeof tmp);
            if (k > 0) {
                buffer_append(fds[i].fd == from_out ? &out : &err, tmp, (size_t)k);
            } else if (k == 0 || (errno != EINTR && errno != EAGAIN)) {
                close(fds[i].fd);
                if (fds[i].fd == from_out) from_out = -1;
                else from_err = -1;
            }
        }
        if (exited && now > deadline + 5000) break; /* a child of the engine holds the pipes open */
    }
    if (to >= 0) close(to);
    if (from_out >= 0) close(from_out);
    if (from_err >= 0) close(from_err);
    free(w.stream);
    free(w.line_start);
    if (!run->sync_answered && w.sync && count_replies(&out, sync_reply) >= sync_count) run->sync_answered = true;
    run->out = out.data ? out.data : calloc(1, 1), run->out_len = out.len, run->out_truncated = out.truncated;
    run->err = err.data ? err.data : calloc(1, 1), run->err_len = err.len;
    run->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    run->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (run->hung) run->signal = 0; /* our own SIGABRT/SIGKILL */
    run->seconds = (double)(time_now_ms() - start) / 1000.0;
}

void fuzz_run_free(FuzzRun *run) {
    free(run->out);
    free(run->err);
    run->out = run->err = NULL;
}
