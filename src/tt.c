/* Transposition table. Each entry is two 64-bit words: data, and key XOR data, so a torn
 * write by another thread fails the key check instead of returning mixed data. */
#include "tt.h"

#include "memory.h"
#include "search_params.h"

/* data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2, pv 1, generation 5 */
#define GENERATION_MASK 31
/* hashfull samples the first clusters' entries: 1000 of them, so the count is per mille */
#define HASHFULL_SAMPLE_CLUSTERS (1000 / TT_CLUSTER_SIZE)
static inline uint64_t pack(Move move, int score, int eval, int depth, int bound, bool pv, int gen) {
    return (uint64_t)move | ((uint64_t)(uint16_t)score << 16) | ((uint64_t)(uint16_t)eval << 32)
         | ((uint64_t)(uint8_t)depth << 48) | ((uint64_t)(bound | (pv << 2) | (gen << 3)) << 56);
}
static inline int data_depth(uint64_t d) { return (int8_t)(d >> 48); }
static inline int data_gen(uint64_t d) { return (int)(d >> 59); }

static inline TTCluster *cluster_of(const TranspositionTable *tt, uint64_t key) {
    return &tt->clusters[(size_t)(((unsigned __int128)key * tt->cluster_count) >> 64)];
}

bool tt_init(TranspositionTable *tt, size_t megabytes) {
    size_t count = megabytes * 1024 * 1024 / sizeof(TTCluster);
    if (count == 0) count = 1;
    void *mem = memory_alloc_large(count * sizeof(TTCluster));
    if (!mem) return false;
    memory_free_large(tt->clusters, tt->cluster_count * sizeof(TTCluster));
    tt->clusters = mem;
    tt->cluster_count = count;
    tt->generation = 0; /* the block comes zero-filled: no clearing pass */
    return true;
}

void tt_free(TranspositionTable *tt) {
    memory_free_large(tt->clusters, tt->cluster_count * sizeof(TTCluster));
    tt->clusters = NULL;
    tt->cluster_count = 0;
}

void tt_clear(TranspositionTable *tt) {
    memory_zero_large(tt->clusters, tt->cluster_count * sizeof(TTCluster));
    tt->generation = 0;
}

void tt_new_search(TranspositionTable *tt) { tt->generation = (uint8_t)((tt->generation + 1) & GENERATION_MASK); }

bool tt_probe(const TranspositionTable *tt, uint64_t key, TTHit *hit) {
    TTCluster *c = cluster_of(tt, key);
    for (int i = 0; i < TT_CLUSTER_SIZE; i++) {
        uint64_t data = atomic_load_explicit(&c->entries[i].data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&c->entries[i].key_xor_data, memory_order_relaxed);
        if ((check ^ data) == key && data) {
            hit->move = (Move)data;
            hit->score = (int16_t)(data >> 16);
            hit->eval = (int16_t)(data >> 32);
            hit->depth = (int8_t)(data >> 48);
            hit->bound = (uint8_t)((data >> 56) & 3);
            hit->pv = (data >> 58) & 1;
            return true;
        }
    }
    return false;
}

void tt_store(TranspositionTable *tt, uint64_t key, Move move, int score, int eval, int depth, int bound, bool pv) {
    TTCluster *c = cluster_of(tt, key);
    TTEntry *replace = &c->entries[0];
    int worst = 1 << 30;
    for (int i = 0; i < TT_CLUSTER_SIZE; i++) {
        TTEntry *e = &c->entries[i];
        uint64_t data = atomic_load_explicit(&e->data, memory_order_relaxed);
        uint64_t check = atomic_load_explicit(&e->key_xor_data, memory_order_relaxed);
        if ((check ^ data) == key || !data) {
            /* same position: keep the old move if we have none, and keep deeper exact info */
            if (move == MOVE_NONE && data && (check ^ data) == key) move = (Move)data;
            if ((check ^ data) == key && bound != BOUND_EXACT && depth + TT_KEEP_DEPTH_MARGIN < data_depth(data)
                && data_gen(data) == tt->generation)
                return;
            replace = e;
            break;
        }
        /* older generations and shallower entries go first */
        int age = (tt->generation - data_gen(data)) & GENERATION_MASK;
        int value = data_depth(data) - TT_AGE_WEIGHT * age;
        if (value < worst) worst = value, replace = e;
    }
    uint64_t data = pack(move, score, eval, depth, bound, pv, tt->generation);
    atomic_store_explicit(&replace->data, data, memory_order_relaxed);
    atomic_store_explicit(&replace->key_xor_data, key ^ data, memory_order_relaxed);
}

int tt_hashfull(const TranspositionTable *tt) {
    int used = 0, samples = 0;
    for (size_t i = 0; i < HASHFULL_SAMPLE_CLUSTERS && i < tt->cluster_count; i++)
        for (int j = 0; j < TT_CLUSTER_SIZE; j++, samples++) {
            uint64_t data = atomic_load_explicit(&tt->clusters[i].entries[j].data, memory_order_relaxed);
            if (data && data_gen(data) == tt->generation) used++;
        }
    return samples ? used * 1000 / samples : 0;
}
