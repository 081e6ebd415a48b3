/* bench: a fixed, varied position set searched to a fixed depth by one thread with fresh
 * tables, so the node count identifies the search and evaluation exactly. */
#include "bench.h"

#include <stdlib.h>

#include "board.h"
#include "clock.h"
#include "evaluate.h"
#include "nnue.h"
#include "notation.h"
#include "threads.h"
#include "version.h"

static const char *bench_positions[] = {
    /* openings */
    START_FEN,
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5",
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "rnbq1rk1/ppp1ppbp/3p1np1/8/2PPP3/2N2N2/PP3PPP/R1BQKB1R w KQ - 0 6",
    "rnbqkbnr/ppp2ppp/4p3/3pP3/3P4/8/PPP2PPP/RNBQKBNR b KQkq - 0 3",
    "rn1qkbnr/pp2pppp/2p5/5b2/3PN3/8/PPP2PPP/R1BQKBNR w KQkq - 1 5",
    "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 1 7",
    "rnbqkb1r/pp3ppp/3p1n2/2pP4/8/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 6",
    /* middlegames */
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
    "r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1Q3/PPP2PPP/R4RK1 w - - 0 12",
    "2r2rk1/1bqnbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 13",
    "r1bqr1k1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP1N1PPP/R1BQR1K1 w - - 0 8",
    "4r1k1/1q3ppp/p7/1p1p4/3P4/1P3N2/P4PPP/2Q3K1 w - - 0 25",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    /* endgames */
    "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2K5/3P4/8/8 w - - 0 1",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/1r6 w - - 0 1",
    "8/8/1p3k2/p1p5/P1P2K2/1P6/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
    "8/3k4/8/2p1p3/2P1P3/3K4/8/8 w - - 0 1",
    "5k2/8/8/8/8/8/3B4/4KN2 w - - 0 1",
    "8/6k1/8/8/8/8/2Q5/K7 w - - 0 1",
    "1r4k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "3r2k1/pp3ppp/4p3/8/2P5/1P6/P4PPP/4R1K1 w - - 0 20",
    "8/8/8/3k4/8/3K4/3P4/8 w - - 0 1",
};

uint64_t bench_run(int depth, const EngineSettings *settings, FILE *out, int verbose) {
    int count = (int)(sizeof bench_positions / sizeof bench_positions[0]);
    SearchWorker *worker = search_worker_create(16);
    if (!worker) {
        fprintf(out, "error: bench cannot allocate its search tables\n");
        return 0;
    }
    search_worker_clear(worker);
    if (verbose) /* which build, evaluator and net the numbers below belong to */
        fprintf(out, "%s %s bench: depth %d, %s evaluation%s%s\n", ENGINE_NAME, squall_version, depth,
                evaluate_name(settings), evaluate_uses_nnue(settings) ? ", net " : "",
                evaluate_uses_nnue(settings) ? nnue_net_name() : "");
    Position *pos = malloc(sizeof *pos);
    uint64_t nodes = 0, eval_full = 0, eval_lazy = 0;
    ReductionStats reductions = {0, 0, 0};
    int64_t start = time_now_ms();
    for (int i = 0; i < count; i++) {
        char err[128];
        if (!pos_set_fen(pos, bench_positions[i], err, sizeof err)) {
            fprintf(out, "error: bench position %d: %s\n", i + 1, err);
            continue;
        }
        SearchLimits limits;
        search_limits_clear(&limits);
        limits.depth = depth;
        SearchResult r = search_worker_run(worker, pos, &limits, settings);
        nodes += r.nodes;
        eval_full += r.eval_full;
        eval_lazy += r.eval_lazy;
        reduction_stats_add(&reductions, &r.reductions);
        if (verbose) {
            char mv[8];
            move_to_uci(pos, r.best, mv);
            fprintf(out, "position %2d/%d: bestmove %-6s score %6d nodes %llu\n", i + 1, count, mv, r.score,
                    (unsigned long long)r.nodes);
        }
    }
    int64_t elapsed = time_now_ms() - start;
    free(pos);
    search_worker_destroy(worker);
    if (verbose && eval_full + eval_lazy)
        fprintf(out, "Evaluations: %llu full, %llu lazy (%.1f%% lazy)\n", (unsigned long long)eval_full,
                (unsigned long long)eval_lazy, 100.0 * (double)eval_lazy / (double)(eval_full + eval_lazy));
    if (verbose && reductions.late_moves)
        fprintf(out, "Late moves: %llu, %.1f%% reduced, by %.2f plies on average\n",
                (unsigned long long)reductions.late_moves, 100.0 * (double)reductions.reduced / (double)reductions.late_moves,
                reductions.reduced ? (double)reductions.plies / (double)reductions.reduced : 0.0);
    fprintf(out, "Nodes searched: %llu\n", (unsigned long long)nodes);
    fprintf(out, "Nodes/second: %llu\n", (unsigned long long)(elapsed > 0 ? nodes * 1000 / (uint64_t)elapsed : nodes * 1000));
    fflush(out);
    return nodes;
}
