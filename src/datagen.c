/* Self-play data generation (see datagen.h for the contract, docs/datagen.md for the rules). */
#include "datagen.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "board.h"
#include "clock.h"
#include "evaluate.h"
#include "movegen.h"
#include "nnue.h"
#include "random.h"
#include "search.h"
#include "sha256.h"
#include "threads.h"
#include "train_record.h"
#include "version.h"

/* ---------------- random numbers ---------------- */

static uint64_t game_rng_seed(uint64_t seed, uint64_t game) {
    uint64_t s = seed * 0xD1B54A32D192ED03ULL + game;
    splitmix64(&s);
    return s ^ 0x4441544147454E31ULL; /* "DATAGEN1" */
}

/* ---------------- one game ---------------- */

typedef struct Game {
    uint64_t index;
    Record *records;
    size_t count, capacity;
    int result;
    struct Game *next; /* in the writer's list of finished games */
    DatagenStats stats; /* this game's share of the counters */
} Game;

static bool game_push(Game *g, const Position *pos, int score, int ply) {
    if (g->count == g->capacity) {
        size_t cap = g->capacity ? g->capacity * 2 : 256;
        Record *grown = realloc(g->records, cap * sizeof *grown);
        if (!grown) return false;
        g->records = grown, g->capacity = cap;
    }
    record_encode(&g->records[g->count++], pos, score, ply, (uint32_t)g->index, RESULT_DRAW);
    return true;
}

/* Plays random legal moves from the start position until a short search calls the result
 * balanced. Returns false if no opening was found. */
static bool play_opening(SearchWorker *worker, Position *pos, uint64_t *rng, const DatagenConfig *cfg, Game *g) {
    for (int attempt = 0; attempt < DATAGEN_OPENING_TRIES; attempt++) {
        pos_set_startpos(pos);
        int plies = cfg->random_plies;
        if (plies > 0) plies += (int)(splitmix64(rng) % 3) - 1; /* 8 +- 1 by default */
        bool dead_end = false;
        for (int i = 0; i < plies && !dead_end; i++) {
            MoveList list;
            generate_legal(pos, &list);
            if (list.count == 0) dead_end = true;
            else pos_make_move(pos, list.moves[splitmix64(rng) % (uint64_t)list.count]);
        }
        if (dead_end || count_legal_moves(pos) == 0) {
            g->stats.openings_rejected++;
            continue;
        }
        SearchLimits limits;
        search_limits_clear(&limits);
        limits.nodes = DATAGEN_OPENING_CHECK_NODES;
        SearchResult r = search_worker_run(worker, pos, &limits, &cfg->settings);
        if (r.best != MOVE_NONE && abs(r.score) <= DATAGEN_OPENING_MAX_SCORE) return true;
        g->stats.openings_rejected++;
    }
    return false;
}

/* Threefold repetition, fifty-move rule or no mating material: the game is drawn. */
static bool drawn_by_rule(const Position *pos, DatagenStats *st) {
    if (pos_is_draw_by_rule(pos, 0)) return st->ends_rule++, true;
    if (pos_insufficient_material(pos)) return st->ends_material++, true;
    return false;
}

/* Plays game g to its end; fills g->records (results set) and g->stats. false on out of memory
 * or when no balanced opening could be found (the game then has no records). */
static bool play_game(SearchWorker *worker, Position *pos, const DatagenConfig *cfg, Game *g) {
    uint64_t rng = game_rng_seed(cfg->seed, g->index);
    DatagenStats *st = &g->stats;
    search_worker_clear(worker); /* each game starts from the same worker state: no cross-game drift */
    if (!play_opening(worker, pos, &rng, cfg, g)) {
        g->result = RESULT_DRAW;
        return true;
    }
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.nodes = cfg->nodes;
    int resign_run = 0, resign_sign = 0, draw_run = 0;
    int result = -1;
    while (result < 0) {
        int ply = pos->game_ply;
        if (count_legal_moves(pos) == 0) {
            if (pos_in_check(pos)) result = pos->side == WHITE ? RESULT_BLACK_WIN : RESULT_WHITE_WIN, st->ends_mate++;
            else result = RESULT_DRAW, st->ends_stalemate++;
            break;
        }
        if (drawn_by_rule(pos, st)) {
            result = RESULT_DRAW;
            break;
        }
        if (ply >= DATAGEN_MAX_PLY) {
            result = RESULT_DRAW, st->ends_max_ply++;
            break;
        }
        SearchResult r = search_worker_run(worker, pos, &limits, &cfg->settings);
        st->nodes += r.nodes;
        st->plies++;
        if (r.best == MOVE_NONE) { /* cannot happen with legal moves; end the game rather than loop */
            result = RESULT_DRAW;
            break;
        }
        /* Only quiet, unforced positions with a heuristic score make good labels. */
        if (pos_in_check(pos)) st->skipped_check++;
        else if (pos_is_capture(pos, r.best) || move_kind(r.best) == MOVE_PROMOTION) st->skipped_noisy++;
        else if (score_is_mate(r.score)) st->skipped_mate++;
        else if (!game_push(g, pos, r.score, ply)) return false;

        /* Adjudication on the scores both sides report, seen from white. */
        int white_score = pos->side == WHITE ? r.score : -r.score;
        int sign = white_score >= DATAGEN_RESIGN_SCORE ? 1 : white_score <= -DATAGEN_RESIGN_SCORE ? -1 : 0;
        resign_run = sign != 0 && sign == resign_sign ? resign_run + 1 : sign != 0;
        resign_sign = sign;
        draw_run = ply >= DATAGEN_DRAW_MIN_PLY && abs(r.score) <= DATAGEN_DRAW_SCORE ? draw_run + 1 : 0;
        if (resign_run >= DATAGEN_RESIGN_PLIES) {
            result = sign > 0 ? RESULT_WHITE_WIN : RESULT_BLACK_WIN, st->ends_resign++;
            break;
        }
        if (draw_run >= DATAGEN_DRAW_PLIES) {
            result = RESULT_DRAW, st->ends_draw_adj++;
            break;
        }
        pos_make_move(pos, r.best);
    }
    g->result = result;
    for (size_t i = 0; i < g->count; i++) record_set_result(&g->records[i], result);
    st->games = 1;
    st->positions = g->count;
    st->wins[result]++;
    return true;
}

/* ---------------- threads and the ordered writer ---------------- */

/* Set from a signal handler: hand out no more games, finish the ones in progress, and end
 * the file on a whole game. A lock-free atomic is safe to store from a handler. */
static atomic_bool stop_requested;

void datagen_request_stop(void) { atomic_store(&stop_requested, true); }

typedef struct {
    const DatagenConfig *cfg;
    FILE *out;
    pthread_mutex_t lock;
    uint64_t next_game;     /* next index to hand out */
    uint64_t next_write;    /* the file holds exactly the games before this index */
    Game *finished;         /* finished games waiting for their predecessors */
    bool stop;              /* target reached or an error: hand out no more games */
    bool failed;
    char error[200];
    int running;            /* worker threads not yet done */
    DatagenStats total;     /* games written so far */
} Shared;

static void add_stats(DatagenStats *a, const DatagenStats *b) {
    a->games += b->games, a->positions += b->positions, a->plies += b->plies, a->nodes += b->nodes;
    for (int i = 0; i < 3; i++) a->wins[i] += b->wins[i];
    a->ends_mate += b->ends_mate, a->ends_stalemate += b->ends_stalemate, a->ends_rule += b->ends_rule;
    a->ends_material += b->ends_material, a->ends_resign += b->ends_resign, a->ends_draw_adj += b->ends_draw_adj;
    a->ends_max_ply += b->ends_max_ply;
    a->skipped_check += b->skipped_check, a->skipped_noisy += b->skipped_noisy, a->skipped_mate += b->skipped_mate;
    a->openings_rejected += b->openings_rejected;
}

static void game_free(Game *g) {
    if (!g) return;
    free(g->records);
    free(g);
}

static void fail_locked(Shared *sh, const char *why) {
    if (!sh->failed) snprintf(sh->error, sizeof sh->error, "%s", why);
    sh->failed = sh->stop = true;
}

/* Writes every finished game whose predecessors are all written. Called with the lock held. */
static void flush_in_order_locked(Shared *sh) {
    for (;;) {
        Game **link = &sh->finished, *g = NULL;
        for (; *link; link = &(*link)->next)
            if ((*link)->index == sh->next_write) {
                g = *link;
                *link = g->next;
                break;
            }
        if (!g) return;
        sh->next_write++;
        bool target_met = (sh->cfg->positions && sh->total.positions >= sh->cfg->positions) ||
                          (sh->cfg->games && sh->total.games >= sh->cfg->games);
        if (!target_met && !sh->failed) {
            if (g->count && fwrite(g->records, RECORD_SIZE, g->count, sh->out) != g->count)
                fail_locked(sh, "write to the output file failed");
            else add_stats(&sh->total, &g->stats);
            if (sh->cfg->positions && sh->total.positions >= sh->cfg->positions) sh->stop = true;
        }
        game_free(g);
    }
}

static void *worker_main(void *arg) {
    Shared *sh = arg;
    const DatagenConfig *cfg = sh->cfg;
    SearchWorker *worker = search_worker_create(cfg->hash_mb);
    Position *pos = malloc(sizeof *pos);
    if (!worker || !pos) {
        pthread_mutex_lock(&sh->lock);
        fail_locked(sh, "out of memory creating a search worker");
    } else {
        pthread_mutex_lock(&sh->lock);
    }
    for (;;) {
        if (sh->stop || atomic_load(&stop_requested) || (cfg->games && sh->next_game >= cfg->games)) break;
        uint64_t index = sh->next_game++;
        pthread_mutex_unlock(&sh->lock);

        Game *g = calloc(1, sizeof *g);
        bool ok = g != NULL;
        if (ok) {
            g->index = index;
            ok = play_game(worker, pos, cfg, g);
        }
        pthread_mutex_lock(&sh->lock);
        if (!ok) {
            game_free(g);
            fail_locked(sh, "out of memory while playing");
            break;
        }
        g->next = sh->finished;
        sh->finished = g;
        flush_in_order_locked(sh);
    }
    sh->running--;
    pthread_mutex_unlock(&sh->lock);
    free(pos);
    search_worker_destroy(worker);
    return NULL;
}

void datagen_config_defaults(DatagenConfig *cfg) {
    memset(cfg, 0, sizeof *cfg);
    cfg->threads = 1;
    cfg->nodes = DATAGEN_DEFAULT_NODES;
    cfg->seed = 1;
    cfg->random_plies = DATAGEN_DEFAULT_RANDOM_PLIES;
    cfg->hash_mb = DATAGEN_DEFAULT_HASH_MB;
    cfg->progress_seconds = DATAGEN_PROGRESS_SECONDS;
    cfg->manifest_seconds = DATAGEN_MANIFEST_SECONDS;
    cfg->settings = (EngineSettings)ENGINE_SETTINGS_DEFAULT;
}

void datagen_describe_evaluator(const EngineSettings *settings, char *out, size_t size) {
    if (!evaluate_uses_nnue(settings)) {
        snprintf(out, size, "classical");
        return;
    }
    const size_t bytes = nnue_net_file_size(nnue_current_net());
    uint8_t *image = malloc(bytes);
    char hex[65] = "unknown";
    if (image) {
        nnue_net_write(nnue_current_net(), image); /* the same bytes as the net's file */
        sha256_hex(image, bytes, hex);
        free(image);
    }
    int at = snprintf(out, size, "nnue net=%s name=", hex);
    for (const char *c = nnue_net_name(); at >= 0 && (size_t)at + 1 < size && *c; c++) /* one token: no blanks */
        out[at++] = *c == ' ' || *c == '\t' || *c == '=' ? '_' : *c;
    if (at >= 0 && (size_t)at < size) out[at] = '\0';
}

static void utc_text(time_t t, char out[32]) {
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool datagen_write_manifest(const DatagenConfig *cfg, const DatagenStats *stats, time_t started, const char *status) {
    char path[4096], tmp[4112], start_text[32], now_text[32];
    if (snprintf(path, sizeof path, "%s.manifest", cfg->out_path) >= (int)sizeof path) return false;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    utc_text(started, start_text);
    utc_text(time(NULL), now_text);
    FILE *f = fopen(tmp, "w");
    if (!f) return false;
    fprintf(f, "file=%s generator=squall-%s eval=%s nodes=%" PRIu64 " seed=%" PRIu64 " random_plies=%d threads=%d "
               "positions=%" PRIu64 " games=%" PRIu64 " started=%s updated=%s status=%s\n",
            strrchr(cfg->out_path, '/') ? strrchr(cfg->out_path, '/') + 1 : cfg->out_path, squall_version,
            cfg->evaluator ? cfg->evaluator : "unknown", cfg->nodes, cfg->seed, cfg->random_plies, cfg->threads,
            stats->positions, stats->games, start_text, now_text, status);
    bool ok = fclose(f) == 0;
    return ok && rename(tmp, path) == 0;
}

static void print_progress(FILE *log, const DatagenStats *t, double seconds, bool final) {
    if (!log) return;
    double s = seconds > 1e-9 ? seconds : 1e-9;
    fprintf(log, "datagen: %s%" PRIu64 " games, %" PRIu64 " positions, %.0f positions/s, %.0f nodes/s, %.0fs\n",
            final ? "done: " : "", t->games, t->positions, (double)t->positions / s, (double)t->nodes / s, seconds);
    fflush(log);
}

bool datagen_run(const DatagenConfig *cfg, DatagenStats *stats, FILE *log, char *err, size_t err_size) {
    if (!cfg->out_path || (!cfg->games && !cfg->positions) || cfg->threads < 1 || cfg->threads > 256 ||
        cfg->nodes < 1 || cfg->random_plies < 0 || cfg->random_plies > 40 || cfg->hash_mb < 1) {
        snprintf(err, err_size, "bad settings: need --out, --games or --positions, threads 1..256, nodes >= 1");
        return false;
    }
    Shared sh;
    memset(&sh, 0, sizeof sh);
    sh.cfg = cfg;
    sh.out = fopen(cfg->out_path, "wb");
    if (!sh.out) {
        snprintf(err, err_size, "cannot create '%s': %s", cfg->out_path, strerror(errno));
        return false;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_t *tids = calloc((size_t)cfg->threads, sizeof *tids);
    double start = time_now_seconds();
    time_t start_time = time(NULL);
    if (cfg->manifest) datagen_write_manifest(cfg, &sh.total, start_time, "running");
    int started = 0;
    for (int i = 0; tids && i < cfg->threads; i++) {
        pthread_mutex_lock(&sh.lock);
        sh.running++;
        pthread_mutex_unlock(&sh.lock);
        if (pthread_create(&tids[i], NULL, worker_main, &sh) != 0) {
            pthread_mutex_lock(&sh.lock);
            sh.running--;
            fail_locked(&sh, "cannot start a thread");
            pthread_mutex_unlock(&sh.lock);
            break;
        }
        started++;
    }
    double next_report = start + cfg->progress_seconds;
    double next_manifest = start + cfg->manifest_seconds;
    bool stop_announced = false;
    for (;;) {
        struct timespec nap = {0, 50 * 1000 * 1000};
        nanosleep(&nap, NULL);
        pthread_mutex_lock(&sh.lock);
        int running = sh.running;
        DatagenStats snapshot = sh.total;
        pthread_mutex_unlock(&sh.lock);
        if (!running) break;
        if (!stop_announced && atomic_load(&stop_requested) && log) {
            fprintf(log, "datagen: stop requested, finishing the games in progress\n");
            fflush(log);
            stop_announced = true;
        }
        double now = time_now_seconds();
        if (cfg->progress_seconds > 0 && now >= next_report) {
            print_progress(log, &snapshot, now - start, false);
            next_report = now + cfg->progress_seconds;
        }
        /* on its own clock, so a generator killed without warning (or run with --progress 0)
         * leaves a manifest at most this far behind its file */
        if (cfg->manifest && now >= next_manifest) {
            datagen_write_manifest(cfg, &snapshot, start_time, "running");
            next_manifest = now + cfg->manifest_seconds;
        }
    }
    for (int i = 0; i < started; i++) pthread_join(tids[i], NULL);
    free(tids);
    while (sh.finished) { /* games played past the target */
        Game *g = sh.finished;
        sh.finished = g->next;
        game_free(g);
    }
    if (fclose(sh.out) != 0 && !sh.failed) fail_locked(&sh, "closing the output file failed");
    pthread_mutex_destroy(&sh.lock);
    sh.total.seconds = time_now_seconds() - start;
    if (stats) *stats = sh.total;
    if (cfg->manifest && !datagen_write_manifest(cfg, &sh.total, start_time, sh.failed ? "failed" : "done") && !sh.failed)
        sh.failed = true, snprintf(sh.error, sizeof sh.error, "cannot write '%s.manifest'", cfg->out_path);
    if (sh.failed) {
        snprintf(err, err_size, "%s", sh.error);
        return false;
    }
    print_progress(log, &sh.total, sh.total.seconds, true);
    return true;
}

/* ---------------- inspection ---------------- */

int datagen_dump(const char *path, uint64_t limit, FILE *out) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "datagen: cannot open '%s': %s\n", path, strerror(errno));
        return 1;
    }
    if (!S_ISREG(st.st_mode)) { /* a device or FIFO never ends, a directory has no records */
        fprintf(stderr, "datagen: '%s' is not a regular file\n", path);
        return 1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "datagen: cannot open '%s': %s\n", path, strerror(errno));
        return 1;
    }
    static const char *result_text[3] = {"0-1", "1/2-1/2", "1-0"};
    uint64_t n = 0, bad = 0, games = 0, results[3] = {0, 0, 0};
    double abs_score = 0;
    uint32_t prev_game = UINT32_MAX;
    Record rec;
    while (fread(&rec, RECORD_SIZE, 1, f) == 1) {
        RecordPosition rp;
        if (!record_decode(&rec, &rp)) {
            bad++;
            continue;
        }
        if (rp.game != prev_game) games++, results[rp.result]++, prev_game = rp.game;
        abs_score += abs(rp.score);
        if (n < limit) {
            char fen[128];
            record_fen(&rp, fen, sizeof fen);
            fprintf(out, "%s | score %d | result %s | ply %u | game %u\n", fen, rp.score, result_text[rp.result], rp.ply,
                    rp.game);
        }
        n++;
    }
    fclose(f);
    long long trailing = (long long)(st.st_size % RECORD_SIZE);
    if (trailing)
        fprintf(stderr, "datagen: '%s' ends in %lld bytes that are not a whole record (a run stopped mid-write?)\n",
                path, trailing);
    fprintf(out, "%" PRIu64 " positions (%" PRIu64 " unreadable) in %" PRIu64 " games, %.1f per game; results "
                 "1-0 %" PRIu64 ", draw %" PRIu64 ", 0-1 %" PRIu64 "; mean |score| %.0f cp\n",
            n, bad, games, games ? (double)n / (double)games : 0.0, results[RESULT_WHITE_WIN], results[RESULT_DRAW],
            results[RESULT_BLACK_WIN], n ? abs_score / (double)n : 0.0);
    return bad || trailing ? 1 : 0;
}

/* ---------------- command line ---------------- */

void datagen_usage(FILE *out) {
    fprintf(out, "usage: squall datagen --out FILE (--games N | --positions N) [--threads T] [--nodes K]\n"
                    "         [--seed S] [--random-plies P] [--eval classical|nnue] [--evalfile NET] [--hash MB]\n"
                    "         [--progress SECONDS]\n"
                    "       squall datagen --dump FILE [--limit N]   print records and a summary\n");
}

static int usage(void) {
    datagen_usage(stderr);
    return 2;
}

bool parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out) {
    if (!text || !*text || *text == '-') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

static void on_stop_signal(int sig) {
    (void)sig;
    datagen_request_stop();
}

int datagen_main(int argc, char **argv) {
    DatagenConfig cfg;
    datagen_config_defaults(&cfg);
    const char *eval = NULL, *evalfile = NULL, *dump = NULL;
    uint64_t dump_limit = 20;
    for (int i = 1; i < argc; i += 2) { /* each flag takes one value */
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        bool ok = v != NULL;
        if (!strcmp(a, "--out")) cfg.out_path = v;
        else if (!strcmp(a, "--games")) ok = ok && parse_u64(v, 1, UINT64_MAX, &cfg.games);
        else if (!strcmp(a, "--positions")) ok = ok && parse_u64(v, 1, UINT64_MAX, &cfg.positions);
        else if (!strcmp(a, "--threads")) ok = ok && parse_u64(v, 1, 256, &n), cfg.threads = (int)n;
        else if (!strcmp(a, "--nodes")) ok = ok && parse_u64(v, 1, UINT64_MAX, &cfg.nodes);
        else if (!strcmp(a, "--seed")) ok = ok && parse_u64(v, 0, UINT64_MAX, &cfg.seed);
        else if (!strcmp(a, "--random-plies")) ok = ok && parse_u64(v, 0, 40, &n), cfg.random_plies = (int)n;
        else if (!strcmp(a, "--hash")) ok = ok && parse_u64(v, 1, 65536, &n), cfg.hash_mb = (int)n;
        else if (!strcmp(a, "--eval")) eval = v;
        else if (!strcmp(a, "--dump")) dump = v;
        else if (!strcmp(a, "--limit")) ok = ok && parse_u64(v, 0, UINT64_MAX, &dump_limit);
        else if (!strcmp(a, "--evalfile")) evalfile = v;
        else if (!strcmp(a, "--progress")) {
            char *end;
            cfg.progress_seconds = ok ? strtod(v, &end) : 0;
            ok = ok && *v && !*end && isfinite(cfg.progress_seconds) && cfg.progress_seconds >= 0;
        } else {
            fprintf(stderr, "datagen: unknown argument '%s'\n", a);
            return usage();
        }
        if (!ok) {
            fprintf(stderr, "datagen: bad or missing value for %s\n", a);
            return usage();
        }
    }
    if (dump) return datagen_dump(dump, dump_limit, stdout);
    if (!cfg.out_path || (!cfg.games && !cfg.positions)) return usage();
    if (cfg.games && cfg.positions) {
        fprintf(stderr, "datagen: give --games or --positions, not both\n");
        return 2;
    }
    char err[256];
    if (evalfile && !nnue_load_file(evalfile, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return 2;
    }
    if (eval && !strcmp(eval, "nnue")) cfg.settings.eval_mode = EVAL_MODE_NNUE;
    else if (eval && !strcmp(eval, "classical")) cfg.settings.eval_mode = EVAL_MODE_CLASSICAL;
    else if (eval) {
        fprintf(stderr, "datagen: --eval takes classical or nnue\n");
        return 2;
    }
    if (cfg.settings.eval_mode == EVAL_MODE_NNUE && !nnue_is_loaded()) {
        fprintf(stderr, "datagen: --eval nnue needs a net (none embedded; give --evalfile)\n");
        return 2;
    }
    char evaluator[160];
    datagen_describe_evaluator(&cfg.settings, evaluator, sizeof evaluator);
    cfg.evaluator = evaluator, cfg.manifest = true;
    fprintf(stderr, "datagen: %s evaluation%s%s, %d threads, %" PRIu64 " nodes/move, seed %" PRIu64 ", writing %s\n",
            evaluate_name(&cfg.settings), evaluate_uses_nnue(&cfg.settings) ? " with net " : "",
            evaluate_uses_nnue(&cfg.settings) ? nnue_net_name() : "",
            cfg.threads, cfg.nodes, cfg.seed, cfg.out_path);
    /* The first SIGINT or SIGTERM stops cleanly; the handler then resets, so a second one
     * ends the process at once. */
    struct sigaction stop_action;
    memset(&stop_action, 0, sizeof stop_action);
    stop_action.sa_handler = on_stop_signal;
    stop_action.sa_flags = SA_RESETHAND;
    sigemptyset(&stop_action.sa_mask);
    sigaction(SIGINT, &stop_action, NULL);
    sigaction(SIGTERM, &stop_action, NULL);
    DatagenStats st;
    if (!datagen_run(&cfg, &st, stderr, err, sizeof err)) {
        fprintf(stderr, "datagen: %s\n", err);
        return 1;
    }
    fprintf(stderr,
            "datagen: results white/draw/black %" PRIu64 "/%" PRIu64 "/%" PRIu64 "; ends: mate %" PRIu64
            ", stalemate %" PRIu64 ", rule %" PRIu64 ", material %" PRIu64 ", resign %" PRIu64 ", draw-adj %" PRIu64
            ", max-ply %" PRIu64 "\n",
            st.wins[RESULT_WHITE_WIN], st.wins[RESULT_DRAW], st.wins[RESULT_BLACK_WIN], st.ends_mate,
            st.ends_stalemate, st.ends_rule, st.ends_material, st.ends_resign, st.ends_draw_adj, st.ends_max_ply);
    fprintf(stderr,
            "datagen: %" PRIu64 " searched plies, kept %" PRIu64 "; left out: in check %" PRIu64 ", noisy best move %" PRIu64
            ", mate score %" PRIu64 "; openings redrawn %" PRIu64 "\n",
            st.plies, st.positions, st.skipped_check, st.skipped_noisy, st.skipped_mate, st.openings_rejected);
    return 0;
}
