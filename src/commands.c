/* The services every protocol front end shares and the engine commands of every prompt,
 * EPD suites among them. */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "book.h"
#include "engine_io.h"
#include "evaluate.h"
#include "movegen.h"
#include "nnue.h"
#include "notation.h"
#include "options.h"
#include "perft.h"
#include "regular_file.h"
#include "threads.h"

#define EPD_DEFAULT_MOVETIME_MS 1000

Session session;

void session_init(void) {
    game_init(&session.game);
    session.depth_limit = 0;
    session.node_limit = 0;
    session.movetime_ms = 0;
    session.script_depth = 0;
    session.open_ended = session.infinite = false;
    session.unplayable[0] = '\0';
}

bool commands_set_game(const char *fen, char *const *moves, int move_count, char *err, size_t err_size) {
    static Position check;
    char repaired[256], dropped[64];
    if (!pos_set_fen(&check, fen, err, err_size) &&
        game_fen_without_unusable_rights(fen, repaired, sizeof repaired, dropped, sizeof dropped)) {
        io_info("position: ignored %s, which the position cannot have", dropped);
        fen = repaired;
    }
    if (!game_set(&session.game, fen, moves, move_count, err, err_size)) {
        snprintf(session.unplayable, sizeof session.unplayable, "%s", err);
        return false;
    }
    session.unplayable[0] = '\0';
    return true;
}

/* ---------- small parsing helpers ---------- */

char **split_all_words(char *line, int *count) {
    int n = 0;
    for (const char *p = line; *p;) { /* count first: a line may hold any number of words */
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        n++;
        while (*p && !isspace((unsigned char)*p)) p++;
    }
    char **words = malloc(((size_t)n + 1) * sizeof *words);
    *count = words ? split_words(line, words, n) : 0;
    return words;
}

int split_words(char *line, char **words, int max) {
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        words[n++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

bool parse_long(const char *text, long min, long max, long *out) {
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

bool parse_seconds(const char *text, double max, double *out) {
    /* digits with at most one decimal point: no sign, exponent, hex, inf or nan */
    if (!text || !*text || strspn(text, "0123456789.") != strlen(text) || strchr(text, '.') != strrchr(text, '.') ||
        !strpbrk(text, "0123456789"))
        return false;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < 0 || v > max) return false;
    *out = v;
    return true;
}

void join_words(char *const *words, int from, int to, char *out, size_t out_size) {
    size_t n = 0;
    out[0] = '\0';
    for (int i = from; i < to && n < out_size; i++)
        n += (size_t)snprintf(out + n, out_size - n, "%s%s", i > from ? " " : "", words[i]);
}

/* ---------- search bookkeeping ---------- */

/* A new number from the clock-seeded sequence: book draws and the weakened move choice. */
uint64_t commands_random(void) {
    static uint64_t state;
    if (!state) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        state = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec;
    }
    state ^= state << 13, state ^= state >> 7, state ^= state << 17; /* xorshift64 */
    return state;
}

void commands_start_search(const Position *root, const SearchLimits *limits, const SearchOutput *output) {
    SearchLimits game_limits = *limits; /* a game's clock runs through the GUI: keep its margin */
    game_limits.move_overhead_ms = engine_options.move_overhead_ms;
    EngineSettings settings = engine_options.settings;
    settings.strength_elo = engine_options.limit_strength ? engine_options.strength_elo : 0;
    settings.strength_seed = commands_random();
    session.open_ended = limits->infinite || limits->ponder;
    session.infinite = limits->infinite;
    search_start(root, &game_limits, &settings, output);
}

bool commands_book_move(const Position *pos, Move *move) {
    if (!engine_options.own_book || !book_is_open()) return false;
    *move = book_choose(pos, engine_options.book_weighted, commands_random());
    if (*move == MOVE_NONE) return false;
    char mv[8];
    move_to_uci(pos, *move, mv);
    io_info("book move %s", mv);
    return true;
}

void commands_stop_search(void) {
    search_stop();
    search_wait();
    session.open_ended = false;
}

void commands_new_game(void) {
    char err[256];
    commands_stop_search();
    search_clear();
    commands_set_game(START_FEN, NULL, 0, err, sizeof err);
}

/* ---------- engine commands ---------- */

void commands_perft(int depth) {
    commands_stop_search();
    FILE *out = io_stream();
    perft_divide(&session.game.pos, depth, out);
    fflush(out);
}

static void cmd_perft(char **words, int count) {
    long depth;
    if (count != 2 || !parse_long(words[1], 1, 20, &depth)) {
        io_error("usage: %s DEPTH (1..20)", words[0]);
        return;
    }
    commands_perft((int)depth);
}

static void cmd_board(void) {
    char text[4096];
    pos_print(&session.game.pos, text, sizeof text);
    io_printf("%s", text);
}

/* eval: the value the search uses; nnue: the net's parts; dump nnuefeatures: active indices. */
static void cmd_eval(const char *what) {
    commands_stop_search(); /* the evaluators are single-threaded helpers */
    FILE *out = io_stream();
    const Position *pos = &session.game.pos;
    if (!strcmp(what, "eval")) evaluate_print(pos, &engine_options.settings, out);
    else if (strcmp(what, "nnue")) nnue_print_features(pos, out); /* needs no net */
    else if (!nnue_is_loaded()) io_info("nnue: no net loaded");
    else nnue_trace(pos, out);
    fflush(out);
}

static void cmd_bench(char **words, int count) {
    long depth = BENCH_DEFAULT_DEPTH;
    if (count > 2 || (count == 2 && !parse_long(words[1], 1, 64, &depth))) {
        io_error("usage: bench [DEPTH 1..64]");
        return;
    }
    commands_stop_search();
    FILE *out = io_stream();
    bench_run((int)depth, &engine_options.settings, out, 1);
    fflush(out);
}

static void cmd_setboard(char **words, int count) {
    char fen[512], err[256];
    join_words(words, 1, count, fen, sizeof fen);
    if (count < 2) {
        io_error("usage: setboard FEN");
        return;
    }
    if (!commands_set_game(fen, NULL, 0, err, sizeof err)) io_error("bad FEN: %s", err);
}

static void cmd_limit(char **words, int count) {
    bool ok = count == 2;
    if (ok && !strcmp(words[0], "sd")) {
        long v;
        if ((ok = parse_long(words[1], 0, MAX_PLY - 1, &v))) session.depth_limit = (int)v;
    } else if (ok && !strcmp(words[0], "sn")) {
        long v;
        if ((ok = parse_long(words[1], 0, 1000000000000000L, &v))) session.node_limit = (uint64_t)v;
    } else if (ok) {
        double s;
        if ((ok = parse_seconds(words[1], 1e7, &s))) session.movetime_ms = (int64_t)(s * 1000.0 + 0.5);
    }
    if (!ok) {
        const char *what = !strcmp(words[0], "sd") ? "DEPTH (0..127, 0 = none)"
                         : !strcmp(words[0], "sn") ? "NODES (0 = none)" : "SECONDS (0 = none)";
        io_error("usage: %s %s", words[0], what);
    }
}

/* The book's moves for the current position with their weights. */
static void cmd_book(void) {
    if (!book_is_open()) {
        io_error("book: no book open (set the option BookFile)");
        return;
    }
    const Position *pos = &session.game.pos;
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_moves(pos, moves, BOOK_MAX_MOVES);
    long total = 0;
    for (int i = 0; i < count; i++) total += moves[i].weight;
    io_printf("book: %d move%s, key %016llX\n", count, count == 1 ? "" : "s", (unsigned long long)book_key(pos));
    for (int i = 0; i < count; i++) {
        char mv[8];
        move_to_uci(pos, moves[i].move, mv);
        io_printf("  %-6s %6d  %5.1f%%\n", mv, moves[i].weight, total ? 100.0 * moves[i].weight / (double)total : 0.0);
    }
}

static void print_help(void) {
    static const char *common =
        "Engine commands (every prompt):\n"
        "  perft N | go perft N | divide N   count leaf nodes (per move, then total)\n"
        "  d                      show the board, FEN, key and checkers\n"
        "  eval | nnue            static evaluation / raw net output\n"
        "  dump nnuefeatures      active NNUE feature indices of both perspectives\n"
        "  bench [DEPTH]          fixed search benchmark (Nodes searched, Nodes/second)\n"
        "  setboard FEN           set the position\n"
        "  sd N | sn N | st SEC   depth / node / time-per-move limits for go (0 = none)\n"
        "  script FILE            run commands from a file, one per line\n"
        "  epd FILE [depth D|nodes N|movetime MS]   run an EPD test suite (bm/am)\n"
        "  book                   the BookFile's moves and weights for this position\n"
        "  help                   this text\n";
    static const char *terminal =
        "Terminal commands:\n"
        "  uci | xboard           switch to that protocol\n"
        "  position [startpos|fen F] [moves ...]   set up a game (UCI style)\n"
        "  new                    start position, new game\n"
        "  MOVE ... | usermove M  play moves (coordinates or SAN)\n"
        "  undo                   take back one move\n"
        "  go [UCI go options]    search (uses sd/sn/st when no limit is given); prints bestmove\n"
        "  stop                   end a running search\n"
        "  setoption name N [value V]   change an option\n"
        "  isready                answers readyok\n"
        "  quit                   leave\n";
    static const char *uci =
        "UCI commands: uci isready ucinewgame position go stop ponderhit setoption quit\n";
    static const char *xboard =
        "xboard commands: protover new force go playother usermove level st sd nps time otim ? ping draw\n"
        "  result setboard undo remove hard easy post nopost analyze exit . memory cores option quit\n";
    io_printf("%s%s", common, io_protocol == PROTO_UCI ? uci : io_protocol == PROTO_XBOARD ? xboard : terminal);
}

/* ---- EPD test suites ---- */

typedef struct {
    Move moves[16];
    int count;
    char text[128];
} EpdMoveSet;

/* Parses the operands of a bm/am operation; each must be a legal move (SAN or UCI). */
static bool epd_moves(const Position *pos, char *operands, EpdMoveSet *set) {
    char *words[16];
    snprintf(set->text, sizeof set->text, "%s", operands);
    int n = split_words(operands, words, 16);
    for (int i = 0; i < n; i++) {
        Move m = move_from_text(pos, words[i]);
        if (m == MOVE_NONE) return false;
        if (set->count < 16) set->moves[set->count++] = m;
    }
    return n > 0;
}

static bool epd_contains(const EpdMoveSet *set, Move m) {
    for (int i = 0; i < set->count; i++)
        if (set->moves[i] == m) return true;
    return false;
}

static void cmd_epd(char **words, int count) {
    if (count < 2 || count % 2 != 0) {
        io_error("usage: epd FILE [depth D | nodes N | movetime MS]");
        return;
    }
    SearchLimits limits;
    search_limits_clear(&limits);
    bool limited = false;
    for (int i = 2; i + 1 < count; i += 2) {
        long v;
        if (!strcmp(words[i], "depth") && parse_long(words[i + 1], 1, MAX_PLY - 1, &v)) limits.depth = (int)v;
        else if (!strcmp(words[i], "nodes") && parse_long(words[i + 1], 1, 1000000000000000L, &v)) limits.nodes = (uint64_t)v;
        else if (!strcmp(words[i], "movetime") && parse_long(words[i + 1], 1, 100000000L, &v)) limits.movetime = v;
        else {
            io_error("epd: bad limit '%s %s' (depth D | nodes N | movetime MS)", words[i], words[i + 1]);
            return;
        }
        limited = true;
    }
    if (!limited) { /* fall back on sd/sn/st, then on a fixed time */
        limits.depth = session.depth_limit;
        limits.nodes = session.node_limit;
        limits.movetime = session.movetime_ms;
        if (!limits.depth && !limits.nodes && !limits.movetime) limits.movetime = EPD_DEFAULT_MOVETIME_MS;
    }
    char why[256];
    FILE *f = regular_file_open(words[1], NULL, why, sizeof why);
    if (!f) {
        io_error("epd: cannot open '%s': %s", words[1], why);
        return;
    }
    commands_stop_search();
    static Position pos;
    char *line = NULL;
    size_t cap = 0;
    int line_no = 0, total = 0, solved = 0;
    while (getline(&line, &cap, f) >= 0) {
        line_no++;
        char *fields[4], *p = line;
        int nf = 0;
        while (nf < 4) { /* the first four fields are the position */
            while (isspace((unsigned char)*p)) p++;
            if (!*p) break;
            fields[nf++] = p;
            while (*p && !isspace((unsigned char)*p)) p++;
            if (*p) *p++ = '\0';
        }
        if (nf == 0 || fields[0][0] == '#') continue;
        char fen[256], err[256];
        if (nf < 4) {
            io_error("epd line %d: fewer than four position fields", line_no);
            continue;
        }
        snprintf(fen, sizeof fen, "%s %s %s %s 0 1", fields[0], fields[1], fields[2], fields[3]);
        if (!pos_set_fen(&pos, fen, err, sizeof err)) {
            io_error("epd line %d: bad position: %s", line_no, err);
            continue;
        }
        EpdMoveSet bm = {.count = 0}, am = {.count = 0};
        char id[64] = "";
        bool bad = false;
        for (char *save, *op = strtok_r(p, ";", &save); op; op = strtok_r(NULL, ";", &save)) {
            while (isspace((unsigned char)*op)) op++;
            char *rest = op;
            while (*rest && !isspace((unsigned char)*rest)) rest++;
            if (*rest) *rest++ = '\0';
            if (!strcmp(op, "bm")) bad |= !epd_moves(&pos, rest, &bm);
            else if (!strcmp(op, "am")) bad |= !epd_moves(&pos, rest, &am);
            else if (!strcmp(op, "id")) {
                while (isspace((unsigned char)*rest) || *rest == '"') rest++;
                snprintf(id, sizeof id, "%s", rest);
                char *q = strchr(id, '"');
                if (q) *q = '\0';
            }
        }
        if (bad || (!bm.count && !am.count)) {
            io_error("epd line %d: %s", line_no, bad ? "bm/am move not legal here" : "no bm or am operation");
            continue;
        }
        SearchResult r = search_sync(&pos, &limits, &engine_options.settings);
        bool ok = (!bm.count || epd_contains(&bm, r.best)) && !epd_contains(&am, r.best);
        char found[16] = "none";
        if (r.best != MOVE_NONE) move_to_san(&pos, r.best, found);
        total++, solved += ok;
        io_printf("%4d %-16s %-10s found %-8s %s %s\n", total, id[0] ? id : "-", ok ? "solved" : "not solved", found,
                  bm.count ? "bm" : "am", bm.count ? bm.text : am.text);
    }
    free(line);
    fclose(f);
    io_printf("solved %d of %d\n", solved, total);
}

CommandResult commands_shared(char **words, int count) {
    if (count == 0) return CMD_DONE;
    const char *cmd = words[0];
    if (!strcmp(cmd, "perft") || !strcmp(cmd, "divide")) cmd_perft(words, count);
    else if (!strcmp(cmd, "d")) cmd_board();
    else if (!strcmp(cmd, "eval") || !strcmp(cmd, "nnue")) cmd_eval(cmd);
    else if (!strcmp(cmd, "dump")) {
        if (count == 2 && !strcmp(words[1], "nnuefeatures")) cmd_eval(words[1]);
        else io_error("usage: dump nnuefeatures");
    } else if (!strcmp(cmd, "bench")) cmd_bench(words, count);
    else if (!strcmp(cmd, "help")) print_help();
    else if (!strcmp(cmd, "setboard")) cmd_setboard(words, count);
    else if (!strcmp(cmd, "sd") || !strcmp(cmd, "sn") || !strcmp(cmd, "st")) cmd_limit(words, count);
    else if (!strcmp(cmd, "epd")) cmd_epd(words, count);
    else if (!strcmp(cmd, "book") && count == 1) cmd_book();
    else return CMD_UNKNOWN;
    return CMD_DONE;
}

/* A word that reads like a move in either notation, so "illegal move" is the right complaint. */
bool commands_looks_like_move(const char *w) {
    size_t n = strlen(w);
    if (n >= 4 && n <= 5 && w[0] >= 'a' && w[0] <= 'h' && w[1] >= '1' && w[1] <= '8' && w[2] >= 'a' && w[2] <= 'h' &&
        w[3] >= '1' && w[3] <= '8')
        return true;
    if (!strncmp(w, "O-O", 3) || !strncmp(w, "0-0", 3)) return true;
    if (n >= 2 && n <= 8 && strchr("KQRBNabcdefgh", w[0]) && strpbrk(w, "12345678")) return true;
    return false;
}
