/* Classical evaluation: colour symmetry (a position and its colour-flipped mirror score the
 * same for the side to move) on the perft suite and random descendants, and the sign of
 * clear material edges, so a constant evaluator cannot pass. */
#include <stdlib.h>
#include <string.h>

#include "evaluate.h"
#include "movegen.h"
#include "test.h"

static uint64_t rng_state = 0xe7a1ULL;

TEST(evaluate, classical_colour_symmetry) {
    evaluate_init();
    static Position pos, flipped;
    FILE *f = fopen("tests/data/perft.epd", "r");
    CHECK(f != NULL);
    if (!f) return;
    char line[256], err[128];
    int positions = 0, asymmetric = 0, distinct = 0, last = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi) *semi = 0;
        if (!semi || !pos_set_fen(&pos, line, err, sizeof err)) continue;
        for (int ply = 0; ply < 6; ply++) {
            pos_flip(&pos, &flipped);
            int e = classical_evaluate(&pos), ef = classical_evaluate(&flipped);
            if (e != ef && asymmetric++ < 3) {
                pos_get_fen(&pos, line, sizeof line);
                CHECK_MSG(e == ef, "%s: %d, flipped %d", line, e, ef);
            }
            distinct += e != last;
            last = e;
            positions++;
            MoveList legal;
            generate_legal(&pos, &legal);
            if (!legal.count) break;
            pos_make_move(&pos, legal.moves[test_random(&rng_state) % (uint64_t)legal.count]);
        }
    }
    fclose(f);
    CHECK_MSG(asymmetric == 0 && positions >= 1000, "%d of %d positions asymmetric", asymmetric, positions);
    CHECK_MSG(distinct > positions / 2, "only %d distinct values in %d positions", distinct, positions);
}

TEST(evaluate, classical_material_edges) {
    evaluate_init();
    static Position pos;
    char err[128];
    static const struct {
        const char *fen;
        int min, max; /* side-to-move relative */
    } cases[] = {
        {"4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 700, 3000},   /* a queen up */
        {"4k3/8/8/8/8/8/8/3QK3 b - - 0 1", -3000, -700}, /* the same, seen by the other side */
        {"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", -60, 60},
        {"4k3/pppppppp/8/8/8/8/PPPPPPP1/4K3 w - - 0 1", -250, -40}, /* a pawn down */
    };
    for (int i = 0; i < 4; i++) {
        CHECK(pos_set_fen(&pos, cases[i].fen, err, sizeof err));
        int e = classical_evaluate(&pos);
        CHECK_MSG(e >= cases[i].min && e <= cases[i].max, "%s: %d, want %d..%d", cases[i].fen, e, cases[i].min, cases[i].max);
    }
}
