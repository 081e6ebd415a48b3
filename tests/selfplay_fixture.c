#include "selfplay_fixture.h"

#include <stdio.h>

#include "threads.h"

void test_selfplay_config(DatagenConfig *cfg, const char *path, int threads, int nodes, uint64_t seed) {
    search_init();
    datagen_config_defaults(cfg);
    cfg->settings.eval_mode = EVAL_MODE_CLASSICAL;
    cfg->out_path = path;
    cfg->threads = threads;
    cfg->nodes = (uint64_t)nodes;
    cfg->seed = seed;
    cfg->progress_seconds = 0;
    cfg->hash_mb = 2;
}

bool test_selfplay_games(const char *path, int games, int threads, int nodes, uint64_t seed, DatagenStats *st) {
    DatagenConfig cfg;
    test_selfplay_config(&cfg, path, threads, nodes, seed);
    cfg.games = (uint64_t)games;
    char err[256];
    bool ok = datagen_run(&cfg, st, NULL, err, sizeof err);
    if (!ok) printf("    datagen: %s\n", err);
    return ok;
}
