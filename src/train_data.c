/* Record files into memory, the holdout split by game, records into model samples. */
#include "train_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Appends one file's decodable records to data->records. */
static bool load_file(TrainData *data, const char *path, size_t *capacity, char *err, size_t err_size) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno)), false;
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return snprintf(err, err_size, "cannot seek in '%s'", path), false;
    }
    long size = ftell(f);
    rewind(f);
    if (size < 0) {
        fclose(f);
        return snprintf(err, err_size, "cannot size '%s'", path), false;
    }
    size_t n = (size_t)size / RECORD_SIZE;
    if (size % RECORD_SIZE) {
        /* a generator stopped mid-write leaves a partial record: use the whole ones */
        fprintf(stderr, "train: '%s' ends in a partial record (%ld bytes); ignoring it\n", path, size % RECORD_SIZE);
        data->rejected++;
    }
    if (data->count + n > UINT32_MAX) {
        fclose(f);
        return snprintf(err, err_size, "too many records (more than 2^32)"), false;
    }
    if (data->count + n > *capacity) {
        size_t cap = data->count + n;
        Record *grown = realloc(data->records, cap * sizeof *grown);
        if (!grown) {
            fclose(f);
            return snprintf(err, err_size, "out of memory loading '%s'", path), false;
        }
        data->records = grown, *capacity = cap;
    }
    Record *dst = data->records + data->count;
    size_t got = fread(dst, RECORD_SIZE, n, f);
    fclose(f);
    if (got != n) return snprintf(err, err_size, "short read from '%s'", path), false;
    /* drop records that do not decode, keep the rest in file order */
    size_t kept = 0;
    RecordPosition rp;
    for (size_t i = 0; i < n; i++) {
        if (!record_decode(&dst[i], &rp)) {
            data->rejected++;
            continue;
        }
        dst[kept++] = dst[i];
    }
    data->count += kept;
    return true;
}

bool train_data_load(TrainData *data, const char *file_list, double holdout_fraction, char *err, size_t err_size) {
    memset(data, 0, sizeof *data);
    size_t capacity = 0;
    size_t *file_end = NULL; /* record count after each file, for the per-file game keys */
    char *list = strdup(file_list ? file_list : "");
    if (!list) return snprintf(err, err_size, "out of memory"), false;
    bool ok = true;
    char *save = NULL;
    for (char *path = strtok_r(list, ",", &save); path && ok; path = strtok_r(NULL, ",", &save)) {
        if (!*path) continue;
        ok = load_file(data, path, &capacity, err, err_size);
        size_t *grown = realloc(file_end, (size_t)(data->files + 1) * sizeof *grown);
        if (!grown) ok = false, snprintf(err, err_size, "out of memory");
        else file_end = grown, file_end[data->files++] = data->count;
    }
    free(list);
    if (ok && data->count == 0) ok = false, snprintf(err, err_size, "no usable records in '%s'", file_list);
    if (ok) {
        data->train = malloc(data->count * sizeof *data->train);
        data->holdout = malloc(data->count * sizeof *data->holdout);
        if (!data->train || !data->holdout) ok = false, snprintf(err, err_size, "out of memory");
    }
    if (ok) {
        /* by game: every position of a game lands on the same side of the split */
        uint64_t threshold = (uint64_t)(holdout_fraction * 18446744073709551616.0);
        if (holdout_fraction >= 1.0) threshold = UINT64_MAX;
        int file = 0;
        uint32_t prev_game = UINT32_MAX;
        int prev_file = -1;
        for (size_t i = 0; i < data->count; i++) {
            while (i >= file_end[file]) file++;
            uint32_t game = record_game(&data->records[i]);
            bool holdout = holdout_fraction > 0 && mix64(TRAIN_SPLIT_SALT ^ ((uint64_t)file << 32 | game)) < threshold;
            bool new_game = game != prev_game || file != prev_file;
            prev_game = game, prev_file = file;
            if (holdout) data->holdout[data->holdout_count++] = (uint32_t)i, data->holdout_games += new_game;
            else data->train[data->train_count++] = (uint32_t)i, data->train_games += new_game;
        }
    }
    free(file_end);
    if (!ok) train_data_free(data);
    return ok;
}

void train_data_free(TrainData *data) {
    free(data->records);
    free(data->train);
    free(data->holdout);
    memset(data, 0, sizeof *data);
}

void train_sample_from_position(const RecordPosition *rp, TrainSample *s) {
    int stm = rp->side;
    s->count = rp->count;
    s->side = (uint8_t)stm;
    s->score = rp->score;
    s->result = record_stm_result(rp);
    for (int half = 0; half < 2; half++) {
        int persp = half == 0 ? stm : !stm;
        int ksq = rp->king_square[persp];
        for (int i = 0; i < rp->count; i++)
            s->feat[half][i] = (uint16_t)nnue_feature_index(persp, rp->square[i], rp->piece[i], ksq);
    }
}

bool train_sample_from_record(const Record *rec, TrainSample *s) {
    RecordPosition rp;
    if (!record_decode(rec, &rp)) return false;
    train_sample_from_position(&rp, s);
    return true;
}
