/* A short fixed-seed run of the session fuzzer (tests/fuzz/) against the sanitizer build;
 * `make fuzz` runs a long one. */
#include "fuzz/fuzz.h"
#include "test.h"

#define SHORT_RUN_SESSIONS 16

TEST(fuzz, short_fixed_seed_run) {
    FuzzCampaign c = {.engine = test_debug_engine_path, .seed = 1, .first = 0, .count = SHORT_RUN_SESSIONS, .jobs = 1,
                      .session_deadline_ms = 30000};
    FuzzTotals t;
    long failures = fuzz_campaign(&c, &t);
    if (failures) fuzz_print_totals(&t, stdout);
    CHECK_MSG(failures == 0, "%ld of %ld sessions failed (replay: squall-fuzz --seed 1 --first I --sessions 1 --verbose)",
              failures, t.sessions);
    CHECK(t.sessions == SHORT_RUN_SESSIONS);
}
