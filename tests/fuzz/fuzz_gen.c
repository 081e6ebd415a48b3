/* Valid sessions of each protocol and mode, built from the engine's own move generator so
 * that moves, FENs and searchmoves are legal before the mutator gets at them.
 *
 * Values that would make a session run for minutes or take the machine's memory are not
 * generated: Hash/memory above 64 MB, more than 4 threads (or `cores` above 4, which the
 * engine clamps to 256 threads), perft/bench deeper than 2. Their refused neighbours (0,
 * past the maximum, not a number) are. Where nothing can stop a search (batch mode, and
 * sessions that end with end of input) every search is given a small limit. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "board.h"
#include "fuzz.h"
#include "fuzz_files.h"
#include "movegen.h"
#include "notation.h"

typedef struct {
    FuzzSession *s;
    FuzzRng *rng;
    Position pos; /* the position the valid session is in, as far as the generator knows */
    bool known;   /* false once the engine may have moved on its own (xboard) */
} Gen;

static const char *const good_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                              /* stalemate */
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", /* checkmated */
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",                         /* mate in one */
    "8/P7/8/8/8/8/k6K/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/R3K3 w Q - 99 80", /* one move from the fifty-move rule */
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 999 99999",
    "8/8/8/8/8/4k3/8/4K2R b K - 0 1",
};
#define GOOD_FEN_COUNT ((int)(sizeof good_fens / sizeof good_fens[0]))

static const char *const bad_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K2P w - - 0 1",
    "44k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "17k/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
    "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999999999",
    "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
    "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/4K3",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
    "4k3/8/8/8/8/8/8 w - - 0 1",
    "4k3/8/8/8/8/8/8/8/4K3 w - - 0 1",
    "4kk2/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4KK2 w - - 0 1",
    "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", /* the side not to move is in check */
    "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1\t",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/0/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
};
#define BAD_FEN_COUNT ((int)(sizeof bad_fens / sizeof bad_fens[0]))

/* Protocol words of every mode, for the mutator. perft, divide, bench, epd and script are
 * left out: with a random number they could run for hours. */
static const char *const words[] = {
    "uci", "isready", "ucinewgame", "position", "startpos", "fen", "moves", "go", "stop", "ponderhit",
    "setoption", "name", "value", "quit", "debug", "register", "wtime", "btime", "winc", "binc", "movestogo",
    "depth", "nodes", "movetime", "mate", "infinite", "ponder", "searchmoves", "xboard", "protover", "new",
    "force", "playother", "usermove", "level", "st", "sd", "sn", "nps", "time", "otim", "?", "ping", "draw",
    "result", "setboard", "undo", "remove", "hard", "easy", "post", "nopost", "analyze", "exit", ".", "hint",
    "memory", "cores", "option", "accepted", "rejected", "variant", "normal", "white", "black", "d", "eval",
    "nnue", "dump", "nnuefeatures", "help", "move", "Hash", "Threads", "MultiPV", "EvalFile", "Ponder",
    "e2e4", "e7e5", "e1g1", "e7e8q", "a7a8n", "0000", "a1a1", "O-O", "O-O-O", "Nf3", "exd5", "e8=Q", "Kxe2+",
    "1-0", "0-1", "1/2-1/2", "*", "{", "}", "=", "true", "false", "<embedded>", "-", "--", ";",
};
#define WORD_COUNT ((int)(sizeof words / sizeof words[0]))

const char *fuzz_random_word(FuzzRng *rng) { return words[fuzz_below(rng, WORD_COUNT)]; }

static const char *const numbers[] = {
    "0", "1", "-1", "2", "3", "5", "10", "63", "64", "65", "100", "126", "127", "128", "255", "256", "1000",
    "5000", "5001", "10000", "10001", "65535", "65536", "65537", "100000", "2147483647", "2147483648",
    "-2147483648", "-2147483649", "4294967296", "9223372036854775807", "9223372036854775808",
    "-9223372036854775808", "1000000000000000", "1000000000000001", "18446744073709551616",
    "99999999999999999999999999", "1e3", "1.5", "0.0", "-0", "+5", "0x10", "007", "nan", "inf", "-inf", "5x",
    "x5", "1,000", "١", "",
};
#define NUMBER_COUNT ((int)(sizeof numbers / sizeof numbers[0]))

void fuzz_random_number(FuzzRng *rng, char *out, size_t size) {
    if (fuzz_chance(rng, 3)) { /* far past any integer type */
        size_t n = 50 + (size_t)fuzz_below(rng, 400);
        if (n >= size) n = size - 1;
        for (size_t i = 0; i < n; i++) out[i] = (char)('0' + fuzz_below(rng, 10));
        out[n] = '\0';
        return;
    }
    snprintf(out, size, "%s", numbers[fuzz_below(rng, NUMBER_COUNT)]);
}

/* ---------- positions and moves ---------- */

static void set_model(Gen *g, const char *fen) {
    if (!pos_set_fen(&g->pos, fen, NULL, 0)) pos_set_startpos(&g->pos);
    g->known = true;
}

/* A random legal move of the model position, or MOVE_NONE when there is none. */
static Move random_move(Gen *g) {
    MoveList list;
    generate_legal(&g->pos, &list);
    return list.count ? list.moves[fuzz_below(g->rng, list.count)] : MOVE_NONE;
}

static void play(Gen *g, Move m) {
    pos_make_move(&g->pos, m);
    pos_trim_history(&g->pos);
}

/* Appends " m1 m2 ..." (up to count random legal moves, played on the model) to buf. */
static size_t append_moves(Gen *g, char *buf, size_t n, size_t size, int count, bool san) {
    for (int i = 0; i < count && n + 16 < size; i++) {
        Move m = random_move(g);
        if (m == MOVE_NONE) break;
        char text[16];
        if (san) move_to_san(&g->pos, m, text);
        else move_to_uci(&g->pos, m, text);
        n += (size_t)snprintf(buf + n, size - n, " %s", text);
        play(g, m);
    }
    return n;
}

static const char *random_fen(Gen *g, bool allow_bad) {
    if (allow_bad && fuzz_chance(g->rng, 20)) return bad_fens[fuzz_below(g->rng, BAD_FEN_COUNT)];
    return good_fens[fuzz_below(g->rng, GOOD_FEN_COUNT)];
}

/* `position ...` (UCI and the terminal): sometimes thousands of moves, once the issue's
 * 4,094-move case (knights out and back, then one more pair of moves). */
static void gen_position(Gen *g) {
    size_t size = 64 * 1024, n;
    char *buf = malloc(size);
    if (!buf) return;
    int pick = fuzz_below(g->rng, 100);
    if (pick < 3) {
        n = (size_t)snprintf(buf, size, "position startpos moves");
        int cycles = 1000 + fuzz_below(g->rng, 50);
        for (int i = 0; i < cycles; i++) n += (size_t)snprintf(buf + n, size - n, " g1f3 g8f6 f3g1 f6g8");
        n += (size_t)snprintf(buf + n, size - n, " e2e4 e7e5");
        set_model(g, START_FEN);
        play(g, move_from_uci(&g->pos, "e2e4"));
        play(g, move_from_uci(&g->pos, "e7e5"));
    } else {
        const char *fen = random_fen(g, true);
        bool start = !strcmp(fen, START_FEN) && fuzz_chance(g->rng, 70);
        n = start ? (size_t)snprintf(buf, size, "position startpos") : (size_t)snprintf(buf, size, "position fen %s", fen);
        set_model(g, fen);
        int count = pick < 8 ? 200 + fuzz_below(g->rng, 2000) : fuzz_below(g->rng, 30);
        if (count || fuzz_chance(g->rng, 30)) {
            n += (size_t)snprintf(buf + n, size - n, " moves");
            n = append_moves(g, buf, n, size, count, false);
        }
    }
    fuzz_add_line(g->s, buf, n);
    free(buf);
}

/* ---------- go ---------- */

static void number_or_small(Gen *g, char *out, size_t size, int small_max) {
    if (fuzz_chance(g->rng, 30)) fuzz_random_number(g->rng, out, size);
    else snprintf(out, size, "%d", 1 + fuzz_below(g->rng, small_max));
}

static void gen_go_unbounded(Gen *g) {
    char line[2048], a[512], b[512];
    size_t n = (size_t)snprintf(line, sizeof line, "go");
    int parts = fuzz_below(g->rng, 4);
    for (int i = 0; i < parts && n < sizeof line - 1200; i++) {
        switch (fuzz_below(g->rng, 10)) {
        case 0: number_or_small(g, a, sizeof a, 8), n += (size_t)snprintf(line + n, sizeof line - n, " depth %s", a); break;
        case 1: number_or_small(g, a, sizeof a, 20000), n += (size_t)snprintf(line + n, sizeof line - n, " nodes %s", a); break;
        case 2: number_or_small(g, a, sizeof a, 300), n += (size_t)snprintf(line + n, sizeof line - n, " movetime %s", a); break;
        case 3:
            number_or_small(g, a, sizeof a, 5000), number_or_small(g, b, sizeof b, 5000);
            n += (size_t)snprintf(line + n, sizeof line - n, " wtime %s btime %s", a, b);
            if (fuzz_chance(g->rng, 50)) {
                number_or_small(g, a, sizeof a, 100), number_or_small(g, b, sizeof b, 100);
                n += (size_t)snprintf(line + n, sizeof line - n, " winc %s binc %s", a, b);
            }
            break;
        case 4: number_or_small(g, a, sizeof a, 40), n += (size_t)snprintf(line + n, sizeof line - n, " movestogo %s", a); break;
        case 5: number_or_small(g, a, sizeof a, 5), n += (size_t)snprintf(line + n, sizeof line - n, " mate %s", a); break;
        case 6: n += (size_t)snprintf(line + n, sizeof line - n, " infinite"); break;
        case 7: n += (size_t)snprintf(line + n, sizeof line - n, " ponder"); break;
        case 8: {
            n += (size_t)snprintf(line + n, sizeof line - n, " searchmoves");
            Position saved = g->pos; /* searchmoves are root moves: do not play them on the model */
            MoveList list;
            generate_legal(&g->pos, &list);
            int k = 1 + fuzz_below(g->rng, 4);
            for (int j = 0; j < k && list.count; j++) {
                move_to_uci(&g->pos, list.moves[fuzz_below(g->rng, list.count)], a);
                n += (size_t)snprintf(line + n, sizeof line - n, " %s", a);
            }
            g->pos = saved;
            break;
        }
        default: n += (size_t)snprintf(line + n, sizeof line - n, " %s", fuzz_random_word(g->rng)); break;
        }
    }
    fuzz_add_line(g->s, line, n);
}

/* A search that ends by itself within about a tenth of a second, whatever follows. */
static void gen_go_bounded(Gen *g, bool batch) {
    switch (fuzz_below(g->rng, batch ? 6 : 8)) {
    case 0: fuzz_add_text(g->s, "go depth %d", 1 + fuzz_below(g->rng, 4)); break;
    case 1: fuzz_add_text(g->s, "go nodes %d", 1 + fuzz_below(g->rng, 5000)); break;
    case 2: fuzz_add_text(g->s, "go movetime %d", 1 + fuzz_below(g->rng, 100)); break;
    case 3: fuzz_add_text(g->s, "go depth %d movetime 80", 2 + fuzz_below(g->rng, 3)); break;
    case 4: fuzz_add_text(g->s, "go wtime %d btime %d", 50 + fuzz_below(g->rng, 500), 50 + fuzz_below(g->rng, 500)); break;
    case 5: {
        Move m = random_move(g);
        char text[8];
        move_to_uci(&g->pos, m, text);
        fuzz_add_text(g->s, "go depth 2 searchmoves %s", text);
        break;
    }
    case 6: fuzz_add_text(g->s, "go infinite"); break; /* stopped by the end of input */
    default: fuzz_add_text(g->s, "go ponder movetime 50"); break;
    }
}

static void gen_go(Gen *g) {
    if (g->s->searches_bounded) gen_go_bounded(g, g->s->mode == FUZZ_BATCH_STDIN || g->s->mode == FUZZ_BATCH_ARGS);
    else gen_go_unbounded(g);
}

/* ---------- options ---------- */

static void option_value(Gen *g, const FuzzOption *opt, char *out, size_t size) {
    const char *name = opt->name;
    if (fuzz_chance(g->rng, 15)) { /* anything at all */
        if (fuzz_chance(g->rng, 50)) fuzz_random_number(g->rng, out, size);
        else snprintf(out, size, "%s", fuzz_random_word(g->rng));
        if (!strcasecmp(name, "Hash") || !strcasecmp(name, "Threads")) {
            long v = strtol(out, NULL, 10); /* never a size or a thread count this machine cannot take */
            if (v > 4 && v <= opt->max) snprintf(out, size, "%ld", opt->max + 1L);
        }
        return;
    }
    switch (opt->kind) {
    case FUZZ_OPT_SPIN: {
        long lo = opt->min, hi = opt->max;
        if (!strcasecmp(name, "Hash")) hi = 64;
        if (!strcasecmp(name, "Threads")) hi = 4;
        long pick[] = {lo, hi, lo + fuzz_below(g->rng, (int)(hi - lo + 1 > 1000 ? 1000 : hi - lo + 1)), lo - 1, opt->max + 1L};
        snprintf(out, size, "%ld", pick[fuzz_below(g->rng, 5)]);
        break;
    }
    case FUZZ_OPT_CHECK: snprintf(out, size, "%s", (const char *[]){"true", "false", "TRUE", "1", "0", "on", "yes"}[fuzz_below(g->rng, 7)]); break;
    case FUZZ_OPT_COMBO:
        if (opt->choice_count && fuzz_chance(g->rng, 80)) snprintf(out, size, "%s", opt->choices[fuzz_below(g->rng, opt->choice_count)]);
        else snprintf(out, size, "quantum");
        break;
    case FUZZ_OPT_STRING: snprintf(out, size, "%s", fuzz_file_path(g->rng)); break;
    default: out[0] = '\0'; break;
    }
}

static void gen_setoption(Gen *g, bool xboard) {
    const FuzzOption *opt = fuzz_random_option(g->rng);
    char value[1024], name[128];
    if (!opt) return;
    snprintf(name, sizeof name, "%s", opt->name);
    if (fuzz_chance(g->rng, 10)) /* names are case-insensitive */
        for (char *p = name; *p; p++)
            if (isalpha((unsigned char)*p) && fuzz_chance(g->rng, 50)) *p = (char)(*p ^ 0x20);
    if (fuzz_chance(g->rng, 5)) snprintf(name, sizeof name, "NoSuchOption");
    option_value(g, opt, value, sizeof value);
    if (xboard) {
        if (opt->kind == FUZZ_OPT_BUTTON) fuzz_add_text(g->s, "option %s", name);
        else fuzz_add_text(g->s, "option %s=%s", name, value);
    } else if (opt->kind == FUZZ_OPT_BUTTON || fuzz_chance(g->rng, 5)) {
        fuzz_add_text(g->s, "setoption name %s", name);
    } else {
        fuzz_add_text(g->s, "setoption name %s value %s", name, value);
    }
}

/* ---------- the shared engine commands ---------- */

static void gen_engine_command(Gen *g) {
    char num[512];
    switch (fuzz_below(g->rng, 12)) {
    case 0: fuzz_add_text(g->s, "d"); break;
    case 1: fuzz_add_text(g->s, "eval"); break;
    case 2: fuzz_add_text(g->s, "nnue"); break;
    case 3: fuzz_add_text(g->s, "dump nnuefeatures"); break;
    case 4: fuzz_add_text(g->s, "perft %d", 1 + fuzz_below(g->rng, 2)); break;
    case 5: fuzz_add_text(g->s, "perft %s", (const char *[]){"0", "21", "-1", "x", "99999999999999999999", ""}[fuzz_below(g->rng, 6)]); break;
    case 6: fuzz_add_text(g->s, "bench %s", (const char *[]){"1", "0", "65", "x", "1 2"}[fuzz_below(g->rng, 5)]); break;
    case 7: fuzz_add_text(g->s, "help"); break;
    case 8: fuzz_add_text(g->s, "setboard %s", random_fen(g, true)); break;
    case 9:
        if (g->s->searches_bounded) fuzz_add_text(g->s, "%s %d", (const char *[]){"sd", "sn", "st"}[fuzz_below(g->rng, 3)], 1 + fuzz_below(g->rng, 3));
        else fuzz_random_number(g->rng, num, sizeof num), fuzz_add_text(g->s, "%s %s", (const char *[]){"sd", "sn", "st"}[fuzz_below(g->rng, 3)], num);
        break;
    case 10: fuzz_add_text(g->s, "script %s", fuzz_script_path(g->rng)); break;
    default: fuzz_add_text(g->s, "epd %s depth %d", fuzz_epd_path(g->rng), 1 + fuzz_below(g->rng, 2)); break;
    }
}

/* ---------- UCI ---------- */

static void gen_uci(Gen *g) {
    fuzz_add_text(g->s, "uci");
    for (int i = fuzz_below(g->rng, 4); i > 0; i--) gen_setoption(g, false);
    fuzz_add_text(g->s, "isready");
    if (fuzz_chance(g->rng, 70)) fuzz_add_text(g->s, "ucinewgame");
    for (int round = 1 + fuzz_below(g->rng, 5); round > 0; round--) {
        gen_position(g);
        gen_go(g);
        if (fuzz_chance(g->rng, 30)) fuzz_add_text(g->s, "isready"); /* answered during the search */
        for (int extra = fuzz_below(g->rng, 3); extra > 0; extra--) {
            switch (fuzz_below(g->rng, 8)) {
            case 0: fuzz_add_text(g->s, "stop"); break;
            case 1: fuzz_add_text(g->s, "ponderhit"); break;
            case 2: fuzz_add_text(g->s, "isready"); break;
            case 3: gen_setoption(g, false); break;
            case 4: fuzz_add_text(g->s, "debug %s", fuzz_chance(g->rng, 50) ? "on" : "off"); break;
            case 5: gen_position(g); break;
            case 6: gen_engine_command(g); break;
            default: fuzz_add_text(g->s, "ucinewgame"), set_model(g, START_FEN); break;
            }
        }
        if (fuzz_chance(g->rng, 40)) g->s->lines[g->s->count - 1].delay_ms = fuzz_below(g->rng, 80);
        if (fuzz_chance(g->rng, 50)) fuzz_add_text(g->s, "stop");
    }
}

/* ---------- the terminal prompt and batch mode ---------- */

static void gen_moves_line(Gen *g) {
    char buf[512];
    bool san = fuzz_chance(g->rng, 50);
    int pick = fuzz_below(g->rng, 4);
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", pick == 0 ? "usermove" : pick == 1 ? "move" : "");
    n = append_moves(g, buf, n, sizeof buf, 1 + fuzz_below(g->rng, 3), san);
    if (pick > 1 && n > 0) memmove(buf, buf + 1, n--); /* no leading blank for bare moves */
    if (fuzz_chance(g->rng, 10)) n += (size_t)snprintf(buf + n, sizeof buf - n, " e1e8"); /* one illegal: all refused */
    if (n) fuzz_add_line(g->s, buf, n);
}

static void gen_terminal(Gen *g, bool batch) {
    if (batch) fuzz_add_text(g->s, "%s", (const char *[]){"sd 2", "st 0.05", "sn 3000"}[fuzz_below(g->rng, 3)]);
    if (fuzz_chance(g->rng, 10)) fuzz_add_text(g->s, "help");
    for (int steps = 3 + fuzz_below(g->rng, 12); steps > 0; steps--) {
        switch (fuzz_below(g->rng, 12)) {
        case 0: fuzz_add_text(g->s, "new"), set_model(g, START_FEN); break;
        case 1: gen_position(g); break;
        case 2:
        case 3: gen_moves_line(g); break;
        case 4:
        case 5: gen_go(g); break;
        case 6: fuzz_add_text(g->s, "undo"), g->known = false; break;
        case 7: fuzz_add_text(g->s, "%s", (const char *[]){"isready", "stop", "?"}[fuzz_below(g->rng, 3)]); break;
        case 8: gen_setoption(g, false); break;
        case 9: {
            const char *fen = random_fen(g, true);
            fuzz_add_text(g->s, "setboard %s", fen);
            set_model(g, fen);
            break;
        }
        default: gen_engine_command(g); break;
        }
        if (!batch && fuzz_chance(g->rng, 15)) g->s->lines[g->s->count - 1].delay_ms = fuzz_below(g->rng, 60);
    }
}

/* ---------- xboard ---------- */

static void gen_xboard_time(Gen *g) {
    char num[512];
    switch (fuzz_below(g->rng, 7)) {
    case 0: fuzz_add_text(g->s, "st 0.0%d", 1 + fuzz_below(g->rng, 9)); break;
    case 1: fuzz_add_text(g->s, "sd %d", 1 + fuzz_below(g->rng, 3)); break;
    case 2: fuzz_add_text(g->s, "level 0 0:0%d 0", 1 + fuzz_below(g->rng, 5)); break;
    case 3: fuzz_add_text(g->s, "level 40 0:10 0.1"), fuzz_add_text(g->s, "time %d", 50 + fuzz_below(g->rng, 500)); break;
    case 4: fuzz_add_text(g->s, "nps %d", 1000 + fuzz_below(g->rng, 20000)), fuzz_add_text(g->s, "st 1"); break;
    case 5: fuzz_add_text(g->s, "level 40 60 0"); break; /* ninety seconds a move: only '?', force or EOF end it */
    default:
        fuzz_random_number(g->rng, num, sizeof num);
        fuzz_add_text(g->s, "%s %s", (const char *[]){"time", "otim", "st", "sd", "nps"}[fuzz_below(g->rng, 5)], num);
        break;
    }
}

static void gen_xboard_usermove(Gen *g) {
    Move m = random_move(g);
    if (m == MOVE_NONE) return;
    char text[16];
    if (fuzz_chance(g->rng, 30)) move_to_san(&g->pos, m, text);
    else move_to_uci(&g->pos, m, text);
    if (fuzz_chance(g->rng, 70)) fuzz_add_text(g->s, "usermove %s", text);
    else fuzz_add_text(g->s, "%s", text);
    play(g, m);
}

static void gen_xboard(Gen *g) {
    fuzz_add_text(g->s, "xboard");
    fuzz_add_text(g->s, "protover 2");
    if (fuzz_chance(g->rng, 50)) fuzz_add_text(g->s, "accepted usermove"), fuzz_add_text(g->s, "accepted ping");
    fuzz_add_text(g->s, "new");
    if (fuzz_chance(g->rng, 50)) fuzz_add_text(g->s, "%s", fuzz_chance(g->rng, 50) ? "post" : "nopost");
    if (fuzz_chance(g->rng, 30)) fuzz_add_text(g->s, "%s", fuzz_chance(g->rng, 50) ? "hard" : "easy");
    gen_xboard_time(g);
    char num[512];
    for (int steps = 3 + fuzz_below(g->rng, 14); steps > 0; steps--) {
        switch (fuzz_below(g->rng, 22)) {
        case 0:
        case 1:
        case 2: gen_xboard_usermove(g); break;
        case 3: fuzz_add_text(g->s, "force"); break;
        case 4: fuzz_add_text(g->s, "go"), g->known = false; break;
        case 5: fuzz_add_text(g->s, "playother"); break;
        case 6: {
            const char *fen = random_fen(g, true);
            fuzz_add_text(g->s, "setboard %s", fen);
            set_model(g, fen);
            break;
        }
        case 7: fuzz_add_text(g->s, "%s", fuzz_chance(g->rng, 50) ? "undo" : "remove"), g->known = false; break;
        case 8: fuzz_add_text(g->s, "analyze"), fuzz_add_text(g->s, "."), fuzz_add_text(g->s, "exit"); break;
        case 9: fuzz_add_text(g->s, "ping %d", fuzz_below(g->rng, 1000)); break;
        case 10: fuzz_add_text(g->s, "%s", (const char *[]){"draw", "hint", "?", "post", "nopost", "hard", "easy"}[fuzz_below(g->rng, 7)]); break;
        case 11: fuzz_add_text(g->s, "result %s {fuzz}", (const char *[]){"1-0", "0-1", "1/2-1/2", "*"}[fuzz_below(g->rng, 4)]); break;
        case 12:
            if (fuzz_chance(g->rng, 60)) fuzz_add_text(g->s, "memory %d", 1 + fuzz_below(g->rng, 64));
            else fuzz_add_text(g->s, "memory %s", (const char *[]){"0", "-1", "x", "1e3", ""}[fuzz_below(g->rng, 5)]);
            break;
        case 13:
            if (fuzz_chance(g->rng, 60)) fuzz_add_text(g->s, "cores %d", 1 + fuzz_below(g->rng, 4));
            else fuzz_add_text(g->s, "cores %s", (const char *[]){"0", "-1", "x", "2.5", ""}[fuzz_below(g->rng, 5)]);
            break;
        case 14: gen_setoption(g, true); break;
        case 15: gen_xboard_time(g); break;
        case 16: fuzz_add_text(g->s, "new"), set_model(g, START_FEN); break;
        case 17: fuzz_add_text(g->s, "%s", (const char *[]){"white", "black", "computer", "random", "name fuzz", "rating 2000 1500", "ics -", "bk", "variant normal", "variant suicide"}[fuzz_below(g->rng, 10)]); break;
        case 18: fuzz_random_number(g->rng, num, sizeof num), fuzz_add_text(g->s, "%s %s", fuzz_chance(g->rng, 50) ? "time" : "otim", num); break;
        default: gen_engine_command(g); break;
        }
        if (fuzz_chance(g->rng, 25)) g->s->lines[g->s->count - 1].delay_ms = fuzz_below(g->rng, 80);
    }
    /* time to think: a pause after most lines that start a search, so moves come back */
    for (int i = 0; i + 1 < g->s->count; i++) {
        const char *t = g->s->lines[i].text;
        bool starts = !strcmp(t, "go") || !strncmp(t, "usermove ", 9) || (strlen(t) <= 5 && t[0] >= 'a' && t[0] <= 'h');
        if (starts && fuzz_chance(g->rng, 60)) g->s->lines[i + 1].delay_ms = 50 + fuzz_below(g->rng, 250);
    }
}

/* ---------- command-line flags ---------- */

static void gen_flags(Gen *g) {
    if (!fuzz_chance(g->rng, 25)) return;
    char buf[600];
    switch (fuzz_below(g->rng, 6)) {
    case 0: snprintf(buf, sizeof buf, "--hash=%d", 1 + fuzz_below(g->rng, 64)), fuzz_add_arg(g->s, buf); break;
    case 1: fuzz_add_arg(g->s, "--cpus"), snprintf(buf, sizeof buf, "%d", 1 + fuzz_below(g->rng, 2)), fuzz_add_arg(g->s, buf); break;
    case 2: {
        bool good = fuzz_chance(g->rng, 80);
        fuzz_add_arg(g->s, "--logfile"), fuzz_add_arg(g->s, good ? "/dev/null" : "/nonexistent/dir/log");
        g->s->bad_flag = !good;
        break;
    }
    case 3: {
        const char *path = fuzz_file_path(g->rng);
        fuzz_add_arg(g->s, "--evalfile"), fuzz_add_arg(g->s, path);
        g->s->bad_flag = strcmp(path, "nets/default.nnue") && strcmp(path, "<embedded>") && *path;
        break;
    }
    case 4:
        fuzz_add_arg(g->s, (const char *[]){"--hash", "--cpus", "--nope", "-x", "--hash=0"}[fuzz_below(g->rng, 5)]);
        g->s->bad_flag = true;
        break;
    default: {
        fuzz_random_number(g->rng, buf, sizeof buf);
        char *end;
        long v = strtol(buf, &end, 10);
        bool good = *buf && !*end && v >= 1 && v <= 64;
        if (!good) snprintf(buf, sizeof buf, "%s", v > 64 ? "65537" : "0"); /* refused, never allocated */
        fuzz_add_arg(g->s, "--hash"), fuzz_add_arg(g->s, buf);
        g->s->bad_flag = !good;
        break;
    }
    }
}

void fuzz_generate(FuzzSession *s, FuzzMode mode, FuzzRng *rng) {
    static Gen g; /* a Position is large */
    g.s = s, g.rng = rng;
    set_model(&g, START_FEN);
    s->mode = mode;
    gen_flags(&g);
    switch (mode) {
    case FUZZ_UCI: gen_uci(&g); break;
    case FUZZ_XBOARD: gen_xboard(&g); break;
    case FUZZ_TERMINAL: gen_terminal(&g, false); break;
    default: gen_terminal(&g, true); break;
    }
}
