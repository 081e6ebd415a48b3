/* squall movefit: labels by search, the fit, the holdout comparison and the weights as C. */
#include "move_fit.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "evaluate.h"
#include "move_fit_model.h"
#include "move_guesser.h"
#include "movegen.h"
#include "movepicker.h"
#include "random.h"
#include "threads.h"
#include "datagen.h"
#include "train_data.h"

typedef struct {
    const char *data, *out;
    uint64_t positions, nodes, seed;
    double holdout;
    int threads, hash_mb;
    bool successor;         /* label the position after the search's move, not the record's own */
    MoveFitParams fit;
} MoveFitConfig;

/* ---------------- sampling ---------------- */

static int compare_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* want distinct entries of from[0..count) chosen uniformly (a partial Fisher-Yates shuffle of a
 * copy), in ascending order; returns how many (fewer when count is smaller). NULL on no memory. */
static uint32_t *sample(const uint32_t *from, size_t count, size_t want, uint64_t *rng, size_t *got) {
    if (want > count) want = count;
    uint32_t *pool = malloc((count ? count : 1) * sizeof *pool);
    if (!pool) return NULL;
    memcpy(pool, from, count * sizeof *pool);
    for (size_t i = 0; i < want; i++) {
        size_t j = i + (size_t)(splitmix64(rng) % (count - i));
        uint32_t tmp = pool[i];
        pool[i] = pool[j], pool[j] = tmp;
    }
    qsort(pool, want, sizeof *pool, compare_u32);
    *got = want;
    return pool;
}

/* ---------------- labels ---------------- */

/* A position the guesser should learn from: at least two legal moves and not drawn by lack of
 * material (records hold no mates, stalemates or rule draws; a successor may be one). */
static bool worth_a_label(const Position *pos) { return count_legal_moves(pos) >= 2 && !pos_insufficient_material(pos); }

static bool record_position(const Record *rec, Position *pos) {
    RecordPosition rp;
    char fen[128], err[128];
    if (!record_decode(rec, &rp)) return false;
    record_fen(&rp, fen, sizeof fen);
    return pos_set_fen(pos, fen, err, sizeof err);
}

typedef struct {
    const MoveFitConfig *cfg;
    const Record *records;
    const uint32_t *jobs;   /* record indices */
    Move *chosen;           /* per job: the search's move, MOVE_NONE for a position left out */
    Move *reached;          /* per job, successor labels: the move from the record's position */
    size_t count;
    atomic_size_t next, done;
    atomic_bool failed;
    EngineSettings settings;
} LabelWork;

static void *label_thread(void *arg) {
    LabelWork *w = arg;
    SearchWorker *worker = search_worker_create(w->cfg->hash_mb);
    if (!worker) {
        atomic_store(&w->failed, true);
        return NULL;
    }
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.nodes = w->cfg->nodes;
    static _Thread_local Position pos;
    for (size_t i; (i = atomic_fetch_add(&w->next, 1)) < w->count;) {
        w->chosen[i] = w->reached[i] = MOVE_NONE;
        if (!record_position(&w->records[w->jobs[i]], &pos)) continue;
        if (w->cfg->successor) {
            if (count_legal_moves(&pos) == 0) continue;
            search_worker_clear(worker);
            w->reached[i] = search_worker_run(worker, &pos, &limits, &w->settings).best;
            if (w->reached[i] == MOVE_NONE) continue;
            pos_make_move(&pos, w->reached[i]);
        }
        if (worth_a_label(&pos)) {
            search_worker_clear(worker); /* every search from the same state: independent of threads and order */
            w->chosen[i] = search_worker_run(worker, &pos, &limits, &w->settings).best;
        }
        size_t done = atomic_fetch_add(&w->done, 1) + 1;
        if (done % 5000 == 0) fprintf(stderr, "movefit: %zu of %zu positions searched\n", done, w->count);
    }
    search_worker_destroy(worker);
    return NULL;
}

static bool label_all(LabelWork *w, int threads) {
    pthread_t tid[256];
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tid[started], NULL, label_thread, w)) break;
    if (started == 0) label_thread(w);
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    return !atomic_load(&w->failed);
}

/* ---------------- comparison and output ---------------- */

/* The row the move picker would return first at the root with no TT move, killers or history:
 * the ordering the search has before it has learnt anything about the position. */
static int picker_first_row(const Position *pos, const History *empty) {
    MovePicker mp;
    const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
    movepicker_init(&mp, pos, empty, MOVE_NONE, no_killers, MOVE_NONE, NULL, NULL, NULL, 0);
    Move first = movepicker_next(&mp, false);
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == first) return i;
    return -1;
}

static double percent(double part, double whole) { return whole > 0 ? 100.0 * part / whole : 0.0; }

static void print_weights(FILE *out, const MoveFitConfig *cfg, const int weight[MOVE_FEATURE_COUNT], int train,
                          int holdout, double guesser_top1) {
    fprintf(out, "/* squall movefit --data %s --positions %" PRIu64 " --nodes %" PRIu64 " --seed %" PRIu64 " --label %s:\n"
                 " * %d training and %d held-out positions, held-out top-1 %.1f%% */\n",
            cfg->data, cfg->positions, cfg->nodes, cfg->seed, cfg->successor ? "successor" : "record", train, holdout,
            guesser_top1);
    fprintf(out, "const int move_guesser_weights[MOVE_FEATURE_COUNT] = {\n");
    for (int k = 0; k < MOVE_FEATURE_COUNT; k++)
        fprintf(out, "    %d, /* %s: %.4f logits */\n", weight[k], move_feature_names[k], (double)weight[k] / MOVE_GUESSER_SCALE);
    fprintf(out, "};\n");
}

static int run_fit(const MoveFitConfig *cfg) {
    TrainData data;
    char err[256];
    if (!train_data_load(&data, cfg->data, cfg->holdout, stderr, err, sizeof err)) {
        fprintf(stderr, "movefit: %s\n", err);
        return 1;
    }
    uint64_t rng = cfg->seed ^ 0x4D4F564546495431ULL; /* "MOVEFIT1" */
    size_t want_holdout = (size_t)llround((double)cfg->positions * cfg->holdout), n_train = 0, n_holdout = 0;
    if (want_holdout > cfg->positions) want_holdout = cfg->positions;
    uint32_t *train = sample(data.train, data.train_count, cfg->positions - want_holdout, &rng, &n_train);
    uint32_t *holdout = sample(data.holdout, data.holdout_count, want_holdout, &rng, &n_holdout);
    size_t count = n_train + n_holdout;
    uint32_t *jobs = malloc((count ? count : 1) * sizeof *jobs);
    Move *chosen = malloc((count ? count : 1) * sizeof *chosen);
    Move *reached = malloc((count ? count : 1) * sizeof *reached);
    int *picker_first = malloc((count ? count : 1) * sizeof *picker_first);
    int *use = malloc((count ? count : 1) * sizeof *use);
    History *empty = calloc(1, sizeof *empty);
    int status = 1;
    MoveFitSet set;
    move_fit_set_init(&set);
    if (!train || !holdout || !jobs || !chosen || !reached || !picker_first || !use || !empty) {
        fprintf(stderr, "movefit: out of memory\n");
        goto done;
    }
    memcpy(jobs, train, n_train * sizeof *jobs);
    memcpy(jobs + n_train, holdout, n_holdout * sizeof *jobs);

    LabelWork work = {.cfg = cfg, .records = data.records, .jobs = jobs, .chosen = chosen, .reached = reached, .count = count,
                      .settings = ENGINE_SETTINGS_DEFAULT};
    fprintf(stderr, "movefit: labelling %zu %spositions (%zu training, %zu held out) at %" PRIu64 " nodes, %s, %d threads\n",
            count, cfg->successor ? "successor " : "", n_train, n_holdout, cfg->nodes, evaluate_name(&work.settings), cfg->threads);
    if (!label_all(&work, cfg->threads)) {
        fprintf(stderr, "movefit: cannot create a search worker (out of memory)\n");
        goto done;
    }

    int train_positions = 0, holdout_positions = 0;
    static Position pos;
    for (size_t i = 0; i < count; i++) {
        if (chosen[i] == MOVE_NONE || !record_position(&data.records[jobs[i]], &pos)) continue;
        if (reached[i] != MOVE_NONE) pos_make_move(&pos, reached[i]);
        picker_first[set.positions] = picker_first_row(&pos, empty);
        if (!move_fit_set_add(&set, &pos, chosen[i])) {
            fprintf(stderr, "movefit: out of memory (or the search chose an illegal move) at position %zu\n", i);
            goto done;
        }
        if (i < n_train) train_positions++;
        else holdout_positions++;
    }
    /* the training positions come first in the set, then the held-out ones */
    for (int p = 0; p < set.positions; p++) use[p] = p;
    if (train_positions == 0) {
        fprintf(stderr, "movefit: no usable training position\n");
        goto done;
    }
    double weight[MOVE_FEATURE_COUNT];
    move_fit_train(&set, use, train_positions, &cfg->fit, weight, stderr);
    int fixed[MOVE_FEATURE_COUNT];
    move_fit_quantize(weight, fixed);

    /* top-1 of each way of guessing, on the held-out positions (and the guesser's on training) */
    double guesser = 0, first_legal = 0, picker = 0, random_pick = 0, guesser_train = 0;
    for (int p = 0; p < set.positions; p++) {
        int label = set.label[p], n = set.first[p + 1] - set.first[p];
        if (p < train_positions) {
            guesser_train += move_fit_top_row(&set, p, fixed) == label;
            continue;
        }
        guesser += move_fit_top_row(&set, p, fixed) == label;
        first_legal += label == 0;
        picker += picker_first[p] == label;
        random_pick += 1.0 / n; /* the expected hit rate of a uniform draw */
    }
    double moves = 0;
    for (int p = train_positions; p < set.positions; p++) moves += set.first[p + 1] - set.first[p];
    double h = holdout_positions;
    printf("movefit: %d training positions, %d held out (%.0f%% of games), %s, labels by %" PRIu64 "-node searches\n",
           train_positions, holdout_positions, 100 * cfg->holdout,
           cfg->successor ? "each the position after the search's move in a record" : "the records' own positions", cfg->nodes);
    printf("movefit: loss (mean -log p of the label): training %.4f, held out %.4f; %.1f legal moves per held-out position\n",
           move_fit_loss(&set, use, train_positions, weight), move_fit_loss(&set, use + train_positions, holdout_positions, weight),
           h > 0 ? moves / h : 0.0);
    printf("top-1 on the held-out positions (the move the search chose, guessed first):\n");
    printf("  move guesser (the fixed-point weights below)          %5.1f%%   (training %.1f%%)\n", percent(guesser, h),
           percent(guesser_train, train_positions));
    printf("  root order before any search (first legal move)       %5.1f%%\n", percent(first_legal, h));
    printf("  move picker with no TT move, killers or history       %5.1f%%\n", percent(picker, h));
    printf("  a uniformly random legal move (expected)              %5.1f%%\n", percent(random_pick, h));
    print_weights(stdout, cfg, fixed, train_positions, holdout_positions, percent(guesser, h));
    if (cfg->out) {
        FILE *f = fopen(cfg->out, "w");
        if (!f) {
            fprintf(stderr, "movefit: cannot write '%s': %s\n", cfg->out, strerror(errno));
            goto done;
        }
        print_weights(f, cfg, fixed, train_positions, holdout_positions, percent(guesser, h));
        if (fclose(f)) {
            fprintf(stderr, "movefit: cannot write '%s': %s\n", cfg->out, strerror(errno));
            goto done;
        }
    }
    status = 0;
done:
    move_fit_set_free(&set);
    free(train);
    free(holdout);
    free(jobs);
    free(chosen);
    free(reached);
    free(picker_first);
    free(use);
    free(empty);
    train_data_free(&data);
    return status;
}

/* ---------------- command line ---------------- */

void move_fit_usage(FILE *out) {
    fprintf(out, "usage: squall movefit --data FILE[,FILE...] [--positions N] [--nodes K] [--out FILE]\n"
                    "         [--holdout F] [--threads T] [--seed S] [--hash MB] [--iterations I]\n"
                    "         [--label successor|record]\n");
}

static int usage(void) {
    move_fit_usage(stderr);
    return 2;
}


int move_fit_main(int argc, char **argv) {
    MoveFitConfig cfg = {.positions = 30000, .nodes = 1000, .seed = 1, .holdout = 0.1, .threads = 1, .hash_mb = 2,
                         .successor = true, .fit = MOVE_FIT_PARAMS_DEFAULT};
    for (int i = 1; i < argc; i += 2) { /* each flag takes one value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        bool ok = v != NULL;
        if (!strcmp(a, "--data")) cfg.data = v;
        else if (!strcmp(a, "--out")) cfg.out = v;
        else if (!strcmp(a, "--positions")) ok = ok && parse_u64(v, 1, 100000000, &cfg.positions);
        else if (!strcmp(a, "--nodes")) ok = ok && parse_u64(v, 1, UINT64_MAX, &cfg.nodes);
        else if (!strcmp(a, "--seed")) ok = ok && parse_u64(v, 0, UINT64_MAX, &cfg.seed);
        else if (!strcmp(a, "--threads")) ok = ok && parse_u64(v, 1, 256, &n), cfg.threads = (int)n;
        else if (!strcmp(a, "--hash")) ok = ok && parse_u64(v, 1, 65536, &n), cfg.hash_mb = (int)n;
        else if (!strcmp(a, "--iterations")) ok = ok && parse_u64(v, 1, 100000, &n), cfg.fit.iterations = (int)n;
        else if (!strcmp(a, "--label")) ok = ok && (!strcmp(v, "successor") || !strcmp(v, "record")), cfg.successor = ok && !strcmp(v, "successor");
        else if (!strcmp(a, "--holdout")) {
            char *end;
            cfg.holdout = ok ? strtod(v, &end) : 0;
            ok = ok && *v && !*end && cfg.holdout > 0 && cfg.holdout < 1;
        } else {
            fprintf(stderr, "movefit: unknown flag '%s'\n", a);
            return usage();
        }
        if (!ok) {
            fprintf(stderr, "movefit: bad or missing value for %s\n", a);
            return usage();
        }
    }
    if (!cfg.data) {
        fprintf(stderr, "movefit: --data is required\n");
        return usage();
    }
    return run_fit(&cfg);
}
