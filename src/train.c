/* The trainer: data, threads, the optimizer loop, checkpoints, export and the quantization check.
 *
 * One step of a batch runs four parallel phases, each ended by a barrier:
 *   prepare   threads decode their slice of the batch and flag the feature rows it uses
 *   refresh   the effective rows (W + V) of every flagged row are recomputed (by plane)
 *   backward  every thread accumulates the gradient of its slice into its own buffers
 *   update    gradients are summed over threads in thread order and AdamW applied: feature
 *             rows partitioned by plane (so one thread also owns that plane's virtual rows:
 *             one, or for a king square its own-king and enemy-king rows),
 *             the small dense layers partitioned by index
 * Nothing is shared while written, so there are no locks and no races, and for a given thread
 * count the result is deterministic. */
#include "train.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "clock.h"
#include "nnue.h"
#include "random.h"
#include "train_data.h"
#include "train_model.h"
#include "train_optim.h"
#include "train_record.h"

#define CHECKPOINT_MAGIC "SQTRAIN1"
/* 2: own and enemy king virtual rows apart (768); 3: a CheckpointShape follows the header.
 * A one-bucket model is still written as version 2, so its checkpoints keep their bytes. */
#define CHECKPOINT_VERSION 3u

typedef enum { JOB_QUIT, JOB_PREPARE, JOB_REFRESH, JOB_BACKWARD, JOB_UPDATE, JOB_REFRESH_ALL, JOB_EVAL } Job;

typedef struct Trainer Trainer;

typedef struct {
    Trainer *tr;
    int id;
} WorkerArg;

struct Trainer {
    const TrainConfig *cfg;
    TrainData data;
    TrainModel model;
    float *adam_m, *adam_v;  /* [model.total] */
    float *best_p;           /* --keep-best: weights of the best validation epoch so far */
    int threads;
    TrainGrad grad[TRAIN_MAX_THREADS];
    pthread_t tid[TRAIN_MAX_THREADS];
    WorkerArg arg[TRAIN_MAX_THREADS];
    pthread_barrier_t barrier;
    Job job;
    /* the batch */
    const uint32_t *batch;
    size_t batch_count;
    TrainSample *samples;
    TrainTarget target;
    float grad_scale;
    AdamStep step_decay, step_plain; /* with and without weight decay */
    AdamStep step_rows;              /* king-bucketed feature rows (--row-wd) */
    AdamStep step_psqt_rows;         /* king-bucketed PSQT entries (--psqt-row-wd) */
    size_t rows_touched[TRAIN_MAX_THREADS];
    /* evaluation */
    const uint32_t *eval;
    size_t eval_count;
    double eval_loss[TRAIN_MAX_THREADS], eval_score_loss[TRAIN_MAX_THREADS];
    uint64_t seed;           /* of the shuffles: --seed, or the checkpoint's when resuming */
    /* progress */
    int epoch;
    int64_t step;
    int64_t decay_start;     /* --plateau: first step of the final decay (0: not fixed yet) */
    int checks_without_gain;
    double best_check_loss;
};

static inline size_t part_begin(size_t n, int t, int threads) { return n * (size_t)t / (size_t)threads; }

/* ---------------- the parallel phases ---------------- */

static void job_prepare(Trainer *tr, int t) {
    size_t lo = part_begin(tr->batch_count, t, tr->threads), hi = part_begin(tr->batch_count, t + 1, tr->threads);
    uint8_t *touched = tr->grad[t].touched;
    for (size_t i = lo; i < hi; i++) {
        TrainSample *s = &tr->samples[i];
        train_sample_from_record(&tr->data.records[tr->batch[i]], s); /* records were checked at load */
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < s->count; k++) touched[s->feat[h][k]] = 1;
    }
}

static bool row_flagged(const Trainer *tr, uint32_t f) {
    for (int t = 0; t < tr->threads; t++)
        if (tr->grad[t].touched[f]) return true;
    return false;
}

static void job_refresh(Trainer *tr, int t, bool all) {
    size_t lo = part_begin(NNUE_PLANES, t, tr->threads), hi = part_begin(NNUE_PLANES, t + 1, tr->threads);
    for (size_t p = lo; p < hi; p++)
        for (int b = 0; b < NNUE_KING_BUCKETS; b++) {
            uint32_t f = (uint32_t)(b * NNUE_PLANES + p);
            if (all || row_flagged(tr, f)) train_model_refresh_rows(&tr->model, &f, 1);
        }
}

static void job_backward(Trainer *tr, int t) {
    size_t lo = part_begin(tr->batch_count, t, tr->threads), hi = part_begin(tr->batch_count, t + 1, tr->threads);
    TrainGrad *g = &tr->grad[t];
    train_model_backward(&tr->model, tr->samples + lo, hi - lo, &tr->target, tr->grad_scale, g);
}

/* Dense regions of the small layers: weight decay for weights only, each with its export limit. */
typedef struct {
    size_t start, size;
    bool decay;
    float limit;
} SmallRegion;

/* The small regions of a model with `buckets` output buckets, in index order; returns the count. */
static int small_regions_of(int buckets, SmallRegion out[]) {
    int n = 0;
    out[n++] = (SmallRegion){TM_FT_B, TM_L1, false, TRAIN_FT_B_MAX};
    out[n++] = (SmallRegion){TM_L1_W, (size_t)TM_L2 * 2 * TM_L1, true, TRAIN_HIDDEN_W_MAX};
    out[n++] = (SmallRegion){TM_L1_B, TM_L2, false, TRAIN_BIAS_MAX};
    for (int b = 0; b < buckets; b++) {
        TrainStack st = tm_stack(b);
        out[n++] = (SmallRegion){st.l2_w, (size_t)TM_L3 * TM_L2, true, TRAIN_HIDDEN_W_MAX};
        out[n++] = (SmallRegion){st.l2_b, TM_L3, false, TRAIN_BIAS_MAX};
        out[n++] = (SmallRegion){st.out_w, TM_L3, true, TRAIN_OUT_W_MAX};
        out[n++] = (SmallRegion){st.out_b, 1, false, TRAIN_BIAS_MAX};
    }
    return n;
}
#define MAX_SMALL_REGIONS (3 + 4 * NNUE_MAX_OUTPUT_BUCKETS)

static void job_update(Trainer *tr, int t) {
    float *P = tr->model.p, *M = tr->adam_m, *V = tr->adam_v;
    const bool fact = tr->model.factorizer;
    _Alignas(64) float g[TM_L1], gv[2][TM_L1];
    size_t lo = part_begin(NNUE_PLANES, t, tr->threads), hi = part_begin(NNUE_PLANES, t + 1, tr->threads);
    size_t rows = 0;
    for (size_t p = lo; p < hi; p++) {
        /* the virtual rows this plane feeds: slot 0 the plane's own row, slot 1 (king
         * squares only) the enemy king's */
        uint32_t vrow[2] = {(uint32_t)p, (uint32_t)(p >= 640 ? TM_ENEMY_KING_ROWS + p - 640 : p)};
        int slots = p >= 640 ? 2 : 1;
        float gq[2] = {0.0f, 0.0f};
        memset(gv, 0, sizeof gv);
        for (int b = 0; b < NNUE_KING_BUCKETS; b++) {
            size_t f = (size_t)b * NNUE_PLANES + p;
            bool any = false;
            float gp = 0.0f;
            for (int u = 0; u < tr->threads; u++) { /* fixed thread order: deterministic sums */
                TrainGrad *src = &tr->grad[u];
                if (!src->touched[f]) continue;
                float *row = src->ft + f * TM_L1;
                if (!any) memcpy(g, row, sizeof g), gp = src->psqt[f];
                else {
                    for (int i = 0; i < TM_L1; i++) g[i] += row[i];
                    gp += src->psqt[f];
                }
                any = true;
                memset(row, 0, TM_L1 * sizeof *row);
                src->psqt[f] = 0.0f;
                src->touched[f] = 0;
            }
            if (!any) continue; /* lazy: rows no sample used keep their weights and moments */
            rows++;
            if (fact) {
                int slot = train_virtual_row((uint32_t)f) != vrow[0];
                for (int i = 0; i < TM_L1; i++) gv[slot][i] += g[i];
                gq[slot] += gp;
            }
            size_t w = TM_FT_W + f * TM_L1;
            adam_update(P + w, M + w, V + w, g, TM_L1, &tr->step_rows, TRAIN_FT_W_MAX);
            size_t q = TM_PSQT_W + f;
            adam_update(P + q, M + q, V + q, &gp, 1, &tr->step_psqt_rows, TRAIN_PSQT_MAX);
        }
        for (int slot = 0; fact && slot < slots; slot++) { /* virtual rows gather the gradient of every bucket's rows they serve */
            size_t w = TM_FT_V + (size_t)vrow[slot] * TM_L1, q = TM_PSQT_V + vrow[slot];
            adam_update(P + w, M + w, V + w, gv[slot], TM_L1, &tr->step_decay, TRAIN_FT_W_MAX);
            adam_update(P + q, M + q, V + q, &gq[slot], 1, &tr->step_plain, TRAIN_PSQT_MAX);
        }
    }
    tr->rows_touched[t] = rows;

    /* the small layers: this thread's slice of the index range, summed over threads */
    const size_t small_size = tr->model.total - TM_SMALL;
    size_t s_lo = TM_SMALL + part_begin(small_size, t, tr->threads);
    size_t s_hi = TM_SMALL + part_begin(small_size, t + 1, tr->threads);
    SmallRegion small_regions[MAX_SMALL_REGIONS];
    const int regions = small_regions_of(tr->model.buckets, small_regions);
    for (int r = 0; r < regions; r++) {
        size_t a = small_regions[r].start, e = a + small_regions[r].size;
        if (a < s_lo) a = s_lo;
        if (e > s_hi) e = s_hi;
        for (size_t base = a; base < e; base += TM_L1) {
            size_t n = e - base < TM_L1 ? e - base : TM_L1;
            for (size_t i = 0; i < n; i++) {
                float sum = 0.0f;
                for (int u = 0; u < tr->threads; u++) {
                    float *src = &tr->grad[u].small[base + i - TM_SMALL];
                    sum += *src;
                    *src = 0.0f;
                }
                g[i] = sum;
            }
            adam_update(P + base, M + base, V + base, g, n, small_regions[r].decay ? &tr->step_decay : &tr->step_plain,
                        small_regions[r].limit);
        }
    }
}

static void job_eval(Trainer *tr, int t) {
    size_t lo = part_begin(tr->eval_count, t, tr->threads), hi = part_begin(tr->eval_count, t + 1, tr->threads);
    double loss = 0, score_loss = 0;
    TrainSample s;
    for (size_t i = lo; i < hi; i++) {
        train_sample_from_record(&tr->data.records[tr->eval[i]], &s);
        float target = train_target(&s, &tr->target);
        float d = train_sigmoid(train_model_forward_cp(&tr->model, &s) / tr->target.k) - target;
        float ds = train_sigmoid(s.score / tr->target.k) - target;
        loss += (double)d * d;
        score_loss += (double)ds * ds;
    }
    tr->eval_loss[t] = loss;
    tr->eval_score_loss[t] = score_loss;
}

static void run_job_part(Trainer *tr, Job job, int t) {
    switch (job) {
    case JOB_PREPARE: job_prepare(tr, t); break;
    case JOB_REFRESH: job_refresh(tr, t, false); break;
    case JOB_REFRESH_ALL: job_refresh(tr, t, true); break;
    case JOB_BACKWARD: job_backward(tr, t); break;
    case JOB_UPDATE: job_update(tr, t); break;
    case JOB_EVAL: job_eval(tr, t); break;
    case JOB_QUIT: break;
    }
}

static void *worker_main(void *p) {
    WorkerArg *a = p;
    Trainer *tr = a->tr;
    for (;;) {
        pthread_barrier_wait(&tr->barrier); /* a job was posted */
        Job job = tr->job;
        if (job == JOB_QUIT) return NULL;
        run_job_part(tr, job, a->id);
        pthread_barrier_wait(&tr->barrier); /* all parts done */
    }
}

/* Runs one phase on all threads; the calling thread does part 0. */
static void run_job(Trainer *tr, Job job) {
    tr->job = job;
    if (tr->threads > 1) pthread_barrier_wait(&tr->barrier);
    run_job_part(tr, job, 0);
    if (tr->threads > 1) pthread_barrier_wait(&tr->barrier);
}

/* ---------------- trainer set-up ---------------- */

static float *alloc_state(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

static void trainer_free(Trainer *tr) {
    if (tr->threads > 1 && tr->tid[1]) {
        tr->job = JOB_QUIT;
        pthread_barrier_wait(&tr->barrier);
        for (int t = 1; t < tr->threads; t++) pthread_join(tr->tid[t], NULL);
        pthread_barrier_destroy(&tr->barrier);
    }
    for (int t = 0; t < TRAIN_MAX_THREADS; t++) train_grad_free(&tr->grad[t]);
    train_model_free(&tr->model);
    train_data_free(&tr->data);
    free(tr->adam_m);
    free(tr->adam_v);
    free(tr->best_p);
    free(tr->samples);
}

static bool trainer_start_threads(Trainer *tr, char *err, size_t err_size) {
    for (int t = 0; t < tr->threads; t++)
        if (!train_grad_alloc(&tr->grad[t], &tr->model))
            return snprintf(err, err_size, "out of memory (gradients)"), false;
    if (tr->threads == 1) return true;
    if (pthread_barrier_init(&tr->barrier, NULL, (unsigned)tr->threads) != 0)
        return snprintf(err, err_size, "cannot create a barrier"), false;
    for (int t = 1; t < tr->threads; t++) {
        tr->arg[t] = (WorkerArg){tr, t};
        if (pthread_create(&tr->tid[t], NULL, worker_main, &tr->arg[t]) != 0) {
            /* threads already started wait at the barrier forever: give up on the whole run */
            snprintf(err, err_size, "cannot start trainer thread %d", t);
            exit(1);
        }
    }
    return true;
}

/* ---------------- K ---------------- */

static double k_loss(const float *score, const float *result, size_t n, double k) {
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        double d = 1.0 / (1.0 + exp(-score[i] / k)) - result[i];
        sum += d * d;
    }
    return sum / (double)n;
}

/* Least squares fit of sigmoid(score / K) to the game results (golden-section search). */
static float fit_k(const TrainData *data) {
    size_t n = data->train_count < TRAIN_FIT_K_SAMPLE ? data->train_count : TRAIN_FIT_K_SAMPLE;
    size_t stride = data->train_count / (n ? n : 1);
    float *score = malloc(n * sizeof *score), *result = malloc(n * sizeof *result);
    if (!score || !result || n == 0) {
        free(score), free(result);
        return 400.0f;
    }
    RecordPosition rp;
    for (size_t i = 0; i < n; i++) {
        record_decode(&data->records[data->train[i * stride]], &rp);
        score[i] = rp.score;
        result[i] = record_stm_result(&rp);
    }
    const double phi = 0.6180339887498949;
    double a = TRAIN_K_MIN, b = TRAIN_K_MAX;
    double c = b - phi * (b - a), d = a + phi * (b - a);
    double fc = k_loss(score, result, n, c), fd = k_loss(score, result, n, d);
    for (int it = 0; it < 60 && b - a > 0.5; it++) {
        if (fc < fd) b = d, d = c, fd = fc, c = b - phi * (b - a), fc = k_loss(score, result, n, c);
        else a = c, c = d, fc = fd, d = a + phi * (b - a), fd = k_loss(score, result, n, d);
    }
    free(score);
    free(result);
    return (float)((a + b) / 2);
}

/* ---------------- checkpoints ---------------- */

typedef struct {
    char magic[8];
    uint32_t version, total, factorizer, epochs_done;
    int64_t step, decay_start;
    uint64_t seed;
    float k, lambda;
} CheckpointHeader;

/* The model's shape, after the header from version 3 on (version 2: one bucket, clipped ReLU). */
typedef struct {
    uint32_t output_buckets, activation, reserved[2];
} CheckpointShape;

/* Reads the header and shape of a checkpoint; false with a reason when it is not one of ours. */
static bool checkpoint_read_header(FILE *f, const char *path, CheckpointHeader *h, CheckpointShape *shape, char *err,
                                   size_t err_size) {
    memset(shape, 0, sizeof *shape);
    shape->output_buckets = 1;
    bool ok = fread(h, sizeof *h, 1, f) == 1 && !memcmp(h->magic, CHECKPOINT_MAGIC, 8) &&
              (h->version == 2 || h->version == CHECKPOINT_VERSION);
    if (ok && h->version >= 3) ok = fread(shape, sizeof *shape, 1, f) == 1;
    if (ok) ok = (shape->output_buckets == 1 || shape->output_buckets == NNUE_MAX_OUTPUT_BUCKETS) &&
                 shape->activation <= NNUE_ACTIVATION_SCRELU && h->total == tm_total((int)shape->output_buckets);
    if (!ok) return snprintf(err, err_size, "'%s' is not a checkpoint of this trainer", path), false;
    return true;
}

/* The shape of a checkpoint's model (to allocate the model before loading it). */
static bool checkpoint_shape(const char *path, CheckpointShape *shape, char *err, size_t err_size) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, err_size, "cannot open checkpoint '%s': %s", path, strerror(errno)), false;
    CheckpointHeader h;
    bool ok = checkpoint_read_header(f, path, &h, shape, err, err_size);
    fclose(f);
    return ok;
}

static bool write_all(FILE *f, const void *p, size_t bytes) { return fwrite(p, 1, bytes, f) == bytes; }

static bool checkpoint_save(const Trainer *tr, const char *path, int epochs_done, char *err, size_t err_size) {
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return snprintf(err, err_size, "cannot create '%s': %s", tmp, strerror(errno)), false;
    CheckpointHeader h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CHECKPOINT_MAGIC, 8);
    const size_t total = tr->model.total;
    CheckpointShape shape = {(uint32_t)tr->model.buckets, tr->model.screlu, {0, 0}};
    const bool plain = tr->model.buckets == 1 && !tr->model.screlu; /* the shape version 2 implies */
    h.version = plain ? 2u : CHECKPOINT_VERSION, h.total = (uint32_t)total, h.factorizer = tr->model.factorizer;
    h.epochs_done = (uint32_t)epochs_done, h.step = tr->step, h.decay_start = tr->decay_start, h.seed = tr->seed;
    h.k = tr->target.k, h.lambda = tr->target.lambda;
    bool ok = write_all(f, &h, sizeof h) && (plain || write_all(f, &shape, sizeof shape)) &&
              write_all(f, tr->model.p, total * sizeof(float)) && write_all(f, tr->adam_m, total * sizeof(float)) &&
              write_all(f, tr->adam_v, total * sizeof(float));
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) snprintf(err, err_size, "writing checkpoint '%s' failed", path);
    return ok;
}

static bool checkpoint_load(Trainer *tr, const char *path, int *epochs_done, char *err, size_t err_size) {
    FILE *f = fopen(path, "rb");
    if (!f) return snprintf(err, err_size, "cannot open checkpoint '%s': %s", path, strerror(errno)), false;
    CheckpointHeader h;
    CheckpointShape shape;
    if (!checkpoint_read_header(f, path, &h, &shape, err, err_size)) {
        fclose(f);
        return false;
    }
    if ((int)shape.output_buckets != tr->model.buckets || (shape.activation != 0) != tr->model.screlu) {
        fclose(f);
        return snprintf(err, err_size, "checkpoint '%s' is of a model with %u output bucket(s)%s, this run has %d%s",
                        path, shape.output_buckets, shape.activation ? " and SCReLU" : "", tr->model.buckets,
                        tr->model.screlu ? " and SCReLU" : ""), false;
    }
    const size_t total = tr->model.total;
    bool ok = fread(tr->model.p, sizeof(float), total, f) == total &&
              fread(tr->adam_m, sizeof(float), total, f) == total && fread(tr->adam_v, sizeof(float), total, f) == total;
    fclose(f);
    if (!ok) return snprintf(err, err_size, "checkpoint '%s' is truncated", path), false;
    tr->model.factorizer = h.factorizer != 0;
    tr->step = h.step;
    tr->decay_start = h.decay_start;
    tr->target.k = h.k;
    tr->seed = h.seed; /* the remaining epochs shuffle as the interrupted run would have */
    *epochs_done = (int)h.epochs_done;
    train_model_refresh_rows(&tr->model, NULL, 0);
    train_model_refresh_transpose(&tr->model);
    return true;
}

/* ---------------- evaluation and the quantization check ---------------- */

/* Mean loss over idx (and of the score-only predictor), all threads. */
static double evaluate_loss(Trainer *tr, const uint32_t *idx, size_t n, double *score_only) {
    if (!n) return -1;
    tr->eval = idx, tr->eval_count = n;
    run_job(tr, JOB_EVAL);
    double loss = 0, sl = 0;
    for (int t = 0; t < tr->threads; t++) loss += tr->eval_loss[t], sl += tr->eval_score_loss[t];
    if (score_only) *score_only = sl / (double)n;
    return loss / (double)n;
}

/* Loads the exported net with the engine's loader and compares its evaluations with the float
 * model's on up to `count` positions (holdout first). */
static bool compare_quantized(Trainer *tr, const char *path, int count, TrainReport *rep, char *err, size_t err_size) {
    if (!nnue_load_file(path, err, err_size)) return false;
    const uint32_t *idx = tr->data.holdout_count ? tr->data.holdout : tr->data.train;
    size_t n = tr->data.holdout_count ? tr->data.holdout_count : tr->data.train_count;
    if ((size_t)count < n) n = (size_t)count;
    Position *pos = malloc(sizeof *pos);
    if (!pos) return snprintf(err, err_size, "out of memory"), false;
    double sum = 0, max = 0;
    int done = 0;
    for (size_t i = 0; i < n; i++) {
        RecordPosition rp;
        TrainSample s;
        char fen[128];
        record_decode(&tr->data.records[idx[i]], &rp);
        record_fen(&rp, fen, sizeof fen);
        if (!pos_set_fen(pos, fen, NULL, 0)) continue;
        train_sample_from_position(&rp, &s);
        NnueParts parts;
        nnue_evaluate_parts(pos, &parts);
        double fcp = train_model_forward_cp(&tr->model, &s);
        if (fcp > NNUE_EVAL_LIMIT) fcp = NNUE_EVAL_LIMIT;
        if (fcp < -NNUE_EVAL_LIMIT) fcp = -NNUE_EVAL_LIMIT;
        double d = fabs(parts.total_cp - fcp);
        sum += d;
        if (d > max) max = d;
        done++;
    }
    free(pos);
    rep->compared = done;
    rep->quant_mean_cp = done ? sum / done : 0;
    rep->quant_max_cp = max;
    return true;
}

/* ---------------- the run ---------------- */

void train_config_defaults(TrainConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->epochs = TRAIN_DEFAULT_EPOCHS;
    cfg->batch = TRAIN_DEFAULT_BATCH;
    cfg->lr = TRAIN_DEFAULT_LR;
    cfg->final_lr_ratio = TRAIN_DEFAULT_FINAL_LR_RATIO;
    cfg->weight_decay = TRAIN_DEFAULT_WEIGHT_DECAY;
    cfg->row_weight_decay = TRAIN_DEFAULT_ROW_WEIGHT_DECAY;
    cfg->row_weight_decay_end = -1;
    cfg->psqt_row_weight_decay_end = -1;
    cfg->warmup_steps = TRAIN_DEFAULT_WARMUP_STEPS;
    cfg->lambda = TRAIN_DEFAULT_LAMBDA;
    cfg->holdout = TRAIN_DEFAULT_HOLDOUT;
    cfg->threads = 1;
    cfg->seed = 1;
    cfg->factorizer = true;
    cfg->compare_positions = TRAIN_DEFAULT_COMPARE;
    cfg->progress_seconds = 30;
    cfg->checks_per_epoch = 1;
    cfg->decay_epochs = TRAIN_DEFAULT_DECAY_EPOCHS;
}

/* Decay of the king-bucketed rows: --row-wd, or --wd when it was not given. */
static float row_weight_decay(const TrainConfig *cfg) {
    return cfg->row_weight_decay >= 0 ? cfg->row_weight_decay : cfg->weight_decay;
}

/* A decay that moves from `start` to `end` over the run (--row-wd-end, --psqt-row-wd-end):
 * geometrically when both are positive (each halving takes as long), else linearly, so the king
 * buckets are held to the shared rows early and free to learn their own part late. end < 0: held. */
static float decay_at(float start, float end, int64_t step, int64_t total_steps) {
    if (end < 0 || total_steps <= 0) return start;
    double f = step >= total_steps ? 1.0 : (double)step / (double)total_steps;
    if (start > 0 && end > 0) return (float)(start * pow(end / start, f));
    return (float)(start + (end - start) * f);
}

static void shuffle(uint32_t *order, size_t n, uint64_t seed, int epoch) {
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)(epoch + 1) * 0xD1B54A32D192ED03ULL;
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(splitmix64(&s) % i);
        uint32_t tmp = order[i - 1];
        order[i - 1] = order[j], order[j] = tmp;
    }
}

/* A validation loss for the log: "n/a" when there is no holdout to measure it on. */
static const char *loss_text(double loss, char buf[32]) {
    if (loss < 0) return "n/a (no holdout)";
    snprintf(buf, 32, "%.6f", loss);
    return buf;
}

/* One validation check: keeps the best weights (--keep-best) and, with --plateau, starts the
 * final decay once the loss has stopped improving. Returns the validation loss. */
static double validation_check(Trainer *tr, LrSchedule *sched, TrainReport *rep, FILE *log, char *err, size_t err_size,
                               bool *failed) {
    const TrainConfig *cfg = tr->cfg;
    run_job(tr, JOB_REFRESH_ALL);
    double score_only = -1;
    double val = evaluate_loss(tr, tr->data.holdout, tr->data.holdout_count, &score_only);
    rep->last_val_loss = val, rep->score_only_val_loss = score_only;
    if (val < 0) return val;
    if (cfg->keep_best && (rep->best_epoch == 0 || val < rep->best_val_loss)) {
        if (!tr->best_p) tr->best_p = alloc_state(tr->model.total);
        if (!tr->best_p) return *failed = true, snprintf(err, err_size, "out of memory (best weights)"), val;
        memcpy(tr->best_p, tr->model.p, tr->model.total * sizeof(float));
        rep->best_val_loss = val, rep->best_epoch = tr->epoch + 1;
    }
    if (sched->decay_steps > 0) {
        if (tr->best_check_loss <= 0 || val < tr->best_check_loss) tr->best_check_loss = val, tr->checks_without_gain = 0;
        else tr->checks_without_gain++;
        if (tr->checks_without_gain >= cfg->plateau && tr->step < sched->decay_start) {
            sched->decay_start = tr->decay_start = tr->step;
            if (log)
                fprintf(log, "train: validation loss has not improved for %d check(s): final decay over steps %" PRId64
                             "..%" PRId64 "\n", tr->checks_without_gain, sched->decay_start,
                        sched->decay_start + sched->decay_steps);
        }
    }
    return val;
}

static bool train_epochs(Trainer *tr, int first_epoch, TrainReport *rep, FILE *log, char *err, size_t err_size) {
    const TrainConfig *cfg = tr->cfg;
    size_t n = tr->data.train_count, batch = (size_t)cfg->batch;
    int64_t steps_per_epoch = (int64_t)((n + batch - 1) / batch);
    int64_t total_steps = steps_per_epoch * cfg->epochs;
    int64_t warmup = cfg->warmup_steps < total_steps / 10 ? cfg->warmup_steps : total_steps / 10; /* short runs */
    LrSchedule sched = {cfg->lr, cfg->final_lr_ratio, warmup, total_steps, 0, 0};
    if (cfg->plateau > 0) {
        sched.decay_steps = (int64_t)(cfg->decay_epochs * (double)steps_per_epoch + 0.5);
        if (sched.decay_steps < 1) sched.decay_steps = 1;
        if (sched.decay_steps > total_steps - warmup) sched.decay_steps = total_steps - warmup > 0 ? total_steps - warmup : 1;
        sched.decay_start = tr->decay_start > 0 ? tr->decay_start : total_steps - sched.decay_steps;
    }
    int checks = cfg->checks_per_epoch > 1 ? cfg->checks_per_epoch : 1;
    uint32_t *order = malloc(n * sizeof *order);
    if (!order) return snprintf(err, err_size, "out of memory"), false;
    double train_seconds = 0, train_cpu = 0, rows_sum = 0;
    uint64_t trained = 0, batches = 0;
    rep->first_train_loss = -1;
    if (log && tr->data.holdout_count) {
        run_job(tr, JOB_REFRESH_ALL);
        double score_only = -1, val = evaluate_loss(tr, tr->data.holdout, tr->data.holdout_count, &score_only);
        fprintf(log, "train: before epoch %d  validation loss %.6f  (the labels' own score as predictor: %.6f)\n",
                first_epoch + 1, val, score_only);
    }
    int last_epoch = cfg->stop_after > 0 && cfg->stop_after < cfg->epochs ? cfg->stop_after : cfg->epochs;
    bool decayed = false, failed = false;
    for (int epoch = first_epoch; epoch < last_epoch && !decayed; epoch++) {
        tr->epoch = epoch;
        memcpy(order, tr->data.train, n * sizeof *order); /* each epoch's order depends on (seed, epoch) only */
        shuffle(order, n, tr->seed, epoch);
        double epoch_cpu = cpu_time_now_seconds();
        double epoch_start = time_now_seconds(), next_progress = epoch_start + cfg->progress_seconds, loss_sum = 0;
        size_t done = 0;
        int next_check = 1;
        for (size_t at = 0; at < n; at += batch) {
            tr->batch = order + at;
            tr->batch_count = n - at < batch ? n - at : batch;
            tr->grad_scale = 1.0f / (float)tr->batch_count;
            float lr = lr_schedule_at(&sched, tr->step);
            tr->step++;
            tr->step_decay = adam_step_for(lr, cfg->weight_decay, tr->step);
            tr->step_plain = adam_step_for(lr, 0.0f, tr->step);
            float row_decay = decay_at(row_weight_decay(cfg), cfg->row_weight_decay_end, tr->step, sched.total_steps);
            float psqt_row_decay =
                decay_at(cfg->psqt_row_weight_decay, cfg->psqt_row_weight_decay_end, tr->step, sched.total_steps);
            tr->step_rows = adam_step_for(lr, row_decay, tr->step);
            tr->step_psqt_rows = adam_step_for(lr, psqt_row_decay, tr->step);
            run_job(tr, JOB_PREPARE);
            run_job(tr, JOB_REFRESH);
            run_job(tr, JOB_BACKWARD);
            run_job(tr, JOB_UPDATE);
            train_model_refresh_transpose(&tr->model);
            size_t rows = 0;
            for (int t = 0; t < tr->threads; t++) {
                loss_sum += tr->grad[t].loss;
                tr->grad[t].loss = 0;
                rows += tr->rows_touched[t];
            }
            rows_sum += (double)rows, batches++;
            done = at + tr->batch_count;
            decayed = sched.decay_steps > 0 && tr->step >= sched.decay_start + sched.decay_steps;
            if (decayed) break;
            /* checks inside the epoch; the one at its end follows the loop */
            if (next_check < checks && done * (size_t)checks >= n * (size_t)next_check && done < n) {
                next_check++;
                double val = validation_check(tr, &sched, rep, log, err, err_size, &failed);
                if (failed) break;
                if (log) {
                    char val_text[32];
                    fprintf(log, "train: epoch %d %5.1f%%  train loss %.6f  validation loss %s  lr %.2e\n", epoch + 1,
                            100.0 * (double)done / (double)n, loss_sum / (double)done, loss_text(val, val_text), lr);
                    fflush(log);
                }
            }
            double now = time_now_seconds();
            if (log && cfg->progress_seconds > 0 && now >= next_progress) {
                fprintf(log, "train: epoch %d %5.1f%%  loss %.6f  lr %.2e  %.0f pos/s\n", epoch + 1,
                        100.0 * (double)done / (double)n, loss_sum / (double)done, lr,
                        (double)done / (now - epoch_start));
                fflush(log);
                next_progress = now + cfg->progress_seconds;
            }
        }
        if (failed) break;
        double seconds = time_now_seconds() - epoch_start;
        train_seconds += seconds, trained += done, train_cpu += cpu_time_now_seconds() - epoch_cpu;
        double train_loss = loss_sum / (double)done;
        if (rep->first_train_loss < 0) rep->first_train_loss = train_loss;
        rep->last_train_loss = train_loss;
        double val = validation_check(tr, &sched, rep, log, err, err_size, &failed);
        if (failed) break;
        rep->epochs_run++;
        if (log) {
            char val_text[32];
            fprintf(log, "train: epoch %d/%d%s  train loss %.6f  validation loss %s  lr %.2e  %.0f pos/s  %.1fs\n",
                    epoch + 1, cfg->epochs, decayed ? " (decay done)" : "", train_loss, loss_text(val, val_text),
                    lr_schedule_at(&sched, tr->step - 1), (double)done / seconds, seconds);
            fflush(log);
        }
        /* a run whose decay has ended is complete: a resume of it trains nothing more */
        int epochs_done = decayed ? cfg->epochs : epoch + 1;
        if (cfg->checkpoint && !checkpoint_save(tr, cfg->checkpoint, epochs_done, err, err_size)) {
            free(order);
            return false;
        }
    }
    free(order);
    if (failed) return false;
    rep->decay_start_step = sched.decay_steps > 0 ? sched.decay_start : -1;
    rep->steps = tr->step;
    rep->positions_per_second = train_seconds > 0 ? (double)trained / train_seconds : 0;
    rep->positions_per_cpu_second = train_cpu > 0 ? (double)trained / train_cpu : 0;
    rep->mean_rows_per_batch = batches ? rows_sum / (double)batches : 0;
    return true;
}

/* Can a file be created (or replaced) at path? Checked before training, so a typo in --out
 * or --checkpoint fails at once rather than after every epoch has run. */
static bool writable_path(const char *path, const char *what, char *err, size_t err_size) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return snprintf(err, err_size, "%s '%s' is a directory", what, path), false;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return snprintf(err, err_size, "%s '%s': directory '%s' does not exist", what, path, dir), false;
    if (access(dir, W_OK | X_OK) != 0)
        return snprintf(err, err_size, "%s '%s': cannot write in '%s': %s", what, path, dir, strerror(errno)), false;
    return true;
}

/* The model's shape. Output buckets: --output-buckets, or else the checkpoint's when resuming,
 * the --init net's (which this loads) when starting from one, 1 otherwise. Activation: SCReLU
 * with --screlu or when the checkpoint or --init net has it. */
static bool resolve_shape(const TrainConfig *cfg, int *buckets, bool *screlu, char *err, size_t err_size) {
    int asked = cfg->output_buckets, have = 1;
    *screlu = cfg->screlu;
    if (cfg->resume) {
        CheckpointShape shape;
        if (!checkpoint_shape(cfg->resume, &shape, err, err_size)) return false;
        have = (int)shape.output_buckets;
        if (asked && asked != have)
            return snprintf(err, err_size, "checkpoint '%s' is of a model with %d output bucket(s), --output-buckets "
                            "asks for %d", cfg->resume, have, asked), false;
        if (cfg->screlu && !shape.activation)
            return snprintf(err, err_size, "checkpoint '%s' is of a clipped-ReLU model, --screlu asks for SCReLU",
                            cfg->resume), false;
        *screlu = shape.activation != 0;
    } else if (cfg->init) {
        if (!nnue_load_file(cfg->init, err, err_size)) return false;
        have = nnue_current_net()->output_buckets;
        *screlu = *screlu || nnue_current_net()->activation == NNUE_ACTIVATION_SCRELU;
        /* a one-bucket net can seed any number of buckets; a bucketed net only its own count */
        if (asked && have > 1 && asked != have)
            return snprintf(err, err_size, "--init net '%s' has %d output buckets, --output-buckets asks for %d",
                            cfg->init, have, asked), false;
    }
    *buckets = asked ? asked : have;
    return true;
}

bool train_run(const TrainConfig *cfg, TrainReport *rep, FILE *log, char *err, size_t err_size) {
    memset(rep, 0, sizeof *rep);
    rep->last_val_loss = -1;
    if (!cfg->data || cfg->epochs < 0 || cfg->batch < 1 || cfg->checks_per_epoch < 1 || cfg->plateau < 0 ||
        !(cfg->decay_epochs > 0) || cfg->threads < 1 || cfg->threads > TRAIN_MAX_THREADS ||
        !(cfg->lr > 0) || cfg->holdout < 0 || cfg->holdout >= 1 || cfg->lambda < 0 || cfg->lambda > 1 || cfg->k < 0 ||
        (cfg->output_buckets != 0 && cfg->output_buckets != 1 && cfg->output_buckets != NNUE_MAX_OUTPUT_BUCKETS))
        return snprintf(err, err_size, "bad settings (need --data, epochs >= 0, batch >= 1, threads 1..%d, lr > 0, "
                                       "holdout in [0,1), lambda in [0,1], checks per epoch >= 1, plateau >= 0, "
                                       "decay epochs > 0, output buckets 1 or %d)", TRAIN_MAX_THREADS,
                        NNUE_MAX_OUTPUT_BUCKETS), false;
    if ((cfg->out && !writable_path(cfg->out, "--out", err, err_size)) ||
        (cfg->checkpoint && !writable_path(cfg->checkpoint, "--checkpoint", err, err_size)))
        return false;
    double start = time_now_seconds();
    Trainer *tr = calloc(1, sizeof *tr);
    if (!tr) return snprintf(err, err_size, "out of memory"), false;
    tr->cfg = cfg;
    tr->threads = cfg->threads;
    tr->seed = cfg->seed;
    bool ok = train_data_load(&tr->data, cfg->data, cfg->holdout, log, err, err_size);
    size_t early = ok && cfg->min_ply > 0 ? train_data_drop_early_plies(&tr->data, (unsigned)cfg->min_ply) : 0;
    if (ok && tr->data.train_count == 0) ok = false, snprintf(err, err_size, "the training split is empty");
    int buckets = 0;
    bool screlu = false;
    if (ok) ok = resolve_shape(cfg, &buckets, &screlu, err, err_size);
    if (ok) {
        ok = train_model_alloc_buckets(&tr->model, buckets);
        tr->model.screlu = screlu;
        tr->adam_m = alloc_state(tr->model.total);
        tr->adam_v = alloc_state(tr->model.total);
        tr->samples = malloc((size_t)cfg->batch * sizeof *tr->samples);
        ok = ok && tr->adam_m && tr->adam_v && tr->samples;
        if (!ok) snprintf(err, err_size, "out of memory (model)");
    }
    if (ok) ok = trainer_start_threads(tr, err, err_size);
    rep->train_positions = tr->data.train_count, rep->holdout_positions = tr->data.holdout_count;
    if (ok && log) {
        fprintf(log, "train: %zu positions from %d file(s) (%zu unreadable), %zu training positions in %zu games, "
                     "%zu holdout positions in %zu games\n",
                tr->data.count, tr->data.files, tr->data.rejected, tr->data.train_count, tr->data.train_games,
                tr->data.holdout_count, tr->data.holdout_games);
        if (early) fprintf(log, "train: %zu training positions before ply %d left out\n", early, cfg->min_ply);
    }
    int first_epoch = 0;
    tr->model.factorizer = cfg->factorizer;
    tr->target.lambda = cfg->lambda;
    tr->target.sparsity = cfg->sparsity;
    if (ok && cfg->resume) {
        ok = checkpoint_load(tr, cfg->resume, &first_epoch, err, err_size);
        if (ok && log) fprintf(log, "train: resumed '%s' after epoch %d (step %" PRId64 ", K %.1f)\n", cfg->resume,
                               first_epoch, tr->step, tr->target.k);
    } else if (ok) {
        tr->target.k = cfg->k > 0 ? cfg->k : fit_k(&tr->data);
        if (log) fprintf(log, "train: K = %.1f (%s)\n", tr->target.k, cfg->k > 0 ? "given" : "fitted on the training split");
        if (cfg->init) { /* loaded by resolve_shape */
            train_model_from_net(&tr->model, nnue_current_net());
            if (log) fprintf(log, "train: starting from net '%s'\n", cfg->init);
        } else {
            train_model_init(&tr->model, cfg->seed);
        }
    }
    rep->k = tr->target.k;
    char row_decay_text[80];
    int at = snprintf(row_decay_text, sizeof row_decay_text, "%.3g", row_weight_decay(cfg));
    if (cfg->row_weight_decay_end >= 0)
        at += snprintf(row_decay_text + at, sizeof row_decay_text - (size_t)at, " -> %.3g", cfg->row_weight_decay_end);
    bool psqt_decays = cfg->psqt_row_weight_decay > 0 || cfg->psqt_row_weight_decay_end > 0;
    if (psqt_decays && at >= 0 && (size_t)at < sizeof row_decay_text)
        at += snprintf(row_decay_text + at, sizeof row_decay_text - (size_t)at, ", PSQT %.3g", cfg->psqt_row_weight_decay);
    if (psqt_decays && cfg->psqt_row_weight_decay_end >= 0 && at >= 0 && (size_t)at < sizeof row_decay_text)
        snprintf(row_decay_text + at, sizeof row_decay_text - (size_t)at, " -> %.3g", cfg->psqt_row_weight_decay_end);
    if (ok && log)
        fprintf(log, "train: %d epochs, batch %d, lr %.2e -> %.2e (%s), weight decay %.3g (bucketed rows %s), "
                     "lambda %.2f, sparsity %.3g, %d threads, factorizer %s, %d output bucket(s), %s, seed %" PRIu64 "\n",
                cfg->epochs, cfg->batch, cfg->lr, cfg->lr * cfg->final_lr_ratio,
                cfg->plateau > 0 ? "stable, then a linear decay once validation stalls" : "cosine", cfg->weight_decay,
                row_decay_text, cfg->lambda, cfg->sparsity, cfg->threads, tr->model.factorizer ? "on" : "off", tr->model.buckets,
                tr->model.screlu ? "SCReLU" : "clipped ReLU", tr->seed);
    if (ok) ok = train_epochs(tr, first_epoch, rep, log, err, err_size);
    if (ok && rep->epochs_run == 0) { /* nothing trained: still report where the model stands */
        run_job(tr, JOB_REFRESH_ALL);
        rep->last_val_loss = evaluate_loss(tr, tr->data.holdout, tr->data.holdout_count, &rep->score_only_val_loss);
    }
    if (ok && cfg->out && tr->best_p) { /* --keep-best: export the epoch with the lowest validation loss */
        memcpy(tr->model.p, tr->best_p, tr->model.total * sizeof(float));
        train_model_refresh_transpose(&tr->model);
        if (log) fprintf(log, "train: exporting the best check's weights (epoch %d, validation loss %.6f)\n", rep->best_epoch,
                         rep->best_val_loss);
    }
    if (ok && cfg->out) {
        NnueNet *net = nnue_net_alloc();
        if (!net) ok = false, snprintf(err, err_size, "out of memory (net)");
        else {
            run_job(tr, JOB_REFRESH_ALL);
            train_model_to_net(&tr->model, net);
            snprintf(net->description, sizeof net->description, "squall train: %d epochs, K %.0f, lambda %.2f, seed %" PRIu64,
                     first_epoch + rep->epochs_run, tr->target.k, tr->target.lambda, tr->seed);
            ok = nnue_net_save(net, cfg->out, err, err_size);
            nnue_net_free(net);
        }
        if (ok && log) fprintf(log, "train: wrote %s\n", cfg->out);
        if (ok && cfg->compare_positions > 0) {
            ok = compare_quantized(tr, cfg->out, cfg->compare_positions, rep, err, err_size);
            if (ok && log)
                fprintf(log, "train: quantized engine vs float model on %d %s positions: mean |diff| %.2f cp, max %.1f cp\n",
                        rep->compared, tr->data.holdout_count ? "holdout" : "training", rep->quant_mean_cp,
                        rep->quant_max_cp);
        }
    }
    rep->seconds = time_now_seconds() - start;
    if (ok && log)
        fprintf(log, "train: done in %.1fs, %.0f positions/s while training (%.0f per CPU-second), %.0f feature rows "
                     "per batch\n", rep->seconds, rep->positions_per_second, rep->positions_per_cpu_second,
                rep->mean_rows_per_batch);
    trainer_free(tr);
    free(tr);
    return ok;
}

/* ---------------- command line ---------------- */

void train_usage(FILE *out) {
    fprintf(out,
            "usage: squall train --data FILE[,FILE...] --out NET [--epochs E] [--stop-after E] [--batch B] [--lr LR]\n"
            "         [--final-lr-ratio R] [--warmup STEPS] [--wd W] [--row-wd W] [--row-wd-end W]\n"
            "         [--psqt-row-wd W] [--psqt-row-wd-end W] [--wdl-lambda L] [--k K | --fit-k]\n"
            "         [--sparsity S] [--holdout F] [--min-ply P] [--threads T] [--seed S] [--resume CKPT]\n"
            "         [--checkpoint CKPT] [--init NET] [--no-factorizer] [--keep-best] [--checks-per-epoch C]\n"
            "         [--plateau N [--decay-epochs D]] [--compare N] [--progress SECONDS] [--output-buckets 1|8] [--screlu]\n");
}

static int usage(void) {
    train_usage(stderr);
    return 2;
}

static bool parse_double(const char *text, double lo, double hi, double *out) {
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || *end || !(v >= lo && v <= hi)) return false;
    *out = v;
    return true;
}

static bool parse_int(const char *text, int lo, int hi, int *out) {
    double x;
    if (!parse_double(text, lo, hi, &x) || x != (double)(int)x) return false;
    *out = (int)x;
    return true;
}

int train_main(int argc, char **argv) {
    TrainConfig cfg;
    train_config_defaults(&cfg);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        double x = 0;
        bool ok = true, takes_value = true;
        if (!strcmp(a, "--data")) cfg.data = v, ok = v != NULL;
        else if (!strcmp(a, "--out")) cfg.out = v, ok = v != NULL;
        else if (!strcmp(a, "--resume")) cfg.resume = v, ok = v != NULL;
        else if (!strcmp(a, "--checkpoint")) cfg.checkpoint = v, ok = v != NULL;
        else if (!strcmp(a, "--init")) cfg.init = v, ok = v != NULL;
        else if (!strcmp(a, "--epochs")) ok = parse_int(v, 0, 1000000, &cfg.epochs);
        else if (!strcmp(a, "--stop-after")) ok = parse_int(v, 0, 1000000, &cfg.stop_after);
        else if (!strcmp(a, "--batch")) ok = parse_int(v, 1, 1 << 24, &cfg.batch);
        else if (!strcmp(a, "--lr")) ok = parse_double(v, 1e-9, 10, &x), cfg.lr = (float)x;
        else if (!strcmp(a, "--final-lr-ratio")) ok = parse_double(v, 0, 1, &x), cfg.final_lr_ratio = (float)x;
        else if (!strcmp(a, "--warmup")) ok = parse_double(v, 0, 1e12, &x), cfg.warmup_steps = (int64_t)x;
        else if (!strcmp(a, "--wd")) ok = parse_double(v, 0, 1, &x), cfg.weight_decay = (float)x;
        else if (!strcmp(a, "--row-wd")) ok = parse_double(v, 0, 1000, &x), cfg.row_weight_decay = (float)x;
        else if (!strcmp(a, "--row-wd-end")) ok = parse_double(v, 0, 1000, &x), cfg.row_weight_decay_end = (float)x;
        else if (!strcmp(a, "--psqt-row-wd")) ok = parse_double(v, 0, 1000, &x), cfg.psqt_row_weight_decay = (float)x;
        else if (!strcmp(a, "--psqt-row-wd-end")) ok = parse_double(v, 0, 1000, &x), cfg.psqt_row_weight_decay_end = (float)x;
        else if (!strcmp(a, "--wdl-lambda")) ok = parse_double(v, 0, 1, &x), cfg.lambda = (float)x;
        else if (!strcmp(a, "--sparsity")) ok = parse_double(v, 0, 1, &x), cfg.sparsity = (float)x;
        else if (!strcmp(a, "--k")) ok = parse_double(v, 1, 100000, &x), cfg.k = (float)x;
        else if (!strcmp(a, "--holdout")) ok = parse_double(v, 0, 0.99, &x), cfg.holdout = x;
        else if (!strcmp(a, "--min-ply")) ok = parse_int(v, 0, 65535, &cfg.min_ply);
        else if (!strcmp(a, "--threads")) ok = parse_int(v, 1, TRAIN_MAX_THREADS, &cfg.threads);
        else if (!strcmp(a, "--seed")) {
            char *end = NULL;
            errno = 0;
            cfg.seed = v ? strtoull(v, &end, 10) : 0;
            ok = v && *v && *v != '-' && !*end && !errno;
        }
        else if (!strcmp(a, "--compare")) ok = parse_int(v, 0, 1000000000, &cfg.compare_positions);
        else if (!strcmp(a, "--progress")) ok = parse_double(v, 0, 1e9, &x), cfg.progress_seconds = x;
        else if (!strcmp(a, "--output-buckets")) {
            ok = parse_int(v, 1, NNUE_MAX_OUTPUT_BUCKETS, &cfg.output_buckets);
            ok = ok && (cfg.output_buckets == 1 || cfg.output_buckets == NNUE_MAX_OUTPUT_BUCKETS);
        }
        else if (!strcmp(a, "--checks-per-epoch")) ok = parse_int(v, 1, 1000, &cfg.checks_per_epoch);
        else if (!strcmp(a, "--plateau")) ok = parse_int(v, 1, 1000, &cfg.plateau);
        else if (!strcmp(a, "--decay-epochs")) ok = parse_double(v, 0.01, 1000, &x), cfg.decay_epochs = x;
        else if (!strcmp(a, "--fit-k")) cfg.k = 0, takes_value = false;
        else if (!strcmp(a, "--no-factorizer")) cfg.factorizer = false, takes_value = false;
        else if (!strcmp(a, "--keep-best")) cfg.keep_best = true, takes_value = false;
        else if (!strcmp(a, "--screlu")) cfg.screlu = true, takes_value = false;
        else {
            fprintf(stderr, "train: unknown argument '%s'\n", a);
            return usage();
        }
        if (!ok) {
            fprintf(stderr, "train: bad or missing value for %s\n", a);
            return usage();
        }
        if (takes_value) i++;
    }
    if (!cfg.data || (!cfg.out && cfg.epochs > 0)) return usage(); /* --epochs 0 alone scores the start on the holdout */
    TrainReport rep;
    char err[512];
    if (!train_run(&cfg, &rep, stderr, err, sizeof err)) {
        fprintf(stderr, "train: %s\n", err);
        return 1;
    }
    return 0;
}
