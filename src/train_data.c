/* Record files into memory, the holdout split by game, records into model samples. */
#include "train_data.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "random.h"

/* Salt of the --data PATH@WEIGHT subsample, apart from the holdout split's. */
#define TRAIN_WEIGHT_SALT 0x5745494748543031ULL /* "WEIGHT01" */

static uint64_t fraction_threshold(double fraction) {
    return fraction >= 1.0 ? UINT64_MAX : (uint64_t)(fraction * 18446744073709551616.0);
}

/* A file's identity for the split and the subsample: a hash of its first record. Unlike the
 * file's place in the --data list or in a pool's name order, it does not move when files are
 * listed in another order or a new file joins the pool, so a game keeps its side of the split.
 * (Every datagen file starts with a seeded random opening, so two files share a key only when
 * one is a copy of the other.) */
static uint64_t file_key(const Record *first) {
    uint64_t words[RECORD_SIZE / 8], key = TRAIN_SPLIT_SALT;
    memcpy(words, first->bytes, sizeof words);
    for (size_t i = 0; i < RECORD_SIZE / 8; i++) key = mix64(key ^ words[i]);
    return key;
}

/* Both the split and the subsample hash (file key, game id), so whole games move together. */
static uint64_t game_hash(uint64_t salt, uint64_t key, uint32_t game) { return mix64(salt ^ key ^ mix64(game)); }

/* Appends one file's decodable records to data->records and sets *key (file_key); with
 * weight < 1 only that share of its games. */
static bool load_file(TrainData *data, const char *path, double weight, size_t *capacity, uint64_t *key, char *err,
                      size_t err_size) {
    struct stat st;
    if (stat(path, &st) != 0) return snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno)), false;
    if (!S_ISREG(st.st_mode)) return snprintf(err, err_size, "'%s' is not a regular file", path), false;
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
    *key = n ? file_key(&dst[0]) : 0;
    /* drop records that do not decode (and games outside the weight), keep the rest in file order */
    size_t kept = 0;
    RecordPosition rp;
    uint64_t keep_below = fraction_threshold(weight);
    for (size_t i = 0; i < n; i++) {
        if (!record_decode(&dst[i], &rp)) {
            data->rejected++;
            continue;
        }
        if (weight < 1.0 && game_hash(TRAIN_WEIGHT_SALT, *key, record_game(&dst[i])) >= keep_below)
            continue;
        dst[kept++] = dst[i];
    }
    data->count += kept;
    char manifest[4096 + 16];
    snprintf(manifest, sizeof manifest, "%s.manifest", path);
    FILE *m = fopen(manifest, "r");
    char line[1024] = "";
    if (m) {
        if (!fgets(line, sizeof line, m)) line[0] = '\0';
        line[strcspn(line, "\n")] = '\0';
        fclose(m);
    }
    if (data->log)
        fprintf(data->log, "train: %s: %zu positions (weight %.2f)%s%s\n", path, kept, weight, line[0] ? "; " : "",
                line[0] ? line : "");
    return true;
}

static int compare_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A --data entry: a record file, or a directory whose *.bin files are all loaded (in name
 * order, so the split and the subsample do not depend on the directory's listing order). */
/* Where each loaded file's records end, and its file_key: what the split needs per file. */
typedef struct {
    size_t end;
    uint64_t key;
} FileSpan;

static bool load_entry(TrainData *data, const char *path, double weight, size_t *capacity, FileSpan **spans,
                       char *err, size_t err_size) {
    struct stat st;
    if (stat(path, &st) != 0) return snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno)), false;
    char **names = NULL;
    size_t count = 0;
    if (S_ISDIR(st.st_mode)) {
        DIR *dir = opendir(path);
        if (!dir) return snprintf(err, err_size, "cannot read directory '%s': %s", path, strerror(errno)), false;
        for (struct dirent *e; (e = readdir(dir));) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".bin")) continue;
            char **grown = realloc(names, (count + 1) * sizeof *names);
            size_t need = strlen(path) + len + 2;
            char *full = malloc(need);
            if (!grown || !full) {
                free(full), free(grown ? grown : names), closedir(dir);
                return snprintf(err, err_size, "out of memory"), false;
            }
            names = grown;
            snprintf(full, need, "%s/%s", path, e->d_name);
            names[count++] = full;
        }
        closedir(dir);
        if (!count) return snprintf(err, err_size, "directory '%s' holds no .bin record files", path), false;
        qsort(names, count, sizeof *names, compare_names);
    }
    bool ok = true;
    for (size_t i = 0; i < (count ? count : 1) && ok; i++) {
        uint64_t key = 0;
        ok = load_file(data, count ? names[i] : path, weight, capacity, &key, err, err_size);
        FileSpan *grown = realloc(*spans, (size_t)(data->files + 1) * sizeof *grown);
        if (!grown) ok = false, snprintf(err, err_size, "out of memory");
        else *spans = grown, (*spans)[data->files++] = (FileSpan){data->count, key};
    }
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
    return ok;
}

bool train_data_load(TrainData *data, const char *file_list, double holdout_fraction, FILE *log, char *err,
                     size_t err_size) {
    memset(data, 0, sizeof *data);
    data->log = log;
    size_t capacity = 0;
    FileSpan *spans = NULL;
    char *list = strdup(file_list ? file_list : "");
    if (!list) return snprintf(err, err_size, "out of memory"), false;
    bool ok = true;
    char *save = NULL;
    for (char *path = strtok_r(list, ",", &save); path && ok; path = strtok_r(NULL, ",", &save)) {
        if (!*path) continue;
        double weight = 1.0;
        char *at = strrchr(path, '@');
        if (at) {
            char *end;
            weight = strtod(at + 1, &end);
            if (end == at + 1 || *end || !(weight > 0 && weight <= 1)) {
                ok = false, snprintf(err, err_size, "bad weight in '%s' (PATH@W takes 0 < W <= 1)", path);
                break;
            }
            *at = '\0';
        }
        ok = load_entry(data, path, weight, &capacity, &spans, err, err_size);
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
        uint64_t threshold = fraction_threshold(holdout_fraction);
        int file = 0;
        uint32_t prev_game = UINT32_MAX;
        int prev_file = -1;
        for (size_t i = 0; i < data->count; i++) {
            while (i >= spans[file].end) file++;
            uint32_t game = record_game(&data->records[i]);
            bool holdout = holdout_fraction > 0 && game_hash(TRAIN_SPLIT_SALT, spans[file].key, game) < threshold;
            bool new_game = game != prev_game || file != prev_file;
            prev_game = game, prev_file = file;
            if (holdout) data->holdout[data->holdout_count++] = (uint32_t)i, data->holdout_games += new_game;
            else data->train[data->train_count++] = (uint32_t)i, data->train_games += new_game;
        }
    }
    free(spans);
    if (!ok) train_data_free(data);
    return ok;
}

size_t train_data_drop_early_plies(TrainData *data, unsigned min_ply) {
    size_t kept = 0;
    for (size_t i = 0; i < data->train_count; i++)
        if (record_ply(&data->records[data->train[i]]) >= min_ply) data->train[kept++] = data->train[i];
    size_t dropped = data->train_count - kept;
    data->train_count = kept;
    return dropped;
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
