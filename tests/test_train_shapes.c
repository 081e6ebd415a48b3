/* Trainer, net shapes. Output buckets (a stack per piece-count bucket) learn, in a way that
 * carries over to positions not trained on, what one stack does not; they export as version-2
 * nets the engine evaluates with the right stack, seed from a one-bucket net and resume from
 * their checkpoints. SCReLU nets agree with their float model, start from clipped-ReLU nets and
 * resume. Shapes that do not match are refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "datagen.h"
#include "nnue.h"
#include "selfplay_fixture.h"
#include "test.h"
#include "threads.h"
#include "train.h"
#include "train_data.h"
#include "train_model.h"
#include "train_record.h"

static void shape_path(char *out, size_t size, const char *tag) {
    snprintf(out, size, "/tmp/squall-test-shapes-%s-%d", tag, (int)getpid());
}

/* Positions whose label is a function of the output bucket alone: +300 cp in the even buckets,
 * -300 cp in the odd ones. Every position is colour-symmetric (black's pieces mirror white's),
 * so material says nothing and the starting PSQT (material) adds 0. With 8 buckets each stack
 * has one constant to learn; one stack has to compute a sawtooth of the piece count from the
 * accumulator. */
#define LABEL 300
#define DATA_POSITIONS 480

static int label_of_bucket(int bucket) { return bucket % 2 ? -LABEL : LABEL; }

/* Position number i of the data set (deterministic): 2 + 2m pieces, m = i % 16. */
static void symmetric_position(int i, Position *pos) {
    uint64_t rng = 0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1);
    for (;;) {
        char board[64];
        memset(board, 0, sizeof board);
        int king = (int)(test_random(&rng) % 32); /* white's half: ranks 1-4 */
        board[king] = 'K';
        for (int placed = 0; placed < i % 16;) {
            static const char types[] = "PPPPNNBBRRQ";
            char t = types[test_random(&rng) % (sizeof types - 1)];
            int sq = (int)(test_random(&rng) % 32);
            if (board[sq] || (t == 'P' && sq < 8)) continue;
            board[sq] = t;
            placed++;
        }
        char fen[128];
        int at = 0;
        for (int rank = 7; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < 8; file++) {
                int sq = rank * 8 + file;
                /* black's half mirrors white's across the middle */
                char c = rank >= 4 ? board[sq ^ 56] : board[sq];
                if (rank >= 4 && c) c = (char)(c - 'A' + 'a');
                if (!c) {
                    empty++;
                    continue;
                }
                if (empty) fen[at++] = (char)('0' + empty), empty = 0;
                fen[at++] = c;
            }
            if (empty) fen[at++] = (char)('0' + empty);
            fen[at++] = rank ? '/' : ' ';
        }
        snprintf(fen + at, sizeof fen - (size_t)at, "w - - 0 1");
        if (pos_set_fen(pos, fen, NULL, 0)) return; /* else (a king in check) draw again */
    }
}

static int pieces_on(const Position *pos) {
    int n = 0;
    for (int sq = 0; sq < 64; sq++) n += pos->board[sq] != NO_PIECE;
    return n;
}

/* Writes the data set; false on an I/O error. */
static bool write_bucket_data(const char *path) {
    FILE *f = fopen(path, "wb");
    Position *pos = malloc(sizeof *pos);
    bool ok = f && pos;
    for (int i = 0; ok && i < DATA_POSITIONS; i++) {
        symmetric_position(i, pos);
        Record rec;
        int bucket = nnue_output_bucket(pieces_on(pos), NNUE_MAX_OUTPUT_BUCKETS);
        record_encode(&rec, pos, label_of_bucket(bucket), 10, (uint32_t)i, RESULT_DRAW);
        ok = fwrite(&rec, sizeof rec, 1, f) == 1;
    }
    if (f) ok = (fclose(f) == 0) && ok;
    free(pos);
    return ok;
}

/* Under the current net, on DATA_POSITIONS fresh positions of the same kind (not trained on):
 * the share whose evaluation has the label's sign and at least half its size, and the mean
 * |evaluation - label|. Checks that every evaluation used the bucket its piece count gives. */
#define FRESH_FIRST 100000

static void fit_of_current_net(double *hit_share, double *mean_error, bool *buckets_ok) {
    Position *pos = malloc(sizeof *pos);
    int hits = 0;
    double error = 0;
    *buckets_ok = pos != NULL;
    for (int i = FRESH_FIRST; pos && i < FRESH_FIRST + DATA_POSITIONS; i++) {
        symmetric_position(i, pos);
        int bucket = nnue_output_bucket(pieces_on(pos), NNUE_MAX_OUTPUT_BUCKETS), label = label_of_bucket(bucket);
        NnueParts parts;
        nnue_evaluate_parts(pos, &parts);
        *buckets_ok = *buckets_ok && parts.bucket == nnue_output_bucket(pieces_on(pos), nnue_current_net()->output_buckets);
        hits += parts.total_cp * label > 0 && abs(parts.total_cp) >= LABEL / 2;
        error += fabs((double)parts.total_cp - label);
    }
    *hit_share = (double)hits / DATA_POSITIONS;
    *mean_error = error / DATA_POSITIONS;
    free(pos);
}

/* The current net's evaluation of every data position. */
static void evaluations(int out[DATA_POSITIONS]) {
    Position *pos = malloc(sizeof *pos);
    for (int i = 0; i < DATA_POSITIONS; i++) {
        out[i] = 0;
        if (!pos) continue;
        symmetric_position(i, pos);
        out[i] = nnue_evaluate(pos, NULL);
    }
    free(pos);
}

static void shape_config(TrainConfig *cfg, const char *data, const char *out) {
    train_config_defaults(cfg);
    cfg->data = data, cfg->out = out;
    cfg->epochs = 12, cfg->batch = 64, cfg->lr = 2e-3f, cfg->warmup_steps = 0, cfg->threads = 2;
    cfg->holdout = 0, cfg->k = 200, cfg->lambda = 1.0f, cfg->progress_seconds = 0, cfg->compare_positions = 0;
}

TEST(train_shapes, output_buckets_fit_what_one_stack_does_not) {
    char data[128], one[128], eight[128], err[256];
    shape_path(data, sizeof data, "data");
    shape_path(one, sizeof one, "one");
    shape_path(eight, sizeof eight, "eight");
    CHECK(write_bucket_data(data));
    TrainConfig cfg;
    TrainReport rep1, rep8;
    shape_config(&cfg, data, one);
    CHECK_MSG(train_run(&cfg, &rep1, NULL, err, sizeof err), "%s", err);
    double hits1, error1, hits8, error8;
    bool buckets_ok;
    CHECK_MSG(nnue_load_file(one, err, sizeof err), "%s", err);
    CHECK(nnue_current_net()->output_buckets == 1);
    fit_of_current_net(&hits1, &error1, &buckets_ok);
    CHECK(buckets_ok);

    cfg.out = eight;
    cfg.output_buckets = NNUE_MAX_OUTPUT_BUCKETS;
    CHECK_MSG(train_run(&cfg, &rep8, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(nnue_load_file(eight, err, sizeof err), "%s", err);
    CHECK(nnue_current_net()->output_buckets == NNUE_MAX_OUTPUT_BUCKETS);
    fit_of_current_net(&hits8, &error8, &buckets_ok);
    CHECK(buckets_ok);
    printf("    label's sign and half its size: one stack %.0f%% (mean error %.0f cp, loss %.5f), 8 buckets %.0f%% "
           "(mean error %.0f cp, loss %.5f)\n",
           100 * hits1, error1, rep1.last_train_loss, 100 * hits8, error8, rep8.last_train_loss);
    /* on positions it was not trained on, the exported 8-bucket net evaluates the even and odd
     * buckets apart; one stack trained alike (it fits its training positions, but learns no rule
     * of the piece count) does much worse */
    CHECK_MSG(hits8 > 0.95, "8 buckets: %.0f%% of positions evaluated on the label's side", 100 * hits8);
    CHECK_MSG(error8 < 0.5 * error1, "mean error: 8 buckets %.0f cp, one stack %.0f cp", error8, error1);
    nnue_unload();
    remove(data), remove(one), remove(eight);
}

/* --init from a one-bucket net copies its stack into every bucket: with no epochs, the exported
 * 8-bucket net evaluates every position exactly as the one-bucket net does. An 8-bucket net
 * cannot seed a one-bucket model. */
TEST(train_shapes, init_from_one_bucket_net_seeds_every_bucket) {
    char data[128], one[128], eight[128], err[256];
    shape_path(data, sizeof data, "init-data");
    shape_path(one, sizeof one, "init-one");
    shape_path(eight, sizeof eight, "init-eight");
    CHECK(write_bucket_data(data));
    TrainConfig cfg;
    TrainReport rep;
    shape_config(&cfg, data, one);
    cfg.epochs = 1;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.init = one, cfg.out = eight, cfg.epochs = 0, cfg.output_buckets = NNUE_MAX_OUTPUT_BUCKETS;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    static int evals1[DATA_POSITIONS], evals8[DATA_POSITIONS];
    CHECK_MSG(nnue_load_file(one, err, sizeof err), "%s", err);
    evaluations(evals1);
    CHECK_MSG(nnue_load_file(eight, err, sizeof err), "%s", err);
    const NnueNet *net = nnue_current_net();
    CHECK(net->output_buckets == NNUE_MAX_OUTPUT_BUCKETS);
    for (int b = 1; b < NNUE_MAX_OUTPUT_BUCKETS; b++)
        CHECK(!memcmp(net->l2_weights[b], net->l2_weights[0], sizeof net->l2_weights[0]) &&
              net->out_bias[b] == net->out_bias[0]);
    evaluations(evals8);
    CHECK_MSG(!memcmp(evals1, evals8, sizeof evals1), "the seeded 8-bucket net evaluates differently");
    /* without --output-buckets, the 8-bucket net's count is kept */
    cfg.init = eight, cfg.out = one, cfg.output_buckets = 0;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(nnue_load_file(one, err, sizeof err), "%s", err);
    CHECK(nnue_current_net()->output_buckets == NNUE_MAX_OUTPUT_BUCKETS);
    /* an 8-bucket net into a one-bucket model: refused in one line */
    cfg.init = eight, cfg.output_buckets = 1;
    err[0] = 0;
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_MSG(strstr(err, "output buckets") != NULL && !strchr(err, '\n'), "%s", err);
    /* the command line takes 1 and 8 only */
    char *argv[] = {"train", "--data", data, "--out", one, "--output-buckets", "4", NULL};
    CHECK(train_main(7, argv) == 2);
    nnue_unload();
    remove(data), remove(one), remove(eight);
}

/* An 8-bucket run stopped after one epoch and resumed gives the uninterrupted run's net, byte
 * for byte; its checkpoint is refused by a run of another bucket count. */
TEST(train_shapes, bucketed_checkpoint_resumes_and_other_shapes_are_refused) {
    char data[128], full[128], part[128], ckpt[128], err[256];
    shape_path(data, sizeof data, "ck-data");
    shape_path(full, sizeof full, "ck-full");
    shape_path(part, sizeof part, "ck-part");
    shape_path(ckpt, sizeof ckpt, "ck-ckpt");
    CHECK(write_bucket_data(data));
    TrainConfig cfg;
    TrainReport rep;
    shape_config(&cfg, data, full);
    cfg.epochs = 2, cfg.output_buckets = NNUE_MAX_OUTPUT_BUCKETS;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.out = part, cfg.stop_after = 1, cfg.checkpoint = ckpt;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.stop_after = 0, cfg.checkpoint = NULL, cfg.resume = ckpt;
    cfg.output_buckets = 1;
    err[0] = 0;
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_MSG(strstr(err, "output bucket") != NULL && !strchr(err, '\n'), "%s", err);
    cfg.output_buckets = 0; /* the checkpoint's count */
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_EQ_U64(rep.epochs_run, 1);
    unsigned char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    CHECK((a = test_read_file(full, &na)) != NULL && (b = test_read_file(part, &nb)) != NULL);
    CHECK_MSG(na == NNUE_FILE_SIZE_FOR(NNUE_MAX_OUTPUT_BUCKETS) && na == nb && a && b && !memcmp(a, b, na),
              "resumed 8-bucket run differs");
    free(a), free(b);
    nnue_unload();
    remove(data), remove(full), remove(part), remove(ckpt);
}

/* ------------------------------------------------------------------ SCReLU */

/* A few fast self-play games with classical evaluation (the labels), as test_train.c uses. */
static const char *selfplay_data(void) {
    static char path[128];
    if (path[0]) return path;
    shape_path(path, sizeof path, "selfplay");
    DatagenStats st;
    test_selfplay_games(path, 24, 2, 400, 21, &st);
    return path;
}

/* Stated bound of the quantized SCReLU net against the float model, in centipawns: the same as
 * for clipped ReLU (test_train.c). The engine's >> 7 floors where the float model does not, a
 * loss of up to 1/127 per active input, which the check shows stays inside it. */
#define SCRELU_QUANT_MEAN_TOLERANCE 4.0
#define SCRELU_QUANT_MAX_TOLERANCE 20.0

TEST(train_shapes, screlu_quantized_net_agrees_with_float_model) {
    char out[128], err[256];
    shape_path(out, sizeof out, "screlu");
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.data = selfplay_data(), cfg.out = out;
    cfg.epochs = 4, cfg.batch = 128, cfg.lr = 2e-3f, cfg.warmup_steps = 0, cfg.threads = 2, cfg.holdout = 0.2;
    cfg.k = 200, cfg.progress_seconds = 0, cfg.compare_positions = 2000;
    cfg.screlu = true;
    TrainReport rep;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(rep.last_train_loss < rep.first_train_loss * 0.95, "train loss %.5f -> %.5f", rep.first_train_loss,
              rep.last_train_loss);
    CHECK_EVERY_HOLDOUT_POSITION_COMPARED(rep);
    printf("    SCReLU, quantized vs float on %d positions: mean %.2f cp, max %.1f cp\n", rep.compared,
           rep.quant_mean_cp, rep.quant_max_cp);
    CHECK_MSG(rep.quant_mean_cp < SCRELU_QUANT_MEAN_TOLERANCE && rep.quant_max_cp < SCRELU_QUANT_MAX_TOLERANCE,
              "quantized vs float: mean %.2f cp, max %.1f cp", rep.quant_mean_cp, rep.quant_max_cp);
    /* the export is a version-2 SCReLU net that loads and writes back the same bytes */
    unsigned char *file = NULL, *again = NULL;
    size_t n = 0;
    CHECK((file = test_read_file(out, &n)) != NULL && n == NNUE_FILE_SIZE);
    CHECK_MSG(nnue_load_file(out, err, sizeof err), "%s", err);
    CHECK(nnue_current_net()->activation == NNUE_ACTIVATION_SCRELU);
    again = malloc(NNUE_FILE_SIZE);
    if (file && again && n == NNUE_FILE_SIZE) {
        nnue_net_write(nnue_current_net(), again);
        CHECK(file[8] == 2 && file[124] == 1 && !memcmp(file, again, n));
    }
    free(file), free(again);
    nnue_unload();
    remove(out);
}

/* A clipped-ReLU net starts an SCReLU model (--init --screlu): its weights are copied unchanged
 * (with no epochs, the payload is byte for byte the same) and the net becomes SCReLU. An
 * SCReLU --init net keeps SCReLU without the flag; a clipped-ReLU checkpoint is refused by a
 * --screlu resume, and an SCReLU run resumes exactly. */
TEST(train_shapes, screlu_starts_from_a_clipped_relu_net_and_resumes) {
    char relu[128], sc[128], sc2[128], full[128], part[128], ckpt[128], err[256];
    shape_path(relu, sizeof relu, "sc-relu");
    shape_path(sc, sizeof sc, "sc-init");
    shape_path(sc2, sizeof sc2, "sc-keep");
    shape_path(full, sizeof full, "sc-full");
    shape_path(part, sizeof part, "sc-part");
    shape_path(ckpt, sizeof ckpt, "sc-ckpt");
    TrainConfig cfg;
    TrainReport rep;
    train_config_defaults(&cfg);
    cfg.data = selfplay_data(), cfg.out = relu;
    cfg.epochs = 1, cfg.batch = 128, cfg.lr = 2e-3f, cfg.warmup_steps = 0, cfg.threads = 2, cfg.holdout = 0.2;
    cfg.k = 200, cfg.progress_seconds = 0, cfg.compare_positions = 0;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.init = relu, cfg.out = sc, cfg.epochs = 0, cfg.screlu = true;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    unsigned char *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    CHECK((a = test_read_file(relu, &na)) != NULL && (b = test_read_file(sc, &nb)) != NULL);
    CHECK_MSG(a && b && na == NNUE_FILE_SIZE && nb == na && a[8] == 1 && b[8] == 2 && b[124] == 1 &&
                  !memcmp(a + NNUE_HEADER_SIZE, b + NNUE_HEADER_SIZE, na - NNUE_HEADER_SIZE),
              "the SCReLU start did not copy the clipped-ReLU weights");
    free(a), free(b);
    cfg.init = sc, cfg.out = sc2, cfg.screlu = false;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(nnue_load_file(sc2, err, sizeof err), "%s", err);
    CHECK(nnue_current_net()->activation == NNUE_ACTIVATION_SCRELU);

    /* a clipped-ReLU checkpoint, then --screlu asks to resume it */
    cfg.init = NULL, cfg.out = part, cfg.epochs = 2, cfg.stop_after = 1, cfg.checkpoint = ckpt;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.stop_after = 0, cfg.checkpoint = NULL, cfg.resume = ckpt, cfg.screlu = true;
    err[0] = 0;
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_MSG(strstr(err, "SCReLU") != NULL && !strchr(err, '\n'), "%s", err);
    /* an SCReLU run stopped and resumed equals the uninterrupted one */
    cfg.resume = NULL, cfg.out = full;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.out = part, cfg.stop_after = 1, cfg.checkpoint = ckpt;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    cfg.stop_after = 0, cfg.checkpoint = NULL, cfg.resume = ckpt, cfg.screlu = false; /* the checkpoint's */
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK((a = test_read_file(full, &na)) != NULL && (b = test_read_file(part, &nb)) != NULL);
    CHECK_MSG(a && b && na == NNUE_FILE_SIZE && na == nb && a[124] == 1 && !memcmp(a, b, na), "resumed SCReLU run differs");
    free(a), free(b);
    nnue_unload();
    remove(relu), remove(sc), remove(sc2), remove(full), remove(part), remove(ckpt);
}

/* The backward pass's gradient of the feature biases (through the accumulator activation, L1
 * and the rest) against central differences of the model's output, for SCReLU and clipped
 * ReLU, on one sample of a freshly initialized model (its accumulators are the biases, in
 * [0, 0.5]; lanes within a step of clip's corner are left out). The loss is a function
 * of the output alone, so dLoss/dbias = dLoss/dcp * dcp/dbias; differences of cp (float, but
 * far from its last bits) stand in for differences of the loss (too small for float). */
TEST(train_shapes, screlu_gradient_matches_finite_differences) {
    Position *pos = malloc(sizeof *pos);
    CHECK(pos && pos_set_fen(pos, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", NULL, 0));
    if (!pos) return;
    Record rec;
    record_encode(&rec, pos, 900, 8, 1, RESULT_DRAW);
    free(pos);
    TrainSample s;
    CHECK(train_sample_from_record(&rec, &s));
    const TrainTarget t = {200.0f, 1.0f, 0.0f};
    for (int screlu = 0; screlu < 2; screlu++) {
        TrainModel m;
        TrainGrad g;
        if (!train_model_alloc(&m)) {
            CHECK(false);
            return;
        }
        m.screlu = screlu;
        train_model_init(&m, 5);
        CHECK(train_grad_alloc(&g, &m));
        train_model_backward(&m, &s, 1, &t, 1.0f, &g);
        double cp = train_model_forward_cp(&m, &s), pred = 1.0 / (1.0 + exp(-cp / t.k));
        double dloss_dcp = 2.0 * (pred - train_target(&s, &t)) * pred * (1.0 - pred) / t.k;
        int checked = 0, bad = 0;
        double worst = 0;
        for (int i = 0; i < TM_L1; i++) {
            float *bias = &m.p[TM_FT_B + i], keep = *bias;
            const float eps = 1e-2f;
            if (keep < 2 * eps || keep > 1 - 2 * eps) continue; /* the step would cross clip's corner */
            *bias = keep + eps;
            double up = train_model_forward_cp(&m, &s);
            *bias = keep - eps;
            double down = train_model_forward_cp(&m, &s);
            *bias = keep;
            double numeric = (up - down) / (2.0 * eps), analytic = g.small[TM_FT_B - TM_SMALL + i] / dloss_dcp;
            if (fabs(numeric) < 0.5) continue; /* under half a centipawn per unit: left to the others */
            double rel = fabs(analytic - numeric) / fabs(numeric);
            if (rel > worst) worst = rel;
            bad += rel > 0.02;
            checked++;
        }
        printf("    %s: %d feature-bias gradients, worst relative difference %.4f\n", screlu ? "SCReLU" : "clipped ReLU",
               checked, worst);
        CHECK_MSG(checked >= 64 && bad == 0, "%s: %d of %d gradients off by more than 2%% (worst %.3f)",
                  screlu ? "SCReLU" : "clipped ReLU", bad, checked, worst);
        train_grad_free(&g);
        train_model_free(&m);
    }
}
