/* Hostile input the session fuzzer (tests/fuzz/) found: each case failed before its fix.
 * Lines are read whole or refused whole, every go ends in bestmove, files that are not
 * regular files are refused without blocking, and what the engine prints it reads back. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "engine_driver.h"
#include "notation.h"
#include "test.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static int count_lines_starting(const char *text, const char *prefix) {
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += !strncmp(p, prefix, len);
    return n;
}

/* isready/readyok round trip; what came before the readyok is left in seen. */
static bool uci_sync(Engine *e, char *seen, size_t size) {
    engine_send(e, "isready");
    return engine_expect(e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, size);
}

static void uci_open(Engine *e) {
    CHECK(engine_start(e, NULL));
    engine_send(e, "uci");
    CHECK_MSG(engine_expect(e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no uciok");
}

/* The 4,094-move line: past 4,096 words, every move counts. */
TEST(hostile, long_lines_are_read_whole) {
    size_t cap = 64 * 1024, n = 0;
    char *line = malloc(cap);
    CHECK(line != NULL);
    if (!line) return;
    n += (size_t)snprintf(line + n, cap - n, "position startpos moves");
    for (int i = 0; i < 1023; i++) n += (size_t)snprintf(line + n, cap - n, " g1f3 g8f6 f3g1 f6g8");
    snprintf(line + n, cap - n, " e2e4 e7e5\n");
    const char *want = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2048";
    for (int mode = 0; mode < 2; mode++) { /* UCI, then the terminal prompt */
        Engine e;
        char fen[256];
        if (mode == 0) uci_open(&e);
        else CHECK(engine_start(&e, NULL));
        engine_send_bytes(&e, line, strlen(line));
        CHECK(board_fen(&e, fen, sizeof fen));
        CHECK_MSG(!strcmp(fen, want), "mode %d: %s", mode, fen);
        CHECK(engine_finish(&e, 2000) == 0);
    }
    free(line);
}

/* A line past the limit is refused whole: one error that quotes it, nothing else changes. */
TEST(hostile, over_long_line_refused_whole) {
    size_t len = (1u << 20) + 100;
    char *line = malloc(len + 1);
    CHECK(line != NULL);
    if (!line) return;
    memset(line, 'x', len);
    memcpy(line, "position startpos moves", 23);
    line[len] = '\n';
    Engine e;
    char seen[8192], fen[256];
    uci_open(&e);
    engine_send(&e, "position startpos moves d2d4");
    engine_send_bytes(&e, line, len + 1);
    CHECK(uci_sync(&e, seen, sizeof seen));
    CHECK_MSG(count_lines_starting(seen, "info string error: input line longer than") == 1, "%s", seen);
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"), "%s", fen);
    CHECK(engine_finish(&e, 2000) == 0);

    /* xboard names the refused line, not the command before it */
    xboard_open(&e, seen, sizeof seen);
    CHECK(xboard_sync(&e, 1, seen, sizeof seen));
    line[0] = 'y';
    engine_send_bytes(&e, line, len + 1);
    CHECK(xboard_sync(&e, 2, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "Error (input line longer than 1048576 bytes ignored): yosition startpos") && !strstr(seen, "ping 1"),
              "%s", seen);
    CHECK(engine_finish(&e, 2000) == 0);
    free(line);
}

/* A NUL byte refuses the line (it used to cut it there): interactively and in batch mode. */
TEST(hostile, nul_byte_refuses_the_line) {
    Engine e;
    char seen[8192], fen[256];
    uci_open(&e);
    engine_send(&e, "position startpos moves d2d4");
    static const char nul_line[] = "position startpos moves e2e4\0 e7e5\n";
    engine_send_bytes(&e, nul_line, sizeof nul_line - 1);
    CHECK(uci_sync(&e, seen, sizeof seen));
    CHECK_MSG(count_lines_starting(seen, "info string error: input line with a NUL byte ignored") == 1, "%s", seen);
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"), "%s", fen);
    CHECK(engine_finish(&e, 2000) == 0);

    const char *args[] = {"--batch", NULL};
    CHECK(engine_start(&e, args));
    static const char batch[] = "d2d4\nposition startpos moves e2e4\0 e7e5\nd\n";
    engine_send_bytes(&e, batch, sizeof batch - 1);
    char out[16384] = "", line[8192];
    size_t n = 0;
    close(e.to_engine), e.to_engine = -1;
    while (engine_line(&e, line, sizeof line, READ_TIMEOUT_MS)) n += (size_t)snprintf(out + n, sizeof out - n, "%s\n", line);
    CHECK_MSG(engine_finish(&e, 2000) == 1, "a refused line must make the batch exit 1: %s", out);
    CHECK_MSG(strstr(out, "error: input line with a NUL byte ignored") &&
                  strstr(out, "Fen: rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"),
              "%s", out);
}

/* Hash beyond what the process may allocate: an error, and the old table stays and is reported. */
TEST(hostile, hash_that_cannot_be_allocated) {
    const long long limit = 1LL << 30;
    Engine e;
    char seen[16384];
    CHECK(engine_start_limited(&e, NULL, limit));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "setoption name Hash value 8192");
    CHECK(uci_sync(&e, seen, sizeof seen));
    CHECK_MSG(count_lines_starting(seen, "info string error: setoption: Hash: cannot allocate 8192 MB") == 1, "%s", seen);
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "option name Hash type spin default 16 ") != NULL, "%s", seen);
    engine_send(&e, "go depth 3");
    CHECK_MSG(engine_expect(&e, "bestmove ", NULL, 0, SEARCH_TIMEOUT_MS, NULL, 0), "no search after the refusal");
    CHECK(engine_finish(&e, 2000) == 0);

    const char *args[] = {"--hash", "8192", NULL};
    CHECK(engine_start_limited(&e, args, limit));
    char out[4096] = "", line[1024];
    close(e.to_engine), e.to_engine = -1;
    for (size_t n = 0; engine_line(&e, line, sizeof line, READ_TIMEOUT_MS);)
        n += (size_t)snprintf(out + n, sizeof out - n, "%s\n", line);
    CHECK_MSG(engine_finish(&e, 2000) == 2, "%s", out);
    CHECK_MSG(!strcmp(out, "squall: --hash: Hash: cannot allocate 8192 MB\n"), "%s", out);
}

/* Every go ends in one bestmove, on its own: what cannot be read is reported and skipped,
 * nonsense numbers are clamped. */
TEST(hostile, every_go_ends_in_bestmove) {
    static const struct {
        const char *position, *go;
        int errors;
    } cases[] = {
        {"startpos", "go depth 0", 0},
        {"startpos", "go nodes 0", 0},
        {"startpos", "go movetime 0", 0},
        {"startpos", "go wtime 100 btime 100 winc -50", 0},
        {"startpos", "go wtime 200 btime 200 movestogo -1", 0},
        {"startpos", "go wtime 9223372036854775807 btime 99999999999999999999 depth 3", 0},
        {"startpos", "go depth x nodes 500", 1},
        {"startpos", "go nodes 500 depth", 1},
        {"startpos", "go foo depth 2", 1},
        {"startpos", "go wtime 1000.5 btime 1000 depth 2", 1},
        {"startpos", "go searchmoves e2e5 h2h3 depth 2", 1},
        {"startpos", "go perft x depth 2", 1},
        {"startpos", "go foo depth x nodes 300 bar", 1}, /* all that is ignored, in one line */
        {"startpos moves e2e4", "go wtime 300", 0}, /* no clock for the side to move */
        {"startpos moves e2e4", "go winc 10 binc 10 nodes 300", 0},
    };
    Engine e;
    char seen[65536], line[8192];
    uci_open(&e);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        engine_send(&e, "position %s", cases[i].position);
        engine_send(&e, "%s", cases[i].go);
        bool answered = engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen);
        CHECK_MSG(answered, "'%s': no bestmove", cases[i].go);
        if (!answered) break;
        const char *moves = strstr(cases[i].position, "moves ");
        CHECK_MSG(legal_in(START_FEN, moves ? moves + 6 : "", bestmove_of(line)), "'%s': %s", cases[i].go, line);
        int errors = count_lines_starting(seen, "info string error: go:");
        CHECK_MSG(errors == cases[i].errors, "'%s': %d error lines: %s", cases[i].go, errors, seen);
        if (strstr(cases[i].go, "searchmoves")) CHECK_MSG(!strncmp(bestmove_of(line), "h2h3", 4), "%s", line);
    }
    CHECK(uci_sync(&e, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "bestmove"), "a go answered twice: %s", seen);
    /* a hundred thousand words it cannot use: still one error line, and the search */
    size_t len = 100000 * 2 + 32;
    char *flood = malloc(len);
    CHECK(flood != NULL);
    if (flood) {
        size_t n = (size_t)snprintf(flood, len, "go nodes 300");
        for (int i = 0; i < 100000; i++) flood[n++] = ' ', flood[n++] = 'x';
        flood[n++] = '\n';
        engine_send_bytes(&e, flood, n);
        CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen), "no bestmove");
        CHECK_MSG(count_lines_starting(seen, "info string error: go: ignored 'x'") == 1 && strstr(seen, " and 99"), "%.300s", seen);
        free(flood);
    }
    CHECK(engine_finish(&e, 2000) == 0);
}

/* In batch mode nothing can send stop: go infinite and go ponder are refused at once. */
TEST(hostile, batch_refuses_open_ended_go) {
    char out[65536];
    const char *infinite[] = {"--command", "go infinite", NULL};
    int64_t t0 = time_now_ms();
    int rc = run_engine(infinite, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 1 && count_lines_starting(out, "error: go infinite: ") == 1 && !strstr(out, "bestmove"), "exit %d: %s", rc, out);
    CHECK_MSG(time_now_ms() - t0 < 3000, "took %lld ms", (long long)(time_now_ms() - t0));
    const char *ponder[] = {"--command", "uci; go ponder depth 3", NULL};
    rc = run_engine(ponder, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 1 && strstr(out, "info string error: go ponder: ") && !strstr(out, "bestmove"), "exit %d: %s", rc, out);
    const char *bounded[] = {"--command", "sd 2; go", NULL};
    rc = run_engine(bounded, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 0 && count_lines_starting(out, "bestmove ") == 1, "exit %d: %s", rc, out);
}

/* A search that nothing but stop can end stays so after ponderhit (go infinite, or go ponder
 * without a limit), and a script stops a search started before it instead of waiting on it:
 * end of input or the script's next line comes at once. */
TEST(hostile, ponderhit_after_go_infinite) {
    char script[] = "/tmp/squall-test-script-XXXXXX", scripted[2][128];
    int fd = mkstemp(script); /* an empty script */
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    snprintf(scripted[0], sizeof scripted[0], "uci\nposition startpos\ngo ponder searchmoves\nponderhit\nscript %s\nstop\n", script);
    snprintf(scripted[1], sizeof scripted[1], "uci\nposition startpos\ngo wtime 100000000 btime 100000000\nscript %s\n", script);
    const char *sessions[] = {"uci\nposition startpos\ngo infinite\nponderhit\n", "uci\nposition startpos\ngo ponder\nponderhit\n",
                              scripted[0], scripted[1]};
    char out[65536];
    for (size_t i = 0; i < sizeof sessions / sizeof sessions[0]; i++) {
        int64_t t0 = time_now_ms();
        int rc = run_engine(NULL, sessions[i], out, sizeof out, SEARCH_TIMEOUT_MS);
        int64_t took = time_now_ms() - t0;
        CHECK_MSG(rc == 0 && took < 3000 && count_lines_starting(out, "bestmove ") == 1, "session %zu: exit %d after %lld ms",
                  i, rc, (long long)took);
    }
    unlink(script);
}

/* The GUI is gone: xboard stops thinking at end of input, as UCI and the terminal do. */
TEST(hostile, xboard_end_of_input_while_thinking) {
    Engine e;
    char features[8192];
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "new");
    engine_send(&e, "level 40 60 0");
    engine_send(&e, "go");
    usleep(200 * 1000);
    int64_t t0 = time_now_ms();
    int rc = engine_finish(&e, 5000);
    int64_t took = time_now_ms() - t0;
    CHECK_MSG(rc == 0 && took < 2000, "exit %d after %lld ms", rc, (long long)took);
}

/* What `d` prints reads back, however large the counters: setboard takes them, moves push them on. */
TEST(hostile, fen_counters_read_back) {
    Engine e;
    char seen[8192], fen[256], again[256];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "setboard 4k3/8/8/8/8/8/8/4K3 w - - 999 99999");
    engine_send(&e, "Kd2 Kd7 Ke2 Ke7 Kd2 Kd7 Ke2");
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "8/3k4/8/8/8/8/4K3/8 b - - 1006 100002"), "%s", fen);
    engine_send(&e, "setboard %s", fen);
    engine_send(&e, "isready");
    CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "error"), "its own FEN refused: %s", seen);
    CHECK(board_fen(&e, again, sizeof again));
    CHECK_MSG(!strcmp(fen, again), "%s -> %s", fen, again);
    CHECK(engine_finish(&e, 2000) == 0);
}

/* "44" and "17" are not a rank of eight: refused, the position stays. */
TEST(hostile, fen_digit_runs_refused) {
    static const char *bad[] = {"44k3/8/8/8/8/8/8/4K3 w - - 0 1", "17k/8/8/8/8/8/8/4K3 w - - 0 1",
                                "4k3/8/8/8/8/8/8/4K21 w - - 0 1"};
    Engine e;
    char seen[8192], fen[256];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        engine_send(&e, "setboard %s", bad[i]);
        engine_send(&e, "isready");
        CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
        CHECK_MSG(count_lines_starting(seen, "error: bad FEN: ") == 1, "'%s' accepted: %s", bad[i], seen);
    }
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"), "%s", fen);
    CHECK(engine_finish(&e, 2000) == 0);
}

/* Seconds are digits with at most one decimal point, as docs/protocol.md says. */
TEST(hostile, seconds_read_strictly) {
    static const char *bad[] = {"st 1e3", "st 0x10", "st inf", "st nan", "st -1", "st +2", "st 1.2.3", "st .", "level 40 5 1e3"};
    Engine e;
    char seen[8192];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "xboard");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[16];
        snprintf(want, sizeof want, "pong %zu", i);
        engine_send(&e, "%s", bad[i]);
        engine_send(&e, "ping %zu", i);
        CHECK(engine_expect(&e, want, NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
        CHECK_MSG(count_lines_starting(seen, "Error (") == 1, "'%s' accepted: %s", bad[i], seen);
    }
    engine_send(&e, "st 1.5");
    engine_send(&e, "st .5");
    CHECK(xboard_sync(&e, 99, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "Error"), "%s", seen);
    CHECK(engine_finish(&e, 2000) == 0);
}

/* A FIFO, a device or a directory given to script, epd or BookFile: one error each, no waiting. */
TEST(hostile, script_epd_and_book_refuse_special_files) {
    char dir[] = "/tmp/squall-test-XXXXXX", fifo[64], cmd[512], out[16384];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    snprintf(cmd, sizeof cmd, "script %s; epd %s; script /dev/zero; epd /dev/zero; script %s; setoption name BookFile value %s; d",
             fifo, fifo, dir, fifo);
    const char *args[] = {"--command", cmd, NULL};
    int rc = run_engine(args, NULL, out, sizeof out, READ_TIMEOUT_MS);
    CHECK_MSG(rc == 1 && count_lines_starting(out, "error: ") == 6 && strstr(out, "Fen: "), "exit %d: %s", rc, out);
    CHECK_MSG(strstr(out, "is a FIFO") && strstr(out, "is a device") && strstr(out, "is a directory"), "%s", out);
    unlink(fifo), rmdir(dir);
}

/* An early error exit frees what it allocated: LeakSanitizer stays quiet, so the exit code
 * stays 2 (the sanitizer build, which `make test` builds). */
TEST(hostile, early_exits_do_not_leak) {
    if (access(test_debug_engine_path, X_OK) != 0) {
        CHECK_MSG(false, "%s missing: `make test` builds it", test_debug_engine_path);
        return;
    }
    const char *saved = test_engine_path;
    test_engine_path = test_debug_engine_path;
    static const char *const cases[][6] = {
        {"--command", "quit", "--hash", "abc", NULL},
        {"--command", "d", "--command", "d", "--nope", NULL},
        {"--command", "d", "perft", "1", NULL},
    };
    char out[16384];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run_engine(cases[i], NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
        CHECK_MSG(rc == 2 && !strstr(out, "LeakSanitizer") && count_lines_starting(out, "squall: ") == 1,
                  "case %zu: exit %d: %s", i, rc, out);
    }
    test_engine_path = saved;
}

/* Every move of every pv is legal in turn. The fuzzer found lines that ended in a move
 * from an earlier sibling's quiescence search (e3f4 into the engine's own pawn here). */
static bool pv_is_legal(const char *fen, const char *pv) {
    static Position pos;
    char copy[2048];
    if (!pos_set_fen(&pos, fen, NULL, 0)) return false;
    snprintf(copy, sizeof copy, "%s", pv);
    for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        Move mv = move_from_uci(&pos, m);
        if (mv == MOVE_NONE) return false;
        pos_make_move(&pos, mv);
    }
    return true;
}

TEST(hostile, pv_lines_are_legal) {
    static const char *fens[] = {"8/5k1p/7P/6p1/6P1/8/4KP2/8 b - - 7 13",
                                 "rnN2k1r/p4Bp1/2p4p/Bp2qp2/7b/3N1K2/PPP3P1/RN1Q3R b - - 3 16"};
    Engine e;
    char line[8192], seen[65536];
    uci_open(&e);
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        engine_send(&e, "position fen %s", fens[i]);
        engine_send(&e, "go depth 9");
        CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
        int lines = 0;
        for (char *p = seen; (p = strstr(p, " pv ")); p++) {
            char pv[2048];
            snprintf(pv, sizeof pv, "%.*s", (int)strcspn(p + 4, "\n"), p + 4);
            CHECK_MSG(pv_is_legal(fens[i], pv), "illegal pv in %s: %s", fens[i], pv);
            lines++;
        }
        CHECK(lines > 0);
    }
    CHECK(engine_finish(&e, 2000) == 0);
}
