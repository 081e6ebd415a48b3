/* UCI protocol. The main thread parses commands; searches run on their own threads and
 * print through the callbacks below, so stop/isready/ponderhit are answered at once. */
#include "uci.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
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
    const Position *root = ctx;
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
        move_to_uci(root, r->pv[i], mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
    }
    io_printf("%s\n", line);
}

static void uci_bestmove(Move best, Move ponder, void *ctx) {
    const Position *root = ctx;
    char b[8], p[8];
    move_to_uci(root, best, b); /* "0000" when there is no legal move */
    if (best != MOVE_NONE && ponder != MOVE_NONE) {
        move_to_uci(root, ponder, p);
        io_printf("bestmove %s ponder %s\n", b, p);
    } else {
        io_printf("bestmove %s\n", b);
    }
}

static void uci_currmove(int depth, Move move, int number, void *ctx) {
    const Position *root = ctx;
    char mv[8];
    move_to_uci(root, move, mv);
    io_printf("info depth %d currmove %s currmovenumber %d\n", depth, mv, number);
}

/* The root the output callbacks write moves against (castling in 960 needs its rooks): a
 * copy, so that a `position` arriving mid-search cannot change it under them. */
static Position output_root;

/* Searches the session game, printing "info ..." lines and "bestmove X [ponder Y]". */
static void start_search(const SearchLimits *limits) {
    commands_stop_search(); /* the previous search's callbacks are done with output_root */
    memcpy(&output_root, &session.game.pos, sizeof output_root);
    SearchOutput out = {.report = uci_report, .bestmove = uci_bestmove, .currmove = uci_currmove, .ctx = &output_root};
    commands_start_search(&session.game.pos, limits, &out);
}

/* ---------- commands ---------- */

/* ---- go: every go searches and ends in bestmove (or is a perft). A word that cannot be
 * read gets one error line and is skipped; numbers are clamped into their ranges. ---- */

#define GO_NUMBER_MAX 1000000000000000L /* ms or nodes: larger values are read as this */
#define SCRIPT_DEFAULT_MOVETIME_MS 5000 /* a bare go in a script or batch run, where nobody can send stop */

/* The go parameters that take a number, and the range each is clamped into. */
static const struct {
    const char *key;
    long min, max;
} go_numbers[] = {
    {"wtime", 0, GO_NUMBER_MAX}, {"btime", 0, GO_NUMBER_MAX},     {"winc", 0, GO_NUMBER_MAX},
    {"binc", 0, GO_NUMBER_MAX},  {"movestogo", 0, 1000000},       {"depth", 1, MAX_PLY - 1},
    {"nodes", 1, GO_NUMBER_MAX}, {"movetime", 1, GO_NUMBER_MAX}, {"mate", 1, 100},
    {"perft", 1, 20}, /* not clamped: a perft runs to its end */
};
#define GO_NUMBER_COUNT ((int)(sizeof go_numbers / sizeof go_numbers[0]))

static int go_number_index(const char *w) {
    for (int i = 0; i < GO_NUMBER_COUNT; i++)
        if (!strcmp(w, go_numbers[i].key)) return i;
    return -1;
}

static bool is_go_keyword(const char *w) {
    return go_number_index(w) >= 0 || !strcmp(w, "infinite") || !strcmp(w, "ponder") || !strcmp(w, "searchmoves");
}

/* A whole-word integer clamped into [min, max] (also when it overflows a long). */
static bool read_clamped(const char *text, long min, long max, long *out) {
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end) return false;
    *out = v < min ? min : v > max ? max : v;
    return true;
}

/* What a go line could not use, said in one error line however much there was. */
typedef struct {
    int count, shown;
    size_t len;
    char text[240];
} GoIgnored;

static void go_ignore(GoIgnored *g, const char *fmt, const char *a, const char *b) {
    g->count++;
    if (g->len + 64 > sizeof g->text) return; /* the rest is only counted */
    char part[96];
    snprintf(part, sizeof part, fmt, a, b);
    g->len += (size_t)snprintf(g->text + g->len, sizeof g->text - g->len, "%s%s", g->shown++ ? ", " : "", part);
}

static void go_searchmoves(char **w, int n, int *i, SearchLimits *limits, GoIgnored *ignored) {
    while (*i + 1 < n && !is_go_keyword(w[*i + 1])) {
        const char *text = w[++*i];
        Move m = move_from_uci(&session.game.pos, text);
        bool seen = false;
        for (int k = 0; k < limits->searchmoves_count; k++) seen |= limits->searchmoves[k] == m;
        if (m == MOVE_NONE) go_ignore(ignored, "searchmoves '%.20s' (not a legal move here)%s", text, "");
        else if (!seen && limits->searchmoves_count < MAX_MOVES) limits->searchmoves[limits->searchmoves_count++] = m;
    }
}

void uci_go(char **w, int n) {
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.clock_start_ms = time_now_ms(); /* the GUI's clock runs from the go, not from our setup */
    bool has_limit = false;
    long perft_depth = 0;
    GoIgnored ignored = {0};
    for (int i = 0; i < n; i++) {
        const char *key = w[i];
        if (!strcmp(key, "infinite") || !strcmp(key, "ponder")) {
            if (key[0] == 'i') limits.infinite = true;
            else limits.ponder = true;
            has_limit = true;
            continue;
        }
        if (!strcmp(key, "searchmoves")) {
            go_searchmoves(w, n, &i, &limits, &ignored);
            continue;
        }
        int k = go_number_index(key);
        if (k < 0) {
            go_ignore(&ignored, "'%.20s' (not a go parameter)%s", key, "");
            continue;
        }
        long v;
        if (i + 1 >= n || is_go_keyword(w[i + 1])) {
            go_ignore(&ignored, "%s (no number after it)%s", key, "");
            continue;
        }
        const char *text = w[++i];
        bool ok = k == go_number_index("perft") ? parse_long(text, 1, 20, &v)
                                                : read_clamped(text, go_numbers[k].min, go_numbers[k].max, &v);
        if (!ok) {
            go_ignore(&ignored, k == go_number_index("perft") ? "perft '%.20s%s' (not a depth in 1..20)" : "%s '%.20s' (not a whole number)",
                      k == go_number_index("perft") ? text : key, k == go_number_index("perft") ? "" : text);
            continue;
        }
        if (!strcmp(key, "wtime")) limits.time[WHITE] = v, has_limit = true;
        else if (!strcmp(key, "btime")) limits.time[BLACK] = v, has_limit = true;
        else if (!strcmp(key, "winc")) limits.inc[WHITE] = v;
        else if (!strcmp(key, "binc")) limits.inc[BLACK] = v;
        else if (!strcmp(key, "movestogo")) limits.movestogo = (int)v;
        else if (!strcmp(key, "depth")) limits.depth = (int)v, has_limit = true;
        else if (!strcmp(key, "nodes")) limits.nodes = (uint64_t)v, has_limit = true;
        else if (!strcmp(key, "movetime")) limits.movetime = v, has_limit = true;
        else if (!strcmp(key, "mate")) limits.mate = (int)v, has_limit = true;
        else perft_depth = v;
    }
    if (ignored.count > ignored.shown) io_error("go: ignored %s and %d more", ignored.text, ignored.count - ignored.shown);
    else if (ignored.count) io_error("go: ignored %s", ignored.text);
    if (session.unplayable[0]) { /* never a move of some earlier position */
        commands_stop_search();
        if (io_protocol != PROTO_UCI) { /* the prompt: an error, and no move at all */
            io_error("go: no position to search: %s", session.unplayable);
            return;
        }
        io_info("no position to search: %s", session.unplayable);
        io_printf("bestmove 0000\n");
        return;
    }
    if (perft_depth > 0) {
        commands_perft((int)perft_depth);
        return;
    }
    if (session.script_depth > 0 && (limits.infinite || limits.ponder)) {
        io_error("go %s: nothing can stop it in batch mode or a script; give depth, nodes or movetime",
                 limits.infinite ? "infinite" : "ponder");
        return;
    }
    Move book_move;
    if (!limits.infinite && !limits.ponder && !limits.searchmoves_count && commands_book_move(&session.game.pos, &book_move)) {
        commands_stop_search();
        uci_bestmove(book_move, MOVE_NONE, &session.game.pos);
        return;
    }
    int us = session.game.pos.side;
    if (limits.time[us] < 0 && limits.time[!us] >= 0) limits.time[us] = limits.time[!us]; /* one clock: read it as both */
    bool bounded = limits.time[us] >= 0 || limits.depth || limits.nodes || limits.movetime || limits.mate;
    if (limits.ponder && !bounded) limits.infinite = true; /* after ponderhit nothing would end it: it waits for stop */
    if (!has_limit) { /* a bare go: the sd/sn/st limits if set, else until stop */
        limits.depth = session.depth_limit;
        limits.nodes = session.node_limit;
        limits.movetime = session.movetime_ms;
        if (!limits.depth && !limits.nodes && !limits.movetime) {
            if (session.script_depth > 0) limits.movetime = SCRIPT_DEFAULT_MOVETIME_MS;
            else limits.infinite = true;
        }
    }
    start_search(&limits);
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
    else if (!strcmp(opt->name, "UCI_Chess960")) game_set_chess960(&session.game, engine_options.chess960);
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

CommandResult uci_command(char **words, int n) {
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
        session.open_ended = session.infinite; /* a ponder search now ends by itself; go infinite still waits for stop */
        search_ponderhit(NULL); /* the clock of go ponder stands */
    } else if (!strcmp(cmd, "setoption")) {
        uci_setoption(words + 1, n - 1);
    } else if (!strcmp(cmd, "quit")) {
        result = CMD_QUIT;
    } else if (!strcmp(cmd, "debug") || !strcmp(cmd, "register")) {
        /* accepted and ignored */
    } else {
        result = commands_shared(words, n);
        if (result == CMD_UNKNOWN) {
            result = CMD_DONE;
            io_error("unknown command '%s'", cmd);
        }
    }
    return result;
}
