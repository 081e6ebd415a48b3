/* Time allocation as pure functions: exact budgets on a few clocks (worked out by hand from
 * the defaults in search_params.h), then a sweep showing the budget never exceeds what the
 * clock allows, and the per-iteration stop limit. */
#include "test.h"
#include "timeman.h"

static SearchLimits clock_limits(int64_t white_ms, int64_t white_inc, int movestogo) {
    SearchLimits l;
    search_limits_clear(&l);
    l.time[WHITE] = white_ms;
    l.inc[WHITE] = white_inc;
    l.movestogo = movestogo;
    return l;
}

static void check_budget(const SearchLimits *l, int game_ply, int overhead, int64_t soft, int64_t hard, const char *what) {
    TimeBudget b = timeman_budget(l, WHITE, game_ply, overhead);
    CHECK_MSG(b.timed && b.soft_ms == soft && b.hard_ms == hard, "%s: soft %lld hard %lld, want %lld %lld", what,
              (long long)b.soft_ms, (long long)b.hard_ms, (long long)soft, (long long)hard);
}

TEST(timeman, budgets_on_known_clocks) {
    /* usable = clock - overhead - margin, margin = clock / 20 within [150, 1000] ms; soft = usable / moves to go (30 early
     * in the game) + 3/4 increment, at most usable / 2; hard = usable / 4 + 3/4 increment */
    SearchLimits l = clock_limits(60000, 0, 0);
    check_budget(&l, 0, 50, 58950 / 30, 58950 / 4, "sudden death 60 s");
    check_budget(&l, 80, 50, 58950 / 25, 58950 / 4, "sudden death 60 s late in the game");
    l = clock_limits(10000, 100, 0);
    check_budget(&l, 0, 50, 9450 / 30 + 75, 9450 / 4 + 75, "10 s + 0.1 s");
    l = clock_limits(30000, 0, 10);
    check_budget(&l, 0, 50, 28950 / 10, 28950 / 4, "30 s for 10 moves");
    l = clock_limits(5000, 0, 1);
    check_budget(&l, 0, 50, 4700, 4700, "last move before the time control");
    l = clock_limits(30, 0, 0);
    check_budget(&l, 0, 100, 1, 1, "30 ms left, 100 ms overhead");
    search_limits_clear(&l);
    l.movetime = 1000;
    check_budget(&l, 0, 50, 950, 950, "movetime 1 s");
    l.time[WHITE] = 2000; /* both: the tighter one wins */
    check_budget(&l, 0, 50, 1800 / 30, 1800 / 4, "movetime and clock");
    l = clock_limits(1000, 10, 0); /* 1 s + 10 ms: the margin's floor */
    check_budget(&l, 0, 30, 820 / 30 + 7, 820 / 4 + 7, "1 s + 10 ms");
    l = clock_limits(300, 10, 0);
    check_budget(&l, 0, 30, 120 / 30 + 7, 120 / 4 + 7, "300 ms + 10 ms");
    l = clock_limits(150, 10, 0);
    check_budget(&l, 0, 30, 1, 1, "150 ms + 10 ms: below the floor");

    search_limits_clear(&l);
    CHECK(!timeman_budget(&l, WHITE, 0, 50).timed); /* no limit at all */
    l = clock_limits(60000, 0, 0);
    CHECK(!timeman_budget(&l, BLACK, 0, 50).timed); /* a clock for the other side only */
    l.infinite = true;
    CHECK(!timeman_budget(&l, WHITE, 0, 50).timed);
}

TEST(timeman, never_more_than_the_clock_allows) {
    static const int64_t clocks[] = {0, 1, 5, 20, 50, 100, 300, 1000, 5000, 60000, 600000};
    static const int64_t incs[] = {0, 10, 100, 2000, 30000};
    static const int togo[] = {0, 1, 2, 5, 40, 80};
    static const int overheads[] = {0, 30, 100, 1000};
    int checked = 0;
    for (int c = 0; c < 11; c++)
        for (int i = 0; i < 5; i++)
            for (int g = 0; g < 6; g++)
                for (int o = 0; o < 4; o++)
                    for (int ply = 0; ply < 300; ply += 97) {
                        SearchLimits l = clock_limits(clocks[c], incs[i], togo[g]);
                        TimeBudget b = timeman_budget(&l, WHITE, ply, (int)overheads[o]);
                        int64_t allowed = clocks[c] - overheads[o] > 1 ? clocks[c] - overheads[o] : 1;
                        CHECK_MSG(b.timed && 1 <= b.soft_ms && b.soft_ms <= b.hard_ms && b.hard_ms <= allowed,
                                  "clock %lld inc %lld togo %d overhead %lld: soft %lld hard %lld", (long long)clocks[c],
                                  (long long)incs[i], togo[g], (long long)overheads[o], (long long)b.soft_ms, (long long)b.hard_ms);
                        checked++;
                    }
    CHECK(checked == 11 * 5 * 6 * 4 * 4);
}

/* A game at 1 s + 10 ms (and 10 s + 0.1 s) where every move takes the whole hard limit and
 * half the increment in lag besides: the clock settles near the margin's floor instead of
 * draining to a few milliseconds, so a slow answer from a loaded machine has room. */
TEST(timeman, tiny_clocks_keep_a_floor) {
    static const int64_t bases[] = {1000, 10000}, incs[] = {10, 100};
    for (int k = 0; k < 2; k++) {
        int64_t clock = bases[k], lowest = clock;
        for (int ply = 0; ply < 400; ply += 2) {
            SearchLimits l = clock_limits(clock, incs[k], 0);
            TimeBudget b = timeman_budget(&l, WHITE, ply, 30);
            clock = clock - b.hard_ms - incs[k] / 2 + incs[k];
            CHECK_MSG(clock > 0, "base %lld: flagged at ply %d", (long long)bases[k], ply);
            if (ply > 100 && clock < lowest) lowest = clock;
        }
        CHECK_MSG(lowest >= 150, "base %lld + %lld: the clock fell to %lld ms", (long long)bases[k], (long long)incs[k],
                  (long long)lowest);
    }
}

TEST(timeman, iteration_limit_follows_stability) {
    struct {
        IterationProgress p;
        int64_t limit;
    } cases[] = {
        {{10, 4, 0, 20, 0}, 550},  /* best move settled for 4 iterations */
        {{10, 2, 0, 20, 0}, 800},
        {{10, 1, 0, 20, 0}, 1000},
        {{10, 0, 0, 20, 0}, 1500}, /* best move just changed */
        {{5, 0, 0, 20, 0}, 1000},  /* too shallow for that to count */
        {{10, 1, 31, 20, 0}, 1300}, /* score dropped */
        {{10, 1, 30, 20, 0}, 1000},
        {{10, 0, 31, 20, 0}, 1950},
        {{10, 0, 31, 1, 0}, 100},  /* one legal move */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t got = timeman_iteration_limit(1000, &cases[i].p);
        CHECK_MSG(got == cases[i].limit, "case %zu: %lld, want %lld", i, (long long)got, (long long)cases[i].limit);
    }
}
