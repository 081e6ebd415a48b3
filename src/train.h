/* `squall train`: trains the float model (train_model.h) on datagen records with AdamW over
 * pthreads, and exports the quantized net. docs/training.md has the recipe and measurements. */
#ifndef SQUALL_TRAIN_H
#define SQUALL_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Defaults, all in one place. */
#define TRAIN_DEFAULT_EPOCHS 10
#define TRAIN_DEFAULT_BATCH 16384
#define TRAIN_DEFAULT_LR 1e-3f
#define TRAIN_DEFAULT_FINAL_LR_RATIO 0.05f /* cosine decay ends at this share of --lr */
#define TRAIN_DEFAULT_WARMUP_STEPS 100
#define TRAIN_DEFAULT_WEIGHT_DECAY 0.01f  /* feature rows and hidden weights; not biases, not PSQT */
/* Decay of the king-bucketed feature rows alone (negative: same as --wd). A large value pulls
 * them toward zero, so the net stays close to its king-free factorized part unless the data
 * keeps asking for a king-specific correction: a regularizer for small datasets. */
#define TRAIN_DEFAULT_ROW_WEIGHT_DECAY -1.0f
#define TRAIN_DEFAULT_DECAY_EPOCHS 0.5  /* --plateau: length of the final decay */
#define TRAIN_DEFAULT_LAMBDA 0.75f        /* weight of the search score in the target */
#define TRAIN_DEFAULT_HOLDOUT 0.05
#define TRAIN_DEFAULT_COMPARE 20000       /* holdout positions for the quantized-vs-float check */
#define TRAIN_FIT_K_SAMPLE 2000000        /* positions used to fit K */
#define TRAIN_K_MIN 50.0
#define TRAIN_K_MAX 3000.0
#define TRAIN_MAX_THREADS 64

typedef struct {
    const char *data;        /* comma-separated record files */
    const char *out;         /* exported net; NULL: no export */
    int epochs;              /* total epochs: the learning-rate schedule spans all of them */
    int stop_after;          /* stop once this many epochs are done (0: run to epochs); resume later */
    int batch;
    float lr, final_lr_ratio, weight_decay;
    float row_weight_decay;  /* king-bucketed feature rows; < 0: weight_decay */
    float row_weight_decay_end; /* < 0: row_weight_decay throughout; else the decay moves there by the last step */
    float psqt_row_weight_decay; /* king-bucketed PSQT entries (0: none; their shared entries never decay) */
    float psqt_row_weight_decay_end; /* < 0: psqt_row_weight_decay throughout; else it moves there by the last step */
    int64_t warmup_steps;
    float lambda;
    float sparsity;          /* loss weight of the mean accumulator activation (--sparsity; 0: none) */
    float k;                 /* 0: fit K on the training split */
    double holdout;
    int min_ply;             /* training positions of earlier game plies are left out (0: none) */
    int threads;
    uint64_t seed;
    const char *resume;      /* checkpoint to continue from */
    const char *checkpoint;  /* checkpoint written after every epoch */
    const char *init;        /* engine net to start from */
    int output_buckets;      /* 1 or 8; 0: the --init net's count (the checkpoint's when resuming), else 1 */
    bool screlu;             /* SCReLU accumulator activation; false: the --init net's (the checkpoint's when
                                resuming), else clipped ReLU */
    bool factorizer;
    bool keep_best;          /* export the weights of the lowest validation check, not the last */
    int checks_per_epoch;    /* validation checks per epoch (>= 1) */
    int plateau;             /* > 0: stable rate, then a final decay that starts once this many
                                checks in a row did not improve the validation loss (or when
                                only the decay is left of the epochs) and ends the run */
    double decay_epochs;     /* --plateau: length of that decay, in epochs */
    int compare_positions;   /* holdout positions for the quantized check (0: skip) */
    double progress_seconds; /* mid-epoch progress lines (<= 0: none) */
} TrainConfig;

typedef struct {
    int epochs_run;          /* epochs trained by this call */
    float k;
    double first_train_loss, last_train_loss; /* mean loss of the first and the last epoch run */
    double last_val_loss;    /* -1 without a holdout */
    double best_val_loss;    /* with keep_best: the lowest, reached at the check in best_epoch */
    int best_epoch;
    int64_t decay_start_step; /* --plateau: where the final decay began; steps run in all */
    int64_t steps;
    double score_only_val_loss; /* the labels' own score part as a predictor, for reference */
    double positions_per_second;
    double positions_per_cpu_second; /* summed over threads: robust to a busy machine */
    double seconds;
    size_t train_positions, holdout_positions;
    double mean_rows_per_batch; /* distinct feature rows a batch touched */
    int compared;            /* positions in the quantized-vs-float check */
    double quant_mean_cp, quant_max_cp;
} TrainReport;

void train_config_defaults(TrainConfig *cfg);
/* Trains, writes checkpoints and the net as configured; when a net is exported, it is loaded
 * with nnue_load_file (it becomes the engine's current net) for the quantization check. */
bool train_run(const TrainConfig *cfg, TrainReport *report, FILE *log, char *err, size_t err_size);
/* `squall train ...`; argv[0] is "train". */
int train_main(int argc, char **argv);
void train_usage(FILE *out); /* its flags, for `squall train --help` */

#endif
