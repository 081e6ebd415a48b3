/* The pipe driver the protocol tests run ./squall with. */
#define _GNU_SOURCE
#include "engine_driver.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "board.h"
#include "notation.h"
#include "test.h"


bool engine_start(Engine *e, const char *const *args) { return engine_start_limited(e, args, 0); }

bool engine_start_limited(Engine *e, const char *const *args, long long memory_limit) {
    int in_pipe[2], out_pipe[2];
    memset(e, 0, sizeof *e);
    if (pipe(in_pipe) || pipe(out_pipe)) return false;
    const char *argv[16];
    int argc = 0;
    argv[argc++] = test_engine_path;
    for (int i = 0; args && args[i] && argc < 15; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    e->pid = fork();
    if (e->pid < 0) return false;
    if (e->pid == 0) {
        dup2(in_pipe[0], STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        dup2(out_pipe[1], STDERR_FILENO);
        close(in_pipe[0]), close(in_pipe[1]), close(out_pipe[0]), close(out_pipe[1]);
        if (memory_limit > 0) {
            struct rlimit limit = {(rlim_t)memory_limit, (rlim_t)memory_limit};
            setrlimit(RLIMIT_AS, &limit);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(in_pipe[0]), close(out_pipe[1]);
    e->to_engine = in_pipe[1];
    e->from_engine = out_pipe[0];
    signal(SIGPIPE, SIG_IGN);
    return true;
}

void engine_send(Engine *e, const char *fmt, ...) {
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if (n > (int)sizeof line - 2) n = (int)sizeof line - 2;
    line[n++] = '\n';
    ssize_t w = write(e->to_engine, line, (size_t)n);
    (void)w;
}

void engine_send_bytes(Engine *e, const void *data, size_t len) {
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(e->to_engine, p, len);
        if (w <= 0) return; /* the engine has gone */
        p += w, len -= (size_t)w;
    }
}

void engine_send_lines(Engine *e, const char *const *lines) {
    for (int i = 0; lines[i]; i++) engine_send(e, "%s", lines[i]);
}

bool engine_line(Engine *e, char *out, size_t size, int timeout_ms) {
    int64_t deadline = time_now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            snprintf(out, size, "%.*s", (int)n, e->buf);
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return true;
        }
        if (e->eof) return false;
        int64_t left = deadline - time_now_ms();
        if (left <= 0) return false;
        struct pollfd p = {.fd = e->from_engine, .events = POLLIN};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        if (e->len == sizeof e->buf) e->len = 0; /* an absurd line: drop it */
        ssize_t got = read(e->from_engine, e->buf + e->len, sizeof e->buf - e->len);
        if (got <= 0) e->eof = true;
        else e->len += (size_t)got;
    }
}

bool engine_expect(Engine *e, const char *prefix, char *line, size_t size, int timeout_ms, char *seen, size_t seen_size) {
    int64_t deadline = time_now_ms() + timeout_ms;
    char tmp[8192];
    if (!line) line = tmp, size = sizeof tmp;
    if (seen) seen[0] = '\0';
    for (;;) {
        int64_t left = deadline - time_now_ms();
        if (left <= 0 || !engine_line(e, line, size, (int)left)) return false;
        if (!strncmp(line, prefix, strlen(prefix))) return true;
        if (seen) {
            size_t n = strlen(seen);
            snprintf(seen + n, seen_size - n, "%s\n", line);
        }
    }
}

int engine_finish(Engine *e, int timeout_ms) {
    if (e->to_engine >= 0) close(e->to_engine), e->to_engine = -1;
    int64_t deadline = time_now_ms() + timeout_ms;
    int status = 0;
    for (;;) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid) break;
        if (time_now_ms() > deadline) {
            kill(e->pid, SIGKILL);
            waitpid(e->pid, &status, 0);
            close(e->from_engine);
            return -1;
        }
        char line[8192];
        if (!engine_line(e, line, sizeof line, 20)) usleep(2000);
    }
    close(e->from_engine);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int run_engine(const char *const *args, const char *input, char *output, size_t size, int timeout_ms) {
    Engine e;
    if (!engine_start(&e, args)) return -2;
    if (input) engine_send(&e, "%s", input);
    close(e.to_engine), e.to_engine = -1;
    int64_t deadline = time_now_ms() + timeout_ms;
    size_t n = 0;
    output[0] = '\0';
    char line[8192];
    while (time_now_ms() < deadline && engine_line(&e, line, sizeof line, (int)(deadline - time_now_ms())))
        if (n < size) n += (size_t)snprintf(output + n, size - n, "%s\n", line);
    return engine_finish(&e, 1000);
}

/* Coordinates; in Chess960 also O-O / O-O-O, as xboard's fischerandom writes castling. */
static Move read_move(const Position *pos, const char *text, bool chess960) {
    return chess960 ? move_from_text(pos, text) : move_from_uci(pos, text);
}

bool legal_in_game(const char *fen, const char *moves, const char *move_text, bool chess960) {
    Position pos;
    if (!pos_set_fen(&pos, fen, NULL, 0)) return false;
    pos.chess960 = chess960;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", moves ? moves : "");
    for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        Move mv = read_move(&pos, m, chess960);
        if (mv == MOVE_NONE) return false;
        pos_make_move(&pos, mv);
    }
    char word[16];
    if (sscanf(move_text, "%15s", word) != 1) return false;
    return read_move(&pos, word, chess960) != MOVE_NONE;
}

bool legal_in(const char *fen, const char *moves, const char *move_text) {
    return legal_in_game(fen, moves, move_text, false);
}

const char *bestmove_of(const char *line) { return line + strlen("bestmove "); }

bool board_fen(Engine *e, char *fen, size_t size) {
    char line[8192];
    engine_send(e, "d");
    if (!engine_expect(e, "Fen: ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0)) return false;
    snprintf(fen, size, "%s", line + 5);
    return true;
}

void xboard_open(Engine *e, char *features, size_t size) {
    CHECK(engine_start(e, NULL));
    engine_send(e, "xboard");
    engine_send(e, "protover 2");
    CHECK_MSG(engine_expect(e, "feature done=1", NULL, 0, READ_TIMEOUT_MS, features, size), "no feature done=1");
}

bool xboard_sync(Engine *e, int n, char *seen, size_t size) {
    char want[32];
    engine_send(e, "ping %d", n);
    snprintf(want, sizeof want, "pong %d", n);
    return engine_expect(e, want, NULL, 0, READ_TIMEOUT_MS, seen, size);
}

bool write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return false;
    fputs(text, f);
    return fclose(f) == 0;
}
