/* Static exchange evaluation on hand-checked positions: each case gives the exact exchange
 * value, so see_at_least must hold at that value and fail one centipawn above it. */
#include "notation.h"
#include "see.h"
#include "test.h"

static const struct {
    const char *fen, *move;
    int value;
    const char *why;
} see_cases[] = {
    {"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100, "undefended pawn"},
    {"4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5", 100 - 320, "knight for a pawn-defended pawn"},
    {"4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "e2e5", 100 - 500, "rook for a rook-defended pawn"},
    {"4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "e2e5", 100, "x-ray: the second rook recaptures"},
    {"4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", 320 - 100, "pawn takes a pawn-defended knight"},
    {"4k3/8/3p4/4n3/3P4/2B5/8/4K3 w - - 0 1", "d4e5", 320, "x-ray: the bishop behind the capturing pawn"},
    {"4k3/5n2/8/4p3/8/2B5/8/4R1K1 w - - 0 1", "e1e5", 100 - 500 + 320, "exchange continues with the bishop"},
    {"8/8/4k3/3p4/8/3Q4/8/4K3 w - - 0 1", "d3d5", 100 - 950, "the king takes the queen"},
    {"8/8/4k3/3p4/8/3Q4/8/3RK3 w - - 0 1", "d3d5", 100, "x-ray rook: the king may not recapture"},
    {"r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q", 500 + 950 - 100, "capture with promotion"},
    {"1r5k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 950 - 100 - 950, "promotion onto a defended square"},
    {"7k/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", 320 - 100, "undefended under-promotion"},
    {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100, "en passant"},
    {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0, "castling exchanges nothing"},
    {"4k3/3q4/8/8/8/8/3R4/3RK3 b - - 0 1", "d7d2", 500 - 950, "black: queen takes a rook, the other recaptures first"},
};

TEST(see, exact_values_on_known_positions) {
    static Position pos;
    char err[128];
    for (size_t i = 0; i < sizeof see_cases / sizeof see_cases[0]; i++) {
        CHECK_MSG(pos_set_fen(&pos, see_cases[i].fen, err, sizeof err), "%s: %s", see_cases[i].fen, err);
        Move m = move_from_uci(&pos, see_cases[i].move);
        CHECK_MSG(m != MOVE_NONE, "%s: %s is not legal", see_cases[i].fen, see_cases[i].move);
        if (m == MOVE_NONE) continue;
        int v = see_cases[i].value;
        CHECK_MSG(see_at_least(&pos, m, v) && !see_at_least(&pos, m, v + 1), "%s (%s %s): want exactly %d, got %s",
                  see_cases[i].why, see_cases[i].fen, see_cases[i].move, v,
                  see_at_least(&pos, m, v) ? "more" : "less");
    }
}
