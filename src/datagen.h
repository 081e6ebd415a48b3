/* Self-play training data: `squall datagen`.
 *
 * Worker threads, each with its own SearchWorker, play games from random balanced openings at a
 * fixed node budget per move, adjudicate them, and write the quiet positions with their search
 * scores and the final result as 32-byte records (train_record.h). Game g draws its random
 * numbers from (seed, g) alone and starts from a cleared worker, and games are written in
 * game-index order, so the file depends only on the seed and the limits, not on the thread
 * count or on timing. docs/datagen.md describes the rules and the measured throughput. */
#ifndef SQUALL_DATAGEN_H
#define SQUALL_DATAGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "settings.h"

/* Tunables of the generator, all in one place. */
#define DATAGEN_DEFAULT_NODES 5000
#define DATAGEN_DEFAULT_RANDOM_PLIES 8  /* actual count is this +-1, chosen per game */
#define DATAGEN_DEFAULT_HASH_MB 16
#define DATAGEN_OPENING_CHECK_NODES 2000 /* short search that judges a random opening */
#define DATAGEN_OPENING_MAX_SCORE 150    /* |score| above this: draw another opening */
#define DATAGEN_OPENING_TRIES 1000       /* give up on a game after this many openings */
#define DATAGEN_RESIGN_SCORE 1000        /* |score| at least this ... */
#define DATAGEN_RESIGN_PLIES 4           /* ... for this many plies in a row, same winner */
#define DATAGEN_DRAW_SCORE 10            /* |score| at most this ... */
#define DATAGEN_DRAW_PLIES 10            /* ... for this many plies in a row ... */
#define DATAGEN_DRAW_MIN_PLY 80          /* ... once the game is at least this many plies old */
#define DATAGEN_MAX_PLY 400              /* a game still running here is scored a draw */
#define DATAGEN_PROGRESS_SECONDS 5.0
#define DATAGEN_MANIFEST_SECONDS 60.0 /* a killed run loses at most this much of its count */

typedef struct {
    const char *out_path;
    uint64_t games;       /* stop after this many games (0: use positions) */
    uint64_t positions;   /* stop after the game that reaches this many records (0: use games) */
    int threads;
    uint64_t nodes;       /* node budget per move */
    uint64_t seed;
    int random_plies;
    int hash_mb;          /* per worker */
    double progress_seconds; /* <= 0: no progress lines */
    EngineSettings settings; /* evaluator and search settings of every game */
    const char *evaluator;   /* for the manifest: "classical", or "nnue net=<sha256> name=<file>" */
    bool manifest;           /* keep OUT.manifest current (see datagen_write_manifest) */
    double manifest_seconds; /* how often a running generator rewrites it */
} DatagenConfig;

typedef struct {
    uint64_t games, positions, plies, nodes;
    uint64_t wins[3];            /* by result: RESULT_BLACK_WIN, RESULT_DRAW, RESULT_WHITE_WIN */
    uint64_t ends_mate, ends_stalemate, ends_rule, ends_material, ends_resign, ends_draw_adj, ends_max_ply;
    uint64_t skipped_check, skipped_noisy, skipped_mate; /* searched positions left out, by reason */
    uint64_t openings_rejected;
    double seconds;
} DatagenStats;

void datagen_config_defaults(DatagenConfig *cfg);
/* The pool's record of one data file: OUT.manifest, one line of key=value fields (generator
 * version, evaluator and net sha256, nodes, seed, opening plies, threads, positions, games,
 * start and update times, status running|done|failed), rewritten every manifest_seconds and at
 * the end, so a later run knows what each file of the pool holds even if this one was killed. */
bool datagen_write_manifest(const DatagenConfig *cfg, const DatagenStats *stats, time_t started, const char *status);
/* "nnue net=<sha256 of the current net> name=<its name>" or "classical": what the evaluator
 * settings select would put into a manifest. */
void datagen_describe_evaluator(const EngineSettings *settings, char *out, size_t size);
/* Runs the generator with the evaluator cfg->settings selects (and the loaded net). Returns
 * false with a reason in err on bad settings or I/O errors. */
bool datagen_run(const DatagenConfig *cfg, DatagenStats *stats, FILE *log, char *err, size_t err_size);
/* Asks a running datagen_run to stop after the games in progress (the file then ends on a
 * whole game). Safe to call from a signal handler; lasts for the rest of the process. */
void datagen_request_stop(void);
/* `squall datagen --dump FILE`: the first `limit` records as FEN lines, then a summary.
 * Returns 0, or 1 when the file cannot be read or holds records that do not decode. */
int datagen_dump(const char *path, uint64_t limit, FILE *out);
/* `squall datagen ...`; argv[0] is "datagen". */
int datagen_main(int argc, char **argv);
void datagen_usage(FILE *out); /* its flags, for `squall datagen --help` */
/* Command-line count for the tool subcommands (datagen, movefit): decimal, no sign, in
 * [min, max]; false otherwise. */
bool parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out);

#endif
