/* Shared transposition table: lockless (key stored XOR data), clusters with aging. */
#ifndef SQUALL_TT_H
#define SQUALL_TT_H

#include <stdatomic.h>
#include <stddef.h>

#include "search.h"
#include "types.h"

typedef struct {
    Move move;
    int16_t score, eval;
    int8_t depth;
    uint8_t bound;
    bool pv;
} TTHit;

typedef struct {
    /* Relaxed atomics: racing threads may tear an entry across the pair, which the XOR
     * check detects; relaxed access compiles to plain moves on x86. */
    _Atomic uint64_t key_xor_data;
    _Atomic uint64_t data;
} TTEntry;

#define TT_CLUSTER_SIZE 4

typedef struct {
    TTEntry entries[TT_CLUSTER_SIZE];
} TTCluster;

typedef struct {
    TTCluster *clusters;
    size_t cluster_count;
    uint8_t generation;
} TranspositionTable;

/* Mate scores count plies from the root; the TT keeps them counted from the stored node, so
 * an entry reached at another ply still gives the right mate distance. */
static inline int score_to_tt(int score, int ply) {
    if (score >= SCORE_MATE_IN_MAX) return score + ply;
    if (score <= -SCORE_MATE_IN_MAX) return score - ply;
    return score;
}

static inline int score_from_tt(int score, int ply) {
    if (score == SCORE_NONE) return SCORE_NONE; /* entry that holds only a static evaluation */
    if (score >= SCORE_MATE_IN_MAX) return score - ply;
    if (score <= -SCORE_MATE_IN_MAX) return score + ply;
    return score;
}

bool tt_init(TranspositionTable *tt, size_t megabytes);
void tt_free(TranspositionTable *tt);
void tt_clear(TranspositionTable *tt);
void tt_new_search(TranspositionTable *tt);
bool tt_probe(const TranspositionTable *tt, uint64_t key, TTHit *hit);
void tt_store(TranspositionTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, bool pv);
int tt_hashfull(const TranspositionTable *tt);
static inline void tt_prefetch(const TranspositionTable *tt, uint64_t key) {
    __builtin_prefetch(&tt->clusters[(size_t)(((unsigned __int128)key * tt->cluster_count) >> 64)]);
}

#endif
