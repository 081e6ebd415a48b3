/* Never losing on time through the protocol: the engine's clock after a ponder hit or a
 * ponder miss under xboard, and pause/resume. The bounds are the clock the GUI has sent,
 * far above the normal answer times (tens of ms), so these are no timing benchmarks. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "engine_driver.h"
#include "test.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define SHORT_CLOCK_CS 50     /* the engine's clock sent with the opponent's move: 500 ms */
#define PONDER_BEFORE_MS 300  /* how long the engine ponders before the opponent moves */
#define STOP_BOUND_MS 250     /* the ponder search stopped and the new one started (normally ~1 ms) */

/* xboard with pondering on a 1 minute clock: the engine answers 1. e2e4 (told to move at
 * once with '?'), then ponders on the reply it announced (Hint), its budget worked out from
 * that minute. */
static void ponder_after_first_move(Engine *e, char *ours, char *hint, size_t size) {
    char features[8192], line[8192];
    xboard_open(e, features, sizeof features);
    engine_send_lines(e, (const char *const[]){"new", "hard", "post", "level 0 1 0", "time 6000", "otim 6000",
                                               "usermove e2e4", NULL});
    usleep(150 * 1000);
    engine_send(e, "?");
    CHECK_MSG(engine_expect(e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, NULL, 0), "no move");
    snprintf(ours, size, "%s", line + 5);
    CHECK_MSG(engine_expect(e, "Hint: ", line, sizeof line, READ_TIMEOUT_MS, NULL, 0), "no Hint: not pondering");
    snprintf(hint, size, "%s", line + 6);
    usleep(PONDER_BEFORE_MS * 1000);
}

/* ms from t0 to a line starting with prefix (-1 if none came) */
static int64_t until_line(Engine *e, int64_t t0, const char *prefix, char *line, size_t size) {
    return engine_expect(e, prefix, line, size, SEARCH_TIMEOUT_MS, NULL, 0) ? time_now_ms() - t0 : -1;
}

/* The opponent plays reply with SHORT_CLOCK_CS on the engine's clock: the move must come, legal,
 * within that clock. Returns when the first depth 1 line came (-1: none), when started_at_1. */
static int64_t answer_on_short_clock(Engine *e, const char *ours, const char *reply, bool started_at_1) {
    char line[8192], moves[64];
    engine_send(e, "time %d", SHORT_CLOCK_CS);
    engine_send(e, "otim 6000");
    int64_t t0 = time_now_ms();
    engine_send(e, "usermove %s", reply);
    int64_t started = started_at_1 ? until_line(e, t0, "1 ", line, sizeof line) : -1;
    int64_t took = until_line(e, t0, "move ", line, sizeof line);
    CHECK_MSG(took >= 0 && took < SHORT_CLOCK_CS * 10, "usermove %s with %d ms left answered after %lld ms", reply,
              SHORT_CLOCK_CS * 10, (long long)took);
    snprintf(moves, sizeof moves, "e2e4 %s %s", ours, reply);
    CHECK_MSG(legal_in(START_FEN, moves, line + 5), "illegal %s after %s", line, moves);
    engine_send(e, "quit");
    CHECK(engine_finish(e, 2000) == 0);
    return started;
}

/* The clock after a ponder hit is the one sent with the move, not the one the ponder search
 * started with (a minute here): the move must come within the 500 ms left. */
TEST(protocol_clock, xboard_ponder_hit_uses_the_clock_sent_with_the_move) {
    Engine e;
    char ours[16], hint[16];
    ponder_after_first_move(&e, ours, hint, sizeof ours);
    answer_on_short_clock(&e, ours, hint, false);
}

/* A move the engine did not expect: the ponder search stops at once, the new search starts
 * (its depth 1 line; the ponder search is far deeper) well within the bound, and the move
 * comes within the clock. */
TEST(protocol_clock, xboard_ponder_miss_stops_at_once) {
    Engine e;
    char ours[16], hint[16], moves[64], reply[16] = "";
    ponder_after_first_move(&e, ours, hint, sizeof ours);
    static const char *const candidates[] = {"a2a3", "h2h3", "a2a4"};
    snprintf(moves, sizeof moves, "e2e4 %s", ours);
    for (int i = 0; i < 3 && !reply[0]; i++)
        if (strcmp(candidates[i], hint) && legal_in(START_FEN, moves, candidates[i]))
            snprintf(reply, sizeof reply, "%s", candidates[i]);
    CHECK(reply[0]);
    int64_t started = answer_on_short_clock(&e, ours, reply, true);
    CHECK_MSG(started >= 0 && started < STOP_BOUND_MS, "new search started %lld ms after the ponder miss", (long long)started);
}

/* pause stops the search and its clock; resume goes on where it stopped (no new depth 1
 * line), and the move comes after the time left: st 2 paused after 0.7 s for 1.5 s leaves
 * about 1.3 s (a restart would take 2 s; counting the pause would answer at once). */
TEST(protocol_clock, xboard_pause_keeps_the_search_and_stops_its_clock) {
    Engine e;
    char features[8192], line[8192], seen[65536];
    xboard_open(&e, features, sizeof features);
    engine_send_lines(&e, (const char *const[]){"new", "post", "st 2", "usermove e2e4", NULL});
    usleep(700 * 1000);
    engine_send(&e, "pause");
    while (engine_line(&e, line, sizeof line, 100)) /* what was on its way before the pause */
        CHECK_MSG(strncmp(line, "move ", 5), "moved while paused: %s", line);
    CHECK_MSG(!engine_line(&e, line, sizeof line, 1400), "output while paused: %s", line);
    int64_t t0 = time_now_ms();
    engine_send(&e, "resume");
    CHECK_MSG(engine_expect(&e, "move ", line, sizeof line, SEARCH_TIMEOUT_MS, seen, sizeof seen), "no move after resume");
    int64_t took = time_now_ms() - t0;
    CHECK_MSG(took >= 600 && took <= 1800, "st 2, paused after 0.7 s: the move came %lld ms after resume", (long long)took);
    CHECK_MSG(strncmp(seen, "1 ", 2) && !strstr(seen, "\n1 "), "the search started again after resume:\n%s", seen);
    CHECK(legal_in(START_FEN, "e2e4", line + 5));
    engine_send(&e, "quit");
    CHECK(engine_finish(&e, 2000) == 0);
}
