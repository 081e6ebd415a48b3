/* Move features: hand-checked values on small positions, the printer's lines, and colour
 * symmetry: a position and its colour-mirrored copy give the same features for mirrored moves. */
#include <stdlib.h>
#include <string.h>

#include "move_features.h"
#include "movegen.h"
#include "notation.h"
#include "see.h"
#include "test.h"

typedef struct {
    int feature, value;
} Expect;

/* The features of the move uci in fen (after the move before, when given) are the expected
 * ones; features not named must be 0. */
static void check_move(const char *fen, const char *before, const char *uci, const Expect *want, int count) {
    static Position pos;
    char err[128];
    CHECK_MSG(pos_set_fen(&pos, fen, err, sizeof err), "%s: %s", fen, err);
    if (before) pos_make_move(&pos, move_from_uci(&pos, before));
    Move m = move_from_uci(&pos, uci);
    CHECK_MSG(m != MOVE_NONE, "%s: %s is not legal", fen, uci);
    if (m == MOVE_NONE) return;
    int f[MOVE_FEATURE_COUNT];
    move_features(&pos, m, f);
    for (int k = 0; k < MOVE_FEATURE_COUNT; k++) {
        int expected = 0;
        for (int i = 0; i < count; i++)
            if (want[i].feature == k) expected = want[i].value;
        CHECK_MSG(f[k] == expected, "%s %s: %s is %d, want %d", fen, uci, move_feature_names[k], f[k], expected);
    }
}

#define CHECK_MOVE(fen, before, uci, ...)                                                              \
    do {                                                                                               \
        const Expect want_[] = {__VA_ARGS__};                                                          \
        check_move(fen, before, uci, want_, (int)(sizeof want_ / sizeof want_[0]));                    \
    } while (0)

TEST(move_features, hand_checked_moves) {
    /* a free rook: the queen takes it and then eyes d7, d8 and f7 next to the king */
    CHECK_MOVE("4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1", NULL, "d1d5", {MF_CAPTURE, 1}, {MF_VICTIM_VALUE, SEE_VALUE_ROOK},
               {MF_MOVER_QUEEN, 1}, {MF_SEE, SEE_VALUE_ROOK}, {MF_CENTRALITY_GAIN, 3}, {MF_KING_ZONE_ATTACKS, 3});
    /* a pawn defended by a pawn: the queen is lost for it */
    CHECK_MOVE("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", NULL, "d1d5", {MF_CAPTURE, 1}, {MF_VICTIM_VALUE, SEE_VALUE_PAWN},
               {MF_MOVER_QUEEN, 1}, {MF_SEE, SEE_VALUE_PAWN - SEE_VALUE_QUEEN}, {MF_INTO_PAWN, 1}, {MF_TO_ATTACKERS, 1},
               {MF_CENTRALITY_GAIN, 3}, {MF_KING_ZONE_ATTACKS, 3});
    /* a knight check from d6, touching f7 next to the king */
    CHECK_MOVE("4k3/8/8/5N2/8/8/8/4K3 w - - 0 1", NULL, "f5d6", {MF_MOVER_KNIGHT, 1}, {MF_CHECK, 1},
               {MF_KING_ZONE_ATTACKS, 1});
    CHECK_MOVE("4k3/8/8/8/8/8/8/4K2R w K - 0 1", NULL, "e1g1", {MF_MOVER_KING, 1}, {MF_CASTLING, 1});
    /* the new queen sweeps d8, e8 and f8 around the king */
    CHECK_MOVE("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", NULL, "a7a8q", {MF_MOVER_PAWN, 1}, {MF_QUEEN_PROMOTION, 1},
               {MF_SEE, SEE_VALUE_QUEEN - SEE_VALUE_PAWN}, {MF_PAWN_RANK, 8}, {MF_PASSED_PAWN_PUSH, 1},
               {MF_KING_ZONE_ATTACKS, 3});
    CHECK_MOVE("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", NULL, "a7a8n", {MF_MOVER_PAWN, 1}, {MF_UNDER_PROMOTION, 1},
               {MF_SEE, SEE_VALUE_KNIGHT - SEE_VALUE_PAWN}, {MF_PAWN_RANK, 8}, {MF_PASSED_PAWN_PUSH, 1});
    /* a knight attacked by a pawn and undefended steps away */
    CHECK_MOVE("4k3/8/8/2p5/3N4/8/8/4K3 w - - 0 1", NULL, "d4f3", {MF_MOVER_KNIGHT, 1}, {MF_ESCAPES_PAWN, 1},
               {MF_ESCAPES_HANGING, 1}, {MF_CENTRALITY_GAIN, -1});
    /* and one that walks into a pawn's attack, eyeing d7 and f7 */
    CHECK_MOVE("4k3/8/3p4/8/8/3N4/8/4K3 w - - 0 1", NULL, "d3e5", {MF_MOVER_KNIGHT, 1}, {MF_INTO_PAWN, 1},
               {MF_TO_ATTACKERS, 1}, {MF_SEE, -SEE_VALUE_KNIGHT}, {MF_CENTRALITY_GAIN, 1}, {MF_KING_ZONE_ATTACKS, 2});
    /* black's queen takes back on d5 and then eyes d2 and d1 next to white's king */
    CHECK_MOVE("3qk3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", "d8d5", {MF_CAPTURE, 1}, {MF_VICTIM_VALUE, SEE_VALUE_PAWN},
               {MF_MOVER_QUEEN, 1}, {MF_SEE, SEE_VALUE_PAWN}, {MF_RECAPTURE, 1}, {MF_CENTRALITY_GAIN, 3},
               {MF_KING_ZONE_ATTACKS, 2});
    /* taking the pawn that has just moved is no recapture */
    CHECK_MOVE("4k3/3p4/8/8/4P3/8/8/4K3 b - - 0 1", "d7d5", "e4d5", {MF_CAPTURE, 1}, {MF_VICTIM_VALUE, SEE_VALUE_PAWN},
               {MF_MOVER_PAWN, 1}, {MF_SEE, SEE_VALUE_PAWN}, {MF_PAWN_RANK, 5}, {MF_PASSED_PAWN_PUSH, 1}, {MF_ESCAPES_HANGING, 1},
               {MF_CENTRALITY_GAIN, 0});
    CHECK_MOVE("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", NULL, "a2a4", {MF_MOVER_PAWN, 1}, {MF_PAWN_RANK, 4},
               {MF_PASSED_PAWN_PUSH, 1});
    CHECK_MOVE("4k3/1p6/8/8/8/8/P7/4K3 w - - 0 1", NULL, "a2a3", {MF_MOVER_PAWN, 1}, {MF_PAWN_RANK, 3});
    /* en passant: the pawn on d6 attacks e7 next to the king */
    CHECK_MOVE("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", NULL, "e5d6", {MF_CAPTURE, 1}, {MF_VICTIM_VALUE, SEE_VALUE_PAWN},
               {MF_MOVER_PAWN, 1}, {MF_SEE, SEE_VALUE_PAWN}, {MF_PAWN_RANK, 6}, {MF_PASSED_PAWN_PUSH, 1},
               {MF_CENTRALITY_GAIN, -1}, {MF_KING_ZONE_ATTACKS, 1});
}

TEST(move_features, printer_writes_a_line_per_legal_move) {
    static Position pos;
    pos_set_startpos(&pos);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    move_features_print(&pos, out);
    fclose(out);
    int lines = 0, moves = 0;
    for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lines++) {
        int words = 0;
        for (char *s2, *w = strtok_r(line, " ", &s2); w; w = strtok_r(NULL, " ", &s2)) words++;
        bool names = lines == 0;
        CHECK_MSG(words == (names ? 1 : 2) + MOVE_FEATURE_COUNT, "line %d has %d words", lines + 1, words);
        moves += !names;
    }
    CHECK(moves == 20);
    free(text);
}

/* The move of mirror that is m seen from the other side: squares flipped rank-wise. */
static Move mirrored_move(const Position *mirror, Move m) {
    MoveList list;
    generate_legal(mirror, &list);
    for (int i = 0; i < list.count; i++) {
        Move c = list.moves[i];
        if (move_from(c) == (move_from(m) ^ 56) && move_to(c) == (move_to(m) ^ 56) && move_kind(c) == move_kind(m)
            && (move_kind(m) != MOVE_PROMOTION || move_promo_type(c) == move_promo_type(m)))
            return c;
    }
    return MOVE_NONE;
}

TEST(move_features, colour_mirror_gives_the_same_features) {
    FILE *f = fopen("tests/data/perft.epd", "r");
    CHECK(f);
    if (!f) return;
    Position *pos = malloc(sizeof *pos), *mirror = malloc(sizeof *mirror);
    CHECK(pos && mirror);
    int checked = 0, failures = 0;
    char line[256];
    while (pos && mirror && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi) *semi = 0;
        if (!pos_set_fen(pos, line, NULL, 0)) continue;
        pos_flip(pos, mirror);
        MoveList list;
        generate_legal(pos, &list);
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i], mm = mirrored_move(mirror, m);
            int a[MOVE_FEATURE_COUNT], b[MOVE_FEATURE_COUNT];
            move_features(pos, m, a);
            if (mm != MOVE_NONE) move_features(mirror, mm, b);
            checked++;
            if ((mm == MOVE_NONE || memcmp(a, b, sizeof a)) && failures++ < 3) {
                char uci[8];
                move_to_uci(pos, m, uci);
                CHECK_MSG(false, "%s: %s differs from its mirror", line, uci);
            }
        }
    }
    fclose(f);
    free(pos);
    free(mirror);
    CHECK_MSG(checked > 500 && failures == 0, "%d moves, %d differ", checked, failures);
}
