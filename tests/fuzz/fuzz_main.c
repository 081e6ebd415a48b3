/* squall-fuzz: the session fuzzer's command line (`make fuzz`; docs/measurements.md has
 * the long run). Exit code 1 when any session failed. */
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fuzz.h"

static void usage(void) {
    printf("usage: squall-fuzz [--engine PATH] [--sessions N] [--seed S] [--first I] [--jobs J]\n"
           "                   [--save DIR] [--deadline SECONDS] [--verbose]\n"
           "  Runs N mutated sessions (UCI, xboard, terminal, batch) against the engine\n"
           "  (default ./squall-debug) and checks each transcript. Session I of seed S is\n"
           "  always the same session: --first I --sessions 1 --verbose replays one.\n");
}

int main(int argc, char **argv) {
    FuzzCampaign c = {.engine = "./squall-debug", .seed = 1, .first = 0, .count = 100, .jobs = 1,
                      .session_deadline_ms = 30000};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--verbose")) c.verbose = true;
        else if (!v) return usage(), 2;
        else if (!strcmp(a, "--engine")) c.engine = v, i++;
        else if (!strcmp(a, "--sessions")) c.count = atol(v), i++;
        else if (!strcmp(a, "--seed")) c.seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--first")) c.first = atol(v), i++;
        else if (!strcmp(a, "--jobs")) c.jobs = atoi(v), i++;
        else if (!strcmp(a, "--save")) c.save_dir = v, i++;
        else if (!strcmp(a, "--deadline")) c.session_deadline_ms = atoi(v) * 1000, i++;
        else return usage(), 2;
    }
    if (c.count < 0 || c.first < 0 || c.jobs < 1 || c.session_deadline_ms < 1000) return usage(), 2;
    setvbuf(stdout, NULL, _IOLBF, 0);
    board_init();
    printf("squall-fuzz: engine %s, seed %llu, sessions %ld..%ld, %d job(s)\n", c.engine, (unsigned long long)c.seed,
           c.first, c.first + c.count - 1, c.jobs);
    FuzzTotals t;
    long failures = fuzz_campaign(&c, &t);
    fuzz_print_totals(&t, stdout);
    return failures ? 1 : 0;
}
