/* Limited strength: the mapping from Elo to node budget and error size, the seeded choice
 * among scored lines, and searches that play weaker moves yet repeat under one seed. */
#include <string.h>

#include "movegen.h"
#include "notation.h"
#include "strength.h"
#include "threads.h"
#include "test.h"

TEST(strength, budget_and_error_follow_the_elo) {
    for (int elo = STRENGTH_ELO_MIN; elo < STRENGTH_ELO_MAX; elo += 100) {
        CHECK_MSG(strength_node_limit(elo) < strength_node_limit(elo + 100), "nodes do not grow at %d", elo);
        CHECK_MSG(strength_error_cp(elo) > strength_error_cp(elo + 100), "error does not shrink at %d", elo);
    }
    /* the error never vanishes inside the range (games showed that a plain search at the top
     * budget plays far above it), but at the top it is a fraction of what it is at the bottom */
    CHECK(strength_error_cp(STRENGTH_ELO_MAX) > 0 && strength_error_cp(STRENGTH_ELO_MAX) * 5 < strength_error_cp(STRENGTH_ELO_MIN));
    CHECK(strength_node_limit(STRENGTH_ELO_MIN - 500) == strength_node_limit(STRENGTH_ELO_MIN)); /* clamped */
}

TEST(strength, pick_is_seeded_and_weak_play_errs) {
    const int scores[4] = {40, 25, 10, -120};
    int non_best = 0, worst = 0, top_best = 0;
    for (uint64_t seed = 1; seed <= 1000; seed++) {
        int pick = strength_pick(scores, 4, STRENGTH_ELO_MIN, seed);
        CHECK(pick == strength_pick(scores, 4, STRENGTH_ELO_MIN, seed));
        CHECK(pick >= 0 && pick < 4);
        non_best += pick != 0, worst += pick == 3;
        top_best += strength_pick(scores, 4, STRENGTH_ELO_MAX, seed) == 0;
    }
    /* an error of about 200 cp makes the lines close to a draw among equals, the bad one rarer;
     * at the top the best line is played most of the time */
    CHECK_MSG(non_best > 400 && worst > 20 && worst < non_best / 2, "non-best %d, worst %d of 1000", non_best, worst);
    CHECK_MSG(top_best > 500, "best line at the top in only %d of 1000", top_best);
}

/* Searches at the lowest Elo: each seed repeats its move, different seeds do not all agree,
 * and every answer is legal. */
TEST(strength, weakened_searches_repeat_under_a_seed) {
    static Position pos;
    CHECK(pos_set_fen(&pos, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", NULL, 0));
    SearchWorker *worker = search_worker_create(1);
    CHECK(worker != NULL);
    if (!worker) return;
    EngineSettings settings = ENGINE_SETTINGS_DEFAULT;
    settings.eval_mode = EVAL_MODE_CLASSICAL;
    settings.strength_elo = STRENGTH_ELO_MIN;
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = 20; /* the Elo's node budget ends the search long before */
    MoveList legal;
    generate_legal(&pos, &legal);
    Move first = MOVE_NONE;
    bool differ = false;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        settings.strength_seed = seed;
        search_worker_clear(worker);
        SearchResult a = search_worker_run(worker, &pos, &limits, &settings);
        search_worker_clear(worker);
        SearchResult b = search_worker_run(worker, &pos, &limits, &settings);
        CHECK_MSG(a.best == b.best, "seed %llu: %d then %d", (unsigned long long)seed, a.best, b.best);
        CHECK(move_list_contains(&legal, a.best));
        CHECK_MSG(a.nodes <= strength_node_limit(STRENGTH_ELO_MIN) + 2048, "%llu nodes", (unsigned long long)a.nodes);
        if (first == MOVE_NONE) first = a.best;
        differ |= a.best != first;
    }
    CHECK_MSG(differ, "twelve seeds all chose the same move");
    search_worker_destroy(worker);
}
