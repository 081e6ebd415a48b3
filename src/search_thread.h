/* The contract between the searcher (search.c) and the thread pool (threads.c): the state
 * one search shares across its threads, and the per-thread calls the pool drives. */
#ifndef SQUALL_SEARCH_THREAD_H
#define SQUALL_SEARCH_THREAD_H

#include <stdatomic.h>

#include "search.h"
#include "settings.h"
#include "timeman.h"
#include "tt.h"

/* One thread's searcher: position, stacks, histories, root moves (defined in search.c). */
typedef struct SearchThread SearchThread;

typedef struct SearchShared {
    TranspositionTable *tt;
    SearchLimits limits;
    EngineSettings settings;
    TimeManager tm;
    atomic_bool stop;
    atomic_bool pondering;
    atomic_bool paused;             /* xboard pause: the threads wait until resume or stop */
    SearchThread **threads;         /* threads[0] reports and decides when to stop */
    int thread_count;
    SearchOutput output;
    bool report;                    /* send thinking lines */
} SearchShared;

void search_tables_init(void);      /* once: reduction table and evaluator */

SearchThread *search_thread_create(int id, SearchShared *shared); /* NULL when out of memory */
void search_thread_destroy(SearchThread *t);
void search_thread_clear(SearchThread *t);                         /* new game: histories */

/* Prepares t to search root; iterative deepening then runs until the limits or
 * shared->stop end it. */
void search_setup_root(SearchThread *t, const Position *root, const SearchLimits *limits);
void search_iterative_deepening(SearchThread *t);
/* The root moves in the order the next iteration takes them (the first is searched first);
 * up to max of them into out, returns how many (tests). */
int search_root_order(const SearchThread *t, Move *out, int max);

/* Once stop is set (the helpers may still be on their way out): the line to play goes first
 * (the weakened choice under strength_elo) and is shown if the last thinking line differs
 * from it. */
void search_finish(SearchShared *s);
/* The answer of a finished search: threads[0]'s best line, the nodes of all threads. Needs
 * only threads[0] to have stopped. */
void search_collect_result(const SearchShared *s, SearchResult *res);
/* Once every thread has stopped: the evaluator calls and late-move reductions of all. */
void search_collect_stats(const SearchShared *s, SearchResult *res);

#endif
