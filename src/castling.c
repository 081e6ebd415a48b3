/* The castling setup read from a FEN castling field, and the field written back. */
#include "castling.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board.h"

static bool field_error(char *err, size_t size, const char *msg) {
    if (err && size) snprintf(err, size, "%s", msg);
    return false;
}

/* Squares from a to b on one rank, both included. */
static Bitboard rank_span(int a, int b) { return between_bb(a, b) | square_bb(a); }

static Bitboard squares_above(int sq) { return rank_bb(sq) & ~((square_bb(sq) << 1) - 1); }
static Bitboard squares_below(int sq) { return rank_bb(sq) & (square_bb(sq) - 1); }

static void add_right(CastlingSetup *cs, int index, int king, int rook) {
    int king_to = castling_king_to(index), rook_to = castling_rook_to(index);
    Bitboard castlers = square_bb(king) | square_bb(rook);
    cs->must_be_empty[index] = (rank_span(king, king_to) | rank_span(rook, rook_to)) & ~castlers;
    cs->king_path[index] = rank_span(king, king_to) & ~square_bb(king);
    cs->rook_square[index] = (uint8_t)rook;
    int color_rights = index < 2 ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO;
    cs->keep[king] &= (uint8_t)~color_rights;
    cs->keep[rook] &= (uint8_t)~(1 << index);
}

bool castling_parse_field(Position *pos, const char *field, char *err, size_t err_size) {
    CastlingSetup *cs = &pos->castling;
    memset(cs, 0, sizeof *cs);
    memset(cs->keep, ALL_CASTLING, sizeof cs->keep);
    int mask = 0;
    for (const char *c = strcmp(field, "-") ? field : ""; *c; c++) {
        int color = isupper((unsigned char)*c) ? WHITE : BLACK;
        int letter = toupper((unsigned char)*c);
        int king = pos->king_square[color];
        Bitboard rooks = pos_pieces(pos, color, ROOK) & rank_bb(king);
        int rook;
        if (letter != 'K' && letter != 'Q' && (letter < 'A' || letter > 'H'))
            return field_error(err, err_size, "castling field has a character other than KQkq, A-H, a-h or -");
        if (relative_rank(color, king) != 0)
            return field_error(err, err_size, "castling right without king and rook on their original squares");
        if (letter == 'K') { /* X-FEN: the outermost rook on that side */
            Bitboard r = rooks & squares_above(king);
            if (!r) return field_error(err, err_size, "castling right without king and rook on their original squares");
            rook = msb(r);
        } else if (letter == 'Q') {
            Bitboard r = rooks & squares_below(king);
            if (!r) return field_error(err, err_size, "castling right without king and rook on their original squares");
            rook = lsb(r);
        } else { /* Shredder-FEN / X-FEN: the rook's file */
            rook = make_square(letter - 'A', square_rank(king));
            if (!(rooks & square_bb(rook)))
                return field_error(err, err_size, "castling right without king and rook on their original squares");
        }
        int index = castling_index(color, rook < king);
        if (mask & (1 << index)) return field_error(err, err_size, "castling field repeats a right");
        mask |= 1 << index;
        add_right(cs, index, king, rook);
    }
    pos->states[pos->state_index].castling = (uint8_t)mask;
    return true;
}

void castling_write_field(const Position *pos, char *out) {
    int mask = pos_state(pos)->castling, n = 0;
    for (int index = 0; index < 4; index++) {
        if (!(mask & (1 << index))) continue;
        int color = index >> 1, rook = pos->castling.rook_square[index];
        Bitboard outside = pos_pieces(pos, color, ROOK) & (index & 1 ? squares_below(rook) : squares_above(rook));
        char c = outside ? (char)('A' + square_file(rook)) : "KQ"[index & 1];
        out[n++] = color == WHITE ? c : (char)tolower((unsigned char)c);
    }
    if (!n) out[n++] = '-';
    out[n] = 0;
}
