/* NNUE accumulator: lazy per-ply stack and a refresh cache.
 *
 * Make pushes an entry holding the move's piece changes (at most four feature rows per
 * perspective: castling moves king and rook, a capture-promotion removes the pawn and the
 * victim and adds the new piece) and updates the two PSQT sums right away (scalar, cheap, and
 * all the lazy evaluation tier needs). Unmake pops the entry: the one below is exactly the
 * state before the move, so nothing has to be undone.
 *
 * The 256-lane halves are filled only when an evaluation needs them. For each perspective the
 * stack is walked down to the nearest entry whose half is computed; the changes of every ply
 * above it are applied in one fused add/sub pass over the lanes. If the walk meets a move of
 * that perspective's own king (which changes the bucket and the orientation of every feature)
 * or an entry with nothing usable below it, the half is taken from the refresh cache instead:
 * the cache remembers, per own king square, the half of the last position refreshed there and
 * its piece bitboards; adding the rows of the pieces that are new and subtracting those that
 * are gone gives the half of the current board, usually from a handful of rows instead of ~30.
 *
 * All of it is integer arithmetic on int16 lanes that wrap in every kernel, so whichever path
 * fills a half, it equals a refresh from scratch bit for bit (tests and the
 * -DSQUALL_CHECK_ACCUMULATOR build check this). */
#include "accumulator.h"

#include <stdlib.h>
#include <string.h>

#include "nnue_features.h"
#include "nnue_layers.h"

/* Most rows one lazy catch-up applies before a cache refresh is preferred (a refresh diff
 * is rarely more than ~8 rows). */
#define MAX_CATCHUP_ROWS 24
/* Rows of one refresh-cache diff: every piece gone and every piece new. */
#define MAX_DIFF_ROWS (2 * NNUE_MAX_ROWS)

Accumulator *accumulator_create(void) {
    Accumulator *acc = aligned_alloc(64, (sizeof(Accumulator) + 63) & ~(size_t)63);
    if (!acc) return NULL;
    memset(acc, 0, sizeof *acc);
    acc->capacity = MAX_STATES;
    size_t bytes = ((size_t)MAX_STATES * sizeof(AccumulatorEntry) + 63) & ~(size_t)63;
    acc->stack = aligned_alloc(64, bytes);
    if (!acc->stack) {
        free(acc);
        return NULL;
    }
    memset(acc->stack, 0, bytes);
    acc->net_generation = acc->cache_generation = 0; /* never a live generation (starts at 1) */
    return acc;
}

void accumulator_destroy(Accumulator *acc) {
    if (!acc) return;
    free(acc->stack);
    free(acc);
}

/* PSQT sum of one perspective from scratch (unsigned: wraps instead of overflowing). */
static int32_t psqt_from_scratch(const NnueNet *net, const Position *pos, int perspective) {
    int ksq = pos->king_square[perspective];
    uint32_t psqt = 0;
    for (Bitboard occ = pos->occupied; occ;) {
        int sq = pop_lsb(&occ);
        psqt += (uint32_t)net->psqt_weights[nnue_feature_index(perspective, sq, pos->board[sq], ksq)];
    }
    return (int32_t)psqt;
}

void accumulator_compute_half(const NnueNet *net, const Position *pos, int perspective, AccumulatorHalf *out) {
    const int16_t *rows[NNUE_MAX_ROWS];
    int ksq = pos->king_square[perspective], n = 0;
    uint32_t psqt = 0;
    Bitboard occ = pos->occupied;
    while (occ && n < NNUE_MAX_ROWS) {
        int sq = pop_lsb(&occ);
        int f = nnue_feature_index(perspective, sq, pos->board[sq], ksq);
        rows[n++] = net->ft_weights[f];
        psqt += (uint32_t)net->psqt_weights[f];
    }
    nnue_rows_update(out->values, net->ft_biases, rows, n, NULL, 0);
    out->psqt = (int32_t)psqt;
}

/* Empties the refresh cache (every entry = biases, no pieces) when the net changed. */
static void cache_reset_if_stale(Accumulator *acc, const NnueNet *net) {
    if (acc->cache_generation == nnue_net_generation()) return;
    for (int p = 0; p < COLOR_NB; p++)
        for (int s = 0; s < SQUARE_NB; s++) {
            memcpy(acc->cache[p][s].values, net->ft_biases, sizeof acc->cache[p][s].values);
            memset(acc->cache[p][s].pieces, 0, sizeof acc->cache[p][s].pieces);
        }
    acc->cache_generation = nnue_net_generation();
}

void accumulator_refresh(Accumulator *acc, const Position *pos) {
    acc->depth = 0;
    acc->net_generation = nnue_net_generation();
    const NnueNet *net = nnue_current_net();
    if (!net) return;
    cache_reset_if_stale(acc, net);
    AccumulatorEntry *e = &acc->stack[0];
    accumulator_compute_half(net, pos, WHITE, &e->half[WHITE]);
    accumulator_compute_half(net, pos, BLACK, &e->half[BLACK]);
    e->computed[WHITE] = e->computed[BLACK] = 1;
    e->linked = 0;
    e->king_moved = 0;
    e->dirty.count = 0;
}

/* PSQT change of one perspective for a dirty list (king square unchanged for it). */
static inline uint32_t psqt_delta(const NnueNet *net, int perspective, int ksq, const DirtyPieces *dirty) {
    uint32_t delta = 0;
    for (int i = 0; i < dirty->count; i++) {
        const DirtyPiece *d = &dirty->list[i];
        if (d->from != SQ_NONE) delta -= (uint32_t)net->psqt_weights[nnue_feature_index(perspective, d->from, d->piece, ksq)];
        if (d->to != SQ_NONE) delta += (uint32_t)net->psqt_weights[nnue_feature_index(perspective, d->to, d->piece, ksq)];
    }
    return delta;
}

#if defined(SQUALL_CHECK_ACCUMULATOR)
static void check_or_die(Accumulator *acc, const Position *pos, const char *where) {
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

static void bring_half(Accumulator *acc, const NnueNet *net, const Position *pos, int p);

void accumulator_after_make(Accumulator *acc, const Position *pos) {
    int d = ++acc->depth;
    if (d < 0 || d >= acc->capacity) return; /* outside the stack: evaluations compute from scratch */
    const NnueNet *net = nnue_current_net();
    if (!net) return;
    AccumulatorEntry *e = &acc->stack[d];
    const DirtyPieces *dirty = pos_dirty_pieces(pos);
    int mover = !pos->side;
    e->dirty = *dirty;
    e->computed[WHITE] = e->computed[BLACK] = 0;
    e->king_moved = 0;
    for (int i = 0; i < dirty->count; i++)
        if (dirty->list[i].piece == make_piece(mover, KING)) e->king_moved = (uint8_t)(1u << mover);
    /* Entry d-1 holds the board before this move whenever d >= 1: it was written when that
     * depth was last reached (by a refresh or a make) and only deeper entries changed since.
     * Depth 0 reached by a make comes from below the last refresh: entry 0 is another board. */
    e->linked = d > 0;
    for (int p = WHITE; p <= BLACK; p++) {
        if (!e->linked || ((e->king_moved >> p) & 1)) e->half[p].psqt = psqt_from_scratch(net, pos, p);
        else
            e->half[p].psqt =
                (int32_t)((uint32_t)e[-1].half[p].psqt + psqt_delta(net, p, pos->king_square[p], dirty));
    }
    if (acc->eager && acc->net_generation == nnue_net_generation()) {
        /* reference mode: the changed rows now; a king move rebuilds only its own side's half,
         * and the entry below stays as the per-ply backup that unmake returns to */
        cache_reset_if_stale(acc, net);
        bring_half(acc, net, pos, WHITE);
        bring_half(acc, net, pos, BLACK);
    }
    CHECK_ACCUMULATOR(acc, pos, "make");
}

void accumulator_after_unmake(Accumulator *acc, const Position *pos) {
    /* the entry below is the board before the move, untouched since: nothing to undo */
    (void)pos;
    acc->depth--;
    CHECK_ACCUMULATOR(acc, pos, "unmake");
}

/* Brings perspective p's half of the current board from the refresh cache entry of its king
 * square: rows of the pieces that appeared since that entry was last used are added, rows of
 * those that disappeared subtracted; the entry then equals the current board too. */
static void refresh_from_cache(Accumulator *acc, const NnueNet *net, const Position *pos, int p, int16_t *out) {
    const int16_t *add[NNUE_MAX_ROWS], *sub[NNUE_MAX_ROWS];
    int nadd = 0, nsub = 0;
    int ksq = pos->king_square[p];
    AccumulatorCacheEntry *c = &acc->cache[p][ksq];
    for (int pc = 0; pc < PIECE_NB; pc++) {
        Bitboard now = pos->piece_bb[pc], was = c->pieces[pc];
        for (Bitboard b = now & ~was; b;) add[nadd++] = net->ft_weights[nnue_feature_index(p, pop_lsb(&b), pc, ksq)];
        for (Bitboard b = was & ~now; b;) sub[nsub++] = net->ft_weights[nnue_feature_index(p, pop_lsb(&b), pc, ksq)];
        c->pieces[pc] = now;
    }
    nnue_rows_update(c->values, c->values, add, nadd, sub, nsub);
    memcpy(out, c->values, sizeof c->values);
}

/* Makes stack[depth].half[p].values current: from the nearest computed entry below by the
 * recorded changes, or from the refresh cache when the walk meets a move of p's king, an
 * unlinked entry, or more changes than a refresh would cost. */
static void bring_half(Accumulator *acc, const NnueNet *net, const Position *pos, int p) {
    AccumulatorEntry *st = acc->stack;
    int top = acc->depth;
    if (st[top].computed[p]) return;
    int i = top, rows = 0;
    while (!st[i].computed[p]) {
        if (!st[i].linked || ((st[i].king_moved >> p) & 1)) break;
        rows += 2 * st[i].dirty.count;
        if (rows > MAX_CATCHUP_ROWS) break;
        i--;
    }
    if (st[i].computed[p]) {
        const int16_t *add[MAX_CATCHUP_ROWS], *sub[MAX_CATCHUP_ROWS];
        int nadd = 0, nsub = 0;
        int ksq = pos->king_square[p]; /* p's king did not move between i and top */
        for (int j = i + 1; j <= top; j++) {
            const DirtyPieces *dp = &st[j].dirty;
            for (int k = 0; k < dp->count; k++) {
                const DirtyPiece *dd = &dp->list[k];
                if (dd->from != SQ_NONE) sub[nsub++] = net->ft_weights[nnue_feature_index(p, dd->from, dd->piece, ksq)];
                if (dd->to != SQ_NONE) add[nadd++] = net->ft_weights[nnue_feature_index(p, dd->to, dd->piece, ksq)];
            }
        }
        nnue_rows_update(st[top].half[p].values, st[i].half[p].values, add, nadd, sub, nsub);
    } else {
        refresh_from_cache(acc, net, pos, p, st[top].half[p].values);
    }
    st[top].computed[p] = 1;
}

/* The stack entry of the current board, or NULL when there is none that can be trusted. */
static inline AccumulatorEntry *current_entry(const Accumulator *acc) {
    if (acc->net_generation != nnue_net_generation() || acc->depth < 0 || acc->depth >= acc->capacity) return NULL;
    return &acc->stack[acc->depth];
}

const AccumulatorEntry *accumulator_psqt_entry(const Accumulator *acc) {
    return nnue_current_net() ? current_entry(acc) : NULL;
}

const AccumulatorHalf *accumulator_halves(Accumulator *acc, const Position *pos) {
    const NnueNet *net = nnue_current_net();
    AccumulatorEntry *e = current_entry(acc);
    if (!net || !e) return NULL;
    if (!(e->computed[WHITE] & e->computed[BLACK])) {
        cache_reset_if_stale(acc, net);
        bring_half(acc, net, pos, WHITE);
        bring_half(acc, net, pos, BLACK);
    }
    return e->half;
}

bool accumulator_matches_refresh(Accumulator *acc, const Position *pos) {
    const NnueNet *net = nnue_current_net();
    if (!net) return true;
    if (acc->net_generation != nnue_net_generation()) return false;
    const AccumulatorHalf *h = accumulator_halves(acc, pos);
    if (!h) return true; /* no entry for this depth: evaluations compute from scratch */
    for (int p = WHITE; p <= BLACK; p++) {
        AccumulatorHalf fresh;
        accumulator_compute_half(net, pos, p, &fresh);
        if (fresh.psqt != h[p].psqt || memcmp(fresh.values, h[p].values, sizeof fresh.values) != 0) return false;
    }
    return true;
}

void accumulator_assert_current(Accumulator *acc, const Position *pos, const char *where) {
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
