/* Running searches: the engine's asynchronous search (the protocols start it and it answers
 * through SearchOutput callbacks), blocking searches for tools, and independent workers. */
#ifndef SQUALL_THREADS_H
#define SQUALL_THREADS_H

#include "search.h"
#include "settings.h"
#include "tt.h"

#define SEARCH_DEFAULT_HASH_MB 16
#define SEARCH_DEFAULT_THREADS 1
#define SEARCH_MAX_THREADS 256

void search_init(void);                 /* once at startup: tables, default TT and threads */
/* Starts an asynchronous search of root; returns at once. Any search still running is stopped first. */
void search_start(const Position *root, const SearchLimits *limits, const EngineSettings *settings,
                  const SearchOutput *output);
void search_stop(void);                 /* asks the running search to finish; bestmove follows */
/* Pondering becomes a normal timed search whose clock starts now (or at limits->clock_start_ms);
 * limits, when given, replace the budget with one from the clock as it is now. */
void search_ponderhit(const SearchLimits *limits);
/* pause / resume: the search waits, and the time in between does not count on its clocks. */
void search_pause(void);
void search_resume(void);
void search_wait(void);                 /* blocks until the running search (if any) has reported bestmove */
bool search_is_running(void);
int search_set_threads(int n);          /* returns how many were created (fewer only when memory runs out) */
bool search_set_hash(int mb);           /* resizes (and clears) the TT; false keeps the old one */
void search_clear(void);                /* new game: clears TT and history tables */
int search_hashfull(void);

/* Blocking single-threaded search on the engine's TT, for tests and tools; prints nothing. */
SearchResult search_sync(const Position *root, const SearchLimits *limits, const EngineSettings *settings);

/* Independent single-threaded searchers with their own TT, for tools that run many
 * searches in parallel (datagen). Each worker must be used by one thread at a time. */
typedef struct SearchWorker SearchWorker;
SearchWorker *search_worker_create(int hash_mb);
void search_worker_destroy(SearchWorker *worker);
void search_worker_clear(SearchWorker *worker);   /* TT and histories */
SearchResult search_worker_run(SearchWorker *worker, const Position *root, const SearchLimits *limits,
                               const EngineSettings *settings);
/* The worker's transposition table, for tests that check what a search stored. */
const TranspositionTable *search_worker_tt(const SearchWorker *worker);

#endif
