/* SEE by the swap algorithm: both sides recapture with their least valuable attacker,
 * x-rays appear as pieces leave, and either side may stop when continuing loses. */
#include "see.h"

SEARCH_PARAM_TABLE int see_piece_value[PIECE_TYPE_NB] = {SEE_VALUE_PAWN_DEFAULT, SEE_VALUE_KNIGHT_DEFAULT,
                                                         SEE_VALUE_BISHOP_DEFAULT, SEE_VALUE_ROOK_DEFAULT,
                                                         SEE_VALUE_QUEEN_DEFAULT, SEE_VALUE_KING};

bool see_at_least(const Position *pos, Move m, int threshold) {
    if (move_kind(m) == MOVE_CASTLING) return threshold <= 0;
    int from = move_from(m), to = move_to(m);
    int gain = 0;
    if (move_kind(m) == MOVE_ENPASSANT) gain = see_piece_value[PAWN];
    else if (pos->board[to] != NO_PIECE) gain = see_piece_value[piece_type(pos->board[to])];
    int next_victim = piece_type(pos->board[from]);
    if (move_kind(m) == MOVE_PROMOTION) {
        next_victim = move_promo_type(m);
        gain += see_piece_value[next_victim] - see_piece_value[PAWN];
    }
    /* swap: how far above the threshold we stand if the opponent stops now */
    int swap = gain - threshold;
    if (swap < 0) return false;
    swap = see_piece_value[next_victim] - swap;
    if (swap <= 0) return true; /* even losing the moved piece keeps us at the threshold */

    Bitboard occ = pos->occupied ^ square_bb(from) ^ square_bb(to);
    if (move_kind(m) == MOVE_ENPASSANT) occ ^= square_bb(pos->side == WHITE ? to - 8 : to + 8);
    Bitboard attackers = pos_attackers_to(pos, to, occ);
    Bitboard diag = pos_type_bb(pos, BISHOP) | pos_type_bb(pos, QUEEN);
    Bitboard orth = pos_type_bb(pos, ROOK) | pos_type_bb(pos, QUEEN);
    int side = pos->side;
    bool we_win = true; /* flips each time a side recaptures profitably */
    for (;;) {
        side = !side;
        attackers &= occ;
        Bitboard mine = attackers & pos->color_bb[side];
        if (!mine) break;
        we_win = !we_win;
        int type = PAWN;
        while (!(mine & pos_pieces(pos, side, type))) type++;
        if (type == KING) /* the king may take only if nothing can take back */
            return (attackers & pos->color_bb[!side]) ? !we_win : we_win;
        swap = see_piece_value[type] - swap;
        if (swap < (int)we_win) break;
        Bitboard one = mine & pos_pieces(pos, side, type);
        occ ^= one & (0 - one);
        if (type == PAWN || type == BISHOP || type == QUEEN) attackers |= bishop_attacks(to, occ) & diag;
        if (type == ROOK || type == QUEEN) attackers |= rook_attacks(to, occ) & orth;
    }
    return we_win;
}
