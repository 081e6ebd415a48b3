/* Trainer input: datagen record files loaded into memory, the holdout split by game, and the
 * conversion of a record into the sample the model consumes (active features of both
 * perspectives, computed with nnue_feature_index, the engine's own feature function). */
#ifndef SQUALL_TRAIN_DATA_H
#define SQUALL_TRAIN_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnue_features.h"
#include "train_record.h"

/* Salt of the holdout split: fixed, so every --seed sees the same holdout games and validation
 * losses of different runs on the same files compare. */
#define TRAIN_SPLIT_SALT 0x53504C4954303031ULL /* "SPLIT001" */

typedef struct {
    Record *records;
    size_t count;            /* usable records */
    size_t rejected;         /* records that did not decode (skipped at load) */
    int files;
    uint32_t *train;         /* indices into records */
    size_t train_count;
    uint32_t *holdout;
    size_t holdout_count;
    size_t train_games, holdout_games;
    FILE *log;               /* a line per file loaded (positions, weight, manifest), or NULL */
} TrainData;

/* One position as the model sees it. feat[0] is the side to move's perspective (the half that
 * comes first in the concatenation), feat[1] the other side's. */
typedef struct {
    uint16_t feat[2][NNUE_MAX_ACTIVE];
    uint8_t count;   /* active features per perspective (= pieces on the board) */
    uint8_t side;    /* colour to move */
    float score;     /* search score, centipawns, side to move */
    float result;    /* 1 win, 0.5 draw, 0 loss, side to move */
} TrainSample;

/* Loads a comma-separated list of entries and splits them: a game goes to the holdout when a
 * hash of (its file's first record, game id) falls below holdout_fraction, so the split does not
 * depend on the order of the list or on what else a pool holds. An entry is a record file or a
 * directory (its *.bin files, in name order: a data pool), optionally with @W (0 < W <= 1) to
 * keep only that share of its games, e.g. to weight an old generation down. Each file's
 * manifest line (FILE.manifest, written by datagen) goes to log. false with a reason on error. */
bool train_data_load(TrainData *data, const char *file_list, double holdout_fraction, FILE *log, char *err,
                     size_t err_size);
void train_data_free(TrainData *data);
/* Drops the training split's positions of game plies below min_ply (the holdout keeps them, so
 * validation losses of runs with different cuts still compare); returns how many went. */
size_t train_data_drop_early_plies(TrainData *data, unsigned min_ply);

/* Fills s from a record; false if the record does not decode. */
bool train_sample_from_record(const Record *rec, TrainSample *s);
/* The same from an unpacked record. */
void train_sample_from_position(const RecordPosition *rp, TrainSample *s);

#endif
