/* Time allocation: a soft target from the clock, increment and moves to go, and a hard
 * cap that keeps a safety margin so the engine never flags. */
#include "timeman.h"

#include <time.h>

int64_t time_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void timeman_init(TimeManager *tm, const SearchLimits *limits, int side, int game_ply, int overhead_ms) {
    timeman_restart(tm);
    tm->timed = false;
    tm->soft_ms = tm->hard_ms = INT64_MAX / 4;
    if (limits->movetime > 0) {
        tm->timed = true;
        int64_t t = limits->movetime - overhead_ms;
        tm->soft_ms = tm->hard_ms = t < 1 ? 1 : t;
    }
    if (limits->time[side] >= 0 && !limits->infinite) {
        tm->timed = true;
        int64_t left = limits->time[side], inc = limits->inc[side] > 0 ? limits->inc[side] : 0;
        int mtg = limits->movestogo > 0 ? (limits->movestogo < 40 ? limits->movestogo : 40) : 30 - (game_ply > 60 ? 5 : game_ply / 12);
        /* what we may spend at most: the clock less a margin that grows with the overhead */
        int64_t usable = left - overhead_ms - (left / 20 < 1000 ? left / 20 : 1000);
        if (usable < 1) usable = 1;
        int64_t soft = usable / mtg + inc * 3 / 4;
        int64_t hard = usable / (limits->movestogo == 1 ? 1 : 4) + inc * 3 / 4;
        if (soft > usable / 2 && limits->movestogo != 1) soft = usable / 2;
        if (hard > usable) hard = usable;
        if (soft > hard) soft = hard;
        if (soft < 1) soft = 1;
        if (hard < 1) hard = 1;
        if (soft < tm->soft_ms) tm->soft_ms = soft;
        if (hard < tm->hard_ms) tm->hard_ms = hard;
    }
}
