/* Trainer: features match the engine's, training lowers the loss, the exported net loads and
 * agrees with the float model, import/export round-trips, runs are deterministic and resume
 * exactly. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "datagen.h"
#include "nnue.h"
#include "nnue_order.h"
#include "random.h"
#include "search.h"
#include "threads.h"
#include "selfplay_fixture.h"
#include "test.h"
#include "train.h"
#include "train_data.h"
#include "train_model.h"
#include "train_optim.h"
#include "train_record.h"

/* Stated tolerance of the quantized engine against the float model, in centipawns. */
#define QUANT_MEAN_TOLERANCE 4.0
#define QUANT_MAX_TOLERANCE 20.0

static void temp_path(char *out, size_t size, const char *tag) {
    snprintf(out, size, "/tmp/squall-test-train-%s-%d", tag, (int)getpid());
}

/* The shared data set of these tests: a few fast self-play games. */
static const char *test_data(void) {
    static char path[128];
    if (path[0]) return path;
    temp_path(path, sizeof path, "data");
    DatagenStats st;
    test_selfplay_games(path, 24, 2, 400, 21, &st);
    return path;
}

static void small_config(TrainConfig *cfg, const char *out) {
    train_config_defaults(cfg);
    cfg->data = test_data();
    cfg->out = out;
    cfg->epochs = 4;
    cfg->batch = 128;
    cfg->lr = 2e-3f;
    cfg->warmup_steps = 0;
    cfg->threads = 2;
    cfg->holdout = 0.2;
    cfg->k = 200;
    cfg->progress_seconds = 0;
    cfg->compare_positions = 2000;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

TEST(train, features_match_the_engine_listing) {
    TrainData data;
    char err[256];
    CHECK(train_data_load(&data, test_data(), 0.0, NULL, err, sizeof err));
    Position *pos = malloc(sizeof *pos);
    for (size_t i = 0; i < data.count; i += 7) {
        RecordPosition rp;
        CHECK(record_decode(&data.records[i], &rp));
        char fen[128];
        record_fen(&rp, fen, sizeof fen);
        CHECK(pos_set_fen(pos, fen, NULL, 0));
        TrainSample s;
        train_sample_from_position(&rp, &s);
        for (int h = 0; h < 2; h++) {
            int persp = h == 0 ? pos->side : !pos->side, engine[NNUE_MAX_ACTIVE], ours[NNUE_MAX_ACTIVE];
            int n = nnue_active_features(pos, persp, engine);
            CHECK_EQ_U64(n, s.count);
            for (int k = 0; k < s.count; k++) ours[k] = s.feat[h][k];
            qsort(ours, (size_t)s.count, sizeof *ours, cmp_int);
            CHECK_MSG(n == s.count && !memcmp(ours, engine, sizeof(int) * (size_t)n), "features differ: %s", fen);
        }
        CHECK(s.result == record_stm_result(&rp) && s.score == rp.score);
    }
    free(pos);
    train_data_free(&data);
}

TEST(train, holdout_is_split_by_game) {
    TrainData data;
    char err[256];
    CHECK(train_data_load(&data, test_data(), 0.3, NULL, err, sizeof err));
    CHECK(data.train_count + data.holdout_count == data.count);
    CHECK(data.holdout_count > 0 && data.train_count > 0);
    for (size_t i = 0; i < data.holdout_count; i++)
        for (size_t j = 0; j < data.train_count; j += 5)
            if (record_game(&data.records[data.holdout[i]]) == record_game(&data.records[data.train[j]])) {
                CHECK_MSG(false, "game %u is on both sides", record_game(&data.records[data.holdout[i]]));
                i = data.holdout_count;
                break;
            }
    train_data_free(&data);
}

/* An order-free fingerprint of a set of records: the sum of a hash of each. */
static uint64_t records_fingerprint(const TrainData *data, const uint32_t *index, size_t count) {
    uint64_t sum = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t words[RECORD_SIZE / 8], h = 0;
        memcpy(words, data->records[index[i]].bytes, sizeof words);
        for (size_t w = 0; w < RECORD_SIZE / 8; w++) h = mix64(h ^ words[w]);
        sum += h;
    }
    return sum;
}

/* A game keeps its side of the split (and of a @W subsample) whatever the order of the files:
 * adding a file to a pool shifts the others' places in the name order. */
TEST(train, split_does_not_depend_on_file_order) {
    char other[128], err[256], forward[300], backward[300];
    temp_path(other, sizeof other, "data-other");
    DatagenStats st;
    CHECK(test_selfplay_games(other, 8, 1, 400, 22, &st));
    const char *weights[2] = {"", "@0.5"};
    for (int w = 0; w < 2; w++) {
        snprintf(forward, sizeof forward, "%s%s,%s", test_data(), weights[w], other);
        snprintf(backward, sizeof backward, "%s,%s%s", other, test_data(), weights[w]);
        TrainData a, b;
        CHECK_MSG(train_data_load(&a, forward, 0.3, NULL, err, sizeof err), "%s", err);
        CHECK_MSG(train_data_load(&b, backward, 0.3, NULL, err, sizeof err), "%s", err);
        CHECK(a.holdout_count > 0 && a.train_count > 0);
        CHECK_EQ_U64(a.holdout_count, b.holdout_count);
        CHECK_EQ_U64(a.train_count, b.train_count);
        CHECK(records_fingerprint(&a, a.holdout, a.holdout_count) == records_fingerprint(&b, b.holdout, b.holdout_count));
        CHECK(records_fingerprint(&a, a.train, a.train_count) == records_fingerprint(&b, b.train, b.train_count));
        train_data_free(&a), train_data_free(&b);
    }
    remove(other);
}

/* --min-ply: the training split loses exactly its early positions, the holdout none. */
TEST(train, early_plies_leave_the_training_split_only) {
    TrainData data;
    char err[256];
    CHECK(train_data_load(&data, test_data(), 0.3, NULL, err, sizeof err));
    size_t train_before = data.train_count, holdout_before = data.holdout_count, late = 0;
    unsigned min_ply = 0;
    for (size_t i = 0; i < data.train_count; i++) min_ply += record_ply(&data.records[data.train[i]]);
    min_ply /= (unsigned)data.train_count; /* the mean ply: some positions on each side of it */
    for (size_t i = 0; i < data.train_count; i++) late += record_ply(&data.records[data.train[i]]) >= min_ply;
    CHECK(late > 0 && late < train_before);
    CHECK(train_data_drop_early_plies(&data, min_ply) == train_before - late);
    CHECK(data.train_count == late && data.holdout_count == holdout_before);
    for (size_t i = 0; i < data.train_count; i++)
        CHECK_MSG(record_ply(&data.records[data.train[i]]) >= min_ply, "ply %u kept", record_ply(&data.records[data.train[i]]));
    train_data_free(&data);
}

TEST(train, training_lowers_loss_and_export_matches_float) {
    char out[128], err[256];
    temp_path(out, sizeof out, "net");
    TrainConfig cfg;
    small_config(&cfg, out);
    TrainReport rep;
    bool ok = train_run(&cfg, &rep, NULL, err, sizeof err);
    CHECK_MSG(ok, "%s", err);
    CHECK_EQ_U64(rep.epochs_run, 4);
    CHECK_MSG(rep.last_train_loss < rep.first_train_loss * 0.95, "train loss %.5f -> %.5f", rep.first_train_loss,
              rep.last_train_loss);
    CHECK(rep.last_val_loss > 0 && rep.last_val_loss < 0.25);
    /* the export was loaded with the engine's loader and compared */
    CHECK(nnue_is_loaded());
    CHECK_EVERY_HOLDOUT_POSITION_COMPARED(rep);
    CHECK_MSG(rep.quant_mean_cp < QUANT_MEAN_TOLERANCE && rep.quant_max_cp < QUANT_MAX_TOLERANCE,
              "quantized vs float: mean %.2f cp, max %.1f cp", rep.quant_mean_cp, rep.quant_max_cp);
    printf("    quantized vs float on %d positions: mean %.2f cp, max %.1f cp\n", rep.compared, rep.quant_mean_cp,
           rep.quant_max_cp);

    /* train -> export -> load -> evaluate gives the same numbers twice */
    Position *pos = malloc(sizeof *pos);
    TrainData data;
    CHECK(train_data_load(&data, test_data(), 0.0, NULL, err, sizeof err));
    int evals[2][64];
    for (int round = 0; round < 2; round++) {
        CHECK_MSG(nnue_load_file(out, err, sizeof err), "%s", err);
        for (int i = 0; i < 64; i++) {
            RecordPosition rp;
            char fen[128];
            record_decode(&data.records[(size_t)i * data.count / 64], &rp);
            record_fen(&rp, fen, sizeof fen);
            CHECK(pos_set_fen(pos, fen, NULL, 0));
            NnueParts parts;
            nnue_evaluate_parts(pos, &parts);
            evals[round][i] = parts.total_cp;
        }
    }
    CHECK(!memcmp(evals[0], evals[1], sizeof evals[0]));
    train_data_free(&data);
    free(pos);
    nnue_unload();
    remove(out);
}

TEST(train, import_export_round_trip_and_determinism) {
    char a[128], b[128], c[128], err[256];
    temp_path(a, sizeof a, "det-a");
    temp_path(b, sizeof b, "det-b");
    temp_path(c, sizeof c, "det-c");
    TrainConfig cfg;
    small_config(&cfg, a);
    cfg.epochs = 2;
    cfg.compare_positions = 0;
    TrainReport rep;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    cfg.out = b;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    size_t na = 0, nb = 0;
    unsigned char *fa = test_read_file(a, &na), *fb = test_read_file(b, &nb);
    CHECK_MSG(na == NNUE_FILE_SIZE && na == nb && fa && fb && !memcmp(fa, fb, na), "same seed, different nets");
    free(fb);

    /* --init with zero epochs: dequantize, then export again, byte for byte */
    cfg.out = c;
    cfg.init = a;
    cfg.epochs = 0;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    size_t nc = 0;
    unsigned char *fc = test_read_file(c, &nc);
    CHECK(nc == na && fa && fc);
    /* the description (header bytes 56..119) and so the checksum may differ; weights may not */
    CHECK_MSG(fa && fc && nc == na && !memcmp(fa + NNUE_HEADER_SIZE, fc + NNUE_HEADER_SIZE, na - NNUE_HEADER_SIZE),
              "import + export changed the weights");
    free(fa), free(fc);
    nnue_unload();
    remove(a), remove(b), remove(c);
}

TEST(train, checkpoint_resumes_exactly) {
    char full[128], part[128], ckpt[128], err[256];
    temp_path(full, sizeof full, "full");
    temp_path(part, sizeof part, "part");
    temp_path(ckpt, sizeof ckpt, "ckpt");
    TrainConfig cfg;
    small_config(&cfg, full);
    cfg.epochs = 2;
    cfg.compare_positions = 0;
    TrainReport rep;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    cfg.out = part;
    cfg.stop_after = 1;
    cfg.checkpoint = ckpt;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_EQ_U64(rep.epochs_run, 1);
    cfg.stop_after = 0;
    cfg.checkpoint = NULL;
    cfg.resume = ckpt;
    CHECK(train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_EQ_U64(rep.epochs_run, 1);
    size_t n1 = 0, n2 = 0;
    unsigned char *f1 = test_read_file(full, &n1), *f2 = test_read_file(part, &n2);
    CHECK_MSG(n1 == NNUE_FILE_SIZE && n1 == n2 && f1 && f2 && !memcmp(f1, f2, n1), "resumed run differs");
    free(f1), free(f2);
    remove(full), remove(part), remove(ckpt);
}

TEST(train, bad_settings_are_refused) {
    TrainConfig cfg;
    TrainReport rep;
    char err[256];
    train_config_defaults(&cfg);
    cfg.data = "/nonexistent/squall-data.bin";
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK(strstr(err, "cannot open") != NULL);
    cfg.data = test_data();
    cfg.threads = 0;
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
}

TEST(train, without_factorizer_export_still_matches_float) {
    char out[128], err[256];
    temp_path(out, sizeof out, "nofact");
    TrainConfig cfg;
    small_config(&cfg, out);
    cfg.epochs = 2;
    cfg.factorizer = false;
    TrainReport rep;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_EVERY_HOLDOUT_POSITION_COMPARED(rep);
    CHECK_MSG(rep.quant_mean_cp < QUANT_MEAN_TOLERANCE && rep.quant_max_cp < QUANT_MAX_TOLERANCE,
              "quantized vs float: mean %.2f cp, max %.1f cp", rep.quant_mean_cp, rep.quant_max_cp);
    nnue_unload();
    remove(out);
}

/* How far the king-bucketed rows (or, with psqt, the PSQT entries) of the net in a file are
 * from bucket 0's of the same plane, summed over every lane: zero for a net that is its
 * factorized part alone. */
static double spread_over_buckets(const char *path, bool psqt) {
    char err[256];
    if (!nnue_load_file(path, err, sizeof err)) return -1;
    const NnueNet *net = nnue_current_net();
    double spread = 0;
    for (int b = 1; b < NNUE_KING_BUCKETS; b++)
        for (int p = 0; p < NNUE_PLANES; p++) {
            const int f = b * NNUE_PLANES + p;
            if (psqt) spread += abs(net->psqt_weights[f] - net->psqt_weights[p]);
            else
                for (int i = 0; i < NNUE_L1; i++) spread += abs(net->ft_weights[f][i] - net->ft_weights[p][i]);
        }
    return spread;
}

static double bucket_spread(const char *path) { return spread_over_buckets(path, false); }

/* Two short runs of the small configuration (with `base` applied when given), the second with
 * `change` applied too: nets in paths[0] and paths[1] (temporary files named after `tag`), the
 * validation losses in loss[0] and loss[1]. */
static bool train_with_and_without(const char *tag, void (*base)(TrainConfig *), void (*change)(TrainConfig *),
                                   char paths[2][128], double loss[2], char *err, size_t err_size) {
    char name[64];
    for (int i = 0; i < 2; i++) snprintf(name, sizeof name, "%s-%c", tag, 'a' + i), temp_path(paths[i], 128, name);
    const char *plain = paths[0], *changed = paths[1];
    TrainConfig cfg;
    small_config(&cfg, plain);
    cfg.epochs = 2;
    cfg.compare_positions = 0;
    if (base) base(&cfg);
    TrainReport rep;
    if (!train_run(&cfg, &rep, NULL, err, err_size)) return false;
    loss[0] = rep.last_val_loss;
    cfg.out = changed;
    change(&cfg);
    if (!train_run(&cfg, &rep, NULL, err, err_size)) return false;
    loss[1] = rep.last_val_loss;
    return true;
}

static void decay_rows_fully(TrainConfig *cfg) {
    cfg->row_weight_decay = 1.0f / cfg->lr; /* each update starts the touched rows from zero */
}

TEST(train, row_weight_decay_pulls_buckets_to_the_shared_rows) {
    char nets[2][128], err[256];
    double loss[2] = {0, 0};
    CHECK_MSG(train_with_and_without("rowwd", NULL, decay_rows_fully, nets, loss, err, sizeof err), "%s", err);
    const char *plain = nets[0], *decayed = nets[1];
    double spread_plain = bucket_spread(plain);
    double spread_decayed = bucket_spread(decayed);
    CHECK_MSG(spread_plain > 0 && spread_decayed >= 0 && spread_decayed < spread_plain / 2, "bucket spread %.0f with --row-wd, %.0f without",
              spread_decayed, spread_plain);
    nnue_unload();
    remove(plain), remove(decayed);
}

static void release_rows_by_the_end(TrainConfig *cfg) { cfg->row_weight_decay_end = 0; }

/* The bucket spread of two runs, the decay held (`hold`) and the same decay falling to zero over
 * the run (`release` too): the freed run must spread the buckets clearly further apart. */
static void check_schedule_frees_buckets_late(const char *tag, void (*hold)(TrainConfig *),
                                              void (*release)(TrainConfig *), bool psqt) {
    char nets[2][128], err[256];
    double loss[2] = {0, 0};
    CHECK_MSG(train_with_and_without(tag, hold, release, nets, loss, err, sizeof err), "%s", err);
    double spread_held = spread_over_buckets(nets[0], psqt), spread_freed = spread_over_buckets(nets[1], psqt);
    const char *what = psqt ? "PSQT bucket spread" : "bucket spread";
    printf("    %s: %.0f with the decay held, %.0f with it falling to zero\n", what, spread_held, spread_freed);
    CHECK_MSG(spread_held >= 0 && spread_freed > 1.3 * spread_held, "%s %.0f held, %.0f freed", what, spread_held,
              spread_freed);
    nnue_unload();
    remove(nets[0]), remove(nets[1]);
}

/* --row-wd-end: a full row decay that falls to zero over the run lets the buckets learn their
 * own part late, where the same decay held throughout keeps them at the shared rows. */
TEST(train, row_weight_decay_schedule_frees_buckets_late) {
    check_schedule_frees_buckets_late("rowwdend", decay_rows_fully, release_rows_by_the_end, false);
}

static void decay_psqt_rows_fully(TrainConfig *cfg) { cfg->psqt_row_weight_decay = 1.0f / cfg->lr; }

/* --psqt-row-wd: the king-bucketed PSQT entries decay towards their shared entries (as
 * --row-wd does for the feature rows); without it they drift apart freely. */
TEST(train, psqt_row_weight_decay_pulls_psqt_buckets_together) {
    char nets[2][128], err[256];
    double loss[2] = {0, 0};
    CHECK_MSG(train_with_and_without("psqtwd", NULL, decay_psqt_rows_fully, nets, loss, err, sizeof err), "%s", err);
    double spread_free = spread_over_buckets(nets[0], true), spread_decayed = spread_over_buckets(nets[1], true);
    printf("    PSQT bucket spread: %.0f without the decay, %.0f with it\n", spread_free, spread_decayed);
    CHECK_MSG(spread_free > 0 && spread_decayed >= 0 && spread_decayed < spread_free / 2,
              "PSQT bucket spread %.0f with --psqt-row-wd, %.0f without", spread_decayed, spread_free);
    nnue_unload();
    remove(nets[0]), remove(nets[1]);
}

static void release_psqt_rows_by_the_end(TrainConfig *cfg) { cfg->psqt_row_weight_decay_end = 0; }

/* --psqt-row-wd-end: the PSQT buckets' decay on the feature rows' kind of schedule. */
TEST(train, psqt_row_weight_decay_schedule_frees_psqt_buckets_late) {
    check_schedule_frees_buckets_late("psqtwdend", decay_psqt_rows_fully, release_psqt_rows_by_the_end, true);
}

/* Starting from a net with the factorizer on: each virtual row holds the bucket mean of its
 * feature's rows, the bucket parts sum to zero, and export gives back the same weights. */
TEST(train, init_from_net_moves_the_shared_part_into_virtual_rows) {
    /* NnueNet asks for 64-byte alignment, which calloc does not promise */
    NnueNet *net = aligned_alloc(64, sizeof *net), *back = aligned_alloc(64, sizeof *back);
    TrainModel m = {0};
    CHECK(net && back && train_model_alloc(&m));
    if (!net || !back || !m.p) goto done;
    memset(net, 0, sizeof *net);
    net->acc_shift = 0, net->hidden_shift = TRAIN_HIDDEN_SHIFT, net->output_divisor = TRAIN_OUTPUT_DIVISOR;
    uint32_t s = 12345;
    for (int f = 0; f < NNUE_INPUTS; f++) {
        for (int i = 0; i < NNUE_L1; i++) {
            s = s * 1664525u + 1013904223u;
            /* a per-plane shared part plus a smaller bucket-dependent part */
            net->ft_weights[f][i] = (int16_t)((f % NNUE_PLANES + i) % 200 - 100 + (int)(s >> 28) - 8);
        }
        net->psqt_weights[f] = (f % NNUE_PLANES) * 3 - 1000 + f / NNUE_PLANES;
    }
    train_model_from_net(&m, net);
    const float *p = m.p;
    double worst_sum = 0, worst_mean = 0;
    for (int j = 0; j < NNUE_PLANES; j += 37) /* j >= 640: king squares, two virtual rows each */
        for (int i = 0; i < NNUE_L1; i += 11)
            for (uint32_t v = (uint32_t)j; v < TM_VIRTUAL_ROWS; v += 64) {
                double sum_w = 0, mean_row = 0;
                int served = 0;
                for (int b = 0; b < NNUE_KING_BUCKETS; b++) {
                    uint32_t f = (uint32_t)(b * NNUE_PLANES + j);
                    if (train_virtual_row(f) != v) continue;
                    sum_w += p[TM_FT_W + (size_t)f * TM_L1 + i];
                    mean_row += net->ft_weights[f][i] / (double)TRAIN_ACT_ONE;
                    served++;
                }
                if (!served) continue;
                mean_row /= served;
                worst_sum = fmax(worst_sum, fabs(sum_w));
                worst_mean = fmax(worst_mean, fabs(p[TM_FT_V + (size_t)v * TM_L1 + i] - mean_row));
            }
    CHECK_MSG(worst_sum < 1e-3 && worst_mean < 1e-4, "bucket parts sum to %g, virtual row off the mean by %g", worst_sum,
              worst_mean);
    CHECK(fabsf(p[TM_PSQT_V + 5] - (5 * 3 - 1000 + 15.5f) / (TRAIN_OUTPUT_DIVISOR * TRAIN_OUTPUT_SCALE)) < 1e-4f);
    train_model_to_net(&m, back);
    CHECK_MSG(!memcmp(net->ft_weights, back->ft_weights, sizeof net->ft_weights), "feature rows changed on the way back");
    CHECK_MSG(!memcmp(net->psqt_weights, back->psqt_weights, sizeof net->psqt_weights), "PSQT rows changed on the way back");
done:
    train_model_free(&m);
    free(net), free(back);
}

/* The factorizer's king rows: in each bucket, the king square the bucket stands for is the own
 * king (one row per square, 640..703); every other square of that plane is the enemy king
 * (704..767). Checked against the engine's feature index for every king square and side. */
TEST(train, virtual_rows_keep_own_and_enemy_king_apart) {
    int bad = 0;
    for (int persp = WHITE; persp <= BLACK; persp++)
        for (int ksq = 0; ksq < 64; ksq++) {
            int own_king = make_piece(persp, KING), enemy_king = make_piece(!persp, KING);
            uint32_t own = (uint32_t)nnue_feature_index(persp, ksq, own_king, ksq);
            uint32_t v_own = train_virtual_row(own);
            bad += v_own != own % NNUE_PLANES || v_own < 640 || v_own >= TM_ENEMY_KING_ROWS;
            for (int esq = 0; esq < 64; esq++) {
                if (esq == ksq) continue;
                uint32_t enemy = (uint32_t)nnue_feature_index(persp, esq, enemy_king, ksq);
                uint32_t v = train_virtual_row(enemy);
                bad += v != TM_ENEMY_KING_ROWS + (enemy % NNUE_PLANES - 640) || v >= TM_VIRTUAL_ROWS;
                uint32_t knight = (uint32_t)nnue_feature_index(persp, esq, make_piece(!persp, KNIGHT), ksq);
                bad += train_virtual_row(knight) != knight % NNUE_PLANES;
            }
        }
    CHECK_EQ_U64(bad, 0);
}

/* Clipped accumulator activations of both perspectives of pos under the current net. */
static void clipped_accumulators(const Position *pos, int out[2][NNUE_L1]) {
    const NnueNet *net = nnue_current_net();
    for (int persp = WHITE; persp <= BLACK; persp++) {
        int idx[NNUE_MAX_ACTIVE], n = nnue_active_features(pos, persp, idx);
        for (int i = 0; i < NNUE_L1; i++) {
            int sum = net->ft_biases[i];
            for (int k = 0; k < n; k++) sum += net->ft_weights[idx[k]][i];
            sum >>= net->acc_shift;
            out[persp][i] = sum < 0 ? 0 : sum > 127 ? 127 : sum;
        }
    }
}

/* Positions that differ only in whose king stands where, with different labels. With the
 * bucket rows held at zero (--row-wd) only the factorized part of the feature rows can learn;
 * it must give the two positions different accumulators, or the hidden layers cannot tell
 * them apart. A factorizer that shares one row between "my king on s" and "the enemy king on
 * s" gives both exactly the same accumulators (the shipped gen3 net shows it). */
TEST(train, exported_net_tells_whose_king_is_whose) {
    static const char *pairs[][2] = {
        {"8/8/4k3/8/4K3/4P3/8/8 w - - 0 1", "8/8/4K3/8/4k3/4P3/8/8 w - - 0 1"},
        {"8/8/8/2k5/8/2K5/2P5/8 w - - 0 1", "8/8/8/2K5/8/2k5/2P5/8 w - - 0 1"},
        {"8/8/5k2/8/5K2/5P2/8/8 w - - 0 1", "8/8/5K2/8/5k2/5P2/8/8 w - - 0 1"},
        {"8/8/3k4/8/3K4/3P4/8/8 w - - 0 1", "8/8/3K4/8/3k4/3P4/8/8 w - - 0 1"},
    };
    char data[128], out[128], err[256];
    temp_path(data, sizeof data, "kings-data");
    temp_path(out, sizeof out, "kings-net");
    FILE *f = fopen(data, "wb");
    Position *pos = malloc(sizeof *pos);
    CHECK(f && pos);
    if (!f || !pos) return;
    uint32_t game = 0;
    for (int copy = 0; copy < 64; copy++)
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
            for (int k = 0; k < 2; k++) {
                CHECK(pos_set_fen(pos, pairs[i][k], NULL, 0));
                Record rec;
                record_encode(&rec, pos, k == 0 ? 400 : 0, 10, game++, k == 0 ? RESULT_WHITE_WIN : RESULT_DRAW);
                fwrite(&rec, sizeof rec, 1, f);
            }
    fclose(f);
    TrainConfig cfg;
    train_config_defaults(&cfg);
    cfg.data = data, cfg.out = out;
    cfg.epochs = 30, cfg.batch = 64, cfg.lr = 2e-3f, cfg.warmup_steps = 0, cfg.threads = 2;
    cfg.holdout = 0, cfg.k = 200, cfg.lambda = 1.0f, cfg.progress_seconds = 0, cfg.compare_positions = 0;
    cfg.row_weight_decay = 1.0f / cfg.lr;
    TrainReport rep;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(nnue_load_file(out, err, sizeof err), "%s", err);
    long worst = 1L << 40;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        static int acc[2][2][NNUE_L1];
        for (int k = 0; k < 2; k++) {
            CHECK(pos_set_fen(pos, pairs[i][k], NULL, 0));
            clipped_accumulators(pos, acc[k]);
        }
        long distance = 0;
        for (int persp = 0; persp < 2; persp++)
            for (int l = 0; l < NNUE_L1; l++) distance += labs((long)acc[0][persp][l] - acc[1][persp][l]);
        if (distance < worst) worst = distance;
    }
    /* 512 lanes of 0..127: a few units per lane on average is a clear difference */
    CHECK_MSG(worst > 1000, "smallest accumulator distance between a position and its king-swapped twin: %ld", worst);
    printf("    smallest accumulator L1 distance between king-swapped twins: %ld\n", worst);
    free(pos);
    nnue_unload();
    remove(data), remove(out);
}

/* The stable-then-decay schedule: the rate stays at its peak after warm-up, falls linearly to
 * the final share over the decay, and stays there. */
TEST(train, stable_then_decay_schedule_shape) {
    LrSchedule s = {1e-3f, 0.1f, 10, 1000, 500, 100};
    CHECK(fabsf(lr_schedule_at(&s, 4) - 5e-4f) < 1e-9f);
    CHECK(fabsf(lr_schedule_at(&s, 200) - 1e-3f) < 1e-9f);
    CHECK(fabsf(lr_schedule_at(&s, 499) - 1e-3f) < 1e-9f);
    CHECK(fabsf(lr_schedule_at(&s, 550) - 5.5e-4f) < 1e-8f);
    CHECK(fabsf(lr_schedule_at(&s, 600) - 1e-4f) < 1e-9f);
    CHECK(fabsf(lr_schedule_at(&s, 900) - 1e-4f) < 1e-9f);
}

/* --plateau: on a small set the validation loss stops improving long before 40 epochs; the
 * final decay then starts at that check and the run ends when it is done, so the exported
 * weights are those of a fully decayed rate. */
TEST(train, plateau_starts_the_final_decay_early_and_ends_the_run) {
    char out[128], err[256];
    temp_path(out, sizeof out, "plateau");
    TrainConfig cfg;
    small_config(&cfg, out);
    cfg.epochs = 40, cfg.checks_per_epoch = 2, cfg.plateau = 2, cfg.decay_epochs = 1.0;
    cfg.compare_positions = 0;
    TrainReport rep;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    TrainData data;
    CHECK(train_data_load(&data, cfg.data, cfg.holdout, NULL, err, sizeof err));
    int64_t per_epoch = (int64_t)((data.train_count + (size_t)cfg.batch - 1) / (size_t)cfg.batch);
    train_data_free(&data);
    CHECK_MSG(rep.decay_start_step > 0 && rep.decay_start_step < per_epoch * (cfg.epochs - 1),
              "decay started at step %lld of %lld", (long long)rep.decay_start_step, (long long)(per_epoch * cfg.epochs));
    CHECK_EQ_U64(rep.steps, rep.decay_start_step + per_epoch);
    CHECK(rep.epochs_run < cfg.epochs);
    nnue_unload();
    remove(out);
}

/* A data pool: --data DIR loads every .bin file in it, and PATH@W keeps about that share of a
 * file's games, whole games only. */
TEST(train, data_pool_directory_and_weights) {
    char dir[128], file[160], err[256];
    temp_path(dir, sizeof dir, "pool");
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s/a.bin", dir);
    size_t size = 0;
    unsigned char *bytes = test_read_file(test_data(), &size);
    FILE *f = fopen(file, "wb");
    CHECK(bytes && f);
    if (!bytes || !f) return;
    fwrite(bytes, 1, size, f);
    fclose(f);
    free(bytes);
    TrainData whole, pool, half;
    CHECK(train_data_load(&whole, test_data(), 0.0, NULL, err, sizeof err));
    CHECK_MSG(train_data_load(&pool, dir, 0.0, NULL, err, sizeof err), "%s", err);
    CHECK_EQ_U64(pool.count, whole.count);
    char weighted[200];
    snprintf(weighted, sizeof weighted, "%s@0.5", test_data());
    CHECK_MSG(train_data_load(&half, weighted, 0.0, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(half.train_games > 0 && half.train_games < whole.train_games && half.count < whole.count,
              "%zu of %zu games kept", half.train_games, whole.train_games);
    train_data_free(&whole), train_data_free(&pool), train_data_free(&half);
    TrainData bad;
    snprintf(weighted, sizeof weighted, "%s@1.5", test_data());
    CHECK(!train_data_load(&bad, weighted, 0.0, NULL, err, sizeof err) && strstr(err, "weight"));
    remove(file);
    CHECK(!train_data_load(&bad, dir, 0.0, NULL, err, sizeof err) && strstr(err, "no .bin"));
    rmdir(dir);
}

/* Paths the run will write are checked before any training, and integer flags refuse
 * fractions. */
TEST(train, unwritable_paths_fail_before_training) {
    char err[256];
    TrainConfig cfg;
    small_config(&cfg, "/nonexistent-squall-dir/o.nnue");
    TrainReport rep;
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_MSG(strstr(err, "does not exist") && rep.epochs_run == 0, "%s", err);
    small_config(&cfg, NULL);
    cfg.checkpoint = "/tmp";
    CHECK(!train_run(&cfg, &rep, NULL, err, sizeof err));
    CHECK_MSG(strstr(err, "is a directory") && rep.epochs_run == 0, "%s", err);
    char *argv[] = {"train", "--data", (char *)test_data(), "--out", "/tmp/x.nnue", "--threads", "1.5", NULL};
    CHECK_EQ_U64(train_main(7, argv), 2);
}

/* --epochs 0 without --out only scores the starting point on the holdout; any training needs --out. */
TEST(train, zero_epochs_without_out_only_scores) {
    char err[256];
    TrainConfig cfg;
    small_config(&cfg, NULL);
    cfg.epochs = 0;
    TrainReport rep;
    CHECK_MSG(train_run(&cfg, &rep, NULL, err, sizeof err), "%s", err);
    CHECK(rep.epochs_run == 0 && rep.last_val_loss > 0 && rep.last_val_loss < 1);
    char *score[] = {"train", "--data", (char *)test_data(), "--epochs", "0", "--holdout", "0.2", NULL};
    CHECK_EQ_U64(train_main(7, score), 0);
    char *train[] = {"train", "--data", (char *)test_data(), "--epochs", "1", NULL};
    CHECK_EQ_U64(train_main(5, train), 2);
}

/* --dump refuses what is not a regular file (a device would never end) and flags a file that
 * ends mid-record. */
TEST(train, datagen_dump_refuses_devices_directories_and_partial_records) {
    FILE *null_out = fopen("/dev/null", "w");
    CHECK_EQ_U64(datagen_dump("/dev/zero", 2, null_out), 1);
    CHECK_EQ_U64(datagen_dump("/tmp", 2, null_out), 1);
    char path[128];
    temp_path(path, sizeof path, "partial");
    size_t size = 0;
    unsigned char *bytes = test_read_file(test_data(), &size);
    FILE *f = fopen(path, "wb");
    CHECK(bytes && f && size > 100);
    if (bytes && f) fwrite(bytes, 1, 100, f); /* three records and 4 bytes */
    if (f) fclose(f);
    free(bytes);
    CHECK_EQ_U64(datagen_dump(path, 0, null_out), 1);
    CHECK_EQ_U64(datagen_dump(test_data(), 0, null_out), 0);
    fclose(null_out);
    remove(path);
}

/* Share of all-zero 4-neuron input groups of L1 for the net in `path`, over the test data. */
static double zero_group_share_of(const char *path) {
    char err[256];
    TrainData data;
    if (!nnue_load_file(path, err, sizeof err) || !train_data_load(&data, test_data(), 0.0, NULL, err, sizeof err))
        return -1;
    double share = nnue_zero_group_share_on_data(nnue_current_net(), &data, 2000);
    train_data_free(&data);
    return share;
}

static void charge_activations(TrainConfig *cfg) { cfg->sparsity = 0.05f; }

/* --sparsity charges the loss for the accumulator's activations: the exported net has more
 * all-zero input groups (what the forward pass skips) than the same run without it. */
TEST(train, sparsity_term_zeroes_more_input_groups) {
    char nets[2][128], err[256];
    double loss[2] = {0, 0};
    CHECK_MSG(train_with_and_without("sparsity", NULL, charge_activations, nets, loss, err, sizeof err), "%s", err);
    const char *plain = nets[0], *sparse = nets[1];
    double share_plain = zero_group_share_of(plain), share_sparse = zero_group_share_of(sparse);
    printf("    all-zero input groups: %.1f%% without, %.1f%% with --sparsity 0.05 (validation loss %.5f, %.5f)\n",
           100 * share_plain, 100 * share_sparse, loss[0], loss[1]);
    /* relative as well as absolute: a few games make the shares move with the holdout split
     * (1.4 % and 8.1 %, or 1.1 % and 4.6 %) */
    CHECK_MSG(share_plain >= 0 && share_sparse >= 3 * share_plain && share_sparse > share_plain + 0.02,
              "zero groups %.3f without, %.3f with", share_plain, share_sparse);
    CHECK(loss[1] < 0.25);
    nnue_unload();
    remove(plain), remove(sparse);
}
