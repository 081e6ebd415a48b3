/* Eager NNUE accumulator updates.
 *
 * A normal move changes at most four feature rows per perspective (castling: king and rook
 * move; capture-promotion: pawn out, piece in, victim out), applied as one fused add/sub pass.
 * A king move changes the bucket/orientation of its own perspective, so that half is rebuilt
 * from scratch after saving it in a backup slot indexed by the nesting depth; unmake restores
 * the slot. The opponent's half always updates incrementally. The int16 lanes wrap like the
 * vector instructions do, so incremental and refreshed values agree bit for bit. */
#include "accumulator.h"

#include <stdlib.h>
#include <string.h>

#include "simd.h"

extern bool nnue_use_simd;        /* nnue.c: test hook for the scalar reference */
extern unsigned nnue_generation;  /* nnue.c: bumped at every net change */

static inline void acc_kernel(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                              const int16_t *const *sub, int nsub) {
    if (nnue_use_simd) simd_acc_update(dst, src, add, nadd, sub, nsub);
    else scalar_acc_update(dst, src, add, nadd, sub, nsub);
}

Accumulator *accumulator_create(void) {
    Accumulator *acc = aligned_alloc(64, (sizeof(Accumulator) + 63) & ~(size_t)63);
    if (!acc) return NULL;
    memset(acc, 0, sizeof *acc);
    acc->capacity = MAX_STATES;
    acc->backup = aligned_alloc(64, (size_t)acc->capacity * sizeof(AccumulatorHalf));
    if (!acc->backup) {
        free(acc);
        return NULL;
    }
    return acc;
}

void accumulator_destroy(Accumulator *acc) {
    if (!acc) return;
    free(acc->backup);
    free(acc);
}

void accumulator_compute_half(const NnueNet *net, const Position *pos, int perspective, AccumulatorHalf *out) {
    const int16_t *rows[SIMD_MAX_ROWS];
    int ksq = pos->king_square[perspective], n = 0;
    uint32_t psqt = 0; /* unsigned: wraps instead of overflowing (values are range-checked anyway) */
    Bitboard occ = pos->occupied;
    while (occ && n < SIMD_MAX_ROWS) {
        int sq = pop_lsb(&occ);
        int f = nnue_feature_index(perspective, sq, pos->board[sq], ksq);
        rows[n++] = net->ft_weights[f];
        psqt += (uint32_t)net->psqt_weights[f];
    }
    acc_kernel(out->values, net->ft_biases, rows, n, NULL, 0);
    out->psqt = (int32_t)psqt;
}

void accumulator_refresh(Accumulator *acc, const Position *pos) {
    acc->depth = 0;
    acc->net_generation = nnue_generation;
    const NnueNet *net = nnue_current_net();
    if (!net) return;
    accumulator_compute_half(net, pos, WHITE, &acc->half[WHITE]);
    accumulator_compute_half(net, pos, BLACK, &acc->half[BLACK]);
}

/* Applies the dirty list to one perspective; `undo` swaps the roles of added and removed rows. */
static void update_half(const NnueNet *net, AccumulatorHalf *h, int perspective, int ksq, const DirtyPieces *dirty,
                        bool undo) {
    const int16_t *add[3], *sub[3];
    int nadd = 0, nsub = 0;
    uint32_t psqt = (uint32_t)h->psqt;
    for (int i = 0; i < dirty->count; i++) {
        const DirtyPiece *d = &dirty->list[i];
        int gone = undo ? d->to : d->from, came = undo ? d->from : d->to;
        if (gone != SQ_NONE) {
            int f = nnue_feature_index(perspective, gone, d->piece, ksq);
            sub[nsub++] = net->ft_weights[f];
            psqt -= (uint32_t)net->psqt_weights[f];
        }
        if (came != SQ_NONE) {
            int f = nnue_feature_index(perspective, came, d->piece, ksq);
            add[nadd++] = net->ft_weights[f];
            psqt += (uint32_t)net->psqt_weights[f];
        }
    }
    acc_kernel(h->values, h->values, add, nadd, sub, nsub);
    h->psqt = (int32_t)psqt;
}

/* True when the dirty list moves the king of colour `mover` (castling lists the king too). */
static inline bool moves_king(const DirtyPieces *dirty, int mover) {
    int king = make_piece(mover, KING);
    for (int i = 0; i < dirty->count; i++)
        if (dirty->list[i].piece == king) return true;
    return false;
}

#if defined(SQUALL_CHECK_ACCUMULATOR)
static void check_or_die(const Accumulator *acc, const Position *pos, const char *where) {
    if (nnue_current_net() && !accumulator_matches_refresh(acc, pos)) {
        char fen[128];
        pos_get_fen(pos, fen, sizeof fen);
        fprintf(stderr, "accumulator out of step after %s in %s\n", where, fen);
        abort();
    }
}
#define CHECK_ACCUMULATOR(acc, pos, where) check_or_die(acc, pos, where)
#else
#define CHECK_ACCUMULATOR(acc, pos, where) ((void)0)
#endif

void accumulator_make(Accumulator *acc, const Position *pos, const DirtyPieces *dirty) {
    int d = acc->depth++;
    const NnueNet *net = nnue_current_net();
    if (!net) return;
    int mover = !pos->side, other = pos->side;
    if (moves_king(dirty, mover)) {
        if (d >= 0 && d < acc->capacity) acc->backup[d] = acc->half[mover];
        accumulator_compute_half(net, pos, mover, &acc->half[mover]);
    } else {
        update_half(net, &acc->half[mover], mover, pos->king_square[mover], dirty, false);
    }
    update_half(net, &acc->half[other], other, pos->king_square[other], dirty, false);
    CHECK_ACCUMULATOR(acc, pos, "make");
}

void accumulator_unmake(Accumulator *acc, const Position *pos, const DirtyPieces *dirty) {
    int d = --acc->depth;
    const NnueNet *net = nnue_current_net();
    if (!net) return;
    int mover = pos->side, other = !pos->side;
    if (moves_king(dirty, mover)) {
        /* no slot when the move predates the last refresh or nesting ran past the capacity:
         * the board is already restored, so rebuilding is always correct, just slower */
        if (d >= 0 && d < acc->capacity) acc->half[mover] = acc->backup[d];
        else accumulator_compute_half(net, pos, mover, &acc->half[mover]);
    } else {
        update_half(net, &acc->half[mover], mover, pos->king_square[mover], dirty, true);
    }
    update_half(net, &acc->half[other], other, pos->king_square[other], dirty, true);
    CHECK_ACCUMULATOR(acc, pos, "unmake");
}

bool accumulator_matches_refresh(const Accumulator *acc, const Position *pos) {
    const NnueNet *net = nnue_current_net();
    if (!net) return true;
    if (acc->net_generation != nnue_generation) return false;
    for (int p = WHITE; p <= BLACK; p++) {
        AccumulatorHalf fresh;
        accumulator_compute_half(net, pos, p, &fresh);
        if (fresh.psqt != acc->half[p].psqt || memcmp(fresh.values, acc->half[p].values, sizeof fresh.values) != 0)
            return false;
    }
    return true;
}

void accumulator_assert_current(const Accumulator *acc, const Position *pos, const char *where) {
#if !defined(NDEBUG) || defined(SQUALL_CHECK_ACCUMULATOR)
    if (!acc || !nnue_current_net() || accumulator_matches_refresh(acc, pos)) return;
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    fprintf(stderr, "accumulator out of step (%s) in %s\n", where ? where : "?", fen);
    abort();
#else
    (void)acc, (void)pos, (void)where;
#endif
}
