/* `squall nnue-speed`: timing of the NNUE building blocks with the instruction set compiled in
 * (build with ARCH=generic for the plain C path). A benchmark, not a test: the numbers depend
 * on the machine and its load. */
#include <stdlib.h>
#include <string.h>

#include "accumulator.h"
#include "board.h"
#include "clock.h"
#include "movegen.h"
#include "nnue.h"

static volatile int64_t sink; /* keeps the timed work from being optimised away */

static const char *const speed_fens[] = {
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbqkb1r/pp1p1ppp/4pn2/2p5/2PP4/2N5/PP2PPPP/R1B1KBNR w KQkq - 0 4",
};
#define SPEED_FEN_COUNT ((int)(sizeof speed_fens / sizeof speed_fens[0]))

typedef struct {
    double update_ns;      /* make, catch-up of both halves, unmake of a quiet non-king move */
    double king_ns;        /* the same for a king move: one half from the refresh cache */
    double move_only_ns;   /* the same make+unmake without an accumulator, subtracted from the above */
    double refresh_ns;     /* both halves from scratch */
    double propagate_ns;   /* hidden layers */
    double evaluate_ns;    /* nnue_evaluate with a current accumulator */
} SpeedResult;

/* The machine may be shared: every figure is the fastest of many short batches (a batch that
 * was interrupted or shared a core only makes itself slower), in ns per repetition of `body`. */
#define SPEED_BATCH 256
#define TIME_BEST(result, iterations, body)                                                        \
    do {                                                                                           \
        double best_ = 1e300;                                                                      \
        for (int done_ = 0; done_ < (iterations); done_ += SPEED_BATCH) {                          \
            double t0_ = (double)time_now_ns();                                                                 \
            for (int n = done_; n < done_ + SPEED_BATCH; n++) { body; }                            \
            double t_ = (double)time_now_ns() - t0_;                                                            \
            if (t_ < best_) best_ = t_;                                                            \
        }                                                                                          \
        (result) = best_ / SPEED_BATCH;                                                            \
    } while (0)

/* Average over the positions of the best ns of make (+ lazy catch-up when an accumulator is
 * given) + unmake of the first move of the wanted kind. */
static double time_make_unmake(Position **pos, Accumulator *acc, bool king, int iterations) {
    double total = 0;
    int counted = 0;
    for (int i = 0; i < SPEED_FEN_COUNT; i++) {
        MoveList list;
        generate_legal(pos[i], &list);
        Move m = MOVE_NONE;
        for (int k = 0; k < list.count && m == MOVE_NONE; k++) {
            Move c = list.moves[k];
            bool is_king = piece_type(pos_piece_on(pos[i], move_from(c))) == KING;
            if (move_kind(c) == MOVE_NORMAL && !pos_is_capture(pos[i], c) && is_king == king) m = c;
        }
        if (m == MOVE_NONE) continue;
        double t;
        if (acc) {
            accumulator_refresh(acc, pos[i]);
            TIME_BEST(t, iterations, {
                pos_make_move(pos[i], m);
                accumulator_after_make(acc, pos[i]);
                sink += accumulator_halves(acc, pos[i])[0].values[n & 255]; /* the lazy catch-up */
                pos_unmake_move(pos[i]);
                accumulator_after_unmake(acc, pos[i]);
            });
        } else {
            TIME_BEST(t, iterations, {
                pos_make_move(pos[i], m);
                pos_unmake_move(pos[i]);
            });
        }
        total += t;
        counted++;
    }
    return counted ? total / counted : 0;
}

static void measure(Position **pos, Accumulator *acc, int iterations, SpeedResult *r) {
    memset(r, 0, sizeof *r);
    r->move_only_ns = time_make_unmake(pos, NULL, false, iterations);
    double king_only = time_make_unmake(pos, NULL, true, iterations);
    r->update_ns = time_make_unmake(pos, acc, false, iterations) - r->move_only_ns;
    r->king_ns = time_make_unmake(pos, acc, true, iterations) - king_only;

    TIME_BEST(r->refresh_ns, iterations, accumulator_refresh(acc, pos[n % SPEED_FEN_COUNT]));

    /* the forward pass skips all-zero input groups, so its time depends on the position: the
     * mean over the positions, each with both halves as the side to move in turn */
    int64_t s = 0;
    for (int i = 0; i < SPEED_FEN_COUNT; i++) {
        Position *p = pos[i];
        accumulator_refresh(acc, p);
        const AccumulatorHalf *h = accumulator_halves(acc, p);
        double propagate, evaluate;
        TIME_BEST(propagate, iterations, s += nnue_propagate(h[n & 1].values, h[!(n & 1)].values, 0));
        TIME_BEST(evaluate, iterations, s += nnue_evaluate(p, acc));
        r->propagate_ns += propagate / SPEED_FEN_COUNT;
        r->evaluate_ns += evaluate / SPEED_FEN_COUNT;
    }
    sink = s;
}

void nnue_speed_usage(FILE *out) { fprintf(out, "usage: squall nnue-speed [--iterations N]\n"); }

int nnue_speed_main(int argc, char **argv) {
    int iterations = 200000;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = atoi(argv[++i]);
    if (iterations < 1) iterations = 1;
    if (!nnue_is_loaded()) {
        NnueNet *net = nnue_net_alloc();
        char err[200];
        if (!net) return 1;
        nnue_net_init_random(net, 1);
        if (!nnue_set_net(net, "net-init seed 1", err, sizeof err)) {
            fprintf(stderr, "nnue-speed: %s\n", err);
            nnue_net_free(net);
            return 1;
        }
    }
    Position *pos[SPEED_FEN_COUNT];
    Accumulator *acc = accumulator_create();
    if (!acc) return 1;
    for (int i = 0; i < SPEED_FEN_COUNT; i++) {
        pos[i] = calloc(1, sizeof(Position));
        if (!pos[i] || !pos_set_fen(pos[i], speed_fens[i], NULL, 0)) return 1;
    }
    printf("nnue-speed: net %s, %d iterations\n", nnue_net_name(), iterations);
    printf("%-11s %12s %12s %12s %12s %12s %12s\n", "kernels", "update", "king-move", "make-only", "refresh",
           "propagate", "evaluate");
    SpeedResult r;
    measure(pos, acc, iterations, &r);
    printf("%-11s %10.1fns %10.1fns %10.1fns %10.1fns %10.1fns %10.1fns\n", nnue_simd_name(), r.update_ns, r.king_ns,
           r.move_only_ns, r.refresh_ns, r.propagate_ns, r.evaluate_ns);
    printf("Fastest %d-call batch of each. update = accumulator cost of one quiet move (make with its PSQT\n"
           "sums, lazy catch-up of both halves, unmake); king-move = the same for a king move (one half from\n"
           "the refresh cache, which holds this very board: the best case); make-only = board make+unmake\n"
           "without accumulator; refresh = both halves from scratch; propagate = hidden layers;\n"
           "evaluate = nnue_evaluate; each the mean over %d positions.\n", SPEED_BATCH, SPEED_FEN_COUNT);
    for (int i = 0; i < SPEED_FEN_COUNT; i++) free(pos[i]);
    accumulator_destroy(acc);
    return 0;
}
