/* xboard / CECP v2. The main thread keeps the game and the clocks; a finished search
 * comes back as an event (io_post_search_done), so playing the move, claiming a result
 * and starting to ponder all happen on the main thread, never inside a search callback.
 * Every search carries an id; cancelling bumps the id so a late result is ignored.
 * Commands that must not disturb a search of the engine's own move (ping, memory, cores,
 * options that need an idle engine) wait in a queue and run right after the move. */
#include "xboard.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "clock.h"
#include "engine_io.h"
#include "movegen.h"
#include "notation.h"
#include "options.h"
#include "threads.h"
#include "version.h"

#define NO_COLOR COLOR_NB
#define XB_MATE_BASE 100000 /* xboard: 100000 + N = mate in N moves, -100000 - N = mated in N */
#define DEFAULT_MOVES_TO_GO 30
#define RESIGN_SCORE_CP 900  /* with option Resign: give up once this far behind ... */
#define RESIGN_MOVES 3       /* ... in this many searches of the engine's moves in a row */

typedef enum { XB_IDLE, XB_THINKING, XB_PONDERING, XB_ANALYZING } XbSearch;

static struct {
    XbSearch search;
    bool analyze_mode;
    bool force;
    int engine_color;       /* WHITE, BLACK or NO_COLOR */
    bool game_over;         /* a result was claimed or received: do not move */
    bool ponder;            /* hard */
    int mps;                /* moves per time control period, 0 = whole game */
    int64_t base_ms, inc_ms;
    int64_t my_time_ms, opp_time_ms; /* from time/otim; -1 until received */
    long nps;               /* -1 = wall clock; 0 = CPU time; N = time counted in nodes at N per second */
    unsigned search_id;
    Move ponder_move;       /* the reply being pondered on */
    Move hint;
    int64_t search_started_ms;
    int64_t read_ms;        /* time_now_ms() when the command being run was read; 0 outside commands */
    bool paused;            /* pause: the search (if any) waits, its clock stopped, until resume */
    bool held_done;         /* the search ended just as it was paused: its move waits for resume */
    IoEvent held_event;
    Move excluded[MAX_MOVES]; /* exclude: root moves analysis leaves out, until the position changes */
    int excluded_count;
    int losing_searches;    /* engine's searches in a row at or below -RESIGN_SCORE_CP */
    char **waiting;         /* commands held back until the engine has moved */
    int waiting_count;
    bool replaying;
} xb = {
    .engine_color = BLACK, .mps = 40, .base_ms = 300000, .my_time_ms = -1, .opp_time_ms = -1, .nps = -1,
};

/* Shared with the search thread's report callback. */
static atomic_bool post_thinking = true;
static atomic_bool analysing;
static atomic_int last_score;        /* side to move of the searched root, cp */
static atomic_bool last_score_ours;  /* that root had the engine to move */
static atomic_ullong last_nodes;
static atomic_int last_depth;
static Position report_root;         /* root of the running search, for SAN PVs */
static atomic_bool pondering_output; /* the PV starts with the pondered move (until ponderhit) */
static char ponder_san[16];          /* that move, written before the ponder search starts */

/* ---------- search callbacks (search thread) ---------- */

static void xb_report(const SearchReport *r, void *ctx) {
    (void)ctx;
    atomic_store(&last_score, r->score);
    atomic_store(&last_nodes, (unsigned long long)r->nodes);
    atomic_store(&last_depth, r->depth);
    if (!atomic_load(&post_thinking) && !atomic_load(&analysing)) return;
    int score = r->score;
    if (score_is_mate(score)) {
        int moves = score_mate_moves(score);
        score = moves > 0 ? XB_MATE_BASE + moves : -XB_MATE_BASE + moves;
    }
    static Position pv_pos;
    memcpy(&pv_pos, &report_root, sizeof pv_pos);
    char pv[4096];
    size_t n = 0;
    pv[0] = '\0';
    if (atomic_load(&pondering_output)) n = (size_t)snprintf(pv, sizeof pv, "%s", ponder_san);
    for (int i = 0; i < r->pv_length && n + 16 < sizeof pv; i++) {
        Move m = r->pv[i];
        if (!pos_is_pseudo_legal(&pv_pos, m)) break; /* never print an impossible move */
        char san[16];
        move_to_san(&pv_pos, m, san);
        n += (size_t)snprintf(pv + n, sizeof pv - n, "%s%s", n ? " " : "", san);
        pos_make_move(&pv_pos, m);
    }
    /* ply score time(cs) nodes seldepth nps tbhits <tab> pv; '!' / '?' mark fail high / low */
    io_printf("%d %d %lld %llu %d %llu 0\t%s%s\n", r->depth, score, (long long)(r->time_ms / 10),
              (unsigned long long)r->nodes, r->seldepth, (unsigned long long)r->nps, pv,
              r->bound == BOUND_LOWER ? "!" : r->bound == BOUND_UPPER ? "?" : "");
}

static void xb_bestmove(Move best, Move ponder, void *ctx) {
    io_post_search_done((unsigned)(uintptr_t)ctx, best, ponder);
}

/* ---------- search control (main thread) ---------- */

void xboard_cancel(void) {
    if (xb.search != XB_IDLE || search_is_running()) {
        xb.search_id++; /* its result, if already posted, is now stale */
        commands_stop_search();
    }
    xb.paused = xb.held_done = false; /* a search started or called off ends a pause */
    xb.search = XB_IDLE;
    atomic_store(&analysing, false);
    atomic_store(&pondering_output, false);
}

static void xb_start(const Position *root, const SearchLimits *limits, XbSearch kind) {
    xboard_cancel();
    memcpy(&report_root, root, sizeof report_root);
    xb.search_id++;
    xb.search = kind;
    atomic_store(&analysing, kind == XB_ANALYZING);
    atomic_store(&pondering_output, kind == XB_PONDERING);
    atomic_store(&last_score_ours, kind != XB_ANALYZING);
    atomic_store(&last_nodes, 0);
    atomic_store(&last_depth, 0);
    xb.search_started_ms = time_now_ms();
    SearchOutput out = {.report = xb_report, .bestmove = xb_bestmove, .ctx = (void *)(uintptr_t)xb.search_id};
    commands_start_search(root, limits, &out);
}

/* Limits for a move of colour us from the xboard clocks, st, sd, sn and nps. */
static void xb_limits(SearchLimits *l, int us, int moves_made) {
    search_limits_clear(l);
    int64_t budget_ms;
    if (session.movetime_ms > 0) {
        l->movetime = session.movetime_ms;
        budget_ms = session.movetime_ms;
    } else {
        int64_t mine = xb.my_time_ms >= 0 ? xb.my_time_ms : xb.base_ms;
        int64_t theirs = xb.opp_time_ms >= 0 ? xb.opp_time_ms : xb.base_ms;
        l->time[us] = mine;
        l->time[!us] = theirs;
        l->inc[WHITE] = l->inc[BLACK] = xb.inc_ms;
        if (xb.mps > 0) l->movestogo = xb.mps - moves_made % xb.mps;
        budget_ms = mine / (l->movestogo ? l->movestogo : DEFAULT_MOVES_TO_GO) + xb.inc_ms;
    }
    l->depth = session.depth_limit;
    l->nodes = session.node_limit;
    l->move_overhead_ms = engine_options.move_overhead_ms;
    l->clock_start_ms = xb.read_ms; /* a ponder search stopped in between was on our clock */
    l->cpu_time = xb.nps >= 0; /* nps mode reports CPU time, and nps 0 also decides by it */
    if (xb.nps > 0) { /* time is measured in nodes: turn the budget into a node limit */
        uint64_t nodes = (uint64_t)(budget_ms > 1 ? budget_ms : 1) * (uint64_t)xb.nps / 1000;
        l->nodes = l->nodes && l->nodes < nodes ? l->nodes : (nodes ? nodes : 1);
        l->time[WHITE] = l->time[BLACK] = -1;
        l->inc[WHITE] = l->inc[BLACK] = 0;
        l->movetime = 0, l->movestogo = 0;
    }
}

static void xb_claim(GameStatus status) {
    io_printf("%s {%s}\n", game_status_result(status), game_status_reason(status));
    xb.game_over = true;
}

/* A new position: the exclusions belonged to the old one. */
static void xb_position_changed(void) { xb.excluded_count = 0; }

static bool xb_play(Move best, Move ponder);
static void xb_replay_waiting(void);

/* Thinks if it is the engine's turn in a game (not force, not analysing, game not over);
 * plays a book move at once when OwnBook has one. */
static void xb_maybe_think(void) {
    const Position *pos = &session.game.pos;
    if (xb.force || xb.analyze_mode || xb.game_over || session.unplayable[0] || xb.engine_color != pos->side ||
        xb.search == XB_THINKING)
        return;
    GameStatus status = game_status(&session.game);
    if (status != GAME_ONGOING) {
        xb_claim(status);
        return;
    }
    Move book_move;
    if (commands_book_move(pos, &book_move)) {
        xb_play(book_move, MOVE_NONE);
        xb_replay_waiting();
        return;
    }
    SearchLimits limits;
    xb_limits(&limits, pos->side, session.game.move_count / 2);
    xb_start(pos, &limits, XB_THINKING);
}

/* Analysis of the game position over the root moves not excluded. */
static void xb_restart_analysis(void) {
    xboard_cancel();
    const Position *pos = &session.game.pos;
    if (!xb.analyze_mode || session.unplayable[0]) return;
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.infinite = true;
    MoveList legal;
    generate_legal(pos, &legal);
    for (int i = 0; i < legal.count; i++) {
        bool excluded = false;
        for (int k = 0; k < xb.excluded_count; k++) excluded |= xb.excluded[k] == legal.moves[i];
        if (!excluded) limits.searchmoves[limits.searchmoves_count++] = legal.moves[i];
    }
    if (limits.searchmoves_count == 0) return; /* mated, stalemated or everything excluded: nothing to show */
    if (limits.searchmoves_count == legal.count) limits.searchmoves_count = 0;
    xb_start(pos, &limits, XB_ANALYZING);
}

/* After the engine's move: ponder on the reply the search expects, which is announced first
 * (Hint) and leads the PV of the thinking output until the opponent moves. */
static void xb_start_ponder(Move reply) {
    static Position ponder_root;
    const Position *pos = &session.game.pos;
    if (!xb.ponder || reply == MOVE_NONE || !pos_is_pseudo_legal(pos, reply)) return;
    memcpy(&ponder_root, pos, sizeof ponder_root);
    pos_make_move(&ponder_root, reply);
    if (count_legal_moves(&ponder_root) == 0) return;
    char mv[8];
    move_to_xboard(pos, reply, mv);
    io_printf("Hint: %s\n", mv);
    SearchLimits limits;
    xb_limits(&limits, ponder_root.side, (session.game.move_count + 1) / 2);
    limits.ponder = true;
    xb.ponder_move = reply;
    move_to_san(&session.game.pos, reply, ponder_san);
    xb_start(&ponder_root, &limits, XB_PONDERING);
}

/* Plays the engine's move and claims a result it brings; false when the game is over. */
static bool xb_play(Move best, Move ponder) {
    char mv[8];
    move_to_xboard(&session.game.pos, best, mv);
    game_push(&session.game, best);
    xb_position_changed();
    io_printf("move %s\n", mv);
    xb.hint = ponder;
    GameStatus status = game_status(&session.game);
    if (status != GAME_ONGOING) xb_claim(status);
    return status == GAME_ONGOING;
}

/* With option Resign: the engine's searches have seen a lost game long enough. */
static bool xb_should_resign(void) {
    int score = atomic_load(&last_score);
    xb.losing_searches = score <= -RESIGN_SCORE_CP ? xb.losing_searches + 1 : 0;
    return engine_options.resign && xb.losing_searches >= RESIGN_MOVES;
}

/* Stops the running search to change something under it; xb_resume starts it again. */
static XbSearch xb_suspend(void) {
    XbSearch kind = xb.search;
    xboard_cancel();
    return kind;
}

static void xb_resume(XbSearch kind) {
    if (kind == XB_THINKING) xb_maybe_think();
    else if (kind == XB_PONDERING) xb_start_ponder(xb.ponder_move);
    else if (kind == XB_ANALYZING) xb_restart_analysis();
}

/* resume: the paused search goes on where it stopped, or the move it found is played now.
 * (A search started or called off, or a ponder hit, ends a pause as well.) */
static void xb_resume_paused(void) {
    if (!xb.paused) return;
    xb.paused = false;
    search_resume();
    if (xb.held_done) {
        xb.held_done = false;
        xboard_on_search_done(&xb.held_event);
    }
}

/* Runs the commands held back while the engine thought on its move, in order. */
static void xb_replay_waiting(void) {
    if (xb.replaying || xb.search == XB_THINKING) return;
    xb.replaying = true;
    for (int i = 0; i < xb.waiting_count; i++) {
        char *line = xb.waiting[i];
        char *copy = strdup(line);
        int n = 0;
        char **words = copy ? split_all_words(copy, &n) : NULL;
        io_set_command(line);
        if (n > 0) xboard_command(line, words, n);
        free(words);
        free(copy);
        free(line);
    }
    xb.waiting_count = 0;
    xb.replaying = false;
}

void xboard_on_search_done(const IoEvent *ev) {
    if (ev->search_id != xb.search_id || xb.search != XB_THINKING) return;
    if (xb.paused) { /* no move while paused */
        xb.held_event = *ev;
        xb.held_done = true;
        return;
    }
    xb.search = XB_IDLE;
    session.open_ended = false;
    Position *pos = &session.game.pos;
    bool ponder = false;
    if (ev->best == MOVE_NONE || !pos_is_pseudo_legal(pos, ev->best)) {
        GameStatus status = game_status(&session.game);
        if (status != GAME_ONGOING) xb_claim(status);
        else io_printf("# search returned no legal move\n");
    } else if (xb_should_resign()) {
        io_printf("resign\n");
        xb.game_over = true;
    } else {
        ponder = xb_play(ev->best, ev->ponder);
    }
    xb_replay_waiting(); /* what waited for the move, before pondering starts */
    if (ponder) xb_start_ponder(ev->ponder);
}

/* ---------- commands ---------- */

static void xb_features(void) {
    io_printf("feature done=0\n");
    io_printf("feature ping=1 setboard=1 playother=1 usermove=1 san=0 sigint=0 sigterm=0 analyze=1 colors=0 "
              "time=1 draw=1 reuse=1 memory=1 smp=1 nps=1 pause=1 exclude=1 debug=1 variants=\"normal,fischerandom\" "
              "myname=\"%s %s\"\n",
              ENGINE_NAME, squall_version);
    for (int i = 0; i < options_count(); i++) {
        const OptionInfo *opt = options_info(i);
        if (!opt->in_xboard) continue;
        char line[1024];
        options_xboard_feature(opt, line, sizeof line);
        io_printf("%s\n", line);
    }
    io_printf("feature done=1\n");
}

static void xb_new_game(void) {
    xboard_cancel();
    commands_new_game();
    game_set_chess960(&session.game, false); /* standard chess until a variant command says otherwise */
    xb.force = false;
    xb.engine_color = BLACK;
    xb.game_over = false;
    xb.paused = false;
    xb.nps = -1;
    xb.hint = MOVE_NONE;
    xb.losing_searches = 0;
    xb.my_time_ms = xb.opp_time_ms = -1;
    session.depth_limit = 0;
    xb_position_changed();
    if (xb.analyze_mode) xb_restart_analysis();
}

static void xb_usermove(const char *text) {
    /* after a refused setboard there is no game to play a move in */
    Move m = session.unplayable[0] ? MOVE_NONE : move_from_text(&session.game.pos, text);
    if (m == MOVE_NONE) {
        io_printf("Illegal move: %s\n", text);
        return;
    }
    xb_position_changed();
    if (xb.search == XB_PONDERING && m == xb.ponder_move) {
        /* ponder hit: the running search becomes the real one, on the clock sent with the move
         * (the ponder search was given the clock from before the engine's last move) */
        game_push(&session.game, m);
        xb.search = XB_THINKING;
        session.open_ended = false;
        xb.game_over = false;
        atomic_store(&pondering_output, false);
        xb_resume_paused();
        SearchLimits limits;
        xb_limits(&limits, session.game.pos.side, session.game.move_count / 2);
        search_ponderhit(&limits);
        return;
    }
    xboard_cancel();
    game_push(&session.game, m);
    xb.game_over = false;
    if (xb.analyze_mode) xb_restart_analysis();
    else xb_maybe_think();
}

/* level MPS BASE INC. BASE is minutes or MIN:SEC; anything after that in the same word is
 * ignored, as the protocol asks (it may announce a later time control: "25+5"). */
static void xb_level(char **w, int n) {
    long mps, minutes = 0, seconds = 0;
    double inc;
    char *end;
    bool ok = n == 4 && parse_long(w[1], 0, 100000, &mps) && parse_seconds(w[3], 1e6, &inc);
    if (ok) {
        minutes = strtol(w[2], &end, 10);
        ok = end != w[2] && w[2][0] >= '0' && w[2][0] <= '9' && minutes <= 100000;
        if (ok && *end == ':') {
            char *sec = end + 1;
            seconds = strtol(sec, &end, 10);
            ok = end != sec && sec[0] >= '0' && sec[0] <= '9' && seconds <= 59;
        }
    }
    if (!ok) {
        io_error("usage: level MPS BASE INC (BASE as minutes or MIN:SEC)");
        return;
    }
    xb.mps = (int)mps;
    xb.base_ms = (minutes * 60 + seconds) * 1000;
    xb.inc_ms = (int64_t)(inc * 1000.0 + 0.5);
    session.movetime_ms = 0; /* level and st replace each other */
}

static void xb_clock(char **w, int n, int64_t *clock_ms) {
    long cs;
    if (n != 2 || !parse_long(w[1], -100000000L, 100000000L, &cs)) {
        io_error("usage: %s CENTISECONDS", w[0]);
        return;
    }
    *clock_ms = cs < 0 ? 0 : cs * 10;
}

/* The option an "option NAME[=VALUE]" line names (NULL if none), its name and value. */
static const OptionInfo *xb_option_named(const char *line, char *name, size_t name_size, const char **value) {
    const char *p = line + strlen("option");
    while (*p == ' ' || *p == '\t') p++;
    const char *eq = strchr(p, '=');
    size_t len = eq ? (size_t)(eq - p) : strlen(p);
    *value = eq ? eq + 1 : NULL;
    if (len >= name_size) len = 0;
    memcpy(name, p, len);
    name[len] = '\0';
    while (len > 0 && name[len - 1] == ' ') name[--len] = '\0';
    return len ? options_find(name) : NULL;
}

/* Sets an option; one that needs an idle engine stops pondering or analysis and starts it
 * again afterwards (during thinking the command waits for the move instead). */
static void xb_set_option(const OptionInfo *opt, const char *name, const char *value) {
    char err[256];
    XbSearch was = opt && opt->needs_idle ? xb_suspend() : XB_IDLE;
    if (!options_set(name, value, err, sizeof err)) io_error("%s", err);
    xb_resume(was);
}

static void xb_option(const char *line) {
    char name[256];
    const char *value;
    const OptionInfo *opt = xb_option_named(line, name, sizeof name, &value);
    if (!name[0]) io_error("usage: option NAME[=VALUE]");
    else xb_set_option(opt, name, value);
}

/* memory / cores: an amount the GUI allows; using less is fine, so clamp rather than refuse. */
static void xb_resource(char **w, int n, const char *option, long max) {
    long v;
    if (n != 2 || !parse_long(w[1], 1, 1L << 40, &v)) {
        io_error("usage: %s N", w[0]);
        return;
    }
    char value[32];
    snprintf(value, sizeof value, "%ld", v < max ? v : max);
    xb_set_option(options_find(option), option, value);
}

/* Commands that would disturb the search of the engine's own move, or (ping) must answer
 * after it: held back until the move is played. */
static bool xb_waits_for_move(const char *cmd, const char *line) {
    if (xb.search != XB_THINKING || xb.replaying) return false;
    if (!strcmp(cmd, "ping") || !strcmp(cmd, "memory") || !strcmp(cmd, "cores")) return true;
    if (strcmp(cmd, "option")) return false;
    char name[256];
    const char *value;
    const OptionInfo *opt = xb_option_named(line, name, sizeof name, &value);
    return opt && opt->needs_idle;
}

/* Queues line for after the move; false when out of memory (then it runs now, not never). */
static bool xb_hold(const char *line) {
    char **grown = realloc(xb.waiting, (size_t)(xb.waiting_count + 1) * sizeof *grown);
    if (grown) xb.waiting = grown;
    char *copy = grown ? strdup(line) : NULL;
    if (!copy) return false;
    xb.waiting[xb.waiting_count++] = copy;
    return true;
}

/* exclude / include MOVE|all: the root moves analysis considers in this position. */
static void xb_exclude(char **w, int n, bool exclude) {
    const Position *pos = &session.game.pos;
    if (n != 2) {
        io_error("usage: %s MOVE|all", w[0]);
        return;
    }
    if (!strcmp(w[1], "all")) {
        MoveList legal;
        generate_legal(pos, &legal);
        xb.excluded_count = 0;
        if (exclude)
            for (int i = 0; i < legal.count; i++) xb.excluded[xb.excluded_count++] = legal.moves[i];
    } else {
        Move m = move_from_text(pos, w[1]);
        if (m == MOVE_NONE) {
            io_printf("Illegal move: %s\n", w[1]);
            return;
        }
        int at = -1;
        for (int k = 0; k < xb.excluded_count; k++)
            if (xb.excluded[k] == m) at = k;
        if (exclude && at < 0) xb.excluded[xb.excluded_count++] = m;
        if (!exclude && at >= 0) xb.excluded[at] = xb.excluded[--xb.excluded_count];
    }
    if (xb.analyze_mode) xb_restart_analysis();
}

/* bk: the book's moves for the game position, each line starting with a blank, then an
 * empty line. */
static void xb_book_listing(void) {
    Position *pos = &session.game.pos;
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_is_open() ? book_moves(pos, moves, BOOK_MAX_MOVES) : 0;
    long total = 0;
    for (int i = 0; i < count; i++) total += moves[i].weight;
    if (!count) io_printf(" %s\n", book_is_open() ? "no book moves in this position" : "no book (option BookFile)");
    for (int i = 0; i < count; i++) {
        char san[16];
        move_to_san(pos, moves[i].move, san);
        io_printf(" %s %d (%.1f%%)\n", san, moves[i].weight, total ? 100.0 * moves[i].weight / (double)total : 0.0);
    }
    io_printf("\n");
}

static void xb_analysis_status(void) {
    if (xb.search != XB_ANALYZING) return;
    io_printf("stat01: %lld %llu %d 0 %d\n", (long long)((time_now_ms() - xb.search_started_ms) / 10),
              (unsigned long long)atomic_load(&last_nodes), atomic_load(&last_depth), count_legal_moves(&session.game.pos));
}

static void xb_draw_offer(void) {
    /* Accept when clearly worse, or in a long game that the search sees as dead level. */
    if (!atomic_load(&last_score_ours)) return;
    int score = atomic_load(&last_score);
    if (score <= -100 || (abs(score) <= 15 && session.game.move_count >= 120)) io_printf("offer draw\n");
}

static void xb_setboard(char **w, int n) {
    char fen[512], err[256];
    join_words(w, 1, n, fen, sizeof fen);
    xboard_cancel();
    if (n < 2 || !commands_set_game(fen, NULL, 0, err, sizeof err)) {
        /* the old game is gone too: moves are refused until new or a good setboard */
        if (n < 2) snprintf(session.unplayable, sizeof session.unplayable, "setboard without a FEN");
        io_printf("tellusererror Illegal position\n");
    } else {
        xb.game_over = false;
        xb.hint = MOVE_NONE;
        xb.losing_searches = 0;
    }
    xb_position_changed();
    if (xb.analyze_mode) xb_restart_analysis();
}

CommandResult xboard_command(char *line, char **w, int n) {
    CommandResult result = CMD_DONE;
    const char *cmd = w[0];
    long v;
    if (xb_waits_for_move(cmd, line) && xb_hold(line)) return CMD_DONE;
    bool outermost = !xb.replaying; /* replayed commands were read before the move was played */
    if (outermost) xb.read_ms = time_now_ms();
    if (!strcmp(cmd, "xboard") || !strcmp(cmd, "accepted") || !strcmp(cmd, "rejected") ||
        !strcmp(cmd, "computer") || !strcmp(cmd, "name") || !strcmp(cmd, "rating") || !strcmp(cmd, "random") ||
        !strcmp(cmd, "ics") || !strcmp(cmd, "egtpath")) {
        /* nothing to do */
    } else if (!strcmp(cmd, "protover")) {
        if (n == 2 && parse_long(w[1], 1, 1000, &v)) {
            if (v >= 2) xb_features();
        } else io_error("usage: protover N");
    } else if (!strcmp(cmd, "new")) {
        xb_new_game();
    } else if (!strcmp(cmd, "variant")) {
        if (n == 2 && (!strcmp(w[1], "normal") || !strcmp(w[1], "fischerandom")))
            game_set_chess960(&session.game, !strcmp(w[1], "fischerandom")); /* setboard follows with the 960 position */
        else io_error("unsupported variant");
    } else if (!strcmp(cmd, "force")) {
        if (xb.search != XB_ANALYZING) xboard_cancel();
        xb.force = true;
    } else if (!strcmp(cmd, "go")) {
        xb.force = false;
        xb.analyze_mode = false;
        xb.engine_color = session.game.pos.side;
        if (xb.search != XB_THINKING) xboard_cancel();
        if (session.unplayable[0]) io_error("no position to play: %s", session.unplayable);
        else xb_maybe_think();
    } else if (!strcmp(cmd, "playother")) {
        xboard_cancel();
        xb.force = false;
        xb.engine_color = !session.game.pos.side;
    } else if (!strcmp(cmd, "white") || !strcmp(cmd, "black")) {
        /* obsolete (colors=0): only the engine's colour is taken from them */
        xboard_cancel();
        xb.engine_color = cmd[0] == 'w' ? BLACK : WHITE;
    } else if (!strcmp(cmd, "level")) {
        xb_level(w, n);
    } else if (!strcmp(cmd, "nps")) {
        if (n == 2 && parse_long(w[1], 0, 1000000000000L, &v)) xb.nps = v;
        else io_error("usage: nps NODES_PER_SECOND (0 = CPU time)");
    } else if (!strcmp(cmd, "time")) {
        xb_clock(w, n, &xb.my_time_ms);
    } else if (!strcmp(cmd, "otim")) {
        xb_clock(w, n, &xb.opp_time_ms);
    } else if (!strcmp(cmd, "usermove")) {
        if (n != 2) io_error("usage: usermove MOVE");
        else xb_usermove(w[1]);
    } else if (!strcmp(cmd, "?")) {
        if (xb.search == XB_THINKING) search_stop(); /* the move follows as usual */
    } else if (!strcmp(cmd, "ping")) {
        io_printf("pong %s\n", n >= 2 ? w[1] : "");
    } else if (!strcmp(cmd, "draw")) {
        xb_draw_offer();
    } else if (!strcmp(cmd, "result")) {
        xboard_cancel();
        xb.game_over = true;
    } else if (!strcmp(cmd, "setboard")) {
        xb_setboard(w, n);
    } else if (!strcmp(cmd, "undo") || !strcmp(cmd, "remove")) {
        int plies = cmd[0] == 'u' ? 1 : 2;
        xboard_cancel();
        if (session.game.move_count < plies || session.unplayable[0]) io_error("command not legal now");
        else {
            while (plies--) game_pop(&session.game);
            xb.game_over = false;
            xb_position_changed();
        }
        if (xb.analyze_mode) xb_restart_analysis();
    } else if (!strcmp(cmd, "hard")) {
        xb.ponder = true;
        engine_options.ponder = true;
    } else if (!strcmp(cmd, "easy")) {
        xb.ponder = false;
        engine_options.ponder = false;
        if (xb.search == XB_PONDERING) xboard_cancel();
    } else if (!strcmp(cmd, "post")) {
        atomic_store(&post_thinking, true);
    } else if (!strcmp(cmd, "nopost")) {
        atomic_store(&post_thinking, false);
    } else if (!strcmp(cmd, "analyze")) {
        xb.analyze_mode = true;
        xb.force = true;
        xb_restart_analysis();
    } else if (!strcmp(cmd, "exit")) {
        if (xb.analyze_mode) {
            xb.analyze_mode = false;
            xboard_cancel();
        }
    } else if (!strcmp(cmd, ".")) {
        xb_analysis_status();
    } else if (!strcmp(cmd, "exclude") || !strcmp(cmd, "include")) {
        xb_exclude(w, n, cmd[0] == 'e');
    } else if (!strcmp(cmd, "pause")) {
        xb.paused = true;
        search_pause();
    } else if (!strcmp(cmd, "resume")) {
        xb_resume_paused();
    } else if (!strcmp(cmd, "hint")) {
        char mv[8];
        if (xb.hint != MOVE_NONE && pos_is_pseudo_legal(&session.game.pos, xb.hint)) {
            move_to_xboard(&session.game.pos, xb.hint, mv);
            io_printf("Hint: %s\n", mv);
        }
    } else if (!strcmp(cmd, "bk")) {
        xb_book_listing();
    } else if (!strcmp(cmd, "memory")) {
        xb_resource(w, n, "Hash", 65536);
    } else if (!strcmp(cmd, "cores")) {
        xb_resource(w, n, "Threads", SEARCH_MAX_THREADS);
    } else if (!strcmp(cmd, "option")) {
        xb_option(line);
    } else if (!strcmp(cmd, "quit")) {
        result = CMD_QUIT;
    } else {
        /* engine commands (perft, d, bench, sd, st, sn, ...), then a bare move */
        result = commands_shared(w, n);
        if (result == CMD_UNKNOWN) {
            result = CMD_DONE;
            if (n == 1 && commands_looks_like_move(cmd)) xb_usermove(cmd);
            else io_error("unknown command");
        }
    }
    if (xb.waiting_count) xb_replay_waiting(); /* the engine's move is made or was called off */
    if (outermost) xb.read_ms = 0;
    return result;
}
