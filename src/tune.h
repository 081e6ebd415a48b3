/* squall tune: SPSA tuning of the search constants by in-process self-play. Only tuning
 * builds (make TUNE=1) carry the tuner: there every search takes its constants from its
 * EngineSettings, so the two players of a game differ. Other builds answer how to get one. */
#ifndef SQUALL_TUNE_H
#define SQUALL_TUNE_H

#include <stdio.h>

int tune_main(int argc, char **argv);
void tune_usage(FILE *out); /* its flags, for `squall tune --help` */

#ifdef SQUALL_TUNE
#include <stdbool.h>
#include <stdint.h>

#include "settings.h"

typedef struct {
    const char *openings_path;   /* one opening a line: UCI moves from the start position */
    const char *checkpoint_path; /* written after every batch and resumed when it exists; NULL: none */
    const char *param_names;     /* comma-separated tunables; NULL: every entry of the table */
    int iterations;              /* game pairs: one opening, each player once with each colour */
    int stop_after;              /* pairs after which this call stops (checkpointed); 0: run to the end */
    int threads;                 /* pairs played at once; a batch is two pairs a thread */
    uint64_t seed;               /* perturbation signs and the first opening */
    uint64_t nodes;              /* per move; 0 plays on the clock */
    int64_t base_ms, inc_ms;     /* the clock: per game, and added after each move */
    int hash_mb;                 /* transposition table of each player */
    int max_plies;               /* a game this long is a draw */
    double r_end;                /* final learning rate: a_end = r_end * c_end^2 */
    double a_ratio;              /* stability constant A = a_ratio * iterations */
    double alpha, gamma;         /* decay exponents of a_k and c_k */
    double progress_seconds;     /* at most one progress line this often; 0: after every batch */
    EngineSettings settings;     /* evaluator of both players; the tune sets their constants */
} TuneConfig;

typedef struct {
    int count;                          /* constants tuned */
    int tunable[SEARCH_TUNABLE_COUNT];  /* their indices in search_tunables */
    double theta[SEARCH_TUNABLE_COUNT]; /* their current values, in the same order */
    int done;                           /* game pairs played and applied */
    uint64_t wins, draws, losses;       /* games, from the side perturbed upwards */
    uint64_t time_losses;               /* games lost on time: many mean the clock is too short */
    bool stopped;                       /* stop_after ended the run before its last pair */
} TuneState;

void tune_config_defaults(TuneConfig *cfg);
/* Runs (or resumes from cfg->checkpoint_path) the tune to its last pair or to stop_after;
 * state holds the values reached. Progress lines go to log (may be NULL). */
bool tune_run(const TuneConfig *cfg, TuneState *state, FILE *log, char *err, size_t err_size);
/* The two players' constants of pair k: [0] perturbed up, [1] down (both inside the ranges). */
void tune_pair_settings(const TuneConfig *cfg, const TuneState *state, int k, EngineSettings pair[2]);
/* The tuned entries as search_params.h source lines, ready to replace the table's. */
void tune_print_table_lines(const TuneState *state, FILE *out);
#endif

#endif
