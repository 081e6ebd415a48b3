/* Correction history: how far the static evaluation has been off from search results in
 * positions with the same pawn structure, and with the same material, learned during the
 * search and added to the evaluation (per side to move). Keys are hashed from the bitboards
 * and piece counts on the fly, so the board keeps no extra keys for it. Off unless the
 * CORRECTION_HISTORY tunable is set (a candidate awaiting its SPRT). */
#ifndef SQUALL_CORRECTION_H
#define SQUALL_CORRECTION_H

#include "board.h"
#include "history.h"
#include "search_params.h"

/* Entries hold the error in 1/CORRECTION_GRAIN centipawns, so small errors still add up. */
#define CORRECTION_GRAIN 256
#define CORRECTION_ENTRY_MAX (CORRECTION_LIMIT_CP * CORRECTION_GRAIN)

static inline unsigned correction_pawn_index(const Position *pos) {
    uint64_t h = pos->piece_bb[W_PAWN] * 0x9E3779B97F4A7C15ull ^ pos->piece_bb[B_PAWN] * 0xC2B2AE3D27D4EB4Full;
    return (unsigned)(h >> (64 - CORRECTION_TABLE_BITS));
}

static inline unsigned correction_material_index(const Position *pos) {
    uint64_t h = 0;
    for (int pc = W_PAWN; pc < PIECE_NB; pc++) h = (h + (uint64_t)popcount(pos->piece_bb[pc])) * 0x100000001B3ull;
    h *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(h >> (64 - CORRECTION_TABLE_BITS));
}

/* The correction in centipawns for the side to move. */
static inline int correction_value(const CorrectionHistory *c, const Position *pos) {
    int pawn = c->pawn[pos->side][correction_pawn_index(pos)];
    int material = c->material[pos->side][correction_material_index(pos)];
    return (pawn * CORRECTION_PAWN_PERCENT + material * (100 - CORRECTION_PAWN_PERCENT)) / (100 * CORRECTION_GRAIN);
}

static inline void correction_entry_update(int32_t *entry, int target, int weight) {
    int v = (*entry * (CORRECTION_WEIGHT_MAX - weight) + target * weight) / CORRECTION_WEIGHT_MAX;
    *entry = v > CORRECTION_ENTRY_MAX ? CORRECTION_ENTRY_MAX : v < -CORRECTION_ENTRY_MAX ? -CORRECTION_ENTRY_MAX : v;
}

/* After a search of depth plies found score where the (uncorrected) evaluation said raw_eval:
 * move each entry towards the error, faster for deeper searches. */
static inline void correction_update(CorrectionHistory *c, const Position *pos, int depth, int score, int raw_eval) {
    int error = (score - raw_eval) * CORRECTION_GRAIN;
    if (error > CORRECTION_ENTRY_MAX) error = CORRECTION_ENTRY_MAX;
    if (error < -CORRECTION_ENTRY_MAX) error = -CORRECTION_ENTRY_MAX;
    int weight = (depth + 1) * CORRECTION_WEIGHT_PER_DEPTH;
    if (weight > CORRECTION_WEIGHT_CAP) weight = CORRECTION_WEIGHT_CAP;
    correction_entry_update(&c->pawn[pos->side][correction_pawn_index(pos)], error, weight);
    correction_entry_update(&c->material[pos->side][correction_material_index(pos)], error, weight);
}

#endif
