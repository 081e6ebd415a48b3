/* Default engine settings; the protocols change them through their option commands. */
#include "options.h"

EngineOptions engine_options = {
    .hash_mb = 16,
    .threads = 1,
    .multipv = 1,
    .ponder = false,
    .move_overhead_ms = 30,
    .eval_mode = EVAL_MODE_CLASSICAL,
    .lazy_eval = true,
    .lazy_margin = 300,
    .show_wdl = false,
};
