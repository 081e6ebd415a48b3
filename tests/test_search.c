/* Search tests: mate distances, draw rules at the root, bench determinism, legal answers. */
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
#define BENCH_PIN_NODES_CLASSICAL 489657ULL
#define BENCH_PIN_NODES_NNUE 516467ULL
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

static const struct { const char *fen; int mate; } mates[] = {
    {"6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1", 1},
    {"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1},
    {"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2},
    {"7k/8/8/6K1/8/8/8/R7 w - - 0 1", 2},
    {"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3},
    {"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3},
    {"8/k7/8/1K6/8/8/8/7R w - - 0 1", 3},

    {"8/8/8/8/8/k7/8/1K2Q3 w - - 0 1", 4},
    {"8/8/8/8/1k6/8/8/1K1Q4 w - - 0 1", 5},

};

TEST(search, finds_mates_with_exact_distance) {
    for (size_t i = 0; i < sizeof mates / sizeof mates[0]; i++) {
        char err[128] = "";
        SearchResult r = search_fen(mates[i].fen, 2 * mates[i].mate + 6, err);
        CHECK_MSG(!err[0], "%s: %s", mates[i].fen, err);
        CHECK_MSG(score_is_mate(r.score) && score_mate_moves(r.score) == mates[i].mate, "%s: score %d (mate %d), want mate %d",
                  mates[i].fen, r.score, score_is_mate(r.score) ? score_mate_moves(r.score) : 0, mates[i].mate);
    }
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

static uint64_t rng_state = 0x9876543ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

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
                pos_make_move(&pos, l.moves[rng() % (uint64_t)l.count]);
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
