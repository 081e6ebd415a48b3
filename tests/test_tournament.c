/* Protocol behaviour a tournament depends on (issue 13): never play a move of some other
 * position, never lose a move to an option or a ping, thinking output that matches the
 * move played, the time given used, pondering shown, strength limiting, the book, and the
 * xboard extras (pause, exclude, nps, resign). Each drives ./squall through pipes. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "book.h"
#include "engine_driver.h"
#include "movegen.h"
#include "notation.h"
#include "test.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static void uci_open(Engine *e) {
    CHECK(engine_start(e, NULL));
    engine_send(e, "uci");
    CHECK_MSG(engine_expect(e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "no uciok");
}

static void quit(Engine *e) {
    engine_send(e, "quit");
    CHECK(engine_finish(e, 2000) == 0);
}

/* The number after " key " in line, or -1. */
static long long field(const char *line, const char *key) {
    char pattern[32];
    snprintf(pattern, sizeof pattern, " %s ", key);
    const char *p = strstr(line, pattern);
    return p ? atoll(p + strlen(pattern)) : -1;
}

/* The last "info ... pv ..." line in text (copied to out); false if there is none. */
static bool last_pv_line(const char *text, char *out, size_t size) {
    const char *found = NULL;
    for (const char *p = text; (p = strstr(p, "info ")); p++)
        if ((p == text || p[-1] == '\n') && strstr(p, " pv ") && strstr(p, " pv ") < strchr(p, '\n')) found = p;
    if (!found) return false;
    snprintf(out, size, "%.*s", (int)(strchr(found, '\n') - found), found);
    return true;
}

/* The last PV line before bestmove starts with the move played, and goes on with the move
 * to ponder. */
static void check_pv_matches(const char *seen, const char *bestmove_line, const char *what) {
    char pv_line[8192], best[8] = "", ponder[8] = "", pv0[8] = "", pv1[8] = "";
    CHECK_MSG(last_pv_line(seen, pv_line, sizeof pv_line), "%s: no pv line", what);
    sscanf(bestmove_line, "bestmove %7s ponder %7s", best, ponder);
    sscanf(strstr(pv_line, " pv ") + 4, "%7s %7s", pv0, pv1);
    CHECK_MSG(!strcmp(best, pv0), "%s: bestmove %s, last pv line: %s", what, best, pv_line);
    if (ponder[0]) CHECK_MSG(!strcmp(ponder, pv1), "%s: ponder %s, last pv line: %s", what, ponder, pv_line);
}

/* Milliseconds from sending command to the line starting with answer (-1 if none came). */
static int64_t answer_time(Engine *e, const char *command, const char *answer) {
    char line[8192];
    int64_t t0 = time_now_ms();
    engine_send(e, "%s", command);
    return engine_expect(e, answer, line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0) ? time_now_ms() - t0 : -1;
}

/* ------------------------------------------------------------------ UCI */

/* A position the engine cannot take never leaves the previous one playable; castling rights
 * and en-passant squares the position cannot have are dropped with one info line. */
TEST(tournament, uci_refused_position_never_plays_the_old_one) {
    Engine e;
    char line[8192], seen[16384];
    uci_open(&e);
    engine_send_lines(&e, (const char *const[]){"ucinewgame",
                                                "position fen 4k3/8/8/8/8/8/8/R3K3 w K - 0 1 moves a1a7",
                                                "go depth 2", NULL});
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(legal_in("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a7", bestmove_of(line)), "%s", line);
    CHECK_MSG(strstr(seen, "info string position: ignored K,") && !strstr(seen, "error"), "%s", seen);

    engine_send(&e, "position fen rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3 moves f4e3");
    engine_send(&e, "go depth 1"); /* the en-passant square is usable: nothing dropped */
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "info string"), "%s", seen);
    engine_send(&e, "position fen 4k2r/8/8/8/8/8/8/4K3 b Kkq e3 0 1");
    engine_send(&e, "go depth 1");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "info string position: ignored K q e3,") && legal_in("4k2r/8/8/8/8/8/8/4K3 b k - 0 1", "", bestmove_of(line)),
              "%s%s", seen, line);

    const char *refused[] = {
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",                /* no kings */
        "position fen 4k3/8/8/8/8/8/8/R3K3 b - - 0 1 moves e1e2", /* a move of the wrong side */
        "position startpos moves e2e4 zzzz",
        "position fen 4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",          /* the side not to move is in check */
        "position sideways",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        engine_send(&e, "position startpos moves e2e4");
        engine_send(&e, "%s", refused[i]);
        engine_send(&e, "go depth 3");
        CHECK_MSG(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen), "'%s': no bestmove", refused[i]);
        CHECK_MSG(!strcmp(line, "bestmove 0000"), "'%s' then go: %s", refused[i], line);
        CHECK_MSG(strstr(seen, "info string error: position") && strstr(seen, "info string no position to search"),
                  "'%s': %s", refused[i], seen);
    }
    engine_send(&e, "position startpos moves d2d4");
    engine_send(&e, "go depth 3");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK_MSG(legal_in(START_FEN, "d2d4", bestmove_of(line)), "%s", line);
    quit(&e);
}

/* The last info line with a pv before bestmove starts with the move played, whether the
 * search ends on a node count inside an iteration or on time. */
TEST(tournament, last_pv_line_is_the_move_played) {
    static const char *fens[] = {START_FEN, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                                 "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"};
    static const int nodes[] = {1000, 2000, 5000, 13000};
    char out[1 << 16], cmd[256], what[64];
    for (int f = 0; f < 3; f++)
        for (int k = 0; k < 4; k++) {
            snprintf(cmd, sizeof cmd, "setboard %s; go nodes %d", fens[f], nodes[k]);
            const char *args[] = {"--batch", "--command", cmd, NULL};
            CHECK(run_engine(args, NULL, out, sizeof out, SEARCH_TIMEOUT_MS) == 0);
            char *best = strstr(out, "bestmove ");
            snprintf(what, sizeof what, "position %d, nodes %d", f, nodes[k]);
            CHECK_MSG(best != NULL, "%s: %s", what, out);
            if (best) check_pv_matches(out, best, what);
        }
    Engine e;
    char line[8192], seen[1 << 16];
    uci_open(&e);
    for (int ms = 20; ms <= 200; ms += 60) {
        engine_send(&e, "position startpos moves e2e4 c7c5 g1f3");
        engine_send(&e, "go movetime %d", ms);
        CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
        snprintf(what, sizeof what, "movetime %d", ms);
        check_pv_matches(seen, line, what);
    }
    quit(&e);
}

/* movetime is used in full less the overhead; a long search says which root move it is on
 * once the first seconds have passed. */
TEST(tournament, uci_movetime_used_and_currmove_shown) {
    Engine e;
    char line[8192];
    uci_open(&e);
    engine_send(&e, "position startpos");
    int64_t took = answer_time(&e, "go movetime 1000", "bestmove ");
    CHECK_MSG(took >= 940, "movetime 1000 answered after %lld ms", (long long)took);

    int64_t t0 = time_now_ms();
    engine_send(&e, "go infinite");
    line[0] = '\0';
    while (!strstr(line, " currmove ") && time_now_ms() - t0 < 3 * SEARCH_TIMEOUT_MS &&
           engine_expect(&e, "info depth ", line, sizeof line, (int)(t0 + 3 * SEARCH_TIMEOUT_MS - time_now_ms()), NULL, 0)) {}
    took = time_now_ms() - t0;
    CHECK_MSG(strstr(line, " currmove ") && field(line, "currmovenumber") >= 1, "no currmove line");
    CHECK_MSG(took >= 2900, "currmove after %lld ms already", (long long)took);
    engine_send(&e, "stop");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0));
    quit(&e);
}

/* After ponderhit the reported time goes on from the start of pondering (so nps stays true). */
TEST(tournament, uci_ponderhit_keeps_the_search_time) {
    Engine e;
    char line[8192], seen[1 << 16];
    uci_open(&e);
    engine_send_lines(&e, (const char *const[]){"setoption name Ponder value true",
                                                "position startpos moves e2e4 e7e5",
                                                "go ponder wtime 60000 btime 60000", NULL});
    usleep(600 * 1000);
    engine_send(&e, "isready");
    CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "ponderhit");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    int after = 0;
    for (char *p = seen; (p = strstr(p, "info depth ")); p++) {
        long long t = field(p, "time"), nodes = field(p, "nodes"), nps = field(p, "nps");
        if (t < 0) continue; /* a currmove line */
        after++;
        CHECK_MSG(t >= 500, "time %lld after 600 ms of pondering: %.120s", t, p);
        CHECK_MSG(t > 0 && nps <= nodes * 1000 / t + 1, "nps %lld for %lld nodes in %lld ms", nps, nodes, t);
    }
    CHECK_MSG(after > 0, "no info line after ponderhit");
    quit(&e);
}

/* ------------------------------------------------------------------ xboard */

/* Opens an xboard session, sends the setup lines and waits for the engine's first move (in
 * line; what came before it in seen). */
static bool xboard_first_move(Engine *e, const char *const *setup, char *line, size_t size, char *seen, size_t seen_size) {
    char features[8192];
    xboard_open(e, features, sizeof features);
    engine_send_lines(e, setup);
    return engine_expect(e, "move ", line, size, SEARCH_TIMEOUT_MS, seen, seen_size);
}

/* ping, option, memory and cores while the engine thinks on its move: the move still comes,
 * and the pong only after it. */
TEST(tournament, xboard_commands_during_thinking_keep_the_move) {
    Engine e;
    char features[8192], line[8192], seen[1 << 16];
    xboard_open(&e, features, sizeof features);
    engine_send_lines(&e, (const char *const[]){"new", "st 1", "usermove e2e4", "option Clear Hash", "memory 8",
                                                "cores 1", "option MultiPV=1", "ping 4", NULL});
    CHECK_MSG(engine_expect(&e, "pong 4", NULL, 0, SEARCH_TIMEOUT_MS, seen, sizeof seen), "no pong");
    char *move = strstr(seen, "move ");
    CHECK_MSG(move && legal_in(START_FEN, "e2e4", move + 5), "pong came before the move: %s", seen);
    CHECK_MSG(!strstr(seen, "Error"), "%s", seen);

    engine_send(&e, "usermove d2d4");
    engine_send(&e, "ping 5"); /* sent right after the move that starts the search */
    CHECK_MSG(engine_expect(&e, "pong 5", NULL, 0, SEARCH_TIMEOUT_MS, seen, sizeof seen), "no pong");
    CHECK_MSG(strstr(seen, "move "), "pong overtook the move: %s", seen);
    engine_send(&e, "?");
    CHECK(xboard_sync(&e, 6, seen, sizeof seen));
    (void)line;
    quit(&e);
}

/* The thinking output of pondering: Hint first, the PV led by the pondered move, and after
 * the ponder hit a time that goes on from the pondering. st 3 leaves the search after the hit
 * time for a further iteration (and so a line) even on a loaded machine; with st 1 one did
 * not always finish. */
TEST(tournament, xboard_ponder_output) {
    Engine e;
    char line[8192], seen[1 << 16];
    CHECK(xboard_first_move(&e, (const char *const[]){"new", "hard", "post", "st 3", "usermove e2e4", NULL}, line, sizeof line,
                            NULL, 0));
    char ours[8], hint[8], moves[64], san[16];
    snprintf(ours, sizeof ours, "%s", line + 5);
    CHECK_MSG(engine_line(&e, line, sizeof line, READ_TIMEOUT_MS) && !strncmp(line, "Hint: ", 6), "after the move: %s", line);
    snprintf(hint, sizeof hint, "%s", line + 6);
    snprintf(moves, sizeof moves, "e2e4 %s", ours);
    static Position pos;
    CHECK(pos_set_fen(&pos, START_FEN, NULL, 0));
    pos_make_move(&pos, move_from_uci(&pos, "e2e4"));
    pos_make_move(&pos, move_from_uci(&pos, ours));
    Move reply = move_from_uci(&pos, hint);
    CHECK_MSG(reply != MOVE_NONE, "hint %s not legal after %s", hint, moves);
    if (reply == MOVE_NONE) return;
    move_to_san(&pos, reply, san);
    usleep(700 * 1000);
    engine_send(&e, "usermove %s", hint); /* the ponder hit */
    CHECK(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    int pondering_lines = 0, later_lines = 0;
    bool hit_seen = false;
    for (char *p = seen; *p; p = strchr(p, '\n') + 1) {
        int depth, score, cs;
        char *tab = strchr(p, '\t'), *nl = strchr(p, '\n');
        if (sscanf(p, "%d %d %d", &depth, &score, &cs) == 3 && tab && tab < nl) {
            bool led = !strncmp(tab + 1, san, strlen(san)) && tab[1 + strlen(san)] == ' ';
            if (led && !hit_seen) pondering_lines++;
            else hit_seen = true;
            if (hit_seen) {
                later_lines++;
                CHECK_MSG(cs >= 50, "time %d cs after 0.7 s of pondering: %.80s", cs, p);
            }
        }
    }
    CHECK_MSG(pondering_lines > 0, "no pondering line led by %s: %s", san, seen);
    CHECK_MSG(later_lines > 0, "no line after the ponder hit: %s", seen);
    quit(&e);
}

/* st uses the time given; level ignores what follows BASE; a refused setboard refuses moves
 * until new. */
TEST(tournament, xboard_time_and_setboard) {
    Engine e;
    char features[8192], line[8192], seen[16384];
    xboard_open(&e, features, sizeof features);
    engine_send_lines(&e, (const char *const[]){"new", "level 40 25+5 0", "level 0 2:30+1 1.5", NULL});
    CHECK(xboard_sync(&e, 1, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "Error"), "level refused: %s", seen);
    engine_send(&e, "st 1");
    int64_t took = answer_time(&e, "usermove e2e4", "move ");
    CHECK_MSG(took >= 900, "st 1 answered after %lld ms", (long long)took);

    engine_send(&e, "force");
    engine_send(&e, "setboard 4k3/8/8/8/8/8/8/4K2P w - - 0 1"); /* pawn on the first rank */
    CHECK(engine_expect(&e, "tellusererror Illegal position", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "usermove d2d4"); /* legal in the old game, which is gone */
    CHECK_MSG(engine_expect(&e, "Illegal move: d2d4", NULL, 0, READ_TIMEOUT_MS, NULL, 0), "move accepted after a refused setboard");
    engine_send(&e, "go");
    CHECK(xboard_sync(&e, 2, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "Error (no position to play") && !strstr(seen, "move "), "%s", seen);
    engine_send(&e, "new");
    engine_send(&e, "usermove d2d4");
    CHECK(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK(legal_in(START_FEN, "d2d4", line + 5));
    quit(&e);
}

TEST(tournament, xboard_pause_and_resume) {
    Engine e;
    char features[8192], line[8192];
    xboard_open(&e, features, sizeof features);
    CHECK(strstr(features, "pause=1") && strstr(features, "exclude=1"));
    engine_send_lines(&e, (const char *const[]){"new", "st 1", "usermove e2e4", "pause", NULL});
    CHECK_MSG(!engine_expect(&e, "move ", line, sizeof line, 1500, NULL, 0), "moved while paused: %s", line);
    engine_send(&e, "resume");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no move after resume");
    CHECK(legal_in(START_FEN, "e2e4", line + 5));
    quit(&e);
}

/* The first PV move of each thinking line in seen; false when some line starts otherwise. */
static bool all_lines_start_with(const char *seen, const char *san, int *lines) {
    *lines = 0;
    for (const char *p = seen; (p = strchr(p, '\t')); p++) {
        (*lines)++;
        if (strncmp(p + 1, san, strlen(san))) return false;
    }
    return true;
}

TEST(tournament, xboard_exclude_and_include) {
    Engine e;
    char features[8192], seen[1 << 16];
    int lines;
    xboard_open(&e, features, sizeof features);
    engine_send(&e, "new");
    engine_send(&e, "force");
    engine_send(&e, "setboard 7k/8/8/8/8/8/8/K6R b - - 0 1"); /* Kg8 and Kg7 */
    engine_send_lines(&e, (const char *const[]){"post", "analyze", "exclude h8g7", NULL});
    CHECK(xboard_sync(&e, 1, seen, sizeof seen));
    usleep(300 * 1000);
    CHECK(xboard_sync(&e, 2, seen, sizeof seen));
    CHECK_MSG(all_lines_start_with(seen, "Kg8", &lines) && lines > 0, "%d lines: %s", lines, seen);
    engine_send(&e, "include all");
    engine_send(&e, "exclude h8g8");
    CHECK(xboard_sync(&e, 3, seen, sizeof seen));
    usleep(300 * 1000);
    CHECK(xboard_sync(&e, 4, seen, sizeof seen));
    CHECK_MSG(all_lines_start_with(seen, "Kg7", &lines) && lines > 0, "%d lines: %s", lines, seen);
    engine_send(&e, "exclude e2e4");
    CHECK(engine_expect(&e, "Illegal move: e2e4", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "exit");
    CHECK(xboard_sync(&e, 5, seen, sizeof seen));
    quit(&e);
}

/* nps N turns the time into nodes; nps 0 counts CPU time; both still move. */
TEST(tournament, xboard_nps) {
    Engine e;
    char line[8192], seen[1 << 16];
    CHECK(xboard_first_move(&e, (const char *const[]){"new", "post", "nps 20000", "st 1", "usermove e2e4", NULL}, line,
                            sizeof line, seen, sizeof seen));
    long long nodes = 0;
    for (char *p = seen; *p; p = strchr(p, '\n') + 1) {
        int depth, score, cs;
        long long n;
        if (sscanf(p, "%d %d %d %lld", &depth, &score, &cs, &n) == 4) nodes = n;
    }
    CHECK_MSG(nodes > 0 && nodes <= 20000 + 2048, "searched %lld nodes for 1 s at 20000 nps", nodes);
    engine_send_lines(&e, (const char *const[]){"nps 0", "st 0.3", "usermove d2d4", NULL});
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no move under nps 0");
    quit(&e);
}

/* With option Resign the engine gives up a hopeless game after three searches. */
TEST(tournament, xboard_resigns_when_allowed) {
    Engine e;
    char features[8192], line[8192];
    const char *fen = "7k/8/8/8/8/8/R7/1Q4K1 b - - 0 1";
    xboard_open(&e, features, sizeof features);
    CHECK(strstr(features, "feature option=\"Resign -check 0\""));
    engine_send_lines(&e, (const char *const[]){"new", "option Resign=1", "force", NULL});
    engine_send(&e, "setboard %s", fen);
    engine_send(&e, "sd 4");
    engine_send(&e, "go");
    static Position pos;
    CHECK(pos_set_fen(&pos, fen, NULL, 0));
    for (int search = 1; search <= 3; search++) {
        CHECK_MSG(engine_line(&e, line, sizeof line, SEARCH_TIMEOUT_MS), "search %d: no answer", search);
        if (!strncmp(line, "resign", 6)) {
            CHECK_MSG(search == 3, "resigned at search %d", search);
            break;
        }
        if (strncmp(line, "move ", 5)) {
            search--; /* thinking output or info */
            continue;
        }
        CHECK_MSG(search < 3, "search 3 moved: %s", line);
        Move m = move_from_uci(&pos, line + 5);
        CHECK(m != MOVE_NONE);
        if (m == MOVE_NONE) break;
        pos_make_move(&pos, m);
        /* a quiet white king move that leaves Black something to play */
        MoveList list;
        generate_legal(&pos, &list);
        Move reply = MOVE_NONE;
        for (int i = 0; i < list.count && reply == MOVE_NONE; i++) {
            if (pos.board[move_from(list.moves[i])] != W_KING) continue;
            pos_make_move(&pos, list.moves[i]);
            if (count_legal_moves(&pos) > 0 && !pos_in_check(&pos)) reply = list.moves[i];
            pos_unmake_move(&pos);
        }
        CHECK(reply != MOVE_NONE);
        if (reply == MOVE_NONE) break;
        char text[8];
        move_to_uci(&pos, reply, text);
        pos_make_move(&pos, reply);
        engine_send(&e, "usermove %s", text);
    }
    quit(&e);
}

/* ------------------------------------------------------------------ book and strength */

/* A two-move book for the start position, e2e4 twice as heavy as d2d4. */
static bool write_start_book(const char *path) {
    static Position pos;
    pos_set_startpos(&pos);
    uint64_t key = book_key(&pos);
    unsigned moves[2][2] = {{28 | 12 << 6, 2}, {27 | 11 << 6, 1}}; /* e2e4, d2d4 as polyglot codes */
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    for (int i = 0; i < 2; i++) {
        unsigned char b[16] = {0};
        for (int k = 0; k < 8; k++) b[k] = (unsigned char)(key >> (56 - 8 * k));
        b[8] = (unsigned char)(moves[i][0] >> 8), b[9] = (unsigned char)moves[i][0];
        b[11] = (unsigned char)moves[i][1];
        fwrite(b, 1, sizeof b, f);
    }
    return fclose(f) == 0;
}

TEST(tournament, book_in_both_protocols) {
    char path[] = "/tmp/squall-book-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(write_start_book(path));
    Engine e;
    char line[8192], seen[16384];
    uci_open(&e);
    engine_send(&e, "setoption name BookFile value %s", path);
    engine_send(&e, "setoption name BookFile value /nonexistent.bin"); /* refused: the book stays */
    engine_send(&e, "book");
    CHECK(engine_expect(&e, "book: 2 moves", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "info string error: setoption: cannot open book"), "%s", seen);
    CHECK(engine_line(&e, line, sizeof line, READ_TIMEOUT_MS) && strstr(line, "e2e4") && strstr(line, "66.7%"));
    engine_send(&e, "position startpos");
    engine_send(&e, "go depth 3"); /* OwnBook is off by default */
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "book move"), "%s", seen);
    engine_send_lines(&e, (const char *const[]){"setoption name OwnBook value true",
                                                "setoption name BookChoice value best", "go depth 30", NULL});
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strcmp(line, "bestmove e2e4") && strstr(seen, "info string book move e2e4"), "%s%s", seen, line);
    engine_send(&e, "setoption name BookChoice value weighted");
    int d4 = 0;
    for (int i = 0; i < 30; i++) {
        engine_send(&e, "go wtime 1000 btime 1000");
        CHECK(engine_expect(&e, "bestmove ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0));
        d4 += !strcmp(line, "bestmove d2d4");
    }
    CHECK_MSG(d4 > 0 && d4 < 30, "weighted choice gave d2d4 %d times in 30", d4);
    engine_send(&e, "position startpos moves e2e4"); /* out of book: a search */
    engine_send(&e, "go depth 2");
    CHECK(engine_expect(&e, "bestmove ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0));
    CHECK(legal_in(START_FEN, "e2e4", bestmove_of(line)));
    quit(&e);

    char features[8192];
    xboard_open(&e, features, sizeof features);
    CHECK(strstr(features, "feature option=\"OwnBook -check 0\"") && strstr(features, "feature option=\"BookFile -file"));
    engine_send(&e, "option BookFile=%s", path);
    engine_send_lines(&e, (const char *const[]){"option OwnBook=1", "option BookChoice=best", "new", "bk", NULL});
    CHECK(engine_line(&e, line, sizeof line, READ_TIMEOUT_MS) && !strcmp(line, " e4 2 (66.7%)"));
    CHECK(engine_line(&e, line, sizeof line, READ_TIMEOUT_MS) && !strcmp(line, " d4 1 (33.3%)"));
    CHECK(engine_line(&e, line, sizeof line, READ_TIMEOUT_MS) && line[0] == '\0');
    engine_send(&e, "go");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0) && !strcmp(line, "move e2e4"), "%s", line);
    quit(&e);
    unlink(path);
}

TEST(tournament, uci_limit_strength) {
    Engine e;
    char line[8192], seen[1 << 16];
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK(strstr(seen, "option name UCI_LimitStrength type check default false\n"));
    CHECK(strstr(seen, "option name UCI_Elo type spin default 2000 min 1000 max 2600\n"));
    CHECK_MSG(!strstr(seen, "Resign"), "an xboard-only option offered to UCI");
    engine_send_lines(&e, (const char *const[]){"setoption name UCI_Elo value 999",
                                                "setoption name UCI_LimitStrength value true",
                                                "setoption name UCI_Elo value 1000", "isready", NULL});
    CHECK(engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(strstr(seen, "info string error: setoption: option 'UCI_Elo': '999'") && !strstr(strstr(seen, "999") + 3, "error"), "%s", seen);
    char first[16] = "";
    bool differ = false;
    for (int i = 0; i < 12; i++) {
        engine_send(&e, "position startpos moves e2e4 e7e5 g1f3");
        engine_send(&e, "go depth 30"); /* the Elo's node budget ends it */
        CHECK(engine_expect(&e, "bestmove ", line, sizeof line, READ_TIMEOUT_MS, seen, sizeof seen));
        CHECK(legal_in(START_FEN, "e2e4 e7e5 g1f3", bestmove_of(line)));
        check_pv_matches(seen, line, "UCI_Elo 1000");
        if (!first[0]) snprintf(first, sizeof first, "%s", line);
        differ |= strcmp(first, line) != 0;
    }
    CHECK_MSG(differ, "twelve searches at Elo 1000 all answered %s", first);
    quit(&e);
}
