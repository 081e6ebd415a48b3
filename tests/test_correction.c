/* Correction history (correction.h): entries learn the evaluation's error per side to move,
 * stay within their limit, and are shared by positions with the same pawns or the same material. */
#include <stdlib.h>

#include "correction.h"
#include "test.h"

static Position position_of(const char *fen) {
    Position pos;
    char err[128];
    bool ok = pos_set_fen(&pos, fen, err, sizeof err);
    CHECK_MSG(ok, "%s: %s", fen, err);
    return pos;
}

TEST(correction, learns_the_error_within_its_limit) {
    CorrectionHistory *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c) return;
    Position pos = position_of("r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1");
    CHECK(correction_value(c, &pos) == 0);
    /* searches keep finding 40 cp more than the evaluation said: the correction climbs towards
     * it without passing it */
    int last = 0;
    for (int i = 0; i < 200; i++) {
        correction_update(c, &pos, 10, 140, 100);
        int v = correction_value(c, &pos);
        CHECK_MSG(v >= last && v <= 40, "step %d: %d after %d", i, v, last);
        last = v;
    }
    CHECK_MSG(last >= 38, "settled at %d", last);
    /* the other side to move has its own entries */
    Position black = position_of("r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 0 1");
    CHECK(correction_value(c, &black) == 0);
    /* a huge error is clipped to the limit */
    for (int i = 0; i < 400; i++) correction_update(c, &black, 20, -5000, 0);
    int v = correction_value(c, &black);
    CHECK_MSG(v <= -CORRECTION_LIMIT_CP + 1 && v >= -CORRECTION_LIMIT_CP, "clipped at %d", v);
    free(c);
}

TEST(correction, pawn_and_material_entries_are_shared) {
    CorrectionHistory *c = calloc(1, sizeof *c);
    CHECK(c != NULL);
    if (!c) return;
    Position a = position_of("4k3/pp3ppp/8/3n4/8/2N5/PP3PPP/4K3 w - - 0 1");
    Position same_pawns = position_of("4k3/pp3ppp/8/8/3b4/8/PP3PPP/4K3 w - - 0 1");
    Position same_material = position_of("4k3/p4ppp/1p6/2n5/8/5N2/PP3PPP/4K3 w - - 0 1");
    Position neither = position_of("4k3/pp4pp/8/8/8/8/PP3PPP/3QK3 w - - 0 1");
    for (int i = 0; i < 100; i++) correction_update(c, &a, 12, 60, 0);
    int full = correction_value(c, &a);
    CHECK_MSG(full >= 55 && full <= 60, "learnt %d", full);
    /* the pawn share alone, then the material share alone */
    int pawns = correction_value(c, &same_pawns), material = correction_value(c, &same_material);
    CHECK_MSG(abs(pawns - full * CORRECTION_PAWN_PERCENT / 100) <= 1, "pawn share %d of %d", pawns, full);
    CHECK_MSG(abs(material - full * (100 - CORRECTION_PAWN_PERCENT) / 100) <= 1, "material share %d of %d", material, full);
    CHECK(correction_value(c, &neither) == 0);
    free(c);
}
