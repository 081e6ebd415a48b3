/* TEMPORARY stub so the protocol layer can be built and driven; the real search replaces it.
 * It plays the first legal move and honours stop/ponderhit/infinite. */
#include "search.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "movegen.h"
#include "options.h"


static pthread_t worker;
static atomic_bool running, stop_flag, pondering;
static Position root_pos;
static SearchLimits cur_limits;
static SearchOutput cur_output;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void search_limits_clear(SearchLimits *l) {
    memset(l, 0, sizeof *l);
    l->time[WHITE] = l->time[BLACK] = -1;
}

static void *run(void *arg) {
    (void)arg;
    MoveList list;
    generate_legal(&root_pos, &list);
    Move best = list.count ? list.moves[0] : MOVE_NONE;
    SearchReport r;
    memset(&r, 0, sizeof r);
    r.depth = 1, r.multipv = 1, r.bound = BOUND_EXACT, r.nodes = 1, r.pv_length = best ? 1 : 0, r.pv[0] = best;
    if (cur_output.report) cur_output.report(&r, cur_output.ctx);
    while ((cur_limits.infinite || atomic_load(&pondering)) && !atomic_load(&stop_flag)) usleep(1000);
    if (cur_output.bestmove) cur_output.bestmove(best, MOVE_NONE, cur_output.ctx);
    atomic_store(&running, false);
    return NULL;
}

void search_init(void) {}
void search_start(const Position *root, const SearchLimits *limits, const SearchOutput *output) {
    search_stop();
    search_wait();
    pthread_mutex_lock(&lock);
    memcpy(&root_pos, root, sizeof root_pos);
    root_pos.accumulator = NULL;
    cur_limits = *limits;
    cur_output = *output;
    atomic_store(&stop_flag, false);
    atomic_store(&pondering, limits->ponder);
    atomic_store(&running, true);
    pthread_create(&worker, NULL, run, NULL);
    pthread_mutex_unlock(&lock);
}
static bool joinable;
void search_stop(void) { atomic_store(&stop_flag, true); }
void search_ponderhit(void) { atomic_store(&pondering, false); }
void search_wait(void) {
    pthread_mutex_lock(&lock);
    if (atomic_load(&running) || joinable) pthread_join(worker, NULL);
    joinable = false;
    pthread_mutex_unlock(&lock);
}
bool search_is_running(void) { return atomic_load(&running); }
void search_set_threads(int n) { engine_options.threads = n; }
void search_set_hash(int mb) { engine_options.hash_mb = mb; }
void search_clear(void) {}
int search_hashfull(void) { return 0; }
SearchResult search_sync(const Position *root, const SearchLimits *limits) {
    (void)limits;
    SearchResult res = {0};
    MoveList list;
    generate_legal(root, &list);
    res.best = list.count ? list.moves[0] : MOVE_NONE;
    return res;
}
