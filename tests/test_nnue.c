/* NNUE tests: feature indices, accumulator consistency, symmetry, the layers against a plain C
 * statement of the net, net loading and the PSQT-classical net. Nets are built in memory by
 * net-init code (the embedded net is used too when the build has one). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accumulator.h"
#include "board.h"
#include "movegen.h"
#include "nnue.h"
#include "nnue_features.h"
#include "nnue_order.h"
#include "test.h"
#include "train_record.h"

/* ------------------------------------------------------------------ helpers */

static Position *nn_position(const char *fen) {
    Position *pos = calloc(1, sizeof *pos);
    char err[128];
    if (!pos_set_fen(pos, fen, err, sizeof err)) {
        printf("    bad test FEN %s: %s\n", fen, err);
        free(pos);
        return NULL;
    }
    return pos;
}

static uint64_t rng_state = 0x1234567;
static uint64_t nn_rand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Installs a fresh random net (built in memory, no file). */
static bool install_random_net(uint64_t seed) {
    NnueNet *net = nnue_net_alloc();
    if (!net) return false;
    nnue_net_init_random(net, seed);
    char err[200];
    bool ok = nnue_set_net(net, "test-random", err, sizeof err);
    if (!ok) printf("    net refused: %s\n", err), nnue_net_free(net);
    return ok;
}

/* Random nets of other shapes: 8 output buckets (and/or) an SCReLU accumulator activation. */
static bool install_shaped_net(uint64_t seed, int buckets, int activation) {
    NnueNet *net = nnue_net_alloc();
    if (!net) return false;
    nnue_net_init_random_buckets(net, seed, buckets);
    net->activation = activation;
    char err[200];
    bool ok = nnue_set_net(net, "test-random", err, sizeof err);
    if (!ok) printf("    net refused: %s\n", err), nnue_net_free(net);
    return ok;
}

static bool install_bucketed_net(uint64_t seed) {
    return install_shaped_net(seed, NNUE_MAX_OUTPUT_BUCKETS, NNUE_ACTIVATION_CRELU);
}
static bool install_screlu_net(uint64_t seed) { return install_shaped_net(seed, 1, NNUE_ACTIVATION_SCRELU); }
static bool install_screlu_bucketed_net(uint64_t seed) {
    return install_shaped_net(seed, NNUE_MAX_OUTPUT_BUCKETS, NNUE_ACTIVATION_SCRELU);
}

/* Random net with full-range int8 hidden weights and big feature weights: the accumulator
 * wraps around int16 and every clipping path is hit. An odd seed gives it the SCReLU
 * activation. */
static bool install_stress_net(uint64_t seed) {
    NnueNet *net = nnue_net_alloc();
    if (!net) return false;
    nnue_net_init_random(net, seed);
    uint64_t save = rng_state;
    rng_state = seed * 2654435761u + 1;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_L1; i++) net->ft_weights[f][i] = (int16_t)((int)(nn_rand() % 8001) - 4000);
    for (int o = 0; o < NNUE_L2; o++)
        for (int i = 0; i < 2 * NNUE_L1; i++) net->l1_weights[o][i] = (int8_t)(nn_rand() & 0xFF);
    for (int o = 0; o < NNUE_L3; o++)
        for (int i = 0; i < NNUE_L2; i++) net->l2_weights[0][o][i] = (int8_t)(nn_rand() & 0xFF);
    for (int i = 0; i < NNUE_L3; i++) net->out_weights[0][i] = (int8_t)(nn_rand() & 0xFF);
    net->acc_shift = 2;
    net->activation = seed % 2 ? NNUE_ACTIVATION_SCRELU : NNUE_ACTIVATION_CRELU;
    rng_state = save;
    char err[200];
    bool ok = nnue_set_net(net, "test-stress", err, sizeof err);
    if (!ok) printf("    net refused: %s\n", err), nnue_net_free(net);
    return ok;
}

static bool install_classical_net(void) {
    NnueNet *net = nnue_net_alloc();
    if (!net) return false;
    nnue_net_init_psqt_classical(net);
    char err[200];
    bool ok = nnue_set_net(net, "test-classical", err, sizeof err);
    if (!ok) printf("    net refused: %s\n", err), nnue_net_free(net);
    return ok;
}

static bool random_move(Position *pos, Move *out) {
    MoveList list;
    generate_legal(pos, &list);
    if (list.count == 0) return false;
    *out = list.moves[nn_rand() % (uint64_t)list.count];
    return true;
}

static const char *const playout_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "8/8/4k3/8/8/3K4/8/7R w - - 0 1",
    "1k6/1pp4p/8/8/3Pp3/8/PPP4P/1K6 b - d3 0 1",
};
#define PLAYOUT_FEN_COUNT ((int)(sizeof playout_fens / sizeof playout_fens[0]))

typedef struct {
    int nodes, mismatches, king_moves, castles, en_passants, promotions;
    char first_bad[160];
} WalkStats;

static void note_move(WalkStats *ws, const Position *pos, Move m) {
    int kind = move_kind(m);
    if (kind == MOVE_CASTLING) ws->castles++;
    else if (kind == MOVE_ENPASSANT) ws->en_passants++;
    else if (kind == MOVE_PROMOTION) ws->promotions++;
    if (piece_type(pos_piece_on(pos, move_from(m))) == KING) ws->king_moves++;
}

/* The search's calling pattern: the board moves, then the accumulator follows. */
static void nn_make(Position *pos, Accumulator *acc, Move m) {
    pos_make_move(pos, m);
    accumulator_after_make(acc, pos);
}

static void nn_unmake(Position *pos, Accumulator *acc) {
    pos_unmake_move(pos);
    accumulator_after_unmake(acc, pos);
}

static void check_node(WalkStats *ws, Accumulator *acc, const Position *pos, const char *what) {
    ws->nodes++;
    if (!accumulator_matches_refresh(acc, pos)) {
        if (!ws->mismatches) {
            char fen[128];
            pos_get_fen(pos, fen, sizeof fen);
            snprintf(ws->first_bad, sizeof ws->first_bad, "%s: %s", what, fen);
        }
        ws->mismatches++;
    }
}

/* Random playouts and random make/unmake walks from every playout FEN, checking the
 * accumulator against a full refresh after every make and every unmake. */
static void accumulator_walks(WalkStats *ws, int plies, int walks_per_fen) {
    Accumulator *acc = accumulator_create();
    if (!acc) return;
    for (int i = 0; i < PLAYOUT_FEN_COUNT; i++) {
        Position *pos = nn_position(playout_fens[i]);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        check_node(ws, acc, pos, "refresh");
        for (int w = 0; w < walks_per_fen; w++) {
            /* a straight playout to the end, then everything undone */
            int made = 0;
            Move m;
            while (made < plies && random_move(pos, &m)) {
                note_move(ws, pos, m);
                nn_make(pos, acc, m);
                made++;
                check_node(ws, acc, pos, "make");
            }
            while (made-- > 0) {
                nn_unmake(pos, acc);
                check_node(ws, acc, pos, "unmake");
            }
            /* a wandering walk: unmake with probability 1/3, so lines branch and king moves nest */
            made = 0;
            for (int step = 0; step < plies; step++) {
                if (made > 0 && nn_rand() % 3 == 0) {
                    nn_unmake(pos, acc);
                    made--;
                    check_node(ws, acc, pos, "unmake");
                } else if (random_move(pos, &m)) {
                    note_move(ws, pos, m);
                    nn_make(pos, acc, m);
                    made++;
                    check_node(ws, acc, pos, "make");
                }
            }
            while (made-- > 0) {
                nn_unmake(pos, acc);
                check_node(ws, acc, pos, "unmake");
            }
        }
        free(pos);
    }
    accumulator_destroy(acc);
}

/* Every node of a depth-limited tree, checked after each make and each unmake. */
static void tree_walk(Position *pos, Accumulator *acc, int depth, WalkStats *ws) {
    if (depth == 0) return;
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        note_move(ws, pos, list.moves[i]);
        nn_make(pos, acc, list.moves[i]);
        check_node(ws, acc, pos, "make");
        tree_walk(pos, acc, depth - 1, ws);
        nn_unmake(pos, acc);
        check_node(ws, acc, pos, "unmake");
    }
}

/* ------------------------------------------------------------------ features */

/* Expected indices worked out by hand from the spec in docs/nnue.md section 1:
 *   index = (s ^ orient) + plane + 704 * bucket
 *   orient: white 7 if king on files a-d else 0; black 63 if king on a-d else 56
 *   bucket: white (7 - rank) * 4 + min(file, 7 - file); black uses ksq ^ 56
 *   plane: own P 0, enemy P 64, own N 128, enemy N 192, own B 256, enemy B 320,
 *          own R 384, enemy R 448, own Q 512, enemy Q 576, either king 640. */
static const struct {
    const char *fen;
    int white[8], nwhite;
    int black[8], nblack;
} hand_cases[] = {
    /* Ke1 ke8. White: ksq e1=4, file e -> orient 0, bucket 28+min(4,3)=31, base 21824.
     *   Ke1: 4+640+21824 = 22468; ke8: 60+640+21824 = 22524.
     * Black: ksq e8=60 -> orient 56; 60^56 = 4 -> bucket 31. ke8: (60^56)=4 -> 22468; Ke1: 4^56=60 -> 22524. */
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", {22468, 22524}, 2, {22468, 22524}, 2},
    /* Same, black to move: features do not depend on the side to move. */
    {"4k3/8/8/8/8/8/8/4K3 b - - 0 1", {22468, 22524}, 2, {22468, 22524}, 2},
    /* Kb1 kc8 Pa2, both kings on the queen side.
     * White: ksq b1=1, file b -> orient 7; bucket 28+min(1,6)=29, base 20416.
     *   Pa2: (8^7)=15+0 -> 20431; Kb1: (1^7)=6+640 -> 21062; kc8: (58^7)=61+640 -> 21117.
     * Black: ksq c8=58, file c -> orient 63; 58^56=2 -> bucket 28+2=30, base 21120.
     *   Pa2: (8^63)=55+64 -> 21239; kc8: (58^63)=5+640 -> 21765; Kb1: (1^63)=62+640 -> 21822. */
    {"2k5/8/8/8/8/8/P7/1K6 b - - 0 1", {20431, 21062, 21117}, 3, {21239, 21765, 21822}, 3},
    /* Kh8 ka1: the corner buckets. White ksq h8=63 -> orient 0, bucket (7-7)*4+min(7,0)=0, base 0.
     *   Kh8: 63+640 = 703; ka1: 0+640 = 640.
     * Black ksq a1=0 -> orient 63; 0^56=56 -> rank 7 -> bucket 0. ka1: (0^63)=63+640=703; Kh8: 0+640=640. */
    {"7K/8/8/8/8/8/8/k7 w - - 0 1", {640, 703}, 2, {640, 703}, 2},
    /* Three white knights (two promoted), Ke1 kb8.
     * White: base 21824, orient 0. Na2 8+128=136 -> 21960; Nb2 21961; Nc2 21962; Ke1 22468; kb8 57+640 -> 22521.
     * Black: ksq b8=57 -> orient 63; 57^56=1 -> bucket 29, base 20416. Enemy knights plane 192:
     *   Na2 (8^63)=55 -> 20663; Nb2 54 -> 20662; Nc2 53 -> 20661; kb8 (57^63)=6+640 -> 21062; Ke1 (4^63)=59+640 -> 21115. */
    {"1k6/8/8/8/8/8/NNN5/4K3 w - - 0 1", {21960, 21961, 21962, 22468, 22521}, 5,
     {20661, 20662, 20663, 21062, 21115}, 5},
    /* KR vs K, black king in the centre. White: base 21824, orient 0: Ra1 0+384 -> 22208; Ke1 22468; ke5 36+640 -> 22500.
     * Black: ksq e5=36 -> orient 56; 36^56=28 (rank 3, file e) -> bucket (7-3)*4+3=19, base 13376.
     *   Ra1 (0^56)=56+448 -> 13880; ke5 (36^56)=28+640 -> 14044; Ke1 (4^56)=60+640 -> 14076. */
    {"8/8/8/4k3/8/8/8/R3K3 b - - 0 1", {22208, 22468, 22500}, 3, {13880, 14044, 14076}, 3},
    /* KBN vs K. White ksq e4=28 -> orient 0, bucket (7-3)*4+3=19, base 13376.
     *   Nd1 3+128 -> 13507; Bc1 2+256 -> 13634; Ke4 28+640 -> 14044; kd6 43+640 -> 14059.
     * Black ksq d6=43, file d -> orient 63; 43^56=19 (rank 2, file d) -> bucket 5*4+3=23, base 16192.
     *   Nd1 (3^63)=60+192 -> 16444; Bc1 61+320 -> 16573; kd6 (43^63)=20+640 -> 16852; Ke4 (28^63)=35+640 -> 16867. */
    {"8/8/3k4/8/4K3/8/8/2BN4 w - - 0 1", {13507, 13634, 14044, 14059}, 4, {16444, 16573, 16852, 16867}, 4},
    /* Kc4 kb2 pf7, black to move. White ksq c4=26, file c -> orient 7; rank 3 -> bucket 4*4+2=18, base 12672.
     *   pf7 (53^7)=50+64 -> 12786; kb2 (9^7)=14+640 -> 13326; Kc4 (26^7)=29+640 -> 13341.
     * Black ksq b2=9, file b -> orient 63; 9^56=49 (rank 6) -> bucket 1*4+1=5, base 3520.
     *   pf7 (53^63)=10+0 -> 3530; Kc4 (26^63)=37+640 -> 4197; kb2 (9^63)=54+640 -> 4214. */
    {"8/5p2/8/8/2K5/8/1k6/8 b - - 0 1", {12786, 13326, 13341}, 3, {3530, 4197, 4214}, 3},
    /* Queen vs rook. White base 21824, orient 0: Rd1 3+384 -> 22211; qd8 59+576 -> 22459; Ke1 22468; ke8 22524.
     * Black base 21824, orient 56: Rd1 (3^56)=59+448 -> 22331; qd8 (59^56)=3+512 -> 22339; ke8 22468; Ke1 22524. */
    {"3qk3/8/8/8/8/8/8/3RK3 w - - 0 1", {22211, 22459, 22468, 22524}, 4, {22331, 22339, 22468, 22524}, 4},
    /* Kings on the d-file (last file of the mirrored half). White ksq d1=3 -> orient 7, bucket 28+3=31.
     *   Qh1 (7^7)=0+512 -> 22336; Kd1 (3^7)=4+640 -> 22468; kd8 (59^7)=60+640 -> 22524.
     * Black ksq d8=59 -> orient 63, 59^56=3 -> bucket 31. Qh1 (7^63)=56+576 -> 22456; kd8 4+640 -> 22468; Kd1 60+640 -> 22524. */
    {"3k4/8/8/8/8/8/8/3K3Q w - - 0 1", {22336, 22468, 22524}, 3, {22456, 22468, 22524}, 3},
    /* A queen each, black to move and in check.
     * White (orient 0, base 21824): Qa8 56+512 -> 22392; qh2 15+576 -> 22415; Ke1 22468; ke8 22524.
     * Black (orient 56, base 21824): qh2 (15^56)=55+512 -> 22391; Qa8 (56^56)=0+576 -> 22400; ke8 22468; Ke1 22524. */
    {"Q3k3/8/8/8/8/8/7q/4K3 b - - 0 1", {22392, 22415, 22468, 22524}, 4, {22391, 22400, 22468, 22524}, 4},
    /* Castling position, rooks in the corners (white view: Ra1 384 -> 22208, Rh1 391 -> 22215,
     * ra8 56+448 -> 22328, rh8 63+448 -> 22335; black view mirrors ranks: the same numbers). */
    {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {22208, 22215, 22328, 22335, 22468, 22524}, 6,
     {22208, 22215, 22328, 22335, 22468, 22524}, 6},
};

TEST(nnue, feature_indices_hand_computed) {
    for (size_t c = 0; c < sizeof hand_cases / sizeof hand_cases[0]; c++) {
        Position *pos = nn_position(hand_cases[c].fen);
        CHECK(pos != NULL);
        if (!pos) continue;
        int got[NNUE_MAX_ACTIVE];
        for (int p = WHITE; p <= BLACK; p++) {
            const int *want = p == WHITE ? hand_cases[c].white : hand_cases[c].black;
            int nwant = p == WHITE ? hand_cases[c].nwhite : hand_cases[c].nblack;
            int n = nnue_active_features(pos, p, got);
            bool same = n == nwant;
            for (int i = 0; same && i < n; i++) same = got[i] == want[i];
            CHECK_MSG(same, "%s %s: got %d features, first %d, want %d first %d", hand_cases[c].fen,
                      p == WHITE ? "white" : "black", n, n ? got[0] : -1, nwant, want[0]);
        }
        free(pos);
    }
}

/* A second, table-driven statement of the spec: the bucket table typed out row by row
 * (rank 8 first), orientation written as "mirror the file, flip the rank" steps. Checked for
 * every (perspective, square, piece, king square). */
TEST(nnue, feature_index_table_driven) {
    static const int bucket_rows[8][8] = {
        {0, 1, 2, 3, 3, 2, 1, 0},         /* rank 8 */
        {4, 5, 6, 7, 7, 6, 5, 4},         /* rank 7 */
        {8, 9, 10, 11, 11, 10, 9, 8},     /* rank 6 */
        {12, 13, 14, 15, 15, 14, 13, 12}, /* rank 5 */
        {16, 17, 18, 19, 19, 18, 17, 16}, /* rank 4 */
        {20, 21, 22, 23, 23, 22, 21, 20}, /* rank 3 */
        {24, 25, 26, 27, 27, 26, 25, 24}, /* rank 2 */
        {28, 29, 30, 31, 31, 30, 29, 28}, /* rank 1 */
    };
    static const int type_plane[6] = {0, 128, 256, 384, 512, 640};
    int bad = 0, first_bad[4] = {0};
    for (int p = WHITE; p <= BLACK; p++)
        for (int ksq = 0; ksq < 64; ksq++)
            for (int pc = 0; pc < 12; pc++)
                for (int sq = 0; sq < 64; sq++) {
                    int kfile = ksq % 8, krank = ksq / 8;
                    /* the king's rank as the perspective sees it: black looks from rank 8 */
                    int view_rank = p == WHITE ? krank : 7 - krank;
                    int bucket = bucket_rows[7 - view_rank][kfile];
                    int file = sq % 8, rank = sq / 8;
                    if (kfile <= 3) file = 7 - file; /* king on a-d: mirror so it stands on e-h */
                    if (p == BLACK) rank = 7 - rank;
                    int type = pc % 6, colour = pc / 6;
                    int plane = type_plane[type] + (type != 5 && colour != p ? 64 : 0);
                    int want = rank * 8 + file + plane + 704 * bucket;
                    int got = nnue_feature_index(p, sq, pc, ksq);
                    if (got != want && !bad++) first_bad[0] = p, first_bad[1] = ksq, first_bad[2] = pc, first_bad[3] = sq;
                    if (got < 0 || got >= NNUE_INPUTS) bad++;
                }
    CHECK_MSG(bad == 0, "%d mismatches, first: perspective %d ksq %d piece %d sq %d", bad, first_bad[0], first_bad[1],
              first_bad[2], first_bad[3]);
}

TEST(nnue, feature_dump_format) {
    Position *pos = nn_position("2k5/8/8/8/8/8/P7/1K6 b - - 0 1");
    CHECK(pos != NULL);
    if (!pos) return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f != NULL);
    if (f) {
        nnue_print_features(pos, f);
        fclose(f);
        CHECK_MSG(strcmp(text, "NNUE_FEATURES white 20431 21062 21117\nNNUE_FEATURES black 21239 21765 21822\n") == 0,
                  "got: %s", text);
        free(text);
    }
    /* the start position has 32 features per side, strictly ascending */
    Position *start = nn_position(START_FEN);
    if (start) {
        int idx[NNUE_MAX_ACTIVE];
        for (int p = WHITE; p <= BLACK; p++) {
            int n = nnue_active_features(start, p, idx);
            CHECK(n == 32);
            for (int i = 1; i < n; i++) CHECK(idx[i - 1] < idx[i]);
        }
        free(start);
    }
    free(pos);
}

/* ------------------------------------------------------------------ accumulator */

TEST(nnue, accumulator_matches_refresh_in_walks) {
    CHECK(install_random_net(11));
    rng_state = 0xC0FFEE;
    WalkStats ws = {0};
    accumulator_walks(&ws, 160, 6);
    printf("    %d nodes: %d king moves, %d castles, %d en passant, %d promotions\n", ws.nodes, ws.king_moves, ws.castles,
           ws.en_passants, ws.promotions);
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    CHECK_MSG(ws.king_moves > 100 && ws.castles > 0 && ws.en_passants > 0 && ws.promotions > 0,
              "coverage: %d king moves, %d castles, %d ep, %d promotions", ws.king_moves, ws.castles, ws.en_passants,
              ws.promotions);
    nnue_unload();
}

TEST(nnue, accumulator_matches_refresh_in_trees) {
    CHECK(install_random_net(12));
    static const char *const fens[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    };
    static const int depths[] = {2, 2, 4, 3};
    Accumulator *acc = accumulator_create();
    CHECK(acc != NULL);
    WalkStats ws = {0};
    for (int i = 0; acc && i < 4; i++) {
        Position *pos = nn_position(fens[i]);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        tree_walk(pos, acc, depths[i], &ws);
        free(pos);
    }
    accumulator_destroy(acc);
    printf("    %d nodes: %d king moves, %d castles, %d en passant, %d promotions\n", ws.nodes, ws.king_moves, ws.castles,
           ws.en_passants, ws.promotions);
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    CHECK(ws.nodes > 10000 && ws.castles > 0 && ws.en_passants > 0 && ws.promotions > 0);
    nnue_unload();
}

/* The lazy catch-up over several plies and the refresh cache: random make/unmake walks that
 * look at the accumulator only at some nodes (1 in 1, 2, 4 or 8), so catch-ups span various
 * numbers of plies and king moves meet cache entries left by earlier lines. */
TEST(nnue, accumulator_lazy_chains_and_cache) {
    CHECK(install_random_net(16));
    Accumulator *acc = accumulator_create();
    CHECK(acc != NULL);
    if (!acc) return;
    WalkStats ws = {0};
    rng_state = 99;
    for (int every = 1; every <= 8; every *= 2) {
        for (int i = 0; i < PLAYOUT_FEN_COUNT; i++) {
            Position *pos = nn_position(playout_fens[i]);
            if (!pos) continue;
            accumulator_refresh(acc, pos);
            int made = 0;
            for (int step = 0; step < 600; step++) {
                Move m;
                if (made > 0 && (made >= 30 || nn_rand() % 3 == 0)) nn_unmake(pos, acc), made--;
                else if (random_move(pos, &m)) note_move(&ws, pos, m), nn_make(pos, acc, m), made++;
                else if (made > 0) nn_unmake(pos, acc), made--;
                if (nn_rand() % (uint64_t)every == 0) check_node(&ws, acc, pos, "walk");
            }
            free(pos);
        }
    }
    printf("    %d nodes checked, %d king moves, %d castles\n", ws.nodes, ws.king_moves, ws.castles);
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    CHECK(ws.king_moves > 500);
    accumulator_destroy(acc);
    nnue_unload();
}

TEST(nnue, accumulator_wraps_consistently) {
    CHECK(install_stress_net(13));
    rng_state = 0xBADC0DE;
    WalkStats ws = {0};
    accumulator_walks(&ws, 80, 2);
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    nnue_unload();
}

/* The stack's edges: too few entries (1 and 8: lines run past the end and come back), a
 * refresh in the middle of a line, then unmaking 31 moves past it and playing on from there.
 * Wherever the stack has no entry the evaluation must come from scratch, so it is compared
 * with an evaluation from scratch (no accumulator) too. */
static void edge_check(WalkStats *ws, Accumulator *acc, Position *pos, const char *what, int *eval_mismatches) {
    check_node(ws, acc, pos, what);
    int with = nnue_evaluate(pos, acc), psqt_with = nnue_psqt_only(pos, acc);
    if (with != nnue_evaluate(pos, NULL) || psqt_with != nnue_psqt_only(pos, NULL)) (*eval_mismatches)++;
}

TEST(nnue, accumulator_backup_edge_cases) {
    CHECK(install_random_net(14));
    Accumulator *acc = accumulator_create();
    CHECK(acc != NULL);
    if (!acc) return;
    WalkStats ws = {0};
    int eval_mismatches = 0;
    const int capacities[2] = {1, 8};
    for (int c = 0; c < 2; c++) {
        Position *pos = nn_position("8/8/4k3/8/8/3K4/8/7R w - - 0 1");
        CHECK(pos != NULL);
        if (!pos) break;
        accumulator_refresh(acc, pos);
        acc->capacity = capacities[c];
        rng_state = 77;
        Move m;
        int made = 0;
        for (int i = 0; i < 60 && random_move(pos, &m); i++) {
            note_move(&ws, pos, m);
            nn_make(pos, acc, m), made++;
            edge_check(&ws, acc, pos, "make", &eval_mismatches);
            if (i == 30) {
                accumulator_refresh(acc, pos); /* depth restarts at 0 here */
                edge_check(&ws, acc, pos, "refresh", &eval_mismatches);
            }
        }
        int unmade = 0;
        while (made-- > 0) { /* the last 31 unmakes reach below the refresh point */
            nn_unmake(pos, acc), unmade++;
            edge_check(&ws, acc, pos, "unmake", &eval_mismatches);
            if (unmade == 40) { /* play on from below the refresh point, back up to depth 3 */
                for (int k = 0; k < 14 && random_move(pos, &m); k++) {
                    note_move(&ws, pos, m);
                    nn_make(pos, acc, m);
                    edge_check(&ws, acc, pos, "replay", &eval_mismatches);
                }
                for (int k = 0; k < 14; k++) nn_unmake(pos, acc), edge_check(&ws, acc, pos, "unreplay", &eval_mismatches);
            }
        }
        CHECK(acc->depth == -31);
        acc->capacity = MAX_STATES;
        free(pos);
    }
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    CHECK_MSG(eval_mismatches == 0, "%d evaluations differ from scratch evaluations", eval_mismatches);
    CHECK(ws.king_moves > 20);
    accumulator_destroy(acc);
    nnue_unload();
}

TEST(nnue, null_move_leaves_accumulator) {
    CHECK(install_random_net(15));
    Accumulator *acc = accumulator_create();
    Position *pos = nn_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    Position *other = nn_position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
    CHECK(acc && pos && other);
    if (!acc || !pos || !other) return;
    accumulator_refresh(acc, pos);
    AccumulatorHalf before[2];
    CHECK(accumulator_halves(acc, pos) != NULL);
    memcpy(before, accumulator_halves(acc, pos), sizeof before);
    pos_make_null(pos);
    CHECK(accumulator_halves(acc, pos) && memcmp(before, accumulator_halves(acc, pos), sizeof before) == 0);
    CHECK(accumulator_matches_refresh(acc, pos));
    accumulator_assert_current(acc, pos, "null move");
    /* same pieces, other side to move: equals the evaluation of that position from scratch */
    CHECK(nnue_evaluate(pos, acc) == nnue_evaluate(other, NULL));
    pos_unmake_null(pos);
    CHECK(accumulator_matches_refresh(acc, pos));
    free(pos), free(other);
    accumulator_destroy(acc);
    nnue_unload();
}

/* ------------------------------------------------------------------ evaluation */

static const char *const symmetry_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
    "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    "2k5/8/8/8/8/8/P7/1K6 b - - 0 1",
    "7K/8/8/8/8/8/8/k7 w - - 0 1",
    "1k6/8/8/8/8/8/NNN5/4K3 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
    "8/8/3k4/8/4K3/8/8/2BN4 w - - 0 1",
    "3qk3/8/8/8/8/8/8/3RK3 w - - 0 1",
    "Q3k3/8/8/8/8/8/7q/4K3 b - - 0 1",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "8/8/1k6/8/2pP4/8/8/4K3 b - d3 0 1",
    "3r2k1/p4ppp/1p6/8/8/1P6/P4PPP/3R2K1 w - - 0 30",
    "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 7",
};
#define SYMMETRY_COUNT ((int)(sizeof symmetry_fens / sizeof symmetry_fens[0]))

TEST(nnue, colour_flip_symmetry) {
    CHECK(install_random_net(21));
    Accumulator *acc = accumulator_create(), *acc2 = accumulator_create();
    Position *flipped = calloc(1, sizeof *flipped);
    int distinct = 0, last = 123456;
    for (int i = 0; acc && acc2 && flipped && i < SYMMETRY_COUNT; i++) {
        Position *pos = nn_position(symmetry_fens[i]);
        if (!pos) continue;
        pos_flip(pos, flipped);
        int plain = nnue_evaluate(pos, NULL), plain_flipped = nnue_evaluate(flipped, NULL);
        accumulator_refresh(acc, pos);
        accumulator_refresh(acc2, flipped);
        int e = nnue_evaluate(pos, acc), ef = nnue_evaluate(flipped, acc2);
        CHECK_MSG(e == ef && e == plain && ef == plain_flipped, "%s: %d vs flipped %d (no accumulator %d / %d)",
                  symmetry_fens[i], e, ef, plain, plain_flipped);
        CHECK(nnue_psqt_only(pos, acc) == nnue_psqt_only(flipped, acc2));
        if (e != last) distinct++;
        last = e;
        free(pos);
    }
    CHECK_MSG(distinct > SYMMETRY_COUNT / 2, "random net gives too few distinct values (%d)", distinct);
    free(flipped);
    accumulator_destroy(acc), accumulator_destroy(acc2);
    nnue_unload();
}

/* ------------------------------------------------------------------ layers against plain C */

/* The net as the file defines it, written as plainly as possible: an accumulator half is the
 * biases plus one feature row per piece (int16, wrapping), the hidden layers clip to [0, 127]
 * and multiply in int32. The layers (any instruction set) must give the same integers. */
static void reference_half(const NnueNet *net, const Position *pos, int perspective, int16_t *out) {
    int features[NNUE_MAX_ACTIVE];
    int n = nnue_active_features(pos, perspective, features);
    for (int i = 0; i < NNUE_L1; i++) {
        int v = net->ft_biases[i];
        for (int k = 0; k < n; k++) v += net->ft_weights[features[k]][i];
        out[i] = (int16_t)(uint16_t)v;
    }
}

static uint8_t reference_clip(int32_t v, int shift) {
    int32_t x = v < 0 ? 0 : v >> shift;
    return (uint8_t)(x > 127 ? 127 : x);
}

static int32_t reference_propagate(const NnueNet *net, const int16_t *stm_half, const int16_t *other_half, int b) {
    uint8_t in0[2 * NNUE_L1], in1[NNUE_L2], in2[NNUE_L3];
    for (int i = 0; i < NNUE_L1; i++) {
        in0[i] = reference_clip(stm_half[i], net->acc_shift);
        in0[NNUE_L1 + i] = reference_clip(other_half[i], net->acc_shift);
    }
    if (net->activation == NNUE_ACTIVATION_SCRELU) /* SCReLU: the clipped value squared, / 128 */
        for (int i = 0; i < 2 * NNUE_L1; i++) in0[i] = (uint8_t)(in0[i] * in0[i] / 128);
    for (int o = 0; o < NNUE_L2; o++) {
        int32_t s = net->l1_biases[o];
        for (int i = 0; i < 2 * NNUE_L1; i++) s += net->l1_weights[o][i] * in0[i];
        in1[o] = reference_clip(s, net->hidden_shift);
    }
    for (int o = 0; o < NNUE_L3; o++) {
        int32_t s = net->l2_biases[b][o];
        for (int i = 0; i < NNUE_L2; i++) s += net->l2_weights[b][o][i] * in1[i];
        in2[o] = reference_clip(s, net->hidden_shift);
    }
    int32_t out = net->out_bias[b];
    for (int i = 0; i < NNUE_L3; i++) out += net->out_weights[b][i] * in2[i];
    return out;
}

/* Random accumulator halves in several shapes: full int16 range, mostly in the clipping range,
 * mostly small, mostly zero, and all clipped to 127. */
static void random_halves(int16_t *a, int16_t *b, int shape, int acc_shift) {
    for (int i = 0; i < 2 * NNUE_L1; i++) {
        int v;
        switch (shape) {
        case 0: v = (int)(nn_rand() & 0xFFFF) - 32768; break;
        case 1: v = (int)(nn_rand() % (140u << acc_shift)) - (10 << acc_shift); break;
        case 2: v = (int)(nn_rand() % 300) - 50; break;
        case 3: v = nn_rand() % 4 ? -1 : (int)(nn_rand() % (128u << acc_shift)); break;
        default: v = 127 << acc_shift; break;
        }
        (i < NNUE_L1 ? a : b)[i % NNUE_L1] = (int16_t)v;
    }
}

typedef struct {
    int compared, mismatches;
    char first_bad[160];
} Comparison;

static void compare(Comparison *c, int32_t got, int32_t want, const char *what) {
    c->compared++;
    if (got == want) return;
    if (!c->mismatches++) snprintf(c->first_bad, sizeof c->first_bad, "%s: %d, plain C %d", what, got, want);
}

/* The current net's forward pass on random halves (every bucket in turn), against the plain
 * statement. */
static void compare_random_halves(Comparison *c, int rounds) {
    const NnueNet *net = nnue_current_net();
    _Alignas(64) int16_t a[NNUE_L1], b[NNUE_L1];
    for (int r = 0; r < rounds; r++) {
        random_halves(a, b, r % 5, net->acc_shift);
        int bucket = r % net->output_buckets;
        compare(c, nnue_propagate(a, b, bucket), reference_propagate(net, a, b, bucket), "random halves");
    }
}

/* The plain statement's output bucket: pieces on the board, counted square by square. */
static int reference_bucket(const NnueNet *net, const Position *pos) {
    int pieces = 0;
    for (int sq = 0; sq < 64; sq++) pieces += pos->board[sq] != NO_PIECE;
    return net->output_buckets == 1 ? 0 : (pieces - 1) / 4;
}

/* Random games: the accumulator's halves (updated incrementally, lazily every other ply or
 * so) and the evaluation's hidden part, against the plain statement from the features. */
static void compare_games(Comparison *c) {
    const NnueNet *net = nnue_current_net();
    Accumulator *acc = accumulator_create();
    if (!acc) return;
    for (int i = 0; i < PLAYOUT_FEN_COUNT; i++) {
        Position *pos = nn_position(playout_fens[i]);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        Move m;
        for (int ply = 0; ply < 80 && random_move(pos, &m); ply++) {
            nn_make(pos, acc, m);
            if (nn_rand() % 3 == 0) continue; /* leave this ply to a later catch-up */
            const AccumulatorHalf *h = accumulator_halves(acc, pos);
            _Alignas(64) int16_t want[2][NNUE_L1];
            reference_half(net, pos, WHITE, want[WHITE]);
            reference_half(net, pos, BLACK, want[BLACK]);
            for (int p = 0; p < 2; p++) {
                int32_t first_diff = 0;
                for (int k = 0; k < NNUE_L1 && h && !first_diff; k++) first_diff = h[p].values[k] != want[p][k];
                compare(c, h ? first_diff : 1, 0, p ? "black half" : "white half");
            }
            int bucket = reference_bucket(net, pos);
            int32_t want_hidden = reference_propagate(net, want[pos->side], want[!pos->side], bucket);
            if (h) compare(c, nnue_propagate(h[pos->side].values, h[!pos->side].values, bucket), want_hidden, "game");
            NnueParts parts; /* the same from halves computed from scratch */
            nnue_evaluate_parts(pos, &parts);
            compare(c, parts.hidden_units, want_hidden, "game, from scratch");
            compare(c, parts.bucket, bucket, "game, bucket");
        }
        free(pos);
    }
    accumulator_destroy(acc);
}

/* Hidden weights at the int8 extremes, pair by pair, so that every product pair of maddubs and
 * every sum of two pairs reaches its bound (the groups the vector kernel must sum alone). */
static bool install_extreme_net(int pattern) {
    NnueNet *net = nnue_net_alloc();
    if (!net) return false;
    nnue_net_init_random(net, 77);
    static const int8_t values[4][4] = {{127, 127, 127, 127}, {-128, -128, -128, -128}, {127, -128, -128, 127},
                                        {127, 127, -128, -128}};
    for (int o = 0; o < NNUE_L2; o++)
        for (int i = 0; i < 2 * NNUE_L1; i++)
            net->l1_weights[o][i] = (o + i / 4) % 5 ? values[pattern][i % 4] : (int8_t)(nn_rand() & 0xFF);
    for (int o = 0; o < NNUE_L3; o++)
        for (int i = 0; i < NNUE_L2; i++) net->l2_weights[0][o][i] = values[pattern][(o + i) % 4];
    char err[200];
    bool ok = nnue_set_net(net, "test-extreme", err, sizeof err);
    if (!ok) printf("    net refused: %s\n", err), nnue_net_free(net);
    return ok;
}

TEST(nnue, layers_equal_plain_c) {
    printf("    instruction set: %s\n", nnue_simd_name());
    Comparison c = {0};
    rng_state = 4242;
    const struct {
        const char *name;
        bool (*install)(uint64_t);
        uint64_t arg;
    } nets[] = {{"random", install_random_net, 31},
                {"stress", install_stress_net, 32},
                {"8 output buckets", install_bucketed_net, 33},
                {"SCReLU", install_screlu_net, 34},
                {"SCReLU stress", install_stress_net, 35},
                {"SCReLU, 8 output buckets", install_screlu_bucketed_net, 36}};
    for (size_t n = 0; n < sizeof nets / sizeof nets[0]; n++) {
        CHECK_MSG(nets[n].install(nets[n].arg), "%s net", nets[n].name);
        compare_random_halves(&c, 1000);
        compare_games(&c);
    }
    for (int pattern = 0; pattern < 4; pattern++) {
        CHECK(install_extreme_net(pattern));
        compare_random_halves(&c, 200);
    }
    CHECK(install_classical_net());
    compare_games(&c);
    nnue_unload();
    if (nnue_init()) { /* the embedded (trained) net, when the build has one */
        compare_random_halves(&c, 1000);
        compare_games(&c);
    }
    printf("    %d comparisons\n", c.compared);
    CHECK_MSG(c.mismatches == 0, "%d of %d differ, first %s", c.mismatches, c.compared, c.first_bad);
    CHECK(c.compared > 10000);
    nnue_unload();
}

/* ------------------------------------------------------------------ neuron order */

/* Positions of random games from the playout FENs, as the trainer's samples (side to move's
 * features first), and the positions themselves. */
static int random_game_samples(TrainSample *samples, Position **positions, int max) {
    int n = 0;
    for (int i = 0; i < PLAYOUT_FEN_COUNT && n < max; i++) {
        Position *pos = nn_position(playout_fens[i]);
        Move m;
        for (int ply = 0; pos && ply < 40 && n < max && random_move(pos, &m); ply++) {
            pos_make_move(pos, m);
            TrainSample *s = &samples[n];
            int feat[NNUE_MAX_ACTIVE];
            for (int h = 0; h < 2; h++) {
                s->count = (uint8_t)nnue_active_features(pos, h ? !pos->side : pos->side, feat);
                for (int k = 0; k < s->count; k++) s->feat[h][k] = (uint16_t)feat[k];
            }
            positions[n] = malloc(sizeof *pos);
            if (positions[n]) memcpy(positions[n], pos, sizeof *pos), n++;
        }
        free(pos);
    }
    return n;
}

TEST(nnue, reorder_groups_zeros_and_keeps_evaluations) {
    enum { MAX_SAMPLES = 300 };
    TrainSample *samples = calloc(MAX_SAMPLES, sizeof *samples);
    Position **positions = calloc(MAX_SAMPLES, sizeof *positions);
    NnueNet *original = nnue_net_alloc(), *reordered = nnue_net_alloc();
    CHECK(samples && positions && original && reordered);
    if (!samples || !positions || !original || !reordered) return;
    rng_state = 9090;
    int n = random_game_samples(samples, positions, MAX_SAMPLES);
    CHECK(n == MAX_SAMPLES);
    /* every neuron 4k+1 is always zero, all others rarely: in the file's order no group of four
     * is all zero, grouped by the order the four-in-a-row of always-zero neurons are */
    nnue_net_init_random(original, 41);
    for (int j = 1; j < NNUE_L1; j += 4) original->ft_biases[j] = -20000;
    memcpy(reordered, original, sizeof *original);
    int order[NNUE_L1];
    CHECK(nnue_sparsity_order(reordered, samples, (size_t)n, order));
    bool seen[NNUE_L1] = {false};
    int repeats = 0, zero_groups = 0;
    for (int j = 0; j < NNUE_L1; j++) {
        bool valid = order[j] >= 0 && order[j] < NNUE_L1 && !seen[order[j]];
        repeats += !valid;
        if (valid) seen[order[j]] = true;
    }
    CHECK_MSG(repeats == 0, "the order is not a permutation (%d repeats)", repeats);
    for (int g = 0; g < NNUE_L1; g += 4)
        zero_groups += order[g] % 4 == 1 && order[g + 1] % 4 == 1 && order[g + 2] % 4 == 1 && order[g + 3] % 4 == 1;
    CHECK_MSG(zero_groups == NNUE_L1 / 16, "%d groups of always-zero neurons, want %d", zero_groups, NNUE_L1 / 16);
    double before = nnue_zero_group_share(original, samples, (size_t)n);
    nnue_net_reorder(reordered, order);
    double after = nnue_zero_group_share(reordered, samples, (size_t)n);
    printf("    all-zero groups %.1f%% -> %.1f%%\n", 100 * before, 100 * after);
    CHECK(after >= 0.25 && after > before + 0.2);
    CHECK(memcmp(reordered, original, sizeof *original) != 0);

    /* the same evaluations, through the layers and from scratch */
    int32_t want[MAX_SAMPLES];
    char err[200];
    bool installed = nnue_set_net(original, "original", err, sizeof err);
    CHECK_MSG(installed, "%s", err);
    for (int i = 0; i < n; i++) {
        NnueParts parts;
        nnue_evaluate_parts(positions[i], &parts);
        want[i] = parts.hidden_units;
    }
    installed = installed && nnue_set_net(reordered, "reordered", err, sizeof err);
    CHECK_MSG(installed, "%s", err);
    int differ = 0;
    for (int i = 0; installed && i < n; i++) {
        NnueParts parts;
        nnue_evaluate_parts(positions[i], &parts);
        differ += parts.hidden_units != want[i];
    }
    CHECK_MSG(differ == 0, "%d of %d evaluations differ after the reorder", differ, n);
    if (!installed) nnue_net_free(reordered);
    nnue_unload();
    for (int i = 0; i < n; i++) free(positions[i]);
    free(positions);
    free(samples);
}

TEST(nnue, net_reorder_command_writes_the_same_net) {
    char net_path[96], data_path[96], out_path[96], err[256];
    snprintf(net_path, sizeof net_path, "/tmp/squall-nnue-test-%d-order-in.nnue", (int)getpid());
    snprintf(data_path, sizeof data_path, "/tmp/squall-nnue-test-%d-order.bin", (int)getpid());
    snprintf(out_path, sizeof out_path, "/tmp/squall-nnue-test-%d-order-out.nnue", (int)getpid());
    char *init_argv[] = {"net-init", "--seed", "5", "--out", net_path};
    CHECK(net_init_main(5, init_argv) == 0);
    /* records of random games (scores and results do not matter to the order) */
    enum { GAMES = 40 };
    Position *pos[GAMES] = {NULL};
    FILE *f = fopen(data_path, "wb");
    CHECK(f != NULL);
    rng_state = 777;
    for (int g = 0; f && g < GAMES; g++) {
        pos[g] = nn_position(playout_fens[g % PLAYOUT_FEN_COUNT]);
        Move m;
        for (int ply = 0; pos[g] && ply < 12 + g % 7 && random_move(pos[g], &m); ply++) {
            pos_make_move(pos[g], m);
            Record rec;
            record_encode(&rec, pos[g], 0, ply, (uint32_t)g, RESULT_DRAW);
            fwrite(&rec, sizeof rec, 1, f);
        }
    }
    if (f) fclose(f);
    char *bad_argv[] = {"net-reorder", "--net", net_path, "--data", data_path, "--out", out_path, "--positions", "0"};
    CHECK(net_reorder_main(9, bad_argv) != 0);
    CHECK(access(out_path, F_OK) != 0);
    char *argv[] = {"net-reorder", "--net", net_path, "--data", data_path, "--out", out_path};
    CHECK(net_reorder_main(7, argv) == 0);
    int32_t want[GAMES];
    CHECK_MSG(nnue_load_file(net_path, err, sizeof err), "%s", err);
    for (int g = 0; g < GAMES; g++) want[g] = pos[g] ? nnue_evaluate(pos[g], NULL) : 0;
    CHECK_MSG(nnue_load_file(out_path, err, sizeof err), "%s", err);
    int differ = 0;
    for (int g = 0; g < GAMES; g++) differ += pos[g] && nnue_evaluate(pos[g], NULL) != want[g];
    CHECK_MSG(differ == 0, "%d of %d evaluations differ", differ, GAMES);
    for (int g = 0; g < GAMES; g++) free(pos[g]);
    remove(net_path), remove(data_path), remove(out_path);
    nnue_unload();
}

/* ------------------------------------------------------------------ net files */

static bool write_bytes(const char *path, const uint8_t *buf, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(buf, 1, size, f) == size;
    return (fclose(f) == 0) && ok;
}

static void put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

static void reseal(uint8_t *buf, size_t size) { put32(buf + 52, nnue_file_checksum(buf, size)); }

TEST(nnue, load_refuses_bad_files_and_keeps_net) {
    char good_path[96], bad_path[96];
    snprintf(good_path, sizeof good_path, "/tmp/squall-nnue-test-%d-good.nnue", (int)getpid());
    snprintf(bad_path, sizeof bad_path, "/tmp/squall-nnue-test-%d-bad.nnue", (int)getpid());
    NnueNet *net = nnue_net_alloc();
    uint8_t *image = malloc(NNUE_FILE_SIZE + 16), *work = malloc(NNUE_FILE_SIZE + 16);
    CHECK(net && image && work);
    if (!net || !image || !work) return;
    nnue_net_init_random(net, 41);
    nnue_net_write(net, image);
    nnue_net_free(net);
    CHECK(write_bytes(good_path, image, NNUE_FILE_SIZE));

    char err[256] = "";
    CHECK_MSG(nnue_load_file(good_path, err, sizeof err), "%s", err);
    CHECK(nnue_is_loaded());
    char name[256];
    snprintf(name, sizeof name, "%s", nnue_net_name());
    CHECK(strstr(good_path, name) != NULL);

    Position *pos[3] = {nn_position(START_FEN), nn_position(symmetry_fens[1]), nn_position(symmetry_fens[6])};
    int before[3];
    for (int i = 0; i < 3; i++) before[i] = pos[i] ? nnue_evaluate(pos[i], NULL) : 0;

    struct {
        const char *what, *expect;
        size_t size;
        int edit; /* which corruption */
    } cases[] = {
        {"truncated payload", "truncated", NNUE_FILE_SIZE / 2, 0},
        {"truncated header", "truncated", 100, 0},
        {"empty file", "truncated", 0, 0},
        {"one byte short", "truncated", NNUE_FILE_SIZE - 1, 0},
        {"trailing byte", "expected exactly", NNUE_FILE_SIZE + 1, 0},
        {"wrong magic", "magic", NNUE_FILE_SIZE, 1},
        {"wrong version", "version", NNUE_FILE_SIZE, 2},
        {"wrong feature set", "feature set", NNUE_FILE_SIZE, 3},
        {"wrong layer size", "layer sizes", NNUE_FILE_SIZE, 4},
        {"flipped checksum byte", "checksum", NNUE_FILE_SIZE, 5},
        {"flipped payload byte", "checksum", NNUE_FILE_SIZE, 6},
        {"flipped description byte", "checksum", NNUE_FILE_SIZE, 7},
        {"bad shift (resealed)", "shift", NNUE_FILE_SIZE, 8},
        {"PSQT out of range (resealed)", "PSQT", NNUE_FILE_SIZE, 9},
        {"bad payload size field", "payload size", NNUE_FILE_SIZE, 10},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(work, image, NNUE_FILE_SIZE);
        work[NNUE_FILE_SIZE] = 0;
        switch (cases[c].edit) {
        case 1: work[0] ^= 0x20; break;
        case 2: put32(work + 8, NNUE_FORMAT_VERSION + 1); reseal(work, NNUE_FILE_SIZE); break;
        case 3: put32(work + 12, 0x12345678); reseal(work, NNUE_FILE_SIZE); break;
        case 4: put32(work + 20, 2 * NNUE_L1); reseal(work, NNUE_FILE_SIZE); break;
        case 5: work[53] ^= 0xFF; break;
        case 6: work[NNUE_HEADER_SIZE + 123457] ^= 0x01; break;
        case 7: work[60] ^= 0x01; break;
        case 8: put32(work + 40, 40); reseal(work, NNUE_FILE_SIZE); break;
        case 9: {
            size_t psqt_offset = NNUE_HEADER_SIZE + (size_t)NNUE_INPUTS * NNUE_L1 * 2 + NNUE_L1 * 2;
            put32(work + psqt_offset + 4 * 100, 0x7FFFFFFF);
            reseal(work, NNUE_FILE_SIZE);
            break;
        }
        case 10: put32(work + 48, 1000); reseal(work, NNUE_FILE_SIZE); break;
        default: break;
        }
        CHECK(write_bytes(bad_path, work, cases[c].size));
        err[0] = 0;
        bool loaded = nnue_load_file(bad_path, err, sizeof err);
        CHECK_MSG(!loaded, "%s was accepted", cases[c].what);
        CHECK_MSG(strstr(err, cases[c].expect) != NULL && !strchr(err, '\n'), "%s: reason '%s' lacks '%s'",
                  cases[c].what, err, cases[c].expect);
        /* the good net is still the one in use */
        CHECK(nnue_is_loaded() && strcmp(nnue_net_name(), name) == 0);
        for (int i = 0; i < 3; i++)
            if (pos[i]) CHECK_MSG(nnue_evaluate(pos[i], NULL) == before[i], "%s changed the evaluation", cases[c].what);
        /* the same refusal from memory */
        CHECK(!nnue_load_memory(work, cases[c].size, "mem", err, sizeof err));
    }
    CHECK(!nnue_load_file("/nonexistent-dir/none.nnue", err, sizeof err));
    CHECK_MSG(strstr(err, "cannot open") != NULL, "%s", err);
    CHECK(nnue_is_loaded() && strcmp(nnue_net_name(), name) == 0);

    /* a different valid net does replace it */
    NnueNet *other = nnue_net_alloc();
    if (other) {
        nnue_net_init_random(other, 42);
        CHECK(nnue_net_save(other, bad_path, err, sizeof err));
        nnue_net_free(other);
        CHECK_MSG(nnue_load_file(bad_path, err, sizeof err), "%s", err);
        CHECK(strcmp(nnue_net_name(), name) != 0);
        int changed = 0;
        for (int i = 0; i < 3; i++)
            if (pos[i] && nnue_evaluate(pos[i], NULL) != before[i]) changed++;
        CHECK(changed > 0);
    }
    for (int i = 0; i < 3; i++) free(pos[i]);
    free(image), free(work);
    remove(good_path), remove(bad_path);
    nnue_unload();
}

/* Version 2 files: an 8-bucket net survives write + load exactly and evaluates with the stack of
 * each position's bucket; a one-bucket net is still written as version 1; a bad bucket count,
 * a version-2 file cut to the size of another count or an unknown activation is refused
 * with one line, the current net staying. */
TEST(nnue, output_buckets_file_round_trip_and_refusals) {
    char path[96], err[256] = "";
    snprintf(path, sizeof path, "/tmp/squall-nnue-test-%d-buckets.nnue", (int)getpid());
    const size_t size8 = NNUE_FILE_SIZE_FOR(NNUE_MAX_OUTPUT_BUCKETS);
    NnueNet *net = nnue_net_alloc(), *one = nnue_net_alloc();
    uint8_t *image = malloc(size8), *again = malloc(size8), *image1 = malloc(NNUE_FILE_SIZE);
    CHECK(net && one && image && again && image1);
    if (!net || !one || !image || !again || !image1) return;
    nnue_net_init_random_buckets(net, 61, NNUE_MAX_OUTPUT_BUCKETS);
    CHECK_EQ_U64(nnue_net_file_size(net), size8);
    nnue_net_write(net, image);
    CHECK(image[8] == 2 && image[120] == NNUE_MAX_OUTPUT_BUCKETS);
    CHECK(write_bytes(path, image, size8));
    CHECK_MSG(nnue_load_file(path, err, sizeof err), "%s", err);
    const NnueNet *loaded = nnue_current_net();
    CHECK(loaded && loaded->output_buckets == NNUE_MAX_OUTPUT_BUCKETS);
    if (loaded) {
        nnue_net_write(loaded, again);
        CHECK_MSG(!memcmp(image, again, size8), "an 8-bucket net changed in write + load + write");
        CHECK(!memcmp(loaded->l2_weights, net->l2_weights, sizeof net->l2_weights) &&
              !memcmp(loaded->out_bias, net->out_bias, sizeof net->out_bias));
    }
    /* the bucket follows the piece count: 32 pieces use bucket 7, 3 pieces bucket 0, and the
     * stacks differ, so the two positions' hidden parts come from different weights */
    Position *full = nn_position(START_FEN), *few = nn_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    Position *mid = nn_position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"); /* 6 pieces: bucket 1 */
    NnueParts parts;
    const struct { Position *pos; int bucket; } expect[] = {{full, 7}, {few, 0}, {mid, 1}};
    for (int i = 0; i < 3; i++) {
        if (!expect[i].pos) continue;
        nnue_evaluate_parts(expect[i].pos, &parts);
        CHECK_EQ_U64(parts.bucket, expect[i].bucket);
    }
    CHECK(memcmp(net->l2_weights[0], net->l2_weights[7], sizeof net->l2_weights[0]) != 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = full ? open_memstream(&text, &len) : NULL;
    if (f) {
        nnue_trace(full, f);
        fclose(f);
        CHECK_MSG(strstr(text, "output bucket 7 of 8") != NULL, "trace: %s", text);
        free(text);
    }
    /* bucket 0 of the 8-bucket net is the one-bucket net of the same seed */
    nnue_net_init_random(one, 61);
    CHECK(!memcmp(one->l2_weights[0], net->l2_weights[0], sizeof one->l2_weights[0]));
    nnue_net_write(one, image1);
    CHECK(image1[8] == 1 && image1[120] == 0);

    char name[256];
    snprintf(name, sizeof name, "%s", nnue_net_name());
    int before = full ? nnue_evaluate(full, NULL) : 0;
    struct {
        const char *what, *expect;
        size_t size;
        int edit;
    } cases[] = {
        {"bucket count 3", "output bucket count 3", 0, 1},
        {"bucket count 0", "output bucket count 0", 0, 2},
        {"activation 2", "activation 2 is not supported", 0, 3},
        {"8-bucket header on a 1-bucket payload", "expected", 1, 4},
        {"version 2, 1 bucket, with an 8-bucket payload size field", "payload size", 1, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t n = cases[c].size ? NNUE_FILE_SIZE : size8;
        memcpy(again, cases[c].size ? image1 : image, n);
        switch (cases[c].edit) {
        case 1: put32(again + 120, 3); break;
        case 2: put32(again + 120, 0); break;
        case 3: put32(again + 124, 2); break;
        case 4: put32(again + 8, 2), put32(again + 120, 8), put32(again + 48, (uint32_t)NNUE_PAYLOAD_SIZE_FOR(8)); break;
        case 5: put32(again + 8, 2), put32(again + 120, 1), put32(again + 48, (uint32_t)NNUE_PAYLOAD_SIZE_FOR(8)); break;
        default: break;
        }
        reseal(again, n);
        CHECK(write_bytes(path, again, n));
        err[0] = 0;
        CHECK_MSG(!nnue_load_file(path, err, sizeof err), "%s was accepted", cases[c].what);
        CHECK_MSG(strstr(err, cases[c].expect) != NULL && !strchr(err, '\n'), "%s: reason '%s' lacks '%s'",
                  cases[c].what, err, cases[c].expect);
        CHECK(strcmp(nnue_net_name(), name) == 0);
        if (full) CHECK(nnue_evaluate(full, NULL) == before);
    }
    /* a version-2 file of one bucket is read too, and evaluates as its version-1 twin */
    memcpy(again, image1, NNUE_FILE_SIZE);
    put32(again + 8, 2), put32(again + 120, 1);
    reseal(again, NNUE_FILE_SIZE);
    CHECK_MSG(nnue_load_memory(again, NNUE_FILE_SIZE, "v2-one", err, sizeof err), "%s", err);
    int v2 = full ? nnue_evaluate(full, NULL) : 0;
    CHECK(nnue_load_memory(image1, NNUE_FILE_SIZE, "v1-one", err, sizeof err));
    CHECK(!full || nnue_evaluate(full, NULL) == v2);
    /* net-init writes 8-bucket nets on request, and refuses other counts */
    char *argv1[] = {"--seed", "61", "--output-buckets", "8", "--out", path};
    CHECK(net_init_main(6, argv1) == 0);
    size_t got = 0;
    f = fopen(path, "rb");
    if (f) got = fread(again, 1, size8, f), fclose(f);
    CHECK(got == size8 && !memcmp(again, image, size8));
    char *argv2[] = {"--seed", "61", "--output-buckets", "4", "--out", path};
    CHECK(net_init_main(6, argv2) != 0);
    free(full), free(few), free(mid);
    free(image), free(again), free(image1);
    nnue_net_free(net), nnue_net_free(one);
    remove(path);
    nnue_unload();
}

/* SCReLU nets: written as version 2 with activation 1 (one bucket or eight), write + load +
 * write gives the same bytes, the hidden part is the plain statement's with the squared
 * activation (and differs from the clipped-ReLU twin's), `nnue` names the activation and
 * net-init --screlu writes the same bytes. */
TEST(nnue, screlu_file_round_trip) {
    char path[96], err[256] = "";
    snprintf(path, sizeof path, "/tmp/squall-nnue-test-%d-screlu.nnue", (int)getpid());
    const size_t size8 = NNUE_FILE_SIZE_FOR(NNUE_MAX_OUTPUT_BUCKETS);
    NnueNet *net = nnue_net_alloc();
    uint8_t *image = malloc(size8), *again = malloc(size8);
    Position *pos = nn_position(playout_fens[1]);
    CHECK(net && image && again && pos);
    if (!net || !image || !again || !pos) return;
    const int bucket_counts[2] = {1, NNUE_MAX_OUTPUT_BUCKETS};
    for (int k = 0; k < 2; k++) {
        const int buckets = bucket_counts[k];
        const size_t size = NNUE_FILE_SIZE_FOR(buckets);
        nnue_net_init_random_buckets(net, 71, buckets);
        nnue_net_write(net, image);
        CHECK_MSG(nnue_load_memory(image, size, "crelu", err, sizeof err), "%s", err);
        NnueParts crelu;
        nnue_evaluate_parts(pos, &crelu);
        net->activation = NNUE_ACTIVATION_SCRELU;
        nnue_net_write(net, image);
        CHECK(image[8] == 2 && image[120] == buckets && image[124] == 1);
        CHECK(write_bytes(path, image, size));
        CHECK_MSG(nnue_load_file(path, err, sizeof err), "%s", err);
        const NnueNet *loaded = nnue_current_net();
        CHECK(loaded->activation == NNUE_ACTIVATION_SCRELU && loaded->output_buckets == buckets);
        nnue_net_write(loaded, again);
        CHECK_MSG(!memcmp(image, again, size), "an SCReLU net with %d bucket(s) changed in write + load + write", buckets);
        NnueParts screlu;
        nnue_evaluate_parts(pos, &screlu);
        _Alignas(64) int16_t halves[2][NNUE_L1];
        reference_half(loaded, pos, pos->side, halves[0]);
        reference_half(loaded, pos, !pos->side, halves[1]);
        CHECK_EQ_U64((uint64_t)(int64_t)screlu.hidden_units,
                     (uint64_t)(int64_t)reference_propagate(loaded, halves[0], halves[1], screlu.bucket));
        CHECK_MSG(screlu.hidden_units != crelu.hidden_units, "the activation changed nothing (%d units)",
                  crelu.hidden_units);
        CHECK(screlu.psqt_units == crelu.psqt_units); /* the PSQT tier does not see the activation */
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        nnue_trace(pos, f);
        fclose(f);
        CHECK_MSG(strstr(text, "activation SCReLU") != NULL, "trace: %s", text);
        free(text);
    }
    char *argv[] = {"--seed", "71", "--output-buckets", "8", "--screlu", "--out", path};
    CHECK(net_init_main(7, argv) == 0);
    size_t got = 0;
    f = fopen(path, "rb");
    if (f) got = fread(again, 1, size8, f), fclose(f);
    CHECK(got == size8 && !memcmp(again, image, size8));
    free(image), free(again), free(pos);
    nnue_net_free(net);
    remove(path);
    nnue_unload();
}

/* ------------------------------------------------------------------ PSQT-classical net */

/* The values docs/nnue.md lists for net-init --psqt-classical, restated here (owner-relative
 * square: rank 0 is the owner's back rank). */
static int hand_value(int type, int rel_rank, int file) {
    static const int material[6] = {100, 320, 330, 500, 900, 0};
    int v = material[type];
    if (type == PAWN) v += 5 * (rel_rank - 1);
    if (type == KNIGHT && (rel_rank == 0 || rel_rank == 7 || file == 0 || file == 7)) v -= 20;
    if (type == ROOK && rel_rank == 6) v += 10;
    return v;
}

static int hand_sum(const Position *pos) {
    int score = 0;
    for (int sq = 0; sq < 64; sq++) {
        int pc = pos->board[sq];
        if (pc == NO_PIECE) continue;
        int colour = pc / 6, rank = sq / 8;
        int v = hand_value(pc % 6, colour == WHITE ? rank : 7 - rank, sq % 8);
        score += colour == pos->side ? v : -v;
    }
    return score;
}

/* nnue_init skips the checksum of the embedded net to start faster: it is checked here, once
 * per build, with every check a net file gets. */
TEST(nnue, embedded_net_passes_every_file_check) {
    size_t size;
    const void *image = nnue_embedded_net(&size);
    if (size == 0) {
        printf("    this build embeds no net\n");
        return;
    }
    char err[256] = "";
    CHECK_MSG(nnue_load_memory(image, size, "embedded (checked)", err, sizeof err), "%s", err);
    nnue_unload();
}

TEST(nnue, psqt_classical_hand_sums) {
    CHECK(install_classical_net());
    static const struct { const char *fen; int cp; } cases[] = {
        {START_FEN, 0},
        /* Pe2 = 100 + 5*(1-1) = 100 for white */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 100},
        {"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", -100},
        /* Na1 on the rim 320-20 = 300; black rh1 is on black's 8th rank: 500. 300-500 */
        {"4k3/8/8/8/8/8/8/N3K2r w - - 0 1", -200},
        /* Pb7 = 100+5*5 = 125; black ra2 is on black's 7th rank: 510. black to move: 510-125 */
        {"4k3/1P6/8/8/8/8/r7/4K3 b - - 0 1", 385},
        /* Nd4 = 320; black pg2 is on black's 7th rank: 100+25 = 125. 320-125 */
        {"4k3/8/8/8/3N4/8/6p1/4K3 w - - 0 1", 195},
        /* 1.e4 Nc6: white pawn e4 +10, black knight off the rim +20: 10-20 */
        {"r1bqkbnr/pppppppp/2n5/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2", -10},
    };
    Accumulator *acc = accumulator_create();
    for (size_t c = 0; acc && c < sizeof cases / sizeof cases[0]; c++) {
        Position *pos = nn_position(cases[c].fen);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        NnueParts parts;
        nnue_evaluate_parts(pos, &parts);
        CHECK_MSG(nnue_evaluate(pos, acc) == cases[c].cp && nnue_psqt_only(pos, acc) == cases[c].cp && parts.hidden_units == 0,
                  "%s: eval %d psqt %d hidden %d, want %d", cases[c].fen, nnue_evaluate(pos, acc), nnue_psqt_only(pos, acc),
                  parts.hidden_units, cases[c].cp);
        free(pos);
    }
    /* and along random games, against the sum restated above */
    rng_state = 99;
    int bad = 0, n = 0;
    for (int i = 0; acc && i < PLAYOUT_FEN_COUNT; i++) {
        Position *pos = nn_position(playout_fens[i]);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        Move m;
        for (int ply = 0; ply < 100 && random_move(pos, &m); ply++, n++) {
            nn_make(pos, acc, m);
            if (nnue_evaluate(pos, acc) != hand_sum(pos)) bad++;
        }
        free(pos);
    }
    printf("    %d random-game positions against the hand sum\n", n);
    CHECK_MSG(bad == 0, "%d of %d positions differ from the hand sum", bad, n);
    accumulator_destroy(acc);
    nnue_unload();
}

/* net-init through its command-line entry, then loading the file it wrote. */
TEST(nnue, net_init_command_writes_loadable_nets) {
    char path[96], seed_path[96], err[256];
    snprintf(path, sizeof path, "/tmp/squall-nnue-test-%d-init.nnue", (int)getpid());
    snprintf(seed_path, sizeof seed_path, "/tmp/squall-nnue-test-%d-seed.nnue", (int)getpid());
    char *argv1[] = {"net-init", "--out", path, "--psqt-classical"};
    CHECK(net_init_main(4, argv1) == 0);
    CHECK_MSG(nnue_load_file(path, err, sizeof err), "%s", err);
    Position *pos = nn_position("4k3/1P6/8/8/8/8/r7/4K3 b - - 0 1");
    if (pos) CHECK(nnue_evaluate(pos, NULL) == 385);
    /* same seed, same bytes */
    char *argv2[] = {"--seed", "7", "--out", seed_path};
    CHECK(net_init_main(4, argv2) == 0);
    NnueNet *net = nnue_net_alloc();
    uint8_t *a = malloc(NNUE_FILE_SIZE), *b = malloc(NNUE_FILE_SIZE + 1);
    if (net && a && b) {
        nnue_net_init_random(net, 7);
        nnue_net_write(net, a);
        FILE *f = fopen(seed_path, "rb");
        size_t got = f ? fread(b, 1, NNUE_FILE_SIZE + 1, f) : 0;
        if (f) fclose(f);
        CHECK(got == NNUE_FILE_SIZE && memcmp(a, b, NNUE_FILE_SIZE) == 0);
    }
    char *argv3[] = {"--seed", "x1", "--out", seed_path};
    CHECK(net_init_main(4, argv3) != 0);
    char *argv4[] = {"--seed", "3"};
    CHECK(net_init_main(2, argv4) != 0);
    free(a), free(b), nnue_net_free(net), free(pos);
    remove(path), remove(seed_path);
    nnue_unload();
}

TEST(nnue, no_net_means_zero_and_trace_says_so) {
    nnue_unload();
    CHECK(!nnue_is_loaded());
    CHECK(strcmp(nnue_net_name(), "none") == 0);
    Position *pos = nn_position(START_FEN);
    if (!pos) return;
    /* make/unmake followed by an accumulator but no net must be harmless */
    Accumulator *acc = accumulator_create();
    accumulator_refresh(acc, pos);
    CHECK(nnue_evaluate(pos, NULL) == 0 && nnue_psqt_only(pos, NULL) == 0);
    CHECK(nnue_evaluate(pos, acc) == 0 && nnue_psqt_only(pos, acc) == 0);
    Move m;
    rng_state = 5;
    int made = 0;
    while (made < 20 && random_move(pos, &m)) nn_make(pos, acc, m), made++;
    while (made-- > 0) nn_unmake(pos, acc);
    CHECK(acc->depth == 0);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        nnue_trace(pos, f);
        fclose(f);
        CHECK(strstr(text, "no net") != NULL);
        free(text);
    }
    /* with a net the trace shows both parts */
    CHECK(install_random_net(51));
    accumulator_refresh(acc, pos);
    f = open_memstream(&text, &len);
    if (f) {
        nnue_trace(pos, f);
        fclose(f);
        CHECK(strstr(text, "psqt part") && strstr(text, "hidden part") && strstr(text, "NNUE evaluation"));
        free(text);
    }
    accumulator_destroy(acc);
    free(pos);
    nnue_unload();
}

/* A net loaded after an accumulator was refreshed: evaluations must not use the stale values. */
TEST(nnue, stale_accumulator_after_net_change_is_not_used) {
    CHECK(install_random_net(61));
    Accumulator *acc = accumulator_create();
    Position *pos = nn_position(symmetry_fens[5]);
    CHECK(acc && pos);
    if (!acc || !pos) return;
    accumulator_refresh(acc, pos);
    CHECK(install_random_net(62));
    CHECK(!accumulator_matches_refresh(acc, pos));
    int with_stale = nnue_evaluate(pos, acc), psqt_stale = nnue_psqt_only(pos, acc);
    CHECK(with_stale == nnue_evaluate(pos, NULL) && psqt_stale == nnue_psqt_only(pos, NULL));
    accumulator_refresh(acc, pos);
    CHECK(accumulator_matches_refresh(acc, pos) && nnue_evaluate(pos, acc) == with_stale);
    free(pos);
    accumulator_destroy(acc);
    nnue_unload();
}

/* Reference (eager) mode: every make leaves both halves computed (the changed rows added and
 * removed at once, a king move rebuilding only its own side), every unmake returns to the
 * entry below, and the values equal a full refresh at every node. */
TEST(nnue, eager_updates_match_refresh_at_every_node) {
    CHECK(install_random_net(21));
    Accumulator *acc = accumulator_create();
    CHECK(acc != NULL);
    if (!acc) return;
    acc->eager = true;
    WalkStats ws = {0};
    int not_computed = 0;
    rng_state = 4242;
    for (int i = 0; i < PLAYOUT_FEN_COUNT; i++) {
        Position *pos = nn_position(playout_fens[i]);
        if (!pos) continue;
        accumulator_refresh(acc, pos);
        int made = 0;
        for (int step = 0; step < 400; step++) {
            Move m;
            if (made > 0 && (made >= 30 || nn_rand() % 3 == 0)) nn_unmake(pos, acc), made--;
            else if (random_move(pos, &m)) note_move(&ws, pos, m), nn_make(pos, acc, m), made++;
            else if (made > 0) nn_unmake(pos, acc), made--;
            const AccumulatorEntry *e = &acc->stack[acc->depth];
            if (!(e->computed[WHITE] && e->computed[BLACK])) not_computed++;
            check_node(&ws, acc, pos, "eager");
        }
        free(pos);
    }
    printf("    %d nodes checked, %d king moves\n", ws.nodes, ws.king_moves);
    CHECK_MSG(not_computed == 0, "%d nodes left uncomputed by an eager make", not_computed);
    CHECK_MSG(ws.mismatches == 0, "%d of %d nodes differ, first %s", ws.mismatches, ws.nodes, ws.first_bad);
    CHECK(ws.king_moves > 200);
    accumulator_destroy(acc);
    nnue_unload();
}
