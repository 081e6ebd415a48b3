/* Protocol tests: drive the real ./squall binary through pipes (engine_driver.h): UCI,
 * xboard, terminal, batch mode, command line. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board.h"
#include "engine_driver.h"
#include "movegen.h"
#include "notation.h"
#include "train_record.h"
#include "version.h"
#include "test.h"

/* Failure messages quote engine output; cutting it short in a message is fine. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif


/* ------------------------------------------------------------------ UCI */

TEST(protocol, uci_handshake_and_options) {
    Engine e;
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    char seen[8192];
    CHECK_MSG(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen), "no uciok");
    char id_name[128]; /* the engine under test is built with the runner, from the same version */
    snprintf(id_name, sizeof id_name, "id name Squall %s\n", squall_version);
    CHECK_MSG(strstr(seen, id_name) != NULL, "want %s", id_name);
    CHECK(strstr(seen, "id author the Squall developers\n") != NULL);
    const char *options[] = {
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Ponder type check default false",
        "option name EvalFile type string default <embedded>",
        "option name Move Overhead type spin default",
        "option name EvalMode type combo default",
        "option name LazyEval type check",
        "option name LazyMargin type spin",
        "option name UCI_ShowWDL type check default false",
        "option name Clear Hash type button",
        "option name MoveGuesser type check default false",
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        CHECK_MSG(strstr(seen, options[i]) != NULL, "missing '%s'", options[i]);
    engine_send(&e, "isready");
    CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "quit");
    CHECK_MSG(engine_finish(&e, 2000) == 0, "quit did not exit cleanly");
}

TEST(protocol, uci_position_and_go_limits) {
    Engine e;
    char line[8192];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "ucinewgame");
    engine_send(&e, "position startpos moves e2e4 e7e5 g1f3");
    engine_send(&e, "go depth 5");
    char seen[16384];
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen), "go depth: no bestmove");
    CHECK_MSG(legal_in(START_FEN, "e2e4 e7e5 g1f3", bestmove_of(line)), "illegal: %s", line);
    CHECK_MSG(strstr(seen, "info depth 5 ") != NULL, "no depth-5 info line");
    CHECK_MSG(strstr(seen, " score cp ") && strstr(seen, " nodes ") && strstr(seen, " pv "), "info format: %s", seen);

    engine_send(&e, "go nodes 20000");
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "go nodes: no bestmove");
    CHECK_MSG(legal_in(START_FEN, "e2e4 e7e5 g1f3", bestmove_of(line)), "illegal: %s", line);

    int64_t t0 = time_now_ms();
    engine_send(&e, "go movetime 200");
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "go movetime: no bestmove");
    int64_t took = time_now_ms() - t0;
    CHECK_MSG(took < 1500, "movetime 200 took %lld ms", (long long)took);

    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    engine_send(&e, "position fen %s moves f1b5 a7a6", fen);
    engine_send(&e, "go wtime 2000 btime 2000 winc 20 binc 20");
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "go wtime: no bestmove");
    CHECK_MSG(legal_in(fen, "f1b5 a7a6", bestmove_of(line)), "illegal: %s", line);

    engine_send(&e, "go depth 3 searchmoves a2a3 h2h3");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(!strncmp(bestmove_of(line), "a2a3", 4) || !strncmp(bestmove_of(line), "h2h3", 4), "searchmoves ignored: %s", line);

    engine_send(&e, "go perft 3");
    CHECK_MSG(engine_expect(&e, "Nodes searched: ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0), "go perft");
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, uci_infinite_stop_is_fast) {
    Engine e;
    char line[8192];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "position startpos");
    engine_send(&e, "go infinite");
    engine_send(&e, "isready"); /* answered while searching */
    CHECK_MSG(engine_expect(&e, "readyok", NULL, 0, 1000, NULL, 0), "isready not answered during search");
    usleep(300 * 1000);
    CHECK_MSG(e.len == 0 || !strstr(e.buf, "bestmove"), "infinite search stopped by itself");
    int64_t t0 = time_now_ms();
    engine_send(&e, "stop");
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, 2000, NULL, 0), "no bestmove after stop");
    int64_t took = time_now_ms() - t0;
    CHECK_MSG(took < 500, "stop took %lld ms", (long long)took);
    CHECK(legal_in(START_FEN, "", bestmove_of(line)));
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, uci_ponder_and_ponderhit) {
    Engine e;
    char line[8192];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "setoption name Ponder value true");
    engine_send(&e, "position startpos moves d2d4 d7d5");
    engine_send(&e, "go ponder wtime 1000 btime 1000");
    usleep(300 * 1000);
    engine_send(&e, "isready");
    char seen[65536];
    CHECK(engine_expect(&e, "readyok", NULL, 0, 1000, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "bestmove"), "bestmove while pondering");
    engine_send(&e, "ponderhit");
    CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, 3000, NULL, 0), "no bestmove after ponderhit");
    CHECK(legal_in(START_FEN, "d2d4 d7d5", bestmove_of(line)));
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}


TEST(protocol, uci_bad_input_changes_nothing) {
    Engine e;
    char line[8192], seen[8192], before[256], after[256];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "position startpos moves e2e4 c7c5");
    CHECK(board_fen(&e, before, sizeof before));

    const char *bad[] = { /* a refused position and go lines have their own tests (test_tournament.c, test_hostile_input.c) */
        "setoption name Hash value 0",
        "setoption name Hash value 12abc",
        "setoption name Threads value 100000",
        "setoption name NoSuchOption value 3",
        "setoption name EvalMode value quantum",
        "setoption name Ponder value maybe",
        "setoption name EvalFile value /nonexistent/net.nnue",
        "perft 0",
        "bench x",
        "frobnicate",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        engine_send(&e, "%s", bad[i]);
        engine_send(&e, "isready");
        CHECK_MSG(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen), "'%s' hung", bad[i]);
        int errors = 0;
        for (char *p = seen; (p = strstr(p, "info string error: ")); p++) errors++;
        CHECK_MSG(errors == 1, "'%s' gave %d error lines: %s", bad[i], errors, seen);
        CHECK_MSG(!strstr(seen, "bestmove"), "'%s' started a search", bad[i]);
    }
    CHECK(board_fen(&e, after, sizeof after));
    CHECK_MSG(!strcmp(before, after), "position changed: %s -> %s", before, after);

    /* the good settings are accepted silently */
    engine_send(&e, "setoption name Hash value 8");
    engine_send(&e, "setoption name move overhead value 50");
    engine_send(&e, "setoption name Clear Hash");
    engine_send(&e, "setoption name UCI_ShowWDL value true");
    engine_send(&e, "isready");
    CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "error"), "good setoption rejected: %s", seen);

    /* the engine still searches the unchanged position */
    engine_send(&e, "go depth 3");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    CHECK(legal_in(START_FEN, "e2e4 c7c5", bestmove_of(line)));
    CHECK_MSG(strstr(seen, " wdl ") != NULL, "UCI_ShowWDL had no effect");

    engine_send(&e, "ucinewgame");
    CHECK(board_fen(&e, after, sizeof after));
    CHECK_MSG(!strcmp(after, START_FEN), "ucinewgame did not reset: %s", after);
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, uci_no_legal_moves) {
    Engine e;
    char line[8192];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); /* stalemate */
    engine_send(&e, "go depth 5");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(!strcmp(line, "bestmove 0000"), "got '%s'", line);
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

/* Sends go_args as a `go` and checks that the bestmove is want. */
static void expect_bestmove(Engine *e, const char *go_args, const char *want) {
    char line[8192];
    engine_send(e, "go %s", go_args);
    CHECK_MSG(engine_expect(e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "go %s: no bestmove", go_args);
    char got[16] = "";
    sscanf(bestmove_of(line), "%15s", got);
    CHECK_MSG(!strcmp(got, want), "go %s: want bestmove %s, got '%s'", go_args, want, line);
}

/* UCI_Chess960: castling read and written as the king taking its own rook, X-FEN and
 * Shredder-FEN castling fields, a game from a 960 start position; off, castling is e1g1 again
 * (and e1h1 from a GUI is still understood). */
TEST(protocol, uci_chess960) {
    Engine e;
    char line[8192], seen[8192], fen[256];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "option name UCI_Chess960 type check default false") != NULL, "no UCI_Chess960 option");
    engine_send(&e, "setoption name UCI_Chess960 value true");
    /* castling mates: with the king on g1 (g8) short castling moves only the rook, to f1 (f8) */
    engine_send(&e, "position fen 4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1");
    expect_bestmove(&e, "depth 3", "g1h1");
    engine_send(&e, "position fen 6kr/8/8/8/8/8/4P1P1/4RKR1 b k - 0 1");
    expect_bestmove(&e, "depth 3", "g8h8");
    /* a game from a 960 start position (Shredder-FEN in, X-FEN out), both sides castled */
    const char *start = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1", *played = "b1a1 b8h8";
    engine_send(&e, "position fen %s moves %s", start, played);
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2"), "after castling: %s", fen);
    engine_send(&e, "go depth 5");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(legal_in_game(start, played, bestmove_of(line), true), "illegal: %s", line);
    engine_send(&e, "position fen %s", start);
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1"), "X-FEN: %s", fen);
    engine_send(&e, "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    expect_bestmove(&e, "depth 1 searchmoves e1g1", "e1h1"); /* the standard form is understood in 960 too */
    engine_send(&e, "setoption name UCI_Chess960 value false");
    expect_bestmove(&e, "depth 1 searchmoves e1a1", "e1c1");
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

/* ------------------------------------------------------------------ xboard */


TEST(protocol, xboard_features) {
    Engine e;
    char features[8192];
    xboard_open(&e, features, sizeof features);
    char myname[128];
    snprintf(myname, sizeof myname, "myname=\"Squall %s\"", squall_version);
    const char *want[] = {"ping=1", "setboard=1", "usermove=1", "san=0", "sigint=0", "sigterm=0", "analyze=1",
                          "colors=0", "memory=1", "smp=1", myname, "feature option=\""};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        CHECK_MSG(strstr(features, want[i]) != NULL, "missing feature %s", want[i]);
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, xboard_game_commands) {
    Engine e;
    char features[8192], seen[16384], line[8192], fen[256];
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "accepted usermove");
    engine_send(&e, "new");
    engine_send(&e, "random");
    engine_send(&e, "level 40 5 0");
    engine_send(&e, "level 0 2:30 1");
    engine_send(&e, "st 2");
    engine_send(&e, "sd 4");
    engine_send(&e, "time 30000");
    engine_send(&e, "otim 30000");
    engine_send(&e, "memory 32");
    engine_send(&e, "cores 1");
    engine_send(&e, "option Move Overhead=20");
    engine_send(&e, "post");
    engine_send(&e, "hard");
    engine_send(&e, "easy");
    engine_send(&e, "force");
    engine_send(&e, "usermove e2e4");
    engine_send(&e, "e7e5"); /* a bare move is accepted too */
    CHECK(xboard_sync(&e, 1, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "Error") && !strstr(seen, "Illegal"), "setup rejected: %s", seen);

    engine_send(&e, "usermove e1e3");
    CHECK_MSG(engine_expect(&e, "Illegal move: e1e3", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no illegal-move message");
    engine_send(&e, "frobnicate");
    CHECK_MSG(engine_expect(&e, "Error (unknown command): frobnicate", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no unknown-command error");
    engine_send(&e, "level 40 x 0");
    CHECK(engine_expect(&e, "Error (", NULL, 0, READ_TIMEOUT_MS, NULL, 0));

    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "fen %s", fen);

    engine_send(&e, "go");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen), "no move after go");
    CHECK_MSG(legal_in(START_FEN, "e2e4 e7e5", line + 5), "illegal engine move %s", line);
    CHECK_MSG(strstr(seen, "4 ") != NULL, "no thinking output: %s", seen);

    /* undo takes back the engine's move, remove two more plies */
    engine_send(&e, "force");
    engine_send(&e, "undo");
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"), "after undo %s", fen);
    engine_send(&e, "remove");
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, START_FEN), "after remove %s", fen);
    engine_send(&e, "undo");
    CHECK(engine_expect(&e, "Error (", NULL, 0, READ_TIMEOUT_MS, NULL, 0));

    /* setboard: good one taken, bad one refused without change */
    const char *good = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    engine_send(&e, "setboard %s", good);
    engine_send(&e, "setboard 4k3/8/8/8/8/8/8/4K2P w - - 0 1");
    CHECK_MSG(engine_expect(&e, "tellusererror Illegal position", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "bad setboard accepted");
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, good), "setboard changed to %s", fen);

    engine_send(&e, "result 1/2-1/2 {test}");
    engine_send(&e, "new");
    CHECK(xboard_sync(&e, 2, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "Error"), "%s", seen);
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, xboard_move_now_and_playing_black) {
    Engine e;
    char features[8192], line[8192];
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "new");
    engine_send(&e, "st 30");
    engine_send(&e, "usermove d2d4"); /* engine plays black after new */
    usleep(300 * 1000);
    int64_t t0 = time_now_ms();
    engine_send(&e, "?");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, 3000, NULL, 0), "no move after ?");
    int64_t took = time_now_ms() - t0;
    CHECK_MSG(took < 500, "? took %lld ms", (long long)took);
    CHECK(legal_in(START_FEN, "d2d4", line + 5));
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, xboard_analyze_and_claims) {
    Engine e;
    char features[8192], line[8192], seen[65536];
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "new");
    engine_send(&e, "force");
    engine_send(&e, "post");
    engine_send(&e, "analyze");
    usleep(200 * 1000);
    engine_send(&e, ".");
    CHECK_MSG(engine_expect(&e, "stat01: ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0), "no stat01 line");
    engine_send(&e, "usermove e2e4"); /* analysis follows the moves */
    usleep(100 * 1000);
    engine_send(&e, "exit");
    CHECK(xboard_sync(&e, 7, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "move ") || strstr(seen, "Illegal"), "analysis made a move: %s", seen);

    /* the engine mates and claims it */
    engine_send(&e, "setboard 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    engine_send(&e, "sd 4");
    engine_send(&e, "go");
    CHECK(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(!strcmp(line, "move a1a8"), "%s", line);
    CHECK_MSG(engine_expect(&e, "1-0 {White mates}", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no mate claim");

    /* a stalemated engine claims the draw instead of searching */
    engine_send(&e, "force");
    engine_send(&e, "setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    engine_send(&e, "go");
    CHECK_MSG(engine_expect(&e, "1/2-1/2 {Stalemate}", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no stalemate claim");
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

TEST(protocol, xboard_ponder_hit) {
    Engine e;
    char features[8192], line[8192];
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "new");
    engine_send(&e, "hard");
    engine_send(&e, "st 1");
    engine_send(&e, "usermove e2e4");
    CHECK(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    char ours[16];
    snprintf(ours, sizeof ours, "%s", line + 5);
    engine_send(&e, "hint");
    if (engine_expect(&e, "Hint: ", line, sizeof line, 1000, NULL, 0)) {
        char reply[16];
        snprintf(reply, sizeof reply, "%s", line + 6);
        engine_send(&e, "usermove %s", reply); /* ponder hit */
        char moves[64];
        snprintf(moves, sizeof moves, "e2e4 %s %s", ours, reply);
        CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, 4000, NULL, 0), "no move after ponder hit");
        CHECK_MSG(legal_in(START_FEN, moves, line + 5), "illegal %s after %s", line, moves);
    }
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

/* variant fischerandom: announced, castling taken as O-O / O-O-O (and king takes rook),
 * the engine's castling sent as O-O; `new` goes back to standard chess. */
TEST(protocol, xboard_fischerandom) {
    Engine e;
    char features[8192], seen[8192], line[8192], fen[256];
    xboard_open(&e, features, sizeof features);
    CHECK_MSG(strstr(features, "variants=\"normal,fischerandom\"") != NULL, "fischerandom not announced");
    engine_send(&e, "new");
    engine_send(&e, "variant fischerandom");
    engine_send(&e, "force");
    const char *start = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w KQkq - 0 1";
    engine_send(&e, "setboard %s", start);
    engine_send(&e, "usermove O-O-O");
    engine_send(&e, "usermove b8h8");
    CHECK(xboard_sync(&e, 1, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "Error") && !strstr(seen, "Illegal"), "castling refused: %s", seen);
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2"), "after castling: %s", fen);
    engine_send(&e, "sd 4");
    engine_send(&e, "go");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no move");
    CHECK_MSG(legal_in_game(start, "O-O-O O-O", line + 5, true), "illegal engine move %s", line);
    engine_send(&e, "force");
    engine_send(&e, "setboard 4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1"); /* castling mates */
    engine_send(&e, "go");
    CHECK(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(!strcmp(line, "move O-O"), "want move O-O, got '%s'", line);
    engine_send(&e, "new"); /* standard chess again: e1g1 is castling, O-O still understood */
    engine_send(&e, "force");
    engine_send(&e, "setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    engine_send(&e, "usermove e1g1");
    engine_send(&e, "usermove O-O-O");
    CHECK(board_fen(&e, fen, sizeof fen));
    CHECK_MSG(!strcmp(fen, "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"), "standard castling: %s", fen);
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}

/* ------------------------------------------------------------------ terminal, batch, command line */

TEST(protocol, terminal_prompt) {
    char out[65536];
    const char *input = "e4 e5\nNf3\nd\nundo\nposition startpos moves d2d4\ngo depth 3\nmoves\n";
    int rc = run_engine(NULL, input, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d", rc);
    CHECK_MSG(strstr(out, "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), "%s", out);
    char *best = strstr(out, "bestmove ");
    CHECK_MSG(best && legal_in(START_FEN, "d2d4", best + 9), "%s", out);
    CHECK_MSG(strstr(out, "error: unknown command 'moves'"), "%s", out);
}

/* After a refused position the prompt plays nothing: a move or a go gets an error line and
 * no move of the old position (UCI answers bestmove 0000; a person gets no move at all). */
TEST(protocol, terminal_refused_position_plays_nothing) {
    char out[65536];
    const char *input = "position startpos moves e2e4\nsetboard 8/8/8/8/8/8/8/8 w - - 0 1\nd2d4\nundo\ngo depth 2\n"
                        "position startpos moves e2e5\ngo depth 1\n";
    int rc = run_engine(NULL, input, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d", rc);
    CHECK_MSG(strstr(out, "error: no position to play moves in") && strstr(out, "error: undo: no position") &&
                  strstr(out, "error: go: no position to search") && !strstr(out, "bestmove"), "%s", out);
    const char *args[] = {"--batch", "--command", "position startpos moves e2e4; setboard 8/8/8/8/8/8/8/8 w - - 0 1; go depth 2", NULL};
    rc = run_engine(args, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 1 && strstr(out, "error: go: no position to search") && !strstr(out, "bestmove"), "exit %d: %s", rc, out);
}

TEST(protocol, batch_mode) {
    char out[65536];
    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "setboard %s; sd 4; go", fen);
    const char *args[] = {"--batch", "--command", cmd, NULL};
    int rc = run_engine(args, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
    char *best = strstr(out, "bestmove ");
    CHECK_MSG(best && legal_in(fen, "", best + 9), "%s", out);

    const char *perft_args[] = {"--command", "perft 2; divide 1", NULL};
    rc = run_engine(perft_args, NULL, out, sizeof out, READ_TIMEOUT_MS);
    CHECK(rc == 0);
    CHECK_MSG(strstr(out, "Nodes searched: 400\n") && strstr(out, "Nodes searched: 20\n") && strstr(out, "e2e4: 20\n"), "%s", out);

    const char *bad_args[] = {"--command", "setboard nonsense; d", NULL};
    rc = run_engine(bad_args, NULL, out, sizeof out, READ_TIMEOUT_MS);
    CHECK_MSG(rc == 1, "bad batch command exit %d", rc);
    CHECK_MSG(strstr(out, "error: bad FEN") && strstr(out, "Fen: " START_FEN), "%s", out);

    const char *dump_args[] = {"--command", "setboard 4k3/8/8/8/8/8/8/4K3 w - - 0 1; dump nnuefeatures; eval", NULL};
    rc = run_engine(dump_args, NULL, out, sizeof out, READ_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d: %s", rc, out);
    CHECK_MSG(strstr(out, "NNUE_FEATURES white ") && strstr(out, "NNUE_FEATURES black "), "%s", out);
}

TEST(protocol, subcommands_and_bad_arguments) {
    char out[65536];
    const char *perft_args[] = {"perft", "3", NULL};
    CHECK(run_engine(perft_args, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0);
    CHECK_MSG(strstr(out, "Nodes searched: 8902\n"), "%s", out);
    const char *perft_fen[] = {"perft", "2", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R", "w", "KQkq", "-", NULL};
    CHECK(run_engine(perft_fen, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0);
    CHECK_MSG(strstr(out, "Nodes searched: 2039\n"), "%s", out);

    const char *help[] = {"--help", NULL};
    CHECK(run_engine(help, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0);
    CHECK(strstr(out, "usage: squall") != NULL);
    char name_line[128];
    snprintf(name_line, sizeof name_line, "Squall %s\n", squall_version);
    CHECK_MSG(!strncmp(out, name_line, strlen(name_line)), "--help starts with: %.60s", out);
    /* every subcommand answers --help with its flags on standard output */
    static const char *const subcommand_names[] = {"bench", "perft", "net-init", "net-reorder", "nnue-speed",
                                                   "datagen", "train", "tune", "movefeatures", "movefit"};
    for (size_t i = 0; i < sizeof subcommand_names / sizeof subcommand_names[0]; i++) {
        const char *sub_help[] = {subcommand_names[i], "--help", NULL};
        int rc = run_engine(sub_help, NULL, out, sizeof out, READ_TIMEOUT_MS);
        char expected[64];
        snprintf(expected, sizeof expected, "squall %s", subcommand_names[i]);
        CHECK_MSG(rc == 0 && (strstr(out, expected) || (!strcmp(subcommand_names[i], "tune") && strstr(out, "TUNE=1"))),
                  "'%s --help' exit %d: %.120s", subcommand_names[i], rc, out);
    }
    const char *version[] = {"--version", NULL};
    CHECK(run_engine(version, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0);
    CHECK_MSG(!strcmp(out, name_line), "--version said: %s", out);
    const char *bench[] = {"bench", "2", NULL}; /* says which build the numbers belong to */
    CHECK(run_engine(bench, NULL, out, sizeof out, SEARCH_TIMEOUT_MS) == 0);
    snprintf(name_line, sizeof name_line, "Squall %s bench: depth 2, ", squall_version);
    CHECK_MSG(!strncmp(out, name_line, strlen(name_line)) && strstr(out, "\nNodes searched: "), "%.200s", out);

    static const char *const bad[][4] = {
        {"--hash", "abc", NULL}, {"--hash", "0", NULL}, {"--cpus", "-1", NULL}, {"--nope", NULL},
        {"frobnicate", NULL},    {"perft", "x", NULL},  {"perft", NULL},        {"perft", "2", "not-a-fen", NULL},
        {"bench", "0", NULL},    {"--logfile", "/nonexistent/dir/log", NULL},  {"--hash", NULL},
        {"--evalfile", "/nonexistent.nnue", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run_engine(bad[i], "quit\n", out, sizeof out, READ_TIMEOUT_MS);
        CHECK_MSG(rc == 2, "'%s %s' exit %d", bad[i][0], bad[i][1] ? bad[i][1] : "", rc);
        char *nl = strchr(out, '\n');
        CHECK_MSG(!strncmp(out, "squall: ", 8) && nl && !nl[1], "'%s' should give one line: %s", bad[i][0], out);
    }
}


TEST(protocol, script_epd_and_logfile) {
    char dir[] = "/tmp/squall-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char script[128], epd[128], log[128], cmd[512], out[65536];
    snprintf(script, sizeof script, "%s/cmds.txt", dir);
    snprintf(epd, sizeof epd, "%s/suite.epd", dir);
    snprintf(log, sizeof log, "%s/log.txt", dir);
    CHECK(write_file(script, "# a comment\nposition startpos moves e2e4\n\nsd 3\ngo\nperft 1\n"));
    CHECK(write_file(epd, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"mate1\";\n"
                          "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - am Kf1; id \"avoid\";\n"
                          "garbage line\n"));
    snprintf(cmd, sizeof cmd, "script %s; epd %s depth 4", script, epd);
    const char *args[] = {"--logfile", log, "--command", cmd, NULL};
    int rc = run_engine(args, NULL, out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 1, "exit %d (the garbage EPD line is an error)", rc);
    char *best = strstr(out, "bestmove ");
    CHECK_MSG(best && legal_in(START_FEN, "e2e4", best + 9), "%s", out);
    CHECK_MSG(strstr(out, "Nodes searched: 20\n"), "%s", out);
    CHECK_MSG(strstr(out, "mate1") && strstr(out, "solved 2 of 2\n"), "%s", out);
    CHECK_MSG(strstr(out, "error: epd line 3"), "%s", out);

    FILE *f = fopen(log, "r");
    CHECK(f != NULL);
    if (f) {
        char text[65536];
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
        CHECK_MSG(strstr(text, " < sd 3\n") && strstr(text, " > bestmove "), "log: %s", text);
    }

    snprintf(cmd, sizeof cmd, "script %s/missing.txt; epd %s/missing.epd", dir, dir);
    const char *missing[] = {"--command", cmd, NULL};
    rc = run_engine(missing, NULL, out, sizeof out, READ_TIMEOUT_MS);
    CHECK_MSG(rc == 1 && strstr(out, "error: script: cannot open") && strstr(out, "error: epd: cannot open"), "%s", out);
    unlink(script), unlink(epd), unlink(log), rmdir(dir);
}

TEST(protocol, eof_finishes_piped_search) {
    char out[65536];
    int rc = run_engine(NULL, "uci\nposition startpos\ngo depth 4\n", out, sizeof out, SEARCH_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d", rc);
    char *best = strstr(out, "bestmove ");
    CHECK_MSG(best && legal_in(START_FEN, "", best + 9), "%s", out);
}

/* SIGINT stops datagen after the games in progress: exit 0, and the file ends on a whole
 * record and reads back (--dump checks every record). */
TEST(protocol, datagen_stops_cleanly_on_sigint) {
    char dir[] = "/tmp/squall-test-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[128], line[8192];
    snprintf(path, sizeof path, "%s/data.bin", dir);
    const char *args[] = {"datagen", "--out", path, "--positions", "100000000", "--threads", "2", "--nodes", "300",
                          "--eval", "classical", NULL};
    Engine e;
    CHECK(engine_start(&e, args));
    CHECK_MSG(engine_expect(&e, "datagen: classical evaluation", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0),
              "no start line");
    usleep(1500 * 1000); /* games of 300 nodes a move take a few hundredths of a second */
    kill(e.pid, SIGINT);
    CHECK_MSG(engine_expect(&e, "datagen: stop requested", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no stop notice");
    CHECK_MSG(engine_expect(&e, "datagen: done: ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no final line");
    int rc = engine_finish(&e, READ_TIMEOUT_MS);
    CHECK_MSG(rc == 0, "exit %d after SIGINT", rc);
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
    if (f) fclose(f);
    CHECK_MSG(size > 0 && size % RECORD_SIZE == 0, "file size %ld", size);
    char out[65536];
    const char *dump[] = {"datagen", "--dump", path, "--limit", "0", NULL};
    CHECK_MSG(run_engine(dump, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0, "%s", out);
    unlink(path), rmdir(dir);
}
