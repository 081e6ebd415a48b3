/* Legal move generation with check and pin masks, so no move needs a make/test/unmake. */
#include "movegen.h"

static inline void add(MoveList *l, Move m) { l->moves[l->count++] = m; }

/* Own pieces pinned to our king by enemy sliders. */
static Bitboard pinned_pieces(const Position *pos, int us, int ksq) {
    int them = !us;
    Bitboard snipers = (rook_attacks(ksq, 0) & (pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN)))
                     | (bishop_attacks(ksq, 0) & (pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN)));
    Bitboard pinned = 0;
    while (snipers) {
        int s = pop_lsb(&snipers);
        Bitboard blockers = between_bb(ksq, s) & ~square_bb(s) & pos->occupied;
        if (blockers && !more_than_one(blockers)) pinned |= blockers & pos->color_bb[us];
    }
    return pinned;
}

/* Every square the enemy attacks, looking through our king (so it cannot step back along a ray). */
static Bitboard enemy_attacks(const Position *pos, int them, Bitboard occ) {
    Bitboard att = pawn_attacks_bb(them, pos_pieces(pos, them, PAWN));
    Bitboard b = pos_pieces(pos, them, KNIGHT);
    while (b) att |= knight_attacks(pop_lsb(&b));
    b = pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN);
    while (b) att |= bishop_attacks(pop_lsb(&b), occ);
    b = pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN);
    while (b) att |= rook_attacks(pop_lsb(&b), occ);
    att |= king_attacks(pos->king_square[them]);
    return att;
}

static inline void add_promotions(MoveList *l, int from, int to, int kind, bool capture) {
    if (kind != GEN_QUIET) add(l, move_make_kind(from, to, MOVE_PROMOTION, QUEEN));
    if (kind == GEN_ALL || (kind == GEN_NOISY && capture) || (kind == GEN_QUIET && !capture)) {
        add(l, move_make_kind(from, to, MOVE_PROMOTION, KNIGHT));
        add(l, move_make_kind(from, to, MOVE_PROMOTION, ROOK));
        add(l, move_make_kind(from, to, MOVE_PROMOTION, BISHOP));
    }
}

static bool ep_is_legal(const Position *pos, int us, int ksq, int from, int to) {
    int them = !us;
    int cap_sq = us == WHITE ? to - 8 : to + 8;
    Bitboard occ = (pos->occupied ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(to);
    /* the only subtle case: both pawns leave a rank or diagonal the king sits on */
    return !(rook_attacks(ksq, occ) & (pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN)))
        && !(bishop_attacks(ksq, occ) & (pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN)));
}

static void generate_pawn_moves(const Position *pos, MoveList *l, int kind, Bitboard target, Bitboard pinned, int ksq) {
    int us = pos->side, them = !us;
    int up = us == WHITE ? 8 : -8;
    Bitboard promo_rank = us == WHITE ? rank_bb(A7) : rank_bb(A2);
    Bitboard third_rank = us == WHITE ? rank_bb(A3) : rank_bb(A6);
    Bitboard pawns = pos_pieces(pos, us, PAWN);
    Bitboard empty = ~pos->occupied;
    Bitboard enemies = pos->color_bb[them];

    Bitboard promoting = pawns & promo_rank, normal = pawns & ~promo_rank;
    /* The pin test is per move: cheap because pins are rare. */
#define PIN_OK(from, to) (!(pinned & square_bb(from)) || aligned(ksq, from, to))

    if (kind != GEN_NOISY) {
        Bitboard push1 = (us == WHITE ? shift_north(normal) : shift_south(normal)) & empty;
        Bitboard push2 = (us == WHITE ? shift_north(push1 & third_rank) : shift_south(push1 & third_rank)) & empty;
        push1 &= target;
        push2 &= target;
        while (push1) {
            int to = pop_lsb(&push1), from = to - up;
            if (PIN_OK(from, to)) add(l, move_make(from, to));
        }
        while (push2) {
            int to = pop_lsb(&push2), from = to - 2 * up;
            if (PIN_OK(from, to)) add(l, move_make(from, to));
        }
    }
    if (promoting) {
        Bitboard b = promoting;
        while (b) {
            int from = pop_lsb(&b);
            int push_to = from + up;
            if ((empty & target & square_bb(push_to)) && PIN_OK(from, push_to)) add_promotions(l, from, push_to, kind, false);
            Bitboard caps = pawn_attacks(us, from) & enemies & target;
            while (caps) {
                int to = pop_lsb(&caps);
                if (PIN_OK(from, to)) add_promotions(l, from, to, kind, true);
            }
        }
    }
    if (kind != GEN_QUIET) {
        Bitboard west = us == WHITE ? shift_north(shift_west(normal)) : shift_south(shift_west(normal));
        Bitboard east = us == WHITE ? shift_north(shift_east(normal)) : shift_south(shift_east(normal));
        west &= enemies & target;
        east &= enemies & target;
        while (west) {
            int to = pop_lsb(&west), from = to - up + 1;
            if (PIN_OK(from, to)) add(l, move_make(from, to));
        }
        while (east) {
            int to = pop_lsb(&east), from = to - up - 1;
            if (PIN_OK(from, to)) add(l, move_make(from, to));
        }
        int ep = pos_state(pos)->ep_square;
        if (ep != SQ_NONE) {
            /* in check, en passant helps only by taking the checking pawn (ep target never blocks a slider check it could not also open) */
            int cap_sq = ep - up;
            if ((target & square_bb(cap_sq)) || (target & square_bb(ep))) {
                Bitboard b = pawn_attacks(them, ep) & normal;
                while (b) {
                    int from = pop_lsb(&b);
                    if (ep_is_legal(pos, us, ksq, from, ep)) add(l, move_make_kind(from, ep, MOVE_ENPASSANT, KNIGHT));
                }
            }
        }
    }
#undef PIN_OK
}

/* Out of line: it runs only while rights remain, and the main generator keeps its registers. */
static __attribute__((noinline)) void generate_castling(const Position *pos, MoveList *l, int rights, int ksq,
                                                        Bitboard danger, Bitboard pinned) {
    const CastlingSetup *cs = &pos->castling;
    for (int index = 0; index < 4; index++) { /* rights holds the mover's only; short castling first */
        /* a pinned castling rook shields the king's destination (a Chess960 case: rook b1, enemy on a1) */
        if ((rights & (1 << index)) && !(pos->occupied & cs->must_be_empty[index]) && !(danger & cs->king_path[index])
            && !(pinned & square_bb(cs->rook_square[index])))
            add(l, move_make_kind(ksq, castling_king_to(index), MOVE_CASTLING, KNIGHT));
    }
}

void generate_moves(const Position *pos, MoveList *l, int kind) {
    int us = pos->side, them = !us;
    int ksq = pos->king_square[us];
    Bitboard own = pos->color_bb[us];
    Bitboard checkers = pos_checkers(pos);
    l->count = 0;

    Bitboard type_mask = kind == GEN_ALL ? ~own : kind == GEN_NOISY ? pos->color_bb[them] : ~pos->occupied;
    Bitboard danger = enemy_attacks(pos, them, pos->occupied ^ square_bb(ksq));
    Bitboard k = king_attacks(ksq) & type_mask & ~danger;
    while (k) add(l, move_make(ksq, pop_lsb(&k)));
    if (more_than_one(checkers)) return;

    Bitboard target = checkers ? between_bb(ksq, lsb(checkers)) : ~0ULL;
    Bitboard pinned = pinned_pieces(pos, us, ksq);
    generate_pawn_moves(pos, l, kind, target, pinned, ksq);

    Bitboard piece_target = type_mask & target;
    for (int type = KNIGHT; type <= QUEEN; type++) {
        Bitboard b = pos_pieces(pos, us, type);
        if (type == KNIGHT) b &= ~pinned; /* a pinned knight never moves */
        while (b) {
            int from = pop_lsb(&b);
            Bitboard att = piece_attacks(type, from, pos->occupied) & piece_target;
            if (pinned & square_bb(from)) att &= line_bb(ksq, from);
            while (att) add(l, move_make(from, pop_lsb(&att)));
        }
    }

    int rights = pos_state(pos)->castling & (us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO);
    if (kind != GEN_NOISY && !checkers && rights) generate_castling(pos, l, rights, ksq, danger, pinned);
}

int count_legal_moves(const Position *pos) {
    MoveList l;
    generate_moves(pos, &l, GEN_ALL);
    return l.count;
}

bool move_list_contains(const MoveList *list, Move m) {
    for (int i = 0; i < list->count; i++)
        if (list->moves[i] == m) return true;
    return false;
}
