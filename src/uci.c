/* UCI protocol. The main thread parses commands; searches run on their own threads and
 * print through the callbacks below, so stop/isready/ponderhit are answered at once. */
#include "uci.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_io.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "threads.h"
#include "version.h"

/* ---------- thinking output ---------- */

/* Rough win/draw/loss per mille from a centipawn score (logistic model: 50% win at
 * +180 cp, spread 60 cp). Only shown with UCI_ShowWDL; not fitted to game data yet. */
static void wdl_from_score(int score, int *win, int *draw, int *loss) {
    if (score_is_mate(score)) {
        *win = score > 0 ? 1000 : 0, *loss = score > 0 ? 0 : 1000, *draw = 0;
        return;
    }
    *win = (int)lround(1000.0 / (1.0 + exp((180.0 - score) / 60.0)));
    *loss = (int)lround(1000.0 / (1.0 + exp((180.0 + score) / 60.0)));
    *draw = 1000 - *win - *loss;
}

static void uci_report(const SearchReport *r, void *ctx) {
    (void)ctx;
    char line[8192];
    size_t n = (size_t)snprintf(line, sizeof line, "info depth %d seldepth %d multipv %d score ", r->depth, r->seldepth,
                                r->multipv > 0 ? r->multipv : 1);
    if (score_is_mate(r->score)) n += (size_t)snprintf(line + n, sizeof line - n, "mate %d", score_mate_moves(r->score));
    else n += (size_t)snprintf(line + n, sizeof line - n, "cp %d", r->score);
    if (r->bound == BOUND_LOWER) n += (size_t)snprintf(line + n, sizeof line - n, " lowerbound");
    else if (r->bound == BOUND_UPPER) n += (size_t)snprintf(line + n, sizeof line - n, " upperbound");
    if (engine_options.show_wdl) {
        int w, d, l;
        wdl_from_score(r->score, &w, &d, &l);
        n += (size_t)snprintf(line + n, sizeof line - n, " wdl %d %d %d", w, d, l);
    }
    n += (size_t)snprintf(line + n, sizeof line - n, " nodes %llu nps %llu hashfull %d time %lld",
                          (unsigned long long)r->nodes, (unsigned long long)r->nps, r->hashfull, (long long)r->time_ms);
    if (r->pv_length > 0) n += (size_t)snprintf(line + n, sizeof line - n, " pv");
    for (int i = 0; i < r->pv_length && i < MAX_PLY && n + 8 < sizeof line; i++) {
        char mv[8];
        move_to_uci(r->pv[i], mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
    }
    io_printf("%s\n", line);
}

static void uci_bestmove(Move best, Move ponder, void *ctx) {
    (void)ctx;
    char b[8], p[8];
    move_to_uci(best, b); /* "0000" when there is no legal move */
    if (best != MOVE_NONE && ponder != MOVE_NONE) {
        move_to_uci(ponder, p);
        io_printf("bestmove %s ponder %s\n", b, p);
    } else {
        io_printf("bestmove %s\n", b);
    }
}

static void uci_currmove(int depth, Move move, int number, void *ctx) {
    (void)ctx;
    char mv[8];
    move_to_uci(move, mv);
    io_printf("info depth %d currmove %s currmovenumber %d\n", depth, mv, number);
}

SearchOutput uci_search_output(void) {
    return (SearchOutput){.report = uci_report, .bestmove = uci_bestmove, .currmove = uci_currmove, .ctx = NULL};
}

/* ---------- commands ---------- */

static bool is_go_keyword(const char *w) {
    static const char *keys[] = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime",
                                 "mate", "infinite", "ponder", "searchmoves", "perft", NULL};
    for (int i = 0; keys[i]; i++)
        if (!strcmp(w, keys[i])) return true;
    return false;
}

bool uci_parse_go(char **w, int n, const Position *pos, SearchLimits *limits, int *perft_depth, bool *has_limit) {
    search_limits_clear(limits);
    *perft_depth = 0;
    *has_limit = false;
    for (int i = 0; i < n; i++) {
        const char *key = w[i];
        if (!strcmp(key, "infinite")) {
            limits->infinite = true, *has_limit = true;
            continue;
        }
        if (!strcmp(key, "ponder")) {
            limits->ponder = true, *has_limit = true;
            continue;
        }
        if (!strcmp(key, "searchmoves")) {
            limits->searchmoves_count = 0;
            while (i + 1 < n && !is_go_keyword(w[i + 1])) {
                Move m = move_from_uci(pos, w[++i]);
                if (m == MOVE_NONE) {
                    io_error("go: searchmoves: illegal move '%s'", w[i]);
                    return false;
                }
                if (limits->searchmoves_count < MAX_MOVES) limits->searchmoves[limits->searchmoves_count++] = m;
            }
            if (limits->searchmoves_count == 0) {
                io_error("go: searchmoves needs at least one move");
                return false;
            }
            continue;
        }
        if (!is_go_keyword(key)) {
            io_error("go: unknown parameter '%s'", key);
            return false;
        }
        long v;
        bool clock = !strcmp(key, "wtime") || !strcmp(key, "btime");
        /* GUIs may send a negative clock once the flag has fallen: read it as zero. */
        long min = clock ? -1000000000L : !strcmp(key, "perft") || !strcmp(key, "depth") || !strcmp(key, "mate") ? 1 : 0;
        long max = !strcmp(key, "depth") ? MAX_PLY - 1 : !strcmp(key, "perft") ? 20 : !strcmp(key, "mate") ? 100 : 1000000000000000L;
        if (i + 1 >= n || !parse_long(w[i + 1], min, max, &v)) {
            io_error("go: %s needs an integer in %ld..%ld", key, min < 0 ? 0 : min, max);
            return false;
        }
        i++;
        if (clock) {
            limits->time[key[0] == 'w' ? WHITE : BLACK] = v < 0 ? 0 : v;
            *has_limit = true;
        } else if (!strcmp(key, "winc")) limits->inc[WHITE] = v;
        else if (!strcmp(key, "binc")) limits->inc[BLACK] = v;
        else if (!strcmp(key, "movestogo")) limits->movestogo = (int)v;
        else if (!strcmp(key, "depth")) limits->depth = (int)v, *has_limit = true;
        else if (!strcmp(key, "nodes")) limits->nodes = (uint64_t)v, *has_limit = true;
        else if (!strcmp(key, "movetime")) limits->movetime = v, *has_limit = true;
        else if (!strcmp(key, "mate")) limits->mate = (int)v, *has_limit = true;
        else if (!strcmp(key, "perft")) *perft_depth = (int)v;
    }
    return true;
}

bool uci_position(char **w, int n) {
    char fen[512], err[256];
    int i = 0;
    if (n >= 1 && !strcmp(w[0], "startpos")) {
        snprintf(fen, sizeof fen, "%s", START_FEN);
        i = 1;
    } else if (n >= 1 && !strcmp(w[0], "fen")) {
        i = 1;
        while (i < n && strcmp(w[i], "moves")) i++;
        join_words(w, 1, i, fen, sizeof fen);
    } else {
        io_error("position: expected 'startpos' or 'fen', got '%s'", n ? w[0] : "");
        snprintf(session.unplayable, sizeof session.unplayable, "position: neither startpos nor fen");
        return false;
    }
    int first_move = n, move_count = 0;
    if (i < n) {
        if (strcmp(w[i], "moves")) {
            io_error("position: unexpected '%s'", w[i]);
            snprintf(session.unplayable, sizeof session.unplayable, "position: unexpected '%s'", w[i]);
            return false;
        }
        first_move = i + 1, move_count = n - i - 1;
    }
    if (!commands_set_game(fen, w + first_move, move_count, err, sizeof err)) {
        io_error("position: %s", err);
        return false;
    }
    return true;
}

void uci_setoption(char **w, int n) {
    int value_at = -1;
    for (int i = 1; i < n; i++)
        if (!strcmp(w[i], "value")) {
            value_at = i;
            break;
        }
    if (n < 2 || strcmp(w[0], "name")) {
        io_error("usage: setoption name NAME [value VALUE]");
        return;
    }
    char name[256], value[1024], err[256];
    int name_end = value_at < 0 ? n : value_at;
    join_words(w, 1, name_end, name, sizeof name);
    if (value_at >= 0) join_words(w, value_at + 1, n, value, sizeof value);
    const OptionInfo *opt = options_find(name);
    if (opt && opt->needs_idle) commands_stop_search();
    if (!options_set(name, value_at >= 0 ? value : NULL, err, sizeof err)) io_error("setoption: %s", err);
}

static void uci_identify(void) {
    io_printf("id name %s %s\nid author %s\n", ENGINE_NAME, squall_version, ENGINE_AUTHOR);
    for (int i = 0; i < options_count(); i++) {
        char line[1024];
        if (options_info(i)->xboard_only) continue;
        options_uci_line(options_info(i), line, sizeof line);
        io_printf("%s\n", line);
    }
    io_printf("uciok\n");
}

static void uci_go(char **w, int n) {
    SearchLimits limits;
    int perft_depth;
    bool has_limit;
    if (session.unplayable[0]) { /* never a move of some earlier position */
        commands_stop_search();
        io_info("no position to search: %s", session.unplayable);
        io_printf("bestmove 0000\n");
        return;
    }
    if (!uci_parse_go(w, n, &session.game.pos, &limits, &perft_depth, &has_limit)) return;
    if (perft_depth > 0) {
        commands_perft(perft_depth);
        return;
    }
    Move book_move;
    if (!limits.infinite && !limits.ponder && !limits.searchmoves_count && commands_book_move(&session.game.pos, &book_move)) {
        commands_stop_search();
        uci_bestmove(book_move, MOVE_NONE, NULL);
        return;
    }
    if (!has_limit) { /* a bare "go": the sd/sn/st limits if set, else until stop */
        limits.depth = session.depth_limit;
        limits.nodes = session.node_limit;
        limits.movetime = session.movetime_ms;
        limits.infinite = !limits.depth && !limits.nodes && !limits.movetime;
    }
    SearchOutput out = uci_search_output();
    commands_start_search(&session.game.pos, &limits, &out);
}

CommandResult uci_command(char *line, char **words, int n) {
    CommandResult result = CMD_DONE;
    const char *cmd = words[0];
    if (!strcmp(cmd, "uci")) {
        uci_identify();
    } else if (!strcmp(cmd, "isready")) {
        io_printf("readyok\n");
    } else if (!strcmp(cmd, "ucinewgame")) {
        commands_new_game();
    } else if (!strcmp(cmd, "position")) {
        uci_position(words + 1, n - 1);
    } else if (!strcmp(cmd, "go")) {
        uci_go(words + 1, n - 1);
    } else if (!strcmp(cmd, "stop")) {
        search_stop();
    } else if (!strcmp(cmd, "ponderhit")) {
        session.open_ended = false; /* now a normal timed search that ends by itself */
        search_ponderhit();
    } else if (!strcmp(cmd, "setoption")) {
        uci_setoption(words + 1, n - 1);
    } else if (!strcmp(cmd, "quit")) {
        result = CMD_QUIT;
    } else if (!strcmp(cmd, "debug") || !strcmp(cmd, "register")) {
        /* accepted and ignored */
    } else {
        result = commands_shared(line);
        if (result == CMD_UNKNOWN) {
            result = CMD_DONE;
            io_error("unknown command '%s'", cmd);
        }
    }
    return result;
}
