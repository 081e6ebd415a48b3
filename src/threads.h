/* Running searches: the engine's asynchronous search (the protocols start it and it answers
 * through SearchOutput callbacks), blocking searches for tools, and independent workers. */
#ifndef SQUALL_THREADS_H
#define SQUALL_THREADS_H

#include "search.h"

void search_init(void);                 /* once at startup (tables, TT with engine_options.hash_mb) */
/* Starts an asynchronous search of root; returns at once. Any search still running is stopped first. */
void search_start(const Position *root, const SearchLimits *limits, const SearchOutput *output);
void search_stop(void);                 /* asks the running search to finish; bestmove follows */
void search_ponderhit(void);            /* pondering becomes a normal timed search */
void search_wait(void);                 /* blocks until the running search (if any) has reported bestmove */
bool search_is_running(void);
void search_set_threads(int n);
void search_set_hash(int mb);           /* resizes (and clears) the transposition table */
void search_clear(void);                /* new game: clears TT and history tables */
int search_hashfull(void);

/* Blocking single-threaded search on the engine's TT, for tests and tools; prints nothing. */
SearchResult search_sync(const Position *root, const SearchLimits *limits);

/* Independent single-threaded searchers with their own TT, for tools that run many
 * searches in parallel (datagen). Each worker must be used by one thread at a time. */
typedef struct SearchWorker SearchWorker;
SearchWorker *search_worker_create(int hash_mb);
void search_worker_destroy(SearchWorker *worker);
void search_worker_clear(SearchWorker *worker);   /* TT and histories */
SearchResult search_worker_run(SearchWorker *worker, const Position *root, const SearchLimits *limits);

#endif
