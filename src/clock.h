/* The process's clocks: a monotonic wall clock (never steps back when the system time is set)
 * and the CPU time of the whole process. Every timing in the tree reads these two. */
#ifndef SQUALL_CLOCK_H
#define SQUALL_CLOCK_H

#include <stdint.h>

int64_t time_now_ns(void);     /* monotonic wall clock */
int64_t cpu_time_now_ns(void); /* CPU time of the whole process (all its threads) */

static inline int64_t time_now_ms(void) { return time_now_ns() / 1000000; }
static inline int64_t cpu_time_now_ms(void) { return cpu_time_now_ns() / 1000000; }
static inline double time_now_seconds(void) { return (double)time_now_ns() * 1e-9; }
static inline double cpu_time_now_seconds(void) { return (double)cpu_time_now_ns() * 1e-9; }

#endif
