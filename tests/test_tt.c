/* Transposition table: entries come back as stored, mate scores keep their distance from
 * the node whatever ply stores and probes them, and replacement keeps the deeper entry. */
#include "search_params.h"
#include "test.h"
#include "tt.h"

static uint64_t rng_state = 0x7ab1e5ULL;

/* A mate d plies after a node at ply p scores SCORE_MATE - (p + d) at the root. */
TEST(tt, mate_scores_keep_their_distance_across_plies) {
    static const int plies[] = {0, 1, 7, 30, 60}; /* with d: within MAX_PLY, as every real mate is */
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            for (int d = 1; d < 40; d += 7) {
                int stored = plies[a], probed = plies[b];
                int mate = SCORE_MATE - (stored + d), mated = -SCORE_MATE + (stored + d);
                CHECK_MSG(score_from_tt(score_to_tt(mate, stored), probed) == SCORE_MATE - (probed + d), "mate in %d plies, ply %d->%d",
                          d, stored, probed);
                CHECK_MSG(score_from_tt(score_to_tt(mated, stored), probed) == -SCORE_MATE + (probed + d),
                          "mated in %d plies, ply %d->%d", d, stored, probed);
            }
    /* ordinary scores and the no-score marker pass unchanged */
    static const int plain[] = {0, 1, -1, 250, -3000, SCORE_MATE_IN_MAX - 1, -SCORE_MATE_IN_MAX + 1};
    for (int i = 0; i < 7; i++) CHECK(score_from_tt(score_to_tt(plain[i], 9), 23) == plain[i]);
    CHECK(score_from_tt(SCORE_NONE, 12) == SCORE_NONE);
}

TEST(tt, store_probe_round_trip) {
    TranspositionTable tt = {0};
    CHECK(tt_init(&tt, 1));
    if (!tt.clusters) return;
    for (int i = 0; i < 500; i++) {
        uint64_t key = test_random(&rng_state);
        int ply = (int)(test_random(&rng_state) % 60), distance = 1 + (int)(test_random(&rng_state) % 60);
        int score = i % 3 == 0 ? SCORE_MATE - (ply + distance) : i % 3 == 1 ? -SCORE_MATE + (ply + distance) : i * 7 - 1700;
        Move move = (Move)(1 + test_random(&rng_state) % 0xFFFE);
        int eval = (int)(test_random(&rng_state) % 4001) - 2000, depth = (int)(test_random(&rng_state) % 100) - 1;
        int bound = 1 + i % 3;
        bool pv = i % 2;
        tt_store(&tt, key, move, score_to_tt(score, ply), eval, depth, bound, pv);
        TTHit hit;
        CHECK_MSG(tt_probe(&tt, key, &hit), "entry %d lost", i);
        CHECK(hit.move == move && hit.eval == eval && hit.depth == depth && hit.bound == bound && hit.pv == pv);
        /* probed from a node 5 plies deeper the mate is still `distance` plies away from it */
        int expected = score_is_mate(score) ? (score > 0 ? SCORE_MATE - (ply + 5 + distance) : -SCORE_MATE + (ply + 5 + distance)) : score;
        CHECK_MSG(score_from_tt(hit.score, ply + 5) == expected, "score %d stored at ply %d came back %d", score, ply,
                  score_from_tt(hit.score, ply + 5));
        CHECK(!tt_probe(&tt, key ^ 1, &hit));
    }
    tt_free(&tt);
}

TEST(tt, replacement_keeps_deeper_entries_and_moves) {
    TranspositionTable tt = {0};
    CHECK(tt_init(&tt, 1));
    if (!tt.clusters) return;
    uint64_t key = 0x123456789abcdefULL;
    TTHit hit;
    tt_store(&tt, key, 1234, 50, 10, 12, BOUND_LOWER, false);
    /* a much shallower bound of the same search does not overwrite it */
    tt_store(&tt, key, 777, -80, 10, 12 - TT_KEEP_DEPTH_MARGIN - 1, BOUND_UPPER, false);
    CHECK(tt_probe(&tt, key, &hit) && hit.depth == 12 && hit.move == 1234 && hit.score == 50);
    /* a shallower store within the margin does, and keeps the old move when it has none */
    tt_store(&tt, key, MOVE_NONE, -80, 10, 12 - TT_KEEP_DEPTH_MARGIN, BOUND_UPPER, false);
    CHECK(tt_probe(&tt, key, &hit) && hit.depth == 12 - TT_KEEP_DEPTH_MARGIN && hit.move == 1234 && hit.score == -80);
    /* an exact score always replaces */
    tt_store(&tt, key, 999, 5, 10, 1, BOUND_EXACT, true);
    CHECK(tt_probe(&tt, key, &hit) && hit.depth == 1 && hit.move == 999 && hit.bound == BOUND_EXACT && hit.pv);
    /* in a new search the old entry no longer blocks a shallow bound */
    tt_store(&tt, key, 555, 40, 10, 30, BOUND_LOWER, false);
    tt_new_search(&tt);
    tt_store(&tt, key, 444, 41, 10, 2, BOUND_UPPER, false);
    CHECK(tt_probe(&tt, key, &hit) && hit.depth == 2 && hit.move == 444);
    tt_free(&tt);
}
