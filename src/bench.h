/* Fixed-depth search over a fixed position set: a deterministic node count and a speed figure. */
#ifndef SQUALL_BENCH_H
#define SQUALL_BENCH_H

#include <stdint.h>
#include <stdio.h>

#include "settings.h"

#define BENCH_DEFAULT_DEPTH 12

/* Searches every bench position to depth with settings (single thread, TT cleared first), prints
 * per-position lines to out when verbose, then "Nodes searched: N" and "Nodes/second: N". Returns the nodes. */
uint64_t bench_run(int depth, const EngineSettings *settings, FILE *out, int verbose);

#endif
