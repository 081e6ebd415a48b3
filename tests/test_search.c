/* Search tests: mate distances, draw rules, bench determinism, legal answers, MultiPV lines and
 * a two-thread search. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "nnue.h"
#include "search.h"
#include "threads.h"
#include "test.h"

/* Pinned bench signatures: they change only with a deliberate change to search or evaluation
 * (update them together with that change and say so in the commit). One per evaluator; the
 * NNUE one belongs to the shipped net, nets/default.nnue, and is checked only when that net
 * is the one embedded. */
#define BENCH_PIN_DEPTH 9
#define BENCH_PIN_NODES_CLASSICAL 391397ULL
#define BENCH_PIN_NODES_NNUE 420290ULL
#define BENCH_PIN_NET_NAME "embedded default.nnue"

/* The classical evaluation: the search tests then do not depend on the shipped net. */
static const EngineSettings *classical_settings(void) {
    static EngineSettings settings = ENGINE_SETTINGS_DEFAULT;
    settings.eval_mode = EVAL_MODE_CLASSICAL;
    return &settings;
}

static SearchResult search_fen(const char *fen, int depth, char *err) {
    static Position pos;
    SearchResult none = {0};
    if (!pos_set_fen(&pos, fen, err, 128)) return none;
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = depth;
    return search_sync(&pos, &limits, classical_settings());
}

/* Mates at their exact distance, each found by a search of the stated depth from fresh tables.
 * Most bounds are the shallowest search that can see the mate: depth 2N-1 for a mate in N (the
 * mating side's N moves and the N-1 replies), 2 for being mated in one after a forced reply.
 * Late-move pruning and futility once dropped mating checks: the first two needed depth 5 and 6,
 * the quiet KRK mates in two depth 10 and 12. */
static const struct { const char *fen; int mate, depth; const char *kind; } mates_within_depth[] = {
    {"k7/8/1K6/8/8/8/8/7R b - - 0 1", -1, 2, "only Kb8, then Rh8#"},
    {"7k/8/6K1/8/8/8/8/R7 b - - 1 1", -1, 2, "only Kg8, then Ra8#"},
    {"6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1", 1, 1, "back rank"},
    {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, 1, "capture mate"},
    {"k7/2P5/1K6/8/8/8/8/8 w - - 0 1", 1, 1, "promotion"},
    {"6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1", 1, 1, "smothered, quiet check"},
    {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, 3, "sacrifice then bishop mate"},
    {"7k/8/8/6K1/8/8/8/R7 w - - 0 1", 2, 3, "quiet king move, forced reply, rook mate"},
    {"k7/8/8/2K5/8/8/8/7R w - - 0 1", 2, 3, "quiet king move, forced reply, rook mate"},
    {"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, 5, "checks and a rook sacrifice"},
    {"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, 5, "black queen and rook"},
    {"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, 5, "king hunt"},
    {"8/8/8/8/8/k7/8/1K2Q3 w - - 0 1", 4, 7, "KQK"},
    /* quiet, non-checking moves that late-move pruning hides until deep iterations, which find
     * a longer mate first */
    {"8/k7/8/1K6/8/8/8/7R w - - 0 1", 3, 18, "KRK, quiet rook move"},
    {"8/8/8/8/1k6/8/8/1K1Q4 w - - 0 1", 5, 18, "KQK, quiet queen and king moves"},
};

TEST(search, finds_mates_at_exact_distance_within_stated_depth) {
    SearchWorker *w = search_worker_create(16);
    CHECK(w);
    if (!w) return;
    static Position pos;
    for (size_t i = 0; i < sizeof mates_within_depth / sizeof mates_within_depth[0]; i++) {
        char err[128] = "";
        CHECK_MSG(pos_set_fen(&pos, mates_within_depth[i].fen, err, sizeof err), "%s: %s", mates_within_depth[i].fen, err);
        SearchLimits limits;
        search_limits_clear(&limits);
        limits.depth = mates_within_depth[i].depth;
        search_worker_clear(w);
        SearchResult r = search_worker_run(w, &pos, &limits, classical_settings());
        CHECK_MSG(score_is_mate(r.score) && score_mate_moves(r.score) == mates_within_depth[i].mate,
                  "%s (%s): depth %d scored %d, want mate %d", mates_within_depth[i].fen, mates_within_depth[i].kind,
                  mates_within_depth[i].depth, r.score, mates_within_depth[i].mate);
    }
    search_worker_destroy(w);
}

TEST(search, reports_being_mated) {
    char err[128] = "";
    /* only Kg8 is legal, then Ra8# */
    SearchResult r = search_fen("7k/8/6K1/8/8/8/8/R7 b - - 1 1", 8, err);
    CHECK(!err[0]);
    CHECK_MSG(score_is_mate(r.score) && score_mate_moves(r.score) == -1, "score %d", r.score);
}

TEST(search, root_terminal_positions) {
    char err[128] = "";
    SearchResult r = search_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 5, err); /* stalemate */
    CHECK(!err[0] && r.best == MOVE_NONE && r.score == 0);
    r = search_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", 5, err); /* checkmated */
    CHECK(!err[0] && r.best == MOVE_NONE && r.score == -SCORE_MATE);
}

TEST(search, draw_rules_in_search) {
    char err[128] = "";
    /* knight and king cannot mate: whatever is played, the score is a draw */
    SearchResult r = search_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 8, err);
    CHECK_MSG(r.score == 0, "insufficient material scored %d", r.score);
    /* fifty-move rule: a rook up, but every reply ends the game at move 100 */
    r = search_fen("8/8/4k3/8/8/4K3/4R3/8 w - - 99 80", 8, err);
    CHECK_MSG(r.score == 0, "fifty-move draw scored %d", r.score);
    /* the same position without the clock is winning */
    r = search_fen("8/8/4k3/8/8/4K3/4R3/8 w - - 0 80", 8, err);
    CHECK_MSG(r.score > 300, "KRK scored %d", r.score);
}

TEST(search, repetition_is_a_draw) {
    /* Rooks shuffle so that, with the game history, black's a7a8 repeats a position for the
     * third time: searched alone, that move must score exactly 0. */
    static Position pos;
    char err[128];
    CHECK(pos_set_fen(&pos, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", err, sizeof err));
    const char *moves[] = {"a1a2", "a8a7", "a2a1", "a7a8", "a1a2", "a8a7", "a2a1"};
    for (int i = 0; i < 7; i++) {
        Move m = move_from_uci(&pos, moves[i]);
        CHECK_MSG(m != MOVE_NONE, "move %s", moves[i]);
        if (m) pos_make_move(&pos, m);
    }
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = 6;
    limits.searchmoves_count = 1;
    limits.searchmoves[0] = move_from_uci(&pos, "a7a8");
    SearchResult r = search_sync(&pos, &limits, classical_settings());
    CHECK_MSG(r.best == limits.searchmoves[0] && r.score == 0, "repeating move scored %d", r.score);
    /* the same move without the history is not a draw by rule */
    CHECK(pos_set_fen(&pos, "r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", err, sizeof err));
    pos_make_move(&pos, move_from_uci(&pos, "a1a2"));
    pos_make_move(&pos, move_from_uci(&pos, "a8a7"));
    pos_make_move(&pos, move_from_uci(&pos, "a2a1"));
    limits.searchmoves[0] = move_from_uci(&pos, "a7a8");
    r = search_sync(&pos, &limits, classical_settings());
    CHECK_MSG(r.score != 0, "without history scored %d", r.score);
}

static uint64_t bench_nodes_with(EvalMode eval_mode) {
    EngineSettings settings = ENGINE_SETTINGS_DEFAULT;
    settings.eval_mode = eval_mode;
    FILE *sink = fopen("/dev/null", "w");
    uint64_t nodes = bench_run(BENCH_PIN_DEPTH, &settings, sink, 0);
    fclose(sink);
    return nodes;
}

TEST(search, bench_is_deterministic_and_pinned) {
    uint64_t a = bench_nodes_with(EVAL_MODE_CLASSICAL), b = bench_nodes_with(EVAL_MODE_CLASSICAL);
    CHECK_EQ_U64(a, b);
    CHECK_MSG(a == BENCH_PIN_NODES_CLASSICAL, "classical bench depth %d gave %llu nodes, pinned %llu", BENCH_PIN_DEPTH,
              (unsigned long long)a, BENCH_PIN_NODES_CLASSICAL);
    nnue_init(); /* the embedded net, if the build has one */
    if (nnue_is_loaded() && !strcmp(nnue_net_name(), BENCH_PIN_NET_NAME)) {
        a = bench_nodes_with(EVAL_MODE_NNUE), b = bench_nodes_with(EVAL_MODE_NNUE);
        CHECK_EQ_U64(a, b);
        CHECK_MSG(a == BENCH_PIN_NODES_NNUE, "NNUE bench depth %d gave %llu nodes, pinned %llu", BENCH_PIN_DEPTH,
                  (unsigned long long)a, BENCH_PIN_NODES_NNUE);
    } else {
        printf("    no %s embedded: NNUE pin not checked\n", BENCH_PIN_NET_NAME);
    }
}

/* A lazy exit's PSQT value only says that a node lies far outside the window it was asked
 * with, and quiescence's stand pat may be a TT score: the TT must keep neither as the static
 * evaluation, where other windows, improving, RFP and null move would take it for one. After
 * searches with a small lazy margin (thousands of lazy exits), every evaluation stored for the
 * root, its children and grandchildren is the evaluator's full value. */
TEST(search, tt_keeps_no_lazy_evaluation) {
    nnue_init();
    if (!nnue_is_loaded()) {
        printf("    no net: not checked\n");
        return;
    }
    static const char *fens[] = {
        START_FEN,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
        "8/5pk1/6p1/3R4/1r5P/6P1/5PK1/8 b - - 3 41",
    };
    EngineSettings settings = ENGINE_SETTINGS_DEFAULT;
    settings.lazy_eval = true;
    settings.lazy_margin = 30;
    SearchWorker *w = search_worker_create(16);
    CHECK(w);
    if (!w) return;
    static Position pos;
    int checked = 0, wrong = 0;
    uint64_t lazy_exits = 0;
    for (size_t f = 0; f < sizeof fens / sizeof fens[0]; f++) {
        char err[128];
        CHECK(pos_set_fen(&pos, fens[f], err, sizeof err));
        SearchLimits limits;
        search_limits_clear(&limits);
        limits.depth = 8;
        search_worker_clear(w);
        lazy_exits += search_worker_run(w, &pos, &limits, &settings).eval_lazy;
        MoveList moves, replies;
        generate_legal(&pos, &moves);
        for (int i = -1; i < moves.count; i++) {
            if (i >= 0) pos_make_move(&pos, moves.moves[i]);
            generate_legal(&pos, &replies);
            for (int j = -1; j < replies.count; j++) {
                if (j >= 0) pos_make_move(&pos, replies.moves[j]);
                TTHit hit;
                if (tt_probe(search_worker_tt(w), pos_key(&pos), &hit) && hit.eval != SCORE_NONE) {
                    checked++;
                    wrong += hit.eval != nnue_evaluate(&pos, NULL);
                }
                if (j >= 0) pos_unmake_move(&pos);
            }
            if (i >= 0) pos_unmake_move(&pos);
        }
    }
    search_worker_destroy(w);
    CHECK_MSG(lazy_exits > 0 && checked > 100, "%llu lazy exits, %d evaluations checked", (unsigned long long)lazy_exits, checked);
    CHECK_MSG(wrong == 0, "%d of %d stored evaluations are not the full one", wrong, checked);
}

static uint64_t rng_state = 0x9876543ULL;

/* Short searches from a few hundred varied positions always answer with a legal move. */
TEST(search, short_searches_return_legal_moves) {
    FILE *f = fopen("tests/data/perft.epd", "r");
    CHECK(f != NULL);
    if (!f) return;
    static Position pos;
    char line[256], err[128];
    int searched = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi) continue;
        *semi = 0;
        for (int variant = 0; variant < 2; variant++) {
            if (!pos_set_fen(&pos, line, err, sizeof err)) continue;
            for (int k = 0; variant && k < 6; k++) { /* a random descendant */
                MoveList l;
                generate_legal(&pos, &l);
                if (!l.count) break;
                pos_make_move(&pos, l.moves[test_random(&rng_state) % (uint64_t)l.count]);
            }
            MoveList legal;
            generate_legal(&pos, &legal);
            SearchLimits limits;
            search_limits_clear(&limits);
            limits.nodes = 3000;
            SearchResult r = search_sync(&pos, &limits, classical_settings());
            if (legal.count) CHECK_MSG(move_list_contains(&legal, r.best), "%s: no legal answer", line);
            else CHECK(r.best == MOVE_NONE);
            searched++;
        }
    }
    fclose(f);
    CHECK(searched >= 300);
}

TEST(search, multipv_and_searchmoves) {
    static Position pos;
    char err[128];
    CHECK(pos_set_fen(&pos, START_FEN, err, sizeof err));
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = 6;
    limits.searchmoves_count = 1;
    limits.searchmoves[0] = move_from_uci(&pos, "a2a3");
    SearchResult r = search_sync(&pos, &limits, classical_settings());
    CHECK(r.best == limits.searchmoves[0]);
    limits.searchmoves_count = 2;
    limits.searchmoves[1] = move_from_uci(&pos, "h2h3");
    r = search_sync(&pos, &limits, classical_settings());
    CHECK(r.best == limits.searchmoves[0] || r.best == limits.searchmoves[1]);
}

/* Lines reported by an asynchronous search: the last exact line of each MultiPV index. */
typedef struct {
    int depth[MAX_MOVES + 1], score[MAX_MOVES + 1];
    Move first[MAX_MOVES + 1];
    int max_depth, max_multipv;
    uint64_t nodes;
    Move best;
    int bestmove_calls;
} SearchTranscript;

static void record_line(const SearchReport *r, void *ctx) {
    SearchTranscript *tr = ctx;
    if (r->bound != BOUND_EXACT || r->multipv < 1 || r->multipv > MAX_MOVES || r->pv_length < 1) return;
    tr->depth[r->multipv] = r->depth;
    tr->score[r->multipv] = r->score;
    tr->first[r->multipv] = r->pv[0];
    if (r->depth > tr->max_depth) tr->max_depth = r->depth;
    if (r->multipv > tr->max_multipv) tr->max_multipv = r->multipv;
    tr->nodes = r->nodes;
}

static void record_bestmove(Move best, Move ponder, void *ctx) {
    SearchTranscript *tr = ctx;
    (void)ponder;
    tr->best = best;
    tr->bestmove_calls++;
}

/* Runs the engine's own asynchronous search (with its thread count) to completion. */
static void run_engine_search(const char *fen, int depth, int multipv, SearchTranscript *tr) {
    static Position pos;
    char err[128];
    memset(tr, 0, sizeof *tr);
    CHECK_MSG(pos_set_fen(&pos, fen, err, sizeof err), "%s: %s", fen, err);
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = depth;
    EngineSettings settings = *classical_settings();
    settings.multipv = multipv;
    SearchOutput out = {.report = record_line, .bestmove = record_bestmove, .ctx = tr};
    search_start(&pos, &limits, &settings, &out);
    search_wait();
    MoveList legal;
    generate_legal(&pos, &legal);
    CHECK_MSG(tr->bestmove_calls == 1 && move_list_contains(&legal, tr->best), "%s: bestmove %d (%d calls)", fen, tr->best,
              tr->bestmove_calls);
}

/* MultiPV 2 and 3: each line completes the last depth, starts with its own move and scores no
 * better than the line above it; the best move is the first line's. */
TEST(search, multipv_lines_are_distinct_and_ordered) {
    static const char *fens[] = {START_FEN, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                                 "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 w - - 0 1"};
    SearchTranscript tr;
    for (int f = 0; f < 3; f++)
        for (int k = 2; k <= 3; k++) {
            run_engine_search(fens[f], 8, k, &tr);
            CHECK_MSG(tr.max_depth == 8 && tr.max_multipv == k, "%s multipv %d: depth %d, %d lines", fens[f], k, tr.max_depth,
                      tr.max_multipv);
            CHECK(tr.first[1] == tr.best);
            for (int i = 1; i <= k; i++) {
                CHECK_MSG(tr.depth[i] == 8, "line %d ended at depth %d", i, tr.depth[i]);
                for (int j = 1; j < i; j++) CHECK_MSG(tr.first[j] != tr.first[i], "%s: lines %d and %d share a move", fens[f], j, i);
                if (i > 1) CHECK_MSG(tr.score[i - 1] >= tr.score[i], "%s: line %d scores %d above line %d's %d", fens[f], i, tr.score[i],
                                     i - 1, tr.score[i - 1]);
            }
        }
    /* two legal replies: MultiPV 3 gives two lines */
    run_engine_search("7k/8/8/8/8/8/8/K6R b - - 0 1", 6, 3, &tr);
    CHECK_MSG(tr.max_multipv == 2 && tr.first[1] != tr.first[2], "%d lines", tr.max_multipv);
}

/* Lazy SMP with two threads finishes a fixed-depth search with a legal move. */
TEST(search, two_threads_finish_with_a_legal_move) {
    CHECK(search_set_threads(2) == 2);
    SearchTranscript tr;
    run_engine_search("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 10, 1, &tr);
    CHECK_MSG(tr.max_depth == 10 && tr.nodes > 0, "depth %d, %llu nodes", tr.max_depth, (unsigned long long)tr.nodes);
    run_engine_search("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 12, 2, &tr);
    CHECK(tr.max_depth == 12 && tr.max_multipv == 2);
    search_set_threads(1);
}
