/* squall tune: SPSA over the search constants, by self-play inside the binary.
 *
 * Iteration k perturbs every tuned constant by +-c_k (random signs), plays a game pair
 * between the two perturbed sets (one opening, each set once with each colour) and moves
 * the constants toward the set that scored better by a_k / c_k per game won. The players
 * are separate searchers (a SearchWorker each: own TT and histories) whose constants travel
 * in their EngineSettings, so pairs run in parallel on --threads. Pairs run in batches that
 * all start from the same values and are applied in iteration order: with a node limit a
 * run is reproducible from its seed for a given thread count. A checkpoint after every batch
 * lets a run that was stopped or killed continue where its last batch ended. */
#include "tune.h"

#ifndef SQUALL_TUNE
#include <stdio.h>

static const char *const tune_build_note = "tune: this build has its search constants compiled in; build the tuner with make TUNE=1\n";

void tune_usage(FILE *out) { fputs(tune_build_note, out); }

int tune_main(int argc, char **argv) {
    (void)argc, (void)argv;
    fputs(tune_build_note, stderr);
    return 2;
}
#else
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "evaluate.h"
#include "game_record.h"
#include "nnue.h"
#include "notation.h"
#include "random.h"
#include "threads.h"

#define OPENING_MAX_PLIES 64
#define PAIRS_PER_THREAD 2          /* a batch: enough pairs that threads rarely wait for one long game */
#define MOVE_OVERHEAD_MS 5          /* in-process: only the clock's own granularity to cover */
/* Adjudication on the scores both players report (white's view), as match runners do. */
#define RESIGN_SCORE 600
#define RESIGN_PLIES 6              /* three moves of each side */
#define DRAW_MIN_PLY 68
#define DRAW_SCORE 20
#define DRAW_PLIES 16
#define CHECKPOINT_MAGIC "squall-tune-checkpoint 1"

typedef struct {
    Move moves[OPENING_MAX_PLIES];
    int count;
} Opening;

/* The two players of one thread: [0] plays the plus perturbation, [1] the minus one. */
typedef struct {
    SearchWorker *worker[2];
    GameRecord game;
} Seat;

typedef struct {
    const TuneConfig *cfg;
    const TuneState *state;
    const Opening *openings;
    int opening_count, opening_offset;
    int batch_first, batch_size;   /* pairs batch_first .. batch_first + batch_size - 1 */
    atomic_int next;               /* index in the batch of the next pair to play */
    int *results;                  /* per pair of the batch: wins minus losses of the plus side */
    int *draws, *time_losses;
} Batch;

void tune_config_defaults(TuneConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->iterations = 1000;
    cfg->threads = 1;
    cfg->seed = 1;
    cfg->base_ms = 5000;
    cfg->inc_ms = 50;
    cfg->hash_mb = 16;
    cfg->max_plies = 400;
    cfg->r_end = 0.002;
    cfg->a_ratio = 0.1;
    cfg->alpha = 0.602;
    cfg->gamma = 0.101;
    cfg->progress_seconds = 10;
    cfg->settings = (EngineSettings)ENGINE_SETTINGS_DEFAULT;
}

/* ---------- random signs and SPSA gains ---------- */

/* The perturbation signs of pair k: one random bit per tuned constant. */
static void pair_signs(uint64_t seed, int k, int count, int *sign) {
    uint64_t s = seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ULL);
    uint64_t bits = 0;
    for (int i = 0; i < count; i++) {
        if (i % 64 == 0) bits = splitmix64(&s);
        sign[i] = (bits >> (i % 64)) & 1 ? 1 : -1;
    }
}

/* Classic SPSA schedules, set from the final step c_end (the table's step) and the final
 * learning rate r_end: c_k = c / (k+1)^gamma, a_k = a / (A+k+1)^alpha, with c and a chosen
 * so the last pair has c_k = c_end and a_k = r_end * c_end^2. */
static void pair_gains(const TuneConfig *cfg, int tunable, int k, double *a_k, double *c_k) {
    double n = cfg->iterations, big_a = cfg->a_ratio * n, c_end = search_tunables[tunable].step;
    double c = c_end * pow(n, cfg->gamma);
    double a = cfg->r_end * c_end * c_end * pow(big_a + n, cfg->alpha);
    *c_k = c / pow(k + 1, cfg->gamma);
    *a_k = a / pow(big_a + k + 1, cfg->alpha);
}

static double clamp_to_range(double v, int tunable) {
    const TunableInfo *t = &search_tunables[tunable];
    return v < t->min ? t->min : v > t->max ? t->max : v;
}

/* The constants one player of pair k searches with: the current values moved by +-c_k.
 * Both sides must stay in range, or a constant near a bound would get a one-sided pair
 * (only the side away from the bound moving) and a gradient biased away from the bound:
 * the centre of the pair moves in from the bound until both sides fit. */
static void perturbed_settings(const TuneConfig *cfg, const TuneState *st, int k, int direction, EngineSettings *out) {
    int sign[SEARCH_TUNABLE_COUNT];
    pair_signs(cfg->seed, k, st->count, sign);
    *out = cfg->settings;
    for (int i = 0; i < st->count; i++) {
        const TunableInfo *t = &search_tunables[st->tunable[i]];
        double a_k, c_k;
        pair_gains(cfg, st->tunable[i], k, &a_k, &c_k);
        double low = t->min + c_k, high = t->max - c_k;
        double centre = low > high ? (t->min + t->max) / 2.0 : st->theta[i] < low ? low : st->theta[i] > high ? high : st->theta[i];
        long v = lround(clamp_to_range(centre + direction * sign[i] * c_k, st->tunable[i]));
        settings_set_param(out, st->tunable[i], (int)v);
    }
}

void tune_pair_settings(const TuneConfig *cfg, const TuneState *st, int k, EngineSettings pair[2]) {
    perturbed_settings(cfg, st, k, +1, &pair[0]);
    perturbed_settings(cfg, st, k, -1, &pair[1]);
}

/* ---------- games ---------- */

/* White's points minus black's for a finished game: +1, 0 or -1. */
static int status_points(GameStatus status) {
    return status == GAME_WHITE_MATES ? 1 : status == GAME_BLACK_MATES ? -1 : 0;
}

/* Plays one game from the opening, settings[0] with plus_color. Returns the plus side's
 * result: +1 win, 0 draw, -1 loss; *time_losses counts a loss on time. */
static int play_game(Seat *seat, const TuneConfig *cfg, const Opening *o, const EngineSettings settings[2], int plus_color,
                     int *time_losses) {
    GameRecord *g = &seat->game;
    game_free(g); /* game_set is not for threads (it builds the game in a static position) */
    game_init(g);
    for (int i = 0; i < o->count; i++) game_push(g, o->moves[i]);
    for (int p = 0; p < 2; p++) search_worker_clear(seat->worker[p]);
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.nodes = cfg->nodes;
    limits.move_overhead_ms = cfg->nodes ? 0 : MOVE_OVERHEAD_MS;
    int64_t clock[COLOR_NB] = {cfg->base_ms, cfg->base_ms};
    int resign_run = 0, resign_sign = 0, draw_run = 0;
    int white_points = 0;
    for (int ply = o->count;; ply++) {
        GameStatus status = game_status(g);
        if (status != GAME_ONGOING) {
            white_points = status_points(status);
            break;
        }
        if (ply >= cfg->max_plies) break;
        int side = g->pos.side, player = side == plus_color ? 0 : 1;
        if (!cfg->nodes) {
            limits.time[WHITE] = clock[WHITE], limits.time[BLACK] = clock[BLACK];
            limits.inc[WHITE] = limits.inc[BLACK] = cfg->inc_ms;
        }
        double start = time_now_seconds() * 1e3;
        SearchResult r = search_worker_run(seat->worker[player], &g->pos, &limits, &settings[player]);
        if (!cfg->nodes) {
            clock[side] -= (int64_t)(time_now_seconds() * 1e3 - start);
            if (clock[side] < 0) {
                white_points = side == WHITE ? -1 : 1;
                ++*time_losses;
                break;
            }
            clock[side] += cfg->inc_ms;
        }
        if (r.best == MOVE_NONE) break; /* cannot happen with legal moves: end the game as a draw */
        int white_score = side == WHITE ? r.score : -r.score;
        int sign = white_score >= RESIGN_SCORE ? 1 : white_score <= -RESIGN_SCORE ? -1 : 0;
        resign_run = sign != 0 && sign == resign_sign ? resign_run + 1 : sign != 0;
        resign_sign = sign;
        draw_run = ply >= DRAW_MIN_PLY && abs(r.score) <= DRAW_SCORE ? draw_run + 1 : 0;
        if (resign_run >= RESIGN_PLIES) {
            white_points = sign;
            break;
        }
        if (draw_run >= DRAW_PLIES) break;
        game_push(g, r.best);
    }
    return plus_color == WHITE ? white_points : -white_points;
}

static void *batch_thread(void *arg) {
    void **args = arg;
    Batch *b = args[0];
    Seat *seat = args[1];
    for (;;) {
        int j = atomic_fetch_add(&b->next, 1);
        if (j >= b->batch_size) break;
        int k = b->batch_first + j;
        EngineSettings settings[2];
        tune_pair_settings(b->cfg, b->state, k, settings);
        const Opening *o = &b->openings[(b->opening_offset + k) % b->opening_count];
        b->time_losses[j] = 0;
        int first = play_game(seat, b->cfg, o, settings, WHITE, &b->time_losses[j]);
        int second = play_game(seat, b->cfg, o, settings, BLACK, &b->time_losses[j]);
        b->results[j] = first + second;
        b->draws[j] = (first == 0) + (second == 0);
    }
    return NULL;
}

/* ---------- openings ---------- */

static bool load_openings(const char *path, Opening **out, int *count, char *err, size_t err_size) {
    FILE *f = fopen(path, "r");
    if (!f) return snprintf(err, err_size, "cannot open openings '%s': %s", path, strerror(errno)), false;
    Opening *list = NULL;
    int n = 0, cap = 0, line_no = 0;
    char line[4096];
    bool ok = true;
    Position *pos = malloc(sizeof *pos);
    if (!pos) ok = false, snprintf(err, err_size, "out of memory");
    while (ok && fgets(line, sizeof line, f)) {
        line_no++;
        char *hash = strchr(line, '#');
        if (hash) *hash = 0;
        Opening o = {.count = 0};
        pos_set_startpos(pos);
        for (char *save, *tok = strtok_r(line, " \t\r\n", &save); tok && ok; tok = strtok_r(NULL, " \t\r\n", &save)) {
            Move m = move_from_uci(pos, tok);
            if (m == MOVE_NONE || o.count == OPENING_MAX_PLIES) {
                snprintf(err, err_size, "%s:%d: '%s' is %s", path, line_no, tok,
                         m == MOVE_NONE ? "not a legal move" : "past the longest opening we take");
                ok = false;
                break;
            }
            o.moves[o.count++] = m;
            pos_make_move(pos, m);
        }
        if (!ok || o.count == 0) continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            Opening *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                snprintf(err, err_size, "out of memory");
                ok = false;
                break;
            }
            list = grown;
        }
        list[n++] = o;
    }
    free(pos);
    fclose(f);
    if (ok && n == 0) ok = false, snprintf(err, err_size, "'%s' holds no opening", path);
    if (!ok) {
        free(list);
        return false;
    }
    *out = list;
    *count = n;
    return true;
}

/* ---------- which constants, and the checkpoint ---------- */

static int tunable_by_name(const char *name, size_t len) {
    for (int i = 0; i < SEARCH_TUNABLE_COUNT; i++)
        if (strlen(search_tunables[i].name) == len && !strncmp(search_tunables[i].name, name, len)) return i;
    return -1;
}

static bool select_tunables(const TuneConfig *cfg, TuneState *st, char *err, size_t err_size) {
    st->count = 0;
    if (!cfg->param_names) {
        for (int i = 0; i < SEARCH_TUNABLE_COUNT; i++) st->tunable[st->count++] = i;
    } else {
        for (const char *p = cfg->param_names; *p;) {
            size_t len = strcspn(p, ",");
            int t = tunable_by_name(p, len);
            bool twice = false;
            for (int i = 0; i < st->count && t >= 0; i++) twice |= st->tunable[i] == t;
            if (t < 0 || twice) {
                snprintf(err, err_size, "--params: '%.*s' is %s", (int)len, p, t < 0 ? "not in the table" : "given twice");
                return false;
            }
            st->tunable[st->count++] = t;
            p += len + (p[len] == ',');
        }
    }
    if (!st->count) return snprintf(err, err_size, "--params names no constant"), false;
    for (int i = 0; i < st->count; i++) st->theta[i] = search_tunables[st->tunable[i]].default_value;
    return true;
}

/* Everything that decides the run's course, so a checkpoint is resumed only by the same run. */
static void describe_run(const TuneConfig *cfg, char *out, size_t size) {
    snprintf(out, size,
             "iterations=%d seed=%" PRIu64 " nodes=%" PRIu64 " base_ms=%" PRId64 " inc_ms=%" PRId64
             " max_plies=%d r_end=%.17g a_ratio=%.17g alpha=%.17g gamma=%.17g eval=%s openings=%s",
             cfg->iterations, cfg->seed, cfg->nodes, cfg->base_ms, cfg->inc_ms, cfg->max_plies, cfg->r_end,
             cfg->a_ratio, cfg->alpha, cfg->gamma, evaluate_name(&cfg->settings), cfg->openings_path);
}

static bool save_checkpoint(const TuneConfig *cfg, const TuneState *st, char *err, size_t err_size) {
    char tmp[4096], run[2048];
    snprintf(tmp, sizeof tmp, "%s.tmp", cfg->checkpoint_path);
    describe_run(cfg, run, sizeof run);
    FILE *f = fopen(tmp, "w");
    if (!f) return snprintf(err, err_size, "cannot write '%s': %s", tmp, strerror(errno)), false;
    fprintf(f, "%s\nrun %s\ndone %d\ngames %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", CHECKPOINT_MAGIC, run,
            st->done, st->wins, st->draws, st->losses, st->time_losses);
    for (int i = 0; i < st->count; i++) fprintf(f, "param %s %.17g\n", search_tunables[st->tunable[i]].name, st->theta[i]);
    bool ok = fflush(f) == 0 && !ferror(f);
    ok = fclose(f) == 0 && ok;
    /* the rename replaces the old checkpoint only by a complete new one */
    if (!ok || rename(tmp, cfg->checkpoint_path) != 0)
        return snprintf(err, err_size, "cannot write checkpoint '%s': %s", cfg->checkpoint_path, strerror(errno)), false;
    return true;
}

/* Loads the checkpoint when it exists; refuses one written by another run. */
static bool load_checkpoint(const TuneConfig *cfg, TuneState *st, char *err, size_t err_size) {
    FILE *f = fopen(cfg->checkpoint_path, "r");
    if (!f) {
        if (errno == ENOENT) return true;
        return snprintf(err, err_size, "cannot read checkpoint '%s': %s", cfg->checkpoint_path, strerror(errno)), false;
    }
    char line[4096], run[2048];
    describe_run(cfg, run, sizeof run);
    int params = 0;
    bool ok = fgets(line, sizeof line, f) && !strncmp(line, CHECKPOINT_MAGIC "\n", sizeof CHECKPOINT_MAGIC);
    bool same_run = false;
    while (ok && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char name[128];
        double value;
        if (!strncmp(line, "run ", 4)) same_run = !strcmp(line + 4, run);
        else if (sscanf(line, "done %d", &st->done) == 1) continue;
        else if (sscanf(line, "games %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64, &st->wins, &st->draws, &st->losses,
                        &st->time_losses) == 4)
            continue;
        else if (sscanf(line, "param %127s %lf", name, &value) == 2 && params < st->count
                 && !strcmp(name, search_tunables[st->tunable[params]].name)) {
            st->theta[params] = clamp_to_range(value, st->tunable[params]);
            params++;
        } else ok = false;
    }
    fclose(f);
    if (!ok || params != st->count || st->done < 0 || st->done > cfg->iterations)
        return snprintf(err, err_size, "'%s' is not a checkpoint of this tune (its constants or format differ)",
                        cfg->checkpoint_path), false;
    if (!same_run)
        return snprintf(err, err_size, "'%s' was written by a run with other settings; resume with the same ones (%s)",
                        cfg->checkpoint_path, run), false;
    return true;
}

/* ---------- the run ---------- */

static void print_progress(FILE *log, const TuneConfig *cfg, const TuneState *st, int done_here, double seconds) {
    uint64_t games = st->wins + st->draws + st->losses;
    double rate = seconds > 0 ? 2.0 * done_here / seconds : 0;
    double eta = rate > 0 ? 2.0 * (cfg->iterations - st->done) / rate : 0;
    fprintf(log,
            "tune: pair %d/%d, %" PRIu64 " games (plus side +%" PRIu64 " =%" PRIu64 " -%" PRIu64 ", %" PRIu64
            " lost on time), %.2f games/s, %.0fs, eta %.0fs\n",
            st->done, cfg->iterations, games, st->wins, st->draws, st->losses, st->time_losses, rate, seconds, eta);
    fflush(log);
}

/* Applies the batch's pairs in iteration order: theta += a_k / c_k * result * sign. */
static void apply_batch(const TuneConfig *cfg, TuneState *st, const Batch *b) {
    int sign[SEARCH_TUNABLE_COUNT];
    for (int j = 0; j < b->batch_size; j++) {
        int k = b->batch_first + j;
        pair_signs(cfg->seed, k, st->count, sign);
        for (int i = 0; i < st->count; i++) {
            double a_k, c_k;
            pair_gains(cfg, st->tunable[i], k, &a_k, &c_k);
            st->theta[i] = clamp_to_range(st->theta[i] + a_k / c_k * b->results[j] * sign[i], st->tunable[i]);
        }
        int decisive = 2 - b->draws[j], won = (decisive + b->results[j]) / 2;
        st->wins += (uint64_t)won, st->losses += (uint64_t)(decisive - won), st->draws += (uint64_t)b->draws[j];
        st->time_losses += (uint64_t)b->time_losses[j];
        st->done = k + 1;
    }
}

static bool valid_config(const TuneConfig *cfg, char *err, size_t err_size) {
    if (!cfg->openings_path) return snprintf(err, err_size, "--openings FILE is required"), false;
    if (cfg->iterations < 1 || cfg->threads < 1 || cfg->threads > 256 || cfg->hash_mb < 1 || cfg->max_plies < 1)
        return snprintf(err, err_size, "need iterations >= 1, threads 1..256, hash >= 1, max plies >= 1"), false;
    if (!cfg->nodes && (cfg->base_ms < 1 || cfg->inc_ms < 0))
        return snprintf(err, err_size, "the clock needs a positive base time"), false;
    if (!(cfg->r_end > 0) || !(cfg->a_ratio >= 0) || !(cfg->alpha > 0) || !(cfg->gamma > 0))
        return snprintf(err, err_size, "SPSA gains need r_end > 0, A ratio >= 0, alpha > 0, gamma > 0"), false;
    return true;
}

static Seat *seats_create(const TuneConfig *cfg) {
    Seat *seats = calloc((size_t)cfg->threads, sizeof *seats);
    bool ok = seats != NULL;
    for (int s = 0; ok && s < cfg->threads; s++) {
        game_init(&seats[s].game);
        for (int p = 0; p < 2 && ok; p++) ok = (seats[s].worker[p] = search_worker_create(cfg->hash_mb)) != NULL;
    }
    if (ok) return seats;
    for (int s = 0; seats && s < cfg->threads; s++) {
        for (int p = 0; p < 2; p++) search_worker_destroy(seats[s].worker[p]);
        game_free(&seats[s].game);
    }
    free(seats);
    return NULL;
}

static void seats_destroy(Seat *seats, int count) {
    for (int s = 0; s < count; s++) {
        for (int p = 0; p < 2; p++) search_worker_destroy(seats[s].worker[p]);
        game_free(&seats[s].game);
    }
    free(seats);
}

bool tune_run(const TuneConfig *cfg, TuneState *st, FILE *log, char *err, size_t err_size) {
    memset(st, 0, sizeof *st);
    if (!valid_config(cfg, err, err_size) || !select_tunables(cfg, st, err, err_size)) return false;
    if (cfg->checkpoint_path && !load_checkpoint(cfg, st, err, err_size)) return false;
    Opening *openings;
    int opening_count;
    if (!load_openings(cfg->openings_path, &openings, &opening_count, err, err_size)) return false;
    search_init();
    int batch_cap = PAIRS_PER_THREAD * cfg->threads;
    Seat *seats = seats_create(cfg);
    pthread_t *threads = malloc((size_t)cfg->threads * sizeof *threads);
    void *(*args)[2] = malloc((size_t)cfg->threads * sizeof *args);
    Batch b = {.cfg = cfg, .state = st, .openings = openings, .opening_count = opening_count};
    b.results = malloc((size_t)batch_cap * sizeof *b.results);
    b.draws = malloc((size_t)batch_cap * sizeof *b.draws);
    b.time_losses = malloc((size_t)batch_cap * sizeof *b.time_losses);
    bool ok = seats && threads && args && b.results && b.draws && b.time_losses;
    if (!ok) snprintf(err, err_size, "out of memory for %d threads", cfg->threads);
    uint64_t offset_rng = cfg->seed;
    b.opening_offset = (int)(splitmix64(&offset_rng) % (uint64_t)opening_count);
    if (ok && log)
        fprintf(log, "tune: %d constants, %d pairs (%d done), %s, %d threads, %d openings, seed %" PRIu64 "\n", st->count,
                cfg->iterations, st->done, cfg->nodes ? "node-limited" : "on the clock", cfg->threads, opening_count, cfg->seed);
    double start = time_now_seconds() * 1e3, last_report = start;
    int first_done = st->done;
    int end = cfg->stop_after && cfg->stop_after < cfg->iterations ? cfg->stop_after : cfg->iterations;
    while (ok && st->done < end) {
        b.batch_first = st->done;
        b.batch_size = end - st->done < batch_cap ? end - st->done : batch_cap;
        atomic_store(&b.next, 0);
        int started = 0;
        for (int s = 0; s < cfg->threads && s < b.batch_size; s++) {
            args[s][0] = &b, args[s][1] = &seats[s];
            if (pthread_create(&threads[s], NULL, batch_thread, args[s]) != 0) break;
            started++;
        }
        if (!started) batch_thread((void *[2]){&b, &seats[0]}); /* no thread to be had: play here */
        for (int s = 0; s < started; s++) pthread_join(threads[s], NULL);
        apply_batch(cfg, st, &b);
        if (cfg->checkpoint_path) ok = save_checkpoint(cfg, st, err, err_size);
        double now = time_now_seconds() * 1e3;
        if (log && (now - last_report >= cfg->progress_seconds * 1e3 || st->done == cfg->iterations)) {
            print_progress(log, cfg, st, st->done - first_done, (now - start) / 1e3);
            last_report = now;
        }
    }
    st->stopped = ok && st->done < cfg->iterations;
    seats_destroy(seats, seats ? cfg->threads : 0);
    free(threads), free(args), free(b.results), free(b.draws), free(b.time_losses), free(openings);
    return ok;
}

void tune_print_table_lines(const TuneState *st, FILE *out) {
    for (int i = 0; i < st->count; i++) {
        const TunableInfo *t = &search_tunables[st->tunable[i]];
        char line[160];
        int n = snprintf(line, sizeof line, "    TUNABLE(%s, %ld, %d, %d, %d)", t->name, lround(st->theta[i]), t->min, t->max,
                         t->step);
        fprintf(out, "%s%*s\\\n", line, n < 104 ? 104 - n : 1, "");
    }
}

/* ---------- command line ---------- */

void tune_usage(FILE *out) {
    fprintf(out,
            "usage: squall tune --openings FILE [--iterations PAIRS] [--tc BASE+INC | --nodes N] [--threads T]\n"
            "         [--checkpoint FILE] [--stop-after PAIRS] [--params NAME,NAME...] [--seed S] [--hash MB] [--max-plies P]\n"
            "         [--r-end R] [--a-ratio F] [--alpha X] [--gamma X] [--eval classical|nnue] [--evalfile NET]\n"
            "         [--progress SECONDS]\n");
}

static int usage(void) {
    tune_usage(stderr);
    return 2;
}

static bool parse_long(const char *text, long long min, long long max, long long *out) {
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

static bool parse_double(const char *text, double *out) {
    if (!text || !*text) return false;
    char *end;
    double v = strtod(text, &end);
    if (*end || !isfinite(v)) return false;
    *out = v;
    return true;
}

/* "5+0.05": seconds per game + seconds per move. */
static bool parse_tc(const char *text, TuneConfig *cfg) {
    if (!text) return false;
    char *end;
    double base = strtod(text, &end), inc = 0;
    if (end == text || !isfinite(base) || base <= 0) return false;
    if (*end == '+') {
        const char *inc_text = end + 1;
        inc = strtod(inc_text, &end);
        if (end == inc_text || !isfinite(inc) || inc < 0) return false;
    }
    if (*end) return false;
    cfg->base_ms = llround(base * 1000), cfg->inc_ms = llround(inc * 1000);
    return true;
}

/* Fills cfg from the command line; the evaluator choice is left in *eval and *evalfile. */
static bool parse_arguments(int argc, char **argv, TuneConfig *cfg, const char **eval, const char **evalfile) {
    for (int i = 1; i < argc; i += 2) { /* each flag takes one value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        bool ok = v != NULL;
        if (!strcmp(a, "--openings")) cfg->openings_path = v;
        else if (!strcmp(a, "--checkpoint")) cfg->checkpoint_path = v;
        else if (!strcmp(a, "--params")) cfg->param_names = v;
        else if (!strcmp(a, "--iterations")) ok = ok && parse_long(v, 1, INT32_MAX, &n), cfg->iterations = (int)n;
        else if (!strcmp(a, "--stop-after")) ok = ok && parse_long(v, 1, INT32_MAX, &n), cfg->stop_after = (int)n;
        else if (!strcmp(a, "--threads")) ok = ok && parse_long(v, 1, 256, &n), cfg->threads = (int)n;
        else if (!strcmp(a, "--seed")) ok = ok && parse_long(v, 0, INT64_MAX, &n), cfg->seed = (uint64_t)n;
        else if (!strcmp(a, "--nodes")) ok = ok && parse_long(v, 1, INT64_MAX, &n), cfg->nodes = (uint64_t)n;
        else if (!strcmp(a, "--tc")) ok = ok && parse_tc(v, cfg);
        else if (!strcmp(a, "--hash")) ok = ok && parse_long(v, 1, 65536, &n), cfg->hash_mb = (int)n;
        else if (!strcmp(a, "--max-plies")) ok = ok && parse_long(v, 1, 100000, &n), cfg->max_plies = (int)n;
        else if (!strcmp(a, "--r-end")) ok = ok && parse_double(v, &cfg->r_end);
        else if (!strcmp(a, "--a-ratio")) ok = ok && parse_double(v, &cfg->a_ratio);
        else if (!strcmp(a, "--alpha")) ok = ok && parse_double(v, &cfg->alpha);
        else if (!strcmp(a, "--gamma")) ok = ok && parse_double(v, &cfg->gamma);
        else if (!strcmp(a, "--progress")) ok = ok && parse_double(v, &cfg->progress_seconds) && cfg->progress_seconds >= 0;
        else if (!strcmp(a, "--eval")) *eval = v;
        else if (!strcmp(a, "--evalfile")) *evalfile = v;
        else {
            fprintf(stderr, "tune: unknown argument '%s'\n", a);
            return false;
        }
        if (!ok) {
            fprintf(stderr, "tune: bad or missing value for %s\n", a);
            return false;
        }
    }
    return true;
}

int tune_main(int argc, char **argv) {
    TuneConfig cfg;
    tune_config_defaults(&cfg);
    const char *eval = NULL, *evalfile = NULL;
    if (!parse_arguments(argc, argv, &cfg, &eval, &evalfile)) return usage();
    char err[512];
    if (evalfile && !nnue_load_file(evalfile, err, sizeof err)) {
        fprintf(stderr, "tune: %s\n", err);
        return 2;
    }
    if (eval && !strcmp(eval, "classical")) cfg.settings.eval_mode = EVAL_MODE_CLASSICAL;
    else if (eval && strcmp(eval, "nnue")) {
        fprintf(stderr, "tune: --eval takes classical or nnue\n");
        return 2;
    }
    if (cfg.settings.eval_mode == EVAL_MODE_NNUE && !nnue_is_loaded()) {
        fprintf(stderr, "tune: the NNUE needs a net (none embedded; give --evalfile or --eval classical)\n");
        return 2;
    }
    TuneState st;
    if (!tune_run(&cfg, &st, stderr, err, sizeof err)) {
        fprintf(stderr, "tune: %s\n", err);
        return 1;
    }
    if (st.stopped) fprintf(stderr, "tune: stopped after pair %d of %d (--stop-after)\n", st.done, cfg.iterations);
    printf("/* squall tune: %d of %d pairs, %" PRIu64 " games; adopt only after an SPRT at 10+0.1 against the untuned build */\n",
           st.done, cfg.iterations, st.wins + st.draws + st.losses);
    tune_print_table_lines(&st, stdout);
    return 0;
}
#endif
