/* Board, move generation, FEN and notation tests. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "movegen.h"
#include "notation.h"
#include "perft.h"
#include "test.h"

static Position *new_position(const char *fen) {
    Position *pos = calloc(1, sizeof *pos);
    char err[128];
    if (!pos_set_fen(pos, fen, err, sizeof err)) {
        printf("    bad test FEN %s: %s\n", fen, err);
        free(pos);
        return NULL;
    }
    return pos;
}

static const struct { const char *fen; int depth; uint64_t nodes; } published[] = {
    {START_FEN, 6, 119060324ULL},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5, 193690690ULL},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 11030083ULL},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5, 15833292ULL},
    {"r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5, 15833292ULL},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194ULL},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 5, 164075551ULL},
};

TEST(perft, published_positions) {
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        Position *pos = new_position(published[i].fen);
        CHECK(pos != NULL);
        if (!pos) continue;
        uint64_t n = perft(pos, published[i].depth);
        CHECK_MSG(n == published[i].nodes, "%s depth %d: got %llu want %llu", published[i].fen, published[i].depth,
                  (unsigned long long)n, (unsigned long long)published[i].nodes);
        free(pos);
    }
}

/* An EPD perft file: "<fen> ;D1 n ;D2 n ...". The normal run stops each position at the
 * deepest depth with at most leaf_budget leaves; --full runs every listed depth. */
static void perft_epd_file(const char *path, int expected_positions, uint64_t leaf_budget) {
    FILE *f = fopen(path, "r");
    CHECK_MSG(f != NULL, "cannot open %s (run from the repository root)", path);
    if (!f) return;
    char line[512];
    int positions = 0, depths_checked = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi) continue;
        *semi = 0;
        Position *pos = new_position(line);
        CHECK_MSG(pos != NULL, "EPD FEN rejected: %s", line);
        if (!pos) continue;
        positions++;
        char *p = semi + 1;
        int best_depth = 0;
        uint64_t best_count = 0;
        while (p && *p) {
            int d;
            unsigned long long count;
            if (sscanf(p, "D%d %llu", &d, &count) == 2) {
                if (test_full || count <= leaf_budget || d == 1) {
                    if (test_full) {
                        uint64_t got = perft(pos, d);
                        CHECK_MSG(got == count, "%s D%d got %llu want %llu", line, d, (unsigned long long)got, count);
                        depths_checked++;
                    } else if (d > best_depth) {
                        best_depth = d, best_count = count;
                    }
                }
            }
            p = strchr(p, ';');
            if (p) p++;
        }
        if (!test_full && best_depth) {
            uint64_t got = perft(pos, best_depth);
            CHECK_MSG(got == best_count, "%s D%d got %llu want %llu", line, best_depth, (unsigned long long)got,
                      (unsigned long long)best_count);
            depths_checked++;
        }
        free(pos);
    }
    fclose(f);
    CHECK_MSG(positions == expected_positions, "%s: expected %d positions, read %d", path, expected_positions, positions);
    CHECK(depths_checked >= positions);
}

TEST(perft, epd_suite) { perft_epd_file("tests/data/perft.epd", 200, 5000000ULL); }

/* Chess960 and double-960 start positions, positions reached by play that keep castling
 * rights, and hand-made castling cases (king or rook already on its destination, king and
 * rook swapping squares, a castling rook that shields the king, attacked and blocked paths),
 * in X-FEN and Shredder-FEN. Counts from Stockfish's go perft with UCI_Chess960 true. */
TEST(perft, chess960_suite) { perft_epd_file("tests/data/perft960.epd", 71, 2000000ULL); }

static const char *roundtrip_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/8/8/8/8/K1k5 b - - 99 180",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - 12 40",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
};

TEST(fen, roundtrip) {
    for (size_t i = 0; i < sizeof roundtrip_fens / sizeof roundtrip_fens[0]; i++) {
        Position *pos = new_position(roundtrip_fens[i]);
        CHECK(pos != NULL);
        if (!pos) continue;
        char out[128];
        pos_get_fen(pos, out, sizeof out);
        CHECK_MSG(strcmp(out, roundtrip_fens[i]) == 0, "'%s' came back as '%s'", roundtrip_fens[i], out);
        free(pos);
    }
}

/* The FENs of an EPD perft file, appended to fens[*n..max). */
static void load_epd_fens(const char *path, char fens[][128], int *n, int max) {
    FILE *f = fopen(path, "r");
    if (!f) return;
    char line[512];
    while (*n < max && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi) continue;
        *semi = 0;
        snprintf(fens[(*n)++], 128, "%.127s", line);
    }
    fclose(f);
}

enum { EPD_FENS = 200, EPD960_FENS = 71 };

typedef char SuiteFen[128];

/* Both perft suites' FENs, standard positions first, then the Chess960 ones: read once, and
 * checked to be complete for every test that asks. */
static const SuiteFen *suite_fens(int *n) {
    static SuiteFen fens[EPD_FENS + EPD960_FENS];
    static int count = -1;
    if (count < 0) {
        count = 0;
        load_epd_fens("tests/data/perft.epd", fens, &count, EPD_FENS);
        load_epd_fens("tests/data/perft960.epd", fens, &count, EPD_FENS + EPD960_FENS);
    }
    CHECK_MSG(count == EPD_FENS + EPD960_FENS, "%d suite positions", count);
    *n = count;
    return fens;
}

/* Written back, every suite FEN parses to the same position, castling rooks included, and
 * reads the same again. */
TEST(fen, roundtrip_epd_positions) {
    int n;
    const SuiteFen *fens = suite_fens(&n);
    for (int i = 0; i < n; i++) {
        Position *a = new_position(fens[i]);
        CHECK(a != NULL);
        if (!a) continue;
        char out[128];
        pos_get_fen(a, out, sizeof out);
        Position *b = new_position(out);
        CHECK(b != NULL);
        if (b) {
            char again[128];
            pos_get_fen(b, again, sizeof again);
            CHECK_MSG(strcmp(out, again) == 0, "%s vs %s", out, again);
            CHECK(pos_key(a) == pos_key(b));
            CHECK(memcmp(a->board, b->board, sizeof a->board) == 0);
            CHECK_MSG(memcmp(&a->castling, &b->castling, sizeof a->castling) == 0, "castling setup of %.120s", fens[i]);
        }
        free(a);
        free(b);
    }
}

/* Each must be refused, with a reason, and leave the previous position exactly as it was. */
static const char *bad_fens[] = {
    "",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",            /* missing fields */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", /* short rank */
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",/* 9 squares */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",         /* 7 ranks */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
    "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",/* bad letter */
    "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",  /* no black king */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1",  /* two white kings */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w kq - 0 1",  /* pawn on rank 1 */
    "Pnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w Kkq - 0 1", /* pawn on rank 8 */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",/* bad side */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",/* bad castling char */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",/* repeated right */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",/* K without h1 rook */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1",  /* (no white king) */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",/* ep with white to move on rank 3 */
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1",/* ep on wrong rank for side */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",/* no pawn pushed there */
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",/* negative clock */
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk",
    "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1",                         /* side not to move in check */
    "4k3/PPPPPPPP/P7/8/8/8/8/4K3 w - - 0 1",                    /* nine pawns */
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1 1",                          /* seven fields */
    "4k3/8/8/8/8/8/8/RR2K2R w C - 0 1",                         /* no rook on the c-file */
    "4k3/8/8/8/8/8/8/RR2K2R w E - 0 1",                         /* the king's own file */
    "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",                           /* no rook on the long side */
    "4k3/8/8/8/8/8/8/RR2K2R w AQ - 0 1",                        /* a1 named twice */
    "4k3/8/8/8/8/8/4K3/RR5R w H - 0 1",                         /* king off its first rank */
    "4k3/8/8/8/8/8/8/RR2K2R w I - 0 1",                         /* no such file */
};

/* Shredder-FEN and X-FEN castling fields; what comes back is X-FEN: K/Q for the outermost
 * rook, the rook's file otherwise. */
TEST(fen, chess960_castling_fields) {
    static const struct { const char *in, *out; } cases[] = {
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"},
        {"4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1", "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1"},
        {"4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1", "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1"},
        {"4k3/8/8/8/8/8/8/RR2K2R w HA - 0 1", "4k3/8/8/8/8/8/8/RR2K2R w KQ - 0 1"},
        {"r2k2rr/8/8/8/8/8/8/4K3 b gq - 0 1", "r2k2rr/8/8/8/8/8/8/4K3 b gq - 0 1"},
        {"rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1", "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position *pos = new_position(cases[i].in);
        CHECK(pos != NULL);
        if (!pos) continue;
        char out[128];
        pos_get_fen(pos, out, sizeof out);
        CHECK_MSG(strcmp(out, cases[i].out) == 0, "'%s' came back as '%s'", cases[i].in, out);
        free(pos);
    }
}

/* King f1 and rook g1 swap squares when castling short; unmaking puts them back. */
TEST(board, chess960_castling_moves_king_and_rook) {
    Position *pos = new_position("k7/8/8/8/8/8/8/4RKR1 w EG - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    Move short_castle = move_make_kind(F1, G1, MOVE_CASTLING, KNIGHT), long_castle = move_make_kind(F1, C1, MOVE_CASTLING, KNIGHT);
    MoveList list;
    generate_legal(pos, &list);
    CHECK(move_list_contains(&list, short_castle) && move_list_contains(&list, long_castle));
    pos_make_move(pos, short_castle);
    CHECK(pos->board[G1] == W_KING && pos->board[F1] == W_ROOK && pos->board[E1] == W_ROOK && pos->king_square[WHITE] == G1);
    CHECK(pos_state(pos)->castling == 0 && pos_compute_key(pos) == pos_key(pos));
    pos_unmake_move(pos);
    CHECK(pos->board[F1] == W_KING && pos->board[G1] == W_ROOK && pos->king_square[WHITE] == F1);
    pos_make_move(pos, long_castle);
    CHECK(pos->board[C1] == W_KING && pos->board[D1] == W_ROOK && pos->board[E1] == NO_PIECE && pos->board[G1] == W_ROOK);
    pos_unmake_move(pos);
    free(pos);
    /* the castling rook on b1 shields the king on c1 from the queen on a1 */
    pos = new_position("1r2k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    CHECK(!pos_is_pseudo_legal(pos, move_make_kind(C1, C1, MOVE_CASTLING, KNIGHT)));
    free(pos);
}

TEST(fen, rejects_bad_input_atomically) {
    Position *pos = new_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    Position *before = malloc(sizeof *before);
    memcpy(before, pos, sizeof *pos);
    for (size_t i = 0; i < sizeof bad_fens / sizeof bad_fens[0]; i++) {
        char err[128] = "";
        bool ok = pos_set_fen(pos, bad_fens[i], err, sizeof err);
        CHECK_MSG(!ok, "accepted bad FEN '%s'", bad_fens[i]);
        CHECK_MSG(err[0] != 0, "no reason given for '%s'", bad_fens[i]);
        CHECK_MSG(memcmp(before, pos, sizeof *pos) == 0, "position changed by rejected FEN '%s'", bad_fens[i]);
    }
    free(before);
    free(pos);
}

/* Several threads parse FENs at once (datagen's workers each set up their openings): a parser
 * with hidden shared state, such as strtok's, mixes their fields up. */
#define PARALLEL_FEN_THREADS 4
#define PARALLEL_FEN_ROUNDS 250000
typedef struct {
    const char *fen;
    int failures;
} ParallelFenJob;

static void *parse_fen_repeatedly(void *arg) {
    ParallelFenJob *job = arg;
    Position *pos = malloc(sizeof *pos);
    if (!pos) return job->failures = -1, NULL;
    char back[128];
    for (int i = 0; i < PARALLEL_FEN_ROUNDS; i++) {
        bool parsed = pos_set_fen(pos, job->fen, NULL, 0);
        if (parsed) pos_get_fen(pos, back, sizeof back);
        if (!parsed || strcmp(back, job->fen)) job->failures++;
    }
    free(pos);
    return NULL;
}

TEST(fen, parsing_is_safe_on_parallel_threads) {
    _Static_assert(PARALLEL_FEN_THREADS <= sizeof published / sizeof published[0], "a published FEN per thread");
    ParallelFenJob jobs[PARALLEL_FEN_THREADS];
    for (int i = 0; i < PARALLEL_FEN_THREADS; i++) jobs[i] = (ParallelFenJob){published[i].fen, 0};
    pthread_t tids[PARALLEL_FEN_THREADS];
    int started = 0;
    for (; started < PARALLEL_FEN_THREADS; started++)
        if (pthread_create(&tids[started], NULL, parse_fen_repeatedly, &jobs[started]) != 0) break;
    CHECK_MSG(started >= 2, "only %d threads started", started);
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    for (int i = 0; i < started; i++)
        CHECK_MSG(jobs[i].failures == 0, "'%s': %d of %d parses failed or came back different", jobs[i].fen,
                  jobs[i].failures, PARALLEL_FEN_ROUNDS);
}

TEST(fen, ep_square_kept_only_when_capturable) {
    /* after 1.e4 no black pawn can take: the key must equal the FEN without ep */
    Position *a = new_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    Position *b = new_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    CHECK(a && b);
    if (a && b) CHECK(pos_key(a) == pos_key(b));
    free(a);
    free(b);
}

static uint64_t rng_state = 0x1234567ULL;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

TEST(san, roundtrip_every_legal_move) {
    int n;
    const SuiteFen *fens = suite_fens(&n);
    int moves_checked = 0;
    for (int i = 0; i < n; i++) {
        Position *pos = new_position(fens[i]);
        if (!pos) continue;
        pos->chess960 = i >= EPD_FENS; /* 960 castling is written king takes rook */
        /* the EPD position and a few random descendants */
        for (int step = 0; step < 6; step++) {
            MoveList list;
            generate_legal(pos, &list);
            for (int k = 0; k < list.count; k++) {
                char san[16], uci[8];
                move_to_san(pos, list.moves[k], san);
                Move back = move_from_san(pos, san);
                CHECK_MSG(back == list.moves[k], "%.120s: SAN %s did not round-trip", fens[i], san);
                move_to_uci(pos, list.moves[k], uci);
                CHECK_MSG(move_from_uci(pos, uci) == list.moves[k], "%.120s: UCI %s did not round-trip", fens[i], uci);
                moves_checked++;
            }
            if (!list.count) break;
            pos_make_move(pos, list.moves[rng() % (uint64_t)list.count]);
        }
        free(pos);
    }
    CHECK(moves_checked > 5000);
}

TEST(san, known_strings) {
    Position *pos = new_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    char san[16];
    move_to_san(pos, move_make_kind(E1, G1, MOVE_CASTLING, KNIGHT), san);
    CHECK(strcmp(san, "O-O") == 0);
    CHECK(move_from_san(pos, "0-0-0") == move_make_kind(E1, C1, MOVE_CASTLING, KNIGHT));
    CHECK(move_from_san(pos, "Nxf7") == move_make(E5, F7));
    CHECK(move_from_san(pos, "Qxf6") == move_make(F3, F6));
    CHECK(move_from_san(pos, "Ncb5") == move_make(C3, B5)); /* only one knight reaches b5 from c3, still accepted */
    CHECK(move_from_san(pos, "Nb5") == move_make(C3, B5));
    CHECK(move_from_san(pos, "Rb1") == move_make(A1, B1));
    CHECK(move_from_san(pos, "Kd2") == MOVE_NONE);  /* occupied by own bishop */
    CHECK(move_from_san(pos, "e5") == MOVE_NONE);
    CHECK(move_from_san(pos, "zz") == MOVE_NONE);
    CHECK(move_from_san(pos, "Ne5f7") == move_make(E5, F7));
    CHECK(move_from_san(pos, "Bxa6") == move_make(E2, A6));
    CHECK(move_from_san(pos, "N") == MOVE_NONE);
    CHECK(move_from_san(pos, "Nd") == MOVE_NONE);
    free(pos);
    /* disambiguation by file and by rank */
    pos = new_position("4k3/8/8/8/8/8/R6R/R3K3 w - - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    move_to_san(pos, move_make(A1, B1), san);
    CHECK_MSG(strcmp(san, "Rab1") != 0 && strcmp(san, "Rb1") == 0, "got %s", san);
    move_to_san(pos, move_make(A2, D2), san);
    CHECK_MSG(strcmp(san, "Rad2") == 0, "got %s", san);
    move_to_san(pos, move_make(A1, A1 + 16), san);
    CHECK_MSG(strcmp(san, "R1a3") == 0, "got %s", san);
    free(pos);
    pos = new_position("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    move_to_san(pos, move_make_kind(B7, B8, MOVE_PROMOTION, QUEEN), san);
    CHECK_MSG(strcmp(san, "b8=Q+") == 0, "got %s", san);
    CHECK(move_from_san(pos, "b8=N") == move_make_kind(B7, B8, MOVE_PROMOTION, KNIGHT));
    CHECK(move_from_uci(pos, "b7b8r") == move_make_kind(B7, B8, MOVE_PROMOTION, ROOK));
    CHECK(move_from_uci(pos, "b7b8") == MOVE_NONE);
    CHECK(move_from_san(pos, "b8") == MOVE_NONE); /* promotion piece is required */
    CHECK(move_from_san(pos, "b8q") == move_make_kind(B7, B8, MOVE_PROMOTION, QUEEN));
    free(pos);
}

/* Random playouts: the incremental key matches a recomputed one at every step, every
 * generated move passes the stand-alone legality check, and unmaking everything restores
 * the starting position bit for bit. */
TEST(board, make_unmake_random_playouts) {
    int n;
    const SuiteFen *fens = suite_fens(&n);
    Position *pos = calloc(1, sizeof *pos), *orig = calloc(1, sizeof *orig);
    int plies_total = 0;
    for (int game = 0; game < 3000; game++) {
        char err[128];
        const char *fen = game % 3 == 0 ? START_FEN : fens[rng() % (uint64_t)n];
        CHECK(pos_set_fen(pos, fen, err, sizeof err));
        memcpy(orig, pos, sizeof *pos);
        int plies = 0;
        for (; plies < 120; plies++) {
            MoveList list;
            generate_legal(pos, &list);
            if (!list.count) break;
            CHECK(pos_compute_key(pos) == pos_key(pos));
            if (plies % 8 == 0) {
                for (int k = 0; k < list.count; k++) CHECK(pos_is_pseudo_legal(pos, list.moves[k]));
                for (int k = 0; k < 64; k++) { /* random codes are legal exactly when generated */
                    Move m = (Move)(rng() & 0xFFFF);
                    CHECK_MSG(pos_is_pseudo_legal(pos, m) == move_list_contains(&list, m), "move code %04x", m);
                }
                for (int index = 0; index < 4; index++) { /* and so are castling codes of both colours */
                    Move m = move_make_kind(pos->king_square[index >> 1], castling_king_to(index), MOVE_CASTLING, KNIGHT);
                    CHECK_MSG(pos_is_pseudo_legal(pos, m) == move_list_contains(&list, m), "%s: castling %d", fen, index);
                }
                MoveList noisy, quiet;
                generate_moves(pos, &noisy, GEN_NOISY);
                generate_moves(pos, &quiet, GEN_QUIET);
                CHECK(noisy.count + quiet.count == list.count);
                for (int k = 0; k < noisy.count; k++) CHECK(move_list_contains(&list, noisy.moves[k]) && !move_list_contains(&quiet, noisy.moves[k]));
                for (int k = 0; k < quiet.count; k++) CHECK(move_list_contains(&list, quiet.moves[k]));
            }
            Move m = list.moves[rng() % (uint64_t)list.count];
            if (!pos_in_check(pos) && rng() % 16 == 0) {
                pos_make_null(pos);
                CHECK(pos_compute_key(pos) == pos_key(pos));
                pos_unmake_null(pos);
            }
            uint64_t key_before = pos_key(pos);
            bool predicted_check = pos_gives_check(pos, m);
            CheckInfo info;
            pos_check_info(pos, &info);
            CHECK(pos_gives_check_with(pos, &info, m) == predicted_check);
            CHECK(pos_key(pos) == key_before); /* the trial move leaves no trace */
            pos_make_move(pos, m);
            CHECK(pos_in_check(pos) == predicted_check);
        }
        plies_total += plies;
        for (int i = 0; i < plies; i++) pos_unmake_move(pos);
        CHECK(pos->state_index == orig->state_index);
        CHECK(memcmp(pos->board, orig->board, sizeof pos->board) == 0);
        CHECK(memcmp(pos->piece_bb, orig->piece_bb, sizeof pos->piece_bb) == 0);
        CHECK(memcmp(pos->color_bb, orig->color_bb, sizeof pos->color_bb) == 0);
        CHECK(pos->occupied == orig->occupied && pos->side == orig->side && pos->game_ply == orig->game_ply);
        CHECK(memcmp(pos->king_square, orig->king_square, sizeof pos->king_square) == 0);
        CHECK(memcmp(pos_state(pos), pos_state(orig), sizeof(StateInfo)) == 0);
        CHECK(pos_compute_key(pos) == pos_key(orig));
    }
    CHECK(plies_total > 100000);
    free(pos);
    free(orig);
}

TEST(board, gives_check_matches_make) {
    int n;
    const SuiteFen *fens = suite_fens(&n);
    for (int i = 0; i < n; i++) {
        Position *pos = new_position(fens[i]);
        if (!pos) continue;
        MoveList list;
        generate_legal(pos, &list);
        CheckInfo info;
        pos_check_info(pos, &info);
        for (int k = 0; k < list.count; k++) {
            bool predicted = pos_gives_check(pos, list.moves[k]);
            CHECK(pos_gives_check_with(pos, &info, list.moves[k]) == predicted);
            pos_make_move(pos, list.moves[k]);
            CHECK(predicted == pos_in_check(pos));
            pos_unmake_move(pos);
        }
        free(pos);
    }
}

TEST(board, draw_rules) {
    Position *pos = new_position("8/8/8/8/8/8/8/K1k5 w - - 0 1");
    CHECK(pos && pos_insufficient_material(pos));
    free(pos);
    pos = new_position("8/8/8/8/8/8/8/KNk5 w - - 0 1");
    CHECK(pos && pos_insufficient_material(pos));
    free(pos);
    pos = new_position("8/8/8/8/8/8/8/KBk1b3 w - - 0 1"); /* b1 light, e1 dark: mate possible */
    CHECK(pos && !pos_insufficient_material(pos));
    free(pos);
    pos = new_position("8/8/8/8/8/8/2b5/KBk5 w - - 0 1"); /* b1 and c2 both light squares */
    CHECK(pos && pos_insufficient_material(pos));
    free(pos);
    pos = new_position("8/8/8/8/8/8/R7/K3k3 w - - 0 1");
    CHECK(pos && !pos_insufficient_material(pos));
    free(pos);
    /* fifty-move rule */
    pos = new_position("8/8/8/8/8/8/R7/K1k5 w - - 99 80");
    CHECK(pos && !pos_is_draw_by_rule(pos, 0));
    if (pos) {
        pos_make_move(pos, move_make(A2, A3));
        CHECK(pos_is_draw_by_rule(pos, 1));
    }
    free(pos);
    /* repetition: Nf3 Nf6 Ng1 Ng8 twice -> threefold at the root, twofold inside the search */
    pos = new_position(START_FEN);
    CHECK(pos != NULL);
    if (!pos) return;
    const char *cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (int i = 0; i < 4; i++) pos_make_move(pos, move_from_uci(pos, cycle[i]));
    CHECK(!pos_is_draw_by_rule(pos, 0));   /* twofold before the root: not yet a draw */
    CHECK(pos_is_draw_by_rule(pos, 5));    /* the same twofold inside the search tree is */
    for (int i = 0; i < 4; i++) pos_make_move(pos, move_from_uci(pos, cycle[i]));
    CHECK(pos_is_draw_by_rule(pos, 0));    /* threefold */
    free(pos);
}

/* The attack map of a side agrees, square by square, with the single-square attack test, for
 * both sides of every suite position. */
TEST(board, attacks_by_matches_square_attacked) {
    int n;
    const SuiteFen *fens = suite_fens(&n);
    int mismatches = 0;
    for (int i = 0; i < n; i++) {
        Position *pos = new_position(fens[i]);
        CHECK(pos != NULL);
        if (!pos) continue;
        for (int side = WHITE; side <= BLACK; side++) {
            Bitboard attacks = pos_attacks_by(pos, side);
            for (int sq = 0; sq < SQUARE_NB; sq++)
                if (((attacks >> sq) & 1) != pos_square_attacked(pos, sq, side, pos->occupied)) mismatches++;
        }
        free(pos);
    }
    CHECK_MSG(mismatches == 0, "%d squares differ", mismatches);
}
