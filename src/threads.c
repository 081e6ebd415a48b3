/* Lazy SMP thread pool and the engine's asynchronous search. A search runs on its own
 * thread so the protocol loop keeps reading (stop, ponderhit, isready); helper threads
 * search the same root and share only the transposition table. */
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "search_thread.h"
#include "strength.h"

static void *helper_main(void *arg) {
    search_iterative_deepening((SearchThread *)arg);
    return NULL;
}

/* Runs the whole search on the calling thread (helpers on their own), then fills res. A
 * reporting search answers (output.bestmove) before the helpers are joined: one that waits for
 * a CPU on a loaded machine must not hold up the move. */
static void run_search(SearchShared *s, const Position *root, SearchResult *res) {
    pthread_t helpers[SEARCH_MAX_THREADS];
    bool started[SEARCH_MAX_THREADS] = {false};
    tt_new_search(s->tt);
    for (int i = 0; i < s->thread_count; i++) search_setup_root(s->threads[i], root, &s->limits);
    for (int i = 1; i < s->thread_count; i++)
        started[i] = pthread_create(&helpers[i], NULL, helper_main, s->threads[i]) == 0;
    search_iterative_deepening(s->threads[0]);
    /* UCI: in infinite or ponder mode the answer waits for stop/ponderhit */
    while ((s->limits.infinite || atomic_load(&s->pondering)) && !atomic_load(&s->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    atomic_store(&s->stop, true);
    search_finish(s);
    search_collect_result(s, res);
    if (s->report && s->output.bestmove) s->output.bestmove(res->best, res->ponder, s->output.ctx);
    for (int i = 1; i < s->thread_count; i++)
        if (started[i]) pthread_join(helpers[i], NULL);
    search_collect_stats(s, res);
}

/* The limits a search runs under: those given, and the node budget of a limited strength. */
static void set_limits(SearchShared *s, const SearchLimits *limits, const EngineSettings *settings) {
    s->limits = *limits;
    s->settings = *settings;
    if (settings->strength_elo) {
        uint64_t budget = strength_node_limit(settings->strength_elo);
        if (!s->limits.nodes || s->limits.nodes > budget) s->limits.nodes = budget;
    }
}

/* ---------- the engine's asynchronous search ---------- */

static TranspositionTable engine_tt;
static SearchShared engine;
static pthread_t engine_main_thread;
static bool engine_thread_started;
static atomic_bool engine_running;
static Position engine_root;

void search_init(void) {
    static bool done = false;
    if (done) return;
    done = true;
    search_tables_init();
    if (!tt_init(&engine_tt, SEARCH_DEFAULT_HASH_MB)) tt_init(&engine_tt, 1);
    engine.tt = &engine_tt;
    search_set_threads(SEARCH_DEFAULT_THREADS);
}

int search_set_threads(int n) {
    search_init();
    search_stop();
    search_wait();
    if (n < 1) n = 1;
    if (n > SEARCH_MAX_THREADS) n = SEARCH_MAX_THREADS;
    for (int i = 0; i < engine.thread_count; i++) search_thread_destroy(engine.threads[i]);
    free(engine.threads);
    engine.threads = calloc((size_t)n, sizeof *engine.threads);
    engine.thread_count = 0;
    for (int i = 0; i < n; i++) {
        SearchThread *t = search_thread_create(i, &engine);
        if (!t) break;
        engine.threads[engine.thread_count++] = t;
    }
    return engine.thread_count;
}

bool search_set_hash(int mb) {
    search_init();
    search_stop();
    search_wait();
    return tt_init(&engine_tt, (size_t)mb);
}

void search_clear(void) {
    search_init();
    search_stop();
    search_wait();
    tt_clear(&engine_tt);
    for (int i = 0; i < engine.thread_count; i++) search_thread_clear(engine.threads[i]);
}

int search_hashfull(void) { return tt_hashfull(&engine_tt); }

static void *engine_main(void *arg) {
    (void)arg;
    SearchResult res;
    run_search(&engine, &engine_root, &res);
    atomic_store(&engine_running, false);
    return NULL;
}

void search_start(const Position *root, const SearchLimits *limits, const EngineSettings *settings,
                  const SearchOutput *output) {
    search_init();
    search_stop();
    search_wait();
    memcpy(&engine_root, root, sizeof engine_root);
    set_limits(&engine, limits, settings);
    engine.output = *output;
    engine.report = true;
    atomic_store(&engine.stop, false);
    atomic_store(&engine.pondering, limits->ponder);
    atomic_store(&engine.paused, false);
    settings_install_search_params(settings); /* tuning builds: the time manager's constants */
    timeman_init(&engine.tm, limits, root->side, root->game_ply, limits->move_overhead_ms);
    atomic_store(&engine_running, true);
    engine_thread_started = pthread_create(&engine_main_thread, NULL, engine_main, NULL) == 0;
    if (!engine_thread_started) { /* cannot start a thread: answer synchronously */
        engine_main(NULL);
    }
}

void search_stop(void) { atomic_store(&engine.stop, true); }

void search_ponderhit(const SearchLimits *limits) {
    /* the clock starts now: pondering time was the opponent's */
    timeman_ponderhit(&engine.tm, limits, engine_root.side, engine_root.game_ply);
    atomic_store(&engine.pondering, false); /* after the budget: the search reads it once this is seen */
}

void search_pause(void) {
    if (!atomic_load(&engine_running) || atomic_load(&engine.paused)) return;
    timeman_pause(&engine.tm);
    atomic_store(&engine.paused, true);
}

void search_resume(void) {
    if (!atomic_load(&engine.paused)) return;
    timeman_resume(&engine.tm); /* before the threads go on: they read the moved clock */
    atomic_store(&engine.paused, false);
}

void search_wait(void) {
    if (engine_thread_started) {
        pthread_join(engine_main_thread, NULL);
        engine_thread_started = false;
    }
}

bool search_is_running(void) { return atomic_load(&engine_running); }

/* ---------- synchronous workers ---------- */

struct SearchWorker {
    SearchShared shared;
    TranspositionTable tt;
    bool owns_tt;
};

static SearchWorker *worker_create_with_tt(TranspositionTable *shared_tt, int hash_mb) {
    search_init();
    SearchWorker *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    if (shared_tt) {
        w->shared.tt = shared_tt;
    } else {
        if (!tt_init(&w->tt, (size_t)(hash_mb > 0 ? hash_mb : 1))) {
            free(w);
            return NULL;
        }
        w->shared.tt = &w->tt;
        w->owns_tt = true;
    }
    w->shared.threads = calloc(1, sizeof *w->shared.threads);
    w->shared.threads[0] = search_thread_create(0, &w->shared);
    w->shared.thread_count = 1;
    return w;
}

SearchWorker *search_worker_create(int hash_mb) { return worker_create_with_tt(NULL, hash_mb); }

void search_worker_destroy(SearchWorker *w) {
    if (!w) return;
    search_thread_destroy(w->shared.threads[0]);
    free(w->shared.threads);
    if (w->owns_tt) tt_free(&w->tt);
    free(w);
}

void search_worker_clear(SearchWorker *w) {
    tt_clear(w->shared.tt);
    search_thread_clear(w->shared.threads[0]);
}

SearchResult search_worker_run(SearchWorker *w, const Position *root, const SearchLimits *limits,
                               const EngineSettings *settings) {
    SearchResult res;
    set_limits(&w->shared, limits, settings);
    w->shared.limits.infinite = false;
    w->shared.limits.ponder = false;
    w->shared.report = false;
    atomic_store(&w->shared.stop, false);
    atomic_store(&w->shared.pondering, false);
    atomic_store(&w->shared.paused, false);
    settings_install_search_params(settings); /* tuning builds: the time manager's constants */
    timeman_init(&w->shared.tm, &w->shared.limits, root->side, root->game_ply, limits->move_overhead_ms);
    run_search(&w->shared, root, &res);
    return res;
}

const TranspositionTable *search_worker_tt(const SearchWorker *w) { return w->shared.tt; }

SearchResult search_sync(const Position *root, const SearchLimits *limits, const EngineSettings *settings) {
    static SearchWorker *sync_worker;
    search_init();
    if (!sync_worker) sync_worker = worker_create_with_tt(&engine_tt, 0);
    return search_worker_run(sync_worker, root, limits, settings);
}
